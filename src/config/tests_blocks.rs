//! The block fields of `networks` (SPEC §12), in both config forms: every accepted form and
//! every error.

use serde_json::{Value, json};

use super::*;
use crate::ipam::Addr;
use crate::ipam::IntervalSet;
use crate::results::Finding;

fn typed(networks: Value) -> Value {
    json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse",
        "metadata": {"name": "c"}, "spec": {"networks": networks}})
}

/// The ConfigMap whose `data.networks` is `networks` written as a YAML flow list.
fn config_map(networks: &Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"networks": flow(networks)}})
}

/// A JSON value written as YAML flow text, unquoted where YAML allows (as a person writes it).
fn flow(v: &Value) -> String {
    match v {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(flow).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

fn networks(fc: &Value) -> Vec<NetworkCidr> {
    match decode(Some(fc)) {
        Ok(c) => c.networks,
        Err(e) => panic!("expected a valid config, got {e:#?}"),
    }
}

/// Both forms read `list` alike; its networks.
fn both(list: Value) -> Vec<NetworkCidr> {
    let a = networks(&typed(list.clone()));
    let b = networks(&config_map(&list));
    assert_eq!(
        a, b,
        "the typed form and the ConfigMap read {list} differently"
    );
    a
}

fn errors(fc: &Value) -> Vec<Finding> {
    match decode(Some(fc)) {
        Ok(c) => panic!("expected errors for {fc}, got {:#?}", c.networks),
        Err(e) => e,
    }
}

/// `list` is refused in both forms with exactly one error at `path` (under `spec.` in the
/// typed form; in the ConfigMap at `data.networks`, the message naming `path`), whose message
/// holds every piece of `says`.
fn refused(list: Value, path: &str, says: &[&str]) {
    let e = errors(&typed(list.clone()));
    assert_eq!(e.len(), 1, "one error for {list}, got {e:#?}");
    let field = e[0].field.as_ref().map(|f| f.path.as_str());
    assert_eq!(field, Some(format!("spec.{path}").as_str()), "{e:#?}");
    for s in says {
        assert!(e[0].message.contains(s), "{s:?} not in {:?}", e[0].message);
    }
    assert!(e[0].is_error());
    // the decoder puts the field path in front of every message: the message is what follows
    let message = e[0].message.split_once(": ").map_or("", |(_, m)| m);
    assert_short_first_sentence(message);
    let e = errors(&config_map(&list));
    assert_eq!(e.len(), 1, "one error for the ConfigMap {list}, got {e:#?}");
    let field = e[0].field.as_ref().map(|f| f.path.as_str());
    assert_eq!(field, Some("data.networks"), "{e:#?}");
    assert!(
        e[0].message.contains(&format!("{path}: ")),
        "{path} not named in {:?}",
        e[0].message
    );
    for s in says {
        assert!(e[0].message.contains(s), "{s:?} not in {:?}", e[0].message);
    }
}

/// A message's first sentence (to the first ". ") is under 160 characters: what is wrong comes
/// first, the way out after.
fn assert_short_first_sentence(message: &str) {
    let first = message.split(". ").next().unwrap_or(message);
    assert!(
        first.chars().count() < 160,
        "first sentence of {} characters: {message}",
        first.chars().count()
    );
}

fn a(text: &str) -> Addr {
    crate::ipam::parse_addr(text).unwrap().addr()
}

fn set(ranges: &[(&str, &str)]) -> IntervalSet {
    IntervalSet::from_ranges(ranges.iter().map(|(l, h)| (a(l).value(), a(h).value())))
}

#[test]
fn a_network_without_block_fields_hands_out_no_blocks() {
    let n = both(json!([{"name": "prov", "cidr": "172.22.0.0/16"}]));
    assert_eq!(n[0].blocks, None);
    assert_eq!(n[0].prefix, 16);
    // The name=cidr form of a ConfigMap still reads, with no blocks.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"networks": "prov=172.22.0.0/16"}});
    assert_eq!(networks(&cm), n);
}

#[test]
fn range_blocks_take_the_defaults() {
    let n = both(json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": 26}]));
    assert_eq!(
        n[0].blocks,
        Some(BlockPlan {
            size: 26,
            kind: BlockKind::Range,
            prefix: 16,
            gateway: None,
            gateway_policy: GatewayPolicy::None,
            dns_servers: vec![],
            exclude: IntervalSet::new(),
            exclude_ranges: vec![],
        })
    );
}

#[test]
fn the_spec_example_reads_every_field() {
    let n = both(
        json!([{"name": "prov", "cidr": "172.22.128.0/17", "blockSize": 26,
        "blockKind": "range", "prefix": 16, "gateway": "172.22.0.1", "gatewayPolicy": "none",
        "dnsServers": ["172.22.0.2", "10.0.0.53"],
        "exclude": ["172.22.128.5", "172.22.130.0-172.22.130.200", "172.22.140.0/24"]}]),
    );
    let plan = n[0].blocks.clone().expect("blocks");
    assert_eq!(plan.size, 26);
    assert_eq!(plan.kind, BlockKind::Range);
    assert_eq!(plan.prefix, 16);
    assert_eq!(plan.gateway, Some(a("172.22.0.1")));
    assert_eq!(plan.gateway_policy, GatewayPolicy::None);
    assert_eq!(plan.dns_servers, vec![a("172.22.0.2"), a("10.0.0.53")]);
    assert_eq!(
        plan.exclude,
        set(&[
            ("172.22.128.5", "172.22.128.5"),
            ("172.22.130.0", "172.22.130.200"),
            ("172.22.140.0", "172.22.140.255"),
        ])
    );
    assert_eq!(plan.exclude_ranges.len(), 3);
    assert_eq!(plan.exclude_ranges[2].first, a("172.22.140.0"));
}

#[test]
fn subnet_blocks_default_to_the_first_gateway_and_their_own_prefix() {
    let n = both(
        json!([{"name": "routed", "cidr": "fd00:10::/48", "blockSize": 64,
        "blockKind": "subnet", "dnsServers": ["FD00:10::53"]}]),
    );
    let plan = n[0].blocks.clone().expect("blocks");
    assert_eq!(plan.kind, BlockKind::Subnet);
    assert_eq!(plan.prefix, 64);
    assert_eq!(plan.gateway, None);
    assert_eq!(plan.gateway_policy, GatewayPolicy::First);
    // Any valid IPv6 spelling is the address (written in canonical form).
    assert_eq!(plan.dns_servers, vec![a("fd00:10::53")]);
    assert_eq!(plan.dns_servers[0].to_string(), "fd00:10::53");
    for (word, policy) in [
        ("first", GatewayPolicy::First),
        ("last", GatewayPolicy::Last),
        ("none", GatewayPolicy::None),
    ] {
        let n = both(
            json!([{"name": "routed", "cidr": "10.10.0.0/16", "blockSize": 24,
            "blockKind": "subnet", "gatewayPolicy": word}]),
        );
        assert_eq!(n[0].blocks.as_ref().unwrap().gateway_policy, policy);
        assert_eq!(n[0].blocks.as_ref().unwrap().prefix, 24);
    }
}

#[test]
fn a_dual_stack_network_takes_one_size_per_family() {
    let ways = [
        // given once, on one entry
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": {"ipv4": 26, "ipv6": 64},
                "blockKind": "subnet"},
               {"name": "prov", "cidr": "fd00:22::/48"}]),
        // each entry its own
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": 26, "blockKind": "subnet"},
               {"name": "prov", "cidr": "fd00:22::/48", "blockSize": 64}]),
        // the same, twice, agreeing
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": {"ipv4": 26, "ipv6": 64},
                "blockKind": "subnet"},
               {"name": "prov", "cidr": "fd00:22::/48", "blockSize": {"ipv6": 64},
                "blockKind": "subnet", "gatewayPolicy": "first"}]),
    ];
    for list in ways {
        let n = both(list.clone());
        let sizes: Vec<(u8, BlockKind, GatewayPolicy)> = n
            .iter()
            .map(|e| {
                let p = e.blocks.as_ref().expect("blocks");
                (p.size, p.kind, p.gateway_policy)
            })
            .collect();
        assert_eq!(
            sizes,
            [
                (26, BlockKind::Subnet, GatewayPolicy::First),
                (64, BlockKind::Subnet, GatewayPolicy::First)
            ],
            "{list}"
        );
    }
}

