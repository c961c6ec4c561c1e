//! Addresses: one `u128` space for both families, strict parsing; canonical text is the
//! standard library's `Display`.
//!
//! IPv4 `a.b.c.d` lives at `::ffff:a.b.c.d` (the IPv4-mapped block). IPv4-mapped IPv6
//! text is rejected by [`parse_addr`], and IPv6 ranges are clipped around that block
//! by [`Family::clip`], so the two families never collide.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use thiserror::Error;

/// First value of the IPv4 block in the shared `u128` space (`::ffff:0.0.0.0`).
pub const V4_BASE: u128 = 0xffff_0000_0000;
/// Last value of the IPv4 block in the shared `u128` space (`::ffff:255.255.255.255`).
pub const V4_LAST: u128 = V4_BASE + 0xffff_ffff;

/// Address family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// IPv4.
    V4,
    /// IPv6.
    V6,
}

impl Family {
    /// The family of an `IpAddr` (IPv4-mapped IPv6 counts as IPv6 here; the parser rejects it).
    pub fn of(ip: IpAddr) -> Family {
        match ip {
            IpAddr::V4(_) => Family::V4,
            IpAddr::V6(_) => Family::V6,
        }
    }

    /// Number of bits in an address of this family (32 or 128).
    pub fn bits(self) -> u8 {
        match self {
            Family::V4 => 32,
            Family::V6 => 128,
        }
    }

    /// "IPv4" or "IPv6", for messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::V4 => "IPv4",
            Family::V6 => "IPv6",
        }
    }

    /// Lowest address of the family.
    pub fn min(self) -> Addr {
        match self {
            Family::V4 => Addr(V4_BASE),
            Family::V6 => Addr(0),
        }
    }

    /// Highest address of the family.
    pub fn max(self) -> Addr {
        match self {
            Family::V4 => Addr(V4_LAST),
            Family::V6 => Addr(u128::MAX),
        }
    }

    /// The parts of the inclusive raw range `[lo, hi]` that belong to this family
    /// (for IPv6: the range minus the IPv4 block), in ascending order.
    pub fn clip(self, lo: u128, hi: u128) -> Vec<(u128, u128)> {
        let mut out = Vec::new();
        if lo > hi {
            return out;
        }
        match self {
            Family::V4 => {
                let (l, h) = (lo.max(V4_BASE), hi.min(V4_LAST));
                if l <= h {
                    out.push((l, h));
                }
            }
            Family::V6 => {
                if lo < V4_BASE {
                    out.push((lo, hi.min(V4_BASE - 1)));
                }
                if hi > V4_LAST {
                    out.push((lo.max(V4_LAST + 1), hi));
                }
            }
        }
        out
    }
}

/// An IPv4 or IPv6 address as a point of the shared `u128` space. `Display` is canonical text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Addr(u128);

impl Addr {
    /// The address at a raw value of the shared space.
    pub const fn from_value(value: u128) -> Addr {
        Addr(value)
    }

    /// The raw value in the shared space.
    pub const fn value(self) -> u128 {
        self.0
    }

    /// Whether this is an IPv4 address.
    pub fn is_v4(self) -> bool {
        (V4_BASE..=V4_LAST).contains(&self.0)
    }

    /// The family of this address.
    pub fn family(self) -> Family {
        if self.is_v4() { Family::V4 } else { Family::V6 }
    }

    /// Back to a standard-library address.
    pub fn ip(self) -> IpAddr {
        if self.is_v4() {
            // The difference is below 2^32 by the check above.
            let low = u32::try_from(self.0 - V4_BASE).unwrap_or(u32::MAX);
            IpAddr::V4(Ipv4Addr::from(low))
        } else {
            IpAddr::V6(Ipv6Addr::from(self.0))
        }
    }

    /// The first address of the `/prefix` network that holds this address
    /// (a prefix longer than the family allows is treated as the full length).
    pub fn network(self, prefix: u8) -> Addr {
        let (base, low, bits) = self.split();
        let p = u32::from(prefix.min(bits));
        let host_bits = u32::from(bits) - p;
        let mask = u128::MAX.checked_shl(host_bits).unwrap_or(0);
        Addr(base | (low & mask))
    }

