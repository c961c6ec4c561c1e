//! Sets of addresses as sorted, disjoint, non-adjacent inclusive `u128` ranges.

use std::collections::BTreeMap;
use std::ops::Bound::{Excluded, Unbounded};

use super::addr::Addr;

/// A set of `u128` values (addresses of the shared space) stored as maximal inclusive
/// ranges keyed by their low end. Inserting is `O(log n)` amortised; nothing is ever
/// enumerated address by address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntervalSet {
    map: BTreeMap<u128, u128>,
}

impl IntervalSet {
    /// The empty set.
    pub fn new() -> IntervalSet {
        IntervalSet::default()
    }

    /// Build from ranges in any order (overlapping, adjacent or reversed `lo > hi`, which
    /// are skipped); sorts once and merges, so bulk building is `O(n log n)`.
    pub fn from_ranges<I: IntoIterator<Item = (u128, u128)>>(ranges: I) -> IntervalSet {
        let mut v: Vec<(u128, u128)> = ranges.into_iter().filter(|(l, h)| l <= h).collect();
        v.sort_unstable();
        let mut merged: Vec<(u128, u128)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        IntervalSet {
            map: merged.into_iter().collect(),
        }
    }

    /// Add the inclusive range `[lo, hi]` (nothing when `lo > hi`).
    pub fn insert_range(&mut self, lo: u128, hi: u128) {
        if lo > hi {
            return;
        }
        // The common case, addresses taken in walk order: the range grows the one before it
        // and meets none after it, so that one is widened in place.
        let meets_next = self
            .map
            .range((Excluded(lo), Unbounded))
            .next()
            .is_some_and(|(&nlo, _)| nlo <= hi.saturating_add(1));
        if !meets_next
            && let Some((_, phi)) = self.map.range_mut(..=lo).next_back()
            && phi.saturating_add(1) >= lo
        {
            *phi = (*phi).max(hi);
            return;
        }
        let (mut lo, mut hi) = (lo, hi);
        if let Some((&plo, &phi)) = self.map.range(..=lo).next_back()
            && phi.saturating_add(1) >= lo
        {
            lo = plo;
            hi = hi.max(phi);
            self.map.remove(&plo);
        }
        while let Some((&nlo, &nhi)) = self.map.range(lo..).next() {
            if nlo > hi.saturating_add(1) {
                break;
            }
            hi = hi.max(nhi);
            self.map.remove(&nlo);
        }
        self.map.insert(lo, hi);
    }

    /// Add one value.
    pub fn insert(&mut self, value: u128) {
        self.insert_range(value, value);
    }

    /// Add one address.
    pub fn insert_addr(&mut self, addr: Addr) {
        self.insert(addr.value());
    }

    /// Add every range of `other`.
    pub fn extend(&mut self, other: &IntervalSet) {
        for (lo, hi) in other.ranges() {
            self.insert_range(lo, hi);
        }
    }

    /// Whether the set holds `value`.
    pub fn contains(&self, value: u128) -> bool {
        self.range_containing(value).is_some()
    }

    /// Whether the set holds `addr`.
    pub fn contains_addr(&self, addr: Addr) -> bool {
        self.contains(addr.value())
    }

    /// The maximal range of the set that holds `value`, if any.
    pub fn range_containing(&self, value: u128) -> Option<(u128, u128)> {
        self.map
            .range(..=value)
            .next_back()
            .filter(|(_, hi)| **hi >= value)
            .map(|(lo, hi)| (*lo, *hi))
    }

    /// Number of values in the set, saturating at `u128::MAX`.
    pub fn count(&self) -> u128 {
        self.ranges()
            .fold(0u128, |n, (lo, hi)| n.saturating_add(span(lo, hi)))
    }

    /// Number of values of the set inside `[lo, hi]`, saturating.
    pub fn count_in(&self, lo: u128, hi: u128) -> u128 {
        self.overlapping(lo, hi)
            .fold(0u128, |n, (l, h)| n.saturating_add(span(l, h)))
    }

