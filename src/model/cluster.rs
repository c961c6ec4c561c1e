//! Cluster API `Cluster` (`cluster.x-k8s.io`) and CAPM3 `Metal3Cluster`
//! (`infrastructure.cluster.x-k8s.io`): the control-plane endpoint, which no host may be given
//! (SPEC §5 rule 4), and a Cluster's `spec.topology` (SPEC §11): the ClusterClass it is stamped
//! from and what the class's patches read of it.
//!
//! The topology in both versions: v1beta1 names its class by `topology.class` (and
//! `classNamespace`), v1beta2 by `topology.classRef {name, namespace}`; the class's namespace
//! defaults to the Cluster's. `topology.version`, `topology.variables[] {name, value}`,
//! `topology.controlPlane.replicas` and `topology.workers.machineDeployments[] {class, name,
//! replicas, variables.overrides[]}` are spelled alike in both.

use std::net::IpAddr;

use std::collections::BTreeMap;

use serde_json::Value;

use super::Object;
use super::value::is_template;
use super::view::View;
use crate::topology::patch::variables::{Network, ObjectMeta};

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

/// A Cluster as the topology reads it.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub object: Object,
    /// `metadata.labels` and `annotations`.
    pub metadata: ObjectMeta,
    /// `spec.clusterNetwork` (`serviceDomain`, `services.cidrBlocks`, `pods.cidrBlocks`).
    pub network: Network,
    /// `spec.topology`, when it names a class.
    pub topology: Option<Topology>,
}

/// `spec.topology`.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// The ClusterClass's name and namespace.
    pub class: String,
    pub class_namespace: String,
    /// The field that names the class.
    pub class_field: &'static str,
    /// `version`.
    pub version: String,
    /// `variables`: each name with its value, in order.
    pub variables: Vec<(String, Value)>,
    /// `controlPlane.replicas`.
    pub control_plane_replicas: Option<i64>,
    /// `controlPlane.metadata`.
    pub control_plane_metadata: ObjectMeta,
    /// `controlPlane.variables.overrides` (v1beta2): the control plane's values replacing the
    /// Cluster's, as a MachineDeployment's overrides do for it.
    pub control_plane_overrides: Vec<(String, Value)>,
    pub machine_deployments: Vec<MachineDeploymentTopology>,
}

/// One of `spec.topology.workers.machineDeployments[]`.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineDeploymentTopology {
    /// Its position: `spec.topology.workers.machineDeployments[i]`.
    pub field: String,
    pub class: String,
    /// Its `name` (CAPI's `topologyName`).
    pub name: String,
    pub replicas: Option<i64>,
    /// `metadata`.
    pub metadata: ObjectMeta,
    /// `variables.overrides`.
    pub overrides: Vec<(String, Value)>,
}

impl Cluster {
    /// Reads a Cluster's topology. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>) -> Cluster {
        Cluster {
            object: object.clone(),
            metadata: object_meta(value.get("metadata")),
            network: network(value.at(&["spec", "clusterNetwork"])),
            topology: value
                .at(&["spec", "topology"])
                .and_then(|t| topology(object, t)),
        }
    }
}

