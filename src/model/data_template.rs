//! Metal3DataTemplate (`infrastructure.cluster.x-k8s.io`, v1beta1 and v1beta2): the pools it
//! references, in the order CAPM3 collects them (FACTS §2).
//!
//! CAPM3 makes one claim per pool name a template references, walking the template in this
//! order:
//! 1. `spec.metaData`: `ipAddressesFromIPPool`, `prefixesFromIPPool`, `gatewaysFromIPPool`,
//!    `dnsServersFromIPPool` (v1beta1, each `{key, name, apiGroup, kind}`), spelled
//!    `...FromPool` in v1beta2, where every one of them is a Metal3 pool whatever its kind;
//! 2. each `networkData.networks.ipv4[]` then `ipv6[]` entry: `fromPoolAnnotation` (a pool
//!    named by an annotation of each machine), then `fromPoolRef` (with a name) else
//!    `ipAddressFromIPPool` (both the annotation's pool and the other are collected when both
//!    are set); then its `routes[]`: `gateway.fromPoolAnnotation`, `gateway.fromPoolRef`
//!    else `gateway.fromIPPool`, and `services.dnsFromIPPool`;
//! 3. the `routes[]` of `ipv4DHCP[]`, `ipv6DHCP[]` and `ipv6SLAAC[]`: `gateway.fromPoolRef`
//!    else `gateway.fromIPPool`, and `services.dnsFromIPPool` (no annotations there);
//! 4. `networkData.services.dnsFromIPPool`.
//!
//! Several references to one pool name share one claim. A reference's `apiGroup` and `kind`
//! default to `ipam.metal3.io` and `IPPool` one by one, as CAPM3 defaults them; one name with
//! two kinds is an error, as CAPM3 refuses such a template. An empty name is no reference
//! (CAPM3 skips empty names; the CRDs of v1beta2 refuse them). `fromPoolAnnotation.object` is
//! compared without case, as CAPM3 compares it.

use super::Object;
use super::value::{Spelling, is_template};
use super::view::View;
use crate::results::Finding;

/// The fields that v1beta1 and v1beta2 spell differently (FACTS §2; the CRDs of CAPM3 v1.13+
/// serve both versions, and these four lists are the only renamed fields).
pub const SPELLINGS: [Spelling; 4] = [
    Spelling {
        holder: &["spec", "metaData"],
        v1beta1: "ipAddressesFromIPPool",
        v1beta2: "ipAddressesFromPool",
    },
    Spelling {
        holder: &["spec", "metaData"],
        v1beta1: "prefixesFromIPPool",
        v1beta2: "prefixesFromPool",
    },
    Spelling {
        holder: &["spec", "metaData"],
        v1beta1: "gatewaysFromIPPool",
        v1beta2: "gatewaysFromPool",
    },
    Spelling {
        holder: &["spec", "metaData"],
        v1beta1: "dnsServersFromIPPool",
        v1beta2: "dnsServersFromPool",
    },
];

/// The group of the Metal3 IPAM's pools.
const METAL3_POOL: (&str, &str) = ("ipam.metal3.io", "IPPool");

/// The object a `fromPoolAnnotation` reads the pool name from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnnotatedObject {
    /// `baremetalhost` (any case): resolvable offline from the host.
    BareMetalHost,
    /// `machine` or `metal3machine` (as written), only known in the running cluster, or a word
    /// CAPM3 does not know at all.
    Other(String),
}

impl AnnotatedObject {
    /// Whether CAPM3 knows the object (`machine`, `metal3machine`, `baremetalhost`, any case).
    pub fn known(&self) -> bool {
        match self {
            AnnotatedObject::BareMetalHost => true,
            AnnotatedObject::Other(o) => {
                matches!(o.to_ascii_lowercase().as_str(), "machine" | "metal3machine")
            }
        }
    }
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
    /// Whether the pool is a Metal3 `IPPool` (`ipam.metal3.io` / `IPPool` once defaulted):
    /// only those get claims named after the host.
    pub metal3: bool,
    /// `apiGroup/kind` of the pool as CAPM3 reads it (`ipam.metal3.io/IPPool` when both are
    /// empty), for messages.
    pub kind: String,
    /// Where the reference is written, from the object's root (`spec.networkData...`): the
    /// name's field, or the `fromPoolAnnotation` object.
    pub field: String,
}

