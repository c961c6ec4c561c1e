//! Bad input (issue acceptance 7): each case is a clear error that names the object and the
//! field, the items come back unchanged, and nothing panics.

use crate::common;

use common::*;
use ipreuse::krm::Source;
use ipreuse::results::Severity;
use ipreuse::run::run;
use proptest::prelude::*;
use serde_json::json;

/// Hosts in `ns` and a good pool beside the bad one, so that there is something to fill.
fn around(bad_pool: Pool) -> Vec<String> {
    vec![
        host("node-1", "ns").yaml(),
        host("node-2", "ns").yaml(),
        pool("good", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .prefix(24)
            .yaml(),
        bad_pool.yaml(),
    ]
}

/// Runs, expects failure with every item unchanged, and an error at `path` on IPPool `bad`.
fn bad_pool_error(p: Pool, path: &str, says: &[&str]) {
    let docs = around(p);
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some(path),
            object: Some(("IPPool", "bad")),
            says,
        },
    );
}

fn bad() -> Pool {
    pool("bad", "ns")
}

// ---- framing --------------------------------------------------------------------------------

#[test]
fn not_yaml_is_an_error_naming_the_source() {
    let sources = [
        Source {
            name: "good.yaml".into(),
            text: host("node-1", "ns").yaml(),
        },
        Source {
            name: "broken.yaml".into(),
            text: "apiVersion: v1\nkind: [ConfigMap\nmetadata: {name: x\n".into(),
        },
    ];
    match run(&sources, None) {
        Ok(o) => panic!("expected an error, got outputs {:?}", o.outputs),
        Err(e) => assert!(e.to_string().contains("broken.yaml"), "{e}"),
    }
}

/// A ResourceList run that fails: the output is the input plus only a `results:` key.
fn assert_rl_unchanged_but_results(input: &str, o: &ipreuse::run::Outcome) {
    assert!(!errors(o).is_empty(), "{}", dump(o));
    let out = &o.outputs[0];
    assert!(is_line_subsequence(input, out), "input lines lost:\n{out}");
    let added = added_lines(input, out);
    assert_eq!(added.first().copied(), Some("results:"), "added: {added:?}");
    assert!(
        added[1..]
            .iter()
            .all(|l| l.is_empty() || l.starts_with(' ') || l.starts_with('-')),
        "lines outside results: were added: {added:?}"
    );
}

#[test]
fn resource_list_items_not_a_list() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  a: 1\n  b: 2\n";
    let o = run_text(input, None);
    assert_rl_unchanged_but_results(input, &o);
    assert_error(
        &o,
        Want {
            path: Some("items"),
            says: &["list"],
            ..Want::default()
        },
    );
}

#[test]
fn resource_list_with_a_wrong_api_version() {
    let items = [
        host("node-1", "ns").yaml(),
        pool("p", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let input = resource_list(&items, None)
        .replace("config.kubernetes.io/v1\n", "config.kubernetes.io/v2\n");
    let o = run_text(&input, None);
    assert_rl_unchanged_but_results(&input, &o);
    assert_error(
        &o,
        Want {
            path: Some("apiVersion"),
            says: &["config.kubernetes.io/v2"],
            ..Want::default()
        },
    );
    assert_eq!(rl_entries(&o.outputs[0]), rl_entries(&input));
}

#[test]
fn resource_list_with_a_bad_pool_returns_the_items_unchanged() {
    let items = around(bad().range(range("10.8.0.20", "10.8.0.10")));
    let input = resource_list(&items, None);
    let o = run_text(&input, None);
    assert_rl_unchanged_but_results(&input, &o);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools[0].start"),
            object: Some(("IPPool", "bad")),
            ..Want::default()
        },
    );
}

#[test]
fn a_stream_document_that_is_not_an_object_is_an_error() {
    let docs = [
        host("node-1", "ns").yaml(),
        "- just\n- a list\n".to_string(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            says: &["input.yaml", "2"],
            ..Want::default()
        },
    );
}

// ---- pools the webhook would reject ---------------------------------------------------------

#[test]
fn start_after_end() {
    bad_pool_error(
        bad().range(range("10.8.0.20", "10.8.0.10")),
        "spec.pools[0].start",
        &["10.8.0.20", "10.8.0.10"],
    );
}

