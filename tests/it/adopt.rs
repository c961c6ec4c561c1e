//! Adoption (issue 6) through the whole function: a Git package beside an export of the live
//! cluster (`kubectl get -o yaml`, a `kind: List`), the live addresses written as entries of
//! the hosts that hold them, conflicts as errors that change nothing, order independence,
//! idempotence, check mode, the binary's `--in-place` workflow and exit codes, and the
//! `examples/adopt-live` package.
//!
//! Expected addresses are derived by hand from SPEC §5 in each test, or, for the example, from
//! the export itself along another route than the function's (the Metal3Data's own owner
//! reference to its Metal3Machine, and that machine's annotation).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::*;
use serde_json::{Value, json};

const NS: &str = "lab";

/// The Git package: hosts node-1..3, pool `prov` (172.22.0.10–172.22.0.50, gateway outside).
fn git(extra_pool_lines: &[(&str, &str)]) -> Vec<String> {
    let mut p = pool("prov", NS)
        .range(range("172.22.0.10", "172.22.0.50"))
        .prefix(24)
        .gateway("172.22.0.1");
    for (k, v) in extra_pool_lines {
        p = p.entry(k, v);
    }
    vec![
        host("node-1", NS).yaml(),
        host("node-2", NS).yaml(),
        host("node-3", NS).yaml(),
        p.yaml(),
    ]
}

/// An IPAddress as the IPAM writes it.
fn ip_address(pool: &str, claim: &str, address: &str) -> String {
    let name = format!("{pool}-{}", address.replace('.', "-"));
    format!(
        "apiVersion: ipam.metal3.io/v1alpha1
kind: IPAddress
metadata:
  creationTimestamp: \"2026-03-02T10:11:12Z\"
  finalizers:
  - ipaddress.ipam.metal3.io
  name: {name}
  namespace: {NS}
  ownerReferences:
  - apiVersion: ipam.metal3.io/v1alpha1
    controller: true
    kind: IPClaim
    name: {claim}
    uid: 6f0c0f6e-0000-4000-8000-{:012}
  - apiVersion: ipam.metal3.io/v1alpha1
    kind: IPPool
    name: {pool}
    uid: 6f0c0f6e-0000-4000-8000-000000000001
  resourceVersion: \"81234\"
  uid: 6f0c0f6e-0000-4000-8000-000000000002
spec:
  address: {address}
  claim:
    name: {claim}
    namespace: {NS}
  gateway: 172.22.0.1
  pool:
    name: {pool}
    namespace: {NS}
  prefix: 24
",
        claim.len()
    )
}

/// An IPClaim owned by its Metal3Data (controller), as CAPM3 writes it.
fn ip_claim(claim: &str, pool: &str, data: &str) -> String {
    format!(
        "apiVersion: ipam.metal3.io/v1alpha1
kind: IPClaim
metadata:
  finalizers:
  - ipclaim.ipam.metal3.io
  name: {claim}
  namespace: {NS}
  ownerReferences:
  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
    blockOwnerDeletion: true
    controller: true
    kind: Metal3Data
    name: {data}
    uid: 7a1d0000-0000-4000-8000-000000000001
spec:
  pool:
    name: {pool}
    namespace: {NS}
status:
  address:
    name: {pool}-x
"
    )
}

/// A Metal3Data made for the Metal3DataClaim `m3m`, owned by it (controller) and by the
/// Metal3Machine of that name.
fn metal3_data(name: &str, m3m: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3Data
metadata:
  name: {name}
  namespace: {NS}
  ownerReferences:
  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
    blockOwnerDeletion: true
    controller: true
    kind: Metal3DataClaim
    name: {m3m}
    uid: 8b2e0000-0000-4000-8000-000000000001
  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
    kind: Metal3Machine
    name: {m3m}
    uid: 8b2e0000-0000-4000-8000-000000000002
spec:
  claim:
    name: {m3m}
    namespace: {NS}
  index: 3
  template:
    name: workers
    namespace: {NS}
status:
  ready: true
"
    )
}

