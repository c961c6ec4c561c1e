//! ipreuse's ClusterClass template rendering against Go itself (issue 32, acceptance 9).
//!
//! The same templates go through CAPI's rendering, done by Go (`tests/go/capirender`: Go's
//! `text/template` with `sprig.HermeticTxtFuncMap()`, the output read with `sigs.k8s.io/yaml`,
//! as `renderValueTemplate` and `patchIsEnabled` do), and through ipreuse
//! ([`render`], then the reading of the rendered text in [`ours`]). Compared: the rendered text,
//! the JSON value and the `enabledIf` decision. The templates are
//! - thousands generated from a fixed seed ([`generated`]): field chains, missing keys, nulls,
//!   pipelines, calls, variables, `if`/`with`/`range`/`define`/`template`, trim markers,
//!   comments, comparisons, every function of [`FUNCTIONS`] and every `printf` verb on every kind
//!   of value, YAML-looking outputs, with variables of every JSON kind;
//! - the `valueFrom.template` and `enabledIf` texts of public ClusterClasses, with realistic
//!   variables, in `tests/data/clusterclass_templates/` (one file per source, which names the
//!   repository, path, commit and licence).
//!
//! Where Go errors, ipreuse must error. Where ipreuse errors and Go does not, the error must be
//! one of [`REFUSALS`] (ipreuse refuses on purpose, each with its reason). Every other mismatch is
//! a difference: the test prints each (template, variables, Go's result, ipreuse's), grouped by
//! class, writes them to `<target>/test-tools/go_templates-*-differences.txt` and fails with the
//! count by class.
//! `tests/data/clusterclass_templates/KNOWN_DIFFERENCES.md` lists the classes found.
//!
//! It needs Go and Debian's sprig and `sigs.k8s.io/yaml` under `/usr/share/gocode` (GOPATH mode:
//! no module proxy is reachable); without them it fails, never skips. `.ci/run` installs them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ipreuse::topology::template::{BUILTINS, TemplateError, render, sprig};

/// The functions a template may call: Go's builtins and sprig's that ipreuse evaluates.
static FUNCTIONS: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| BUILTINS.iter().chain(sprig::NAMES).copied().collect());
use serde::Deserialize;
use serde_json::{Value, json};

use crate::support::tools::{cache_dir, lock_cache};

// ipreuse's reading of the rendered text, as CAPI reads it.
use ipreuse::topology::rendered::{RenderedError, is_true, read};

// -------------------------------------------------------------------------------------------
// Go's side
// -------------------------------------------------------------------------------------------

/// Where Debian installs Go libraries (GOPATH layout).
const GOCODE: &str = "/usr/share/gocode";

/// Builds `tests/go/capirender` once for this test run into `<target>/test-tools/capirender`
/// (GOPATH mode over [`GOCODE`], with a GOPATH of our own that gives sprig and semver the `/v3`
/// element of their import paths, which Debian's layout lacks).
fn capirender() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_capirender).clone()
}

fn build_capirender() -> PathBuf {
    let _lock = lock_cache("capirender");
    let dir = cache_dir().join("capirender-gopath");
    for lib in ["sprig", "semver"] {
        let real = Path::new(GOCODE)
            .join("src/github.com/Masterminds")
            .join(lib);
        assert!(
            real.is_dir(),
            "{} is missing: install golang-github-masterminds-sprig-dev (and its dependencies) \
             and golang-k8s-sigs-yaml-dev with apt-get, as .ci/run does",
            real.display()
        );
        let parent = dir.join("src/github.com/Masterminds").join(lib);
        std::fs::create_dir_all(&parent)
            .unwrap_or_else(|e| panic!("creating {}: {e}", parent.display()));
        let link = parent.join("v3");
        if std::fs::read_link(&link).ok().as_deref() != Some(real.as_path()) {
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&real, &link)
                .unwrap_or_else(|e| panic!("linking {}: {e}", link.display()));
        }
    }
    let gopath =
        std::env::join_paths([dir.clone(), PathBuf::from(GOCODE)]).expect("GOPATH folders join");
    let binary = cache_dir().join("capirender");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/go/capirender");
    let out = Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&binary)
        .arg(".")
        .current_dir(&source)
        .env("GO111MODULE", "off")
        .env("GOPATH", gopath)
        .env("GOCACHE", cache_dir().join("capirender-gocache"))
        .env("GOFLAGS", "")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "running `go build` failed ({e}): this test needs Go on PATH and Debian's \
                 golang-go golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev \
                 packages (.ci/run installs them)"
            )
        });
    assert!(
        out.status.success(),
        "go build of tests/go/capirender failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    binary
}

/// What CAPI's rendering gives for one case.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Go {
    /// The rendered text (absent when parsing or executing failed).
    #[serde(default)]
    output: Option<String>,
    /// The JSON that `sigs.k8s.io/yaml` read from it (absent when it is null or unreadable).
    #[serde(default)]
    value: Option<Value>,
    /// The rendered text is YAML null (CAPI's `apiextensionsv1.JSON` then has no bytes).
    #[serde(default)]
    null: bool,
    /// `patchIsEnabled`'s decision (absent when the YAML does not read).
    #[serde(default)]
    enabled: Option<bool>,
    /// `sigs.k8s.io/yaml` refused the rendered text.
    #[serde(default)]
    yaml_error: Option<String>,
    /// Parsing or executing the template failed.
    #[serde(default)]
    error: Option<String>,
}

/// Renders every case with Go, through one process.
fn run_go(cases: &[Case]) -> Vec<Go> {
    let binary = capirender();
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", binary.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let lines: Vec<String> = cases
        .iter()
        .map(|c| json!({"template": c.template, "variables": c.variables}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for line in lines {
            stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .expect("writing to capirender");
        }
    });
    let stdout = child.stdout.take().expect("piped stdout");
    let results: Vec<Go> = BufReader::new(stdout)
        .lines()
        .map(|line| {
            let line = line.expect("reading capirender's output");
            serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("capirender wrote {line:?}, not a result: {e}"))
        })
        .collect();
    writer.join().expect("the writer thread");
    let status = child.wait().expect("waiting for capirender");
    assert!(status.success(), "capirender exited with {status}");
    assert_eq!(results.len(), cases.len(), "capirender answered every case");
    results
}

// -------------------------------------------------------------------------------------------
// ipreuse's side
// -------------------------------------------------------------------------------------------

/// What ipreuse gives for one case.
#[derive(Debug)]
struct Ours {
    output: Result<String, TemplateError>,
    /// The value read from the output (when it rendered).
    value: Option<Result<Value, RenderedError>>,
    /// The enabledIf decision (when it rendered).
    enabled: Option<Result<bool, RenderedError>>,
}

/// ipreuse's rendering and its reading of the rendered text ([`read`], [`is_true`]), as the
/// patch engine does them.
fn ours(case: &Case) -> Ours {
    let output = render(&case.template, &case.variables);
    let (value, decision) = match &output {
        Ok(text) => (Some(read(text)), Some(is_true(text))),
        Err(_) => (None, None),
    };
    Ours {
        output,
        value,
        enabled: decision,
    }
}

// -------------------------------------------------------------------------------------------
// The comparison
// -------------------------------------------------------------------------------------------

/// An error ipreuse gives on purpose where Go renders: the test accepts it.
struct Refusal {
    /// Which errors it covers.
    matches: fn(&TemplateError) -> bool,
    #[allow(dead_code)]
    why: &'static str,
}

