//! IPPool (`ipam.metal3.io/v1alpha1`): ranges, existing preallocations, live claims.

use super::value::is_template;
use super::view::View;
use super::{Object, skipped_for_template};
use crate::ipam::{AllocationStrategy, EntrySpec, PoolSpec};
use crate::names::{did_you_mean, short};
use crate::results::Finding;

pub mod crd;

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
    /// The annotation `ipreuse.dev/block-index` (SPEC §12): the pool takes block n of its
    /// network's cidr (the n-th aligned block, from 0), exactly.
    pub block_index: Option<u128>,
    /// The annotation `ipreuse.dev/block-size` (SPEC §12): the prefix length of the pool's
    /// block, over the network's `blockSize` (checked against the network where it is used).
    pub block_size: Option<u8>,
    /// Whether `spec` is a mapping (`{}` too), where a block's `spec.pools` can be written beside
    /// the entries; `false` when it is missing or `null`.
    pub spec_mapping: bool,
    /// `spec.namePrefix`: the IPAM names each IPAddress of the pool `{namePrefix}-{address}`
    /// (FACTS §4). `None` when it still holds a template (it is then not compared), or when the
    /// pool has no `spec` (a missing or empty one is an error).
    pub name_prefix: Option<String>,
    /// The keys of `spec.preAllocations` whose value the CRD's pattern refuses: reported at
    /// read, so that the entry's own check does not report it again. (The pool stays in use:
    /// one refused entry does not hide what else is wrong with the others.)
    pub refused_entries: Vec<String>,
}

super::ids::indexes!(super::ids::PoolId => Pool);

/// The annotation that puts an IPPool on a network shared across namespaces (SPEC §10).
pub const NETWORK_ANNOTATION: &str = "ipreuse.dev/network";

/// The annotation that pins an IPPool to block n of its network (SPEC §12): `"3"`.
pub const BLOCK_INDEX_ANNOTATION: &str = "ipreuse.dev/block-index";

/// The annotation that sets the prefix length of an IPPool's block (SPEC §12): `"27"`.
pub const BLOCK_SIZE_ANNOTATION: &str = "ipreuse.dev/block-size";

