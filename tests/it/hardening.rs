//! Regression tests for the ways issue 5 ("Harden the core") found the function could write a
//! broken or wrong file, each named after the bug it holds down, run through the whole
//! function as a user would meet them. The YAML layer's own regression tests (in
//! `src/yaml/tests/`) cover the same forms edit by edit.

use crate::common;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, dump, entries, host, json_docs,
    run_text,
};
use serde_json::{Value, json};

/// The ConfigMap `kpt fn eval --exec ipreuse -- prune=true` sends.
fn prune() -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": {"prune": "true"}})
}

const HOST_NEW: &str =
    "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: new, namespace: ns}\n";

/// A pool `pool` of 10.0.0.1-10.0.0.9 in `ns`, with `pre` written as the value of
/// `preAllocations:` (block text starting on the next line, or flow text on the same line).
fn pool_with(pre: &str) -> String {
    format!(
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {{name: pool, namespace: ns}}\nspec:\n  namePrefix: pool\n  pools: [{{start: 10.0.0.1, end: 10.0.0.9}}]\n  preAllocations:{pre}"
    )
}

/// The entries of `ns/pool` in a stream output, in written order.
fn pool_entries(text: &str) -> Vec<(String, String)> {
    entries(text)
        .remove(&("ns".to_string(), "pool".to_string()))
        .unwrap_or_else(|| panic!("no pool in\n{text}"))
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn prune_of_the_only_entry_with_a_new_host_wrote_invalid_yaml() {
    // The exact input of the issue: `{}` was left where the entry was, and the new entry
    // appended after it.
    let input = format!(
        "{HOST_NEW}---\n{}",
        pool_with("\n    old-pool: \"10.0.0.2\"\n")
    );
    let o = run_text(&input, Some(&prune()));
    assert_no_errors(&o);
    // Pruned in this run, 10.0.0.2 stays taken; `new` gets the first free address.
    assert_eq!(
        pool_entries(&o.outputs[0]),
        pairs(&[("new-pool", "10.0.0.1")])
    );
    assert!(!o.outputs[0].contains("{}"), "{}", o.outputs[0]);
}

#[test]
fn prune_of_two_stale_entries_was_an_overlap_error() {
    let input = format!(
        "{HOST_NEW}---\n{}",
        pool_with(
            "\n    old-pool: \"10.0.0.2\"  # first\n    gone-pool: \"10.0.0.3\"\n    new-pool: \"10.0.0.4\"\n    older-pool: \"10.0.0.5\"\n"
        )
    );
    let o = run_text(&input, Some(&prune()));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o.outputs[0]),
        pairs(&[("new-pool", "10.0.0.4")])
    );
}

#[test]
fn prune_down_to_an_empty_map_leaves_an_empty_map() {
    let input = pool_with("\n    old-pool: \"10.0.0.2\"\n    gone-pool: \"10.0.0.3\"\n");
    let o = run_text(&input, Some(&prune()));
    assert_no_errors(&o);
    let doc = &json_docs(&o.outputs[0])[0];
    assert_eq!(doc["spec"]["preAllocations"], json!({}), "{}", o.outputs[0]);
    assert!(
        o.outputs[0].contains("  preAllocations: {}\n"),
        "{}",
        o.outputs[0]
    );
}

#[test]
fn prune_in_a_flow_map_together_with_an_addition() {
    let input = format!(
        "{HOST_NEW}---\n{}",
        pool_with(" {old-pool: \"10.0.0.2\", keep-me: \"10.0.0.3\", gone-pool: \"10.0.0.4\"}\n")
    );
    let o = run_text(&input, Some(&prune()));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o.outputs[0]),
        pairs(&[("keep-me", "10.0.0.3"), ("new-pool", "10.0.0.1")])
    );
}

#[test]
fn prune_of_explicit_key_entries() {
    let input = format!(
        "{HOST_NEW}---\n{}",
        pool_with("\n    ? old-pool\n    : \"10.0.0.2\"\n    ? keep-me\n    : \"10.0.0.3\"\n")
    );
    let o = run_text(&input, Some(&prune()));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o.outputs[0]),
        pairs(&[("keep-me", "10.0.0.3"), ("new-pool", "10.0.0.1")])
    );
}

