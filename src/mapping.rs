//! Mapping (SPEC §4): which (host, pool) pairs need a `{host}-{pool}` entry, and which pools
//! the function manages.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, MappingMode};
use crate::model::Index;
use crate::results::Finding;

/// The work the mapping asks for.
#[derive(Debug, Default)]
pub struct Plan {
    /// Managed pools (indexes into [`Index::pools`]), in byte order of (namespace, name).
    pub managed: Vec<usize>,
    /// Required claims: pool index → host indexes (into [`Index::hosts`]), natural host order not yet applied.
    pub required: BTreeMap<usize, Vec<usize>>,
}

/// Decides the managed pools and required pairs.
pub fn plan(idx: &Index, cfg: &Config, findings: &mut Vec<Finding>) -> Plan {
    let mut plan = Plan::default();
    if cfg.mapping == MappingMode::Templates {
        findings.push(
            Finding::error(
                "mapping: templates is not available in this version of ipreuse; use auto or all",
            )
            .at("spec.mapping"),
        );
        return plan;
    }
    if cfg.strategy == crate::config::Strategy::Ordinal {
        findings.push(
            Finding::error(
                "strategy: ordinal is not available in this version of ipreuse; use sequential",
            )
            .at("spec.strategy"),
        );
        return plan;
    }
    let mut order: Vec<usize> = (0..idx.pools.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&idx.pools[a].object, &idx.pools[b].object);
        (pa.namespace.as_bytes(), pa.name.as_bytes())
            .cmp(&(pb.namespace.as_bytes(), pb.name.as_bytes()))
    });
    let mut namespaces: BTreeSet<&str> = BTreeSet::new();
    for &p in &order {
        let pool = &idx.pools[p];
        let ns = pool.object.namespace.as_str();
        namespaces.insert(ns);
        if !cfg.manages_pool(ns, pool.name()) {
            continue;
        }
        let hosts: Vec<usize> = idx
            .hosts
            .iter()
            .enumerate()
            .filter(|(_, h)| h.object.namespace == ns && cfg.host_selector.matches(&h.labels))
            .map(|(i, _)| i)
            .collect();
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
    for name in &cfg.pools {
        if !idx
            .pools
            .iter()
            .any(|p| name.matches(&p.object.namespace, p.name()))
        {
            findings.push(
                Finding::error(format!(
                    "spec.pools names IPPool {:?}, which is not in the input",
                    name.to_string()
                ))
                .at("spec.pools"),
            );
        }
    }
    plan
}
