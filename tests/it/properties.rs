//! Issue 9, acceptance line 4: property tests over GENERATED packages. Each case draws 1–3
//! namespaces, 1–4 IPPools each (IPv4 or IPv6; `start`/`end`, `subnet`, or `start` inside a
//! `subnet`; 1–64 addresses an entry; pool and entry prefixes, gateways inside or outside the
//! ranges, a DNS server; valid `spec.preAllocations` already present), 0–30 BareMetalHosts with
//! random names, the config's `reserve` and a Cluster's control-plane endpoint, under each of
//! three mappings: the default (`all`, as `auto` reads a namespace without templates),
//! `mapping: templates` (Metal3MachineTemplates and Metal3DataTemplates generated with the
//! hosts' roles) and `strategy: ordinal`.
//!
//! The expectations come from an oracle written here from the pool specs the test itself wrote,
//! rule by rule from docs/behaviour.md ("Which addresses a pool can hand out"), never from the
//! crate's allocator: the candidates (the IPAM walk), the reserved addresses (rules 1–4), what
//! other pools hold, and, for `ordinal`, the exact address of each host. The output is read back
//! with an independent YAML parser (`serde-saphyr`, tests/it/common).
//!
//! Properties, each a test per mapping (`all::…`, `templates::…`, `ordinal::…`):
//! 1–2. `fills_unique_free_candidates`: no address twice in a pool; every added entry is the
//!      required `{host}-{pool}` and a candidate of its pool, neither reserved nor taken; existing
//!      entries untouched. When a pool cannot hold its hosts the run must fail, cleanly, naming
//!      the pool (or, under ordinal, the host), and the oracle says when it must and may.
//! 3.   `independent_of_item_order`: shuffled items come out byte-identical, same results.
//! 4.   `idempotent`: a second run on the output changes nothing, byte for byte.
//! 5.   `stable_when_hosts_are_added`: hosts added to the filled package never move an entry.
//! 6.   `transactional_on_error`: an injected bad entry (a duplicate, an address outside the
//!      pool, a host's entry on a reserved address) fails the run with exit 1 through the
//!      binary, items unchanged, the error at that entry; through the library every source
//!      comes back byte for byte.
//!
//! Case counts are modest (48 per test); failure persistence is off so that nothing is written
//! into the repository. `PROPTEST_RNG_SEED` (set by `.ci/run`) makes a run reproducible.

use crate::common;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use common::*;
use ipreuse::results::Severity;
use ipreuse::run::Outcome;
use proptest::prelude::*;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/// An address of either family, as its integer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct A {
    v6: bool,
    n: u128,
}

impl A {
    fn bits(self) -> u32 {
        if self.v6 { 128 } else { 32 }
    }
    fn plus(self, k: u128) -> A {
        A {
            v6: self.v6,
            n: self.n + k,
        }
    }
    /// The first address of the `/p` network holding `self`.
    fn network(self, p: u8) -> A {
        let host = self.bits() - u32::from(p);
        let mask = if host == 0 { 0 } else { (1u128 << host) - 1 };
        A {
            v6: self.v6,
            n: self.n & !mask,
        }
    }
    /// The last address of the `/p` network holding `self`.
    fn last(self, p: u8) -> A {
        let host = self.bits() - u32::from(p);
        let mask = if host == 0 { 0 } else { (1u128 << host) - 1 };
        A {
            v6: self.v6,
            n: self.n | mask,
        }
    }
    /// Canonical text: dotted IPv4, RFC 5952 IPv6 (what Rust's `Display` writes).
    fn text(self) -> String {
        if self.v6 {
            Ipv6Addr::from(self.n).to_string()
        } else {
            Ipv4Addr::from(u32::try_from(self.n).expect("an IPv4 value")).to_string()
        }
    }
    fn quoted(self) -> String {
        format!("\"{}\"", self.text())
    }
    fn parse(s: &str) -> A {
        match s.parse::<IpAddr>() {
            Ok(IpAddr::V4(a)) => A {
                v6: false,
                n: u128::from(u32::from(a)),
            },
            Ok(IpAddr::V6(a)) => A {
                v6: true,
                n: u128::from(a),
            },
            Err(_) => panic!("{s:?} in the output is not an IP address"),
        }
    }
}

/// The base of namespace `i`'s addresses: 10.i.0.0 or fd00:0:0:i::. All generated addresses are
/// base + a few hundred, so pools of one namespace overlap often and namespaces never.
fn base(v6: bool, i: usize) -> A {
    if v6 {
        A {
            v6,
            n: (0xfd00u128 << 112) | ((i as u128) << 64),
        }
    } else {
        A {
            v6,
            n: (10u128 << 24) | ((i as u128) << 16),
        }
    }
}

const V4_PREFIXES: [u8; 7] = [24, 26, 28, 29, 30, 31, 32];
const V6_PREFIXES: [u8; 6] = [64, 120, 124, 126, 127, 128];

/// Half the picks the common /24 or /64, the other half any of the list.
fn prefix_of(v6: bool, pick: u8) -> u8 {
    let pick = pick.saturating_sub(128);
    if v6 {
        V6_PREFIXES[usize::from(pick) % V6_PREFIXES.len()]
    } else {
        V4_PREFIXES[usize::from(pick) % V4_PREFIXES.len()]
    }
}

// ---------------------------------------------------------------------------------------------
// What the strategy draws (raw numbers), and the package built from it
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// No `mapping` in the config: `auto`, which is `all` without templates in the input.
    All,
    /// `mapping: templates`, with generated Metal3MachineTemplates and Metal3DataTemplates.
    Templates,
    /// `strategy: ordinal` (mapping as in `All`).
    Ordinal,
}

#[derive(Clone, Debug)]
struct RawEntry {
    /// 0: start..end; 1: subnet only; 2: start inside (or just past) a subnet, maybe an end.
    kind: u8,
    at: u16,
    len: u8,
    /// log2 of the subnet's size (0..=6: /32../26, /128../122).
    size_log: u8,
    written: u8,
    end_cut: Option<u8>,
    prefix: Option<u8>,
    gateway: Option<u16>,
}

#[derive(Clone, Debug)]
struct RawPool {
    v6: bool,
    entries: Vec<RawEntry>,
    prefix: Option<u8>,
    gateway: Option<u16>,
    dns: Option<u16>,
    /// Existing entries: (key pick, address pick) among the valid free candidates.
    pre: Vec<(u8, u16)>,
}

