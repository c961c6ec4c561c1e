//! Cluster API objects beside the topology that the mapping reads: the control plane template a
//! ClusterClass names (`KubeadmControlPlaneTemplate`, whose `spec.template.metadata` CAPI copies
//! into the control plane it creates, and so into `builtin.controlPlane.metadata`).

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
