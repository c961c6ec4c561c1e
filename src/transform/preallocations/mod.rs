//! The preallocations (SPEC §4–§5): the mapping decides which `{host}-{pool}` claims each
//! managed pool needs ([`mapping`]), adoption follows the live objects to the addresses hosts
//! hold ([`adopt`]), and allocation validates what is there and gives each required claim an
//! address ([`allocate`]). Edits on the IPPools'
//! `spec.preAllocations`; one summary per filled pool, true only when the edits are written, and in `mode: check` one
//! error per entry fill would change.

pub mod adopt;
pub mod allocate;
pub mod blocks;
pub mod mapping;

use super::{Outcome, RunContext};
use crate::config::Config;
use crate::model::{HostId, Index, Model, PoolId};
use allocate::{Planned, Row};

/// What the preallocations return: the [`Outcome`] every transformation returns, and what only
/// they know: the address plan, and the pools the mapping manages.
#[derive(Debug, Default)]
pub struct Output {
    pub outcome: Outcome,
    pub plan: AddressPlan,
    /// The pools the mapping manages ([`mapping::Plan::mapped`]), which the labels label
    /// ([`crate::transform::labels::apply`]): decided once, never recomputed.
    pub managed: Vec<PoolId>,
}

/// The address plan (`ipreuse plan`): every required claim with the address its pool's entry
/// holds once filled, as ids of the index the preallocations read. Empty unless
/// [`RunContext::plan`] asks for it.
#[derive(Debug, Default)]
pub struct AddressPlan {
    rows: Vec<Planned>,
    /// The names of the networks the rows refer to ([`Planned::network`]).
    networks: Vec<String>,
    /// Where the rows of Clusters stamped from a ClusterClass come from
    /// ([`mapping::Plan::origins`]).
    origins: std::collections::BTreeMap<(PoolId, HostId), std::collections::BTreeSet<String>>,
    /// Every block of the networks with `blockSize`, new and kept ([`blocks::Handout::rows`]).
    pub blocks: Vec<blocks::BlockRow>,
    /// The address map of each filled pool ([`allocate::PoolMap`]), in the order the pools
    /// were filled: what the page of `ipreuse plan --format html` draws beside the rows.
    pub pools: Vec<allocate::PoolMap>,
    /// The networks of the config: name and cidr as written, in the config's order.
    pub networks_cidrs: Vec<(String, String)>,
}

impl AddressPlan {
    /// The rows as `ipreuse plan` shows them, named from `index` (the one the preallocations
    /// read).
    pub fn rows(&self, index: &Index) -> Vec<Row> {
        self.rows
            .iter()
            .map(|r| {
                let mut row = r.row(index, &self.networks);
                if let Some(from) = self.origins.get(&(r.pool, r.host)) {
                    row.clusters = from.iter().cloned().collect();
                }
                row
            })
            .collect()
    }
}

/// Fills every managed pool's `spec.preAllocations`.
pub fn apply(model: &Model, config: &Config, run: &RunContext) -> Output {
    let mut out = Outcome::default();
    let mut plan = mapping::plan(model, config, run.max_claims, &mut out.findings);
    // Blocks for new clusters first: the pools given one are filled in the same run.
    let handout = blocks::hand_out(
        &model.index,
        config,
        run.checking(),
        run.plan,
        &mut out.findings,
    );
    let allocation = allocate::allocate(model, &plan, config, run, &handout, &mut out.findings);
    let blocks = handout.rows;
    out.edits = handout.edits;
    out.edits.extend(allocation.edits);
    out.written = handout.written;
    out.written.extend(allocation.summaries);
    out.written.extend(allocation.changes.written);
    // `mode: check`: one error per entry fill would add, rewrite or prune, at the entry's own
    // field, naming the host, the pool and the address (SPEC §9).
    out.check = handout.check;
    out.check.extend(allocation.changes.check);
    Output {
        outcome: out,
        plan: AddressPlan {
            rows: allocation.rows,
            networks: allocation.networks,
            origins: std::mem::take(&mut plan.origins),
            blocks,
            pools: allocation.maps,
            networks_cidrs: if run.plan {
                config
                    .networks
                    .iter()
                    .map(|n| (n.name.clone(), n.cidr.clone()))
                    .collect()
            } else {
                Vec::new()
            },
        },
        managed: plan.mapped,
    }
}
