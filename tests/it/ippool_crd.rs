//! Issue 35, acceptance 2: every IPPool read is checked against what the IPPool CRD requires of
//! the fields ipreuse reads and writes, and ipreuse refuses exactly where the API server would.
//!
//! The judge is the upstream CRD's own `openAPIV3Schema` (`tests/data/crds/`, every served
//! version), run by the `jsonschema` crate the way the API server runs it on `kubectl apply`:
//!
//! - `status` is left out first: the CRD has the status subresource, so the API server ignores
//!   the status of a create or update of the pool (its patterns never refuse a pool in Git);
//! - then, as `PruneNonNullableNullsWithoutDefaults` does, a `null` field or map value whose
//!   schema is neither nullable nor defaulted is dropped (`preAllocations: null`,
//!   `namePrefix: null`, an entry `h-p: null`), and a `null` with a default takes the default
//!   (`allocationStrategy: null` is `sequential`). A `null` item of a list stays, and is refused;
//! - Kubernetes' `format`s and `x-kubernetes-*` extensions are not JSON Schema: the IPPool CRD
//!   has only `format: int64` and `date-time` in `status`, which is left out; the patterns are
//!   RE2 syntax, which the `jsonschema` crate's ECMA regexes read the same way for these.
//!
//! Each case runs through both; the fields the schema refuses must be exactly the fields
//! ipreuse reports an error at. ipreuse is run twice: with the pool unmanaged (the `pools:` of
//! the config names another pool), where only the CRD's checks apply, and managed, with a host
//! that needs an entry, where the webhook's and the IPAM's checks apply too. A case the schema
//! accepts and ipreuse refuses must say why: each is a deliberate difference listed in
//! docs/decisions.md ("What ipreuse refuses that the IPAM would accept (issue 35)").

use crate::common::{self, run_sources};
use crate::schemas::crd_schemas;

use ipreuse::results::Finding;
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// The CRD's schema of every served version, compiled.
fn validators() -> Vec<(String, jsonschema::Validator, Value)> {
    let out: Vec<(String, jsonschema::Validator, Value)> =
        crd_schemas("ipam.metal3.io_ippools.yaml")
            .into_iter()
            .map(|((api_version, _), schema)| {
                let v = jsonschema::validator_for(&schema)
                    .unwrap_or_else(|e| panic!("the IPPool CRD's schema compiles: {e}"));
                (api_version, v, schema)
            })
            .collect();
    assert!(!out.is_empty(), "the IPPool CRD serves no version");
    out
}

/// The API server's pass over an object before it validates it: `null`s of fields that are
/// neither nullable nor defaulted dropped, defaulted ones defaulted (apiextensions-apiserver's
/// `PruneNonNullableNullsWithoutDefaults`, then its defaulting of nulls).
fn prune_nulls(x: &mut Value, schema: Option<&Value>) {
    match x {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                let sub = schema.and_then(|s| {
                    s.get("properties")
                        .and_then(|p| p.get(&k))
                        .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
                });
                let nullable = sub.is_some_and(|s| s.get("nullable") == Some(&Value::Bool(true)));
                let default = sub.and_then(|s| s.get("default"));
                let Some(v) = map.get_mut(&k) else { continue };
                if v.is_null() && sub.is_some() && !nullable {
                    match default {
                        Some(d) => *v = d.clone(),
                        None => {
                            map.remove(&k);
                        }
                    }
                } else {
                    prune_nulls(v, sub);
                }
            }
        }
        Value::Array(items) => {
            let sub = schema.and_then(|s| s.get("items"));
            for item in items {
                prune_nulls(item, sub);
            }
        }
        _ => {}
    }
}

