//! Cluster API `ClusterClass` (`cluster.x-k8s.io`, v1beta1 and v1beta2), as far as ipreuse
//! reads it until ClusterClass patches are evaluated (SPEC §11 is a later issue): which
//! Metal3MachineTemplates the class names, and which of its patches may change what CAPM3 reads
//! from them (FACTS §7).
//!
//! CAPI clones the class's templates for each Cluster and applies the class's patches to the
//! clones; CAPM3 reads `dataTemplate` and `hostSelector` from the clones only. So a template
//! whose class has a patch that may change either is not what its machines use:
//! - a JSON patch (`spec.patches[].definitions[].jsonPatches[]`) whose `path` names
//!   `dataTemplate` or `hostSelector`, or replaces a mapping that holds them (`/spec/template/spec`
//!   and above), in a definition whose selector picks `Metal3MachineTemplate`s (or picks no
//!   kind that can be read, which cannot be ruled out);
//! - an `external` patch (a Runtime Extension): what it does is only known at run time.
//!
//! The templates are named by `spec.controlPlane.machineInfrastructure.ref` and
//! `spec.workers.{machineDeployments,machinePools}[].template.infrastructure.ref` (v1beta1), and
//! `spec.controlPlane.machineInfrastructure.templateRef` and
//! `spec.workers.{machineDeployments,machinePools}[].infrastructure.templateRef` (v1beta2);
//! both spellings are read in either version. A reference's namespace is the class's (CAPI
//! keeps a class's templates beside it).

use super::Object;
use super::view::View;

/// The kind of the templates this reader looks for.
pub const MACHINE_TEMPLATE: &str = "Metal3MachineTemplate";

/// The fields of a machine template that decide its hosts and pools, from its root.
const DECIDING: [&str; 2] = ["dataTemplate", "hostSelector"];
/// Where they sit in a Metal3MachineTemplate.
const SPEC: [&str; 3] = ["spec", "template", "spec"];

/// A ClusterClass as the mapping reads it.
#[derive(Debug, Clone)]
pub struct ClusterClass {
    pub object: Object,
    /// The names of the Metal3MachineTemplates it names (in its namespace), with the field
    /// that names each, in the order written.
    pub templates: Vec<(String, String)>,
    /// The patches that may change a template's `dataTemplate` or `hostSelector`.
    pub patches: Vec<Patch>,
}

/// A patch of the class that ipreuse cannot follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// `spec.patches[i].name`, as written (empty when missing).
    pub name: String,
    /// The field that says what it does: a JSON patch's `path`, or `external`.
    pub field: String,
    /// What it does, for messages: `replaces /spec/template/spec/dataTemplate/name in the
    /// Metal3MachineTemplates it selects`, or `is an external patch ...`.
    pub what: String,
}

impl ClusterClass {
    /// Reads a class. Values of another shape than CAPI allows are skipped: the API server
    /// refuses such a class, so it stamps no Cluster. Read by the registry
    /// ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>) -> ClusterClass {
        ClusterClass {
            object: object.clone(),
            templates: templates(value),
            patches: patches(value),
        }
    }
}

/// The Metal3MachineTemplates the class names, with the field of each name.
fn templates(value: View<'_>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut take = |r: Option<View<'_>>, field: String| {
        let Some(r) = r else { return };
        let kind = r.get("kind").and_then(View::as_str);
        let group = r
            .get("apiVersion")
            .and_then(View::as_str)
            .map(super::group_of);
        if kind != Some(MACHINE_TEMPLATE) || group.is_some_and(|g| g != super::CAPM3_GROUP) {
            return;
        }
        if let Some(name) = r.get("name").and_then(View::as_str) {
            out.push((name.to_string(), format!("{field}.name")));
        }
    };
    let cp = "spec.controlPlane.machineInfrastructure";
    take(
        value.at(&["spec", "controlPlane", "machineInfrastructure", "ref"]),
        format!("{cp}.ref"),
    );
    take(
        value.at(&[
            "spec",
            "controlPlane",
            "machineInfrastructure",
            "templateRef",
        ]),
        format!("{cp}.templateRef"),
    );
    for list in ["machineDeployments", "machinePools"] {
        let Some(items) = value.at(&["spec", "workers", list]).and_then(View::as_seq) else {
            continue;
        };
        for (i, item) in items.enumerate() {
            let base = format!("spec.workers.{list}[{i}]");
            take(
                item.at(&["template", "infrastructure", "ref"]),
                format!("{base}.template.infrastructure.ref"),
            );
            take(
                item.at(&["infrastructure", "templateRef"]),
                format!("{base}.infrastructure.templateRef"),
            );
        }
    }
    out
}

