//! Blocks for new clusters through the binary, on a package in a temp folder: a network with
//! `blockSize` gives the new cluster's pool the lowest free block (or its `block-index`), the
//! pool's hosts get their entries inside it in the same run, and a second run changes nothing;
//! the refusals are errors naming the network, the pool and the field, exit 1, nothing written.
//! Also through `kpt fn render`, the binary under test first on `PATH`.

use crate::common;
use crate::support::path as path_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{host, pool, range, stream};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `doc` with the annotations under its metadata.
fn annotate(doc: String, annotations: &[(&str, &str)]) -> String {
    let lines: String = annotations
        .iter()
        .map(|(k, v)| format!("    {k}: \"{v}\"\n"))
        .collect();
    doc.replacen(
        "metadata:\n",
        &format!("metadata:\n  annotations:\n{lines}"),
        1,
    )
}

/// A package folder `pkg` beside a config `cfg.yaml` whose `spec.networks` is `networks` (YAML
/// flow text), with `files` (name → documents).
fn package(tmp: &Path, networks: &str, files: &[(&str, Vec<String>)]) -> (PathBuf, PathBuf) {
    let cfg = tmp.join("cfg.yaml");
    std::fs::write(
        &cfg,
        format!(
            "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: c\nspec:\n  controllerFlag: false\n  networks: {networks}\n"
        ),
    )
    .expect("write cfg");
    let pkg = tmp.join("pkg");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    for (name, docs) in files {
        std::fs::write(pkg.join(name), stream(docs)).expect("write file");
    }
    (cfg, pkg)
}

fn in_place(cfg: &Path, pkg: &Path, mode: &str) -> Output {
    Command::new(BIN)
        .arg("--config")
        .arg(cfg)
        .args(["--in-place", "--mode", mode])
        .arg(pkg)
        .output()
        .expect("run ipreuse")
}

/// Every document of every file of `pkg`, as JSON, in file order.
fn docs(pkg: &Path) -> Vec<Value> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(pkg)
        .expect("read pkg")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    names
        .iter()
        .flat_map(|p| common::json_docs(&std::fs::read_to_string(p).expect("read")))
        .collect()
}

fn snapshot(pkg: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(pkg)
        .expect("read pkg")
        .map(|e| {
            let p = e.expect("entry").path();
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

fn pool_doc<'a>(docs: &'a [Value], ns: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| {
            d["kind"] == "IPPool"
                && d["metadata"]["namespace"] == ns
                && d["metadata"]["name"] == name
        })
        .unwrap_or_else(|| panic!("no IPPool {ns}/{name}"))
}

fn v4(s: &str) -> u32 {
    u32::from(s.parse::<std::net::Ipv4Addr>().expect("IPv4"))
}

/// Two existing clusters with ranges in blocks 1 and 2 of 172.22.0.0/24 (/27 blocks; block 0
/// holds the gateway), and a new cluster `c3` whose pool has no ranges, with three hosts.
fn three_clusters(new_pool_annotations: &[(&str, &str)]) -> Vec<(&'static str, Vec<String>)> {
    let existing = |ns: &str, lo: &str, hi: &str| {
        annotate(
            pool("prov", ns).range(range(lo, hi)).prefix(24).yaml(),
            &[("ipreuse.dev/network", "prov")],
        )
    };
    let mut new = vec![("ipreuse.dev/network", "prov")];
    new.extend_from_slice(new_pool_annotations);
    vec![
        (
            "c1.yaml",
            vec![
                existing("c1", "172.22.0.32", "172.22.0.63"),
                host("a-0", "c1").yaml(),
            ],
        ),
        (
            "c2.yaml",
            vec![
                existing("c2", "172.22.0.64", "172.22.0.95"),
                host("b-0", "c2").yaml(),
            ],
        ),
        (
            "c3.yaml",
            vec![
                annotate(pool("prov", "c3").yaml(), &new),
                host("n-0", "c3").yaml(),
                host("n-1", "c3").yaml(),
                host("n-2", "c3").yaml(),
            ],
        ),
    ]
}

const RANGE_NET: &str = "[{name: prov, cidr: 172.22.0.0/24, blockSize: 27, gateway: 172.22.0.1}]";

/// The new pool's entries: each host's, every address inside `[lo, hi]`, all different.
fn assert_hosts_inside(pool: &Value, hosts: &[&str], lo: u32, hi: u32) {
    let entries = pool["spec"]["preAllocations"]
        .as_object()
        .unwrap_or_else(|| panic!("no preAllocations: {pool}"));
    let mut seen = std::collections::BTreeSet::new();
    for h in hosts {
        let key = format!("{h}-prov");
        let a = entries[&key].as_str().unwrap_or_else(|| panic!("no {key}"));
        let n = v4(a);
        assert!((lo..=hi).contains(&n), "{key}: {a} is outside the block");
        assert!(seen.insert(n), "{a} given twice");
    }
    assert_eq!(entries.len(), hosts.len());
}

#[test]
fn a_new_clusters_pool_gets_the_lowest_free_block_and_its_hosts_entries_in_one_run() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = package(tmp.path(), RANGE_NET, &three_clusters(&[]));
    let out = in_place(&cfg, &pkg, "check");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("IPPool c3/prov asks for a block of network prov and has none")
            && stderr.contains("block 3 (172.22.0.96/27"),
        "{stderr}"
    );

    let out = in_place(&cfg, &pkg, "fill");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let docs = docs(&pkg);
    let new = pool_doc(&docs, "c3", "prov");
    // Block 0 holds the gateway and the network address, blocks 1 and 2 the other clusters.
    assert_eq!(new["spec"]["pools"][0]["start"], "172.22.0.96");
    assert_eq!(new["spec"]["pools"][0]["end"], "172.22.0.127");
    assert_eq!(new["spec"]["prefix"], 24);
    assert_eq!(new["spec"]["gateway"], "172.22.0.1");
    assert_hosts_inside(
        new,
        &["n-0", "n-1", "n-2"],
        v4("172.22.0.96"),
        v4("172.22.0.127"),
    );
    // The existing clusters keep their ranges.
    assert_eq!(
        pool_doc(&docs, "c1", "prov")["spec"]["pools"][0]["start"],
        "172.22.0.32"
    );

    let before = snapshot(&pkg);
    let again = in_place(&cfg, &pkg, "fill");
    assert_eq!(again.status.code(), Some(0), "{}", show(&again));
    assert_eq!(snapshot(&pkg), before, "a second run changes nothing");
    let check = in_place(&cfg, &pkg, "check");
    assert_eq!(check.status.code(), Some(0), "{}", show(&check));
}

