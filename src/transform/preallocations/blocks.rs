//! Blocks for new clusters: a network whose config says how it hands out blocks (`blockSize`)
//! gives each pool that asks for one the lowest free aligned block of its cidr (one per address
//! family), or block n when the pool says `ipreuse.dev/block-index: "n"`.
//!
//! A pool asks when it is annotated `ipreuse.dev/network: N`, N has `blockSize`, the config lets
//! the function manage it, and it has no `spec.pools` entry. A pool with a `spec.pools` entry
//! never gets a block: its ranges are its own (a lock), whatever its annotations say.
//!
//! What no block may meet is one interval set per cidr, built here from the index and the config
//! (never by listing addresses): the ranges, gateways and DNS servers of every other pool of the
//! network, their entries, `status.indexes` addresses and host pins, the config's `reserve`, the
//! control-plane endpoints of the namespaces with a pool on the network, the network's
//! `exclude`, and for `blockKind: range` the network's gateway, DNS servers and the network and
//! broadcast addresses of its segment (`prefix`). The choice itself is [`crate::ipam::blocks`].
//!
//! The result is an edit per pool that writes `spec.pools` (and `prefix`, `gateway`,
//! `dnsServers`), and the pool's new spec ([`Handout::overlay`]), which allocation reads instead
//! of the model's so that the pool's hosts get their entries in the same run. Nothing here
//! touches text.

use std::collections::BTreeMap;

use crate::config::{BlockKind, BlockPlan, Config, GatewayPolicy, NetworkCidr};
use crate::edits::ItemEdit;
use crate::ipam::{
    self, Addr, BlockAsk, BlockHolder, BlockRefusal, BlockRequest, BlockSpace, EntrySpec, Family,
    IntervalSet, PoolSpec,
};
use crate::model::pool::{BLOCK_INDEX_ANNOTATION, BLOCK_SIZE_ANNOTATION, NETWORK_ANNOTATION, Pool};
use crate::model::{Index, PoolId};
use crate::names::{list_some, short};
use crate::results::{Finding, key_path};
use crate::yaml::{Edit, Seg};
use crate::{FastMap, FastSet};

/// What the hand-out decided.
#[derive(Debug, Default)]
pub struct Handout {
    /// The new spec of each pool that got its blocks: what allocation reads for it instead of
    /// the model's (its ranges are the blocks).
    pub overlay: FastMap<PoolId, PoolSpec>,
    /// The pools that asked and got no block (or were refused): allocation leaves them out, so
    /// that they get no follow-on errors about their missing ranges.
    pub refused: FastSet<PoolId>,
    /// The edits that write the blocks into the pools.
    pub edits: Vec<ItemEdit>,
    /// One info per pool given a block, true only once the edits are written.
    pub written: Vec<Finding>,
    /// `mode: check`: one error per pool that asks for a block and has none.
    pub check: Vec<Finding>,
    /// `ipreuse plan`: every block of the networks with `blockSize`, the ones this run gives
    /// (`new`) and, when the plan is asked for, the ranges pools of those networks already
    /// have (`kept`); ordered by network, namespace, pool and address.
    pub rows: Vec<BlockRow>,
}

/// One block as `ipreuse plan` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BlockRow {
    pub network: String,
    pub namespace: String,
    pub pool: String,
    /// The block as a CIDR (`172.22.0.64/26`) when it is one, else `start-end` (a kept range
    /// written by hand).
    pub range: String,
    /// Its index among the blocks of its cidr at the pool's block size; none for a kept range
    /// that is not one whole aligned block.
    pub index: Option<u128>,
    pub status: BlockStatus,
    /// Sort key: the block's first address.
    #[serde(skip)]
    lo: u128,
}

/// Whether a block is given by this run or already the pool's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockStatus {
    /// Given by this run: fill writes it into the pool's `spec.pools`.
    New,
    /// The pool's own range already (written by an earlier run, or by hand): never changed.
    Kept,
}

impl BlockStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            BlockStatus::New => "new",
            BlockStatus::Kept => "kept",
        }
    }
}

/// `lo/len` when `lo..=hi` is one aligned CIDR of `family`, else `lo-hi`.
fn range_text(lo: u128, hi: u128, family: Family) -> String {
    let len = hi.wrapping_sub(lo).wrapping_add(1);
    let (a, b) = (Addr::from_value(lo), Addr::from_value(hi));
    if len != 0 && len.is_power_of_two() && lo.is_multiple_of(len) {
        let prefix = family.bits() - len.trailing_zeros() as u8;
        format!("{a}/{prefix}")
    } else {
        format!("{a}-{b}")
    }
}

/// One block given to a pool: the cidr it is of, its index, first and last value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Given<'c> {
    pub cidr: &'c NetworkCidr,
    pub plan: &'c BlockPlan,
    /// The block's prefix length (the pool's `ipreuse.dev/block-size`, else `blockSize`).
    pub size: u8,
    pub index: u128,
    pub lo: u128,
    pub hi: u128,
}

