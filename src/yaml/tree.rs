//! The positioned YAML tree produced by [`crate::yaml::parse`] and its read accessors.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use super::scalar::{PlainType, plain_type, resolve_plain};

/// Mappings with more entries than this get a hash index; smaller ones are scanned
/// (a bounded scan of at most this many keys is cheaper than hashing).
pub(crate) const INDEX_THRESHOLD: usize = 8;

/// One document of a YAML stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document's root node (an empty document has an empty plain scalar, read as null).
    pub root: Node,
    /// Byte range of the document: from its `---` marker (or its root's first byte when the
    /// start is implicit) to the end of its `...` marker (or its root's last byte).
    pub span: Range<usize>,
    /// Whether the document uses an alias (`*name`) anywhere: then a part of it may read
    /// differently when another part changes.
    pub has_aliases: bool,
    /// Whether some node of the document was not built ([`NodeKind::Skipped`]): then its JSON
    /// is not the document's whole value (see [`crate::yaml::parse_items`]).
    pub skipped: bool,
}

/// A node of the tree, with the byte range of its own source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte offsets (into the parsed text) of the node's own content, trimmed to the real token:
    /// - plain and quoted scalars: the token itself, quotes included, anchor and tag excluded;
    /// - block scalars (`|`, `>`): from the indicator to the end of the last content line
    ///   (line break excluded), or, for keep chomping (`|+`), through the kept blank lines
    ///   (the span then ends at the start of the following line);
    /// - an empty value (`key:`, `- `): an empty span right after the `:` / `-` (or after the
    ///   anchor / tag written there);
    /// - block mappings: first key to the end of the last value; block sequences: first `-`
    ///   to the end of the last item; flow collections: bracket to bracket;
    /// - an alias: the `*name` token.
    pub span: Range<usize>,
    /// What the node is.
    pub kind: NodeKind,
}

/// The kind of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A scalar.
    Scalar(Scalar),
    /// A mapping.
    Map(Mapping),
    /// A sequence.
    Seq(Sequence),
    /// An alias (`*name`): the anchored node it refers to, shared. Every read accessor of
    /// [`Node`] (`get`, `as_str`, `as_map`, `to_json`, ...) reads through it as if the anchored
    /// node were written here; edits whose path reaches or crosses an alias are refused.
    Alias(Arc<Node>),
    /// A node that was parsed (so it is valid YAML) but not built, because nothing reads it
    /// ([`crate::yaml::parse_items`]): only its span is known. It reads as nothing: not a
    /// scalar, mapping or sequence, not null, and `null` as JSON.
    Skipped(Skipped),
}

/// What is kept of a node that was not built ([`NodeKind::Skipped`]): what the edit layer's
/// search for the document's indentation step would have read in it, so that edits elsewhere
/// are written the same as when it is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// For a non-empty block mapping: where its first key starts.
    pub(crate) first_key: Option<usize>,
    /// The indentation step found inside the node ([`find_step`]), if any.
    pub(crate) step: Option<usize>,
    /// How many nodes that search visits in it (its budget), at most `u32::MAX`: a search
    /// gives up on it all the same, its budget being far smaller (32 bits keep a node small).
    pub(crate) visits: u32,
    /// Whether it is a whole item that a reader read as soon as it was built, and kept nothing
    /// else of ([`crate::yaml::parse_items_taking`]): always a block or flow mapping.
    pub(crate) taken: bool,
}

impl Skipped {
    /// What is kept of `node` once it is not built.
    pub(crate) fn of(text: &str, node: &Node) -> Skipped {
        let first_key = match &node.kind {
            NodeKind::Map(m) if !m.flow => m.entries.first().map(|(k, _)| k.span.start),
            _ => None,
        };
        let mut budget = usize::MAX;
        let step = find_step(text, node, &mut budget);
        Skipped {
            first_key,
            step,
            visits: u32::try_from(usize::MAX - budget).unwrap_or(u32::MAX),
            taken: false,
        }
    }
}

