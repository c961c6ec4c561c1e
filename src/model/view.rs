//! [`View`]: an item's parsed YAML tree, read as its JSON value reads, without building that
//! value. It is the one way the model reads an item.
//!
//! An item's meaning is its JSON value under the YAML 1.2 core schema ([`Node::to_json`]):
//! aliases read through, merge keys (`<<`) honoured, mapping keys as their text. A reader
//! that built that value for every item would copy every string and mapping of the input once
//! more, only to read a few fields; a [`View`] answers the same questions from the tree itself,
//! borrowing its strings. Its API follows `serde_json::Value`'s (`get`, `as_str`, `as_u64`,
//! `is_null`, ...), and each answer is the one the JSON value would give: tests rebuild the
//! JSON value from a view's answers alone and compare it with [`Node::to_json`] for every
//! node of every example and test file, a table of tricky spellings and generated documents.
//!
//! Reading a scalar takes the tree's text when [`Node::as_json_str`] says it is a string
//! (most are), and otherwise that scalar's own [`Node::to_json`] (a null, boolean or number,
//! built without allocating; a rare string such as `.inf` or a custom-tagged one is the
//! scalar's own text): the core schema keeps its one implementation in the yaml layer.
//! Mappings are read in place; only a mapping with a merge key or a collection key (rare)
//! collects its entries, to resolve them as the JSON object would.
//!
//! The safety net ([`crate::verify`]) still compares JSON values: that is its job, an
//! independent reading of the output.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::{Number, Value};

use crate::yaml::{Mapping, Node, NodeKind};

/// A read-only view of a node of a parsed YAML tree that reads as its JSON value
/// ([`Node::to_json`]) reads. Copy it freely: it is a reference.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    node: &'a Node,
}

/// A scalar's JSON value, its string borrowed from the tree.
enum Leaf<'a> {
    Null,
    Bool(bool),
    Number(Number),
    Str(&'a str),
}

impl<'a> View<'a> {
    /// The view of `node` (an alias reads as the node it refers to, a node that was not built,
    /// [`NodeKind::Skipped`], as null).
    pub fn new(node: &'a Node) -> View<'a> {
        View { node }
    }

    /// The node viewed, as written (an alias is not followed): for its span.
    pub fn node(self) -> &'a Node {
        self.node
    }

