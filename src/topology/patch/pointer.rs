//! RFC 6901 JSON pointers and the three RFC 6902 operations CAPI's inline patches use, as
//! `evanphx/json-patch/v5` (which CAPI's patch engine applies them with) reads them.
//!
//! - A pointer is empty (the whole document) or `/`-separated tokens; in a token `~1` is `/`
//!   and `~0` is `~`; any other `~` is an error.
//! - An array index is `0` or digits without a leading zero; `-` (the end of the array) is
//!   only for `add`, which then appends.
//! - `add` needs the parent to exist: on an object it sets the key (replacing a value there),
//!   on an array it inserts before the index (`0..=len`); `replace` and `remove` need the
//!   target itself to exist.
//! - ipreuse refuses the empty pointer (the whole template): no ClusterClass patch of a
//!   machine template needs it, and a patch that replaced the template's `apiVersion` or
//!   `kind` would not be a template of the kind CAPI cloned any more.

use serde_json::Value;

/// Why a pointer or an operation does not apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerError {
    /// The pointer is not RFC 6901 (no leading `/`, a bad `~` escape) or is empty.
    Syntax(String),
    /// A token names nothing in the document (`replace`, `remove`, or an `add`'s parent).
    Missing(String),
    /// An array token is not an index the operation accepts.
    Index(String),
}

impl std::fmt::Display for PointerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Syntax(m) | Self::Missing(m) | Self::Index(m) => f.write_str(m),
        }
    }
}

/// The operations ipreuse applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Replace,
    Remove,
}

/// The unescaped tokens of `pointer`.
///
/// # Errors
/// [`PointerError::Syntax`] for an empty pointer, one without a leading `/`, or a `~` not
/// followed by `0` or `1`.
pub fn tokens(pointer: &str) -> Result<Vec<String>, PointerError> {
    if pointer.is_empty() {
        return Err(PointerError::Syntax(
            "the empty pointer names the whole template, which ipreuse does not patch".into(),
        ));
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(PointerError::Syntax(format!(
            "{pointer:?} does not start with `/`"
        )));
    };
    rest.split('/').map(|raw| unescape(raw, pointer)).collect()
}

fn unescape(raw: &str, pointer: &str) -> Result<String, PointerError> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => {
                    return Err(PointerError::Syntax(format!(
                        "{pointer:?} has a `~` that is not `~0` or `~1`"
                    )));
                }
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

/// The index a token names in an array of `len` items; `end_ok` allows `len` itself (and `-`).
fn index(token: &str, len: usize, end_ok: bool, pointer: &str) -> Result<usize, PointerError> {
    if token == "-" {
        return if end_ok {
            Ok(len)
        } else {
            Err(PointerError::Index(format!(
                "{pointer:?}: `-` (the end of an array) names no item; only `add` appends with it"
            )))
        };
    }
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return Err(PointerError::Index(format!(
            "{pointer:?}: {token:?} is not an array index"
        )));
    }
    let i: usize = token.parse().map_err(|_| {
        PointerError::Index(format!("{pointer:?}: {token:?} is not an array index"))
    })?;
    let limit = if end_ok { len } else { len.saturating_sub(1) };
    if i > limit || (!end_ok && len == 0) {
        return Err(PointerError::Index(format!(
            "{pointer:?}: index {i} is out of range (the array has {len} items)"
        )));
    }
    Ok(i)
}

/// What applying an operation at `pointer` costs: its tokens, and the entries of the object or
/// array it changes (inserting into an array, or removing from either, moves those after it).
/// A bad pointer costs its tokens; [`apply`] then says what is wrong.
pub fn work(doc: &Value, pointer: &str) -> u64 {
    let Ok(mut path) = tokens(pointer) else {
        return 1;
    };
    let depth = path.len() as u64;
    path.pop();
    let mut parent = doc;
    for token in &path {
        let next = match parent {
            Value::Object(map) => map.get(token),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(v) => parent = v,
            None => return depth,
        }
    }
    let entries = match parent {
        Value::Object(map) => map.len(),
        Value::Array(items) => items.len(),
        _ => 0,
    };
    depth + entries as u64
}