/// One thing no block may meet, and how a message names it.
#[derive(Debug)]
struct Source {
    what: String,
    set: IntervalSet,
}

/// What no block of one cidr may meet, kept as named sources so that a refused pin can say
/// what holds its block.
#[derive(Debug, Default)]
pub struct Taken {
    sources: Vec<Source>,
    /// The union of the sources.
    pub all: IntervalSet,
}

impl Taken {
    fn add(&mut self, what: impl Into<String>, set: IntervalSet) {
        if set.is_empty() {
            return;
        }
        self.all.extend(&set);
        self.sources.push(Source {
            what: what.into(),
            set,
        });
    }

    fn add_addr(&mut self, what: impl Into<String>, a: Addr) {
        let mut s = IntervalSet::new();
        s.insert_addr(a);
        self.add(what, s);
    }

    /// What holds `a`: the first source that has it.
    pub fn holder(&self, a: Addr) -> Option<&str> {
        self.sources
            .iter()
            .find(|s| s.set.contains_addr(a))
            .map(|s| s.what.as_str())
    }
}

/// `IPPool ns/name`.
fn label(pool: &Pool) -> String {
    format!(
        "IPPool {}/{}",
        short(&pool.object.namespace),
        short(pool.name())
    )
}

/// The network's segment of a `range` cidr: the cidr's network at `prefix` (first, last).
fn segment(cidr: &NetworkCidr, prefix: u8) -> Option<(u128, u128)> {
    let family = cidr.first.family();
    BlockSpace::new(cidr.first.value(), prefix, family, prefix)
        .ok()
        .map(|s| (s.lo(), s.hi()))
}

/// The pools on network `name` other than the asking ones, for the taken set: the pools
/// annotated with it, and the pools whose ranges meet its cidrs.
fn members<'i>(
    idx: &'i Index,
    name: &str,
    cidrs: &IntervalSet,
    asking: &FastSet<PoolId>,
    valid: &'i FastMap<PoolId, ipam::Pool>,
) -> Vec<PoolId> {
    let mut out: Vec<PoolId> = valid
        .iter()
        .filter(|(p, ip)| {
            !asking.contains(p)
                && (idx.pools[**p].network.as_deref() == Some(name)
                    || ip.candidates().intersects(cidrs))
        })
        .map(|(p, _)| *p)
        .collect();
    out.sort_unstable_by_key(|p| p.0);
    out
}

/// The host pins of each (namespace, pool name), as a set: read once per run.
pub type Pins<'i> = FastMap<(&'i str, &'i str), IntervalSet>;

/// Reads every host pin (`ipreuse.dev/ip.{pool}`) that parses; the others are reported by
/// allocation.
fn pins(idx: &Index) -> Pins<'_> {
    let mut out: Pins = FastMap::default();
    for host in &idx.hosts {
        for (pool, text) in &host.pins {
            if let Ok(p) = ipam::parse_addr(text) {
                out.entry((host.object.namespace.as_str(), pool.as_str()))
                    .or_default()
                    .insert_addr(p.addr());
            }
        }
    }
    out
}

/// What a network's blocks are handed out beside.
pub struct Around<'a> {
    /// The other pools of the network (not asking).
    pub members: &'a [PoolId],
    /// The validated ranges of the pools.
    pub valid: &'a FastMap<PoolId, ipam::Pool>,
    /// The namespaces with a pool on the network, asking ones included.
    pub namespaces: &'a std::collections::BTreeSet<&'a str>,
    /// The host pins by (namespace, pool).
    pub pins_of: &'a Pins<'a>,
}

