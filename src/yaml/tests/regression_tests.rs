//! Regression tests, each named after the bug it pins (issue 5, "Harden the core").

use serde_json::json;

use super::doc;
use crate::yaml::{Edit, EditError, Seg, WriteStyle, apply, parse};

fn k(s: &str) -> Seg {
    Seg::key(s)
}

fn keys(path: &str) -> Vec<Seg> {
    path.split('.').filter(|s| !s.is_empty()).map(k).collect()
}

fn rm(path: &str, key: &str) -> Edit {
    Edit::RemoveEntry {
        path: keys(path),
        key: key.into(),
    }
}

fn add(path: &str, entries: &[(&str, &str)]) -> Edit {
    Edit::AddEntries {
        path: keys(path),
        entries: entries
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
    }
}

fn run(text: &str, edits: Vec<Edit>) -> Result<String, EditError> {
    let d = doc(text);
    let pairs: Vec<_> = edits.into_iter().map(|e| (&d.root, e)).collect();
    apply(text, &pairs)
}

/// Applies the edits; the output must parse, and is returned with its JSON.
fn ok(text: &str, edits: Vec<Edit>) -> (String, serde_json::Value) {
    let out = run(text, edits).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let docs = parse(&out).unwrap_or_else(|e| panic!("output does not parse: {e}\n{out}"));
    let json = docs.first().map(|d| d.root.to_json()).unwrap_or_default();
    (out, json)
}

// ---- 1. map edits that remove entries ----------------------------------------------------

#[test]
fn regression_prune_only_entry_and_fill_gave_braces_then_entries() {
    // the issue's case: `preAllocations:\n    {}\n    new-pool: ...` was written
    let t = "spec:\n  pools: [{start: 10.0.0.1, end: 10.0.0.9}]\n  preAllocations:\n    old-pool: \"10.0.0.2\"\n";
    let (out, json) = ok(
        t,
        vec![
            rm("spec.preAllocations", "old-pool"),
            add("spec.preAllocations", &[("new-pool", "10.0.0.1")]),
        ],
    );
    assert_eq!(
        out,
        "spec:\n  pools: [{start: 10.0.0.1, end: 10.0.0.9}]\n  preAllocations:\n    new-pool: \"10.0.0.1\"\n"
    );
    assert_eq!(
        json["spec"]["preAllocations"],
        json!({"new-pool": "10.0.0.1"})
    );
}

#[test]
fn regression_removing_two_entries_overlapped() {
    let t = "m:\n  a: 1\n  b: 2 # b\n  c: 3\nn: 1\n";
    // the last two
    let (out, _) = ok(t, vec![rm("m", "b"), rm("m", "c")]);
    assert_eq!(out, "m:\n  a: 1\nn: 1\n");
    // first and last, in either order
    let (out, _) = ok(t, vec![rm("m", "c"), rm("m", "a")]);
    assert_eq!(out, "m:\n  b: 2 # b\nn: 1\n");
    // removals with additions: the new entries go where the removed last entry was
    let (out, json) = ok(t, vec![rm("m", "b"), rm("m", "c"), add("m", &[("d", "4")])]);
    assert_eq!(out, "m:\n  a: 1\n  d: \"4\"\nn: 1\n");
    assert_eq!(json, json!({"m": {"a": 1, "d": "4"}, "n": 1}));
    // a middle entry with additions: appended after the last entry
    let (out, _) = ok(t, vec![add("m", &[("d", "4")]), rm("m", "b")]);
    assert_eq!(out, "m:\n  a: 1\n  c: 3\n  d: \"4\"\nn: 1\n");
}

#[test]
fn regression_removing_every_entry_writes_braces_on_the_key_line() {
    let t = "m: # about m\n  # about a\n  a: 1 # a\n  b: 2\nn: 1\n";
    let (out, json) = ok(t, vec![rm("m", "a"), rm("m", "b")]);
    assert_eq!(out, "m: {} # about m\nn: 1\n");
    assert_eq!(json, json!({"m": {}, "n": 1}));
    // with additions: a clean block mapping
    let (out, json) = ok(t, vec![rm("m", "a"), rm("m", "b"), add("m", &[("x", "9")])]);
    // (comment lines before the first entry stay)
    assert_eq!(out, "m: # about m\n  # about a\n  x: \"9\"\nn: 1\n");
    assert_eq!(json, json!({"m": {"x": "9"}, "n": 1}));
    // the last mapping of a text without a final newline
    let t = "a: 0\nm:\n  a: 1\n  b: 2";
    assert_eq!(ok(t, vec![rm("m", "a"), rm("m", "b")]).0, "a: 0\nm: {}");
}

