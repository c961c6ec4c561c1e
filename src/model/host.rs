//! BareMetalHost (`metal3.io/v1alpha1`): the names claims are made from, labels, pins.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::value::{Reported, is_template, read_viewed};
use super::view::View;
use super::{Object, skipped_for_template};
use crate::results::Finding;
use crate::selector::Selector;

/// Prefix of the pin annotation: `ipreuse.dev/ip.{pool-name}: <address>`.
pub const PIN_PREFIX: &str = "ipreuse.dev/ip.";

/// A BareMetalHost as the function reads it.
#[derive(Debug, Clone)]
pub struct Host {
    /// Shared with the index ([`super::Index::objects`]).
    pub object: Arc<Object>,
    pub labels: HostLabels,
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

/// A host's labels, key → value: sorted by key in one block of exactly their size. A run holds
/// every host's at once, and a `BTreeMap` of one label takes 540 bytes where this takes 48 (its
/// strings apart); kube-core's selectors match a `BTreeMap`, built for the call
/// ([`HostLabels::selected_by`]) and only when the selector has a requirement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostLabels(Box<[(String, String)]>);

impl HostLabels {
    /// The value of label `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        let i = self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        Some(&self.0[i].1)
    }

    /// The labels in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether `selector` selects a host with these labels.
    pub fn selected_by(&self, selector: &Selector) -> bool {
        selector.is_empty() || selector.matches(&self.0.iter().cloned().collect())
    }
}

impl FromIterator<(String, String)> for HostLabels {
    /// As a `BTreeMap` collects: in key order, the last value of a key repeated wins.
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> HostLabels {
        let mut pairs: Vec<(String, String)> = iter.into_iter().collect();
        // stable: of equal keys the last written is the last here, and is the one kept
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.reverse();
        pairs.dedup_by(|later, kept| later.0 == kept.0);
        pairs.reverse();
        HostLabels(pairs.into_boxed_slice())
    }
}

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
                "{}: spec.consumerRef is {}, not an object reference; fix it, or leave the \
                 BareMetalHost out of the input",
                object.display(),
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

    /// `HostLabels` reads as the `BTreeMap` it replaces: the same pairs in the same order, the
    /// same lookups, and the same answer from every selector.
    #[test]
    fn host_labels_read_as_a_btree_map() {
        let written = [
            ("rack", "r2"),
            ("role", "worker"),
            ("a", "1"),
            ("rack", "r3"),
            ("z", ""),
        ];
        let pairs = written.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        let labels: HostLabels = pairs.clone().collect();
        let map: BTreeMap<String, String> = pairs.collect();
        let listed: Vec<(&str, &str)> = labels.iter().collect();
        let meant: Vec<(&str, &str)> = map.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(listed, meant);
        for key in ["rack", "role", "a", "z", "b", ""] {
            assert_eq!(labels.get(key), map.get(key).map(String::as_str), "{key}");
        }
        for text in [
            "",
            "rack=r3",
            "rack=r2",
            "role in (worker),!absent",
            "z",
            "!z",
            "a!=1",
        ] {
            let selector = Selector::parse(text).expect("a selector");
            assert_eq!(
                labels.selected_by(&selector),
                selector.matches(&map),
                "{text}"
            );
            assert_eq!(
                HostLabels::default().selected_by(&selector),
                selector.matches(&BTreeMap::new()),
                "{text}"
            );
        }
    }
}
