//! The edit layer's oracle, shared by the `edit` fuzz target and the proptest in
//! `src/yaml/tests/prop_tests.rs` (which includes this file).
//!
//! It builds a random valid YAML document (block and flow collections, flow sequences over
//! several lines, comments, anchors, aliases, merge keys, explicit `? key` entries, block
//! scalars `|` `|-` `|+` `>` `>-`, quoted and plain scalars, LF / CRLF / CR line breaks)
//! together with a model of what it reads as, applies random edits (on paths that exist or
//! not; items appended to its sequences) both with `yaml::apply` and to the model, and checks:
//! `apply` returns an error, or its output parses and reads back (`to_json`) exactly as the
//! model says, everything else included. Where the model says the edits cannot be performed (a
//! path through an alias or a merge key, a missing key, two edits of one node, a duplicate key,
//! removing an anchor an alias still uses, an edit inside a list another edit replaces),
//! `apply` must return an error.
//! Whenever the safety net's lean reader (`read_simple`) answers on a text, it must read it
//! exactly as the full parser does, and its comparing form (`reads_simply_as`) must say yes
//! exactly then, and no for any other value.
//!
//! The includer provides a module `y` re-exporting the yaml layer's API.

use std::collections::HashSet;

use arbitrary::Arbitrary;
use serde_json::Value;

use super::y::{Edit, Seg, WriteStyle, apply, parse, read_simple, reads_simply_as};

/// The fuzz input: a document and the edits to apply to it.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    pub root: Vec<GEntry>,
    pub brk: Brk,
    pub final_break: bool,
    pub header: bool,
    pub wide: bool,
    pub edits: Vec<GEdit>,
    pub appends: Vec<GAppend>,
}

/// The line break the document is written with.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Brk {
    Lf,
    CrLf,
    Cr,
}

/// A mapping entry (as a sequence item, only `anchor`, `comment` and `value` count).
#[derive(Arbitrary, Debug, Clone)]
pub struct GEntry {
    pub key: u8,
    pub explicit: bool,
    pub anchor: bool,
    pub comment: bool,
    pub value: GNode,
}

/// A node; the tables below give the scalars.
#[derive(Arbitrary, Debug, Clone)]
pub enum GNode {
    Scalar(u8),
    Block(u8),
    Map(Vec<GEntry>),
    Seq(Vec<GEntry>, bool),
    FlowMap(Vec<(u8, u8, bool)>),
    /// Its items, and its layout: on one line (`layout % 3 == 0`), else over several lines
    /// (`[`, one item per line, `]` on a line of its own), with a trailing comma after the last
    /// item when `layout % 3 == 2`.
    FlowSeq(Vec<u8>, u8),
    Empty,
    EmptyMap,
    Alias(u8),
    /// As a block mapping entry's value: the entry is a merge key `<<` of anchored mappings.
    Merge(Vec<u8>),
}

/// An edit, on a path picked among the document's nodes (`target`).
#[derive(Arbitrary, Debug, Clone)]
pub enum GEdit {
    SetScalar {
        target: u16,
        value: u8,
        quoted: bool,
    },
    AddEntries {
        target: u16,
        keys: Vec<u8>,
        missing: Option<u8>,
    },
    RemoveEntry {
        target: u16,
        key: u8,
    },
    SetValue {
        target: u16,
        key: u8,
        yaml: u8,
    },
}

/// A string item appended to a sequence picked among the document's (`target`), placed at
/// `at` among the other edits. Left out when the document has no sequence.
#[derive(Arbitrary, Debug, Clone)]
pub struct GAppend {
    pub target: u16,
    pub value: u8,
    pub quoted: bool,
    pub at: u8,
}

/// (written, read) keys of generated entries.
const KEYS: &[(&str, &str)] = &[
    ("a", "a"),
    ("b", "b"),
    ("c", "c"),
    ("d", "d"),
    ("e", "e"),
    ("k f", "k f"),
    ("\"q\"", "q"),
    ("'s'", "s"),
    ("1", "1"),
    ("n-1", "n-1"),
];

/// Keys edits add (some exist in documents, some look like YAML syntax).
const NEW_KEYS: &[&str] = &[
    "new", "<<", "x y", "1", "~", "#h", "-", "k: v", "a", "true", "é", "? q", "&x", "*x", "",
];

/// (text, JSON) of scalars that are valid in block and flow context.
const SCALARS: &[(&str, &str)] = &[
    ("x", "\"x\""),
    ("12", "12"),
    ("true", "true"),
    ("~", "null"),
    ("'it''s'", "\"it's\""),
    ("\"a\\tb\"", "\"a\\tb\""),
    ("!!str 5", "\"5\""),
    ("a b", "\"a b\""),
    ("\"\"", "\"\""),
    ("'#not'", "\"#not\""),
    ("-1.5", "-1.5"),
    ("\"ü\"", "\"ü\""),
    ("null", "null"),
];