#[test]
fn regression_removing_entries_with_multi_line_values() {
    let t = "m:\n  a: |\n    x\n    y\n  b:\n    - 1\n    - 2\n  c: {p: 1,\n    q: 2}\n  d: plain\n    continued\nz: 1\n";
    let (out, json) = ok(t, vec![rm("m", "a"), rm("m", "c")]);
    assert_eq!(
        out,
        "m:\n  b:\n    - 1\n    - 2\n  d: plain\n    continued\nz: 1\n"
    );
    assert_eq!(json["m"], json!({"b": [1, 2], "d": "plain continued"}));
    let (out, _) = ok(t, vec![rm("m", "b"), rm("m", "d"), add("m", &[("e", "5")])]);
    assert_eq!(
        out,
        "m:\n  a: |\n    x\n    y\n  c: {p: 1,\n    q: 2}\n  e: \"5\"\nz: 1\n"
    );
}

#[test]
fn regression_removing_entries_of_a_mapping_on_a_dash_line() {
    let t = "l:\n- a: 1\n  b: 2\n  c: 3\n- x\n";
    let d = doc(t);
    let e = Edit::RemoveEntry {
        path: vec![k("l"), Seg::Index(0)],
        key: "a".into(),
    };
    assert_eq!(
        apply(t, &[(&d.root, e)]).unwrap(),
        "l:\n- b: 2\n  c: 3\n- x\n"
    );
    let item = |edits: Vec<Edit>| {
        let d = doc(t);
        let root = d.root.get_path(&[k("l"), Seg::Index(0)]).unwrap();
        let pairs: Vec<_> = edits.into_iter().map(|e| (root, e)).collect();
        apply(t, &pairs).unwrap()
    };
    assert_eq!(item(vec![rm("", "a"), rm("", "b")]), "l:\n- c: 3\n- x\n");
    assert_eq!(
        item(vec![rm("", "a"), rm("", "b"), rm("", "c")]),
        "l:\n- {}\n- x\n"
    );
    assert_eq!(
        item(vec![
            rm("", "a"),
            rm("", "b"),
            rm("", "c"),
            add("", &[("p", "1"), ("q", "2")])
        ]),
        "l:\n- p: \"1\"\n  q: \"2\"\n- x\n"
    );
    assert_eq!(
        item(vec![rm("", "a"), add("", &[("p", "1")])]),
        "l:\n- b: 2\n  c: 3\n  p: \"1\"\n- x\n"
    );
    // a mapping on a line of its own after the dash
    let t = "l:\n-\n  a: 1\n- &x\n  b: 2\n";
    let d = doc(t);
    let e = |i: usize, key: &str| {
        (
            &d.root,
            Edit::RemoveEntry {
                path: vec![k("l"), Seg::Index(i)],
                key: key.into(),
            },
        )
    };
    assert_eq!(
        apply(t, &[e(0, "a"), e(1, "b")]).unwrap(),
        "l:\n- {}\n- &x {}\n"
    );
    // (after a comment on the dash line, `{}` stays on the mapping's line: still valid)
    let t = "l:\n- # c\n  a: 1\n";
    let d = doc(t);
    let e = (
        &d.root,
        Edit::RemoveEntry {
            path: vec![k("l"), Seg::Index(0)],
            key: "a".into(),
        },
    );
    let out = apply(t, &[e]).unwrap();
    assert_eq!(doc(&out).root.to_json(), json!({"l": [{}]}), "{out}");
}

