//! The mapping on small packages: which pairs each mapping requires, which pools it manages,
//! and every result it gives, with its object and field.

use std::collections::BTreeMap;

use super::{Plan, plan};
use crate::config::{Config, MappingMode, PoolName};
use crate::fixtures;
use crate::model::Model;
use crate::results::{Finding, Severity};
use crate::selector::Selector;
use crate::yaml;

// ---- builders ---------------------------------------------------------------------------------

fn host(name: &str, ns: &str, labels: &[(&str, &str)], annotations: &[(&str, &str)]) -> String {
    let host = labels
        .iter()
        .fold(fixtures::host(name, ns), |h, (k, v)| h.label(k, v));
    annotations
        .iter()
        .fold(host, |h, (k, v)| h.annotation(k, v))
        .yaml()
}

fn pool(name: &str, ns: &str) -> String {
    fixtures::pool(name, ns)
        .range(fixtures::range("10.0.0.10", "10.0.0.20"))
        .prefix(24)
        .yaml()
}

/// A v1beta2 Metal3MachineTemplate; `selector` is the hostSelector's YAML (flow), `data` the
/// data template's name.
fn machine(name: &str, ns: &str, selector: &str, data: Option<&str>) -> String {
    let mut m = fixtures::machine_template(name, ns);
    if !selector.is_empty() {
        m = m.host_selector(selector);
    }
    if let Some(d) = data {
        m = m.data_template(d);
    }
    m.yaml()
}

/// A v1beta2 Metal3DataTemplate whose IPv4 networks take their addresses from `pools` (each an
/// `ipAddressFromIPPool`, or YAML of a network entry when it starts with `{`).
fn data(name: &str, ns: &str, pools: &[&str]) -> String {
    let mut d = fixtures::data_template(name, ns).cluster_name("c");
    for (i, p) in pools.iter().enumerate() {
        d = if p.starts_with('{') {
            d.network_yaml(&format!("- {p}"))
        } else {
            d.network(&format!("n{i}"), &format!("eth{i}"), p)
        };
    }
    d.yaml()
}

fn templates() -> Config {
    Config {
        mapping: MappingMode::Templates,
        ..Config::default()
    }
}

// ---- running ----------------------------------------------------------------------------------

struct Run {
    model: Model,
    plan: Plan,
    findings: Vec<Finding>,
}

fn run(docs: &[String], cfg: &Config) -> Run {
    let text = docs.iter().map(|d| format!("---\n{d}")).collect::<String>();
    let parsed = yaml::parse(&text).expect("test YAML parses");
    let nodes: Vec<&yaml::Node> = parsed.iter().map(|d| &d.root).collect();
    let mut findings = Vec::new();
    let model = Model::of_nodes(&nodes, &mut findings);
    assert!(
        findings.iter().all(|f| !f.is_error()),
        "the test input itself is wrong: {findings:?}"
    );
    let mut findings = Vec::new();
    let plan = plan(
        &model,
        cfg,
        crate::limits::DEFAULT_MAX_CLAIMS,
        &mut findings,
    );
    let run = Run {
        model,
        plan,
        findings,
    };
    // What the labels are handed is the plan's managed pools when the fill is not refused.
    assert_eq!(run.plan.mapped, run.plan.managed);
    run
}

impl Run {
    /// `ns/pool` → the hosts required in it, sorted; every managed pool is a key.
    fn pairs(&self) -> BTreeMap<String, Vec<String>> {
        self.plan
            .managed
            .iter()
            .map(|&p| {
                let pool = &self.model.index.pools[p];
                let mut hosts: Vec<String> = self.plan.required[&p]
                    .iter()
                    .map(|&h| self.model.index.hosts[h].name().to_string())
                    .collect();
                hosts.sort();
                (format!("{}/{}", pool.object.namespace, pool.name()), hosts)
            })
            .collect()
    }

