//! Namespaces (SPEC §2, §3): an object without `metadata.namespace` is in `defaultNamespace`,
//! else `default`; hosts and pools that never meet (a namespace whose hosts have no pool while
//! another namespace's pools have no host) are a warning naming both namespaces and
//! `defaultNamespace`, never a silent run that fills nothing; a namespace that mixes objects
//! with and without `metadata.namespace` is a warning on one without, at `metadata`.
//!
//! The case of the issue: host files printed by a `make-bm-worker`-style tool carry no
//! namespace (they are applied with `kubectl apply -n metal3`), the pools are in `metal3`.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{
    Want, assert_error, assert_no_errors, assert_transactional, assert_warning, config, dump,
    entry_of, host, pool, pool_entries, range, resource_list, run_docs, run_text, warnings,
};
use serde_json::json;

/// A host without `metadata.namespace`.
fn bare_host(name: &str) -> String {
    let mut h = host(name, "unused");
    h.ns = None;
    h.yaml()
}

fn prov(ns: &str) -> String {
    pool("prov", ns)
        .range(range("10.0.0.10", "10.0.0.20"))
        .prefix(24)
        .yaml()
}

/// The package: two hosts without a namespace, the pool in `metal3`.
fn package() -> Vec<String> {
    vec![bare_host("node-1"), bare_host("node-2"), prov("metal3")]
}

/// The warnings that say hosts and pools never meet.
fn never_meet(o: &ipreuse::run::Outcome) -> Vec<&ipreuse::results::Finding> {
    warnings(o)
        .into_iter()
        .filter(|f| f.message.contains("pair only within one namespace"))
        .collect()
}

#[test]
fn hosts_without_a_namespace_and_pools_in_another_are_a_warning_naming_both() {
    let o = run_docs(&package(), None);
    assert_no_errors(&o);
    assert!(
        pool_entries(&o, "metal3", "prov").is_empty(),
        "{}",
        dump(&o)
    );
    assert_warning(
        &o,
        Want {
            path: Some("metadata"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "this host and 1 more BareMetalHosts have no IPPool in their namespace",
                "Namespace \"default\" has no IPPool",
                "the IPPools of namespace \"metal3\" have no BareMetalHost",
                "2 of these hosts set no metadata.namespace",
                "no defaultNamespace is set",
                "set defaultNamespace: metal3",
            ],
        },
    );
    assert_eq!(never_meet(&o).len(), 1, "{}", dump(&o));
    // on the host as written: no namespace in its resourceRef
    let w = never_meet(&o)[0];
    assert_eq!(
        w.resource_ref.as_ref().and_then(|r| r.namespace.clone()),
        None
    );
}

#[test]
fn default_namespace_puts_hosts_without_a_namespace_with_the_pools_typed_and_as_configmap() {
    let typed = config(json!({"defaultNamespace": "metal3", "controllerFlag": false}));
    let o = run_docs(&package(), Some(&typed));
    assert_no_errors(&o);
    assert_eq!(
        entry_of(&o, "metal3", "prov", "node-1-prov").as_deref(),
        Some("10.0.0.10")
    );
    assert_eq!(
        entry_of(&o, "metal3", "prov", "node-2-prov").as_deref(),
        Some("10.0.0.11")
    );
    assert!(never_meet(&o).is_empty(), "{}", dump(&o));
    // The ConfigMap form, in a ResourceList (what `kpt fn eval -- defaultNamespace=metal3` sends).
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\ndata:\n  defaultNamespace: metal3\n";
    let o = run_text(&resource_list(&package(), Some(cm)), None);
    assert_no_errors(&o);
    let entries = common::rl_entries(&o.outputs[0]);
    let prov = &entries[&("metal3".to_string(), "prov".to_string())];
    assert_eq!(prov.len(), 2, "{}", dump(&o));
}

#[test]
fn default_namespace_places_hosts_read_as_parsed_and_hosts_read_through_their_values() {
    // node-1 is plainly written (read as the input is parsed, before the config is known);
    // node-2's metadata comes from a merge key (read through its value, after).
    let merged = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata:\n  <<: {name: node-2}\nspec:\n  online: true\n";
    let docs = vec![bare_host("node-1"), merged.to_string(), prov("metal3")];
    for framed in [
        common::stream(&docs),
        resource_list(
            &docs,
            Some(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\ndata:\n  defaultNamespace: metal3\n",
            ),
        ),
    ] {
        let cfg = config(json!({"defaultNamespace": "metal3"}));
        let rl = framed.starts_with("apiVersion: config.kubernetes.io");
        let o = run_text(&framed, (!rl).then_some(&cfg));
        assert_no_errors(&o);
        let entries = if rl {
            common::rl_entries(&o.outputs[0])
        } else {
            common::entries(&o.outputs[0])
        };
        let keys: Vec<&str> = entries[&("metal3".to_string(), "prov".to_string())]
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["node-1-prov", "node-2-prov"], "{}", dump(&o));
    }
}

