//! What allocation works from: validated pools, pins, reserved addresses, host names.

use std::collections::{BTreeMap, HashMap};

use crate::config::Config;
use crate::ipam::{self, Addr, IntervalSet};
use crate::mapping::Plan;
use crate::model::Index;
use crate::model::host::PIN_PREFIX;
use crate::results::Finding;

/// One existing `spec.preAllocations` entry.
#[derive(Debug, Clone)]
pub struct Existing {
    pub key: String,
    pub text: String,
    /// `None` when the text is not a valid address (already reported).
    pub addr: Option<Addr>,
}

/// A pin: the host annotation `ipreuse.dev/ip.{pool}`.
#[derive(Debug, Clone)]
pub struct Pin {
    pub host: usize,
    pub addr: Addr,
}

/// A pool whose ranges are valid, with everything read from it.
#[derive(Debug)]
pub struct PoolState {
    pub ipam: ipam::Pool,
    /// All candidate addresses (for overlap tests).
    pub candidates: IntervalSet,
    /// Rule 1: gateways and DNS servers.
    pub rule1: IntervalSet,
    pub existing: Vec<Existing>,
    /// `status.indexes` with parseable addresses: claim → address.
    pub indexes: HashMap<String, Addr>,
    /// Entries added by this run (key, address), in order.
    pub added: Vec<(String, Addr)>,
}

/// Everything allocation reads, prepared once.
pub struct Context<'a> {
    pub idx: &'a Index,
    pub plan: &'a Plan,
    pub cfg: &'a Config,
    /// Valid pools by index into `idx.pools`.
    pub pools: HashMap<usize, PoolState>,
    /// Pins by (namespace, pool name).
    pub pins: HashMap<(String, String), Vec<Pin>>,
    /// Rule 3: `spec.reserve` of the config.
    pub reserve: IntervalSet,
    /// Rule 4: IP-literal control-plane endpoints per namespace.
    pub endpoints: HashMap<String, IntervalSet>,
    /// Host names per namespace → host index.
    pub hosts_by_name: HashMap<String, HashMap<String, usize>>,
    /// One info result per filled pool; reported only when the run writes its edits.
    pub summaries: Vec<Finding>,
}

impl<'a> Context<'a> {
    /// Validates pools, pins and the reserve list. `None` when nothing can be allocated safely.
    pub fn build(
        idx: &'a Index,
        plan: &'a Plan,
        cfg: &'a Config,
        findings: &mut Vec<Finding>,
    ) -> Option<Self> {
        let mut ok = true;
        let mut reserve = IntervalSet::new();
        for (i, r) in cfg.reserve.iter().enumerate() {
            match ipam::parse_reserve(r) {
                Ok((lo, hi)) => reserve.insert_range(lo.value(), hi.value()),
                Err(e) => {
                    ok = false;
                    findings.push(
                        Finding::error(format!(
                            "reserve entry {r:?} is not an address, range or CIDR: {e}"
                        ))
                        .at(format!("spec.reserve[{i}]")),
                    );
                }
            }
        }
        let mut endpoints: HashMap<String, IntervalSet> = HashMap::new();
        for (ns, list) in &idx.endpoints {
            for (text, _) in list {
                if let Ok(p) = ipam::parse_addr(text) {
                    endpoints
                        .entry(ns.clone())
                        .or_default()
                        .insert_addr(p.addr());
                }
            }
        }
        let mut hosts_by_name: HashMap<String, HashMap<String, usize>> = HashMap::new();
        for (i, h) in idx.hosts.iter().enumerate() {
            hosts_by_name
                .entry(h.object.namespace.clone())
                .or_default()
                .insert(h.object.name.clone(), i);
        }
        let mut pools = HashMap::new();
        for (p, pool) in idx.pools.iter().enumerate() {
            if pool.skipped.is_some() {
                continue;
            }
            let managed = plan.required.contains_key(&p);
            match ipam::Pool::new(&pool.spec) {
                Ok(ip) => {
                    let existing = read_existing(pool, managed, findings);
                    let indexes = pool
                        .indexes
                        .iter()
                        .filter_map(|(k, v)| {
                            ipam::parse_addr(v).ok().map(|a| (k.clone(), a.addr()))
                        })
                        .collect();
                    pools.insert(
                        p,
                        PoolState {
                            candidates: ip.candidates().clone(),
                            rule1: ip.reserved_rule1(),
                            ipam: ip,
                            existing,
                            indexes,
                            added: Vec::new(),
                        },
                    );
                }
                Err(errors) if managed => {
                    ok = false;
                    for e in errors {
                        findings.push(
                            Finding::error(format!(
                                "{}: the IPAM webhook would reject this pool",
                                e.message
                            ))
                            .on(pool.object.resource_ref())
                            .at(e.field),
                        );
                    }
                }
                Err(_) => {}
            }
        }
        let pins = read_pins(idx, findings, &mut ok);
        ok.then_some(Context {
            idx,
            plan,
            cfg,
            pools,
            pins,
            reserve,
            endpoints,
            hosts_by_name,
            summaries: Vec::new(),
        })
    }

