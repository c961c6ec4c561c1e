//! The one YAML emitter: every piece of new YAML text is written here.
//!
//! Scalars are written by the quoting rules of `scalar` (plain only when that reads back as the
//! same value, else single- or double-quoted). Collections are composed from their parts the
//! same way everywhere: a mapping entry is `key: value` on one line, or `key:` with the value's
//! lines indented below it by the step; a sequence item is `- value`, the lines after the first
//! of a multi-line value indented under it. [`to_yaml_block`] renders a JSON value (the
//! `results:` of a ResourceList); the edit layer composes the values it writes ([`NewValue`])
//! with the same functions, and writes their flow form inside flow collections.
//!
//! Text is written at indent 0 with `\n` line breaks; the edit layer indents it where it goes
//! and the splicer turns `\n` into the text's own line break.

use serde_json::Value;

use super::parse::parse_counting_anchors;
use super::scalar::{
    double_quote, plain_safe, plain_type, push_double_quoted, push_string_scalar, single_quote,
    single_quote_safe, string_scalar,
};
use super::tree::{NodeKind, Scalar, ScalarStyle};

/// How an edit writes a new string scalar ([`crate::yaml::Edit::SetScalar`],
/// [`crate::yaml::Edit::AppendItem`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteStyle {
    /// The node's current style when the value can be written in it safely (plain: only if the
    /// value reads back as the same text and the same core-schema type as the old value;
    /// single-quoted: one printable line), else double-quoted. Block scalars become double-quoted.
    /// A new sequence item takes the style of the sequence's last item by the same rules, plain
    /// only when it reads back as the same string (plain when safe if the last item is not a
    /// scalar, or there is none).
    Keep,
    /// Always double-quoted (escaped).
    DoubleQuoted,
    /// As [`WriteStyle::Keep`], except that a literal block scalar (`|`) stays one when the
    /// value can be written as one exactly (`literal_lines`): at the block's own content
    /// indentation, its header comment kept, `|` for a value that ends with one line break and
    /// `|-` for one that ends without (a SetScalar of a multi-line text, such as a file kept in
    /// a ConfigMap). Any other value of a block scalar is double-quoted, as with Keep.
    KeepBlock,
}

/// The kind of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueKind {
    Scalar,
    Map,
    Seq,
}

/// A new value to write into a slot: its block form (indent 0, no final newline), its
/// one-line form if it has one, its flow form, and its kind.
#[derive(Debug, Clone)]
pub(crate) struct NewValue {
    pub(crate) block: String,
    pub(crate) inline: Option<String>,
    flow: Flow,
    pub(crate) kind: ValueKind,
}

/// How a [`NewValue`] has its flow form, which only a flow collection needs: most values are
/// written in block form and never need it, so it is made when asked for where it is not
/// already written.
#[derive(Debug, Clone)]
enum Flow {
    /// This text.
    Text(String),
    /// The one-line form.
    Inline,
    /// A mapping whose block form is one `key: value` line per entry, each value on its line:
    /// `{` the lines joined by `, ` `}`.
    Lines,
}

