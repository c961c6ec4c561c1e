//! The pre-commit hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit` (PyPI) through
//! `git commit`, with exactly the configuration the README shows.
//!
//! The configuration is the ```yaml block of the README's **pre-commit** paragraph; the blocks of
//! docs/running.md ("Run it with pre-commit") and functions/ipreuse/README.md ("pre-commit") must
//! be the same text. The test replaces only the placeholder URL `https://example.invalid/ipreuse.git`
//! with the path of a fresh Git repository holding this checkout's `.pre-commit-hooks.yaml`
//! (pre-commit clones it; the tests may run in a copy without `.git`), and `COMMIT` with that
//! repository's commit; every other character is the README's. `pre-commit install` puts the
//! hook in the work repository, and the commits are `git commit`s.
//!
//! The work repository holds two packages under `clusters/`, both in namespace `metal3`:
//! `site-a` (a Kptfile; hosts in `hosts/`, pools in `pools/`) and `site-b` (a kustomization).
//! Each case stages part of a change and commits:
//!
//! - a host alone: both hooks fail (the check names what is missing, the fill writes it into
//!   the pool file that was not staged); staged, the commit goes through;
//! - a pool alone: both fail, the fill writes entries for the package's existing hosts;
//! - a host with its entry, in each package: both pass, and neither pool gets the other
//!   package's host;
//! - an invalid entry: both fail and nothing is written.
//!
//! In every case site-b's files stay as they are: each package is its own run.
//!
//! The hooks are `language: system`: the binary cargo built is put first on `PATH`. pre-commit
//! is 4.7.0, installed by the tests themselves into a venv on first use (`tests/it/support/tools.rs`;
//! `$IPREUSE_PRE_COMMIT`, a command, takes another): a failed install fails the test, it never
//! skips.

use crate::common::{self, range};
use crate::support::tools;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

/// The README's placeholders, replaced by the local hook repository and its commit.
const PLACEHOLDER_URL: &str = "https://example.invalid/ipreuse.git";
const PLACEHOLDER_REV: &str = "rev: COMMIT";

const KPTFILE_A: &str = "\
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: site-a
";

fn host(name: &str) -> String {
    common::host(name, "metal3").yaml()
}

fn hosts(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| host(n))
        .collect::<Vec<_>>()
        .join("---\n")
}

/// An IPPool of namespace `metal3` on `172.22.{third_octet}.0/24` with the given entries (none:
/// no `preAllocations` at all), built by the shared fixtures.
fn pool(name: &str, third_octet: u8, entries: &[(&str, &str)]) -> String {
    let net = |last: u8| format!("172.22.{third_octet}.{last}");
    entries
        .iter()
        .fold(
            common::pool(name, "metal3")
                .range(range(&net(100), &net(200)))
                .prefix(24)
                .gateway(&net(1)),
            |p, (claim, ip)| p.entry(claim, ip),
        )
        .yaml()
}

const KUSTOMIZATION_B: &str = "\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - hosts.yaml
  - pool.yaml
";

fn site_b_pool() -> String {
    pool(
        "provisioning-b",
        1,
        &[("node-7-provisioning-b", "172.22.1.100")],
    )
}

/// The text of the first ```yaml block after the line that starts with `heading`.
fn yaml_block(file: &str, heading: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let at = text
        .lines()
        .position(|l| l.starts_with(heading))
        .unwrap_or_else(|| panic!("{file} has no line starting with {heading:?}"));
    let mut lines = text.lines().skip(at).skip_while(|l| *l != "```yaml");
    assert_eq!(
        lines.next(),
        Some("```yaml"),
        "{file}: no ```yaml block after {heading:?}"
    );
    let block: Vec<&str> = lines.take_while(|l| *l != "```").collect();
    format!("{}\n", block.join("\n"))
}

/// The README's pre-commit configuration (the same in the docs, checked).
fn readme_config() -> String {
    let readme = yaml_block("README.md", "**pre-commit**");
    assert_eq!(
        yaml_block("docs/running.md", "## Run it with pre-commit"),
        readme,
        "docs/running.md shows the README's pre-commit configuration"
    );
    assert_eq!(
        yaml_block("functions/ipreuse/README.md", "### pre-commit"),
        readme,
        "functions/ipreuse/README.md shows the README's pre-commit configuration"
    );
    readme
}