#[test]
fn per_entry_addresses_belong_to_their_cidr() {
    let n = both(json!([
        {"name": "prov", "cidr": "172.22.0.0/24", "blockSize": {"ipv4": 28, "ipv6": 120},
         "gateway": "172.22.0.1", "dnsServers": ["172.22.0.2"], "exclude": ["172.22.0.0/27"]},
        {"name": "prov", "cidr": "fd00:22::/64", "gateway": "fd00:22::1",
         "dnsServers": ["fd00:22::2"], "prefix": 64},
    ]));
    let v4 = n[0].blocks.clone().unwrap();
    let v6 = n[1].blocks.clone().unwrap();
    assert_eq!(
        (v4.size, v4.prefix, v4.gateway),
        (28, 24, Some(a("172.22.0.1")))
    );
    assert_eq!(v4.exclude, set(&[("172.22.0.0", "172.22.0.31")]));
    assert_eq!(
        (v6.size, v6.prefix, v6.gateway),
        (120, 64, Some(a("fd00:22::1")))
    );
    assert_eq!(v6.dns_servers, vec![a("fd00:22::2")]);
    assert!(v6.exclude.is_empty());
}

#[test]
fn block_sizes_at_the_ends_of_the_range_are_accepted() {
    for (cidr, size) in [
        ("10.0.0.0/8", 8),
        ("10.0.0.0/8", 30),
        ("10.0.0.0/30", 30),
        ("fd00::/32", 32),
        ("fd00::/32", 126),
        ("::/0", 0),
    ] {
        let n = both(json!([{"name": "n", "cidr": cidr, "blockSize": size}]));
        assert_eq!(n[0].blocks.as_ref().unwrap().size, size, "{cidr} /{size}");
    }
}

