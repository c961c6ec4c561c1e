//! `spec.allocationStrategy` and the size of an entry as the IPAM's `random` strategy indexes it
//! (IPAM v1.14, `GetPoolSize`; FACTS §4). Arithmetic on the ends of the entry, never by listing.

use std::fmt;

use super::addr::Addr;
use super::spec::Entry;

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

impl Entry {
    /// The number of addresses the IPAM's `random` strategy indexes in this entry (IPAM
    /// `GetPoolSize`, FACTS §4): `start..=end` when both are set (whatever `subnet` says);
    /// `start..=` the subnet's last address when there is no `end`; with only a `subnet`, its
    /// network address + 1 ..= its last address (the network address, not the address as
    /// written: a size, not the walk). An error when the entry has no size or more than
    /// [`RANDOM_SIZE_LIMIT`] addresses.
    pub fn random_size(&self) -> Result<u64, SizeError> {
        let count = match (self.start, self.end, self.subnet) {
            (Some(start), Some(end), _) => inclusive(start, end)?,
            (Some(start), None, Some(subnet)) => {
                let last = subnet.last();
                if start > last {
                    return Err(SizeError::StartAfterSubnet { start, last });
                }
                inclusive(start, last)?
            }
            (Some(_), None, None) => return Err(SizeError::Unbounded),
            // The network address itself is not indexed (a /32 or /128 has size 0).
            (None, _, Some(subnet)) => subnet.last().value() - subnet.network().value(),
            (None, _, None) => return Err(SizeError::NoStart),
        };
        if count > RANDOM_SIZE_LIMIT {
            return Err(SizeError::TooLarge(Some(count)));
        }
        u64::try_from(count).map_err(|_| SizeError::TooLarge(Some(count)))
    }
}

/// `lo..=hi` as a count; 2^128 (`::` to the last IPv6 address) is too large.
fn inclusive(lo: Addr, hi: Addr) -> Result<u128, SizeError> {
    if hi < lo {
        // A validated entry never has start after end; count it as empty.
        return Ok(0);
    }
    (hi.value() - lo.value())
        .checked_add(1)
        .ok_or(SizeError::TooLarge(None))
}
