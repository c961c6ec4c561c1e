//! Which objects count and which pairs need an entry (SPEC §2–§4): check mode, local config,
//! namespaces, hostSelector and pools narrowing, and the capabilities not available yet.

use crate::common;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, assert_warning, config, entry_of,
    host, pool, pool_entries, range, resource_list, rl_entries, run_docs, run_text, stream,
};
use serde_json::json;

fn pool_a(ns: &str) -> String {
    pool("pool-a", ns)
        .range(range("10.0.0.10", "10.0.0.20"))
        .yaml()
}

#[test]
fn check_mode_passes_on_an_up_to_date_package_and_changes_nothing() {
    let docs = vec![host("node-1", "m3").yaml(), pool_a("m3")];
    let filled = run_docs(&docs, None);
    assert_no_errors(&filled);
    let up_to_date = filled.outputs[0].clone();
    let check = config(json!({"mode": "check"}));
    let o = run_text(&up_to_date, Some(&check));
    assert_no_errors(&o);
    assert_eq!(o.outputs, vec![up_to_date]);
}

#[test]
fn check_mode_fails_when_fill_would_change_an_item() {
    let input = stream(&[host("node-1", "m3").yaml(), pool_a("m3")]);
    let o = run_text(&input, Some(&config(json!({"mode": "check"}))));
    assert_error(
        &o,
        Want {
            path: Some("spec.preAllocations.node-1-pool-a"),
            object: Some(("IPPool", "pool-a")),
            says: &[
                "check: entry node-1-pool-a is missing: run ipreuse in fill mode",
                "Fill would add node-1-pool-a: \"10.0.0.10\" to IPPool m3/pool-a for BareMetalHost node-1",
            ],
        },
    );
    assert_transactional(&o, &[&input]);
}

#[test]
fn check_mode_reports_each_entry_fill_would_add_rewrite_and_remove_at_its_field() {
    // pool-6: node-0's entry is written non-canonically (rewritten), gone-pool-6 is stale
    // (removed with prune), node-1 and node-2 need one (added). pool-a: node-0..2 added.
    let docs = vec![
        host("node-0", "m3").yaml(),
        host("node-1", "m3").yaml(),
        host("node-2", "m3").yaml(),
        pool("pool-6", "m3")
            .range(range("fd00::10", "fd00::ff"))
            .entry("node-0-pool-6", "FD00::0010")
            .entry("gone-pool-6", "fd00::11")
            .yaml(),
        pool_a("m3"),
    ];
    let input = stream(&docs);
    let o = run_text(
        &input,
        Some(&config(json!({"mode": "check", "prune": true}))),
    );
    assert_transactional(&o, &[&input]);
    let errors: Vec<(String, String, String)> = o
        .findings
        .iter()
        .filter(|f| f.is_error())
        .map(|f| {
            (
                f.resource_ref
                    .as_ref()
                    .map(|r| r.name.clone())
                    .unwrap_or_default(),
                f.field.as_ref().map(|p| p.path.clone()).unwrap_or_default(),
                f.message.clone(),
            )
        })
        .collect();
    let then = |entry: &str, is: &str| {
        format!("check: entry {entry} is {is}: run ipreuse in fill mode and commit the result. ")
    };
    let add = |pool: &str, host: &str, address: &str| {
        (
            pool.to_string(),
            format!("spec.preAllocations.{host}-{pool}"),
            format!(
                "{}Fill would add {host}-{pool}: \"{address}\" to IPPool m3/{pool} for \
                 BareMetalHost {host} (the first free address of the pool)",
                then(&format!("{host}-{pool}"), "missing")
            ),
        )
    };
    let want = vec![
        (
            "pool-6".to_string(),
            "spec.preAllocations.gone-pool-6".to_string(),
            format!(
                "{}Fill would remove entry gone-pool-6: \"fd00::11\" from IPPool m3/pool-6: \
                 no BareMetalHost \"gone\" in namespace \"m3\" and no live claim (prune: true)",
                then("gone-pool-6", "stale")
            ),
        ),
        (
            "pool-6".to_string(),
            "spec.preAllocations.node-0-pool-6".to_string(),
            format!(
                "{}Fill would rewrite entry node-0-pool-6 (BareMetalHost node-0) of IPPool \
                 m3/pool-6 from \"FD00::0010\" to \"fd00::10\" (the IPAM reserves preallocations \
                 by their exact text)",
                then("node-0-pool-6", "not written as the IPAM writes addresses")
            ),
        ),
        add("pool-6", "node-1", "fd00::12"),
        add("pool-6", "node-2", "fd00::13"),
        add("pool-a", "node-0", "10.0.0.10"),
        add("pool-a", "node-1", "10.0.0.11"),
        add("pool-a", "node-2", "10.0.0.12"),
    ];
    assert_eq!(errors, want);
    // What fill says once it has written them ("removed", "rewritten") is not said by check.
    assert!(
        o.findings
            .iter()
            .all(|f| !f.message.contains("removed:") && !f.message.contains("rewritten as")),
        "{:#?}",
        o.findings
    );
    // Fill says it, as warnings at the same fields.
    let filled = run_text(&input, Some(&config(json!({"prune": true}))));
    assert_warning(
        &filled,
        Want {
            path: Some("spec.preAllocations.gone-pool-6"),
            object: Some(("IPPool", "pool-6")),
            says: &["entry gone-pool-6 removed: no BareMetalHost \"gone\""],
        },
    );
    assert_warning(
        &filled,
        Want {
            path: Some("spec.preAllocations.node-0-pool-6"),
            object: Some(("IPPool", "pool-6")),
            says: &["rewritten as \"fd00::10\""],
        },
    );
}