/// The errors ipreuse gives on purpose where Go renders a value.
const REFUSALS: &[Refusal] = &[
    Refusal {
        matches: |e| {
            matches!(e, TemplateError::UnknownFunction { name, .. }
                if !FUNCTIONS.contains(&name.as_str()))
        },
        why: "a function ipreuse does not evaluate (not in FUNCTIONS: html, js, call, and the \
              sprig functions not implemented) is an error naming it, never a guessed value",
    },
    Refusal {
        matches: |e| matches!(e, TemplateError::Printf { .. }),
        why: "a printf verb, flag or precision that ipreuse's fmt does not implement, or a format \
              that is not a literal, is an error naming it, never a value formatted differently",
    },
];

/// Why one case is not the same in Go and in ipreuse: a class (for the summary) and the
/// details. None when it is the same (or a listed refusal).
fn compare(go: &Go, ours: &Ours, role: Role) -> Option<(String, String)> {
    let differ = |class: &str, detail: String| Some((class.to_string(), detail));
    let output = match (&go.error, &ours.output) {
        (Some(_), Err(_)) => return None,
        (Some(e), Ok(out)) => {
            return differ(
                "Go fails, ipreuse renders",
                format!("Go: {e}\nipreuse wrote {out:?}"),
            );
        }
        (None, Err(e)) => {
            if REFUSALS.iter().any(|r| (r.matches)(e)) {
                return None;
            }
            let class = match e {
                TemplateError::Syntax { .. } => "ipreuse refuses the syntax, Go renders",
                TemplateError::Function { .. } => "ipreuse's function fails, Go's renders",
                _ => "ipreuse fails, Go renders",
            };
            return differ(
                class,
                format!(
                    "Go wrote {:?}\nipreuse: {e}",
                    go.output.as_deref().unwrap_or("")
                ),
            );
        }
        (None, Ok(out)) => out,
    };
    let Some(go_output) = &go.output else {
        return differ("Go gave no output", format!("{go:?}"));
    };
    if go_output != output {
        return differ(
            "the rendered text differs",
            format!("Go:      {go_output:?}\nipreuse: {output:?}"),
        );
    }
    if role == Role::EnabledIf {
        return compare_enabled(go, ours, output);
    }
    // The value: what a valueFrom.template gives.
    let go_value = if go.null {
        Some(Value::Null)
    } else {
        go.value.clone()
    };
    match (&go_value, ours.value.as_ref()) {
        (Some(want), Some(Ok(got))) if want == got => {}
        (Some(want), Some(Ok(got))) => {
            let class = if numbers_equal(want, got) {
                "the value's number is written differently (integer or float)"
            } else {
                "the value read from the text differs"
            };
            return differ(
                class,
                format!("text {output:?}\nGo's JSON: {want}\nipreuse:   {got}"),
            );
        }
        (Some(Value::Null), Some(Err(e))) => {
            return differ(
                "ipreuse refuses a text Go reads as null",
                format!("text {output:?}\nGo's JSON: null\nipreuse: {e}"),
            );
        }
        // YAML ipreuse does not evaluate because it cannot be sure to read it as go-yaml v2
        // (tabs, text after the value, a # glued to a value, ...): an error on purpose,
        // listed in docs/decisions.md.
        (Some(_), Some(Err(RenderedError::NotEvaluated { .. }))) => {}
        (Some(want), Some(Err(e))) => {
            return differ(
                "ipreuse refuses a text Go reads",
                format!("text {output:?}\nGo's JSON: {want}\nipreuse: {e}"),
            );
        }
        (None, Some(Ok(got))) => {
            return differ(
                "Go's YAML refuses a text ipreuse reads",
                format!(
                    "text {output:?}\nGo: {}\nipreuse:   {got}",
                    go.yaml_error.as_deref().unwrap_or("")
                ),
            );
        }
        (None, Some(Err(_))) => {}
        (_, None) => return differ("ipreuse read nothing", format!("{ours:?}")),
    }
    if role == Role::Value {
        return None;
    }
    compare_enabled(go, ours, output)
}

/// The enabledIf decision (the rendered text being the same).
fn compare_enabled(go: &Go, ours: &Ours, output: &str) -> Option<(String, String)> {
    let differ = |class: &str, detail: String| Some((class.to_string(), detail));
    match (go.enabled, ours.enabled.as_ref()) {
        (Some(want), Some(Ok(got))) if want == *got => None,
        (None, Some(Err(_))) => None,
        (Some(_), Some(Err(RenderedError::NotEvaluated { .. }))) => None,
        (Some(want), Some(Ok(got))) => differ(
            "the enabledIf decision differs",
            format!("text {output:?}\nGo: {want}\nipreuse: {got}"),
        ),
        (Some(want), Some(Err(e))) => differ(
            "ipreuse refuses an enabledIf text Go decides",
            format!("text {output:?}\nGo: {want}\nipreuse: {e}"),
        ),
        (None, Some(Ok(got))) => differ(
            "ipreuse decides an enabledIf text Go's YAML refuses",
            format!(
                "text {output:?}\nGo: {}\nipreuse: {got}",
                go.yaml_error.as_deref().unwrap_or("")
            ),
        ),
        (_, None) => differ("ipreuse decided nothing", format!("{ours:?}")),
    }
}

/// The same JSON but for how numbers are written (`1` and `1.0`).
fn numbers_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| numbers_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| numbers_equal(v, w)))
        }
        _ => a == b,
    }
}

/// One template and its variables, and where it comes from.
#[derive(Debug, Clone)]
struct Case {
    origin: String,
    template: String,
    variables: Value,
    role: Role,
}

/// What CAPI does with a template's rendered text: a class's template is one or the other, a
/// generated one is compared as both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// `valueFrom.template`: the JSON value is compared.
    Value,
    /// `enabledIf`: the decision is compared.
    EnabledIf,
    Both,
}

/// Runs `cases` through Go and ipreuse; the differences by class, each with its cases'
/// descriptions, and the refusals accepted (by what was refused).
fn differences(cases: &[Case]) -> (BTreeMap<String, Vec<String>>, BTreeMap<String, usize>) {
    let go = run_go(cases);
    let failing = go.iter().filter(|g| g.error.is_some()).count();
    let unreadable = go.iter().filter(|g| g.yaml_error.is_some()).count();
    eprintln!(
        "Go: of {} cases {failing} fail to render and {unreadable} render text its YAML refuses",
        cases.len()
    );
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    for (case, go) in cases.iter().zip(&go) {
        let ours = ours(case);
        match compare(go, &ours, case.role) {
            Some((class, detail)) => out.entry(class).or_default().push(format!(
                "{}\ntemplate:  {:?}\nvariables: {}\n{detail}\n",
                case.origin,
                case.template,
                shown_variables(&case.variables)
            )),
            None => {
                if let (None, Err(e)) = (&go.error, &ours.output) {
                    let what = match e {
                        TemplateError::UnknownFunction { name, .. } => format!("function {name}"),
                        TemplateError::Printf { what, .. } => format!("printf {what}"),
                        other => other.to_string(),
                    };
                    *refused.entry(what).or_default() += 1;
                }
            }
        }
    }
    (out, refused)
}

