//! End-to-end tests of the packages in `examples/` with the real `kpt`.
//!
//! Every folder of `examples/` that holds a `Kptfile` is a case (found at run time, never
//! listed here); every folder must, but `kustomize/` (kustomizations, run by
//! `tests/it/kustomize.rs`). Every Kptfile runs the function as a user's does, `exec: ipreuse`
//! found on `PATH` (`every_kptfile_runs_ipreuse_from_path`); the tests run kpt on a temporary
//! copy of each package, from another folder, with the binary cargo built first on kpt's
//! `PATH`:
//!
//! - `render_matches_expected`: `kpt fn render --allow-exec --results-dir R` makes exactly the
//!   `git diff` in `.expected/diff.patch` and writes exactly `.expected/results.yaml`
//!   (normalised: the temporary folder becomes `<tmp>`); a second render changes nothing
//!   (idempotence).
//! - `eval_makes_the_same_change`: `kpt fn eval PKG --exec ipreuse` with the Kptfile's config
//!   (`configPath` → `--fn-config`, `configMap` → `-- key=value`) makes the same change.
//! - `render_is_lossless`: the package rendered with ipreuse and rendered with an identity
//!   function (`cat`) differ only in `preAllocations` lines (added entries, the added
//!   `preAllocations:` key in place of a `preAllocations: {}`, and entries whose IPv6 text
//!   was rewritten to RFC 5952 form), in the `data-name` / `pool-name` label lines (added
//!   or rewritten, and an added `labels:` key of `metadata`), and in controller flag lines (SPEC §8: a flag arg or
//!   clusterctl variable whose value became true, everything else on its line unchanged; an
//!   added `- --flag=true` item or `VARIABLE: "true"` entry, with the `args:` or
//!   `stringData:` key that holds it when that is new too), and in the lines of a block for a
//!   new cluster (SPEC §12): added to the `spec` of an IPPool document, a `pools:` key with its
//!   `- start:` / `end:` or `- subnet:` items (per item, for dual-stack, `prefix:`, `gateway:`
//!   and `dnsServers:` with its `- "A"` items), and `prefix:`, `gateway:` and `dnsServers:`
//!   keys; addresses double-quoted in canonical text, as ipreuse writes them. A removed line
//!   is never one of these.
//!
//! `kpt` and `git` must be installed: without them these tests fail, they never skip.
//! `KPT=/path/to/kpt` chooses another kpt. `UPDATE_EXPECTED=1` rewrites `.expected/` from
//! what the render does: review every rewritten file by hand before committing it.

use crate::common;
use crate::support::fs as fs_support;
use crate::support::path as path_support;

use fs_support::copy_dir;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde::Deserialize;

/// One package of `examples/`.
pub(crate) struct Example {
    pub(crate) name: String,
    pub(crate) dir: PathBuf,
}

impl Example {
    fn expected(&self, file: &str) -> PathBuf {
        self.dir.join(".expected").join(file)
    }

    fn read_expected(&self, file: &str) -> String {
        let path = self.expected(file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: cannot read {} ({e}); run with UPDATE_EXPECTED=1 to create it, then review it",
                self.name,
                path.display()
            )
        })
    }

    /// The committed Kptfile, parsed (its ipreuse step: `exec:`, `configPath:`, `configMap:`).
    fn kptfile(&self) -> Kptfile {
        let text = std::fs::read_to_string(self.dir.join("Kptfile")).expect("reading the Kptfile");
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: Kptfile: {e}", self.name))
    }
}

#[derive(Deserialize)]
struct Kptfile {
    pipeline: Pipeline,
}

#[derive(Deserialize)]
struct Pipeline {
    mutators: Vec<Function>,
    /// `mode: check` steps of ipreuse (`examples/kpt-pipeline`); their `exec:` is rewritten too.
    #[serde(default)]
    validators: Vec<Function>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Function {
    exec: Option<String>,
    config_path: Option<String>,
    config_map: Option<BTreeMap<String, String>>,
}

impl Kptfile {
    /// The ipreuse step: the one mutator of every example.
    fn ipreuse(&self) -> &Function {
        match self.pipeline.mutators.as_slice() {
            [f] if f.exec.is_some() => f,
            _ => panic!("every example's Kptfile has exactly one mutator, an `exec:` of ipreuse"),
        }
    }

    /// How many steps the pipeline has: every one is an `exec:` of ipreuse.
    fn steps(&self) -> usize {
        let all = self
            .pipeline
            .mutators
            .iter()
            .chain(&self.pipeline.validators);
        assert!(
            all.clone().all(|f| f.exec == self.ipreuse().exec),
            "every step of an example's pipeline is an `exec:` of the same ipreuse"
        );
        all.count()
    }
}

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECTED").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Every folder of `examples/` with a Kptfile, in name order.
pub(crate) fn examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut found = Vec::new();
    for entry in
        std::fs::read_dir(&root).unwrap_or_else(|e| panic!("reading {}: {e}", root.display()))
    {
        let dir = entry.expect("reading examples/").path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir
            .file_name()
            .expect("a folder name")
            .to_string_lossy()
            .into_owned();
        // `examples/kustomize` is kustomizations, not a kpt package: tests/it/kustomize.rs runs it.
        if name == "kustomize" {
            continue;
        }
        assert!(
            dir.join("Kptfile").is_file(),
            "examples/{name} has no Kptfile: every folder of examples/ but kustomize/ is a kpt package"
        );
        found.push(Example { name, dir });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        found.len() >= 4,
        "expected the example packages in {}, found {}",
        root.display(),
        found.len()
    );
    found
}

/// The kpt to run: `$KPT`, else `kpt` on PATH. Panics (the test fails) when it cannot run.
pub(crate) fn kpt() -> &'static str {
    static KPT: OnceLock<String> = OnceLock::new();
    KPT.get_or_init(|| {
        let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
        match Command::new(&kpt).arg("version").output() {
            Ok(out) if out.status.success() => kpt,
            Ok(out) => panic!(
                "`{kpt} version` failed ({}): {}\nThese tests need the real kpt (1.0.0-beta.56); they never skip.",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) => panic!(
                "kpt not found (`{kpt}`: {e}). These tests need the real kpt (1.0.0-beta.56) on PATH, or \
                 KPT=/path/to/kpt; they never skip."
            ),
        }
    })
}