/// The patches that may change `dataTemplate` or `hostSelector`.
fn patches(value: View<'_>) -> Vec<Patch> {
    let mut out = Vec::new();
    let Some(patches) = value.at(&["spec", "patches"]).and_then(View::as_seq) else {
        return out;
    };
    for (i, p) in patches.enumerate() {
        let base = format!("spec.patches[{i}]");
        let name = p
            .get("name")
            .and_then(View::as_str)
            .unwrap_or_default()
            .to_string();
        if p.get("external").is_some_and(|e| !e.is_null()) {
            out.push(Patch {
                name: name.clone(),
                field: format!("{base}.external"),
                what: "is an external patch (a Runtime Extension), which may change anything"
                    .into(),
            });
        }
        let Some(definitions) = p.get("definitions").and_then(View::as_seq) else {
            continue;
        };
        for (j, d) in definitions.enumerate() {
            let kind = d.at(&["selector", "kind"]).and_then(View::as_str);
            if kind.is_some_and(|k| k != MACHINE_TEMPLATE) {
                continue;
            }
            let Some(ops) = d.get("jsonPatches").and_then(View::as_seq) else {
                continue;
            };
            for (k, op) in ops.enumerate() {
                let Some(path) = op.get("path").and_then(View::as_str) else {
                    continue;
                };
                if !touches(path) {
                    continue;
                }
                let verb = match op.get("op").and_then(View::as_str) {
                    Some("add") => "adds".to_string(),
                    Some("replace") => "replaces".to_string(),
                    Some("remove") => "removes".to_string(),
                    Some(other) => format!("patches ({other})"),
                    None => "patches".to_string(),
                };
                out.push(Patch {
                    name: name.clone(),
                    field: format!("{base}.definitions[{j}].jsonPatches[{k}].path"),
                    what: format!("{verb} {path} in the Metal3MachineTemplates it selects"),
                });
            }
        }
    }
    out
}

/// Whether a JSON pointer may change a machine template's `dataTemplate` or `hostSelector`:
/// it names one of them (at any depth), or a mapping that holds them (`/spec/template/spec`,
/// `/spec/template`, `/spec`, the whole object).
pub fn touches(pointer: &str) -> bool {
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    segments.iter().any(|s| DECIDING.contains(&s.as_str()))
        || (segments.len() <= SPEC.len() && segments.iter().zip(SPEC).all(|(s, w)| s == w))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn pointers_that_touch_the_deciding_fields() {
        for p in [
            "/spec/template/spec/dataTemplate",
            "/spec/template/spec/dataTemplate/name",
            "/spec/template/spec/hostSelector/matchLabels/rack",
            "/spec/template/spec",
            "/spec/template",
            "/spec",
            "",
        ] {
            assert!(touches(p), "{p}");
        }
        for p in [
            "/spec/template/spec/image/url",
            "/spec/template/spec/dataTemplateX",
            "/spec/template/metadata/labels",
            "/metadata/labels",
            "/spec/nodeReuse",
        ] {
            assert!(!touches(p), "{p}");
        }
    }

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
        assert_eq!(
            c.templates,
            [
                (
                    "cp".to_string(),
                    "spec.controlPlane.machineInfrastructure.ref.name".to_string()
                ),
                (
                    "md-a".into(),
                    "spec.workers.machineDeployments[0].template.infrastructure.ref.name".into()
                ),
                (
                    "md-b".into(),
                    "spec.workers.machineDeployments[1].infrastructure.templateRef.name".into()
                ),
            ]
        );
    }

    #[test]
    fn patches_that_may_change_the_deciding_fields() {
        let c = class(json!({"patches": [
            {"name": "image", "definitions": [{"selector": {"kind": "Metal3MachineTemplate"},
                "jsonPatches": [{"op": "replace", "path": "/spec/template/spec/image/url"}]}]},
            {"name": "dt", "definitions": [{"selector": {"kind": "Metal3MachineTemplate"},
                "jsonPatches": [{"op": "replace", "path": "/spec/template/spec/dataTemplate/name"}]}]},
            {"name": "other-kind", "definitions": [{"selector": {"kind": "Metal3ClusterTemplate"},
                "jsonPatches": [{"op": "replace", "path": "/spec/template/spec"}]}]},
            {"name": "ext", "external": {"generateExtension": "gen.ext"}},
        ]}));
        assert_eq!(
            c.patches,
            [
                Patch {
                    name: "dt".into(),
                    field: "spec.patches[1].definitions[0].jsonPatches[0].path".into(),
                    what: "replaces /spec/template/spec/dataTemplate/name in the \
                           Metal3MachineTemplates it selects"
                        .into(),
                },
                Patch {
                    name: "ext".into(),
                    field: "spec.patches[3].external".into(),
                    what: "is an external patch (a Runtime Extension), which may change anything"
                        .into(),
                },
            ]
        );
    }
}
