//! SPEC §10: networks shared across namespaces. Every expected address is derived from the
//! rules, by hand, in the test.

use crate::common;

use common::*;
use ipreuse::results::Severity;
use serde_json::{Value, json};

/// The issue's two clusters: `c1` (.100–.150, `a-0` holds .140) and `c2` (.140–.200), each
/// with an IPPool `provisioning-pool` on 172.22.0.0/24, hosts `a-0`, `a-1` in c1 and `b-0`,
/// `b-1` in c2.
fn issue_clusters() -> Vec<String> {
    vec![
        pool("provisioning-pool", "c1")
            .range(range("172.22.0.100", "172.22.0.150"))
            .prefix(24)
            .entry("a-0-provisioning-pool", "172.22.0.140")
            .yaml(),
        host("a-0", "c1").yaml(),
        host("a-1", "c1").yaml(),
        pool("provisioning-pool", "c2")
            .range(range("172.22.0.140", "172.22.0.200"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").yaml(),
        host("b-1", "c2").yaml(),
    ]
}

fn prov_config(extra: Value) -> Value {
    let mut spec = json!({"networks": [{"name": "prov", "cidr": "172.22.0.0/16"}]});
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
        s.extend(e.clone());
    }
    config(spec)
}

/// A pool document annotated `ipreuse.dev/network: {net}`.
fn on_network(doc: String, net: &str) -> String {
    doc.replacen(
        "metadata:\n",
        &format!("metadata:\n  annotations:\n    ipreuse.dev/network: {net}\n"),
        1,
    )
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn summary<'a>(o: &'a ipreuse::run::Outcome, ns: &str, pool: &str) -> &'a str {
    o.findings
        .iter()
        .find(|f| {
            f.severity == Severity::Info
                && f.message.contains("kept,")
                && f.resource_ref
                    .as_ref()
                    .is_some_and(|r| r.name == pool && r.namespace.as_deref() == Some(ns))
        })
        .map(|f| f.message.as_str())
        .unwrap_or_else(|| panic!("no summary for {ns}/{pool}:\n{}", dump(o)))
}

// ---- the issue's reproduction ----------------------------------------------------------------

#[test]
fn without_networks_the_two_clusters_collide_as_before() {
    // Pools outside any network stay independent: c2's first host takes .140, which a-0 holds.
    let o = run_docs(&issue_clusters(), None);
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "c2", "provisioning-pool"),
        pairs(&[
            ("b-0-provisioning-pool", "172.22.0.140"),
            ("b-1-provisioning-pool", "172.22.0.141"),
        ])
    );
    assert!(!summary(&o, "c2", "provisioning-pool").contains("network"));
}

#[test]
fn on_one_network_c2_never_gets_what_c1_holds() {
    let o = run_docs(&issue_clusters(), Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    // c1 fills first ((namespace, name) order): a-1 takes .100.
    assert_eq!(
        pool_entries(&o, "c1", "provisioning-pool"),
        pairs(&[
            ("a-0-provisioning-pool", "172.22.0.140"),
            ("a-1-provisioning-pool", "172.22.0.100"),
        ])
    );
    // c2 walks from .140: .140 is a-0's, so b-0 gets .141 and b-1 .142.
    assert_eq!(
        pool_entries(&o, "c2", "provisioning-pool"),
        pairs(&[
            ("b-0-provisioning-pool", "172.22.0.141"),
            ("b-1-provisioning-pool", "172.22.0.142"),
        ])
    );
    // 61 candidates, .140 (c1) and .141, .142 (its own) taken.
    assert_eq!(
        summary(&o, "c2", "provisioning-pool"),
        "0 kept, 2 added, 0 rewritten, 0 pruned, 58 free left (network prov)"
    );
    // The ranges overlap across namespaces: a warning on each pool, naming the other.
    for (ns, other) in [("c1", "c2"), ("c2", "c1")] {
        let w = matching(
            &o,
            Severity::Warning,
            Want {
                path: Some("spec.pools"),
                object: Some(("IPPool", "provisioning-pool")),
                says: &[
                    &format!("{other}/provisioning-pool"),
                    "network prov",
                    "other namespaces",
                ],
            },
        );
        assert!(
            w.iter()
                .any(|f| f.resource_ref.as_ref().unwrap().namespace.as_deref() == Some(ns)),
            "{}",
            dump(&o)
        );
    }
}

#[test]
fn the_annotation_puts_a_pool_on_a_network_too() {
    let docs: Vec<String> = issue_clusters()
        .into_iter()
        .map(|d| {
            if d.contains("kind: IPPool") {
                on_network(d, "prov")
            } else {
                d
            }
        })
        .collect();
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "provisioning-pool", "b-0-provisioning-pool").as_deref(),
        Some("172.22.0.141")
    );
    // Annotated and inside the config's cidr of the same network: one network, fine.
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "provisioning-pool", "b-0-provisioning-pool").as_deref(),
        Some("172.22.0.141")
    );
}