    /// The results of `severity`, each as `Kind name @ field: message`.
    fn of(&self, severity: Severity) -> Vec<String> {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| {
                let object = f
                    .resource_ref
                    .as_ref()
                    .map_or(String::new(), |r| format!("{} {}", r.kind, r.name));
                let field = f.field.as_ref().map_or("", |p| p.path.as_str());
                format!("{object} @ {field}: {}", f.message)
            })
            .collect()
    }

    fn errors(&self) -> Vec<String> {
        self.of(Severity::Error)
    }

    /// Asserts exactly one error, on `object` (`Kind name`) at `field`, saying `says`.
    fn one_error(&self, object: &str, field: &str, says: &[&str]) {
        let errors = self.errors();
        assert_eq!(errors.len(), 1, "{errors:#?}");
        let e = &errors[0];
        assert!(e.starts_with(&format!("{object} @ {field}: ")), "{e}");
        for s in says {
            assert!(e.contains(s), "{e} does not say {s:?}");
        }
    }

    fn infos(&self) -> Vec<String> {
        self.of(Severity::Info)
    }
}

fn pairs(entries: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    entries
        .iter()
        .map(|(p, hs)| (p.to_string(), hs.iter().map(|h| h.to_string()).collect()))
        .collect()
}

/// A cluster in `lab`: control plane (role=cp) and workers (role=worker) in their own pools
/// beside a shared provisioning pool, and a spare host no template selects.
fn cluster() -> Vec<String> {
    vec![
        host("cp-0", "lab", &[("role", "cp")], &[]),
        host(
            "worker-0",
            "lab",
            &[("role", "worker"), ("rack", "r1")],
            &[],
        ),
        host(
            "worker-1",
            "lab",
            &[("role", "worker"), ("rack", "r2")],
            &[],
        ),
        host("spare-0", "lab", &[("role", "spare")], &[]),
        pool("prov", "lab"),
        pool("cp-ext", "lab"),
        pool("worker-ext", "lab"),
        machine("cp", "lab", "{matchLabels: {role: cp}}", Some("cp-data")),
        machine(
            "workers",
            "lab",
            "{matchLabels: {role: worker}}",
            Some("workers-data"),
        ),
        data("cp-data", "lab", &["prov", "cp-ext"]),
        data("workers-data", "lab", &["prov", "worker-ext"]),
    ]
}

// ---- all ----------------------------------------------------------------------------------------

#[test]
fn all_pairs_every_selected_host_with_every_pool_of_its_namespace() {
    let cfg = Config {
        mapping: MappingMode::All,
        ..Config::default()
    };
    let r = run(&cluster(), &cfg);
    let every = &["cp-0", "spare-0", "worker-0", "worker-1"][..];
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/cp-ext", every),
            ("lab/prov", every),
            ("lab/worker-ext", every)
        ])
    );
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(
        r.infos(),
        [
            " @ : namespace \"lab\": mapping all (every selected BareMetalHost with every selected IPPool of the namespace)"
        ]
    );
}

/// More claims than the limit: nothing is planned, but the pools the mapping manages are kept
/// in `mapped`, so that the labels (which are handed them) label the same claims as without
/// the limit.
#[test]
fn over_the_claim_limit_nothing_is_planned_and_the_managed_pools_are_kept_for_the_labels() {
    let cfg = Config {
        mapping: MappingMode::All,
        ..Config::default()
    };
    let within = run(&cluster(), &cfg);
    assert_eq!(within.plan.managed.len(), 3);
    let (text, mut findings) = (cluster(), Vec::new());
    let text = text.iter().map(|d| format!("---\n{d}")).collect::<String>();
    let parsed = yaml::parse(&text).expect("test YAML parses");
    let nodes: Vec<&yaml::Node> = parsed.iter().map(|d| &d.root).collect();
    let model = Model::of_nodes(&nodes, &mut findings);
    let refused = plan(&model, &cfg, 11, &mut findings);
    assert!(refused.managed.is_empty() && refused.required.is_empty());
    assert_eq!(refused.mapped, within.plan.managed);
    let errors: Vec<&Finding> = findings.iter().filter(|f| f.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].message.contains("asks for 12 host-pool claims"),
        "{}",
        errors[0].message
    );
}

// ---- templates ----------------------------------------------------------------------------------