/// `git` with no user or system configuration, so that diffs look the same everywhere.
fn git(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .args([
            "-c",
            "user.name=ipreuse tests",
            "-c",
            "user.email=tests@ipreuse.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.autocrlf=false",
            "-c",
            "core.abbrev=7",
            "-c",
            "init.defaultBranch=main",
        ]);
    cmd
}

fn run_ok(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{what}: output is not UTF-8: {e}"))
}

/// A copy of the example in `tmp/<name>` (kpt names the package after its folder), with the
/// Kptfile's `exec:` (every step's) replaced by `exec`, committed to a fresh git repository.
pub(crate) fn prepare(example: &Example, tmp: &Path, exec: &str) -> PathBuf {
    let steps = example.kptfile().steps();
    let pkg = tmp.join(&example.name);
    copy_dir(&example.dir, &pkg);
    let kptfile = pkg.join("Kptfile");
    let text = std::fs::read_to_string(&kptfile).expect("reading the Kptfile");
    let mut rewritten = String::new();
    let mut n = 0;
    for line in text.split_inclusive('\n') {
        match line.find("exec: ") {
            Some(at)
                if line[..at]
                    .trim_start_matches(' ')
                    .trim_start_matches("- ")
                    .is_empty() =>
            {
                rewritten.push_str(&line[..at]);
                rewritten.push_str("exec: ");
                rewritten.push_str(exec);
                rewritten.push('\n');
                n += 1;
            }
            _ => rewritten.push_str(line),
        }
    }
    assert_eq!(
        n, steps,
        "{}: the Kptfile must have one `exec:` line per pipeline step",
        example.name
    );
    std::fs::write(&kptfile, rewritten).expect("writing the Kptfile");
    run_ok(git(&pkg).args(["init", "-q"]), "git init");
    commit(&pkg);
    pkg
}

fn commit(pkg: &Path) {
    run_ok(git(pkg).args(["add", "-A"]), "git add");
    run_ok(
        git(pkg).args([
            "commit",
            "-q",
            "--allow-empty",
            "--no-verify",
            "-m",
            "snapshot",
        ]),
        "git commit",
    );
}

/// What the package's working tree changed since the last commit, as `git diff` prints it.
/// New files would not show in a diff, so they fail the test.
fn diff(pkg: &Path, what: &str) -> String {
    let untracked = run_ok(
        git(pkg).args(["ls-files", "--others", "--exclude-standard"]),
        "git ls-files",
    );
    assert!(
        untracked.is_empty(),
        "{what}: created new files:\n{untracked}"
    );
    run_ok(
        git(pkg).args(["diff", "--no-color", "--no-ext-diff", "--no-renames"]),
        "git diff",
    )
}

/// The `exec:` of every step of every example: the name kpt looks up on `PATH`.
pub(crate) const EXEC: &str = "ipreuse";

/// `kpt fn render PKG --allow-exec --results-dir RESULTS`, run from the package's parent,
/// the binary under test first on `PATH`.
pub(crate) fn render(pkg: &Path, results: &Path) -> Output {
    Command::new(kpt())
        .current_dir(pkg.parent().expect("a parent"))
        .env("PATH", path_support::path_with_bin())
        .args(["fn", "render"])
        .arg(pkg)
        .arg("--allow-exec")
        .arg("--results-dir")
        .arg(results)
        .output()
        .unwrap_or_else(|e| panic!("cannot run kpt: {e}"))
}

pub(crate) fn output_text(out: &Output) -> String {
    format!(
        "{}\nkpt stdout:\n{}\nkpt stderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `results.yaml` of a results folder, the temporary folder written as `<tmp>`.
fn results(results: &Path, pkg: &Path, out: &Output) -> String {
    let path = results.join("results.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "kpt wrote no {} ({e}): {}",
            path.display(),
            output_text(out)
        )
    });
    let parent = pkg.parent().expect("a parent").display().to_string();
    text.replace(&parent, "<tmp>")
}

/// Fails with both texts and a line diff when they differ.
fn check_same(failures: &mut Vec<String>, what: &str, expected: &str, actual: &str) {
    if expected != actual {
        failures.push(format!(
            "{what} differs from the expected text (- expected, + actual; UPDATE_EXPECTED=1 rewrites \
             it, then review it by hand):\n{}",
            render_line_diff(expected, actual)
        ));
    }
}

