//! Making the address map of each filled pool ([`PoolMap`], `ipreuse plan --format html`) once
//! every pool is filled: what a pool shows as taken includes the entries that pools filled
//! after it add (a later run gives them to nobody else), so a pool that meets one filled later
//! may count fewer free addresses than its summary result ("free left"), which is made when the
//! pool itself is filled. Interval sets, never a listing.

use super::Planned;
use super::context::Context;
use super::pool_map::{Meet, PoolMap, Reserved};
use super::pool_view::PoolView;
use crate::ipam::{Addr, IntervalSet};
use crate::model::PoolId;

/// How many taken addresses of a pool are named by who holds them (the rest are counted).
const NAMED_TAKEN: usize = 16;
/// Holders are named only in pools with at most this many other pools beside them (in the
/// namespace or the network): naming one reads every entry of each.
const NAMED_TAKEN_RELATED: usize = 64;

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
