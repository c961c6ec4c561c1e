use serde_json::{Value, json};

use super::*;
use crate::results::{Finding, Severity};

fn typed(spec: Value) -> Value {
    json!({
        "apiVersion": "fn.ipreuse.dev/v1alpha1",
        "kind": "IPReuse",
        "metadata": {
            "name": "stable-node-ips",
            "annotations": {
                "config.kubernetes.io/local-config": "true",
                "config.kubernetes.io/function": "exec:\n  path: ipreuse\n",
                "internal.config.kubernetes.io/path": "fn.yaml",
            },
        },
        "spec": spec,
    })
}

fn config_map(data: Value) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "function-input", "namespace": "infra"},
        "data": data,
    })
}

/// The decoded settings, without where they came from (tested on its own).
fn settings(fc: &Value) -> Result<Config, Vec<Finding>> {
    decode(Some(fc)).map(|c| Config {
        source: ConfigSource::default(),
        ..c
    })
}

fn errors(fc: &Value) -> Vec<Finding> {
    match decode(Some(fc)) {
        Ok(c) => panic!("expected errors, got {c:?}"),
        Err(e) => e,
    }
}

fn paths(errors: &[Finding]) -> Vec<String> {
    errors
        .iter()
        .map(|e| e.field.as_ref().map(|f| f.path.clone()).unwrap_or_default())
        .collect()
}

/// The single error at `path`; its message must contain every piece of `contains`.
fn assert_error(fc: &Value, path: &str, contains: &[&str]) {
    let errs = errors(fc);
    let at: Vec<&Finding> = errs
        .iter()
        .filter(|e| e.field.as_ref().is_some_and(|f| f.path == path))
        .collect();
    assert_eq!(at.len(), 1, "one error at {path}, got {errs:#?}");
    let e = at[0];
    assert_eq!(e.severity, Severity::Error);
    // the printer shows the field before the message: the message does not repeat it
    assert!(!e.message.starts_with(path), "{}", e.message);
    for c in contains {
        assert!(
            e.message.contains(c),
            "{:?} should contain {c:?}",
            e.message
        );
    }
}

/// The range `first..=last` of a `reserve` entry.
fn range(first: &str, last: &str) -> ReserveRange {
    let addr = |s: &str| crate::ipam::parse_addr(s).unwrap().addr();
    ReserveRange {
        first: addr(first),
        last: addr(last),
    }
}

/// The ranges of the spec's `reserve` example: `10.0.0.5`, `10.0.0.10-10.0.0.20`, `10.0.1.0/28`.
fn example_ranges() -> [ReserveRange; 3] {
    [
        range("10.0.0.5", "10.0.0.5"),
        range("10.0.0.10", "10.0.0.20"),
        range("10.0.1.0", "10.0.1.15"),
    ]
}

fn pool(ns: Option<&str>, name: &str) -> PoolName {
    PoolName {
        namespace: ns.map(str::to_string),
        name: name.to_string(),
    }
}

#[test]
fn defaults_match_the_spec() {
    let c = Config::default();
    assert_eq!(c.mode, Mode::Fill);
    assert_eq!(c.mapping, MappingMode::Auto);
    assert!(c.host_selector.is_empty());
    assert!(c.pools.is_empty());
    assert_eq!(c.strategy, Strategy::Sequential);
    assert_eq!(c.ordinal_offset, 0);
    assert!(c.reserve.is_empty());
    assert!(!c.prune);
    assert!(c.labels);
    assert!(c.controller_flag);
    assert_eq!(c.capm3_version, None);
}

#[test]
fn no_function_config_is_all_defaults() {
    assert_eq!(decode(None), Ok(Config::default()));
    assert_eq!(decode(Some(&Value::Null)), Ok(Config::default()));
}

#[test]
fn typed_empty_or_missing_spec_is_all_defaults() {
    assert_eq!(settings(&typed(json!({}))), Ok(Config::default()));
    assert_eq!(settings(&typed(Value::Null)), Ok(Config::default()));
    let no_spec = json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse"});
    assert_eq!(settings(&no_spec), Ok(Config::default()));
}

#[test]
fn typed_null_fields_are_defaults() {
    let fc = typed(json!({"mode": null, "pools": null, "labels": null}));
    assert_eq!(settings(&fc), Ok(Config::default()));
}