#[test]
fn only_one_pool_annotated_shares_nothing() {
    // Membership is per pool: c1's pool on prov, c2's on no network: independent.
    let mut docs = issue_clusters();
    docs[0] = on_network(docs[0].clone(), "prov");
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "provisioning-pool", "b-0-provisioning-pool").as_deref(),
        Some("172.22.0.140")
    );
}

#[test]
fn strict_networks_turns_the_overlap_into_an_error() {
    let docs = issue_clusters();
    let o = run_docs(&docs, Some(&prov_config(json!({"strictNetworks": true}))));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools"),
            object: Some(("IPPool", "provisioning-pool")),
            says: &["c1/provisioning-pool", "network prov", "strictNetworks"],
        },
    );
}

#[test]
fn disjoint_ranges_of_one_network_give_no_warning_even_when_strict() {
    let docs = vec![
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("n-1", "c1").yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.20", "172.22.0.29"))
            .prefix(24)
            .yaml(),
        host("n-1", "c2").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({"strictNetworks": true}))));
    assert_no_errors(&o);
    assert!(
        matching(
            &o,
            Severity::Warning,
            Want {
                says: &["network prov"],
                ..Want::default()
            }
        )
        .is_empty(),
        "{}",
        dump(&o)
    );
    assert_eq!(
        entry_of(&o, "c2", "prov", "n-1-prov").as_deref(),
        Some("172.22.0.20")
    );
}

// ---- membership --------------------------------------------------------------------------------

#[test]
fn a_pool_in_two_networks_is_an_error_naming_both() {
    // Annotated `ext` while its candidates lie in prov's cidr.
    let mut docs = issue_clusters();
    docs[3] = on_network(docs[3].clone(), "ext");
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/network]"),
            object: Some(("IPPool", "provisioning-pool")),
            says: &[
                "This pool would be on two networks",
                "ext (annotated ipreuse.dev/network: ext)",
                "prov (its addresses lie in cidr 172.22.0.0/16 of spec.networks[0])",
            ],
        },
    );
    // Two nested cidrs of different names.
    let docs = issue_clusters();
    let cfg = config(json!({"networks": [
        {"name": "wide", "cidr": "172.22.0.0/16"},
        {"name": "narrow", "cidr": "172.22.0.0/24"},
    ]}));
    let o = run_docs(&docs, Some(&cfg));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools"),
            object: Some(("IPPool", "provisioning-pool")),
            says: &["narrow (", "wide (", "spec.networks[1]"],
        },
    );
}

