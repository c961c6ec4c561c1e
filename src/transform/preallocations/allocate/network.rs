//! Networks shared across namespaces (SPEC §10).
//!
//! A pool is on network N when it is annotated `ipreuse.dev/network: N` or when the cidrs the
//! config's `networks` list under the name N (one per address family, as a dual-stack network
//! has) hold its candidates; a pool only partly inside them is on N too, with a warning (an
//! error with `strictNetworks`): its addresses are guarded with N's. The pools of one
//! network, in every namespace, are "other pools" for each other whether or not their
//! candidates overlap: what any of them holds (entries, live claims, pins, gateways and DNS
//! servers, entries this run adds) is taken for all the others.
//!
//! The namespace's own sharing ([`super::shared::Shared`]) is left as it is: a pool that is on
//! no network sees exactly what it saw before networks existed. A pool on a network sees what
//! its namespace's overlapping pools hold *and* what the other pools of its network hold; the
//! relation is not transitive (a pool of `c1` on no network shares nothing with `c2`).
//!
//! What the network's pools hold (before the run, and what they add during it) is one set per
//! network, [`Network::held`], which [`super::blocked::Blocked`] reads beside the pool's own
//! sets and its namespace's, never copying it: memory stays linear however many pools of the
//! network overlap.

use crate::FastMap;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use super::shared::{Holder, note_holder};
use super::state::{Pin, PoolState, holdings};
use crate::config::Config;
use crate::ipam::{Addr, IntervalSet};
use crate::model::pool::NETWORK_ANNOTATION;
use crate::model::{Index, PoolId};
use crate::names::{list_some, short};
use crate::results::Finding;

/// One network and what its pools hold.
#[derive(Debug, Default)]
pub struct Network {
    pub name: String,
    /// The valid pools on the network, in byte order of (namespace, name).
    pub pools: Vec<PoolId>,
    /// The namespaces of those pools, sorted, without duplicates.
    pub namespaces: Vec<String>,
    /// Addresses any pool of the network holds, wherever they are: before the run, and the
    /// entries the pools filled so far added in it. Kept once per network and read by each pool
    /// ([`super::blocked::Blocked`]), never copied into a pool's own sets.
    pub held: IntervalSet,
    holders: FastMap<u128, Holder>,
    /// For each pool whose candidates overlap a pool of the network in *another* namespace
    /// (SPEC §10: a warning, or an error with `strictNetworks`): up to [`NAMED`] such pools, in
    /// (namespace, name) order, and whether there are more.
    pub cross_overlaps: FastMap<PoolId, (Vec<PoolId>, bool)>,
}

impl Network {
    /// Whether a pool of the network other than `p` holds `a` (before the run, or added by it).
    pub fn held_by_other_than(&self, a: Addr, p: PoolId) -> bool {
        self.holders
            .get(&a.value())
            .is_some_and(|h| h.several || h.first != p)
    }

    /// Records that pool `p` of the network now holds `a` (an entry this run added).
    pub fn record_added(&mut self, a: Addr, p: PoolId) {
        self.held.insert_addr(a);
        note_holder(&mut self.holders, a.value(), p);
    }
}

/// The networks of the run and which pool is on which.
#[derive(Debug, Default)]
pub struct Networks {
    pub list: Vec<Network>,
    /// Pool → position in `list`.
    pub of: FastMap<PoolId, usize>,
}

impl Networks {
    /// The network pool `p` is on.
    pub fn of(&self, p: PoolId) -> Option<&Network> {
        self.list.get(*self.of.get(&p)?)
    }

    /// The network pool `p` is on, to record what it adds.
    pub fn of_mut(&mut self, p: PoolId) -> Option<&mut Network> {
        let i = *self.of.get(&p)?;
        self.list.get_mut(i)
    }

    /// The position in [`Self::list`] of the network pool `p` is on (what a plan row keeps).
    pub fn index_of(&self, p: PoolId) -> Option<usize> {
        self.of.get(&p).copied()
    }

