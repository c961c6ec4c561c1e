//! Issue 33, acceptance line 2: properties of the block hand-out over whole runs, brute-forced
//! against a listing of every address of small networks (docs/behaviour.md "Blocks for new
//! clusters").
//!
//! Each case draws one network `prov` with `blockSize`: IPv4 10.9.0.0/24–/26 with /28–/30
//! blocks, IPv6 fd00:9::/120–/124 with /124–/126 blocks (/125–/126 on a /124), or both (dual-stack); `blockKind`
//! range (random `prefix`, `gateway`, `dnsServers`) or subnet (random `gatewayPolicy`,
//! `dnsServers`); random `exclude` and config `reserve`. Then 1–5 existing clusters (a pool
//! `prov` with a range per family inside the network, some written as an aligned `subnet` as a
//! subnet block is, annotated or on it by its cidr, some with a `block-index` it does not heed,
//! entry gateways and DNS servers, hosts holding an entry (some also live in `status.indexes`) or a
//! pin, foreign live claims, maybe a Cluster whose control-plane endpoint is an address of the
//! network) and 1–4 new clusters (a pool `prov` annotated onto the network with no ranges, some
//! with `ipreuse.dev/block-index` or `ipreuse.dev/block-size`, 0–4 hosts, maybe an endpoint,
//! some hosts pinned (mostly inside the block the pool gets: a pin of a pool that asks is not
//! what blocks avoid), and on a one-family network some pools already setting `prefix` or
//! `gateway`, mostly to what the block comes with).
//! Every random choice comes from one list of numbers, so that proptest shrinks a case towards
//! fewer features (a zero turns a feature off).
//!
//! The oracle lists every address of each cidr and marks what no block may meet: the other
//! pools' ranges, gateways and DNS servers, their entries, live addresses and pins, `reserve`,
//! the control-plane endpoints, `exclude`, and for range blocks the network's gateway, DNS
//! servers and the network and broadcast address of its segment. The asking pools, in byte
//! order of namespace, take every `block-index` first, then the lowest block whose addresses
//! are all unmarked (and meet no block given before); then each new pool's hosts, in natural
//! order, take its usable addresses in walk order (IPv4 block first) after the pinned hosts
//! took their pins. No block, too few addresses for the hosts, a pin the pool cannot hand out
//! (or two hosts pinned to one address), or a preset field that differs from the block's is a
//! failed run.
//!
//! Properties:
//! 1. `blocks_and_entries_are_the_oracles`: a run fails exactly when the oracle does, with every
//!    item unchanged; otherwise every new pool has exactly the oracle's blocks (each aligned,
//!    of its size, inside the cidr, meeting no marked address and no other block) written with
//!    the network's prefix, gateway and DNS servers, its hosts exactly the oracle's entries; the
//!    pools with ranges keep their spec but for the pins written as entries; hosts and Clusters
//!    are unchanged; and no address is the entry of two hosts in the network.
//! 2. `independent_of_order_and_stable`: the run on the documents shuffled gives the same items
//!    (parsed, by kind, namespace and name) and the same success; a second run on the output
//!    changes nothing.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::net::{Ipv4Addr, Ipv6Addr};

use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Namespaces of the existing clusters and of the new ones: byte order is not drawing order.
const OLD_NAMES: [&str; 5] = ["e2", "e10", "ea", "e-b", "ez"];
const NEW_NAMES: [&str; 6] = ["m2", "m10", "alpha", "zeta", "c-1", "c1"];

/// The random choices of a case, taken one after the other from a list of numbers.
struct Draw<'a> {
    nums: &'a [u32],
    at: usize,
}

impl Draw<'_> {
    fn next(&mut self) -> u32 {
        let x = self.nums[self.at % self.nums.len()];
        self.at += 1;
        x
    }
    /// A number below `k` (0 when `k` is 0).
    fn n(&mut self, k: u128) -> u128 {
        let x = u128::from(self.next());
        if k == 0 { 0 } else { x % k }
    }
    /// True with `pct` percent; a zero draws false.
    fn p(&mut self, pct: u32) -> bool {
        let x = self.next() % 100;
        x >= 100 - pct
    }
}

/// One address family of the network: its cidr (`base`/`prefix`) and `blockSize`.
#[derive(Clone, Debug)]
struct Fam {
    v6: bool,
    prefix: u8,
    bs: u8,
}

impl Fam {
    fn width(&self) -> u8 {
        if self.v6 { 128 } else { 32 }
    }
    fn base(&self) -> u128 {
        if self.v6 {
            u128::from(Ipv6Addr::new(0xfd00, 9, 0, 0, 0, 0, 0, 0))
        } else {
            u128::from(u32::from(Ipv4Addr::new(10, 9, 0, 0)))
        }
    }
    /// How many addresses the cidr holds.
    fn n(&self) -> u128 {
        1u128 << (self.width() - self.prefix)
    }
    /// The text of the address at offset `off` from the cidr's first.
    fn text(&self, off: u128) -> String {
        let v = self.base() + off;
        if self.v6 {
            Ipv6Addr::from(v).to_string()
        } else {
            Ipv4Addr::from(u32::try_from(v).expect("IPv4")).to_string()
        }
    }
    fn cidr(&self) -> String {
        format!("{}/{}", self.text(0), self.prefix)
    }
    /// The offset of an address text of this family, if it parses (it may be outside).
    fn off(&self, text: &str) -> Option<i128> {
        let v: u128 = if self.v6 {
            u128::from(text.parse::<Ipv6Addr>().ok()?)
        } else {
            u128::from(u32::from(text.parse::<Ipv4Addr>().ok()?))
        };
        Some(v as i128 - self.base() as i128)
    }
    /// The largest block prefix the config accepts.
    fn max_bs(&self) -> u8 {
        if self.v6 { 126 } else { 30 }
    }
    /// The addresses of a `/size` block.
    fn block_len(&self, size: u8) -> u128 {
        1u128 << (self.width() - size)
    }
}

