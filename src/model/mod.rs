//! Typed, read-only views of the items the function reads (SPEC §3).
//!
//! Every item comes in as a JSON value (read from the lossless YAML tree). This module says
//! what each item is ([`Object`]); each kind the function reads has its own module with its
//! reader. The [`Index`] holds the kinds every stage needs (hosts, pools, control-plane
//! endpoints: [`Indexed`]); a transformation that needs another kind reads it with that
//! kind's reader from [`Index::objects_of`]. Nothing here writes text.

pub mod cluster;
pub mod config_data;
pub mod data_template;
pub mod deployment;
pub mod host;
pub mod ids;
pub mod ip_address;
pub mod ip_claim;
pub mod labels;
pub mod machine_template;
pub mod metal3_data;
pub mod metal3_data_claim;
pub mod metal3_machine;
pub mod owners;
pub mod pool;
pub mod provider;
pub mod read_set;
pub mod value;

use crate::FastSet;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::names::{ordinal, short};
use crate::results::{Finding, ResourceRef};
pub use ids::{HostId, ItemId, PoolId};
use value::{at, str_at};

/// The group of BareMetalHosts.
pub const BMO_GROUP: &str = "metal3.io";
/// The group of the IPAM's kinds (IPPool, IPClaim, IPAddress).
pub const IPAM_GROUP: &str = "ipam.metal3.io";
/// The group of CAPM3's kinds (Metal3Cluster, Metal3Data, Metal3DataTemplate, ...).
pub const CAPM3_GROUP: &str = "infrastructure.cluster.x-k8s.io";

/// Annotation that marks an object as local configuration (kpt, kustomize): never read or changed.
pub const LOCAL_CONFIG: &str = "config.kubernetes.io/local-config";

/// The identity of one item of the input.
#[derive(Debug, Clone)]
pub struct Object {
    /// Position of the item in the input.
    pub index: ItemId,
    pub api_version: String,
    pub kind: String,
    /// API group: the part of `apiVersion` before `/`, empty for the core group.
    pub group: String,
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
    pub fn read(index: ItemId, value: &Value) -> Option<Object> {
        let api_version = str_at(value, &["apiVersion"])?.to_string();
        let kind = str_at(value, &["kind"])?.to_string();
        let found = |v: &Value| {
            let text = serde_json::to_string(v).unwrap_or_default();
            let text: String = text.chars().take(40).collect();
            format!("is {text}, not a string")
        };
        let mut bad_identity = None;
        let name = match at(value, &["metadata", "name"]) {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(Value::String(_)) => {
                bad_identity = Some(("metadata.name", "is empty".to_string()));
                String::new()
            }
            None | Some(Value::Null) => {
                bad_identity = Some(("metadata.name", "is missing".to_string()));
                String::new()
            }
            Some(other) => {
                bad_identity = Some(("metadata.name", found(other)));
                String::new()
            }
        };
        let ns = match at(value, &["metadata", "namespace"]) {
            Some(Value::String(s)) if !s.is_empty() => Some(s.as_str()),
            None | Some(Value::Null) | Some(Value::String(_)) => None,
            Some(other) => {
                bad_identity = bad_identity.or(Some(("metadata.namespace", found(other))));
                None
            }
        };
        let group = api_version
            .rsplit_once('/')
            .map_or(String::new(), |(g, _)| g.to_string());
        let annotated = value
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(LOCAL_CONFIG))
            .is_some_and(|v| v.as_str() == Some("true") || v.as_bool() == Some(true));
        Some(Object {
            index,
            local_config: annotated || (kind == "Kptfile" && group == "kpt.dev"),
            api_version,
            kind,
            group,
            name,
            namespace: ns.unwrap_or("default").to_string(),
            namespace_set: ns.is_some(),
            bad_identity,
        })
    }

    /// Whether this object is `group`/`kind` (any version).
    pub fn is(&self, group: &str, kind: &str) -> bool {
        self.group == group && self.kind == kind
    }

    /// The `resourceRef` of results about this object.
    pub fn resource_ref(&self) -> ResourceRef {
        ResourceRef {
            api_version: self.api_version.clone(),
            kind: self.kind.clone(),
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
        "{} is skipped: {field} is an unrendered template ({text:?}); render it before running ipreuse",
        object.display()
    ))
    .on(object.resource_ref())
    .at(field)
}

