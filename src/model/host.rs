//! BareMetalHost (`metal3.io/v1alpha1`): the names claims are made from, labels, pins.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::labels::LabelMap;
use super::value::{Reported, is_template, read_viewed};
use super::view::View;
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// Prefix of the pin annotation: `ipreuse.dev/ip.{pool-name}: <address>`.
pub const PIN_PREFIX: &str = "ipreuse.dev/ip.";

/// A BareMetalHost as the function reads it.
#[derive(Debug, Clone)]
pub struct Host {
    /// Shared with the index ([`super::Index::objects`]).
    pub object: Arc<Object>,
    /// Its labels, in the one compact type every kind's labels are held in.
    pub labels: LabelMap<String>,
    /// Every annotation (a Metal3DataTemplate's `fromPoolAnnotation` may name its pool).
    pub annotations: BTreeMap<String, String>,
    /// Pins: pool name → address text, from `ipreuse.dev/ip.{pool}` annotations.
    pub pins: BTreeMap<String, String>,
    /// `spec.consumerRef`, or the error about it that adoption reports when it follows it
    /// ([`read_consumer`]).
    pub consumer: Consumer,
}

/// `spec.consumerRef` as read: `None` when absent or null; `Err` holds the error naming the
/// field.
pub type Consumer = Result<Option<ConsumerRef>, Box<Finding>>;

super::ids::indexes!(super::ids::HostId => Host);

impl Host {
    /// Reads a host; `None` (with a warning) when a field it needs is an unrendered template.
    /// Its `spec.consumerRef` is read too, and a problem with it kept for adoption to report
    /// ([`read_consumer`]): only adoption follows it.
    pub fn read(
        object: &Arc<Object>,
        value: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<Host> {
        let metadata = value.get("metadata");
        let map = |key: &str| metadata.and_then(|m| m.get(key)).map(View::string_map);
        let annotations: BTreeMap<String, String> =
            map("annotations").unwrap_or_default().into_iter().collect();
        let pins = pins_of(&annotations);
        // The first field, in this order, that is an unrendered template.
        let identity = [
            ("metadata.name", object.name.as_str()),
            ("metadata.namespace", object.namespace.as_str()),
        ];
        let template = identity
            .into_iter()
            .find(|(_, t)| is_template(t))
            .map(|(field, t)| (field.to_string(), t))
            .or_else(|| {
                pins.iter().find(|(_, a)| is_template(a)).map(|(pool, a)| {
                    let key = format!("{PIN_PREFIX}{pool}");
                    (
                        crate::results::key_path("metadata.annotations", &key),
                        a.as_str(),
                    )
                })
            });
        if let Some((field, text)) = template {
            findings.push(skipped_for_template(object, &field, text));
            return None;
        }
        let consumer = consumer_of(object, value.at(&["spec", "consumerRef"]));
        Some(Host {
            object: Arc::clone(object),
            labels: map("labels").unwrap_or_default().into_iter().collect(),
            annotations,
            pins,
            consumer,
        })
    }

    pub fn name(&self) -> &str {
        &self.object.name
    }
}

/// Pins: pool name → address text, from the `ipreuse.dev/ip.{pool}` annotations.
fn pins_of(annotations: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    annotations
        .iter()
        .filter_map(|(k, v)| {
            k.strip_prefix(PIN_PREFIX)
                .map(|p| (p.to_string(), v.clone()))
        })
        .collect()
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

/// `spec.consumerRef` of a host, for adoption: the reference, or the error the host's reader
/// kept about it (a value of the wrong type, naming the field), reported here, when adoption
/// follows it.
pub fn read_consumer(
    host: &Host,
    findings: &mut Vec<Finding>,
) -> Result<Option<ConsumerRef>, Reported> {
    match &host.consumer {
        Ok(c) => Ok(c.clone()),
        Err(problem) => {
            findings.push((**problem).clone());
            Err(Reported)
        }
    }
}

/// Reads `spec.consumerRef` (see [`read_consumer`]).
fn consumer_of(object: &Object, found: Option<View<'_>>) -> Consumer {
    let Some(consumer) = found.filter(|c| !c.is_null()) else {
        return Ok(None);
    };
    if !consumer.is_object() {
        return Err(Box::new(
            Finding::error(format!(
                "this field is {}, not an object reference; fix it, or leave the BareMetalHost out \
                 of the input",
                consumer.kind_of()
            ))
            .on(object.resource_ref())
            .at("spec.consumerRef"),
        ));
    }
    let text = |key: &str| {
        let mut problem = Vec::new();
        let read = read_viewed(
            object,
            consumer.get(key),
            || format!("spec.consumerRef.{key}"),
            &mut problem,
        );
        read.map_err(|Reported| Box::new(problem.remove(0)))
    };
    Ok(Some(ConsumerRef {
        kind: text("kind")?,
        name: text("name")?,
        namespace: text("namespace")?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn consumer(spec: Value) -> (Result<Option<ConsumerRef>, Reported>, Vec<Finding>) {
        let v = json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
            "metadata": {"name": "node-1", "namespace": "lab"}, "spec": spec});
        let doc = crate::model::view::node_of(&v);
        let view = View::new(&doc);
        let object = Object::read(crate::model::ItemId(0), view).expect("an object");
        let mut findings = Vec::new();
        let host = Host::read(&Arc::new(object), view, &mut findings).expect("a host");
        (read_consumer(&host, &mut findings), findings)
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