/// How a value is placed after `key:` or `- `: on that line, or as lines of its own (block).
#[derive(Clone, Copy)]
enum Form<'a> {
    Inline(&'a str),
    Block(&'a str),
}

impl NewValue {
    /// A string written double-quoted.
    pub(crate) fn string(v: &str) -> NewValue {
        let q = double_quote(v);
        NewValue {
            block: q.clone(),
            inline: Some(q),
            flow: Flow::Inline,
            kind: ValueKind::Scalar,
        }
    }

    /// A new mapping holding `entries` (values double-quoted): the block text of
    /// [`NewValue::map`] of [`NewValue::string`]s, written straight, one line per entry.
    pub(crate) fn entries<'e>(
        entries: impl Iterator<Item = &'e (String, String)> + Clone,
    ) -> NewValue {
        let mut block =
            String::with_capacity(entries.clone().map(|(k, v)| k.len() + v.len() + 6).sum());
        for (i, (k, v)) in entries.enumerate() {
            if i > 0 {
                block.push('\n');
            }
            push_string_scalar(&mut block, k);
            block.push_str(": ");
            push_double_quoted(&mut block, v);
        }
        NewValue {
            block,
            inline: None,
            flow: Flow::Lines,
            kind: ValueKind::Map,
        }
    }

    /// The flow form: one line, for a place in a flow collection.
    pub(crate) fn flow(&self) -> String {
        match &self.flow {
            Flow::Text(text) => text.clone(),
            Flow::Inline => self.inline.clone().unwrap_or_else(|| self.block.clone()),
            Flow::Lines => format!(
                "{{{}}}",
                self.block.split('\n').collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// A new mapping holding `pairs`, in order (nested lines indented by `step`).
    pub(crate) fn map(pairs: &[(String, NewValue)], step: usize) -> NewValue {
        let block = pairs
            .iter()
            .map(|(k, v)| entry(k, v, step))
            .collect::<Vec<_>>()
            .join("\n");
        let flow = flow_map(pairs.iter().map(|(k, v)| (k.as_str(), v.flow())));
        NewValue {
            block,
            inline: None,
            flow: Flow::Text(flow),
            kind: ValueKind::Map,
        }
    }

    /// A value given as YAML text (one document, block style, written at indent 0): the text
    /// itself as its block form (line breaks made `\n`, blank lines around it dropped), on one
    /// line when it is a one-line flow collection or non-block scalar, and its flow form
    /// rewritten from the value it reads as (comments dropped). No anchors may be defined: a
    /// new anchor could capture an alias that refers to an earlier one of the same name. The
    /// error is the reason the text is refused.
    pub(crate) fn from_yaml(yaml: &str) -> Result<NewValue, String> {
        let normalized = yaml.replace("\r\n", "\n").replace('\r', "\n");
        let trimmed = normalized.trim_end_matches(['\n', ' ', '\t']);
        let trimmed = trimmed.trim_start_matches('\n');
        let (docs, anchors) =
            parse_counting_anchors(trimmed, crate::limits::DEFAULT_MAX_ALIAS_NODES)
                .map_err(|e| e.to_string())?;
        if anchors > 0 {
            return Err("anchors (`&name`) are not allowed in a value".into());
        }
        let [doc] = docs.as_slice() else {
            return Err(format!("expected one document, found {}", docs.len()));
        };
        let single_line = !trimmed.contains('\n');
        let inline_ok = single_line
            && match &doc.root.kind {
                NodeKind::Scalar(s) => {
                    !matches!(s.style, ScalarStyle::Literal | ScalarStyle::Folded)
                }
                NodeKind::Map(m) => m.flow,
                NodeKind::Seq(s) => s.flow,
                NodeKind::Alias(_) | NodeKind::Skipped(_) => false,
            };
        if trimmed.starts_with("---") || trimmed.contains("\n---") || trimmed.contains("\n...") {
            return Err("document markers are not allowed in a value".into());
        }
        let kind = match &doc.root.resolved().kind {
            NodeKind::Map(_) => ValueKind::Map,
            NodeKind::Seq(_) => ValueKind::Seq,
            _ => ValueKind::Scalar,
        };
        Ok(NewValue {
            block: trimmed.to_owned(),
            inline: inline_ok.then(|| trimmed.to_owned()),
            flow: Flow::Text(flow(&doc.root.to_json())),
            kind,
        })
    }

    fn form(&self) -> Form<'_> {
        match &self.inline {
            Some(inline) => Form::Inline(inline),
            None => Form::Block(&self.block),
        }
    }
}

/// The entry `key: value` as block text at indent 0 (nested lines indented by `step`).
pub(crate) fn entry(key: &str, value: &NewValue, step: usize) -> String {
    entry_text(key, value.form(), step)
}

/// The entry `key: value` of a flow mapping, `value` being flow text.
pub(crate) fn flow_entry(key: &str, value: &str) -> String {
    format!("{}: {value}", string_scalar(key))
}

/// The flow mapping `{key: value, ...}` of keys and flow values.
fn flow_map<'k>(pairs: impl Iterator<Item = (&'k str, String)>) -> String {
    let parts: Vec<String> = pairs.map(|(k, v)| flow_entry(k, &v)).collect();
    format!("{{{}}}", parts.join(", "))
}

fn entry_text(key: &str, value: Form<'_>, step: usize) -> String {
    let k = string_scalar(key);
    match value {
        Form::Inline(inline) => format!("{k}: {inline}"),
        Form::Block(block) => format!("{k}:\n{}", indent_lines(block, step)),
    }
}

fn item_text(value: Form<'_>) -> String {
    match value {
        Form::Inline(inline) => format!("- {inline}"),
        Form::Block(block) => format!("- {}", indent_rest(block, 2)),
    }
}

/// The sequence item `- value` at indent 0 (`value` one line).
pub(crate) fn item(value: &str) -> String {
    item_text(Form::Inline(value))
}

/// The string `value` written as a new scalar next to a sibling of style `like` (`None`: no
/// scalar sibling), in `style` (see [`WriteStyle`]): it reads back as this very string.
pub(crate) fn string_like(like: Option<ScalarStyle>, value: &str, style: WriteStyle) -> String {
    match (style, like) {
        (WriteStyle::Keep | WriteStyle::KeepBlock, None | Some(ScalarStyle::Plain)) => {
            string_scalar(value)
        }
        (WriteStyle::Keep | WriteStyle::KeepBlock, Some(ScalarStyle::SingleQuoted))
            if single_quote_safe(value) =>
        {
            single_quote(value)
        }
        _ => double_quote(value),
    }
}

