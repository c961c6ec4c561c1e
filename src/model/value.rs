//! Small readers over an item's tree ([`View`]) that report on the object they read: a
//! field's text, and the field spellings of another version; and whether a text is an
//! unrendered template.

use super::object::{Object, skipped_for_template};
use super::view::View;
use crate::results::Finding;

/// A problem with an object was reported: an error naming its field, or a warning that skips
/// the object (an unrendered template).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported;

/// The string at `path` (object keys) of an object a reader reads: `Ok(None)` when it is
/// absent, `null` or empty. A value that is not a string is an error naming the object and the
/// field (`metadata.annotations.[metal3.io/BareMetalHost]`); an unrendered template is a warning
/// that skips the object (SPEC §3); both are `Err(Reported)`.
pub(super) fn read_text(
    object: &Object,
    view: View<'_>,
    path: &[&str],
    findings: &mut Vec<Finding>,
) -> Result<Option<String>, Reported> {
    let field = || {
        path.iter()
            .map(|k| crate::yaml::path_key(k))
            .collect::<Vec<_>>()
            .join(".")
    };
    read_viewed(object, view.at(path), field, findings)
}

/// [`read_text`] of a value found already, `field` naming where it was found.
pub(super) fn read_viewed(
    object: &Object,
    found: Option<View<'_>>,
    field: impl Fn() -> String,
    findings: &mut Vec<Finding>,
) -> Result<Option<String>, Reported> {
    let Some(found) = found.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    match found.as_str() {
        Some("") => Ok(None),
        Some(s) if is_template(s) => {
            findings.push(skipped_for_template(object, &field(), s));
            Err(Reported)
        }
        Some(s) => Ok(Some(s.to_owned())),
        None => {
            findings.push(
                Finding::error(format!(
                    "this field is {}, not a string; fix it, or leave the {} out of the input",
                    found.kind_of(),
                    object.kind
                ))
                .on(object.resource_ref())
                .at(field()),
            );
            Err(Reported)
        }
    }
}

#[cfg(test)]
pub(crate) use super::view::node_of;

/// Whether a string is an unrendered template (`${...}` or `{{ ... }}`) that must never be guessed at.
pub fn is_template(s: &str) -> bool {
    // one pass over the bytes: most strings read are short names, where setting up a substring
    // search twice costs more than the search
    s.as_bytes()
        .windows(2)
        .any(|w| w[1] == b'{' && matches!(w[0], b'$' | b'{'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn read_text_names_the_field_of_a_bad_value() {
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Machine",
            "metadata": {"name": "m", "namespace": "ns", "annotations": {
                "metal3.io/BareMetalHost": ["ns/h"], "a": "", "t": "${HOST}", "ok": "ns/h"}}});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let node = node_of(&v);
        let mut findings = Vec::new();
        let read = |key: &str, findings: &mut Vec<Finding>| {
            read_text(
                &object,
                View::new(&node),
                &["metadata", "annotations", key],
                findings,
            )
        };
        assert_eq!(read("ok", &mut findings), Ok(Some("ns/h".into())));
        assert_eq!(read("a", &mut findings), Ok(None));
        assert_eq!(read("missing", &mut findings), Ok(None));
        assert!(findings.is_empty());
        assert_eq!(
            read("metal3.io/BareMetalHost", &mut findings),
            Err(Reported)
        );
        assert!(findings[0].is_error());
        assert!(
            findings[0].is_on("Metal3Machine", "ns", "m"),
            "{}",
            findings[0].message
        );
        assert!(findings[0].message.contains("a list, not a string"));
        assert_eq!(
            findings[0].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.annotations.[metal3.io/BareMetalHost]")
        );
        assert_eq!(read("t", &mut findings), Err(Reported));
        assert!(!findings[1].is_error());
        assert_eq!(
            findings[1].field.as_ref().map(|f| f.path.as_str()),
            Some("metadata.annotations.t")
        );
    }

    #[test]
    fn templates_are_recognised() {
        for s in [
            "${", "{{", "a${", "{{b", "x{{y}}", "${A}${B}", "é${x}", "{${",
        ] {
            assert!(is_template(s), "{s:?}");
        }
        for s in ["", "$", "{", "$ {", "{ {", "}}", "{$", "é{", "$}{"] {
            assert!(!is_template(s), "{s:?}");
        }
        assert!(is_template("${IPAM_START}"));
        assert!(is_template("{{ start }}"));
        assert!(is_template("pool-${CLUSTER}"));
        assert!(!is_template("10.0.0.1"));
        assert!(!is_template("$HOME"));
    }
}

/// A field that CAPM3's two API versions spell differently: where it sits (object keys from
/// the root), and its name in `v1beta1` and in `v1beta2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    pub holder: &'static [&'static str],
    pub v1beta1: &'static str,
    pub v1beta2: &'static str,
}

/// SPEC §3: a field of `object` spelled as the other API version spells it (a `v1beta2`
/// Metal3DataTemplate with the v1beta1 `ipAddressesFromIPPool`, or the reverse) is a warning
/// naming the object, the field and the spelling its `apiVersion` uses: the API server drops a
/// field its version does not have, so what it says is never used. Objects of any other
/// version are not looked at.
pub(super) fn other_spellings(
    object: &Object,
    value: View<'_>,
    table: &[Spelling],
) -> Vec<Finding> {
    let version = object.api_version.rsplit('/').next().unwrap_or("");
    let mut out = Vec::new();
    for s in table {
        let (wrong, right, other) = match version {
            "v1beta1" => (s.v1beta2, s.v1beta1, "v1beta2"),
            "v1beta2" => (s.v1beta1, s.v1beta2, "v1beta1"),
            _ => return out,
        };
        let Some(holder) = value.at(s.holder).filter(|h| h.is_object()) else {
            continue;
        };
        if holder.get(wrong).is_none() {
            continue;
        }
        let holder = s.holder.join(".");
        out.push(
            Finding::warning(format!(
                "rename this field to {right}: the API server drops a field its version does not \
                 have, so nothing written under {wrong} is used. This is how {other} spells the \
                 field; {} spells it {holder}.{right}, and ipreuse does not read {wrong} either",
                object.api_version,
            ))
            .on(object.resource_ref())
            .at(format!("{holder}.{wrong}")),
        );
    }
    out
}