/// The fields of `pool` the API server refuses, in ipreuse's dotted form (`spec.pools[0].start`,
/// `spec.preAllocations.h-p`; a missing required field at its own path, `spec.namePrefix`).
fn schema_refuses(pool: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (version, validator, schema) in validators() {
        let mut object = pool.clone();
        object["apiVersion"] = json!(version);
        if let Some(m) = object.as_object_mut() {
            m.remove("status");
        }
        prune_nulls(&mut object, Some(&schema));
        for e in validator.iter_errors(&object) {
            let mut path = String::new();
            let mut segs: Vec<String> = Vec::new();
            for seg in e.instance_path().iter() {
                match seg {
                    jsonschema::paths::LocationSegment::Property(p) => segs.push(p.into_owned()),
                    jsonschema::paths::LocationSegment::Index(i) => segs.push(format!("#{i}")),
                }
            }
            if let jsonschema::error::ValidationErrorKind::Required { property } = e.kind() {
                segs.push(property.as_str().unwrap_or_default().to_owned());
            }
            let mut parent = String::new();
            for seg in segs {
                if let Some(i) = seg.strip_prefix('#') {
                    path.push_str(&format!("[{i}]"));
                } else if path.is_empty() {
                    path = seg.clone();
                } else if parent == "preAllocations" {
                    path = ipreuse::results::key_path(&path, &seg);
                } else {
                    path = format!("{path}.{seg}");
                }
                parent = seg;
            }
            out.insert(path);
        }
    }
    out
}

const NS: &str = "lab";

/// The pool under test, `lab/p`, with `spec` (and the status it is given, if any).
fn pool_value(spec: Value) -> Value {
    json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPPool",
        "metadata": {"name": "p", "namespace": NS}, "spec": spec})
}

/// The fields of pool `lab/p` ipreuse reports an error at, with it managed (a host `h` needs an
/// entry in it) or not (the config's `pools` names only the other pool `q`).
fn ipreuse_refuses(pool: &Value, managed: bool) -> (BTreeSet<String>, Vec<Finding>) {
    let other = common::pool("q", NS)
        .range(common::range("192.168.0.10", "192.168.0.20"))
        .yaml();
    // JSON is YAML: the pool goes in as the JSON text of its value.
    let mut docs = vec![pool.to_string(), other];
    let cfg = if managed {
        docs.push(common::host("h", NS).yaml());
        common::config(json!({"controllerFlag": false}))
    } else {
        common::config(json!({"controllerFlag": false, "pools": [format!("{NS}/q")]}))
    };
    let text = docs.join("\n---\n");
    let o = run_sources(&[("input.yaml".into(), text)], Some(&cfg));
    let on_p: Vec<Finding> = common::errors(&o)
        .into_iter()
        .filter(|f| {
            f.resource_ref
                .as_ref()
                .is_some_and(|r| r.kind == "IPPool" && r.name == "p")
        })
        .cloned()
        .collect();
    let fields = on_p
        .iter()
        .filter_map(|f| f.field.as_ref().map(|x| x.path.clone()))
        .collect();
    let others: Vec<&Finding> = common::errors(&o)
        .into_iter()
        .filter(|f| f.resource_ref.as_ref().is_none_or(|r| r.name != "p"))
        .collect();
    assert!(
        others.is_empty(),
        "errors on other objects: {others:?}\n{}",
        common::dump(&o)
    );
    (fields, on_p)
}

/// A valid spec of pool `p`, with `key` set to `value` (`Value::Null` written as `null`; use
/// [`without`] to leave a field out).
fn with(key: &str, value: Value) -> Value {
    let mut spec = base();
    spec[key] = value;
    spec
}

fn without(key: &str) -> Value {
    let mut spec = base();
    if let Some(m) = spec.as_object_mut() {
        m.remove(key);
    }
    spec
}

fn base() -> Value {
    json!({"namePrefix": "lab-p", "pools": [{"start": "10.0.0.10", "end": "10.0.0.20"}], "prefix": 24})
}

/// A valid spec whose one entry has `key` set to `value`.
fn entry(key: &str, value: Value) -> Value {
    let mut e = json!({"start": "10.0.0.10", "end": "10.0.0.20"});
    e[key] = value;
    json!({"namePrefix": "lab-p", "pools": [e], "prefix": 24})
}

