//! Metal3MachineTemplate (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): which hosts
//! its machines may land on and which Metal3DataTemplate names their pools (SPEC §4, FACTS §2–3).
//!
//! - `spec.template.spec.hostSelector`, in CAPM3's dialect ([`Selector::from_capm3`]): CAPM3
//!   lists the BareMetalHosts of the machine's namespace and keeps those it matches; an empty
//!   or missing selector matches them all. A selector CAPM3 refuses is an error at its field
//!   (CAPM3 then chooses no host at all).
//! - `spec.template.spec.dataTemplate {name, namespace}` (in v1beta1 an object reference whose
//!   other fields CAPM3 ignores): the namespace defaults to the machine template's. One in
//!   another namespace is an error: CAPM3 makes the claims in the data template's namespace,
//!   where they never meet this template's hosts.
//!
//! The same fields in both versions. A field read here that holds an unrendered template skips
//! the machine template with a warning.

use std::borrow::Cow;

use super::value::{Spelling, is_template};
use super::view::View;
use super::{Object, skipped_for_template};
use crate::results::{Finding, key_path};
use crate::selector::{Selector, Tree};

/// The field that v1beta1 and v1beta2 spell differently (the CRDs of CAPM3 v1.13+ serve both):
/// the image's disk format. (v1beta1's `dataTemplate` is an object reference whose other
/// fields v1beta2 dropped; v1beta2 adds `spec.template.metadata`: fields of one version only,
/// not spellings.)
pub const SPELLINGS: [Spelling; 1] = [Spelling {
    holder: &["spec", "template", "spec", "image"],
    v1beta1: "format",
    v1beta2: "diskFormat",
}];

/// Where the host selector is written.
pub const HOST_SELECTOR: &str = "spec.template.spec.hostSelector";
/// Where the data template is named.
pub const DATA_TEMPLATE: &str = "spec.template.spec.dataTemplate";

/// The Metal3DataTemplate a machine template names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataTemplateRef {
    pub name: String,
    /// As written, else the machine template's.
    pub namespace: String,
}

/// A Metal3MachineTemplate as the function reads it.
#[derive(Debug, Clone)]
pub struct MachineTemplate {
    pub object: Object,
    /// The hosts its machines may take; `None` when CAPM3 would refuse the selector (the
    /// errors are among the reader's findings): such a template can take no host.
    pub host_selector: Option<Selector>,
    /// Its data template; `None` when it names none (its machines claim no addresses), or
    /// names it in a way CAPM3 cannot use (an error among the findings). One in another
    /// namespace is returned (with its error among the findings), so that the mapping can
    /// tell whether it is in the input.
    pub data_template: Option<DataTemplateRef>,
    /// The whole object's JSON value: what a ClusterClass's patches apply to, for each Cluster
    /// of the class, when a class names it (SPEC §11). Machine templates are few.
    pub value: serde_json::Value,
}

