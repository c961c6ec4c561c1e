use serde_json::json;

use super::{doc, src};
use crate::yaml::{NodeKind, ScalarStyle, Seg, parse};

#[test]
fn spans_of_each_scalar_style() {
    let t = "a: plain\nb: 'single ''q'''   # c1\nc: \"dou\\\"ble\"  # c2\nd: |\n  lit\n  two\ne: >-\n  fold\n  ed\n\nf: end\n";
    let d = doc(t);
    let r = &d.root;
    assert_eq!(src(t, r.get("a").unwrap()), "plain");
    assert_eq!(src(t, r.get("b").unwrap()), "'single ''q'''");
    assert_eq!(r.get("b").unwrap().as_str(), Some("single 'q'"));
    assert_eq!(src(t, r.get("c").unwrap()), "\"dou\\\"ble\"");
    assert_eq!(r.get("c").unwrap().as_str(), Some("dou\"ble"));
    assert_eq!(src(t, r.get("d").unwrap()), "|\n  lit\n  two");
    assert_eq!(r.get("d").unwrap().as_str(), Some("lit\ntwo\n"));
    assert_eq!(src(t, r.get("e").unwrap()), ">-\n  fold\n  ed");
    assert_eq!(r.get("e").unwrap().as_str(), Some("fold ed"));
    let styles: Vec<ScalarStyle> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|k| r.get(k).unwrap().as_scalar().unwrap().style)
        .collect();
    assert_eq!(
        styles,
        [
            ScalarStyle::Plain,
            ScalarStyle::SingleQuoted,
            ScalarStyle::DoubleQuoted,
            ScalarStyle::Literal,
            ScalarStyle::Folded
        ]
    );
}

#[test]
fn tag_and_anchor_are_outside_the_span() {
    let t = "a: &x !!str \"v\"  # c\nb: !t 'w'\nc: &y !!int 5\n";
    let d = doc(t);
    let a = d.root.get("a").unwrap();
    assert_eq!(src(t, a), "\"v\"");
    assert_eq!(
        a.as_scalar().unwrap().tag.as_deref(),
        Some("tag:yaml.org,2002:str")
    );
    assert_eq!(src(t, d.root.get("b").unwrap()), "'w'");
    assert_eq!(
        d.root.get("b").unwrap().as_scalar().unwrap().tag.as_deref(),
        Some("!t")
    );
    assert_eq!(src(t, d.root.get("c").unwrap()), "5");
    assert_eq!(d.root.get("c").unwrap().to_json(), json!(5));
}

#[test]
fn keep_block_scalar_keeps_its_blank_lines() {
    let t = "a: |+\n  x\n\n\nb: |\n  y\n\n\n# c\nz: 1\n";
    let d = doc(t);
    let a = d.root.get("a").unwrap();
    assert_eq!(a.as_str(), Some("x\n\n\n"));
    assert_eq!(src(t, a), "|+\n  x\n\n\n");
    let b = d.root.get("b").unwrap();
    assert_eq!(b.as_str(), Some("y\n"));
    assert_eq!(src(t, b), "|\n  y");
}

#[test]
fn block_scalar_with_leading_blank_line_and_header_comment() {
    let t = "k: | # note | not the indicator\n\n  body\nn: 2\n";
    let d = doc(t);
    let k = d.root.get("k").unwrap();
    assert_eq!(k.as_str(), Some("\nbody\n"));
    assert_eq!(k.span.start, t.find('|').unwrap());
    assert!(src(t, k).ends_with("  body"));
}

#[test]
fn sequence_at_parent_indent_starts_at_dash() {
    let t = "items:\n- a: 1\n  b: 2\n- c\nother:\n  - x\n";
    let d = doc(t);
    let items = d.root.get("items").unwrap();
    assert_eq!(src(t, items), "- a: 1\n  b: 2\n- c");
    let first = items.get_index(0).unwrap();
    assert_eq!(src(t, first), "a: 1\n  b: 2");
    assert_eq!(src(t, d.root.get("other").unwrap()), "- x");
}

#[test]
fn empty_value_is_an_empty_span_after_the_colon() {
    let t = "a:\nb:   # c\nc: x\nl:\n-\n- ~\n";
    let d = doc(t);
    let a = d.root.get("a").unwrap();
    assert_eq!(a.span, 2..2);
    assert!(a.is_null());
    assert_eq!(a.as_str(), None);
    let b = d.root.get("b").unwrap();
    assert_eq!(b.span, 5..5);
    let l = d.root.get("l").unwrap();
    let e = l.get_index(0).unwrap();
    assert_eq!(&t[e.span.start - 1..e.span.start], "-");
    assert!(e.span.is_empty());
    assert!(l.get_index(1).unwrap().is_null());
}

