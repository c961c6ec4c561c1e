use super::doc;
use crate::yaml::{Edit, EditError, Seg, WriteStyle, apply, parse};

fn k(s: &str) -> Seg {
    Seg::key(s)
}

/// Applies `edits` relative to the first document's root.
fn run(text: &str, edits: Vec<Edit>) -> Result<String, EditError> {
    let d = doc(text);
    let pairs: Vec<_> = edits.into_iter().map(|e| (&d.root, e)).collect();
    apply(text, &pairs)
}

fn ok(text: &str, edits: Vec<Edit>) -> String {
    let out = run(text, edits).unwrap_or_else(|e| panic!("{e}"));
    parse(&out).unwrap_or_else(|e| panic!("output does not parse: {e}\n{out}"));
    out
}

fn add(path: Vec<Seg>, entries: &[(&str, &str)]) -> Edit {
    Edit::AddEntries {
        path,
        entries: entries
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
    }
}

fn set(path: Vec<Seg>, value: &str, style: WriteStyle) -> Edit {
    Edit::SetScalar {
        path,
        value: value.into(),
        style,
    }
}

#[test]
fn no_edits_returns_text_unchanged() {
    let t = "a: 1 # c\nb:   'x'\n";
    assert_eq!(ok(t, vec![]), t);
}

#[test]
fn set_scalar_keeps_plain_when_safe() {
    let t = "# top\na: old   # keep me\nb: 1\n";
    assert_eq!(
        ok(t, vec![set(vec![k("a")], "new", WriteStyle::Keep)]),
        "# top\na: new   # keep me\nb: 1\n"
    );
    // a string that would read as a number is quoted
    assert_eq!(
        ok(t, vec![set(vec![k("a")], "12", WriteStyle::Keep)]),
        "# top\na: \"12\"   # keep me\nb: 1\n"
    );
    // a number stays a number
    assert_eq!(
        ok(t, vec![set(vec![k("b")], "2", WriteStyle::Keep)]),
        "# top\na: old   # keep me\nb: 2\n"
    );
    // unsafe text is double-quoted and escaped
    assert_eq!(
        ok(t, vec![set(vec![k("a")], "x: \"y\"\n", WriteStyle::Keep)]),
        "# top\na: \"x: \\\"y\\\"\\n\"   # keep me\nb: 1\n"
    );
}

#[test]
fn set_scalar_in_each_style() {
    let t = "s: 'a'\nd: \"b\"  # c\nl: |\n  text\nf: >\n  fold\nz: 1\n";
    let out = ok(
        t,
        vec![
            set(vec![k("s")], "it's", WriteStyle::Keep),
            set(vec![k("d")], "B", WriteStyle::Keep),
            set(vec![k("l")], "new", WriteStyle::Keep),
            set(vec![k("f")], "p", WriteStyle::DoubleQuoted),
        ],
    );
    assert_eq!(
        out,
        "s: 'it''s'\nd: \"B\"  # c\nl: \"new\"\nf: \"p\"\nz: 1\n"
    );
}

#[test]
fn set_scalar_on_keep_block_keeps_following_line() {
    let t = "l: |+\n  text\n\nz: 1\n";
    let out = ok(t, vec![set(vec![k("l")], "v", WriteStyle::Keep)]);
    // the kept blank line was part of the value: it goes with it, the line break stays
    assert_eq!(out, "l: \"v\"\nz: 1\n");
}

#[test]
fn set_scalar_on_empty_and_null_values() {
    let t = "a:\nb: ~ # c\nc: &x\nl:\n-\n";
    let out = ok(
        t,
        vec![
            set(vec![k("a")], "x", WriteStyle::Keep),
            set(vec![k("b")], "y", WriteStyle::Keep),
            set(vec![k("c")], "z", WriteStyle::DoubleQuoted),
            set(vec![k("l"), Seg::Index(0)], "w", WriteStyle::Keep),
        ],
    );
    assert_eq!(out, "a: \"x\"\nb: \"y\" # c\nc: &x \"z\"\nl:\n- \"w\"\n");
}

#[test]
fn set_scalar_after_multibyte_text_and_with_crlf() {
    let t = "ü: \"é\"\r\nname: wörld\r\nv: x\r\n";
    let out = ok(t, vec![set(vec![k("v")], "ÿ", WriteStyle::Keep)]);
    assert_eq!(out, "ü: \"é\"\r\nname: wörld\r\nv: ÿ\r\n");
}

