use serde_json::Value;

use super::{AnnotatedObject, DataTemplate, PoolName};
use crate::model::Object;
use crate::results::Finding;

fn read(yaml: &str) -> (Option<DataTemplate>, Vec<Finding>) {
    let docs = crate::yaml::parse(yaml).expect("test YAML parses");
    let value: Value = docs[0].root.to_json();
    let object = Object::read(crate::model::ItemId(0), &value).expect("an object");
    let mut findings = Vec::new();
    (DataTemplate::read(&object, &value, &mut findings), findings)
}

fn names(t: &DataTemplate) -> Vec<String> {
    t.refs
        .iter()
        .map(|r| match &r.name {
            PoolName::Named(n) => format!("{n}{}", if r.metal3 { "" } else { " (other)" }),
            PoolName::FromAnnotation { annotation, .. } => format!("@{annotation}"),
        })
        .collect()
}

#[test]
fn references_come_in_capm3_collection_order_once_per_name() {
    let (t, findings) = read(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata: {name: t, namespace: ns}
spec:
  networkData:
    services: {dnsFromIPPool: dns-pool}
    networks:
      ipv4DHCP:
      - id: dhcp
        link: eth9
        routes:
        - gateway: {fromIPPool: dhcp-gw}
          services: {dnsFromIPPool: dhcp-dns}
      ipv6:
      - id: v6
        link: eth1
        ipAddressFromIPPool: v6-pool
      ipv4:
      - id: prov
        link: eth0
        fromPoolAnnotation: {object: baremetalhost, annotation: example.com/prov-pool}
        ipAddressFromIPPool: prov-pool
        routes:
        - gateway: {fromPoolRef: {name: gw-pool, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}
          services: {dnsFromIPPool: prov-pool}
      - id: ext
        link: eth2
        fromPoolRef: {name: ext-pool}
        ipAddressFromIPPool: ignored-when-a-ref-is-set
  metaData:
    gatewaysFromIPPool: [{key: gw, name: prov-pool}]
    ipAddressesFromIPPool: [{key: ip, name: meta-pool}]
",
    );
    assert!(findings.is_empty(), "{findings:?}");
    let t = t.expect("read");
    assert_eq!(
        names(&t),
        [
            "meta-pool",
            "prov-pool",
            "@example.com/prov-pool",
            "gw-pool (other)",
            "ext-pool",
            "v6-pool",
            "dhcp-gw",
            "dhcp-dns",
            "dns-pool"
        ]
    );
    assert_eq!(t.first_metal3_pool(), Some("meta-pool"));
    let annotated = t
        .refs
        .iter()
        .find(|r| matches!(r.name, PoolName::FromAnnotation { .. }))
        .expect("annotation ref");
    assert_eq!(
        annotated.name,
        PoolName::FromAnnotation {
            object: AnnotatedObject::BareMetalHost,
            annotation: "example.com/prov-pool".into()
        }
    );
    assert_eq!(
        annotated.field,
        "spec.networkData.networks.ipv4[0].fromPoolAnnotation"
    );
}

#[test]
fn v1beta2_metadata_pools_are_metal3_whatever_their_kind() {
    let (t, _) = read(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3DataTemplate
metadata: {name: t}
spec:
  metaData:
    ipAddressesFromPool: [{key: a, name: p, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}]
    ipAddressesFromIPPool: [{key: b, name: v1beta1-spelling-is-not-read}]
",
    );
    let t = t.expect("read");
    assert_eq!(names(&t), ["p"]);
    assert_eq!(t.refs[0].field, "spec.metaData.ipAddressesFromPool[0].name");
}

#[test]
fn first_metal3_pool_skips_other_kinds_and_stops_at_an_annotation() {
    let (t, _) = read(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata: {name: t}
spec:
  networkData:
    networks:
      ipv4:
      - fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
      - fromPoolAnnotation: {object: machine, annotation: pool}
      - ipAddressFromIPPool: later
",
    );
    let t = t.expect("read");
    assert_eq!(names(&t), ["capi (other)", "@pool", "later"]);
    assert_eq!(t.first_metal3_pool(), None);
}

#[test]
fn one_name_with_two_kinds_is_an_error_naming_both_fields() {
    let (t, findings) = read(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata: {name: t, namespace: ns}
spec:
  networkData:
    networks:
      ipv4:
      - ipAddressFromIPPool: p
      - fromPoolRef: {name: p, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
",
    );
    assert!(t.is_none());
    assert_eq!(findings.len(), 1);
    let f = &findings[0];
    assert!(f.is_error());
    let text = format!("{f:?}");
    assert!(
        text.contains("spec.networkData.networks.ipv4[0].ipAddressFromIPPool")
            && text.contains("spec.networkData.networks.ipv4[1].fromPoolRef.name"),
        "{text}"
    );
}

#[test]
fn an_unrendered_pool_name_skips_the_template_with_a_warning() {
    let (t, findings) = read(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata: {name: t}
spec:
  metaData:
    ipAddressesFromIPPool: [{key: a, name: \"${CLUSTER}-pool\"}]
",
    );
    assert!(t.is_none());
    assert_eq!(findings.len(), 1);
    assert!(!findings[0].is_error());
    assert!(format!("{:?}", findings[0]).contains("spec.metaData.ipAddressesFromIPPool[0].name"));
}
