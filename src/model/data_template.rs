//! Metal3DataTemplate (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): the pools it
//! references, in the order CAPM3 collects them.
//!
//! CAPM3 makes one claim per pool name a template references, walking the template in this
//! order: `spec.metaData` (`ipAddressesFrom(IP)Pool`, `prefixesFrom(IP)Pool`,
//! `gatewaysFrom(IP)Pool`, `dnsServersFrom(IP)Pool`); each `networkData.networks.ipv4[]` then
//! `ipv6[]` entry (`fromPoolAnnotation`, then `fromPoolRef`, else `ipAddressFromIPPool`), with
//! its `routes[]` (`gateway.fromPoolAnnotation`, `gateway.fromPoolRef` else
//! `gateway.fromIPPool`, then `services.dnsFromIPPool`); the routes of `ipv4DHCP[]`,
//! `ipv6DHCP[]` and `ipv6SLAAC[]` (`gateway.fromPoolRef` else `gateway.fromIPPool`, then
//! `services.dnsFromIPPool`); and `networkData.services.dnsFromIPPool`. Several references to
//! one pool name share one claim.

use serde_json::Value;

use super::Object;
use super::value::{at, is_template, str_at};
use crate::results::Finding;

/// The object a `fromPoolAnnotation` reads the pool name from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnnotatedObject {
    /// `baremetalhost`: resolvable offline from the host.
    BareMetalHost,
    /// `machine` or `metal3machine` (or anything else): only known in the running cluster.
    Other(String),
}

/// How a reference names its pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolName {
    /// Written in the template.
    Named(String),
    /// The value of annotation `annotation` on `object`, per machine.
    FromAnnotation {
        object: AnnotatedObject,
        annotation: String,
    },
}

/// One pool reference of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRef {
    pub name: PoolName,
    /// Whether the pool is a Metal3 `IPPool` (`ipam.metal3.io` / `IPPool`, or both empty): only
    /// those get claims named after the host.
    pub metal3: bool,
    /// Where the reference is written, from the object's root (`spec.networkData...`).
    pub field: String,
}

/// A Metal3DataTemplate as the function reads it.
#[derive(Debug, Clone)]
pub struct DataTemplate {
    pub object: Object,
    /// The pool references in CAPM3's collection order; a named pool appears once (at its
    /// first reference).
    pub refs: Vec<PoolRef>,
}

impl DataTemplate {
    /// Reads a template; `None` (with a finding) when a pool name is an unrendered template or
    /// one pool name is referenced with two kinds (CAPM3 refuses that template too).
    pub fn read(object: &Object, value: &Value, findings: &mut Vec<Finding>) -> Option<Self> {
        let v1beta2 = object.api_version.ends_with("/v1beta2");
        let mut refs: Vec<PoolRef> = Vec::new();
        let spec = value.get("spec");
        let meta_keys: [&str; 4] = if v1beta2 {
            [
                "ipAddressesFromPool",
                "prefixesFromPool",
                "gatewaysFromPool",
                "dnsServersFromPool",
            ]
        } else {
            [
                "ipAddressesFromIPPool",
                "prefixesFromIPPool",
                "gatewaysFromIPPool",
                "dnsServersFromIPPool",
            ]
        };
        for key in meta_keys {
            for (i, entry) in items(spec, &["metaData", key]) {
                if let Some(name) = str_at(entry, &["name"]) {
                    // v1.13+ (v1beta2) treats every metaData pool as a Metal3 pool.
                    let metal3 = v1beta2 || is_metal3(entry);
                    refs.push(named(
                        name,
                        metal3,
                        format!("spec.metaData.{key}[{i}].name"),
                    ));
                }
            }
        }
        for family in ["ipv4", "ipv6"] {
            for (i, net) in items(spec, &["networkData", "networks", family]) {
                let base = format!("spec.networkData.networks.{family}[{i}]");
                if let Some(r) = from_annotation(net, &format!("{base}.fromPoolAnnotation")) {
                    refs.push(r);
                }
                if let Some(r) = from_ref(net.get("fromPoolRef"), &format!("{base}.fromPoolRef")) {
                    refs.push(r);
                } else if let Some(name) = str_at(net, &["ipAddressFromIPPool"]) {
                    refs.push(named(name, true, format!("{base}.ipAddressFromIPPool")));
                }
                routes(net, &base, true, &mut refs);
            }
        }
        for family in ["ipv4DHCP", "ipv6DHCP", "ipv6SLAAC"] {
            for (i, net) in items(spec, &["networkData", "networks", family]) {
                let base = format!("spec.networkData.networks.{family}[{i}]");
                routes(net, &base, false, &mut refs);
            }
        }
        if let Some(name) = spec
            .and_then(|s| at(s, &["networkData", "services", "dnsFromIPPool"]))
            .and_then(Value::as_str)
        {
            refs.push(named(
                name,
                true,
                "spec.networkData.services.dnsFromIPPool".into(),
            ));
        }
        // One claim per pool name: keep the first reference; one name with two kinds is an
        // error, as in CAPM3.
        let mut kept: Vec<PoolRef> = Vec::new();
        for r in refs {
            if let PoolName::Named(name) = &r.name {
                if is_template(name) {
                    findings.push(super::skipped_for_template(object, &r.field, name));
                    return None;
                }
                if let Some(first) = kept.iter().find(|k| k.name == r.name) {
                    if first.metal3 != r.metal3 {
                        findings.push(
                            Finding::error(format!(
                                "{}: pool {name:?} is referenced as a Metal3 IPPool at {} and as another kind at {}; \
                                 CAPM3 refuses a template that names one pool with two kinds: use one kind",
                                object.display(),
                                if first.metal3 { &first.field } else { &r.field },
                                if first.metal3 { &r.field } else { &first.field },
                            ))
                            .on(object.resource_ref())
                            .at(r.field.clone()),
                        );
                        return None;
                    }
                    continue;
                }
            }
            kept.push(r);
        }
        Some(DataTemplate {
            object: object.clone(),
            refs: kept,
        })
    }