/// The indentation step of the first nested block mapping under `node` (the column of its
/// first key less its parent key's, when it starts on a later line), visiting at most
/// `budget` nodes.
///
/// A skipped node answers for its content as recorded. When the budget runs out inside it
/// this gives up there (`None`), where a built node could still have been answered by a
/// shallower mapping after the budget ran out: an item of more than 2,000 nodes before its
/// skipped part, with no nested block mapping among them, could get the default step.
pub(crate) fn find_step(text: &str, node: &Node, budget: &mut usize) -> Option<usize> {
    use super::text::{column, line_start};
    if *budget == 0 {
        return None;
    }
    if let NodeKind::Skipped(s) = &node.kind {
        let visits = s.visits as usize;
        if visits > *budget {
            *budget = 0;
            return None;
        }
        *budget -= visits;
        return s.step;
    }
    *budget -= 1;
    match &node.kind {
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                let first = match &v.kind {
                    NodeKind::Map(child) if !child.flow => {
                        child.entries.first().map(|(ck, _)| ck.span.start)
                    }
                    NodeKind::Skipped(s) => s.first_key,
                    _ => None,
                };
                if let Some(ck) = first {
                    let (pc, cc) = (column(text, k.span.start), column(text, ck));
                    if cc > pc
                        && line_start(text.as_bytes(), ck)
                            != line_start(text.as_bytes(), k.span.start)
                    {
                        return Some(cc - pc);
                    }
                }
                if let Some(s) = find_step(text, v, budget) {
                    return Some(s);
                }
            }
            None
        }
        NodeKind::Seq(s) => s.items.iter().find_map(|i| find_step(text, i, budget)),
        _ => None,
    }
}

/// The presentation style of a scalar in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// Unquoted.
    Plain,
    /// `'single quoted'`.
    SingleQuoted,
    /// `"double quoted"`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
}

/// A scalar with its decoded value.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    /// The value after unescaping and folding (an empty plain value is `""`). An `Arc`, so
    /// that a reader can keep it when the tree is dropped ([`Node::as_shared_str`]).
    pub value: Arc<str>,
    /// How it was written.
    pub style: ScalarStyle,
    /// The resolved explicit tag, if any: `tag:yaml.org,2002:str` for `!!str`, `!foo` for a
    /// local tag.
    pub tag: Option<Box<str>>,
}

/// A mapping; keys are kept in source order and indexed by their string text.
///
/// Merge keys are honoured when reading: an entry `<<: *base` (or `<<: [*a, *b]`, or an inline
/// mapping) merges the entries of the referenced mappings; keys written in this mapping win,
/// and among a list the earlier mapping wins. The `<<` entry stays in `entries` as written, but
/// [`Mapping::position`] never finds it, [`Mapping::get`] reads merged keys, and
/// [`Node::to_json`] shows the merged keys (never `<<` itself).
///
/// `entries` is public for reading; a mapping built or changed by hand has no (or a stale)
/// index, so [`Mapping::get`] is only guaranteed for mappings produced by [`crate::yaml::parse`].
#[derive(Debug, Clone, Default)]
pub struct Mapping {
    /// The entries in source order (a merge key `<<` included, as written).
    pub entries: Vec<(Node, Node)>,
    /// Whether it is written in flow style (`{a: 1}`).
    pub flow: bool,
    /// Boxed, and the merge position 32-bit, to keep every mapping small: most have neither
    /// (a `HashMap` is 48 bytes, a box 8).
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<String, usize>>>,
    merge: Option<u32>,
}

impl PartialEq for Mapping {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries && self.flow == other.flow
    }
}

/// A sequence.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sequence {
    /// The items in source order.
    pub items: Vec<Node>,
    /// Whether it is written in flow style (`[a, b]`).
    pub flow: bool,
}

/// One step of a path: a mapping key or a sequence index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A mapping key (compared with the key's string text).
    Key(String),
    /// A sequence index (0-based).
    Index(usize),
}

impl Seg {
    /// Shorthand for [`Seg::Key`].
    pub fn key(k: impl Into<String>) -> Seg {
        Seg::Key(k.into())
    }
}