/// (header, content lines, value) of block scalars.
const BLOCKS: &[(&str, &[&str], &str)] = &[
    ("|", &["l1", "l2"], "l1\nl2\n"),
    ("|-", &["l1", " l2"], "l1\n l2"),
    ("|+", &["l1", ""], "l1\n\n"),
    (">", &["f1", "f2"], "f1 f2\n"),
    (">-", &["f1", "", "f2"], "f1\nf2"),
];

/// String values edits write (each reads back as a string however it is written).
const VALUES: &[&str] = &[
    "v",
    "two words",
    "a: b",
    "# x",
    "'q'",
    "\"dq\"",
    "multi\nline",
    "",
    " lead",
    "ü",
    "-",
    "- x",
    "*x",
    "&x",
    "!t",
    "|",
    "[x]",
    "{y}",
    "null",
    "12",
    "true",
    "<<",
    "tab\there",
];

/// YAML texts of SetValue.
const YAMLS: &[&str] = &[
    "p: 1\nq:\n- x\n",
    "'s'",
    "[1, 2]",
    "{a: b}",
    "~",
    "|\n  lit\n",
    "- a\n- b: c\n",
    "x # c\n",
];

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// A node of the model: what the document reads as, with identities for anchors.
#[derive(Debug, Clone)]
enum M {
    Scalar(Value),
    Map {
        entries: Vec<(String, usize)>,
        merge: Vec<usize>,
    },
    Seq(Vec<usize>),
    Alias(usize),
}

struct Gen {
    out: String,
    arena: Vec<M>,
    /// Anchored nodes whose text is complete: (name, id).
    anchors: Vec<(String, usize)>,
    /// Every node reachable without crossing an alias: its path and id.
    paths: Vec<(Vec<Seg>, usize)>,
    /// Whether the last node written is a block scalar (a text ending there keeps its break).
    last_block: bool,
    step: usize,
    depth: usize,
    anchor_count: usize,
}

impl Gen {
    fn node(&mut self, m: M, path: &[Seg]) -> usize {
        self.arena.push(m);
        let id = self.arena.len() - 1;
        self.paths.push((path.to_vec(), id));
        id
    }

    fn pad(n: usize) -> String {
        " ".repeat(n)
    }

    fn new_anchor(&mut self, flag: bool) -> Option<String> {
        if !flag {
            return None;
        }
        self.anchor_count += 1;
        Some(format!("an{}", self.anchor_count))
    }

    fn is_map(&self, id: usize) -> bool {
        match self.arena.get(id) {
            Some(M::Map { .. }) => true,
            Some(M::Alias(t)) => self.is_map(*t),
            _ => false,
        }
    }

    fn map_anchors(&self) -> Vec<(String, usize)> {
        self.anchors
            .iter()
            .filter(|(_, id)| self.is_map(*id))
            .cloned()
            .collect()
    }

    /// The entries that will be written: each key once, at most one merge (of anchored maps
    /// that exist), at most six.
    fn effective(&self, entries: &[GEntry]) -> Vec<GEntry> {
        let mut seen = HashSet::new();
        let mut merged = false;
        let maps = !self.map_anchors().is_empty();
        entries
            .iter()
            .filter(|e| match &e.value {
                GNode::Merge(refs) => {
                    let ok = !merged && maps && !refs.is_empty();
                    merged |= ok;
                    ok
                }
                _ => seen.insert(e.key as usize % KEYS.len()),
            })
            .take(6)
            .cloned()
            .collect()
    }

    /// Writes block mapping entries at column `col` (each on its own line).
    fn block_map(&mut self, entries: &[GEntry], col: usize, path: &[Seg]) -> usize {
        let mut model = Vec::new();
        let mut merge = Vec::new();
        let pad = Self::pad(col);
        for e in entries {
            if let GNode::Merge(refs) = &e.value {
                let maps = self.map_anchors();
                if maps.is_empty() {
                    continue;
                }
                let picked: Vec<(String, usize)> = refs
                    .iter()
                    .take(3)
                    .filter_map(|r| maps.get(*r as usize % maps.len()).cloned())
                    .collect();
                let names: Vec<String> = picked.iter().map(|(n, _)| format!("*{n}")).collect();
                if names.len() == 1 {
                    self.out.push_str(&format!("{pad}<<: {}\n", names.join("")));
                } else {
                    self.out
                        .push_str(&format!("{pad}<<: [{}]\n", names.join(", ")));
                }
                merge.extend(picked.iter().map(|(_, id)| *id));
                self.last_block = false;
                continue;
            }
            let (ktext, kjson) = KEYS[e.key as usize % KEYS.len()];
            let mut p = path.to_vec();
            p.push(Seg::Key(kjson.to_owned()));
            let id = if e.explicit {
                self.out.push_str(&format!("{pad}? {ktext}\n"));
                if matches!(e.value, GNode::Empty) && !e.anchor {
                    // a lone `? key`: null
                    self.last_block = false;
                    self.node(M::Scalar(Value::Null), &p)
                } else {
                    self.out.push_str(&format!("{pad}:"));
                    self.value(&e.value, col, e.anchor, e.comment, &p)
                }
            } else {
                self.out.push_str(&format!("{pad}{ktext}:"));
                self.value(&e.value, col, e.anchor, e.comment, &p)
            };
            model.push((kjson.to_owned(), id));
        }
        self.finish_map(model, merge, path)
    }