fn finish(failures: Vec<String>) {
    if !failures.is_empty() {
        panic!(
            "{} failure(s):\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
}

pub(crate) fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ipreuse-examples-")
        .tempdir()
        .expect("creating a temporary folder")
}

#[test]
fn kpt_is_installed() {
    let out = run_ok(Command::new(kpt()).arg("version"), "kpt version");
    eprintln!("kpt {}", out.trim());
}

#[test]
fn every_kptfile_runs_ipreuse_from_path() {
    for example in examples() {
        let kptfile = example.kptfile();
        let steps = kptfile.steps(); // every step is the mutator's `exec:`
        assert!(steps >= 1, "{}: no pipeline step", example.name);
        assert_eq!(
            kptfile.ipreuse().exec.as_deref(),
            Some(EXEC),
            "{}: a Kptfile names the function as a user's does, found on PATH; a path with a `/` \
             is taken from the folder kpt runs in, so it breaks `kpt fn render PKG` from \
             anywhere else",
            example.name
        );
    }
}

/// Each example names what it shows: its Kptfile's `info.description` (what `kpt pkg tree` and
/// the catalog show), and a row of the case table in `examples/README.md`; the table names no
/// folder that is not there.
#[test]
fn every_example_names_what_it_shows() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/README.md"))
            .expect("reading examples/README.md");
    // The rows of the `| case | shows |` table: "| `name` | what it shows |".
    let table = readme
        .split_once("| case | shows |")
        .map(|(_, rest)| rest.split("\n\n").next().unwrap_or(""))
        .expect("examples/README.md has a `| case | shows |` table");
    let rows: BTreeMap<String, String> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` | "))
        .map(|(name, rest)| {
            (
                name.to_string(),
                rest.trim_end_matches('|').trim().to_string(),
            )
        })
        .collect();
    let mut problems = Vec::new();
    let names: Vec<String> = examples().into_iter().map(|e| e.name).collect();
    for example in examples() {
        let text = std::fs::read_to_string(example.dir.join("Kptfile")).expect("reading a Kptfile");
        let kptfile: serde_json::Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", example.name));
        let description = kptfile
            .pointer("/info/description")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("");
        if description.split_whitespace().count() < 3 {
            problems.push(format!(
                "{}: the Kptfile has no info.description",
                example.name
            ));
        }
        match rows.get(&example.name) {
            Some(shows) if shows.split_whitespace().count() >= 5 => {}
            _ => problems.push(format!(
                "{}: examples/README.md has no row saying what it shows",
                example.name
            )),
        }
    }
    for name in rows.keys() {
        if !names.contains(name) {
            problems.push(format!(
                "examples/README.md has a row for {name}, which is not an example"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(rows.len() >= names.len(), "rows: {:?}", rows.keys());
}

#[test]
fn render_matches_expected() {
    let mut failures = Vec::new();
    for example in examples() {
        let tmp = tempdir();
        let pkg = prepare(&example, tmp.path(), EXEC);
        let results_dir = tmp.path().join("results-1");
        let out = render(&pkg, &results_dir);
        let diff1 = diff(&pkg, &format!("{}: kpt fn render", example.name));
        let results1 = results(&results_dir, &pkg, &out);
        let failed = !out.status.success();
        // The exit status and the results must agree with each other.
        if failed == results1.contains("\nexitCode: 0\n") {
            failures.push(format!(
                "{}: kpt's exit status and results.yaml disagree: {}\nresults.yaml:\n{results1}",
                example.name,
                output_text(&out)
            ));
        }
        if failed && !diff1.is_empty() {
            failures.push(format!(
                "{}: the render failed but changed files:\n{diff1}",
                example.name
            ));
        }
        if updating() {
            std::fs::create_dir_all(example.dir.join(".expected")).expect("creating .expected");
            std::fs::write(example.expected("diff.patch"), &diff1).expect("writing diff.patch");
            std::fs::write(example.expected("results.yaml"), &results1)
                .expect("writing results.yaml");
            eprintln!(
                "{}: rewrote .expected/diff.patch and .expected/results.yaml: REVIEW THEM",
                example.name
            );
        } else {
            check_same(
                &mut failures,
                &format!("{}: .expected/diff.patch", example.name),
                &example.read_expected("diff.patch"),
                &diff1,
            );
            check_same(
                &mut failures,
                &format!("{}: .expected/results.yaml", example.name),
                &example.read_expected("results.yaml"),
                &results1,
            );
        }

        // Idempotence: rendering the rendered package changes nothing, and fails the same way.
        commit(&pkg);
        let out2 = render(&pkg, &tmp.path().join("results-2"));
        let diff2 = diff(&pkg, &format!("{}: the second kpt fn render", example.name));
        if !diff2.is_empty() {
            failures.push(format!(
                "{}: not idempotent: the second render changed:\n{diff2}",
                example.name
            ));
        }
        if out2.status.success() == failed {
            failures.push(format!(
                "{}: the first render {} but the second {}",
                example.name,
                if failed { "failed" } else { "passed" },
                output_text(&out2)
            ));
        }
    }
    finish(failures);
}

#[test]
fn eval_makes_the_same_change() {
    let mut failures = Vec::new();
    for example in examples() {
        let tmp = tempdir();
        let kptfile = example.kptfile();
        let step = kptfile.ipreuse();

        // What the render does, from the golden files (or from a render when updating them).
        let (expected_diff, expect_failure) = if updating() {
            let rendered = prepare(&example, &tmp.path().join("render"), EXEC);
            let out = render(&rendered, &tmp.path().join("render-results"));
            (diff(&rendered, "kpt fn render"), !out.status.success())
        } else {
            let results = example.read_expected("results.yaml");
            (
                example.read_expected("diff.patch"),
                !results.contains("\nexitCode: 0\n"),
            )
        };

        let pkg = prepare(&example, &tmp.path().join("eval"), EXEC);
        let mut cmd = Command::new(kpt());
        cmd.current_dir(tmp.path())
            .env("PATH", path_support::path_with_bin())
            .args(["fn", "eval"])
            .arg(&pkg)
            .arg("--exec")
            .arg(EXEC)
            .arg("--results-dir")
            .arg(tmp.path().join("eval-results"));
        let mut how = String::from("kpt fn eval --exec");
        if let Some(path) = &step.config_path {
            cmd.arg("--fn-config").arg(pkg.join(path));
            let _ = write!(how, " --fn-config {path}");
        }
        if let Some(map) = &step.config_map {
            cmd.arg("--");
            how.push_str(" --");
            for (k, v) in map {
                cmd.arg(format!("{k}={v}"));
                let _ = write!(how, " {k}={v}");
            }
        }
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run kpt: {e}"));
        let what = format!("{}: {how}", example.name);
        let actual = diff(&pkg, &what);
        if out.status.success() == expect_failure {
            failures.push(format!(
                "{what}: expected the function to {} like kpt fn render: {}",
                if expect_failure { "fail" } else { "pass" },
                output_text(&out)
            ));
        }
        check_same(
            &mut failures,
            &format!("{what}: the change (vs the render's diff.patch)"),
            &expected_diff,
            &actual,
        );
        // Twice: a second eval on its own output changes nothing more.
        let again = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run kpt: {e}"));
        if again.status.success() == expect_failure {
            failures.push(format!(
                "{what} (second run): passed/failed differently: {}",
                output_text(&again)
            ));
        }
        check_same(
            &mut failures,
            &format!("{what}: a second eval changed the package"),
            &expected_diff,
            &diff(&pkg, &what),
        );
    }
    finish(failures);
}

#[test]
fn render_is_lossless() {
    let mut failures = Vec::new();
    for example in examples() {
        let tmp = tempdir();
        let identity = tmp.path().join("identity.sh");
        std::fs::write(&identity, "#!/bin/sh\nexec cat\n").expect("writing identity.sh");
        set_executable(&identity);

        let with_ipreuse = prepare(&example, &tmp.path().join("ipreuse"), EXEC);
        // Its success or failure is the other tests' business: here only the files count.
        let _ = render(&with_ipreuse, &tmp.path().join("ipreuse-results"));
        let with_identity = prepare(
            &example,
            &tmp.path().join("identity"),
            &identity.display().to_string(),
        );
        let out_identity = render(&with_identity, &tmp.path().join("identity-results"));
        assert!(
            out_identity.status.success(),
            "{}: kpt fn render with an identity function failed: {}",
            example.name,
            output_text(&out_identity)
        );
        let identity_diff = diff(&with_identity, "the identity render");
        // kpt itself round-trips these packages byte for byte (else the comparison below
        // would also hide kpt's own reformatting).
        if !identity_diff.is_empty() {
            failures.push(format!(
                "{}: kpt fn render with an identity function changed the package:\n{identity_diff}",
                example.name
            ));
        }
        let files = package_files(&with_identity);
        if files != package_files(&with_ipreuse) {
            failures.push(format!(
                "{}: the two renders hold different files",
                example.name
            ));
            continue;
        }
        for file in files {
            if file == Path::new("Kptfile") {
                continue; // the exec paths differ on purpose
            }
            let before =
                std::fs::read_to_string(with_identity.join(&file)).expect("reading a file");
            let after = std::fs::read_to_string(with_ipreuse.join(&file)).expect("reading a file");
            for problem in lossless_problems(&before, &after) {
                failures.push(format!("{}: {}: {problem}", example.name, file.display()));
            }
        }
    }
    finish(failures);
}

#[cfg(unix)]
fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[cfg(not(unix))]
fn set_executable(_: &Path) {}

/// The package's files, relative, without `.git`.
fn package_files(pkg: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("reading a package") {
            let path = entry.expect("reading a package").path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(
                    path.strip_prefix(root)
                        .expect("inside the package")
                        .to_path_buf(),
                );
            }
        }
    }
    let mut out = Vec::new();
    walk(pkg, pkg, &mut out);
    out.sort();
    out
}

// ---- the line diff and what the lossless guarantee allows in it ----

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Same(usize, usize),
    Removed(usize),
    Added(usize),
}

/// A shortest line diff (longest common subsequence); the files are small.
fn line_diff(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push(Op::Same(i, j));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(Op::Added(j));
            j += 1;
        } else {
            ops.push(Op::Removed(i));
            i += 1;
        }
    }
    ops
}

fn render_line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut out = String::new();
    for op in line_diff(&a, &b) {
        match op {
            Op::Same(i, _) => {
                let _ = writeln!(out, "  {}", a[i]);
            }
            Op::Removed(i) => {
                let _ = writeln!(out, "- {}", a[i]);
            }
            Op::Added(j) => {
                let _ = writeln!(out, "+ {}", b[j]);
            }
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the final newline differs)\n");
    }
    out
}

/// `key: value # comment` on one line, split (the value unquoted); `None` for other lines.
fn entry(line: &str) -> Option<(usize, &str, String, bool)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let (key, value) = rest.split_once(": ")?;
    if key.is_empty()
        || !key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.')
    {
        return None;
    }
    let value = value.trim();
    let (text, quoted) = if let Some(v) = value.strip_prefix('"') {
        (v.split('"').next()?.to_string(), true)
    } else if let Some(v) = value.strip_prefix('\'') {
        (v.split('\'').next()?.to_string(), false)
    } else {
        (value.split(" #").next()?.trim().to_string(), false)
    };
    Some((indent, key, text, quoted))
}