/// The variables as a difference shows them: those of a generated case as `.v` and `.w` over
/// [`base_variables`] (which are the same for every case and long).
fn shown_variables(variables: &Value) -> String {
    let base = base_variables();
    let Value::Object(all) = variables else {
        return variables.to_string();
    };
    let over: serde_json::Map<String, Value> = all
        .iter()
        .filter(|(k, v)| base.get(k.as_str()) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if over.len() + 2 >= all.len() {
        return variables.to_string();
    }
    format!("{} over base_variables()", Value::Object(over))
}

/// Fails with every difference: each printed (by class) and written to a file, and the count.
fn assert_no_differences(what: &str, cases: &[Case]) {
    let (found, refused) = differences(cases);
    let count: usize = found.values().map(Vec::len).sum();
    let refusals: Vec<String> = refused.iter().map(|(w, n)| format!("{w} ({n})")).collect();
    eprintln!(
        "{what}: {} cases, {count} differences, {} refused on purpose: {}",
        cases.len(),
        refused.values().sum::<usize>(),
        refusals.join(", ")
    );
    if count == 0 {
        return;
    }
    let mut all = String::new();
    for (class, items) in &found {
        let _ = writeln!(all, "=== {class}: {} cases\n", items.len());
        for item in items {
            let _ = writeln!(all, "{item}");
        }
    }
    eprintln!("{all}");
    let file = cache_dir().join(format!("{what}-differences.txt"));
    let _ = std::fs::create_dir_all(cache_dir());
    std::fs::write(&file, &all).unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
    let summary: Vec<String> = found
        .iter()
        .map(|(class, items)| format!("  {:>5}  {class}", items.len()))
        .collect();
    panic!(
        "{count} of {} cases differ from Go ({what}), each printed above and written to {}:\n{}",
        cases.len(),
        file.display(),
        summary.join("\n")
    );
}

// -------------------------------------------------------------------------------------------
// The tests
// -------------------------------------------------------------------------------------------

#[test]
fn generated_templates_render_as_in_go() {
    let cases = generated(GENERATED_SEED, GENERATED_COUNT);
    assert!(cases.len() >= 5000, "only {} generated cases", cases.len());
    assert_no_differences("go_templates-generated", &cases);
}

#[test]
fn clusterclass_templates_render_as_in_go() {
    let cases = class_templates();
    assert!(
        cases.len() >= 50,
        "only {} class templates: a file did not load",
        cases.len()
    );
    assert_no_differences("go_templates-classes", &cases);
}

/// The run-wide bound's premise (`ipreuse::topology::budget`): real class templates take a
/// handful of steps each (the heaviest a few hundred), so the run's 5,000,000 are hundreds of
/// thousands of real renders.
#[test]
fn real_class_templates_take_a_handful_of_steps() {
    use ipreuse::topology::template::{Limits, render_metered, value::Value as Data};
    let cases = class_templates();
    let mut steps: Vec<(u64, &str)> = cases
        .iter()
        .map(|case| {
            let data = Data::from_json(&case.variables);
            let (_, n) = render_metered(&case.template, &data, &Limits::default());
            (n, case.origin.as_str())
        })
        .collect();
    steps.sort_unstable();
    let (median, (most, origin)) = (steps[steps.len() / 2].0, steps[steps.len() - 1]);
    eprintln!("steps of the real class templates: median {median}, most {most} ({origin})");
    assert!(most > 0, "the templates were rendered");
    assert!(
        median <= 10 && most <= 500,
        "median {median}, most {most} ({origin}): real templates heavier than the run-wide bound \
         assumes"
    );
}

/// The comparison's own check: Go and ipreuse disagreeing is seen, and a refusal that is not
/// listed is a difference (so that a passing run means something).
#[test]
fn the_comparison_sees_a_difference() {
    let case = |t: &str| Case {
        origin: "the comparison's own check".into(),
        template: t.into(),
        variables: json!({"a": "x"}),
        role: Role::Both,
    };
    let cases = [
        case("{{ .a }}"),
        case("{{ .a | upper }}"),
        case("{{ nope }}"),
    ];
    let go = run_go(&cases);
    assert_eq!(go[0].output.as_deref(), Some("x"));
    assert_eq!(go[0].value, Some(json!("x")));
    assert!(go[2].error.is_some(), "Go refuses an undefined function");
    // ipreuse's own result for the first case, compared with Go's result for the second.
    assert!(compare(&go[1], &ours(&cases[0]), Role::Both).is_some());
    assert!(compare(&go[0], &ours(&cases[0]), Role::Both).is_none());
    // Go renders, ipreuse fails with an error that no refusal lists.
    let unlisted = Ours {
        output: Err(TemplateError::Execution {
            message: "made up".into(),
        }),
        value: None,
        enabled: None,
    };
    assert!(compare(&go[0], &unlisted, Role::Both).is_some());
    // Go fails, ipreuse renders.
    assert!(compare(&go[2], &ours(&cases[0]), Role::Both).is_some());
}

// -------------------------------------------------------------------------------------------
// The real ClusterClass templates
// -------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassFile {
    /// The source, for the reader: repository, path(s), commit, licence.
    #[allow(dead_code)]
    source: Source,
    /// The variables every template of the file sees (the class's defaults and the builtins
    /// as CAPI builds them), unless a template gives its own.
    variables: Value,
    /// More sets of variables each template is also rendered with (other values a Cluster
    /// could give), merged over `variables`.
    #[serde(default)]
    variants: Vec<Value>,
    templates: Vec<ClassTemplate>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Source {
    repository: String,
    paths: Vec<String>,
    #[serde(default)]
    commit: Option<String>,
    licence: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassTemplate {
    /// Where in the class: the patch and the field (`enabledIf`, `valueFrom.template`).
    name: String,
    template: String,
    /// Variables merged over the file's for this template.
    #[serde(default)]
    variables: Option<Value>,
}

/// `over` merged into `base`, object by object.
fn merged(base: &Value, over: &Value) -> Value {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            let mut out = b.clone();
            for (k, v) in o {
                let m = out.get(k).map_or_else(|| v.clone(), |old| merged(old, v));
                out.insert(k.clone(), m);
            }
            Value::Object(out)
        }
        _ => over.clone(),
    }
}

fn class_templates() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/clusterclass_templates");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("reading a class file");
        let file: ClassFile = serde_saphyr::from_str(&text)
            .unwrap_or_else(|e| panic!("{} does not read: {e}", path.display()));
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for t in &file.templates {
            let role = if t.name.ends_with("enabledIf") {
                Role::EnabledIf
            } else {
                Role::Value
            };
            let base = match &t.variables {
                Some(v) => merged(&file.variables, v),
                None => file.variables.clone(),
            };
            cases.push(Case {
                origin: format!("{name}: {}", t.name),
                template: t.template.clone(),
                variables: base.clone(),
                role,
            });
            for (i, variant) in file.variants.iter().enumerate() {
                cases.push(Case {
                    origin: format!("{name}: {} (variant {i})", t.name),
                    template: t.template.clone(),
                    variables: merged(&base, variant),
                    role,
                });
            }
        }
    }
    cases
}

// -------------------------------------------------------------------------------------------
// The generated templates
// -------------------------------------------------------------------------------------------

const GENERATED_SEED: u64 = 0x6970_7265_7573_6532;
const GENERATED_COUNT: usize = 12_000;

