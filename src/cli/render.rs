//! Named paths as kpt nests packages (SPEC §1 "Kptfile"): which runs a file run makes, on which
//! files, with which Kptfile, in which order.
//!
//! - A package is a folder inside a named folder (or the named folder itself) that holds a
//!   `kpt.dev` Kptfile; a folder without one belongs to its nearest package above.
//! - kpt renders each subpackage with its own pipeline first, then the parent's pipeline on the
//!   parent's files and its rendered subpackages. So do the runs here: deepest package first,
//!   each on every file at or below its folder (as the runs before it left them).
//! - A package whose Kptfile runs no ipreuse step is not run by kpt; here neither, unless it is
//!   outermost (nothing above it would read its files): then it is run with `--config`, or the
//!   config among its inputs, as a folder without a Kptfile is.
//! - The files outside every package (named files, folders without a Kptfile above the
//!   packages) are one run of their own, with `--config` or the config among them.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::kptfile::{self, Kptfile};

/// One run of a file run.
#[derive(Debug)]
pub struct Unit {
    /// The package folder, when the run is a package's.
    pub package: Option<PathBuf>,
    /// The indices of the files the run reads, in the walk's order.
    pub members: Vec<usize>,
    /// The Kptfile whose ipreuse step configures the run (`None`: `--config`, or the config
    /// among the inputs).
    pub kptfile: Option<Kptfile>,
}

/// A package found under the named folders.
struct Package {
    dir: PathBuf,
    kptfile: Option<Kptfile>,
}

/// The runs for the named `paths`, whose walk read `files`, in the order to make them.
pub fn units(paths: &[PathBuf], files: &[PathBuf]) -> Result<Vec<Unit>> {
    let mut packages = Vec::new();
    for p in paths {
        if fs::metadata(p).is_ok_and(|m| m.is_dir()) {
            find(p, &mut packages)?;
        }
    }
    let depth = |p: &Path| p.components().count();
    // Deepest first (kpt renders subpackages before their parent); by name within a depth.
    packages.sort_by(|a, b| {
        depth(&b.dir)
            .cmp(&depth(&a.dir))
            .then_with(|| a.dir.cmp(&b.dir))
    });
    packages.dedup_by(|a, b| a.dir == b.dir);
    let mut units = Vec::new();
    let loose: Vec<usize> = (0..files.len())
        .filter(|&i| !packages.iter().any(|p| files[i].starts_with(&p.dir)))
        .collect();
    if !loose.is_empty() || packages.is_empty() {
        units.push(Unit {
            package: None,
            members: loose,
            kptfile: None,
        });
    }
    for (at, p) in packages.iter().enumerate() {
        let outermost = !packages
            .iter()
            .enumerate()
            .any(|(other, q)| other != at && p.dir != q.dir && p.dir.starts_with(&q.dir));
        if p.kptfile.is_none() && !outermost {
            continue;
        }
        let members: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].starts_with(&p.dir))
            .collect();
        units.push(Unit {
            package: Some(p.dir.clone()),
            members,
            kptfile: p.kptfile.clone(),
        });
    }
    Ok(units)
}

/// The packages at or below `dir`: hidden folders and symlinks to folders are not entered, as
/// the walk of the files does not enter them.
fn find(dir: &Path, found: &mut Vec<Package>) -> Result<()> {
    if let Some((_, kptfile)) = kptfile::read(dir)? {
        found.push(Package {
            dir: dir.to_path_buf(),
            kptfile,
        });
    }
    let mut subdirs = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            subdirs.push(entry.path());
        }
    }
    subdirs.sort();
    for sub in subdirs {
        find(&sub, found)?;
    }
    Ok(())
}
