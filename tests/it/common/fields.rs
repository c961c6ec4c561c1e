//! Every error and warning sits at a field that exists (issue 21, acceptance 7): the
//! `field.path` of a result on an object resolves in that object as it came in, or, for a
//! check-mode error only, in what fill writes into it (the entry, label or arg fill would add). A result on the
//! functionConfig names one of its fields (`spec.*` or `data.*`, or `metadata.*`).
//!
//! [`super::run_sources`] checks every outcome with [`assert_fields_resolve`], so every test that
//! runs the function through the shared helpers holds its results to this, whatever it asserts
//! itself. The input is read back with `serde-saphyr`, independently of the function's parser.

use ipreuse::krm::Source;
use ipreuse::results::{Finding, Severity};
use ipreuse::run::{Options, Outcome, run_with};
use serde_json::Value;

/// One segment of a `field.path`.
#[derive(Debug, PartialEq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Reads kpt's dotted form as the function writes it: `a.b[0].c`, a key that is not a plain word
/// bracketed after its dot (`metadata.annotations.[ipreuse.dev/ip.p]`), `.` for the root.
fn segments(path: &str) -> Result<Vec<Seg>, String> {
    if path == "." {
        return Ok(Vec::new());
    }
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // Whether the next `[` opens a key (at the start or after a dot) or an index.
    let mut key_next = true;
    while i < bytes.len() {
        match bytes[i] {
            b'.' if !key_next => {
                key_next = true;
                i += 1;
            }
            b'[' => {
                // A bracketed key ends at the `]` followed by the end, a `.` or a `[`.
                let mut j = i + 1;
                let end = loop {
                    match bytes.get(j) {
                        None => return Err(format!("unclosed `[` in {path:?}")),
                        Some(b']')
                            if matches!(bytes.get(j + 1), None | Some(b'.') | Some(b'[')) =>
                        {
                            break j;
                        }
                        Some(_) => j += 1,
                    }
                };
                let inner = &path[i + 1..end];
                if key_next {
                    out.push(Seg::Key(inner.to_string()));
                } else {
                    let n = inner
                        .parse()
                        .map_err(|_| format!("index {inner:?} of {path:?} is not a number"))?;
                    out.push(Seg::Index(n));
                }
                key_next = false;
                i = end + 1;
            }
            _ if key_next => {
                let end = path[i..].find(['.', '[']).map_or(path.len(), |at| i + at);
                out.push(Seg::Key(path[i..end].to_string()));
                key_next = false;
                i = end;
            }
            _ => return Err(format!("unexpected {:?} in {path:?}", bytes[i] as char)),
        }
    }
    if key_next && !out.is_empty() {
        return Err(format!("{path:?} ends with a dot"));
    }
    Ok(out)
}

fn resolve<'a>(value: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        Seg::Key(k) => v.as_object()?.get(k),
        Seg::Index(n) => v.as_array()?.get(*n),
    })
}

/// The objects of a text as its framing holds them: a ResourceList's items (and its
/// functionConfig, apart), a `List`'s items, or the documents.
fn objects(text: &str, out: &mut Vec<Value>, configs: &mut Vec<Value>) -> Result<(), String> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| e.to_string())?;
    for doc in docs {
        if doc.get("kind").and_then(Value::as_str) == Some("ResourceList") {
            if let Some(fc) = doc.get("functionConfig").filter(|v| !v.is_null()) {
                configs.push(fc.clone());
            }
            for item in doc
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                flatten(item.clone(), out);
            }
        } else {
            flatten(doc, out);
        }
    }
    Ok(())
}

fn flatten(v: Value, out: &mut Vec<Value>) {
    if v.get("kind").and_then(Value::as_str) == Some("List")
        && let Some(items) = v.get("items").and_then(Value::as_array)
    {
        for item in items {
            flatten(item.clone(), out);
        }
    } else if v.is_object() {
        out.push(v);
    }
}

fn is_config(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("IPReuse")
}

/// Whether `v` is the object a result names. A result's namespace is the one the function read
/// the object in, which may be a default the object does not spell out.
fn names(v: &Value, r: &ipreuse::results::ResourceRef) -> bool {
    let s = |p: &str| v.pointer(p).and_then(Value::as_str);
    s("/apiVersion") == Some(r.api_version.as_str())
        && s("/kind") == Some(r.kind.as_str())
        && s("/metadata/name").unwrap_or("") == r.name
        && match (s("/metadata/namespace"), r.namespace.as_deref()) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
}