#[test]
fn templates_pair_each_template_s_hosts_with_its_data_template_s_pools() {
    let r = run(&cluster(), &templates());
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/cp-ext", &["cp-0"]),
            ("lab/prov", &["cp-0", "worker-0", "worker-1"]),
            ("lab/worker-ext", &["worker-0", "worker-1"]),
        ])
    );
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    let infos = r.infos();
    assert!(
        infos.contains(&" @ : namespace \"lab\": 1 BareMetalHost(s) that no Metal3MachineTemplate selects get no entries: spare-0".to_string()),
        "{infos:#?}"
    );
    assert!(
        infos
            .iter()
            .any(|i| i.contains("namespace \"lab\": mapping templates (as configured)")),
        "{infos:#?}"
    );
}

#[test]
fn a_host_two_templates_select_needs_the_union_of_their_pools() {
    let mut docs = cluster();
    // A third template for rack r1 only, with a pool of its own.
    docs.push(pool("rack1", "lab"));
    docs.push(machine(
        "rack1",
        "lab",
        "{matchExpressions: [{key: rack, operator: in, values: [r1]}]}",
        Some("rack1-data"),
    ));
    docs.push(data("rack1-data", "lab", &["rack1", "prov"]));
    let r = run(&docs, &templates());
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/cp-ext", &["cp-0"]),
            ("lab/prov", &["cp-0", "worker-0", "worker-1"]),
            ("lab/rack1", &["worker-0"]),
            ("lab/worker-ext", &["worker-0", "worker-1"]),
        ])
    );
}

#[test]
fn unselected_hosts_are_counted_per_namespace_naming_three() {
    let mut docs = vec![
        pool("prov", "lab"),
        machine("workers", "lab", "{matchLabels: {role: worker}}", Some("d")),
        data("d", "lab", &["prov"]),
        // Another namespace, its hosts selected by nobody either.
        host("x-0", "other", &[], &[]),
        machine("none", "other", "{matchLabels: {role: none}}", None),
    ];
    for name in ["spare-10", "spare-2", "spare-1", "spare-3", "spare-4"] {
        docs.push(host(name, "lab", &[], &[]));
    }
    let r = run(&docs, &templates());
    let counts: Vec<String> = r
        .infos()
        .into_iter()
        .filter(|i| i.contains("no Metal3MachineTemplate selects"))
        .collect();
    assert_eq!(
        counts,
        [
            " @ : namespace \"lab\": 5 BareMetalHost(s) that no Metal3MachineTemplate selects get no entries: spare-1, spare-2, spare-3 and 2 more",
            " @ : namespace \"other\": 1 BareMetalHost(s) that no Metal3MachineTemplate selects get no entries: x-0",
        ]
    );
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &[])]));
}

#[test]
fn a_template_without_data_template_selects_its_hosts_but_gives_them_nothing() {
    let docs = vec![
        host("h-0", "lab", &[("role", "worker")], &[]),
        pool("prov", "lab"),
        machine("workers", "lab", "{matchLabels: {role: worker}}", None),
    ];
    let r = run(&docs, &templates());
    assert_eq!(
        r.pairs(),
        pairs(&[]),
        "no template names prov: it is not managed"
    );
    assert!(r.errors().is_empty());
    assert!(
        !r.infos()
            .iter()
            .any(|i| i.contains("no Metal3MachineTemplate selects"))
    );
}

#[test]
fn an_empty_or_missing_selector_takes_every_host_of_its_own_namespace_only() {
    for selector in ["", "{}", "{matchLabels: {}, matchExpressions: []}"] {
        let docs = vec![
            host("a-0", "a", &[], &[]),
            host("a-1", "a", &[("x", "y")], &[]),
            host("b-0", "b", &[], &[]),
            pool("prov", "a"),
            pool("prov", "b"),
            machine("m", "a", selector, Some("d")),
            data("d", "a", &["prov"]),
        ];
        let r = run(&docs, &templates());
        assert_eq!(
            r.pairs(),
            pairs(&[("a/prov", &["a-0", "a-1"])]),
            "{selector:?}"
        );
    }
}

