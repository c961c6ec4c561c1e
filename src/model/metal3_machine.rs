//! Metal3Machine (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): the machine CAPM3
//! runs on one BareMetalHost. CAPM3 records that host in the annotation
//! `metal3.io/BareMetalHost: {namespace}/{name}`.
//!
//! `status.addresses` is not read: it lists the addresses the host reported at inspection
//! (DHCP), not what the IPAM allocated.

use super::Object;
use super::value::read_text;
use super::view::View;
use crate::results::Finding;

/// The annotation in which CAPM3 names a Metal3Machine's BareMetalHost.
pub const HOST_ANNOTATION: &str = "metal3.io/BareMetalHost";

/// A Metal3Machine as the function reads it.
#[derive(Debug, Clone)]
pub struct Metal3Machine {
    pub object: Object,
    /// The value of the `metal3.io/BareMetalHost` annotation, as written.
    pub host: Option<String>,
}

impl Metal3Machine {
    /// Reads a Metal3Machine; `None` with an error when the annotation is not a string, or a
    /// warning when it is an unrendered template.
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        view: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<Metal3Machine> {
        let host = read_text(
            object,
            view,
            &["metadata", "annotations", HOST_ANNOTATION],
            findings,
        )
        .ok()?;
        Some(Metal3Machine {
            object: object.clone(),
            host,
        })
    }

    /// The host the annotation names, `(namespace, name)`; `None` when there is no annotation
    /// or it is not `namespace/name`.
    pub fn host_key(&self) -> Option<(&str, &str)> {
        let (ns, name) = self.host.as_deref()?.split_once('/')?;
        (!ns.is_empty() && !name.is_empty() && !name.contains('/')).then_some((ns, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn read(annotations: Value) -> (Option<Metal3Machine>, Vec<Finding>) {
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Machine",
            "metadata": {"name": "workers-abc", "namespace": "lab", "annotations": annotations},
            "spec": {"providerID": "metal3://lab/node-1/workers-abc"},
            "status": {"addresses": [{"type": "InternalIP", "address": "172.22.0.99"}]}});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        let node = crate::model::value::node_of(&v);
        (
            Metal3Machine::read(&object, View::new(&node), &mut findings),
            findings,
        )
    }

    #[test]
    fn the_host_is_the_annotation_and_never_the_status_addresses() {
        let (m, findings) = read(json!({"metal3.io/BareMetalHost": "lab/node-1"}));
        assert!(findings.is_empty());
        let m = m.expect("read");
        assert_eq!(m.host_key(), Some(("lab", "node-1")));
        let (m, _) = read(json!({"other": "x"}));
        let m = m.expect("read");
        assert_eq!((m.host.as_deref(), m.host_key()), (None, None));
    }

    #[test]
    fn an_annotation_that_is_not_namespace_slash_name_names_no_host() {
        for text in ["node-1", "/node-1", "lab/", "lab/a/b"] {
            let (m, findings) = read(json!({"metal3.io/BareMetalHost": text}));
            assert!(findings.is_empty());
            let m = m.expect("read");
            assert_eq!(m.host.as_deref(), Some(text));
            assert_eq!(m.host_key(), None, "{text}");
        }
    }

    #[test]
    fn a_bad_annotation_value_is_an_error_at_its_bracketed_field() {
        let (m, findings) = read(json!({"metal3.io/BareMetalHost": 7}));
        assert!(m.is_none());
        assert!(findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.annotations.[metal3.io/BareMetalHost]")
        );
    }
}
