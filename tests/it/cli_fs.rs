//! The binary's file-system edge (SPEC §1): how named paths are walked (directory symlinks
//! not followed, each file read once) and how `--in-place` writes (all or nothing on disk).
//! Each test is named after the bug it holds down.

use crate::common;
use crate::support::slow_fsync;

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::os::unix::process::ExitStatusExt;
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

// ---------------------------------------------------------------------------------------------
// --in-place: all or nothing on disk
// ---------------------------------------------------------------------------------------------

/// One entry of a folder tree, as it is on disk.
#[derive(Debug, PartialEq, Eq)]
enum Node {
    Dir {
        mode: u32,
        owner: (u32, u32),
    },
    File {
        bytes: Vec<u8>,
        mode: u32,
        owner: (u32, u32),
    },
    Link(PathBuf),
}

/// Every entry under `root` (hidden ones too; symlinks not followed), by path.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Node> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Node>) {
        for entry in std::fs::read_dir(dir).expect("ls") {
            let path = entry.expect("entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("stat");
            let owner = (meta.uid(), meta.gid());
            let mode = meta.mode() & 0o7777;
            if meta.file_type().is_symlink() {
                out.insert(
                    path.clone(),
                    Node::Link(std::fs::read_link(&path).expect("link")),
                );
            } else if meta.is_dir() {
                out.insert(path.clone(), Node::Dir { mode, owner });
                walk(&path, out);
            } else {
                let bytes = std::fs::read(&path).expect("read");
                out.insert(path, Node::File { bytes, mode, owner });
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, &mut out);
    out
}

/// Asserts that the tree under `root` is exactly `before`: no file changed, none added (so no
/// temp file left), none removed.
fn assert_unchanged(root: &Path, before: &BTreeMap<PathBuf, Node>) {
    let after = snapshot(root);
    let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    let removed: Vec<_> = before.keys().filter(|k| !after.contains_key(*k)).collect();
    assert!(added.is_empty(), "left behind: {added:?}");
    assert!(removed.is_empty(), "removed: {removed:?}");
    for (path, node) in before {
        assert_eq!(after.get(path), Some(node), "{} changed", path.display());
    }
}

/// A pool file that `--in-place` fills (with `hosts.yaml` beside it).
fn pool_file(path: &Path, name: &str) {
    std::fs::write(path, pool_text(name)).expect("write");
}

/// Asserts that `path` holds the pool `name` with only an entry for node-2 and for node-10
/// added (pools of one namespace share the range, so the addresses depend on the others).
fn assert_filled(path: &Path, name: &str) {
    let after = std::fs::read_to_string(path).expect("read");
    let added = common::added_lines(&pool_text(name), &after);
    assert_eq!(added.len(), 3, "{}: {added:?}", path.display());
    assert_eq!(added[0], "  preAllocations:");
    for (line, host) in added[1..].iter().zip(["node-2", "node-10"]) {
        assert!(
            line.starts_with(&format!("    {host}-{name}: \"10.0.0.")),
            "{}: {line}",
            path.display()
        );
    }
}

fn in_place(paths: &[&Path]) -> Output {
    run_bounded(bin().arg("--in-place").args(paths), Duration::from_secs(60))
}

/// Asserts exit 2 (a file that cannot be written is the edge's error, like one that cannot be
/// read), that stderr says nothing was changed and holds every `needle`.
fn assert_refused(o: &Output, needles: &[&str]) {
    let stderr = text(&o.stderr);
    assert_eq!(code(o), 2, "stderr: {stderr}");
    assert!(stderr.contains("changed no file"), "stderr: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "stderr lacks {n:?}: {stderr}");
    }
}

fn uid_of_this_process() -> String {
    let out = Command::new("id").arg("-u").output().expect("run id -u");
    text(&out.stdout).trim().to_string()
}

fn chown(path: &Path, uid: u32, gid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(gid))
        .unwrap_or_else(|e| panic!("chown {}: {e}", path.display()));
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

const NOBODY: u32 = 65534;

/// The first folder used to be rewritten before the second turned out not to be writable, leaving
/// the package half-filled. Runs as an unprivileged user (`setpriv`, as root, as CI does): a
/// package where `a/` is writable by that user and `b/` is not.
#[test]
fn in_place_is_all_or_nothing_when_a_folder_is_not_writable() {
    assert_eq!(
        uid_of_this_process(),
        "0",
        "this test switches to uid {NOBODY} with setpriv, which needs root (CI runs as root)"
    );
    let setpriv = Command::new("setpriv").arg("--version").output();
    assert!(
        setpriv.as_ref().is_ok_and(|o| o.status.success()),
        "setpriv (util-linux) is needed to run ipreuse as an unprivileged user: {setpriv:?}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    chmod(root, 0o755);
    // the binary where the unprivileged user can run it
    let exe = root.join("ipreuse");
    std::fs::copy(env!("CARGO_BIN_EXE_ipreuse"), &exe).expect("copy binary");
    chmod(&exe, 0o755);
    let pkg = root.join("pkg");
    std::fs::create_dir_all(pkg.join("a")).expect("mkdir");
    std::fs::create_dir_all(pkg.join("b")).expect("mkdir");
    std::fs::write(pkg.join(HOSTS), hosts_text()).expect("write");
    pool_file(&pkg.join("a/pool-a.yaml"), "pa");
    pool_file(&pkg.join("b/pool-b.yaml"), "pb");
    // Both files and a/ belong to the user; b/ (root's, 0755) is the one thing it cannot write.
    for p in [
        pkg.join("a"),
        pkg.join("a/pool-a.yaml"),
        pkg.join("b/pool-b.yaml"),
    ] {
        chown(&p, NOBODY, NOBODY);
    }
    let as_nobody = || {
        let mut cmd = Command::new("setpriv");
        cmd.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--inh-caps=-all",
        ])
        .arg(&exe)
        .arg("--in-place")
        .arg(&pkg);
        run_bounded(&mut cmd, Duration::from_secs(60))
    };
    let before = snapshot(root);
    let out = as_nobody();
    assert_refused(
        &out,
        &[
            &pkg.join("b").display().to_string(),
            "make the folder writable",
        ],
    );
    assert_unchanged(root, &before);

    // The same user, with b/ now its own, fills both (and keeps each file's owner and mode).
    chown(&pkg.join("b"), NOBODY, NOBODY);
    chmod(&pkg.join("b/pool-b.yaml"), 0o640);
    let out = as_nobody();
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains("2 of 3 file(s) changed"));
    assert_filled(&pkg.join("a/pool-a.yaml"), "pa");
    assert_filled(&pkg.join("b/pool-b.yaml"), "pb");
    let meta = std::fs::metadata(pkg.join("b/pool-b.yaml")).expect("stat");
    assert_eq!((meta.mode() & 0o7777, meta.uid()), (0o640, NOBODY));

    // A file the user cannot write, in a folder it can: rename would replace it silently.
    pool_file(&pkg.join("a/pool-a.yaml"), "pa");
    chown(&pkg.join("a/pool-a.yaml"), 0, 0);
    chmod(&pkg.join("a/pool-a.yaml"), 0o644);
    let before = snapshot(root);
    let out = as_nobody();
    assert_refused(&out, &["pool-a.yaml", "cannot be written by this user"]);
    assert_unchanged(root, &before);
}

