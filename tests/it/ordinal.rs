//! SPEC §5 `strategy: ordinal`: host n takes the candidate at walk position `ordinalOffset + n`;
//! every refusal is an error naming the host, never a shift. Expected addresses are derived
//! from the rule in each test: position p of a range starting at 10.0.0.10 is 10.0.0.(10 + p).

use crate::common;

use common::*;
use ipreuse::results::Severity;
use proptest::prelude::*;
use serde_json::{Value, json};

/// `ns/pool`: 10.0.0.10–10.0.0.40, prefix 24.
fn v4_pool() -> Pool {
    pool("pool", "ns")
        .range(range("10.0.0.10", "10.0.0.40"))
        .prefix(24)
}

fn ordinal(offset: u64) -> Value {
    config(json!({"strategy": "ordinal", "ordinalOffset": offset}))
}

fn docs(hosts: &[Host], pool: Pool) -> Vec<String> {
    let mut d: Vec<String> = hosts.iter().map(Host::yaml).collect();
    d.push(pool.yaml());
    d
}

fn hosts(names: &[&str]) -> Vec<Host> {
    names.iter().map(|n| host(n, "ns")).collect()
}

fn filled(docs: &[String], offset: u64) -> Vec<(String, String)> {
    let o = run_docs(docs, Some(&ordinal(offset)));
    assert_no_errors(&o);
    let mut e = pool_entries(&o, "ns", "pool");
    e.sort();
    e
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<_> = list
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    v.sort();
    v
}

fn fails(docs: &[String], offset: u64) -> ipreuse::run::Outcome {
    let o = run_docs(docs, Some(&ordinal(offset)));
    assert_transactional(&o, &[stream(docs).as_str()]);
    o
}

#[test]
fn host_n_takes_walk_position_offset_plus_n() {
    let d = docs(
        &hosts(&["rack1-node3", "rack1-node7", "rack2-node12"]),
        v4_pool(),
    );
    assert_eq!(
        filled(&d, 0),
        pairs(&[
            ("rack1-node3-pool", "10.0.0.13"),
            ("rack1-node7-pool", "10.0.0.17"),
            ("rack2-node12-pool", "10.0.0.22"),
        ])
    );
    assert_eq!(
        filled(&d, 5),
        pairs(&[
            ("rack1-node3-pool", "10.0.0.18"),
            ("rack1-node7-pool", "10.0.0.22"),
            ("rack2-node12-pool", "10.0.0.27"),
        ])
    );
}

#[test]
fn the_label_wins_over_the_name() {
    let d = docs(
        &[
            host("controller", "ns").label("ipreuse.dev/ordinal", "2"),
            host("node-9", "ns").label("ipreuse.dev/ordinal", "4"),
        ],
        v4_pool(),
    );
    assert_eq!(
        filled(&d, 0),
        pairs(&[
            ("controller-pool", "10.0.0.12"),
            ("node-9-pool", "10.0.0.14")
        ])
    );
}

#[test]
fn positions_count_candidates_across_ranges_in_walk_order() {
    // Two ranges of three: positions 0-2 are .10-.12, positions 3-5 are .50-.52.
    let p = pool("pool", "ns")
        .range(range("10.0.0.10", "10.0.0.12"))
        .range(range("10.0.0.50", "10.0.0.52"))
        .prefix(24);
    let d = docs(&hosts(&["n-1", "n-4"]), p);
    assert_eq!(
        filled(&d, 0),
        pairs(&[("n-1-pool", "10.0.0.11"), ("n-4-pool", "10.0.0.51")])
    );
}

#[test]
fn existing_entries_pins_and_live_addresses_come_before_the_strategy() {
    let d = docs(
        &[
            host("node-1", "ns"),
            host("node-2", "ns").pin("pool", "10.0.0.30"),
            host("node-3", "ns"),
        ],
        v4_pool()
            .entry("node-1-pool", "10.0.0.25")
            .live("node-3-pool", "10.0.0.33"),
    );
    assert_eq!(
        filled(&d, 0),
        pairs(&[
            ("node-1-pool", "10.0.0.25"),
            ("node-2-pool", "10.0.0.30"),
            ("node-3-pool", "10.0.0.33"),
        ])
    );
}

#[test]
fn a_reserved_position_is_an_error_never_a_shift() {
    // Position 1 is 10.0.0.11, the gateway.
    let d = docs(
        &hosts(&["node-1", "node-2"]),
        v4_pool().gateway("10.0.0.11"),
    );
    let o = fails(&d, 0);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "cannot take 10.0.0.11, position 1 of IPPool",
                "reserved",
                "gateway",
                "never shifts",
            ],
        },
    );
    assert_eq!(errors(&o).len(), 1, "{}", dump(&o));
}

#[test]
fn a_taken_position_is_an_error_naming_the_holder() {
    let d = docs(
        &hosts(&["node-1", "node-2"]),
        v4_pool().entry("old-host-pool", "10.0.0.12"),
    );
    let o = fails(&d, 0);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-2")),
            says: &["10.0.0.12", "taken", "entry old-host-pool"],
        },
    );
}

#[test]
fn a_position_past_the_last_candidate_is_an_error() {
    let d = docs(&hosts(&["node-31"]), v4_pool());
    let o = fails(&d, 0);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-31")),
            says: &[
                "needs position 31",
                "which holds no address",
                "positions 0 to 30",
            ],
        },
    );
    // Position 30 is the last candidate, 10.0.0.40.
    let d = docs(&hosts(&["node-30"]), v4_pool());
    assert_eq!(filled(&d, 0), pairs(&[("node-30-pool", "10.0.0.40")]));
}