/// Panics, naming the result, when an error or warning of `o` sits at a field that its object
/// does not have (as it came in, or as fill writes it).
pub fn assert_fields_resolve(sources: &[Source], config: Option<&Value>, o: &Outcome) {
    let problems = field_problems(sources, config, o);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each error or warning of `o` that sits at a field its object does not have (as it came in,
/// or as fill writes it), said with the result.
pub fn field_problems(sources: &[Source], config: Option<&Value>, o: &Outcome) -> Vec<String> {
    let mut problems = Vec::new();
    let checked: Vec<&Finding> = o
        .findings
        .iter()
        .filter(|f| matches!(f.severity, Severity::Error | Severity::Warning))
        .filter(|f| f.field.is_some())
        .collect();
    if checked.is_empty() {
        return problems;
    }
    let mut inputs = Vec::new();
    let mut configs: Vec<Value> = config.into_iter().cloned().collect();
    for s in sources {
        // Input the function refuses to read has nothing to resolve in; its results are about
        // the text, not a field.
        if objects(&s.text, &mut inputs, &mut configs).is_err() {
            return problems;
        }
    }
    configs.extend(inputs.iter().filter(|v| is_config(v)).cloned());
    let mut filled: Option<Vec<Value>> = None;
    for f in checked {
        let path = &f.field.as_ref().map(|p| p.path.clone()).unwrap_or_default();
        let segs = match segments(path) {
            Ok(segs) => segs,
            Err(e) => {
                problems.push(format!("result at a path that does not read: {e}\n{f:#?}"));
                continue;
            }
        };
        let Some(r) = &f.resource_ref else {
            continue;
        };
        if r.kind == "IPReuse" || (r.kind == "ConfigMap" && configs.iter().any(|c| names(c, r))) {
            let on_config = configs
                .iter()
                .any(|c| names(c, r) && resolve(c, &segs).is_some());
            let config_field = matches!(
                segs.first(),
                Some(Seg::Key(k)) if k == "spec" || k == "data" || k == "metadata"
            );
            if !(on_config || config_field) {
                problems.push(format!(
                    "a result on the functionConfig names no field of it:\n{f:#?}"
                ));
            }
            continue;
        }
        let candidates: Vec<&Value> = inputs.iter().filter(|v| names(v, r)).collect();
        if candidates.is_empty() {
            problems.push(format!(
                "a result names an object that is not in the input:\n{f:#?}"
            ));
            continue;
        }
        if candidates.iter().any(|v| resolve(v, &segs).is_some()) {
            continue;
        }
        if candidates
            .iter()
            .any(|v| asks_for_missing(v, &segs, &f.message))
        {
            continue;
        }
        // Only a check-mode error may name a field the input lacks: the entry, label or arg
        // fill would add (SPEC §9), which fill's output has.
        if !(f.is_error() && f.message.starts_with("check: ")) {
            problems.push(format!(
                "a result sits at a field that its object does not have:\n{f:#?}"
            ));
            continue;
        }
        let filled = filled.get_or_insert_with(|| fill_outputs(sources, config));
        if !filled
            .iter()
            .any(|v| names(v, r) && resolve(v, &segs).is_some())
        {
            problems.push(format!(
                "a check result sits at a field that its object does not have, neither as it \
                 came in nor as fill writes it:\n{f:#?}"
            ));
        }
    }
    problems
}

/// Maps whose keys are the user's (claims, annotations, labels, variables): a result may name
/// one of their keys only where it is, or where it is missing and the message says so.
const KEYED_MAPS: &[&str] = &[
    "preAllocations",
    "annotations",
    "labels",
    "indexes",
    "data",
    "stringData",
];

/// Whether a result at a path that does not resolve asks for a field that is missing: its last
/// segment is a field of the kind's schema (a result may ask to add `spec.pools`), or a key of
/// one of the user's maps that the message says is missing (`has no annotation "x"`). A key of the user's maps that is neither there nor said to
/// be missing (a conflict reported at an entry that does not exist) does not resolve.
fn asks_for_missing(v: &Value, segs: &[Seg], message: &str) -> bool {
    if resolve(v, segs).is_some() {
        return true;
    }
    let parent_key = match segs.len().checked_sub(2).map(|p| &segs[p]) {
        Some(Seg::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    match (segs.last(), parent_key) {
        (Some(Seg::Key(k)), Some(parent)) if KEYED_MAPS.contains(&parent) => {
            message.contains(k.as_str())
                && ["has no", "missing", "is not set", "not found"]
                    .iter()
                    .any(|w| message.contains(w))
        }
        (Some(Seg::Key(_)), _) => true,
        _ => false,
    }
}

/// The objects fill writes (the outputs of the same run in `fill` mode; the input again when
/// fill refuses).
fn fill_outputs(sources: &[Source], config: Option<&Value>) -> Vec<Value> {
    let options = Options {
        mode: Some(ipreuse::config::Mode::Fill),
        ..Options::default()
    };
    let mut out = Vec::new();
    let mut configs = Vec::new();
    if let Ok(o) = run_with(sources, config, &options) {
        for text in &o.outputs {
            let _ = objects(text, &mut out, &mut configs);
        }
    }
    out
}

#[test]
fn field_paths_read_as_the_function_writes_them() {
    use Seg::{Index, Key};
    let k = |s: &str| Key(s.to_string());
    assert_eq!(segments(".").unwrap(), vec![]);
    assert_eq!(
        segments("spec.pools[0].start").unwrap(),
        vec![k("spec"), k("pools"), Index(0), k("start")]
    );
    assert_eq!(
        segments("metadata.annotations.[ipreuse.dev/ip.p]").unwrap(),
        vec![k("metadata"), k("annotations"), k("ipreuse.dev/ip.p")]
    );
    assert_eq!(
        segments("spec.template.spec.containers[0].args[2]").unwrap(),
        vec![
            k("spec"),
            k("template"),
            k("spec"),
            k("containers"),
            Index(0),
            k("args"),
            Index(2)
        ]
    );
    assert_eq!(
        segments("data.[clusterctl.yaml]").unwrap(),
        vec![k("data"), k("clusterctl.yaml")]
    );
    assert!(segments("spec.").is_err());
    assert!(segments("spec.pools[x]").is_err());
    let v: Value = serde_json::json!({"spec": {"pools": [{"start": "10.0.0.1"}]}});
    assert!(resolve(&v, &segments("spec.pools[0].start").unwrap()).is_some());
    assert!(resolve(&v, &segments("spec.pools[1].start").unwrap()).is_none());
    assert!(resolve(&v, &segments("spec.preAllocations.node-1-p").unwrap()).is_none());
    let entry = segments("spec.preAllocations.node-1-p").unwrap();
    assert!(!asks_for_missing(
        &v,
        &entry,
        "node-1-p collides with node-2-p"
    ));
    assert!(asks_for_missing(
        &v,
        &segments("spec.gateway").unwrap(),
        "x"
    ));
    assert!(!asks_for_missing(
        &v,
        &segments("spec.pools[3]").unwrap(),
        "x"
    ));
    let host = serde_json::json!({"metadata": {"annotations": {}}});
    let pin = segments("metadata.annotations.[ipreuse.dev/ip.p]").unwrap();
    assert!(asks_for_missing(
        &host,
        &pin,
        "has no annotation ipreuse.dev/ip.p"
    ));
    assert!(!asks_for_missing(&host, &pin, "ipreuse.dev/ip.p collides"));
}

#[test]
fn only_a_check_error_may_name_the_entry_fill_would_add() {
    let text = "apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: node-1, namespace: m3}
spec: {online: true}
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata: {name: p, namespace: m3}
spec:
  namePrefix: p
  pools: [{start: 10.0.0.10, end: 10.0.0.20}]
  prefix: 24
";
    let sources = [Source {
        name: "in.yaml".into(),
        text: text.into(),
    }];
    let cfg = super::config(serde_json::json!({"mode": "check", "controllerFlag": false}));
    let mut o = run_with(&sources, Some(&cfg), &Options::default()).unwrap();
    let entry = o
        .findings
        .iter()
        .position(|f| {
            f.is_error()
                && f.field.as_ref().map(|p| p.path.as_str()) == Some("spec.preAllocations.node-1-p")
        })
        .expect("a check error at the entry fill would add");
    assert!(o.findings[entry].message.starts_with("check: "));
    assert_fields_resolve(&sources, Some(&cfg), &o);
    // The same field for anything but a check error does not resolve: the entry is not there.
    o.findings[entry].severity = Severity::Warning;
    o.findings[entry].message = "entry node-1-p collides".into();
    assert!(
        !field_problems(&sources, Some(&cfg), &o).is_empty(),
        "a warning at a missing entry passed"
    );
}