    /// The host of the input that an entry key `{host}-{pool}` names in `ns`, if any.
    pub fn host_of_key(&self, ns: &str, pool: &str, key: &str) -> Option<usize> {
        let host = key.strip_suffix(pool)?.strip_suffix('-')?;
        self.hosts_by_name.get(ns)?.get(host).copied()
    }

    /// Whether a host named `name` is in `ns`.
    pub fn has_host(&self, ns: &str, name: &str) -> bool {
        self.hosts_by_name
            .get(ns)
            .is_some_and(|m| m.contains_key(name))
    }

    /// Other valid pools of the same namespace whose candidates overlap pool `p`'s, in byte order.
    pub fn overlapping(&self, p: usize) -> Vec<usize> {
        let Some(me) = self.pools.get(&p) else {
            return Vec::new();
        };
        let ns = &self.idx.pools[p].object.namespace;
        let mut out: Vec<usize> = self
            .pools
            .iter()
            .filter(|(q, st)| {
                **q != p
                    && &self.idx.pools[**q].object.namespace == ns
                    && !st.candidates.intersection(&me.candidates).is_empty()
            })
            .map(|(q, _)| *q)
            .collect();
        out.sort_by(|a, b| {
            self.idx.pools[*a]
                .name()
                .as_bytes()
                .cmp(self.idx.pools[*b].name().as_bytes())
        });
        out
    }

    /// One address given to two different hosts in overlapping pools is an error.
    pub fn check_cross_pool(&self, findings: &mut Vec<Finding>) {
        let mut by_ns: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &p in &self.plan.managed {
            if self.pools.contains_key(&p) {
                by_ns
                    .entry(self.idx.pools[p].object.namespace.as_str())
                    .or_default()
                    .push(p);
            }
        }
        for (ns, pools) in by_ns {
            // address → (host, pool, key) of the first holder, pools in byte order.
            let mut holders: HashMap<u128, (usize, usize, String)> = HashMap::new();
            for &p in &pools {
                let st = &self.pools[&p];
                let pool = &self.idx.pools[p];
                let entries = st
                    .existing
                    .iter()
                    .filter_map(|e| e.addr.map(|a| (e.key.clone(), a)))
                    .chain(st.added.iter().cloned());
                for (key, addr) in entries {
                    let Some(h) = self.host_of_key(ns, pool.name(), &key) else {
                        continue;
                    };
                    match holders.get(&addr.value()) {
                        Some((h2, q, key2))
                            if *h2 != h
                                && *q != p
                                && !self.pools[q]
                                    .candidates
                                    .intersection(&st.candidates)
                                    .is_empty() =>
                        {
                            findings.push(
                                Finding::error(format!(
                                    "this pool gives {} to {key} while IPPool {ns}/{} gives it to {key2}: \
                                     one address cannot belong to two hosts; change one of the entries",
                                    ipam::canonical(addr.ip()),
                                    self.idx.pools[*q].name()
                                ))
                                .on(pool.object.resource_ref())
                                .at(format!("spec.preAllocations.{key}")),
                            );
                        }
                        Some(_) => {}
                        None => {
                            holders.insert(addr.value(), (h, p, key));
                        }
                    }
                }
            }
        }
    }
}

/// Parses the existing entries of a pool; bad text is an error for managed pools.
fn read_existing(
    pool: &crate::model::pool::Pool,
    managed: bool,
    findings: &mut Vec<Finding>,
) -> Vec<Existing> {
    pool.pre_allocations
        .iter()
        .map(|(key, text)| {
            let addr = match ipam::parse_addr(text) {
                Ok(p) => Some(p.addr()),
                Err(e) => {
                    if managed {
                        findings.push(
                            Finding::error(format!(
                                "entry {key}: {text:?} is not a valid address: {e}"
                            ))
                            .on(pool.object.resource_ref())
                            .at(format!("spec.preAllocations.{key}")),
                        );
                    }
                    None
                }
            };
            Existing {
                key: key.clone(),
                text: text.clone(),
                addr,
            }
        })
        .collect()
}

/// Reads every pin of every host; a pin that does not parse is an error.
fn read_pins(
    idx: &Index,
    findings: &mut Vec<Finding>,
    ok: &mut bool,
) -> HashMap<(String, String), Vec<Pin>> {
    let mut pins: HashMap<(String, String), Vec<Pin>> = HashMap::new();
    for (h, host) in idx.hosts.iter().enumerate() {
        for (pool, text) in &host.pins {
            match ipam::parse_addr(text) {
                Ok(p) => pins
                    .entry((host.object.namespace.clone(), pool.clone()))
                    .or_default()
                    .push(Pin {
                        host: h,
                        addr: p.addr(),
                    }),
                Err(e) => {
                    *ok = false;
                    findings.push(
                        Finding::error(format!(
                            "pin for IPPool {pool:?} is {text:?}, which is not a valid address: {e}"
                        ))
                        .on(host.object.resource_ref())
                        .at(format!("metadata.annotations.{PIN_PREFIX}{pool}")),
                    );
                }
            }
        }
    }
    pins
}
