//! Mapping (SPEC §4): which (host, pool) pairs need a `{host}-{pool}` entry, and which pools
//! the function manages.
//!
//! Each namespace is mapped one way: `all` (every selected host with every selected pool of
//! the namespace) or `templates` (`templates.rs`: each Metal3MachineTemplate's selected hosts
//! with the pools of its data template); `auto` picks `templates` where a machine template and
//! its data template are in the input. The config's `hostSelector` and `pools` narrow the pairs
//! of both. The managed pools are the pools the mapping names, narrowed by `pools`: under
//! `all` every pool of the namespace, under `templates` the pools the templates reference.

mod templates;
mod topologies;

#[cfg(test)]
mod tests;

use crate::{FastMap, FastSet};
use std::collections::{BTreeMap, BTreeSet};

use crate::config::Config;
use crate::model::pool::Pool;
use crate::model::{HostId, Index, Model, PoolId};
use crate::names::{LABEL_VALUE_MAX, claim_name, short};
use crate::results::Finding;
use templates::Templates;
pub use templates::{DATA_NAME, POOL_NAME};

/// The work the mapping asks for.
#[derive(Debug, Default)]
pub struct Plan {
    /// Managed pools (indexes into [`Index::pools`]), in byte order of (namespace, name).
    pub managed: Vec<PoolId>,
    /// Required claims: pool index → host indexes (into [`Index::hosts`]), natural host order not yet applied.
    pub required: BTreeMap<PoolId, Vec<HostId>>,
    /// The pools the mapping manages: `managed`, kept even when the claim limit refuses to
    /// fill them (then `managed` and `required` are empty). What the labels label, so that
    /// "managed pool" is decided once, here.
    pub mapped: Vec<PoolId>,
    /// For the pairs of a Cluster stamped from a ClusterClass (SPEC §11): the Clusters' parts
    /// they come from (`{cluster}/control-plane`, `{cluster}/{MachineDeployment}`), which
    /// `ipreuse plan` shows.
    pub origins: BTreeMap<(PoolId, HostId), BTreeSet<String>>,
}

/// Whether the config lets the function manage `pool`: the config names it (or names no
/// pools) and it is rendered (a pool with an unrendered template is skipped, with a warning
/// from the index). The mapping manages such a pool when it also names it ([`Plan::managed`]).
pub fn manages(cfg: &Config, pool: &Pool) -> bool {
    cfg.manages_pool(&pool.object.namespace, pool.name()) && pool.skipped.is_none()
}

