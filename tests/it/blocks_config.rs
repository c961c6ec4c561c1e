//! The block fields of `networks` and the pools' block annotations (SPEC §12) through the
//! binary: a bad value is an error naming the field and the allowed values, exit code 1, and
//! the items come back unchanged; good values are accepted in both config forms.

use crate::common;

use std::process::Output;

use common::{host, pool, range, resource_list, stream};

fn package() -> Vec<String> {
    vec![
        host("node-1", "c1").yaml(),
        pool("prov", "c1")
            .range(range("172.22.0.10", "172.22.0.20"))
            .prefix(16)
            .yaml(),
    ]
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the binary on `input` with the typed functionConfig whose `spec.networks` is `networks`
/// (YAML text), written to a file and passed with `--config`.
fn with_typed(networks: &str, input: &str) -> Output {
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("cfg.yaml");
    let yaml = format!(
        "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: c\nspec:\n  networks:\n{}",
        networks
            .lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    );
    std::fs::write(&cfg, yaml).expect("write cfg");
    common::run_bin_stdin(&["--config", cfg.to_str().expect("path")], input)
}

/// Runs the binary on a ResourceList (what kpt sends) whose functionConfig is the ConfigMap
/// with `data.networks: networks`.
fn with_config_map(networks: &str, items: &[String]) -> Output {
    let fc = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: function-input\ndata:\n  networks: '{networks}'\n"
    );
    common::run_bin_stdin(&[], &resource_list(items, Some(&fc)))
}

fn assert_refused(out: &Output, input: Option<&str>, needles: &[&str]) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    if let Some(input) = input {
        assert_eq!(text(&out.stdout), input, "the items come back unchanged");
    }
    for n in needles {
        assert!(
            stderr.contains(n) || text(&out.stdout).contains(n),
            "{n:?} not in stderr: {stderr}"
        );
    }
}

#[test]
fn a_bad_block_size_exits_1_naming_the_field_and_the_allowed_sizes() {
    let input = stream(&package());
    let out = with_typed("- {name: prov, cidr: 172.22.0.0/16, blockSize: 12}", &input);
    assert_refused(
        &out,
        Some(&input),
        &[
            "spec.networks[0].blockSize",
            "between /16 (the whole cidr) and /30",
        ],
    );
}

#[test]
fn an_unknown_block_kind_in_a_config_map_names_the_entry_and_the_kinds() {
    let out = with_config_map(
        "[{name: prov, cidr: 172.22.0.0/16, blockSize: 26, blockKind: subnets}]",
        &package(),
    );
    assert_refused(
        &out,
        None,
        &[
            "data.networks",
            "networks[0].blockKind",
            "is not one of range, subnet",
            "did you mean subnet",
        ],
    );
    // kpt's output is the ResourceList with the items as they came in
    let values = common::json_docs(&text(&out.stdout));
    let items = values[0]["items"].as_array().expect("items");
    assert!(items.iter().all(|i| i["spec"]["preAllocations"].is_null()));
}

#[test]
fn a_gateway_policy_on_range_blocks_is_refused_naming_the_way_out() {
    let input = stream(&package());
    let out = with_typed(
        "- {name: prov, cidr: 172.22.0.0/16, blockSize: 26, gatewayPolicy: first}",
        &input,
    );
    assert_refused(
        &out,
        Some(&input),
        &[
            "spec.networks[0].gatewayPolicy",
            "gatewayPolicy first is for blockKind subnet",
            "set gateway instead",
        ],
    );
}

#[test]
fn valid_block_fields_are_accepted_in_both_forms() {
    let entries = [
        "{name: prov, cidr: 172.22.0.0/16, blockSize: {ipv4: 26, ipv6: 64}, prefix: 16, gateway: 172.22.0.1, dnsServers: [172.22.0.2], exclude: [172.22.0.0/24]}",
        "{name: prov, cidr: \"fd00:22::/48\"}",
        "{name: routed, cidr: 10.8.0.0/16, blockSize: 24, blockKind: subnet, gatewayPolicy: last}",
    ];
    let input = stream(&package());
    let typed: Vec<String> = entries.iter().map(|e| format!("- {e}")).collect();
    let out = with_typed(&typed.join("\n"), &input);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let out = with_config_map(&format!("[{}]", entries.join(", ")), &package());
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
}

#[test]
fn a_malformed_block_annotation_exits_1_naming_the_pool_and_the_annotation() {
    for (key, value, says) in [
        (
            "ipreuse.dev/block-index",
            "\"-1\"",
            "A block index is a non-negative decimal integer",
        ),
        (
            "ipreuse.dev/block-size",
            "\"/27\"",
            "A block size is a prefix length from 0 to 128",
        ),
    ] {
        let docs = vec![
            host("node-1", "c1").yaml(),
            pool("prov", "c1")
                .range(range("172.22.0.10", "172.22.0.20"))
                .prefix(16)
                .yaml()
                .replacen(
                    "metadata:\n",
                    &format!("metadata:\n  annotations:\n    {key}: {value}\n"),
                    1,
                ),
        ];
        let input = stream(&docs);
        assert!(input.contains(key), "{input}");
        let out = common::run_bin_stdin(&[], &input);
        assert_refused(&out, Some(&input), &[key, "IPPool c1/prov", says]);
    }
}