#[test]
fn block_mapping_ends_at_last_child_not_after_comments() {
    let t = "a:\n  b: 1   # tail\n\n# free comment\n\nc: 2\n";
    let d = doc(t);
    assert_eq!(src(t, d.root.get("a").unwrap()), "b: 1");
    assert_eq!(d.span, 0..t.len() - 1);
}

#[test]
fn crlf_spans_are_bytes() {
    let t = "a: 1\r\nb:\r\n  c: \"x\"\r\n  d: |\r\n    l\r\n";
    let d = doc(t);
    let b = d.root.get("b").unwrap();
    assert_eq!(src(t, b.get("c").unwrap()), "\"x\"");
    assert_eq!(src(t, b.get("d").unwrap()), "|\r\n    l");
    assert_eq!(b.get("d").unwrap().as_str(), Some("l\n"));
}

#[test]
fn bom_counts_in_offsets() {
    let t = "\u{feff}a: 1\nb: x\n";
    let d = doc(t);
    let (k, _) = &d.root.as_map().unwrap().entries[0];
    assert_eq!(k.span, 3..4);
    assert_eq!(src(t, d.root.get("b").unwrap()), "x");
}

#[test]
fn multibyte_text_gives_byte_offsets() {
    let t = "name: héllo wörld\n\"ké\": 'ü'\nz: end\n";
    let d = doc(t);
    assert_eq!(src(t, d.root.get("name").unwrap()), "héllo wörld");
    assert_eq!(src(t, d.root.get("ké").unwrap()), "'ü'");
    assert_eq!(src(t, d.root.get("z").unwrap()), "end");
}

#[test]
fn multi_document_stream() {
    let t = "# head\n---\na: 1\n...\n---\nb: 2\n--- \nc\n";
    let docs = parse(t).unwrap();
    assert_eq!(docs.len(), 3);
    assert_eq!(&t[docs[0].span.clone()], "---\na: 1\n...");
    assert_eq!(docs[1].root.get("b").unwrap().to_json(), json!(2));
    assert_eq!(docs[2].root.as_str(), Some("c"));
    assert!(parse("# only a comment\n").unwrap().is_empty());
}

#[test]
fn syntax_error_has_line_and_column() {
    let e = parse("a: 1\nb: c: d\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.column >= 1);
    assert!(e.to_string().starts_with("line 2, column "), "{e}");
    assert!(e.message.contains("mapping values are not allowed"), "{e}");
}

#[test]
fn duplicate_key_is_an_error_naming_key_and_line() {
    let e = parse("a: 1\nb: 2\na: 3\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("\"a\""), "{e}");
    assert!(e.message.contains("line 1"), "{e}");
}

#[test]
fn get_uses_index_on_large_mappings() {
    let mut t = String::new();
    for i in 0..1000 {
        t.push_str(&format!("k{i}: v{i}\n"));
    }
    let d = doc(&t);
    assert_eq!(d.root.get("k999").and_then(|n| n.as_str()), Some("v999"));
    assert_eq!(d.root.get("k0").and_then(|n| n.as_str()), Some("v0"));
    assert!(d.root.get("k1000").is_none());
    assert_eq!(d.root.as_map().unwrap().position("k500"), Some(500));
}

#[test]
fn get_path_follows_keys_and_indices() {
    let t = "spec:\n  items:\n  - name: a\n  - name: b\n";
    let d = doc(t);
    let p = [
        Seg::key("spec"),
        Seg::key("items"),
        Seg::Index(1),
        Seg::key("name"),
    ];
    assert_eq!(d.root.get_path(&p).and_then(|n| n.as_str()), Some("b"));
    assert!(
        d.root
            .get_path(&[Seg::key("spec"), Seg::Index(0)])
            .is_none()
    );
    assert!(d.root.get("spec").unwrap().as_map().is_some());
    assert!(
        d.root
            .get("spec")
            .unwrap()
            .get("items")
            .unwrap()
            .as_seq()
            .is_some()
    );
}

#[test]
fn core_schema_resolution_of_plain_scalars_only() {
    let t = "a: ~\nb: null\nc: NULL\nd: True\ne: FALSE\nf: 0x1F\ng: 0o17\nh: -12\ni: 1.5e3\nj: .inf\nk: .NaN\nl: '5'\nm: \"true\"\nn: |\n  7\no: 99999999999999999999999\np: 1.2.3.4\nq: !!str 5\nr:\ns: +7\n";
    let d = doc(t);
    assert_eq!(
        d.root.to_json(),
        json!({"a": null, "b": null, "c": null, "d": true, "e": false, "f": 31, "g": 15,
               "h": -12, "i": 1500.0, "j": ".inf", "k": ".NaN", "l": "5", "m": "true", "n": "7\n",
               "o": "99999999999999999999999", "p": "1.2.3.4", "q": "5", "r": null, "s": 7})
    );
}

