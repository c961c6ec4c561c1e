//! The config among the inputs (SPEC §1): kpt packages keep the `IPReuse` config as a file of
//! the package (a Kptfile's `configPath`), so it can arrive as an item. It is never silently
//! ignored: with no functionConfig the only one is the config (an info result names it and its
//! file), two are an error naming each, and one that differs from the functionConfig is a
//! warning naming both. Run every way a user runs it: on a string, files, folders,
//! `--in-place`, the pipe, a ResourceList, `kpt fn eval` without `--fn-config` and `kpt fn
//! render` of a package whose Kptfile has `configPath`.
//!
//! The issue's reproduction is the package of every test here: three clusters, each in its own
//! namespace with a pool `prov` over the same range, and a config file declaring the network
//! `prov` (172.22.0.0/16). Read without the config, the three `node-1` hosts all get
//! 172.22.0.140; with it, three different addresses.
//!
//! kpt must be installed (`KPT=/path/to/kpt` picks another): without it the kpt tests fail,
//! they never skip.

use crate::common;
use crate::support::path as path_support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, assert_warning, config, dump, host,
    pool, range, resource_list, run_docs, run_sources,
};
use ipreuse::results::Severity;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");
const CLUSTERS: [&str; 3] = ["c1", "c2", "c3"];

/// The config file of the package: the network `prov`, as the issue wrote it.
fn config_file(name: &str) -> String {
    format!(
        "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: {name}\n  \
         annotations:\n    config.kubernetes.io/local-config: \"true\"\nspec:\n  \
         controllerFlag: false\n  networks: [{{name: prov, cidr: 172.22.0.0/16}}]\n"
    )
}

/// The package's objects of cluster `c`: its host `node-1` and its pool `prov`.
fn cluster(c: &str) -> [String; 2] {
    [
        host("node-1", c).yaml(),
        pool("prov", c)
            .range(range("172.22.0.140", "172.22.0.200"))
            .prefix(24)
            .yaml(),
    ]
}

/// Every object of the three clusters, in order.
fn clusters() -> Vec<String> {
    CLUSTERS.iter().flat_map(|c| cluster(c)).collect()
}

/// The address each cluster's `node-1` holds in pool `prov` of a stream or ResourceList text.
fn addresses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for doc in common::json_docs(text) {
        let items = match doc["kind"].as_str() {
            Some("ResourceList") => doc["items"].as_array().cloned().unwrap_or_default(),
            _ => vec![doc],
        };
        for item in items {
            if item["kind"] == "IPPool" {
                out.push(
                    item["spec"]["preAllocations"]["node-1-prov"]
                        .as_str()
                        .unwrap_or("none")
                        .to_string(),
                );
            }
        }
    }
    out
}

/// Three hosts with three different addresses, one per cluster.
fn assert_three_addresses(addresses: &[String], what: &str) {
    let distinct: BTreeSet<&String> = addresses.iter().collect();
    assert_eq!(addresses.len(), 3, "{what}: {addresses:?}");
    assert_eq!(
        distinct.len(),
        3,
        "{what}: one address for two hosts: {addresses:?}"
    );
    assert!(
        !addresses.iter().any(|a| a == "none"),
        "{what}: {addresses:?}"
    );
}

/// The results on an IPReuse item (the network's overlap warnings on the pools aside).
fn about_configs(o: &ipreuse::run::Outcome) -> Vec<&ipreuse::results::Finding> {
    o.findings
        .iter()
        .filter(|f| f.resource_ref.as_ref().is_some_and(|r| r.kind == "IPReuse"))
        .collect()
}

// ---- the rules, on a run -----------------------------------------------------------------

#[test]
fn without_the_config_the_issue_s_three_hosts_share_one_address() {
    // The reproduction itself: the network is what keeps the hosts apart.
    let o = run_docs(&clusters(), None);
    assert_no_errors(&o);
    let a = addresses(&o.outputs[0]);
    assert_eq!(a, ["172.22.0.140"; 3], "{}", dump(&o));
}

