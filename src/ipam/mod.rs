//! Pure address logic with Metal3 IPAM semantics (SPEC §5, FACTS §4): strict parsing and
//! canonical text, interval sets over one `u128` space, pool validation, the candidate
//! walk, reserved rules 1–2, the webhook's bounds, the sizes the `random` strategy indexes and
//! the blocks a network hands to new clusters' pools.
//! No YAML, no I/O; arithmetic on ranges, never by listing.

mod addr;
mod blocks;
mod bounds;
mod counted;
mod intervals;
mod pool;
mod reserved;
mod size;
mod spec;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_blocks;
#[cfg(test)]
mod tests_bounds;
#[cfg(test)]
mod tests_pool;
#[cfg(test)]
mod tests_prop;
#[cfg(test)]
mod tests_size;

pub use addr::{
    Addr, AddrError, Family, Parsed, V4_BASE, V4_LAST, ip_address_name, is_v4, parse_addr,
    parse_reserve, parse_subnet,
};
pub use blocks::{
    BlockAsk, BlockChoice, BlockHolder, BlockRefusal, BlockRequest, BlockSpace, BlockSpaceError,
    choose_blocks, free_blocks,
};
pub use bounds::WebhookBounds;
pub use counted::CountedSet;
pub use intervals::{IntervalSet, covered_until};
pub use pool::{FreeCursor, POSITION_LIMIT, Pool, Segment, Walk};
pub use reserved::{reserves_broadcast, reserves_network};
pub use size::{AllocationStrategy, RANDOM_SIZE_LIMIT, SizeError};
pub use spec::{Entry, EntrySpec, PoolError, PoolSpec, Refusal, Subnet};
