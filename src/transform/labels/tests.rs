//! One test per rule of SPEC §7, on the library: the edits and results of [`apply`] for small
//! packages, and the text those edits make.

use super::{DATA_NAME, POOL_NAME, apply};
use crate::config::{Config, PoolName};
use crate::edits::ItemEdit;
use crate::fixtures;
use crate::model::Model;
use crate::results::{Finding, Severity};
use crate::transform::Outcome;
use crate::yaml::{self, Edit, Seg, WriteStyle};

const HOST: &str = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata:\n  name: {name}\n  namespace: lab\nspec:\n  online: true\n";

fn host(name: &str) -> String {
    HOST.replace("{name}", name)
}

fn pool(name: &str) -> String {
    fixtures::pool(name, "lab")
        .range(fixtures::range("10.0.0.10", "10.0.0.20"))
        .prefix(24)
        .yaml()
}

/// An IPClaim in `lab` with `extra` lines under `metadata:` (indented by two).
fn claim(name: &str, extra: &str) -> String {
    fixtures::claim(name, "lab")
        .metadata_yaml(extra)
        .pool("{pool}")
        .yaml()
}

/// The `ownerReferences` CAPM3 writes on a claim it made for Metal3Data `data`.
fn owned_by(data: &str) -> String {
    format!(
        "  ownerReferences:\n  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\n    kind: Metal3Data\n    name: {data}\n    uid: 5f7c4f3e-0000-4000-8000-000000000001\n    controller: true\n"
    )
}

/// A claim as CAPM3 makes it for `host` and `pool`: spec.pool names the pool.
fn capm3_claim(host: &str, pool: &str, extra: &str) -> String {
    claim(&format!("{host}-{pool}"), extra).replace("{pool}", pool)
}

/// A claim without `spec.pool`.
fn bare_claim(name: &str, extra: &str) -> String {
    claim(name, extra).replace("spec:\n  pool:\n    name: {pool}\n", "spec: {}\n")
}

fn metal3data(name: &str, template: &str, extra: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: Metal3Data\nmetadata:\n  name: {name}\n  namespace: lab\n{extra}spec:\n  index: 0\n  template:\n    name: {template}\n"
    )
}

/// A Metal3DataTemplate whose first reference is a CAPI in-cluster pool, then `first` (Metal3),
/// then `second`.
fn data_template(name: &str, first: &str, second: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\nkind: Metal3DataTemplate\nmetadata:\n  name: {name}\n  namespace: lab\nspec:\n  clusterName: c\n  networkData:\n    networks:\n      ipv4:\n      - id: capi\n        link: eth0\n        fromPoolRef: {{name: incluster, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}\n      - id: prov\n        link: eth1\n        ipAddressFromIPPool: {first}\n      - id: ext\n        link: eth2\n        ipAddressFromIPPool: {second}\n"
    )
}

/// The input: documents of one stream, read as `run` reads them.
struct Input {
    text: String,
    docs: Vec<yaml::Document>,
    model: Model,
}

fn input(docs: &[String]) -> Input {
    let text = docs.iter().map(|d| format!("---\n{d}")).collect::<String>();
    let parsed = yaml::parse(&text).expect("test YAML parses");
    let nodes: Vec<&yaml::Node> = parsed.iter().map(|d| &d.root).collect();
    let mut findings = Vec::new();
    let model = Model::of_nodes(&nodes, &mut findings);
    assert!(
        findings.iter().all(|f| !f.is_error()),
        "the test input itself is wrong: {findings:?}"
    );
    Input {
        text,
        docs: parsed,
        model,
    }
}

impl Input {
    /// The labels, with the managed pools the preallocations decide, as a run hands them on.
    fn apply(&self, config: &Config) -> Outcome {
        let managed = crate::transform::preallocations::apply(
            &self.model,
            config,
            &crate::transform::RunContext::default(),
        )
        .managed;
        apply(&self.model, config, &managed)
    }

