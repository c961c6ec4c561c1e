//! Mapping (SPEC §4): which (host, pool) pairs need a `{host}-{pool}` entry, and which pools
//! the function manages.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::config::{Choice, Config};
use crate::model::pool::Pool;
use crate::model::{HostId, Index, PoolId};
use crate::names::{claim_name, short};
use crate::results::Finding;

/// The work the mapping asks for.
#[derive(Debug, Default)]
pub struct Plan {
    /// Managed pools (indexes into [`Index::pools`]), in byte order of (namespace, name).
    pub managed: Vec<PoolId>,
    /// Required claims: pool index → host indexes (into [`Index::hosts`]), natural host order not yet applied.
    pub required: BTreeMap<PoolId, Vec<HostId>>,
}

/// Whether the function manages `pool`: the config names it (or names no pools) and it is
/// rendered (a pool with an unrendered template is skipped, with a warning from the index).
pub fn manages(cfg: &Config, pool: &Pool) -> bool {
    cfg.manages_pool(&pool.object.namespace, pool.name()) && pool.skipped.is_none()
}

/// Decides the managed pools and required pairs. `cfg` is resolved
/// ([`crate::config::resolve`]): `mapping` is `auto` or `all`, both `all` in this version.
pub fn plan(idx: &Index, cfg: &Config, findings: &mut Vec<Finding>) -> Plan {
    debug_assert!(
        cfg.mapping.available(),
        "config::resolve refuses the mappings this version cannot run"
    );
    let mut plan = Plan::default();
    let mut order: Vec<PoolId> = PoolId::all(idx.pools.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&idx.pools[a].object, &idx.pools[b].object);
        (pa.namespace.as_bytes(), pa.name.as_bytes())
            .cmp(&(pb.namespace.as_bytes(), pb.name.as_bytes()))
    });
    // The selected hosts of each namespace, in input order: one pass over the hosts.
    let mut selected: HashMap<&str, Vec<HostId>> = HashMap::new();
    for (i, h) in HostId::all(idx.hosts.len()).zip(&idx.hosts) {
        if cfg.host_selector.matches(&h.labels) {
            selected
                .entry(h.object.namespace.as_str())
                .or_default()
                .push(i);
        }
    }
    let mut namespaces: BTreeSet<&str> = BTreeSet::new();
    for &p in &order {
        let pool = &idx.pools[p];
        let ns = pool.object.namespace.as_str();
        namespaces.insert(ns);
        if !cfg.manages_pool(ns, pool.name()) {
            continue;
        }
        let hosts: Vec<HostId> = selected.get(ns).cloned().unwrap_or_default();
        if let Some(field) = &pool.skipped {
            if !hosts.is_empty() {
                findings.push(
                    Finding::error(format!(
                        "{} is needed by {} host(s) but {field} is an unrendered template: render the pool, \
                         or leave it out of spec.pools",
                        pool.object.display(),
                        hosts.len()
                    ))
                    .on(pool.object.resource_ref())
                    .at(field.clone()),
                );
            }
            continue;
        }
        debug_assert!(manages(cfg, pool));
        plan.managed.push(p);
        plan.required.insert(p, hosts);
    }
    for h in &idx.hosts {
        namespaces.insert(h.object.namespace.as_str());
    }
    for ns in namespaces {
        findings.push(Finding::info(format!(
            "namespace {ns:?}: mapping all (every selected BareMetalHost with every selected IPPool of the namespace)"
        )));
    }
    // A configured name that matches no pool of the input: a typo would leave it unmanaged.
    let names: HashSet<&str> = idx.pools.iter().map(|p| p.name()).collect();
    let full: HashSet<(&str, &str)> = idx
        .pools
        .iter()
        .map(|p| (p.object.namespace.as_str(), p.name()))
        .collect();
    for name in &cfg.pools {
        let found = match &name.namespace {
            Some(ns) => full.contains(&(ns.as_str(), name.name.as_str())),
            None => names.contains(name.name.as_str()),
        };
        if !found {
            findings.push(cfg.source.error(
                "pools",
                None,
                format!(
                    "{} names IPPool {:?}, which is not in the input",
                    cfg.source.path("pools", None),
                    name.to_string()
                ),
            ));
        }
    }
    check_claim_names(idx, &plan, findings);
    plan
}

/// SPEC §5 "Names": two required pairs of one namespace whose claim names coincide
/// (`node-1-bmc` + `v4`, `node-1` + `bmc-v4`) are an error naming both hosts and both pools:
/// CAPM3 creates each IPClaim under its name in the pool's namespace, so only one could exist.
/// One pass over the pairs, hashed by (namespace, claim name).
fn check_claim_names(idx: &Index, plan: &Plan, findings: &mut Vec<Finding>) {
    use std::collections::hash_map::Entry;
    // The first pair of each name; pools in byte order, so the pair reported first is the
    // one whose pool sorts first (two pairs of one pool never share a name).
    let mut first: HashMap<(&str, String), (HostId, PoolId)> = HashMap::new();
    for &p in &plan.managed {
        let pool = &idx.pools[p];
        let ns = pool.object.namespace.as_str();
        for &h in plan.required.get(&p).map_or(&[][..], Vec::as_slice) {
            let host = &idx.hosts[h];
            match first.entry((ns, claim_name(host.name(), pool.name()))) {
                Entry::Vacant(e) => {
                    e.insert((h, p));
                }
                Entry::Occupied(e) => {
                    let &(h1, p1) = e.get();
                    if p1 == p {
                        // The same host name twice: reported as a duplicate object.
                        continue;
                    }
                    findings.push(
                        Finding::error(format!(
                            "claim name {} is made twice in namespace {:?}: by BareMetalHost {} with IPPool {} \
                             and by BareMetalHost {} with IPPool {}; CAPM3 creates one IPClaim of a name in a \
                             namespace, so one host would get the other's address: rename one of the hosts or pools",
                            short(&e.key().1),
                            short(ns),
                            short(idx.hosts[h1].name()),
                            short(idx.pools[p1].name()),
                            short(host.name()),
                            short(pool.name())
                        ))
                        .on(host.object.resource_ref())
                        .at("metadata.name"),
                    );
                }
            }
        }
    }
}
