//! Every IPPool, IPClaim, Metal3Data, Deployment and Secret the examples produce is accepted by
//! its schema, as an API server would check it on `kubectl apply`:
//!
//! - IPPool and IPClaim: the `openAPIV3Schema` of the IPAM's own CRDs, Metal3Data the one of
//!   CAPM3's CRD, for the object's API version (`tests/data/crds/`, vendored with their source);
//! - Deployment and Secret: Kubernetes' own schemas, as the `k8s-openapi` crate generates them
//!   from the Kubernetes OpenAPI document;
//! - for every one of them, `metadata` against Kubernetes' `ObjectMeta` schema, and the rules
//!   the API server applies on top of any schema: names are DNS subdomains, label keys are
//!   qualified names, label values at most 63 characters of the allowed alphabet (the labels
//!   ipreuse writes land here), and a Secret's `data` values are base64.
//!
//! "What an example produces" is the example after its render: a copy of the package with
//! `.expected/diff.patch` applied (`tests/it/examples.rs` proves that the real `kpt fn render`
//! makes exactly that diff), and for `examples/kustomize` the build in
//! `.expected/build.yaml` (`tests/it/kustomize.rs` proves that kustomize prints exactly that). Examples whose render fails (`exitCode` other than 0 in
//! `.expected/results.yaml`) produce nothing, and are left out. The test fails when any of
//! the five kinds was never checked, so it cannot pass by finding nothing.

use crate::common;
use crate::support::fs as fs_support;

use fs_support::copy_dir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The schemas of one run: CRD versions by `(apiVersion, kind)`, and Kubernetes' own.
struct Schemas {
    by_type: BTreeMap<(String, String), jsonschema::Validator>,
    object_meta: jsonschema::Validator,
}

/// The `openAPIV3Schema` of each served version of a vendored CRD, by `(apiVersion, kind)`.
pub(crate) fn crd_schemas(file: &str) -> Vec<((String, String), Value)> {
    let path = root().join("tests/data/crds").join(file);
    let crd = common::json_docs(&read(&path))
        .into_iter()
        .find(|d| d["kind"] == "CustomResourceDefinition")
        .unwrap_or_else(|| panic!("{} holds no CustomResourceDefinition", path.display()));
    let group = crd["spec"]["group"].as_str().expect("spec.group");
    let kind = crd["spec"]["names"]["kind"]
        .as_str()
        .expect("spec.names.kind");
    let versions = crd["spec"]["versions"].as_array().expect("spec.versions");
    assert!(!versions.is_empty(), "{file}: no versions");
    versions
        .iter()
        .filter(|v| v["served"] == true)
        .map(|v| {
            let name = v["name"].as_str().expect("versions[].name");
            let schema = v["schema"]["openAPIV3Schema"].clone();
            assert!(schema.is_object(), "{file} {name}: no openAPIV3Schema");
            ((format!("{group}/{name}"), kind.to_owned()), schema)
        })
        .collect()
}

fn kubernetes_schema<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).expect("a schema is JSON")
}

fn compile(what: &str, schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("{what}: schema compiles: {e}"))
}

impl Schemas {
    fn load() -> Schemas {
        let mut by_type = BTreeMap::new();
        for file in [
            "ipam.metal3.io_ippools.yaml",
            "ipam.metal3.io_ipclaims.yaml",
            "infrastructure.cluster.x-k8s.io_metal3datas.yaml",
        ] {
            for (key, schema) in crd_schemas(file) {
                let validator = compile(&format!("{file} {}", key.0), &schema);
                by_type.insert(key, validator);
            }
        }
        use k8s_openapi::api::{apps::v1::Deployment, core::v1::Secret};
        by_type.insert(
            ("apps/v1".into(), "Deployment".into()),
            compile("Deployment", &kubernetes_schema::<Deployment>()),
        );
        by_type.insert(
            ("v1".into(), "Secret".into()),
            compile("Secret", &kubernetes_schema::<Secret>()),
        );
        let object_meta = compile(
            "ObjectMeta",
            &kubernetes_schema::<k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>(),
        );
        Schemas {
            by_type,
            object_meta,
        }
    }

    /// Every way `object` would be refused, empty when it is accepted; `None` when it is not a
    /// kind this test checks.
    fn problems(&self, object: &Value) -> Option<Vec<String>> {
        let kind = object["kind"].as_str().unwrap_or_default();
        if !CHECKED_KINDS.contains(&kind) {
            return None;
        }
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let Some(validator) = self.by_type.get(&(api_version.to_owned(), kind.to_owned())) else {
            return Some(vec![format!(
                "no schema for {api_version} {kind} (vendor the CRD version, or fix the example)"
            )]);
        };
        let mut problems: Vec<String> = validator
            .iter_errors(object)
            .map(|e| format!("schema: {e} at {}", e.instance_path()))
            .collect();
        problems.extend(
            self.object_meta
                .iter_errors(&object["metadata"])
                .map(|e| format!("ObjectMeta: {e} at metadata{}", e.instance_path())),
        );
        problems.extend(metadata_rules(&object["metadata"]));
        if kind == "Secret" {
            problems.extend(secret_rules(object));
        }
        Some(problems)
    }
}