#[test]
fn a_block_size_outside_the_cidr_or_too_small_is_an_error() {
    for (cidr, size, says) in [
        ("10.0.0.0/16", 15, "between /16 (the whole cidr) and /30"),
        ("10.0.0.0/16", 31, "between /16 (the whole cidr) and /30"),
        (
            "10.0.0.0/16",
            32,
            "/30 (the smallest with 2 usable addresses)",
        ),
        ("fd00::/48", 127, "between /48 (the whole cidr) and /126"),
        ("fd00::/48", 47, "between /48"),
        ("10.0.0.0/31", 31, "smaller than the smallest block, /30"),
    ] {
        refused(
            json!([{"name": "n", "cidr": cidr, "blockSize": size}]),
            "networks[0].blockSize",
            &[&format!("blockSize {size} is out of range"), says],
        );
    }
    // per family: the error is at the family's value
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": {"ipv4": 12}}]),
        "networks[0].blockSize.ipv4",
        &["blockSize 12 is out of range", "between /16"],
    );
}

#[test]
fn a_block_size_of_the_wrong_shape_names_the_allowed_forms() {
    for bad in [
        json!("26"),
        json!(-1),
        json!(26.5),
        json!(129),
        json!([26]),
        json!(true),
    ] {
        refused(
            json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": bad}]),
            "networks[0].blockSize",
            &["must be a prefix length", "{ipv4: N, ipv6: M}"],
        );
    }
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": {}}]),
        "networks[0].blockSize",
        &["names no family", "{ipv4: N}"],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": {"ipv4": 33}}]),
        "networks[0].blockSize.ipv4",
        &["from 0 to 32"],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": {"ipv44": 26}}]),
        "networks[0].blockSize.ipv44",
        &["unknown field", "did you mean ipv4", "ipv4 or ipv6"],
    );
}

