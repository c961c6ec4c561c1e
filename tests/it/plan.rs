//! `ipreuse plan [--format table|csv|json|hosts] PATH...`: the address plan, checked against
//! what fill writes for the same input (read back independently) and against the input itself
//! for each row's status: `kept` (the entry was there), `pinned` (the host's
//! `ipreuse.dev/ip.{pool}` annotation), `live` (the claim's address in `status.indexes`, or
//! adopted from an export), `new` (the strategy). Nothing is written; errors are the function's.
//! `--format hosts` is resolved with the system's own resolver: `getent` reading the output as
//! `/etc/hosts`, bind-mounted over it in a mount namespace of its own (`unshare`, as root).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

fn ipreuse(args: &[&str], path: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .arg(path)
        .output()
        .expect("run ipreuse")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8")
}

/// Every file of a folder (recursively), for "nothing was written".
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.insert(p.clone(), std::fs::read(&p).expect("read"));
        }
    }
    out
}

/// One CSV row: namespace, host, pool, address, status, network, cluster.
type Row = [String; 7];

/// The rows of a successful `plan --format csv`.
fn csv_rows(out: &Output) -> Vec<Row> {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("namespace,host,pool,address,status,network,cluster")
    );
    lines
        .map(|l| {
            let f: Vec<String> = l.split(',').map(str::to_string).collect();
            f.try_into().unwrap_or_else(|f| panic!("7 fields: {f:?}"))
        })
        .collect()
}

/// The objects of every YAML file of a package (Kptfile and local config left out).
fn objects(dir: &Path) -> Vec<Value> {
    snapshot(dir)
        .into_iter()
        .filter(|(p, _)| {
            p.extension().is_some_and(|e| e == "yaml")
                && !p.components().any(|c| c.as_os_str() == ".expected")
        })
        .flat_map(|(_, b)| common::json_docs(&text(&b)))
        .flat_map(|v| {
            if v["kind"] == "List" {
                v["items"].as_array().cloned().unwrap_or_default()
            } else {
                vec![v]
            }
        })
        .filter(|v| v["kind"] != "IPReuse")
        .collect()
}

fn find<'a>(objects: &'a [Value], kind: &str, ns: &str, name: &str) -> Option<&'a Value> {
    objects.iter().find(|o| {
        o["kind"] == kind && o["metadata"]["name"] == name && o["metadata"]["namespace"] == ns
    })
}

#[test]
fn plan_rows_are_what_fill_writes_with_each_status_from_the_input() {
    let pkg = example("existing-lock");
    let before = snapshot(&pkg);
    let plan = ipreuse(&["plan", "--format", "csv"], &pkg);
    assert_eq!(plan.status.code(), Some(0), "{}", text(&plan.stderr));
    assert_eq!(snapshot(&pkg), before, "plan writes nothing");
    let rows = csv_rows(&plan);

    let filled = ipreuse(&[], &pkg);
    assert_eq!(filled.status.code(), Some(0));
    let after: Vec<Value> = common::json_docs(&text(&filled.stdout));
    let input = objects(&pkg);

    let mut statuses = BTreeMap::new();
    for [ns, host, pool, address, status, network, cluster] in &rows {
        assert_eq!(network, "", "no pool of the example is on a network");
        assert_eq!(
            cluster, "",
            "no host of the example is in a Cluster of a ClusterClass"
        );
        let claim = format!("{host}-{pool}");
        let written = find(&after, "IPPool", ns, pool)
            .map(|p| p["spec"]["preAllocations"][&claim].clone())
            .unwrap_or(Value::Null);
        assert_eq!(
            written.as_str(),
            Some(address.as_str()),
            "{claim}: the plan says what fill writes"
        );
        let was = find(&input, "IPPool", ns, pool).expect("input pool");
        let bmh = find(&input, "BareMetalHost", ns, host).expect("input host");
        let pin = bmh["metadata"]["annotations"][format!("ipreuse.dev/ip.{pool}")].as_str();
        let expected = if !was["spec"]["preAllocations"][&claim].is_null() {
            "kept"
        } else if pin == Some(address) {
            "pinned"
        } else if was["status"]["indexes"][&claim].as_str() == Some(address) {
            "live"
        } else {
            "new"
        };
        assert_eq!(status, expected, "{claim}");
        *statuses.entry(status.clone()).or_insert(0) += 1;
    }
    // Every entry fill leaves for a host of the input is a row.
    let hosts: Vec<&str> = input
        .iter()
        .filter(|o| o["kind"] == "BareMetalHost")
        .filter_map(|o| o["metadata"]["name"].as_str())
        .collect();
    let mut entries = 0;
    for pool in after.iter().filter(|o| o["kind"] == "IPPool") {
        let name = pool["metadata"]["name"].as_str().expect("name");
        for key in pool["spec"]["preAllocations"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            if hosts.iter().any(|h| *key == format!("{h}-{name}")) {
                entries += 1;
            }
        }
    }
    assert_eq!(rows.len(), entries, "one row per host entry: {rows:?}");
    // The example shows every status.
    assert_eq!(
        statuses.keys().map(String::as_str).collect::<Vec<_>>(),
        ["kept", "live", "new", "pinned"],
        "{rows:?}"
    );
}

