//! `spec.allocationStrategy` and the arithmetic of an entry's size as the IPAM's `random` strategy
//! indexes it (IPAM v1.14, `GetPoolSize`; FACTS §4): on the ends of the entry, never by listing.
//! `Entry::random_size` (in `spec.rs`, beside the entry) puts it together.

use std::fmt;

use super::addr::Addr;

/// `spec.allocationStrategy` of an IPPool (IPAM v1.14). Absent means `sequential`: the IPAM
/// webhook fills that in. ipreuse's own choice of new addresses is the same under both (the IPAM
/// honours a preallocation whatever the strategy); `random` only adds the webhook's size rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AllocationStrategy {
    /// The first free address of the walk.
    #[default]
    Sequential,
    /// A random index inside an entry, then forward, wrapping.
    Random,
}

impl AllocationStrategy {
    /// The values the IPPool CRD allows, as written.
    pub const NAMES: [&'static str; 2] = ["sequential", "random"];

    /// The strategy a value names, exactly as the CRD's enum spells it (`Random` is not one).
    pub fn parse(text: &str) -> Option<AllocationStrategy> {
        match text {
            "sequential" => Some(AllocationStrategy::Sequential),
            "random" => Some(AllocationStrategy::Random),
            _ => None,
        }
    }

    /// The value as written in an IPPool.
    pub fn name(self) -> &'static str {
        match self {
            AllocationStrategy::Sequential => "sequential",
            AllocationStrategy::Random => "random",
        }
    }
}

/// The largest entry the `random` strategy can index: Go's `int` on the 64-bit platforms the
/// IPAM runs on, 2^63 − 1.
pub const RANDOM_SIZE_LIMIT: u128 = i64::MAX as u128;

/// Why the `random` strategy cannot use an entry (the v1.14 webhook refuses the pool then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// `start` without `end` and `subnet`: the entry has no last address.
    Unbounded,
    /// Neither `start` nor `subnet` (only `end`): the entry has no first address.
    NoStart,
    /// `start` (and no `end`) after the last address of `subnet`.
    StartAfterSubnet {
        /// `start`.
        start: Addr,
        /// The last address of `subnet`.
        last: Addr,
    },
    /// More than [`RANDOM_SIZE_LIMIT`] addresses; `None` is 2^128 (every IPv6 address).
    TooLarge(Option<u128>),
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Unbounded => write!(
                f,
                "the entry has a start but neither end nor subnet, so its size cannot be computed"
            ),
            SizeError::NoStart => write!(
                f,
                "the entry has neither start nor subnet, so its size cannot be computed"
            ),
            SizeError::StartAfterSubnet { start, last } => write!(
                f,
                "start {start} is after {last}, the last address of the subnet, so its size cannot be computed"
            ),
            SizeError::TooLarge(size) => {
                let n = size.map_or_else(|| "2^128".to_string(), |n| n.to_string());
                write!(
                    f,
                    "the entry has {n} addresses, more than the 2^63 - 1 ({RANDOM_SIZE_LIMIT}) the IPAM can index"
                )
            }
        }
    }
}

/// `lo..=hi` as a count; 2^128 (`::` to the last IPv6 address) is too large.
pub(super) fn inclusive(lo: Addr, hi: Addr) -> Result<u128, SizeError> {
    if hi < lo {
        // A validated entry never has start after end; count it as empty.
        return Ok(0);
    }
    (hi.value() - lo.value())
        .checked_add(1)
        .ok_or(SizeError::TooLarge(None))
}
