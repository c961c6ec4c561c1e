//! Filling one pool: validate its entries and pins, then the precedence of SPEC §5 for every
//! required claim — existing entry (the lock), pin, live address, strategy — then prune.

use crate::{FastMap, FastSet};

use super::blocked::Blocked;
use super::context::Context;
use super::ordinal;
use super::pool_view::PoolView;
use super::rank::Rank;
use super::state::{Pin, PinSource};
use super::validate;
use super::{EntryChanges, Planned, Status};
use crate::config::Strategy;
use crate::edits::ItemEdit;
use crate::ipam::Addr;
use crate::model::host::PIN_PREFIX;
use crate::model::{HostId, PoolId};
use crate::names::{claim_name, is_dns1123_subdomain, list_some, short};
use crate::results::Finding;
use crate::yaml::Edit;

/// Fills pool `p`, pushing edits on its item and results; records what it added in `ctx`.
/// `rank` is the hosts' natural order.
pub fn fill_pool(
    ctx: &mut Context,
    rank: &Rank,
    p: PoolId,
    findings: &mut Vec<Finding>,
    edits: &mut Vec<ItemEdit>,
    changes: &mut EntryChanges,
) {
    let Some((added, summary, rows)) = fill(ctx, rank, p, findings, edits, changes) else {
        return;
    };
    if let Some(summary) = summary {
        ctx.summaries.push(summary);
    }
    if ctx.run.plan {
        ctx.filled
            .push((p, ctx.rows.len()..ctx.rows.len() + rows.len()));
    }
    ctx.rows.extend(rows);
    let in_network = ctx.networks.of(p).is_some();
    if let Some(net) = ctx.networks.of_mut(p) {
        for (_, a, _) in &added {
            net.record_added(*a, p);
        }
    }
    let ns = ctx.idx.pools[p].object.namespace.as_str();
    if let Some(st) = ctx.pools.get_mut(&p) {
        // Only a pool that overlaps this one reads what this one added (inside its candidates
        // or, for a pin outside them, as `Shared::outside_added`): without one, nothing to share.
        if let Some(sh) = ctx.shared.get_mut(ns).filter(|_| !st.overlaps.is_empty()) {
            for (_, a, _) in &added {
                sh.record_added(*a, p, st.candidates.contains_addr(*a));
            }
        }
        // Read only to find clashes with the pools it overlaps or shares a network with
        // (`Context::check_cross_pool`, `check_cross_network`): a pool with neither keeps none.
        if in_network || !st.overlaps.is_empty() {
            st.added = added;
        }
    }
}

/// What filling one pool produced: the entries added (host, address and where it comes from,
/// in write order; their keys are in the pool's edit), its summary, and its rows of the address
/// plan (only for `ipreuse plan`: [`crate::transform::RunContext::plan`]).
type Filled = (Vec<(HostId, Addr, Status)>, Option<Finding>, Vec<Planned>);