    fn finish_map(
        &mut self,
        entries: Vec<(String, usize)>,
        merge: Vec<usize>,
        path: &[Seg],
    ) -> usize {
        self.node(M::Map { entries, merge }, path)
    }

    /// Writes block sequence items at column `col`.
    fn block_seq(&mut self, items: &[GEntry], col: usize, path: &[Seg]) -> usize {
        let mut ids = Vec::new();
        for (i, it) in items.iter().take(5).enumerate() {
            let mut p = path.to_vec();
            p.push(Seg::Index(i));
            self.out.push_str(&Self::pad(col));
            let id = self.item(&it.value, col, it.anchor, it.comment, &p);
            ids.push(id);
        }
        self.node(M::Seq(ids), path)
    }

    /// Writes a sequence item after its `-` (at column `col`).
    fn item(&mut self, g: &GNode, col: usize, anchor: bool, comment: bool, path: &[Seg]) -> usize {
        self.depth += 1;
        let deep = self.depth > 4;
        let anchor = self.new_anchor(anchor && !matches!(g, GNode::Alias(_) | GNode::Merge(_)));
        let props = anchor
            .as_ref()
            .map(|a| format!(" &{a}"))
            .unwrap_or_default();
        let entries = match g {
            GNode::Map(e) if !deep => self.effective(e),
            _ => Vec::new(),
        };
        let id = match g {
            GNode::Map(_) if !entries.is_empty() => {
                if anchor.is_some() {
                    // properties before a compact mapping would belong to its first key
                    self.out.push_str(&format!("-{props}\n"));
                    self.block_map(&entries, col + 2, path)
                } else {
                    let saved = std::mem::take(&mut self.out);
                    let id = self.block_map(&entries, col + 2, path);
                    let text = std::mem::replace(&mut self.out, saved);
                    self.out.push('-');
                    self.out.push_str(text.get(col + 1..).unwrap_or(""));
                    id
                }
            }
            GNode::Seq(items, _) if !deep && !items.is_empty() => {
                if anchor.is_some() {
                    self.out.push_str(&format!("-{props}\n"));
                    self.block_seq(items, col + 2, path)
                } else {
                    let saved = std::mem::take(&mut self.out);
                    let id = self.block_seq(items, col + 2, path);
                    let text = std::mem::replace(&mut self.out, saved);
                    self.out.push('-');
                    self.out.push_str(text.get(col + 1..).unwrap_or(""));
                    id
                }
            }
            _ => {
                self.out.push('-');
                let id = self.leaf(g, col, &props, comment, path);
                self.depth -= 1;
                self.done(id, anchor);
                return id;
            }
        };
        self.depth -= 1;
        self.done(id, anchor);
        id
    }

    /// Writes a value after `key:` / `:` (the key at column `col`).
    fn value(&mut self, g: &GNode, col: usize, anchor: bool, comment: bool, path: &[Seg]) -> usize {
        self.depth += 1;
        let deep = self.depth > 4;
        let anchor = self.new_anchor(anchor && !matches!(g, GNode::Alias(_) | GNode::Merge(_)));
        let props = anchor
            .as_ref()
            .map(|a| format!(" &{a}"))
            .unwrap_or_default();
        let c = if comment { " # c" } else { "" };
        let entries = match g {
            GNode::Map(e) if !deep => self.effective(e),
            _ => Vec::new(),
        };
        let id = match g {
            GNode::Map(_) if !entries.is_empty() => {
                self.out.push_str(&format!("{props}{c}\n"));
                self.block_map(&entries, col + self.step, path)
            }
            GNode::Seq(items, indented) if !deep && !items.is_empty() => {
                self.out.push_str(&format!("{props}{c}\n"));
                let at = if *indented { col + self.step } else { col };
                self.block_seq(items, at, path)
            }
            _ => self.leaf(g, col, &props, comment, path),
        };
        self.depth -= 1;
        self.done(id, anchor);
        id
    }

    /// Writes a scalar-like node (after `-` or `:`), its block content at `col + step`.
    fn leaf(&mut self, g: &GNode, col: usize, props: &str, comment: bool, path: &[Seg]) -> usize {
        let c = if comment { " # c" } else { "" };
        match g {
            GNode::Block(i) => {
                let (header, lines, value) = BLOCKS[*i as usize % BLOCKS.len()];
                self.out.push_str(&format!("{props} {header}\n"));
                for l in lines.iter() {
                    if l.is_empty() {
                        self.out.push('\n');
                    } else {
                        self.out
                            .push_str(&format!("{}{l}\n", Self::pad(col + self.step)));
                    }
                }
                self.last_block = true;
                return self.node(M::Scalar(Value::from(value)), path);
            }
            GNode::Empty => {
                self.last_block = false;
                self.out.push_str(&format!("{props}{c}\n"));
                return self.node(M::Scalar(Value::Null), path);
            }
            GNode::FlowSeq(items, layout) if layout % 3 > 0 => {
                let trailing = layout % 3 == 2;
                self.last_block = false;
                let pad = Self::pad(col + self.step);
                let mut ids = Vec::new();
                let mut texts = Vec::new();
                for (i, s) in items.iter().take(4).enumerate() {
                    let (t, j) = SCALARS[*s as usize % SCALARS.len()];
                    let mut p = path.to_vec();
                    p.push(Seg::Index(i));
                    ids.push(self.node(M::Scalar(json(j)), &p));
                    texts.push(t);
                }
                self.out.push_str(&format!("{props} [{c}\n"));
                for (i, t) in texts.iter().enumerate() {
                    let comma = if i + 1 < texts.len() || trailing {
                        ","
                    } else {
                        ""
                    };
                    self.out.push_str(&format!("{pad}{t}{comma}{c}\n"));
                }
                self.out.push_str(&format!("{pad}]\n"));
                return self.node(M::Seq(ids), path);
            }
            _ => {}
        }
        self.last_block = false;
        let (text, m) = self.inline(g, path);
        self.out.push_str(&format!("{props} {text}{c}\n"));
        let id = self.arena.len();
        self.arena.push(m);
        self.paths.push((path.to_vec(), id));
        id
    }

