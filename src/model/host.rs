//! BareMetalHost (`metal3.io/v1alpha1`): the names claims are made from, labels, pins.

use std::collections::BTreeMap;

use serde_json::Value;

use super::labels::kind_of;
use super::value::{Reported, is_template, read_text, string_map};
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// Prefix of the pin annotation: `ipreuse.dev/ip.{pool-name}: <address>`.
pub const PIN_PREFIX: &str = "ipreuse.dev/ip.";

/// A BareMetalHost as the function reads it.
#[derive(Debug, Clone)]
pub struct Host {
    pub object: Object,
    pub labels: BTreeMap<String, String>,
    /// Every annotation (a Metal3DataTemplate's `fromPoolAnnotation` may name its pool).
    pub annotations: BTreeMap<String, String>,
    /// Pins: pool name → address text, from `ipreuse.dev/ip.{pool}` annotations.
    pub pins: BTreeMap<String, String>,
}

impl Host {
    /// Reads a host; `None` (with a warning) when a field it needs is an unrendered template.
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Host> {
        let annotations: BTreeMap<String, String> = string_map(value, &["metadata", "annotations"])
            .into_iter()
            .collect();
        let pins: BTreeMap<String, String> = annotations
            .iter()
            .filter_map(|(k, v)| {
                k.strip_prefix(PIN_PREFIX)
                    .map(|p| (p.to_string(), v.clone()))
            })
            .collect();
        let mut fields: Vec<(String, &str)> = vec![
            ("metadata.name".into(), object.name.as_str()),
            ("metadata.namespace".into(), object.namespace.as_str()),
        ];
        for (pool, addr) in &pins {
            fields.push((
                crate::results::key_path("metadata.annotations", &format!("{PIN_PREFIX}{pool}")),
                addr,
            ));
        }
        if let Some((field, text)) = fields.iter().find(|(_, t)| is_template(t)) {
            findings.push(skipped_for_template(object, field, text));
            return None;
        }
        Some(Host {
            object: object.clone(),
            labels: string_map(value, &["metadata", "labels"])
                .into_iter()
                .collect(),
            annotations,
            pins,
        })
    }

    pub fn name(&self) -> &str {
        &self.object.name
    }
}

/// `spec.consumerRef` of a BareMetalHost: the object that uses the host, its Metal3Machine while
/// it is provisioned (it may be absent, or name the Cluster while a host waits for node reuse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumerRef {
    pub kind: Option<String>,
    pub name: Option<String>,
    /// `namespace` as written (`None`: the host's own).
    pub namespace: Option<String>,
}

/// Reads `spec.consumerRef`. Apart from [`Host::read`]: only adoption follows it, as the way
/// back from a Metal3Machine that lacks the `metal3.io/BareMetalHost` annotation. An error
/// naming the field when it or one of its values has the wrong type.
pub fn read_consumer(
    object: &Object,
    value: &Value,
    findings: &mut Vec<Finding>,
) -> Result<Option<ConsumerRef>, Reported> {
    match value.pointer("/spec/consumerRef") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(_)) => {}
        Some(other) => {
            findings.push(
                Finding::error(format!(
                    "{}: spec.consumerRef is {}, not an object reference; fix it, or leave the \
                     BareMetalHost out of the input",
                    object.display(),
                    kind_of(other)
                ))
                .on(object.resource_ref())
                .at("spec.consumerRef"),
            );
            return Err(Reported);
        }
    }
    let mut text = |key: &str| read_text(object, value, &["spec", "consumerRef", key], findings);
    Ok(Some(ConsumerRef {
        kind: text("kind")?,
        name: text("name")?,
        namespace: text("namespace")?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn consumer(spec: Value) -> (Result<Option<ConsumerRef>, Reported>, Vec<Finding>) {
        let v = json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
            "metadata": {"name": "node-1", "namespace": "lab"}, "spec": spec});
        let object = Object::read(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        (read_consumer(&object, &v, &mut findings), findings)
    }

    #[test]
    fn the_consumer_ref_is_read_as_written() {
        let (c, findings) = consumer(json!({"consumerRef": {
            "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Machine",
            "name": "workers-abc", "namespace": "lab"}}));
        assert!(findings.is_empty());
        assert_eq!(
            c,
            Ok(Some(ConsumerRef {
                kind: Some("Metal3Machine".into()),
                name: Some("workers-abc".into()),
                namespace: Some("lab".into())
            }))
        );
        assert_eq!(consumer(json!({"online": true})).0, Ok(None));
    }

    #[test]
    fn a_bad_consumer_ref_is_an_error_naming_the_field() {
        for (spec, field) in [
            (json!({"consumerRef": "workers-abc"}), "spec.consumerRef"),
            (json!({"consumerRef": {"name": 1}}), "spec.consumerRef.name"),
        ] {
            let (c, findings) = consumer(spec);
            assert_eq!(c, Err(Reported));
            assert!(findings[0].is_error());
            assert_eq!(
                findings[0].field.as_ref().map(|f| f.path.as_str()),
                Some(field)
            );
        }
    }
}