#[derive(Clone, Debug)]
struct RawNs {
    pools: Vec<RawPool>,
    /// Host names (`all`, `templates`) or numbers (`ordinal`), with a flag: added later.
    hosts: Vec<(String, bool)>,
    /// Per host: the role (template index; past the templates: a spare host).
    roles: Vec<u8>,
    /// Per template: which pools its data template references.
    templates: Vec<Vec<bool>>,
    endpoint: Option<(bool, u16)>,
}

#[derive(Clone, Debug)]
struct Raw {
    namespaces: Vec<RawNs>,
    /// (namespace, v6, first offset, length - 1): `reserve` items of the config.
    reserve: Vec<(u8, bool, u16, u8)>,
    offset: u8,
}

fn raw_entry() -> impl Strategy<Value = RawEntry> {
    (
        0u8..3,
        0u16..160,
        // 1–64 addresses, most entries large enough for the hosts of a namespace.
        prop_oneof![1 => 1u8..=64, 2 => 40u8..=64],
        prop_oneof![1 => 0u8..=6, 2 => Just(6u8)],
        any::<u8>(),
        proptest::option::of(0u8..70),
        proptest::option::weighted(0.4, any::<u8>()),
        proptest::option::weighted(0.2, 0u16..260),
    )
        .prop_map(
            |(kind, at, len, size_log, written, end_cut, prefix, gateway)| RawEntry {
                kind,
                at,
                len,
                size_log,
                written,
                end_cut,
                prefix,
                gateway,
            },
        )
}

fn raw_pool() -> impl Strategy<Value = RawPool> {
    (
        any::<bool>(),
        proptest::collection::vec(raw_entry(), 1..=2),
        proptest::option::weighted(0.6, any::<u8>()),
        proptest::option::weighted(0.5, 0u16..260),
        proptest::option::weighted(0.3, 0u16..260),
        proptest::collection::vec((any::<u8>(), any::<u16>()), 0..4),
    )
        .prop_map(|(v6, entries, prefix, gateway, dns, pre)| RawPool {
            v6,
            entries,
            prefix,
            gateway,
            dns,
            pre,
        })
}

/// Host names: DNS labels, some with numbers (`all`, `templates`); for `ordinal`, distinct
/// numbers under a few name shapes (the number is the last digits of the name).
fn raw_hosts(mode: Mode) -> BoxedStrategy<Vec<(String, bool)>> {
    if mode == Mode::Ordinal {
        proptest::collection::btree_map(0u16..10, (0usize..3, proptest::bool::weighted(0.3)), 0..=6)
            .prop_map(|m| {
                m.into_iter()
                    .map(|(n, (shape, later))| {
                        let prefix = ["node-", "n", "rack1-node"][shape];
                        (format!("{prefix}{n}"), later)
                    })
                    .collect()
            })
            .boxed()
    } else {
        proptest::collection::btree_map(
            "[a-z]{1,4}(-[0-9]{1,3})?",
            proptest::bool::weighted(0.3),
            0..=10,
        )
        .prop_map(|m| m.into_iter().collect())
        .boxed()
    }
}

fn raw_ns(mode: Mode) -> impl Strategy<Value = RawNs> {
    (
        proptest::collection::vec(raw_pool(), 1..=4),
        raw_hosts(mode),
        proptest::collection::vec(0u8..3, 10),
        proptest::collection::vec(proptest::collection::vec(any::<bool>(), 4), 1..=2),
        proptest::option::weighted(0.3, (any::<bool>(), 0u16..260)),
    )
        .prop_map(|(pools, hosts, roles, templates, endpoint)| RawNs {
            pools,
            hosts,
            roles,
            templates,
            endpoint,
        })
}

fn raw(mode: Mode) -> impl Strategy<Value = Raw> {
    (
        proptest::collection::vec(raw_ns(mode), 1..=3),
        proptest::collection::vec((0u8..3, any::<bool>(), 0u16..260, 0u8..6), 0..=2),
        0u8..4,
    )
        .prop_map(|(namespaces, reserve, offset)| Raw {
            namespaces,
            reserve,
            offset,
        })
}

/// One `spec.pools[]` entry as the oracle reads it.
#[derive(Clone, Debug)]
struct EntryM {
    start: Option<A>,
    end: Option<A>,
    /// (address as written, prefix length).
    subnet: Option<(A, u8)>,
    prefix: Option<u8>,
    gateway: Option<A>,
}

impl EntryM {
    /// What the IPAM walks for this entry (docs/behaviour.md "Candidates", FACTS §4): `start`
    /// up to `end`, never past the subnet's last address; a subnet alone from the written
    /// address plus one; a `start` outside its subnet nothing.
    fn walk(&self) -> Option<(A, A)> {
        match (self.start, self.subnet) {
            (Some(s), Some((w, p))) => {
                let (net, last) = (w.network(p), w.last(p));
                if s < net || s > last {
                    return None;
                }
                let hi = self.end.map_or(last, |e| e.min(last));
                (s <= hi).then_some((s, hi))
            }
            (Some(s), None) => {
                let e = self.end.expect("generated start..end entries have an end");
                (s <= e).then_some((s, e))
            }
            (None, Some((w, p))) => {
                let last = w.last(p);
                (w < last).then(|| (w.plus(1), last))
            }
            (None, None) => None,
        }
    }
}

/// A generated IPPool and the oracle's view of it.
#[derive(Clone, Debug)]
struct PoolM {
    name: String,
    v6: bool,
    entries: Vec<EntryM>,
    prefix: Option<u8>,
    gateway: Option<A>,
    dns: Option<A>,
    /// Existing entries, in written order.
    pre: Vec<(String, A)>,
    /// The candidates in walk order, with their walk positions.
    walk: Vec<(A, u64)>,
    cand: HashSet<A>,
}

impl PoolM {
    fn new(
        name: String,
        v6: bool,
        entries: Vec<EntryM>,
        prefix: Option<u8>,
        gw: Option<A>,
        dns: Option<A>,
    ) -> PoolM {
        // Positions (FACTS §4): each entry's walk takes positions from where the earlier
        // entries' walks ended, one per address walked; an address an earlier entry reached
        // keeps its first position, and its later position holds no candidate. An entry that
        // walks nothing takes no positions. Every generated walk lies inside its own entry's
        // bounds, so the webhook admits every address walked.
        let mut walk = Vec::new();
        let mut cand = HashSet::new();
        let mut offset = 0u64;
        for e in &entries {
            let Some((lo, hi)) = e.walk() else { continue };
            for k in 0..=(hi.n - lo.n) {
                let a = lo.plus(k);
                if cand.insert(a) {
                    walk.push((a, offset + k as u64));
                }
            }
            offset += (hi.n - lo.n + 1) as u64;
        }
        PoolM {
            name,
            v6,
            entries,
            prefix,
            gateway: gw,
            dns,
            pre: Vec::new(),
            walk,
            cand,
        }
    }

