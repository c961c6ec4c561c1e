//! An edit of one input item: what every transformation returns and the run applies. A leaf
//! below the transformations (and their parts, such as allocation), so that each of them can
//! make edits without knowing the others.

use crate::model::ItemId;
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
