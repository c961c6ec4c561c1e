//! Hostile and mistaken input (issue 9, "abuse"): each case runs the binary under a hard
//! memory and CPU-time ceiling set by the kernel (`ulimit -v`, `ulimit -t`), so a case that
//! blew past its bound would be killed and fail here; each ends in a clear message or in the
//! right output. The limits are `ipreuse::limits` and docs/limits.md.

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run under the ceilings gave.
pub(crate) struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `ipreuse ARGS` with `input` on stdin (or no stdin for `None`), `env` set, under a
/// virtual memory ceiling of `mem_mib` MiB and 60 s of CPU time.
pub(crate) fn run_bounded(
    args: &[&str],
    env: &[(&str, &str)],
    input: Option<&[u8]>,
    mem_mib: u64,
) -> Ran {
    let script = format!(
        "ulimit -v {} && ulimit -t 60 && exec \"$0\" \"$@\"",
        mem_mib * 1024
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_ipreuse"))
        .args(args)
        .env_remove("IPREUSE_MAX_INPUT_SIZE")
        .env_remove("IPREUSE_MAX_ALIAS_NODES")
        .env_remove("IPREUSE_MAX_CLAIMS")
        .envs(env.iter().copied())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("sh runs");
    let writer = input.map(|bytes| {
        let mut stdin = child.stdin.take().expect("stdin");
        let bytes = bytes.to_vec();
        // A run that refuses the input may close stdin before reading all of it.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    });
    let out = child.wait_with_output().expect("wait");
    if let Some(w) = writer {
        w.join().expect("writer");
    }
    Ran {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts a refusal: exit 1, nothing on stdout, `needles` in the message.
fn assert_refused(ran: &Ran, needles: &[&str]) {
    assert_eq!(ran.code, Some(1), "stderr: {}", ran.stderr);
    assert!(ran.stdout.is_empty(), "something printed on a refusal");
    for n in needles {
        assert!(ran.stderr.contains(n), "{n:?} not in: {}", ran.stderr);
    }
}

const HOST: &str = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h-0, namespace: n}\nspec: {online: true}\n";

/// A ConfigMap document whose `data` is `value`.
fn config_map(value: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c, namespace: n}}\ndata: {value}\n")
}

#[test]
fn an_alias_bomb_is_refused_at_its_document() {
    let mut t = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n");
    t.push_str("  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = format!("*a{}", i - 1);
        let list = [p.as_str(); 10].join(", ");
        t.push_str(&format!("  a{i}: &a{i} [{list}]\n"));
    }
    let ran = run_bounded(&[], &[], Some(t.as_bytes()), 256);
    assert_refused(
        &ran,
        &[
            "line 1, column 1",
            "more than 1000000 nodes",
            "--max-alias-nodes",
        ],
    );
    // A floor below the document's size refuses a document the default lets through.
    let mut small = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n");
    small.push_str("  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n  a1: [*a0, *a0, *a0, *a0, *a0]\n");
    let ok = run_bounded(&[], &[], Some(small.as_bytes()), 256);
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    let low = run_bounded(
        &[],
        &[("IPREUSE_MAX_ALIAS_NODES", "10")],
        Some(small.as_bytes()),
        256,
    );
    assert_refused(&low, &["reads as more than", "--max-alias-nodes"]);
}

#[test]
fn input_past_the_size_limit_is_refused_before_it_is_parsed() {
    // 65 MiB of one valid document: over the default 64 MiB, read no further than the limit.
    let mut big = config_map("{}");
    big.push_str(&"# padding\n".repeat(65 * 1024 * 1024 / 10));
    let ran = run_bounded(&[], &[], Some(big.as_bytes()), 256);
    assert_refused(
        &ran,
        &[
            "<stdin>: the input is larger than the limit of 64 MiB",
            "--max-input-size",
            "IPREUSE_MAX_INPUT_SIZE",
        ],
    );
    // Raised by the flag or the environment, the same input is read and returned.
    for (args, env) in [
        (vec!["--max-input-size", "80Mi"], vec![]),
        (vec![], vec![("IPREUSE_MAX_INPUT_SIZE", "80Mi")]),
    ] {
        let ran = run_bounded(&args, &env, Some(big.as_bytes()), 1024);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        assert_eq!(ran.stdout.len(), big.len());
    }
    // A lower limit counts every file read, in all.
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.yaml", "b.yaml"] {
        let text = config_map(&format!("{{k: {}}}", "v".repeat(600)));
        std::fs::write(dir.path().join(name), text.replace("name: c", name)).unwrap();
    }
    let path = dir.path().to_str().unwrap();
    let ran = run_bounded(&["--max-input-size", "1Ki", path], &[], None, 256);
    assert_refused(
        &ran,
        &["b.yaml: the input is larger than the limit of 1024 bytes"],
    );
    let ran = run_bounded(&["--max-input-size", "2Ki", path], &[], None, 256);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    // A size that is not one is a usage error.
    let ran = run_bounded(&["--max-input-size", "64MB"], &[], None, 256);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("\"MB\""), "{}", ran.stderr);
}

