//! What allocation works from: validated pools, pins, reserved addresses, host names.

use crate::{FastMap, FastSet};
use std::collections::BTreeMap;

use super::Status;
use super::network::{self, Networks};
use super::shared::{self, HeldBuilder, Shared};
use super::state::{Existing, Pin, PinSource, PoolState, holdings};
use crate::config::Config;
use crate::ipam::{self, Addr, IntervalSet};
use crate::model::host::PIN_PREFIX;
use crate::model::{HostId, Index, PoolId};
use crate::names::short;
use crate::results::{Finding, ResourceRef};
use crate::transform::RunContext;
use crate::transform::preallocations::adopt::{Adopted, Adoption};
use crate::transform::preallocations::mapping::Plan;

/// Everything allocation reads, prepared once.
pub struct Context<'a> {
    pub idx: &'a Index,
    pub plan: &'a Plan,
    pub cfg: &'a Config,
    /// What the run asks: whether it keeps the plan rows.
    pub run: RunContext,
    /// Valid pools by index into `idx.pools`.
    pub pools: FastMap<PoolId, PoolState>,
    /// Pins by (namespace, pool name).
    pub pins: FastMap<(String, String), Vec<Pin>>,
    /// Rule 3: `spec.reserve` of the config.
    pub reserve: IntervalSet,
    /// Host names per namespace → host index.
    pub hosts_by_name: FastMap<String, FastMap<String, HostId>>,
    /// What the valid pools of each namespace share: overlaps and held addresses.
    pub shared: FastMap<String, Shared>,
    /// Networks shared across namespaces (SPEC §10) and which pool is on which.
    pub networks: Networks,
    /// The live claims (`status.indexes`, IPAddresses) of the pools that overlap another or
    /// are on a network, by address: (pool, claim). What another pool's host holds now stops
    /// an entry or pin of these pools (SPEC §5 "Validation").
    pub live_at: FastMap<u128, Vec<(PoolId, String)>>,
    /// One info result per filled pool; reported only when the run writes its edits.
    pub summaries: Vec<Finding>,
    /// The address plan, pool by pool ([`super::Planned`]).
    pub rows: Vec<super::Planned>,
    /// Each filled pool and its rows in [`Self::rows`], in fill order (`ipreuse plan` only):
    /// the pools the address map draws once every pool is filled.
    pub filled: Vec<(PoolId, std::ops::Range<usize>)>,
}