    /// The text with the edits made.
    fn edited(&self, edits: &[ItemEdit]) -> String {
        let pairs: Vec<(&yaml::Node, Edit)> = edits
            .iter()
            .map(|e| (&self.docs[e.item.0].root, e.edit.clone()))
            .collect();
        yaml::apply(&self.text, &pairs).expect("the edits apply")
    }
}

fn labels_path() -> Vec<Seg> {
    vec![Seg::key("metadata"), Seg::key("labels")]
}

fn add(item: usize, entries: &[(&str, &str)]) -> ItemEdit {
    ItemEdit {
        item: crate::model::ItemId(item),
        edit: Edit::AddEntries {
            path: labels_path(),
            entries: entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        },
    }
}

fn field(f: &Finding) -> Option<&str> {
    f.field.as_ref().map(|f| f.path.as_str())
}

fn only(findings: &[Finding], severity: Severity) -> Vec<&Finding> {
    findings.iter().filter(|f| f.severity == severity).collect()
}

/// A second run on the edited text changes nothing and says nothing new.
fn assert_idempotent(inp: &Input, config: &Config) {
    let first = inp.apply(config);
    let again = input(&split(&inp.edited(&first.edits)));
    let second = again.apply(config);
    assert_eq!(second.edits, Vec::new(), "a second run edits again");
    let warnings = |o: &Outcome| {
        o.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning && !f.message.contains("rewritten"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(warnings(&second), warnings(&first));
}

fn split(text: &str) -> Vec<String> {
    text.split("---\n")
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_claim_of_a_known_host_and_managed_pool_gets_both_labels() {
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &owned_by("md-7")),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.findings, Vec::new());
    assert_eq!(
        out.edits,
        vec![add(2, &[(DATA_NAME, "md-7"), (POOL_NAME, "prov")])]
    );
    // The missing labels map is created at the end of metadata.
    let text = inp.edited(&out.edits);
    assert!(
        text.contains(
            "    controller: true\n  labels:\n    infrastructure.cluster.x-k8s.io/data-name: \"md-7\"\n    \
             infrastructure.cluster.x-k8s.io/pool-name: \"prov\"\nspec:\n"
        ),
        "{text}"
    );
    assert_idempotent(&inp, &Config::default());
}

#[test]
fn the_metal3data_owner_is_found_by_kind_and_group_wherever_it_is() {
    let owners = "  ownerReferences:\n  - apiVersion: ipam.metal3.io/v1alpha1\n    kind: IPPool\n    name: prov\n    uid: a\n  \
                  - apiVersion: example.com/v1\n    kind: Metal3Data\n    name: decoy\n    uid: b\n  \
                  - apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\n    kind: Metal3Data\n    name: md-3\n    uid: c\n";
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", owners),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(
        out.edits,
        vec![add(2, &[(DATA_NAME, "md-3"), (POOL_NAME, "prov")])]
    );
}

