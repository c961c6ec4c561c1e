//! The Go templates of ClusterClass patches (issue 25): `ipreuse::topology::template` against
//! outputs reasoned from Go's `text/template` and sprig, as a table.
//!
//! Each file of `tests/data/gotemplate/` holds cases: a template, the variables it sees, and
//! either the output Go would write or the pieces of the error ipreuse must give. The data
//! folder's README says how a case is written and where the expectations come from.

use std::path::{Path, PathBuf};

use ipreuse::topology::rendered::is_true as enabled;
use ipreuse::topology::template::render;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// What the file covers and where its rules are read, for the reader.
    #[allow(dead_code)]
    about: String,
    /// The variables of every case that gives none.
    #[serde(default)]
    data: Option<Value>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// Where the case is translated from (an upstream test or document), when it is.
    #[serde(default)]
    #[allow(dead_code)]
    from: Option<String>,
    /// Why Go gives this output, where it is not plain.
    #[serde(default)]
    #[allow(dead_code)]
    why: Option<String>,
    template: String,
    #[serde(default)]
    data: Option<Value>,
    /// The output, exactly.
    #[serde(default)]
    output: Option<String>,
    /// Pieces the error's message must hold (the output must then be an error).
    #[serde(default)]
    error: Option<Vec<String>>,
    /// What `enabled` (CAPI's enabledIf) decides from the output.
    #[serde(default)]
    enabled: Option<bool>,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gotemplate")
}

fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data/gotemplate")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    out.sort();
    out
}

/// One case's failure, or None when it holds.
fn run_case(file_data: Option<&Value>, case: &Case) -> Option<String> {
    let data = case
        .data
        .as_ref()
        .or(file_data)
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    let got = render(&case.template, &data);
    match (&case.output, &case.error, got) {
        (Some(want), None, Ok(out)) => {
            if &out != want {
                return Some(format!("wrote {out:?}, Go writes {want:?}"));
            }
            if let Some(want) = case.enabled {
                match enabled(&out) {
                    Ok(is) if is == want => {}
                    other => return Some(format!("enabled({out:?}) is {other:?}, want {want}")),
                }
            }
            None
        }
        (None, Some(pieces), Err(e)) => {
            let message = e.to_string();
            let missing: Vec<&String> = pieces
                .iter()
                .filter(|p| !message.contains(p.as_str()))
                .collect();
            (!missing.is_empty()).then(|| format!("error {message:?} lacks {missing:?}"))
        }
        (Some(want), None, Err(e)) => Some(format!("failed ({e}), Go writes {want:?}")),
        (None, Some(pieces), Ok(out)) => {
            Some(format!("wrote {out:?}, want an error with {pieces:?}"))
        }
        _ => Some("a case states exactly one of output and error".to_string()),
    }
}

#[test]
fn every_case_renders_as_go_does() {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in files() {
        let text = std::fs::read_to_string(&path).expect("read");
        let file: File = serde_saphyr::from_str(&text)
            .unwrap_or_else(|e| panic!("{} does not read: {e}", path.display()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for case in &file.cases {
            count += 1;
            if let Some(why) = run_case(file.data.as_ref(), case) {
                failures.push(format!("{name}: {}: {why}", case.name));
            }
        }
    }
    assert!(count >= 100, "only {count} cases: a file did not load");
    assert!(
        failures.is_empty(),
        "{} of {count} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The runner's own check: a wrong expectation fails it (so a passing table means something).
#[test]
fn the_runner_catches_a_wrong_output_and_a_missing_error_piece() {
    let wrong = Case {
        name: "wrong".into(),
        from: None,
        why: None,
        template: "{{ 1 }}".into(),
        data: None,
        output: Some("2".into()),
        error: None,
        enabled: None,
    };
    assert!(run_case(None, &wrong).is_some());
    let piece = Case {
        output: None,
        error: Some(vec!["no such words".into()]),
        template: "{{ nope }}".into(),
        ..wrong
    };
    assert!(run_case(None, &piece).is_some());
}
