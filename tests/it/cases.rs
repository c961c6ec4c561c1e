//! The runner of the case tables: `tests/data/cases/{table}/*.yaml`, one file per case.
//!
//! A case file is the input the function reads and what must come out, written as data so that
//! adding a case adds a file and no code (the layout of the kpt functions catalog's examples,
//! in one file). `tests/data/cases/README.md` documents the format; in short:
//!
//! ```yaml
//! shows: An existing entry is kept even when another host would take its address first.
//! config:             # optional: the `spec` of the IPReuse functionConfig
//!   prune: true
//! input: |            # the resources, one YAML stream (read as `input.yaml`)
//!   apiVersion: metal3.io/v1alpha1
//!   kind: BareMetalHost
//!   metadata: {name: node-1, namespace: ns}
//! expect:
//!   entries:          # IPPool `namespace/name` → its preAllocations after the run, in order
//!     ns/pool: {node-2-pool: 10.0.0.10, node-1-pool: 10.0.0.11}
//!   errors:           # every error of the run; none when left out
//!     - object: IPPool/pool            # Kind/name or Kind/namespace/name of the resourceRef
//!       field: spec.preAllocations.x   # the result's field.path
//!       says: "10.0.0.99"              # text the message holds (a string or a list)
//!   warnings: []      # when given: every warning of the run
//!   output_has: []    # text the output must hold
//!   output_lacks: []  # text the output must not hold
//! ```
//!
//! What the runner checks on every case, beyond what the case lists:
//! - the run completes (a `RunError` fails the case) and every error or warning sits at a field
//!   its object has (`common::assert_fields_resolve`);
//! - a case that lists errors fails as a whole: every item comes back byte for byte;
//! - a case that lists no errors has none.
//!
//! Expectations are written by hand from the rules the case's `shows` names, never copied from
//! a run: there is no switch that rewrites them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ipreuse::krm::{Framing, Source};
use ipreuse::results::{Finding, Severity};
use ipreuse::run::{Outcome, run};
use serde::Deserialize;
use serde_json::Value;

use crate::common::{self, Ordered, dump};

/// One case file.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// One sentence: what the case shows.
    pub shows: String,
    /// The `spec` of the typed functionConfig (`kind: IPReuse`); none: no functionConfig.
    #[serde(default)]
    pub config: Option<Value>,
    /// The resources as one YAML stream.
    #[serde(default)]
    pub input: Option<String>,
    /// The resources as several named files (instead of `input`).
    #[serde(default)]
    pub files: Option<Ordered>,
    pub expect: Expect,
}

/// What must come out.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// IPPool `namespace/name` → its entries after the run, in written order.
    #[serde(default)]
    pub entries: Option<PoolEntries>,
    /// Every error.
    #[serde(default)]
    pub errors: Vec<Said>,
    /// Every warning, when given.
    #[serde(default)]
    pub warnings: Option<Vec<Said>>,
    /// Text the output must hold.
    #[serde(default)]
    pub output_has: Vec<String>,
    /// Text the output must not hold.
    #[serde(default)]
    pub output_lacks: Vec<String>,
    /// Text the message of the run's refusal as a whole holds (a `RunError`: input that cannot
    /// be handed back at all, such as a source that is not YAML). Nothing else may be stated.
    #[serde(default)]
    pub run_error: Option<String>,
    /// Every info (the per-namespace mapping and per-pool summaries), when given.
    #[serde(default)]
    pub infos: Option<Vec<Said>>,
    /// The run changes nothing: every source comes back byte for byte (and there is no error
    /// unless the case states one).
    #[serde(default)]
    pub unchanged: bool,
}

/// A result, as a case states it; a part left out is not checked.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Said {
    /// `Kind/name` or `Kind/namespace/name` of the resourceRef.
    #[serde(default)]
    pub object: Option<String>,
    /// The result's `field.path`.
    #[serde(default)]
    pub field: Option<String>,
    /// Text the message holds.
    #[serde(default)]
    pub says: Says,
    /// Text the message must not hold.
    #[serde(default)]
    pub says_not: Says,
}

/// One piece of text or several.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(untagged)]
pub enum Says {
    #[default]
    Nothing,
    One(String),
    Many(Vec<String>),
}

