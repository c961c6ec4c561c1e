//! Cluster API objects beside the topology that the mapping reads: the control plane template a
//! ClusterClass names (`KubeadmControlPlaneTemplate`, whose `spec.template.metadata` CAPI copies
//! into the control plane it creates, and so into `builtin.controlPlane.metadata`), and the
//! standalone objects whose machines use a machine template as written (KubeadmControlPlane,
//! MachineDeployment, MachineSet, Machine): a template a ClusterClass names is mapped as written
//! when one of them references it.

use super::Object;
use super::cluster::object_meta;
use super::view::View;
use crate::topology::patch::variables::ObjectMeta;

/// The group of Cluster API's kubeadm control plane kinds.
pub const CONTROL_PLANE_GROUP: &str = "controlplane.cluster.x-k8s.io";

/// A `KubeadmControlPlaneTemplate`: what CAPI copies of it into the control plane's metadata.
#[derive(Debug, Clone)]
pub struct ControlPlaneTemplate {
    pub object: Object,
    /// `spec.template.metadata` (labels and annotations).
    pub metadata: ObjectMeta,
}

impl ControlPlaneTemplate {
    /// Reads a control plane template. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>) -> ControlPlaneTemplate {
        ControlPlaneTemplate {
            object: object.clone(),
            metadata: object_meta(value.at(&["spec", "template", "metadata"])),
        }
    }
}

/// The kinds whose objects use a machine template as written, and where each version spells the
/// reference: (group, kind, the path to the reference).
const MACHINE_TEMPLATE_USERS: &[(&str, &str, &[&str], &[&str])] = &[
    (
        CONTROL_PLANE_GROUP,
        "KubeadmControlPlane",
        &["spec", "machineTemplate", "infrastructureRef"],
        &["spec", "machineTemplate", "spec", "infrastructureRef"],
    ),
    (
        super::cluster::CLUSTER_GROUP,
        "MachineDeployment",
        &["spec", "template", "spec", "infrastructureRef"],
        &["spec", "template", "spec", "infrastructureRef"],
    ),
    (
        super::cluster::CLUSTER_GROUP,
        "MachineSet",
        &["spec", "template", "spec", "infrastructureRef"],
        &["spec", "template", "spec", "infrastructureRef"],
    ),
    (
        super::cluster::CLUSTER_GROUP,
        "Machine",
        &["spec", "infrastructureRef"],
        &["spec", "infrastructureRef"],
    ),
];

/// The infrastructure reference of an object that uses a machine template as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfrastructureRef {
    /// The API group (v1beta2 `apiGroup`, v1beta1 the group of `apiVersion`).
    pub group: String,
    pub kind: String,
    pub name: String,
    /// The field of its name, e.g. `spec.machineTemplate.spec.infrastructureRef.name`.
    pub field: String,
}

/// A standalone KubeadmControlPlane, MachineDeployment, MachineSet or Machine: its machines
/// use the infrastructure template it references as written (in its own namespace), whatever
/// ClusterClass also names that template.
#[derive(Debug, Clone)]
pub struct MachineTemplateUser {
    pub object: Object,
    pub infrastructure_ref: Option<InfrastructureRef>,
}

