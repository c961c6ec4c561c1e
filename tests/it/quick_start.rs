//! The README's quick start, run as a user reads it: after `cargo install`, from the checkout
//! and from `/`.
//!
//! The commands are the ` ```sh ` blocks of the README's "## Quick start" section (up to the
//! next `## ` heading), taken as they are written. The first block is the checkout's (it installs
//! the binary with `cargo install --locked --path .` and copies the example packages to a
//! scratch folder, `$demo`); the others use only `$demo` and the tools on `PATH`. Each test
//! writes them into one bash script, `set -euxo pipefail` first, the first block run from the
//! repository root, then `cd` to where the test starts the rest:
//!
//! - `from_the_repository_root`: the rest from the repository root;
//! - `from_the_filesystem_root`: the rest from `/`, where no relative path of the repository
//!   resolves (a Kptfile's `exec:` or a kustomize `path:` with a `/` would fail there).
//!
//! The README's `cargo install` runs as written, with `CARGO_INSTALL_ROOT` set to a folder of
//! the test (its `bin/` first on `PATH`: the only `ipreuse` the commands can find, checked) and
//! `CARGO_TARGET_DIR` to the target folder of this test run, so that cargo reuses the release
//! build of `cargo test --release` (a copy, about a second); under a debug `cargo test` it is a
//! full release build (minutes). kustomize is 4.5.4 from `support/tools.rs` (installed by the
//! tests on first use, or `$IPREUSE_KUSTOMIZE`), linked as `kustomize` into a folder first on
//! `PATH`; kpt and kubectl are those on `PATH`. These tests fail, never skip, without them.
//!
//! Left out of the run, and only these (each must be a line of the quick start, so that the
//! list cannot go stale): the commands that need a container runtime and the image, covered
//! where the image is built (`NEEDS_A_CONTAINER_RUNTIME`).

use crate::support::path as path_support;
use crate::support::tools;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Lines of the quick start not run here (by how they start), with the test that runs them.
const NEEDS_A_CONTAINER_RUNTIME: [(&str, &str, &str); 2] = [
    (
        "kpt fn eval \"$demo/eval\" --image localhost/ipreuse:",
        "tests/it/image.rs",
        "kpt_eval_image_matches_exec",
    ),
    (
        "kubectl kustomize --enable-alpha-plugins \"$demo/kustomize/container\"",
        "tests/it/kustomize.rs",
        "container_function_gives_the_same_resources",
    ),
];

/// The line the first block must hold: the install the README tells a user to run.
const INSTALL: &str = "cargo install --locked --path .";

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The ` ```sh ` blocks of the README's "## Quick start" section, in order.
fn quick_start_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("read README.md");
    let start = readme
        .find("\n## Quick start\n")
        .expect("the README has a \"## Quick start\" section");
    let section = &readme[start + 1..];
    let section = match section[3..].find("\n## ") {
        Some(end) => &section[..end + 3],
        None => section,
    };
    assert!(
        !section.contains("target/release"),
        "the quick start names the installed `ipreuse`, not a build folder:\n{section}"
    );
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in section.lines() {
        match &mut current {
            None if line == "```sh" => current = Some(String::new()),
            None => {}
            Some(_) if line == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    assert!(
        current.is_none(),
        "an unclosed ```sh block in the quick start"
    );
    assert!(
        blocks.len() >= 2,
        "the quick start has its checkout block and at least one more: {blocks:?}"
    );
    assert!(
        blocks[0].lines().any(|l| l.starts_with(INSTALL)),
        "the quick start's first block installs the binary with `{INSTALL}`:\n{}",
        blocks[0]
    );
    blocks
}

/// The blocks with the lines that need a container runtime left out (each found exactly
/// once, its covering test present).
fn runnable(blocks: &[String]) -> Vec<String> {
    for (prefix, file, test) in NEEDS_A_CONTAINER_RUNTIME {
        let found = blocks
            .iter()
            .flat_map(|b| b.lines())
            .filter(|l| l.starts_with(prefix))
            .count();
        assert_eq!(
            found, 1,
            "the quick start has one line starting `{prefix}` (left out here); update \
             NEEDS_A_CONTAINER_RUNTIME with the README"
        );
        let covering = std::fs::read_to_string(repo_root().join(file)).expect("read the test");
        assert!(
            covering.contains(&format!("fn {test}()")),
            "{file} has the test that runs `{prefix}`: {test}"
        );
    }
    blocks
        .iter()
        .map(|b| {
            b.lines()
                .filter(|l| {
                    !NEEDS_A_CONTAINER_RUNTIME
                        .iter()
                        .any(|(p, _, _)| l.starts_with(p))
                })
                .map(|l| format!("{l}\n"))
                .collect()
        })
        .collect()
}

/// A tool on `PATH`, checked: the test fails, never skips, without it.
fn require(tool: &str, args: &[&str], path: &std::ffi::OsStr) {
    match Command::new(tool).args(args).env("PATH", path).output() {
        Ok(out) if out.status.success() => {}
        other => panic!(
            "`{tool} {}` does not run ({other:?}): the quick start needs kpt, kubectl and \
             kustomize (4.5.4, which the tests install; IPREUSE_KUSTOMIZE=/path/to/kustomize) on \
             PATH; this test never skips",
            args.join(" ")
        ),
    }
}

/// The target folder of this test run (the one holding the binary cargo built).
fn target_dir() -> PathBuf {
    path_support::bin_dir()
        .parent()
        .expect("the binary lives in <target>/<profile>")
        .to_path_buf()
}

