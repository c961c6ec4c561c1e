//! `examples/new-cluster` through kustomize, which writes nothing back (issue 33, acceptance 3):
//! `kubectl kustomize DIR | ipreuse --config DIR/ipreuse-config.yaml`, as a user's shell runs it
//! (the pipe of `tests/it/kustomize.rs`, with its helpers: `kubectl` must be on `PATH`, these
//! tests fail without it, never skip).
//!
//! Every build hands the blocks out again from the files, so a pool's block is only as stable
//! as the pools that ask before it. The new cluster `south` carries
//! `ipreuse.dev/block-index` pins, added by `south/kustomization.yaml` (the kpt render of the
//! same package, `tests/it/examples.rs`, writes the blocks back and needs none):
//!
//! - the pipe gives south provisioning block 4 (172.22.1.0/26) and routed block 3
//!   (fd00:22:0:3::/64), with its hosts' entries, and exactly the resources of the package as
//!   `kpt fn render` leaves it;
//! - a fifth cluster, `central`, whose namespace sorts before every other, asks for blocks
//!   too: every range and entry of the four others stays as it was, and central takes the next
//!   free blocks (provisioning 6, routed 5), meeting no other pool's;
//! - without the pins, the same fifth cluster asks first and takes south's blocks, and south's
//!   blocks and entries move: why a render that is never written back needs the pins.
//!
//! Every address below is worked out by hand in the comments of `examples/new-cluster`
//! (provisioning block n is 172.22.0.0 + 64n, routed block n is fd00:22:0:n::/64).

use crate::kustomize::{kubectl, kustomize_pipe, sorted_docs};
use crate::support::fs::copy_dir;
use crate::support::image::{repo_root, run, show};

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn example() -> PathBuf {
    repo_root().join("examples/new-cluster")
}

/// The clusters of the example, and the fifth one the tests add.
const CLUSTERS: [&str; 4] = ["east", "west", "north", "south"];
const FIFTH: &str = "central";
const POOLS: [&str; 2] = ["provisioning-pool", "routed-pool"];