// The v1.14 webhook checks neither families nor an IPv4 prefix over 32: ipreuse refuses such
// pools all the same (the IPAM cannot allocate usable addresses from them), and says so.
const LETS_THROUGH: &str = "the IPAM webhook lets this through, but the IPAM cannot allocate";

/// The error at `path` on IPPool `bad` is one of ipreuse's own, not the webhook's.
fn not_the_webhook(p: Pool, path: &str, says: &[&str]) {
    let mut all = says.to_vec();
    all.push(LETS_THROUGH);
    bad_pool_error(p.clone(), path, &all);
    let o = run_docs(&around(p), None);
    assert!(
        errors(&o)
            .iter()
            .all(|f| !f.message.contains("webhook would reject")),
        "{}",
        dump(&o)
    );
}

#[test]
fn ipv4_and_ipv6_mixed_in_one_entry() {
    not_the_webhook(
        bad().range(range("10.8.0.10", "2001:db8::20")),
        "spec.pools[0].end",
        &["2001:db8::20"],
    );
}

#[test]
fn ipv4_gateway_in_an_ipv6_entry() {
    not_the_webhook(
        bad().range(range("2001:db8::10", "2001:db8::20").gateway("10.8.0.1")),
        "spec.pools[0].gateway",
        &["10.8.0.1"],
    );
}

#[test]
fn entry_prefix_over_128() {
    bad_pool_error(
        bad().range(range("2001:db8::10", "2001:db8::20").prefix(129)),
        "spec.pools[0].prefix",
        &["129"],
    );
}

#[test]
fn pool_prefix_over_128() {
    bad_pool_error(
        bad()
            .range(range("2001:db8::10", "2001:db8::20"))
            .prefix(200),
        "spec.prefix",
        &["200"],
    );
}

#[test]
fn entry_prefix_over_32_for_ipv4() {
    not_the_webhook(
        bad().range(range("10.8.0.10", "10.8.0.20").prefix(33)),
        "spec.pools[0].prefix",
        &["33"],
    );
}

#[test]
fn pool_prefix_over_32_for_ipv4_entries() {
    not_the_webhook(
        bad().range(range("10.8.0.10", "10.8.0.20")).prefix(33),
        "spec.prefix",
        &["33", "spec.pools[0]"],
    );
}

#[test]
fn an_address_that_does_not_parse() {
    bad_pool_error(
        bad().range(range("10.8.0.300", "10.8.0.310")),
        "spec.pools[0].start",
        &["10.8.0.300", "the IPAM webhook would reject this pool"],
    );
}

// ---- allocationStrategy (IPAM v1.14) --------------------------------------------------------

#[test]
fn allocation_strategy_other_than_sequential_or_random() {
    for (raw, hint) in [
        ("Random", Some("did you mean random?")),
        ("sequental", Some("did you mean sequential?")),
        ("ordinal", None),
        ("\"\"", None),
    ] {
        let p = bad()
            .range(range("10.8.0.10", "10.8.0.20"))
            .allocation_strategy(raw);
        let mut says = vec!["spec.allocationStrategy", "sequential and random"];
        says.extend(hint);
        bad_pool_error(p, "spec.allocationStrategy", &says);
    }
}

#[test]
fn allocation_strategy_that_is_not_a_string() {
    for raw in ["3", "true", "[random]", "{random: true}"] {
        let p = bad()
            .range(range("10.8.0.10", "10.8.0.20"))
            .allocation_strategy(raw);
        bad_pool_error(
            p,
            "spec.allocationStrategy",
            &["the strings sequential and random"],
        );
    }
}

#[test]
fn allocation_strategy_as_a_template_skips_the_pool() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        pool("p", "ns")
            .range(range("10.8.0.10", "10.8.0.20"))
            .allocation_strategy("${IPAM_STRATEGY}")
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_warning(
        &o,
        Want {
            path: Some("spec.allocationStrategy"),
            object: Some(("IPPool", "p")),
            says: &["${IPAM_STRATEGY}"],
        },
    );
    // The pool the host needs is skipped: that is an error, and nothing is written.
    assert_transactional(&o, &[stream(&docs).as_str()]);
}

