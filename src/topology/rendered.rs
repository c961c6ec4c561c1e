//! A rendered ClusterClass template read exactly as Cluster API reads it.
//!
//! CAPI's inline patch generator (cluster-api
//! `internal/controllers/topology/cluster/patches/inline/json_patch_generator.go`,
//! `renderValueTemplate`) renders a `valueFrom.template` or an `enabledIf` and reads the output
//! with `sigs.k8s.io/yaml.Unmarshal` into an `apiextensionsv1.JSON`: go-yaml v2 (YAML 1.1, a
//! port of libyaml) decodes the text into Go values, `sigs.k8s.io/yaml` turns map keys into
//! strings, and `encoding/json` writes the result, whose bytes become the patch value.
//! `patchIsEnabled` enables a patch when those bytes are exactly `true`.
//!
//! [`read`] gives that JSON value; [`is_true`] that decision. The text is parsed with
//! granit-parser (YAML 1.2 events), and YAML 1.1 as go-yaml v2 has it is applied on top:
//! - plain scalars resolve as go-yaml v2's `resolve`: its boolean table (`y`, `Yes`, `ON`, but
//!   not `tRUE`), its null spellings, integers through Go's `strconv.ParseInt` with base 0 after
//!   removing every `_` (`0644` is 420, `0o17`, `0x1F`, `0b101`, signs), floats by its regular
//!   expression, `.inf` and `.nan` (which `encoding/json` refuses, so an error here too);
//!   anything else, sexagesimal `1:20` and timestamps included, is a string;
//! - numbers become what a reader of CAPI's JSON bytes gets: an integer stays an integer, a
//!   float is written as Go's `encoding/json` writes it and read back (`1.0` is written `1`,
//!   so it is the integer 1; `1e21` stays a float);
//! - mapping keys become strings as `sigs.k8s.io/yaml` makes them (`1`, `true`, a float as a
//!   32-bit float in `%g`); a null or too large key is refused as there; two keys of different
//!   types that become the same string (`1` and `"1"`) are an error, because Go picks one of
//!   them at random; a repeated key keeps its last value; `<<` merges as go-yaml v2 merges
//!   (in order, a later key replacing an earlier one);
//! - only the first document is read, as go-yaml v2's `Unmarshal` does, and no document is null;
//! - a block scalar at the end of a text without a final line break keeps libyaml's line
//!   breaks.
//!
//! - tags as go-yaml v2 decodes them into an `interface{}`: `!!str`, `!!int`, `!!float`, `!!bool`
//!   and `!!null` resolve the text and must match it (`!!float 1` is 1.0, `!!int a` an error),
//!   any other tag on a scalar leaves it a string, a tag on a collection is not read;
//! - anchors and aliases: an alias copies its node (as a key too, when a scalar), and `<<: *a`
//!   merges; aliases are counted as go-yaml v2 counts them (each with those inside the node
//!   it copies) and more than 100 are refused, below go-yaml's own limit.
//!
//! What ipreuse cannot be sure to read as go-yaml v2 does is an error, never another value
//! ([`RenderedError::NotEvaluated`] says what): directives, `!!binary` and `!!timestamp`, a
//! tab in block context outside a scalar or a comment or in a line's indentation (libyaml
//! refuses tabs in indentation and after `-`; inside `[...]` and `{...}` they are blanks),
//! the characters U+0085, U+2028 and U+2029 (line breaks to YAML 1.1), the YAML 1.1-only
//! escape `\'`, a `#` glued to a value, `?` or a leading `:` in a plain string inside
//! `[...]`/`{...}`, a colon glued to `,` `]` `}` there, anchor names and tags with characters
//! libyaml does not read, text after the document's value (which go-yaml v2 ignores), and a
//! top-level block scalar with unindented lines. The escape `\/` (YAML 1.2 only), an empty key
//! in `{...}` and a key written over several lines before its colon are errors, as in Go.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use granit_parser::{Event, Options, Parser, ScalarStyle};
use serde_json::{Map, Value};

/// Why a rendered text has no value as CAPI reads it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderedError {
    /// Not YAML that Cluster API's reader accepts.
    #[error("the rendered text {} is not YAML that Cluster API can read: {reason}", shown(.text))]
    Syntax { text: String, reason: String },
    /// YAML that Cluster API reads but cannot write as JSON (it fails the same way).
    #[error(
        "the rendered text {} has no JSON value, so Cluster API refuses it too: {reason}",
        shown(.text)
    )]
    NotJson { text: String, reason: String },
    /// YAML that ipreuse does not evaluate, because it cannot be sure to read it as Cluster API.
    #[error(
        "the rendered text {} uses {what}, which ipreuse does not evaluate as Cluster API \
         would; make the template render YAML without it",
        shown(.text)
    )]
    NotEvaluated { text: String, what: String },
}

/// A scalar as go-yaml v2 decodes it into an `interface{}`.
#[derive(Debug, Clone, PartialEq)]
enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

/// A node as go-yaml v2 decodes it: a mapping keeps its Go keys until `sigs.k8s.io/yaml`
/// turns them into strings.
#[derive(Debug, Clone)]
enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(GoMap),
}

/// A Go `map[interface{}]interface{}`: one entry per Go key (`1` and `"1"` are two keys).
#[derive(Debug, Clone, Default)]
struct GoMap {
    entries: Vec<(Scalar, Node)>,
    index: HashMap<KeyId, usize>,
    /// Distinct identities for NaN keys (a NaN never equals another key in Go).
    nans: usize,
}

/// Go's `==` on map keys of `interface{}` type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum KeyId {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(u64),
    Nan(usize),
    Str(String),
}