#[test]
fn default_namespace_moves_only_objects_without_a_namespace() {
    // a host of `lab` stays in `lab`, with lab's pool; the bare one goes to metal3
    let docs = vec![
        bare_host("node-1"),
        host("node-9", "lab").yaml(),
        prov("metal3"),
        prov("lab"),
    ];
    let cfg = config(json!({"defaultNamespace": "metal3"}));
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    let keys = |ns: &str| -> Vec<String> {
        pool_entries(&o, ns, "prov")
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    };
    assert_eq!(keys("metal3"), ["node-1-prov"]);
    assert_eq!(keys("lab"), ["node-9-prov"]);
}

#[test]
fn a_host_without_a_namespace_is_the_same_host_as_one_in_the_default_namespace() {
    // node-1 written twice, once bare and once in metal3: with defaultNamespace metal3 they are
    // one object twice, which Kubernetes would apply as one.
    let docs = vec![
        bare_host("node-1"),
        host("node-1", "metal3").yaml(),
        prov("metal3"),
    ];
    let text = common::stream(&docs);
    let cfg = config(json!({"defaultNamespace": "metal3"}));
    let o = run_text(&text, Some(&cfg));
    assert_transactional(&o, &[&text]);
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("BareMetalHost", "node-1")),
            says: &["this object appears twice"],
        },
    );
}

#[test]
fn a_default_namespace_that_is_not_a_namespace_name_is_an_error_at_its_field() {
    let docs = package();
    for (value, says) in [
        (json!("Metal3"), "\"Metal3\" is not a namespace name"),
        (json!("metal3/x"), "\"metal3/x\" is not a namespace name"),
        (json!("${NAMESPACE}"), "is not a namespace name"),
        (json!(7), "must be a namespace name (a string), found 7"),
    ] {
        let cfg = config(json!({ "defaultNamespace": value }));
        let text = common::stream(&docs);
        let o = run_text(&text, Some(&cfg));
        assert_transactional(&o, &[&text]);
        assert_error(
            &o,
            Want {
                path: Some("spec.defaultNamespace"),
                object: Some(("IPReuse", "cfg")),
                says: &[says],
            },
        );
    }
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\ndata:\n  defaultNamespace: Metal3\n";
    let o = run_text(&resource_list(&docs, Some(cm)), None);
    assert_error(
        &o,
        Want {
            path: Some("data.defaultNamespace"),
            object: Some(("ConfigMap", "fn-input")),
            says: &["\"Metal3\" is not a namespace name"],
        },
    );
}

#[test]
fn an_empty_default_namespace_means_default() {
    let docs = vec![bare_host("node-1"), prov("default")];
    for cfg in [
        config(json!({"defaultNamespace": ""})),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "m"}, "data": {"defaultNamespace": ""}}),
    ] {
        let o = run_docs(&docs, Some(&cfg));
        assert_no_errors(&o);
        assert_eq!(
            entry_of(&o, "default", "prov", "node-1-prov").as_deref(),
            Some("10.0.0.10")
        );
    }
}

#[test]
fn hosts_and_pools_that_never_meet_with_every_namespace_written_are_a_warning_too() {
    let docs = vec![host("node-1", "a").yaml(), prov("b"), prov("c")];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_warning(
        &o,
        Want {
            path: Some("metadata.namespace"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "this host has no IPPool in its namespace",
                "Namespace \"a\" has no IPPool",
                "the IPPools of namespaces \"b\", \"c\" have no BareMetalHost",
                "defaultNamespace places only objects without one",
            ],
        },
    );
}

#[test]
fn pools_without_a_namespace_and_hosts_in_another_suggest_the_hosts_namespace() {
    let mut bare_pool = pool("prov", "unused").range(range("10.0.0.10", "10.0.0.20"));
    bare_pool.ns = None;
    let docs = vec![host("node-1", "metal3").yaml(), bare_pool.yaml()];
    let o = run_docs(&docs, None);
    assert_warning(
        &o,
        Want {
            path: Some("metadata.namespace"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "the IPPools of namespace \"default\" have no BareMetalHost",
                "1 of these IPPools set no metadata.namespace",
                "set defaultNamespace: metal3",
            ],
        },
    );
}

