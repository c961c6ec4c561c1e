//! The transformations: each reads the index of the input and the resolved config and returns
//! edits and results; none touches text ([`crate::run`] applies every edit once, and the write
//! safety net checks them all).
//!
//! Each transformation is a module with one entry point of the same shape,
//! `fn apply(index: &Index, values: &[Value], config: &Config) -> Outcome`, and none reads the
//! mode: it says both what `fill` writes and what `check` reports instead, and the run picks.
//! They run in the order of [`ALL`].

pub mod controller_flag;
pub mod labels;
mod outcome;
pub mod preallocations;

pub use outcome::{Outcome, Transformation};

/// The transformations in the order they run: the preallocations always, then the labels
/// (SPEC §7), then the controller flag (SPEC §8).
pub const ALL: [Transformation; 3] = [
    Transformation {
        on: |_| true,
        apply: preallocations::apply,
    },
    Transformation {
        on: |c| c.labels,
        apply: labels::apply,
    },
    Transformation {
        on: |c| c.controller_flag,
        apply: controller_flag::apply,
    },
];
