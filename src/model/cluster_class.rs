//! Cluster API `ClusterClass` (`cluster.x-k8s.io`, v1beta1 and v1beta2), as far as the
//! Metal3MachineTemplates of the Clusters it stamps depend on it (SPEC §11, FACTS §7): the
//! templates it names for the control plane and for each MachineDeployment class, its variables
//! (name and schema, for defaults), and its patches, read into the patch engine's types
//! ([`crate::topology::patch`]).
//!
//! The templates are named by `spec.controlPlane.machineInfrastructure.ref` and
//! `spec.workers.machineDeployments[].template.infrastructure.ref` (v1beta1), and
//! `spec.controlPlane.machineInfrastructure.templateRef` and
//! `spec.workers.machineDeployments[].infrastructure.templateRef` (v1beta2); each version's own
//! spelling only is read, the other's is a warning (the API server drops it). A reference's
//! namespace is the class's (CAPI keeps a class's templates beside it). MachinePools are not
//! read: CAPM3 has no machine pool template.
//!
//! A field the mapping depends on with another shape than CAPI's type (`names: 7`, a reference
//! that is a list) is an error naming it ([`super::shape`]): the API server refuses such a
//! class. An `external` patch (a Runtime Extension) is kept as such: what it does is only known
//! at run time, so a Cluster of the class cannot be evaluated.