impl GoMap {
    fn insert(&mut self, key: Scalar, value: Node) {
        let id = match &key {
            Scalar::Null => KeyId::Null,
            Scalar::Bool(b) => KeyId::Bool(*b),
            Scalar::Int(i) => KeyId::Int(*i),
            Scalar::Uint(u) => KeyId::Uint(*u),
            Scalar::Float(f) if f.is_nan() => {
                self.nans += 1;
                KeyId::Nan(self.nans)
            }
            // 0.0 and -0.0 are one key in Go.
            Scalar::Float(f) => KeyId::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
            Scalar::Str(s) => KeyId::Str(s.clone()),
        };
        match self.index.get(&id) {
            // Go's map assignment also stores the new key (`-0.0` after `0.0` is kept as `-0`).
            Some(&i) => self.entries[i] = (key, value),
            None => {
                self.index.insert(id, self.entries.len());
                self.entries.push((key, value));
            }
        }
    }
}

/// What an open collection is waiting for.
struct Frame {
    kind: FrameKind,
    /// The anchor defined on the collection (0: none).
    anchor: usize,
    /// The aliases expanded before the collection started.
    aliases_at_start: usize,
}

enum FrameKind {
    Seq(Vec<Node>),
    Map {
        map: GoMap,
        /// The key read, waiting for its value.
        key: Option<PendingKey>,
    },
}

/// The aliases go-yaml v2 may expand (counting those inside an aliased node each time) before
/// ipreuse stops: below go-yaml v2's own limit (`document contains excessive aliasing` needs
/// more than 100), and bounding the copies.
const MAX_ALIASES: usize = 100;

/// The long form of the YAML tags go-yaml v2 resolves.
const YAML_TAG: &str = "tag:yaml.org,2002:";

enum PendingKey {
    Key(Scalar),
    /// A plain `<<`: its value is merged.
    Merge,
}

/// The JSON value CAPI's `sigs.k8s.io/yaml.Unmarshal` gives the rendered `text` (JSON `null`
/// for an empty text or a document holding nothing).
pub fn read(text: &str) -> Result<Value, RenderedError> {
    let node = decode(text)?;
    match node {
        None => Ok(Value::Null),
        Some(node) => to_json(&node).map_err(|e| match e {
            Conv::NotJson(reason) => RenderedError::NotJson {
                text: text.to_string(),
                reason,
            },
            Conv::NotEvaluated(what) => RenderedError::NotEvaluated {
                text: text.to_string(),
                what,
            },
        }),
    }
}

/// CAPI's `patchIsEnabled` on a rendered `enabledIf`: true exactly when the JSON bytes are
/// `true`, that is when the text is the boolean true (`true`, `True`, `yes`, `on`, `y`, ...).
/// A text CAPI cannot read is an error there as here.
pub fn is_true(text: &str) -> Result<bool, RenderedError> {
    Ok(read(text)? == Value::Bool(true))
}

/// A rendered text in a message: quoted, and cut after 300 characters.
fn shown(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut:?} (cut, {} bytes in all)", text.len())
    } else {
        format!("{cut:?}")
    }
}

/// The first 40 characters of a piece of the text, quoted, for messages.
struct Excerpt<'a>(&'a str);

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self.0.chars().take(40).collect();
        if s.len() < self.0.len() {
            write!(f, "{s:?}...")
        } else {
            write!(f, "{s:?}")
        }
    }
}

