//! Paths into an item's JSON value, and how a value is named in messages: the leaf the object
//! identity and every reader stand on.

use serde_json::Value;

/// The string at `path` (object keys), if it is a string.
pub fn str_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(value, path)?.as_str()
}

/// The value at `path` (object keys).
pub fn at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, k| v.get(*k))
}

/// Whether a string is an unrendered template (`${...}` or `{{ ... }}`) that must never be guessed at.
pub fn is_template(s: &str) -> bool {
    // one pass over the bytes: most strings read are short names, where setting up a substring
    // search twice costs more than the search
    s.as_bytes()
        .windows(2)
        .any(|w| w[1] == b'{' && matches!(w[0], b'$' | b'{'))
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
