//! Writing results: as the `results:` of a ResourceList, or as lines for a person on stderr.

use serde_json::Value;

use super::results::{Finding, Severity};
use crate::yaml;

/// The `results` list of a ResourceList, as block YAML at indent 0.
pub fn results_yaml(findings: &[Finding]) -> String {
    let value = serde_json::to_value(findings).unwrap_or(Value::Array(Vec::new()));
    yaml::to_yaml_block(&value)
}

/// One line per result, for stderr: `error: IPPool ns/name spec.pools[0].start: message`.
pub fn human_results(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        out.push_str(sev);
        out.push_str(": ");
        if let Some(r) = &f.resource_ref {
            match &r.namespace {
                Some(ns) => out.push_str(&format!("{} {ns}/{}", r.kind, r.name)),
                None => out.push_str(&format!("{} {}", r.kind, r.name)),
            }
            if let Some(field) = &f.field {
                out.push(' ');
                out.push_str(&field.path);
            }
            out.push_str(": ");
        } else if let Some(field) = &f.field {
            out.push_str(&field.path);
            out.push_str(": ");
        }
        out.push_str(&f.message);
        out.push('\n');
    }
    out
}
