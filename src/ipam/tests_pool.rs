//! Pool tests: the FACTS §4 walk table, validation, reserved rules, large pools.

use super::*;

fn a(s: &str) -> Addr {
    Addr::from(s.parse::<std::net::IpAddr>().expect("test address"))
}

fn e(start: Option<&str>, end: Option<&str>, subnet: Option<&str>) -> EntrySpec {
    EntrySpec {
        start: start.map(Into::into),
        end: end.map(Into::into),
        subnet: subnet.map(Into::into),
        ..EntrySpec::default()
    }
}

fn range(start: &str, end: &str) -> EntrySpec {
    e(Some(start), Some(end), None)
}

fn pool(entries: Vec<EntrySpec>) -> Pool {
    Pool::new(&PoolSpec {
        entries,
        ..PoolSpec::default()
    })
    .expect("valid test pool")
}

fn errors(spec: PoolSpec) -> Vec<(String, String)> {
    Pool::new(&spec)
        .expect_err("invalid test pool")
        .into_iter()
        .map(|e| (e.field, e.message))
        .collect()
}

fn set(p: &[(&str, &str)]) -> IntervalSet {
    IntervalSet::from_ranges(p.iter().map(|(l, h)| (a(l).value(), a(h).value())))
}

// ---- FACTS §4 walk table ----

#[test]
fn start_to_end() {
    let p = pool(vec![range("10.0.0.10", "10.0.0.20")]);
    assert_eq!(p.candidate_count(), 11);
    assert_eq!(p.position(a("10.0.0.10")), Some(0));
    assert_eq!(p.position(a("10.0.0.20")), Some(10));
    assert!(!p.is_candidate(a("10.0.0.9")));
    assert!(!p.is_candidate(a("10.0.0.21")));
    assert_eq!(p.addr_at(3), Some(a("10.0.0.13")));
    assert_eq!(p.addr_at(11), None);
    assert_eq!(p.entry_of(a("10.0.0.15")), Some(0));
}

#[test]
fn start_with_subnet_stops_at_the_edge() {
    let p = pool(vec![e(
        Some("192.168.1.250"),
        Some("192.168.2.10"),
        Some("192.168.1.0/24"),
    )]);
    assert_eq!(p.candidate_count(), 6);
    assert_eq!(p.position(a("192.168.1.255")), Some(5));
    assert!(!p.is_candidate(a("192.168.2.0")));
    // No end: up to the subnet's last address.
    let p = pool(vec![e(Some("192.168.1.250"), None, Some("192.168.1.0/24"))]);
    assert_eq!(p.candidates(), &set(&[("192.168.1.250", "192.168.1.255")]));
}

#[test]
fn start_outside_subnet_gives_nothing() {
    let p = pool(vec![
        e(
            Some("192.168.2.5"),
            Some("192.168.2.9"),
            Some("192.168.1.0/24"),
        ),
        range("10.0.0.1", "10.0.0.2"),
    ]);
    assert!(!p.is_candidate(a("192.168.2.5")));
    assert!(!p.is_candidate(a("192.168.1.1")));
    // Nothing was walked before the second entry.
    assert_eq!(p.position(a("10.0.0.1")), Some(0));
    assert_eq!(p.candidate_count(), 2);
}

#[test]
fn start_only_is_unbounded_up_to_the_position_limit() {
    let p = pool(vec![e(Some("10.0.0.0"), None, None)]);
    // 10.16.0.0 is 2^20 addresses after 10.0.0.0.
    assert_eq!(p.position(a("10.16.0.0")), Some(POSITION_LIMIT));
    assert!(!p.is_candidate(a("10.16.0.1")));
    assert_eq!(p.addr_at(POSITION_LIMIT), Some(a("10.16.0.0")));
    assert_eq!(p.addr_at(POSITION_LIMIT + 1), None);
    assert_eq!(p.candidate_count(), u128::from(POSITION_LIMIT) + 1);
}

#[test]
fn entries_after_an_unbounded_entry_give_none() {
    let p = pool(vec![
        e(Some("255.255.255.250"), None, None),
        range("192.168.0.1", "192.168.0.5"),
    ]);
    assert!(p.is_candidate(a("255.255.255.255")));
    assert!(!p.is_candidate(a("192.168.0.1")));
    assert_eq!(p.candidate_count(), 6);
}

