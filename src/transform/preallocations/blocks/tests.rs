//! The block hand-out on small packages: each kind of thing a block must not meet moves the
//! block past it, and the edits and new specs are what the network's settings say.

use super::{Handout, hand_out};
use crate::config::Config;
use crate::fixtures::{self, cluster, host, range};
use crate::ipam::EntrySpec;
use crate::model::{Model, PoolId};
use crate::results::Finding;
use crate::yaml::{self, Edit};
use serde_json::{Value, json};

fn config(networks: Value, extra: Value) -> Config {
    let mut spec = json!({"controllerFlag": false, "networks": networks});
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
        s.extend(e.clone());
    }
    let cfg = json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse",
        "metadata": {"name": "cfg"}, "spec": spec});
    crate::config::resolve(Some(&cfg)).expect("test config is valid")
}

/// `doc` with `annotations` under its metadata.
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

/// A pool with no `spec.pools` on network `net`, with more annotations.
fn asking(name: &str, ns: &str, net: &str, more: &[(&str, &str)]) -> String {
    let mut a = vec![("ipreuse.dev/network", net)];
    a.extend_from_slice(more);
    annotate(fixtures::pool(name, ns).yaml(), &a)
}

struct Run {
    model: Model,
    out: Handout,
    findings: Vec<Finding>,
}

fn run(docs: &[String], cfg: &Config) -> Run {
    let text = docs.iter().map(|d| format!("---\n{d}")).collect::<String>();
    let parsed = yaml::parse(&text).expect("test YAML parses");
    let nodes: Vec<&yaml::Node> = parsed.iter().map(|d| &d.root).collect();
    let mut findings = Vec::new();
    let model = Model::of_nodes(&nodes, &mut findings);
    assert!(
        findings.iter().all(|f| !f.is_error()),
        "the test input itself is wrong: {findings:?}"
    );
    let mut findings = Vec::new();
    let out = hand_out(&model.index, cfg, false, true, &mut findings);
    Run {
        model,
        out,
        findings,
    }
}

impl Run {
    fn id(&self, ns: &str, name: &str) -> PoolId {
        PoolId::all(self.model.index.pools.len())
            .find(|p| {
                let o = &self.model.index.pools[*p].object;
                o.namespace == ns && o.name == name
            })
            .expect("pool in the input")
    }

    /// The entries of the new spec of `ns/name`.
    fn entries(&self, ns: &str, name: &str) -> Option<Vec<EntrySpec>> {
        self.out
            .overlay
            .get(&self.id(ns, name))
            .map(|s| s.entries.clone())
    }

    fn errors(&self) -> Vec<String> {
        self.findings
            .iter()
            .filter(|f| f.is_error())
            .map(|f| {
                let on = f
                    .resource_ref
                    .as_ref()
                    .map(|r| format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name))
                    .unwrap_or_default();
                let field = f.field.as_ref().map_or("", |x| x.path.as_str());
                format!("{on}: {} @ {field}", f.message)
            })
            .collect()
    }
}

fn subnet(s: &str) -> EntrySpec {
    EntrySpec {
        subnet: Some(s.into()),
        ..EntrySpec::default()
    }
}

fn start_end(a: &str, b: &str) -> EntrySpec {
    EntrySpec {
        start: Some(a.into()),
        end: Some(b.into()),
        ..EntrySpec::default()
    }
}

/// 10.0.0.0/24 in /28 subnet blocks: nothing of the config itself takes a block.
fn subnet_net() -> Value {
    json!([{"name": "prov", "cidr": "10.0.0.0/24", "blockSize": 28, "blockKind": "subnet"}])
}

/// The block `c9/new` gets on `subnet_net` beside `docs`.
fn block_beside(docs: Vec<String>, extra: Value) -> Option<Vec<EntrySpec>> {
    let mut docs = docs;
    docs.push(asking("new", "c9", "prov", &[]));
    docs.push(host("h-0", "c9").yaml());
    let r = run(&docs, &config(subnet_net(), extra));
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    r.entries("c9", "new")
}