#[test]
fn the_only_ipreuse_item_is_the_config_when_no_function_config_is_given() {
    let mut docs = clusters();
    docs.insert(2, config_file("fleet"));
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_three_addresses(&addresses(&o.outputs[0]), "a stream");
    common::assert_finding(
        &o,
        Severity::Info,
        Want {
            object: Some(("IPReuse", "fleet")),
            says: &[
                "is the config of this run",
                "input.yaml",
                "no functionConfig",
            ],
            ..Want::default()
        },
    );
    // the config item is returned as it came
    assert!(o.outputs[0].contains(&config_file("fleet")));
}

#[test]
fn two_ipreuse_items_without_a_function_config_are_an_error_naming_each() {
    let sources: Vec<(String, String)> = vec![
        ("c1/ipreuse.yaml".into(), config_file("one")),
        ("c2/ipreuse.yaml".into(), config_file("two")),
        ("clusters.yaml".into(), common::stream(&clusters())),
    ];
    let o = run_sources(&sources, None);
    let inputs: Vec<&str> = sources.iter().map(|(_, t)| t.as_str()).collect();
    assert_transactional(&o, &inputs);
    for name in ["one", "two"] {
        assert_error(
            &o,
            Want {
                path: Some("kind"),
                object: Some(("IPReuse", name)),
                says: &[
                    "IPReuse one (in c1/ipreuse.yaml)",
                    "IPReuse two (in c2/ipreuse.yaml)",
                    "run ipreuse once per package",
                    "--config",
                ],
            },
        );
    }
}

#[test]
fn two_ipreuse_items_with_a_function_config_are_no_error() {
    let mut docs = clusters();
    docs.push(config_file("one"));
    docs.push(config_file("two"));
    let cfg = common::json_docs(&config_file("given")).remove(0);
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    assert!(about_configs(&o).is_empty(), "{}", dump(&o));
    assert_three_addresses(&addresses(&o.outputs[0]), "--config and two equal items");
}

#[test]
fn an_ipreuse_item_that_differs_from_the_function_config_is_a_warning_naming_both() {
    let mut docs = clusters();
    docs.push(config_file("fleet"));
    let given = config(json!({"controllerFlag": false, "strategy": "sequential"}));
    let o = run_docs(&docs, Some(&given));
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: Some("spec"),
            object: Some(("IPReuse", "fleet")),
            says: &[
                "IPReuse fleet (in input.yaml, document 7)",
                "differs from the functionConfig IPReuse cfg in spec.networks",
                "is not used",
            ],
        },
    );
    // the functionConfig is the config: no network, so the hosts share one address
    assert_eq!(addresses(&o.outputs[0]), ["172.22.0.140"; 3]);
}

#[test]
fn an_ipreuse_item_that_says_what_the_function_config_says_gets_no_warning() {
    let mut docs = clusters();
    docs.push(config_file("fleet"));
    // the same settings, spelled otherwise: defaults written out, another name
    let given = config(json!({
        "mode": "fill",
        "networks": [{"name": "prov", "cidr": "172.22.0.0/16"}],
        "controllerFlag": false,
        "prune": false,
    }));
    let o = run_docs(&docs, Some(&given));
    assert_no_errors(&o);
    assert!(about_configs(&o).is_empty(), "{}", dump(&o));
    assert!(
        o.findings
            .iter()
            .all(|f| !f.message.contains("config of this run")),
        "{}",
        dump(&o)
    );
    // and a ConfigMap functionConfig that says the same
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "function-input"},
        "data": {"networks": "prov=172.22.0.0/16", "controllerFlag": "false"}});
    let o = run_docs(&docs, Some(&cm));
    assert!(about_configs(&o).is_empty(), "{}", dump(&o));
    // one that does not: the warning names the ConfigMap
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "function-input"},
        "data": {"controllerFlag": "false"}});
    let o = run_docs(&docs, Some(&cm));
    assert_warning(
        &o,
        Want {
            object: Some(("IPReuse", "fleet")),
            says: &["ConfigMap function-input in spec.networks"],
            ..Want::default()
        },
    );
}

