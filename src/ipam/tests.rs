//! Parsing, text and interval-set tests.

use std::net::IpAddr;

use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().expect("test address")
}

fn a(s: &str) -> Addr {
    Addr::from(ip(s))
}

#[test]
fn v4_leading_zero_is_an_error_with_a_fix() {
    let e = parse_addr("010.0.0.1").unwrap_err();
    assert_eq!(
        e,
        AddrError::LeadingZero {
            text: "010.0.0.1".into(),
            suggestion: Some("10.0.0.1".into())
        }
    );
    assert_eq!(
        e.to_string(),
        "IPv4 address \"010.0.0.1\" has a leading zero in an octet; write 10.0.0.1"
    );
    assert!(matches!(
        parse_addr("10.0.0.00"),
        Err(AddrError::LeadingZero { .. })
    ));
    // Zero alone is fine.
    assert_eq!(parse_addr("10.0.0.0").unwrap().ip, ip("10.0.0.0"));
}

#[test]
fn v4_other_errors() {
    assert!(matches!(
        parse_addr("256.1.1.1"),
        Err(AddrError::OctetRange { .. })
    ));
    for bad in [
        "1.2.3",
        "1.2.3.4.5",
        "1..2.3",
        "a.b.c.d",
        "1.2.3.4/24",
        "+1.2.3.4",
    ] {
        assert!(
            matches!(parse_addr(bad), Err(AddrError::Invalid { .. })),
            "{bad}"
        );
    }
    assert_eq!(parse_addr(""), Err(AddrError::Empty));
    assert!(matches!(
        parse_addr(" 1.2.3.4"),
        Err(AddrError::Whitespace { .. })
    ));
    let p = parse_addr("192.168.1.10").unwrap();
    assert!(p.canonical);
    assert_eq!(p.ip.to_string(), "192.168.1.10");
}

#[test]
fn v6_mapped_embedded_and_zone_are_errors() {
    let e = parse_addr("::ffff:10.0.0.1").unwrap_err();
    assert!(matches!(e, AddrError::Mapped { ref v4, .. } if v4 == "10.0.0.1"));
    assert!(e.to_string().contains("write the IPv4 address 10.0.0.1"));
    // The mapped block in hex form is rejected too.
    assert!(matches!(
        parse_addr("::ffff:a00:1"),
        Err(AddrError::Mapped { .. })
    ));
    let e = parse_addr("::1.2.3.4").unwrap_err();
    assert_eq!(
        e,
        AddrError::EmbeddedV4 {
            text: "::1.2.3.4".into(),
            suggestion: Some("::102:304".into())
        }
    );
    assert!(e.to_string().contains("write ::102:304"));
    assert!(matches!(
        parse_addr("fe80::1%eth0"),
        Err(AddrError::ZoneId { .. })
    ));
    assert!(matches!(
        parse_addr("2001:db8::g"),
        Err(AddrError::Invalid { .. })
    ));
    assert!(matches!(
        parse_addr("[2001:db8::1]"),
        Err(AddrError::Invalid { .. })
    ));
}

#[test]
fn v6_canonical_detection() {
    let p = parse_addr("2001:DB8::0005").unwrap();
    assert!(!p.canonical);
    assert_eq!(p.ip.to_string(), "2001:db8::5");
    assert_eq!(p.addr().to_string(), "2001:db8::5");
    assert!(parse_addr("2001:db8::5").unwrap().canonical);
    assert!(!parse_addr("2001:db8:0:0:0:0:0:5").unwrap().canonical);
    assert!(!parse_addr("2001:db8::0:1:0:0:1").unwrap().canonical);
    assert_eq!(
        parse_addr("2001:0db8:0000:0001:0000:0000:0000:0001")
            .unwrap()
            .ip
            .to_string(),
        "2001:db8:0:1::1"
    );
    // RFC 5952: a single zero group is not compressed.
    assert!(parse_addr("2001:db8:0:1:1:1:1:1").unwrap().canonical);
    assert!(!parse_addr("2001:db8::1:1:1:1:1").unwrap().canonical);
}

#[test]
fn addr_space_and_display() {
    let v4 = a("10.0.0.1");
    assert!(v4.is_v4());
    assert_eq!(v4.family(), Family::V4);
    assert_eq!(v4.value(), V4_BASE + 0x0a00_0001);
    assert_eq!(v4.to_string(), "10.0.0.1");
    assert_eq!(v4.ip(), ip("10.0.0.1"));
    let v6 = a("2001:db8::5");
    assert!(!v6.is_v4());
    assert_eq!(v6.to_string(), "2001:db8::5");
    assert_eq!(Addr::from_value(V4_LAST).to_string(), "255.255.255.255");
    assert_eq!(
        Addr::from_value(V4_BASE - 1).to_string(),
        "::fffe:ffff:ffff"
    );
    assert!(is_v4(ip("1.2.3.4")) && !is_v4(ip("::1")));
}

