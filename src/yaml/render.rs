//! Rendering a JSON value as block YAML.

use serde_json::Value;

use super::scalar::string_scalar;

/// Renders `value` as clean block YAML at indent 0, ending with a newline: mappings as
/// `key: value` lines, sequences as `- item` lines (nested collections indented by two spaces),
/// empty collections as `{}` / `[]`. Strings are written plain when that reads back as the same
/// string, else double-quoted with escapes, so parsing the output with [`crate::yaml::parse`]
/// and reading it with [`crate::yaml::Node::to_json`] gives `value` back.
pub fn to_yaml_block(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_object(&mut out, map, 0),
        Value::Array(items) if !items.is_empty() => write_array(&mut out, items, 0),
        other => {
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
    out
}

/// A scalar or empty collection on one line.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_scalar(s),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

fn is_block(value: &Value) -> bool {
    match value {
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => false,
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn write_object(out: &mut String, map: &serde_json::Map<String, Value>, indent: usize) {
    for (i, (k, v)) in map.iter().enumerate() {
        // the first key of an object in a sequence item follows the `- `
        if i > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        out.push_str(&string_scalar(k));
        out.push(':');
        write_value(out, v, indent);
    }
}

fn write_array(out: &mut String, items: &[Value], indent: usize) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        out.push_str("- ");
        match item {
            Value::Object(m) if !m.is_empty() => write_object(out, m, indent + 2),
            Value::Array(a) if !a.is_empty() => write_array(out, a, indent + 2),
            other => {
                out.push_str(&inline(other));
                out.push('\n');
            }
        }
    }
}

/// Writes the value of a mapping entry after its `key:`.
fn write_value(out: &mut String, v: &Value, indent: usize) {
    if is_block(v) {
        out.push('\n');
        match v {
            Value::Object(m) => write_object(out, m, indent + 2),
            Value::Array(a) => write_array(out, a, indent + 2),
            _ => {}
        }
    } else {
        out.push(' ');
        out.push_str(&inline(v));
        out.push('\n');
    }
}
