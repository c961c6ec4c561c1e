//! The pools of a Metal3DataTemplate, field by field against FACTS §2: one table of what each
//! field contributes, one of what is refused.

use serde_json::Value;

use super::{AnnotatedObject, DataTemplate, PoolName};
use crate::model::Object;
use crate::model::view::View;
use crate::results::Finding;

fn read_doc(yaml: &str) -> (Option<DataTemplate>, Vec<Finding>) {
    let docs = crate::yaml::parse(yaml).expect("test YAML parses");
    let value: Value = docs[0].root.to_json();
    let object = Object::of_json(crate::model::ItemId(0), &value).expect("an object");
    let mut findings = Vec::new();
    (
        DataTemplate::read(&object, View::new(&docs[0].root), &mut findings),
        findings,
    )
}

/// A template of `version` whose `spec` is `spec` (YAML, indented as under `spec:`).
fn template(version: &str, spec: &str) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/{version}\nkind: Metal3DataTemplate\n\
         metadata: {{name: t, namespace: ns}}\nspec:\n{spec}"
    )
}

fn read(version: &str, spec: &str) -> (Option<DataTemplate>, Vec<Finding>) {
    read_doc(&template(version, spec))
}

/// Each reference as `name @ field`: `name` is the pool (`(other)` after a non-Metal3 one),
/// or `@object:annotation` for an annotation.
fn described(t: &DataTemplate) -> Vec<String> {
    t.refs
        .iter()
        .map(|r| {
            let name = match &r.name {
                PoolName::Named(n) if r.metal3 => n.clone(),
                PoolName::Named(n) => format!("{n} (other)"),
                PoolName::FromAnnotation { object, annotation } => {
                    let o = match object {
                        AnnotatedObject::BareMetalHost => "baremetalhost",
                        AnnotatedObject::Other(o) => o,
                    };
                    format!("@{o}:{annotation}")
                }
            };
            format!("{name} @ {}", r.field)
        })
        .collect()
}

