//! The transformations: each reads the index of the input and the resolved config and returns
//! edits and results; none touches text ([`crate::run`] applies every edit once, and the write
//! safety net checks them all).
//!
//! Each transformation is a module with one entry point, `apply(model, config, ...)`, that
//! reads the [`Model`] (every object of the input, read once by its kind's reader) and returns
//! an [`Outcome`] (edits, findings, what the edits wrote, what `check` reports):
//!
//! - `preallocations::apply(model, config, run: &RunContext) -> preallocations::Output`:
//!   the `Outcome`, and what only the preallocations know, the address plan
//!   ([`preallocations::AddressPlan`], `ipreuse plan`). They alone read the [`RunContext`]
//!   (the claim limit, whether to keep the plan, whether the check errors are worth writing).
//! - `labels::apply(model, config, managed) -> Outcome` (SPEC §7): `managed` is the
//!   pools the preallocations' mapping manages ([`preallocations::Output::managed`]), handed
//!   on, never recomputed.
//! - `controller_flag::apply(model, config) -> Outcome` (SPEC §8).
//!
//! None decides by the mode: each says both what `fill` writes and what `check` reports
//! instead, and the run picks. The `config` is the functionConfig as
//! [`crate::config::resolve`] returned it, never changed after; what the run adds (`--mode`,
//! limits, plan) is the [`RunContext`]. [`apply`] runs them in order.

pub mod controller_flag;
pub mod labels;
mod outcome;
pub mod preallocations;

use crate::config::Config;
use crate::model::Model;
pub use outcome::{Outcome, RunContext};

/// What the transformations of one run returned.
#[derive(Debug, Default)]
pub struct Applied {
    /// Each transformation's outcome, in the order they ran.
    pub outcomes: Vec<Outcome>,
    /// The preallocations' address plan ([`preallocations::Output::plan`]).
    pub plan: preallocations::AddressPlan,
}

/// Runs the transformations in order: the preallocations always, then the labels (SPEC §7)
/// when `config.labels`, then the controller flag (SPEC §8) when `config.controller_flag`.
pub fn apply(model: &Model, config: &Config, run: &RunContext) -> Applied {
    let preallocations = preallocations::apply(model, config, run);
    let mut outcomes = vec![preallocations.outcome];
    if config.labels {
        outcomes.push(labels::apply(model, config, &preallocations.managed));
    }
    if config.controller_flag {
        outcomes.push(controller_flag::apply(model, config));
    }
    Applied {
        outcomes,
        plan: preallocations.plan,
    }
}
