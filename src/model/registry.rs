//! The one place that says which kinds the function reads, with which reader, and the
//! [`Model`] they are read into.
//!
//! Every kind the function reads beyond an item's identity is one [`Kind`] in [`KINDS`]: its
//! API group and kind (any version), the top-level fields its reader reads, and its reader,
//! which [`Model::read`] calls once per object of that kind. A kind's reader lives in the
//! kind's own module; adding a kind is its module, its reader and one line here. An object of a
//! kind not listed here is, to the function, its identity alone (`apiVersion`, `kind`,
//! `metadata`: names, namespaces, the local-config annotation, duplicates).
//!
//! The parser does not even build what is never read: [`never_read`] and [`read_only`] are
//! its rule ([`crate::yaml::parse_items`]), so what no reader reads is parsed (checked as YAML)
//! but kept only as its place in the text. Its text is untouched either way (edits are spliced
//! into the source text).

use super::capi::{CONTROL_PLANE_GROUP, ControlPlaneTemplate, MachineTemplateUser};
use super::cluster::{CLUSTER_GROUP, Cluster};
use super::cluster_class::ClusterClass;
use super::config_data::ConfigData;
use super::data_template::{self, DataTemplate};
use super::deployment::Deployment;
use super::host::Host;
use super::ids::ItemId;
use super::index::{Index, Indexed, NotTaken, index_taking};
use super::ip_address::IpAddress;
use super::ip_claim::IpClaim;
use super::machine_template::{self, MachineTemplate};
use super::metal3_data::Metal3Data;
use super::metal3_data_claim::Metal3DataClaim;
use super::metal3_machine::Metal3Machine;
use super::objects::{Objects, Read};
use super::provider::{OPERATOR_GROUP, Provider};
use super::reading::{Reading, Taken};
use super::value::other_spellings;
use super::view::View;
use super::{BMO_GROUP, CAPM3_GROUP, IPAM_GROUP, IPREUSE_GROUP, Object, group_of};
use crate::results::Finding;
use crate::yaml::Node;
#[cfg(test)]
use serde_json::{Map, Value};
use std::sync::Arc;

/// Which top-level fields of an object of a kind its reader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Every field.
    All,
    /// Every field but these, never read (a host's `status`: inspection data, often most of
    /// its text); of each `(field, keys)` in `only`, only those keys (a host's `spec` is read
    /// for its `consumerRef` alone).
    Some {
        never: &'static [&'static str],
        only: &'static [(&'static str, &'static [&'static str])],
    },
}

/// Everything the function reads of the input, read once per run: the [`Index`] (every item's
/// identity, the hosts, the pools, the control-plane endpoints) and, by kind, every other
/// object of a kind in [`KINDS`], read by its kind's reader. The transformations take
/// `&Model` and the resolved config ([`crate::transform`]).
#[derive(Debug, Default)]
pub struct Model {
    pub index: Index,
    /// Cluster API Clusters (their topologies; the index reads their endpoints).
    pub clusters: Objects<Cluster>,
    pub cluster_classes: Objects<ClusterClass>,
    /// The control plane templates ClusterClasses name (their metadata is the control plane's).
    pub control_plane_templates: Objects<ControlPlaneTemplate>,
    /// Standalone control planes, MachineDeployments, MachineSets and Machines: the machine
    /// templates they use as written.
    pub machine_template_users: Objects<MachineTemplateUser>,
    pub machine_templates: Objects<MachineTemplate>,
    /// Read by the mapping (the pools of each machine template's hosts) and by the labels (a
    /// Metal3Data's `pool-name`), each reporting the problems of a template it uses.
    pub data_templates: Objects<DataTemplate>,
    /// SPEC §3: a warning for each field of a Metal3DataTemplate or Metal3MachineTemplate
    /// spelled as the other API version spells it ([`super::value::other_spellings`]), which
    /// the mapping reports whichever mapping the object's namespace uses.
    pub other_spellings: Vec<Finding>,
    pub ip_claims: Objects<IpClaim>,
    pub ip_addresses: Objects<IpAddress>,
    pub metal3_data: Objects<Metal3Data>,
    pub metal3_data_claims: Objects<Metal3DataClaim>,
    pub metal3_machines: Objects<Metal3Machine>,
    pub deployments: Objects<Deployment>,
    /// ConfigMaps and Secrets.
    pub config_data: Objects<ConfigData>,
    pub providers: Objects<Provider>,
}

impl Model {
    /// Reads the model of the items (each with its source and node; see [`super::index_items`]),
    /// those `taken` as the input was parsed placed as if read here.
    pub fn read(
        items: &[(usize, &Node)],
        taken: Taken,
        default_namespace: Option<&str>,
        findings: &mut Vec<Finding>,
    ) -> Result<Model, NotTaken> {
        let (index, early) = index_taking(items, taken, default_namespace, findings)?;
        let mut model = Model {
            index,
            ..Model::default()
        };
        read_all(&mut model, items, early)?;
        Ok(model)
    }

