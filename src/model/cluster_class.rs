//! Cluster API `ClusterClass` (`cluster.x-k8s.io`, v1beta1 and v1beta2), as far as the
//! Metal3MachineTemplates of the Clusters it stamps depend on it (SPEC §11, FACTS §7): the
//! templates it names for the control plane and for each MachineDeployment class, its variables
//! (name and schema, for defaults), and its patches, read into the patch engine's types
//! ([`crate::topology::patch`]).
//!
//! The templates are named by `spec.controlPlane.machineInfrastructure.ref` and
//! `spec.workers.machineDeployments[].template.infrastructure.ref` (v1beta1), and
//! `spec.controlPlane.machineInfrastructure.templateRef` and
//! `spec.workers.machineDeployments[].infrastructure.templateRef` (v1beta2); both spellings are
//! read in either version. A reference's namespace is the class's (CAPI keeps a class's
//! templates beside it). MachinePools are not read: CAPM3 has no machine pool template.
//!
//! Values of another shape than CAPI allows are read as absent: the API server refuses such a
//! class, so it stamps no Cluster. An `external` patch (a Runtime Extension) is kept as such:
//! what it does is only known at run time, so a Cluster of the class cannot be evaluated.

use super::Object;
use super::cluster::object_meta;
use super::view::View;
use crate::topology::patch::variables::ObjectMeta;
use crate::topology::patch::{
    Definition, JsonPatch, MatchResources, Patch, Selector, ValueFrom, variables,
};

/// The kind of the templates the mapping reads.
pub const MACHINE_TEMPLATE: &str = "Metal3MachineTemplate";

/// A template the class names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRef {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    /// The field of its name: `spec.controlPlane.machineInfrastructure.ref.name`, ...
    pub field: String,
}

impl TemplateRef {
    /// Whether it names a CAPM3 Metal3MachineTemplate (any version; no `apiVersion` is taken
    /// to be one).
    pub fn is_metal3(&self) -> bool {
        self.kind == MACHINE_TEMPLATE
            && (self.api_version.is_empty()
                || super::group_of(&self.api_version) == super::CAPM3_GROUP)
    }
}

/// One of `spec.workers.machineDeployments[]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineDeploymentClass {
    /// `class`.
    pub class: String,
    /// Its infrastructure template.
    pub template: Option<TemplateRef>,
    /// The metadata of its MachineDeployments (v1beta1 `template.metadata`, v1beta2
    /// `metadata`).
    pub metadata: ObjectMeta,
}

/// A patch the function cannot evaluate offline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// `spec.patches[i].name`, as written (empty when missing).
    pub name: String,
    /// `spec.patches[i].external`.
    pub field: String,
}

/// A ClusterClass as the function reads it.
#[derive(Debug, Clone)]
pub struct ClusterClass {
    pub object: Object,
    /// `spec.controlPlane.machineInfrastructure`'s template.
    pub control_plane: Option<TemplateRef>,
    /// The control plane's own template (`spec.controlPlane.ref`, v1beta2 `templateRef`).
    pub control_plane_template: Option<TemplateRef>,
    /// `spec.controlPlane.metadata`.
    pub control_plane_metadata: ObjectMeta,
    pub machine_deployments: Vec<MachineDeploymentClass>,
    /// `spec.variables`: each name with its `schema.openAPIV3Schema`.
    pub variables: Vec<variables::Definition>,
    /// `spec.patches`, in order (an external one with no definitions: see `external`), so that
    /// a patch's position is its index in the class.
    pub patches: Vec<Patch>,
    /// The external patches.
    pub external: Vec<External>,
}

impl ClusterClass {
    /// Reads a class. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>) -> ClusterClass {
        let (patches, external) = patches(value);
        ClusterClass {
            object: object.clone(),
            control_plane: control_plane(value),
            control_plane_template: value
                .at(&["spec", "controlPlane"])
                .and_then(|cp| either(cp, "spec.controlPlane", &["ref"], &["templateRef"])),
            control_plane_metadata: object_meta(value.at(&["spec", "controlPlane", "metadata"])),
            machine_deployments: machine_deployments(object, value),
            variables: variable_definitions(value),
            patches,
            external,
        }
    }

    /// The Metal3MachineTemplates it names (in its namespace), with the field that names each,
    /// in the order written.
    pub fn templates(&self) -> impl Iterator<Item = &TemplateRef> {
        let workers = self
            .machine_deployments
            .iter()
            .filter_map(|m| m.template.as_ref());
        self.control_plane
            .iter()
            .chain(workers)
            .filter(|t| t.is_metal3())
    }

    /// The class of MachineDeployment class `class`.
    pub fn machine_deployment(&self, class: &str) -> Option<&MachineDeploymentClass> {
        self.machine_deployments.iter().find(|m| m.class == class)
    }
}

