//! The addresses a new entry of one pool may not take (SPEC §5 "Reserved" and "Taken").
//!
//! Three sets, never merged into one: the pool's fixed blocked candidates (computed once in
//! [`Context::build`](super::context::Context::build)), what this fill adds, and what the
//! pools of the namespace hold inside their own candidates ([`Shared`]). The cursor walks
//! their union and the free count adds them up, so nothing is copied per pool.

use crate::{FastMap, FastSet};

use super::context::Context;
use super::network::Network;
use super::shared::Shared;
use super::state::{Pin, PoolState};
use crate::ipam::{self, Addr, FreeCursor, IntervalSet};
use crate::model::PoolId;

/// The addresses a new entry of one pool may not take, and who holds them.
pub struct Blocked<'a> {
    /// Reserved by rules 1–4 (an error on a host's entry or pin).
    pub reserved: &'a IntervalSet,
    /// Candidates blocked before anything is added (reserved, this pool's holdings, what
    /// overlapping pools hold outside their own candidates).
    fixed: &'a IntervalSet,
    /// Candidates blocked since: taken by the strategy in this fill, or held outside their
    /// candidates by overlapping pools filled earlier in this run. Disjoint from `fixed`.
    extra: IntervalSet,
    /// What the pools of the namespace hold inside their own candidates.
    shared: Option<&'a Shared>,
    /// The network the pool is on (SPEC §10): who else on it holds an address.
    net: Option<&'a Network>,
    /// How many of this pool's entries, live claims and pins hold each address.
    own: FastMap<u128, u32>,
    /// Candidates held outside their candidates by overlapping pools filled earlier.
    added_outside: FastSet<u128>,
    st: &'a PoolState,
    pool: PoolId,
}

impl<'a> Blocked<'a> {
    /// The blocked addresses of pool `p`, whose pins are `pins`.
    pub fn for_pool(ctx: &'a Context, p: PoolId, st: &'a PoolState, pins: &[Pin]) -> Blocked<'a> {
        let mut own: FastMap<u128, u32> = FastMap::default();
        for a in st
            .existing
            .iter()
            .filter_map(|e| e.addr)
            .chain(st.indexes.values().copied())
            .chain(pins.iter().map(|pin| pin.addr))
        {
            *own.entry(a.value()).or_default() += 1;
        }
        let shared = ctx.shared_of(p);
        let net = ctx.networks.of(p);
        let mut blocked = Blocked {
            reserved: &st.reserved,
            fixed: &st.fixed,
            extra: IntervalSet::new(),
            shared,
            net,
            own,
            added_outside: FastSet::default(),
            st,
            pool: p,
        };
        // Entries added by earlier pools outside their own candidates (a pin outside its pool:
        // already an error, but the semantics stay exact).
        if let Some(sh) = shared {
            for (lo, hi) in st.candidates.ranges() {
                for (a, holders) in sh.outside_added.range(lo..=hi) {
                    if holders.iter().any(|q| *q != p && ctx.overlap(p, *q)) {
                        blocked.added_outside.insert(*a);
                        blocked.block(Addr::from_value(*a));
                    }
                }
            }
        }
        blocked
    }

    fn block(&mut self, a: Addr) {
        if !self.fixed.contains_addr(a) {
            self.extra.insert_addr(a);
        }
    }

    /// Marks `a` as taken by this fill.
    pub fn take(&mut self, a: Addr) {
        *self.own.entry(a.value()).or_default() += 1;
        self.block(a);
    }

    /// Whether anything but one holder (the claim asking) holds candidate `a`: another entry,
    /// live claim or pin of this pool, or an overlapping pool.
    pub fn held_by_others(&self, a: Addr) -> bool {
        self.own.get(&a.value()).copied().unwrap_or(0) > 1
            || self.st.held_outside.contains(&a.value())
            || self.added_outside.contains(&a.value())
            || self
                .shared
                .is_some_and(|sh| sh.held_by_other_than(a, self.pool))
            || self.net.is_some_and(|n| n.held_by_other_than(a, self.pool))
    }

    /// Whether candidate `a` is free: neither reserved nor held by anything.
    pub fn is_free(&self, a: Addr) -> bool {
        !self.fixed.contains_addr(a)
            && !self.extra.contains_addr(a)
            && !self.shared.is_some_and(|sh| sh.held.set().contains_addr(a))
            && !self.net.is_some_and(|n| n.held.contains_addr(a))
    }

    /// The free candidate with the lowest walk position after the cursor's.
    pub fn next_free(&self, cursor: &mut FreeCursor) -> Option<(Addr, u64)> {
        let empty = IntervalSet::new();
        let shared = self.shared.map_or(&empty, |sh| sh.held.set());
        let net = self.net.map_or(&empty, |n| &n.held);
        cursor.next_free_outside(&[self.fixed, &self.extra, shared, net])
    }

    /// Number of candidates of the pool that are not blocked.
    pub fn count_free(&self, pool: &ipam::Pool) -> u128 {
        let cand = pool.candidates();
        let in_shared = |s: &IntervalSet| -> u128 {
            self.shared.map_or(0, |sh| {
                s.ranges().fold(0u128, |n, (lo, hi)| {
                    n.saturating_add(sh.held.count_in(lo, hi))
                })
            })
        };
        // |fixed ∪ extra ∪ (shared ∩ cand)|, with fixed and extra disjoint and inside cand.
        let blocked = self
            .fixed
            .count()
            .saturating_add(self.extra.count())
            .saturating_add(in_shared(cand))
            .saturating_sub(in_shared(self.fixed))
            .saturating_sub(in_shared(&self.extra));
        cand.count()
            .saturating_sub(blocked)
            .saturating_sub(self.held_by_network_only(cand))
    }

    /// Candidates the pool's network holds (SPEC §10) that nothing else blocks: the network's
    /// ranges inside the candidates, less what the pool's own sets and its namespace's cover.
    /// Costs the network's ranges inside the candidates (a lookup each), nothing per address.
    fn held_by_network_only(&self, cand: &IntervalSet) -> u128 {
        let Some(net) = self.net else {
            return 0;
        };
        let mut others: Vec<&IntervalSet> = vec![self.fixed, &self.extra];
        others.extend(self.shared.map(|sh| sh.held.set()));
        let mut n = 0u128;
        for (lo, hi) in cand.ranges() {
            for (a, b) in net.held.overlapping(lo, hi) {
                let mut x = a;
                loop {
                    if let Some(end) = ipam::covered_until(&others, x) {
                        match end.checked_add(1) {
                            Some(next) if end < b => x = next,
                            _ => break,
                        }
                        continue;
                    }
                    // `x` is not covered: the next covered value of [x, b] ends the free run.
                    let next = others
                        .iter()
                        .filter_map(|s| s.overlapping(x, b).next().map(|(l, _)| l))
                        .min();
                    match next {
                        Some(l) => {
                            n = n.saturating_add(l - x);
                            x = l;
                        }
                        None => {
                            n = n.saturating_add((b - x).saturating_add(1));
                            break;
                        }
                    }
                }
            }
        }
        n
    }
}
