//! A lean second reader for the safety net: the JSON value of a text written in the plain
//! subset of YAML, straight from the parser's events, with no positioned tree.
//!
//! It reads only what it can read exactly as [`crate::yaml::parse`] and
//! [`crate::yaml::Node::to_json`] do, and gives up (`None`) on everything else: more or fewer
//! than one document, anchors, aliases, tags, merge keys, collection keys, empty keys,
//! duplicate keys and syntax errors. A caller that gets `None` reads the text with the full
//! parser instead, so giving up is always safe; answering is what must be exact.

use granit_parser::{Event, Options, Parser, ScalarStyle as GStyle};
use serde_json::{Map, Value};

use super::tree::{ScalarStyle, untagged_scalar_json};

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
