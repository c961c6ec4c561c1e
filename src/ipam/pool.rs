//! A validated pool and its candidates: the IPAM walk (FACTS §4) in interval arithmetic.

use super::addr::Addr;
use super::bounds::WebhookBounds;
use super::intervals::{IntervalSet, covered_until, span};
use super::spec::{Entry, PoolError, PoolSpec, validate};

/// The highest walk position that is still a candidate (2^20): the IPAM walks one
/// address at a time on every reconcile, so later addresses are unreachable in practice.
pub const POSITION_LIMIT: u64 = 1 << 20;

/// What one entry walks, in the shared space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// The entry gives no address (only `end`, or `start` outside `subnet`, ...).
    Nothing,
    /// `lo..=hi` one address at a time.
    Range(Addr, Addr),
    /// From `lo` with no end (no `end`, no `subnet`): entries after it give nothing.
    Unbounded(Addr),
}

impl Entry {
    /// The addresses the allocator walks for this entry (FACTS §4).
    pub fn walk(&self) -> Walk {
        match (self.start, self.subnet) {
            (Some(start), Some(subnet)) => {
                if !subnet.contains(start) {
                    return Walk::Nothing;
                }
                let hi = match self.end {
                    Some(end) => end.min(subnet.last()),
                    None => subnet.last(),
                };
                range_or_nothing(start, hi)
            }
            (Some(start), None) => match self.end {
                Some(end) => range_or_nothing(start, end),
                None => Walk::Unbounded(start),
            },
            (None, Some(subnet)) => {
                if subnet.written >= subnet.last() {
                    return Walk::Nothing;
                }
                let lo = Addr::from_value(subnet.written.value() + 1);
                Walk::Range(lo, subnet.last())
            }
            (None, None) => Walk::Nothing,
        }
    }

    /// The addresses the webhook admits because of this entry: one raw range of the
    /// entry's family (`None` if empty). For IPv6 it may span the IPv4 block: use
    /// [`Family::clip`](super::Family::clip).
    pub fn admit_range(&self) -> Option<(Addr, Addr)> {
        let mut lo = self.family.min();
        let mut hi = self.family.max();
        if let Some(s) = self.start {
            lo = lo.max(s);
        }
        if let Some(e) = self.end {
            hi = hi.min(e);
        }
        if let Some(sub) = self.subnet {
            lo = lo.max(sub.network());
            hi = hi.min(sub.last());
        }
        (lo <= hi).then_some((lo, hi))
    }

    /// Whether the webhook admits `a` because of this entry.
    pub fn admits(&self, a: Addr) -> bool {
        a.family() == self.family
            && self
                .admit_range()
                .is_some_and(|(lo, hi)| lo <= a && a <= hi)
    }
}

fn range_or_nothing(lo: Addr, hi: Addr) -> Walk {
    if lo <= hi {
        Walk::Range(lo, hi)
    } else {
        Walk::Nothing
    }
}

/// A run of candidates reached by one entry at consecutive walk positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First address.
    pub lo: Addr,
    /// Last address (inclusive).
    pub hi: Addr,
    /// Index of the entry that reaches these addresses first.
    pub entry: usize,
    /// Walk position of `lo`; `hi` is at `first_position + (hi - lo)`.
    pub first_position: u64,
}

impl Segment {
    /// Number of addresses (at most `POSITION_LIMIT + 1`).
    pub fn len(&self) -> u64 {
        u64::try_from(span(self.lo.value(), self.hi.value())).unwrap_or(u64::MAX)
    }

    /// Segments are never empty; present for the `len` convention.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Walk position of `a` if it is in the segment.
    pub fn position_of(&self, a: Addr) -> Option<u64> {
        if a < self.lo || a > self.hi {
            return None;
        }
        let off = u64::try_from(a.value() - self.lo.value()).ok()?;
        self.first_position.checked_add(off)
    }

    /// The address at walk position `p` if it is in the segment.
    pub fn addr_at(&self, p: u64) -> Option<Addr> {
        let off = p.checked_sub(self.first_position)?;
        if off >= self.len() {
            return None;
        }
        Some(Addr::from_value(self.lo.value() + u128::from(off)))
    }
}

