//! What every item is: its identity ([`Object`]: kind, group, name, namespace, local config),
//! the API groups of the kinds the function reads, and the warning for an object skipped for an
//! unrendered template. Below every kind's reader and the index.

use std::sync::Arc;

use super::ids::ItemId;
use super::view::View;
use crate::names::{ordinal, short};
use crate::results::{Finding, ResourceRef};

/// The API group of an `apiVersion`: the part before `/`, empty for the core group (`v1`).
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// The group of BareMetalHosts.
pub const BMO_GROUP: &str = "metal3.io";
/// The group of the IPAM's kinds (IPPool, IPClaim, IPAddress).
pub const IPAM_GROUP: &str = "ipam.metal3.io";
/// The group of CAPM3's kinds (Metal3Cluster, Metal3Data, Metal3DataTemplate, ...).
pub const CAPM3_GROUP: &str = "infrastructure.cluster.x-k8s.io";
/// The API group of the function's own kind, `IPReuse` (the typed config: `crate::config`).
pub const IPREUSE_GROUP: &str = "fn.ipreuse.dev";

/// Annotation that marks an object as local configuration (kpt, kustomize): never read or changed.
pub const LOCAL_CONFIG: &str = "config.kubernetes.io/local-config";

/// The identity of one item of the input.
#[derive(Debug, Clone)]
pub struct Object {
    /// Position of the item in the input.
    pub index: ItemId,
    pub api_version: Arc<str>,
    pub kind: Arc<str>,
    /// `metadata.name`; empty when it is not a usable name (see `bad_identity`).
    pub name: String,
    /// `metadata.namespace`, or `default` when unset.
    pub namespace: String,
    /// Whether `metadata.namespace` was written.
    pub namespace_set: bool,
    /// Local configuration (annotated, or a Kptfile): never an input, never changed.
    pub local_config: bool,
    /// Set when `metadata.name` is missing, empty or not a string, or `metadata.namespace` is
    /// not a string: the field, and what is wrong with it. Such an object is named in messages
    /// by its kind and position, and the function does not read it.
    pub bad_identity: Option<(&'static str, String)>,
}

impl Object {
    /// Reads the identity of an item; `None` for something that is not a Kubernetes object.
    pub fn read(index: ItemId, value: View<'_>) -> Option<Object> {
        // the tree's own strings when it shares them: every host writes the same two
        let shared = |key: &str| -> Option<Arc<str>> {
            let v = value.get(key)?;
            v.as_shared_str()
                .cloned()
                .or_else(|| v.as_str().map(Arc::from))
        };
        let api_version = shared("apiVersion")?;
        let kind = shared("kind")?;
        let found = |v: View<'_>| {
            let text = v.json_text();
            let text: String = text.chars().take(40).collect();
            format!("is {text}, not a string")
        };
        let mut bad_identity = None;
        let metadata = value.get("metadata");
        let meta = |key: &str| metadata.and_then(|m| m.get(key));
        let name = match meta("name") {
            None => {
                bad_identity = Some(("metadata.name", "is missing".to_string()));
                String::new()
            }
            Some(v) => match v.as_str() {
                Some(s) if !s.is_empty() => s.to_owned(),
                Some(_) => {
                    bad_identity = Some(("metadata.name", "is empty".to_string()));
                    String::new()
                }
                None if v.is_null() => {
                    bad_identity = Some(("metadata.name", "is missing".to_string()));
                    String::new()
                }
                None => {
                    bad_identity = Some(("metadata.name", found(v)));
                    String::new()
                }
            },
        };
        let ns = match meta("namespace") {
            None => None,
            Some(v) => match v.as_str() {
                Some(s) => Some(s).filter(|s| !s.is_empty()),
                None if v.is_null() => None,
                None => {
                    bad_identity = bad_identity.or(Some(("metadata.namespace", found(v))));
                    None
                }
            },
        };
        let annotated = meta("annotations")
            .and_then(|a| a.get(LOCAL_CONFIG))
            .is_some_and(|v| v.as_str() == Some("true") || v.as_bool() == Some(true));
        let mut o = Object::identified(index, api_version, kind, name, ns, annotated);
        o.bad_identity = bad_identity;
        Some(o)
    }

    /// An object of this identity (`namespace`: as written, `None` when unset or empty), with
    /// what follows from it; `annotated`: it carries the local-config annotation.
    pub(crate) fn identified(
        index: ItemId,
        api_version: Arc<str>,
        kind: Arc<str>,
        name: String,
        namespace: Option<&str>,
        annotated: bool,
    ) -> Object {
        Object {
            index,
            local_config: annotated || (&*kind == "Kptfile" && group_of(&api_version) == "kpt.dev"),
            api_version,
            kind,
            name,
            namespace: namespace.unwrap_or("default").to_string(),
            namespace_set: namespace.is_some(),
            bad_identity: None,
        }
    }

    /// Puts the object at input position `item`, in `default_namespace` (the config's
    /// `defaultNamespace`) when it sets no namespace and that is set: where it is read.
    pub(crate) fn place(&mut self, item: ItemId, default_namespace: Option<&str>) {
        self.index = item;
        if let Some(ns) = default_namespace
            && !self.namespace_set
        {
            ns.clone_into(&mut self.namespace);
        }
    }

    /// API group: the part of `apiVersion` before `/`, empty for the core group.
    pub fn group(&self) -> &str {
        group_of(&self.api_version)
    }

    /// Whether this object is `group`/`kind` (any version).
    pub fn is(&self, group: &str, kind: &str) -> bool {
        self.group() == group && &*self.kind == kind
    }

    /// The `resourceRef` of results about this object.
    pub fn resource_ref(&self) -> ResourceRef {
        ResourceRef {
            api_version: self.api_version.to_string(),
            kind: self.kind.to_string(),
            name: self.name.clone(),
            namespace: self.namespace_set.then(|| self.namespace.clone()),
        }
    }

    /// `Kind namespace/name`, for messages; an object without a usable name or namespace is
    /// named by its kind and position in the input: `BareMetalHost #3 (the 3rd item)`.
    pub fn display(&self) -> String {
        if self.bad_identity.is_none() {
            return format!(
                "{} {}/{}",
                self.kind,
                short(&self.namespace),
                short(&self.name)
            );
        }
        let n = self.index.0 + 1;
        let name = if self.name.is_empty() {
            String::new()
        } else {
            format!(" {}", short(&self.name))
        };
        format!("{}{name} #{n} (the {} item)", self.kind, ordinal(n))
    }
}

/// The warning for an object skipped because `field` holds an unrendered template.
pub fn skipped_for_template(object: &Object, field: &str, text: &str) -> Finding {
    Finding::warning(format!(
        "this field is an unrendered template, so the {} is skipped: render it before running \
         ipreuse. The template is {text:?}",
        object.kind
    ))
    .on(object.resource_ref())
    .at(field)
}

#[cfg(test)]
impl Object {
    /// [`Object::read`] of a JSON value, read as the YAML it is: for tests that write their
    /// items as `json!` values.
    pub(crate) fn of_json(index: ItemId, value: &serde_json::Value) -> Option<Object> {
        let doc = super::view::node_of(value);
        Object::read(index, View::new(&doc))
    }
}