fn text(v: Option<View<'_>>) -> String {
    v.and_then(View::as_str).unwrap_or_default().to_string()
}

/// A template reference at `r`, whose field is `field`.
fn template_ref(r: Option<View<'_>>, field: String) -> Option<TemplateRef> {
    let r = r?;
    let name = r.get("name").and_then(View::as_str)?;
    Some(TemplateRef {
        api_version: text(r.get("apiVersion")),
        kind: text(r.get("kind")),
        name: name.to_string(),
        field: format!("{field}.name"),
    })
}

/// The first of the two spellings of a reference that is written.
fn either(value: View<'_>, base: &str, v1beta1: &[&str], v1beta2: &[&str]) -> Option<TemplateRef> {
    let field = |path: &[&str]| format!("{base}.{}", path.join("."));
    template_ref(value.at(v1beta1), field(v1beta1))
        .or_else(|| template_ref(value.at(v1beta2), field(v1beta2)))
}

fn control_plane(value: View<'_>) -> Option<TemplateRef> {
    let cp = value.at(&["spec", "controlPlane", "machineInfrastructure"])?;
    either(
        cp,
        "spec.controlPlane.machineInfrastructure",
        &["ref"],
        &["templateRef"],
    )
}

fn machine_deployments(object: &Object, value: View<'_>) -> Vec<MachineDeploymentClass> {
    let v1beta1 = object.api_version.ends_with("/v1beta1");
    let Some(items) = value
        .at(&["spec", "workers", "machineDeployments"])
        .and_then(View::as_seq)
    else {
        return Vec::new();
    };
    items
        .enumerate()
        .filter_map(|(i, item)| {
            let class = item.get("class").and_then(View::as_str)?;
            Some(MachineDeploymentClass {
                class: class.to_string(),
                template: either(
                    item,
                    &format!("spec.workers.machineDeployments[{i}]"),
                    &["template", "infrastructure", "ref"],
                    &["infrastructure", "templateRef"],
                ),
                metadata: object_meta(if v1beta1 {
                    item.at(&["template", "metadata"])
                } else {
                    item.get("metadata")
                }),
            })
        })
        .collect()
}

fn variable_definitions(value: View<'_>) -> Vec<variables::Definition> {
    let Some(items) = value.at(&["spec", "variables"]).and_then(View::as_seq) else {
        return Vec::new();
    };
    items
        .filter_map(|v| {
            let name = v.get("name").and_then(View::as_str)?;
            let schema = v
                .at(&["schema", "openAPIV3Schema"])
                .map_or(serde_json::Value::Null, View::to_value);
            Some(variables::Definition {
                name: name.to_string(),
                schema,
            })
        })
        .collect()
}

/// The patches, in order, and the external ones.
fn patches(value: View<'_>) -> (Vec<Patch>, Vec<External>) {
    let mut out = Vec::new();
    let mut external = Vec::new();
    let Some(patches) = value.at(&["spec", "patches"]).and_then(View::as_seq) else {
        return (out, external);
    };
    for (i, p) in patches.enumerate() {
        let name = text(p.get("name"));
        if p.get("external").is_some_and(|e| !e.is_null()) {
            external.push(External {
                name: name.clone(),
                field: format!("spec.patches[{i}].external"),
            });
        }
        let definitions = p
            .get("definitions")
            .and_then(View::as_seq)
            .map(|defs| defs.map(definition).collect())
            .unwrap_or_default();
        out.push(Patch {
            name,
            enabled_if: p
                .get("enabledIf")
                .and_then(View::as_str)
                .map(str::to_string),
            definitions,
        });
    }
    (out, external)
}

