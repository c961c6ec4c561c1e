//! Edits performed on the original text as byte-range replacements, spliced in one pass.
//!
//! [`apply`] resolves every edit first: scalar and value replacements become splices at once;
//! all `AddEntries` / `RemoveEntry` (and `SetValue` of a new key) aimed at one mapping are
//! gathered into one map edit (see `map_edit`) whose splices never overlap. Then the splices
//! are checked (no anchor that an alias still uses is removed) and spliced into the text.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use super::edit_util::{
    find_step, not_found, parent_slot, props_after, props_before, resolve, unsupported_empty, wrong,
};
pub use super::emit::WriteStyle;
use super::emit::{NewValue, ValueKind, indent_lines, indent_rest, scalar_replacing};
use super::map_edit::Groups;
use super::parse::colon_after_key;
use super::text::{at_line_start, break_before, column, line_break_of, line_end};
use super::tree::{Node, NodeKind, ScalarStyle, Seg, path_to_string};

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
}

/// Why a set of edits could not be applied (nothing is applied then).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The path does not lead to a node.
    #[error("path {path}: not found")]
    NotFound {
        /// The path, e.g. `spec.items[3]`.
        path: String,
    },
    /// The node at the path is not of the kind the edit needs.
    #[error("path {path}: expected {expected}")]
    WrongKind {
        /// The path.
        path: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// The path reaches or crosses an alias (`*name`); edits through aliases are refused.
    #[error("path {path}: goes through an alias; edit the anchored node instead")]
    Alias {
        /// The path.
        path: String,
    },
    /// The path reaches a key that only comes from a merge key (`<<: *anchor`), i.e. from
    /// another (anchored) mapping; edits inside merged-in nodes are refused.
    #[error(
        "path {path}: comes from a merge key (`<<`) of an alias; edit the anchored node instead"
    )]
    Merged {
        /// The path.
        path: String,
    },
    /// An added key already exists in the mapping (or is added twice, or the mapping's merge
    /// key `<<` supplies it).
    #[error("path {path}: key {key:?} already exists")]
    DuplicateKey {
        /// The mapping's path.
        path: String,
        /// The key.
        key: String,
    },
    /// The YAML text of a [`Edit::SetValue`] is not one valid document.
    #[error("path {path}: invalid YAML value: {message}")]
    InvalidYaml {
        /// The mapping's path.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// A form this layer cannot edit safely (e.g. an empty value inside a flow collection).
    #[error("path {path}: cannot edit here: {reason}")]
    Unsupported {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// Two edits change overlapping text (or remove the same entry twice, or set and remove
    /// one key).
    #[error("path {path}: overlaps another edit")]
    Overlap {
        /// The path of one of the edits.
        path: String,
    },
}

impl EditError {
    /// The path the error is about, e.g. `spec.preAllocations`.
    pub fn path(&self) -> &str {
        match self {
            EditError::NotFound { path }
            | EditError::WrongKind { path, .. }
            | EditError::Alias { path }
            | EditError::Merged { path }
            | EditError::DuplicateKey { path, .. }
            | EditError::InvalidYaml { path, .. }
            | EditError::Unsupported { path, .. }
            | EditError::Overlap { path } => path,
        }
    }
}

/// One replacement of `text[start..end]`.
pub(super) struct Splice {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) text: String,
    /// Among insertions at one offset, the ones that write a node's own value go first (they
    /// belong to the text before), then deeper (more indented) ones.
    node: bool,
    depth: usize,
    order: usize,
    pub(super) path: String,
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

/// Where [`apply_mapped`] changed the text: `text[start..end]` of the original was replaced by
/// `len` bytes of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// Start of the replaced range, in the original text.
    pub start: usize,
    /// End of the replaced range, in the original text.
    pub end: usize,
    /// Length of the replacement, in the output.
    pub len: usize,
}

/// The output of [`apply_mapped`]: the new text and the changes that made it, in text order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The edited text.
    pub text: String,
    /// Every replaced range, sorted and disjoint (a final newline added at the end of the text
    /// is part of the last change).
    changes: Vec<Change>,
    /// `shifts[k]`: how far the first `k` changes move the text after them.
    shifts: Vec<isize>,
}

impl Applied {
    /// The edited `text` with the `changes` that made it (sorted and disjoint).
    pub fn new(text: String, changes: Vec<Change>) -> Applied {
        let mut shifts = Vec::with_capacity(changes.len() + 1);
        let mut shift: isize = 0;
        shifts.push(shift);
        for c in &changes {
            shift += c.len as isize - (c.end - c.start) as isize;
            shifts.push(shift);
        }
        Applied {
            text,
            changes,
            shifts,
        }
    }

