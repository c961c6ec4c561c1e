use serde_json::Value;

use super::{Deployment, ImageRef};
use crate::model::Object;
use crate::model::view::View;
use crate::results::Finding;

fn read(yaml: &str) -> (Deployment, Vec<Finding>) {
    let docs = crate::yaml::parse(yaml).expect("test YAML parses");
    let value: Value = docs[0].root.to_json();
    let object = Object::of_json(crate::model::ItemId(0), &value).expect("an object");
    let mut findings = Vec::new();
    (
        Deployment::read(&object, View::new(&docs[0].root), &mut findings),
        findings,
    )
}

/// (image, name, tag, digest, repository)
type ImageCase<'a> = (&'a str, &'a str, Option<&'a str>, Option<&'a str>, &'a str);

#[test]
fn image_references_split_into_name_tag_and_digest() {
    let cases: &[ImageCase] = &[
        (
            "quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0",
            "quay.io/metal3-io/cluster-api-provider-metal3",
            Some("v1.13.0"),
            None,
            "cluster-api-provider-metal3",
        ),
        (
            "quay.io/metal3-io/cluster-api-provider-metal3@sha256:0123abcd",
            "quay.io/metal3-io/cluster-api-provider-metal3",
            None,
            Some("sha256:0123abcd"),
            "cluster-api-provider-metal3",
        ),
        (
            "quay.io/metal3-io/cluster-api-provider-metal3:v1.12.7@sha256:0123abcd",
            "quay.io/metal3-io/cluster-api-provider-metal3",
            Some("v1.12.7"),
            Some("sha256:0123abcd"),
            "cluster-api-provider-metal3",
        ),
        // a registry port is not a tag
        (
            "reg:5000/x/cluster-api-provider-metal3:v1.9.0",
            "reg:5000/x/cluster-api-provider-metal3",
            Some("v1.9.0"),
            None,
            "cluster-api-provider-metal3",
        ),
        (
            "reg:5000/x/cluster-api-provider-metal3",
            "reg:5000/x/cluster-api-provider-metal3",
            None,
            None,
            "cluster-api-provider-metal3",
        ),
        (
            "reg:5000/capm3@sha256:ff",
            "reg:5000/capm3",
            None,
            Some("sha256:ff"),
            "capm3",
        ),
        (
            "controller:latest",
            "controller",
            Some("latest"),
            None,
            "controller",
        ),
        ("controller", "controller", None, None, "controller"),
        ("", "", None, None, ""),
        (
            "quay.io/metal3-io/ip-address-manager:v1.8.0",
            "quay.io/metal3-io/ip-address-manager",
            Some("v1.8.0"),
            None,
            "ip-address-manager",
        ),
    ];
    for &(image, name, tag, digest, repository) in cases {
        let r = ImageRef::parse(image);
        assert_eq!(
            r,
            ImageRef { name, tag, digest },
            "{image:?} splits into name, tag and digest"
        );
        assert_eq!(r.repository(), repository, "{image:?}");
    }
}

#[test]
fn containers_args_and_command_are_read_with_positions() {
    let (d, findings) = read(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: capm3-controller-manager
  namespace: capm3-system
  labels: {cluster.x-k8s.io/provider: infrastructure-metal3}
spec:
  template:
    spec:
      containers:
      - name: manager
        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0
        command: [/manager]
        args: [\"--webhook-port=9443\", \"--enable-bmh-name-based-preallocation=false\"]
      - name: sidecar
",
    );
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(
        d.labels
            .get("cluster.x-k8s.io/provider")
            .map(String::as_str),
        Some("infrastructure-metal3")
    );
    let m = d.container("manager").expect("the manager container");
    assert_eq!(m.field(), "spec.template.spec.containers[0]");
    let all: Vec<(&str, usize, &str)> = m.all_args().collect();
    assert_eq!(
        all,
        [
            ("command", 0, "/manager"),
            ("args", 0, "--webhook-port=9443"),
            ("args", 1, "--enable-bmh-name-based-preallocation=false"),
        ]
    );
    let sidecar = d.container("sidecar").expect("the sidecar");
    assert!(sidecar.args.is_none() && sidecar.command.is_none() && sidecar.image.is_none());
}

#[test]
fn bad_shapes_are_warnings_naming_the_field() {
    let (d, findings) = read(
        "apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - name: a
        args: [\"--x\", 5]
      - just-a-string
      - name: c
        command: /manager
",
    );
    let fields: Vec<&str> = findings
        .iter()
        .filter_map(|f| f.field.as_ref().map(|f| f.path.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            "spec.template.spec.containers[0].args[1]",
            "spec.template.spec.containers[1]",
            "spec.template.spec.containers[2].command",
        ]
    );
    let a = d.container("a").expect("a");
    let args = a.args.as_ref().expect("args");
    assert_eq!((args.items.len(), args.len), (1, 2));
    assert_eq!(d.containers.len(), 2, "the string item is not a container");

    let (d, findings) = read(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: {containers: {}}}}\n",
    );
    assert!(d.containers.is_empty());
    assert_eq!(
        findings[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.template.spec.containers")
    );
}
