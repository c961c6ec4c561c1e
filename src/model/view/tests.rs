//! [`View`] reads as [`Node::to_json`]: the JSON value rebuilt from a view's answers alone is
//! the node's, and every accessor agrees with `serde_json::Value`'s on it, for every node of
//! every example and test file, a table of tricky spellings and generated documents.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::View;
use crate::model::json;
use crate::yaml::{Node, NodeKind};

/// The JSON value read through the view's API only (`as_seq`, `entries`, `as_str`, `as_bool`,
/// the numbers, `is_null`); `Err` names what no accessor answered or a key given twice.
fn rebuild(v: View<'_>) -> Result<Value, String> {
    if let Some(items) = v.as_seq() {
        return items
            .map(rebuild)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    if let Some(entries) = v.entries() {
        let mut obj = Map::new();
        for (k, x) in entries {
            if obj.insert(k.to_string(), rebuild(x)?).is_some() {
                return Err(format!("key {k:?} given twice"));
            }
        }
        return Ok(Value::Object(obj));
    }
    if let Some(s) = v.as_str() {
        return Ok(Value::String(s.to_owned()));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(u) = v.as_u64() {
        return Ok(Value::from(u));
    }
    if let Some(i) = v.as_i64() {
        return Ok(Value::from(i));
    }
    if let Some(f) = v.as_f64() {
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("the float {f} is no JSON number"));
    }
    if v.is_null() {
        return Ok(Value::Null);
    }
    Err(format!("nothing reads {:?}", v.node().kind))
}

/// Every accessor of the view of `node` agrees with the JSON value's (see the module).
fn check_node(node: &Node, what: &str) -> Result<(), String> {
    let json = node.to_json();
    let v = View::new(node);
    let fail = |msg: String| Err(format!("{what}: {msg}\nnode: {node:?}\njson: {json}"));
    let rebuilt = rebuild(v);
    if rebuilt.as_ref() != Ok(&json) {
        return fail(format!("rebuilt {rebuilt:?}"));
    }
    let written = serde_json::to_string(&v).map_err(|e| e.to_string());
    if written != Ok(json.to_string()) {
        return fail(format!("serialized {written:?}"));
    }
    let answers = [
        ("is_null", v.is_null() == json.is_null()),
        ("is_string", v.is_string() == json.is_string()),
        ("is_number", v.is_number() == json.is_number()),
        ("is_array", v.is_array() == json.is_array()),
        ("is_object", v.is_object() == json.is_object()),
        ("as_str", v.as_str() == json.as_str()),
        ("as_bool", v.as_bool() == json.as_bool()),
        ("as_u64", v.as_u64() == json.as_u64()),
        ("as_i64", v.as_i64() == json.as_i64()),
        ("as_f64", v.as_f64() == json.as_f64()),
        ("scalar_text", v.scalar_text() == json::scalar_text(&json)),
        ("kind_of", v.kind_of() == json::kind_of(&json)),
        ("string_map", v.string_map() == json::string_map(&json, &[])),
        (
            "is_empty",
            v.is_empty()
                == match &json {
                    Value::Array(a) => Some(a.is_empty()),
                    Value::Object(o) => Some(o.is_empty()),
                    _ => None,
                },
        ),
        (
            "len",
            v.len()
                == match &json {
                    Value::Array(a) => Some(a.len()),
                    Value::Object(o) => Some(o.len()),
                    _ => None,
                },
        ),
    ];
    if let Some((name, _)) = answers.iter().find(|(_, same)| !same) {
        return fail(format!("{name} differs"));
    }
    if let Value::Array(items) = &json {
        for (i, item) in items.iter().enumerate() {
            if v.get_index(i).map(rebuild) != Some(Ok(item.clone())) {
                return fail(format!("get_index({i}) differs"));
            }
        }
        if v.get_index(items.len()).is_some() {
            return fail("get_index past the end".into());
        }
    }
    if let Value::Object(obj) = &json {
        for (k, value) in obj {
            if v.get(k).map(rebuild) != Some(Ok(value.clone())) {
                return fail(format!("get({k:?}) differs"));
            }
            if v.at(&[k.as_str()]).map(rebuild) != Some(Ok(value.clone())) {
                return fail(format!("at([{k:?}]) differs"));
            }
        }
    }
    // keys the object lacks (collection-key texts and "null" take the exact path)
    for k in ["no-such-key", "null", "[]", "{}", "<<", ""] {
        if v.get(k).is_some() != json.get(k).is_some() {
            return fail(format!(
                "get({k:?}) found where JSON did not (or not where it did)"
            ));
        }
    }
    Ok(())
}

/// [`check_node`] on `node` and every node written under it (alias targets are checked where
/// they are written).
fn check_all(node: &Node, what: &str) -> Result<usize, String> {
    let mut count = 1;
    check_node(node, what)?;
    match &node.kind {
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                count += check_all(k, what)? + check_all(v, what)?;
            }
        }
        NodeKind::Seq(s) => {
            for item in &s.items {
                count += check_all(item, what)?;
            }
        }
        NodeKind::Scalar(_) | NodeKind::Alias(_) | NodeKind::Skipped(_) => {}
    }
    Ok(count)
}