    /// A node written on one line: its text and model (children are added to the arena).
    fn inline(&mut self, g: &GNode, path: &[Seg]) -> (String, M) {
        match g {
            GNode::Scalar(i) => {
                let (t, j) = SCALARS[*i as usize % SCALARS.len()];
                (t.to_owned(), M::Scalar(json(j)))
            }
            GNode::FlowMap(pairs) => {
                let mut seen = HashSet::new();
                let mut parts = Vec::new();
                let mut entries = Vec::new();
                for (k, s, anchor) in pairs.iter().take(4) {
                    let (ktext, kjson) = KEYS[*k as usize % KEYS.len()];
                    if !seen.insert(kjson) {
                        continue;
                    }
                    let (t, j) = SCALARS[*s as usize % SCALARS.len()];
                    let mut p = path.to_vec();
                    p.push(Seg::Key(kjson.to_owned()));
                    let anchor = self.new_anchor(*anchor);
                    let id = self.node(M::Scalar(json(j)), &p);
                    match &anchor {
                        Some(a) => parts.push(format!("{ktext}: &{a} {t}")),
                        None => parts.push(format!("{ktext}: {t}")),
                    }
                    self.done(id, anchor);
                    entries.push((kjson.to_owned(), id));
                }
                (
                    format!("{{{}}}", parts.join(", ")),
                    M::Map {
                        entries,
                        merge: Vec::new(),
                    },
                )
            }
            GNode::FlowSeq(items, _) => {
                let mut parts = Vec::new();
                let mut ids = Vec::new();
                for (i, s) in items.iter().take(4).enumerate() {
                    let (t, j) = SCALARS[*s as usize % SCALARS.len()];
                    let mut p = path.to_vec();
                    p.push(Seg::Index(i));
                    ids.push(self.node(M::Scalar(json(j)), &p));
                    parts.push(t.to_owned());
                }
                (format!("[{}]", parts.join(", ")), M::Seq(ids))
            }
            GNode::EmptyMap => (
                "{}".into(),
                M::Map {
                    entries: Vec::new(),
                    merge: Vec::new(),
                },
            ),
            GNode::Alias(i) if !self.anchors.is_empty() => {
                let (name, id) = self.anchors[*i as usize % self.anchors.len()].clone();
                (format!("*{name}"), M::Alias(id))
            }
            _ => ("~".into(), M::Scalar(Value::Null)),
        }
    }

    fn done(&mut self, id: usize, anchor: Option<String>) {
        if let Some(name) = anchor {
            self.anchors.push((name, id));
        }
    }
}

/// The generated document: its text, model and the nodes edits may aim at.
struct Doc {
    text: String,
    arena: Vec<M>,
    root: usize,
    paths: Vec<(Vec<Seg>, usize)>,
    /// The nodes that carry an anchor.
    anchored: HashSet<usize>,
}

fn generate(input: &Input) -> Doc {
    let mut g = Gen {
        out: String::new(),
        arena: Vec::new(),
        anchors: Vec::new(),
        paths: Vec::new(),
        last_block: false,
        step: if input.wide { 4 } else { 2 },
        depth: 0,
        anchor_count: 0,
    };
    if input.header {
        g.out.push_str("# head\n---\n");
    }
    let entries = g.effective(&input.root);
    let root = if entries.is_empty() {
        g.out.push_str("{}\n");
        g.finish_map(Vec::new(), Vec::new(), &[])
    } else {
        g.block_map(&entries, 0, &[])
    };
    let mut text = g.out.clone();
    if !input.final_break && !g.last_block {
        text.pop();
    }
    let brk = match input.brk {
        Brk::Lf => "\n",
        Brk::CrLf => "\r\n",
        Brk::Cr => "\r",
    };
    if brk != "\n" {
        text = text.replace('\n', brk);
    }
    Doc {
        text,
        anchored: g.anchors.iter().map(|(_, id)| *id).collect(),
        arena: g.arena,
        root,
        paths: g.paths,
    }
}

