//! Metal3Data (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): the rendered data of
//! one machine, made from a Metal3DataTemplate (`spec.template`).

use serde_json::Value;

use super::json::kind_of;
use super::labels::{self, Labels};
use super::value::{Reported, is_template, read_text};
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// The Metal3DataTemplate a Metal3Data was made from (`spec.template`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRef {
    pub name: String,
    /// `spec.template.namespace`, else the Metal3Data's own namespace (CAPM3 makes the data in
    /// its template's namespace).
    pub namespace: String,
}

/// A Metal3Data as the function reads it.
#[derive(Debug, Clone)]
pub struct Metal3Data {
    pub object: Object,
    /// `None` when `spec.template.name` is not written.
    pub template: Option<TemplateRef>,
    pub labels: Labels,
}

impl Metal3Data {
    /// Reads a Metal3Data; `None` with an error naming the field when a value it needs has the
    /// wrong type, or with a warning when it is an unrendered template (the object is skipped).
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Metal3Data> {
        let mut field = |key: &str| -> Result<Option<String>, ()> {
            let path = format!("spec.template.{key}");
            match value
                .get("spec")
                .and_then(|s| s.get("template"))
                .and_then(|t| t.get(key))
            {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.is_empty() => Ok(None),
                Some(Value::String(s)) if is_template(s) => {
                    findings.push(skipped_for_template(object, &path, s));
                    Err(())
                }
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => {
                    findings.push(
                        Finding::error(format!(
                            "{}: {path} is {}, not a string; fix it, or leave the Metal3Data out of the input",
                            object.display(),
                            kind_of(other)
                        ))
                        .on(object.resource_ref())
                        .at(path),
                    );
                    Err(())
                }
            }
        };
        let name = field("name").ok()?;
        let namespace = field("namespace").ok()?;
        let template = name.map(|name| TemplateRef {
            name,
            namespace: namespace.unwrap_or_else(|| object.namespace.clone()),
        });
        let labels = labels::read(object, value, findings)?;
        Some(Metal3Data {
            object: object.clone(),
            template,
            labels,
        })
    }
}

/// `spec.claim.name` of a Metal3Data: the Metal3DataClaim it was made for, whose name is its
/// Metal3Machine's. Read apart from [`Metal3Data::read`]: only adoption follows this
/// link, and a Metal3Data whose claim cannot be read still gets its labels.
pub fn read_claim(
    object: &Object,
    value: &Value,
    findings: &mut Vec<Finding>,
) -> Result<Option<String>, Reported> {
    read_text(object, value, &["spec", "claim", "name"], findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(spec: Value) -> (Option<Metal3Data>, Vec<Finding>) {
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Data",
            "metadata": {"name": "tpl-0", "namespace": "ns"}, "spec": spec});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        (Metal3Data::read(&object, &v, &mut findings), findings)
    }

    #[test]
    fn the_template_defaults_to_the_data_namespace() {
        let (d, findings) = read(json!({"template": {"name": "tpl"}}));
        assert!(findings.is_empty());
        assert_eq!(
            d.expect("read").template,
            Some(TemplateRef {
                name: "tpl".into(),
                namespace: "ns".into()
            })
        );
        let (d, _) = read(json!({"template": {"name": "tpl", "namespace": "other"}}));
        assert_eq!(
            d.expect("read").template.map(|t| t.namespace),
            Some("other".into())
        );
        let (d, findings) = read(json!({"index": 3}));
        assert!(findings.is_empty());
        assert_eq!(d.expect("read").template, None);
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
            let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
            let mut findings = Vec::new();
            assert_eq!(
                read_claim(&object, &v, &mut findings),
                Ok(Some("workers-abc".to_string())),
                "{version}"
            );
            assert!(findings.is_empty());
        }
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Data",
            "metadata": {"name": "t-4"}, "spec": {"claim": {"name": 5}}});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let mut findings = Vec::new();
        assert_eq!(read_claim(&object, &v, &mut findings), Err(Reported));
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("spec.claim.name")
        );
    }
}
