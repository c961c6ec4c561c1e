//! Byte-level helpers over the source text (all positions are byte offsets).

/// The start of the line containing `pos`.
pub(crate) fn line_start(bytes: &[u8], pos: usize) -> usize {
    let pos = pos.min(bytes.len());
    bytes
        .get(..pos)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
        .map_or(0, |i| i + 1)
}

/// The end of the line containing `pos`: the position of its `\r\n` / `\n`, or the end of text.
pub(crate) fn line_end(bytes: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while let Some(&b) = bytes.get(i) {
        if b == b'\n' {
            if i > pos && bytes.get(i - 1) == Some(&b'\r') {
                return i - 1;
            }
            return i;
        }
        i += 1;
    }
    bytes.len()
}

/// The start of the line after the first line break at or after `pos` (end of text if none).
pub(crate) fn next_line_start(bytes: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while let Some(&b) = bytes.get(i) {
        if b == b'\n' {
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
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

/// Whether `pos` is at the start of a line.
pub(crate) fn at_line_start(bytes: &[u8], pos: usize) -> bool {
    pos == 0 || bytes.get(pos - 1) == Some(&b'\n')
}
