//! Edits performed on the original text as byte-range replacements, spliced in one pass.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use super::edit_util::{
    NewValue, entries_value, entry_line, find_step, indent_lines, indent_rest, new_value_from_yaml,
    not_found, parent_slot, resolve, unsupported_empty, wrap_in_key, wrong,
};
use super::scalar::{
    double_quote, plain_safe, plain_type, single_quote, single_quote_safe, string_scalar,
};
use super::text::{at_line_start, column, line_end, line_start, next_line_start};
use super::tree::{Mapping, Node, NodeKind, ScalarStyle, Seg, path_to_string};

/// How [`Edit::SetScalar`] writes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteStyle {
    /// The node's current style when the value can be written in it safely (plain: only if the
    /// value reads back as the same text and the same core-schema type as the old value;
    /// single-quoted: one printable line), else double-quoted. Block scalars become double-quoted.
    Keep,
    /// Always double-quoted (escaped).
    DoubleQuoted,
}

/// One change to the text, addressed by a path relative to the node it is applied with.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Replace the scalar at `path` by `value`, written in `style` (Keep = the node's current
    /// style when the value can be written in it safely, else double-quoted; DoubleQuoted).
    /// Anchors and tags in front of the scalar are kept.
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
    /// in flow style (`{a: "1", b: "2"}`). A key that already exists is an error.
    /// Several `AddEntries` on the same mapping in one [`apply`] are merged, in order.
    AddEntries {
        /// Where the mapping is (or is to be created).
        path: Vec<Seg>,
        /// The entries to add, in order.
        entries: Vec<(String, String)>,
    },
    /// Remove the entry `key` of the mapping at `path` (the whole line(s) of that entry,
    /// including a trailing comment on its line; if it was the only entry of a block mapping,
    /// `{}` is left as the value). A missing key is an error.
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
    /// or `{}` mapping at `path` is rewritten as a block mapping holding the key.
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
    /// An added key already exists in the mapping (or is added twice).
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
    /// Two edits change overlapping text.
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
            | EditError::DuplicateKey { path, .. }
            | EditError::InvalidYaml { path, .. }
            | EditError::Unsupported { path, .. }
            | EditError::Overlap { path } => path,
        }
    }
}

/// One replacement of `text[start..end]`.
struct Splice {
    start: usize,
    end: usize,
    text: String,
    /// Among insertions at one offset, deeper (more indented) ones go first.
    depth: usize,
    order: usize,
    path: String,
}

/// Applies `edits` to `text`, each path relative to the node paired with it (a node of a
/// document parsed from this very `text`). All edits are performed or none: the first error is
/// returned and the text is not changed. The result copies the text's line ending (CRLF when
/// the text uses it) and gains a final newline if an insertion lands at the end of a text that
/// lacked one.
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
    pub changes: Vec<Change>,
}

impl Applied {
    /// The output position of original position `pos`. A change that inserts at `pos` (an
    /// empty range) is counted before it when `after_insertions`, else after it.
    pub fn map(&self, pos: usize, after_insertions: bool) -> usize {
        let mut shift: isize = 0;
        for c in &self.changes {
            let passed = if c.start == c.end && c.start == pos {
                after_insertions
            } else {
                c.end <= pos
            };
            if !passed {
                break;
            }
            shift += c.len as isize - (c.end - c.start) as isize;
        }
        pos.saturating_add_signed(shift)
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
    };
    // Merge AddEntries aimed at the same mapping.
    let mut merged: Vec<(&Node, Edit)> = Vec::with_capacity(edits.len());
    let mut add_index: HashMap<(usize, Vec<Seg>), usize> = HashMap::new();
    for (root, edit) in edits {
        if let Edit::AddEntries { path, entries } = edit {
            let id = (*root as *const Node as usize, path.clone());
            if let Some(&i) = add_index.get(&id) {
                if let Some((_, Edit::AddEntries { entries: e, .. })) = merged.get_mut(i) {
                    e.extend(entries.iter().cloned());
                }
                continue;
            }
            add_index.insert(id, merged.len());
        }
        merged.push((root, edit.clone()));
    }
    for (root, edit) in &merged {
        cx.edit(root, edit)?;
    }
    cx.splice()
}

struct Cx<'t> {
    text: &'t str,
    bytes: &'t [u8],
    splices: Vec<Splice>,
    steps: HashMap<usize, usize>,
    order: usize,
}

