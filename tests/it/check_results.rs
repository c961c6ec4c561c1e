//! Check results a person can act on (issue 22, acceptance 1; SPEC §1 "Check mode output", §9):
//! one error per entry fill would add, at `spec.preAllocations.{claim}`, naming host, pool and
//! address; `file: {path, index}` on the results of items that came from a file, and
//! `path:line` on stderr; nothing on stdout for `--mode check PATH...`; each error shown once by
//! kpt (`kpt fn eval --exec`, `kpt fn render`), and shown by kustomize 4.5.4, which prints the
//! function's stderr and ignores its results.
//!
//! Everything runs the built binary on copies of `examples/basic` in a git repository, and the
//! real kpt and kustomize (`$KPT`; kustomize 4.5.4 from `support/tools.rs`, which installs it
//! on first use); a missing tool fails the test.

use crate::support::fs as fs_support;
use crate::support::path as path_support;
use crate::support::tools;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

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
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// `examples/basic` (its package files, not `.expected/`) in `tmp/clusters`, a git repository.
fn basic(tmp: &Path) -> PathBuf {
    let dir = tmp.join("clusters");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for name in ["Kptfile", "hosts.yaml", "ippools.yaml", "namespace.yaml"] {
        std::fs::copy(repo().join("examples/basic").join(name), dir.join(name)).expect("copy");
    }
    let git = run(Command::new("git").args(["init", "-q"]).current_dir(tmp));
    assert!(git.status.success(), "git init: {}", show(&git));
    dir
}

/// What fill writes: (pool, claim) → address, read from `ipreuse DIR`'s output.
fn filled(dir: &Path) -> BTreeMap<(String, String), String> {
    let out = run(Command::new(BIN).arg(dir));
    assert_eq!(out.status.code(), Some(0), "fill: {}", show(&out));
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text(&out.stdout)).expect("YAML");
    let mut entries = BTreeMap::new();
    for d in docs.iter().filter(|d| d["kind"] == "IPPool") {
        let pool = d["metadata"]["name"].as_str().expect("a name").to_string();
        for (claim, address) in d["spec"]["preAllocations"].as_object().expect("entries") {
            let address = address.as_str().expect("a string").to_string();
            entries.insert((pool.clone(), claim.clone()), address);
        }
    }
    entries
}

const HOSTS: [&str; 5] = ["node-1", "node-10", "node-11", "node-2", "node-9"];
const POOLS: [&str; 2] = ["baremetalv4-pool", "provisioning-pool"];

/// The check error's message for one entry fill would add.
fn add_message(host: &str, pool: &str, address: &str) -> String {
    format!(
        "check: entry {host}-{pool} is missing: run ipreuse in fill mode and commit the result. \
         Fill would add {host}-{pool}: \"{address}\" to IPPool metal3/{pool} for BareMetalHost \
         {host} (the first free address of the pool)"
    )
}

/// The line (from 1) where fill would write IPPool `pool`'s entries in `file_text`: its
/// `preAllocations:` key, else its `spec:` key (fill adds the map as its last key).
fn entries_line_of(file_text: &str, pool: &str) -> usize {
    let docs: Vec<(usize, &str)> = file_text.lines().enumerate().collect();
    let doc = docs
        .split(|(_, l)| l.trim() == "---")
        .find(|d| {
            d.iter().any(|(_, l)| {
                [format!("name: {pool}"), format!("name: \"{pool}\"")]
                    .contains(&l.trim().to_string())
            })
        })
        .unwrap_or_else(|| panic!("no IPPool {pool} in the file"));
    let key = |k: &str| {
        doc.iter()
            .find(|(_, l)| {
                l.trim_start().starts_with(&format!("{k}:")) && !l.trim_start().starts_with('#')
            })
            .map(|(i, _)| i + 1)
    };
    key("preAllocations")
        .or_else(|| key("spec"))
        .expect("a spec")
}

/// The line (from 1) of the first line of `file_text` that holds `words`.
fn line_with(file_text: &str, words: &str) -> usize {
    file_text
        .lines()
        .position(|l| l.contains(words))
        .unwrap_or_else(|| panic!("no line holds {words:?}"))
        + 1
}

