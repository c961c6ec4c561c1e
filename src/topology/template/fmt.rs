//! Go's `fmt` as templates reach it: `%v` of every value a template holds (`fmt.Fprint` of an
//! action's value, `print`, `println`) and `printf` with the verbs `%v %s %d %t %q %x %X %%`, a
//! width and the flag `-`. A verb that does not fit its argument's type writes Go's
//! `%!verb(type=value)`, as Go does; anything else is refused with a message.
//!
//! TEMPORARY (issue 32): the engine's minimal port of the former `go_fmt.rs` onto [`Value`],
//! written against the interface the LIBS helper implements (`print_value`, `sprint`,
//! `sprintln`, `sprintf`, `check_format`, `strval`); the merge of branch `libs` replaces it.

use super::limits::{FuncError, Limits};
use super::value::Value;

fn go_type(value: &Value) -> &'static str {
    value.go_type()
}

fn failed(m: impl Into<String>) -> FuncError {
    FuncError::Failed(m.into())
}

fn string_value(s: String, limits: &Limits) -> Result<Value, FuncError> {
    limits.check_string(s.len())?;
    Ok(Value::string(s))
}

/// The text an action writes for its value (exec.go `printValue` and `fmt.Fprint`).
///
/// # Errors
/// [`FuncError::Unknown`] for an unknown builtin anywhere inside; [`FuncError::Limit`] past
/// the string limit.
pub fn print_value(v: &Value, limits: &Limits) -> Result<String, FuncError> {
    if let Some(name) = v.unknown() {
        return Err(FuncError::Unknown(name.to_string()));
    }
    let text = match v {
        Value::Missing => "<no value>".to_string(),
        other => go_v(other),
    };
    limits.check_string(text.len())?;
    Ok(text)
}

/// sprig's `strval`: a string as is, anything else as `%v`.
///
/// # Errors
/// As [`print_value`].
pub fn strval(v: &Value, limits: &Limits) -> Result<String, FuncError> {
    match v {
        Value::String(s) => Ok(s.to_string()),
        Value::Missing | Value::Nil => Ok("<nil>".to_string()),
        other => print_value(other, limits),
    }
}

/// Checks a literal `printf` format: Err(what) for what [`sprintf`] does not implement.
///
/// # Errors
/// The first verb, flag or precision not implemented.
pub fn check_format(format: &str) -> Result<(), String> {
    for directive in directives(format) {
        if let Directive::Unsupported(what) = directive {
            return Err(what);
        }
    }
    Ok(())
}

/// fmt's `%v`.
pub(super) fn go_v(value: &Value) -> String {
    match value {
        Value::Missing | Value::Nil | Value::Unknown(_) => "<nil>".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Uint(n) => n.to_string(),
        Value::String(s) => s.to_string(),
        Value::Version(v) => version_string(v),
        Value::Float(f) => go_float(*f),
        Value::List(items, _) => {
            let inner: Vec<String> = items.iter().map(go_v).collect();
            format!("[{}]", inner.join(" "))
        }
        Value::Map(map, _) => {
            // fmt prints a map's keys sorted; the BTreeMap holds them sorted.
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_v(v)))
                .collect();
            format!("map[{}]", inner.join(" "))
        }
    }
}

