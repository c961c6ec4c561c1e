//! IPPool (`ipam.metal3.io/v1alpha1`): ranges, existing preallocations, live claims.

use serde_json::Value;

use super::value::{at, is_template, scalar_text};
use super::{Object, skipped_for_template};
use crate::ipam::{AllocationStrategy, EntrySpec, PoolSpec};
use crate::names::did_you_mean;
use crate::results::Finding;

/// What `spec.preAllocations` looks like now (decides how new entries are written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreAllocShape {
    Missing,
    /// `null`, `~`, empty value or `{}`.
    Empty,
    Map,
}

/// An IPPool as the function reads it.
#[derive(Debug, Clone)]
pub struct Pool {
    pub object: Object,
    /// The ranges, as text, for [`crate::ipam`] to validate.
    pub spec: PoolSpec,
    /// `spec.preAllocations` in written order: claim name → address text.
    pub pre_allocations: Vec<(String, String)>,
    pub shape: PreAllocShape,
    /// `status.indexes`: claim name → address text (addresses in use now).
    pub indexes: Vec<(String, String)>,
    /// Set when a field the function reads is an unrendered template: the pool is not used.
    pub skipped: Option<String>,
    /// The annotation `ipreuse.dev/network` (SPEC §10): the network the pool is on.
    pub network: Option<String>,
}

super::ids::indexes!(super::ids::PoolId => Pool);

/// The annotation that puts an IPPool on a network shared across namespaces (SPEC §10).
pub const NETWORK_ANNOTATION: &str = "ipreuse.dev/network";

impl Pool {
    /// Reads a pool. Shape errors (a prefix that is not a number, a value that is not a string)
    /// are reported and make the result `None`; a template makes it `skipped` with a warning.
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Pool> {
        let mut r = Reader {
            object,
            findings,
            template: None,
            bad: false,
        };
        let spec = value.get("spec");
        let get = |path: &[&str]| spec.and_then(|s| at(s, path));
        r.text(object.name.as_str(), "metadata.name");
        r.text(object.namespace.as_str(), "metadata.namespace");
        let mut pool_spec = PoolSpec {
            entries: Vec::new(),
            prefix: r.prefix(get(&["prefix"]), "spec.prefix"),
            gateway: r.opt_str(get(&["gateway"]), "spec.gateway"),
            dns_servers: r.str_list(get(&["dnsServers"]), "spec.dnsServers"),
            allocation_strategy: r.strategy(get(&["allocationStrategy"])),
        };
        match get(&["pools"]) {
            None | Some(Value::Null) => {}
            Some(Value::Array(entries)) => {
                for (i, e) in entries.iter().enumerate() {
                    let f = |k: &str| format!("spec.pools[{i}].{k}");
                    if !e.is_object() {
                        r.bad(
                            format!("spec.pools[{i}]"),
                            "must be a mapping with start, end or subnet",
                        );
                        continue;
                    }
                    pool_spec.entries.push(EntrySpec {
                        start: r.opt_str(e.get("start"), &f("start")),
                        end: r.opt_str(e.get("end"), &f("end")),
                        subnet: r.opt_str(e.get("subnet"), &f("subnet")),
                        prefix: r.prefix(e.get("prefix"), &f("prefix")),
                        gateway: r.opt_str(e.get("gateway"), &f("gateway")),
                        dns_servers: r.str_list(e.get("dnsServers"), &f("dnsServers")),
                    });
                }
            }
            Some(_) => r.bad("spec.pools".into(), "must be a list"),
        }
        let (pre_allocations, shape) = match get(&["preAllocations"]) {
            None => (Vec::new(), PreAllocShape::Missing),
            Some(Value::Null) => (Vec::new(), PreAllocShape::Empty),
            Some(Value::Object(m)) if m.is_empty() => (Vec::new(), PreAllocShape::Empty),
            Some(Value::Object(m)) => (
                m.iter()
                    .filter_map(|(k, v)| {
                        let field = crate::results::key_path("spec.preAllocations", k);
                        r.text(k, &field);
                        if v.is_null() {
                            // `key:` with no value is an entry that does not parse, never a free slot.
                            return Some((k.clone(), String::new()));
                        }
                        r.opt_str(Some(v), &field).map(|v| (k.clone(), v))
                    })
                    .collect(),
                PreAllocShape::Map,
            ),
            Some(_) => {
                r.bad(
                    "spec.preAllocations".into(),
                    "must be a mapping of claim name to address",
                );
                (Vec::new(), PreAllocShape::Map)
            }
        };
        let network = match at(value, &["metadata", "annotations"])
            .and_then(|a| a.get(NETWORK_ANNOTATION))
        {
            None | Some(Value::Null) => None,
            Some(v) => {
                let field = crate::results::key_path("metadata.annotations", NETWORK_ANNOTATION);
                match scalar_text(v) {
                    Some(s) if is_template(&s) => {
                        r.text(&s, &field);
                        None
                    }
                    Some(s) if crate::names::is_dns1123_label(&s) => Some(s),
                    _ => {
                        r.bad(
                            field,
                            &format!(
                                "is {v}: a network name is a DNS-1123 label (lower-case alphanumerics and '-', at most 63)"
                            ),
                        );
                        None
                    }
                }
            }
        };
        let indexes = match at(value, &["status", "indexes"]) {
            Some(Value::Object(m)) => m
                .iter()
                .filter_map(|(k, v)| scalar_text(v).map(|v| (k.clone(), v)))
                .collect(),
            _ => Vec::new(),
        };
        let Reader { template, bad, .. } = r;
        if let Some((field, text)) = &template {
            findings.push(skipped_for_template(object, field, text));
        }
        (!bad).then(|| Pool {
            object: object.clone(),
            spec: pool_spec,
            pre_allocations,
            shape,
            indexes,
            skipped: template.map(|(f, _)| f),
            network,
        })
    }

