//! Map edits: every `AddEntries` / `RemoveEntry` (and `SetValue` of a new key) aimed at one
//! mapping is gathered into one group ([`Groups`]), performed together as removals plus appends
//! whose splices never overlap. `SetValue` of an existing key replaces its value at once.

use crate::{FastMap, FastSet};

use super::error::{EditError, duplicate, not_found, wrong};
use super::layout::{Cx, props_after};
use super::path::{is_null_like, key_path, parent_slot, resolve};
use crate::yaml::emit::{NewValue, entry, flow_entry, indent_lines, indent_rest};
use crate::yaml::parse::colon_after_key;
use crate::yaml::text::{
    at_line_start, break_before, column, has_break_after, line_end, line_start, next_line_start,
};
use crate::yaml::tree::{Mapping, Node, NodeKind, Seg, path_to_string};

/// A value to add under a new key.
enum AddValue<'n> {
    /// A string, written double-quoted (`AddEntries`).
    Str(&'n str),
    /// A new mapping of strings (`AddEntries` at a path whose last key is missing), borrowed
    /// from the edits.
    Entries(Vec<&'n (String, String)>),
    /// A value given as YAML (`SetValue` of a key the mapping does not have).
    Yaml(NewValue),
}

/// Everything aimed at one mapping (or at one empty value that becomes a mapping).
struct Group<'n> {
    node: &'n Node,
    root: &'n Node,
    path: Vec<Seg>,
    removals: Vec<String>,
    additions: Vec<(String, AddValue<'n>)>,
}

/// The map edits of one [`super::apply`], by target mapping.
#[derive(Default)]
pub(super) struct Groups<'n> {
    list: Vec<Group<'n>>,
    by_node: FastMap<usize, usize>,
}

