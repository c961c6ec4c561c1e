//! Reading the fields of a Cluster API object that decide the mapping (a Cluster's topology, a
//! ClusterClass), as the API server admits them: a field of another shape than its type (`names:
//! 7`, `class: 3`, a reference that is a list) is an error naming it, since the API server refuses
//! such an object and CAPI never evaluates it; a field spelled as the other API version spells it
//! is a warning naming the version's spelling, since the API server drops it. A null is absent
//! (the API server prunes it).

use std::collections::BTreeMap;

use super::Object;
use super::view::View;
use crate::results::Finding;

/// The fields of one object, read with their shapes checked; problems go to `findings`.
pub(super) struct Fields<'a, 'f> {
    pub object: &'a Object,
    pub findings: &'f mut Vec<Finding>,
}

impl<'v> Fields<'_, '_> {
    fn wrong(&mut self, field: &str, v: View<'_>, want: &str) {
        self.findings.push(
            Finding::error(format!(
                "write {want} here: the API server refuses the {} as written, so ipreuse cannot tell \
                 what CAPI would make of it. This field is {}, where the API server accepts only {want}",
                self.object.kind,
                v.kind_of(),
            ))
            .on(self.object.resource_ref())
            .at(field.to_string()),
        );
    }

    /// The field, unless absent or null.
    fn present(v: Option<View<'v>>) -> Option<View<'v>> {
        v.filter(|v| !v.is_null())
    }

    /// A string field.
    pub fn string(&mut self, v: Option<View<'v>>, field: &str) -> Option<&'v str> {
        let v = Self::present(v)?;
        let s = v.as_str();
        if s.is_none() {
            self.wrong(field, v, "a string");
        }
        s
    }

    /// An object field.
    pub fn object(&mut self, v: Option<View<'v>>, field: &str) -> Option<View<'v>> {
        let v = Self::present(v)?;
        if !v.is_object() {
            self.wrong(field, v, "a mapping");
            return None;
        }
        Some(v)
    }

    /// A list field.
    pub fn list(&mut self, v: Option<View<'v>>, field: &str) -> Option<Vec<View<'v>>> {
        let v = Self::present(v)?;
        match v.as_seq() {
            Some(items) => Some(items.collect()),
            None => {
                self.wrong(field, v, "a list");
                None
            }
        }
    }

    /// A list of objects: each item that is no object is an error and left out.
    pub fn objects(&mut self, v: Option<View<'v>>, field: &str) -> Vec<(usize, View<'v>)> {
        let items = self.list(v, field).unwrap_or_default();
        items
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| {
                self.object(Some(item), &format!("{field}[{i}]"))
                    .map(|o| (i, o))
            })
            .collect()
    }

    /// A list of strings.
    pub fn strings(&mut self, v: Option<View<'v>>, field: &str) -> Option<Vec<String>> {
        let items = self.list(v, field)?;
        Some(
            items
                .into_iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    self.string(Some(item), &format!("{field}[{i}]"))
                        .map(str::to_string)
                })
                .collect(),
        )
    }

    /// A boolean field.
    pub fn bool(&mut self, v: Option<View<'v>>, field: &str) -> Option<bool> {
        let v = Self::present(v)?;
        let b = v.as_bool();
        if b.is_none() {
            self.wrong(field, v, "true or false");
        }
        b
    }

    /// An integer field.
    pub fn int(&mut self, v: Option<View<'v>>, field: &str) -> Option<i64> {
        let v = Self::present(v)?;
        let i = v.as_i64().or_else(|| {
            v.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        });
        if i.is_none() {
            self.wrong(field, v, "an integer");
        }
        i
    }

    /// A string map (labels, annotations): `None` when absent.
    pub fn string_map(
        &mut self,
        v: Option<View<'v>>,
        field: &str,
    ) -> Option<BTreeMap<String, String>> {
        let v = self.object(v, field)?;
        let mut out = BTreeMap::new();
        for (k, value) in v.entries().into_iter().flatten() {
            let at = crate::results::key_path(field, &k);
            if let Some(s) = self.string(Some(value), &at) {
                out.insert(k.into_owned(), s.to_string());
            }
        }
        Some(out)
    }

    /// `metadata {labels, annotations}` at `field`.
    pub fn meta(
        &mut self,
        v: Option<View<'v>>,
        field: &str,
    ) -> crate::topology::patch::variables::ObjectMeta {
        let m = self.object(v, field);
        crate::topology::patch::variables::ObjectMeta {
            labels: self.string_map(m.and_then(|m| m.get("labels")), &format!("{field}.labels")),
            annotations: self.string_map(
                m.and_then(|m| m.get("annotations")),
                &format!("{field}.annotations"),
            ),
        }
    }

    /// A warning when `v` (the field `written`) is present: the other version's spelling of
    /// what this version spells `right`.
    pub fn other_spelling(&mut self, v: Option<View<'_>>, written: &str, right: &str) {
        if Self::present(v).is_none() {
            return;
        }
        let version = self.object.api_version.rsplit('/').next().unwrap_or("");
        let other = if version == "v1beta2" {
            "v1beta1"
        } else {
            "v1beta2"
        };
        self.findings.push(
            Finding::warning(format!(
                "write {right} instead: the API server drops this spelling, so nothing written here \
                 is used. This is how {other} spells the field; {} spells it {right}, the API server \
                 drops a field its version does not have, and ipreuse does not read it here either",
                self.object.api_version,
            ))
            .on(self.object.resource_ref())
            .at(written.to_string()),
        );
    }
}

/// Whether `object` is spelled as v1beta2 spells Cluster API's core types (any other version is
/// read as v1beta1 spells them).
pub(super) fn is_v1beta2(object: &Object) -> bool {
    object.api_version.ends_with("/v1beta2")
}
