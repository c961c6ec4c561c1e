//! Allocation (SPEC §5): validate what is there, then give every required claim
//! `{host}-{pool}` an address, and say so as edits on the pool items.
//!
//! Pins are the host annotations `ipreuse.dev/ip.{pool}` and the live addresses adoption
//! ([`crate::transform::preallocations::adopt`]) follows to their hosts; both are step 2 of the precedence.
//!
//! Pools are filled in byte order of (namespace, name), so the entries just added to earlier
//! pools count as taken for later overlapping ones. Nothing here touches text.

mod blocked;
mod context;
mod driver;
mod fill;
mod map;
mod name_prefix;
mod network;
mod ordinal;
mod pool_map;
mod pool_view;
mod rank;
mod shared;
mod state;
mod validate;

use crate::ipam::Addr;
use crate::model::{HostId, Index, PoolId};
use crate::results::{Finding, ResourceRef};

use crate::edits::ItemEdit;
pub use driver::allocate;
pub use pool_map::{Meet, PoolMap, Reserved};

/// What allocation decided.
#[derive(Debug, Default)]
pub struct Allocation {
    /// Edits on items (item index, edit).
    pub edits: Vec<ItemEdit>,
    /// One info result per filled pool (kept, added, rewritten, pruned, free left): true only
    /// if the edits are written, so the caller reports them only then.
    pub summaries: Vec<Finding>,
    /// The address plan: one row per required claim that has an address after the fill
    /// (`ipreuse plan`), in pool order, then natural host order. Only ids: the text of a
    /// [`Row`] is made by [`Planned::row`] when the plan is asked for.
    pub rows: Vec<Planned>,
    /// The names of the networks the rows' pools are on ([`Planned::network`]).
    pub networks: Vec<String>,
    /// The address map of each filled pool, in the order the pools were filled (only for
    /// `ipreuse plan`).
    pub maps: Vec<PoolMap>,
    /// What fill says of each entry it changes, and what check says instead.
    pub changes: EntryChanges,
}

/// A row of the address plan as allocation finds it: which host and pool, the address and
/// where it comes from. [`Planned::row`] spells it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    pub host: HostId,
    pub pool: PoolId,
    pub address: Addr,
    pub status: Status,
    /// The network the pool is on (SPEC §10): its position in the allocation's `networks`.
    pub network: Option<usize>,
}

impl Planned {
    /// The row as `ipreuse plan` shows it, with the names of `idx` (the index allocated from)
    /// and `networks` (the names of the networks, [`Allocation::networks`]).
    pub fn row(&self, idx: &Index, networks: &[String]) -> Row {
        let pool = &idx.pools[self.pool];
        Row {
            namespace: pool.object.namespace.clone(),
            host: idx.hosts[self.host].name().to_string(),
            pool: pool.name().to_string(),
            address: self.address.to_string(),
            status: self.status,
            network: self.network.and_then(|i| networks.get(i)).cloned(),
            clusters: Vec::new(),
        }
    }
}

/// One required claim `{host}-{pool}` and the address it has once the pool is filled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    pub namespace: String,
    pub host: String,
    pub pool: String,
    /// Canonical text, as the entry holds it (or is written).
    pub address: String,
    pub status: Status,
    /// The network the pool is on (SPEC §10), if any.
    pub network: Option<String>,
    /// For a host of a Cluster stamped from a ClusterClass (SPEC §11): the parts of the
    /// Clusters whose machines claim this address (`{cluster}/control-plane`,
    /// `{cluster}/{MachineDeployment}`); empty otherwise, and then left out of the JSON.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<String>,
}

/// Where a row's address comes from (SPEC §5's precedence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// An existing entry: kept, never moved.
    Kept,
    /// A pin annotation `ipreuse.dev/ip.{pool}` on the host: a new entry.
    Pinned,
    /// The address the claim holds now (`status.indexes`, or adopted from an export): a new entry.
    Live,
    /// Chosen by the strategy: a new entry.
    New,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Kept => "kept",
            Status::Pinned => "pinned",
            Status::Live => "live",
            Status::New => "new",
        }
    }
}

/// What filling says of the changes it makes to the pools' entries: the warnings that are true
/// only once the changes are written (an entry rewritten, an entry pruned), and, in `mode:
/// check`, the errors it reports instead, one per entry fill would add, rewrite or prune, each
/// at that entry's field `spec.preAllocations.{claim}` (SPEC §9).
#[derive(Debug, Default)]
pub struct EntryChanges {
    pub written: Vec<Finding>,
    pub check: Vec<Finding>,
    /// Whether the run checks: only then are the check errors written (a fill of 10,000 hosts
    /// would otherwise format 40,000 messages nobody reads).
    checking: bool,
}

impl EntryChanges {
    pub fn new(checking: bool) -> Self {
        EntryChanges {
            checking,
            ..Self::default()
        }
    }

    /// Records one change of an entry of the pool `on`: `written` when fill writes it, and in check
    /// mode the check error: `is` says what is wrong with the entry as it is (`missing`), `would`
    /// what fill would do, naming the pool (a sentence, after the fix).
    fn record(
        &mut self,
        on: &ResourceRef,
        key: &str,
        written: Option<String>,
        is: &str,
        would: impl FnOnce() -> String,
    ) {
        if written.is_none() && !self.checking {
            return;
        }
        let field = crate::results::key_path("spec.preAllocations", key);
        if let Some(w) = written {
            self.written
                .push(Finding::warning(w).on(on.clone()).at(field.clone()));
        }
        if self.checking {
            self.check.push(
                Finding::error(format!(
                    "check: entry {} is {is}: run ipreuse in fill mode and commit the result. {}",
                    crate::names::short(key),
                    would()
                ))
                .on(on.clone())
                .at(field),
            );
        }
    }
}
