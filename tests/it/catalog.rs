//! `functions/ipreuse/`, what a function catalog ships, held to the code:
//!
//! - `crd.yaml` is exactly what `ipreuse schema` prints (the failure prints the command that
//!   regenerates it);
//! - the functionConfig of every example package (its Kptfile's `configMap:`, or the file its
//!   `configPath:` names, typed `IPReuse` or `ConfigMap`) validates against that CRD, and so do
//!   the configuration examples of the function's README; a ConfigMap is first turned into the
//!   typed object it stands for, by the README's rules, and the test checks that ipreuse reads
//!   both forms as the same configuration;
//! - the README documents every field of the functionConfig;
//! - `metadata.yaml` holds the fields of a kpt catalog entry and no others;
//! - the licence is Apache-2.0 everywhere it is stated: `LICENSE` (apache.org's text, verbatim),
//!   Cargo.toml's `license`, `metadata.yaml`'s `license` and the image's
//!   `org.opencontainers.image.licenses` label in the `Dockerfile`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");
const REGENERATE: &str = "cargo run --release -q -- schema > functions/ipreuse/crd.yaml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn function_dir() -> PathBuf {
    root().join("functions/ipreuse")
}

/// The CRD's `openAPIV3Schema` as a JSON Schema: `nullable: true` becomes a `null` type, as a
/// draft-4 validator needs (the API server reads `nullable` itself).
fn crd_schema() -> Value {
    let crd = &common::json_docs(&read(&function_dir().join("crd.yaml")))[0];
    let version = crd["spec"]["versions"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["name"] == "v1alpha1"))
        .expect("crd.yaml serves v1alpha1");
    let mut schema = version["schema"]["openAPIV3Schema"].clone();
    nullable_to_null_type(&mut schema);
    schema
}

fn nullable_to_null_type(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.remove("nullable") == Some(Value::Bool(true))
                && let Some(Value::String(t)) = m.get("type").cloned()
            {
                m.insert("type".into(), json!([t, "null"]));
                if let Some(Value::Array(e)) = m.get_mut("enum") {
                    e.push(Value::Null);
                }
            }
            m.values_mut().for_each(nullable_to_null_type);
        }
        Value::Array(a) => a.iter_mut().for_each(nullable_to_null_type),
        _ => {}
    }
}

/// The errors of validating `config` (a typed IPReuse) against the CRD, apiVersion and kind
/// included (the schema leaves them to the API server).
fn crd_errors(validator: &jsonschema::Validator, config: &Value) -> Vec<String> {
    let mut errors: Vec<String> = validator
        .iter_errors(config)
        .map(|e| e.to_string())
        .collect();
    if config["apiVersion"] != "fn.ipreuse.dev/v1alpha1" || config["kind"] != "IPReuse" {
        errors.push(format!(
            "apiVersion/kind {} {} is not fn.ipreuse.dev/v1alpha1 IPReuse",
            config["apiVersion"], config["kind"]
        ));
    }
    errors
}

/// The typed IPReuse a ConfigMap functionConfig stands for, by the README's rules: booleans
/// and numbers as strings, lists comma-separated, the host selector in the string syntax, an
/// empty value the default.
fn typed_from_config_map(cm: &Value) -> Value {
    let mut spec = Map::new();
    for (key, value) in cm["data"].as_object().into_iter().flatten() {
        let text = value
            .as_str()
            .unwrap_or_else(|| panic!("ConfigMap data.{key} is not a string: {value}"));
        if text.is_empty() {
            continue;
        }
        let typed = match key.as_str() {
            "prune" | "labels" | "controllerFlag" => match text {
                "true" => json!(true),
                "false" => json!(false),
                _ => json!(text), // left for the schema to refuse
            },
            "ordinalOffset" => text.parse::<u64>().map_or(json!(text), |n| json!(n)),
            "pools" | "reserve" => json!(
                text.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            ),
            "hostSelector" => label_selector(text),
            "networks" => networks(text),
            _ => json!(text),
        };
        spec.insert(key.clone(), typed);
    }
    json!({
        "apiVersion": "fn.ipreuse.dev/v1alpha1",
        "kind": "IPReuse",
        "metadata": cm["metadata"].clone(),
        "spec": spec,
    })
}

/// `networks` of a ConfigMap: the YAML list as written, or `name=cidr,...` as `{name, cidr}`
/// objects.
fn networks(text: &str) -> Value {
    if text.trim_start().starts_with(['[', '-']) {
        return serde_saphyr::from_str(text).unwrap_or_else(|_| json!(text));
    }
    json!(
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|item| match item.split_once('=') {
                Some((name, cidr)) => json!({"name": name.trim(), "cidr": cidr.trim()}),
                None => json!(item), // left for the schema to refuse
            })
            .collect::<Vec<_>>()
    )
}

