//! The IPPool description handed in by the caller, and its validation into parsed entries.

use thiserror::Error;

use super::addr::{Addr, AddrError, Family, parse_addr, parse_subnet};
use super::size::{AllocationStrategy, RANDOM_SIZE_LIMIT, SizeError, inclusive};

/// An IPPool `spec` as far as addresses go, filled by the caller from YAML.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolSpec {
    /// `spec.pools[]`, in order.
    pub entries: Vec<EntrySpec>,
    /// `spec.prefix` (`None` or `Some(0)` = unset).
    pub prefix: Option<u8>,
    /// `spec.gateway`.
    pub gateway: Option<String>,
    /// `spec.dnsServers`.
    pub dns_servers: Vec<String>,
    /// `spec.allocationStrategy` (absent = `sequential`).
    pub allocation_strategy: AllocationStrategy,
}

/// One `spec.pools[]` entry, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntrySpec {
    /// `start`.
    pub start: Option<String>,
    /// `end`.
    pub end: Option<String>,
    /// `subnet` (CIDR).
    pub subnet: Option<String>,
    /// `prefix` (`None` or `Some(0)` = unset).
    pub prefix: Option<u8>,
    /// `gateway`.
    pub gateway: Option<String>,
    /// `dnsServers`.
    pub dns_servers: Vec<String>,
}

/// A reason ipreuse refuses a pool, with the field it is about.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct PoolError {
    /// Field path in kpt dotted form relative to the IPPool, e.g. `spec.pools[2].start`.
    pub field: String,
    /// What is wrong, in words a person can act on.
    pub message: String,
    /// Who else refuses it: the IPAM webhook, or nobody before the IPAM allocates.
    pub refusal: Refusal,
}

/// Whether the IPAM webhook rejects the pool too, or lets it through although the IPAM cannot
/// allocate usable addresses from it (messages must say which).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The IPAM webhook (or the CRD's schema) rejects the pool when it is applied.
    Webhook,
    /// The webhook accepts the pool (v1.14 checks neither families nor an IPv4 prefix over 32),
    /// but what the IPAM would hand out from it is unusable or not what was meant.
    Unusable,
}

/// A CIDR as written in a `subnet:` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subnet {
    /// The address as written (host bits kept: the walk starts after it).
    pub written: Addr,
    /// Prefix length.
    pub prefix: u8,
}

impl Subnet {
    /// The network (first) address.
    pub fn network(&self) -> Addr {
        self.written.network(self.prefix)
    }

    /// The last address.
    pub fn last(&self) -> Addr {
        self.written.broadcast(self.prefix)
    }

    /// Whether `a` is in the subnet (same family, between network and last).
    pub fn contains(&self, a: Addr) -> bool {
        a.family() == self.written.family() && self.network() <= a && a <= self.last()
    }
}

/// A validated `spec.pools[]` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `start`.
    pub start: Option<Addr>,
    /// `end`.
    pub end: Option<Addr>,
    /// `subnet`.
    pub subnet: Option<Subnet>,
    /// `prefix`, 0 = unset.
    pub prefix: u8,
    /// `gateway`.
    pub gateway: Option<Addr>,
    /// `dnsServers`.
    pub dns_servers: Vec<Addr>,
    /// The one family of start, end, subnet and gateway.
    pub family: Family,
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

/// What the pool-level fields hold after validation.
pub(crate) struct Validated {
    pub entries: Vec<Entry>,
    pub prefix: u8,
    pub gateway: Option<Addr>,
    pub dns_servers: Vec<Addr>,
}

fn err(field: String, message: impl Into<String>) -> PoolError {
    PoolError {
        field,
        message: message.into(),
        refusal: Refusal::Webhook,
    }
}

/// A refusal of ipreuse's own: the webhook lets it through.
fn unusable(field: String, message: impl Into<String>) -> PoolError {
    PoolError {
        refusal: Refusal::Unusable,
        ..err(field, message)
    }
}

/// The v1.14 webhook's rule for `allocationStrategy: random`: every entry must have a size the
/// strategy can index (FACTS §4).
fn random_size_error(path: String, e: SizeError) -> PoolError {
    let fix = match e {
        SizeError::Unbounded => "give it an end or a subnet",
        SizeError::NoStart => "give it a start or a subnet",
        SizeError::StartAfterSubnet { .. } => "move start into the subnet",
        SizeError::TooLarge(_) => "use a smaller range, or an IPv6 subnet of /65 or longer",
    };
    err(
        path,
        format!(
            "allocationStrategy random needs the size of every entry: {fix}, or use \
             allocationStrategy sequential. {}",
            crate::names::capitalised(&e.to_string())
        ),
    )
}

fn with_addr(field: &str, e: AddrError, errors: &mut Vec<PoolError>) {
    errors.push(err(field.to_owned(), e.to_string()));
}

fn addr_field(field: &str, text: Option<&String>, errors: &mut Vec<PoolError>) -> Option<Addr> {
    let text = text?;
    match parse_addr(text) {
        Ok(p) => Some(p.addr()),
        Err(e) => {
            with_addr(field, e, errors);
            None
        }
    }
}