#[test]
fn typed_full() {
    let fc = typed(json!({
        "mode": "check",
        "mapping": "templates",
        "hostSelector": {
            "matchLabels": {"metal3.io/role": "worker"},
            "matchExpressions": [
                {"key": "rack", "operator": "In", "values": ["r1", "r2"]},
                {"key": "maintenance", "operator": "DoesNotExist"},
            ],
        },
        "pools": ["provisioning-pool", "metal3/baremetalv4-pool", "provisioning-pool"],
        "strategy": "ordinal",
        "ordinalOffset": 10,
        "reserve": ["10.0.0.5", "10.0.0.10-10.0.0.20", "10.0.1.0/28"],
        "prune": true,
        "labels": false,
        "controllerFlag": false,
        "capm3Version": "v1.12.3",
    }));
    let c = decode(Some(&fc)).unwrap();
    assert_eq!(c.mode, Mode::Check);
    assert_eq!(c.mapping, MappingMode::Templates);
    assert_eq!(
        c.host_selector.to_string(),
        "metal3.io/role=worker,rack in (r1,r2),!maintenance"
    );
    assert_eq!(
        c.pools,
        vec![
            pool(None, "provisioning-pool"),
            pool(Some("metal3"), "baremetalv4-pool")
        ]
    );
    assert_eq!(c.strategy, Strategy::Ordinal);
    assert_eq!(c.ordinal_offset, 10);
    assert_eq!(c.reserve, example_ranges());
    assert!(c.prune);
    assert!(!c.labels);
    assert!(!c.controller_flag);
    assert_eq!(c.capm3_version.as_deref(), Some("v1.12.3"));
    assert_eq!(
        c.capm3_version(),
        Some(Version {
            major: 1,
            minor: 12,
            patch: Some(3)
        })
    );

    // The same document is accepted by the typed CRD struct (the schema's source).
    let typed: Result<IPReuse, _> = serde_json::from_value(fc);
    let spec = typed.unwrap().spec;
    assert_eq!(spec.strategy, Some(Strategy::Ordinal));
    assert_eq!(spec.ordinal_offset, Some(10));
}

#[test]
fn typed_empty_capm3_version_is_unset() {
    let c = decode(Some(&typed(json!({"capm3Version": ""})))).unwrap();
    assert_eq!(c.capm3_version, None);
}

#[test]
fn config_map_every_key() {
    let fc = config_map(json!({
        "mode": "check",
        "mapping": "all",
        "hostSelector": "metal3.io/role=worker, rack in (r1, r2), !maintenance",
        "pools": "provisioning-pool,metal3/baremetalv4-pool",
        "strategy": "ordinal",
        "ordinalOffset": "7",
        "reserve": "10.0.0.5,10.0.0.10-10.0.0.20,10.0.1.0/28",
        "prune": "true",
        "labels": "false",
        "controllerFlag": "false",
        "capm3Version": "1.13",
    }));
    let c = decode(Some(&fc)).unwrap();
    assert_eq!(c.mode, Mode::Check);
    assert_eq!(c.mapping, MappingMode::All);
    assert_eq!(
        c.host_selector.to_string(),
        "metal3.io/role=worker,rack in (r1,r2),!maintenance"
    );
    assert_eq!(
        c.pools,
        vec![
            pool(None, "provisioning-pool"),
            pool(Some("metal3"), "baremetalv4-pool")
        ]
    );
    assert_eq!(c.strategy, Strategy::Ordinal);
    assert_eq!(c.ordinal_offset, 7);
    assert_eq!(c.reserve, example_ranges());
    assert!(c.prune);
    assert!(!c.labels);
    assert!(!c.controller_flag);
    assert_eq!(c.capm3_version.as_deref(), Some("1.13"));
}

#[test]
fn config_map_lists_with_spaces_and_empties() {
    let fc = config_map(json!({
        "pools": " a ,, metal3/b , ",
        "reserve": "  10.0.0.5 , ,10.0.0.6  ",
    }));
    let c = decode(Some(&fc)).unwrap();
    assert_eq!(c.pools, vec![pool(None, "a"), pool(Some("metal3"), "b")]);
    assert_eq!(
        c.reserve,
        [range("10.0.0.5", "10.0.0.5"), range("10.0.0.6", "10.0.0.6")]
    );
}

#[test]
fn config_map_empty_values_and_no_data_are_defaults() {
    let fc = config_map(json!({"mode": "", "pools": "", "hostSelector": "  ", "prune": ""}));
    assert_eq!(settings(&fc), Ok(Config::default()));
    let no_data = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    assert_eq!(settings(&no_data), Ok(Config::default()));
}

#[test]
fn config_map_bare_yaml_scalars_are_taken_as_written() {
    let fc = config_map(json!({"prune": true, "ordinalOffset": 3}));
    let c = decode(Some(&fc)).unwrap();
    assert!(c.prune);
    assert_eq!(c.ordinal_offset, 3);
}

#[test]
fn unknown_kind_or_api_version() {
    let fc = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}});
    assert_error(
        &fc,
        "kind",
        &[
            "\"Secret\"",
            "IPReuse",
            "ConfigMap",
            "fn.ipreuse.dev/v1alpha1",
        ],
    );
    let fc = json!({"apiVersion": "fn.ipreuse.dev/v1beta1", "kind": "IPReuse"});
    assert_error(
        &fc,
        "apiVersion",
        &["\"fn.ipreuse.dev/v1beta1\"", "fn.ipreuse.dev/v1alpha1"],
    );
    let errs = errors(&json!({"spec": {}}));
    assert_eq!(paths(&errs), ["apiVersion"]);
    let errs = errors(&json!("mode=check"));
    assert!(errs[0].message.contains("must be an object"), "{errs:?}");
}

