//! Networks shared across namespaces (SPEC §10).
//!
//! A pool is on network N when it is annotated `ipreuse.dev/network: N` or when a `networks`
//! entry of the config named N has a CIDR holding every candidate of the pool. The pools of one
//! network, in every namespace, are "other pools" for each other whether or not their
//! candidates overlap: what any of them holds (entries, live claims, pins, gateways and DNS
//! servers, entries this run adds) is taken for all the others.
//!
//! The namespace's own sharing ([`super::shared::Shared`]) is left as it is: a pool that is on
//! no network sees exactly what it saw before networks existed. A pool on a network sees what
//! its namespace's overlapping pools hold *and* what the other pools of its network hold; the
//! relation is not transitive (a pool of `c1` on no network shares nothing with `c2`).
//!
//! What the network's pools hold before anything is added goes into each network pool's fixed
//! blocked set when the context is built (one intersection per pool); what they add during the
//! run is in [`Network::added`], which [`super::blocked::Blocked`] folds in per pool. Both cost
//! the number of ranges held, not the number of pools squared.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::context::{Pin, PoolState};
use super::shared::{self, Holder, note_holder};
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
    /// Addresses any pool of the network holds before anything is added, wherever they are.
    pub held: IntervalSet,
    /// Addresses the pools of the network filled so far added in this run.
    pub added: IntervalSet,
    holders: HashMap<u128, Holder>,
    /// For each pool, the pools of the network in *other* namespaces whose candidates overlap
    /// its own (SPEC §10: a warning, or an error with `strictNetworks`), in byte order.
    pub cross_overlaps: HashMap<PoolId, Vec<PoolId>>,
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
        self.added.insert_addr(a);
        note_holder(&mut self.holders, a.value(), p);
    }
}

/// The networks of the run and which pool is on which.
#[derive(Debug, Default)]
pub struct Networks {
    pub list: Vec<Network>,
    /// Pool → position in `list`.
    pub of: HashMap<PoolId, usize>,
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

    /// The name of the network pool `p` is on.
    pub fn name_of(&self, p: PoolId) -> Option<&str> {
        self.of(p).map(|n| n.name.as_str())
    }
}

/// Why a pool is on a network, for the error about a pool on two.
fn reason_annotated(name: &str) -> String {
    format!("annotated {NETWORK_ANNOTATION}: {name}")
}

/// Decides which valid pool is on which network. A pool that would be on two networks is an
/// error naming both (and `None`: nothing is allocated).
pub fn membership(
    idx: &Index,
    cfg: &Config,
    pools: &HashMap<PoolId, PoolState>,
    findings: &mut Vec<Finding>,
) -> Option<BTreeMap<String, Vec<PoolId>>> {
    let mut ok = true;
    let mut out: BTreeMap<String, Vec<PoolId>> = BTreeMap::new();
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
        if let (Some((lo, _)), Some((_, hi))) = (cand.ranges().next(), cand.ranges().last()) {
            for (i, net) in cfg.networks.iter().enumerate() {
                if net.first.value() <= lo && hi <= net.last.value() {
                    on.entry(net.name.as_str()).or_insert_with(|| {
                        format!(
                            "its candidates lie in cidr {} of {}",
                            net.cidr,
                            cfg.source.path("networks", Some(i))
                        )
                    });
                }
            }
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
                        "IPPool {}/{} would be on two networks: {}; a pool is on one network \
                         only: fix the annotation or the cidrs of the config's networks",
                        short(&pool.object.namespace),
                        short(pool.name()),
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

/// Builds the networks from their members: the pools in (namespace, name) order, what they
/// hold before the run, and which of them overlap across namespaces. Control-plane endpoints
/// (rule 4) of every namespace on a network are added to the reserved addresses of every pool
/// of the network; `endpoints` are the IP-literal endpoints per namespace.
pub fn build(
    idx: &Index,
    members: BTreeMap<String, Vec<PoolId>>,
    pins: &HashMap<(String, String), Vec<Pin>>,
    endpoints: &HashMap<String, IntervalSet>,
    pools: &mut HashMap<PoolId, PoolState>,
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
        let mut holders: HashMap<u128, Holder> = HashMap::new();
        for &q in &list {
            let st = &pools[&q];
            let pool = &idx.pools[q];
            let no_pins: &[Pin] = &[];
            let pins_of = pins
                .get(&(pool.object.namespace.clone(), pool.name().to_string()))
                .map_or(no_pins, Vec::as_slice);
            for a in super::context::holdings(st, pins_of) {
                held.push((a.value(), a.value()));
                note_holder(&mut holders, a.value(), q);
            }
        }
        let held = IntervalSet::from_ranges(held);
        let overlaps = {
            let cands: Vec<&IntervalSet> = list.iter().map(|p| &pools[p].candidates).collect();
            shared::overlaps(&cands)
        };
        let mut cross_overlaps: HashMap<PoolId, Vec<PoolId>> = HashMap::new();
        for (&p, ov) in list.iter().zip(overlaps) {
            let ns = &idx.pools[p].object.namespace;
            let others: Vec<PoolId> = ov
                .into_iter()
                .filter_map(|i| list.get(i as usize).copied())
                .filter(|q| idx.pools[*q].object.namespace != *ns)
                .collect();
            if !others.is_empty() {
                cross_overlaps.insert(p, others);
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
            added: IntervalSet::new(),
            holders,
            cross_overlaps,
        });
    }
    out
}

/// What pool `p` of a network must keep out of its new entries before the run starts: what
/// the network's pools hold inside `p`'s candidates (its own holdings are blocked anyway).
pub fn fixed_of(net: &Network, st: &PoolState) -> IntervalSet {
    net.held.intersection(&st.candidates)
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
    let others = net.cross_overlaps.get(&p)?;
    let names = others.iter().map(|q| {
        let o = &idx.pools[*q].object;
        format!("{}/{}", short(&o.namespace), short(&o.name))
    });
    let text = format!(
        "the candidates of this pool overlap IPPool {} on network {}, in another namespace: \
         preallocations never collide, but each cluster's IPAM could hand out one address outside \
         them; give each cluster its own range",
        list_some(names, 3),
        net.name
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