    /// The last address of the `/prefix` network that holds this address.
    pub fn broadcast(self, prefix: u8) -> Addr {
        let (base, low, bits) = self.split();
        let p = u32::from(prefix.min(bits));
        let host_bits = u32::from(bits) - p;
        let host = if host_bits >= 128 {
            u128::MAX
        } else {
            (1u128 << host_bits) - 1
        };
        Addr(base | (low | host))
    }

    /// (family base, offset inside the family, family bits).
    fn split(self) -> (u128, u128, u8) {
        if self.is_v4() {
            (V4_BASE, self.0 - V4_BASE, 32)
        } else {
            (0, self.0, 128)
        }
    }
}

impl From<IpAddr> for Addr {
    fn from(ip: IpAddr) -> Addr {
        match ip {
            IpAddr::V4(v4) => Addr::from(v4),
            IpAddr::V6(v6) => Addr::from(v6),
        }
    }
}

impl From<Ipv4Addr> for Addr {
    fn from(ip: Ipv4Addr) -> Addr {
        Addr(V4_BASE + u128::from(u32::from(ip)))
    }
}

impl From<Ipv6Addr> for Addr {
    /// Note: an IPv4-mapped IPv6 address lands on the IPv4 address; [`parse_addr`] rejects those.
    fn from(ip: Ipv6Addr) -> Addr {
        Addr(u128::from(ip))
    }
}

/// Canonical text, as the standard library writes it: IPv4 as a dotted quad, IPv6 in lower-case
/// RFC 5952 (IPv4-mapped IPv6 cannot be an `Addr`: it is the IPv4 address).
impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.ip(), f)
    }
}

/// The name the IPAM gives the IPAddress object of address `a` in a pool with `name_prefix`
/// (FACTS §4; ip-address-manager's `formatAddressName`): `{namePrefix}-{address}` with every
/// `.` and `:` written `-`, and the dashes at the end cut off, as Go's `strings.TrimRight`
/// cuts them. The address is the canonical text the IPAM's allocation writes:
/// `10.0.0.10` → `prov-10-0-0-10`, `2001:db8::5` → `prov-2001-db8--5`, `2001:db8::` →
/// `prov-2001-db8`.
pub fn ip_address_name(name_prefix: &str, a: Addr) -> String {
    let name = format!("{name_prefix}-{a}").replace(['.', ':'], "-");
    name.trim_end_matches('-').to_owned()
}

/// Whether an address is IPv4.
pub fn is_v4(ip: IpAddr) -> bool {
    ip.is_ipv4()
}