#[test]
fn every_format_carries_the_same_rows() {
    let pkg = example("existing-lock");
    let csv = csv_rows(&ipreuse(&["plan", "--format", "csv"], &pkg));
    // The rows themselves, so that formats that all carry nothing do not agree vacuously: every
    // host with an address in each pool, each status the example shows.
    let lines: Vec<String> = csv.iter().map(|r| r.join(",")).collect();
    assert_eq!(
        lines,
        [
            "prod,node-1,bmv4-pool,10.0.0.10,kept,,",
            "prod,node-1,bmv6-pool,2001:db8::5,kept,,",
            "prod,node-2,bmv4-pool,10.0.0.20,kept,,",
            "prod,node-2,bmv6-pool,2001:db8::2,new,,",
            "prod,node-3,bmv4-pool,10.0.0.33,live,,",
            "prod,node-3,bmv6-pool,2001:db8::3,new,,",
            "prod,node-4,bmv4-pool,10.0.0.50,pinned,,",
            "prod,node-4,bmv6-pool,2001:db8::4,new,,",
            "prod,node-5,bmv4-pool,10.0.0.2,new,,",
            "prod,node-5,bmv6-pool,2001:db8::6,new,,",
        ]
    );

    let json = ipreuse(&["plan", "--format", "json"], &pkg);
    assert_eq!(json.status.code(), Some(0));
    let json: Vec<Value> = serde_json::from_slice(&json.stdout).expect("JSON");
    let from_json: Vec<Row> = json
        .iter()
        .map(|r| {
            [
                "namespace",
                "host",
                "pool",
                "address",
                "status",
                "network",
                "clusters",
            ]
            .map(|k| match &r[k] {
                Value::Array(parts) => {
                    let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                    parts.join(",")
                }
                v => v.as_str().unwrap_or_default().to_string(),
            })
        })
        .collect();
    assert_eq!(from_json, csv);

    let table = ipreuse(&["plan"], &pkg);
    assert_eq!(table.status.code(), Some(0));
    // table is the default.
    assert_eq!(
        ipreuse(&["plan", "--format", "table"], &pkg).stdout,
        table.stdout
    );
    let table = text(&table.stdout);
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split_whitespace().collect();
    assert_eq!(
        header,
        [
            "NAMESPACE",
            "HOST",
            "POOL",
            "ADDRESS",
            "STATUS",
            "NETWORK",
            "CLUSTER"
        ]
    );
    let from_table: Vec<Vec<String>> = lines
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    // The table shows a pool on no network and a host of no stamped Cluster as `-`.
    let csv_vecs: Vec<Vec<String>> = csv
        .iter()
        .map(|r| {
            let mut v = r.to_vec();
            for cell in &mut v[5..] {
                if cell.is_empty() {
                    *cell = "-".into();
                }
            }
            v
        })
        .collect();
    assert_eq!(from_table, csv_vecs);

    let hosts = ipreuse(&["plan", "--format", "hosts"], &pkg);
    assert_eq!(hosts.status.code(), Some(0));
    let hosts = text(&hosts.stdout);
    let expected: String = csv
        .iter()
        .map(|[ns, host, pool, address, status, _, _]| {
            format!("{address}\t{host}-{pool}\t# {ns}/{pool} {status}\n")
        })
        .collect();
    assert_eq!(hosts, expected);
}

#[test]
fn adopted_addresses_are_live() {
    let rows = csv_rows(&ipreuse(
        &["plan", "--format", "csv"],
        &example("adopt-live"),
    ));
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(rows.iter().all(|r| r[4] == "live"), "{rows:?}");
    // node-1 keeps the .102 it holds, where the strategy alone would give it .100.
    assert!(
        rows.iter()
            .any(|r| r[1] == "node-1" && r[3] == "172.22.0.102")
    );
}