#[test]
fn every_pool_reference_field_of_facts_2() {
    let cases: &[(&str, &str, &str, &[&str])] = &[
        // ---- 1. metaData, v1beta1 spelling: the four lists in CAPM3's order ----
        (
            "v1beta1 metaData lists in CAPM3's order, whatever the YAML order",
            "v1beta1",
            "  metaData:
    dnsServersFromIPPool: [{key: d, name: dns, apiGroup: ipam.metal3.io, kind: IPPool}]
    gatewaysFromIPPool: [{key: g, name: gw, apiGroup: '', kind: ''}]
    prefixesFromIPPool: [{key: p, name: prefix, apiGroup: ipam.metal3.io, kind: IPPool}]
    ipAddressesFromIPPool: [{key: i, name: ip, apiGroup: ipam.metal3.io, kind: IPPool}]
",
            &[
                "ip @ spec.metaData.ipAddressesFromIPPool[0].name",
                "prefix @ spec.metaData.prefixesFromIPPool[0].name",
                "gw @ spec.metaData.gatewaysFromIPPool[0].name",
                "dns @ spec.metaData.dnsServersFromIPPool[0].name",
            ],
        ),
        (
            "v1beta1 metaData: the kind counts; group and kind default one by one",
            "v1beta1",
            "  metaData:
    ipAddressesFromIPPool:
    - {key: a, name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
    - {key: b, name: kind-only, kind: IPPool}
    - {key: c, name: group-only, apiGroup: ipam.metal3.io, kind: ''}
    - {key: d, name: foreign-group, apiGroup: example.com, kind: IPPool}
",
            &[
                "capi (other) @ spec.metaData.ipAddressesFromIPPool[0].name",
                "kind-only @ spec.metaData.ipAddressesFromIPPool[1].name",
                "group-only @ spec.metaData.ipAddressesFromIPPool[2].name",
                "foreign-group (other) @ spec.metaData.ipAddressesFromIPPool[3].name",
            ],
        ),
        (
            "v1beta1 reads only its own spelling of metaData",
            "v1beta1",
            "  metaData:
    ipAddressesFromPool: [{key: a, name: v1beta2-spelling}]
    prefixesFromIPPool: [{key: b, name: p, apiGroup: '', kind: ''}]
",
            &["p @ spec.metaData.prefixesFromIPPool[0].name"],
        ),
        // ---- 1. metaData, v1beta2 spelling ----
        (
            "v1beta2 metaData lists in CAPM3's order, every one a Metal3 pool",
            "v1beta2",
            "  metaData:
    dnsServersFromPool: [{key: d, name: dns}]
    gatewaysFromPool: [{key: g, name: gw}]
    prefixesFromPool: [{key: p, name: prefix, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}]
    ipAddressesFromPool: [{key: i, name: ip, apiGroup: ipam.metal3.io, kind: IPPool}]
    ipAddressesFromIPPool: [{key: x, name: v1beta1-spelling}]
",
            &[
                "ip @ spec.metaData.ipAddressesFromPool[0].name",
                "prefix @ spec.metaData.prefixesFromPool[0].name",
                "gw @ spec.metaData.gatewaysFromPool[0].name",
                "dns @ spec.metaData.dnsServersFromPool[0].name",
            ],
        ),
        // ---- 2. static networks ----
        (
            "ipv4 then ipv6 ipAddressFromIPPool, whatever the YAML order",
            "v1beta2",
            "  networkData:
    networks:
      ipv6: [{id: b, link: eth1, ipAddressFromIPPool: v6}]
      ipv4: [{id: a, link: eth0, ipAddressFromIPPool: v4}]
",
            &[
                "v4 @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
                "v6 @ spec.networkData.networks.ipv6[0].ipAddressFromIPPool",
            ],
        ),
        (
            "fromPoolRef wins over ipAddressFromIPPool; its kind counts",
            "v1beta1",
            "  networkData:
    networks:
      ipv4:
      - {id: a, link: eth0, fromPoolRef: {name: m3}, ipAddressFromIPPool: ignored-a}
      - id: b
        link: eth1
        fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
        ipAddressFromIPPool: ignored-b
      ipv6:
      - {id: c, link: eth2, fromPoolRef: {name: m3-v6, apiGroup: ipam.metal3.io, kind: IPPool}}
",
            &[
                "m3 @ spec.networkData.networks.ipv4[0].fromPoolRef.name",
                "capi (other) @ spec.networkData.networks.ipv4[1].fromPoolRef.name",
                "m3-v6 @ spec.networkData.networks.ipv6[0].fromPoolRef.name",
            ],
        ),
        (
            "a fromPoolRef without a name falls back to ipAddressFromIPPool",
            "v1beta1",
            "  networkData:
    networks:
      ipv4: [{id: a, link: eth0, fromPoolRef: {name: '', kind: IPPool}, ipAddressFromIPPool: fallback}]
",
            &["fallback @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool"],
        ),
        (
            "fromPoolAnnotation first, and the other reference of the network too",
            "v1beta2",
            "  networkData:
    networks:
      ipv4:
      - id: a
        link: eth0
        fromPoolAnnotation: {object: baremetalhost, annotation: example.com/pool}
        ipAddressFromIPPool: also
      ipv6:
      - id: b
        link: eth1
        fromPoolAnnotation: {object: BareMetalHost, annotation: example.com/v6}
        fromPoolRef: {name: ref-too}
",
            &[
                "@baremetalhost:example.com/pool @ spec.networkData.networks.ipv4[0].fromPoolAnnotation",
                "also @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
                "@baremetalhost:example.com/v6 @ spec.networkData.networks.ipv6[0].fromPoolAnnotation",
                "ref-too @ spec.networkData.networks.ipv6[0].fromPoolRef.name",
            ],
        ),
        (
            "fromPoolAnnotation on machine and metal3machine are kept as written; an empty one is unset",
            "v1beta2",
            "  networkData:
    networks:
      ipv4:
      - {id: a, link: eth0, fromPoolAnnotation: {object: machine, annotation: m}}
      - {id: b, link: eth1, fromPoolAnnotation: {object: metal3machine, annotation: m3m}}
      - {id: c, link: eth2, fromPoolAnnotation: {}, ipAddressFromIPPool: plain}
",
            &[
                "@machine:m @ spec.networkData.networks.ipv4[0].fromPoolAnnotation",
                "@metal3machine:m3m @ spec.networkData.networks.ipv4[1].fromPoolAnnotation",
                "plain @ spec.networkData.networks.ipv4[2].ipAddressFromIPPool",
            ],
        ),
        (
            "routes of static networks: gateway annotation, ref else fromIPPool, then DNS",
            "v1beta1",
            "  networkData:
    networks:
      ipv4:
      - id: a
        link: eth0
        ipAddressFromIPPool: net
        routes:
        - gateway: {fromIPPool: gw-a}
          services: {dnsFromIPPool: dns-a}
        - gateway:
            fromPoolAnnotation: {object: baremetalhost, annotation: gw}
            fromPoolRef: {name: gw-ref, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
            fromIPPool: ignored
      ipv6:
      - id: b
        link: eth1
        ipAddressFromIPPool: net6
        routes:
        - gateway: {fromIPPool: gw-6}
          services: {dnsFromIPPool: dns-6}
",
            &[
                "net @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
                "gw-a @ spec.networkData.networks.ipv4[0].routes[0].gateway.fromIPPool",
                "dns-a @ spec.networkData.networks.ipv4[0].routes[0].services.dnsFromIPPool",
                "@baremetalhost:gw @ spec.networkData.networks.ipv4[0].routes[1].gateway.fromPoolAnnotation",
                "gw-ref (other) @ spec.networkData.networks.ipv4[0].routes[1].gateway.fromPoolRef.name",
                "net6 @ spec.networkData.networks.ipv6[0].ipAddressFromIPPool",
                "gw-6 @ spec.networkData.networks.ipv6[0].routes[0].gateway.fromIPPool",
                "dns-6 @ spec.networkData.networks.ipv6[0].routes[0].services.dnsFromIPPool",
            ],
        ),
        // ---- 3. DHCP and SLAAC routes ----
        (
            "DHCP and SLAAC routes: ref else fromIPPool, DNS; no annotations there",
            "v1beta2",
            "  networkData:
    networks:
      ipv6SLAAC:
      - id: s
        link: eth3
        routes: [{gateway: {fromIPPool: slaac-gw}, services: {dnsFromIPPool: slaac-dns}}]
      ipv6DHCP:
      - id: d6
        link: eth2
        routes: [{gateway: {fromPoolRef: {name: d6-ref}, fromIPPool: ignored}}]
      ipv4DHCP:
      - id: d4
        link: eth1
        routes:
        - gateway:
            fromPoolAnnotation: {object: baremetalhost, annotation: not-read}
            fromIPPool: d4-gw
          services: {dnsFromIPPool: d4-dns}
",
            &[
                "d4-gw @ spec.networkData.networks.ipv4DHCP[0].routes[0].gateway.fromIPPool",
                "d4-dns @ spec.networkData.networks.ipv4DHCP[0].routes[0].services.dnsFromIPPool",
                "d6-ref @ spec.networkData.networks.ipv6DHCP[0].routes[0].gateway.fromPoolRef.name",
                "slaac-gw @ spec.networkData.networks.ipv6SLAAC[0].routes[0].gateway.fromIPPool",
                "slaac-dns @ spec.networkData.networks.ipv6SLAAC[0].routes[0].services.dnsFromIPPool",
            ],
        ),
        // ---- 4. global DNS ----
        (
            "networkData.services.dnsFromIPPool comes last",
            "v1beta2",
            "  networkData:
    services: {dnsFromIPPool: global-dns, dns: [8.8.8.8]}
    networks:
      ipv4: [{id: a, link: eth0, ipAddressFromIPPool: net}]
",
            &[
                "net @ spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
                "global-dns @ spec.networkData.services.dnsFromIPPool",
            ],
        ),
        // ---- one claim per pool name ----
        (
            "one pool referenced several times is one reference, at its first field",
            "v1beta2",
            "  metaData:
    prefixesFromPool: [{key: p, name: prov}]
    ipAddressesFromPool: [{key: i, name: prov}]
  networkData:
    services: {dnsFromIPPool: prov}
    networks:
      ipv4:
      - id: a
        link: eth0
        ipAddressFromIPPool: prov
        routes: [{gateway: {fromIPPool: prov}, services: {dnsFromIPPool: prov}}]
      ipv4DHCP:
      - {id: b, link: eth1, routes: [{gateway: {fromPoolRef: {name: prov, kind: IPPool}}}]}
",
            &["prov @ spec.metaData.ipAddressesFromPool[0].name"],
        ),
        (
            "empty names are no reference, as in CAPM3",
            "v1beta1",
            "  networkData:
    services: {dnsFromIPPool: ''}
    networks:
      ipv4:
      - id: a
        link: eth0
        ipAddressFromIPPool: ''
        routes: [{gateway: {fromIPPool: ''}, services: {dnsFromIPPool: ''}}]
",
            &[],
        ),
        (
            "no metaData, no networkData: no pools",
            "v1beta2",
            "  clusterName: c\n",
            &[],
        ),
    ];
    for (what, version, spec, want) in cases {
        let (t, findings) = read(version, spec);
        assert!(findings.is_empty(), "{what}: {findings:?}");
        let t = t.unwrap_or_else(|| panic!("{what}: not read"));
        assert_eq!(described(&t), *want, "{what}");
    }
}

#[test]
fn refusals_name_the_field() {
    // (what, version, spec, severity is error, field)
    let cases: &[(&str, &str, &str, bool, &str)] = &[
        (
            "one name as a Metal3 pool and as another kind",
            "v1beta1",
            "  networkData:
    networks:
      ipv4:
      - {id: a, link: eth0, ipAddressFromIPPool: p}
      - {id: b, link: eth1, fromPoolRef: {name: p, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}
",
            true,
            "spec.networkData.networks.ipv4[1].fromPoolRef.name",
        ),
        (
            "one name with two non-Metal3 kinds",
            "v1beta1",
            "  networkData:
    networks:
      ipv4:
      - {id: a, link: eth0, fromPoolRef: {name: p, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}
      - {id: b, link: eth1, fromPoolRef: {name: p, apiGroup: ipam.cluster.x-k8s.io, kind: GlobalInClusterIPPool}}
",
            true,
            "spec.networkData.networks.ipv4[1].fromPoolRef.name",
        ),
        (
            "an unrendered pool name skips the template",
            "v1beta1",
            "  metaData:
    ipAddressesFromIPPool: [{key: a, name: \"${CLUSTER}-pool\", apiGroup: '', kind: ''}]
",
            false,
            "spec.metaData.ipAddressesFromIPPool[0].name",
        ),
        (
            "an unrendered annotation key skips the template",
            "v1beta2",
            "  networkData:
    networks:
      ipv4: [{id: a, link: eth0, fromPoolAnnotation: {object: baremetalhost, annotation: '{{ key }}'}}]
",
            false,
            "spec.networkData.networks.ipv4[0].fromPoolAnnotation",
        ),
        (
            "a pool name that is not a string",
            "v1beta2",
            "  networkData:
    networks:
      ipv4: [{id: a, link: eth0, ipAddressFromIPPool: 5}]
",
            true,
            "spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
        ),
        (
            "a metaData list that is not a list",
            "v1beta2",
            "  metaData:
    ipAddressesFromPool: {key: a, name: p}
",
            true,
            "spec.metaData.ipAddressesFromPool",
        ),
        (
            "a fromPoolAnnotation without its annotation",
            "v1beta2",
            "  networkData:
    networks:
      ipv6: [{id: a, link: eth0, fromPoolAnnotation: {object: baremetalhost}}]
",
            true,
            "spec.networkData.networks.ipv6[0].fromPoolAnnotation.annotation",
        ),
        (
            "a route that is not a mapping",
            "v1beta1",
            "  networkData:
    networks:
      ipv4DHCP: [{id: a, link: eth0, routes: [gw]}]
",
            true,
            "spec.networkData.networks.ipv4DHCP[0].routes[0]",
        ),
    ];
    for (what, version, spec, error, field) in cases {
        let (t, findings) = read(version, spec);
        assert!(t.is_none(), "{what}: read anyway");
        assert_eq!(findings.len(), 1, "{what}: {findings:?}");
        let f = &findings[0];
        assert_eq!(f.is_error(), *error, "{what}: {f:?}");
        assert_eq!(
            f.field.as_ref().map(|p| p.path.as_str()),
            Some(*field),
            "{what}"
        );
        assert!(
            f.resource_ref.as_ref().is_some_and(|r| r.name == "t"),
            "{what}"
        );
    }
}

#[test]
fn two_kinds_message_names_both_fields_and_kinds() {
    let (_, findings) = read(
        "v1beta1",
        "  networkData:
    networks:
      ipv4:
      - {id: a, link: eth0, ipAddressFromIPPool: p}
      - {id: b, link: eth1, fromPoolRef: {name: p, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}}
",
    );
    let text = &findings[0].message;
    for part in [
        "spec.networkData.networks.ipv4[0].ipAddressFromIPPool",
        "spec.networkData.networks.ipv4[1].fromPoolRef.name",
        "ipam.metal3.io/IPPool",
        "ipam.cluster.x-k8s.io/InClusterIPPool",
    ] {
        assert!(text.contains(part), "{text}");
    }
}

#[test]
fn first_metal3_pool_skips_other_kinds_and_stops_at_an_annotation() {
    let (t, _) = read(
        "v1beta1",
        "  networkData:
    networks:
      ipv4:
      - fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
      - fromPoolAnnotation: {object: machine, annotation: pool}
      - ipAddressFromIPPool: later
",
    );
    let t = t.expect("read");
    assert_eq!(t.first_metal3_pool(), None);
    let (t, _) = read(
        "v1beta1",
        "  networkData:
    networks:
      ipv4:
      - fromPoolRef: {name: capi, apiGroup: ipam.cluster.x-k8s.io, kind: InClusterIPPool}
      - ipAddressFromIPPool: first
",
    );
    assert_eq!(t.expect("read").first_metal3_pool(), Some("first"));
}

#[test]
fn annotated_objects_capm3_knows() {
    assert!(AnnotatedObject::BareMetalHost.known());
    assert!(AnnotatedObject::Other("Machine".into()).known());
    assert!(AnnotatedObject::Other("metal3machine".into()).known());
    assert!(!AnnotatedObject::Other("node".into()).known());
}
