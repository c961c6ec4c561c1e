//! Parsing a YAML stream into positioned [`Document`]s with `granit-parser`.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use granit_parser::{ErrorKind, Event, Parser, ScalarStyle as GStyle, Span, Tag};

use super::text::{break_len, line_col, line_end, line_start, next_line_start, skip_ws_back};
use crate::limits::{DEFAULT_MAX_ALIAS_NODES, MAX_NESTING};

use super::tree::{
    Document, INDEX_THRESHOLD, Mapping, Node, NodeKind, Scalar, ScalarStyle, Sequence, Skipped,
};

/// A YAML syntax error, or a document this layer refuses, with its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct YamlError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a YAML stream (any number of `---`-separated documents; BOM, CRLF and comments are
/// fine) into documents whose nodes carry byte spans into `text`.
///
/// Limits set on purpose: no limit on the number of nodes or documents (a 10,000-object list is
/// normal input); nesting depth [`MAX_NESTING`] (block and flow); keys at most 1024 characters
/// when written as implicit keys (YAML's own limit); a document may read as at most
/// max(1,000,000, 2 × its written nodes) nodes once aliases are expanded ("billion laughs"
/// guard; [`parse_limited`] sets another floor). Duplicate keys in one mapping are an error (a
/// key written in a mapping that also comes from its merge key `<<` is not a duplicate: the
/// written one wins). A merge key whose value is not a mapping or a sequence of mappings is an
/// error. CR, LF and CRLF are line breaks.
pub fn parse(text: &str) -> Result<Vec<Document>, YamlError> {
    parse_limited(text, DEFAULT_MAX_ALIAS_NODES)
}

/// [`parse`], with `max_alias_nodes` in place of 1,000,000 as the alias expansion floor.
pub fn parse_limited(text: &str, max_alias_nodes: u64) -> Result<Vec<Document>, YamlError> {
    parse_counting_anchors(text, max_alias_nodes).map(|(docs, _)| docs)
}

/// [`parse_limited`], also telling how many anchors (`&name`) the text defines.
pub(crate) fn parse_counting_anchors(
    text: &str,
    max_alias_nodes: u64,
) -> Result<(Vec<Document>, usize), YamlError> {
    build(text, None, max_alias_nodes, None).map(|b| (b.docs, b.anchors_defined))
}

/// What a reader of Kubernetes objects ("items") never reads, so that [`parse_items`] need not
/// build it.
#[derive(Debug, Clone, Copy)]
pub struct SkipRule {
    /// Whether the top-level field `key` of an item with this `apiVersion` and `kind` is never
    /// read (`apiVersion` and `kind` themselves are always read, whatever this says).
    pub field: fn(api_version: &str, kind: &str, key: &str) -> bool,
    /// The keys read of the top-level field `key` of an item with this `apiVersion` and
    /// `kind`, when only some are (`None`: the field is read whole, or skipped by `field`).
    /// The values of the field's other keys are not built, as if `field` named them.
    pub only: fn(api_version: &str, kind: &str, key: &str) -> Option<&'static [&'static str]>,
    /// Whether an object of this `apiVersion` and `kind` holds items in its `items` list (a
    /// ResourceList, a `List`); such an object is read whole.
    pub container: fn(api_version: &str, kind: &str) -> bool,
}

/// [`parse`], without building the nodes no one reads: the value of a top-level field of an
/// item that `rule.field` names becomes a [`NodeKind::Skipped`] node, which keeps only its
/// span, and so does the value of every key but those `rule.only` lists of a top-level field
/// whose value is a mapping. Every event is still parsed and checked as [`parse`] checks it
/// (syntax, duplicate keys, merge keys, nesting), so the same text fails with the same error,
/// and what is built is the same tree as [`parse`] builds.
///
/// The items are each document's root mapping, and the mappings in the `items` list of an
/// item that is a container (`rule.container`), at any depth of containers. A field is
/// skipped only when the item's `apiVersion` and `kind` are written, as strings, as entries of
/// the item before that field (they usually come first): when they come later, or only
/// through a merge key, nothing of the item is skipped, since which item it is is not known
/// yet. A merge key's value (`<<`) is never skipped. An alias (`*name`) anywhere in the text
/// makes it all be parsed again and built whole ([`parse`]): an alias may use an anchored node
/// from a skipped part, and whether one does is known only once the alias is read.
/// `max_alias_nodes` is the alias expansion floor, as for [`parse_limited`].
pub fn parse_items(
    text: &str,
    rule: &SkipRule,
    max_alias_nodes: u64,
) -> Result<Vec<Document>, YamlError> {
    parse_items_taking(text, rule, max_alias_nodes, &mut |_| false)
}

