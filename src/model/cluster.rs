//! Cluster API `Cluster` (`cluster.x-k8s.io`) and CAPM3 `Metal3Cluster`
//! (`infrastructure.cluster.x-k8s.io`): the control-plane endpoint, which no host may be given
//! (SPEC §5 rule 4).

use std::net::IpAddr;

use super::Object;
use super::value::is_template;
use super::view::View;

/// The group of Cluster API's `Cluster`.
pub const CLUSTER_GROUP: &str = "cluster.x-k8s.io";

/// Whether `object` is a kind whose control-plane endpoint the function reads.
pub fn is_cluster(object: &Object) -> bool {
    object.is(CLUSTER_GROUP, "Cluster") || object.is(super::CAPM3_GROUP, "Metal3Cluster")
}

/// The IP-literal `spec.controlPlaneEndpoint.host` of a cluster, as written. A host name, an
/// unrendered template or a missing endpoint is `None`: only an address can collide with a
/// host's.
pub fn endpoint(value: View<'_>) -> Option<&str> {
    let host = value
        .at(&["spec", "controlPlaneEndpoint", "host"])?
        .as_str()?;
    (!is_template(host) && host.parse::<IpAddr>().is_ok()).then_some(host)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn object(api_version: &str, kind: &str) -> Object {
        let v = json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "c"}});
        let doc = crate::model::view::node_of(&v);
        Object::read(crate::model::ItemId(0), View::new(&doc)).unwrap()
    }

    #[test]
    fn clusters_are_both_kinds_by_group() {
        assert!(is_cluster(&object("cluster.x-k8s.io/v1beta2", "Cluster")));
        assert!(is_cluster(&object(
            "infrastructure.cluster.x-k8s.io/v1beta1",
            "Metal3Cluster"
        )));
        assert!(!is_cluster(&object("example.com/v1", "Cluster")));
        assert!(!is_cluster(&object("cluster.x-k8s.io/v1beta1", "Machine")));
    }

    #[test]
    fn only_an_address_is_an_endpoint() {
        let of = |v: Value| {
            let doc = crate::model::view::node_of(&v);
            endpoint(View::new(&doc)).map(str::to_owned)
        };
        let with = |host: Value| {
            of(json!({"spec": {"controlPlaneEndpoint": {"host": host, "port": 6443}}}))
        };
        assert_eq!(
            with(json!("192.168.111.249")).as_deref(),
            Some("192.168.111.249")
        );
        assert_eq!(with(json!("fd00::5")).as_deref(), Some("fd00::5"));
        assert_eq!(with(json!("api.example.com")), None);
        assert_eq!(with(json!("${CLUSTER_APIENDPOINT_HOST}")), None);
        assert_eq!(with(json!(5)), None);
        assert_eq!(of(json!({"spec": {}})), None);
    }
}
