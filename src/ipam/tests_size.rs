//! `allocationStrategy` and entry sizes: the IPAM's `GetPoolSize` table (FACTS §4), the edges
//! of 2^63 − 1 and 2^128, and the webhook rule for `random` in pool validation.

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

/// The size of one entry, validated on its own under `sequential`.
fn size(start: Option<&str>, end: Option<&str>, subnet: Option<&str>) -> Result<u64, SizeError> {
    let p = Pool::new(&PoolSpec {
        entries: vec![e(start, end, subnet)],
        ..PoolSpec::default()
    })
    .expect("valid test entry");
    p.entries()[0].random_size()
}

fn random(entries: Vec<EntrySpec>) -> Result<Pool, Vec<PoolError>> {
    Pool::new(&PoolSpec {
        entries,
        allocation_strategy: AllocationStrategy::Random,
        ..PoolSpec::default()
    })
}

const LIMIT: u64 = i64::MAX as u64;

#[test]
fn strategy_names_are_the_crd_enum() {
    assert_eq!(
        AllocationStrategy::parse("sequential"),
        Some(AllocationStrategy::Sequential)
    );
    assert_eq!(
        AllocationStrategy::parse("random"),
        Some(AllocationStrategy::Random)
    );
    for bad in ["Random", "SEQUENTIAL", "", " random", "ordinal"] {
        assert_eq!(AllocationStrategy::parse(bad), None, "{bad:?}");
    }
    assert_eq!(
        AllocationStrategy::default(),
        AllocationStrategy::Sequential
    );
    for name in AllocationStrategy::NAMES {
        assert_eq!(
            AllocationStrategy::parse(name).map(|s| s.name()),
            Some(name)
        );
    }
    assert_eq!(u128::from(LIMIT), RANDOM_SIZE_LIMIT);
}

// ---- the GetPoolSize table (api/v1alpha1/utils_test.go) ----

#[test]
fn start_and_end_inclusive() {
    assert_eq!(
        size(Some("192.168.0.10"), Some("192.168.0.20"), None),
        Ok(11)
    );
    assert_eq!(
        size(Some("192.168.0.10"), Some("192.168.0.10"), None),
        Ok(1)
    );
}

#[test]
fn start_and_subnet_run_to_the_last_address() {
    assert_eq!(
        size(Some("192.168.0.10"), None, Some("192.168.0.0/24")),
        Ok(246)
    );
    // A start below the subnet counts from the start (GetPoolSize does not clip it).
    assert_eq!(
        size(Some("192.168.0.250"), None, Some("192.168.1.0/30")),
        Ok(10)
    );
    // A start after the subnet has no size.
    assert_eq!(
        size(Some("192.168.1.10"), None, Some("192.168.0.0/24")),
        Err(SizeError::StartAfterSubnet {
            start: a("192.168.1.10"),
            last: a("192.168.0.255")
        })
    );
}

#[test]
fn start_and_end_win_over_subnet() {
    // The walk stops at the subnet's edge; the size the random strategy indexes does not.
    assert_eq!(
        size(
            Some("192.168.0.250"),
            Some("192.168.1.9"),
            Some("192.168.0.0/24")
        ),
        Ok(16)
    );
}

#[test]
fn subnet_only_leaves_out_the_network_address() {
    assert_eq!(size(None, None, Some("192.168.0.0/24")), Ok(255));
    // Host bits set: counted from the network address, not from the address as written.
    assert_eq!(size(None, None, Some("192.168.0.10/24")), Ok(255));
    assert_eq!(size(None, None, Some("192.168.0.7/32")), Ok(0));
    assert_eq!(size(None, None, Some("2001:db8::7/128")), Ok(0));
    assert_eq!(size(None, None, Some("0.0.0.0/0")), Ok(u64::from(u32::MAX)));
    // An end beside a subnet is ignored, as the allocator ignores it.
    assert_eq!(
        size(None, Some("192.168.0.20"), Some("192.168.0.0/24")),
        Ok(255)
    );
}

#[test]
fn entries_without_a_size() {
    assert_eq!(
        size(Some("192.168.0.10"), None, None),
        Err(SizeError::Unbounded)
    );
    assert_eq!(
        size(None, Some("192.168.0.20"), None),
        Err(SizeError::NoStart)
    );
}