/// [`parse_items`], handing each item to `take` as soon as it is built (every mapping that is
/// an item, a container too once its own items are done, in the order they end; `take`
/// decides which it reads): when `take` answers `true` it has read all it
/// needs of the item, whose tree is then dropped at once and kept as a [`NodeKind::Skipped`]
/// node with `taken` set ([`Node::is_taken`]), its span and what the indentation step search
/// would read in it. A reader of thousands of objects that keeps only what it reads of each
/// thus never holds all their trees at once.
///
/// When the text is parsed again whole (an alias), nothing is taken: the items `take` read
/// before that are built again, and read as built.
pub fn parse_items_taking(
    text: &str,
    rule: &SkipRule,
    max_alias_nodes: u64,
    take: &mut dyn FnMut(&Node) -> bool,
) -> Result<Vec<Document>, YamlError> {
    let built = build(text, Some(rule), max_alias_nodes, Some(take))?;
    if built.restart {
        return parse_limited(text, max_alias_nodes);
    }
    Ok(built.docs)
}

fn build<'t>(
    text: &'t str,
    rule: Option<&'t SkipRule>,
    max_alias_nodes: u64,
    take: Option<&'t mut dyn FnMut(&Node) -> bool>,
) -> Result<Builder<'t>, YamlError> {
    let mut options = granit_parser::Options::default();
    options.set_emit_comments(false);
    options.flow_nesting_limit = MAX_NESTING;
    options.block_nesting_limit = MAX_NESTING;
    let parser = Parser::new_from_str_with_options(text, options);
    let mut builder = Builder {
        text,
        stack: Vec::new(),
        anchors: HashMap::new(),
        docs: Vec::new(),
        doc_start: None,
        root: None,
        written: 0,
        aliases: false,
        anchors_defined: 0,
        max_alias_nodes,
        rule,
        skipping: 0,
        skipped: false,
        restart: false,
        take,
    };
    for event in parser {
        let (event, span) = event.map_err(|e| YamlError {
            line: e.marker().line(),
            column: e.marker().col() + 1,
            message: match e.kind() {
                ErrorKind::RecursionLimitExceeded => format!(
                    "collections nested deeper than {MAX_NESTING} levels (a fixed limit; a Kubernetes object needs far fewer)"
                ),
                _ => e.info(),
            },
        })?;
        builder.event(event, span)?;
        if builder.restart {
            break;
        }
    }
    Ok(builder)
}

/// A node under construction with its expanded size (for the alias budget).
struct Built {
    node: Node,
    size: u64,
}

enum Frame {
    Map {
        flow: bool,
        open: Range<usize>,
        anchor: usize,
        entries: Vec<(Node, Node)>,
        index: Option<HashMap<String, usize>>,
        pending: Option<Node>,
        size: u64,
        /// For an item (see [`parse_items`]): its `apiVersion` and `kind` as read so far.
        item: Option<Box<ItemSeen>>,
        /// Whether the value of the pending key is not built.
        skip_value: bool,
        /// Whether this mapping is the value of a skipped field (collapsed once complete).
        skip_root: bool,
        /// For the value of an item's field that `rule.only` names: the keys whose values are
        /// built (a merge key's value is always built).
        keep: Option<&'static [&'static str]>,
    },
    Seq {
        flow: bool,
        open: Range<usize>,
        anchor: usize,
        items: Vec<Node>,
        size: u64,
        /// Whether this is the `items` list of a container: its mappings are items.
        of_items: bool,
        /// Whether this sequence is the value of a skipped field (collapsed once complete).
        skip_root: bool,
    },
}