    /// The names of the networks, by position in [`Self::list`].
    pub fn names(&self) -> Vec<String> {
        self.list.iter().map(|n| n.name.clone()).collect()
    }

    /// The name of the network pool `p` is on.
    pub fn name_of(&self, p: PoolId) -> Option<&str> {
        self.of(p).map(|n| n.name.as_str())
    }
}

/// Why a pool is on a network, for the error about a pool on two.
fn reason_annotated(name: &str) -> String {
    format!("annotated {NETWORK_ANNOTATION}: {name}")
}

/// Decides which valid pool is on which network. A pool is on network N when annotated so, or
/// when N's cidrs (one per address family, or more) hold some of its candidates. A pool with
/// candidates both inside and outside N's cidrs is on N all the same (all its addresses are
/// kept apart from the other pools of N), with a warning naming the pool and the network, an
/// error with `strictNetworks`. A pool that would be on two networks is an error naming both
/// (and `None`: nothing is allocated).
pub fn membership(
    idx: &Index,
    cfg: &Config,
    pools: &FastMap<PoolId, PoolState>,
    findings: &mut Vec<Finding>,
) -> Option<BTreeMap<String, Vec<PoolId>>> {
    let mut ok = true;
    let mut out: BTreeMap<String, Vec<PoolId>> = BTreeMap::new();
    // name → the union of its cidrs, and each cidr with its position in the config.
    let mut cidrs: BTreeMap<&str, (IntervalSet, Vec<usize>)> = BTreeMap::new();
    for (i, net) in cfg.networks.iter().enumerate() {
        let e = cidrs.entry(net.name.as_str()).or_default();
        e.0.insert_range(net.first.value(), net.last.value());
        e.1.push(i);
    }
    let mut ids: Vec<PoolId> = pools.keys().copied().collect();
    ids.sort_unstable_by_key(|p| p.0);
    for p in ids {
        let st = &pools[&p];
        let pool = &idx.pools[p];
        // name → why, first reason per name.
        let mut on: BTreeMap<&str, String> = BTreeMap::new();
        if let Some(n) = &pool.network {
            on.insert(n.as_str(), reason_annotated(n));
        }
        let cand = &st.candidates;
        for (name, (union, list)) in &cidrs {
            let inside = cand.intersection(union);
            if inside.is_empty() {
                continue;
            }
            // The cidrs of the network that hold some of the candidates.
            let holding: Vec<String> = list
                .iter()
                .filter_map(|&i| {
                    let net = cfg.networks.get(i)?;
                    let one = IntervalSet::from_ranges([(net.first.value(), net.last.value())]);
                    cand.intersects(&one).then(|| {
                        format!("{} of {}", net.cidr, cfg.source.path("networks", Some(i)))
                    })
                })
                .collect();
            let noun = if holding.len() == 1 { "cidr" } else { "cidrs" };
            let outside = cand.difference(union);
            let partly = if let Some((lo, _)) = outside.ranges().next() {
                findings.push(partly_inside(
                    pool,
                    name,
                    &holding,
                    &Addr::from_value(lo),
                    cfg,
                ));
                "part of "
            } else {
                ""
            };
            on.entry(name).or_insert_with(|| {
                format!(
                    "{partly}its addresses lie in {noun} {}",
                    holding.join(" and ")
                )
            });
        }
        match on.len() {
            0 => {}
            1 => {
                if let Some((name, _)) = on.into_iter().next() {
                    out.entry(name.to_string()).or_default().push(p);
                }
            }
            _ => {
                ok = false;
                let both: Vec<String> = on
                    .iter()
                    .map(|(name, why)| format!("{name} ({why})"))
                    .collect();
                let field = if pool.network.is_some() {
                    crate::results::key_path("metadata.annotations", NETWORK_ANNOTATION)
                } else {
                    "spec.pools".to_string()
                };
                findings.push(
                    Finding::error(format!(
                        "This pool would be on two networks, and a pool is on one network only: \
                         fix the annotation or the cidrs of the config's networks. It would be on {}.",
                        both.join(" and ")
                    ))
                    .on(pool.object.resource_ref())
                    .at(field),
                );
            }
        }
    }
    ok.then_some(out)
}