/// Checks every node of every document of `text`, parsed whole and parsed as the function
/// reads its input (fields it never reads not built); `Ok(None)` when it does not parse.
fn check_text(text: &str, what: &str) -> Result<Option<usize>, String> {
    let Ok(docs) = crate::yaml::parse(text) else {
        return Ok(None);
    };
    let mut count = 0;
    for d in &docs {
        count += check_all(&d.root, what)?;
    }
    let skipped = crate::yaml::parse_items(
        text,
        &crate::krm::read::SKIP,
        crate::limits::DEFAULT_MAX_ALIAS_NODES,
    );
    for d in skipped.iter().flatten() {
        count += check_all(&d.root, &format!("{what} (as read)"))?;
    }
    Ok(Some(count))
}

#[test]
fn every_node_of_every_example_and_test_file_reads_as_its_json() {
    let (mut files, mut nodes) = (0, 0);
    for dir in ["examples", "tests/data"] {
        for path in crate::model::yaml_files(dir) {
            let text = std::fs::read_to_string(&path).expect("readable");
            let what = path.display().to_string();
            if let Some(n) = check_text(&text, &what).unwrap_or_else(|e| panic!("{e}")) {
                files += 1;
                nodes += n;
            }
        }
    }
    assert!(
        files > 100 && nodes > 10_000,
        "{files} files, {nodes} nodes"
    );
}

/// Spellings where the core schema, aliases, merge keys or key texts decide what is read.
const TRICKY: &[&str] = &[
    // scalars: core schema, quoting, tags
    "a: 5\nb: '5'\nc: \"5\"\nd: !!str 5\ne: !!int \"5\"\nf: !custom x\ng: !!null x\nh: !custom 5",
    "a: 0x1F\nb: 0o17\nc: 0x\nd: 0xG\ne: 0o8\nf: 0xFFFFFFFFFFFFFFFFF\ng: +12\nh: -0",
    "a: .inf\nb: -.Inf\nc: .nan\nd: .NaN\ne: 1e999\nf: 1.5\ng: .5\nh: 1.\ni: 1e3\nj: -2.5E-3",
    "a: 18446744073709551615\nb: 18446744073709551616\n\
     c: -9223372036854775808\nd: -9223372036854775809",
    "a: ~\nb:\nc: null\nd: Null\ne: NULL\nf: 'null'\ng: !!str\nh: !!null ''\ni: !custom ~",
    "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: yes\nh: 'true'\ni: !!bool true",
    "a: |\n  lit 5\nb: >-\n  folded\n  text\nc: |+\n  kept\n\nd: !!float 3\ne: !!str ~",
    "a: !!int '0x10'\nb: !!float '.inf'\nc: !!str 'x'\nd: !custom 'q'\ne: !!binary aGk=",
    // keys: null, empty, numbers, quoted, collections
    "~: a\n'': b\n5: c\ntrue: d\n'<<': e\n\"null\x20\": f",
    "? [a, b]\n: seq\n? {x: 1}\n: map\n? [1, {y: ~}]\n: nested\nplain: p",
    "? [a]\n: first\n'[\"a\"]': second",
    "? []\n: empty seq key\n? {}\n: empty map key\nnull: word",
    "? !!null\n: null key\nnull: hm",
    // anchors and aliases
    "base: &b {x: 1, y: [a, b]}\nuse: *b\nlist: [*b, *b]\nscalar: &s 7\nagain: *s",
    "a: &a\n  - &i 1\n  - *i\nb: *a\nc: {*i : v}",
    "? &k key\n: one\nother: *k",
    // merge keys
    "base: &b\n  x: 1\n  y: 2\nitem:\n  <<: *b\n  y: 3",
    "base: &b\n  x: 1\n  y: 2\nitem:\n  y: 3\n  <<: *b\n  z: 4",
    "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2, w: 2}\nitem:\n  w: 0\n  <<: [*a, *b]\n  x: 9",
    "a: &a {x: 1}\nb: &b\n  <<: *a\n  y: 2\nitem:\n  <<: *b\n  z: 3",
    "item:\n  <<: {x: 1, y: {deep: true}}\n  y: over",
    "item:\n  <<: [{x: 1}, {x: 2, y: 2}]\n  !!merge <<: ignored",
    "a: &a {x: 1, y: 2}\nb: &m\n  <<: *a\nitem:\n  <<: [*m, {y: 5, q: 6}]\n  z: 0",
    "item: {<<: &a {x: 1}, y: 2}\nagain: *a",
    "item:\n  !!merge <<: {x: 1}\n  '<<': quoted\n  x: own",
    "a: &a {? [k] : v, '[\"k\"]': w}\nitem:\n  <<: *a\n  ? [k]\n  : own",
    "a: &a {x: 1}\nitem:\n  <<: *a\n  ? [x]\n  : own\n  null: 2\n  ? !!null\n  : 3",
    "seq: &s [1, 2]\nm: &m {s: *s}\nitem:\n  <<: *m\n  t: *s",
    // documents and roots
    "--- 5\n--- 'x'\n--- ~\n---\n--- [a, {b: c}]\n--- !custom {a: 1}",
    "- a\n- - b\n  - c\n-\n- {}\n- []",
];