#[test]
fn errors_carry_the_function_config_ref() {
    let errs = errors(&config_map(json!({"strategy": "random"})));
    let r = errs[0].resource_ref.as_ref().unwrap();
    assert_eq!(r.api_version, "v1");
    assert_eq!(r.kind, "ConfigMap");
    assert_eq!(r.name, "function-input");
    assert_eq!(r.namespace.as_deref(), Some("infra"));
    let errs = errors(&typed(json!({"strategy": "random"})));
    let r = errs[0].resource_ref.as_ref().unwrap();
    assert_eq!(
        (r.api_version.as_str(), r.kind.as_str(), r.name.as_str()),
        ("fn.ipreuse.dev/v1alpha1", "IPReuse", "stable-node-ips")
    );
    assert_eq!(r.namespace, None);
}

#[test]
fn the_config_remembers_where_it_came_from() {
    let c = decode(Some(&config_map(json!({"prune": "true"})))).unwrap();
    assert!(c.source.config_map);
    let r = c.source.resource_ref.as_ref().unwrap();
    assert_eq!(
        (r.kind.as_str(), r.name.as_str()),
        ("ConfigMap", "function-input")
    );
    assert_eq!(c.source.path("reserve", Some(2)), "data.reserve");
    assert_eq!(c.source.path("mapping", None), "data.mapping");
    let e = c.source.error("pools", None, "bad");
    assert_eq!(
        e.field.as_ref().map(|f| f.path.as_str()),
        Some("data.pools")
    );
    assert_eq!(e.resource_ref.as_ref(), Some(r));

    let c = decode(Some(&typed(json!({})))).unwrap();
    assert!(!c.source.config_map);
    assert_eq!(
        c.source.resource_ref.as_ref().map(|r| r.kind.as_str()),
        Some("IPReuse")
    );
    assert_eq!(c.source.path("reserve", Some(2)), "spec.reserve[2]");
    assert_eq!(c.source.path("mapping", None), "spec.mapping");

    let c = decode(None).unwrap();
    assert_eq!(c.source, ConfigSource::default());
    let e = c.source.error("reserve", Some(0), "bad");
    assert_eq!(e.resource_ref, None);
    assert_eq!(e.field.map(|f| f.path), Some("spec.reserve[0]".to_string()));
}

#[test]
fn bad_enum_values_get_a_suggestion_when_close() {
    assert_error(
        &config_map(json!({"mode": "fil"})),
        "data.mode",
        &["\"fil\" is not one of fill, check (did you mean fill?)"],
    );
    assert_error(
        &typed(json!({"strategy": "sequental"})),
        "spec.strategy",
        &["(did you mean sequential?)"],
    );
    assert_error(
        &typed(json!({"mode": "Fill"})),
        "spec.mode",
        &["did you mean fill?"],
    );
    assert_error(
        &typed(json!({"mapping": "al"})),
        "spec.mapping",
        &["did you mean all?"],
    );
    assert_error(
        &config_map(json!({"prune": "ture"})),
        "data.prune",
        &["did you mean true?"],
    );
    // Far from every value: no guess.
    for (fc, path) in [
        (typed(json!({"strategy": "random"})), "spec.strategy"),
        (config_map(json!({"mode": "x"})), "data.mode"),
        (config_map(json!({"mapping": "some"})), "data.mapping"),
    ] {
        let errs = errors(&fc);
        assert_eq!(paths(&errs), [path]);
        assert!(
            !errs[0].message.contains("did you mean"),
            "{}",
            errs[0].message
        );
    }
}

#[test]
fn unknown_fields() {
    let fc = typed(json!({"stratgy": "ordinal"}));
    assert_error(
        &fc,
        "spec.stratgy",
        &[
            "unknown field \"stratgy\"",
            "did you mean strategy?",
            "mode, mapping, hostSelector",
            "capm3Version",
        ],
    );
    let errs = errors(&typed(json!({"colour": "blue"})));
    assert!(
        !errs[0].message.contains("did you mean"),
        "{}",
        errs[0].message
    );
    let fc = typed(json!({"host_selector": {}}));
    assert_error(&fc, "spec.host_selector", &["did you mean hostSelector?"]);
    let fc = config_map(json!({"ordinal-offset": "1"}));
    assert_error(
        &fc,
        "data.ordinal-offset",
        &["unknown field", "did you mean ordinalOffset?", "strategy"],
    );
    let mut fc = typed(json!({}));
    fc["data"] = json!({"mode": "check"});
    assert_error(
        &fc,
        "data",
        &["unknown field \"data\"", "apiVersion, kind, metadata, spec"],
    );
    let mut fc = config_map(json!({}));
    fc["spec"] = json!({"mode": "check"});
    assert_error(
        &fc,
        "spec",
        &["unknown field \"spec\"", "apiVersion, kind, metadata, data"],
    );
}

#[test]
fn bad_enum_values() {
    assert_error(
        &typed(json!({"strategy": "random"})),
        "spec.strategy",
        &["\"random\" is not one of sequential, ordinal"],
    );
    assert_error(
        &config_map(json!({"strategy": "random"})),
        "data.strategy",
        &["\"random\" is not one of sequential, ordinal"],
    );
    assert_error(
        &typed(json!({"mode": "Fill"})),
        "spec.mode",
        &["\"Fill\"", "fill, check"],
    );
    assert_error(
        &config_map(json!({"mapping": "some"})),
        "data.mapping",
        &["\"some\"", "auto, templates, all"],
    );
    assert_error(
        &typed(json!({"mapping": 3})),
        "spec.mapping",
        &["3 is not one of auto, templates, all"],
    );
}