    /// Rules 1 and 2 of "Reserved" (docs/behaviour.md; src/ipam/reserved.rs): every gateway and
    /// DNS server of the pool and of its entries; for a candidate, the network address (and, for
    /// IPv4 up to /30, the broadcast address) of the subnet of the entry that first reaches it,
    /// and of the `/p` network holding it, p the entry's prefix else the pool's. IPv6 reserves
    /// its network address up to /126 and has no broadcast; /31, /32, /127 and /128 reserve
    /// nothing.
    fn reserved_by_pool(&self, a: A) -> bool {
        if self.gateway == Some(a)
            || self.dns == Some(a)
            || self.entries.iter().any(|e| e.gateway == Some(a))
        {
            return true;
        }
        if !self.cand.contains(&a) {
            return false;
        }
        let e = self
            .entries
            .iter()
            .find(|e| e.walk().is_some_and(|(lo, hi)| lo <= a && a <= hi))
            .expect("a candidate is walked by some entry");
        let edge = |p: u8| {
            let reserves_network = if a.v6 { p <= 126 } else { p <= 30 };
            let reserves_broadcast = !a.v6 && p <= 30;
            (reserves_network && a == a.network(p)) || (reserves_broadcast && a == a.last(p))
        };
        if let Some((w, p)) = e.subnet {
            // The subnet's edges (network of the written address).
            let net = w.network(p);
            let reserves_network = if a.v6 { p <= 126 } else { p <= 30 };
            let reserves_broadcast = !a.v6 && p <= 30;
            if (reserves_network && a == net) || (reserves_broadcast && a == w.last(p)) {
                return true;
            }
        }
        match e.prefix.or(self.prefix) {
            Some(p) => edge(p),
            None => false,
        }
    }

    /// Gateways and DNS servers: what this pool holds for overlapping pools besides entries.
    fn rule1(&self) -> Vec<A> {
        self.gateway
            .iter()
            .chain(self.dns.iter())
            .chain(self.entries.iter().filter_map(|e| e.gateway.as_ref()))
            .copied()
            .collect()
    }

    fn overlaps(&self, other: &PoolM) -> bool {
        self.cand.iter().any(|a| other.cand.contains(a))
    }

    /// The candidate at walk position `p`.
    fn at_position(&self, p: u64) -> Option<A> {
        self.walk.iter().find(|(_, q)| *q == p).map(|(a, _)| *a)
    }

    fn yaml(&self, ns: &str) -> String {
        let mut p = pool(&self.name, ns);
        for e in &self.entries {
            // Quoted: an IPv6 address may end in `::`, which plain YAML reads as a key.
            let r = Range {
                start: e.start.map(A::quoted),
                end: e.end.map(A::quoted),
                subnet: e.subnet.map(|(w, len)| format!("\"{}/{len}\"", w.text())),
                prefix: e.prefix.map(|x| x.to_string()),
                gateway: e.gateway.map(A::quoted),
            };
            p = p.range(r);
        }
        if let Some(x) = self.prefix {
            p = p.prefix(u32::from(x));
        }
        if let Some(g) = self.gateway {
            p = p.gateway(&g.quoted());
        }
        if let Some(d) = self.dns {
            p = p.dns(&d.quoted());
        }
        for (k, a) in &self.pre {
            p = p.entry(k, &a.text());
        }
        p.yaml()
    }
}

#[derive(Clone, Debug)]
struct NsM {
    name: String,
    pools: Vec<PoolM>,
    /// Hosts present from the start, and hosts added for the stability property.
    hosts: Vec<String>,
    later: Vec<String>,
    role: HashMap<String, usize>,
    /// Per template: indexes of the pools its data template references.
    templates: Vec<Vec<usize>>,
    endpoint: Option<A>,
}

#[derive(Clone, Debug)]
struct Pkg {
    mode: Mode,
    nss: Vec<NsM>,
    reserve: Vec<(A, A)>,
    offset: u64,
    cfg: Value,
}

const POOL_NAMES: [&str; 4] = ["prov", "ext", "bmc", "data-net"];

