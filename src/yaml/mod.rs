//! The lossless YAML layer: parse with positions, find a path, apply edits to the original text.
//!
//! [`parse`] reads a multi-document stream into [`Document`]s whose [`Node`]s carry the byte
//! range of their source text. [`apply`] performs [`Edit`]s on the original text as byte-range
//! replacements spliced in one pass: everything an edit does not touch is kept byte for byte
//! (comments, quoting, key order, indentation, line endings). [`to_yaml_block`] renders a JSON
//! value as clean block YAML (for `results:`).

#![deny(missing_docs)]

mod edit;
mod edit_util;
mod map_edit;
mod meaning;
mod parse;
mod render;
mod scalar;
mod simple_read;
mod text;
mod tree;

#[cfg(test)]
mod tests;

pub use edit::{Applied, Change, Edit, EditError, WriteStyle, apply, apply_mapped};
pub use meaning::MeaningError;
pub use parse::{YamlError, parse};
pub use render::to_yaml_block;
pub use simple_read::read_simple;
pub use tree::{
    Document, Mapping, Node, NodeKind, Scalar, ScalarStyle, Seg, Sequence, path_key, path_to_string,
};
