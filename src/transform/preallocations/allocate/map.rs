//! The address map of one filled pool (`ipreuse plan --format html`): what each of its addresses
//! is once the pool is filled, beside the rows of the plan. Interval sets, never a listing: an
//! IPv6 /64 pool costs what a /29 costs, and the page decides how to draw it.
//!
//! Every address the pool hands out is in exactly one of: a row of the plan (a host's address,
//! kept, pinned, live or new), [`PoolMap::reserved`] (why, by the first reason that applies, in
//! the order the error messages give them), [`PoolMap::taken`] (held by something that is no row:
//! an entry of no host of the input, a live claim of another claim, a pin of a host the mapping
//! does not pair with the pool, another pool of the namespace or network) or free.
//!
//! The map is made once every pool is filled: what a pool shows as taken includes the entries
//! that pools filled after it add (a later run gives them to nobody else), so a pool that meets
//! one filled later may count fewer free addresses than its summary result ("free left"), which
//! is made when the pool itself is filled.

use super::Planned;
use super::context::Context;
use super::pool_view::PoolView;
use crate::ipam::{Addr, IntervalSet};
use crate::model::PoolId;

/// How many taken addresses of a pool are named by who holds them (the rest are counted).
const NAMED_TAKEN: usize = 16;
/// Holders are named only in pools with at most this many other pools beside them (in the
/// namespace or the network): naming one reads every entry of each.
const NAMED_TAKEN_RELATED: usize = 64;

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
    /// Who holds the first few taken addresses ([`NAMED_TAKEN`]), in address order.
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

/// The map of pool `p` once every pool is filled; `rows` are its rows of the plan. `None` for
/// a pool that is not valid (never filled).
pub fn pool_map(ctx: &Context, p: PoolId, rows: &[Planned]) -> Option<PoolMap> {
    let v = PoolView::new(ctx, p)?;
    let ip = &v.st.ipam;
    let cand = ip.candidates();
    // Rule 1, gateways before DNS servers.
    let mut gateways = IntervalSet::new();
    for g in ip
        .gateway()
        .into_iter()
        .chain(ip.entries().iter().filter_map(|e| e.gateway))
    {
        gateways.insert_addr(g);
    }
    let dns = v.st.rule1.difference(&gateways);
    // Rule 2: a network address is its own network at the prefix or subnet that reserves it.
    let (mut network, mut broadcast) = (IntervalSet::new(), IntervalSet::new());
    for (lo, hi) in ip.reserved_rule2().ranges() {
        for a in lo..=hi {
            let a = Addr::from_value(a);
            if is_network(ip, a) {
                network.insert_addr(a);
            } else {
                broadcast.insert_addr(a);
            }
        }
    }
    let reserve = ctx.reserve.clone();
    let mut seen = IntervalSet::new();
    let mut reserved = Vec::new();
    for (why, set) in [
        (Reserved::Gateway, gateways),
        (Reserved::DnsServer, dns),
        (Reserved::Network, network),
        (Reserved::Broadcast, broadcast),
        (Reserved::Reserve, reserve),
        // The rest of the pool's reserved set: the control-plane endpoints of its namespace and
        // of the namespaces on its network.
        (Reserved::Endpoint, v.st.reserved.clone()),
    ] {
        let inside = set.intersection(cand).difference(&seen);
        seen.extend(&inside);
        if !inside.is_empty() {
            reserved.push((why, inside));
        }
    }
    let rowset =
        IntervalSet::from_ranges(rows.iter().map(|r| (r.address.value(), r.address.value())));
    let held = held(ctx, p, &v, &rowset);
    let free = cand.count().saturating_sub(held.count());
    let taken = held.difference(&seen).difference(&rowset);
    let name_holders = ctx.related_pools(p).len() <= NAMED_TAKEN_RELATED;
    let taken_by = taken
        .ranges()
        .flat_map(|(lo, hi)| (lo..=hi).take(NAMED_TAKEN))
        .take(if name_holders { NAMED_TAKEN } else { 0 })
        .map(Addr::from_value)
        .map(|a| (a, v.holder(a, None)))
        .collect();
    let (meets, meets_more) = match ctx.networks.of(v.pool_id) {
        Some(net) => match net.cross_overlaps.get(&v.pool_id) {
            Some((others, more)) => (
                others
                    .iter()
                    .map(|q| {
                        let o = &ctx.idx.pools[*q].object;
                        Meet {
                            namespace: o.namespace.clone(),
                            pool: o.name.clone(),
                            shared: ctx.pools.get(q).map_or_else(IntervalSet::new, |st| {
                                st.candidates.intersection(cand)
                            }),
                        }
                    })
                    .collect(),
                *more,
            ),
            None => (Vec::new(), false),
        },
        None => (Vec::new(), false),
    };
    Some(PoolMap {
        namespace: v.ns.to_string(),
        name: v.name.to_string(),
        network: ctx.networks.name_of(v.pool_id).map(str::to_string),
        addresses: cand.clone(),
        prefix: ip.prefix(),
        gateway: ip.gateway(),
        dns_servers: ip.dns_servers().to_vec(),
        reserved,
        taken,
        taken_by,
        free,
        meets,
        meets_more,
    })
}

/// The addresses of pool `p` that are not free once every pool is filled: its fixed blocked set
/// (reserved, its entries, live claims and pins, what overlapping pools hold outside their own
/// addresses), its rows, what the pools of its namespace hold inside their own addresses and
/// what its network holds (both with the entries this run added), and what overlapping pools
/// added outside their own addresses. The sets [`super::blocked::Blocked`] reads, as one.
fn held(ctx: &Context, p: PoolId, v: &PoolView, rows: &IntervalSet) -> IntervalSet {
    let cand = v.st.ipam.candidates();
    let mut out = v.st.fixed.union(rows);
    if let Some(sh) = ctx.shared_of(p) {
        out.extend(&sh.held.set().intersection(cand));
        for (lo, hi) in cand.ranges() {
            for (a, holders) in sh.outside_added.range(lo..=hi) {
                if holders.iter().any(|q| *q != p && ctx.overlap(p, *q)) {
                    out.insert(*a);
                }
            }
        }
    }
    if let Some(net) = ctx.networks.of(p) {
        out.extend(&net.held.intersection(cand));
    }
    out
}

/// Whether reserved address `a` (rule 2) is a network address: the first of its entry's subnet,
/// or of its network at the entry's effective prefix. (Else it is a broadcast address.)
fn is_network(ip: &crate::ipam::Pool, a: Addr) -> bool {
    let Some(i) = ip.entry_of(a) else {
        return false;
    };
    let by_subnet = ip
        .entries()
        .get(i)
        .and_then(|e| e.subnet)
        .is_some_and(|s| s.network() == a);
    by_subnet || ip.effective_prefix(i).is_some_and(|p| a.network(p) == a)
}
