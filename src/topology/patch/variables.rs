//! The variables object CAPI gives a ClusterClass patch for one template, and the reading of
//! `valueFrom.variable` from it.
//!
//! As CAPI builds it (`internal/controllers/topology/cluster/patches/variables/variables.go`,
//! `Global`, `ControlPlane`, `MachineDeployment`; merged by `merge.go`):
//! - the Cluster's `spec.topology.variables` whose name the ClusterClass defines (a value for
//!   a name the class does not define, or for `builtin`, is not passed to patches);
//! - for a MachineDeployment's template, that MachineDeployment topology's
//!   `variables.overrides` replace the Cluster's value of the same name, whole;
//! - a defined variable with no value takes its schema's `default` (CAPI's webhook writes
//!   defaults into the Cluster before the topology controller reads it), and objects get the
//!   `default` of each missing property of their schema, recursively (the API server's
//!   structural defaulting);
//! - `builtin`: one object merging `cluster` (`name`, `namespace`, `topology.{version,class}`)
//!   with `controlPlane` (`version`, `name`, `replicas`) for the control plane's templates, or
//!   `machineDeployment` (`version`, `class`, `name`, `topologyName`, `replicas`) for a
//!   MachineDeployment's. Go's `omitempty` leaves out an empty string and an unset replicas.

use serde_json::{Map, Value};

/// One of the ClusterClass's `spec.variables`: its name and `schema.openAPIV3Schema`.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    pub name: String,
    pub schema: Value,
}

/// `builtin.cluster`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterBuiltins {
    pub name: String,
    pub namespace: String,
    /// `spec.topology.version`.
    pub version: String,
    /// The ClusterClass's name.
    pub class: String,
}

/// `builtin.controlPlane`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ControlPlaneBuiltins {
    pub version: String,
    pub name: String,
    pub replicas: Option<i64>,
}

/// `builtin.machineDeployment`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MachineDeploymentBuiltins {
    pub version: String,
    pub class: String,
    pub name: String,
    pub topology_name: String,
    pub replicas: Option<i64>,
}

/// The part of the topology the template belongs to, with its builtins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartBuiltins {
    ControlPlane(ControlPlaneBuiltins),
    MachineDeployment(MachineDeploymentBuiltins),
    /// The InfrastructureCluster's template: only `builtin.cluster`.
    Cluster,
}

fn put_str(map: &mut Map<String, Value>, key: &str, value: &str) {
    if !value.is_empty() {
        map.insert(key.to_string(), Value::String(value.to_string()));
    }
}

/// The `builtin` variable's value.
pub fn builtin(cluster: &ClusterBuiltins, part: &PartBuiltins) -> Value {
    let mut c = Map::new();
    put_str(&mut c, "name", &cluster.name);
    put_str(&mut c, "namespace", &cluster.namespace);
    let mut topology = Map::new();
    put_str(&mut topology, "version", &cluster.version);
    put_str(&mut topology, "class", &cluster.class);
    c.insert("topology".into(), Value::Object(topology));
    let mut out = Map::new();
    out.insert("cluster".into(), Value::Object(c));
    match part {
        PartBuiltins::ControlPlane(cp) => {
            let mut m = Map::new();
            put_str(&mut m, "version", &cp.version);
            put_str(&mut m, "name", &cp.name);
            if let Some(r) = cp.replicas {
                m.insert("replicas".into(), Value::from(r));
            }
            out.insert("controlPlane".into(), Value::Object(m));
        }
        PartBuiltins::MachineDeployment(md) => {
            let mut m = Map::new();
            put_str(&mut m, "version", &md.version);
            put_str(&mut m, "class", &md.class);
            put_str(&mut m, "name", &md.name);
            put_str(&mut m, "topologyName", &md.topology_name);
            if let Some(r) = md.replicas {
                m.insert("replicas".into(), Value::from(r));
            }
            out.insert("machineDeployment".into(), Value::Object(m));
        }
        PartBuiltins::Cluster => {}
    }
    Value::Object(out)
}

