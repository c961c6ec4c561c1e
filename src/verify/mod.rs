//! The write safety net (SPEC §6 "Sound"): before anything is written, the edited text is read
//! again and must hold exactly the values the edits meant, and everything else as it was.
//!
//! What "meant" is comes from [`Edit::apply_to_json`]: the JSON each changed document reads as
//! must equal the original document's JSON with its edits made on it. A document no change
//! touches is byte for byte the original and is not read again.
//!
//! Reading again costs a parse, so the net reads as little as is sound:
//! - each document a change touches is parsed alone (documents of a stream are independent
//!   when the next one starts with `---` and the text has no `%` directives);
//! - in a large document of items (a ResourceList, a `List`), the items no change touches are
//!   each byte for byte the original, in the same place of the same sequence: every run of
//!   them is read as one `{}` placeholder, so only the frame and the changed items are parsed.
//!
//! Whenever a shortcut does not apply or does not confirm the text, the whole text is parsed
//! and every document compared: the answer is then exact, and a failure names the document and
//! the first path where what was written differs from what was meant.
//!
//! The documents read in may have parts that were not built ([`yaml::parse_items`]): the
//! written text is always parsed whole, and what was meant of a document, or of an item in a
//! skeleton, that has such a part is read again, whole, from the original text.

use crate::FastSet;

use serde_json::Value;

use crate::yaml::{self, Applied, Document, Edit, Mapping, Node, NodeKind, Seg, Sequence};

/// The nodes of a document that an alias (`*name`) uses, by their spans.
///
/// An edit inside such a node would change every place that uses it too; the net's model of an
/// edit is one change at one path, so such edits are refused before anything is written.
#[derive(Debug, Default)]
pub struct Anchored(FastSet<(usize, usize)>);

impl Anchored {
    /// The aliased nodes of `doc` (none when the document uses no alias).
    pub fn of(doc: &Document) -> Anchored {
        let mut set = FastSet::default();
        if doc.has_aliases {
            collect_alias_targets(&doc.root, &mut set);
        }
        Anchored(set)
    }

    /// How many segments of `path` lead from `root` to the first node on the way that an alias
    /// uses (0: the root itself), if any.
    pub fn used_on(&self, root: &Node, path: &[Seg]) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let mut node = root;
        for i in 0..=path.len() {
            if self.0.contains(&(node.span.start, node.span.end)) {
                return Some(i);
            }
            node = match path.get(i)? {
                Seg::Key(k) => node.get(k)?,
                Seg::Index(j) => node.get_index(*j)?,
            };
        }
        None
    }
}

fn collect_alias_targets(node: &Node, set: &mut FastSet<(usize, usize)>) {
    match &node.kind {
        NodeKind::Alias(target) => {
            set.insert((target.span.start, target.span.end));
        }
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                collect_alias_targets(k, set);
                collect_alias_targets(v, set);
            }
        }
        NodeKind::Seq(s) => s.items.iter().for_each(|i| collect_alias_targets(i, set)),
        NodeKind::Scalar(_) | NodeKind::Skipped(_) => {}
    }
}

/// A document of items is checked through a skeleton when it has at least this many items.
const SKELETON_MIN_ITEMS: usize = 64;

/// The output bytes of the touched items a skeleton reads at once (see [`Skeleton::batches`]).
const BATCH_BYTES: usize = 256 * 1024;

/// Why the written text does not hold what was meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The document (index in the source's documents) where it differs; `None` when the text
    /// as a whole does not read (not YAML, or another number of documents).
    pub doc: Option<usize>,
    /// The first path (from the document's root) where it differs.
    pub path: Vec<Seg>,
    /// What differs.
    pub message: String,
}

/// Checks that `applied` (the edited `original`) reads back as `docs` with `edits` made on
/// them. Each edit is `(document index, edit with its path from that document's root)`.
pub fn check(
    original: &str,
    docs: &[Document],
    edits: &[(usize, Edit)],
    applied: &Applied,
) -> Result<(), Mismatch> {
    if applied.changes().is_empty() && edits.is_empty() {
        return Ok(());
    }
    if quick(original, docs, edits, applied) {
        return Ok(());
    }
    full(original, docs, edits, applied)
}