impl<'n> Groups<'n> {
    fn get(&mut self, root: &'n Node, path: &[Seg], node: &'n Node) -> &mut Group<'n> {
        let id = node as *const Node as usize;
        let i = *self.by_node.entry(id).or_insert_with(|| {
            self.list.push(Group {
                node,
                root,
                path: path.to_vec(),
                removals: Vec::new(),
                additions: Vec::new(),
            });
            self.list.len() - 1
        });
        let last = self.list.len() - 1;
        // `i` is always a valid index: it was pushed when first seen
        &mut self.list[i.min(last)]
    }

    /// Gathers a [`super::Edit::RemoveEntry`].
    pub(super) fn remove_entry(
        &mut self,
        root: &'n Node,
        path: &[Seg],
        key: &str,
    ) -> Result<(), EditError> {
        let node = resolve(root, path)?;
        let NodeKind::Map(map) = &node.kind else {
            return Err(wrong(path, "a mapping"));
        };
        if map.position(key).is_none() {
            let p = key_path(path, key);
            return Err(if map.merged(key).is_some() {
                EditError::Merged {
                    path: path_to_string(&p),
                }
            } else {
                not_found(&p)
            });
        }
        self.get(root, path, node).removals.push(key.to_owned());
        Ok(())
    }

    /// Gathers a [`super::Edit::AddEntries`].
    pub(super) fn add_entries(
        &mut self,
        root: &'n Node,
        path: &[Seg],
        entries: &'n [(String, String)],
    ) -> Result<(), EditError> {
        let mut seen = FastSet::with_capacity_and_hasher(entries.len(), Default::default());
        if let Some((k, _)) = entries.iter().find(|(k, _)| !seen.insert(k.as_str())) {
            return Err(EditError::DuplicateKey {
                path: path_to_string(path),
                key: k.clone(),
            });
        }
        if entries.is_empty() {
            return Ok(());
        }
        match resolve(root, path) {
            Ok(node) => {
                if node.as_map().is_none() && !is_null_like(node) {
                    return Err(wrong(path, "a mapping"));
                }
                let group = self.get(root, path, node);
                for (k, v) in entries {
                    group.additions.push((k.clone(), AddValue::Str(v)));
                }
                Ok(())
            }
            Err(EditError::NotFound { .. }) => {
                let Some((Seg::Key(key), parent_path)) = path.split_last() else {
                    return Err(not_found(path));
                };
                let parent = resolve(root, parent_path).map_err(|_| not_found(path))?;
                if !matches!(parent.kind, NodeKind::Map(_)) {
                    return Err(wrong(parent_path, "a mapping"));
                }
                let group = self.get(root, parent_path, parent);
                // several AddEntries at one missing mapping fill one new mapping
                let existing = group.additions.iter_mut().find_map(|(k, v)| match v {
                    AddValue::Entries(list) if k == key => Some(list),
                    _ => None,
                });
                match existing {
                    Some(list) => list.extend(entries),
                    None => group
                        .additions
                        .push((key.clone(), AddValue::Entries(entries.iter().collect()))),
                }
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

/// The value an addition writes under its new key.
fn addition_value(value: &AddValue) -> NewValue {
    match value {
        AddValue::Str(v) => NewValue::string(v),
        AddValue::Entries(entries) => NewValue::entries(entries.iter().copied()),
        AddValue::Yaml(v) => v.clone(),
    }
}

impl Cx<'_> {
    /// Performs a [`super::Edit::SetValue`] of an existing key at once; gathers one of a new key.
    pub(super) fn set_value<'n>(
        &mut self,
        root: &'n Node,
        path: &[Seg],
        key: &str,
        yaml: &str,
        groups: &mut Groups<'n>,
    ) -> Result<(), EditError> {
        let value = NewValue::from_yaml(yaml).map_err(|message| EditError::InvalidYaml {
            path: path_to_string(path),
            message,
        })?;
        let node = resolve(root, path)?;
        match &node.kind {
            NodeKind::Map(map) if map.position(key).is_some() => {
                let Some((k, v)) = map.position(key).and_then(|i| map.entries.get(i)) else {
                    return Err(not_found(&key_path(path, key)));
                };
                let step = self.step(root);
                self.splices.target(node.span.clone(), path_to_string(path));
                self.splices.destroy(v.span.clone());
                self.replace_value(map.flow, k, v, &value, step, &key_path(path, key))
            }
            NodeKind::Map(map) if map.merged(key).is_some() => Err(EditError::Merged {
                path: path_to_string(&key_path(path, key)),
            }),
            _ if node.as_map().is_some() || is_null_like(node) => {
                groups
                    .get(root, path, node)
                    .additions
                    .push((key.to_owned(), AddValue::Yaml(value)));
                Ok(())
            }
            _ => Err(wrong(path, "a mapping")),
        }
    }

    /// Performs the gathered map edits.
    pub(super) fn perform(&mut self, groups: Groups<'_>) -> Result<(), EditError> {
        for group in groups.list {
            self.map_edit(&group)?;
        }
        Ok(())
    }

    fn map_edit(&mut self, g: &Group<'_>) -> Result<(), EditError> {
        let path = g.path.as_slice();
        self.splices
            .target(g.node.span.clone(), path_to_string(path));
        let step = self.step(g.root);
        let mut added = FastSet::default();
        let mut additions: Vec<(String, NewValue)> = Vec::with_capacity(g.additions.len());
        for (k, v) in &g.additions {
            if !added.insert(k.as_str()) {
                return Err(duplicate(path, k));
            }
            if let AddValue::Entries(list) = v {
                let mut seen = FastSet::default();
                if let Some((dup, _)) = list.iter().find(|(e, _)| !seen.insert(e.as_str())) {
                    return Err(duplicate(&key_path(path, k), dup));
                }
            }
            additions.push((k.clone(), addition_value(v)));
        }
        let map = match &g.node.kind {
            NodeKind::Map(map) if !map.entries.is_empty() => map,
            _ if is_null_like(g.node) => {
                if let Some(key) = g.removals.first() {
                    return Err(not_found(&key_path(path, key)));
                }
                if additions.is_empty() {
                    return Ok(());
                }
                let value = NewValue::map(&additions, step);
                let (parent, seg) = parent_slot(g.root, path)?;
                return self.write_slot(parent, seg, g.node, &value, step, path);
            }
            _ => return Err(wrong(path, "a mapping")),
        };
        let mut removed = vec![false; map.entries.len()];
        for key in &g.removals {
            let Some(i) = map.position(key) else {
                return Err(not_found(&key_path(path, key)));
            };
            if removed.get(i).copied().unwrap_or(true) {
                return Err(EditError::Overlap {
                    path: path_to_string(&key_path(path, key)),
                });
            }
            if map.merged(key).is_some() {
                return Err(EditError::Unsupported {
                    path: path_to_string(&key_path(path, key)),
                    reason: "the mapping's merge key `<<` supplies this key too: removing it \
                             would read the merged value"
                        .into(),
                });
            }
            removed[i] = true;
            if let Some((_, v)) = map.entries.get(i) {
                self.splices.destroy(v.span.clone());
            }
        }
        for (k, _) in &additions {
            let own = map.position(k).is_some_and(|i| !removed[i]);
            if own || map.merged(k).is_some() {
                return Err(duplicate(path, k));
            }
        }
        if map.flow {
            self.flow_map_edit(g.node, map, &removed, &additions, path)
        } else {
            let lines: Vec<String> = additions.iter().map(|(k, v)| entry(k, v, step)).collect();
            self.block_map_edit(g, map, &removed, &lines, path)
        }
    }

    fn flow_map_edit(
        &mut self,
        node: &Node,
        map: &Mapping,
        removed: &[bool],
        additions: &[(String, NewValue)],
        path: &[Seg],
    ) -> Result<(), EditError> {
        let (open, close) = (node.span.start, node.span.end.saturating_sub(1));
        if self.bytes.get(open) != Some(&b'{') || self.bytes.get(close) != Some(&b'}') {
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "a single-pair mapping inside a flow sequence (`[a: 1]`)".into(),
            });
        }
        let texts: Vec<String> = additions
            .iter()
            .map(|(k, v)| flow_entry(k, &v.flow()))
            .collect();
        let n = map.entries.len();
        let ext: Vec<(usize, usize)> = map
            .entries
            .iter()
            .map(|(k, v)| (self.entry_start(k), self.entry_end(k, v)))
            .collect();
        let Some(last_kept) = (0..n).rev().find(|&i| !removed[i]) else {
            self.splices
                .push(open + 1, close, texts.join(", "), 0, path);
            return Ok(());
        };
        let mut i = 0;
        let mut tail_removed = None;
        while i < n {
            if !removed[i] {
                i += 1;
                continue;
            }
            let a = i;
            while i < n && removed[i] {
                i += 1;
            }
            let b = i - 1;
            match ext.get(i) {
                Some(&(next_start, _)) => {
                    let start = ext.get(a).map_or(next_start, |e| e.0);
                    self.splices.push(start, next_start, String::new(), 0, path);
                }
                None => {
                    let from = ext.get(a.saturating_sub(1)).map_or(open + 1, |e| e.1);
                    let to = ext.get(b).map_or(from, |e| e.1);
                    tail_removed = Some((from, to));
                }
            }
        }
        let added: String = texts.iter().map(|t| format!(", {t}")).collect();
        match tail_removed {
            Some((from, to)) => self.splices.push(from, to, added, 0, path),
            None if !added.is_empty() => {
                let at = ext.get(last_kept).map_or(open + 1, |e| e.1);
                self.splices.push(at, at, added, 0, path);
            }
            None => {}
        }
        Ok(())
    }

    fn block_map_edit(
        &mut self,
        g: &Group<'_>,
        map: &Mapping,
        removed: &[bool],
        lines: &[String],
        path: &[Seg],
    ) -> Result<(), EditError> {
        let n = map.entries.len();
        let ext: Vec<(usize, usize)> = map
            .entries
            .iter()
            .map(|(k, v)| (self.entry_start(k), self.entry_end(k, v)))
            .collect();
        let (Some(&(first_start, _)), Some(&(last_start, last_end))) = (ext.first(), ext.last())
        else {
            return Err(wrong(path, "a non-empty mapping"));
        };
        let col = column(self.text, first_start);
        let leading = |cx: &Self, s: usize| {
            cx.slice(line_start(cx.bytes, s), s)
                .bytes()
                .all(|b| b == b' ' || b == b'\t')
        };
        if removed.iter().all(|&r| r) {
            let end = line_end(self.bytes, last_end);
            let first_leading = leading(self, first_start);
            if !lines.is_empty() {
                // a clean block mapping of the new entries in place of the old ones
                let block = lines.join("\n");
                if first_leading {
                    let ls = line_start(self.bytes, first_start);
                    self.splices
                        .push(ls, end, indent_lines(&block, col), col, path);
                } else {
                    self.splices
                        .push(first_start, end, indent_rest(&block, col), col, path);
                }
                return Ok(());
            }
            // nothing left: `{}`, on the line of the key (or dash) when the mapping starts on
            // a line of its own
            match self.value_slot(g).filter(|_| first_leading) {
                Some(slot) if slot < line_start(self.bytes, first_start) => {
                    self.splices.push(slot, slot, " {}".into(), 0, path);
                    let from = line_end(self.bytes, slot);
                    self.splices.push(from, end, String::new(), 0, path);
                }
                _ => self.splices.push(first_start, end, "{}".into(), 0, path),
            }
            return Ok(());
        }
        // Blank lines after a `|+` / `>+` value belong to it: removing the entry after it
        // would join them to whatever follows and change the value.
        for i in 1..n {
            if removed[i]
                && !removed[i - 1]
                && let Some((_, v)) = map.entries.get(i - 1)
                && self.ends_with_kept_lines(v)
            {
                let key = map
                    .entries
                    .get(i)
                    .map_or("", |(k, _)| self.slice(k.span.start, k.span.end));
                return Err(EditError::Unsupported {
                    path: path_to_string(path),
                    reason: format!(
                        "removing {key:?}, which follows a block scalar that keeps its trailing lines (`|+`)"
                    ),
                });
            }
        }
        let mut regions: Vec<(usize, usize)> = Vec::new();
        for i in (0..n).filter(|&i| removed[i]) {
            let (s, t) = ext[i];
            if leading(self, s) {
                regions.push((line_start(self.bytes, s), next_line_start(self.bytes, t)));
            } else if let Some(&(next, _)) =
                (i + 1..n).find(|&j| !removed[j]).and_then(|j| ext.get(j))
            {
                // the first entry of a `- key: value` item: the next kept entry moves up
                regions.push((s, next));
            }
        }
        regions.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(regions.len());
        for (s, e) in regions {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let last_removed = removed[n - 1];
        let count = merged.len();
        for (idx, (s, e)) in merged.into_iter().enumerate() {
            if last_removed && idx + 1 == count {
                // The region of the last entry runs from the line break before it to the end of
                // its line, where entries appended to an enclosing mapping are inserted; the new
                // entries take its place.
                let start = break_before(self.bytes, s).unwrap_or(s);
                let end = line_end(self.bytes, last_end).min(e);
                let mut text = String::new();
                for l in lines {
                    if start < s {
                        text.push('\n');
                        text.push_str(&indent_lines(l, col));
                    } else {
                        text.push_str(&indent_lines(l, col));
                        text.push('\n');
                    }
                }
                self.splices.push(start, end, text, col, path);
            } else {
                self.splices.push(s, e, String::new(), col, path);
            }
        }
        if !last_removed && !lines.is_empty() {
            self.append_block(map, last_start, lines, path)?;
        }
        Ok(())
    }

    /// Appends whole lines (`key: value`, indent 0, each possibly multi-line) after the last
    /// entry (starting at `last_start`) of a non-empty block mapping, at its indentation.
    fn append_block(
        &mut self,
        map: &Mapping,
        last_start: usize,
        lines: &[String],
        path: &[Seg],
    ) -> Result<(), EditError> {
        let Some((_, last_val)) = map.entries.last() else {
            return Err(wrong(path, "a non-empty mapping"));
        };
        if self.ends_with_kept_lines(last_val) && !has_break_after(self.bytes, last_val.span.end) {
            // A `|+` value on the last line without a newline: the newline an appended line
            // brings would become part of the value.
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "appending after a `|+` block scalar that ends the text without a newline"
                    .into(),
            });
        }
        let col = column(self.text, last_start);
        let end = last_val.span.end;
        let mut text = String::new();
        if end > last_val.span.start && at_line_start(self.bytes, end) {
            for l in lines {
                text.push_str(&indent_lines(l, col));
                text.push('\n');
            }
            self.splices.push(end, end, text, col, path);
        } else {
            for l in lines {
                text.push('\n');
                text.push_str(&indent_lines(l, col));
            }
            let at = line_end(
                self.bytes,
                end.max(map.entries.last().map_or(end, |(k, _)| k.span.end)),
            );
            self.splices.push(at, at, text, col, path);
        }
        Ok(())
    }

    /// For the mapping of a group, the position after the indicator that introduces it (the
    /// `:` of its key, or the `-` of its sequence item) and the properties written after it on
    /// that line; `None` when it cannot be told (a document root).
    fn value_slot(&self, g: &Group<'_>) -> Option<usize> {
        let (parent, seg) = parent_slot(g.root, &g.path).ok()?;
        let parent = parent?;
        let indicator_end = match (&parent.kind, seg?) {
            (NodeKind::Map(m), Seg::Key(key)) => {
                let (k, _) = m.position(key).and_then(|i| m.entries.get(i))?;
                colon_after_key(self.text, k.span.end)? + 1
            }
            (NodeKind::Seq(s), Seg::Index(j)) if !s.flow => {
                let from = match j.checked_sub(1) {
                    None => parent.span.start,
                    Some(p) => s.items.get(p)?.span.end,
                };
                self.dash_after(from)? + 1
            }
            _ => return None,
        };
        let props = props_after(self.text, indicator_end);
        Some(props.last().map_or(indicator_end, |r| r.end))
    }
}