use super::Object;
use super::shape::{Fields, is_v1beta2};
use super::view::View;
use crate::results::Finding;
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
    /// Reads a class, each field as its version spells it, with an error in `findings` for a
    /// field of a shape the API server refuses and a warning for one spelled as the other
    /// version spells it. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        value: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> ClusterClass {
        let mut f = Fields { object, findings };
        let f = &mut f;
        let v1beta2 = is_v1beta2(object);
        let spec = f.object(value.get("spec"), "spec");
        let cp = f.object(
            spec.and_then(|s| s.get("controlPlane")),
            "spec.controlPlane",
        );
        let control_plane_template = reference(f, cp, "spec.controlPlane", v1beta2);
        let control_plane_metadata = f.meta(
            cp.and_then(|c| c.get("metadata")),
            "spec.controlPlane.metadata",
        );
        let mi = f.object(
            cp.and_then(|c| c.get("machineInfrastructure")),
            "spec.controlPlane.machineInfrastructure",
        );
        let control_plane = reference(f, mi, "spec.controlPlane.machineInfrastructure", v1beta2);
        let (patches, external) = patches(f, spec);
        ClusterClass {
            object: object.clone(),
            control_plane,
            control_plane_template,
            control_plane_metadata,
            machine_deployments: machine_deployments(f, spec, v1beta2),
            variables: variable_definitions(f, spec),
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

/// A template reference `{apiVersion, kind, name}` at `field`.
fn template_ref(f: &mut Fields<'_, '_>, r: Option<View<'_>>, field: &str) -> Option<TemplateRef> {
    let r = f.object(r, field)?;
    let api_version = f.string(r.get("apiVersion"), &format!("{field}.apiVersion"));
    let kind = f.string(r.get("kind"), &format!("{field}.kind"));
    let name = f.string(r.get("name"), &format!("{field}.name"))?;
    Some(TemplateRef {
        api_version: api_version.unwrap_or_default().to_string(),
        kind: kind.unwrap_or_default().to_string(),
        name: name.to_string(),
        field: format!("{field}.name"),
    })
}

/// The template `holder` (at `base`) references as its version spells it: v1beta1 `ref`,
/// v1beta2 `templateRef`; the other spelling is a warning, never read.
fn reference(
    f: &mut Fields<'_, '_>,
    holder: Option<View<'_>>,
    base: &str,
    v1beta2: bool,
) -> Option<TemplateRef> {
    let (right, wrong) = if v1beta2 {
        ("templateRef", "ref")
    } else {
        ("ref", "templateRef")
    };
    f.other_spelling(
        holder.and_then(|h| h.get(wrong)),
        &format!("{base}.{wrong}"),
        &format!("{base}.{right}"),
    );
    template_ref(
        f,
        holder.and_then(|h| h.get(right)),
        &format!("{base}.{right}"),
    )
}

fn machine_deployments(
    f: &mut Fields<'_, '_>,
    spec: Option<View<'_>>,
    v1beta2: bool,
) -> Vec<MachineDeploymentClass> {
    let workers = f.object(spec.and_then(|s| s.get("workers")), "spec.workers");
    let field = "spec.workers.machineDeployments";
    let items = f.objects(workers.and_then(|w| w.get("machineDeployments")), field);
    let mut out = Vec::new();
    for (i, item) in items {
        let at = format!("{field}[{i}]");
        let class = f.string(item.get("class"), &format!("{at}.class"));
        // v1beta1: template.{metadata, infrastructure.ref}; v1beta2: metadata,
        // infrastructure.templateRef
        let (template, metadata) = if v1beta2 {
            let t = item.get("template");
            f.other_spelling(
                t.and_then(|t| t.at(&["infrastructure", "ref"])),
                &format!("{at}.template.infrastructure.ref"),
                &format!("{at}.infrastructure.templateRef"),
            );
            f.other_spelling(
                t.and_then(|t| t.get("metadata")),
                &format!("{at}.template.metadata"),
                &format!("{at}.metadata"),
            );
            let infra = f.object(item.get("infrastructure"), &format!("{at}.infrastructure"));
            (
                reference(f, infra, &format!("{at}.infrastructure"), true),
                f.meta(item.get("metadata"), &format!("{at}.metadata")),
            )
        } else {
            f.other_spelling(
                item.at(&["infrastructure", "templateRef"]),
                &format!("{at}.infrastructure.templateRef"),
                &format!("{at}.template.infrastructure.ref"),
            );
            f.other_spelling(
                item.get("metadata"),
                &format!("{at}.metadata"),
                &format!("{at}.template.metadata"),
            );
            let t = f.object(item.get("template"), &format!("{at}.template"));
            let infra = f.object(
                t.and_then(|t| t.get("infrastructure")),
                &format!("{at}.template.infrastructure"),
            );
            (
                reference(f, infra, &format!("{at}.template.infrastructure"), false),
                f.meta(
                    t.and_then(|t| t.get("metadata")),
                    &format!("{at}.template.metadata"),
                ),
            )
        };
        let Some(class) = class else { continue };
        out.push(MachineDeploymentClass {
            class: class.to_string(),
            template,
            metadata,
        });
    }
    out
}

fn variable_definitions(
    f: &mut Fields<'_, '_>,
    spec: Option<View<'_>>,
) -> Vec<variables::Definition> {
    let field = "spec.variables";
    let items = f.objects(spec.and_then(|s| s.get("variables")), field);
    let mut out = Vec::new();
    for (i, v) in items {
        let at = format!("{field}[{i}]");
        let name = f.string(v.get("name"), &format!("{at}.name"));
        let schema = f.object(v.get("schema"), &format!("{at}.schema"));
        let schema = f
            .object(
                schema.and_then(|s| s.get("openAPIV3Schema")),
                &format!("{at}.schema.openAPIV3Schema"),
            )
            .map_or(serde_json::Value::Null, View::to_value);
        if let Some(name) = name {
            out.push(variables::Definition {
                name: name.to_string(),
                schema,
            });
        }
    }
    out
}

/// The patches, in order, and the external ones.
fn patches(f: &mut Fields<'_, '_>, spec: Option<View<'_>>) -> (Vec<Patch>, Vec<External>) {
    let mut out = Vec::new();
    let mut external = Vec::new();
    let field = "spec.patches";
    let Some(items) = f.list(spec.and_then(|s| s.get("patches")), field) else {
        return (out, external);
    };
    for (i, p) in items.into_iter().enumerate() {
        let at = format!("{field}[{i}]");
        // a patch that is no mapping keeps its place, with nothing in it
        let p = f.object(Some(p), &at);
        let get = |key: &str| p.and_then(|p| p.get(key));
        let name = f
            .string(get("name"), &format!("{at}.name"))
            .unwrap_or_default()
            .to_string();
        if f.object(get("external"), &format!("{at}.external"))
            .is_some()
        {
            external.push(External {
                name: name.clone(),
                field: format!("{at}.external"),
            });
        }
        let definitions = f
            .objects(get("definitions"), &format!("{at}.definitions"))
            .into_iter()
            .map(|(j, d)| definition(f, d, &format!("{at}.definitions[{j}]")))
            .collect();
        out.push(Patch {
            name,
            enabled_if: f
                .string(get("enabledIf"), &format!("{at}.enabledIf"))
                .map(str::to_string),
            definitions,
        });
    }
    (out, external)
}

fn definition(f: &mut Fields<'_, '_>, d: View<'_>, at: &str) -> Definition {
    let s_at = format!("{at}.selector");
    let selector = f.object(d.get("selector"), &s_at);
    let get = |key: &str| selector.and_then(|s| s.get(key));
    let m_at = format!("{s_at}.matchResources");
    let m = f.object(get("matchResources"), &m_at);
    let m_get = |key: &str| m.and_then(|m| m.get(key));
    let md_at = format!("{m_at}.machineDeploymentClass");
    let md = f.object(m_get("machineDeploymentClass"), &md_at);
    let names = f
        .strings(md.and_then(|m| m.get("names")), &format!("{md_at}.names"))
        .unwrap_or_default();
    Definition {
        selector: Selector {
            api_version: f
                .string(get("apiVersion"), &format!("{s_at}.apiVersion"))
                .unwrap_or_default()
                .to_string(),
            kind: f
                .string(get("kind"), &format!("{s_at}.kind"))
                .unwrap_or_default()
                .to_string(),
            match_resources: MatchResources {
                control_plane: f
                    .bool(m_get("controlPlane"), &format!("{m_at}.controlPlane"))
                    .unwrap_or(false),
                infrastructure_cluster: f
                    .bool(
                        m_get("infrastructureCluster"),
                        &format!("{m_at}.infrastructureCluster"),
                    )
                    .unwrap_or(false),
                machine_deployment_classes: names,
            },
        },
        json_patches: f
            .objects(d.get("jsonPatches"), &format!("{at}.jsonPatches"))
            .into_iter()
            .map(|(k, op)| json_patch(f, op, &format!("{at}.jsonPatches[{k}]")))
            .collect(),
    }
}

fn json_patch(f: &mut Fields<'_, '_>, op: View<'_>, at: &str) -> JsonPatch {
    let from = f.object(op.get("valueFrom"), &format!("{at}.valueFrom"));
    JsonPatch {
        op: f
            .string(op.get("op"), &format!("{at}.op"))
            .unwrap_or_default()
            .to_string(),
        path: f
            .string(op.get("path"), &format!("{at}.path"))
            .unwrap_or_default()
            .to_string(),
        value: op.get("value").map(View::to_value),
        value_from: from.map(|v| ValueFrom {
            variable: f
                .string(v.get("variable"), &format!("{at}.valueFrom.variable"))
                .map(str::to_string),
            template: f
                .string(v.get("template"), &format!("{at}.valueFrom.template"))
                .map(str::to_string),
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
        ClusterClass::read(&o, View::new(&doc), &mut Vec::new())
    }

    #[test]
    fn the_templates_of_both_versions_are_read_by_kind() {
        let m3 = |name: &str| json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3MachineTemplate", "name": name});
        let c = class(json!({
            "controlPlane": {"machineInfrastructure": {"ref": m3("cp")}},
            "infrastructure": {"ref": {"kind": "Metal3ClusterTemplate", "name": "cluster"}},
            "workers": {"machineDeployments": [
                {"class": "a", "template": {"infrastructure": {"ref": m3("md-a")}}},
                {"class": "b", "template": {"infrastructure": {"ref": m3("md-b")}}},
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
                    "spec.workers.machineDeployments[1].template.infrastructure.ref.name"
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