fn data_claim(m3m: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3DataClaim
metadata:
  name: {m3m}
  namespace: {NS}
  ownerReferences:
  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
    blockOwnerDeletion: true
    controller: true
    kind: Metal3Machine
    name: {m3m}
    uid: 9c3f0000-0000-4000-8000-000000000001
spec:
  template:
    name: workers
"
    )
}

/// A Metal3Machine on `host` (its annotation); `status.addresses` shows an inspection-time
/// address that must never be taken for the IPAM's.
fn machine(m3m: &str, host: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3Machine
metadata:
  annotations:
    metal3.io/BareMetalHost: {NS}/{host}
  name: {m3m}
  namespace: {NS}
spec:
  providerID: metal3://{NS}/{host}/{m3m}
status:
  addresses:
  - address: 172.22.0.49
    type: InternalIP
"
    )
}

/// The five live objects of one host's claim `claim` of pool `prov`, holding `address`, made for
/// Metal3Data `data` of Metal3Machine `m3m`.
fn live(claim: &str, address: &str, data: &str, m3m: &str, host: &str) -> Vec<String> {
    vec![
        ip_address("prov", claim, address),
        ip_claim(claim, "prov", data),
        metal3_data(data, m3m),
        data_claim(m3m),
        machine(m3m, host),
    ]
}

/// What `kubectl get -o yaml` prints for several objects: a `v1` `List`.
fn list(items: &[String]) -> String {
    let mut s = String::from("apiVersion: v1\nitems:\n");
    for item in items {
        s.push_str(&indent_item(item));
    }
    s.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    s
}

/// The usual export: node-2 holds .17 through the legacy claim `workers-3-prov`, node-1 holds
/// .12 through a claim with the new name `node-1-prov`; node-3 holds nothing.
fn export() -> Vec<String> {
    let mut items = live(
        "workers-3-prov",
        "172.22.0.17",
        "workers-3",
        "workers-7kq2x",
        "node-2",
    );
    items.extend(live(
        "node-1-prov",
        "172.22.0.12",
        "workers-0",
        "workers-p9f4c",
        "node-1",
    ));
    items
}

/// The ipreuse config of these tests: no labels (the export is a snapshot) and no flag.
fn cfg() -> Value {
    config(json!({"labels": false, "controllerFlag": false}))
}

fn sources(git: &[String], live: &[String]) -> Vec<(String, String)> {
    vec![
        ("git.yaml".to_string(), stream(git)),
        ("live.yaml".to_string(), list(live)),
    ]
}