/// Formats a path as `spec.items[3].name` (the empty path is `.`); a key that is not a plain
/// word is written in brackets, as [`path_key`] says: `metadata.labels.[app.kubernetes.io/name]`.
pub fn path_to_string(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&path_key(k));
            }
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// Reads a path written by [`path_to_string`] back into its segments: `.`-separated keys, a
/// `[N]` right after a segment an index, a `[key]` after a `.` (or first) one key however it is
/// spelt. `None` for text [`path_to_string`] does not write (an unclosed bracket, an empty
/// key); `.` is the empty path.
pub fn parse_path(text: &str) -> Option<Vec<Seg>> {
    if text == "." {
        return Some(Vec::new());
    }
    let mut path = Vec::new();
    let mut rest = text;
    // whether a segment was just read, so that `[` starts an index rather than a key
    let mut after_segment = false;
    while !rest.is_empty() {
        if after_segment {
            if let Some(r) = rest.strip_prefix('.') {
                rest = r;
                after_segment = false;
                continue;
            }
            let r = rest.strip_prefix('[')?;
            let close = r.find(']')?;
            path.push(Seg::Index(r[..close].parse().ok()?));
            rest = &r[close + 1..];
            continue;
        }
        if let Some(r) = rest.strip_prefix('[') {
            // a bracketed key runs to the `]` that ends the segment (a key may hold `]`)
            let close = r
                .match_indices(']')
                .map(|(i, _)| i)
                .find(|&i| matches!(r.as_bytes().get(i + 1), None | Some(b'.' | b'[')))?;
            path.push(Seg::Key(r[..close].to_string()));
            rest = &r[close + 1..];
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            path.push(Seg::Key(rest[..end].to_string()));
            rest = &rest[end..];
        }
        after_segment = true;
    }
    (after_segment || path.is_empty()).then_some(path)
}

/// One mapping key as a segment of a dotted field path (`field.path` of a KRM result).
///
/// A key made only of ASCII letters, digits, `-` and `_` is written as it is; any other key
/// (one with a `.` or `/`, such as a label, annotation or host name, or an empty key) is written
/// in brackets, `[config.kubernetes.io/local-config]`, as kustomize's kyaml path syntax reads it
/// (its `SmarterPathSplitter`: a bracketed segment without `=` is one mapping key), so that
/// `metadata.annotations.[ipreuse.dev/ip.pool]` says where one key ends.
pub fn path_key(key: &str) -> std::borrow::Cow<'_, str> {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plain {
        std::borrow::Cow::Borrowed(key)
    } else {
        std::borrow::Cow::Owned(format!("[{key}]"))
    }
}

impl fmt::Display for Seg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seg::Key(k) => f.write_str(k),
            Seg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

impl Mapping {
    /// Whether the mapping has a merge key (`<<`) whose entries it reads.
    pub fn has_merge(&self) -> bool {
        self.merge.is_some()
    }

    /// Builds a mapping from its entries and, for mappings of more than [`INDEX_THRESHOLD`]
    /// entries, the index of their key texts.
    /// `merge` is the position of the merge key entry (`<<`), if any.
    pub(crate) fn new(
        entries: Vec<(Node, Node)>,
        flow: bool,
        index: Option<HashMap<String, usize>>,
        merge: Option<usize>,
    ) -> Mapping {
        Mapping {
            entries,
            flow,
            index: index.map(Box::new),
            // A mapping of 2^32 entries would need far more than the input size limit.
            merge: merge.and_then(|m| u32::try_from(m).ok()),
        }
    }

