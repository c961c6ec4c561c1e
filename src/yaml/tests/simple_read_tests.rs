//! The lean reader answers only when it reads exactly as the full parser does.

use serde_json::json;

use crate::yaml::{parse, read_simple};

/// What the full parser reads `text` as, when it is one document.
fn full(text: &str) -> Option<serde_json::Value> {
    match parse(text).ok()?.as_slice() {
        [doc] => Some(doc.root.to_json()),
        _ => None,
    }
}

#[test]
fn reads_the_plain_subset_exactly_as_the_full_parser() {
    let texts = [
        "a: 1\nb: [x, 'y', \"z\"]\nc: {d: ~, e: }\n",
        "# c\nspec:\n  preAllocations:\n    node-1-pool: \"10.0.0.2\"\n    node-2-pool: 10.0.0.3 # x\n",
        "k:\n- a\n-\n- - nested\n- {}\n- []\n",
        "k: |\n  lit\n   more\n\nj: >-\n  folded\n  text\n",
        "a: 1\r\nb:\r\n  - 0x1F\r\n  - 1e3\r\n  - .inf\r\n  - 0o17\r\n  - TRUE\r\n",
        "a: 1\rb: 2\r",
        "? complex\n: value\n",
        "'<<': quoted is a plain key\n",
        "\u{feff}a: bom\n",
        "--- \na: explicit\n...\n",
        "%YAML 1.2\n---\na: directive\n",
        "'1': one\n2: two\nnull: n\n",
        "- a\n- b\n",
        "plain scalar document\n",
    ];
    for text in texts {
        let lean = read_simple(text);
        assert!(lean.is_some(), "the lean reader gives up on {text:?}");
        assert_eq!(lean, full(text), "{text:?}");
    }
}

#[test]
fn gives_up_on_everything_outside_the_plain_subset() {
    let texts = [
        "a: &x 1\nb: *x\n",
        "base: &b {g: 1}\nm:\n  <<: *b\n  h: 2\n",
        "m:\n  <<: {g: 1}\n",
        "a: !!str 1\n",
        "a: !local x\n",
        "? [a, b]\n: v\n",
        "? {a: 1}\n: v\n",
        ": empty key\n",
        "a: 1\na: 2\n",
        "a: 1\n---\nb: 2\n",
        "",
        "# only a comment\n",
        "a: [unclosed\n",
        "a: b: c\n",
    ];
    for text in texts {
        assert_eq!(read_simple(text), None, "{text:?}");
    }
}

#[test]
fn an_empty_value_reads_as_null_and_a_tilde_key_as_its_text() {
    assert_eq!(
        read_simple("a:\nb: ~\n~: c\n"),
        Some(json!({"a": null, "b": null, "~": "c"}))
    );
    assert_eq!(read_simple("a:\nb: ~\n~: c\n"), full("a:\nb: ~\n~: c\n"));
}

/// The comparing reader says yes exactly when the lean reader reads the value meant, in any
/// order of a mapping's keys, and no for a value that differs anywhere or for a text it gives
/// up on.
#[test]
fn reads_simply_as_says_yes_exactly_when_read_simple_reads_the_value() {
    use crate::yaml::reads_simply_as;
    let texts = [
        "a: 1\nb: [x, 'y', \"z\"]\nc: {d: ~, e: }\n",
        "spec:\n  preAllocations:\n    node-1-pool: \"10.0.0.2\"\n    node-2-pool: 10.0.0.3\n",
        "k:\n- a\n-\n- - nested\n- {}\n- []\n",
        "a: 1\r\nb:\r\n  - 0x1F\r\n  - 1e3\r\n  - .inf\r\n  - 0o17\r\n  - TRUE\r\n",
        "'1': one\n2: two\nnull: n\n",
        "plain scalar document\n",
        "n: 12\nf: 1.50\ns: '12'\nt: \"true\"\nb: false\n",
    ];
    for text in texts {
        let meant = full(text).expect("one document");
        assert!(reads_simply_as(text, &meant), "{text:?}");
        // keys in another order: the same mapping
        if let serde_json::Value::Object(m) = &meant {
            let reversed: serde_json::Map<String, serde_json::Value> = m
                .iter()
                .rev()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            assert!(
                reads_simply_as(text, &serde_json::Value::Object(reversed)),
                "{text:?}"
            );
        }
    }
    let text = "a: 1\nb: [x, 'y']\nc: {d: ~}\ne: '12'\n";
    for other in [
        json!({"a": 1, "b": ["x", "y"], "c": {"d": null}}),
        json!({"a": 1, "b": ["x", "y"], "c": {"d": null}, "e": "12", "f": 1}),
        json!({"a": 1, "b": ["x"], "c": {"d": null}, "e": "12"}),
        json!({"a": 1, "b": ["x", "y", "z"], "c": {"d": null}, "e": "12"}),
        json!({"a": "1", "b": ["x", "y"], "c": {"d": null}, "e": "12"}),
        json!({"a": 1, "b": ["x", "y"], "c": {"d": null}, "e": 12}),
        json!({"a": 1, "b": ["x", "y"], "c": {"d": ""}, "e": "12"}),
        json!({"a": 1, "b": ["x", "y"], "c": [null], "e": "12"}),
        json!([1]),
        json!(null),
    ] {
        assert!(!reads_simply_as(text, &other), "{other}");
    }
    assert!(reads_simply_as(
        text,
        &json!({"e": "12", "c": {"d": null}, "b": ["x", "y"], "a": 1})
    ));
    // a duplicate key, in or out of the meant order, is no reading
    assert!(!reads_simply_as("a: 1\na: 1\n", &json!({"a": 1})));
    assert!(!reads_simply_as(
        "a: 1\nb: 2\na: 1\n",
        &json!({"a": 1, "b": 2})
    ));
    assert!(!reads_simply_as(
        "b: 2\na: 1\nb: 2\n",
        &json!({"a": 1, "b": 2})
    ));
    // what the lean reader gives up on, the comparing one does too
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: 1\n---\nb: 2\n",
        "",
        "a: [x\n",
    ] {
        let meant = full(text).unwrap_or(json!({"a": 1, "b": 1}));
        assert!(!reads_simply_as(text, &meant), "{text:?}");
    }
}