fn prov_entries(o: &ipreuse::run::Outcome) -> Vec<(String, String)> {
    entries(&o.outputs[0])
        .remove(&(NS.to_string(), "prov".to_string()))
        .expect("the pool")
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn live_addresses_become_the_entries_of_the_hosts_that_hold_them() {
    let src = sources(&git(&[]), &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_no_errors(&o);
    // node-1 and node-2 keep what they hold; node-3 takes the first free candidate (.10).
    // Entries in natural host order, whichever step chose them.
    assert_eq!(
        prov_entries(&o),
        pairs(&[
            ("node-1-prov", "172.22.0.12"),
            ("node-2-prov", "172.22.0.17"),
            ("node-3-prov", "172.22.0.10"),
        ])
    );
    // The export is read, never changed; nothing warns about a healthy export.
    assert_eq!(o.outputs[1], src[1].1);
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
}

#[test]
fn a_live_address_never_goes_to_another_host_even_when_its_chain_breaks() {
    // node-2's Metal3Machine is missing from the export: .17 is adopted by nobody, but stays
    // taken, and node-3 (the first host without an address) does not get it either.
    let mut live = export();
    live.remove(4);
    let mut held = live.clone();
    // The strategy's first candidates are taken too: .10 and .11 held live by foreign claims.
    held.push(ip_address("prov", "vip-prov", "172.22.0.10"));
    held.push(ip_address("prov", "lb-prov", "172.22.0.11"));
    let o = run_sources(&sources(&git(&[]), &held), Some(&cfg()));
    assert_no_errors(&o);
    assert_eq!(
        prov_entries(&o),
        pairs(&[
            ("node-1-prov", "172.22.0.12"),
            ("node-2-prov", "172.22.0.13"),
            ("node-3-prov", "172.22.0.14"),
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.claim.name"),
            object: Some(("IPAddress", "prov-172-22-0-17")),
            says: &[
                "claim workers-3-prov holds 172.22.0.17",
                "IPAddress prov-172-22-0-17 → IPClaim workers-3-prov → Metal3Data workers-3 → \
                 Metal3DataClaim workers-7kq2x breaks: Metal3Machine workers-7kq2x is not in the input",
            ],
        },
    );
    // The foreign claims have no IPClaim in the export: one warning each, their addresses kept.
    assert_eq!(warnings(&o).len(), 3, "{}", dump(&o));
}

#[test]
fn an_address_an_ip_address_shows_in_use_must_stay_inside_the_pools_bounds() {
    // The Git pool has no status, but the cluster's status.indexes is rebuilt from the
    // IPAddresses: narrowing the range below .17 is an update the IPAM webhook rejects.
    let mut g = git(&[]);
    g[3] = pool("prov", NS)
        .range(range("172.22.0.10", "172.22.0.15"))
        .prefix(24)
        .yaml();
    let src = sources(&g, &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools"),
            object: Some(("IPPool", "prov")),
            says: &[
                "claim workers-3-prov holds 172.22.0.17 (an IPAddress shows it), outside every entry \
                 of spec.pools: keep a range that covers it",
            ],
        },
    );
    // node-1's .12 is still inside: no error for it.
    assert!(
        errors(&o)
            .iter()
            .all(|e| !e.message.contains("172.22.0.12")),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_live_address_that_differs_from_an_existing_entry_is_an_error_and_nothing_changes() {
    let src = sources(&git(&[("node-2-prov", "172.22.0.20")]), &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.address"),
            object: Some(("IPAddress", "prov-172-22-0-17")),
            says: &[
                "adopted address 172.22.0.17 differs from the existing entry node-2-prov = 172.22.0.20",
                "The host holds it through IPAddress prov-172-22-0-17 → IPClaim workers-3-prov → \
                 Metal3Data workers-3 → Metal3DataClaim workers-7kq2x → Metal3Machine workers-7kq2x → \
                 BareMetalHost node-2",
            ],
        },
    );
    assert_eq!(errors(&o).len(), 1, "{}", dump(&o));
}

#[test]
fn an_existing_entry_equal_to_the_live_address_is_kept_without_a_word() {
    let src = sources(
        &git(&[
            ("node-2-prov", "172.22.0.17"),
            ("node-1-prov", "172.22.0.12"),
        ]),
        &export(),
    );
    let o = run_sources(&src, Some(&cfg()));
    assert_no_errors(&o);
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
    assert_eq!(
        prov_entries(&o),
        pairs(&[
            ("node-2-prov", "172.22.0.17"),
            ("node-1-prov", "172.22.0.12"),
            ("node-3-prov", "172.22.0.10"),
        ])
    );
}

#[test]
fn an_annotation_pin_and_the_live_address_are_one_pin_when_equal_and_an_error_when_not() {
    let pinned = |addr: &str| {
        let mut g = git(&[]);
        g[1] = host("node-2", NS).pin("prov", addr).yaml();
        g
    };
    let o = run_sources(&sources(&pinned("172.22.0.17"), &export()), Some(&cfg()));
    assert_no_errors(&o);
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
    assert_eq!(
        entry_of(&o, NS, "prov", "node-2-prov").as_deref(),
        Some("172.22.0.17")
    );
    let src = sources(&pinned("172.22.0.30"), &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.prov]"),
            object: Some(("BareMetalHost", "node-2")),
            says: &[
                "pin 172.22.0.30 for IPPool prov differs from 172.22.0.17, the address the host holds now",
                "IPAddress prov-172-22-0-17 → IPClaim workers-3-prov",
            ],
        },
    );
}

#[test]
fn an_annotation_pin_of_another_host_on_a_live_address_is_an_error() {
    let mut g = git(&[]);
    g[2] = host("node-3", NS).pin("prov", "172.22.0.17").yaml();
    let src = sources(&g, &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.prov]"),
            object: Some(("BareMetalHost", "node-3")),
            says: &["pin 172.22.0.17 for IPPool lab/prov is pinned by another host too"],
        },
    );
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[ipreuse.dev/ip.prov]"),
            object: Some(("BareMetalHost", "node-3")),
            says: &[
                "172.22.0.17 is in use by claim workers-3-prov of host node-2: choose another address",
                "holds it in IPPool lab/prov (IPAddress prov-172-22-0-17), while this gives it to host \
                 node-3 in IPPool lab/prov",
            ],
        },
    );
}