    /// The first Metal3 pool the template names (what CAPM3's `pool-name` label on a
    /// Metal3Data is read as here, SPEC §7); `None` when the first Metal3 reference is read from
    /// an annotation, or there is none.
    pub fn first_metal3_pool(&self) -> Option<&str> {
        match &self.refs.iter().find(|r| r.metal3)?.name {
            PoolName::Named(n) => Some(n),
            PoolName::FromAnnotation { .. } => None,
        }
    }
}

/// The items of the list at `path` under `spec`, with their positions.
fn items<'a>(spec: Option<&'a Value>, path: &[&str]) -> Vec<(usize, &'a Value)> {
    spec.and_then(|s| at(s, path))
        .and_then(Value::as_array)
        .map(|a| a.iter().enumerate().collect())
        .unwrap_or_default()
}

fn named(name: &str, metal3: bool, field: String) -> PoolRef {
    PoolRef {
        name: PoolName::Named(name.to_string()),
        metal3,
        field,
    }
}

/// Whether `{apiGroup, kind}` names a Metal3 IPPool (both empty count as one).
fn is_metal3(entry: &Value) -> bool {
    let group = str_at(entry, &["apiGroup"]).unwrap_or("");
    let kind = str_at(entry, &["kind"]).unwrap_or("");
    matches!((group, kind), ("", "") | ("ipam.metal3.io", "IPPool"))
}

/// A `fromPoolRef` `{name, kind, apiGroup}`.
fn from_ref(r: Option<&Value>, field: &str) -> Option<PoolRef> {
    let r = r?;
    let name = str_at(r, &["name"])?;
    Some(named(name, is_metal3(r), format!("{field}.name")))
}

/// A `fromPoolAnnotation` `{object, annotation}` (always a Metal3 pool).
fn from_annotation(holder: &Value, field: &str) -> Option<PoolRef> {
    let a = holder.get("fromPoolAnnotation")?;
    let annotation = str_at(a, &["annotation"])?.to_string();
    let object = match str_at(a, &["object"]).unwrap_or("") {
        "baremetalhost" => AnnotatedObject::BareMetalHost,
        other => AnnotatedObject::Other(other.to_string()),
    };
    Some(PoolRef {
        name: PoolName::FromAnnotation { object, annotation },
        metal3: true,
        field: field.to_string(),
    })
}

/// The pools of a network's `routes[]`: gateway (annotation only where CAPM3 reads it), then
/// the DNS servers.
fn routes(net: &Value, base: &str, annotations: bool, refs: &mut Vec<PoolRef>) {
    let Some(routes) = net.get("routes").and_then(Value::as_array) else {
        return;
    };
    for (j, route) in routes.iter().enumerate() {
        let field = format!("{base}.routes[{j}]");
        if let Some(gw) = route.get("gateway") {
            if annotations
                && let Some(r) = from_annotation(gw, &format!("{field}.gateway.fromPoolAnnotation"))
            {
                refs.push(r);
            }
            if let Some(r) = from_ref(
                gw.get("fromPoolRef"),
                &format!("{field}.gateway.fromPoolRef"),
            ) {
                refs.push(r);
            } else if let Some(name) = str_at(gw, &["fromIPPool"]) {
                refs.push(named(name, true, format!("{field}.gateway.fromIPPool")));
            }
        }
        if let Some(name) = str_at(route, &["services", "dnsFromIPPool"]) {
            refs.push(named(name, true, format!("{field}.services.dnsFromIPPool")));
        }
    }
}

#[cfg(test)]
mod tests;