#[test]
fn subnet_only_starts_after_the_written_address() {
    let p = pool(vec![e(None, None, Some("192.168.1.0/24"))]);
    assert!(!p.is_candidate(a("192.168.1.0")));
    assert_eq!(p.position(a("192.168.1.1")), Some(0));
    assert_eq!(p.position(a("192.168.1.255")), Some(254));
    assert_eq!(p.candidate_count(), 255);

    let p = pool(vec![e(None, None, Some("192.168.1.1/26"))]);
    assert!(!p.is_candidate(a("192.168.1.0")));
    assert!(!p.is_candidate(a("192.168.1.1")));
    assert_eq!(p.position(a("192.168.1.2")), Some(0));
    assert_eq!(p.position(a("192.168.1.63")), Some(61));
    assert!(!p.is_candidate(a("192.168.1.64")));

    // Written as the last address: nothing.
    let p = pool(vec![e(None, None, Some("10.0.0.255/24"))]);
    assert_eq!(p.candidate_count(), 0);
}

#[test]
fn subnet_only_with_end_walks_past_end_but_webhook_limits() {
    let p = pool(vec![e(None, Some("192.168.1.100"), Some("192.168.1.0/24"))]);
    assert!(p.is_candidate(a("192.168.1.100")));
    assert!(!p.is_candidate(a("192.168.1.101")));
    assert_eq!(p.candidate_count(), 100);
    // Another entry admits .200-.210: they are reached by entry 0's walk first.
    let p = pool(vec![
        e(None, Some("192.168.1.100"), Some("192.168.1.0/24")),
        range("192.168.1.200", "192.168.1.210"),
    ]);
    assert_eq!(p.position(a("192.168.1.205")), Some(204));
    assert_eq!(p.entry_of(a("192.168.1.205")), Some(0));
    assert!(!p.is_candidate(a("192.168.1.150")));
    assert_eq!(p.candidate_count(), 111);
    // Entry 1 adds no new positions: its walk repeats addresses already reached.
    assert_eq!(p.addr_at(255), None);
}

#[test]
fn unadmitted_walked_addresses_still_count_for_positions() {
    // Entry 0 walks .1-.15 but admits only .1-.3.
    let p = pool(vec![
        e(None, Some("10.0.0.3"), Some("10.0.0.0/28")),
        range("10.0.1.0", "10.0.1.5"),
    ]);
    assert_eq!(p.position(a("10.0.1.0")), Some(15));
    assert_eq!(p.addr_at(4), None);
    assert_eq!(p.addr_at(15), Some(a("10.0.1.0")));
}

#[test]
fn only_end_gives_nothing() {
    let p = pool(vec![
        e(None, Some("10.0.0.5"), None),
        range("10.0.0.1", "10.0.0.3"),
    ]);
    assert_eq!(p.position(a("10.0.0.1")), Some(0));
    assert!(!p.is_candidate(a("10.0.0.4")));
    assert_eq!(p.candidate_count(), 3);
}

#[test]
fn an_address_reached_twice_counts_at_its_first_position() {
    let p = pool(vec![
        range("10.0.0.5", "10.0.0.9"),
        range("10.0.0.1", "10.0.0.20"),
    ]);
    assert_eq!(p.position(a("10.0.0.7")), Some(2));
    assert_eq!(p.entry_of(a("10.0.0.7")), Some(0));
    assert_eq!(p.position(a("10.0.0.1")), Some(5));
    assert_eq!(p.position(a("10.0.0.10")), Some(14));
    assert_eq!(p.entry_of(a("10.0.0.10")), Some(1));
    // Entry 1 reaches .7 again at position 11: not a candidate position.
    assert_eq!(p.addr_at(11), None);
    assert_eq!(p.candidate_count(), 20);
}