#[test]
fn a_claim_without_a_metal3data_owner_gets_pool_name_and_a_warning() {
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", ""),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, vec![add(2, &[(POOL_NAME, "prov")])]);
    let warnings = only(&out.findings, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{:?}", out.findings);
    assert!(
        warnings[0]
            .message
            .contains("no ownerReferences entry of kind Metal3Data")
            && warnings[0].message.contains(DATA_NAME),
        "{}",
        warnings[0].message
    );
    assert_eq!(field(warnings[0]), Some("metadata.ownerReferences"));
    assert_eq!(
        warnings[0].resource_ref.as_ref().map(|r| r.name.as_str()),
        Some("node-1-prov")
    );
}

#[test]
fn claims_of_unknown_hosts_unmanaged_pools_or_other_namespaces_are_left_alone() {
    let elsewhere = capm3_claim("node-1", "prov", &owned_by("md-1"))
        .replace("namespace: lab", "namespace: other");
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        pool("ext"),
        capm3_claim("node-9", "prov", &owned_by("md-9")), // no such host
        capm3_claim("node-1", "mgmt", &owned_by("md-1")), // no such pool
        capm3_claim("node-1", "ext", &owned_by("md-1")),  // a pool left out by `pools`
        elsewhere,                                        // the host and pool are in lab
        bare_claim("md-1-prov", &owned_by("md-1")),       // a legacy {metal3data}-{pool} claim
    ]);
    let config = Config {
        pools: vec![PoolName::parse("prov").expect("a pool name")],
        ..Config::default()
    };
    let out = inp.apply(&config);
    assert_eq!(out.edits, Vec::new());
    assert_eq!(out.findings, Vec::new());
    // With every pool managed, the ext claim is labelled: `pools` is what left it out.
    let all = inp.apply(&Config::default());
    assert_eq!(
        all.edits,
        vec![add(5, &[(DATA_NAME, "md-1"), (POOL_NAME, "ext")])]
    );
}

#[test]
fn hosts_left_out_by_the_host_selector_are_still_known_hosts() {
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &owned_by("md-1")),
    ]);
    let config = Config {
        host_selector: crate::selector::Selector::parse("role=none").expect("a selector"),
        ..Config::default()
    };
    let out = inp.apply(&config);
    assert_eq!(
        out.edits,
        vec![add(2, &[(DATA_NAME, "md-1"), (POOL_NAME, "prov")])]
    );
}