fn build(mode: Mode, r: &Raw) -> Pkg {
    let reserve: Vec<(A, A)> = r
        .reserve
        .iter()
        .map(|&(ns, v6, lo, len)| {
            let a = base(v6, usize::from(ns)).plus(u128::from(lo));
            (a, a.plus(u128::from(len)))
        })
        .collect();
    let reserve_text: Vec<String> = reserve
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.text()
            } else {
                format!("{}-{}", a.text(), b.text())
            }
        })
        .collect();
    let offset = u64::from(r.offset);
    let cfg = config(match mode {
        Mode::All => json!({"reserve": reserve_text}),
        Mode::Templates => json!({"reserve": reserve_text, "mapping": "templates"}),
        Mode::Ordinal => {
            json!({"reserve": reserve_text, "strategy": "ordinal", "ordinalOffset": offset})
        }
    });
    let mut nss = Vec::new();
    for (i, rn) in r.namespaces.iter().enumerate() {
        let name = format!("ns{i}");
        let endpoint = rn
            .endpoint
            .map(|(v6, off)| base(v6, i).plus(u128::from(off)));
        let mut pools: Vec<PoolM> = rn
            .pools
            .iter()
            .enumerate()
            .map(|(j, rp)| {
                let b = base(rp.v6, i);
                let entries = rp
                    .entries
                    .iter()
                    .map(|re| {
                        let size = 1u128 << re.size_log;
                        let bits = if rp.v6 { 128 } else { 32 };
                        let sub_prefix = (bits - u32::from(re.size_log)) as u8;
                        let net = b.plus(u128::from(re.at) / size * size);
                        let (start, end, subnet) = match re.kind {
                            0 => {
                                let s = b.plus(u128::from(re.at));
                                (Some(s), Some(s.plus(u128::from(re.len) - 1)), None)
                            }
                            1 => (
                                None,
                                None,
                                Some((net.plus(u128::from(re.written) % size), sub_prefix)),
                            ),
                            _ => {
                                // Mostly early in the subnet, sometimes anywhere in it or just
                                // past its end (then the entry walks nothing).
                                let w = u128::from(re.written);
                                let s = net.plus(if w < 200 {
                                    w % (size / 4 + 1)
                                } else {
                                    w % (size + 2)
                                });
                                let e = re.end_cut.map(|c| s.plus(u128::from(c)));
                                (Some(s), e, Some((net, sub_prefix)))
                            }
                        };
                        EntryM {
                            start,
                            end,
                            subnet,
                            prefix: re.prefix.map(|p| prefix_of(rp.v6, p)),
                            gateway: re.gateway.map(|g| b.plus(u128::from(g))),
                        }
                    })
                    .collect();
                PoolM::new(
                    POOL_NAMES[j].to_string(),
                    rp.v6,
                    entries,
                    rp.prefix.map(|p| prefix_of(rp.v6, p)),
                    rp.gateway.map(|g| b.plus(u128::from(g))),
                    rp.dns.map(|g| b.plus(u128::from(g))),
                )
            })
            .collect();
        let hosts: Vec<String> = rn
            .hosts
            .iter()
            .filter(|(_, later)| !later)
            .map(|(h, _)| h.clone())
            .collect();
        let later: Vec<String> = rn
            .hosts
            .iter()
            .filter(|(_, later)| *later)
            .map(|(h, _)| h.clone())
            .collect();
        let role: HashMap<String, usize> = rn
            .hosts
            .iter()
            .zip(rn.roles.iter().cycle())
            .map(|((h, _), r)| (h.clone(), usize::from(*r)))
            .collect();
        let templates: Vec<Vec<usize>> = rn
            .templates
            .iter()
            .enumerate()
            .map(|(t, mask)| {
                let mut v: Vec<usize> = (0..pools.len()).filter(|&j| mask[j]).collect();
                if v.is_empty() {
                    v.push(t % pools.len());
                }
                v
            })
            .collect();
        // Existing entries: valid ones only (a candidate, not reserved by any rule, held by no
        // other pool of the namespace, not a gateway or DNS server of any of them), keyed by a
        // host of the namespace or by a host that is not in the input.
        let mut used: HashSet<A> = pools.iter().flat_map(PoolM::rule1).collect();
        for (j, rp) in rn.pools.iter().enumerate() {
            let mut keys = HashSet::new();
            for &(kp, ap) in &rp.pre {
                let p = &pools[j];
                // Half the keys are a host's of the namespace, half a host's not in the input.
                let owner = match (kp % 2, hosts.is_empty()) {
                    (0, false) => hosts[usize::from(kp / 2) % hosts.len()].clone(),
                    _ => format!("x{kp}old"),
                };
                let key = format!("{owner}-{}", p.name);
                if !keys.insert(key.clone()) {
                    continue;
                }
                // Under ordinal, as an earlier ordinal run leaves them: a host's entry at its
                // own position, others past the positions of the hosts' numbers.
                let position_ok = |pos: u64| match mode {
                    Mode::Ordinal if owner.starts_with('x') => pos >= offset + 10,
                    Mode::Ordinal => pos == offset + number(&owner),
                    _ => true,
                };
                let free: Vec<A> = p
                    .walk
                    .iter()
                    .filter(|(_, pos)| position_ok(*pos))
                    .map(|(a, _)| *a)
                    .filter(|a| {
                        !used.contains(a)
                            && !p.reserved_by_pool(*a)
                            && !reserve.iter().any(|(lo, hi)| lo <= a && a <= hi)
                            && endpoint != Some(*a)
                    })
                    .collect();
                if free.is_empty() {
                    continue;
                }
                let a = free[usize::from(ap) % free.len()];
                used.insert(a);
                pools[j].pre.push((key, a));
            }
        }
        nss.push(NsM {
            name,
            pools,
            hosts,
            later,
            role,
            templates,
            endpoint,
        });
    }
    Pkg {
        mode,
        nss,
        reserve,
        offset,
        cfg,
    }
}

fn machine_template(ns: &str, t: usize) -> String {
    format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3MachineTemplate
metadata:
  name: role{t}
  namespace: {ns}
spec:
  template:
    spec:
      dataTemplate:
        name: role{t}-data
      hostSelector:
        matchLabels:
          role: r{t}
      image:
        url: http://172.22.0.1/images/ubuntu.raw
        checksum: http://172.22.0.1/images/ubuntu.raw.sha256sum
"
    )
}

fn data_template(ns: &str, t: usize, pools: &[&str]) -> String {
    let mut s = format!(
        "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: Metal3DataTemplate
metadata:
  name: role{t}-data
  namespace: {ns}
spec:
  clusterName: test1
  metaData:
    ipAddressesFromIPPool:
"
    );
    for (k, p) in pools.iter().enumerate() {
        s.push_str(&format!(
            "    - key: ip{k}\n      name: {p}\n      apiGroup: ipam.metal3.io\n      kind: IPPool\n"
        ));
    }
    s
}

impl Pkg {
    /// The BareMetalHost `h` of namespace `ns`; under the templates mapping, labelled with the
    /// role whose template selects it (`spare`: none does).
    fn host_yaml(&self, ns: &NsM, h: &str) -> String {
        let mut b = host(h, &ns.name);
        if self.mode == Mode::Templates {
            let r = ns.role[h];
            let role = if r < ns.templates.len() {
                format!("r{r}")
            } else {
                "spare".into()
            };
            b = b.label("role", &role);
        }
        b.yaml()
    }

    /// The package's documents (with the later hosts too when `later`).
    fn docs(&self, later: bool) -> Vec<String> {
        let mut d = Vec::new();
        for ns in &self.nss {
            for h in ns
                .hosts
                .iter()
                .chain(later.then_some(&ns.later).into_iter().flatten())
            {
                d.push(self.host_yaml(ns, h));
            }
            for p in &ns.pools {
                d.push(p.yaml(&ns.name));
            }
            if self.mode == Mode::Templates {
                for (t, pools) in ns.templates.iter().enumerate() {
                    d.push(machine_template(&ns.name, t));
                    let names: Vec<&str> =
                        pools.iter().map(|&j| ns.pools[j].name.as_str()).collect();
                    d.push(data_template(&ns.name, t, &names));
                }
            }
            if let Some(e) = ns.endpoint {
                d.push(cluster("c1", &ns.name, &e.quoted()));
            }
        }
        d
    }

