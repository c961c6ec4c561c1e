//! SPEC §4 `templates` and `auto` through the whole function: the entries each host gets from
//! the Metal3MachineTemplates that may select it, read back with an independent parser; the
//! results; all or nothing on error; check mode; a second run; item order.
//!
//! The addresses are derived by hand from SPEC §5: each pool hands out from its `start`, in
//! natural host order, to the hosts the mapping requires in it.

use crate::common;

use common::*;
use ipreuse::results::Severity;
use serde_json::json;

/// A Metal3MachineTemplate of `version` with `selector` (flow YAML, may be empty) and
/// `data_template`.
fn machine(version: &str, name: &str, ns: &str, selector: &str, data_template: &str) -> String {
    let m = crate::fixtures::machine_template(name, ns)
        .version(version)
        .data_template(data_template);
    if selector.is_empty() {
        m.yaml()
    } else {
        m.host_selector(selector).yaml()
    }
}

/// A Metal3DataTemplate as CAPM3's e2e templates write it: the provisioning pool in metaData,
/// `ext` for the static network and its gateway; v1beta1 or v1beta2 spelling.
fn data_template(version: &str, name: &str, ns: &str, ext: &str) -> String {
    crate::fixtures::data_template(name, ns)
        .version(version)
        .meta_pool("provisioningIP", "provisioning-pool")
        .routed_network("baremetalv4", "enp2s0", ext)
        .yaml()
}

/// Control plane and workers of cluster test1 in `ns`, in `version`: three control-plane
/// hosts, three workers (`worker-10` after `worker-2`), a spare host no template selects.
fn cluster(version: &str, ns: &str) -> Vec<String> {
    let mut docs = Vec::new();
    for name in ["cp-0", "cp-1", "cp-2"] {
        docs.push(host(name, ns).label("cluster-role", "control-plane").yaml());
    }
    for name in ["worker-10", "worker-2", "worker-1"] {
        docs.push(host(name, ns).label("cluster-role", "worker").yaml());
    }
    docs.push(host("spare-0", ns).label("cluster-role", "spare").yaml());
    docs.push(
        pool("provisioning-pool", ns)
            .range(range("172.22.0.100", "172.22.0.200"))
            .prefix(24)
            .yaml(),
    );
    docs.push(
        pool("cp-pool", ns)
            .range(range("192.168.111.10", "192.168.111.19"))
            .prefix(24)
            .gateway("192.168.111.1")
            .yaml(),
    );
    docs.push(
        pool("worker-pool", ns)
            .range(range("192.168.111.100", "192.168.111.200"))
            .prefix(24)
            .gateway("192.168.111.1")
            .yaml(),
    );
    docs.push(machine(
        version,
        "test1-controlplane",
        ns,
        "{matchLabels: {cluster-role: control-plane}}",
        "test1-controlplane-template",
    ));
    docs.push(machine(
        version,
        "test1-workers",
        ns,
        "{matchExpressions: [{key: cluster-role, operator: in, values: [worker]}]}",
        "test1-workers-template",
    ));
    docs.push(data_template(
        version,
        "test1-controlplane-template",
        ns,
        "cp-pool",
    ));
    docs.push(data_template(
        version,
        "test1-workers-template",
        ns,
        "worker-pool",
    ));
    docs
}

fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What `cluster` must get: the provisioning pool for all six cluster hosts, in natural order;
/// each role's own pool for its hosts only; nothing for the spare host.
fn assert_cluster_entries(o: &ipreuse::run::Outcome, ns: &str) {
    assert_eq!(
        pool_entries(o, ns, "provisioning-pool"),
        kv(&[
            ("cp-0-provisioning-pool", "172.22.0.100"),
            ("cp-1-provisioning-pool", "172.22.0.101"),
            ("cp-2-provisioning-pool", "172.22.0.102"),
            ("worker-1-provisioning-pool", "172.22.0.103"),
            ("worker-2-provisioning-pool", "172.22.0.104"),
            ("worker-10-provisioning-pool", "172.22.0.105"),
        ])
    );
    assert_eq!(
        pool_entries(o, ns, "cp-pool"),
        kv(&[
            ("cp-0-cp-pool", "192.168.111.10"),
            ("cp-1-cp-pool", "192.168.111.11"),
            ("cp-2-cp-pool", "192.168.111.12"),
        ])
    );
    assert_eq!(
        pool_entries(o, ns, "worker-pool"),
        kv(&[
            ("worker-1-worker-pool", "192.168.111.100"),
            ("worker-2-worker-pool", "192.168.111.101"),
            ("worker-10-worker-pool", "192.168.111.102"),
        ])
    );
}

fn infos(o: &ipreuse::run::Outcome) -> Vec<&str> {
    o.findings
        .iter()
        .filter(|f| f.severity == Severity::Info)
        .map(|f| f.message.as_str())
        .collect()
}

#[test]
fn auto_maps_control_plane_and_workers_by_their_templates_in_both_versions() {
    for version in ["v1beta2", "v1beta1"] {
        let docs = cluster(version, "metal3");
        let o = run_docs(&docs, None);
        assert_no_errors(&o);
        assert_cluster_entries(&o, "metal3");
        let infos = infos(&o);
        assert!(
            infos.contains(&"namespace \"metal3\": mapping templates (auto: its Metal3MachineTemplates and their Metal3DataTemplates are in the input). Each selected BareMetalHost gets the Metal3 IPPools of the Metal3DataTemplates of the Metal3MachineTemplates that select it. The machine templates: test1-controlplane, test1-workers"),
            "{version}: {infos:#?}"
        );
        assert!(
            infos.contains(&"namespace \"metal3\": 1 BareMetalHost(s) that no Metal3MachineTemplate selects get no entries: spare-0"),
            "{version}: {infos:#?}"
        );
        // Only entry lines are added; the templates and hosts are untouched.
        let input = stream(&docs);
        assert!(
            is_line_subsequence(&input, &o.outputs[0]),
            "{version}: lines changed"
        );
        for line in added_lines(&input, &o.outputs[0]) {
            assert!(
                line.starts_with("  preAllocations:") || line.starts_with("    "),
                "{version}: unexpected line {line:?}"
            );
        }
    }
}

#[test]
fn mapping_all_gives_every_host_every_pool_where_templates_would_not() {
    let docs = cluster("v1beta2", "metal3");
    let o = run_docs(&docs, Some(&config(json!({"mapping": "all"}))));
    assert_no_errors(&o);
    // The spare host and the control plane get worker-pool entries too.
    let keys: Vec<String> = pool_entries(&o, "metal3", "worker-pool")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        keys,
        [
            "cp-0-worker-pool",
            "cp-1-worker-pool",
            "cp-2-worker-pool",
            "spare-0-worker-pool",
            "worker-1-worker-pool",
            "worker-2-worker-pool",
            "worker-10-worker-pool"
        ]
    );
}

#[test]
fn templates_as_configured_typed_and_as_configmap() {
    let docs = cluster("v1beta2", "metal3");
    let o = run_docs(&docs, Some(&config(json!({"mapping": "templates"}))));
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
    assert!(
        infos(&o)
            .iter()
            .any(|i| i.starts_with("namespace \"metal3\": mapping templates (as configured)")),
        "{:#?}",
        infos(&o)
    );
    let fc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-input\ndata:\n  mapping: templates\n";
    let o = run_text(&resource_list(&docs, Some(fc)), None);
    assert!(!o.has_errors(), "{}", dump(&o));
    let entries = rl_entries(&o.outputs[0]);
    assert_eq!(
        entries[&("metal3".to_string(), "cp-pool".to_string())].len(),
        3
    );
    assert_eq!(
        entries[&("metal3".to_string(), "worker-pool".to_string())].len(),
        3
    );
}

#[test]
fn the_config_narrows_the_template_pairs() {
    let docs = cluster("v1beta2", "metal3");
    let cfg = config(json!({
        "hostSelector": {"matchExpressions": [{"key": "cluster-role", "operator": "NotIn", "values": ["control-plane"]}]},
        "pools": ["metal3/worker-pool"],
    }));
    let o = run_docs(&docs, Some(&cfg));
    assert_no_errors(&o);
    assert_eq!(pool_entries(&o, "metal3", "provisioning-pool"), kv(&[]));
    assert_eq!(pool_entries(&o, "metal3", "cp-pool"), kv(&[]));
    assert_eq!(
        pool_entries(&o, "metal3", "worker-pool"),
        kv(&[
            ("worker-1-worker-pool", "192.168.111.100"),
            ("worker-2-worker-pool", "192.168.111.101"),
            ("worker-10-worker-pool", "192.168.111.102"),
        ])
    );
}

