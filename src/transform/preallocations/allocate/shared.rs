//! What the pools of one namespace share (SPEC §5 "Taken"): which of them overlap, and the
//! addresses they hold, kept once per namespace so that each pool sees the others' holdings
//! without copying them (600 pools over one subnet would otherwise copy 600 × 600 sets).

use crate::FastMap;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use crate::ipam::{Addr, CountedSet, IntervalSet};
use crate::model::PoolId;

/// Who holds an address: the first pool seen, and whether another pool holds it too.
#[derive(Debug, Clone, Copy)]
pub(super) struct Holder {
    pub(super) first: PoolId,
    pub(super) several: bool,
}

/// The valid pools of one namespace and the addresses they hold.
///
/// An address a pool holds *inside its own candidates* (an entry, a live claim, a pin, a
/// gateway or DNS server, an entry added by this run) is in [`held`](Self::held): for any
/// other pool that has the address as a candidate, the two pools overlap by definition, so it
/// is taken there. An address held *outside* the holder's candidates counts only for the pools
/// that overlap the holder: each pool looks those up once, when the context is built
/// ([`HeldBuilder::outside`]), and those this run adds in
/// [`outside_added`](Self::outside_added).
#[derive(Debug, Default)]
pub struct Shared {
    /// The valid pools of the namespace in byte order of their names (rank → pool index).
    pub pools: Vec<PoolId>,
    /// Addresses held inside their holder's candidates, with fast counts over the candidate
    /// ranges and the fixed blocked ranges of every pool of the namespace.
    pub held: CountedSet,
    holders: FastMap<u128, Holder>,
    /// Addresses held outside their holder's candidates by entries this run adds (only a pin outside its pool, which is an error).
    pub outside_added: BTreeMap<u128, Vec<PoolId>>,
}

impl Shared {
    /// Whether a pool other than `p` holds `a` inside its own candidates.
    pub fn held_by_other_than(&self, a: Addr, p: PoolId) -> bool {
        self.holders
            .get(&a.value())
            .is_some_and(|h| h.several || h.first != p)
    }

    /// Records that pool `p` now holds `a` (an entry this run added), inside its candidates or not.
    pub fn record_added(&mut self, a: Addr, p: PoolId, inside: bool) {
        if inside {
            self.held.insert(a.value());
            note_holder(&mut self.holders, a.value(), p);
        } else {
            self.outside_added.entry(a.value()).or_default().push(p);
        }
    }
}

pub(super) fn note_holder(holders: &mut FastMap<u128, Holder>, a: u128, p: PoolId) {
    holders
        .entry(a)
        .and_modify(|h| h.several |= h.first != p)
        .or_insert(Holder {
            first: p,
            several: false,
        });
}

/// Collects the addresses the pools of a namespace hold before anything is added.
#[derive(Debug, Default)]
pub struct HeldBuilder {
    inside: Vec<(u128, u128)>,
    holders: FastMap<u128, Holder>,
    outside: BTreeMap<u128, Vec<PoolId>>,
}

impl HeldBuilder {
    /// Pool `p` holds `a`; `inside` when `a` is one of its candidates.
    pub fn hold(&mut self, a: Addr, p: PoolId, inside: bool) {
        if inside {
            self.inside.push((a.value(), a.value()));
            note_holder(&mut self.holders, a.value(), p);
        } else {
            let list = self.outside.entry(a.value()).or_default();
            if list.last() != Some(&p) {
                list.push(p);
            }
        }
    }

    /// The addresses held outside their holders' candidates.
    pub fn outside(&self) -> &BTreeMap<u128, Vec<PoolId>> {
        &self.outside
    }

    /// The shared state, counting fast over windows whose ends are among `bounds`.
    pub fn finish(self, pools: Vec<PoolId>, bounds: impl IntoIterator<Item = u128>) -> Shared {
        Shared {
            pools,
            held: CountedSet::new(bounds, IntervalSet::from_ranges(self.inside)),
            holders: self.holders,
            outside_added: BTreeMap::new(),
        }
    }
}