#[test]
fn bad_booleans() {
    assert_error(
        &typed(json!({"prune": "yes"})),
        "spec.prune",
        &["\"yes\"", "true or false"],
    );
    assert_error(
        &config_map(json!({"labels": "yes"})),
        "data.labels",
        &["\"yes\" is not one of true, false"],
    );
    assert_error(
        &config_map(json!({"controllerFlag": "True"})),
        "data.controllerFlag",
        &["\"True\""],
    );
}

#[test]
fn bad_integers() {
    assert_error(
        &typed(json!({"ordinalOffset": -1})),
        "spec.ordinalOffset",
        &["non-negative integer", "-1"],
    );
    assert_error(
        &typed(json!({"ordinalOffset": "5"})),
        "spec.ordinalOffset",
        &["non-negative integer", "\"5\""],
    );
    assert_error(
        &typed(json!({"ordinalOffset": 1.5})),
        "spec.ordinalOffset",
        &["1.5"],
    );
    assert_error(
        &config_map(json!({"ordinalOffset": "ten"})),
        "data.ordinalOffset",
        &["\"ten\" is not a non-negative integer"],
    );
    assert_error(
        &config_map(json!({"ordinalOffset": "+5"})),
        "data.ordinalOffset",
        &["\"+5\""],
    );
    assert_error(
        &config_map(json!({"ordinalOffset": "99999999999999999999999"})),
        "data.ordinalOffset",
        &["not a non-negative integer"],
    );
}

#[test]
fn bad_typed_selectors() {
    let fc = typed(json!({"hostSelector": {"matchExpressions": [
        {"key": "a", "operator": "in", "values": ["x"]},
        {"key": "b", "operator": "NotIn"},
        {"key": "c", "operator": "Exists", "values": ["x"]},
        {"key": "d", "operator": "In", "values": ["ok"]},
    ]}}));
    let errs = errors(&fc);
    assert_eq!(
        paths(&errs),
        [
            "spec.hostSelector.matchExpressions[0].operator",
            "spec.hostSelector.matchExpressions[1].values",
            "spec.hostSelector.matchExpressions[2].values",
        ]
    );
    assert!(
        errs[0]
            .message
            .contains("\"in\" is not one of In, NotIn, Exists, DoesNotExist")
    );
    assert!(errs[1].message.contains("NotIn needs at least one value"));
    assert!(errs[2].message.contains("Exists takes no values"));
}

#[test]
fn malformed_typed_selectors() {
    let fc = typed(json!({"hostSelector": {
        "matchLabel": {"a": "b"},
        "matchLabels": {"n": 1},
        "matchExpressions": [
            "a=b",
            {"operator": "In", "values": ["x"]},
            {"key": "k", "operator": "Exists", "value": []},
            {"key": "k", "operator": "Bogus"},
        ],
    }}));
    let errs = errors(&fc);
    assert_eq!(
        paths(&errs),
        [
            "spec.hostSelector.matchLabel",
            "spec.hostSelector.matchLabels.n",
            "spec.hostSelector.matchExpressions[0]",
            "spec.hostSelector.matchExpressions[1].key",
            "spec.hostSelector.matchExpressions[2].value",
            "spec.hostSelector.matchExpressions[3].operator",
        ]
    );
    assert!(errs[0].message.contains("did you mean matchLabels?"));
    assert!(errs[3].message.contains("is required"));
    assert!(errs[5].message.contains("\"Bogus\""));
    assert_error(
        &typed(json!({"hostSelector": "a=b"})),
        "spec.hostSelector",
        &["label selector", "\"a=b\""],
    );
}

#[test]
fn bad_string_selector() {
    assert_error(
        &config_map(json!({"hostSelector": "rack in ()"})),
        "data.hostSelector",
        &[
            "\"rack in ()\" is not a valid selector",
            "at least one value",
            "key notin (a,b)",
        ],
    );
    assert_error(
        &config_map(json!({"hostSelector": "a=b,"})),
        "data.hostSelector",
        &["\"a=b,\""],
    );
}

#[test]
fn malformed_pool_names() {
    let errs = errors(&typed(json!({"pools": ["a/b/c", "", "ok", "ns/", "Bad"]})));
    assert_eq!(
        paths(&errs),
        [
            "spec.pools[0]",
            "spec.pools[1]",
            "spec.pools[3]",
            "spec.pools[4]"
        ]
    );
    assert!(
        errs[0].message.contains("\"a/b/c\" has more than one '/'"),
        "{}",
        errs[0].message
    );
    assert!(errs[1].message.contains("empty pool name"));
    assert!(errs[2].message.contains("empty pool name"));
    assert!(errs[3].message.contains("\"Bad\""));
    assert_error(
        &config_map(json!({"pools": "x, a/b/c"})),
        "data.pools",
        &["\"a/b/c\"", "namespace/name"],
    );
    assert_error(
        &typed(json!({"pools": "a,b"})),
        "spec.pools",
        &["list of strings"],
    );
    assert_error(
        &typed(json!({"reserve": ["10.0.0.1", 5]})),
        "spec.reserve[1]",
        &["must be a string", "5"],
    );
}

