//! The binary's interfaces (SPEC §1): ResourceList on stdin, a plain stream with `--config`,
//! files and folders, `--in-place`, `schema`, `--help`, `--version`, and exit codes 0 / 1 / 2.
//! Filled IPPools are validated against the upstream IPPool CRD schema.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{host, pool, range, resource_list, stream};
use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ipreuse"))
}

fn run_stdin(args: &[&str], stdin: &str) -> Output {
    common::run_bin_stdin(args, stdin)
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("utf-8")
}

fn package() -> Vec<String> {
    vec![
        host("node-2", "m3").yaml(),
        host("node-10", "m3").yaml(),
        pool("prov", "m3")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .gateway("10.0.0.10")
            .yaml(),
    ]
}

fn bad_package() -> Vec<String> {
    vec![
        host("node-1", "m3").yaml(),
        pool("prov", "m3")
            .range(range("10.0.0.10", "10.0.0.20"))
            .entry("node-1-prov", "10.0.0.99")
            .yaml(),
    ]
}

/// Every YAML document of a text, as JSON (read with serde-saphyr, not the library's parser).
fn docs(text: &str) -> Vec<Value> {
    common::json_docs(text)
}

fn ippools(values: &[Value]) -> Vec<&Value> {
    values.iter().filter(|v| v["kind"] == "IPPool").collect()
}

#[test]
fn resource_list_in_and_out() {
    let input = resource_list(&package(), None);
    let out = run_stdin(&[], &input);
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    let rl = &docs(&text(&out.stdout))[0];
    assert_eq!(rl["kind"], "ResourceList");
    let pool = rl["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["kind"] == "IPPool"))
        .expect("pool item");
    // the gateway .10 is skipped; natural order: node-2 before node-10
    assert_eq!(pool["spec"]["preAllocations"]["node-2-prov"], "10.0.0.11");
    assert_eq!(pool["spec"]["preAllocations"]["node-10-prov"], "10.0.0.12");
    let results = rl["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["severity"] == "info"
        && r["resourceRef"]["name"] == "prov"
        && r["message"].as_str().unwrap_or("").contains("2 added")));
    assert!(
        text(&out.stderr).is_empty(),
        "ResourceList mode prints only errors on stderr"
    );
}

#[test]
fn resource_list_with_error_exits_1_and_returns_items() {
    let input = resource_list(&bad_package(), None);
    let out = run_stdin(&[], &input);
    assert_eq!(code(&out), 1);
    let stdout = text(&out.stdout);
    let rl = &docs(&stdout)[0];
    let before = &docs(&input)[0];
    assert_eq!(rl["items"], before["items"], "items come back unchanged");
    assert!(rl["results"].as_array().expect("results").iter().any(
        |r| r["severity"] == "error" && r["field"]["path"] == "spec.preAllocations.node-1-prov"
    ));
    assert!(
        text(&out.stderr).contains("node-1-prov"),
        "the error is on stderr too"
    );
}

#[test]
fn plain_stream_with_config_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        common::ipreuse_config("c")
            .set("reserve", "[\"10.0.0.11\"]")
            .yaml(),
    )
    .expect("write cfg");
    let out = run_stdin(
        &["--config", cfg.to_str().expect("path")],
        &stream(&package()),
    );
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    let values = docs(&text(&out.stdout));
    assert_eq!(values.len(), 3, "every item comes back");
    let pre = &ippools(&values)[0]["spec"]["preAllocations"];
    assert_eq!(
        pre["node-2-prov"], "10.0.0.12",
        "reserve from --config is honoured"
    );
    assert!(
        text(&out.stderr).contains("info: IPPool m3/prov"),
        "results for people on stderr"
    );
}

#[test]
fn bad_config_field_is_an_error_and_items_come_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: c\nspec:\n  strategi: ordinal\n",
    )
    .expect("write cfg");
    let input = stream(&package());
    let out = run_stdin(&["--config", cfg.to_str().expect("path")], &input);
    assert_eq!(code(&out), 1);
    assert_eq!(text(&out.stdout), input);
    assert!(text(&out.stderr).contains("strategi"));
}

