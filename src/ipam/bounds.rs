//! The IPAM webhook's bounds (`isAddressInBounds`, IPAM v1.14): whether some entry of a pool
//! admits an address, exactly as the webhook decides it when it checks the addresses in use
//! (SPEC §5 "In use", FACTS §4).
//!
//! The webhook compares `start` and `end` with Go's `netip.Addr.Compare`, which orders every
//! IPv4 address before every IPv6 address, and tests `subnet` with `net.IPNet.Contains`, which
//! reads an IPv4-mapped IPv6 address (`::ffff:a00:1`) as the IPv4 address it maps. So the bounds
//! are family-blind: an IPv4 entry with only a `start` admits every IPv6 address, and an IPv6
//! entry with only an `end` admits every IPv4 address. Rust's `IpAddr` orders the same way
//! (`V4` before `V6`).
//!
//! Each entry admits one interval of each of three kinds of address (IPv4; IPv6 that is not
//! IPv4-mapped; IPv4-mapped IPv6), so the bounds are three interval sets and a lookup costs a
//! binary search, never a pass over the entries.

use std::net::IpAddr;

use super::addr::{Addr, Family, V4_BASE, V4_LAST};
use super::intervals::IntervalSet;
use super::spec::Entry;

/// The three kinds of address the webhook tells apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// IPv4: compared as IPv4, in an IPv4 subnet only.
    V4,
    /// IPv6 outside `::ffff:0:0/96`: compared as IPv6, in an IPv6 subnet only.
    V6,
    /// IPv4-mapped IPv6: compared as IPv6, but in an IPv4 subnet only.
    Mapped,
}

/// What the webhook admits, as raw `u128` values: IPv4 and IPv4-mapped addresses both at
/// `::ffff:a.b.c.d` (in separate sets), IPv6 at its own value.
#[derive(Clone, Debug, Default)]
pub struct WebhookBounds {
    v4: IntervalSet,
    v6: IntervalSet,
    mapped: IntervalSet,
}

impl WebhookBounds {
    /// The bounds of these entries (an entry with none of `start`, `end` and `subnet` admits
    /// nothing: the webhook skips it).
    pub fn new(entries: &[Entry]) -> WebhookBounds {
        let mut b = WebhookBounds::default();
        for e in entries {
            if let Some((lo, hi)) = admitted(e, Kind::V4) {
                b.v4.insert_range(lo, hi);
            }
            if let Some((lo, hi)) = admitted(e, Kind::Mapped) {
                b.mapped.insert_range(lo, hi);
            }
            if let Some((lo, hi)) = admitted(e, Kind::V6) {
                for (l, h) in Family::V6.clip(lo, hi) {
                    b.v6.insert_range(l, h);
                }
            }
        }
        b
    }

    /// Whether some entry admits `ip`, as the IPAM v1.14 webhook decides it.
    pub fn admits(&self, ip: IpAddr) -> bool {
        match ip {
            IpAddr::V4(a) => self.v4.contains_addr(Addr::from(a)),
            IpAddr::V6(a) if a.to_ipv4_mapped().is_some() => self.mapped.contains(u128::from(a)),
            IpAddr::V6(a) => self.v6.contains(u128::from(a)),
        }
    }
}

/// The one interval of addresses of `kind` that entry `e` admits, as raw values.
fn admitted(e: &Entry, kind: Kind) -> Option<(u128, u128)> {
    if e.start.is_none() && e.end.is_none() && e.subnet.is_none() {
        return None;
    }
    let (mut lo, mut hi) = match kind {
        Kind::V4 | Kind::Mapped => (V4_BASE, V4_LAST),
        Kind::V6 => (0, u128::MAX),
    };
    // start and end are compared by family first (IPv4 < IPv6), then by value.
    let compared_as_v4 = kind == Kind::V4;
    if let Some(s) = e.start {
        match (s.is_v4(), compared_as_v4) {
            (true, true) | (false, false) => lo = lo.max(s.value()),
            // An IPv4 start is below every IPv6 address.
            (true, false) => {}
            // An IPv6 start is above every IPv4 address.
            (false, true) => return None,
        }
    }
    if let Some(en) = e.end {
        match (en.is_v4(), compared_as_v4) {
            (true, true) | (false, false) => hi = hi.min(en.value()),
            // An IPv4 end is below every IPv6 address.
            (true, false) => return None,
            // An IPv6 end is above every IPv4 address.
            (false, true) => {}
        }
    }
    if let Some(sub) = e.subnet {
        // An IPv4 subnet holds IPv4 and IPv4-mapped addresses, an IPv6 subnet only the rest.
        let fits = match kind {
            Kind::V4 | Kind::Mapped => sub.written.is_v4(),
            Kind::V6 => !sub.written.is_v4(),
        };
        if !fits {
            return None;
        }
        lo = lo.max(sub.network().value());
        hi = hi.min(sub.last().value());
    }
    (lo <= hi).then_some((lo, hi))
}
