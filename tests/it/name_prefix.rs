//! Issue 35, acceptance 1: two IPPools of one namespace whose addresses overlap and whose
//! `namePrefix` is the same are an error on each. The IPAM names the IPAddress of every address
//! `{namePrefix}-{address}` (FACTS §4) and neither pool knows the other's preallocations: a claim
//! of one pool without a preallocation can take the address ipreuse preallocated in the other,
//! and the claim it was preallocated for then cannot create its IPAddress for as long as the
//! other exists. Overlapping pools with different prefixes stay a warning that says so.

use crate::common::{
    self, Want, assert_error, assert_transactional, config, dump, errors, host, pool, range,
    run_docs, run_text, stream, warnings,
};
use crate::fixtures::Pool;
use ipreuse::results::Finding;
use serde_json::json;

const NS: &str = "lab";

/// The errors at `spec.namePrefix`, as (pool, message).
fn prefix_errors(o: &ipreuse::run::Outcome) -> Vec<(String, String)> {
    errors(o)
        .into_iter()
        .filter(|f| {
            f.field
                .as_ref()
                .is_some_and(|x| x.path == "spec.namePrefix")
        })
        .map(|f: &Finding| {
            (
                f.resource_ref
                    .as_ref()
                    .map(|r| r.name.clone())
                    .unwrap_or_default(),
                f.message.clone(),
            )
        })
        .collect()
}

fn v4(name: &str, start: &str, end: &str) -> Pool {
    pool(name, NS).range(range(start, end)).prefix(24)
}

fn hosts(n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| host(&format!("node-{i}"), NS).yaml())
        .collect()
}

/// The table: pools (name, prefix, range), the config's `pools` (all when empty), and for each
/// pool that gets an error, the other pool, the address and the IPAddress name it names.
#[test]
fn pools_that_name_their_ipaddresses_alike_are_an_error_on_each() {
    struct Case {
        what: &'static str,
        pools: Vec<Pool>,
        managed: Vec<&'static str>,
        /// (pool, other pool, address, IPAddress name)
        want: Vec<(&'static str, &'static str, &'static str, &'static str)>,
    }
    let cases = vec![
        Case {
            what: "one prefix, overlapping ranges",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("b", "10.0.0.15", "10.0.0.30").name_prefix("shared"),
            ],
            managed: vec![],
            want: vec![
                ("a", "b", "10.0.0.15", "shared-10-0-0-15"),
                ("b", "a", "10.0.0.15", "shared-10-0-0-15"),
            ],
        },
        Case {
            what: "one prefix, ranges apart",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("b", "10.0.0.21", "10.0.0.30").name_prefix("shared"),
            ],
            managed: vec![],
            want: vec![],
        },
        Case {
            what: "different prefixes, overlapping ranges (the warning)",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20"),
                v4("b", "10.0.0.15", "10.0.0.30"),
            ],
            managed: vec![],
            want: vec![],
        },
        Case {
            what: "IPv6: the address is written as the IPAM names it",
            pools: vec![
                pool("a", NS)
                    .range(range("fd00::10", "fd00::20"))
                    .prefix(64)
                    .name_prefix("v6"),
                pool("b", NS)
                    .range(range("fd00::18", "fd00::ff"))
                    .prefix(64)
                    .name_prefix("v6"),
            ],
            managed: vec![],
            want: vec![
                ("a", "b", "fd00::18", "v6-fd00--18"),
                ("b", "a", "fd00::18", "v6-fd00--18"),
            ],
        },
        Case {
            what: "the lowest address both hand out: a subnet's walk starts after the address written",
            pools: vec![
                pool("a", NS)
                    .range(common::subnet("10.0.0.0/24"))
                    .name_prefix("shared"),
                v4("b", "10.0.0.0", "10.0.0.5").name_prefix("shared"),
            ],
            managed: vec![],
            want: vec![
                ("a", "b", "10.0.0.1", "shared-10-0-0-1"),
                ("b", "a", "10.0.0.1", "shared-10-0-0-1"),
            ],
        },
        Case {
            what: "a pool ipreuse does not manage still collides with one it fills",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("b", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
            ],
            managed: vec!["lab/a"],
            want: vec![
                ("a", "b", "10.0.0.10", "shared-10-0-0-10"),
                ("b", "a", "10.0.0.10", "shared-10-0-0-10"),
            ],
        },
        Case {
            what: "neither pool is filled: nothing of ipreuse's doing",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("b", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("c", "10.1.0.10", "10.1.0.20"),
            ],
            managed: vec!["lab/c"],
            want: vec![],
        },
        Case {
            what: "three pools of one prefix: one error per pair, on each",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("p"),
                v4("b", "10.0.0.20", "10.0.0.30").name_prefix("p"),
                v4("c", "10.0.0.5", "10.0.0.12").name_prefix("p"),
            ],
            managed: vec![],
            want: vec![
                ("a", "b", "10.0.0.20", "p-10-0-0-20"),
                ("b", "a", "10.0.0.20", "p-10-0-0-20"),
                ("a", "c", "10.0.0.10", "p-10-0-0-10"),
                ("c", "a", "10.0.0.10", "p-10-0-0-10"),
            ],
        },
        Case {
            what: "a templated prefix is never compared",
            pools: vec![
                v4("a", "10.0.0.10", "10.0.0.20").name_prefix("shared"),
                v4("b", "10.0.0.15", "10.0.0.30").name_prefix("\"${PREFIX}\""),
            ],
            managed: vec![],
            want: vec![],
        },
    ];
    for case in cases {
        let mut docs: Vec<String> = case.pools.iter().map(Pool::yaml).collect();
        docs.extend(hosts(2));
        let cfg = if case.managed.is_empty() {
            config(json!({"controllerFlag": false}))
        } else {
            config(json!({"controllerFlag": false, "pools": case.managed}))
        };
        let o = run_docs(&docs, Some(&cfg));
        let got = prefix_errors(&o);
        assert_eq!(
            got.len(),
            case.want.len(),
            "{}: {got:#?}\n{}",
            case.what,
            dump(&o)
        );
        for (p, other, address, name) in &case.want {
            let message = got
                .iter()
                .find(|(on, m)| on == p && m.contains(&format!("IPPool {NS}/{other},")))
                .map(|(_, m)| m)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: no error on {p} naming {other}\n{}",
                        case.what,
                        dump(&o)
                    )
                });
            for says in [
                &format!("{NS}/{p}"),
                &format!("{NS}/{other}"),
                *address,
                *name,
                "namePrefix of its own",
                "keep its range apart",
                "already exists",
            ] {
                assert!(
                    message.contains(says),
                    "{}: {says:?} not in {message}",
                    case.what
                );
            }
            let prefix = case
                .pools
                .iter()
                .find(|x| x.name == *p)
                .and_then(|x| x.name_prefix.clone())
                .unwrap_or_default();
            assert!(message.contains(&format!("{prefix:?}")), "{message}");
        }
        if case.want.is_empty() {
            assert!(errors(&o).is_empty(), "{}: {}", case.what, dump(&o));
        } else {
            let text = stream(&docs);
            let o = run_text(&text, Some(&cfg));
            assert_transactional(&o, &[&text]);
        }
        // A pair reported as an error is not warned about as an overlap too.
        for (p, other, _, _) in &case.want {
            assert!(
                !warnings(&o).iter().any(|w| {
                    w.resource_ref.as_ref().is_some_and(|r| r.name == *p)
                        && w.message.contains(&format!("{NS}/{other}"))
                }),
                "{}: {}",
                case.what,
                dump(&o)
            );
        }
    }
}

