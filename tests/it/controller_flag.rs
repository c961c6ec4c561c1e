//! The controller flag (SPEC §8) through the whole function: the edits go through the write
//! safety net, check mode reports them where they are, an error anywhere writes none of them,
//! and `controllerFlag: false` turns all of it off, warning included. The cases themselves are
//! in `src/transform/controller_flag/tests.rs`.

use crate::common;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, config, dump, errors, host, pool,
    range, run_docs, run_text, warnings,
};
use ipreuse::results::Severity;
use serde_json::json;

const MANAGER: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: capm3-controller-manager
  namespace: capm3-system
  labels:
    cluster.x-k8s.io/provider: infrastructure-metal3
spec:
  template:
    spec:
      containers:
      - args:
        - --webhook-port=9443
        - --enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}
        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0
        name: manager
";

const VARIABLES: &str = "apiVersion: v1
kind: Secret
metadata:
  name: capm3-variables
  namespace: capm3-system
data:
  ENABLE_BMH_NAME_BASED_PREALLOCATION: ZmFsc2U= # false
";

#[test]
fn the_flag_is_written_with_the_preallocations() {
    let docs = [
        host("node-1", "ns").yaml(),
        pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
        MANAGER.to_string(),
        VARIABLES.to_string(),
    ];
    let input = docs.join("---\n");
    let o = run_text(&input, None);
    assert_no_errors(&o);
    let out = &o.outputs[0];
    assert!(out.contains("    node-1-pool: \"10.0.0.10\"\n"), "{out}");
    assert!(
        out.contains("        - --enable-bmh-name-based-preallocation=true\n"),
        "{out}"
    );
    assert!(
        out.contains("  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ== # false\n"),
        "{out}"
    );
    // Only those lines changed.
    let changed: Vec<&str> = out.lines().filter(|l| !input.contains(*l)).collect();
    assert_eq!(
        changed,
        [
            "  preAllocations:",
            "    node-1-pool: \"10.0.0.10\"",
            "        - --enable-bmh-name-based-preallocation=true",
            "  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ== # false",
        ]
    );
    let infos: Vec<(String, String)> = o
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Info && f.message.contains("controller flag"))
        .map(|f| {
            (
                f.resource_ref
                    .as_ref()
                    .map(|r| r.kind.clone())
                    .unwrap_or_default(),
                f.field.as_ref().map(|p| p.path.clone()).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        infos,
        [
            (
                "Deployment".to_string(),
                "spec.template.spec.containers[0].args[1]".to_string()
            ),
            (
                "Secret".to_string(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".to_string()
            ),
        ]
    );
    // A second run changes nothing.
    let again = run_text(out, None);
    assert_no_errors(&again);
    assert_eq!(&again.outputs[0], out);
}

#[test]
fn an_error_anywhere_writes_no_flag_either() {
    let docs = [
        host("node-1", "ns").yaml(),
        // a pool with an entry outside its range: an error
        pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .entry("node-1-pool", "10.9.9.9")
            .yaml(),
        MANAGER.to_string(),
    ];
    let input = docs.join("---\n");
    let o = run_text(&input, None);
    assert_transactional(&o, &[&input]);
    // What was not written is not reported as written.
    assert!(
        o.findings
            .iter()
            .all(|f| !(f.severity == Severity::Info && f.message.contains("controller flag"))),
        "{}",
        dump(&o)
    );
}

#[test]
fn check_mode_names_each_flag_change_at_its_field() {
    let docs = vec![MANAGER.to_string(), VARIABLES.to_string()];
    let o = run_docs(&docs, Some(&config(json!({"mode": "check"}))));
    assert_transactional(&o, &[&docs.join("---\n")]);
    assert_error(
        &o,
        Want {
            path: Some("spec.template.spec.containers[0].args[1]"),
            object: Some(("Deployment", "capm3-controller-manager")),
            says: &["check: ", "fill would set"],
        },
    );
    assert_error(
        &o,
        Want {
            path: Some("data.ENABLE_BMH_NAME_BASED_PREALLOCATION"),
            object: Some(("Secret", "capm3-variables")),
            says: &["check: "],
        },
    );
    // Up to date: check passes.
    let filled = run_docs(&docs, None);
    assert_no_errors(&filled);
    let o = run_text(&filled.outputs[0], Some(&config(json!({"mode": "check"}))));
    assert_no_errors(&o);
    assert_eq!(o.outputs, filled.outputs, "check changes nothing");
    assert!(o.changed.iter().all(|c| !c));
}

#[test]
fn controller_flag_false_changes_nothing_and_warns_nothing() {
    let docs = vec![MANAGER.to_string(), VARIABLES.to_string()];
    let input = docs.join("---\n");
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert_no_errors(&o);
    assert_eq!(o.outputs[0], input);
    assert!(o.findings.is_empty(), "{}", dump(&o));
    // Nothing to turn on, and the flag handling off: no warning either.
    let docs = vec![host("node-1", "ns").yaml()];
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
    // With it on, the same input warns that nothing turns the flag on.
    let o = run_docs(&docs, Some(&config(json!({}))));
    let w = warnings(&o);
    assert_eq!(w.len(), 1, "{}", dump(&o));
    assert_eq!(
        w[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.controllerFlag")
    );
}

#[test]
fn a_config_map_function_config_points_at_its_data_key() {
    let fc = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "fc"},
        "data": {"prune": "false"}
    });
    let o = run_docs(&[host("node-1", "ns").yaml()], Some(&fc));
    let w = warnings(&o);
    assert_eq!(w.len(), 1, "{}", dump(&o));
    assert_eq!(
        w[0].field.as_ref().map(|f| f.path.as_str()),
        Some("data.controllerFlag")
    );
}