#[test]
fn random_with_an_entry_without_a_size() {
    for (r, says) in [
        (start_only("10.8.0.10"), "neither end nor subnet"),
        (
            Range {
                end: Some("10.8.0.20".into()),
                ..Range::default()
            },
            "neither start nor subnet",
        ),
        (subnet("2001:db8::/32"), "2^63 - 1"),
    ] {
        bad_pool_error(
            bad()
                .range(range("10.8.0.1", "10.8.0.5"))
                .range(r)
                .allocation_strategy("random"),
            "spec.pools[1]",
            &[
                "allocationStrategy random",
                says,
                "the IPAM webhook would reject this pool",
            ],
        );
    }
}

#[test]
fn a_subnet_that_does_not_parse() {
    bad_pool_error(
        bad().range(subnet("10.8.0.0/33")),
        "spec.pools[0].subnet",
        &["10.8.0.0/33"],
    );
}

#[test]
fn ipv4_with_leading_zeros_in_a_pool_entry() {
    bad_pool_error(
        bad().range(range("10.8.0.010", "10.8.0.20")),
        "spec.pools[0].start",
        &["10.8.0.010"],
    );
}

#[test]
fn a_gateway_that_does_not_parse() {
    bad_pool_error(
        bad().range(range("10.8.0.10", "10.8.0.20")).gateway("gw"),
        "spec.gateway",
        &["gw"],
    );
}

#[test]
fn an_entry_with_none_of_start_end_subnet() {
    bad_pool_error(
        bad().range(Range::default().prefix(24).gateway("10.8.0.1")),
        "spec.pools[0]",
        &[],
    );
}

// ---- names ----------------------------------------------------------------------------------

#[test]
fn claim_name_over_253_characters() {
    // A 250-character host name is a valid object name; with "-pool" the claim is 255.
    let long = "a".repeat(250);
    let docs = vec![
        host(&long, "ns").yaml(),
        host("node-1", "ns").yaml(),
        pool("pool", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", long.as_str())),
            says: &["253"],
        },
    );
}

/// `node-1-bmc` + `v4` and `node-1` + `bmc-v4` both make the claim `node-1-bmc-v4`.
fn colliding_claims(ns_of_second_host: &str) -> Vec<String> {
    vec![
        host("node-1-bmc", "ns").yaml(),
        host("node-1", ns_of_second_host).yaml(),
        pool("v4", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
        pool("bmc-v4", "ns")
            .range(range("10.9.1.10", "10.9.1.20"))
            .yaml(),
        pool("bmc-v4", "other")
            .range(range("10.9.1.10", "10.9.1.20"))
            .yaml(),
    ]
}

#[test]
fn claim_name_collision_names_both_hosts_and_both_pools() {
    let docs = colliding_claims("ns");
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    let errs = matching(
        &o,
        Severity::Error,
        Want {
            says: &["node-1-bmc-v4", "made twice"],
            ..Want::default()
        },
    );
    assert_eq!(errs.len(), 1, "{}", dump(&o));
    let e = errs[0];
    for name in [
        "BareMetalHost node-1-bmc with IPPool v4",
        "BareMetalHost node-1 with IPPool bmc-v4",
        "\"ns\"",
    ] {
        assert!(e.message.contains(name), "{name:?} in {}", e.message);
    }
    // On the host of the pair whose pool sorts second ("v4" > "bmc-v4"), at its name.
    let r = e.resource_ref.as_ref().expect("resourceRef");
    assert_eq!(
        (r.kind.as_str(), r.name.as_str()),
        ("BareMetalHost", "node-1-bmc")
    );
    assert_eq!(
        e.field.as_ref().map(|f| f.path.as_str()),
        Some("metadata.name")
    );
}

#[test]
fn claim_names_of_different_namespaces_or_unmanaged_pools_do_not_collide() {
    // node-1 in another namespace pairs with other/bmc-v4: its claim lives there.
    let o = run_docs(&colliding_claims("other"), None);
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "ns", "v4", "node-1-bmc-v4").as_deref(),
        Some("10.9.0.10")
    );
    assert_eq!(
        entry_of(&o, "other", "bmc-v4", "node-1-bmc-v4").as_deref(),
        Some("10.9.1.10")
    );
    // bmc-v4 left out of spec.pools: only one pair makes the name.
    let cfg = json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse",
        "metadata": {"name": "c"}, "spec": {"pools": ["v4"]}});
    let o = run_docs(&colliding_claims("ns"), Some(&cfg));
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "ns", "v4"),
        [
            ("node-1-v4".to_string(), "10.9.0.10".to_string()),
            ("node-1-bmc-v4".to_string(), "10.9.0.11".to_string()),
        ]
    );
    assert_eq!(pool_entries(&o, "ns", "bmc-v4"), []);
}

