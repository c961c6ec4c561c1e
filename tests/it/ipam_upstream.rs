//! Parity with the Metal3 IPAM's own test suite (issue 11).
//!
//! The table tests of metal3-io/ip-address-manager (the allocator in `ipam/ippool_manager_test.go`,
//! the address arithmetic in `api/v1alpha1/utils_test.go`, the webhook in
//! `internal/webhooks/v1alpha1/ippool_webhook_test.go`) are translated, case by case, into data
//! files under `tests/data/ipam_upstream/`: one file per upstream table, one entry per upstream
//! case, named as upstream names it. This runner turns each case into an input of BareMetalHosts
//! and one IPPool, runs the function and checks the expectation the case states. The data
//! files' README says how a case is written and what each expectation means.
//!
//! Some cases need a feature `ipreuse` does not have yet. They name it (`feature:`), and run for
//! real only once the feature is listed in [`BUILT`]. Until then such a case must FAIL: a case
//! that passes while its feature is not listed fails the test, so the list stays honest.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};

use common::{Want, dump, entry_of, errors, host, matching, stream};
use ipreuse::krm::Source;
use ipreuse::results::Severity;
use ipreuse::run::{Outcome, run};
use serde::Deserialize;
use serde_json::Value;

/// The features that are built: cases waiting for one of these run like all others.
const BUILT: &[&str] = &["allocationStrategy", "inUseBounds"];

/// Every feature a case may wait for.
/// - `allocationStrategy`: `spec.allocationStrategy` read and validated; with `random`, an entry
///   without a computable size, or larger than 2^63−1, is an error naming the entry (SPEC §5
///   "Names", FACTS §4).
/// - `inUseBounds`: a live address (`status.indexes`) that no entry of the pool admits any more
///   is an error naming the claim and the address (SPEC §5 "In use", IPAM v1.14 webhook).
const FEATURES: &[&str] = &["allocationStrategy", "inUseBounds"];

/// Every case's pool is `myns/abc`, the upstream tests' `ipPoolMeta`.
const NAMESPACE: &str = "myns";
const POOL: &str = "abc";

/// The most addresses one `held` item may expand to (the largest upstream offset is 10000).
const HELD_LIMIT: u128 = 20_000;

// ---------------------------------------------------------------------------------------------
// The data
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    upstream: Upstream,
    /// How the upstream inputs map onto ipreuse inputs, for the reader.
    #[serde(default)]
    #[allow(dead_code)]
    translation: Option<String>,
    #[serde(default)]
    cases: Vec<Case>,
    /// Upstream cases that have no ipreuse equivalent, each with the reason.
    #[serde(default)]
    not_expressible: Vec<NotExpressible>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Upstream {
    repository: String,
    commit: String,
    file: String,
    /// The DescribeTable / Context / Go test function.
    test: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// The upstream case name, verbatim.
    name: String,
    /// Why the translation or the expectation is what it is, where that is not obvious.
    #[serde(default)]
    #[allow(dead_code)]
    why: Option<String>,
    /// A feature of [`FEATURES`] the case waits for.
    #[serde(default)]
    feature: Option<String>,
    /// The IPPool's `spec`, as written (preAllocations keyed by ipreuse claim names).
    #[serde(default)]
    pool: Value,
    /// `status.indexes`: claim name → address.
    #[serde(default)]
    live: Value,
    /// More addresses in use by other claims: `a` or `a-b` (inclusive), each address becoming a
    /// `status.indexes` entry `held-N`.
    #[serde(default)]
    held: Vec<String>,
    /// BareMetalHosts of the namespace: each needs the entry `{host}-abc`.
    #[serde(default)]
    hosts: Vec<String>,
    expect: Expect,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// No error, and these hosts' entries hold these addresses (exact text).
    #[serde(default)]
    address: BTreeMap<String, String>,
    /// No error (the IPAM webhook would accept the pool).
    #[serde(default)]
    accepted: bool,
    /// An error that names each of these hosts, and nothing written.
    #[serde(default)]
    no_address: Vec<String>,
    /// An error on the IPPool at `field` (any field when unset) saying `says`, and nothing written.
    #[serde(default)]
    rejected: Option<Said>,
    /// Also a warning on the IPPool at `field` saying `says`.
    #[serde(default)]
    warning: Option<Said>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Said {
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    says: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NotExpressible {
    name: String,
    reason: String,
}

// ---------------------------------------------------------------------------------------------
// Building the input
// ---------------------------------------------------------------------------------------------

/// A scalar as YAML: strings double-quoted (JSON escapes are YAML escapes), the rest plain.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => serde_json::to_string(s).expect("a string serialises"),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        other => other.to_string(),
    }
}

fn key(k: &str) -> String {
    let plain = !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b));
    if plain {
        k.to_string()
    } else {
        serde_json::to_string(k).expect("a string serialises")
    }
}

