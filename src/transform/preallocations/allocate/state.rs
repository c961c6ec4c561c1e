//! What allocation holds of each pool and host once read: a pool's valid state, its existing
//! entries, and the pins (annotations and adopted addresses). Plain data below the context that
//! builds it and the network and fill steps that read it.

use crate::{FastMap, FastSet};

use super::Status;
use crate::ipam::{self, Addr, IntervalSet};
use crate::model::HostId;
use crate::model::host::{Host, PIN_PREFIX};
use crate::results::ResourceRef;
use crate::transform::preallocations::adopt::{Adopted, PoolLive};

/// One existing `spec.preAllocations` entry.
#[derive(Debug, Clone)]
pub struct Existing {
    pub key: String,
    pub text: String,
    /// `None` when the text is not a valid address (already reported).
    pub addr: Option<Addr>,
    /// Whether `text` is already the address's canonical text (`Display`), as the parse found.
    pub canonical: bool,
}

/// A pin (SPEC §5 step 2): the address a host must get in a pool.
#[derive(Debug, Clone)]
pub struct Pin {
    pub host: HostId,
    pub addr: Addr,
    pub source: PinSource,
}

/// Where a pin comes from.
#[derive(Debug, Clone)]
pub enum PinSource {
    /// The host annotation `ipreuse.dev/ip.{pool}`.
    Annotation,
    /// The address the host holds now, adopted from its live claim ([`crate::transform::preallocations::adopt`]).
    Adopted(Box<Adopted>),
}

impl Pin {
    /// The object and field results about the pin are on: the host's annotation, or what shows
    /// the address in use (the IPAddress, or the pool's `status.indexes`).
    pub fn place(&self, host: &Host, pool: &str) -> (ResourceRef, String) {
        match &self.source {
            PinSource::Annotation => (
                host.object.resource_ref(),
                crate::results::key_path("metadata.annotations", &format!("{PIN_PREFIX}{pool}")),
            ),
            PinSource::Adopted(a) => (a.on.clone(), a.field.clone()),
        }
    }

    /// What messages call it: `pin`, or `adopted address`.
    pub fn what(&self) -> &'static str {
        match self.source {
            PinSource::Annotation => "pin",
            PinSource::Adopted(_) => "adopted address",
        }
    }

    /// Where it comes from, as a sentence that ends a message: nothing for an annotation (the
    /// result is on it), the chain for an adopted address: `. The host holds it through
    /// IPAddress a → IPClaim c → ... → BareMetalHost h`.
    pub fn origin(&self) -> String {
        match &self.source {
            PinSource::Annotation => String::new(),
            PinSource::Adopted(a) => format!(". The host holds it through {}", a.chain),
        }
    }
}

/// A pool whose ranges are valid, with everything read from it.
#[derive(Debug)]
pub struct PoolState {
    pub ipam: ipam::Pool,
    /// All candidate addresses (for overlap tests).
    pub candidates: IntervalSet,
    /// Rule 1: gateways and DNS servers.
    pub rule1: IntervalSet,
    pub existing: Vec<Existing>,
    /// `status.indexes` with parseable addresses: claim → address.
    pub indexes: FastMap<String, Addr>,
    /// Rules 1–4 for this pool.
    pub reserved: IntervalSet,
    /// Position among the valid pools of the namespace in byte order of their names.
    pub rank: u32,
    /// Ranks of the other valid pools of the namespace whose candidates overlap this pool's.
    pub overlaps: Vec<u32>,
    /// The candidates that are blocked before anything is added: reserved, held by this pool
    /// (entries, live claims, pins), or held outside their own candidates by an overlapping
    /// pool. (What overlapping pools hold inside theirs is in the namespace's [`Shared`].)
    pub fixed: IntervalSet,
    /// Candidates held outside their own candidates by an overlapping pool.
    pub held_outside: FastSet<u128>,
    /// Entries added by this run (host, address, where the address comes from), in order;
    /// each is keyed by its claim name (`{host}-{pool}`), which the pool's edit holds. Kept
    /// only for a pool that overlaps another or is in a network, the only ones whose clashes
    /// are looked for.
    pub added: Vec<(HostId, Addr, Status)>,
    /// Claims of `status.indexes` whose address no entry admits any more (SPEC §5 "In use",
    /// an error already reported).
    pub out_of_bounds: FastSet<String>,
    /// What adoption read of the pool's live claims: the claims its IPAddresses show (also in
    /// `indexes`) and the host each live claim leads to.
    pub live: PoolLive,
}

/// What a pool holds for the other pools of its namespace (SPEC §5 "Taken"): its entries,
/// live claims, pins and gateways / DNS servers (entries added by this run come later).
pub fn holdings<'a>(st: &'a PoolState, pins: &'a [Pin]) -> impl Iterator<Item = Addr> + 'a {
    st.existing
        .iter()
        .filter_map(|e| e.addr)
        .chain(st.indexes.values().copied())
        .chain(pins.iter().map(|pin| pin.addr))
        .chain(
            st.rule1
                .ranges()
                .flat_map(|(lo, hi)| (lo..=hi).map(Addr::from_value)),
        )
}
