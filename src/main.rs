//! The `ipreuse` binary: CLI, I/O (stdin, stdout, stderr, files, in-place), and exit codes.
//! All the work is in the library ([`ipreuse::run::run`]; how input and output are framed is
//! [`ipreuse::krm`]'s); errors map to exit codes in [`main`] only.
#![forbid(unsafe_code)]

mod cli;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use ipreuse::config::{Choice, Mode};
use ipreuse::krm::{self, Source};
use ipreuse::limits::Limits;
use ipreuse::results::Severity;
use ipreuse::run::{self, Options, RunError};

use cli::in_place::{self, WriteError};

/// Fills Metal3 IPPool spec.preAllocations so that every BareMetalHost keeps its IP address
/// (CAPM3 BMH-name-based preallocation), from Git.
///
/// With no PATH, reads stdin: a KRM ResourceList (kpt, kustomize) or a plain YAML stream.
/// With PATHs (files, or folders read recursively for *.yaml / *.yml without following
/// symlinks to folders; each file read once), prints the stream, or rewrites the changed files
/// with --in-place.
/// Exit codes: 0 no error, 1 an error result (every item returned unchanged), 2 usage error
/// or, with --in-place, files that cannot be rewritten (none is changed then).
#[derive(Parser, Debug)]
#[command(name = "ipreuse", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The functionConfig (IPReuse or ConfigMap) for a plain stream or files.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Rewrite the changed files among PATHs, all or none: every new file is written beside
    /// its old one before any replaces it; nothing is written on any error or signal.
    #[arg(long, requires = "paths")]
    in_place: bool,
    /// Use this mode instead of the functionConfig's `mode`. `check` changes nothing and fails
    /// (exit 1) exactly when `fill` would change an item or report an error; with --in-place
    /// it writes nothing and prints only the results (stderr).
    #[arg(long, value_name = "MODE", value_parser = ["fill", "check"])]
    mode: Option<String>,
    /// Files or folders to read instead of stdin.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// For benchmarks only: read the input with the function's own reader and print it back
    /// unchanged, doing nothing else (the floor of a run's cost; `bench/compare.py`).
    #[arg(long, hide = true, conflicts_with_all = ["config", "in_place", "mode"])]
    pass_through: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the CustomResourceDefinition of the IPReuse functionConfig.
    Schema,
    /// Print the address plan (namespace, host, pool, address, and whether the address is
    /// kept, pinned, live or new): what fill would write, without writing anything. Errors
    /// are reported as the function reports them (exit 1, nothing on stdout).
    Plan {
        /// table (aligned columns), csv, json, or hosts (/etc/hosts lines).
        #[arg(long, value_name = "FORMAT", default_value = "table",
              value_parser = ["table", "csv", "json", "hosts"])]
        format: String,
        /// The functionConfig (IPReuse or ConfigMap); its mode is ignored.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Files or folders to read (stdin when none).
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

/// The limits that bound a run on hostile or mistaken input (README "Limits").
#[derive(clap::Args, Debug, Clone, Copy)]
struct LimitArgs {
    /// Refuse input larger than SIZE in all (bytes, or with Ki, Mi, Gi, k, M, G).
    #[arg(long, value_name = "SIZE", env = "IPREUSE_MAX_INPUT_SIZE", default_value = ipreuse::limits::DEFAULT_MAX_INPUT_SIZE,
          value_parser = ipreuse::limits::parse_size)]
    max_input_size: u64,
    /// Refuse a YAML document that reads as more than max(N, twice its written nodes) nodes
    /// once its aliases are expanded.
    #[arg(long, value_name = "N", env = "IPREUSE_MAX_ALIAS_NODES", default_value_t = ipreuse::limits::DEFAULT_MAX_ALIAS_NODES)]
    max_alias_nodes: u64,
    /// Refuse to fill more than N host-pool claims in all.
    #[arg(long, value_name = "N", env = "IPREUSE_MAX_CLAIMS", default_value_t = ipreuse::limits::DEFAULT_MAX_CLAIMS)]
    max_claims: u64,
}

impl LimitArgs {
    fn limits(self) -> Limits {
        Limits {
            max_input_bytes: self.max_input_size,
            max_alias_nodes: self.max_alias_nodes,
            max_claims: self.max_claims,
        }
    }
}

/// Failures of the edge itself; [`main`] is the one place that turns them into exit codes.
enum Failure {
    /// Wrong arguments or unreadable named paths or `--config`: exit 2.
    Usage(anyhow::Error),
    /// The input cannot be handed back (not YAML, internal error): exit 1.
    Input(anyhow::Error),
    /// `--in-place` could not write the changed files: exit 2, like a path that cannot be read
    /// (the function itself succeeded; the files it was given cannot take its output). A signal
    /// during the write ends the process by that signal, once the temp files are removed.
    Write(WriteError),
    /// A signal arrived while the files were being renamed (all were): ends the process by it.
    Signal(i32),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match execute(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Failure::Usage(e)) => {
            eprintln!("ipreuse: {e:#}");
            ExitCode::from(2)
        }
        Err(Failure::Input(e)) => {
            eprintln!("ipreuse: {e:#}");
            ExitCode::from(1)
        }
        Err(Failure::Write(e)) => {
            eprintln!("ipreuse: {e}");
            match e {
                WriteError::Interrupted(sig) => ExitCode::from(in_place::die_by(sig)),
                _ => ExitCode::from(2),
            }
        }
        Err(Failure::Signal(sig)) => ExitCode::from(in_place::die_by(sig)),
    }
}