#[test]
fn set_scalar_errors_name_the_path() {
    let t = "a:\n  b: [1]\n";
    let e = run(t, vec![set(vec![k("a"), k("c")], "x", WriteStyle::Keep)]).unwrap_err();
    assert_eq!(e, EditError::NotFound { path: "a.c".into() });
    let e = run(t, vec![set(vec![k("a"), k("b")], "x", WriteStyle::Keep)]).unwrap_err();
    assert!(
        matches!(e, EditError::WrongKind { ref path, .. } if path == "a.b"),
        "{e}"
    );
    assert!(e.to_string().contains("a.b"));
    let e = run(
        t,
        vec![set(vec![k("a"), Seg::Index(0)], "x", WriteStyle::Keep)],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::WrongKind { .. }), "{e}");
}

#[test]
fn edits_through_aliases_are_refused() {
    let t = "base: &b\n  x: 1\ncopy: *b\n";
    let e = run(t, vec![set(vec![k("copy"), k("x")], "2", WriteStyle::Keep)]).unwrap_err();
    assert!(matches!(e, EditError::Alias { .. }), "{e}");
    let e = run(t, vec![add(vec![k("copy")], &[("y", "2")])]).unwrap_err();
    assert!(matches!(e, EditError::Alias { .. }), "{e}");
}

#[test]
fn add_entries_to_block_mapping_with_comments_around() {
    let t = "meta:\n  # above\n  a: \"1\"   # right\n  b: x # right too\n\n# free\nnext: 1\n";
    let out = ok(t, vec![add(vec![k("meta")], &[("c", "3"), ("d e", "q\"")])]);
    assert_eq!(
        out,
        "meta:\n  # above\n  a: \"1\"   # right\n  b: x # right too\n  c: \"3\"\n  d e: \"q\\\"\"\n\n# free\nnext: 1\n"
    );
}

#[test]
fn add_entries_to_flow_mapping() {
    let t = "m: {a: 1}  # c\n";
    assert_eq!(
        ok(t, vec![add(vec![k("m")], &[("b", "2"), ("c", "3")])]),
        "m: {a: 1, b: \"2\", c: \"3\"}  # c\n"
    );
}

#[test]
fn add_entries_to_empty_flow_null_and_empty_value() {
    let t = "a: {}  # c\nb: null\nc:\nd: ~\n";
    let out = ok(
        t,
        vec![
            add(vec![k("a")], &[("x", "1")]),
            add(vec![k("b")], &[("y", "2"), ("z", "3")]),
            add(vec![k("c")], &[("w", "4")]),
        ],
    );
    assert_eq!(
        out,
        "a:  # c\n  x: \"1\"\nb:\n  y: \"2\"\n  z: \"3\"\nc:\n  w: \"4\"\nd: ~\n"
    );
}

#[test]
fn add_entries_to_missing_mapping_is_last_key_of_parent() {
    let t = "metadata:\n    name: x   # n\nspec:\n    a: 1\n# end\n";
    let out = ok(
        t,
        vec![add(vec![k("metadata"), k("labels")], &[("app", "web")])],
    );
    assert_eq!(
        out,
        "metadata:\n    name: x   # n\n    labels:\n        app: \"web\"\nspec:\n    a: 1\n# end\n"
    );
    let e = run(t, vec![add(vec![k("nope"), k("labels")], &[("a", "b")])]).unwrap_err();
    assert!(
        matches!(e, EditError::NotFound { ref path } if path == "nope.labels"),
        "{e}"
    );
}

#[test]
fn add_entries_in_both_sequence_styles() {
    for t in [
        "items:\n- name: a\n  v: 1\n- name: b\n",
        "items:\n  - name: a\n    v: 1\n  - name: b\n",
    ] {
        let out = ok(t, vec![add(vec![k("items"), Seg::Index(0)], &[("w", "2")])]);
        let d = doc(&out);
        let item = d.root.get_path(&[k("items"), Seg::Index(0)]).unwrap();
        assert_eq!(item.get("w").and_then(|n| n.as_str()), Some("2"));
        assert_eq!(item.as_map().unwrap().len(), 3);
        assert_eq!(out.lines().count(), t.lines().count() + 1);
    }
}

#[test]
fn add_entries_relative_to_an_item_root() {
    let t = "items:\n- kind: A\n  spec:\n    x: 1\n- kind: B\n  spec:\n    y: 2 # c\n";
    let d = doc(t);
    let item = d.root.get_path(&[k("items"), Seg::Index(1)]).unwrap();
    let out = apply(t, &[(item, add(vec![k("spec")], &[("z", "3")]))]).unwrap();
    assert_eq!(
        out,
        "items:\n- kind: A\n  spec:\n    x: 1\n- kind: B\n  spec:\n    y: 2 # c\n    z: \"3\"\n"
    );
    let out = apply(
        t,
        &[(
            &d.root,
            add(vec![k("items"), Seg::Index(1), k("spec")], &[("z", "3")]),
        )],
    )
    .unwrap();
    assert!(out.ends_with("    y: 2 # c\n    z: \"3\"\n"));
}