/// Builds what no block of `cidr` may meet.
pub fn taken_set(
    idx: &Index,
    cfg: &Config,
    cidr: &NetworkCidr,
    plan: &BlockPlan,
    around: &Around,
) -> Taken {
    let Around {
        members,
        valid,
        namespaces,
        pins_of,
    } = around;
    let mut t = Taken::default();
    for &q in *members {
        let pool = &idx.pools[q];
        let l = label(pool);
        if let Some(ip) = valid.get(&q) {
            let mut ranges = ip.candidates().clone();
            ranges.extend(&ip.reserved_rule1());
            t.add(format!("the ranges of {l}"), ranges);
        }
        let mut held = IntervalSet::new();
        let parsed = pool
            .pre_allocations
            .iter()
            .chain(&pool.indexes)
            .map(|(_, v)| v.as_str());
        for text in parsed {
            if let Ok(p) = ipam::parse_addr(text) {
                held.insert_addr(p.addr());
            }
        }
        t.add(format!("an entry or status.indexes address of {l}"), held);
        let pins = pins_of
            .get(&(pool.object.namespace.as_str(), pool.name()))
            .cloned()
            .unwrap_or_default();
        t.add(format!("a host pin for {l}"), pins);
    }
    let mut reserve = IntervalSet::new();
    for r in &cfg.reserve {
        reserve.insert_range(r.first.value(), r.last.value());
    }
    t.add("the config's reserve", reserve);
    for ns in namespaces.iter() {
        let mut eps = IntervalSet::new();
        for (text, _) in idx.endpoints.get(*ns).into_iter().flatten() {
            if let Ok(p) = ipam::parse_addr(text) {
                eps.insert_addr(p.addr());
            }
        }
        t.add(
            format!("the control-plane endpoint of namespace {}", short(ns)),
            eps,
        );
    }
    t.add(
        format!("the exclude of network {}", cidr.name),
        plan.exclude.clone(),
    );
    if plan.kind == BlockKind::Range {
        if let Some(g) = plan.gateway {
            t.add_addr(format!("the gateway of network {}", cidr.name), g);
        }
        for d in &plan.dns_servers {
            t.add_addr(format!("a DNS server of network {}", cidr.name), *d);
        }
        // The segment's edges as the pools' reserved rule 2 skips them: the network address
        // (IPv4 to /30, IPv6 to /126), the broadcast address (IPv4 to /30; IPv6 has none).
        if let Some((lo, hi)) = segment(cidr, plan.prefix) {
            let family = cidr.first.family();
            let seg = format!("{}/{}", Addr::from_value(lo), plan.prefix);
            if ipam::reserves_network(family, plan.prefix) {
                t.add_addr(
                    format!("the network address of segment {seg}"),
                    Addr::from_value(lo),
                );
            }
            if ipam::reserves_broadcast(family, plan.prefix) {
                t.add_addr(
                    format!("the broadcast address of segment {seg}"),
                    Addr::from_value(hi),
                );
            }
        }
    }
    t
}

/// One pool that asks for a block of one cidr.
#[derive(Debug, Clone, Copy)]
struct Ask {
    pool: PoolId,
    size: u8,
    ask: BlockAsk,
}

/// Hands out the blocks of every network with `blockSize` to the pools that ask, in byte order
/// of (namespace, name); errors go to `findings`. `checking`: the run is `mode: check`.
/// `plan`: the run is `ipreuse plan`, which lists the kept blocks too ([`Handout::rows`]).
pub fn hand_out(
    idx: &Index,
    cfg: &Config,
    checking: bool,
    plan: bool,
    findings: &mut Vec<Finding>,
) -> Handout {
    let mut out = Handout::default();
    // Network name → its cidrs with blocks, IPv4 first.
    let mut nets: BTreeMap<&str, Vec<(&NetworkCidr, &BlockPlan)>> = BTreeMap::new();
    for n in &cfg.networks {
        if let Some(b) = &n.blocks {
            nets.entry(n.name.as_str()).or_default().push((n, b));
        }
    }
    for list in nets.values_mut() {
        list.sort_by_key(|(n, _)| n.first.family() != Family::V4);
    }
    let annotated = |p: &Pool| p.block_index.is_some() || p.block_size.is_some();
    if nets.is_empty() && !idx.pools.iter().any(annotated) {
        // Nothing hands out blocks and no pool asks: the run costs nothing more.
        return out;
    }
    stale_pins(idx, cfg, &nets, findings);
    let mut order: Vec<PoolId> = PoolId::all(idx.pools.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&idx.pools[a].object, &idx.pools[b].object);
        (pa.namespace.as_bytes(), pa.name.as_bytes())
            .cmp(&(pb.namespace.as_bytes(), pb.name.as_bytes()))
    });
    // The pools that ask, per network, in order.
    let mut asking_by_net: BTreeMap<&str, Vec<PoolId>> = BTreeMap::new();
    let mut asking: FastSet<PoolId> = FastSet::default();
    for &p in &order {
        let pool = &idx.pools[p];
        if pool.skipped.is_some()
            || !crate::transform::preallocations::mapping::manages(cfg, pool)
            || !pool.spec.entries.is_empty()
        {
            continue;
        }
        let on = pool.network.as_deref().filter(|n| nets.contains_key(n));
        match on {
            Some(n) => {
                asking_by_net.entry(n).or_default().push(p);
                asking.insert(p);
            }
            None => {
                if no_network(pool, &nets, cfg, findings) {
                    out.refused.insert(p);
                }
            }
        }
    }
    if asking.is_empty() && !plan {
        return out;
    }
    let valid: FastMap<PoolId, ipam::Pool> = PoolId::all(idx.pools.len())
        .zip(&idx.pools)
        .filter(|(p, pool)| pool.skipped.is_none() && !asking.contains(p))
        .filter_map(|(p, pool)| ipam::Pool::new(&pool.spec).ok().map(|ip| (p, ip)))
        .collect();
    if plan {
        out.rows = kept_rows(idx, &nets, &asking, &valid);
    }
    if asking.is_empty() {
        sort_rows(&mut out.rows);
        return out;
    }
    let pins_of = pins(idx);
    for (name, cidrs) in &nets {
        let Some(pools) = asking_by_net.get(name) else {
            continue;
        };
        let mut union = IntervalSet::new();
        for (c, _) in cidrs {
            union.insert_range(c.first.value(), c.last.value());
        }
        let members = members(idx, name, &union, &asking, &valid);
        let namespaces: std::collections::BTreeSet<&str> = members
            .iter()
            .chain(pools)
            .map(|p| idx.pools[*p].object.namespace.as_str())
            .collect();
        // Each pool's blocks, one per cidr; a pool missing any gets none.
        let mut got: BTreeMap<PoolId, Vec<Given>> = BTreeMap::new();
        let mut failed: FastSet<PoolId> = FastSet::default();
        for (cidr, plan) in cidrs {
            let around = Around {
                members: &members,
                valid: &valid,
                namespaces: &namespaces,
                pins_of: &pins_of,
            };
            let mut taken = taken_set(idx, cfg, cidr, plan, &around);
            let asks = asks_of(idx, name, cidr, plan, cidrs.len() > 1, pools, findings);
            for (p, ok) in &asks {
                if ok.is_none() {
                    failed.insert(*p);
                }
            }
            let asks: Vec<Ask> = asks.into_iter().filter_map(|(_, a)| a).collect();
            for g in choose(idx, name, cidr, plan, &asks, &mut taken, findings) {
                match g {
                    Ok((p, given)) => got.entry(p).or_default().push(given),
                    Err(p) => {
                        failed.insert(p);
                    }
                }
            }
        }
        for &p in pools {
            let blocks = got.remove(&p).unwrap_or_default();
            if failed.contains(&p) || blocks.len() != cidrs.len() {
                out.refused.insert(p);
                continue;
            }
            match write(&idx.pools[p], name, &blocks, findings) {
                Some((spec, edits)) => {
                    let pool = &idx.pools[p];
                    let what = describe(&blocks);
                    out.written.push(
                        Finding::info(format!("gets {what} of network {name}"))
                            .on(pool.object.resource_ref())
                            .at("spec.pools"),
                    );
                    if checking {
                        out.check.push(
                            Finding::error(format!(
                                "check: {} asks for a block of network {name} and has none; fill would give it {what}; \
                                 run ipreuse in fill mode and commit the result",
                                label(pool)
                            ))
                            .on(pool.object.resource_ref())
                            .at("spec.pools"),
                        );
                    }
                    out.edits.extend(
                        edits
                            .into_iter()
                            .map(|e| ItemEdit::new(pool.object.index, e)),
                    );
                    out.rows.extend(blocks.iter().map(|g| BlockRow {
                        network: name.to_string(),
                        namespace: pool.object.namespace.clone(),
                        pool: pool.name().to_string(),
                        range: range_text(g.lo, g.hi, g.cidr.first.family()),
                        index: Some(g.index),
                        status: BlockStatus::New,
                        lo: g.lo,
                    }));
                    out.overlay.insert(p, spec);
                }
                None => {
                    out.refused.insert(p);
                }
            }
        }
    }
    sort_rows(&mut out.rows);
    out
}