/// A validated IPPool with its candidates precomputed as segments.
#[derive(Clone, Debug)]
pub struct Pool {
    pub(crate) entries: Vec<Entry>,
    pub(crate) prefix: u8,
    pub(crate) gateway: Option<Addr>,
    pub(crate) dns_servers: Vec<Addr>,
    /// In walk-position order.
    segments: Vec<Segment>,
    /// Indices into `segments`, ordered by `lo`.
    by_addr: Vec<usize>,
    candidates: IntervalSet,
}

impl Pool {
    /// Validate a pool as the IPAM webhook would and compute its candidates.
    /// Every problem is reported, each naming its field (`spec.pools[2].start`).
    pub fn new(spec: &PoolSpec) -> Result<Pool, Vec<PoolError>> {
        let v = validate(spec)?;
        let segments = walk_segments(&v.entries);
        let mut by_addr: Vec<usize> = (0..segments.len()).collect();
        by_addr.sort_unstable_by_key(|&i| segments[i].lo);
        let candidates =
            IntervalSet::from_ranges(segments.iter().map(|s| (s.lo.value(), s.hi.value())));
        Ok(Pool {
            entries: v.entries,
            prefix: v.prefix,
            gateway: v.gateway,
            dns_servers: v.dns_servers,
            segments,
            by_addr,
            candidates,
        })
    }

    /// The validated entries, in `spec.pools[]` order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// What the IPAM webhook admits by these entries (its bounds check, family-blind as the
    /// webhook is): the test of SPEC §5 "In use".
    pub fn webhook_bounds(&self) -> WebhookBounds {
        WebhookBounds::new(&self.entries)
    }

    /// Pool-level `prefix` (0 = unset).
    pub fn prefix(&self) -> u8 {
        self.prefix
    }

    /// Pool-level `gateway`.
    pub fn gateway(&self) -> Option<Addr> {
        self.gateway
    }

    /// Pool-level `dnsServers`.
    pub fn dns_servers(&self) -> &[Addr] {
        &self.dns_servers
    }

    /// The effective prefix of entry `entry`: its own, else the pool's; `None` when unset.
    pub fn effective_prefix(&self, entry: usize) -> Option<u8> {
        let own = self.entries.get(entry)?.prefix;
        let p = if own != 0 { own } else { self.prefix };
        (p != 0).then_some(p)
    }

    /// The candidate segments in walk-position order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// All candidates as an address-ordered set.
    pub fn candidates(&self) -> &IntervalSet {
        &self.candidates
    }

    /// Number of candidates.
    pub fn candidate_count(&self) -> u128 {
        self.candidates.count()
    }

    fn segment_of(&self, a: Addr) -> Option<&Segment> {
        let k = self
            .by_addr
            .partition_point(|&i| self.segments.get(i).is_some_and(|s| s.lo <= a));
        let s = self.segments.get(*self.by_addr.get(k.checked_sub(1)?)?)?;
        (a <= s.hi).then_some(s)
    }

    /// Whether the walk reaches `a` within the position limit and the webhook admits it.
    pub fn is_candidate(&self, a: Addr) -> bool {
        self.segment_of(a).is_some()
    }

    /// Walk position of a candidate (`None` for anything else).
    pub fn position(&self, a: Addr) -> Option<u64> {
        self.segment_of(a)?.position_of(a)
    }

    /// Index of the entry that first reaches candidate `a`.
    pub fn entry_of(&self, a: Addr) -> Option<usize> {
        Some(self.segment_of(a)?.entry)
    }

    /// The candidate at walk position `p`, `None` if that position holds no candidate.
    pub fn addr_at(&self, p: u64) -> Option<Addr> {
        let k = self.segments.partition_point(|s| s.first_position <= p);
        self.segments.get(k.checked_sub(1)?)?.addr_at(p)
    }

    /// The walk position of the last candidate, `None` for a pool without candidates.
    pub fn last_position(&self) -> Option<u64> {
        let last = self.segments.last()?;
        Some(last.first_position + (last.len() - 1))
    }