#[test]
fn add_entries_at_end_of_stream_variants() {
    // spec is the last key of the last item; comments after the last line; no final newline
    let t = "items:\n- spec:\n    a: 1\n# trailing";
    assert_eq!(
        ok(
            t,
            vec![add(
                vec![k("items"), Seg::Index(0), k("spec")],
                &[("b", "2")]
            )]
        ),
        "items:\n- spec:\n    a: 1\n    b: \"2\"\n# trailing"
    );
    let t = "a: 1";
    assert_eq!(ok(t, vec![add(vec![], &[("b", "2")])]), "a: 1\nb: \"2\"\n");
    let t = "a: 1\n...\n---\nc: 3\n";
    assert_eq!(
        ok(t, vec![add(vec![], &[("b", "2")])]),
        "a: 1\nb: \"2\"\n...\n---\nc: 3\n"
    );
    let t = "a:\n  x: 1\n---\nc: 3\n";
    assert_eq!(
        ok(t, vec![add(vec![k("a")], &[("y", "2")])]),
        "a:\n  x: 1\n  y: \"2\"\n---\nc: 3\n"
    );
}

#[test]
fn add_entries_with_crlf() {
    let t = "a:\r\n  x: 1\r\nb: {}\r\n";
    assert_eq!(
        ok(
            t,
            vec![
                add(vec![k("a")], &[("y", "2")]),
                add(vec![k("b")], &[("z", "3")])
            ]
        ),
        "a:\r\n  x: 1\r\n  y: \"2\"\r\nb:\r\n  z: \"3\"\r\n"
    );
}

#[test]
fn add_entries_after_keep_block_scalar() {
    let t = "m:\n  s: |+\n    x\n\n# c\nn: 1\n";
    let out = ok(t, vec![add(vec![k("m")], &[("t", "2")])]);
    let d = doc(&out);
    assert_eq!(
        d.root.get_path(&[k("m"), k("s")]).unwrap().as_str(),
        Some("x\n\n")
    );
    assert_eq!(
        d.root.get_path(&[k("m"), k("t")]).unwrap().as_str(),
        Some("2")
    );
}

#[test]
fn add_entries_duplicate_key_is_an_error_and_same_target_edits_merge() {
    let t = "m:\n  a: 1\n";
    let e = run(t, vec![add(vec![k("m")], &[("a", "2")])]).unwrap_err();
    assert_eq!(
        e,
        EditError::DuplicateKey {
            path: "m".into(),
            key: "a".into()
        }
    );
    let out = ok(
        t,
        vec![
            add(vec![k("m")], &[("b", "2")]),
            add(vec![k("m")], &[("c", "3")]),
        ],
    );
    assert_eq!(out, "m:\n  a: 1\n  b: \"2\"\n  c: \"3\"\n");
    let t = "m: {}\n";
    let out = ok(
        t,
        vec![
            add(vec![k("m")], &[("b", "2")]),
            add(vec![k("m")], &[("c", "3")]),
        ],
    );
    assert_eq!(out, "m:\n  b: \"2\"\n  c: \"3\"\n");
}

#[test]
fn add_entries_to_null_item_and_in_flow_context() {
    let t = "l:\n- ~\n- x\nf: [~]\ng: {a: ~}\n";
    let out = ok(
        t,
        vec![
            add(vec![k("l"), Seg::Index(0)], &[("a", "1"), ("b", "2")]),
            add(vec![k("f"), Seg::Index(0)], &[("c", "3")]),
            add(vec![k("g"), k("a")], &[("d", "4")]),
        ],
    );
    assert_eq!(
        out,
        "l:\n- a: \"1\"\n  b: \"2\"\n- x\nf: [{c: \"3\"}]\ng: {a: {d: \"4\"}}\n"
    );
}

#[test]
fn two_inserts_at_one_offset_deeper_first() {
    let t = "items:\n- name: a\n  spec:\n    x: 1\n";
    let d = doc(t);
    let item = d.root.get_path(&[k("items"), Seg::Index(0)]).unwrap();
    // the outer edit is listed first; the deeper one must still come first in the text
    let out = apply(
        t,
        &[
            (&d.root, add(vec![], &[("results", "r")])),
            (item, add(vec![k("spec")], &[("y", "2")])),
            (item, add(vec![], &[("z", "3")])),
        ],
    )
    .unwrap();
    assert_eq!(
        out,
        "items:\n- name: a\n  spec:\n    x: 1\n    y: \"2\"\n  z: \"3\"\nresults: \"r\"\n"
    );
}