#[test]
fn an_adopted_live_address_is_named_as_the_live_claim_it_is_in_a_clash() {
    // An overlapping pool prov2 gives node-3 the .17 node-2 holds now through workers-3-prov.
    let mut g = git(&[]);
    g.push(
        pool("prov2", NS)
            .range(range("172.22.0.10", "172.22.0.50"))
            .prefix(24)
            .entry("node-3-prov2", "172.22.0.17")
            .yaml(),
    );
    let src = sources(&g, &export());
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    // The entry meets another host's live address in another pool (SPEC §5 "Validation").
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-3-prov2"),
            object: Some(("IPPool", "prov2")),
            says: &[
                "entry node-3-prov2: 172.22.0.17 is in use by claim workers-3-prov of host node-2",
                "holds it in IPPool lab/prov (IPAddress prov-172-22-0-17), while this gives it to host \
                 node-3 in IPPool lab/prov2",
            ],
        },
    );
    // And the clash of the two pools calls the adopted address what it is, with its chain.
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-3-prov2"),
            object: Some(("IPPool", "prov2")),
            says: &[
                "Entry node-3-prov2 of IPPool lab/prov2 gives 172.22.0.17 to host node-3 while the live \
                 address of claim workers-3-prov (IPAddress prov-172-22-0-17 → IPClaim workers-3-prov",
                "→ BareMetalHost node-2; new entry node-2-prov of IPPool lab/prov) gives it to host node-2",
            ],
        },
    );
    assert!(
        errors(&o)
            .iter()
            .all(|f| !f.message.contains("(entry node-2-prov")),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_live_address_only_an_ip_address_shows_is_reported_at_that_ip_address() {
    // node-3-prov holds .30 by an IPAddress whose IPClaim is not exported (its chain breaks),
    // and .30 is reserved by the config: the warning is on the IPAddress, which exists, not
    // at a status.indexes the pool does not have, and says which rule reserves it.
    let mut live = export();
    live.push(ip_address("prov", "node-3-prov", "172.22.0.30"));
    let cfg = config(json!({"labels": false, "controllerFlag": false, "reserve": ["172.22.0.30"]}));
    let o = run_sources(&sources(&git(&[]), &live), Some(&cfg));
    assert_no_errors(&o);
    assert_eq!(
        prov_entries(&o),
        pairs(&[
            ("node-1-prov", "172.22.0.12"),
            ("node-2-prov", "172.22.0.17"),
            ("node-3-prov", "172.22.0.10"),
        ])
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.address"),
            object: Some(("IPAddress", "prov-172-22-0-30")),
            says: &[
                "claim node-3-prov cannot keep 172.22.0.30",
                "The claim holds it now (IPAddress prov-172-22-0-30), but it is reserved: in \
                 spec.reserve[0] of the ipreuse config",
            ],
        },
    );
}

#[test]
fn two_live_claims_of_one_host_and_pool_are_an_error_naming_both() {
    let mut live = export();
    live.extend(self::live(
        "node-2-prov",
        "172.22.0.21",
        "workers-5",
        "workers-zz9",
        "node-2",
    ));
    let src = sources(&git(&[]), &live);
    let o = run_sources(&src, Some(&cfg()));
    assert_transactional(&o, &[src[0].1.as_str(), src[1].1.as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.address"),
            object: Some(("IPAddress", "prov-172-22-0-17")),
            says: &[
                "claims node-2-prov and workers-3-prov of IPPool prov both lead to BareMetalHost node-2",
                "They hold 172.22.0.21 and 172.22.0.17",
            ],
        },
    );
}