/// The first document of `text` decoded as go-yaml v2 decodes it into an `interface{}`;
/// `None` when the text holds no document.
fn decode(text: &str) -> Result<Option<Node>, RenderedError> {
    let syntax = |reason: String| RenderedError::Syntax {
        text: text.to_string(),
        reason,
    };
    let not_evaluated = |what: &str| RenderedError::NotEvaluated {
        text: text.to_string(),
        what: what.to_string(),
    };
    if let Some(line) = directive_line(text) {
        return Err(not_evaluated(&format!("the directive {}", Excerpt(line))));
    }
    if text.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return Err(not_evaluated(
            "the characters U+0085, U+2028 or U+2029 (line breaks to Cluster API's YAML 1.1 \
             reader, not to ipreuse's)",
        ));
    }
    if text.char_indices().any(|(i, c)| c == '\u{feff}' && i > 0) {
        return Err(not_evaluated("a byte order mark (U+FEFF) after the start"));
    }
    if starts_with_document_end(text) {
        return Err(syntax(
            "the text starts with the document end marker ... before any content (did not find \
             expected node content)"
                .into(),
        ));
    }
    let mut options = Options::default();
    options.set_emit_comments(true);
    options.emit_anchor_events = true;
    let mut stack: Vec<Frame> = Vec::new();
    // Whether each open collection is a flow one ([...], {...}).
    let mut flows: Vec<bool> = Vec::new();
    // Where each open flow collection starts, and the byte ranges of those closed: libyaml
    // skips tabs anywhere inside one.
    let mut flow_starts: Vec<usize> = Vec::new();
    let mut root: Option<Node> = None;
    // Byte ranges where a tab may stand: quoted scalars and flow collections (anywhere), other
    // scalars and comments (except in a line's indentation).
    let mut quoted: Vec<std::ops::Range<usize>> = Vec::new();
    let mut other: Vec<std::ops::Range<usize>> = Vec::new();
    let mut end_of_document = text.len();
    let mut started = false;
    // Each anchor's node and the aliases expanded inside it; the aliases expanded so far.
    let mut anchors: HashMap<usize, (Node, usize)> = HashMap::new();
    let mut aliases = 0usize;
    for event in Parser::new_from_str_with_options(text, options) {
        let (event, span) = match event {
            Ok(e) => e,
            Err(e) => {
                let message = e.to_string();
                if message.contains("unknown escape") && text.contains("\\'") {
                    return Err(not_evaluated(
                        "the escape \\' in a double-quoted string (YAML 1.1 only: write ' alone)",
                    ));
                }
                if message.contains("unknown anchor") && alias_glued_to_colon(text) {
                    return Err(not_evaluated(
                        "an alias (*name) glued to a colon (Cluster API's reader ends the name \
                         there; write a space before the colon)",
                    ));
                }
                if message.contains("comments must be separated") {
                    return Err(not_evaluated(
                        "a # right after a value or an indicator (Cluster API's reader starts a \
                         comment there; put a space before the #)",
                    ));
                }
                if message.contains("scanning a tag") || message.contains("parsing a tag") {
                    return Err(not_evaluated("a tag (!)"));
                }
                if message.contains("cannot start with '-'") {
                    return Err(not_evaluated(
                        "a - before , ] or } (a string to Cluster API's reader; quote it)",
                    ));
                }
                if message.contains("trailing content") || (root.is_some() && stack.is_empty()) {
                    return Err(not_evaluated(&format!(
                        "text after the value ({message}), which Cluster API's reader ignores"
                    )));
                }
                if starts_with_flow(text) {
                    return Err(not_evaluated(&format!(
                        "text after a [...] or {{...}} collection, or one Cluster API's reader \
                         ends early ({message})"
                    )));
                }
                return Err(syntax(message));
            }
        };
        let range = span.byte_range();
        // libyaml wants a tag of URI characters, then a space, a tab or a line break.
        if let Some(tag_range) = span.tag_span().and_then(|t| t.byte_range())
            && let (Some(source), Some(after)) =
                (text.get(tag_range.clone()), text.get(tag_range.end..))
            && ((!after.is_empty() && !after.starts_with([' ', '\t', '\n', '\r']))
                || !tag_characters(source))
        {
            return Err(not_evaluated(
                "a tag (!) followed by something other than a space or a line break",
            ));
        }
        let node = match event {
            Event::StreamStart => continue,
            Event::StreamEnd => break,
            Event::DocumentStart(..) => {
                started = true;
                continue;
            }
            Event::DocumentEnd => {
                if let Some(r) = range {
                    end_of_document = r.end.min(text.len());
                }
                break;
            }
            Event::Comment(..) => {
                if let Some(r) = range {
                    other.push(r);
                }
                continue;
            }
            Event::Anchor(_, ref name) => {
                check_anchor_name(text, range.as_ref(), name)
                    .map_err(|what| not_evaluated(&what))?;
                continue;
            }
            Event::Alias(id) => {
                let name = range
                    .as_ref()
                    .and_then(|r| text.get(r.clone()))
                    .unwrap_or_default()
                    .trim_start_matches('*');
                check_anchor_name(text, range.as_ref(), name)
                    .map_err(|what| not_evaluated(&what))?;
                let Some((node, inside)) = anchors.get(&id) else {
                    return Err(syntax(
                        "an alias (*name) refers to a node that contains it (anchor value \
                         contains itself)"
                            .into(),
                    ));
                };
                aliases += 1 + inside;
                if aliases > MAX_ALIASES {
                    return Err(not_evaluated(&format!(
                        "more than {MAX_ALIASES} aliases (*name) expanded"
                    )));
                }
                let node = node.clone();
                if let Some(Frame {
                    kind: FrameKind::Map { key: k @ None, .. },
                    ..
                }) = stack.last_mut()
                {
                    let Node::Scalar(s) = node else {
                        return Err(syntax(
                            "an alias (*name) of a list or a mapping is used as a mapping key \
                             (Go cannot use it as one: invalid map key)"
                                .into(),
                        ));
                    };
                    *k = Some(PendingKey::Key(s));
                    continue;
                }
                node
            }
            Event::UnresolvedAlias(name) => {
                return Err(syntax(format!(
                    "the alias *{name} names no anchor defined before it (unknown anchor)"
                )));
            }
            Event::Scalar(value, style, anchor, tag) => {
                let tag = tag.map(|t| t.to_string());
                let raw = range.clone().and_then(|r| text.get(r)).unwrap_or_default();
                match style {
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                        if let Some(r) = range.clone() {
                            quoted.push(r);
                        }
                    }
                    _ => {
                        if let Some(r) = range.clone() {
                            other.push(r);
                        }
                    }
                }
                if style == ScalarStyle::DoubleQuoted && has_slash_escape(raw) {
                    return Err(syntax(
                        "found unknown escape character \\/ in a double-quoted string (YAML 1.1 \
                         has no such escape; write / alone)"
                            .into(),
                    ));
                }
                let is_key = matches!(
                    stack.last(),
                    Some(Frame {
                        kind: FrameKind::Map { key: None, .. },
                        ..
                    })
                );
                let plain_style = style == ScalarStyle::Plain;
                let plain = plain_style && tag.is_none();
                if plain_style
                    && flows.last() == Some(&true)
                    && (raw.starts_with(':') || raw.contains('?'))
                {
                    return Err(not_evaluated(&format!(
                        "the plain string {} inside [...] or {{...}} (a question mark or a leading \
                         colon is an indicator there to Cluster API's reader; quote the string)",
                        Excerpt(raw)
                    )));
                }
                if plain_style
                    && flows.last() == Some(&true)
                    && range
                        .as_ref()
                        .and_then(|r| text.get(r.end..))
                        .is_some_and(|after| {
                            after.starts_with(':')
                                && after[1..].starts_with([',', '[', ']', '{', '}'])
                        })
                {
                    return Err(not_evaluated(&format!(
                        "the plain string {} followed by a colon and , ] or }} inside [...] or \
                         {{...}} (the colon is part of the string to Cluster API's reader; write \
                         a space after it or quote the string)",
                        Excerpt(raw)
                    )));
                }
                if is_key
                    && plain_style
                    && flows.last() == Some(&true)
                    && range.as_ref().is_none_or(|r| r.is_empty())
                {
                    return Err(syntax(
                        "an entry of a {...} mapping has no key (did not find expected node \
                         content)"
                            .into(),
                    ));
                }
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && stack.is_empty()
                    && range
                        .as_ref()
                        .is_some_and(|r| r.start == 0 || text[..r.start].ends_with(['\n', '\r']))
                {
                    return Err(not_evaluated(
                        "a block scalar (| or >) at the top whose lines are not indented (Cluster \
                         API's reader ends it before its first line; indent its lines)",
                    ));
                }
                if is_key
                    && raw.contains(['\n', '\r'])
                    && !explicit_key(text, range.as_ref())
                    && followed_by_colon(text, range.as_ref())
                {
                    return Err(syntax(format!(
                        "the mapping key {} spans several lines (could not find expected ':')",
                        Excerpt(raw)
                    )));
                }
                if is_key
                    && flows.last().copied().unwrap_or(false)
                    && !explicit_key(text, range.as_ref())
                    && colon_on_a_later_line(text, range.as_ref())
                {
                    return Err(syntax(format!(
                        "the key {} of a {{...}} mapping has its colon on a later line (did not find \
                         expected ',' or '}}')",
                        Excerpt(raw)
                    )));
                }
                let mut value = value.into_owned();
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded)
                    && range.as_ref().is_some_and(|r| r.end >= text.len())
                {
                    value = end_of_text_block(text, value);
                }
                // go-yaml v2's `isMerge`: a `<<` that is plain, or tagged `!` or `!!merge`.
                let is_merge = value == "<<"
                    && (plain
                        || tag.as_deref() == Some("!")
                        || tag.as_deref() == Some(&format!("{YAML_TAG}merge")));
                let scalar = if is_key && is_merge {
                    None
                } else {
                    Some(
                        tagged_scalar(value, style == ScalarStyle::Plain, tag.as_deref()).map_err(
                            |e| match e {
                                Conv::NotJson(reason) => syntax(reason),
                                Conv::NotEvaluated(what) => not_evaluated(&what),
                            },
                        )?,
                    )
                };
                if anchor != 0 {
                    let stored = scalar.clone().unwrap_or(Scalar::Str("<<".into()));
                    anchors.insert(anchor, (Node::Scalar(stored), 0));
                }
                if is_key {
                    let key = scalar.map_or(PendingKey::Merge, PendingKey::Key);
                    if let Some(Frame {
                        kind: FrameKind::Map { key: k, .. },
                        ..
                    }) = stack.last_mut()
                    {
                        *k = Some(key);
                    }
                    continue;
                }
                match scalar {
                    Some(s) => Node::Scalar(s),
                    None => {
                        return Err(syntax("a merge key << stands where a value belongs".into()));
                    }
                }
            }
            Event::SequenceStart(style, anchor, ref tag)
            | Event::MappingStart(style, anchor, ref tag) => {
                flows.push(style == granit_parser::StructureStyle::Flow);
                if style == granit_parser::StructureStyle::Flow {
                    flow_starts.push(range.as_ref().map_or(0, |r| r.start));
                }
                // go-yaml v2 decodes a tagged collection into an `interface{}` as an untagged
                // one: the tag is not read.
                let _ = tag;
                if matches!(
                    stack.last(),
                    Some(Frame {
                        kind: FrameKind::Map { key: None, .. },
                        ..
                    })
                ) {
                    if stack.len() == 1 && starts_with_flow(text) {
                        // `[] x: y`: go-yaml v2 reads the first [] and ignores the rest.
                        return Err(not_evaluated(
                            "text after a [...] or {...} collection, which Cluster API's reader \
                             ignores",
                        ));
                    }
                    return Err(syntax(
                        "a list or a mapping is used as a mapping key (Go cannot use it as one: \
                         invalid map key)"
                            .into(),
                    ));
                }
                stack.push(Frame {
                    kind: if matches!(event, Event::SequenceStart(..)) {
                        FrameKind::Seq(Vec::new())
                    } else {
                        FrameKind::Map {
                            map: GoMap::default(),
                            key: None,
                        }
                    },
                    anchor,
                    aliases_at_start: aliases,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(frame) => {
                    if flows.pop() == Some(true) {
                        let start = flow_starts.pop().unwrap_or(0);
                        let end = range.as_ref().map_or(text.len(), |r| r.end);
                        quoted.push(start..end);
                    }
                    let node = match frame.kind {
                        FrameKind::Seq(items) => Node::Seq(items),
                        FrameKind::Map { map, .. } => Node::Map(map),
                    };
                    if frame.anchor != 0 {
                        let inside = aliases - frame.aliases_at_start;
                        anchors.insert(frame.anchor, (node.clone(), inside));
                    }
                    node
                }
                None => return Err(syntax("a collection ends that never started".into())),
            },
            _ => return Err(not_evaluated("a YAML construct this reader does not know")),
        };
        match stack.last_mut().map(|f| &mut f.kind) {
            None => root = Some(node),
            Some(FrameKind::Seq(items)) => items.push(node),
            Some(FrameKind::Map { map, key }) => match key.take() {
                Some(PendingKey::Key(k)) => map.insert(k, node),
                Some(PendingKey::Merge) => merge(map, node).map_err(syntax)?,
                None => return Err(syntax("a mapping value without a key".into())),
            },
        }
    }
    check_tabs(text, end_of_document, &quoted, &other).map_err(|_| {
        not_evaluated(
            "a tab character outside a quoted string or a [...] or {...} collection (Cluster \
             API's YAML reader refuses a tab \
             as indentation or after -, ? or :, so indent with spaces)",
        )
    })?;
    if !started {
        return Ok(None);
    }
    Ok(Some(root.unwrap_or(Node::Scalar(Scalar::Null))))
}