/// `value` written for the scalar `old` it replaces, in `style` (see [`WriteStyle`]).
pub(crate) fn scalar_replacing(old: &Scalar, value: &str, style: WriteStyle) -> String {
    match (style, old.style) {
        (WriteStyle::Keep | WriteStyle::KeepBlock, ScalarStyle::Plain)
            if plain_safe(value)
                && (old.tag.is_some() || plain_type(value) == plain_type(&old.value)) =>
        {
            value.to_owned()
        }
        (WriteStyle::Keep | WriteStyle::KeepBlock, ScalarStyle::SingleQuoted)
            if single_quote_safe(value) =>
        {
            single_quote(value)
        }
        _ => double_quote(value),
    }
}

/// The lines of `value` written as the content of a literal block scalar, with its chomping
/// indicator (`""` for clip, `"-"` for strip); `None` when a literal block cannot hold the value
/// exactly: an empty value, more than one final line break (that needs `|+`), a first line
/// that starts with a space or tab (that needs an indentation indicator), a line of nothing but
/// spaces and tabs, or a character YAML does not allow there (a control character other than
/// tab, a CR, a BOM, a Unicode line or paragraph separator).
pub(crate) fn literal_lines(value: &str) -> Option<(Vec<&str>, &'static str)> {
    let (body, chomp) = match value.strip_suffix('\n') {
        Some(body) => (body, ""),
        None => (value, "-"),
    };
    let allowed = |c: char| {
        c == '\t'
            || c == '\n'
            || !(c.is_control() || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}'))
    };
    if body.is_empty()
        || body.ends_with('\n')
        || body.starts_with([' ', '\t', '\n'])
        || !body.chars().all(allowed)
    {
        return None;
    }
    let lines: Vec<&str> = body.split('\n').collect();
    if lines
        .iter()
        .any(|l| !l.is_empty() && l.trim_matches([' ', '\t']).is_empty())
    {
        return None;
    }
    Some((lines, chomp))
}

/// `value` as flow YAML on one line.
pub(crate) fn flow(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_scalar(s),
        Value::Array(a) => format!("[{}]", a.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => flow_map(o.iter().map(|(k, v)| (k.as_str(), flow(v)))),
    }
}

/// Every non-empty line of `block` prefixed by `col` spaces.
pub(crate) fn indent_lines(block: &str, col: usize) -> String {
    let pad = " ".repeat(col);
    let mut out = String::with_capacity(block.len() + col * 4);
    for (i, line) in block.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if !line.is_empty() {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

/// Like [`indent_lines`] but the first line is not indented (it follows a `- ` or a `key: `).
pub(crate) fn indent_rest(block: &str, col: usize) -> String {
    match block.split_once('\n') {
        None => block.to_owned(),
        Some((first, rest)) => format!("{first}\n{}", indent_lines(rest, col)),
    }
}

/// The indentation step of [`to_yaml_block`].
const BLOCK_STEP: usize = 2;

/// Renders `value` as clean block YAML at indent 0, ending with a newline: mappings as
/// `key: value` lines, sequences as `- item` lines (nested collections indented by two spaces),
/// empty collections as `{}` / `[]`. Strings are written plain when that reads back as the same
/// string, else double-quoted with escapes, so parsing the output with [`crate::yaml::parse`]
/// and reading it with [`crate::yaml::Node::to_json`] gives `value` back.
pub fn to_yaml_block(value: &Value) -> String {
    let mut out = json_block(value).unwrap_or_else(|| flow(value));
    out.push('\n');
    out
}

/// The block text (indent 0, no final newline) of a non-empty collection; `None` for a scalar
/// or an empty collection, which are written on one line.
fn json_block(value: &Value) -> Option<String> {
    let lines: Vec<String> = match value {
        Value::Object(map) if !map.is_empty() => map
            .iter()
            .map(|(k, v)| json_form(v, |form| entry_text(k, form, BLOCK_STEP)))
            .collect(),
        Value::Array(items) if !items.is_empty() => {
            items.iter().map(|v| json_form(v, item_text)).collect()
        }
        _ => return None,
    };
    Some(lines.join("\n"))
}

/// `place` applied to the form of `value` (block for a non-empty collection, else one line).
fn json_form(value: &Value, place: impl FnOnce(Form<'_>) -> String) -> String {
    match json_block(value) {
        Some(block) => place(Form::Block(&block)),
        None => place(Form::Inline(&flow(value))),
    }
}
