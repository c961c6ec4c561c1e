//! Blocks of a network's cidr handed to pools that ask for one: the aligned blocks of a cidr,
//! the pins (`ipreuse.dev/block-index`) decided first, then the lowest free block for each other
//! request in order. Arithmetic on intervals: a search jumps from one taken range to the next
//! aligned start, never listing blocks or addresses (an IPv6 /32 holds 2^32 /64 blocks).
//!
//! Everything a block may not meet is one [`IntervalSet`] given by the caller (other pools'
//! candidates, live addresses, entries, pins, `reserve`, control-plane endpoints, `exclude`, and
//! for `range` blocks the network's gateway, DNS servers, network and broadcast address). For an
//! IPv6 cidr the IPv4-mapped block `::ffff:0:0/96` is never handed out either: those values are
//! the IPv4 addresses of the shared space, and Metal3 does not accept IPv4-mapped IPv6 text.

use std::collections::BTreeMap;

use thiserror::Error;

use super::addr::{Addr, Family, V4_BASE, V4_LAST};
use super::intervals::IntervalSet;

/// Why a block size does not fit a network's cidr. Messages name `blockSize` and the values that
/// fit; the caller says which network (and pool, for the size annotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BlockSpaceError {
    /// The block prefix is shorter than the cidr's: one block would be larger than the cidr.
    #[error(
        "blockSize {block_prefix} is larger than the cidr (a /{cidr_prefix}); use a blockSize from {cidr_prefix} to {max} for {}",
        family.name()
    )]
    LargerThanCidr {
        /// The block prefix asked for.
        block_prefix: u8,
        /// The cidr's prefix (the shortest block prefix allowed).
        cidr_prefix: u8,
        /// The longest block prefix allowed (30 for IPv4, 126 for IPv6).
        max: u8,
        /// The cidr's family.
        family: Family,
    },
    /// The block prefix leaves fewer than 2 usable addresses (longer than /30 for IPv4, /126 for
    /// IPv6), or is past the family's width.
    #[error(
        "blockSize {block_prefix} leaves fewer than 2 usable {} addresses in a block; use a blockSize from {cidr_prefix} to {max}",
        family.name()
    )]
    TooSmall {
        /// The block prefix asked for.
        block_prefix: u8,
        /// The cidr's prefix (the shortest block prefix allowed).
        cidr_prefix: u8,
        /// The longest block prefix allowed (30 for IPv4, 126 for IPv6).
        max: u8,
        /// The cidr's family.
        family: Family,
    },
    /// The block prefix is longer than the family's addresses (over 32 for IPv4, 128 for IPv6).
    #[error(
        "blockSize {block_prefix} is over {} bits, the length of an {} address; use a blockSize from {cidr_prefix} to {max}",
        family.bits(), family.name()
    )]
    PastWidth {
        /// The block prefix asked for.
        block_prefix: u8,
        /// The cidr's prefix (the shortest block prefix allowed).
        cidr_prefix: u8,
        /// The longest block prefix allowed (30 for IPv4, 126 for IPv6).
        max: u8,
        /// The cidr's family.
        family: Family,
    },
    /// The cidr itself is smaller than any block may be (longer than /30 for IPv4, /126 for IPv6).
    #[error(
        "the cidr is a /{cidr_prefix}, too small to hand out blocks; {} blocks need a cidr of /{max} or shorter",
        family.name()
    )]
    CidrTooSmall {
        /// The cidr's prefix.
        cidr_prefix: u8,
        /// The longest block prefix allowed (30 for IPv4, 126 for IPv6).
        max: u8,
        /// The cidr's family.
        family: Family,
    },
    /// The cidr's address is not of the family given (for IPv6: a cidr inside the IPv4-mapped
    /// addresses `::ffff:0:0/96`, which are the IPv4 addresses of the shared space).
    #[error("the cidr's address {addr} is not an {} address; write an {} cidr", family.name(), family.name())]
    WrongFamily {
        /// The cidr's address as given.
        addr: Addr,
        /// The family asked for.
        family: Family,
    },
}

/// The aligned blocks of one cidr: block `i` is `[lo + i*size, lo + (i+1)*size - 1]`, with
/// `size = 2^(width - block_prefix)` (`width` 32 for IPv4, 128 for IPv6). All values are of the
/// shared `u128` space (IPv4 lives at [`V4_BASE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockSpace {
    lo: u128,
    hi: u128,
    family: Family,
    cidr_prefix: u8,
    block_prefix: u8,
    /// `width - block_prefix`: log2 of a block's size, from 2 to 128.
    shift: u32,
    /// The host bits of a block: its size minus one (`u128::MAX` for the IPv6 /0 block).
    host: u128,
}

