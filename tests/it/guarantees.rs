//! SPEC §6 guarantees, on generated packages: deterministic, idempotent, stable,
//! transactional, lossless.

use crate::common;

use common::*;
use ipreuse::results::Severity;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A package with two namespaces, overlapping pools, existing entries, live claims and a pin.
/// Each item is its own (name, text) so that the order of items can be shuffled.
fn package() -> Vec<(String, String)> {
    let items = [
        host("node-10", "alpha").yaml(),
        host("node-2", "alpha").yaml(),
        host("node-1", "alpha").yaml(),
        host("node-3", "alpha").pin("pool-a", "10.0.0.30").yaml(),
        host("node-4", "alpha").yaml(),
        // pool-a: gateway inside the range, an existing host entry and a placeholder.
        pool("pool-a", "alpha")
            .range(range("10.0.0.10", "10.0.0.60").gateway("10.0.0.11"))
            .prefix(24)
            .entry("node-2-pool-a", "10.0.0.20")
            .entry("block-gateway", "10.0.0.11")
            .yaml(),
        // pool-b overlaps pool-a, with a live claim.
        pool("pool-b", "alpha")
            .range(range("10.0.0.40", "10.0.0.80"))
            .prefix(24)
            .live("node-10-pool-b", "10.0.0.45")
            .yaml(),
        host("web-2", "beta").yaml(),
        host("web-1", "beta").yaml(),
        // Same pool name in another namespace: IPv6, a live claim, an existing entry.
        pool("pool-a", "beta")
            .range(range("2001:db8::10", "2001:db8::ff"))
            .prefix(64)
            .entry("web-1-pool-a", "2001:db8::30")
            .live("web-2-pool-a", "2001:db8::20")
            .yaml(),
        pool("pool-c", "beta")
            .range(subnet("192.168.5.0/29"))
            .yaml(),
        cluster("c1", "alpha", "10.0.0.12"),
    ];
    items
        .into_iter()
        .enumerate()
        .map(|(i, t)| (format!("item-{i:02}.yaml"), t))
        .collect()
}

#[test]
fn the_package_fills_without_errors() {
    // The fixture itself must be valid, or the other guarantees test nothing.
    let o = run_sources(&package(), None);
    assert_no_errors(&o);
    assert!(
        o.changed.iter().any(|c| *c),
        "nothing changed:\n{}",
        dump(&o)
    );
    // The live claim stays (SPEC §5 precedence 3); the pin is used (precedence 2).
    assert_eq!(
        entry_of(&o, "alpha", "pool-b", "node-10-pool-b").as_deref(),
        Some("10.0.0.45")
    );
    assert_eq!(
        entry_of(&o, "alpha", "pool-a", "node-3-pool-a").as_deref(),
        Some("10.0.0.30")
    );
    assert_eq!(
        entry_of(&o, "beta", "pool-a", "web-2-pool-a").as_deref(),
        Some("2001:db8::20")
    );
}

proptest! {
    #![proptest_config(pt_config_persisted(32))]

    /// Each item (one source each) comes out byte-identical whatever order the items came in,
    /// and the results are the same.
    #[test]
    fn deterministic_across_sources(order in Just((0..package().len()).collect::<Vec<usize>>()).prop_shuffle()) {
        let items = package();
        let first = run_sources(&items, None);
        let shuffled: Vec<(String, String)> = order.iter().map(|&i| items[i].clone()).collect();
        let again = run_sources(&shuffled, None);
        for (pos, &i) in order.iter().enumerate() {
            prop_assert_eq!(&again.outputs[pos], &first.outputs[i], "item {} differs", items[i].0);
            prop_assert_eq!(again.changed[pos], first.changed[i]);
        }
        prop_assert_eq!(&again.findings, &first.findings);
    }

    /// The same with every item in one stream: each document comes out byte-identical.
    #[test]
    fn deterministic_in_one_stream(order in Just((0..package().len()).collect::<Vec<usize>>()).prop_shuffle()) {
        let items = package();
        let texts: Vec<String> = items.iter().map(|(_, t)| t.clone()).collect();
        let first = run_docs(&texts, None);
        let first_docs = split_docs(&first.outputs[0]);
        prop_assert_eq!(first_docs.len(), texts.len());
        let shuffled: Vec<String> = order.iter().map(|&i| texts[i].clone()).collect();
        let again = run_docs(&shuffled, None);
        let again_docs = split_docs(&again.outputs[0]);
        prop_assert_eq!(again_docs.len(), texts.len());
        for (pos, &i) in order.iter().enumerate() {
            prop_assert_eq!(&again_docs[pos], &first_docs[i], "document {} differs", i);
        }
        prop_assert_eq!(common::placeless(&again), common::placeless(&first));
    }
}