    /// Puts what a reader read in its kind's place.
    fn add(&mut self, reading: Reading) {
        match reading {
            Reading::Host(h) => self.index.hosts.push(h),
            Reading::IpClaim(r) => self.ip_claims.push(*r),
            Reading::IpAddress(r) => self.ip_addresses.push(*r),
            Reading::Metal3Data(r) => self.metal3_data.push(*r),
            Reading::Metal3DataClaim(r) => self.metal3_data_claims.push(*r),
            Reading::DataTemplate(r, spellings) => {
                self.other_spellings.extend(spellings);
                self.data_templates.push(*r);
            }
            Reading::Metal3Machine(r) => self.metal3_machines.push(*r),
            Reading::MachineTemplate(r, spellings) => {
                self.other_spellings.extend(spellings);
                self.machine_templates.push(*r);
            }
            Reading::Cluster(r) => self.clusters.push(*r),
            Reading::ClusterClass(r) => self.cluster_classes.push(*r),
            Reading::ControlPlaneTemplate(r) => self.control_plane_templates.push(*r),
            Reading::MachineTemplateUser(r) => self.machine_template_users.push(*r),
            Reading::Provider(r) => self.providers.push(*r),
            Reading::Deployment(r) => self.deployments.push(*r),
            Reading::ConfigData(r) => self.config_data.push(*r),
        }
    }

    /// The model of items written as JSON values, read as the YAML they are (tests).
    #[cfg(test)]
    pub(crate) fn of_json(values: &[Value], findings: &mut Vec<Finding>) -> Model {
        let docs: Vec<Node> = values.iter().map(super::view::node_of).collect();
        let nodes: Vec<&Node> = docs.iter().collect();
        Model::of_nodes(&nodes, findings)
    }

    /// The model of parsed items, none read as it was parsed (tests, and callers that hold
    /// their items' trees).
    pub fn of_nodes(nodes: &[&Node], findings: &mut Vec<Finding>) -> Model {
        let items: Vec<(usize, &Node)> = nodes.iter().map(|&n| (0, n)).collect();
        // nothing was taken, so every item is read here and this never errs
        Model::read(&items, Taken::default(), None, findings).unwrap_or_default()
    }
}

/// A kind's reader: what it reads of `object` (a view of its tree), with the results of
/// reading it ([`super::objects::Read`]).
pub type Reader = fn(&Object, View<'_>) -> Reading;

/// Reading as the input is parsed: [`read_as_parsed`], and the index's host reader for hosts.
impl Taken {
    /// Takes the item `node` of source `source` when it is read now as it would be read once
    /// the config is known: its identity usable and not local config, its kind read by a
    /// reader that allows it and its reading reporting nothing ([`read_as_parsed`]; a host, by
    /// the index's host reader). Its position and, when it sets none, its namespace are set
    /// when it is placed among the items ([`Reading::place`], by [`super::index_items`]). Any
    /// other item is left to be built and read later, with its results.
    pub fn take(&mut self, source: usize, node: &Node) -> bool {
        let view = View::new(node);
        // its position in the items is not known yet: it is set when placed
        let Some(object) = Object::read(ItemId(usize::MAX), view) else {
            return false;
        };
        if object.local_config || object.bad_identity.is_some() {
            return false;
        }
        let reading = if Indexed::of(&object) == Some(Indexed::Host) {
            if !kind_of(&object.api_version, &object.kind)
                .is_some_and(|k| k.may_read_as_parsed(object.namespace_set))
            {
                return false;
            }
            let mut findings = Vec::new();
            match Host::read(&Arc::new(object), view, &mut findings) {
                Some(read) if findings.is_empty() => Reading::Host(read),
                _ => return false,
            }
        } else {
            match read_as_parsed(&object, view) {
                Some(reading) => reading,
                None => return false,
            }
        };
        if !reading.reports_nothing() {
            return false;
        }
        self.0.push(((source, node.span.start), reading));
        true
    }
}

/// What may change a kind's reading after the input is parsed, besides the object's position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Later {
    /// A transformation may write into its objects: the write needs their trees.
    pub written: bool,
    /// Its reader reads the object's namespace beyond its identity (a reference's namespace
    /// defaults to the object's own): one that sets none is read where `defaultNamespace`
    /// puts it.
    pub reads_namespace: bool,
}

/// A kind the function reads.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    pub group: &'static str,
    pub kind: &'static str,
    pub fields: Fields,
    /// Its reader; `None` for the kinds the [`super::Index`] reads itself (hosts, pools,
    /// clusters' endpoints) and those read apart (the config among the inputs).
    pub read: Option<Reader>,
    /// What may change its reading once the config is known ([`read_as_parsed`]).
    pub later: Later,
}