/// A pool that has ranges keeps them (a lock), whatever its block annotations say; when it
/// pins a block index its ranges are not (a stale pin, or one set after the fact), a warning
/// at the annotation says which block the ranges are, so that the pin is not read as a promise.
fn stale_pins(
    idx: &Index,
    cfg: &Config,
    nets: &BTreeMap<&str, Vec<(&NetworkCidr, &BlockPlan)>>,
    findings: &mut Vec<Finding>,
) {
    for pool in &idx.pools {
        let (Some(index), Some(name)) = (pool.block_index, pool.network.as_deref()) else {
            continue;
        };
        let Some(cidrs) = nets.get(name) else {
            continue;
        };
        if pool.skipped.is_some()
            || pool.spec.entries.is_empty()
            || !crate::transform::preallocations::mapping::manages(cfg, pool)
        {
            continue;
        }
        let Ok(ip) = ipam::Pool::new(&pool.spec) else {
            continue;
        };
        let extents: Vec<(u128, u128)> = ip.entries().iter().filter_map(extent).collect();
        // The block each cidr's range is, when it is one whole block of the pool's size.
        let mut is: Vec<String> = Vec::new();
        let mut matches = true;
        for (cidr, plan) in cidrs {
            let family = cidr.first.family();
            let size = pool.block_size.unwrap_or(plan.size);
            let Ok(space) = BlockSpace::new(cidr.first.value(), cidr.prefix, family, size) else {
                matches = false;
                continue;
            };
            let inside: Vec<&(u128, u128)> = extents
                .iter()
                .filter(|(lo, hi)| cidr.first.value() <= *lo && *hi <= cidr.last.value())
                .collect();
            let whole = match inside.as_slice() {
                [(lo, hi)] => space
                    .index_of(*lo)
                    .filter(|i| space.block(*i) == Some((*lo, *hi))),
                _ => None,
            };
            match whole {
                Some(i) if i == index => {}
                Some(i) => {
                    matches = false;
                    is.push(format!("block {i} of cidr {}", cidr.cidr));
                }
                None => {
                    matches = false;
                    is.push(format!("no single /{size} block of cidr {}", cidr.cidr));
                }
            }
        }
        if matches {
            continue;
        }
        findings.push(
            Finding::warning(format!(
                "this pool keeps its ranges, so its {BLOCK_INDEX_ANNOTATION} {index} is not used: set \
                 it to the block the pool has, or remove it. Its ranges are {} of network {name}",
                is.join(" and ")
            ))
            .on(pool.object.resource_ref())
            .at(key_path("metadata.annotations", BLOCK_INDEX_ANNOTATION)),
        );
    }
}

