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

use super::cluster::{CLUSTER_GROUP, Cluster};
use super::cluster_class::ClusterClass;
use super::config_data::ConfigData;
use super::data_template::{self, DataTemplate};
use super::deployment::Deployment;
use super::index::{Index, NotTaken, Taken, index_items};
use super::ip_address::IpAddress;
use super::ip_claim::IpClaim;
use super::machine_template::{self, MachineTemplate};
use super::metal3_data::Metal3Data;
use super::metal3_data_claim::Metal3DataClaim;
use super::metal3_machine::Metal3Machine;
use super::objects::{Objects, Read};
use super::provider::{OPERATOR_GROUP, Provider};
use super::value::other_spellings;
use super::view::View;
use super::{BMO_GROUP, CAPM3_GROUP, IPAM_GROUP, IPREUSE_GROUP, Object, group_of};
use crate::results::Finding;
use crate::yaml::Node;
#[cfg(test)]
use serde_json::{Map, Value};

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
    /// Reads the model of the items (each with its source and node; see [`super::index_items`]).
    pub fn read(
        items: &[(usize, &Node)],
        taken: Taken,
        default_namespace: Option<&str>,
        findings: &mut Vec<Finding>,
    ) -> Result<Model, NotTaken> {
        let index = index_items(items, taken, default_namespace, findings)?;
        let mut model = Model {
            index,
            ..Model::default()
        };
        read_all(&mut model, items);
        Ok(model)
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

/// A kind's reader: reads `object` (a view of its tree) into its kind's place in the model,
/// with the results of reading it ([`super::objects::Read`]).
pub type Reader = fn(&Object, View<'_>, &mut Model);

/// A kind the function reads.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    pub group: &'static str,
    pub kind: &'static str,
    pub fields: Fields,
    /// Its reader; `None` for the kinds the [`super::Index`] reads itself (hosts, pools,
    /// clusters' endpoints) and those read apart (the config among the inputs).
    pub read: Option<Reader>,
}

impl Kind {
    const fn all(group: &'static str, kind: &'static str) -> Kind {
        Kind {
            group,
            kind,
            fields: Fields::All,
            read: None,
        }
    }

    /// This kind, read by `read`.
    const fn read_by(self, read: Reader) -> Kind {
        Kind {
            read: Some(read),
            ..self
        }
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
    },
    Kind::all(IPAM_GROUP, "IPPool"),
    Kind::all(IPAM_GROUP, "IPClaim")
        .read_by(|o, v, m| m.ip_claims.push(Read::of(o, |_| Some(IpClaim::read(o, v))))),
    Kind::all(IPAM_GROUP, "IPAddress").read_by(|o, v, m| {
        m.ip_addresses
            .push(Read::of(o, |f| IpAddress::read(o, v, f)))
    }),
    Kind::all(CAPM3_GROUP, "Metal3Cluster"),
    Kind::all(CAPM3_GROUP, "Metal3Data").read_by(|o, v, m| {
        m.metal3_data
            .push(Read::of(o, |_| Some(Metal3Data::read(o, v))))
    }),
    Kind::all(CAPM3_GROUP, "Metal3DataClaim").read_by(|o, v, m| {
        m.metal3_data_claims
            .push(Read::of(o, |f| Metal3DataClaim::read(o, v, f)))
    }),
    Kind::all(CAPM3_GROUP, "Metal3DataTemplate").read_by(|o, v, m| {
        m.other_spellings
            .extend(other_spellings(o, v, &data_template::SPELLINGS));
        m.data_templates
            .push(Read::of(o, |f| DataTemplate::read(o, v, f)))
    }),
    Kind::all(CAPM3_GROUP, "Metal3Machine").read_by(|o, v, m| {
        m.metal3_machines
            .push(Read::of(o, |f| Metal3Machine::read(o, v, f)))
    }),
    Kind::all(CAPM3_GROUP, "Metal3MachineTemplate").read_by(|o, v, m| {
        m.other_spellings
            .extend(other_spellings(o, v, &machine_template::SPELLINGS));
        m.machine_templates
            .push(Read::of(o, |f| MachineTemplate::read(o, v, f)))
    }),
    Kind::all(CLUSTER_GROUP, "Cluster")
        .read_by(|o, v, m| m.clusters.push(Read::of(o, |_| Some(Cluster::read(o, v))))),
    Kind::all(CLUSTER_GROUP, "ClusterClass").read_by(|o, v, m| {
        m.cluster_classes
            .push(Read::of(o, |_| Some(ClusterClass::read(o, v))))
    }),
    Kind::all(OPERATOR_GROUP, "InfrastructureProvider").read_by(|o, v, m| {
        m.providers
            .push(Read::of(o, |f| Some(Provider::read(o, v, f))))
    }),
    Kind::all("apps", "Deployment").read_by(|o, v, m| {
        m.deployments
            .push(Read::of(o, |f| Some(Deployment::read(o, v, f))))
    }),
    Kind::all("", "ConfigMap").read_by(read_config_data),
    Kind::all("", "Secret").read_by(read_config_data),
    // the config among the inputs (SPEC §1), read whole by `config::ConfigItem`
    Kind::all(IPREUSE_GROUP, "IPReuse"),
];

/// A ConfigMap's or Secret's reader.
fn read_config_data(o: &Object, v: View<'_>, m: &mut Model) {
    m.config_data
        .push(Read::of(o, |f| Some(ConfigData::read(o, v, f))))
}

/// Reads, with the Metal3MachineTemplate reader, a template that is no item: a Cluster's copy of
/// its ClusterClass's template, with the class's patches applied (SPEC §11), whose identity is
/// `object`. `None` (with the reader's results) as for an item.
pub fn read_machine_template(
    object: &Object,
    value: &serde_json::Value,
    findings: &mut Vec<Finding>,
) -> Option<MachineTemplate> {
    // JSON text is YAML, which parses to the tree the JSON value is read from
    let docs = crate::yaml::parse(&value.to_string()).ok()?;
    let doc = docs.first()?;
    MachineTemplate::read(object, View::new(&doc.root), findings)
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
/// of its node in `items` (by input position, as [`Model::read`] has them).
pub fn read_all(model: &mut Model, items: &[(usize, &Node)]) {
    let objects: Vec<std::sync::Arc<Object>> = model
        .index
        .objects
        .iter()
        .flatten()
        .filter(|o| !o.local_config && o.bad_identity.is_none())
        .cloned()
        .collect();
    for o in objects {
        let read = kind_of(&o.api_version, &o.kind).and_then(|k| k.read);
        if let (Some(read), Some((_, node))) = (read, items.get(o.index.0)) {
            read(&o, View::new(node), model);
        }
    }
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
