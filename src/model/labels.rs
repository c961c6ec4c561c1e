//! `metadata.labels` of an object, read with the type of each value (a label the function
//! writes is compared with what is there, and a value that is not a string is never taken for
//! one); and [`LabelMap`], the one type every kind's labels are held in.

use std::collections::BTreeMap;

use super::Object;
use super::value::is_template;
use super::view::View;
use crate::results::{Finding, key_path};

/// One label value as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelValue {
    /// A string.
    Text(String),
    /// A number, a boolean or null (`key:`): a scalar, but not a string, shown as written.
    Other(String),
    /// A mapping or a list: not a label value at all.
    NotScalar,
}

/// Labels, key → value, sorted by key in one block of exactly their size: every kind's labels
/// are held so. A run holds every host's at once, and a `BTreeMap` of one label takes 540
/// bytes where this takes 48 (its strings apart): 5 MB on 10,000 hosts, which put the peak
/// over 5 × the input (BENCHMARKS.md). kube-core's selectors match a `BTreeMap`, built for the
/// call ([`LabelMap::selected_by`]) and only when the selector has a requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelMap<V>(Box<[(String, V)]>);

impl<V> Default for LabelMap<V> {
    fn default() -> Self {
        LabelMap(Box::new([]))
    }
}

impl<V> LabelMap<V> {
    /// The value of label `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        let i = self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        Some(&self.0[i].1)
    }

    /// The labels in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl LabelMap<String> {
    /// Whether `selector` selects an object with these labels.
    pub fn selected_by(&self, selector: &crate::selector::Selector) -> bool {
        selector.is_empty()
            || selector.matches(&self.0.iter().cloned().collect::<BTreeMap<String, String>>())
    }
}

impl<V> FromIterator<(String, V)> for LabelMap<V> {
    /// As a `BTreeMap` collects: in key order, the last value of a key repeated wins.
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> LabelMap<V> {
        let mut pairs: Vec<(String, V)> = iter.into_iter().collect();
        // stable: of equal keys the last written is the last here, and is the one kept
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.reverse();
        pairs.dedup_by(|later, kept| later.0 == kept.0);
        pairs.reverse();
        LabelMap(pairs.into_boxed_slice())
    }
}

/// The labels of an object as the labels transformation reads them, each value with its type
/// (an absent, `null` or empty `metadata.labels` is empty).
pub type Labels = LabelMap<LabelValue>;

/// Reads `metadata.labels`. `None`, with an error, when it is there but not a mapping; with a
/// warning when a value is an unrendered template (the object is then skipped, SPEC §3).
pub(super) fn read(object: &Object, view: View<'_>, findings: &mut Vec<Finding>) -> Option<Labels> {
    let labels = match view.at(&["metadata", "labels"]) {
        None => return Some(Labels::default()),
        Some(v) if v.is_null() => return Some(Labels::default()),
        Some(v) => v,
    };
    let Some(entries) = labels.entries() else {
        findings.push(
            Finding::error(format!(
                "this field is {}, not a mapping of label keys to strings; fix it, or leave the \
                 object out of the input",
                labels.kind_of()
            ))
            .on(object.resource_ref())
            .at("metadata.labels"),
        );
        return None;
    };
    let mut out = Vec::new();
    for (k, v) in entries {
        let label = if let Some(s) = v.as_str() {
            if is_template(s) {
                findings.push(super::skipped_for_template(
                    object,
                    &key_path("metadata.labels", &k),
                    s,
                ));
                return None;
            }
            LabelValue::Text(s.to_owned())
        } else if v.is_null() {
            LabelValue::Other("null".into())
        } else if let Some(text) = v.scalar_text() {
            // a boolean or a number, as its JSON value prints
            LabelValue::Other(text)
        } else {
            LabelValue::NotScalar
        };
        out.push((k.into_owned(), label));
    }
    Some(out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::value::node_of;
    use serde_json::{Value, json};

    fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Labels> {
        super::read(object, View::new(&node_of(value)), findings)
    }

    fn object(value: &Value) -> Object {
        Object::of_json(crate::model::ItemId(0), value).expect("an object")
    }

    #[test]
    fn values_keep_their_type() {
        let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "labels": {
            "a": "1", "b": 1, "c": true, "d": null, "e": {"f": "g"}, "h": ["i"]
        }}});
        let mut findings = Vec::new();
        let labels = read(&object(&v), &v, &mut findings).expect("read");
        assert!(findings.is_empty());
        assert_eq!(labels.get("a"), Some(&LabelValue::Text("1".into())));
        assert_eq!(labels.get("b"), Some(&LabelValue::Other("1".into())));
        assert_eq!(labels.get("c"), Some(&LabelValue::Other("true".into())));
        assert_eq!(labels.get("d"), Some(&LabelValue::Other("null".into())));
        assert_eq!(labels.get("e"), Some(&LabelValue::NotScalar));
        assert_eq!(labels.get("h"), Some(&LabelValue::NotScalar));
    }

    #[test]
    fn absent_null_and_empty_labels_are_empty() {
        for labels in [json!(null), json!({})] {
            let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "labels": labels}});
            let mut findings = Vec::new();
            assert_eq!(
                read(&object(&v), &v, &mut findings),
                Some(Labels::default())
            );
            assert!(findings.is_empty());
        }
        let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x"}});
        assert_eq!(
            read(&object(&v), &v, &mut Vec::new()),
            Some(Labels::default())
        );
    }

    #[test]
    fn labels_that_are_not_a_mapping_are_an_error_at_the_field() {
        let v =
            json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "labels": ["a"]}});
        let mut findings = Vec::new();
        assert_eq!(read(&object(&v), &v, &mut findings), None);
        assert!(findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.labels")
        );
        assert!(
            findings[0].message.contains("a list"),
            "{}",
            findings[0].message
        );
    }

    #[test]
    fn a_template_value_skips_the_object_naming_the_label() {
        let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "labels": {
            "infrastructure.cluster.x-k8s.io/pool-name": "${POOL}"
        }}});
        let mut findings = Vec::new();
        assert_eq!(read(&object(&v), &v, &mut findings), None);
        assert_eq!(findings[0].severity, crate::results::Severity::Warning);
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.labels.[infrastructure.cluster.x-k8s.io/pool-name]")
        );
    }

    /// A `LabelMap` reads as the `BTreeMap` it replaces: the same pairs in the same order, the
    /// same lookups, and the same answer from every selector.
    #[test]
    fn a_label_map_reads_as_a_btree_map() {
        let written = [
            ("rack", "r2"),
            ("role", "worker"),
            ("a", "1"),
            ("rack", "r3"),
            ("z", ""),
        ];
        let pairs = written.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        let labels: LabelMap<String> = pairs.clone().collect();
        let map: BTreeMap<String, String> = pairs.collect();
        let listed: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (k, v.as_str())).collect();
        let meant: Vec<(&str, &str)> = map.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(listed, meant);
        for key in ["rack", "role", "a", "z", "b", ""] {
            assert_eq!(labels.get(key), map.get(key), "{key}");
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
            let selector = crate::selector::Selector::parse(text).expect("a selector");
            assert_eq!(
                labels.selected_by(&selector),
                selector.matches(&map),
                "{text}"
            );
            assert_eq!(
                LabelMap::<String>::default().selected_by(&selector),
                selector.matches(&BTreeMap::new()),
                "{text}"
            );
        }
    }
}