#[test]
fn regression_removing_entries_of_flow_mappings() {
    let t = "f: {a: \"1\", b: \"2\", c: \"3\"} # c\n";
    assert_eq!(
        ok(t, vec![rm("f", "a"), rm("f", "c")]).0,
        "f: {b: \"2\"} # c\n"
    );
    assert_eq!(
        ok(t, vec![rm("f", "b"), rm("f", "c")]).0,
        "f: {a: \"1\"} # c\n"
    );
    assert_eq!(
        ok(t, vec![rm("f", "a"), rm("f", "b"), rm("f", "c")]).0,
        "f: {} # c\n"
    );
    assert_eq!(
        ok(
            t,
            vec![
                rm("f", "a"),
                rm("f", "b"),
                rm("f", "c"),
                add("f", &[("x", "9")])
            ]
        )
        .0,
        "f: {x: \"9\"} # c\n"
    );
    assert_eq!(
        ok(t, vec![rm("f", "c"), add("f", &[("x", "9")])]).0,
        "f: {a: \"1\", b: \"2\", x: \"9\"} # c\n"
    );
    assert_eq!(
        ok(t, vec![add("f", &[("x", "9")]), rm("f", "a")]).0,
        "f: {b: \"2\", c: \"3\", x: \"9\"} # c\n"
    );
    // a trailing comma and an entry split over lines
    let t = "f: {a: 1,\n  b: 2, }\n";
    let (out, json) = ok(t, vec![rm("f", "b")]);
    assert_eq!(out, "f: {a: 1, }\n");
    assert_eq!(json, json!({"f": {"a": 1}}));
}

#[test]
fn regression_removing_explicit_key_entries() {
    let t = "m:\n  ? a\n  : 1\n  ? |\n    block key\n  : 2\n  c: 3\n  ? lone\nz: 0\n";
    let (out, json) = ok(t, vec![rm("m", "a")]);
    assert_eq!(
        out,
        "m:\n  ? |\n    block key\n  : 2\n  c: 3\n  ? lone\nz: 0\n"
    );
    assert_eq!(json["m"], json!({"block key\n": 2, "c": 3, "lone": null}));
    let (out, json) = ok(
        t,
        vec![
            rm("m", "lone"),
            rm("m", "block key\n"),
            add("m", &[("d", "4")]),
        ],
    );
    assert_eq!(out, "m:\n  ? a\n  : 1\n  c: 3\n  d: \"4\"\nz: 0\n");
    assert_eq!(json["m"], json!({"a": 1, "c": 3, "d": "4"}));
    // appending after an explicit entry uses the `?` column
    let t = "m:\n  ? a\n  : 1\n";
    assert_eq!(
        ok(t, vec![add("m", &[("b", "2")])]).0,
        "m:\n  ? a\n  : 1\n  b: \"2\"\n"
    );
    // a value set on a lone `? key` goes on a `:` line under the `?`
    let t = "m:\n  ? a # c\n  b: 1\n";
    let (out, json) = ok(
        t,
        vec![Edit::SetScalar {
            path: keys("m.a"),
            value: "v".into(),
            style: WriteStyle::Keep,
        }],
    );
    assert_eq!(out, "m:\n  ? a # c\n  : \"v\"\n  b: 1\n");
    assert_eq!(json["m"], json!({"a": "v", "b": 1}));
}

#[test]
fn regression_remove_and_add_the_same_key_moves_it_last() {
    let t = "m:\n  a: 1\n  b: 2\n";
    let (out, json) = ok(t, vec![add("m", &[("a", "9")]), rm("m", "a")]);
    assert_eq!(out, "m:\n  b: 2\n  a: \"9\"\n");
    assert_eq!(json["m"], json!({"b": 2, "a": "9"}));
    let e = run(t, vec![rm("m", "a"), rm("m", "a")]).unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
}

#[test]
fn regression_remove_entries_with_crlf() {
    let t = "m:\r\n  a: 1\r\n  b: 2\r\nn: 3\r\n";
    assert_eq!(
        ok(t, vec![rm("m", "a"), rm("m", "b")]).0,
        "m: {}\r\nn: 3\r\n"
    );
    assert_eq!(
        ok(t, vec![rm("m", "b"), add("m", &[("c", "3")])]).0,
        "m:\r\n  a: 1\r\n  c: \"3\"\r\nn: 3\r\n"
    );
    assert_eq!(
        ok(t, vec![rm("m", "a"), rm("m", "b"), add("m", &[("c", "3")])]).0,
        "m:\r\n  c: \"3\"\r\nn: 3\r\n"
    );
}