impl BlockSpace {
    /// The longest block prefix of a family: a block must hold at least 2 usable addresses
    /// (IPv4 /30, IPv6 /126).
    pub fn max_block_prefix(family: Family) -> u8 {
        family.bits() - 2
    }

    /// The blocks of the cidr `cidr_addr/cidr_prefix` of `family`, each a `/block_prefix`.
    ///
    /// `cidr_addr` is meant to be the cidr's network address (the config masks the host bits of a
    /// network's `cidr`); any address of the cidr names the same cidr here: its host bits are
    /// ignored, so block 0 always starts at the network address.
    ///
    /// Errors: a cidr longer than the longest block prefix ([`BlockSpace::max_block_prefix`]);
    /// the cidr's address not of `family` (for IPv6, a cidr inside `::ffff:0:0/96`); a block
    /// prefix shorter than the cidr's, longer than the longest block prefix, or past the family's
    /// width. Each message says the range allowed.
    pub fn new(
        cidr_addr: u128,
        cidr_prefix: u8,
        family: Family,
        block_prefix: u8,
    ) -> Result<BlockSpace, BlockSpaceError> {
        let max = BlockSpace::max_block_prefix(family);
        if cidr_prefix > max {
            return Err(BlockSpaceError::CidrTooSmall {
                cidr_prefix,
                max,
                family,
            });
        }
        let wrong_family = BlockSpaceError::WrongFamily {
            addr: Addr::from_value(cidr_addr),
            family,
        };
        // The host bits of the cidr, counted in the family's own width (at most 2^128 - 1).
        let host = u128::MAX >> (128 - u32::from(family.bits()) + u32::from(cidr_prefix));
        let (lo, hi) = match family {
            Family::V4 if !Addr::from_value(cidr_addr).is_v4() => return Err(wrong_family),
            Family::V4 => {
                let lo = V4_BASE + ((cidr_addr - V4_BASE) & !host);
                (lo, lo + host)
            }
            Family::V6 => {
                let lo = cidr_addr & !host;
                // Only a cidr inside ::ffff:0:0/96 starts there (it is the IPv4 block).
                if Addr::from_value(lo).is_v4() {
                    return Err(wrong_family);
                }
                (lo, lo | host)
            }
        };
        if block_prefix < cidr_prefix {
            return Err(BlockSpaceError::LargerThanCidr {
                block_prefix,
                cidr_prefix,
                max,
                family,
            });
        }
        if block_prefix > family.bits() {
            return Err(BlockSpaceError::PastWidth {
                block_prefix,
                cidr_prefix,
                max,
                family,
            });
        }
        if block_prefix > max {
            return Err(BlockSpaceError::TooSmall {
                block_prefix,
                cidr_prefix,
                max,
                family,
            });
        }
        Ok(BlockSpace {
            lo,
            hi,
            family,
            cidr_prefix,
            block_prefix,
            shift: u32::from(family.bits() - block_prefix),
            host: u128::MAX >> (128 - u32::from(family.bits() - block_prefix)),
        })
    }

    /// The cidr's first value (its network address).
    pub fn lo(&self) -> u128 {
        self.lo
    }

    /// The cidr's last value (its broadcast address).
    pub fn hi(&self) -> u128 {
        self.hi
    }

    /// The cidr's family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The cidr's prefix length.
    pub fn cidr_prefix(&self) -> u8 {
        self.cidr_prefix
    }

    /// The blocks' prefix length.
    pub fn block_prefix(&self) -> u8 {
        self.block_prefix
    }

    /// Number of addresses in one block, at least 4; saturating at `u128::MAX` for the one block
    /// of 2^128 addresses (IPv6 `::/0` in a /0 block).
    pub fn block_len(&self) -> u128 {
        self.host.saturating_add(1)
    }

    /// Number of blocks: `2^(block_prefix - cidr_prefix)`, at most 2^126 (IPv6 `::/0` in /126
    /// blocks), so it never overflows.
    pub fn count(&self) -> u128 {
        1u128 << (self.block_prefix - self.cidr_prefix)
    }

