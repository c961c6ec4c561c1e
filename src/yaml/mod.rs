//! The lossless YAML layer: parse with positions, find a path, apply edits to the original text.
//!
//! [`parse`] reads a multi-document stream into [`Document`]s whose [`Node`]s carry the byte
//! range of their source text. [`apply`] performs [`Edit`]s on the original text as byte-range
//! replacements spliced in one pass: everything an edit does not touch is kept byte for byte
//! (comments, quoting, key order, indentation, line endings). [`to_yaml_block`] renders a JSON
//! value as clean block YAML (for `results:`).
//!
//! The parts: `text` (byte positions and line breaks), `scalar` (core-schema resolution and
//! quoting), `tree` (the positioned nodes), `parse`, `simple_read` (the safety net's lean
//! reader), `emit` (the one writer of new YAML text), `edit` (the edits, spliced into the
//! original text; see its own parts there), `meaning` (what an edit means for the JSON a
//! document reads as).

#![deny(missing_docs)]

mod edit;
mod emit;
mod meaning;
mod parse;
mod scalar;
mod simple_read;
mod text;
mod tree;

#[cfg(test)]
pub(crate) mod tests;

pub use edit::{Applied, Change, Edit, EditError, WriteStyle, apply, apply_borrowed, apply_mapped};
pub use emit::to_yaml_block;
pub use meaning::MeaningError;
pub use parse::{SkipRule, YamlError, parse, parse_items, parse_items_taking, parse_limited};
pub use simple_read::{read_simple, reads_simply_as};
pub(crate) use text::line_col;
pub use tree::{
    Document, Mapping, Node, NodeKind, Scalar, ScalarStyle, Seg, Sequence, Skipped, parse_path,
    path_key, path_to_string,
};