#[test]
fn a_claim_only_status_indexes_shows_keeps_the_live_address_rules() {
    // With an export beside it, `node-3-prov` is in status.indexes only: nothing attests it,
    // so it is SPEC §5 step 3 as always. An entry for it that differs is kept, with a warning,
    // not an error; and a free live address is reused.
    let status = |entry: Option<&str>| {
        let mut p = pool("prov", NS)
            .range(range("172.22.0.10", "172.22.0.50"))
            .prefix(24)
            .gateway("172.22.0.1")
            .live("node-3-prov", "172.22.0.33");
        if let Some(e) = entry {
            p = p.entry("node-3-prov", e);
        }
        let mut g = git(&[]);
        g[3] = p.yaml();
        g
    };
    let o = run_sources(
        &sources(&status(Some("172.22.0.40")), &export()),
        Some(&cfg()),
    );
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, NS, "prov", "node-3-prov").as_deref(),
        Some("172.22.0.40")
    );
    assert_warning(
        &o,
        Want {
            path: Some("spec.preAllocations.node-3-prov"),
            object: Some(("IPPool", "prov")),
            says: &[
                "entry node-3-prov = 172.22.0.40 differs from 172.22.0.33, the address claim \
                 node-3-prov holds now: set it to 172.22.0.33 to keep the host in place",
                "(status.indexes of IPPool lab/prov shows 172.22.0.33)",
            ],
        },
    );
    let o = run_sources(&sources(&status(None), &export()), Some(&cfg()));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, NS, "prov", "node-3-prov").as_deref(),
        Some("172.22.0.33")
    );
}

#[test]
fn status_indexes_with_a_legacy_claim_whose_metal3data_is_exported_is_adopted() {
    // The Git pool carries the cluster's status; the export holds only the Metal3Data and the
    // Metal3Machine (no IPAddress, no IPClaim): the legacy name leads to node-2.
    let mut g = git(&[]);
    g[3] = pool("prov", NS)
        .range(range("172.22.0.10", "172.22.0.50"))
        .prefix(24)
        .gateway("172.22.0.1")
        .live("workers-3-prov", "172.22.0.10")
        .yaml();
    let live = vec![
        metal3_data("workers-3", "workers-7kq2x"),
        machine("workers-7kq2x", "node-2"),
    ];
    let o = run_sources(&sources(&g, &live), Some(&cfg()));
    assert_no_errors(&o);
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
    assert_eq!(
        prov_entries(&o),
        pairs(&[
            ("node-1-prov", "172.22.0.11"),
            ("node-2-prov", "172.22.0.10"),
            ("node-3-prov", "172.22.0.12"),
        ])
    );
}

#[test]
fn the_order_of_the_items_changes_nothing() {
    let mut docs = git(&[]);
    docs.extend(export());
    docs.push(ip_address("prov", "vip-prov", "172.22.0.10"));
    let reference = run_docs(&docs, Some(&cfg()));
    assert_no_errors(&reference);
    let want = all_entries(&reference);
    for step in [3, 5, 7, 11] {
        docs.rotate_left(step);
        docs.swap(0, 4);
        let o = run_docs(&docs, Some(&cfg()));
        assert_eq!(all_entries(&o), want, "rotated by {step}");
        // The same results, each at its item's new place in the input (`file`).
        assert_eq!(
            common::placeless(&o),
            common::placeless(&reference),
            "rotated by {step}"
        );
        // The pool's document comes out byte for byte the same.
        let pool_doc = |out: &str| {
            out.split("---\n")
                .find(|d| d.contains("\nkind: IPPool\n"))
                .map(str::to_string)
        };
        assert_eq!(pool_doc(&o.outputs[0]), pool_doc(&reference.outputs[0]));
    }
}

