//! SPEC §5: precedence, validation, text, strategies, exhaustion, overlap, prune, reserved.
//! Every expected address is derived from the rules, by hand, in the test.

use crate::common;

use common::*;
use ipreuse::results::Severity;
use serde_json::json;

/// `ns/pool`: 10.0.0.10–10.0.0.20, prefix 24, no gateway.
fn v4_pool() -> Pool {
    pool("pool", "ns")
        .range(range("10.0.0.10", "10.0.0.20"))
        .prefix(24)
}

fn hosts(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| host(n, "ns").yaml()).collect()
}

fn with(mut docs: Vec<String>, more: impl IntoIterator<Item = String>) -> Vec<String> {
    docs.extend(more);
    docs
}

/// Fills and returns the entries of `ns/pool`; the run must have no error.
fn fill(docs: &[String]) -> (ipreuse::run::Outcome, Vec<(String, String)>) {
    let o = run_docs(docs, None);
    assert_no_errors(&o);
    let e = pool_entries(&o, "ns", "pool");
    (o, e)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Runs, expects the run to fail and every item to come back unchanged.
fn fails(docs: &[String]) -> ipreuse::run::Outcome {
    let o = run_docs(docs, None);
    assert_transactional(&o, &[stream(docs).as_str()]);
    o
}

// ---- 1. existing entry: the lock ------------------------------------------------------------

#[test]
fn existing_entry_outside_the_range_is_an_error_and_not_reassigned() {
    let docs = with(
        hosts(&["node-1", "node-2"]),
        [v4_pool().entry("node-1-pool", "10.0.0.99").yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.99"],
        },
    );
}

#[test]
fn existing_entry_on_an_entry_level_dns_server_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20").prefix(24))
            .yaml()
            .replace(
                "    prefix: 24\n",
                "    prefix: 24\n    dnsServers: [10.0.0.13]\n",
            )
            + "  preAllocations:\n    node-1-pool: \"10.0.0.13\"\n"],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &[
                "entry node-1-pool: 10.0.0.13 is reserved (rule 1): a DNS server of spec.pools[0] \
                 (dnsServers)",
            ],
        },
    );
}

#[test]
fn duplicate_existing_entries_are_an_error() {
    let docs = with(
        hosts(&["node-1", "node-2", "node-3"]),
        [v4_pool()
            .entry("node-1-pool", "10.0.0.11")
            .entry("node-2-pool", "10.0.0.11")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.11", "node-1-pool", "node-2-pool"],
            ..Want::default()
        },
    );
}

#[test]
fn existing_host_entry_held_live_by_another_host_is_an_error() {
    // status.indexes shows node-2's claim holding 10.0.0.14: node-1's entry cannot have it.
    let docs = with(
        hosts(&["node-1", "node-2"]),
        [v4_pool()
            .entry("node-1-pool", "10.0.0.14")
            .live("node-2-pool", "10.0.0.14")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.14", "node-2-pool"],
        },
    );
}

// ---- 2. pins --------------------------------------------------------------------------------

#[test]
fn pin_is_used_when_there_is_no_entry_and_is_taken_from_the_others() {
    // node-2 pins the lowest address; node-1 (first in order) must skip it.
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").pin("pool", "10.0.0.10").yaml(),
        host("node-3", "ns").pin("pool", "10.0.0.17").yaml(),
        v4_pool().yaml(),
    ];
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[
            ("node-1-pool", "10.0.0.11"),
            ("node-2-pool", "10.0.0.10"),
            ("node-3-pool", "10.0.0.17"),
        ])
    );
}

#[test]
fn pin_differing_from_the_existing_entry_is_an_error() {
    let docs = vec![
        host("node-1", "ns").pin("pool", "10.0.0.12").yaml(),
        v4_pool().entry("node-1-pool", "10.0.0.11").yaml(),
    ];
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["10.0.0.12", "10.0.0.11"],
        },
    );
}

#[test]
fn pin_equal_to_the_existing_entry_is_fine() {
    let docs = vec![
        host("node-1", "ns").pin("pool", "10.0.0.11").yaml(),
        v4_pool().entry("node-1-pool", "10.0.0.11").yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [false]);
}

fn pin_on_the_gateway() -> Vec<String> {
    vec![
        host("node-1", "ns").pin("pool", "10.0.0.10").yaml(),
        v4_pool().gateway("10.0.0.10").yaml(),
    ]
}

#[test]
fn pin_on_the_gateway_is_an_error() {
    let o = fails(&pin_on_the_gateway());
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            says: &["10.0.0.10", "gateway"],
            ..Want::default()
        },
    );
}

#[test]
fn pin_on_the_gateway_error_names_the_host() {
    // The field is the host's annotation, so the result must be about the host (SPEC §9),
    // as the other pin errors (differs from the entry, not a candidate) are.
    let o = fails(&pin_on_the_gateway());
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["10.0.0.10"],
        },
    );
}

#[test]
fn pin_outside_the_pool_is_an_error() {
    let docs = vec![
        host("node-1", "ns").pin("pool", "10.0.0.99").yaml(),
        v4_pool().yaml(),
    ];
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["10.0.0.99"],
        },
    );
}

#[test]
fn pin_on_an_address_another_host_holds_live_is_an_error() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").pin("pool", "10.0.0.12").yaml(),
        v4_pool().live("node-1-pool", "10.0.0.12").yaml(),
    ];
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            says: &["10.0.0.12", "node-1-pool"],
            ..Want::default()
        },
    );
}

#[test]
fn pin_differing_from_the_live_address_is_used_with_a_warning() {
    let docs = vec![
        host("node-1", "ns").pin("pool", "10.0.0.12").yaml(),
        v4_pool().live("node-1-pool", "10.0.0.13").yaml(),
    ];
    let (o, e) = fill(&docs);
    assert_eq!(e, pairs(&[("node-1-pool", "10.0.0.12")]));
    // At the pin, which exists in the input: the entry does not yet.
    assert_warning(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "pin ipreuse.dev/ip.pool of host node-1 = 10.0.0.12 differs from the address claim \
                 node-1-pool holds now in IPPool ns/pool (10.0.0.13, status.indexes)",
            ],
        },
    );
}

#[test]
fn two_pins_on_one_address_name_each_other() {
    let docs = vec![
        host("node-1", "ns").pin("pool", "10.0.0.12").yaml(),
        host("node-2", "ns").pin("pool", "10.0.0.12").yaml(),
        v4_pool().yaml(),
    ];
    let o = fails(&docs);
    for (h, other) in [("node-1", "node-2"), ("node-2", "node-1")] {
        assert_error(
            &o,
            Want {
                path: Some("metadata.annotations.[ipreuse.dev/ip.pool]"),
                object: Some(("BareMetalHost", h)),
                says: &[&format!(
                    "pin 10.0.0.12 for IPPool ns/pool is pinned by another host too: {other}"
                )],
            },
        );
    }
}

