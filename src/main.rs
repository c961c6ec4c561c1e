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
use ipreuse::config::Mode;
use ipreuse::krm::{self, Source};
use ipreuse::limits::Limits;
use ipreuse::results::{Finding, Severity};
use ipreuse::run::{self, Options, RunError};

use cli::in_place::{self, WriteError};
use cli::plan::PlanFormat;

/// Fills Metal3 IPPool spec.preAllocations so that every BareMetalHost keeps its IP address
/// (CAPM3 BMH-name-based preallocation), from Git.
///
/// With no PATH, reads stdin: a KRM ResourceList (kpt, kustomize) or a plain YAML stream.
/// With PATHs (files, or folders read recursively for *.yaml / *.yml without following
/// symlinks to folders; each file read once), prints the stream, or rewrites the changed files
/// with --in-place.
/// A folder whose Kptfile runs ipreuse is read with that step's config (configPath or
/// configMap), as `kpt fn render` passes it; nested packages run deepest first, as kpt renders.
/// A folder named like a subcommand is read as `./plan` or `-- plan`.
/// Exit codes: 0 no error, 1 an error result (every item returned unchanged), 2 usage error
/// or, with --in-place, files that cannot be rewritten (none is changed then).
#[derive(Parser, Debug)]
#[command(name = "ipreuse", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The functionConfig (IPReuse or ConfigMap) for a plain stream or files; it wins over a
    /// package's Kptfile, with a warning when they differ.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Rewrite the changed files among PATHs, all or none: every new file is written beside
    /// its old one before any replaces it; nothing is written on any error or signal.
    #[arg(long, requires = "paths")]
    in_place: bool,
    /// Use this mode instead of the functionConfig's `mode`. `check` changes nothing and fails
    /// (exit 1) exactly when `fill` would change an item or report an error; with --in-place
    /// it writes nothing and prints only the results (stderr).
    #[arg(long, value_name = "MODE")]
    mode: Option<ModeArg>,
    /// Read, for each PATH, the package it belongs to (the pre-commit hooks: PATHs are the
    /// staged files): the nearest folder at or above it holding a Kptfile or a kustomization,
    /// within the Git work tree, else a file's own folder. Each package is one run, as kpt
    /// renders it; with --in-place, all or none of the packages' files are written.
    #[arg(long, requires = "paths")]
    packages_of: bool,
    /// Files or folders to read instead of stdin.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// For benchmarks only: read the input with the function's own reader and print it back
    /// unchanged, doing nothing else (the floor of a run's cost; `bench/compare.py`).
    #[arg(long, hide = true, conflicts_with_all = ["config", "in_place", "mode", "packages_of"])]
    pass_through: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the CustomResourceDefinition of the IPReuse functionConfig.
    Schema,
    /// Print the address plan (namespace, host, pool, address, whether the address is
    /// kept, pinned, live or new, network, cluster), and the blocks of the networks with
    /// blockSize: what fill would write, without writing anything. Errors are reported as the
    /// function reports them (exit 1, nothing on stdout).
    Plan {
        /// How the rows are written: aligned columns, CSV, JSON, /etc/hosts lines, or one
        /// self-contained HTML page that draws each pool's addresses (the address map).
        #[arg(long, value_name = "FORMAT", value_enum, default_value_t = PlanFormat::Table)]
        format: PlanFormat,
        /// The functionConfig (IPReuse or ConfigMap); its mode is ignored.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Only the rows of the pool NAME; with --format hosts, each address under its bare
        /// host name (without it, `{host}-{pool}`).
        #[arg(long, value_name = "NAME")]
        pool: Option<String>,
        /// Only the rows of the host NAME (in every namespace), and the blocks of its pools.
        #[arg(long, value_name = "NAME")]
        host: Option<String>,
        /// List the blocks of the networks with blockSize instead of the hosts' addresses
        /// (NETWORK, NAMESPACE, POOL, RANGE, INDEX, STATUS new or kept). Without it, the table
        /// shows them after the hosts' rows and the hosts format as comment lines.
        #[arg(long)]
        blocks: bool,
        /// Files or folders to read (stdin when none).
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

/// `--mode`: the functionConfig's [`Mode`], as a flag (the library knows no clap).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ModeArg {
    /// Fill the pools and write the changes.
    Fill,
    /// Change nothing; report what fill would do.
    Check,
}

impl From<ModeArg> for Mode {
    fn from(mode: ModeArg) -> Mode {
        match mode {
            ModeArg::Fill => Mode::Fill,
            ModeArg::Check => Mode::Check,
        }
    }
}

/// The limits that bound a run on hostile or mistaken input (docs/limits.md).
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