/// The work of [`fill_pool`] on a read-only context: the entries added (in write order) and the
/// pool's summary when it had no error. `None` for a pool whose ranges are invalid.
fn fill(
    ctx: &Context,
    rank: &Rank,
    p: PoolId,
    findings: &mut Vec<Finding>,
    edits: &mut Vec<ItemEdit>,
    changes: &mut EntryChanges,
) -> Option<Filled> {
    let v = PoolView::new(ctx, p)?;
    let findings_before = findings.len();
    let checks_before = changes.check.len();
    let no_pins: Vec<Pin> = Vec::new();
    let pins = ctx
        .pins
        .get(&(v.ns.to_string(), v.name.to_string()))
        .unwrap_or(&no_pins);
    warn_overlaps(&v, p, findings);
    if let Some(net) = ctx.networks.of(p) {
        findings.extend(super::network::overlap_finding(
            ctx.idx,
            net,
            p,
            ctx.cfg.strict_networks,
            ctx.cfg,
        ));
    }
    let mut blocked = Blocked::for_pool(ctx, p, v.st, pins);
    let entries = validate::existing(&v, findings, edits, changes);
    let required: &[HostId] = ctx.plan.required.get(&p).map_or(&[], Vec::as_slice);
    let required_set: FastSet<HostId> = required.iter().copied().collect();
    let pin_of = validate::pins(&v, pins, &required_set, &entries, findings);

    // Required claims in natural host order: entry, else pin, else live address, else wait
    // for the strategy.
    let mut hosts: Vec<HostId> = required.to_vec();
    hosts.sort_by_key(|h| rank.of_host(*h));
    let mut added: Vec<(HostId, String, Addr)> = Vec::new();
    let mut kept = 0usize;
    let mut waiting: Vec<(String, HostId)> = Vec::new();
    // The address plan: kept entries, and where each added address comes from (else new).
    let mut kept_rows: Vec<(HostId, Addr)> = Vec::new();
    let mut source: FastMap<HostId, Status> = FastMap::default();
    for h in hosts {
        let host = &ctx.idx.hosts[h];
        let claim = claim_name(host.name(), v.name);
        if !is_dns1123_subdomain(&claim) {
            findings.push(
                Finding::error(format!(
                    "claim name {:?} is not a DNS-1123 subdomain of at most 253 characters: rename the \
                     host or the pool. It is host {} + \"-\" + pool {}; CAPM3 could not create it",
                    short(&claim),
                    short(host.name()),
                    short(v.name)
                ))
                .on(host.object.resource_ref())
                .at("metadata.name"),
            );
            continue;
        }
        let live = v.st.indexes.get(&claim).copied();
        if let Some(&a) = entries.by_key.get(claim.as_str()) {
            kept += 1;
            kept_rows.push((h, a));
            warn_if_moves(&v, &claim, a, live, findings, || {
                (
                    format!("entry {}", short(&claim)),
                    v.rref.clone(),
                    crate::results::key_path("spec.preAllocations", &claim),
                )
            });
        } else if let Some(&a) = pin_of.get(&h) {
            let annotation = pins
                .iter()
                .find(|pin| pin.host == h && matches!(pin.source, PinSource::Annotation));
            let adopted = pins
                .iter()
                .any(|pin| pin.host == h && matches!(pin.source, PinSource::Adopted(_)));
            let annotated = annotation.is_some();
            // The annotation if there is one, else the adopted address.
            if let Some(pin) = annotation.or_else(|| pins.iter().find(|pin| pin.host == h)) {
                warn_if_moves(&v, &claim, a, live, findings, || {
                    let what = match pin.source {
                        PinSource::Annotation => format!(
                            "pin {PIN_PREFIX}{} of host {}",
                            short(v.name),
                            short(host.name())
                        ),
                        PinSource::Adopted(_) => {
                            format!("the address host {} holds now", short(host.name()))
                        }
                    };
                    let (on, field) = pin.place(host, v.name);
                    (what, on, field)
                });
            }
            source.insert(
                h,
                if adopted && !annotated {
                    Status::Live
                } else {
                    Status::Pinned
                },
            );
            added.push((h, claim, a));
        } else if let Some(l) = live {
            if v.st.ipam.is_candidate(l)
                && !blocked.reserved.contains_addr(l)
                && !blocked.held_by_others(l)
            {
                source.insert(h, Status::Live);
                added.push((h, claim, l));
            } else {
                // Outside every entry it is already an error (SPEC §5 "In use").
                if !v.st.out_of_bounds.contains(&claim) {
                    let why = if !v.st.ipam.is_candidate(l) {
                        "not among the addresses the IPAM hands out from spec.pools".to_string()
                    } else if let Some(reason) = v.reserved_reason(l) {
                        reason
                    } else {
                        format!("taken: {} holds it", v.holder(l, Some(h)))
                    };
                    let (on, field, shown) = ctx.live_place(p, &claim);
                    findings.push(
                        Finding::warning(format!(
                            "claim {claim} cannot keep {}: a new address is chosen, and host {} moves when \
                             it is re-provisioned. The claim holds it now ({shown}), but it is {why}",
                            l,
                            short(host.name())
                        ))
                        .on(on)
                        .at(field),
                    );
                }
                waiting.push((claim, h));
            }
        } else {
            waiting.push((claim, h));
        }
    }
    added.extend(match ctx.cfg.strategy {
        Strategy::Sequential => sequential(&v, &mut blocked, waiting, findings),
        Strategy::Ordinal => ordinal::assign(&v, &mut blocked, waiting, findings),
    });
    // Entries are written in natural host order, whichever step chose them.
    added.sort_by_key(|a| rank.of_host(a.0));
    let pruned = prune(&v, findings, edits, changes);
    // The claim names go to the edit; what the run keeps of its entries is host and address.
    let (entries_added, added): (Vec<_>, Vec<_>) = added
        .into_iter()
        .map(|(h, k, a)| {
            let status = source.get(&h).copied().unwrap_or(Status::New);
            let text = a.to_string();
            changes.record(&v.rref, &k, None, "missing", || {
                format!(
                    "Fill would add {}: {text:?} to IPPool {}/{} for BareMetalHost {} ({})",
                    short(&k),
                    short(v.ns),
                    short(v.name),
                    short(ctx.idx.hosts[h].name()),
                    why_this_address(&v, status, ctx.cfg.strategy)
                )
            });
            ((k, text), (h, a, status))
        })
        .unzip();
    if !entries_added.is_empty() {
        edits.push(ItemEdit::new(
            v.item(),
            Edit::AddEntries {
                path: PoolView::pre_path(),
                entries: entries_added,
            },
        ));
    }
    let failed = findings[findings_before..].iter().any(Finding::is_error);
    if failed {
        // Fill writes nothing while a pool has an error, so `mode: check` does not say what it
        // would add, rewrite or prune there: it reports the errors, which are what to fix first
        // (an entry "to add" from a refused pin, or over an invalid entry, would be untrue).
        changes.check.truncate(checks_before);
    }
    let summary = (!failed).then(|| {
        let network = ctx
            .networks
            .name_of(p)
            .map_or(String::new(), |n| format!(" (network {n})"));
        Finding::info(format!(
            "{kept} kept, {} added, {} rewritten, {pruned} pruned, {} free left{network}",
            added.len(),
            entries.rewritten,
            blocked.count_free(&v.st.ipam)
        ))
        .on(v.rref.clone())
    });
    if !ctx.run.plan {
        return Some((added, summary, Vec::new()));
    }
    let network = ctx.networks.index_of(p);
    let planned = |host, address, status| Planned {
        host,
        pool: p,
        address,
        status,
        network,
    };
    let mut rows: Vec<Planned> = kept_rows
        .into_iter()
        .map(|(h, a)| planned(h, a, Status::Kept))
        .chain(added.iter().map(|(h, a, s)| planned(*h, *a, *s)))
        .collect();
    rows.sort_by_key(|r| rank.of_host(r.host));
    Some((added, summary, rows))
}

