//! What an [`Edit`] means for the value a document reads as: the same change made on the
//! document's JSON. This is the model the written text is checked against (the write safety
//! net, the fuzz target): text produced by [`crate::yaml::apply`] must read back as the JSON of
//! the original with [`Edit::apply_to_json`] applied.

use serde_json::{Map, Value};

use super::edit::{Edit, WriteStyle};
use super::parse::parse;
use super::scalar::resolve_plain;
use super::tree::{Seg, path_to_string};

/// Why an edit does not fit the JSON it is applied to (the path is missing, or holds another
/// kind of value).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("path {path}: {reason}")]
pub struct MeaningError {
    /// Where, e.g. `spec.preAllocations`.
    pub path: String,
    /// What does not fit.
    pub reason: String,
}

impl Edit {
    /// The path of the node (or, for [`Edit::SetValue`], of the mapping) this edit is about.
    pub fn path(&self) -> &[Seg] {
        match self {
            Edit::SetScalar { path, .. }
            | Edit::AddEntries { path, .. }
            | Edit::RemoveEntry { path, .. }
            | Edit::SetValue { path, .. }
            | Edit::AppendItem { path, .. } => path,
        }
    }

    /// The same edit with `prefix` put in front of its path (to address it from an outer node).
    pub fn prefixed(&self, prefix: &[Seg]) -> Edit {
        let path: Vec<Seg> = prefix.iter().chain(self.path()).cloned().collect();
        self.with_path(&path)
    }

    /// This edit moved to `path`, without a copy of what it writes.
    pub fn into_path(mut self, path: Vec<Seg>) -> Edit {
        match &mut self {
            Edit::SetScalar { path: p, .. }
            | Edit::AddEntries { path: p, .. }
            | Edit::RemoveEntry { path: p, .. }
            | Edit::SetValue { path: p, .. }
            | Edit::AppendItem { path: p, .. } => *p = path,
        }
        self
    }

    /// The same edit at another path.
    pub fn with_path(&self, path: &[Seg]) -> Edit {
        let path = path.to_vec();
        match self {
            Edit::SetScalar { value, style, .. } => Edit::SetScalar {
                path,
                value: value.clone(),
                style: *style,
            },
            Edit::AddEntries { entries, .. } => Edit::AddEntries {
                path,
                entries: entries.clone(),
            },
            Edit::RemoveEntry { key, .. } => Edit::RemoveEntry {
                path,
                key: key.clone(),
            },
            Edit::SetValue { key, yaml, .. } => Edit::SetValue {
                path,
                key: key.clone(),
                yaml: yaml.clone(),
            },
            Edit::AppendItem { value, style, .. } => Edit::AppendItem {
                path,
                value: value.clone(),
                style: *style,
            },
        }
    }

    /// Makes on `root` (the JSON a node reads as, see [`crate::yaml::Node::to_json`]) the change
    /// this edit makes on the node's text:
    /// - `SetScalar`: the value at `path` becomes the string `value`; with
    ///   [`WriteStyle::Keep`] an old value that was not a string keeps its type when `value`
    ///   reads as that type (it is then written plain);
    /// - `AddEntries`: the mapping at `path` (created when missing, `null` or empty) gains the
    ///   entries, values as strings;
    /// - `RemoveEntry`: the mapping at `path` loses `key` (and is `{}` when it was the last);
    /// - `SetValue`: the mapping at `path` (`null` counts as empty) gets `key` set to the value
    ///   of the YAML text `yaml`;
    /// - `AppendItem`: the sequence at `path` gains the string `value` as its last item.
    pub fn apply_to_json(&self, root: &mut Value) -> Result<(), MeaningError> {
        self.apply_to_json_at(self.path(), root)
    }

    /// [`Edit::apply_to_json`] with `path` in place of the edit's own path (the edit seen from
    /// another node), without a copy of the edit.
    pub fn apply_to_json_at(&self, path: &[Seg], root: &mut Value) -> Result<(), MeaningError> {
        match self {
            Edit::SetScalar { value, style, .. } => {
                let slot = at_mut(root, path)?;
                let typed = resolve_plain(value);
                *slot = match (style, &*slot) {
                    (WriteStyle::Keep | WriteStyle::KeepBlock, old)
                        if !old.is_string() && same_kind(old, &typed) && !typed.is_string() =>
                    {
                        typed
                    }
                    _ => Value::String(value.clone()),
                };
                Ok(())
            }
            Edit::AddEntries { entries, .. } => {
                let map = map_at(root, path, true)?;
                for (k, v) in entries {
                    if map.insert(k.clone(), Value::String(v.clone())).is_some() {
                        return Err(err(path, format!("key {k:?} exists already")));
                    }
                }
                Ok(())
            }
            Edit::RemoveEntry { key, .. } => {
                let map = map_at(root, path, false)?;
                match map.shift_remove(key) {
                    Some(_) => Ok(()),
                    None => Err(err(path, format!("no key {key:?}"))),
                }
            }
            Edit::SetValue { key, yaml, .. } => {
                let docs = parse(yaml).map_err(|e| err(path, format!("value of {key}: {e}")))?;
                let value = match docs.as_slice() {
                    [doc] => doc.root.to_json(),
                    _ => return Err(err(path, format!("value of {key} is not one document"))),
                };
                map_at(root, path, true)?.insert(key.clone(), value);
                Ok(())
            }
            Edit::AppendItem { value, .. } => match at_mut(root, path)? {
                Value::Array(items) => {
                    items.push(Value::String(value.clone()));
                    Ok(())
                }
                _ => Err(err(path, "not a sequence".into())),
            },
        }
    }
}