/// Fills, in `value`, the `default` of every property its `schema` defines and it lacks,
/// recursively through objects and array items.
pub fn default_nested(value: &mut Value, schema: &Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (key, prop) in props {
                    match map.get_mut(key) {
                        Some(child) => default_nested(child, prop),
                        None => {
                            if let Some(d) = prop.get("default") {
                                let mut d = d.clone();
                                default_nested(&mut d, prop);
                                map.insert(key.clone(), d);
                            }
                        }
                    }
                }
            }
            if let Some(extra) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                for child in map.values_mut() {
                    default_nested(child, extra);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for child in items {
                    default_nested(child, item);
                }
            }
        }
        _ => {}
    }
}

/// The variables object for one template: the user variables the class defines (overrides
/// first, then the Cluster's value, then the schema's default; a variable with none of them
/// is absent) and `builtin`.
pub fn for_template(
    definitions: &[Definition],
    cluster_values: &[(String, Value)],
    overrides: &[(String, Value)],
    builtin: Value,
) -> Value {
    let mut out = Map::new();
    for def in definitions {
        if def.name == "builtin" {
            continue;
        }
        let found = |list: &[(String, Value)]| {
            list.iter()
                .rev()
                .find(|(n, _)| *n == def.name)
                .map(|(_, v)| v.clone())
        };
        let value = found(overrides)
            .or_else(|| found(cluster_values))
            .or_else(|| def.schema.get("default").cloned());
        if let Some(mut value) = value {
            default_nested(&mut value, &def.schema);
            out.insert(def.name.clone(), value);
        }
    }
    out.insert("builtin".into(), builtin);
    Value::Object(out)
}

/// One segment of a variable path: a name and an optional `[i]`.
fn segment(raw: &str, path: &str) -> Result<(String, Option<usize>), String> {
    match (raw.find('['), raw.find(']')) {
        (None, None) => Ok((raw.to_string(), None)),
        (Some(l), Some(r)) if l < r => {
            let i: usize = raw[l + 1..r].parse().map_err(|_| {
                format!("{path:?}: {raw:?} has an array index that is not a number")
            })?;
            Ok((raw[..l].to_string(), Some(i)))
        }
        _ => Err(format!("{path:?}: {raw:?} is not `name` or `name[index]`")),
    }
}

/// CAPI's `GetVariableValue`: the value at a dotted `path` (`name.field`, with `[i]` after any
/// segment for an array item) in the variables object.
///
/// # Errors
/// A message saying which segment does not exist or is not what its syntax asks for.
pub fn lookup(variables: &Value, path: &str) -> Result<Value, String> {
    let mut current = variables;
    for (depth, raw) in path.split('.').enumerate() {
        let (name, index) = segment(raw, path)?;
        current = current.get(&name).ok_or_else(|| {
            if depth == 0 {
                format!("variable {name:?} has no value and its schema no default")
            } else {
                format!("variable {path:?} does not exist: it has no {name:?}")
            }
        })?;
        if let Some(i) = index {
            let items = current
                .as_array()
                .ok_or_else(|| format!("variable {path:?}: {name:?} is not an array"))?;
            current = items
                .get(i)
                .ok_or_else(|| format!("variable {path:?}: {name:?} has no index {i}"))?;
        }
    }
    Ok(current.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lookup_reads_dotted_paths_and_array_indexes() {
        let v = json!({"a": {"b": [{"c": 1}, {"c": 2}]}, "l": ["x", "y"]});
        assert_eq!(lookup(&v, "a.b[1].c"), Ok(json!(2)));
        assert_eq!(lookup(&v, "l[0]"), Ok(json!("x")));
        assert!(lookup(&v, "l[2]").is_err());
        assert!(lookup(&v, "a.b.c").is_err(), "an array has no field");
        assert!(lookup(&v, "a[0]").is_err(), "an object is not an array");
        assert!(lookup(&v, "a.b[x]").is_err());
        assert!(lookup(&v, "a.b]").is_err());
        let missing = lookup(&v, "nope").unwrap_err();
        assert!(
            missing.contains("no value and its schema no default"),
            "{missing}"
        );
    }
}