    fn reserved(&self, ns: &NsM, p: &PoolM, a: A) -> bool {
        // Rules 1–2 from the pool, rule 3 the config's `reserve`, rule 4 the namespace's
        // control-plane endpoint.
        p.reserved_by_pool(a)
            || self.reserve.iter().any(|(lo, hi)| *lo <= a && a <= *hi)
            || ns.endpoint == Some(a)
    }

    /// The hosts that need an entry in pool `j` of `ns` (with the later hosts when `later`):
    /// every host under `all` and `ordinal`; under `templates` the hosts whose role's data
    /// template references the pool.
    fn required(&self, ns: &NsM, j: usize, later: bool) -> Vec<String> {
        ns.hosts
            .iter()
            .chain(later.then_some(&ns.later).into_iter().flatten())
            .filter(|h| match self.mode {
                Mode::Templates => ns
                    .templates
                    .get(ns.role[*h])
                    .is_some_and(|t| t.contains(&j)),
                _ => true,
            })
            .cloned()
            .collect()
    }

    /// Whether pool `j` of `ns` is managed (templates: referenced by some template).
    fn managed(&self, ns: &NsM, j: usize) -> bool {
        self.mode != Mode::Templates || ns.templates.iter().any(|t| t.contains(&j))
    }
}

/// The host's number for `ordinal`: the last run of digits in its name.
fn number(name: &str) -> u64 {
    let digits: String = name
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits
        .parse()
        .expect("generated ordinal names end in digits")
}

// ---------------------------------------------------------------------------------------------
// The oracle's verdict on a run
// ---------------------------------------------------------------------------------------------

/// What the oracle expects of the first run.
#[derive(Debug, Default)]
struct Verdict {
    /// The run must fail: (kind, namespace, name) of objects that must carry an error.
    must_fail_on: BTreeSet<(String, String, String)>,
    /// The run may fail, with errors only on these objects.
    may_fail_on: BTreeSet<(String, String, String)>,
    /// Sequential: per (namespace, pool), the hosts waiting for a new entry and the free
    /// candidates before any pool is filled.
    counts: HashMap<(String, String), (usize, usize)>,
}

impl Verdict {
    fn must_fail(&self) -> bool {
        !self.must_fail_on.is_empty()
    }
}

fn obj(kind: &str, ns: &str, name: &str) -> (String, String, String) {
    (kind.into(), ns.into(), name.into())
}

/// What the oracle expects of `pkg` (with the later hosts when `later`, on `pre` existing
/// entries per (namespace, pool) when given: the first run's output).
fn verdict(pkg: &Pkg, later: bool, pre: Option<&Entries>) -> Verdict {
    let mut v = Verdict::default();
    for ns in &pkg.nss {
        let existing = |j: usize| -> Vec<(String, A)> {
            match pre {
                Some(e) => e[&(ns.name.clone(), ns.pools[j].name.clone())]
                    .iter()
                    .map(|(k, t)| (k.clone(), A::parse(t)))
                    .collect(),
                None => ns.pools[j].pre.clone(),
            }
        };
        let needed: Vec<Vec<String>> = (0..ns.pools.len())
            .map(|j| {
                let have: HashSet<String> = existing(j).into_iter().map(|(k, _)| k).collect();
                if !pkg.managed(ns, j) {
                    return Vec::new();
                }
                pkg.required(ns, j, later)
                    .into_iter()
                    .filter(|h| !have.contains(&format!("{h}-{}", ns.pools[j].name)))
                    .collect()
            })
            .collect();
        // What each pool holds for the overlapping ones, before the run ("Taken").
        let holds: Vec<HashSet<A>> = (0..ns.pools.len())
            .map(|j| {
                existing(j)
                    .into_iter()
                    .map(|(_, a)| a)
                    .chain(ns.pools[j].rule1())
                    .collect()
            })
            .collect();
        let blocked_before = |j: usize, a: A| -> bool {
            let p = &ns.pools[j];
            pkg.reserved(ns, p, a)
                || existing(j).iter().any(|(_, b)| *b == a)
                || (0..ns.pools.len())
                    .any(|q| q != j && p.overlaps(&ns.pools[q]) && holds[q].contains(&a))
        };
        if pkg.mode == Mode::Ordinal {
            // Exact: host n takes the candidate at position offset + n, or fails.
            let mut chosen: Vec<Vec<(String, A)>> = vec![Vec::new(); ns.pools.len()];
            for (j, p) in ns.pools.iter().enumerate() {
                for h in &needed[j] {
                    match p.at_position(pkg.offset + number(h)) {
                        Some(a) if !blocked_before(j, a) => chosen[j].push((h.clone(), a)),
                        _ => {
                            v.must_fail_on.insert(obj("BareMetalHost", &ns.name, h));
                        }
                    }
                }
            }
            // One address chosen in two overlapping pools: the pool filled later refuses it.
            for j in 0..ns.pools.len() {
                for q in 0..ns.pools.len() {
                    if q == j || !ns.pools[j].overlaps(&ns.pools[q]) {
                        continue;
                    }
                    for (h, a) in &chosen[j] {
                        if chosen[q].iter().any(|(_, b)| b == a) {
                            // The host of the pool filled later fails; which one that is
                            // the oracle does not decide, but one of them must.
                            v.may_fail_on.insert(obj("BareMetalHost", &ns.name, h));
                            v.must_fail_on.insert(obj(
                                "collision",
                                &ns.name,
                                &format!("{}-{}", j.min(q), j.max(q)),
                            ));
                        }
                    }
                }
            }
        } else {
            // Sequential: a pool must fail when even without the other pools' new entries it
            // has fewer free candidates than hosts waiting, and must succeed when it has enough
            // even if every overlapping pool's new entries fell among them.
            for (j, p) in ns.pools.iter().enumerate() {
                let free = p
                    .walk
                    .iter()
                    .filter(|(a, _)| !blocked_before(j, *a))
                    .count();
                let others: usize = (0..ns.pools.len())
                    .filter(|&q| q != j && p.overlaps(&ns.pools[q]))
                    .map(|q| needed[q].len())
                    .sum();
                let n = needed[j].len();
                v.counts
                    .insert((ns.name.clone(), p.name.clone()), (n, free));
                if n > free {
                    v.must_fail_on.insert(obj("IPPool", &ns.name, &p.name));
                } else if n + others > free {
                    v.may_fail_on.insert(obj("IPPool", &ns.name, &p.name));
                }
            }
        }
    }
    v
}