/// go-yaml v2's decoding of a scalar with its tag (as the parser resolved it, `!!int` being
/// `tag:yaml.org,2002:int`) into an `interface{}`.
fn tagged_scalar(value: String, plain_style: bool, tag: Option<&str>) -> Result<Scalar, Conv> {
    let Some(tag) = tag else {
        return Ok(if plain_style {
            resolve(&value)
        } else {
            Scalar::Str(value)
        });
    };
    let kind = match tag.strip_prefix(YAML_TAG) {
        Some("str") => return Ok(Scalar::Str(value)),
        Some(k @ ("bool" | "int" | "float" | "null")) => k,
        Some(k @ ("binary" | "timestamp")) => {
            return Err(Conv::NotEvaluated(format!("the tag !!{k}")));
        }
        // Any other tag (`!`, `!local`, `!!map` on a string...) leaves the text a string.
        _ => return Ok(Scalar::Str(value)),
    };
    let resolved = resolve(&value);
    let got = match &resolved {
        Scalar::Null => "null",
        Scalar::Bool(_) => "bool",
        Scalar::Int(_) | Scalar::Uint(_) => "int",
        Scalar::Float(_) => "float",
        Scalar::Str(_) => "str",
    };
    match (kind, resolved) {
        (k, r) if k == got => Ok(r),
        ("float", Scalar::Int(i)) => Ok(Scalar::Float(i as f64)),
        _ => Err(Conv::NotJson(format!(
            "cannot decode !!{got} `{value}` as a !!{kind}: the tag !!{kind} asks for what the text \
             is not"
        ))),
    }
}