#[test]
fn files_and_folders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sub = dir.path().join("hosts");
    std::fs::create_dir(&sub).expect("mkdir");
    let p = package();
    std::fs::write(sub.join("a.yaml"), &p[0]).expect("write");
    std::fs::write(sub.join("b.yml"), &p[1]).expect("write");
    std::fs::write(sub.join("notes.txt"), "not yaml: [").expect("write");
    std::fs::create_dir(dir.path().join(".expected")).expect("mkdir");
    std::fs::write(dir.path().join(".expected/results.yaml"), "not: [yaml").expect("write");
    let pool_file = dir.path().join("pool.yaml");
    std::fs::write(&pool_file, &p[2]).expect("write");
    let out = bin().arg(dir.path()).output().expect("run");
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    let values = docs(&text(&out.stdout));
    assert_eq!(
        values.len(),
        3,
        "two host files and the pool; .txt and hidden folders skipped"
    );
    assert_eq!(
        ippools(&values)[0]["spec"]["preAllocations"]["node-10-prov"],
        "10.0.0.12"
    );
    // a single file works too, and a missing path is a usage error
    let one = bin().arg(&pool_file).output().expect("run");
    assert_eq!(code(&one), 0);
    let missing = bin()
        .arg(dir.path().join("nope.yaml"))
        .output()
        .expect("run");
    assert_eq!(code(&missing), 2);
}

#[test]
fn in_place_rewrites_only_changed_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = package();
    let host_file = dir.path().join("hosts.yaml");
    let pool_file = dir.path().join("pool.yaml");
    let hosts = format!("{}---\n{}", p[0], p[1]);
    let pool_text = format!("# the provisioning pool\n{}", p[2]);
    std::fs::write(&host_file, &hosts).expect("write");
    std::fs::write(&pool_file, &pool_text).expect("write");
    let host_mtime = std::fs::metadata(&host_file)
        .and_then(|m| m.modified())
        .expect("mtime");
    let out = bin()
        .arg("--in-place")
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "in place prints no YAML");
    assert!(text(&out.stderr).contains("1 of 2 file(s) changed"));
    assert_eq!(std::fs::read_to_string(&host_file).expect("read"), hosts);
    assert_eq!(
        std::fs::metadata(&host_file)
            .and_then(|m| m.modified())
            .expect("mtime"),
        host_mtime,
        "an unchanged file is not rewritten"
    );
    let after = std::fs::read_to_string(&pool_file).expect("read");
    assert!(
        common::is_line_subsequence(&pool_text, &after),
        "only lines added"
    );
    assert_eq!(
        common::added_lines(&pool_text, &after),
        vec![
            "  preAllocations:",
            "    node-2-prov: \"10.0.0.11\"",
            "    node-10-prov: \"10.0.0.12\""
        ]
    );
    // a second run changes nothing
    let again = bin()
        .arg("--in-place")
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&again), 0);
    assert_eq!(std::fs::read_to_string(&pool_file).expect("read"), after);
    // no temp files are left behind
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("ls")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn mode_flag_overrides_the_config_mode() {
    let input = stream(&package());
    // --mode check: nothing changes, exit 1, the results say what fill would do.
    let checked = run_stdin(&["--mode", "check"], &input);
    assert_eq!(code(&checked), 1, "stderr: {}", text(&checked.stderr));
    assert_eq!(text(&checked.stdout), input, "check changes nothing");
    assert!(
        text(&checked.stderr).contains("Fill would add node-2-prov: \"10.0.0.11\""),
        "stderr: {}",
        text(&checked.stderr)
    );
    // --mode fill wins over a config that says check; the config's other fields still count.
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        common::ipreuse_config("c")
            .set("mode", "check")
            .set("controllerFlag", "false")
            .yaml(),
    )
    .expect("write");
    let cfg = cfg.to_str().expect("path");
    let from_config = run_stdin(&["--config", cfg], &input);
    assert_eq!(code(&from_config), 1, "the config alone checks");
    let filled = run_stdin(&["--config", cfg, "--mode", "fill"], &input);
    assert_eq!(code(&filled), 0, "stderr: {}", text(&filled.stderr));
    assert!(text(&filled.stdout).contains("node-10-prov: \"10.0.0.12\""));
    assert!(
        !text(&filled.stderr).contains("controllerFlag is on"),
        "the config's controllerFlag: false still holds"
    );
    // A ConfigMap functionConfig with a bad field is refused whatever --mode says.
    std::fs::write(
        dir.path().join("bad.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  mode: Check\n",
    )
    .expect("write");
    let bad = dir.path().join("bad.yaml");
    let refused = run_stdin(
        &["--config", bad.to_str().expect("path"), "--mode", "fill"],
        &input,
    );
    assert_eq!(code(&refused), 1);
    assert!(text(&refused.stderr).contains("data.mode"));
    // Only fill and check, written as the config writes them (an empty value is "required"):
    // a usage error that lists them.
    for mode in ["Check", "dry-run", ""] {
        let usage = bin().args(["--mode", mode]).output().expect("run");
        assert_eq!(code(&usage), 2, "{mode:?}");
        assert!(usage.stdout.is_empty(), "{mode:?}");
        let stderr = text(&usage.stderr);
        assert!(
            stderr.contains("for '--mode <MODE>'")
                && stderr.contains("[possible values: fill, check]"),
            "{stderr}"
        );
    }
}