/// The exact check: parse the whole output, compare every document.
fn full(
    original: &str,
    docs: &[Document],
    edits: &[(usize, Edit)],
    applied: &Applied,
) -> Result<(), Mismatch> {
    // What was meant is read from whole documents: those with a part not built are read again.
    let whole;
    let docs = if docs.iter().any(|d| d.skipped) {
        whole = yaml::parse(original).map_err(|e| Mismatch {
            doc: None,
            path: Vec::new(),
            message: format!("the original text does not read again ({e})"),
        })?;
        whole.as_slice()
    } else {
        docs
    };
    let written = yaml::parse(&applied.text).map_err(|e| Mismatch {
        doc: doc_of_line(docs, applied, e.line),
        path: Vec::new(),
        message: format!("the edited text is not valid YAML ({e})"),
    })?;
    if written.len() != docs.len() {
        return Err(Mismatch {
            doc: None,
            path: Vec::new(),
            message: format!(
                "the edited text holds {} document(s) where {} were meant",
                written.len(),
                docs.len()
            ),
        });
    }
    let per_doc = by_doc(docs.len(), edits);
    for (d, (old, new)) in docs.iter().zip(&written).enumerate() {
        let mut meant = old.root.to_json();
        for edit in &per_doc[d] {
            edit.apply_to_json(&mut meant).map_err(|e| Mismatch {
                doc: Some(d),
                path: edit.path().to_vec(),
                message: format!("an edit does not fit the document ({e})"),
            })?;
        }
        compare(&meant, &new.root.to_json(), &mut Vec::new()).map_err(|(path, message)| {
            Mismatch {
                doc: Some(d),
                path,
                message,
            }
        })?;
    }
    Ok(())
}

/// The document whose edited text holds 1-based line `line` of the output.
fn doc_of_line(docs: &[Document], applied: &Applied, line: usize) -> Option<usize> {
    let bytes = applied.text.as_bytes();
    let mut offset = 0;
    for _ in 1..line {
        offset += bytes.get(offset..)?.iter().position(|&b| b == b'\n')? + 1;
    }
    let starts = docs.iter().skip(1).map(|d| applied.map(d.span.start, true));
    Some(starts.take_while(|&s| s <= offset).count()).filter(|&d| d < docs.len())
}

/// The first difference between what was meant and what was written, as (path, message).
fn compare(meant: &Value, written: &Value, path: &mut Vec<Seg>) -> Result<(), (Vec<Seg>, String)> {
    match (meant, written) {
        (Value::Object(m), Value::Object(w)) => {
            for (k, mv) in m {
                path.push(Seg::key(k));
                match w.get(k) {
                    Some(wv) => compare(mv, wv, path)?,
                    None => {
                        return Err((
                            path.clone(),
                            format!("{} was meant but is missing", short(mv)),
                        ));
                    }
                }
                path.pop();
            }
            if let Some(k) = w.keys().find(|k| !m.contains_key(*k)) {
                path.push(Seg::key(k));
                return Err((path.clone(), "is written but was not meant to be".into()));
            }
            Ok(())
        }
        (Value::Array(m), Value::Array(w)) if m.len() == w.len() => {
            for (i, (mv, wv)) in m.iter().zip(w).enumerate() {
                path.push(Seg::Index(i));
                compare(mv, wv, path)?;
                path.pop();
            }
            Ok(())
        }
        _ if meant == written => Ok(()),
        _ => Err((
            path.clone(),
            format!(
                "reads back as {} where {} was meant",
                short(written),
                short(meant)
            ),
        )),
    }
}

/// A value for a message, cut short.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// The cheap check; `true` only when it confirms the text. `false` means "read it all".
fn quick(original: &str, docs: &[Document], edits: &[(usize, Edit)], applied: &Applied) -> bool {
    if docs.is_empty() || has_directives(original) {
        return false;
    }
    // Document regions partition the original: doc d is [starts[d], starts[d + 1]).
    let mut starts: Vec<usize> = docs.iter().map(|d| d.span.start).collect();
    starts[0] = 0;
    starts.push(original.len());
    if starts.windows(2).any(|w| w[0] > w[1]) {
        return false;
    }
    let out_len = applied.text.len();
    let per_doc = by_doc(docs.len(), edits);
    let mut touched: Vec<bool> = per_doc.iter().map(|e| !e.is_empty()).collect();
    for c in applied.changes() {
        // the documents whose closed region [start, end] meets the change
        let first = starts[1..].partition_point(|&end| end < c.start);
        for d in first..docs.len() {
            if starts[d] > c.end {
                break;
            }
            touched[d] = true;
        }
    }
    for d in 0..docs.len() {
        let (start, end) = (starts[d], starts[d + 1]);
        if !touched[d] {
            continue;
        }
        // The next document must not depend on how this one ends.
        if d + 1 < docs.len() && !original[end..].starts_with("---") {
            return false;
        }
        let out_start = if d == 0 { 0 } else { applied.map(start, true) };
        let out_end = if d + 1 == docs.len() {
            out_len
        } else {
            applied.map(end, true)
        };
        let Some(out) = applied.text.get(out_start..out_end) else {
            return false;
        };
        let doc_edits = &per_doc[d];
        let confirmed = match Skeleton::of(original, &docs[d], end) {
            Some(sk) => sk.confirms(
                original,
                &docs[d],
                doc_edits,
                applied,
                out_start..out_end,
                end,
            ),
            None if docs[d].skipped => {
                // what the document meant, read again whole from its own region
                match yaml::parse(original.get(start..end).unwrap_or("")).as_deref() {
                    Ok([whole]) => reads_as(out, &whole.root, doc_edits),
                    _ => false,
                }
            }
            None => reads_as(out, &docs[d].root, doc_edits),
        };
        if !confirmed {
            return false;
        }
    }
    true
}