#[test]
fn a_pool_partly_inside_a_networks_cidr_is_on_it_with_a_warning() {
    // c1's candidates (.100–.150) start before the upper /25: c1 is on the network all the same
    // (its addresses are guarded with c2's), with a warning naming the pool and the network.
    let cfg = config(json!({"networks": [{"name": "prov", "cidr": "172.22.0.128/25"}]}));
    let o = run_docs(&issue_clusters(), Some(&cfg));
    assert_no_errors(&o);
    assert!(summary(&o, "c1", "provisioning-pool").ends_with("(network prov)"));
    assert!(summary(&o, "c2", "provisioning-pool").ends_with("(network prov)"));
    // c1 fills first: a-1 takes .100. c2 walks from .140, a-0's: b-0 .141, b-1 .142.
    assert_eq!(
        entry_of(&o, "c1", "provisioning-pool", "a-1-provisioning-pool").as_deref(),
        Some("172.22.0.100")
    );
    assert_eq!(
        pool_entries(&o, "c2", "provisioning-pool"),
        pairs(&[
            ("b-0-provisioning-pool", "172.22.0.141"),
            ("b-1-provisioning-pool", "172.22.0.142"),
        ])
    );
    let partly = Want {
        path: Some("spec.pools"),
        object: Some(("IPPool", "provisioning-pool")),
        says: &[
            "Some of this pool's addresses are outside network prov",
            "Inside: 172.22.0.128/25 of spec.networks[0]; outside every cidr of prov: 172.22.0.100",
            "The pool is taken as on network prov",
        ],
    };
    assert_warning(&o, partly);
    // c2 lies wholly inside: no such warning for it.
    assert_eq!(
        matching(
            &o,
            Severity::Warning,
            Want {
                says: &["are outside network"],
                ..Want::default()
            }
        )
        .len(),
        1,
        "{}",
        dump(&o)
    );
    // strictNetworks makes it an error, and nothing changes.
    let cfg = config(
        json!({"networks": [{"name": "prov", "cidr": "172.22.0.128/25"}],
        "strictNetworks": true}),
    );
    let docs = issue_clusters();
    let o = run_docs(&docs, Some(&cfg));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            says: &[partly.says[0], "(spec.strictNetworks is true)"],
            ..partly
        },
    );
}

/// One dual-stack cluster per namespace: pool `prov` with an IPv4 and an IPv6 range; c1's
/// a-0 holds 172.22.0.10.
fn dual_stack_clusters() -> Vec<String> {
    let dual = |ns: &str| {
        pool("prov", ns)
            .range(range("172.22.0.10", "172.22.0.19").prefix(24))
            .range(range("fd00:22::10", "fd00:22::1f").prefix(64))
    };
    vec![
        dual("c1").entry("a-0-prov", "172.22.0.10").yaml(),
        host("a-0", "c1").yaml(),
        dual("c2").yaml(),
        host("b-0", "c2").yaml(),
    ]
}

fn dual_stack_config() -> Value {
    config(json!({"networks": [
        {"name": "prov", "cidr": "172.22.0.0/24"},
        {"name": "prov", "cidr": "fd00:22::/64"},
    ]}))
}

#[test]
fn a_dual_stack_pool_whose_families_lie_in_the_networks_two_cidrs_is_on_it() {
    let o = run_docs(&dual_stack_clusters(), Some(&dual_stack_config()));
    assert_no_errors(&o);
    assert!(summary(&o, "c1", "prov").ends_with("(network prov)"));
    assert!(summary(&o, "c2", "prov").ends_with("(network prov)"));
    // .10 is a-0's in c1: b-0 takes the next, .11.
    assert_eq!(
        entry_of(&o, "c2", "prov", "b-0-prov").as_deref(),
        Some("172.22.0.11")
    );
    assert!(
        matching(
            &o,
            Severity::Warning,
            Want {
                says: &["are outside network"],
                ..Want::default()
            }
        )
        .is_empty(),
        "{}",
        dump(&o)
    );
    // Only one family's cidr listed: both pools are partly inside, on the network, warned.
    let v4_only = config(json!({"networks": [{"name": "prov", "cidr": "172.22.0.0/24"}]}));
    let o = run_docs(&dual_stack_clusters(), Some(&v4_only));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "prov", "b-0-prov").as_deref(),
        Some("172.22.0.11")
    );
    // One warning for each cluster's pool.
    let found = matching(
        &o,
        Severity::Warning,
        Want {
            path: Some("spec.pools"),
            says: &[
                "are outside network prov: widen the network's cidrs to cover the pool (one per \
                     address family), or narrow spec.pools. Inside: 172.22.0.0/24 of \
                     spec.networks[0]; outside every cidr of prov: fd00:22::10",
            ],
            ..Want::default()
        },
    );
    let mut namespaces: Vec<&str> = found
        .iter()
        .filter_map(|f| f.resource_ref.as_ref()?.namespace.as_deref())
        .collect();
    namespaces.sort();
    assert_eq!(namespaces, ["c1", "c2"], "{}", dump(&o));
}

