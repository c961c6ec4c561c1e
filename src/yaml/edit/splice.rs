//! The splices the edits make, their checks, and the one pass that splices them into the text.
//!
//! Every edit becomes replacements of byte ranges of the original text ([`Splices`]). Before
//! anything is written they are checked: no two overlap, no edit writes into a node another one
//! removes or replaces, no anchor (`&name`) that an alias still uses is removed. Then one pass
//! over the text, in order, produces the output and the [`Change`]s that made it ([`Applied`]).

use crate::FastSet;
use std::cmp::Reverse;
use std::ops::Range;

use super::error::EditError;
use crate::yaml::parse::parse;
use crate::yaml::text::line_break_of;
use crate::yaml::tree::{Node, NodeKind, Seg, path_to_string};

/// Where [`super::apply_mapped`] changed the text: `text[start..end]` of the original was
/// replaced by `len` bytes of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// Start of the replaced range, in the original text.
    pub start: usize,
    /// End of the replaced range, in the original text.
    pub end: usize,
    /// Length of the replacement, in the output.
    pub len: usize,
}

/// The output of [`super::apply_mapped`]: the new text and the changes that made it, in text
/// order.
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

/// One replacement of `text[start..end]`.
struct Splice {
    start: usize,
    end: usize,
    text: String,
    /// Among insertions at one offset, the ones that write a node's own value go first (they
    /// belong to the text before), then deeper (more indented) ones.
    node: bool,
    depth: usize,
    order: usize,
    path: String,
}

/// The splices of one [`super::apply`], with what the checks need to know about them.
#[derive(Default)]
pub(super) struct Splices {
    list: Vec<Splice>,
    order: usize,
    /// The spans of the nodes whose value an edit writes (two edits of one empty node would
    /// both insert at one offset: an overlap all the same).
    claims: FastSet<(usize, usize)>,
    /// The spans of the nodes edits write into, with their paths.
    targets: Vec<(Range<usize>, String)>,
    /// The spans of the values that edits remove or replace.
    destroyed: Vec<Range<usize>>,
}

impl Splices {
    /// Adds a splice of a collection edit (an insertion or removal of whole entries or items).
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
    pub(super) fn push_node(
        &mut self,
        start: usize,
        end: usize,
        text: String,
        depth: usize,
        path: &[Seg],
    ) {
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
        self.list.push(Splice {
            start,
            end,
            text,
            node,
            depth,
            order: self.order,
            path: path_to_string(path),
        });
    }

    /// Records that an edit writes into the node spanning `span` (at `path`).
    pub(super) fn target(&mut self, span: Range<usize>, path: String) {
        self.targets.push((span, path));
    }

    /// Records that an edit removes or replaces the value spanning `span`.
    pub(super) fn destroy(&mut self, span: Range<usize>) {
        self.destroyed.push(span);
    }

    /// Records that an edit writes the value of the node spanning `span`; a second one is an
    /// overlap.
    pub(super) fn claim(&mut self, span: &Range<usize>, path: &[Seg]) -> Result<(), EditError> {
        if !self.claims.insert((span.start, span.end)) {
            return Err(EditError::Overlap {
                path: path_to_string(path),
            });
        }
        Ok(())
    }

    /// Refuses edits that write into a node that another edit removes or replaces (those
    /// overlapping in the text are refused anyway; this catches an insertion right at the end
    /// of a removed or replaced value).
    pub(super) fn check_targets(&mut self) -> Result<(), EditError> {
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

    /// Refuses the splices if one removes the anchor (`&name`) of a node that an alias outside
    /// the removed text still refers to.
    pub(super) fn check_anchors(&self, text: &str) -> Result<(), EditError> {
        let slice = |start: usize, end: usize| text.get(start..end).unwrap_or("");
        let removes_anchor = self
            .list
            .iter()
            .any(|s| s.start < s.end && slice(s.start, s.end).contains('&'));
        if !removes_anchor || !text.contains('*') {
            return Ok(());
        }
        let Ok(docs) = parse(text) else {
            return Ok(());
        };
        let mut spans = Vec::new();
        for d in &docs {
            collect_aliases(&d.root, &mut spans);
        }
        let aliases: Vec<(usize, &str)> = spans
            .iter()
            .map(|r| (r.start, slice(r.start + 1, r.end)))
            .collect();
        for s in self.list.iter().filter(|s| s.start < s.end) {
            let removed = slice(s.start, s.end);
            let rewritten = anchor_names(&s.text);
            for name in anchor_names(removed) {
                if rewritten.contains(&name) {
                    continue;
                }
                let used = aliases.iter().any(|(at, alias)| {
                    *alias == name
                        && *at >= s.start
                        && !self.list.iter().any(|o| o.start <= *at && *at < o.end)
                });
                if used {
                    return Err(EditError::Unsupported {
                        path: s.path.clone(),
                        reason: format!(
                            "the edit would remove the anchor &{name} that an alias (*{name}) still uses"
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Splices everything into `text` in one pass (inserted `\n` become the text's own line
    /// break; a final one is added when an insertion ends a text that lacked it).
    pub(super) fn splice(mut self, text: &str) -> Result<Applied, EditError> {
        self.list
            .sort_by_key(|s| (s.start, s.end, !s.node, Reverse(s.depth), s.order));
        let brk = line_break_of(text);
        // exactly what is written: a `\r` more for each inserted `\n` of a CRLF text, and a
        // final line break
        let extra: usize = self.list.iter().map(|s| s.text.len()).sum();
        let crs = match brk {
            "\r\n" => self.list.iter().map(|s| s.text.matches('\n').count()).sum(),
            _ => 0,
        };
        let mut out = String::with_capacity(text.len() + extra + crs + brk.len());
        let mut cursor = 0usize;
        let mut replaced_up_to = None;
        let mut at_eof = false;
        let mut changes = Vec::with_capacity(self.list.len());
        for s in &self.list {
            if s.end < s.start || text.get(s.start..s.end).is_none() {
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
            let Some(keep) = text.get(cursor..s.start) else {
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
            if s.end == text.len() && !s.text.is_empty() {
                at_eof = true;
            }
            cursor = s.end;
        }
        out.push_str(text.get(cursor..).unwrap_or(""));
        if at_eof && !out.is_empty() && !out.ends_with(['\n', '\r']) {
            out.push_str(brk);
            if let Some(last) = changes.last_mut() {
                last.len += brk.len();
            }
        }
        Ok(Applied::new(out, changes))
    }
}

/// The spans of every alias under `node` (not through aliases).
fn collect_aliases(node: &Node, out: &mut Vec<Range<usize>>) {
    match &node.kind {
        NodeKind::Alias(_) => out.push(node.span.clone()),
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                collect_aliases(k, out);
                collect_aliases(v, out);
            }
        }
        NodeKind::Seq(s) => s.items.iter().for_each(|i| collect_aliases(i, out)),
        NodeKind::Scalar(_) | NodeKind::Skipped(_) => {}
    }
}

/// The names of the `&name` tokens in `text` (a `&` at the start of a token).
fn anchor_names(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'&' {
            continue;
        }
        if i > 0
            && !matches!(
                bytes[i - 1],
                b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b','
            )
        {
            continue;
        }
        let rest = &text[i + 1..];
        let end = rest
            .find([' ', '\t', '\n', '\r', ',', '[', ']', '{', '}'])
            .unwrap_or(rest.len());
        if end > 0 {
            out.push(&rest[..end]);
        }
    }
    out
}
