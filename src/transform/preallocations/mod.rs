//! The preallocations (SPEC §4–§5): the mapping decides which `{host}-{pool}` claims each
//! managed pool needs ([`mapping`]), adoption follows the live objects to the addresses hosts
//! hold ([`adopt`]), and allocation validates what is there and gives each required claim an
//! address ([`allocate`]). Edits on the IPPools'
//! `spec.preAllocations`; one summary per filled pool, true only when the edits are written, and in `mode: check` one
//! error per entry fill would change.

pub mod adopt;
pub mod allocate;
pub mod mapping;

use serde_json::Value;

use super::{Outcome, RunContext};
use crate::config::Config;
use crate::model::Index;

/// Fills every managed pool's `spec.preAllocations`.
pub fn apply(index: &Index, values: &[Value], config: &Config, run: &RunContext) -> Outcome {
    let mut out = Outcome::default();
    let plan = mapping::plan(index, values, config, run.max_claims, &mut out.findings);
    let allocation = allocate::allocate(index, values, &plan, config, run, &mut out.findings);
    out.edits = allocation.edits;
    out.written = allocation.summaries;
    out.written.extend(allocation.changes.written);
    // `mode: check`: one error per entry fill would add, rewrite or prune, at the entry's own
    // field, naming the host, the pool and the address (SPEC §9).
    out.check = allocation.changes.check;
    out.rows = allocation.rows;
    out.networks = allocation.networks;
    out
}