impl Kind {
    const fn all(group: &'static str, kind: &'static str) -> Kind {
        Kind {
            group,
            kind,
            fields: Fields::All,
            read: None,
            later: Later {
                written: false,
                reads_namespace: false,
            },
        }
    }

    /// A kind of which only the keys of `only`'s fields are read, and never `status` (Cluster API's
    /// machines and their owners, often many in a live export: only their template reference).
    const fn spec_only(
        group: &'static str,
        kind: &'static str,
        only: &'static [(&'static str, &'static [&'static str])],
    ) -> Kind {
        Kind {
            fields: Fields::Some {
                never: &["status"],
                only,
            },
            ..Kind::all(group, kind)
        }
    }

    /// This kind, read by `read`.
    const fn read_by(self, read: Reader) -> Kind {
        Kind {
            read: Some(read),
            ..self
        }
    }

    /// This kind, whose objects a transformation may write into.
    const fn written(self) -> Kind {
        Kind {
            later: Later {
                written: true,
                ..self.later
            },
            ..self
        }
    }

    /// This kind, whose reader reads the object's namespace beyond its identity.
    const fn reading_its_namespace(self) -> Kind {
        Kind {
            later: Later {
                reads_namespace: true,
                ..self.later
            },
            ..self
        }
    }

    /// Whether an object of this kind may be read as the input is parsed, before the config
    /// is known: never written, and placed in its namespace whatever `defaultNamespace` says
    /// (`namespace_set`: it sets one) or read the same in any.
    pub fn may_read_as_parsed(&self, namespace_set: bool) -> bool {
        !self.later.written && (namespace_set || !self.later.reads_namespace)
    }
}

/// Every kind the function reads beyond its identity, any version.
pub const KINDS: &[Kind] = &[
    Kind {
        group: BMO_GROUP,
        kind: "BareMetalHost",
        fields: Fields::Some {
            never: &["status"],
            only: &[("spec", &["consumerRef"])],
        },
        read: None,
        later: Later {
            written: false,
            reads_namespace: false,
        },
    },
    Kind::all(IPAM_GROUP, "IPPool").written(),
    // the labels transformation writes `data-name` and `pool-name` (SPEC §7)
    Kind::all(IPAM_GROUP, "IPClaim")
        .read_by(|o, v| Reading::IpClaim(Box::new(Read::of(o, |_| Some(IpClaim::read(o, v))))))
        .written(),
    Kind::all(IPAM_GROUP, "IPAddress")
        .read_by(|o, v| Reading::IpAddress(Box::new(Read::of(o, |f| IpAddress::read(o, v, f))))),
    Kind::all(CAPM3_GROUP, "Metal3Cluster"),
    // the labels transformation writes `data-name` and `pool-name`; `spec.template.namespace`
    // defaults to the object's
    Kind::all(CAPM3_GROUP, "Metal3Data")
        .read_by(|o, v| {
            Reading::Metal3Data(Box::new(Read::of(o, |_| Some(Metal3Data::read(o, v)))))
        })
        .written()
        .reading_its_namespace(),
    Kind::all(CAPM3_GROUP, "Metal3DataClaim").read_by(|o, v| {
        Reading::Metal3DataClaim(Box::new(Read::of(o, |f| Metal3DataClaim::read(o, v, f))))
    }),
    Kind::all(CAPM3_GROUP, "Metal3DataTemplate").read_by(|o, v| {
        Reading::DataTemplate(
            Box::new(Read::of(o, |f| DataTemplate::read(o, v, f))),
            other_spellings(o, v, &data_template::SPELLINGS),
        )
    }),
    Kind::all(CAPM3_GROUP, "Metal3Machine").read_by(|o, v| {
        Reading::Metal3Machine(Box::new(Read::of(o, |f| Metal3Machine::read(o, v, f))))
    }),
    // its data template's namespace defaults to its own, and must be it
    Kind::all(CAPM3_GROUP, "Metal3MachineTemplate")
        .read_by(|o, v| {
            Reading::MachineTemplate(
                Box::new(Read::of(o, |f| MachineTemplate::read(o, v, f))),
                other_spellings(o, v, &machine_template::SPELLINGS),
            )
        })
        .reading_its_namespace(),
    // its topology's class namespace defaults to its own, set again when it is placed
    Kind::all(CLUSTER_GROUP, "Cluster")
        .read_by(|o, v| Reading::Cluster(Box::new(Read::of(o, |f| Some(Cluster::read(o, v, f)))))),
    Kind::all(CLUSTER_GROUP, "ClusterClass").read_by(|o, v| {
        Reading::ClusterClass(Box::new(Read::of(o, |f| Some(ClusterClass::read(o, v, f)))))
    }),
    Kind::all(CONTROL_PLANE_GROUP, "KubeadmControlPlaneTemplate").read_by(|o, v| {
        Reading::ControlPlaneTemplate(Box::new(Read::of(o, |_| {
            Some(ControlPlaneTemplate::read(o, v))
        })))
    }),
    // the machine templates they use as written
    Kind::spec_only(
        CONTROL_PLANE_GROUP,
        "KubeadmControlPlane",
        &[("spec", &["machineTemplate"])],
    )
    .read_by(read_machine_template_user),
    Kind::spec_only(
        CLUSTER_GROUP,
        "MachineDeployment",
        &[("spec", &["template"])],
    )
    .read_by(read_machine_template_user),
    Kind::spec_only(CLUSTER_GROUP, "MachineSet", &[("spec", &["template"])])
        .read_by(read_machine_template_user),
    Kind::spec_only(
        CLUSTER_GROUP,
        "Machine",
        &[("spec", &["infrastructureRef"])],
    )
    .read_by(read_machine_template_user),
    // the controller flag writes these four kinds (SPEC §8); `spec.configSecret.namespace`
    // defaults to the provider's
    Kind::all(OPERATOR_GROUP, "InfrastructureProvider")
        .read_by(|o, v| Reading::Provider(Box::new(Read::of(o, |f| Some(Provider::read(o, v, f))))))
        .written()
        .reading_its_namespace(),
    Kind::all("apps", "Deployment")
        .read_by(|o, v| {
            Reading::Deployment(Box::new(Read::of(o, |f| Some(Deployment::read(o, v, f)))))
        })
        .written(),
    Kind::all("", "ConfigMap")
        .read_by(read_config_data)
        .written(),
    Kind::all("", "Secret").read_by(read_config_data).written(),
    // the config among the inputs (SPEC §1), read whole by `config::ConfigItem`
    Kind::all(IPREUSE_GROUP, "IPReuse"),
];