impl Pool {
    /// Reads a pool. Shape errors (a prefix that is not a number, a value that is not a string)
    /// are reported and make the result `None`; a template makes it `skipped` with a warning.
    pub fn read(object: &Object, value: View<'_>, findings: &mut Vec<Finding>) -> Option<Pool> {
        let mut r = Reader {
            object,
            findings,
            template: None,
            bad: false,
        };
        let spec = value.get("spec");
        let spec_mapping = spec.is_some_and(|s| s.is_object());
        let get = |path: &[&str]| spec.and_then(|s| s.at(path));
        r.text(object.name.as_str(), "metadata.name");
        r.text(object.namespace.as_str(), "metadata.namespace");
        if let Some(s) = spec.filter(|s| !s.is_null() && !s.is_object()) {
            r.refuse(
                "spec",
                format!(
                    "Write spec as a mapping of the pool's fields: the API server refuses {}.",
                    s.kind_of()
                ),
            );
        }
        let name_prefix = if spec_mapping {
            r.name_prefix(get(&["namePrefix"]))
        } else {
            None
        };
        let mut pool_spec = PoolSpec {
            entries: Vec::new(),
            prefix: r.prefix(get(&["prefix"]), "spec.prefix"),
            gateway: r.address(get(&["gateway"]), "spec.gateway"),
            dns_servers: r.str_list(get(&["dnsServers"]), "spec.dnsServers"),
            allocation_strategy: r.strategy(get(&["allocationStrategy"])),
        };
        match get(&["pools"]).filter(|v| !v.is_null()) {
            None => {}
            Some(v) if v.is_array() => {
                for (i, e) in v.as_seq().into_iter().flatten().enumerate() {
                    let f = |k: &str| format!("spec.pools[{i}].{k}");
                    if !e.is_object() {
                        r.bad(
                            format!("spec.pools[{i}]"),
                            "must be a mapping with start, end or subnet",
                        );
                        continue;
                    }
                    pool_spec.entries.push(EntrySpec {
                        start: r.address(e.get("start"), &f("start")),
                        end: r.address(e.get("end"), &f("end")),
                        subnet: r.subnet(e.get("subnet"), &f("subnet")),
                        prefix: r.prefix(e.get("prefix"), &f("prefix")),
                        gateway: r.address(e.get("gateway"), &f("gateway")),
                        dns_servers: r.str_list(e.get("dnsServers"), &f("dnsServers")),
                    });
                }
            }
            Some(_) => r.bad("spec.pools".into(), "must be a list"),
        }
        let mut refused_entries = Vec::new();
        let (pre_allocations, shape) = match get(&["preAllocations"]) {
            None => (Vec::new(), PreAllocShape::Missing),
            Some(v) if v.is_null() => (Vec::new(), PreAllocShape::Empty),
            Some(v) if v.is_empty() == Some(true) && v.is_object() => {
                (Vec::new(), PreAllocShape::Empty)
            }
            Some(m) if m.is_object() => (
                m.entries()
                    .into_iter()
                    .flatten()
                    .filter_map(|(k, v)| {
                        let field = crate::results::key_path("spec.preAllocations", &k);
                        r.text(&k, &field);
                        if v.is_null() {
                            // `key:` with no value is an entry that does not parse, never a free slot.
                            return Some((k.into_owned(), String::new()));
                        }
                        let text = r.opt_str(Some(v), &field)?;
                        if r.refused_address(&text, &field) {
                            refused_entries.push(k.to_string());
                        }
                        Some((k.into_owned(), text))
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
        let network = match value
            .at(&["metadata", "annotations", NETWORK_ANNOTATION])
            .filter(|v| !v.is_null())
        {
            None => None,
            Some(v) => {
                let field = crate::results::key_path("metadata.annotations", NETWORK_ANNOTATION);
                match v.scalar_text() {
                    Some(s) if is_template(&s) => {
                        r.text(&s, &field);
                        None
                    }
                    Some(s) if crate::names::is_dns1123_label(&s) => Some(s),
                    _ => {
                        r.bad(
                            field,
                            &format!(
                                "is {}: a network name is a DNS-1123 label (lower-case alphanumerics and '-', at most 63)",
                                v.json_text()
                            ),
                        );
                        None
                    }
                }
            }
        };
        let block_index = r.number_annotation(
            value,
            BLOCK_INDEX_ANNOTATION,
            "A block index is a non-negative decimal integer (0 is the cidr's first block), written as a string: \"3\"",
            u128::MAX,
        );
        let block_size = r
            .number_annotation(
                value,
                BLOCK_SIZE_ANNOTATION,
                "A block size is a prefix length from 0 to 128, written as a string: \"27\"",
                128,
            )
            .and_then(|n| u8::try_from(n).ok());
        let indexes = match value.at(&["status", "indexes"]).and_then(View::entries) {
            Some(entries) => entries
                .filter_map(|(k, v)| v.scalar_text().map(|v| (k.into_owned(), v)))
                .collect(),
            None => Vec::new(),
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
            block_index,
            block_size,
            spec_mapping,
            name_prefix,
            refused_entries,
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
            // the printer shows the field before the message: it is not repeated
            Finding::error(format!("this field {what}"))
                .on(self.object.resource_ref())
                .at(field),
        );
    }

    /// An error at `field` whose message is written whole (it does not start with the field,
    /// which the result names): the pool is not used.
    fn refuse(&mut self, field: impl Into<String>, message: String) {
        self.bad = true;
        self.findings.push(
            Finding::error(message)
                .on(self.object.resource_ref())
                .at(field.into()),
        );
    }

    /// `spec.namePrefix`, which the IPPool CRD requires (`required`, `minLength: 1`): missing,
    /// `null` (which the API server drops), empty or not a string is refused as the API server
    /// refuses it. A template is read as unknown (`None`), never guessed at.
    fn name_prefix(&mut self, v: Option<View<'_>>) -> Option<String> {
        const FIELD: &str = "spec.namePrefix";
        const WHY: &str = "The IPAM names each IPAddress of the pool {namePrefix}-{address} \
            (prov-10-0-0-10), so no other pool of the namespace that hands out the same \
            addresses may use it";
        match v.filter(|v| !v.is_null()) {
            None => {
                self.refuse(
                    FIELD,
                    format!(
                        "Add a namePrefix that no other pool of this namespace uses: the IPPool \
                         CRD requires one, and the API server refuses the pool without it. {WHY}."
                    ),
                );
                None
            }
            Some(v) => match v.as_str() {
                Some("") => {
                    self.refuse(
                        FIELD,
                        format!(
                            "Write a namePrefix that is not empty: the IPPool CRD requires at least \
                             one character, and the API server refuses the pool. {WHY}."
                        ),
                    );
                    None
                }
                Some(s) if is_template(s) => None,
                Some(s) => Some(s.to_owned()),
                None => {
                    self.refuse(
                        FIELD,
                        format!(
                            "Write namePrefix as a string: the API server refuses {}.",
                            v.kind_of()
                        ),
                    );
                    None
                }
            },
        }
    }

    /// An IP address field: a string ([`Self::opt_str`]) that the CRD's pattern admits
    /// ([`crd::is_ip_text`]), else refused as the API server refuses it. A template is left to
    /// [`Self::text`].
    fn address(&mut self, v: Option<View<'_>>, field: &str) -> Option<String> {
        let text = self.opt_str(v, field)?;
        if self.refused_address(&text, field) {
            self.bad = true;
        }
        Some(text)
    }

    /// Reports `text` at `field` when the CRD's pattern refuses it (a template is left to
    /// [`Self::text`]); whether it did. The pool stays in use unless the caller says otherwise.
    fn refused_address(&mut self, text: &str, field: &str) -> bool {
        if is_template(text) || crd::is_ip_text(text) {
            return false;
        }
        let why = match crate::ipam::parse_addr(text) {
            Err(e) => format!(": {e}"),
            Ok(_) => String::new(),
        };
        self.findings.push(
            Finding::error(format!(
                "Write an IPv4 address without leading zeros, or an IPv6 address in hex groups: \
                 the API server refuses {:?}. The IPPool CRD's pattern does not admit it{why}.",
                short(text)
            ))
            .on(self.object.resource_ref())
            .at(field),
        );
        true
    }

    /// `spec.pools[].subnet`: a string that the CRD's pattern admits ([`crd::is_subnet_text`]).
    fn subnet(&mut self, v: Option<View<'_>>, field: &str) -> Option<String> {
        let text = self.opt_str(v, field)?;
        if !is_template(&text) && !crd::is_subnet_text(&text) {
            let why = match crate::ipam::parse_subnet(&text) {
                Err(e) => format!(": {e}"),
                Ok(_) => String::new(),
            };
            self.refuse(
                field,
                format!(
                    "Write the subnet as address/prefix, 192.168.0.0/24 or fd00::/64: the API \
                     server refuses {:?}. The IPPool CRD's pattern does not admit it{why}.",
                    short(&text)
                ),
            );
        }
        Some(text)
    }

    /// A numeric annotation of the pool: a string of decimal digits, at most `max`. A template
    /// is noted (the pool is skipped); anything else is an error naming the annotation and
    /// `allowed`, and `None`.
    fn number_annotation(
        &mut self,
        value: View<'_>,
        key: &str,
        allowed: &str,
        max: u128,
    ) -> Option<u128> {
        let v = value
            .at(&["metadata", "annotations", key])
            .filter(|v| !v.is_null())?;
        let field = crate::results::key_path("metadata.annotations", key);
        let text = v.as_str();
        if let Some(s) = text.filter(|s| is_template(s)) {
            self.text(s, &field);
            return None;
        }
        let n = text
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<u128>().ok())
            .filter(|n| *n <= max);
        if n.is_none() {
            let found = match text {
                Some(s) => format!("{:?}", short(s)),
                None => v.kind_of(),
            };
            let pool = format!(
                "IPPool {}/{}",
                short(&self.object.namespace),
                short(&self.object.name)
            );
            self.bad(field, &format!("is {found} on {pool}. {allowed}"));
        }
        n
    }

    fn text(&mut self, text: &str, field: &str) {
        if self.template.is_none() && is_template(text) {
            self.template = Some((field.to_string(), text.to_string()));
        }
    }

    fn opt_str(&mut self, v: Option<View<'_>>, field: &str) -> Option<String> {
        match v.filter(|v| !v.is_null()) {
            None => None,
            Some(v) if v.is_string() => {
                let s = v.as_str().unwrap_or_default();
                self.text(s, field);
                Some(s.to_owned())
            }
            Some(_) => {
                self.bad(field.to_string(), "must be a string holding an IP address");
                None
            }
        }
    }

    fn str_list(&mut self, v: Option<View<'_>>, field: &str) -> Vec<String> {
        match v.filter(|v| !v.is_null()) {
            None => Vec::new(),
            Some(v) if v.is_array() => v
                .as_seq()
                .into_iter()
                .flatten()
                .enumerate()
                .filter_map(|(i, item)| {
                    let field = format!("{field}[{i}]");
                    if item.is_null() {
                        // The API server drops a null field, never a null item of a list.
                        self.refuse(
                            field,
                            "Remove this empty item, or write an address: the API server refuses \
                             null in a list of addresses."
                                .into(),
                        );
                        return None;
                    }
                    self.address(Some(item), &field)
                })
                .collect(),
            Some(_) => {
                self.bad(field.to_string(), "must be a list of IP addresses");
                Vec::new()
            }
        }
    }

    /// `spec.allocationStrategy`: absent or `null` is `sequential` (the IPAM webhook fills it
    /// in); anything but the CRD's two values is refused, as the API server refuses it.
    fn strategy(&mut self, v: Option<View<'_>>) -> AllocationStrategy {
        const FIELD: &str = "spec.allocationStrategy";
        let allowed = AllocationStrategy::NAMES.join(" and ");
        match v.filter(|v| !v.is_null()).map(|v| (v, v.as_str())) {
            None => AllocationStrategy::default(),
            Some((_, Some(s))) if is_template(s) => {
                self.text(s, FIELD);
                AllocationStrategy::default()
            }
            Some((_, Some(s))) => AllocationStrategy::parse(s).unwrap_or_else(|| {
                let hint = did_you_mean(s, &AllocationStrategy::NAMES);
                self.bad(
                    FIELD.to_string(),
                    &format!(
                        "is {s:?}{hint}: the allowed values are {allowed} (absent means sequential)"
                    ),
                );
                AllocationStrategy::default()
            }),
            Some((other, None)) => {
                self.bad(
                    FIELD.to_string(),
                    &format!(
                        "is {}: the allowed values are the strings {allowed}",
                        other.json_text()
                    ),
                );
                AllocationStrategy::default()
            }
        }
    }

    /// `prefix`: an integer (`24.0` too, as the API server's schema check and its JSON
    /// decoding take it) of at most 128, the CRD's `maximum`. The CRD sets no minimum, but the
    /// IPAM would write a negative one into every IPAddress of the pool: refused too, and the
    /// message says that it is ipreuse refusing.
    fn prefix(&mut self, v: Option<View<'_>>, field: &str) -> Option<u8> {
        match v.filter(|v| !v.is_null()) {
            None => None,
            Some(n) if n.is_number() => {
                let whole = n
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| n.as_u64().map(i128::from))
                    .or_else(|| {
                        n.as_f64()
                            .filter(|f| f.fract() == 0.0 && f.abs() < 1e30)
                            .map(|f| f as i128)
                    });
                let text = n.json_text();
                match whole {
                    Some(p) if (0..=i128::from(crd::PREFIX_MAXIMUM)).contains(&p) => {
                        u8::try_from(p).ok()
                    }
                    Some(p) if p > 0 => {
                        self.refuse(
                            field,
                            format!(
                                "Write a prefix length from 0 to 128: the API server refuses {text}, \
                                 as the IPPool CRD's maximum is 128."
                            ),
                        );
                        None
                    }
                    Some(_) => {
                        self.refuse(
                            field,
                            format!(
                                "Write a prefix length from 0 to 128, not {text}. It passes the IPPool \
                                 CRD, which sets no minimum, but the IPAM would write it into every \
                                 IPAddress of the pool, and no network takes it."
                            ),
                        );
                        None
                    }
                    None => {
                        self.refuse(
                            field,
                            format!(
                                "Write the prefix length as a whole number: the API server refuses \
                                 {text}, as the IPPool CRD wants an integer."
                            ),
                        );
                        None
                    }
                }
            }
            Some(s) if s.as_str().is_some_and(is_template) => {
                self.text(s.as_str().unwrap_or_default(), field);
                None
            }
            Some(other) => {
                self.bad(
                    field.to_string(),
                    &format!(
                        "is {}: a prefix length must be an integer",
                        other.json_text()
                    ),
                );
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// An IPPool `lab/pool-a` with these annotations, read: the pool (when usable) and the
    /// findings.
    fn read(annotations: Value) -> (Option<Pool>, Vec<Finding>) {
        let v = json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool",
            "metadata": {"name": "pool-a", "namespace": "lab", "annotations": annotations},
            "spec": {"namePrefix": "pool-a", "pools": [{"start": "10.0.0.10", "end": "10.0.0.20"}], "prefix": 24}});
        let doc = crate::model::view::node_of(&v);
        let view = View::new(&doc);
        let object = Object::read(crate::model::ItemId(0), view).expect("an object");
        let mut findings = Vec::new();
        let pool = Pool::read(&std::sync::Arc::new(object), view, &mut findings);
        (pool, findings)
    }

    #[test]
    fn block_annotations_are_read_onto_the_pool() {
        let (pool, findings) = read(json!({
            BLOCK_INDEX_ANNOTATION: "3", BLOCK_SIZE_ANNOTATION: "27", NETWORK_ANNOTATION: "prov"}));
        assert!(findings.is_empty(), "{findings:?}");
        let pool = pool.expect("a pool");
        assert_eq!(pool.block_index, Some(3));
        assert_eq!(pool.block_size, Some(27));
        assert_eq!(pool.network.as_deref(), Some("prov"));
        let (pool, _) = read(json!({}));
        let pool = pool.expect("a pool");
        assert_eq!((pool.block_index, pool.block_size), (None, None));
        // the ends of the ranges; leading zeros are still decimal
        let max = u128::MAX.to_string();
        let (pool, findings) =
            read(json!({BLOCK_INDEX_ANNOTATION: max, BLOCK_SIZE_ANNOTATION: "128"}));
        assert!(findings.is_empty(), "{findings:?}");
        let pool = pool.expect("a pool");
        assert_eq!(
            (pool.block_index, pool.block_size),
            (Some(u128::MAX), Some(128))
        );
        let (pool, _) = read(json!({BLOCK_INDEX_ANNOTATION: "007", BLOCK_SIZE_ANNOTATION: "0"}));
        let pool = pool.expect("a pool");
        assert_eq!((pool.block_index, pool.block_size), (Some(7), Some(0)));
    }

    #[test]
    fn a_malformed_block_annotation_is_an_error_naming_the_pool_and_the_annotation() {
        let too_big = format!("{}0", u128::MAX);
        for (key, value, says) in [
            (
                BLOCK_INDEX_ANNOTATION,
                json!("-1"),
                "A block index is a non-negative decimal integer",
            ),
            (BLOCK_INDEX_ANNOTATION, json!("3.0"), "A block index"),
            (BLOCK_INDEX_ANNOTATION, json!(""), "A block index"),
            (BLOCK_INDEX_ANNOTATION, json!(" 3"), "A block index"),
            (BLOCK_INDEX_ANNOTATION, json!(too_big), "A block index"),
            (BLOCK_INDEX_ANNOTATION, json!(3), "the number 3"),
            (
                BLOCK_SIZE_ANNOTATION,
                json!("/27"),
                "A block size is a prefix length from 0 to 128",
            ),
            (BLOCK_SIZE_ANNOTATION, json!("129"), "from 0 to 128"),
            (BLOCK_SIZE_ANNOTATION, json!(["27"]), "written as a string"),
        ] {
            let (pool, findings) = read(json!({ key: value }));
            assert!(pool.is_none(), "{key}: {value} must leave the pool unused");
            assert_eq!(findings.len(), 1, "{findings:?}");
            let f = &findings[0];
            assert!(f.is_error());
            let field = crate::results::key_path("metadata.annotations", key);
            assert_eq!(
                f.field.as_ref().map(|x| x.path.as_str()),
                Some(field.as_str())
            );
            assert_eq!(
                f.resource_ref.as_ref().map(|r| r.name.as_str()),
                Some("pool-a")
            );
            // the annotation is the result's field, shown before the message, not repeated in it
            assert!(!f.message.starts_with(field.as_str()), "{}", f.message);
            assert!(f.message.contains("IPPool lab/pool-a"), "{}", f.message);
            assert!(f.message.contains(says), "{says:?} not in {}", f.message);
            let first = f.message.split(". ").next().unwrap_or_default();
            assert!(first.chars().count() < 160, "{}", f.message);
        }
    }

    #[test]
    fn a_templated_block_annotation_skips_the_pool() {
        let (pool, findings) = read(json!({BLOCK_INDEX_ANNOTATION: "${INDEX}"}));
        let pool = pool.expect("a skipped pool");
        assert!(pool.skipped.is_some());
        assert_eq!(pool.block_index, None);
        assert!(!findings.iter().any(Finding::is_error), "{findings:?}");
    }
}

/// What the IPPool CRD requires of the fields ipreuse reads and writes, checked as the API
/// server checks it (`tests/it/ippool_crd.rs` runs the CRD's own schema over these and more).
#[cfg(test)]
mod crd_tests {
    use super::*;
    use serde_json::{Value, json};

    /// The pool `lab/p` with this `spec`, read.
    fn read_spec(spec: Value) -> (Option<Pool>, Vec<Finding>) {
        let v = json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool",
            "metadata": {"name": "p", "namespace": "lab"}, "spec": spec});
        let doc = crate::model::view::node_of(&v);
        let view = View::new(&doc);
        let object = Object::read(crate::model::ItemId(0), view).expect("an object");
        let mut findings = Vec::new();
        let pool = Pool::read(&std::sync::Arc::new(object), view, &mut findings);
        (pool, findings)
    }

    /// A valid spec with `key` set to `value` (`None` removes it).
    fn with(key: &str, value: Option<Value>) -> Value {
        let mut spec =
            json!({"namePrefix": "p", "pools": [{"start": "10.0.0.10", "end": "10.0.0.20"}]});
        match value {
            Some(v) => spec[key] = v,
            None => {
                if let Some(m) = spec.as_object_mut() {
                    m.remove(key);
                }
            }
        }
        spec
    }

    fn entry(key: &str, value: Value) -> Value {
        let mut e = json!({"start": "10.0.0.10", "end": "10.0.0.20"});
        e[key] = value;
        json!({"namePrefix": "p", "pools": [e]})
    }

    #[test]
    fn each_constraint_of_the_crd_is_an_error_at_its_field() {
        let cases: Vec<(Value, Option<&str>)> = vec![
            (with("prefix", None), None),
            (with("namePrefix", None), Some("spec.namePrefix")),
            (
                with("namePrefix", Some(Value::Null)),
                Some("spec.namePrefix"),
            ),
            (with("namePrefix", Some(json!(""))), Some("spec.namePrefix")),
            (with("namePrefix", Some(json!(5))), Some("spec.namePrefix")),
            (
                with("namePrefix", Some(json!(["p"]))),
                Some("spec.namePrefix"),
            ),
            (with("gateway", Some(json!("10.0.0.1"))), None),
            (with("gateway", Some(json!("2001:DB8::1"))), None),
            (
                with("gateway", Some(json!("010.0.0.1"))),
                Some("spec.gateway"),
            ),
            (
                with("gateway", Some(json!("::ffff:10.0.0.1"))),
                Some("spec.gateway"),
            ),
            (
                with("gateway", Some(json!("fe80::1%eth0"))),
                Some("spec.gateway"),
            ),
            (
                with("gateway", Some(json!(" 10.0.0.1"))),
                Some("spec.gateway"),
            ),
            (with("gateway", Some(json!("gw"))), Some("spec.gateway")),
            (with("dnsServers", Some(json!(["10.0.0.53"]))), None),
            (
                with("dnsServers", Some(json!(["10.0.0.53", "dns"]))),
                Some("spec.dnsServers[1]"),
            ),
            (
                with("dnsServers", Some(json!([null]))),
                Some("spec.dnsServers[0]"),
            ),
            (with("prefix", Some(json!(24))), None),
            (with("prefix", Some(json!(24.0))), None),
            (with("prefix", Some(json!(128))), None),
            (with("prefix", Some(json!(129))), Some("spec.prefix")),
            (with("prefix", Some(json!(24.5))), Some("spec.prefix")),
            // the CRD sets no minimum: ipreuse's own refusal
            (with("prefix", Some(json!(-1))), Some("spec.prefix")),
            (
                with("preAllocations", Some(json!({"h-p": "10.0.0.11"}))),
                None,
            ),
            (
                with("preAllocations", Some(json!({"h-p": "10.0.0.011"}))),
                Some("spec.preAllocations.h-p"),
            ),
            (entry("subnet", json!("10.0.0.0/24")), None),
            (entry("subnet", json!("fd00::/64")), None),
            (
                entry("subnet", json!("10.0.0.0/33")),
                Some("spec.pools[0].subnet"),
            ),
            (
                entry("subnet", json!("10.0.0.0/08")),
                Some("spec.pools[0].subnet"),
            ),
            (
                entry("subnet", json!("fd00::/129")),
                Some("spec.pools[0].subnet"),
            ),
            (
                entry("subnet", json!("10.0.0.0")),
                Some("spec.pools[0].subnet"),
            ),
            (
                entry("start", json!("10.0.0.1 ")),
                Some("spec.pools[0].start"),
            ),
            (entry("end", json!("10.0.0.256")), Some("spec.pools[0].end")),
            (
                entry("gateway", json!("::1.2.3.4")),
                Some("spec.pools[0].gateway"),
            ),
            (entry("prefix", json!(200)), Some("spec.pools[0].prefix")),
            (
                entry("dnsServers", json!([null])),
                Some("spec.pools[0].dnsServers[0]"),
            ),
            (json!("a string"), Some("spec")),
        ];
        for (spec, field) in cases {
            let (pool, findings) = read_spec(spec.clone());
            let errors: Vec<&str> = findings
                .iter()
                .filter(|f| f.is_error())
                .filter_map(|f| f.field.as_ref().map(|x| x.path.as_str()))
                .collect();
            match field {
                None => {
                    assert!(errors.is_empty(), "{spec}: {findings:?}");
                    assert!(pool.is_some(), "{spec}");
                }
                Some(field) if field.starts_with("spec.preAllocations.") => {
                    // One refused entry is reported, and the pool stays in use for the rest.
                    assert_eq!(errors, vec![field], "{spec}: {findings:?}");
                    let pool = pool.expect("a pool");
                    assert_eq!(pool.refused_entries, ["h-p"]);
                }
                Some(field) => {
                    assert_eq!(errors, vec![field], "{spec}: {findings:?}");
                    assert!(
                        pool.is_none(),
                        "{spec}: a pool the API server refuses is not used"
                    );
                    let m = &findings[0].message;
                    assert!(!m.starts_with(field), "{m}");
                }
            }
        }
    }

    #[test]
    fn the_name_prefix_is_read_and_a_templated_one_is_unknown() {
        let (pool, _) = read_spec(with("namePrefix", Some(json!("test1-prov"))));
        assert_eq!(
            pool.expect("a pool").name_prefix.as_deref(),
            Some("test1-prov")
        );
        let (pool, findings) = read_spec(with("namePrefix", Some(json!("${CLUSTER}-prov"))));
        assert!(findings.is_empty(), "{findings:?}");
        let pool = pool.expect("a pool");
        assert_eq!(pool.name_prefix, None);
        assert!(
            pool.skipped.is_none(),
            "the prefix alone does not skip the pool"
        );
        // no spec at all: the CRD requires nothing (spec is not required)
        let v = json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool",
            "metadata": {"name": "p", "namespace": "lab"}});
        let doc = crate::model::view::node_of(&v);
        let view = View::new(&doc);
        let object = Object::read(crate::model::ItemId(0), view).expect("an object");
        let mut findings = Vec::new();
        let pool = Pool::read(&std::sync::Arc::new(object), view, &mut findings);
        assert!(findings.is_empty() && pool.is_some(), "{findings:?}");
    }
}