/// The nearest line above `at` with less indentation (blank and comment lines skipped).
fn parent<'a>(lines: &[&'a str], at: usize) -> Option<&'a str> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let own = indent(lines[at]);
    lines[..at]
        .iter()
        .rev()
        .find(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#') && indent(l) < own
        })
        .copied()
}

/// The two labels the function writes (SPEC §7).
const LABEL_KEYS: [&str; 2] = [
    "infrastructure.cluster.x-k8s.io/data-name",
    "infrastructure.cluster.x-k8s.io/pool-name",
];

fn is_labels_key(line: &str) -> bool {
    let t = line.trim();
    t == "labels:" || t.starts_with("labels: #")
}

/// A `data-name` / `pool-name` label line of a block `labels:` map: (indent, key).
fn label_line<'a>(lines: &[&'a str], at: usize) -> Option<(usize, &'a str)> {
    let line = lines[at];
    let indent = line.len() - line.trim_start_matches(' ').len();
    let (key, _) = line[indent..].split_once(": ")?;
    (LABEL_KEYS.contains(&key) && parent(lines, at).is_some_and(is_labels_key))
        .then_some((indent, key))
}

fn is_pre_allocations_key(line: &str) -> bool {
    let t = line.trim();
    t == "preAllocations:" || t.starts_with("preAllocations: #")
}

/// An entry the function wrote: under `preAllocations:`, value a double-quoted address in
/// canonical text.
fn written_entry<'a>(lines: &[&'a str], at: usize) -> Option<(usize, &'a str, IpAddr)> {
    let (indent, key, text, double_quoted) = entry(lines[at])?;
    let addr: IpAddr = text.parse().ok()?;
    let canonical = double_quoted && addr.to_string() == text;
    (canonical && parent(lines, at).is_some_and(is_pre_allocations_key))
        .then_some((indent, key, addr))
}