/// Runs twice; the second run on the first's output must change nothing.
fn assert_idempotent(what: &str, docs: &[String], cfg: Option<&Value>) {
    let first = run_docs(docs, cfg);
    assert_no_errors(&first);
    assert_eq!(
        first.changed,
        [true],
        "{what}: the first run should change something"
    );
    let second = run_text(&first.outputs[0], cfg);
    assert_no_errors(&second);
    assert_eq!(
        second.changed,
        [false],
        "{what}: second run changed:\n{}",
        second.outputs[0]
    );
    assert_eq!(second.outputs[0], first.outputs[0], "{what}");
}

#[test]
fn idempotent_on_the_mixed_package() {
    let docs: Vec<String> = package().into_iter().map(|(_, t)| t).collect();
    assert_idempotent("mixed package", &docs, None);
}

#[test]
fn idempotent_ipv6_with_a_rewritten_entry() {
    let docs = [
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        host("node-3", "ns").yaml(),
        pool("v6", "ns")
            .range(range("fd00:1::a", "fd00:1::ff"))
            .prefix(64)
            .gateway("fd00:1::a")
            // Non-canonical (upper case, zero padding): rewritten by the first run.
            .entry("node-2-v6", "FD00:0001:0000:0000:0000:0000:0000:0020")
            .yaml(),
    ];
    assert_idempotent("ipv6", &docs, None);
}

#[test]
fn idempotent_with_prune() {
    let docs = [
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        pool("pool", "ns")
            .range(range("10.1.0.10", "10.1.0.30"))
            .entry("gone-pool", "10.1.0.10")
            .entry("node-2-pool", "10.1.0.12")
            .yaml(),
    ];
    let cfg = config(json!({"prune": true}));
    assert_idempotent("prune", &docs, Some(&cfg));
}

#[test]
fn idempotent_dual_stack_and_empty_preallocations() {
    let docs = [
        host("m-1", "ns").yaml(),
        host("m-2", "ns").yaml(),
        pool("v4", "ns")
            .range(subnet("10.2.0.0/28"))
            .yaml()
            .replace("  pools:\n", "  preAllocations: {}\n  pools:\n"),
        pool("v6", "ns").range(subnet("fd00::/120")).yaml() + "  preAllocations: null\n",
    ];
    assert_idempotent("dual stack", &docs, None);
}

/// Host names: DNS-1123 labels, some with numbers.
fn host_names(max: usize) -> impl Strategy<Value = std::collections::BTreeSet<String>> {
    proptest::collection::btree_set("[a-z]{1,4}(-[0-9]{1,3})?", 0..max)
}

proptest! {
    #![proptest_config(pt_config_persisted(48))]

    /// Adding hosts and a pool (overlapping the first) never changes an existing entry.
    #[test]
    fn stable_when_hosts_and_pools_are_added(
        first_hosts in host_names(12),
        new_hosts in host_names(12),
        gateway_at in 0u32..30,
    ) {
        let gw = v4s(v4("10.3.0.10") + gateway_at);
        let mut docs: Vec<String> = first_hosts.iter().map(|h| host(h, "ns").yaml()).collect();
        docs.push(
            pool("main", "ns")
                .range(range("10.3.0.10", "10.3.0.200").gateway(&gw))
                .prefix(24)
                .yaml(),
        );
        let first = run_docs(&docs, None);
        prop_assert!(errors(&first).is_empty(), "{}", dump(&first));
        let before = all_entries(&first);

        let mut text = first.outputs[0].clone();
        for h in new_hosts.difference(&first_hosts) {
            text.push_str("---\n");
            text.push_str(&host(h, "ns").yaml());
        }
        // A new pool that sorts first and overlaps the existing one.
        text.push_str("---\n");
        text.push_str(&pool("aaa-new", "ns").range(range("10.3.0.5", "10.3.0.250")).prefix(24).yaml());
        let second = run_text(&text, None);
        prop_assert!(errors(&second).is_empty(), "{}", dump(&second));
        let after = all_entries(&second);
        for (pool_id, entries) in &before {
            let now = &after[pool_id];
            for (k, v) in entries {
                prop_assert!(
                    now.iter().any(|(k2, v2)| k2 == k && v2 == v),
                    "entry {k}: {v} of {pool_id:?} changed; now {now:?}"
                );
            }
            // Every host has an entry in each pool.
            let all_hosts: std::collections::BTreeSet<&String> = first_hosts.union(&new_hosts).collect();
            for h in all_hosts {
                let key = format!("{h}-{}", pool_id.1);
                prop_assert!(now.iter().any(|(k, _)| *k == key), "no entry {}", key);
            }
        }
    }
}

/// One pool needs filling, another has a host entry outside its range.
fn bad_package() -> Vec<(String, String)> {
    vec![
        (
            "hosts.yaml".into(),
            stream(&[host("node-1", "ns").yaml(), host("node-2", "ns").yaml()]),
        ),
        (
            "good.yaml".into(),
            pool("good", "ns")
                .range(range("10.4.0.10", "10.4.0.20"))
                .yaml(),
        ),
        (
            "bad.yaml".into(),
            pool("bad", "ns")
                .range(range("10.5.0.10", "10.5.0.20"))
                .entry("node-1-bad", "10.5.1.99")
                .yaml(),
        ),
    ]
}

