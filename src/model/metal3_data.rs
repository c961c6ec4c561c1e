//! Metal3Data (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): the rendered data of
//! one machine, made from a Metal3DataTemplate (`spec.template`).

use super::Object;
use super::labels::{self, Labels};
use super::objects::Part;
use super::value::{read_text, read_viewed};
use super::view::View;
use crate::results::Finding;

/// The Metal3DataTemplate a Metal3Data was made from (`spec.template`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRef {
    pub name: String,
    /// `spec.template.namespace`, else the Metal3Data's own namespace (CAPM3 makes the data in
    /// its template's namespace).
    pub namespace: String,
}

/// A Metal3Data as the function reads it: each part with the results of reading it, for the
/// transformation that uses it (the labels transformation reads `template`, then `labels`;
/// adoption follows `claim`).
#[derive(Debug, Clone)]
pub struct Metal3Data {
    pub object: Object,
    /// `spec.template`; `Some(None)` when `spec.template.name` is not written.
    pub template: Part<Option<TemplateRef>>,
    pub labels: Part<Labels>,
    /// `spec.claim.name`: the Metal3DataClaim it was made for, whose name is its
    /// Metal3Machine's; `Some(None)` when not written.
    pub claim: Part<Option<String>>,
}

impl Metal3Data {
    /// Reads a Metal3Data: a part is `None` with an error naming the field when a value it
    /// needs has the wrong type, or with a warning when it is an unrendered template (what uses
    /// the part skips the object). Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, view: View<'_>) -> Metal3Data {
        Metal3Data {
            object: object.clone(),
            template: Part::of(|findings| read_template(object, view, findings)),
            labels: Part::of(|findings| labels::read(object, view, findings)),
            claim: Part::of(|findings| {
                read_text(object, view, &["spec", "claim", "name"], findings).ok()
            }),
        }
    }
}

/// `spec.template`.
fn read_template(
    object: &Object,
    view: View<'_>,
    findings: &mut Vec<Finding>,
) -> Option<Option<TemplateRef>> {
    let mut field = |key: &str| {
        let path = format!("spec.template.{key}");
        let found = view.at(&["spec", "template", key]);
        read_viewed(object, found, || path.clone(), findings).ok()
    };
    let name = field("name")?;
    let namespace = field("namespace")?;
    Some(name.map(|name| TemplateRef {
        name,
        namespace: namespace.unwrap_or_else(|| object.namespace.clone()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn read(spec: Value) -> (Option<Metal3Data>, Vec<Finding>) {
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Data",
            "metadata": {"name": "tpl-0", "namespace": "ns"}, "spec": spec});
        let d = read_parts(&v);
        // as the labels transformation reads it: the template, then the labels
        let mut findings = Vec::new();
        let whole =
            d.template.report(&mut findings).is_some() && d.labels.report(&mut findings).is_some();
        (whole.then_some(d), findings)
    }

    fn read_parts(v: &Value) -> Metal3Data {
        let object = Object::of_json(crate::model::ItemId(0), v).expect("an object");
        Metal3Data::read(&object, View::new(&crate::model::value::node_of(v)))
    }

    #[test]
    fn the_template_defaults_to_the_data_namespace() {
        let (d, findings) = read(json!({"template": {"name": "tpl"}}));
        assert!(findings.is_empty());
        assert_eq!(
            d.expect("read").template.value,
            Some(Some(TemplateRef {
                name: "tpl".into(),
                namespace: "ns".into()
            }))
        );
        let (d, _) = read(json!({"template": {"name": "tpl", "namespace": "other"}}));
        assert_eq!(
            d.expect("read")
                .template
                .value
                .flatten()
                .map(|t| t.namespace),
            Some("other".into())
        );
        let (d, findings) = read(json!({"index": 3}));
        assert!(findings.is_empty());
        assert_eq!(d.expect("read").template.value, Some(None));
    }

    #[test]
    fn bad_and_unrendered_template_names_name_the_field() {
        let (d, findings) = read(json!({"template": {"name": ["tpl"]}}));
        assert!(d.is_none());
        assert!(findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("spec.template.name")
        );
        let (d, findings) = read(json!({"template": {"name": "${TPL}"}}));
        assert!(d.is_none());
        assert!(!findings[0].is_error());
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("spec.template.name")
        );
    }

    #[test]
    fn the_data_claim_is_spec_claim_name_in_both_versions() {
        // v1beta1 omits `index: 0`; v1beta2 is what kubectl prints from CAPM3 v1.13 on.
        for (version, spec) in [
            (
                "v1beta1",
                json!({"claim": {"name": "workers-abc", "namespace": "lab"}, "template": {"name": "t"}}),
            ),
            (
                "v1beta2",
                json!({"index": 4, "claim": {"name": "workers-abc"}, "template": {"name": "t"}}),
            ),
        ] {
            let v = json!({"apiVersion": format!("infrastructure.cluster.x-k8s.io/{version}"),
                "kind": "Metal3Data", "metadata": {"name": "t-4", "namespace": "lab"}, "spec": spec});
            let d = read_parts(&v);
            assert_eq!(
                d.claim.value,
                Some(Some("workers-abc".to_string())),
                "{version}"
            );
            assert!(d.claim.findings.is_empty());
        }
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Data",
            "metadata": {"name": "t-4"}, "spec": {"claim": {"name": 5}, "template": {"name": "t"}}});
        let d = read_parts(&v);
        assert_eq!(d.claim.value, None);
        assert_eq!(
            d.claim.findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("spec.claim.name")
        );
        // a Metal3Data whose claim cannot be read still gets its labels
        assert!(d.template.value.is_some() && d.labels.value.is_some());
        assert!(d.template.findings.is_empty() && d.labels.findings.is_empty());
    }
}