#[test]
fn capm3_selector_operators_decide_the_hosts() {
    let docs = vec![
        host("n-1", "lab", &[("gen", "3"), ("rack", "r1")], &[]),
        host("n-2", "lab", &[("gen", "5"), ("rack", "r2")], &[]),
        host("n-3", "lab", &[("gen", "x"), ("maintenance", "yes")], &[]),
        pool("prov", "lab"),
        machine(
            "m",
            "lab",
            "{matchExpressions: [{key: gen, operator: Gt, values: ['2']}, {key: maintenance, operator: '!', values: []}, {key: rack, operator: NotIn, values: [r2]}]}",
            Some("d"),
        ),
        data("d", "lab", &["prov"]),
    ];
    let r = run(&docs, &templates());
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &["n-1"])]));
}

// ---- auto ---------------------------------------------------------------------------------------

#[test]
fn auto_chooses_per_namespace_and_says_why() {
    let mut docs = cluster();
    docs.extend([
        // "plain": hosts and pools only.
        host("p-0", "plain", &[], &[]),
        pool("p", "plain"),
        // "nodata": a machine template whose data template is not in the input.
        host("n-0", "nodata", &[("role", "worker")], &[]),
        pool("n", "nodata"),
        machine(
            "workers",
            "nodata",
            "{matchLabels: {role: worker}}",
            Some("missing"),
        ),
    ]);
    let r = run(&docs, &Config::default());
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/cp-ext", &["cp-0"]),
            ("lab/prov", &["cp-0", "worker-0", "worker-1"]),
            ("lab/worker-ext", &["worker-0", "worker-1"]),
            ("nodata/n", &["n-0"]),
            ("plain/p", &["p-0"]),
        ])
    );
    assert!(
        r.errors().is_empty(),
        "auto does not use what it leaves: {:?}",
        r.errors()
    );
    let mapping: Vec<String> = r
        .infos()
        .into_iter()
        .filter(|i| i.contains(": mapping "))
        .collect();
    assert_eq!(
        mapping,
        [
            " @ : namespace \"lab\": mapping templates (auto: its Metal3MachineTemplates and their Metal3DataTemplates are in the input). Each selected BareMetalHost gets the Metal3 IPPools of the Metal3DataTemplates of the Metal3MachineTemplates that select it. The machine templates: cp, workers",
            " @ : namespace \"nodata\": mapping all (auto: Metal3MachineTemplate workers names Metal3DataTemplate nodata/missing, which is not in the input): every selected BareMetalHost with every selected IPPool of the namespace",
            " @ : namespace \"plain\": mapping all (every selected BareMetalHost with every selected IPPool of the namespace)",
        ]
    );
}

#[test]
fn auto_with_one_template_found_reports_the_other_s_missing_data_template() {
    let mut docs = cluster();
    docs.push(machine(
        "extra",
        "lab",
        "{matchLabels: {role: spare}}",
        Some("gone"),
    ));
    let r = run(&docs, &Config::default());
    r.one_error(
        "Metal3MachineTemplate extra",
        "spec.template.spec.dataTemplate.name",
        &["Metal3DataTemplate lab/gone is not in the input"],
    );
}

// ---- narrowing by the config ----------------------------------------------------------------------

#[test]
fn the_config_s_host_selector_and_pools_narrow_the_template_pairs() {
    let cfg = Config {
        host_selector: Selector::parse("rack!=r2").expect("selector"),
        pools: vec![
            PoolName::parse("prov").expect("name"),
            PoolName::parse("worker-ext").expect("name"),
        ],
        ..templates()
    };
    let r = run(&cluster(), &cfg);
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/prov", &["cp-0", "worker-0"]),
            ("lab/worker-ext", &["worker-0"])
        ])
    );
    // worker-1 is left out by the config, not by the templates: not counted as unselected.
    assert!(
        r.infos()
            .iter()
            .any(|i| i.ends_with("get no entries: spare-0")),
        "{:#?}",
        r.infos()
    );
}

#[test]
fn a_missing_pool_that_the_config_leaves_out_is_no_error() {
    let docs = vec![
        host("w-0", "lab", &[("role", "worker")], &[]),
        pool("prov", "lab"),
        machine("workers", "lab", "{matchLabels: {role: worker}}", Some("d")),
        data("d", "lab", &["prov", "elsewhere"]),
    ];
    let cfg = Config {
        pools: vec![PoolName::parse("lab/prov").expect("name")],
        ..templates()
    };
    let r = run(&docs, &cfg);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &["w-0"])]));
}