impl<'a> Context<'a> {
    /// Validates pools and pins; `adoption` is what [`crate::transform::preallocations::adopt::adopt`] found. `None`
    /// when nothing can be allocated safely.
    pub fn build(
        idx: &'a Index,
        plan: &'a Plan,
        cfg: &'a Config,
        run: RunContext,
        adoption: Adoption,
        blocks: &crate::transform::preallocations::blocks::Handout,
        findings: &mut Vec<Finding>,
    ) -> Option<Self> {
        let Adoption {
            pools: mut live_of,
            pins: adopted,
            failed,
        } = adoption;
        let mut ok = !failed;
        let mut reserve = IntervalSet::new();
        for r in &cfg.reserve {
            reserve.insert_range(r.first.value(), r.last.value());
        }
        let mut endpoints: FastMap<String, IntervalSet> = FastMap::default();
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
        let mut hosts_by_name: FastMap<String, FastMap<String, HostId>> = FastMap::default();
        for (i, h) in HostId::all(idx.hosts.len()).zip(&idx.hosts) {
            hosts_by_name
                .entry(h.object.namespace.clone())
                .or_default()
                .insert(h.object.name.clone(), i);
        }
        let mut pools = FastMap::default();
        for (p, pool) in PoolId::all(idx.pools.len()).zip(&idx.pools) {
            // A pool that asked for a block and got none was reported already.
            if pool.skipped.is_some() || blocks.refused.contains(&p) {
                continue;
            }
            let managed = plan.required.contains_key(&p);
            // A pool given a block reads its new ranges (SPEC §12: filled in the same run).
            let spec = blocks.overlay.get(&p).unwrap_or(&pool.spec);
            match ipam::Pool::new(spec) {
                Ok(ip) => {
                    let live = live_of.remove(&p).unwrap_or_default();
                    let out_of_bounds = if managed {
                        check_in_use(pool, &ip, &live.in_use, findings)
                    } else {
                        FastSet::default()
                    };
                    let existing = read_existing(pool, managed, findings);
                    // What the pool's IPAddresses show wins over a stale status.
                    let indexes = pool
                        .indexes
                        .iter()
                        .filter_map(|(k, v)| {
                            ipam::parse_addr(v).ok().map(|a| (k.clone(), a.addr()))
                        })
                        .chain(live.in_use.iter().map(|(k, a)| (k.clone(), *a)))
                        .collect();
                    let rule1 = ip.reserved_rule1();
                    let mut reserved = rule1.clone();
                    reserved.extend(&ip.reserved_rule2());
                    reserved.extend(&reserve);
                    if let Some(e) = endpoints.get(&pool.object.namespace) {
                        reserved.extend(e);
                    }
                    pools.insert(
                        p,
                        PoolState {
                            candidates: ip.candidates().clone(),
                            rule1,
                            ipam: ip,
                            existing,
                            indexes,
                            reserved,
                            rank: 0,
                            overlaps: Vec::new(),
                            fixed: IntervalSet::new(),
                            held_outside: FastSet::default(),
                            added: Vec::new(),
                            out_of_bounds,
                            live,
                        },
                    );
                }
                Err(errors) if managed => {
                    ok = false;
                    for e in errors {
                        let why = match e.refusal {
                            ipam::Refusal::Webhook => "the IPAM webhook would reject this pool",
                            ipam::Refusal::Unusable => {
                                "the IPAM webhook lets this through, but the IPAM cannot allocate usable addresses from it"
                            }
                        };
                        findings.push(
                            Finding::error(format!(
                                "{}. {}",
                                e.message.trim_end_matches('.'),
                                crate::names::capitalised(why)
                            ))
                            .on(pool.object.resource_ref())
                            .at(e.field),
                        );
                    }
                }
                Err(_) => {}
            }
        }
        let pins = read_pins(idx, adopted, findings, &mut ok);
        if !ok {
            return None;
        }
        let members = network::membership(idx, cfg, &pools, findings)?;
        let networks = network::build(idx, members, &pins, &endpoints, &mut pools);
        let shared = share(idx, &pins, &mut pools);
        let managed: FastSet<PoolId> = plan.managed.iter().copied().collect();
        if !super::name_prefix::check(idx, &managed, &pools, &shared, findings) {
            return None;
        }
        let mut live_at: FastMap<u128, Vec<(PoolId, String)>> = FastMap::default();
        for (&p, st) in &pools {
            if st.overlaps.is_empty() && networks.of(p).is_none() {
                continue;
            }
            for (claim, a) in &st.indexes {
                live_at
                    .entry(a.value())
                    .or_default()
                    .push((p, claim.clone()));
            }
        }
        Some(Context {
            idx,
            plan,
            cfg,
            run,
            pools,
            pins,
            reserve,
            hosts_by_name,
            shared,
            networks,
            live_at,
            summaries: Vec::new(),
            rows: Vec::new(),
            filled: Vec::new(),
        })
    }

    /// The host of the input that an entry key `{host}-{pool}` names in `ns`, if any.
    pub fn host_of_key(&self, ns: &str, pool: &str, key: &str) -> Option<HostId> {
        let host = key.strip_suffix(pool)?.strip_suffix('-')?;
        self.hosts_by_name.get(ns)?.get(host).copied()
    }

    /// Whether a host named `name` is in `ns`.
    pub fn has_host(&self, ns: &str, name: &str) -> bool {
        self.hosts_by_name
            .get(ns)
            .is_some_and(|m| m.contains_key(name))
    }

    /// The other valid pools of `p`'s namespace whose candidates overlap `p`'s, in byte order.
    pub fn overlapping(&self, p: PoolId) -> Vec<PoolId> {
        let (Some(st), Some(sh)) = (self.pools.get(&p), self.shared_of(p)) else {
            return Vec::new();
        };
        st.overlaps
            .iter()
            .filter_map(|r| sh.pools.get(*r as usize).copied())
            .collect()
    }