#[test]
fn dashed_names_are_matched_against_the_known_pairs_never_split() {
    // Only host node-1 exists: node-1-bmc-v4 is node-1 with pool bmc-v4, although splitting at
    // the last dash would say pool v4 (which exists too).
    let inp = input(&[
        host("node-1"),
        pool("bmc-v4"),
        pool("v4"),
        bare_claim("node-1-bmc-v4", &owned_by("md-1")),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.findings, Vec::new());
    assert_eq!(
        out.edits,
        vec![add(3, &[(DATA_NAME, "md-1"), (POOL_NAME, "bmc-v4")])]
    );

    // Hosts node-1 and node-1-bmc, pools bmc-v4 and v4: the name fits both pairs.
    let both = |claim: String| {
        input(&[
            host("node-1"),
            host("node-1-bmc"),
            pool("bmc-v4"),
            pool("v4"),
            claim,
        ])
    };
    // spec.pool.name decides.
    let inp = both(claim("node-1-bmc-v4", &owned_by("md-2")).replace("{pool}", "v4"));
    let out = inp.apply(&Config::default());
    assert_eq!(out.findings, Vec::new());
    assert_eq!(
        out.edits,
        vec![add(4, &[(DATA_NAME, "md-2"), (POOL_NAME, "v4")])]
    );
    // Without it, nothing is guessed: a warning naming both pairs.
    let inp = both(bare_claim("node-1-bmc-v4", &owned_by("md-2")));
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, Vec::new());
    let warnings = only(&out.findings, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{:?}", out.findings);
    let m = &warnings[0].message;
    assert!(
        m.contains("host node-1 with pool bmc-v4") && m.contains("host node-1-bmc with pool v4"),
        "{m}"
    );
    // A spec.pool.name that is neither: a warning, nothing written.
    let inp = both(claim("node-1-bmc-v4", &owned_by("md-2")).replace("{pool}", "v6"));
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, Vec::new());
    let warnings = only(&out.findings, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{:?}", out.findings);
    assert_eq!(field(warnings[0]), Some("spec.pool.name"));
}

#[test]
fn metal3data_gets_its_own_name_and_the_first_metal3_pool_of_its_template() {
    let inp = input(&[
        data_template("workers", "prov", "ext"),
        metal3data("workers-3", "workers", ""),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.findings, Vec::new());
    // The in-cluster pool comes first in the template but is not a Metal3 pool.
    assert_eq!(
        out.edits,
        vec![add(1, &[(DATA_NAME, "workers-3"), (POOL_NAME, "prov")])]
    );
    assert_idempotent(&inp, &Config::default());
}

#[test]
fn metal3data_whose_template_is_not_in_the_input_gets_data_name_and_a_warning() {
    let inp = input(&[metal3data("workers-3", "workers", "")]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, vec![add(0, &[(DATA_NAME, "workers-3")])]);
    let warnings = only(&out.findings, Severity::Warning);
    assert_eq!(warnings.len(), 1, "{:?}", out.findings);
    assert!(
        warnings[0]
            .message
            .contains("lab/workers is not in the input"),
        "{}",
        warnings[0].message
    );
    assert_eq!(field(warnings[0]), Some("spec.template.name"));
    // A template of the same name in another namespace is not it.
    let inp = input(&[
        data_template("workers", "prov", "ext").replace("namespace: lab", "namespace: other"),
        metal3data("workers-3", "workers", ""),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, vec![add(1, &[(DATA_NAME, "workers-3")])]);
    assert_eq!(only(&out.findings, Severity::Warning).len(), 1);
}

#[test]
fn a_first_pool_read_from_an_annotation_is_not_guessed() {
    let template = data_template("workers", "prov", "ext").replace(
        "      - id: prov\n        link: eth1\n        ipAddressFromIPPool: prov\n",
        "      - id: prov\n        link: eth1\n        fromPoolAnnotation: {object: baremetalhost, annotation: prov-pool}\n",
    );
    let inp = input(&[template, metal3data("workers-3", "workers", "")]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, vec![add(1, &[(DATA_NAME, "workers-3")])]);
    assert_eq!(
        only(&out.findings, Severity::Warning),
        Vec::<&Finding>::new()
    );
    let infos = only(&out.findings, Severity::Info);
    assert_eq!(infos.len(), 1, "{:?}", out.findings);
    assert!(
        infos[0].message.contains("prov-pool"),
        "{}",
        infos[0].message
    );
}

#[test]
fn a_template_without_metal3_pools_sets_no_pool_name_silently() {
    let template = data_template("workers", "prov", "ext")
        .replace(
            "ipAddressFromIPPool: prov",
            "fromPoolRef: {name: a, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}",
        )
        .replace(
            "ipAddressFromIPPool: ext",
            "fromPoolRef: {name: b, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}",
        );
    let inp = input(&[template, metal3data("workers-3", "workers", "")]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.findings, Vec::new());
    assert_eq!(out.edits, vec![add(1, &[(DATA_NAME, "workers-3")])]);
}

#[test]
fn label_values_over_63_characters_are_errors_naming_object_and_label() {
    let long_pool = format!("pool-{}", "x".repeat(59)); // 64 characters
    let inp = input(&[
        host("node-1"),
        pool(&long_pool),
        capm3_claim("node-1", &long_pool, &owned_by("md-1")),
    ]);
    let out = inp.apply(&Config::default());
    let errors = only(&out.findings, Severity::Error);
    assert_eq!(errors.len(), 1, "{:?}", out.findings);
    assert!(
        errors[0].message.contains("64 characters") && errors[0].message.contains(POOL_NAME),
        "{}",
        errors[0].message
    );
    // The label is not there yet: the error sits where its value comes from, the claim's name.
    assert_eq!(field(errors[0]), Some("metadata.name"));
    assert_eq!(
        errors[0].resource_ref.as_ref().map(|r| r.kind.as_str()),
        Some("IPClaim")
    );

    let long_data = format!("workers-{}", "1".repeat(56)); // 64 characters
    let inp = input(&[
        data_template("workers", "prov", "ext"),
        metal3data(&long_data, "workers", ""),
    ]);
    let out = inp.apply(&Config::default());
    let errors = only(&out.findings, Severity::Error);
    assert_eq!(errors.len(), 1, "{:?}", out.findings);
    assert_eq!(field(errors[0]), Some("metadata.name"));
    assert_eq!(
        errors[0].resource_ref.as_ref().map(|r| r.kind.as_str()),
        Some("Metal3Data")
    );
    // 63 characters are fine.
    let inp = input(&[
        data_template("workers", "prov", "ext"),
        metal3data(&long_data[..63], "workers", ""),
    ]);
    assert_eq!(
        only(&inp.apply(&Config::default()).findings, Severity::Error).len(),
        0
    );
}

#[test]
fn labels_already_right_change_nothing() {
    let labels =
        format!("  labels:\n    app: x\n    {DATA_NAME}: md-1\n    '{POOL_NAME}': \"prov\"\n");
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &format!("{labels}{}", owned_by("md-1"))),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, Vec::new());
    assert_eq!(out.findings, Vec::new());
}

#[test]
fn wrong_values_are_rewritten_with_a_warning() {
    let labels =
        format!("  labels:\n    {DATA_NAME}: 'md-old' # copied by hand\n    {POOL_NAME}: 7\n");
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &format!("{labels}{}", owned_by("md-1"))),
    ]);
    let out = inp.apply(&Config::default());
    let set = |key: &str, value: &str, style| ItemEdit {
        item: crate::model::ItemId(2),
        edit: Edit::SetScalar {
            path: vec![Seg::key("metadata"), Seg::key("labels"), Seg::key(key)],
            value: value.into(),
            style,
        },
    };
    assert_eq!(
        out.edits,
        vec![
            set(DATA_NAME, "md-1", WriteStyle::Keep),
            // A number is not a label value: the string is written quoted.
            set(POOL_NAME, "prov", WriteStyle::DoubleQuoted),
        ]
    );
    let warnings = only(&out.findings, Severity::Warning);
    assert_eq!(warnings.len(), 2, "{:?}", out.findings);
    assert!(
        warnings.iter().any(|w| w.message.contains("was \"md-old\"")
            && field(w) == Some("metadata.labels.[infrastructure.cluster.x-k8s.io/data-name]")),
        "{warnings:?}"
    );
    let text = inp.edited(&out.edits);
    assert!(
        text.contains(&format!(
            "    {DATA_NAME}: 'md-1' # copied by hand\n    {POOL_NAME}: \"prov\"\n"
        )),
        "{text}"
    );
    assert_idempotent(&inp, &Config::default());
}

