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

use super::budget::{Budget, Spent, json_bytes};
use super::template;
use pointer::Op;
pub use variables::Variables;

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
/// into JSON: [`crate::topology::rendered::read`] reads it the same way.
///
/// A text that renders nothing (or only blanks and comments) is the JSON `null`, as in CAPI:
/// `yaml.Unmarshal` gives `null`, which `apiextensionsv1.JSON` keeps as no bytes and writes back
/// as `null` in the generated patch (`"value": null`). The operation then sets the field to
/// `null` (`add` and `replace` of evanphx json-patch v5, which CAPI applies, store the null), as
/// [`pointer::apply`] does with [`Value::Null`].
fn read_rendered(text: &str) -> Result<Value, String> {
    crate::topology::rendered::read(text).map_err(|e| e.to_string())
}

/// What the renders of one copy share: the variables as the engine holds them (made at the
/// first render, once per copy) and the run's [`Budget`].
struct Renders<'a> {
    variables: &'a Variables,
    data: Option<template::value::Value>,
    budget: &'a mut Budget,
}

impl Renders<'_> {
    /// Renders a `valueFrom.template` or `enabledIf` with the variables: every template render
    /// of the patch engine goes through here. The builtins of [`Variables::unknown`] are given
    /// to the engine as values whose every use is an error, so that a template that reads one,
    /// however it reads it (a field chain, `index`, `with`, `if`, `default`, `eq`, `range`), is
    /// refused with the builtin's name, and one that only holds it in a variable renders as in
    /// CAPI.
    ///
    /// `max_length` is the CRD's `maxLength` of the field (`valueFrom.template` 10240,
    /// `enabledIf` 256): a longer text is one the API server refuses, so no Cluster is stamped
    /// with it. The render takes at most the steps the run has left, and takes them from it.
    fn render(&mut self, text: &str, max_length: usize) -> Result<String, String> {
        let length = text.chars().count();
        if length > max_length {
            return Err(format!(
                "the text is {length} characters long and the ClusterClass CRD admits {max_length}, so \
                 the API server refuses the class; shorten it"
            ));
        }
        // parsing costs a step per 16 characters
        self.budget
            .take_steps(length as u64 / 16)
            .map_err(|e| e.to_string())?;
        let variables = self.variables;
        let data = self.data.get_or_insert_with(|| {
            template::value::Value::from_json_with_unknown(&variables.value, &variables.unknown)
        });
        let mut limits = template::Limits::default();
        let by_run = self.budget.steps_left() < limits.steps;
        limits.steps = limits.steps.min(self.budget.steps_left());
        let (result, steps) = template::render_metered(text, data, &limits);
        self.budget.take_steps(steps).map_err(|e| e.to_string())?;
        if let Ok(output) = &result {
            // reading the output as YAML costs a step per 16 bytes: a template as short as
            // `{{ .v }}` prints a whole variable
            self.budget
                .take_steps(output.len() as u64 / 16)
                .map_err(|e| e.to_string())?;
        }
        result.map_err(|e| match e {
            template::TemplateError::Unknown { name, line, column } => {
                format!(
                    "line {line}, column {column}: {}",
                    variables::unknown_reason(&name)
                )
            }
            template::TemplateError::Limit {
                limit: template::Limit::Steps,
                ..
            } if by_run => Spent::Steps.to_string(),
            other => other.to_string(),
        })
    }

    fn value_of(&mut self, jp: &JsonPatch, at: &str) -> Result<Value, (String, String)> {
        let err = |field: &str, reason: String| (format!("{at}.{field}"), reason);
        let value = match (&jp.value, &jp.value_from) {
            (Some(v), None) => Ok(v.clone()),
            (None, None) => Err(err("value", "neither value nor valueFrom is set".into())),
            (Some(_), Some(_)) => Err(err("valueFrom", "both value and valueFrom are set".into())),
            (None, Some(from)) => match (&from.variable, &from.template) {
                (Some(var), None) => {
                    // reading the path costs a step per 16 bytes
                    self.budget
                        .take_steps(var.len() as u64 / 16)
                        .map_err(|e| err("valueFrom.variable", e.to_string()))?;
                    variables::lookup(self.variables, var).map_err(|m| {
                        let m = if !m.starts_with("it reads ") {
                            format!("{m}; give the Cluster a value for it or the class a default")
                        } else {
                            m
                        };
                        err("valueFrom.variable", m)
                    })
                }
                (None, Some(text)) => {
                    let rendered = self
                        .render(text, template::limits::CRD_TEMPLATE_MAX_LENGTH)
                        .map_err(|e| err("valueFrom.template", e))?;
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
        }?;
        // what it writes into the copy
        self.budget
            .take_bytes(json_bytes(&value))
            .map_err(|e| (at.to_string(), e.to_string()))?;
        Ok(value)
    }
}

/// One JSON patch operation applied: where it wrote and which patch wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The patch's `name`.
    pub patch: String,
    /// Its place in the ClusterClass: `spec.patches[i].definitions[j].jsonPatches[k]`.
    pub at: String,
    /// The unescaped tokens of its `path`.
    pub tokens: Vec<String>,
}