fn err(path: &[Seg], reason: String) -> MeaningError {
    MeaningError {
        path: path_to_string(path),
        reason,
    }
}

/// Whether two JSON values are of one kind (both numbers, both booleans, ...).
fn same_kind(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The value at `path`.
fn at_mut<'v>(root: &'v mut Value, path: &[Seg]) -> Result<&'v mut Value, MeaningError> {
    let mut node = root;
    for (i, seg) in path.iter().enumerate() {
        node = match (seg, node) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k),
            (Seg::Index(j), Value::Array(a)) => a.get_mut(*j),
            _ => None,
        }
        .ok_or_else(|| err(&path[..=i], "not found".into()))?;
    }
    Ok(node)
}

/// The mapping at `path`; with `create`, a missing last key, `null` or `{}` becomes an empty
/// mapping.
fn map_at<'v>(
    root: &'v mut Value,
    path: &[Seg],
    create: bool,
) -> Result<&'v mut Map<String, Value>, MeaningError> {
    let slot = match (create, path.split_last()) {
        (true, Some((Seg::Key(last), parent))) => match at_mut(root, parent)? {
            Value::Object(m) => m.entry(last.clone()).or_insert(Value::Null),
            _ => return Err(err(parent, "not a mapping".into())),
        },
        _ => at_mut(root, path)?,
    };
    if create && slot.is_null() {
        *slot = Value::Object(Map::new());
    }
    match slot {
        Value::Object(m) => Ok(m),
        _ => Err(err(path, "not a mapping".into())),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn k(s: &str) -> Seg {
        Seg::key(s)
    }

    #[test]
    fn add_entries_creates_a_missing_or_null_mapping() {
        let add = Edit::AddEntries {
            path: vec![k("spec"), k("pre")],
            entries: vec![("a".into(), "1".into())],
        };
        for start in [json!({"spec": {}}), json!({"spec": {"pre": null}})] {
            let mut v = start;
            add.apply_to_json(&mut v).unwrap();
            assert_eq!(v, json!({"spec": {"pre": {"a": "1"}}}));
        }
        let mut v = json!({"spec": {"pre": {"a": "0"}}});
        assert!(
            add.apply_to_json(&mut v).is_err(),
            "an existing key is refused"
        );
    }

    #[test]
    fn remove_entry_leaves_an_empty_mapping() {
        let mut v = json!({"pre": {"a": "1"}});
        let rm = Edit::RemoveEntry {
            path: vec![k("pre")],
            key: "a".into(),
        };
        rm.apply_to_json(&mut v).unwrap();
        assert_eq!(v, json!({"pre": {}}));
        assert!(
            rm.apply_to_json(&mut v).is_err(),
            "a missing key is refused"
        );
    }

    #[test]
    fn set_scalar_keeps_the_old_type_only_when_kept_plain() {
        let mut v = json!({"n": 5, "s": "x"});
        let set = |key: &str, value: &str, style| Edit::SetScalar {
            path: vec![k(key)],
            value: value.into(),
            style,
        };
        set("n", "6", WriteStyle::Keep)
            .apply_to_json(&mut v)
            .unwrap();
        set("s", "7", WriteStyle::Keep)
            .apply_to_json(&mut v)
            .unwrap();
        assert_eq!(v, json!({"n": 6, "s": "7"}));
        set("n", "8", WriteStyle::DoubleQuoted)
            .apply_to_json(&mut v)
            .unwrap();
        assert_eq!(v, json!({"n": "8", "s": "7"}));
    }

    #[test]
    fn set_value_reads_the_yaml_text() {
        let mut v = json!({"kind": "ResourceList"});
        Edit::SetValue {
            path: vec![],
            key: "results".into(),
            yaml: "- message: hi\n  severity: info\n".into(),
        }
        .apply_to_json(&mut v)
        .unwrap();
        assert_eq!(
            v,
            json!({"kind": "ResourceList", "results": [{"message": "hi", "severity": "info"}]})
        );
    }

    #[test]
    fn append_item_adds_a_string_at_the_end_of_a_sequence() {
        let append = |value: &str, style| Edit::AppendItem {
            path: vec![k("args")],
            value: value.into(),
            style,
        };
        let mut v = json!({"args": ["--a"]});
        append("12", WriteStyle::Keep)
            .apply_to_json(&mut v)
            .unwrap();
        append("--b", WriteStyle::DoubleQuoted)
            .apply_to_json(&mut v)
            .unwrap();
        // always a string, whatever it looks like
        assert_eq!(v, json!({"args": ["--a", "12", "--b"]}));
        for mut other in [json!({"args": null}), json!({"args": {}}), json!({})] {
            assert!(
                append("x", WriteStyle::Keep)
                    .apply_to_json(&mut other)
                    .is_err(),
                "{other} has no sequence at args"
            );
        }
        let moved = append("x", WriteStyle::Keep).prefixed(&[k("spec")]);
        assert_eq!(
            moved,
            Edit::AppendItem {
                path: vec![k("spec"), k("args")],
                value: "x".into(),
                style: WriteStyle::Keep
            }
        );
    }

    #[test]
    fn prefixed_paths_address_from_an_outer_node() {
        let e = Edit::RemoveEntry {
            path: vec![k("spec")],
            key: "x".into(),
        };
        assert_eq!(
            e.prefixed(&[k("items"), Seg::Index(3)]).path(),
            &[k("items"), Seg::Index(3), k("spec")]
        );
    }
}
