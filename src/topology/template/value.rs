//! The values a template works on, with the Go types they stand for.
//!
//! CAPI marshals the variables to JSON and unmarshals them into `map[string]interface{}`
//! (`json_patch_generator.go`, `renderValueTemplate`), so the data holds only Go's `nil`,
//! `bool`, `float64`, `string`, `[]interface{}` and `map[string]interface{}`. Functions add a few
//! more types (`len` gives an `int`, sprig's `split` a `map[string]string`, `splitList` a
//! `[]string`, `semver` a `*semver.Version` whose methods give `uint64`s). Go's `fmt` names
//! those types in its output (`%!d(float64=3)`), and `eq` refuses to compare an `int` with a
//! `float64`, so a value keeps its Go type here.
//!
//! Two values have no Go counterpart of their own:
//! - [`Value::Missing`] is what Go's `reflect` gives for a key a map does not have (the zero
//!   `reflect.Value`): printed as `<no value>`, where a JSON `null` ([`Value::Nil`]) prints `<nil>`;
//! - [`Value::Unknown`] stands for a builtin variable CAPI has a value for only once it creates
//!   the objects (a generated name, a uid). Any use of it is an error naming it, so that no
//!   template gets `<no value>` or an empty string where CAPI would have given it a value. Only
//!   the data holds it; the engine never makes one.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::limits::{FuncError, Limits, Meter};

/// A parsed semantic version, as Masterminds/semver v3's `*Version` (sprig's `semver`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Without the `-`.
    pub prerelease: String,
    /// Without the `+`.
    pub metadata: String,
    /// The text it was read from.
    pub original: String,
}

/// The element type of a list or a map, as Go names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// `interface {}`: what JSON data and most functions hold.
    Any,
    /// `string`: sprig's `splitList` (`[]string`) and `split` (`map[string]string`).
    String,
}

/// A value of a template, with its Go type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A key the map does not have (Go's invalid `reflect.Value`): prints `<no value>`.
    Missing,
    /// A nil `interface{}` (JSON `null`, the `nil` literal as an argument): prints `<nil>`.
    Nil,
    Bool(bool),
    /// Go's `int` (`len`, integer literals).
    Int(i64),
    /// Go's `uint64` (semver's `Major`, `Minor`, `Patch`).
    Uint(u64),
    /// Go's `float64`: every number of the data.
    Float(f64),
    String(Rc<str>),
    /// `[]interface{}` or `[]string`.
    List(Rc<Vec<Value>>, Elem),
    /// `map[string]interface{}` or `map[string]string`; Go's `fmt` and `range` visit the keys
    /// in sorted order, which the `BTreeMap` keeps.
    Map(Rc<BTreeMap<String, Value>>, Elem),
    /// `*semver.Version`.
    Version(Rc<Version>),
    /// A builtin variable only known once CAPI creates the objects: its dotted name
    /// (`builtin.controlPlane.name`). Any use of it is an error naming it.
    Unknown(Rc<str>),
}

impl Value {
    pub fn string(s: impl Into<Rc<str>>) -> Value {
        Value::String(s.into())
    }

