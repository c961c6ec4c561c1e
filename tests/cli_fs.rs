//! The binary's file-system edge (SPEC §1): how named paths are walked (directory symlinks
//! not followed, each file read once) and how `--in-place` writes (all or nothing on disk).
//! Each test is named after the bug it holds down.

mod common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{host, pool, range};
use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ipreuse"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("utf-8")
}

/// Runs the binary to its end, failing the test (instead of hanging it) after `limit`.
fn run_bounded(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ipreuse");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ipreuse did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(args: &[&Path]) -> Output {
    run_bounded(bin().args(args), Duration::from_secs(60))
}

fn code(o: &Output) -> i32 {
    o.status
        .code()
        .unwrap_or_else(|| panic!("ended by a signal: {:?}", o.status))
}

/// Hosts `node-2` and `node-10` and a pool `prov` that gets an entry for each.
const HOSTS: &str = "hosts.yaml";
const POOL: &str = "pool.yaml";

fn hosts_text() -> String {
    format!(
        "{}---\n{}",
        host("node-2", "m3").yaml(),
        host("node-10", "m3").yaml()
    )
}

fn pool_text(name: &str) -> String {
    format!(
        "# the {name} pool\n{}",
        pool(name, "m3")
            .range(range("10.0.0.10", "10.0.0.20"))
            .gateway("10.0.0.10")
            .yaml()
    )
}

/// The documents of the output, read back with serde-saphyr.
fn docs(o: &Output) -> Vec<Value> {
    common::json_docs(&text(&o.stdout))
}

/// Asserts a clean run whose output holds the three objects once, the pool filled.
fn assert_read_once(o: &Output) {
    let stderr = text(&o.stderr);
    assert_eq!(code(o), 0, "stderr: {stderr}");
    assert!(!stderr.contains("appears twice"), "stderr: {stderr}");
    let values = docs(o);
    let names: Vec<&str> = values
        .iter()
        .map(|v| v["metadata"]["name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, ["node-2", "node-10", "prov"], "each file once");
    let pre = &values[2]["spec"]["preAllocations"];
    assert_eq!(pre["node-2-prov"], "10.0.0.11");
    assert_eq!(pre["node-10-prov"], "10.0.0.12");
}

/// A package `pkg/` with `hosts.yaml` and `pool.yaml`, in a fresh temp folder.
fn package() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    std::fs::write(pkg.join(HOSTS), hosts_text()).expect("write");
    std::fs::write(pkg.join(POOL), pool_text("prov")).expect("write");
    (dir, pkg)
}

// ---------------------------------------------------------------------------------------------
// The folder walk
// ---------------------------------------------------------------------------------------------

/// `ln -s . pkg/self` used to give thousands of "appears twice" errors.
#[test]
fn walk_does_not_follow_a_symlink_to_its_own_folder() {
    let (_dir, pkg) = package();
    symlink(".", pkg.join("self")).expect("ln -s");
    let out = run(&[&pkg]);
    assert_read_once(&out);
    assert!(
        text(&out.stderr).contains("self is a symlink to a folder"),
        "the skipped link is named: {}",
        text(&out.stderr)
    );
}

/// Two links to parents used to make the walk hang with a growing memory.
#[test]
fn walk_does_not_hang_on_two_links_to_parents() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("pkg");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(pkg.join(sub)).expect("mkdir");
        symlink("..", pkg.join(sub).join("up")).expect("ln -s");
    }
    std::fs::write(pkg.join("a").join(HOSTS), hosts_text()).expect("write");
    std::fs::write(pkg.join("b").join(POOL), pool_text("prov")).expect("write");
    // Followed, these links give 2^40 paths before the kernel's symlink limit stops them.
    let out = run_bounded(bin().arg(&pkg), Duration::from_secs(30));
    assert_read_once(&out);
}

/// A folder named twice (also spelt differently) used to give "appears twice" errors.
#[test]
fn a_folder_named_twice_is_read_once() {
    let (dir, pkg) = package();
    assert_read_once(&run(&[&pkg, &pkg]));
    let other_spelling = dir.path().join("pkg/./");
    assert_read_once(&run(&[&pkg, &other_spelling]));
}

/// A file named twice, named and inside a named folder, or reached through a file symlink
/// beside it, is read once, under its first name.
#[test]
fn a_file_named_twice_is_read_once() {
    let (_dir, pkg) = package();
    let hosts = pkg.join(HOSTS);
    let pool = pkg.join(POOL);
    assert_read_once(&run(&[&hosts, &hosts, &pool]));
    assert_read_once(&run(&[&pkg, &pool]));
    assert_read_once(&run(&[&hosts, &pkg]));
    // a symlink to a file that the walk also finds
    symlink(POOL, pkg.join("zz-alias.yaml")).expect("ln -s");
    assert_read_once(&run(&[&pkg]));
}

/// A path named on the command line is followed even when it is a symlink to a folder.
#[test]
fn a_named_symlink_to_a_folder_is_followed() {
    let (dir, pkg) = package();
    let link = dir.path().join("link");
    symlink(&pkg, &link).expect("ln -s");
    assert_read_once(&run(&[&link]));
}

/// Hidden files and folders stay out of a walk, but a hidden file named on the command line is read.
#[test]
fn hidden_entries_are_skipped_in_a_walk_only() {
    let (_dir, pkg) = package();
    std::fs::create_dir(pkg.join(".expected")).expect("mkdir");
    std::fs::write(pkg.join(".expected").join(POOL), "not: [yaml").expect("write");
    std::fs::write(pkg.join(".hidden.yaml"), "not: [yaml").expect("write");
    assert_read_once(&run(&[&pkg]));
    let named = run(&[&pkg.join(".hidden.yaml")]);
    assert_eq!(
        code(&named),
        1,
        "a named hidden file is read (and is not YAML)"
    );
}

/// A broken symlink named like a resource is a broken package: a usage error naming it.
#[test]
fn a_broken_file_symlink_in_a_walk_is_an_error() {
    let (_dir, pkg) = package();
    symlink("gone.yaml", pkg.join("dangling.yaml")).expect("ln -s");
    let out = run(&[&pkg]);
    assert_eq!(code(&out), 2);
    assert!(text(&out.stderr).contains("dangling.yaml"));
    assert!(out.stdout.is_empty());
}

/// `--in-place` on a folder named twice writes each file once (not two runs' worth of entries).
#[test]
fn in_place_with_a_folder_named_twice_fills_once() {
    let (_dir, pkg) = package();
    let out = run_bounded(
        bin().arg("--in-place").arg(&pkg).arg(&pkg),
        Duration::from_secs(60),
    );
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 of 2 file(s) changed"));
    let after = std::fs::read_to_string(pkg.join(POOL)).expect("read");
    assert_eq!(
        common::added_lines(&pool_text("prov"), &after),
        [
            "  preAllocations:",
            "    node-2-prov: \"10.0.0.11\"",
            "    node-10-prov: \"10.0.0.12\""
        ]
    );
}