    /// The position of the entry written in this mapping whose key text is `key` (hash lookup
    /// for large mappings). Never the merge key entry `<<`, and never a key that only comes
    /// from a merge (see [`Mapping::get`]).
    pub fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(map) => map.get(key).copied(),
            None => self.entries.iter().enumerate().position(|(i, (k, _))| {
                Some(i) != self.merge_position() && k.as_scalar().is_some_and(|s| &*s.value == key)
            }),
        }
    }

    /// The value of `key`: the entry written in this mapping, else the value a merge key
    /// (`<<`) supplies.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self.position(key).and_then(|i| self.entries.get(i)) {
            Some((_, v)) => Some(v),
            None if self.merge.is_some() => self.merged(key),
            None => None,
        }
    }

    /// The value the merge key (`<<`) of this mapping supplies for `key`, ignoring the entries
    /// written here (the first merged mapping that has it wins).
    pub fn merged(&self, key: &str) -> Option<&Node> {
        self.merge_sources().find_map(|m| m.get(key))
    }

    /// The position of the merge key entry (`<<`), if the mapping has one.
    pub fn merge_position(&self) -> Option<usize> {
        self.merge.map(|m| m as usize)
    }

    /// The mappings the merge key (`<<`) refers to, in precedence order (none without one).
    pub fn merge_sources(&self) -> impl Iterator<Item = &Mapping> {
        let value = self
            .merge_position()
            .and_then(|i| self.entries.get(i))
            .map(|(_, v)| v.resolved());
        let (single, list) = match value.map(|v| &v.kind) {
            Some(NodeKind::Map(m)) => (Some(m), None),
            Some(NodeKind::Seq(s)) => (None, Some(s.items.iter())),
            _ => (None, None),
        };
        single
            .into_iter()
            .chain(list.into_iter().flatten().filter_map(Node::as_map))
    }

    /// Number of entries written (a merge key entry counts as one).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the mapping has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Node {
    /// The node itself, or the anchored node for an alias (followed through alias chains).
    pub fn resolved(&self) -> &Node {
        let mut node = self;
        while let NodeKind::Alias(target) = &node.kind {
            node = target;
        }
        node
    }

    /// Whether this node is an item that a reader took whole as it was built
    /// ([`crate::yaml::parse_items_taking`]): a mapping of which only the span is kept.
    pub fn is_taken(&self) -> bool {
        matches!(&self.kind, NodeKind::Skipped(s) if s.taken)
    }

    /// Whether this node or one under it was not built ([`NodeKind::Skipped`]).
    pub fn contains_skipped(&self) -> bool {
        match &self.kind {
            NodeKind::Skipped(_) => true,
            NodeKind::Map(m) => m
                .entries
                .iter()
                .any(|(k, v)| k.contains_skipped() || v.contains_skipped()),
            NodeKind::Seq(s) => s.items.iter().any(Node::contains_skipped),
            NodeKind::Scalar(_) | NodeKind::Alias(_) => false,
        }
    }

    /// The scalar, if this node is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.resolved().kind {
            NodeKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The mapping, if this node is one.
    pub fn as_map(&self) -> Option<&Mapping> {
        match &self.resolved().kind {
            NodeKind::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The sequence, if this node is one.
    pub fn as_seq(&self) -> Option<&Sequence> {
        match &self.resolved().kind {
            NodeKind::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// The scalar's string value; `None` for a non-scalar or a null (see [`Node::is_null`]).
    pub fn as_str(&self) -> Option<&str> {
        let s = self.as_scalar()?;
        if is_null_scalar(s) {
            None
        } else {
            Some(&s.value)
        }
    }

    /// The scalar's text when [`Node::to_json`] reads it as that string and this can tell
    /// without building it: a quoted or block scalar, a plain one that is no null, boolean or
    /// number, or one tagged `!!str`. `None` for anything else, including scalars with another
    /// tag (read those through `to_json`).
    pub fn as_json_str(&self) -> Option<&str> {
        self.as_shared_str().map(|s| &**s)
    }

    /// [`Node::as_json_str`], as the tree's own string (see [`Scalar::value`]), for a reader
    /// that keeps it.
    pub fn as_shared_str(&self) -> Option<&Arc<str>> {
        let s = self.as_scalar()?;
        match s.tag.as_deref() {
            Some("tag:yaml.org,2002:str") => Some(&s.value),
            Some(_) => None,
            None if s.style != ScalarStyle::Plain => Some(&s.value),
            None => (plain_type(&s.value) == PlainType::Str).then_some(&s.value),
        }
    }

    /// Whether this is a null: a plain scalar `~`, `null`, `Null`, `NULL` or empty (untagged or
    /// tagged `!!null`).
    pub fn is_null(&self) -> bool {
        self.as_scalar().is_some_and(is_null_scalar)
    }

    /// The value under `key`, if this node is a mapping that has it (hash lookup).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?.get(key)
    }

    /// The item at `index`, if this node is a sequence that long.
    pub fn get_index(&self, index: usize) -> Option<&Node> {
        self.as_seq()?.items.get(index)
    }

    /// Where the deepest part of `path` that is written under this node starts (a byte
    /// offset): the key of a mapping entry, an item of a sequence, or this node when not even
    /// the first segment is there. A key a merge key (`<<`) supplies is found where its value is
    /// written. For a result about a field that is not written (an entry fill would add), the
    /// place it would be written in.
    pub fn path_start(&self, path: &[Seg]) -> usize {
        let mut node = self;
        let mut at = self.span.start;
        for seg in path {
            let next = match (seg, &node.resolved().kind) {
                (Seg::Key(k), NodeKind::Map(m)) => match m.position(k) {
                    Some(i) => m.entries.get(i).map(|(key, v)| (key.span.start, v)),
                    None => m.merged(k).map(|v| (v.span.start, v)),
                },
                (Seg::Index(i), NodeKind::Seq(s)) => s.items.get(*i).map(|v| (v.span.start, v)),
                _ => None,
            };
            let Some((start, value)) = next else { break };
            at = start;
            node = value;
        }
        at
    }

    /// Follows `path` from this node (through aliases).
    pub fn get_path(&self, path: &[Seg]) -> Option<&Node> {
        let mut node = self;
        for seg in path {
            node = match seg {
                Seg::Key(k) => node.get(k)?,
                Seg::Index(i) => node.get_index(*i)?,
            };
        }
        Some(node)
    }

    /// The JSON value of this node under the YAML 1.2 core schema: only plain scalars are
    /// resolved (null, booleans, integers incl. `0x`/`0o`, floats; a number JSON cannot hold,
    /// such as `.inf`, `.nan` or an integer beyond 64 bits, stays a string); quoted and block
    /// scalars are strings; a scalar tagged `!!str` is a string; mapping keys become their
    /// string text (a collection key becomes its JSON text). Aliases are read through, merge
    /// keys (`<<`) are honoured (see [`Mapping`]) and never appear themselves.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.resolved().kind {
            NodeKind::Scalar(s) => scalar_to_json(s),
            NodeKind::Seq(seq) => Value::Array(seq.items.iter().map(Node::to_json).collect()),
            NodeKind::Map(m) => map_to_json(m),
            // `resolved` never returns an alias; a skipped node is read by nobody.
            NodeKind::Alias(_) | NodeKind::Skipped(_) => Value::Null,
        }
    }

    /// The tree [`crate::yaml::parse`] builds from `value`'s JSON text (JSON is YAML), built
    /// without the text: strings are double-quoted scalars, numbers, booleans and null plain
    /// ones, arrays and objects flow collections. Spans are empty (there is no text): for a
    /// value made in memory (a ClusterClass's patched copy of a template), read by a
    /// [`crate::model::View`] as a parsed item is.
    pub fn from_json(value: &serde_json::Value) -> Node {
        use serde_json::Value;
        let scalar = |value: Arc<str>, style| {
            NodeKind::Scalar(Scalar {
                value,
                style,
                tag: None,
            })
        };
        let kind = match value {
            Value::Null => scalar(Arc::from("null"), ScalarStyle::Plain),
            Value::Bool(b) => scalar(
                Arc::from(if *b { "true" } else { "false" }),
                ScalarStyle::Plain,
            ),
            Value::Number(n) => scalar(Arc::from(n.to_string()), ScalarStyle::Plain),
            Value::String(s) => scalar(Arc::from(s.as_str()), ScalarStyle::DoubleQuoted),
            Value::Array(items) => NodeKind::Seq(Sequence {
                items: items.iter().map(Node::from_json).collect(),
                flow: true,
            }),
            Value::Object(map) => {
                let entries: Vec<(Node, Node)> = map
                    .iter()
                    .map(|(k, v)| {
                        let key = Node {
                            span: 0..0,
                            kind: scalar(Arc::from(k.as_str()), ScalarStyle::DoubleQuoted),
                        };
                        (key, Node::from_json(v))
                    })
                    .collect();
                let index = (entries.len() >= INDEX_THRESHOLD).then(|| {
                    map.keys()
                        .enumerate()
                        .map(|(i, k)| (k.clone(), i))
                        .collect::<HashMap<String, usize>>()
                });
                // a quoted `"<<"` is a key like any other, as in the parsed text
                NodeKind::Map(Mapping::new(entries, true, index, None))
            }
        };
        Node { span: 0..0, kind }
    }
}