/// Runs the command; `Ok(false)` when the results hold an error.
fn execute(cli: Cli) -> Result<bool, Failure> {
    match cli.command {
        Some(Command::Schema) => {
            print(&ipreuse::config::crd_yaml()).map_err(Failure::Input)?;
            return Ok(true);
        }
        Some(Command::Plan {
            format,
            config,
            paths,
            limits,
        }) => return plan(&format, config.as_deref(), &paths, limits.limits()),
        None => {}
    }
    let config = match &cli.config {
        Some(path) => Some(read_config(path).map_err(Failure::Usage)?),
        None => None,
    };
    let limits = cli.limits.limits();
    let (sources, named) = read_sources(&cli.paths, limits.max_input_bytes)?;
    if cli.pass_through {
        let (outputs, input) = run::pass_through(&sources).map_err(|e| Failure::Input(e.into()))?;
        print_stream(&outputs).map_err(Failure::Input)?;
        // As a run ends (`Outcome::end`): the process exits next.
        std::mem::forget(input);
        return Ok(true);
    }
    let options = Options {
        mode: cli.mode.as_deref().and_then(Mode::from_word),
        limits,
        plan: false,
    };
    let outcome = run::run_with(&sources, config.as_ref(), &options).map_err(|e| match e {
        RunError::ConfigTwice => Failure::Usage(e.into()),
        e => Failure::Input(e.into()),
    })?;
    eprint!(
        "{}",
        krm::stderr_results(outcome.framing, outcome.results_shown, &outcome.findings)
    );
    if cli.in_place {
        if let (false, Some(named)) = (outcome.has_errors(), &named) {
            let written = in_place::write(named, &outcome.outputs, &outcome.changed)
                .map_err(Failure::Write)?;
            eprintln!(
                "ipreuse: {} of {} file(s) changed",
                written.count,
                named.files.len()
            );
            if let Some(sig) = written.late_signal {
                eprintln!(
                    "ipreuse: {} arrived while the files were being renamed: every one was",
                    in_place::signal_name(sig)
                );
                return Err(Failure::Signal(sig));
            }
        }
    } else if !(outcome.check && named.is_some()) {
        // `--mode check` on named paths prints nothing on stdout: its results are the output
        // (SPEC §1 "Check mode output"); on stdin it hands the input back, with the results.
        print_stream(&outcome.outputs).map_err(Failure::Input)?;
    }
    let ok = !outcome.has_errors();
    outcome.end();
    Ok(ok)
}

/// The sources to read: stdin when no path is named, else the named files and folders (with
/// what the walk read, for `--in-place`).
/// At most `max_bytes` of them in all (a larger input is refused, unparsed).
fn read_sources(
    paths: &[PathBuf],
    max_bytes: u64,
) -> Result<(Vec<Source>, Option<cli::walk::Named>), Failure> {
    let mut budget = krm::Budget::new(max_bytes);
    Ok(if paths.is_empty() {
        let stdin = krm::read_text("<stdin>", std::io::stdin().lock(), &mut budget)
            .map_err(|e| Failure::Input(e.into()))?;
        (vec![stdin], None)
    } else {
        let mut named = cli::walk::read_paths(paths, &mut budget).map_err(|e| match e {
            // Files that cannot be opened are a usage error, as a path that does not exist;
            // what they hold (too much, not text) is the input's.
            cli::walk::WalkError::Path(e) => Failure::Usage(e),
            cli::walk::WalkError::Text(e) => Failure::Input(e.into()),
        })?;
        for link in &named.skipped_links {
            eprintln!(
                "ipreuse: note: {} is a symlink to a folder; folders found in a walk are not followed (name it to read it)",
                link.display()
            );
        }
        (std::mem::take(&mut named.sources), Some(named))
    })
}

/// `ipreuse plan`: the run in fill mode, nothing written, the plan on stdout.
fn plan(
    format: &str,
    config: Option<&Path>,
    paths: &[PathBuf],
    limits: Limits,
) -> Result<bool, Failure> {
    let config = match config {
        Some(path) => Some(read_config(path).map_err(Failure::Usage)?),
        None => None,
    };
    let (sources, _) = read_sources(paths, limits.max_input_bytes)?;
    let options = Options {
        mode: Some(Mode::Fill),
        limits,
        plan: true,
    };
    let outcome = run::run_with(&sources, config.as_ref(), &options).map_err(|e| match e {
        RunError::ConfigTwice => Failure::Usage(e.into()),
        e => Failure::Input(e.into()),
    })?;
    // Errors and warnings on stderr, as a run prints them; not the infos, whose summaries
    // speak of entries "added" that plan does not write.
    let shown: Vec<_> = outcome
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .cloned()
        .collect();
    eprint!("{}", krm::human_results(&shown));
    if outcome.has_errors() {
        return Ok(false);
    }
    print(&cli::plan::format(&outcome.plan, format)).map_err(Failure::Input)?;
    outcome.end();
    Ok(true)
}

/// The outputs as one stream ([`krm::join_stream`]); one output is printed as it is, without
/// a copy.
fn print_stream(outputs: &[String]) -> Result<()> {
    match outputs {
        [one] => print(one),
        _ => print(&krm::join_stream(outputs)),
    }
}

fn print(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Reads `--config`: the file's text, decoded by the framing.
fn read_config(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading --config {}", path.display()))?;
    Ok(krm::read_config(&path.display().to_string(), &text)?)
}