#[test]
fn auto_uses_all_in_a_namespace_without_templates_and_templates_beside_it() {
    let mut docs = cluster("v1beta2", "metal3");
    docs.push(host("edge-1", "edge").yaml());
    docs.push(
        pool("edge-pool", "edge")
            .range(range("10.0.0.10", "10.0.0.20"))
            .yaml(),
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
    assert_eq!(
        pool_entries(&o, "edge", "edge-pool"),
        kv(&[("edge-1-edge-pool", "10.0.0.10")])
    );
    assert!(infos(&o).contains(
        &"namespace \"edge\": mapping all (every selected BareMetalHost with every selected IPPool of the namespace)"
    ));
}

#[test]
fn a_host_selected_by_two_templates_gets_both_templates_pools() {
    let mut docs = cluster("v1beta2", "metal3");
    // worker-2 is also a storage node: a third template selects it by name label.
    docs[4] = host("worker-2", "metal3")
        .label("cluster-role", "worker")
        .label("storage", "true")
        .yaml();
    docs.push(
        pool("storage-pool", "metal3")
            .range(range("10.10.0.5", "10.10.0.9"))
            .yaml(),
    );
    docs.push(machine(
        "v1beta2",
        "test1-storage",
        "metal3",
        "{matchLabels: {storage: 'true'}}",
        "test1-storage-template",
    ));
    docs.push(data_template(
        "v1beta2",
        "test1-storage-template",
        "metal3",
        "storage-pool",
    ));
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
    assert_eq!(
        pool_entries(&o, "metal3", "storage-pool"),
        kv(&[("worker-2-storage-pool", "10.10.0.5")])
    );
}

#[test]
fn an_annotation_pool_is_resolved_per_host() {
    let docs = vec![
        host("worker-0", "lab")
            .label("role", "worker")
            .annotation("pool.example.com/external", "rack-a")
            .yaml(),
        host("worker-1", "lab")
            .label("role", "worker")
            .annotation("pool.example.com/external", "rack-b")
            .yaml(),
        pool("rack-a", "lab")
            .range(range("10.1.0.10", "10.1.0.20"))
            .yaml(),
        pool("rack-b", "lab")
            .range(range("10.2.0.10", "10.2.0.20"))
            .yaml(),
        machine(
            "v1beta2",
            "workers",
            "lab",
            "{matchLabels: {role: worker}}",
            "workers-data",
        ),
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3DataTemplate
metadata:
  name: workers-data
  namespace: lab
spec:
  clusterName: lab
  networkData:
    networks:
      ipv4:
      - id: external
        link: eth1
        fromPoolAnnotation:
          object: baremetalhost
          annotation: pool.example.com/external
"
        .to_string(),
    ];
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        pool_entries(&o, "lab", "rack-a"),
        kv(&[("worker-0-rack-a", "10.1.0.10")])
    );
    assert_eq!(
        pool_entries(&o, "lab", "rack-b"),
        kv(&[("worker-1-rack-b", "10.2.0.10")])
    );

    // A selected host without the annotation: an error on the host, and nothing changes.
    let mut bad = docs.clone();
    bad.push(host("worker-2", "lab").label("role", "worker").yaml());
    let input = stream(&bad);
    let o = run_text(&input, None);
    assert_error(
        &o,
        Want {
            path: Some("metadata.annotations.[pool.example.com/external]"),
            object: Some(("BareMetalHost", "worker-2")),
            says: &[
                "Metal3DataTemplate lab/workers-data",
                "spec.networkData.networks.ipv4[0].fromPoolAnnotation",
                "Metal3MachineTemplate lab/workers",
            ],
        },
    );
    assert_transactional(&o, &[&input]);
}

#[test]
fn unresolvable_references_fail_the_run_and_change_nothing() {
    // (what to change in the cluster, object, field)
    type Change = Box<dyn Fn(&mut Vec<String>)>;
    let cases: Vec<(Change, (&str, &str), &str)> = vec![
        (
            Box::new(|d: &mut Vec<String>| {
                d.retain(|x| !x.contains("name: cp-pool\n"));
            }),
            ("Metal3DataTemplate", "test1-controlplane-template"),
            "spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
        ),
        (
            Box::new(|d: &mut Vec<String>| {
                let i = d
                    .iter()
                    .position(|x| x.contains("name: test1-workers-template\n  namespace"))
                    .expect("the workers' data template");
                d[i] = d[i].replace(
                    "        ipAddressFromIPPool: worker-pool\n",
                    "        fromPoolAnnotation: {object: machine, annotation: pool}\n",
                );
            }),
            ("Metal3DataTemplate", "test1-workers-template"),
            "spec.networkData.networks.ipv4[0].fromPoolAnnotation.object",
        ),
        (
            Box::new(|d: &mut Vec<String>| {
                let i = d
                    .iter()
                    .position(|x| x.contains("name: test1-workers\n"))
                    .expect("the workers' machine template");
                d[i] = d[i].replace("operator: in", "operator: DoesNotExist");
            }),
            ("Metal3MachineTemplate", "test1-workers"),
            "spec.template.spec.hostSelector.matchExpressions[0].operator",
        ),
        (
            Box::new(|d: &mut Vec<String>| {
                let i = d
                    .iter()
                    .position(|x| x.contains("name: test1-workers\n"))
                    .expect("the workers' machine template");
                d[i] = d[i].replace(
                    "        name: test1-workers-template\n",
                    "        name: test1-workers-template\n        namespace: infra\n",
                );
            }),
            ("Metal3MachineTemplate", "test1-workers"),
            "spec.template.spec.dataTemplate.namespace",
        ),
    ];
    for (change, object, field) in cases {
        let mut docs = cluster("v1beta2", "metal3");
        change(&mut docs);
        let input = stream(&docs);
        let o = run_text(&input, Some(&config(json!({"mapping": "templates"}))));
        assert_error(
            &o,
            Want {
                path: Some(field),
                object: Some(object),
                says: &[],
            },
        );
        assert_transactional(&o, &[&input]);
    }
}

#[test]
fn other_pool_kinds_are_an_info_and_get_no_entries() {
    let mut docs = cluster("v1beta2", "metal3");
    let i = docs
        .iter()
        .position(|x| x.contains("name: test1-workers-template\n  namespace"))
        .expect("the workers' data template");
    docs[i] = docs[i].replace(
        "      - id: baremetalv4\n",
        "      - id: capi\n        link: enp3s0\n        fromPoolRef: {name: capi-pool, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}\n      - id: baremetalv4\n",
    );
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
    assert_finding(
        &o,
        Severity::Info,
        Want {
            path: Some("spec.networkData.networks.ipv4[0].fromPoolRef.name"),
            object: Some(("Metal3DataTemplate", "test1-workers-template")),
            says: &[
                "ipam.cluster.x-k8s.io/InClusterIPPool",
                "cannot be preallocated",
            ],
        },
    );
}