#[test]
fn in_place_check_writes_nothing_and_prints_only_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pool_file = dir.path().join("all.yaml");
    let before = stream(&package());
    std::fs::write(&pool_file, &before).expect("write");
    let out = bin()
        .args(["--mode", "check", "--in-place"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&out), 1, "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "no YAML on stdout");
    // One line per entry, naming the file and the pool's first line in it.
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("check: ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for (host, address) in [("node-10", "10.0.0.12"), ("node-2", "10.0.0.11")] {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("{}:", pool_file.display()))
                && l.contains(&format!(
                    "spec.preAllocations.{host}-prov: check: entry {host}-prov is missing: run ipreuse in \
                     fill mode and commit the result. Fill would add {host}-prov: \"{address}\" to IPPool \
                     m3/prov for BareMetalHost {host}"
                ))),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::read_to_string(&pool_file).expect("read"), before);
    // Once filled, the check passes and still writes nothing.
    let fill = bin()
        .arg("--in-place")
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&fill), 0, "stderr: {}", text(&fill.stderr));
    let filled = std::fs::read_to_string(&pool_file).expect("read");
    assert_ne!(filled, before);
    let out = bin()
        .args(["--mode", "check", "--in-place"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&pool_file).expect("read"), filled);
}

#[test]
fn in_place_writes_nothing_on_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let b = bad_package();
    // one file that would change (a host needs an entry in a good pool), one with an error
    let good = format!(
        "{}---\n{}",
        host("node-1", "ok").yaml(),
        pool("p", "ok").range(range("10.1.0.1", "10.1.0.9")).yaml()
    );
    let bad = format!("{}---\n{}", b[0], b[1]);
    std::fs::write(dir.path().join("good.yaml"), &good).expect("write");
    std::fs::write(dir.path().join("bad.yaml"), &bad).expect("write");
    let out = bin()
        .arg("--in-place")
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(code(&out), 1);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("good.yaml")).expect("read"),
        good
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.yaml")).expect("read"),
        bad
    );
    assert!(text(&out.stderr).contains("error:"));
}

#[test]
fn schema_prints_the_ipreuse_crd() {
    let out = bin().arg("schema").output().expect("run");
    assert_eq!(code(&out), 0);
    let crd = &docs(&text(&out.stdout))[0];
    assert_eq!(crd["kind"], "CustomResourceDefinition");
    assert_eq!(crd["spec"]["group"], "fn.ipreuse.dev");
    assert_eq!(crd["spec"]["names"]["kind"], "IPReuse");
    let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    for field in [
        "mode",
        "mapping",
        "hostSelector",
        "pools",
        "strategy",
        "reserve",
        "prune",
    ] {
        assert!(props.get(field).is_some(), "CRD lacks spec.{field}");
    }
}

#[test]
fn help_version_and_usage_errors() {
    let help = bin().arg("--help").output().expect("run");
    assert_eq!(code(&help), 0);
    assert!(text(&help.stdout).contains("--in-place"));
    let version = bin().arg("--version").output().expect("run");
    assert_eq!(code(&version), 0);
    assert!(text(&version.stdout).contains(env!("CARGO_PKG_VERSION")));
    let unknown = bin().arg("--frobnicate").output().expect("run");
    assert_eq!(code(&unknown), 2);
    assert!(unknown.stdout.is_empty());
    let in_place_without_paths = bin().arg("--in-place").output().expect("run");
    assert_eq!(code(&in_place_without_paths), 2);
    // a ResourceList carries its own functionConfig
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
    )
    .expect("write");
    let twice = run_stdin(
        &["--config", cfg.to_str().expect("path")],
        &resource_list(&package(), None),
    );
    assert_eq!(code(&twice), 2);
}