    /// Whether `p` and `q` are valid pools of one namespace whose candidates overlap. (Ranks
    /// count within a namespace: pools of two namespaces never overlap in this sense.)
    pub fn overlap(&self, p: PoolId, q: PoolId) -> bool {
        let same_ns = |p: PoolId, q: PoolId| {
            self.idx.pools[p].object.namespace == self.idx.pools[q].object.namespace
        };
        match (self.pools.get(&p), self.pools.get(&q)) {
            (Some(a), Some(b)) => a.overlaps.binary_search(&b.rank).is_ok() && same_ns(p, q),
            _ => false,
        }
    }

    /// What pool `p`'s namespace shares.
    pub fn shared_of(&self, p: PoolId) -> Option<&Shared> {
        self.shared.get(&self.idx.pools.get(p.0)?.object.namespace)
    }

    /// Whether pool `q` is one of the "other pools" of `p` (SPEC §5, §10): another valid pool
    /// of its namespace whose candidates overlap, or another pool of its network.
    pub fn related(&self, p: PoolId, q: PoolId) -> bool {
        p != q
            && (self.overlap(p, q)
                || self
                    .networks
                    .index_of(p)
                    .is_some_and(|n| self.networks.index_of(q) == Some(n)))
    }

    /// The other pools of `p` ([`Self::related`]), in byte order of (namespace, name).
    pub fn related_pools(&self, p: PoolId) -> Vec<PoolId> {
        let mut out = self.overlapping(p);
        if let Some(net) = self.networks.of(p) {
            out.extend(net.pools.iter().copied().filter(|q| *q != p));
        }
        out.sort_by(|a, b| self.pool_key(*a).cmp(&self.pool_key(*b)));
        out.dedup();
        out
    }

    /// (namespace, name) of pool `p`, as bytes: the order pools are filled and named in.
    fn pool_key(&self, p: PoolId) -> (&[u8], &[u8]) {
        let o = &self.idx.pools[p].object;
        (o.namespace.as_bytes(), o.name.as_bytes())
    }

    /// `IPPool ns/name`, for messages.
    pub fn pool_label(&self, p: PoolId) -> String {
        let o = &self.idx.pools[p].object;
        format!("IPPool {}/{}", short(&o.namespace), short(&o.name))
    }

    /// The host of the input whose claim `claim` of pool `q` is: the one adoption followed it
    /// to, else the host `{host}-{pool}` names.
    pub fn live_host(&self, q: PoolId, claim: &str) -> Option<HostId> {
        let pool = &self.idx.pools[q];
        self.pools
            .get(&q)
            .and_then(|st| st.live.holders.get(claim).copied())
            .or_else(|| self.host_of_key(&pool.object.namespace, pool.name(), claim))
    }

    /// Where live claim `claim` of pool `q` shows: the IPAddress that shows it (at
    /// `spec.address`), else the pool's `status.indexes.<claim>`; and how to say so.
    pub fn live_place(&self, q: PoolId, claim: &str) -> (ResourceRef, String, String) {
        let pool = &self.idx.pools[q];
        if let Some(r) = self
            .pools
            .get(&q)
            .and_then(|st| st.live.shown_by.get(claim))
        {
            let what = format!("IPAddress {}", short(&r.name));
            return (r.clone(), "spec.address".into(), what);
        }
        (
            pool.object.resource_ref(),
            crate::results::key_path("status.indexes", claim),
            "status.indexes".into(),
        )
    }

    /// The live claims of the other pools of `p` ([`Self::related`]) that hold `a`: (pool,
    /// claim), in byte order of (namespace, name, claim).
    pub fn live_elsewhere(&self, p: PoolId, a: Addr) -> Vec<(PoolId, &str)> {
        let mut out: Vec<(PoolId, &str)> = self
            .live_at
            .get(&a.value())
            .into_iter()
            .flatten()
            .filter(|(q, _)| self.related(p, *q))
            .map(|(q, c)| (*q, c.as_str()))
            .collect();
        out.sort_by(|x, y| (self.pool_key(x.0), x.1).cmp(&(self.pool_key(y.0), y.1)));
        out
    }

