//! `metadata.labels` of an object, read with the type of each value (a label the function
//! writes is compared with what is there, and a value that is not a string is never taken for
//! one).

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

/// The labels of an object: key → value (an absent, `null` or empty `metadata.labels` is empty).
pub type Labels = BTreeMap<String, LabelValue>;

/// Reads `metadata.labels`. `None`, with an error, when it is there but not a mapping; with a
/// warning when a value is an unrendered template (the object is then skipped, SPEC §3).
pub(super) fn read(object: &Object, view: View<'_>, findings: &mut Vec<Finding>) -> Option<Labels> {
    let labels = match view.at(&["metadata", "labels"]) {
        None => return Some(Labels::new()),
        Some(v) if v.is_null() => return Some(Labels::new()),
        Some(v) => v,
    };
    let Some(entries) = labels.entries() else {
        findings.push(
            Finding::error(format!(
                "{}: metadata.labels is {}, not a mapping of label keys to strings; fix it, or leave the \
                 object out of the input",
                object.display(),
                labels.kind_of()
            ))
            .on(object.resource_ref())
            .at("metadata.labels"),
        );
        return None;
    };
    let mut out = Labels::new();
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
        out.insert(k.into_owned(), label);
    }
    Some(out)
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
        assert_eq!(labels["a"], LabelValue::Text("1".into()));
        assert_eq!(labels["b"], LabelValue::Other("1".into()));
        assert_eq!(labels["c"], LabelValue::Other("true".into()));
        assert_eq!(labels["d"], LabelValue::Other("null".into()));
        assert_eq!(labels["e"], LabelValue::NotScalar);
        assert_eq!(labels["h"], LabelValue::NotScalar);
    }

    #[test]
    fn absent_null_and_empty_labels_are_empty() {
        for labels in [json!(null), json!({})] {
            let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x", "labels": labels}});
            let mut findings = Vec::new();
            assert_eq!(read(&object(&v), &v, &mut findings), Some(Labels::new()));
            assert!(findings.is_empty());
        }
        let v = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x"}});
        assert_eq!(read(&object(&v), &v, &mut Vec::new()), Some(Labels::new()));
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
}