/// A mapping key as a JSON object key: a scalar's value, else the key's JSON text.
fn json_key(k: &Node) -> String {
    match k.as_scalar() {
        Some(s) => s.value.to_string(),
        None => k.to_json().to_string(),
    }
}

/// The JSON object of a mapping with a merge key: its own entries in order, the merged keys
/// (that it does not write itself) at the place of the `<<` entry, earlier sources first.
fn merged_to_json(m: &Mapping) -> serde_json::Value {
    let own: std::collections::HashSet<String> = m
        .entries
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != m.merge_position())
        .map(|(_, (k, _))| json_key(k))
        .collect();
    let mut obj = serde_json::Map::new();
    for (i, (k, v)) in m.entries.iter().enumerate() {
        if Some(i) != m.merge_position() {
            obj.insert(json_key(k), v.to_json());
            continue;
        }
        for source in m.merge_sources() {
            if let serde_json::Value::Object(entries) = map_to_json(source) {
                for (key, value) in entries {
                    if !own.contains(&key) && !obj.contains_key(&key) {
                        obj.insert(key, value);
                    }
                }
            }
        }
    }
    serde_json::Value::Object(obj)
}

fn map_to_json(m: &Mapping) -> serde_json::Value {
    if m.merge.is_some() {
        return merged_to_json(m);
    }
    // Sized once: a map grown by doubling holds up to twice the room it uses.
    let mut obj = serde_json::Map::with_capacity(m.entries.len());
    for (k, v) in &m.entries {
        obj.insert(json_key(k), v.to_json());
    }
    serde_json::Value::Object(obj)
}

