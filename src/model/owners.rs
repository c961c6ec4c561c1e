//! `metadata.ownerReferences`: the owners of one kind in one API group.
//!
//! CAPM3 links its objects by owner references: an IPClaim is owned by its Metal3Data, a
//! Metal3DataClaim by its Metal3Machine. Owners are found by kind and group (any
//! version), never by their position in the list or their uid: the order differs between
//! CAPM3 versions, and uids change when `clusterctl move` re-creates the objects.

use super::value::is_template;
use super::view::View;
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// One `ownerReferences` entry of the kind and group asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The owner's name.
    pub name: String,
    /// Where it is written: `metadata.ownerReferences[1].name`.
    pub field: String,
    /// `controller: true`: the owner that manages the object.
    pub controller: bool,
}

/// The owners of kind `kind` in group `group` (any version), in the order written. `None` with
/// an error naming the field when the list or one of those entries has a value of the wrong
/// type, or with a warning when such an owner's name is an unrendered template (the object is
/// skipped). Entries of other kinds and groups are not read.
pub(super) fn read(
    object: &Object,
    view: View<'_>,
    kind: &str,
    group: &str,
    findings: &mut Vec<Finding>,
) -> Option<Vec<Owner>> {
    let error = |field: String, what: String| {
        Finding::error(format!(
            "this field {what}; fix it, or leave the {} out of the input",
            object.kind
        ))
        .on(object.resource_ref())
        .at(field)
    };
    let list = view
        .at(&["metadata", "ownerReferences"])
        .filter(|v| !v.is_null());
    let entries: Vec<View<'_>> = match list {
        None => Vec::new(),
        Some(v) => match v.as_seq() {
            Some(items) => items.collect(),
            None => {
                findings.push(error(
                    "metadata.ownerReferences".into(),
                    format!("is {}, not a list", v.kind_of()),
                ));
                return None;
            }
        },
    };
    let mut owners = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let base = format!("metadata.ownerReferences[{i}]");
        if !entry.is_object() {
            findings.push(error(
                base,
                format!("is {}, not an owner reference", entry.kind_of()),
            ));
            return None;
        }
        if entry.get("kind").and_then(View::as_str) != Some(kind) {
            continue;
        }
        // The string at `key`, or (field, what is wrong with it).
        let text = |key: &str| -> Result<&str, (String, String)> {
            let what = match entry.get(key).filter(|v| !v.is_null()) {
                None => "is missing".to_string(),
                Some(v) => match v.as_str() {
                    Some("") => "is empty".to_string(),
                    Some(s) => return Ok(s),
                    None => format!("is {}, not a string", v.kind_of()),
                },
            };
            Err((format!("{base}.{key}"), what))
        };
        let (api_version, name) = match (text("apiVersion"), text("name")) {
            (Ok(a), Ok(n)) => (a, n),
            (Err((field, what)), _) | (_, Err((field, what))) => {
                findings.push(error(field, what));
                return None;
            }
        };
        if super::group_of(api_version) != group {
            continue;
        }
        if is_template(name) {
            findings.push(skipped_for_template(object, &format!("{base}.name"), name));
            return None;
        }
        let controller = match entry.get("controller").filter(|v| !v.is_null()) {
            None => false,
            Some(v) => match v.as_bool() {
                Some(b) => b,
                None => {
                    findings.push(error(
                        format!("{base}.controller"),
                        format!("is {}, not a boolean", v.kind_of()),
                    ));
                    return None;
                }
            },
        };
        owners.push(Owner {
            name: name.to_string(),
            field: format!("{base}.name"),
            controller,
        });
    }
    Some(owners)
}

