//! Path resolution: from the node an edit is applied with to the node it edits.

use super::error::{EditError, not_found, wrong};
use crate::yaml::tree::{Node, NodeKind, Seg, path_to_string};

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

/// `path` with `key` after it.
pub(super) fn key_path(path: &[Seg], key: &str) -> Vec<Seg> {
    let mut p = path.to_vec();
    p.push(Seg::Key(key.to_owned()));
    p
}

/// Whether `node` is an empty value a mapping can be written in: `null`, `~`, empty, `{}`.
pub(super) fn is_null_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Map(m) => m.entries.is_empty(),
        NodeKind::Scalar(_) => node.is_null(),
        _ => false,
    }
}