/// The edits of each document.
fn by_doc(n: usize, edits: &[(usize, Edit)]) -> Vec<Vec<&Edit>> {
    let mut out = vec![Vec::new(); n];
    for (d, e) in edits {
        if let Some(list) = out.get_mut(*d) {
            list.push(e);
        }
    }
    out
}

/// Whether any line of the text starts with `%` (a directive, which the documents after it
/// depend on).
fn has_directives(text: &str) -> bool {
    // one pass over the text for `%`, which is rare, then a look at the byte before it
    let bytes = text.as_bytes();
    text.match_indices('%')
        .any(|(i, _)| i == 0 || matches!(bytes[i - 1], b'\n' | b'\r'))
}

/// Whether `out` is one document reading as `root` with `edits` made on it.
fn reads_as(out: &str, root: &Node, edits: &[&Edit]) -> bool {
    let Some(meant) = meant_json(root.to_json(), edits) else {
        return false;
    };
    reads_back(out, &meant)
}

/// Whether `text` is one document whose JSON value is `meant`: compared by the lean reader as
/// it reads first, and read by the full parser when that gives up or disagrees (the full parser
/// decides).
fn reads_back(text: &str, meant: &Value) -> bool {
    if yaml::reads_simply_as(text, meant) {
        return true;
    }
    matches!(yaml::parse(text).as_deref(), Ok([doc]) if doc.root.to_json() == *meant)
}

/// `value` with `edits` made on it; `None` when one does not fit.
fn meant_json(mut value: Value, edits: &[&Edit]) -> Option<Value> {
    for e in edits {
        e.apply_to_json(&mut value).ok()?;
    }
    Some(value)
}

/// [`meant_json`] for edits each seen at the path paired with it.
fn meant_json_at(mut value: Value, edits: &[(&[Seg], &Edit)]) -> Option<Value> {
    for (path, e) in edits {
        e.apply_to_json_at(path, &mut value).ok()?;
    }
    Some(value)
}

/// What [`Skeleton::confirms_batch`] reads around the items of one batch: the document's
/// original text, root mapping and `items`; the output before the first item and after the
/// last, and the original text after the last; the edits of each item (with their paths from
/// it) and those outside the items.
struct Frame<'a> {
    text: &'a str,
    root: &'a Mapping,
    seq: &'a Sequence,
    head: &'a str,
    tail: &'a str,
    original_tail: &'a str,
    item_edits: &'a [Vec<(&'a [Seg], &'a Edit)>],
    frame_edits: &'a [&'a Edit],
}

/// Where the original range `unit` (an item's unit) is in the written text.
fn written_range(applied: &Applied, unit: &std::ops::Range<usize>) -> std::ops::Range<usize> {
    applied.map(unit.start, true)..applied.map(unit.end, true)
}

/// A large document whose root mapping holds a block sequence `items`, each item starting on
/// its own `- ` line: its items are the units the check reads or skips.
struct Skeleton {
    /// The position of `items` among the root's entries.
    entry: usize,
    /// Each item's unit: from the start of its `- ` line to the start of the next item's line
    /// (the last: to the start of the root's next key's line, or the document's end).
    units: Vec<std::ops::Range<usize>>,
    /// The output bytes of touched items read at once ([`BATCH_BYTES`]; less in tests).
    batch_bytes: usize,
}