#[test]
fn network_and_broadcast_of_addresses() {
    assert_eq!(a("192.168.1.77").network(24), a("192.168.1.0"));
    assert_eq!(a("192.168.1.77").broadcast(24), a("192.168.1.255"));
    assert_eq!(a("192.168.1.77").network(0), a("0.0.0.0"));
    assert_eq!(a("192.168.1.77").broadcast(0), a("255.255.255.255"));
    assert_eq!(a("192.168.1.77").network(32), a("192.168.1.77"));
    assert_eq!(a("2001:db8::1:2").network(64), a("2001:db8::"));
    assert_eq!(
        a("2001:db8::1:2").broadcast(64),
        a("2001:db8::ffff:ffff:ffff:ffff")
    );
    assert_eq!(a("2001:db8::1").broadcast(0), Addr::from_value(u128::MAX));
    assert_eq!(a("2001:db8::1").network(0), Addr::from_value(0));
}

#[test]
fn subnets() {
    assert_eq!(
        parse_subnet("192.168.1.1/26").unwrap(),
        (ip("192.168.1.1"), 26)
    );
    assert_eq!(
        parse_subnet("2001:db8::/64").unwrap(),
        (ip("2001:db8::"), 64)
    );
    assert_eq!(parse_subnet("0.0.0.0/0").unwrap(), (ip("0.0.0.0"), 0));
    assert!(matches!(
        parse_subnet("10.0.0.0/33"),
        Err(AddrError::PrefixTooLong {
            prefix: 33,
            max: 32,
            ..
        })
    ));
    assert!(matches!(
        parse_subnet("2001:db8::/129"),
        Err(AddrError::PrefixTooLong { max: 128, .. })
    ));
    assert!(matches!(
        parse_subnet("10.0.0.0/99999999999"),
        Err(AddrError::PrefixTooLong { .. })
    ));
    assert!(matches!(
        parse_subnet("10.0.0.0"),
        Err(AddrError::MissingPrefix { .. })
    ));
    for bad in ["10.0.0.0/024", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1"] {
        assert!(
            matches!(parse_subnet(bad), Err(AddrError::BadPrefix { .. })),
            "{bad}"
        );
    }
    assert!(matches!(
        parse_subnet("010.0.0.0/8"),
        Err(AddrError::LeadingZero { .. })
    ));
    assert!(matches!(
        parse_subnet("::ffff:0:0/96"),
        Err(AddrError::Mapped { .. })
    ));
}

#[test]
fn reserve_entries() {
    assert_eq!(
        parse_reserve("10.0.0.5").unwrap(),
        (a("10.0.0.5"), a("10.0.0.5"))
    );
    assert_eq!(
        parse_reserve("10.0.0.10-10.0.0.20").unwrap(),
        (a("10.0.0.10"), a("10.0.0.20"))
    );
    assert_eq!(
        parse_reserve(" 10.0.0.10 - 10.0.0.20 ").unwrap(),
        (a("10.0.0.10"), a("10.0.0.20"))
    );
    assert_eq!(
        parse_reserve("10.0.1.0/28").unwrap(),
        (a("10.0.1.0"), a("10.0.1.15"))
    );
    assert_eq!(
        parse_reserve("10.0.1.5/28").unwrap(),
        (a("10.0.1.0"), a("10.0.1.15"))
    );
    assert_eq!(
        parse_reserve("2001:db8::/126").unwrap(),
        (a("2001:db8::"), a("2001:db8::3"))
    );
    assert!(matches!(
        parse_reserve("10.0.0.20-10.0.0.10"),
        Err(AddrError::RangeOrder { .. })
    ));
    assert!(matches!(
        parse_reserve("10.0.0.1-2001:db8::1"),
        Err(AddrError::RangeFamilies { .. })
    ));
    assert!(matches!(parse_reserve("10.0.0.1-"), Err(AddrError::Empty)));
    assert!(matches!(
        parse_reserve("10.0.0.01"),
        Err(AddrError::LeadingZero { .. })
    ));
}

#[test]
fn interval_insert_merges_and_counts() {
    let mut s = IntervalSet::new();
    s.insert_range(10, 20);
    s.insert_range(30, 40);
    assert_eq!(s.range_count(), 2);
    s.insert(21); // adjacent to the first
    assert_eq!(s.ranges().collect::<Vec<_>>(), vec![(10, 21), (30, 40)]);
    s.insert_range(15, 35); // bridges both
    assert_eq!(s.ranges().collect::<Vec<_>>(), vec![(10, 40)]);
    s.insert_range(5, 9);
    assert_eq!(s.ranges().collect::<Vec<_>>(), vec![(5, 40)]);
    s.insert_range(50, 40); // reversed: ignored
    assert_eq!(s.count(), 36);
    assert!(s.contains(5) && s.contains(40) && !s.contains(4) && !s.contains(41));
    assert_eq!(s.range_containing(17), Some((5, 40)));
    assert_eq!(s.count_in(0, 7), 3);
    assert_eq!(s.count_in(7, 0), 0);
}