#[test]
fn a_configured_pool_no_template_references_is_a_warning() {
    let mut docs = cluster();
    docs.push(pool("bmc", "lab"));
    let cfg = Config {
        pools: vec![
            PoolName::parse("bmc").expect("name"),
            PoolName::parse("prov").expect("name"),
        ],
        ..templates()
    };
    let r = run(&docs, &cfg);
    assert_eq!(
        r.pairs(),
        pairs(&[("lab/prov", &["cp-0", "worker-0", "worker-1"])])
    );
    let warnings = r.of(Severity::Warning);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0].starts_with(
            " @ spec.pools: IPPool \"bmc\" is not managed: reference it from a Metal3DataTemplate"
        ),
        "{}",
        warnings[0]
    );
}

// ---- annotation pools -----------------------------------------------------------------------------

fn annotated() -> Vec<String> {
    vec![
        host(
            "w-0",
            "lab",
            &[("role", "worker")],
            &[("example.com/pool", "rack-a")],
        ),
        host(
            "w-1",
            "lab",
            &[("role", "worker")],
            &[("example.com/pool", "rack-b")],
        ),
        pool("prov", "lab"),
        pool("rack-a", "lab"),
        pool("rack-b", "lab"),
        machine("workers", "lab", "{matchLabels: {role: worker}}", Some("d")),
        data(
            "d",
            "lab",
            &[
                "prov",
                "{id: ext, link: eth9, fromPoolAnnotation: {object: baremetalhost, annotation: example.com/pool}}",
            ],
        ),
    ]
}

#[test]
fn from_pool_annotation_on_baremetalhost_is_resolved_per_host() {
    let r = run(&annotated(), &templates());
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(
        r.pairs(),
        pairs(&[
            ("lab/prov", &["w-0", "w-1"]),
            ("lab/rack-a", &["w-0"]),
            ("lab/rack-b", &["w-1"])
        ])
    );
}

#[test]
fn a_selected_host_without_the_annotation_is_an_error_naming_host_template_and_field() {
    for annotations in [&[][..], &[("example.com/pool", "")][..]] {
        let mut docs = annotated();
        docs.push(host("w-2", "lab", &[("role", "worker")], annotations));
        let r = run(&docs, &templates());
        r.one_error(
            "BareMetalHost w-2",
            "metadata.annotations.[example.com/pool]",
            &[
                "annotation \"example.com/pool\" is missing or empty",
                "Metal3DataTemplate lab/d",
                "spec.networkData.networks.ipv4[1].fromPoolAnnotation",
                "Metal3MachineTemplate lab/workers",
            ],
        );
    }
}

#[test]
fn an_annotation_naming_a_missing_pool_is_an_error_on_the_host() {
    let mut docs = annotated();
    docs.push(host(
        "w-2",
        "lab",
        &[("role", "worker")],
        &[("example.com/pool", "rack-z")],
    ));
    let r = run(&docs, &templates());
    r.one_error(
        "BareMetalHost w-2",
        "metadata.annotations.[example.com/pool]",
        &[
            "an IPPool that is not in the input",
            "The IPPool is lab/rack-z",
        ],
    );
    // Unless the config leaves the pool out.
    let cfg = Config {
        pools: vec![PoolName::parse("prov").expect("name")],
        ..templates()
    };
    let r = run(&docs, &cfg);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    // The pool it manages is still paired with every worker, w-2 too.
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &["w-0", "w-1", "w-2"])]));
}

#[test]
fn an_annotation_naming_a_pool_of_another_kind_is_an_error() {
    let docs = vec![
        host("w-0", "lab", &[("role", "worker")], &[("pool", "capi")]),
        pool("capi", "lab"),
        machine("workers", "lab", "{}", Some("d")),
        data(
            "d",
            "lab",
            &[
                "{id: a, link: eth0, fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}",
                "{id: b, link: eth1, fromPoolAnnotation: {object: baremetalhost, annotation: pool}}",
            ],
        ),
    ];
    let r = run(&docs, &templates());
    r.one_error(
        "BareMetalHost w-0",
        "metadata.annotations.pool",
        &["two kinds"],
    );
}

