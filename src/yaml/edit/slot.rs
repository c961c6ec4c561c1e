//! Writing a value in place of an existing node: a scalar ([`super::Edit::SetScalar`]), the
//! value of a mapping entry, a sequence item, an empty value that becomes a collection. The
//! anchor in front of the old value is kept, its tag when it still fits.

use std::ops::Range;

use super::error::{EditError, not_found, unsupported_empty, wrong};
use super::layout::{Cx, props_after, props_before};
use super::path::{parent_slot, resolve};
use crate::yaml::emit::{
    NewValue, ValueKind, WriteStyle, indent_lines, indent_rest, literal_lines, scalar_replacing,
};
use crate::yaml::parse::colon_after_key;
use crate::yaml::text::{column, line_end, next_line_start};
use crate::yaml::tree::{Node, NodeKind, ScalarStyle, Seg, path_to_string};

impl Cx<'_> {
    /// Performs a [`super::Edit::SetScalar`].
    pub(super) fn set_scalar_at(
        &mut self,
        root: &Node,
        path: &[Seg],
        value: &str,
        style: WriteStyle,
    ) -> Result<(), EditError> {
        let node = resolve(root, path)?;
        self.splices.claim(&node.span, path)?;
        self.splices.target(node.span.clone(), path_to_string(path));
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
                self.splices
                    .push_node(at, at, format!(": {rendered}"), 0, path);
            } else {
                // a block `? key` alone: the value goes on a `:` line under the `?`
                let start = self.entry_start(k);
                let col = column(self.text, start);
                let at = line_end(self.bytes, k.span.end);
                let text = format!("\n{}: {rendered}", " ".repeat(col));
                self.splices.push_node(at, at, text, 0, path);
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
        if style == WriteStyle::KeepBlock
            && old.style == ScalarStyle::Literal
            && let Some(text) = self.literal_block(node, value)
        {
            let (start, end) = (
                node.span.start,
                self.trim_kept(node.span.start, node.span.end),
            );
            self.splices.push_node(start, end, text, 0, path);
            return Ok(());
        }
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
        self.splices.push_node(start, end, text, 0, path);
        Ok(())
    }

    /// `value` as the literal block scalar `node` (`|`, written from its header to its last
    /// content line) is to become: the header with the new chomping indicator and the old
    /// comment, the lines at the old content's indentation (empty lines empty). `None` when the
    /// value cannot be written as a literal block ([`literal_lines`]), when the header has an
    /// indentation indicator, or when the block has no content line to take the indentation
    /// from.
    fn literal_block(&self, node: &Node, value: &str) -> Option<String> {
        let (lines, chomp) = literal_lines(value)?;
        let start = node.span.start;
        let header = self.text.get(start..line_end(self.bytes, start))?;
        let rest = header.strip_prefix('|')?;
        let indicators = rest.len() - rest.trim_start_matches(['+', '-']).len();
        let (marks, comment) = rest.split_at(indicators);
        if marks.len() > 1 || comment.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        // the first content line after the header gives the indentation
        let body = self
            .text
            .get(next_line_start(self.bytes, start)..node.span.end)?;
        let indent = body
            .split(['\n', '\r'])
            .find(|l| !l.trim_matches([' ', '\t']).is_empty())
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .filter(|&n| n > 0)?;
        let pad = " ".repeat(indent);
        let mut text = format!("|{chomp}{comment}");
        for line in lines {
            text.push('\n');
            if !line.is_empty() {
                text.push_str(&pad);
                text.push_str(line);
            }
        }
        Some(text)
    }

    /// Replaces the value `v` of the existing entry with key `k` of a non-empty mapping (flow
    /// when `map_flow`).
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
                self.splices.claim(&node.span, path)?;
                if seq.flow {
                    if node.span.is_empty() {
                        return Err(unsupported_empty(path));
                    }
                    self.splices
                        .push_node(node.span.start, node.span.end, value.flow(), 0, path);
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
                        self.splices.push_node(
                            start,
                            le,
                            format!("{first}{tail}\n{rest}"),
                            0,
                            path,
                        );
                    }
                    _ => self.splices.push_node(start, e, text, 0, path),
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
        self.splices.claim(&v.span, path)?;
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
            self.splices
                .push_node(colon, ve, format!("{props_text} {}", value.flow()), 0, path);
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
                self.splices
                    .push_node(colon, ve, format!("{props_text} {inline}"), 0, path);
            }
            (Some(inline), false) => {
                self.splices
                    .push_node(colon, props_end, format!("{props_text} {inline}"), 0, path);
                self.splices
                    .push_node(key_line_end, ve, String::new(), 0, path);
            }
            (None, true) => {
                // keep what follows the old value on its line (a comment) on the key line
                let le = line_end(self.bytes, ve);
                let tail = self.slice(ve, le).to_owned();
                let text = format!(
                    "{props_text}{tail}\n{}",
                    indent_lines(&value.block, col + step)
                );
                self.splices.push_node(colon, le, text, 0, path);
            }
            (None, false) => {
                self.splices
                    .push_node(colon, props_end, props_text, 0, path);
                let text = format!("\n{}", indent_lines(&value.block, col + step));
                // the comment after the old value's last line goes with it (after a new
                // block scalar it would become text)
                let le = line_end(self.bytes, ve);
                self.splices.push_node(key_line_end, le, text, 0, path);
            }
        }
        Ok(())
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
fn kept_props(text: &str, props: &[Range<usize>], keep_tags: bool) -> String {
    props
        .iter()
        .filter_map(|r| text.get(r.clone()))
        .filter(|p| keep_tags || p.starts_with('&'))
        .collect::<Vec<_>>()
        .join(" ")
}