/// The check lines of `stderr` (`...: error: IPPool ns/pool spec.preAllocations.{claim}: check: ...`),
/// as (pool, claim) in the order they are printed.
fn check_lines(stderr: &str) -> Vec<(String, String)> {
    stderr
        .lines()
        .filter(|l| l.contains(": check: entry "))
        .map(|l| {
            let rest = &l[l.find(": error: IPPool ").expect("an IPPool error") + 16..];
            let (pool, rest) = rest.split_once(' ').expect("pool, then field");
            let claim = rest
                .strip_prefix("spec.preAllocations.")
                .and_then(|r| r.split_once(':'))
                .expect("the entry's field")
                .0;
            (pool.to_string(), claim.to_string())
        })
        .collect()
}

#[test]
fn check_lists_the_entries_in_natural_host_order() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = basic(tmp.path());
    let out = run(Command::new(BIN).args(["--mode", "check"]).arg(&dir));
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let lines = check_lines(&text(&out.stderr));
    let mut want = Vec::new();
    for pool in POOLS {
        for host in ["node-1", "node-2", "node-9", "node-10", "node-11"] {
            want.push((format!("metal3/{pool}"), format!("{host}-{pool}")));
        }
    }
    assert_eq!(lines, want, "{}", show(&out));
}

#[test]
fn check_on_a_pool_with_an_error_reports_the_error_not_what_fill_would_add_there() {
    // examples/errors: bmv4-pool has an entry out of range, a duplicate, an invalid address and a
    // pin on the gateway; provisioning-pool is valid and empty. Fill writes nothing while a pool
    // has an error, so check says what to fix in bmv4-pool, and what fill would add elsewhere.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("errors");
    fs_support::copy_dir(&repo().join("examples/errors"), &dir);
    let out = run(Command::new(BIN).args(["--mode", "check"]).arg(&dir));
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(out.stdout.is_empty(), "{}", show(&out));
    let stderr = text(&out.stderr);
    let lines = check_lines(&stderr);
    let hosts = ["host-1", "host-2", "host-3", "host-4", "host-5"];
    let want: Vec<(String, String)> = hosts
        .iter()
        .map(|h| {
            (
                "lab/provisioning-pool".to_string(),
                format!("{h}-provisioning-pool"),
            )
        })
        .collect();
    assert_eq!(
        lines, want,
        "no entry to add in the pool with errors:\n{stderr}"
    );
    for error in [
        "spec.preAllocations.host-5-bmv4-pool: Write an IPv4 address without leading zeros, or an IPv6 address in hex groups: the API server refuses \"10.1.0.021\"",
        "BareMetalHost lab/host-3 metadata.annotations.[ipreuse.dev/ip.bmv4-pool]: pin for host-3-bmv4-pool: 10.1.0.11 is reserved",
    ] {
        assert!(stderr.contains(error), "{error}\n{stderr}");
    }
    // Each error about an entry or a pin sits at the entry's or the annotation's own line.
    for (file, written, field) in [
        (
            "ippools.yaml",
            "host-5-bmv4-pool: \"10.1.0.021\"",
            "spec.preAllocations.host-5-bmv4-pool:",
        ),
        (
            "hosts.yaml",
            "ipreuse.dev/ip.bmv4-pool: \"10.1.0.11\"",
            "metadata.annotations.[ipreuse.dev/ip.bmv4-pool]:",
        ),
    ] {
        let path = dir.join(file);
        let file_text = std::fs::read_to_string(&path).expect("read");
        let at = format!(
            "{}:{}: error: ",
            path.display(),
            line_with(&file_text, written)
        );
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with(&at) && l.contains(field)),
            "{at} … {field}\n{stderr}"
        );
    }
}