#[test]
fn the_per_family_form_needs_the_family_cidr() {
    refused(
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": {"ipv4": 26, "ipv6": 64}}]),
        "networks[0].blockSize.ipv6",
        &["network prov has no IPv6 cidr"],
    );
}

#[test]
fn a_dual_stack_network_needs_a_size_for_each_family() {
    refused(
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": 26},
               {"name": "prov", "cidr": "fd00:22::/48"}]),
        "networks[1]",
        &[
            "network prov has no block size for its IPv6 cidr fd00:22::/48",
            "though it hands out blocks (blockSize at networks[0])",
        ],
    );
}

#[test]
fn settings_given_twice_must_agree_and_the_error_names_both_entries() {
    refused(
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": 26, "blockKind": "subnet"},
               {"name": "prov", "cidr": "fd00:22::/48", "blockSize": 64, "blockKind": "range"}]),
        "networks[1].blockKind",
        &["blockKind subnet at networks[0].blockKind and range here"],
    );
    refused(
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": {"ipv4": 26, "ipv6": 64},
                "blockKind": "subnet"},
               {"name": "prov", "cidr": "fd00:22::/48", "gatewayPolicy": "last"},
               {"name": "prov2", "cidr": "10.0.0.0/8"}])
        .as_array()
        .map(|v| {
            let mut v = v.clone();
            v[0]["gatewayPolicy"] = json!("first");
            Value::Array(v)
        })
        .unwrap(),
        "networks[1].gatewayPolicy",
        &["gatewayPolicy first at networks[0].gatewayPolicy and last here"],
    );
    refused(
        json!([{"name": "prov", "cidr": "172.22.0.0/16", "blockSize": {"ipv4": 26, "ipv6": 64}},
               {"name": "prov", "cidr": "fd00:22::/48", "blockSize": 56}]),
        "networks[1].blockSize",
        &["blockSize for its IPv6 cidr 64 at networks[0].blockSize.ipv6 and 56 here"],
    );
}

#[test]
fn a_network_with_blocks_has_one_cidr_per_family() {
    refused(
        json!([{"name": "prov", "cidr": "10.0.0.0/16", "blockSize": 24},
               {"name": "prov", "cidr": "10.1.0.0/16", "blockSize": 24}]),
        "networks[1]",
        &["two IPv4 cidrs (10.0.0.0/16 at networks[0] and 10.1.0.0/16 here)"],
    );
    // one error for the one mistake, not one more for the second cidr's size
    refused(
        json!([{"name": "prov", "cidr": "10.0.0.0/16", "blockSize": 24},
               {"name": "prov", "cidr": "10.1.0.0/16"}]),
        "networks[1]",
        &["two IPv4 cidrs"],
    );
    // without blocks, several cidrs of one family stay allowed
    let n = both(json!([{"name": "prov", "cidr": "10.0.0.0/16"},
                        {"name": "prov", "cidr": "10.1.0.0/16"}]));
    assert_eq!(n.len(), 2);
}

#[test]
fn block_fields_without_block_size_are_errors_saying_so() {
    for (key, value) in [
        ("blockKind", json!("subnet")),
        ("prefix", json!(16)),
        ("gateway", json!("10.0.0.1")),
        ("gatewayPolicy", json!("none")),
        ("dnsServers", json!(["10.0.0.2"])),
        ("exclude", json!(["10.0.0.0/24"])),
    ] {
        let mut entry = json!({"name": "prov", "cidr": "10.0.0.0/8"});
        entry[key] = value;
        refused(
            json!([entry]),
            &format!("networks[0].{key}"),
            &[
                &format!("{key} only applies to a network that hands out blocks"),
                "network prov has no blockSize",
            ],
        );
    }
    // null is not given
    let n = both(json!([{"name": "prov", "cidr": "10.0.0.0/8", "blockKind": null}]));
    assert_eq!(n[0].blocks, None);
}