#[test]
fn a_second_run_changes_nothing_and_says_nothing_new() {
    let src = sources(&git(&[]), &export());
    let first = run_sources(&src, Some(&cfg()));
    assert_no_errors(&first);
    let again: Vec<(String, String)> = src
        .iter()
        .zip(&first.outputs)
        .map(|((name, _), text)| (name.clone(), text.clone()))
        .collect();
    let second = run_sources(&again, Some(&cfg()));
    assert_no_errors(&second);
    assert_eq!(second.outputs, first.outputs);
    assert!(second.changed.iter().all(|c| !c));
    // The entries are locks now; their live claims are their hosts' own: no warning.
    assert!(warnings(&second).is_empty(), "{}", dump(&second));
}

#[test]
fn check_mode_fails_while_the_live_addresses_are_not_written() {
    let src = sources(&git(&[]), &export());
    let check = config(json!({"labels": false, "controllerFlag": false, "mode": "check"}));
    let o = run_sources(&src, Some(&check));
    assert_eq!(o.outputs[0], src[0].1);
    // One error per entry, each with the address fill would write and where it comes from.
    for (host, address, from) in [
        ("node-1", "172.22.0.12", "the address its claim holds now"),
        ("node-2", "172.22.0.17", "the address its claim holds now"),
        (
            "node-3",
            "172.22.0.10",
            "the first free address of the pool",
        ),
    ] {
        let path = format!("spec.preAllocations.{host}-prov");
        let says = format!(
            "Fill would add {host}-prov: \"{address}\" to IPPool lab/prov for BareMetalHost {host} ({from})"
        );
        assert_error(
            &o,
            Want {
                path: Some(&path),
                object: Some(("IPPool", "prov")),
                says: &[&says],
            },
        );
    }
    assert_eq!(errors(&o).len(), 3, "{}", dump(&o));
}

// ---- the workflow of docs/adopting.md: `ipreuse --in-place --config CFG gitpkg/ live.yaml` --------

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

#[test]
fn the_in_place_workflow_fills_the_git_package_and_leaves_the_export_alone() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let g = git(&[]);
    let hosts = stream(&g[..3]);
    write(&root.join("gitpkg/hosts.yaml"), &hosts);
    write(&root.join("gitpkg/ippools.yaml"), &g[3]);
    let export = list(&export());
    write(&root.join("live.yaml"), &export);
    write(
        &root.join("adopt.yaml"),
        &ipreuse_config("adopt")
            .set("labels", "false")
            .set("controllerFlag", "false")
            .yaml(),
    );
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_ipreuse"))
            .current_dir(root)
            .args([
                "--in-place",
                "--config",
                "adopt.yaml",
                "gitpkg",
                "live.yaml",
            ])
            .output()
            .expect("run ipreuse")
    };
    let out = run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pools = read(&root.join("gitpkg/ippools.yaml"));
    assert_eq!(
        entries(&pools)[&(NS.to_string(), "prov".to_string())],
        pairs(&[
            ("node-1-prov", "172.22.0.12"),
            ("node-2-prov", "172.22.0.17"),
            ("node-3-prov", "172.22.0.10"),
        ])
    );
    assert_eq!(read(&root.join("gitpkg/hosts.yaml")), hosts);
    assert_eq!(read(&root.join("live.yaml")), export);
    // Again: nothing to do.
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(read(&root.join("gitpkg/ippools.yaml")), pools);

    // A conflicting entry: exit 1, no file written.
    let conflicting = pools.replace(
        "node-2-prov: \"172.22.0.17\"",
        "node-2-prov: \"172.22.0.20\"",
    );
    assert_ne!(conflicting, pools);
    write(&root.join("gitpkg/ippools.yaml"), &conflicting);
    let out = run();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("differs from the existing entry node-2-prov"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read(&root.join("gitpkg/ippools.yaml")), conflicting);
    assert_eq!(read(&root.join("live.yaml")), export);
}
// ---- examples/adopt-live --------------------------------------------------------------------