/// `ipreuse --version` with `IPREUSE_EXPECT_VERSION` set: whether this binary is that
/// version (else it says so on stderr). The image build checks its version label with it on
/// both of its paths (`Dockerfile`), a CI job can pin an installed exec function with it.
fn expected_version() -> bool {
    let Some(expected) = std::env::var_os("IPREUSE_EXPECT_VERSION") else {
        return true;
    };
    let ours = env!("CARGO_PKG_VERSION");
    if expected == ours {
        return true;
    }
    eprintln!(
        "ipreuse: IPREUSE_EXPECT_VERSION is {:?}, but this binary is version {ours}",
        expected.to_string_lossy()
    );
    false
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(message) = subcommand_or_path(&args) {
        eprintln!("ipreuse: {message}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            if e.kind() == clap::error::ErrorKind::DisplayVersion && !expected_version() {
                return ExitCode::from(1);
            }
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

/// A first argument that names a subcommand (`plan`, `schema`, `help`) is the subcommand, as
/// clap reads it. When a file or folder of that name is in the current folder as well, the
/// command line is ambiguous unless a `--` says which is meant (`ipreuse -- plan` reads the
/// folder, `ipreuse plan -- [PATH...]` runs the subcommand): then this says so, and the binary
/// stops (exit 2) rather than run what the user may not have meant.
fn subcommand_or_path(args: &[std::ffi::OsString]) -> Option<String> {
    let first = args.get(1)?.to_str()?;
    if args.iter().any(|a| a == "--") {
        return None;
    }
    let mut command = <Cli as clap::CommandFactory>::command();
    command.build();
    if !command.get_subcommands().any(|c| c.get_name() == first) {
        return None;
    }
    let kind = match std::fs::symlink_metadata(first) {
        Ok(meta) if meta.is_dir() => "folder",
        Ok(_) => "file",
        Err(_) => return None,
    };
    let takes_paths = command
        .find_subcommand(first)
        .is_some_and(|c| c.get_positionals().next().is_some());
    let run_it = if takes_paths {
        format!("`ipreuse {first} [OPTIONS] -- [PATH...]`")
    } else {
        format!("`ipreuse {first} --`")
    };
    Some(format!(
        "`{first}` is both a subcommand and a {kind} here: write `ipreuse ./{first}` (or `ipreuse -- {first}`) to read the {kind}, or {run_it} to run the subcommand"
    ))
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
            pool,
            host,
            blocks,
            paths,
            limits,
        }) => {
            let filter = cli::plan::Filter {
                pool: pool.as_deref(),
                host: host.as_deref(),
            };
            return plan(
                format,
                &filter,
                blocks,
                config.as_deref(),
                &paths,
                limits.limits(),
            );
        }
        None => {}
    }
    let config = match &cli.config {
        Some(path) => Some(read_config(path).map_err(Failure::Usage)?),
        None => None,
    };
    let limits = cli.limits.limits();
    let mut budget = krm::Budget::new(limits.max_input_bytes);
    if cli.pass_through {
        let (sources, _) = read_sources(&cli.paths, &mut budget)?;
        let outputs = run::pass_through(&sources).map_err(|e| Failure::Input(e.into()))?;
        print_stream(&outputs).map_err(Failure::Input)?;
        return Ok(true);
    }
    // One run per package with --packages-of; else the named paths (or stdin) are one input.
    let groups: Vec<Vec<PathBuf>> = if cli.packages_of {
        cli::packages::of(&cli.paths)
            .map_err(Failure::Usage)?
            .into_iter()
            .map(|p| vec![p])
            .collect()
    } else {
        vec![cli.paths.clone()]
    };
    let options = Options {
        mode: cli.mode.map(Mode::from),
        limits,
        plan: false,
    };
    let config_file = config.as_ref();
    let mut runs = Vec::with_capacity(groups.len());
    for paths in &groups {
        let (sources, named) = read_sources(paths, &mut budget)?;
        let units = match &named {
            Some(named) => cli::render::units(paths, &named.files).map_err(Failure::Usage)?,
            None => vec![cli::render::Unit {
                package: None,
                members: vec![0],
                kptfile: None,
            }],
        };
        if groups.len() > 1 {
            eprintln!("ipreuse: package {}", paths[0].display());
        }
        let rendered = run_units(&sources, &units, config_file, &options)?;
        runs.push((rendered, named));
    }
    let ok = runs.iter().all(|(r, _)| r.ok);
    let check = runs.iter().any(|(r, _)| r.check);
    let mut outputs = Vec::new();
    let mut changed = Vec::new();
    let mut nameds = Vec::new();
    for (mut rendered, named) in runs {
        outputs.append(&mut rendered.outputs);
        changed.append(&mut rendered.changed);
        nameds.extend(named);
    }
    if cli.in_place {
        if ok {
            let named = cli::walk::Named::merge(nameds).map_err(Failure::Usage)?;
            let written = in_place::write(&named, &outputs, &changed).map_err(Failure::Write)?;
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
    } else if !check || nameds.is_empty() {
        // `--mode check` on named paths prints nothing on stdout: its results are the output
        // (SPEC §1 "Check mode output"); on stdin it hands the input back, with the results.
        print_stream(&outputs).map_err(Failure::Input)?;
    }
    Ok(ok)
}