impl Doc {
    fn json(&self, id: usize, depth: usize) -> Value {
        if depth > 64 {
            return Value::Null;
        }
        match self.arena.get(id) {
            Some(M::Scalar(v)) => v.clone(),
            Some(M::Seq(items)) => {
                Value::Array(items.iter().map(|i| self.json(*i, depth + 1)).collect())
            }
            Some(M::Alias(t)) => self.json(*t, depth + 1),
            Some(M::Map { entries, merge }) => {
                let mut obj = serde_json::Map::new();
                for (k, v) in entries {
                    obj.insert(k.clone(), self.json(*v, depth + 1));
                }
                let own: HashSet<&String> = entries.iter().map(|(k, _)| k).collect();
                for m in merge {
                    if let Value::Object(src) = self.json(*m, depth + 1) {
                        for (k, v) in src {
                            if !own.contains(&k) && !obj.contains_key(&k) {
                                obj.insert(k, v);
                            }
                        }
                    }
                }
                Value::Object(obj)
            }
            None => Value::Null,
        }
    }

    fn resolved(&self, id: usize) -> usize {
        let mut id = id;
        for _ in 0..64 {
            match self.arena.get(id) {
                Some(M::Alias(t)) => id = *t,
                _ => break,
            }
        }
        id
    }

    /// The own entry `key` of map `id`.
    fn own(&self, id: usize, key: &str) -> Option<usize> {
        match self.arena.get(id) {
            Some(M::Map { entries, .. }) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| *v),
            _ => None,
        }
    }

    /// Whether the merge key of map `id` supplies `key`.
    fn merged(&self, id: usize, key: &str, depth: usize) -> bool {
        let Some(M::Map { merge, .. }) = self.arena.get(id) else {
            return false;
        };
        depth < 32
            && merge.iter().any(|m| {
                let m = self.resolved(*m);
                self.own(m, key).is_some() || self.merged(m, key, depth + 1)
            })
    }

    fn is_null_like(&self, id: usize) -> bool {
        match self.arena.get(id) {
            Some(M::Scalar(Value::Null)) => true,
            Some(M::Map { entries, merge }) => entries.is_empty() && merge.is_empty(),
            _ => false,
        }
    }

    /// The ids along `path`; `Err(Some(parent ids))` when only the last key is missing.
    fn walk(&self, path: &[Seg]) -> Result<Vec<usize>, Option<Vec<usize>>> {
        let mut ids = vec![self.root];
        for (i, seg) in path.iter().enumerate() {
            let cur = *ids.last().unwrap_or(&self.root);
            let next = match (seg, self.arena.get(cur)) {
                (Seg::Key(k), Some(M::Map { .. })) => match self.own(cur, k) {
                    Some(v) => v,
                    None if self.merged(cur, k, 0) => return Err(None),
                    None if i + 1 == path.len() => return Err(Some(ids)),
                    None => return Err(None),
                },
                (Seg::Index(j), Some(M::Seq(items))) => match items.get(*j) {
                    Some(v) => *v,
                    None => return Err(None),
                },
                _ => return Err(None),
            };
            ids.push(next);
        }
        match self.arena.get(*ids.last().unwrap_or(&self.root)) {
            Some(M::Alias(_)) => Err(None),
            _ => Ok(ids),
        }
    }

    fn subtree(&self, id: usize, out: &mut HashSet<usize>) {
        if !out.insert(id) {
            return;
        }
        match self.arena.get(id) {
            Some(M::Map { entries, .. }) => entries.iter().for_each(|(_, v)| self.subtree(*v, out)),
            Some(M::Seq(items)) => items.iter().for_each(|v| self.subtree(*v, out)),
            _ => {}
        }
    }

    /// Every alias or merge reference under `id` (not through aliases): (referring node, target).
    fn references(&self, id: usize, out: &mut Vec<(usize, usize)>) {
        match self.arena.get(id) {
            Some(M::Alias(t)) => out.push((id, *t)),
            Some(M::Map { entries, merge }) => {
                out.extend(merge.iter().map(|m| (id, *m)));
                entries.iter().for_each(|(_, v)| self.references(*v, out));
            }
            Some(M::Seq(items)) => items.iter().for_each(|v| self.references(*v, out)),
            _ => {}
        }
    }

    fn kind(&self, id: usize) -> u8 {
        match self.arena.get(self.resolved(id)) {
            Some(M::Map { .. }) => 1,
            Some(M::Seq(_)) => 2,
            _ => 0,
        }
    }
}

/// A mapping created under a missing key: (parent, key, entries).
type Create = (usize, String, Vec<(String, String)>);

/// What an edit does to the model.
enum Effect {
    Scalar(usize, Value),
    Remove(usize, String),
    Add(usize, String, Value),
    Replace(usize, Value),
    Create(usize, String, Vec<(String, String)>),
    Append(usize, Value),
}

