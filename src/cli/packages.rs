//! `--packages-of`: each named path stands for the package it belongs to (the pre-commit hooks,
//! which get the staged files, while a host and its pool often sit in different files).
//!
//! - A path's package is the nearest folder at or above it (a file's own folder, or a named
//!   folder itself) that holds a `Kptfile` or a kustomization (`kustomization.yaml`,
//!   `kustomization.yml`, `Kustomization`), looking no higher than the top of the Git work tree
//!   (the folder that holds `.git`); with none, the file's own folder (or the named folder).
//! - The packages are deduplicated, and a package inside another one is dropped: the outer
//!   one's walk reads its files, as kpt's pipeline of a package sees its subpackages.
//! - Each package is shown relative to the current folder when it lies below it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The files whose folder is a package's root.
pub const MARKERS: [&str; 4] = [
    "Kptfile",
    "kustomization.yaml",
    "kustomization.yml",
    "Kustomization",
];

/// The packages the named paths belong to, each once, outer packages only, sorted.
pub fn of(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let cwd = std::env::current_dir()
        .and_then(fs::canonicalize)
        .context("cannot read the current folder")?;
    let mut found = Vec::with_capacity(paths.len());
    for p in paths {
        let meta = fs::metadata(p).with_context(|| format!("cannot read {}", p.display()))?;
        let resolved =
            fs::canonicalize(p).with_context(|| format!("cannot read {}", p.display()))?;
        let start = if meta.is_dir() {
            resolved
        } else {
            match resolved.parent() {
                Some(dir) => dir.to_path_buf(),
                None => resolved,
            }
        };
        found.push(package_of(&start));
    }
    // A folder sorts before every path below it, so outer packages come first.
    found.sort();
    found.dedup();
    let mut outer: Vec<PathBuf> = Vec::with_capacity(found.len());
    for f in found {
        if !outer.iter().any(|o| f.starts_with(o)) {
            outer.push(f);
        }
    }
    Ok(outer.into_iter().map(|p| shown(p, &cwd)).collect())
}

/// The nearest folder at or above `start` holding a marker, within the Git work tree; else
/// `start`.
fn package_of(start: &Path) -> PathBuf {
    let mut dir = start;
    loop {
        if MARKERS.iter().any(|m| dir.join(m).is_file()) {
            return dir.to_path_buf();
        }
        if dir.join(".git").exists() {
            break;
        }
        match dir.parent() {
            Some(parent) => dir = parent,
            None => break,
        }
    }
    start.to_path_buf()
}

/// `path` relative to `cwd` when it lies below it (`.` for `cwd` itself), else as it is.
fn shown(path: PathBuf, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => path,
    }
}