/// What an item mapping has told of itself so far.
#[derive(Default)]
struct ItemSeen {
    api_version: Option<String>,
    kind: Option<String>,
}

struct Builder<'t> {
    text: &'t str,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Arc<Node>, u64)>,
    docs: Vec<Document>,
    doc_start: Option<usize>,
    root: Option<Built>,
    written: u64,
    /// Whether the current document has used an alias.
    aliases: bool,
    anchors_defined: usize,
    /// The alias expansion floor (see [`parse`]).
    max_alias_nodes: u64,
    /// What need not be built ([`parse_items`]); `None`: build everything.
    rule: Option<&'t SkipRule>,
    /// How many collections are open inside the value of a skipped field.
    skipping: usize,
    /// Whether the current document has a skipped node.
    skipped: bool,
    /// An alias was read while skipping: the text must be parsed again, whole.
    restart: bool,
    /// Who reads items as they are built ([`parse_items_taking`]).
    take: Option<&'t mut dyn FnMut(&Node) -> bool>,
}

fn range(span: &Span) -> Range<usize> {
    span.byte_range().unwrap_or(0..0)
}

impl Builder<'_> {
    fn error_at(&self, byte: usize, message: String) -> YamlError {
        let (line, column) = line_col(self.text, byte);
        YamlError {
            line,
            column,
            message,
        }
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), YamlError> {
        let r = range(&span);
        match event {
            Event::DocumentStart(explicit, _) => {
                self.doc_start = if explicit { Some(r.start) } else { None };
                self.root = None;
            }
            Event::DocumentEnd => {
                let Some(built) = self.root.take() else {
                    return Ok(());
                };
                let limit = self.max_alias_nodes.max(self.written.saturating_mul(2));
                if built.size > limit {
                    return Err(self.error_at(
                        built.node.span.start,
                        format!(
                            "the document starting here reads as more than {limit} nodes once its aliases are expanded (raise the limit with --max-alias-nodes or IPREUSE_MAX_ALIAS_NODES)"
                        ),
                    ));
                }
                let start = self.doc_start.unwrap_or(built.node.span.start);
                let end = if r.end > r.start {
                    r.end
                } else {
                    built.node.span.end
                };
                self.docs.push(Document {
                    root: built.node,
                    span: start..end.max(start),
                    has_aliases: self.aliases,
                    skipped: self.skipped,
                });
                self.aliases = false;
                self.skipped = false;
                self.anchors.clear();
                self.written = 0;
            }
            Event::Scalar(value, style, anchor, tag) => {
                self.written += 1;
                let node = if self.value_not_built() {
                    // Only its span (keys inside a skipped part are built, for the duplicate
                    // and merge key checks). The indentation step search visits it as one node.
                    self.skipped = true;
                    Node {
                        span: self.scalar_span(style, &span).1,
                        kind: NodeKind::Skipped(Skipped {
                            first_key: None,
                            step: None,
                            visits: 1,
                            taken: false,
                        }),
                    }
                } else {
                    self.scalar(&value, style, tag.as_deref(), &span)?
                };
                self.finish(node, 1, anchor)?;
            }
            Event::MappingStart(style, anchor, _) => {
                self.written += 1;
                let skip_root = self.starts_skip();
                let item = (self.skipping == 0 && self.rule.is_some() && self.at_item())
                    .then(Box::default);
                let keep = if self.skipping == 0 {
                    self.only_keys()
                } else {
                    None
                };
                self.stack.push(Frame::Map {
                    flow: style == granit_parser::StructureStyle::Flow,
                    open: r,
                    anchor,
                    entries: Vec::new(),
                    index: None,
                    pending: None,
                    size: 1,
                    item,
                    skip_value: false,
                    skip_root,
                    keep,
                });
            }
            Event::SequenceStart(style, anchor, _) => {
                self.written += 1;
                let skip_root = self.starts_skip();
                let of_items = self.skipping == 0 && self.at_container_items();
                self.stack.push(Frame::Seq {
                    flow: style == granit_parser::StructureStyle::Flow,
                    open: r,
                    anchor,
                    items: Vec::new(),
                    size: 1,
                    of_items,
                    skip_root,
                });
            }
            Event::MappingEnd => {
                let Some(Frame::Map {
                    flow,
                    open,
                    anchor,
                    entries,
                    index,
                    size,
                    skip_root,
                    item,
                    ..
                }) = self.stack.pop()
                else {
                    return Err(self.error_at(r.start, "unbalanced mapping end".into()));
                };
                let span = if flow {
                    open.start..r.end
                } else {
                    let start = entries.first().map_or(open.start, |(k, _)| k.span.start);
                    let end = entries.last().map_or(open.end, |(_, v)| v.span.end);
                    start..end
                };
                let merge = self.merge_entry(&entries)?;
                // a tree of many small mappings and lists: the room left by growing them is
                // most of it (a 5-entry mapping holds room for 8)
                let mut entries = entries;
                entries.shrink_to_fit();
                let node = Node {
                    span,
                    kind: NodeKind::Map(Mapping::new(entries, flow, index, merge)),
                };
                let node = self.close(node, skip_root);
                let node = match item {
                    Some(_) => self.taken(node),
                    None => node,
                };
                self.finish(node, size, anchor)?;
            }
            Event::SequenceEnd => {
                let Some(Frame::Seq {
                    flow,
                    open,
                    anchor,
                    mut items,
                    size,
                    skip_root,
                    ..
                }) = self.stack.pop()
                else {
                    return Err(self.error_at(r.start, "unbalanced sequence end".into()));
                };
                items.shrink_to_fit();
                let span = if flow {
                    open.start..r.end
                } else {
                    let first = items.first().map_or(open.start, |n| n.span.start);
                    let start = self.dash_before(first).unwrap_or(first);
                    let end = items.last().map_or(open.end, |n| n.span.end);
                    start..end
                };
                let node = Node {
                    span,
                    kind: NodeKind::Seq(Sequence { items, flow }),
                };
                let node = self.close(node, skip_root);
                self.finish(node, size, anchor)?;
            }
            Event::Alias(id) => {
                if self.rule.is_some() {
                    self.restart = true;
                    return Ok(());
                }
                self.aliases = true;
                let Some((target, size)) = self.anchors.get(&id).cloned() else {
                    return Err(self.error_at(
                        r.start,
                        "alias to an anchor whose node is not complete (recursive alias)".into(),
                    ));
                };
                let node = Node {
                    span: r,
                    kind: NodeKind::Alias(target),
                };
                self.finish(node, size, 0)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Whether the next node is the value of a skipped field or inside one, and not a mapping
    /// key (keys are built, for the duplicate key check).
    fn value_not_built(&self) -> bool {
        match self.stack.last() {
            Some(Frame::Map {
                pending,
                skip_value,
                ..
            }) => pending.is_some() && (*skip_value || self.skipping > 0),
            Some(Frame::Seq { .. }) => self.skipping > 0,
            None => false,
        }
    }

    /// Whether the collection that starts now is the value of a skipped field; counts it in
    /// [`Builder::skipping`] when it is that or inside one.
    fn starts_skip(&mut self) -> bool {
        if self.skipping > 0 {
            self.skipping += 1;
            return false;
        }
        let root = matches!(
            self.stack.last(),
            Some(Frame::Map {
                pending: Some(_),
                skip_value: true,
                ..
            })
        );
        if root {
            self.skipping = 1;
            self.skipped = true;
        }
        root
    }

    /// An item just built: handed to the reader that takes items ([`parse_items_taking`]),
    /// and kept only as its span when it took it.
    fn taken(&mut self, node: Node) -> Node {
        let Some(take) = self.take.as_mut() else {
            return node;
        };
        if !take(&node) {
            return node;
        }
        self.skipped = true;
        Node {
            kind: NodeKind::Skipped(Skipped {
                taken: true,
                ..Skipped::of(self.text, &node)
            }),
            span: node.span,
        }
    }

    /// Ends a collection: one that is the value of a skipped field becomes a skipped node.
    fn close(&mut self, node: Node, skip_root: bool) -> Node {
        if self.skipping == 0 {
            return node;
        }
        self.skipping -= 1;
        if !skip_root {
            return node;
        }
        Node {
            kind: NodeKind::Skipped(Skipped::of(self.text, &node)),
            span: node.span,
        }
    }

    /// Whether a mapping starting now is an item: a document's root, or in the `items` list
    /// of a container.
    fn at_item(&self) -> bool {
        match self.stack.last() {
            None => true,
            Some(Frame::Seq { of_items, .. }) => *of_items,
            Some(Frame::Map { .. }) => false,
        }
    }

    /// When the open collection is an item whose `apiVersion` and `kind` are known and whose
    /// next value is that of key `key`: the rule, `apiVersion`, `kind` and `key`.
    fn item_field(&self) -> Option<(&SkipRule, &str, &str, &Node)> {
        let (Some(rule), Some(Frame::Map { item, pending, .. })) = (self.rule, self.stack.last())
        else {
            return None;
        };
        let (Some(seen), Some(key)) = (item, pending) else {
            return None;
        };
        let (Some(api_version), Some(kind)) = (&seen.api_version, &seen.kind) else {
            return None;
        };
        Some((rule, api_version, kind, key))
    }

    /// The keys built of a mapping starting now, when it is the value of an item's field that
    /// `rule.only` names (see [`SkipRule::only`]).
    fn only_keys(&self) -> Option<&'static [&'static str]> {
        let (rule, api_version, kind, key) = self.item_field()?;
        if is_merge_key(key) || (rule.container)(api_version, kind) {
            return None;
        }
        (rule.only)(api_version, kind, &key.as_scalar()?.value)
    }

    /// Whether a sequence starting now is the `items` list of a container item.
    fn at_container_items(&self) -> bool {
        self.item_field()
            .is_some_and(|(rule, api_version, kind, key)| {
                key.as_scalar().is_some_and(|k| &*k.value == "items")
                    && (rule.container)(api_version, kind)
            })
    }

    /// The position of the merge key entry (`<<`, plain and untagged or tagged `!!merge`)
    /// among `entries`; its value must be a mapping or a sequence of mappings.
    fn merge_entry(&self, entries: &[(Node, Node)]) -> Result<Option<usize>, YamlError> {
        let mut merges = entries
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| is_merge_key(k));
        let Some((i, _)) = merges.next() else {
            return Ok(None);
        };
        if let Some((_, (second, _))) = merges.next() {
            let first_line = entries
                .get(i)
                .map_or(0, |(k, _)| self.error_at(k.span.start, String::new()).line);
            return Err(self.error_at(
                second.span.start,
                format!("duplicate merge key \"<<\" (first defined on line {first_line})"),
            ));
        }
        let Some((k, v)) = entries.get(i) else {
            return Ok(None);
        };
        let ok = match &v.resolved().kind {
            NodeKind::Map(_) => true,
            NodeKind::Seq(s) => s.items.iter().all(|n| n.as_map().is_some()),
            _ => false,
        };
        if !ok {
            return Err(self.error_at(
                k.span.start,
                "a merge key `<<` needs a mapping, an alias of one, or a sequence of them".into(),
            ));
        }
        Ok(Some(i))
    }

    /// Hands a completed node to its parent (or makes it the document root).
    fn finish(&mut self, mut node: Node, size: u64, anchor: usize) -> Result<(), YamlError> {
        if anchor != 0 {
            self.anchors_defined += 1;
            // With a skip rule, an alias makes it all be parsed again: no anchor is used.
            if self.rule.is_none() {
                self.anchors.insert(anchor, (Arc::new(node.clone()), size));
            }
        }
        let text = self.text;
        let rule = self.rule;
        let Some(top) = self.stack.last_mut() else {
            self.root = Some(Built { node, size });
            return Ok(());
        };
        match top {
            Frame::Seq {
                items,
                size: total,
                flow,
                ..
            } => {
                if !*flow && node.span.is_empty() {
                    fix_empty_item(text, &mut node);
                }
                items.push(node);
                *total = total.saturating_add(size);
            }
            Frame::Map {
                entries,
                index,
                pending,
                size: total,
                item,
                skip_value,
                keep,
                ..
            } => {
                *total = total.saturating_add(size);
                match pending.take() {
                    None => {
                        if let (Some(rule), Some(seen)) = (rule, item.as_deref()) {
                            *skip_value = skips(rule, seen, &node);
                        } else if let Some(keys) = keep {
                            *skip_value = !is_merge_key(&node)
                                && !node.as_scalar().is_some_and(|k| keys.contains(&&*k.value));
                        }
                        *pending = Some(node);
                    }
                    Some(key) => {
                        *skip_value = false;
                        if let Some(seen) = item.as_deref_mut() {
                            seen.note(&key, &node);
                        }
                        if node.span.is_empty() {
                            fix_empty_value(text, &key, &mut node);
                        }
                        if is_merge_key(&key) {
                            // not indexed: found through the mapping's merge position (a
                            // second one is an error when the mapping ends)
                            entries.push((key, node));
                            return Ok(());
                        }
                        let key_text = key_str(text, &key);
                        let first = match index {
                            Some(map) => map.get(key_text).copied(),
                            None => entries.iter().position(|(k, _)| {
                                !is_merge_key(k) && key_str(text, k) == key_text
                            }),
                        };
                        if let Some(first) = first {
                            let first_at = entries.get(first).map_or(0, |(k, _)| k.span.start);
                            let first_line = self.error_at(first_at, String::new()).line;
                            let msg = format!(
                                "duplicate key {key_text:?} (first defined on line {first_line})"
                            );
                            let at = key.span.start;
                            return Err(self.error_at(at, msg));
                        }
                        match index {
                            Some(map) => {
                                map.insert(key_text.to_owned(), entries.len());
                            }
                            None if entries.len() >= INDEX_THRESHOLD => {
                                let mut map: HashMap<String, usize> = entries
                                    .iter()
                                    .enumerate()
                                    .filter(|(_, (k, _))| !is_merge_key(k))
                                    .map(|(i, (k, _))| (key_str(text, k).to_owned(), i))
                                    .collect();
                                map.insert(key_text.to_owned(), entries.len());
                                *index = Some(map);
                            }
                            None => {}
                        }
                        entries.push((key, node));
                    }
                }
            }
        }
        Ok(())
    }

    /// The `-` of a block sequence's first item, searching back from the item's content over
    /// whitespace and up to three properties (`&anchor`, `!tag`).
    fn dash_before(&self, pos: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut p = pos;
        for _ in 0..4 {
            p = skip_ws_back(bytes, p);
            let prev = p.checked_sub(1)?;
            if bytes.get(prev) == Some(&b'-') {
                return Some(prev);
            }
            // skip one property token
            let mut q = prev;
            while q > 0 && !matches!(bytes.get(q - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                q -= 1;
            }
            if !matches!(bytes.get(q), Some(b'&' | b'!')) {
                return None;
            }
            p = q;
        }
        None
    }

    /// A scalar's style and the span of its token.
    fn scalar_span(&self, style: GStyle, span: &Span) -> (ScalarStyle, Range<usize>) {
        let r = range(span);
        match style {
            GStyle::Plain => (ScalarStyle::Plain, r),
            GStyle::SingleQuoted => (ScalarStyle::SingleQuoted, self.quoted(r, b'\'')),
            GStyle::DoubleQuoted => (ScalarStyle::DoubleQuoted, self.quoted(r, b'"')),
            GStyle::Literal => (ScalarStyle::Literal, self.block(r, span.indent)),
            GStyle::Folded => (ScalarStyle::Folded, self.block(r, span.indent)),
        }
    }

    fn scalar(
        &mut self,
        value: &str,
        style: GStyle,
        tag: Option<&Tag>,
        span: &Span,
    ) -> Result<Node, YamlError> {
        let (style, span) = self.scalar_span(style, span);
        let value = if style == ScalarStyle::Plain && span.is_empty() {
            ""
        } else {
            value
        };
        let value: Arc<str> = Arc::from(value);
        let tag = tag.map(|t| format!("{}{}", t.handle(), t.suffix()).into_boxed_str());
        Ok(Node {
            span,
            kind: NodeKind::Scalar(Scalar { value, style, tag }),
        })
    }

    /// Trims a quoted scalar's span to its quotes.
    fn quoted(&self, r: Range<usize>, quote: u8) -> Range<usize> {
        let bytes = self.text.as_bytes();
        let Some(rel) = bytes
            .get(r.clone())
            .and_then(|s| s.iter().position(|&b| b == quote))
        else {
            return r;
        };
        let start = r.start + rel;
        let mut i = start + 1;
        while let Some(&b) = bytes.get(i) {
            if quote == b'"' && b == b'\\' {
                i += 2;
                continue;
            }
            if b == quote {
                if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                return start..i + 1;
            }
            i += 1;
        }
        r
    }

    /// The span of a block scalar: from its `|`/`>` indicator to the end of its last content line
    /// (keep chomping: through its kept line breaks).
    fn block(&self, r: Range<usize>, indent: Option<usize>) -> Range<usize> {
        let bytes = self.text.as_bytes();
        // The nearest non-blank character before the content is on the header line.
        let before = skip_ws_back(bytes, r.start);
        let header_line = line_start(bytes, before.saturating_sub(1));
        let Some(start) = find_indicator(self.text, header_line, before) else {
            return r;
        };
        let header = bytes.get(start + 1..).unwrap_or(&[]);
        let indicators = header
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'+' || **c == b'-')
            .count();
        let keep = header.get(..indicators).is_some_and(|h| h.contains(&b'+'));
        let n = indent.unwrap_or(1).max(1);
        let mut last_content_end = start + 1 + indicators;
        let mut blank_after: Option<usize> = None; // start of the line after the last blank line
        let mut line = next_line_start(bytes, start);
        while line < bytes.len() && line < r.end {
            let le = line_end(bytes, line);
            let content = bytes.get(line..le).unwrap_or(&[]);
            let spaces = content.iter().take_while(|&&b| b == b' ').count();
            let blank = content.iter().all(|&b| b == b' ' || b == b'\t');
            if !blank && spaces < n {
                break;
            }
            if blank && content.len() <= n {
                blank_after = Some(next_line_start(bytes, le));
            } else {
                last_content_end = le;
                blank_after = None;
            }
            line = next_line_start(bytes, le);
        }
        if keep {
            let end = blank_after.unwrap_or_else(|| next_line_start(bytes, last_content_end));
            return start..end;
        }
        start..last_content_end
    }
}

