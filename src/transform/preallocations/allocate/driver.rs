//! The allocation's one pass: adoption, the context, each managed pool filled in order, then
//! the checks across pools and networks.

use super::{Allocation, EntryChanges, context, fill, map, rank};
use crate::config::Config;
use crate::model::Model;
use crate::results::Finding;
use crate::transform::RunContext;
use crate::transform::preallocations::blocks::Handout;
use crate::transform::preallocations::mapping::Plan;

/// Computes the edits that fill the managed pools; warnings and errors go to `findings`.
/// Adoption ([`crate::transform::preallocations::adopt`]) reads the live objects of `model`.
pub fn allocate(
    model: &Model,
    plan: &Plan,
    cfg: &Config,
    run: &RunContext,
    blocks: &Handout,
    findings: &mut Vec<Finding>,
) -> Allocation {
    let idx = &model.index;
    let adoption = crate::transform::preallocations::adopt::adopt(model, &plan.managed, findings);
    let Some(mut ctx) = context::Context::build(idx, plan, cfg, *run, adoption, blocks, findings)
    else {
        return Allocation::default();
    };
    let mut edits = Vec::new();
    let mut changes = EntryChanges::new(run.checking());
    let rank = rank::Rank::of(idx);
    for &p in &plan.managed {
        fill::fill_pool(&mut ctx, &rank, p, findings, &mut edits, &mut changes);
    }
    ctx.check_cross_pool(findings);
    ctx.check_cross_network(findings);
    warn_pins_without_pool(&ctx, findings);
    // The address map once every pool is filled: what a pool filled early shows as taken
    // includes what the pools filled after it added.
    let maps = ctx
        .filled
        .iter()
        .filter_map(|(p, rows)| map::pool_map(&ctx, *p, ctx.rows.get(rows.clone())?))
        .collect();
    Allocation {
        edits,
        networks: ctx.networks.names(),
        summaries: ctx.summaries,
        rows: ctx.rows,
        maps,
        changes,
    }
}

/// A pin for a pool that is not managed in the host's namespace is only a warning.
fn warn_pins_without_pool(ctx: &context::Context, findings: &mut Vec<Finding>) {
    let managed: crate::FastSet<(&str, &str)> = ctx
        .plan
        .managed
        .iter()
        .map(|&p| {
            (
                ctx.idx.pools[p].object.namespace.as_str(),
                ctx.idx.pools[p].name(),
            )
        })
        .collect();
    for host in &ctx.idx.hosts {
        for pool in host.pins.keys() {
            if !managed.contains(&(host.object.namespace.as_str(), pool.as_str())) {
                findings.push(
                    Finding::warning(format!(
                        "pin for IPPool {pool:?}, which is not a managed pool of namespace {:?}; the pin is not used",
                        host.object.namespace
                    ))
                    .on(host.object.resource_ref())
                    .at(crate::results::key_path(
                        "metadata.annotations",
                        &format!("{}{pool}", crate::model::host::PIN_PREFIX),
                    )),
                );
            }
        }
    }
}