fn is_null_scalar(s: &Scalar) -> bool {
    match s.tag.as_deref() {
        Some("tag:yaml.org,2002:null") => true,
        Some(_) => false,
        None => {
            s.style == ScalarStyle::Plain
                && matches!(&*s.value, "" | "~" | "null" | "Null" | "NULL")
        }
    }
}

fn scalar_to_json(s: &Scalar) -> serde_json::Value {
    use serde_json::Value;
    match s.tag.as_deref() {
        Some("tag:yaml.org,2002:str") => return Value::String(s.value.to_string()),
        Some("tag:yaml.org,2002:null") => return Value::Null,
        _ => {}
    }
    if s.tag
        .as_deref()
        .is_some_and(|t| t.starts_with("tag:yaml.org,2002:"))
    {
        resolve_plain(&s.value)
    } else {
        untagged_scalar_json(&s.value, s.style)
    }
}

/// The JSON value of an untagged scalar: a plain one resolved under the core schema, any
/// other a string.
pub(crate) fn untagged_scalar_json(value: &str, style: ScalarStyle) -> serde_json::Value {
    if style == ScalarStyle::Plain {
        resolve_plain(value)
    } else {
        serde_json::Value::String(value.to_owned())
    }
}
#[cfg(test)]
mod size_tests {
    /// A tree holds one node per scalar and collection of the input, and each mapping entry is
    /// two of them: their size is most of a run's memory (BENCHMARKS.md).
    #[test]
    fn nodes_stay_small() {
        assert!(std::mem::size_of::<super::Node>() <= 64);
        assert!(std::mem::size_of::<(super::Node, super::Node)>() <= 128);
    }
}