#[test]
fn transactional_stream() {
    let sources = bad_package();
    let o = run_sources(&sources, None);
    let inputs: Vec<&str> = sources.iter().map(|(_, t)| t.as_str()).collect();
    assert_transactional(&o, &inputs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-bad"),
            object: Some(("IPPool", "bad")),
            says: &["10.5.1.99"],
        },
    );
    // Without the bad entry the same package does fill (the error is what stops it).
    let fixed: Vec<(String, String)> = sources
        .iter()
        .map(|(n, t)| (n.clone(), t.replace("10.5.1.99", "10.5.0.15")))
        .collect();
    let ok = run_sources(&fixed, None);
    assert_no_errors(&ok);
    assert!(ok.changed.iter().any(|c| *c));
}

#[test]
fn transactional_resource_list() {
    let items: Vec<String> = bad_package()
        .into_iter()
        .flat_map(|(_, t)| t.split("---\n").map(str::to_string).collect::<Vec<_>>())
        .collect();
    let input = resource_list(
        &items,
        Some(&ipreuse_config("cfg").set("prune", "true").yaml()),
    );
    let o = run_text(&input, None);
    assert!(!errors(&o).is_empty(), "{}", dump(&o));
    let out = &o.outputs[0];
    // The items, the functionConfig and everything else as they were; only `results` added.
    let mut before = json_docs(&input).remove(0);
    let mut after = json_docs(out).remove(0);
    let results = after
        .as_object_mut()
        .unwrap()
        .remove("results")
        .expect("no results: key in the output");
    before.as_object_mut().unwrap().remove("results");
    assert_eq!(after, before, "the ResourceList changed beyond results:");
    assert!(
        results
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["severity"] == "error"
                && r["field"]["path"] == "spec.preAllocations.node-1-bad"),
        "results: {results}"
    );
    // Textually: every input line is still there, in order; the added lines are the results block.
    assert!(is_line_subsequence(&input, out), "input lines lost:\n{out}");
    let added = added_lines(&input, out);
    assert_eq!(added.first().copied(), Some("results:"), "added: {added:?}");
    assert!(
        added[1..]
            .iter()
            .all(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('-')),
        "lines outside results: were added: {added:?}"
    );
    // No pool entries were added to the items.
    assert_eq!(rl_entries(out), rl_entries(&input));
}

#[test]
fn lossless_comments_quotes_flow_maps_indents_crlf() {
    let text = "\
# hosts, with a comment block
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: 'node-2'   # single-quoted name
  namespace: \"ns\"
  labels: {rack: r1, role: \"worker\"}
spec:
  online: true
  bootMACAddress: '00:5c:52:31:3a:02'
---
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: node-1, namespace: ns}
spec: {online: false}
---
# a pool whose list is not indented
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: \"pool-x\"
  namespace: ns
spec:
  namePrefix: \"pool-x\"
  clusterName: 'test1'
  pools:
  - start: 10.6.0.10    # first
    end: '10.6.0.20'
    gateway: \"10.6.0.10\"
  prefix: 24
  dnsServers: [10.6.0.2, \"10.6.0.3\"]
  # existing entries stay where they are
  preAllocations:
    node-9-pool-x: '10.6.0.19'   # a host of another package
---
# a pool whose list is indented, no preAllocations
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata:
  name: pool-y
  namespace: ns
  annotations:
    note: \"keep: me\"
spec:
  pools:
    - subnet: 10.7.0.0/29
      gateway: '10.7.0.1'
  namePrefix: pool-y
";
    let input = text.replace('\n', "\r\n");
    let o = run_text(&input, None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [true]);
    let out = &o.outputs[0];
    assert!(
        is_line_subsequence(&input, out),
        "an input line was changed or lost:\n{out}"
    );
    let added = added_lines(&input, out);
    assert!(!added.is_empty());
    for l in &added {
        let t = l.trim();
        assert!(
            t == "preAllocations:"
                || t.contains("-pool-x: \"10.6.0.")
                || t.contains("-pool-y: \"10.7.0."),
            "unexpected added line {l:?}"
        );
        assert!(
            l.ends_with('\r'),
            "added line {l:?} does not keep the CRLF line ending"
        );
    }
    // Four new entries: node-1 and node-2 in both pools.
    assert_eq!(
        added.iter().filter(|l| l.contains(": \"")).count(),
        4,
        "{added:?}"
    );
    let e = entries(&out.replace("\r\n", "\n"));
    let x = &e[&("ns".to_string(), "pool-x".to_string())];
    let y = &e[&("ns".to_string(), "pool-y".to_string())];
    assert_eq!(x[0], ("node-9-pool-x".into(), "10.6.0.19".into()));
    assert_eq!(x.len(), 3);
    assert_eq!(y.len(), 2);
    // The warning for the entry of a host not in the input (no prune) is there.
    assert!(
        !matching(
            &o,
            Severity::Warning,
            Want {
                path: Some("spec.preAllocations.node-9-pool-x"),
                ..Want::default()
            }
        )
        .is_empty(),
        "{}",
        dump(&o)
    );
}