    /// Block `index` as an inclusive range; `None` when `index >= count()`.
    pub fn block(&self, index: u128) -> Option<(u128, u128)> {
        if index >= self.count() {
            return None;
        }
        // index < 2^(block_prefix - cidr_prefix): the shift and the sums stay inside the cidr
        // (a shift of 128 is the one block of 2^128 addresses, index 0).
        let lo = self.lo + index.checked_shl(self.shift).unwrap_or(0);
        Some((lo, lo + self.host))
    }

    /// The index of the block that holds `addr`; `None` outside the cidr.
    pub fn index_of(&self, addr: u128) -> Option<u128> {
        (self.lo..=self.hi)
            .contains(&addr)
            .then(|| (addr - self.lo).checked_shr(self.shift).unwrap_or(0))
    }

    /// The index of the first block that starts at or after `addr`; `None` when there is none.
    fn first_index_from(&self, addr: u128) -> Option<u128> {
        if addr <= self.lo {
            return Some(0);
        }
        if addr > self.hi {
            return None;
        }
        // lo < addr <= hi: the cidr has more than one block, so the shift is below 128 (and at
        // least 2, so adding one does not overflow).
        let off = addr - self.lo;
        let rounded = u128::from(off & self.host != 0);
        Some(off.checked_shr(self.shift).unwrap_or(0) + rounded).filter(|i| *i < self.count())
    }

    /// What the space itself keeps out of every block: for IPv6, the IPv4-mapped block where it
    /// meets the cidr.
    fn kept_out(&self) -> IntervalSet {
        let mut set = IntervalSet::new();
        if self.family == Family::V6 {
            set.insert_range(V4_BASE.max(self.lo), V4_LAST.min(self.hi));
        }
        set
    }
}

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockAsk {
    /// Exactly block `n` of the cidr (`ipreuse.dev/block-index`), or a refusal: never a shift.
    Index(u128),
    /// The lowest free block at the request's turn.
    Lowest,
}

/// One request for a block, by a caller's key (a pool).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockRequest<K> {
    /// The caller's key, returned with the block or the refusal.
    pub key: K,
    /// What it asks for.
    pub ask: BlockAsk,
}

/// What holds a block a pin asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockHolder<K> {
    /// An earlier request pinned to the same index (the first in order keeps it).
    Request(K),
    /// The first address of the block that no block may meet.
    Address(Addr),
    /// The block meets the IPv4-mapped addresses `::ffff:0:0/96`, which Metal3 does not accept.
    Ipv4Mapped,
}

/// Why a request gets no block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockRefusal<K> {
    /// The pinned index is not below the number of blocks of the cidr.
    IndexOutside {
        /// The index asked for.
        index: u128,
        /// The number of blocks (valid indexes are `0..count`).
        count: u128,
    },
    /// The pinned block is held.
    IndexTaken {
        /// The index asked for.
        index: u128,
        /// What holds it.
        by: BlockHolder<K>,
    },
    /// No free block was left at the request's turn.
    NoFreeBlock {
        /// Free aligned blocks left at that point: always 0 (a free one would have been given);
        /// the caller's message can count the blocks free before the choice with [`free_blocks`].
        free: u128,
    },
}

/// The outcome of [`choose_blocks`]: every request is in exactly one of the two lists, each in
/// request order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockChoice<K> {
    /// `(key, index, (first, last))` of each request that got a block.
    pub given: Vec<(K, u128, (u128, u128))>,
    /// `(key, why)` of each request that got none.
    pub refused: Vec<(K, BlockRefusal<K>)>,
}