// ---- the taken set: each kind of thing moves the block past it ---------------------------------

#[test]
fn alone_the_pool_gets_block_0() {
    assert_eq!(
        block_beside(Vec::new(), json!({})),
        Some(vec![subnet("10.0.0.0/28")])
    );
}

#[test]
fn another_pools_range_is_taken_by_intervals() {
    // c1's range meets blocks 0 and 1 (.5-.20): block 2 is the lowest free.
    let other = annotate(
        fixtures::pool("p", "c1")
            .range(range("10.0.0.5", "10.0.0.20"))
            .prefix(24)
            .yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    assert_eq!(
        block_beside(vec![other], json!({})),
        Some(vec![subnet("10.0.0.32/28")])
    );
}

#[test]
fn a_pool_inside_the_cidr_counts_without_the_annotation() {
    let other = fixtures::pool("p", "c1")
        .range(range("10.0.0.1", "10.0.0.3"))
        .prefix(24)
        .yaml();
    assert_eq!(
        block_beside(vec![other], json!({})),
        Some(vec![subnet("10.0.0.16/28")])
    );
}

/// A pool of the network whose range lies outside the cidr: only what it holds is taken.
fn outside_pool() -> fixtures::Pool {
    fixtures::pool("p", "c1")
        .range(range("10.1.0.10", "10.1.0.20"))
        .prefix(16)
}

#[test]
fn an_entry_of_another_pool_of_the_network_is_taken() {
    let other = annotate(
        outside_pool().entry("x-p", "10.0.0.7").yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    assert_eq!(
        block_beside(vec![other], json!({})),
        Some(vec![subnet("10.0.0.16/28")])
    );
}

#[test]
fn a_live_address_of_another_pool_of_the_network_is_taken() {
    let other = annotate(
        outside_pool().live("x-p", "10.0.0.18").yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    // .18 is in block 1: block 0 stays free.
    assert_eq!(
        block_beside(vec![other.clone()], json!({})),
        Some(vec![subnet("10.0.0.0/28")])
    );
    let other = other.replace("10.0.0.18", "10.0.0.2");
    assert_eq!(
        block_beside(vec![other], json!({})),
        Some(vec![subnet("10.0.0.16/28")])
    );
}

#[test]
fn a_host_pin_for_another_pool_of_the_network_is_taken() {
    let other = annotate(outside_pool().yaml(), &[("ipreuse.dev/network", "prov")]);
    let pinned = host("x", "c1").pin("p", "10.0.0.9").yaml();
    assert_eq!(
        block_beside(vec![other.clone(), pinned], json!({})),
        Some(vec![subnet("10.0.0.16/28")])
    );
    // A pin for a pool of another namespace's name does not count.
    let elsewhere = host("x", "c2").pin("p", "10.0.0.9").yaml();
    assert_eq!(
        block_beside(vec![other, elsewhere], json!({})),
        Some(vec![subnet("10.0.0.0/28")])
    );
}

#[test]
fn the_config_reserve_is_taken() {
    assert_eq!(
        block_beside(Vec::new(), json!({"reserve": ["10.0.0.3-10.0.0.17"]})),
        Some(vec![subnet("10.0.0.32/28")])
    );
}

#[test]
fn control_plane_endpoints_of_namespaces_on_the_network_are_taken() {
    // The new pool's own namespace, and a namespace with a pool on the network.
    let own = cluster("c9", "c9", "10.0.0.4");
    assert_eq!(
        block_beside(vec![own], json!({})),
        Some(vec![subnet("10.0.0.16/28")])
    );
    let other = annotate(outside_pool().yaml(), &[("ipreuse.dev/network", "prov")]);
    let theirs = cluster("c1", "c1", "10.0.0.20");
    assert_eq!(
        block_beside(vec![other, theirs], json!({})),
        Some(vec![subnet("10.0.0.0/28")])
    );
    // A namespace with no pool on the network does not take its endpoint's block.
    let unrelated = cluster("z", "z", "10.0.0.4");
    assert_eq!(
        block_beside(vec![unrelated], json!({})),
        Some(vec![subnet("10.0.0.0/28")])
    );
}

#[test]
fn the_networks_exclude_is_taken() {
    let net = json!([{"name": "prov", "cidr": "10.0.0.0/24", "blockSize": 28,
        "blockKind": "subnet", "exclude": ["10.0.0.0/27", "10.0.0.40"]}]);
    let docs = vec![asking("new", "c9", "prov", &[])];
    let r = run(&docs, &config(net, json!({})));
    assert_eq!(r.entries("c9", "new"), Some(vec![subnet("10.0.0.48/28")]));
}

#[test]
fn range_blocks_skip_the_gateway_dns_servers_and_the_segments_edges() {
    // 10.0.0.0/24 as segment /24: .0 (network) is in block 0, .255 (broadcast) in block 15;
    // gateway .17 in block 1, DNS .34 in block 2: block 3 is the lowest free, and block 15
    // is never given.
    let net = json!([{"name": "prov", "cidr": "10.0.0.0/24", "blockSize": 28,
        "gateway": "10.0.0.17", "dnsServers": ["10.0.0.34"]}]);
    let mut docs: Vec<String> = (0..13)
        .map(|i| asking(&format!("p{i:02}"), "c9", "prov", &[]))
        .collect();
    docs.push(asking(
        "x",
        "c9",
        "prov",
        &[("ipreuse.dev/block-index", "15")],
    ));
    let r = run(&docs, &config(net, json!({})));
    assert_eq!(
        r.entries("c9", "p00"),
        Some(vec![start_end("10.0.0.48", "10.0.0.63")])
    );
    assert_eq!(
        r.entries("c9", "p11"),
        Some(vec![start_end("10.0.0.224", "10.0.0.239")])
    );
    // 12 pools fill blocks 3-14; the 13th finds none, and the pin of block 15 meets the
    // broadcast address.
    assert_eq!(r.entries("c9", "p12"), None);
    assert_eq!(r.entries("c9", "x"), None);
    let errors = r.errors();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("no free /28 block of network prov")
                && e.contains("IPPool c9/p12")
                && e.ends_with("@ spec.pools")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("asks for block 15")
            && e.contains(
                "Its address 10.0.0.255 is taken by the broadcast address of segment 10.0.0.0/24"
            )),
        "{errors:?}"
    );
    assert!(r.out.refused.contains(&r.id("c9", "p12")));
}

#[test]
fn ipv6_range_blocks_skip_the_segments_network_address_and_have_no_broadcast() {
    // fd00::/120 as segment /64: fd00:: is its network address (block 0); IPv6 has no
    // broadcast address, so the last block (15) is given like any other.
    let net = json!([{"name": "v6", "cidr": "fd00::/120", "blockSize": 124, "prefix": 64}]);
    let docs = vec![
        asking("a", "c9", "v6", &[]),
        asking("z", "c9", "v6", &[("ipreuse.dev/block-index", "15")]),
    ];
    let r = run(&docs, &config(net, json!({})));
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(
        r.entries("c9", "a"),
        Some(vec![start_end("fd00::10", "fd00::1f")])
    );
    assert_eq!(
        r.entries("c9", "z"),
        Some(vec![start_end("fd00::f0", "fd00::ff")])
    );
}

// ---- pins, locks and order ---------------------------------------------------------------------

#[test]
fn pins_go_first_then_the_lowest_in_byte_order() {
    let docs = vec![
        asking("a", "c1", "prov", &[]),
        asking("b", "c1", "prov", &[("ipreuse.dev/block-index", "0")]),
        asking("B", "c1", "prov", &[]),
    ];
    let r = run(&docs, &config(subnet_net(), json!({})));
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.entries("c1", "b"), Some(vec![subnet("10.0.0.0/28")]));
    // "B" sorts before "a" by bytes.
    assert_eq!(r.entries("c1", "B"), Some(vec![subnet("10.0.0.16/28")]));
    assert_eq!(r.entries("c1", "a"), Some(vec![subnet("10.0.0.32/28")]));
}

