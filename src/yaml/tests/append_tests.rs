//! `Edit::AppendItem`: a string item appended to a block or flow sequence, only its text
//! inserted.

use serde_json::json;

use super::doc;
use crate::yaml::{Edit, EditError, Seg, WriteStyle, apply, parse};

fn k(s: &str) -> Seg {
    Seg::key(s)
}

fn keys(path: &str) -> Vec<Seg> {
    path.split('.').filter(|s| !s.is_empty()).map(k).collect()
}

fn append(path: &str, value: &str) -> Edit {
    Edit::AppendItem {
        path: keys(path),
        value: value.into(),
        style: WriteStyle::Keep,
    }
}

fn append_quoted(path: &str, value: &str) -> Edit {
    Edit::AppendItem {
        path: keys(path),
        value: value.into(),
        style: WriteStyle::DoubleQuoted,
    }
}

fn run(text: &str, edits: Vec<Edit>) -> Result<String, EditError> {
    let d = doc(text);
    let pairs: Vec<_> = edits.into_iter().map(|e| (&d.root, e)).collect();
    apply(text, &pairs)
}

/// Applies the edits; the output must read back as the original with the edits' meaning
/// (`Edit::apply_to_json`) made on it.
fn ok(text: &str, edits: Vec<Edit>) -> String {
    let out = run(text, edits.clone()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let docs = parse(&out).unwrap_or_else(|e| panic!("output does not parse: {e}\n{out}"));
    let mut meant = doc(text).root.to_json();
    for e in &edits {
        e.apply_to_json(&mut meant)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(docs.len(), 1, "{out}");
    assert_eq!(docs[0].root.to_json(), meant, "{out}");
    out
}

const FLAG: &str = "--enable-bmh-name-based-preallocation=true";

#[test]
fn block_list_with_dashes_at_the_key_indentation() {
    let t = "spec:\n  containers:\n  - name: manager\n    args:\n    - --leader-elect\n    - --metrics-bind-address=:8080\n    image: capm3:v1\n";
    assert_eq!(
        ok(t, vec![append("spec.containers", "x")]).lines().count(),
        t.lines().count() + 1
    );
    let path = vec![k("spec"), k("containers"), Seg::Index(0), k("args")];
    let edit = Edit::AppendItem {
        path,
        value: FLAG.into(),
        style: WriteStyle::Keep,
    };
    assert_eq!(
        ok(t, vec![edit]),
        "spec:\n  containers:\n  - name: manager\n    args:\n    - --leader-elect\n    - --metrics-bind-address=:8080\n    - --enable-bmh-name-based-preallocation=true\n    image: capm3:v1\n"
    );
}

#[test]
fn block_list_with_indented_dashes() {
    let t = "args:\n    - --a\n    - --b   # the last\n\n# after the list\nnext: 1\n";
    assert_eq!(
        ok(t, vec![append("args", FLAG)]),
        "args:\n    - --a\n    - --b   # the last\n    - --enable-bmh-name-based-preallocation=true\n\n# after the list\nnext: 1\n"
    );
}

#[test]
fn the_document_root_and_nested_lists() {
    assert_eq!(ok("- a\n- b\n", vec![append("", "c")]), "- a\n- b\n- c\n");
    let t = "l:\n- - a\n  - b\n";
    let inner = Edit::AppendItem {
        path: vec![k("l"), Seg::Index(0)],
        value: "c".into(),
        style: WriteStyle::Keep,
    };
    // the outer item goes after the inner one, whatever the order of the edits
    for edits in [
        vec![append("l", "d"), inner.clone()],
        vec![inner.clone(), append("l", "d")],
    ] {
        assert_eq!(ok(t, edits), "l:\n- - a\n  - b\n  - c\n- d\n");
    }
}

#[test]
fn flow_list_on_one_line() {
    let t = "args: [\"--a\", \"--b\"]  # flags\nn: 1\n";
    assert_eq!(
        ok(t, vec![append("args", FLAG)]),
        "args: [\"--a\", \"--b\", \"--enable-bmh-name-based-preallocation=true\"]  # flags\nn: 1\n"
    );
    let t = "args: [a, b]";
    // no final newline: none is added (the insertion is inside the brackets)
    assert_eq!(
        ok(t, vec![append("args", "c"), append("args", "d")]),
        "args: [a, b, c, d]"
    );
}

#[test]
fn flow_list_over_several_lines() {
    let t = "args: [\n    \"--a\",\n    \"--b\"  # b\n  ]\n";
    assert_eq!(
        ok(t, vec![append("args", "--c")]),
        "args: [\n    \"--a\",\n    \"--b\",  # b\n    \"--c\"\n  ]\n"
    );
    // a trailing comma after the last item: the new ones get one too
    let t = "args: [\n  a,\n  b, # b\n]\n";
    assert_eq!(
        ok(t, vec![append("args", "c"), append("args", "d")]),
        "args: [\n  a,\n  b, # b\n  c,\n  d,\n]\n"
    );
    // the last item shares its line with the bracket: it stays there
    let t = "args: [a,\n       b]\n";
    assert_eq!(
        ok(t, vec![append("args", "c")]),
        "args: [a,\n       b, c]\n"
    );
    let t = "args: [a, # a\n  b]\n";
    assert_eq!(ok(t, vec![append("args", "c")]), "args: [a, # a\n  b, c]\n");
}

#[test]
fn empty_flow_list() {
    assert_eq!(
        ok("args: []\n", vec![append("args", FLAG)]),
        format!("args: [{FLAG}]\n")
    );
    assert_eq!(
        ok(
            "args: [] # none yet\n",
            vec![append_quoted("args", "a"), append("args", "b")]
        ),
        "args: [\"a\", b] # none yet\n"
    );
    assert_eq!(
        ok("c: {args: [ ]}\n", vec![append("c.args", "x")]),
        "c: {args: [x ]}\n"
    );
}

#[test]
fn items_are_written_like_the_last_one() {
    assert_eq!(
        ok("l: ['a', 'b']\n", vec![append("l", "it's")]),
        "l: ['a', 'b', 'it''s']\n"
    );
    assert_eq!(
        ok("l:\n- \"a\"\n", vec![append("l", "b")]),
        "l:\n- \"a\"\n- \"b\"\n"
    );
    // a plain item only when it reads back as this string
    assert_eq!(
        ok(
            "l: [a]\n",
            vec![append("l", "12"), append("l", "true"), append("l", "x: y")]
        ),
        "l: [a, \"12\", \"true\", \"x: y\"]\n"
    );
    // a single-quoted one only on one printable line
    assert_eq!(
        ok("l: ['a']\n", vec![append("l", "x\ny")]),
        "l: ['a', \"x\\ny\"]\n"
    );
    assert_eq!(
        ok("l: [a]\n", vec![append_quoted("l", "b")]),
        "l: [a, \"b\"]\n"
    );
    // after a mapping item: plain when safe
    assert_eq!(
        ok("l:\n- a: 1\n", vec![append("l", "b")]),
        "l:\n- a: 1\n- b\n"
    );
}

#[test]
fn after_block_scalar_items() {
    let t = "l:\n- >-\n  folded\n  text\n- |\n  lit\n# end\nn: 1\n";
    assert_eq!(
        ok(t, vec![append("l", "x")]),
        "l:\n- >-\n  folded\n  text\n- |\n  lit\n- \"x\"\n# end\nn: 1\n"
    );
    // the kept blank lines of a `|+` item stay its own
    let t = "l:\n  - |+\n    keep\n\nn: 1\n";
    let out = ok(t, vec![append("l", "x")]);
    assert_eq!(out, "l:\n  - |+\n    keep\n\n  - \"x\"\nn: 1\n");
    assert_eq!(
        doc(&out)
            .root
            .get_path(&[k("l"), Seg::Index(0)])
            .and_then(|n| n.as_str()),
        Some("keep\n\n")
    );
    // ... which is refused when the text ends there without a newline
    let e = run("l:\n- |+\n  keep\n  ", vec![append("l", "x")]).unwrap_err();
    assert!(matches!(e, EditError::Unsupported { .. }), "{e}");
}

#[test]
fn line_breaks_and_the_end_of_the_text() {
    assert_eq!(
        ok(
            "args:\r\n- a # c\r\n- b\r\nn: 1\r\n",
            vec![append("args", "x")]
        ),
        "args:\r\n- a # c\r\n- b\r\n- x\r\nn: 1\r\n"
    );
    assert_eq!(
        ok("args:\r- a\r", vec![append("args", "x")]),
        "args:\r- a\r- x\r"
    );
    assert_eq!(
        ok("args: [\r\n  a\r\n]\r\n", vec![append("args", "x")]),
        "args: [\r\n  a,\r\n  x\r\n]\r\n"
    );
    // an insertion at the end of a text without a final newline adds one, as AddEntries does
    assert_eq!(
        ok("args:\n- a", vec![append("args", "x")]),
        "args:\n- a\n- x\n"
    );
    assert_eq!(
        ok("args:\n- a # c", vec![append("args", "x")]),
        "args:\n- a # c\n- x\n"
    );
}

#[test]
fn with_other_edits_at_the_same_place() {
    // the new item goes before an entry added to the enclosing mapping, in any order
    let t = "c:\n  args:\n  - a\n";
    let add = Edit::AddEntries {
        path: keys("c"),
        entries: vec![("image".into(), "i".into())],
    };
    for edits in [
        vec![add.clone(), append("c.args", "x")],
        vec![append("c.args", "x"), add.clone()],
    ] {
        assert_eq!(ok(t, edits), "c:\n  args:\n  - a\n  - x\n  image: \"i\"\n");
    }
    // ... and after an entry added to the last item
    let t = "l:\n- name: a\n";
    let add = Edit::AddEntries {
        path: vec![k("l"), Seg::Index(0)],
        entries: vec![("v".into(), "1".into())],
    };
    for edits in [
        vec![add.clone(), append("l", "x")],
        vec![append("l", "x"), add.clone()],
    ] {
        assert_eq!(ok(t, edits), "l:\n- name: a\n  v: \"1\"\n- x\n");
    }
    // the last item rewritten and an item appended
    let set = |value: &str| Edit::SetScalar {
        path: vec![k("l"), Seg::Index(1)],
        value: value.into(),
        style: WriteStyle::Keep,
    };
    assert_eq!(
        ok("l:\n- a\n- b\n", vec![set("B"), append("l", "c")]),
        "l:\n- a\n- B\n- c\n"
    );
    assert_eq!(
        ok("l: [a, b]\n", vec![set("B"), append("l", "c")]),
        "l: [a, B, c]\n"
    );
    // the last entry of the last item removed
    let rm = Edit::RemoveEntry {
        path: vec![k("l"), Seg::Index(0)],
        key: "b".into(),
    };
    assert_eq!(
        ok("l:\n- a: 1\n  b: 2\n", vec![rm, append("l", "x")]),
        "l:\n- a: 1\n- x\n"
    );
}

#[test]
fn an_anchored_list_is_appended_to_where_it_is_written() {
    // (the meaning of an edit does not follow aliases: the run refuses such edits before they
    // reach the edit layer, see `verify::Anchored`)
    let out = run("a: &l [x]\nb: *l\n", vec![append("a", "y")]).unwrap();
    assert_eq!(out, "a: &l [x, y]\nb: *l\n");
    assert_eq!(
        doc(&out).root.to_json(),
        json!({"a": ["x", "y"], "b": ["x", "y"]})
    );
}

#[test]
fn errors() {
    let t = "m:\n  k: v\ns: x\nn:\nbase: &b [a]\ncopy: *b\nitems:\n- *b\nmerged:\n  <<: {l: [a]}\nbm: &bm\n  l: [a]\ncm: *bm\n";
    for path in ["m", "s", "n"] {
        assert_eq!(
            run(t, vec![append(path, "x")]).unwrap_err(),
            EditError::WrongKind {
                path: path.into(),
                expected: "a sequence"
            }
        );
    }
    assert_eq!(
        run(t, vec![append("nope", "x")]).unwrap_err(),
        EditError::NotFound {
            path: "nope".into()
        }
    );
    assert_eq!(
        run(t, vec![append("copy", "x")]).unwrap_err(),
        EditError::Alias {
            path: "copy".into()
        }
    );
    // a path through an alias: refused where it meets the alias
    assert_eq!(
        run(t, vec![append("cm.l", "x")]).unwrap_err(),
        EditError::Alias { path: "cm".into() }
    );
    let through = Edit::AppendItem {
        path: vec![k("items"), Seg::Index(0)],
        value: "x".into(),
        style: WriteStyle::Keep,
    };
    assert_eq!(
        run(t, vec![through]).unwrap_err(),
        EditError::Alias {
            path: "items[0]".into()
        }
    );
    assert_eq!(
        run(t, vec![append("merged.l", "x")]).unwrap_err(),
        EditError::Merged {
            path: "merged.l".into()
        }
    );
    // the list replaced or removed by another edit
    let t = "c:\n  args: [a]\n  x: 1\n";
    let set = Edit::SetValue {
        path: keys("c"),
        key: "args".into(),
        yaml: "- b\n".into(),
    };
    let rm = Edit::RemoveEntry {
        path: keys("c"),
        key: "args".into(),
    };
    for other in [set, rm] {
        let e = run(t, vec![append("c.args", "y"), other]).unwrap_err();
        assert!(matches!(e, EditError::Overlap { .. }), "{e}");
    }
}

#[test]
fn a_missing_list_is_written_by_set_value_instead() {
    // the documented way to add a list that is not there yet, or replace a null
    for t in ["c:\n  image: i\n", "c:\n  image: i\n  args:\n"] {
        let out = ok(
            t,
            vec![Edit::SetValue {
                path: keys("c"),
                key: "args".into(),
                yaml: format!("- {FLAG}\n"),
            }],
        );
        assert!(out.ends_with(&format!("  args:\n    - {FLAG}\n")), "{out}");
    }
}