    /// The ranges of the set that meet `[lo, hi]`, clipped to it, in ascending order.
    pub fn overlapping(&self, lo: u128, hi: u128) -> impl Iterator<Item = (u128, u128)> + '_ {
        let valid = lo <= hi;
        let before = if valid {
            self.map
                .range(..lo)
                .next_back()
                .filter(|(_, h)| **h >= lo)
                .map(|(l, h)| (*l, *h))
        } else {
            None
        };
        let end = if valid { hi } else { lo };
        let inner = self
            .map
            .range(lo..=end)
            .filter(move |_| valid)
            .map(|(l, h)| (*l, *h));
        before
            .into_iter()
            .chain(inner)
            .map(move |(l, h)| (l.max(lo), h.min(hi)))
    }

    /// The highest maximal range of the set that meets `[lo, hi]`, not clipped; `None` when no
    /// range meets it (or `lo > hi`). One lookup: the ranges are disjoint and sorted, so the one
    /// starting last at or before `hi` also ends last.
    pub fn last_meeting(&self, lo: u128, hi: u128) -> Option<(u128, u128)> {
        if lo > hi {
            return None;
        }
        self.map
            .range(..=hi)
            .next_back()
            .filter(|(_, h)| **h >= lo)
            .map(|(l, h)| (*l, *h))
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Number of maximal ranges (not values).
    pub fn range_count(&self) -> usize {
        self.map.len()
    }

    /// The maximal ranges in ascending order.
    pub fn ranges(&self) -> impl Iterator<Item = (u128, u128)> + '_ {
        self.map.iter().map(|(lo, hi)| (*lo, *hi))
    }

    /// Values in `self` or `other`.
    pub fn union(&self, other: &IntervalSet) -> IntervalSet {
        IntervalSet::from_ranges(self.ranges().chain(other.ranges()))
    }

    /// Values in both `self` and `other`.
    pub fn intersection(&self, other: &IntervalSet) -> IntervalSet {
        let (small, large) = if self.range_count() <= other.range_count() {
            (self, other)
        } else {
            (other, self)
        };
        IntervalSet::from_ranges(
            small
                .ranges()
                .flat_map(|(lo, hi)| large.overlapping(lo, hi).collect::<Vec<_>>()),
        )
    }

    /// Whether `self` and `other` share a value (without building the intersection).
    pub fn intersects(&self, other: &IntervalSet) -> bool {
        let (small, large) = if self.range_count() <= other.range_count() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .ranges()
            .any(|(lo, hi)| large.overlapping(lo, hi).next().is_some())
    }

    /// The lowest value in both `self` and `other`, without building the intersection: where
    /// two pools' addresses first meet (the address two IPAddress names collide at).
    pub fn first_common(&self, other: &IntervalSet) -> Option<u128> {
        let (small, large) = if self.range_count() <= other.range_count() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .ranges()
            .find_map(|(lo, hi)| large.overlapping(lo, hi).next().map(|(first, _)| first))
    }

    /// Values in `self` and not in `other`.
    pub fn difference(&self, other: &IntervalSet) -> IntervalSet {
        let mut out = Vec::new();
        for (lo, hi) in self.ranges() {
            let mut next = Some(lo);
            for (blo, bhi) in other.overlapping(lo, hi) {
                if let Some(from) = next
                    && blo > from
                {
                    out.push((from, blo - 1));
                }
                next = bhi.checked_add(1).filter(|n| *n <= hi);
            }
            if let Some(from) = next {
                out.push((from, hi));
            }
        }
        IntervalSet::from_ranges(out)
    }
}

/// The last value of the run of values covered by the union of `sets` that starts at `value`;
/// `None` when no set holds `value`. Costs one lookup per set for each maximal range of one
/// set that the run passes through, never one per value.
pub fn covered_until(sets: &[&IntervalSet], value: u128) -> Option<u128> {
    let mut end: Option<u128> = None;
    let mut at = value;
    loop {
        let hi = sets
            .iter()
            .filter_map(|s| s.range_containing(at))
            .map(|(_, hi)| hi)
            .max();
        match hi {
            Some(hi) => {
                end = Some(hi);
                match hi.checked_add(1) {
                    Some(next) => at = next,
                    None => return end,
                }
            }
            None => return end,
        }
    }
}

/// Number of values in `[lo, hi]` (`lo <= hi`), saturating for the full space.
pub(crate) fn span(lo: u128, hi: u128) -> u128 {
    (hi - lo).saturating_add(1)
}

impl FromIterator<(u128, u128)> for IntervalSet {
    fn from_iter<I: IntoIterator<Item = (u128, u128)>>(iter: I) -> IntervalSet {
        IntervalSet::from_ranges(iter)
    }
}

#[cfg(test)]
mod insert_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        /// Inserting ranges one by one, in any order, gives the set the bulk build gives:
        /// the same maximal ranges (the in-place widening included).
        #[test]
        fn inserts_agree_with_the_bulk_build(
            ranges in proptest::collection::vec((0u128..64, 0u128..8), 0..24),
        ) {
            let ranges: Vec<(u128, u128)> = ranges.into_iter().map(|(lo, n)| (lo, lo + n)).collect();
            let mut s = IntervalSet::new();
            for &(lo, hi) in &ranges {
                s.insert_range(lo, hi);
            }
            prop_assert_eq!(s, IntervalSet::from_ranges(ranges));
        }

        /// `last_meeting` is the last of the maximal ranges, listed in order, that shares a
        /// value with `[lo, hi]`, unclipped.
        #[test]
        fn last_meeting_is_the_last_range_that_meets(
            ranges in proptest::collection::vec((0u128..64, 0u128..8), 0..12),
            lo in 0u128..80,
            len in 0u128..20,
        ) {
            let s: IntervalSet = ranges.into_iter().map(|(l, n)| (l, l + n)).collect();
            let hi = lo + len;
            let want = s.ranges().filter(|(l, h)| *l <= hi && lo <= *h).last();
            prop_assert_eq!(s.last_meeting(lo, hi), want);
            prop_assert_eq!(s.last_meeting(hi + 1, lo), None);
        }
    }
}
