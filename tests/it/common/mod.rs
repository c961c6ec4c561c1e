//! Helpers shared by the integration tests: small builders that write the YAML of hosts,
//! pools and clusters, a way to run the function, and ordered readers of its output.
//!
//! Expectations are never copied from the program: the tests derive them from SPEC rules and
//! read the output back with an independent YAML parser (`serde-saphyr`).

mod fields;
pub mod messages;
pub use fields::{assert_fields_resolve, field_problems};
pub use messages::assert_messages_for_people;

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use ipreuse::krm::Source;
use ipreuse::results::{Finding, Severity};
use ipreuse::run::{Outcome, run};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Value, json};

pub use crate::fixtures::*;

/// A typed functionConfig with `spec`.
pub fn config(spec: Value) -> Value {
    json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse", "metadata": {"name": "cfg"}, "spec": spec})
}

/// A `config.kubernetes.io/v1` ResourceList holding `items` (each a document's text) and a
/// functionConfig written as YAML text (or none).
pub fn resource_list(items: &[String], function_config: Option<&str>) -> String {
    let mut s = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for item in items {
        s.push_str(&indent_item(item));
    }
    if let Some(fc) = function_config {
        s.push_str("functionConfig:\n");
        for line in fc.lines() {
            writeln!(s, "  {line}").unwrap();
        }
    }
    s
}

/// A document as a `- ` item of a list at indent 0.
pub fn indent_item(doc: &str) -> String {
    let mut s = String::new();
    for (i, line) in doc.lines().enumerate() {
        let lead = if i == 0 { "- " } else { "  " };
        writeln!(s, "{lead}{line}").unwrap();
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/// Runs on named sources; panics on `RunError` (tests that expect one call `run` directly).
pub fn run_sources(sources: &[(String, String)], cfg: Option<&Value>) -> Outcome {
    let srcs: Vec<Source> = sources
        .iter()
        .map(|(name, text)| Source {
            name: name.clone(),
            text: text.clone(),
        })
        .collect();
    match run(&srcs, cfg) {
        Ok(o) => {
            assert_fields_resolve(&srcs, cfg, &o);
            assert_messages_for_people(&o.findings);
            o
        }
        Err(e) => panic!("run failed: {e}"),
    }
}

/// Runs on one source holding `text`.
pub fn run_text(text: &str, cfg: Option<&Value>) -> Outcome {
    run_sources(&[("input.yaml".into(), text.into())], cfg)
}

/// Runs on one stream of documents.
pub fn run_docs(docs: &[String], cfg: Option<&Value>) -> Outcome {
    run_text(&stream(docs), cfg)
}

// ---------------------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------------------

/// All findings, one per line, for panic messages.
pub fn dump(o: &Outcome) -> String {
    let mut s = String::new();
    for f in &o.findings {
        let r = f
            .resource_ref
            .as_ref()
            .map(|r| {
                format!(
                    "{} {}/{}",
                    r.kind,
                    r.namespace.as_deref().unwrap_or("-"),
                    r.name
                )
            })
            .unwrap_or_default();
        let p = f.field.as_ref().map(|f| f.path.as_str()).unwrap_or("");
        writeln!(s, "  {:?} [{r}] ({p}) {}", f.severity, f.message).unwrap();
    }
    s
}

pub fn errors(o: &Outcome) -> Vec<&Finding> {
    o.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

pub fn warnings(o: &Outcome) -> Vec<&Finding> {
    o.findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .collect()
}

/// What a finding must look like; `None` fields are not checked.
#[derive(Default, Clone, Copy)]
pub struct Want<'a> {
    pub path: Option<&'a str>,
    /// (kind, name) of the resourceRef.
    pub object: Option<(&'a str, &'a str)>,
    /// Substrings of the message.
    pub says: &'a [&'a str],
}

fn matches(f: &Finding, w: &Want) -> bool {
    if let Some(p) = w.path
        && f.field.as_ref().map(|x| x.path.as_str()) != Some(p)
    {
        return false;
    }
    if let Some((kind, name)) = w.object {
        match &f.resource_ref {
            Some(r) if r.kind == kind && r.name == name => {}
            _ => return false,
        }
    }
    w.says.iter().all(|s| f.message.contains(s))
}

/// The findings of `severity` that match `want`.
pub fn matching<'a>(o: &'a Outcome, severity: Severity, want: Want) -> Vec<&'a Finding> {
    o.findings
        .iter()
        .filter(|f| f.severity == severity && matches(f, &want))
        .collect()
}

