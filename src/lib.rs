//! `ipreuse`: fills Metal3 IPPool `spec.preAllocations` for BMH-name-based IP reuse.
//!
//! The library is a pure function `input text + config -> output text + results`
//! ([`run::run`]); the binary in `main.rs` is a thin edge around it.
//!
//! Data flows one way:
//! `krm::read` (framing) -> `model` (typed views) -> the transformations (`transform`: the
//! preallocations' `mapping` -> `adopt` (live objects -> pins) -> `allocate`, then the labels and
//! the controller flag) -> edits -> `yaml::apply` -> `verify` -> `krm::write`. The modules are in
//! layers without import cycles (docs/design.md, "Layers"; `tests/it/layers.rs` holds it).
#![forbid(unsafe_code)]

pub mod config;
pub mod edits;
pub mod ipam;
pub mod krm;
pub mod limits;
pub mod model;
pub mod names;
pub mod natural;
#[cfg(test)]
mod prop_config;
pub mod results;
pub mod run;
pub mod selector;
pub mod topology;
pub mod transform;
pub mod verify;
pub mod yaml;

/// The builders of hosts, pools and clusters as YAML text that the integration tests use too
/// (one way to build a pool for both kinds of test). Each unit test uses a few of them.
#[cfg(test)]
#[path = "../tests/it/fixtures.rs"]
#[allow(dead_code)]
pub(crate) mod fixtures;

/// The hash map of the tables built after the parse, keyed by addresses, ids and names: std's
/// `HashMap` with foldhash's hasher instead of SipHash. Why it is safe for these keys: docs/design.md,
/// "Dependencies".
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// The hash set that goes with [`FastMap`].
pub type FastSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