#[test]
fn regression_remove_after_keep_block_scalar_stays_refused() {
    // nested: the kept blank line belongs to the `|+` at the end of `b`'s value
    let t = "b:\n  a:\n  - |+\n    l\n\na: a\n";
    let e = run(t, vec![rm("", "a")]).unwrap_err();
    assert!(matches!(e, EditError::Unsupported { .. }), "{e}");
    let t = "m:\n  s: |+\n    x\n\n  a: 1\n  b: 2\n";
    let e = run(t, vec![rm("m", "a")]).unwrap_err();
    assert!(matches!(e, EditError::Unsupported { .. }), "{e}");
    // removing the `|+` entry itself takes its kept lines with it
    let (out, json) = ok(t, vec![rm("m", "s"), rm("m", "a")]);
    assert_eq!(out, "m:\n  b: 2\n");
    assert_eq!(json["m"], json!({"b": 2}));
}

// ---- 2. line breaks ------------------------------------------------------------------------

#[test]
fn regression_lone_cr_line_breaks_gave_wrong_indentation() {
    let t = "m:\r  a: 1\r  b: 2\rn: {}\r";
    let (out, json) = ok(
        t,
        vec![
            add("m", &[("c", "3")]),
            add("n", &[("d", "4")]),
            add("m.new", &[("e", "5")]),
        ],
    );
    assert_eq!(
        out,
        "m:\r  a: 1\r  b: 2\r  c: \"3\"\r  new:\r    e: \"5\"\rn:\r  d: \"4\"\r"
    );
    assert_eq!(
        json,
        json!({"m": {"a": 1, "b": 2, "c": "3", "new": {"e": "5"}}, "n": {"d": "4"}})
    );
    let (out, _) = ok(t, vec![rm("m", "a"), rm("m", "b")]);
    assert_eq!(out, "m: {}\rn: {}\r");
    let (out, _) = ok(t, vec![rm("m", "b"), add("m", &[("c", "3")])]);
    assert_eq!(out, "m:\r  a: 1\r  c: \"3\"\rn: {}\r");
}

#[test]
fn regression_inserted_text_uses_the_first_line_break_of_the_text() {
    // a text mixing breaks: the first one decides
    let t = "a:\r\n  x: 1\n  y: 2\rb: 1";
    let (out, json) = ok(t, vec![add("a", &[("z", "3")]), add("", &[("c", "4")])]);
    assert_eq!(
        out,
        "a:\r\n  x: 1\n  y: 2\r\n  z: \"3\"\rb: 1\r\nc: \"4\"\r\n"
    );
    assert_eq!(
        json,
        json!({"a": {"x": 1, "y": 2, "z": "3"}, "b": 1, "c": "4"})
    );
}

#[test]
fn regression_lone_cr_block_scalars_and_errors_lines() {
    let t = "a: |\r  x\r  y\rb: 1\r";
    let d = doc(t);
    assert_eq!(d.root.get("a").and_then(|n| n.as_str()), Some("x\ny\n"));
    let (out, _) = ok(t, vec![add("", &[("c", "2")])]);
    assert_eq!(out, "a: |\r  x\r  y\rb: 1\rc: \"2\"\r");
    let e = parse("a: 1\rb: 2\ra: 3\r").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
}

// ---- 3. anchors on rewritten nodes ---------------------------------------------------------

#[test]
fn regression_anchor_on_rewritten_empty_map_was_dropped() {
    let t = "spec:\n  preAllocations: &pa {} # c\nother: *pa\n";
    let (out, json) = ok(t, vec![add("spec.preAllocations", &[("a", "1")])]);
    assert_eq!(
        out,
        "spec:\n  preAllocations: &pa # c\n    a: \"1\"\nother: *pa\n"
    );
    // the alias reads the new value (YAML semantics)
    assert_eq!(json["other"], json!({"a": "1"}));
    for t in [
        "a: &pa\nb: *pa\n",
        "a: &pa ~\nb: *pa\n",
        "a: !!null &pa null\nb: *pa\n",
    ] {
        let (out, json) = ok(t, vec![add("a", &[("k", "v")])]);
        assert_eq!(out, "a: &pa\n  k: \"v\"\nb: *pa\n", "{t:?}");
        assert_eq!(json["b"], json!({"k": "v"}));
    }
    // a tag of the `{}` itself is kept
    let (out, _) = ok("a: !!map &x {}\n", vec![add("a", &[("k", "v")])]);
    assert_eq!(out, "a: !!map &x\n  k: \"v\"\n");
}