/// The reader of the kinds that use a machine template as written.
fn read_machine_template_user(o: &Object, v: View<'_>) -> Reading {
    Reading::MachineTemplateUser(Box::new(Read::of(o, |_| {
        Some(MachineTemplateUser::read(o, v))
    })))
}

/// A ConfigMap's or Secret's reader.
fn read_config_data(o: &Object, v: View<'_>) -> Reading {
    Reading::ConfigData(Box::new(Read::of(o, |f| Some(ConfigData::read(o, v, f)))))
}

/// What the reader of `object`'s kind reads of it as the input is parsed, when that is what
/// it would read once the config is known, placed ([`Reading::place`]): its kind allows it
/// ([`Kind::may_read_as_parsed`]) and its reading reports nothing. `None`: read it later.
/// Hosts are the index's ([`super::Taken::take`]).
pub fn read_as_parsed(object: &Object, view: View<'_>) -> Option<Reading> {
    let kind = kind_of(&object.api_version, &object.kind)?;
    if !kind.may_read_as_parsed(object.namespace_set) {
        return None;
    }
    // The index reads a pool or a Metal3Cluster from its tree (hosts, which it also reads, are
    // read here whole; a Cluster's reading holds its control-plane endpoint for the index).
    let cluster = object.is(super::cluster::CLUSTER_GROUP, "Cluster");
    if super::Indexed::of(object).is_some_and(|k| k != super::Indexed::Host && !cluster) {
        return None;
    }
    let reading = (kind.read?)(object, view);
    reading.reports_nothing().then_some(reading)
}

/// Reads, with the Metal3MachineTemplate reader, a template that is no item: a Cluster's copy of
/// its ClusterClass's template, with the class's patches applied (SPEC §11), whose identity is
/// `object`. `None` (with the reader's results) as for an item.
pub fn read_machine_template(
    object: &Object,
    value: &serde_json::Value,
    findings: &mut Vec<Finding>,
) -> Option<MachineTemplate> {
    // the tree the value's JSON text parses to, built without the text
    let root = crate::yaml::Node::from_json(value);
    MachineTemplate::read(object, View::new(&root), findings)
}

/// The fields of every item that are read whatever its kind.
const IDENTITY: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// Whether the top-level field `key` of an item with this `apiVersion` and `kind` is never
/// read. The reader parses such a field without building it
/// ([`crate::yaml::parse_items`]).
pub fn never_read(api_version: &str, kind: &str, key: &str) -> bool {
    if IDENTITY.contains(&key) {
        return false;
    }
    match kind_of(api_version, kind) {
        Some(k) => match k.fields {
            Fields::All => false,
            Fields::Some { never, .. } => never.contains(&key),
        },
        None => true,
    }
}

/// The keys read of the top-level field `key` of an item with this `apiVersion` and `kind`,
/// when only some are ([`Fields::Some`]): the reader builds only their values
/// ([`crate::yaml::SkipRule::only`]).
pub fn read_only(api_version: &str, kind: &str, key: &str) -> Option<&'static [&'static str]> {
    match kind_of(api_version, kind)?.fields {
        Fields::All => None,
        Fields::Some { only, .. } => only.iter().find(|(f, _)| *f == key).map(|(_, keys)| *keys),
    }
}