#[test]
fn not_yaml_exits_1_with_nothing_on_stdout() {
    let out = run_stdin(&[], "apiVersion: v1\nkind: [unclosed\n");
    assert_eq!(code(&out), 1);
    assert!(
        out.stdout.is_empty(),
        "kpt must not be handed an empty list"
    );
    assert!(text(&out.stderr).contains("not valid YAML"));
}

#[test]
fn filled_pools_validate_against_the_upstream_ippool_crd() {
    let crd_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crds/ipam.metal3.io_ippools.yaml");
    let crd_text = std::fs::read_to_string(&crd_path).unwrap_or_else(|e| {
        panic!(
            "the vendored upstream CRD is missing ({}): {e}",
            crd_path.display()
        )
    });
    let crd = &docs(&crd_text)[0];
    let schema = crd["spec"]["versions"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["name"] == "v1alpha1"))
        .map(|v| v["schema"]["openAPIV3Schema"].clone())
        .expect("v1alpha1 schema");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let mut input = package();
    input.push(
        pool("v6", "m3")
            .range(common::subnet("2001:db8::/64"))
            .gateway("2001:db8::1")
            .entry_raw("node-2-v6", "\"2001:DB8::0005\"")
            .yaml(),
    );
    let out = run_stdin(&[], &stream(&input));
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    let values = docs(&text(&out.stdout));
    let pools = ippools(&values);
    assert_eq!(pools.len(), 2);
    for p in pools {
        let errors: Vec<String> = validator.iter_errors(p).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{} fails the CRD: {errors:?}",
            p["metadata"]["name"]
        );
        assert!(
            p["spec"]["preAllocations"]
                .as_object()
                .is_some_and(|m| !m.is_empty())
        );
    }
}

#[test]
fn pass_through_prints_the_input_unchanged_and_still_refuses_what_is_not_yaml() {
    // The benchmarks' floor (bench/compare.py): the same reader, nothing else done, even where
    // the function itself would write entries.
    let input = stream(&package());
    let out = run_stdin(&["--pass-through"], &input);
    assert_eq!(code(&out), 0, "stderr: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), input);
    let filled = run_stdin(&[], &input);
    assert_ne!(
        text(&filled.stdout),
        input,
        "the package must be one fill changes"
    );
    let bad = run_stdin(&["--pass-through"], "apiVersion: v1\nkind: [unclosed\n");
    assert_eq!(code(&bad), 1);
    assert!(bad.stdout.is_empty());
    // A usage error: refused before stdin is read (so nothing is written to it here).
    let usage = bin()
        .args(["--pass-through", "--mode", "check"])
        .stdin(Stdio::null())
        .output()
        .expect("run ipreuse");
    assert_eq!(code(&usage), 2);
}

/// A functionConfig without `metadata.name` is named by its kind on stderr (the line said
/// `IPReuse  spec.strategy`, as if the field were its name), and its results carry no empty
/// `resourceRef.name`.
#[test]
fn a_function_config_without_a_name_is_named_by_its_kind() {
    let fc = "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nspec:\n  strategy: sequental\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(&cfg, fc).expect("write cfg");
    let out = run_stdin(
        &["--config", cfg.to_str().expect("utf-8")],
        &stream(&package()),
    );
    assert_eq!(code(&out), 1);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: IPReuse (no name) spec.strategy: "),
        "{stderr}"
    );
    assert!(!stderr.contains("IPReuse  "), "{stderr}");
    // The same config as a ResourceList's functionConfig: the result names no empty name.
    let out = run_stdin(&[], &resource_list(&package(), Some(fc)));
    assert_eq!(code(&out), 1);
    let rl = &docs(&text(&out.stdout))[0];
    let result = rl["results"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["field"]["path"] == "spec.strategy"))
        .expect("a result at spec.strategy");
    assert_eq!(result["resourceRef"]["kind"], "IPReuse");
    assert!(
        result["resourceRef"].get("name").is_none(),
        "{}",
        result["resourceRef"]
    );
    assert!(
        text(&out.stderr).contains("IPReuse (no name) spec.strategy"),
        "{}",
        text(&out.stderr)
    );
}