// ---- 3. live address ------------------------------------------------------------------------

#[test]
fn live_address_is_used_when_still_a_free_candidate() {
    let docs = with(
        hosts(&["node-1", "node-2"]),
        [v4_pool().live("node-2-pool", "10.0.0.10").yaml()],
    );
    let (_, e) = fill(&docs);
    // node-2 keeps its live 10.0.0.10; node-1 takes the next free one.
    assert_eq!(
        e,
        pairs(&[("node-1-pool", "10.0.0.11"), ("node-2-pool", "10.0.0.10")])
    );
}

#[test]
fn live_address_on_the_gateway_gives_a_warning_and_the_strategy() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .gateway("10.0.0.15")
            .live("node-1-pool", "10.0.0.15")
            .yaml()],
    );
    let (o, e) = fill(&docs);
    assert_eq!(e, pairs(&[("node-1-pool", "10.0.0.10")]));
    assert_warning(
        &o,
        Want {
            path: Some("status.indexes.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &[
                "claim node-1-pool holds 10.0.0.15 now (status.indexes), which cannot be preallocated \
                 to it: it is reserved (rule 1): the gateway of the pool (spec.gateway)",
            ],
        },
    );
}

// ---- in use (SPEC §5 "In use") --------------------------------------------------------------

#[test]
fn live_address_no_entry_admits_is_an_error_naming_claim_and_address() {
    // The IPAM webhook rejects an update whose spec.pools no longer bound an address in use,
    // whoever holds it: a host's claim or any other.
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .live("node-1-pool", "10.0.0.50")
            .live("legacy-claim", "10.0.0.9")
            .live("fine", "10.0.0.20")
            .yaml()],
    );
    let o = fails(&docs);
    for (claim, addr) in [("node-1-pool", "10.0.0.50"), ("legacy-claim", "10.0.0.9")] {
        assert_error(
            &o,
            Want {
                path: Some("spec.pools"),
                object: Some(("IPPool", "pool")),
                says: &[
                    claim,
                    addr,
                    "no entry of spec.pools admits",
                    "is in use but out of bounds",
                ],
            },
        );
    }
    assert_eq!(errors(&o).len(), 2, "{}", dump(&o));
    // One result for one cause: no warning that node-1 moves on top of the error.
    assert!(
        warnings(&o)
            .iter()
            .all(|w| !w.message.contains("10.0.0.50")),
        "{}",
        dump(&o)
    );
}

#[test]
fn live_address_that_is_not_an_address_is_an_error() {
    // netip.ParseAddr fails, so the webhook counts it out of bounds of every entry.
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().live("other", "10.0.0.010").yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("status.indexes.other"),
            object: Some(("IPPool", "pool")),
            says: &["other", "10.0.0.010", "not an IP address"],
        },
    );
}

#[test]
fn live_address_out_of_bounds_in_an_unmanaged_pool_is_not_checked() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        v4_pool().yaml(),
        pool("other", "ns")
            .range(range("10.1.0.10", "10.1.0.20"))
            .live("x", "10.1.0.50")
            .yaml(),
    ];
    let o = run_docs(&docs, Some(&config(json!({"pools": ["ns/pool"]}))));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "pool"),
        [("node-1-pool".to_string(), "10.0.0.10".to_string())]
    );
    assert_eq!(
        pool_entries(&o, "ns", "other"),
        [],
        "not managed: not filled"
    );
}

#[test]
fn live_address_the_webhook_admits_but_the_walk_never_reaches_gives_a_warning_and_the_strategy() {
    // The entry with only an end gives the walk nothing, but the webhook's bounds admit 10.0.0.3:
    // the update is accepted, and 10.0.0.3 cannot be preallocated (the claim would fail).
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .range(Range {
                end: Some("10.0.0.5".into()),
                ..Range::default()
            })
            .live("node-1-pool", "10.0.0.3")
            .yaml()],
    );
    let (o, e) = fill(&docs);
    assert_eq!(e, pairs(&[("node-1-pool", "10.0.0.10")]));
    assert_warning(
        &o,
        Want {
            path: Some("status.indexes.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &[
                "claim node-1-pool holds 10.0.0.3 now (status.indexes), which cannot be preallocated \
                 to it: it is not a candidate of this pool",
                "host node-1 moves",
            ],
        },
    );
}

#[test]
fn in_use_bounds_are_family_blind_as_the_webhook_is() {
    // The webhook orders every IPv4 address before every IPv6 one: an IPv4 entry with only a
    // start admits every IPv6 address, so the update is accepted (no error); the address is no
    // candidate, so the host gets a new one, with a warning. With an end the IPv6 address is out.
    let live = "2001:db8::5";
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(start_only("10.0.0.10"))
            .prefix(24)
            .live("node-1-pool", live)
            .yaml()],
    );
    let (o, e) = fill(&docs);
    assert_eq!(e, pairs(&[("node-1-pool", "10.0.0.10")]));
    assert_warning(
        &o,
        Want {
            path: Some("status.indexes.node-1-pool"),
            says: &[live],
            ..Want::default()
        },
    );
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().live("node-1-pool", live).yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools"),
            says: &["node-1-pool", live],
            ..Want::default()
        },
    );
}