    /// One address given to two different hosts in overlapping pools is an error. Only pools
    /// that overlap another are walked: a pool that overlaps none clashes with none.
    pub fn check_cross_pool(&self, findings: &mut Vec<Finding>) {
        let mut by_ns: BTreeMap<&str, Vec<PoolId>> = BTreeMap::new();
        for &p in &self.plan.managed {
            if self.pools.get(&p).is_some_and(|st| !st.overlaps.is_empty()) {
                by_ns
                    .entry(self.idx.pools[p].object.namespace.as_str())
                    .or_default()
                    .push(p);
            }
        }
        for pools in by_ns.into_values() {
            self.clashes(&pools, |g, first| {
                if !self.overlap(g.pool, first.pool) {
                    return;
                }
                let (on, field) = self.place_of(&g);
                findings.push(
                    Finding::error(format!(
                        "{} goes to two hosts of overlapping pools, {} and {}: change one of them. \
                         {} gives {} to host {} while {} gives it to host {}",
                        g.addr,
                        short(self.idx.hosts[g.host].name()),
                        short(self.idx.hosts[first.host].name()),
                        crate::names::capitalised(&self.describe(&g, false)),
                        g.addr,
                        short(self.idx.hosts[g.host].name()),
                        self.describe(&first, false),
                        short(self.idx.hosts[first.host].name()),
                    ))
                    .on(on)
                    .at(field),
                );
            });
        }
    }

    /// SPEC §10: one address given to two different hosts by pools of one network, in any
    /// namespaces, is an error naming both hosts, both pools and both namespaces. (Two pools of
    /// one namespace that overlap were reported by [`Self::check_cross_pool`] already.)
    pub fn check_cross_network(&self, findings: &mut Vec<Finding>) {
        let managed: FastSet<PoolId> = self.plan.managed.iter().copied().collect();
        for net in &self.networks.list {
            let pools: Vec<PoolId> = net
                .pools
                .iter()
                .copied()
                .filter(|p| managed.contains(p))
                .collect();
            self.clashes(&pools, |g, first| {
                let (pool, other) = (&self.idx.pools[g.pool], &self.idx.pools[first.pool]);
                let (ns, ons) = (pool.object.namespace.as_str(), other.object.namespace.as_str());
                if ons == ns && self.overlap(g.pool, first.pool) {
                    return;
                }
                let (on, field) = self.place_of(&g);
                findings.push(
                    Finding::error(format!(
                        "{} goes to two hosts of network {}, {} of namespace {} and {} of namespace {}: \
                         change one of them. IPPool {}/{} gives {} to host {} of namespace {} ({}) while \
                         IPPool {}/{} gives it to host {} of namespace {} ({})",
                        g.addr,
                        net.name,
                        short(self.idx.hosts[g.host].name()),
                        short(ns),
                        short(self.idx.hosts[first.host].name()),
                        short(ons),
                        short(ns),
                        short(pool.name()),
                        g.addr,
                        short(self.idx.hosts[g.host].name()),
                        short(ns),
                        self.describe(&g, true),
                        short(ons),
                        short(other.name()),
                        short(self.idx.hosts[first.host].name()),
                        short(ons),
                        self.describe(&first, true),
                    ))
                    .on(on)
                    .at(field),
                );
            });
        }
    }

    /// Walks what `pools` (in this order) give to hosts of the input, existing entries keyed
    /// by a host then the entries this run added, and calls `clash` with each address given
    /// by another pool to another host than the first that gave it, and that first gift.
    fn clashes<'s>(&'s self, pools: &[PoolId], mut clash: impl FnMut(Gift<'s>, Gift<'s>)) {
        let mut first: FastMap<u128, Gift<'s>> = FastMap::default();
        for &p in pools {
            let Some(st) = self.pools.get(&p) else {
                continue;
            };
            let pool = &self.idx.pools[p];
            let ns = pool.object.namespace.as_str();
            let existing = st.existing.iter().filter_map(|e| {
                let addr = e.addr?;
                let host = self.host_of_key(ns, pool.name(), &e.key)?;
                Some((host, Given::Entry(e.key.as_str()), addr))
            });
            let added = st.added.iter().map(|&(h, a, s)| (h, Given::Added(s), a));
            for (host, source, addr) in existing.chain(added) {
                let g = Gift {
                    pool: p,
                    host,
                    source,
                    addr,
                };
                match first.get(&addr.value()) {
                    Some(&f) if f.host != host && f.pool != p => clash(g, f),
                    Some(_) => {}
                    None => {
                        first.insert(addr.value(), g);
                    }
                }
            }
        }
    }
}

/// An address a pool gives to a host of the input.
#[derive(Debug, Clone, Copy)]
struct Gift<'a> {
    pool: PoolId,
    host: HostId,
    source: Given<'a>,
    addr: Addr,
}

