//! Messages for people (issue 34, acceptance 2), in the examples' results: every message of
//! every example's `.expected/results.yaml` is held to the rules of `common::messages` that are
//! enforced, as the shared runner holds every message the other tests produce.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::messages::{
    ENFORCED, FIRST_SENTENCE, RULES, all_problems, first_sentence, label,
};

/// Every example's `.expected/results.yaml`.
fn expected_results() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("examples/")
        .map(|e| e.expect("an entry").path().join(".expected/results.yaml"))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// `(message, field, label)` of every result of a kpt FunctionResultList.
fn results_of(text: &str) -> Vec<(String, Option<String>, Option<String>)> {
    let list: Value = serde_saphyr::from_str(text).expect("YAML");
    let mut out = Vec::new();
    for item in list["items"].as_array().expect("items") {
        for r in item["results"].as_array().into_iter().flatten() {
            let message = r["message"].as_str().expect("a message").to_string();
            let field = r["field"]["path"].as_str().map(str::to_string);
            let rr = &r["resourceRef"];
            let object = rr["kind"].as_str().map(|kind| {
                label(
                    kind,
                    rr["namespace"].as_str(),
                    rr["name"].as_str().unwrap_or_default(),
                )
            });
            out.push((message, field, object));
        }
    }
    out
}

#[test]
fn every_example_message_is_written_for_people() {
    let files = expected_results();
    assert!(files.len() >= 10, "too few examples: {files:?}");
    let mut seen = 0;
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("results.yaml");
        for (m, field, object) in results_of(&text) {
            seen += 1;
            for (rule, why) in all_problems(&m, field.as_deref(), object.as_deref()) {
                if ENFORCED.contains(&rule) {
                    problems.push(format!("{}: {m:?}: {why}", file.display()));
                }
            }
        }
    }
    assert!(seen >= 50, "too few results in the examples: {seen}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_rules_catch_what_they_name() {
    let long = format!("{}. Detail.", "x".repeat(FIRST_SENTENCE));
    // Every enforced rule is one of the rules, and each rule is caught below.
    for rule in ENFORCED {
        assert!(RULES.contains(rule), "{rule:?} is not a rule");
    }
    // ... and every rule is enforced (issue 34, acceptance 2).
    for rule in RULES {
        assert!(ENFORCED.contains(&rule), "{rule:?} is not enforced");
    }
    let caught = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let rules = |m: &str, field, object| -> Vec<&str> {
        let found: Vec<&str> = all_problems(m, field, object)
            .into_iter()
            .map(|(rule, _)| rule)
            .collect();
        caught.borrow_mut().extend(found.iter().copied());
        found
    };
    assert_eq!(rules(&long, None, None), ["length"]);
    assert_eq!(
        rules("Short. Then a long detail.", None, None),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules("reserved (rule 3): in spec.reserve[0]", None, None),
        ["(rule "]
    );
    assert_eq!(rules("see SPEC §10", None, None), ["SPEC §"]);
    assert_eq!(rules("outside the walk", None, None), ["the walk"]);
    assert_eq!(rules("past the IPAM's walk", None, None), ["IPAM's walk"]);
    assert_eq!(
        rules("needs walk position 3", None, None),
        ["walk position"]
    );
    assert_eq!(rules("the candidates overlap", None, None), ["candidates"]);
    assert_eq!(
        rules("spec.reserve[1]: bad", Some("spec.reserve[1]"), None),
        ["field"]
    );
    assert_eq!(
        rules("IPPool a/p has 0 free", None, Some("IPPool a/p")),
        ["object"]
    );
    // Another object, or the field named later, is not a repetition.
    assert_eq!(
        rules(
            "Widen it: IPPool a/q is full",
            Some("spec.pools"),
            Some("IPPool a/p")
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        caught.into_inner(),
        RULES.into_iter().collect(),
        "a rule no sample catches"
    );
}

#[test]
fn a_first_sentence_ends_at_a_dot_before_a_capital_not_in_an_address() {
    assert_eq!(first_sentence("10.0.0.1. is taken"), "10.0.0.1. is taken");
    assert_eq!(first_sentence("Free 10.0.0.1. Then more"), "Free 10.0.0.1.");
    assert_eq!(first_sentence("one. \"Quoted\""), "one.");
    assert_eq!(first_sentence("no end"), "no end");
}
