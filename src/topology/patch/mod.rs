//! A ClusterClass's inline patches applied to one template, as CAPI's topology controller
//! applies them (`internal/controllers/topology/cluster/patches/inline/json_patch_generator.go`
//! and the engine that applies its JSON patches with `evanphx/json-patch/v5`).
//!
//! For each patch in order: its definitions whose selector matches the template (same
//! `apiVersion` and `kind`, and `matchResources` naming the part the template belongs to); if
//! any match, `enabledIf` (a Go template, true when it renders YAML `true`); then the values of
//! every JSON patch of the matching definitions (`value`, `valueFrom.variable` read from the
//! variables object by [`variables::lookup`], or `valueFrom.template` rendered and read as
//! YAML), and then the operations, in order. Anything that does not evaluate is a
//! [`PatchError`] naming the patch and the field: the template is never used as it was.
//!
//! Pure: the caller reads the ClusterClass and the Cluster (and reports an external patch),
//! builds the variables with [`variables`], and says which part a template belongs to.

pub mod pointer;
pub mod variables;

use serde_json::Value;

use super::template;
use pointer::Op;

/// One of the ClusterClass's `spec.patches` (inline: `definitions`).
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    pub name: String,
    pub enabled_if: Option<String>,
    pub definitions: Vec<Definition>,
}

/// One `definitions[]` item.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    pub selector: Selector,
    pub json_patches: Vec<JsonPatch>,
}

/// `selector`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    pub api_version: String,
    pub kind: String,
    pub match_resources: MatchResources,
}

/// `selector.matchResources`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchResources {
    pub control_plane: bool,
    pub infrastructure_cluster: bool,
    /// `machineDeploymentClass.names`: a class name, `*`, `prefix*` or `*suffix`.
    pub machine_deployment_classes: Vec<String>,
}

/// One `jsonPatches[]` item.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPatch {
    pub op: String,
    pub path: String,
    pub value: Option<Value>,
    pub value_from: Option<ValueFrom>,
}

/// `valueFrom`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueFrom {
    pub variable: Option<String>,
    pub template: Option<String>,
}

/// The template being patched: its kind and the part of the topology it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub api_version: String,
    pub kind: String,
    pub role: Role,
}

/// Which part of the topology a template belongs to (CAPI's holder reference).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// The control plane or its machines' infrastructure template.
    ControlPlane,
    /// A MachineDeployment topology of this class (`workers.machineDeployments[].class`).
    MachineDeployment { class: String },
    /// The InfrastructureCluster's template.
    InfrastructureCluster,
}

/// Why a patch cannot be applied as CAPI would apply it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("patch {patch:?}, {field}: {reason}")]
pub struct PatchError {
    /// The patch's `name`.
    pub patch: String,
    /// The field, from the ClusterClass: `spec.patches[i].definitions[j].jsonPatches[k].path`.
    pub field: String,
    /// What is wrong and what to do.
    pub reason: String,
}

/// Whether a `machineDeploymentClass.names` item names `class` (CAPI's `matchesSelector`:
/// exactly, `*`, `prefix*` or `*suffix`).
fn class_matches(pattern: &str, class: &str) -> bool {
    pattern == "*"
        || pattern == class
        || pattern
            .strip_prefix('*')
            .is_some_and(|suffix| class.ends_with(suffix))
        || pattern
            .strip_suffix('*')
            .is_some_and(|prefix| class.starts_with(prefix))
}

/// CAPI's `matchesSelector` for `target`.
pub fn matches(selector: &Selector, target: &Target) -> bool {
    if selector.api_version != target.api_version || selector.kind != target.kind {
        return false;
    }
    let m = &selector.match_resources;
    match &target.role {
        Role::InfrastructureCluster => m.infrastructure_cluster,
        Role::ControlPlane => m.control_plane,
        Role::MachineDeployment { class } => m
            .machine_deployment_classes
            .iter()
            .any(|p| class_matches(p, class)),
    }
}

/// CAPI reads a rendered `valueFrom.template` with `sigs.k8s.io/yaml` (go-yaml v2, YAML 1.1)
/// into JSON. The YAML 1.1 booleans YAML 1.2 reads as strings are read here as go-yaml v2
/// reads them; empty output (no value at all) is refused rather than guessed.
///
/// Public for tests/it/go_templates.rs, which compares it with CAPI's reading in Go.
///
/// # Errors
/// A message saying why the text is no value: empty, or not YAML.
pub fn read_rendered(text: &str) -> Result<Value, String> {
    let word = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    if word.is_empty() {
        return Err("the template renders nothing, so the operation has no value".into());
    }
    const TRUE: &[&str] = &["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"];
    const FALSE: &[&str] = &["n", "N", "no", "No", "NO", "off", "Off", "OFF"];
    if TRUE.contains(&word) {
        return Ok(Value::Bool(true));
    }
    if FALSE.contains(&word) {
        return Ok(Value::Bool(false));
    }
    serde_saphyr::from_str::<Value>(text)
        .map_err(|e| format!("the rendered text {text:?} is not YAML: {e}"))
}