/// Whether the text holds `*name:`, an alias whose name libyaml ends at the colon (YAML 1.2
/// reads the colon as part of the name).
fn alias_glued_to_colon(text: &str) -> bool {
    text.match_indices('*').any(|(i, _)| {
        let rest = &text[i + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        name_len > 0 && rest[name_len..].starts_with(':')
    })
}

/// Whether a tag's source holds only the characters libyaml reads in one (letters, digits and
/// `-_;/?:@&=+$,.!~*'()[]%`, inside `!<...>` for a verbatim tag).
fn tag_characters(source: &str) -> bool {
    let inner = source
        .strip_prefix("!<")
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(source);
    inner
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_;/?:@&=+$,.!~*'()[]%".contains(c))
}

/// libyaml's anchor and alias names: letters, digits, `-` and `_`, followed by a space, a line
/// break or one of `?:,]}%@` and the backquote.
fn check_anchor_name(
    text: &str,
    range: Option<&std::ops::Range<usize>>,
    name: &str,
) -> Result<(), String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "the anchor or alias name {} (Cluster API's reader allows only letters, digits, - and \
             _ in it)",
            Excerpt(name)
        ));
    }
    let after = range.and_then(|r| text.get(r.end..)).unwrap_or_default();
    match after.chars().next() {
        None | Some(' ' | '\t' | '\n' | '\r' | '?' | ':' | ',' | ']' | '}' | '%' | '@' | '`') => {
            Ok(())
        }
        Some(c) => Err(format!(
            "the anchor or alias name {} followed by {c:?} (Cluster API's reader wants a space \
             after it)",
            Excerpt(name)
        )),
    }
}

/// go-yaml v2's `merge`: a mapping's entries, or each mapping of a list from the last to the
/// first (so that the first wins), set into `map` in order.
fn merge(map: &mut GoMap, value: Node) -> Result<(), String> {
    const WANT_MAP: &str = "map merge requires map or sequence of maps as the value";
    match value {
        Node::Map(m) => {
            for (k, v) in m.entries {
                map.insert(k, v);
            }
            Ok(())
        }
        Node::Seq(items) => {
            if !items.iter().all(|i| matches!(i, Node::Map(_))) {
                return Err(WANT_MAP.into());
            }
            for item in items.into_iter().rev() {
                if let Node::Map(m) = item {
                    for (k, v) in m.entries {
                        map.insert(k, v);
                    }
                }
            }
            Ok(())
        }
        Node::Scalar(_) => Err(WANT_MAP.into()),
    }
}

/// The first line of a directive (`%YAML`, `%TAG`) before any content, if any.
fn directive_line(text: &str) -> Option<&str> {
    for line in text.lines() {
        let t = line.trim_start_matches([' ']);
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        return line.starts_with('%').then_some(line);
    }
    None
}

/// Whether a double-quoted scalar's source holds the escape `\/`.
fn has_slash_escape(raw: &str) -> bool {
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next() == Some('/') {
            return true;
        }
    }
    false
}

/// Every tab of the first document (up to `end`) is inside a quoted scalar, or inside another
/// scalar or a comment but not in a line's indentation.
fn check_tabs(
    text: &str,
    end: usize,
    quoted: &[std::ops::Range<usize>],
    other: &[std::ops::Range<usize>],
) -> Result<(), ()> {
    let quoted = Intervals::new(quoted);
    let other = Intervals::new(other);
    // One pass: the tabs come in order, and so does the question of each one's line.
    let mut indentation = true;
    for (at, c) in text[..end.min(text.len())].char_indices() {
        match c {
            '\n' | '\r' => indentation = true,
            ' ' => {}
            '\t' => {
                if !quoted.contains(at) && (indentation || !other.contains(at)) {
                    return Err(());
                }
            }
            _ => indentation = false,
        }
    }
    Ok(())
}

/// Byte ranges, sorted and merged, to ask whether one holds a position in O(log n).
struct Intervals(Vec<std::ops::Range<usize>>);