#[test]
fn errors_are_the_function_errors_and_nothing_is_printed() {
    let pkg = example("errors");
    let before = snapshot(&pkg);
    let plan = ipreuse(&["plan"], &pkg);
    assert_eq!(plan.status.code(), Some(1));
    assert!(plan.stdout.is_empty(), "no plan when there is an error");
    assert_eq!(snapshot(&pkg), before);
    let run = ipreuse(&[], &pkg);
    assert_eq!(run.status.code(), Some(1));
    let errors = |o: &Output| -> Vec<String> {
        text(&o.stderr)
            .lines()
            // `path:line: error: ...` for an object of a file
            .filter(|l| l.starts_with("error:") || l.contains(": error: "))
            .map(str::to_string)
            .collect()
    };
    assert!(!errors(&plan).is_empty());
    assert_eq!(errors(&plan), errors(&run));
}

#[test]
fn plan_ignores_the_config_mode_and_keeps_its_other_fields() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: c\nspec:\n  mode: check\n  hostSelector:\n    matchLabels:\n      cluster-role: worker\n",
    )
    .expect("write");
    let out = Command::new(BIN)
        .args(["plan", "--format", "csv", "--config"])
        .arg(&cfg)
        .arg(example("dual-stack"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows = csv_rows(&out);
    assert!(!rows.is_empty());
    // dual-stack's cp-1 is not a worker: no row.
    assert!(rows.iter().all(|r| r[1] != "cp-1"), "{rows:?}");
    // A format clap does not know is a usage error naming the formats, never a table.
    for format in ["xml", "CSV", ""] {
        let bad = Command::new(BIN)
            .args(["plan", "--format", format])
            .arg(example("dual-stack"))
            .output()
            .expect("run");
        assert_eq!(bad.status.code(), Some(2), "{format:?}");
        assert!(bad.stdout.is_empty(), "{format:?}");
        let stderr = text(&bad.stderr);
        assert!(
            stderr.contains("for '--format <FORMAT>'")
                && stderr.contains("[possible values: table, csv, json, hosts, html]"),
            "{stderr}"
        );
    }
}

#[test]
fn every_format_names_the_network() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cfg = dir.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: c\nspec:\n  networks:\n  - name: prov\n    cidr: 172.22.0.0/24\n",
    )
    .expect("write");
    let pkg = dir.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    let mut docs = Vec::new();
    for (ns, range, host) in [("c1", "10", "a-0"), ("c2", "10", "b-0"), ("c3", "", "d-0")] {
        let r = if range.is_empty() {
            common::range("10.9.0.10", "10.9.0.19")
        } else {
            common::range("172.22.0.10", "172.22.0.19")
        };
        docs.push(common::pool("prov", ns).range(r).prefix(24).yaml());
        docs.push(common::host(host, ns).yaml());
    }
    std::fs::write(pkg.join("all.yaml"), common::stream(&docs)).expect("write");
    let run = |format: &str| {
        let out = Command::new(BIN)
            .args(["plan", "--format", format, "--config"])
            .arg(&cfg)
            .arg(&pkg)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        out
    };
    let rows = csv_rows(&run("csv"));
    let want = |ns: &str, host: &str, address: &str, network: &str| -> Row {
        [ns, host, "prov", address, "new", network, ""].map(str::to_string)
    };
    assert_eq!(
        rows,
        [
            want("c1", "a-0", "172.22.0.10", "prov"),
            want("c2", "b-0", "172.22.0.11", "prov"),
            want("c3", "d-0", "10.9.0.10", ""),
        ]
    );
    let json: Vec<Value> = serde_json::from_slice(&run("json").stdout).expect("JSON");
    assert_eq!(json[1]["network"], "prov");
    assert!(json[2]["network"].is_null(), "{json:?}");
    let table = text(&run("table").stdout);
    let cells: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(cells[0][5], "NETWORK");
    assert_eq!(
        cells[2],
        ["c2", "b-0", "prov", "172.22.0.11", "new", "prov", "-"]
    );
    assert_eq!(cells[3][5], "-");
    let hosts = text(&run("hosts").stdout);
    assert!(
        hosts.contains("172.22.0.11\tb-0-prov\t# c2/prov new network prov\n"),
        "{hosts}"
    );
    assert!(
        hosts.contains("10.9.0.10\td-0-prov\t# c3/prov new\n"),
        "{hosts}"
    );
}