/// Applies one operation to `doc`; `value` is required by `add` and `replace` (the caller
/// computes it), ignored by `remove`.
///
/// # Errors
/// [`PointerError`] when the pointer is bad or names nothing the operation can act on.
pub fn apply(doc: &mut Value, op: Op, pointer: &str, value: Value) -> Result<(), PointerError> {
    let mut path = tokens(pointer)?;
    let last = path.pop().unwrap_or_default();
    let mut parent = &mut *doc;
    for (depth, token) in path.iter().enumerate() {
        let shown = || {
            let mut s = String::new();
            for t in &path[..=depth] {
                s.push('/');
                s.push_str(&t.replace('~', "~0").replace('/', "~1"));
            }
            s
        };
        parent = match parent {
            Value::Object(map) => map.get_mut(token).ok_or_else(|| {
                PointerError::Missing(format!("{pointer:?}: {:?} does not exist", shown()))
            })?,
            Value::Array(items) => {
                let i = index(token, items.len(), false, pointer)?;
                items
                    .get_mut(i)
                    .ok_or_else(|| PointerError::Missing(format!("{pointer:?}: no item {i}")))?
            }
            _ => {
                return Err(PointerError::Missing(format!(
                    "{pointer:?}: {:?} is inside a value that is neither an object nor an array",
                    shown()
                )));
            }
        };
    }
    match parent {
        Value::Object(map) => match op {
            Op::Add => {
                map.insert(last, value);
            }
            Op::Replace => match map.get_mut(&last) {
                Some(slot) => *slot = value,
                None => {
                    return Err(PointerError::Missing(format!(
                        "{pointer:?} does not exist, so it cannot be replaced (`add` creates it)"
                    )));
                }
            },
            Op::Remove => {
                if map.shift_remove(&last).is_none() {
                    return Err(PointerError::Missing(format!(
                        "{pointer:?} does not exist, so it cannot be removed"
                    )));
                }
            }
        },
        Value::Array(items) => match op {
            Op::Add => {
                let i = index(&last, items.len(), true, pointer)?;
                items.insert(i, value);
            }
            Op::Replace => {
                let i = index(&last, items.len(), false, pointer)?;
                if let Some(slot) = items.get_mut(i) {
                    *slot = value;
                }
            }
            Op::Remove => {
                let i = index(&last, items.len(), false, pointer)?;
                items.remove(i);
            }
        },
        _ => {
            return Err(PointerError::Missing(format!(
                "{pointer:?}: its parent is neither an object nor an array"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn work_counts_the_entries_an_operation_may_move() {
        let doc = json!({"spec": {"list": (0..100).collect::<Vec<u32>>(), "a": 1}});
        assert_eq!(work(&doc, "/spec/list/0"), 3 + 100);
        assert_eq!(work(&doc, "/spec/a"), 2 + 2);
        assert_eq!(
            work(&doc, "/nowhere/x"),
            2,
            "a path naming nothing costs its tokens"
        );
        assert_eq!(work(&doc, "no slash"), 1);
    }

    #[test]
    fn escapes_are_unescaped_tilde_one_before_tilde_zero() {
        // RFC 6901 §4: `~01` is `~1` (not `/`): `~0` is read first as a pair.
        assert_eq!(tokens("/a~1b/c~0d/~01").unwrap(), vec!["a/b", "c~d", "~1"]);
        assert_eq!(tokens("/").unwrap(), vec![""]);
    }

    #[test]
    fn bad_escapes_and_pointers_are_refused() {
        assert!(matches!(tokens("/a~2"), Err(PointerError::Syntax(_))));
        assert!(matches!(tokens("/a~"), Err(PointerError::Syntax(_))));
        assert!(matches!(tokens("a/b"), Err(PointerError::Syntax(_))));
        assert!(matches!(tokens(""), Err(PointerError::Syntax(_))));
    }

    #[test]
    fn escaped_keys_are_reached() {
        let mut doc = json!({"metadata": {"labels": {"a/b": "x", "c~d": "y"}}});
        apply(&mut doc, Op::Replace, "/metadata/labels/a~1b", json!("X")).unwrap();
        apply(&mut doc, Op::Remove, "/metadata/labels/c~0d", Value::Null).unwrap();
        assert_eq!(doc, json!({"metadata": {"labels": {"a/b": "X"}}}));
    }

    #[test]
    fn array_indexes_insert_replace_remove_and_append() {
        let mut doc = json!({"l": [1, 2]});
        apply(&mut doc, Op::Add, "/l/0", json!(0)).unwrap();
        apply(&mut doc, Op::Add, "/l/-", json!(3)).unwrap();
        apply(&mut doc, Op::Add, "/l/4", json!(4)).unwrap();
        assert_eq!(doc, json!({"l": [0, 1, 2, 3, 4]}));
        apply(&mut doc, Op::Replace, "/l/1", json!(10)).unwrap();
        apply(&mut doc, Op::Remove, "/l/0", Value::Null).unwrap();
        assert_eq!(doc, json!({"l": [10, 2, 3, 4]}));
    }

    #[test]
    fn indexes_out_of_range_leading_zeros_and_dash_are_refused_where_rfc_6902_refuses() {
        let mut doc = json!({"l": [1, 2]});
        for (op, p) in [
            (Op::Add, "/l/3"),
            (Op::Replace, "/l/2"),
            (Op::Remove, "/l/2"),
            (Op::Replace, "/l/-"),
            (Op::Remove, "/l/-"),
            (Op::Add, "/l/01"),
            (Op::Add, "/l/x"),
        ] {
            let got = apply(&mut doc, op, p, json!(0));
            assert!(
                matches!(got, Err(PointerError::Index(_))),
                "{op:?} {p}: {got:?}"
            );
        }
        assert_eq!(doc, json!({"l": [1, 2]}), "a refused op changes nothing");
    }

    #[test]
    fn replace_and_remove_need_the_target_add_needs_the_parent() {
        let mut doc = json!({"spec": {}});
        assert!(matches!(
            apply(&mut doc, Op::Replace, "/spec/x", json!(1)),
            Err(PointerError::Missing(_))
        ));
        assert!(matches!(
            apply(&mut doc, Op::Remove, "/spec/x", Value::Null),
            Err(PointerError::Missing(_))
        ));
        assert!(matches!(
            apply(&mut doc, Op::Add, "/spec/a/b", json!(1)),
            Err(PointerError::Missing(_))
        ));
        apply(&mut doc, Op::Add, "/spec/x", json!(1)).unwrap();
        apply(&mut doc, Op::Add, "/spec/x", json!(2)).unwrap();
        assert_eq!(doc, json!({"spec": {"x": 2}}));
    }
}