    /// Number of candidates not in `blocked`.
    pub fn count_free(&self, blocked: &IntervalSet) -> u128 {
        self.candidates.ranges().fold(0u128, |n, (lo, hi)| {
            n.saturating_add(span(lo, hi) - blocked.count_in(lo, hi))
        })
    }

    /// The free candidate with the lowest walk position, if any.
    pub fn first_free(&self, blocked: &IntervalSet) -> Option<(Addr, u64)> {
        self.allocator().next_free(blocked)
    }

    /// A sequential allocator over the walk order; see [`FreeCursor`].
    pub fn allocator(&self) -> FreeCursor<'_> {
        FreeCursor {
            segments: &self.segments,
            seg: 0,
            next: self.segments.first().map(|s| s.lo.value()),
        }
    }
}

/// Walks the candidates in position order, skipping blocked ranges by interval.
///
/// Monotone: it assumes `blocked` only grows between calls (the caller adds each
/// returned address before asking again). A returned address is not consumed by the
/// cursor itself: if the caller does not block it, the next call returns it again.
#[derive(Clone, Debug)]
pub struct FreeCursor<'a> {
    segments: &'a [Segment],
    seg: usize,
    next: Option<u128>,
}

impl FreeCursor<'_> {
    /// The candidate with the lowest walk position not in `blocked`, with that position.
    pub fn next_free(&mut self, blocked: &IntervalSet) -> Option<(Addr, u64)> {
        self.next_free_outside(&[blocked])
    }

    /// The candidate with the lowest walk position in none of `blocked`, with that position:
    /// [`next_free`](Self::next_free) over the union of the sets, without building it.
    pub fn next_free_outside(&mut self, blocked: &[&IntervalSet]) -> Option<(Addr, u64)> {
        loop {
            let s = self.segments.get(self.seg)?;
            let cur = self.next?;
            let hi = s.hi.value();
            if cur > hi {
                self.advance();
                continue;
            }
            match covered_until(blocked, cur) {
                Some(bhi) if bhi >= hi => self.advance(),
                Some(bhi) => self.next = Some(bhi + 1),
                None => {
                    let a = Addr::from_value(cur);
                    return Some((a, s.position_of(a)?));
                }
            }
        }
    }

    fn advance(&mut self) {
        self.seg += 1;
        self.next = self.segments.get(self.seg).map(|s| s.lo.value());
    }
}

/// The candidate segments of the entries, in walk-position order.
fn walk_segments(entries: &[Entry]) -> Vec<Segment> {
    let limit = u128::from(POSITION_LIMIT);
    let admit = IntervalSet::from_ranges(entries.iter().flat_map(|e| match e.admit_range() {
        Some((lo, hi)) => e.family.clip(lo.value(), hi.value()),
        None => Vec::new(),
    }));
    let mut reached = IntervalSet::new();
    let mut segments = Vec::new();
    // Addresses walked by the earlier entries (saturating: past the limit nothing counts).
    let mut offset: u128 = 0;
    for (i, e) in entries.iter().enumerate() {
        if offset > limit {
            break;
        }
        let (ws, we, unbounded) = match e.walk() {
            Walk::Nothing => continue,
            Walk::Range(lo, hi) => (lo.value(), hi.value(), false),
            Walk::Unbounded(lo) => (lo.value(), e.family.max().value(), true),
        };
        let reach_hi = we.min(ws.saturating_add(limit - offset));
        let reach = IntervalSet::from_ranges(e.family.clip(ws, reach_hi));
        let fresh = reach.difference(&reached).intersection(&admit);
        for (lo, hi) in fresh.ranges() {
            // lo - ws <= limit - offset, so the sum is at most the limit.
            if let Ok(first_position) = u64::try_from(offset + (lo - ws)) {
                segments.push(Segment {
                    lo: Addr::from_value(lo),
                    hi: Addr::from_value(hi),
                    entry: i,
                    first_position,
                });
            }
        }
        reached.extend(&reach);
        if unbounded {
            break;
        }
        offset = offset.saturating_add(span(ws, we));
    }
    segments
}