#[test]
fn unknown_kinds_and_policies_list_the_allowed_values() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": 24, "blockKind": "subnets"}]),
        "networks[0].blockKind",
        &[
            "\"subnets\" is not one of range, subnet",
            "did you mean subnet",
        ],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": 24, "blockKind": "subnet",
                "gatewayPolicy": "frist"}]),
        "networks[0].gatewayPolicy",
        &["is not one of first, last, none", "did you mean first"],
    );
    // an unknown kind is the one error: the policy is not judged against a guessed kind
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": 24, "blockKind": "subnets",
                "gatewayPolicy": "last"}]),
        "networks[0].blockKind",
        &["is not one of range, subnet"],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/8", "blockSize": 24, "blockKind": 1}]),
        "networks[0].blockKind",
        &["1 is not one of range, subnet"],
    );
}

#[test]
fn range_blocks_refuse_a_gateway_policy_that_picks_an_address() {
    for p in ["first", "last"] {
        refused(
            json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "gatewayPolicy": p}]),
            "networks[0].gatewayPolicy",
            &[
                &format!("gatewayPolicy {p} is for blockKind subnet"),
                "set gateway instead",
            ],
        );
    }
}

#[test]
fn subnet_blocks_refuse_a_gateway_and_a_prefix() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "blockKind": "subnet",
                "gateway": "10.0.0.1"}]),
        "networks[0].gateway",
        &[
            "gateway is for blockKind range",
            "gatewayPolicy (first, last or none)",
        ],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "blockKind": "subnet",
                "prefix": 16}]),
        "networks[0].prefix",
        &["prefix is for blockKind range", "its blockSize"],
    );
}

#[test]
fn a_range_prefix_must_hold_the_cidr() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "prefix": 20}]),
        "networks[0].prefix",
        &["prefix 20 is longer than the cidr's /16", "from 1 to 16"],
    );
    for bad in [json!(0), json!(129), json!("16")] {
        refused(
            json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "prefix": bad}]),
            "networks[0].prefix",
            &["must be a prefix length (an integer from 1 to 128"],
        );
    }
}

#[test]
fn the_range_gateway_must_be_in_the_segment() {
    refused(
        json!([{"name": "n", "cidr": "172.22.128.0/17", "blockSize": 26, "gateway": "172.22.0.1"}]),
        "networks[0].gateway",
        &["gateway 172.22.0.1 is not in the network's segment 172.22.128.0/17"],
    );
    // with the segment's prefix, it is
    let n = both(
        json!([{"name": "n", "cidr": "172.22.128.0/17", "blockSize": 26,
        "gateway": "172.22.0.1", "prefix": 16}]),
    );
    assert_eq!(n[0].blocks.as_ref().unwrap().gateway, Some(a("172.22.0.1")));
}

#[test]
fn addresses_of_the_other_family_are_errors_at_their_item() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24, "gateway": "fd00::1"}]),
        "networks[0].gateway",
        &["gateway fd00::1 is not IPv4 like the cidr 10.0.0.0/16"],
    );
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24,
                "dnsServers": ["10.0.0.2", "fd00::53"]}]),
        "networks[0].dnsServers[1]",
        &["DNS server fd00::53 is not IPv4"],
    );
    refused(
        json!([{"name": "n", "cidr": "fd00::/48", "blockSize": 64,
                "exclude": ["10.0.0.0/24"]}]),
        "networks[0].exclude[0]",
        &["exclude entry 10.0.0.0/24 is not IPv6"],
    );
}