// ---- the lines a block for a new cluster adds (SPEC §12) ----

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Whether the YAML document holding line `at` is an IPPool: a `kind: IPPool` line at column
/// 0 between the `---` separators around it.
fn in_ippool(lines: &[&str], at: usize) -> bool {
    let start = lines[..at]
        .iter()
        .rposition(|l| l.starts_with("---"))
        .map_or(0, |p| p + 1);
    let end = lines[at..]
        .iter()
        .position(|l| l.starts_with("---"))
        .map_or(lines.len(), |p| at + p);
    lines[start..end]
        .iter()
        .any(|l| l.trim_end() == "kind: IPPool")
}

/// The line that holds line `at`: the nearest line above it (blank and comment lines skipped)
/// that is less indented, or, for a sequence item (`- `), as indented and not an item itself
/// (the key of a sequence written without indentation).
fn owner(lines: &[&str], at: usize) -> Option<usize> {
    let own = indent_of(lines[at]);
    let item = lines[at].trim_start().starts_with("- ");
    (0..at).rev().find(|&k| {
        let l = lines[k];
        if is_blank_or_comment(l) {
            return false;
        }
        let i = indent_of(l);
        i < own || item && i == own && !l.trim_start().starts_with("- ")
    })
}

/// A double-quoted address in canonical text, as the function writes it.
fn is_quoted_addr(value: &str) -> bool {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .and_then(|t| t.parse::<IpAddr>().ok().map(|a| a.to_string() == t))
        .unwrap_or(false)
}

/// A double-quoted `address/length` with the address in canonical text.
fn is_quoted_cidr(value: &str) -> bool {
    let Some((addr, len)) = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .and_then(|t| t.split_once('/'))
    else {
        return false;
    };
    let max = match addr.parse::<IpAddr>() {
        Ok(a) if a.to_string() == addr => {
            if a.is_ipv4() {
                32
            } else {
                128
            }
        }
        _ => return false,
    };
    len.parse::<u8>()
        .is_ok_and(|n| n <= max && n.to_string() == len)
}

/// What a line of a block written into an IPPool is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BlockLine {
    /// `pools:`, a key of the IPPool's `spec`.
    Pools,
    /// `- start: "A"` (true) or `- subnet: "C"` (false): the one item of a family.
    Item(bool),
    /// `dnsServers:`, of `spec` or of an item.
    Dns,
    /// `end:`, `prefix:` or `gateway:`, of `spec` or of an item, or a `- "A"` DNS server.
    Leaf,
}

/// Whether line `at` of `b` is one the function writes when it gives an IPPool its block: an
/// added line (`added[at]`) of one of the shapes above, held by `spec:` of an IPPool document
/// or by another such added line (`- start:` by `pools:`, `end:` by `- start:`, a DNS server
/// by `dnsServers:`, ...). A `pools:` key, `prefix:`, `gateway:` or `dnsServers:` anywhere
/// else, an item added to `pools:` that was there before, or an unquoted or non-canonical
/// address is none.
fn block_line(b: &[&str], at: usize, added: &[bool]) -> Option<BlockLine> {
    if !added[at] {
        return None;
    }
    let own = indent_of(b[at]);
    let text = b[at].trim_start();
    let held_by = owner(b, at)?;
    let by_spec = b[held_by] == "spec:" && in_ippool(b, at);
    // held by a `- start:` / `- subnet:` item, as its field (the item's text is 2 further in)
    let by_item = |start_only: bool| {
        own == indent_of(b[held_by]) + 2
            && match block_line(b, held_by, added) {
                Some(BlockLine::Item(start)) => start || !start_only,
                _ => false,
            }
    };
    let (key, value) = text.split_once(": ").unwrap_or((text, ""));
    let shape = match (key, value) {
        ("pools:", "") if by_spec => BlockLine::Pools,
        ("dnsServers:", "") if by_spec || by_item(false) => BlockLine::Dns,
        ("prefix", v) if v.parse::<u8>().is_ok_and(|n| n <= 128) && (by_spec || by_item(false)) => {
            BlockLine::Leaf
        }
        ("gateway", v) if is_quoted_addr(v) && (by_spec || by_item(false)) => BlockLine::Leaf,
        ("end", v) if is_quoted_addr(v) && by_item(true) => BlockLine::Leaf,
        ("- start", v) | ("- subnet", v)
            if (if key == "- start" {
                is_quoted_addr(v)
            } else {
                is_quoted_cidr(v)
            }) && block_line(b, held_by, added) == Some(BlockLine::Pools) =>
        {
            BlockLine::Item(key == "- start")
        }
        (item, "")
            if item.strip_prefix("- ").is_some_and(is_quoted_addr)
                && block_line(b, held_by, added) == Some(BlockLine::Dns) =>
        {
            BlockLine::Leaf
        }
        _ => return None,
    };
    Some(shape)
}