#[test]
fn a_dual_stack_network_guards_files_on_disk_run_through_the_binary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = dual_stack_clusters();
    std::fs::write(dir.path().join("c1.yaml"), stream(&docs[..2])).expect("write");
    std::fs::write(dir.path().join("c2.yaml"), stream(&docs[2..])).expect("write");
    let cfg = dir.path().join("ipreuse.cfg");
    std::fs::write(
        &cfg,
        serde_json::to_string(&dual_stack_config()).expect("json"),
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ipreuse"))
        .arg("--config")
        .arg(&cfg)
        .arg("--in-place")
        .arg(dir.path().join("c1.yaml"))
        .arg(dir.path().join("c2.yaml"))
        .output()
        .expect("run ipreuse");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let c2 = std::fs::read_to_string(dir.path().join("c2.yaml")).expect("read");
    assert_eq!(
        entries(&c2).remove(&("c2".to_string(), "prov".to_string())),
        Some(vec![("b-0-prov".to_string(), "172.22.0.11".to_string())]),
        "{c2}\n{stderr}"
    );
}

#[test]
fn ipv6_networks_share_too_and_one_name_may_have_both_families() {
    let docs = vec![
        pool("v6", "c1")
            .range(range("fd00:22::10", "fd00:22::1f"))
            .prefix(64)
            .entry("a-0-v6", "fd00:22::1a")
            .yaml(),
        pool("v4", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("a-0", "c1").yaml(),
        pool("v6", "c2")
            .range(range("fd00:22::1a", "fd00:22::2f"))
            .prefix(64)
            .yaml(),
        pool("v4", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").yaml(),
    ];
    let cfg = config(json!({"networks": [
        {"name": "prov", "cidr": "172.22.0.0/24"},
        {"name": "prov", "cidr": "fd00:22::/64"},
    ]}));
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "v6", "b-0-v6").as_deref(),
        Some("fd00:22::1b")
    );
    // c1's a-0 takes .10 in v4 first; c2's b-0 then gets .11.
    assert_eq!(
        entry_of(&o, "c1", "v4", "a-0-v4").as_deref(),
        Some("172.22.0.10")
    );
    assert_eq!(
        entry_of(&o, "c2", "v4", "b-0-v4").as_deref(),
        Some("172.22.0.11")
    );
}

// ---- sharing ---------------------------------------------------------------------------------

#[test]
fn pins_live_addresses_and_gateways_of_other_clusters_are_taken() {
    // c1 (.10–.19): gateway .12, a live claim on .10, a pin of a-0 on .11. c2 walks the same
    // range and must skip all three.
    let docs = vec![
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .gateway("172.22.0.12")
            .live("legacy-claim", "172.22.0.10")
            .yaml(),
        host("a-0", "c1").pin("prov", "172.22.0.11").yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").yaml(),
        host("b-1", "c2").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c1", "prov", "a-0-prov").as_deref(),
        Some("172.22.0.11")
    );
    assert_eq!(
        pool_entries(&o, "c2", "prov"),
        pairs(&[("b-0-prov", "172.22.0.13"), ("b-1-prov", "172.22.0.14")])
    );
}