/// A mapping as block YAML at `indent`.
fn emit_map(out: &mut String, m: &serde_json::Map<String, Value>, indent: usize) {
    let pad = " ".repeat(indent);
    for (k, v) in m {
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                writeln!(out, "{pad}{}:", key(k)).unwrap();
                emit_map(out, inner, indent + 2);
            }
            Value::Array(items) if !items.is_empty() => {
                writeln!(out, "{pad}{}:", key(k)).unwrap();
                emit_seq(out, items, indent);
            }
            other => writeln!(out, "{pad}{}: {}", key(k), scalar(other)).unwrap(),
        }
    }
}

/// A sequence as block YAML, its dashes at `indent`.
fn emit_seq(out: &mut String, items: &[Value], indent: usize) {
    let pad = " ".repeat(indent);
    for item in items {
        match item {
            Value::Object(m) if !m.is_empty() => {
                let mut inner = String::new();
                emit_map(&mut inner, m, indent + 2);
                // The first line's indentation becomes the dash.
                out.push_str(&pad);
                out.push_str("- ");
                out.push_str(&inner[indent + 2..]);
            }
            other => writeln!(out, "{pad}- {}", scalar(other)).unwrap(),
        }
    }
}

fn to_u128(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(a) => u128::from(u32::from(a)),
        IpAddr::V6(a) => u128::from(a),
    }
}

/// `a` or `a-b` as the addresses it covers.
fn expand(item: &str) -> Result<Vec<IpAddr>, String> {
    let (lo, hi) = item.split_once('-').unwrap_or((item, item));
    let parse = |t: &str| {
        t.trim()
            .parse::<IpAddr>()
            .map_err(|e| format!("held {item:?}: {t:?} is not an address: {e}"))
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo.is_ipv4() != hi.is_ipv4() || lo > hi {
        return Err(format!(
            "held {item:?} is not an ascending range of one family"
        ));
    }
    let (a, b) = (to_u128(lo), to_u128(hi));
    if b - a >= HELD_LIMIT {
        return Err(format!("held {item:?} is more than {HELD_LIMIT} addresses"));
    }
    Ok((a..=b)
        .map(|n| match lo {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from(u32::try_from(n).expect("IPv4 stays IPv4"))),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(n)),
        })
        .collect())
}

/// The IPPool `myns/abc` of a case.
fn pool_doc(case: &Case) -> Result<String, String> {
    let mut s = format!(
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: {POOL}\n  namespace: {NAMESPACE}\n"
    );
    // The upstream tests build their pools in Go, past the API server, without the namePrefix
    // the IPPool CRD requires; the API server would refuse them before the webhook sees them.
    match &case.pool {
        Value::Object(m) if !m.is_empty() => {
            s.push_str("spec:\n");
            if !m.contains_key("namePrefix") {
                s.push_str(&format!("  namePrefix: {POOL}\n"));
            }
            emit_map(&mut s, m, 2);
        }
        Value::Null | Value::Object(_) => s.push_str(&format!("spec: {{namePrefix: {POOL}}}\n")),
        other => {
            return Err(format!(
                "pool must be a mapping (the IPPool spec), not {other}"
            ));
        }
    }
    let mut indexes = match &case.live {
        Value::Null => serde_json::Map::new(),
        Value::Object(m) => m.clone(),
        other => {
            return Err(format!(
                "live must be a mapping of claim to address, not {other}"
            ));
        }
    };
    let mut n = 0;
    for item in &case.held {
        for a in expand(item)? {
            n += 1;
            indexes.insert(format!("held-{n}"), Value::String(a.to_string()));
        }
    }
    if !indexes.is_empty() {
        s.push_str("status:\n  indexes:\n");
        emit_map(&mut s, &indexes, 4);
    }
    Ok(s)
}

/// The whole input of a case: its hosts, then its pool.
fn input(case: &Case) -> Result<String, String> {
    let mut docs: Vec<String> = case
        .hosts
        .iter()
        .map(|h| host(h, NAMESPACE).yaml())
        .collect();
    docs.push(pool_doc(case)?);
    Ok(stream(&docs))
}

// ---------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------

fn said<'a>(s: &'a Said) -> Want<'a> {
    Want {
        path: s.field.as_deref(),
        object: Some(("IPPool", POOL)),
        says: &[],
    }
}

/// The findings of `severity` that match `s` (field, object, every `says` substring).
fn found(o: &Outcome, severity: Severity, s: &Said) -> bool {
    matching(o, severity, said(s)).iter().any(|f| {
        f.field.as_ref().is_some_and(|p| !p.path.is_empty())
            && s.says.iter().all(|w| f.message.contains(w.as_str()))
    })
}