/// Applies `edits` (all relative to the root) to the model: the JSON the edited document must
/// read as, or why the edits must be refused.
fn model_apply(doc: &Doc, edits: &[Edit]) -> Result<Value, String> {
    let mut effects: Vec<(Effect, Vec<usize>, HashSet<usize>)> = Vec::new();
    for edit in edits {
        match edit {
            Edit::SetScalar { path, value, style } => {
                let ids = doc.walk(path).map_err(|_| "path")?;
                let id = *ids.last().unwrap_or(&doc.root);
                let Some(M::Scalar(old)) = doc.arena.get(id) else {
                    return Err("not a scalar".into());
                };
                // Keep writes a plain value over a plain one of the same core-schema type (only
                // plain scalars read as null, booleans or numbers here)
                let typed: Value = serde_json::from_str(value).unwrap_or(Value::Null);
                let same_type = match (old, &typed) {
                    (Value::Null, Value::Null) | (Value::Bool(_), Value::Bool(_)) => true,
                    (Value::Number(a), Value::Number(b)) => a.is_f64() == b.is_f64(),
                    _ => false,
                };
                let new = if *style == WriteStyle::Keep
                    && same_type
                    && matches!(value.as_str(), "null" | "true" | "12")
                {
                    typed
                } else {
                    Value::from(value.as_str())
                };
                effects.push((Effect::Scalar(id, new), ids, HashSet::from([id])));
            }
            Edit::RemoveEntry { path, key } => {
                let ids = doc.walk(path).map_err(|_| "path")?;
                let id = *ids.last().unwrap_or(&doc.root);
                let child = doc.own(id, key).ok_or("no such key")?;
                if doc.merged(id, key, 0) {
                    return Err("merged too".into());
                }
                let mut gone = HashSet::new();
                doc.subtree(child, &mut gone);
                effects.push((Effect::Remove(id, key.clone()), ids, gone));
            }
            Edit::AddEntries { path, entries } => {
                let mut seen = HashSet::new();
                if entries.iter().any(|(k, _)| !seen.insert(k)) {
                    return Err("duplicate".into());
                }
                if entries.is_empty() {
                    continue;
                }
                match doc.walk(path) {
                    Ok(ids) => {
                        let id = *ids.last().unwrap_or(&doc.root);
                        if !matches!(doc.arena.get(id), Some(M::Map { .. }))
                            && !doc.is_null_like(id)
                        {
                            return Err("not a mapping".into());
                        }
                        for (k, v) in entries {
                            effects.push((
                                Effect::Add(id, k.clone(), Value::from(v.as_str())),
                                ids.clone(),
                                HashSet::new(),
                            ));
                        }
                    }
                    Err(Some(ids)) => {
                        let id = *ids.last().unwrap_or(&doc.root);
                        let Some(Seg::Key(key)) = path.last() else {
                            return Err("path".into());
                        };
                        effects.push((
                            Effect::Create(id, key.clone(), entries.clone()),
                            ids,
                            HashSet::new(),
                        ));
                    }
                    Err(None) => return Err("path".into()),
                }
            }
            Edit::SetValue { path, key, yaml } => {
                let ids = doc.walk(path).map_err(|_| "path")?;
                let id = *ids.last().unwrap_or(&doc.root);
                let new = parse(yaml)
                    .ok()
                    .and_then(|d| d.first().map(|d| d.root.to_json()))
                    .ok_or("yaml")?;
                match doc.own(id, key) {
                    Some(child) => {
                        if matches!(doc.arena.get(child), Some(M::Alias(_))) {
                            return Err("alias".into());
                        }
                        let new_kind = match &new {
                            Value::Object(_) => 1,
                            Value::Array(_) => 2,
                            _ => 0,
                        };
                        if doc.anchored.contains(&child) && doc.kind(child) == 1 && new_kind != 1 {
                            return Err("anchored mapping becomes another kind".into());
                        }
                        let mut gone = HashSet::new();
                        doc.subtree(child, &mut gone);
                        let mut on = ids.clone();
                        on.push(child);
                        effects.push((Effect::Replace(child, new), on, gone));
                    }
                    None if doc.merged(id, key, 0) => return Err("merged".into()),
                    None if matches!(doc.arena.get(id), Some(M::Map { .. }))
                        || doc.is_null_like(id) =>
                    {
                        effects.push((Effect::Add(id, key.clone(), new), ids, HashSet::new()));
                    }
                    None => return Err("not a mapping".into()),
                }
            }
            Edit::AppendItem { path, value, .. } => {
                let ids = doc.walk(path).map_err(|_| "path")?;
                let id = *ids.last().unwrap_or(&doc.root);
                if !matches!(doc.arena.get(id), Some(M::Seq(_))) {
                    return Err("not a sequence".into());
                }
                // whatever its style, the new item reads as the string
                let item = Value::from(value.as_str());
                effects.push((Effect::Append(id, item), ids, HashSet::new()));
            }
        }
    }
    // no edit may reach into what another one destroys
    for (i, (_, on, _)) in effects.iter().enumerate() {
        for (j, (_, _, gone)) in effects.iter().enumerate() {
            if i != j && on.iter().any(|id| gone.contains(id)) {
                return Err("overlap".into());
            }
        }
    }
    // no anchor an alias still uses may be removed (a replaced node keeps its own anchor)
    let mut refs = Vec::new();
    doc.references(doc.root, &mut refs);
    let mut destroyed = HashSet::new();
    for (e, _, gone) in &effects {
        match e {
            Effect::Remove(..) => destroyed.extend(gone.iter().copied()),
            Effect::Replace(id, _) | Effect::Scalar(id, _) => {
                destroyed.extend(gone.iter().copied().filter(|g| g != id));
            }
            _ => {}
        }
    }
    let mut all_gone = HashSet::new();
    for (_, _, gone) in &effects {
        all_gone.extend(gone.iter().copied());
    }
    for (from, to) in &refs {
        if destroyed.contains(to) && !all_gone.contains(from) {
            return Err("removes a used anchor".into());
        }
    }
    // perform: replacements, then per mapping its removals, then its additions in order, and
    // per sequence its appends in order
    let mut arena = doc.arena.clone();
    let mut removed: HashSet<(usize, String)> = HashSet::new();
    for (e, _, _) in &effects {
        match e {
            Effect::Scalar(id, v) | Effect::Replace(id, v) => arena[*id] = M::Scalar(v.clone()),
            Effect::Remove(id, key) => {
                if !removed.insert((*id, key.clone())) {
                    return Err("removed twice".into());
                }
                if let Some(M::Map { entries, .. }) = arena.get_mut(*id) {
                    entries.retain(|(k, _)| k != key);
                }
            }
            Effect::Append(id, v) => {
                arena.push(M::Scalar(v.clone()));
                let new = arena.len() - 1;
                if let Some(M::Seq(items)) = arena.get_mut(*id) {
                    items.push(new);
                }
            }
            _ => {}
        }
    }
    let mut creates: Vec<Create> = Vec::new();
    let mut adds: Vec<(usize, String, Value)> = Vec::new();
    for (e, _, _) in &effects {
        match e {
            Effect::Add(id, k, v) => adds.push((*id, k.clone(), v.clone())),
            Effect::Create(id, k, list) => {
                match creates.iter_mut().find(|(i, key, _)| i == id && key == k) {
                    Some((_, _, l)) => l.extend(list.iter().cloned()),
                    None => {
                        creates.push((*id, k.clone(), list.clone()));
                        adds.push((*id, k.clone(), Value::Null));
                    }
                }
            }
            _ => {}
        }
    }
    let mut added: HashSet<(usize, String)> = HashSet::new();
    for (id, k, v) in adds {
        let value = match creates.iter().find(|(i, key, _)| *i == id && *key == k) {
            Some((_, _, list)) => {
                let mut obj = serde_json::Map::new();
                for (ek, ev) in list {
                    if obj.insert(ek.clone(), Value::from(ev.as_str())).is_some() {
                        return Err("duplicate".into());
                    }
                }
                Value::Object(obj)
            }
            None => v,
        };
        if !added.insert((id, k.clone())) || doc.merged(id, &k, 0) {
            return Err("duplicate".into());
        }
        if doc.own(id, &k).is_some() && !removed.contains(&(id, k.clone())) {
            return Err("duplicate".into());
        }
        arena.push(M::Scalar(value));
        let new = arena.len() - 1;
        if !matches!(arena.get(id), Some(M::Map { .. })) {
            arena[id] = M::Map {
                entries: Vec::new(),
                merge: Vec::new(),
            };
        }
        if let Some(M::Map { entries, .. }) = arena.get_mut(id) {
            entries.push((k, new));
        }
    }
    let edited = Doc {
        text: String::new(),
        arena,
        root: doc.root,
        paths: Vec::new(),
        anchored: HashSet::new(),
    };
    Ok(edited.json(edited.root, 0))
}