/// The addresses a `spec.pools` entry spans as written (first, last): its whole `subnet`, or
/// `start` to `end`; none for an entry with neither.
fn extent(e: &ipam::Entry) -> Option<(u128, u128)> {
    match (e.subnet, e.start, e.end) {
        (Some(s), _, _) => Some((s.network().value(), s.last().value())),
        (None, Some(a), Some(b)) if a <= b => Some((a.value(), b.value())),
        _ => None,
    }
}

/// By network, namespace (bytes), pool (bytes), then address.
fn sort_rows(rows: &mut [BlockRow]) {
    rows.sort_by(|a, b| {
        (
            a.network.as_str(),
            a.namespace.as_bytes(),
            a.pool.as_bytes(),
            a.lo,
        )
            .cmp(&(
                b.network.as_str(),
                b.namespace.as_bytes(),
                b.pool.as_bytes(),
                b.lo,
            ))
    });
}

/// The ranges pools of each network with `blockSize` already have (`kept`): each `spec.pools`
/// entry of a valid pool on the network (annotated, or with candidates in its cidrs) that lies
/// inside one of its cidrs, with its block index when it is one whole block of the pool's size.
fn kept_rows(
    idx: &Index,
    nets: &BTreeMap<&str, Vec<(&NetworkCidr, &BlockPlan)>>,
    asking: &FastSet<PoolId>,
    valid: &FastMap<PoolId, ipam::Pool>,
) -> Vec<BlockRow> {
    let mut rows = Vec::new();
    for (name, cidrs) in nets {
        let mut union = IntervalSet::new();
        for (c, _) in cidrs {
            union.insert_range(c.first.value(), c.last.value());
        }
        for p in members(idx, name, &union, asking, valid) {
            let pool = &idx.pools[p];
            for e in valid[&p].entries() {
                let Some((lo, hi)) = extent(e) else {
                    continue;
                };
                let Some((cidr, plan)) = cidrs
                    .iter()
                    .find(|(c, _)| c.first.value() <= lo && hi <= c.last.value())
                else {
                    continue;
                };
                let family = cidr.first.family();
                let size = pool.block_size.unwrap_or(plan.size);
                let index = BlockSpace::new(cidr.first.value(), cidr.prefix, family, size)
                    .ok()
                    .and_then(|space| {
                        let i = space.index_of(lo)?;
                        (space.block(i) == Some((lo, hi))).then_some(i)
                    });
                rows.push(BlockRow {
                    network: name.to_string(),
                    namespace: pool.object.namespace.clone(),
                    pool: pool.name().to_string(),
                    range: range_text(lo, hi, family),
                    index,
                    status: BlockStatus::Kept,
                    lo,
                });
            }
        }
    }
    rows
}

/// `block 1 (10.0.0.32-10.0.0.63)`, and ` and block 4 (fd00::...)` for a second family.
fn describe(blocks: &[Given]) -> String {
    let parts: Vec<String> = blocks
        .iter()
        .map(|g| {
            format!(
                "block {} ({}/{} of cidr {})",
                g.index,
                Addr::from_value(g.lo),
                g.size,
                g.cidr.cidr
            )
        })
        .collect();
    parts.join(" and ")
}

/// A pool without `spec.pools` that gets no block although it asks for one: it has a block
/// annotation, or its `ipreuse.dev/network` names a network that hands out no blocks while the
/// config has networks that do (a misspelt name would otherwise leave the pool with no
/// addresses and a message about its empty ranges). An error naming the annotation; whether
/// it was one.
fn no_network(
    pool: &Pool,
    nets: &BTreeMap<&str, Vec<(&NetworkCidr, &BlockPlan)>>,
    cfg: &Config,
    findings: &mut Vec<Finding>,
) -> bool {
    let annotation = if pool.block_index.is_some() {
        BLOCK_INDEX_ANNOTATION
    } else if pool.block_size.is_some() {
        BLOCK_SIZE_ANNOTATION
    } else if pool.network.is_some() && !nets.is_empty() {
        NETWORK_ANNOTATION
    } else {
        return false;
    };
    let giving: Vec<&str> = nets.keys().copied().collect();
    let why = match &pool.network {
        Some(n) if cfg.networks.iter().any(|c| &c.name == n) => {
            format!("Its network {n} hands out no blocks (it has no blockSize in the config)")
        }
        Some(n) => format!(
            "The config has no network named {n}{}",
            crate::names::did_you_mean(n, &giving)
        ),
        None => format!("It names no network ({NETWORK_ANNOTATION})"),
    };
    let fix = if giving.is_empty() {
        "give the network blockSize, or write spec.pools".to_string()
    } else {
        format!(
            "annotate it {NETWORK_ANNOTATION} with a network that hands out blocks ({}), or write spec.pools",
            list_some(giving.iter().map(|g| g.to_string()), 5)
        )
    };
    findings.push(
        Finding::error(format!(
            "this pool has no spec.pools and gets no block. {why}: {fix}"
        ))
        .on(pool.object.resource_ref())
        .at(key_path("metadata.annotations", annotation)),
    );
    true
}