#[test]
fn sizes_at_the_int64_edge() {
    // A /65 has 2^63 addresses, minus its network address: exactly the limit.
    assert_eq!(size(None, None, Some("2001:db8::/65")), Ok(LIMIT));
    assert_eq!(
        size(None, None, Some("2001:db8::/64")),
        Err(SizeError::TooLarge(Some((1u128 << 64) - 1)))
    );
    assert_eq!(
        size(Some("::"), Some("::7fff:ffff:ffff:fffe"), None),
        Ok(LIMIT)
    );
    assert_eq!(
        size(Some("::"), Some("::7fff:ffff:ffff:ffff"), None),
        Err(SizeError::TooLarge(Some(1u128 << 63)))
    );
    assert_eq!(
        size(Some("2001:db8::"), Some("2001:db8::ffff"), None),
        Ok(65536)
    );
    assert!(matches!(
        size(Some("2001:db8::"), Some("2001:db8:ffff:ffff:ffff::"), None),
        Err(SizeError::TooLarge(Some(_)))
    ));
}

#[test]
fn sizes_past_u128_do_not_overflow() {
    assert_eq!(
        size(
            Some("::"),
            Some("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
            None
        ),
        Err(SizeError::TooLarge(None))
    );
    assert_eq!(
        size(None, None, Some("::/0")),
        Err(SizeError::TooLarge(Some(u128::MAX)))
    );
    assert!(SizeError::TooLarge(None).to_string().contains("2^128"));
}

// ---- the webhook rule in pool validation ----

#[test]
fn random_refuses_each_entry_without_a_size_naming_it() {
    let errs = random(vec![
        e(Some("192.168.0.10"), Some("192.168.0.20"), None),
        e(Some("192.168.0.30"), None, None),
        e(None, None, Some("2001:db8::/32")),
        e(None, Some("192.168.0.40"), None),
        e(None, None, Some("192.168.1.0/24")),
    ])
    .expect_err("random refuses unsizable entries");
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["spec.pools[1]", "spec.pools[2]", "spec.pools[3]"]);
    for e in &errs {
        assert_eq!(e.refusal, Refusal::Webhook);
        assert!(
            e.message.contains("allocationStrategy random"),
            "{}",
            e.message
        );
        assert!(e.message.contains("sequential"), "{}", e.message);
    }
    assert!(errs[0].message.contains("neither end nor subnet"));
    assert!(errs[1].message.contains("2^63 - 1"));
    assert!(errs[2].message.contains("neither start nor subnet"));
}

#[test]
fn sequential_accepts_what_random_refuses() {
    // Entries without a size (a start alone, a /32 of IPv6): fine for the sequential walk,
    // refused under random, on the same spec with only the strategy changed.
    let spec = |allocation_strategy| PoolSpec {
        entries: vec![
            e(Some("192.168.0.30"), None, None),
            e(None, None, Some("2001:db8::/32")),
        ],
        allocation_strategy,
        ..PoolSpec::default()
    };
    let sequential = Pool::new(&spec(AllocationStrategy::Sequential)).expect("sequential");
    assert_eq!(
        sequential.first_free(&IntervalSet::new()),
        Some((a("192.168.0.30"), 0))
    );
    let errs = Pool::new(&spec(AllocationStrategy::Random)).expect_err("random refuses");
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["spec.pools[0]", "spec.pools[1]"]);
    assert!(errs.iter().all(|e| e.refusal == Refusal::Webhook));
}

#[test]
fn random_does_not_repeat_an_entry_that_is_already_refused() {
    // start after end is the webhook's own error; no size error on top (the webhook skips it).
    let errs = random(vec![e(Some("192.168.0.20"), Some("192.168.0.10"), None)])
        .expect_err("start after end");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].field, "spec.pools[0].start");
}

#[test]
fn random_keeps_the_walk_of_sized_entries() {
    let p = random(vec![
        e(Some("192.168.0.10"), Some("192.168.0.20"), None),
        e(None, None, Some("192.168.1.0/30")),
    ])
    .expect("sized entries");
    assert_eq!(p.candidate_count(), 11 + 3);
    assert_eq!(
        p.first_free(&IntervalSet::new()),
        Some((a("192.168.0.10"), 0))
    );
}
