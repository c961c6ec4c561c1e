//! Go's `text/template` builtins that need the engine's view of values: `and`, `or`, `not`,
//! `eq`, `ne`, `lt`, `le`, `gt`, `ge`, `len`, `index`, `slice`. Ported from Go's
//! `src/text/template/funcs.go` (Copyright The Go Authors, BSD-3-Clause; see the module docs).
//!
//! The builtins take Go's `reflect.Value`s: a missing value (Go's invalid `reflect.Value`) and
//! a nil interface both reach them as the zero value, which `eq` compares with anything and
//! `lt` refuses. `and` and `or` short-circuit (Go 1.18), so the executor evaluates their
//! arguments itself and uses [`truth`]. `call`, `html`, `js` and `urlquery` are not here:
//! the parser refuses them as unknown functions.
//!
//! `slice` is sprig's, not Go's: `sprig.HermeticTxtFuncMap()` has a `slice` of its own, and a
//! template's functions take precedence over Go's builtins (exec.go `findFunction`), so CAPI's
//! `slice` takes only lists (`slice "abc" 1` is an error there) and converts its indices as
//! `cast.ToInt` does (`slice .l 1 .n` with a float64 works). It is here, with the builtins,
//! because its indices need the engine's view of values.
//!
//! Differences from Go, on purpose:
//! - `slice` checks its end against the list's length (Go's against the capacity the JSON
//!   decoder grew, which exposes zeroed elements past the length: not knowable here);
//! - `index` of a string gives a `uint64` where Go gives a `uint8` (only `%T` tells them apart);
//! - an index equal to a list's length is "index out of range" (Go reports reflect's panic,
//!   "reflect: slice index out of range").

use std::rc::Rc;

use super::value::{Elem, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Builtin {
    And,
    Or,
    Not,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Len,
    Index,
    Slice,
}

/// Why a builtin gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum BuiltinError {
    /// Go's `wrong number of args for NAME: want N got M`.
    Args(String),
    /// Go's `error calling NAME: ...`.
    Failed(String),
    /// It was given a builtin variable CAPI only knows once it creates the objects.
    Unknown(String),
}

impl Builtin {
    pub fn named(name: &str) -> Option<Builtin> {
        Some(match name {
            "and" => Builtin::And,
            "or" => Builtin::Or,
            "not" => Builtin::Not,
            "eq" => Builtin::Eq,
            "ne" => Builtin::Ne,
            "lt" => Builtin::Lt,
            "le" => Builtin::Le,
            "gt" => Builtin::Gt,
            "ge" => Builtin::Ge,
            "len" => Builtin::Len,
            "index" => Builtin::Index,
            "slice" => Builtin::Slice,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Builtin::And => "and",
            Builtin::Or => "or",
            Builtin::Not => "not",
            Builtin::Eq => "eq",
            Builtin::Ne => "ne",
            Builtin::Lt => "lt",
            Builtin::Le => "le",
            Builtin::Gt => "gt",
            Builtin::Ge => "ge",
            Builtin::Len => "len",
            Builtin::Index => "index",
            Builtin::Slice => "slice",
        }
    }

    /// Go's parameter count: exactly `n`, or at least `n` when variadic.
    fn arity(self) -> (usize, bool) {
        match self {
            Builtin::And | Builtin::Or | Builtin::Eq | Builtin::Index | Builtin::Slice => (1, true),
            Builtin::Not | Builtin::Len => (1, false),
            Builtin::Ne | Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => (2, false),
        }
    }

    /// Go's `evalCall` check of the number of arguments.
    pub fn check_args(self, got: usize) -> Result<(), BuiltinError> {
        let (want, variadic) = self.arity();
        if variadic && got < want {
            return Err(BuiltinError::Args(format!(
                "wrong number of args for {}: want at least {want} got {got}",
                self.name()
            )));
        }
        if !variadic && got != want {
            return Err(BuiltinError::Args(format!(
                "wrong number of args for {}: want {want} got {got}",
                self.name()
            )));
        }
        Ok(())
    }
}

fn unknown(v: &Value) -> Result<(), BuiltinError> {
    match v {
        Value::Unknown(name) => Err(BuiltinError::Unknown(name.to_string())),
        _ => Ok(()),
    }
}

/// Go's `isTrue` (after `indirectInterface`): the truth of `if`, `with`, `and`, `or`, `not`.
pub(super) fn truth(v: &Value) -> Result<bool, BuiltinError> {
    unknown(v)?;
    Ok(match v {
        Value::Missing | Value::Nil | Value::Unknown(_) => false,
        Value::Bool(b) => *b,
        Value::Int(n) => *n != 0,
        Value::Uint(n) => *n != 0,
        Value::Float(f) => *f != 0.0,
        Value::String(s) => !s.is_empty(),
        Value::List(items, _) => !items.is_empty(),
        Value::Map(map, _) => !map.is_empty(),
        Value::Version(_) => true,
    })
}

/// Calls a builtin other than `and`/`or` on its evaluated arguments (their count checked).
pub(super) fn call(b: Builtin, args: &[Value]) -> Result<Value, BuiltinError> {
    b.check_args(args.len())?;
    let failed = |m: String| BuiltinError::Failed(format!("error calling {}: {m}", b.name()));
    match b {
        Builtin::And | Builtin::Or => {
            // The executor short-circuits these; evaluated here only for completeness.
            for (i, a) in args.iter().enumerate() {
                if truth(a)? == (b == Builtin::Or) || i + 1 == args.len() {
                    return Ok(a.clone());
                }
            }
            Ok(Value::Missing)
        }
        Builtin::Not => Ok(Value::Bool(!truth(&args[0])?)),
        Builtin::Eq => {
            for a in args {
                unknown(a)?;
            }
            eq(&args[0], &args[1..]).map(Value::Bool).map_err(failed)
        }
        Builtin::Ne => {
            unknown(&args[0])?;
            unknown(&args[1])?;
            eq(&args[0], &args[1..2])
                .map(|e| Value::Bool(!e))
                .map_err(failed)
        }
        Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => {
            unknown(&args[0])?;
            unknown(&args[1])?;
            let (a, c) = (&args[0], &args[1]);
            let result = match b {
                Builtin::Lt => lt(a, c),
                Builtin::Le => le(a, c),
                Builtin::Gt => le(a, c).map(|x| !x),
                _ => lt(a, c).map(|x| !x),
            };
            result.map(Value::Bool).map_err(failed)
        }
        Builtin::Len => {
            unknown(&args[0])?;
            length(&args[0]).map(Value::Int).map_err(failed)
        }
        Builtin::Index => {
            for a in args {
                unknown(a)?;
            }
            index(&args[0], &args[1..]).map_err(failed)
        }
        Builtin::Slice => {
            for a in args {
                unknown(a)?;
            }
            slice(&args[0], &args[1..]).map_err(failed)
        }
    }
}

/// Go's `basicKind`; `None` is `invalidKind` (lists, maps, versions and the zero value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Uint,
    Float,
    String,
}

