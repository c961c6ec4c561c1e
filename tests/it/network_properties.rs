//! Issue 10, acceptance line 4: property tests over generated clusters that share one network
//! (SPEC §10). Each case draws 1–5 clusters, each a namespace (names drawn so that byte order
//! and drawing order differ) with one IPPool `prov` on a random range of one network (IPv4
//! 172.22.0.0/24 or IPv6 fd00:22::/64), an optional gateway, an optional Cluster whose
//! control-plane endpoint is an IP of the network, 0–12 hosts and some existing entries. The
//! pools are put on the network by the config's `networks` cidr or by the `ipreuse.dev/network`
//! annotation.
//!
//! The oracle is written here from SPEC §5 and §10, never from the crate's allocator: the pools
//! fill in byte order of namespace; in each, the hosts without an entry, in natural order, take
//! the lowest address of the pool's range that no pool of the network holds (entries, new
//! entries of pools filled before, gateways) and that is no control-plane endpoint of any
//! cluster on the network. A pool that runs out makes the run fail with every item unchanged.
//!
//! Properties:
//! 1. `fills_as_the_oracle_says`: every pool's entries are exactly the oracle's, so no address
//!    is held twice in the network.
//! 2. `stable_when_clusters_are_added`: the first clusters are filled, then the others are
//!    added (with no entries yet; their namespaces may sort before the first ones): no entry of
//!    the first clusters changes, and no address is held twice in the network.
//! 3. `colliding_entries_fail`: two clusters whose existing entries give one address to two
//!    hosts fail, every item unchanged, the error naming both hosts and namespaces.
//! 4. `no_address_is_held_or_written_for_two_hosts` (issue 21): random pools in one or two
//!    namespaces, overlapping or not, some on a network, with entries (of hosts of the input
//!    or not), pins and live claims (`status.indexes`, of hosts or foreign): a run without an
//!    error never leaves one address written (an entry of the output) for one host and written
//!    or held live for another host in the same pool, an overlapping pool of the namespace, or
//!    a pool of the network.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Namespace names: drawing order is not byte order (`m10` < `m2`, `Z` never: lower case).
const NAMES: [&str; 8] = ["m2", "m10", "alpha", "zeta", "c1", "c-1", "b", "prov-x"];

#[derive(Clone, Debug)]
struct RawCluster {
    start: u32,
    len: u32,
    gateway: Option<u32>,
    endpoint: Option<u32>,
    hosts: usize,
    /// For each host, a wish for an existing entry: an offset into the range, if any.
    entries: Vec<Option<u32>>,
}

fn raw_cluster() -> impl Strategy<Value = RawCluster> {
    (
        1u32..200,
        1u32..40,
        proptest::option::weighted(0.3, 1u32..254),
        proptest::option::weighted(0.3, 1u32..254),
        0usize..12,
        proptest::collection::vec(proptest::option::weighted(0.3, 0u32..40), 12),
    )
        .prop_map(
            |(start, len, gateway, endpoint, hosts, entries)| RawCluster {
                start,
                len: len.min(254 - start),
                gateway,
                endpoint,
                hosts,
                entries,
            },
        )
}

#[derive(Clone, Debug)]
struct Case {
    v6: bool,
    annotated: bool,
    clusters: Vec<(String, RawCluster)>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        any::<bool>(),
        proptest::sample::subsequence(NAMES.to_vec(), 1..=5).prop_shuffle(),
        proptest::collection::vec(raw_cluster(), 5),
    )
        .prop_map(|(v6, annotated, names, raws)| Case {
            v6,
            annotated,
            clusters: names.into_iter().map(str::to_string).zip(raws).collect(),
        })
}

impl Case {
    fn addr(&self, n: u32) -> String {
        if self.v6 {
            format!("fd00:22::{n:x}")
        } else {
            format!("172.22.0.{n}")
        }
    }

    fn cfg(&self) -> Value {
        let cidr = if self.v6 {
            "fd00:22::/64"
        } else {
            "172.22.0.0/24"
        };
        let networks = if self.annotated {
            json!([])
        } else {
            json!([{"name": "prov", "cidr": cidr}])
        };
        config(json!({"networks": networks, "controllerFlag": false}))
    }

