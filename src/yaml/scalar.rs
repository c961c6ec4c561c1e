//! Scalar helpers: YAML 1.2 core-schema resolution and safe quoting.

use serde_json::Value;

/// Resolves a plain scalar's text under the YAML 1.2 core schema.
/// Numbers JSON cannot represent (infinities, NaN, integers beyond 64 bits) stay strings.
pub(crate) fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(v) = resolve_int(text) {
        return v;
    }
    if is_core_float(text)
        && let Ok(f) = text.parse::<f64>()
        && let Some(n) = serde_json::Number::from_f64(f)
        && f.is_finite()
    {
        return Value::Number(n);
    }
    Value::String(text.to_owned())
}

/// What kind of value a plain scalar resolves to (used to decide whether a new plain value
/// keeps the old one's type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlainType {
    Null,
    Bool,
    Int,
    Float,
    Str,
}

/// The core-schema type of a plain scalar text.
pub(crate) fn plain_type(text: &str) -> PlainType {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => PlainType::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => PlainType::Bool,
        _ if is_core_int(text) => PlainType::Int,
        _ if is_core_float(text) || is_special_float(text) => PlainType::Float,
        _ => PlainType::Str,
    }
}

fn resolve_int(text: &str) -> Option<Value> {
    if let Some(hex) = text.strip_prefix("0x") {
        if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Some(
                u64::from_str_radix(hex, 16)
                    .map(Value::from)
                    .unwrap_or_else(|_| Value::String(text.to_owned())),
            );
        }
        return None;
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return Some(
                u64::from_str_radix(oct, 8)
                    .map(Value::from)
                    .unwrap_or_else(|_| Value::String(text.to_owned())),
            );
        }
        return None;
    }
    if !is_decimal_int(text) {
        return None;
    }
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Ok(i) = digits.parse::<i64>() {
        return Some(Value::from(i));
    }
    if let Ok(u) = digits.parse::<u64>() {
        return Some(Value::from(u));
    }
    Some(Value::String(text.to_owned()))
}

fn is_decimal_int(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_core_int(text: &str) -> bool {
    is_decimal_int(text)
        || text
            .strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        || text
            .strip_prefix("0o")
            .is_some_and(|o| !o.is_empty() && o.bytes().all(|b| (b'0'..=b'7').contains(&b)))
}

fn is_special_float(text: &str) -> bool {
    let t = text.strip_prefix(['-', '+']).unwrap_or(text);
    matches!(t, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN")
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

/// Whether `value` can be written as a plain scalar and read back as exactly this text
/// (its core-schema type is then [`plain_type`]). Conservative: anything doubtful is refused.
pub(crate) fn plain_safe(value: &str) -> bool {
    surely_plain_safe(value) || plain_safe_checked(value)
}

/// The common case, a name such as `node-12-prov`, at once: it starts with a letter or digit
/// and holds only letters, digits and `-._/`, so none of [`plain_safe_checked`]'s checks can
/// fail.
fn surely_plain_safe(value: &str) -> bool {
    value
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphanumeric)
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'/'))
}

fn plain_safe_checked(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    if value.starts_with(char::is_whitespace) || value.ends_with(char::is_whitespace) {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        // `-`, `?`, `:` may start a plain scalar when followed by a safe char, but keep it simple
        // except for the common negative number / dash-word case.
        let second = value.chars().nth(1);
        let ok = first == '-' && second.is_some_and(|c| !c.is_whitespace()) && value != "---";
        if !ok {
            return false;
        }
    }
    if value.contains(": ") || value.contains(" #") || value.ends_with(':') {
        return false;
    }
    // a plain `<<` key is a merge key
    if value == "<<" {
        return false;
    }
    if value.chars().any(|c| {
        c.is_control() || c == '\u{feff}' || c == '\u{2028}' || c == '\u{2029}' || c == '\u{85}'
    }) {
        return false;
    }
    // Flow indicators would break the value inside a flow collection; refuse them everywhere
    // so a plain value is valid in any context.
    !value.contains([',', '[', ']', '{', '}'])
}

/// Whether `value` can be written single-quoted on one line and read back identically.
pub(crate) fn single_quote_safe(value: &str) -> bool {
    !value.chars().any(|c| {
        c.is_control() || c == '\u{feff}' || c == '\u{2028}' || c == '\u{2029}' || c == '\u{85}'
    }) && !value.starts_with(' ')
        && !value.ends_with(' ')
}

/// `value` as a single-quoted scalar.
pub(crate) fn single_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    out.push_str(&value.replace('\'', "''"));
    out.push('\'');
    out
}

/// `value` as a double-quoted scalar on one line (escapes every control character).
pub(crate) fn double_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    push_double_quoted(&mut out, value);
    out
}

/// [`double_quote`], written at the end of `out`.
pub(crate) fn push_double_quoted(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{feff}' => out.push_str("\\ufeff"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if c.is_control() => {
                let code = c as u32;
                out.push_str(&format!("\\u{code:04x}"));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `value` written for reading back as the same string: plain when that is safe and reads as a
/// string, else double-quoted.
pub(crate) fn string_scalar(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    push_string_scalar(&mut out, value);
    out
}

/// [`string_scalar`], written at the end of `out`.
pub(crate) fn push_string_scalar(out: &mut String, value: &str) {
    if plain_safe(value) && plain_type(value) == PlainType::Str {
        out.push_str(value);
    } else {
        push_double_quoted(out, value);
    }
}

#[cfg(test)]
mod plain_safe_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        /// The shortcut never says safe what the checks refuse.
        #[test]
        fn the_shortcut_agrees_with_the_checks(value in "[a-zA-Z0-9._/:#<, -]{0,10}") {
            if surely_plain_safe(&value) {
                prop_assert!(plain_safe_checked(&value), "{value:?}");
            }
        }
    }

    #[test]
    fn claim_names_take_the_shortcut() {
        assert!(surely_plain_safe("node-12-prov"));
        assert!(!surely_plain_safe("-node"));
        assert!(!surely_plain_safe("a: b"));
        assert!(!surely_plain_safe(""));
    }
}
