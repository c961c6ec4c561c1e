//! Filling one pool: validate its entries and pins, then the precedence of SPEC §5 for every
//! required claim — existing entry (the lock), pin, live address, strategy.

use std::collections::{HashMap, HashSet};

use super::blocked::Blocked;
use super::context::{Context, Pin};
use super::names::{claim_name, is_dns1123_subdomain};
use crate::ipam::{self, Addr};
use crate::model::host::PIN_PREFIX;
use crate::natural;
use crate::results::{Finding, ResourceRef};
use crate::yaml::{Edit, Seg};

/// Fills pool `p`, pushing edits on its item and results.
pub fn fill_pool(
    ctx: &mut Context,
    p: usize,
    findings: &mut Vec<Finding>,
    edits: &mut Vec<(usize, Edit)>,
) {
    let idx = ctx.idx;
    let pool = &idx.pools[p];
    let Some(st) = ctx.pools.get(&p) else {
        return; // invalid ranges: already reported
    };
    let ns = pool.object.namespace.as_str();
    let pname = pool.name();
    let rref = pool.object.resource_ref();
    let no_pins: Vec<Pin> = Vec::new();
    let pins = ctx
        .pins
        .get(&(ns.to_string(), pname.to_string()))
        .unwrap_or(&no_pins);
    let errors_before = findings.iter().filter(|f| f.is_error()).count();

    let mut blocked = Blocked::for_pool(ctx, p, pins, findings);

    // Who holds each live address of this pool.
    let mut live_by_addr: HashMap<u128, Vec<&str>> = HashMap::new();
    for (claim, a) in &st.indexes {
        live_by_addr
            .entry(a.value())
            .or_default()
            .push(claim.as_str());
    }
    for v in live_by_addr.values_mut() {
        v.sort_unstable();
    }
    // The check of SPEC §5 "Validation" for an address a claim of a host of the input holds.
    let check_host_address = |a: Addr,
                              claim: &str,
                              what: &str,
                              (on, field): (&ResourceRef, &str),
                              findings: &mut Vec<Finding>| {
        let text = ipam::canonical(a.ip());
        if let Some(reason) = reserved_reason(ctx, st, ns, a) {
            findings.push(
                Finding::error(format!(
                    "{what} {claim}: {text} is {reason}; choose another address"
                ))
                .on(on.clone())
                .at(field.to_string()),
            );
        }
        for holder in live_by_addr.get(&a.value()).into_iter().flatten() {
            if *holder == claim {
                continue;
            }
            if ctx.host_of_key(ns, pname, holder).is_some() {
                findings.push(
                    Finding::error(format!(
                        "{what} {claim}: {text} is in use by claim {holder} of another host (status.indexes); choose another address"
                    ))
                    .on(on.clone())
                    .at(field.to_string()),
                );
            } else {
                findings.push(
                    Finding::warning(format!(
                        "{what} {claim}: {text} is in use by claim {holder} (status.indexes); the host gets it once that claim is gone"
                    ))
                    .on(on.clone())
                    .at(field.to_string()),
                );
            }
        }
    };

    // Existing entries: parse (done), candidate, unique; host entries also avoid rules 1–4.
    let mut rewritten = 0usize;
    let mut seen: HashMap<u128, &str> = HashMap::new();
    let mut existing_by_key: HashMap<&str, Addr> = HashMap::new();
    for e in &st.existing {
        let Some(a) = e.addr else { continue };
        let field = format!("spec.preAllocations.{}", e.key);
        existing_by_key.insert(e.key.as_str(), a);
        let text = ipam::canonical(a.ip());
        if !st.ipam.is_candidate(a) {
            findings.push(
                Finding::error(format!(
                    "entry {} = {text} is not an address this pool hands out (outside spec.pools, or past the IPAM's walk); \
                     the claim would fail with \"Pre-allocated IP out of bounds\"",
                    e.key
                ))
                .on(rref.clone())
                .at(field.clone()),
            );
        }
        if let Some(first) = seen.insert(a.value(), e.key.as_str()) {
            findings.push(
                Finding::error(format!(
                    "entries {first} and {} both hold {text}: each address can be preallocated once",
                    e.key
                ))
                .on(rref.clone())
                .at(field.clone()),
            );
        }
        if ctx.host_of_key(ns, pname, &e.key).is_some() {
            check_host_address(a, &e.key, "entry", (&rref, &field), findings);
        }
        if e.text != text && !(ctx.cfg.prune && is_stale(ctx, st, ns, pname, &e.key)) {
            rewritten += 1;
            findings.push(
                Finding::warning(format!(
                    "entry {} is written {:?}; rewritten as {text:?} because the IPAM reserves preallocations by their exact text",
                    e.key, e.text
                ))
                .on(rref.clone())
                .at(field.clone()),
            );
            edits.push((
                pool.object.index,
                Edit::SetScalar {
                    path: vec![
                        Seg::key("spec"),
                        Seg::key("preAllocations"),
                        Seg::key(&e.key),
                    ],
                    value: text,
                    style: crate::yaml::WriteStyle::DoubleQuoted,
                },
            ));
        }
    }

    // Pins of required pairs are validated; the others only warned about.
    let required: &[usize] = ctx.plan.required.get(&p).map_or(&[], Vec::as_slice);
    let required_set: HashSet<usize> = required.iter().copied().collect();
    let mut pinned_by: HashMap<u128, usize> = HashMap::new();
    for pin in pins {
        *pinned_by.entry(pin.addr.value()).or_default() += 1;
    }
    let mut pin_of: HashMap<usize, Addr> = HashMap::new();
    for pin in pins {
        let host = &idx.hosts[pin.host];
        let field = format!("metadata.annotations.{PIN_PREFIX}{pname}");
        if !required_set.contains(&pin.host) {
            findings.push(
                Finding::warning(format!(
                    "pin for IPPool {pname} is not needed (the mapping does not pair this host with the pool); \
                     it is not validated, but its address is kept out of the pool"
                ))
                .on(host.object.resource_ref())
                .at(field),
            );
            continue;
        }
        let claim = claim_name(host.name(), pname);
        let text = ipam::canonical(pin.addr.ip());
        if !st.ipam.is_candidate(pin.addr) {
            findings.push(
                Finding::error(format!(
                    "pin {text} is not an address IPPool {ns}/{pname} hands out"
                ))
                .on(host.object.resource_ref())
                .at(field.clone()),
            );
        }
        if let Some(&locked) = existing_by_key.get(claim.as_str())
            && locked != pin.addr
        {
            findings.push(
                Finding::error(format!(
                    "pin {text} differs from the existing entry {claim} = {} in IPPool {ns}/{pname}; \
                     an existing entry is never moved: remove the pin or the entry",
                    ipam::canonical(locked.ip())
                ))
                .on(host.object.resource_ref())
                .at(field.clone()),
            );
        }
        if pinned_by.get(&pin.addr.value()).copied().unwrap_or(0) > 1 {
            findings.push(
                Finding::error(format!(
                    "pin {text} for IPPool {ns}/{pname} is pinned by another host too"
                ))
                .on(host.object.resource_ref())
                .at(field.clone()),
            );
        }
        if !existing_by_key.contains_key(claim.as_str())
            && let Some(other) = seen.get(&pin.addr.value())
        {
            findings.push(
                Finding::error(format!(
                    "pin {text} is already preallocated to {other} in IPPool {ns}/{pname}"
                ))
                .on(host.object.resource_ref())
                .at(field.clone()),
            );
        }
        let host_ref = host.object.resource_ref();
        check_host_address(pin.addr, &claim, "pin for", (&host_ref, &field), findings);
        pin_of.insert(pin.host, pin.addr);
    }

    // Required claims in natural host order.
    let mut hosts: Vec<usize> = required.to_vec();
    hosts.sort_by(|a, b| natural::compare(idx.hosts[*a].name(), idx.hosts[*b].name()));
    let mut added: Vec<(usize, String, Addr)> = Vec::new();
    let mut kept = 0usize;
    let mut waiting: Vec<(String, usize)> = Vec::new();
    for h in hosts {
        let host = &idx.hosts[h];
        let claim = claim_name(host.name(), pname);
        if !is_dns1123_subdomain(&claim) {
            findings.push(
                Finding::error(format!(
                    "claim name {claim:?} (host {} + \"-\" + pool {pname}) is not a DNS-1123 subdomain of at most 253 characters: \
                     CAPM3 could not create it; rename the host or the pool",
                    host.name()
                ))
                .on(host.object.resource_ref())
                .at("metadata.name"),
            );
            continue;
        }
        let live = st.indexes.get(&claim).copied();
        let warn_moves = |a: Addr, what: &str, findings: &mut Vec<Finding>| {
            if let Some(l) = live
                && l != a
            {
                findings.push(
                    Finding::warning(format!(
                        "{what} {claim} = {} differs from the address the claim holds now ({}); \
                         the host moves when it is re-provisioned",
                        ipam::canonical(a.ip()),
                        ipam::canonical(l.ip())
                    ))
                    .on(rref.clone())
                    .at(format!("spec.preAllocations.{claim}")),
                );
            }
        };
        if let Some(&a) = existing_by_key.get(claim.as_str()) {
            kept += 1;
            warn_moves(a, "entry", findings);
        } else if let Some(&a) = pin_of.get(&h) {
            warn_moves(a, "pin for", findings);
            added.push((h, claim, a));
        } else if let Some(l) = live {
            if st.ipam.is_candidate(l)
                && !blocked.reserved.contains_addr(l)
                && !blocked.held_by_others(l)
            {
                added.push((h, claim, l));
            } else {
                findings.push(
                    Finding::warning(format!(
                        "claim {claim} holds {} now, which cannot be preallocated (reserved, taken or not a candidate); \
                         a new address is chosen and the host moves when it is re-provisioned",
                        ipam::canonical(l.ip())
                    ))
                    .on(rref.clone())
                    .at(format!("status.indexes.{claim}")),
                );
                waiting.push((claim, h));
            }
        } else {
            waiting.push((claim, h));
        }
    }
    // Live addresses and pins were already taken; the strategy now fills the rest in order.
    let free_before = st.ipam.count_free(&blocked.all);
    let mut cursor = st.ipam.allocator();
    let mut left: Vec<String> = Vec::new();
    let mut strategy_added: Vec<(usize, String, Addr)> = Vec::new();
    for (claim, h) in waiting {
        match cursor.next_free(&blocked.all) {
            Some((a, _)) => {
                blocked.take(a);
                strategy_added.push((h, claim, a));
            }
            None => left.push(idx.hosts[h].name().to_string()),
        }
    }
    if !left.is_empty() {
        let needed = strategy_added.len() + left.len();
        let shown: Vec<&str> = left.iter().take(20).map(String::as_str).collect();
        let more = if left.len() > shown.len() {
            format!(" and {} more", left.len() - shown.len())
        } else {
            String::new()
        };
        findings.push(
            Finding::error(format!(
                "IPPool {ns}/{pname} has {free_before} free address(es) but {needed} host(s) need a new one; left without an address: {}{more}. \
                 Widen spec.pools, or narrow hostSelector",
                shown.join(", ")
            ))
            .on(rref.clone())
            .at("spec.pools"),
        );
    }
    // Entries are written in natural host order, whichever step chose them.
    added.extend(strategy_added);
    added.sort_by(|a, b| natural::compare(idx.hosts[a.0].name(), idx.hosts[b.0].name()));
    let added: Vec<(String, Addr)> = added.into_iter().map(|(_, c, a)| (c, a)).collect();

    // Prune: `{x}-{pool}` entries whose host is gone and whose claim is not live.
    let mut pruned = 0usize;
    for e in &st.existing {
        if !is_stale(ctx, st, ns, pname, &e.key) {
            continue;
        }
        let x = stale_host(pname, &e.key).unwrap_or_default();
        let field = format!("spec.preAllocations.{}", e.key);
        if ctx.cfg.prune {
            pruned += 1;
            findings.push(
                Finding::warning(format!(
                    "entry {} removed: no BareMetalHost {x:?} in namespace {ns:?} and no live claim (prune: true)",
                    e.key
                ))
                .on(rref.clone())
                .at(field),
            );
            edits.push((
                pool.object.index,
                Edit::RemoveEntry {
                    path: vec![Seg::key("spec"), Seg::key("preAllocations")],
                    key: e.key.clone(),
                },
            ));
        } else {
            findings.push(
                Finding::warning(format!(
                    "entry {} names no BareMetalHost of the input ({x:?}); it stays and keeps its address reserved \
                     (set prune: true to remove it)",
                    e.key
                ))
                .on(rref.clone())
                .at(field),
            );
        }
    }

    if !added.is_empty() {
        edits.push((
            pool.object.index,
            Edit::AddEntries {
                path: vec![Seg::key("spec"), Seg::key("preAllocations")],
                entries: added
                    .iter()
                    .map(|(k, a)| (k.clone(), ipam::canonical(a.ip())))
                    .collect(),
            },
        ));
    }
    let failed = findings.iter().filter(|f| f.is_error()).count() > errors_before;
    let free_left = st.ipam.count_free(&blocked.all);
    if !failed {
        ctx.summaries.push(
            Finding::info(format!(
                "{kept} kept, {} added, {rewritten} rewritten, {pruned} pruned, {free_left} free left",
                added.len()
            ))
            .on(rref.clone()),
        );
    }
    if let Some(st) = ctx.pools.get_mut(&p) {
        st.added = added;
    }
}