/// Masterminds/semver v3 `Version.String()`.
pub(super) fn version_string(v: &super::value::Version) -> String {
    let mut out = format!("{}.{}.{}", v.major, v.minor, v.patch);
    if !v.prerelease.is_empty() {
        out.push('-');
        out.push_str(&v.prerelease);
    }
    if !v.metadata.is_empty() {
        out.push('+');
        out.push_str(&v.metadata);
    }
    out
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`, which fmt's `%v` uses: the shortest digits that
/// read back as `f`, in exponent form when the exponent is below -4 or at least 6 (`ftoa.go`:
/// "if precision was the shortest possible, use precision 6 for this decision"), with at least
/// two exponent digits. So 100000 is `100000`, 1000000 is `1e+06`, 1234567 is `1.234567e+06`,
/// 0.0001 is `0.0001`, 0.00001 is `1e-05`.
fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Rust's `{:e}` writes the shortest round-trip digits: "1.5e6", "-2e-7".
    let sci = format!("{f:e}");
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return sci;
    };
    let Ok(exp) = exp.parse::<i32>() else {
        return sci;
    };
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    // Plain decimal: Rust's `Display` writes the same shortest digits without an exponent.
    format!("{f}")
}

/// fmt.Sprint (`print`).
///
/// # Errors
/// [`FuncError::Limit`] past the string limit.
pub fn sprint(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    string_value(sprint_text(args), limits)
}

/// fmt.Sprintln (`println`).
///
/// # Errors
/// [`FuncError::Limit`] past the string limit.
pub fn sprintln(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    string_value(sprintln_text(args), limits)
}

/// fmt.Sprintf (`printf`).
///
/// # Errors
/// [`FuncError::Failed`] for a format that is not a string or a verb not implemented;
/// [`FuncError::Limit`] past the string limit.
pub fn sprintf(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let text = sprintf_text(args, limits)?;
    string_value(text, limits)
}

pub(super) fn sprint_text(args: &[Value]) -> String {
    // fmt.Sprint: a space between two operands when neither is a string.
    let mut out = String::new();
    for (i, arg) in args.iter().enumerate() {
        let is_string = |v: &Value| matches!(v, Value::String(_));
        if i > 0 && !is_string(arg) && !is_string(&args[i - 1]) {
            out.push(' ');
        }
        out.push_str(&go_v(arg));
    }
    out
}

pub(super) fn sprintln_text(args: &[Value]) -> String {
    let mut out: Vec<String> = args.iter().map(go_v).collect();
    out.push(String::new());
    let mut line = out[..out.len() - 1].join(" ");
    line.push('\n');
    line
}

/// One piece of a `printf` format.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Directive {
    Text(String),
    Percent,
    Verb {
        verb: char,
        width: usize,
        left: bool,
    },
    Unsupported(String),
}

/// The largest width honoured (Go has no limit, but a width this large is a mistake).
const MAX_WIDTH: usize = 1 << 16;

pub(super) fn directives(format: &str) -> Vec<Directive> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if !text.is_empty() {
            out.push(Directive::Text(std::mem::take(&mut text)));
        }
        let mut left = false;
        while chars.peek() == Some(&'-') {
            left = true;
            chars.next();
        }
        if let Some(flag) = chars.next_if(|c| matches!(c, '+' | '#' | ' ' | '0')) {
            out.push(Directive::Unsupported(format!("flag {flag:?}")));
            continue;
        }
        let mut width = 0usize;
        while let Some(d) = chars.next_if(char::is_ascii_digit) {
            width = (width * 10 + d.to_digit(10).unwrap_or(0) as usize).min(MAX_WIDTH);
        }
        match chars.next() {
            Some('%') if width == 0 && !left => out.push(Directive::Percent),
            Some(verb @ ('v' | 's' | 'd' | 't' | 'q' | 'x' | 'X')) => {
                out.push(Directive::Verb { verb, width, left });
            }
            Some('.') => out.push(Directive::Unsupported("precision (.)".to_string())),
            Some('*') => out.push(Directive::Unsupported(
                "width * (from an argument)".to_string(),
            )),
            Some('[') => out.push(Directive::Unsupported("argument index [n]".to_string())),
            Some(other) => out.push(Directive::Unsupported(format!("verb %{other}"))),
            None => out.push(Directive::Unsupported("ends with %".to_string())),
        }
    }
    if !text.is_empty() {
        out.push(Directive::Text(text));
    }
    out
}

pub(super) fn sprintf_text(args: &[Value], limits: &Limits) -> Result<String, FuncError> {
    let Some((Value::String(format), rest)) = args.split_first() else {
        return Err(failed(match args.first() {
            None => "wrong number of args for printf: want at least 1 got 0".to_string(),
            Some(Value::Missing | Value::Nil) => "invalid value; expected string".to_string(),
            Some(other) => format!(
                "wrong type for value; expected string; got {}",
                other.go_type()
            ),
        }));
    };
    let mut out = String::new();
    let mut next = rest.iter();
    for directive in directives(format) {
        match directive {
            Directive::Text(t) => out.push_str(&t),
            Directive::Percent => out.push('%'),
            Directive::Unsupported(what) => return Err(failed(what)),
            Directive::Verb { verb, width, left } => {
                let formatted = match next.next() {
                    Some(arg) => format_one(verb, arg).map_err(failed)?,
                    None => format!("%!{verb}(MISSING)"),
                };
                let pad = width.saturating_sub(formatted.chars().count());
                limits.check_string(out.len() + formatted.len() + pad)?;
                if left {
                    out.push_str(&formatted);
                    out.extend(std::iter::repeat_n(' ', pad));
                } else {
                    out.extend(std::iter::repeat_n(' ', pad));
                    out.push_str(&formatted);
                }
            }
        }
    }
    let extra: Vec<String> = next
        .map(|v| match v {
            Value::Nil | Value::Missing => "<nil>".to_string(),
            v => format!("{}={}", go_type(v), go_v(v)),
        })
        .collect();
    if !extra.is_empty() {
        out.push_str(&format!("%!(EXTRA {})", extra.join(", ")));
    }
    Ok(out)
}

/// One argument under one verb, as fmt writes it; a verb that does not fit the type gives
/// Go's `%!verb(type=value)`.
fn format_one(verb: char, arg: &Value) -> Result<String, String> {
    let bad = || match arg {
        Value::Nil | Value::Missing => format!("%!{verb}(<nil>)"),
        v => format!("%!{verb}({}={})", go_type(v), go_v(v)),
    };
    Ok(match (verb, arg) {
        ('v', v) => go_v(v),
        ('s' | 'q' | 'x' | 'X', Value::List(..) | Value::Map(..)) => {
            return Err(format!(
                "%{verb} of a list or map is not evaluated offline; use %v"
            ));
        }
        ('s', Value::String(s)) => s.to_string(),
        ('q', Value::String(s)) => go_quote(s)?,
        ('x', Value::String(s)) => s.bytes().map(|b| format!("{b:02x}")).collect(),
        ('X', Value::String(s)) => s.bytes().map(|b| format!("{b:02X}")).collect(),
        ('d', Value::Int(n)) => n.to_string(),
        ('d', Value::Uint(n)) => n.to_string(),
        ('x', Value::Int(n)) if *n < 0 => format!("-{:x}", n.unsigned_abs()),
        ('x', Value::Int(n)) => format!("{n:x}"),
        ('X', Value::Int(n)) if *n < 0 => format!("-{:X}", n.unsigned_abs()),
        ('X', Value::Int(n)) => format!("{n:X}"),
        ('t', Value::Bool(b)) => b.to_string(),
        ('q', Value::Int(_) | Value::Uint(_)) | ('x' | 'X', Value::Float(_) | Value::Uint(_)) => {
            return Err(format!(
                "%{verb} of a {} is not evaluated offline",
                go_type(arg)
            ));
        }
        _ => bad(),
    })
}

/// `strconv.Quote`: Go's double-quoted string with Go's escapes, for ASCII text (Go keeps a
/// non-ASCII character or escapes it by its Unicode category, which is not decided here).
fn go_quote(s: &str) -> Result<String, String> {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_ascii() => out.push(c),
            c => {
                return Err(format!(
                    "%q of the non-ASCII {c:?} is not evaluated offline; use %s"
                ));
            }
        }
    }
    out.push('"');
    Ok(out)
}
