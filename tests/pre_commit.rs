//! The pre-commit hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit` (PyPI) with
//! `try-repo` on a small Git repository holding two BareMetalHosts and an IPPool without
//! entries:
//!
//! - `ipreuse` (fill) rewrites the pool and fails, as pre-commit fails a hook that changes
//!   files; once the change is staged it passes;
//! - `ipreuse-check` fails with the results (what fill would add) and changes nothing; once
//!   the pool is filled and staged it passes.
//!
//! The hooks are `language: system`: the binary cargo built is put first on `PATH`. The hook
//! repository is a fresh Git repository holding this checkout's `.pre-commit-hooks.yaml`
//! (try-repo clones a Git repository, and the tests may run in a copy without `.git`).
//!
//! pre-commit must be installed: without it this test fails, it never skips. It is found as
//! `$IPREUSE_PRE_COMMIT` (a command), else `pre-commit` on `PATH`, else `python3 -m pre_commit`;
//! `.ci/run` installs the pinned version.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

const HOSTS: &str = "\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: node-1
  namespace: metal3
spec:
  online: true
---
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: node-2
  namespace: metal3
spec:
  online: true
";

const POOL: &str = "\
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: provisioning
  namespace: metal3
spec:
  namePrefix: test1-prov
  pools:
    - start: 172.22.0.100
      end: 172.22.0.200
  prefix: 24
  gateway: 172.22.0.1
";

/// The pool as the fill hook must leave it: the entries appended, nothing else changed.
fn filled_pool() -> String {
    format!(
        "{POOL}  preAllocations:\n    node-1-provisioning: \"172.22.0.100\"\n    node-2-provisioning: \"172.22.0.101\"\n"
    )
}

/// The pre-commit command line: program and leading arguments.
fn pre_commit() -> Vec<String> {
    let candidates: Vec<Vec<String>> = match std::env::var("IPREUSE_PRE_COMMIT") {
        Ok(cmd) if !cmd.trim().is_empty() => {
            vec![cmd.split_whitespace().map(str::to_string).collect()]
        }
        _ => vec![
            vec!["pre-commit".into()],
            vec!["python3".into(), "-m".into(), "pre_commit".into()],
        ],
    };
    for c in &candidates {
        if let Ok(out) = Command::new(&c[0]).args(&c[1..]).arg("--version").output()
            && out.status.success()
        {
            eprintln!("using {}", String::from_utf8_lossy(&out.stdout).trim());
            return c.clone();
        }
    }
    panic!(
        "pre-commit is not installed (tried {candidates:?}): `python3 -m pip install \
         pre-commit==4.7.0` (as .ci/run does), or set IPREUSE_PRE_COMMIT to its command"
    );
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

fn git(dir: &Path, args: &[&str]) {
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
    hooks: PathBuf,
    work: PathBuf,
    home: PathBuf,
    pre_commit: Vec<String>,
}

impl Setup {
    /// A hook repository with this checkout's `.pre-commit-hooks.yaml`, and a work repository
    /// with the hosts and the empty pool staged.
    fn new() -> Setup {
        let pre_commit = pre_commit();
        let tmp = tempfile::tempdir().expect("temp dir");
        let hooks = tmp.path().join("hooks");
        git_init(&hooks);
        let hooks_file = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
        std::fs::copy(&hooks_file, hooks.join(".pre-commit-hooks.yaml"))
            .unwrap_or_else(|e| panic!("{}: {e}", hooks_file.display()));
        git(&hooks, &["add", "."]);
        git(&hooks, &["commit", "-q", "-m", "hooks"]);
        let work = tmp.path().join("work");
        git_init(&work);
        std::fs::create_dir_all(work.join("cluster")).expect("mkdir");
        std::fs::write(work.join("cluster/hosts.yaml"), HOSTS).expect("write");
        std::fs::write(work.join("cluster/ippool.yaml"), POOL).expect("write");
        // Not Kubernetes objects: left out by the hooks' `exclude` of hidden files.
        std::fs::create_dir_all(work.join(".github/workflows")).expect("mkdir");
        std::fs::write(
            work.join(".github/workflows/ci.yaml"),
            "on: push\njobs: {}\n",
        )
        .expect("write");
        git(&work, &["add", "."]);
        let home = tmp.path().join("pre-commit-home");
        Setup {
            _tmp: tmp,
            hooks,
            work,
            home,
            pre_commit,
        }
    }

    /// `pre-commit try-repo HOOKS HOOK --verbose` in the work repository (on its staged files).
    fn try_repo(&self, hook: &str) -> (i32, String) {
        let out: Output = Command::new(&self.pre_commit[0])
            .args(&self.pre_commit[1..])
            .args(["try-repo", "--verbose", "--color", "never"])
            .arg(&self.hooks)
            .arg(hook)
            .current_dir(&self.work)
            .env("PATH", path_with_bin())
            .env("PRE_COMMIT_HOME", &self.home)
            .env_remove("PRE_COMMIT_COLOR")
            .output()
            .expect("run pre-commit");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code().expect("exit code"), text)
    }

    fn pool(&self) -> String {
        std::fs::read_to_string(self.work.join("cluster/ippool.yaml")).expect("read pool")
    }
}