#[test]
fn a_later_namespace_fills_after_an_earlier_one_whatever_the_input_order() {
    // c2 is first in the input, c1 fills first all the same: c1's host takes .10.
    let docs = vec![
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("z", "c2").yaml(),
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("z", "c1").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c1", "prov", "z-prov").as_deref(),
        Some("172.22.0.10")
    );
    assert_eq!(
        entry_of(&o, "c2", "prov", "z-prov").as_deref(),
        Some("172.22.0.11")
    );
}

#[test]
fn sharing_is_not_transitive_through_a_namespace() {
    // c1 has `prov` (on the network) and `local` (no network, overlapping prov in c1). c2's
    // `prov` sees c1's prov, not c1's local: local's entry .15 stays free for c2.
    let docs = vec![
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.12"))
            .prefix(24)
            .entry("x-prov", "172.22.0.10")
            .yaml(),
        pool("local", "c1")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "prov", "b-0-prov").as_deref(),
        Some("172.22.0.11")
    );
    assert!(!summary(&o, "c1", "local").contains("network"));
}

#[test]
fn one_address_for_two_hosts_of_two_clusters_is_an_error_naming_both() {
    let docs = vec![
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .entry("a-0-prov", "172.22.0.15")
            .yaml(),
        host("a-0", "c1").yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .entry("b-0-prov", "172.22.0.15")
            .yaml(),
        host("b-0", "c2").yaml(),
    ];
    // Without a network: two independent clusters, no error.
    assert_no_errors(&run_docs(&docs, None));
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.b-0-prov"),
            object: Some(("IPPool", "prov")),
            says: &[
                "network prov",
                "IPPool c2/prov gives 172.22.0.15 to host b-0 of namespace c2",
                "IPPool c1/prov",
                "host a-0 of namespace c1",
            ],
        },
    );
}

/// c1's pool shows the claim of host a-0 holding .15; c2's pool gives .15 to host b-0 by an
/// entry. Which namespace holds which side is swapped by `swap`.
fn live_in_one_cluster_given_in_the_other(swap: bool) -> Vec<String> {
    let (live_ns, entry_ns) = if swap { ("c2", "c1") } else { ("c1", "c2") };
    vec![
        pool("prov", live_ns)
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .live("a-0-prov", "172.22.0.15")
            .yaml(),
        host("a-0", live_ns).yaml(),
        pool("prov", entry_ns)
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .entry("b-0-prov", "172.22.0.15")
            .yaml(),
        host("b-0", entry_ns).yaml(),
    ]
}

#[test]
fn a_live_address_of_another_clusters_host_stops_an_entry() {
    for swap in [false, true] {
        let (live_ns, entry_ns) = if swap { ("c2", "c1") } else { ("c1", "c2") };
        let docs = live_in_one_cluster_given_in_the_other(swap);
        // Without a network the clusters are independent: no error.
        assert_no_errors(&run_docs(&docs, None));
        let o = run_docs(&docs, Some(&prov_config(json!({}))));
        assert_transactional(&o, &[stream(&docs).as_str()]);
        let says = format!(
            "entry b-0-prov: 172.22.0.15 is in use by claim a-0-prov of host a-0: choose another \
             address. That claim holds it in IPPool {live_ns}/prov (status.indexes), while this \
             gives it to host b-0 in IPPool {entry_ns}/prov: both claims would hold it at once"
        );
        let found = matching(
            &o,
            Severity::Error,
            Want {
                path: Some("spec.preAllocations.b-0-prov"),
                object: Some(("IPPool", "prov")),
                says: &[&says],
            },
        );
        assert!(
            found.iter().any(|f| f
                .resource_ref
                .as_ref()
                .is_some_and(|r| r.namespace.as_deref() == Some(entry_ns))),
            "{}",
            dump(&o)
        );
    }
}