#[test]
fn admission_by_a_different_entry() {
    // Entry 0 walks 10.0.0.1-.255 but admits only up to .9; entry 1 admits .50-.60.
    let p = pool(vec![
        e(None, Some("10.0.0.9"), Some("10.0.0.0/24")),
        range("10.0.0.50", "10.0.0.60"),
    ]);
    assert_eq!(p.position(a("10.0.0.55")), Some(54));
    assert_eq!(p.entry_of(a("10.0.0.55")), Some(0));
    assert!(!p.is_candidate(a("10.0.0.100")));
    // Families must match: a v6 entry does not admit v4 addresses.
    let p = pool(vec![
        e(None, Some("10.0.0.9"), Some("10.0.0.0/24")),
        e(Some("::"), None, None),
    ]);
    assert!(!p.is_candidate(a("10.0.0.55")));
}

#[test]
fn walk_order_is_by_position_not_address() {
    let p = pool(vec![
        range("10.0.0.100", "10.0.0.110"),
        range("10.0.0.5", "10.0.0.9"),
    ]);
    let mut blocked = IntervalSet::new();
    let mut cur = p.allocator();
    let mut got = Vec::new();
    while let Some((addr, pos)) = cur.next_free(&blocked) {
        blocked.insert_addr(addr);
        got.push((addr.to_string(), pos));
    }
    assert_eq!(got.len(), 16);
    assert_eq!(got[0], ("10.0.0.100".to_string(), 0));
    assert_eq!(got[10], ("10.0.0.110".to_string(), 10));
    assert_eq!(got[11], ("10.0.0.5".to_string(), 11));
    assert_eq!(p.segments().len(), 2);
    assert_eq!(p.segments()[1].first_position, 11);
}

#[test]
fn cursor_skips_blocked_ranges_and_repeats_unblocked_result() {
    let p = pool(vec![range("10.0.0.1", "10.0.0.10")]);
    let blocked = set(&[("10.0.0.1", "10.0.0.4"), ("10.0.0.6", "10.0.0.6")]);
    let mut cur = p.allocator();
    assert_eq!(cur.next_free(&blocked), Some((a("10.0.0.5"), 4)));
    // Not blocked by the caller: returned again.
    assert_eq!(cur.next_free(&blocked), Some((a("10.0.0.5"), 4)));
    assert_eq!(p.count_free(&blocked), 5);
    assert_eq!(p.first_free(&set(&[("10.0.0.1", "10.0.0.10")])), None);
}

#[test]
fn v6_range_skips_the_v4_block() {
    // The walk runs into ::ffff:0:0, which stands for IPv4 here: never a v6 candidate.
    let p = pool(vec![
        range("::fffe:ffff:fff0", "::1:0:0:0"),
        range("0.0.0.0", "0.0.0.5"),
    ]);
    assert_eq!(p.position(a("::fffe:ffff:ffff")), Some(15));
    assert!(!p.is_candidate(a("0.0.0.0")));
    assert_eq!(p.candidate_count(), 16);
}

// ---- IPv6 /64: cost independent of size ----

#[test]
fn v6_slash64_pool() {
    let p = pool(vec![e(None, None, Some("2001:db8::/64"))]);
    assert_eq!(p.candidate_count(), u128::from(POSITION_LIMIT) + 1);
    let mut blocked = IntervalSet::new();
    blocked.insert_addr(a("2001:db8::1"));
    assert_eq!(p.first_free(&blocked), Some((a("2001:db8::2"), 1)));
    assert_eq!(p.addr_at(1_000_000), Some(a("2001:db8::f:4241")));
    assert_eq!(p.addr_at(POSITION_LIMIT), Some(a("2001:db8::10:1")));
    assert_eq!(p.addr_at(POSITION_LIMIT + 1), None);
    assert!(!p.is_candidate(a("2001:db8::10:2")));
    assert_eq!(p.position(a("2001:db8::f:4241")), Some(1_000_000));
    assert_eq!(p.count_free(&blocked), u128::from(POSITION_LIMIT));
    let r2 = p.reserved_rule2();
    // The network address ::0 is not walked (subnet as written + 1): nothing reserved.
    assert!(r2.is_empty());
}