/// What the runs of one input made: each source's final text, whether it changed, whether
/// every run was free of errors and whether any checked.
struct Rendered {
    outputs: Vec<String>,
    changed: Vec<bool>,
    ok: bool,
    check: bool,
}

/// Runs the `units` of a file run in order ([`cli::render`]), each on what the runs before it
/// left of its files, each run's results on stderr. The first run with an error stops them
/// (kpt stops a render at a failing step): every source is then returned as it was read.
fn run_units(
    sources: &[Source],
    units: &[cli::render::Unit],
    config_file: Option<&cli::config_file::ConfigFile>,
    options: &Options,
) -> Result<Rendered, Failure> {
    let mut texts: Vec<String> = sources.iter().map(|s| s.text.clone()).collect();
    let mut ok = true;
    let mut check = options.mode == Some(Mode::Check);
    for unit in units {
        let unit_sources: Vec<Source> = unit
            .members
            .iter()
            .map(|&i| Source {
                name: sources[i].name.clone(),
                text: texts[i].clone(),
            })
            .collect();
        // SPEC §1 "Kptfile": the step's config, unless --config is given (it wins).
        let mut said = Vec::new();
        let config = match (config_file, &unit.kptfile) {
            (Some(given), Some(k)) => {
                if let Some(fields) = cli::kptfile::differences(&given.value, k.step.value()) {
                    said.push(Finding::warning(format!(
                        "--config {} differs from the config of Kptfile {}, {} ({}) in {fields}, \
                         and wins: kpt fn render of this package uses the Kptfile's",
                        given.path.display(),
                        k.path.display(),
                        k.step.label,
                        k.step.given
                    )));
                }
                Some(given)
            }
            (Some(given), None) => Some(given),
            (None, Some(k)) => {
                said.push(Finding::info(k.info()));
                k.step.config.as_ref()
            }
            (None, None) => None,
        };
        if units.len() > 1
            && let Some(dir) = &unit.package
        {
            eprintln!("ipreuse: package {}", dir.display());
        }
        let mut outcome = run::run_with(&unit_sources, config.map(|c| &c.value), options).map_err(
            |e| match e {
                RunError::ConfigTwice => Failure::Usage(e.into()),
                e => Failure::Input(e.into()),
            },
        )?;
        if let Some(config) = config {
            config.locate(&mut outcome.findings);
        }
        for f in said {
            // Errors first, then warnings, then infos, as the run sorts its own.
            let rank = |s: Severity| match s {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Info => 2,
            };
            let at = outcome
                .findings
                .iter()
                .position(|o| rank(o.severity) >= rank(f.severity))
                .unwrap_or(outcome.findings.len());
            outcome.findings.insert(at, f);
        }
        eprint!(
            "{}",
            krm::stderr_results(outcome.framing, outcome.results_shown, &outcome.findings)
        );
        check |= outcome.check;
        if outcome.has_errors() {
            ok = false;
            // Every item as it was read; a ResourceList comes back with its results in it.
            texts = sources.iter().map(|s| s.text.clone()).collect();
            if outcome.framing == krm::Framing::ResourceList {
                for (&i, text) in unit.members.iter().zip(outcome.outputs) {
                    texts[i] = text;
                }
            }
            break;
        }
        for (&i, text) in unit.members.iter().zip(outcome.outputs) {
            texts[i] = text;
        }
    }
    let changed = texts
        .iter()
        .zip(sources)
        .map(|(t, s)| *t != s.text)
        .collect();
    Ok(Rendered {
        outputs: texts,
        changed,
        ok,
        check,
    })
}