#[test]
fn check_on_a_folder_prints_nothing_on_stdout_and_one_line_per_entry_with_path_and_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = basic(tmp.path());
    let before = std::fs::read_to_string(dir.join("ippools.yaml")).expect("read");
    let want = filled(&dir);
    assert_eq!(want.len(), HOSTS.len() * POOLS.len());
    let out = run(Command::new(BIN).args(["--mode", "check"]).arg(&dir));
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        out.stdout.is_empty(),
        "check on named paths prints nothing: {}",
        show(&out)
    );
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(lines.len(), want.len(), "one error per entry:\n{stderr}");
    let file = dir.join("ippools.yaml");
    for pool in POOLS {
        let at = format!(
            "{}:{}: error: ",
            file.display(),
            entries_line_of(&before, pool)
        );
        for host in HOSTS {
            let claim = format!("{host}-{pool}");
            let address = &want[&(pool.to_string(), claim.clone())];
            let line = format!(
                "{at}IPPool metal3/{pool} spec.preAllocations.{claim}: {}",
                add_message(host, pool, address)
            );
            assert_eq!(
                lines.iter().filter(|l| **l == line).count(),
                1,
                "{line}\nin:\n{stderr}"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        before,
        "check changes nothing"
    );
    // On stdin it hands the stream back unchanged, with the same errors (no file to name).
    let stream = ["hosts.yaml", "ippools.yaml"]
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).expect("read"))
        .collect::<Vec<_>>()
        .join("---\n");
    let piped = pipe(&["--mode", "check"], &stream);
    assert_eq!(piped.status.code(), Some(1), "{}", show(&piped));
    assert_eq!(text(&piped.stdout), stream);
    let errors = text(&piped.stderr);
    assert_eq!(
        errors
            .lines()
            .filter(|l| l.starts_with("error: IPPool"))
            .count(),
        want.len(),
        "{errors}"
    );
}

/// Runs the binary with `input` on stdin.
fn pipe(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("wait")
}

/// A ResourceList of one host and one pool, each annotated with `annotations` (YAML lines at
/// the annotations' indent, `{file}` and `{index}` filled in per item).
fn resource_list(annotations: &str) -> String {
    let ann = |file: &str, index: usize| {
        annotations
            .replace("{file}", file)
            .replace("{index}", &index.to_string())
    };
    format!(
        "apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: metal3.io/v1alpha1
  kind: BareMetalHost
  metadata:
    name: node-1
    namespace: m3
    annotations:
{}  spec:
    online: true
- apiVersion: ipam.metal3.io/v1alpha1
  kind: IPPool
  metadata:
    name: prov
    namespace: m3
    annotations:
{}  spec:
    namePrefix: prov
    pools:
    - start: 10.0.0.10
      end: 10.0.0.20
    prefix: 24
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
  data:
    mode: check
    controllerFlag: \"false\"
",
        ann("hosts.yaml", 0),
        ann("pools.yaml", 1)
    )
}

/// The error results of a ResourceList's text.
fn error_results(list: &str) -> Vec<Value> {
    let doc: Value = serde_saphyr::from_str(list).expect("a ResourceList");
    doc["results"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r["severity"] == "error")
        .collect()
}

#[test]
fn a_resource_list_from_kpt_gives_results_with_file_and_leaves_stderr_to_kpt() {
    let kpt = "      internal.config.kubernetes.io/path: '{file}'\n      \
               internal.config.kubernetes.io/index: '{index}'\n      \
               config.kubernetes.io/path: '{file}'\n      \
               config.kubernetes.io/index: '{index}'\n";
    let out = pipe(&[], &resource_list(kpt));
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let errors = error_results(&text(&out.stdout));
    assert_eq!(errors.len(), 1, "{}", show(&out));
    let e = &errors[0];
    assert_eq!(e["field"]["path"], "spec.preAllocations.node-1-prov");
    assert_eq!(
        e["message"],
        "check: entry node-1-prov is missing: run ipreuse in fill mode and commit the result. \
         Fill would add node-1-prov: \"10.0.0.10\" to IPPool m3/prov for BareMetalHost node-1 \
         (the first free address of the pool)"
    );
    assert_eq!(
        e["file"],
        serde_json::json!({"path": "pools.yaml", "index": 1})
    );
    // kpt shows the results: not repeated on stderr.
    assert!(out.stderr.is_empty(), "{}", show(&out));
}

#[test]
fn a_resource_list_from_kustomize_shows_the_errors_on_stderr() {
    let kustomize = "      kustomize.config.k8s.io/id: |\n        kind: X\n      \
                     config.kubernetes.io/index: '{index}'\n";
    let out = pipe(&[], &resource_list(kustomize));
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let errors = error_results(&text(&out.stdout));
    assert_eq!(errors.len(), 1, "{}", show(&out));
    assert!(
        errors[0].get("file").is_none(),
        "no path annotation, no file"
    );
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: IPPool m3/prov spec.preAllocations.node-1-prov: {}\n",
            errors[0]["message"].as_str().expect("a message")
        )
    );
}