/// Asserts that a finding of `severity` matches `want`.
pub fn assert_finding(o: &Outcome, severity: Severity, want: Want) {
    assert!(
        !matching(o, severity, want).is_empty(),
        "no {severity:?} with path {:?}, object {:?}, saying {:?}; findings:\n{}",
        want.path,
        want.object,
        want.says,
        dump(o)
    );
}

/// Asserts an error matching `want`.
pub fn assert_error(o: &Outcome, want: Want) {
    assert_finding(o, Severity::Error, want);
}

/// Asserts a warning matching `want`.
pub fn assert_warning(o: &Outcome, want: Want) {
    assert_finding(o, Severity::Warning, want);
}

/// Asserts that there is no error at all.
pub fn assert_no_errors(o: &Outcome) {
    assert!(errors(o).is_empty(), "unexpected errors:\n{}", dump(o));
}

/// Asserts that the run failed and returned every source byte for byte.
pub fn assert_transactional(o: &Outcome, inputs: &[&str]) {
    assert!(
        !errors(o).is_empty(),
        "expected an error; findings:\n{}",
        dump(o)
    );
    assert_eq!(o.outputs.len(), inputs.len());
    for (out, inp) in o.outputs.iter().zip(inputs) {
        assert_eq!(out, inp, "an item changed although there is an error");
    }
    assert!(o.changed.iter().all(|c| !c), "changed = {:?}", o.changed);
}

// ---------------------------------------------------------------------------------------------
// Reading the output back (an independent parser, keeping key order)
// ---------------------------------------------------------------------------------------------

/// A mapping that keeps its written key order; values kept as JSON.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ordered(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<Value, Value>()? {
                    let k = match k {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
                Ok(Ordered::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<Ordered, E> {
                Ok(Ordered::default())
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, serde::Deserialize)]
struct DocMeta {
    name: Option<String>,
    namespace: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
struct DocSpec {
    #[serde(rename = "preAllocations", default)]
    pre_allocations: Option<Ordered>,
}

#[derive(Debug, serde::Deserialize)]
struct Doc {
    kind: Option<String>,
    metadata: Option<DocMeta>,
    spec: Option<DocSpec>,
}

#[derive(Debug, serde::Deserialize)]
struct ResourceListDoc {
    #[serde(default)]
    items: Vec<Doc>,
}

/// The entries of every IPPool, by (namespace, name), in written order, values as text.
pub type Entries = BTreeMap<(String, String), Vec<(String, String)>>;

fn collect(docs: Vec<Doc>, out: &mut Entries) {
    for d in docs {
        if d.kind.as_deref() != Some("IPPool") {
            continue;
        }
        let meta = d.metadata.expect("pool without metadata");
        let key = (
            meta.namespace.unwrap_or_else(|| "default".into()),
            meta.name.unwrap_or_default(),
        );
        let entries = d
            .spec
            .and_then(|s| s.pre_allocations)
            .unwrap_or_default()
            .0
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, v)
            })
            .collect();
        out.insert(key, entries);
    }
}

/// The pool entries of a plain stream.
pub fn entries(text: &str) -> Entries {
    let docs: Vec<Doc> = serde_saphyr::from_multiple(text)
        .unwrap_or_else(|e| panic!("output is not YAML: {e}\n{text}"));
    let mut out = Entries::new();
    collect(docs, &mut out);
    out
}

/// The pool entries of a ResourceList's items.
pub fn rl_entries(text: &str) -> Entries {
    let rl: ResourceListDoc =
        serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("output is not YAML: {e}\n{text}"));
    let mut out = Entries::new();
    collect(rl.items, &mut out);
    out
}

