//! SPEC §5: precedence. The cases are data: one file per case in `tests/data/cases/precedence/`
//! (input, config, and the entries and results that must come out, each derived by hand from the
//! rules), run by `every_precedence_case_holds` through `tests/it/cases.rs`. Adding a case adds a
//! file.
//!
//! The tests left here are code for a reason:
//! - `an_entry_on_the_live_address_of_another_pools_host_fails_the_binary_and_writes_nothing` runs
//!   the built binary on a package on disk (exit code, stderr, files untouched);
//! - `allocation_strategy_random_changes_no_address` loops over four variants of one input
//!   (`allocationStrategy` absent, `null`, `sequential`, `random`) and wants one answer for all;
//! - `overlap_warnings_cut_long_pool_names` and `messages_cut_long_entry_keys_but_fields_keep_them`
//!   generate 200- and 300-character names and measure the message length, which a case file
//!   cannot state.

use crate::common;

use common::*;
use ipreuse::results::Severity;

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

/// The reproduction (as in the case
/// `an-entry-on-the-live-address-of-another-pools-host-is-an-error`): pool `prov` of namespace
/// `a` shows node-1's claim holding 172.22.0.15; the overlapping pool `prov2` gives it to node-7.
fn live_in_prov_given_in_prov2() -> Vec<String> {
    vec![
        host("node-1", "a").yaml(),
        host("node-7", "a").yaml(),
        pool("prov", "a")
            .range(range("172.22.0.10", "172.22.0.100"))
            .prefix(24)
            .live("node-1-prov", "172.22.0.15")
            .yaml(),
        pool("prov2", "a")
            .range(range("172.22.0.10", "172.22.0.100"))
            .prefix(24)
            .entry("node-7-prov2", "172.22.0.15")
            .yaml(),
    ]
}

#[test]
fn an_entry_on_the_live_address_of_another_pools_host_fails_the_binary_and_writes_nothing() {
    // As an operator runs it: the package on disk, `--in-place`, then the plain command.
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = live_in_prov_given_in_prov2();
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
            stderr.contains("claim node-1-prov of host node-1: choose another address")
                && stderr.contains("holds it in IPPool a/prov (status.indexes)")
                && stderr.contains("host node-7 in IPPool a/prov2"),
            "{stderr}"
        );
        assert_eq!(std::fs::read(&hosts_file).expect("read"), before[0]);
        assert_eq!(std::fs::read(&pools_file).expect("read"), before[1]);
    }
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
    assert!(m.chars().count() < 450, "{m}");
    assert!(!m.contains(&long("b")), "{m}");
    assert!(m.contains('…') && m.contains("bbbbbbbbbbbbbbb-pool"), "{m}");
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

/// Every case of `tests/data/cases/precedence/` (one file per case; `tests/it/cases.rs` says
/// how a case is read and checked).
#[test]
fn every_precedence_case_holds() {
    crate::cases::run_table("precedence");
}