    /// The existing entries each cluster starts with: host index → offset into the range,
    /// kept only when no pool of the network holds the address already (no conflict) and it
    /// is neither a gateway nor an endpoint of the network.
    fn existing(&self, with_entries: &[bool]) -> Vec<BTreeMap<usize, u32>> {
        let mut blocked: HashSet<u32> = self
            .clusters
            .iter()
            .flat_map(|(_, c)| c.gateway.into_iter().chain(c.endpoint))
            .collect();
        let mut out = Vec::new();
        for (i, (_, c)) in self.clusters.iter().enumerate() {
            let mut mine = BTreeMap::new();
            if with_entries[i] {
                for h in 0..c.hosts {
                    if let Some(off) = c.entries[h] {
                        let a = c.start + off % c.len;
                        if blocked.insert(a) {
                            mine.insert(h, a);
                        }
                    }
                }
            }
            out.push(mine);
        }
        out
    }

    fn docs(&self, i: usize, existing: &BTreeMap<usize, u32>) -> Vec<String> {
        let (ns, c) = &self.clusters[i];
        let prefix = if self.v6 { 64 } else { 24 };
        let mut p = pool("prov", ns)
            .range(range(&self.addr(c.start), &self.addr(c.start + c.len - 1)))
            .prefix(prefix);
        if let Some(g) = c.gateway {
            p = p.gateway(&self.addr(g));
        }
        for (h, a) in existing {
            p = p.entry(&format!("h{h}-prov"), &self.addr(*a));
        }
        let mut pool_doc = p.yaml();
        if self.annotated {
            pool_doc = pool_doc.replacen(
                "metadata:\n",
                "metadata:\n  annotations:\n    ipreuse.dev/network: prov\n",
                1,
            );
        }
        let mut docs = vec![pool_doc];
        if let Some(e) = c.endpoint {
            docs.push(cluster("cl", ns, &self.addr(e)));
        }
        docs.extend((0..c.hosts).map(|h| host(&format!("h{h}"), ns).yaml()));
        docs
    }

    /// The oracle: each pool's entries after the fill (existing first, then new ones in
    /// natural host order), or `None` when some pool runs out.
    fn oracle(
        &self,
        present: &[usize],
        existing: &[BTreeMap<usize, u32>],
    ) -> Option<(Filled, BTreeMap<String, usize>)> {
        let mut held: HashSet<u32> = HashSet::new();
        for &i in present {
            let c = &self.clusters[i].1;
            held.extend(c.gateway);
            held.extend(c.endpoint);
            held.extend(existing[i].values().copied());
        }
        let mut order: Vec<usize> = present.to_vec();
        order.sort_by(|a, b| {
            self.clusters[*a]
                .0
                .as_bytes()
                .cmp(self.clusters[*b].0.as_bytes())
        });
        let mut out = BTreeMap::new();
        let mut free = BTreeMap::new();
        for i in order {
            let (ns, c) = &self.clusters[i];
            let mut entries: Vec<(String, String)> = existing[i]
                .iter()
                .map(|(h, a)| (format!("h{h}-prov"), self.addr(*a)))
                .collect();
            // h0, h1, ... is natural order.
            for h in (0..c.hosts).filter(|h| !existing[i].contains_key(h)) {
                let a = (c.start..c.start + c.len).find(|a| !held.contains(a))?;
                held.insert(a);
                entries.push((format!("h{h}-prov"), self.addr(a)));
            }
            if !entries.is_empty() {
                out.insert(ns.clone(), entries);
            }
            // What the summary counts once the pool is filled.
            free.insert(
                ns.clone(),
                (c.start..c.start + c.len)
                    .filter(|a| !held.contains(a))
                    .count(),
            );
        }
        Some((out, free))
    }
}

/// The entries of each namespace's pool.
type Filled = BTreeMap<String, Vec<(String, String)>>;

fn entries_by_ns(o: &ipreuse::run::Outcome) -> BTreeMap<String, Vec<(String, String)>> {
    all_entries(o)
        .into_iter()
        .filter(|(_, e)| !e.is_empty())
        .map(|((ns, _), e)| (ns, e))
        .collect()
}

