//! How the JSON value of an item reads, for the tests that hold [`super::view::View`] to it:
//! the model reads trees, never JSON values.

use serde_json::Value;

/// The string at `path` (object keys), if it is a string.
pub fn str_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(value, path)?.as_str()
}

/// The value at `path` (object keys).
pub fn at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, k| v.get(*k))
}

/// A scalar as the text a person wrote (strings as they are, numbers and booleans printed).
pub fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A string → string map at `path` (labels, annotations); non-string values are printed.
pub fn string_map(value: &Value, path: &[&str]) -> Vec<(String, String)> {
    match at(value, path) {
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| (k.clone(), scalar_text(v).unwrap_or_default()))
            .collect(),
        _ => Vec::new(),
    }
}

/// `a list`, `a string "x"`, ... for messages about a value of the wrong kind.
pub fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {:?}", crate::names::short(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}