/// SplitMix64: a small, fixed generator, so that every run renders the same templates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The variables every generated template sees: every JSON kind, numbers that are integers
/// and not, big ones, strings that look like numbers, booleans, nulls, YAML, versions; nested
/// maps and lists; the builtins a class reads. `.v` and `.w` are added per case, of a random
/// kind.
fn base_variables() -> Value {
    serde_json::from_str(
        r#"{
        "str": "hello",
        "mixed": "MiXeD Case",
        "padded": "  padded text \n",
        "empty": "",
        "numstr": "123",
        "floatstr": "1.50",
        "octstr": "0644",
        "hexstr": "0x1F",
        "boolstr": "yes",
        "truestr": "true",
        "offstr": "Off",
        "nullstr": "null",
        "tildestr": "~",
        "colon": "a: b",
        "dash": "- item",
        "quoted": "it's \"quoted\"",
        "multiline": "line one\nline two\n",
        "unicode": "héllo wörld ß",
        "version": "v1.29.3",
        "prerelease": "1.30.0-rc.1+build.5",
        "badversion": "not-a-version",
        "constraint": ">=1.28.0",
        "int": 3,
        "zero": 0,
        "neg": -7,
        "float": 2.5,
        "whole": 4.0,
        "negfloat": -0.5,
        "million": 1000000,
        "big": 12345678901234567890,
        "int53": 9007199254740993,
        "large": 1e21,
        "tiny": 1e-7,
        "t": true,
        "f": false,
        "null": null,
        "list": ["a", "b", "c"],
        "nums": [1, 2.5, -3, 0],
        "bools": [true, false],
        "anylist": [1, "a", true, null, {"k": "v"}, [1, 2]],
        "emptylist": [],
        "map": {"a": "x", "b": 2, "c": null, "d": {"e": "deep"}, "f": [1, 2]},
        "emptymap": {},
        "ports": {"http": 80, "https": 443},
        "builtin": {
            "cluster": {
                "name": "cluster-1",
                "namespace": "metal3",
                "uid": "1f8e3b2c-0000-4000-8000-000000000001",
                "topology": {"version": "v1.29.3", "class": "metal3-class", "classNamespace": "metal3"},
                "network": {"pods": ["192.168.0.0/18"], "services": ["10.96.0.0/12"], "serviceDomain": "cluster.local", "ipFamily": "IPv4"},
                "metadata": {"labels": {"env": "prod", "dt": "dt-b"}, "annotations": {}}
            },
            "controlPlane": {"replicas": 3, "version": "v1.29.3", "name": "cluster-1-cp"},
            "machineDeployment": {"class": "md-0", "replicas": 2, "version": "v1.28.9", "topologyName": "workers"}
        }
    }"#,
    )
    .expect("the base variables are JSON")
}

/// A random JSON value of any kind.
fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let scalars: &[Value] = &[
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(42),
        json!(1.5),
        json!(-2.25),
        json!(3.0),
        json!(1e6),
        json!(1e21),
        json!(1e-5),
        json!(9_007_199_254_740_993_u64),
        json!(18_446_744_073_709_551_615_u64),
        json!(-9_223_372_036_854_775_808_i64),
        json!(""),
        json!("x"),
        json!("hello world"),
        json!("123"),
        json!("-1.5"),
        json!("0644"),
        json!("0x1F"),
        json!("1e3"),
        json!("yes"),
        json!("no"),
        json!("on"),
        json!("tRUE"),
        json!("True"),
        json!("null"),
        json!("~"),
        json!("a: b"),
        json!("- a"),
        json!("#c"),
        json!("'q'"),
        json!("\"dq\""),
        json!("[1, 2]"),
        json!("{a: 1}"),
        json!("v1.29.3"),
        json!("1.30.0-rc.1"),
        json!(">= 1.28"),
        json!("line\nbreak"),
        json!("tab\there"),
        json!(" lead"),
        json!("trail "),
        json!("ÄÖü"),
        json!("12:30"),
        json!("2001-12-14"),
        json!(".inf"),
        json!("&anchor"),
        json!("*alias"),
        json!("!tag"),
        json!("%d"),
    ];
    if depth > 0 && rng.chance(25) {
        let n = rng.below(4);
        if rng.chance(50) {
            Value::Array((0..n).map(|_| random_value(rng, depth - 1)).collect())
        } else {
            let keys = ["a", "b", "name", "x-y", "1", "enabled", "Key"];
            let mut map = serde_json::Map::new();
            for _ in 0..n {
                map.insert((*rng.pick(&keys)).to_string(), random_value(rng, depth - 1));
            }
            Value::Object(map)
        }
    } else {
        rng.pick(scalars).clone()
    }
}

/// Operands by the kind of value they give (for arguments that want one kind).
const STRINGS: &[&str] = &[
    ".str",
    ".mixed",
    ".padded",
    ".empty",
    ".numstr",
    ".floatstr",
    ".octstr",
    ".hexstr",
    ".boolstr",
    ".truestr",
    ".offstr",
    ".nullstr",
    ".tildestr",
    ".colon",
    ".dash",
    ".quoted",
    ".multiline",
    ".unicode",
    ".version",
    ".prerelease",
    ".map.a",
    ".map.d.e",
    ".builtin.cluster.name",
    ".builtin.cluster.namespace",
    ".builtin.cluster.topology.version",
    ".builtin.machineDeployment.class",
    ".builtin.cluster.metadata.labels.env",
    "\"\"",
    "\"s\"",
    "\"a-b\"",
    "\"x: y\"",
    "\"123\"",
    "\"yes\"",
    "\"true\"",
    "\"0644\"",
    "`raw\\n`",
    "\"esc\\t\\\"q\\\"\\n\"",
    "\"ünï\"",
];
const NUMBERS: &[&str] = &[
    ".int",
    ".zero",
    ".neg",
    ".float",
    ".whole",
    ".negfloat",
    ".million",
    ".big",
    ".int53",
    ".large",
    ".tiny",
    ".map.b",
    ".ports.http",
    ".builtin.controlPlane.replicas",
    ".builtin.machineDeployment.replicas",
    "0",
    "1",
    "3",
    "-2",
    "1.5",
    "3.0",
    "1e3",
    "0x1F",
    "0o17",
    "1_000",
    "'a'",
];
const BOOLS: &[&str] = &[".t", ".f", "true", "false"];
const LISTS: &[&str] = &[
    ".list",
    ".nums",
    ".bools",
    ".anylist",
    ".emptylist",
    ".map.f",
    ".builtin.cluster.network.pods",
];
const MAPS: &[&str] = &[
    ".map",
    ".emptymap",
    ".ports",
    ".map.d",
    ".builtin",
    ".builtin.cluster",
    ".builtin.cluster.metadata.labels",
    "$",
];
const NOTHING: &[&str] = &[
    ".null",
    ".missing",
    ".map.c",
    ".map.missing",
    ".map.d.missing",
    ".builtin.cluster.missing",
    ".missing.deeper",
    "nil",
];
/// Operands Go refuses to evaluate (a field of a string, of a number, of a null).
const BROKEN: &[&str] = &[".str.x", ".int.x", ".null.x", ".map.c.x", ".list.x"];

/// The kinds of argument a function's signature asks for.
#[derive(Clone, Copy)]
enum Arg {
    Any,
    Str,
    Num,
    List,
    Map,
    Constraint,
    Version,
    Regex,
    Key,
}

