//! ipreuse in a kpt pipeline as a mutator and, with `mode: check`, as a validator
//! (`examples/kpt-pipeline`), rendered with the real kpt:
//!
//! - the whole pipeline passes: the validator runs on the mutator's output, so the entries the
//!   mutator added pass the check;
//! - the validator alone (a Kptfile without the mutator) fails the render on the same package,
//!   where entries are missing, and on a package whose entries are all there but one is a
//!   duplicate and one is outside the pool's range: `kpt fn render --results-dir DIR` exits
//!   non-zero, `DIR/results.yaml` holds ipreuse's error results with the IPPool and the field,
//!   and kpt leaves every file of the package as it was;
//! - the validator alone passes on the package the pipeline rendered;
//! - a mutator error stops the pipeline before the validator, and nothing is written.
//!
//! `tests/it/examples.rs` also renders this example against its `.expected/` files, like every
//! other. kpt must be installed (`KPT=/path/to/kpt` picks another): without it these tests fail,
//! they never skip.

use crate::support::path as path_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The `exec:` the example's Kptfile names in both steps: `ipreuse`, found on `PATH` (the
/// binary under test first there, `render`).
const EXEC: &str = "exec: ipreuse";

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kpt-pipeline")
}

fn kpt() -> String {
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    match Command::new(&kpt).arg("version").output() {
        Ok(out) if out.status.success() => kpt,
        other => panic!(
            "cannot run `{kpt} version` ({other:?}). These tests need the real kpt \
             (1.0.0-beta.56) on PATH, or KPT=/path/to/kpt; they never skip."
        ),
    }
}

/// The package's files (relative path → bytes), `.expected/` left out.
fn files(pkg: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(pkg).expect("reading the package") {
        let path = entry.expect("reading the package").path();
        if path.is_file() {
            let name = path.strip_prefix(pkg).expect("inside").to_path_buf();
            out.insert(name, std::fs::read(&path).expect("reading a file"));
        }
    }
    out
}

/// The pipeline the copy's Kptfile keeps.
enum Steps {
    /// Mutator and validator, as the example has them.
    Both,
    /// Only the validator: the `mutators:` block is cut out.
    ValidatorOnly,
}

/// A copy of the example in `tmp/kpt-pipeline`, its Kptfile as it is or cut down to the
/// validator, the pool file replaced by `pool` when given.
fn package(tmp: &Path, steps: Steps, pool: Option<&str>) -> PathBuf {
    let pkg = tmp.join("kpt-pipeline");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    for (name, bytes) in files(&example()) {
        std::fs::write(pkg.join(name), bytes).expect("copying a file");
    }
    let mut kptfile = std::fs::read_to_string(pkg.join("Kptfile")).expect("reading the Kptfile");
    assert_eq!(
        kptfile.matches(EXEC).count(),
        2,
        "the example's Kptfile runs ipreuse as its mutator and its validator:\n{kptfile}"
    );
    if let Steps::ValidatorOnly = steps {
        let from = kptfile.find("\n  mutators:\n").expect("a mutators: block");
        let to = kptfile
            .find("\n  validators:\n")
            .expect("a validators: block");
        assert!(from < to, "mutators: comes before validators:");
        kptfile.replace_range(from..to, "");
        assert!(!kptfile.contains("mutators:"), "{kptfile}");
        assert_eq!(kptfile.matches("exec: ").count(), 1, "{kptfile}");
    }
    std::fs::write(pkg.join("Kptfile"), kptfile).expect("writing the Kptfile");
    if let Some(pool) = pool {
        std::fs::write(pkg.join("ippool.yaml"), pool).expect("writing ippool.yaml");
    }
    pkg
}

