//! `Node::from_json` builds the tree `parse` builds from the value's JSON text.

use proptest::prelude::*;

use super::{Node, parse};

fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        // strings that would mean something else unquoted, and keys of every kind
        prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            Just("0644".to_string()),
            Just("<<".to_string()),
            Just(String::new()),
            "[ -~é\n\t]{0,6}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 10, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..10).prop_map(Value::Array),
            prop::collection::vec(("[a-z<\". ]{0,4}", inner), 0..12)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(400))]
    #[test]
    fn from_json_reads_as_the_parsed_json_text(value in json()) {
        let built = Node::from_json(&value);
        let docs = parse(&value.to_string()).expect("JSON text is YAML");
        let parsed = &docs[0].root;
        prop_assert_eq!(built.to_json(), parsed.to_json());
        prop_assert_eq!(built.to_json(), value.clone());
        // every key is found as the parsed tree finds it (large mappings through their index)
        if let (Some(b), Some(p)) = (built.as_map(), parsed.as_map()) {
            for (k, _) in &p.entries {
                let key = k.as_scalar().map(|s| s.value.to_string()).unwrap_or_default();
                prop_assert_eq!(b.get(&key).map(Node::to_json), p.get(&key).map(Node::to_json));
            }
        }
    }
}