/// Where an added entry's address comes from, as the check error for it says it.
fn why_this_address(v: &PoolView, status: Status, strategy: Strategy) -> String {
    match status {
        Status::Pinned => format!("its pin {PIN_PREFIX}{}", short(v.name)),
        Status::Live => "the address its claim holds now".into(),
        Status::Kept => "its entry".into(),
        Status::New => match strategy {
            Strategy::Sequential => "the first free address of the pool".into(),
            Strategy::Ordinal => "its ordinal position in the pool".into(),
        },
    }
}

/// One warning for a pool whose candidates overlap other pools of its namespace, naming a few
/// (those with its own `namePrefix` are an error already: [`super::name_prefix`]).
fn warn_overlaps(v: &PoolView, p: PoolId, findings: &mut Vec<Finding>) {
    let others: Vec<PoolId> = v
        .ctx
        .overlapping(p)
        .into_iter()
        .filter(|q| !super::name_prefix::same_prefix(v.ctx.idx, p, *q))
        .collect();
    if others.is_empty() {
        return;
    }
    let names = others
        .iter()
        .map(|q| format!("{}/{}", short(v.ns), short(v.ctx.idx.pools[*q].name())));
    findings.push(
        Finding::warning(format!(
            "This pool overlaps {} of its namespace: keep their ranges apart, or give every claim a \
             preallocation. It overlaps IPPool {}. A claim without a preallocation in one pool can \
             take an address the other pool preallocated: ipreuse keeps them apart only for the \
             hosts it fills",
            if others.len() == 1 { "another pool" } else { "other pools" },
            list_some(names, 3)
        ))
        .on(v.rref.clone())
        .at("spec.pools"),
    );
}