impl Intervals {
    fn new(ranges: &[std::ops::Range<usize>]) -> Intervals {
        let mut sorted: Vec<std::ops::Range<usize>> = ranges.to_vec();
        sorted.sort_by_key(|r| r.start);
        let mut merged: Vec<std::ops::Range<usize>> = Vec::with_capacity(sorted.len());
        for r in sorted {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Intervals(merged)
    }

    fn contains(&self, at: usize) -> bool {
        let i = self.0.partition_point(|r| r.start <= at);
        i > 0 && self.0[i - 1].contains(&at)
    }
}

/// A block scalar that runs to the end of a text whose last line holds content and no line
/// break: libyaml reads no line break after that line, with clip and keep chomping alike
/// (granit-parser, reading YAML 1.2, gives one).
fn end_of_text_block(text: &str, mut value: String) -> String {
    let last_line = &text[text.rfind(['\n', '\r']).map_or(0, |i| i + 1)..];
    if !last_line.trim_matches([' ', '\t']).is_empty() && value.ends_with('\n') {
        value.pop();
    }
    value
}

/// Whether the first line that is neither blank nor a comment is the document end marker.
fn starts_with_document_end(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for line in text.lines() {
        let t = line.trim_start_matches([' ']);
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        return line
            .strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']));
    }
    false
}

/// Whether a `:` follows the scalar at `range` on its line (it is an implicit key).
fn followed_by_colon(text: &str, range: Option<&std::ops::Range<usize>>) -> bool {
    range
        .and_then(|r| text.get(r.end..))
        .is_some_and(|after| after.trim_start_matches([' ', '\t']).starts_with(':'))
}

/// Whether the `:` after the scalar at `range` stands on a later line: libyaml ends a flow
/// mapping's implicit key at the end of its line, so it refuses `{ a\n: 1 }`.
fn colon_on_a_later_line(text: &str, range: Option<&std::ops::Range<usize>>) -> bool {
    range.and_then(|r| text.get(r.end..)).is_some_and(|after| {
        let rest = after.trim_start_matches([' ', '\t']);
        rest.starts_with(['\n', '\r'])
            && rest
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .starts_with(':')
    })
}

/// Whether the text's first value is a flow collection (`[...]`, `{...}`): go-yaml v2 reads it
/// and ignores whatever follows, where ipreuse's parser refuses what follows.
fn starts_with_flow(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with(['[', '{'])
}

/// Whether the key whose scalar starts at `range` follows a `?` (an explicit key, which may
/// span lines).
fn explicit_key(text: &str, range: Option<&std::ops::Range<usize>>) -> bool {
    let Some(r) = range else { return false };
    text.get(..r.start)
        .map(|before| before.trim_end_matches([' ', '\t', '\n', '\r']))
        .is_some_and(|before| before.ends_with('?'))
}

/// go-yaml v2's `resolve` of a plain scalar with no tag, as decoded into an `interface{}`
/// (a timestamp stays the string it is written as).
fn resolve(s: &str) -> Scalar {
    if s.is_empty() {
        return Scalar::Null;
    }
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Scalar::Bool(true);
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Scalar::Bool(false);
        }
        "~" | "null" | "Null" | "NULL" => return Scalar::Null,
        ".nan" | ".NaN" | ".NAN" => return Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Scalar::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Scalar::Float(f64::NEG_INFINITY),
        _ => {}
    }
    let string = || Scalar::Str(s.to_string());
    match s.as_bytes()[0] {
        b'.' => {
            if !underscore_ok(s) {
                return string();
            }
            let plain: String = s.chars().filter(|&c| c != '_').collect();
            go_parse_float(&plain).map_or_else(string, Scalar::Float)
        }
        b'0'..=b'9' | b'+' | b'-' => {
            let plain: String = s.chars().filter(|&c| c != '_').collect();
            if let Some(i) = go_parse_int(&plain, 0) {
                return Scalar::Int(i);
            }
            if let Some(u) = go_parse_uint(&plain, 0) {
                return Scalar::Uint(u);
            }
            if yaml_style_float(&plain)
                && let Some(f) = go_parse_float(&plain)
            {
                return Scalar::Float(f);
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                if let Some(i) = go_parse_int(rest, 2) {
                    return Scalar::Int(i);
                }
                if let Some(u) = go_parse_uint(rest, 2) {
                    return Scalar::Uint(u);
                }
            } else if let Some(rest) = plain.strip_prefix("-0b")
                && let Some(i) = go_parse_int(&format!("-{rest}"), 2)
            {
                return Scalar::Int(i);
            }
            string()
        }
        _ => string(),
    }
}

/// Go's `strconv` `underscoreOK` for a decimal float: each `_` between two digits (`.5_0`).
fn underscore_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut saw = b'^';
    let start = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    for &c in &b[start..] {
        if c.is_ascii_digit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// Go's `strconv.ParseUint(s, base, 64)` for base 0 (prefixes `0b`, `0o`, `0x`, `0`) or a
/// given base, without underscores (go-yaml removed them).
fn go_parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (base, digits) = if base == 0 {
        let b = s.as_bytes();
        if b[0] == b'0' {
            match b.get(1).map(u8::to_ascii_lowercase) {
                Some(b'b') if b.len() >= 3 => (2, &s[2..]),
                Some(b'o') if b.len() >= 3 => (8, &s[2..]),
                Some(b'x') if b.len() >= 3 => (16, &s[2..]),
                _ => (8, &s[1..]),
            }
        } else {
            (10, s)
        }
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36)?;
        if d >= base {
            return None;
        }
        n = n.checked_mul(u64::from(base))?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// Go's `strconv.ParseInt(s, base, 64)`.
fn go_parse_int(s: &str, base: u32) -> Option<i64> {
    let (neg, rest) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let u = go_parse_uint(rest, base)?;
    if neg {
        if u > 1 << 63 {
            None
        } else {
            Some((u as i64).wrapping_neg())
        }
    } else {
        i64::try_from(u).ok()
    }
}

/// go-yaml v2's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseFloat(s, 64)` on the decimal forms go-yaml v2 gives it (a sign, digits
/// with at most one point, an exponent): `None` on a syntax error or when the value is out of
/// range (Go's `ErrRange`; an underflow to zero is no error in Go either).
fn go_parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut mantissa_digits = 0;
    let mut points = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => mantissa_digits += 1,
            b'.' => points += 1,
            _ => break,
        }
        i += 1;
    }
    if mantissa_digits == 0 || points > 1 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let f: f64 = s.parse().ok()?;
    f.is_finite().then_some(f)
}

enum Conv {
    NotJson(String),
    NotEvaluated(String),
}

/// `sigs.k8s.io/yaml`'s `convertToJSONableObject`, then `encoding/json`'s `Marshal`, read back.
fn to_json(node: &Node) -> Result<Value, Conv> {
    match node {
        Node::Scalar(s) => scalar_json(s),
        Node::Seq(items) => items
            .iter()
            .map(to_json)
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Node::Map(map) => {
            let mut out: BTreeMap<String, (&Scalar, Value)> = BTreeMap::new();
            for (k, v) in &map.entries {
                let name = key_string(k)?;
                let value = to_json(v)?;
                if let Some((other, _)) = out.get(&name) {
                    return Err(Conv::NotEvaluated(format!(
                        "two mapping keys that both become \"{name}\" ({} and {}), of which Go keeps one at random",
                        go_spelling(other),
                        go_spelling(k)
                    )));
                }
                out.insert(name, (k, value));
            }
            Ok(Value::Object(
                out.into_iter()
                    .map(|(k, (_, v))| (k, v))
                    .collect::<Map<_, _>>(),
            ))
        }
    }
}