/// The builtin variables CAPI fills only when it creates the objects (a generated name, a
/// uid), so that no offline evaluation can know them: a patch that reads one is refused rather
/// than given Go's `<no value>` or nothing.
pub const UNKNOWN_OFFLINE: [&str; 6] = [
    "builtin.cluster.uid",
    "builtin.controlPlane.name",
    "builtin.controlPlane.machineTemplate",
    "builtin.machineDeployment.name",
    "builtin.machineDeployment.bootstrap",
    "builtin.machineDeployment.infrastructureRef",
];

/// The builtin variables CAPI gives from the Cluster but [`variables::builtin`] does not build
/// (`variables_test.go` `TestGlobal` and the `metadata` of `TestControlPlane` and
/// `TestMachineDeployment`): a patch that reads one is refused, never given `<no value>` where
/// CAPI gives a value.
pub const NOT_BUILT: [&str; 3] = [
    "builtin.cluster.network",
    "builtin.controlPlane.metadata",
    "builtin.machineDeployment.metadata",
];

/// The builtin of [`UNKNOWN_OFFLINE`] or [`NOT_BUILT`] that a variable path or a template's text
/// reads, if any. A template is searched for `.builtin.….name` as a field chain
/// (`{{ .builtin.controlPlane.name }}`; `index .builtin.controlPlane "name"` is not recognised
/// and renders `<no value>` as in Go).
fn unknown_offline(text: &str, is_template: bool) -> Option<&'static str> {
    UNKNOWN_OFFLINE
        .iter()
        .chain(NOT_BUILT.iter())
        .copied()
        .find(|b| {
            if is_template {
                text.match_indices(&format!(".{b}")).any(|(i, m)| {
                    let next = text[i + m.len()..].chars().next();
                    !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            } else {
                text == *b
                    || text.starts_with(&format!("{b}."))
                    || text.starts_with(&format!("{b}["))
            }
        })
}

/// [`unknown_offline`], when the variables do not hold it: the run builds them without these,
/// the tables give them as CAPI would.
fn missing_offline(text: &str, is_template: bool, variables: &Value) -> Option<&'static str> {
    unknown_offline(text, is_template).filter(|b| variables::lookup(variables, b).is_err())
}

fn offline_reason(builtin: &str) -> String {
    if NOT_BUILT.contains(&builtin) {
        return format!(
            "it reads {builtin}, which CAPI gives from the Cluster but ipreuse does not build, so \
             ipreuse cannot evaluate it as CAPI would; read another variable"
        );
    }
    format!(
        "it reads {builtin}, which CAPI only knows once it creates the object (a generated name or \
         uid), so ipreuse cannot evaluate it offline; read another variable"
    )
}

fn value_of(jp: &JsonPatch, variables: &Value, at: &str) -> Result<Value, (String, String)> {
    let err = |field: &str, reason: String| (format!("{at}.{field}"), reason);
    if let Some(from) = &jp.value_from {
        if let Some(b) = from
            .variable
            .as_deref()
            .and_then(|v| missing_offline(v, false, variables))
        {
            return Err(err("valueFrom.variable", offline_reason(b)));
        }
        if let Some(b) = from
            .template
            .as_deref()
            .and_then(|t| missing_offline(t, true, variables))
        {
            return Err(err("valueFrom.template", offline_reason(b)));
        }
    }
    match (&jp.value, &jp.value_from) {
        (Some(v), None) => Ok(v.clone()),
        (None, None) => Err(err("value", "neither value nor valueFrom is set".into())),
        (Some(_), Some(_)) => Err(err("valueFrom", "both value and valueFrom are set".into())),
        (None, Some(from)) => match (&from.variable, &from.template) {
            (Some(var), None) => variables::lookup(variables, var).map_err(|m| {
                err(
                    "valueFrom.variable",
                    format!("{m}; give the Cluster a value for it or the class a default"),
                )
            }),
            (None, Some(text)) => {
                let rendered = template::render(text, variables)
                    .map_err(|e| err("valueFrom.template", e.to_string()))?;
                read_rendered(&rendered).map_err(|m| err("valueFrom.template", m))
            }
            (Some(_), Some(_)) => Err(err(
                "valueFrom",
                "both valueFrom.variable and valueFrom.template are set".into(),
            )),
            (None, None) => Err(err(
                "valueFrom",
                "neither valueFrom.variable nor valueFrom.template is set".into(),
            )),
        },
    }
}