/// The pool entries of all outputs of an outcome (plain streams).
pub fn all_entries(o: &Outcome) -> Entries {
    let mut out = Entries::new();
    for text in &o.outputs {
        out.extend(entries(text));
    }
    out
}

/// The entries of pool `ns/name` in the outputs.
pub fn pool_entries(o: &Outcome, ns: &str, name: &str) -> Vec<(String, String)> {
    all_entries(o)
        .remove(&(ns.to_string(), name.to_string()))
        .unwrap_or_else(|| panic!("no IPPool {ns}/{name} in the output"))
}

/// The value of entry `key` in pool `ns/name`.
pub fn entry_of(o: &Outcome, ns: &str, name: &str, key: &str) -> Option<String> {
    pool_entries(o, ns, name)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// Any YAML text as JSON values (one per document).
pub fn json_docs(text: &str) -> Vec<Value> {
    serde_saphyr::from_multiple(text).unwrap_or_else(|e| panic!("not YAML: {e}\n{text}"))
}

/// Whether `small`'s lines occur in `big` in order (`big` may have extra lines).
pub fn is_line_subsequence(small: &str, big: &str) -> bool {
    let mut it = big.split('\n');
    small.split('\n').all(|l| it.any(|b| b == l))
}

/// The lines of `big` that are not matched by `small`'s lines (in order), for messages.
pub fn added_lines<'a>(small: &str, big: &'a str) -> Vec<&'a str> {
    let want: Vec<&str> = small.split('\n').collect();
    let mut i = 0;
    let mut out = Vec::new();
    for b in big.split('\n') {
        if i < want.len() && want[i] == b {
            i += 1;
        } else {
            out.push(b);
        }
    }
    out
}

/// IPv4 text `a.b.c.d` → u32.
pub fn v4(s: &str) -> u32 {
    let a: std::net::Ipv4Addr = s.parse().unwrap_or_else(|_| panic!("{s:?} is not IPv4"));
    u32::from(a)
}

/// u32 → IPv4 text.
pub fn v4s(n: u32) -> String {
    std::net::Ipv4Addr::from(n).to_string()
}

/// Output documents of a one-source stream, split at `---` lines.
pub fn split_docs(text: &str) -> Vec<String> {
    let mut docs = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "---" {
            docs.push(String::new());
        } else {
            docs.last_mut().unwrap().push_str(line);
        }
    }
    docs
}

/// Runs the binary with `args` and `stdin` written to it, and waits for it.
pub fn run_bin_stdin(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ipreuse"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ipreuse");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for ipreuse")
}

/// A proptest configuration of `cases` cases, unless `PROPTEST_CASES` asks for another number
/// (to explore longer; proptest lets it override any configured count); failures are not
/// written into the repository. Every `proptest!` of the tests uses this or
/// [`pt_config_persisted`] (the crate's `prop_config` test checks it).
pub fn pt_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        failure_persistence: None,
        ..pt_config_persisted(cases)
    }
}

/// [`pt_config`], with failures kept in `tests/NAME.proptest-regressions` and replayed first
/// (proptest's default). Refuses `PROPTEST_CASES=0`, with which every property would run no
/// case and pass.
pub fn pt_config_persisted(cases: u32) -> proptest::test_runner::Config {
    let config = proptest::test_runner::Config {
        cases,
        ..proptest::test_runner::Config::default()
    };
    let runs = proptest::test_runner::contextualize_config(config.clone()).cases;
    assert!(
        runs > 0,
        "PROPTEST_CASES=0: the property tests would run no case and pass without testing \
         anything; unset PROPTEST_CASES or set it to 1 or more"
    );
    config
}

/// The results of `o` without their `file`: each result names where its item is in the input
/// (the document's position and line), which moves when the items are reordered, while what the
/// results say must not.
pub fn placeless(o: &Outcome) -> Vec<Finding> {
    let mut findings = o.findings.clone();
    for f in &mut findings {
        f.file = None;
    }
    findings
}