/// Why a text is not an acceptable address, subnet or range. Messages say what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AddrError {
    /// Empty text.
    #[error("the address is empty")]
    Empty,
    /// Leading or trailing whitespace.
    #[error("address {text:?} has spaces around it; write {trimmed:?}")]
    Whitespace {
        /// The text as given.
        text: String,
        /// The text without the spaces.
        trimmed: String,
    },
    /// IPv4 octet written with a leading zero.
    #[error("IPv4 address {text:?} has a leading zero in an octet{}", suggest(.suggestion))]
    LeadingZero {
        /// The text as given.
        text: String,
        /// The address without the zeros, when the rest is valid.
        suggestion: Option<String>,
    },
    /// IPv4 octet over 255.
    #[error("IPv4 address {text:?} has an octet over 255")]
    OctetRange {
        /// The text as given.
        text: String,
    },
    /// IPv4-mapped IPv6 (`::ffff:0:0/96`).
    #[error(
        "{text:?} is an IPv4-mapped IPv6 address, which Metal3 does not accept; write the IPv4 address {v4}"
    )]
    Mapped {
        /// The text as given.
        text: String,
        /// The IPv4 address it maps.
        v4: String,
    },
    /// IPv6 with a dotted IPv4 tail.
    #[error("IPv6 address {text:?} ends in dotted IPv4 notation, which Metal3 does not accept{}", suggest(.suggestion))]
    EmbeddedV4 {
        /// The text as given.
        text: String,
        /// The same address in hex groups, when it parses.
        suggestion: Option<String>,
    },
    /// IPv6 zone id (`%eth0`).
    #[error(
        "address {text:?} has a zone id (the part after %), which an IP pool cannot hold; remove it"
    )]
    ZoneId {
        /// The text as given.
        text: String,
    },
    /// Anything else that is not an address.
    #[error("{text:?} is not an IPv4 or IPv6 address")]
    Invalid {
        /// The text as given.
        text: String,
    },
    /// A CIDR without `/prefix`.
    #[error("subnet {text:?} has no /prefix; write it as address/prefix, e.g. 192.168.1.0/24")]
    MissingPrefix {
        /// The text as given.
        text: String,
    },
    /// A CIDR whose prefix is not a plain number.
    #[error(
        "subnet {text:?} has an invalid prefix length {prefix:?}; write a number without leading zeros"
    )]
    BadPrefix {
        /// The text as given.
        text: String,
        /// The part after `/`.
        prefix: String,
    },
    /// A CIDR whose prefix is longer than the family allows.
    #[error("subnet {text:?} has prefix length {prefix}, over {max} for {family}")]
    PrefixTooLong {
        /// The text as given.
        text: String,
        /// The prefix given.
        prefix: u32,
        /// 32 or 128.
        max: u8,
        /// "IPv4" or "IPv6".
        family: &'static str,
    },
    /// A range `a-b` with `a` after `b`.
    #[error("range {text:?} starts after it ends; write the lower address first")]
    RangeOrder {
        /// The text as given.
        text: String,
    },
    /// A range `a-b` with one IPv4 and one IPv6 end.
    #[error("range {text:?} mixes IPv4 and IPv6; both ends must be the same family")]
    RangeFamilies {
        /// The text as given.
        text: String,
    },
}

fn suggest(s: &Option<String>) -> String {
    match s {
        Some(s) => format!("; write {s}"),
        None => String::new(),
    }
}

/// A strictly parsed address and whether its text was already canonical.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The address.
    pub ip: IpAddr,
    /// True when the text equals the address's `Display` text, which for IPv6 is lower-case
    /// RFC 5952 (always true for IPv4, which has one accepted spelling).
    pub canonical: bool,
}

impl Parsed {
    /// The address in the shared space.
    pub fn addr(&self) -> Addr {
        Addr::from(self.ip)
    }
}

/// Strictly parse a preallocation / range address.
///
/// IPv4: dotted quad, no leading zeros. IPv6: any valid hex-group form (reported as
/// non-canonical unless it is lower-case RFC 5952); IPv4-mapped IPv6, dotted IPv4 tails,
/// zone ids, surrounding spaces and anything else are errors.
pub fn parse_addr(text: &str) -> Result<Parsed, AddrError> {
    if text.is_empty() {
        return Err(AddrError::Empty);
    }
    let trimmed = text.trim();
    if trimmed != text {
        return Err(if trimmed.is_empty() {
            AddrError::Empty
        } else {
            AddrError::Whitespace {
                text: text.to_owned(),
                trimmed: trimmed.to_owned(),
            }
        });
    }
    if text.contains('%') {
        return Err(AddrError::ZoneId {
            text: text.to_owned(),
        });
    }
    if text.contains(':') {
        return parse_v6(text);
    }
    parse_v4(text).map(|v4| Parsed {
        ip: IpAddr::V4(v4),
        canonical: true,
    })
}

