//! The preallocations (SPEC §4–§5): the mapping decides which `{host}-{pool}` claims each
//! managed pool needs ([`crate::mapping`]), and allocation validates what is there and gives
//! each required claim an address ([`crate::allocate`]). Edits on the IPPools'
//! `spec.preAllocations`; one summary per filled pool, true only when the edits are written.

use serde_json::Value;

use super::{ItemEdit, Outcome};
use crate::allocate::{self, Changes};
use crate::config::Config;
use crate::mapping;
use crate::model::Index;
use crate::results::Finding;

/// Fills every managed pool's `spec.preAllocations`.
pub fn apply(index: &Index, values: &[Value], config: &Config) -> Outcome {
    let mut out = Outcome::default();
    let plan = mapping::plan(index, values, config, &mut out.findings);
    let allocation = allocate::allocate(index, values, &plan, config, &mut out.findings);
    out.check = check(index, &allocation.edits);
    out.edits = allocation.edits;
    out.written = allocation.summaries;
    out.rows = allocation.rows;
    out.networks = allocation.networks;
    out
}

/// `mode: check`: one error per pool fill would change, saying how many entries it would
/// add, rewrite and remove, at `spec.preAllocations`.
fn check(index: &Index, edits: &[ItemEdit]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (item, changes) in Changes::per_item(edits) {
        if let Some(o) = index.object(item) {
            findings.push(
                Finding::error(format!(
                    "check: {} is not up to date: fill would {}; run ipreuse in fill mode and commit the result",
                    o.display(),
                    changes.describe()
                ))
                .on(o.resource_ref())
                .at("spec.preAllocations"),
            );
        }
    }
    findings
}