/// What gives a host its address in a pool: an existing entry (its key), or an entry this run
/// adds (keyed by the claim name of the host and the pool), and where its address comes from.
#[derive(Debug, Clone, Copy)]
enum Given<'a> {
    Entry(&'a str),
    Added(Status),
}

impl Context<'_> {
    /// The pin of host `h` for pool `p` from `source` (an annotation, or adopted).
    fn pin_of(&self, p: PoolId, h: HostId, adopted: bool) -> Option<&Pin> {
        let pool = &self.idx.pools[p];
        self.pins
            .get(&(pool.object.namespace.clone(), pool.name().to_string()))?
            .iter()
            .find(|pin| pin.host == h && matches!(pin.source, PinSource::Adopted(_)) == adopted)
    }

    /// The object and field a result about gift `g` goes on: the entry; the pin annotation on
    /// the host; what shows the live address (the IPAddress, or `status.indexes.<claim>`); for an
    /// entry the strategy chose, `spec.preAllocations` of the pool when it has one, else its
    /// `spec.pools`.
    fn place_of(&self, g: &Gift) -> (ResourceRef, String) {
        let pool = &self.idx.pools[g.pool];
        let host = &self.idx.hosts[g.host];
        let claim = crate::names::claim_name(host.name(), pool.name());
        match g.source {
            Given::Entry(key) => (
                pool.object.resource_ref(),
                crate::results::key_path("spec.preAllocations", key),
            ),
            Given::Added(Status::Pinned) | Given::Added(Status::Kept) => {
                match self.pin_of(g.pool, g.host, false) {
                    Some(pin) => pin.place(host, pool.name()),
                    None => (
                        host.object.resource_ref(),
                        crate::results::key_path(
                            "metadata.annotations",
                            &format!("{PIN_PREFIX}{}", pool.name()),
                        ),
                    ),
                }
            }
            Given::Added(Status::Live) => match self.pin_of(g.pool, g.host, true) {
                Some(pin) => pin.place(host, pool.name()),
                None => {
                    let (on, field, _) = self.live_place(g.pool, &claim);
                    (on, field)
                }
            },
            Given::Added(Status::New) => (
                pool.object.resource_ref(),
                if pool.shape == crate::model::pool::PreAllocShape::Missing {
                    "spec.pools".into()
                } else {
                    "spec.preAllocations".into()
                },
            ),
        }
    }

    /// What gift `g` is, for messages: `entry k of IPPool ns/p`, `pin ipreuse.dev/ip.p of host
    /// h`, `the live address of claim c in IPPool ns/p (status.indexes)`, ... Without ` of
    /// IPPool ns/p` (` in ...`) when `named` says the message names the pool already.
    fn describe(&self, g: &Gift, named: bool) -> String {
        let pool = &self.idx.pools[g.pool];
        let host = &self.idx.hosts[g.host];
        let label = if named {
            String::new()
        } else {
            format!(" of {}", self.pool_label(g.pool))
        };
        let in_label = if named {
            String::new()
        } else {
            format!(" in {}", self.pool_label(g.pool))
        };
        let claim = crate::names::claim_name(host.name(), pool.name());
        match g.source {
            Given::Entry(key) => format!("entry {}{label}", short(key)),
            Given::Added(Status::Pinned) | Given::Added(Status::Kept) => format!(
                "pin {PIN_PREFIX}{} of BareMetalHost {} (new entry {}{label})",
                short(pool.name()),
                short(host.name()),
                short(&claim)
            ),
            Given::Added(Status::Live) => match self.pin_of(g.pool, g.host, true) {
                Some(Pin {
                    source: PinSource::Adopted(a),
                    ..
                }) => format!(
                    "the live address of claim {} ({}; new entry {}{label})",
                    short(&a.claim),
                    a.chain,
                    short(&claim)
                ),
                _ => {
                    let (_, _, shown) = self.live_place(g.pool, &claim);
                    format!(
                        "the live address of claim {}{in_label} ({shown}), written as its new entry",
                        short(&claim)
                    )
                }
            },
            Given::Added(Status::New) => {
                format!("new entry {}{label}", short(&claim))
            }
        }
    }
}