#[test]
fn many_sequential_allocations_with_many_blocked() {
    let p = pool(vec![range("10.0.0.0", "10.3.255.255")]);
    let base = a("10.0.0.0").value();
    // 40,000 blocked singles: every even address of the first 80,000.
    let mut blocked: IntervalSet = (0..40_000u128)
        .map(|i| (base + 2 * i, base + 2 * i))
        .collect();
    let free_before = p.count_free(&blocked);
    let mut cur = p.allocator();
    let mut last = None;
    for i in 0..10_000u64 {
        let (addr, pos) = cur.next_free(&blocked).expect("free address");
        assert_eq!(pos, 2 * i + 1);
        blocked.insert_addr(addr);
        last = Some(addr);
    }
    assert_eq!(last, Some(Addr::from_value(base + 19_999)));
    assert_eq!(p.count_free(&blocked), free_before - 10_000);
}

// ---- Validation ----

#[test]
fn start_after_end_names_the_field() {
    let errs = errors(PoolSpec {
        entries: vec![range("10.0.0.1", "10.0.0.2"), range("10.0.0.9", "10.0.0.3")],
        ..PoolSpec::default()
    });
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].0, "spec.pools[1].start");
    assert!(errs[0].1.contains("start 10.0.0.9 is after end 10.0.0.3"));
}

#[test]
fn mixed_families_in_one_entry() {
    let mut gw = range("10.0.0.1", "10.0.0.2");
    gw.gateway = Some("2001:db8::1".into());
    let errs = errors(PoolSpec {
        entries: vec![
            range("10.0.0.1", "2001:db8::9"),
            e(Some("2001:db8::1"), None, Some("10.0.0.0/24")),
            gw,
        ],
        ..PoolSpec::default()
    });
    let fields: Vec<&str> = errs.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        fields,
        vec![
            "spec.pools[0].end",
            "spec.pools[1].subnet",
            "spec.pools[2].gateway"
        ]
    );
    assert!(errs[0].1.contains("IPv6") && errs[0].1.contains("in one family"));
}

#[test]
fn prefix_limits() {
    let mut v4 = range("10.0.0.1", "10.0.0.2");
    v4.prefix = Some(33);
    let mut v6 = range("2001:db8::1", "2001:db8::2");
    v6.prefix = Some(129);
    let mut v6ok = range("2001:db8::1", "2001:db8::2");
    v6ok.prefix = Some(64);
    let errs = errors(PoolSpec {
        entries: vec![v4, v6, v6ok],
        ..PoolSpec::default()
    });
    let fields: Vec<&str> = errs.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(fields, vec!["spec.pools[0].prefix", "spec.pools[1].prefix"]);
    assert!(errs[0].1.contains("over 32"));
    assert!(errs[1].1.contains("over 128"));

    // A pool-level prefix over 32 applied to an IPv4 entry without its own.
    let errs = errors(PoolSpec {
        entries: vec![range("10.0.0.1", "10.0.0.2")],
        prefix: Some(64),
        ..PoolSpec::default()
    });
    assert_eq!(errs[0].0, "spec.prefix");
    assert!(errs[0].1.contains("spec.pools[0]"));
    let errs = errors(PoolSpec {
        prefix: Some(200),
        ..PoolSpec::default()
    });
    assert_eq!(errs[0].0, "spec.prefix");
}

#[test]
fn unparsable_addresses_and_empty_entry() {
    let mut bad_dns = range("10.0.0.1", "10.0.0.2");
    bad_dns.dns_servers = vec!["8.8.8.8".into(), "8.8.8".into()];
    let errs = errors(PoolSpec {
        entries: vec![
            e(None, None, None),
            bad_dns,
            e(Some("010.0.0.1"), None, None),
            e(None, None, Some("10.0.0.0/40")),
        ],
        gateway: Some("::ffff:10.0.0.1".into()),
        dns_servers: vec!["fe80::1%eth0".into()],
        ..PoolSpec::default()
    });
    let fields: Vec<&str> = errs.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        fields,
        vec![
            "spec.gateway",
            "spec.dnsServers[0]",
            "spec.pools[0]",
            "spec.pools[1].dnsServers[1]",
            "spec.pools[2].start",
            "spec.pools[3].subnet",
        ]
    );
    assert!(errs[0].1.contains("IPv4-mapped"));
    assert!(errs[2].1.contains("none of start, end and subnet"));
    assert!(errs[4].1.contains("leading zero") && errs[4].1.contains("write 10.0.0.1"));
    assert!(errs[5].1.contains("over 32"));
}