impl Skeleton {
    /// The skeleton of document `doc` (whose region ends at `end`), when it has one.
    fn of(text: &str, doc: &Document, end: usize) -> Option<Skeleton> {
        if doc.has_aliases {
            return None;
        }
        let root = doc.root.as_map().filter(|m| !m.flow)?;
        if root.entries.iter().any(|(k, _)| k.as_str() == Some("<<")) {
            return None;
        }
        let entry = root.position("items")?;
        let seq = root.entries.get(entry)?.1.as_seq().filter(|s| !s.flow)?;
        if seq.items.len() < SKELETON_MIN_ITEMS {
            return None;
        }
        let bytes = text.as_bytes();
        let mut units = Vec::with_capacity(seq.items.len());
        for item in &seq.items {
            let ls = line_start(bytes, item.span.start);
            let prefix = text.get(ls..item.span.start)?;
            if !is_dash_prefix(prefix) {
                return None;
            }
            if let Some(last) = units.last_mut() {
                let last: &mut std::ops::Range<usize> = last;
                if ls <= last.start {
                    return None;
                }
                last.end = ls;
            }
            units.push(ls..ls);
        }
        let tail = match root.entries.get(entry + 1) {
            Some((k, _)) => line_start(bytes, k.span.start),
            None => end,
        };
        let last = units.last_mut()?;
        if tail <= last.start {
            return None;
        }
        last.end = tail;
        Some(Skeleton {
            entry,
            units,
            batch_bytes: BATCH_BYTES,
        })
    }

    /// Reads the output region `out` of the document (whose original region ends at `end`),
    /// batch by batch ([`Skeleton::batches`]), and compares each with what was meant.
    fn confirms(
        &self,
        text: &str,
        doc: &Document,
        edits: &[&Edit],
        applied: &Applied,
        out: std::ops::Range<usize>,
        end: usize,
    ) -> bool {
        let Some(root) = doc.root.as_map() else {
            return false;
        };
        let Some(seq) = root.entries.get(self.entry).and_then(|(_, v)| v.as_seq()) else {
            return false;
        };
        let touched = self.touched(applied);
        // Edits sorted by the item they are in, with their paths from the item; edits outside
        // the items apply to the frame.
        let mut item_edits: Vec<Vec<(&[Seg], &Edit)>> = vec![Vec::new(); self.units.len()];
        let mut frame_edits: Vec<&Edit> = Vec::new();
        for e in edits {
            match e.path() {
                [Seg::Key(k), Seg::Index(i), rest @ ..] if k == "items" => {
                    let Some(list) = item_edits.get_mut(*i) else {
                        return false;
                    };
                    if !touched[*i] {
                        return false; // an edit that changed no text: read it all
                    }
                    list.push((rest, *e));
                }
                [Seg::Key(k), ..] if k == "items" => return false,
                [] | [Seg::Key(_), ..] => frame_edits.push(e),
                _ => return false,
            }
        }
        if root
            .entries
            .iter()
            .enumerate()
            .any(|(j, (k, v))| k.contains_skipped() || (j != self.entry && v.contains_skipped()))
        {
            return false;
        }
        let map = |p: usize| applied.map(p, true);
        let (Some(first), Some(last)) = (self.units.first(), self.units.last()) else {
            return false;
        };
        let (Some(head), Some(tail), Some(original_tail)) = (
            applied.text.get(out.start..map(first.start)),
            applied.text.get(map(last.end)..out.end),
            text.get(last.end..end),
        ) else {
            return false;
        };
        let frame = Frame {
            text,
            root,
            seq,
            head,
            tail,
            original_tail,
            item_edits: &item_edits,
            frame_edits: &frame_edits,
        };
        let batches = self.batches(&touched, applied, head.len() + tail.len());
        let Some((last_batch, others)) = batches.split_last() else {
            // only the frame changed: read once, with placeholders alone
            return self.confirms_batch(&frame, &[], applied, true);
        };
        others
            .iter()
            .all(|batch| self.confirms_batch(&frame, batch, applied, false))
            && self.confirms_batch(&frame, last_batch, applied, true)
    }