/// Applies `patches`, in order, to `template` for `target`, with `variables` (the object
/// [`variables::for_template`] builds), within what is left of the run's `budget`, and says
/// which operations wrote where, in order. On an error `template` may hold the patches before
/// the failing one: the caller must not use it.
///
/// # Errors
/// [`PatchError`]: `enabledIf` or a `valueFrom.template` that does not render (an unknown
/// function, a syntax error, a limit of the render or of the run), a variable with no value and
/// no default, an unknown op, a bad pointer or one naming nothing for `replace`/`remove`.
pub fn apply(
    template: &mut Value,
    target: &Target,
    patches: &[Patch],
    variables: &Variables,
    budget: &mut Budget,
) -> Result<Vec<Written>, PatchError> {
    let mut renders = Renders {
        variables,
        data: None,
        budget,
    };
    let mut written = Vec::new();
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
            let rendered = renders
                .render(text, template::limits::CRD_ENABLED_IF_MAX_LENGTH)
                .map_err(|e| fail(field.clone(), e))?;
            if !crate::topology::rendered::is_true(&rendered)
                .map_err(|e| fail(field, e.to_string()))?
            {
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
                    renders.value_of(jp, &at).map_err(|(f, r)| fail(f, r))?
                };
                ops.push((op, jp.path.as_str(), value, at));
            }
        }
        for (op, path, value, at) in ops {
            // each operation costs a step, and one per 16 bytes of its path and entries it may move
            renders
                .budget
                .take_steps(1 + (path.len() as u64 + pointer::work(template, path)) / 16)
                .map_err(|e| fail(format!("{at}.path"), e.to_string()))?;
            pointer::apply(template, op, path, value)
                .map_err(|e| fail(format!("{at}.path"), e.to_string()))?;
            written.push(Written {
                patch: patch.name.clone(),
                tokens: pointer::tokens(path).unwrap_or_default(),
                at,
            });
        }
    }
    Ok(written)
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

    fn render(text: &str, variables: &Variables, max_length: usize) -> Result<String, String> {
        let mut budget = Budget::default();
        let mut renders = Renders {
            variables,
            data: None,
            budget: &mut budget,
        };
        renders.render(text, max_length)
    }

    #[test]
    fn a_template_reading_an_unknown_builtin_is_refused_naming_it_however_it_reads_it() {
        let vars = Variables {
            value: serde_json::json!({"builtin": {"controlPlane": {"version": "v1.34.1"},
                                                  "cluster": {"name": "c1"}}}),
            unknown: vec![
                "builtin.controlPlane.name".to_string(),
                "builtin.cluster.uid".to_string(),
            ],
        };
        for (text, builtin) in [
            (
                "{{ .builtin.controlPlane.name }}-x",
                "builtin.controlPlane.name",
            ),
            (
                "{{ with .builtin.controlPlane }}{{ .name }}{{ end }}",
                "builtin.controlPlane.name",
            ),
            (
                "{{ index .builtin.cluster \"uid\" }}",
                "builtin.cluster.uid",
            ),
            (
                "{{ if .builtin.cluster.uid }}a{{ end }}",
                "builtin.cluster.uid",
            ),
            (
                "{{ default \"x\" .builtin.cluster.uid }}",
                "builtin.cluster.uid",
            ),
            (
                "{{ if eq .builtin.cluster.uid \"u\" }}a{{ end }}",
                "builtin.cluster.uid",
            ),
            (
                "{{ range $k, $v := .builtin.controlPlane }}{{ $v }}{{ end }}",
                "builtin.controlPlane.name",
            ),
        ] {
            let err = render(text, &vars, 10240).expect_err(text);
            assert!(
                err.contains(builtin) && err.contains("line 1"),
                "{text}: {err}"
            );
            assert!(err.contains("generated name or uid"), "{err}");
        }
        // Held and never used, or a sibling read: rendered as CAPI renders it.
        assert_eq!(
            render(
                "{{ $n := .builtin.controlPlane.name }}{{ .builtin.controlPlane.version }}",
                &vars,
                10240
            ),
            Ok("v1.34.1".to_string())
        );
        assert_eq!(
            render("{{ .builtin.controlPlane.nameX }}", &vars, 10240),
            Ok("<no value>".to_string())
        );
    }

    #[test]
    fn yaml_1_1_booleans_are_read_as_go_yaml_v2_reads_them() {
        assert_eq!(read_rendered("yes"), Ok(Value::Bool(true)));
        assert_eq!(read_rendered("Off\n"), Ok(Value::Bool(false)));
        assert_eq!(read_rendered("true"), Ok(Value::Bool(true)));
        assert_eq!(read_rendered("\"yes\""), Ok(Value::String("yes".into())));
        assert_eq!(read_rendered(" \n"), Ok(Value::Null));
        assert_eq!(read_rendered("# nothing\n"), Ok(Value::Null));
        // YAML 1.1 as go-yaml v2 reads it: octal, case mixes that are strings.
        assert_eq!(read_rendered("0644"), Ok(Value::from(420)));
        assert_eq!(read_rendered("tRUE"), Ok(Value::String("tRUE".into())));
        assert_eq!(
            read_rendered("key: |\n  a"),
            Ok(serde_json::json!({"key": "a"}))
        );
        assert!(read_rendered("a:\n\t- 1").is_err());
    }
}