#[test]
fn a_configmap_item_is_never_a_config() {
    // ConfigMaps are everywhere in a package: only the kind IPReuse counts.
    let mut docs = clusters();
    docs.push(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ipreuse\ndata:\n  networks: prov=172.22.0.0/16\n"
            .to_string(),
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(addresses(&o.outputs[0]), ["172.22.0.140"; 3]);
    assert!(
        o.findings
            .iter()
            .all(|f| !f.message.contains("config of this run")),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_bad_value_in_the_config_item_is_an_error_at_its_field_on_the_item() {
    let mut docs = clusters();
    docs.push(config_file("fleet").replace("controllerFlag: false", "strategy: sequental"));
    let text = common::stream(&docs);
    let o = common::run_text(&text, None);
    assert_transactional(&o, &[&text]);
    assert_error(
        &o,
        Want {
            path: Some("spec.strategy"),
            object: Some(("IPReuse", "fleet")),
            says: &["did you mean sequential?"],
        },
    );
}

#[test]
fn a_resource_list_item_is_named_by_the_file_kpt_read_it_from() {
    let item = config_file("fleet").replace(
        "  annotations:\n",
        "  annotations:\n    internal.config.kubernetes.io/path: 'fleet/ipreuse.yaml'\n",
    );
    let mut items = clusters();
    items.push(item);
    let o = common::run_text(&resource_list(&items, None), None);
    assert_no_errors(&o);
    assert_three_addresses(&addresses(&o.outputs[0]), "a ResourceList");
    common::assert_finding(
        &o,
        Severity::Info,
        Want {
            object: Some(("IPReuse", "fleet")),
            says: &[
                "is the config of this run",
                "it is IPReuse fleet (in fleet/ipreuse.yaml)",
            ],
            ..Want::default()
        },
    );
    // without the annotation, by its place in the ResourceList
    let mut items = clusters();
    items.push(config_file("fleet"));
    let o = common::run_text(&resource_list(&items, None), None);
    common::assert_finding(
        &o,
        Severity::Info,
        Want {
            says: &["IPReuse fleet (in items[6] of the ResourceList)"],
            ..Want::default()
        },
    );
}

// ---- the binary, as a user runs it ---------------------------------------------------------

/// The package on disk: `DIR/ipreuse.yaml` and `DIR/cN/{hosts,pool}.yaml`.
fn package(dir: &Path) -> PathBuf {
    let pkg = dir.join("fleet");
    for c in CLUSTERS {
        let [h, p] = cluster(c);
        std::fs::create_dir_all(pkg.join(c)).expect("mkdir");
        std::fs::write(pkg.join(c).join("hosts.yaml"), h).expect("write");
        std::fs::write(pkg.join(c).join("pool.yaml"), p).expect("write");
    }
    std::fs::write(pkg.join("ipreuse.yaml"), config_file("fleet")).expect("write");
    pkg
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ipreuse(args: &[&Path]) -> Output {
    Command::new(BIN).args(args).output().expect("run ipreuse")
}

#[test]
fn a_folder_with_its_config_file_fills_three_addresses() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path());
    let out = ipreuse(&[&pkg]);
    assert!(out.status.success(), "{}", show(&out));
    assert_three_addresses(
        &addresses(&String::from_utf8_lossy(&out.stdout)),
        "ipreuse DIR",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let file = pkg.join("ipreuse.yaml");
    assert!(
        stderr.contains("info: IPReuse fleet: this IPReuse is the config of this run")
            && stderr.contains(&format!("it is IPReuse fleet (in {})", file.display())),
        "{stderr}"
    );
}

#[test]
fn named_files_with_the_config_file_fill_three_addresses() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path());
    let mut files: Vec<PathBuf> = vec![pkg.join("ipreuse.yaml")];
    for c in CLUSTERS {
        files.push(pkg.join(c).join("hosts.yaml"));
        files.push(pkg.join(c).join("pool.yaml"));
    }
    let args: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let out = ipreuse(&args);
    assert!(out.status.success(), "{}", show(&out));
    assert_three_addresses(
        &addresses(&String::from_utf8_lossy(&out.stdout)),
        "ipreuse FILE...",
    );
}

#[test]
fn in_place_with_the_config_file_writes_three_addresses_and_leaves_the_config_alone() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path());
    let out = Command::new(BIN)
        .arg("--in-place")
        .arg(&pkg)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", show(&out));
    let written: Vec<String> = CLUSTERS
        .iter()
        .flat_map(|c| {
            addresses(&std::fs::read_to_string(pkg.join(c).join("pool.yaml")).expect("read"))
        })
        .collect();
    assert_three_addresses(&written, "--in-place DIR");
    assert_eq!(
        std::fs::read_to_string(pkg.join("ipreuse.yaml")).expect("read"),
        config_file("fleet"),
        "the config file is never changed"
    );
    // a second config file in the folder: an error, nothing written
    let again = package(&tmp.path().join("again"));
    std::fs::write(
        again.join("c1").join("ipreuse.yaml"),
        config_file("c1-only"),
    )
    .expect("write");
    let before = std::fs::read_to_string(again.join("c2").join("pool.yaml")).expect("read");
    let out = Command::new(BIN)
        .arg("--in-place")
        .arg(&again)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("IPReuse c1-only (in ") && stderr.contains("IPReuse fleet (in "),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(again.join("c2").join("pool.yaml")).expect("read"),
        before
    );
}