/// The network's settings for one family.
#[derive(Clone, Debug)]
struct NetFam {
    fam: Fam,
    /// `prefix` (range blocks): the segment's prefix, when written.
    prefix: Option<u8>,
    gateway: Option<u128>,
    dns: Vec<u128>,
    /// `exclude`: (first, last, written as: 0 address, 1 range, 2 cidr).
    exclude: Vec<(u128, u128, u8)>,
}

impl NetFam {
    fn seg_prefix(&self) -> u8 {
        self.prefix.unwrap_or(self.fam.prefix)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Range,
    Subnet,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum HostHas {
    /// An entry; with its claim live in `status.indexes` too when true.
    Entry(bool),
    Pin,
}

/// An existing cluster: its pool has ranges.
#[derive(Clone, Debug)]
struct Old {
    ns: &'static str,
    annotated: bool,
    /// (family index, first, last, the entry's gateway).
    ranges: Vec<(usize, u128, u128, Option<u128>)>,
    /// Range index → prefix, for the ranges written as a `subnet` (as a subnet block is): its
    /// first address is no candidate.
    subnets: BTreeMap<usize, u8>,
    /// `ipreuse.dev/block-index`, which a pool with ranges does not heed.
    block_index: Option<u128>,
    dns: Option<(usize, u128)>,
    /// Host number → what it holds (family index, offset).
    hosts: BTreeMap<usize, (HostHas, usize, u128)>,
    foreign: Vec<(usize, u128)>,
    endpoint: Option<(usize, u128)>,
}

/// A new cluster: its pool asks for blocks.
#[derive(Clone, Debug)]
struct New {
    ns: &'static str,
    index: Option<u128>,
    size: Option<u8>,
    hosts: usize,
    endpoint: Option<(usize, u128)>,
    /// Host number → its pin `ipreuse.dev/ip.prov` (family index, offset).
    pins: BTreeMap<usize, (usize, u128)>,
    /// `spec.prefix` and `spec.gateway` the pool sets already (one family only).
    set_prefix: Option<u8>,
    set_gateway: Option<u128>,
}

#[derive(Clone, Debug)]
struct Case {
    fams: Vec<NetFam>,
    kind: Kind,
    /// `gatewayPolicy` as written, if it is.
    policy: Option<&'static str>,
    /// `reserve`: (family index, first, last).
    reserve: Vec<(usize, u128, u128)>,
    olds: Vec<Old>,
    news: Vec<New>,
    /// A permutation seed for the shuffled run.
    shuffle: Vec<u32>,
    /// How IPv6 control-plane endpoints are spelled: 0 RFC 5952, 1 upper case, 2 every group
    /// written out, 3 with a dotted tail (all the same address).
    spelling: u32,
}

fn pick_names(d: &mut Draw, names: &[&'static str], k: usize) -> Vec<&'static str> {
    let mut left = names.to_vec();
    let mut out = Vec::new();
    for _ in 0..k.min(left.len()) {
        let i = d.n(left.len() as u128) as usize;
        out.push(left.remove(i));
    }
    out
}

fn build(nums: &[u32]) -> Case {
    let mut d = Draw { nums, at: 0 };
    let dual = d.p(25);
    let v6 = !dual && d.p(40);
    let v4fam = || Fam {
        v6: false,
        prefix: 0,
        bs: 0,
    };
    let mut fams: Vec<Fam> = if dual {
        vec![
            v4fam(),
            Fam {
                v6: true,
                ..v4fam()
            },
        ]
    } else {
        vec![Fam { v6, ..v4fam() }]
    };
    for f in &mut fams {
        if f.v6 {
            f.prefix = 120 + d.n(5) as u8;
            let smallest = (f.prefix + 1).max(124);
            f.bs = smallest + d.n(u128::from(127 - smallest)) as u8;
        } else {
            f.prefix = 24 + d.n(3) as u8;
            f.bs = 28 + d.n(3) as u8;
        }
    }
    let kind = if d.p(50) { Kind::Subnet } else { Kind::Range };
    let policy = match kind {
        Kind::Subnet => [None, Some("first"), Some("last"), Some("none")][d.n(4) as usize],
        Kind::Range => d.p(20).then_some("none"),
    };
    let mut net = Vec::new();
    for fam in fams {
        let n = fam.n();
        let (prefix, gateway) = match kind {
            Kind::Range => (
                d.p(30).then(|| fam.prefix - d.n(3) as u8),
                d.p(60).then(|| d.n(n)),
            ),
            Kind::Subnet => (None, None),
        };
        let mut dns = Vec::new();
        for _ in 0..d.n(3) {
            if d.p(50) {
                dns.push(d.n(n));
            }
        }
        let mut exclude = Vec::new();
        for _ in 0..d.n(3) {
            if !d.p(50) {
                continue;
            }
            let form = d.n(3) as u8;
            let a = d.n(n);
            let (lo, hi) = match form {
                0 => (a, a),
                1 => (a, (a + d.n(8)).min(n - 1)),
                _ => {
                    let len = 1u128 << d.n(3);
                    let lo = a / len * len;
                    (lo, lo + len - 1)
                }
            };
            exclude.push((lo, hi, form));
        }
        net.push(NetFam {
            fam,
            prefix,
            gateway,
            dns,
            exclude,
        });
    }
    let mut reserve = Vec::new();
    for _ in 0..d.n(3) {
        if !d.p(50) {
            continue;
        }
        let f = d.n(net.len() as u128) as usize;
        let n = net[f].fam.n();
        let a = d.n(n);
        let b = if d.p(50) { a } else { (a + d.n(6)).min(n - 1) };
        reserve.push((f, a, b));
    }

    // What hosts of the existing clusters must not hold (so that their pools are valid as
    // written): the edges of each cidr, the network's own addresses, reserve, endpoints,
    // gateways and DNS servers, and what another host or claim already holds.
    let mut used: BTreeSet<(usize, u128)> = BTreeSet::new();
    for (f, nf) in net.iter().enumerate() {
        used.insert((f, 0));
        used.insert((f, nf.fam.n() - 1));
        used.extend(nf.gateway.map(|g| (f, g)));
        used.extend(nf.dns.iter().map(|a| (f, *a)));
    }
    for (f, a, b) in &reserve {
        used.extend((*a..=*b).map(|x| (*f, x)));
    }
    let endpoint = |d: &mut Draw, pct: u32, used: &mut BTreeSet<(usize, u128)>| {
        if !d.p(pct) {
            return None;
        }
        let f = d.n(net.len() as u128) as usize;
        let a = d.n(net[f].fam.n());
        used.insert((f, a)).then_some((f, a))
    };
    let n_old = 1 + d.n(5) as usize;
    let mut olds = Vec::new();
    for ns in pick_names(&mut d, &OLD_NAMES, n_old) {
        let annotated = d.p(60);
        let mut ranges = Vec::new();
        let mut subnets = BTreeMap::new();
        for (f, nf) in net.iter().enumerate() {
            if d.p(70) || (f + 1 == net.len() && ranges.is_empty()) {
                let n = nf.fam.n();
                let (start, len) = if d.p(25) {
                    // A subnet of about the block size, aligned: its first address and an
                    // IPv4 subnet's last are reserved in the pool, so no host holds them.
                    let size = (nf.fam.bs + d.n(2) as u8).min(nf.fam.max_bs());
                    let len = nf.fam.block_len(size);
                    let start = d.n(n / len) * len;
                    subnets.insert(ranges.len(), size);
                    used.insert((f, start));
                    if !nf.fam.v6 {
                        used.insert((f, start + len - 1));
                    }
                    (start, len)
                } else {
                    let start = d.n(n);
                    (start, 1 + d.n((n - start).min(n / 16)))
                };
                let gw = d.p(30).then(|| d.n(n));
                ranges.push((f, start, start + len - 1, gw));
            }
        }
        let block_index = d.p(10).then(|| d.n(4));
        let dns = d.p(20).then(|| (0, d.n(net[0].fam.n())));
        let endpoint = endpoint(&mut d, 40, &mut used);
        olds.push(Old {
            ns,
            annotated,
            ranges,
            subnets,
            block_index,
            dns,
            hosts: BTreeMap::new(),
            foreign: Vec::new(),
            endpoint,
        });
    }
    // Gateways and DNS servers that land on something used are left out.
    for o in &mut olds {
        for r in &mut o.ranges {
            if let Some(g) = r.3
                && !used.insert((r.0, g))
            {
                r.3 = None;
            }
        }
        if let Some(a) = o.dns
            && !used.insert(a)
        {
            o.dns = None;
        }
    }
    let n_new = 1 + d.n(4) as usize;
    let new_names = pick_names(&mut d, &NEW_NAMES, n_new);
    let mut news = Vec::new();
    for ns in new_names {
        let f0 = &net[0].fam;
        let size = (!dual && d.p(20))
            .then(|| f0.prefix + d.n(u128::from(f0.max_bs() - f0.prefix + 1)) as u8);
        let count = 1u128 << (size.unwrap_or(f0.bs) - f0.prefix);
        let index = d.p(15).then(|| d.n(count + 2));
        let hosts = d.n(5) as usize;
        let endpoint = endpoint(&mut d, 30, &mut used);
        news.push(New {
            ns,
            index,
            size,
            hosts,
            endpoint,
            pins: BTreeMap::new(),
            set_prefix: None,
            set_gateway: None,
        });
    }
    // The existing clusters' hosts and claims, each on an address of its pool's ranges that
    // nothing holds yet (or left out).
    for o in &mut olds {
        let draw_in = |d: &mut Draw, ranges: &[(usize, u128, u128, Option<u128>)]| {
            let (f, lo, hi, _) = ranges[d.n(ranges.len() as u128) as usize];
            (f, lo + d.n(hi - lo + 1))
        };
        for h in 0..d.n(5) as usize {
            let has = if d.p(30) {
                HostHas::Pin
            } else {
                HostHas::Entry(d.p(40))
            };
            let (f, a) = draw_in(&mut d, &o.ranges);
            if used.insert((f, a)) {
                o.hosts.insert(h, (has, f, a));
            }
        }
        for _ in 0..d.n(3) {
            let (f, a) = draw_in(&mut d, &o.ranges);
            if used.insert((f, a)) {
                o.foreign.push((f, a));
            }
        }
    }
    let shuffle = (0..12).map(|_| d.next()).collect();
    let mut c = Case {
        fams: net,
        kind,
        policy,
        reserve,
        olds,
        news,
        shuffle,
        spelling: 0,
    };
    // Some hosts of the new pools are pinned: mostly to an address of the block the pool gets
    // (a pin of a pool that asks is not part of what the blocks avoid, so the blocks are the
    // same with the pins), else anywhere in the network.
    let blocks = c.oracle_blocks().unwrap_or_default();
    // Some new pools of a one-family network already set the prefix (or, with range blocks,
    // the gateway) their block comes with, mostly the same, sometimes another.
    if c.fams.len() == 1 {
        for i in 0..c.news.len() {
            if d.p(15) {
                let want = match c.kind {
                    Kind::Range => c.fams[0].seg_prefix(),
                    Kind::Subnet => c.size_of(&c.news[i], 0),
                };
                c.news[i].set_prefix = Some(if d.p(70) { want } else { want - 1 });
            }
            if c.kind == Kind::Range
                && let Some(g) = c.fams[0].gateway
                && d.p(15)
            {
                c.news[i].set_gateway = Some(if d.p(70) {
                    g
                } else {
                    (g + 1) % c.fams[0].fam.n()
                });
            }
        }
    }
    for i in 0..c.news.len() {
        for h in 0..c.news[i].hosts {
            if !d.p(12) {
                continue;
            }
            let mine = blocks.get(c.news[i].ns).filter(|b| !b.is_empty());
            let pin = match mine {
                Some(b) if d.p(80) => {
                    let (f, lo, hi, _) = b[d.n(b.len() as u128) as usize];
                    (f, lo + d.n(hi - lo + 1))
                }
                _ => {
                    let f = d.n(c.fams.len() as u128) as usize;
                    (f, d.n(c.fams[f].fam.n()))
                }
            };
            c.news[i].pins.insert(h, pin);
        }
    }
    if d.p(30) {
        c.spelling = 1 + d.n(3) as u32;
    }
    c
}

fn case() -> impl Strategy<Value = Case> {
    proptest::collection::vec(any::<u32>(), 160).prop_map(|v| build(&v))
}

/// `doc` with the annotations under its metadata.
fn annotate(doc: String, annotations: &[(String, String)]) -> String {
    if annotations.is_empty() {
        return doc;
    }
    let lines: String = annotations
        .iter()
        .map(|(k, v)| format!("    {k}: \"{v}\"\n"))
        .collect();
    doc.replacen(
        "metadata:\n",
        &format!("metadata:\n  annotations:\n{lines}"),
        1,
    )
}

fn net_annotation() -> (String, String) {
    ("ipreuse.dev/network".into(), "prov".into())
}

/// One block a new pool gets: family index, first and last offset, prefix length.
type Block = (usize, u128, u128, u8);

/// What a block's pool gets written beside it: prefix, gateway and DNS servers (offsets).
type Fields = (u8, Option<u128>, Vec<u128>);

/// What the oracle says a run gives: each new pool's blocks and entries, by namespace.
type Given = BTreeMap<&'static str, (Vec<Block>, Vec<(String, u128, usize)>)>;

impl Case {
    fn text(&self, f: usize, off: u128) -> String {
        self.fams[f].fam.text(off)
    }

    /// An endpoint's text, double-quoted, in the case's spelling.
    fn endpoint_text(&self, f: usize, off: u128) -> String {
        let fam = &self.fams[f].fam;
        if !fam.v6 {
            return self.quoted(f, off);
        }
        let a = Ipv6Addr::from(fam.base() + off);
        let g = a.segments();
        let text = match self.spelling {
            1 => a.to_string().to_uppercase(),
            2 => g.map(|x| format!("{x:04x}")).join(":"),
            3 => {
                let v4 =
                    Ipv4Addr::from(u32::try_from((fam.base() + off) & 0xffff_ffff).unwrap_or(0));
                let head: Vec<String> = g[..6].iter().map(|x| format!("{x:x}")).collect();
                format!("{}:{v4}", head.join(":"))
            }
            _ => a.to_string(),
        };
        format!("\"{text}\"")
    }

    /// The text double-quoted, for the fields the builders write plain (`fd00:9::` ends in a
    /// colon).
    fn quoted(&self, f: usize, off: u128) -> String {
        format!("\"{}\"", self.text(f, off))
    }

    fn range_text(&self, f: usize, lo: u128, hi: u128, form: u8) -> String {
        let fam = &self.fams[f].fam;
        match form {
            0 => fam.text(lo),
            2 => format!(
                "{}/{}",
                fam.text(lo),
                fam.width() - (hi - lo + 1).trailing_zeros() as u8
            ),
            _ => format!("{}-{}", fam.text(lo), fam.text(hi)),
        }
    }

    fn cfg(&self) -> Value {
        let dual = self.fams.len() == 2;
        let mut networks = Vec::new();
        for (f, nf) in self.fams.iter().enumerate() {
            let mut e = json!({"name": "prov", "cidr": nf.fam.cidr()});
            e["blockSize"] = if dual {
                json!({"ipv4": self.fams[0].fam.bs, "ipv6": self.fams[1].fam.bs})
            } else {
                json!(nf.fam.bs)
            };
            e["blockKind"] = json!(match self.kind {
                Kind::Range => "range",
                Kind::Subnet => "subnet",
            });
            if let Some(p) = self.policy {
                e["gatewayPolicy"] = json!(p);
            }
            if let Some(p) = nf.prefix {
                e["prefix"] = json!(p);
            }
            if let Some(g) = nf.gateway {
                e["gateway"] = json!(self.text(f, g));
            }
            if !nf.dns.is_empty() {
                e["dnsServers"] =
                    json!(nf.dns.iter().map(|a| self.text(f, *a)).collect::<Vec<_>>());
            }
            if !nf.exclude.is_empty() {
                e["exclude"] = json!(
                    nf.exclude
                        .iter()
                        .map(|(lo, hi, form)| self.range_text(f, *lo, *hi, *form))
                        .collect::<Vec<_>>()
                );
            }
            networks.push(e);
        }
        let reserve: Vec<String> = self
            .reserve
            .iter()
            .map(|(f, a, b)| self.range_text(*f, *a, *b, if a == b { 0 } else { 1 }))
            .collect();
        config(json!({"networks": networks, "reserve": reserve, "controllerFlag": false}))
    }

    fn docs(&self) -> Vec<String> {
        let mut docs = Vec::new();
        for o in &self.olds {
            let mut p = pool("prov", o.ns);
            for (i, (f, lo, hi, gw)) in o.ranges.iter().enumerate() {
                let fam = &self.fams[*f].fam;
                let mut r = match o.subnets.get(&i) {
                    Some(size) => {
                        subnet(&format!("\"{}/{size}\"", fam.text(*lo))).prefix(u32::from(*size))
                    }
                    None => range(&self.quoted(*f, *lo), &self.quoted(*f, *hi))
                        .prefix(u32::from(fam.prefix)),
                };
                if let Some(g) = gw {
                    r = r.gateway(&self.quoted(*f, *g));
                }
                p = p.range(r);
            }
            if let Some((f, a)) = o.dns {
                p = p.dns(&self.quoted(f, a));
            }
            for (h, (has, f, a)) in &o.hosts {
                if let HostHas::Entry(live) = has {
                    p = p.entry(&format!("h{h}-prov"), &self.text(*f, *a));
                    if *live {
                        p = p.live(&format!("h{h}-prov"), &self.quoted(*f, *a));
                    }
                }
            }
            for (k, (f, a)) in o.foreign.iter().enumerate() {
                p = p.live(&format!("legacy-{k}"), &self.quoted(*f, *a));
            }
            let mut ann = if o.annotated {
                vec![net_annotation()]
            } else {
                vec![]
            };
            if let Some(i) = o.block_index {
                ann.push(("ipreuse.dev/block-index".into(), i.to_string()));
            }
            docs.push(annotate(p.yaml(), &ann));
            if let Some((f, a)) = o.endpoint {
                docs.push(cluster("cl", o.ns, &self.endpoint_text(f, a)));
            }
            for (h, (has, f, a)) in &o.hosts {
                let mut y = host(&format!("h{h}"), o.ns);
                if *has == HostHas::Pin {
                    y = y.pin("prov", &self.text(*f, *a));
                }
                docs.push(y.yaml());
            }
        }
        for n in &self.news {
            let mut ann = vec![net_annotation()];
            if let Some(i) = n.index {
                ann.push(("ipreuse.dev/block-index".into(), i.to_string()));
            }
            if let Some(s) = n.size {
                ann.push(("ipreuse.dev/block-size".into(), s.to_string()));
            }
            let mut p = pool("prov", n.ns);
            if let Some(x) = n.set_prefix {
                p = p.prefix(u32::from(x));
            }
            if let Some(g) = n.set_gateway {
                p = p.gateway(&self.quoted(0, g));
            }
            docs.push(annotate(p.yaml(), &ann));
            if let Some((f, a)) = n.endpoint {
                docs.push(cluster("cl", n.ns, &self.endpoint_text(f, a)));
            }
            for h in 0..n.hosts {
                let mut y = host(&format!("n{h}"), n.ns);
                if let Some((f, a)) = n.pins.get(&h) {
                    y = y.pin("prov", &self.text(*f, *a));
                }
                docs.push(y.yaml());
            }
        }
        docs
    }

    /// Per family, every offset of the cidr that no block may meet (the listing).
    fn marked(&self) -> Vec<BTreeSet<u128>> {
        let mut out: Vec<BTreeSet<u128>> = vec![BTreeSet::new(); self.fams.len()];
        for o in &self.olds {
            for (i, (f, lo, hi, gw)) in o.ranges.iter().enumerate() {
                // A subnet's candidates start after its first address.
                let first = if o.subnets.contains_key(&i) {
                    lo + 1
                } else {
                    *lo
                };
                out[*f].extend(first..=*hi);
                out[*f].extend(*gw);
            }
            if let Some((f, a)) = o.dns {
                out[f].insert(a);
            }
            for (_, f, a) in o.hosts.values() {
                out[*f].insert(*a);
            }
            for (f, a) in &o.foreign {
                out[*f].insert(*a);
            }
        }
        for (f, a) in self
            .olds
            .iter()
            .filter_map(|o| o.endpoint)
            .chain(self.news.iter().filter_map(|n| n.endpoint))
        {
            out[f].insert(a);
        }
        for (f, a, b) in &self.reserve {
            out[*f].extend(*a..=*b);
        }
        for (f, nf) in self.fams.iter().enumerate() {
            for (lo, hi, _) in &nf.exclude {
                out[f].extend(*lo..=*hi);
            }
            if self.kind == Kind::Range {
                out[f].extend(nf.gateway);
                out[f].extend(nf.dns.iter().copied());
                // The segment's network address is the cidr's first (10.9.0.0 and fd00:9::
                // are aligned far beyond any prefix drawn, all of them at most IPv4 /30 and
                // IPv6 /126, where the pools reserve it). Its broadcast address, IPv4 only (an
                // IPv6 segment has none), may be past the cidr.
                out[f].insert(0);
                let seg_last = nf.fam.block_len(nf.seg_prefix()) - 1;
                if !nf.fam.v6 && seg_last < nf.fam.n() {
                    out[f].insert(seg_last);
                }
            }
        }
        out
    }

    /// The new pools in the order they ask: byte order of namespace (all are named `prov`).
    fn asking(&self) -> Vec<&New> {
        let mut v: Vec<&New> = self.news.iter().collect();
        v.sort_by(|a, b| a.ns.as_bytes().cmp(b.ns.as_bytes()));
        v
    }

    /// The block size a pool asks for in family `f`.
    fn size_of(&self, n: &New, f: usize) -> u8 {
        n.size.unwrap_or(self.fams[f].fam.bs)
    }

    /// The oracle's blocks: per family, every index pin first, then the lowest free block, in
    /// asking order; `None` when some pool gets none.
    fn oracle_blocks(&self) -> Option<BTreeMap<&'static str, Vec<Block>>> {
        let marked = self.marked();
        let mut out: BTreeMap<&'static str, Vec<Block>> = BTreeMap::new();
        let asking = self.asking();
        for (f, nf) in self.fams.iter().enumerate() {
            let fam = &nf.fam;
            let mut given: Vec<(u128, u128)> = Vec::new();
            let free = |lo: u128, hi: u128, given: &[(u128, u128)]| {
                (lo..=hi).all(|a| !marked[f].contains(&a))
                    && given.iter().all(|(l, h)| hi < *l || *h < lo)
            };
            let pinned = asking.iter().filter(|n| n.index.is_some());
            let lowest = asking.iter().filter(|n| n.index.is_none());
            for n in pinned.chain(lowest) {
                let size = self.size_of(n, f);
                let len = fam.block_len(size);
                let count = fam.n() / len;
                let index = match n.index {
                    Some(i) => {
                        let ok = i < count && free(i * len, i * len + len - 1, &given);
                        ok.then_some(i)?
                    }
                    None => (0..count).find(|i| free(i * len, i * len + len - 1, &given))?,
                };
                let (lo, hi) = (index * len, index * len + len - 1);
                given.push((lo, hi));
                out.entry(n.ns).or_default().push((f, lo, hi, size));
            }
        }
        Some(out)
    }

    /// What a block's pool gets written: (prefix, gateway, DNS servers), as offsets.
    fn fields(&self, b: &Block) -> Fields {
        let (f, lo, hi, size) = *b;
        let nf = &self.fams[f];
        match self.kind {
            Kind::Range => (nf.seg_prefix(), nf.gateway, nf.dns.clone()),
            Kind::Subnet => {
                // The first or last usable address of the subnet. The IPAM keeps an IPv4
                // subnet's broadcast address from hosts; an IPv6 subnet has none, so its last
                // address is usable.
                let gw = match self.policy {
                    None | Some("first") => Some(lo + 1),
                    Some("last") if nf.fam.v6 => Some(hi),
                    Some("last") => Some(hi - 1),
                    _ => None,
                };
                (size, gw, nf.dns.clone())
            }
        }
    }

    /// The addresses a new pool's hosts can take, in walk order: its blocks' candidates less
    /// what is reserved in it (its gateway and DNS servers, a subnet's network and IPv4
    /// broadcast address); nothing else of the network is inside its blocks.
    fn usable(&self, blocks: &[Block]) -> Vec<(usize, u128)> {
        let mut out = Vec::new();
        for b in blocks {
            let (f, lo, hi, _) = *b;
            let (_, gw, dns) = self.fields(b);
            let first = match self.kind {
                Kind::Range => lo,
                Kind::Subnet => lo + 1,
            };
            for a in first..=hi {
                let broadcast = self.kind == Kind::Subnet && !self.fams[f].fam.v6 && a == hi;
                if !broadcast && gw != Some(a) && !dns.contains(&a) {
                    out.push((f, a));
                }
            }
        }
        out
    }

    /// The whole oracle: each new pool's blocks and its hosts' entries (key, offset, family),
    /// or `None` when the run must fail.
    fn oracle(&self) -> Option<Given> {
        let blocks = self.oracle_blocks()?;
        let mut out = Given::new();
        for n in &self.news {
            let b = blocks.get(n.ns).cloned().unwrap_or_default();
            // A field the pool sets already must be the one its block comes with.
            if let Some(first) = b.first() {
                let (prefix, gateway, _) = self.fields(first);
                if n.set_prefix.is_some_and(|x| x != prefix)
                    || n.set_gateway.is_some_and(|g| Some(g) != gateway)
                {
                    return None;
                }
            }
            let usable = self.usable(&b);
            // A pin must be an address the pool can hand out, held by no other pin.
            let pinned: BTreeSet<(usize, u128)> = n.pins.values().copied().collect();
            if pinned.len() < n.pins.len() || !pinned.iter().all(|p| usable.contains(p)) {
                return None;
            }
            let mut free = usable.iter().filter(|a| !pinned.contains(a));
            let mut entries = Vec::new();
            for h in 0..n.hosts {
                let (f, a) = match n.pins.get(&h) {
                    Some(p) => *p,
                    None => *free.next()?,
                };
                entries.push((format!("n{h}-prov"), a, f));
            }
            out.insert(n.ns, (b, entries));
        }
        Some(out)
    }

    /// The family and offset of an address text of the network.
    fn parse(&self, text: &str) -> Option<(usize, u128)> {
        self.fams.iter().enumerate().find_map(|(f, nf)| {
            let off = nf.fam.off(text)?;
            (0..nf.fam.n() as i128)
                .contains(&off)
                .then_some((f, off as u128))
        })
    }
}

/// The documents of the output, by (kind, namespace, name).
fn items(text: &str) -> BTreeMap<(String, String, String), Value> {
    json_docs(text)
        .into_iter()
        .map(|d| {
            let key = (
                d["kind"].as_str().unwrap_or_default().to_string(),
                d["metadata"]["namespace"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                d["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            );
            (key, d)
        })
        .collect()
}

fn key(kind: &str, ns: &str, name: &str) -> (String, String, String) {
    (kind.into(), ns.into(), name.into())
}

/// A JSON string field as text ("" when absent).
fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn show(c: &Case, docs: &[String]) -> String {
    format!(
        "config: {}\ninput:\n{}",
        serde_json::to_string(&c.cfg()["spec"]).unwrap_or_default(),
        stream(docs)
    )
}

/// The blocks written into a new pool's `spec.pools`, read back from the output, with the
/// fields written beside each (top level for one family, per entry for two).
fn written_blocks(c: &Case, p: &Value) -> Result<Vec<(Block, Fields)>, TestCaseError> {
    let spec = &p["spec"];
    let list = spec["pools"].as_array().cloned().unwrap_or_default();
    prop_assert_eq!(list.len(), c.fams.len(), "one block per family: {}", p);
    let mut out = Vec::new();
    for (f, e) in list.iter().enumerate() {
        let fam = &c.fams[f].fam;
        let (lo, hi, size) = match c.kind {
            Kind::Range => {
                prop_assert!(e.get("subnet").is_none(), "{}", e);
                let lo = c.parse(s(&e["start"]));
                let hi = c.parse(s(&e["end"]));
                prop_assert!(
                    lo.is_some_and(|x| x.0 == f) && hi.is_some_and(|x| x.0 == f),
                    "block {} outside cidr {}",
                    e,
                    fam.cidr()
                );
                let (lo, hi) = (lo.unwrap_or_default().1, hi.unwrap_or_default().1);
                prop_assert!(lo <= hi, "{}", e);
                let len = hi - lo + 1;
                prop_assert!(len.is_power_of_two(), "not a block: {}", e);
                (lo, hi, fam.width() - len.trailing_zeros() as u8)
            }
            Kind::Subnet => {
                prop_assert!(e.get("start").is_none() && e.get("end").is_none(), "{}", e);
                let text = s(&e["subnet"]);
                let (addr, size) = text.split_once('/').unwrap_or((text, ""));
                let size: u8 = size.parse().unwrap_or(0);
                let lo = c.parse(addr);
                prop_assert!(
                    lo.is_some_and(|x| x.0 == f) && size >= fam.prefix && size <= fam.width(),
                    "subnet {} outside cidr {}",
                    text,
                    fam.cidr()
                );
                let lo = lo.unwrap_or_default().1;
                (lo, lo + fam.block_len(size) - 1, size)
            }
        };
        prop_assert!(hi < fam.n(), "block {} past the cidr {}", e, fam.cidr());
        prop_assert_eq!(lo % fam.block_len(size), 0, "block {} not aligned", e);
        let at = if c.fams.len() == 1 { spec } else { e };
        let addr = |v: &Value| c.parse(s(v)).map(|x| x.1);
        let prefix = at["prefix"].as_u64().unwrap_or(0) as u8;
        let gateway = at.get("gateway").and_then(addr);
        prop_assert_eq!(
            at.get("gateway").is_some(),
            gateway.is_some(),
            "gateway not of the network: {}",
            at
        );
        let dns: Vec<u128> = at["dnsServers"]
            .as_array()
            .map(|l| l.iter().filter_map(addr).collect())
            .unwrap_or_default();
        out.push(((f, lo, hi, size), (prefix, gateway, dns)));
    }
    Ok(out)
}

proptest! {
    #![proptest_config(pt_config(128))]

    #[test]
    fn blocks_and_entries_are_the_oracles(c in case()) {
        let docs = c.docs();
        let cfg = c.cfg();
        let o = run_docs(&docs, Some(&cfg));
        let want = c.oracle();
        let Some(want) = want else {
            prop_assert!(!errors(&o).is_empty(), "the oracle fails, the run did not:\n{}\n{}", dump(&o), show(&c, &docs));
            prop_assert_eq!(&o.outputs, &vec![stream(&docs)]);
            return Ok(());
        };
        prop_assert!(errors(&o).is_empty(), "the oracle gives {:?}:\n{}\n{}", want, dump(&o), show(&c, &docs));
        let out = items(&o.outputs.concat());
        let inp = items(&stream(&docs));
        prop_assert_eq!(out.len(), inp.len());
        let marked = c.marked();
        // Every block given, for the pairwise check: (namespace, block).
        let mut all_blocks: Vec<(&str, Block)> = Vec::new();
        for n in &c.news {
            let p = &out[&key("IPPool", n.ns, "prov")];
            let (blocks, entries) = &want[n.ns];
            let got = written_blocks(&c, p)?;
            let got_blocks: Vec<Block> = got.iter().map(|(b, _)| *b).collect();
            prop_assert_eq!(&got_blocks, blocks, "{}: blocks\n{}", n.ns, show(&c, &docs));
            for (b, fields) in &got {
                let (f, lo, hi, size) = *b;
                prop_assert_eq!(size, c.size_of(n, f), "{}: block size", n.ns);
                for a in lo..=hi {
                    prop_assert!(!marked[f].contains(&a), "{}: block {:?} meets {}", n.ns, b, c.text(f, a));
                }
                prop_assert_eq!(fields, &c.fields(b), "{}: prefix, gateway, DNS servers", n.ns);
                all_blocks.push((n.ns, *b));
            }
            // The hosts' entries, exactly (values compared as addresses).
            let got_entries: Vec<(String, Option<(usize, u128)>)> = p["spec"]["preAllocations"]
                .as_object()
                .map(|m| m.iter().map(|(k, v)| (k.clone(), c.parse(s(v)))).collect())
                .unwrap_or_default();
            let want_entries: Vec<(String, Option<(usize, u128)>)> = entries
                .iter()
                .map(|(k, a, f)| (k.clone(), Some((*f, *a))))
                .collect();
            let mut got_sorted = got_entries.clone();
            got_sorted.sort();
            prop_assert_eq!(got_sorted, want_entries, "{}: entries", n.ns);
        }
        for (i, (ns1, b1)) in all_blocks.iter().enumerate() {
            for (ns2, b2) in &all_blocks[i + 1..] {
                prop_assert!(
                    b1.0 != b2.0 || b1.2 < b2.1 || b2.2 < b1.1,
                    "{} and {} got meeting blocks {:?} {:?}", ns1, ns2, b1, b2
                );
            }
        }
        // The pools with ranges keep their spec; the only entries added are their pins.
        for o_ in &c.olds {
            let k = key("IPPool", o_.ns, "prov");
            let (mut before, mut after) = (inp[&k].clone(), out[&k].clone());
            let pre_before = before["spec"].as_object_mut().and_then(|m| m.remove("preAllocations"));
            let pre_after = after["spec"].as_object_mut().and_then(|m| m.remove("preAllocations"));
            prop_assert_eq!(&before, &after, "{}: the pool with ranges changed", o_.ns);
            let mut want_pre: BTreeMap<String, (usize, u128)> = BTreeMap::new();
            for (h, (_, f, a)) in &o_.hosts {
                want_pre.insert(format!("h{h}-prov"), (*f, *a));
            }
            let got_pre: BTreeMap<String, (usize, u128)> = pre_after
                .as_ref()
                .and_then(Value::as_object)
                .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), c.parse(s(v))?))).collect())
                .unwrap_or_default();
            prop_assert_eq!(&got_pre, &want_pre, "{}: entries", o_.ns);
            prop_assert_eq!(
                pre_after.as_ref().and_then(Value::as_object).map_or(0, |m| m.len()),
                want_pre.len()
            );
            // The entries it had are kept as they were written.
            if let (Some(b), Some(a)) = (pre_before.as_ref().and_then(Value::as_object), pre_after.as_ref().and_then(Value::as_object)) {
                for (k, v) in b {
                    prop_assert_eq!(Some(v), a.get(k), "{}: entry {} changed", o_.ns, k);
                }
            }
        }
        // Hosts and Clusters are never changed.
        for (k, v) in &inp {
            if k.0 != "IPPool" {
                prop_assert_eq!(Some(v), out.get(k), "{:?} changed", k);
            }
        }
        // One address, one host, in the whole network.
        let mut seen: BTreeMap<(usize, u128), String> = BTreeMap::new();
        for ((kind, ns, _), d) in &out {
            if kind != "IPPool" {
                continue;
            }
            for (k, v) in d["spec"]["preAllocations"].as_object().into_iter().flatten() {
                let a = c.parse(s(v));
                prop_assert!(a.is_some(), "{}/{}: {} outside the network", ns, k, v);
                let who = format!("{ns}/{k}");
                if let Some(a) = a
                    && let Some(other) = seen.insert(a, who.clone())
                {
                    prop_assert!(false, "{} is the entry of {} and {}", v, other, who);
                }
            }
        }
    }

    #[test]
    fn independent_of_order_and_stable(c in case()) {
        let docs = c.docs();
        let cfg = c.cfg();
        let o = run_docs(&docs, Some(&cfg));
        // The same documents in another order (a permutation drawn from the case).
        let mut shuffled = docs.clone();
        for (i, x) in c.shuffle.iter().enumerate() {
            let n = shuffled.len();
            shuffled.swap(i % n, *x as usize % n);
        }
        let o2 = run_docs(&shuffled, Some(&cfg));
        prop_assert_eq!(
            errors(&o).is_empty(),
            errors(&o2).is_empty(),
            "one order fails, the other not:\n{}\n--\n{}\n{}", dump(&o), dump(&o2), show(&c, &docs)
        );
        prop_assert_eq!(
            items(&o.outputs.concat()),
            items(&o2.outputs.concat()),
            "the shuffled input gives other items\n{}", show(&c, &docs)
        );
        if !errors(&o).is_empty() {
            return Ok(());
        }
        // A second run on the output changes nothing.
        let text = o.outputs.concat();
        let again = run_text(&text, Some(&cfg));
        prop_assert!(errors(&again).is_empty(), "the second run fails:\n{}\n{}", dump(&again), text);
        prop_assert_eq!(&again.outputs, &vec![text.clone()], "the second run changes the output");
        prop_assert!(again.changed.iter().all(|x| !x));
    }
}

/// What the endpoint spellings of the properties found: a control-plane endpoint written as an
/// IPv6 address with a dotted tail (`fd00:9::0.0.0.1` is `fd00:9::1`) was reserved nowhere, so
/// the new pool's block held it and its host was given it.
#[test]
fn an_ipv6_endpoint_with_a_dotted_tail_is_avoided_by_blocks_and_hosts() {
    let cfg = config(json!({
        "controllerFlag": false,
        "networks": [{"name": "prov", "cidr": "fd00:9::/124", "blockSize": 126,
                      "blockKind": "subnet", "gatewayPolicy": "none"}],
    }));
    let docs = vec![
        annotate(pool("prov", "a").yaml(), &[net_annotation()]),
        cluster("cl", "a", "\"fd00:9::0.0.0.1\""),
        host("n0", "a").yaml(),
    ];
    let o = run_docs(&docs, Some(&cfg));
    assert!(errors(&o).is_empty(), "{}", dump(&o));
    let out = items(&o.outputs.concat());
    let p = &out[&key("IPPool", "a", "prov")];
    assert_eq!(p["spec"]["pools"][0]["subnet"], "fd00:9::4/126", "{p}");
    assert_eq!(p["spec"]["preAllocations"]["n0-prov"], "fd00:9::5", "{p}");
}