/// Resolves every name with `getent -s files ahosts` against `hosts` as the system's
/// `/etc/hosts` (bind-mounted over it in a private mount namespace, so the machine's file is
/// untouched): each name's distinct addresses, in the order the resolver gives them. `ahosts`
/// (getaddrinfo, both families) rather than `hosts`, which shows one family and hides a second
/// address of the other.
fn resolve(hosts: &str, names: &[String]) -> BTreeMap<String, Vec<String>> {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("hosts");
    std::fs::write(&file, hosts).expect("write");
    for tool in ["unshare", "getent", "mount"] {
        assert!(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .any(|d| d.join(tool).is_file()),
            "`{tool}` is not on PATH (util-linux, libc-bin): this test never skips"
        );
    }
    let script = r#"mount --bind "$0" /etc/hosts || exit 90
for name in "$@"; do
  echo "== $name"
  getent -s files ahosts "$name"
done"#;
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", script])
        .arg(&file)
        .args(names)
        .output()
        .expect("run unshare");
    assert!(
        out.status.success() || out.status.code() == Some(2),
        "unshare/mount failed (the test needs root, as in CI): {}\n{}",
        out.status,
        text(&out.stderr)
    );
    let mut resolved: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in text(&out.stdout).lines() {
        if let Some(name) = line.strip_prefix("== ") {
            resolved.insert(name.to_string(), Vec::new());
            current = Some(name.to_string());
        } else if let (Some(name), Some(addr)) = (&current, line.split_whitespace().next()) {
            let addrs = resolved.get_mut(name).expect("a name");
            if !addrs.iter().any(|a| a == addr) {
                addrs.push(addr.to_string());
            }
        }
    }
    resolved
}

/// Hosts in two namespaces, each with an address in an IPv4 and an IPv6 pool.
fn dual_stack_package(dir: &Path) -> PathBuf {
    let pkg = dir.join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    let mut docs = Vec::new();
    for (ns, hosts) in [("c1", ["node-1", "node-2"]), ("c2", ["edge-1", "edge-10"])] {
        docs.push(
            common::pool("bmv4", ns)
                .range(common::range("10.1.0.10", "10.1.0.19"))
                .prefix(24)
                .yaml(),
        );
        docs.push(
            common::pool("bmv6", ns)
                .range(common::range("fd00::10", "fd00::1f"))
                .prefix(64)
                .yaml(),
        );
        for h in hosts {
            docs.push(common::host(h, ns).yaml());
        }
    }
    std::fs::write(pkg.join("all.yaml"), common::stream(&docs)).expect("write");
    pkg
}

/// The `hosts` output of `plan` as a file would hold it, and the CSV rows of the same run.
fn hosts_and_rows(pkg: &Path, extra: &[&str]) -> (String, Vec<Row>) {
    let mut args = vec!["plan", "--format", "hosts"];
    args.extend(extra);
    let hosts = ipreuse(&args, pkg);
    assert_eq!(hosts.status.code(), Some(0), "{}", text(&hosts.stderr));
    let mut args = vec!["plan", "--format", "csv"];
    args.extend(extra);
    (text(&hosts.stdout), csv_rows(&ipreuse(&args, pkg)))
}

/// The names of a hosts file, in order.
fn names(hosts: &str) -> Vec<String> {
    hosts
        .lines()
        .map(|l| l.split('\t').nth(1).expect("a name").to_string())
        .collect()
}

#[test]
fn hosts_format_names_each_address_so_that_it_resolves_alone() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = dual_stack_package(tmp.path());
    let (hosts, rows) = hosts_and_rows(&pkg, &[]);
    // The case that matters: every host has an address in two pools.
    assert_eq!(rows.len(), 8, "{rows:?}");
    let names = names(&hosts);
    let resolved = resolve(&hosts, &names);
    assert_eq!(resolved.len(), rows.len(), "one name per row: {hosts}");
    for [ns, host, pool, address, ..] in &rows {
        let name = format!("{host}-{pool}");
        assert_eq!(
            resolved.get(&name),
            Some(&vec![address.clone()]),
            "{ns}/{name} resolves to its address alone:\n{hosts}"
        );
    }
    // A bare host name is in the file nowhere, so it resolves to nothing.
    let bare = resolve(&hosts, &["node-1".to_string()]);
    assert_eq!(bare["node-1"], Vec::<String>::new(), "{hosts}");
}