#[test]
fn claim_name_not_dns_1123() {
    let docs = vec![
        host("Node_A", "ns").yaml(),
        host("node-1", "ns").yaml(),
        pool("pool", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "Node_A")),
            says: &["Node_A-pool"],
        },
    );
}

#[test]
fn two_objects_of_one_kind_namespace_and_name() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("node-1", "ns").label("copy", "yes").yaml(),
        pool("pool", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["node-1"],
        },
    );
}

#[test]
fn a_missing_namespace_is_default_for_duplicates() {
    // `metadata.namespace` unset means `default`: these two are one object.
    let mut a = host("node-1", "default");
    let mut b = host("node-1", "default");
    a.ns = None;
    b.ns = Some("default".into());
    let docs = vec![
        a.yaml(),
        b.yaml(),
        pool("pool", "default")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-1")),
            ..Want::default()
        },
    );
}

#[test]
fn a_name_that_is_not_a_string_names_the_object_by_kind_and_position() {
    for (bad, found) in [
        ("123", "is 123, not a string"),
        ("[a]", "is [\"a\"], not a string"),
    ] {
        let docs = vec![
            host("node-1", "ns").yaml(),
            pool("pool", "ns")
                .range(range("10.9.0.10", "10.9.0.20"))
                .yaml(),
            host(bad, "ns").yaml(),
        ];
        let o = run_docs(&docs, None);
        assert_transactional(&o, &[stream(&docs).as_str()]);
        assert_error(
            &o,
            Want {
                path: Some("metadata.name"),
                object: Some(("BareMetalHost", "")),
                says: &["BareMetalHost #3 (the 3rd item)", found],
            },
        );
    }
    let docs = vec![
        host("node-1", "ns").yaml(),
        pool("[p]", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("IPPool", "")),
            says: &["IPPool #2 (the 2nd item)"],
        },
    );
}

#[test]
fn a_missing_name_or_a_namespace_that_is_not_a_string_is_an_error() {
    let nameless = host("x", "ns").yaml().replace("  name: x\n", "");
    let docs = vec![nameless, host("node-1", "ns").yaml()];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "")),
            says: &["BareMetalHost #1 (the 1st item)", "is missing"],
        },
    );
    let docs = vec![
        host("node-1", "ns").yaml(),
        pool("pool", "7")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.namespace"),
            object: Some(("IPPool", "pool")),
            says: &["IPPool pool #2 (the 2nd item)", "is 7, not a string"],
        },
    );
    // Objects the function does not read may be as they are.
    let other = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 5\n".to_string();
    let input = [other.clone(), other];
    let o = run_docs(&input, None);
    assert_no_errors(&o);
    assert_eq!(
        o.outputs,
        [stream(&input)],
        "nothing to fill, nothing changed"
    );
}

#[test]
fn same_name_in_two_namespaces_is_fine() {
    let docs = vec![
        host("node-1", "a").yaml(),
        host("node-1", "b").yaml(),
        pool("pool", "a")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
        pool("pool", "b")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    // Each namespace's host gets its own namespace's pool's first address.
    for ns in ["a", "b"] {
        assert_eq!(
            pool_entries(&o, ns, "pool"),
            [("node-1-pool".to_string(), "10.9.0.10".to_string())],
            "{ns}"
        );
    }
}

// ---- functionConfig -------------------------------------------------------------------------

#[test]
fn an_unknown_function_config_field() {
    let docs = around(bad().range(range("10.8.0.10", "10.8.0.20")));
    let cfg = config(json!({"prnue": true}));
    let o = run_docs(&docs, Some(&cfg));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.prnue"),
            object: Some(("IPReuse", "cfg")),
            says: &["prnue", "prune"],
        },
    );
}