#[test]
fn hosts_alone_or_hosts_and_pools_that_meet_are_no_warning() {
    for docs in [
        vec![bare_host("node-1")],
        vec![prov("metal3")],
        vec![bare_host("node-1"), prov("default"), prov("other")],
    ] {
        let o = run_docs(&docs, None);
        assert!(never_meet(&o).is_empty(), "{}", dump(&o));
    }
}

#[test]
fn a_namespace_mixing_objects_with_and_without_a_namespace_is_a_warning_on_one_without() {
    // defaultNamespace places the bare hosts with the pool; the mix is still worth a word: a
    // tool applying the package may put them elsewhere.
    let cfg = config(json!({"defaultNamespace": "metal3"}));
    let o = run_docs(&package(), Some(&cfg));
    assert_warning(
        &o,
        Want {
            path: Some("metadata"),
            object: Some(("BareMetalHost", "node-1")),
            says: &[
                "namespace \"metal3\" mixes objects that set metadata.namespace with objects that do not: set it on all of them",
                "It is set on IPPool metal3/prov and not on BareMetalHost metal3/node-1 and 1 more (read as in \"metal3\" by defaultNamespace)",
            ],
        },
    );
    // a machine template without a namespace among hosts and pools that set one
    let template = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\nkind: Metal3MachineTemplate\nmetadata:\n  name: workers\nspec:\n  template:\n    spec:\n      dataTemplate:\n        name: workers\n";
    let docs = vec![
        host("node-1", "default").yaml(),
        prov("default"),
        template.to_string(),
    ];
    let o = run_docs(&docs, Some(&config(json!({"mapping": "all"}))));
    assert_warning(
        &o,
        Want {
            path: Some("metadata"),
            object: Some(("Metal3MachineTemplate", "workers")),
            says: &[
                "namespace \"default\" mixes",
                "not on Metal3MachineTemplate default/workers (read as in \"default\": no defaultNamespace is set)",
            ],
        },
    );
}

// ---- as a user runs it ---------------------------------------------------------------------

fn show(out: &std::process::Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The package on disk: `hosts.yaml` without namespaces (as `make-bm-worker` prints them) and
/// `pool.yaml` in `metal3`.
fn on_disk(dir: &Path) {
    std::fs::write(
        dir.join("hosts.yaml"),
        format!("{}---\n{}", bare_host("node-1"), bare_host("node-2")),
    )
    .expect("write");
    std::fs::write(dir.join("pool.yaml"), prov("metal3")).expect("write");
}

#[test]
fn in_place_on_host_files_without_a_namespace_warns_and_with_default_namespace_fills() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    on_disk(&pkg);
    let before = std::fs::read_to_string(pkg.join("pool.yaml")).expect("read");
    let bin = env!("CARGO_BIN_EXE_ipreuse");
    let out = Command::new(bin)
        .arg("--in-place")
        .arg(&pkg)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: BareMetalHost node-1 metadata: this host and 1 more BareMetalHosts have no IPPool in their namespace")
            && stderr.contains("Namespace \"default\" has no IPPool")
            && stderr.contains("set defaultNamespace: metal3"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join("pool.yaml")).expect("read"),
        before
    );
    // with --config defaultNamespace: metal3
    let cfg = tmp.path().join("cfg.yaml");
    std::fs::write(
        &cfg,
        common::ipreuse_config("c")
            .set("defaultNamespace", "metal3")
            .set("controllerFlag", "false")
            .yaml(),
    )
    .expect("write");
    let out = Command::new(bin)
        .arg("--in-place")
        .arg("--config")
        .arg(&cfg)
        .arg(&pkg)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", show(&out));
    let after = std::fs::read_to_string(pkg.join("pool.yaml")).expect("read");
    assert!(
        after.contains(
            "  preAllocations:\n    node-1-prov: \"10.0.0.10\"\n    node-2-prov: \"10.0.0.11\"\n"
        ),
        "{after}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("pair only within"));
    // the host files are not touched
    assert_eq!(
        std::fs::read_to_string(pkg.join("hosts.yaml")).expect("read"),
        format!("{}---\n{}", bare_host("node-1"), bare_host("node-2"))
    );
}

#[test]
fn the_package_s_own_config_file_can_set_the_default_namespace() {
    let tmp = tempfile::tempdir().expect("tmp");
    on_disk(tmp.path());
    std::fs::write(
        tmp.path().join("ipreuse.yaml"),
        common::ipreuse_config("c")
            .local_config()
            .set("defaultNamespace", "metal3")
            .yaml(),
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_ipreuse"))
        .arg("--in-place")
        .arg(tmp.path())
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", show(&out));
    let after = std::fs::read_to_string(tmp.path().join("pool.yaml")).expect("read");
    assert!(after.contains("node-2-prov: \"10.0.0.11\""), "{after}");
}