impl MachineTemplate {
    /// Reads a machine template. `None` (with a warning) when a field it reads is an unrendered
    /// template; otherwise the template, with an error in `findings` for each field CAPM3
    /// would refuse. Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        value: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<Self> {
        let spec = value.at(&["spec", "template", "spec"]);
        let selector_value = spec.and_then(|s| s.get("hostSelector"));
        let data_value = spec.and_then(|s| s.get("dataTemplate"));
        if let Some((field, text)) = unrendered(selector_value, data_value) {
            findings.push(skipped_for_template(object, &field, &text));
            return None;
        }
        let error = |findings: &mut Vec<Finding>, field: String, what: String| {
            findings.push(
                Finding::error(format!("this field {what}"))
                    .on(object.resource_ref())
                    .at(field),
            );
        };
        let host_selector = match Selector::from_capm3(selector_value) {
            Ok(s) => Some(s),
            Err(errors) => {
                for e in errors {
                    error(
                        findings,
                        e.path_under(HOST_SELECTOR),
                        format!(
                            "{}. CAPM3 refuses this selector and chooses no host for the template's machines",
                            e.message.trim_end_matches('.')
                        ),
                    );
                }
                None
            }
        };
        let data_template = match data_value {
            None => None,
            Some(d) if d.is_null() => None,
            Some(d) if d.is_object() => {
                let text = |key: &str| match d.get(key) {
                    None => Ok(None),
                    Some(v) if v.is_null() => Ok(None),
                    Some(v) => match v.as_str() {
                        Some("") => Ok(None),
                        Some(s) => Ok(Some(s.to_string())),
                        None => Err(format!("is {}, not a string", v.json_text())),
                    },
                };
                match (text("name"), text("namespace")) {
                    (Ok(Some(name)), Ok(namespace)) => {
                        let namespace = namespace.unwrap_or_else(|| object.namespace.clone());
                        if namespace != object.namespace {
                            error(
                                findings,
                                format!("{DATA_TEMPLATE}.namespace"),
                                format!(
                                    "is {namespace:?}, not the template's own namespace {:?}: keep the \
                                     Metal3DataTemplate in {:?}. CAPM3 makes the IP claims in the data \
                                     template's namespace, where the IPPools of this template's hosts are not",
                                    object.namespace, object.namespace
                                ),
                            );
                        }
                        Some(DataTemplateRef { name, namespace })
                    }
                    (Ok(None), _) => {
                        error(
                            findings,
                            format!("{DATA_TEMPLATE}.name"),
                            "is missing: name the Metal3DataTemplate, or remove dataTemplate"
                                .into(),
                        );
                        None
                    }
                    (Err(e), _) => {
                        error(findings, format!("{DATA_TEMPLATE}.name"), e);
                        None
                    }
                    (_, Err(e)) => {
                        error(findings, format!("{DATA_TEMPLATE}.namespace"), e);
                        None
                    }
                }
            }
            Some(other) => {
                error(
                    findings,
                    DATA_TEMPLATE.into(),
                    format!(
                        "is {}, not a reference {{name, namespace}}",
                        other.json_text()
                    ),
                );
                None
            }
        };
        Some(MachineTemplate {
            object: object.clone(),
            host_selector,
            data_template,
            value: value.to_value(),
        })
    }
}

/// The first unrendered template among the fields read: the selector's keys, operators and
/// values, the data template's name and namespace.
fn unrendered(selector: Option<View<'_>>, data: Option<View<'_>>) -> Option<(String, String)> {
    fn text(v: Option<View<'_>>) -> Option<&str> {
        v.and_then(View::as_str).filter(|s| is_template(s))
    }
    for key in ["name", "namespace"] {
        if let Some(t) = text(data.and_then(|d| d.get(key))) {
            return Some((format!("{DATA_TEMPLATE}.{key}"), t.to_string()));
        }
    }
    let selector = selector?;
    if let Some(labels) = selector.get("matchLabels").and_then(View::entries) {
        for (k, v) in labels {
            let field = key_path(&format!("{HOST_SELECTOR}.matchLabels"), &k);
            if is_template(&k) {
                return Some((field, k.into_owned()));
            }
            if let Some(t) = text(Some(v)) {
                return Some((field, t.to_string()));
            }
        }
    }
    if let Some(exprs) = selector.get("matchExpressions").and_then(View::as_seq) {
        for (i, e) in exprs.enumerate() {
            let base = format!("{HOST_SELECTOR}.matchExpressions[{i}]");
            for key in ["key", "operator"] {
                if let Some(t) = text(e.get(key)) {
                    return Some((format!("{base}.{key}"), t.to_string()));
                }
            }
            if let Some(values) = e.get("values").and_then(View::as_seq) {
                for (j, v) in values.enumerate() {
                    if let Some(t) = text(Some(v)) {
                        return Some((format!("{base}.values[{j}]"), t.to_string()));
                    }
                }
            }
        }
    }
    None
}

/// CAPM3's host selector is read from the item's tree ([`Selector::from_capm3`]).
impl<'a> Tree<'a> for View<'a> {
    fn get(self, key: &str) -> Option<Self> {
        View::get(self, key)
    }
    fn is_null(self) -> bool {
        View::is_null(self)
    }
    fn is_object(self) -> bool {
        View::is_object(self)
    }
    fn as_str(self) -> Option<&'a str> {
        View::as_str(self)
    }
    fn entries(self) -> Option<Vec<(Cow<'a, str>, Self)>> {
        Some(View::entries(self)?.collect())
    }
    fn items(self) -> Option<Vec<Self>> {
        Some(View::as_seq(self)?.collect())
    }
}

#[cfg(test)]
mod tests;