const CHECKED_KINDS: [&str; 5] = ["IPPool", "IPClaim", "Metal3Data", "Deployment", "Secret"];

/// RFC 1123 DNS label: lower-case alphanumerics and `-`, starting and ending alphanumeric.
fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// RFC 1123 DNS subdomain: dot-separated DNS labels, at most 253 characters.
fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns_label)
}

/// A label value: empty, or at most 63 of `[A-Za-z0-9_.-]`, alphanumeric at both ends.
fn is_label_value(s: &str) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    s.is_empty()
        || (s.len() <= 63
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && alnum(s.chars().next())
            && alnum(s.chars().last()))
}

/// A label key: `[prefix/]name`, the prefix a DNS subdomain, the name a label value that is
/// not empty.
fn is_label_key(s: &str) -> bool {
    let (prefix, name) = match s.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, s),
    };
    prefix.is_none_or(is_dns_subdomain) && !name.is_empty() && is_label_value(name)
}

/// What the API server checks of `metadata` beyond its schema (apimachinery's validation).
fn metadata_rules(meta: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    match meta["name"].as_str() {
        Some(name) if is_dns_subdomain(name) => {}
        other => problems.push(format!("metadata.name {other:?} is not a DNS subdomain")),
    }
    if let Some(ns) = meta["namespace"].as_str()
        && !is_dns_label(ns)
    {
        problems.push(format!("metadata.namespace {ns:?} is not a DNS label"));
    }
    if let Some(labels) = meta["labels"].as_object() {
        for (key, value) in labels {
            if !is_label_key(key) {
                problems.push(format!("label key {key:?} is not a qualified name"));
            }
            match value.as_str() {
                Some(v) if is_label_value(v) => {}
                _ => problems.push(format!("label {key}: value {value} is not a label value")),
            }
        }
    }
    problems
}

/// A Secret's `data` values are base64 (the schema says only "string").
fn secret_rules(secret: &Value) -> Vec<String> {
    let Some(data) = secret["data"].as_object() else {
        return Vec::new();
    };
    data.iter()
        .filter(|(_, v)| {
            v.as_str().is_none_or(|s| {
                base64::engine::general_purpose::STANDARD
                    .decode(s.trim())
                    .is_err()
            })
        })
        .map(|(k, v)| format!("data.{k}: {v} is not base64"))
        .collect()
}

/// The objects of a YAML text, with the items of `List`s in place of the lists.
fn objects(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for doc in common::json_docs(text) {
        match doc["kind"].as_str() {
            Some(k) if k.ends_with("List") && doc["items"].is_array() => {
                out.extend(doc["items"].as_array().into_iter().flatten().cloned())
            }
            _ if doc.is_object() => out.push(doc),
            _ => {}
        }
    }
    out
}

/// The YAML files of a package, hidden files and folders skipped, as kpt reads them.
fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().expect("a name").to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            yaml_files(&path, out);
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            out.push(path);
        }
    }
}