/// `kubectl kustomize DIR | ipreuse --config DIR/ipreuse-config.yaml`: its documents, sorted,
/// and its stderr (the results). Fails the test unless the pipe exits 0.
fn pipe(dir: &Path) -> (Vec<Value>, String) {
    let out = kustomize_pipe(dir, &dir.join("ipreuse-config.yaml"));
    assert!(
        out.status.success(),
        "kubectl kustomize {} | ipreuse: {}",
        dir.display(),
        show(&out)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    (
        sorted_docs(&text),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// `kubectl kustomize DIR` alone: the documents ipreuse gets, sorted.
fn input(dir: &Path) -> Vec<Value> {
    let out = run(kubectl().arg("kustomize").arg(dir));
    assert!(out.status.success(), "kubectl kustomize: {}", show(&out));
    sorted_docs(&String::from_utf8(out.stdout).expect("UTF-8"))
}

fn pool<'a>(docs: &'a [Value], ns: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| {
            d["kind"] == "IPPool"
                && d["metadata"]["namespace"] == ns
                && d["metadata"]["name"] == name
        })
        .unwrap_or_else(|| panic!("no IPPool {ns}/{name} in the build"))
}

/// The pool's one `spec.pools` entry as the lowest and highest address it spans.
fn span(pool: &Value) -> (u128, u128) {
    let entries = pool["spec"]["pools"]
        .as_array()
        .unwrap_or_else(|| panic!("no spec.pools: {pool}"));
    assert_eq!(entries.len(), 1, "one entry: {pool}");
    let e = &entries[0];
    let num = |a: &Value| -> u128 {
        match a
            .as_str()
            .unwrap_or_else(|| panic!("not text: {a}"))
            .parse()
        {
            Ok(IpAddr::V4(v4)) => u128::from(u32::from(v4)),
            Ok(IpAddr::V6(v6)) => u128::from(v6),
            Err(e) => panic!("{a}: {e}"),
        }
    };
    if let Some(subnet) = e["subnet"].as_str() {
        let (addr, len) = subnet.split_once('/').expect("a CIDR");
        let addr: std::net::Ipv6Addr = addr.parse().expect("IPv6 subnets here");
        let len: u32 = len.parse().expect("a length");
        let lo = u128::from(addr);
        (lo, lo + ((1u128 << (128 - len)) - 1))
    } else {
        (num(&e["start"]), num(&e["end"]))
    }
}

/// `ns`'s two pools hold provisioning block `v4_block` (172.22.0.0 + 64n, /26) with the
/// segment's prefix, gateway and DNS server, and routed block `v6_block` (fd00:22:0:n::/64)
/// with its first address as gateway; its `hosts` hosts (`ns-0`, ...) have the first addresses
/// of the range, and ::2 on of the subnet, and no other entry is there.
fn assert_blocks(docs: &[Value], ns: &str, hosts: usize, v4_block: u32, v6_block: u32) {
    let base = 0xac16_0000u32 + 64 * v4_block; // 172.22.0.0 + 64n
    let v4 = |n: u32| std::net::Ipv4Addr::from(n).to_string();
    let prov = pool(docs, ns, "provisioning-pool");
    let entries: serde_json::Map<String, Value> = (0..hosts)
        .map(|i| {
            (
                format!("{ns}-{i}-provisioning-pool"),
                json!(v4(base + i as u32)),
            )
        })
        .collect();
    assert_eq!(
        prov["spec"]["pools"],
        json!([{"start": v4(base), "end": v4(base + 63)}]),
        "{ns}: provisioning block {v4_block}"
    );
    assert_eq!(prov["spec"]["prefix"], json!(22), "{prov}");
    assert_eq!(prov["spec"]["gateway"], json!("172.22.0.1"), "{prov}");
    assert_eq!(prov["spec"]["dnsServers"], json!(["172.22.0.2"]), "{prov}");
    assert_eq!(
        prov["spec"]["preAllocations"],
        Value::Object(entries),
        "{ns}: its hosts take the block's first addresses"
    );

    let routed = pool(docs, ns, "routed-pool");
    let net = format!("fd00:22:0:{v6_block:x}::");
    let entries: serde_json::Map<String, Value> = (0..hosts)
        .map(|i| {
            (
                format!("{ns}-{i}-routed-pool"),
                json!(format!("{net}{}", i + 2)),
            )
        })
        .collect();
    assert_eq!(
        routed["spec"]["pools"],
        json!([{"subnet": format!("{net}/64")}]),
        "{ns}: routed block {v6_block}"
    );
    assert_eq!(routed["spec"]["prefix"], json!(64), "{routed}");
    assert_eq!(
        routed["spec"]["gateway"],
        json!(format!("{net}1")),
        "{routed}"
    );
    assert_eq!(routed["spec"]["dnsServers"], json!(["fd00:ff::53"]));
    assert_eq!(
        routed["spec"]["preAllocations"],
        Value::Object(entries),
        "{ns}: its hosts take ::2 on (::1 is the gateway)"
    );
}

/// No two pools of a network meet, and no address is any two hosts' (all namespaces).
fn assert_no_overlap(docs: &[Value], namespaces: &[&str]) {
    for name in POOLS {
        let mut spans: Vec<(u128, u128, &str)> = namespaces
            .iter()
            .map(|ns| {
                let (lo, hi) = span(pool(docs, ns, name));
                (lo, hi, *ns)
            })
            .collect();
        spans.sort();
        for w in spans.windows(2) {
            assert!(
                w[0].1 < w[1].0,
                "{name}: the ranges of {} and {} meet: {spans:x?}",
                w[0].2,
                w[1].2
            );
        }
        let mut seen = std::collections::BTreeMap::new();
        for ns in namespaces {
            let p = pool(docs, ns, name);
            let (lo, hi) = span(p);
            for (key, a) in p["spec"]["preAllocations"]
                .as_object()
                .unwrap_or_else(|| panic!("no entries: {p}"))
            {
                let a: IpAddr = a.as_str().expect("text").parse().expect("an address");
                let n = match a {
                    IpAddr::V4(v) => u128::from(u32::from(v)),
                    IpAddr::V6(v) => u128::from(v),
                };
                assert!(
                    (lo..=hi).contains(&n),
                    "{ns}: {key} = {a} is outside its range"
                );
                if let Some(other) = seen.insert(n, key.clone()) {
                    panic!("{a} is both {other} and {key}");
                }
            }
        }
    }
}

/// A copy of the example in a temp folder, with the fifth cluster `central` (two hosts, both
/// pools asking for blocks, its control-plane endpoint in block 2 beside the others') added
/// to the top kustomization.
fn with_fifth_cluster(tmp: &Path) -> PathBuf {
    let dir = tmp.join("new-cluster");
    copy_dir(&example(), &dir);
    // The fifth cluster sorts first: its pools ask before south's.
    for ns in CLUSTERS {
        assert!(
            FIFTH.as_bytes() < ns.as_bytes(),
            "{FIFTH} sorts before {ns}"
        );
    }
    let c = dir.join(FIFTH);
    std::fs::create_dir(&c).expect("mkdir");
    let write = |file: &str, text: String| std::fs::write(c.join(file), text).expect("write");
    write(
        "kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - \
         cluster.yaml\n  - hosts.yaml\n  - ippools.yaml\n"
            .into(),
    );
    write(
        "cluster.yaml",
        format!(
            "apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: {FIFTH}\n  \
             namespace: {FIFTH}\nspec:\n  controlPlaneEndpoint:\n    host: 172.22.0.133\n    \
             port: 6443\n"
        ),
    );
    write(
        "hosts.yaml",
        (0..2)
            .map(|i| {
                format!(
                    "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata:\n  name: \
                     {FIFTH}-{i}\n  namespace: {FIFTH}\nspec:\n  online: true\n  \
                     bootMACAddress: \"00:00:00:00:05:0{i}\"\n"
                )
            })
            .collect::<Vec<_>>()
            .join("---\n"),
    );
    write(
        "ippools.yaml",
        [
            ("provisioning-pool", "provisioning"),
            ("routed-pool", "routed"),
        ]
        .map(|(name, network)| {
            format!(
                "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: \
                     {name}\n  namespace: {FIFTH}\n  annotations:\n    ipreuse.dev/network: \
                     {network}\nspec:\n  clusterName: {FIFTH}\n  namePrefix: {name}\n"
            )
        })
        .join("---\n"),
    );
    let top = dir.join("kustomization.yaml");
    let text = std::fs::read_to_string(&top).expect("read");
    assert!(text.contains("  - south\n"), "{text}");
    std::fs::write(
        &top,
        text.replace("  - south\n", &format!("  - south\n  - {FIFTH}\n")),
    )
    .expect("write");
    dir
}

/// Takes the `patches:` (the block-index pins) out of south's kustomization.
fn unpin_south(dir: &Path) {
    let path = dir.join("south/kustomization.yaml");
    let text = std::fs::read_to_string(&path).expect("read");
    let (kept, patches) = text
        .split_once("patches:\n")
        .expect("south pins its blocks");
    assert_eq!(patches.matches("ipreuse.dev~1block-index").count(), 2);
    std::fs::write(&path, kept).expect("write");
}

#[test]
fn the_fourth_cluster_gets_its_blocks_and_entries_through_the_kustomize_pipe() {
    let dir = example();
    let (docs, stderr) = pipe(&dir);
    // The pins reached the pools (south/kustomization.yaml's patches), and they take exactly
    // the blocks the lowest free ones would be.
    for (name, index) in [("provisioning-pool", "4"), ("routed-pool", "3")] {
        assert_eq!(
            pool(&docs, "south", name)["metadata"]["annotations"]["ipreuse.dev/block-index"],
            index
        );
    }
    assert_blocks(&docs, "south", 3, 4, 3);
    for says in [
        "IPPool south/provisioning-pool spec.pools: gets block 4 (172.22.1.0/26 of cidr 172.22.0.0/22) of network provisioning",
        "IPPool south/routed-pool spec.pools: gets block 3 (fd00:22:0:3::/64 of cidr fd00:22::/48) of network routed",
    ] {
        assert!(stderr.contains(says), "{says}:\n{stderr}");
    }
    // The other clusters' pools come out as they went in.
    let before = input(&dir);
    for ns in ["east", "west", "north"] {
        for name in POOLS {
            assert_eq!(
                pool(&docs, ns, name),
                pool(&before, ns, name),
                "{ns}/{name}"
            );
        }
    }
    assert_no_overlap(&docs, &CLUSTERS);

    // And it is exactly what kpt fn render writes into the package (tests/it/examples.rs checks
    // that diff against kpt), built by kubectl kustomize: a pool with ranges keeps them, its
    // pin then says nothing.
    let tmp = tempfile::tempdir().expect("temp dir");
    let rendered = tmp.path().join("new-cluster");
    copy_dir(&dir, &rendered);
    let applied = run(Command::new("git")
        .current_dir(&rendered)
        .arg("apply")
        .arg(dir.join(".expected/diff.patch")));
    assert!(applied.status.success(), "git apply: {}", show(&applied));
    assert_eq!(
        input(&rendered),
        docs,
        "the pipe gives the resources of the rendered package"
    );
    let (again, _) = pipe(&rendered);
    assert_eq!(
        again, docs,
        "the pipe over the rendered package changes nothing"
    );
}

#[test]
fn a_fifth_cluster_that_sorts_first_leaves_the_pinned_blocks_and_takes_the_next_free_ones() {
    let (before, _) = pipe(&example());
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = with_fifth_cluster(tmp.path());
    let (after, stderr) = pipe(&dir);
    // Every range, prefix, gateway and entry of the four clusters is as it was.
    for ns in CLUSTERS {
        for name in POOLS {
            assert_eq!(
                pool(&after, ns, name)["spec"],
                pool(&before, ns, name)["spec"],
                "{ns}/{name} moved when {FIFTH} was added"
            );
        }
    }
    assert_blocks(&after, "south", 3, 4, 3);
    // Provisioning: 4 is south's (pinned), 5 north's: block 6, 172.22.1.128/26. Routed: 3 is
    // south's, 4 north's: block 5, fd00:22:0:5::/64.
    assert_blocks(&after, FIFTH, 2, 6, 5);
    assert!(
        stderr
            .contains("IPPool central/provisioning-pool spec.pools: gets block 6 (172.22.1.128/26"),
        "{stderr}"
    );
    let mut all = CLUSTERS.to_vec();
    all.push(FIFTH);
    assert_no_overlap(&after, &all);
}

#[test]
fn without_the_pins_the_fifth_cluster_takes_the_new_clusters_blocks_and_they_move() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // Unpinned and alone, south gets the same blocks: the pins name the lowest free ones.
    let alone = tmp.path().join("alone");
    copy_dir(&example(), &alone);
    unpin_south(&alone);
    let (docs, _) = pipe(&alone);
    assert_eq!(
        pool(&docs, "south", "provisioning-pool")["metadata"]["annotations"]
            .get("ipreuse.dev/block-index"),
        None
    );
    assert_blocks(&docs, "south", 3, 4, 3);

    // With the fifth cluster, which sorts first and asks first: it takes south's holes, and
    // south's blocks move to the next free ones (provisioning 6, routed 5), its hosts' entries
    // with them. A build that is never written back would renumber south's running hosts.
    let dir = with_fifth_cluster(&tmp.path().join("fifth"));
    unpin_south(&dir);
    let (after, _) = pipe(&dir);
    assert_blocks(&after, FIFTH, 2, 4, 3);
    assert_blocks(&after, "south", 3, 6, 5);
    assert_ne!(
        pool(&after, "south", "provisioning-pool")["spec"],
        pool(&docs, "south", "provisioning-pool")["spec"],
        "south's block moved"
    );
    // The three older clusters keep theirs: they have ranges.
    for ns in ["east", "west", "north"] {
        for name in POOLS {
            assert_eq!(pool(&after, ns, name), pool(&docs, ns, name), "{ns}/{name}");
        }
    }
    let mut all = CLUSTERS.to_vec();
    all.push(FIFTH);
    assert_no_overlap(&after, &all);
}