/// The cases: a spec, and for one the schema accepts but ipreuse refuses when it manages the
/// pool, the field and the reason (a deliberate difference of docs/decisions.md).
fn cases() -> Vec<(Value, Option<(&'static str, &'static str)>)> {
    let v6 = |e: Value| json!({"namePrefix": "lab-p", "pools": [e], "prefix": 64});
    vec![
        // every field ipreuse reads or writes, accepted
        (base(), None),
        (without("prefix"), None),
        (
            json!({"namePrefix": "lab-p", "clusterName": "c", "allocationStrategy": "random",
                "pools": [{"subnet": "10.0.0.0/28", "gateway": "10.0.0.1", "prefix": 28,
                "dnsServers": ["10.0.0.53"]}], "gateway": "10.0.0.1", "dnsServers": ["10.0.0.54"],
                "prefix": 24, "preAllocations": {"h-p": "10.0.0.2", "x-p": "10.0.0.3"}}),
            None,
        ),
        (
            v6(
                json!({"start": "fd00::10", "end": "fd00::20", "subnet": "fd00::/64", "gateway": "FD00::1"}),
            ),
            None,
        ),
        (v6(json!({"subnet": "fd00::/7"})), None),
        (v6(json!({"subnet": "fd00::/100"})), None),
        (with("preAllocations", Value::Null), None),
        (with("preAllocations", json!({})), None),
        (with("dnsServers", Value::Null), None),
        (with("gateway", Value::Null), None),
        (with("prefix", Value::Null), None),
        (with("prefix", json!(0)), None),
        (with("prefix", json!(24.0)), None),
        (with("allocationStrategy", Value::Null), None),
        (with("namePrefix", json!("a")), None),
        // spec.namePrefix: required, a string, at least one character
        (without("namePrefix"), None),
        (with("namePrefix", Value::Null), None),
        (with("namePrefix", json!("")), None),
        (with("namePrefix", json!(7)), None),
        (with("namePrefix", json!(["lab-p"])), None),
        // spec: an object
        (json!("spec"), None),
        (json!(["spec"]), None),
        // addresses: the CRD's pattern
        (with("gateway", json!("010.0.0.1")), None),
        (with("gateway", json!("10.0.0.256")), None),
        (with("gateway", json!("10.0.0")), None),
        (with("gateway", json!(" 10.0.0.1")), None),
        (with("gateway", json!("10.0.0.1/24")), None),
        (with("gateway", json!("::ffff:10.0.0.1")), None),
        (with("gateway", json!("fe80::1%eth0")), None),
        (with("gateway", json!("1:2:3:4:5:6:7:8:9")), None),
        (with("gateway", json!("gw")), None),
        (with("gateway", json!("")), None),
        (with("gateway", json!(10)), None),
        (with("dnsServers", json!(["10.0.0.53", "dns"])), None),
        (with("dnsServers", json!([null])), None),
        (with("dnsServers", json!("10.0.0.53")), None),
        (entry("start", json!("10.0.0.010")), None),
        (entry("end", json!("10.0.0.20 ")), None),
        (entry("gateway", json!("::1.2.3.4")), None),
        (entry("dnsServers", json!(["10.0.0.1", null])), None),
        (with("preAllocations", json!({"h-p": "10.0.0.011"})), None),
        (with("preAllocations", json!({"h-p": "fd00::1::2"})), None),
        (with("preAllocations", json!({"h-p": 5})), None),
        // subnet: the CRD's pattern
        (entry("subnet", json!("10.0.0.0/33")), None),
        (entry("subnet", json!("10.0.0.0/08")), None),
        (entry("subnet", json!("10.0.0.0")), None),
        (entry("subnet", json!("fd00::/129")), None),
        (entry("subnet", json!("fd00::/064")), None),
        // prefix: an integer of at most 128
        (with("prefix", json!(129)), None),
        (with("prefix", json!(24.5)), None),
        (with("prefix", json!("24")), None),
        (entry("prefix", json!(300)), None),
        // allocationStrategy: the CRD's enum
        (with("allocationStrategy", json!("Random")), None),
        (with("allocationStrategy", json!(1)), None),
        // pools: a list of objects
        (with("pools", json!({"start": "10.0.0.10"})), None),
        (with("pools", json!([null])), None),
        (with("pools", json!(["10.0.0.10"])), None),
        // preAllocations: a mapping
        (with("preAllocations", json!(["h-p"])), None),
        // Deliberate differences: the schema accepts these, ipreuse refuses them when it
        // manages the pool (docs/decisions.md).
        (
            with("prefix", json!(-1)),
            Some((
                "spec.prefix",
                "the CRD sets no minimum; the IPAM would write it into every IPAddress",
            )),
        ),
        (
            with("gateway", json!("::ffff:a00:1")),
            Some((
                "spec.gateway",
                "IPv4-mapped IPv6 text: the IPAM hands out no such address",
            )),
        ),
        (
            v6(json!({"subnet": "fd00::/07"})),
            Some((
                "spec.pools[0].subnet",
                "a prefix length with a leading zero: one spelling only",
            )),
        ),
        (
            with("preAllocations", json!({"h-p": null})),
            Some((
                "spec.preAllocations.h-p",
                "an entry without a value is dropped by the API server",
            )),
        ),
        (
            entry("prefix", json!(33)),
            Some(("spec.pools[0].prefix", "a prefix above the family's width")),
        ),
        (
            with("prefix", json!(128)),
            Some(("spec.prefix", "a prefix above the family's width")),
        ),
        (
            json!({"namePrefix": "lab-p", "pools": [{"start": "10.0.0.1", "end": "10.0.0.20",
                "gateway": "10.0.0.1"}], "preAllocations": {"h-p": "10.0.0.1"}}),
            Some((
                "spec.preAllocations.h-p",
                "an existing entry on the gateway",
            )),
        ),
        (
            json!({"namePrefix": "lab-p", "pools": [{"subnet": "10.0.0.0/24"}],
                "dnsServers": ["10.0.0.53"], "preAllocations": {"h-p": "10.0.0.53"}}),
            Some((
                "spec.preAllocations.h-p",
                "an existing entry on a DNS server",
            )),
        ),
        (
            json!({"namePrefix": "lab-p", "pools": [{"subnet": "10.0.0.0/24"}],
                "preAllocations": {"h-p": "10.0.0.255"}}),
            Some((
                "spec.preAllocations.h-p",
                "an existing entry on the broadcast address",
            )),
        ),
        (
            entry("subnet", json!("fd00::/64")),
            Some(("spec.pools[0]", "an entry that mixes families")),
        ),
        (
            with("preAllocations", json!({"h-p": "10.0.0.1"})),
            Some((
                "spec.preAllocations.h-p",
                "an entry outside spec.pools (the webhook refuses it)",
            )),
        ),
    ]
}

