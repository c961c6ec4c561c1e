//! What the binary reads when it is given paths: a folder named like a subcommand (`plan`,
//! `schema`) and `--packages-of`, which turns each path into the package it belongs to (the
//! pre-commit hooks; tests/it/pre_commit.rs runs them). Each test runs the built binary on files in
//! a temp folder.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The binary, run in `dir` with `args`, stdin empty.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ipreuse"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run ipreuse")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("an exit code")
}

const HOST: &str = "\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: node-1
  namespace: metal3
";

const POOL: &str = "\
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: prov
  namespace: metal3
spec:
  namePrefix: prov
  pools:
    - start: 172.22.0.100
      end: 172.22.0.200
  prefix: 24
";

const KPTFILE: &str = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n";

fn write(root: &Path, rel: &str, body: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    std::fs::write(&path, body).expect("write");
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).expect("read")
}

/// A temp folder holding the folders `plan/` and `schema/`, each a host and an empty pool.
fn folders_named_like_subcommands() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    for dir in ["plan", "schema"] {
        write(tmp.path(), &format!("{dir}/hosts.yaml"), HOST);
        write(tmp.path(), &format!("{dir}/pool.yaml"), POOL);
    }
    tmp
}

#[test]
fn a_subcommand_that_is_also_a_folder_here_is_refused_with_both_spellings() {
    let tmp = folders_named_like_subcommands();
    for word in ["plan", "schema"] {
        let o = run_in(tmp.path(), &[word]);
        let err = text(&o.stderr);
        assert_eq!(code(&o), 2, "{word}: {err}");
        assert!(o.stdout.is_empty(), "{word}: nothing runs");
        assert!(
            err.contains(&format!("`ipreuse ./{word}`"))
                && err.contains(&format!("`ipreuse -- {word}`"))
                && err.contains(&format!("`ipreuse {word} ")),
            "{word}: says how to read the folder and how to run the subcommand: {err}"
        );
        assert_eq!(read(tmp.path(), &format!("{word}/pool.yaml")), POOL);
    }
    // Options after the word do not make it a path either: still ambiguous, still refused.
    let o = run_in(tmp.path(), &["plan", "--format", "csv"]);
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
}

#[test]
fn a_folder_named_like_a_subcommand_is_read_after_dashes_or_as_dot_slash() {
    let tmp = folders_named_like_subcommands();
    for word in ["plan", "schema"] {
        for args in [
            vec!["--mode", "check", "--", word],
            vec!["--mode", "check", &format!("./{word}")],
            vec!["--mode", "check", &format!("{word}/")],
        ] {
            let o = run_in(tmp.path(), &args);
            assert_eq!(
                code(&o),
                1,
                "{args:?} reads the folder, whose pool misses an entry: {}",
                text(&o.stderr)
            );
        }
        let o = run_in(tmp.path(), &["--in-place", "--", word]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert!(
            read(tmp.path(), &format!("{word}/pool.yaml"))
                .contains("node-1-prov: \"172.22.0.100\""),
            "`ipreuse --in-place -- {word}` filled the folder"
        );
    }
}

#[test]
fn a_subcommand_followed_by_dashes_runs_even_beside_a_folder_of_its_name() {
    let tmp = folders_named_like_subcommands();
    let o = run_in(tmp.path(), &["plan", "--format", "csv", "--", "plan"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("metal3,node-1,prov,172.22.0.100,new"),
        "the plan of the folder: {out}"
    );
    let o = run_in(tmp.path(), &["schema", "--"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("kind: CustomResourceDefinition"));
    // Where no such folder is, the bare subcommand runs as it always did.
    let empty = tempfile::tempdir().expect("temp dir");
    let o = run_in(empty.path(), &["schema"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("kind: CustomResourceDefinition"));
}

fn git_init(dir: &Path) {
    let out = Command::new("git")
        .args(["init", "-q"])
        .arg(dir)
        .output()
        .expect("git must be installed");
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn packages_of_a_host_file_reads_the_pools_of_its_kptfile_package() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let repo = tmp.path();
    git_init(repo);
    write(repo, "clusters/site/Kptfile", KPTFILE);
    write(repo, "clusters/site/hosts/hosts.yaml", HOST);
    write(repo, "clusters/site/pools/pool.yaml", POOL);
    let host = "clusters/site/hosts/hosts.yaml";
    // Without it, the host's file alone is read: nothing to fill.
    let o = run_in(repo, &["--mode", "check", "--in-place", host]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let o = run_in(
        repo,
        &["--mode", "check", "--in-place", "--packages-of", host],
    );
    assert_eq!(
        code(&o),
        1,
        "the package's pool misses the host: {}",
        text(&o.stderr)
    );
    let o = run_in(repo, &["--in-place", "--packages-of", host]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        read(repo, "clusters/site/pools/pool.yaml").contains("node-1-prov: \"172.22.0.100\""),
        "fill wrote the entry into the pool of the host's package"
    );
}

#[test]
fn packages_of_without_a_kptfile_or_kustomization_reads_the_file_folder_and_named_folders() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let repo = tmp.path();
    git_init(repo);
    write(repo, "site/hosts/hosts.yaml", HOST);
    write(repo, "site/pools/pool.yaml", POOL);
    let host = "site/hosts/hosts.yaml";
    // No marker: the package is the host's own folder, which holds no pool.
    let o = run_in(repo, &["--mode", "check", "--packages-of", host]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    // The folder named too (a hook's `args`) is read whole, the file inside it once.
    let o = run_in(
        repo,
        &[
            "--mode",
            "check",
            "--in-place",
            "--packages-of",
            "site",
            host,
        ],
    );
    assert_eq!(code(&o), 1, "{}", text(&o.stderr));
    let o = run_in(repo, &["--in-place", "--packages-of", "site", host]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("1 of 2 file(s) changed"),
        "each file read once: {}",
        text(&o.stderr)
    );
}

#[test]
fn packages_of_looks_no_higher_than_the_git_work_tree() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // A Kptfile and a pool above the repository: not part of any package inside it.
    write(tmp.path(), "Kptfile", KPTFILE);
    write(tmp.path(), "pool.yaml", POOL);
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git_init(&repo);
    write(&repo, "hosts/hosts.yaml", HOST);
    let o = run_in(
        &repo,
        &["--mode", "check", "--packages-of", "hosts/hosts.yaml"],
    );
    assert_eq!(
        code(&o),
        0,
        "the pool above the work tree is not read: {}",
        text(&o.stderr)
    );
    assert_eq!(read(tmp.path(), "pool.yaml"), POOL);
}

#[test]
fn packages_of_needs_paths() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let o = run_in(tmp.path(), &["--packages-of"]);
    assert_eq!(code(&o), 2, "not stdin: {}", text(&o.stderr));
}
