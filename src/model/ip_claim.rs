//! IPClaim (`ipam.metal3.io/v1alpha1`): the claim CAPM3 makes for one Metal3Data and one pool.
//!
//! With the name-based flag on, CAPM3 names it `{BareMetalHost}-{pool}` and labels it with the
//! Metal3Data's name (`data-name`) and the pool's (`pool-name`); its owner is that Metal3Data
//! (an `ownerReferences` entry of kind `Metal3Data`, FACTS §1 and §6).

use serde_json::Value;

use super::json::kind_of;
use super::labels::{self, Labels};
use super::owners::{self, Owner};
use super::value::{at, is_template};
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// The API group of Metal3Data (and of the other CAPM3 kinds).
pub use super::CAPM3_GROUP;

/// An IPClaim as the function reads it.
#[derive(Debug, Clone)]
pub struct IpClaim {
    pub object: Object,
    /// `spec.pool.name`, when written: the pool the IPAM allocates the claim from.
    pub pool: Option<String>,
    /// The `ownerReferences` entries of kind `Metal3Data` in group `infrastructure.cluster.x-k8s.io`
    /// (any version), in the order written. Matched by kind and group only: never by position
    /// or uid (uids change when `clusterctl move` re-creates the objects).
    pub data_owners: Vec<Owner>,
    pub labels: Labels,
}

impl IpClaim {
    /// Reads a claim; `None` with an error naming the field when a value it needs has the wrong
    /// type, or with a warning when it is an unrendered template (the claim is skipped).
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<IpClaim> {
        let error = |field: String, what: String| {
            Finding::error(format!(
                "{}: {field} {what}; fix it, or leave the IPClaim out of the input",
                object.display()
            ))
            .on(object.resource_ref())
            .at(field)
        };
        let pool = match at(value, &["spec", "pool", "name"]) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if is_template(s) => {
                findings.push(skipped_for_template(object, "spec.pool.name", s));
                return None;
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                findings.push(error(
                    "spec.pool.name".into(),
                    format!("is {}, not a string", kind_of(other)),
                ));
                return None;
            }
        };
        let data_owners = owners::read(object, value, "Metal3Data", CAPM3_GROUP, findings)?;
        let labels = labels::read(object, value, findings)?;
        Some(IpClaim {
            object: object.clone(),
            pool,
            data_owners,
            labels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: &Value) -> (Option<IpClaim>, Vec<Finding>) {
        let object = Object::of_json(crate::model::ItemId(0), v).expect("an object");
        let mut findings = Vec::new();
        (IpClaim::read(&object, v, &mut findings), findings)
    }

    fn claim(metadata_extra: Value, spec: Value) -> Value {
        let mut metadata = json!({"name": "node-1-pool", "namespace": "ns"});
        if let (Some(m), Value::Object(extra)) = (metadata.as_object_mut(), metadata_extra) {
            m.extend(extra);
        }
        json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim", "metadata": metadata, "spec": spec})
    }

    #[test]
    fn metal3data_owners_are_matched_by_kind_and_group_not_position() {
        let v = claim(
            json!({"ownerReferences": [
                {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3DataClaim", "name": "m-1", "uid": "a"},
                {"apiVersion": "other.example.com/v1", "kind": "Metal3Data", "name": "decoy", "uid": "b"},
                {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3Data", "name": "data-7", "uid": "c"}
            ]}),
            json!({"pool": {"name": "pool"}}),
        );
        let (c, findings) = read(&v);
        assert!(findings.is_empty(), "{findings:?}");
        let c = c.expect("read");
        assert_eq!(c.pool.as_deref(), Some("pool"));
        assert_eq!(
            c.data_owners,
            vec![Owner {
                name: "data-7".into(),
                field: "metadata.ownerReferences[2].name".into(),
                controller: false
            }]
        );
    }

    #[test]
    fn no_owners_and_no_pool_are_fine() {
        let (c, findings) = read(&claim(json!({}), json!({})));
        assert!(findings.is_empty());
        let c = c.expect("read");
        assert!(c.data_owners.is_empty());
        assert_eq!(c.pool, None);
    }

    #[test]
    fn bad_values_are_errors_naming_the_field() {
        let cases = [
            (
                claim(
                    json!({"ownerReferences": {"kind": "Metal3Data"}}),
                    json!({}),
                ),
                "metadata.ownerReferences",
            ),
            (
                claim(json!({"ownerReferences": ["x"]}), json!({})),
                "metadata.ownerReferences[0]",
            ),
            (
                claim(
                    json!({"ownerReferences": [{"kind": "Metal3Data", "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "name": 3}]}),
                    json!({}),
                ),
                "metadata.ownerReferences[0].name",
            ),
            (
                claim(
                    json!({"ownerReferences": [{"kind": "Metal3Data", "name": "d"}]}),
                    json!({}),
                ),
                "metadata.ownerReferences[0].apiVersion",
            ),
            (
                claim(json!({}), json!({"pool": {"name": 7}})),
                "spec.pool.name",
            ),
        ];
        for (v, field) in cases {
            let (c, findings) = read(&v);
            assert!(c.is_none(), "{field}");
            assert_eq!(findings.len(), 1, "{field}: {findings:?}");
            assert!(findings[0].is_error());
            assert_eq!(
                findings[0].field.as_ref().map(|f| f.path.as_str()),
                Some(field)
            );
        }
    }

    #[test]
    fn an_unrendered_owner_name_skips_the_claim_with_a_warning() {
        let v = claim(
            json!({"ownerReferences": [{"kind": "Metal3Data", "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "name": "${DATA}"}]}),
            json!({}),
        );
        let (c, findings) = read(&v);
        assert!(c.is_none());
        assert!(!findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.ownerReferences[0].name")
        );
    }
}
