//! The LD_PRELOAD shim that slows the binary's `fsync` down (`slow_fsync.c`), so that a test can
//! signal `--in-place` in the middle of its write without a test hook in the product.
//!
//! The shim is compiled with `cc -shared -fPIC` into `<target>/test-tools/slow_fsync.so` once
//! per test binary (a `OnceLock`), under an exclusive `flock` on `slow_fsync.lock` beside it
//! (several test runs on one target folder), written to a temp name and renamed so that a
//! process loading the old one is not disturbed. It is rebuilt on every run: a C file of
//! 60 lines compiles in well under a second, and a stale shim is never used. A missing or
//! failing `cc` fails the test with the command; it never skips.
//!
//! It only works on a binary that calls the C library's `fsync` dynamically (glibc here;
//! `File::sync_all` is `fsync` on Linux): `slowed_down` checks that the shim ran.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::tools::{cache_dir, lock_cache};

/// The environment variable that sets the wait before each `fsync` of a regular file, in ms.
pub const MS_VAR: &str = "SLOW_FSYNC_MS";

/// The environment variable naming the file the shim appends a line to per slowed call.
pub const LOG_VAR: &str = "SLOW_FSYNC_LOG";

/// The source of the shim.
const SOURCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/support/slow_fsync.c");

/// The shim's shared library, compiled on first use.
pub fn library() -> &'static Path {
    static LIBRARY: OnceLock<PathBuf> = OnceLock::new();
    LIBRARY.get_or_init(build)
}

/// Sets up `cmd` to run with the shim: each `fsync`/`fdatasync` of a regular file first waits
/// `ms` ms (or until a signal arrives), after appending a line to `log`.
pub fn slow_down<'a>(cmd: &'a mut Command, ms: u64, log: &Path) -> &'a mut Command {
    cmd.env("LD_PRELOAD", library())
        .env(MS_VAR, ms.to_string())
        .env(LOG_VAR, log)
}

/// The calls the shim slowed down, from its log (one line each; none when it never ran).
pub fn slowed_down(log: &Path) -> usize {
    match std::fs::read_to_string(log) {
        Ok(text) => text.lines().count(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => panic!("reading the shim's log {}: {e}", log.display()),
    }
}

fn build() -> PathBuf {
    let _lock = lock_cache("slow_fsync");
    let dir = cache_dir();
    let library = dir.join("slow_fsync.so");
    let partial = dir.join(format!("slow_fsync.so.{}", std::process::id()));
    let mut cc = Command::new("cc");
    cc.args([
        "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
    ])
    .arg(&partial)
    .arg(SOURCE)
    .arg("-ldl");
    match cc.output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "compiling the fsync shim failed: `{cc:?}` ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!(
            "compiling the fsync shim needs a C compiler: `{cc:?}` did not start ({e}); install one (cc on PATH)"
        ),
    }
    std::fs::rename(&partial, &library).unwrap_or_else(|e| {
        panic!(
            "renaming {} to {}: {e}",
            partial.display(),
            library.display()
        )
    });
    library
}