/// The pre-commit command line: program and leading arguments (`support/tools.rs` installs
/// 4.7.0 on first use).
fn pre_commit() -> Vec<String> {
    tools::pre_commit().to_vec()
}

/// `PATH` with the folder of the binary under test first (`language: system`).
fn path_with_bin() -> OsString {
    let bin_dir = Path::new(BIN).parent().expect("binary folder");
    let mut dirs = vec![bin_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("PATH")
}

fn git_output(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git must be installed");
    assert!(
        out.status.success(),
        "git {args:?} in {}: {out:?}",
        dir.display()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn git(dir: &Path, args: &[&str]) {
    git_output(dir, args);
}

fn git_init(dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.email", "test@example.com"]);
    git(dir, &["config", "user.name", "test"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
}

struct Setup {
    _tmp: tempfile::TempDir,
    work: PathBuf,
    home: PathBuf,
}

impl Setup {
    /// A hook repository with this checkout's `.pre-commit-hooks.yaml`; a work repository with
    /// the README's configuration, two complete packages committed, and the hook installed.
    fn new() -> Setup {
        let pre_commit = pre_commit();
        let config = readme_config();
        let tmp = tempfile::tempdir().expect("temp dir");
        let hooks = tmp.path().join("hooks");
        git_init(&hooks);
        let hooks_file = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
        std::fs::copy(&hooks_file, hooks.join(".pre-commit-hooks.yaml"))
            .unwrap_or_else(|e| panic!("{}: {e}", hooks_file.display()));
        git(&hooks, &["add", "."]);
        git(&hooks, &["commit", "-q", "-m", "hooks"]);
        let rev = git_output(&hooks, &["rev-parse", "HEAD"]);
        assert_eq!(config.matches(PLACEHOLDER_URL).count(), 1, "{config}");
        assert_eq!(config.matches(PLACEHOLDER_REV).count(), 1, "{config}");
        let config = config
            .replace(PLACEHOLDER_URL, hooks.to_str().expect("a UTF-8 temp path"))
            .replace(PLACEHOLDER_REV, &format!("rev: {}", rev.trim()));

        let work = tmp.path().join("work");
        git_init(&work);
        let s = Setup {
            _tmp: tmp,
            home: work.with_file_name("pre-commit-home"),
            work,
        };
        s.write(".pre-commit-config.yaml", &config);
        s.write("clusters/site-a/Kptfile", KPTFILE_A);
        s.write("clusters/site-a/hosts/hosts.yaml", &hosts(&["node-1"]));
        s.write(
            "clusters/site-a/pools/provisioning.yaml",
            &pool(
                "provisioning",
                0,
                &[("node-1-provisioning", "172.22.0.100")],
            ),
        );
        s.write("clusters/site-b/kustomization.yaml", KUSTOMIZATION_B);
        s.write("clusters/site-b/hosts.yaml", &hosts(&["node-7"]));
        s.write("clusters/site-b/pool.yaml", &site_b_pool());
        // Not Kubernetes objects: left out by the hooks' `exclude` of hidden files.
        s.write(".github/workflows/ci.yaml", "on: push\njobs: {}\n");
        git(&s.work, &["add", "."]);
        git(&s.work, &["commit", "-q", "-m", "two complete packages"]);
        let out = Command::new(&pre_commit[0])
            .args(&pre_commit[1..])
            .arg("install")
            .current_dir(&s.work)
            .env("PRE_COMMIT_HOME", &s.home)
            .output()
            .expect("run pre-commit install");
        assert!(out.status.success(), "pre-commit install: {out:?}");
        s
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.work.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.work.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn stage(&self, rels: &[&str]) {
        let mut args = vec!["add", "--"];
        args.extend(rels);
        git(&self.work, &args);
    }

    fn commits(&self) -> usize {
        git_output(&self.work, &["rev-list", "--count", "HEAD"])
            .trim()
            .parse()
            .expect("a count")
    }

    /// `git commit` with the installed hook: whether it went through, and what it printed.
    fn commit(&self, message: &str) -> Commit {
        let before = self.commits();
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.work)
            .args(["commit", "-m", message])
            .env("PATH", path_with_bin())
            .env("PRE_COMMIT_HOME", &self.home)
            .env("PRE_COMMIT_COLOR", "never")
            .output()
            .expect("run git commit");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let committed = self.commits() == before + 1;
        assert_eq!(
            out.status.success(),
            committed,
            "git's exit code and the history agree:\n{text}"
        );
        Commit { committed, text }
    }

    /// site-b is never touched by a change in site-a.
    fn assert_site_b_unchanged(&self, out: &str) {
        assert_eq!(
            self.read("clusters/site-b/pool.yaml"),
            site_b_pool(),
            "{out}"
        );
        assert_eq!(self.read("clusters/site-b/hosts.yaml"), hosts(&["node-7"]));
    }
}

struct Commit {
    committed: bool,
    text: String,
}

impl Commit {
    /// The status pre-commit printed for the hook whose name starts with `name`
    /// (`Passed`, `Failed`, ...).
    fn status(&self, name: &str) -> &str {
        let line = self
            .text
            .lines()
            .find(|l| l.starts_with(name) && l.contains("..."))
            .unwrap_or_else(|| panic!("no status line for {name:?}:\n{}", self.text));
        line.rsplit('.').next().unwrap_or("").trim()
    }

    fn check(&self) -> &str {
        self.status("ipreuse check (")
    }

    fn fill(&self) -> &str {
        self.status("ipreuse (fill")
    }
}

/// Whether the check's output names the missing entry `claim` (SPEC §9: one error per entry, at
/// `spec.preAllocations.{claim}`, on a line that starts with the pool's file and line).
fn names_missing(out: &str, claim: &str, pool: &str) -> bool {
    out.lines().any(|l| {
        l.contains(".yaml:")
            && l.contains(&format!(
                "spec.preAllocations.{claim}: check: entry {claim} is missing: "
            ))
            && l.contains(&format!("Fill would add {claim}: \""))
            && l.contains(&format!("to IPPool metal3/{pool}"))
    })
}

#[test]
fn readme_pre_commit_configuration_is_the_one_in_the_docs() {
    let config = readme_config();
    assert!(config.contains("- id: ipreuse-check"), "{config}");
    assert!(config.contains("- id: ipreuse "), "{config}");
    assert!(
        config.find("ipreuse-check") < config.find("- id: ipreuse "),
        "the check runs before the fill, which changes the working tree:\n{config}"
    );
}

#[test]
fn host_only_commit_fails_both_hooks_and_fill_writes_the_entry_into_the_unstaged_pool() {
    let s = Setup::new();
    s.write(
        "clusters/site-a/hosts/hosts.yaml",
        &hosts(&["node-1", "node-2"]),
    );
    s.stage(&["clusters/site-a/hosts/hosts.yaml"]);
    let c = s.commit("a host alone");
    assert!(
        !c.committed,
        "a host without its entries must not commit:\n{}",
        c.text
    );
    assert_eq!(c.check(), "Failed", "{}", c.text);
    assert!(
        names_missing(&c.text, "node-2-provisioning", "provisioning"),
        "the check names the missing entry:\n{}",
        c.text
    );
    assert_eq!(c.fill(), "Failed", "{}", c.text);
    assert!(
        c.text.contains("files were modified by this hook"),
        "{}",
        c.text
    );
    let filled = pool(
        "provisioning",
        0,
        &[
            ("node-1-provisioning", "172.22.0.100"),
            ("node-2-provisioning", "172.22.0.101"),
        ],
    );
    assert_eq!(
        s.read("clusters/site-a/pools/provisioning.yaml"),
        filled,
        "fill wrote the entry into the pool of the host's package:\n{}",
        c.text
    );
    s.assert_site_b_unchanged(&c.text);

    // The entry staged, the commit goes through.
    s.stage(&["clusters/site-a/pools/provisioning.yaml"]);
    let c = s.commit("a host and its entry");
    assert!(c.committed, "{}", c.text);
    assert_eq!((c.check(), c.fill()), ("Passed", "Passed"), "{}", c.text);
    assert_eq!(s.read("clusters/site-a/pools/provisioning.yaml"), filled);
}

#[test]
fn pools_only_commit_fails_both_hooks_and_fill_adds_the_existing_hosts() {
    let s = Setup::new();
    s.write(
        "clusters/site-a/pools/storage.yaml",
        &pool("storage", 2, &[]),
    );
    s.stage(&["clusters/site-a/pools/storage.yaml"]);
    let c = s.commit("a pool alone");
    assert!(
        !c.committed,
        "a pool without entries must not commit:\n{}",
        c.text
    );
    assert_eq!(c.check(), "Failed", "{}", c.text);
    assert!(
        names_missing(&c.text, "node-1-storage", "storage"),
        "the check names the missing entry:\n{}",
        c.text
    );
    assert_eq!(c.fill(), "Failed", "{}", c.text);
    assert!(
        c.text.contains("files were modified by this hook"),
        "{}",
        c.text
    );
    let filled = pool("storage", 2, &[("node-1-storage", "172.22.2.100")]);
    assert_eq!(
        s.read("clusters/site-a/pools/storage.yaml"),
        filled,
        "fill added the package's host, whose file was not staged:\n{}",
        c.text
    );
    s.assert_site_b_unchanged(&c.text);

    s.stage(&["clusters/site-a/pools/storage.yaml"]);
    let c = s.commit("a pool with its entries");
    assert!(c.committed, "{}", c.text);
    assert_eq!((c.check(), c.fill()), ("Passed", "Passed"), "{}", c.text);
}

#[test]
fn complete_commit_passes_both_hooks_and_changes_nothing() {
    let s = Setup::new();
    let pool_b = pool(
        "provisioning-b",
        1,
        &[
            ("node-7-provisioning-b", "172.22.1.100"),
            ("node-8-provisioning-b", "172.22.1.101"),
        ],
    );
    let pool_a = pool(
        "provisioning",
        0,
        &[
            ("node-1-provisioning", "172.22.0.100"),
            ("node-2-provisioning", "172.22.0.101"),
        ],
    );
    s.write("clusters/site-b/hosts.yaml", &hosts(&["node-7", "node-8"]));
    s.write("clusters/site-b/pool.yaml", &pool_b);
    s.write(
        "clusters/site-a/hosts/hosts.yaml",
        &hosts(&["node-1", "node-2"]),
    );
    s.write("clusters/site-a/pools/provisioning.yaml", &pool_a);
    s.stage(&["clusters"]);
    let c = s.commit("a host with its entry in each package");
    assert!(c.committed, "{}", c.text);
    assert_eq!((c.check(), c.fill()), ("Passed", "Passed"), "{}", c.text);
    // Same namespace, two packages: each is its own run, so neither pool gets the other
    // package's hosts.
    assert_eq!(s.read("clusters/site-b/pool.yaml"), pool_b);
    assert_eq!(s.read("clusters/site-a/pools/provisioning.yaml"), pool_a);
}

#[test]
fn invalid_entry_fails_both_hooks_and_nothing_is_written() {
    let s = Setup::new();
    let bad = pool(
        "provisioning",
        0,
        &[
            ("node-1-provisioning", "172.22.0.100"),
            ("node-2-provisioning", "10.9.9.9"),
        ],
    );
    s.write(
        "clusters/site-a/hosts/hosts.yaml",
        &hosts(&["node-1", "node-2"]),
    );
    s.write("clusters/site-a/pools/provisioning.yaml", &bad);
    s.stage(&["clusters"]);
    let c = s.commit("an address outside the pool");
    assert!(!c.committed, "{}", c.text);
    assert_eq!((c.check(), c.fill()), ("Failed", "Failed"), "{}", c.text);
    assert!(
        c.text.contains("node-2-provisioning") && c.text.contains("error"),
        "the error names the entry:\n{}",
        c.text
    );
    assert!(
        !c.text.contains("files were modified by this hook"),
        "{}",
        c.text
    );
    assert_eq!(s.read("clusters/site-a/pools/provisioning.yaml"), bad);
}
