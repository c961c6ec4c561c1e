//! Edits performed on the original text as byte-range replacements, spliced in one pass.
//!
//! [`apply`] resolves every edit first: scalar and value replacements become splices at once;
//! all `AddEntries` / `RemoveEntry` (and `SetValue` of a new key) aimed at one mapping are
//! gathered into one map edit whose splices never overlap, all `AppendItem` aimed at one
//! sequence into one append. Then the splices are checked (no anchor that an alias still uses
//! is removed) and spliced into the text.
//!
//! The parts, each using only those listed before it:
//! - `error`: [`EditError`];
//! - `path`: from the node an edit is applied with to the node it edits;
//! - `splice`: the splices, their checks, the one pass that makes the output ([`Applied`]);
//! - `layout`: the text being edited (`Cx`) and where things are in it (entries, properties,
//!   the indentation step);
//! - `slot`: writing a value in place of a node (scalars, entry values, sequence items);
//! - `map`: the edits of mappings (entries added, removed, set);
//! - `seq`: the edits of sequences (items appended);
//!
//! (`slot`, `map` and `seq` add their methods to `Cx`), and this module, which says what each
//! [`Edit`] is and hands it to its part. The text of new values comes from the YAML emitter
//! (`crate::yaml::emit`).

mod error;
mod layout;
mod map;
mod path;
mod seq;
mod slot;
mod splice;

pub use crate::yaml::emit::WriteStyle;
pub use error::EditError;
pub use splice::{Applied, Change};

use crate::yaml::tree::{Node, Seg};
use layout::Cx;
use map::Groups;
use seq::Appends;

/// One change to the text, addressed by a path relative to the node it is applied with.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Replace the scalar at `path` by `value`, written in `style` (Keep = the node's current
    /// style when the value can be written in it safely, else double-quoted; DoubleQuoted).
    /// Anchors and tags in front of the scalar are kept (aliases of it then read the new value).
    SetScalar {
        /// Where the scalar is.
        path: Vec<Seg>,
        /// The new string value.
        value: String,
        /// How to write it.
        style: WriteStyle,
    },
    /// Append `key: "value"` entries (keys plain when safe, else double-quoted; values
    /// double-quoted and escaped) to the mapping at `path`.
    /// If the mapping at `path` is missing, `null`, empty, or an empty flow map `{}`, it is
    /// (re)written as a BLOCK mapping (in flow style when it sits inside a flow collection):
    /// when missing, as the LAST key of its parent mapping (the parent must exist; path =
    /// parent path + key). Existing entries keep their place; new ones go after the last
    /// existing entry, at its indentation. A non-empty flow mapping: append inside the braces
    /// in flow style (`{a: "1", b: "2"}`). A key that already exists is an error, and so is a
    /// key the mapping's merge key (`<<`) supplies. An anchor in front of a rewritten empty
    /// value is kept (`key: &a {}` becomes `key: &a` + the block), so are tags of a `{}`.
    /// Several `AddEntries` on the same mapping in one [`apply`] are merged, in order.
    AddEntries {
        /// Where the mapping is (or is to be created).
        path: Vec<Seg>,
        /// The entries to add, in order.
        entries: Vec<(String, String)>,
    },
    /// Remove the entry `key` of the mapping at `path` (the whole line(s) of that entry,
    /// including a trailing comment on its line; in a flow mapping the entry and its comma).
    /// When every entry of the mapping is removed and nothing is added, the value becomes `{}`
    /// on the line of its key (`key: {}`). A missing key is an error; so is a key that only
    /// comes from a merge key (`<<`), and a key that the merge would supply once removed.
    RemoveEntry {
        /// Where the mapping is.
        path: Vec<Seg>,
        /// The key to remove.
        key: String,
    },
    /// Set key `key` of the mapping at `path` to a value given as YAML text (one document,
    /// block style, written at indent 0, possibly multi-line); it is re-indented here (inside a
    /// flow collection it is written as flow YAML, comments dropped). Replaces the existing
    /// value if the key exists, else appends the key as the last key of that mapping. A `null`
    /// or `{}` mapping at `path` is rewritten as a block mapping holding the key. The YAML may
    /// not define anchors. An anchor in front of the replaced value is kept, a tag only when
    /// old and new value are both mappings or both sequences.
    SetValue {
        /// Where the mapping is.
        path: Vec<Seg>,
        /// The key to set.
        key: String,
        /// The value, as YAML text.
        yaml: String,
    },
    /// Append the string `value` as the last item of the sequence at `path`, written in
    /// `style` (Keep = like the sequence's last item, see [`WriteStyle::Keep`]; DoubleQuoted).
    /// Only the new item's text is inserted:
    /// - a block sequence gets a `- value` line right after its last item (after the comment
    ///   on the last item's last line, after the kept lines of a `|+` item), at the column of
    ///   its dashes (so both `- ` at the parent key's indentation and indented dashes are
    ///   kept); comments and blank lines after the sequence stay after it;
    /// - a flow sequence gets `, value` after its last item; when the last item stands on a
    ///   line of its own, the new item goes on a new line at its indentation (after the
    ///   comment on that line), with a trailing comma when the last item has one; an empty
    ///   `[]` becomes `[value]`.
    ///
    /// The node at `path` must be a sequence: a missing key, `null` or an empty value is an
    /// error (NotFound, WrongKind). The edit never creates the list: to write one where there
    /// is none, use [`Edit::SetValue`] on the mapping that holds it (key `args`, YAML
    /// `- value`), which adds the key, or replaces a `null`. Several `AppendItem` on one
    /// sequence in one [`apply`] are appended in order.
    AppendItem {
        /// Where the sequence is.
        path: Vec<Seg>,
        /// The new item's string value.
        value: String,
        /// How to write it.
        style: WriteStyle,
    },
}