/// Every error is on the functionConfig `kind`/`name` at a field, which its message does not
/// repeat (the printer shows it before the message).
fn assert_on_function_config(errors: &[Finding], kind: &str, name: &str) {
    for e in errors {
        let r = e.resource_ref.as_ref().expect("a resourceRef");
        assert_eq!((r.kind.as_str(), r.name.as_str()), (kind, name), "{e:?}");
        let path = &e.field.as_ref().expect("a field").path;
        assert!(!e.message.starts_with(path.as_str()), "{}", e.message);
    }
}

#[test]
fn reserve_entries_are_parsed_into_ranges() {
    let fc = typed(json!({"reserve": [
        " 10.0.0.7 ", "10.0.1.5/28", "2001:db8::10 - 2001:db8::1f", "2001:db8::/126",
    ]}));
    assert_eq!(
        decode(Some(&fc)).unwrap().reserve,
        [
            range("10.0.0.7", "10.0.0.7"),
            range("10.0.1.0", "10.0.1.15"),
            range("2001:db8::10", "2001:db8::1f"),
            range("2001:db8::", "2001:db8::3"),
        ]
    );
    let fc = config_map(json!({"reserve": "2001:db8::/126, 10.0.0.7"}));
    assert_eq!(
        decode(Some(&fc)).unwrap().reserve,
        [
            range("2001:db8::", "2001:db8::3"),
            range("10.0.0.7", "10.0.0.7")
        ]
    );
}

#[test]
fn bad_reserve_entries_are_errors_at_spec_reserve_i() {
    let errs = errors(&typed(json!({"reserve": [
        "10.0.0.5", "bogus", "10.0.0.20-10.0.0.10", "10.0.1.0/33", "10.0.0.1-2001:db8::1", "",
    ]})));
    assert_eq!(
        paths(&errs),
        [
            "spec.reserve[1]",
            "spec.reserve[2]",
            "spec.reserve[3]",
            "spec.reserve[4]",
            "spec.reserve[5]"
        ]
    );
    assert_on_function_config(&errs, "IPReuse", "stable-node-ips");
    assert!(
        errs[0]
            .message
            .contains("reserve entry \"bogus\" is not an address, range or CIDR: "),
        "{}",
        errs[0].message
    );
    assert!(errs[1].message.contains("\"10.0.0.20-10.0.0.10\""));
    assert!(errs[2].message.contains("\"10.0.1.0/33\""));
    assert!(errs[3].message.contains("\"10.0.0.1-2001:db8::1\""));
    assert!(errs[4].message.contains("reserve entry \"\""));
}

#[test]
fn bad_reserve_entries_of_a_config_map_are_errors_at_data_reserve_naming_the_entry() {
    // The list is one string: every bad entry is an error at data.reserve, naming the entry.
    let errs = errors(&config_map(json!({
        "reserve": "10.0.0.5, bogus, 10.0.0.20-10.0.0.10, 10.0.0.01",
    })));
    assert_eq!(paths(&errs), ["data.reserve"; 3]);
    assert_on_function_config(&errs, "ConfigMap", "function-input");
    assert_eq!(
        errs[0].resource_ref.as_ref().unwrap().namespace.as_deref(),
        Some("infra")
    );
    for (e, entry) in errs
        .iter()
        .zip(["\"bogus\"", "\"10.0.0.20-10.0.0.10\"", "\"10.0.0.01\""])
    {
        assert!(
            e.message.contains(&format!(
                "reserve entry {entry} is not an address, range or CIDR"
            )),
            "{}",
            e.message
        );
    }
}

#[test]
fn bad_reserve_entries_come_with_every_other_error() {
    let mut got = paths(&errors(&typed(json!({"reserve": ["x"], "mode": "y"}))));
    got.sort();
    assert_eq!(got, ["spec.mode", "spec.reserve[0]"]);
    let mut got = paths(&errors(&config_map(
        json!({"reserve": "x", "pools": "a/b/c"}),
    )));
    got.sort();
    assert_eq!(got, ["data.pools", "data.reserve"]);
}

#[test]
fn bad_capm3_version() {
    assert_error(
        &typed(json!({"capm3Version": "latest"})),
        "spec.capm3Version",
        &["\"latest\" is not a version", "v1.12.3"],
    );
    assert_error(
        &config_map(json!({"capm3Version": "1"})),
        "data.capm3Version",
        &["\"1\""],
    );
    assert_error(
        &typed(json!({"capm3Version": 1.12})),
        "spec.capm3Version",
        &["1.12"],
    );
}

#[test]
fn reports_every_error_at_once() {
    let fc = typed(json!({
        "mode": "dry-run",
        "bogus": 1,
        "strategy": "random",
        "prune": "yes",
        "pools": ["a/b/c"],
        "hostSelector": {"matchExpressions": [{"key": "a", "operator": "exists"}]},
        "ordinalOffset": -3,
        "capm3Version": "x",
        "other": true,
    }));
    let mut got = paths(&errors(&fc));
    got.sort();
    assert_eq!(
        got,
        [
            "spec.bogus",
            "spec.capm3Version",
            "spec.hostSelector.matchExpressions[0].operator",
            "spec.mode",
            "spec.ordinalOffset",
            "spec.other",
            "spec.pools[0]",
            "spec.prune",
            "spec.strategy",
        ]
    );
    let fc = config_map(json!({
        "mode": "x", "mapping": "y", "labels": "z", "ordinalOffset": "-1", "nope": "1", "hostSelector": "a in b",
    }));
    let mut got = paths(&errors(&fc));
    got.sort();
    assert_eq!(
        got,
        [
            "data.hostSelector",
            "data.labels",
            "data.mapping",
            "data.mode",
            "data.nope",
            "data.ordinalOffset"
        ]
    );
}