// ---- what cannot be resolved offline ----------------------------------------------------------------

#[test]
fn unresolvable_references_are_errors_naming_template_and_field() {
    // (extra documents beside a host and pool prov in lab, object, field, words)
    let cases: Vec<(Vec<String>, &str, &str, &[&str])> = vec![
        (
            vec![machine("m", "lab", "{}", Some("gone"))],
            "Metal3MachineTemplate m",
            "spec.template.spec.dataTemplate.name",
            &["Metal3DataTemplate lab/gone is not in the input"],
        ),
        (
            vec![machine("m", "lab", "{}", Some("d")), data("d", "lab", &["prov", "absent"])],
            "Metal3DataTemplate d",
            "spec.networkData.networks.ipv4[1].ipAddressFromIPPool",
            &["IPPool lab/absent", "Metal3MachineTemplate lab/m", "not in the input"],
        ),
        (
            vec![
                machine("m", "lab", "{}", Some("d")),
                data("d", "lab", &["{id: a, link: e, fromPoolAnnotation: {object: machine, annotation: x}}"]),
            ],
            "Metal3DataTemplate d",
            "spec.networkData.networks.ipv4[0].fromPoolAnnotation.object",
            &["annotation \"x\" of each machine", "only exists in the running cluster", "Metal3MachineTemplate lab/m"],
        ),
        (
            vec![
                machine("m", "lab", "{}", Some("d")),
                data("d", "lab", &["{id: a, link: e, fromPoolAnnotation: {object: Metal3Machine, annotation: x}}"]),
            ],
            "Metal3DataTemplate d",
            "spec.networkData.networks.ipv4[0].fromPoolAnnotation.object",
            &["each Metal3Machine", "object: baremetalhost"],
        ),
        (
            vec![
                machine("m", "lab", "{}", Some("d")),
                data("d", "lab", &["{id: a, link: e, fromPoolAnnotation: {object: node, annotation: x}}"]),
            ],
            "Metal3DataTemplate d",
            "spec.networkData.networks.ipv4[0].fromPoolAnnotation.object",
            &["This is \"node\", so CAPM3 fails"],
        ),
        (
            vec![
                "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\nkind: Metal3MachineTemplate\nmetadata:\n  name: m\n  namespace: lab\nspec:\n  template:\n    spec:\n      dataTemplate: {name: d, namespace: infra}\n".to_string(),
                data("d", "infra", &["prov"]),
            ],
            "Metal3MachineTemplate m",
            "spec.template.spec.dataTemplate.namespace",
            &["\"infra\"", "IP claims"],
        ),
        (
            vec![
                machine("m", "lab", "{matchExpressions: [{key: role, operator: DoesNotExist, values: []}]}", Some("d")),
                data("d", "lab", &["prov"]),
            ],
            "Metal3MachineTemplate m",
            "spec.template.spec.hostSelector.matchExpressions[0].operator",
            &["\"!\""],
        ),
        (
            vec![
                machine("m", "lab", "{}", Some("d")),
                data("d", "lab", &["p", "{id: b, link: e, fromPoolRef: {name: p, kind: InClusterIPPool, apiGroup: ipam.cluster.x-k8s.io}}"]),
            ],
            "Metal3DataTemplate d",
            "spec.networkData.networks.ipv4[1].fromPoolRef.name",
            &["two kinds"],
        ),
    ];
    for (extra, object, field, says) in cases {
        let mut docs = vec![host("h-0", "lab", &[], &[]), pool("prov", "lab")];
        docs.extend(extra);
        // auto maps the namespace by templates when the data template is in the input; a
        // missing one makes it `all` (auto_chooses_per_namespace_and_says_why).
        let configs = if object == "Metal3MachineTemplate m" && field.ends_with(".name") {
            vec![templates()]
        } else {
            vec![templates(), Config::default()]
        };
        for cfg in configs {
            let r = run(&docs, &cfg);
            let errors = r.errors();
            // The unreadable data template's own error comes with the template's.
            let want = if says == ["two kinds"] { 2 } else { 1 };
            assert_eq!(
                errors.len(),
                want,
                "{object} {field} ({:?}): {errors:#?}",
                cfg.mapping
            );
            let e = errors
                .iter()
                .find(|e| e.starts_with(&format!("{object} @ {field}: ")))
                .unwrap_or_else(|| panic!("no error on {object} at {field}: {errors:#?}"));
            for s in says {
                assert!(e.contains(s), "{e} does not say {s:?}");
            }
        }
    }
}