#[test]
fn check_mode_a_second_run_and_item_order() {
    let docs = cluster("v1beta2", "metal3");
    let input = stream(&docs);
    // check: one error per entry fill would add, at the entry, in each of the 3 pools; nothing
    // written.
    let o = run_text(&input, Some(&config(json!({"mode": "check"}))));
    let mut pools: Vec<&str> = errors(&o)
        .iter()
        .map(|f| f.resource_ref.as_ref().expect("a pool").name.as_str())
        .collect();
    assert!(
        errors(&o).iter().all(|f| {
            let (r, path) = (f.resource_ref.as_ref(), f.field.as_ref());
            r.zip(path).is_some_and(|(r, p)| {
                p.path.starts_with("spec.preAllocations.")
                    && p.path.ends_with(&format!("-{}", r.name))
                    && f.message
                        .contains(&format!("to IPPool metal3/{} for BareMetalHost", r.name))
            })
        }),
        "{}",
        dump(&o)
    );
    let filled_entries = errors(&o).len();
    pools.dedup();
    assert_eq!(pools.len(), 3, "{}", dump(&o));
    assert_transactional(&o, &[&input]);
    // fill, then a second run changes nothing and check passes.
    let fill = run_text(&input, None);
    // as many check errors as entries fill adds (the pools' summaries: "0 kept, N added, ...")
    let added: usize = fill
        .findings
        .iter()
        .filter_map(|f| f.message.strip_prefix("0 kept, "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(filled_entries, added, "{}", dump(&fill));
    let filled = fill.outputs[0].clone();
    let again = run_text(&filled, None);
    assert_no_errors(&again);
    assert_eq!(again.outputs[0], filled);
    assert!(!run_text(&filled, Some(&config(json!({"mode": "check"})))).has_errors());
    // The items in reverse order: every pool gets the same entries.
    let mut reversed = docs.clone();
    reversed.reverse();
    let o = run_docs(&reversed, None);
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
}

#[test]
fn claims_of_pools_no_template_references_are_not_labelled() {
    let mut docs = cluster("v1beta2", "metal3");
    docs.push(
        pool("bmc-pool", "metal3")
            .range(range("10.9.0.1", "10.9.0.9"))
            .yaml(),
    );
    for pool_name in ["worker-pool", "bmc-pool"] {
        docs.push(
            crate::fixtures::claim(&format!("worker-1-{pool_name}"), "metal3")
                .owned_by_data(
                    "test1-workers-template-1",
                    "00000000-0000-4000-8000-000000000001",
                )
                .pool(pool_name)
                .pool_namespace("metal3")
                .yaml(),
        );
    }
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    let out = &o.outputs[0];
    let labelled: Vec<&str> = out
        .split("---\n")
        .filter(|d| d.contains("kind: IPClaim") && d.contains("pool-name:"))
        .map(|d| {
            d.lines()
                .find_map(|l| l.strip_prefix("  name: "))
                .expect("a name")
        })
        .collect();
    assert_eq!(labelled, ["worker-1-worker-pool"]);
    // bmc-pool is not managed under templates: no entries, no summary.
    assert_eq!(pool_entries(&o, "metal3", "bmc-pool"), kv(&[]));
    assert!(
        !o.findings.iter().any(|f| f
            .resource_ref
            .as_ref()
            .is_some_and(|r| r.name == "bmc-pool")),
        "{}",
        dump(&o)
    );
}

// ---- data template names CAPM3 cannot write into a label (SPEC §8 "Names") ----

/// Cluster test1 with its workers' Metal3DataTemplate renamed to a name of `len` characters.
fn cluster_with_workers_template_of(len: usize) -> (Vec<String>, String) {
    let name = format!("test1-workers-{}", "x".repeat(len - 14));
    assert_eq!(name.len(), len);
    let docs = cluster("v1beta2", "metal3")
        .into_iter()
        .map(|d| d.replace("test1-workers-template", &name))
        .collect();
    (docs, name)
}

#[test]
fn data_template_names_of_59_to_61_characters_warn_and_longer_ones_fail() {
    // (length, severity, the index from which Metal3Data names pass 63 characters)
    for (len, severity, says) in [
        (58, None, ""),
        (
            59,
            Some(Severity::Warning),
            "index 1000 is the 1001st machine",
        ),
        (
            60,
            Some(Severity::Warning),
            "index 100 is the 101st machine",
        ),
        (61, Some(Severity::Warning), "index 10 is the 11th machine"),
        (62, Some(Severity::Error), "-0 is too long"),
        (63, Some(Severity::Error), "-0 is too long"),
    ] {
        let (docs, name) = cluster_with_workers_template_of(len);
        let o = run_docs(&docs, None);
        let on_it: Vec<_> = o
            .findings
            .iter()
            .filter(|f| {
                f.severity != Severity::Info
                    && f.resource_ref.as_ref().is_some_and(|r| r.name == name)
            })
            .collect();
        match severity {
            None => {
                assert!(on_it.is_empty(), "{len}: {}", dump(&o));
                assert_no_errors(&o);
                assert_cluster_entries(&o, "metal3");
            }
            Some(severity) => {
                assert_eq!(on_it.len(), 1, "{len}: {}", dump(&o));
                assert_finding(
                    &o,
                    severity,
                    Want {
                        path: Some("metadata.name"),
                        object: Some(("Metal3DataTemplate", &name)),
                        says: &[
                            &format!("{len} characters"),
                            says,
                            "infrastructure.cluster.x-k8s.io/data-name",
                            "58 characters or fewer",
                        ],
                    },
                );
                if severity == Severity::Error {
                    assert_transactional(&o, &[&stream(&docs)]);
                } else {
                    assert_no_errors(&o);
                    assert_cluster_entries(&o, "metal3");
                }
            }
        }
    }
}

#[test]
fn a_long_data_template_name_counts_under_every_mapping_and_only_with_metal3_pools() {
    let (docs, name) = cluster_with_workers_template_of(62);
    // Mapping all reads no template, but CAPM3 labels the template's claims all the same.
    let o = run_docs(&docs, Some(&config(json!({"mapping": "all"}))));
    assert_error(
        &o,
        Want {
            path: Some("metadata.name"),
            object: Some(("Metal3DataTemplate", &name)),
            says: &["62 characters"],
        },
    );
    // A data template whose pools are all another kind makes no Metal3 claims: no error.
    let other = format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata:
  name: {name}
  namespace: other
spec:
  clusterName: test1
  networkData:
    networks:
      ipv4:
      - id: v4
        link: enp2s0
        fromPoolRef: {{name: in-cluster, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}
"
    );
    let o = run_docs(&[other], Some(&config(json!({"controllerFlag": false}))));
    assert_no_errors(&o);
    assert!(warnings(&o).is_empty(), "{}", dump(&o));
}

// ---- fields spelled as the other API version spells them (SPEC §3) ----

/// Every field CAPM3's v1beta1 and v1beta2 spell differently (from the CRDs of CAPM3 v1.13+,
/// which serve both): (kind, where it sits, v1beta1 name, v1beta2 name, the rest of the line).
const SPELLINGS: [(&str, &str, &str, &str, &str); 5] = [
    (
        "Metal3DataTemplate",
        "spec.metaData",
        "ipAddressesFromIPPool",
        "ipAddressesFromPool",
        "[{key: ip, name: provisioning-pool}]",
    ),
    (
        "Metal3DataTemplate",
        "spec.metaData",
        "prefixesFromIPPool",
        "prefixesFromPool",
        "[{key: prefix, name: provisioning-pool}]",
    ),
    (
        "Metal3DataTemplate",
        "spec.metaData",
        "gatewaysFromIPPool",
        "gatewaysFromPool",
        "[{key: gateway, name: provisioning-pool}]",
    ),
    (
        "Metal3DataTemplate",
        "spec.metaData",
        "dnsServersFromIPPool",
        "dnsServersFromPool",
        "[{key: dns, name: provisioning-pool}]",
    ),
    (
        "Metal3MachineTemplate",
        "spec.template.spec.image",
        "format",
        "diskFormat",
        "raw",
    ),
];

/// An object of `kind` in `version` whose field `key` at `holder` holds `value`.
fn object_with(kind: &str, version: &str, holder: &str, key: &str, value: &str) -> String {
    let mut text = format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/{version}\nkind: {kind}\nmetadata:\n  name: t\n  namespace: metal3\n"
    );
    let parts: Vec<&str> = holder.split('.').collect();
    for (depth, part) in parts.iter().enumerate() {
        text.push_str(&format!("{}{part}:\n", "  ".repeat(depth)));
    }
    text.push_str(&format!("{}{key}: {value}\n", "  ".repeat(parts.len())));
    text
}

#[test]
fn every_field_in_the_other_versions_spelling_is_a_warning_naming_the_right_one() {
    let quiet = config(json!({"controllerFlag": false}));
    for (kind, holder, v1beta1, v1beta2, value) in SPELLINGS {
        for (version, wrong, right, other) in [
            ("v1beta2", v1beta1, v1beta2, "v1beta1"),
            ("v1beta1", v1beta2, v1beta1, "v1beta2"),
        ] {
            let case = format!("{kind} {version} with {wrong}");
            let doc = object_with(kind, version, holder, wrong, value);
            let o = run_docs(std::slice::from_ref(&doc), Some(&quiet));
            assert_no_errors(&o);
            let w = warnings(&o);
            assert_eq!(w.len(), 1, "{case}:\n{}", dump(&o));
            let field = format!("{holder}.{wrong}");
            assert_warning(
                &o,
                Want {
                    path: Some(&field),
                    object: Some((kind, "t")),
                    says: &[
                        &format!("This is how {other} spells the field"),
                        &format!(
                            "infrastructure.cluster.x-k8s.io/{version} spells it {holder}.{right}"
                        ),
                        &format!("rename this field to {right}"),
                    ],
                },
            );
            // The object is not changed.
            assert_eq!(o.outputs[0], doc, "{case}");
            // In its own version's spelling: nothing to say.
            let right_doc = object_with(kind, version, holder, right, value);
            let o = run_docs(&[right_doc], Some(&quiet));
            assert!(
                warnings(&o).is_empty(),
                "{kind} {version} with {right}:\n{}",
                dump(&o)
            );
            // A version that is neither is not looked at.
            let o = run_docs(
                &[object_with(kind, "v1alpha5", holder, wrong, value)],
                Some(&quiet),
            );
            assert!(warnings(&o).is_empty(), "{case} in v1alpha5:\n{}", dump(&o));
        }
    }
}

#[test]
fn a_v1beta2_data_template_in_v1beta1_spelling_warns_and_its_pool_gets_nothing() {
    let docs: Vec<String> = cluster("v1beta2", "metal3")
        .into_iter()
        .map(|d| d.replace("ipAddressesFromPool:", "ipAddressesFromIPPool:"))
        .collect();
    let o = run_docs(&docs, Some(&config(json!({"controllerFlag": false}))));
    assert_no_errors(&o);
    for template in ["test1-controlplane-template", "test1-workers-template"] {
        assert_warning(
            &o,
            Want {
                path: Some("spec.metaData.ipAddressesFromIPPool"),
                object: Some(("Metal3DataTemplate", template)),
                says: &["spec.metaData.ipAddressesFromPool"],
            },
        );
    }
    // What the API server keeps is what CAPM3 and ipreuse read: the provisioning pool is
    // referenced by no template, so it is not filled.
    assert!(pool_entries(&o, "metal3", "provisioning-pool").is_empty());
    assert_eq!(pool_entries(&o, "metal3", "cp-pool").len(), 3);
}

#[test]
fn the_right_spellings_of_both_versions_warn_nothing() {
    for version in ["v1beta1", "v1beta2"] {
        let o = run_docs(
            &cluster(version, "metal3"),
            Some(&config(json!({"controllerFlag": false}))),
        );
        assert!(warnings(&o).is_empty(), "{version}:\n{}", dump(&o));
    }
}

// ---- Clusters stamped from a ClusterClass (SPEC §11) ----

/// A ClusterClass `metal3-class` in `ns` naming cluster test1's two machine templates, in the
/// spelling of `version`, with its variables and `patches` (YAML list items at indent 2, or
/// empty).
fn cluster_class(version: &str, ns: &str, patches: &str) -> String {
    let m3 = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\n";
    let (cp, md) = if version == "v1beta1" {
        (
            format!(
                "    machineInfrastructure:\n      ref:\n        {m3}        kind: Metal3MachineTemplate\n        name: test1-controlplane\n"
            ),
            format!(
                "    - class: worker\n      template:\n        infrastructure:\n          ref:\n            {m3}            kind: Metal3MachineTemplate\n            name: test1-workers\n"
            ),
        )
    } else {
        (
            format!(
                "    machineInfrastructure:\n      templateRef:\n        {m3}        kind: Metal3MachineTemplate\n        name: test1-controlplane\n"
            ),
            format!(
                "    - class: worker\n      infrastructure:\n        templateRef:\n          {m3}          kind: Metal3MachineTemplate\n          name: test1-workers\n"
            ),
        )
    };
    let patches = if patches.is_empty() {
        String::new()
    } else {
        format!("  patches:\n{patches}")
    };
    format!(
        "apiVersion: cluster.x-k8s.io/{version}
kind: ClusterClass
metadata:
  name: metal3-class
  namespace: {ns}
spec:
  controlPlane:
{cp}  workers:
    machineDeployments:
{md}  variables:
  - name: controlPlaneDataTemplate
    required: true
    schema:
      openAPIV3Schema:
        type: string
        default: test1-controlplane-template
  - name: imageURL
    required: false
    schema:
      openAPIV3Schema:
        type: string
        default: http://172.22.0.1/images/ubuntu-24.04.raw
  - name: rack
    required: false
    schema:
      openAPIV3Schema:
        type: string
{patches}"
    )
}

/// Cluster `name` in `ns` stamped from `metal3-class` in the spelling of `version`, with
/// `variables` (YAML list items at indent 4, or empty) and one MachineDeployment `md-0` of class
/// `worker` with `overrides` (list items at indent 10, or empty).
fn topology_cluster(
    version: &str,
    name: &str,
    ns: &str,
    variables: &str,
    overrides: &str,
) -> String {
    let class = if version == "v1beta1" {
        "class: metal3-class"
    } else {
        "classRef:\n      name: metal3-class"
    };
    let variables = if variables.is_empty() {
        String::new()
    } else {
        format!("    variables:\n{variables}")
    };
    let overrides = if overrides.is_empty() {
        String::new()
    } else {
        format!("        variables:\n          overrides:\n{overrides}")
    };
    format!(
        "apiVersion: cluster.x-k8s.io/{version}
kind: Cluster
metadata:
  name: {name}
  namespace: {ns}
spec:
  topology:
    {class}
    version: v1.34.1
    controlPlane:
      replicas: 3
    workers:
      machineDeployments:
      - class: worker
        name: md-0
        replicas: 3
{overrides}{variables}"
    )
}

/// One inline patch (a YAML list item at indent 2) with one JSON patch `op` at `path` on the
/// Metal3MachineTemplates of `part` (`controlPlane`, else that MachineDeployment class), `from`
/// its `valueFrom` (`variable: x` or `template: '...'`; empty for none), and `enabled_if` when not
/// empty.
fn patch(name: &str, enabled_if: &str, part: &str, op: &str, path: &str, from: &str) -> String {
    let selects = if part == "controlPlane" {
        "controlPlane: true".to_string()
    } else {
        format!("machineDeploymentClass:\n            names: [{part}]")
    };
    let enabled = if enabled_if.is_empty() {
        String::new()
    } else {
        format!("    enabledIf: '{enabled_if}'\n")
    };
    let value = if from.is_empty() {
        String::new()
    } else {
        format!("        valueFrom:\n          {from}\n")
    };
    format!(
        "  - name: {name}
{enabled}    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: Metal3MachineTemplate
        matchResources:
          {selects}
      jsonPatches:
      - op: {op}
        path: {path}
{value}"
    )
}

/// CAPM3's own e2e class swaps the control plane's data template this way (FACTS §7).
fn data_template_patch() -> String {
    patch(
        "controlPlaneDataTemplateSub",
        "",
        "controlPlane",
        "replace",
        "/spec/template/spec/dataTemplate/name",
        "variable: controlPlaneDataTemplate",
    )
}

fn host_selector_patch() -> String {
    patch(
        "image",
        "",
        "worker",
        "replace",
        "/spec/template/spec/image/url",
        "variable: imageURL",
    ) + &patch(
        "workerRack",
        "",
        "worker",
        "add",
        "/spec/template/spec/hostSelector/matchLabels",
        "template: '{rack: \"{{ .rack }}\"}'",
    )
}

const EXTERNAL_PATCH: &str = "  - name: lifecycle
    external:
      generateExtension: generate-patches.metal3-extension
";

/// Cluster test1's hosts, pools and templates, a second control-plane data template
/// `test1-cp-alt` (pool `cp-alt-pool`), the class with `patches` and Clusters `clusters`.
/// The templates are v1beta1, the version the patches select (CAPI matches a selector's
/// `apiVersion` exactly).
fn stamped(version: &str, patches: &str, clusters: &[String]) -> Vec<String> {
    let mut docs = cluster("v1beta1", "metal3");
    docs.push(data_template(
        "v1beta1",
        "test1-cp-alt",
        "metal3",
        "cp-alt-pool",
    ));
    docs.push(
        pool("cp-alt-pool", "metal3")
            .range(range("192.168.112.10", "192.168.112.19"))
            .prefix(24)
            .gateway("192.168.112.1")
            .yaml(),
    );
    docs.push(cluster_class(version, "metal3", patches));
    docs.extend(clusters.iter().cloned());
    docs
}

fn keys(o: &ipreuse::run::Outcome, pool: &str) -> Vec<String> {
    pool_entries(o, "metal3", pool)
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

#[test]
fn the_control_plane_copy_uses_the_data_template_its_patch_names_in_both_versions() {
    for version in ["v1beta1", "v1beta2"] {
        let cluster = topology_cluster(
            version,
            "test1",
            "metal3",
            "    - name: controlPlaneDataTemplate\n      value: test1-cp-alt\n",
            "",
        );
        let o = run_docs(&stamped(version, &data_template_patch(), &[cluster]), None);
        assert_no_errors(&o);
        // the class template's own data template (the placeholder) is not what CAPM3 reads
        assert!(keys(&o, "cp-pool").is_empty(), "{version}:\n{}", dump(&o));
        assert_eq!(
            keys(&o, "cp-alt-pool"),
            ["cp-0-cp-alt-pool", "cp-1-cp-alt-pool", "cp-2-cp-alt-pool"],
            "{version}"
        );
        assert_eq!(
            keys(&o, "worker-pool"),
            [
                "worker-1-worker-pool",
                "worker-2-worker-pool",
                "worker-10-worker-pool"
            ],
            "{version}"
        );
        assert_eq!(keys(&o, "provisioning-pool").len(), 6, "{version}");
        assert_finding(
            &o,
            Severity::Info,
            Want {
                path: None,
                object: Some(("Cluster", "test1")),
                says: &[
                    "Stamped from ClusterClass metal3/metal3-class: its machines use the class's templates",
                    "control plane: test1-controlplane (data template test1-cp-alt)",
                    "MachineDeployment md-0 (class worker): test1-workers (data template test1-workers-template)",
                ],
            },
        );
    }
}

#[test]
fn a_v1beta2_control_plane_override_replaces_the_clusters_value() {
    // the Cluster's value names the placeholder; the control plane's override (v1beta2) wins
    let cluster = topology_cluster(
        "v1beta2",
        "test1",
        "metal3",
        "    - name: controlPlaneDataTemplate\n      value: test1-controlplane-template\n",
        "",
    )
    .replace(
        "    controlPlane:\n      replicas: 3\n",
        "    controlPlane:\n      replicas: 3\n      variables:\n        overrides:\n        - name: controlPlaneDataTemplate\n          value: test1-cp-alt\n",
    );
    let o = run_docs(
        &stamped("v1beta2", &data_template_patch(), &[cluster]),
        None,
    );
    assert_no_errors(&o);
    assert!(keys(&o, "cp-pool").is_empty(), "{}", dump(&o));
    assert_eq!(keys(&o, "cp-alt-pool").len(), 3);
}

#[test]
fn without_a_value_the_schema_default_is_used() {
    let cluster = topology_cluster("v1beta2", "test1", "metal3", "", "");
    let o = run_docs(
        &stamped("v1beta2", &data_template_patch(), &[cluster]),
        None,
    );
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
    assert!(keys(&o, "cp-alt-pool").is_empty());
}

#[test]
fn two_clusters_of_one_class_give_a_host_the_union_of_their_pools() {
    let clusters = [
        topology_cluster(
            "v1beta2",
            "test1",
            "metal3",
            "    - name: controlPlaneDataTemplate\n      value: test1-cp-alt\n",
            "",
        ),
        topology_cluster("v1beta2", "test2", "metal3", "", ""),
    ];
    let o = run_docs(&stamped("v1beta2", &data_template_patch(), &clusters), None);
    assert_no_errors(&o);
    assert_eq!(keys(&o, "cp-pool").len(), 3, "{}", dump(&o));
    assert_eq!(keys(&o, "cp-alt-pool").len(), 3);
}

#[test]
fn a_patch_that_changes_the_host_selector_is_honoured_with_overrides() {
    // md-0's override puts its workers in rack r1, where only worker-2 is
    let cluster = topology_cluster(
        "v1beta1",
        "test1",
        "metal3",
        "",
        "          - name: rack\n            value: r1\n",
    );
    let mut docs = stamped("v1beta1", &host_selector_patch(), &[cluster]);
    for d in &mut docs {
        if d.contains("name: worker-2\n") && d.contains("kind: BareMetalHost") {
            *d = host("worker-2", "metal3")
                .label("cluster-role", "worker")
                .label("rack", "r1")
                .yaml();
        }
    }
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        keys(&o, "worker-pool"),
        ["worker-2-worker-pool"],
        "{}",
        dump(&o)
    );
}

#[test]
fn what_cannot_be_evaluated_is_an_error_naming_class_patch_and_field() {
    for (version, patches, field, says) in [
        (
            "v1beta1",
            EXTERNAL_PATCH.to_string(),
            "spec.patches[0].external",
            &["Patch \"lifecycle\" is an external patch", "mapping: all"][..],
        ),
        (
            "v1beta2",
            EXTERNAL_PATCH.to_string(),
            "spec.patches[0].external",
            &["Patch \"lifecycle\" is an external patch"][..],
        ),
        (
            // no value for rack, and no default: the template renders <no value>, which is
            // no selector CAPM3 would accept, so the failing step is named
            "v1beta2",
            patch(
                "rackFromVariable",
                "",
                "worker",
                "add",
                "/spec/template/spec/hostSelector/matchLabels/rack",
                "variable: rack",
            ),
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable",
            &["patch \"rackFromVariable\"", "\"rack\" has no value"][..],
        ),
        (
            // CAPI names the control plane at random when it creates it
            "v1beta2",
            patch(
                "dataTemplateByName",
                "",
                "controlPlane",
                "replace",
                "/spec/template/spec/dataTemplate/name",
                "template: '{{ .builtin.controlPlane.name }}-data'",
            ),
            "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template",
            &[
                "patch \"dataTemplateByName\"",
                "builtin.controlPlane.name",
                "offline",
            ][..],
        ),
        (
            "v1beta1",
            patch(
                "unknownFunction",
                "{{ env \"HOME\" }}",
                "controlPlane",
                "remove",
                "/spec/template/spec/hostSelector",
                "",
            ),
            "spec.patches[0].enabledIf",
            &["patch \"unknownFunction\"", "env"][..],
        ),
    ] {
        let cluster = topology_cluster(version, "test1", "metal3", "", "");
        let docs = stamped(version, &patches, &[cluster]);
        let o = run_docs(&docs, None);
        assert_transactional(&o, &[&stream(&docs)]);
        let mut want: Vec<&str> = Vec::new();
        want.extend_from_slice(says);
        assert_error(
            &o,
            Want {
                path: Some(field),
                object: Some(("ClusterClass", "metal3-class")),
                says: &want,
            },
        );
    }
}

/// `topology_cluster` with `labels` (flow YAML) on the Cluster.
fn labelled_cluster(version: &str, name: &str, labels: &str) -> String {
    topology_cluster(version, name, "metal3", "", "").replace(
        &format!("  name: {name}\n  namespace: metal3\n"),
        &format!("  name: {name}\n  namespace: metal3\n  labels: {labels}\n"),
    )
}

/// A patch replacing the control plane's data template name with `template`.
fn cp_data_template_from(template: &str, enabled_if: &str) -> String {
    patch(
        "dataTemplateFromBuiltins",
        enabled_if,
        "controlPlane",
        "replace",
        "/spec/template/spec/dataTemplate/name",
        &format!("template: '{template}'"),
    )
}

/// Which control plane pool the Cluster's hosts get: `cp-alt-pool` (data template
/// `test1-cp-alt`) or `cp-pool` (`test1-controlplane-template`).
fn control_plane_pool(o: &ipreuse::run::Outcome) -> &'static str {
    match (keys(o, "cp-alt-pool").len(), keys(o, "cp-pool").len()) {
        (3, 0) => "cp-alt-pool",
        (0, 3) => "cp-pool",
        other => panic!("{other:?}:\n{}", dump(o)),
    }
}