#[test]
fn fill_hook_rewrites_the_pool_and_fails_the_commit_until_staged() {
    let s = Setup::new();
    let (code, out) = s.try_repo("ipreuse");
    assert_eq!(code, 1, "the fill hook must fail the commit:\n{out}");
    assert!(
        out.contains("files were modified by this hook"),
        "pre-commit says why:\n{out}"
    );
    assert_eq!(
        s.pool(),
        filled_pool(),
        "only the entries are added:\n{out}"
    );
    assert_eq!(
        std::fs::read_to_string(s.work.join("cluster/hosts.yaml")).expect("read"),
        HOSTS
    );
    // Staged, the commit goes through: nothing left to fill.
    git(&s.work, &["add", "cluster/ippool.yaml"]);
    let (code, out) = s.try_repo("ipreuse");
    assert_eq!(code, 0, "a filled pool passes:\n{out}");
    assert!(out.contains("Passed"), "{out}");
    assert_eq!(s.pool(), filled_pool());
}

#[test]
fn check_hook_fails_with_the_results_and_passes_once_filled() {
    let s = Setup::new();
    let (code, out) = s.try_repo("ipreuse-check");
    assert_eq!(code, 1, "the check hook must fail on an empty pool:\n{out}");
    // One line per missing entry, naming its file, host, pool and address.
    for (host, address) in [("node-1", "172.22.0.100"), ("node-2", "172.22.0.101")] {
        assert!(
            out.lines().any(|l| l.contains("cluster/ippool.yaml:")
                && l.contains(&format!(
                    "spec.preAllocations.{host}-provisioning: check: fill would add \
                     {host}-provisioning: \"{address}\" to IPPool"
                ))
                && l.contains(&format!("for BareMetalHost {host}"))),
            "the results are shown:\n{out}"
        );
    }
    assert!(
        !out.contains("files were modified by this hook"),
        "check changes nothing:\n{out}"
    );
    assert_eq!(s.pool(), POOL, "check changes nothing");
    // Filled (here by the fill hook) and staged, the check passes.
    let (code, out) = s.try_repo("ipreuse");
    assert_eq!(code, 1, "{out}");
    git(&s.work, &["add", "cluster/ippool.yaml"]);
    let (code, out) = s.try_repo("ipreuse-check");
    assert_eq!(code, 0, "a filled pool passes the check:\n{out}");
    assert!(out.contains("Passed"), "{out}");
    assert_eq!(s.pool(), filled_pool());
}

#[test]
fn check_hook_fails_on_an_invalid_entry() {
    let s = Setup::new();
    let bad = format!(
        "{POOL}  preAllocations:\n    node-1-provisioning: \"172.22.0.100\"\n    node-2-provisioning: \"10.9.9.9\"\n"
    );
    std::fs::write(s.work.join("cluster/ippool.yaml"), &bad).expect("write");
    git(&s.work, &["add", "."]);
    let (code, out) = s.try_repo("ipreuse-check");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("node-2-provisioning") && out.contains("error"),
        "the error names the entry:\n{out}"
    );
    assert_eq!(s.pool(), bad, "nothing written");
    // The fill hook refuses it too, and writes nothing.
    let (code, out) = s.try_repo("ipreuse");
    assert_eq!(code, 1, "{out}");
    assert_eq!(s.pool(), bad, "nothing written");
}