/// Groups the valid pools by namespace and works out, once per namespace, which pools
/// overlap, what they hold, and each pool's fixed blocked candidates.
fn share(
    idx: &Index,
    pins: &FastMap<(String, String), Vec<Pin>>,
    pools: &mut FastMap<PoolId, PoolState>,
) -> FastMap<String, Shared> {
    let mut by_ns: FastMap<&str, Vec<PoolId>> = FastMap::default();
    for &p in pools.keys() {
        by_ns
            .entry(idx.pools[p].object.namespace.as_str())
            .or_default()
            .push(p);
    }
    let mut out = FastMap::default();
    for (ns, mut list) in by_ns {
        list.sort_by(|a, b| {
            idx.pools[*a]
                .name()
                .as_bytes()
                .cmp(idx.pools[*b].name().as_bytes())
        });
        let overlaps = {
            let cands: Vec<&IntervalSet> = list.iter().map(|p| &pools[p].candidates).collect();
            shared::overlaps(&cands)
        };
        let pins_of = |p: PoolId| -> &[Pin] {
            pins.get(&(ns.to_string(), idx.pools[p].name().to_string()))
                .map_or(&[], Vec::as_slice)
        };
        let mut held = HeldBuilder::default();
        for &q in &list {
            let st = &pools[&q];
            for a in holdings(st, pins_of(q)) {
                held.hold(a, q, st.candidates.contains_addr(a));
            }
        }
        let mut bounds: Vec<u128> = Vec::new();
        for (rank, (&p, ov)) in list.iter().zip(overlaps).enumerate() {
            let Some(st) = pools.get_mut(&p) else {
                continue;
            };
            st.rank = u32::try_from(rank).unwrap_or(u32::MAX);
            st.overlaps = ov;
        }
        for &p in &list {
            let st = &pools[&p];
            // Held outside their holders' candidates, inside this pool's, by an overlapping pool.
            let mut outside: FastSet<u128> = FastSet::default();
            for (lo, hi) in st.candidates.ranges() {
                for (a, holders) in held.outside().range(lo..=hi) {
                    let overlapping = holders.iter().any(|q| {
                        *q != p
                            && pools
                                .get(q)
                                .is_some_and(|o| st.overlaps.binary_search(&o.rank).is_ok())
                    });
                    if overlapping {
                        outside.insert(*a);
                    }
                }
            }
            let mut blocked = st.reserved.clone();
            for a in st
                .existing
                .iter()
                .filter_map(|e| e.addr)
                .chain(st.indexes.values().copied())
                .chain(pins_of(p).iter().map(|pin| pin.addr))
            {
                blocked.insert_addr(a);
            }
            for a in &outside {
                blocked.insert(*a);
            }
            let fixed = blocked.intersection(&st.candidates);
            for (lo, hi) in st.candidates.ranges().chain(fixed.ranges()) {
                bounds.push(lo);
                bounds.extend(hi.checked_add(1));
            }
            if let Some(st) = pools.get_mut(&p) {
                st.fixed = fixed;
                st.held_outside = outside;
            }
        }
        out.insert(ns.to_string(), held.finish(list, bounds));
    }
    out
}

