//! The framing's own units: what `run` and `main.rs` hand to `krm` to write.

use super::results::Finding;
use super::*;
use crate::yaml;

fn source(name: &str, text: &str) -> Source {
    Source {
        name: name.into(),
        text: text.into(),
    }
}

const RESOURCE_LIST: &str = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n";

#[test]
fn results_of_a_resource_list_are_an_edit_at_its_root() {
    let rl = source("<stdin>", RESOURCE_LIST);
    let input = read(std::slice::from_ref(&rl)).expect("YAML");
    let findings = [Finding::info("2 added").at("spec.preAllocations")];
    let results = results_edit(&input, 0, &findings).expect("a ResourceList takes results");
    assert_eq!(results.doc, 0);
    assert!(std::ptr::eq(results.root, &input.docs[0][0].root));
    let text = yaml::apply(&rl.text, &[(results.root, results.edit)]).expect("applies");
    assert_eq!(
        text,
        format!(
            "{RESOURCE_LIST}results:\n  - severity: info\n    message: 2 added\n    field:\n      path: spec.preAllocations\n"
        )
    );
}

#[test]
fn results_replace_those_a_resource_list_came_with() {
    let rl = source(
        "<stdin>",
        &format!(
            "{RESOURCE_LIST}results:\n- severity: error\n  message: from an earlier function\n"
        ),
    );
    let input = read(std::slice::from_ref(&rl)).expect("YAML");
    let results = results_edit(&input, 0, &[]).expect("a ResourceList takes results");
    let text = yaml::apply(&rl.text, &[(results.root, results.edit)]).expect("applies");
    assert_eq!(text, format!("{RESOURCE_LIST}results: []\n"));
}

#[test]
fn a_stream_takes_no_results_edit() {
    let sources = [
        source("a.yaml", "apiVersion: v1\nkind: ConfigMap\n"),
        source("b.yaml", "apiVersion: v1\nkind: Secret\n"),
    ];
    let input = read(&sources).expect("YAML");
    assert_eq!(input.framing, Framing::Stream);
    let findings = [Finding::error("no")];
    assert!((0..sources.len()).all(|s| results_edit(&input, s, &findings).is_none()));
}