impl MachineTemplateUser {
    /// Reads the reference where the object's version spells it: v1beta2 `{apiGroup, kind,
    /// name}` (and the KubeadmControlPlane's `machineTemplate.spec.infrastructureRef`), v1beta1
    /// `{apiVersion, kind, name}`. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>) -> MachineTemplateUser {
        let v1beta2 = object.api_version.ends_with("/v1beta2");
        let path = MACHINE_TEMPLATE_USERS
            .iter()
            .find(|(g, k, _, _)| object.is(g, k))
            .map(|(_, _, v1, v2)| if v1beta2 { *v2 } else { *v1 });
        let infrastructure_ref = path.and_then(|path| {
            let r = value.at(path)?;
            let text = |key: &str| r.get(key).and_then(View::as_str).unwrap_or_default();
            let group = if v1beta2 {
                text("apiGroup").to_string()
            } else {
                super::group_of(text("apiVersion")).to_string()
            };
            let name = text("name");
            (!name.is_empty()).then(|| InfrastructureRef {
                group,
                kind: text("kind").to_string(),
                name: name.to_string(),
                field: format!("{}.name", path.join(".")),
            })
        });
        MachineTemplateUser {
            object: object.clone(),
            infrastructure_ref,
        }
    }

    /// The Metal3MachineTemplate it uses, by name, if that is what it references.
    pub fn metal3_machine_template(&self) -> Option<&InfrastructureRef> {
        self.infrastructure_ref
            .as_ref()
            .filter(|r| r.kind == "Metal3MachineTemplate" && r.group == super::CAPM3_GROUP)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn user(v: Value) -> MachineTemplateUser {
        let doc = crate::model::view::node_of(&v);
        let o = Object::read(crate::model::ItemId(0), View::new(&doc)).expect("an object");
        MachineTemplateUser::read(&o, View::new(&doc))
    }

    #[test]
    fn each_kind_and_version_spells_its_reference_its_own_way() {
        let v1 = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3MachineTemplate", "name": "t"});
        let v2 = json!({"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "Metal3MachineTemplate", "name": "t"});
        for (api_version, kind, spec, field) in [
            (
                "controlplane.cluster.x-k8s.io/v1beta1",
                "KubeadmControlPlane",
                json!({"machineTemplate": {"infrastructureRef": v1}}),
                "spec.machineTemplate.infrastructureRef.name",
            ),
            (
                "controlplane.cluster.x-k8s.io/v1beta2",
                "KubeadmControlPlane",
                json!({"machineTemplate": {"spec": {"infrastructureRef": v2}}}),
                "spec.machineTemplate.spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta1",
                "MachineDeployment",
                json!({"template": {"spec": {"infrastructureRef": v1}}}),
                "spec.template.spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta2",
                "MachineDeployment",
                json!({"template": {"spec": {"infrastructureRef": v2}}}),
                "spec.template.spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta1",
                "MachineSet",
                json!({"template": {"spec": {"infrastructureRef": v1}}}),
                "spec.template.spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta2",
                "MachineSet",
                json!({"template": {"spec": {"infrastructureRef": v2}}}),
                "spec.template.spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta1",
                "Machine",
                json!({"infrastructureRef": v1}),
                "spec.infrastructureRef.name",
            ),
            (
                "cluster.x-k8s.io/v1beta2",
                "Machine",
                json!({"infrastructureRef": v2}),
                "spec.infrastructureRef.name",
            ),
        ] {
            let u = user(
                json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}, "spec": spec}),
            );
            let r = u
                .metal3_machine_template()
                .unwrap_or_else(|| panic!("{api_version} {kind}"));
            assert_eq!((r.name.as_str(), r.field.as_str()), ("t", field));
        }
        // the other version's spelling references nothing (the API server drops it)
        let kcp = user(
            json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2", "kind": "KubeadmControlPlane",
            "metadata": {"name": "x"}, "spec": {"machineTemplate": {"infrastructureRef": v1}}}),
        );
        assert_eq!(kcp.infrastructure_ref, None);
        let md = user(
            json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
            "metadata": {"name": "x"}, "spec": {"template": {"spec": {"infrastructureRef": v1}}}}),
        );
        assert_eq!(
            md.metal3_machine_template(),
            None,
            "no apiGroup: the core group"
        );
        // another kind of template is no Metal3MachineTemplate
        let other = user(
            json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Machine", "metadata": {"name": "x"},
            "spec": {"infrastructureRef": {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "DockerMachineTemplate", "name": "t"}}}),
        );
        assert!(other.infrastructure_ref.is_some() && other.metal3_machine_template().is_none());
    }
}