#[test]
fn a_block_index_takes_exactly_that_block() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = package(
        tmp.path(),
        RANGE_NET,
        &three_clusters(&[("ipreuse.dev/block-index", "5")]),
    );
    let out = in_place(&cfg, &pkg, "fill");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let docs = docs(&pkg);
    let new = pool_doc(&docs, "c3", "prov");
    assert_eq!(new["spec"]["pools"][0]["start"], "172.22.0.160");
    assert_eq!(new["spec"]["pools"][0]["end"], "172.22.0.191");
    assert_hosts_inside(
        new,
        &["n-0", "n-1", "n-2"],
        v4("172.22.0.160"),
        v4("172.22.0.191"),
    );
}

#[test]
fn ipv6_subnet_blocks_give_each_new_pool_its_subnet_and_gateway() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let net = "[{name: v6, cidr: \"fd00:22::/48\", blockSize: 64, blockKind: subnet, dnsServers: [\"fd00::53\"]}]";
    let existing = annotate(
        pool("prov", "c1")
            .range(crate::fixtures::subnet("fd00:22::/64"))
            .prefix(64)
            .yaml(),
        &[("ipreuse.dev/network", "v6")],
    );
    let new = |ns: &str| annotate(pool("prov", ns).yaml(), &[("ipreuse.dev/network", "v6")]);
    let files = [
        ("c1.yaml", vec![existing, host("a-0", "c1").yaml()]),
        (
            "c3.yaml",
            vec![
                new("c3"),
                host("n-0", "c3").yaml(),
                host("n-1", "c3").yaml(),
            ],
        ),
        ("c4.yaml", vec![new("c4"), host("m-0", "c4").yaml()]),
    ];
    let (cfg, pkg) = package(tmp.path(), net, &files);
    let out = in_place(&cfg, &pkg, "fill");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let docs = docs(&pkg);
    let c3 = pool_doc(&docs, "c3", "prov");
    assert_eq!(c3["spec"]["pools"][0]["subnet"], "fd00:22:0:1::/64");
    assert_eq!(c3["spec"]["prefix"], 64);
    assert_eq!(c3["spec"]["gateway"], "fd00:22:0:1::1");
    assert_eq!(c3["spec"]["dnsServers"][0], "fd00::53");
    let c4 = pool_doc(&docs, "c4", "prov");
    assert_eq!(c4["spec"]["pools"][0]["subnet"], "fd00:22:0:2::/64");
    // The hosts' entries are inside the subnets, off the network address and the gateway.
    for (doc, key, net) in [
        (c3, "n-0-prov", "fd00:22:0:1::"),
        (c3, "n-1-prov", "fd00:22:0:1::"),
        (c4, "m-0-prov", "fd00:22:0:2::"),
    ] {
        let a: std::net::Ipv6Addr = doc["spec"]["preAllocations"][key]
            .as_str()
            .unwrap_or_else(|| panic!("no {key}: {doc}"))
            .parse()
            .expect("IPv6");
        let base: std::net::Ipv6Addr = net.parse().expect("IPv6");
        let (a, base) = (u128::from(a), u128::from(base));
        assert!(a > base + 1 && a < base + (1u128 << 64) - 1, "{key}: {a:x}");
    }
    let before = snapshot(&pkg);
    let again = in_place(&cfg, &pkg, "fill");
    assert_eq!(again.status.code(), Some(0), "{}", show(&again));
    assert_eq!(snapshot(&pkg), before, "a second run changes nothing");
}