/// Applies `edits` to `text`, each path relative to the node paired with it (a node of a
/// document parsed from this very `text`). All edits are performed or none: the first error is
/// returned and the text is not changed.
///
/// Edits aimed at one mapping are performed together, whatever node their paths start from:
/// its removals first, then its additions in order (so a key removed and added again ends up
/// last, with its new value). Removing one entry twice, or setting and removing one key, is an
/// [`EditError::Overlap`]. An edit that would remove an anchor (`&name`) that an alias outside
/// the removed text still uses is refused.
///
/// Inserted text uses the text's own line break (the first one in it: CRLF, LF or a lone CR),
/// and a final line break is added if an insertion lands at the end of a text that lacked one.
pub fn apply(text: &str, edits: &[(&Node, Edit)]) -> Result<String, EditError> {
    apply_mapped(text, edits).map(|applied| applied.text)
}

/// [`apply`], also saying where the text changed (for checks that re-read only those parts).
pub fn apply_mapped(text: &str, edits: &[(&Node, Edit)]) -> Result<Applied, EditError> {
    let edits: Vec<(&Node, &Edit)> = edits.iter().map(|(n, e)| (*n, e)).collect();
    apply_borrowed(text, &edits)
}

/// [`apply_mapped`] with the edits borrowed, for a caller that keeps them.
pub fn apply_borrowed(text: &str, edits: &[(&Node, &Edit)]) -> Result<Applied, EditError> {
    let mut cx = Cx::new(text);
    let mut groups = Groups::default();
    let mut appends = Appends::default();
    for (root, edit) in edits {
        if text.get(root.span.clone()).is_none() {
            return Err(EditError::Unsupported {
                path: ".".into(),
                reason: "the node's position is not in this text (was it parsed from it?)".into(),
            });
        }
        collect(&mut cx, root, edit, &mut groups, &mut appends)?;
    }
    cx.perform(groups)?;
    cx.perform_appends(appends)?;
    let mut splices = cx.splices;
    splices.check_targets()?;
    splices.check_anchors(text)?;
    splices.splice(text)
}

/// Resolves one edit: replacements become splices now, map and sequence edits are gathered.
fn collect<'n>(
    cx: &mut Cx<'_>,
    root: &'n Node,
    edit: &'n Edit,
    groups: &mut Groups<'n>,
    appends: &mut Appends<'n>,
) -> Result<(), EditError> {
    match edit {
        Edit::SetScalar { path, value, style } => cx.set_scalar_at(root, path, value, *style),
        Edit::RemoveEntry { path, key } => groups.remove_entry(root, path, key),
        Edit::AddEntries { path, entries } => groups.add_entries(root, path, entries),
        Edit::SetValue { path, key, yaml } => cx.set_value(root, path, key, yaml, groups),
        Edit::AppendItem { path, value, style } => appends.append_item(root, path, value, *style),
    }
}