/// The request of each asking pool for `cidr`: its size (the annotation over `blockSize`,
/// checked against the cidr) and its index pin; `None` for a pool refused here.
fn asks_of(
    idx: &Index,
    name: &str,
    cidr: &NetworkCidr,
    plan: &BlockPlan,
    dual: bool,
    pools: &[PoolId],
    findings: &mut Vec<Finding>,
) -> Vec<(PoolId, Option<Ask>)> {
    let family = cidr.first.family();
    pools
        .iter()
        .map(|&p| {
            let pool = &idx.pools[p];
            let at = key_path("metadata.annotations", BLOCK_SIZE_ANNOTATION);
            let size = match pool.block_size {
                Some(_) if dual => {
                    findings.push(
                        Finding::error(format!(
                            "this pool sets {BLOCK_SIZE_ANNOTATION}, but network {name} has an IPv4 and an IPv6 cidr: one size cannot fit both. \
                             Remove the annotation and set blockSize per family in the config"
                        ))
                        .on(pool.object.resource_ref())
                        .at(at),
                    );
                    return (p, None);
                }
                Some(s) => s,
                None => plan.size,
            };
            if let Err(e) = BlockSpace::new(cidr.first.value(), cidr.prefix, family, size) {
                findings.push(
                    Finding::error(format!(
                        "this pool cannot take a block of network {name} (cidr {}). {BLOCK_SIZE_ANNOTATION} {}",
                        cidr.cidr,
                        e.to_string().trim_start_matches("blockSize ")
                    ))
                    .on(pool.object.resource_ref())
                    .at(at),
                );
                return (p, None);
            }
            let ask = match pool.block_index {
                Some(n) => BlockAsk::Index(n),
                None => BlockAsk::Lowest,
            };
            (p, Some(Ask { pool: p, size, ask }))
        })
        .collect()
}

/// Decides the blocks of `asks` in `cidr`: every index pin first, then the lowest free block,
/// each in request order (consecutive requests of one size are decided together). What is
/// given is added to `taken`. Refusals are errors.
fn choose<'c>(
    idx: &Index,
    name: &str,
    cidr: &'c NetworkCidr,
    plan: &'c BlockPlan,
    asks: &[Ask],
    taken: &mut Taken,
    findings: &mut Vec<Finding>,
) -> Vec<Result<(PoolId, Given<'c>), PoolId>> {
    let family = cidr.first.family();
    let mut out = Vec::new();
    let pins = asks.iter().filter(|a| matches!(a.ask, BlockAsk::Index(_)));
    let lowest = asks.iter().filter(|a| a.ask == BlockAsk::Lowest);
    let phase: Vec<&Ask> = pins.chain(lowest).collect();
    let mut start = 0;
    while start < phase.len() {
        let first = phase[start];
        let pinning = first.ask != BlockAsk::Lowest;
        let end = phase[start..]
            .iter()
            .position(|a| a.size != first.size || (a.ask != BlockAsk::Lowest) != pinning)
            .map_or(phase.len(), |k| start + k);
        let batch = &phase[start..end];
        start = end;
        let Ok(space) = BlockSpace::new(cidr.first.value(), cidr.prefix, family, first.size) else {
            continue;
        };
        let free_before = ipam::free_blocks(&space, &taken.all);
        let requests: Vec<BlockRequest<PoolId>> = batch
            .iter()
            .map(|a| BlockRequest {
                key: a.pool,
                ask: a.ask,
            })
            .collect();
        let choice = ipam::choose_blocks(&space, &taken.all, &requests);
        for (p, index, (lo, hi)) in &choice.given {
            let mut set = IntervalSet::new();
            set.insert_range(*lo, *hi);
            taken.add(
                format!("the block this run gives {}", label(&idx.pools[*p])),
                set,
            );
            out.push(Ok((
                *p,
                Given {
                    cidr,
                    plan,
                    size: first.size,
                    index: *index,
                    lo: *lo,
                    hi: *hi,
                },
            )));
        }
        let left: Vec<String> = choice
            .refused
            .iter()
            .filter(|(_, r)| matches!(r, BlockRefusal::NoFreeBlock { .. }))
            .map(|(p, _)| label(&idx.pools[*p]))
            .collect();
        for (p, why) in &choice.refused {
            let pool = &idx.pools[*p];
            findings.push(refusal(
                pool,
                name,
                cidr,
                &space,
                why,
                taken,
                idx,
                free_before,
                batch.len(),
                &left,
            ));
            out.push(Err(*p));
        }
    }
    out
}