/// For each set, the positions of the other sets that share a value with it, ascending.
///
/// A sweep over all ranges sorted by their low end, with the ranges still open in a heap by
/// their high end: the cost is the number of ranges (times a log) plus the number of
/// overlapping pairs, never the number of all pairs.
pub fn overlaps(sets: &[&IntervalSet]) -> Vec<Vec<u32>> {
    let mut events: Vec<(u128, u128, u32)> = Vec::new();
    for (i, s) in sets.iter().enumerate() {
        let Ok(i) = u32::try_from(i) else { break };
        events.extend(s.ranges().map(|(lo, hi)| (lo, hi, i)));
    }
    events.sort_unstable();
    let mut open: BinaryHeap<Reverse<(u128, u32)>> = BinaryHeap::new();
    // Each pair once, smaller position first, packed in one u64 so that sorting is cheap.
    let mut pairs: Vec<u64> = Vec::new();
    for (lo, hi, i) in events {
        while open.peek().is_some_and(|Reverse((end, _))| *end < lo) {
            open.pop();
        }
        for Reverse((_, j)) in open.iter() {
            if *j != i {
                let (a, b) = (i.min(*j), i.max(*j));
                pairs.push(u64::from(a) << 32 | u64::from(b));
            }
        }
        open.push(Reverse((hi, i)));
    }
    pairs.sort_unstable();
    pairs.dedup();
    // Sorted by (a, b): each a's list gets its b ascending, and each b's list its a ascending.
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); sets.len()];
    for pair in pairs {
        let (a, b) = ((pair >> 32) as u32, pair as u32);
        for (at, other) in [(a, b), (b, a)] {
            if let Some(list) = out.get_mut(at as usize) {
                list.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(ranges: &[(u128, u128)]) -> IntervalSet {
        IntervalSet::from_ranges(ranges.iter().copied())
    }

    #[test]
    fn overlapping_sets_are_found_both_ways() {
        let a = set(&[(0, 9), (100, 109)]);
        let b = set(&[(5, 5)]);
        let c = set(&[(10, 99)]);
        let d = set(&[(105, 200), (300, 300)]);
        let e = set(&[]);
        assert_eq!(
            overlaps(&[&a, &b, &c, &d, &e]),
            vec![vec![1, 3], vec![0], vec![], vec![0], vec![]]
        );
    }

    proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        /// The sweep finds exactly the pairs a test of every pair finds.
        #[test]
        fn overlaps_match_every_pair(
            sets in proptest::collection::vec(
                proptest::collection::vec((0u128..100, 0u128..10), 0..4), 0..8)
        ) {
            let sets: Vec<IntervalSet> = sets
                .iter()
                .map(|r| IntervalSet::from_ranges(r.iter().map(|(lo, len)| (*lo, lo + len))))
                .collect();
            let refs: Vec<&IntervalSet> = sets.iter().collect();
            let got = overlaps(&refs);
            for (i, s) in sets.iter().enumerate() {
                let want: Vec<u32> = (0..sets.len())
                    .filter(|&j| j != i && s.intersects(&sets[j]))
                    .map(|j| j as u32)
                    .collect();
                prop_assert_eq!(&got[i], &want);
            }
        }
    }

    #[test]
    fn holders_tell_other_pools_apart() {
        const P1: PoolId = PoolId(1);
        const P2: PoolId = PoolId(2);
        let a = Addr::from_value(7);
        let mut b = HeldBuilder::default();
        b.hold(a, P1, true);
        let mut s = b.finish(vec![P1, P2], [0, 100]);
        assert!(!s.held_by_other_than(a, P1));
        assert!(s.held_by_other_than(a, P2));
        s.record_added(a, P1, true);
        assert!(!s.held_by_other_than(a, P1));
        s.record_added(a, P2, true);
        assert!(s.held_by_other_than(a, P1));
        assert_eq!(s.held.count_in(0, 99), 1);
        s.record_added(Addr::from_value(8), P2, false);
        assert_eq!(s.held.count_in(0, 99), 1);
        assert_eq!(s.outside_added.get(&8), Some(&vec![P2]));
    }
}