/// The one owner a link follows: the only one, else the only controller among several (with
/// their names sorted, so the input's order decides nothing). `Err` with the sorted names when
/// that leaves none or several.
pub fn the_one(owners: &[Owner]) -> Result<Option<&Owner>, Vec<&str>> {
    let mut names: Vec<&str> = owners.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    match names.as_slice() {
        [] => Ok(None),
        [_] => Ok(owners.first()),
        _ => {
            let controllers: Vec<&Owner> = owners.iter().filter(|o| o.controller).collect();
            match controllers.as_slice() {
                [one] => Ok(Some(*one)),
                _ => Err(names),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const GROUP: &str = "infrastructure.cluster.x-k8s.io";

    fn read_owners(owners: Value, kind: &str) -> (Option<Vec<Owner>>, Vec<Finding>) {
        let v = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3DataClaim",
            "metadata": {"name": "m-1", "namespace": "ns", "ownerReferences": owners}});
        let object = Object::of_json(crate::model::ItemId(0), &v).expect("an object");
        let node = crate::model::value::node_of(&v);
        let mut findings = Vec::new();
        let owners = read(&object, View::new(&node), kind, GROUP, &mut findings);
        (owners, findings)
    }

    fn owner(api: &str, kind: &str, name: &str, controller: Option<bool>) -> Value {
        let mut o =
            json!({"apiVersion": api, "kind": kind, "name": name, "uid": format!("uid-{name}")});
        if let Some(c) = controller {
            o["controller"] = json!(c);
        }
        o
    }

    #[test]
    fn owners_are_found_by_kind_and_group_in_any_position_and_version() {
        let list = json!([
            owner("cluster.x-k8s.io/v1beta1", "Machine", "m", Some(true)),
            owner("example.com/v1", "Metal3Machine", "decoy", Some(true)),
            owner(
                "infrastructure.cluster.x-k8s.io/v1beta1",
                "Metal3Machine",
                "old",
                None
            ),
            owner(
                "infrastructure.cluster.x-k8s.io/v1beta2",
                "Metal3Machine",
                "new",
                Some(true)
            ),
        ]);
        let (owners, findings) = read_owners(list, "Metal3Machine");
        assert!(findings.is_empty(), "{findings:?}");
        let owners = owners.expect("read");
        assert_eq!(
            owners,
            vec![
                Owner {
                    name: "old".into(),
                    field: "metadata.ownerReferences[2].name".into(),
                    controller: false
                },
                Owner {
                    name: "new".into(),
                    field: "metadata.ownerReferences[3].name".into(),
                    controller: true
                },
            ]
        );
        // Two owners: the controller decides.
        assert_eq!(
            the_one(&owners).map(|o| o.map(|o| o.name.as_str())),
            Ok(Some("new"))
        );
    }

    #[test]
    fn the_one_owner_is_the_only_one_or_the_only_controller() {
        let o = |name: &str, controller: bool| Owner {
            name: name.into(),
            field: String::new(),
            controller,
        };
        assert_eq!(the_one(&[]), Ok(None));
        assert_eq!(
            the_one(&[o("a", false)]).map(|x| x.map(|x| x.name.clone())),
            Ok(Some("a".to_string()))
        );
        // One name written twice is one owner.
        assert_eq!(
            the_one(&[o("a", false), o("a", false)]).map(|x| x.map(|x| x.name.clone())),
            Ok(Some("a".to_string()))
        );
        assert_eq!(
            the_one(&[o("b", false), o("a", false)]),
            Err(vec!["a", "b"])
        );
        assert_eq!(the_one(&[o("b", true), o("a", true)]), Err(vec!["a", "b"]));
    }

    #[test]
    fn bad_entries_of_the_kind_are_errors_naming_the_field_and_others_are_not_read() {
        let cases = [
            (json!({"kind": "Metal3Machine"}), "metadata.ownerReferences"),
            (json!(["x"]), "metadata.ownerReferences[0]"),
            (
                json!([{"kind": "Metal3Machine", "name": "m"}]),
                "metadata.ownerReferences[0].apiVersion",
            ),
            (
                json!([{"kind": "Metal3Machine", "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "name": 3}]),
                "metadata.ownerReferences[0].name",
            ),
            (
                json!([{"kind": "Metal3Machine", "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "name": "m", "controller": "true"}]),
                "metadata.ownerReferences[0].controller",
            ),
        ];
        for (list, field) in cases {
            let (owners, findings) = read_owners(list, "Metal3Machine");
            assert!(owners.is_none(), "{field}");
            assert_eq!(findings.len(), 1, "{field}: {findings:?}");
            assert!(findings[0].is_error());
            assert!(
                findings[0].is_on("Metal3DataClaim", "ns", "m-1"),
                "{findings:?}"
            );
            assert_eq!(
                findings[0].field.as_ref().map(|f| f.path.as_str()),
                Some(field)
            );
        }
        // An entry of another kind is not read, however it is written.
        let (owners, findings) =
            read_owners(json!([{"kind": "Machine", "name": 3}]), "Metal3Machine");
        assert!(findings.is_empty());
        assert_eq!(owners, Some(Vec::new()));
    }
}