#[test]
fn the_pipe_with_the_config_in_the_stream_fills_three_addresses() {
    let mut docs = clusters();
    docs.insert(0, config_file("fleet"));
    let out = common::run_bin_stdin(&[], &common::stream(&docs));
    assert!(out.status.success(), "{}", show(&out));
    assert_three_addresses(
        &addresses(&String::from_utf8_lossy(&out.stdout)),
        "the pipe",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is the config of this run")
            && stderr.contains("it is IPReuse fleet (in <stdin>, document 1)"),
        "{stderr}"
    );
    // with --config as well, and a config in the stream that differs: a warning, the file wins
    let tmp = tempfile::tempdir().expect("tmp");
    let cfg = tmp.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        config_file("file").replace("16}", "16}, {name: bmc, cidr: 10.9.0.0/24}"),
    )
    .expect("write");
    let out = common::run_bin_stdin(
        &["--config", cfg.to_str().expect("utf-8")],
        &common::stream(&docs),
    );
    assert!(out.status.success(), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: IPReuse fleet spec: this IPReuse is not used")
            && stderr.contains("It is IPReuse fleet (in <stdin>, document 1), and differs from the functionConfig IPReuse file in spec.networks"),
        "{stderr}"
    );
}

// ---- kpt ---------------------------------------------------------------------------------

fn kpt() -> String {
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    match Command::new(&kpt).arg("version").output() {
        Ok(out) if out.status.success() => kpt,
        other => panic!(
            "cannot run `{kpt} version` ({other:?}). These tests need the real kpt on PATH, \
             or KPT=/path/to/kpt; they never skip."
        ),
    }
}

/// The package as a kpt package whose Kptfile runs `ipreuse` (on `PATH`: `render`) with
/// `configPath: ipreuse.yaml`.
fn kpt_package(dir: &Path) -> PathBuf {
    let pkg = package(dir);
    std::fs::write(
        pkg.join("Kptfile"),
        "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fleet\n  annotations:\n    \
         config.kubernetes.io/local-config: \"true\"\npipeline:\n  mutators:\n    - exec: ipreuse\n      \
         configPath: ipreuse.yaml\n"
    )
    .expect("write the Kptfile");
    pkg
}