fn no_address_twice(e: &BTreeMap<String, Vec<(String, String)>>) -> Result<(), TestCaseError> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (ns, list) in e {
        for (k, v) in list {
            prop_assert!(seen.insert(v), "{v} twice in the network ({ns}/{k}): {e:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(pt_config(96))]

    #[test]
    fn fills_as_the_oracle_says(c in case(), with in proptest::collection::vec(any::<bool>(), 5)) {
        let all: Vec<usize> = (0..c.clusters.len()).collect();
        let existing = c.existing(&with);
        let docs: Vec<String> = all.iter().flat_map(|&i| c.docs(i, &existing[i])).collect();
        let o = run_docs(&docs, Some(&c.cfg()));
        match c.oracle(&all, &existing) {
            Some((want, free)) => {
                prop_assert!(errors(&o).is_empty(), "{}", dump(&o));
                let got = entries_by_ns(&o);
                prop_assert_eq!(&got, &want);
                no_address_twice(&got)?;
                // Each pool's summary counts what is left once it is filled, network included.
                for (ns, n) in &free {
                    let summary = o
                        .findings
                        .iter()
                        .find(|f| {
                            f.message.contains("free left")
                                && f.resource_ref.as_ref().and_then(|r| r.namespace.as_deref())
                                    == Some(ns.as_str())
                        })
                        .map(|f| f.message.clone())
                        .unwrap_or_default();
                    prop_assert!(
                        summary.ends_with(&format!(", {n} free left (network prov)")),
                        "{ns}: {summary}"
                    );
                }
            }
            None => {
                prop_assert!(!errors(&o).is_empty(), "the oracle runs out: {}", dump(&o));
                prop_assert_eq!(&o.outputs, &vec![stream(&docs)]);
            }
        }
    }

    #[test]
    fn stable_when_clusters_are_added(
        c in case(),
        first in 1usize..5,
        with in proptest::collection::vec(any::<bool>(), 5),
    ) {
        let n = c.clusters.len();
        let first = first.min(n);
        // The clusters added later come with no entries of their own, and with no control-plane
        // endpoint: one that lands on an address an earlier cluster's host holds is an error
        // (tests/it/networks.rs), not a move.
        let mut c = c;
        for (_, k) in c.clusters.iter_mut().skip(first) {
            k.endpoint = None;
        }
        let with: Vec<bool> = with.iter().enumerate().map(|(i, w)| *w && i < first).collect();
        let existing = c.existing(&with);
        let early: Vec<usize> = (0..first).collect();
        let docs: Vec<String> = early.iter().flat_map(|&i| c.docs(i, &existing[i])).collect();
        let o = run_docs(&docs, Some(&c.cfg()));
        if c.oracle(&early, &existing).is_none() {
            prop_assert!(!errors(&o).is_empty());
            return Ok(());
        }
        prop_assert!(errors(&o).is_empty(), "{}", dump(&o));
        let before = entries_by_ns(&o);
        let mut text = o.outputs.concat();
        for (i, e) in existing.iter().enumerate().skip(first) {
            for d in c.docs(i, e) {
                text.push_str("---\n");
                text.push_str(&d);
            }
        }
        let o2 = run_text(&text, Some(&c.cfg()));
        if !errors(&o2).is_empty() {
            // Only a later cluster that cannot fit may fail the run (its range is full).
            let msgs: Vec<&str> = errors(&o2).iter().map(|f| f.message.as_str()).collect();
            prop_assert!(
                msgs.iter().all(|m| m.contains("free address(es)")),
                "{}",
                dump(&o2)
            );
            return Ok(());
        }
        let after = entries_by_ns(&o2);
        for (ns, list) in &before {
            prop_assert_eq!(Some(list), after.get(ns), "cluster {} moved", ns);
        }
        no_address_twice(&after)?;
    }

    #[test]
    fn colliding_entries_fail(c in case(), a in 0usize..5, b in 0usize..4) {
        let n = c.clusters.len();
        prop_assume!(n >= 2);
        let a = a % n;
        let b = (a + 1 + b % (n - 1)) % n;
        // Both clusters have a host h0, and b's range starts inside a's.
        let mut c = c;
        for i in [a, b] {
            c.clusters[i].1.hosts = c.clusters[i].1.hosts.max(1);
        }
        let (start, len) = (c.clusters[a].1.start, c.clusters[a].1.len);
        c.clusters[b].1.start = start + len / 2;
        c.clusters[b].1.len = c.clusters[b].1.len.min(254 - c.clusters[b].1.start).max(1);
        let (ca, cb) = (&c.clusters[a].1, &c.clusters[b].1);
        // One address inside both ranges, not a gateway or endpoint of the network.
        let blocked: HashSet<u32> = c
            .clusters
            .iter()
            .flat_map(|(_, k)| k.gateway.into_iter().chain(k.endpoint))
            .collect();
        let shared = (ca.start..ca.start + ca.len)
            .find(|x| (cb.start..cb.start + cb.len).contains(x) && !blocked.contains(x));
        prop_assume!(shared.is_some());
        let shared = shared.unwrap_or_default();
        let mut existing = vec![BTreeMap::new(); n];
        existing[a].insert(0, shared);
        existing[b].insert(0, shared);
        let docs: Vec<String> = (0..n).flat_map(|i| c.docs(i, &existing[i])).collect();
        let o = run_docs(&docs, Some(&c.cfg()));
        prop_assert!(!errors(&o).is_empty(), "{}", dump(&o));
        prop_assert_eq!(&o.outputs, &vec![stream(&docs)]);
        let (na, nb) = (&c.clusters[a].0, &c.clusters[b].0);
        prop_assert!(
            errors(&o).iter().any(|f| {
                f.message.contains(&format!("host h0 of namespace {na}"))
                    && f.message.contains(&format!("host h0 of namespace {nb}"))
            }),
            "{}",
            dump(&o)
        );
    }
}

// ---- 4. one address, one host, across overlapping and networked pools ------------------------

/// One pool of [`Mixed`]: its namespace (index), range 172.22.0.`start`.. (`len` addresses),
/// whether it is annotated onto the network, entries and live claims (by host number: below
/// the namespace's host count a host of the input, else a host that is not there), foreign
/// live claims; addresses as the last number of 172.22.0.x.
#[derive(Clone, Debug)]
struct MixedPool {
    ns: usize,
    start: u32,
    len: u32,
    net: bool,
    entries: BTreeMap<usize, u32>,
    live: BTreeMap<usize, u32>,
    foreign: Vec<u32>,
}

#[derive(Clone, Debug)]
struct Mixed {
    hosts: [usize; 2],
    pools: Vec<MixedPool>,
    /// Pins: (namespace, host, pool index) → address.
    pins: BTreeMap<(usize, usize, usize), u32>,
}

const MIXED_NS: [&str; 2] = ["a", "b"];

/// Addresses are drawn inside the pool's own range (an offset modulo its length), so that most
/// runs pass the checks of one pool; then some live addresses of one pool are copied into an
/// entry or a pin of a host in another (or the same) pool, which is what the property tries.
fn mixed() -> impl Strategy<Value = Mixed> {
    let off = || 0u32..12;
    let pool = (
        0usize..2,
        10u32..20,
        1u32..12,
        any::<bool>(),
        proptest::collection::btree_map(0usize..5, off(), 0..3),
        proptest::collection::btree_map(0usize..5, off(), 0..3),
        proptest::collection::vec(off(), 0..2),
    )
        .prop_map(|(ns, start, len, net, entries, live, foreign)| {
            let at = |o: &u32| start + o % len;
            MixedPool {
                ns,
                start,
                len,
                net,
                entries: entries.iter().map(|(h, o)| (*h, at(o))).collect(),
                live: live.iter().map(|(h, o)| (*h, at(o))).collect(),
                foreign: foreign.iter().map(at).collect(),
            }
        });
    (
        [0usize..4, 1usize..4],
        proptest::collection::vec(pool, 1..5),
        proptest::collection::btree_map((0usize..2, 0usize..4, 0usize..4), off(), 0..3),
        // (from pool, which live address, to pool, host, as a pin)
        proptest::collection::vec(
            (0usize..4, 0usize..4, 0usize..4, 0usize..4, any::<bool>()),
            0..3,
        ),
    )
        .prop_map(|(hosts, mut pools, pins, copies)| {
            let n = pools.len();
            let pins = pins
                .into_iter()
                .filter(|((_, _, i), _)| *i < n)
                .map(|((ns, h, i), o)| ((ns, h, i), pools[i].start + o % pools[i].len))
                .collect();
            let mut m = Mixed {
                hosts,
                pools: Vec::new(),
                pins,
            };
            for (from, which, to, h, pin) in copies {
                let (from, to) = (from % n, to % n);
                let held: Vec<u32> = pools[from]
                    .live
                    .values()
                    .chain(&pools[from].foreign)
                    .copied()
                    .collect();
                let Some(&a) = held.get(which % held.len().max(1)) else {
                    continue;
                };
                if pin {
                    m.pins.insert((pools[to].ns, h, to), a);
                } else {
                    pools[to].entries.insert(h, a);
                }
            }
            m.pools = pools;
            m
        })
}

impl Mixed {
    fn addr(n: u32) -> String {
        format!("172.22.0.{n}")
    }

    fn pool_name(i: usize) -> String {
        format!("p{i}")
    }

    fn docs(&self) -> Vec<String> {
        let mut docs = Vec::new();
        for (i, p) in self.pools.iter().enumerate() {
            let name = Self::pool_name(i);
            let mut y = pool(&name, MIXED_NS[p.ns])
                .range(range(
                    &Self::addr(p.start),
                    &Self::addr(p.start + p.len - 1),
                ))
                .prefix(24);
            for (h, a) in &p.entries {
                y = y.entry(&format!("h{h}-{name}"), &Self::addr(*a));
            }
            for (h, a) in &p.live {
                y = y.live(&format!("h{h}-{name}"), &Self::addr(*a));
            }
            for (k, a) in p.foreign.iter().enumerate() {
                y = y.live(&format!("legacy-{k}"), &Self::addr(*a));
            }
            let mut text = y.yaml();
            if p.net {
                text = text.replacen(
                    "metadata:\n",
                    "metadata:\n  annotations:\n    ipreuse.dev/network: net\n",
                    1,
                );
            }
            docs.push(text);
        }
        for (ns, name) in MIXED_NS.iter().enumerate() {
            for h in 0..self.hosts[ns] {
                let mut host = host(&format!("h{h}"), name);
                for ((pns, ph, pi), a) in &self.pins {
                    if *pns == ns && *ph == h {
                        host = host.pin(&Self::pool_name(*pi), &Self::addr(*a));
                    }
                }
                docs.push(host.yaml());
            }
        }
        docs
    }

    /// Whether pools `i` and `j` are "other pools" for each other (SPEC §5, §10), or one pool.
    fn related(&self, i: usize, j: usize) -> bool {
        let (p, q) = (&self.pools[i], &self.pools[j]);
        let meet = p.start < q.start + q.len && q.start < p.start + p.len;
        i == j || (p.ns == q.ns && meet) || (p.net && q.net)
    }

    /// The host a claim or entry key `h{n}-p{i}` of pool `i` names, if it is a host of the
    /// input: (namespace, n).
    fn host_of(&self, i: usize, key: &str) -> Option<(usize, usize)> {
        let ns = self.pools[i].ns;
        let n: usize = key
            .strip_suffix(&format!("-{}", Self::pool_name(i)))?
            .strip_prefix('h')?
            .parse()
            .ok()?;
        (n < self.hosts[ns]).then_some((ns, n))
    }
}

proptest! {
    #![proptest_config(pt_config(256))]

    #[test]
    fn no_address_is_held_or_written_for_two_hosts(
        m in mixed(),
        ordinal in proptest::bool::weighted(0.2),
    ) {
        let docs = m.docs();
        let strategy = if ordinal { "ordinal" } else { "sequential" };
        let cfg = config(json!({"controllerFlag": false, "strategy": strategy}));
        let o = run_docs(&docs, Some(&cfg));
        if !errors(&o).is_empty() {
            prop_assert_eq!(&o.outputs, &vec![stream(&docs)]);
            return Ok(());
        }
        let out = all_entries(&o);
        // Per pool: what the output writes for hosts of the input, and what the input shows
        // hosts of the input holding live.
        let mut written: Vec<Vec<((usize, usize), String)>> = Vec::new();
        let mut live: Vec<Vec<((usize, usize), String)>> = Vec::new();
        for (i, p) in m.pools.iter().enumerate() {
            let key = (MIXED_NS[p.ns].to_string(), Mixed::pool_name(i));
            written.push(
                out.get(&key)
                    .into_iter()
                    .flatten()
                    .filter_map(|(k, v)| Some((m.host_of(i, k)?, v.clone())))
                    .collect(),
            );
            live.push(
                p.live
                    .iter()
                    .filter_map(|(h, a)| {
                        let key = format!("h{h}-{}", Mixed::pool_name(i));
                        Some((m.host_of(i, &key)?, Mixed::addr(*a)))
                    })
                    .collect(),
            );
        }
        for i in 0..m.pools.len() {
            for j in 0..m.pools.len() {
                if !m.related(i, j) {
                    continue;
                }
                for (h1, a) in &written[i] {
                    for (h2, b) in written[j].iter().chain(&live[j]) {
                        prop_assert!(
                            a != b || h1 == h2,
                            "{a} is written for host {:?} in p{i} and written or live for host {:?} in p{j}, \
                             exit 0:\n{}\n{}",
                            h1, h2, dump(&o), stream(&docs)
                        );
                    }
                }
            }
        }
    }
}
