//! Config errors at the config file and line (issue 34, acceptance 3): wherever the config of a
//! run is written, a result about one of its fields names that file and the field's line, on
//! stderr as `path:line: ` and in the result's `file`:
//!
//! - `--config FILE`;
//! - a Kptfile step's `configPath` file, on a file run;
//! - a Kptfile step's inline `configMap`, at its key in the Kptfile;
//! - an `IPReuse` among the inputs, the config of the run;
//! - under `kpt fn render`, the result's `file.path` is the `configPath` file kpt names.
//!
//! The lines expected are found in the files' text by the words written on them, not counted
//! by hand. The kpt case needs the real kpt: it fails without it, never skips.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    )
}

fn run(cmd: &mut Command) -> Output {
    cmd.env_remove("IPREUSE_MAX_INPUT_SIZE")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// `examples/basic`'s hosts and pools in `tmp/pkg`, with `kptfile` as its Kptfile.
fn package(tmp: &Path, kptfile: &str) -> PathBuf {
    let dir = tmp.join("pkg");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["hosts.yaml", "ippools.yaml"] {
        std::fs::copy(repo.join("examples/basic").join(name), dir.join(name)).expect("copy");
    }
    std::fs::write(dir.join("Kptfile"), kptfile).expect("write");
    dir
}

/// A Kptfile whose one mutator runs `exec` with `config` (the step's lines after `exec:`).
fn kptfile(exec: &str, config: &str) -> String {
    format!(
        "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    \
         config.kubernetes.io/local-config: \"true\"\npipeline:\n  mutators:\n    - exec: {exec}\n{config}"
    )
}

/// An IPReuse config whose `strategy` is not one there is, among other valid fields.
const BAD_CONFIG: &str = "apiVersion: fn.ipreuse.dev/v1alpha1
kind: IPReuse
metadata:
  name: cfg
  annotations:
    config.kubernetes.io/local-config: \"true\"
spec:
  controllerFlag: false
  strategy: lowest
";

/// The line (from 1) of the first line of `file` that holds `words`.
fn line_with(file: &Path, words: &str) -> usize {
    let text = std::fs::read_to_string(file).expect("read");
    text.lines()
        .position(|l| l.contains(words))
        .unwrap_or_else(|| panic!("no line of {} holds {words:?}", file.display()))
        + 1
}

/// Asserts that `out` failed with one error line on stderr that starts with `file:line: error: `
/// and names `object field:`.
fn assert_error_at(out: &Output, file: &str, line: usize, object_field: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", show(out));
    let at = format!("{file}:{line}: error: {object_field}: ");
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with(&at)).count(),
        1,
        "want one line starting {at:?}:\n{}",
        show(out)
    );
}

#[test]
fn a_config_file_named_with_dash_dash_config_gives_its_path_and_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = package(tmp.path(), &kptfile("ipreuse", ""));
    let cfg = tmp.path().join("cfg.yaml");
    std::fs::write(&cfg, BAD_CONFIG).expect("write");
    let out = run(Command::new(BIN).arg("--config").arg(&cfg).arg(&dir));
    let line = line_with(&cfg, "strategy: lowest");
    assert_error_at(
        &out,
        &cfg.display().to_string(),
        line,
        "IPReuse cfg spec.strategy",
    );
    // The same from the config's folder, named as a person types it.
    let out = run(Command::new(BIN)
        .current_dir(tmp.path())
        .args(["--config", "cfg.yaml", "pkg"]));
    assert_error_at(&out, "cfg.yaml", line, "IPReuse cfg spec.strategy");
    // plan reads it the same way
    let out = run(Command::new(BIN)
        .current_dir(tmp.path())
        .args(["plan", "--config", "cfg.yaml", "pkg"]));
    assert_error_at(&out, "cfg.yaml", line, "IPReuse cfg spec.strategy");
}

#[test]
fn a_kptfile_config_path_gives_the_config_file_and_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = package(
        tmp.path(),
        &kptfile("ipreuse", "      configPath: fn-config.yaml\n"),
    );
    std::fs::write(dir.join("fn-config.yaml"), BAD_CONFIG).expect("write");
    let line = line_with(&dir.join("fn-config.yaml"), "strategy: lowest");
    for args in [
        vec!["pkg"],
        vec!["--mode", "check", "pkg"],
        vec!["plan", "pkg"],
    ] {
        let out = run(Command::new(BIN).current_dir(tmp.path()).args(&args));
        assert_error_at(
            &out,
            "pkg/fn-config.yaml",
            line,
            "IPReuse cfg spec.strategy",
        );
    }
}

#[test]
fn a_kptfile_config_map_gives_the_kptfile_and_the_line_of_its_key() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = package(
        tmp.path(),
        &kptfile(
            "ipreuse",
            "      configMap:\n        controllerFlag: \"false\"\n        strategy: lowest\n",
        ),
    );
    let line = line_with(&dir.join("Kptfile"), "strategy: lowest");
    let out = run(Command::new(BIN).current_dir(tmp.path()).arg("pkg"));
    assert_error_at(
        &out,
        "pkg/Kptfile",
        line,
        "ConfigMap function-input data.strategy",
    );
}

#[test]
fn an_ipreuse_among_the_inputs_gives_its_file_and_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = package(tmp.path(), &kptfile("ipreuse", ""));
    // after another document, so that the line is not the document's first
    let text =
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n---\n{BAD_CONFIG}");
    std::fs::write(dir.join("ipreuse.yaml"), text).expect("write");
    let line = line_with(&dir.join("ipreuse.yaml"), "strategy: lowest");
    assert!(line > 9, "{line}");
    let out = run(Command::new(BIN).current_dir(tmp.path()).arg("pkg"));
    assert_error_at(&out, "pkg/ipreuse.yaml", line, "IPReuse cfg spec.strategy");
}

#[test]
fn kpt_fn_render_results_name_the_config_path_file() {
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = package(
        tmp.path(),
        &kptfile(BIN, "      configPath: fn-config.yaml\n"),
    );
    std::fs::write(dir.join("fn-config.yaml"), BAD_CONFIG).expect("write");
    let results = tmp.path().join("results");
    let out = Command::new(&kpt)
        .args(["fn", "render", "--allow-exec", "--results-dir"])
        .arg(&results)
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {kpt} (the real kpt on PATH, or KPT=/path/to/kpt; never skipped): {e}"
            )
        });
    assert!(!out.status.success(), "{}", show(&out));
    let list = std::fs::read_to_string(results.join("results.yaml")).expect("kpt's results");
    let list: Value = serde_saphyr::from_str(&list).expect("YAML");
    let errors: Vec<&Value> = list["items"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{list:#}");
    assert_eq!(errors[0]["field"]["path"], "spec.strategy", "{list:#}");
    assert_eq!(errors[0]["file"]["path"], "fn-config.yaml", "{list:#}");
}