fn unchanged(o: &Outcome, text: &str) -> Result<(), String> {
    if o.outputs.len() == 1 && o.outputs[0] == text && o.changed.iter().all(|c| !c) {
        Ok(())
    } else {
        Err("the input came back changed although there is an error".into())
    }
}

/// The input for a message: long `status.indexes` lists (thousands of held addresses) cut short.
fn shorten(text: &str) -> String {
    const KEEP: usize = 60;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= KEEP {
        return text.to_string();
    }
    let mut s = lines[..KEEP].join("\n");
    writeln!(s, "\n... ({} more lines)", lines.len() - KEEP).unwrap();
    s
}

/// Runs a case and checks its expectation; `Err` says what differs.
fn check(case: &Case) -> Result<(), String> {
    let text = input(case)?;
    let sources = [Source {
        name: "input.yaml".into(),
        text: text.clone(),
    }];
    let o = run(&sources, None).map_err(|e| format!("run failed: {e}"))?;
    common::assert_fields_resolve(&sources, None, &o);
    let fail = |what: String| {
        Err(format!(
            "{what}\ninput:\n{}findings:\n{}",
            shorten(&text),
            dump(&o)
        ))
    };
    let e = &case.expect;
    if e.accepted || !e.address.is_empty() {
        if !errors(&o).is_empty() {
            return fail("expected no error".into());
        }
        for (h, want) in &e.address {
            let claim = format!("{h}-{POOL}");
            let got = entry_of(&o, NAMESPACE, POOL, &claim);
            if got.as_deref() != Some(want.as_str()) {
                return fail(format!("expected {claim}: {want:?}, got {got:?}"));
            }
        }
    } else if !e.no_address.is_empty() {
        let errs = errors(&o);
        if errs.is_empty() {
            return fail(format!(
                "expected no address for {:?}, and an error",
                e.no_address
            ));
        }
        for h in &e.no_address {
            if !errs.iter().any(|f| f.message.contains(h.as_str())) {
                return fail(format!("no error names host {h}"));
            }
        }
        if let Err(m) = unchanged(&o, &text) {
            return fail(m);
        }
    } else if let Some(r) = &e.rejected {
        if !found(&o, Severity::Error, r) {
            return fail(format!(
                "expected an error on IPPool {POOL} at {:?} saying {:?}",
                r.field, r.says
            ));
        }
        if let Err(m) = unchanged(&o, &text) {
            return fail(m);
        }
    }
    if let Some(w) = &e.warning
        && !found(&o, Severity::Warning, w)
    {
        return fail(format!(
            "expected a warning on IPPool {POOL} at {:?} saying {:?}",
            w.field, w.says
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ipam_upstream")
}

fn read(rel: &str) -> File {
    let path = data_dir().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{rel} does not read: {e}"))
}

/// What is wrong with the file's form (not with ipreuse).
fn lint(rel: &str, f: &File) -> Vec<String> {
    let mut out = Vec::new();
    let u = &f.upstream;
    if u.repository != "metal3-io/ip-address-manager" {
        out.push(format!("{rel}: upstream.repository is {:?}", u.repository));
    }
    if u.commit.len() != 40 || !u.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        out.push(format!(
            "{rel}: upstream.commit {:?} is not a commit hash",
            u.commit
        ));
    }
    if u.file.is_empty() || u.test.is_empty() {
        out.push(format!(
            "{rel}: upstream.file and upstream.test must be set"
        ));
    }
    if f.cases.is_empty() && f.not_expressible.is_empty() {
        out.push(format!("{rel}: no cases"));
    }
    let mut names = HashSet::new();
    let all = f
        .cases
        .iter()
        .map(|c| &c.name)
        .chain(f.not_expressible.iter().map(|n| &n.name));
    for name in all {
        if !names.insert(name.as_str()) {
            out.push(format!("{rel}: case {name:?} appears twice"));
        }
    }
    for n in &f.not_expressible {
        if n.reason.trim().is_empty() {
            out.push(format!(
                "{rel}: {:?} is not expressible without a reason",
                n.name
            ));
        }
    }
    for c in &f.cases {
        let e = &c.expect;
        let kinds = [
            e.accepted || !e.address.is_empty(),
            !e.no_address.is_empty(),
            e.rejected.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            out.push(format!(
                "{rel}: case {:?} must expect exactly one of address/accepted, no_address, rejected",
                c.name
            ));
        }
        if let Some(feat) = &c.feature
            && !FEATURES.contains(&feat.as_str())
        {
            out.push(format!(
                "{rel}: case {:?} waits for unknown feature {feat:?}",
                c.name
            ));
        }
    }
    out
}

/// Runs every case of one data file; panics with every failure at once.
fn run_file(rel: &str) {
    let f = read(rel);
    let mut failures = lint(rel, &f);
    let mut waiting = Vec::new();
    for c in &f.cases {
        let label = format!("{} / {} / {:?}", f.upstream.file, f.upstream.test, c.name);
        let result = check(c);
        match (c.feature.as_deref(), result) {
            (Some(feat), Ok(())) if !BUILT.contains(&feat) => failures.push(format!(
                "{label}: passes although feature {feat:?} is not in BUILT; add it to BUILT in tests/it/ipam_upstream.rs"
            )),
            (Some(feat), Err(why)) if !BUILT.contains(&feat) => waiting.push(format!(
                "{label} ({feat}): {}",
                why.lines().next().unwrap_or_default()
            )),
            (_, Ok(())) => {}
            (_, Err(why)) => failures.push(format!("{label}: {why}")),
        }
    }
    eprintln!(
        "{rel}: {} cases translated ({} waiting for a feature), {} not expressible",
        f.cases.len(),
        waiting.len(),
        f.not_expressible.len()
    );
    for w in &waiting {
        eprintln!("  waiting: {w}");
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) in {rel}:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

macro_rules! upstream_tables {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_file($file);
            }
        )*
        /// Every data file, each run by the test of the same line.
        const FILES: &[&str] = &[$($file),*];
    };
}