fn is_null_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Map(m) => m.entries.is_empty(),
        NodeKind::Scalar(_) => node.is_null(),
        _ => false,
    }
}

impl<'t> Cx<'t> {
    fn push(&mut self, start: usize, end: usize, text: String, depth: usize, path: &[Seg]) {
        self.order += 1;
        self.splices.push(Splice {
            start,
            end,
            text,
            depth,
            order: self.order,
            path: path_to_string(path),
        });
    }

    fn slice(&self, start: usize, end: usize) -> &'t str {
        self.text.get(start..end).unwrap_or("")
    }

    fn edit(&mut self, root: &Node, edit: &Edit) -> Result<(), EditError> {
        if self.text.get(root.span.clone()).is_none() {
            return Err(EditError::Unsupported {
                path: ".".into(),
                reason: "the node's position is not in this text (was it parsed from it?)".into(),
            });
        }
        match edit {
            Edit::SetScalar { path, value, style } => {
                let node = resolve(root, path)?;
                // an empty value written without `:` (`{a}`): the colon is added
                if node.span.is_empty()
                    && let (Some(parent), Some(Seg::Key(key))) = parent_slot(root, path)?
                    && let Some((k, _)) = parent
                        .as_map()
                        .and_then(|m| m.position(key).and_then(|i| m.entries.get(i)))
                    && self.colon_after(k).is_none()
                {
                    let NodeKind::Scalar(_) = &node.kind else {
                        return Err(wrong(path, "a scalar"));
                    };
                    let at = k.span.end;
                    self.push(at, at, format!(": {}", double_quote(value)), 0, path);
                    return Ok(());
                }
                self.set_scalar(node, value, *style, path)
            }
            Edit::RemoveEntry { path, key } => {
                let node = resolve(root, path)?;
                let NodeKind::Map(map) = &node.kind else {
                    return Err(wrong(path, "a mapping"));
                };
                self.remove_entry(map, key, path)
            }
            Edit::AddEntries { path, entries } => self.add_entries(root, path, entries),
            Edit::SetValue { path, key, yaml } => {
                let value = new_value_from_yaml(yaml, path)?;
                let node = resolve(root, path)?;
                match &node.kind {
                    NodeKind::Map(map) if !map.entries.is_empty() => {
                        let step = self.step(root);
                        self.write_entry(map, key, &value, step, path)
                    }
                    _ if is_null_like(node) => {
                        // rewrite the empty mapping as a block mapping holding `key`
                        let step = self.step(root);
                        let wrapped = wrap_in_key(key, &value, step);
                        let (parent, seg) = parent_slot(root, path)?;
                        self.write_slot(parent, seg, node, &wrapped, step, path)
                    }
                    _ => Err(wrong(path, "a mapping")),
                }
            }
        }
    }

    /// The indentation step seen in the document (first nested block mapping), default 2.
    fn step(&mut self, root: &Node) -> usize {
        let id = root as *const Node as usize;
        if let Some(&s) = self.steps.get(&id) {
            return s;
        }
        let mut budget = 2000usize;
        let s = find_step(self.text, root, &mut budget).unwrap_or(2);
        self.steps.insert(id, s);
        s
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
        let rendered = match (style, old.style) {
            (WriteStyle::Keep, ScalarStyle::Plain)
                if plain_safe(value)
                    && (old.tag.is_some() || plain_type(value) == plain_type(&old.value)) =>
            {
                value.to_owned()
            }
            (WriteStyle::Keep, ScalarStyle::SingleQuoted) if single_quote_safe(value) => {
                single_quote(value)
            }
            _ => double_quote(value),
        };
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
        self.push(start, end, text, 0, path);
        Ok(())
    }

    /// For a span ending at a line start (keep-chomped block scalar), the position of the line
    /// break before it, so replacing the span keeps that break.
    fn trim_kept(&self, start: usize, end: usize) -> usize {
        if end > start && at_line_start(self.bytes, end) {
            let mut e = end - 1;
            if e > start && self.bytes.get(e - 1) == Some(&b'\r') {
                e -= 1;
            }
            e
        } else {
            end
        }
    }

    fn remove_entry(&mut self, map: &Mapping, key: &str, path: &[Seg]) -> Result<(), EditError> {
        let Some(i) = map.position(key) else {
            let mut p = path.to_vec();
            p.push(Seg::Key(key.to_owned()));
            return Err(EditError::NotFound {
                path: path_to_string(&p),
            });
        };
        let n = map.entries.len();
        let Some((k, v)) = map.entries.get(i) else {
            return Err(not_found(path));
        };
        let next_key = map.entries.get(i + 1).map(|(k, _)| k.span.start);
        let prev_end = i
            .checked_sub(1)
            .and_then(|j| map.entries.get(j))
            .map(|(_, v)| v.span.end);
        if map.flow {
            let (s, e) = match (n, next_key, prev_end) {
                (1, _, _) => (k.span.start, v.span.end),
                (_, Some(nk), _) => (k.span.start, nk),
                (_, None, Some(pe)) => (pe, v.span.end),
                _ => (k.span.start, v.span.end),
            };
            self.push(s, e, String::new(), 0, path);
            return Ok(());
        }
        if let Some(j) = i.checked_sub(1)
            && let Some((_, pv)) = map.entries.get(j)
            && self.keeps_trailing_lines(pv)
        {
            // Blank lines after a `|+` / `>+` value belong to it: removing the next entry's
            // line would join them to it and change the value.
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: format!(
                    "removing {key:?}, which follows a block scalar that keeps its trailing lines (`|+`)"
                ),
            });
        }
        let v_end = self.trim_kept(v.span.start, v.span.end);
        if n == 1 {
            self.push(k.span.start, v_end, "{}".to_owned(), 0, path);
            return Ok(());
        }
        let ls = line_start(self.bytes, k.span.start);
        let leading = self
            .slice(ls, k.span.start)
            .bytes()
            .all(|b| b == b' ' || b == b'\t');
        let after_blank_line = self
            .slice(line_start(self.bytes, ls.saturating_sub(1)), ls)
            .trim()
            .is_empty();
        // Blank lines before the entry may belong to a keep-chomping block scalar (`|+`) in the
        // entry before: then they must keep their line break. Conservative: any `|`/`>` with `+`.
        let prev_start = i
            .checked_sub(1)
            .and_then(|j| map.entries.get(j))
            .map_or(ls, |(pk, _)| pk.span.start);
        let prev_text = self.slice(prev_start, ls);
        let may_keep =
            (prev_text.contains('|') || prev_text.contains('>')) && prev_text.contains('+');
        if leading && next_key.is_none() && ls > 0 && !(after_blank_line && may_keep) {
            // The last entry: remove from the line break before it to the end of its line, so
            // that entries appended at the end of the mapping (at that line end) do not overlap.
            let mut start = ls - 1;
            if start > 0 && self.bytes.get(start - 1) == Some(&b'\r') {
                start -= 1;
            }
            let end = line_end(self.bytes, v_end);
            self.push(start, end, String::new(), 0, path);
        } else if leading {
            let end = next_line_start(self.bytes, v_end);
            self.push(ls, end, String::new(), 0, path);
        } else if let Some(nk) = next_key {
            // first entry of a `- key: value` item: the next key moves onto the dash line
            self.push(k.span.start, nk, String::new(), 0, path);
        } else if let Some(pe) = prev_end {
            self.push(pe, v_end, String::new(), 0, path);
        }
        Ok(())
    }

    fn add_entries(
        &mut self,
        root: &Node,
        path: &[Seg],
        entries: &[(String, String)],
    ) -> Result<(), EditError> {
        let mut seen = HashSet::new();
        for (k, _) in entries {
            if !seen.insert(k.as_str()) {
                return Err(EditError::DuplicateKey {
                    path: path_to_string(path),
                    key: k.clone(),
                });
            }
        }
        if entries.is_empty() {
            return Ok(());
        }
        match resolve(root, path) {
            Ok(node) => match &node.kind {
                NodeKind::Map(map) if !map.entries.is_empty() => {
                    for (k, _) in entries {
                        if map.position(k).is_some() {
                            return Err(EditError::DuplicateKey {
                                path: path_to_string(path),
                                key: k.clone(),
                            });
                        }
                    }
                    if map.flow {
                        let mut text = String::new();
                        for (k, v) in entries {
                            text.push_str(", ");
                            text.push_str(&string_scalar(k));
                            text.push_str(": ");
                            text.push_str(&double_quote(v));
                        }
                        let at = map
                            .entries
                            .last()
                            .map_or(node.span.start + 1, |(_, v)| v.span.end);
                        self.push(at, at, text, 0, path);
                        Ok(())
                    } else {
                        let lines: Vec<String> = entries.iter().map(entry_line).collect();
                        self.append_block(map, &lines, path)
                    }
                }
                _ if is_null_like(node) => {
                    let value = entries_value(entries);
                    let step = self.step(root);
                    let (parent, seg) = parent_slot(root, path)?;
                    self.write_slot(parent, seg, node, &value, step, path)
                }
                _ => Err(wrong(path, "a mapping")),
            },
            Err(EditError::NotFound { .. }) => {
                let Some((Seg::Key(key), parent_path)) = path.split_last() else {
                    return Err(not_found(path));
                };
                let parent = resolve(root, parent_path).map_err(|_| not_found(path))?;
                let NodeKind::Map(map) = &parent.kind else {
                    return Err(wrong(parent_path, "a mapping"));
                };
                let step = self.step(root);
                let value = entries_value(entries);
                if map.entries.is_empty() {
                    let wrapped = wrap_in_key(key, &value, step);
                    let (pp, seg) = parent_slot(root, parent_path)?;
                    return self.write_slot(pp, seg, parent, &wrapped, step, path);
                }
                self.write_entry(map, key, &value, step, parent_path)
            }
            Err(e) => Err(e),
        }
    }

    /// Appends whole lines (`key: value`, indent 0, each possibly multi-line) after the last
    /// entry of a non-empty block mapping, at its entries' indentation.
    fn append_block(
        &mut self,
        map: &Mapping,
        lines: &[String],
        path: &[Seg],
    ) -> Result<(), EditError> {
        let Some((last_key, last_val)) = map.entries.last() else {
            return Err(wrong(path, "a non-empty mapping"));
        };
        if self.keeps_trailing_lines(last_val)
            && !self
                .slice(last_val.span.end, self.text.len())
                .contains('\n')
        {
            // A `|+` value on the last line without a newline: the newline an appended line
            // brings would become part of the value.
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "appending after a `|+` block scalar that ends the text without a newline"
                    .into(),
            });
        }
        let col = column(self.text, last_key.span.start);
        let end = last_val.span.end;
        let mut text = String::new();
        if end > last_val.span.start && at_line_start(self.bytes, end) {
            for l in lines {
                text.push_str(&indent_lines(l, col));
                text.push('\n');
            }
            self.push(end, end, text, col, path);
        } else {
            for l in lines {
                text.push('\n');
                text.push_str(&indent_lines(l, col));
            }
            let at = line_end(self.bytes, end);
            self.push(at, at, text, col, path);
        }
        Ok(())
    }

    /// Sets `key` in the non-empty mapping `map` to `value`: replaces the value of an existing
    /// entry, else appends the entry.
    fn write_entry(
        &mut self,
        map: &Mapping,
        key: &str,
        value: &NewValue,
        step: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let mut key_path = path.to_vec();
        key_path.push(Seg::Key(key.to_owned()));
        if let Some(i) = map.position(key) {
            let Some((k, v)) = map.entries.get(i) else {
                return Err(not_found(&key_path));
            };
            if matches!(v.kind, NodeKind::Alias(_)) {
                return Err(EditError::Alias {
                    path: path_to_string(&key_path),
                });
            }
            return self.write_map_value(map.flow, k, v, value, step, &key_path);
        }
        if map.flow {
            let entry = format!("{}: {}", string_scalar(key), value.flow);
            let at = map.entries.last().map_or(0, |(_, v)| v.span.end);
            self.push(at, at, format!(", {entry}"), 0, &key_path);
            return Ok(());
        }
        let line = match &value.inline {
            Some(inline) => format!("{}: {inline}", string_scalar(key)),
            None => format!(
                "{}:\n{}",
                string_scalar(key),
                indent_lines(&value.block, step)
            ),
        };
        self.append_block(map, &[line], &key_path)
    }

    /// Writes `value` in place of the empty/null `node`, which sits in `parent` at `seg`.
    fn write_slot(
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
                let Some(i) = map.position(key) else {
                    return Err(not_found(path));
                };
                let Some((k, _)) = map.entries.get(i) else {
                    return Err(not_found(path));
                };
                self.write_map_value(map.flow, k, node, value, step, path)
            }
            (NodeKind::Seq(seq), Some(Seg::Index(_))) => {
                if seq.flow {
                    if node.span.is_empty() {
                        return Err(unsupported_empty(path));
                    }
                    self.push(node.span.start, node.span.end, value.flow.clone(), 0, path);
                    return Ok(());
                }
                let (s, e) = (
                    node.span.start,
                    self.trim_kept(node.span.start, node.span.end),
                );
                let prefix = if node.span.is_empty() { " " } else { "" };
                let col = column(self.text, s) + prefix.len();
                let text = match &value.inline {
                    Some(inline) => format!("{prefix}{inline}"),
                    None => format!("{prefix}{}", indent_rest(&value.block, col)),
                };
                self.push(s, e, text, 0, path);
                Ok(())
            }
            _ => Err(not_found(path)),
        }
    }

    /// Replaces the value `v` of the entry with key `k` of a mapping by `value`.
    fn write_map_value(
        &mut self,
        flow: bool,
        k: &Node,
        v: &Node,
        value: &NewValue,
        step: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let colon = self.colon_after(k).ok_or_else(|| EditError::Unsupported {
            path: path_to_string(path),
            reason: "no `:` after the key".into(),
        })?;
        if flow {
            if v.span.is_empty() {
                self.push(colon, colon, format!(" {}", value.flow), 0, path);
            } else {
                self.push(v.span.start, v.span.end, value.flow.clone(), 0, path);
            }
            return Ok(());
        }
        let (vs, ve) = (
            v.span.start.max(colon),
            self.trim_kept(v.span.start, v.span.end).max(colon),
        );
        let key_line_end = line_end(self.bytes, colon);
        let col = column(self.text, k.span.start);
        let same_line = vs <= key_line_end;
        match (&value.inline, same_line) {
            (Some(inline), true) => self.push(colon, ve, format!(" {inline}"), 0, path),
            (Some(inline), false) => {
                self.push(colon, colon, format!(" {inline}"), 0, path);
                self.push(key_line_end, ve, String::new(), 0, path);
            }
            (None, true) => {
                // keep what follows the old value on its line (a comment) on the key line
                let le = line_end(self.bytes, ve);
                let tail = self.slice(ve, le).to_owned();
                let text = format!("{tail}\n{}", indent_lines(&value.block, col + step));
                self.push(colon, le, text, 0, path);
            }
            (None, false) => {
                let text = format!("\n{}", indent_lines(&value.block, col + step));
                self.push(key_line_end, ve, text, 0, path);
            }
        }
        Ok(())
    }

    /// Whether `v` is a block scalar with keep chomping (`|+`, `>+`, `|2+`, ...).
    fn keeps_trailing_lines(&self, v: &Node) -> bool {
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

    /// The position just after the `:` that follows key `k`.
    fn colon_after(&self, k: &Node) -> Option<usize> {
        let mut i = k.span.end;
        while matches!(self.bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        (self.bytes.get(i) == Some(&b':')).then_some(i + 1)
    }

    fn splice(mut self) -> Result<Applied, EditError> {
        self.splices
            .sort_by_key(|s| (s.start, s.end, Reverse(s.depth), s.order));
        let crlf = self
            .text
            .find('\n')
            .is_some_and(|i| i > 0 && self.bytes.get(i - 1) == Some(&b'\r'));
        let extra: usize = self.splices.iter().map(|s| s.text.len()).sum();
        let mut out = String::with_capacity(self.text.len() + extra + extra / 8);
        let mut cursor = 0usize;
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
            if s.start < cursor {
                return Err(EditError::Overlap {
                    path: s.path.clone(),
                });
            }
            let Some(keep) = self.text.get(cursor..s.start) else {
                return Err(EditError::Overlap {
                    path: s.path.clone(),
                });
            };
            out.push_str(keep);
            let before = out.len();
            if crlf {
                out.push_str(&s.text.replace('\n', "\r\n"));
            } else {
                out.push_str(&s.text);
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
        if at_eof && !out.is_empty() && !out.ends_with('\n') {
            let eol = if crlf { "\r\n" } else { "\n" };
            out.push_str(eol);
            if let Some(last) = changes.last_mut() {
                last.len += eol.len();
            }
        }
        Ok(Applied { text: out, changes })
    }
}