/// The functions the generator knows how to call: name and arguments (the last repeated when
/// `variadic`). Every name of [`FUNCTIONS`] must be here (checked): when ipreuse evaluates a new
/// function, it is generated too.
const SIGNATURES: &[(&str, &[Arg], bool)] = &[
    ("and", &[Arg::Any, Arg::Any], true),
    ("or", &[Arg::Any, Arg::Any], true),
    ("not", &[Arg::Any], false),
    ("eq", &[Arg::Any, Arg::Any], true),
    ("ne", &[Arg::Any, Arg::Any], false),
    ("lt", &[Arg::Any, Arg::Any], false),
    ("le", &[Arg::Any, Arg::Any], false),
    ("gt", &[Arg::Any, Arg::Any], false),
    ("ge", &[Arg::Any, Arg::Any], false),
    ("len", &[Arg::Any], false),
    ("index", &[Arg::Any, Arg::Key], true),
    ("slice", &[Arg::Any, Arg::Num], true),
    ("print", &[Arg::Any], true),
    ("println", &[Arg::Any], true),
    ("printf", &[], false), // formats: generated apart
    ("html", &[Arg::Str], false),
    ("js", &[Arg::Str], false),
    ("urlquery", &[Arg::Str], false),
    ("default", &[Arg::Any, Arg::Any], false),
    ("coalesce", &[Arg::Any], true),
    ("empty", &[Arg::Any], false),
    ("ternary", &[Arg::Any, Arg::Any, Arg::Any], false),
    ("upper", &[Arg::Str], false),
    ("lower", &[Arg::Str], false),
    ("title", &[Arg::Str], false),
    ("trim", &[Arg::Str], false),
    ("nospace", &[Arg::Str], false),
    ("trimAll", &[Arg::Str, Arg::Str], false),
    ("trimPrefix", &[Arg::Str, Arg::Str], false),
    ("trimSuffix", &[Arg::Str, Arg::Str], false),
    ("replace", &[Arg::Str, Arg::Str, Arg::Str], false),
    ("repeat", &[Arg::Num, Arg::Str], false),
    ("contains", &[Arg::Str, Arg::Str], false),
    ("hasPrefix", &[Arg::Str, Arg::Str], false),
    ("hasSuffix", &[Arg::Str, Arg::Str], false),
    ("quote", &[Arg::Any], true),
    ("squote", &[Arg::Any], true),
    ("toString", &[Arg::Any], false),
    ("toJson", &[Arg::Any], false),
    ("int", &[Arg::Any], false),
    ("int64", &[Arg::Any], false),
    ("float64", &[Arg::Any], false),
    ("atoi", &[Arg::Str], false),
    ("split", &[Arg::Str, Arg::Str], false),
    ("splitList", &[Arg::Str, Arg::Str], false),
    ("join", &[Arg::Str, Arg::List], false),
    ("list", &[Arg::Any], true),
    ("dict", &[Arg::Key, Arg::Any], true),
    ("get", &[Arg::Map, Arg::Key], false),
    ("hasKey", &[Arg::Map, Arg::Key], false),
    ("keys", &[Arg::Map], true),
    ("first", &[Arg::List], false),
    ("last", &[Arg::List], false),
    ("has", &[Arg::Any, Arg::List], false),
    ("regexMatch", &[Arg::Regex, Arg::Str], false),
    ("regexFind", &[Arg::Regex, Arg::Str], false),
    ("mustRegexFind", &[Arg::Regex, Arg::Str], false),
    ("regexFindAll", &[Arg::Regex, Arg::Str, Arg::Num], false),
    ("mustRegexFindAll", &[Arg::Regex, Arg::Str, Arg::Num], false),
    ("cat", &[Arg::Any], true),
    ("regexReplaceAll", &[Arg::Regex, Arg::Str, Arg::Str], false),
    (
        "regexReplaceAllLiteral",
        &[Arg::Regex, Arg::Str, Arg::Str],
        false,
    ),
    ("mustRegexMatch", &[Arg::Regex, Arg::Str], false),
    (
        "mustRegexReplaceAll",
        &[Arg::Regex, Arg::Str, Arg::Str],
        false,
    ),
    (
        "mustRegexReplaceAllLiteral",
        &[Arg::Regex, Arg::Str, Arg::Str],
        false,
    ),
    ("semver", &[Arg::Version], false),
    ("semverCompare", &[Arg::Constraint, Arg::Version], false),
    ("add", &[Arg::Num, Arg::Num], true),
    ("sub", &[Arg::Num, Arg::Num], false),
    ("mul", &[Arg::Num, Arg::Num], true),
    ("div", &[Arg::Num, Arg::Num], false),
    ("mod", &[Arg::Num, Arg::Num], false),
    ("max", &[Arg::Num, Arg::Num], true),
    ("min", &[Arg::Num, Arg::Num], true),
    ("b64enc", &[Arg::Str], false),
    ("b64dec", &[Arg::Str], false),
    ("sha256sum", &[Arg::Str], false),
    ("indent", &[Arg::Num, Arg::Str], false),
    ("nindent", &[Arg::Num, Arg::Str], false),
    ("typeOf", &[Arg::Any], false),
    ("kindIs", &[Arg::Str, Arg::Any], false),
];

/// `printf` verbs: the ones ipreuse implements and some it does not (those are refused, which
/// the test accepts; every other result is compared).
const VERBS: &[&str] = &[
    "%v", "%s", "%d", "%t", "%q", "%x", "%X", "%%", "%5v", "%-5s", "%3d", "%-4d", "%8q", "%2x",
    "%10v", "%v", "%s", "%d", "%f", "%.2f", "%e", "%g", "%o", "%b", "%c", "%U", "%+v", "%#v",
    "%05d", "%T", "%p", "%[1]s", "%!", "%", "%+d", "% d", "%.3s",
];