/// Everything in the change from `before` to `after` that the lossless guarantee does not allow.
fn lossless_problems(before: &str, after: &str) -> Vec<String> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let ops = line_diff(&a, &b);
    let mut problems = Vec::new();
    // Entries whose text was rewritten: removed in `before`, added again (canonical) in `after`.
    let added: Vec<usize> = ops
        .iter()
        .filter_map(|o| if let Op::Added(j) = o { Some(*j) } else { None })
        .collect();
    let written: Vec<(usize, &str, IpAddr)> =
        added.iter().filter_map(|&j| written_entry(&b, j)).collect();
    let mut is_added = vec![false; b.len()];
    for &j in &added {
        is_added[j] = true;
    }
    for op in &ops {
        match *op {
            Op::Same(..) => {}
            Op::Added(j) => {
                let labels_added = is_labels_key(b[j])
                    && parent(&b, j).is_some_and(|p| p.trim_start().starts_with("metadata:"));
                if !(is_pre_allocations_key(b[j])
                    && parent(&b, j).is_some_and(|p| p.trim_start().starts_with("spec:")))
                    && written_entry(&b, j).is_none()
                    && !labels_added
                    && label_line(&b, j).is_none()
                    && !flag_line_added(&a, &b, j, &ops)
                    && block_line(&b, j, &is_added).is_none()
                {
                    problems.push(format!(
                        "line {} was added but is not a preAllocations entry, a label or a block ipreuse writes: {:?}",
                        j + 1,
                        b[j]
                    ));
                }
            }
            Op::Removed(i) => {
                let t = a[i].trim();
                let emptied = matches!(
                    t,
                    "preAllocations: {}" | "preAllocations: null" | "preAllocations: ~"
                ) && added.iter().any(|&j| is_pre_allocations_key(b[j]));
                let rewritten = entry(a[i]).is_some_and(|(indent, key, text, _)| {
                    parent(&a, i).is_some_and(is_pre_allocations_key)
                        && text.parse::<IpAddr>().is_ok_and(|old| {
                            old.is_ipv6()
                                && old.to_string() != text
                                && written
                                    .iter()
                                    .any(|&(wi, wk, wa)| wi == indent && wk == key && wa == old)
                        })
                });
                // A data-name / pool-name label whose value was rewritten in place.
                let relabelled = label_line(&a, i).is_some_and(|(indent, key)| {
                    added
                        .iter()
                        .any(|&j| label_line(&b, j) == Some((indent, key)))
                });
                let flag_rewritten = flag_value(a[i]).is_some_and(|(before, value, after)| {
                    !value_reads_true(value)
                        && added.iter().any(|&j| {
                            flag_value(b[j]).is_some_and(|(b2, v2, a2)| {
                                b2 == before && a2 == after && value_reads_true(v2)
                            })
                        })
                });
                if !emptied && !rewritten && !relabelled && !flag_rewritten {
                    problems.push(format!(
                        "line {} was removed or changed, and it is not an empty preAllocations, an \
                         IPv6 entry rewritten to RFC 5952 or a label ipreuse rewrites: {:?}",
                        i + 1,
                        a[i]
                    ));
                }
            }
        }
    }
    if before.ends_with('\n') != after.ends_with('\n') {
        problems.push("the final newline changed".into());
    }
    problems
}

/// The CAPM3 flag's spellings, and its clusterctl variable's (SPEC §8).
const FLAGS: [&str; 2] = [
    "--enable-bmh-name-based-preallocation",
    "--enableBMHNameBasedPreallocation",
];
const VARIABLES: [&str; 2] = [
    "ENABLE_BMH_NAME_BASED_PREALLOCATION",
    "enableBMHNameBasedPreallocation",
];

/// A line holding the flag with a value (`--flag=VALUE`, also inside a flow list) or a
/// variable entry (`VARIABLE: VALUE # comment`), split into the text before the value, the
/// value (quotes of a variable's value included) and the text after it.
fn flag_value(line: &str) -> Option<(&str, &str, &str)> {
    for flag in FLAGS {
        if let Some(at) = line.find(&format!("{flag}=")) {
            let start = at + flag.len() + 1;
            let end = line[start..]
                .find(['"', '\'', ',', ']', ' '])
                .map_or(line.len(), |e| start + e);
            return Some((&line[..start], &line[start..end], &line[end..]));
        }
    }
    // a variable, or the flag as a key of the Cluster API Operator's `args` map
    let keys = VARIABLES.iter().map(|v| v.to_string()).chain(
        FLAGS
            .iter()
            .flat_map(|f| [f.to_string(), format!("\"{f}\""), format!("'{f}'")]),
    );
    for variable in keys {
        let key = format!("{variable}: ");
        let indent = line.len() - line.trim_start_matches(' ').len();
        if line[indent..].starts_with(&key) {
            let start = indent + key.len();
            let end = line[start..].find(" #").map_or(line.len(), |e| start + e);
            return Some((&line[..start], &line[start..end], &line[end..]));
        }
    }
    None
}

/// Whether a flag or variable value is `true` (as text, quoted, or base64 in a Secret's data).
fn value_reads_true(value: &str) -> bool {
    matches!(
        value,
        "true" | "\"true\"" | "'true'" | "dHJ1ZQ==" | "\"dHJ1ZQ==\""
    )
}

/// Whether added line `j` of `b` is a flag change: a flag or variable value rewritten to true
/// (the same line with another value is removed from `a`), a new `- --flag=true` item or
/// `VARIABLE: "true"` entry, or a new `args:` / `stringData:` key right above one.
fn flag_line_added(a: &[&str], b: &[&str], j: usize, ops: &[Op]) -> bool {
    let is_new_flag = |line: &str| {
        flag_value(line).is_some_and(|(before, value, after)| {
            let before = before.trim_start();
            let item = FLAGS.iter().any(|f| {
                before == format!("- {f}=") || before == format!("- \"{f}=") && after == "\""
            });
            let entry = VARIABLES.iter().any(|v| before == format!("{v}: "));
            value_reads_true(value)
                && (item && (after.is_empty() || after == "\"") || entry && after.is_empty())
        })
    };
    if is_new_flag(b[j]) {
        return true;
    }
    if let Some((before, value, after)) = flag_value(b[j])
        && value_reads_true(value)
        && ops.iter().any(|o| {
            matches!(*o, Op::Removed(i) if flag_value(a[i])
                .is_some_and(|(b2, v2, a2)| b2 == before && a2 == after && v2 != value))
        })
    {
        return true;
    }
    let key = b[j].trim();
    (key == "args:" || key == "stringData:")
        && b.get(j + 1).is_some_and(|next| is_new_flag(next))
        && ops.contains(&Op::Added(j + 1))
}

