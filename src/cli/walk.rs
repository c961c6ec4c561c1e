//! Reading the named paths (SPEC §1): files as named, folders walked for `*.yaml` / `*.yml`.
//!
//! - A path named on the command line is followed even when it is a symlink (the user named it).
//! - Inside a walk, symlinks to folders are not followed (no loops, no file reached by two
//!   routes); symlinks to files are read like files.
//! - Hidden files and folders (`.expected/`, `.git/`) are skipped inside a walk.
//! - Each file is read once: a file reached twice (named twice, named and inside a named
//!   folder, or through a file symlink) is identified by device and inode, and keeps the
//!   first name in the stable order (named paths in order, each folder's files sorted).

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ipreuse::krm::{self, Source, TextError};

/// What the named paths hold.
pub struct Named {
    /// The files read, each once, in order; `sources[i]` is the text of `files[i]`.
    pub files: Vec<PathBuf>,
    pub sources: Vec<Source>,
    /// The named paths themselves, resolved: what "inside the named paths" means.
    pub roots: Vec<Root>,
    /// Symlinks to folders met during a walk and not followed.
    pub skipped_links: Vec<PathBuf>,
}

/// One named path, with every symlink resolved (`None` when it cannot be, as for a pipe
/// like `<(kustomize build)`: nothing can be inside it).
pub struct Root {
    pub canonical: Option<PathBuf>,
    pub is_dir: bool,
}

impl Named {
    /// The named paths of several runs (`--packages-of`), for one all-or-nothing write. A file
    /// reached from two of them (a file symlink across packages) is refused: two runs would
    /// each write their own text into it.
    pub fn merge(all: Vec<Named>) -> Result<Named> {
        let mut merged = Named {
            files: Vec::new(),
            sources: Vec::new(),
            roots: Vec::new(),
            skipped_links: Vec::new(),
        };
        let mut seen = std::collections::HashMap::new();
        for named in all {
            for f in &named.files {
                let meta =
                    fs::metadata(f).with_context(|| format!("cannot read {}", f.display()))?;
                if let Some(first) = seen.insert((meta.dev(), meta.ino()), f.clone()) {
                    anyhow::bail!(
                        "{} and {} are the same file, in two packages: name the folder that holds both instead of using --packages-of",
                        first.display(),
                        f.display()
                    );
                }
            }
            merged.files.extend(named.files);
            merged.sources.extend(named.sources);
            merged.roots.extend(named.roots);
            merged.skipped_links.extend(named.skipped_links);
        }
        Ok(merged)
    }

    /// Whether a resolved path is a named file or lies inside a named folder.
    pub fn contains(&self, canonical: &Path) -> bool {
        self.roots.iter().any(|r| match &r.canonical {
            Some(root) if r.is_dir => canonical.starts_with(root),
            Some(root) => canonical == root,
            None => false,
        })
    }
}

/// Reads the named files, and folders recursively for `*.yaml` / `*.yml`, in a stable order.
/// `budget` is the input size still allowed ([`krm::read_text`]).
pub fn read_paths(paths: &[PathBuf], budget: &mut krm::Budget) -> Result<Named, WalkError> {
    let (files, roots, skipped_links) = find(paths).map_err(WalkError::Path)?;
    let mut sources = Vec::with_capacity(files.len());
    for f in &files {
        let file = fs::File::open(f)
            .with_context(|| format!("cannot read {}", f.display()))
            .map_err(WalkError::Path)?;
        let source =
            krm::read_text(&f.display().to_string(), file, budget).map_err(|e| match e {
                TextError::Io { .. } => WalkError::Path(anyhow::Error::new(e)),
                e => WalkError::Text(e),
            })?;
        sources.push(source);
    }
    Ok(Named {
        files,
        sources,
        roots,
        skipped_links,
    })
}

/// Why the named paths cannot be read.
pub enum WalkError {
    /// A path cannot be opened or walked.
    Path(anyhow::Error),
    /// A file holds more than the input size limit allows, or not text.
    Text(TextError),
}

/// The files to read (each once, in order), the named roots and the folder links skipped.
#[allow(clippy::type_complexity)]
fn find(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<Root>, Vec<PathBuf>)> {
    let mut found = Vec::new();
    let mut roots = Vec::new();
    let mut skipped_links = Vec::new();
    for p in paths {
        // `metadata` follows symlinks: a named link to a folder is walked.
        let meta = fs::metadata(p).with_context(|| format!("cannot read {}", p.display()))?;
        roots.push(Root {
            canonical: fs::canonicalize(p).ok(),
            is_dir: meta.is_dir(),
        });
        if meta.is_dir() {
            let mut in_dir = Vec::new();
            collect_yaml(p, &mut in_dir, &mut skipped_links)?;
            in_dir.sort();
            found.extend(in_dir);
        } else {
            found.push(p.clone());
        }
    }
    skipped_links.sort();
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for f in found {
        let meta = fs::metadata(&f).with_context(|| format!("cannot read {}", f.display()))?;
        if seen.insert((meta.dev(), meta.ino())) {
            files.push(f);
        }
    }
    Ok((files, roots, skipped_links))
}

/// Collects the YAML files under `dir`, without following symlinks to folders.
fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>, skipped: &mut Vec<PathBuf>) -> Result<()> {
    let entries = fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let path = entry.path();
        // Hidden files and folders (`.expected/`, `.git/`) are not part of a package's resources.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // `file_type` does not follow symlinks.
        let kind = entry
            .file_type()
            .with_context(|| format!("cannot read {}", path.display()))?;
        let is_yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if kind.is_dir() {
            collect_yaml(&path, out, skipped)?;
        } else if kind.is_symlink() {
            match fs::metadata(&path) {
                Ok(target) if target.is_dir() => skipped.push(path),
                Ok(target) if target.is_file() && is_yaml => out.push(path),
                Ok(_) => {}
                // A broken link named like a resource is a broken package: say so.
                Err(e) if is_yaml => {
                    return Err(e).with_context(|| format!("cannot read {}", path.display()));
                }
                Err(_) => {}
            }
        } else if kind.is_file() && is_yaml {
            out.push(path);
        }
    }
    Ok(())
}