#[test]
fn the_clusters_labels_and_class_reference_decide_the_data_template_as_in_capi() {
    let alt_if_prod = r#"{{ if eq .builtin.cluster.metadata.labels.env "prod" }}test1-cp-alt{{ else }}test1-controlplane-template{{ end }}"#;
    let by_default = r#"{{ default "test1-cp-alt" .builtin.cluster.metadata.labels.dt }}"#;
    let by_namespace =
        r#"{{ if eq .builtin.cluster.topology.classNamespace "metal3" }}test1-cp-alt{{ end }}"#;
    let by_class = r#"{{ if eq .builtin.cluster.topology.classRef.name "metal3-class" }}test1-cp-alt{{ end }}"#;
    // CAPI adds these labels to the desired Cluster before it computes the builtins
    let by_capi_label =
        r#"{{ index .builtin.cluster.metadata.labels "cluster.x-k8s.io/cluster-name" }}"#;
    for version in ["v1beta1", "v1beta2"] {
        for (template, enabled_if, labels, want) in [
            (alt_if_prod, "", "{env: prod}", "cp-alt-pool"),
            (alt_if_prod, "", "{env: dev}", "cp-pool"),
            (by_default, "", "{}", "cp-alt-pool"),
            (
                by_default,
                "",
                "{dt: test1-controlplane-template}",
                "cp-pool",
            ),
            // the patch names the alternative, but only prod Clusters get it
            (
                "test1-cp-alt",
                r#"{{ eq .builtin.cluster.metadata.labels.env "prod" }}"#,
                "{env: prod}",
                "cp-alt-pool",
            ),
            (
                "test1-cp-alt",
                r#"{{ eq .builtin.cluster.metadata.labels.env "prod" }}"#,
                "{env: dev}",
                "cp-pool",
            ),
            (by_namespace, "", "{}", "cp-alt-pool"),
            (by_class, "", "{}", "cp-alt-pool"),
            (by_capi_label, "", "{}", "cp-alt-pool"),
        ] {
            // Cluster test1-cp-alt: its name is the data template's
            let name = if template == by_capi_label {
                "test1-cp-alt"
            } else {
                "test1"
            };
            let cluster = labelled_cluster(version, name, labels);
            let o = run_docs(
                &stamped(
                    version,
                    &cp_data_template_from(template, enabled_if),
                    &[cluster],
                ),
                None,
            );
            assert_no_errors(&o);
            assert_eq!(
                control_plane_pool(&o),
                want,
                "{version} {template} if {enabled_if} with {labels}"
            );
        }
    }
}