#[test]
fn local_config_objects_are_never_read_or_changed() {
    let local = pool("pool-local", "m3")
        .range(range("10.0.1.10", "10.0.1.20"))
        .yaml()
        .replace(
            "metadata:\n",
            "metadata:\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n",
        );
    let docs = vec![host("node-1", "m3").yaml(), pool_a("m3"), local.clone()];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert!(
        o.outputs[0].contains(&local),
        "the local-config pool is untouched"
    );
    assert_eq!(
        entry_of(&o, "m3", "pool-a", "node-1-pool-a").as_deref(),
        Some("10.0.0.10")
    );
}

#[test]
fn hosts_and_pools_pair_only_within_a_namespace_and_unset_means_default() {
    let mut no_ns = host("node-0", "x");
    no_ns.ns = None;
    let docs = vec![
        host("node-1", "a").yaml(),
        host("node-2", "b").yaml(),
        no_ns.yaml(),
        pool_a("a"),
        pool_a("default"),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let keys = |ns: &str| -> Vec<String> {
        pool_entries(&o, ns, "pool-a")
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    };
    assert_eq!(keys("a"), ["node-1-pool-a"]);
    assert_eq!(keys("default"), ["node-0-pool-a"]);
}

#[test]
fn a_namespace_mixing_set_and_unset_namespaces_is_warned_about() {
    let mut unset = host("node-2", "x");
    unset.ns = None;
    let docs = vec![
        host("node-1", "default").yaml(),
        unset.yaml(),
        pool_a("default"),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: None,
            object: None,
            says: &["\"default\"", "metadata.namespace"],
        },
    );
}

#[test]
fn host_selector_narrows_the_hosts_typed_and_as_configmap() {
    let docs = vec![
        host("node-1", "m3").label("role", "worker").yaml(),
        host("node-2", "m3").label("role", "control-plane").yaml(),
        host("node-3", "m3").yaml(),
        pool_a("m3"),
    ];
    let typed = config(json!({"hostSelector": {"matchLabels": {"role": "worker"}}}));
    let o = run_docs(&docs, Some(&typed));
    assert_no_errors(&o);
    let keys: Vec<String> = pool_entries(&o, "m3", "pool-a")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(keys, ["node-1-pool-a"]);

    // The same as a ConfigMap in a ResourceList (what `kpt fn eval -- hostSelector=...` sends).
    let fc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fc\ndata:\n  hostSelector: role in (worker,control-plane)\n";
    let o = run_text(&resource_list(&docs, Some(fc)), None);
    assert_no_errors(&o);
    let entries = rl_entries(&o.outputs[0]);
    let keys: Vec<&str> = entries[&("m3".to_string(), "pool-a".to_string())]
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(keys, ["node-1-pool-a", "node-2-pool-a"]);
}

#[test]
fn pools_narrows_the_managed_pools_and_an_unknown_name_is_an_error() {
    let pool_b = pool("pool-b", "m3")
        .range(range("10.0.2.10", "10.0.2.20"))
        .yaml();
    let docs = vec![host("node-1", "m3").yaml(), pool_a("m3"), pool_b.clone()];
    let o = run_docs(&docs, Some(&config(json!({"pools": ["m3/pool-a"]}))));
    assert_no_errors(&o);
    assert_eq!(pool_entries(&o, "m3", "pool-a").len(), 1);
    assert!(o.outputs[0].contains(&pool_b), "pool-b is not managed");

    let input = stream(&docs);
    let o = run_text(&input, Some(&config(json!({"pools": ["pool-c"]}))));
    assert_error(
        &o,
        Want {
            path: Some("spec.pools"),
            object: None,
            says: &["pool-c"],
        },
    );
    assert_transactional(&o, &[&input]);
}

#[test]
fn config_problems_found_after_decoding_point_at_the_config_as_written() {
    let docs = vec![host("node-1", "m3").yaml(), pool_a("m3")];
    // A ConfigMap (what `kpt fn eval -- key=value` sends): fields in data, lists one string.
    for (data, path, says) in [
        ("reserve: 10.0.0.1, bogus", "data.reserve", "\"bogus\""),
        ("pools: pool-a,pool-c", "data.pools", "pool-c"),
    ] {
        let fc = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\ndata:\n  {data}\n"
        );
        let input = resource_list(&docs, Some(&fc));
        let o = run_text(&input, None);
        assert_error(
            &o,
            Want {
                path: Some(path),
                object: Some(("ConfigMap", "fn-input")),
                says: &[says],
            },
        );
        assert!(o.has_errors());
    }
    // The typed form: spec, and the position of a list item.
    let cfg = config(json!({"reserve": ["10.0.0.1", "bogus"]}));
    let o = run_docs(&docs, Some(&cfg));
    assert_error(
        &o,
        Want {
            path: Some("spec.reserve[1]"),
            object: Some(("IPReuse", "cfg")),
            says: &["\"bogus\""],
        },
    );
}

#[test]
fn kptfiles_are_local_config_so_two_with_one_name_are_no_duplicate() {
    // A package and its subpackage may both name their Kptfile "pkg"; neither is an input.
    let kptfile = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n".to_string();
    let docs = vec![
        kptfile.clone(),
        kptfile,
        host("node-1", "m3").yaml(),
        pool_a("m3"),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(pool_entries(&o, "m3", "pool-a").len(), 1);
}
