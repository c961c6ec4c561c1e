//! What the write safety net costs in a fleet-sized render.
//!
//! `cargo bench --bench safety_net [-- HOSTS [RUNS]]` builds a ResourceList as kpt sends it:
//! HOSTS BareMetalHosts (default 10,000) of about 25 lines each with hardware status, and four
//! IPPools (two IPv4 /16, two IPv6 /64) to fill from scratch. It then times, RUNS times each
//! (default 11), the whole library call [`ipreuse::run::run`] and, right after it on the same
//! input, the stages it is made of, the safety net among them. It prints each median, and the
//! median over the runs of the net's share of that run's whole call (pairing each net with the
//! whole call measured next to it keeps a busy machine's drift out of the share).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ipreuse::krm::{self, Source};
use ipreuse::transform::preallocations::{allocate, mapping};
use ipreuse::yaml::{self, Edit, Node};
use ipreuse::{config, model, run, verify};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(11);
    let text = fleet(hosts);
    println!(
        "input: ResourceList, {hosts} hosts + 4 pools, {:.1} MB; {runs} runs, medians",
        text.len() as f64 / 1e6
    );
    let sources = vec![Source {
        name: "<stdin>".into(),
        text,
    }];

    let mut stages = [Duration::ZERO; 4];
    let mut samples: Vec<[Duration; 4]> = Vec::new();
    let mut wholes: Vec<Duration> = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = run::run(&sources, None).expect("run");
        assert!(!out.has_errors(), "the fleet fills without errors");
        drop(out);
        wholes.push(t.elapsed());

        let t = Instant::now();
        let input = krm::read(&sources).expect("read");
        let read = t.elapsed();

        let t = Instant::now();
        let nodes: Vec<&Node> = input.items.iter().filter_map(|at| input.node(at)).collect();
        let mut findings = Vec::new();
        let cfg = config::resolve(None).expect("defaults");
        let model = model::Model::of_nodes(&nodes, &mut findings);
        let run = ipreuse::transform::RunContext::default();
        let plan = mapping::plan(&model, &cfg, run.max_claims, &mut findings);
        let allocation = allocate::allocate(
            &model,
            &plan,
            &cfg,
            &run,
            &Default::default(),
            &mut findings,
        );
        let decide = t.elapsed();

        let t = Instant::now();
        let mut to_apply: Vec<(&Node, Edit)> = Vec::new();
        let mut meant: Vec<(usize, Edit)> = Vec::new();
        for ipreuse::edits::ItemEdit { item, edit } in &allocation.edits {
            let at = &input.items[item.0];
            to_apply.push((nodes[item.0], edit.clone()));
            meant.push((at.doc, edit.prefixed(&at.segments())));
        }
        let results = krm::results_edit(&input, 0, &findings).expect("a ResourceList");
        to_apply.push((results.root, results.edit.clone()));
        meant.push((results.doc, results.edit));
        let applied = yaml::apply_mapped(&sources[0].text, &to_apply).expect("apply");
        let apply = t.elapsed();

        let t = Instant::now();
        verify::check(&sources[0].text, &input.docs[0], &meant, &applied).expect("sound");
        let net = t.elapsed();
        samples.push([read, decide, apply, net]);
    }
    for (i, stage) in stages.iter_mut().enumerate() {
        let mut v: Vec<Duration> = samples.iter().map(|s| s[i]).collect();
        v.sort();
        *stage = v[v.len() / 2];
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    wholes.sort();
    println!(
        "run::run (whole call)         {:8.1} ms",
        ms(wholes[wholes.len() / 2])
    );
    for (name, d) in [
        "read + parse",
        "index + allocate",
        "apply edits",
        "safety net",
    ]
    .iter()
    .zip(stages)
    {
        println!("  {name:<28}{:8.1} ms", ms(d));
    }
    let mut shares: Vec<f64> = samples
        .iter()
        .zip(&wholes)
        .map(|(s, w)| s[3].as_secs_f64() / w.as_secs_f64())
        .collect();
    shares.sort_by(f64::total_cmp);
    println!(
        "safety net / whole call       {:8.1} %  (median of the runs' shares; they range {:.1}-{:.1} %)",
        100.0 * shares[shares.len() / 2],
        100.0 * shares[0],
        100.0 * shares[shares.len() - 1]
    );
}

/// A ResourceList of `n` hosts with hardware status and four pools without entries.
fn fleet(n: usize) -> String {
    let mut s = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for i in 0..n {
        let (a, b) = ((i >> 8) & 255, i & 255);
        write!(
            s,
            "- apiVersion: metal3.io/v1alpha1
  kind: BareMetalHost
  metadata:
    name: node-{i}
    namespace: fleet
    labels:
      rack: r{rack}
  spec:
    online: true
    bootMACAddress: \"00:11:22:33:{a:02x}:{b:02x}\"
    bmc:
      address: redfish+http://10.1.{a}.{b}:8000/redfish/v1/Systems/1
      credentialsName: node-{i}-bmc-secret
  status:
    operationalStatus: OK
    provisioning:
      state: provisioned
    hardware:
      cpu: {{arch: x86_64, count: 64, model: Example CPU}}
      ramMebibytes: 262144
      nics:
      - {{mac: \"00:11:22:33:{a:02x}:{b:02x}\", name: eno1, speedGbps: 25}}
      storage:
      - {{name: /dev/sda, sizeBytes: 960197124096}}
      systemVendor: {{manufacturer: Example, productName: Server}}
",
            rack = i % 40
        )
        .expect("write to a String");
    }
    for (name, start, end, prefix, gw) in [
        ("prov", "10.10.0.10", "10.10.255.250", 16, "10.10.0.1"),
        ("ext", "10.20.0.10", "10.20.255.250", 16, "10.20.0.1"),
        (
            "v6a",
            "2001:db8:1::10",
            "2001:db8:1::ffff:ffff",
            64,
            "2001:db8:1::1",
        ),
        (
            "v6b",
            "2001:db8:2::10",
            "2001:db8:2::ffff:ffff",
            64,
            "2001:db8:2::1",
        ),
    ] {
        write!(
            s,
            "- apiVersion: ipam.metal3.io/v1alpha1
  kind: IPPool
  metadata:
    name: {name}
    namespace: fleet
  spec:
    namePrefix: fleet-{name}
    pools:
    - start: {start}
      end: {end}
    prefix: {prefix}
    gateway: {gw}
"
        )
        .expect("write to a String");
    }
    s
}