#[test]
fn valid_pool_keeps_its_fields() {
    let mut en = range("10.0.0.1", "10.0.0.9");
    en.prefix = Some(0); // unset
    let p = Pool::new(&PoolSpec {
        entries: vec![en],
        prefix: Some(24),
        gateway: Some("10.0.0.254".into()),
        dns_servers: vec!["10.0.0.253".into()],
        allocation_strategy: AllocationStrategy::Random,
    })
    .expect("valid");
    assert_eq!(p.effective_prefix(0), Some(24));
    assert_eq!(p.prefix(), 24);
    assert_eq!(p.gateway(), Some(a("10.0.0.254")));
    assert_eq!(p.dns_servers(), &[a("10.0.0.253")]);
    assert_eq!(
        p.entries()[0].walk(),
        Walk::Range(a("10.0.0.1"), a("10.0.0.9"))
    );
    assert_eq!(p.effective_prefix(1), None);
}

// ---- Reserved rules ----

#[test]
fn rule1_gateways_and_dns() {
    let mut en = range("10.0.0.1", "10.0.0.9");
    en.gateway = Some("10.0.0.3".into());
    en.dns_servers = vec!["10.0.0.4".into(), "2001:db8::53".into()];
    let p = Pool::new(&PoolSpec {
        entries: vec![en],
        gateway: Some("10.0.0.1".into()),
        dns_servers: vec!["10.0.0.2".into()],
        ..PoolSpec::default()
    })
    .expect("valid");
    let r1 = p.reserved_rule1();
    assert_eq!(r1.count(), 5);
    for s in [
        "10.0.0.1",
        "10.0.0.2",
        "10.0.0.3",
        "10.0.0.4",
        "2001:db8::53",
    ] {
        assert!(r1.contains_addr(a(s)), "{s}");
    }
    assert!(!r1.contains_addr(a("10.0.0.5")));
}

fn rule2(p: &Pool) -> Vec<String> {
    let r = p.reserved_rule2();
    // The predicate agrees with the set on every candidate.
    for (lo, hi) in p.candidates().ranges() {
        for v in lo..=hi.min(lo + 5000) {
            let x = Addr::from_value(v);
            assert_eq!(p.is_reserved_rule2(x), r.contains(v), "{x}");
        }
    }
    r.ranges()
        .flat_map(|(lo, hi)| (lo..=hi).map(|v| Addr::from_value(v).to_string()))
        .collect()
}

fn with_prefix(mut en: EntrySpec, prefix: u8) -> EntrySpec {
    en.prefix = Some(prefix);
    en
}

#[test]
fn rule2_v4_subnet_24() {
    let p = pool(vec![e(
        Some("192.168.1.0"),
        Some("192.168.1.255"),
        Some("192.168.1.0/24"),
    )]);
    assert_eq!(rule2(&p), vec!["192.168.1.0", "192.168.1.255"]);
    // Subnet only: the network address is never walked; the broadcast is.
    let p = pool(vec![e(None, None, Some("192.168.1.0/24"))]);
    assert_eq!(rule2(&p), vec!["192.168.1.255"]);
}

#[test]
fn rule2_prefix_across_several_networks() {
    let p = pool(vec![with_prefix(range("10.0.0.200", "10.0.2.10"), 24)]);
    assert_eq!(
        rule2(&p),
        vec!["10.0.0.255", "10.0.1.0", "10.0.1.255", "10.0.2.0"]
    );
    // Pool-level prefix applies when the entry has none; the entry's own wins.
    let p = Pool::new(&PoolSpec {
        entries: vec![
            range("10.0.0.0", "10.0.0.9"),
            with_prefix(range("10.0.1.0", "10.0.1.9"), 30),
        ],
        prefix: Some(24),
        ..PoolSpec::default()
    })
    .expect("valid");
    assert_eq!(
        rule2(&p),
        vec![
            "10.0.0.0", "10.0.1.0", "10.0.1.3", "10.0.1.4", "10.0.1.7", "10.0.1.8"
        ]
    );
}