#[test]
fn regression_anchor_on_rewritten_sequence_item_stays_on_the_mapping() {
    // `- &x k: v` would anchor the key `k`: the block goes on the next line
    let t = "l:\n- &x {}\nr: *x\n";
    let d = doc(t);
    let e = Edit::AddEntries {
        path: vec![k("l"), Seg::Index(0)],
        entries: vec![("k".into(), "v".into())],
    };
    let out = apply(t, &[(&d.root, e)]).unwrap();
    assert_eq!(out, "l:\n- &x\n  k: \"v\"\nr: *x\n");
    assert_eq!(doc(&out).root.to_json()["r"], json!({"k": "v"}));
}

#[test]
fn regression_set_value_keeps_the_anchor() {
    let t = "a: &x 1\nb: *x\n";
    let d = doc(t);
    let e = Edit::SetValue {
        path: vec![],
        key: "a".into(),
        yaml: "p: 1\n".into(),
    };
    let out = apply(t, &[(&d.root, e)]).unwrap();
    assert_eq!(out, "a: &x\n  p: 1\nb: *x\n");
    assert_eq!(
        doc(&out).root.to_json(),
        json!({"a": {"p": 1}, "b": {"p": 1}})
    );
    // a value may not bring anchors of its own
    let e = Edit::SetValue {
        path: vec![],
        key: "c".into(),
        yaml: "&x 2\n".into(),
    };
    assert!(matches!(
        apply(t, &[(&d.root, e)]),
        Err(EditError::InvalidYaml { .. })
    ));
}

#[test]
fn regression_removing_an_anchor_still_used_is_refused() {
    let t = "m:\n  a: &x 1\n  b: 2\nr: *x\n";
    let e = run(t, vec![rm("m", "a")]).unwrap_err();
    assert!(
        matches!(&e, EditError::Unsupported { reason, .. } if reason.contains("&x")),
        "{e}"
    );
    // an anchor nobody refers to may go; so may one whose aliases go with it
    assert_eq!(
        ok("m:\n  a: &x 1\n  b: 2\n", vec![rm("m", "a")]).0,
        "m:\n  b: 2\n"
    );
    assert_eq!(
        ok(
            "m:\n  a: &x 1\n  b: *x\n  c: 3\n",
            vec![rm("m", "a"), rm("m", "b")]
        )
        .0,
        "m:\n  c: 3\n"
    );
    // in a flow mapping the anchor in front of a key goes with its entry
    let t = "f: {&k a: 1, b: 2}\nr: *k\n";
    assert!(run(t, vec![rm("f", "a")]).is_err());
}

// ---- 4. merge keys --------------------------------------------------------------------------

const MERGED: &str = "base: &b\n  gateway: 10.0.0.1\n  prefix: 24\nextra: &e\n  prefix: 16\n  dns: 10.0.0.53\nspec:\n  <<: [*b, *e]\n  prefix: 26\n  pools:\n  - <<: *b\n    start: 10.0.0.2\n";

#[test]
fn regression_merge_keys_were_ignored() {
    let d = doc(MERGED);
    let spec = d.root.get("spec").unwrap();
    // merged in, explicit keys win, earlier mappings of a list win
    assert_eq!(
        spec.get("gateway").and_then(|n| n.as_str()),
        Some("10.0.0.1")
    );
    assert_eq!(spec.get("prefix").map(|n| n.to_json()), Some(json!(26)));
    assert_eq!(spec.get("dns").and_then(|n| n.as_str()), Some("10.0.0.53"));
    assert!(spec.get("<<").is_none());
    assert_eq!(
        d.root
            .get_path(&[k("spec"), k("pools"), Seg::Index(0), k("gateway")])
            .and_then(|n| n.as_str()),
        Some("10.0.0.1")
    );
    assert_eq!(
        spec.to_json(),
        json!({"gateway": "10.0.0.1", "dns": "10.0.0.53", "prefix": 26,
               "pools": [{"gateway": "10.0.0.1", "prefix": 24, "start": "10.0.0.2"}]})
    );
    // the mapping's own index never finds `<<` or a merged key
    let m = spec.as_map().unwrap();
    assert_eq!(m.position("<<"), None);
    assert_eq!(m.position("gateway"), None);
    assert_eq!(m.position("prefix"), Some(1));
}

