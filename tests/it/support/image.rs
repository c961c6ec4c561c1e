//! The container image of the repository's `Dockerfile`, built for a test run with the real
//! podman (shared by the `image` and `kustomize` modules).
//!
//! No base image can be pulled on the machines the tests run on, so the image is built the
//! second way the Dockerfile documents: the static binary is built on the host
//! (`cargo build --profile image --target x86_64-unknown-linux-gnu` with `crt-static`, in the
//! target folder of this test run), and `podman build --build-context builder=DIR --target image`
//! takes it in place of the Rust builder stage. Everything else in the image (labels,
//! `/etc/passwd`, user, entrypoint) comes from the Dockerfile as it is.
//!
//! podman must be installed and able to run containers: without it these tests fail, they
//! never skip. It is `$IPREUSE_PODMAN` (a command), else `podman` on `PATH`; its configuration
//! comes from the environment (`CONTAINERS_CONF`, `CONTAINERS_STORAGE_CONF`), as `.ci/run` sets
//! it up.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The binary under test (the ordinary release build).
pub const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

/// The crate's version: the image's tag and its `org.opencontainers.image.version` label.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The static binary's target: explicit, so that `crt-static` reaches only the binary.
pub const TARGET: &str = "x86_64-unknown-linux-gnu";

/// The image's name, as the examples and the README write it.
pub fn image_name() -> String {
    format!("localhost/ipreuse:{VERSION}")
}

pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The podman command, checked once: `podman info` must work.
pub fn podman() -> &'static str {
    static PODMAN: OnceLock<String> = OnceLock::new();
    PODMAN.get_or_init(|| {
        let podman = std::env::var("IPREUSE_PODMAN")
            .ok()
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| "podman".to_string());
        let how = "These tests need podman able to run containers: `apt-get install -y podman runc`, \
                   then the containers.conf and storage.conf of docs/running.md's \"What the image and \
                   kustomize tests need\" in CONTAINERS_CONF and CONTAINERS_STORAGE_CONF (as .ci/run does); \
                   IPREUSE_PODMAN=/path/to/podman picks another podman. They never skip.";
        match Command::new(&podman)
            .args(["info", "--format", "{{.Host.OCIRuntime.Name}}"])
            .output()
        {
            Ok(out) if out.status.success() => {
                eprintln!(
                    "using {podman} (runtime {})",
                    String::from_utf8_lossy(&out.stdout).trim()
                );
                podman
            }
            Ok(out) => panic!(
                "`{podman} info` failed ({}): {}\n{how}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) => panic!("podman not found (`{podman}`: {e}).\n{how}"),
        }
    })
}

/// A command's output, with the command line for messages.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// Panics with stdout and stderr unless the command succeeded; returns stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?}: {}", show(&out));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// An output for messages.
pub fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The folder the static binary is built in: `<target>/x86_64-unknown-linux-gnu/image`, in
/// the target folder of this test run (the one holding `BIN`), so that it is built once.
pub fn static_dir() -> PathBuf {
    let target = Path::new(BIN)
        .parent()
        .and_then(Path::parent)
        .expect("the binary lives in <target>/release");
    target.join(TARGET).join("image")
}

/// Builds the static binary (a no-op when it is up to date) and returns its path.
pub fn static_binary() -> &'static Path {
    static STATIC: OnceLock<PathBuf> = OnceLock::new();
    STATIC.get_or_init(|| {
        let dir = static_dir();
        let target_dir = dir.parent().and_then(Path::parent).expect("target folder");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(repo_root())
            .args([
                "build",
                "--locked",
                "--profile",
                "image",
                "--target",
                TARGET,
            ])
            .arg("--target-dir")
            .arg(target_dir)
            .env("RUSTFLAGS", "-C target-feature=+crt-static")
            .env_remove("CARGO_ENCODED_RUSTFLAGS");
        run_ok(&mut cmd);
        let bin = dir.join("ipreuse");
        assert!(bin.is_file(), "cargo built no {}", bin.display());
        bin
    })
}

/// The image's REVISION: the commit the repository is at (`git rev-parse HEAD`), or, in a copy
/// without `.git` (a source tarball; `.ci/run`'s lone copy), a value made up for this run: the
/// tests check that the label carries what was given, whatever it is.
pub fn revision() -> &'static str {
    static REVISION: OnceLock<String> = OnceLock::new();
    REVISION.get_or_init(|| {
        let head = run(Command::new("git")
            .current_dir(repo_root())
            .args(["rev-parse", "HEAD"]));
        let text = String::from_utf8_lossy(&head.stdout).trim().to_string();
        if head.status.success() && text.len() == 40 {
            return text;
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("no-git-checkout-{nanos}")
    })
}

/// `podman build --build-context builder=<static binary's folder> --target image` of the
/// repository's Dockerfile with these build arguments (`NAME=VALUE`) and extra arguments.
pub fn build_image(build_args: &[String], extra: &[&str]) -> Output {
    let bin = static_binary();
    let mut cmd = Command::new(podman());
    cmd.arg("build").arg("--build-context").arg(format!(
        "builder={}",
        bin.parent().expect("binary folder").display()
    ));
    for arg in build_args {
        cmd.args(["--build-arg", arg]);
    }
    cmd.args(["--target", "image"])
        .args(extra)
        .arg("--file")
        .arg(repo_root().join("Dockerfile"))
        .arg(repo_root());
    run(&mut cmd)
}

/// Builds the image's final stage from the static binary, tagged `localhost/ipreuse:VERSION`,
/// with VERSION and REVISION (this commit), once per test binary; returns its name.
pub fn image() -> &'static str {
    static IMAGE: OnceLock<String> = OnceLock::new();
    IMAGE.get_or_init(|| {
        let name = image_name();
        let out = build_image(
            &[
                format!("VERSION={VERSION}"),
                format!("REVISION={}", revision()),
            ],
            &["--tag", &name],
        );
        assert!(out.status.success(), "podman build: {}", show(&out));
        name
    })
}

/// `podman image inspect IMAGE`, parsed.
pub fn inspect(image: &str) -> serde_json::Value {
    let text = run_ok(Command::new(podman()).args(["image", "inspect", image]));
    let all: serde_json::Value = serde_json::from_str(&text).expect("inspect prints JSON");
    all[0].clone()
}
