//! Helpers of [`super::edit`]: path resolution, errors, and the text of new values.

use serde_json::Value;

use std::ops::Range;

use super::edit::EditError;
use super::parse::parse_counting_anchors;
use super::scalar::{double_quote, string_scalar};
use super::text::{column, line_start};
use super::tree::{Node, NodeKind, ScalarStyle, Seg, path_to_string};

/// The kind of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ValueKind {
    Scalar,
    Map,
    Seq,
}

/// A new value to write into a slot: its block form (indent 0, no final newline), its
/// one-line form if it has one, its flow form, and its kind.
pub(super) struct NewValue {
    pub(super) block: String,
    pub(super) inline: Option<String>,
    pub(super) flow: String,
    pub(super) kind: ValueKind,
}

/// Follows `path` from `root`, refusing aliases and keys that only come from a merge key.
pub(super) fn resolve<'n>(root: &'n Node, path: &[Seg]) -> Result<&'n Node, EditError> {
    let mut node = root;
    for (i, seg) in path.iter().enumerate() {
        if matches!(node.kind, NodeKind::Alias(_)) {
            return Err(EditError::Alias {
                path: path_to_string(&path[..i]),
            });
        }
        let next = match (seg, &node.kind) {
            (Seg::Key(k), NodeKind::Map(m)) => match m.position(k) {
                Some(j) => m.entries.get(j).map(|(_, v)| v),
                None if m.merged(k).is_some() => {
                    return Err(EditError::Merged {
                        path: path_to_string(&path[..=i]),
                    });
                }
                None => None,
            },
            (Seg::Index(j), NodeKind::Seq(s)) => s.items.get(*j),
            (Seg::Key(_), _) => return Err(wrong(&path[..i], "a mapping")),
            (Seg::Index(_), _) => return Err(wrong(&path[..i], "a sequence")),
        };
        node = next.ok_or_else(|| not_found(&path[..=i]))?;
    }
    if matches!(node.kind, NodeKind::Alias(_)) {
        return Err(EditError::Alias {
            path: path_to_string(path),
        });
    }
    Ok(node)
}

/// The parent of the node at `path` and the last segment (None, None for the root).
pub(super) fn parent_slot<'n, 'p>(
    root: &'n Node,
    path: &'p [Seg],
) -> Result<(Option<&'n Node>, Option<&'p Seg>), EditError> {
    match path.split_last() {
        None => Ok((None, None)),
        Some((seg, parent_path)) => Ok((Some(resolve(root, parent_path)?), Some(seg))),
    }
}

pub(super) fn wrong(path: &[Seg], expected: &'static str) -> EditError {
    EditError::WrongKind {
        path: path_to_string(path),
        expected,
    }
}

pub(super) fn not_found(path: &[Seg]) -> EditError {
    EditError::NotFound {
        path: path_to_string(path),
    }
}

pub(super) fn unsupported_empty(path: &[Seg]) -> EditError {
    EditError::Unsupported {
        path: path_to_string(path),
        reason: "an empty value inside a flow collection".into(),
    }
}

/// A scalar value written double-quoted.
pub(super) fn quoted_value(v: &str) -> NewValue {
    let q = double_quote(v);
    NewValue {
        block: q.clone(),
        inline: Some(q.clone()),
        flow: q,
        kind: ValueKind::Scalar,
    }
}

/// A new mapping holding `entries` (values double-quoted).
pub(super) fn entries_value(entries: &[(String, String)], step: usize) -> NewValue {
    let pairs: Vec<(String, NewValue)> = entries
        .iter()
        .map(|(k, v)| (k.clone(), quoted_value(v)))
        .collect();
    map_value(&pairs, step)
}

/// A new mapping holding `pairs`, in order.
pub(super) fn map_value(pairs: &[(String, NewValue)], step: usize) -> NewValue {
    let block = pairs
        .iter()
        .map(|(k, v)| entry_block(k, v, step))
        .collect::<Vec<_>>()
        .join("\n");
    let flow = format!(
        "{{{}}}",
        pairs
            .iter()
            .map(|(k, v)| format!("{}: {}", string_scalar(k), v.flow))
            .collect::<Vec<_>>()
            .join(", ")
    );
    NewValue {
        block,
        inline: None,
        flow,
        kind: ValueKind::Map,
    }
}

/// The entry `key: value` as block text at indent 0 (nested lines indented by `step`).
pub(super) fn entry_block(key: &str, value: &NewValue, step: usize) -> String {
    let k = string_scalar(key);
    match &value.inline {
        Some(inline) => format!("{k}: {inline}"),
        None => format!("{k}:\n{}", indent_lines(&value.block, step)),
    }
}