#[test]
fn a_pool_with_ranges_never_gets_a_block() {
    let locked = annotate(
        fixtures::pool("p", "c1")
            .range(range("10.0.0.100", "10.0.0.110"))
            .yaml(),
        &[
            ("ipreuse.dev/network", "prov"),
            ("ipreuse.dev/block-index", "0"),
        ],
    );
    let r = run(&[locked], &config(subnet_net(), json!({})));
    assert!(r.out.overlay.is_empty() && r.out.edits.is_empty());
    // Only the warning that the pin is not what the pool has.
    assert!(r.errors().is_empty(), "{:?}", r.findings);
    assert!(
        r.findings.len() == 1
            && r.findings[0]
                .message
                .contains("Its ranges are no single /28 block of cidr 10.0.0.0/24"),
        "{:?}",
        r.findings
    );
}

#[test]
fn a_pinned_index_outside_or_taken_is_an_error_naming_what_holds_it() {
    let other = annotate(
        fixtures::pool("p", "c1")
            .range(range("10.0.0.20", "10.0.0.21"))
            .yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    let docs = vec![
        other,
        asking("x", "c2", "prov", &[("ipreuse.dev/block-index", "16")]),
        asking("y", "c2", "prov", &[("ipreuse.dev/block-index", "1")]),
        asking("z", "c2", "prov", &[("ipreuse.dev/block-index", "3")]),
        asking("zz", "c2", "prov", &[("ipreuse.dev/block-index", "3")]),
    ];
    let r = run(&docs, &config(subnet_net(), json!({})));
    let errors = r.errors();
    let field = "@ metadata.annotations.[ipreuse.dev/block-index]";
    assert!(
        errors
            .iter()
            .any(|e| e.contains("c2/x: this pool asks for block 16")
                && e.contains("holds 16 blocks of /28 (0 to 15)")
                && e.ends_with(field)),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("c2/y: this pool asks for block 1")
                && e.contains("Its address 10.0.0.20 is taken by the ranges of IPPool c1/p")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("c2/zz: this pool asks for block 3")
                && e.contains("IPPool c2/z asks for it too")),
        "{errors:?}"
    );
    assert_eq!(r.entries("c2", "z"), Some(vec![subnet("10.0.0.48/28")]));
}