/// The objects the run's errors are on, as (kind, namespace, name).
fn error_objects(o: &Outcome) -> BTreeSet<(String, String, String)> {
    errors(o)
        .iter()
        .map(|f| {
            let r = f
                .resource_ref
                .as_ref()
                .unwrap_or_else(|| panic!("an error without resourceRef:\n{}", dump(o)));
            (
                r.kind.clone(),
                r.namespace.clone().unwrap_or_default(),
                r.name.clone(),
            )
        })
        .collect()
}

/// Checks a run against the oracle; `Ok(true)` when it filled, `Ok(false)` when it failed as the
/// oracle allows (cleanly: every source back byte for byte).
fn check_run(
    pkg: &Pkg,
    later: bool,
    pre: Option<&Entries>,
    input: &str,
    o: &Outcome,
) -> Result<bool, TestCaseError> {
    let v = verdict(pkg, later, pre);
    let got = error_objects(o);
    if !got.is_empty() {
        // Transactional: nothing changed.
        prop_assert_eq!(&o.outputs[0], input, "an error run changed the input");
        prop_assert_eq!(&o.changed, &vec![false]);
        let allowed: BTreeSet<_> = v.must_fail_on.union(&v.may_fail_on).cloned().collect();
        for e in &got {
            prop_assert!(
                allowed.contains(e),
                "unexpected error on {:?}; verdict {:?}; findings:\n{}",
                e,
                v,
                dump(o)
            );
        }
        for m in &v.must_fail_on {
            if m.0 == "collision" {
                continue;
            }
            prop_assert!(
                got.contains(m),
                "no error on {:?}; findings:\n{}",
                m,
                dump(o)
            );
        }
        for f in errors(o) {
            let r = f.resource_ref.as_ref().expect("checked above");
            let ns = r.namespace.clone().unwrap_or_default();
            let path = f.field.as_ref().map(|x| x.path.as_str());
            if r.kind == "IPPool" {
                // A pool that runs out says so at spec.pools, with the oracle's count of hosts
                // and at most the free addresses the oracle counts before any pool is filled.
                let (needed, free_upper) = v.counts[&(ns.clone(), r.name.clone())];
                let head = "This pool has ";
                let tail = format!(" free address(es) but {needed} host(s) need a new one");
                let free: Option<usize> = f
                    .message
                    .strip_prefix(head)
                    .and_then(|m| m.split_once(&tail))
                    .and_then(|(n, _)| n.parse().ok());
                prop_assert!(
                    free.is_some_and(|n| n < needed && n <= free_upper)
                        && path == Some("spec.pools"),
                    "{:?}: {:?} (oracle: {} needed, {} free)",
                    path,
                    f.message,
                    needed,
                    free_upper
                );
            } else {
                // Under ordinal, each refusal names the host and the pool, at metadata.name.
                prop_assert!(
                    r.kind == "BareMetalHost"
                        && path == Some("metadata.name")
                        && f.message
                            .to_lowercase()
                            .contains(&format!("host {} has number", r.name))
                        && f.message.contains(&format!("of IPPool {ns}/")),
                    "{:?} at {:?}: {}",
                    r,
                    path,
                    f.message
                );
            }
        }
        return Ok(false);
    }
    prop_assert!(
        !v.must_fail(),
        "the run filled although the oracle says it must fail on {:?}:\n{}",
        v.must_fail_on,
        dump(o)
    );
    let out = entries(&o.outputs[0]);
    for ns in &pkg.nss {
        for (j, p) in ns.pools.iter().enumerate() {
            let key = (ns.name.clone(), p.name.clone());
            let after = &out[&key];
            let before: Vec<(String, String)> = match pre {
                Some(e) => e[&key].clone(),
                None => p.pre.iter().map(|(k, a)| (k.clone(), a.text())).collect(),
            };
            // Existing entries are kept, in place, with their text.
            prop_assert!(
                after.len() >= before.len() && after[..before.len()] == before[..],
                "existing entries of {:?} changed: {:?} -> {:?}",
                key,
                before,
                after
            );
            // 1. No address twice in a pool.
            let mut seen = HashSet::new();
            for (k, t) in after {
                prop_assert!(
                    seen.insert(A::parse(t)),
                    "{:?}: {} = {} is there twice: {:?}",
                    key,
                    k,
                    t,
                    after
                );
            }
            // The new keys are exactly the required claims without an entry.
            let added = &after[before.len()..];
            let mut want: Vec<String> = if pkg.managed(ns, j) {
                pkg.required(ns, j, later)
                    .into_iter()
                    .map(|h| format!("{h}-{}", p.name))
                    .filter(|k| !before.iter().any(|(b, _)| b == k))
                    .collect()
            } else {
                Vec::new()
            };
            want.sort();
            let mut keys: Vec<String> = added.iter().map(|(k, _)| k.clone()).collect();
            keys.sort();
            prop_assert_eq!(&keys, &want, "new keys of {:?}", key);
            // 2. Every new address is a free candidate, in canonical text.
            for (k, t) in added {
                let a = A::parse(t);
                prop_assert_eq!(t, &a.text(), "{:?}: {} is not canonical", key, k);
                prop_assert_eq!(
                    a.v6,
                    p.v6,
                    "{:?}: {} = {} is of the other family",
                    key,
                    k,
                    t
                );
                prop_assert!(
                    p.cand.contains(&a),
                    "{:?}: {} = {} is not a candidate",
                    key,
                    k,
                    t
                );
                prop_assert!(
                    !pkg.reserved(ns, p, a),
                    "{:?}: {} = {} is reserved",
                    key,
                    k,
                    t
                );
                for (q, other) in ns.pools.iter().enumerate() {
                    if q == j || !p.overlaps(other) {
                        continue;
                    }
                    let theirs = &out[&(ns.name.clone(), other.name.clone())];
                    prop_assert!(
                        !other.rule1().contains(&a)
                            && !theirs.iter().any(|(_, u)| A::parse(u) == a),
                        "{:?}: {} = {} is held by the overlapping pool {}",
                        key,
                        k,
                        t,
                        other.name
                    );
                }
                if pkg.mode == Mode::Ordinal {
                    let h = k.strip_suffix(&format!("-{}", p.name)).expect("a host key");
                    let pos = pkg.offset + number(h);
                    prop_assert_eq!(
                        Some(a),
                        p.at_position(pos),
                        "{:?}: {} is not the candidate at walk position {}",
                        key,
                        k,
                        pos
                    );
                }
            }
        }
    }
    Ok(true)
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// 1 and 2: the first run fills as the oracle says, or fails as it allows.
fn fills_unique_free_candidates(pkg: &Pkg) -> Result<(), TestCaseError> {
    let input = stream(&pkg.docs(false));
    let o = run_text(&input, Some(&pkg.cfg));
    check_run(pkg, false, None, &input, &o)?;
    Ok(())
}

/// 3: the documents shuffled come out byte-identical, with the same results.
fn independent_of_item_order(pkg: &Pkg, order: &[usize]) -> Result<(), TestCaseError> {
    let docs = pkg.docs(false);
    let first = run_docs(&docs, Some(&pkg.cfg));
    let first_docs: Vec<String> = split_docs(&first.outputs[0]);
    prop_assert_eq!(first_docs.len(), docs.len());
    let order: Vec<usize> = {
        // The drawn order covers at most 64 documents; the rest keep their places at the end.
        let mut o: Vec<usize> = order.iter().copied().filter(|&i| i < docs.len()).collect();
        o.extend(order.len()..docs.len());
        o
    };
    let shuffled: Vec<String> = order.iter().map(|&i| docs[i].clone()).collect();
    let again = run_docs(&shuffled, Some(&pkg.cfg));
    let again_docs = split_docs(&again.outputs[0]);
    prop_assert_eq!(again_docs.len(), docs.len());
    for (pos, &i) in order.iter().enumerate() {
        prop_assert_eq!(&again_docs[pos], &first_docs[i], "document {} differs", i);
    }
    prop_assert_eq!(common::placeless(&again), common::placeless(&first));
    prop_assert_eq!(&again.changed, &first.changed);
    Ok(())
}

/// 4: a second run on a successful output changes nothing, byte for byte.
fn idempotent(pkg: &Pkg) -> Result<(), TestCaseError> {
    let input = stream(&pkg.docs(false));
    let first = run_text(&input, Some(&pkg.cfg));
    if !check_run(pkg, false, None, &input, &first)? {
        // A failed run returns its input: running again must fail the same way.
        let again = run_text(&first.outputs[0], Some(&pkg.cfg));
        prop_assert_eq!(&again.outputs, &first.outputs);
        prop_assert_eq!(&again.findings, &first.findings);
        return Ok(());
    }
    let second = run_text(&first.outputs[0], Some(&pkg.cfg));
    prop_assert!(errors(&second).is_empty(), "{}", dump(&second));
    prop_assert_eq!(&second.changed, &vec![false], "{}", second.outputs[0]);
    prop_assert_eq!(&second.outputs[0], &first.outputs[0]);
    Ok(())
}

/// 5: hosts added to the filled package (written back) never move an entry; under `ordinal`
/// also a render from the package as first written (not written back) keeps every entry.
fn stable_when_hosts_are_added(pkg: &Pkg) -> Result<(), TestCaseError> {
    let input = stream(&pkg.docs(false));
    let first = run_text(&input, Some(&pkg.cfg));
    if !check_run(pkg, false, None, &input, &first)? {
        return Ok(());
    }
    let before = entries(&first.outputs[0]);
    // The filled output with the later hosts (each in its namespace) appended.
    let mut text = first.outputs[0].clone();
    for ns in &pkg.nss {
        for h in &ns.later {
            text.push_str("---\n");
            text.push_str(&pkg.host_yaml(ns, h));
        }
    }
    let second = run_text(&text, Some(&pkg.cfg));
    if check_run(pkg, true, Some(&before), &text, &second)? {
        let after = entries(&second.outputs[0]);
        for (key, list) in &before {
            for e in list {
                prop_assert!(after[key].contains(e), "{:?}: {:?} moved", key, e);
            }
        }
    }
    if pkg.mode == Mode::Ordinal {
        // Render without write-back: the package as written plus the later hosts.
        let text = stream(&pkg.docs(true));
        let third = run_text(&text, Some(&pkg.cfg));
        if check_run(pkg, true, None, &text, &third)? {
            let after = entries(&third.outputs[0]);
            for (key, list) in &before {
                for e in list {
                    prop_assert!(
                        after[key].contains(e),
                        "{:?}: {:?} moved in a render without write-back",
                        key,
                        e
                    );
                }
            }
        }
    }
    Ok(())
}

/// What is injected into one managed pool to make the package invalid.
#[derive(Clone, Copy, Debug)]
enum Bad {
    /// A second entry on an address an entry (or a free candidate) holds.
    Duplicate,
    /// An entry outside every range of the pool.
    OutOfRange,
    /// A host's entry on the pool's gateway (reserved rule 1), the gateway set for it.
    Reserved,
}

/// 6: the bad package fails, through the library (every source back byte for byte) and
/// through the binary with a ResourceList on stdin (exit 1, items unchanged, the error at the
/// entry on the pool, on stderr too).
fn transactional_on_error(pkg: &Pkg, pick: usize, bad: Bad) -> Result<(), TestCaseError> {
    let mut pkg = pkg.clone();
    // A managed pool, and the key and value to inject.
    let managed: Vec<(usize, usize)> = pkg
        .nss
        .iter()
        .enumerate()
        .flat_map(|(i, ns)| {
            (0..ns.pools.len())
                .filter(|&j| pkg.managed(ns, j))
                .map(move |j| (i, j))
                .collect::<Vec<_>>()
        })
        .collect();
    prop_assert!(
        !managed.is_empty(),
        "every generated package manages a pool"
    );
    let (i, j) = managed[pick % managed.len()];
    let ns_name = pkg.nss[i].name.clone();
    let (key, value) = {
        let ns = &mut pkg.nss[i];
        let p = &mut ns.pools[j];
        let some_host = ns.hosts.first().cloned();
        // A host's entry on a reserved address needs a host (another key is only checked for
        // being a candidate and unique) and a candidate to reserve; else the entry is out of range.
        let bad = match bad {
            Bad::Reserved if some_host.is_none() || p.walk.is_empty() => Bad::OutOfRange,
            b => b,
        };
        match bad {
            Bad::Duplicate => {
                let a = match p.pre.first() {
                    Some((_, a)) => *a,
                    None => match p.walk.first() {
                        Some((a, _)) => {
                            // Two foreign entries on one candidate.
                            p.pre.push((format!("x1dup-{}", p.name), *a));
                            *a
                        }
                        None => base(p.v6, i).plus(5),
                    },
                };
                (format!("x2dup-{}", p.name), a)
            }
            Bad::OutOfRange => (format!("x3far-{}", p.name), base(p.v6, i).plus(60_000)),
            Bad::Reserved => {
                let owner = some_host.expect("checked above");
                let a = p.walk[0].0;
                p.gateway = Some(a);
                // No other entry of the pool stays on the new gateway.
                p.pre.retain(|(_, b)| *b != a);
                (format!("{owner}-{}", p.name), a)
            }
        }
    };
    {
        let p = &mut pkg.nss[i].pools[j];
        p.pre.retain(|(k, _)| *k != key);
        p.pre.push((key.clone(), value));
    }
    let pool_name = pkg.nss[i].pools[j].name.clone();
    let docs = pkg.docs(false);
    let input = stream(&docs);

    // The library: every source back byte for byte; an error at the entry on the pool.
    let o = run_text(&input, Some(&pkg.cfg));
    prop_assert!(
        o.has_errors(),
        "no error for {:?} {}: {}",
        bad,
        key,
        dump(&o)
    );
    prop_assert_eq!(&o.outputs[0], &input);
    prop_assert_eq!(&o.changed, &vec![false]);
    let field = format!("spec.preAllocations.{key}");
    let at_entry = |f: &&ipreuse::results::Finding| {
        f.severity == Severity::Error
            && f.field.as_ref().is_some_and(|x| x.path == field)
            && f.resource_ref.as_ref().is_some_and(|r| {
                r.kind == "IPPool"
                    && r.name == pool_name
                    && r.namespace.as_deref() == Some(ns_name.as_str())
            })
    };
    prop_assert!(
        o.findings.iter().any(|f| at_entry(&f)),
        "no error at {} of IPPool {}/{}:\n{}",
        field,
        ns_name,
        pool_name,
        dump(&o)
    );

    // The binary: a ResourceList on stdin, the config as its functionConfig.
    let fc = format!("{}\n", pkg.cfg_yaml());
    let rl = resource_list(&docs, Some(&fc));
    let out = run_bin_stdin(&[], &rl);
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let stderr = String::from_utf8(out.stderr).expect("utf-8 stderr");
    prop_assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr);
    let mut before = json_docs(&rl).remove(0);
    let mut after = json_docs(&stdout).remove(0);
    let results = after
        .as_object_mut()
        .expect("a ResourceList")
        .remove("results")
        .expect("results in the output");
    before
        .as_object_mut()
        .expect("a ResourceList")
        .remove("results");
    prop_assert_eq!(&after, &before, "the ResourceList changed beyond results");
    prop_assert!(
        results
            .as_array()
            .expect("a list")
            .iter()
            .any(|r| r["severity"] == "error"
                && r["field"]["path"] == field.as_str()
                && r["resourceRef"]["name"] == pool_name.as_str()),
        "results: {}",
        results
    );
    prop_assert!(
        stderr.contains(&key),
        "stderr does not name {}: {}",
        key,
        stderr
    );
    prop_assert_eq!(rl_entries(&stdout), rl_entries(&rl));
    Ok(())
}