/// Everything the function reads, indexed.
#[derive(Debug, Default)]
pub struct Index {
    /// Identities of all items, by input position (`None`: not a Kubernetes object).
    pub objects: Vec<Option<Object>>,
    pub hosts: Vec<host::Host>,
    pub pools: Vec<pool::Pool>,
    /// IP-literal control-plane endpoints (`Metal3Cluster`, `Cluster`) per namespace.
    pub endpoints: BTreeMap<String, Vec<(String, ItemId)>>,
}

/// The kinds the index reads itself, for every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indexed {
    /// `metal3.io` BareMetalHost: [`host::Host`].
    Host,
    /// `ipam.metal3.io` IPPool: [`pool::Pool`].
    Pool,
    /// Cluster API `Cluster` or CAPM3 `Metal3Cluster`: the control-plane endpoint ([`cluster`]).
    Cluster,
}

impl Indexed {
    /// Which of the indexed kinds `object` is, if any.
    pub fn of(object: &Object) -> Option<Indexed> {
        if object.is(BMO_GROUP, "BareMetalHost") {
            Some(Indexed::Host)
        } else if object.is(IPAM_GROUP, "IPPool") {
            Some(Indexed::Pool)
        } else if cluster::is_cluster(object) {
            Some(Indexed::Cluster)
        } else {
            None
        }
    }
}

impl Index {
    /// The objects of `group`/`kind` (any version) the function may read: not local
    /// configuration, with a usable name and namespace, in input order.
    pub fn objects_of<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.readable().filter(move |o| o.is(group, kind))
    }

    /// Every object the function may read: not local configuration, with a usable name and
    /// namespace, in input order.
    pub fn readable(&self) -> impl Iterator<Item = &Object> {
        self.objects
            .iter()
            .flatten()
            .filter(|o| !o.local_config && o.bad_identity.is_none())
    }

    /// The object at input position `item`, if it is a Kubernetes object.
    pub fn object(&self, item: ItemId) -> Option<&Object> {
        self.objects.get(item.0).and_then(Option::as_ref)
    }
}

/// Builds the index of the input items; reports duplicates, unrendered templates and mixed namespaces.
pub fn index(values: &[Value], findings: &mut Vec<Finding>) -> Index {
    let mut idx = Index::default();
    let mut seen: FastSet<(String, String, String, String)> = FastSet::default();
    let mut ns_written: BTreeMap<String, (bool, bool)> = BTreeMap::new();
    for (i, value) in values.iter().enumerate() {
        let obj = Object::read(ItemId(i), value);
        let Some(o) = obj.as_ref() else {
            idx.objects.push(None);
            continue;
        };
        if o.local_config {
            idx.objects.push(obj);
            continue;
        }
        let kind = Indexed::of(o);
        if let Some((field, what)) = &o.bad_identity {
            // Only the objects the function reads need a name and namespace it can use.
            if kind.is_some() {
                findings.push(
                    Finding::error(format!(
                        "{}: {field} {what}; give it a name (and namespace) as Kubernetes requires, \
                         or leave it out of the input",
                        o.display()
                    ))
                    .on(o.resource_ref())
                    .at(*field),
                );
            }
            idx.objects.push(obj);
            continue;
        }
        let key = (
            o.group.clone(),
            o.kind.clone(),
            o.namespace.clone(),
            o.name.clone(),
        );
        if !seen.insert(key) {
            findings.push(
                Finding::error(format!(
                    "{} appears twice in the input: remove one, or give them different names",
                    o.display()
                ))
                .on(o.resource_ref())
                .at("metadata.name"),
            );
        }
        let read = match kind {
            Some(Indexed::Host) => host::Host::read(o, value, findings).map(|h| idx.hosts.push(h)),
            Some(Indexed::Pool) => pool::Pool::read(o, value, findings).map(|p| idx.pools.push(p)),
            Some(Indexed::Cluster) => {
                if let Some(host) = cluster::endpoint(value) {
                    idx.endpoints
                        .entry(o.namespace.clone())
                        .or_default()
                        .push((host.to_string(), o.index));
                }
                Some(())
            }
            None => None,
        };
        if read.is_some() {
            let e = ns_written.entry(o.namespace.clone()).or_default();
            if o.namespace_set {
                e.0 = true;
            } else {
                e.1 = true;
            }
        }
        idx.objects.push(obj);
    }
    for (ns, (with, without)) in ns_written {
        if with && without {
            findings.push(Finding::warning(format!(
                "namespace {ns:?} mixes objects that set metadata.namespace with objects that do not; \
                 an orchestrator may place the unset ones elsewhere: set metadata.namespace on all of them"
            )));
        }
    }
    idx
}
