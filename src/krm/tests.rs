//! The framing's own units: what `run` and `main.rs` hand to `krm` to write.

use super::*;
use crate::results::{self, Finding, ResourceRef};
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

fn join(outputs: &[&str]) -> String {
    join_stream(&outputs.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn one_output_is_written_as_it_is() {
    assert_eq!(join(&[RESOURCE_LIST]), RESOURCE_LIST);
    assert_eq!(join(&["a: 1"]), "a: 1", "no newline is added at the end");
    assert_eq!(join(&[]), "");
}

#[test]
fn outputs_are_joined_by_a_separator_on_its_own_line() {
    assert_eq!(join(&["a: 1\n", "b: 2\n"]), "a: 1\n---\nb: 2\n");
    assert_eq!(
        join(&["a: 1", "b: 2", "c: 3\n"]),
        "a: 1\n---\nb: 2\n---\nc: 3\n",
        "a text without a final newline gets one before the separator"
    );
}

#[test]
fn an_output_that_starts_with_a_separator_keeps_its_own() {
    assert_eq!(join(&["a: 1\n", "---\nb: 2\n"]), "a: 1\n---\nb: 2\n");
    assert_eq!(join(&["a: 1", "--- # b\nb: 2\n"]), "a: 1\n--- # b\nb: 2\n");
    assert_eq!(
        join(&["---\na: 1\n", "b: 2\n"]),
        "---\na: 1\n---\nb: 2\n",
        "the first output's own separator stays"
    );
}

#[test]
fn empty_outputs_add_no_document_before_the_first_text() {
    assert_eq!(join(&["", "", "a: 1\n"]), "a: 1\n");
    // After a text, an empty output is an empty document: read back, it is no item.
    assert_eq!(join(&["a: 1\n", "", "b: 2\n"]), "a: 1\n---\n---\nb: 2\n");
}

#[test]
fn joined_outputs_read_back_as_the_documents_of_every_source() {
    let outputs = ["a: 1", "# only a comment\n", "---\nb: 2\n---\nc: 3"];
    let joined = join(&outputs);
    let docs = yaml::parse(&joined).expect("YAML");
    let values: Vec<_> = docs
        .iter()
        .filter(|d| !d.root.is_null())
        .map(|d| d.root.to_json())
        .collect();
    assert_eq!(
        values,
        [
            serde_json::json!({"a": 1}),
            serde_json::json!({"b": 2}),
            serde_json::json!({"c": 3})
        ]
    );
}

fn pool(namespace: Option<&str>) -> ResourceRef {
    ResourceRef {
        api_version: "ipam.metal3.io/v1alpha1".into(),
        kind: "IPPool".into(),
        name: "prov".into(),
        namespace: namespace.map(Into::into),
    }
}

#[test]
fn human_results_name_object_and_field_when_known() {
    let findings = [
        Finding::error("taken")
            .on(pool(Some("m3")))
            .at("spec.pools[0].start"),
        Finding::warning("odd").on(pool(None)),
        Finding::info("read").at("items"),
        Finding::error("not YAML"),
    ];
    assert_eq!(
        human_results(&findings),
        "error: IPPool m3/prov spec.pools[0].start: taken\n\
         warning: IPPool prov: odd\n\
         info: items: read\n\
         error: not YAML\n"
    );
}

#[test]
fn stderr_shows_every_result_of_a_stream_and_the_errors_of_a_resource_list_kpt_does_not_show() {
    let findings = [
        Finding::error("bad").on(pool(Some("m3"))),
        Finding::warning("odd"),
        Finding::info("2 added"),
    ];
    assert_eq!(
        stderr_results(Framing::Stream, false, &findings),
        human_results(&findings)
    );
    assert_eq!(
        stderr_results(Framing::ResourceList, false, &findings),
        "error: IPPool m3/prov: bad\n"
    );
    assert_eq!(
        stderr_results(Framing::ResourceList, false, &findings[1..]),
        ""
    );
    // kpt shows the results: written there only, each once.
    assert_eq!(stderr_results(Framing::ResourceList, true, &findings), "");
}

#[test]
fn a_result_from_a_file_names_it_first_on_stderr_and_as_file_in_results() {
    let mut f = Finding::error("bad").on(pool(Some("m3"))).at("spec.pools");
    f.file = Some(crate::results::FileRef {
        path: "pkg/pools.yaml".into(),
        index: Some(1),
        line: Some(12),
    });
    assert_eq!(
        human_results(std::slice::from_ref(&f)),
        "pkg/pools.yaml:12: error: IPPool m3/prov spec.pools: bad\n"
    );
    let yaml = results_yaml(std::slice::from_ref(&f));
    assert!(
        yaml.contains("file:\n    path: pkg/pools.yaml\n    index: 1\n"),
        "{yaml}"
    );
    assert!(!yaml.contains("line"), "{yaml}");
    f.file.as_mut().unwrap().line = None;
    assert_eq!(
        human_results(std::slice::from_ref(&f)),
        "pkg/pools.yaml: error: IPPool m3/prov spec.pools: bad\n"
    );
}

#[test]
fn a_config_file_gives_its_first_document() {
    let text = "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nspec:\n  mode: check\n---\nkind: Ignored\n";
    assert_eq!(
        read_config("cfg.yaml", text).expect("a document"),
        serde_json::json!({
            "apiVersion": "fn.ipreuse.dev/v1alpha1",
            "kind": "IPReuse",
            "spec": {"mode": "check"}
        })
    );
}

#[test]
fn a_config_file_without_a_document_is_refused() {
    for text in ["", "# nothing here\n", "---\n", "null\n", "~\n"] {
        let e = read_config("cfg.yaml", text).expect_err(text);
        assert!(matches!(e, ConfigFileError::NoDocument { .. }), "{text:?}");
        assert_eq!(e.to_string(), "--config cfg.yaml holds no document");
    }
}

#[test]
fn a_config_file_that_is_not_yaml_says_where() {
    let e = read_config("cfg.yaml", "spec: [unclosed\n").expect_err("not YAML");
    assert_eq!(e.to_string(), "--config cfg.yaml is not YAML");
    // The parser's error is the cause, with its line and column (printed after a `: `).
    let cause = std::error::Error::source(&e).expect("the parser's error");
    assert!(cause.to_string().starts_with("line "), "{cause}");
}

#[test]
fn results_sort_errors_first_then_by_object_field_and_message() {
    let mut findings = vec![
        Finding::info("a"),
        Finding::error("b").on(pool(Some("m3"))),
        Finding::error("a").on(pool(Some("m3"))).at("spec"),
        Finding::warning("w"),
        Finding::error("z"),
        Finding::error("a").on(pool(Some("m3"))),
        Finding::warning("w"),
    ];
    results::sort(&mut findings);
    assert_eq!(
        human_results(&findings),
        "error: z\n\
         error: IPPool m3/prov: a\n\
         error: IPPool m3/prov: b\n\
         error: IPPool m3/prov spec: a\n\
         warning: w\n\
         info: a\n",
        "sorted, and the second `warning: w` reported once"
    );
}

/// A functionConfig without `metadata.name` is named by its kind: no empty name in the
/// `resourceRef` (kyaml leaves an empty name out), and no empty name on the human line, where
/// `IPReuse  spec.strategy` read as if the field were the name.
#[test]
fn a_result_on_an_object_without_a_name_names_it_by_its_kind() {
    let nameless = ResourceRef {
        api_version: "fn.ipreuse.dev/v1alpha1".into(),
        kind: "IPReuse".into(),
        name: String::new(),
        namespace: None,
    };
    let in_ns = ResourceRef {
        namespace: Some("m3".into()),
        ..nameless.clone()
    };
    let findings = [
        Finding::error("bad")
            .on(nameless.clone())
            .at("spec.strategy"),
        Finding::warning("odd").on(in_ns),
    ];
    assert_eq!(
        human_results(&findings),
        "error: IPReuse (no name) spec.strategy: bad\n\
         warning: IPReuse (no name) in namespace m3: odd\n"
    );
    let yaml = results_yaml(&findings[..1]);
    assert!(!yaml.contains("name:"), "{yaml}");
    assert!(yaml.contains("kind: IPReuse"), "{yaml}");
    // a name is written as before
    let named = ResourceRef {
        name: "cfg".into(),
        ..nameless
    };
    assert!(results_yaml(&[Finding::info("x").on(named)]).contains("name: cfg"));
}

/// The stream as it was first written: one string, each text after a separator when needed.
fn joined_one_by_one(outputs: &[String]) -> String {
    let mut out = String::new();
    for text in outputs {
        if !out.is_empty() {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            if !text.starts_with("---") {
                out.push_str("---\n");
            }
        }
        out.push_str(text);
    }
    out
}

proptest::proptest! {
    #![proptest_config(crate::prop_config::pt_config(400))]
    #[test]
    fn the_stream_written_piece_by_piece_is_the_joined_stream(
        outputs in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(String::new()),
                proptest::strategy::Just("---\n".to_string()),
                proptest::strategy::Just("---".to_string()),
                "[a-c\n-]{0,6}",
            ],
            0..6,
        )
    ) {
        let pieces: String = stream_pieces(&outputs).collect();
        proptest::prop_assert_eq!(&pieces, &joined_one_by_one(&outputs));
        proptest::prop_assert_eq!(join_stream(&outputs), joined_one_by_one(&outputs));
    }
}
