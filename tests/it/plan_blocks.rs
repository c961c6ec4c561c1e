//! `ipreuse plan` lists the blocks of the networks with `blockSize` (SPEC §12): every block a
//! run gives (`new`) and every range a pool of such a network already has (`kept`), with the
//! network, namespace, pool, range and block index, in each format. The new blocks are checked
//! against what fill writes for the same input (read back from its output), the kept ones
//! against the input's own ranges.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

const CONFIG: &str = "apiVersion: fn.ipreuse.dev/v1alpha1
kind: IPReuse
metadata: {name: c}
spec:
  controllerFlag: false
  networks:
  - {name: prov, cidr: 172.22.0.0/24, blockSize: 28, blockKind: range, prefix: 24, gateway: 172.22.0.1}
  - {name: routed, cidr: \"fd00:22::/48\", blockSize: 64, blockKind: subnet, gatewayPolicy: first}
";

/// c1's pool keeps block 1 (written as start/end), c3's keeps a range that is no whole block;
/// c2 asks for a block of each network, the IPv6 one pinned to index 5.
const PACKAGE: &str = "apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: prov
  namespace: c1
  annotations: {ipreuse.dev/network: prov}
spec:
  clusterName: c1
  namePrefix: c1-prov
  pools: [{start: 172.22.0.16, end: 172.22.0.31}]
  prefix: 24
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: prov
  namespace: c3
  annotations: {ipreuse.dev/network: prov}
spec:
  clusterName: c3
  namePrefix: c3-prov
  pools: [{start: 172.22.0.100, end: 172.22.0.120}]
  prefix: 24
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: prov
  namespace: c2
  annotations: {ipreuse.dev/network: prov}
spec:
  clusterName: c2
  namePrefix: c2-prov
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: v6
  namespace: c2
  annotations: {ipreuse.dev/network: routed, ipreuse.dev/block-index: \"5\"}
spec:
  clusterName: c2
  namePrefix: c2-v6
---
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: node-1, namespace: c2}
spec: {online: true}
";

fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let cfg = dir.join("cfg.yaml");
    let pkg = dir.join("pkg.yaml");
    std::fs::write(&cfg, CONFIG).expect("write config");
    std::fs::write(&pkg, PACKAGE).expect("write package");
    (cfg, pkg)
}

fn run(args: &[&str], cfg: &Path, pkg: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--config")
        .arg(cfg)
        .arg(pkg)
        .output()
        .expect("run ipreuse")
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// The rows expected from fill's output: c2's new blocks as fill writes them, and the input's
/// kept ranges, in (network, namespace, pool) order.
fn expected(cfg: &Path, pkg: &Path) -> Vec<Value> {
    let filled = common::json_docs(&stdout(&run(&[], cfg, pkg)));
    let spec = |ns: &str, name: &str| -> Value {
        filled
            .iter()
            .find(|d| d["metadata"]["namespace"] == ns && d["metadata"]["name"] == name)
            .map(|d| d["spec"].clone())
            .unwrap_or_else(|| panic!("{ns}/{name} in fill's output"))
    };
    // The range block fill wrote for c2/prov: a whole /28, its index counted from the cidr.
    let prov = spec("c2", "prov");
    let start = prov["pools"][0]["start"].as_str().expect("start");
    let end = prov["pools"][0]["end"].as_str().expect("end");
    let (s, e) = (common::v4(start), common::v4(end));
    assert_eq!(e - s, 15, "a /28 block: {start}-{end}");
    assert_eq!(s % 16, 0, "aligned: {start}");
    let prov_index = (s - common::v4("172.22.0.0")) / 16;
    let v6 = spec("c2", "v6");
    let subnet = v6["pools"][0]["subnet"].as_str().expect("subnet");
    assert_eq!(subnet, "fd00:22:0:5::/64", "block-index 5 of fd00:22::/48");
    vec![
        json!({"network": "prov", "namespace": "c1", "pool": "prov",
               "range": "172.22.0.16/28", "index": 1, "status": "kept"}),
        json!({"network": "prov", "namespace": "c2", "pool": "prov",
               "range": format!("{start}/28"), "index": prov_index, "status": "new"}),
        json!({"network": "prov", "namespace": "c3", "pool": "prov",
               "range": "172.22.0.100-172.22.0.120", "index": null, "status": "kept"}),
        json!({"network": "routed", "namespace": "c2", "pool": "v6",
               "range": subnet, "index": 5, "status": "new"}),
    ]
}

/// A row as the cells of the CSV and the table (index empty when there is none).
fn cells(row: &Value) -> Vec<String> {
    ["network", "namespace", "pool", "range", "index", "status"]
        .iter()
        .map(|k| match &row[*k] {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            v => v.to_string(),
        })
        .collect()
}

#[test]
fn every_block_new_and_kept_is_listed_in_every_format() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = setup(tmp.path());
    let want = expected(&cfg, &pkg);

    // JSON, --blocks: exactly the expected rows.
    let json: Value = serde_json::from_str(&stdout(&run(
        &["plan", "--blocks", "--format", "json"],
        &cfg,
        &pkg,
    )))
    .expect("JSON");
    assert_eq!(json, Value::Array(want.clone()));

    // CSV, --blocks: a header, then the same rows.
    let csv = stdout(&run(&["plan", "--blocks", "--format", "csv"], &cfg, &pkg));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("network,namespace,pool,range,index,status")
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows, want.iter().map(cells).collect::<Vec<_>>());

    // The table: the hosts' rows, a blank line, then the blocks (index `-` when none).
    let table = stdout(&run(&["plan"], &cfg, &pkg));
    let (hosts, blocks) = table.split_once("\n\n").expect("two tables: {table}");
    assert!(
        hosts.starts_with("NAMESPACE") && hosts.contains("node-1"),
        "{table}"
    );
    let mut lines = blocks.lines();
    let header: Vec<&str> = lines.next().expect("header").split_whitespace().collect();
    assert_eq!(
        header,
        ["NETWORK", "NAMESPACE", "POOL", "RANGE", "INDEX", "STATUS"]
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let want_table: Vec<Vec<String>> = want
        .iter()
        .map(|r| {
            cells(r)
                .into_iter()
                .map(|c| if c.is_empty() { "-".into() } else { c })
                .collect()
        })
        .collect();
    assert_eq!(rows, want_table);
    // --blocks with the table: the blocks' table alone.
    assert_eq!(
        stdout(&run(&["plan", "--blocks"], &cfg, &pkg)),
        format!("{blocks}")
    );

    // Hosts: one comment line per block before the /etc/hosts lines.
    let hosts = stdout(&run(&["plan", "--format", "hosts"], &cfg, &pkg));
    let comments: Vec<&str> = hosts.lines().take_while(|l| l.starts_with('#')).collect();
    assert_eq!(comments.len(), want.len(), "{hosts}");
    for (line, row) in comments.iter().zip(&want) {
        let c = cells(row);
        assert!(
            line.contains(&format!("block {} of network {}", c[3], c[0]))
                && line.contains(&format!("{}/{} {}", c[1], c[2], c[5])),
            "{line} for {row}"
        );
    }
    assert!(
        hosts
            .lines()
            .skip(comments.len())
            .all(|l| !l.starts_with('#'))
    );

    // The hosts' JSON and CSV keep their rows: no block in them.
    let rows: Value =
        serde_json::from_str(&stdout(&run(&["plan", "--format", "json"], &cfg, &pkg)))
            .expect("JSON");
    let rows = rows.as_array().expect("array");
    assert!(!rows.is_empty() && rows.iter().all(|r| r.get("host").is_some()));
}