impl Pkg {
    /// The config as a typed functionConfig in YAML (JSON is YAML).
    fn cfg_yaml(&self) -> String {
        let mut c = self.cfg.clone();
        c["metadata"]["annotations"] = json!({"config.kubernetes.io/local-config": "true"});
        serde_json::to_string(&c).expect("JSON")
    }
}

fn bad() -> impl Strategy<Value = Bad> {
    prop_oneof![
        Just(Bad::Duplicate),
        Just(Bad::OutOfRange),
        Just(Bad::Reserved)
    ]
}

macro_rules! properties {
    ($module:ident, $mode:expr) => {
        mod $module {
            use super::*;

            fn package() -> impl Strategy<Value = Pkg> {
                raw($mode).prop_map(|r| build($mode, &r))
            }

            proptest! {
                #![proptest_config(pt_config(48))]

                #[test]
                fn fills_unique_free_candidates(pkg in package()) {
                    super::fills_unique_free_candidates(&pkg)?;
                }

                #[test]
                fn independent_of_item_order(
                    pkg in package(),
                    order in Just((0..64).collect::<Vec<usize>>()).prop_shuffle(),
                ) {
                    super::independent_of_item_order(&pkg, &order)?;
                }

                #[test]
                fn idempotent(pkg in package()) {
                    super::idempotent(&pkg)?;
                }

                #[test]
                fn stable_when_hosts_are_added(pkg in package()) {
                    super::stable_when_hosts_are_added(&pkg)?;
                }

                #[test]
                fn transactional_on_error(pkg in package(), pick in 0usize..16, bad in bad()) {
                    super::transactional_on_error(&pkg, pick, bad)?;
                }
            }
        }
    };
}

