//! The transformations: each reads the index of the input and the resolved config and returns
//! edits and results; none touches text ([`crate::run`] applies every edit once, and the write
//! safety net checks them all).
//!
//! Each transformation is a module with one entry point of the same shape,
//! `fn apply(index: &Index, values: &[Value], config: &Config) -> Outcome`.

pub mod controller_flag;
pub mod labels;

use crate::results::Finding;
use crate::yaml::Edit;

/// One edit of one input item: `edit`'s path starts at the item's root.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemEdit {
    /// The item's position in the input (as in [`crate::model::Index::objects`]).
    pub item: usize,
    pub edit: Edit,
}

/// What a transformation returns.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub edits: Vec<ItemEdit>,
    pub findings: Vec<Finding>,
}