/// Runs fill on `files` and expects exit 1, nothing written, and each of `needles` in stderr.
fn assert_refused(networks: &str, files: &[(&str, Vec<String>)], needles: &[&str]) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (cfg, pkg) = package(tmp.path(), networks, files);
    let before = snapshot(&pkg);
    let out = in_place(&cfg, &pkg, "fill");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(snapshot(&pkg), before, "nothing is written");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for n in needles {
        assert!(stderr.contains(n), "{n:?} not in:\n{stderr}");
    }
}

#[test]
fn no_free_block_is_an_error_naming_the_network_the_free_blocks_and_the_pools_left() {
    // A /25 of /27 blocks: block 0 holds the gateway, blocks 1 and 2 the clusters, block 3
    // the broadcast address of the /25 segment.
    assert_refused(
        "[{name: prov, cidr: 172.22.0.0/25, blockSize: 27, gateway: 172.22.0.1}]",
        &three_clusters(&[]),
        &[
            "IPPool c3/prov spec.pools: no free /27 block of network prov (cidr 172.22.0.0/25) is left for this pool",
            "Of the 0 free blocks, 1 pool asked",
            "left without one: IPPool c3/prov",
        ],
    );
}

#[test]
fn a_block_index_outside_or_taken_is_an_error_naming_what_holds_it() {
    assert_refused(
        RANGE_NET,
        &three_clusters(&[("ipreuse.dev/block-index", "8")]),
        &[
            "metadata.annotations.[ipreuse.dev/block-index]",
            "IPPool c3/prov metadata.annotations.[ipreuse.dev/block-index]: this pool asks for block 8 of network prov, but cidr 172.22.0.0/24 holds 8 blocks of /27 (0 to 7)",
        ],
    );
    assert_refused(
        RANGE_NET,
        &three_clusters(&[("ipreuse.dev/block-index", "2")]),
        &[
            "this pool asks for block 2 of network prov (172.22.0.64/27), which is not free. Its address 172.22.0.64 is taken by the ranges of IPPool c2/prov",
        ],
    );
}

#[test]
fn a_block_size_out_of_range_is_an_error_naming_the_annotation() {
    assert_refused(
        RANGE_NET,
        &three_clusters(&[("ipreuse.dev/block-size", "31")]),
        &[
            "metadata.annotations.[ipreuse.dev/block-size]",
            "IPPool c3/prov metadata.annotations.[ipreuse.dev/block-size]: this pool cannot take a block of network prov (cidr 172.22.0.0/24)",
            "use a blockSize from 24 to 30",
        ],
    );
}

#[test]
fn a_pool_with_ranges_keeps_them_whatever_its_annotations_say() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut files = three_clusters(&[]);
    // c1's pool asks for block 6 by annotation, but its ranges are its own.
    files[0].1[0] = files[0].1[0].replacen(
        "    ipreuse.dev/network: \"prov\"\n",
        "    ipreuse.dev/network: \"prov\"\n    ipreuse.dev/block-index: \"6\"\n",
        1,
    );
    let (cfg, pkg) = package(tmp.path(), RANGE_NET, &files);
    let out = in_place(&cfg, &pkg, "fill");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let docs = docs(&pkg);
    let c1 = pool_doc(&docs, "c1", "prov");
    assert_eq!(c1["spec"]["pools"].as_array().map(Vec::len), Some(1));
    assert_eq!(c1["spec"]["pools"][0]["start"], "172.22.0.32");
    // And the new pool still gets block 3, not c1's block 6.
    assert_eq!(
        pool_doc(&docs, "c3", "prov")["spec"]["pools"][0]["start"],
        "172.22.0.96"
    );
}

// ---- kpt fn render ------------------------------------------------------------------------------

#[test]
fn kpt_fn_render_hands_out_the_block_and_fills_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (_, pkg) = package(tmp.path(), RANGE_NET, &three_clusters(&[]));
    std::fs::write(
        pkg.join("Kptfile"),
        format!(
            "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n\
             pipeline:\n  mutators:\n    - exec: ipreuse\n      configMap:\n        controllerFlag: \"false\"\n        networks: '{RANGE_NET}'\n"
        ),
    )
    .expect("write Kptfile");
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    let render = || {
        Command::new(&kpt)
            .current_dir(tmp.path())
            .env("PATH", path_support::path_with_bin())
            .args(["fn", "render"])
            .arg(&pkg)
            .arg("--allow-exec")
            .output()
            .expect("running kpt (these tests need the real kpt on PATH, or KPT=)")
    };
    let out = render();
    assert!(out.status.success(), "{}", show(&out));
    let docs: Vec<Value> = docs(&pkg)
        .into_iter()
        .filter(|d| d["kind"] != "Kptfile")
        .collect();
    let new = pool_doc(&docs, "c3", "prov");
    assert_eq!(new["spec"]["pools"][0]["start"], "172.22.0.96");
    assert_hosts_inside(
        new,
        &["n-0", "n-1", "n-2"],
        v4("172.22.0.96"),
        v4("172.22.0.127"),
    );
    let before = snapshot(&pkg);
    let again = render();
    assert!(again.status.success(), "{}", show(&again));
    assert_eq!(snapshot(&pkg), before, "a second render changes nothing");
}