fn kind(v: &Value) -> Option<Kind> {
    match v {
        Value::Bool(_) => Some(Kind::Bool),
        Value::Int(_) => Some(Kind::Int),
        Value::Uint(_) => Some(Kind::Uint),
        Value::Float(_) => Some(Kind::Float),
        Value::String(_) => Some(Kind::String),
        _ => None,
    }
}

fn is_zero(v: &Value) -> bool {
    matches!(v, Value::Missing | Value::Nil)
}

fn incompatible(a: &Value, b: &Value) -> String {
    format!(
        "incompatible types for comparison: {} and {}",
        a.go_type(),
        b.go_type()
    )
}

/// Go's `eq`: whether `a` equals any of `others`.
pub(super) fn eq(a: &Value, others: &[Value]) -> Result<bool, String> {
    let k1 = kind(a);
    for b in others {
        let k2 = kind(b);
        let truth = if k1 != k2 {
            match (a, b) {
                (Value::Int(i), Value::Uint(u)) | (Value::Uint(u), Value::Int(i)) => {
                    *i >= 0 && *i as u64 == *u
                }
                _ if !is_zero(a) && !is_zero(b) => return Err(incompatible(a, b)),
                _ => false,
            }
        } else {
            match (a, b) {
                (Value::Bool(x), Value::Bool(y)) => x == y,
                (Value::Int(x), Value::Int(y)) => x == y,
                (Value::Uint(x), Value::Uint(y)) => x == y,
                (Value::Float(x), Value::Float(y)) => x == y,
                (Value::String(x), Value::String(y)) => x == y,
                _ => {
                    // Both of invalid basic kind: the zero value, lists, maps, versions.
                    let same_kind = std::mem::discriminant(a) == std::mem::discriminant(b)
                        || (is_zero(a) && is_zero(b));
                    if !same_kind && !is_zero(a) && !is_zero(b) {
                        return Err(format!(
                            "non-comparable types {}: {}",
                            a.go_type(),
                            b.go_type()
                        ));
                    }
                    if is_zero(a) || is_zero(b) {
                        is_zero(a) == is_zero(b)
                    } else {
                        match (a, b) {
                            (Value::Version(x), Value::Version(y)) => Rc::ptr_eq(x, y),
                            _ => {
                                return Err(format!("non-comparable type: {}", b.go_type()));
                            }
                        }
                    }
                }
            }
        };
        if truth {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Go's `lt`.
pub(super) fn lt(a: &Value, b: &Value) -> Result<bool, String> {
    let invalid = "invalid type for comparison".to_string();
    let (Some(k1), Some(k2)) = (kind(a), kind(b)) else {
        return Err(invalid);
    };
    if k1 != k2 {
        return match (a, b) {
            (Value::Int(i), Value::Uint(u)) => Ok(*i < 0 || (*i as u64) < *u),
            (Value::Uint(u), Value::Int(i)) => Ok(*i >= 0 && *u < *i as u64),
            _ => Err(incompatible(a, b)),
        };
    }
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Ok(x < y),
        (Value::Uint(x), Value::Uint(y)) => Ok(x < y),
        (Value::Float(x), Value::Float(y)) => Ok(x < y),
        (Value::String(x), Value::String(y)) => Ok(x.as_bytes() < y.as_bytes()),
        _ => Err(invalid),
    }
}

fn le(a: &Value, b: &Value) -> Result<bool, String> {
    if lt(a, b)? {
        return Ok(true);
    }
    eq(a, std::slice::from_ref(b))
}

/// Go's `length`.
fn length(v: &Value) -> Result<i64, String> {
    Ok(match v {
        Value::Missing | Value::Nil => return Err("len of nil pointer".to_string()),
        Value::String(s) => s.len() as i64,
        Value::List(items, _) => items.len() as i64,
        Value::Map(map, _) => map.len() as i64,
        other => return Err(format!("len of type {}", other.go_type())),
    })
}

/// Go's `indexArg`: an integer index within `0..=cap`.
fn index_arg(index: &Value, cap: usize) -> Result<usize, String> {
    let x: i128 = match index {
        Value::Int(i) => i128::from(*i),
        Value::Uint(u) => i128::from(*u),
        Value::Missing | Value::Nil => {
            return Err("cannot index slice/array with nil".to_string());
        }
        other => {
            return Err(format!(
                "cannot index slice/array with type {}",
                other.go_type()
            ));
        }
    };
    if x < 0 || x > cap as i128 {
        return Err(format!("index out of range: {x}"));
    }
    Ok(x as usize)
}

/// Go's `index`.
fn index(item: &Value, indexes: &[Value]) -> Result<Value, String> {
    if is_zero(item) {
        return Err("index of untyped nil".to_string());
    }
    let mut item = item.clone();
    for index in indexes {
        item = match &item {
            Value::Nil | Value::Missing => return Err("index of nil pointer".to_string()),
            Value::List(items, elem) => {
                let x = index_arg(index, items.len())?;
                match items.get(x) {
                    Some(v) => v.clone(),
                    None if *elem == Elem::String => {
                        return Err(format!("index out of range: {x}"));
                    }
                    None => return Err(format!("index out of range: {x}")),
                }
            }
            Value::String(s) => {
                let x = index_arg(index, s.len())?;
                match s.as_bytes().get(x) {
                    Some(b) => Value::Uint(u64::from(*b)),
                    None => return Err(format!("index out of range: {x}")),
                }
            }
            Value::Map(map, elem) => {
                let key = match index {
                    Value::String(k) => k,
                    Value::Missing | Value::Nil => {
                        return Err("value is nil; should be of type string".to_string());
                    }
                    other => {
                        return Err(format!(
                            "value has type {}; should be string",
                            other.go_type()
                        ));
                    }
                };
                match map.get(&**key) {
                    Some(v) => v.clone(),
                    // The zero value of the map's element type.
                    None if *elem == Elem::String => Value::string(""),
                    None => Value::Nil,
                }
            }
            Value::Unknown(name) => return Err(format!("index of unknown {name}")),
            other => return Err(format!("can't index item of type {}", other.go_type())),
        };
    }
    Ok(item)
}

/// `slice` as CAPI has it: sprig's `slice` (`list.go`), which replaces Go's builtin of that
/// name in `sprig.HermeticTxtFuncMap()`: a list from index `start` (default 0) to `end`
/// (default its length), the indices converted as `cast.ToInt` converts (a float is
/// truncated, a string parsed, anything else 0), further indices ignored; an empty list gives
/// nil; anything but a list is an error.
fn slice(item: &Value, indexes: &[Value]) -> Result<Value, String> {
    let (items, elem) = match item {
        Value::List(items, elem) => (items, *elem),
        Value::Missing | Value::Nil => {
            return Err(
                "runtime error: invalid memory address or nil pointer dereference".to_string(),
            );
        }
        other => {
            let kind = match other {
                Value::Bool(_) => "bool",
                Value::Int(_) => "int",
                Value::Uint(_) => "uint64",
                Value::Float(_) => "float64",
                Value::String(_) => "string",
                Value::Map(..) => "map",
                _ => "ptr",
            };
            return Err(format!("list should be type of slice or array but {kind}"));
        }
    };
    if items.is_empty() {
        return Ok(Value::Nil);
    }
    let start = indexes.first().map_or(0, to_int);
    let end = indexes.get(1).map_or(items.len() as i64, to_int);
    if start < 0 || end < start || end > items.len() as i64 {
        return Err("reflect.Value.Slice: slice index out of bounds".to_string());
    }
    Ok(Value::List(
        Rc::new(items[start as usize..end as usize].to_vec()),
        elem,
    ))
}

/// spf13/cast's `ToInt`, as sprig calls it: errors become 0.
fn to_int(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::Uint(u) => *u as i64,
        Value::Float(f) => *f as i64,
        Value::Bool(b) => i64::from(*b),
        Value::String(s) => {
            // cast's trimZeroDecimal: "3.000" reads as "3".
            let t = match s.split_once('.') {
                Some((int, frac)) if !int.is_empty() && frac.chars().all(|c| c == '0') => int,
                _ => s,
            };
            match super::number::parse_int(t) {
                Some(super::number::IntValue::Int(i)) => i,
                _ => 0,
            }
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::string(x)
    }

    /// Comparisons by Go's basic kind (funcs.go; exec_test.go's cmpTests, BSD-3-Clause,
    /// Copyright The Go Authors).
    #[test]
    fn comparisons_follow_go_kinds() {
        assert_eq!(
            eq(&Value::Int(1), &[Value::Int(2), Value::Int(1)]),
            Ok(true)
        );
        assert_eq!(eq(&Value::Int(1), &[Value::Uint(1)]), Ok(true));
        assert_eq!(eq(&Value::Int(-1), &[Value::Uint(u64::MAX)]), Ok(false));
        assert!(eq(&Value::Int(1), &[Value::Float(1.0)]).is_err());
        assert_eq!(eq(&Value::Missing, &[s("x")]), Ok(false));
        assert_eq!(eq(&Value::Nil, &[Value::Missing]), Ok(true));
        assert!(eq(&s("a"), &[Value::Bool(true)]).is_err());
        let list = Value::List(Rc::new(vec![]), Elem::Any);
        assert!(eq(&list, std::slice::from_ref(&list)).is_err());
        assert_eq!(eq(&list, &[Value::Missing]), Ok(false));
        assert_eq!(lt(&s("a"), &s("b")), Ok(true));
        assert_eq!(lt(&Value::Int(-1), &Value::Uint(0)), Ok(true));
        assert_eq!(lt(&Value::Uint(1), &Value::Int(-1)), Ok(false));
        assert!(lt(&Value::Bool(true), &Value::Bool(false)).is_err());
        assert!(lt(&Value::Missing, &Value::Int(1)).is_err());
        assert_eq!(le(&Value::Float(1.5), &Value::Float(1.5)), Ok(true));
    }

    #[test]
    fn index_and_slice() {
        let list = Value::List(Rc::new(vec![Value::Int(1), Value::Int(2)]), Elem::Any);
        assert_eq!(index(&list, &[Value::Int(1)]), Ok(Value::Int(2)));
        assert_eq!(
            index(&list, &[Value::Int(2)]),
            Err("index out of range: 2".to_string())
        );
        assert!(index(&list, &[Value::Float(1.0)]).is_err());
        assert_eq!(index(&s("abc"), &[Value::Int(0)]), Ok(Value::Uint(97)));
        // CAPI's slice is sprig's (run with Go 1.19 and sprig v3.2.3).
        assert_eq!(
            slice(&s("abc"), &[Value::Int(1)]),
            Err("list should be type of slice or array but string".to_string())
        );
        let sl = Value::List(Rc::new(vec![s("a"), s("b"), s("c")]), Elem::String);
        assert_eq!(
            slice(&sl, &[Value::Float(1.0), s("3")]),
            Ok(Value::List(Rc::new(vec![s("b"), s("c")]), Elem::String))
        );
        assert!(slice(&sl, &[Value::Int(2), Value::Int(1)]).is_err());
        assert_eq!(
            slice(&Value::List(Rc::default(), Elem::Any), &[]),
            Ok(Value::Nil)
        );
        assert_eq!(
            index(&Value::Missing, &[]),
            Err("index of untyped nil".to_string())
        );
        assert_eq!(length(&s("日本")), Ok(6), "len counts bytes");
    }
}
