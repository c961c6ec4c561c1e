//! Every host's place in natural order ([`crate::natural`]), computed once per run, so that
//! each pool sorts its hosts by a number instead of comparing names again and again.

use crate::model::{HostId, Index};
use crate::natural;

/// The natural rank of every host, by [`HostId`]. Hosts whose names compare equal (the same
/// name in two namespaces) share a rank, so a stable sort by rank orders exactly as a stable
/// sort by [`natural::compare`] of the names does.
pub struct Rank(Vec<u32>);

impl Rank {
    /// One sort of all the hosts of the index.
    pub fn of(idx: &Index) -> Rank {
        let names: Vec<&str> = idx.hosts.iter().map(|h| h.name()).collect();
        Rank(ranks(&names))
    }

    /// Host `h`'s rank: sort by it for natural host order.
    pub fn of_host(&self, h: HostId) -> u32 {
        self.0[h.0]
    }
}

/// The rank of each name in natural order, equal names sharing one.
fn ranks(names: &[&str]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|a, b| natural::compare(names[*a], names[*b]));
    let mut rank = vec![0u32; names.len()];
    let mut r = 0u32;
    for (i, &n) in order.iter().enumerate() {
        if i > 0 && natural::compare(names[order[i - 1]], names[n]).is_ne() {
            r += 1;
        }
        rank[n] = r;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_by_rank_is_sorting_by_natural_order() {
        let names = [
            "node-10", "node-2", "a1", "a01", "node-2", "node1", "node-1", "", "b", "node-02",
        ];
        let rank = ranks(&names);
        let mut by_rank: Vec<usize> = (0..names.len()).collect();
        by_rank.sort_by_key(|i| rank[*i]);
        let mut by_name: Vec<usize> = (0..names.len()).collect();
        by_name.sort_by(|a, b| natural::compare(names[*a], names[*b]));
        assert_eq!(by_rank, by_name);
        // The same name twice (two namespaces) shares a rank; different names never do.
        assert_eq!(rank[1], rank[4]);
        assert_ne!(rank[2], rank[3]);
        assert_ne!(rank[1], rank[9]);
    }
}