/// How many entries are under `root`, tolerating files that vanish while it counts.
fn count_entries(root: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(root) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => 1 + count_entries(&e.path()),
            _ => 1,
        })
        .sum()
}

/// Sends `signal` while the temp files are being written and checks that no temp file is left
/// and no file changed. The write is slowed down from outside, by the LD_PRELOAD shim
/// `support::slow_fsync` (each `fsync` of a temp file waits 5 s, or until a signal arrives); the
/// binary has no test hook.
fn interrupt_during_the_write(signal: rustix::process::Signal, name: &str) {
    let (dir, pkg) = package();
    for sub in ["a", "b", "c"] {
        std::fs::create_dir(pkg.join(sub)).expect("mkdir");
        pool_file(&pkg.join(sub).join(POOL), sub);
    }
    let before = snapshot(dir.path());
    let logs = tempfile::tempdir().expect("tempdir");
    let log = logs.path().join("fsync.log");
    let mut cmd = bin();
    cmd.arg("--in-place").arg(&pkg);
    let mut child = slow_fsync::slow_down(&mut cmd, 5000, &log)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ipreuse");
    // Wait until the binary, still running, is inside the shim's fsync of its first temp file:
    // the write phase has begun (the signal handlers are set) and the shim slows it down.
    let start = Instant::now();
    while slow_fsync::slowed_down(&log) == 0 || count_entries(dir.path()) == before.len() {
        if start.elapsed() > Duration::from_secs(30) || child.try_wait().expect("wait").is_some() {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "ipreuse was not seen inside a slowed fsync with a temp file written ({} slowed \
                 call(s), {} entries, {} before; is the shim loaded?): {}",
                slow_fsync::slowed_down(&log),
                count_entries(dir.path()),
                before.len(),
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    rustix::process::kill_process(rustix::process::Pid::from_child(&child), signal)
        .expect("send the signal");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("ipreuse did not stop on {name}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    assert_eq!(
        out.status.signal(),
        Some(signal.as_raw()),
        "ends by the signal, so a shell sees it: {:?}, stderr: {}",
        out.status,
        text(&out.stderr)
    );
    assert_unchanged(dir.path(), &before);
    assert!(
        text(&out.stderr).contains(&format!("interrupted by {name}")),
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(
        slow_fsync::slowed_down(&log),
        1,
        "the signal stops the write at the temp file being synced: no further temp file is written"
    );
}

/// Killing the write used to leave whatever temp file was open; now a signal before the
/// renames removes them all.
#[test]
fn in_place_leaves_no_temp_file_when_terminated() {
    interrupt_during_the_write(rustix::process::Signal::TERM, "SIGTERM");
}

#[test]
fn in_place_leaves_no_temp_file_when_interrupted() {
    interrupt_during_the_write(rustix::process::Signal::INT, "SIGINT");
}

/// A read-only file used to be replaced anyway (rename needs only the folder); now it is an
/// error before anything is renamed, even for root.
#[test]
fn in_place_refuses_a_read_only_file() {
    let (dir, pkg) = package();
    pool_file(&pkg.join("other.yaml"), "other");
    chmod(&pkg.join(POOL), 0o444);
    let before = snapshot(dir.path());
    let out = in_place(&[&pkg]);
    assert_refused(
        &out,
        &[
            &pkg.join(POOL).display().to_string(),
            "read-only",
            "chmod u+w",
        ],
    );
    assert_unchanged(dir.path(), &before);
}

/// A symlinked file used to be replaced by a regular file. A link whose target is inside the
/// named paths is written through (the link stays a link); any other link is refused.
#[test]
fn in_place_writes_through_a_symlink_inside_the_named_paths() {
    let (_dir, pkg) = package();
    std::fs::create_dir(pkg.join("real")).expect("mkdir");
    std::fs::rename(pkg.join(POOL), pkg.join("real").join(POOL)).expect("mv");
    symlink(Path::new("real").join(POOL), pkg.join(POOL)).expect("ln -s");
    let out = in_place(&[&pkg]);
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 of 2 file(s) changed"));
    assert_eq!(
        std::fs::read_link(pkg.join(POOL)).expect("still a link"),
        Path::new("real").join(POOL)
    );
    assert_filled(&pkg.join("real").join(POOL), "prov");
    let names: Vec<_> = snapshot(&pkg).into_keys().collect();
    assert_eq!(names.len(), 4, "no temp file left: {names:?}");

    // a link to a file outside the folder, which is named too
    let (dir, pkg) = package();
    let other = dir.path().join("other");
    std::fs::create_dir(&other).expect("mkdir");
    std::fs::rename(pkg.join(POOL), other.join(POOL)).expect("mv");
    symlink(Path::new("../other").join(POOL), pkg.join(POOL)).expect("ln -s");
    let out = in_place(&[&pkg, &other.join(POOL)]);
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(
        std::fs::symlink_metadata(pkg.join(POOL))
            .expect("stat")
            .is_symlink()
    );
    assert_filled(&other.join(POOL), "prov");
}

#[test]
fn in_place_refuses_a_symlink_to_a_file_outside_the_named_paths() {
    let (dir, pkg) = package();
    let other = dir.path().join("other");
    std::fs::create_dir(&other).expect("mkdir");
    std::fs::rename(pkg.join(POOL), other.join(POOL)).expect("mv");
    symlink(Path::new("../other").join(POOL), pkg.join(POOL)).expect("ln -s");
    let before = snapshot(dir.path());
    let out = in_place(&[&pkg]);
    let target = std::fs::canonicalize(other.join(POOL)).expect("resolve");
    assert_refused(
        &out,
        &[
            &pkg.join(POOL).display().to_string(),
            &target.display().to_string(),
            "outside the paths given",
        ],
    );
    assert_unchanged(dir.path(), &before);
}

/// A rename over a hard-linked file would leave its other names with the old text.
#[test]
fn in_place_refuses_a_hard_linked_file() {
    let (dir, pkg) = package();
    std::fs::hard_link(pkg.join(POOL), dir.path().join("copy.yaml")).expect("ln");
    let before = snapshot(dir.path());
    let out = in_place(&[&pkg]);
    assert_refused(&out, &[POOL, "2 hard links"]);
    assert_unchanged(dir.path(), &before);
}

/// The new file keeps the old one's permission bits, owner and group (as root, any owner).
#[test]
fn in_place_keeps_mode_and_owner() {
    let (_dir, pkg) = package();
    let pool = pkg.join(POOL);
    chmod(&pool, 0o640);
    chown(&pool, 1234, 4321);
    let out = in_place(&[&pkg]);
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert_filled(&pool, "prov");
    let meta = std::fs::metadata(&pool).expect("stat");
    assert_eq!(
        (meta.mode() & 0o7777, meta.uid(), meta.gid()),
        (0o640, 1234, 4321)
    );
}