    /// Every replaced range, sorted and disjoint.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The output position of original position `pos`. A change that inserts at `pos` (an
    /// empty range) is counted before it when `after_insertions`, else after it.
    pub fn map(&self, pos: usize, after_insertions: bool) -> usize {
        // The changes that lie before `pos` are a prefix (they are sorted and disjoint).
        let passed = self.changes.partition_point(|c| {
            if c.start == c.end && c.start == pos {
                after_insertions
            } else {
                c.end <= pos
            }
        });
        pos.saturating_add_signed(self.shifts.get(passed).copied().unwrap_or(0))
    }
}

/// [`apply`], also saying where the text changed (for checks that re-read only those parts).
pub fn apply_mapped(text: &str, edits: &[(&Node, Edit)]) -> Result<Applied, EditError> {
    let mut cx = Cx {
        text,
        bytes: text.as_bytes(),
        splices: Vec::new(),
        steps: HashMap::new(),
        order: 0,
        claims: HashSet::new(),
        targets: Vec::new(),
        destroyed: Vec::new(),
    };
    let mut groups = Groups::default();
    for (root, edit) in edits {
        if text.get(root.span.clone()).is_none() {
            return Err(EditError::Unsupported {
                path: ".".into(),
                reason: "the node's position is not in this text (was it parsed from it?)".into(),
            });
        }
        cx.collect(root, edit, &mut groups)?;
    }
    cx.perform(groups)?;
    cx.check_targets()?;
    cx.check_anchors()?;
    cx.splice()
}

pub(super) struct Cx<'t> {
    pub(super) text: &'t str,
    pub(super) bytes: &'t [u8],
    pub(super) splices: Vec<Splice>,
    steps: HashMap<usize, usize>,
    order: usize,
    /// The spans of the nodes whose value an edit writes (two edits of one empty node would
    /// both insert at one offset: an overlap all the same).
    claims: HashSet<(usize, usize)>,
    /// The spans of the nodes edits write into, with their paths.
    pub(super) targets: Vec<(std::ops::Range<usize>, String)>,
    /// The spans of the values that edits remove or replace.
    pub(super) destroyed: Vec<std::ops::Range<usize>>,
}

/// Whether `node` is an empty value a mapping can be written in: `null`, `~`, empty, `{}`.
pub(super) fn is_null_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Map(m) => m.entries.is_empty(),
        NodeKind::Scalar(_) => node.is_null(),
        _ => false,
    }
}

impl<'t> Cx<'t> {
    /// Adds a splice of a map edit (an insertion or removal of whole entries).
    pub(super) fn push(
        &mut self,
        start: usize,
        end: usize,
        text: String,
        depth: usize,
        path: &[Seg],
    ) {
        self.add(start, end, text, false, depth, path);
    }

    /// Adds a splice that writes a node's own value.
    fn push_node(&mut self, start: usize, end: usize, text: String, depth: usize, path: &[Seg]) {
        self.add(start, end, text, true, depth, path);
    }

    fn add(
        &mut self,
        start: usize,
        end: usize,
        text: String,
        node: bool,
        depth: usize,
        path: &[Seg],
    ) {
        self.order += 1;
        self.splices.push(Splice {
            start,
            end,
            text,
            node,
            depth,
            order: self.order,
            path: path_to_string(path),
        });
    }

