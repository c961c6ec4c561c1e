//! BareMetalHost (`metal3.io/v1alpha1`): the names claims are made from, labels, pins.

use std::collections::BTreeMap;

use serde_json::Value;

use super::value::{is_template, string_map};
use super::{Object, skipped_for_template};
use crate::results::Finding;

/// Prefix of the pin annotation: `ipreuse.dev/ip.{pool-name}: <address>`.
pub const PIN_PREFIX: &str = "ipreuse.dev/ip.";

/// A BareMetalHost as the function reads it.
#[derive(Debug, Clone)]
pub struct Host {
    pub object: Object,
    pub labels: BTreeMap<String, String>,
    /// Every annotation (a Metal3DataTemplate's `fromPoolAnnotation` may name its pool).
    pub annotations: BTreeMap<String, String>,
    /// Pins: pool name → address text, from `ipreuse.dev/ip.{pool}` annotations.
    pub pins: BTreeMap<String, String>,
}

impl Host {
    /// Reads a host; `None` (with a warning) when a field it needs is an unrendered template.
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Host> {
        let annotations: BTreeMap<String, String> = string_map(value, &["metadata", "annotations"])
            .into_iter()
            .collect();
        let pins: BTreeMap<String, String> = annotations
            .iter()
            .filter_map(|(k, v)| {
                k.strip_prefix(PIN_PREFIX)
                    .map(|p| (p.to_string(), v.clone()))
            })
            .collect();
        let mut fields: Vec<(String, &str)> = vec![
            ("metadata.name".into(), object.name.as_str()),
            ("metadata.namespace".into(), object.namespace.as_str()),
        ];
        for (pool, addr) in &pins {
            fields.push((
                crate::results::key_path("metadata.annotations", &format!("{PIN_PREFIX}{pool}")),
                addr,
            ));
        }
        if let Some((field, text)) = fields.iter().find(|(_, t)| is_template(t)) {
            findings.push(skipped_for_template(object, field, text));
            return None;
        }
        Some(Host {
            object: object.clone(),
            labels: string_map(value, &["metadata", "labels"])
                .into_iter()
                .collect(),
            annotations,
            pins,
        })
    }

    pub fn name(&self) -> &str {
        &self.object.name
    }
}
