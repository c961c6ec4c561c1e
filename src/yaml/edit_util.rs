//! Helpers of [`super::edit`]: path resolution, errors, and positions in the text.

use std::ops::Range;

use super::edit::EditError;
use super::text::{column, line_start};
use super::tree::{Node, NodeKind, Seg, path_to_string};

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