#[test]
fn is_null_variants() {
    let t = "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: 'null'\ng: nil\n";
    let d = doc(t);
    for k in ["a", "b", "c", "d", "e"] {
        assert!(d.root.get(k).unwrap().is_null(), "{k}");
    }
    assert!(!d.root.get("f").unwrap().is_null());
    assert!(!d.root.get("g").unwrap().is_null());
}

#[test]
fn aliases_are_read_through() {
    let t = "base: &b\n  x: 1\ncopy: *b\nlist: [*b, 2]\n";
    let d = doc(t);
    let copy = d.root.get("copy").unwrap();
    assert!(matches!(copy.kind, NodeKind::Alias(_)));
    assert_eq!(src(t, copy), "*b");
    assert_eq!(copy.get("x").and_then(|n| n.as_str()), Some("1"));
    assert_eq!(d.root.to_json()["list"], json!([{"x": 1}, 2]));
}

#[test]
fn alias_bomb_is_refused() {
    let mut t = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = i - 1;
        t.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let e = parse(&t).unwrap_err();
    assert!(e.message.contains("more than 1000000 nodes"), "{e}");
    assert!(e.message.contains("--max-alias-nodes"), "{e}");
    assert_eq!((e.line, e.column), (1, 1), "{e}");
    // About 123,000 nodes expanded: under the default floor, over a floor of 1,000.
    let mut small = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..5 {
        let p = i - 1;
        small.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    assert!(parse(&small).is_ok());
    assert!(crate::yaml::parse_limited(&small, 1_000).is_err());
}

#[test]
fn nesting_past_the_limit_is_refused_in_flow_and_block() {
    let depth = crate::limits::MAX_NESTING;
    let ok = format!("k: {}{}\n", "[".repeat(depth - 1), "]".repeat(depth - 1));
    assert!(parse(&ok).is_ok());
    let flow = format!("k: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let mut block = String::new();
    for i in 0..10_000 {
        block.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
    }
    for t in [flow, block] {
        let e = parse(&t).unwrap_err();
        assert!(e.message.contains("nested deeper than 255 levels"), "{e}");
    }
}

#[test]
fn flow_collections_span_bracket_to_bracket() {
    let t = "m: {a: 1, b: [x, y]}  # c\ne: {}\n";
    let d = doc(t);
    let m = d.root.get("m").unwrap();
    assert_eq!(src(t, m), "{a: 1, b: [x, y]}");
    assert!(m.as_map().unwrap().flow);
    assert_eq!(src(t, m.get("b").unwrap()), "[x, y]");
    assert!(d.root.get("e").unwrap().as_map().unwrap().is_empty());
}

/// `as_json_str` answers only where `to_json` reads the scalar as that very string.
#[test]
fn as_json_str_agrees_with_to_json() {
    let scalars = [
        "node-1",
        "'quoted'",
        "\"dq\"",
        "''",
        "~",
        "null",
        "",
        "true",
        "False",
        "12",
        "-3",
        "0x1F",
        "0o17",
        "1.5",
        "1e3",
        ".inf",
        "-.Inf",
        ".nan",
        "99999999999999999999",
        "+7",
        "!!str 12",
        "!!str true",
        "!!int 12",
        "!custom text",
        "!!null ~",
        "|\n  block\n",
        ">-\n  folded\n",
        "1.2.3",
        "10.0.0.1",
        "r1",
        "0x",
        "0o8",
        "'${HOST}'",
        "a b",
    ];
    let mut answered = 0;
    for s in scalars {
        let text = format!("k: {s}\n");
        let d = doc(&text);
        let node = d.root.get("k").expect("a value");
        match node.as_json_str() {
            Some(t) => {
                answered += 1;
                assert_eq!(node.to_json(), json!(t), "{s:?}");
            }
            None => assert!(
                !node.to_json().is_string()
                    || node.as_scalar().is_some_and(|x| x.tag.is_some())
                    || matches!(s, ".inf" | "-.Inf" | ".nan" | "99999999999999999999"),
                "{s:?} reads as {:?}",
                node.to_json()
            ),
        }
    }
    assert!(answered >= 14, "{answered}");
    let d = doc("k: [a]\nm: {a: 1}\n");
    assert_eq!(d.root.get("k").and_then(|n| n.as_json_str()), None);
    assert_eq!(d.root.get("m").and_then(|n| n.as_json_str()), None);
}