#[test]
fn live_address_held_by_another_pools_entry_is_not_reused() {
    // pool-a (filled first) overlaps pool-b and holds .10 in the entry of a host that is gone
    // (not a host of the input: only a warning). node-1's live .10 in pool-b is taken by that
    // entry, so node-1 gets the strategy and a warning that says which entry of which pool.
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .entry("node-1-pool-a", "10.0.0.11")
            .entry("gone-pool-a", "10.0.0.10")
            .yaml(),
        pool("pool-b", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .live("node-1-pool-b", "10.0.0.10")
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    // pool-a: .10 (gone's entry, and pool-b's live claim) and .11 (node-1) are held: node-2
    // takes .12. pool-b: .10, .11, .12 are held: node-1 takes .13, node-2 .14.
    assert_eq!(
        pool_entries(&o, "ns", "pool-a"),
        pairs(&[
            ("node-1-pool-a", "10.0.0.11"),
            ("gone-pool-a", "10.0.0.10"),
            ("node-2-pool-a", "10.0.0.12")
        ])
    );
    assert_eq!(
        pool_entries(&o, "ns", "pool-b"),
        pairs(&[
            ("node-1-pool-b", "10.0.0.13"),
            ("node-2-pool-b", "10.0.0.14")
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("status.indexes.node-1-pool-b"),
            object: Some(("IPPool", "pool-b")),
            says: &[
                "claim node-1-pool-b holds 10.0.0.10 now (status.indexes)",
                "it is taken: entry gone-pool-a of IPPool ns/pool-a holds it",
                "host node-1 moves",
            ],
        },
    );
}

/// The reproduction: pool `prov` of namespace `a` shows node-1's claim holding
/// 172.22.0.15; the overlapping pool `prov2` gives it to node-7 (an entry, or a pin).
fn live_in_prov_given_in_prov2(entry: bool, live_claim: &str) -> Vec<String> {
    let mut prov2 = pool("prov2", "a")
        .range(range("172.22.0.10", "172.22.0.100"))
        .prefix(24);
    let mut node7 = host("node-7", "a");
    if entry {
        prov2 = prov2.entry("node-7-prov2", "172.22.0.15");
    } else {
        node7 = node7.pin("prov2", "172.22.0.15");
    }
    vec![
        host("node-1", "a").yaml(),
        node7.yaml(),
        pool("prov", "a")
            .range(range("172.22.0.10", "172.22.0.100"))
            .prefix(24)
            .live(live_claim, "172.22.0.15")
            .yaml(),
        prov2.yaml(),
    ]
}

#[test]
fn an_entry_on_the_live_address_of_another_pools_host_is_an_error() {
    let docs = live_in_prov_given_in_prov2(true, "node-1-prov");
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-7-prov2"),
            object: Some(("IPPool", "prov2")),
            says: &[
                "entry node-7-prov2: 172.22.0.15 is in use by claim node-1-prov of host node-1 in \
                 IPPool a/prov (status.indexes), while this gives it to host node-7 in IPPool a/prov2: \
                 both claims would hold it at once",
            ],
        },
    );
}

#[test]
fn an_entry_on_the_live_address_of_another_pools_host_fails_the_binary_and_writes_nothing() {
    // As an operator runs it: the package on disk, `--in-place`, then the plain command.
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = live_in_prov_given_in_prov2(true, "node-1-prov");
    let hosts_file = dir.path().join("hosts.yaml");
    let pools_file = dir.path().join("pools.yaml");
    std::fs::write(&hosts_file, stream(&docs[..2])).expect("write");
    std::fs::write(&pools_file, stream(&docs[2..])).expect("write");
    let before = [
        std::fs::read(&hosts_file).expect("read"),
        std::fs::read(&pools_file).expect("read"),
    ];
    let dir_arg = dir.path().to_str().expect("utf-8 path");
    for args in [vec!["--in-place", dir_arg], vec![dir_arg]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ipreuse"))
            .args(&args)
            .output()
            .expect("run ipreuse");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("claim node-1-prov of host node-1 in IPPool a/prov")
                && stderr.contains("host node-7 in IPPool a/prov2"),
            "{stderr}"
        );
        assert_eq!(std::fs::read(&hosts_file).expect("read"), before[0]);
        assert_eq!(std::fs::read(&pools_file).expect("read"), before[1]);
    }
}

#[test]
fn a_pin_on_the_live_address_of_another_pools_host_is_an_error_at_the_pin() {
    let docs = live_in_prov_given_in_prov2(false, "node-1-prov");
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.prov2]"),
            object: Some(("BareMetalHost", "node-7")),
            says: &[
                "172.22.0.15 is in use by claim node-1-prov of host node-1 in IPPool a/prov \
                 (status.indexes), while this gives it to host node-7 in IPPool a/prov2",
            ],
        },
    );
}

#[test]
fn an_entry_on_an_address_another_pool_holds_for_no_host_is_a_warning() {
    // `old-claim` is no claim of a host of the input: the entry stays, with a warning that
    // names the claim and its pool.
    let docs = live_in_prov_given_in_prov2(true, "old-claim");
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "a", "prov2", "node-7-prov2").as_deref(),
        Some("172.22.0.15")
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.node-7-prov2"),
            object: Some(("IPPool", "prov2")),
            says: &[
                "172.22.0.15 is in use by claim old-claim in IPPool a/prov (status.indexes), a claim \
                 of no host of the input",
                "before host node-7 is provisioned",
            ],
        },
    );
}

#[test]
fn a_host_whose_entry_it_holds_live_in_an_overlapping_pool_is_no_conflict() {
    // node-7's own claim of prov holds .15, and prov2 gives node-7 .15: one host, no error.
    let docs = live_in_prov_given_in_prov2(true, "node-7-prov");
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "a", "prov2", "node-7-prov2").as_deref(),
        Some("172.22.0.15")
    );
}

fn live_on_overlapping_gateway() -> Vec<String> {
    // pool-a's gateway .15 is taken for the overlapping pool-b (SPEC §5 "Taken": the other
    // pool's rule-1 addresses), so node-1's live .15 in pool-b is not "free".
    vec![
        host("node-1", "ns").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .gateway("10.0.0.15")
            .yaml(),
        pool("pool-b", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .live("node-1-pool-b", "10.0.0.15")
            .yaml(),
    ]
}

#[test]
fn live_address_on_an_overlapping_pools_gateway_is_not_reused() {
    let o = run_docs(&live_on_overlapping_gateway(), None);
    assert_no_errors(&o);
    // pool-a: node-1 takes .10. pool-b: .15 is taken (pool-a's gateway), .10 too: .11.
    assert_eq!(
        pool_entries(&o, "ns", "pool-a"),
        pairs(&[("node-1-pool-a", "10.0.0.10")])
    );
    assert_eq!(
        pool_entries(&o, "ns", "pool-b"),
        pairs(&[("node-1-pool-b", "10.0.0.11")])
    );
    assert_warning(
        &o,
        Want {
            object: Some(("IPPool", "pool-b")),
            says: &["node-1-pool-b", "10.0.0.15"],
            ..Want::default()
        },
    );
}

#[test]
fn entry_on_an_address_a_foreign_claim_holds_live_is_a_warning() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .entry("node-1-pool", "10.0.0.14")
            .live("old-claim", "10.0.0.14")
            .yaml()],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.14", "old-claim"],
        },
    );
}

#[test]
fn entry_differing_from_the_live_address_is_kept_with_a_warning() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .entry("node-1-pool", "10.0.0.12")
            .live("node-1-pool", "10.0.0.13")
            .yaml()],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [false]);
    assert_warning(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.12", "10.0.0.13"],
            ..Want::default()
        },
    );
}

// ---- 4. strategy ----------------------------------------------------------------------------