properties!(all, Mode::All);
properties!(templates, Mode::Templates);
properties!(ordinal, Mode::Ordinal);

/// The generator is worth its properties only if it reaches both outcomes: packages that fill
/// (properties 3–5 then compare filled output) and packages the oracle says must fail, with
/// existing entries, new entries of both families. Counted over a fixed-seed sample per mode.
#[test]
fn generated_packages_fill_and_fail() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    for mode in [Mode::All, Mode::Templates, Mode::Ordinal] {
        let mut runner = TestRunner::new_with_rng(
            pt_config(1),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let strategy = raw(mode).prop_map(move |r| build(mode, &r));
        let (mut filled, mut failed, mut existing) = (0, 0, 0);
        let mut added = [0usize; 2];
        for _ in 0..60 {
            let pkg = strategy.new_tree(&mut runner).expect("a package").current();
            let input = stream(&pkg.docs(false));
            let o = run_text(&input, Some(&pkg.cfg));
            if check_run(&pkg, false, None, &input, &o).expect("the properties hold") {
                filled += 1;
                let out = entries(&o.outputs[0]);
                for ns in &pkg.nss {
                    for p in &ns.pools {
                        existing += p.pre.len();
                        let n = out[&(ns.name.clone(), p.name.clone())].len() - p.pre.len();
                        added[usize::from(p.v6)] += n;
                    }
                }
            } else {
                failed += 1;
            }
        }
        eprintln!(
            "{mode:?}: {filled} filled, {failed} failed; {existing} existing, {added:?} added"
        );
        assert!(
            filled >= 15 && failed >= 3,
            "{mode:?}: {filled} filled, {failed} failed of 60"
        );
        assert!(
            existing > 20 && added[0] > 20 && added[1] > 20,
            "{mode:?}: {existing} existing entries, {added:?} added (IPv4, IPv6)"
        );
    }
}