#[test]
fn tricky_spellings_read_as_their_json() {
    let mut parsed = 0;
    for (i, text) in TRICKY.iter().enumerate() {
        if check_text(text, &format!("TRICKY[{i}] {text:?}"))
            .unwrap_or_else(|e| panic!("{e}"))
            .is_some()
        {
            parsed += 1;
        }
    }
    // all but the one with two merge keys (an error) parse
    assert_eq!(parsed, TRICKY.len() - 1);
}

#[test]
fn merge_keys_read_in_the_order_and_precedence_of_the_json_object() {
    let text =
        "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2, w: 2}\nitem:\n  w: 0\n  <<: [*a, *b]\n  x: 9\n";
    let docs = crate::yaml::parse(text).expect("parses");
    let item = View::new(&docs[0].root).get("item").expect("item");
    let entries: Vec<(String, Option<u64>)> = item
        .entries()
        .expect("mapping")
        .map(|(k, v)| (k.into(), v.as_u64()))
        .collect();
    let expected = [("w", 0), ("y", 1), ("z", 2), ("x", 9)];
    assert_eq!(
        entries,
        expected.map(|(k, n)| (k.to_string(), Some(n))),
        "own keys in place, merged ones at the `<<`, the earlier source winning"
    );
    let read = |k: &str| item.get(k).and_then(View::as_u64);
    assert_eq!(
        (read("w"), read("x"), read("y"), read("z")),
        (Some(0), Some(9), Some(1), Some(2))
    );
    assert_eq!(item.at(&["<<"]).map(|v| v.is_null()), None);
}

#[test]
fn strings_are_borrowed_from_the_tree() {
    let docs = crate::yaml::parse("a: x\nb: !custom 5x\n").expect("parses");
    let root = View::new(&docs[0].root);
    for key in ["a", "b"] {
        let node = docs[0]
            .root
            .get(key)
            .and_then(Node::as_scalar)
            .expect("scalar");
        let s = root.get(key).and_then(View::as_str).expect("string");
        assert!(std::ptr::eq(s, &*node.value), "{key}");
    }
}

/// A document with anchors, merge keys and tricky scalars: `s`, `base` and `other` anchored, `item`
/// merging one, both or an inline mapping, with its own keys around the `<<`.
fn merge_doc() -> impl Strategy<Value = String> {
    let scalar = prop::sample::select(vec![
        "1",
        "-2",
        "0x1F",
        "0o17",
        "1.5",
        ".inf",
        ".nan",
        "99999999999999999999",
        "~",
        "",
        "null",
        "True",
        "false",
        "'5'",
        "\"x y\"",
        "!!str 5",
        "!!int \"7\"",
        "!custom x",
        "!!null y",
        "[1, a]",
        "{p: 1}",
        "*s",
        "plain text",
        "|\n    lit",
    ]);
    let entries = || prop::collection::vec(("[a-e]", scalar.clone()), 0..4);
    // one string per entry (a block scalar is two lines), each key once
    let block = |entries: &[(String, &str)]| -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        entries
            .iter()
            .filter(|(k, _)| seen.insert(k.clone()))
            .map(|(k, v)| format!("  {k}: {v}\n"))
            .collect()
    };
    (entries(), entries(), entries(), 0..4usize, 0..4usize).prop_map(
        move |(base, other, own, merge, at)| {
            let mut text = String::from("s: &s [x, 7]\nbase: &b\n  base: yes\n");
            text.push_str(&block(&base).concat());
            text.push_str("other: &o\n  other: yes\n");
            text.push_str(&block(&other).concat());
            text.push_str("item:\n");
            let merge = match merge {
                0 => "*b",
                1 => "[*b, *o]",
                2 => "[*o, *b]",
                _ => "{a: inline, e: 5}",
            };
            let own = block(&own);
            let at = at.min(own.len());
            text.push_str(&own[..at].concat());
            text.push_str(&format!("  <<: {merge}\n"));
            text.push_str(&own[at..].concat());
            text
        },
    )
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(256))]

    /// Documents of merge keys and tricky scalars (each parses).
    #[test]
    fn generated_merges_read_as_their_json(text in merge_doc()) {
        let checked = check_text(&text, &text);
        prop_assert!(matches!(checked, Ok(Some(_))), "{checked:?}\n{text}");
    }

    /// The yaml layer's generated documents (nested block and flow collections, all styles of
    /// scalar, each parses).
    #[test]
    fn generated_documents_read_as_their_json(text in crate::yaml::tests::prop_tests::g_doc()) {
        let checked = check_text(&text, &text);
        prop_assert!(matches!(checked, Ok(Some(_))), "{checked:?}\n{text}");
    }

    /// The yaml layer's random lines (anchors, tags, several documents; some do not parse).
    #[test]
    fn random_lines_read_as_their_json(text in crate::yaml::tests::prop_tests::yamlish()) {
        let checked = check_text(&text, &text);
        prop_assert!(checked.is_ok(), "{checked:?}");
    }
}
