//! `PATH` for the tools the tests start (kpt, kustomize, bash): the folder of the binary cargo
//! built for this test run first, so that `exec: ipreuse` in a Kptfile, `path: ipreuse` in a
//! kustomize function annotation and `ipreuse` in a shell find it as they find an installed
//! one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The binary under test, built by cargo for this test run.
pub const BUILT: &str = env!("CARGO_BIN_EXE_ipreuse");

/// The folder of [`BUILT`].
pub fn bin_dir() -> PathBuf {
    Path::new(BUILT)
        .parent()
        .expect("the binary has a folder")
        .to_path_buf()
}

/// `PATH` with `dirs` first, then the test's own `PATH`.
pub fn path_with(dirs: &[PathBuf]) -> OsString {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(dirs.iter().cloned().chain(std::env::split_paths(&rest)))
        .expect("the folders can be joined into PATH")
}

/// `PATH` with the built binary's folder first.
pub fn path_with_bin() -> OsString {
    path_with(&[bin_dir()])
}