#[test]
fn a_machine_deployments_metadata_is_the_topologys_over_the_classs() {
    // md-0's topology labels it rack r1 (the class says r2): only worker-2 is in rack r1
    let cluster = topology_cluster("v1beta2", "test1", "metal3", "", "").replace(
        "        name: md-0\n",
        "        name: md-0\n        metadata:\n          labels: {rack: r1}\n",
    );
    let rack = patch(
        "workerRack",
        "",
        "worker",
        "add",
        "/spec/template/spec/hostSelector/matchLabels",
        r#"template: '{rack: "{{ .builtin.machineDeployment.metadata.labels.rack }}", deployment: "{{ index .builtin.machineDeployment.metadata.labels "topology.cluster.x-k8s.io/deployment-name" }}"}'"#,
    );
    let mut docs = stamped("v1beta2", &rack, &[cluster]);
    for d in &mut docs {
        if d.contains("kind: ClusterClass") {
            *d = d.replace(
                "    - class: worker\n",
                "    - class: worker\n      metadata:\n        labels: {rack: r2}\n",
            );
        }
        if d.contains("name: worker-2\n") && d.contains("kind: BareMetalHost") {
            *d = host("worker-2", "metal3")
                .label("cluster-role", "worker")
                .label("rack", "r1")
                .label("deployment", "md-0")
                .yaml();
        }
    }
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(
        keys(&o, "worker-pool"),
        ["worker-2-worker-pool"],
        "{}",
        dump(&o)
    );
}