#[test]
fn the_lossless_check_allows_flag_lines_and_nothing_else() {
    let before = "args:\n- --a\n- \"--enable-bmh-name-based-preallocation=${X:=false}\" # c\n";
    let ok = "args:\n- --a\n- \"--enable-bmh-name-based-preallocation=true\" # c\n";
    assert_eq!(lossless_problems(before, ok), Vec::<String>::new());
    let comment_lost = "args:\n- --a\n- \"--enable-bmh-name-based-preallocation=true\"\n";
    assert!(!lossless_problems(before, comment_lost).is_empty());
    let other_arg = "args:\n- --b\n- \"--enable-bmh-name-based-preallocation=true\" # c\n";
    assert!(!lossless_problems(before, other_arg).is_empty());
    let flow = "args: [--a, \"--enableBMHNameBasedPreallocation=false\", --b]\n";
    let flow_ok = "args: [--a, \"--enableBMHNameBasedPreallocation=true\", --b]\n";
    assert_eq!(lossless_problems(flow, flow_ok), Vec::<String>::new());
    let flow_other = "args: [--a, \"--enableBMHNameBasedPreallocation=true\", --c]\n";
    assert!(!lossless_problems(flow, flow_other).is_empty());
    let appended = "args:\n- --a\n- --enableBMHNameBasedPreallocation=true\n";
    assert_eq!(
        lossless_problems("args:\n- --a\n", appended),
        Vec::<String>::new()
    );
    let appended_false = "args:\n- --a\n- --enableBMHNameBasedPreallocation=false\n";
    assert!(!lossless_problems("args:\n- --a\n", appended_false).is_empty());
    let secret = "data:\n  A: eA==\n";
    let secret_ok = "data:\n  A: eA==\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"dHJ1ZQ==\"\n";
    assert_eq!(lossless_problems(secret, secret_ok), Vec::<String>::new());
    let new_map = "type: Opaque\nstringData:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n";
    assert_eq!(
        lossless_problems("type: Opaque\n", new_map),
        Vec::<String>::new()
    );
    let new_map_other = "type: Opaque\nstringData:\n  OTHER: \"true\"\n";
    assert!(!lossless_problems("type: Opaque\n", new_map_other).is_empty());
    let var = "  enableBMHNameBasedPreallocation: 'no' # x\n";
    let var_ok = "  enableBMHNameBasedPreallocation: 'true' # x\n";
    assert_eq!(lossless_problems(var, var_ok), Vec::<String>::new());
    let var_off = "  enableBMHNameBasedPreallocation: 'false' # x\n";
    assert!(!lossless_problems(var, var_off).is_empty());
    // the Cluster API Operator's args map: rewritten to true, never added, nothing else
    let map = "      args:\n        \"--enableBMHNameBasedPreallocation\": \"false\" # c\n";
    let map_ok = "      args:\n        \"--enableBMHNameBasedPreallocation\": \"true\" # c\n";
    assert_eq!(lossless_problems(map, map_ok), Vec::<String>::new());
    let map_plain = "      args:\n        --enable-bmh-name-based-preallocation: 'off'\n";
    let map_plain_ok = "      args:\n        --enable-bmh-name-based-preallocation: 'true'\n";
    assert_eq!(
        lossless_problems(map_plain, map_plain_ok),
        Vec::<String>::new()
    );
    let map_comment_lost = "      args:\n        \"--enableBMHNameBasedPreallocation\": \"true\"\n";
    assert!(!lossless_problems(map, map_comment_lost).is_empty());
    let map_added = "      args:\n        \"--enableBMHNameBasedPreallocation\": \"true\"\n";
    assert!(!lossless_problems("      args:\n", map_added).is_empty());
}

#[test]
fn the_lossless_check_itself() {
    let before = "spec:\n  pools:\n  - start: 10.0.0.1 # c\n  preAllocations: {}\n";
    let ok = "spec:\n  pools:\n  - start: 10.0.0.1 # c\n  preAllocations:\n    a-p: \"10.0.0.2\"\n";
    assert_eq!(lossless_problems(before, ok), Vec::<String>::new());
    let lost_comment =
        "spec:\n  pools:\n  - start: 10.0.0.1\n  preAllocations:\n    a-p: \"10.0.0.2\"\n";
    assert_eq!(lossless_problems(before, lost_comment).len(), 2);
    let reindented =
        "spec:\n  pools:\n    - start: 10.0.0.1 # c\n  preAllocations:\n    a-p: \"10.0.0.2\"\n";
    assert_eq!(lossless_problems(before, reindented).len(), 2);
    let v6 = "spec:\n  preAllocations:\n    # keep\n    a-p: \"2001:DB8::0005\"\n";
    let v6_ok = "spec:\n  preAllocations:\n    # keep\n    a-p: \"2001:db8::5\"\n    b-p: \"2001:db8::2\"\n";
    assert_eq!(lossless_problems(v6, v6_ok), Vec::<String>::new());
    let v6_moved = "spec:\n  preAllocations:\n    # keep\n    a-p: \"2001:db8::6\"\n";
    assert_eq!(lossless_problems(v6, v6_moved).len(), 1);
    let unquoted = "spec:\n  preAllocations:\n    a-p: 10.0.0.2\n";
    assert_eq!(lossless_problems("spec:\n", unquoted).len(), 1);
    let labelled = "metadata:\n  name: x\n  labels:\n    a: b\n    infrastructure.cluster.x-k8s.io/pool-name: p\n";
    let relabelled = "metadata:\n  name: x\n  labels:\n    a: b\n    infrastructure.cluster.x-k8s.io/pool-name: q\n    \
                      infrastructure.cluster.x-k8s.io/data-name: \"d\"\n";
    assert_eq!(
        lossless_problems(labelled, relabelled),
        Vec::<String>::new()
    );
    let created =
        "metadata:\n  name: x\n  labels:\n    infrastructure.cluster.x-k8s.io/data-name: \"d\"\n";
    assert_eq!(
        lossless_problems("metadata:\n  name: x\n", created),
        Vec::<String>::new()
    );
    let other_label = "metadata:\n  name: x\n  labels:\n    a: c\n    infrastructure.cluster.x-k8s.io/pool-name: p\n";
    assert_eq!(lossless_problems(labelled, other_label).len(), 2);
    let emptied_only = "spec:\n  pools: []\n";
    assert_eq!(
        lossless_problems("spec:\n  pools: []\n  preAllocations: {}\n", emptied_only).len(),
        1
    );
}