#[test]
fn sequential_takes_the_lowest_free_position_in_natural_host_order() {
    // Given out of order; gateway 10.0.0.11 inside the range is skipped.
    let docs = with(
        hosts(&["node-10", "node-2", "node-1", "node1"]),
        [v4_pool().gateway("10.0.0.11").yaml()],
    );
    let (_, e) = fill(&docs);
    // Natural order: node1 < node-1 < node-2 < node-10 (SPEC §5 "Strategies").
    assert_eq!(
        e,
        pairs(&[
            ("node1-pool", "10.0.0.10"),
            ("node-1-pool", "10.0.0.12"),
            ("node-2-pool", "10.0.0.13"),
            ("node-10-pool", "10.0.0.14"),
        ])
    );
}

#[test]
fn entries_are_written_in_host_order_not_claim_name_order() {
    // Host "a" comes before "a-b" (its runs are a prefix), but the claim "a-b-pool" sorts before
    // "a-pool" byte-wise: the order of the written entries follows the hosts.
    let docs = with(hosts(&["a-b", "a"]), [v4_pool().yaml()]);
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("a-pool", "10.0.0.10"), ("a-b-pool", "10.0.0.11")])
    );
}

#[test]
fn natural_order_compares_digit_runs_by_value_and_length() {
    // 007 == 7 by value: equal keys fall back to the byte order of the whole names.
    let docs = with(hosts(&["n-10", "n-007", "n-7", "n-9"]), [v4_pool().yaml()]);
    let (_, e) = fill(&docs);
    let keys: Vec<&str> = e.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["n-007-pool", "n-7-pool", "n-9-pool", "n-10-pool"]);
    let values: Vec<&str> = e.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(values, ["10.0.0.10", "10.0.0.11", "10.0.0.12", "10.0.0.13"]);
}

#[test]
fn subnet_only_pool_skips_the_broadcast_address() {
    // 10.0.0.0/29: the walk is .1–.7; .7 is the broadcast (rule 2): six hosts fit.
    let names = ["h-1", "h-2", "h-3", "h-4", "h-5", "h-6"];
    let p = || pool("pool", "ns").range(subnet("10.0.0.0/29"));
    let (_, e) = fill(&with(hosts(&names), [p().yaml()]));
    let expected: Vec<(String, String)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("{n}-pool"), format!("10.0.0.{}", i + 1)))
        .collect();
    assert_eq!(e, expected);
    // A seventh host does not get the broadcast address: exhaustion.
    let mut seven = names.to_vec();
    seven.push("h-7");
    let o = fails(&with(hosts(&seven), [p().yaml()]));
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            says: &["h-7"],
            ..Want::default()
        },
    );
}

#[test]
fn network_address_of_the_entry_subnet_is_skipped() {
    // The walk starts at the network address .0 of the entry's subnet (rule 2): skipped.
    let docs = with(
        hosts(&["h-1", "h-2"]),
        [pool("pool", "ns")
            .range(range("10.0.0.0", "10.0.0.9").subnet("10.0.0.0/24"))
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("h-1-pool", "10.0.0.1"), ("h-2-pool", "10.0.0.2")])
    );
    // An entry on it is an error that says which rule and which entry of spec.pools.
    let docs = with(
        hosts(&["h-1"]),
        [pool("pool", "ns")
            .range(range("10.0.0.0", "10.0.0.9").subnet("10.0.0.0/24"))
            .entry("h-1-pool", "10.0.0.0")
            .yaml()],
    );
    let o = run_docs(&docs, None);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.h-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &[
                "entry h-1-pool: 10.0.0.0 is reserved (rule 2): the network or broadcast address of \
                 spec.pools[0]",
            ],
        },
    );
}

#[test]
fn network_and_broadcast_of_the_effective_prefix_are_skipped() {
    // Pool-level prefix 24, no subnet: .255 (broadcast) and 10.0.1.0 (network) are skipped.
    let names = ["h-1", "h-2", "h-3", "h-4", "h-5", "h-6", "h-7"];
    let docs = with(
        hosts(&names),
        [pool("pool", "ns")
            .range(range("10.0.0.250", "10.0.1.9"))
            .prefix(24)
            .yaml()],
    );
    let (_, e) = fill(&docs);
    let values: Vec<&str> = e.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(
        values,
        [
            "10.0.0.250",
            "10.0.0.251",
            "10.0.0.252",
            "10.0.0.253",
            "10.0.0.254",
            "10.0.1.1",
            "10.0.1.2"
        ]
    );
}