/// SPEC §10: a pool with candidates both inside and outside the cidrs of network `name`
/// (`holding`: the cidrs that hold some, as the config names them; `outside`: one that is
/// not in any) is a warning, an error with `strictNetworks`.
fn partly_inside(
    pool: &crate::model::pool::Pool,
    name: &str,
    holding: &[String],
    outside: &Addr,
    cfg: &Config,
) -> Finding {
    let text = format!(
        "Some of this pool's addresses are outside network {name}: widen the network's cidrs to \
         cover the pool (one per address family), or narrow spec.pools. Inside: {}; outside every \
         cidr of {name}: {}. The pool is taken as on network {name}, so all \
         its addresses are kept apart from the other pools of {name}, but an address outside the \
         cidrs may belong to another network",
        holding.join(" and "),
        outside,
    );
    let f = if cfg.strict_networks {
        Finding::error(format!(
            "{text} ({} is true)",
            cfg.source.path("strictNetworks", None)
        ))
    } else {
        Finding::warning(text)
    };
    f.on(pool.object.resource_ref()).at("spec.pools")
}

/// Builds the networks from their members: the pools in (namespace, name) order, what they
/// hold before the run, and which of them overlap across namespaces. Control-plane endpoints
/// (rule 4) of every namespace on a network are added to the reserved addresses of every pool
/// of the network; `endpoints` are the IP-literal endpoints per namespace.
pub fn build(
    idx: &Index,
    members: BTreeMap<String, Vec<PoolId>>,
    pins: &FastMap<(String, String), Vec<Pin>>,
    endpoints: &FastMap<String, IntervalSet>,
    pools: &mut FastMap<PoolId, PoolState>,
) -> Networks {
    let mut out = Networks::default();
    for (name, mut list) in members {
        let key = |p: &PoolId| {
            let o = &idx.pools[*p].object;
            (o.namespace.as_bytes(), o.name.as_bytes())
        };
        list.sort_by(|a, b| key(a).cmp(&key(b)));
        let namespaces: Vec<String> = list
            .iter()
            .map(|p| idx.pools[*p].object.namespace.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut cp = IntervalSet::new();
        for ns in &namespaces {
            if let Some(e) = endpoints.get(ns) {
                cp.extend(e);
            }
        }
        let mut held: Vec<(u128, u128)> = Vec::new();
        let mut holders: FastMap<u128, Holder> = FastMap::default();
        for &q in &list {
            let st = &pools[&q];
            let pool = &idx.pools[q];
            let no_pins: &[Pin] = &[];
            let pins_of = pins
                .get(&(pool.object.namespace.clone(), pool.name().to_string()))
                .map_or(no_pins, Vec::as_slice);
            for a in holdings(st, pins_of) {
                held.push((a.value(), a.value()));
                note_holder(&mut holders, a.value(), q);
            }
        }
        let held = IntervalSet::from_ranges(held);
        let overlaps = {
            let cands: Vec<&IntervalSet> = list.iter().map(|p| &pools[p].candidates).collect();
            // Namespaces as numbers: `list` is sorted by namespace first.
            let mut ns_ids: Vec<u32> = Vec::with_capacity(list.len());
            for (i, p) in list.iter().enumerate() {
                let same = i > 0
                    && idx.pools[list[i - 1]].object.namespace == idx.pools[*p].object.namespace;
                let last = ns_ids.last().copied().unwrap_or(0);
                ns_ids.push(if same || i == 0 { last } else { last + 1 });
            }
            cross_namespace_overlaps(&cands, &ns_ids, NAMED)
        };
        let mut cross_overlaps: FastMap<PoolId, (Vec<PoolId>, bool)> = FastMap::default();
        for (&p, (found, more)) in list.iter().zip(overlaps) {
            if !found.is_empty() {
                let found = found
                    .into_iter()
                    .filter_map(|i| list.get(i as usize).copied())
                    .collect();
                cross_overlaps.insert(p, (found, more));
            }
            if let Some(st) = pools.get_mut(&p) {
                st.reserved.extend(&cp);
            }
        }
        let i = out.list.len();
        for &p in &list {
            out.of.insert(p, i);
        }
        out.list.push(Network {
            name,
            pools: list,
            namespaces,
            held,
            holders,
            cross_overlaps,
        });
    }
    out
}

/// How many overlapping pools of other namespaces a warning names.
pub const NAMED: usize = 3;

/// For each set (a pool's candidates) with its namespace number `ns[i]`: up to `k` positions of
/// sets of *other* namespaces that share a value with it, ascending, and whether there are more.
///
/// A pool only needs to know that such a pool exists and a few of their names, so this never
/// lists all overlapping pairs (a thousand clusters over one range would be half a million):
/// the ranges are sorted by their low end; the ranges a range meets are those still open when it
/// starts (kept per namespace, so that its own namespace is skipped in one step) and those that
/// start inside it (found in the sorted order, skipping its own namespace in one step); each is
/// read only until `k + 1` sets are found. The cost is the number of ranges times a log, plus
/// about `k` per range.
pub fn cross_namespace_overlaps(
    sets: &[&IntervalSet],
    ns: &[u32],
    k: usize,
) -> Vec<(Vec<u32>, bool)> {
    overlaps_and_pairs_read(sets, ns, k).0
}

/// [`cross_namespace_overlaps`], with the number of (range, other set) pairs it read: the cost
/// the comment above promises, counted so that a test can hold it to that.
fn overlaps_and_pairs_read(
    sets: &[&IntervalSet],
    ns: &[u32],
    k: usize,
) -> (Vec<(Vec<u32>, bool)>, usize) {
    let mut read = 0usize;
    // (lo, hi, set), sorted.
    let mut ranges: Vec<(u128, u128, u32)> = Vec::new();
    for (i, s) in sets.iter().enumerate() {
        let Ok(i) = u32::try_from(i) else { break };
        ranges.extend(s.ranges().map(|(lo, hi)| (lo, hi, i)));
    }
    ranges.sort_unstable();
    let n = ranges.len();
    let ns_of = |r: usize| ns[ranges[r].2 as usize];
    // next_other[r]: the first range after r whose namespace differs from r's (n: none).
    let mut next_other = vec![n; n + 1];
    for r in (0..n.saturating_sub(1)).rev() {
        next_other[r] = if ns_of(r + 1) != ns_of(r) {
            r + 1
        } else {
            next_other[r + 1]
        };
    }
    let mut found: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); sets.len()];
    // Open ranges per namespace (hi, range), and all of them by their high end.
    let mut open: BTreeMap<u32, BTreeSet<(u128, usize)>> = BTreeMap::new();
    let mut ends: BinaryHeap<Reverse<(u128, usize)>> = BinaryHeap::new();
    for r in 0..n {
        let (lo, hi, set) = ranges[r];
        let own = ns_of(r);
        while let Some(&Reverse((end, q))) = ends.peek() {
            if end >= lo {
                break;
            }
            ends.pop();
            let qns = ns_of(q);
            if let Some(list) = open.get_mut(&qns) {
                list.remove(&(end, q));
                if list.is_empty() {
                    open.remove(&qns);
                }
            }
        }
        let mine = &mut found[set as usize];
        // Open when this one starts: they all meet it (own namespace skipped in one step).
        'open: for (_, list) in open.iter().filter(|(n, _)| **n != own) {
            for &(_, q) in list {
                if mine.len() > k {
                    break 'open;
                }
                read += 1;
                mine.insert(ranges[q].2);
            }
        }
        // Starting inside it, in other namespaces.
        let mut c = r + 1;
        if c < n && ns_of(c) == own {
            c = next_other[c];
        }
        while c < n && ranges[c].0 <= hi && mine.len() <= k {
            read += 1;
            mine.insert(ranges[c].2);
            c += 1;
            if c < n && ns_of(c) == own {
                c = next_other[c];
            }
        }
        open.entry(own).or_default().insert((hi, r));
        ends.push(Reverse((hi, r)));
    }
    let found = found
        .into_iter()
        .map(|f| {
            let more = f.len() > k;
            (f.into_iter().take(k).collect(), more)
        })
        .collect();
    (found, read)
}