/// Every `*.yaml` of a package folder (hidden ones skipped), in name order.
fn package_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("read the example")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                read(&p),
            )
        })
        .collect();
    files.sort();
    files
}

/// The Kptfile's `configMap` as the ConfigMap kpt sends.
fn kptfile_config(dir: &Path) -> Value {
    let kptfile: Value = serde_saphyr::from_str(&read(&dir.join("Kptfile"))).expect("Kptfile");
    let data = kptfile["pipeline"]["mutators"][0]["configMap"].clone();
    assert!(data.is_object(), "the example's Kptfile has a configMap");
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "fn"}, "data": data})
}

#[test]
fn adopt_live_example_pins_every_live_address_to_the_host_that_holds_it_today() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/adopt-live");
    let files = package_files(&dir);
    let live_text = &files
        .iter()
        .find(|(n, _)| n == "live.yaml")
        .expect("live.yaml")
        .1;
    let list: Value = serde_saphyr::from_str(live_text).expect("live.yaml is YAML");
    assert_eq!(list["kind"], "List", "live.yaml is a kubectl List");
    let items = list["items"].as_array().expect("items");
    let of_kind = |kind: &str| -> BTreeMap<String, &Value> {
        items
            .iter()
            .filter(|i| i["kind"] == kind)
            .map(|i| {
                (
                    i["metadata"]["name"].as_str().expect("a name").to_string(),
                    i,
                )
            })
            .collect()
    };
    let claims = of_kind("IPClaim");
    let data = of_kind("Metal3Data");
    let machines = of_kind("Metal3Machine");
    let owner = |o: &Value, kind: &str| -> String {
        let found: Vec<&str> = o["metadata"]["ownerReferences"]
            .as_array()
            .expect("owners")
            .iter()
            .filter(|r| r["kind"] == kind)
            .map(|r| r["name"].as_str().expect("owner name"))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "one {kind} owner of {}",
            o["metadata"]["name"]
        );
        found[0].to_string()
    };
    // Independently of the function's route (which goes through spec.claim and the
    // Metal3DataClaim): IPAddress → its IPClaim → the claim's Metal3Data owner → the
    // Metal3Data's Metal3Machine owner → the machine's metal3.io/BareMetalHost annotation.
    let mut expected: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut legacy = 0;
    for a in of_kind("IPAddress").values() {
        let claim = a["spec"]["claim"]["name"].as_str().expect("claim");
        let pool = a["spec"]["pool"]["name"].as_str().expect("pool");
        let d = owner(claims[claim], "Metal3Data");
        if claim == format!("{d}-{pool}") {
            legacy += 1;
        }
        let m = owner(data[&d], "Metal3Machine");
        let host = machines[&m]["metadata"]["annotations"]["metal3.io/BareMetalHost"]
            .as_str()
            .expect("the host annotation");
        let (_, host) = host.split_once('/').expect("namespace/name");
        let address = a["spec"]["address"].as_str().expect("address");
        let before = expected.insert(
            (pool.to_string(), format!("{host}-{pool}")),
            address.to_string(),
        );
        assert!(before.is_none(), "one address per host and pool");
    }
    assert!(expected.len() >= 6, "three hosts, two pools: {expected:?}");
    assert_eq!(
        legacy,
        expected.len(),
        "every live claim has its legacy name"
    );

    let o = run_sources(&files, Some(&kptfile_config(&dir)));
    assert_no_errors(&o);
    let got: BTreeMap<(String, String), String> = all_entries(&o)
        .into_iter()
        .flat_map(|((_, pool), entries)| {
            entries
                .into_iter()
                .map(move |(k, v)| ((pool.clone(), k), v))
        })
        .collect();
    for (key, address) in &expected {
        assert_eq!(got.get(key), Some(address), "{key:?}");
    }
    // The export itself is not changed.
    let live_out = files
        .iter()
        .position(|(n, _)| n == "live.yaml")
        .map(|i| &o.outputs[i]);
    assert_eq!(live_out, Some(live_text));
}