/// The JSON value of an item, holding what the function reads of it (see the module): for the
/// tests that hold the parser's skip rule to it.
#[cfg(test)]
pub fn item_value(node: &Node) -> Value {
    let text = |key: &str| node.get(key).and_then(Node::as_str);
    let (Some(api_version), Some(kind), Some(map)) =
        (text("apiVersion"), text("kind"), node.as_map())
    else {
        // Not an object the function reads by kind: read as written (the framing reports it).
        return node.to_json();
    };
    if kind_of(api_version, kind).is_some_and(|k| k.fields == Fields::All) {
        return node.to_json();
    }
    let skipped = |key: &str| never_read(api_version, kind, key);
    let only = |key: &str| read_only(api_version, kind, key);
    // Only the fields kept are converted. A merge key (`<<`) or a key that is not a string
    // makes the mapping read as a whole first, as `to_json` reads it, before fields are dropped.
    let simple = !map.has_merge() && map.entries.iter().all(|(k, _)| k.as_str().is_some());
    if !simple {
        return match node.to_json() {
            Value::Object(all) => Value::Object(
                all.into_iter()
                    .filter(|(k, _)| !skipped(k))
                    .map(|(k, v)| {
                        let v = match only(&k) {
                            Some(keys) => keep_keys(v, keys),
                            None => v,
                        };
                        (k, v)
                    })
                    .collect(),
            ),
            other => other,
        };
    }
    let mut kept = Map::with_capacity(map.entries.len());
    for (k, v) in &map.entries {
        if let Some(key) = k.as_str()
            && !skipped(key)
        {
            let value = match only(key) {
                Some(keys) => part_json(v, keys),
                None => v.to_json(),
            };
            kept.insert(key.to_owned(), value);
        }
    }
    Value::Object(kept)
}

#[cfg(test)]
/// The JSON value of `node` with only `keys` when it is a mapping: those keys are converted,
/// the others never are. A mapping with a merge key or a key that is not a string is read
/// whole first, as `to_json` reads it.
fn part_json(node: &Node, keys: &[&str]) -> Value {
    match node.as_map() {
        Some(map) if !map.has_merge() && map.entries.iter().all(|(k, _)| k.as_str().is_some()) => {
            let mut kept = Map::new();
            for (k, v) in &map.entries {
                if let Some(key) = k.as_str()
                    && keys.contains(&key)
                {
                    kept.insert(key.to_owned(), v.to_json());
                }
            }
            Value::Object(kept)
        }
        _ => keep_keys(node.to_json(), keys),
    }
}

#[cfg(test)]
/// `value` with only `keys` when it is an object; any other value as it is.
fn keep_keys(value: Value, keys: &[&str]) -> Value {
    match value {
        Value::Object(all) => Value::Object(
            all.into_iter()
                .filter(|(k, _)| keys.contains(&k.as_str()))
                .collect(),
        ),
        other => other,
    }
}

/// Reads every object of `model`'s index whose kind has a reader, in input order, from a view
/// of its node in `items` (by input position, as [`Model::read`] has them), or, for an item
/// taken as it was parsed, from `early` (what was read of those, placed, in input order).
fn read_all(
    model: &mut Model,
    items: &[(usize, &Node)],
    early: Vec<Reading>,
) -> Result<(), NotTaken> {
    let objects: Vec<Arc<Object>> = model
        .index
        .objects
        .iter()
        .flatten()
        .filter(|o| !o.local_config && o.bad_identity.is_none())
        .cloned()
        .collect();
    let mut early = early.into_iter().peekable();
    for o in objects {
        let read = kind_of(&o.api_version, &o.kind).and_then(|k| k.read);
        let (Some(read), Some((_, node))) = (read, items.get(o.index.0)) else {
            continue;
        };
        if node.is_taken() {
            let taken = early.next_if(|r| r.object().is_some_and(|t| t.index == o.index));
            model.add(taken.ok_or(NotTaken { item: o.index })?);
        } else {
            model.add(read(&o, View::new(node)));
        }
    }
    Ok(())
}