struct Gen<'a> {
    rng: &'a mut Rng,
    /// Names of the functions to call: [`FUNCTIONS`], and now and then one outside it.
    callable: Vec<&'static (&'static str, &'static [Arg], bool)>,
    others: Vec<&'static (&'static str, &'static [Arg], bool)>,
    /// Variables in scope (`$x`), innermost last.
    vars: Vec<String>,
    /// Inside a range (break and continue are allowed).
    in_range: usize,
    /// `.v` and `.w`: their kind, for operands of a kind.
    v_kind: [&'static str; 2],
    /// Inside `define "t"`: no `template "t"` (Go recurses until its depth limit).
    in_define: bool,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

impl Gen<'_> {
    /// An operand of a kind (mostly), sometimes of any kind (Go's type errors are compared too).
    fn operand(&mut self, want: Arg) -> String {
        if self.rng.chance(8) {
            return self.any_operand();
        }
        match want {
            Arg::Str => self.of_kind("string", STRINGS),
            Arg::Num => self.of_kind("number", NUMBERS),
            Arg::List => self.of_kind("list", LISTS),
            Arg::Map => self.of_kind("map", MAPS),
            Arg::Key => (*self.rng.pick(&[
                "\"a\"",
                "\"b\"",
                "\"c\"",
                "\"d\"",
                "\"missing\"",
                "\"http\"",
                "0",
                "1",
                "2",
                "5",
                "-1",
                ".str",
                ".int",
            ]))
            .to_string(),
            Arg::Constraint => (*self.rng.pick(&[
                "\">=1.28.0\"",
                "\"~1.29\"",
                "\"^1.2\"",
                "\"< 1.30.0-0\"",
                "\">= 1.2, < 1.3\"",
                "\"1.29.x\"",
                "\"!=1.29.3\"",
                "\">=1.29.0 || <1.0\"",
                "\"=v1.29.3\"",
                "\"bad constraint\"",
                "\"\"",
                ".constraint",
            ]))
            .to_string(),
            Arg::Version => (*self.rng.pick(&[
                ".version",
                ".prerelease",
                ".badversion",
                ".builtin.cluster.topology.version",
                ".builtin.machineDeployment.version",
                "\"v1.29.3\"",
                "\"1.30.0-rc.1\"",
                "\"1.2\"",
                "\"garbage\"",
                "\"v1.28.0+meta\"",
            ]))
            .to_string(),
            Arg::Regex => (*self.rng.pick(&[
                "\"^v\"",
                "\"[0-9]+\"",
                "\"^(\\\\d+)\\\\.(\\\\d+)\"",
                "\"a|b\"",
                "\"(?i)HELLO\"",
                "\"\\\\s+\"",
                "\"[\"",
                "\"(?=x)\"",
                "\"\"",
                "\".\"",
            ]))
            .to_string(),
            Arg::Any => self.any_operand(),
        }
    }

    fn of_kind(&mut self, kind: &str, fixed: &[&str]) -> String {
        for (i, k) in self.v_kind.iter().enumerate() {
            if *k == kind && self.rng.chance(20) {
                return [".v", ".w"][i].to_string();
            }
        }
        (*self.rng.pick(fixed)).to_string()
    }

    fn any_operand(&mut self) -> String {
        let n = self.rng.below(100);
        if n < 8 && !self.vars.is_empty() {
            return self.rng.pick(&self.vars).clone();
        }
        let group: &[&str] = match n {
            0..=19 => STRINGS,
            20..=37 => NUMBERS,
            38..=44 => BOOLS,
            45..=52 => LISTS,
            53..=59 => MAPS,
            60..=69 => NOTHING,
            70 => BROKEN,
            71..=79 => &["."],
            _ => {
                // A field of `.v` or `.w` where it is a map (of any other kind Go refuses it,
                // which BROKEN covers).
                let i = self.rng.below(2);
                let name = [".v", ".w"][i];
                if self.v_kind[i] == "map" && self.rng.chance(50) {
                    return format!("{name}.{}", self.rng.pick(&["a", "name", "missing"]));
                }
                return name.to_string();
            }
        };
        (*self.rng.pick(group)).to_string()
    }

    /// A command: a call of a function with arguments (a nested call in parentheses now and
    /// then), or an operand.
    fn call(&mut self, depth: usize, piped: bool) -> String {
        if self.rng.chance(3) && !self.others.is_empty() {
            let sig = *self.rng.pick(&self.others);
            return self.call_of(sig, depth, piped);
        }
        let sig = *self.rng.pick(&self.callable);
        self.call_of(sig, depth, piped)
    }

    fn call_of(
        &mut self,
        sig: &'static (&'static str, &'static [Arg], bool),
        depth: usize,
        piped: bool,
    ) -> String {
        let (name, args, variadic) = *sig;
        if name == "printf" {
            return self.printf(depth, piped);
        }
        let mut count = args.len();
        if variadic {
            count += self.rng.below(3);
        }
        if self.rng.chance(4) {
            // A wrong number of arguments now and then.
            count = self.rng.below(count + 2);
        }
        if piped && count > 0 {
            count -= 1;
        }
        let mut out = name.to_string();
        for i in 0..count {
            let want = args.get(i).or(args.last()).copied().unwrap_or(Arg::Any);
            out.push(' ');
            out.push_str(&self.argument(want, depth));
        }
        out
    }

    fn argument(&mut self, want: Arg, depth: usize) -> String {
        if depth > 0 && self.rng.chance(15) {
            format!("({})", self.pipeline(depth - 1))
        } else {
            self.operand(want)
        }
    }

    fn printf(&mut self, depth: usize, piped: bool) -> String {
        let mut format = String::new();
        let pieces = 1 + self.rng.below(3);
        let mut verbs = 0;
        for _ in 0..pieces {
            if self.rng.chance(50) {
                let text = *self.rng.pick(&["", "x=", "-", " ", "a: ", "\\n", "ü"]);
                format.push_str(text);
            }
            let verb = *self.rng.pick(VERBS);
            if verb != "%%" {
                verbs += 1;
            }
            format.push_str(verb);
        }
        let mut count = verbs;
        if self.rng.chance(15) {
            count = self.rng.below(verbs + 2);
        }
        if piped && count > 0 {
            count -= 1;
        }
        let mut out = format!("printf \"{format}\"");
        for _ in 0..count {
            out.push(' ');
            out.push_str(&self.argument(Arg::Any, depth));
        }
        out
    }

    /// A pipeline: a command, maybe piped into more.
    fn pipeline(&mut self, depth: usize) -> String {
        let mut out = if self.rng.chance(35) {
            self.operand(Arg::Any)
        } else {
            self.call(depth, false)
        };
        let more = if self.rng.chance(30) {
            1 + self.rng.below(2)
        } else {
            0
        };
        for _ in 0..more {
            out.push_str(" | ");
            out.push_str(&self.call(depth, true));
        }
        out
    }

    /// A condition: a comparison or a test of a value. Comparisons mostly compare values of
    /// one kind (Go refuses a string with a number, and an int literal with a float64
    /// variable: both are tried, less often, so that whole templates still render).
    fn condition(&mut self, depth: usize) -> String {
        match self.rng.below(6) {
            0 | 1 => {
                let op = *self.rng.pick(&["eq", "ne", "lt", "le", "gt", "ge"]);
                let (a, b) = match self.rng.below(8) {
                    0..=2 => (self.operand(Arg::Str), self.operand(Arg::Str)),
                    3..=5 => (self.float_operand(), self.float_operand()),
                    6 => (self.operand(Arg::Num), self.operand(Arg::Num)),
                    _ => (self.operand(Arg::Any), self.operand(Arg::Any)),
                };
                format!("{op} {a} {b}")
            }
            2 => {
                let op = *self.rng.pick(&["and", "or"]);
                let a = self.condition(depth.saturating_sub(1));
                let b = self.operand(Arg::Any);
                format!("{op} ({a}) {b}")
            }
            3 => format!("not {}", self.operand(Arg::Any)),
            _ => self.pipeline(depth),
        }
    }

    /// A float64 operand: a number of the variables (JSON numbers are float64 in Go) or a
    /// float literal.
    fn float_operand(&mut self) -> String {
        let fields: Vec<&str> = NUMBERS
            .iter()
            .copied()
            .filter(|n| n.starts_with('.'))
            .chain(["1.5", "3.0", "1e3", "-0.5"])
            .collect();
        self.of_kind("number", &fields)
    }

    fn open(&mut self) -> &'static str {
        if self.rng.chance(15) { "{{- " } else { "{{ " }
    }
    fn close(&mut self) -> &'static str {
        if self.rng.chance(15) { " -}}" } else { " }}" }
    }

    /// Template text: statements and YAML-looking text.
    fn body(&mut self, depth: usize) -> String {
        let n = 1 + self.rng.below(3);
        let mut out = String::new();
        let scope = self.vars.len();
        for _ in 0..n {
            out.push_str(&self.statement(depth));
        }
        self.vars.truncate(scope);
        out
    }

    fn statement(&mut self, depth: usize) -> String {
        let (o, c) = (self.open(), self.close());
        let choice = if depth == 0 {
            self.rng.below(4)
        } else {
            self.rng.below(14)
        };
        match choice {
            0 => (*self.rng.pick(&[
                "a: ", "- ", "\n", "key: ", "0644", "yes", "~", "\"", "'", "  ", "|\n  ", "# c\n",
                "[", "]", ", ", "{ ", " }", ": ", "x",
            ]))
            .to_string(),
            1 | 2 => format!("{o}{}{c}", self.pipeline(2)),
            3 => {
                if !self.vars.is_empty() && self.rng.chance(40) {
                    let v = self.rng.pick(&self.vars).clone();
                    format!("{o}{v} = {}{c}", self.pipeline(1))
                } else {
                    let v = format!("$v{}", self.vars.len());
                    let s = format!("{o}{v} := {}{c}", self.pipeline(1));
                    self.vars.push(v);
                    s
                }
            }
            4 | 5 => {
                let mut s = format!("{o}if {}{c}{}", self.condition(1), self.body(depth - 1));
                if self.rng.chance(30) {
                    s += &format!(
                        "{{{{ else if {} }}}}{}",
                        self.condition(1),
                        self.body(depth - 1)
                    );
                }
                if self.rng.chance(50) {
                    s += &format!("{{{{ else }}}}{}", self.body(depth - 1));
                }
                s + "{{ end }}"
            }
            6 => {
                let mut s = format!("{o}with {}{c}{}", self.pipeline(1), self.body(depth - 1));
                if self.rng.chance(40) {
                    s += &format!("{{{{ else }}}}{}", self.body(depth - 1));
                }
                s + "{{ end }}"
            }
            7 | 8 => {
                let what = if self.rng.chance(70) {
                    let kinds: Vec<&str> = self
                        .v_kind
                        .iter()
                        .zip([".v", ".w"])
                        .filter(|(k, _)| **k == "list" || **k == "map")
                        .map(|(_, n)| n)
                        .collect();
                    if !kinds.is_empty() && self.rng.chance(30) {
                        (*self.rng.pick(&kinds)).to_string()
                    } else {
                        let all: Vec<&str> = LISTS.iter().chain(MAPS).copied().collect();
                        (*self.rng.pick(&all)).to_string()
                    }
                } else {
                    (*self
                        .rng
                        .pick(&[".str", ".null", ".missing", ".t", "(list 1 2)"]))
                    .to_string()
                };
                let scope = self.vars.len();
                let decl = match self.rng.below(3) {
                    0 => String::new(),
                    1 => {
                        self.vars.push("$e".into());
                        "$e := ".to_string()
                    }
                    _ => {
                        self.vars.push("$i".into());
                        self.vars.push("$e".into());
                        "$i, $e := ".to_string()
                    }
                };
                self.in_range += 1;
                let mut s = format!("{o}range {decl}{what}{c}{}", self.body(depth - 1));
                if self.rng.chance(25) {
                    let ctl = *self.rng.pick(&["break", "continue"]);
                    s += &format!(
                        "{{{{ if {} }}}}{{{{ {ctl} }}}}{{{{ end }}}}",
                        self.condition(0)
                    );
                    s += &self.body(depth - 1);
                }
                self.in_range -= 1;
                self.vars.truncate(scope);
                if self.rng.chance(25) {
                    s += &format!("{{{{ else }}}}{}", self.body(depth - 1));
                }
                s + "{{ end }}"
            }
            9 => {
                if self.in_range > 0 || self.rng.chance(3) {
                    format!("{o}{}{c}", self.rng.pick(&["break", "continue"]))
                } else {
                    format!("{o}.{c}")
                }
            }
            10 => format!(
                "{}/* {} */{}",
                self.rng.pick(&["{{", "{{- "]),
                self.rng.pick(&["a comment", "{{ .x }}", "multi\nline"]),
                self.rng.pick(&["}}", " -}}"])
            ),
            11 => {
                let yaml = *self.rng.pick(&[
                    "{{ .K }}: {{ .V }}",
                    "- {{ .V }}",
                    "{{ .K }}: \"{{ .V }}\"",
                    "{{ .K }}: '{{ .V }}'",
                    "{{ .K }}:\n  - {{ .V }}\n  - {{ .K }}",
                    "{{ .K }}: |\n  {{ .V }}\n",
                    "[{{ .V }}, {{ .K }}]",
                    "{ {{ .K }}: {{ .V }} }",
                ]);
                let k = self.operand(Arg::Str);
                let v = self.operand(Arg::Any);
                yaml.replace(".K", &k).replace(".V", &v)
            }
            12 if !self.in_define => {
                format!("{o}template \"t\" {}{c}", self.operand(Arg::Any))
            }
            _ => format!("{o}{}{c}", self.condition(1)),
        }
    }
}