#[test]
fn ipv6_has_a_network_address_but_no_broadcast() {
    // fd00::/126 walks ::1–::3; IPv6 has no broadcast, so ::3 is handed out.
    let docs = with(
        hosts(&["h-1", "h-2", "h-3"]),
        [pool("pool", "ns").range(subnet("fd00::/126")).yaml()],
    );
    let (_, e) = fill(&docs);
    let values: Vec<&str> = e.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(values, ["fd00::1", "fd00::2", "fd00::3"]);
    // A range starting at the network address of its prefix skips it.
    let docs = with(
        hosts(&["h-1"]),
        [pool("pool", "ns")
            .range(range("'fd00::'", "fd00::5"))
            .prefix(64)
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(e, pairs(&[("h-1-pool", "fd00::1")]));
}

#[test]
fn ipv4_prefix_31_has_no_network_or_broadcast() {
    let docs = with(
        hosts(&["h-1", "h-2"]),
        [pool("pool", "ns")
            .range(range("10.0.0.4", "10.0.0.5").prefix(31))
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("h-1-pool", "10.0.0.4"), ("h-2-pool", "10.0.0.5")])
    );
}

#[test]
fn pools_are_filled_in_byte_order_of_their_names() {
    // pool-10 < pool-9 in byte order (not natural order): pool-10 takes .10 first.
    let docs = with(
        hosts(&["n-1"]),
        [
            pool("pool-9", "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .prefix(24)
                .yaml(),
            pool("pool-10", "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .prefix(24)
                .yaml(),
        ],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "ns", "pool-10", "n-1-pool-10").as_deref(),
        Some("10.0.0.10")
    );
    assert_eq!(
        entry_of(&o, "ns", "pool-9", "n-1-pool-9").as_deref(),
        Some("10.0.0.11")
    );
}

#[test]
fn walk_order_is_entry_order_not_numeric_order() {
    // Entry 0 holds higher addresses than entry 1: its addresses come first.
    let docs = with(
        hosts(&["n-1", "n-2", "n-3", "n-4"]),
        [pool("pool", "ns")
            .range(range("10.0.0.50", "10.0.0.51"))
            .range(range("10.0.0.10", "10.0.0.12"))
            .prefix(24)
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[
            ("n-1-pool", "10.0.0.50"),
            ("n-2-pool", "10.0.0.51"),
            ("n-3-pool", "10.0.0.10"),
            ("n-4-pool", "10.0.0.11"),
        ])
    );
}

#[test]
fn an_address_walked_twice_counts_at_its_first_position() {
    // Entry 1 repeats .11–.12 of entry 0; a free address is never handed out twice.
    let docs = with(
        hosts(&["n-1", "n-2", "n-3", "n-4"]),
        [pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.12"))
            .range(range("10.0.0.11", "10.0.0.13"))
            .prefix(24)
            .yaml()],
    );
    let (_, e) = fill(&docs);
    let values: Vec<&str> = e.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(values, ["10.0.0.10", "10.0.0.11", "10.0.0.12", "10.0.0.13"]);
}

#[test]
fn allocation_strategy_random_changes_no_address() {
    // IPAM v1.14 honours a preallocation under both strategies (FACTS §4), so ipreuse chooses
    // the same way whatever spec.allocationStrategy says: the lock, the pin, the live address
    // and then the first free candidate, node by node in natural order.
    let input = |strategy: Option<&str>| {
        let mut p = pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .range(subnet("10.0.1.0/30"))
            .prefix(24)
            .gateway("10.0.0.12")
            .entry("node-3-pool", "10.0.0.10")
            .live("node-2-pool", "10.0.0.15");
        if let Some(s) = strategy {
            p = p.allocation_strategy(s);
        }
        let mut docs = hosts(&["node-1", "node-2", "node-3", "node-5"]);
        docs.push(host("node-4", "ns").pin("pool", "10.0.1.2").yaml());
        docs.push(p.yaml());
        docs
    };
    let want = pairs(&[
        ("node-3-pool", "10.0.0.10"),
        ("node-1-pool", "10.0.0.11"),
        ("node-2-pool", "10.0.0.15"),
        ("node-4-pool", "10.0.1.2"),
        ("node-5-pool", "10.0.0.13"),
    ]);
    for strategy in [None, Some("null"), Some("sequential"), Some("random")] {
        let (_, e) = fill(&input(strategy));
        assert_eq!(e, want, "allocationStrategy {strategy:?}");
    }
}

// ---- placeholders and foreign entries -------------------------------------------------------

#[test]
fn placeholder_holding_the_gateway_is_not_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .gateway("10.0.0.10")
            .entry("block-gateway", "10.0.0.10")
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("block-gateway", "10.0.0.10"), ("node-1-pool", "10.0.0.11")])
    );
}

#[test]
fn placeholder_outside_the_range_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().entry("block-gateway", "10.0.0.1").yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.block-gateway"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.1"],
        },
    );
}

#[test]
fn placeholder_duplicating_a_host_entry_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .entry("block-a", "10.0.0.13")
            .entry("node-1-pool", "10.0.0.13")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.13", "block-a"],
            ..Want::default()
        },
    );
}

#[test]
fn placeholder_that_does_not_parse_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().entry("block-a", "not-an-ip").yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.block-a"),
            object: Some(("IPPool", "pool")),
            says: &["not-an-ip"],
        },
    );
}

#[test]
fn entry_of_a_host_not_in_the_input_on_a_reserved_address_is_not_an_error() {
    // A legacy/foreign claim is only checked for parse, candidate and uniqueness.
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool()
            .gateway("10.0.0.10")
            .entry("other-host-pool", "10.0.0.10")
            .yaml()],
    );
    let (_, e) = fill(&docs);
    assert_eq!(e[1], ("node-1-pool".to_string(), "10.0.0.11".to_string()));
}

// ---- text -----------------------------------------------------------------------------------

#[test]
fn non_canonical_ipv6_is_rewritten_with_a_warning() {
    let docs = with(
        hosts(&["node-1", "node-2"]),
        [pool("pool", "ns")
            .range(range("2001:db8::10", "2001:db8::ff"))
            .prefix(64)
            .entry("node-2-pool", "2001:0DB8:0:0:0:0:0:0012")
            .yaml()],
    );
    let (o, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[
            ("node-2-pool", "2001:db8::12"),
            ("node-1-pool", "2001:db8::10")
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.node-2-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
    let out = &o.outputs[0];
    assert!(out.contains("    node-2-pool: \"2001:db8::12\"\n"), "{out}");
    assert!(out.contains("    node-1-pool: \"2001:db8::10\"\n"), "{out}");
    assert!(!out.contains("0DB8"), "{out}");
}

#[test]
fn non_canonical_ipv6_placeholder_is_rewritten_too() {
    // The IPAM reserves by exact text: a placeholder written `::0011` would not stop `::11`.
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(range("2001:db8::10", "2001:db8::ff"))
            .prefix(64)
            .entry_raw("block-a", "'2001:DB8::10'")
            .yaml()],
    );
    let (o, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("block-a", "2001:db8::10"), ("node-1-pool", "2001:db8::11")])
    );
    assert!(
        o.outputs[0].contains("    block-a: \"2001:db8::10\"\n"),
        "{}",
        o.outputs[0]
    );
}

#[test]
fn new_values_are_double_quoted_and_keys_plain() {
    let docs = with(hosts(&["node-1"]), [v4_pool().yaml()]);
    let (o, _) = fill(&docs);
    assert!(
        o.outputs[0].contains("\n    node-1-pool: \"10.0.0.10\"\n"),
        "{}",
        o.outputs[0]
    );
}

#[test]
fn ipv4_with_leading_zeros_in_an_entry_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().entry("node-1-pool", "10.0.0.011").yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.011"],
        },
    );
}

#[test]
fn entry_without_a_value_is_an_error_not_a_second_key() {
    // `node-1-pool:` with no value does not parse as an address: an error, never a new
    // `node-1-pool` key appended beside it.
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().entry_raw("node-1-pool", "").yaml()],
    );
    let o = run_docs(&docs, None);
    assert_eq!(
        o.outputs[0].matches("node-1-pool:").count(),
        1,
        "{}",
        o.outputs[0]
    );
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
}

#[test]
fn two_entries_one_address_in_different_ipv6_spellings_are_duplicates() {
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(range("2001:db8::10", "2001:db8::ff"))
            .entry("block-a", "2001:db8::12")
            .entry("block-b", "2001:DB8:0::12")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "pool")),
            says: &["block-a", "block-b"],
            ..Want::default()
        },
    );
}

#[test]
fn ipv6_with_an_embedded_dotted_tail_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(range("2001:db8::10", "2001:db8::ffff:ffff"))
            .entry("node-1-pool", "2001:db8::10.0.0.20")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
}