#[test]
fn a_block_size_annotation_overrides_and_is_checked() {
    let docs = vec![
        asking("big", "c1", "prov", &[("ipreuse.dev/block-size", "26")]),
        asking("small", "c1", "prov", &[]),
        asking("bad", "c1", "prov", &[("ipreuse.dev/block-size", "23")]),
    ];
    let r = run(&docs, &config(subnet_net(), json!({})));
    assert_eq!(r.entries("c1", "big"), Some(vec![subnet("10.0.0.0/26")]));
    assert_eq!(r.entries("c1", "small"), Some(vec![subnet("10.0.0.64/28")]));
    assert_eq!(r.entries("c1", "bad"), None);
    let errors = r.errors();
    assert!(
        errors.iter().any(
            |e| e.contains("c1/bad: this pool cannot take a block of network prov")
                && e.contains("ipreuse.dev/block-size 23 is larger than the cidr")
                && e.ends_with("@ metadata.annotations.[ipreuse.dev/block-size]")
        ),
        "{errors:?}"
    );
}

#[test]
fn a_block_annotation_without_a_block_network_is_an_error() {
    let docs = vec![annotate(
        fixtures::pool("p", "c1").yaml(),
        &[("ipreuse.dev/block-index", "2")],
    )];
    let r = run(&docs, &config(subnet_net(), json!({})));
    let errors = r.errors();
    assert!(
        errors.iter().any(|e| e.contains("gets no block")
            && e.contains("names no network")
            && e.ends_with("@ metadata.annotations.[ipreuse.dev/block-index]")),
        "{errors:?}"
    );
    // Left out of allocation: this error is the one to fix, not the empty ranges.
    assert!(r.out.refused.contains(&r.id("c1", "p")));
}