#[test]
fn a_bad_function_config_value_names_the_allowed_values() {
    let docs = around(bad().range(range("10.8.0.10", "10.8.0.20")));
    let cfg = config(json!({"mode": "apply"}));
    let o = run_docs(&docs, Some(&cfg));
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.mode"),
            object: Some(("IPReuse", "cfg")),
            says: &["apply", "fill", "check"],
        },
    );
}

#[test]
fn an_unknown_field_in_a_resource_list_function_config() {
    let items = around(bad().range(range("10.8.0.10", "10.8.0.20")));
    let input = resource_list(
        &items,
        Some(
            "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: cfg\nspec:\n  stratgy: sequential\n",
        ),
    );
    let o = run_text(&input, None);
    assert_rl_unchanged_but_results(&input, &o);
    assert_error(
        &o,
        Want {
            path: Some("spec.stratgy"),
            object: Some(("IPReuse", "cfg")),
            says: &["strategy"],
        },
    );
}

// ---- past the IPAM's practical walk ---------------------------------------------------------

#[test]
fn an_entry_after_an_unbounded_entry_gives_no_candidates() {
    // Entry 0 has only a start: the walk never reaches entry 1, whose addresses are below it.
    let p = bad()
        .range(start_only("10.8.0.100"))
        .range(range("10.8.0.1", "10.8.0.5"))
        .entry("node-1-bad", "10.8.0.3");
    bad_pool_error(p, "spec.preAllocations.node-1-bad", &["10.8.0.3"]);
}

#[test]
fn a_preallocation_past_walk_position_2_pow_20_is_an_error() {
    // 10.0.0.0 is position 0, so 10.16.0.0 is position 2^20 (still a candidate) and
    // 10.16.0.1 is position 2^20 + 1 (not one).
    let p = |addr: &str| {
        bad()
            .range(range("10.0.0.0", "10.255.255.254"))
            .prefix(8)
            .entry("node-1-bad", addr)
    };
    let ok = run_docs(&around(p("10.16.0.0")), None);
    assert_no_errors(&ok);
    assert_eq!(
        entry_of(&ok, "ns", "bad", "node-1-bad").as_deref(),
        Some("10.16.0.0")
    );
    assert_eq!(
        entry_of(&ok, "ns", "bad", "node-2-bad").as_deref(),
        Some("10.0.0.1"),
        "the first address after the /8's network address"
    );
    bad_pool_error(
        p("10.16.0.1"),
        "spec.preAllocations.node-1-bad",
        &["10.16.0.1"],
    );
}

#[test]
fn an_unbounded_entry_stops_at_2_pow_20() {
    // start-only: positions 0..=2^20 are candidates, nothing after.
    let p = |addr: &str| {
        bad()
            .range(start_only("10.0.0.0"))
            .prefix(8)
            .entry("node-1-bad", addr)
    };
    let ok = run_docs(&around(p("10.16.0.0")), None);
    assert_no_errors(&ok);
    assert_eq!(
        entry_of(&ok, "ns", "bad", "node-1-bad").as_deref(),
        Some("10.16.0.0")
    );
    assert_eq!(
        entry_of(&ok, "ns", "bad", "node-2-bad").as_deref(),
        Some("10.0.0.1"),
        "the first address after the /8's network address"
    );
    bad_pool_error(
        p("10.200.0.1"),
        "spec.preAllocations.node-1-bad",
        &["10.200.0.1"],
    );
}

// ---- unrendered templates -------------------------------------------------------------------

#[test]
fn a_template_in_a_pool_that_hosts_need_is_an_error() {
    let p = bad().range(range("${POOL_START}", "10.8.0.20"));
    let docs = around(p);
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools[0].start"),
            object: Some(("IPPool", "bad")),
            ..Want::default()
        },
    );
}