#[test]
fn regression_merge_key_precedence_and_duplicates() {
    // a key written after `<<` wins too; an explicit key over a merged one is no duplicate
    let t = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  w: 0\n  <<: [*b, *a]\n  z: 3\n";
    assert_eq!(
        doc(t).root.to_json()["c"],
        json!({"w": 0, "y": 2, "z": 3, "x": 1})
    );
    // merges of merges, and an inline mapping
    let t = "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b}\nd: {<<: {q: 1}}\n";
    assert_eq!(doc(t).root.to_json()["c"], json!({"x": 1, "y": 2}));
    assert_eq!(doc(t).root.to_json()["d"], json!({"q": 1}));
    // a quoted "<<" is an ordinary key; a merge of a scalar is an error
    assert_eq!(doc("\"<<\": 1\n").root.to_json(), json!({"<<": 1}));
    assert!(parse("a: {<<: 1}\n").is_err());
    assert!(parse("x: &x 1\na: {<<: [*x]}\n").is_err());
}

#[test]
fn regression_edits_inside_merged_nodes_are_refused() {
    let t = "base: &b\n  preAllocations:\n    a: \"10.0.0.2\"\n  gateway: 10.0.0.1\nspec:\n  <<: *b\n  pools: []\n";
    let e = run(t, vec![add("spec.preAllocations", &[("h", "10.0.0.3")])]).unwrap_err();
    assert_eq!(
        e,
        EditError::Merged {
            path: "spec.preAllocations".into()
        }
    );
    assert!(
        e.to_string().contains("merge key") && e.to_string().contains("anchored node"),
        "{e}"
    );
    let e = run(
        t,
        vec![Edit::SetScalar {
            path: keys("spec.gateway"),
            value: "x".into(),
            style: WriteStyle::Keep,
        }],
    )
    .unwrap_err();
    assert_eq!(
        e,
        EditError::Merged {
            path: "spec.gateway".into()
        }
    );
    let e = run(t, vec![rm("spec", "gateway")]).unwrap_err();
    assert_eq!(
        e,
        EditError::Merged {
            path: "spec.gateway".into()
        }
    );
    let e = run(
        t,
        vec![Edit::SetValue {
            path: keys("spec"),
            key: "gateway".into(),
            yaml: "x".into(),
        }],
    )
    .unwrap_err();
    assert_eq!(
        e,
        EditError::Merged {
            path: "spec.gateway".into()
        }
    );
    // adding a key the merge supplies is a duplicate
    let e = run(t, vec![add("spec", &[("gateway", "10.0.0.9")])]).unwrap_err();
    assert!(
        matches!(e, EditError::DuplicateKey { ref key, .. } if key == "gateway"),
        "{e}"
    );
    // adding an own key to a mapping with `<<` is fine, and the merge stays as written
    let (out, json) = ok(
        t,
        vec![add("spec", &[("own", "1")]), add("spec.new", &[("h", "2")])],
    );
    assert_eq!(out, format!("{t}  own: \"1\"\n  new:\n    h: \"2\"\n"));
    assert_eq!(json["spec"]["gateway"], json!("10.0.0.1"));
    assert_eq!(json["spec"]["own"], json!("1"));
    // removing an own key the merge also supplies would show the merged value: refused
    let t = "base: &b {g: 1}\nspec:\n  <<: *b\n  g: 2\n  h: 3\n";
    let e = run(t, vec![rm("spec", "g")]).unwrap_err();
    assert!(matches!(e, EditError::Unsupported { .. }), "{e}");
    assert_eq!(ok(t, vec![rm("spec", "h")]).1["spec"], json!({"g": 2}));
    let e = run(t, vec![rm("spec", "<<")]).unwrap_err();
    assert!(matches!(e, EditError::NotFound { .. }), "{e}");
}

#[test]
fn regression_added_merge_key_text_is_quoted() {
    // a plain `<<` key would be read as a merge key
    let (out, json) = ok("m:\n  a: 1\n", vec![add("m", &[("<<", "v")])]);
    assert_eq!(out, "m:\n  a: 1\n  \"<<\": \"v\"\n");
    assert_eq!(json["m"], json!({"a": 1, "<<": "v"}));
}