    /// The touched items in batches of about `batch_bytes` of output each, in order: each is
    /// read in the frame with every other item a placeholder, so what was meant is built for
    /// one batch at a time, never for every item written. A batch is at least as large as the
    /// frame (`frame` bytes), so the frame is read again at most as often as the items' text
    /// allows; an item larger than that is a batch of its own.
    fn batches(&self, touched: &[bool], applied: &Applied, frame: usize) -> Vec<Vec<usize>> {
        let budget = self.batch_bytes.max(frame);
        let mut batches: Vec<Vec<usize>> = Vec::new();
        let mut size = 0;
        for (i, unit) in self.units.iter().enumerate().filter(|(i, _)| touched[*i]) {
            let out = written_range(applied, unit);
            let len = out.end.saturating_sub(out.start);
            match batches.last_mut() {
                Some(batch) if size + len <= budget => {
                    batch.push(i);
                    size += len;
                }
                _ => {
                    batches.push(vec![i]);
                    size = len;
                }
            }
        }
        batches
    }

    /// Reads the output's head, the items of `batch` (ascending) as written and every run of
    /// the other items as one `- {}` placeholder, and then: for the `last` batch, the output's
    /// tail, compared with what was meant with the edits outside the items made; for any other,
    /// the original tail, compared with what was meant without them. Text written where the
    /// last item ends (the `results` of a ResourceList, entries added at the end of the last
    /// item) is in the output's tail or in the last item, both read in the last batch only.
    fn confirms_batch(
        &self,
        frame: &Frame<'_>,
        batch: &[usize],
        applied: &Applied,
        last: bool,
    ) -> bool {
        let mut sk = String::from(frame.head);
        let mut items: Vec<Value> = Vec::new();
        let (mut i, mut b) = (0, 0);
        while i < self.units.len() {
            let unit = &self.units[i];
            if batch.get(b) == Some(&i) {
                let Some(t) = applied.text.get(written_range(applied, unit)) else {
                    return false;
                };
                sk.push_str(t);
                let value = match frame.seq.items[i].contains_skipped() {
                    false => frame.seq.items[i].to_json(),
                    true => match item_again(frame.text, unit) {
                        Some(value) => value,
                        None => return false,
                    },
                };
                let Some(meant) = meant_json_at(value, &frame.item_edits[i]) else {
                    return false;
                };
                items.push(meant);
                i += 1;
                b += 1;
                continue;
            }
            let Some(dash) = frame.text.get(unit.start..frame.seq.items[i].span.start) else {
                return false;
            };
            sk.push_str(dash);
            sk.push_str("{}\n");
            items.push(Value::Object(serde_json::Map::new()));
            i = batch.get(b).copied().unwrap_or(self.units.len());
        }
        sk.push_str(if last {
            frame.tail
        } else {
            frame.original_tail
        });
        let mut meant = serde_json::Map::new();
        for (j, (k, v)) in frame.root.entries.iter().enumerate() {
            let key = match k.as_scalar() {
                Some(s) => s.value.to_string(),
                None => k.to_json().to_string(),
            };
            let value = if j == self.entry {
                Value::Array(std::mem::take(&mut items))
            } else {
                v.to_json()
            };
            meant.insert(key, value);
        }
        let frame_edits = if last { frame.frame_edits } else { &[] };
        let Some(meant) = meant_json(Value::Object(meant), frame_edits) else {
            return false;
        };
        reads_back(&sk, &meant)
    }

    /// Which units a change touches (closed ranges: an insertion at a boundary touches both).
    fn touched(&self, applied: &Applied) -> Vec<bool> {
        let mut touched = vec![false; self.units.len()];
        for c in applied.changes() {
            let first = self.units.partition_point(|u| u.end < c.start);
            for (t, u) in touched.iter_mut().zip(&self.units).skip(first) {
                if u.start > c.end {
                    break;
                }
                *t = true;
            }
        }
        touched
    }
}

/// The JSON value of the one item of a block sequence written in `text[unit]` (an item's
/// lines, from its `- `), parsed whole; `None` when it does not read as one.
fn item_again(text: &str, unit: &std::ops::Range<usize>) -> Option<Value> {
    let docs = yaml::parse(text.get(unit.clone())?).ok()?;
    let [doc] = docs.as_slice() else {
        return None;
    };
    match doc.root.as_seq()?.items.as_slice() {
        [item] => Some(item.to_json()),
        _ => None,
    }
}

/// Whether the text before an item on its line is indentation, `-` and blanks.
fn is_dash_prefix(prefix: &str) -> bool {
    let rest = prefix.trim_start_matches(' ');
    rest.strip_prefix('-')
        .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b == b' '))
}

/// The start of the line holding `pos` (after the last `\n` or lone `\r` before it).
fn line_start(bytes: &[u8], pos: usize) -> usize {
    bytes
        .get(..pos)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n' || c == b'\r'))
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests;