/// SPEC §5 "In use": every address of `status.indexes` must still be admitted by an entry of
/// the pool, as the IPAM webhook decides it (its bounds check, family-blind: see
/// [`ipam::WebhookBounds`]), or the webhook rejects the update of the pool. So must every
/// address the pool's IPAddress objects show (`in_use`, from adoption): the cluster's
/// `status.indexes` is rebuilt from them, even when the pool in Git has no status. One error
/// per claim that is not, naming the claim and the address; returns those claims.
fn check_in_use(
    pool: &crate::model::pool::Pool,
    ip: &ipam::Pool,
    in_use: &std::collections::BTreeMap<String, Addr>,
    findings: &mut Vec<Finding>,
) -> FastSet<String> {
    let mut out = FastSet::default();
    if pool.indexes.is_empty() && in_use.is_empty() {
        return out;
    }
    let bounds = ip.webhook_bounds();
    let outside = |claim: &str, address: &str, shown: &str| {
        format!(
            "claim {} holds {} ({shown}), outside every entry of spec.pools: keep a range that covers it \
             until the claim has released it. The IPAM webhook rejects this update of the pool (\"is \
             in use but out of bounds of the pools given\")",
            short(claim),
            short(address)
        )
    };
    for (claim, text) in &pool.indexes {
        let (message, field) = match text.parse::<std::net::IpAddr>() {
            Ok(a) if bounds.admits(a) => continue,
            Ok(_) => (
                outside(claim, text, "status.indexes"),
                "spec.pools".to_string(),
            ),
            Err(_) => (
                format!(
                    "claim {} holds {:?} in status.indexes, which is not an IP address: take the \
                     status from the cluster again. The IPAM never writes such a status; its webhook \
                     counts it out of bounds of every entry and rejects any update of the pool",
                    short(claim),
                    short(text)
                ),
                crate::results::key_path("status.indexes", claim),
            ),
        };
        findings.push(
            Finding::error(message)
                .on(pool.object.resource_ref())
                .at(field),
        );
        out.insert(claim.clone());
    }
    for (claim, a) in in_use {
        let checked = pool
            .indexes
            .iter()
            .any(|(c, text)| c == claim && text.parse::<std::net::IpAddr>() == Ok(a.ip()));
        if checked || bounds.admits(a.ip()) {
            continue;
        }
        findings.push(
            Finding::error(outside(claim, &a.to_string(), "an IPAddress shows it"))
                .on(pool.object.resource_ref())
                .at("spec.pools"),
        );
        out.insert(claim.clone());
    }
    out
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
            let (addr, canonical) = match ipam::parse_addr(text) {
                Ok(p) => (Some(p.addr()), p.canonical),
                Err(e) => {
                    // A value the CRD's pattern refuses was reported when the pool was read.
                    if managed && !pool.refused_entries.contains(key) {
                        findings.push(
                            Finding::error(format!(
                                "entry {key}: {text:?} is not a valid address: {e}"
                            ))
                            .on(pool.object.resource_ref())
                            .at(crate::results::key_path("spec.preAllocations", key)),
                        );
                    }
                    (None, false)
                }
            };
            Existing {
                key: key.clone(),
                text: text.clone(),
                addr,
                canonical,
            }
        })
        .collect()
}

/// Reads every pin of every host, then adds the adopted ones; a pin that does not parse is an
/// error, and so is an annotation pin that differs from the address adoption found for the same
/// host and pool (the same address is one pin).
fn read_pins(
    idx: &Index,
    adopted: Vec<Adopted>,
    findings: &mut Vec<Finding>,
    ok: &mut bool,
) -> FastMap<(String, String), Vec<Pin>> {
    let mut pins: FastMap<(String, String), Vec<Pin>> = FastMap::default();
    for (h, host) in HostId::all(idx.hosts.len()).zip(&idx.hosts) {
        for (pool, text) in &host.pins {
            match ipam::parse_addr(text) {
                Ok(p) => pins
                    .entry((host.object.namespace.clone(), pool.clone()))
                    .or_default()
                    .push(Pin {
                        host: h,
                        addr: p.addr(),
                        source: PinSource::Annotation,
                    }),
                Err(e) => {
                    *ok = false;
                    findings.push(
                        Finding::error(format!(
                            "pin for IPPool {pool:?} is {text:?}, which is not a valid address: {e}"
                        ))
                        .on(host.object.resource_ref())
                        .at(crate::results::key_path(
                            "metadata.annotations",
                            &format!("{PIN_PREFIX}{pool}"),
                        )),
                    );
                }
            }
        }
    }
    for a in adopted {
        let host = &idx.hosts[a.host];
        let pool = idx.pools[a.pool].name();
        let list = pins
            .entry((host.object.namespace.clone(), pool.to_string()))
            .or_default();
        match list.iter().find(|p| p.host == a.host) {
            Some(p) if p.addr == a.addr => {}
            Some(p) => {
                *ok = false;
                let (on, field) = p.place(host, pool);
                findings.push(
                    Finding::error(format!(
                        "pin {} for IPPool {} differs from {}, the address the host holds now: remove \
                         the pin, or take the claim out of the input to move the host. The host holds it \
                         through {}; without the claim, it moves when it is re-provisioned",
                        p.addr,
                        short(pool),
                        a.addr,
                        a.chain
                    ))
                    .on(on)
                    .at(field),
                );
            }
            None => list.push(Pin {
                host: a.host,
                addr: a.addr,
                source: PinSource::Adopted(Box::new(a)),
            }),
        }
    }
    pins
}
