//! The container image of the `Dockerfile`, built with the real podman from a host-built static
//! binary (`support/image.rs` says how), and run by the real kpt:
//!
//! - `image_is_small_non_root_and_labelled`: under 10 MB, user 65534, the
//!   `org.opencontainers.image.version` label equal to the version `ipreuse --version` prints
//!   (the ordinary build and the binary in the image), `.revision` the commit built,
//!   `.licenses` Apache-2.0;
//! - `a_wrong_or_missing_version_fails_the_build_context_build`: the Dockerfile's version check
//!   runs on the `--build-context builder=` path too (the builder stage is skipped there);
//! - `another_revision_gets_its_own_label_through_the_layer_cache`: podman's layer cache does
//!   not hand a build the revision label of an earlier one;
//! - `kpt_eval_image_matches_exec`: `KPT_FN_RUNTIME=podman kpt fn eval PKG --image` changes a
//!   copy of `examples/basic` byte for byte as `kpt fn eval --exec` does;
//! - `kpt_render_image_matches_exec`: the same with the Kptfile's mutator as `image:`, through
//!   `kpt fn render`;
//! - `kpt_eval_image_reports_errors`: `examples/errors` through the image fails, the messages
//!   on kpt's stderr, nothing changed;
//! - `argocd_sidecar_dockerfile_copies_the_binary_from_the_image`: the Argo CD sidecar's
//!   `Dockerfile` finds the binary where this image has it.
//!
//! podman and kpt must be installed: without them these tests fail, they never skip. podman
//! (with runc) is installed by root, which `cargo test` does not do, so every test here is
//! `#[ignore]`d: `cargo test --release -- --include-ignored` runs them (as `.ci/run` does, after
//! installing podman).

use crate::support::fs as fs_support;
use crate::support::image as support;
use crate::support::path as path_support;

use fs_support::copy_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{BIN, VERSION, image, inspect, podman, repo_root, run, run_ok, show};

/// `kpt`, or `$KPT`.
fn kpt() -> Command {
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    match Command::new(&kpt).arg("version").output() {
        Ok(out) if out.status.success() => {}
        other => panic!(
            "kpt not usable (`{kpt} version`: {other:?}). These tests need the real kpt \
             (1.0.0-beta.56) on PATH, or KPT=/path/to/kpt; they never skip."
        ),
    }
    let mut cmd = Command::new(kpt);
    cmd.env("KPT_FN_RUNTIME", "podman");
    cmd
}

/// A copy of `examples/NAME` in `tmp/WHERE/NAME`, its ipreuse step written as `step` (the
/// whole `- exec: ...` line of the Kptfile replaced).
fn package(name: &str, tmp: &Path, r#where: &str, step: &str) -> PathBuf {
    let pkg = tmp.join(r#where).join(name);
    copy_dir(&support::repo_root().join("examples").join(name), &pkg);
    let kptfile = pkg.join("Kptfile");
    let text = std::fs::read_to_string(&kptfile).expect("read Kptfile");
    let mut n = 0;
    let rewritten: String = text
        .split_inclusive('\n')
        .map(|line| {
            if line.trim_start().starts_with("- exec: ") {
                n += 1;
                let indent = &line[..line.len() - line.trim_start().len()];
                format!("{indent}- {step}\n")
            } else {
                line.to_string()
            }
        })
        .collect();
    assert_eq!(n, 1, "{name}: one `- exec:` step in the Kptfile");
    std::fs::write(&kptfile, rewritten).expect("write Kptfile");
    pkg
}

/// Every file of a package (relative path → bytes), `.expected/` left out.
fn files(pkg: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read dir") {
            let path = entry.expect("read dir").path();
            if path.file_name().is_some_and(|n| n == ".expected") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("prefix").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(pkg, pkg, &mut out);
    out
}

/// Asserts that two packages hold the same files, byte for byte (the Kptfile left out when
/// `with_kptfile` is false: it names the function differently on purpose).
fn assert_same_files(exec: &Path, image: &Path, with_kptfile: bool) {
    let mut a = files(exec);
    let mut b = files(image);
    if !with_kptfile {
        a.remove(Path::new("Kptfile"));
        b.remove(Path::new("Kptfile"));
    }
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (path, bytes) in &a {
        assert!(
            bytes == &b[path],
            "{} differs between the exec run and the image run:\n--- exec\n{}\n--- image\n{}",
            path.display(),
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&b[path])
        );
    }
}

