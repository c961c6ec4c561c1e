//! BareMetalHost (`metal3.io/v1alpha1`): the names claims are made from, labels, pins.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::json::kind_of;
use super::value::{Reported, is_template, read_found, string_map};
use super::{BMO_GROUP, ItemId, LOCAL_CONFIG, Object, group_of, skipped_for_template};
use crate::results::Finding;
use crate::selector::Selector;
use crate::yaml::Node;

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
    /// `spec.consumerRef` as written, read by [`read_consumer`] only when adoption asks: a run
    /// keeps no host's JSON value ([`super::index_items`]).
    pub consumer_ref: Option<Value>,
}

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
    pub fn read(object: &Arc<Object>, value: &Value, findings: &mut Vec<Finding>) -> Option<Host> {
        let annotations: BTreeMap<String, String> = string_map(value, &["metadata", "annotations"])
            .into_iter()
            .collect();
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
        Some(Host {
            object: Arc::clone(object),
            labels: string_map(value, &["metadata", "labels"])
                .into_iter()
                .collect(),
            annotations,
            pins,
            consumer_ref: value
                .get("spec")
                .and_then(|s| s.get("consumerRef"))
                .filter(|c| !c.is_null())
                .cloned(),
        })
    }

    pub fn name(&self) -> &str {
        &self.object.name
    }

    /// Reads a BareMetalHost straight from its tree, with no JSON value, when all the function
    /// reads of it is plainly written: a root and a `metadata` mapping without merge keys;
    /// `apiVersion`, `kind`, `metadata.name` and a `metadata.namespace` that read as strings;
    /// `labels` and `annotations` absent, null or mappings of scalar keys to string values; a
    /// `spec` without a merge key; nothing local-config and no unrendered template. It gives
    /// what [`Object::read`] and [`Host::read`] give on the host's JSON value. `None` for any
    /// other item or host, which is then read through its JSON value.
    pub fn read_tree(index: ItemId, node: &Node) -> Option<Host> {
        let root = node.as_map().filter(|m| !m.has_merge())?;
        // the tree's own strings, shared by every item that writes the same
        let api_version = root.get("apiVersion")?.as_shared_str()?;
        let kind = root.get("kind")?.as_shared_str()?;
        if (group_of(api_version), &**kind) != (BMO_GROUP, "BareMetalHost") {
            return None;
        }
        let meta = root.get("metadata")?.as_map().filter(|m| !m.has_merge())?;
        let name = meta.get("name")?.as_json_str().filter(|n| !n.is_empty())?;
        let namespace = match meta.get("namespace") {
            None => None,
            Some(n) if n.is_null() => None,
            Some(n) => Some(n.as_json_str()?).filter(|s| !s.is_empty()),
        };
        let annotations: BTreeMap<String, String> = string_entries(meta.get("annotations"))?;
        let labels = string_entries(meta.get("labels"))?;
        if annotations.get(LOCAL_CONFIG).is_some_and(|v| v == "true") {
            return None;
        }
        let pins = pins_of(&annotations);
        if is_template(name)
            || namespace.is_some_and(is_template)
            || pins.values().any(|a| is_template(a))
        {
            return None;
        }
        let consumer_ref = match root.get("spec") {
            Some(spec) => match spec.as_map() {
                Some(m) if m.has_merge() => return None,
                Some(m) => m
                    .get("consumerRef")
                    .filter(|c| !c.is_null())
                    .map(Node::to_json),
                None => None,
            },
            None => None,
        };
        let object = Object::identified(
            index,
            Arc::clone(api_version),
            Arc::clone(kind),
            name.to_owned(),
            namespace,
            false,
        );
        Some(Host {
            object: Arc::new(object),
            labels,
            annotations,
            pins,
            consumer_ref,
        })
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

/// A mapping of scalar keys to string values as `string_map` reads it from the JSON value
/// (absent or null: empty); `None` for anything it cannot read so (a value that is not a
/// string, a collection key, a merge key, not a mapping).
fn string_entries<C: FromIterator<(String, String)>>(node: Option<&Node>) -> Option<C> {
    let Some(node) = node.filter(|n| !n.is_null()) else {
        return Some(std::iter::empty().collect());
    };
    let map = node.as_map().filter(|m| !m.has_merge())?;
    map.entries
        .iter()
        .map(|(k, v)| {
            Some((
                k.as_scalar()?.value.to_string(),
                v.as_json_str()?.to_owned(),
            ))
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

/// Reads `spec.consumerRef` of a host. Apart from [`Host::read`]: only adoption follows it, as
/// the way back from a Metal3Machine that lacks the `metal3.io/BareMetalHost` annotation. An
/// error naming the field when it or one of its values has the wrong type.
pub fn read_consumer(
    host: &Host,
    findings: &mut Vec<Finding>,
) -> Result<Option<ConsumerRef>, Reported> {
    let object = &host.object;
    let consumer = match &host.consumer_ref {
        None | Some(Value::Null) => return Ok(None),
        Some(c @ Value::Object(_)) => c,
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
    };
    let mut text = |key: &str| {
        read_found(
            object,
            consumer.get(key),
            || format!("spec.consumerRef.{key}"),
            findings,
        )
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
    use serde_json::json;

    fn consumer(spec: Value) -> (Result<Option<ConsumerRef>, Reported>, Vec<Finding>) {
        let v = json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
            "metadata": {"name": "node-1", "namespace": "lab"}, "spec": spec});
        let object = Object::read(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        let host = Host::read(&Arc::new(object), &v, &mut findings).expect("a host");
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