/// Overlapping pools with different prefixes stay a warning (docs/decisions.md), which says
/// what the IPAM does and ipreuse cannot prevent.
#[test]
fn overlapping_pools_with_different_prefixes_are_a_warning_that_says_why() {
    let mut docs = vec![
        v4("a", "10.0.0.10", "10.0.0.20").yaml(),
        v4("b", "10.0.0.15", "10.0.0.30").yaml(),
    ];
    docs.extend(hosts(2));
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert!(errors(&o).is_empty(), "{}", dump(&o));
    for (p, other) in [("a", "b"), ("b", "a")] {
        common::assert_warning(
            &o,
            Want {
                object: Some(("IPPool", p)),
                path: Some("spec.pools"),
                says: &[
                    &format!("It overlaps IPPool {NS}/{other}"),
                    "keep their ranges apart",
                    "claim without a preallocation in one pool can take an address the other pool preallocated",
                ],
            },
        );
    }
}

/// The binary exits 1, as for every error, and writes nothing.
#[test]
fn the_run_fails_with_exit_code_1() {
    let mut docs = vec![
        v4("a", "10.0.0.10", "10.0.0.20")
            .name_prefix("shared")
            .yaml(),
        v4("b", "10.0.0.15", "10.0.0.30")
            .name_prefix("shared")
            .yaml(),
    ];
    docs.extend(hosts(1));
    let out = common::run_bin_stdin(&[], &stream(&docs));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("IPPool lab/a spec.namePrefix"), "{stderr}");
    assert!(stderr.contains("IPPool lab/b spec.namePrefix"), "{stderr}");
}

/// A pool without a namePrefix, which the IPPool CRD requires, is an error at the field and
/// gets no entries (before issue 35 it was filled, and `kubectl apply` refused it).
#[test]
fn a_pool_without_a_name_prefix_is_an_error_and_gets_no_entries() {
    let p = v4("a", "10.0.0.10", "10.0.0.20").yaml();
    let without: String = p
        .lines()
        .filter(|l| !l.contains("namePrefix"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut docs = vec![without];
    docs.extend(hosts(1));
    let text = stream(&docs);
    let o = run_text(&text, None);
    assert_transactional(&o, &[&text]);
    assert_error(
        &o,
        Want {
            object: Some(("IPPool", "a")),
            path: Some("spec.namePrefix"),
            says: &["Add a namePrefix", "the API server refuses"],
        },
    );
}