#[test]
fn a_label_that_is_a_mapping_is_an_error() {
    let labels = format!("  labels:\n    {POOL_NAME}: {{a: b}}\n");
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &format!("{labels}{}", owned_by("md-1"))),
    ]);
    let out = inp.apply(&Config::default());
    let errors = only(&out.findings, Severity::Error);
    assert_eq!(errors.len(), 1, "{:?}", out.findings);
    assert_eq!(
        field(errors[0]),
        Some("metadata.labels.[infrastructure.cluster.x-k8s.io/pool-name]")
    );
}

#[test]
fn missing_null_empty_and_flow_labels_maps_are_filled() {
    for (labels, expect) in [
        (
            "",
            "  labels:\n    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"\n    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"\nspec:",
        ),
        (
            "  labels:\n",
            "  labels:\n    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"\n    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"\nspec:",
        ),
        (
            "  labels: {}\n",
            "  labels:\n    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"\n    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"\nspec:",
        ),
        (
            "  labels: {app: x}\n",
            "  labels: {app: x, infrastructure.cluster.x-k8s.io/data-name: \"workers-3\", infrastructure.cluster.x-k8s.io/pool-name: \"prov\"}\nspec:",
        ),
        (
            "  labels:\n    app: x # mine\n",
            "  labels:\n    app: x # mine\n    infrastructure.cluster.x-k8s.io/data-name: \"workers-3\"\n    infrastructure.cluster.x-k8s.io/pool-name: \"prov\"\nspec:",
        ),
    ] {
        let inp = input(&[
            data_template("workers", "prov", "ext"),
            metal3data("workers-3", "workers", labels),
        ]);
        let out = inp.apply(&Config::default());
        assert_eq!(out.findings, Vec::new(), "{labels:?}");
        let text = inp.edited(&out.edits);
        assert!(text.contains(expect), "{labels:?}:\n{text}");
        assert_idempotent(&inp, &Config::default());
    }
}