/// The error for a refused request.
#[allow(clippy::too_many_arguments)]
fn refusal(
    pool: &Pool,
    name: &str,
    cidr: &NetworkCidr,
    space: &BlockSpace,
    why: &BlockRefusal<PoolId>,
    taken: &Taken,
    idx: &Index,
    free_before: u128,
    asked: usize,
    left: &[String],
) -> Finding {
    let size = space.block_prefix();
    let pin_at = key_path("metadata.annotations", BLOCK_INDEX_ANNOTATION);
    let block_text = |i: u128| match space.block(i) {
        Some((lo, _)) => format!("{}/{size}", Addr::from_value(lo)),
        None => format!("block {i}"),
    };
    let (message, field) = match why {
        BlockRefusal::IndexOutside { index, count } => (
            format!(
                "this pool asks for block {index} of network {name}, but cidr {} holds {count} blocks of /{size} (0 to {}). \
                 Change {BLOCK_INDEX_ANNOTATION} to a free block of the cidr",
                cidr.cidr,
                count.saturating_sub(1)
            ),
            pin_at,
        ),
        BlockRefusal::IndexTaken { index, by } => {
            let holder = match by {
                BlockHolder::Request(q) => {
                    format!("{} asks for it too (first in order)", label(&idx.pools[*q]))
                }
                BlockHolder::Address(a) => format!(
                    "Its address {a} is taken by {}",
                    taken.holder(*a).unwrap_or("another pool of the network")
                ),
                BlockHolder::Ipv4Mapped => {
                    "It meets the IPv4-mapped addresses ::ffff:0:0/96, which Metal3 does not accept"
                        .to_string()
                }
            };
            (
                format!(
                    "this pool asks for block {index} of network {name} ({}), which is not free. {holder}: \
                     choose another {BLOCK_INDEX_ANNOTATION}, or remove it to take the lowest free block",
                    block_text(*index)
                ),
                pin_at,
            )
        }
        BlockRefusal::NoFreeBlock { .. } => (
            format!(
                "no free /{size} block of network {name} (cidr {}) is left for this pool: widen the \
                 cidr, free a block, or use a longer blockSize (smaller blocks). Of the {free_before} \
                 free blocks, {asked} {} asked; left without one: {}",
                cidr.cidr,
                if asked == 1 { "pool" } else { "pools" },
                list_some(left.iter().cloned(), 5)
            ),
            "spec.pools".to_string(),
        ),
    };
    Finding::error(message)
        .on(pool.object.resource_ref())
        .at(field)
}