#[test]
fn interval_extremes_saturate() {
    let mut s = IntervalSet::new();
    s.insert_range(0, u128::MAX);
    assert_eq!(s.count(), u128::MAX);
    s.insert(u128::MAX);
    s.insert(0);
    assert_eq!(s.range_count(), 1);
    let mut t = IntervalSet::new();
    t.insert(u128::MAX);
    t.insert(u128::MAX - 1);
    assert_eq!(
        t.ranges().collect::<Vec<_>>(),
        vec![(u128::MAX - 1, u128::MAX)]
    );
    assert_eq!(s.difference(&t).ranges().last(), Some((0, u128::MAX - 2)));
}

#[test]
fn interval_set_algebra() {
    let x = IntervalSet::from_ranges([(0, 10), (20, 30), (40, 50)]);
    let y = IntervalSet::from_ranges([(5, 25), (45, 45), (60, 70)]);
    assert_eq!(
        x.union(&y).ranges().collect::<Vec<_>>(),
        vec![(0, 30), (40, 50), (60, 70)]
    );
    assert_eq!(
        x.intersection(&y).ranges().collect::<Vec<_>>(),
        vec![(5, 10), (20, 25), (45, 45)]
    );
    assert_eq!(
        x.difference(&y).ranges().collect::<Vec<_>>(),
        vec![(0, 4), (26, 30), (40, 44), (46, 50)]
    );
    assert_eq!(
        y.difference(&x).ranges().collect::<Vec<_>>(),
        vec![(11, 19), (60, 70)]
    );
    let mut z = x.clone();
    z.extend(&y);
    assert_eq!(z, x.union(&y));
    assert_eq!(
        IntervalSet::from_ranges([(3, 4), (1, 2), (9, 8)])
            .ranges()
            .collect::<Vec<_>>(),
        vec![(1, 4)]
    );
}

#[test]
fn first_common_is_the_lowest_shared_value() {
    let x = IntervalSet::from_ranges([(0, 10), (20, 30), (40, 50)]);
    let y = IntervalSet::from_ranges([(12, 19), (25, 25), (45, 70)]);
    assert_eq!(x.first_common(&y), Some(25));
    assert_eq!(y.first_common(&x), Some(25));
    assert_eq!(x.first_common(&IntervalSet::new()), None);
    let apart = IntervalSet::from_ranges([(11, 19), (31, 39)]);
    assert_eq!(x.first_common(&apart), None);
    let top = IntervalSet::from_ranges([(u128::MAX, u128::MAX)]);
    let all = IntervalSet::from_ranges([(0, u128::MAX)]);
    assert_eq!(top.first_common(&all), Some(u128::MAX));
}

/// The IPAddress names of FACTS §4, as ip-address-manager's `formatAddressName` writes them
/// (`namePrefix + "-" + address`, `.` and `:` as `-`, `TrimRight(..., "-")`).
#[test]
fn ip_address_names_are_the_ipams() {
    let a = |t: &str| parse_addr(t).expect("an address").addr();
    for (prefix, address, name) in [
        ("prov", "10.0.0.10", "prov-10-0-0-10"),
        ("test1-bmv4", "192.168.111.0", "test1-bmv4-192-168-111-0"),
        ("prov", "2001:db8::5", "prov-2001-db8--5"),
        // the trailing dashes of `::` are cut, as TrimRight cuts them
        ("prov", "2001:db8::", "prov-2001-db8"),
        ("prov", "::", "prov"),
        ("prov", "::1", "prov---1"),
        ("prov", "fd00:0:0:1:2:3:4:5", "prov-fd00--1-2-3-4-5"),
        // the prefix as written, dots too
        ("a.b", "10.0.0.1", "a-b-10-0-0-1"),
        ("p-", "10.0.0.1", "p--10-0-0-1"),
        // an IPv6 address is written canonical, as the IPAM's walk writes it
        ("prov", "2001:DB8:0::0005", "prov-2001-db8--5"),
    ] {
        assert_eq!(
            ip_address_name(prefix, a(address)),
            name,
            "{prefix} {address}"
        );
    }
}

#[test]
fn interval_bulk_insert_of_singles() {
    let mut s = IntervalSet::new();
    // Every other value, inserted from the top down: worst case for a Vec.
    for i in (0..40_000u128).rev() {
        s.insert(i * 2);
    }
    assert_eq!(s.range_count(), 40_000);
    assert_eq!(s.count(), 40_000);
    for i in 0..40_000u128 {
        s.insert(i * 2 + 1);
    }
    assert_eq!(s.ranges().collect::<Vec<_>>(), vec![(0, 79_999)]);
    let bulk: IntervalSet = (0..40_000u128).map(|i| (i * 3, i * 3)).collect();
    assert_eq!(bulk.range_count(), 40_000);
    assert_eq!(bulk.count_in(0, 299), 100);
}