#[test]
fn ipv4_mapped_ipv6_in_an_entry_is_an_error() {
    let docs = with(
        hosts(&["node-1"]),
        [pool("pool", "ns")
            .range(range("2001:db8::10", "2001:db8::ff"))
            .entry("node-1-pool", "::ffff:10.0.0.12")
            .yaml()],
    );
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
}

// ---- exhaustion -----------------------------------------------------------------------------

#[test]
fn exhaustion_names_the_pool_the_counts_and_the_hosts_left() {
    // 10.0.0.10–10.0.0.12: 3 addresses, one held by n-1. Four hosts need one: two are left.
    let docs = with(
        hosts(&["n-5", "n-4", "n-3", "n-2", "n-1"]),
        [pool("pool", "ns")
            .range(range("10.0.0.10", "10.0.0.12"))
            .prefix(24)
            .entry("n-1-pool", "10.0.0.10")
            .yaml()],
    );
    let o = fails(&docs);
    let errs = matching(
        &o,
        Severity::Error,
        Want {
            path: Some("spec.pools"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
    assert_eq!(errs.len(), 1, "{}", dump(&o));
    let m = &errs[0].message;
    assert!(m.contains('2') && m.contains('4'), "free 2, needed 4: {m}");
    assert!(m.contains("n-4") && m.contains("n-5"), "hosts left: {m}");
    assert!(
        !m.contains("n-2") && !m.contains("n-3"),
        "n-2 and n-3 got one: {m}"
    );
}

// ---- overlapping pools ----------------------------------------------------------------------

#[test]
fn overlapping_pools_never_share_a_new_address_and_warn() {
    // pool-a (filled first) and pool-b overlap. pool-b already gives .10 to node-1;
    // pool-a's gateway .13 is kept out of pool-b too.
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.20").gateway("10.0.0.13"))
            .prefix(24)
            .yaml(),
        pool("pool-b", "ns")
            .range(range("10.0.0.10", "10.0.0.30"))
            .prefix(24)
            .entry("node-1-pool-b", "10.0.0.10")
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let a = pool_entries(&o, "ns", "pool-a");
    let b = pool_entries(&o, "ns", "pool-b");
    assert_eq!(
        a,
        pairs(&[
            ("node-1-pool-a", "10.0.0.11"),
            ("node-2-pool-a", "10.0.0.12")
        ])
    );
    assert_eq!(
        b,
        pairs(&[
            ("node-1-pool-b", "10.0.0.10"),
            ("node-2-pool-b", "10.0.0.14")
        ])
    );
    for name in ["pool-a", "pool-b"] {
        assert_warning(
            &o,
            Want {
                object: Some(("IPPool", name)),
                says: &["overlaps"],
                ..Want::default()
            },
        );
    }
}

#[test]
fn pools_of_other_namespaces_do_not_count_as_overlapping() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-1", "other").yaml(),
        v4_pool().yaml(),
        pool("pool", "other")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .yaml(),
    ];
    // No CAPM3 manifests here: without controllerFlag: false, a warning would say so.
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "ns", "pool", "node-1-pool").as_deref(),
        Some("10.0.0.10")
    );
    assert_eq!(
        entry_of(&o, "other", "pool", "node-1-pool").as_deref(),
        Some("10.0.0.10")
    );
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
}

#[test]
fn one_address_for_two_hosts_in_overlapping_pools_is_an_error() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .entry("node-1-pool-a", "10.0.0.15")
            .entry("node-2-pool-a", "10.0.0.16")
            .yaml(),
        pool("pool-b", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .entry("node-2-pool-b", "10.0.0.15")
            .entry("node-1-pool-b", "10.0.0.17")
            .yaml(),
    ];
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-2-pool-b"),
            object: Some(("IPPool", "pool-b")),
            says: &[
                "entry node-2-pool-b of IPPool ns/pool-b gives 10.0.0.15 to host node-2 while entry \
                 node-1-pool-a of IPPool ns/pool-a gives it to host node-1",
            ],
        },
    );
}

#[test]
fn a_live_address_in_another_namespace_off_any_network_stops_nothing() {
    // Namespaces a and b each have two overlapping pools p0, p1. b/p1 shows host g holding .15;
    // a/p0 gives .15 to host h. Without a network the namespaces are independent: no error.
    let pools = |ns: &str| {
        ["p0", "p1"].map(|name| {
            pool(name, ns)
                .range(range("10.0.0.10", "10.0.0.20"))
                .prefix(24)
        })
    };
    let [a0, a1] = pools("a");
    let [b0, b1] = pools("b");
    let docs = vec![
        host("h", "a").yaml(),
        host("g", "b").yaml(),
        a0.entry("h-p0", "10.0.0.15").yaml(),
        a1.yaml(),
        b0.yaml(),
        b1.live("g-p1", "10.0.0.15").yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "a", "p0", "h-p0").as_deref(),
        Some("10.0.0.15")
    );
    assert!(
        o.findings.iter().all(|f| !f.message.contains("g-p1")),
        "{}",
        dump(&o)
    );
}

#[test]
fn colliding_pins_of_overlapping_pools_are_reported_at_the_pin_naming_the_other() {
    // node-1 pins .15 in p1, node-9 pins .15 in p2; the pools overlap. The error is on
    // node-9's annotation (the entry node-9-p2 does not exist yet) and names node-1's pin.
    let docs = vec![
        host("node-1", "ns").pin("p1", "10.0.0.15").yaml(),
        host("node-9", "ns").pin("p2", "10.0.0.15").yaml(),
        pool("p1", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .yaml(),
        pool("p2", "ns")
            .range(range("10.0.0.10", "10.0.0.20"))
            .prefix(24)
            .yaml(),
    ];
    let o = fails(&docs);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.p2]"),
            object: Some(("BareMetalHost", "node-9")),
            says: &[
                "pin ipreuse.dev/ip.p2 of BareMetalHost node-9 (new entry node-9-p2 of IPPool ns/p2) \
                 gives 10.0.0.15 to host node-9 while pin ipreuse.dev/ip.p1 of BareMetalHost node-1 \
                 (new entry node-1-p1 of IPPool ns/p1) gives it to host node-1",
            ],
        },
    );
    assert!(
        o.findings.iter().all(|f| f
            .field
            .as_ref()
            .is_none_or(|p| !p.path.contains("node-9-p2"))),
        "{}",
        dump(&o)
    );
}

