//! Metal3MachineTemplate in both versions: the host selector and the data template it names,
//! and every refusal at its field.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{DataTemplateRef, MachineTemplate};
use crate::model::view::View;
use crate::model::{ItemId, Object};
use crate::results::Finding;

fn read(
    version: &str,
    namespace: &str,
    template_spec: &str,
) -> (Option<MachineTemplate>, Vec<Finding>) {
    let yaml = format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/{version}\nkind: Metal3MachineTemplate\n\
         metadata:\n  name: workers\n{namespace}spec:\n  template:\n    spec:\n{template_spec}"
    );
    let docs = crate::yaml::parse(&yaml).expect("test YAML parses");
    let value: Value = docs[0].root.to_json();
    let object = Object::of_json(ItemId(0), &value).expect("an object");
    let mut findings = Vec::new();
    (
        MachineTemplate::read(&object, View::new(&docs[0].root), &mut findings),
        findings,
    )
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn both_versions_read_selector_and_data_template() {
    for version in ["v1beta1", "v1beta2"] {
        let (t, findings) = read(
            version,
            "  namespace: lab\n",
            "      dataTemplate:\n        name: workers-template\n      hostSelector:\n        matchLabels: {role: worker}\n        matchExpressions:\n        - {key: rack, operator: in, values: [r1, r2]}\n      image: {url: http://x/img.raw, checksum: abc, diskFormat: raw}\n",
        );
        assert!(findings.is_empty(), "{version}: {findings:?}");
        let t = t.expect("read");
        assert_eq!(
            t.data_template,
            Some(DataTemplateRef {
                name: "workers-template".into(),
                namespace: "lab".into()
            }),
            "{version}: the namespace defaults to the machine template's"
        );
        let s = t.host_selector.expect("a selector");
        assert!(s.matches(&labels(&[("role", "worker"), ("rack", "r2")])));
        assert!(!s.matches(&labels(&[("role", "worker"), ("rack", "r3")])));
    }
}

#[test]
fn data_template_namespace_as_written_or_defaulted() {
    // (metadata.namespace line, dataTemplate, expected namespace)
    let cases = [
        ("  namespace: lab\n", "{name: t, namespace: lab}", "lab"),
        ("", "{name: t}", "default"),
        ("", "{name: t, namespace: default}", "default"),
        // v1beta1's object reference: the other fields are ignored, as CAPM3 ignores them.
        (
            "  namespace: lab\n",
            "{name: t, kind: Metal3DataTemplate, apiVersion: x/y, namespace: ''}",
            "lab",
        ),
    ];
    for (ns, data, want) in cases {
        let (t, findings) = read("v1beta1", ns, &format!("      dataTemplate: {data}\n"));
        assert!(findings.is_empty(), "{data}: {findings:?}");
        let r = t.expect("read").data_template.expect("a data template");
        assert_eq!(
            (r.name.as_str(), r.namespace.as_str()),
            ("t", want),
            "{data}"
        );
    }
}

#[test]
fn without_selector_or_data_template() {
    let (t, findings) = read("v1beta2", "  namespace: lab\n", "      image: {url: x}\n");
    assert!(findings.is_empty());
    let t = t.expect("read");
    assert!(t.data_template.is_none(), "no dataTemplate: no pools");
    let s = t.host_selector.expect("a selector");
    assert!(s.is_empty(), "no hostSelector: every host");
    assert!(s.matches(&labels(&[])));
}

#[test]
fn refusals_name_the_template_and_field() {
    // (template spec, field of the one error, words of the message)
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "      dataTemplate: {name: t, namespace: elsewhere}\n",
            "spec.template.spec.dataTemplate.namespace",
            &["\"elsewhere\"", "\"lab\"", "IP claims"],
        ),
        (
            "      dataTemplate: {namespace: lab}\n",
            "spec.template.spec.dataTemplate.name",
            &["is missing"],
        ),
        (
            "      dataTemplate: {name: 7}\n",
            "spec.template.spec.dataTemplate.name",
            &["not a string"],
        ),
        (
            "      dataTemplate: workers-template\n",
            "spec.template.spec.dataTemplate",
            &["not a reference"],
        ),
        (
            "      hostSelector:\n        matchExpressions: [{key: role, operator: DoesNotExist, values: []}]\n",
            "spec.template.spec.hostSelector.matchExpressions[0].operator",
            &["\"!\"", "chooses no host"],
        ),
        (
            "      hostSelector:\n        matchLabels: {example.com/role: 'a b'}\n",
            "spec.template.spec.hostSelector.matchLabels.[example.com/role]",
            &["not a valid label value"],
        ),
        (
            "      hostSelector: role=worker\n",
            "spec.template.spec.hostSelector",
            &["must be a label selector"],
        ),
    ];
    for (spec, field, says) in cases {
        let (t, findings) = read("v1beta2", "  namespace: lab\n", spec);
        let t = t.unwrap_or_else(|| panic!("{spec}: the template is still read"));
        if field.ends_with(".namespace") {
            assert_eq!(
                t.data_template.map(|r| r.namespace),
                Some("elsewhere".to_string()),
                "the reference is kept, so that the mapping can find it"
            );
        }
        assert_eq!(findings.len(), 1, "{spec}: {findings:?}");
        let f = &findings[0];
        assert!(f.is_error(), "{spec}");
        assert_eq!(
            f.field.as_ref().map(|p| p.path.as_str()),
            Some(*field),
            "{spec}"
        );
        assert!(
            f.is_on("Metal3MachineTemplate", "lab", "workers"),
            "{}",
            f.message
        );
        for s in *says {
            assert!(f.message.contains(s), "{spec}: {}", f.message);
        }
    }
}

#[test]
fn an_unrendered_field_skips_the_template_with_a_warning() {
    let cases = [
        (
            "      dataTemplate: {name: '${CLUSTER_NAME}-workers-template'}\n",
            "spec.template.spec.dataTemplate.name",
        ),
        (
            "      hostSelector:\n        matchLabels: {role: '{{ role }}'}\n",
            "spec.template.spec.hostSelector.matchLabels.role",
        ),
        (
            "      hostSelector:\n        matchExpressions: [{key: rack, operator: in, values: [r1, '${RACK}']}]\n",
            "spec.template.spec.hostSelector.matchExpressions[0].values[1]",
        ),
    ];
    for (spec, field) in cases {
        let (t, findings) = read("v1beta1", "  namespace: lab\n", spec);
        assert!(t.is_none(), "{spec}");
        assert_eq!(findings.len(), 1, "{spec}: {findings:?}");
        assert!(!findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|p| p.path.as_str()),
            Some(field)
        );
    }
}