/// Decides the blocks of `requests` in `space`, where no block may meet `taken` (nor, for IPv6,
/// the IPv4-mapped block).
///
/// Every [`BlockAsk::Index`] is decided first, in request order: it gets its block exactly when
/// the index is below [`BlockSpace::count`] and the block meets nothing taken and no block given
/// to an earlier pin; otherwise it is refused. Then every [`BlockAsk::Lowest`], in request order,
/// gets the lowest-index block that meets nothing taken and no block given so far, or is refused
/// with [`BlockRefusal::NoFreeBlock`]. Depends on nothing but `space`, `taken` and the requests
/// (in their order).
///
/// Cost: `O(log n)` per pin; the lowest searches share one cursor that only moves up (a block
/// not free at one turn is never free later), and each step jumps past a taken or given range to
/// the next aligned start, so all of them together cost `O((r + n) log n)` for `n` ranges of
/// `taken` and `r` requests, whatever the number of blocks.
pub fn choose_blocks<K: Clone>(
    space: &BlockSpace,
    taken: &IntervalSet,
    requests: &[BlockRequest<K>],
) -> BlockChoice<K> {
    let kept_out = space.kept_out();
    let mut given = IntervalSet::new();
    // Index -> position of the pin that holds it.
    let mut pinned: BTreeMap<u128, usize> = BTreeMap::new();

    // The pins, in request order; `None` for the requests that ask for the lowest block.
    let mut pins: Vec<Option<Decided<K>>> = Vec::with_capacity(requests.len());
    for (at, request) in requests.iter().enumerate() {
        let BlockAsk::Index(index) = request.ask else {
            pins.push(None);
            continue;
        };
        let decided = decide_pin(space, taken, &kept_out, requests, &pinned, index);
        if let Ok((index, (lo, hi))) = decided {
            given.insert_range(lo, hi);
            pinned.insert(index, at);
        }
        pins.push(Some(decided));
    }

    // Then the lowest free block for each other request, in request order.
    let mut choice = BlockChoice {
        given: Vec::new(),
        refused: Vec::new(),
    };
    let mut cursor = Some(0u128);
    for (request, pin) in requests.iter().zip(pins) {
        let decided = pin.unwrap_or_else(|| {
            let found = cursor
                .and_then(|from| lowest_free(space, &[taken, &given, &kept_out], from))
                .and_then(|index| Some((index, space.block(index)?)));
            match found {
                Some((index, (lo, hi))) => {
                    given.insert_range(lo, hi);
                    cursor = index.checked_add(1);
                    Ok((index, (lo, hi)))
                }
                None => {
                    cursor = None;
                    Err(BlockRefusal::NoFreeBlock { free: 0 })
                }
            }
        });
        let key = request.key.clone();
        match decided {
            Ok((index, range)) => choice.given.push((key, index, range)),
            Err(why) => choice.refused.push((key, why)),
        }
    }
    choice
}

/// A decided request: the index and range of its block, or why it gets none.
type Decided<K> = Result<(u128, (u128, u128)), BlockRefusal<K>>;

/// A pin of `index`: the index itself, or why not.
fn decide_pin<K: Clone>(
    space: &BlockSpace,
    taken: &IntervalSet,
    kept_out: &IntervalSet,
    requests: &[BlockRequest<K>],
    pinned: &BTreeMap<u128, usize>,
    index: u128,
) -> Decided<K> {
    let Some((lo, hi)) = space.block(index) else {
        return Err(BlockRefusal::IndexOutside {
            index,
            count: space.count(),
        });
    };
    let by = if let Some(earlier) = pinned.get(&index).and_then(|at| requests.get(*at)) {
        BlockHolder::Request(earlier.key.clone())
    } else if let Some((first, _)) = taken.overlapping(lo, hi).next() {
        BlockHolder::Address(Addr::from_value(first))
    } else if kept_out.last_meeting(lo, hi).is_some() {
        BlockHolder::Ipv4Mapped
    } else {
        return Ok((index, (lo, hi)));
    };
    Err(BlockRefusal::IndexTaken { index, by })
}

/// The lowest index at or after `from` whose block meets none of `sets`.
fn lowest_free(space: &BlockSpace, sets: &[&IntervalSet], from: u128) -> Option<u128> {
    let mut index = from;
    loop {
        let (lo, hi) = space.block(index)?;
        let end = sets
            .iter()
            .filter_map(|s| s.last_meeting(lo, hi))
            .map(|(_, h)| h)
            .max();
        match end {
            None => return Some(index),
            // Every block starting at or before `h` meets that range (it reaches back into this
            // block): the next candidate is the first aligned start after it.
            Some(h) => index = space.first_index_from(h.checked_add(1)?)?,
        }
    }
}

/// Number of aligned blocks of `space` that meet nothing in `taken` (nor, for IPv6, the
/// IPv4-mapped block). `O(n)` in the ranges of `taken` inside the cidr: each range marks the
/// indexes of the blocks it meets as one interval, and the rest is counted.
pub fn free_blocks(space: &BlockSpace, taken: &IntervalSet) -> u128 {
    let kept_out = space.kept_out();
    let met = IntervalSet::from_ranges(
        taken
            .overlapping(space.lo, space.hi)
            .chain(kept_out.ranges())
            .filter_map(|(lo, hi)| Some((space.index_of(lo)?, space.index_of(hi)?))),
    );
    space.count() - met.count().min(space.count())
}