#[test]
fn remove_entry_forms() {
    let t = "m:\n  # about a\n  a: 1 # ra\n  b:\n    deep: x\n  c: 3\n";
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("m")],
                key: "a".into()
            }]
        ),
        "m:\n  # about a\n  b:\n    deep: x\n  c: 3\n"
    );
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("m")],
                key: "b".into()
            }]
        ),
        "m:\n  # about a\n  a: 1 # ra\n  c: 3\n"
    );
    let t = "m:\n  only: 1  # c\nn: 2\n";
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("m")],
                key: "only".into()
            }]
        ),
        // the entry's trailing comment goes with it; `{}` is written on the key's line
        "m: {}\nn: 2\n"
    );
    let t = "l:\n- a: 1\n  b: 2\n";
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("l"), Seg::Index(0)],
                key: "a".into()
            }]
        ),
        "l:\n- b: 2\n"
    );
    let t = "f: {a: 1, b: 2, c: 3}\n";
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("f")],
                key: "b".into()
            }]
        ),
        "f: {a: 1, c: 3}\n"
    );
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![k("f")],
                key: "c".into()
            }]
        ),
        "f: {a: 1, b: 2}\n"
    );
    let e = run(
        t,
        vec![Edit::RemoveEntry {
            path: vec![k("f")],
            key: "z".into(),
        }],
    )
    .unwrap_err();
    assert_eq!(e, EditError::NotFound { path: "f.z".into() });
}

#[test]
fn remove_last_entry_without_final_newline() {
    let t = "a: 1\nb: 2";
    assert_eq!(
        ok(
            t,
            vec![Edit::RemoveEntry {
                path: vec![],
                key: "b".into()
            }]
        ),
        // the text had no final newline, and still has none
        "a: 1"
    );
}

#[test]
fn remove_last_entry_and_append_after_it() {
    // prune + fill on one pool: the removed entry is the one new entries are appended after
    let t = "spec:\n  pre:\n    a: \"1\"\n    old: \"2\"  # stale\n  x: 1\n";
    let out = ok(
        t,
        vec![
            Edit::RemoveEntry {
                path: vec![k("spec"), k("pre")],
                key: "old".into(),
            },
            add(vec![k("spec"), k("pre")], &[("b", "3")]),
        ],
    );
    assert_eq!(out, "spec:\n  pre:\n    a: \"1\"\n    b: \"3\"\n  x: 1\n");
}

#[test]
fn remove_last_entry_and_append_with_crlf() {
    let t = "pre:\r\n  a: \"1\"\r\n  old: \"2\"\r\n";
    let out = ok(
        t,
        vec![
            Edit::RemoveEntry {
                path: vec![k("pre")],
                key: "old".into(),
            },
            add(vec![k("pre")], &[("b", "3")]),
        ],
    );
    assert_eq!(out, "pre:\r\n  a: \"1\"\r\n  b: \"3\"\r\n");
}

fn sv(path: Vec<Seg>, key: &str, yaml: &str) -> Edit {
    Edit::SetValue {
        path,
        key: key.into(),
        yaml: yaml.into(),
    }
}

#[test]
fn set_value_replaces_and_appends() {
    let t = "spec:\n  a: 1 # c\n  b:\n    - x\n  c: z\n";
    let out = ok(
        t,
        vec![
            sv(vec![k("spec")], "a", "k: v\nl:\n  - 1\n"),
            sv(vec![k("spec")], "b", "\"s\"\n"),
            sv(vec![k("spec")], "new", "- p: 1\n  q: |\n    lit\n"),
        ],
    );
    assert_eq!(
        out,
        "spec:\n  a: # c\n    k: v\n    l:\n      - 1\n  b: \"s\"\n  c: z\n  new:\n    - p: 1\n      q: |\n        lit\n"
    );
    let d = doc(&out);
    assert_eq!(
        d.root
            .get_path(&[k("spec"), k("new"), Seg::Index(0), k("q")])
            .unwrap()
            .as_str(),
        Some("lit\n")
    );
}

#[test]
fn set_value_in_flow_and_empty_mappings() {
    let t = "f: {a: 1}\ne: {}\nn:\n";
    let out = ok(
        t,
        vec![
            sv(vec![k("f")], "b", "x: [1, 2]\n"),
            sv(vec![k("f")], "a", "two\n"),
            sv(vec![k("e")], "k", "v: 1\n"),
            sv(vec![k("n")], "k", "'q'\n"),
        ],
    );
    assert_eq!(
        out,
        "f: {a: two, b: {x: [1, 2]}}\ne:\n  k:\n    v: 1\nn:\n  k: 'q'\n"
    );
}