/// Decides the managed pools and required pairs. `cfg` is resolved
/// ([`crate::config::resolve`]); more than `max_claims` claims is an error, and nothing is
/// planned.
pub fn plan(model: &Model, cfg: &Config, max_claims: u64, findings: &mut Vec<Finding>) -> Plan {
    let idx = &model.index;
    let mut plan = Plan::default();
    let mut order: Vec<PoolId> = PoolId::all(idx.pools.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&idx.pools[a].object, &idx.pools[b].object);
        (pa.namespace.as_bytes(), pa.name.as_bytes())
            .cmp(&(pb.namespace.as_bytes(), pb.name.as_bytes()))
    });
    let mut templates = Templates::new(model, cfg, findings);
    plan.origins = templates.take_origins();
    // What CAPM3 would not see or could not label, whichever mapping is used.
    templates::check_data_template_names(model, findings);
    templates::check_spellings(model, findings);
    // The selected hosts of each namespace mapped by `all`, in input order: one pass over the hosts.
    let mut selected: FastMap<&str, Vec<HostId>> = FastMap::default();
    for (i, h) in HostId::all(idx.hosts.len()).zip(&idx.hosts) {
        let ns = h.object.namespace.as_str();
        if !templates.maps(ns) && h.labels.selected_by(&cfg.host_selector) {
            selected.entry(ns).or_default().push(i);
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
        let hosts: Vec<HostId> = if templates.maps(ns) {
            match templates.hosts(p) {
                Some(hosts) => hosts.iter().copied().collect(),
                // No template references it: not managed here.
                None => continue,
            }
        } else {
            selected.get(ns).cloned().unwrap_or_default()
        };
        if let Some(field) = &pool.skipped {
            if !hosts.is_empty() {
                findings.push(
                    Finding::error(format!(
                        "this field is an unrendered template: render the pool, or leave it out of \
                         spec.pools. The pool is needed by {} host(s)",
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
    namespaces.extend(templates.namespaces());
    for ns in namespaces {
        findings.push(templates.info(ns));
    }
    check_config_pools(idx, cfg, &templates, &plan, findings);
    if let Some(refusal) = too_many_claims(idx, &plan, max_claims) {
        // Nothing is filled: every later step's work grows with the claims.
        findings.push(refusal);
        return Plan {
            mapped: plan.managed,
            ..Plan::default()
        };
    }
    check_claim_names(idx, &plan, findings);
    check_pool_names(idx, &plan, findings);
    plan.mapped.clone_from(&plan.managed);
    plan
}

/// SPEC §8 "Names": with BMH-name-based preallocation on, CAPM3 writes the pool's name into
/// the `pool-name` label of each claim (FACTS §1), and a label value holds at most 63
/// characters: a managed pool with a longer name is an error at its `metadata.name`, because
/// CAPM3 could not create the claims its entries are for. Whatever `controllerFlag` says: the
/// preallocations are only used with the flag on, wherever it is turned on.
fn check_pool_names(idx: &Index, plan: &Plan, findings: &mut Vec<Finding>) {
    for &p in &plan.managed {
        let pool = &idx.pools[p];
        let n = pool.name().chars().count();
        if n <= LABEL_VALUE_MAX {
            continue;
        }
        findings.push(
            Finding::error(format!(
                "the pool's name is {n} characters long: rename the pool (and the references to \
                 it) to {LABEL_VALUE_MAX} characters or fewer. With BMH-name-based preallocation \
                 on, CAPM3 writes the name into the label {POOL_NAME} of each IPClaim, which holds \
                 at most {LABEL_VALUE_MAX}, so it cannot create this pool's claims"
            ))
            .on(pool.object.resource_ref())
            .at("metadata.name"),
        );
    }
}

/// The error when the mapping asks for more claims than `max_claims`, before any
/// claim is named or pool filled: a few hosts with many pools (or the reverse) is a small input whose output
/// would not be. It is reported at the first pool with the most claims.
fn too_many_claims(idx: &Index, plan: &Plan, max_claims: u64) -> Option<Finding> {
    let total: u64 = plan.required.values().map(|h| h.len() as u64).sum();
    if total <= max_claims {
        return None;
    }
    // The first of the largest in (namespace, name) order.
    let claims = |p: &PoolId| plan.required.get(p).map_or(0, Vec::len);
    let largest = plan.managed.iter().rev().max_by_key(|p| claims(p))?;
    let pool = &idx.pools[*largest];
    Some(
        Finding::error(format!(
            "the mapping asks for {total} host-pool claims over {} pools ({} in this one), more than the limit of {}; narrow the mapping (hostSelector, pools, mapping: templates), or raise the limit with --max-claims or IPREUSE_MAX_CLAIMS",
            plan.required.len(),
            claims(largest),
            max_claims
        ))
        .on(pool.object.resource_ref())
        .at("spec.preAllocations"),
    )
}

/// The config's `pools`: a name that matches no pool of the input is an error (a typo would
/// leave the pool unmanaged without a word); one whose pools are all left out because the
/// templates of their namespaces do not reference them is a warning.
fn check_config_pools(
    idx: &Index,
    cfg: &Config,
    templates: &Templates,
    plan: &Plan,
    findings: &mut Vec<Finding>,
) {
    let managed: FastSet<PoolId> = plan.managed.iter().copied().collect();
    for name in &cfg.pools {
        let matched: Vec<PoolId> = PoolId::all(idx.pools.len())
            .filter(|&p| name.matches(&idx.pools[p].object.namespace, idx.pools[p].name()))
            .collect();
        if matched.is_empty() {
            findings.push(cfg.source.error(
                "pools",
                None,
                format!(
                    "IPPool {:?} is not in the input: fix the name, or remove it from this list",
                    name.to_string()
                ),
            ));
            continue;
        }
        let unreferenced: Vec<&Pool> = matched
            .iter()
            .map(|&p| &idx.pools[p])
            .filter(|p| p.skipped.is_none() && templates.maps(&p.object.namespace))
            .collect();
        if !matched.iter().any(|p| managed.contains(p)) && !unreferenced.is_empty() {
            let pool = unreferenced[0];
            let mut warning = cfg.source.error(
                "pools",
                None,
                format!(
                    "IPPool {:?} is not managed: reference it from a Metal3DataTemplate, or remove it \
                     from this list. No Metal3MachineTemplate's data template in namespace {:?} \
                     references it (mapping templates there)",
                    name.to_string(),
                    pool.object.namespace
                ),
            );
            warning.severity = crate::results::Severity::Warning;
            findings.push(warning);
        }
    }
}

/// SPEC §5 "Names": two required pairs of one namespace whose claim names coincide
/// (`node-1-bmc` + `v4`, `node-1` + `bmc-v4`) are an error naming both hosts and both pools:
/// CAPM3 creates each IPClaim under its name in the pool's namespace, so only one could exist.
/// One pass over the pairs, hashed by (namespace, claim name).
fn check_claim_names(idx: &Index, plan: &Plan, findings: &mut Vec<Finding>) {
    use std::collections::hash_map::Entry;
    // The first pair of each name; pools in byte order, so the pair reported first is the
    // one whose pool sorts first (two pairs of one pool never share a name).
    // Sized for every pair at once: grown by doubling, the table would be rebuilt a dozen times.
    let pairs = plan.required.values().map(Vec::len).sum();
    let mut first: FastMap<(&str, String), (HostId, PoolId)> =
        FastMap::with_capacity_and_hasher(pairs, Default::default());
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