#[test]
fn overlap_is_one_warning_per_pool_naming_three_and_counting_the_rest() {
    let names = ["p-a", "p-b", "p-c", "p-d", "p-e", "p-f"];
    let mut docs = hosts(&["node-1"]);
    for name in names {
        docs.push(
            pool(name, "ns")
                .range(range("10.0.0.10", "10.0.0.40"))
                .yaml(),
        );
    }
    docs.push(
        pool("p-z", "ns")
            .range(range("10.0.1.10", "10.0.1.40"))
            .yaml(),
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let overlap_warnings = |name: &str| {
        matching(
            &o,
            Severity::Warning,
            Want {
                object: Some(("IPPool", name)),
                says: &["overlaps"],
                ..Want::default()
            },
        )
    };
    for name in names {
        assert_eq!(overlap_warnings(name).len(), 1, "{name}: {}", dump(&o));
    }
    assert!(overlap_warnings("p-z").is_empty(), "{}", dump(&o));
    let first = &overlap_warnings("p-a")[0].message;
    assert!(
        first.contains("IPPool ns/p-b, ns/p-c, ns/p-d and 2 more"),
        "{first}"
    );
    let last = &overlap_warnings("p-f")[0].message;
    assert!(
        last.contains("IPPool ns/p-a, ns/p-b, ns/p-c and 2 more"),
        "{last}"
    );
    // Every pool still keeps the others' new entries out: .10, .11, ... in byte order.
    for (i, name) in names.iter().enumerate() {
        assert_eq!(
            entry_of(&o, "ns", name, &format!("node-1-{name}")),
            Some(format!("10.0.0.{}", 10 + i)),
            "{name}"
        );
    }
    assert_eq!(
        entry_of(&o, "ns", "p-z", "node-1-p-z").as_deref(),
        Some("10.0.1.10")
    );
}

#[test]
fn overlap_warnings_cut_long_pool_names() {
    let long = |c: &str| format!("{}-pool", c.repeat(200));
    let docs = with(
        hosts(&["n"]),
        ["a", "b", "c"].map(|c| {
            pool(&long(c), "ns")
                .range(range("10.0.0.10", "10.0.0.40"))
                .yaml()
        }),
    );
    let o = run_docs(&docs, None);
    // Names this long are refused for CAPM3's pool-name label (SPEC §8), one error per pool;
    // the overlap warnings are given all the same.
    let refused: Vec<&str> = errors(&o)
        .iter()
        .filter(|e| e.message.contains("205 characters long"))
        .filter_map(|e| e.resource_ref.as_ref().map(|r| r.name.as_str()))
        .collect();
    assert_eq!(refused, [long("a"), long("b"), long("c")], "{}", dump(&o));
    assert_eq!(errors(&o).len(), 3, "{}", dump(&o));
    let w = matching(
        &o,
        Severity::Warning,
        Want {
            object: Some(("IPPool", long("a").as_str())),
            says: &["overlaps"],
            ..Want::default()
        },
    );
    assert_eq!(w.len(), 1, "{}", dump(&o));
    let m = &w[0].message;
    assert!(m.len() < 300, "{m}");
    assert!(!m.contains(&long("b")), "{m}");
    assert!(m.contains('…') && m.contains("bbbbbbbbbbbbbbb-pool"), "{m}");
}

#[test]
fn an_address_held_outside_its_pool_counts_only_for_pools_that_overlap_that_pool() {
    // p-a (.10–.20) has its gateway .21 outside its own range. p-b walks .21–.25 first and
    // overlaps p-a through .19: .21 is taken there. p-c (.21–.22) does not overlap p-a, so
    // p-a's gateway is free for it; p-b's new .22 (held inside p-b's candidates) is not.
    let docs = with(
        hosts(&["node-1"]),
        [
            pool("p-a", "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .gateway("10.0.0.21")
                .yaml(),
            pool("p-b", "ns")
                .range(range("10.0.0.21", "10.0.0.25"))
                .range(range("10.0.0.19", "10.0.0.19"))
                .yaml(),
            pool("p-c", "ns")
                .range(range("10.0.0.21", "10.0.0.22"))
                .yaml(),
        ],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let got = |p: &str| entry_of(&o, "ns", p, &format!("node-1-{p}"));
    assert_eq!(got("p-a").as_deref(), Some("10.0.0.10"));
    assert_eq!(got("p-b").as_deref(), Some("10.0.0.22"));
    assert_eq!(got("p-c").as_deref(), Some("10.0.0.21"));
}

#[test]
fn summaries_count_free_addresses_net_of_every_overlapping_pool() {
    // p-a and p-b share .10–.19; p-a also has .30–.31. Hosts n-1, n-2.
    // p-a: n-1 .10, n-2 .11: 12 candidates - 2 = 10 free.
    // p-b: .10, .11 held by p-a; n-1 .12, n-2 .13: 10 - 4 = 6 free.
    let docs = with(
        hosts(&["n-1", "n-2"]),
        [
            pool("p-a", "ns")
                .range(range("10.0.0.10", "10.0.0.19"))
                .range(range("10.0.0.30", "10.0.0.31"))
                .yaml(),
            pool("p-b", "ns")
                .range(range("10.0.0.10", "10.0.0.19"))
                .yaml(),
        ],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    for (name, free) in [("p-a", "10 free left"), ("p-b", "6 free left")] {
        assert_finding(
            &o,
            Severity::Info,
            Want {
                object: Some(("IPPool", name)),
                says: &["2 added", free],
                ..Want::default()
            },
        );
    }
}

#[test]
fn an_entry_key_is_read_against_its_own_pool_when_names_are_ambiguous() {
    // In pool v4, `node-1-bmc-v4` is the entry of a host `node-1-bmc` (gone), never node-1's
    // entry for pool bmc-v4: prune removes it from v4 and node-1 gets its own entries.
    let docs = with(
        hosts(&["node-1"]),
        [
            pool("v4", "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .entry("node-1-bmc-v4", "10.0.0.10")
                .entry("block-end", "10.0.0.20")
                .yaml(),
            pool("bmc-v4", "ns")
                .range(range("10.0.1.10", "10.0.1.20"))
                .yaml(),
        ],
    );
    let o = run_docs(&docs, Some(&config(json!({"prune": true}))));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "v4"),
        pairs(&[("block-end", "10.0.0.20"), ("node-1-v4", "10.0.0.11")])
    );
    assert_eq!(
        pool_entries(&o, "ns", "bmc-v4"),
        pairs(&[("node-1-bmc-v4", "10.0.1.10")])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-bmc-v4"),
            object: Some(("IPPool", "v4")),
            says: &["\"node-1-bmc\""],
        },
    );
}

// ---- prune ----------------------------------------------------------------------------------

fn prune_docs() -> Vec<String> {
    with(
        hosts(&["node-1"]),
        [v4_pool()
            .entry("gone-pool", "10.0.0.10")
            .entry("live-pool", "10.0.0.11")
            .entry("block-gateway", "10.0.0.12")
            .live("live-pool", "10.0.0.11")
            .yaml()],
    )
}

#[test]
fn prune_true_removes_a_stale_entry_but_not_a_live_one() {
    let cfg = config(json!({"prune": true}));
    let o = run_docs(&prune_docs(), Some(&cfg));
    assert_no_errors(&o);
    // The removed address stays taken for this run: node-1 gets .13.
    assert_eq!(
        pool_entries(&o, "ns", "pool"),
        pairs(&[
            ("live-pool", "10.0.0.11"),
            ("block-gateway", "10.0.0.12"),
            ("node-1-pool", "10.0.0.13"),
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.gone-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
    assert!(!o.outputs[0].contains("gone-pool"));
}

#[test]
fn prune_false_keeps_a_stale_entry_with_a_warning() {
    let o = run_docs(&prune_docs(), None);
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "pool"),
        pairs(&[
            ("gone-pool", "10.0.0.10"),
            ("live-pool", "10.0.0.11"),
            ("block-gateway", "10.0.0.12"),
            ("node-1-pool", "10.0.0.13"),
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.gone-pool"),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
}

#[test]
fn messages_cut_long_entry_keys_but_fields_keep_them() {
    let key = format!("{}-pool", "g".repeat(300));
    let docs = with(
        hosts(&["node-1"]),
        [v4_pool().entry(&key, "10.0.0.10").yaml()],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let field = format!("spec.preAllocations.{key}");
    let w = matching(
        &o,
        Severity::Warning,
        Want {
            path: Some(&field),
            object: Some(("IPPool", "pool")),
            ..Want::default()
        },
    );
    assert_eq!(w.len(), 1, "{}", dump(&o));
    let m = &w[0].message;
    assert!(m.len() < 300 && m.contains('…'), "{m}");
    assert!(!m.contains(&key), "{m}");
}

#[test]
fn prune_keeps_an_entry_whose_host_is_in_the_namespace_but_not_selected() {
    let cfg = config(json!({"prune": true, "hostSelector": {"matchLabels": {"role": "worker"}}}));
    let docs = vec![
        host("node-1", "ns").label("role", "worker").yaml(),
        host("node-2", "ns").label("role", "cp").yaml(),
        v4_pool().entry("node-2-pool", "10.0.0.10").yaml(),
    ];
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "pool"),
        pairs(&[("node-2-pool", "10.0.0.10"), ("node-1-pool", "10.0.0.11")])
    );
}

// ---- reserved: config and control-plane endpoints -------------------------------------------

#[test]
fn reserve_addresses_ranges_and_cidrs_are_skipped() {
    let cfg = config(json!({"reserve": ["10.0.0.10", "10.0.0.12-10.0.0.13", "10.0.0.16/30"]}));
    let docs = with(hosts(&["n-1", "n-2", "n-3", "n-4"]), [v4_pool().yaml()]);
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    let values: Vec<String> = pool_entries(&o, "ns", "pool")
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    assert_eq!(values, ["10.0.0.11", "10.0.0.14", "10.0.0.15", "10.0.0.20"]);
}

#[test]
fn an_entry_on_a_reserve_address_is_an_error() {
    let cfg = config(json!({"reserve": ["10.0.0.14"]}));
    let docs = with(
        hosts(&["n-1"]),
        [v4_pool().entry("n-1-pool", "10.0.0.14").yaml()],
    );
    let o = run_docs(&docs, Some(&cfg));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.n-1-pool"),
            object: Some(("IPPool", "pool")),
            says: &["10.0.0.14"],
        },
    );
}

#[test]
fn control_plane_endpoint_of_a_cluster_in_the_namespace_is_skipped() {
    let docs = with(
        hosts(&["n-1", "n-2"]),
        [
            v4_pool().yaml(),
            cluster("c1", "ns", "10.0.0.10"),
            // Another namespace's endpoint does not count here.
            cluster("c2", "other", "10.0.0.11"),
        ],
    );
    let (_, e) = fill(&docs);
    assert_eq!(
        e,
        pairs(&[("n-1-pool", "10.0.0.11"), ("n-2-pool", "10.0.0.12")])
    );
}

#[test]
fn control_plane_endpoint_of_a_metal3cluster_is_skipped() {
    let m3c = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\nkind: Metal3Cluster\nmetadata:\n  name: m1\n  namespace: ns\nspec:\n  controlPlaneEndpoint:\n    host: 10.0.0.10\n    port: 6443\n".to_string();
    let docs = with(hosts(&["n-1"]), [v4_pool().yaml(), m3c]);
    let (_, e) = fill(&docs);
    assert_eq!(e, pairs(&[("n-1-pool", "10.0.0.11")]));
}

// ---- dual stack -----------------------------------------------------------------------------

#[test]
fn dual_stack_gives_each_host_one_entry_per_family() {
    let docs = with(
        hosts(&["node-2", "node-1"]),
        [
            pool("v4", "ns")
                .range(range("10.0.0.10", "10.0.0.20"))
                .prefix(24)
                .yaml(),
            pool("v6", "ns")
                .range(range("fd00::10", "fd00::20"))
                .prefix(64)
                .yaml(),
        ],
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "v4"),
        pairs(&[("node-1-v4", "10.0.0.10"), ("node-2-v4", "10.0.0.11")])
    );
    assert_eq!(
        pool_entries(&o, "ns", "v6"),
        pairs(&[("node-1-v6", "fd00::10"), ("node-2-v6", "fd00::11")])
    );
}

// ---- writing --------------------------------------------------------------------------------

#[test]
fn missing_preallocations_is_added_as_the_last_key_of_spec() {
    let docs = with(
        hosts(&["n-1"]),
        [v4_pool().yaml() + "status:\n  phase: ok\n"],
    );
    let (o, _) = fill(&docs);
    let out = &o.outputs[0];
    let at = out
        .find("  preAllocations:\n    n-1-pool: \"10.0.0.10\"\n")
        .expect(out);
    assert!(at > out.find("  prefix: 24\n").unwrap(), "{out}");
    assert!(at < out.find("status:").unwrap(), "{out}");
}

// ---- the case table -------------------------------------------------------------------------

/// Every case of `tests/data/cases/precedence/` (one file per case; `tests/it/cases.rs` says
/// how a case is read and checked).
#[test]
fn every_precedence_case_holds() {
    crate::cases::run_table("precedence");
}
