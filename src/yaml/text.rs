//! Byte-level helpers over the source text (all positions are byte offsets).
//!
//! YAML has three line breaks: LF, CRLF and a lone CR (a `\r` not followed by `\n`); every
//! helper here treats all three alike. A position between the CR and the LF of a CRLF is on the
//! line that break ends.

/// The length of the line break starting at `i` (2 for CRLF, 1 for LF or a lone CR, 0 if none).
pub(crate) fn break_len(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i) {
        Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => 2,
        Some(b'\n' | b'\r') => 1,
        _ => 0,
    }
}

/// The start of the line containing `pos`.
pub(crate) fn line_start(bytes: &[u8], pos: usize) -> usize {
    let pos = pos.min(bytes.len());
    let mut i = pos;
    while i > 0 {
        let c = bytes.get(i - 1).copied().unwrap_or(0);
        // a CR right before `pos` whose LF is at `pos` belongs to this line's break
        if c == b'\n' || (c == b'\r' && bytes.get(i) != Some(&b'\n')) {
            return i;
        }
        i -= 1;
    }
    0
}

/// The end of the line containing `pos`: the position of its line break (the CR of a CRLF), or
/// the end of text.
pub(crate) fn line_end(bytes: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while let Some(&b) = bytes.get(i) {
        if b == b'\n' {
            if i > pos && bytes.get(i - 1) == Some(&b'\r') {
                return i - 1;
            }
            return i;
        }
        if b == b'\r' {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

/// The start of the line after the first line break at or after `pos` (end of text if none).
pub(crate) fn next_line_start(bytes: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while i < bytes.len() {
        let n = break_len(bytes, i);
        if n > 0 {
            return i + n;
        }
        i += 1;
    }
    bytes.len()
}

/// For a position at the start of a line (not the first), the position of the line break that
/// ends the line before it.
pub(crate) fn break_before(bytes: &[u8], pos: usize) -> Option<usize> {
    let prev = pos.checked_sub(1)?;
    match bytes.get(prev) {
        Some(b'\n') if prev > 0 && bytes.get(prev - 1) == Some(&b'\r') => Some(prev - 1),
        Some(b'\n' | b'\r') => Some(prev),
        _ => None,
    }
}

/// Moves back from `pos` over spaces, tabs and line breaks; returns the position just after the
/// last non-blank byte before `pos` (0 if none).
pub(crate) fn skip_ws_back(bytes: &[u8], pos: usize) -> usize {
    let mut p = pos.min(bytes.len());
    while p > 0 && matches!(bytes.get(p - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        p -= 1;
    }
    p
}

/// The column (in characters) of `pos` on its line.
pub(crate) fn column(text: &str, pos: usize) -> usize {
    let start = line_start(text.as_bytes(), pos);
    text.get(start..pos).map_or(0, |s| s.chars().count())
}

/// The 1-based line and column (in characters) of `pos`.
pub(crate) fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let pos = pos.min(bytes.len());
    let mut line = 1;
    let mut i = 0;
    while i < pos {
        let n = break_len(bytes, i);
        if n > 0 && i + n <= pos {
            line += 1;
            i += n;
        } else {
            i += 1;
        }
    }
    (line, column(text, pos) + 1)
}

/// Whether `pos` is at the start of a line.
pub(crate) fn at_line_start(bytes: &[u8], pos: usize) -> bool {
    pos == 0 || line_start(bytes, pos) == pos
}

/// Whether `bytes[from..]` holds a line break.
pub(crate) fn has_break_after(bytes: &[u8], from: usize) -> bool {
    bytes
        .get(from..)
        .is_some_and(|b| b.iter().any(|&c| c == b'\n' || c == b'\r'))
}

/// The text's own line break: the first one in it (CRLF, LF or a lone CR); LF if it has none.
pub(crate) fn line_break_of(text: &str) -> &'static str {
    let bytes = text.as_bytes();
    match bytes.iter().position(|&c| c == b'\n' || c == b'\r') {
        Some(i) if bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) == Some(&b'\n') => "\r\n",
        Some(i) if bytes.get(i) == Some(&b'\r') => "\r",
        _ => "\n",
    }
}
