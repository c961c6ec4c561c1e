//! Sequence edits: string items appended to a block or flow sequence
//! ([`super::Edit::AppendItem`]). Every append aimed at one sequence is gathered into one group
//! ([`Appends`]) and written in one place, in order.

use crate::FastMap;

use super::error::{EditError, wrong};
use super::layout::{Cx, props_before};
use super::path::resolve;
use crate::yaml::emit::{WriteStyle, indent_lines, item, string_like};
use crate::yaml::text::{at_line_start, column, has_break_after, line_end, line_start};
use crate::yaml::tree::{Node, NodeKind, Seg, Sequence, path_to_string};

/// The items appended to one sequence.
struct Append<'n> {
    node: &'n Node,
    path: Vec<Seg>,
    items: Vec<(String, WriteStyle)>,
}

/// The appends of one [`super::apply`], by target sequence.
#[derive(Default)]
pub(super) struct Appends<'n> {
    list: Vec<Append<'n>>,
    by_node: FastMap<usize, usize>,
}

impl<'n> Appends<'n> {
    /// Gathers a [`super::Edit::AppendItem`].
    pub(super) fn append_item(
        &mut self,
        root: &'n Node,
        path: &[Seg],
        value: &str,
        style: WriteStyle,
    ) -> Result<(), EditError> {
        let node = resolve(root, path)?;
        if !matches!(node.kind, NodeKind::Seq(_)) {
            return Err(wrong(path, "a sequence"));
        }
        let id = node as *const Node as usize;
        let i = *self.by_node.entry(id).or_insert_with(|| {
            self.list.push(Append {
                node,
                path: path.to_vec(),
                items: Vec::new(),
            });
            self.list.len() - 1
        });
        if let Some(group) = self.list.get_mut(i) {
            group.items.push((value.to_owned(), style));
        }
        Ok(())
    }
}

impl Cx<'_> {
    /// Performs the gathered appends.
    pub(super) fn perform_appends(&mut self, appends: Appends<'_>) -> Result<(), EditError> {
        for group in &appends.list {
            self.append_items(group)?;
        }
        Ok(())
    }

    fn append_items(&mut self, group: &Append<'_>) -> Result<(), EditError> {
        let (node, path) = (group.node, group.path.as_slice());
        let NodeKind::Seq(seq) = &node.kind else {
            return Err(wrong(path, "a sequence"));
        };
        self.splices.target(node.span.clone(), path_to_string(path));
        // Keep writes the new items like the last item when it is a scalar
        let like = seq.items.last().and_then(|last| match &last.kind {
            NodeKind::Scalar(s) => Some(s.style),
            _ => None,
        });
        let items: Vec<String> = group
            .items
            .iter()
            .map(|(value, style)| string_like(like, value, *style))
            .collect();
        // among insertions at one offset, the new items come after the last item's own
        // content (deeper) and before the entries added to an enclosing mapping (shallower)
        let depth = column(self.text, node.span.start) + 1;
        if seq.flow {
            self.append_flow_items(node, seq, &items, depth, path)
        } else {
            self.append_block_items(node, seq, &items, depth, path)
        }
    }

    /// Appends `- item` lines after the last item of a block sequence, at its dashes' column.
    fn append_block_items(
        &mut self,
        node: &Node,
        seq: &Sequence,
        items: &[String],
        depth: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let dash = node.span.start;
        let (Some(last), Some(b'-')) = (seq.items.last(), self.bytes.get(dash)) else {
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "the dash of the sequence's first item was not found".into(),
            });
        };
        if self.ends_with_kept_lines(last) && !has_break_after(self.bytes, last.span.end) {
            // A `|+` value on the last line without a newline: the newline an appended line
            // brings would become part of the value.
            return Err(EditError::Unsupported {
                path: path_to_string(path),
                reason: "appending after a `|+` block scalar that ends the text without a newline"
                    .into(),
            });
        }
        let col = column(self.text, dash);
        let end = last.span.end;
        let mut text = String::new();
        if end > last.span.start && at_line_start(self.bytes, end) {
            // after the kept lines of a `|+` value: whole lines at the start of the next line
            for i in items {
                text.push_str(&indent_lines(&item(i), col));
                text.push('\n');
            }
            self.splices.push(end, end, text, depth, path);
        } else {
            // after the last item's line (and the comment at its end)
            for i in items {
                text.push('\n');
                text.push_str(&indent_lines(&item(i), col));
            }
            let at = line_end(self.bytes, end);
            self.splices.push(at, at, text, depth, path);
        }
        Ok(())
    }

    /// Appends items inside the brackets of a flow sequence: `, item` after the last item, or
    /// on lines of their own when the last item stands on a line of its own.
    fn append_flow_items(
        &mut self,
        node: &Node,
        seq: &Sequence,
        items: &[String],
        depth: usize,
        path: &[Seg],
    ) -> Result<(), EditError> {
        let unsupported = |reason: &str| EditError::Unsupported {
            path: path_to_string(path),
            reason: reason.into(),
        };
        let (open, close) = (node.span.start, node.span.end.saturating_sub(1));
        if self.bytes.get(open) != Some(&b'[') || self.bytes.get(close) != Some(&b']') {
            return Err(unsupported("a flow sequence without its brackets"));
        }
        let Some(last) = seq.items.last() else {
            self.splices
                .push(open + 1, open + 1, items.join(", "), depth, path);
            return Ok(());
        };
        if matches!(last.kind, NodeKind::Map(_)) && self.bytes.get(last.span.start) != Some(&b'{') {
            return Err(unsupported(
                "appending after a single-pair mapping inside a flow sequence (`[a: 1]`)",
            ));
        }
        let e = last.span.end;
        let le = line_end(self.bytes, e);
        let rest = self.slice(e, le);
        let after = rest.trim_start_matches([' ', '\t']);
        // a comment after the item (a `#` right after it would be part of a plain scalar)
        let comment_or_end =
            |s: &str, blank_before: bool| s.is_empty() || (s.starts_with('#') && blank_before);
        let start = props_before(self.text, last.span.start)
            .first()
            .map_or(last.span.start, |r| r.start);
        let lead = self.slice(line_start(self.bytes, start), start);
        let own_line = lead.bytes().all(|b| b == b' ' || b == b'\t');
        if own_line && comment_or_end(after, after.len() < rest.len()) {
            // `a,` then each new item on a line of its own, at the last item's indentation
            // (after the comment on the last item's line)
            let lines: String = items
                .iter()
                .map(|i| format!("\n{lead}{i}"))
                .collect::<Vec<_>>()
                .join(",");
            self.splices.push(e, e, ",".into(), depth, path);
            self.splices.push(le, le, lines, depth, path);
        } else if let Some(tail) = after.strip_prefix(',')
            && own_line
            && comment_or_end(
                tail.trim_start_matches([' ', '\t']),
                tail.starts_with([' ', '\t']),
            )
        {
            // a trailing comma after the last item: the new items get one too
            let lines: String = items.iter().map(|i| format!("\n{lead}{i},")).collect();
            self.splices.push(le, le, lines, depth, path);
        } else {
            let text: String = items.iter().map(|i| format!(", {i}")).collect();
            self.splices.push(e, e, text, depth, path);
        }
        Ok(())
    }
}