/// The pools' addresses as the package's files hold them.
fn written(pkg: &Path) -> Vec<String> {
    CLUSTERS
        .iter()
        .flat_map(|c| {
            addresses(&std::fs::read_to_string(pkg.join(c).join("pool.yaml")).expect("read"))
        })
        .collect()
}

/// The results ipreuse gave kpt, from `--results-dir DIR`.
fn kpt_results(dir: &Path, out: &Output) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("results.yaml"))
        .unwrap_or_else(|e| panic!("no results.yaml ({e}): {}", show(out)));
    let list: Value = serde_saphyr::from_str(&text).expect("YAML");
    list["items"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn kpt_fn_eval_without_fn_config_uses_the_package_s_config_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = package(tmp.path());
    let results = tmp.path().join("results");
    let out = Command::new(kpt())
        .args(["fn", "eval"])
        .arg(&pkg)
        .arg("--exec")
        .arg(BIN)
        .arg("--results-dir")
        .arg(&results)
        .output()
        .expect("run kpt");
    assert!(out.status.success(), "{}", show(&out));
    assert_three_addresses(&written(&pkg), "kpt fn eval --exec");
    let results = kpt_results(&results, &out);
    assert!(
        results.iter().any(|r| r["severity"] == "info"
            && r["resourceRef"]["kind"] == "IPReuse"
            && r["message"]
                .as_str()
                .is_some_and(|m| m.contains("this IPReuse is the config of this run")
                    && m.contains("The functionConfig ConfigMap function-input sets nothing")
                    && m.contains("it is IPReuse fleet (in ipreuse.yaml)"))),
        "{results:?}"
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join("ipreuse.yaml")).expect("read"),
        config_file("fleet")
    );
}

#[test]
fn kpt_fn_render_with_config_path_sends_the_config_twice_and_says_nothing_of_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = kpt_package(tmp.path());
    let results = tmp.path().join("results");
    let out = Command::new(kpt())
        .current_dir(tmp.path())
        .env("PATH", path_support::path_with_bin())
        .args(["fn", "render"])
        .arg(&pkg)
        .arg("--allow-exec")
        .arg("--results-dir")
        .arg(&results)
        .output()
        .expect("run kpt");
    assert!(out.status.success(), "{}", show(&out));
    assert_three_addresses(&written(&pkg), "kpt fn render");
    let results = kpt_results(&results, &out);
    assert!(
        results
            .iter()
            .all(|r| r["resourceRef"]["kind"] != "IPReuse"),
        "the functionConfig and the item agree: no result about them: {results:?}"
    );
    // The Kptfile's config and the file differ (another network in the Kptfile's configMap...
    // here: the file edited by hand after the Kptfile pointed at another one): a warning.
    std::fs::write(
        pkg.join("other.yaml"),
        config_file("other").replace("172.22.0.0/16", "172.22.0.0/17"),
    )
    .expect("write");
    let kptfile = std::fs::read_to_string(pkg.join("Kptfile")).expect("read");
    std::fs::write(
        pkg.join("Kptfile"),
        kptfile.replace("configPath: ipreuse.yaml", "configPath: other.yaml"),
    )
    .expect("write");
    let results2 = tmp.path().join("results2");
    let out = Command::new(kpt())
        .current_dir(tmp.path())
        .env("PATH", path_support::path_with_bin())
        .args(["fn", "render"])
        .arg(&pkg)
        .arg("--allow-exec")
        .arg("--results-dir")
        .arg(&results2)
        .output()
        .expect("run kpt");
    assert!(out.status.success(), "{}", show(&out));
    let results = kpt_results(&results2, &out);
    assert!(
        results.iter().any(|r| r["severity"] == "warning"
            && r["resourceRef"]["name"] == "fleet"
            && r["field"]["path"] == "spec"
            && r["message"].as_str().is_some_and(|m| m.contains(
                "It is IPReuse fleet (in ipreuse.yaml), and differs from the functionConfig IPReuse other in spec.networks"
            ))),
        "{results:?}"
    );
}
