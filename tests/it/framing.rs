//! How items are found and written back (SPEC §1): `v1` `List`s (what `kubectl get -o yaml`
//! prints) contribute their items, nested Lists too, in streams and in ResourceLists; and a
//! change the edit layer cannot write, or the safety net refuses, is an error result with
//! every item returned as it came in.

use crate::common;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, dump, host, indent_item, json_docs,
    pool, range, resource_list, run_text,
};
use serde_json::Value;

/// A `v1` `List` holding `items`, as `kubectl get -o yaml` prints it.
fn list(items: &[String]) -> String {
    let mut s = String::from("apiVersion: v1\nitems:\n");
    for item in items {
        s.push_str(&indent_item(item));
    }
    s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    s
}

/// The entries of pool `name` found anywhere in a JSON value.
fn entries_in(value: &Value, name: &str) -> Option<serde_json::Map<String, Value>> {
    if value["kind"] == "IPPool" && value["metadata"]["name"] == name {
        return value["spec"]["preAllocations"].as_object().cloned();
    }
    value["items"]
        .as_array()?
        .iter()
        .find_map(|i| entries_in(i, name))
}

fn package() -> Vec<String> {
    vec![
        host("node-1", "m3").yaml(),
        host("node-2", "m3").yaml(),
        pool("prov", "m3")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
    ]
}

#[test]
fn items_of_a_list_are_read_and_edited_in_place() {
    let input = list(&package());
    let o = run_text(&input, None);
    assert_no_errors(&o);
    let docs = json_docs(&o.outputs[0]);
    assert_eq!(docs.len(), 1, "still one List document");
    assert_eq!(docs[0]["kind"], "List");
    assert_eq!(docs[0]["items"].as_array().map(Vec::len), Some(3));
    let entries = entries_in(&docs[0], "prov").expect("the pool is filled");
    assert_eq!(entries["node-1-prov"], "10.0.0.10");
    assert_eq!(entries["node-2-prov"], "10.0.0.11");
    // Only the pool's lines change: the input's lines all stay, in order.
    assert!(common::is_line_subsequence(&input, &o.outputs[0]));
}

#[test]
fn nested_lists_in_a_resource_list_are_read_and_edited_in_place() {
    let hosts = list(&[host("node-1", "m3").yaml()]);
    let inner = list(&[pool("prov", "m3")
        .range(range("10.0.0.10", "10.0.0.20"))
        .yaml()]);
    let outer = list(&[inner, host("node-2", "m3").yaml()]);
    let input = resource_list(&[hosts, outer], None);
    let o = run_text(&input, None);
    assert_no_errors(&o);
    let rl = &json_docs(&o.outputs[0])[0];
    let entries = entries_in(&rl["items"][1], "prov").expect("the nested pool is filled");
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(entries.contains_key("node-1-prov") && entries.contains_key("node-2-prov"));
}

#[test]
fn lists_in_a_stream_pair_with_plain_documents() {
    let input = [
        list(&[host("node-1", "m3").yaml()]),
        pool("prov", "m3")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
    ]
    .join("---\n");
    let o = run_text(&input, None);
    assert_no_errors(&o);
    let docs = json_docs(&o.outputs[0]);
    assert_eq!(
        entries_in(&docs[1], "prov").map(|e| e.len()),
        Some(1),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_list_whose_items_are_not_a_list_is_an_error() {
    let input = "apiVersion: v1\nkind: List\nitems: {a: 1}\n";
    let o = run_text(input, None);
    assert_transactional(&o, &[input]);
    assert_error(
        &o,
        Want {
            path: Some("items"),
            says: &["List.items is not a list"],
            ..Want::default()
        },
    );
}

#[test]
fn a_list_item_that_is_not_an_object_is_an_error() {
    let input = list(&["just text".to_string(), host("node-1", "m3").yaml()]);
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    assert_error(
        &o,
        Want {
            path: Some("items[0]"),
            says: &["is not a Kubernetes object"],
            ..Want::default()
        },
    );
}

#[test]
fn a_kind_list_of_another_api_version_is_an_object_not_a_list() {
    // Only `v1` `List` is a list; anything else called List is left alone like any object.
    let input = format!(
        "apiVersion: example.com/v1\nkind: List\nitems:\n{}",
        indent_item(&host("node-1", "m3").yaml())
    );
    let o = run_text(&input, None);
    assert_no_errors(&o);
    assert_eq!(o.outputs[0], input);
}

#[test]
fn an_edit_through_an_alias_is_an_error_on_the_pool_and_nothing_changes() {
    let input = [
        host("node-1", "m3").yaml(),
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: prov\n  namespace: m3\n  annotations: &empty {}\n\
         spec:\n  pools:\n  - start: 10.0.0.10\n    end: 10.0.0.20\n  \
         namePrefix: prov\n  preAllocations: *empty\n"
            .to_string(),
    ]
    .join("---\n");
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "prov")),
            path: Some("spec.preAllocations"),
            says: &["alias", "nothing was changed"],
        },
    );
}

#[test]
fn in_a_resource_list_a_refused_edit_is_a_result_and_the_items_come_back() {
    let pool_text = "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: prov\n  namespace: m3\n  annotations: &empty {}\n\
         spec:\n  pools:\n  - start: 10.0.0.10\n    end: 10.0.0.20\n  \
         namePrefix: prov\n  preAllocations: *empty\n";
    let input = resource_list(&[host("node-1", "m3").yaml(), pool_text.to_string()], None);
    let o = run_text(&input, None);
    assert!(o.has_errors(), "{}", dump(&o));
    let rl = &json_docs(&o.outputs[0])[0];
    let before = &json_docs(&input)[0];
    assert_eq!(rl["items"], before["items"], "every item as it came in");
    let results = rl["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["severity"] == "error"
            && r["resourceRef"]["name"] == "prov"
            && r["message"].as_str().is_some_and(|m| m.contains("alias"))),
        "{results:?}"
    );
}