    pub(super) fn slice(&self, start: usize, end: usize) -> &'t str {
        self.text.get(start..end).unwrap_or("")
    }

    /// Refuses edits that write into a node that another edit removes or replaces (those
    /// overlapping in the text are refused anyway; this catches an insertion right at the end
    /// of a removed or replaced value).
    fn check_targets(&mut self) -> Result<(), EditError> {
        if self.destroyed.is_empty() {
            return Ok(());
        }
        self.destroyed.sort_unstable_by_key(|r| r.start);
        // the largest end among the ranges starting at or before each one
        let mut reach = Vec::with_capacity(self.destroyed.len());
        let mut max_end = 0;
        for r in &self.destroyed {
            max_end = max_end.max(r.end);
            reach.push(max_end);
        }
        for (t, path) in &self.targets {
            let n = self.destroyed.partition_point(|r| r.start <= t.start);
            if n > 0 && reach.get(n - 1).is_some_and(|&end| end >= t.end) {
                return Err(EditError::Overlap { path: path.clone() });
            }
        }
        Ok(())
    }

    /// Records that an edit writes the value of the node spanning `span`; a second one is an
    /// overlap.
    fn claim(&mut self, span: &std::ops::Range<usize>, path: &[Seg]) -> Result<(), EditError> {
        if !self.claims.insert((span.start, span.end)) {
            return Err(EditError::Overlap {
                path: path_to_string(path),
            });
        }
        Ok(())
    }

    /// The indentation step seen in the document (first nested block mapping), default 2.
    pub(super) fn step(&mut self, root: &Node) -> usize {
        let id = root as *const Node as usize;
        if let Some(&s) = self.steps.get(&id) {
            return s;
        }
        let mut budget = 2000usize;
        let s = find_step(self.text, root, &mut budget).unwrap_or(2);
        self.steps.insert(id, s);
        s
    }

    /// Performs a [`Edit::SetScalar`].
    pub(super) fn set_scalar_at(
        &mut self,
        root: &Node,
        path: &[Seg],
        value: &str,
        style: WriteStyle,
    ) -> Result<(), EditError> {
        let node = resolve(root, path)?;
        self.claim(&node.span, path)?;
        self.targets.push((node.span.clone(), path_to_string(path)));
        // an empty value written without `:` (`{a}`, `? a`): the colon is added
        if node.span.is_empty()
            && let (Some(parent), Some(Seg::Key(key))) = parent_slot(root, path)?
            && let Some(map) = parent.as_map()
            && let Some((k, _)) = map.position(key).and_then(|i| map.entries.get(i))
            && colon_after_key(self.text, k.span.end).is_none()
        {
            let NodeKind::Scalar(old) = &node.kind else {
                return Err(wrong(path, "a scalar"));
            };
            let rendered = scalar_replacing(old, value, style);
            if map.flow {
                let at = k.span.end;
                self.push_node(at, at, format!(": {rendered}"), 0, path);
            } else {
                // a block `? key` alone: the value goes on a `:` line under the `?`
                let start = self.entry_start(k);
                let col = column(self.text, start);
                let at = line_end(self.bytes, k.span.end);
                let text = format!("\n{}: {rendered}", " ".repeat(col));
                self.push_node(at, at, text, 0, path);
            }
            return Ok(());
        }
        self.set_scalar(node, value, style, path)
    }

    fn set_scalar(
        &mut self,
        node: &Node,
        value: &str,
        style: WriteStyle,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let NodeKind::Scalar(old) = &node.kind else {
            return Err(wrong(path, "a scalar"));
        };
        let rendered = scalar_replacing(old, value, style);
        let span = node.span.clone();
        let mut text = String::new();
        if span.is_empty()
            && span.start > 0
            && !matches!(self.bytes.get(span.start - 1), Some(b' ' | b'\t'))
        {
            text.push(' ');
        }
        text.push_str(&rendered);
        let (start, end) = (span.start, self.trim_kept(span.start, span.end));
        self.push_node(start, end, text, 0, path);
        Ok(())
    }

    /// For a span ending at a line start (keep-chomped block scalar), the position of the line
    /// break before it, so replacing the span keeps that break.
    pub(super) fn trim_kept(&self, start: usize, end: usize) -> usize {
        if end > start && at_line_start(self.bytes, end) {
            break_before(self.bytes, end).map_or(end, |b| b.max(start))
        } else {
            end
        }
    }

    /// Where the entry with key `k` starts: the key, or the `?` of an explicit key, or the
    /// anchor / tag written in front of the key on its line.
    pub(super) fn entry_start(&self, k: &Node) -> usize {
        let bytes = self.bytes;
        let mut p = k.span.start;
        loop {
            let mut q = p;
            while q > 0 && matches!(bytes.get(q - 1), Some(b' ' | b'\t')) {
                q -= 1;
            }
            let mut t = q;
            while t > 0
                && !matches!(
                    bytes.get(t - 1),
                    Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'[')
                )
            {
                t -= 1;
            }
            let token = bytes.get(t..q).unwrap_or(&[]);
            match token.first() {
                Some(b'&' | b'!') if t < q => p = t,
                Some(b'?') if token.len() == 1 => return t,
                _ => return p,
            }
        }
    }

    /// Where the entry `(k, v)` ends: its value's end (before the kept line breaks of a `|+`
    /// value), or its key's end for an empty value.
    pub(super) fn entry_end(&self, k: &Node, v: &Node) -> usize {
        if v.span.is_empty() {
            v.span.end.max(k.span.end)
        } else {
            self.trim_kept(v.span.start, v.span.end).max(k.span.end)
        }
    }

    /// Replaces the value of the existing entry `key` (at `i`) of the non-empty mapping `map`.
    pub(super) fn replace_value(
        &mut self,
        map_flow: bool,
        k: &Node,
        v: &Node,
        value: &NewValue,
        step: usize,
        key_path: &[Seg],
    ) -> Result<(), EditError> {
        if matches!(v.kind, NodeKind::Alias(_)) {
            return Err(EditError::Alias {
                path: path_to_string(key_path),
            });
        }
        self.write_map_value(map_flow, k, v, value, step, key_path)
    }

    /// Writes `value` in place of the empty/null `node`, which sits in `parent` at `seg`.
    pub(super) fn write_slot(
        &mut self,
        parent: Option<&Node>,
        seg: Option<&Seg>,
        node: &Node,
        value: &NewValue,
        step: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let Some(parent) = parent else {
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "the document root is empty".into(),
            });
        };
        match (&parent.kind, seg) {
            (NodeKind::Map(map), Some(Seg::Key(key))) => {
                let Some((k, _)) = map.position(key).and_then(|i| map.entries.get(i)) else {
                    return Err(not_found(path));
                };
                self.write_map_value(map.flow, k, node, value, step, path)
            }
            (NodeKind::Seq(seq), Some(Seg::Index(_))) => {
                self.claim(&node.span, path)?;
                if seq.flow {
                    if node.span.is_empty() {
                        return Err(unsupported_empty(path));
                    }
                    self.push_node(node.span.start, node.span.end, value.flow.clone(), 0, path);
                    return Ok(());
                }
                let (s, e) = (
                    node.span.start,
                    self.trim_kept(node.span.start, node.span.end),
                );
                let props = props_before(self.text, s);
                let keep_tags = same_kind(node, value);
                let kept = kept_props(self.text, &props, keep_tags);
                let start = props.first().map_or(s, |r| r.start);
                let prefix = if start == s
                    && s > 0
                    && !matches!(self.bytes.get(s - 1), Some(b' ' | b'\t'))
                {
                    " "
                } else {
                    ""
                };
                let col = column(self.text, start) + prefix.len();
                let text = match (&value.inline, kept.is_empty()) {
                    (Some(inline), true) => format!("{prefix}{inline}"),
                    (Some(inline), false) => format!("{kept} {inline}"),
                    (None, true) => format!("{prefix}{}", indent_rest(&value.block, col)),
                    // properties in front of a compact mapping would belong to its first key:
                    // the block starts on the next line
                    (None, false) => format!("{kept}\n{}", indent_lines(&value.block, col)),
                };
                // a comment after the old value stays on the first line, not after the block
                let le = line_end(self.bytes, e);
                match text.split_once('\n') {
                    Some((first, rest)) if le > e => {
                        let tail = self.slice(e, le);
                        self.push_node(start, le, format!("{first}{tail}\n{rest}"), 0, path);
                    }
                    _ => self.push_node(start, e, text, 0, path),
                }
                Ok(())
            }
            _ => Err(not_found(path)),
        }
    }

    /// Replaces the value `v` of the entry with key `k` of a mapping by `value`, keeping the
    /// anchor in front of `v` (and its tag when the kind does not change).
    fn write_map_value(
        &mut self,
        flow: bool,
        k: &Node,
        v: &Node,
        value: &NewValue,
        step: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        self.claim(&v.span, path)?;
        let colon = colon_after_key(self.text, k.span.end)
            .map(|c| c + 1)
            .ok_or_else(|| EditError::Unsupported {
                path: path_to_string(path),
                reason: "no `:` after the key".into(),
            })?;
        let props = props_after(self.text, colon);
        let kept = kept_props(self.text, &props, same_kind(v, value));
        if kept.contains('&')
            && matches!(v.resolved().kind, NodeKind::Map(_))
            && value.kind != ValueKind::Map
        {
            // an anchored mapping may be merged elsewhere (`<<: *a`): it must stay a mapping
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "replacing an anchored mapping by a value that is not a mapping".into(),
            });
        }
        let props_text = if kept.is_empty() {
            String::new()
        } else {
            format!(" {kept}")
        };
        let props_end = props.last().map_or(colon, |r| r.end);
        if flow {
            let ve = v.span.end.max(props_end);
            self.push_node(colon, ve, format!("{props_text} {}", value.flow), 0, path);
            return Ok(());
        }
        let (vs, ve) = (
            v.span.start.max(colon),
            self.trim_kept(v.span.start, v.span.end).max(props_end),
        );
        let key_line_end = line_end(self.bytes, colon);
        let col = column(self.text, self.entry_start(k));
        let same_line = vs <= key_line_end;
        match (&value.inline, same_line) {
            (Some(inline), true) => {
                self.push_node(colon, ve, format!("{props_text} {inline}"), 0, path);
            }
            (Some(inline), false) => {
                self.push_node(colon, props_end, format!("{props_text} {inline}"), 0, path);
                self.push_node(key_line_end, ve, String::new(), 0, path);
            }
            (None, true) => {
                // keep what follows the old value on its line (a comment) on the key line
                let le = line_end(self.bytes, ve);
                let tail = self.slice(ve, le).to_owned();
                let text = format!(
                    "{props_text}{tail}\n{}",
                    indent_lines(&value.block, col + step)
                );
                self.push_node(colon, le, text, 0, path);
            }
            (None, false) => {
                self.push_node(colon, props_end, props_text, 0, path);
                let text = format!("\n{}", indent_lines(&value.block, col + step));
                // the comment after the old value's last line goes with it (after a new
                // block scalar it would become text)
                let le = line_end(self.bytes, ve);
                self.push_node(key_line_end, le, text, 0, path);
            }
        }
        Ok(())
    }

    /// Whether `v` is a block scalar with keep chomping (`|+`, `>+`, `|2+`, ...).
    pub(super) fn keeps_trailing_lines(&self, v: &Node) -> bool {
        match &v.kind {
            NodeKind::Scalar(sc)
                if matches!(sc.style, ScalarStyle::Literal | ScalarStyle::Folded) =>
            {
                let header_end = line_end(self.bytes, v.span.start);
                self.slice(v.span.start, header_end)
                    .split('#')
                    .next()
                    .is_some_and(|h| h.contains('+'))
            }
            _ => false,
        }
    }

    fn splice(mut self) -> Result<Applied, EditError> {
        self.splices
            .sort_by_key(|s| (s.start, s.end, !s.node, Reverse(s.depth), s.order));
        let brk = line_break_of(self.text);
        let extra: usize = self.splices.iter().map(|s| s.text.len()).sum();
        let mut out = String::with_capacity(self.text.len() + extra + extra / 8);
        let mut cursor = 0usize;
        let mut replaced_up_to = None;
        let mut at_eof = false;
        let mut changes = Vec::with_capacity(self.splices.len());
        for s in &self.splices {
            if s.end < s.start || self.text.get(s.start..s.end).is_none() {
                return Err(EditError::Unsupported {
                    path: s.path.clone(),
                    reason: "the node's position is not in this text (was it parsed from it?)"
                        .into(),
                });
            }
            // a node's value inserted right where a replaced or removed range ends: that range
            // held the node's key or indicator
            if s.start < cursor || (s.node && s.start == s.end && replaced_up_to == Some(s.start)) {
                return Err(EditError::Overlap {
                    path: s.path.clone(),
                });
            }
            if s.start < s.end {
                replaced_up_to = Some(s.end);
            }
            let Some(keep) = self.text.get(cursor..s.start) else {
                return Err(EditError::Overlap {
                    path: s.path.clone(),
                });
            };
            out.push_str(keep);
            let before = out.len();
            if brk == "\n" {
                out.push_str(&s.text);
            } else {
                out.push_str(&s.text.replace('\n', brk));
            }
            changes.push(Change {
                start: s.start,
                end: s.end,
                len: out.len() - before,
            });
            if s.end == self.text.len() && !s.text.is_empty() {
                at_eof = true;
            }
            cursor = s.end;
        }
        out.push_str(self.text.get(cursor..).unwrap_or(""));
        if at_eof && !out.is_empty() && !out.ends_with(['\n', '\r']) {
            out.push_str(brk);
            if let Some(last) = changes.last_mut() {
                last.len += brk.len();
            }
        }
        Ok(Applied::new(out, changes))
    }
}

/// Whether a tag in front of the old node still fits the new value: both are mappings or both
/// sequences (a scalar's tag decides how its text reads, so a new scalar drops it).
fn same_kind(old: &Node, new: &NewValue) -> bool {
    let old_kind = match &old.resolved().kind {
        NodeKind::Map(_) => ValueKind::Map,
        NodeKind::Seq(_) => ValueKind::Seq,
        _ => ValueKind::Scalar,
    };
    old_kind == new.kind && new.kind != ValueKind::Scalar
}

/// The properties (`&anchor`, `!tag`) at `props` to write again: anchors always, tags when
/// `keep_tags`; joined by a space.
fn kept_props(text: &str, props: &[std::ops::Range<usize>], keep_tags: bool) -> String {
    props
        .iter()
        .filter_map(|r| text.get(r.clone()))
        .filter(|p| keep_tags || p.starts_with('&'))
        .collect::<Vec<_>>()
        .join(" ")
}
