//! ClusterClass inline patches (issue 25): `ipreuse::topology::patch` as a table.
//!
//! Each file of `tests/data/clusterclass_patches/` holds cases: a template, the part of the
//! topology it belongs to, the class's patches as CAPI spells them, the variables (given, or
//! built from the class's definitions, the Cluster's values and the builtins), and either the
//! patched template or the pieces of the error. The folder's README says where cases come from.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use ipreuse::topology::budget::Budget;
use ipreuse::topology::patch::variables::{
    self, ClusterBuiltins, ControlPlaneBuiltins, Given, MachineDeploymentBuiltins, Network,
    ObjectMeta, PartBuiltins, Variables,
};
use ipreuse::topology::patch::{
    Definition, JsonPatch, MatchResources, Patch, Role, Selector, Target, ValueFrom, apply,
};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    about: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Case {
    name: String,
    /// The upstream test (file and case name) the case is translated from, when it is.
    #[allow(dead_code)]
    #[serde(default)]
    from: Option<String>,
    #[allow(dead_code)]
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    target: Option<CapiTarget>,
    #[serde(default)]
    template: Option<Value>,
    #[serde(default)]
    patches: Vec<CapiPatch>,
    #[serde(default)]
    variables: Option<Value>,
    /// With `variables`: the builtins only known once CAPI creates the objects.
    #[serde(default)]
    unknown: Vec<String>,
    #[serde(default)]
    build: Option<Build>,
    /// The variables object `build` must give.
    #[serde(default)]
    want_variables: Option<Value>,
    /// The unknown builtins `build` must list.
    #[serde(default)]
    want_unknown: Option<Vec<String>>,
    /// The patched template.
    #[serde(default)]
    want: Option<Value>,
    /// Pieces the error's text must hold.
    #[serde(default)]
    error: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiTarget {
    api_version: String,
    kind: String,
    #[serde(default)]
    control_plane: bool,
    #[serde(default)]
    infrastructure_cluster: bool,
    #[serde(default)]
    machine_deployment_class: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiPatch {
    name: String,
    #[serde(default)]
    enabled_if: Option<String>,
    definitions: Vec<CapiDefinition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiDefinition {
    selector: CapiSelector,
    json_patches: Vec<CapiJsonPatch>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiSelector {
    api_version: String,
    kind: String,
    #[serde(default)]
    match_resources: CapiMatch,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiMatch {
    #[serde(default)]
    control_plane: bool,
    #[serde(default)]
    infrastructure_cluster: bool,
    #[serde(default)]
    machine_deployment_class: Option<Names>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Names {
    names: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CapiJsonPatch {
    op: String,
    path: String,
    #[serde(default)]
    value: Option<Value>,
    #[serde(default)]
    value_from: Option<CapiValueFrom>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CapiValueFrom {
    #[serde(default)]
    variable: Option<String>,
    #[serde(default)]
    template: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Build {
    /// The class's variables: `{name, schema: {openAPIV3Schema: ...}}`.
    #[serde(default)]
    definitions: Vec<NamedSchema>,
    /// The Cluster's `spec.topology.variables`.
    #[serde(default)]
    values: Vec<NamedValue>,
    /// The MachineDeployment topology's `variables.overrides`.
    #[serde(default)]
    overrides: Vec<NamedValue>,
    cluster: BuiltCluster,
    #[serde(default)]
    control_plane: Option<BuiltControlPlane>,
    #[serde(default)]
    machine_deployment: Option<BuiltMachineDeployment>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamedSchema {
    name: String,
    schema: Schema,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Schema {
    #[serde(rename = "openAPIV3Schema")]
    open_api_v3_schema: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NamedValue {
    name: String,
    value: Value,
}

/// A builtin name: the value, or `<unknown>` for one CAPI only knows once it creates the object;
/// left out, CAPI leaves it out.
fn given(v: &Option<String>) -> Given<String> {
    match v.as_deref() {
        None => Given::Absent,
        Some("<unknown>") => Given::Unknown,
        Some(s) => Given::Is(s.to_string()),
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Meta {
    #[serde(default)]
    labels: Option<BTreeMap<String, String>>,
    #[serde(default)]
    annotations: Option<BTreeMap<String, String>>,
}

impl Meta {
    fn get(&self) -> ObjectMeta {
        ObjectMeta {
            labels: self.labels.clone(),
            annotations: self.annotations.clone(),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BuiltNetwork {
    #[serde(default)]
    service_domain: String,
    #[serde(default)]
    services: Option<Vec<String>>,
    #[serde(default)]
    pods: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BuiltCluster {
    name: String,
    namespace: String,
    #[serde(default)]
    uid: Option<String>,
    #[serde(default)]
    metadata: Meta,
    version: String,
    class: String,
    /// The class's namespace; the Cluster's when left out.
    #[serde(default)]
    class_namespace: Option<String>,
    #[serde(default)]
    network: BuiltNetwork,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BuiltControlPlane {
    version: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    replicas: Option<i64>,
    /// `<unknown>` for metadata CAPI takes from a template the case does not have.
    #[serde(default)]
    metadata: Option<Value>,
    #[serde(default)]
    infrastructure_ref_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BuiltMachineDeployment {
    version: String,
    class: String,
    #[serde(default)]
    name: Option<String>,
    topology_name: String,
    #[serde(default)]
    replicas: Option<i64>,
    #[serde(default)]
    metadata: Meta,
    #[serde(default)]
    bootstrap_config_name: Option<String>,
    #[serde(default)]
    infrastructure_ref_name: Option<String>,
}

fn target(t: &CapiTarget) -> Result<Target, String> {
    let role = match (
        t.control_plane,
        t.infrastructure_cluster,
        &t.machine_deployment_class,
    ) {
        (true, false, None) => Role::ControlPlane,
        (false, true, None) => Role::InfrastructureCluster,
        (false, false, Some(class)) => Role::MachineDeployment {
            class: class.clone(),
        },
        _ => return Err("a target names exactly one part".into()),
    };
    Ok(Target {
        api_version: t.api_version.clone(),
        kind: t.kind.clone(),
        role,
    })
}

fn patch(p: &CapiPatch) -> Patch {
    Patch {
        name: p.name.clone(),
        enabled_if: p.enabled_if.clone(),
        definitions: p
            .definitions
            .iter()
            .map(|d| Definition {
                selector: Selector {
                    api_version: d.selector.api_version.clone(),
                    kind: d.selector.kind.clone(),
                    match_resources: MatchResources {
                        control_plane: d.selector.match_resources.control_plane,
                        infrastructure_cluster: d.selector.match_resources.infrastructure_cluster,
                        machine_deployment_classes: d
                            .selector
                            .match_resources
                            .machine_deployment_class
                            .as_ref()
                            .map(|n| n.names.clone())
                            .unwrap_or_default(),
                    },
                },
                json_patches: d
                    .json_patches
                    .iter()
                    .map(|j| JsonPatch {
                        op: j.op.clone(),
                        path: j.path.clone(),
                        value: j.value.clone(),
                        value_from: j.value_from.as_ref().map(|v| ValueFrom {
                            variable: v.variable.clone(),
                            template: v.template.clone(),
                        }),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn build(b: &Build) -> Variables {
    let pairs = |l: &[NamedValue]| -> Vec<(String, Value)> {
        l.iter()
            .map(|n| (n.name.clone(), n.value.clone()))
            .collect()
    };
    let definitions: Vec<variables::Definition> = b
        .definitions
        .iter()
        .map(|d| variables::Definition {
            name: d.name.clone(),
            schema: d.schema.open_api_v3_schema.clone(),
        })
        .collect();
    let c = &b.cluster;
    let cluster = ClusterBuiltins {
        name: c.name.clone(),
        namespace: c.namespace.clone(),
        uid: given(&c.uid),
        metadata: c.metadata.get(),
        version: c.version.clone(),
        class: c.class.clone(),
        class_namespace: c.class_namespace.clone().unwrap_or(c.namespace.clone()),
        network: Network {
            service_domain: c.network.service_domain.clone(),
            services: c.network.services.clone(),
            pods: c.network.pods.clone(),
        },
    };
    let part = match (&b.control_plane, &b.machine_deployment) {
        (Some(cp), None) => PartBuiltins::ControlPlane(ControlPlaneBuiltins {
            version: cp.version.clone(),
            metadata: match &cp.metadata {
                None => Given::Absent,
                Some(Value::String(s)) if s == "<unknown>" => Given::Unknown,
                Some(m) => Given::Is(ObjectMeta {
                    labels: serde_json::from_value(m["labels"].clone()).unwrap_or_default(),
                    annotations: serde_json::from_value(m["annotations"].clone())
                        .unwrap_or_default(),
                }),
            },
            name: given(&cp.name),
            replicas: cp.replicas,
            infrastructure_ref_name: given(&cp.infrastructure_ref_name),
        }),
        (None, Some(md)) => PartBuiltins::MachineDeployment(MachineDeploymentBuiltins {
            version: md.version.clone(),
            metadata: md.metadata.get(),
            class: md.class.clone(),
            name: given(&md.name),
            topology_name: md.topology_name.clone(),
            replicas: md.replicas,
            bootstrap_config_name: given(&md.bootstrap_config_name),
            infrastructure_ref_name: given(&md.infrastructure_ref_name),
        }),
        _ => PartBuiltins::Cluster,
    };
    variables::for_template(
        &definitions,
        &pairs(&b.values),
        &pairs(&b.overrides),
        variables::builtin(&cluster, &part),
    )
}

/// One case's failure, or None when it holds.
fn run_case(case: &Case) -> Option<String> {
    let vars = match (&case.variables, &case.build) {
        (Some(v), None) => Variables {
            value: v.clone(),
            unknown: case.unknown.clone(),
        },
        (None, Some(b)) => build(b),
        _ => return Some("a case gives exactly one of variables and build".into()),
    };
    if let Some(want) = &case.want_variables
        && &vars.value != want
    {
        return Some(format!("variables are {}, CAPI gives {want}", vars.value));
    }
    if let Some(want) = &case.want_unknown
        && &vars.unknown != want
    {
        return Some(format!(
            "unknown builtins are {:?}, want {want:?}",
            vars.unknown
        ));
    }
    let (Some(t), Some(template)) = (&case.target, &case.template) else {
        return case
            .want_variables
            .is_none()
            .then(|| "a case without target and template checks wantVariables".into());
    };
    let target = match target(t) {
        Ok(t) => t,
        Err(e) => return Some(e),
    };
    let patches: Vec<Patch> = case.patches.iter().map(patch).collect();
    let mut doc = template.clone();
    let got = apply(&mut doc, &target, &patches, &vars, &mut Budget::default());
    match (&case.want, &case.error, got) {
        (Some(want), None, Ok(_)) => {
            (&doc != want).then(|| format!("patched to {doc}, CAPI gives {want}"))
        }
        (None, Some(pieces), Err(e)) => {
            let message = e.to_string();
            let missing: Vec<&String> = pieces
                .iter()
                .filter(|p| !message.contains(p.as_str()))
                .collect();
            (!missing.is_empty()).then(|| format!("error {message:?} lacks {missing:?}"))
        }
        (Some(_), None, Err(e)) => Some(format!("failed: {e}")),
        (None, Some(pieces), Ok(_)) => {
            Some(format!("patched to {doc}, want an error with {pieces:?}"))
        }
        _ => Some("a case states exactly one of want and error".into()),
    }
}

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/clusterclass_patches");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/data/clusterclass_patches")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    out.sort();
    out
}

fn cases() -> Vec<(String, Case)> {
    let mut out = Vec::new();
    for path in files() {
        let text = std::fs::read_to_string(&path).expect("read");
        let file: File = serde_saphyr::from_str(&text)
            .unwrap_or_else(|e| panic!("{} does not read: {e}", path.display()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.extend(file.cases.into_iter().map(|c| (name.clone(), c)));
    }
    out
}

#[test]
fn every_case_patches_as_capi_does() {
    let all = cases();
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(file, case)| {
            run_case(case).map(|why| format!("{file}: {}: {why}", case.name))
        })
        .collect();
    assert!(
        all.len() >= 30,
        "only {} cases: a file did not load",
        all.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// The runner's own check: a wrong expectation fails it.
#[test]
fn the_runner_catches_a_wrong_result_and_a_missing_error_piece() {
    let all = cases();
    let (_, ok) = all
        .iter()
        .find(|(_, c)| c.want.is_some() && c.target.is_some())
        .expect("a case with a result");
    let wrong = Case {
        name: "wrong".into(),
        from: None,
        why: None,
        target: ok.target.as_ref().map(|t| CapiTarget {
            api_version: t.api_version.clone(),
            kind: t.kind.clone(),
            control_plane: t.control_plane,
            infrastructure_cluster: t.infrastructure_cluster,
            machine_deployment_class: t.machine_deployment_class.clone(),
        }),
        template: ok.template.clone(),
        patches: Vec::new(),
        variables: Some(Value::Object(Default::default())),
        unknown: Vec::new(),
        build: None,
        want_variables: None,
        want_unknown: None,
        want: Some(serde_json::json!({"not": "the template"})),
        error: None,
    };
    assert!(run_case(&wrong).is_some());
    let piece = Case {
        want: None,
        error: Some(vec!["no such words".into()]),
        ..wrong
    };
    assert!(
        run_case(&piece).is_some(),
        "no patches: no error, so the case fails"
    );
}