fn kpt_ok(out: Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", show(&out));
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn image_is_small_non_root_and_labelled() {
    let image = image();
    let meta = inspect(image);
    let size = meta["Size"].as_u64().expect("Size");
    eprintln!("{image}: {size} bytes");
    assert!(
        size < 10_000_000,
        "{image} is {size} bytes, not under 10 MB"
    );
    assert_eq!(
        meta["Config"]["User"], "65534:65534",
        "the image runs as nobody (65534), not root"
    );
    assert_eq!(
        meta["Config"]["Entrypoint"],
        serde_json::json!(["/usr/local/bin/ipreuse"])
    );
    let labels = &meta["Config"]["Labels"];
    let label = &labels["org.opencontainers.image.version"];
    assert_eq!(label, VERSION, "the version label");
    assert_eq!(
        labels["org.opencontainers.image.revision"],
        support::revision(),
        "the revision label: the commit given as REVISION"
    );
    assert_eq!(
        labels["org.opencontainers.image.licenses"], "Apache-2.0",
        "the licence label: LICENSE's, Cargo.toml's"
    );
    let env = meta["Config"]["Env"].to_string();
    assert!(
        !env.contains("IPREUSE_EXPECT_VERSION"),
        "the version check's variable stays out of the image: {env}"
    );

    // The version the binaries print: the ordinary build, and the one in the image (run as
    // kpt runs functions: as nobody, without network).
    let host = run_ok(Command::new(BIN).arg("--version"));
    assert_eq!(host.trim(), format!("ipreuse {label}", label = VERSION));
    let inside = run_ok(Command::new(podman()).args([
        "run",
        "--rm",
        "--network",
        "none",
        "--user",
        "nobody",
        image,
        "--version",
    ]));
    assert_eq!(inside, host, "the image's binary and `ipreuse --version`");
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn a_wrong_or_missing_version_fails_the_build_context_build() {
    // Without a tag: a build that wrongly succeeded must not replace the image other tests use.
    let wrong = support::build_image(&["VERSION=0.0.0-wrong".to_string()], &[]);
    assert!(
        !wrong.status.success(),
        "a VERSION that is not the binary's was built: {}",
        show(&wrong)
    );
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        stderr.contains(&format!(
            "IPREUSE_EXPECT_VERSION is \"0.0.0-wrong\", but this binary is version {VERSION}"
        )),
        "the build says which versions differ: {}",
        show(&wrong)
    );
    let missing = support::build_image(&[], &[]);
    assert!(
        !missing.status.success(),
        "an image without VERSION was built: {}",
        show(&missing)
    );
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains(&format!(
            "IPREUSE_EXPECT_VERSION is \"\", but this binary is version {VERSION}"
        )),
        "{}",
        show(&missing)
    );
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn another_revision_gets_its_own_label_through_the_layer_cache() {
    image(); // the cached build of this commit exists first
    let tmp = tempfile::tempdir().expect("temp dir");
    let iid = tmp.path().join("iid");
    let revision = "0123456789abcdef0123456789abcdef01234567";
    let out = support::build_image(
        &[format!("VERSION={VERSION}"), format!("REVISION={revision}")],
        &["--iidfile", &iid.display().to_string()],
    );
    assert!(out.status.success(), "podman build: {}", show(&out));
    let id = std::fs::read_to_string(&iid).expect("the image id");
    let meta = inspect(id.trim());
    let _ = run(Command::new(podman()).args(["image", "rm", id.trim()]));
    assert_eq!(
        meta["Config"]["Labels"]["org.opencontainers.image.revision"], revision,
        "a build with another REVISION is labelled with it, not with the cached image's"
    );
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn kpt_eval_image_matches_exec() {
    let image = image();
    let tmp = tempfile::tempdir().expect("temp dir");
    let original = package("basic", tmp.path(), "original", "exec: unused");
    let exec = package("basic", tmp.path(), "exec", "exec: unused");
    let img = package("basic", tmp.path(), "image", "exec: unused");
    kpt_ok(
        run(kpt()
            .env("PATH", path_support::path_with_bin())
            .args(["fn", "eval"])
            .arg(&exec)
            .args(["--exec", "ipreuse", "--", "controllerFlag=false"])),
        "kpt fn eval --exec",
    );
    kpt_ok(
        run(kpt().args(["fn", "eval"]).arg(&img).args([
            "--image",
            image,
            "--",
            "controllerFlag=false",
        ])),
        "kpt fn eval --image",
    );
    assert_same_files(&exec, &img, true);
    // Not a vacuous comparison: the pools were filled.
    let pools = std::fs::read_to_string(img.join("ippools.yaml")).expect("read");
    assert_ne!(
        pools,
        std::fs::read_to_string(original.join("ippools.yaml")).expect("read")
    );
    assert!(
        pools.contains("node-10-provisioning-pool: \"172.22.0.14\""),
        "{pools}"
    );
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn kpt_render_image_matches_exec() {
    let image = image();
    let tmp = tempfile::tempdir().expect("temp dir");
    let exec = package("basic", tmp.path(), "exec", "exec: ipreuse");
    let img = package("basic", tmp.path(), "image", &format!("image: {image}"));
    let kptfile = std::fs::read_to_string(img.join("Kptfile")).expect("read");
    assert!(
        kptfile.contains(&format!("    - image: {image}\n")),
        "{kptfile}"
    );
    kpt_ok(
        run(kpt()
            .env("PATH", path_support::path_with_bin())
            .args(["fn", "render"])
            .arg(&exec)
            .arg("--allow-exec")),
        "kpt fn render (exec)",
    );
    kpt_ok(
        run(kpt().args(["fn", "render"]).arg(&img)),
        "kpt fn render (image)",
    );
    assert_same_files(&exec, &img, false);
    let pools = std::fs::read_to_string(img.join("ippools.yaml")).expect("read");
    assert!(
        pools.contains("node-10-baremetalv4-pool: \"192.168.111.104\""),
        "{pools}"
    );
}

#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn kpt_eval_image_reports_errors() {
    let image = image();
    let tmp = tempfile::tempdir().expect("temp dir");
    let original = package("errors", tmp.path(), "original", "exec: unused");
    let img = package("errors", tmp.path(), "image", "exec: unused");
    let out = run(kpt().args(["fn", "eval"]).arg(&img).args([
        "--image",
        image,
        "--",
        "controllerFlag=false",
    ]));
    assert!(
        !out.status.success(),
        "the errors must fail: {}",
        show(&out)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    for message in [
        "entry host-1-bmv4-pool = 10.1.0.99 is not an address this pool hands out",
        "entries host-2-bmv4-pool and host-4-bmv4-pool both hold 10.1.0.20",
        "has a leading zero in an octet",
        "10.1.0.11 is reserved: the gateway of spec.pools[0]",
    ] {
        assert!(
            stderr.contains(message),
            "kpt shows the function's error {message:?}: {}",
            show(&out)
        );
    }
    assert_same_files(&original, &img, true);
}

/// `functions/ipreuse/argocd/Dockerfile` (the Argo CD sidecar image) copies the binary from
/// where the ipreuse image has it. Argo CD's image cannot be pulled here, so the ipreuse image
/// itself stands in as the base (`ARGOCD_IMAGE`): what is checked is the copy from
/// `IPREUSE_IMAGE` at its default `IPREUSE_BIN`, the path on `PATH`, and the user 999 the
/// Argo CD image runs as.
#[test]
#[ignore = "needs podman and dockerd: .ci/run installs them; run cargo test --release -- --include-ignored"]
fn argocd_sidecar_dockerfile_copies_the_binary_from_the_image() {
    let image = image();
    let sidecar = format!("localhost/ipreuse-argocd-sidecar-test:{VERSION}");
    let dir = repo_root().join("functions/ipreuse/argocd");
    run_ok(
        Command::new(podman())
            .arg("build")
            .args(["--build-arg", &format!("IPREUSE_IMAGE={image}")])
            .args(["--build-arg", &format!("ARGOCD_IMAGE={image}")])
            .args(["--tag", &sidecar, "--file"])
            .arg(dir.join("Dockerfile"))
            .arg(&dir),
    );
    let meta = inspect(&sidecar);
    assert_eq!(meta["Config"]["User"], "999", "Argo CD's user");
    let inside = run_ok(Command::new(podman()).args([
        "run",
        "--rm",
        "--network",
        "none",
        "--entrypoint",
        "/usr/local/bin/ipreuse",
        &sidecar,
        "--version",
    ]));
    assert_eq!(inside.trim(), format!("ipreuse {VERSION}"));
    run_ok(Command::new(podman()).args(["image", "rm", &sidecar]));
}
