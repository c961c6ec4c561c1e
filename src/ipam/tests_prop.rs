//! Property tests against literal references: the interval-based walk agrees with an
//! address-by-address walk (FACTS §4, SPEC §5) on small random IPv4 pools; the size the
//! `random` strategy indexes agrees with counting addresses one by one; the webhook's bounds
//! agree with a test-by-test transcription of its `isAddressInBounds`, over mixed families.

use std::collections::{BTreeMap, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::*;

const BASE: u32 = 0x0a00_0000; // 10.0.0.0
/// The reference stops an unbounded walk after this offset.
const BOUND: u32 = 300;

#[derive(Clone, Debug)]
struct Gen {
    start: Option<u32>,
    end: Option<u32>,
    subnet: Option<(u32, u8)>,
    prefix: u8,
}

fn text(off: u32) -> String {
    Ipv4Addr::from(BASE + off).to_string()
}

fn addr(v: u32) -> Addr {
    Addr::from(Ipv4Addr::from(v))
}

fn mask(p: u8) -> u32 {
    u32::MAX.checked_shl(32 - u32::from(p)).unwrap_or(0)
}

fn in_subnet(a: u32, (w, p): (u32, u8)) -> bool {
    a & mask(p) == (BASE + w) & mask(p)
}

struct Reference {
    /// address -> (position, entry), only candidates.
    cands: BTreeMap<u32, (u64, usize)>,
    /// The walk was cut at BOUND (an unbounded entry).
    truncated: bool,
}

fn reference(es: &[Gen]) -> Reference {
    let admits = |a: u32| {
        es.iter().any(|e| {
            e.start.is_none_or(|s| BASE + s <= a)
                && e.end.is_none_or(|en| a <= BASE + en)
                && e.subnet.is_none_or(|sn| in_subnet(a, sn))
        })
    };
    let mut seen = HashSet::new();
    let mut cands = BTreeMap::new();
    let mut pos: u64 = 0;
    let mut truncated = false;
    let mut visit = |a: u32, i: usize, pos: &mut u64| {
        if seen.insert(a) && admits(a) {
            cands.insert(a, (*pos, i));
        }
        *pos += 1;
    };
    for (i, e) in es.iter().enumerate() {
        if let Some(s) = e.start {
            let unbounded = e.end.is_none() && e.subnet.is_none();
            let mut a = BASE + s;
            loop {
                if e.end.is_some_and(|en| a > BASE + en) {
                    break;
                }
                if e.subnet.is_some_and(|sn| !in_subnet(a, sn)) {
                    break;
                }
                if unbounded && a > BASE + BOUND {
                    truncated = true;
                    break;
                }
                visit(a, i, &mut pos);
                a += 1;
            }
            if unbounded {
                break;
            }
        } else if let Some((w, p)) = e.subnet {
            let last = (BASE + w) | !mask(p);
            let mut a = BASE + w + 1;
            while a <= last {
                visit(a, i, &mut pos);
                a += 1;
            }
        }
    }
    Reference { cands, truncated }
}

fn reserved2_reference(es: &[Gen], pool_prefix: u8, a: u32, entry: usize) -> bool {
    let e = &es[entry];
    let edge = |p: u8| p <= 30 && (a == a & mask(p) || a == a | !mask(p));
    let by_subnet = e.subnet.is_some_and(|(w, p)| {
        let net = (BASE + w) & mask(p);
        p <= 30 && (a == net || a == net | !mask(p))
    });
    let eff = if e.prefix != 0 { e.prefix } else { pool_prefix };
    by_subnet || (eff != 0 && edge(eff))
}

fn gen_entry() -> impl Strategy<Value = Gen> {
    (
        prop::option::of(0u32..64),
        prop::option::of(0u32..64),
        prop::option::of((0u32..64, 26u8..=32)),
        prop_oneof![Just(0u8), 24u8..=32],
    )
        .prop_map(|(start, end, subnet, prefix)| Gen {
            start,
            end,
            subnet,
            prefix,
        })
}

fn spec(es: &[Gen], pool_prefix: u8) -> PoolSpec {
    PoolSpec {
        entries: es
            .iter()
            .map(|g| EntrySpec {
                start: g.start.map(text),
                end: g.end.map(text),
                subnet: g.subnet.map(|(w, p)| format!("{}/{p}", text(w))),
                prefix: Some(g.prefix),
                ..EntrySpec::default()
            })
            .collect(),
        prefix: Some(pool_prefix),
        ..PoolSpec::default()
    }
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    #[test]
    fn walk_matches_reference(
        es in prop::collection::vec(gen_entry(), 1..=4),
        pool_prefix in prop_oneof![Just(0u8), 24u8..=32],
        blocked_offsets in prop::collection::vec(0u32..80, 0..30),
    ) {
        let valid = es.iter().all(|e| {
            (e.start.is_some() || e.end.is_some() || e.subnet.is_some())
                && !matches!((e.start, e.end), (Some(s), Some(en)) if s > en)
        });
        let pool = Pool::new(&spec(&es, pool_prefix));
        prop_assert_eq!(pool.is_ok(), valid);
        let Ok(pool) = pool else { return Ok(()); };
        let r = reference(&es);

        // Every address near the universe: candidate, position, entry.
        for off in 0..=BOUND {
            let a = addr(BASE + off);
            let want = r.cands.get(&(BASE + off)).copied();
            prop_assert_eq!(pool.position(a), want.map(|w| w.0), "position of {}", a);
            prop_assert_eq!(pool.entry_of(a), want.map(|w| w.1), "entry of {}", a);
            prop_assert_eq!(pool.is_candidate(a), want.is_some());
        }
        // addr_at inverts position.
        let by_pos: BTreeMap<u64, u32> = r.cands.iter().map(|(a, (p, _))| (*p, *a)).collect();
        let max_pos = by_pos.keys().next_back().copied().unwrap_or(0);
        for p in 0..=max_pos + 3 {
            if r.truncated && p > max_pos {
                break;
            }
            prop_assert_eq!(pool.addr_at(p), by_pos.get(&p).map(|a| addr(*a)), "addr_at {}", p);
        }

        // Sequential allocation against a blocked set.
        let mut blocked = IntervalSet::new();
        for o in &blocked_offsets {
            blocked.insert_addr(addr(BASE + o));
        }
        let want: Vec<(Addr, u64)> = by_pos
            .iter()
            .filter(|(_, a)| !blocked_offsets.contains(&(**a - BASE)))
            .map(|(p, a)| (addr(*a), *p))
            .collect();
        if !r.truncated {
            prop_assert_eq!(pool.count_free(&blocked), want.len() as u128);
        }
        let mut cur = pool.allocator();
        for w in &want {
            let got = cur.next_free(&blocked);
            prop_assert_eq!(got, Some(*w));
            blocked.insert_addr(w.0);
        }
        if !r.truncated {
            prop_assert_eq!(cur.next_free(&blocked), None);
        }

        // Reserved rule 2: set, predicate and literal reference agree.
        let r2 = pool.reserved_rule2();
        for (a, (_, entry)) in &r.cands {
            let expect = reserved2_reference(&es, pool_prefix, *a, *entry);
            prop_assert_eq!(r2.contains_addr(addr(*a)), expect, "rule 2 set at {}", addr(*a));
            prop_assert_eq!(pool.is_reserved_rule2(addr(*a)), expect);
        }
        prop_assert!(r2.difference(pool.candidates()).is_empty());
    }
}

/// The size the `random` strategy indexes (IPAM `GetPoolSize`), by counting addresses one by one:
/// `None` when the entry has none.
fn reference_size(g: &Gen) -> Option<u64> {
    // Subnet prefixes are 26..=32 over offsets below 64: every subnet is inside BASE..BASE+128.
    let members = |sn: (u32, u8)| (BASE..BASE + 128).filter(move |a| in_subnet(*a, sn));
    let count = |lo: u32, hi: u32| (lo..=hi).count() as u64;
    match (g.start, g.end, g.subnet) {
        (Some(s), Some(en), _) => Some(count(BASE + s, BASE + en)),
        (Some(s), None, Some(sn)) => {
            let last = members(sn).max()?;
            (BASE + s <= last).then(|| count(BASE + s, last))
        }
        (Some(_), None, None) => None,
        // Every member but the network address.
        (None, _, Some(sn)) => Some(members(sn).count() as u64 - 1),
        (None, _, None) => None,
    }
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    #[test]
    fn random_size_matches_counting(
        es in prop::collection::vec(gen_entry(), 1..=4),
    ) {
        let valid = es.iter().all(|e| {
            (e.start.is_some() || e.end.is_some() || e.subnet.is_some())
                && !matches!((e.start, e.end), (Some(s), Some(en)) if s > en)
        });
        prop_assume!(valid);
        let sequential = Pool::new(&spec(&es, 0)).expect("valid pool");
        let mut unsized_entries = Vec::new();
        for (i, (g, entry)) in es.iter().zip(sequential.entries()).enumerate() {
            let want = reference_size(g);
            prop_assert_eq!(entry.random_size().ok(), want, "entry {:?}", g);
            if want.is_none() {
                unsized_entries.push(format!("spec.pools[{i}]"));
            }
        }
        let mut random_spec = spec(&es, 0);
        random_spec.allocation_strategy = AllocationStrategy::Random;
        match Pool::new(&random_spec) {
            Ok(p) => {
                prop_assert!(unsized_entries.is_empty());
                // The strategy does not change what the pool hands out.
                prop_assert_eq!(p.candidates(), sequential.candidates());
            }
            Err(errs) => {
                let fields: Vec<String> = errs.into_iter().map(|e| e.field).collect();
                prop_assert_eq!(fields, unsized_entries);
            }
        }
    }
}

/// Where a generated address lives: IPv4 `10.0.0.x`, IPv6 `2001:db8::x`, or IPv6 just below
/// the IPv4 block of the shared space (`::a00:x`, compared as IPv6 by the webhook).
#[derive(Clone, Copy, Debug)]
enum Region {
    V4,
    V6,
    Low,
}

fn region_addr(r: Region, off: u32) -> IpAddr {
    match r {
        Region::V4 => IpAddr::V4(Ipv4Addr::from(BASE + off)),
        Region::V6 => IpAddr::V6(Ipv6Addr::from(0x2001_0db8_u128 << 96 | u128::from(off))),
        Region::Low => IpAddr::V6(Ipv6Addr::from(u128::from(BASE + off))),
    }
}

fn gen_region() -> impl Strategy<Value = Region> {
    prop_oneof![Just(Region::V4), Just(Region::V6), Just(Region::Low)]
}

fn gen_point() -> impl Strategy<Value = Addr> {
    (gen_region(), 0u32..64).prop_map(|(r, o)| Addr::from(region_addr(r, o)))
}

fn gen_subnet() -> impl Strategy<Value = Subnet> {
    prop_oneof![
        (0u32..64, 26u8..=32).prop_map(|(w, p)| Subnet {
            written: Addr::from(region_addr(Region::V4, w)),
            prefix: p,
        }),
        (gen_region(), 0u32..64, 122u8..=128).prop_map(|(r, w, p)| Subnet {
            written: Addr::from(region_addr(
                if matches!(r, Region::V4) {
                    Region::V6
                } else {
                    r
                },
                w
            )),
            prefix: p,
        }),
        // Wide IPv6 subnets that cover the IPv4 block of the shared space.
        prop_oneof![Just(0u8), Just(64), Just(96)].prop_map(|p| Subnet {
            written: Addr::from_value(0),
            prefix: p,
        }),
    ]
}

/// Entries as the webhook may meet them: any mix of families, any of the three bounds.
fn gen_bounds_entry() -> impl Strategy<Value = Entry> {
    (
        prop::option::of(gen_point()),
        prop::option::of(gen_point()),
        prop::option::of(gen_subnet()),
    )
        .prop_map(|(start, end, subnet)| Entry {
            start,
            end,
            subnet,
            prefix: 0,
            gateway: None,
            dns_servers: Vec::new(),
            family: Family::V4,
        })
}

/// The webhook's `isAddressInBounds`, transcribed test by test: `netip.Addr.Compare` for start
/// and end (Rust's `IpAddr` order: every IPv4 before every IPv6), `net.IPNet.Contains` for the
/// subnet (an IPv4-mapped address is its IPv4 address there).
fn go_in_bounds(entries: &[Entry], ip: IpAddr) -> bool {
    entries.iter().any(|e| {
        if e.start.is_none() && e.end.is_none() && e.subnet.is_none() {
            return false;
        }
        if e.start.is_some_and(|s| s.ip() > ip) || e.end.is_some_and(|en| en.ip() < ip) {
            return false;
        }
        e.subnet.is_none_or(|sub| {
            let as_v4 = match ip {
                IpAddr::V4(a) => Some(a),
                IpAddr::V6(a) => a.to_ipv4_mapped(),
            };
            let net = sub.network().ip();
            let last = sub.last().ip();
            match (net, as_v4) {
                (IpAddr::V4(_), Some(a)) => net <= IpAddr::V4(a) && IpAddr::V4(a) <= last,
                (IpAddr::V6(_), None) => net <= ip && ip <= last,
                _ => false,
            }
        })
    })
}

/// Addresses to ask about: around every region, the IPv4-mapped twins of the IPv4 ones, and
/// the ends of both families.
fn probes() -> Vec<IpAddr> {
    let mut out: Vec<IpAddr> = Vec::new();
    for off in 0..=70 {
        for r in [Region::V4, Region::V6, Region::Low] {
            out.push(region_addr(r, off));
        }
        out.push(IpAddr::V6(Ipv4Addr::from(BASE + off).to_ipv6_mapped()));
    }
    for t in [
        "0.0.0.0",
        "255.255.255.255",
        "::",
        "::ffff:0:0",
        "::ffff:ffff:ffff",
        "::1:0:0:0",
        "::ffff:ffff:ffff:ffff",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ] {
        out.extend(t.parse::<IpAddr>().ok());
    }
    out
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    #[test]
    fn webhook_bounds_match_the_webhook(
        entries in prop::collection::vec(gen_bounds_entry(), 0..=4),
    ) {
        let b = WebhookBounds::new(&entries);
        for ip in probes() {
            prop_assert_eq!(b.admits(ip), go_in_bounds(&entries, ip), "{}", ip);
        }
    }
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    /// `first_common` is the lowest value both sets hold, as a test of every value finds it.
    #[test]
    fn first_common_matches_every_value(
        a in prop::collection::vec((0u128..200, 0u128..20), 0..5),
        b in prop::collection::vec((0u128..200, 0u128..20), 0..5),
    ) {
        let set = |r: &[(u128, u128)]| IntervalSet::from_ranges(r.iter().map(|(lo, n)| (*lo, lo + n)));
        let (x, y) = (set(&a), set(&b));
        let want = (0u128..220).find(|v| x.contains(*v) && y.contains(*v));
        prop_assert_eq!(x.first_common(&y), want);
        prop_assert_eq!(y.first_common(&x), want);
    }
}