fn resolve_errors(fc: &Value) -> Vec<Finding> {
    match resolve(Some(fc)) {
        Ok(c) => panic!("expected errors, got {c:?}"),
        Err(e) => e,
    }
}

#[test]
fn resolve_reports_every_bad_value_at_once() {
    // templates and ordinal run; the bad values are all reported together.
    let fc = typed(json!({
        "mapping": "templates", "strategy": "ordinal", "reserve": ["x"], "mode": "y",
    }));
    let mut got = paths(&resolve_errors(&fc));
    got.sort();
    assert_eq!(got, ["spec.mode", "spec.reserve[0]"]);
    let fc = config_map(json!({"mapping": "templates", "strategy": " ordinal ", "reserve": "x"}));
    assert_eq!(paths(&resolve_errors(&fc)), ["data.reserve"]);
    let fc = config_map(json!({"mapping": "templates", "strategy": " ordinal "}));
    let c = resolve(Some(&fc)).expect("both run");
    assert_eq!(
        (c.mapping, c.strategy),
        (MappingMode::Templates, Strategy::Ordinal)
    );
}

#[test]
fn resolve_is_decode_for_what_this_version_can_run() {
    assert_eq!(resolve(None), Ok(Config::default()));
    assert_eq!(resolve(Some(&Value::Null)), Ok(Config::default()));
    let full = typed(json!({
        "mode": "check",
        "mapping": "all",
        "hostSelector": {"matchLabels": {"metal3.io/role": "worker"}},
        "pools": ["provisioning-pool", "metal3/baremetalv4-pool"],
        "strategy": "sequential",
        "ordinalOffset": 10,
        "reserve": ["10.0.0.5", "10.0.0.10-10.0.0.20", "10.0.1.0/28"],
        "prune": true,
        "labels": false,
        "controllerFlag": false,
        "capm3Version": "v1.12.3",
    }));
    let c = resolve(Some(&full)).unwrap();
    assert_eq!(Ok(c.clone()), decode(Some(&full)));
    assert_eq!(c.reserve, example_ranges());
    for mapping in ["auto", "templates", "all"] {
        let fc = config_map(json!({"mapping": mapping, "strategy": "sequential", "mode": "fill"}));
        assert_eq!(resolve(Some(&fc)), decode(Some(&fc)));
        assert!(resolve(Some(&fc)).is_ok());
    }
}

#[test]
fn available_values() {
    assert!(Mode::ALL.iter().all(|m| m.available()));
    assert!(MappingMode::ALL.iter().all(|m| m.available()));
    assert!(Strategy::ALL.iter().all(|s| s.available()));
    assert_eq!(Mode::available_words(), "fill or check");
    assert_eq!(MappingMode::available_words(), "auto, templates or all");
    assert_eq!(Strategy::available_words(), "sequential or ordinal");
}

#[test]
fn choices_match_their_serde_names() {
    fn check<T: Choice + serde::Serialize>() {
        for c in T::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), json!(c.as_str()));
            assert_eq!(
                T::from_word(c.as_str()).map(|x| x.as_str()),
                Some(c.as_str())
            );
        }
    }
    check::<Mode>();
    check::<MappingMode>();
    check::<Strategy>();
    assert_eq!(Strategy::allowed(), "sequential, ordinal");
    assert_eq!(MappingMode::Templates.to_string(), "templates");
}

#[test]
fn pool_names() {
    assert_eq!(PoolName::parse("p"), Ok(pool(None, "p")));
    assert_eq!(PoolName::parse("ns/p.v4"), Ok(pool(Some("ns"), "p.v4")));
    for bad in ["", "/p", "ns/", "a/b/c", "NS/p", "p_q", "ns.x/p"] {
        assert!(PoolName::parse(bad).is_err(), "{bad:?}");
    }
    assert!(pool(None, "p").matches("any", "p"));
    assert!(pool(Some("a"), "p").matches("a", "p"));
    assert!(!pool(Some("a"), "p").matches("b", "p"));
    assert_eq!(pool(Some("a"), "p").to_string(), "a/p");
    let c = Config {
        pools: vec![pool(Some("a"), "p")],
        ..Config::default()
    };
    assert!(c.manages_pool("a", "p"));
    assert!(!c.manages_pool("b", "p"));
    assert!(Config::default().manages_pool("b", "p"));
}

#[test]
fn versions() {
    let v = |major, minor, patch| {
        Some(Version {
            major,
            minor,
            patch,
        })
    };
    assert_eq!(Version::parse("v1.12.3"), v(1, 12, Some(3)));
    assert_eq!(Version::parse("1.12"), v(1, 12, None));
    assert_eq!(Version::parse("v1.13.0-beta.1"), v(1, 13, Some(0)));
    for bad in ["", "v", "1", "v1.", "1.x", "1.2.3.4", "latest", "vv1.2"] {
        assert_eq!(Version::parse(bad), None, "{bad:?}");
    }
    assert!(Version::parse("1.9").unwrap() < Version::parse("1.13").unwrap());
}

