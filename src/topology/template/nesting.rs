//! The nesting of a template's block actions, checked as Go's parser checks it.
//!
//! `gotmpl` 0.6.1 accepts an `{{if}}` without its `{{end}}`, a stray `{{end}}` or `{{else}}`,
//! and a `{{break}}` outside a `{{range}}`, all of which Go's `text/template/parse` refuses
//! ("unexpected EOF", "unexpected {{end}}", ...). CAPI would then fail the patch; rendering
//! something instead would be a value CAPI never writes. This scanner finds the actions (the
//! delimiters `{{` `}}`, the trim markers, comments, and quoted text that may hold `}}`) and
//! checks their keywords' nesting; everything else is `gotmpl`'s parse.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    If,
    Range,
    With,
    Define,
}

/// Checks that every block action is closed by one `{{end}}`, that `{{else}}` sits in an
/// `if`, `with` or `range`, and that `{{break}}`/`{{continue}}` sit in a `range`.
///
/// # Errors
/// The line, column and message of the offending action.
pub(super) fn check(text: &str) -> Result<(), (usize, usize, String)> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Block> = Vec::new();
    let mut i = 0;
    while let Some(found) = text.get(i..).and_then(|rest| rest.find("{{")) {
        let start = i + found;
        let mut j = start + 2;
        // A left trim marker is "-" followed by white space.
        if bytes.get(j) == Some(&b'-') && bytes.get(j + 1).is_some_and(|b| b" \t\r\n".contains(b)) {
            j += 1;
        }
        while bytes.get(j).is_some_and(|b| b" \t\r\n".contains(b)) {
            j += 1;
        }
        if text.get(j..).is_some_and(|r| r.starts_with("/*")) {
            // A comment: everything up to "*/"; gotmpl reports a comment left open.
            i = text
                .get(j + 2..)
                .and_then(|r| r.find("*/"))
                .map_or(text.len(), |k| j + 2 + k + 2);
            continue;
        }
        let word_end = bytes[j..]
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(text.len(), |k| j + k);
        let word = &text[j..word_end];
        let error = |message: &str| {
            let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
            let line = text[..start].matches('\n').count() + 1;
            let column = text[line_start..start].chars().count() + 1;
            Err((line, column, message.to_string()))
        };
        let in_range = stack.contains(&Block::Range);
        let else_fits = matches!(stack.last(), Some(Block::If | Block::Range | Block::With));
        match word {
            "if" => stack.push(Block::If),
            "range" => stack.push(Block::Range),
            "with" => stack.push(Block::With),
            "define" | "block" => stack.push(Block::Define),
            // The guard pops the block an `{{end}}` closes.
            "end" if stack.pop().is_none() => return error("unexpected {{end}}"),
            "else" if !else_fits => return error("unexpected {{else}}"),
            "break" | "continue" if !in_range => {
                return error(&format!("{{{{{word}}}}} outside {{{{range}}}}"));
            }
            _ => {}
        }
        i = action_end(bytes, word_end);
    }
    if !stack.is_empty() {
        let line_start = text.rfind('\n').map_or(0, |n| n + 1);
        let line = text.matches('\n').count() + 1;
        let column = text[line_start..].chars().count() + 1;
        return Err((
            line,
            column,
            "unexpected EOF: a block action ({{if}}, {{range}}, {{with}}, {{define}}) has no {{end}}"
                .to_string(),
        ));
    }
    Ok(())
}

/// Where the action that goes on at `from` ends: after its `}}`, skipping quoted text.
fn action_end(bytes: &[u8], from: usize) -> usize {
    let mut k = from;
    while k < bytes.len() {
        match bytes[k] {
            b'}' if bytes.get(k + 1) == Some(&b'}') => return k + 2,
            quote @ (b'"' | b'\'') => {
                k += 1;
                while k < bytes.len() && bytes[k] != quote && bytes[k] != b'\n' {
                    k += if bytes[k] == b'\\' { 2 } else { 1 };
                }
                k += 1;
            }
            b'`' => {
                k += 1;
                while k < bytes.len() && bytes[k] != b'`' {
                    k += 1;
                }
                k += 1;
            }
            _ => k += 1,
        }
    }
    bytes.len()
}