fn kpt() -> String {
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    match Command::new(&kpt).arg("version").output() {
        Ok(out) if out.status.success() => kpt,
        other => panic!(
            "cannot run `{kpt} version` ({other:?}). These tests need the real kpt on PATH, or \
             KPT=/path/to/kpt; they never skip."
        ),
    }
}

/// Every check error appears exactly once in what kpt prints, and kpt prints no `Stderr:` of the
/// function.
fn assert_each_once(out: &Output, want: &BTreeMap<(String, String), String>) {
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    for ((pool, claim), address) in want {
        let host = claim.strip_suffix(&format!("-{pool}")).expect("a claim");
        let message = add_message(host, pool, address);
        assert_eq!(all.matches(&message).count(), 1, "{message}\n{}", show(out));
    }
    assert!(!all.contains("Stderr:"), "{}", show(out));
}

#[test]
fn kpt_fn_eval_exec_shows_each_check_error_once() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = basic(tmp.path());
    let want = filled(&dir);
    let cfg = tmp.path().join("check.yaml");
    std::fs::write(
        &cfg,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  mode: check\n  controllerFlag: \"false\"\n",
    )
    .expect("write");
    let out = run(Command::new(kpt())
        .args(["fn", "eval"])
        .arg(&dir)
        .args(["--exec", BIN, "--truncate-output=false", "--fn-config"])
        .arg(&cfg));
    assert!(!out.status.success(), "{}", show(&out));
    assert_each_once(&out, &want);
}

#[test]
fn kpt_fn_render_with_a_check_validator_shows_each_error_once_with_its_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = basic(tmp.path());
    let want = filled(&dir);
    std::fs::write(
        dir.join("Kptfile"),
        format!(
            "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: clusters\n  annotations:\n    \
             config.kubernetes.io/local-config: \"true\"\npipeline:\n  validators:\n    - exec: {BIN}\n      \
             configMap:\n        mode: check\n        controllerFlag: \"false\"\n"
        ),
    )
    .expect("write");
    let results = tmp.path().join("results");
    let out = run(Command::new(kpt())
        .args([
            "fn",
            "render",
            "--allow-exec",
            "--truncate-output=false",
            "--results-dir",
        ])
        .arg(&results)
        .arg(&dir));
    assert!(!out.status.success(), "{}", show(&out));
    assert_each_once(&out, &want);
    let list: Value = serde_saphyr::from_str(
        &std::fs::read_to_string(results.join("results.yaml")).expect("results.yaml"),
    )
    .expect("YAML");
    let errors: Vec<&Value> = list["items"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), want.len(), "{list:#}");
    for e in errors {
        assert_eq!(e["file"]["path"], "ippools.yaml", "{e:#}");
    }
}

#[test]
fn kustomize_exec_shows_the_check_errors() {
    let k = tools::kustomize();
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join("pkg");
    fs_support::copy_dir(&repo().join("examples/kustomize"), &pkg);
    let fn_config = pkg.join("exec/ipreuse.yaml");
    let config = std::fs::read_to_string(&fn_config).expect("read");
    // The function is `ipreuse` on PATH, as a user's transformer names it.
    assert!(config.contains("path: ipreuse\n"), "{config}");
    let config = config.replace(
        "  controllerFlag: false\n",
        "  controllerFlag: false\n  mode: check\n",
    );
    assert!(config.contains("mode: check"), "{config}");
    std::fs::write(&fn_config, config).expect("write");
    let out = run(Command::new(k)
        .env("PATH", path_support::path_with_bin())
        .args(["build", "--enable-alpha-plugins", "--enable-exec"])
        .arg(pkg.join("exec")));
    assert!(!out.status.success(), "{}", show(&out));
    let stderr = text(&out.stderr);
    // The base leaves entries to add in both pools: each is on kustomize's stderr, once.
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: IPPool metal3/"))
        .collect();
    assert!(!lines.is_empty(), "{}", show(&out));
    for l in &lines {
        assert!(
            l.contains(" spec.preAllocations.")
                && l.contains(": check: entry ")
                && l.contains(" is missing: "),
            "{l}"
        );
        assert_eq!(stderr.matches(l).count(), 1, "{l}\n{stderr}");
    }
    let pools: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("error: IPPool metal3/")?.split(' ').next())
        .collect();
    assert_eq!(pools.len(), 2, "{stderr}");
}