fn go_spelling(s: &Scalar) -> String {
    match s {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => format!("the boolean {b}"),
        Scalar::Int(i) => format!("the integer {i}"),
        Scalar::Uint(u) => format!("the integer {u}"),
        Scalar::Float(f) => format!("the number {f}"),
        Scalar::Str(s) => format!("the string {s:?}"),
    }
}

/// `sigs.k8s.io/yaml`'s string for a map key.
fn key_string(k: &Scalar) -> Result<String, Conv> {
    match k {
        Scalar::Str(s) => Ok(s.clone()),
        Scalar::Int(i) => Ok(i.to_string()),
        Scalar::Bool(b) => Ok(b.to_string()),
        Scalar::Float(f) => Ok(format_float32_g(*f)),
        Scalar::Null => Err(Conv::NotJson(
            "a mapping key is null (empty, ~ or null), which Cluster API cannot turn into a JSON \
             key"
            .into(),
        )),
        Scalar::Uint(u) => Err(Conv::NotJson(format!(
            "the mapping key {u} is larger than a 64-bit signed integer, which Cluster API cannot \
             turn into a JSON key"
        ))),
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with `sigs.k8s.io/yaml`'s `.inf`, `-.inf`,
/// `.nan`.
fn format_float32_g(f: f64) -> String {
    let g = f as f32;
    if g.is_nan() {
        return ".nan".into();
    }
    if g.is_infinite() {
        return if g > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let (neg, digits, exp) = shortest_digits(&format!("{g:e}"));
    let mut s = String::from(if neg { "-" } else { "" });
    // Go's %g with the shortest precision: %e when the exponent is below -4 or at least 6.
    if !(-4..6).contains(&exp) {
        s.push_str(&e_form(&digits, exp));
    } else {
        s.push_str(&f_form(&digits, exp));
    }
    s
}

/// The sign, the digits and the decimal exponent of Rust's `{:e}` (shortest round-trip digits:
/// `1.25e3` is `("125", 3)`).
fn shortest_digits(e: &str) -> (bool, String, i32) {
    let (neg, e) = match e.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, e),
    };
    let (mantissa, exp) = e.split_once('e').unwrap_or((e, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (neg, digits.to_string(), exp.parse().unwrap_or(0))
}

/// `d.ddde±XX` as Go's `%e` with the shortest digits.
fn e_form(digits: &str, exp: i32) -> String {
    let mut s = digits[..1].to_string();
    if digits.len() > 1 {
        s.push('.');
        s.push_str(&digits[1..]);
    }
    s.push('e');
    s.push(if exp < 0 { '-' } else { '+' });
    s.push_str(&format!("{:02}", exp.unsigned_abs()));
    s
}

/// Go's `%f` with the shortest digits (`digits` = d.ddd × 10^exp).
fn f_form(digits: &str, exp: i32) -> String {
    let point = exp + 1; // digits before the decimal point
    let n = digits.len() as i32;
    if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point >= n {
        format!("{digits}{}", "0".repeat((point - n) as usize))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    }
}

/// A scalar as `encoding/json` writes it and a JSON reader reads it back.
fn scalar_json(s: &Scalar) -> Result<Value, Conv> {
    Ok(match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(*b),
        Scalar::Int(i) => Value::from(*i),
        Scalar::Uint(u) => Value::from(*u),
        Scalar::Str(s) => Value::String(s.clone()),
        Scalar::Float(f) => {
            if !f.is_finite() {
                let go = if f.is_nan() {
                    "NaN"
                } else if *f > 0.0 {
                    "+Inf"
                } else {
                    "-Inf"
                };
                return Err(Conv::NotJson(format!(
                    "infinity and not-a-number (.inf, .nan) are no JSON numbers (json: \
                     unsupported value: {go}); quote the value to make it a string"
                )));
            }
            let text = go_json_float(*f);
            serde_json::from_str(&text).map_err(|e| {
                Conv::NotEvaluated(format!("the number {f} (written by Go as {text}: {e})"))
            })?
        }
    })
}

/// `encoding/json`'s text for a finite float64: `%f` with the shortest digits, or `%e` below
/// 1e-6 or from 1e21 (with `e-07` cleaned to `e-7`).
fn go_json_float(f: f64) -> String {
    let (neg, digits, exp) = shortest_digits(&format!("{f:e}"));
    let abs = f.abs();
    let mut s = String::from(if neg { "-" } else { "" });
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let e = e_form(&digits, exp);
        // json cleans e-09 to e-9.
        s.push_str(&e.replace("e-0", "e-"));
    } else {
        s.push_str(&f_form(&digits, exp));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_1_1_scalars() {
        assert_eq!(read("0644"), Ok(json!(420)));
        assert_eq!(read("0x1F"), Ok(json!(31)));
        assert_eq!(read("0o17"), Ok(json!(15)));
        assert_eq!(read("0b101"), Ok(json!(5)));
        assert_eq!(read("1_000"), Ok(json!(1000)));
        assert_eq!(read("tRUE"), Ok(json!("tRUE")));
        assert_eq!(read("yes"), Ok(json!(true)));
        assert_eq!(read("Off\n"), Ok(json!(false)));
        assert_eq!(read("1:20"), Ok(json!("1:20")));
        assert_eq!(read("2001-12-14"), Ok(json!("2001-12-14")));
        assert_eq!(read("1.0"), Ok(json!(1)));
        assert_eq!(read("1.5"), Ok(json!(1.5)));
        assert_eq!(read("1e400"), Ok(json!("1e400")));
        assert_eq!(
            read("12345678901234567890"),
            Ok(json!(12345678901234567890u64))
        );
        assert_eq!(read(""), Ok(Value::Null));
        assert_eq!(read("~"), Ok(Value::Null));
        assert!(matches!(read(".inf"), Err(RenderedError::NotJson { .. })));
    }

    #[test]
    fn keys_become_strings_as_sigs_yaml_makes_them() {
        assert_eq!(
            read("{1: a, true: b, 1.5: c}"),
            Ok(json!({"1": "a", "true": "b", "1.5": "c"}))
        );
        assert_eq!(read("1e6: x"), Ok(json!({"1e+06": "x"})));
        assert!(read("{1: a, \"1\": b}").is_err());
        assert!(read("~: a").is_err());
        assert_eq!(read("a: 1\na: 2"), Ok(json!({"a": 2})));
    }

    #[test]
    fn merges_in_order() {
        assert_eq!(read("<<: {a: 1}\na: 2"), Ok(json!({"a": 2})));
        assert_eq!(read("a: 2\n<<: {a: 1}"), Ok(json!({"a": 1})));
        assert_eq!(
            read("<<: [{a: 1}, {a: 2, b: 3}]"),
            Ok(json!({"a": 1, "b": 3}))
        );
        assert!(read("<<: 1").is_err());
        assert_eq!(read("\"<<\": 1"), Ok(json!({"<<": 1})));
    }

    #[test]
    fn first_document_only_and_refusals() {
        assert_eq!(read("a: 1\n---\nb: 2"), Ok(json!({"a": 1})));
        assert!(matches!(
            read("!!binary aGk="),
            Err(RenderedError::NotEvaluated { .. })
        ));
        assert!(read("a:\n\t- 1").is_err());
        assert!(read("\"\\/\"").is_err());
        // Tabs inside a flow collection are whitespace to libyaml (CAPI's own test renders JSON
        // indented with tabs).
        assert_eq!(
            read("\n{\n\t\"a\": [\n\t\t1\n\t]\n}"),
            Ok(json!({"a": [1]}))
        );
    }

    #[test]
    fn tags_as_go_yaml_v2_decodes_them() {
        assert_eq!(read("!!str 1"), Ok(json!("1")));
        assert_eq!(read("!!int \"0x1F\""), Ok(json!(31)));
        assert_eq!(read("!!float 2"), Ok(json!(2)));
        assert_eq!(read("!!float 2.5"), Ok(json!(2.5)));
        assert_eq!(read("!foo 1"), Ok(json!("1")));
        assert_eq!(read("! yes"), Ok(json!("yes")));
        assert_eq!(read("!!map {a: 1}"), Ok(json!({"a": 1})));
        assert!(matches!(read("!!int a"), Err(RenderedError::Syntax { .. })));
    }

    #[test]
    fn anchors_and_aliases_as_go_yaml_v2_expands_them() {
        assert_eq!(read("a: &x 1\nb: *x"), Ok(json!({"a": 1, "b": 1})));
        assert_eq!(
            read("base: &b {p: 1, q: 2}\nc:\n  <<: *b\n  q: 3"),
            Ok(json!({"base": {"p": 1, "q": 2}, "c": {"p": 1, "q": 3}}))
        );
        assert_eq!(read("- &k a\n- {*k : 1}"), Ok(json!(["a", {"a": 1}])));
        // Each alias counts with the aliases inside the node it copies, as go-yaml v2 counts.
        let mut laughs = String::from("a: &a [x]\n");
        for (i, prev) in ["a", "b", "c", "d", "e", "f", "g"].iter().enumerate() {
            let name = ["b", "c", "d", "e", "f", "g", "h"][i];
            laughs.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}]\n"));
        }
        assert!(matches!(
            read(&laughs),
            Err(RenderedError::NotEvaluated { .. })
        ));
    }

    #[test]
    fn deep_or_large_texts_end_without_a_crash() {
        for depth in [100, 1000, 100_000] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let _ = read(&text);
            let text = format!("{}1{}", "{a: ".repeat(depth), "}".repeat(depth));
            let _ = read(&text);
        }
        // Tab-indented JSON of many lines reads in one pass over its tabs.
        let mut json = String::from("[\n");
        for i in 0..20_000 {
            json.push_str(&format!("\t{{\"k\": \"v{i}\"}},\n"));
        }
        json.push_str("\t0\n]");
        let value = read(&json);
        assert!(
            matches!(value, Ok(Value::Array(ref a)) if a.len() == 20_001),
            "{value:?}"
        );
    }

    #[test]
    fn messages_cut_a_long_text() {
        let text = format!("a: [{}", "x, ".repeat(10_000));
        let message = read(&text).map_err(|e| e.to_string());
        assert!(
            matches!(&message, Err(m) if m.len() < 1000 && m.contains("bytes in all")),
            "{message:?}"
        );
    }

    #[test]
    fn enabled_if() {
        assert_eq!(is_true("true"), Ok(true));
        assert_eq!(is_true("  True\n"), Ok(true));
        assert_eq!(is_true("on"), Ok(true));
        assert_eq!(is_true("tRUE"), Ok(false));
        assert_eq!(is_true("\"true\""), Ok(false));
        assert_eq!(is_true(""), Ok(false));
        assert_eq!(is_true("[true]"), Ok(false));
        assert!(is_true("a: b: c").is_err());
    }

    #[test]
    fn go_float_text() {
        assert_eq!(go_json_float(1.0), "1");
        assert_eq!(go_json_float(1e20), "100000000000000000000");
        assert_eq!(go_json_float(1e21), "1e+21");
        assert_eq!(go_json_float(1.5e-7), "1.5e-7");
        assert_eq!(go_json_float(0.000001), "0.000001");
        assert_eq!(go_json_float(-0.0), "-0");
        assert_eq!(format_float32_g(0.1), "0.1");
        assert_eq!(format_float32_g(100000.0), "100000");
        assert_eq!(format_float32_g(1e-5), "1e-05");
    }
}