fn addr_list(field: &str, texts: &[String], errors: &mut Vec<PoolError>) -> Vec<Addr> {
    texts
        .iter()
        .enumerate()
        .filter_map(|(i, t)| addr_field(&format!("{field}[{i}]"), Some(t), errors))
        .collect()
}

/// Validate what the IPAM webhook checks, collecting every error.
pub(crate) fn validate(spec: &PoolSpec) -> Result<Validated, Vec<PoolError>> {
    let mut errors = Vec::new();
    let gateway = addr_field("spec.gateway", spec.gateway.as_ref(), &mut errors);
    let dns_servers = addr_list("spec.dnsServers", &spec.dns_servers, &mut errors);
    let prefix = spec.prefix.unwrap_or(0);
    if prefix > 128 {
        errors.push(err(
            "spec.prefix".into(),
            format!("prefix {prefix} is over 128, the longest prefix there is"),
        ));
    }
    let mut entries = Vec::new();
    let mut v4_without_prefix = Vec::new();
    for (i, e) in spec.entries.iter().enumerate() {
        if let Some(entry) = validate_entry(i, e, &mut errors) {
            if spec.allocation_strategy == AllocationStrategy::Random
                && let Err(size) = entry.random_size()
            {
                errors.push(random_size_error(format!("spec.pools[{i}]"), size));
            }
            if entry.family == Family::V4 && entry.prefix == 0 {
                v4_without_prefix.push(format!("spec.pools[{i}]"));
            }
            entries.push(entry);
        }
    }
    if prefix > 32 && prefix <= 128 && !v4_without_prefix.is_empty() {
        errors.push(unusable(
            "spec.prefix".into(),
            format!(
                "prefix {prefix} is over 32 and applies to IPv4 entries: set a prefix of at most 32 here or on them. It applies to those without their own prefix ({})",
                v4_without_prefix.join(", ")
            ),
        ));
    }
    if errors.is_empty() {
        Ok(Validated {
            entries,
            prefix,
            gateway,
            dns_servers,
        })
    } else {
        Err(errors)
    }
}

fn validate_entry(i: usize, e: &EntrySpec, errors: &mut Vec<PoolError>) -> Option<Entry> {
    let path = format!("spec.pools[{i}]");
    let before = errors.len();
    let start = addr_field(&format!("{path}.start"), e.start.as_ref(), errors);
    let end = addr_field(&format!("{path}.end"), e.end.as_ref(), errors);
    let subnet = e.subnet.as_ref().and_then(|t| match parse_subnet(t) {
        Ok((ip, prefix)) => Some(Subnet {
            written: Addr::from(ip),
            prefix,
        }),
        Err(x) => {
            with_addr(&format!("{path}.subnet"), x, errors);
            None
        }
    });
    let gateway = addr_field(&format!("{path}.gateway"), e.gateway.as_ref(), errors);
    let dns_servers = addr_list(&format!("{path}.dnsServers"), &e.dns_servers, errors);
    if e.start.is_none() && e.end.is_none() && e.subnet.is_none() {
        errors.push(err(
            path.clone(),
            "the entry has none of start, end and subnet; give it a start (and end) or a subnet",
        ));
    }
    // One family for start, end, subnet and gateway.
    let parts: Vec<(&str, Addr, &String)> = [
        ("start", start, e.start.as_ref()),
        ("end", end, e.end.as_ref()),
        ("subnet", subnet.map(|s| s.written), e.subnet.as_ref()),
        ("gateway", gateway, e.gateway.as_ref()),
    ]
    .into_iter()
    .filter_map(|(name, a, t)| Some((name, a?, t?)))
    .collect();
    let family = parts.first().map(|(_, a, _)| a.family());
    if let Some((first_name, first_addr, first_text)) = parts.first() {
        for (name, a, text) in parts.iter().skip(1) {
            if a.family() != first_addr.family() {
                errors.push(unusable(
                    format!("{path}.{name}"),
                    format!(
                        "{name} {text} is {} but {first_name} {first_text} is {}: write every address of one entry in one family",
                        a.family().name(),
                        first_addr.family().name()
                    ),
                ));
            }
        }
    }
    if let (Some(s), Some(en)) = (start, end)
        && s.family() == en.family()
        && s > en
    {
        errors.push(err(
            format!("{path}.start"),
            format!("start {s} is after end {en}; the IPAM rejects the pool"),
        ));
    }
    let prefix = e.prefix.unwrap_or(0);
    if prefix > 128 {
        errors.push(err(
            format!("{path}.prefix"),
            format!("prefix {prefix} is over 128, the longest prefix there is"),
        ));
    } else if prefix > 32 && family == Some(Family::V4) {
        errors.push(unusable(
            format!("{path}.prefix"),
            format!("prefix {prefix} is over 32 for an IPv4 entry"),
        ));
    }
    if errors.len() != before {
        return None;
    }
    Some(Entry {
        start,
        end,
        subnet,
        prefix,
        gateway,
        dns_servers,
        family: family?,
    })
}
