//! Allocation (SPEC §5): validate what is there, then give every required claim
//! `{host}-{pool}` an address, and say so as edits on the pool items.
//!
//! Pools are filled in byte order of (namespace, name), so the entries just added to earlier
//! pools count as taken for later overlapping ones. Nothing here touches text.

mod blocked;
mod context;
mod fill;
mod pool_view;
mod shared;
mod validate;

use crate::config::Config;
use crate::mapping::Plan;
use crate::model::Index;
use crate::results::Finding;
use crate::yaml::Edit;

/// What allocation decided.
#[derive(Debug, Default)]
pub struct Allocation {
    /// Edits on items (item index, edit).
    pub edits: Vec<(usize, Edit)>,
    /// One info result per filled pool (kept, added, rewritten, pruned, free left): true only
    /// if the edits are written, so the caller reports them only then.
    pub summaries: Vec<Finding>,
}

/// Computes the edits that fill the managed pools; warnings and errors go to `findings`.
pub fn allocate(idx: &Index, plan: &Plan, cfg: &Config, findings: &mut Vec<Finding>) -> Allocation {
    let Some(mut ctx) = context::Context::build(idx, plan, cfg, findings) else {
        return Allocation::default();
    };
    let mut edits = Vec::new();
    for &p in &plan.managed {
        fill::fill_pool(&mut ctx, p, findings, &mut edits);
    }
    ctx.check_cross_pool(findings);
    warn_pins_without_pool(&ctx, findings);
    Allocation {
        edits,
        summaries: ctx.summaries,
    }
}

/// A pin for a pool that is not managed in the host's namespace is only a warning.
fn warn_pins_without_pool(ctx: &context::Context, findings: &mut Vec<Finding>) {
    let managed: std::collections::HashSet<(&str, &str)> = ctx
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
                    .at(format!("metadata.annotations.{}{pool}", crate::model::host::PIN_PREFIX)),
                );
            }
        }
    }
}