// ---- the edits ---------------------------------------------------------------------------------

fn set_values(r: &Run) -> Vec<(String, String)> {
    r.out
        .edits
        .iter()
        .map(|e| match &e.edit {
            Edit::SetValue { key, yaml, .. } => (key.clone(), yaml.clone()),
            other => panic!("unexpected edit {other:?}"),
        })
        .collect()
}

#[test]
fn a_range_block_writes_start_end_and_the_networks_fields() {
    let net = json!([{"name": "prov", "cidr": "10.0.0.0/24", "blockSize": 27,
        "prefix": 16, "gateway": "10.0.0.1", "dnsServers": ["10.0.0.2", "10.0.0.3"]}]);
    let r = run(&[asking("new", "c9", "prov", &[])], &config(net, json!({})));
    assert_eq!(
        set_values(&r),
        vec![
            (
                "pools".into(),
                "- start: \"10.0.0.32\"\n  end: \"10.0.0.63\"\n".into()
            ),
            ("prefix".into(), "16\n".into()),
            ("gateway".into(), "\"10.0.0.1\"\n".into()),
            (
                "dnsServers".into(),
                "- \"10.0.0.2\"\n- \"10.0.0.3\"\n".into()
            ),
        ]
    );
    let spec = &r.out.overlay[&r.id("c9", "new")];
    assert_eq!(spec.prefix, Some(16));
    assert_eq!(spec.gateway.as_deref(), Some("10.0.0.1"));
    assert_eq!(spec.dns_servers, vec!["10.0.0.2", "10.0.0.3"]);
}

#[test]
fn subnet_blocks_take_their_gateway_by_policy_in_canonical_text() {
    for (policy, gateway) in [
        ("first", Some("fd00:1:0:2::1")),
        ("last", Some("fd00:1:0:2:ffff:ffff:ffff:ffff")),
        ("none", None),
    ] {
        let net = json!([{"name": "v6", "cidr": "FD00:1::/48", "blockSize": 64,
            "blockKind": "subnet", "gatewayPolicy": policy}]);
        let r = run(
            &[asking(
                "new",
                "c9",
                "v6",
                &[("ipreuse.dev/block-index", "2")],
            )],
            &config(net, json!({})),
        );
        let mut want = vec![
            (
                "pools".to_string(),
                "- subnet: \"fd00:1:0:2::/64\"\n".to_string(),
            ),
            ("prefix".to_string(), "64\n".to_string()),
        ];
        if let Some(g) = gateway {
            want.push(("gateway".into(), format!("\"{g}\"\n")));
        }
        assert_eq!(set_values(&r), want, "gatewayPolicy {policy}");
    }
}