#[test]
fn other_pool_kinds_are_an_info_once_per_data_template_field() {
    let docs = vec![
        host("a-0", "lab", &[("role", "a")], &[]),
        host("b-0", "lab", &[("role", "b")], &[]),
        pool("prov", "lab"),
        machine("a", "lab", "{matchLabels: {role: a}}", Some("d")),
        machine("b", "lab", "{matchLabels: {role: b}}", Some("d")),
        data(
            "d",
            "lab",
            &[
                "prov",
                "{id: c, link: e, fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}",
            ],
        ),
    ];
    let r = run(&docs, &templates());
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    let about: Vec<String> = r
        .infos()
        .into_iter()
        .filter(|i| i.contains("capi"))
        .collect();
    assert_eq!(about.len(), 1, "{about:#?}");
    assert!(
        about[0].starts_with(
            "Metal3DataTemplate d @ spec.networkData.networks.ipv4[1].fromPoolRef.name: "
        ),
        "{}",
        about[0]
    );
    assert!(
        about[0].contains("ipam.cluster.x-k8s.io/InClusterIPPool"),
        "{}",
        about[0]
    );
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &["a-0", "b-0"])]));
}

#[test]
fn an_unreadable_data_template_is_an_error_on_the_machine_template_too() {
    let docs = vec![
        host("h-0", "lab", &[], &[]),
        pool("prov", "lab"),
        machine("m", "lab", "{}", Some("d")),
        data("d", "lab", &["'${POOL}'"]),
    ];
    let r = run(&docs, &Config::default());
    r.one_error(
        "Metal3MachineTemplate m",
        "spec.template.spec.dataTemplate.name",
        &["cannot be read"],
    );
    assert!(
        r.of(Severity::Warning).iter().any(|w| w.starts_with(
            "Metal3DataTemplate d @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool"
        )),
        "{:#?}",
        r.of(Severity::Warning)
    );
}

#[test]
fn a_referenced_pool_with_an_unrendered_field_is_an_error_when_hosts_need_it() {
    let docs = vec![
        host("h-0", "lab", &[], &[]),
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n  name: prov\n  namespace: lab\nspec:\n  namePrefix: prov\n  pools:\n  - start: ${START}\n".to_string(),
        machine("m", "lab", "{}", Some("d")),
        data("d", "lab", &["prov"]),
    ];
    let r = run(&docs, &templates());
    r.one_error(
        "IPPool prov",
        "spec.pools[0].start",
        &["needed by 1 host(s)"],
    );
}

#[test]
fn templates_configured_in_a_namespace_without_templates_map_nothing() {
    let docs = vec![host("h-0", "lab", &[], &[]), pool("prov", "lab")];
    let r = run(&docs, &templates());
    assert_eq!(r.pairs(), pairs(&[]));
    assert!(r.errors().is_empty());
    assert!(
        r.infos().iter().any(|i| i.ends_with("get no entries: h-0")),
        "{:#?}",
        r.infos()
    );
}

#[test]
fn a_skipped_machine_template_is_a_warning_and_maps_nothing() {
    let docs = vec![
        host("h-0", "lab", &[], &[]),
        pool("prov", "lab"),
        machine("m", "lab", "{}", Some("'${CLUSTER}-data'")),
        data("d", "lab", &["prov"]),
    ];
    // auto: the template cannot say which data template it uses: all.
    let r = run(&docs, &Config::default());
    assert_eq!(r.pairs(), pairs(&[("lab/prov", &["h-0"])]));
    // templates: the warning is given, the host is unselected.
    let r = run(&docs, &templates());
    assert_eq!(r.pairs(), pairs(&[]));
    assert!(
        r.of(Severity::Warning).iter().any(
            |w| w.starts_with("Metal3MachineTemplate m @ spec.template.spec.dataTemplate.name")
        ),
        "{:#?}",
        r.of(Severity::Warning)
    );
}