    /// The Go type `fmt` names for it (`%T`, and in `%!verb(type=value)`).
    pub fn go_type(&self) -> &'static str {
        match self {
            Value::Missing | Value::Nil | Value::Unknown(_) => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint64",
            Value::Float(_) => "float64",
            Value::String(_) => "string",
            Value::List(_, Elem::Any) => "[]interface {}",
            Value::List(_, Elem::String) => "[]string",
            Value::Map(_, Elem::Any) => "map[string]interface {}",
            Value::Map(_, Elem::String) => "map[string]string",
            Value::Version(_) => "*semver.Version",
        }
    }

    /// The first [`Value::Unknown`] in it, searching lists and maps (in key order).
    pub fn unknown(&self) -> Option<&str> {
        match self {
            Value::Unknown(name) => Some(name),
            Value::List(items, _) => items.iter().find_map(Value::unknown),
            Value::Map(map, _) => map.values().find_map(Value::unknown),
            _ => None,
        }
    }

    /// The value of JSON data as Go holds it after `json.Unmarshal` into `interface{}`.
    pub fn from_json(data: &serde_json::Value) -> Value {
        match data {
            serde_json::Value::Null => Value::Nil,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Value::string(s.as_str()),
            serde_json::Value::Array(items) => Value::List(
                Rc::new(items.iter().map(Value::from_json).collect()),
                Elem::Any,
            ),
            serde_json::Value::Object(map) => Value::Map(
                Rc::new(
                    map.iter()
                        .map(|(k, v)| (k.clone(), Value::from_json(v)))
                        .collect(),
                ),
                Elem::Any,
            ),
        }
    }

    /// [`Value::from_json`], with [`Value::Unknown`] at each dotted path of `unknown`
    /// (`builtin.controlPlane.name`): the maps on the way are made when the data lacks them.
    pub fn from_json_with_unknown(data: &serde_json::Value, unknown: &[String]) -> Value {
        let mut value = Value::from_json(data);
        for path in unknown {
            let segments: Vec<&str> = path.split('.').collect();
            put_unknown(&mut value, &segments, path);
        }
        value
    }
}

/// A function a template may call (sprig's, and `fmt`'s `print`, `printf`, `println`): it
/// gets the render's limits and its evaluated arguments (never a [`Value::Unknown`]: the
/// engine refuses those first) and keeps [`Limits::string_bytes`] for every string it makes,
/// checking before it allocates.
pub type Func = fn(&Limits, &[Value]) -> Result<Value, FuncError>;

/// A [`Func`] whose work may grow faster than its arguments' length (sprig's regular
/// expression functions): it takes its steps from the [`Meter`] before it does the work.
pub type MeteredFunc = fn(&Limits, &mut Meter, &[Value]) -> Result<Value, FuncError>;

fn put_unknown(value: &mut Value, segments: &[&str], path: &str) {
    let Some((first, rest)) = segments.split_first() else {
        *value = Value::Unknown(Rc::from(path));
        return;
    };
    if !matches!(value, Value::Map(..)) {
        *value = Value::Map(Rc::new(BTreeMap::new()), Elem::Any);
    }
    if let Value::Map(map, _) = value {
        let child = Rc::make_mut(map)
            .entry((*first).to_string())
            .or_insert(Value::Missing);
        put_unknown(child, rest, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_builtins_are_placed_at_their_paths() {
        let v = Value::from_json_with_unknown(
            &json!({"builtin": {"controlPlane": {"replicas": 3}}}),
            &[
                "builtin.controlPlane.name".to_string(),
                "builtin.controlPlane.machineTemplate.infrastructureRef.name".to_string(),
            ],
        );
        let Value::Map(top, _) = &v else {
            panic!("a map")
        };
        let Value::Map(b, _) = &top["builtin"] else {
            panic!("a map")
        };
        let Value::Map(cp, _) = &b["controlPlane"] else {
            panic!("a map")
        };
        assert_eq!(cp["replicas"], Value::Float(3.0));
        assert_eq!(
            cp["name"],
            Value::Unknown(Rc::from("builtin.controlPlane.name"))
        );
        assert_eq!(
            v.unknown(),
            Some("builtin.controlPlane.machineTemplate.infrastructureRef.name"),
            "the first in key order"
        );
        assert_eq!(Value::from_json(&json!({"a": [1, null]})).unknown(), None);
    }

    #[test]
    fn go_types_are_named_as_fmt_names_them() {
        assert_eq!(Value::from_json(&json!(3)).go_type(), "float64");
        assert_eq!(Value::from_json(&json!([])).go_type(), "[]interface {}");
        assert_eq!(
            Value::from_json(&json!({})).go_type(),
            "map[string]interface {}"
        );
        assert_eq!(
            Value::List(Rc::new(vec![]), Elem::String).go_type(),
            "[]string"
        );
        assert_eq!(Value::Int(1).go_type(), "int");
    }
}