#[test]
fn the_pool_filter_keeps_that_pools_blocks_and_names_the_pools_when_none_match() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = setup(tmp.path());
    let json: Value = serde_json::from_str(&stdout(&run(
        &["plan", "--blocks", "--format", "json", "--pool", "v6"],
        &cfg,
        &pkg,
    )))
    .expect("JSON");
    let rows = json.as_array().expect("array");
    assert_eq!(rows.len(), 1, "{json}");
    assert_eq!(rows[0]["pool"], "v6");
    let out = run(&["plan", "--blocks", "--pool", "v7"], &cfg, &pkg);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--pool v7: no block is in a pool of that name; the pools are prov, v6"),
        "{err}"
    );
}

#[test]
fn a_run_without_block_networks_shows_no_block_table() {
    // examples/basic has no network with blockSize: its table is the hosts' alone, and
    // --blocks lists nothing but the header.
    let basic = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/basic");
    let out = Command::new(BIN)
        .args(["plan"])
        .arg(&basic)
        .output()
        .expect("run");
    let table = stdout(&out);
    assert!(
        !table.contains("\n\n") && !table.contains("NETWORK  NAMESPACE"),
        "{table}"
    );
    let out = Command::new(BIN)
        .args(["plan", "--blocks", "--format", "json"])
        .arg(&basic)
        .output()
        .expect("run");
    assert_eq!(stdout(&out).trim(), "[]");
}

#[test]
fn the_host_filter_keeps_that_hosts_rows_and_its_pools_blocks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = setup(tmp.path());
    let csv = stdout(&run(
        &["plan", "--format", "csv", "--host", "node-1"],
        &cfg,
        &pkg,
    ));
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows.iter().all(|r| r.starts_with("c2,node-1,")), "{csv}");
    // Its blocks: c2's two new ones, not c1's or c3's.
    let json: Value = serde_json::from_str(&stdout(&run(
        &["plan", "--blocks", "--format", "json", "--host", "node-1"],
        &cfg,
        &pkg,
    )))
    .expect("JSON");
    let pools: Vec<(&str, &str)> = json
        .as_array()
        .expect("array")
        .iter()
        .map(|b| {
            (
                b["namespace"].as_str().unwrap_or(""),
                b["pool"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(pools, [("c2", "prov"), ("c2", "v6")]);
    // A host the plan does not have: exit 2, the name it likely meant.
    let out = run(&["plan", "--host", "node1"], &cfg, &pkg);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "--host node1: no host of that name has an address in the plan (did you mean node-1?)"
        ),
        "{err}"
    );
}
