//! What every transformation returns ([`Outcome`]) and what the run asks of them beside the
//! config ([`RunContext`]). Below the transformations, which each return an `Outcome`, and
//! `transform::apply`, which runs them.

use crate::config::Mode;
use crate::edits::ItemEdit;
use crate::results::Finding;

/// What a transformation returns.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// What `fill` writes.
    pub edits: Vec<ItemEdit>,
    /// Results that hold in either mode: what is wrong or worth knowing about the input.
    pub findings: Vec<Finding>,
    /// Infos that say what the edits wrote (a pool's summary, a flag turned on): reported only
    /// when the edits are written.
    pub written: Vec<Finding>,
    /// What `mode: check` reports instead of writing: an error at each object and field that
    /// `fill` would change.
    pub check: Vec<Finding>,
}

/// What the run asks of the transformations beyond the functionConfig, from the binary's
/// options ([`crate::run::Options`]): never part of [`crate::config::Config`], which stays as
/// [`crate::config::resolve`] returned it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunContext {
    /// The mode of the run: `--mode` when given, else the functionConfig's `mode`. A
    /// transformation returns both what `fill` writes and what `check` reports, and the run
    /// picks; it reads the mode only to skip work the run would drop (the check errors of a
    /// fill).
    pub mode: Mode,
    /// The most host-pool claims the run may fill ([`crate::limits::Limits::max_claims`]).
    pub max_claims: u64,
    /// Whether the run spells out the address plan (`ipreuse plan`): without it the
    /// preallocations keep no plan rows.
    pub plan: bool,
}

impl RunContext {
    /// Whether the run checks (`mode: check`, or `--mode check`).
    pub fn checking(&self) -> bool {
        self.mode == Mode::Check
    }
}

impl Default for RunContext {
    /// A fill with the default limits and no plan: what `ipreuse` does without flags.
    fn default() -> Self {
        RunContext {
            mode: Mode::Fill,
            max_claims: crate::limits::DEFAULT_MAX_CLAIMS,
            plan: false,
        }
    }
}
