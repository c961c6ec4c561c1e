//! The controller flag (SPEC §8) through the whole function: the edits go through the write
//! safety net, check mode reports them where they are, an error anywhere writes none of them,
//! and `controllerFlag: false` turns all of it off, warning included. The cases themselves are
//! in `src/transform/controller_flag/tests.rs`.

mod common;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, config, dump, host, pool, range,
    run_docs, run_text, warnings,
};
use ipreuse::results::Severity;
use serde_json::json;

const MANAGER: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: capm3-controller-manager
  namespace: capm3-system
  labels:
    cluster.x-k8s.io/provider: infrastructure-metal3
spec:
  template:
    spec:
      containers:
      - args:
        - --webhook-port=9443
        - --enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}
        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0
        name: manager
";

const VARIABLES: &str = "apiVersion: v1
kind: Secret
metadata:
  name: capm3-variables
  namespace: capm3-system
data:
  ENABLE_BMH_NAME_BASED_PREALLOCATION: ZmFsc2U= # false
";

#[test]
fn the_flag_is_written_with_the_preallocations() {
    let docs = [
        host("node-1", "ns").yaml(),
        pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
        MANAGER.to_string(),
        VARIABLES.to_string(),
    ];
    let input = docs.join("---\n");
    let o = run_text(&input, None);
    assert_no_errors(&o);
    let out = &o.outputs[0];
    assert!(out.contains("    node-1-pool: \"10.0.0.10\"\n"), "{out}");
    assert!(
        out.contains("        - --enable-bmh-name-based-preallocation=true\n"),
        "{out}"
    );
    assert!(
        out.contains("  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ== # false\n"),
        "{out}"
    );
    // Only those lines changed.
    let changed: Vec<&str> = out.lines().filter(|l| !input.contains(*l)).collect();
    assert_eq!(
        changed,
        [
            "  preAllocations:",
            "    node-1-pool: \"10.0.0.10\"",
            "        - --enable-bmh-name-based-preallocation=true",
            "  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ== # false",
        ]
    );
    let infos: Vec<(String, String)> = o
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Info && f.message.contains("controller flag"))
        .map(|f| {
            (
                f.resource_ref
                    .as_ref()
                    .map(|r| r.kind.clone())
                    .unwrap_or_default(),
                f.field.as_ref().map(|p| p.path.clone()).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        infos,
        [
            (
                "Deployment".to_string(),
                "spec.template.spec.containers[0].args[1]".to_string()
            ),
            (
                "Secret".to_string(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".to_string()
            ),
        ]
    );
    // A second run changes nothing.
    let again = run_text(out, None);
    assert_no_errors(&again);
    assert_eq!(&again.outputs[0], out);
}

#[test]
fn an_error_anywhere_writes_no_flag_either() {
    let docs = [
        host("node-1", "ns").yaml(),
        // a pool with an entry outside its range: an error
        pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .entry("node-1-pool", "10.9.9.9")
            .yaml(),
        MANAGER.to_string(),
    ];
    let input = docs.join("---\n");
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    // What was not written is not reported as written.
    assert!(
        o.findings
            .iter()
            .all(|f| !(f.severity == Severity::Info && f.message.contains("controller flag"))),
        "{}",
        dump(&o)
    );
}

#[test]
fn check_mode_names_each_flag_change_at_its_field() {
    let docs = vec![MANAGER.to_string(), VARIABLES.to_string()];
    let o = run_docs(&docs, Some(&config(json!({"mode": "check"}))));
    assert_transactional(&o, &[&docs.join("---\n")]);
    assert_error(
        &o,
        Want {
            path: Some("spec.template.spec.containers[0].args[1]"),
            object: Some(("Deployment", "capm3-controller-manager")),
            says: &["check: ", "fill would set"],
        },
    );
    assert_error(
        &o,
        Want {
            path: Some("data.ENABLE_BMH_NAME_BASED_PREALLOCATION"),
            object: Some(("Secret", "capm3-variables")),
            says: &["check: "],
        },
    );
    // Up to date: check passes.
    let filled = run_docs(&docs, None);
    assert_no_errors(&filled);
    let o = run_text(&filled.outputs[0], Some(&config(json!({"mode": "check"}))));
    assert_no_errors(&o);
}

#[test]
fn controller_flag_false_changes_nothing_and_warns_nothing() {
    let docs = vec![MANAGER.to_string(), VARIABLES.to_string()];
    let input = docs.join("---\n");
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert_no_errors(&o);
    assert_eq!(o.outputs[0], input);
    assert!(o.findings.is_empty(), "{}", dump(&o));
    // Nothing to turn on, and the flag handling off: no warning either.
    let docs = vec![host("node-1", "ns").yaml()];
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
    // With it on, the same input warns that nothing turns the flag on.
    let o = run_docs(&docs, Some(&config(json!({}))));
    let w = warnings(&o);
    assert_eq!(w.len(), 1, "{}", dump(&o));
    assert_eq!(
        w[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.controllerFlag")
    );
}

#[test]
fn a_config_map_function_config_points_at_its_data_key() {
    let fc = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "fc"},
        "data": {"prune": "false"}
    });
    let o = run_docs(&[host("node-1", "ns").yaml()], Some(&fc));
    let w = warnings(&o);
    assert_eq!(w.len(), 1, "{}", dump(&o));
    assert_eq!(
        w[0].field.as_ref().map(|f| f.path.as_str()),
        Some("data.controllerFlag")
    );
}