/// A `LabelSelector` from the selector string syntax (`k=v`, `k==v`, `k!=v`, `k in (a,b)`,
/// `k notin (a,b)`, `k`, `!k`).
fn label_selector(text: &str) -> Value {
    // Split at commas outside parentheses.
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    let mut labels = Map::new();
    let mut expressions = Vec::new();
    let set = |s: &str| -> Vec<String> {
        s.trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split(',')
            .map(|v| v.trim().to_string())
            .collect()
    };
    for part in parts.iter().map(|p| p.trim()) {
        if let Some((k, v)) = part.split_once("!=") {
            expressions.push(json!({"key": k.trim(), "operator": "NotIn", "values": [v.trim()]}));
        } else if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
            labels.insert(k.trim().into(), json!(v.trim()));
        } else if let Some((k, v)) = part.split_once(" notin ") {
            expressions.push(json!({"key": k.trim(), "operator": "NotIn", "values": set(v)}));
        } else if let Some((k, v)) = part.split_once(" in ") {
            expressions.push(json!({"key": k.trim(), "operator": "In", "values": set(v)}));
        } else if let Some(k) = part.strip_prefix('!') {
            expressions.push(json!({"key": k.trim(), "operator": "DoesNotExist"}));
        } else {
            expressions.push(json!({"key": part, "operator": "Exists"}));
        }
    }
    let mut selector = Map::new();
    if !labels.is_empty() {
        selector.insert("matchLabels".into(), Value::Object(labels));
    }
    if !expressions.is_empty() {
        selector.insert("matchExpressions".into(), Value::Array(expressions));
    }
    Value::Object(selector)
}

/// Checks one functionConfig (typed or ConfigMap): against the CRD, and, for a ConfigMap,
/// that ipreuse reads it and its typed form alike. Returns the problems, each naming `whence`.
fn check_config(validator: &jsonschema::Validator, whence: &str, config: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let typed = match config["kind"].as_str() {
        Some("ConfigMap") => {
            let typed = typed_from_config_map(config);
            match (
                ipreuse::config::decode(Some(config)),
                ipreuse::config::decode(Some(&typed)),
            ) {
                (Ok(mut a), Ok(b)) => {
                    a.source = b.source.clone();
                    if a != b {
                        problems.push(format!(
                            "{whence}: the ConfigMap and its typed form {typed} read differently:\n{a:?}\n{b:?}"
                        ));
                    }
                }
                (a, b) => problems.push(format!(
                    "{whence}: ipreuse refuses the ConfigMap or its typed form {typed}: {:?} / {:?}",
                    a.err(),
                    b.err()
                )),
            }
            typed
        }
        _ => {
            if let Err(findings) = ipreuse::config::decode(Some(config)) {
                problems.push(format!("{whence}: ipreuse refuses it: {findings:?}"));
            }
            config.clone()
        }
    };
    problems.extend(
        crd_errors(validator, &typed)
            .into_iter()
            .map(|e| format!("{whence}: does not validate against crd.yaml: {e}")),
    );
    problems
}

#[test]
fn crd_yaml_is_what_ipreuse_schema_prints() {
    let out = Command::new(BIN)
        .arg("schema")
        .output()
        .expect("run ipreuse schema");
    assert!(out.status.success(), "ipreuse schema failed: {out:?}");
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    let path = function_dir().join("crd.yaml");
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == printed,
        "{} is not what `ipreuse schema` prints (the IPReuse type changed?). Regenerate it at the \
         top of the repository with\n\n    {REGENERATE}\n\nand commit the result.",
        path.display()
    );
}

