//! Metal3DataClaim (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): a Metal3Machine's
//! request for its rendered data. CAPM3 names it after its Metal3Machine and makes that machine
//! its controller owner; the Metal3Data made for it names it in `spec.claim`.

use super::Object;
use super::ip_claim::CAPM3_GROUP;
use super::owners::{self, Owner};
use super::view::View;
use crate::results::Finding;

/// A Metal3DataClaim as the function reads it.
#[derive(Debug, Clone)]
pub struct Metal3DataClaim {
    pub object: Object,
    /// The `ownerReferences` entries of kind `Metal3Machine` in group
    /// `infrastructure.cluster.x-k8s.io` (any version), in the order written.
    pub machine_owners: Vec<Owner>,
}

impl Metal3DataClaim {
    /// Reads a Metal3DataClaim; `None` with an error naming the field when an owner reference of
    /// kind `Metal3Machine` is malformed, or with a warning when its name is a template.
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        view: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<Metal3DataClaim> {
        Some(Metal3DataClaim {
            object: object.clone(),
            machine_owners: owners::read(object, view, "Metal3Machine", CAPM3_GROUP, findings)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_machine_owner_is_read_by_kind_and_group_in_both_versions() {
        for version in ["v1beta1", "v1beta2"] {
            let v = json!({"apiVersion": format!("infrastructure.cluster.x-k8s.io/{version}"),
                "kind": "Metal3DataClaim",
                "metadata": {"name": "workers-abc", "namespace": "lab", "uid": "1",
                    "ownerReferences": [
                        {"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Machine", "name": "decoy"},
                        {"apiVersion": format!("infrastructure.cluster.x-k8s.io/{version}"),
                         "kind": "Metal3Machine", "name": "workers-abc", "controller": true,
                         "blockOwnerDeletion": true, "uid": "2"}]},
                "spec": {"template": {"name": "workers-template"}}});
            let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
            let mut findings = Vec::new();
            let node = crate::model::value::node_of(&v);
            let c = Metal3DataClaim::read(&object, View::new(&node), &mut findings).expect("read");
            assert!(findings.is_empty(), "{findings:?}");
            assert_eq!(
                c.machine_owners,
                vec![Owner {
                    name: "workers-abc".into(),
                    field: "metadata.ownerReferences[1].name".into(),
                    controller: true
                }]
            );
        }
    }
}
