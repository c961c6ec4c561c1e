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
pub mod preallocations;

use serde_json::Value;

use crate::config::Config;
use crate::model::{Index, ItemId};

use crate::results::Finding;
use crate::yaml::Edit;

/// One edit of one input item: `edit`'s path starts at the item's root.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemEdit {
    /// The item's position in the input (as in [`crate::model::Index::objects`]).
    pub item: ItemId,
    pub edit: Edit,
}

impl ItemEdit {
    pub fn new(item: ItemId, edit: Edit) -> ItemEdit {
        ItemEdit { item, edit }
    }
}

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
    /// The address plan (`ipreuse plan`): what the preallocations hold once filled, as ids
    /// of the index the transformation read.
    pub rows: Vec<crate::transform::preallocations::allocate::Planned>,
    /// The names of the networks the rows refer to ([`crate::transform::preallocations::allocate::Planned::network`]).
    pub networks: Vec<String>,
}

/// One transformation: whether the config turns it on, and its entry point.
pub struct Transformation {
    pub on: fn(&Config) -> bool,
    pub apply: fn(&Index, &[Value], &Config) -> Outcome,
}

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