/// A whole template of one of the shapes classes write.
fn template(g: &mut Gen<'_>) -> String {
    let mut t = match g.rng.below(10) {
        0 | 1 => format!("{{{{ {} }}}}", g.pipeline(2)),
        2 => format!(
            "{{{{ if {} }}}}true{{{{ else }}}}false{{{{ end }}}}",
            g.condition(2)
        ),
        3 => format!("{{{{ {} }}}}", g.condition(2)),
        4 => {
            let mut s = String::new();
            for _ in 0..1 + g.rng.below(3) {
                let k = *g
                    .rng
                    .pick(&["name", "value", "a", "x-y", "1", "on", "port"]);
                s += &format!("{k}: {}\n", g.body(1));
            }
            s
        }
        5 => {
            let mut s = String::new();
            for _ in 0..1 + g.rng.below(3) {
                s += &format!("- {}\n", g.body(1));
            }
            s
        }
        _ => g.body(3),
    };
    if t.contains("template \"t\"") || g.rng.chance(5) {
        let (o, c) = (g.open(), g.close());
        g.in_define = true;
        let d = g.body(1);
        g.in_define = false;
        t = format!("{o}define \"t\"{c}{d}{{{{ end }}}}{t}");
    }
    t
}

/// Texts classes render (or write) that YAML 1.1 and 1.2 read differently or that are easy to
/// misread: each alone, and each through a variable.
const YAML_TEXTS: &[&str] = &[
    "0644",
    "0o644",
    "0x1F",
    "0b101",
    "+12",
    "1_000",
    "1e3",
    "1E3",
    "1.0",
    "-0",
    ".5",
    "5.",
    ".inf",
    "-.Inf",
    ".NaN",
    "12:30:00",
    "190:20:30",
    "2001-12-14",
    "yes",
    "Yes",
    "YES",
    "no",
    "No",
    "on",
    "On",
    "off",
    "OFF",
    "y",
    "Y",
    "n",
    "N",
    "true",
    "True",
    "TRUE",
    "tRUE",
    "false",
    "FALSE",
    "fAlse",
    "~",
    "null",
    "Null",
    "NULL",
    "nULL",
    "",
    " ",
    "\n",
    "\"quoted\"",
    "'single'",
    "'it''s'",
    "\"a\\tb\"",
    "|\n  block\n",
    "|\n  block",
    "|-\n  a\n  b\n",
    ">\n  folded\n  text\n",
    "a: 1\nb: [1, 2]",
    "{a: 1, b: {c: d}}",
    "- a\n- b\n",
    "- a\n-  b\n",
    "[1, \"2\", three]",
    "key: value # comment",
    "# only a comment",
    "? complex\n: value",
    "!!str 1",
    "!!int \"3\"",
    "!!float 1",
    "&a 1",
    "a: &x 1\nb: *x",
    "---\na: 1",
    "a: 1\n---\nb: 2",
    "a:\n\tb: 1",
    "\ta",
    "a:\n  b: 1\n c: 2",
    "a: b: c",
    "- - a",
    "@x",
    "`x`",
    "%x",
    "12345678901234567890",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "1.7976931348623157e309",
    "0.1",
    "100000000000000000000.0",
    "9007199254740993",
    "<no value>",
    "<nil>",
    "map[a:1]",
    "[a b]",
    "=",
    "<<: {a: 1}",
    "a: 1\na: 2",
];