#[test]
fn set_value_rejects_invalid_yaml() {
    let e = run("a: {}\n", vec![sv(vec![k("a")], "k", "x: [\n")]).unwrap_err();
    assert!(matches!(e, EditError::InvalidYaml { .. }), "{e}");
    let e = run("a: {}\n", vec![sv(vec![k("a")], "k", "a\n---\nb\n")]).unwrap_err();
    assert!(matches!(e, EditError::InvalidYaml { .. }), "{e}");
}

#[test]
fn overlapping_edits_are_refused_and_nothing_applies() {
    let t = "a:\n  b: 1\n";
    let e = run(
        t,
        vec![
            sv(vec![], "a", "x\n"),
            set(vec![k("a"), k("b")], "2", WriteStyle::Keep),
        ],
    )
    .unwrap_err();
    assert!(matches!(e, EditError::Overlap { .. }), "{e}");
}

#[test]
fn step_is_copied_from_the_document() {
    let t = "a:\n    b: 1\nc: {}\n";
    assert_eq!(
        ok(t, vec![add(vec![k("c")], &[("x", "1")])]),
        "a:\n    b: 1\nc:\n    x: \"1\"\n"
    );
}

#[test]
fn edits_in_second_document() {
    let t = "a: 1\n---\nb:\n  c: 2\n";
    let docs = parse(t).unwrap();
    let out = apply(t, &[(&docs[1].root, add(vec![k("b")], &[("d", "3")]))]).unwrap();
    assert_eq!(out, "a: 1\n---\nb:\n  c: 2\n  d: \"3\"\n");
}

#[test]
fn regression_set_scalar_on_flow_value_without_colon() {
    let t = "a: {a: 0, b}\n";
    assert_eq!(
        ok(t, vec![set(vec![k("a"), k("b")], "x", WriteStyle::Keep)]),
        "a: {a: 0, b: \"x\"}\n"
    );
}

#[test]
fn regression_empty_item_with_comment_at_end_of_file() {
    let t = "a: # c\n- # c";
    assert_eq!(
        ok(
            t,
            vec![set(vec![k("a"), Seg::Index(0)], "x", WriteStyle::Keep)]
        ),
        "a: # c\n- \"x\" # c"
    );
    let t = "a:\n- # c\n- y\n";
    assert_eq!(
        ok(
            t,
            vec![set(vec![k("a"), Seg::Index(0)], "x", WriteStyle::Keep)]
        ),
        "a:\n- \"x\" # c\n- y\n"
    );
}

#[test]
fn edit_with_a_node_from_another_text_is_refused() {
    let other = doc("a:\n  b: 1\n  c: 2\n  d: 3\n");
    let e = apply("x: 1\n", &[(&other.root, add(vec![k("a")], &[("e", "4")]))]).unwrap_err();
    assert!(matches!(e, EditError::Unsupported { .. }), "{e}");
}

#[test]
fn regression_remove_after_keep_block_scalar_is_refused() {
    // The blank line after `>+` belongs to it; removing `a` would make it `c`'s content.
    let t = "c: >+\na: {a: 0, b}\n\nb: [a, 0]";
    let e = run(
        t,
        vec![Edit::RemoveEntry {
            path: vec![],
            key: "a".into(),
        }],
    );
    assert!(matches!(e, Err(EditError::Unsupported { .. })), "{e:?}");
}

#[test]
fn regression_append_after_keep_block_scalar_is_refused() {
    // The whitespace-only last line belongs to `a`'s kept lines once a newline follows it.
    let t = "a: |+\n  - a: 0\n  ";
    let e = run(t, vec![add(vec![], &[("zz", "v")])]);
    assert!(matches!(e, Err(EditError::Unsupported { .. })), "{e:?}");
}

#[test]
fn remove_last_entry_after_a_blank_line_and_append() {
    // prune + fill where a blank line stands before the stale last entry
    let t = "pre:\n  a: \"1\"\n\n  old: \"2\"\nx: 1\n";
    let out = ok(
        t,
        vec![
            Edit::RemoveEntry {
                path: vec![k("pre")],
                key: "old".into(),
            },
            add(vec![k("pre")], &[("b", "3")]),
        ],
    );
    assert_eq!(out, "pre:\n  a: \"1\"\n\n  b: \"3\"\nx: 1\n");
}