/// ipreuse refuses an IPPool at exactly the fields the CRD's schema refuses, whether it manages
/// the pool or not; where it refuses more, the case names the deliberate difference.
#[test]
fn ipreuse_refuses_exactly_what_the_crds_schema_refuses() {
    let mut refused = 0;
    for (spec, difference) in cases() {
        let pool = pool_value(spec.clone());
        let schema = schema_refuses(&pool);
        refused += usize::from(!schema.is_empty());
        let (unmanaged, findings) = ipreuse_refuses(&pool, false);
        match difference {
            None => {
                assert_eq!(
                    unmanaged, schema,
                    "spec {spec}: ipreuse (unmanaged) against the CRD's schema; {findings:#?}"
                );
                let (managed, findings) = ipreuse_refuses(&pool, true);
                assert_eq!(
                    managed, schema,
                    "spec {spec}: ipreuse (managed) against the CRD's schema; {findings:#?}"
                );
            }
            Some((field, why)) => {
                assert!(
                    schema.is_empty(),
                    "spec {spec}: the schema refuses {schema:?} ({why})"
                );
                let (managed, findings) = ipreuse_refuses(&pool, true);
                assert!(
                    managed.iter().any(|f| f.starts_with(field)),
                    "spec {spec}: ipreuse must refuse {field} ({why}); {findings:#?}"
                );
            }
        }
    }
    assert!(
        refused >= 30,
        "only {refused} cases the schema refuses: the test checks too little"
    );
}

