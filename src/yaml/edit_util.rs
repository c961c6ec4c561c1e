//! Helpers of [`super::edit`]: path resolution, errors, and the text of new values.

use serde_json::Value;

use super::edit::EditError;
use super::parse::parse;
use super::scalar::{double_quote, string_scalar};
use super::text::{column, line_start};
use super::tree::{Node, NodeKind, ScalarStyle, Seg, path_to_string};

/// A new value to write into a slot: its block form (indent 0, no final newline), its
/// one-line form if it has one, and its flow form.
pub(super) struct NewValue {
    pub(super) block: String,
    pub(super) inline: Option<String>,
    pub(super) flow: String,
}

/// Follows `path` from `root`, refusing aliases.
pub(super) fn resolve<'n>(root: &'n Node, path: &[Seg]) -> Result<&'n Node, EditError> {
    let mut node = root;
    for (i, seg) in path.iter().enumerate() {
        if matches!(node.kind, NodeKind::Alias(_)) {
            return Err(EditError::Alias {
                path: path_to_string(&path[..i]),
            });
        }
        let next = match (seg, &node.kind) {
            (Seg::Key(k), NodeKind::Map(m)) => m.get(k),
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

/// `key: "value"` at indent 0.
pub(super) fn entry_line((k, v): &(String, String)) -> String {
    format!("{}: {}", string_scalar(k), double_quote(v))
}

/// A new mapping holding `entries` (values double-quoted).
pub(super) fn entries_value(entries: &[(String, String)]) -> NewValue {
    let block = entries
        .iter()
        .map(entry_line)
        .collect::<Vec<_>>()
        .join("\n");
    let flow = format!(
        "{{{}}}",
        entries
            .iter()
            .map(|(k, v)| format!("{}: {}", string_scalar(k), double_quote(v)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    NewValue {
        block,
        inline: None,
        flow,
    }
}

/// A new mapping `{key: value}`.
pub(super) fn wrap_in_key(key: &str, value: &NewValue, step: usize) -> NewValue {
    let k = string_scalar(key);
    let block = match &value.inline {
        Some(inline) => format!("{k}: {inline}"),
        None => format!("{k}:\n{}", indent_lines(&value.block, step)),
    };
    NewValue {
        block,
        inline: None,
        flow: format!("{{{k}: {}}}", value.flow),
    }
}

/// Parses the YAML text of a [`Edit::SetValue`].
pub(super) fn new_value_from_yaml(yaml: &str, path: &[Seg]) -> Result<NewValue, EditError> {
    let normalized = yaml.replace("\r\n", "\n");
    let trimmed = normalized.trim_end_matches(['\n', ' ', '\t']);
    let trimmed = trimmed.trim_start_matches('\n');
    let invalid = |message: String| EditError::InvalidYaml {
        path: path_to_string(path),
        message,
    };
    let docs = parse(trimmed).map_err(|e| invalid(e.to_string()))?;
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
    Ok(NewValue {
        block: trimmed.to_owned(),
        inline: inline_ok.then(|| trimmed.to_owned()),
        flow: flow_text(&doc.root.to_json()),
    })
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