/// The minimal example of each class of difference in
/// `tests/data/clusterclass_templates/KNOWN_DIFFERENCES.md` (template, variables), so that the
/// list's examples are checked against Go on every run.
const KNOWN_EXAMPLES: &[(&str, &str)] = &[
    (" ", "{}"),
    ("a:{{- /* c */}}\nb: 1", "{}"),
    ("{{ printf \"%5d\" \"x\" }}", "{}"),
    ("{{ printf \"%d\" .l }}", r#"{"l": [1, 2]}"#),
    ("{{ printf \"%5v\" .l }}", r#"{"l": ["a"]}"#),
    ("{{ printf \"%q\" 65 }}", "{}"),
    ("{{ printf \"%x\" 1.5 }}", "{}"),
    ("{{ printf \"%s\" .l }}", r#"{"l": ["a"]}"#),
    ("{{ printf \"%q\" \"é\" }}", "{}"),
    ("{{ upper \"ß\" }}", "{}"),
    ("{{ or .a .n.x }}", r#"{"a": "x", "n": null}"#),
    ("{{ if false }}{{ .n.x }}{{ end }}", r#"{"n": null}"#),
    ("{{ index .a }}", r#"{"a": "x"}"#),
    ("{{ range .l }}{{ .x }}{{ end }}", r#"{"l": [null]}"#),
    ("0644", "{}"),
    ("tRUE", "{}"),
    ("0X1F", "{}"),
    ("1e3", "{}"),
    ("1.0", "{}"),
    ("|\n  x", "{}"),
    ("!tag", "{}"),
    ("\ta", "{}"),
    (".inf", "{}"),
    ("a: 1\na: 2", "{}"),
    ("a: 1\n---\nb: 2", "{}"),
    ("[] 80", "{}"),
    ("1e400", "{}"),
    ("", "{}"),
    ("- y", "{}"),
    ("\"true\"", "{}"),
    ("yes: 1", "{}"),
    ("1.2345678901234567e+19: a", "{}"),
    (
        "{{ range .l }}{{ else }}{{ break }}{{ end }}",
        r#"{"l": [1]}"#,
    ),
    // Not run: example 9 (semverCompare != with a prerelease) is a difference of library
    // versions, Debian's Masterminds/semver 3.2.0 against the 3.4.0 CAPI builds with
    // (KNOWN_DIFFERENCES.md says so); ipreuse follows CAPI's.
    ("'Q'123", "{}"),
    ("{ a: 1 }# c", "{}"),
    ("&a[1]", "{}"),
    ("{ a\nb: c }", "{}"),
    ("1.50: a", "{}"),
    ("Off: 1", "{}"),
];

fn generated(seed: u64, count: usize) -> Vec<Case> {
    let mut rng = Rng(seed);
    let known: Vec<&str> = SIGNATURES.iter().map(|s| s.0).collect();
    let missing: Vec<&&str> = FUNCTIONS.iter().filter(|f| !known.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "ipreuse evaluates {missing:?}, which the generator cannot call yet: add their \
         signatures to SIGNATURES"
    );
    let callable: Vec<_> = SIGNATURES
        .iter()
        .filter(|s| FUNCTIONS.contains(&s.0))
        .collect();
    let others: Vec<_> = SIGNATURES
        .iter()
        .filter(|s| !FUNCTIONS.contains(&s.0))
        .collect();
    let base = base_variables();
    let mut cases = Vec::new();
    for (i, (template, variables)) in KNOWN_EXAMPLES.iter().enumerate() {
        cases.push(Case {
            origin: format!("KNOWN_DIFFERENCES.md example {i}"),
            template: (*template).to_string(),
            variables: serde_json::from_str(variables).expect("an example's variables are JSON"),
            role: Role::Both,
        });
    }
    // The YAML texts, alone and through variables.
    for (i, text) in YAML_TEXTS.iter().enumerate() {
        let mut vars = base.clone();
        vars["v"] = json!(text);
        vars["w"] = json!(i);
        for template in [
            (*text).to_string(),
            "{{ .v }}".to_string(),
            "x: {{ .v }}".to_string(),
            "- {{ .v }}".to_string(),
            "{{ .v }}\n".to_string(),
        ] {
            cases.push(Case {
                origin: format!("YAML text {i}"),
                template,
                variables: vars.clone(),
                role: Role::Both,
            });
        }
    }
    // Every function on every kind of operand, deterministically.
    let all_operands: Vec<&str> = STRINGS
        .iter()
        .chain(NUMBERS)
        .chain(BOOLS)
        .chain(LISTS)
        .chain(MAPS)
        .chain(NOTHING)
        .copied()
        .collect();
    for (name, args, _) in callable.iter().map(|s| **s) {
        if name == "printf" {
            for verb in VERBS {
                for operand in &all_operands {
                    cases.push(Case {
                        origin: format!("printf {verb} on every operand"),
                        template: format!("{{{{ printf \"{verb}\" {operand} }}}}"),
                        variables: base.clone(),
                        role: Role::Both,
                    });
                }
            }
            continue;
        }
        for operand in &all_operands {
            let mut g = Gen {
                rng: &mut rng,
                callable: callable.clone(),
                others: Vec::new(),
                vars: Vec::new(),
                in_range: 0,
                v_kind: ["none", "none"],
                in_define: false,
            };
            let rest: Vec<String> = args.iter().skip(1).map(|a| g.operand(*a)).collect();
            let call = if args.is_empty() {
                format!("{name} {operand}")
            } else {
                format!("{name} {operand} {}", rest.join(" "))
            };
            cases.push(Case {
                origin: format!("{name} on every operand"),
                template: format!("{{{{ {} }}}}", call.trim_end()),
                variables: base.clone(),
                role: Role::Both,
            });
            // The operand piped in, as the last argument.
            if !args.is_empty() {
                let first: Vec<String> = args
                    .iter()
                    .take(args.len() - 1)
                    .map(|a| g.operand(*a))
                    .collect();
                cases.push(Case {
                    origin: format!("{name} on every operand, piped"),
                    template: format!("{{{{ {operand} | {name} {} }}}}", first.join(" "))
                        .replace("  }}", " }}"),
                    variables: base.clone(),
                    role: Role::Both,
                });
            }
        }
    }
    // Random templates.
    let fixed = cases.len();
    while cases.len() < fixed + count {
        let mut vars = base.clone();
        let v = random_value(&mut rng, 2);
        let w = random_value(&mut rng, 2);
        let v_kind = [kind_of(&v), kind_of(&w)];
        vars["v"] = v;
        vars["w"] = w;
        let mut g = Gen {
            rng: &mut rng,
            callable: callable.clone(),
            others: others.clone(),
            vars: Vec::new(),
            in_range: 0,
            v_kind,
            in_define: false,
        };
        let template = template(&mut g);
        cases.push(Case {
            origin: format!("generated {}", cases.len() - fixed),
            template,
            variables: vars,
            role: Role::Both,
        });
    }
    cases
}
