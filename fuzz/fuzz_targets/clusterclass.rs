//! ClusterClass patch evaluation through a whole run (issue 32, acceptance 10): the fuzzer's
//! text is the `valueFrom.template` of a patch and the `enabledIf` of another in a package of
//! a ClusterClass, a Cluster stamped from it, its hosts and pools (`examples/clusterclass`'s
//! shape, small). Whatever the text, `run` returns and never panics; a successful run's output
//! reads back, and a second run changes nothing.
//! `cargo +nightly fuzz run clusterclass -- -max_total_time=600 -timeout=10 -rss_limit_mb=1024`.
#![no_main]

use ipreuse::krm::Source;
use libfuzzer_sys::fuzz_target;

const PACKAGE: &str = include_str!("clusterclass_package.yaml");

/// A YAML double-quoted scalar holding `text`.
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the enabledIf, the rest the value template.
    let (enabled_if, template) = text.split_once('\n').unwrap_or((text, "{{ .dt }}"));
    let package = PACKAGE
        .replace("ENABLED_IF", &quoted(enabled_if))
        .replace("VALUE_TEMPLATE", &quoted(template));
    let source = Source {
        name: "fuzz".into(),
        text: package,
    };
    if let Ok(outcome) = ipreuse::run::run(std::slice::from_ref(&source), None) {
        if !outcome.has_errors() {
            let again = Source {
                name: "fuzz".into(),
                text: outcome.outputs[0].clone(),
            };
            let Ok(second) = ipreuse::run::run(std::slice::from_ref(&again), None) else {
                panic!("the output does not read back");
            };
            assert_eq!(second.outputs, outcome.outputs, "a second run changed the output");
        }
    }
});