/// A Metal3DataTemplate as the function reads it.
#[derive(Debug, Clone)]
pub struct DataTemplate {
    pub object: Object,
    /// The pool references in CAPM3's collection order; a named pool appears once (at its
    /// first reference), each `fromPoolAnnotation` once per place it is written.
    pub refs: Vec<PoolRef>,
}

impl DataTemplate {
    /// Reads a template; `None` (with the findings) when a pool name is an unrendered template
    /// (a warning: the template is skipped), a reference is malformed, or one pool name is
    /// referenced with two kinds (errors naming the field; CAPM3 refuses that template too).
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(
        object: &Object,
        value: View<'_>,
        findings: &mut Vec<Finding>,
    ) -> Option<Self> {
        let mut r = Reader {
            object,
            refs: Vec::new(),
            problems: Vec::new(),
        };
        let spec = value.get("spec");
        r.meta_data(spec, object.api_version.ends_with("/v1beta2"));
        r.networks(spec);
        if let Some(services) = spec
            .and_then(|s| s.get("networkData"))
            .and_then(|n| n.get("services"))
        {
            r.named(
                services,
                "dnsFromIPPool",
                "spec.networkData.services.dnsFromIPPool",
            );
        }
        if !r.problems.is_empty() {
            findings.append(&mut r.problems);
            return None;
        }
        let refs = r.one_per_name(findings)?;
        Some(DataTemplate {
            object: object.clone(),
            refs,
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

/// Collects the references of one template, and the problems of its values.
struct Reader<'a> {
    object: &'a Object,
    refs: Vec<PoolRef>,
    /// Errors (malformed values) and warnings (unrendered templates): either makes the
    /// template unreadable.
    problems: Vec<Finding>,
}

impl<'a> Reader<'a> {
    fn error(&mut self, field: &str, what: String) {
        self.problems.push(
            Finding::error(format!(
                "this field {what}; CAPM3 cannot use this template either"
            ))
            .on(self.object.resource_ref())
            .at(field),
        );
    }

    /// The items of the list at `key` of `holder` with their positions; absent or `null` is
    /// none, anything but a list of mappings an error.
    fn list<'v>(
        &mut self,
        holder: Option<View<'v>>,
        key: &str,
        field: &str,
    ) -> Vec<(usize, View<'v>)> {
        let Some(found) = holder.and_then(|h| h.get(key)) else {
            return Vec::new();
        };
        match found.as_seq() {
            _ if found.is_null() => Vec::new(),
            Some(items) => {
                let mut out = Vec::new();
                for (i, item) in items.enumerate() {
                    if item.is_object() {
                        out.push((i, item));
                    } else {
                        self.error(
                            &format!("{field}[{i}]"),
                            format!("is {}, not a mapping", kind_of(item)),
                        );
                    }
                }
                out
            }
            None => {
                self.error(field, format!("is {}, not a list", kind_of(found)));
                Vec::new()
            }
        }
    }

    /// The text at `key` of `holder`; `None` when absent, `null` or empty (CAPM3 skips empty
    /// names), an error when not a string.
    fn text(&mut self, holder: View<'_>, key: &str, field: &str) -> Option<String> {
        let found = holder.get(key)?;
        match found.as_str() {
            _ if found.is_null() => None,
            Some("") => None,
            Some(s) => Some(s.to_string()),
            None => {
                self.error(field, format!("is {}, not a string", kind_of(found)));
                None
            }
        }
    }

    fn push(&mut self, name: PoolName, (group, kind): (&str, &str), metal3: bool, field: String) {
        let group = if group.is_empty() {
            METAL3_POOL.0
        } else {
            group
        };
        let kind = if kind.is_empty() { METAL3_POOL.1 } else { kind };
        self.refs.push(PoolRef {
            name,
            metal3: metal3 || (group, kind) == METAL3_POOL,
            kind: format!("{group}/{kind}"),
            field,
        });
    }

    /// A plain pool name at `key` (`ipAddressFromIPPool`, `fromIPPool`, `dnsFromIPPool`): a
    /// Metal3 pool. Whether one was there.
    fn named(&mut self, holder: View<'_>, key: &str, field: &str) -> bool {
        match self.text(holder, key, field) {
            Some(name) => {
                self.push(PoolName::Named(name), METAL3_POOL, true, field.to_string());
                true
            }
            None => false,
        }
    }

    /// A `{name, apiGroup, kind}` reference at `key` (`fromPoolRef`); whether it named a pool.
    fn typed_ref(&mut self, holder: View<'_>, key: &str, base: &str) -> bool {
        let r = match holder.get(key) {
            None => return false,
            Some(r) if r.is_null() => return false,
            Some(r) if r.is_object() => r,
            Some(other) => {
                self.error(
                    &format!("{base}.{key}"),
                    format!("is {}, not a mapping", kind_of(other)),
                );
                return false;
            }
        };
        self.typed(r, &format!("{base}.{key}"), false)
    }

    /// A `{name, apiGroup, kind}` mapping (a `fromPoolRef`, a metaData entry); `metal3` forces
    /// the pool to count as a Metal3 pool. Whether it named a pool.
    fn typed(&mut self, r: View<'_>, field: &str, metal3: bool) -> bool {
        let group = self.text(r, "apiGroup", &format!("{field}.apiGroup"));
        let kind = self.text(r, "kind", &format!("{field}.kind"));
        let Some(name) = self.text(r, "name", &format!("{field}.name")) else {
            return false;
        };
        let (group, kind) = if metal3 { (None, None) } else { (group, kind) };
        self.push(
            PoolName::Named(name),
            (
                group.as_deref().unwrap_or(""),
                kind.as_deref().unwrap_or(""),
            ),
            metal3,
            format!("{field}.name"),
        );
        true
    }

    /// A `fromPoolAnnotation {object, annotation}` at `key` of `holder` (always a Metal3 pool).
    fn annotation(&mut self, holder: View<'_>, base: &str) {
        let field = format!("{base}.fromPoolAnnotation");
        let a = match holder.get("fromPoolAnnotation") {
            None => return,
            Some(a) if a.is_null() => return,
            Some(a) if a.is_object() => a,
            Some(other) => {
                self.error(&field, format!("is {}, not a mapping", kind_of(other)));
                return;
            }
        };
        let object = self.text(a, "object", &format!("{field}.object"));
        let annotation = self.text(a, "annotation", &format!("{field}.annotation"));
        let (object, annotation) = match (object, annotation) {
            // The zero value of v1beta2's (non-pointer) field: not set.
            (None, None) => return,
            (Some(o), Some(a)) => (o, a),
            (None, Some(_)) => {
                self.error(
                    &format!("{field}.object"),
                    "is missing: write baremetalhost, machine or metal3machine".into(),
                );
                return;
            }
            (Some(_), None) => {
                self.error(
                    &format!("{field}.annotation"),
                    "is missing: write the annotation that holds the pool name".into(),
                );
                return;
            }
        };
        let object = if object.eq_ignore_ascii_case("baremetalhost") {
            AnnotatedObject::BareMetalHost
        } else {
            AnnotatedObject::Other(object)
        };
        self.push(
            PoolName::FromAnnotation { object, annotation },
            METAL3_POOL,
            true,
            field,
        );
    }

    /// `spec.metaData`: the four lists, in CAPM3's order, in the version's spelling.
    fn meta_data(&mut self, spec: Option<View<'_>>, v1beta2: bool) {
        let meta = spec.and_then(|s| s.get("metaData"));
        for what in ["ipAddresses", "prefixes", "gateways", "dnsServers"] {
            let key = if v1beta2 {
                format!("{what}FromPool")
            } else {
                format!("{what}FromIPPool")
            };
            let field = format!("spec.metaData.{key}");
            for (i, entry) in self.list(meta, &key, &field) {
                // v1.13+ (v1beta2) treats every metaData pool as a Metal3 pool.
                self.typed(entry, &format!("{field}[{i}]"), v1beta2);
            }
        }
    }

    /// `spec.networkData.networks`: static networks with their routes, then the routes of the
    /// DHCP and SLAAC networks.
    fn networks(&mut self, spec: Option<View<'_>>) {
        let networks = spec
            .and_then(|s| s.get("networkData"))
            .and_then(|n| n.get("networks"));
        for family in ["ipv4", "ipv6"] {
            let field = format!("spec.networkData.networks.{family}");
            for (i, net) in self.list(networks, family, &field) {
                let base = format!("{field}[{i}]");
                self.annotation(net, &base);
                if !self.typed_ref(net, "fromPoolRef", &base) {
                    self.named(
                        net,
                        "ipAddressFromIPPool",
                        &format!("{base}.ipAddressFromIPPool"),
                    );
                }
                self.routes(net, &base, true);
            }
        }
        for family in ["ipv4DHCP", "ipv6DHCP", "ipv6SLAAC"] {
            let field = format!("spec.networkData.networks.{family}");
            for (i, net) in self.list(networks, family, &field) {
                self.routes(net, &format!("{field}[{i}]"), false);
            }
        }
    }

    /// The pools of a network's `routes[]`: the gateway (its annotation only where CAPM3 reads
    /// one), then the DNS servers.
    fn routes(&mut self, net: View<'_>, base: &str, annotations: bool) {
        let field = format!("{base}.routes");
        for (j, route) in self.list(Some(net), "routes", &field) {
            let route_field = format!("{field}[{j}]");
            match route.get("gateway") {
                None => {}
                Some(gw) if gw.is_null() => {}
                Some(gw) if gw.is_object() => {
                    let gw_field = format!("{route_field}.gateway");
                    if annotations {
                        self.annotation(gw, &gw_field);
                    }
                    if !self.typed_ref(gw, "fromPoolRef", &gw_field) {
                        self.named(gw, "fromIPPool", &format!("{gw_field}.fromIPPool"));
                    }
                }
                Some(other) => self.error(
                    &format!("{route_field}.gateway"),
                    format!("is {}, not a mapping", kind_of(other)),
                ),
            }
            match route.get("services") {
                None => {}
                Some(services) if services.is_null() => {}
                Some(services) if services.is_object() => {
                    self.named(
                        services,
                        "dnsFromIPPool",
                        &format!("{route_field}.services.dnsFromIPPool"),
                    );
                }
                Some(other) => self.error(
                    &format!("{route_field}.services"),
                    format!("is {}, not a mapping", kind_of(other)),
                ),
            }
        }
    }

    /// One reference per pool name (the first), unrendered names skipped with a warning, one
    /// name with two kinds an error.
    fn one_per_name(self, findings: &mut Vec<Finding>) -> Option<Vec<PoolRef>> {
        let object = self.object;
        let mut kept: Vec<PoolRef> = Vec::new();
        for r in self.refs {
            let text = match &r.name {
                PoolName::Named(name) => name,
                PoolName::FromAnnotation { annotation, .. } => annotation,
            };
            if is_template(text) {
                findings.push(super::skipped_for_template(object, &r.field, text));
                return None;
            }
            if let PoolName::Named(name) = &r.name
                && let Some(first) = kept.iter().find(|k| k.name == r.name)
            {
                if first.kind != r.kind {
                    findings.push(
                        Finding::error(format!(
                            "{}: pool {name:?} is referenced as {} at {} and as {} at {}; CAPM3 refuses a \
                             template that names one pool with two kinds: use one kind",
                            object.display(),
                            first.kind,
                            first.field,
                            r.kind,
                            r.field,
                        ))
                        .on(object.resource_ref())
                        .at(r.field.clone()),
                    );
                    return None;
                }
                continue;
            }
            kept.push(r);
        }
        Some(kept)
    }
}

/// What a value is (as its JSON value is), for messages.
fn kind_of(v: View<'_>) -> &'static str {
    if v.is_null() {
        "null"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.is_number() {
        "a number"
    } else if v.is_string() {
        "a string"
    } else if v.is_array() {
        "a list"
    } else {
        "a mapping"
    }
}

#[cfg(test)]
mod tests;