/// Parses the YAML text of a [`Edit::SetValue`](super::Edit::SetValue) (no anchors allowed:
/// a new anchor could capture an alias that refers to an earlier one of the same name).
pub(super) fn new_value_from_yaml(yaml: &str, path: &[Seg]) -> Result<NewValue, EditError> {
    let normalized = yaml.replace("\r\n", "\n").replace('\r', "\n");
    let trimmed = normalized.trim_end_matches(['\n', ' ', '\t']);
    let trimmed = trimmed.trim_start_matches('\n');
    let invalid = |message: String| EditError::InvalidYaml {
        path: path_to_string(path),
        message,
    };
    let (docs, anchors) = parse_counting_anchors(trimmed).map_err(|e| invalid(e.to_string()))?;
    if anchors > 0 {
        return Err(invalid(
            "anchors (`&name`) are not allowed in a value".into(),
        ));
    }
    let [doc] = docs.as_slice() else {
        return Err(invalid(format!(
            "expected one document, found {}",
            docs.len()
        )));
    };
    let single_line = !trimmed.contains('\n');
    let inline_ok = single_line
        && match &doc.root.kind {
            NodeKind::Scalar(s) => !matches!(s.style, ScalarStyle::Literal | ScalarStyle::Folded),
            NodeKind::Map(m) => m.flow,
            NodeKind::Seq(s) => s.flow,
            NodeKind::Alias(_) => false,
        };
    if trimmed.starts_with("---") || trimmed.contains("\n---") || trimmed.contains("\n...") {
        return Err(invalid(
            "document markers are not allowed in a value".into(),
        ));
    }
    let kind = match &doc.root.resolved().kind {
        NodeKind::Map(_) => ValueKind::Map,
        NodeKind::Seq(_) => ValueKind::Seq,
        _ => ValueKind::Scalar,
    };
    Ok(NewValue {
        block: trimmed.to_owned(),
        inline: inline_ok.then(|| trimmed.to_owned()),
        flow: flow_text(&doc.root.to_json()),
        kind,
    })
}

/// The node properties (`&anchor`, `!tag`) written right after an indicator (`:` / `-`) that
/// ends at `from`, on its line, before any comment or content: their byte ranges.
pub(super) fn props_after(text: &str, from: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    loop {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if !matches!(bytes.get(i), Some(b'&' | b'!')) {
            return out;
        }
        let start = i;
        while let Some(&b) = bytes.get(i) {
            if matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'}' | b'[' | b']'
            ) {
                break;
            }
            i += 1;
        }
        out.push(start..i);
    }
}

/// The node properties written right before `pos` on its line (after the indicator): their
/// byte ranges, in text order.
pub(super) fn props_before(text: &str, pos: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut p = pos;
    loop {
        let mut q = p;
        while q > 0 && matches!(bytes.get(q - 1), Some(b' ' | b'\t')) {
            q -= 1;
        }
        let mut t = q;
        while t > 0 && !matches!(bytes.get(t - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            t -= 1;
        }
        if t < q && matches!(bytes.get(t), Some(b'&' | b'!')) {
            out.push(t..q);
            p = t;
        } else {
            out.reverse();
            return out;
        }
    }
}

/// `value` as flow YAML on one line.
pub(super) fn flow_text(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_scalar(s),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(flow_text).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", string_scalar(k), flow_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Every non-empty line of `block` prefixed by `col` spaces.
pub(super) fn indent_lines(block: &str, col: usize) -> String {
    let pad = " ".repeat(col);
    let mut out = String::with_capacity(block.len() + col * 4);
    for (i, line) in block.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// Like [`indent_lines`] but the first line is not indented (it follows a `- `).
pub(super) fn indent_rest(block: &str, col: usize) -> String {
    match block.split_once('\n') {
        None => block.to_owned(),
        Some((first, rest)) => format!("{first}\n{}", indent_lines(rest, col)),
    }
}

/// The indentation step of the first nested block mapping under `node`.
pub(super) fn find_step(text: &str, node: &Node, budget: &mut usize) -> Option<usize> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    match &node.kind {
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                if let NodeKind::Map(child) = &v.kind
                    && !child.flow
                    && let Some((ck, _)) = child.entries.first()
                {
                    let (pc, cc) = (column(text, k.span.start), column(text, ck.span.start));
                    if cc > pc
                        && line_start(text.as_bytes(), ck.span.start)
                            != line_start(text.as_bytes(), k.span.start)
                    {
                        return Some(cc - pc);
                    }
                }
                if let Some(s) = find_step(text, v, budget) {
                    return Some(s);
                }
            }
            None
        }
        NodeKind::Seq(s) => s.items.iter().find_map(|i| find_step(text, i, budget)),
        _ => None,
    }
}