#[test]
fn a_pool_that_sets_its_own_fields_keeps_equal_ones_and_is_refused_on_a_conflict() {
    let net = json!([{"name": "prov", "cidr": "10.0.0.0/24", "blockSize": 27,
        "gateway": "10.0.0.1"}]);
    let same = annotate(
        fixtures::pool("same", "c1")
            .prefix(24)
            .gateway("10.0.0.1")
            .yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    let other = annotate(
        fixtures::pool("other", "c1").prefix(25).yaml(),
        &[("ipreuse.dev/network", "prov")],
    );
    let r = run(&[same, other], &config(net, json!({})));
    assert!(r.out.overlay.contains_key(&r.id("c1", "same")));
    let same_item = r.model.index.pools[r.id("c1", "same")].object.index;
    let keys: Vec<String> = r
        .out
        .edits
        .iter()
        .filter(|e| e.item == same_item)
        .filter_map(|e| match &e.edit {
            Edit::SetValue { key, .. } => Some(key.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(keys, vec!["pools"]);
    assert!(r.out.refused.contains(&r.id("c1", "other")));
    let errors = r.errors();
    assert!(
        errors.iter().any(
            |e| e.contains("c1/other: this pool sets prefix, which differs")
                && e.contains("The pool has 25, the block 24")
                && e.ends_with("@ spec.prefix")
        ),
        "{errors:?}"
    );
}

#[test]
fn a_dual_stack_network_writes_one_entry_per_family_with_its_fields() {
    let net = json!([
        {"name": "d", "cidr": "10.9.0.0/16", "blockSize": {"ipv4": 24, "ipv6": 64},
            "blockKind": "subnet", "dnsServers": ["10.9.0.53"]},
        {"name": "d", "cidr": "fd00:9::/48"}
    ]);
    let r = run(&[asking("new", "c9", "d", &[])], &config(net, json!({})));
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(
        set_values(&r),
        vec![(
            "pools".into(),
            "- subnet: \"10.9.0.0/24\"\n  prefix: 24\n  gateway: \"10.9.0.1\"\n  dnsServers:\n    - \"10.9.0.53\"\n\
             - subnet: \"fd00:9::/64\"\n  prefix: 64\n  gateway: \"fd00:9::1\"\n"
                .into()
        )]
    );
    let entries = r.entries("c9", "new").expect("blocks");
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].prefix, Some(64));
}

#[test]
fn a_pool_without_a_spec_mapping_is_refused_at_spec() {
    for spec in ["", "spec:\n", "spec: null\n"] {
        let doc = format!(
            "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: p\n  namespace: c1\n  annotations:\n    ipreuse.dev/network: prov\n{spec}"
        );
        let r = run(&[doc], &config(subnet_net(), json!({})));
        assert!(r.out.edits.is_empty(), "{spec:?}");
        assert!(r.out.refused.contains(&r.id("c1", "p")));
        assert!(
            r.errors()
                .iter()
                .any(|e| e.contains("has no spec mapping") && e.ends_with("@ spec")),
            "{spec:?}: {:?}",
            r.errors()
        );
    }
    // `spec: {namePrefix: p}` is a mapping: the block is written into it.
    let doc = "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: p\n  namespace: c1\n  annotations:\n    ipreuse.dev/network: prov\nspec: {namePrefix: p}\n";
    let r = run(&[doc.to_string()], &config(subnet_net(), json!({})));
    assert_eq!(r.entries("c1", "p"), Some(vec![subnet("10.0.0.0/28")]));
}

#[test]
fn every_error_says_what_is_wrong_in_a_first_sentence_under_160_characters() {
    let long = "a-very-long-pool-name-of-sixty-three-characters-for-the-message";
    let ns = "a-namespace-that-is-also-long-enough-to-matter";
    let net = json!([{"name": "a-network-whose-name-is-long-enough", "cidr": "fd00:1234:5678::/48",
        "blockSize": 64, "blockKind": "subnet", "dnsServers": ["fd00::53", "fd00::54"]}]);
    let n = "a-network-whose-name-is-long-enough";
    let other = annotate(
        fixtures::pool("other", ns)
            .range(fixtures::subnet("fd00:1234:5678:1::/64"))
            .dns("fd00::1")
            .yaml(),
        &[("ipreuse.dev/network", n)],
    );
    let docs = vec![
        other,
        asking(long, ns, n, &[("ipreuse.dev/block-index", "1")]),
        asking(
            &format!("{long}-2"),
            ns,
            n,
            &[("ipreuse.dev/block-index", "99999999")],
        ),
        asking(
            &format!("{long}-3"),
            ns,
            n,
            &[("ipreuse.dev/block-size", "127")],
        ),
        annotate(
            fixtures::pool(&format!("{long}-4"), ns)
                .dns("fd00::9")
                .yaml(),
            &[("ipreuse.dev/network", n)],
        ),
        annotate(
            fixtures::pool(&format!("{long}-5"), ns).yaml(),
            &[("ipreuse.dev/block-size", "64")],
        ),
    ];
    let r = run(&docs, &config(net, json!({})));
    let errors = r.errors();
    assert_eq!(errors.len(), 5, "{errors:?}");
    for e in &errors {
        let message = e.split_once(": ").map_or(e.as_str(), |(_, m)| m);
        let first = message.split(". ").next().unwrap_or(message);
        assert!(first.chars().count() < 160, "{e}");
    }
}

#[test]
fn a_block_annotation_on_a_network_without_block_size_is_an_error_too() {
    let net = json!([{"name": "plain", "cidr": "10.0.0.0/24"}]);
    let docs = vec![asking(
        "p",
        "c1",
        "plain",
        &[("ipreuse.dev/block-size", "28")],
    )];
    let r = run(&docs, &config(net, json!({})));
    let errors = r.errors();
    assert!(
        errors.iter().any(|e| e.contains("gets no block")
            && e.contains("Its network plain hands out no blocks")
            && e.ends_with("@ metadata.annotations.[ipreuse.dev/block-size]")),
        "{errors:?}"
    );
    // Without the annotation, such a pool is left to allocation, as before blocks existed.
    let r = run(
        &[asking("p", "c1", "plain", &[])],
        &config(json!([{"name": "plain", "cidr": "10.0.0.0/24"}]), json!({})),
    );
    assert!(r.findings.is_empty() && r.out.edits.is_empty());
}

#[test]
fn a_misspelt_network_on_a_pool_without_ranges_is_an_error_with_the_name_it_meant() {
    // `prv` for `prov`: without this error the pool would get no block and its hosts a
    // message about its empty ranges, which does not say why.
    let r = run(
        &[asking("p", "c1", "prv", &[])],
        &config(subnet_net(), json!({})),
    );
    let errors = r.errors();
    assert!(
        errors.iter().any(|e| e.contains("gets no block")
            && e.contains("The config has no network named prv (did you mean prov?)")
            && e.contains("with a network that hands out blocks (prov)")
            && e.ends_with("@ metadata.annotations.[ipreuse.dev/network]")),
        "{errors:?}"
    );
    assert!(r.out.refused.contains(&r.id("c1", "p")) && r.out.edits.is_empty());
    // A pool with ranges is not asking: its annotation names a network of its own, which
    // SPEC §10 allows (pools that share by annotation only).
    let with_ranges = annotate(
        fixtures::pool("q", "c1")
            .range(range("10.9.0.10", "10.9.0.20"))
            .prefix(24)
            .yaml(),
        &[("ipreuse.dev/network", "elsewhere")],
    );
    let r = run(&[with_ranges], &config(subnet_net(), json!({})));
    assert!(r.errors().is_empty(), "{:?}", r.errors());
}

#[test]
fn a_block_index_that_a_pools_ranges_are_not_is_a_warning_and_the_ranges_stay() {
    let pinned = |index: &str| {
        annotate(
            fixtures::pool("p", "c1")
                .range(range("10.0.0.16", "10.0.0.31"))
                .prefix(24)
                .yaml(),
            &[
                ("ipreuse.dev/network", "prov"),
                ("ipreuse.dev/block-index", index),
            ],
        )
    };
    // Block 1 is 10.0.0.16/28: the pin is what the pool has, nothing to say.
    let r = run(&[pinned("1")], &config(subnet_net(), json!({})));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // Block 7 is not: a warning naming the block the ranges are; no edit.
    let r = run(&[pinned("7")], &config(subnet_net(), json!({})));
    let warnings: Vec<String> = r
        .findings
        .iter()
        .filter(|f| f.severity == crate::results::Severity::Warning)
        .map(|f| {
            format!(
                "{} @ {}",
                f.message,
                f.field.as_ref().map_or("", |x| x.path.as_str())
            )
        })
        .collect();
    assert_eq!(warnings.len(), 1, "{:?}", r.findings);
    assert!(
        warnings[0].contains("ipreuse.dev/block-index 7 is not used")
            && warnings[0].contains("Its ranges are block 1 of cidr 10.0.0.0/24 of network prov")
            && warnings[0].ends_with("@ metadata.annotations.[ipreuse.dev/block-index]"),
        "{warnings:?}"
    );
    assert!(r.out.edits.is_empty() && r.errors().is_empty());
}