#[test]
fn a_million_pools_of_one_address_are_refused_by_the_size_limit() {
    // The most compact way to write a pool is still over 100 bytes: a million do not fit.
    let mut t = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for i in 0..1_000_000u32 {
        let a = format!("10.{}.{}.{}", i >> 16, (i >> 8) & 255, i & 255);
        t.push_str(&format!(
            "- {{apiVersion: ipam.metal3.io/v1alpha1, kind: IPPool, metadata: {{name: p{i}}}, spec: {{namePrefix: p{i}, pools: [{{start: {a}, end: {a}}}]}}}}\n"
        ));
    }
    assert!(t.len() > 64 << 20);
    let ran = run_bounded(&[], &[], Some(t.as_bytes()), 256);
    assert_refused(&ran, &["larger than the limit of 64 MiB"]);
}

/// `pools` IPPools (a /16 each) and `hosts` BareMetalHosts in one namespace: `all` maps every
/// host to every pool.
fn pools_and_hosts(pools: usize, hosts: usize) -> String {
    let mut t = String::new();
    for i in 0..pools {
        t.push_str(&format!(
            "---\napiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {{name: p{i:03}, namespace: n}}\nspec: {{namePrefix: p{i:03}, pools: [{{subnet: {}.{}.0.0/16}}], prefix: 8}}\n",
            10 + i / 256,
            i % 256
        ));
    }
    for i in 0..hosts {
        t.push_str(&format!(
            "---\napiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {{name: h-{i}, namespace: n}}\n"
        ));
    }
    t
}

#[test]
fn many_pools_times_many_hosts_are_refused_before_any_claim_is_named() {
    // 300 pools × 4,000 hosts: 1.2 million claims from under 600 KB of input.
    let t = pools_and_hosts(300, 4000);
    assert!(t.len() < 600 << 10);
    let ran = run_bounded(&[], &[], Some(t.as_bytes()), 512);
    assert_error_result(
        &ran,
        &t,
        &[
            "IPPool n/p000 spec.preAllocations",
            "1200000 host-pool claims over 300 pools",
            "limit of 1000000",
            "--max-claims",
        ],
    );
    // 4 pools × 10 hosts: refused under a limit of 39, filled under 40 (flag or environment).
    let small = pools_and_hosts(4, 10);
    let ran = run_bounded(&["--max-claims", "39"], &[], Some(small.as_bytes()), 256);
    assert_error_result(
        &ran,
        &small,
        &["40 host-pool claims", "more than the limit of 39;"],
    );
    for (args, env) in [
        (vec!["--max-claims", "40"], vec![]),
        (vec![], vec![("IPREUSE_MAX_CLAIMS", "40")]),
    ] {
        let ran = run_bounded(&args, &env, Some(small.as_bytes()), 256);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        let out = String::from_utf8(ran.stdout).unwrap();
        assert_eq!(out.matches("-p00").count(), 40, "{out}");
    }
}