#[test]
fn a_position_past_the_walk_cap_says_the_cap_is_the_cause_not_the_ranges() {
    // A `start`-only range walks on without end; ipreuse counts positions up to 2^20 only.
    let unbounded = || pool("pool", "ns").range(start_only("10.0.0.10")).prefix(24);
    // Position 2^20 is the last one: 10.0.0.10 + 2^20 = 10.16.0.10.
    let d = docs(&hosts(&["node-0"]), unbounded());
    assert_eq!(filled(&d, 1 << 20), pairs(&[("node-0-pool", "10.16.0.10")]));
    let d = docs(&hosts(&["node-1"]), unbounded());
    let o = fails(&d, 1 << 20);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "needs position 1048577",
                "past the last the IPAM reaches",
                "up to 1048576 (2^20)",
                "widening spec.pools cannot help",
                "lower ordinalOffset or the host's number",
                "ordinalOffset is 1048576",
            ],
        },
    );
    assert!(
        errors(&o)
            .iter()
            .all(|f| !f.message.contains("widen spec.pools")),
        "{}",
        dump(&o)
    );
}

#[test]
fn two_hosts_with_one_number_are_both_errors() {
    let d = docs(
        &hosts(&["rack1-node1", "rack2-node1", "rack2-node2"]),
        v4_pool(),
    );
    let o = fails(&d, 0);
    for (h, other) in [
        ("rack1-node1", "rack2-node1"),
        ("rack2-node1", "rack1-node1"),
    ] {
        assert_error(
            &o,
            Want {
                path: Some("metadata.name"),
                object: Some(("BareMetalHost", h)),
                says: &["number 1", other],
            },
        );
    }
    assert_eq!(errors(&o).len(), 2, "{}", dump(&o));
}

#[test]
fn a_host_without_a_number_or_with_a_bad_label_is_an_error() {
    let d = docs(
        &[
            host("controller", "ns"),
            host("node-1", "ns").label("ipreuse.dev/ordinal", "one"),
        ],
        v4_pool(),
    );
    let o = fails(&d, 0);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "controller")),
            says: &["no digits", "ipreuse.dev/ordinal"],
        },
    );
    assert_error(
        &o,
        Want {
            path: Some("metadata.labels.[ipreuse.dev/ordinal]"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["\"one\"", "not a number"],
        },
    );
}

#[test]
fn a_host_with_an_entry_needs_no_number() {
    let d = docs(
        &hosts(&["controller", "node-1"]),
        v4_pool().entry("controller-pool", "10.0.0.20"),
    );
    assert_eq!(
        filled(&d, 0),
        pairs(&[
            ("controller-pool", "10.0.0.20"),
            ("node-1-pool", "10.0.0.11")
        ])
    );
}

/// Renders at deploy time, as kustomize or Argo CD do: the sources never get the entries
/// back, so every render starts from the pool as written in Git.
#[test]
fn rendering_without_write_back_keeps_every_earlier_host_in_place() {
    let before = hosts(&["rack1-node3", "rack1-node5", "rack2-node20"]);
    let mut after = before.clone();
    after.extend(hosts(&["rack1-node1", "rack1-node4", "rack2-node21"]));
    let first = filled(&docs(&before, v4_pool()), 2);
    let second = filled(&docs(&after, v4_pool()), 2);
    for entry in &first {
        assert!(second.contains(entry), "{entry:?} moved: {second:?}");
    }
    assert_eq!(second.len(), 6);
    // Under sequential, the same change moves hosts: that is why ordinal exists.
    let seq = |h: &[Host]| {
        let o = run_docs(&docs(h, v4_pool()), None);
        assert_no_errors(&o);
        pool_entries(&o, "ns", "pool")
    };
    let (s1, s2) = (seq(&before), seq(&after));
    assert!(s1.iter().any(|e| !s2.contains(e)), "{s1:?} {s2:?}");
}

proptest! {
    #![proptest_config(pt_config_persisted(32))]

    /// A host's address depends on the host and the pool only: over random sets of numbered
    /// hosts, every host that is present gets the address of its own position.
    #[test]
    fn a_hosts_address_does_not_depend_on_which_other_hosts_exist(
        numbers in proptest::collection::btree_set(0u64..31, 1..12),
        offset in 0u64..5,
        subset in proptest::collection::vec(any::<bool>(), 12),
    ) {
        let numbers: Vec<u64> = numbers.into_iter().filter(|n| n + offset <= 30).collect();
        prop_assume!(!numbers.is_empty());
        let all: Vec<Host> = numbers.iter().map(|n| host(&format!("node-{n}"), "ns")).collect();
        let some: Vec<Host> = all
            .iter()
            .zip(&subset)
            .filter(|(_, keep)| **keep)
            .map(|(h, _)| h.clone())
            .collect();
        let full = filled(&docs(&all, v4_pool()), offset);
        let part = filled(&docs(&some, v4_pool()), offset);
        for (key, addr) in &part {
            prop_assert!(full.contains(&(key.clone(), addr.clone())));
        }
        for n in &numbers {
            let want = (format!("node-{n}-pool"), format!("10.0.0.{}", 10 + n + offset));
            prop_assert!(full.contains(&want));
        }
    }
}

#[test]
fn results_of_an_ordinal_run_are_the_usual_summary() {
    let d = docs(&hosts(&["node-1"]), v4_pool());
    let o = run_docs(&d, Some(&ordinal(0)));
    assert!(
        !matching(
            &o,
            Severity::Info,
            Want {
                path: None,
                object: Some(("IPPool", "pool")),
                says: &["1 added"],
            }
        )
        .is_empty(),
        "{}",
        dump(&o)
    );
}