    /// The value under `key`, if this is a mapping whose JSON object has it: the entry written
    /// here, else the one a merge key supplies (the first merged mapping that has it).
    pub fn get(self, key: &str) -> Option<View<'a>> {
        get_in(self.node.as_map()?, key)
    }

    /// The value at `path` (mapping keys), as [`crate::model::json::at`] reads the JSON value.
    pub fn at(self, path: &[&str]) -> Option<View<'a>> {
        path.iter().try_fold(self, |v, k| v.get(k))
    }

    /// The item at `index`, if this is a sequence that long.
    pub fn get_index(self, index: usize) -> Option<View<'a>> {
        self.node.get_index(index).map(View::new)
    }

    /// The items, if this is a sequence.
    pub fn as_seq(self) -> Option<impl ExactSizeIterator<Item = View<'a>> + 'a> {
        Some(self.node.as_seq()?.items.iter().map(View::new))
    }

    /// The entries of the JSON object, if this is a mapping: in its order, keys as it makes
    /// them (a scalar key's text, a collection key's JSON text), merge keys resolved.
    pub fn entries(self) -> Option<impl Iterator<Item = (Cow<'a, str>, View<'a>)> + 'a> {
        Some(entries_of(self.node.as_map()?))
    }

    /// The number of items of a sequence or entries of a mapping's JSON object; `None` for a
    /// scalar.
    pub fn len(self) -> Option<usize> {
        let node = self.node.resolved();
        match &node.kind {
            NodeKind::Seq(s) => Some(s.items.len()),
            NodeKind::Map(m) if reads_as_written(m) => Some(m.entries.len()),
            NodeKind::Map(m) => Some(collect_entries(m).len()),
            _ => None,
        }
    }

    /// Whether a sequence has no items or a mapping's JSON object no entries; `None` for a
    /// scalar.
    pub fn is_empty(self) -> Option<bool> {
        self.len().map(|n| n == 0)
    }

    /// Whether the JSON value is null (a null scalar, or a node that was not built).
    pub fn is_null(self) -> bool {
        matches!(self.leaf(), Some(Leaf::Null))
    }

    /// The string, if the JSON value is one; borrowed from the tree.
    pub fn as_str(self) -> Option<&'a str> {
        match self.leaf()? {
            Leaf::Str(s) => Some(s),
            _ => None,
        }
    }

    /// [`View::as_str`], as the tree's own shared string when the tree holds it as one
    /// ([`Node::as_shared_str`]): a reader that keeps the text shares it with every item that
    /// writes the same. `None` when the JSON value is no string, or is one the tree does not
    /// share (read it with [`View::as_str`]).
    pub fn as_shared_str(self) -> Option<&'a std::sync::Arc<str>> {
        self.node.resolved().as_shared_str()
    }

    /// The boolean, if the JSON value is one.
    pub fn as_bool(self) -> Option<bool> {
        match self.leaf()? {
            Leaf::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, if the JSON value is one that fits a `u64`.
    pub fn as_u64(self) -> Option<u64> {
        self.number()?.as_u64()
    }

    /// The number, if the JSON value is one that fits an `i64`.
    pub fn as_i64(self) -> Option<i64> {
        self.number()?.as_i64()
    }

    /// The number as a float, if the JSON value is a number.
    pub fn as_f64(self) -> Option<f64> {
        self.number()?.as_f64()
    }

    /// Whether the JSON value is a number.
    pub fn is_number(self) -> bool {
        self.number().is_some()
    }

    /// Whether the JSON value is a string.
    pub fn is_string(self) -> bool {
        self.as_str().is_some()
    }

    /// Whether the JSON value is an array (a sequence).
    pub fn is_array(self) -> bool {
        self.node.as_seq().is_some()
    }

    /// Whether the JSON value is an object (a mapping).
    pub fn is_object(self) -> bool {
        self.node.as_map().is_some()
    }

    /// A scalar as the text a person wrote, as [`crate::model::json::scalar_text`] gives it.
    pub fn scalar_text(self) -> Option<String> {
        match self.leaf()? {
            Leaf::Str(s) => Some(s.to_owned()),
            Leaf::Number(n) => Some(n.to_string()),
            Leaf::Bool(b) => Some(b.to_string()),
            Leaf::Null => None,
        }
    }

    /// The JSON text of the value, as `serde_json::Value` displays it: how messages show a
    /// value of the wrong kind.
    pub fn json_text(self) -> String {
        // writing the JSON value of a tree cannot fail: its keys are strings
        serde_json::to_string(&self).unwrap_or_default()
    }

    /// The JSON value of the node: for the few values the function keeps whole (a ClusterClass's
    /// variable values and patch values, the templates its patches apply to).
    pub fn to_value(self) -> Value {
        // writing the JSON value of a tree cannot fail: its keys are strings
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// `a list`, `the string "x"`, ... for messages, as [`crate::model::json::kind_of`] names
    /// the JSON value.
    pub fn kind_of(self) -> String {
        match self.leaf() {
            Some(Leaf::Null) => "null".into(),
            Some(Leaf::Bool(b)) => format!("the boolean {b}"),
            Some(Leaf::Number(n)) => format!("the number {n}"),
            Some(Leaf::Str(s)) => format!("the string {:?}", crate::names::short(s)),
            None if self.is_array() => "a list".into(),
            None => "a mapping".into(),
        }
    }

    /// A string → string map (labels, annotations), as [`crate::model::json::string_map`]
    /// reads a mapping: non-string values printed, collections and nulls as `""`; empty when
    /// this is no mapping.
    pub fn string_map(self) -> Vec<(String, String)> {
        match self.entries() {
            Some(entries) => entries
                .map(|(k, v)| (k.into_owned(), v.scalar_text().unwrap_or_default()))
                .collect(),
            None => Vec::new(),
        }
    }

    fn number(self) -> Option<Number> {
        match self.leaf()? {
            Leaf::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The JSON value of a scalar (or of a node that was not built: null); `None` for a
    /// collection.
    fn leaf(self) -> Option<Leaf<'a>> {
        let node = self.node.resolved();
        let NodeKind::Scalar(scalar) = &node.kind else {
            return matches!(node.kind, NodeKind::Skipped(_)).then_some(Leaf::Null);
        };
        if let Some(s) = node.as_json_str() {
            return Some(Leaf::Str(s));
        }
        Some(match node.to_json() {
            Value::Bool(b) => Leaf::Bool(b),
            Value::Number(n) => Leaf::Number(n),
            // a scalar's JSON string is always its own text
            Value::String(_) => Leaf::Str(&scalar.value),
            // a scalar never reads as a collection
            Value::Null | Value::Array(_) | Value::Object(_) => Leaf::Null,
        })
    }
}

/// Writes the JSON value ([`Node::to_json`]'s, byte for byte through `serde_json`).
impl serde::Serialize for View<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(items) = self.as_seq() {
            return serializer.collect_seq(items);
        }
        if let Some(entries) = self.entries() {
            return serializer.collect_map(entries);
        }
        match self.leaf() {
            Some(Leaf::Bool(b)) => serializer.serialize_bool(b),
            Some(Leaf::Number(n)) => n.serialize(serializer),
            Some(Leaf::Str(s)) => serializer.serialize_str(s),
            Some(Leaf::Null) | None => serializer.serialize_unit(),
        }
    }
}

/// Whether the JSON object of `m` is its entries as written: no merge key, and every key a
/// scalar (whose text is unique: the parser refuses duplicate keys).
fn reads_as_written(m: &Mapping) -> bool {
    !m.has_merge() && m.entries.iter().all(|(k, _)| k.as_scalar().is_some())
}

/// A mapping key as the JSON object's key: a scalar's text, else the key's JSON text.
fn key_of(key: &Node) -> Cow<'_, str> {
    match key.as_scalar() {
        Some(s) => Cow::Borrowed(&s.value),
        // writing a JSON value of strings, numbers, booleans and nulls into a string cannot fail
        None => Cow::Owned(serde_json::to_string(&View::new(key)).unwrap_or_default()),
    }
}