#[test]
fn the_control_planes_metadata_needs_its_template_and_generated_names_are_errors() {
    let kcp_template = "apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata:
  name: kcp
  namespace: metal3
spec:
  template:
    metadata:
      labels: {tier: gold}
    spec: {}
";
    let read_tier = r#"{{ if eq .builtin.controlPlane.metadata.labels.tier "gold" }}test1-cp-alt{{ else }}test1-controlplane-template{{ end }}"#;
    let with_kcp_ref = |docs: &mut Vec<String>| {
        for d in docs.iter_mut() {
            if d.contains("kind: ClusterClass") {
                *d = d.replace(
                    "  controlPlane:\n",
                    "  controlPlane:\n    templateRef:\n      apiVersion: controlplane.cluster.x-k8s.io/v1beta2\n      kind: KubeadmControlPlaneTemplate\n      name: kcp\n",
                );
            }
        }
    };
    let cluster = topology_cluster("v1beta2", "test1", "metal3", "", "");
    let mut docs = stamped(
        "v1beta2",
        &cp_data_template_from(read_tier, ""),
        std::slice::from_ref(&cluster),
    );
    with_kcp_ref(&mut docs);
    docs.push(kcp_template.to_string());
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_eq!(control_plane_pool(&o), "cp-alt-pool");
    // without the template CAPI copies the labels from, they are unknown
    docs.pop();
    let o = run_docs(&docs, None);
    assert_error(
        &o,
        Want {
            path: Some("spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template"),
            object: Some(("ClusterClass", "metal3-class")),
            says: &[
                "builtin.controlPlane.metadata",
                "KubeadmControlPlaneTemplate",
            ],
        },
    );
    // names CAPI generates, however they are read
    // (`with` gives the whole control plane builtin, whose unknown metadata may be named first)
    for (template, says) in [
        (
            "{{ .builtin.controlPlane.machineTemplate.infrastructureRef.name }}",
            &[
                "builtin.controlPlane.machineTemplate.infrastructureRef.name",
                "offline",
            ][..],
        ),
        (
            "{{ with .builtin.controlPlane }}{{ .name }}{{ end }}",
            &["it reads builtin.controlPlane."][..],
        ),
        (
            r#"{{ default "x" .builtin.cluster.uid }}"#,
            &["builtin.cluster.uid", "offline"][..],
        ),
    ] {
        let docs = stamped(
            "v1beta2",
            &cp_data_template_from(template, ""),
            std::slice::from_ref(&cluster),
        );
        let o = run_docs(&docs, None);
        assert_error(
            &o,
            Want {
                path: Some("spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template"),
                object: Some(("ClusterClass", "metal3-class")),
                says,
            },
        );
    }
}

#[test]
fn a_machine_deployment_of_a_class_the_class_lacks_is_an_error_on_the_cluster() {
    let cluster = topology_cluster("v1beta2", "test1", "metal3", "", "")
        .replace("      - class: worker\n", "      - class: wroker\n");
    let o = run_docs(&stamped("v1beta2", "", &[cluster]), None);
    assert_error(
        &o,
        Want {
            path: Some("spec.topology.workers.machineDeployments[0].class"),
            object: Some(("Cluster", "test1")),
            says: &["\"wroker\"", "does not define"],
        },
    );
}

#[test]
fn a_cluster_naming_a_class_that_is_not_here_warns_when_others_are() {
    let typo = topology_cluster("v1beta1", "test1", "metal3", "", "")
        .replace("class: metal3-class", "class: metal3-clas");
    let o = run_docs(&stamped("v1beta1", &data_template_patch(), &[typo]), None);
    assert_no_errors(&o);
    assert_finding(
        &o,
        Severity::Warning,
        Want {
            path: Some("spec.topology.class"),
            object: Some(("Cluster", "test1")),
            says: &[
                "ClusterClass metal3/metal3-clas is not in the input",
                "(did you mean metal3-class?)",
            ],
        },
    );
    // alone, the Cluster's class is simply kept elsewhere: an info
    let mut docs = cluster("v1beta1", "metal3");
    docs.push(topology_cluster("v1beta1", "test1", "metal3", "", ""));
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_finding(
        &o,
        Severity::Info,
        Want {
            path: Some("spec.topology.class"),
            object: Some(("Cluster", "test1")),
            says: &["ClusterClass metal3/metal3-class is not in the input"],
        },
    );
}

#[test]
fn a_variable_the_class_does_not_define_warns_on_the_cluster() {
    let cluster = topology_cluster(
        "v1beta2",
        "test1",
        "metal3",
        "    - name: controlPlaneDataTemplat\n      value: test1-cp-alt\n",
        "",
    );
    let o = run_docs(
        &stamped("v1beta2", &data_template_patch(), &[cluster]),
        None,
    );
    assert_no_errors(&o);
    assert_finding(
        &o,
        Severity::Warning,
        Want {
            path: Some("spec.topology.variables[0].name"),
            object: Some(("Cluster", "test1")),
            says: &[
                "Variable \"controlPlaneDataTemplat\" is not defined by ClusterClass metal3/metal3-class",
                "(did you mean controlPlaneDataTemplate?)",
            ],
        },
    );
    // the misspelt value is not read: the class's default is
    assert!(keys(&o, "cp-alt-pool").is_empty());
    assert_eq!(keys(&o, "cp-pool").len(), 3);
}

#[test]
fn a_class_no_cluster_uses_contributes_nothing() {
    let o = run_docs(&stamped("v1beta2", &data_template_patch(), &[]), None);
    assert_no_errors(&o);
    assert_finding(
        &o,
        Severity::Info,
        Want {
            path: None,
            object: Some(("ClusterClass", "metal3-class")),
            says: &[
                "no Cluster of the input is stamped from this class",
                "They are test1-controlplane, test1-workers.",
            ],
        },
    );
    assert!(
        !infos(&o).iter().any(|i| i.contains("mapping templates")),
        "{}",
        dump(&o)
    );
}

