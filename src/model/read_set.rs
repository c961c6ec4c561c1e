//! Which parts of the input the function reads, so that nothing else is converted to JSON.
//!
//! Every item's identity is read (`apiVersion`, `kind`, `metadata`: names, namespaces, the
//! local-config annotation, duplicates). Beyond that, only the kinds listed in [`READ`] are
//! read at all; of a BareMetalHost never its `status` (inspection data, often most of a
//! host's text), and of its `spec` only the `consumerRef` (`READ_ONLY`). An item of any
//! other kind is, to the function, its identity alone: its JSON value holds `apiVersion`,
//! `kind` and `metadata` and nothing else. Its text is untouched either way (edits are spliced
//! into the source text).
//!
//! The reader does not even build what is never read: [`never_read`] and [`read_only`] are its
//! rule ([`crate::yaml::parse_items`]), so what [`item_value`] drops is parsed (checked as
//! YAML) but kept only as its place in the text.
//!
//! A reader for a new kind must add it to [`READ`]: without it, the reader sees no `spec`.

use serde_json::{Map, Value};

use super::cluster::CLUSTER_GROUP;
use super::provider::OPERATOR_GROUP;
use super::{BMO_GROUP, CAPM3_GROUP, IPAM_GROUP, group_of};
use crate::yaml::Node;

/// The (API group, kind) pairs the function reads beyond their identity, any version.
pub const READ: &[(&str, &str)] = &[
    (BMO_GROUP, "BareMetalHost"),
    (IPAM_GROUP, "IPPool"),
    (IPAM_GROUP, "IPClaim"),
    (IPAM_GROUP, "IPAddress"),
    (CAPM3_GROUP, "Metal3Cluster"),
    (CAPM3_GROUP, "Metal3Data"),
    (CAPM3_GROUP, "Metal3DataClaim"),
    (CAPM3_GROUP, "Metal3DataTemplate"),
    (CAPM3_GROUP, "Metal3Machine"),
    (CAPM3_GROUP, "Metal3MachineTemplate"),
    (CLUSTER_GROUP, "Cluster"),
    (CLUSTER_GROUP, "ClusterClass"),
    (OPERATOR_GROUP, "InfrastructureProvider"),
    ("apps", "Deployment"),
    ("", "ConfigMap"),
    ("", "Secret"),
    // the config among the inputs (SPEC §1), read whole by `config::ConfigItem`
    (super::IPREUSE_GROUP, "IPReuse"),
];

/// Top-level fields never read of a kind in [`READ`].
const NEVER_READ: &[(&str, &str, &str)] = &[(BMO_GROUP, "BareMetalHost", "status")];

/// Top-level fields of a kind in [`READ`] of which only some keys are read: a host's `spec` is
/// read for its `consumerRef` alone (adoption), never for its BMC, boot MAC or images. The
/// reader builds only those keys' values ([`read_only`]) and the JSON value leaves the rest out.
const READ_ONLY: &[(&str, &str, &str, &[&str])] =
    &[(BMO_GROUP, "BareMetalHost", "spec", &["consumerRef"])];

/// The fields of every item that are read whatever its kind.
const IDENTITY: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// Whether the top-level field `key` of an item with this `apiVersion` and `kind` is never
/// read: what [`item_value`] drops. The reader parses such a field without building it
/// ([`crate::yaml::parse_items`]).
pub fn never_read(api_version: &str, kind: &str, key: &str) -> bool {
    if IDENTITY.contains(&key) {
        return false;
    }
    let group = group_of(api_version);
    if READ.contains(&(group, kind)) {
        NEVER_READ.contains(&(group, kind, key))
    } else {
        true
    }
}

/// The keys read of the top-level field `key` of an item with this `apiVersion` and `kind`,
/// when only some are (`READ_ONLY`): the reader builds only their values
/// ([`crate::yaml::SkipRule::only`]).
pub fn read_only(api_version: &str, kind: &str, key: &str) -> Option<&'static [&'static str]> {
    let group = group_of(api_version);
    READ_ONLY
        .iter()
        .find(|(g, k, f, _)| (*g, *k, *f) == (group, kind, key))
        .map(|(_, _, _, keys)| *keys)
}

/// The JSON value of an item, holding what the function reads of it (see the module).
pub fn item_value(node: &Node) -> Value {
    let text = |key: &str| node.get(key).and_then(Node::as_str);
    let (Some(api_version), Some(kind), Some(map)) =
        (text("apiVersion"), text("kind"), node.as_map())
    else {
        // Not an object the function reads by kind: read as written (the framing reports it).
        return node.to_json();
    };
    let group = group_of(api_version);
    let read = READ.contains(&(group, kind));
    if read && !NEVER_READ.iter().any(|(g, k, _)| (*g, *k) == (group, kind)) {
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