/// `kpt fn render PKG --allow-exec --results-dir DIR`, run from the package's parent, the
/// binary under test first on `PATH`.
fn render(pkg: &Path, results: &Path) -> Output {
    Command::new(kpt())
        .current_dir(pkg.parent().expect("a parent"))
        .env("PATH", path_support::path_with_bin())
        .args(["fn", "render"])
        .arg(pkg)
        .arg("--allow-exec")
        .arg("--results-dir")
        .arg(results)
        .output()
        .expect("running kpt")
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `DIR/results.yaml`, parsed: kpt's `FunctionResultList`.
fn results(dir: &Path, out: &Output) -> Value {
    let path = dir.join("results.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("kpt wrote no {} ({e}): {}", path.display(), show(out)));
    let list: Value = serde_saphyr::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not YAML: {e}\n{text}", path.display()));
    assert_eq!(list["kind"], "FunctionResultList", "{text}");
    list
}

/// The `items` of a results list: one per step that ran.
fn steps_run(list: &Value) -> &Vec<Value> {
    list["items"].as_array().expect("items")
}

/// The error results of one step as (kind, namespace/name, field path, message).
/// The results of one step, as kpt wrote them.
fn step_results(step: &Value) -> Vec<Value> {
    step["results"].as_array().cloned().unwrap_or_default()
}

fn errors(step: &Value) -> Vec<(String, String, String, String)> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    step["results"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|r| r["severity"] == "error")
        .map(|r| {
            let o = &r["resourceRef"];
            (
                text(&o["kind"]),
                format!("{}/{}", text(&o["namespace"]), text(&o["name"])),
                text(&r["field"]["path"]),
                text(&r["message"]),
            )
        })
        .collect()
}

/// The pool's `spec.preAllocations` as the package's file has it.
fn entries(pkg: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(pkg.join("ippool.yaml")).expect("reading ippool.yaml");
    let pool: Value = serde_saphyr::from_str(&text).expect("ippool.yaml is YAML");
    pool["spec"]["preAllocations"]
        .as_object()
        .expect("preAllocations")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_string()))
        .collect()
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The example's pool with entries for node-2 and node-3 written into it.
fn pool_with(node2: &str, node3: &str) -> String {
    let text = std::fs::read_to_string(example().join("ippool.yaml")).expect("ippool.yaml");
    let anchor = "# kept: entries never move\n";
    assert!(text.contains(anchor), "{text}");
    text.replace(
        anchor,
        &format!(
            "{anchor}    node-2-provisioning: \"{node2}\"\n    node-3-provisioning: \"{node3}\"\n"
        ),
    )
}

#[test]
fn the_pipeline_fills_and_its_validator_passes_on_the_filled_pool() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path(), Steps::Both, None);
    assert_eq!(
        entries(&pkg),
        map(&[("node-1-provisioning", "172.22.0.150")])
    );
    let dir = tmp.path().join("results");
    let out = render(&pkg, &dir);
    assert!(out.status.success(), "the render failed: {}", show(&out));
    let list = results(&dir, &out);
    assert_eq!(list["exitCode"], 0);
    let steps = steps_run(&list);
    assert_eq!(
        steps.len(),
        2,
        "the mutator and the validator ran: {list:#}"
    );
    for step in steps {
        assert_eq!(step["exitCode"], 0, "{step:#}");
        assert_eq!(errors(step), vec![], "{step:#}");
    }
    assert_eq!(
        entries(&pkg),
        map(&[
            ("node-1-provisioning", "172.22.0.150"),
            ("node-2-provisioning", "172.22.0.100"),
            ("node-3-provisioning", "172.22.0.101"),
        ])
    );

    // The validator alone accepts what the pipeline wrote, and changes nothing.
    let filled = std::fs::read_to_string(pkg.join("ippool.yaml")).expect("ippool.yaml");
    let tmp2 = tempfile::tempdir().expect("tmp");
    let gate = package(tmp2.path(), Steps::ValidatorOnly, Some(&filled));
    let before = files(&gate);
    let dir = tmp2.path().join("results");
    let out = render(&gate, &dir);
    assert!(
        out.status.success(),
        "the validator refused the filled pool: {}",
        show(&out)
    );
    assert_eq!(steps_run(&results(&dir, &out)).len(), 1);
    assert_eq!(files(&gate), before, "a passing validator changed files");
}