/// A `v1` `List` of `items` (document texts written as flow-free block YAML at indent 0).
fn list(items: &[&str]) -> String {
    let mut s = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for item in items {
        for (i, line) in item.lines().enumerate() {
            s.push_str(if i == 0 { "- " } else { "  " });
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// Two namespaces: pool `a` defines the anchor `&net` on its range (with its gateway), pool
/// `b` takes its whole range through `- <<: *net`.
fn merged_range() -> String {
    list(&[
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: a, namespace: one}\nspec:\n  namePrefix: a\n  pools:\n  - &net {start: 10.0.0.1, end: 10.0.0.9, gateway: 10.0.0.1}\n",
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: b, namespace: two}\nspec:\n  namePrefix: b\n  pools:\n  - <<: *net\n    prefix: 24\n",
        "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: node-1, namespace: two}\n",
    ])
}

/// The entries of pool `name` inside a List output.
fn list_entries(text: &str, name: &str) -> Value {
    let doc = &json_docs(text)[0];
    doc["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["metadata"]["name"] == name))
        .map(|p| p["spec"]["preAllocations"].clone())
        .unwrap_or(Value::Null)
}

#[test]
fn merge_keys_were_ignored_so_a_merged_gateway_was_handed_out() {
    let input = merged_range();
    let o = run_text(&input, None);
    assert_no_errors(&o);
    // The merged range counts (10.0.0.1-9) and its merged gateway 10.0.0.1 is reserved.
    assert_eq!(
        list_entries(&o.outputs[0], "b"),
        json!({"node-1-b": "10.0.0.2"})
    );
    // The merge is written as it was: every input line is still there, in order.
    assert!(o.outputs[0].contains("- <<: *net\n"));
    assert!(common::is_line_subsequence(&input, &o.outputs[0]));
}

#[test]
fn merge_keys_at_spec_level_give_ranges_and_gateway() {
    let input = list(&[
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: a, namespace: one}\nspec: &base\n  namePrefix: a\n  pools: [{start: 10.0.0.1, end: 10.0.0.9}]\n  gateway: 10.0.0.1\n",
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: b, namespace: two}\nspec:\n  <<: *base\n  namePrefix: b\n",
        "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: node-1, namespace: two}\n",
    ]);
    let o = run_text(&input, None);
    assert_no_errors(&o);
    assert_eq!(
        list_entries(&o.outputs[0], "b"),
        json!({"node-1-b": "10.0.0.2"}),
        "{}",
        o.outputs[0]
    );
    assert!(o.outputs[0].contains("<<: *base\n"));
    assert!(common::is_line_subsequence(&input, &o.outputs[0]));
}

#[test]
fn preallocations_that_come_from_a_merge_are_a_clear_error() {
    // `preAllocations` of pool b is merged from pool a's spec: writing b's entry there would
    // change pool a too.
    let input = list(&[
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: a, namespace: one}\nspec: &base\n  namePrefix: a\n  pools: [{start: 10.0.0.1, end: 10.0.0.9}]\n  preAllocations: {x-a: \"10.0.0.9\"}\n",
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: b, namespace: two}\nspec:\n  <<: *base\n",
        "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: node-1, namespace: two}\n",
    ]);
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "b")),
            says: &["merge", "nothing was changed"],
            ..Want::default()
        },
    );
}

/// A host and an empty pool, lines broken by `brk`.
fn with_breaks(brk: &str) -> String {
    let input = format!(
        "{}---\n{}",
        host("node-1", "ns").yaml(),
        pool_with("\n    a-pool: \"10.0.0.5\"\n")
    );
    input.replace('\n', brk)
}

#[test]
fn a_lone_cr_line_break_gave_a_wrongly_indented_block() {
    for brk in ["\r", "\r\n", "\n"] {
        let input = with_breaks(brk);
        let o = run_text(&input, None);
        assert_no_errors(&o);
        let out = &o.outputs[0];
        // Every line break of the output is the file's own.
        let own = out.replace(brk, "");
        assert!(
            !own.contains('\r') && !own.contains('\n'),
            "{brk:?}: mixed line breaks in {out:?}"
        );
        let entries = pool_entries(&out.replace(brk, "\n"));
        assert_eq!(
            entries,
            pairs(&[("a-pool", "10.0.0.5"), ("node-1-pool", "10.0.0.1")]),
            "{brk:?}"
        );
        // An independent parser reads the output as it is.
        let docs = json_docs(out);
        assert_eq!(
            docs[1]["spec"]["preAllocations"]["node-1-pool"], "10.0.0.1",
            "{brk:?}"
        );
    }
}

#[test]
fn an_anchor_on_a_rewritten_node_was_dropped() {
    let input = format!(
        "{}---\n{}",
        host("node-1", "ns").yaml(),
        pool_with(" &pa {}\n")
    );
    let o = run_text(&input, None);
    assert_no_errors(&o);
    assert!(
        o.outputs[0].contains("  preAllocations: &pa\n    node-1-pool: \"10.0.0.1\"\n"),
        "{}",
        o.outputs[0]
    );
}

#[test]
fn an_anchored_node_an_alias_uses_elsewhere_is_a_clear_error() {
    // Filling `&pa` would change `*pa` too: refused, naming the field, rather than left
    // dangling or changed behind the user's back.
    let input = format!(
        "{}---\n{}status:\n  copy: *pa\n",
        host("node-1", "ns").yaml(),
        pool_with(" &pa {}\n")
    );
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            path: Some("spec.preAllocations"),
            says: &["alias", "uses its anchor", "nothing was changed"],
        },
    );
    assert!(
        !dump(&o).contains("bug in ipreuse"),
        "a refusal, not a failed safety net:\n{}",
        dump(&o)
    );
}