#[test]
fn a_template_in_a_pool_no_host_needs_is_a_warning() {
    // No host in namespace `empty`: the pool is skipped with a warning naming the field.
    let docs = vec![
        host("node-1", "ns").yaml(),
        pool("good", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
        pool("bad", "empty")
            .range(range("${POOL_START}", "10.8.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [true]);
    assert_warning(
        &o,
        Want {
            path: Some("spec.pools[0].start"),
            object: Some(("IPPool", "bad")),
            says: &["${POOL_START}"],
        },
    );
    assert_eq!(
        entry_of(&o, "ns", "good", "node-1-good").as_deref(),
        Some("10.9.0.10")
    );
    assert!(pool_entries(&o, "empty", "bad").is_empty());
}

#[test]
fn a_template_in_a_host_name_is_skipped_with_a_warning() {
    let docs = vec![
        host("node-1", "ns").yaml(),
        host("{{ .name }}", "ns")
            .yaml()
            .replace("name: {{ .name }}", "name: \"{{ .name }}\""),
        pool("good", "ns")
            .range(range("10.9.0.10", "10.9.0.20"))
            .yaml(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "{{ .name }}")),
            ..Want::default()
        },
    );
    assert_eq!(pool_entries(&o, "ns", "good").len(), 1);
}

#[test]
fn a_prefix_template_in_a_needed_pool_is_an_error() {
    let p = bad().range(range("10.8.0.10", "10.8.0.20").prefix_text("${PREFIX}"));
    let docs = around(p);
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[stream(&docs).as_str()]);
    assert_error(
        &o,
        Want {
            path: Some("spec.pools[0].prefix"),
            object: Some(("IPPool", "bad")),
            ..Want::default()
        },
    );
}

// ---- no panics ------------------------------------------------------------------------------

fn valid_input() -> String {
    stream(&[
        host("node-10", "ns").yaml(),
        host("node-2", "ns").pin("pool-a", "10.0.0.15").yaml(),
        host("web-1", "other").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.40").gateway("10.0.0.10"))
            .prefix(24)
            .entry("node-10-pool-a", "10.0.0.12")
            .live("node-2-pool-a", "10.0.0.15")
            .yaml(),
        pool("pool-b", "ns")
            .range(subnet("10.0.0.32/28"))
            .dns("10.0.0.33")
            .yaml(),
        pool("v6", "other")
            .range(range("fd00::10", "fd00::ff"))
            .prefix(64)
            .entry("web-1-v6", "FD00::0011")
            .yaml(),
        cluster("c", "ns", "10.0.0.11"),
    ])
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    proptest::collection::vec(
        prop_oneof![
            any::<usize>().prop_map(Mutation::Delete),
            any::<usize>().prop_map(Mutation::Duplicate)
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(pt_config_persisted(64))]

    /// Deleting or duplicating lines never makes `run` panic; when it reports an error, every
    /// item comes back unchanged; otherwise a second run changes nothing.
    #[test]
    fn run_never_panics_on_mutated_input(muts in mutations(), as_resource_list in any::<bool>()) {
        let mut lines: Vec<String> = valid_input().lines().map(str::to_string).collect();
        for m in &muts {
            match *m {
                Mutation::Delete(i) if !lines.is_empty() => {
                    let i = i % lines.len();
                    lines.remove(i);
                }
                Mutation::Duplicate(i) if !lines.is_empty() => {
                    let i = i % lines.len();
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                _ => {}
            }
        }
        let mut text = lines.join("\n");
        text.push('\n');
        if as_resource_list {
            let docs: Vec<String> = text.split("---\n").map(str::to_string).collect();
            text = resource_list(&docs, None);
        }
        let src = [Source { name: "in.yaml".into(), text: text.clone() }];
        if let Ok(o) = run(&src, None) {
            assert_fields_resolve(&src, None, &o);
            if o.has_errors() {
                if as_resource_list {
                    prop_assert!(is_line_subsequence(&text, &o.outputs[0]));
                } else {
                    prop_assert_eq!(&o.outputs[0], &text);
                }
            } else if !as_resource_list {
                let again = run(&[Source { name: "in.yaml".into(), text: o.outputs[0].clone() }], None);
                let again = again.map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert!(!again.has_errors(), "second run failed:\n{}", dump(&again));
                prop_assert_eq!(&again.outputs[0], &o.outputs[0]);
            }
        }
    }
}

#[test]
fn the_unmutated_input_is_valid() {
    let o = run_text(&valid_input(), None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [true]);
    assert!(
        matching(&o, Severity::Warning, Want::default()).len() >= 2,
        "{}",
        dump(&o)
    );
}