fn text(v: Option<View<'_>>) -> Option<String> {
    v.and_then(View::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// A string map (labels, annotations) as Go reads it: `None` when absent or null.
fn string_map(v: Option<View<'_>>) -> Option<BTreeMap<String, String>> {
    let v = v.filter(|v| !v.is_null())?;
    Some(
        v.entries()?
            .filter_map(|(k, v)| Some((k.into_owned(), v.as_str()?.to_string())))
            .collect(),
    )
}

/// `labels` and `annotations` of an object's (or a topology part's) `metadata`.
pub(crate) fn object_meta(meta: Option<View<'_>>) -> ObjectMeta {
    ObjectMeta {
        labels: string_map(meta.and_then(|m| m.get("labels"))),
        annotations: string_map(meta.and_then(|m| m.get("annotations"))),
    }
}

/// A list of strings, `None` when absent or null.
fn strings(v: Option<View<'_>>) -> Option<Vec<String>> {
    let v = v.filter(|v| !v.is_null())?;
    Some(
        v.as_seq()?
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
    )
}

fn network(n: Option<View<'_>>) -> Network {
    let at = |path: &[&str]| n.and_then(|n| n.at(path));
    Network {
        service_domain: at(&["serviceDomain"])
            .and_then(View::as_str)
            .unwrap_or_default()
            .to_string(),
        services: strings(at(&["services", "cidrBlocks"])),
        pods: strings(at(&["pods", "cidrBlocks"])),
    }
}

/// `[{name, value}]` as (name, value) pairs.
fn named_values(list: Option<View<'_>>) -> Vec<(String, Value)> {
    let Some(items) = list.and_then(View::as_seq) else {
        return Vec::new();
    };
    items
        .filter_map(|v| {
            let name = v.get("name").and_then(View::as_str)?;
            Some((
                name.to_string(),
                v.get("value").map_or(Value::Null, View::to_value),
            ))
        })
        .collect()
}

fn topology(object: &Object, t: View<'_>) -> Option<Topology> {
    let (class, class_namespace, class_field) = match text(t.get("class")) {
        Some(class) => (class, text(t.get("classNamespace")), "spec.topology.class"),
        None => {
            let r = t.get("classRef")?;
            (
                text(r.get("name"))?,
                text(r.get("namespace")),
                "spec.topology.classRef.name",
            )
        }
    };
    let machine_deployments = t
        .at(&["workers", "machineDeployments"])
        .and_then(View::as_seq)
        .map(|mds| {
            mds.enumerate()
                .filter_map(|(i, md)| {
                    Some(MachineDeploymentTopology {
                        field: format!("spec.topology.workers.machineDeployments[{i}]"),
                        class: text(md.get("class"))?,
                        name: text(md.get("name"))?,
                        replicas: md.get("replicas").and_then(View::as_i64),
                        metadata: object_meta(md.get("metadata")),
                        overrides: named_values(md.at(&["variables", "overrides"])),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Topology {
        class,
        class_namespace: class_namespace.unwrap_or_else(|| object.namespace.clone()),
        class_field,
        version: text(t.get("version")).unwrap_or_default(),
        variables: named_values(t.get("variables")),
        control_plane_replicas: t.at(&["controlPlane", "replicas"]).and_then(View::as_i64),
        control_plane_metadata: object_meta(t.at(&["controlPlane", "metadata"])),
        control_plane_overrides: named_values(t.at(&["controlPlane", "variables", "overrides"])),
        machine_deployments,
    })
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

    fn topology_of(v: Value) -> Option<Topology> {
        let doc = crate::model::view::node_of(&v);
        let o = Object::read(crate::model::ItemId(0), View::new(&doc)).expect("an object");
        Cluster::read(&o, View::new(&doc)).topology
    }

    #[test]
    fn the_topology_of_both_versions() {
        let workers = json!({"machineDeployments": [
            {"class": "worker", "name": "md-0", "replicas": 2,
             "variables": {"overrides": [{"name": "image", "value": {"url": "u"}}]}},
            {"class": "worker", "replicas": 1}]});
        let v1 = topology_of(
            json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Cluster",
            "metadata": {"name": "test1", "namespace": "metal3"},
            "spec": {"topology": {"class": "metal3", "version": "v1.34.1",
                "controlPlane": {"replicas": 3},
                "variables": [{"name": "controlPlaneDataTemplate", "value": "test1-cp"}],
                "workers": workers}}}),
        )
        .expect("a topology");
        assert_eq!(
            (
                v1.class.as_str(),
                v1.class_namespace.as_str(),
                v1.class_field
            ),
            ("metal3", "metal3", "spec.topology.class")
        );
        assert_eq!(v1.version, "v1.34.1");
        assert_eq!(v1.control_plane_replicas, Some(3));
        assert!(v1.control_plane_overrides.is_empty());
        assert_eq!(
            v1.variables,
            [("controlPlaneDataTemplate".to_string(), json!("test1-cp"))]
        );
        // the second has no name: CAPI refuses it, and it is not read
        assert_eq!(v1.machine_deployments.len(), 1);
        let md = &v1.machine_deployments[0];
        assert_eq!(
            (md.class.as_str(), md.name.as_str(), md.replicas),
            ("worker", "md-0", Some(2))
        );
        assert_eq!(md.overrides, [("image".to_string(), json!({"url": "u"}))]);
        assert_eq!(md.field, "spec.topology.workers.machineDeployments[0]");

        let v2 = topology_of(
            json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
            "metadata": {"name": "test1", "namespace": "metal3"},
            "spec": {"topology": {"classRef": {"name": "metal3", "namespace": "classes"},
                "version": "v1.34.1",
                "controlPlane": {"variables": {"overrides": [{"name": "dt", "value": "cp-dt"}]}}}}}),
        )
        .expect("a topology");
        assert_eq!(
            (
                v2.class.as_str(),
                v2.class_namespace.as_str(),
                v2.class_field
            ),
            ("metal3", "classes", "spec.topology.classRef.name")
        );
        assert_eq!(
            v2.control_plane_overrides,
            [("dt".to_string(), json!("cp-dt"))]
        );
        assert!(
            topology_of(
                json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
            "metadata": {"name": "c"}, "spec": {"controlPlaneEndpoint": {"host": "h"}}})
            )
            .is_none()
        );
    }
}
