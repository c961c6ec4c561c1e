//! Small readers over JSON values: paths, strings, unrendered templates.

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
    s.contains("${") || s.contains("{{")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_recognised() {
        assert!(is_template("${IPAM_START}"));
        assert!(is_template("{{ start }}"));
        assert!(is_template("pool-${CLUSTER}"));
        assert!(!is_template("10.0.0.1"));
        assert!(!is_template("$HOME"));
    }
}
