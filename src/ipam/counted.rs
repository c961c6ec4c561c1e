//! A growing set of values that counts its members inside fixed windows in `O(log n)`.
//!
//! Overlapping pools share one such set per namespace (the addresses the pools hold); each
//! pool asks how many of them fall inside its candidate ranges. Counting by walking the set's
//! ranges would cost, for every pool, the number of ranges the others hold: quadratic when many
//! pools overlap. Here the windows that will be asked about are known in advance (their ends are
//! the *bounds*), so a Fenwick tree over the pieces between consecutive bounds answers them.

use super::intervals::{IntervalSet, span};

/// A set of `u128` values with fast counts over windows whose ends are known bounds.
#[derive(Clone, Debug, Default)]
pub struct CountedSet {
    set: IntervalSet,
    /// Sorted, distinct. Piece `i` is `[bounds[i], bounds[i + 1] - 1]` (the last one runs to
    /// the end of the space).
    bounds: Vec<u128>,
    /// Fenwick tree of the number of members in each piece.
    tree: Vec<u128>,
}

impl CountedSet {
    /// A set holding `initial`, counting fast over windows `[lo, hi]` where `lo` and `hi + 1`
    /// are among `bounds` (any order, duplicates allowed). Other windows are counted exactly
    /// too, by walking the set's ranges.
    pub fn new(bounds: impl IntoIterator<Item = u128>, initial: IntervalSet) -> CountedSet {
        let mut bounds: Vec<u128> = bounds.into_iter().collect();
        bounds.sort_unstable();
        bounds.dedup();
        let mut out = CountedSet {
            set: IntervalSet::new(),
            tree: vec![0; bounds.len()],
            bounds,
        };
        // One pass over the pieces and the ranges together.
        let mut pieces = 0;
        for (lo, hi) in initial.ranges() {
            // First piece that can meet [lo, hi]: the one holding lo, or the first after it.
            let mut i = out.piece_of(lo).unwrap_or(0).max(pieces);
            while i < out.bounds.len() && out.bounds[i] <= hi {
                let p_lo = out.bounds[i].max(lo);
                let p_hi = out.piece_end(i).min(hi);
                if p_lo <= p_hi {
                    out.add(i, span(p_lo, p_hi));
                }
                if out.piece_end(i) > hi {
                    break;
                }
                i += 1;
            }
            pieces = i;
        }
        out.set = initial;
        out
    }

    /// The plain set.
    pub fn set(&self) -> &IntervalSet {
        &self.set
    }

    /// Whether the set holds `value`.
    pub fn contains(&self, value: u128) -> bool {
        self.set.contains(value)
    }

    /// Adds one value; `false` when it was there already.
    pub fn insert(&mut self, value: u128) -> bool {
        if self.set.contains(value) {
            return false;
        }
        self.set.insert(value);
        if let Some(i) = self.piece_of(value) {
            self.add(i, 1);
        }
        true
    }

    /// Number of members in `[lo, hi]` (0 when `lo > hi`).
    pub fn count_in(&self, lo: u128, hi: u128) -> u128 {
        if lo > hi {
            return 0;
        }
        let first = self.bounds.binary_search(&lo);
        let after = match hi.checked_add(1) {
            Some(end) => self.bounds.binary_search(&end),
            None => Ok(self.bounds.len()),
        };
        match (first, after) {
            (Ok(i), Ok(j)) => self.prefix(j).saturating_sub(self.prefix(i)),
            _ => self.set.count_in(lo, hi),
        }
    }

    /// The piece holding `value`; `None` before the first bound.
    fn piece_of(&self, value: u128) -> Option<usize> {
        self.bounds.partition_point(|b| *b <= value).checked_sub(1)
    }

    fn piece_end(&self, i: usize) -> u128 {
        self.bounds.get(i + 1).map_or(u128::MAX, |b| b - 1)
    }

    fn add(&mut self, piece: usize, n: u128) {
        let mut i = piece + 1;
        while i <= self.tree.len() {
            self.tree[i - 1] = self.tree[i - 1].saturating_add(n);
            i += i & i.wrapping_neg();
        }
    }

    /// Members in pieces `0..n`.
    fn prefix(&self, n: usize) -> u128 {
        let mut sum = 0u128;
        let mut i = n;
        while i > 0 {
            sum = sum.saturating_add(self.tree[i - 1]);
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn counts_over_bounds_and_elsewhere() {
        let initial = IntervalSet::from_ranges([(5, 9), (20, 20), (30, 40)]);
        let mut c = CountedSet::new([0, 10, 20, 25, 35, 41, 100], initial);
        assert_eq!(c.count_in(0, 9), 5);
        assert_eq!(c.count_in(10, 24), 1);
        assert_eq!(c.count_in(25, 34), 5);
        assert_eq!(c.count_in(35, 40), 6);
        assert_eq!(c.count_in(0, 99), 17);
        // Not on bounds: still exact.
        assert_eq!(c.count_in(7, 31), 6);
        assert!(c.insert(22));
        assert!(!c.insert(22));
        assert!(c.insert(3));
        assert!(c.insert(1000));
        assert_eq!(c.count_in(10, 24), 2);
        assert_eq!(c.count_in(0, 9), 6);
        assert_eq!(c.count_in(100, u128::MAX), 1);
        assert_eq!(c.count_in(5, 4), 0);
        assert!(c.contains(1000) && !c.contains(999));
    }

    #[test]
    fn the_top_of_the_space_counts() {
        let initial = IntervalSet::from_ranges([(u128::MAX - 3, u128::MAX)]);
        let c = CountedSet::new([u128::MAX - 10], initial);
        assert_eq!(c.count_in(u128::MAX - 10, u128::MAX), 4);
    }

    proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        /// Every count equals the plain set's, for windows on bounds and anywhere else,
        /// before and after inserts.
        #[test]
        fn counts_match_the_plain_set(
            ranges in proptest::collection::vec((0u128..200, 0u128..20), 0..12),
            bounds in proptest::collection::vec(0u128..220, 0..16),
            inserts in proptest::collection::vec(0u128..220, 0..20),
            windows in proptest::collection::vec((0u128..220, 0u128..220), 1..10),
        ) {
            let initial = IntervalSet::from_ranges(ranges.iter().map(|(lo, len)| (*lo, lo + len)));
            let mut plain = initial.clone();
            let mut c = CountedSet::new(bounds.iter().copied(), initial);
            let check = |c: &CountedSet, plain: &IntervalSet| -> Result<(), TestCaseError> {
                for &(a, b) in &windows {
                    prop_assert_eq!(c.count_in(a, b), if a <= b { plain.count_in(a, b) } else { 0 });
                }
                for w in bounds.windows(2) {
                    let (lo, hi) = (w[0].min(w[1]), w[0].max(w[1]));
                    if lo < hi {
                        prop_assert_eq!(c.count_in(lo, hi - 1), plain.count_in(lo, hi - 1));
                    }
                }
                Ok(())
            };
            check(&c, &plain)?;
            for v in inserts {
                prop_assert_eq!(c.insert(v), !plain.contains(v));
                plain.insert(v);
            }
            check(&c, &plain)?;
            prop_assert_eq!(c.set(), &plain);
        }
    }
}
