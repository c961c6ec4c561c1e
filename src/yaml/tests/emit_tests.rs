//! `to_yaml_block`, the emitter's renderer of JSON values as block YAML.

use serde_json::json;

use super::doc;
use crate::yaml::to_yaml_block;

#[test]
fn renders_clean_block_yaml() {
    let v = json!({
        "results": [
            {"message": "ok", "severity": "info"},
            {"message": "x: y # not a comment", "tags": {"a": "1"}, "list": [1, [2, 3], {}], "e": []}
        ],
        "n": null, "b": true, "f": 1.5
    });
    let out = to_yaml_block(&v);
    assert!(
        out.starts_with(
            "results:\n  - message: ok\n    severity: info\n  - message: \"x: y # not a comment\"\n"
        ),
        "{out}"
    );
    assert!(out.ends_with('\n'));
}

#[test]
fn render_round_trips_tricky_strings() {
    let strings = [
        "",
        " lead",
        "trail ",
        "true",
        "False",
        "null",
        "~",
        "12",
        "0x1F",
        "1e3",
        ".inf",
        "-",
        "- a",
        "-1",
        "a\nb",
        "tab\there",
        "quote\"s",
        "it's",
        "#x",
        "a #b",
        "a: b",
        "a:",
        "[x]",
        "{y}",
        "a,b",
        "*alias",
        "&anchor",
        "!tag",
        "|",
        ">",
        "%",
        "@",
        "`",
        "---",
        "...",
        "é ü",
        "\u{1}",
        "back\\slash",
        "\u{feff}bom",
        "\u{2028}",
        "?",
        "? x",
        ": x",
        "plain words",
    ];
    let mut obj = serde_json::Map::new();
    for (i, s) in strings.iter().enumerate() {
        obj.insert(s.to_string(), json!(s));
        obj.insert(format!("k{i}"), json!([s, {"in": s}]));
    }
    let v = serde_json::Value::Object(obj);
    let out = to_yaml_block(&v);
    assert_eq!(doc(&out).root.to_json(), v, "{out}");
}

#[test]
fn render_scalars_and_empty_collections_at_top() {
    assert_eq!(to_yaml_block(&json!("x")), "x\n");
    assert_eq!(to_yaml_block(&json!({})), "{}\n");
    assert_eq!(to_yaml_block(&json!([[1, 2], []])), "- - 1\n  - 2\n- []\n");
    let v = json!([[1, 2], [], {"a": [{"b": 1}]}]);
    assert_eq!(doc(&to_yaml_block(&v)).root.to_json(), v);
}

/// New entries are written straight into their block text, and their flow form is made only
/// when asked for: both are the texts of a mapping of double-quoted strings, and read back as
/// the entries.
#[test]
fn new_entries_are_written_as_a_mapping_of_strings() {
    use crate::yaml::emit::NewValue;
    let entries: Vec<(String, String)> = [
        ("h1-prov", "10.0.0.1"),
        ("true", "2001:db8::1"),
        ("a: b", "with \"quotes\"\nand a line"),
        ("", "\u{7}"),
        ("- dash", "#"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let pairs: Vec<(String, NewValue)> = entries
        .iter()
        .map(|(k, v)| (k.clone(), NewValue::string(v)))
        .collect();
    for n in [0, 1, entries.len()] {
        let (new, old) = (
            NewValue::entries(entries[..n].iter()),
            NewValue::map(&pairs[..n], 2),
        );
        assert_eq!(new.block, old.block);
        assert_eq!(new.flow(), old.flow());
        assert!(new.inline.is_none());
        let meant = serde_json::Value::Object(
            entries[..n]
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect(),
        );
        if n > 0 {
            assert_eq!(doc(&new.block).root.to_json(), meant, "{}", new.block);
        }
        assert_eq!(doc(&new.flow()).root.to_json(), meant, "{}", new.flow());
    }
    assert_eq!(
        NewValue::entries(entries[..2].iter()).flow(),
        "{h1-prov: \"10.0.0.1\", \"true\": \"2001:db8::1\"}"
    );
}