/// Why an address is reserved for a pool (rules 1–4), if it is.
fn reserved_reason(
    ctx: &Context,
    st: &super::context::PoolState,
    ns: &str,
    a: Addr,
) -> Option<&'static str> {
    if st.rule1.contains_addr(a) {
        Some("a gateway or DNS server of the pool")
    } else if st.ipam.is_reserved_rule2(a) {
        Some("the network or broadcast address of its subnet")
    } else if ctx.reserve.contains_addr(a) {
        Some("in spec.reserve of the ipreuse config")
    } else if ctx.endpoints.get(ns).is_some_and(|e| e.contains_addr(a)) {
        Some("a control-plane endpoint of a Cluster or Metal3Cluster in the namespace")
    } else {
        None
    }
}

/// The `x` of an entry keyed `{x}-{pool}`.
fn stale_host<'k>(pool: &str, key: &'k str) -> Option<&'k str> {
    key.strip_suffix(pool)?
        .strip_suffix('-')
        .filter(|x| !x.is_empty())
}

/// An entry keyed `{x}-{pool}` with no host `x` in the namespace and no live claim (SPEC §5 "Prune").
fn is_stale(
    ctx: &Context,
    st: &super::context::PoolState,
    ns: &str,
    pool: &str,
    key: &str,
) -> bool {
    stale_host(pool, key).is_some_and(|x| !ctx.has_host(ns, x) && !st.indexes.contains_key(key))
}
