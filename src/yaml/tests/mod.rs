//! Tests of the yaml layer.

mod append_tests;
mod block_style_tests;
mod edit_tests;
mod emit_tests;
mod from_json_tests;
mod parse_tests;
pub(crate) mod prop_tests;
mod regression_tests;
mod simple_read_tests;
mod size_tests;
mod skip_tests;

use super::{Document, Node, parse};

/// The first document of `text` (panics in tests only).
fn doc(text: &str) -> Document {
    let mut docs = parse(text).unwrap_or_else(|e| panic!("parse failed: {e}\n{text}"));
    assert!(!docs.is_empty(), "no document in {text:?}");
    docs.remove(0)
}

/// The source text of `node`.
fn src<'t>(text: &'t str, node: &Node) -> &'t str {
    &text[node.span.clone()]
}