fn pick<T: Copy>(table: &[T], i: impl Into<usize>) -> T {
    table[i.into() % table.len()]
}

/// Builds the edits of `input` on the paths of `doc`.
fn edits(input: &Input, doc: &Doc) -> Vec<Edit> {
    let path = |t: u16| -> Vec<Seg> {
        doc.paths
            .get(t as usize % doc.paths.len().max(1))
            .map(|(p, _)| p.clone())
            .unwrap_or_default()
    };
    let seqs: Vec<Vec<Seg>> = doc
        .paths
        .iter()
        .filter(|(_, id)| matches!(doc.arena.get(*id), Some(M::Seq(_))))
        .map(|(p, _)| p.clone())
        .collect();
    let mut edits: Vec<Edit> = input
        .edits
        .iter()
        .take(6)
        .map(|e| match e {
            GEdit::SetScalar {
                target,
                value,
                quoted,
            } => Edit::SetScalar {
                path: path(*target),
                value: pick(VALUES, *value).to_owned(),
                style: if *quoted {
                    WriteStyle::DoubleQuoted
                } else {
                    WriteStyle::Keep
                },
            },
            GEdit::AddEntries {
                target,
                keys,
                missing,
            } => {
                let mut p = path(*target);
                if let Some(m) = missing {
                    p.push(Seg::Key(pick(NEW_KEYS, *m).to_owned()));
                }
                Edit::AddEntries {
                    path: p,
                    entries: keys
                        .iter()
                        .take(4)
                        .enumerate()
                        .map(|(i, k)| {
                            (
                                pick(NEW_KEYS, *k).to_owned(),
                                pick(VALUES, i + *k as usize).to_owned(),
                            )
                        })
                        .collect(),
                }
            }
            GEdit::RemoveEntry { target, key } => Edit::RemoveEntry {
                path: path(*target),
                key: if *key as usize % (KEYS.len() + 1) == KEYS.len() {
                    "<<".to_owned()
                } else {
                    pick(KEYS, *key).1.to_owned()
                },
            },
            GEdit::SetValue { target, key, yaml } => Edit::SetValue {
                path: path(*target),
                key: pick(KEYS, *key).1.to_owned(),
                yaml: pick(YAMLS, *yaml).to_owned(),
            },
        })
        .collect();
    // appends need a sequence: where the document has none, they are left out (one there would
    // be refused by kind whatever the text, which the unit tests pin)
    if !seqs.is_empty() {
        for a in input.appends.iter().take(3) {
            let edit = Edit::AppendItem {
                path: seqs
                    .get(a.target as usize % seqs.len())
                    .cloned()
                    .unwrap_or_default(),
                value: pick(VALUES, a.value).to_owned(),
                style: if a.quoted {
                    WriteStyle::DoubleQuoted
                } else {
                    WriteStyle::Keep
                },
            };
            let at = a.at as usize % (edits.len() + 1);
            edits.insert(at, edit);
        }
    }
    edits
}