/// The block scalar indicator on the header line `[from, to)`: the leftmost `|`/`>` followed
/// only by indentation/chomping indicators, blanks and an optional comment.
fn find_indicator(text: &str, from: usize, to: usize) -> Option<usize> {
    let line = text.get(from..to)?.as_bytes();
    for (i, &b) in line.iter().enumerate() {
        if b != b'|' && b != b'>' {
            continue;
        }
        if i > 0 && !matches!(line[i - 1], b' ' | b'\t' | b':' | b'-') {
            continue;
        }
        let rest = &line[i + 1..];
        let ind = rest
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'+' || **c == b'-')
            .count();
        let after = &rest[ind..];
        let trimmed: Vec<u8> = after
            .iter()
            .copied()
            .skip_while(|c| *c == b' ' || *c == b'\t' || *c == b'\r')
            .collect();
        if trimmed.is_empty() || (trimmed[0] == b'#' && (after.len() > trimmed.len())) {
            return Some(from + i);
        }
    }
    None
}

/// Places an empty block-sequence item right after its `-` (granit puts it at the next token,
/// after comments), unless it already follows an anchor or tag.
fn fix_empty_item(text: &str, node: &mut Node) {
    let bytes = text.as_bytes();
    let mut p = node.span.start.min(bytes.len());
    // at most a few lines back: the dash line, comment lines, blank lines
    for _ in 0..64 {
        let ls = line_start(bytes, p);
        let line = &bytes[ls..p];
        let code_end = comment_start(line).unwrap_or(line.len());
        let code = &line[..code_end];
        if let Some(last) = code
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        {
            if code[last] == b'-' {
                node.span = ls + last + 1..ls + last + 1;
            }
            // something else (an anchor or tag): granit's position is already right
            return;
        }
        if ls == 0 {
            return;
        }
        p = ls - 1;
    }
}