#[test]
fn labels_false_changes_nothing() {
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &owned_by("md-1")),
        data_template("workers", "prov", "ext"),
        metal3data("workers-3", "workers", ""),
        metal3data("gone-1", "gone", ""),
    ]);
    let config = Config {
        labels: false,
        ..Config::default()
    };
    let out = inp.apply(&config);
    assert_eq!(out.edits, Vec::new());
    assert_eq!(out.findings, Vec::new());
}

#[test]
fn local_config_objects_are_never_read_or_changed() {
    let local = "  annotations:\n    config.kubernetes.io/local-config: \"true\"\n";
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", local),
        metal3data("workers-3", "workers", local),
    ]);
    let out = inp.apply(&Config::default());
    assert_eq!(out.edits, Vec::new());
    assert_eq!(out.findings, Vec::new());
}

#[test]
fn item_order_does_not_matter() {
    let docs = vec![
        host("node-1"),
        host("node-1-bmc"),
        pool("bmc-v4"),
        pool("v4"),
        capm3_claim("node-1", "v4", &owned_by("md-1")),
        capm3_claim("node-1-bmc", "bmc-v4", ""),
        data_template("workers", "v4", "bmc-v4"),
        metal3data("workers-3", "workers", ""),
        metal3data("other-1", "other", ""),
    ];
    let per_doc = |docs: &[String]| {
        let inp = input(docs);
        let out = inp.apply(&Config::default());
        let mut edits: Vec<(String, Edit)> = out
            .edits
            .into_iter()
            .map(|e| (docs[e.item.0].clone(), e.edit))
            .collect();
        edits.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        let mut findings: Vec<String> = out.findings.iter().map(|f| format!("{f:?}")).collect();
        findings.sort();
        (edits, findings)
    };
    let forward = per_doc(&docs);
    assert_eq!(forward.0.len(), 4, "{:?}", forward.0);
    let mut reversed = docs.clone();
    reversed.reverse();
    assert_eq!(per_doc(&reversed), forward);
    let mut rotated = docs.clone();
    rotated.rotate_left(4);
    assert_eq!(per_doc(&rotated), forward);
}

#[test]
fn check_names_each_label_at_its_own_field() {
    let labels = format!("  labels:\n    {DATA_NAME}: md-old\n");
    let inp = input(&[
        host("node-1"),
        pool("prov"),
        capm3_claim("node-1", "prov", &format!("{labels}{}", owned_by("md-1"))),
    ]);
    let out = inp.apply(&Config::default());
    let findings = out.check.clone();
    let fields: Vec<_> = findings.iter().map(|f| (f.severity, field(f))).collect();
    assert_eq!(
        fields,
        vec![
            (
                Severity::Error,
                Some("metadata.labels.[infrastructure.cluster.x-k8s.io/data-name]")
            ),
            (
                Severity::Error,
                Some("metadata.labels.[infrastructure.cluster.x-k8s.io/pool-name]")
            ),
        ]
    );
    assert!(
        findings[0]
            .message
            .contains("is not up to date: run ipreuse in fill mode")
            && findings[0]
                .message
                .contains("Fill would rewrite infrastructure.cluster.x-k8s.io/data-name"),
        "{}",
        findings[0].message
    );
    assert!(
        findings[1]
            .message
            .contains("Fill would add infrastructure.cluster.x-k8s.io/pool-name"),
        "{}",
        findings[1].message
    );
}