#[test]
fn nesting_ten_thousand_deep_is_refused_in_flow_and_block() {
    let flow = config_map(&format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)));
    let mut block = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n");
    for i in 1..=10_000 {
        block.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
    }
    for t in [flow, block] {
        let ran = run_bounded(&[], &[], Some(t.as_bytes()), 256);
        assert_refused(&ran, &["not valid YAML", "nested deeper than 255 levels"]);
    }
}

#[test]
fn a_ten_megabyte_scalar_is_carried_through() {
    let value = "x".repeat(10 << 20);
    let t = format!("{HOST}---\n{}", config_map(&format!("{{blob: {value}}}")));
    let ran = run_bounded(&[], &[], Some(t.as_bytes()), 512);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, t.as_bytes());
}

#[test]
fn nul_bytes_and_invalid_utf8_are_refused_with_their_place() {
    let nul = config_map("{k: a\0b}");
    let ran = run_bounded(&[], &[], Some(nul.as_bytes()), 256);
    assert_refused(&ran, &["not valid YAML: line 4, column 12"]);
    let mut bad = config_map("{k: ").into_bytes();
    bad.truncate(bad.len() - 1);
    bad.extend_from_slice(b"caf\xc3\xa9 \xff}\n");
    let ran = run_bounded(&[], &[], Some(&bad), 256);
    assert_refused(
        &ran,
        &["<stdin>: not UTF-8 text: byte 0xff at line 4, column 16 (byte offset 81)"],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(&file, &bad).unwrap();
    let ran = run_bounded(&[file.to_str().unwrap()], &[], None, 256);
    assert_refused(&ran, &["bad.yaml: not UTF-8 text: byte 0xff at line 4"]);
}

#[test]
fn a_pool_of_two_to_the_128_addresses_is_walked_as_far_as_the_ipam_walks() {
    let pool = |entry: &str| {
        format!(
            "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {{name: all, namespace: n}}\nspec:\n  namePrefix: all\n  pools:\n  - {{start: \"::\", end: \"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff\"}}\n  preAllocations:\n    h-9-all: \"{entry}\"\n"
        )
    };
    let hosts: String = ["h-0", "h-1", "h-9"]
        .iter()
        .map(|h| format!("---\n{}", HOST.replace("h-0", h)))
        .collect();
    // The walk starts at `start`, and without a prefix no network address is reserved: the new
    // hosts take `::` and `::1`, around the kept entry.
    let ran = run_bounded(
        &[],
        &[],
        Some(format!("{}{hosts}", pool("::2")).as_bytes()),
        256,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let out = String::from_utf8(ran.stdout).unwrap();
    let pre =
        "  preAllocations:\n    h-9-all: \"::2\"\n    h-0-all: \"::\"\n    h-1-all: \"::1\"\n";
    assert!(out.contains(pre), "{out}");
    assert!(ran.stderr.contains("1 kept, 2 added"), "{}", ran.stderr);
    // An entry 2^128 - 16 addresses along is past where the IPAM's allocator walks: refused,
    // without walking there.
    let far = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0";
    let input = format!("{}{hosts}", pool(far));
    let ran = run_bounded(&[], &[], Some(input.as_bytes()), 256);
    assert_error_result(
        &ran,
        &input,
        &[
            "IPPool n/all spec.preAllocations.h-9-all",
            "past the last address the IPAM reaches",
        ],
    );
}

/// Asserts an error result: exit 1, every item printed back unchanged, `needles` in stderr.
fn assert_error_result(ran: &Ran, input: &str, needles: &[&str]) {
    assert_eq!(ran.code, Some(1), "stderr: {}", ran.stderr);
    assert_eq!(String::from_utf8_lossy(&ran.stdout), input);
    for n in needles {
        assert!(ran.stderr.contains(n), "{n:?} not in: {}", ran.stderr);
    }
}
