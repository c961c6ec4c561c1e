//! Cluster API `Cluster` (`cluster.x-k8s.io`) and CAPM3 `Metal3Cluster`
//! (`infrastructure.cluster.x-k8s.io`): the control-plane endpoint, which no host may be given
//! (SPEC §5 rule 4), and a Cluster's `spec.topology` (SPEC §11): the ClusterClass it is stamped
//! from and what the class's patches read of it.
//!
//! The topology in both versions: v1beta1 names its class by `topology.class` (and
//! `classNamespace`), v1beta2 by `topology.classRef {name, namespace}`, each version's spelling
//! only (the other's is a warning: the API server drops it); the class's namespace defaults to
//! the Cluster's. `topology.version`, `topology.variables[] {name, value}`,
//! `topology.controlPlane.{replicas, metadata, variables.overrides[]}` and
//! `topology.workers.machineDeployments[] {class, name, replicas, metadata,
//! variables.overrides[]}` are spelled alike in both. A field of another shape than its type is
//! an error naming it ([`super::shape`]).

use std::collections::BTreeMap;
use std::net::IpAddr;

use serde_json::Value;

use super::Object;
use super::shape::{Fields, is_v1beta2};
use super::value::is_template;
use super::view::View;
use crate::results::Finding;
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
    /// Its control-plane endpoint's address ([`endpoint`]), which the index reserves when the
    /// Cluster is read as the input is parsed (its tree then never held).
    pub endpoint: Option<String>,
}

/// `spec.topology`.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// The ClusterClass's name and namespace.
    pub class: String,
    pub class_namespace: String,
    /// Whether the class namespace is written; when it is not, it is the Cluster's own, set
    /// again when a Cluster read as it is parsed is placed ([`Cluster::place_class_namespace`]).
    pub class_namespace_given: bool,
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
    /// A class namespace that is not written is the Cluster's own: set again once the
    /// Cluster is placed in its namespace (`defaultNamespace` places one that sets none).
    pub(super) fn place_class_namespace(&mut self) {
        let namespace = &self.object.namespace;
        if let Some(t) = self.topology.as_mut().filter(|t| !t.class_namespace_given) {
            t.class_namespace.clone_from(namespace);
        }
    }

    /// Reads a Cluster's metadata, network and topology, each field as its version spells it,
    /// with an error in `findings` for a field of a shape the API server refuses and a warning
    /// for one spelled as the other version spells it. Read by the registry
    /// ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, value: View<'_>, findings: &mut Vec<Finding>) -> Cluster {
        let mut f = Fields { object, findings };
        let metadata = value.get("metadata");
        Cluster {
            object: object.clone(),
            metadata: ObjectMeta {
                labels: f.string_map(metadata.and_then(|m| m.get("labels")), "metadata.labels"),
                annotations: f.string_map(
                    metadata.and_then(|m| m.get("annotations")),
                    "metadata.annotations",
                ),
            },
            network: network(&mut f, value.at(&["spec", "clusterNetwork"])),
            topology: f
                .object(value.at(&["spec", "topology"]), "spec.topology")
                .and_then(|t| topology(&mut f, t)),
            endpoint: endpoint(value).map(str::to_string),
        }
    }
}

/// `labels` and `annotations` of an object's (or a topology part's) `metadata`, read as they
/// are (the reader of the object checks their shapes).
pub(crate) fn object_meta(meta: Option<View<'_>>) -> ObjectMeta {
    let map = |v: Option<View<'_>>| -> Option<BTreeMap<String, String>> {
        let v = v.filter(|v| !v.is_null())?;
        Some(
            v.entries()?
                .filter_map(|(k, v)| Some((k.into_owned(), v.as_str()?.to_string())))
                .collect(),
        )
    };
    ObjectMeta {
        labels: map(meta.and_then(|m| m.get("labels"))),
        annotations: map(meta.and_then(|m| m.get("annotations"))),
    }
}

fn network(f: &mut Fields<'_, '_>, n: Option<View<'_>>) -> Network {
    let at = "spec.clusterNetwork";
    let n = f.object(n, at);
    let get = |key: &str| n.and_then(|n| n.get(key));
    let blocks = |f: &mut Fields<'_, '_>, key: &str| {
        let field = format!("{at}.{key}");
        let r = f.object(get(key), &field);
        f.strings(
            r.and_then(|r| r.get("cidrBlocks")),
            &format!("{field}.cidrBlocks"),
        )
    };
    let services = blocks(f, "services");
    let pods = blocks(f, "pods");
    Network {
        service_domain: f
            .string(get("serviceDomain"), &format!("{at}.serviceDomain"))
            .unwrap_or_default()
            .to_string(),
        services,
        pods,
    }
}

