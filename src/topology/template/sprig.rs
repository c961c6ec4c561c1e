//! sprig's hermetic functions that ipreuse evaluates.
//!
//! TEMPORARY (issue 32): the engine's minimal port of the sprig functions the former
//! `gotmpl`-based module implemented, onto [`Value`] and the [`Func`] signature, written
//! against the interface the LIBS helper implements (`NAMES`, `lookup`); the merge of branch
//! `libs` replaces it.

use super::limits::{FuncError, Limits};
use super::value::{Func, Value};
use crate::topology::semver;

/// The sprig functions a template may call.
pub const NAMES: &[&str] = &[
    "default",
    "coalesce",
    "upper",
    "lower",
    "trim",
    "trimPrefix",
    "trimSuffix",
    "replace",
    "semverCompare",
];

/// The function of that name, when ipreuse evaluates it.
pub fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "default" => default,
        "coalesce" => coalesce,
        "upper" => upper,
        "lower" => lower,
        "trim" => trim,
        "trimPrefix" => trim_prefix,
        "trimSuffix" => trim_suffix,
        "replace" => replace,
        "semverCompare" => semver_compare,
        _ => return None,
    })
}

fn failed(m: impl Into<String>) -> FuncError {
    FuncError::Failed(m.into())
}

fn string_value(s: String, limits: &Limits) -> Result<Value, FuncError> {
    limits.check_string(s.len())?;
    Ok(Value::string(s))
}

/// The `N` string arguments of a function whose Go parameters are `string`s.
fn strings<const N: usize>(args: &[Value]) -> Result<[&str; N], FuncError> {
    if args.len() != N {
        return Err(failed(format!(
            "wrong number of args: want {N} got {}",
            args.len()
        )));
    }
    let mut out = [""; N];
    for (slot, arg) in out.iter_mut().zip(args) {
        *slot = match arg {
            Value::String(s) => s,
            Value::Nil | Value::Missing => {
                return Err(failed(
                    "invalid value; expected string (a missing variable?)",
                ));
            }
            other => {
                return Err(failed(format!(
                    "wrong type for value; expected string; got {}",
                    other.go_type()
                )));
            }
        };
    }
    Ok(out)
}

/// sprig's `empty`.
fn empty(value: &Value) -> bool {
    match value {
        Value::Missing | Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(n) => *n == 0,
        Value::Uint(n) => *n == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::List(items, _) => items.is_empty(),
        Value::Map(map, _) => map.is_empty(),
        Value::Version(_) | Value::Unknown(_) => false,
    }
}

fn default(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    match args {
        [] => Err(failed("wrong number of args: want at least 1 got 0")),
        [d] => Ok(d.clone()),
        [d, given, ..] => Ok(if empty(given) {
            d.clone()
        } else {
            given.clone()
        }),
    }
}

fn coalesce(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    Ok(args
        .iter()
        .find(|v| !empty(v))
        .cloned()
        .unwrap_or(Value::Nil))
}

/// strings.ToUpper / ToLower map rune by rune; where Rust's mapping is longer than one
/// character (`ß` upper is `SS`), refused rather than guessed.
fn case<I: Iterator<Item = char>>(
    limits: &Limits,
    args: &[Value],
    name: &str,
    map: fn(char) -> I,
) -> Result<Value, FuncError> {
    let [s] = strings::<1>(args)?;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let mut mapped = map(c);
        match (mapped.next(), mapped.next()) {
            (Some(one), None) => out.push(one),
            _ => {
                return Err(failed(format!(
                    "{name} of {c:?} is not evaluated offline (Go maps it rune by rune); write the text in the case you want"
                )));
            }
        }
    }
    string_value(out, limits)
}

fn upper(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    case(limits, args, "upper", char::to_uppercase)
}

fn lower(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    case(limits, args, "lower", char::to_lowercase)
}

fn trim(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [s] = strings::<1>(args)?;
    string_value(s.trim().to_string(), limits)
}

fn trim_prefix(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [prefix, s] = strings::<2>(args)?;
    string_value(s.strip_prefix(prefix).unwrap_or(s).to_string(), limits)
}

fn trim_suffix(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [suffix, s] = strings::<2>(args)?;
    string_value(s.strip_suffix(suffix).unwrap_or(s).to_string(), limits)
}

fn replace(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [old, new, s] = strings::<3>(args)?;
    // The length before making it: strings.Replace with an empty old inserts at every
    // character boundary, as Rust's `replace` does.
    let count = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    };
    let len = (s.len() - count * old.len()).saturating_add(count.saturating_mul(new.len()));
    limits.check_string(len)?;
    string_value(s.replace(old, new), limits)
}

fn semver_compare(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [constraint, version] = strings::<2>(args)?;
    semver::satisfies(constraint, version)
        .map(Value::Bool)
        .map_err(failed)
}
