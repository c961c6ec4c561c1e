//! `--in-place`: every changed file is written, or none is (SPEC §1).
//!
//! 1. **Check** every file to rewrite before anything is written: a symlink is written through
//!    to its target only when that target is inside the named paths; a read-only file (no
//!    write bit for its owner, or not writable by this process), a file with other hard links
//!    and anything but a regular file are refused. All problems are reported at once.
//! 2. **Write** every new text to a temp file beside its target (same folder, so the rename
//!    is atomic; same owner, group and permission bits), each synced to disk. If any cannot
//!    be made, every temp file made so far is removed and nothing is renamed.
//! 3. **Rename** each temp file over its target, only once all of them are written.
//!
//! SIGINT, SIGTERM and SIGHUP are caught from the first temp file on: a signal before the
//! renames removes every temp file and ends the process by that signal; one during the renames
//! (which cannot be undone) lets them finish first. Temp files are hidden (`.ipreuse-*.tmp`),
//! so a folder walk never reads one; only SIGKILL can leave one behind.

use std::fmt;
use std::fs::{self, Metadata, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rustix::fs::{Access, AtFlags, CWD};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use tempfile::NamedTempFile;

use super::walk::Named;

/// The signals that would otherwise end the process with temp files left behind.
const WATCHED: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The last watched signal that arrived (0: none).
static CAUGHT: AtomicUsize = AtomicUsize::new(0);

/// What a successful write did.
pub struct Written {
    /// How many files were rewritten.
    pub count: usize,
    /// A signal that arrived while the renames were being finished.
    pub late_signal: Option<i32>,
}

/// Why nothing (or, for [`WriteError::Partial`], not everything) was written.
#[derive(Debug)]
pub enum WriteError {
    /// Files that must not or cannot be rewritten; nothing was written.
    Refused(Vec<String>),
    /// A signal arrived before the renames; every temp file was removed, nothing was changed.
    Interrupted(i32),
    /// A rename failed after others had succeeded: the one step that cannot be undone.
    Partial {
        renamed: Vec<PathBuf>,
        failed: PathBuf,
        error: io::Error,
        not_renamed: Vec<PathBuf>,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Refused(problems) => {
                write!(f, "--in-place changed no file:")?;
                for p in problems {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
            WriteError::Interrupted(sig) => write!(
                f,
                "interrupted by {} before any file was renamed: no file was changed and every temp file was removed",
                signal_name(*sig)
            ),
            WriteError::Partial {
                renamed,
                failed,
                error,
                not_renamed,
            } => {
                write!(
                    f,
                    "renaming the new {} over the old one failed ({error}) after other files were already rewritten; the package is half-written: restore it (git checkout) and run again",
                    failed.display()
                )?;
                for p in renamed {
                    write!(f, "\n  - rewritten: {}", p.display())?;
                }
                for p in not_renamed {
                    write!(f, "\n  - not rewritten: {}", p.display())?;
                }
                Ok(())
            }
        }
    }
}

/// A file to rewrite: the name it was read under, and the file to replace.
struct Target<'a> {
    name: &'a Path,
    path: PathBuf,
    meta: Metadata,
    text: &'a str,
}

/// Writes `texts[i]` to `named.files[i]` wherever `changed[i]`, all or nothing.
pub fn write(named: &Named, texts: &[String], changed: &[bool]) -> Result<Written, WriteError> {
    let mut targets = Vec::new();
    let mut problems = Vec::new();
    for ((name, text), _) in named
        .files
        .iter()
        .zip(texts)
        .zip(changed)
        .filter(|(_, c)| **c)
    {
        match check(named, name) {
            Ok((path, meta)) => targets.push(Target {
                name,
                path,
                meta,
                text,
            }),
            Err(p) => problems.push(p),
        }
    }
    if !problems.is_empty() {
        return Err(WriteError::Refused(problems));
    }
    if targets.is_empty() {
        return Ok(Written {
            count: 0,
            late_signal: None,
        });
    }
    watch_signals()?;
    let mut temps = Vec::new();
    for t in &targets {
        if let Some(sig) = caught() {
            return Err(WriteError::Interrupted(sig));
        }
        match write_temp(t) {
            Ok(tmp) => temps.push(tmp),
            Err(p) => problems.push(p),
        }
    }
    // Returning drops `temps`, and dropping a temp file removes it.
    if let Some(sig) = caught() {
        return Err(WriteError::Interrupted(sig));
    }
    if !problems.is_empty() {
        return Err(WriteError::Refused(problems));
    }
    // The commit point: from here on, finish the renames whatever arrives.
    let count = targets.len();
    let mut renamed = Vec::new();
    let mut pairs = targets.into_iter().zip(temps);
    while let Some((t, tmp)) = pairs.next() {
        if let Err(e) = tmp.persist(&t.path) {
            return Err(WriteError::Partial {
                renamed,
                failed: t.path,
                error: e.error,
                not_renamed: pairs.map(|(t, _)| t.path).collect(),
            });
        }
        renamed.push(t.path);
    }
    sync_folders(&renamed);
    Ok(Written {
        count,
        late_signal: caught(),
    })
}

/// Checks one file before anything is written: which file to replace, and whether it may be.
fn check(named: &Named, name: &Path) -> Result<(PathBuf, Metadata), String> {
    let shown = name.display();
    let link = fs::symlink_metadata(name).map_err(|e| format!("cannot check {shown}: {e}"))?;
    let path = if link.file_type().is_symlink() {
        let target = fs::canonicalize(name)
            .map_err(|e| format!("cannot resolve the symlink {shown}: {e}"))?;
        if !named.contains(&target) {
            return Err(format!(
                "{shown} is a symlink to {}, which is outside the paths given: ipreuse writes through a symlink only to a file inside them; name the target (or its folder) too, or replace the link by a copy",
                target.display()
            ));
        }
        target
    } else {
        name.to_path_buf()
    };
    let file = if path == name {
        shown.to_string()
    } else {
        format!("{shown} (a symlink to {})", path.display())
    };
    let meta = fs::metadata(&path).map_err(|e| format!("cannot check {file}: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{file} is not a regular file: --in-place rewrites regular files only; run without --in-place and redirect the output"
        ));
    }
    if meta.mode() & 0o200 == 0 {
        return Err(format!(
            "{file} is read-only (mode {:03o}): make it writable (chmod u+w) to let ipreuse rewrite it",
            meta.mode() & 0o7777
        ));
    }
    if let Err(e) = rustix::fs::accessat(CWD, &path, Access::WRITE_OK, AtFlags::EACCESS) {
        return Err(format!(
            "{file} cannot be written by this user ({}): run as its owner, or make it writable",
            io::Error::from(e)
        ));
    }
    if meta.nlink() > 1 {
        return Err(format!(
            "{file} has {} hard links: a rewrite (a new file renamed over it) would leave the other names with the old text; replace the links by copies",
            meta.nlink()
        ));
    }
    Ok((path, meta))
}