/// A warning when the address a claim is given differs from the one it holds now. `source`
/// says what gives it (an entry, a pin), on which object and at which field the warning goes;
/// it is called only then.
fn warn_if_moves(
    v: &PoolView,
    claim: &str,
    a: Addr,
    live: Option<Addr>,
    findings: &mut Vec<Finding>,
    source: impl FnOnce() -> (String, crate::results::ResourceRef, String),
) {
    if let Some(l) = live
        && l != a
    {
        let (what, on, field) = source();
        let (_, _, shown) = v.ctx.live_place(v.pool_id, claim);
        findings.push(
            Finding::warning(format!(
                "{what} = {} differs from {l}, the address claim {} holds now: set it to {l} to keep \
                 the host in place. Otherwise the host moves when it is re-provisioned ({shown} of \
                 IPPool {}/{} shows {l})",
                a,
                short(claim),
                short(v.ns),
                short(v.name),
            ))
            .on(on)
            .at(field),
        );
    }
}

/// The `sequential` strategy: each waiting claim, in order, takes the free candidate with the
/// lowest walk position. Not enough candidates is one error naming the hosts left.
fn sequential(
    v: &PoolView,
    blocked: &mut Blocked,
    waiting: Vec<(String, HostId)>,
    findings: &mut Vec<Finding>,
) -> Vec<(HostId, String, Addr)> {
    let free_before = blocked.count_free(&v.st.ipam);
    let mut cursor = v.st.ipam.allocator();
    let mut left: Vec<&str> = Vec::new();
    let mut chosen = Vec::new();
    for (claim, h) in waiting {
        match blocked.next_free(&mut cursor) {
            Some((a, _)) => {
                blocked.take(a);
                chosen.push((h, claim, a));
            }
            None => left.push(v.ctx.idx.hosts[h].name()),
        }
    }
    if !left.is_empty() {
        let needed = chosen.len() + left.len();
        let shown = list_some(left.iter().map(|h| short(h).into_owned()), 20);
        findings.push(
            Finding::error(format!(
                "This pool has {free_before} free address(es) but {needed} host(s) need a new one: \
                 widen spec.pools, or narrow hostSelector. Left without an address: {shown}."
            ))
            .on(v.rref.clone())
            .at("spec.pools"),
        );
    }
    chosen
}

/// SPEC §5 "Prune": entries `{x}-{pool}` whose host is gone and whose claim is not live are
/// removed with `prune: true` (a warning once removed, a check error instead), else kept with a
/// warning. Returns how many were removed.
fn prune(
    v: &PoolView,
    findings: &mut Vec<Finding>,
    edits: &mut Vec<ItemEdit>,
    changes: &mut EntryChanges,
) -> usize {
    let mut pruned = 0;
    for e in &v.st.existing {
        let Some(x) = v.stale_host(&e.key) else {
            continue;
        };
        let field = crate::results::key_path("spec.preAllocations", &e.key);
        if v.ctx.cfg.prune {
            pruned += 1;
            let why = format!(
                "no BareMetalHost {:?} in namespace {:?} and no live claim (prune: true)",
                short(x),
                short(v.ns)
            );
            changes.record(
                &v.rref,
                &e.key,
                Some(format!("entry {} removed: {why}", short(&e.key))),
                "stale",
                || {
                    format!(
                        "Fill would remove entry {}: {:?} from IPPool {}/{}: {why}",
                        short(&e.key),
                        short(&e.text),
                        short(v.ns),
                        short(v.name)
                    )
                },
            );
            edits.push(ItemEdit::new(
                v.item(),
                Edit::RemoveEntry {
                    path: PoolView::pre_path(),
                    key: e.key.clone(),
                },
            ));
        } else {
            findings.push(
                Finding::warning(format!(
                    "entry {} names no BareMetalHost of the input: set prune: true to remove it. It \
                     stays and keeps its address reserved; the host it names is {:?}",
                    short(&e.key),
                    short(x)
                ))
                .on(v.rref.clone())
                .at(field),
            );
        }
    }
    pruned
}