/// The oracle: panics (with the text, the edits and the output) when `apply` returns a text
/// that does not parse or does not read as the model says, or accepts edits the model refuses.
/// Returns how many edits `apply` performed (0 when it refused them).
pub fn check(input: &Input) -> usize {
    let doc = generate(input);
    let docs = match parse(&doc.text) {
        Ok(d) => d,
        Err(e) => panic!("generated text does not parse: {e}\n{:?}", doc.text),
    };
    let Some(first) = docs.first() else {
        panic!("no document in {:?}", doc.text);
    };
    let original = doc.json(doc.root, 0);
    assert_eq!(first.root.to_json(), original, "model of {:?}", doc.text);
    lean_agrees(&doc.text, &original);
    let edits = edits(input, &doc);
    // all the edits at once, then each alone (most random sets hold one refused edit)
    let mut applied = usize::from(check_edits(&doc, &first.root, &edits)) * edits.len();
    if edits.len() > 1 {
        for e in &edits {
            applied += usize::from(check_edits(&doc, &first.root, std::slice::from_ref(e)));
        }
    }
    applied
}

/// Applies `edits` with `apply` and to the model; panics when they disagree. Whether `apply`
/// performed them.
fn check_edits(doc: &Doc, root: &super::y::Node, edits: &[Edit]) -> bool {
    let expected = model_apply(doc, edits);
    let pairs: Vec<_> = edits.iter().map(|e| (root, e.clone())).collect();
    let Ok(out) = apply(&doc.text, &pairs) else {
        return false;
    };
    let expected = match expected {
        Ok(v) => v,
        Err(why) => panic!(
            "apply accepted edits the model refuses ({why}):\n{:?}\n{edits:?}\n=>\n{out:?}",
            doc.text
        ),
    };
    let again = match parse(&out) {
        Ok(d) => d,
        Err(e) => panic!(
            "output does not parse: {e}\n{:?}\n{edits:?}\n=>\n{out:?}",
            doc.text
        ),
    };
    assert_eq!(again.len(), 1, "{:?}\n{edits:?}\n=>\n{out:?}", doc.text);
    let got = again.first().map(|d| d.root.to_json()).unwrap_or_default();
    assert_eq!(
        got, expected,
        "read back differs:\n{:?}\n{edits:?}\n=>\n{out:?}",
        doc.text
    );
    lean_agrees(&out, &got);
    true
}

/// Panics when the lean reader answers on `text` (one document reading as `full`) with
/// anything but `full`.
/// The comparing form (`reads_simply_as`) says yes exactly when the lean reader reads `full`,
/// and never for a value that differs from it.
fn lean_agrees(text: &str, full: &Value) {
    let lean = read_simple(text);
    if let Some(lean) = &lean {
        assert_eq!(lean, full, "the lean reader differs on {text:?}");
    }
    assert_eq!(
        reads_simply_as(text, full),
        lean.is_some(),
        "the comparing reader and the lean reader disagree on {text:?}"
    );
    let mut other = full.clone();
    let differs = match &mut other {
        Value::Object(m) => m.insert("\u{1}not written".into(), Value::Null).is_none(),
        Value::Array(a) => {
            a.push(Value::Null);
            true
        }
        Value::String(s) => {
            s.push('\u{1}');
            true
        }
        v => {
            *v = Value::String("\u{1}".into());
            true
        }
    };
    if differs {
        assert!(
            !reads_simply_as(text, &other),
            "{text:?} reads as {other:?}"
        );
    }
    if let Value::Object(m) = &mut other
        && differs
        && m.len() > 2
    {
        // the same entries in another order: the same value
        m.shift_remove("\u{1}not written");
        *m = m
            .iter()
            .rev()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(reads_simply_as(text, &other), lean.is_some(), "{text:?}");
    }
}