#[test]
fn a_pin_on_another_clusters_address_is_an_error() {
    let docs = vec![
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .entry("a-0-prov", "172.22.0.15")
            .yaml(),
        host("a-0", "c1").yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").pin("prov", "172.22.0.15").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    // At the pin on b-0 (the entry b-0-prov does not exist), naming a-0's entry.
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.prov]"),
            object: Some(("BareMetalHost", "b-0")),
            says: &[
                "host b-0 of namespace c2 (pin ipreuse.dev/ip.prov of BareMetalHost b-0",
                "IPPool c1/prov gives it to host a-0 of namespace c1 (entry a-0-prov)",
            ],
        },
    );
}

#[test]
fn control_plane_endpoints_of_every_cluster_on_the_network_are_reserved() {
    // c1's endpoint .10 is reserved in c2's pool too; c3 (not on the network) is not affected.
    let docs = vec![
        cluster("one", "c1", "172.22.0.10"),
        pool("prov", "c1")
            .range(range("172.22.0.20", "172.22.0.29"))
            .prefix(24)
            .yaml(),
        pool("prov", "c2")
            .range(range("172.22.0.10", "172.22.0.19"))
            .prefix(24)
            .yaml(),
        host("b-0", "c2").yaml(),
        pool("prov", "c3")
            .range(range("10.1.0.10", "10.1.0.19"))
            .prefix(24)
            .yaml(),
        cluster("three", "c3", "172.22.0.11"),
        host("d-0", "c3").yaml(),
    ];
    let o = run_docs(&docs, Some(&prov_config(json!({}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "prov", "b-0-prov").as_deref(),
        Some("172.22.0.11")
    );
    // A pin on the other cluster's endpoint is an error that says whose it is.
    let mut pinned = docs.clone();
    pinned[3] = host("b-0", "c2").pin("prov", "172.22.0.10").yaml();
    let o = run_docs(&pinned, Some(&prov_config(json!({}))));
    assert_transactional(&o, &[stream(&pinned).as_str()]);
    assert_error(
        &o,
        Want {
            says: &[
                "172.22.0.10 is reserved: the control-plane endpoint of Cluster c1/one in \
                 namespace c1, on network prov with this pool",
            ],
            ..Want::default()
        },
    );
}

#[test]
fn configmap_form_takes_name_equals_cidr() {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"networks": "prov=172.22.0.0/16, ext=fd00::/64", "strictNetworks": "false"}});
    let o = run_docs(&issue_clusters(), Some(&cm));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "c2", "provisioning-pool", "b-0-provisioning-pool").as_deref(),
        Some("172.22.0.141")
    );
}

#[test]
fn bad_network_config_and_annotation_are_errors_naming_the_field() {
    let docs = issue_clusters();
    for (cfg, path, says) in [
        (
            config(json!({"networks": [{"name": "prov", "cidr": "172.22.0.1"}]})),
            "spec.networks[0]",
            "is not a CIDR",
        ),
        (
            config(json!({"networks": [{"name": "Prov", "cidr": "172.22.0.0/16"}]})),
            "spec.networks[0]",
            "DNS-1123 label",
        ),
        (
            config(json!({"networks": [{"name": "prov"}]})),
            "spec.networks[0]",
            "needs name and cidr",
        ),
        (
            config(json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "vlan": 3}]})),
            "spec.networks[0].vlan",
            "unknown field",
        ),
        (
            config(json!({"strictNetworks": "yes"})),
            "spec.strictNetworks",
            "true or false",
        ),
        (
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
                "data": {"networks": "prov:172.22.0.0/16"}}),
            "data.networks",
            "name=cidr",
        ),
    ] {
        let o = run_docs(&docs, Some(&cfg));
        assert_transactional(&o, &[stream(&docs).as_str()]);
        assert_error(
            &o,
            Want {
                path: Some(path),
                says: &[says],
                ..Want::default()
            },
        );
    }
    let mut bad = issue_clusters();
    bad[3] = on_network(bad[3].clone(), "Not_A_Label");
    let o = run_docs(&bad, None);
    assert_transactional(&o, &[stream(&bad).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/network]"),
            says: &["DNS-1123 label"],
            ..Want::default()
        },
    );
}
