//! A lean second reader for the safety net: the JSON value of a text written in the plain
//! subset of YAML, straight from the parser's events, with no positioned tree.
//!
//! It reads only what it can read exactly as [`crate::yaml::parse`] and
//! [`crate::yaml::Node::to_json`] do, and gives up (`None`) on everything else: more or fewer
//! than one document, anchors, aliases, tags, merge keys, collection keys, empty keys,
//! duplicate keys and syntax errors. A caller that gets `None` reads the text with the full
//! parser instead, so giving up is always safe; answering is what must be exact.
//!
//! The safety net asks only whether a text reads as a value it already holds:
//! [`reads_simply_as`] answers that from the same events without building the value read,
//! and says yes exactly when [`read_simple`] would read that value.

use granit_parser::{Event, Options, Parser, ScalarStyle as GStyle};
use serde_json::{Map, Value};

use super::scalar::{PlainType, plain_type};
use super::tree::{ScalarStyle, untagged_scalar_json};
use crate::FastSet;

enum Frame {
    /// A mapping's entries and the key read before its value.
    Map(Map<String, Value>, Option<String>),
    Seq(Vec<Value>),
}

/// The JSON value of `text` when it is one document in the plain subset of YAML (see the
/// module); `None` when it is not.
pub fn read_simple(text: &str) -> Option<Value> {
    let mut options = Options::default();
    options.set_emit_comments(false);
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Value> = None;
    let mut documents = 0;
    for event in Parser::new_from_str_with_options(text, options) {
        let (event, span) = event.ok()?;
        let is_key = matches!(stack.last(), Some(Frame::Map(_, None)));
        let value = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => continue,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return None;
                }
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 || tag.is_some() {
                    return None;
                }
                let empty = span.byte_range().is_none_or(|r| r.is_empty());
                let style = match style {
                    GStyle::Plain => ScalarStyle::Plain,
                    GStyle::SingleQuoted => ScalarStyle::SingleQuoted,
                    GStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
                    GStyle::Literal => ScalarStyle::Literal,
                    GStyle::Folded => ScalarStyle::Folded,
                };
                let plain = style == ScalarStyle::Plain;
                if is_key {
                    if plain && (empty || value == "<<") {
                        return None;
                    }
                    if let Some(Frame::Map(_, key)) = stack.last_mut() {
                        *key = Some(value.into_owned());
                    }
                    continue;
                }
                if plain && empty {
                    Value::Null
                } else {
                    untagged_scalar_json(&value, style)
                }
            }
            Event::MappingStart(_, anchor, tag) => {
                if anchor != 0 || tag.is_some() || is_key {
                    return None;
                }
                stack.push(Frame::Map(Map::new(), None));
                continue;
            }
            Event::SequenceStart(_, anchor, tag) => {
                if anchor != 0 || tag.is_some() || is_key {
                    return None;
                }
                stack.push(Frame::Seq(Vec::new()));
                continue;
            }
            Event::MappingEnd => match stack.pop()? {
                Frame::Map(map, None) => Value::Object(map),
                _ => return None,
            },
            Event::SequenceEnd => match stack.pop()? {
                Frame::Seq(items) => Value::Array(items),
                Frame::Map(..) => return None,
            },
            _ => return None,
        };
        match stack.last_mut() {
            None if root.is_none() => root = Some(value),
            None => return None,
            Some(Frame::Seq(items)) => items.push(value),
            Some(Frame::Map(map, key)) => {
                if map.insert(key.take()?, value).is_some() {
                    return None;
                }
            }
        }
    }
    root.filter(|_| documents == 1)
}

/// One open collection of [`reads_simply_as`], with the part of the meant value it must equal.
enum Expect<'m> {
    Map {
        meant: &'m Map<String, Value>,
        /// The meant entries not matched yet, while the text's keys come in their order.
        in_order: std::iter::Peekable<serde_json::map::Iter<'m>>,
        /// The keys matched, once a key came out of that order (then looked up by hash).
        seen: Option<FastSet<&'m str>>,
        matched: usize,
        /// The meant value of the key just read.
        pending: Option<&'m Value>,
    },
    Seq {
        meant: &'m [Value],
        next: usize,
    },
}