    pub fn name(&self) -> &str {
        &self.object.name
    }
}

/// Reads typed fields of one pool, remembering the first template and any shape error.
struct Reader<'a> {
    object: &'a Object,
    findings: &'a mut Vec<Finding>,
    template: Option<(String, String)>,
    bad: bool,
}

impl Reader<'_> {
    fn bad(&mut self, field: String, what: &str) {
        self.bad = true;
        self.findings.push(
            Finding::error(format!("{field} {what}"))
                .on(self.object.resource_ref())
                .at(field),
        );
    }

    fn text(&mut self, text: &str, field: &str) {
        if self.template.is_none() && is_template(text) {
            self.template = Some((field.to_string(), text.to_string()));
        }
    }

    fn opt_str(&mut self, v: Option<&Value>, field: &str) -> Option<String> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => {
                self.text(s, field);
                Some(s.clone())
            }
            Some(_) => {
                self.bad(field.to_string(), "must be a string holding an IP address");
                None
            }
        }
    }

    fn str_list(&mut self, v: Option<&Value>, field: &str) -> Vec<String> {
        match v {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| self.opt_str(Some(item), &format!("{field}[{i}]")))
                .collect(),
            Some(_) => {
                self.bad(field.to_string(), "must be a list of IP addresses");
                Vec::new()
            }
        }
    }

    /// `spec.allocationStrategy`: absent or `null` is `sequential` (the IPAM webhook fills it
    /// in); anything but the CRD's two values is refused, as the API server refuses it.
    fn strategy(&mut self, v: Option<&Value>) -> AllocationStrategy {
        const FIELD: &str = "spec.allocationStrategy";
        let allowed = AllocationStrategy::NAMES.join(" and ");
        match v {
            None | Some(Value::Null) => AllocationStrategy::default(),
            Some(Value::String(s)) if is_template(s) => {
                self.text(s, FIELD);
                AllocationStrategy::default()
            }
            Some(Value::String(s)) => AllocationStrategy::parse(s).unwrap_or_else(|| {
                let hint = did_you_mean(s, &AllocationStrategy::NAMES);
                self.bad(
                    FIELD.to_string(),
                    &format!(
                        "is {s:?}{hint}: the allowed values are {allowed} (absent means sequential)"
                    ),
                );
                AllocationStrategy::default()
            }),
            Some(other) => {
                self.bad(
                    FIELD.to_string(),
                    &format!("is {other}: the allowed values are the strings {allowed}"),
                );
                AllocationStrategy::default()
            }
        }
    }

    fn prefix(&mut self, v: Option<&Value>, field: &str) -> Option<u8> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => match n.as_u64() {
                Some(p) if p <= 128 => Some(p as u8),
                _ => {
                    self.bad(
                        field.to_string(),
                        &format!("is {n}: a prefix length is 0 to 128"),
                    );
                    None
                }
            },
            Some(Value::String(s)) if is_template(s) => {
                self.text(s, field);
                None
            }
            Some(other) => {
                self.bad(
                    field.to_string(),
                    &format!("is {other}: a prefix length must be an integer"),
                );
                None
            }
        }
    }
}