/// The sources to read: stdin when no path is named, else the named files and folders (with
/// what the walk read, for `--in-place`).
/// At most what `budget` has left of them in all (a larger input is refused, unparsed).
fn read_sources(
    paths: &[PathBuf],
    budget: &mut krm::Budget,
) -> Result<(Vec<Source>, Option<cli::walk::Named>), Failure> {
    Ok(if paths.is_empty() {
        let stdin = krm::read_text("<stdin>", std::io::stdin().lock(), budget)
            .map_err(|e| Failure::Input(e.into()))?;
        (vec![stdin], None)
    } else {
        let mut named = cli::walk::read_paths(paths, budget).map_err(|e| match e {
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
    format: PlanFormat,
    filter: &cli::plan::Filter,
    only_blocks: bool,
    config: Option<&Path>,
    paths: &[PathBuf],
    limits: Limits,
) -> Result<bool, Failure> {
    let config = match config {
        Some(path) => Some(read_config(path).map_err(Failure::Usage)?),
        None => None,
    };
    let mut budget = krm::Budget::new(limits.max_input_bytes);
    let (sources, named) = read_sources(paths, &mut budget)?;
    // Without --config, the Kptfiles' config (SPEC §1 "Kptfile"): plan is one run, so the
    // packages it reads must agree on it.
    let from_kptfile = match (&config, &named) {
        (None, Some(named)) => kptfile_config(paths, &named.files)?,
        _ => None,
    };
    let config = config.or(from_kptfile);
    let options = Options {
        mode: Some(Mode::Fill),
        limits,
        plan: true,
    };
    let mut outcome = run::run_with(&sources, config.as_ref().map(|c| &c.value), &options)
        .map_err(|e| match e {
            RunError::ConfigTwice => Failure::Usage(e.into()),
            e => Failure::Input(e.into()),
        })?;
    if let Some(config) = &config {
        config.locate(&mut outcome.findings);
    }
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
    let source = if paths.is_empty() {
        "stdin".to_string()
    } else {
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let listed = cli::plan::Plan {
        rows: &outcome.plan,
        blocks: &outcome.blocks,
        pools: &outcome.map.pools,
        networks: &outcome.map.networks,
        findings: &shown,
        source: &source,
    };
    let text = cli::plan::format(&listed, format, filter, only_blocks)
        .map_err(|e| Failure::Usage(anyhow::anyhow!(e)))?;
    print(&text).map_err(Failure::Input)?;
    Ok(true)
}

/// The one config the Kptfiles under the named `paths` give `ipreuse plan`: `None` when none
/// runs ipreuse; a usage error when two say different things (plan makes one run).
fn kptfile_config(
    paths: &[PathBuf],
    files: &[PathBuf],
) -> Result<Option<cli::config_file::ConfigFile>, Failure> {
    let units = cli::render::units(paths, files).map_err(Failure::Usage)?;
    let kptfiles: Vec<_> = units.iter().filter_map(|u| u.kptfile.as_ref()).collect();
    let Some(first) = kptfiles.first() else {
        return Ok(None);
    };
    for other in &kptfiles[1..] {
        let differ = match (first.step.value(), other.step.value()) {
            (Some(a), b) => cli::kptfile::differences(a, b),
            (None, Some(b)) => cli::kptfile::differences(b, None),
            (None, None) => None,
        };
        if let Some(fields) = differ {
            return Err(Failure::Usage(anyhow::anyhow!(
                "plan makes one run, but Kptfile {} and Kptfile {} configure ipreuse differently \
                 ({fields}): pass --config FILE, or plan one package at a time",
                first.path.display(),
                other.path.display()
            )));
        }
    }
    Ok(first.step.config.clone())
}

/// The outputs as one stream ([`krm::join_stream`]), written piece by piece, without a copy.
fn print_stream(outputs: &[String]) -> Result<()> {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    for piece in krm::stream_pieces(outputs) {
        stdout.write_all(piece.as_bytes())?;
    }
    stdout.flush()?;
    Ok(())
}

fn print(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Reads `--config`: the file's text, decoded by the framing.
fn read_config(path: &Path) -> Result<cli::config_file::ConfigFile> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading --config {}", path.display()))?;
    Ok(cli::config_file::ConfigFile {
        value: krm::read_config(&path.display().to_string(), &text)?,
        path: path.to_path_buf(),
        text,
        inline: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;
    use ipreuse::config::Choice;

    /// `--mode` takes the functionConfig's words, every one of them, each for its own mode.
    #[test]
    fn mode_flag_words_are_the_config_words() {
        let words: Vec<(String, Mode)> = ModeArg::value_variants()
            .iter()
            .filter_map(|m| {
                Some((
                    m.to_possible_value()?.get_name().to_string(),
                    Mode::from(*m),
                ))
            })
            .collect();
        let config: Vec<(String, Mode)> = Mode::ALL
            .iter()
            .map(|m| (m.as_str().to_string(), *m))
            .collect();
        assert_eq!(words, config);
    }
}
