//! The IPAM webhook's bounds (`isAddressInBounds`, v1.14), case by case: the upstream test,
//! the family-blind comparisons, IPv4-mapped addresses, and entries that give no walk.

use std::net::IpAddr;

use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().expect("test address")
}

fn e(start: Option<&str>, end: Option<&str>, subnet: Option<&str>) -> EntrySpec {
    EntrySpec {
        start: start.map(Into::into),
        end: end.map(Into::into),
        subnet: subnet.map(Into::into),
        ..EntrySpec::default()
    }
}

fn bounds(entries: Vec<EntrySpec>) -> WebhookBounds {
    Pool::new(&PoolSpec {
        entries,
        ..PoolSpec::default()
    })
    .expect("valid test pool")
    .webhook_bounds()
}

/// Asserts which of `addrs` the bounds admit (`+` admitted, `-` not).
fn check(b: &WebhookBounds, addrs: &[&str]) {
    for a in addrs {
        let (want, text) = match a.split_at(1) {
            ("+", t) => (true, t),
            ("-", t) => (false, t),
            _ => panic!("prefix {a:?} with + or -"),
        };
        assert_eq!(b.admits(ip(text)), want, "{text}");
    }
}

#[test]
fn upstream_ip_in_use_out_of_the_new_range() {
    // ippool_webhook_test.go, TestIPPoolUpdateValidation, "should fail when ip in use".
    let b = bounds(vec![e(Some("192.168.0.1"), Some("192.168.0.10"), None)]);
    check(
        &b,
        &[
            "+192.168.0.1",
            "+192.168.0.10",
            "-192.168.0.30",
            "-192.168.0.0",
        ],
    );
}

#[test]
fn each_bound_of_an_entry_counts_and_entries_add_up() {
    let b = bounds(vec![
        e(Some("10.0.0.10"), Some("10.0.0.20"), Some("10.0.0.16/28")),
        e(None, None, Some("10.0.1.0/30")),
    ]);
    check(
        &b,
        &[
            "-10.0.0.15",
            "+10.0.0.16",
            "+10.0.0.20",
            "-10.0.0.21",
            // The webhook admits the network address of a subnet (the walk never reaches it).
            "+10.0.1.0",
            "+10.0.1.3",
            "-10.0.1.4",
        ],
    );
}

#[test]
fn an_entry_with_only_an_end_admits_everything_up_to_it() {
    // It gives no address to the walk, but the webhook's bounds are not the walk.
    let b = bounds(vec![e(None, Some("10.0.0.20"), None)]);
    check(
        &b,
        &["+0.0.0.0", "+10.0.0.20", "-10.0.0.21", "-2001:db8::1"],
    );
}

#[test]
fn an_ipv4_start_admits_every_ipv6_address() {
    // netip.Addr.Compare puts every IPv4 address before every IPv6 address.
    let b = bounds(vec![e(Some("192.168.0.10"), None, None)]);
    check(
        &b,
        &[
            "-192.168.0.9",
            "+192.168.0.10",
            "+255.255.255.255",
            "+::",
            "+2001:db8::1",
            "+ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        ],
    );
}

#[test]
fn an_ipv6_end_admits_every_ipv4_address_and_an_ipv6_start_none() {
    let b = bounds(vec![e(None, Some("2001:db8::20"), None)]);
    check(
        &b,
        &[
            "+0.0.0.0",
            "+255.255.255.255",
            "+2001:db8::20",
            "-2001:db8::21",
        ],
    );
    let b = bounds(vec![e(Some("::1"), None, None)]);
    check(&b, &["-255.255.255.255", "-10.0.0.1", "+::1", "-::"]);
}

#[test]
fn an_ipv4_end_admits_no_ipv6_address() {
    let b = bounds(vec![e(Some("10.0.0.1"), Some("10.0.0.9"), None)]);
    check(
        &b,
        &[
            "+10.0.0.5",
            "-::",
            "-::a00:5",
            "-::ffff:a00:5",
            "-2001:db8::5",
        ],
    );
}

#[test]
fn a_subnet_holds_only_its_own_family() {
    let b = bounds(vec![e(None, None, Some("10.0.0.0/24"))]);
    check(&b, &["+10.0.0.7", "-::a00:7", "-2001:db8::7"]);
    let b = bounds(vec![e(None, None, Some("::/64"))]);
    // The IPv4 block of the shared space is not part of an IPv6 subnet.
    check(
        &b,
        &[
            "+::7",
            "+::a00:7",
            "-10.0.0.7",
            "-::ffff:a00:7",
            "-::1:0:0:0:0",
        ],
    );
}

#[test]
fn an_ipv4_mapped_address_is_ipv6_to_start_and_end_but_ipv4_to_a_subnet() {
    // `::ffff:10.0.0.7`: net.IPNet.Contains sees 10.0.0.7; netip.Compare sees an IPv6 address.
    let b = bounds(vec![e(None, None, Some("10.0.0.0/24"))]);
    check(&b, &["+::ffff:a00:7", "-::ffff:a00:107"]);
    let b = bounds(vec![e(
        Some("10.0.0.1"),
        Some("10.0.0.9"),
        Some("10.0.0.0/24"),
    )]);
    // The IPv4 end is below every IPv6 address.
    check(&b, &["+10.0.0.7", "-::ffff:a00:7"]);
    let b = bounds(vec![e(Some("10.0.0.1"), None, Some("10.0.0.0/24"))]);
    check(&b, &["+::ffff:a00:7", "-::ffff:a00:107"]);
    let b = bounds(vec![e(Some("::1"), Some("::1:0:0:0"), None)]);
    check(&b, &["+::ffff:a00:7", "-10.0.0.7"]);
}

#[test]
fn no_entries_admit_nothing() {
    let b = bounds(Vec::new());
    check(&b, &["-10.0.0.1", "-::1", "-::ffff:a00:1"]);
    let b = WebhookBounds::new(&[]);
    assert!(!b.admits(ip("0.0.0.0")));
}
