//! Reading an input's bytes into a [`Source`]: at most the input size limit of them, and only
//! UTF-8 text (YAML's encoding here: a Kubernetes object is UTF-8 JSON or YAML).

use std::io::Read;

use thiserror::Error;

use super::read::Source;
use crate::limits::show_size;
use crate::yaml::line_col;

/// Input that cannot be read as text within the limit.
#[derive(Debug, Error)]
pub enum TextError {
    /// More bytes than the input size limit allows, over all the sources read so far.
    #[error(
        "{name}: the input is larger than the limit of {} (raise it with --max-input-size or IPREUSE_MAX_INPUT_SIZE)",
        show_size(*limit)
    )]
    TooLarge { name: String, limit: u64 },
    /// Bytes that are not UTF-8.
    #[error(
        "{name}: not UTF-8 text: byte {byte:#04x} at line {line}, column {column} (byte offset {offset}); YAML input must be UTF-8"
    )]
    NotUtf8 {
        name: String,
        byte: u8,
        offset: usize,
        line: usize,
        column: usize,
    },
    /// The reader failed.
    #[error("reading {name}")]
    Io {
        name: String,
        #[source]
        error: std::io::Error,
    },
}

/// The input size limit, and how much of it the sources read so far have left.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    limit: u64,
    left: u64,
}

impl Budget {
    /// `limit` bytes in all.
    pub fn new(limit: u64) -> Budget {
        Budget { limit, left: limit }
    }
}

/// Reads all of `reader` as the source `name`, taking its size from `budget`: past what is
/// left it stops reading and fails, so at most one byte more than the limit is ever held.
pub fn read_text(name: &str, reader: impl Read, budget: &mut Budget) -> Result<Source, TextError> {
    let mut bytes = Vec::new();
    reader
        .take(budget.left.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| TextError::Io {
            name: name.to_string(),
            error,
        })?;
    let len = bytes.len() as u64;
    if len > budget.left {
        return Err(TextError::TooLarge {
            name: name.to_string(),
            limit: budget.limit,
        });
    }
    budget.left -= len;
    // `read_to_end` doubles its buffer as it reads, so up to half of it is spare; the text is
    // held for the whole run, so it is cut to its length (a large buffer shrinks in place).
    bytes.shrink_to_fit();
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The valid prefix is text: its lines and characters place the bad byte.
        let prefix = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let (line, column) = line_col(prefix, offset);
        TextError::NotUtf8 {
            name: name.to_string(),
            byte: bytes.get(offset).copied().unwrap_or_default(),
            offset,
            line,
            column,
        }
    })?;
    Ok(Source {
        name: name.to_string(),
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_within_the_budget_and_spends_it() {
        let mut budget = Budget::new(10);
        let s = read_text("a", &b"kind: A\n"[..], &mut budget).unwrap();
        assert_eq!(s.text, "kind: A\n");
        assert_eq!(budget.left, 2);
        let s = read_text("b", &b"ab"[..], &mut budget).unwrap();
        assert_eq!(s.text, "ab");
        assert_eq!(budget.left, 0);
        // The limit is over all sources: the next byte is one too many.
        let e = read_text("c", &b"x"[..], &mut budget).unwrap_err();
        assert!(matches!(e, TextError::TooLarge { limit: 10, .. }), "{e:?}");
    }

    #[test]
    fn refuses_past_the_budget() {
        let mut budget = Budget::new(4);
        let e = read_text("<stdin>", &b"12345"[..], &mut budget).unwrap_err();
        assert!(matches!(e, TextError::TooLarge { limit: 4, .. }), "{e:?}");
        assert!(e.to_string().contains("--max-input-size"), "{e}");
        assert_eq!(budget.left, 4);
    }

    #[test]
    fn places_the_first_byte_that_is_not_utf8() {
        let mut budget = Budget::new(100);
        let input = b"a: 1\nb: \xc3\xa9\xff\n";
        let e = read_text("f.yaml", &input[..], &mut budget).unwrap_err();
        let TextError::NotUtf8 {
            byte,
            offset,
            line,
            column,
            ..
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!((byte, offset, line, column), (0xff, 10, 2, 5));
    }
}