/// Writes one new text to a temp file beside its target, with the target's owner, group and
/// permission bits, synced to disk.
fn write_temp(t: &Target) -> Result<NamedTempFile, String> {
    let file = if t.path == t.name {
        t.name.display().to_string()
    } else {
        format!(
            "{} (through the symlink {})",
            t.path.display(),
            t.name.display()
        )
    };
    let dir = t
        .path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".ipreuse-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            format!(
                "cannot create a file in {} ({}), where the new {file} is written before it replaces the old one: make the folder writable",
                dir.display(),
                os_error(&e)
            )
        })?;
    let fail = |what: &str, e: io::Error| format!("cannot write the new {file}: {what}: {e}");
    let own = tmp
        .as_file()
        .metadata()
        .map_err(|e| fail("reading its temp file", e))?;
    if (own.uid(), own.gid()) != (t.meta.uid(), t.meta.gid()) {
        std::os::unix::fs::fchown(tmp.as_file(), Some(t.meta.uid()), Some(t.meta.gid())).map_err(
            |e| {
                format!(
                    "cannot give the new {file} its owner and group ({}:{}): {e}; run as its owner, or without --in-place",
                    t.meta.uid(),
                    t.meta.gid()
                )
            },
        )?;
    }
    tmp.as_file()
        .set_permissions(Permissions::from_mode(t.meta.mode() & 0o7777))
        .map_err(|e| fail("setting its mode", e))?;
    tmp.write_all(t.text.as_bytes())
        .map_err(|e| fail("writing", e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| fail("syncing to disk", e))?;
    Ok(tmp)
}

/// The kind of error `e` is, without the temp file's name that `tempfile` adds to it (a file
/// that never existed would only confuse).
fn os_error(e: &io::Error) -> String {
    match e.get_ref() {
        Some(_) => io::Error::from(e.kind()).to_string(),
        None => e.to_string(),
    }
}

/// Catches the watched signals from now on (the flag is read between steps).
fn watch_signals() -> Result<(), WriteError> {
    for sig in WATCHED {
        let value = usize::try_from(sig).unwrap_or(usize::MAX);
        signal_hook::flag::register_usize(sig, &CAUGHT, value).map_err(|e| {
            WriteError::Refused(vec![format!(
                "cannot watch for {} during the write ({e}), so an interruption could leave temp files",
                signal_name(sig)
            )])
        })?;
    }
    Ok(())
}

/// The watched signal that arrived, if any.
fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        n => Some(i32::try_from(n).unwrap_or(SIGTERM)),
    }
}

/// Makes the renames durable: syncs each folder that had a file replaced (best effort).
fn sync_folders(files: &[PathBuf]) {
    let mut dirs: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs {
        let d = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        if let Ok(dir) = fs::File::open(d) {
            let _ = dir.sync_all();
        }
    }
}

/// `SIGTERM`, or the number.
pub fn signal_name(sig: i32) -> String {
    signal_hook::low_level::signal_name(sig)
        .map(str::to_string)
        .unwrap_or_else(|| format!("signal {sig}"))
}

/// Ends the process by `sig`, as if no handler had been installed (so a shell or kpt sees
/// the signal); the exit code `128 + sig` when that is not possible.
pub fn die_by(sig: i32) -> u8 {
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    u8::try_from(128 + sig).unwrap_or(1)
}