/// Applies `patches`, in order, to `template` for `target`, with `variables` (the object
/// [`variables::for_template`] builds). On an error `template` may hold the patches before
/// the failing one: the caller must not use it.
///
/// # Errors
/// [`PatchError`]: `enabledIf` or a `valueFrom.template` that does not render (an unknown
/// function, a syntax error), a variable with no value and no default, an unknown op, a bad
/// pointer or one naming nothing for `replace`/`remove`.
pub fn apply(
    template: &mut Value,
    target: &Target,
    patches: &[Patch],
    variables: &Value,
) -> Result<(), PatchError> {
    for (i, patch) in patches.iter().enumerate() {
        let fail = |field: String, reason: String| PatchError {
            patch: patch.name.clone(),
            field,
            reason,
        };
        let matching: Vec<(usize, &Definition)> = patch
            .definitions
            .iter()
            .enumerate()
            .filter(|(_, d)| matches(&d.selector, target))
            .collect();
        if matching.is_empty() {
            continue;
        }
        if let Some(text) = &patch.enabled_if {
            let field = format!("spec.patches[{i}].enabledIf");
            if let Some(b) = missing_offline(text, true, variables) {
                return Err(fail(field, offline_reason(b)));
            }
            let rendered = template::render(text, variables)
                .map_err(|e| fail(field.clone(), e.to_string()))?;
            if !template::enabled(&rendered).map_err(|e| fail(field, e.to_string()))? {
                continue;
            }
        }
        // CAPI generates every operation's value of the patch first, then applies them.
        let mut ops = Vec::new();
        for (j, def) in &matching {
            for (k, jp) in def.json_patches.iter().enumerate() {
                let at = format!("spec.patches[{i}].definitions[{j}].jsonPatches[{k}]");
                let op = match jp.op.as_str() {
                    "add" => Op::Add,
                    "replace" => Op::Replace,
                    "remove" => Op::Remove,
                    other => {
                        return Err(fail(
                            format!("{at}.op"),
                            format!(
                                "{other:?} is not an operation CAPI allows; use add, replace or remove"
                            ),
                        ));
                    }
                };
                let value = if op == Op::Remove {
                    Value::Null
                } else {
                    value_of(jp, variables, &at).map_err(|(f, r)| fail(f, r))?
                };
                ops.push((op, jp.path.as_str(), value, at));
            }
        }
        for (op, path, value, at) in ops {
            pointer::apply(template, op, path, value)
                .map_err(|e| fail(format!("{at}.path"), e.to_string()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_patterns_match_as_capi_matches_them() {
        assert!(class_matches("*", "md-0"));
        assert!(class_matches("md-0", "md-0"));
        assert!(class_matches("md-*", "md-0"));
        assert!(class_matches("*-0", "md-0"));
        assert!(!class_matches("md-1", "md-0"));
        assert!(!class_matches("x-*", "md-0"));
        assert!(!class_matches("*-1", "md-0"));
    }

    #[test]
    fn builtins_chosen_when_the_object_is_created_are_unknown_offline() {
        assert_eq!(
            unknown_offline("builtin.controlPlane.name", false),
            Some("builtin.controlPlane.name")
        );
        assert_eq!(
            unknown_offline(
                "builtin.controlPlane.machineTemplate.infrastructureRef.name",
                false
            ),
            Some("builtin.controlPlane.machineTemplate")
        );
        assert_eq!(
            unknown_offline("builtin.controlPlane.replicas", false),
            None
        );
        assert_eq!(unknown_offline("builtin.controlPlane.nameX", false), None);
        assert_eq!(
            unknown_offline("{{ .builtin.machineDeployment.name }}-x", true),
            Some("builtin.machineDeployment.name")
        );
        assert_eq!(
            unknown_offline("{{ .builtin.machineDeployment.topologyName }}", true),
            None
        );
        assert_eq!(
            unknown_offline("{{ if .builtin.cluster.uid }}a{{ end }}", true),
            Some("builtin.cluster.uid")
        );
        assert_eq!(unknown_offline("{{ .builtin.cluster.name }}", true), None);
        assert_eq!(
            unknown_offline("builtin.machineDeployment.bootstrap.configRef.name", false),
            Some("builtin.machineDeployment.bootstrap")
        );
        assert_eq!(
            unknown_offline("{{ .builtin.cluster.network.serviceDomain }}", true),
            Some("builtin.cluster.network")
        );
        assert!(offline_reason("builtin.cluster.network").contains("does not build"));
        assert!(offline_reason("builtin.cluster.uid").contains("generated name or uid"));
    }

    #[test]
    fn yaml_1_1_booleans_are_read_as_go_yaml_v2_reads_them() {
        assert_eq!(read_rendered("yes"), Ok(Value::Bool(true)));
        assert_eq!(read_rendered("Off\n"), Ok(Value::Bool(false)));
        assert_eq!(read_rendered("true"), Ok(Value::Bool(true)));
        assert_eq!(read_rendered("\"yes\""), Ok(Value::String("yes".into())));
        assert!(read_rendered(" \n").is_err());
    }
}