#[test]
fn crd_yaml_describes_the_typed_form() {
    let text = crd_yaml();
    let crd: Value = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(crd["kind"], "CustomResourceDefinition");
    assert_eq!(crd["metadata"]["name"], "ipreuses.fn.ipreuse.dev");
    assert_eq!(crd["spec"]["group"], "fn.ipreuse.dev");
    assert_eq!(crd["spec"]["names"]["kind"], "IPReuse");
    let version = &crd["spec"]["versions"][0];
    assert_eq!(version["name"], "v1alpha1");
    let schema = &version["schema"]["openAPIV3Schema"];
    assert!(schema.get("required").is_none(), "spec must be optional");
    let props = schema["properties"]["spec"]["properties"]
        .as_object()
        .unwrap();
    let mut names: Vec<&str> = props.keys().map(String::as_str).collect();
    names.sort();
    let mut want = FIELDS.to_vec();
    want.sort();
    assert_eq!(names, want);
    for (name, prop) in props {
        let d = prop["description"].as_str().unwrap_or("");
        assert!(d.len() > 20, "{name} needs a description, has {d:?}");
    }
    assert_eq!(props["strategy"]["enum"], json!(["sequential", "ordinal"]));
    assert_eq!(
        props["mapping"]["enum"],
        json!(["auto", "templates", "all"])
    );
    assert_eq!(props["mode"]["default"], "fill");
    assert_eq!(props["labels"]["default"], true);
    let network = &props["networks"]["items"]["properties"];
    assert_eq!(network["blockKind"]["enum"], json!(["range", "subnet"]));
    assert_eq!(network["blockKind"]["default"], "range");
    assert_eq!(
        network["gatewayPolicy"]["enum"],
        json!(["first", "last", "none"])
    );
    // int or object: no type (a structural schema has none inside anyOf), bounds for both
    assert!(network["blockSize"].get("type").is_none());
    assert!(network["blockSize"].get("anyOf").is_none());
    assert_eq!(
        network["blockSize"]["x-kubernetes-preserve-unknown-fields"],
        true
    );
    assert_eq!(network["blockSize"]["properties"]["ipv4"]["maximum"], 32.0);
    let mut keys: Vec<&str> = network
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let mut want: Vec<&str> = blocks::NETWORK_KEYS.to_vec();
    want.sort_unstable();
    assert_eq!(keys, want);
    for (name, prop) in network.as_object().unwrap() {
        let d = prop["description"].as_str().unwrap_or("");
        assert!(
            d.len() > 20,
            "networks[].{name} needs a description, has {d:?}"
        );
    }
    assert!(
        props["mode"]["description"]
            .as_str()
            .unwrap()
            .contains("check")
    );
}

#[test]
fn crd_schema_accepts_the_spec_example_and_rejects_bad_values() {
    let crd: Value = serde_saphyr::from_str(&crd_yaml()).unwrap();
    let spec_schema =
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone();
    let validator = jsonschema::validator_for(&spec_schema).unwrap();
    let good = json!({
        "mode": "fill", "mapping": "auto", "hostSelector": {}, "pools": [],
        "strategy": "sequential", "ordinalOffset": 0, "reserve": ["10.0.0.5"],
        "prune": false, "labels": true, "controllerFlag": true, "capm3Version": "v1.12.3",
        "networks": [{"name": "prov", "cidr": "172.22.0.0/16"}], "strictNetworks": false,
    });
    assert!(validator.is_valid(&good));
    // SPEC §12's example, and the per-family block size
    let blocks = json!({"networks": [
        {"name": "prov", "cidr": "172.22.0.0/16", "blockSize": 26, "blockKind": "range",
         "prefix": 16, "gateway": "172.22.0.1", "gatewayPolicy": "none", "dnsServers": [],
         "exclude": []},
        {"name": "routed", "cidr": "10.8.0.0/16", "blockSize": {"ipv4": 24, "ipv6": 64},
         "blockKind": "subnet", "gatewayPolicy": "last", "dnsServers": ["10.8.0.53"],
         "exclude": ["10.8.0.0/24", "10.8.1.1-10.8.1.9"]},
        {"name": "routed", "cidr": "fd00:8::/48"},
    ]});
    assert!(validator.is_valid(&blocks));
    for bad in [
        json!({"strategy": "random"}),
        json!({"ordinalOffset": -1}),
        json!({"capm3Version": "latest"}),
        json!({"prune": "yes"}),
        json!({"networks": [{"name": "prov"}]}),
        json!({"networks": [{"name": "Prov", "cidr": "10.0.0.0/8"}]}),
        json!({"strictNetworks": "yes"}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "blockKind": "subnets"}]}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "gatewayPolicy": "middle"}]}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "blockSize": 129}]}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "blockSize": {"ipv4": 33}}]}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "prefix": 0}]}),
        json!({"networks": [{"name": "p", "cidr": "10.0.0.0/8", "dnsServers": "10.0.0.1"}]}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}

