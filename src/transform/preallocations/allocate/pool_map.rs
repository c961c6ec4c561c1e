//! The address map of one filled pool (`ipreuse plan --format html`): what each of its addresses
//! is once every pool is filled, beside the rows of the plan ([`super::map`] makes it). Interval
//! sets, never a listing: an IPv6 /64 pool costs what a /29 costs, and the page decides how to
//! draw it. Plain data, below the files that make it.
//!
//! Every address the pool hands out is in exactly one of: a row of the plan (a host's address,
//! kept, pinned, live or new), [`PoolMap::reserved`] (why, by the first reason that applies, in
//! the order the error messages give them), [`PoolMap::taken`] (held by something that is no row:
//! an entry of no host of the input, a live claim of another claim, a pin of a host the mapping
//! does not pair with the pool, another pool of the namespace or network) or free.

use crate::ipam::{Addr, IntervalSet};

/// Why an address of a pool is reserved (never handed to a new entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reserved {
    /// A `gateway` of the pool or of an entry of `spec.pools`.
    Gateway,
    /// A `dnsServers` address of the pool or of an entry.
    DnsServer,
    /// The network address of the address's subnet or prefix.
    Network,
    /// The IPv4 broadcast address of the address's subnet or prefix.
    Broadcast,
    /// In the config's `reserve`.
    Reserve,
    /// The control-plane endpoint of a Cluster or Metal3Cluster of the pool's namespace, or of
    /// a namespace with a pool on the same network.
    Endpoint,
}

impl Reserved {
    /// Every reason, in the order an address is labelled by (the first that applies).
    pub const ALL: [Reserved; 6] = [
        Reserved::Gateway,
        Reserved::DnsServer,
        Reserved::Network,
        Reserved::Broadcast,
        Reserved::Reserve,
        Reserved::Endpoint,
    ];

    /// What a person reads: `gateway`, `DNS server`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Reserved::Gateway => "gateway",
            Reserved::DnsServer => "DNS server",
            Reserved::Network => "network address",
            Reserved::Broadcast => "broadcast address",
            Reserved::Reserve => "in the config's reserve",
            Reserved::Endpoint => "control-plane endpoint",
        }
    }

    /// A word for machines (the page's `data-*` values and CSS classes).
    pub fn key(self) -> &'static str {
        match self {
            Reserved::Gateway => "gateway",
            Reserved::DnsServer => "dns",
            Reserved::Network => "network",
            Reserved::Broadcast => "broadcast",
            Reserved::Reserve => "reserve",
            Reserved::Endpoint => "endpoint",
        }
    }
}

/// A pool of another namespace on the same network whose addresses meet this pool's (SPEC §10:
/// a warning on both, an error with `strictNetworks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meet {
    pub namespace: String,
    pub pool: String,
    /// The addresses both pools hand out.
    pub shared: IntervalSet,
}

/// One filled pool's addresses, as the address map draws them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolMap {
    pub namespace: String,
    pub name: String,
    /// The network the pool is on (SPEC §10), if any.
    pub network: Option<String>,
    /// The addresses the pool hands out (what its `spec.pools` entries admit and the IPAM
    /// reaches).
    pub addresses: IntervalSet,
    /// The pool's `prefix` (0 when unset).
    pub prefix: u8,
    /// The pool's `gateway` and `dnsServers` (pool-level), wherever they are.
    pub gateway: Option<Addr>,
    pub dns_servers: Vec<Addr>,
    /// The reserved addresses among [`Self::addresses`], by reason; disjoint, each address
    /// under the first reason that applies ([`Reserved::ALL`]). Reasons with none are left out.
    pub reserved: Vec<(Reserved, IntervalSet)>,
    /// The addresses among [`Self::addresses`] that something other than a row holds.
    pub taken: IntervalSet,
    /// Who holds the first few taken addresses (up to 16), in address order.
    pub taken_by: Vec<(Addr, String)>,
    /// How many addresses are left for new entries.
    pub free: u128,
    /// The pools of other namespaces on the network whose addresses meet this pool's (up to a
    /// few, in (namespace, name) order), and whether there are more.
    pub meets: Vec<Meet>,
    pub meets_more: bool,
}

impl PoolMap {
    /// Whether result `f` is about this pool (its object is this IPPool).
    pub fn is_about(&self, f: &crate::results::Finding) -> bool {
        f.resource_ref.as_ref().is_some_and(|r| {
            r.kind == "IPPool"
                && r.name == self.name
                && r.namespace.as_deref() == Some(self.namespace.as_str())
        })
    }

    /// The number of reserved addresses among the pool's.
    pub fn reserved_count(&self) -> u128 {
        self.reserved
            .iter()
            .fold(0u128, |n, (_, s)| n.saturating_add(s.count()))
    }
}