fn parse_v6(text: &str) -> Result<Parsed, AddrError> {
    let parsed = text.parse::<Ipv6Addr>().ok();
    if let Some(v4) = parsed.and_then(|a| a.to_ipv4_mapped()) {
        return Err(AddrError::Mapped {
            text: text.to_owned(),
            v4: v4.to_string(),
        });
    }
    if text.contains('.') {
        return Err(AddrError::EmbeddedV4 {
            text: text.to_owned(),
            suggestion: parsed.map(|a| a.to_string()),
        });
    }
    match parsed {
        Some(a) => Ok(Parsed {
            ip: IpAddr::V6(a),
            canonical: a.to_string() == text,
        }),
        None => Err(AddrError::Invalid {
            text: text.to_owned(),
        }),
    }
}

fn parse_v4(text: &str) -> Result<Ipv4Addr, AddrError> {
    let invalid = || AddrError::Invalid {
        text: text.to_owned(),
    };
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(invalid());
    }
    // Digits only: a failed parse means the number is huge.
    let values: Vec<Option<u8>> = parts.iter().map(|p| p.parse::<u8>().ok()).collect();
    let leading_zero = parts.iter().any(|p| p.len() > 1 && p.starts_with('0'));
    let octets: Option<[u8; 4]> = values
        .iter()
        .copied()
        .collect::<Option<Vec<u8>>>()
        .and_then(|v| <[u8; 4]>::try_from(v).ok());
    if leading_zero {
        return Err(AddrError::LeadingZero {
            text: text.to_owned(),
            suggestion: octets.map(|o| Ipv4Addr::from(o).to_string()),
        });
    }
    match octets {
        Some(o) => Ok(Ipv4Addr::from(o)),
        None => Err(AddrError::OctetRange {
            text: text.to_owned(),
        }),
    }
}

/// Strictly parse a `subnet:` CIDR. Returns the address as written (not masked) and the
/// prefix length. The address follows [`parse_addr`]'s rules; the prefix is a plain
/// number no longer than the family allows.
pub fn parse_subnet(text: &str) -> Result<(IpAddr, u8), AddrError> {
    let Some((addr_text, prefix_text)) = text.split_once('/') else {
        return Err(if text.is_empty() {
            AddrError::Empty
        } else {
            AddrError::MissingPrefix {
                text: text.to_owned(),
            }
        });
    };
    let ip = parse_addr(addr_text)?.ip;
    let bad_prefix = || AddrError::BadPrefix {
        text: text.to_owned(),
        prefix: prefix_text.to_owned(),
    };
    if prefix_text.is_empty()
        || !prefix_text.bytes().all(|b| b.is_ascii_digit())
        || (prefix_text.len() > 1 && prefix_text.starts_with('0'))
    {
        return Err(bad_prefix());
    }
    let family = Family::of(ip);
    let prefix = prefix_text.parse::<u32>().unwrap_or(u32::MAX);
    match u8::try_from(prefix) {
        Ok(p) if p <= family.bits() => Ok((ip, p)),
        _ => Err(AddrError::PrefixTooLong {
            text: text.to_owned(),
            prefix,
            max: family.bits(),
            family: family.name(),
        }),
    }
}

/// Parse a `reserve` config entry into an inclusive range: `"10.0.0.5"`,
/// `"10.0.0.10-10.0.0.20"` (same family, lower first) or `"10.0.1.0/28"` (the whole
/// network, host bits masked). Spaces around the entry and around `-` are allowed.
pub fn parse_reserve(text: &str) -> Result<(Addr, Addr), AddrError> {
    let text = text.trim();
    if text.contains('/') {
        let (ip, prefix) = parse_subnet(text)?;
        let a = Addr::from(ip);
        return Ok((a.network(prefix), a.broadcast(prefix)));
    }
    if let Some((lo, hi)) = text.split_once('-') {
        let lo = parse_addr(lo.trim())?.addr();
        let hi = parse_addr(hi.trim())?.addr();
        if lo.family() != hi.family() {
            return Err(AddrError::RangeFamilies {
                text: text.to_owned(),
            });
        }
        if lo > hi {
            return Err(AddrError::RangeOrder {
                text: text.to_owned(),
            });
        }
        return Ok((lo, hi));
    }
    let a = parse_addr(text)?.addr();
    Ok((a, a))
}