#[test]
fn the_validator_alone_fails_the_render_on_missing_entries() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path(), Steps::ValidatorOnly, None);
    let before = files(&pkg);
    let dir = tmp.path().join("results");
    let out = render(&pkg, &dir);
    assert!(
        !out.status.success(),
        "the render passed with two entries missing: {}",
        show(&out)
    );
    let list = results(&dir, &out);
    assert_eq!(list["exitCode"], 1, "{list:#}");
    let steps = steps_run(&list);
    assert_eq!(steps.len(), 1, "{list:#}");
    assert_eq!(steps[0]["exec"], "ipreuse", "{list:#}");
    assert_eq!(steps[0]["exitCode"], 1, "{list:#}");
    // One error per missing entry, at the entry, naming host, pool and address.
    let errors = errors(&steps[0]);
    let want: Vec<(String, String, String, String)> =
        [("node-2", "172.22.0.100"), ("node-3", "172.22.0.101")]
            .iter()
            .map(|(host, address)| {
                (
                    "IPPool".to_string(),
                    "metal3/provisioning".to_string(),
                    format!("spec.preAllocations.{host}-provisioning"),
                    format!(
                        "check: entry {host}-provisioning is missing: run ipreuse in fill mode and \
                 commit the result. Fill would add {host}-provisioning: \"{address}\" to IPPool \
                 metal3/provisioning for BareMetalHost {host} (the first free address of the pool)"
                    ),
                )
            })
            .collect();
    assert_eq!(errors, want);
    // Each names the file kpt read the pool from.
    for r in step_results(&steps[0])
        .iter()
        .filter(|r| r["severity"] == "error")
    {
        assert_eq!(r["file"]["path"], "ippool.yaml", "{r:#}");
        assert_eq!(r["file"]["index"].as_u64().unwrap_or(0), 0, "{r:#}");
    }
    // kpt shows each to the person running it, once (not again as the function's stderr).
    let stderr = String::from_utf8_lossy(&out.stderr);
    for (_, _, _, message) in &want {
        let shown = message.chars().take(60).collect::<String>();
        assert_eq!(stderr.matches(&shown).count(), 1, "{}", show(&out));
    }
    assert!(!stderr.contains("Stderr:"), "{}", show(&out));
    assert_eq!(files(&pkg), before, "a failed render changed the package");
}

#[test]
fn the_validator_alone_fails_the_render_on_invalid_entries() {
    let tmp = tempfile::tempdir().expect("tmp");
    // Every host has an entry, but node-2 takes node-1's address and node-3 one outside
    // 172.22.0.100-172.22.0.200.
    let pool = pool_with("172.22.0.150", "172.22.0.250");
    let pkg = package(tmp.path(), Steps::ValidatorOnly, Some(&pool));
    let before = files(&pkg);
    let dir = tmp.path().join("results");
    let out = render(&pkg, &dir);
    assert!(!out.status.success(), "the render passed: {}", show(&out));
    let list = results(&dir, &out);
    assert_eq!(list["exitCode"], 1, "{list:#}");
    let steps = steps_run(&list);
    assert_eq!(steps.len(), 1, "{list:#}");
    let errors = errors(&steps[0]);
    let at: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|(k, n, f, _)| (k.as_str(), n.as_str(), f.as_str()))
        .collect();
    assert_eq!(
        at,
        vec![
            (
                "IPPool",
                "metal3/provisioning",
                "spec.preAllocations.node-2-provisioning"
            ),
            (
                "IPPool",
                "metal3/provisioning",
                "spec.preAllocations.node-3-provisioning"
            ),
        ],
        "{errors:#?}"
    );
    assert!(errors[0].3.contains("172.22.0.150"), "{errors:#?}");
    assert!(errors[0].3.contains("node-1-provisioning"), "{errors:#?}");
    assert!(errors[1].3.contains("172.22.0.250"), "{errors:#?}");
    assert!(errors[1].3.contains("out of bounds"), "{errors:#?}");
    assert_eq!(files(&pkg), before, "a failed render changed the package");
}

#[test]
fn a_mutator_error_stops_the_pipeline_and_nothing_is_written() {
    let tmp = tempfile::tempdir().expect("tmp");
    // node-3's entry sits on the pool's gateway; node-2 has none yet, so the mutator would
    // add one if it could.
    let pool = std::fs::read_to_string(example().join("ippool.yaml"))
        .expect("ippool.yaml")
        .replace(
            "# kept: entries never move\n",
            "# kept: entries never move\n    node-3-provisioning: \"172.22.0.1\"\n",
        );
    let pkg = package(tmp.path(), Steps::Both, Some(&pool));
    let before = files(&pkg);
    let dir = tmp.path().join("results");
    let out = render(&pkg, &dir);
    assert!(!out.status.success(), "the render passed: {}", show(&out));
    let list = results(&dir, &out);
    let steps = steps_run(&list);
    assert_eq!(
        steps.len(),
        1,
        "the validator ran after a failed mutator: {list:#}"
    );
    let errors = errors(&steps[0]);
    assert!(
        errors.iter().any(|(k, n, f, m)| k == "IPPool"
            && n == "metal3/provisioning"
            && f == "spec.preAllocations.node-3-provisioning"
            && m.contains("172.22.0.1")),
        "{errors:#?}"
    );
    assert_eq!(files(&pkg), before, "a failed render changed the package");
}