/// The address patterns ipreuse runs are the vendored CRD's, verbatim.
#[test]
fn the_patterns_are_the_crds() {
    let (_, _, schema) = validators().remove(0);
    let spec = &schema["properties"]["spec"]["properties"];
    let entry = &spec["pools"]["items"]["properties"];
    for ip in [
        &spec["gateway"],
        &spec["dnsServers"]["items"],
        &spec["preAllocations"]["additionalProperties"],
        &entry["start"],
        &entry["end"],
        &entry["gateway"],
        &entry["dnsServers"]["items"],
    ] {
        assert_eq!(ip["pattern"], json!(ipreuse::model::pool::crd::IP_PATTERN));
    }
    assert_eq!(
        entry["subnet"]["pattern"],
        json!(ipreuse::model::pool::crd::SUBNET_PATTERN)
    );
    assert_eq!(
        spec["prefix"]["maximum"],
        json!(ipreuse::model::pool::crd::PREFIX_MAXIMUM)
    );
    assert_eq!(
        entry["prefix"]["maximum"],
        json!(ipreuse::model::pool::crd::PREFIX_MAXIMUM)
    );
    assert!(
        spec["prefix"].get("minimum").is_none(),
        "the CRD now sets a minimum: see docs/decisions.md"
    );
    assert_eq!(
        schema["properties"]["spec"]["required"],
        json!(["namePrefix"])
    );
    assert_eq!(spec["namePrefix"]["minLength"], json!(1));
}

/// Text that looks like an address, and much that nearly does: octets with leading zeros and
/// past 255, hex groups of up to five digits, `::` anywhere, dotted tails, zones, prefixes.
fn address_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "(0|00|01|1|9|10|99|100|199|200|249|250|255|256|300)(\\.(0|00|01|1|9|10|99|100|199|200|249|250|255|256|300)){2,4}",
        "([0-9a-fA-F]{0,5}:){1,8}[0-9a-fA-F]{0,5}",
        "([0-9a-f]{1,4}:){0,6}(:|[0-9a-f]{1,4})(:[0-9a-f]{1,4}){0,2}(\\.[0-9]{1,3}){0,3}",
        "[0-9a-fA-F:.%/ ]{0,12}",
    ]
}

fn prefix_like() -> impl Strategy<Value = String> {
    "(0|00|01|7|07|9|10|24|32|33|064|64|99|100|119|120|128|129|200)"
}

proptest! {
    #![proptest_config(common::pt_config(256))]

    /// Random address text in every address field ipreuse reads: refused by ipreuse exactly
    /// when the CRD's schema refuses it.
    #[test]
    fn address_text_is_refused_exactly_as_the_schema_refuses_it(
        text in address_like(),
        field in 0usize..6,
    ) {
        let spec = match field {
            0 => with("gateway", json!(text)),
            1 => with("dnsServers", json!([text])),
            2 => entry("start", json!(text)),
            3 => entry("end", json!(text)),
            4 => entry("gateway", json!(text)),
            _ => with("preAllocations", json!({"h-p": text})),
        };
        let pool = pool_value(spec);
        let (ipreuse, findings) = ipreuse_refuses(&pool, false);
        prop_assert_eq!(ipreuse, schema_refuses(&pool), "{:?}: {:#?}", text, findings);
    }

    /// Random subnets: refused by ipreuse exactly when the CRD's schema refuses them.
    #[test]
    fn subnet_text_is_refused_exactly_as_the_schema_refuses_it(
        address in address_like(),
        prefix in prefix_like(),
        slash in prop::bool::weighted(0.9),
    ) {
        let text = if slash { format!("{address}/{prefix}") } else { address };
        let pool = pool_value(entry("subnet", json!(text)));
        let (ipreuse, findings) = ipreuse_refuses(&pool, false);
        prop_assert_eq!(ipreuse, schema_refuses(&pool), "{:?}: {:#?}", text, findings);
    }
}

#[test]
fn nulls_are_pruned_as_the_api_server_prunes_them() {
    let (_, _, schema) = validators().remove(0);
    let mut v = json!({"spec": {"namePrefix": null, "allocationStrategy": null,
        "preAllocations": {"a": null, "b": "10.0.0.1"}, "dnsServers": [null]}});
    prune_nulls(&mut v, Some(&schema));
    let mut want = Map::new();
    want.insert("allocationStrategy".into(), json!("sequential"));
    want.insert("preAllocations".into(), json!({"b": "10.0.0.1"}));
    want.insert("dnsServers".into(), json!([null]));
    assert_eq!(v["spec"], Value::Object(want));
}