#[test]
fn every_example_function_config_validates_against_the_crd() {
    let validator = jsonschema::validator_for(&crd_schema()).expect("crd.yaml's schema compiles");
    let mut kptfiles: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path().join("Kptfile")))
        .filter(|p| p.is_file())
        .collect();
    kptfiles.sort();
    assert!(kptfiles.len() >= 10, "examples found: {kptfiles:?}");
    let mut problems = Vec::new();
    for kptfile in &kptfiles {
        let package = kptfile.parent().expect("package");
        let kpt = &common::json_docs(&read(kptfile))[0];
        let mut checked = 0;
        for stage in ["mutators", "validators"] {
            for (i, step) in kpt["pipeline"][stage]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                let whence = format!("{} pipeline.{stage}[{i}]", kptfile.display());
                if let Some(data) = step.get("configMap") {
                    let cm = json!({
                        "apiVersion": "v1",
                        "kind": "ConfigMap",
                        "metadata": {"name": "function-input"},
                        "data": data,
                    });
                    problems.extend(check_config(&validator, &whence, &cm));
                    checked += 1;
                }
                if let Some(file) = step.get("configPath").and_then(Value::as_str) {
                    let path = package.join(file);
                    let config = &common::json_docs(&read(&path))[0];
                    let whence = format!("{whence} configPath {}", path.display());
                    problems.extend(check_config(&validator, &whence, config));
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 0,
            "{} has no functionConfig to check",
            kptfile.display()
        );
    }
    // examples/kustomize holds kustomizations, not a kpt package: its transformer files are
    // the functionConfigs.
    let kustomize = root().join("examples/kustomize");
    for way in ["exec", "container"] {
        let path = kustomize.join(way).join("ipreuse.yaml");
        let config = &common::json_docs(&read(&path))[0];
        problems.extend(check_config(
            &validator,
            &path.display().to_string(),
            config,
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_argocd_example_config_validates_against_the_crd() {
    let validator = jsonschema::validator_for(&crd_schema()).expect("crd.yaml's schema compiles");
    let path = function_dir().join("argocd/example-app/ipreuse.yaml");
    let config = &common::json_docs(&read(&path))[0];
    assert_eq!(config["kind"], "IPReuse", "{}", path.display());
    let problems = check_config(&validator, &path.display().to_string(), config);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The YAML blocks of the function's README that are functionConfigs.
fn readme_configs() -> Vec<Value> {
    let readme = read(&function_dir().join("README.md"));
    let mut configs = Vec::new();
    let mut block: Option<String> = None;
    for line in readme.lines() {
        match (&mut block, line) {
            (None, "```yaml") => block = Some(String::new()),
            (Some(text), "```") => {
                for doc in common::json_docs(text) {
                    if doc["kind"] == "IPReuse" || doc["kind"] == "ConfigMap" {
                        configs.push(doc);
                    }
                }
                block = None;
            }
            (Some(text), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    configs
}

#[test]
fn the_readme_examples_validate_against_the_crd() {
    let validator = jsonschema::validator_for(&crd_schema()).expect("crd.yaml's schema compiles");
    let configs = readme_configs();
    assert!(
        configs.iter().filter(|c| c["kind"] == "IPReuse").count() >= 3
            && configs.iter().any(|c| c["kind"] == "ConfigMap"),
        "the README's examples: {configs:?}"
    );
    let problems: Vec<String> = configs
        .iter()
        .flat_map(|c| {
            let whence = format!("functions/ipreuse/README.md {}", c["metadata"]["name"]);
            check_config(&validator, &whence, c)
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_schema_check_refuses_bad_configs() {
    // The validation above would pass anything if the schema said nothing: these must fail.
    let validator = jsonschema::validator_for(&crd_schema()).expect("crd.yaml's schema compiles");
    for (spec, why) in [
        (json!({"mode": "Check"}), "mode is an enum"),
        (json!({"prune": "yes"}), "prune is a boolean"),
        (
            json!({"ordinalOffset": -1}),
            "ordinalOffset is not negative",
        ),
        (json!({"pools": "a,b"}), "pools is a list"),
        (
            json!({"hostSelector": {"matchExpressions": [{"operator": "In"}]}}),
            "an expression needs a key",
        ),
        (
            json!({"capm3Version": "latest"}),
            "capm3Version is a version",
        ),
    ] {
        let config = json!({
            "apiVersion": "fn.ipreuse.dev/v1alpha1",
            "kind": "IPReuse",
            "metadata": {"name": "bad"},
            "spec": spec,
        });
        assert!(
            !crd_errors(&validator, &config).is_empty(),
            "{why}: {spec} passed"
        );
    }
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"labels": "maybe"}});
    assert!(!check_config(&validator, "bad ConfigMap", &cm).is_empty());
}

#[test]
fn the_readme_documents_every_field() {
    let readme = read(&function_dir().join("README.md"));
    let missing: Vec<&str> = ipreuse::config::FIELDS
        .iter()
        .copied()
        .filter(|f| !readme.contains(&format!("| `{f}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "functions/ipreuse/README.md has no row for {missing:?} in its field table"
    );
    let spec = &crd_schema()["properties"]["spec"]["properties"];
    let mut in_crd: Vec<&str> = spec
        .as_object()
        .expect("spec properties")
        .keys()
        .map(String::as_str)
        .collect();
    in_crd.sort_unstable();
    let mut fields = ipreuse::config::FIELDS.to_vec();
    fields.sort_unstable();
    assert_eq!(in_crd, fields, "the CRD's fields and the config's");
}

#[test]
fn metadata_yaml_holds_the_catalog_fields() {
    let meta = &common::json_docs(&read(&function_dir().join("metadata.yaml")))[0];
    let meta = meta.as_object().expect("metadata.yaml is a mapping");
    // The kpt function catalog's metadata fields; image, description and tags are required.
    let known = [
        "image",
        "description",
        "tags",
        "sourceURL",
        "examplePackageURLs",
        "emails",
        "license",
        "hidden",
    ];
    for key in meta.keys() {
        assert!(known.contains(&key.as_str()), "unknown field {key}");
    }
    for key in ["image", "description", "tags"] {
        assert!(
            meta.get(key).is_some_and(|v| v != &Value::Null),
            "{key} missing"
        );
    }
    let image = meta["image"].as_str().expect("image is a string");
    assert!(
        !image.contains(':') && !image.contains('@'),
        "image is named without a tag or digest (the release appends the version): {image}"
    );
    let tags: Vec<&str> = meta["tags"]
        .as_array()
        .expect("tags is a list")
        .iter()
        .map(|t| t.as_str().expect("a tag is a string"))
        .collect();
    assert_eq!(
        tags,
        ["mutator", "validator"],
        "fill is a mutator, check a validator"
    );
    assert!(meta["description"].as_str().is_some_and(|d| !d.is_empty()));
}

/// The SHA-256 of <https://www.apache.org/licenses/LICENSE-2.0.txt>, the text crates ship as
/// `LICENSE-APACHE` (encoding_rs, k8s-openapi, …): `LICENSE` is that file, byte for byte.
const APACHE_2_0_SHA256: &str = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30";

#[test]
fn the_licence_is_apache_2_0_everywhere() {
    // LICENSE: the full text, verbatim (the headings first, for a readable failure).
    let path = root().join("LICENSE");
    let text = read(&path);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert_eq!(
        lines
            .iter()
            .filter(|l| !l.is_empty())
            .take(3)
            .collect::<Vec<_>>(),
        [
            &"Apache License",
            &"Version 2.0, January 2004",
            &"http://www.apache.org/licenses/"
        ],
        "LICENSE starts as the Apache License 2.0 does"
    );
    let headings = [
        "1. Definitions.",
        "2. Grant of Copyright License. Subject to the terms and conditions of",
        "3. Grant of Patent License. Subject to the terms and conditions of",
        "4. Redistribution. You may reproduce and distribute copies of the",
        "5. Submission of Contributions. Unless You explicitly state otherwise,",
        "6. Trademarks. This License does not grant permission to use the trade",
        "7. Disclaimer of Warranty. Unless required by applicable law or",
        "8. Limitation of Liability. In no event and under no legal theory,",
        "9. Accepting Warranty or Additional Liability. While redistributing",
        "END OF TERMS AND CONDITIONS",
        "APPENDIX: How to apply the Apache License to your work.",
    ];
    let mut at = 0;
    for heading in headings {
        at += lines[at..]
            .iter()
            .position(|l| *l == heading)
            .unwrap_or_else(|| panic!("LICENSE: no `{heading}` after line {at}"));
    }
    let out = Command::new("sha256sum")
        .arg(&path)
        .output()
        .expect("run sha256sum (coreutils)");
    assert!(out.status.success(), "sha256sum LICENSE: {out:?}");
    let sum = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        sum.split_whitespace().next(),
        Some(APACHE_2_0_SHA256),
        "LICENSE is not apache.org's LICENSE-2.0.txt byte for byte (copy it from a crate's \
         LICENSE-APACHE of that SHA-256, e.g. encoding_rs's in ~/.cargo/registry)"
    );

    // Cargo.toml (cargo hands the test its `license`), the catalog entry and the image label.
    assert_eq!(
        env!("CARGO_PKG_LICENSE"),
        "Apache-2.0",
        "Cargo.toml's license"
    );
    let meta = &common::json_docs(&read(&function_dir().join("metadata.yaml")))[0];
    assert_eq!(meta["license"], "Apache-2.0", "metadata.yaml's license");
    let dockerfile = read(&root().join("Dockerfile"));
    assert!(
        dockerfile.contains("org.opencontainers.image.licenses=\"Apache-2.0\""),
        "the Dockerfile labels the image with its licence"
    );
}