// ---- names CAPM3 cannot write into a label (SPEC §8 "Names") ----

/// A pool name of exactly `len` characters.
fn pool_name(len: usize) -> String {
    format!("pool-{}", "x".repeat(len - 5))
}

#[test]
fn a_managed_pool_name_over_63_characters_is_an_error_at_its_name() {
    for (len, fails) in [(62, false), (63, false), (64, true), (80, true)] {
        let name = pool_name(len);
        let docs = vec![
            host("node-1", "ns").yaml(),
            pool(&name, "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .yaml(),
            MANAGER.to_string(),
        ];
        let o = run_docs(&docs, None);
        if fails {
            assert_transactional(&o, &[&docs.join("---\n")]);
            assert_error(
                &o,
                Want {
                    path: Some("metadata.name"),
                    object: Some(("IPPool", &name)),
                    says: &[
                        &format!("{len} characters"),
                        "infrastructure.cluster.x-k8s.io/pool-name",
                        "63",
                    ],
                },
            );
            assert_eq!(errors(&o).len(), 1, "{}", dump(&o));
        } else {
            assert_no_errors(&o);
            assert!(
                o.outputs[0].contains(&format!("node-1-{name}: \"10.0.0.10\"")),
                "{len}: {}",
                o.outputs[0]
            );
        }
    }
}

#[test]
fn a_long_pool_name_fails_whatever_controller_flag_says_and_only_when_managed() {
    let long = pool_name(64);
    let docs = vec![
        host("node-1", "ns").yaml(),
        pool(&long, "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
        pool("short", "ns")
            .range(range("10.1.0.10", "10.1.0.20"))
            .yaml(),
    ];
    // controllerFlag: false means the flag is turned on elsewhere: CAPM3 still labels the claims.
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("IPPool", &long)),
            says: &["64 characters"],
        },
    );
    // A pool the config leaves out is not filled, so its name is not ipreuse's to refuse.
    let o = run_docs(
        &docs,
        Some(&config(
            json!({"controllerFlag": false, "pools": ["short"]}),
        )),
    );
    assert_no_errors(&o);
    assert!(o.outputs[0].contains("node-1-short: \"10.1.0.10\""));
}

#[test]
fn the_operators_args_map_is_written_and_checked_through_the_whole_function() {
    let provider = "apiVersion: operator.cluster.x-k8s.io/v1alpha2
kind: InfrastructureProvider
metadata:
  name: metal3
  namespace: capm3-system
spec:
  version: v1.13.0
  configSecret:
    name: capm3-variables
  deployment:
    containers:
    - name: manager
      args:
        \"--enable-bmh-name-based-preallocation\": \"false\" # the operator writes this over the manifests
";
    let docs = vec![provider.to_string(), VARIABLES.to_string()];
    let check = config(json!({"mode": "check"}));
    let o = run_docs(&docs, Some(&check));
    assert_error(
        &o,
        Want {
            path: Some("spec.deployment.containers[0].args.--enable-bmh-name-based-preallocation"),
            object: Some(("InfrastructureProvider", "metal3")),
            says: &["check: ", "\"true\""],
        },
    );
    let filled = run_docs(&docs, None);
    assert_no_errors(&filled);
    assert!(
        filled.outputs[0].contains(
            "        \"--enable-bmh-name-based-preallocation\": \"true\" # the operator writes this over the manifests\n"
        ),
        "{}",
        filled.outputs[0]
    );
    let o = run_text(&filled.outputs[0], Some(&check));
    assert_no_errors(&o);
    assert_eq!(o.outputs, filled.outputs, "check changes nothing");
    assert!(o.changed.iter().all(|c| !c));
}