#[test]
fn hosts_format_with_a_pool_uses_bare_host_names() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = dual_stack_package(tmp.path());
    for pool in ["bmv4", "bmv6"] {
        let (hosts, rows) = hosts_and_rows(&pkg, &["--pool", pool]);
        assert_eq!(rows.len(), 4, "{pool}: {rows:?}");
        assert!(rows.iter().all(|r| r[2] == pool), "{pool}: {rows:?}");
        let names = names(&hosts);
        assert_eq!(
            names,
            ["node-1", "node-2", "edge-1", "edge-10"].map(str::to_string),
            "{pool}: {hosts}"
        );
        let resolved = resolve(&hosts, &names);
        for [_, host, _, address, ..] in &rows {
            assert_eq!(resolved[host], vec![address.clone()], "{pool}: {hosts}");
        }
    }
    // The table and JSON are filtered the same way.
    let table = ipreuse(&["plan", "--pool", "bmv6"], &pkg);
    assert_eq!(
        text(&table.stdout).lines().count(),
        5,
        "{}",
        text(&table.stdout)
    );
}

#[test]
fn plan_refuses_a_pool_no_row_has() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = dual_stack_package(tmp.path());
    let out = ipreuse(&["plan", "--format", "hosts", "--pool", "bmv5"], &pkg);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--pool bmv5") && stderr.contains("bmv4, bmv6"),
        "{stderr}"
    );
}

#[test]
fn hosts_format_refuses_a_name_that_would_stand_for_two_addresses() {
    // The same host and pool names in two namespaces: both addresses would be `node-1` with
    // `--pool`, and `node-1-bmv4` without. (`a-b` in pool `c` and `a` in pool `b-c` of one
    // namespace, the other way to one name, is an error of the function itself: CAPM3 would
    // make one IPClaim of the two.)
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    let mut docs = Vec::new();
    for (ns, start, end) in [
        ("c1", "10.1.0.10", "10.1.0.19"),
        ("c2", "10.2.0.10", "10.2.0.19"),
    ] {
        docs.push(
            common::pool("bmv4", ns)
                .range(common::range(start, end))
                .prefix(24)
                .yaml(),
        );
        docs.push(common::host("node-1", ns).yaml());
    }
    std::fs::write(pkg.join("all.yaml"), common::stream(&docs)).expect("write");

    let out = ipreuse(&["plan", "--format", "hosts", "--pool", "bmv4"], &pkg);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the name node-1 would stand for 10.1.0.10 (c1/node-1 in pool bmv4) and 10.2.0.10 (c2/node-1 in pool bmv4)"),
        "{stderr}"
    );
    let out = ipreuse(&["plan", "--format", "hosts"], &pkg);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("the name node-1-bmv4 would stand for 10.1.0.10"),
        "{}",
        text(&out.stderr)
    );
    // The other formats still list every row.
    let rows = csv_rows(&ipreuse(&["plan", "--format", "csv"], &pkg));
    assert_eq!(rows.len(), 2, "{rows:?}");
}

#[test]
fn each_row_of_a_cluster_stamped_from_a_class_names_the_cluster_part_it_comes_from() {
    let pkg = example("clusterclass");
    let rows = csv_rows(&ipreuse(&["plan", "--format", "csv"], &pkg));
    assert_eq!(rows.len(), 18, "{rows:?}");
    let part = |ns: &str, host: &str| -> Vec<&str> {
        let mut parts: Vec<&str> = rows
            .iter()
            .filter(|r| r[0] == ns && r[1] == host)
            .map(|r| r[6].as_str())
            .collect();
        parts.dedup();
        parts
    };
    // the control plane's copy and the MachineDeployment topology's, by the names in the Cluster
    assert_eq!(part("metal3", "node-0"), ["test1/control-plane"]);
    assert_eq!(part("metal3", "node-3"), ["test1/test1-machine"]);
    assert_eq!(part("metal3-cc", "cc-4"), ["test2/test2-machine"]);
    // a host no Cluster part selects has no row
    assert!(part("metal3", "node-5").is_empty());
    let json: Vec<Value> =
        serde_json::from_slice(&ipreuse(&["plan", "--format", "json"], &pkg).stdout).expect("JSON");
    assert_eq!(
        json[0]["clusters"],
        serde_json::json!(["test1/control-plane"])
    );
    let hosts = text(&ipreuse(&["plan", "--format", "hosts"], &pkg).stdout);
    assert!(
        hosts.contains("\t# metal3/test1-provisioning-pool new cluster test1/control-plane\n"),
        "{hosts}"
    );
}