#[test]
fn the_lossless_check_allows_a_block_written_into_an_ippool_and_nothing_else() {
    const POOL: &str = "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: p\n  \
                        annotations:\n    ipreuse.dev/network: prov\nspec:\n  clusterName: c\n  namePrefix: p\n";
    let with = |added: &str| format!("{POOL}{added}");
    // A range block as kpt writes it (sequences not indented), with the hosts' entries.
    let range = "  pools:\n  - start: \"172.22.1.0\"\n    end: \"172.22.1.63\"\n  prefix: 22\n  \
                 gateway: \"172.22.0.1\"\n  dnsServers:\n  - \"172.22.0.2\"\n  preAllocations:\n    \
                 h-0-p: \"172.22.1.0\"\n";
    assert_eq!(lossless_problems(POOL, &with(range)), Vec::<String>::new());
    // A subnet block with indented sequences, as the pipe writes it.
    let subnet = "  pools:\n    - subnet: \"fd00:22:0:3::/64\"\n  prefix: 64\n  gateway: \
                  \"fd00:22:0:3::1\"\n  dnsServers:\n    - \"fd00:ff::53\"\n";
    assert_eq!(lossless_problems(POOL, &with(subnet)), Vec::<String>::new());
    // Dual-stack: two items, each with its own prefix, gateway and DNS servers.
    let dual = "  pools:\n  - start: \"10.0.0.64\"\n    end: \"10.0.0.127\"\n    prefix: 24\n    \
                gateway: \"10.0.0.1\"\n    dnsServers:\n      - \"10.0.0.2\"\n  - subnet: \
                \"fd00::/64\"\n    prefix: 64\n    gateway: \"fd00::1\"\n";
    assert_eq!(lossless_problems(POOL, &with(dual)), Vec::<String>::new());
    // The IPPool after another document in the same file.
    let other = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\n";
    assert_eq!(
        lossless_problems(
            &format!("{other}{POOL}"),
            &format!("{other}{}", with(range))
        ),
        Vec::<String>::new()
    );

    // The same lines in a document that is not an IPPool: every one refused but the entry.
    let config_map = POOL.replace("kind: IPPool", "kind: ConfigMap");
    assert_eq!(
        lossless_problems(&config_map, &format!("{config_map}{subnet}")).len(),
        6
    );
    // An IPPool, then another document that gets the lines.
    let after_pool = format!("{POOL}---\n{config_map}");
    assert_eq!(
        lossless_problems(&after_pool, &format!("{after_pool}{subnet}")).len(),
        6
    );
    // An item added to ranges the pool had: a pool with ranges never gets a block.
    let had = with("  pools:\n  - start: \"172.22.0.64\"\n    end: \"172.22.0.127\"\n");
    let grown = format!("{had}  - start: \"172.22.1.0\"\n    end: \"172.22.1.63\"\n");
    assert_eq!(lossless_problems(&had, &grown).len(), 2);
    // An unrelated line among the block's, unquoted or non-canonical addresses, a bad prefix,
    // `end` of a subnet item, the lines under metadata: each refused on its own.
    for (added, problems) in [
        (
            range.replace("  prefix: 22\n", "  prefix: 22\n  namePrefix: x\n"),
            1,
        ),
        (range.replace("\"172.22.0.1\"", "172.22.0.1"), 1),
        (
            subnet.replace("\"fd00:22:0:3::1\"", "\"fd00:22:0:3:0::1\""),
            1,
        ),
        (subnet.replace("/64", "/129"), 1),
        (subnet.replace("/64", "/064"), 1),
        (range.replace("  prefix: 22\n", "  prefix: 22x\n"), 1),
        (
            subnet.replace("::/64\"\n", "::/64\"\n      end: \"fd00:22:0:3::9\"\n"),
            1,
        ),
    ] {
        assert_eq!(
            lossless_problems(POOL, &with(&added)).len(),
            problems,
            "{added}"
        );
    }
    let in_metadata = POOL.replace(
        "  name: p\n",
        "  name: p\n  prefix: 22\n  gateway: \"172.22.0.1\"\n",
    );
    assert_eq!(lossless_problems(POOL, &in_metadata).len(), 2);
    // Removed lines stay refused: an empty `pools: []` the block would replace.
    let empty = with("  pools: []\n");
    assert_eq!(lossless_problems(&empty, &with(subnet)).len(), 1);
}

/// Every error and warning of every example sits at a field its object has (or that fill
/// writes): each package's files are run in-process with each ipreuse step's config, through
/// the shared runner, which holds every result to that ([`common::assert_fields_resolve`]).
#[test]
fn every_result_of_every_example_sits_at_a_field_its_object_has() {
    let mut checked = 0;
    for example in examples() {
        let sources: Vec<(String, String)> = package_files(&example.dir)
            .into_iter()
            .filter(|p| !p.starts_with(".expected"))
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .map(|p| {
                let text = std::fs::read_to_string(example.dir.join(&p)).expect("reading a file");
                (p.display().to_string(), text)
            })
            .collect();
        let kptfile = example.kptfile();
        for step in kptfile
            .pipeline
            .mutators
            .iter()
            .chain(&kptfile.pipeline.validators)
        {
            let config: Option<serde_json::Value> = match (&step.config_map, &step.config_path) {
                (Some(map), _) => Some(serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "ConfigMap",
                    "metadata": {"name": "ipreuse"},
                    "data": map,
                })),
                (None, Some(path)) => {
                    let text = std::fs::read_to_string(example.dir.join(path))
                        .expect("reading configPath");
                    Some(serde_saphyr::from_str(&text).expect("a configPath file is YAML"))
                }
                (None, None) => None,
            };
            let o = common::run_sources(&sources, config.as_ref());
            checked += o
                .findings
                .iter()
                .filter(|f| f.field.is_some() && f.severity != ipreuse::results::Severity::Info)
                .count();
        }
    }
    // The examples hold refusals and warnings (examples/errors, v1.14-refusals, ...): the
    // check above is not vacuous.
    assert!(
        checked >= 10,
        "only {checked} results with a field were checked"
    );
}