upstream_tables! {
    manager_allocate_address => "ippool_manager_test/allocate_address.yaml",
    manager_capi_allocate_address => "ippool_manager_test/capi_allocate_address.yaml",
    manager_create_addresses => "ippool_manager_test/create_addresses.yaml",
    manager_capi_create_addresses => "ippool_manager_test/capi_create_addresses.yaml",
    manager_update_addresses => "ippool_manager_test/update_addresses.yaml",
    manager_random_strategy => "ippool_manager_test/random_allocation_strategy.yaml",
    manager_address_counts => "ippool_manager_test/address_counts.yaml",
    manager_capacity => "ippool_manager_test/capacity.yaml",
    utils_get_ip_address => "utils_test/get_ip_address.yaml",
    utils_add_offset_to_ip => "utils_test/add_offset_to_ip.yaml",
    utils_get_pool_size => "utils_test/get_pool_size.yaml",
    utils_validate_pool => "utils_test/validate_pool.yaml",
    webhook_default => "ippool_webhook_test/default.yaml",
    webhook_validation => "ippool_webhook_test/validation.yaml",
    webhook_update_validation => "ippool_webhook_test/update_validation.yaml",
}

#[test]
fn every_data_file_has_a_test() {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("data dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                walk(&p, base, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                let rel = p.strip_prefix(base).expect("under base");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut found = Vec::new();
    walk(&data_dir(), &data_dir(), &mut found);
    found.sort();
    let mut listed: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed, "add each data file to upstream_tables!");
}

#[test]
fn built_lists_only_known_features() {
    for f in BUILT {
        assert!(FEATURES.contains(f), "BUILT names unknown feature {f:?}");
    }
}

/// The runner itself: each kind of expectation fails when ipreuse does otherwise.
#[test]
fn the_runner_fails_wrong_expectations() {
    let file: File = serde_saphyr::from_str(
        r#"
upstream: {repository: metal3-io/ip-address-manager, commit: 0000000000000000000000000000000000000000, file: x, test: x}
cases:
  - name: wrong address
    pool: {pools: [{start: 192.168.0.10, end: 192.168.0.20}]}
    held: ["192.168.0.10"]
    hosts: [h]
    expect: {address: {h: 192.168.0.10}}
  - name: accepted although the pool is bad
    pool: {pools: [{start: 192.168.0.20, end: 192.168.0.10}]}
    expect: {accepted: true}
  - name: no address although there is one
    pool: {pools: [{start: 192.168.0.10, end: 192.168.0.20}]}
    hosts: [h]
    expect: {no_address: [h]}
  - name: rejected although the pool is good
    pool: {pools: [{start: 192.168.0.10, end: 192.168.0.20}]}
    expect: {rejected: {}}
  - name: rejected at the wrong field
    pool: {pools: [{start: 192.168.0.20, end: 192.168.0.10}]}
    expect: {rejected: {field: "spec.pools[0].end"}}
  - name: a warning that is not there
    pool: {pools: [{start: 192.168.0.10, end: 192.168.0.20}]}
    hosts: [h]
    expect: {address: {h: 192.168.0.10}, warning: {field: spec.preAllocations.h-abc}}
  - name: the right address
    pool: {pools: [{start: 192.168.0.10, end: 192.168.0.20}]}
    held: ["192.168.0.10-192.168.0.11"]
    hosts: [h]
    expect: {address: {h: 192.168.0.12}}
"#,
    )
    .expect("reads");
    let (last, wrong) = file.cases.split_last().expect("cases");
    for c in wrong {
        assert!(check(c).is_err(), "{:?} passed", c.name);
    }
    assert_eq!(check(last), Ok(()));
}