/// Runs the quick start with bash: the first block from the repository root, the rest from
/// `start`. Returns the output, the install root and the `$demo` folder.
fn run_quick_start(start: &Path) -> (Output, tempfile::TempDir, PathBuf) {
    let blocks = runnable(&quick_start_blocks());
    let tmp = tempfile::Builder::new()
        .prefix("ipreuse-quick-start-")
        .tempdir()
        .expect("temp dir");
    let install_root = tmp.path().join("install");
    let tool_dir = tmp.path().join("tools");
    let scratch = tmp.path().join("tmp");
    std::fs::create_dir_all(&tool_dir).expect("mkdir");
    std::fs::create_dir_all(&scratch).expect("mkdir");
    std::os::unix::fs::symlink(tools::kustomize(), tool_dir.join("kustomize")).expect("symlink");
    let dirs = vec![install_root.join("bin"), tool_dir];
    let path = path_support::path_with(&dirs);
    require("kpt", &["version"], &path);
    require("kubectl", &["version", "--client"], &path);
    require("kustomize", &["version"], &path);

    let mut script = String::from("set -euxo pipefail\n");
    script.push_str(&blocks[0]);
    script.push_str(&format!("cd '{}'\n", start.display()));
    for block in &blocks[1..] {
        script.push_str(block);
    }
    // For the test's own checks: which ipreuse the commands ran, and where $demo is.
    script.push_str("printf 'QUICK-START %s %s\\n' \"$(type -P ipreuse)\" \"$demo\"\n");
    let script_file = tmp.path().join("quick-start.sh");
    std::fs::write(&script_file, &script).expect("write the script");

    let out = Command::new("bash")
        .arg(&script_file)
        .current_dir(repo_root())
        .env("PATH", &path)
        .env("TMPDIR", &scratch)
        .env("CARGO_INSTALL_ROOT", &install_root)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "the quick start failed ({}), run from {}:\n--- script\n{script}--- stdout\n{}--- stderr\n{}",
        out.status,
        start.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout
        .lines()
        .rfind(|l| l.starts_with("QUICK-START "))
        .expect("the script's last line");
    let mut words = last.split(' ').skip(1);
    let ran = words.next().expect("the ipreuse the script ran");
    let demo = PathBuf::from(words.next().expect("$demo"));
    assert_eq!(
        Path::new(ran),
        install_root.join("bin/ipreuse"),
        "the commands ran the ipreuse `cargo install` put on PATH"
    );
    assert!(
        demo.starts_with(&scratch),
        "$demo is a scratch folder (mktemp -d): {}",
        demo.display()
    );
    (out, tmp, demo)
}

/// What the run must have done, whatever folder it started from.
fn assert_did_the_work(out: &Output, demo: &Path) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    // `ipreuse --in-place` filled the copy of examples/basic (and left the repository alone).
    let pools = std::fs::read_to_string(demo.join("basic/ippools.yaml")).expect("read");
    assert!(
        pools.contains("node-10-provisioning-pool: \"172.22.0.14\""),
        "ipreuse --in-place filled the copy:\n{pools}"
    );
    let original =
        std::fs::read_to_string(repo_root().join("examples/basic/ippools.yaml")).expect("read");
    assert!(!original.contains("node-10-provisioning-pool"));
    // `kpt fn eval --exec` filled its own copy (a copy the in-place run did not fill first, so
    // that the eval shows its change rather than "kept").
    let evaluated = std::fs::read_to_string(demo.join("eval/ippools.yaml")).expect("read");
    assert!(
        evaluated.contains("node-10-provisioning-pool: \"172.22.0.14\""),
        "kpt fn eval filled its copy:\n{evaluated}"
    );
    // `plan --format hosts`: a line for node-10's provisioning address.
    assert!(
        stdout.lines().any(|l| l.starts_with("172.22.0.14\t")),
        "ipreuse plan --format hosts printed node-10's address:\n{stdout}"
    );
    // `kpt fn render` of the pipeline ran both steps from PATH and passed.
    let results =
        std::fs::read_to_string(demo.join("results/results.yaml")).expect("kpt's results.yaml");
    assert!(results.contains("\nexitCode: 0\n"), "{results}");
    assert_eq!(
        results.matches("  - exec: ipreuse\n").count(),
        2,
        "the mutator and the validator: {results}"
    );
    let ippool = std::fs::read_to_string(demo.join("kpt-pipeline/ippool.yaml")).expect("read");
    assert!(
        ippool.contains("node-3-provisioning: \"172.22.0.101\""),
        "the render wrote the mutator's entries:\n{ippool}"
    );
    // The kustomize exec build and the pipe printed the filled pools.
    assert!(
        stdout.matches("node-10-baremetalv4-pool: ").count() >= 2,
        "the exec build and the pipe each printed the new entry:\n{stdout}"
    );
}

#[test]
fn from_the_repository_root() {
    let (out, _tmp, demo) = run_quick_start(repo_root());
    assert_did_the_work(&out, &demo);
}

#[test]
fn from_the_filesystem_root() {
    let (out, _tmp, demo) = run_quick_start(Path::new("/"));
    assert_did_the_work(&out, &demo);
}

#[test]
fn the_quick_start_blocks_are_found() {
    let blocks = quick_start_blocks();
    let runnable = runnable(&blocks);
    let lines: Vec<&str> = runnable.iter().flat_map(|b| b.lines()).collect();
    // Every way the section shows is in the run: files, kpt exec and render, kustomize, pipe.
    for start in [
        "ipreuse --in-place ",
        "ipreuse --mode check ",
        "ipreuse plan --format hosts ",
        "kpt fn eval \"$demo/eval\" --exec ipreuse",
        "kpt fn render ",
        "kustomize build --enable-alpha-plugins --enable-exec ",
        "set -o pipefail; kubectl kustomize ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(start)),
            "the run holds a line starting `{start}`: {lines:#?}"
        );
    }
}
