//! IPClaim (`ipam.metal3.io/v1alpha1`): the claim CAPM3 makes for one Metal3Data and one pool.
//!
//! With the name-based flag on, CAPM3 names it `{BareMetalHost}-{pool}` and labels it with the
//! Metal3Data's name (`data-name`) and the pool's (`pool-name`); its owner is that Metal3Data
//! (an `ownerReferences` entry of kind `Metal3Data`, FACTS §1 and §6).

use super::labels::{self, Labels};
use super::objects::Part;
use super::owners::{self, Owner};
use super::value::is_template;
use super::view::View;
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// The API group of Metal3Data (and of the other CAPM3 kinds).
pub use super::CAPM3_GROUP;

/// An IPClaim as the function reads it: each part with the results of reading it, for the
/// transformation that uses it (adoption follows `data_owners`; the labels transformation reads
/// `pool`, then `data_owners`, then `labels`, and stops at the first that cannot be used).
#[derive(Debug, Clone)]
pub struct IpClaim {
    pub object: Object,
    /// `spec.pool.name`, when written: the pool the IPAM allocates the claim from.
    pub pool: Part<Option<String>>,
    /// The `ownerReferences` entries of kind `Metal3Data` in group `infrastructure.cluster.x-k8s.io`
    /// (any version), in the order written. Matched by kind and group only: never by position
    /// or uid (uids change when `clusterctl move` re-creates the objects).
    pub data_owners: Part<Vec<Owner>>,
    pub labels: Part<Labels>,
}

impl IpClaim {
    /// Reads a claim: a part is `None` with an error naming the field when a value it needs has
    /// the wrong type, or with a warning when it is an unrendered template (what uses the part
    /// skips the claim). Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, view: View<'_>) -> IpClaim {
        IpClaim {
            object: object.clone(),
            pool: Part::of(|findings| read_pool(object, view, findings)),
            data_owners: Part::of(|findings| {
                owners::read(object, view, "Metal3Data", CAPM3_GROUP, findings)
            }),
            labels: Part::of(|findings| labels::read(object, view, findings)),
        }
    }
}

/// `spec.pool.name`.
fn read_pool(
    object: &Object,
    view: View<'_>,
    findings: &mut Vec<Finding>,
) -> Option<Option<String>> {
    let Some(found) = view.at(&["spec", "pool", "name"]).filter(|v| !v.is_null()) else {
        return Some(None);
    };
    match found.as_str() {
        Some(s) if is_template(s) => {
            findings.push(skipped_for_template(object, "spec.pool.name", s));
            None
        }
        Some(s) => Some(Some(s.to_owned())),
        None => {
            findings.push(
                Finding::error(format!(
                    "this field is {}, not a string; fix it, or leave the IPClaim out of the input",
                    found.kind_of()
                ))
                .on(object.resource_ref())
                .at("spec.pool.name"),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The claim, read whole as the labels transformation reads it (pool, owners, labels,
    /// stopping at the first part that cannot be used), with the results of the parts read.
    fn read(v: &Value) -> (Option<IpClaim>, Vec<Finding>) {
        let c = read_parts(v);
        let mut findings = Vec::new();
        let whole = c.pool.report(&mut findings).is_some()
            && c.data_owners.report(&mut findings).is_some()
            && c.labels.report(&mut findings).is_some();
        (whole.then_some(c), findings)
    }

    fn read_parts(v: &Value) -> IpClaim {
        let object = Object::of_json(crate::model::ItemId(0), v).expect("an object");
        IpClaim::read(&object, View::new(&crate::model::value::node_of(v)))
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
        assert_eq!(c.pool.value, Some(Some("pool".into())));
        assert_eq!(
            c.data_owners.value.expect("owners"),
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
        assert_eq!(c.data_owners.value, Some(Vec::new()));
        assert_eq!(c.pool.value, Some(None));
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

    /// A part that cannot be read leaves the others readable, each with its own results: a
    /// bad `spec.pool.name` does not hide the claim's owners from adoption.
    #[test]
    fn each_part_has_its_own_results() {
        let v = json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim",
            "metadata": {"name": "c", "namespace": "ns", "labels": {"a": "${A}"},
                "ownerReferences": [{"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
                    "kind": "Metal3Data", "name": "d"}]},
            "spec": {"pool": {"name": 7}}});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let c = IpClaim::read(&object, View::new(&crate::model::value::node_of(&v)));
        assert!(c.pool.value.is_none());
        assert_eq!(c.pool.findings.len(), 1);
        assert!(c.pool.findings[0].is_error());
        assert!(c.data_owners.findings.is_empty());
        assert_eq!(
            c.data_owners.value.map(|o| o.len()),
            Some(1),
            "the owners are read"
        );
        assert!(c.labels.value.is_none());
        assert_eq!(
            c.labels.findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.labels.a")
        );
    }
}
