//! Blocks of a cidr for new clusters' pools: the block arithmetic, the pins decided before the
//! lowest free blocks, the sizes allowed, and properties against a listing of every address and
//! every block on small networks (an IPv4 /24, an IPv6 /120).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::*;

fn v4(s: &str) -> u128 {
    Addr::from(s.parse::<Ipv4Addr>().expect("test IPv4 address")).value()
}

fn v6(s: &str) -> u128 {
    Addr::from(s.parse::<Ipv6Addr>().expect("test IPv6 address")).value()
}

fn addr(s: &str) -> Addr {
    Addr::from(s.parse::<IpAddr>().expect("test address"))
}

/// The blocks of `cidr` (text) in `/block` blocks.
fn space(cidr: &str, block: u8) -> Result<BlockSpace, BlockSpaceError> {
    let (ip, prefix) = parse_subnet(cidr).expect("test cidr");
    BlockSpace::new(Addr::from(ip).value(), prefix, Family::of(ip), block)
}

fn sp(cidr: &str, block: u8) -> BlockSpace {
    space(cidr, block).expect("valid test block space")
}

fn lowest(key: &'static str) -> BlockRequest<&'static str> {
    BlockRequest {
        key,
        ask: BlockAsk::Lowest,
    }
}

fn pin(key: &'static str, index: u128) -> BlockRequest<&'static str> {
    BlockRequest {
        key,
        ask: BlockAsk::Index(index),
    }
}

fn taken(addrs: &[(&str, &str)]) -> IntervalSet {
    addrs
        .iter()
        .map(|(lo, hi)| (addr(lo).value(), addr(hi).value()))
        .collect()
}

/// `(key, first, last)` of each block given, as text.
fn given(choice: &BlockChoice<&'static str>) -> Vec<(&'static str, u128, String, String)> {
    choice
        .given
        .iter()
        .map(|(k, i, (lo, hi))| {
            (
                *k,
                *i,
                Addr::from_value(*lo).to_string(),
                Addr::from_value(*hi).to_string(),
            )
        })
        .collect()
}

// ---- the blocks of a cidr ----

#[test]
fn blocks_of_an_ipv4_cidr() {
    let s = sp("10.0.0.0/24", 26);
    assert_eq!(s.count(), 4);
    assert_eq!(s.block_len(), 64);
    assert_eq!(s.lo(), v4("10.0.0.0"));
    assert_eq!(s.hi(), v4("10.0.0.255"));
    assert_eq!(s.family(), Family::V4);
    assert_eq!((s.cidr_prefix(), s.block_prefix()), (24, 26));
    assert_eq!(s.block(0), Some((v4("10.0.0.0"), v4("10.0.0.63"))));
    assert_eq!(s.block(3), Some((v4("10.0.0.192"), v4("10.0.0.255"))));
    assert_eq!(s.block(4), None);
    assert_eq!(s.block(u128::MAX), None);
    assert_eq!(s.index_of(v4("10.0.0.64")), Some(1));
    assert_eq!(s.index_of(v4("10.0.0.127")), Some(1));
    assert_eq!(s.index_of(v4("10.0.0.255")), Some(3));
    assert_eq!(s.index_of(v4("10.0.1.0")), None);
    assert_eq!(s.index_of(v4("9.255.255.255")), None);
    // One block the size of the cidr.
    let whole = sp("10.0.0.0/24", 24);
    assert_eq!(whole.count(), 1);
    assert_eq!(whole.block(0), Some((v4("10.0.0.0"), v4("10.0.0.255"))));
}

#[test]
fn blocks_of_an_ipv6_cidr() {
    let s = sp("fd00:22::/48", 64);
    assert_eq!(s.count(), 65_536);
    assert_eq!(s.block_len(), 1u128 << 64);
    assert_eq!(
        s.block(0),
        Some((v6("fd00:22::"), v6("fd00:22::ffff:ffff:ffff:ffff")))
    );
    assert_eq!(
        s.block(65_535),
        Some((
            v6("fd00:22:0:ffff::"),
            v6("fd00:22:0:ffff:ffff:ffff:ffff:ffff")
        ))
    );
    assert_eq!(s.block(65_536), None);
    assert_eq!(s.index_of(v6("fd00:22:0:1a::5")), Some(0x1a));
    assert_eq!(s.index_of(v6("fd00:23::")), None);
}

#[test]
fn extremes_do_not_overflow() {
    // Every IPv6 address in /126 blocks: 2^126 blocks, the last one ends at the last value.
    let s = sp("::/0", 126);
    let count = 1u128 << 126;
    assert_eq!(s.count(), count);
    assert_eq!(s.block(count - 1), Some((u128::MAX - 3, u128::MAX)));
    assert_eq!(s.block(count), None);
    assert_eq!(s.index_of(u128::MAX), Some(count - 1));
    assert_eq!(s.index_of(0), Some(0));
    // The whole space one block.
    let one = sp("::/0", 0);
    assert_eq!(one.count(), 1);
    assert_eq!(one.block_len(), u128::MAX);
    assert_eq!(one.block(0), Some((0, u128::MAX)));
    assert_eq!(one.block(1), None);
    assert_eq!(one.index_of(u128::MAX), Some(0));
    // It meets the IPv4-mapped block: never given.
    assert_eq!(free_blocks(&one, &IntervalSet::new()), 0);
    let c = choose_blocks(&one, &IntervalSet::new(), &[lowest("a"), pin("b", 0)]);
    assert!(c.given.is_empty());
    assert_eq!(c.refused[0], ("a", BlockRefusal::NoFreeBlock { free: 0 }));
    let half = sp("::/0", 1);
    let c = choose_blocks(&half, &IntervalSet::new(), &[lowest("a"), lowest("b")]);
    assert_eq!(c.given, vec![("a", 1, (1 << 127, u128::MAX))]);
    let top = sp("8000::/1", 1);
    let c = choose_blocks(
        &top,
        &IntervalSet::new(),
        &[lowest("a"), pin("b", 0), pin("c", 0)],
    );
    assert_eq!(c.given, vec![("b", 0, (1 << 127, u128::MAX))]);
    assert_eq!(
        c.refused,
        vec![
            ("a", BlockRefusal::NoFreeBlock { free: 0 }),
            (
                "c",
                BlockRefusal::IndexTaken {
                    index: 0,
                    by: BlockHolder::Request("b")
                }
            )
        ]
    );
    // Every IPv4 address in /30 blocks.
    let s4 = sp("0.0.0.0/0", 30);
    assert_eq!(s4.count(), 1 << 30);
    assert_eq!(
        s4.block((1 << 30) - 1),
        Some((v4("255.255.255.252"), v4("255.255.255.255")))
    );
    assert_eq!(s4.index_of(V4_LAST), Some((1 << 30) - 1));
    assert_eq!(s4.index_of(V4_LAST + 1), None);
    assert_eq!(s4.index_of(V4_BASE - 1), None);

    // Choosing at the very top: the last block free only, then nothing.
    let t = IntervalSet::from_ranges([(0, u128::MAX - 4)]);
    let c = choose_blocks(&s, &t, &[lowest("a"), lowest("b"), pin("c", count - 1)]);
    assert_eq!(c.given, vec![("c", count - 1, (u128::MAX - 3, u128::MAX))]);
    assert_eq!(
        c.refused,
        vec![
            ("a", BlockRefusal::NoFreeBlock { free: 0 }),
            ("b", BlockRefusal::NoFreeBlock { free: 0 })
        ]
    );
    assert_eq!(free_blocks(&s, &t), 1);
    let c = choose_blocks(&s, &t, &[lowest("a")]);
    assert_eq!(c.given, vec![("a", count - 1, (u128::MAX - 3, u128::MAX))]);
    // Half the space taken: the first block after it.
    let half = IntervalSet::from_ranges([(0, 1u128 << 127)]);
    let c = choose_blocks(&s, &half, &[lowest("a")]);
    let want = (1u128 << 125) + 1;
    assert_eq!(c.given, vec![("a", want, s.block(want).expect("a block"))]);
    assert_eq!(free_blocks(&s, &half), count - want);
    // Everything taken.
    let all = IntervalSet::from_ranges([(0, u128::MAX)]);
    assert_eq!(free_blocks(&s, &all), 0);
    let c = choose_blocks(&s, &all, &[lowest("a"), pin("b", 0)]);
    assert!(c.given.is_empty());
    assert_eq!(
        c.refused,
        vec![
            ("a", BlockRefusal::NoFreeBlock { free: 0 }),
            (
                "b",
                BlockRefusal::IndexTaken {
                    index: 0,
                    by: BlockHolder::Address(Addr::from_value(0))
                }
            ),
        ]
    );
}

#[test]
fn a_cidr_with_host_bits_is_its_network() {
    // The config masks a network's cidr; a caller that passes another address of the cidr gets
    // the same blocks, starting at the network address.
    let at_host = BlockSpace::new(v4("10.0.0.77"), 24, Family::V4, 26).expect("valid");
    assert_eq!(at_host, sp("10.0.0.0/24", 26));
    assert_eq!(at_host.lo(), v4("10.0.0.0"));
    assert_eq!(at_host.block(1), Some((v4("10.0.0.64"), v4("10.0.0.127"))));
    let at_host6 = BlockSpace::new(v6("fd00::1:2:3"), 64, Family::V6, 120).expect("valid");
    assert_eq!(at_host6, sp("fd00::/64", 120));
    assert_eq!(at_host6.block(0), Some((v6("fd00::"), v6("fd00::ff"))));
}

// ---- block sizes ----

#[test]
fn ipv4_block_sizes_from_the_cidr_to_30() {
    assert!(space("172.22.0.0/16", 16).is_ok());
    assert!(space("172.22.0.0/16", 30).is_ok());
    let larger = space("172.22.0.0/16", 15).expect_err("larger than the cidr");
    assert_eq!(
        larger,
        BlockSpaceError::LargerThanCidr {
            block_prefix: 15,
            cidr_prefix: 16,
            max: 30,
            family: Family::V4
        }
    );
    let text = larger.to_string();
    assert!(
        text.contains("blockSize 15 is larger than the cidr"),
        "{text}"
    );
    assert!(text.contains("from 16 to 30"), "{text}");
    for (block, want) in [
        (
            31,
            BlockSpaceError::TooSmall {
                block_prefix: 31,
                cidr_prefix: 16,
                max: 30,
                family: Family::V4,
            },
        ),
        (
            32,
            BlockSpaceError::TooSmall {
                block_prefix: 32,
                cidr_prefix: 16,
                max: 30,
                family: Family::V4,
            },
        ),
        (
            33,
            BlockSpaceError::PastWidth {
                block_prefix: 33,
                cidr_prefix: 16,
                max: 30,
                family: Family::V4,
            },
        ),
        (
            255,
            BlockSpaceError::PastWidth {
                block_prefix: 255,
                cidr_prefix: 16,
                max: 30,
                family: Family::V4,
            },
        ),
    ] {
        let e = space("172.22.0.0/16", block).expect_err("too small");
        assert_eq!(e, want);
        assert!(e.to_string().contains("from 16 to 30"), "{e}");
    }
    let small = space("172.22.0.0/16", 31)
        .expect_err("too small")
        .to_string();
    assert!(
        small.contains("fewer than 2 usable IPv4 addresses"),
        "{small}"
    );
    let past = space("172.22.0.0/16", 33).expect_err("past").to_string();
    assert!(past.contains("over 32 bits"), "{past}");
    // A cidr with room for no block at all.
    for cidr in ["10.0.0.0/31", "10.0.0.0/32"] {
        let e = space(cidr, 30).expect_err("cidr too small");
        assert!(
            matches!(e, BlockSpaceError::CidrTooSmall { max: 30, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("/30 or shorter"), "{e}");
    }
    assert_eq!(sp("10.0.0.0/30", 30).count(), 1);
}

#[test]
fn ipv6_block_sizes_from_the_cidr_to_126() {
    assert!(space("fd00::/32", 32).is_ok());
    assert!(space("fd00::/32", 126).is_ok());
    assert!(space("::/0", 0).is_ok());
    let e = space("fd00::/32", 31).expect_err("larger than the cidr");
    assert!(matches!(
        e,
        BlockSpaceError::LargerThanCidr {
            block_prefix: 31,
            cidr_prefix: 32,
            max: 126,
            family: Family::V6
        }
    ));
    assert!(e.to_string().contains("from 32 to 126 for IPv6"), "{e}");
    for block in [127, 128] {
        let e = space("fd00::/32", block).expect_err("too small");
        assert!(
            matches!(e, BlockSpaceError::TooSmall { max: 126, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("fewer than 2 usable IPv6"), "{e}");
    }
    let e = space("fd00::/32", 129).expect_err("past");
    assert!(matches!(e, BlockSpaceError::PastWidth { .. }), "{e:?}");
    assert!(e.to_string().contains("over 128 bits"), "{e}");
    for cidr in ["fd00::/127", "fd00::/128"] {
        assert!(matches!(
            space(cidr, 126),
            Err(BlockSpaceError::CidrTooSmall { max: 126, .. })
        ));
    }
}

#[test]
fn the_cidr_address_must_be_of_the_family() {
    let e = BlockSpace::new(v4("10.0.0.0"), 120, Family::V6, 126).expect_err("IPv4 as IPv6");
    assert!(matches!(
        e,
        BlockSpaceError::WrongFamily {
            family: Family::V6,
            ..
        }
    ));
    assert!(
        e.to_string().contains("10.0.0.0 is not an IPv6 address"),
        "{e}"
    );
    let e = BlockSpace::new(v6("fd00::"), 24, Family::V4, 26).expect_err("IPv6 as IPv4");
    assert!(
        e.to_string().contains("fd00:: is not an IPv4 address"),
        "{e}"
    );
    // ::ffff:0:0/96 is the IPv4 block of the shared space: not an IPv6 cidr.
    let e = BlockSpace::new(V4_BASE, 96, Family::V6, 120).expect_err("mapped");
    assert!(matches!(e, BlockSpaceError::WrongFamily { .. }), "{e:?}");
    let e = BlockSpace::new(v4("10.1.2.0"), 120, Family::V6, 124).expect_err("mapped");
    assert!(matches!(e, BlockSpaceError::WrongFamily { .. }), "{e:?}");
    // An IPv6 cidr that holds the IPv4-mapped block is an IPv6 cidr, named by any of its values.
    let wide = BlockSpace::new(v4("10.1.2.3"), 64, Family::V6, 96).expect("::/64");
    assert_eq!(wide, sp("::/64", 96));
}

// ---- the choice ----

#[test]
fn the_first_block_when_nothing_is_taken() {
    let s = sp("10.0.0.0/24", 26);
    let c = choose_blocks(&s, &IntervalSet::new(), &[lowest("a"), lowest("b")]);
    assert_eq!(
        given(&c),
        vec![
            ("a", 0, "10.0.0.0".into(), "10.0.0.63".into()),
            ("b", 1, "10.0.0.64".into(), "10.0.0.127".into()),
        ]
    );
    assert!(c.refused.is_empty());
    let s6 = sp("fd00:22::/48", 64);
    let c = choose_blocks(&s6, &IntervalSet::new(), &[lowest("a")]);
    assert_eq!(
        given(&c),
        vec![(
            "a",
            0,
            "fd00:22::".into(),
            "fd00:22::ffff:ffff:ffff:ffff".into()
        )]
    );
}

#[test]
fn a_block_meeting_one_taken_address_is_skipped() {
    let s = sp("10.0.0.0/24", 26);
    for at in ["10.0.0.0", "10.0.0.63", "10.0.0.30"] {
        let c = choose_blocks(&s, &taken(&[(at, at)]), &[lowest("a")]);
        assert_eq!(
            given(&c),
            vec![("a", 1, "10.0.0.64".into(), "10.0.0.127".into())],
            "taken {at}"
        );
        assert_eq!(free_blocks(&s, &taken(&[(at, at)])), 3, "taken {at}");
    }
    // Taken just outside the cidr, and just outside block 0: block 0 is still free.
    let t = taken(&[
        ("9.255.255.255", "9.255.255.255"),
        ("10.0.0.64", "10.0.0.64"),
    ]);
    let c = choose_blocks(&s, &t, &[lowest("a"), lowest("b")]);
    assert_eq!(c.given.iter().map(|g| g.1).collect::<Vec<_>>(), vec![0, 2]);
    // A range over blocks 0 to 2 (ending in block 2's middle): block 3.
    let t = taken(&[("10.0.0.5", "10.0.0.150")]);
    let c = choose_blocks(&s, &t, &[lowest("a"), lowest("b")]);
    assert_eq!(c.given.iter().map(|g| g.1).collect::<Vec<_>>(), vec![3]);
    assert_eq!(
        c.refused,
        vec![("b", BlockRefusal::NoFreeBlock { free: 0 })]
    );

    let s6 = sp("fd00:22::/48", 64);
    for at in [
        "fd00:22::",
        "fd00:22::ffff:ffff:ffff:ffff",
        "fd00:22::8000:0:0:1",
    ] {
        let t = taken(&[(at, at)]);
        let c = choose_blocks(&s6, &t, &[lowest("a")]);
        assert_eq!(
            given(&c),
            vec![(
                "a",
                1,
                "fd00:22:0:1::".into(),
                "fd00:22:0:1:ffff:ffff:ffff:ffff".into()
            )],
            "taken {at}"
        );
        assert_eq!(free_blocks(&s6, &t), 65_535);
    }
}

#[test]
fn pins_get_their_block_exactly_or_a_refusal() {
    let s = sp("10.0.0.0/24", 26);
    let t = taken(&[("10.0.0.70", "10.0.0.70"), ("10.0.0.100", "10.0.0.110")]);
    let c = choose_blocks(
        &s,
        &t,
        &[
            pin("a", 2),
            pin("b", 2),
            pin("c", 1),
            pin("d", 4),
            pin("e", u128::MAX),
            pin("f", 3),
        ],
    );
    assert_eq!(
        given(&c),
        vec![
            ("a", 2, "10.0.0.128".into(), "10.0.0.191".into()),
            ("f", 3, "10.0.0.192".into(), "10.0.0.255".into()),
        ]
    );
    assert_eq!(
        c.refused,
        vec![
            (
                "b",
                BlockRefusal::IndexTaken {
                    index: 2,
                    by: BlockHolder::Request("a")
                }
            ),
            (
                "c",
                BlockRefusal::IndexTaken {
                    index: 1,
                    by: BlockHolder::Address(addr("10.0.0.70"))
                }
            ),
            ("d", BlockRefusal::IndexOutside { index: 4, count: 4 }),
            (
                "e",
                BlockRefusal::IndexOutside {
                    index: u128::MAX,
                    count: 4
                }
            ),
        ]
    );
    // A block's first and last addresses count: taken there, the pin is refused.
    for (at, index) in [
        ("10.0.0.192", 3),
        ("10.0.0.255", 3),
        ("10.0.0.0", 0),
        ("10.0.0.63", 0),
    ] {
        let c = choose_blocks(&s, &taken(&[(at, at)]), &[pin("a", index)]);
        assert_eq!(
            c.refused,
            vec![(
                "a",
                BlockRefusal::IndexTaken {
                    index,
                    by: BlockHolder::Address(addr(at))
                }
            )],
            "taken {at}"
        );
    }
    // The first taken address of the block is the one named.
    let c = choose_blocks(
        &s,
        &taken(&[("10.0.0.60", "10.0.0.70"), ("10.0.0.80", "10.0.0.80")]),
        &[pin("a", 1)],
    );
    assert_eq!(
        c.refused,
        vec![(
            "a",
            BlockRefusal::IndexTaken {
                index: 1,
                by: BlockHolder::Address(addr("10.0.0.64"))
            }
        )]
    );
    // A refused pin holds nothing: the next pin of a taken index is refused by the address too.
    let c = choose_blocks(&s, &t, &[pin("a", 1), pin("b", 1)]);
    assert!(c.given.is_empty());
    assert!(c.refused.iter().all(|(_, r)| matches!(
        r,
        BlockRefusal::IndexTaken {
            by: BlockHolder::Address(_),
            ..
        }
    )));
}

#[test]
fn pins_are_decided_before_the_lowest_even_when_asked_later() {
    let s = sp("10.0.0.0/24", 26);
    let c = choose_blocks(
        &s,
        &IntervalSet::new(),
        &[lowest("a"), pin("b", 0), lowest("c"), pin("d", 2)],
    );
    // Request order in the lists; b and d were decided first.
    assert_eq!(
        c.given.iter().map(|(k, i, _)| (*k, *i)).collect::<Vec<_>>(),
        vec![("a", 1), ("b", 0), ("c", 3), ("d", 2)]
    );
    // A pin after a lowest that would have taken its block still gets it.
    let c = choose_blocks(
        &s,
        &IntervalSet::new(),
        &[lowest("a"), pin("b", 1), pin("c", 0)],
    );
    assert_eq!(
        c.given.iter().map(|(k, i, _)| (*k, *i)).collect::<Vec<_>>(),
        vec![("a", 2), ("b", 1), ("c", 0)]
    );
}

#[test]
fn no_free_block_and_the_free_count() {
    let s = sp("10.0.0.0/24", 26);
    let t = taken(&[("10.0.0.100", "10.0.0.100")]);
    assert_eq!(free_blocks(&s, &t), 3);
    assert_eq!(free_blocks(&s, &IntervalSet::new()), 4);
    let c = choose_blocks(
        &s,
        &t,
        &[
            lowest("a"),
            lowest("b"),
            lowest("c"),
            lowest("d"),
            lowest("e"),
        ],
    );
    assert_eq!(
        c.given.iter().map(|(k, i, _)| (*k, *i)).collect::<Vec<_>>(),
        vec![("a", 0), ("b", 2), ("c", 3)]
    );
    assert_eq!(
        c.refused,
        vec![
            ("d", BlockRefusal::NoFreeBlock { free: 0 }),
            ("e", BlockRefusal::NoFreeBlock { free: 0 }),
        ]
    );
    // Taken outside the cidr counts for nothing; a range over two blocks counts two.
    let t = taken(&[("10.0.1.0", "10.0.1.255"), ("10.0.0.60", "10.0.0.70")]);
    assert_eq!(free_blocks(&s, &t), 2);
}

#[test]
fn ipv6_blocks_never_meet_the_ipv4_mapped_addresses() {
    // ::/64 holds ::ffff:0:0/96, the IPv4 block of the shared space: as /96 blocks, index 0xffff.
    let s = sp("::/64", 96);
    assert_eq!(s.block(0xffff), Some((V4_BASE, V4_LAST)));
    assert_eq!(free_blocks(&s, &IntervalSet::new()), (1 << 32) - 1);
    let c = choose_blocks(
        &s,
        &IntervalSet::new(),
        &[pin("a", 0xffff), pin("b", 0xfffe)],
    );
    assert_eq!(
        c.given.iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![0xfffe]
    );
    assert_eq!(
        c.refused,
        vec![(
            "a",
            BlockRefusal::IndexTaken {
                index: 0xffff,
                by: BlockHolder::Ipv4Mapped
            }
        )]
    );
    let below = IntervalSet::from_ranges([(0, V4_BASE - 1)]);
    let c = choose_blocks(&s, &below, &[lowest("a")]);
    assert_eq!(
        c.given.iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![0x1_0000]
    );
    // A /64 block holding it: block 0 of ::/48 is never given.
    let s48 = sp("::/48", 64);
    let c = choose_blocks(&s48, &IntervalSet::new(), &[lowest("a")]);
    assert_eq!(c.given.iter().map(|g| g.1).collect::<Vec<_>>(), vec![1]);
    assert_eq!(free_blocks(&s48, &IntervalSet::new()), 65_535);
    // IPv4 blocks are the IPv4 block itself.
    let s4 = sp("0.0.0.0/0", 1);
    let c = choose_blocks(&s4, &IntervalSet::new(), &[lowest("a")]);
    assert_eq!(c.given, vec![("a", 0, (V4_BASE, V4_BASE + 0x7fff_ffff))]);
}

#[test]
fn a_slash_32_in_slash_64_blocks_with_10000_taken_ranges() {
    // Block 2k (k < 10,000) holds one short range somewhere inside it; blocks 1000 to 1500 are
    // covered whole by one more. So the free blocks are the odd ones outside 1000..=1500, then
    // everything from 20,000 on: a listing of 4 billion blocks would never finish.
    let s = sp("fd00::/32", 64);
    let len = s.block_len();
    let mut ranges = Vec::new();
    let mut seed: u128 = 0x9e37_79b9_7f4a_7c15;
    for k in 0..10_000u128 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let (lo, _) = s.block(2 * k).expect("a block");
        let at = (seed >> 64) % (len - 100);
        ranges.push((lo + at, lo + at + (seed % 100)));
    }
    let (from, _) = s.block(1000).expect("a block");
    let (_, to) = s.block(1500).expect("a block");
    ranges.push((from, to));
    let t = IntervalSet::from_ranges(ranges);
    assert_eq!(t.range_count(), 10_000 - 250);

    let requests: Vec<BlockRequest<usize>> = (0..1000)
        .map(|key| BlockRequest {
            key,
            ask: BlockAsk::Lowest,
        })
        .collect();
    let c = choose_blocks(&s, &t, &requests);
    assert!(c.refused.is_empty());
    let want: Vec<u128> = (0u128..)
        .filter(|i| (i % 2 == 1 || *i >= 20_000) && !(1000..=1500).contains(i))
        .take(1000)
        .collect();
    assert_eq!(c.given.iter().map(|g| g.1).collect::<Vec<_>>(), want);
    for (key, (k, i, range)) in c.given.iter().enumerate() {
        assert_eq!(*k, key);
        assert_eq!(Some(*range), s.block(*i));
    }
    assert_eq!(free_blocks(&s, &t), (1u128 << 32) - 10_000 - 250);
}

// ---- properties against a listing ----

/// A small cidr to list: its first value, prefix and family.
fn small_cidrs() -> Vec<(u128, u8, Family)> {
    vec![
        (v4("10.0.0.0"), 24, Family::V4),
        (v4("255.255.255.0"), 24, Family::V4),
        (v4("0.0.0.0"), 24, Family::V4),
        (v6("2001:db8::"), 120, Family::V6),
        (v6("::"), 120, Family::V6),
        (
            v6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00"),
            120,
            Family::V6,
        ),
    ]
}

/// The reference: every address and every block listed one by one.
struct Listing {
    lo: u128,
    len: u128,
    count: u128,
    /// The raw taken ranges, as generated.
    taken: Vec<(u128, u128)>,
}

impl Listing {
    fn is_taken(&self, a: u128) -> bool {
        self.taken.iter().any(|(l, h)| *l <= a && a <= *h)
    }

    fn addrs(&self, i: u128) -> impl Iterator<Item = u128> {
        let first = self.lo + i * self.len;
        first..=first + (self.len - 1)
    }

    fn first_taken(&self, i: u128) -> Option<u128> {
        self.addrs(i).find(|a| self.is_taken(*a))
    }

    /// No address of block `i` is taken or in a block given (listed address by address).
    fn free(&self, i: u128, given: &[u128]) -> bool {
        self.addrs(i)
            .all(|a| !self.is_taken(a) && !given.iter().any(|g| self.addrs(*g).any(|b| b == a)))
    }

    /// The choice, decided request by request over the listing.
    fn choose(&self, requests: &[BlockRequest<usize>]) -> BlockChoice<usize> {
        let mut given_idx: Vec<u128> = Vec::new();
        let mut holder: Vec<(u128, usize)> = Vec::new();
        let mut out: Vec<Option<Result<u128, BlockRefusal<usize>>>> = vec![None; requests.len()];
        for (at, r) in requests.iter().enumerate() {
            if let BlockAsk::Index(i) = r.ask {
                out[at] = Some(if i >= self.count {
                    Err(BlockRefusal::IndexOutside {
                        index: i,
                        count: self.count,
                    })
                } else if let Some((_, k)) = holder.iter().find(|(h, _)| *h == i) {
                    Err(BlockRefusal::IndexTaken {
                        index: i,
                        by: BlockHolder::Request(*k),
                    })
                } else if let Some(a) = self.first_taken(i) {
                    Err(BlockRefusal::IndexTaken {
                        index: i,
                        by: BlockHolder::Address(Addr::from_value(a)),
                    })
                } else {
                    given_idx.push(i);
                    holder.push((i, r.key));
                    Ok(i)
                });
            }
        }
        for (at, r) in requests.iter().enumerate() {
            if r.ask == BlockAsk::Lowest {
                let found = (0..self.count).find(|i| self.free(*i, &given_idx));
                out[at] = Some(match found {
                    Some(i) => {
                        given_idx.push(i);
                        Ok(i)
                    }
                    None => Err(BlockRefusal::NoFreeBlock { free: 0 }),
                });
            }
        }
        let mut c = BlockChoice {
            given: Vec::new(),
            refused: Vec::new(),
        };
        for (r, o) in requests.iter().zip(out) {
            match o.expect("every request decided") {
                Ok(i) => {
                    let first = self.lo + i * self.len;
                    c.given.push((r.key, i, (first, first + (self.len - 1))));
                }
                Err(e) => c.refused.push((r.key, e)),
            }
        }
        c
    }
}

/// One generated case: a cidr, a block prefix, the raw taken ranges and the requests.
type Case = (
    (u128, u8, Family),
    u8,
    Vec<(u128, u128)>,
    Vec<BlockRequest<usize>>,
);

/// A small cidr, a block prefix from the cidr's to the longest, taken ranges in and around the
/// cidr (offsets from 8 before it to 8 after it), and requests: a lowest, or a pin of an index
/// up to a little past the last block (sometimes a huge one).
fn case() -> impl Strategy<Value = Case> {
    (
        proptest::sample::select(small_cidrs()),
        0u8..=6,
        proptest::collection::vec((0u128..272, 0u128..48), 0..10),
        proptest::collection::vec(
            prop_oneof![
                3 => Just(None),
                2 => (0u128..70).prop_map(Some),
                1 => Just(Some(u128::MAX)),
            ],
            0..14,
        ),
    )
        .prop_map(|(cidr, extra, raw, asks)| {
            let block = cidr.1 + extra;
            let start = cidr.0.saturating_sub(8);
            let taken = raw
                .into_iter()
                .map(|(off, n)| {
                    let lo = start.saturating_add(off);
                    (lo, lo.saturating_add(n))
                })
                .collect();
            let requests = asks
                .into_iter()
                .enumerate()
                .map(|(key, a)| BlockRequest {
                    key,
                    ask: a.map_or(BlockAsk::Lowest, BlockAsk::Index),
                })
                .collect();
            (cidr, block, taken, requests)
        })
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    /// The choice is the listing's, request by request: each lowest request gets exactly the
    /// lowest free block at its turn, each pin its block or the refusal the listing finds; every
    /// block given is aligned, inside the cidr, and meets nothing taken and no other block given.
    #[test]
    fn the_choice_is_the_listings(((lo, prefix, family), block, raw, requests) in case()) {
        let s = BlockSpace::new(lo, prefix, family, block).expect("valid case");
        let listing = Listing {
            lo,
            len: s.block_len(),
            count: s.count(),
            taken: raw.clone(),
        };
        prop_assert_eq!(listing.count, 1u128 << (block - prefix));
        let t = IntervalSet::from_ranges(raw.clone());
        let c = choose_blocks(&s, &t, &requests);
        prop_assert_eq!(&c, &listing.choose(&requests));

        prop_assert_eq!(c.given.len() + c.refused.len(), requests.len());
        for (n, (_, i, (first, last))) in c.given.iter().enumerate() {
            prop_assert_eq!((first - lo) % listing.len, 0);
            prop_assert_eq!(last - first + 1, listing.len);
            prop_assert!(lo <= *first && *last <= s.hi());
            prop_assert_eq!(s.index_of(*first), Some(*i));
            prop_assert!((*first..=*last).all(|a| !listing.is_taken(a)));
            for (_, j, (f2, l2)) in &c.given[n + 1..] {
                prop_assert!(i != j && (l2 < first || last < f2));
            }
        }
    }

    /// `free_blocks` counts the blocks that the listing finds free of every taken address.
    #[test]
    fn free_blocks_is_the_listings_count(((lo, prefix, family), block, raw, _r) in case()) {
        let s = BlockSpace::new(lo, prefix, family, block).expect("valid case");
        let listing = Listing { lo, len: s.block_len(), count: s.count(), taken: raw.clone() };
        let want = (0..listing.count).filter(|i| listing.first_taken(*i).is_none()).count();
        let t = IntervalSet::from_ranges(raw);
        prop_assert_eq!(free_blocks(&s, &t), want as u128);
    }

    /// Choosing again gives the same answer; and pinning each request to the block it was
    /// given (as a render written back, or a `block-index` set from it) keeps every block and
    /// every refusal: a second run changes nothing.
    #[test]
    fn a_second_run_changes_nothing(((lo, prefix, family), block, raw, requests) in case()) {
        let s = BlockSpace::new(lo, prefix, family, block).expect("valid case");
        let t = IntervalSet::from_ranges(raw);
        let c = choose_blocks(&s, &t, &requests);
        prop_assert_eq!(&choose_blocks(&s, &t, &requests), &c);
        let pinned: Vec<BlockRequest<usize>> = requests
            .iter()
            .map(|r| BlockRequest {
                key: r.key,
                ask: c
                    .given
                    .iter()
                    .find(|(k, _, _)| *k == r.key)
                    .map_or(r.ask, |(_, i, _)| BlockAsk::Index(*i)),
            })
            .collect();
        let again = choose_blocks(&s, &t, &pinned);
        prop_assert_eq!(&again.given, &c.given);
        prop_assert_eq!(
            again.refused.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            c.refused.iter().map(|(k, _)| *k).collect::<Vec<_>>()
        );
    }

    /// The block arithmetic at any size, both families: block `i` is aligned, holds
    /// `block_len` values, and `index_of` finds `i` at both its ends.
    #[test]
    fn blocks_and_indexes_agree(
        v6 in any::<bool>(),
        addr in any::<u128>(),
        cidr in 0u8..=126,
        extra in 0u8..=126,
        pick in any::<u128>(),
    ) {
        let family = if v6 { Family::V6 } else { Family::V4 };
        let max = BlockSpace::max_block_prefix(family);
        let cidr = cidr % (max + 1);
        let block = cidr + extra % (max - cidr + 1);
        let value = if v6 {
            // Off the IPv4-mapped block.
            if Addr::from_value(addr).is_v4() { addr ^ (1 << 127) } else { addr }
        } else {
            V4_BASE + (addr & 0xffff_ffff)
        };
        let s = BlockSpace::new(value, cidr, family, block).expect("valid sizes");
        let i = pick % s.count();
        let (first, last) = s.block(i).expect("inside");
        prop_assert_eq!((first - s.lo()) % s.block_len(), 0);
        if s.block_len() == u128::MAX {
            // an IPv6 /0 block: 2^128 values, whose length stops at u128::MAX
            prop_assert_eq!((first, last), (0, u128::MAX));
        } else {
            prop_assert_eq!(last - first, s.block_len() - 1);
        }
        prop_assert_eq!(s.index_of(first), Some(i));
        prop_assert_eq!(s.index_of(last), Some(i));
        prop_assert!(s.lo() <= first && last <= s.hi());
        prop_assert!(s.index_of(value).is_some());
        prop_assert_eq!(s.block(s.count()), None);
    }
}

/// The largest block there is: an IPv6 /0 cidr in one /0 block, whose length stops at
/// `u128::MAX` (found by `blocks_and_indexes_agree`).
#[test]
fn a_whole_ipv6_space_in_one_block_is_block_zero() {
    let s = BlockSpace::new(0, 0, Family::V6, 0).expect("a /0 block of ::/0");
    assert_eq!(s.count(), 1);
    assert_eq!(s.block(0), Some((0, u128::MAX)));
    assert_eq!(s.index_of(u128::MAX), Some(0));
    assert_eq!(s.block(1), None);
}