impl<'m> Expect<'m> {
    fn of(meant: &'m Value, is_map: bool) -> Option<Expect<'m>> {
        match (meant, is_map) {
            (Value::Object(m), true) => Some(Expect::Map {
                meant: m,
                in_order: m.iter().peekable(),
                seen: None,
                matched: 0,
                pending: None,
            }),
            (Value::Array(a), false) => Some(Expect::Seq { meant: a, next: 0 }),
            _ => None,
        }
    }

    /// Reads key `key`: `false` when the meant mapping has no such key or had it already.
    fn key(&mut self, key: &str) -> bool {
        let Expect::Map {
            meant,
            in_order,
            seen,
            matched,
            pending,
        } = self
        else {
            return false;
        };
        if seen.is_none() {
            if let Some((_, v)) = in_order.next_if(|(k, _)| k.as_str() == key) {
                *pending = Some(v);
                *matched += 1;
                return true;
            }
            // Out of order from here: the keys matched so far are the meant map's first ones.
            *seen = Some(meant.keys().take(*matched).map(String::as_str).collect());
        }
        let Some(set) = seen else {
            return false;
        };
        match meant.get_key_value(key) {
            Some((k, v)) if set.insert(k.as_str()) => {
                *pending = Some(v);
                *matched += 1;
                true
            }
            _ => false,
        }
    }

    /// The meant value the next node must equal (a mapping's value or a list's next item).
    fn next_value(&mut self) -> Option<&'m Value> {
        match self {
            Expect::Map { pending, .. } => pending.take(),
            Expect::Seq { meant, next } => {
                let v = meant.get(*next)?;
                *next += 1;
                Some(v)
            }
        }
    }

    /// Whether every meant entry or item was read.
    fn complete(&self) -> bool {
        match self {
            Expect::Map {
                meant,
                matched,
                pending,
                ..
            } => pending.is_none() && *matched == meant.len(),
            Expect::Seq { meant, next } => *next == meant.len(),
        }
    }
}

/// Whether `text` is one document in the plain subset of YAML (see the module) whose JSON value
/// is `meant`: exactly when [`read_simple`] would read `meant` (`==`), without building what it
/// reads. `false` when it is not, or when it is outside that subset.
pub fn reads_simply_as(text: &str, meant: &Value) -> bool {
    let mut options = Options::default();
    options.set_emit_comments(false);
    let mut stack: Vec<Expect> = Vec::new();
    let mut root_done = false;
    let mut documents = 0;
    for event in Parser::new_from_str_with_options(text, options) {
        let Ok((event, span)) = event else {
            return false;
        };
        let is_key = matches!(stack.last(), Some(Expect::Map { pending: None, .. }));
        let is_map = matches!(event, Event::MappingStart(..) | Event::MappingEnd);
        match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => continue,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return false;
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 || tag.is_some() {
                    return false;
                }
                let empty = span.byte_range().is_none_or(|r| r.is_empty());
                let plain = style == GStyle::Plain;
                if is_key {
                    if plain && (empty || value == "<<") {
                        return false;
                    }
                    if !stack.last_mut().is_some_and(|f| f.key(&value)) {
                        return false;
                    }
                    continue;
                }
                let Some(want) = expected(&mut stack, root_done, meant) else {
                    return false;
                };
                let same = if plain && empty {
                    want.is_null()
                } else if !plain || plain_type(&value) == PlainType::Str {
                    // a string, as `untagged_scalar_json` reads it, with no copy made
                    want.as_str() == Some(&*value)
                } else {
                    untagged_scalar_json(&value, ScalarStyle::Plain) == *want
                };
                if !same {
                    return false;
                }
                if stack.is_empty() {
                    root_done = true;
                }
            }
            Event::MappingStart(_, anchor, tag) | Event::SequenceStart(_, anchor, tag) => {
                if anchor != 0 || tag.is_some() || is_key {
                    return false;
                }
                let Some(frame) =
                    expected(&mut stack, root_done, meant).and_then(|w| Expect::of(w, is_map))
                else {
                    return false;
                };
                stack.push(frame);
            }
            Event::MappingEnd | Event::SequenceEnd => {
                match stack.pop() {
                    Some(f) if f.complete() && matches!(f, Expect::Map { .. }) == is_map => {}
                    _ => return false,
                }
                if stack.is_empty() {
                    root_done = true;
                }
            }
            _ => return false,
        }
    }
    root_done && stack.is_empty() && documents == 1
}

/// The meant value of the node that starts now (not a key): the root's, or the next one of the
/// open collection. `None` when there is none (a second root, a list longer than meant).
fn expected<'m>(stack: &mut [Expect<'m>], root_done: bool, meant: &'m Value) -> Option<&'m Value> {
    match stack.last_mut() {
        None if !root_done => Some(meant),
        None => None,
        Some(frame) => frame.next_value(),
    }
}
