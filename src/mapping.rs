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
    // Which configured pool names were found, to report the ones that were not.
    let mut named_found = vec![false; cfg.pools.len()];
    let selected_pool = |ns: &str, name: &str, found: &mut [bool]| -> bool {
        if cfg.pools.is_empty() {
            return true;
        }
        let mut any = false;
        for (i, p) in cfg.pools.iter().enumerate() {
            if p.name == name && p.namespace.as_deref().is_none_or(|n| n == ns) {
                found[i] = true;
                any = true;
            }
        }
        any
    };
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
        if !selected_pool(ns, pool.name(), &mut named_found) {
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
    for (p, found) in cfg.pools.iter().zip(named_found) {
        if !found {
            let name = match &p.namespace {
                Some(ns) => format!("{ns}/{}", p.name),
                None => p.name.clone(),
            };
            findings.push(
                Finding::error(format!(
                    "spec.pools names IPPool {name:?}, which is not in the input (or is skipped)"
                ))
                .at("spec.pools"),
            );
        }
    }
    plan
}