#[test]
fn addresses_that_do_not_parse_are_errors_at_their_item() {
    for (key, value, path, says) in [
        (
            "gateway",
            json!("10.0.0.01"),
            "networks[0].gateway",
            "leading zero",
        ),
        (
            "gateway",
            json!("::ffff:10.0.0.1"),
            "networks[0].gateway",
            "IPv4-mapped",
        ),
        (
            "gateway",
            json!(5),
            "networks[0].gateway",
            "must be an IP address",
        ),
        (
            "dnsServers",
            json!(["10.0.0.2", "dns"]),
            "networks[0].dnsServers[1]",
            "not an IPv4 or IPv6 address",
        ),
        (
            "dnsServers",
            json!("10.0.0.2"),
            "networks[0].dnsServers",
            "must be a list of strings",
        ),
        (
            "dnsServers",
            json!([7]),
            "networks[0].dnsServers[0]",
            "must be a string",
        ),
        (
            "exclude",
            json!(["10.0.0.9-10.0.0.1"]),
            "networks[0].exclude[0]",
            "starts after it ends",
        ),
        (
            "exclude",
            json!(["10.0.0.0/33"]),
            "networks[0].exclude[0]",
            "is not an address, range or CIDR",
        ),
    ] {
        let mut entry = json!({"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24});
        entry[key] = value;
        refused(json!([entry]), path, &[says]);
    }
}

#[test]
fn an_exclude_entry_outside_the_cidr_is_an_error() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24,
                "exclude": ["10.0.0.0/24", "10.1.0.0/24"]}]),
        "networks[0].exclude[1]",
        &["lies outside the cidr 10.0.0.0/16"],
    );
    // partly inside is fine
    let n = both(json!([{"name": "n", "cidr": "10.0.0.0/16", "blockSize": 24,
        "exclude": ["9.255.255.0-10.0.0.10"]}]));
    assert_eq!(
        n[0].blocks.as_ref().unwrap().exclude,
        set(&[("9.255.255.0", "10.0.0.10")])
    );
}

#[test]
fn unknown_entry_fields_suggest_the_close_name() {
    refused(
        json!([{"name": "n", "cidr": "10.0.0.0/16", "blocksize": 24}]),
        "networks[0].blocksize",
        &[
            "unknown field \"blocksize\"",
            "did you mean blockSize",
            "blockKind",
        ],
    );
}

#[test]
fn a_config_map_list_that_is_not_yaml_is_an_error_naming_both_forms() {
    for text in ["[{name: prov, cidr: 10.0.0.0/8", "[a]\n---\n[b]"] {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
            "data": {"networks": text}});
        let e = errors(&cm);
        assert_eq!(e.len(), 1, "{e:#?}");
        assert_eq!(e[0].field.as_ref().unwrap().path, "data.networks");
        assert!(e[0].message.contains("name=cidr"), "{}", e[0].message);
    }
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"networks": "prov=10.0.0.0/8 blockSize=24"}});
    let e = errors(&cm);
    assert!(
        e[0].message.contains("written as a list"),
        "{}",
        e[0].message
    );
}

#[test]
fn differences_see_the_block_fields() {
    let a = decode(Some(&typed(
        json!([{"name": "p", "cidr": "10.0.0.0/8", "blockSize": 24}]),
    )))
    .unwrap();
    let b = decode(Some(&typed(
        json!([{"name": "p", "cidr": "10.0.0.0/8", "blockSize": 25}]),
    )))
    .unwrap();
    assert_eq!(Config::differences(&a, &b), ["networks"]);
}

#[test]
fn a_config_map_may_write_the_list_as_block_yaml() {
    let text = "- name: prov\n  cidr: 172.22.0.0/16\n  blockSize: 26\n  dnsServers: [172.22.0.2]\n";
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
        "data": {"networks": text}});
    let want = networks(&typed(json!([{"name": "prov", "cidr": "172.22.0.0/16",
        "blockSize": 26, "dnsServers": ["172.22.0.2"]}])));
    assert!(want[0].blocks.is_some());
    assert_eq!(networks(&cm), want);
}