impl Says {
    fn all(&self) -> Vec<&str> {
        match self {
            Says::Nothing => Vec::new(),
            Says::One(s) => vec![s.as_str()],
            Says::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

impl Said {
    fn matches(&self, f: &Finding) -> bool {
        if let Some(path) = &self.field
            && f.field.as_ref().map(|x| x.path.as_str()) != Some(path.as_str())
        {
            return false;
        }
        if let Some(object) = &self.object {
            let Some(r) = &f.resource_ref else {
                return false;
            };
            let parts: Vec<&str> = object.splitn(3, '/').collect();
            let ok = match parts.as_slice() {
                [kind, name] => r.kind == *kind && r.name == *name,
                [kind, ns, name] => {
                    r.kind == *kind && r.name == *name && r.namespace.as_deref() == Some(*ns)
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        self.says.all().iter().all(|s| f.message.contains(s))
            && !self.says_not.all().iter().any(|s| f.message.contains(s))
    }

    fn describe(&self) -> String {
        let mut s = format!(
            "object {:?}, field {:?}, saying {:?}",
            self.object.as_deref().unwrap_or("-"),
            self.field.as_deref().unwrap_or("-"),
            self.says.all()
        );
        if !self.says_not.all().is_empty() {
            write!(s, ", not saying {:?}", self.says_not.all()).unwrap();
        }
        s
    }
}

/// The folder of one table.
pub fn table_dir(table: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cases")
        .join(table)
}

/// The case files of a table, sorted by name.
pub fn case_files(table: &str) -> Vec<PathBuf> {
    let dir = table_dir(table);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("reading a folder entry").path())
        .collect();
    files.sort();
    files
}

/// Reads a case file.
pub fn read(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    parse(&text)
}

/// Parses the text of a case file.
pub fn parse(text: &str) -> Result<Case, String> {
    serde_saphyr::from_str(text).map_err(|e| format!("not a case file: {e}"))
}

/// What is wrong with a case file's form (its name, `shows`, its parts).
pub fn lint(name: &str, case: &Case) -> Vec<String> {
    let mut out = Vec::new();
    let stem = name.strip_suffix(".yaml").unwrap_or("");
    if stem.is_empty()
        || !stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        out.push("the file name must be lower-case words joined by '-', ending in .yaml".into());
    }
    let shows = case.shows.trim();
    if shows.len() < 20 || !shows.ends_with('.') {
        out.push("`shows` must be a sentence (ending with '.') saying what the case shows".into());
    }
    if case.input.is_some() == case.files.is_some() {
        out.push("a case has either `input` or `files`".into());
    }
    let e = &case.expect;
    if e.entries.is_none()
        && e.errors.is_empty()
        && e.warnings.as_ref().is_none_or(Vec::is_empty)
        && e.output_has.is_empty()
        && e.output_lacks.is_empty()
        && e.run_error.is_none()
        && e.infos.as_ref().is_none_or(Vec::is_empty)
        && !e.unchanged
    {
        out.push("`expect` states nothing: give entries, errors, warnings or output text".into());
    }
    if e.run_error.is_some()
        && (e.entries.is_some()
            || !e.errors.is_empty()
            || e.warnings.is_some()
            || e.infos.is_some()
            || !e.output_has.is_empty()
            || !e.output_lacks.is_empty()
            || e.unchanged)
    {
        out.push("a case with `run_error` has no output: it states nothing else".into());
    }
    for s in e
        .errors
        .iter()
        .chain(e.warnings.iter().flatten())
        .chain(e.infos.iter().flatten())
    {
        if s.object.is_none() && s.field.is_none() && s.says.all().is_empty() {
            out.push(format!(
                "a result states nothing to match: {}",
                s.describe()
            ));
        }
    }
    out
}

/// The sources of a case.
fn sources(case: &Case) -> Vec<Source> {
    match (&case.input, &case.files) {
        (Some(text), _) => vec![Source {
            name: "input.yaml".into(),
            text: text.clone(),
        }],
        (None, Some(files)) => files
            .0
            .iter()
            .map(|(name, text)| Source {
                name: name.clone(),
                text: text.as_str().unwrap_or_default().to_string(),
            })
            .collect(),
        (None, None) => Vec::new(),
    }
}

/// Runs one case; `Err` says every way it failed.
pub fn check(case: &Case) -> Result<(), String> {
    let srcs = sources(case);
    let cfg = case.config.clone().map(common::config);
    let e = &case.expect;
    let o = match (run(&srcs, cfg.as_ref()), &e.run_error) {
        (Err(err), None) => return Err(format!("the run failed: {err}")),
        (Err(err), Some(says)) if err.to_string().contains(says.as_str()) => return Ok(()),
        (Err(err), Some(says)) => {
            return Err(format!("the run failed, but not saying {says:?}: {err}"));
        }
        (Ok(o), Some(says)) => {
            return Err(format!(
                "the run completed; expected it to fail saying {says:?}\nresults:\n{}",
                dump(&o)
            ));
        }
        (Ok(o), None) => o,
    };
    let mut problems = Vec::new();
    for p in common::field_problems(&srcs, cfg.as_ref(), &o) {
        problems.push(format!("a result's field is not in its object: {p}"));
    }
    results(
        &o,
        Severity::Error,
        "errors",
        Some(&e.errors),
        &mut problems,
    );
    results(
        &o,
        Severity::Warning,
        "warnings",
        e.warnings.as_ref(),
        &mut problems,
    );
    results(&o, Severity::Info, "infos", e.infos.as_ref(), &mut problems);
    if !e.errors.is_empty() || e.unchanged {
        let why = if e.unchanged {
            "the case says nothing changes"
        } else {
            "the run has errors"
        };
        for (out, src) in o.outputs.iter().zip(&srcs) {
            let same = if o.framing == Framing::ResourceList && !e.unchanged {
                resource_list_unchanged(&src.text, out)
            } else {
                *out == src.text
            };
            if !same {
                problems.push(format!("{why} but {} changed:\n{out}", src.name));
            }
        }
        // A ResourceList that comes back with results counts as changed.
        if o.framing == Framing::Stream && o.changed.iter().any(|c| *c) {
            problems.push(format!(
                "{why} but an item is marked changed: {:?}",
                o.changed
            ));
        }
    }
    if let Some(want) = &e.entries {
        entries(&o, want, &mut problems);
    }
    let output = o.outputs.concat();
    for t in &e.output_has {
        if !output.contains(t.as_str()) {
            problems.push(format!("the output does not hold {t:?}:\n{output}"));
        }
    }
    for t in &e.output_lacks {
        if output.contains(t.as_str()) {
            problems.push(format!("the output holds {t:?}:\n{output}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\nresults:\n{}", problems.join("\n"), dump(&o)))
    }
}

/// Whether a ResourceList came back as it went in but for a `results:` key: its lines in
/// order, and the lines added all under a top-level `results:`.
fn resource_list_unchanged(input: &str, output: &str) -> bool {
    let added = common::added_lines(input, output);
    common::is_line_subsequence(input, output)
        && added.first().copied() == Some("results:")
        && added[1..]
            .iter()
            .all(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('-'))
}

/// Matches the stated results of one severity to the run's, one to one (when `want` is given,
/// every result of that severity must be stated).
fn results(
    o: &Outcome,
    severity: Severity,
    what: &str,
    want: Option<&Vec<Said>>,
    problems: &mut Vec<String>,
) {
    let Some(want) = want else {
        return;
    };
    let got: Vec<&Finding> = o
        .findings
        .iter()
        .filter(|f| f.severity == severity)
        .collect();
    let pairs = match_one_to_one(want, &got);
    for (i, s) in want.iter().enumerate() {
        if pairs[i].is_none() {
            problems.push(format!("no {what} result matches: {}", s.describe()));
        }
    }
    let used: Vec<usize> = pairs.iter().flatten().copied().collect();
    for (j, f) in got.iter().enumerate() {
        if !used.contains(&j) {
            let field = f.field.as_ref().map(|x| x.path.as_str()).unwrap_or("-");
            problems.push(format!(
                "{what}: a result the case does not state: ({field}) {}",
                f.message
            ));
        }
    }
}

/// A maximum matching of stated results to actual ones (augmenting paths; the lists are short).
fn match_one_to_one(want: &[Said], got: &[&Finding]) -> Vec<Option<usize>> {
    let mut owner: Vec<Option<usize>> = vec![None; got.len()];
    fn augment(
        i: usize,
        want: &[Said],
        got: &[&Finding],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for j in 0..got.len() {
            if seen[j] || !want[i].matches(got[j]) {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|k| augment(k, want, got, seen, owner)) {
                owner[j] = Some(i);
                return true;
            }
        }
        false
    }
    for i in 0..want.len() {
        let mut seen = vec![false; got.len()];
        augment(i, want, got, &mut seen, &mut owner);
    }
    let mut pairs = vec![None; want.len()];
    for (j, o) in owner.iter().enumerate() {
        if let Some(i) = o {
            pairs[*i] = Some(j);
        }
    }
    pairs
}

/// Compares the entries of each stated pool, in order.
fn entries(o: &Outcome, want: &PoolEntries, problems: &mut Vec<String>) {
    let read = || match o.framing {
        Framing::ResourceList => o
            .outputs
            .iter()
            .flat_map(|t| common::rl_entries(t))
            .collect(),
        Framing::Stream => common::all_entries(o),
    };
    let Ok(all) = std::panic::catch_unwind(read) else {
        problems.push("the output cannot be read back as YAML".into());
        return;
    };
    for (pool, stated) in &want.0 {
        let Some((ns, name)) = pool.split_once('/') else {
            problems.push(format!("entries: {pool:?} is not namespace/name"));
            continue;
        };
        let stated: Vec<(String, String)> = stated
            .0
            .iter()
            .map(|(k, v)| (k.clone(), scalar(v)))
            .collect();
        match all.get(&(ns.to_string(), name.to_string())) {
            None => problems.push(format!("entries: no IPPool {pool} in the output")),
            Some(got) if *got != stated => problems.push(format!(
                "entries of {pool}:\n  stated: {stated:?}\n  output: {got:?}"
            )),
            Some(_) => {}
        }
    }
}

/// A scalar as the text YAML gives it.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// IPPool `namespace/name` → its entries, both in written order.
#[derive(Debug, Default)]
pub struct PoolEntries(pub Vec<(String, Ordered)>);

impl<'de> Deserialize<'de> for PoolEntries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = PoolEntries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of namespace/name to entries")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<PoolEntries, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Ordered>()? {
                    out.push((k, v));
                }
                Ok(PoolEntries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// Runs every case of a table, lints each, and fails naming every case that fails.
pub fn run_table(table: &str) {
    let files = case_files(table);
    assert!(
        !files.is_empty(),
        "no case in {}",
        table_dir(table).display()
    );
    let mut failures = String::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if name == "README.md" {
            continue;
        }
        let outcome = read(path).and_then(|case| {
            let lints = lint(&name, &case);
            if !lints.is_empty() {
                return Err(lints.join("\n"));
            }
            check(&case)
        });
        if let Err(e) = outcome {
            writeln!(failures, "---- {table}/{name}\n{e}\n").unwrap();
        }
    }
    assert!(failures.is_empty(), "failing cases:\n{failures}");
}

// ---------------------------------------------------------------------------------------------
// The runner itself
// ---------------------------------------------------------------------------------------------

const HOSTS_AND_POOL: &str = "\
shows: The runner's own check, on two hosts and one pool.
input: |
  apiVersion: metal3.io/v1alpha1
  kind: BareMetalHost
  metadata: {name: node-1, namespace: ns}
  ---
  apiVersion: metal3.io/v1alpha1
  kind: BareMetalHost
  metadata: {name: node-2, namespace: ns}
  ---
  apiVersion: ipam.metal3.io/v1alpha1
  kind: IPPool
  metadata: {name: pool, namespace: ns}
  spec:
    namePrefix: pool
    pools: [{start: 10.0.0.10, end: 10.0.0.20}]
    prefix: 24
";

fn with_expect(expect: &str) -> Case {
    parse(&format!("{HOSTS_AND_POOL}expect:\n{expect}")).expect("a case")
}

#[test]
fn the_runner_passes_a_right_case() {
    let case =
        with_expect("  entries:\n    ns/pool: {node-1-pool: 10.0.0.10, node-2-pool: 10.0.0.11}\n");
    assert_eq!(check(&case), Ok(()));
}

#[test]
fn the_runner_fails_wrong_expectations() {
    for (what, expect) in [
        (
            "entries in another order",
            "  entries:\n    ns/pool: {node-2-pool: 10.0.0.11, node-1-pool: 10.0.0.10}\n",
        ),
        (
            "one entry too few",
            "  entries:\n    ns/pool: {node-1-pool: 10.0.0.10}\n",
        ),
        (
            "a pool the output does not have",
            "  entries:\n    ns/other: {}\n",
        ),
        (
            "an error the run does not give",
            "  errors:\n  - {object: IPPool/pool, says: anything}\n",
        ),
        (
            "a warning the run does not give",
            "  warnings:\n  - {says: a warning}\n",
        ),
        ("output text it lacks", "  output_has: [\"node-3-pool\"]\n"),
        (
            "output text it holds",
            "  output_lacks: [\"node-1-pool\"]\n",
        ),
    ] {
        assert!(check(&with_expect(expect)).is_err(), "passed: {what}");
    }
}

#[test]
fn the_runner_fails_a_result_the_case_does_not_state() {
    // A duplicate entry: one error, which a case stating no error must not pass.
    let text = HOSTS_AND_POOL.replace(
        "    prefix: 24\n",
        "    prefix: 24\n    preAllocations: {node-1-pool: 10.0.0.12, node-2-pool: 10.0.0.12}\n",
    );
    let quiet = parse(&format!("{text}expect:\n  output_has: [node-1-pool]\n")).expect("a case");
    let err = check(&quiet).expect_err("an unstated error passed");
    assert!(err.contains("a result the case does not state"), "{err}");
    let stated = parse(&format!(
        "{text}expect:\n  errors:\n  - {{object: IPPool/pool, says: \"10.0.0.12\"}}\n"
    ))
    .expect("a case");
    assert_eq!(check(&stated), Ok(()));
}

#[test]
fn the_lint_refuses_cases_that_state_nothing() {
    let case = with_expect("  output_lacks: []\n");
    assert!(!lint("a-case.yaml", &case).is_empty());
    let named = with_expect("  output_has: [node-1-pool]\n");
    assert!(lint("a-case.yaml", &named).is_empty());
    assert!(!lint("A_Case.yaml", &named).is_empty());
    let short = parse(&format!(
        "{}expect:\n  output_has: [x]\n",
        HOSTS_AND_POOL.replace("The runner's own check, on two hosts and one pool.", "x")
    ))
    .expect("a case");
    assert!(!lint("a-case.yaml", &short).is_empty());
}

#[test]
fn the_runner_checks_a_refusal_of_the_whole_run() {
    let not_yaml = "\
shows: The runner's own check of a source that is not YAML.
files:
  good.yaml: |
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: x}
  broken.yaml: |
    kind: [ConfigMap
expect:
";
    let right = parse(&format!("{not_yaml}  run_error: broken.yaml\n")).expect("a case");
    assert_eq!(check(&right), Ok(()));
    let wrong = parse(&format!("{not_yaml}  run_error: good.yaml\n")).expect("a case");
    assert!(
        check(&wrong).is_err(),
        "passed: a refusal naming the other source"
    );
    let runs = with_expect("  run_error: not YAML\n");
    assert!(
        check(&runs).is_err(),
        "passed: a refusal of a run that completes"
    );
    let both = parse(&format!(
        "{not_yaml}  run_error: broken.yaml\n  output_has: [x]\n"
    ))
    .expect("a case");
    assert!(!lint("a-case.yaml", &both).is_empty());
}

#[test]
fn the_runner_fails_unchanged_when_the_run_fills() {
    let case = with_expect("  unchanged: true\n");
    assert!(
        check(&case).is_err(),
        "passed: unchanged, on a run that fills"
    );
    assert!(
        lint("a-case.yaml", &case).is_empty(),
        "unchanged states something"
    );
}

#[test]
fn the_runner_fails_a_result_that_says_what_it_must_not() {
    let text = HOSTS_AND_POOL.replace(
        "    prefix: 24\n",
        "    prefix: 24\n    preAllocations: {node-1-pool: 10.0.0.12, node-2-pool: 10.0.0.12}\n",
    );
    let wrong = parse(&format!(
        "{text}expect:\n  errors:\n  - {{object: IPPool/pool, says_not: \"10.0.0.12\"}}\n"
    ))
    .expect("a case");
    assert!(
        check(&wrong).is_err(),
        "passed: says_not of text the message holds"
    );
    let right = parse(&format!(
        "{text}expect:\n  errors:\n  - {{object: IPPool/pool, says: \"10.0.0.12\", says_not: webhook}}\n"
    ))
    .expect("a case");
    assert_eq!(check(&right), Ok(()));
}

/// [`HOSTS_AND_POOL`] as a ResourceList.
fn resource_list_case(expect: &str) -> Case {
    let mut text = String::from(
        "shows: The runner's own check, on a ResourceList.\ninput: |\n  apiVersion: config.kubernetes.io/v1\n  kind: ResourceList\n  items:\n",
    );
    let docs = HOSTS_AND_POOL
        .split_once("input: |\n")
        .expect("an input")
        .1
        .replace("\n  ---\n", "\n---\n");
    for doc in docs.split("---\n") {
        for (i, line) in doc.lines().enumerate() {
            let line = line.strip_prefix("  ").unwrap_or(line);
            let lead = if i == 0 { "  - " } else { "    " };
            writeln!(text, "  {lead}{line}").unwrap();
        }
    }
    parse(&format!("{text}expect:\n{expect}")).expect("a case")
}

#[test]
fn the_runner_reads_a_resource_list_and_fails_wrong_expectations() {
    let right = resource_list_case(
        "  entries:\n    ns/pool: {node-1-pool: 10.0.0.10, node-2-pool: 10.0.0.11}\n",
    );
    assert_eq!(check(&right), Ok(()));
    let wrong = resource_list_case("  entries:\n    ns/pool: {node-1-pool: 10.0.0.11}\n");
    assert!(
        check(&wrong).is_err(),
        "passed: wrong entries of a ResourceList"
    );
    let unchanged = resource_list_case("  unchanged: true\n");
    assert!(
        check(&unchanged).is_err(),
        "passed: unchanged, on a ResourceList that fills"
    );
}

#[test]
fn a_resource_list_with_an_item_changed_is_not_unchanged() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- kind: A\n  metadata: {name: a}\n";
    let results = "results:\n- message: m\n  severity: error\n";
    assert!(resource_list_unchanged(input, &format!("{input}{results}")));
    let changed = input.replace("name: a", "name: b");
    assert!(!resource_list_unchanged(
        input,
        &format!("{changed}{results}")
    ));
    assert!(!resource_list_unchanged(
        input,
        &format!("{input}{results}extra: 1\n")
    ));
}

#[test]
fn the_runner_checks_infos_one_to_one() {
    let right = with_expect(
        "  infos:\n  - {says: 'namespace \"ns\": mapping all'}\n  - {object: IPPool/ns/pool, says: '0 kept, 2 added'}\n",
    );
    assert_eq!(check(&right), Ok(()));
    for (what, expect) in [
        (
            "an info the run does not give",
            "  infos:\n  - {says: 'namespace \"ns\": mapping all'}\n  - {object: IPPool/ns/pool, says: '0 kept, 3 added'}\n",
        ),
        (
            "one info left unstated",
            "  infos:\n  - {object: IPPool/ns/pool, says: '0 kept, 2 added'}\n",
        ),
    ] {
        assert!(check(&with_expect(expect)).is_err(), "passed: {what}");
    }
}

#[test]
fn the_runner_checks_unchanged() {
    // The run fills two entries: `unchanged` must fail it.
    let err = check(&with_expect("  unchanged: true\n")).expect_err("a changed run passed");
    assert!(err.contains("marked changed"), "{err}");
    // Both hosts hold their entries already: nothing to write.
    let full = HOSTS_AND_POOL.replace(
        "    prefix: 24\n",
        "    prefix: 24\n    preAllocations: {node-1-pool: 10.0.0.10, node-2-pool: 10.0.0.11}\n",
    );
    let case = parse(&format!("{full}expect:\n  unchanged: true\n")).expect("a case");
    assert_eq!(check(&case), Ok(()));
}