/// Where a comment starts on a line of code (`#` at the start or after a blank).
fn comment_start(line: &[u8]) -> Option<usize> {
    (0..line.len()).find(|&i| line[i] == b'#' && (i == 0 || matches!(line[i - 1], b' ' | b'\t')))
}

/// Places an empty mapping value right after its `:` (or keeps granit's position when that is
/// later, i.e. after an anchor or tag). The `:` may be on a later line after an explicit key
/// (`? key` / `: `); an entry without `:` (`? key` alone, `{key}`) gets an empty span at the
/// end of its key (granit puts it at the next token).
fn fix_empty_value(text: &str, key: &Node, node: &mut Node) {
    match colon_after_key(text, key.span.end) {
        Some(i) if node.span.start <= i => node.span = i + 1..i + 1,
        Some(_) => {}
        None => node.span = key.span.end..key.span.end,
    }
}

/// The position of the `:` that follows a key ending at `from`, across blanks, line breaks and
/// comments (an explicit key's `:` may start a later line).
pub(crate) fn colon_after_key(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(b'\n' | b'\r') => i += break_len(bytes, i),
            Some(b'#')
                if i > from && matches!(bytes.get(i - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) =>
            {
                i = line_end(bytes, i);
            }
            Some(b':') => return Some(i),
            _ => return None,
        }
    }
}