#[test]
fn rule2_v4_31_and_32_reserve_nothing() {
    let p = pool(vec![with_prefix(range("10.0.0.0", "10.0.0.7"), 31)]);
    assert!(rule2(&p).is_empty());
    let p = pool(vec![e(Some("10.0.0.0"), None, Some("10.0.0.0/31"))]);
    assert_eq!(p.candidate_count(), 2);
    assert!(rule2(&p).is_empty());
    let p = pool(vec![with_prefix(range("10.0.0.0", "10.0.0.3"), 32)]);
    assert!(rule2(&p).is_empty());
    let p = pool(vec![e(Some("10.0.0.5"), None, Some("10.0.0.5/32"))]);
    assert_eq!(p.candidate_count(), 1);
    assert!(rule2(&p).is_empty());
}

#[test]
fn rule2_v6_network_only() {
    let p = pool(vec![with_prefix(
        range("2001:db8::ffff:ffff:ffff:fff0", "2001:db8:0:1::10"),
        64,
    )]);
    assert_eq!(rule2(&p), vec!["2001:db8:0:1::"]);
    assert!(!p.is_reserved_rule2(a("2001:db8::ffff:ffff:ffff:ffff")));
    let p = pool(vec![e(Some("2001:db8::"), None, Some("2001:db8::/64"))]);
    assert_eq!(rule2(&p), vec!["2001:db8::"]);
    let p = pool(vec![with_prefix(range("2001:db8::", "2001:db8::7"), 126)]);
    assert_eq!(rule2(&p), vec!["2001:db8::", "2001:db8::4"]);
    let p = pool(vec![with_prefix(range("2001:db8::", "2001:db8::7"), 127)]);
    assert!(rule2(&p).is_empty());
}

#[test]
fn rule2_only_for_the_addresses_own_entry() {
    // 10.0.0.0 is first reached by entry 0 (prefix 32): entry 1's /24 does not apply.
    let p = pool(vec![
        with_prefix(range("10.0.0.0", "10.0.0.0"), 32),
        with_prefix(range("10.0.0.0", "10.0.0.255"), 24),
    ]);
    assert_eq!(rule2(&p), vec!["10.0.0.255"]);
}

#[test]
fn rule2_on_a_huge_range_is_bounded_by_the_walk_limit() {
    let p = pool(vec![with_prefix(e(Some("10.0.0.0"), None, None), 30)]);
    let r = p.reserved_rule2();
    // 2^20 + 1 candidates in /30 networks: 2^18 networks, network and broadcast each,
    // plus the network at 10.16.0.0.
    assert_eq!(r.count(), 2 * (1 << 18) + 1);
    assert!(r.contains_addr(a("10.16.0.0")));
    assert!(!r.contains_addr(a("10.16.0.3")));
}

#[test]
fn who_refuses_what() {
    let refusal = |spec: PoolSpec| -> Vec<(String, Refusal)> {
        Pool::new(&spec)
            .expect_err("refused")
            .into_iter()
            .map(|e| (e.field, e.refusal))
            .collect()
    };
    // The v1.14 webhook checks neither families nor an IPv4 prefix over 32.
    let mut v4_prefix = e(Some("10.0.0.1"), Some("10.0.0.9"), None);
    v4_prefix.prefix = Some(33);
    assert_eq!(
        refusal(PoolSpec {
            entries: vec![e(Some("10.0.0.1"), Some("2001:db8::1"), None), v4_prefix],
            ..PoolSpec::default()
        }),
        [
            ("spec.pools[0].end".to_string(), Refusal::Unusable),
            ("spec.pools[1].prefix".to_string(), Refusal::Unusable)
        ]
    );
    assert_eq!(
        refusal(PoolSpec {
            entries: vec![e(Some("10.0.0.1"), Some("10.0.0.9"), None)],
            prefix: Some(64),
            ..PoolSpec::default()
        }),
        [("spec.prefix".to_string(), Refusal::Unusable)]
    );
    // It does check these.
    assert_eq!(
        refusal(PoolSpec {
            entries: vec![
                e(Some("10.0.0.9"), Some("10.0.0.1"), None),
                e(None, None, None),
                e(Some("10.0.0.300"), None, None),
            ],
            ..PoolSpec::default()
        }),
        [
            ("spec.pools[0].start".to_string(), Refusal::Webhook),
            ("spec.pools[1]".to_string(), Refusal::Webhook),
            ("spec.pools[2].start".to_string(), Refusal::Webhook)
        ]
    );
}