#[test]
fn mapping_all_reads_no_template_so_an_external_patch_is_no_error() {
    let cluster = topology_cluster("v1beta1", "test1", "metal3", "", "");
    let docs = stamped("v1beta1", EXTERNAL_PATCH, &[cluster]);
    let o = run_docs(&docs, Some(&config(json!({"mapping": "all"}))));
    assert_no_errors(&o);
    // every host in every pool: what any copy may need
    assert_eq!(pool_entries(&o, "metal3", "cp-pool").len(), 7);
    assert!(
        o.findings.iter().all(|f| f
            .resource_ref
            .as_ref()
            .is_none_or(|r| r.kind != "ClusterClass")),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_class_whose_templates_are_elsewhere_changes_nothing_here() {
    // The class is in another namespace than the templates: it names none of them.
    let mut docs = cluster("v1beta2", "metal3");
    docs.push(cluster_class("v1beta1", "classes", &data_template_patch()));
    let o = run_docs(&docs, None);
    assert_no_errors(&o);
    assert_cluster_entries(&o, "metal3");
}

// ---- as a user runs it: kpt and the binary on a package on disk ----

/// A package folder holding `docs` as `cluster.yaml`, in a fresh temp folder.
fn package_of(docs: &[String]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("pkg");
    std::fs::create_dir(&pkg).expect("mkdir");
    std::fs::write(pkg.join("cluster.yaml"), stream(docs)).expect("write");
    (dir, pkg)
}

#[test]
fn kpt_fn_eval_reports_a_v1beta1_spelling_in_a_v1beta2_template() {
    let docs: Vec<String> = cluster("v1beta2", "metal3")
        .into_iter()
        .map(|d| d.replace("ipAddressesFromPool:", "ipAddressesFromIPPool:"))
        .collect();
    let (dir, pkg) = package_of(&docs);
    let results = dir.path().join("results");
    let kpt = std::env::var("KPT").unwrap_or_else(|_| "kpt".to_string());
    let out = std::process::Command::new(&kpt)
        .args(["fn", "eval"])
        .arg(&pkg)
        .args(["--exec", env!("CARGO_BIN_EXE_ipreuse"), "--results-dir"])
        .arg(&results)
        .args(["--", "controllerFlag=false"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {kpt} (kpt must be installed): {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(results.join("results.yaml")).expect("results.yaml");
    let results: serde_json::Value = serde_saphyr::from_str(&text).expect("results.yaml reads");
    let warnings: Vec<&serde_json::Value> = results["items"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["severity"] == "warning")
        .collect();
    assert_eq!(warnings.len(), 2, "{text}");
    for (w, name) in warnings
        .iter()
        .zip(["test1-controlplane-template", "test1-workers-template"])
    {
        assert_eq!(w["resourceRef"]["name"], name, "{text}");
        assert_eq!(w["field"]["path"], "spec.metaData.ipAddressesFromIPPool");
        let message = w["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("spells it spec.metaData.ipAddressesFromPool"),
            "{message}"
        );
    }
    // What the API server would keep is what is filled: the cp and worker pools only.
    let written = std::fs::read_to_string(pkg.join("cluster.yaml")).expect("read");
    assert!(written.contains("    cp-0-cp-pool: \"192.168.111.10\"\n"));
    assert!(!written.contains("-provisioning-pool: "));
}

#[test]
fn on_disk_an_external_patch_fails_in_place_until_mapping_all() {
    let cluster = topology_cluster("v1beta2", "test1", "metal3", "", "");
    let docs = stamped("v1beta2", EXTERNAL_PATCH, &[cluster]);
    let (dir, pkg) = package_of(&docs);
    let ipreuse = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ipreuse"))
            .args(args)
            .output()
            .expect("run ipreuse");
        (
            out.status.code().expect("an exit code"),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = ipreuse(&["--in-place".as_ref(), pkg.as_ref()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("ClusterClass metal3/metal3-class")
            && stderr.contains("spec.patches[0].external")
            && stderr.contains("Patch \"lifecycle\""),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join("cluster.yaml")).expect("read"),
        stream(&docs),
        "nothing written"
    );
    let cfg = dir.path().join("ipreuse.yaml");
    std::fs::write(
        &cfg,
        ipreuse_config("cfg")
            .set("mapping", "all")
            .set("controllerFlag", "false")
            .yaml(),
    )
    .expect("write");
    let (code, stderr) = ipreuse(&[
        "--in-place".as_ref(),
        "--config".as_ref(),
        cfg.as_ref(),
        pkg.as_ref(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let written = std::fs::read_to_string(pkg.join("cluster.yaml")).expect("read");
    assert!(
        written.contains("    spare-0-cp-pool: \"192.168.111.13\"\n"),
        "{written}"
    );
}

/// A standalone object of `kind` in `version` whose machines use Metal3MachineTemplate
/// `template` of namespace metal3 as written, spelled as that version spells the reference.
fn template_user(kind: &str, version: &str, template: &str) -> String {
    let (group, indent_ref) = match kind {
        "KubeadmControlPlane" => (
            "controlplane.cluster.x-k8s.io",
            if version == "v1beta1" {
                "  machineTemplate:\n    infrastructureRef:\n"
            } else {
                "  machineTemplate:\n    spec:\n      infrastructureRef:\n"
            },
        ),
        "Machine" => ("cluster.x-k8s.io", "  infrastructureRef:\n"),
        _ => (
            "cluster.x-k8s.io",
            "  template:\n    spec:\n      infrastructureRef:\n",
        ),
    };
    let pad = " ".repeat(indent_ref.lines().count() * 2 + 2);
    let r = if version == "v1beta1" {
        format!(
            "{pad}apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\n{pad}kind: Metal3MachineTemplate\n{pad}name: {template}\n"
        )
    } else {
        format!(
            "{pad}apiGroup: infrastructure.cluster.x-k8s.io\n{pad}kind: Metal3MachineTemplate\n{pad}name: {template}\n"
        )
    };
    format!(
        "apiVersion: {group}/{version}\nkind: {kind}\nmetadata:\n  name: standalone\n  namespace: metal3\nspec:\n  clusterName: other\n{indent_ref}{r}"
    )
}

#[test]
fn a_class_template_a_standalone_object_uses_is_mapped_as_written_too() {
    // the Cluster's copy of the control plane template names test1-cp-alt; the class template
    // itself names test1-controlplane-template (cp-pool), which only the standalone object's
    // machines claim from
    let cluster = topology_cluster(
        "v1beta2",
        "test1",
        "metal3",
        "    - name: controlPlaneDataTemplate\n      value: test1-cp-alt\n",
        "",
    );
    for kind in [
        "KubeadmControlPlane",
        "MachineDeployment",
        "MachineSet",
        "Machine",
    ] {
        for version in ["v1beta1", "v1beta2"] {
            let mut docs = stamped(
                "v1beta2",
                &data_template_patch(),
                std::slice::from_ref(&cluster),
            );
            docs.push(template_user(kind, version, "test1-controlplane"));
            let o = run_docs(&docs, None);
            assert_no_errors(&o);
            assert_eq!(keys(&o, "cp-alt-pool").len(), 3, "{kind} {version}");
            assert_eq!(
                keys(&o, "cp-pool"),
                ["cp-0-cp-pool", "cp-1-cp-pool", "cp-2-cp-pool"],
                "{kind} {version}:\n{}",
                dump(&o)
            );
            assert_finding(
                &o,
                Severity::Info,
                Want {
                    path: None,
                    object: Some((kind, "standalone")),
                    says: &[
                        "Metal3MachineTemplate test1-controlplane",
                        "mapped as written",
                    ],
                },
            );
            // a reference to another template, or in the other version's spelling, changes nothing
            let other = if version == "v1beta1" {
                "v1beta2"
            } else {
                "v1beta1"
            };
            for user in [
                template_user(kind, version, "test1-cp-nothing"),
                template_user(kind, version, "test1-controlplane")
                    .replace(&format!("/{version}\nkind"), &format!("/{other}\nkind")),
            ] {
                let mut docs = stamped(
                    "v1beta2",
                    &data_template_patch(),
                    std::slice::from_ref(&cluster),
                );
                docs.push(user);
                let o = run_docs(&docs, None);
                assert_no_errors(&o);
                assert!(keys(&o, "cp-pool").is_empty(), "{kind} {version}");
            }
        }
    }
}

#[test]
fn a_value_a_patch_writes_and_capm3_refuses_is_reported_once_at_the_patch() {
    // the patch writes a selector CAPM3 refuses into both Clusters' copies of the control plane
    let bad = patch(
        "badSelector",
        "",
        "controlPlane",
        "add",
        "/spec/template/spec/hostSelector/matchExpressions",
        r#"template: '[{key: rack, operator: Near, values: [r1]}]'"#,
    );
    let clusters = [
        topology_cluster("v1beta2", "test1", "metal3", "", ""),
        topology_cluster("v1beta2", "test2", "metal3", "", ""),
    ];
    let docs = stamped("v1beta2", &bad, &clusters);
    let o = run_docs(&docs, None);
    assert_transactional(&o, &[&stream(&docs)]);
    let at = "spec.patches[0].definitions[0].jsonPatches[0]";
    assert_error(
        &o,
        Want {
            path: Some(at),
            object: Some(("ClusterClass", "metal3-class")),
            says: &[
                "patch \"badSelector\"",
                "Metal3MachineTemplate test1-controlplane",
                "the control plane of Cluster metal3/test1; the control plane of Cluster metal3/test2",
                "Near",
            ],
        },
    );
    let at_patch = o
        .findings
        .iter()
        .filter(|f| f.field.as_ref().is_some_and(|p| p.path == at))
        .count();
    assert_eq!(at_patch, 1, "once for both Clusters:\n{}", dump(&o));
    // and the copy is never reported as an object of the input
    assert!(
        !dump(&o).contains("[Metal3MachineTemplate metal3/test1-controlplane] (spec.template"),
        "{}",
        dump(&o)
    );
}

#[test]
fn a_problem_of_the_class_is_reported_once_not_once_per_cluster() {
    let clusters = [
        topology_cluster("v1beta2", "test1", "metal3", "", ""),
        topology_cluster("v1beta2", "test2", "metal3", "", ""),
        topology_cluster("v1beta2", "test3", "metal3", "", ""),
    ];
    // an enabledIf that fails alike for every Cluster
    let failing = patch(
        "unknownFunction",
        "{{ env \"HOME\" }}",
        "controlPlane",
        "remove",
        "/spec/template/spec/hostSelector",
        "",
    );
    let o = run_docs(&stamped("v1beta2", &failing, &clusters), None);
    let errors: Vec<_> = o
        .findings
        .iter()
        .filter(|f| f.is_error() && f.message.contains("unknownFunction"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", dump(&o));
    assert!(
        errors[0].message.contains("metal3/test1") && errors[0].message.contains("metal3/test3"),
        "{}",
        errors[0].message
    );
    // the class template's own selector, which no patch wrote: reported once, on the template
    let mut docs = stamped("v1beta2", "", &clusters);
    for d in &mut docs {
        if d.contains("name: test1-controlplane\n") && d.contains("kind: Metal3MachineTemplate") {
            *d = d.replace(
                "cluster-role: control-plane",
                "cluster-role: [control-plane]",
            );
        }
    }
    let o = run_docs(&docs, None);
    let errors: Vec<_> = o
        .findings
        .iter()
        .filter(|f| {
            f.is_error()
                && (f.message.contains("hostSelector")
                    || f.field
                        .as_ref()
                        .is_some_and(|p| p.path.contains("hostSelector")))
        })
        .collect();
    assert_eq!(errors.len(), 1, "{}", dump(&o));
    assert_eq!(
        errors[0].resource_ref.as_ref().map(|r| (
            r.kind.as_str(),
            r.name.as_str(),
            r.namespace.as_deref()
        )),
        Some((
            "Metal3MachineTemplate",
            "test1-controlplane",
            Some("metal3")
        ))
    );
}

#[test]
fn a_field_of_the_other_version_is_never_read_and_warns_with_the_versions_spelling() {
    for version in ["v1beta1", "v1beta2"] {
        let (stale_class, stale_ref, right_ref, stale_cluster, right_cluster) = if version
            == "v1beta2"
        {
            (
                "    machineInfrastructure:\n      ref: {kind: Metal3MachineTemplate, name: stale}\n",
                "spec.controlPlane.machineInfrastructure.ref",
                "spec.controlPlane.machineInfrastructure.templateRef",
                "    class: stale\n",
                "spec.topology.classRef.name",
            )
        } else {
            (
                "    machineInfrastructure:\n      templateRef: {kind: Metal3MachineTemplate, name: stale}\n",
                "spec.controlPlane.machineInfrastructure.templateRef",
                "spec.controlPlane.machineInfrastructure.ref",
                "    classRef: {name: stale}\n",
                "spec.topology.class",
            )
        };
        let cluster = topology_cluster(version, "test1", "metal3", "", "")
            .replace("  topology:\n", &format!("  topology:\n{stale_cluster}"));
        let mut docs = stamped(version, &data_template_patch(), &[cluster]);
        for d in &mut docs {
            if d.contains("kind: ClusterClass") {
                *d = d.replace("    machineInfrastructure:\n", stale_class);
            }
        }
        let o = run_docs(&docs, None);
        assert_no_errors(&o);
        // the version's own spelling decides: the Cluster of metal3-class, its control plane's
        // template test1-controlplane
        assert_cluster_entries(&o, "metal3");
        assert_finding(
            &o,
            Severity::Warning,
            Want {
                path: Some(stale_ref),
                object: Some(("ClusterClass", "metal3-class")),
                says: &[&format!("cluster.x-k8s.io/{version} spells it {right_ref}")],
            },
        );
        let stale_field = if version == "v1beta2" {
            "spec.topology.class"
        } else {
            "spec.topology.classRef"
        };
        assert_finding(
            &o,
            Severity::Warning,
            Want {
                path: Some(stale_field),
                object: Some(("Cluster", "test1")),
                says: &[right_cluster, "the API server drops"],
            },
        );
    }
}

#[test]
fn a_field_that_decides_the_mapping_with_a_shape_the_api_server_refuses_is_an_error() {
    let names = patch(
        "p",
        "",
        "worker",
        "replace",
        "/spec/template/spec/image/url",
        "variable: imageURL",
    )
    .replace("names: [worker]", "names: 7");
    for (version, class_from, cluster_from, field, object) in [
        (
            "v1beta2",
            ("", ""),
            ("", ""),
            "spec.patches[0].definitions[0].selector.matchResources.machineDeploymentClass.names",
            "ClusterClass",
        ),
        (
            "v1beta1",
            ("", ""),
            ("class: metal3-class", "class: 3"),
            "spec.topology.class",
            "Cluster",
        ),
        (
            "v1beta2",
            (
                "      templateRef:\n        apiVersion",
                "      templateRef:\n      - apiVersion",
            ),
            ("", ""),
            "spec.controlPlane.machineInfrastructure.templateRef",
            "ClusterClass",
        ),
        (
            "v1beta2",
            ("", ""),
            (
                "  topology:\n    classRef:\n      name: metal3-class\n",
                "  topology: metal3-class\n  x:\n    classRef:\n      name: metal3-class\n",
            ),
            "spec.topology",
            "Cluster",
        ),
        (
            "v1beta2",
            ("", ""),
            ("        replicas: 3\n", "        replicas: three\n"),
            "spec.topology.workers.machineDeployments[0].replicas",
            "Cluster",
        ),
    ] {
        let patches = if field.contains("names") {
            names.clone()
        } else {
            String::new()
        };
        let cluster = topology_cluster(version, "test1", "metal3", "", "");
        let cluster = if cluster_from.0.is_empty() {
            cluster
        } else {
            assert!(cluster.contains(cluster_from.0), "{cluster}");
            cluster.replace(cluster_from.0, cluster_from.1)
        };
        let mut docs = stamped(version, &patches, &[cluster]);
        if !class_from.0.is_empty() {
            for d in &mut docs {
                if d.contains("kind: ClusterClass") {
                    assert!(d.contains(class_from.0), "{d}");
                    *d = d.replacen(class_from.0, class_from.1, 1);
                }
            }
        }
        let o = run_docs(&docs, None);
        assert_transactional(&o, &[&stream(&docs)]);
        assert_error(
            &o,
            Want {
                path: Some(field),
                object: Some((
                    object,
                    if object == "Cluster" {
                        "test1"
                    } else {
                        "metal3-class"
                    },
                )),
                says: &["where the API server accepts only", "refuses the"],
            },
        );
    }
}

#[test]
fn variables_as_the_api_server_stores_them_nulls_defaulted_numeric_segments_into_arrays() {
    let more = "  variables:
  - name: dataTemplates
    schema:
      openAPIV3Schema:
        type: object
        properties:
          cp: {type: string, default: test1-cp-alt}
  - name: dts
    schema:
      openAPIV3Schema:
        type: array
        items: {type: string}
";
    for (variable, value, want) in [
        // a null under a property with a default takes the default
        ("dataTemplates.cp", "{cp: null}", "cp-alt-pool"),
        (
            "dataTemplates.cp",
            "{cp: test1-controlplane-template}",
            "cp-pool",
        ),
        // a numeric segment reads into an array, as dts[1] does
        (
            "dts.1",
            "[test1-controlplane-template, test1-cp-alt]",
            "cp-alt-pool",
        ),
        (
            "dts[1]",
            "[test1-controlplane-template, test1-cp-alt]",
            "cp-alt-pool",
        ),
        (
            "dts.0",
            "[test1-controlplane-template, test1-cp-alt]",
            "cp-pool",
        ),
    ] {
        let name = variable.split(['.', '[']).next().unwrap_or_default();
        let cluster = topology_cluster(
            "v1beta2",
            "test1",
            "metal3",
            &format!("    - name: {name}\n      value: {value}\n"),
            "",
        );
        let p = patch(
            "fromVariable",
            "",
            "controlPlane",
            "replace",
            "/spec/template/spec/dataTemplate/name",
            &format!("variable: \"{variable}\""),
        );
        let mut docs = stamped("v1beta2", &p, &[cluster]);
        for d in &mut docs {
            if d.contains("kind: ClusterClass") {
                *d = d.replace("  variables:\n", more);
            }
        }
        let o = run_docs(&docs, None);
        assert_no_errors(&o);
        assert_eq!(control_plane_pool(&o), want, "{variable} of {value}");
    }
}