/// `[{name, value}]` at `field` as (name, value) pairs; an item without a name is left out
/// (CAPI refuses it).
fn named_values(
    f: &mut Fields<'_, '_>,
    list: Option<View<'_>>,
    field: &str,
) -> Vec<(String, Value)> {
    f.objects(list, field)
        .into_iter()
        .filter_map(|(i, v)| {
            let name = f.string(v.get("name"), &format!("{field}[{i}].name"))?;
            Some((
                name.to_string(),
                v.get("value").map_or(Value::Null, View::to_value),
            ))
        })
        .collect()
}

fn topology(f: &mut Fields<'_, '_>, t: View<'_>) -> Option<Topology> {
    let object = f.object;
    let at = "spec.topology";
    let v1beta2 = is_v1beta2(object);
    // one spelling per version: the other version's is never read
    let (class, class_namespace, class_field) = if v1beta2 {
        f.other_spelling(
            t.get("class"),
            "spec.topology.class",
            "spec.topology.classRef.name",
        );
        f.other_spelling(
            t.get("classNamespace"),
            "spec.topology.classNamespace",
            "spec.topology.classRef.namespace",
        );
        let r = f.object(t.get("classRef"), "spec.topology.classRef");
        let name = f.string(r.and_then(|r| r.get("name")), "spec.topology.classRef.name");
        let ns = f.string(
            r.and_then(|r| r.get("namespace")),
            "spec.topology.classRef.namespace",
        );
        (name, ns, "spec.topology.classRef.name")
    } else {
        f.other_spelling(
            t.get("classRef"),
            "spec.topology.classRef",
            "spec.topology.class (and classNamespace)",
        );
        let name = f.string(t.get("class"), "spec.topology.class");
        let ns = f.string(t.get("classNamespace"), "spec.topology.classNamespace");
        (name, ns, "spec.topology.class")
    };
    let cp = f.object(t.get("controlPlane"), "spec.topology.controlPlane");
    let cp_get = |key: &str| cp.and_then(|c| c.get(key));
    let control_plane_replicas = f.int(cp_get("replicas"), "spec.topology.controlPlane.replicas");
    let control_plane_metadata = f.meta(cp_get("metadata"), "spec.topology.controlPlane.metadata");
    let cp_vars = f.object(cp_get("variables"), "spec.topology.controlPlane.variables");
    let control_plane_overrides = named_values(
        f,
        cp_vars.and_then(|v| v.get("overrides")),
        "spec.topology.controlPlane.variables.overrides",
    );
    let workers = f.object(t.get("workers"), "spec.topology.workers");
    let mds_field = "spec.topology.workers.machineDeployments";
    let mds = f.objects(workers.and_then(|w| w.get("machineDeployments")), mds_field);
    let mut machine_deployments = Vec::new();
    for (i, md) in mds {
        let field = format!("{mds_field}[{i}]");
        let class = f.string(md.get("class"), &format!("{field}.class"));
        let name = f.string(md.get("name"), &format!("{field}.name"));
        let replicas = f.int(md.get("replicas"), &format!("{field}.replicas"));
        let metadata = f.meta(md.get("metadata"), &format!("{field}.metadata"));
        let vars = f.object(md.get("variables"), &format!("{field}.variables"));
        let overrides = named_values(
            f,
            vars.and_then(|v| v.get("overrides")),
            &format!("{field}.variables.overrides"),
        );
        // CAPI refuses an entry without class or name: it is not read
        let (Some(class), Some(name)) = (
            class.filter(|c| !c.is_empty()),
            name.filter(|n| !n.is_empty()),
        ) else {
            continue;
        };
        machine_deployments.push(MachineDeploymentTopology {
            field,
            class: class.to_string(),
            name: name.to_string(),
            replicas,
            metadata,
            overrides,
        });
    }
    let version = f.string(t.get("version"), &format!("{at}.version"));
    let variables = named_values(f, t.get("variables"), &format!("{at}.variables"));
    let class = class.filter(|c| !c.is_empty())?;
    let class_namespace = class_namespace.filter(|n| !n.is_empty());
    Some(Topology {
        class: class.to_string(),
        class_namespace_given: class_namespace.is_some(),
        class_namespace: class_namespace.map_or_else(|| object.namespace.clone(), str::to_string),
        class_field,
        version: version.unwrap_or_default().to_string(),
        variables,
        control_plane_replicas,
        control_plane_metadata,
        control_plane_overrides,
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
        Cluster::read(&o, View::new(&doc), &mut Vec::new()).topology
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