// ---- as a user runs it: the binary on a package on disk ----

/// Runs the binary with `args`; (exit code, stderr).
fn ipreuse(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ipreuse"))
        .args(args)
        .output()
        .expect("run ipreuse");
    (
        out.status.code().expect("an exit code"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A package folder holding `files` (name, text), in a fresh temp folder.
fn package(files: &[(&str, String)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    for (name, text) in files {
        std::fs::write(pkg.join(name), text).expect("write");
    }
    (dir, pkg)
}

fn read(pkg: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(pkg.join(name)).expect("read")
}

/// The manager of `MANAGER` without its flag, on `image`.
fn manager_on(image: &str) -> String {
    MANAGER
        .replace(
            "        - --enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}\n",
            "",
        )
        .replace(
            "quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0",
            image,
        )
}

#[test]
fn on_disk_a_release_branch_manager_gets_the_old_spelling_in_place() {
    let components = manager_on("quay.io/metal3-io/cluster-api-provider-metal3:release-1.12");
    let (_dir, pkg) = package(&[("components.yaml", components.clone())]);
    let check =
        |pkg: &std::path::Path| ipreuse(&["--mode".as_ref(), "check".as_ref(), pkg.as_ref()]);
    let (code, stderr) = check(&pkg);
    assert_eq!(code, 1, "check fails before: {stderr}");
    let (code, stderr) = ipreuse(&["--in-place".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        read(&pkg, "components.yaml"),
        components.replace(
            "        - --webhook-port=9443\n",
            "        - --webhook-port=9443\n        - --enableBMHNameBasedPreallocation=true\n"
        ),
        "CAPM3 v1.12 reads only --enableBMHNameBasedPreallocation"
    );
    let (code, stderr) = check(&pkg);
    assert_eq!(code, 0, "check passes after: {stderr}");
}

#[test]
fn on_disk_a_manager_pinned_by_digest_fails_until_capm3_version_is_set() {
    let components = manager_on("quay.io/metal3-io/cluster-api-provider-metal3@sha256:5d1c0ffee0");
    let (dir, pkg) = package(&[("components.yaml", components.clone())]);
    let (code, stderr) = ipreuse(&["--in-place".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("capm3Version")
            && stderr.contains("spec.template.spec.containers[0].image"),
        "{stderr}"
    );
    assert_eq!(read(&pkg, "components.yaml"), components, "nothing written");
    let cfg = dir.path().join("ipreuse.yaml");
    std::fs::write(
        &cfg,
        common::ipreuse_config("cfg")
            .set("capm3Version", "v1.13.2")
            .yaml(),
    )
    .expect("write");
    let (code, stderr) = ipreuse(&[
        "--in-place".as_ref(),
        "--config".as_ref(),
        cfg.as_ref(),
        pkg.as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        read(&pkg, "components.yaml")
            .contains("        - --enable-bmh-name-based-preallocation=true\n"),
        "spelled for capm3Version v1.13.2"
    );
}

#[test]
fn on_disk_the_operators_args_and_a_long_pool_name() {
    let provider = "apiVersion: operator.cluster.x-k8s.io/v1alpha2
kind: InfrastructureProvider
metadata: {name: metal3, namespace: capm3-system}
spec:
  version: v1.12.7
  configSecret: {name: capm3-variables}
  deployment:
    containers:
    - name: manager
      args: {\"--enableBMHNameBasedPreallocation\": \"false\"}
";
    let long = pool_name(64);
    let pools = format!(
        "{}---\n{}",
        host("node-1", "ns").yaml(),
        pool(&long, "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml()
    );
    let (_dir, pkg) = package(&[
        ("provider.yaml", provider.to_string()),
        ("secret.yaml", VARIABLES.to_string()),
        ("pools.yaml", pools.clone()),
    ]);
    let (code, stderr) = ipreuse(&["--in-place".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!("IPPool ns/{long}"))
            && stderr.contains("metadata.name")
            && stderr.contains("64 characters"),
        "{stderr}"
    );
    assert_eq!(read(&pkg, "provider.yaml"), provider, "nothing written");
    // The pool renamed: the operator's arg and the Secret's variable are set.
    std::fs::write(pkg.join("pools.yaml"), pools.replace(&long, "prov")).expect("write");
    let (code, stderr) = ipreuse(&["--in-place".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        read(&pkg, "provider.yaml")
            .contains("      args: {\"--enableBMHNameBasedPreallocation\": \"true\"}\n")
    );
    assert!(read(&pkg, "pools.yaml").contains("    node-1-prov: \"10.0.0.10\"\n"));
    let (code, stderr) = ipreuse(&["--mode".as_ref(), "check".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 0, "{stderr}");
}