fn definition(d: View<'_>) -> Definition {
    let selector = d.get("selector");
    let at = |path: &[&str]| selector.and_then(|s| s.at(path));
    let names = at(&["matchResources", "machineDeploymentClass", "names"])
        .and_then(View::as_seq)
        .map(|names| names.filter_map(View::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let flag = |key: &str| {
        at(&["matchResources", key])
            .and_then(View::as_bool)
            .unwrap_or(false)
    };
    Definition {
        selector: Selector {
            api_version: text(at(&["apiVersion"])),
            kind: text(at(&["kind"])),
            match_resources: MatchResources {
                control_plane: flag("controlPlane"),
                infrastructure_cluster: flag("infrastructureCluster"),
                machine_deployment_classes: names,
            },
        },
        json_patches: d
            .get("jsonPatches")
            .and_then(View::as_seq)
            .map(|ops| ops.map(json_patch).collect())
            .unwrap_or_default(),
    }
}

fn json_patch(op: View<'_>) -> JsonPatch {
    let from = op.get("valueFrom").filter(|v| v.is_object());
    JsonPatch {
        op: text(op.get("op")),
        path: text(op.get("path")),
        value: op.get("value").map(View::to_value),
        value_from: from.map(|f| ValueFrom {
            variable: f.get("variable").and_then(View::as_str).map(str::to_string),
            template: f.get("template").and_then(View::as_str).map(str::to_string),
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn class(spec: Value) -> ClusterClass {
        let v = json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "ClusterClass",
                       "metadata": {"name": "cc", "namespace": "m"}, "spec": spec});
        // JSON is YAML: the class as the model reads it, from its parsed tree
        let doc = crate::model::view::node_of(&v);
        let o = Object::read(crate::model::ItemId(0), View::new(&doc)).expect("an object");
        ClusterClass::read(&o, View::new(&doc))
    }

    #[test]
    fn the_templates_of_both_versions_are_read_by_kind() {
        let m3 = |name: &str| json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3MachineTemplate", "name": name});
        let c = class(json!({
            "controlPlane": {"machineInfrastructure": {"ref": m3("cp")}},
            "infrastructure": {"ref": {"kind": "Metal3ClusterTemplate", "name": "cluster"}},
            "workers": {"machineDeployments": [
                {"class": "a", "template": {"infrastructure": {"ref": m3("md-a")}}},
                {"class": "b", "infrastructure": {"templateRef": m3("md-b")}},
                {"class": "c", "template": {"infrastructure": {"ref": {"kind": "DockerMachineTemplate", "name": "d"}}}},
            ]},
        }));
        let names: Vec<(&str, &str)> = c
            .templates()
            .map(|t| (t.name.as_str(), t.field.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("cp", "spec.controlPlane.machineInfrastructure.ref.name"),
                (
                    "md-a",
                    "spec.workers.machineDeployments[0].template.infrastructure.ref.name"
                ),
                (
                    "md-b",
                    "spec.workers.machineDeployments[1].infrastructure.templateRef.name"
                ),
            ]
        );
        assert_eq!(
            c.machine_deployment("c")
                .and_then(|m| m.template.clone())
                .map(|t| t.kind),
            Some("DockerMachineTemplate".to_string())
        );
    }

    #[test]
    fn patches_keep_their_positions_and_external_ones_are_named() {
        let c = class(json!({
            "variables": [{"name": "dt", "required": true,
                           "schema": {"openAPIV3Schema": {"type": "string", "default": "d"}}}],
            "patches": [
            {"name": "ext", "external": {"generateExtension": "gen.ext"}},
            {"name": "dt", "enabledIf": "{{ .on }}", "definitions": [{"selector": {
                "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3MachineTemplate",
                "matchResources": {"controlPlane": true, "machineDeploymentClass": {"names": ["md-*"]}}},
                "jsonPatches": [
                    {"op": "replace", "path": "/spec/template/spec/dataTemplate/name",
                     "valueFrom": {"variable": "dt"}},
                    {"op": "add", "path": "/spec/template/spec/image", "value": {"url": "u"}},
                ]}]},
        ]}));
        assert_eq!(
            c.external,
            [External {
                name: "ext".into(),
                field: "spec.patches[0].external".into()
            }]
        );
        assert_eq!(c.patches.len(), 2);
        assert!(c.patches[0].definitions.is_empty());
        let p = &c.patches[1];
        assert_eq!(p.enabled_if.as_deref(), Some("{{ .on }}"));
        let d = &p.definitions[0];
        assert_eq!(d.selector.kind, "Metal3MachineTemplate");
        assert!(d.selector.match_resources.control_plane);
        assert!(!d.selector.match_resources.infrastructure_cluster);
        assert_eq!(
            d.selector.match_resources.machine_deployment_classes,
            ["md-*"]
        );
        assert_eq!(
            d.json_patches[0].value_from,
            Some(ValueFrom {
                variable: Some("dt".into()),
                template: None
            })
        );
        assert_eq!(d.json_patches[1].value, Some(json!({"url": "u"})));
        assert_eq!(c.variables[0].name, "dt");
        assert_eq!(c.variables[0].schema["default"], json!("d"));
    }
}
