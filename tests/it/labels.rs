//! SPEC §7 through the whole function: the labels of IPClaims and Metal3Data written next to
//! the preallocations, read back with an independent parser; check mode naming each label at
//! its own field; all or nothing; a second run changes nothing.

use crate::common;

use common::*;
use ipreuse::results::Severity;
use serde_json::{Value, json};

const DATA_NAME: &str = "infrastructure.cluster.x-k8s.io/data-name";
const POOL_NAME: &str = "infrastructure.cluster.x-k8s.io/pool-name";

/// A claim `{host}-{pool}` as CAPM3 makes it with the name-based flag on, owned by Metal3Data
/// `data` (after a Metal3DataClaim owner, as CAPM3 v1.14 writes them).
fn claim(host: &str, pool: &str, data: &str, ns: &str) -> String {
    crate::fixtures::claim(&format!("{host}-{pool}"), ns)
        .owner(
            "infrastructure.cluster.x-k8s.io/v1beta2",
            "Metal3DataClaim",
            &format!("m3m-{host}"),
            "00000000-0000-4000-8000-000000000001",
            false,
        )
        .owned_by_data(data, "00000000-0000-4000-8000-000000000002")
        .pool(pool)
        .pool_namespace(ns)
        .yaml()
}

fn metal3data(name: &str, template: &str, ns: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3Data
metadata:
  name: {name}
  namespace: {ns}
  labels:
    cluster.x-k8s.io/cluster-name: lab # kept as written
spec:
  index: 3
  template:
    name: {template}
"
    )
}

fn data_template(name: &str, pool: &str, ns: &str) -> String {
    crate::fixtures::data_template(name, ns)
        .cluster_name("lab")
        .network("prov", "eth0", pool)
        .yaml()
}

fn package() -> Vec<String> {
    vec![
        host("node-1", "lab").yaml(),
        pool("prov", "lab")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
        claim("node-1", "prov", "workers-3", "lab"),
        data_template("workers", "prov", "lab"),
        metal3data("workers-3", "workers", "lab"),
    ]
}

fn labels_of(doc: &Value) -> Value {
    doc["metadata"]["labels"].clone()
}

#[test]
fn fill_writes_the_labels_beside_the_preallocations_and_only_them() {
    let docs = package();
    let input = stream(&docs);
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let out = &o.outputs[0];
    let read = json_docs(out);
    assert_eq!(
        read[1]["spec"]["preAllocations"],
        json!({"node-1-prov": "10.0.0.10"})
    );
    assert_eq!(
        labels_of(&read[2]),
        json!({DATA_NAME: "workers-3", POOL_NAME: "prov"})
    );
    assert_eq!(
        labels_of(&read[4]),
        json!({"cluster.x-k8s.io/cluster-name": "lab", DATA_NAME: "workers-3", POOL_NAME: "prov"})
    );
    // Lossless: the input's lines are all there, in order; the new lines are the entry, the
    // two labels maps' lines, and nothing else.
    assert!(is_line_subsequence(&input, out), "{out}");
    let mut added = added_lines(&input, out);
    added.sort_unstable();
    let mut want = vec![
        "  preAllocations:",
        "    node-1-prov: \"10.0.0.10\"",
        "  labels:",
        "    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"",
        "    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"",
        "    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"",
        "    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"",
    ];
    want.sort_unstable();
    assert_eq!(added, want);
    // Idempotent: the second run changes nothing.
    let again = run_text(out, None);
    assert_no_errors(&again);
    assert_eq!(&again.outputs[0], out);
}

#[test]
fn check_mode_reports_each_label_at_its_own_field() {
    let docs = package();
    let input = stream(&docs);
    let o = run_docs(&docs, Some(&config(json!({"mode": "check"}))));
    assert_eq!(o.outputs[0], input, "check mode changes nothing");
    for (kind, name, label) in [
        ("IPClaim", "node-1-prov", DATA_NAME),
        ("IPClaim", "node-1-prov", POOL_NAME),
        ("Metal3Data", "workers-3", DATA_NAME),
        ("Metal3Data", "workers-3", POOL_NAME),
    ] {
        let path = format!("metadata.labels.[{label}]");
        assert_error(
            &o,
            Want {
                path: Some(&path),
                object: Some((kind, name)),
                says: &[
                    "check: label",
                    "is not up to date: run ipreuse in fill mode",
                    "Fill would add",
                    label,
                ],
            },
        );
    }
    // The pool's entry is reported at its own field.
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-prov"),
            object: Some(("IPPool", "prov")),
            says: &[
                "Fill would add node-1-prov: \"10.0.0.10\" to IPPool lab/prov for BareMetalHost node-1",
            ],
        },
    );
    assert_eq!(errors(&o).len(), 5, "{}", dump(&o));
    // Once filled, check passes.
    let filled = run_docs(&docs, None);
    let checked = run_text(&filled.outputs[0], Some(&config(json!({"mode": "check"}))));
    assert_no_errors(&checked);
    assert_eq!(checked.outputs, filled.outputs, "check changes nothing");
    assert!(checked.changed.iter().all(|c| !c));
}

#[test]
fn a_label_value_over_63_characters_fails_the_whole_run() {
    let long = format!("workers-{}", "7".repeat(56)); // 64 characters
    let mut docs = package();
    docs.push(metal3data(&long, "workers", "lab"));
    let input = stream(&docs);
    let o = run_docs(&docs, None);
    assert_error(
        &o,
        Want {
            // Its own name is the label's value, and the field to change.
            path: Some("metadata.name"),
            object: Some(("Metal3Data", &long)),
            says: &["64 characters", "63"],
        },
    );
    // All or nothing: neither the labels of the other objects nor the pool entry are written.
    assert_eq!(o.outputs[0], input);
}

#[test]
fn labels_false_leaves_claims_and_metal3data_alone() {
    let docs = package();
    let o = run_docs(&docs, Some(&config(json!({"labels": false}))));
    assert_no_errors(&o);
    let read = json_docs(&o.outputs[0]);
    assert_eq!(labels_of(&read[2]), Value::Null);
    assert_eq!(
        labels_of(&read[4]),
        json!({"cluster.x-k8s.io/cluster-name": "lab"})
    );
    assert_eq!(
        read[1]["spec"]["preAllocations"],
        json!({"node-1-prov": "10.0.0.10"})
    );
    // As a ConfigMap too.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": {"labels": "false"}});
    assert_eq!(run_docs(&docs, Some(&cm)).outputs[0], o.outputs[0]);
}

#[test]
fn a_rewritten_label_is_a_warning_at_the_label() {
    let docs = vec![
        host("node-1", "lab").yaml(),
        pool("prov", "lab").range(range("10.0.0.10", "10.0.0.20")).yaml(),
        claim("node-1", "prov", "workers-3", "lab").replace(
            "  ownerReferences:",
            "  labels:\n    infrastructure.cluster.x-k8s.io/pool-name: 'provisioning' # stale\n  ownerReferences:",
        ),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: Some("metadata.labels.[infrastructure.cluster.x-k8s.io/pool-name]"),
            object: Some(("IPClaim", "node-1-prov")),
            says: &["was \"provisioning\"", "rewritten to \"prov\""],
        },
    );
    let out = &o.outputs[0];
    assert!(
        out.contains("    infrastructure.cluster.x-k8s.io/pool-name: 'prov' # stale\n"),
        "{out}"
    );
    assert!(
        !o.findings.iter().any(|f| f.severity == Severity::Error),
        "{}",
        dump(&o)
    );
}