#[test]
fn networks_in_both_forms_decode_to_the_same_ranges() {
    let want = |name: &str, cidr: &str, first: &str, last: &str| NetworkCidr {
        name: name.into(),
        cidr: cidr.into(),
        first: crate::ipam::parse_addr(first).unwrap().addr(),
        last: crate::ipam::parse_addr(last).unwrap().addr(),
        prefix: cidr.split_once('/').unwrap().1.parse().unwrap(),
        blocks: None,
    };
    let expected = vec![
        want("prov", "172.22.0.0/16", "172.22.0.0", "172.22.255.255"),
        want(
            "prov",
            "fd00:22::/64",
            "fd00:22::",
            "fd00:22::ffff:ffff:ffff:ffff",
        ),
    ];
    let c = settings(&typed(json!({
        "networks": [
            {"name": "prov", "cidr": "172.22.0.0/16"},
            {"name": "prov", "cidr": "fd00:22::/64"},
        ],
        "strictNetworks": true,
    })))
    .unwrap();
    assert_eq!(c.networks, expected);
    assert!(c.strict_networks);
    let c = settings(&config_map(json!({
        "networks": " prov=172.22.0.0/16 , prov = fd00:22::/64 ",
        "strictNetworks": "true",
    })))
    .unwrap();
    assert_eq!(c.networks, expected);
    assert!(c.strict_networks);
    let d = Config::default();
    assert!(d.networks.is_empty() && !d.strict_networks);
}

#[test]
fn bad_networks_are_errors_at_their_field() {
    let at = |fc: Value| -> Vec<(String, String)> {
        errors(&fc)
            .into_iter()
            .map(|f| (f.field.map(|x| x.path).unwrap_or_default(), f.message))
            .collect()
    };
    let e = at(typed(json!({"networks": [
        {"name": "prov", "cidr": "172.22.0.0"},
        {"name": "Prov", "cidr": "10.0.0.0/8"},
        {"name": "x", "cidr": "10.0.0.0/33"},
        "prov=10.0.0.0/8",
        {"name": "y", "cidr": "10.0.0.0/8", "vlan": 7},
    ]})));
    let paths: Vec<&str> = e.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "spec.networks[0]",
            "spec.networks[1]",
            "spec.networks[2]",
            "spec.networks[3]",
            "spec.networks[4].vlan",
        ],
        "{e:?}"
    );
    assert!(e[0].1.contains("not a CIDR"), "{e:?}");
    assert!(e[1].1.contains("DNS-1123 label"), "{e:?}");
    assert!(e[3].1.contains("must be an object"), "{e:?}");
    let e = at(typed(json!({"networks": "prov"})));
    assert_eq!(e[0].0, "spec.networks");
    let e = at(config_map(json!({"networks": "prov"})));
    assert_eq!(e[0].0, "data.networks");
    assert!(e[0].1.contains("name=cidr"), "{e:?}");
    let e = at(config_map(json!({"strictNetworks": "yes"})));
    assert_eq!(e[0].0, "data.strictNetworks");
}

#[test]
fn default_namespace_is_read_in_both_forms_and_empty_is_default() {
    let want = Some("metal3".to_string());
    let typed_ns = settings(&typed(json!({"defaultNamespace": "metal3"}))).expect("valid");
    assert_eq!(typed_ns.default_namespace, want);
    let cm = settings(&config_map(json!({"defaultNamespace": " metal3 "}))).expect("valid");
    assert_eq!(cm.default_namespace, want);
    for fc in [
        typed(json!({"defaultNamespace": ""})),
        config_map(json!({"defaultNamespace": ""})),
        typed(json!({})),
    ] {
        assert_eq!(settings(&fc).expect("valid").default_namespace, None);
    }
}

#[test]
fn a_default_namespace_that_is_not_a_dns_label_is_an_error_at_its_field() {
    let long = "a".repeat(64);
    for bad in ["Metal3", "metal3/x", "-a", "a_b", long.as_str()] {
        assert_error(
            &typed(json!({ "defaultNamespace": bad })),
            "spec.defaultNamespace",
            &["is not a namespace name", "DNS-1123 label"],
        );
        assert_error(
            &config_map(json!({ "defaultNamespace": bad })),
            "data.defaultNamespace",
            &["is not a namespace name"],
        );
    }
    assert_error(
        &typed(json!({"defaultNamespace": ["metal3"]})),
        "spec.defaultNamespace",
        &["must be a namespace name (a string)"],
    );
}

#[test]
fn differences_name_the_fields_that_differ_whatever_the_form() {
    let a = settings(&typed(
        json!({"mode": "fill", "networks": [{"name": "p", "cidr": "10.0.0.0/8"}]}),
    ))
    .expect("valid");
    let b = settings(&config_map(json!({"networks": "p=10.0.0.0/8"}))).expect("valid");
    assert!(Config::differences(&a, &b).is_empty());
    let c = settings(&typed(
        json!({"strategy": "ordinal", "defaultNamespace": "m3"}),
    ))
    .expect("valid");
    assert_eq!(
        Config::differences(&a, &c),
        ["strategy", "networks", "defaultNamespace"]
    );
}
