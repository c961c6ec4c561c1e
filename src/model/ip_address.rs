//! IPAddress (`ipam.metal3.io/v1alpha1`): one address the IPAM handed out, the statement of
//! what is in use now.
//!
//! The IPAM makes one per allocated claim, in the pool's namespace, and names it
//! `{namePrefix}-{address with . and : as -}`: `spec.address` is the address, `spec.claim.name`
//! the IPClaim it was made for, `spec.pool.name` the IPPool. A pool's
//! `status.indexes` is rebuilt from these objects on every reconcile.

use super::Object;
use super::value::read_text;
use super::view::View;
use crate::results::Finding;

/// An IPAddress as the function reads it.
#[derive(Debug, Clone)]
pub struct IpAddress {
    pub object: Object,
    /// `spec.address`, as written.
    pub address: Option<String>,
    /// `spec.claim.name`: the IPClaim that holds the address.
    pub claim: Option<String>,
    /// `spec.pool.name`: the IPPool it comes from (in the IPAddress's namespace).
    pub pool: Option<String>,
}

impl IpAddress {
    /// Reads an IPAddress; `None` with an error naming the field when a value it reads is not a
    /// string, or with a warning when it is an unrendered template (the object is skipped).
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        view: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<IpAddress> {
        let mut text = |path: &[&str]| read_text(object, view, path, findings).ok();
        Some(IpAddress {
            object: object.clone(),
            address: text(&["spec", "address"])?,
            claim: text(&["spec", "claim", "name"])?,
            pool: text(&["spec", "pool", "name"])?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn read(spec: Value) -> (Option<IpAddress>, Vec<Finding>) {
        let v = json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPAddress",
            "metadata": {"name": "prov-172-22-0-10", "namespace": "lab",
                "ownerReferences": [{"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool", "name": "prov"}]},
            "spec": spec});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        let node = crate::model::value::node_of(&v);
        let a = IpAddress::read(&object, View::new(&node), &mut findings);
        (a, findings)
    }

    #[test]
    fn the_address_claim_and_pool_are_read_from_spec() {
        let (a, findings) = read(json!({
            "address": "172.22.0.10", "prefix": 24, "gateway": "172.22.0.1",
            "claim": {"name": "workers-3-prov", "namespace": "lab"},
            "pool": {"name": "prov", "namespace": "lab"}}));
        assert!(findings.is_empty(), "{findings:?}");
        let a = a.expect("read");
        assert_eq!(a.address.as_deref(), Some("172.22.0.10"));
        assert_eq!(a.claim.as_deref(), Some("workers-3-prov"));
        assert_eq!(a.pool.as_deref(), Some("prov"));
        let (a, findings) = read(json!({}));
        assert!(findings.is_empty());
        let a = a.expect("read");
        assert_eq!((a.address, a.claim, a.pool), (None, None, None));
    }

    #[test]
    fn bad_and_unrendered_values_name_the_field() {
        for (spec, field, error) in [
            (json!({"address": 3}), "spec.address", true),
            (json!({"claim": {"name": ["a"]}}), "spec.claim.name", true),
            (json!({"pool": {"name": true}}), "spec.pool.name", true),
            (
                json!({"pool": {"name": "${POOL}"}}),
                "spec.pool.name",
                false,
            ),
        ] {
            let (a, findings) = read(spec);
            assert!(a.is_none(), "{field}");
            assert_eq!(findings.len(), 1, "{field}: {findings:?}");
            assert_eq!(findings[0].is_error(), error, "{field}");
            assert_eq!(
                findings[0].field.as_ref().map(|f| f.path.as_str()),
                Some(field)
            );
        }
    }
}