/// The kind of an object with this `apiVersion` and `kind`, if the function reads it.
pub fn kind_of(api_version: &str, kind: &str) -> Option<&'static Kind> {
    let group = group_of(api_version);
    KINDS.iter().find(|k| k.group == group && k.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The item's value, the same whether what is never read is built or not.
    fn value(text: &str) -> Value {
        let docs = crate::yaml::parse(text).expect("YAML");
        let lean = crate::yaml::parse_items(
            text,
            &crate::krm::read::SKIP,
            crate::limits::DEFAULT_MAX_ALIAS_NODES,
        )
        .expect("YAML");
        let v = item_value(&docs[0].root);
        assert_eq!(v, item_value(&lean[0].root), "{text}");
        v
    }

    #[test]
    fn a_kind_that_is_read_is_read_whole() {
        let pool = "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: p}\n\
                    spec: {namePrefix: p}\nstatus: {indexes: {a: 10.0.0.1}}\n";
        assert_eq!(
            value(pool),
            crate::yaml::parse(pool).unwrap()[0].root.to_json()
        );
        let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n";
        assert_eq!(value(cm)["data"], json!({"k": "v"}));
    }

    #[test]
    fn a_host_is_read_without_its_status() {
        let host = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h}\n\
                    spec: {online: true}\nstatus: {hardware: {ramMebibytes: 1}}\n";
        assert_eq!(
            value(host),
            json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
                   "metadata": {"name": "h"}, "spec": {}})
        );
        // Of its spec only the consumerRef is read (adoption); the rest is never converted.
        let placed = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h}\n\
                      spec:\n  online: true\n  bmc: {address: redfish://x}\n  \
                      consumerRef: {kind: Metal3Machine, name: m}\n";
        assert_eq!(
            value(placed)["spec"],
            json!({"consumerRef": {"kind": "Metal3Machine", "name": "m"}})
        );
        // A spec that is not a mapping is read as written (the host's reader reports it).
        assert_eq!(
            value(
                "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h}\nspec: [1]\n"
            )["spec"],
            json!([1])
        );
    }

    #[test]
    fn any_other_kind_is_its_identity_alone() {
        let other = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  \
                     annotations: {config.kubernetes.io/local-config: \"true\"}\nspec: {a: 1}\n\
                     data: [1, 2]\n";
        assert_eq!(
            value(other),
            json!({"apiVersion": "example.com/v1", "kind": "Widget",
                   "metadata": {"name": "w",
                                "annotations": {"config.kubernetes.io/local-config": "true"}}})
        );
        // The same kind name in another group is another kind.
        let deployment =
            "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n";
        assert!(value(deployment).get("spec").is_none());
    }

    #[test]
    fn merge_keys_are_read_before_fields_are_dropped() {
        let merged =
            "apiVersion: example.com/v1\nkind: Widget\n<<: {metadata: {name: w}, spec: {a: 1}}\n";
        assert_eq!(
            value(merged),
            json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})
        );
        let host = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\n\
                    <<: {metadata: {name: h}, status: {a: 1}, spec: {online: true, consumerRef: {name: m}}}\n";
        assert_eq!(
            value(host),
            json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
                   "metadata": {"name": "h"}, "spec": {"consumerRef": {"name": "m"}}})
        );
        let inner = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h}\n\
                     spec: {<<: {consumerRef: {name: m}}, online: true}\n";
        assert_eq!(value(inner)["spec"], json!({"consumerRef": {"name": "m"}}));
    }

    #[test]
    fn not_an_object_is_read_as_written() {
        assert_eq!(value("[1, 2]\n"), json!([1, 2]));
        assert_eq!(value("kind: Widget\n"), json!({"kind": "Widget"}));
    }

    /// The model of `text` (one source) as a run reads it, the items whose reading allows it
    /// taken as they are parsed, with the kinds of the items taken; asserted to be the model
    /// read with every tree held, findings and all (`at` names the case).
    fn both_ways(at: &str, text: &str, default_namespace: Option<&str>) -> (Model, Vec<String>) {
        let sources = [crate::krm::Source {
            name: "-".into(),
            text: text.into(),
        }];
        let mut taken = Taken::default();
        let lean =
            crate::krm::read_taking(&sources, 1000, &mut |s, n| taken.take(s, n)).expect("reads");
        let kinds: Vec<String> = (taken.readings())
            .map(|r| match r.object() {
                Some(o) => o.kind.to_string(),
                None => String::new(),
            })
            .collect();
        fn nodes_of(input: &crate::krm::Input) -> Vec<(usize, &Node)> {
            (input.items.iter())
                .map(|at| (at.source, input.node(at).expect("item")))
                .collect()
        }
        let mut f1 = Vec::new();
        let early = Model::read(&nodes_of(&lean), taken, default_namespace, &mut f1)
            .expect("every item taken is read");
        let whole = crate::krm::read(&sources).expect("reads");
        let mut f2 = Vec::new();
        let late = Model::read(
            &nodes_of(&whole),
            Taken::default(),
            default_namespace,
            &mut f2,
        )
        .expect("nothing taken");
        // every object of every kind, with the results of reading it
        assert_eq!(f1, f2, "{at}");
        assert_eq!(format!("{early:#?}"), format!("{late:#?}"), "{at}");
        (early, kinds)
    }

    /// A fleet that keeps its live objects (each host's Metal3Machine, Metal3DataClaim and
    /// Metal3Data, an IPClaim and an IPAddress a pool, as `bench/gen_fleet.py --live` writes
    /// them) reads the same model with its items taken as they are parsed as with every tree
    /// held; what no transformation writes is taken, what one may write is not.
    #[test]
    fn a_fleet_with_live_objects_reads_the_same_taken_or_not() {
        let capm3 = "infrastructure.cluster.x-k8s.io/v1beta1";
        let mut items = String::new();
        for i in 0..3 {
            let (host, machine, data) = (format!("node-{i}"), format!("m-{i}"), format!("d-{i}"));
            items.push_str(&format!(
                "- apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata: {{name: {host}, namespace: fleet}}\n  spec:\n    consumerRef: {{kind: Metal3Machine, name: {machine}}}\n\
                 - apiVersion: {capm3}\n  kind: Metal3Machine\n  metadata:\n    name: {machine}\n    namespace: fleet\n    annotations: {{metal3.io/BareMetalHost: fleet/{host}}}\n\
                 - apiVersion: {capm3}\n  kind: Metal3DataClaim\n  metadata:\n    name: {machine}\n    namespace: fleet\n    ownerReferences: [{{apiVersion: {capm3}, kind: Metal3Machine, name: {machine}, controller: true}}]\n\
                 - apiVersion: {capm3}\n  kind: Metal3Data\n  metadata: {{name: {data}, namespace: fleet}}\n  spec: {{claim: {{name: {machine}}}, template: {{name: t}}}}\n"
            ));
            for pool in ["prov", "ext"] {
                let claim = format!("{host}-{pool}");
                items.push_str(&format!(
                    "- apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPClaim\n  metadata:\n    name: {claim}\n    namespace: fleet\n    labels: {{pool-name: {pool}, data-name: {data}}}\n    ownerReferences: [{{apiVersion: {capm3}, kind: Metal3Data, name: {data}}}]\n  spec: {{pool: {{name: {pool}}}}}\n\
                     - apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPAddress\n  metadata: {{name: {pool}-{i}, namespace: fleet}}\n  spec: {{address: 10.0.0.{i}, claim: {{name: {claim}}}, pool: {{name: {pool}}}}}\n"
                ));
            }
        }
        for pool in ["prov", "ext"] {
            items.push_str(&format!(
                "- apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPPool\n  metadata: {{name: {pool}, namespace: fleet}}\n  spec: {{namePrefix: {pool}, pools: [{{start: 10.0.0.0, end: 10.0.0.9}}], prefix: 24}}\n"
            ));
        }
        // and one of each whose reading reports something: read late, with its results
        items.push_str(&format!(
            "- apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPAddress\n  metadata: {{name: bad, namespace: fleet}}\n  spec: {{address: [1]}}\n\
             - apiVersion: {capm3}\n  kind: Metal3Machine\n  metadata:\n    name: bad\n    annotations: {{metal3.io/BareMetalHost: [x]}}\n"
        ));
        let text =
            format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}");
        for ns in [None, Some("metal3")] {
            let (early, kinds) = both_ways(&format!("{ns:?}"), &text, ns);
            let count = |kind: &str| kinds.iter().filter(|k| *k == kind).count();
            assert_eq!(
                [
                    count("BareMetalHost"),
                    count("Metal3Machine"),
                    count("Metal3DataClaim"),
                    count("IPAddress"),
                ],
                [3, 3, 3, 6],
                "{kinds:?}"
            );
            for written in ["IPClaim", "Metal3Data", "IPPool"] {
                assert_eq!(count(written), 0, "{written} is written, never taken");
            }
            assert_eq!(early.ip_addresses.len(), 7);
            assert_eq!(early.ip_claims.len(), 6);
            assert_eq!(early.metal3_machines.len(), 4);
            // the two bad ones are read late, and their results kept with them
            let bad = early.ip_addresses.iter().last().expect("read");
            assert!(bad.value.is_none() && bad.findings.len() == 1);
        }
    }

    /// An item of every kind read as the input is parsed that sets no namespace is placed in
    /// `defaultNamespace` as if read late; a kind whose reader reads its namespace (or that a
    /// transformation writes) is read late.
    #[test]
    fn a_taken_item_of_each_kind_is_placed_in_the_default_namespace() {
        let mut items = String::new();
        for k in KINDS {
            let api_version = if k.group.is_empty() {
                "v1".to_string()
            } else {
                format!("{}/v1beta1", k.group)
            };
            items.push_str(&format!(
                "- apiVersion: {api_version}\n  kind: {}\n  metadata: {{name: x}}\n",
                k.kind
            ));
        }
        let text =
            format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}");
        for ns in [None, Some("metal3")] {
            let (early, kinds) = both_ways(&format!("{ns:?}"), &text, ns);
            let readable = |k: &Kind| k.read.is_some() || k.kind == "BareMetalHost";
            let want: Vec<&str> = (KINDS.iter())
                .filter(|k| readable(k) && k.may_read_as_parsed(false))
                .map(|k| k.kind)
                .collect();
            assert_eq!(kinds, want);
            for k in [
                "BareMetalHost",
                "IPAddress",
                "Metal3DataClaim",
                "Metal3Machine",
                "ClusterClass",
                "Metal3DataTemplate",
                "Cluster",
            ] {
                assert!(want.contains(&k), "{k} is taken");
            }
            for o in early.index.objects.iter().flatten() {
                assert_eq!(o.namespace, ns.unwrap_or("default"), "{}", o.kind);
                assert!(!o.namespace_set);
            }
            let placed = |o: &Object| o.namespace == ns.unwrap_or("default");
            assert!(early.index.hosts.iter().all(|h| placed(&h.object)));
            assert!(
                early
                    .ip_addresses
                    .iter()
                    .all(|r| r.value.as_ref().is_some_and(|t| placed(&t.object)))
            );
            assert!(
                early
                    .metal3_data_claims
                    .iter()
                    .all(|r| r.value.as_ref().is_some_and(|t| placed(&t.object)))
            );
            assert!(
                early
                    .metal3_machines
                    .iter()
                    .all(|r| r.value.as_ref().is_some_and(|t| placed(&t.object)))
            );
            assert!(
                early
                    .cluster_classes
                    .iter()
                    .all(|r| r.value.as_ref().is_some_and(|t| placed(&t.object)))
            );
            assert!(
                early
                    .data_templates
                    .iter()
                    .all(|r| r.value.as_ref().is_some_and(|t| placed(&t.object)))
            );
            // and each at its own position
            for (i, o) in early.index.objects.iter().enumerate() {
                assert_eq!(o.as_ref().map(|o| o.index), Some(ItemId(i)));
            }
        }
    }

    /// A Cluster that sets no namespace, read as it is parsed, gets the class namespace of the
    /// namespace it is placed in, as when it is read late: the class of a topology that names
    /// no namespace is in the Cluster's own.
    #[test]
    fn a_taken_cluster_takes_its_class_namespace_from_where_it_is_placed() {
        let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n\
            - apiVersion: cluster.x-k8s.io/v1beta2\n  kind: Cluster\n  metadata: {name: c1}\n\
            \x20 spec:\n    topology: {classRef: {name: metal3}, version: v1.34.1}\n\
            - apiVersion: cluster.x-k8s.io/v1beta2\n  kind: Cluster\n  metadata: {name: c2}\n\
            \x20 spec:\n    topology: {classRef: {name: metal3, namespace: classes}, version: v1.34.1}\n";
        for ns in [None, Some("metal3")] {
            let (early, kinds) = both_ways(&format!("{ns:?}"), text, ns);
            assert_eq!(kinds, ["Cluster", "Cluster"], "both taken");
            let class_ns: Vec<&str> = (early.clusters.iter())
                .filter_map(|r| r.value.as_ref()?.topology.as_ref())
                .map(|t| t.class_namespace.as_str())
                .collect();
            assert_eq!(class_ns, [ns.unwrap_or("default"), "classes"]);
        }
    }

    /// Every example and test input reads the same model when the items whose reading allows
    /// it are taken as they are parsed, and items of kinds other than hosts are indeed taken.
    #[test]
    fn every_example_reads_the_same_model_taken_or_not() {
        let mut paths = crate::model::yaml_files("examples");
        paths.extend(crate::model::yaml_files("tests/data"));
        let mut others = 0;
        for path in &paths {
            let text = std::fs::read_to_string(path).expect("text");
            if crate::krm::read(&[crate::krm::Source {
                name: "-".into(),
                text: text.clone(),
            }])
            .is_err()
            {
                continue;
            }
            for ns in [None, Some("metal3")] {
                let at = format!("{} {ns:?}", path.display());
                let (_, kinds) = both_ways(&at, &text, ns);
                others += kinds.iter().filter(|k| *k != "BareMetalHost").count();
            }
        }
        assert!(others > 10, "{others} items other than hosts taken");
    }

    /// Every YAML file of `examples/` reads the same, item by item, when what is never read is
    /// not built (`parse_items`), and the rule skips something in them.
    #[test]
    fn what_is_not_built_is_what_is_not_read() {
        let paths = crate::model::yaml_files("examples");
        let mut skipped = 0;
        for path in &paths {
            let text = std::fs::read_to_string(path).expect("text");
            let Ok(full) = crate::yaml::parse(&text) else {
                continue;
            };
            let lean = crate::yaml::parse_items(
                &text,
                &crate::krm::read::SKIP,
                crate::limits::DEFAULT_MAX_ALIAS_NODES,
            )
            .expect("parses");
            assert_eq!(full.len(), lean.len(), "{}", path.display());
            for (f, l) in full.iter().zip(&lean) {
                skipped += usize::from(l.skipped);
                assert_eq!(
                    item_value(&f.root),
                    item_value(&l.root),
                    "{}",
                    path.display()
                );
            }
        }
        assert!(
            paths.len() > 20 && skipped > 5,
            "{} files, {skipped} skipped",
            paths.len()
        );
    }
}