/// The pool's new spec and the edits that write it; `None` (with an error) when the pool sets
/// a `prefix`, `gateway` or `dnsServers` that its block's differ from.
fn write(
    pool: &Pool,
    name: &str,
    blocks: &[Given],
    findings: &mut Vec<Finding>,
) -> Option<(PoolSpec, Vec<Edit>)> {
    if !pool.spec_mapping {
        findings.push(
            Finding::error(format!(
                "this pool has no spec mapping to write its block of network {name} into. Write spec with its namePrefix (the IPPool CRD requires one): spec: {{namePrefix: NAME}}"
            ))
            .on(pool.object.resource_ref())
            .at("spec"),
        );
        return None;
    }
    let mut spec = pool.spec.clone();
    let spec_path = || vec![Seg::key("spec")];
    let mut edits = Vec::new();
    let entries: Vec<(EntrySpec, Fields)> = blocks
        .iter()
        .map(|g| {
            let f = fields(g);
            let lo = Addr::from_value(g.lo).to_string();
            let hi = Addr::from_value(g.hi).to_string();
            let e = match g.plan.kind {
                BlockKind::Range => EntrySpec {
                    start: Some(lo),
                    end: Some(hi),
                    ..EntrySpec::default()
                },
                BlockKind::Subnet => EntrySpec {
                    subnet: Some(format!("{lo}/{}", g.size)),
                    ..EntrySpec::default()
                },
            };
            (e, f)
        })
        .collect();
    let mut yaml = String::new();
    if let [(entry, f)] = entries.as_slice() {
        // One family: the block's prefix, gateway and DNS servers at the pool's top level.
        yaml.push_str(&entry_yaml(entry, None));
        let conflict = |field: &str, has: String, want: String| {
            Finding::error(format!(
                "this pool sets {field}, which differs from what its block of network {name} is written with. \
                 The pool has {has}, the block {want}: remove {field} from the pool, or change the network's block settings"
            ))
            .on(pool.object.resource_ref())
            .at(format!("spec.{field}"))
        };
        let mut ok = true;
        match spec.prefix.filter(|p| *p != 0) {
            Some(p) if p != f.prefix => {
                findings.push(conflict("prefix", p.to_string(), f.prefix.to_string()));
                ok = false;
            }
            Some(_) => {}
            None => {
                edits.push(Edit::SetValue {
                    path: spec_path(),
                    key: "prefix".into(),
                    yaml: format!("{}\n", f.prefix),
                });
                spec.prefix = Some(f.prefix);
            }
        }
        if let Some(g) = f.gateway {
            match spec.gateway.as_deref() {
                Some(t) if ipam::parse_addr(t).map(|p| p.addr()) != Ok(g) => {
                    findings.push(conflict("gateway", t.to_string(), g.to_string()));
                    ok = false;
                }
                Some(_) => {}
                None => {
                    edits.push(Edit::SetValue {
                        path: spec_path(),
                        key: "gateway".into(),
                        yaml: format!("\"{g}\"\n"),
                    });
                    spec.gateway = Some(g.to_string());
                }
            }
        }
        if !f.dns.is_empty() {
            let has: Vec<Option<Addr>> = spec
                .dns_servers
                .iter()
                .map(|t| ipam::parse_addr(t).ok().map(|p| p.addr()))
                .collect();
            let want: Vec<Option<Addr>> = f.dns.iter().copied().map(Some).collect();
            if spec.dns_servers.is_empty() {
                edits.push(Edit::SetValue {
                    path: spec_path(),
                    key: "dnsServers".into(),
                    yaml: list_yaml(&f.dns),
                });
                spec.dns_servers = f.dns.iter().map(ToString::to_string).collect();
            } else if has != want {
                findings.push(conflict(
                    "dnsServers",
                    spec.dns_servers.join(", "),
                    f.dns
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                ));
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        spec.entries = vec![entry.clone()];
    } else {
        // Two families: each entry carries its own prefix, gateway and DNS servers.
        spec.entries.clear();
        for (entry, f) in entries {
            let entry = EntrySpec {
                prefix: Some(f.prefix),
                gateway: f.gateway.map(|g| g.to_string()),
                dns_servers: f.dns.iter().map(ToString::to_string).collect(),
                ..entry
            };
            yaml.push_str(&entry_yaml(&entry, Some(&f)));
            spec.entries.push(entry);
        }
    }
    edits.insert(
        0,
        Edit::SetValue {
            path: spec_path(),
            key: "pools".into(),
            yaml,
        },
    );
    Some((spec, edits))
}

/// The prefix, gateway and DNS servers a block is written with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    pub prefix: u8,
    pub gateway: Option<Addr>,
    pub dns: Vec<Addr>,
}

/// Range blocks: the network's own prefix, gateway and DNS servers. Subnet blocks: the block's
/// size, a gateway by `gatewayPolicy` (first or last usable address), the DNS servers.
pub fn fields(g: &Given) -> Fields {
    match g.plan.kind {
        BlockKind::Range => Fields {
            prefix: g.plan.prefix,
            gateway: g.plan.gateway,
            dns: g.plan.dns_servers.clone(),
        },
        BlockKind::Subnet => Fields {
            prefix: g.size,
            gateway: match g.plan.gateway_policy {
                GatewayPolicy::First => Some(Addr::from_value(g.lo + 1)),
                // The last usable address: before an IPv4 block's broadcast address; an IPv6
                // block has none, so its last address.
                GatewayPolicy::Last if ipam::reserves_broadcast(g.cidr.first.family(), g.size) => {
                    Some(Addr::from_value(g.hi - 1))
                }
                GatewayPolicy::Last => Some(Addr::from_value(g.hi)),
                GatewayPolicy::None => None,
            },
            dns: g.plan.dns_servers.clone(),
        },
    }
}

/// One `spec.pools` item as YAML (addresses double-quoted), with the per-entry fields when given.
fn entry_yaml(e: &EntrySpec, f: Option<&Fields>) -> String {
    let mut lines: Vec<String> = Vec::new();
    if let Some(s) = &e.subnet {
        lines.push(format!("subnet: \"{s}\""));
    }
    if let (Some(s), Some(t)) = (&e.start, &e.end) {
        lines.push(format!("start: \"{s}\""));
        lines.push(format!("end: \"{t}\""));
    }
    if let Some(f) = f {
        lines.push(format!("prefix: {}", f.prefix));
        if let Some(g) = f.gateway {
            lines.push(format!("gateway: \"{g}\""));
        }
        if !f.dns.is_empty() {
            lines.push("dnsServers:".into());
            lines.extend(f.dns.iter().map(|d| format!("  - \"{d}\"")));
        }
    }
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        out.push_str(if i == 0 { "- " } else { "  " });
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// `- "a"` lines.
fn list_yaml(addrs: &[Addr]) -> String {
    addrs.iter().map(|a| format!("- \"{a}\"\n")).collect()
}

#[cfg(test)]
mod tests;