/// Whether the value of `key` in the item `seen` so far is not built.
fn skips(rule: &SkipRule, seen: &ItemSeen, key: &Node) -> bool {
    let (Some(api_version), Some(kind)) = (&seen.api_version, &seen.kind) else {
        return false;
    };
    if is_merge_key(key) || (rule.container)(api_version, kind) {
        return false;
    }
    let name = match &key.kind {
        NodeKind::Scalar(s) => &s.value,
        // a collection key is matched by its text, as the tree indexes it: no field name
        _ => "",
    };
    !matches!(name, "apiVersion" | "kind") && (rule.field)(api_version, kind, name)
}

impl ItemSeen {
    /// Notes an entry of the item: its `apiVersion` or `kind` when it is one, read as a
    /// string the way [`Node::as_str`] reads it (a null or a collection is not one).
    fn note(&mut self, key: &Node, value: &Node) {
        let Some(k) = key.as_scalar() else {
            return;
        };
        let slot = match &*k.value {
            "apiVersion" => &mut self.api_version,
            "kind" => &mut self.kind,
            _ => return,
        };
        *slot = value.as_str().map(str::to_owned);
    }
}

/// Whether `key` is a merge key: `<<` written plain and untagged, or tagged `!!merge`.
pub(crate) fn is_merge_key(key: &Node) -> bool {
    match &key.kind {
        NodeKind::Scalar(s) => {
            &*s.value == "<<"
                && match s.tag.as_deref() {
                    None => s.style == ScalarStyle::Plain,
                    Some(t) => t == "tag:yaml.org,2002:merge",
                }
        }
        _ => false,
    }
}

/// The text a mapping key is indexed by: a scalar key's value, else its source text.
pub(crate) fn key_str<'a>(text: &'a str, key: &'a Node) -> &'a str {
    match key.as_scalar() {
        Some(s) => &s.value,
        None => text.get(key.span.clone()).unwrap_or(""),
    }
}
