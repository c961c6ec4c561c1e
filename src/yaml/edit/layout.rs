//! The text being edited ([`Cx`]: the text, the splices made so far, the document's indentation
//! step) and where things are in it: entries, node properties, kept lines of block scalars.

use crate::FastMap;
use std::ops::Range;

use super::splice::Splices;
use crate::yaml::text::{at_line_start, break_before, line_end};
use crate::yaml::tree::{Node, NodeKind, ScalarStyle, find_step};

/// The edits of one [`super::apply`] in progress: the original text and its splices.
pub(super) struct Cx<'t> {
    pub(super) text: &'t str,
    pub(super) bytes: &'t [u8],
    pub(super) splices: Splices,
    /// The indentation step of each document (by its root node), once found.
    steps: FastMap<usize, usize>,
}

impl<'t> Cx<'t> {
    pub(super) fn new(text: &'t str) -> Cx<'t> {
        Cx {
            text,
            bytes: text.as_bytes(),
            splices: Splices::default(),
            steps: FastMap::default(),
        }
    }

    pub(super) fn slice(&self, start: usize, end: usize) -> &'t str {
        self.text.get(start..end).unwrap_or("")
    }

    /// The indentation step seen in the document (first nested block mapping), default 2.
    pub(super) fn step(&mut self, root: &Node) -> usize {
        let id = root as *const Node as usize;
        if let Some(&s) = self.steps.get(&id) {
            return s;
        }
        let mut budget = 2000usize;
        let s = find_step(self.text, root, &mut budget).unwrap_or(2);
        self.steps.insert(id, s);
        s
    }

    /// For a span ending at a line start (keep-chomped block scalar), the position of the line
    /// break before it, so replacing the span keeps that break.
    pub(super) fn trim_kept(&self, start: usize, end: usize) -> usize {
        if end > start && at_line_start(self.bytes, end) {
            break_before(self.bytes, end).map_or(end, |b| b.max(start))
        } else {
            end
        }
    }

    /// Where the entry with key `k` starts: the key, or the `?` of an explicit key, or the
    /// anchor / tag written in front of the key on its line.
    pub(super) fn entry_start(&self, k: &Node) -> usize {
        let bytes = self.bytes;
        let mut p = k.span.start;
        loop {
            let mut q = p;
            while q > 0 && matches!(bytes.get(q - 1), Some(b' ' | b'\t')) {
                q -= 1;
            }
            let mut t = q;
            while t > 0
                && !matches!(
                    bytes.get(t - 1),
                    Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'[')
                )
            {
                t -= 1;
            }
            let token = bytes.get(t..q).unwrap_or(&[]);
            match token.first() {
                Some(b'&' | b'!') if t < q => p = t,
                Some(b'?') if token.len() == 1 => return t,
                _ => return p,
            }
        }
    }

    /// Where the entry `(k, v)` ends: its value's end (before the kept line breaks of a `|+`
    /// value), or its key's end for an empty value.
    pub(super) fn entry_end(&self, k: &Node, v: &Node) -> usize {
        if v.span.is_empty() {
            v.span.end.max(k.span.end)
        } else {
            self.trim_kept(v.span.start, v.span.end).max(k.span.end)
        }
    }

    /// Whether `v` is a block scalar with keep chomping (`|+`, `>+`, `|2+`, ...).
    pub(super) fn keeps_trailing_lines(&self, v: &Node) -> bool {
        match &v.kind {
            NodeKind::Scalar(sc)
                if matches!(sc.style, ScalarStyle::Literal | ScalarStyle::Folded) =>
            {
                let header_end = line_end(self.bytes, v.span.start);
                self.slice(v.span.start, header_end)
                    .split('#')
                    .next()
                    .is_some_and(|h| h.contains('+'))
            }
            _ => false,
        }
    }

    /// Whether the text of `v` ends with a keep-chomping block scalar (`|+`), itself or as the
    /// last value of a block collection: the blank lines after it belong to it.
    pub(super) fn ends_with_kept_lines(&self, v: &Node) -> bool {
        let mut node = v;
        loop {
            node = match &node.kind {
                NodeKind::Map(m) if !m.flow => match m.entries.last() {
                    Some((_, last)) => last,
                    None => return false,
                },
                NodeKind::Seq(s) if !s.flow => match s.items.last() {
                    Some(last) => last,
                    None => return false,
                },
                NodeKind::Scalar(_) => return self.keeps_trailing_lines(node),
                _ => return false,
            };
        }
    }

    /// The first `-` at or after `from`, across blanks, line breaks and comments.
    pub(super) fn dash_after(&self, from: usize) -> Option<usize> {
        let bytes = self.bytes;
        let mut i = from;
        loop {
            match bytes.get(i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => i += 1,
                Some(b'#')
                    if i > from
                        && matches!(bytes.get(i - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) =>
                {
                    i = line_end(bytes, i);
                }
                Some(b'-') => return Some(i),
                _ => return None,
            }
        }
    }
}

/// The node properties (`&anchor`, `!tag`) written right after an indicator (`:` / `-`) that
/// ends at `from`, on its line, before any comment or content: their byte ranges.
pub(super) fn props_after(text: &str, from: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    loop {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if !matches!(bytes.get(i), Some(b'&' | b'!')) {
            return out;
        }
        let start = i;
        while let Some(&b) = bytes.get(i) {
            if matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'}' | b'[' | b']'
            ) {
                break;
            }
            i += 1;
        }
        out.push(start..i);
    }
}

/// The node properties written right before `pos` on its line (after the indicator): their
/// byte ranges, in text order.
pub(super) fn props_before(text: &str, pos: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut p = pos;
    loop {
        let mut q = p;
        while q > 0 && matches!(bytes.get(q - 1), Some(b' ' | b'\t')) {
            q -= 1;
        }
        let mut t = q;
        while t > 0 && !matches!(bytes.get(t - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            t -= 1;
        }
        if t < q && matches!(bytes.get(t), Some(b'&' | b'!')) {
            out.push(t..q);
            p = t;
        } else {
            out.reverse();
            return out;
        }
    }
}
