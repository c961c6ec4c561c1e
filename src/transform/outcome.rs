//! The one shape of every transformation: what it returns ([`Outcome`]) and its entry point
//! ([`Transformation`]). Below the transformations, which each return an `Outcome`, and the list
//! that runs them (`transform::ALL`).

use serde_json::Value;

use crate::config::Config;
use crate::edits::ItemEdit;
use crate::model::Index;
use crate::results::Finding;

/// What a transformation returns.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// What `fill` writes.
    pub edits: Vec<ItemEdit>,
    /// Results that hold in either mode: what is wrong or worth knowing about the input.
    pub findings: Vec<Finding>,
    /// Infos that say what the edits wrote (a pool's summary, a flag turned on): reported only
    /// when the edits are written.
    pub written: Vec<Finding>,
    /// What `mode: check` reports instead of writing: an error at each object and field that
    /// `fill` would change.
    pub check: Vec<Finding>,
    /// The address plan (`ipreuse plan`): what the preallocations hold once filled, as ids
    /// of the index the transformation read.
    pub rows: Vec<crate::transform::preallocations::allocate::Planned>,
    /// The names of the networks the rows refer to ([`crate::transform::preallocations::allocate::Planned::network`]).
    pub networks: Vec<String>,
}

/// One transformation: whether the config turns it on, and its entry point.
pub struct Transformation {
    pub on: fn(&Config) -> bool,
    pub apply: fn(&Index, &[Value], &Config) -> Outcome,
}