#[test]
fn regression_anchored_mapping_replaced_by_a_scalar_is_refused() {
    // `<<: *b` would then merge a scalar: the output would not be valid
    let t = "b: &b {x: 1}\nc:\n  <<: *b\n";
    let d = doc(t);
    let e = Edit::SetValue {
        path: vec![],
        key: "b".into(),
        yaml: "2".into(),
    };
    assert!(matches!(
        apply(t, &[(&d.root, e)]),
        Err(EditError::Unsupported { .. })
    ));
    // by another mapping: fine, the merge reads it
    let e = Edit::SetValue {
        path: vec![],
        key: "b".into(),
        yaml: "{y: 2}".into(),
    };
    let out = apply(t, &[(&d.root, e)]).unwrap();
    assert_eq!(out, "b: &b {y: 2}\nc:\n  <<: *b\n");
    assert_eq!(doc(&out).root.to_json()["c"], json!({"y": 2}));
}

// ---- found by the `edit` fuzz target ---------------------------------------------------------

#[test]
fn regression_fuzz_two_edits_of_one_empty_value_both_inserted() {
    // both wrote at the empty value's offset: `k f: 's' "v"`
    let t = "# head\n---\nc: &an1\n";
    let e = run(
        t,
        vec![
            Edit::SetValue {
                path: keys("c"),
                key: "k f".into(),
                yaml: "'s'".into(),
            },
            Edit::SetScalar {
                path: keys("c"),
                value: "v".into(),
                style: WriteStyle::Keep,
            },
        ],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
    // an empty last value set while entries are appended after it: the value comes first
    let (out, json) = ok(
        "m:\n  a:\n",
        vec![
            add("m", &[("b", "2")]),
            Edit::SetScalar {
                path: keys("m.a"),
                value: "x".into(),
                style: WriteStyle::Keep,
            },
        ],
    );
    assert_eq!(out, "m:\n  a: \"x\"\n  b: \"2\"\n");
    assert_eq!(json["m"], json!({"a": "x", "b": "2"}));
}

#[test]
fn regression_fuzz_value_set_on_a_removed_entry() {
    // the removal wrote `{}`, the value was inserted after it: `{} "v"`
    let t = "# head\r---\ra:\r";
    let e = run(
        t,
        vec![
            rm("", "a"),
            Edit::SetScalar {
                path: keys("a"),
                value: "v".into(),
                style: WriteStyle::Keep,
            },
        ],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
    // a flow entry without `:` gets its value while the entry after it goes
    let (out, json) = ok(
        "f: {a, b: 1}\n",
        vec![
            Edit::SetScalar {
                path: keys("f.a"),
                value: "v".into(),
                style: WriteStyle::Keep,
            },
            rm("f", "b"),
        ],
    );
    assert_eq!(out, "f: {a: \"v\"}\n");
    assert_eq!(json["f"], json!({"a": "v"}));
}

#[test]
fn regression_fuzz_comment_after_rewritten_item_ended_up_in_a_block_scalar() {
    let t = "? k f\r\n:\r\n- # c\r\n";
    let d = doc(t);
    let e = Edit::SetValue {
        path: vec![k("k f"), Seg::Index(0)],
        key: "1".into(),
        yaml: "|\n  lit\n".into(),
    };
    let out = apply(t, &[(&d.root, e)]).unwrap();
    assert_eq!(out, "? k f\r\n:\r\n- \"1\": # c\r\n    |\r\n      lit\r\n");
    assert_eq!(doc(&out).root.to_json(), json!({"k f": [{"1": "lit\n"}]}));
}

#[test]
fn regression_fuzz_entries_added_inside_a_removed_entry() {
    // the additions landed after the `{}` written for the removed entry
    let t = "# head\n---\n? d\n: &an1\n    ? n-1\n    : &an2 x # c\n";
    let e = run(
        t,
        vec![rm("", "d"), add("d", &[("", "&x"), ("new", "two words")])],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
    // likewise inside a replaced value
    let t = "m:\n  a:\n    x: 1\n";
    let e = run(
        t,
        vec![
            Edit::SetValue {
                path: keys("m"),
                key: "a".into(),
                yaml: "p: 2\n".into(),
            },
            add("m.a", &[("y", "2")]),
        ],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
}

#[test]
fn regression_removing_a_last_entry_while_appending_to_an_enclosing_mapping() {
    // prune in the last item plus `results:` at the end of the root mapping
    let t = "items:\n- spec:\n    pre:\n      a: \"1\"\n      old: \"2\"\n";
    let (out, json) = ok(
        t,
        vec![
            Edit::RemoveEntry {
                path: vec![k("items"), Seg::Index(0), k("spec"), k("pre")],
                key: "old".into(),
            },
            add("", &[("results", "r")]),
            Edit::AddEntries {
                path: vec![k("items"), Seg::Index(0), k("spec")],
                entries: vec![("z".into(), "3".into())],
            },
        ],
    );
    assert_eq!(
        out,
        "items:\n- spec:\n    pre:\n      a: \"1\"\n    z: \"3\"\nresults: \"r\"\n"
    );
    assert_eq!(
        json,
        json!({"items": [{"spec": {"pre": {"a": "1"}, "z": "3"}}], "results": "r"})
    );
}

#[test]
fn regression_fuzz_value_of_a_lone_explicit_key_ignored_keep_style() {
    // `a: ` and `? a` alone are both plain empty nulls: Keep writes `null` plain for both
    let (out, json) = ok(
        "b:\n  - ~\n? a",
        vec![Edit::SetScalar {
            path: keys("a"),
            value: "null".into(),
            style: WriteStyle::Keep,
        }],
    );
    assert_eq!(out, "b:\n  - ~\n? a\n: null\n");
    assert_eq!(json["a"], serde_json::Value::Null);
    let (out, _) = ok(
        "f: {a}\n",
        vec![Edit::SetScalar {
            path: keys("f.a"),
            value: "x y".into(),
            style: WriteStyle::Keep,
        }],
    );
    assert_eq!(out, "f: {a: \"x y\"}\n");
}

#[test]
fn regression_fuzz_quoted_key_beside_a_merge_key_was_a_duplicate() {
    // `"<<"` is an ordinary key, the plain `<<` a merge key: no duplicate
    let t = "a: &a {x: 1}\nm:\n  <<: *a\n  \"<<\": q\n";
    let d = doc(t);
    assert_eq!(d.root.to_json()["m"], json!({"x": 1, "<<": "q"}));
    let m = d.root.get("m").unwrap();
    assert_eq!(m.get("<<").and_then(|n| n.as_str()), Some("q"));
    assert_eq!(m.as_map().unwrap().position("<<"), Some(1));
    // adding it beside a merge key, as the fuzz target did
    let (out, json) = ok(
        "a: &a {x: 1}\nm:\n  <<: [*a]\n",
        vec![add("m", &[("<<", "v")])],
    );
    assert_eq!(out, "a: &a {x: 1}\nm:\n  <<: [*a]\n  \"<<\": \"v\"\n");
    assert_eq!(json["m"], json!({"x": 1, "<<": "v"}));
    // two merge keys are a duplicate
    let e = parse("a: &a {x: 1}\nm:\n  <<: *a\n  <<: *a\n").unwrap_err();
    assert!(e.message.contains("duplicate merge key"), "{e}");
    assert_eq!(e.line, 4);
}

#[test]
fn regression_oracle_comment_after_replaced_block_value_ended_up_in_a_block_scalar() {
    let t = "? 1\r: &an1\r  - &an2 null\r  - &an3 ~ # c\r";
    let d = doc(t);
    let e = Edit::SetValue {
        path: vec![],
        key: "1".into(),
        yaml: "|\n  lit\n".into(),
    };
    let out = apply(t, &[(&d.root, e)]).unwrap();
    assert_eq!(out, "? 1\r: &an1\r  |\r    lit\r");
    assert_eq!(doc(&out).root.to_json(), json!({"1": "lit\n"}));
}

#[test]
fn regression_fuzz_scalar_tag_kept_on_a_new_value() {
    // `!!str` stayed in front of the new `~`: it read as the string "null"
    let t = "c: &an1 {d: &an2 '#not', b: &an3 !!str 5}\n";
    let (out, json) = ok(
        t,
        vec![Edit::SetValue {
            path: keys("c"),
            key: "b".into(),
            yaml: "~".into(),
        }],
    );
    // (inside a flow mapping the value is written in flow form)
    assert_eq!(out, "c: &an1 {d: &an2 '#not', b: &an3 null}\n");
    assert_eq!(json["c"], json!({"d": "#not", "b": null}));
    let (out, _) = ok(
        "a: !!str 5\n",
        vec![Edit::SetValue {
            path: vec![],
            key: "a".into(),
            yaml: "6".into(),
        }],
    );
    assert_eq!(out, "a: 6\n");
}