/// The example as its render leaves it: a copy with `.expected/diff.patch` applied; for
/// `examples/kustomize`, its `.expected/build.yaml` (what `kustomize build` prints, which
/// `tests/it/kustomize.rs` proves). `None` when the render fails (the example produces nothing).
fn produced(example: &Path, tmp: &Path) -> Option<PathBuf> {
    let build = example.join(".expected/build.yaml");
    if build.is_file() {
        let out = tmp.join(example.file_name().expect("a name"));
        std::fs::create_dir_all(&out).expect("creating a folder");
        std::fs::copy(&build, out.join("build.yaml")).expect("copying build.yaml");
        return Some(out);
    }
    let results = read(&example.join(".expected/results.yaml"));
    let results: Value = common::json_docs(&results).remove(0);
    if results["exitCode"] != 0 {
        return None;
    }
    let pkg = tmp.join(example.file_name().expect("a name"));
    copy_dir(example, &pkg);
    let patch = example.join(".expected/diff.patch");
    if !read(&patch).is_empty() {
        let out = Command::new("git")
            .current_dir(&pkg)
            .args(["apply", "--whitespace=nowarn"])
            .arg(&patch)
            .output()
            .unwrap_or_else(|e| panic!("cannot run git (it must be installed): {e}"));
        assert!(
            out.status.success(),
            "{}: git apply .expected/diff.patch failed: {}",
            example.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(pkg)
}

fn examples() -> Vec<PathBuf> {
    let dir = root().join("examples");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| {
            p.join(".expected/results.yaml").is_file() || p.join(".expected/build.yaml").is_file()
        })
        .collect();
    found.sort();
    assert!(found.len() >= 10, "found only {} examples", found.len());
    found
}

#[test]
fn what_the_examples_produce_validates_against_its_schema() {
    let schemas = Schemas::load();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for example in examples() {
        let Some(pkg) = produced(&example, tmp.path()) else {
            continue;
        };
        let mut files = Vec::new();
        yaml_files(&pkg, &mut files);
        for file in files {
            let whence = file.strip_prefix(tmp.path()).expect("inside").display();
            for object in objects(&read(&file)) {
                let Some(problems) = schemas.problems(&object) else {
                    continue;
                };
                let kind = CHECKED_KINDS
                    .into_iter()
                    .find(|k| object["kind"] == *k)
                    .expect("a checked kind");
                *checked.entry(kind).or_default() += 1;
                for p in problems {
                    failures.push(format!(
                        "examples/{whence}: {} {}/{}: {p}",
                        kind,
                        object["metadata"]["namespace"].as_str().unwrap_or("-"),
                        object["metadata"]["name"].as_str().unwrap_or("-"),
                    ));
                }
            }
        }
    }
    eprintln!("objects checked, by kind: {checked:?}");
    for kind in CHECKED_KINDS {
        assert!(
            checked.get(kind).is_some_and(|n| *n > 0),
            "no example produces a {kind}: the test would check nothing for it ({checked:?})"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checks above have teeth: each refuses what the API server refuses.
#[test]
fn the_schema_checks_refuse_what_the_api_server_refuses() {
    let schemas = Schemas::load();
    let refused = |yaml: &str| {
        let object = common::json_docs(yaml).remove(0);
        let problems = schemas.problems(&object).expect("a checked kind");
        assert!(
            !problems.is_empty(),
            "accepted, but must be refused:\n{yaml}"
        );
        problems.join("\n")
    };
    let accepted = |yaml: &str| {
        let object = common::json_docs(yaml).remove(0);
        let problems = schemas.problems(&object).expect("a checked kind");
        assert!(problems.is_empty(), "refused: {problems:?}\n{yaml}");
    };
    let pool = |entry: &str| {
        format!(
            "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: p\n  \
             namespace: lab\nspec:\n  namePrefix: p\n  pools:\n  - start: 10.0.0.10\n    end: 10.0.0.20\n  \
             prefix: 24\n  preAllocations:\n    h-p: {entry}\n"
        )
    };
    accepted(&pool("\"10.0.0.10\""));
    // The IPAM's pattern refuses leading zeros, as the webhook would never see them.
    assert!(refused(&pool("\"10.0.0.010\"")).contains("schema"));
    assert!(refused(&pool("[10.0.0.10]")).contains("schema"));

    let data = |version: &str, label: &str| {
        format!(
            "apiVersion: infrastructure.cluster.x-k8s.io/{version}\nkind: Metal3Data\n\
             metadata:\n  name: t-0\n  namespace: lab\n  labels:\n    \
             infrastructure.cluster.x-k8s.io/pool-name: {label}\n\
             spec:\n  claim:\n    name: m-0\n  template:\n    name: t\n"
        )
    };
    accepted(&data("v1beta1", "provisioning-pool"));
    accepted(&data("v1beta2", "provisioning-pool"));
    let long = "p".repeat(64);
    assert!(refused(&data("v1beta2", &long)).contains("not a label value"));
    assert!(refused(&data("v1beta2", "-pool")).contains("not a label value"));
    assert!(refused(&data("v1alpha9", "pool")).contains("no schema"));
    let no_claim = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: Metal3Data\n\
                    metadata:\n  name: t-0\nspec:\n  template:\n    name: t\n";
    assert!(refused(no_claim).contains("claim"));

    let claim = "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPClaim\nmetadata:\n  \
                 name: Upper_Case\nspec:\n  pool:\n    name: p\n";
    assert!(refused(claim).contains("DNS subdomain"));

    let secret = |data: &str| {
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  K: {data}\n")
    };
    accepted(&secret("dHJ1ZQ=="));
    assert!(refused(&secret("not base64!")).contains("base64"));
    assert!(refused(&secret("[1]")).contains("schema"));

    let deployment = |args: &str| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector: {{}}\n  \
             template:\n    spec:\n      containers:\n      - name: manager\n        args: {args}\n"
        )
    };
    accepted(&deployment("[--enable-bmh-name-based-preallocation=true]"));
    assert!(refused(&deployment("--enable-bmh-name-based-preallocation=true")).contains("schema"));
}
