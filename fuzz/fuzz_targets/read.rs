//! The reader alone (`yaml::parse` and `krm::read`), on any bytes: it returns an error or
//! documents, never panics, and what it returns is consistent:
//! - every node's span lies inside the text, on character boundaries, and a collection's
//!   children lie inside it (an alias only names its target, which lies elsewhere);
//! - every document's span holds its root;
//! - every item `krm::read` reports is a node of its document, and its tree (with the parts
//!   the reader did not build) holds the same span invariants;
//! - reading a node's value (`to_json`, which follows aliases and merge keys) never panics;
//! - read with its hosts taken as they are parsed (`krm::read_taking`, as a run reads), the same
//!   items at the same spans with the same findings, and every item taken is one a host was
//!   read for (`model::index_items` finds it).
//!
//! `cargo +nightly fuzz run read corpus/read` (seeds: the example files and CRDs; docs/guarantees.md, "Fuzzing").
#![no_main]

use ipreuse::krm::{self, Source};
use ipreuse::model;
use ipreuse::yaml::{self, Node, NodeKind};
use libfuzzer_sys::fuzz_target;

fn check(text: &str, node: &Node, depth: usize) {
    let s = &node.span;
    assert!(
        s.start <= s.end && s.end <= text.len(),
        "span {s:?} outside the text"
    );
    assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "span {s:?} not on character boundaries"
    );
    if depth > 300 {
        return;
    }
    let inside = |child: &Node| {
        assert!(
            child.span.start >= s.start && child.span.end <= s.end,
            "child span {:?} outside its parent's {s:?}",
            child.span
        )
    };
    match &node.kind {
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                check(text, k, depth + 1);
                check(text, v, depth + 1);
                inside(k);
                inside(v);
            }
        }
        NodeKind::Seq(q) => {
            for item in &q.items {
                check(text, item, depth + 1);
                inside(item);
            }
        }
        // a part the reader did not build (`krm::read` only) keeps its span alone
        NodeKind::Scalar(_) | NodeKind::Alias(_) | NodeKind::Skipped(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(docs) = yaml::parse(text) else {
        return;
    };
    for doc in &docs {
        check(text, &doc.root, 0);
        assert!(
            doc.span.start <= doc.root.span.start
                && doc.root.span.end <= doc.span.end.max(doc.root.span.end),
            "document span {:?} does not hold its root {:?}",
            doc.span,
            doc.root.span
        );
        let _ = doc.root.to_json();
    }
    let source = Source {
        name: "fuzz".into(),
        text: text.into(),
    };
    let input = krm::read(std::slice::from_ref(&source)).expect("it parsed once already");
    for at in &input.items {
        let node = input.node(at);
        assert!(node.is_some(), "item {at:?} is not a node of its document");
        // the reader's own trees, with the parts it did not build, hold the same invariants
        if let Some(node) = node {
            check(&source.text, node, 0);
            let _ = node.to_json();
        }
    }
    let mut taken = model::Taken::default();
    let sources = std::slice::from_ref(&source);
    let lean = krm::read_taking(sources, ipreuse::limits::DEFAULT_MAX_ALIAS_NODES, &mut |s, n| {
        taken.take(s, n)
    })
    .expect("it parsed once already");
    assert_eq!(lean.items.len(), input.items.len(), "the same items");
    assert_eq!(lean.findings, input.findings, "the same findings");
    let mut nodes = Vec::new();
    for (at, whole) in lean.items.iter().zip(&input.items) {
        let node = lean.node(at).expect("a node of its document");
        let built = input.node(whole).expect("a node of its document");
        assert_eq!(node.span, built.span, "item {at:?} moved");
        check(&source.text, node, 0);
        nodes.push((at.source, node));
    }
    assert!(
        model::index_items(&nodes, taken, None, &mut Vec::new()).is_ok(),
        "an item taken with no host read for it"
    );
});