/// The value of `key` in the JSON object of `m`.
fn get_in<'a>(m: &'a Mapping, key: &str) -> Option<View<'a>> {
    // Only a collection key (or one not built) has a JSON text starting so: any other key is a
    // scalar key, unique in its mapping, that the mapping's own lookup finds (merges included).
    if key.starts_with(['[', '{']) || key == "null" {
        return entries_of(m).find(|(k, _)| k == key).map(|(_, v)| v);
    }
    m.get(key).map(View::new)
}

/// The entries of the JSON object of `m`, borrowed when it reads as written.
fn entries_of(m: &Mapping) -> Entries<'_> {
    if reads_as_written(m) {
        Entries::Written(m.entries.iter())
    } else {
        Entries::Collected(collect_entries(m).into_iter())
    }
}

/// The entries of the JSON object of `m` as [`Node::to_json`] inserts them: a later entry of a
/// key already there replaces its value in place; the merged keys, those not written in `m`,
/// at the place of the `<<` entry, earlier sources first.
fn collect_entries(m: &Mapping) -> Vec<(Cow<'_, str>, View<'_>)> {
    let merge = m.merge_position();
    let written = |(i, _): &(usize, &(Node, Node))| Some(*i) != merge;
    let own: HashSet<Cow<'_, str>> = m
        .entries
        .iter()
        .enumerate()
        .filter(written)
        .map(|(_, (k, _))| key_of(k))
        .collect();
    let mut out: Vec<(Cow<'_, str>, View<'_>)> = Vec::with_capacity(m.entries.len());
    let mut place: HashMap<Cow<'_, str>, usize> = HashMap::with_capacity(m.entries.len());
    for (i, (k, v)) in m.entries.iter().enumerate() {
        if Some(i) != merge {
            let key = key_of(k);
            match place.get(&key) {
                Some(&at) => {
                    if let Some(slot) = out.get_mut(at) {
                        slot.1 = View::new(v);
                    }
                }
                None => {
                    place.insert(key.clone(), out.len());
                    out.push((key, View::new(v)));
                }
            }
            continue;
        }
        for source in m.merge_sources() {
            for (key, value) in entries_of(source) {
                if !own.contains(&key) && !place.contains_key(&key) {
                    place.insert(key.clone(), out.len());
                    out.push((key, value));
                }
            }
        }
    }
    out
}

/// The iterator of [`View::entries`].
enum Entries<'a> {
    Written(std::slice::Iter<'a, (Node, Node)>),
    Collected(std::vec::IntoIter<(Cow<'a, str>, View<'a>)>),
}

impl<'a> Iterator for Entries<'a> {
    type Item = (Cow<'a, str>, View<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Written(it) => it.next().map(|(k, v)| (key_of(k), View::new(v))),
            Entries::Collected(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Entries::Written(it) => it.size_hint(),
            Entries::Collected(it) => it.size_hint(),
        }
    }
}

#[cfg(test)]
mod tests;

/// The parsed tree of a JSON value (JSON is YAML), for tests that write their items as
/// `json!` values and read them as a run does, through a [`View`].
#[cfg(test)]
pub(crate) fn node_of(value: &Value) -> Node {
    let mut docs = crate::yaml::parse(&value.to_string()).expect("JSON text is YAML");
    assert_eq!(docs.len(), 1, "one document");
    docs.remove(0).root
}