/// SPEC §10: a pool whose candidates overlap a pool of its network in another namespace is a
/// warning (each cluster's IPAM could hand the same address out beyond preAllocations), an
/// error with `strictNetworks: true`. One result per pool, naming a few of the others.
pub fn overlap_finding(
    idx: &Index,
    net: &Network,
    p: PoolId,
    strict: bool,
    cfg: &Config,
) -> Option<Finding> {
    let (others, more) = net.cross_overlaps.get(&p)?;
    let names = others.iter().map(|q| {
        let o = &idx.pools[*q].object;
        format!("{}/{}", short(&o.namespace), short(&o.name))
    });
    let shown = if *more {
        format!("{} and others", names.collect::<Vec<_>>().join(", "))
    } else {
        list_some(names, NAMED)
    };
    let text = format!(
        "This pool overlaps pools of other namespaces on network {}: give each cluster its own \
         range. It overlaps IPPool {shown}. Preallocations never collide, but each cluster's IPAM \
         could hand out one address outside them",
        short(&net.name)
    );
    let pool = &idx.pools[p];
    let f = if strict {
        Finding::error(format!(
            "{text} ({} is true)",
            cfg.source.path("strictNetworks", None)
        ))
    } else {
        Finding::warning(text)
    };
    Some(f.on(pool.object.resource_ref()).at("spec.pools"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        /// Against a test of every pair: a set is reported exactly when some set of another
        /// namespace meets it; the ones named do; all of them are named when there are at most
        /// `k`, else `k` and "more".
        #[test]
        fn cross_namespace_overlaps_match_every_pair(
            sets in proptest::collection::vec(
                (0u32..4, proptest::collection::vec((0u128..100, 0u128..10), 0..4)), 0..10),
            k in 1usize..4,
        ) {
            let ns: Vec<u32> = sets.iter().map(|(n, _)| *n).collect();
            let sets: Vec<IntervalSet> = sets
                .iter()
                .map(|(_, r)| IntervalSet::from_ranges(r.iter().map(|(lo, len)| (*lo, lo + len))))
                .collect();
            let refs: Vec<&IntervalSet> = sets.iter().collect();
            let got = cross_namespace_overlaps(&refs, &ns, k);
            for (i, s) in sets.iter().enumerate() {
                let all: Vec<u32> = (0..sets.len())
                    .filter(|&j| ns[j] != ns[i] && s.intersects(&sets[j]))
                    .map(|j| j as u32)
                    .collect();
                let (named, more) = &got[i];
                prop_assert!(named.iter().all(|j| all.contains(j)), "{named:?} not in {all:?}");
                prop_assert_eq!(named.is_empty(), all.is_empty());
                if all.len() <= k {
                    prop_assert_eq!(named, &all);
                    prop_assert!(!more);
                } else {
                    prop_assert_eq!(named.len(), k);
                    prop_assert!(*more);
                }
            }
        }
    }

    #[test]
    fn five_thousand_pools_over_one_range_read_k_plus_one_pairs_each() {
        let one = IntervalSet::from_ranges([(10, 1000)]);
        let sets: Vec<&IntervalSet> = vec![&one; 5000];
        let ns: Vec<u32> = (0..5000).collect();
        let (got, read) = overlaps_and_pairs_read(&sets, &ns, 3);
        assert!(got.iter().all(|(named, more)| named.len() == 3 && *more));
        assert_eq!(got[0].0, vec![1, 2, 3]);
        // Every pool meets every other (12.5 million pairs); each reads k + 1 = 4 of them.
        assert_eq!(read, 5000 * 4, "pairs read");
    }
}
