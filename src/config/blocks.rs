//! The block fields of `networks` entries (SPEC §12): a network that says how it hands out
//! blocks (`blockSize`, `blockKind`, `prefix`, `gateway`, `gatewayPolicy`, `dnsServers`,
//! `exclude`) is read here, entry by entry, then checked network by network and resolved into
//! one [`BlockPlan`] per cidr.
//!
//! `blockSize` (its `{ipv4, ipv6}` form), `blockKind` and `gatewayPolicy` belong to the network:
//! given on several of its entries they must agree. `prefix`, `gateway`, `dnsServers` and
//! `exclude` belong to the entry's cidr and are of its address family. Problems are
//! `(path, message)` pairs, the path relative to the config (`networks[1].blockSize`); the
//! decoder places them at `spec.…` or, for a ConfigMap, at `data.networks`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::choice::Choice;
use super::reserve::ReserveRange;
use crate::ipam::{self, Addr, AddrError, Family, IntervalSet, parse_addr};
use crate::names::did_you_mean;

// `networks[].blockKind`: what a pool's block becomes.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    /// One shared segment: the pool gets `start`/`end` of its block with the network's own
    /// prefix, gateway and DNS servers.
    #[default]
    Range,
    /// One routed subnet per pool: the pool gets `subnet: BLOCK`, `prefix: blockSize` and a
    /// gateway by `gatewayPolicy`.
    Subnet,
}

// `networks[].gatewayPolicy`: which address of a subnet block is its gateway.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum GatewayPolicy {
    /// The first usable address of the block.
    #[default]
    First,
    /// The last usable address of the block.
    Last,
    /// No gateway.
    None,
}

impl Choice for BlockKind {
    const ALL: &'static [Self] = &[BlockKind::Range, BlockKind::Subnet];
    fn as_str(self) -> &'static str {
        match self {
            BlockKind::Range => "range",
            BlockKind::Subnet => "subnet",
        }
    }
}

impl Choice for GatewayPolicy {
    const ALL: &'static [Self] = &[
        GatewayPolicy::First,
        GatewayPolicy::Last,
        GatewayPolicy::None,
    ];
    fn as_str(self) -> &'static str {
        match self {
            GatewayPolicy::First => "first",
            GatewayPolicy::Last => "last",
            GatewayPolicy::None => "none",
        }
    }
}

impl fmt::Display for BlockKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for GatewayPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one cidr of a network hands out blocks, every default filled in and every value checked
/// against the cidr: what the block choice reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPlan {
    /// The prefix length of each block (`blockSize`, this cidr's family's value): from the
    /// cidr's own prefix (one block, the whole cidr) to 30 for IPv4 and 126 for IPv6.
    pub size: u8,
    /// `blockKind` of the network (default `range`).
    pub kind: BlockKind,
    /// The prefix written into each pool: for `range`, the config's `prefix` (default the
    /// cidr's prefix; at most the cidr's prefix, so the segment holds the whole cidr); for
    /// `subnet`, `size`.
    pub prefix: u8,
    /// `range`: the network's own gateway (`gateway`), inside the segment (the cidr's network
    /// at `prefix`). `subnet`: always `None` (each block's gateway comes from `gateway_policy`).
    pub gateway: Option<Addr>,
    /// `subnet`: which usable address of each block is its gateway (default `first`).
    /// `range`: always [`GatewayPolicy::None`].
    pub gateway_policy: GatewayPolicy,
    /// `dnsServers` of this entry, in order (of the cidr's family).
    pub dns_servers: Vec<Addr>,
    /// `exclude` of this entry: what no block may meet (of the cidr's family; each range meets
    /// the cidr).
    pub exclude: IntervalSet,
    /// The same ranges one by one, in written order, for messages that say which holds a block.
    pub exclude_ranges: Vec<ReserveRange>,
}

/// The last block prefix of a family: the smallest block with two usable addresses.
pub fn last_block_prefix(family: Family) -> u8 {
    match family {
        Family::V4 => 30,
        Family::V6 => 126,
    }
}

/// The keys of a `networks` entry, in the order the docs list them.
pub(super) const NETWORK_KEYS: [&str; 9] = [
    "name",
    "cidr",
    "blockSize",
    "blockKind",
    "prefix",
    "gateway",
    "gatewayPolicy",
    "dnsServers",
    "exclude",
];

/// The keys that only mean something with `blockSize`.
const BLOCK_KEYS: [&str; 6] = [
    "blockKind",
    "prefix",
    "gateway",
    "gatewayPolicy",
    "dnsServers",
    "exclude",
];

/// `blockSize` as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SizeWritten {
    /// `blockSize: N`: the block prefix of this entry's cidr.
    Prefix(u8),
    /// `blockSize: {ipv4: N, ipv6: M}`: per family, for the network's cidrs of each.
    PerFamily { ipv4: Option<u8>, ipv6: Option<u8> },
}

/// The block fields of one entry, each parsed on its own (not yet checked against the cidr).
#[derive(Debug, Clone, Default)]
struct Fields {
    size: Option<SizeWritten>,
    kind: Option<BlockKind>,
    prefix: Option<u8>,
    gateway: Option<(Addr, String)>,
    gateway_policy: Option<GatewayPolicy>,
    dns_servers: Vec<(Addr, String)>,
    exclude: Vec<(ReserveRange, String)>,
    /// Whether `blockSize` is written (not null), even when it does not parse.
    size_given: bool,
    /// The block keys written (not null), in [`BLOCK_KEYS`] order.
    given: Vec<&'static str>,
}

/// One problem: the path relative to the config (`networks[1].blockSize`) and what is wrong.
pub(super) type Problem = (String, String);

/// A value as JSON text, for messages.
fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| value.to_string())
}

/// The words of a choice with "did you mean", for an unknown value.
fn choice<T: Choice>(at: &str, value: &Value, problems: &mut Vec<Problem>) -> Option<T> {
    let words: Vec<&str> = T::ALL.iter().map(|c| c.as_str()).collect();
    match value.as_str() {
        Some(word) => match T::from_word(word) {
            Some(v) => Some(v),
            None => {
                problems.push((
                    at.to_string(),
                    format!(
                        "{word:?} is not one of {}{}",
                        T::allowed(),
                        did_you_mean(word, &words)
                    ),
                ));
                None
            }
        },
        None => {
            problems.push((
                at.to_string(),
                format!("{} is not one of {}", json_text(value), T::allowed()),
            ));
            None
        }
    }
}

/// A prefix length written as an integer 0 to 128 (the family's bound is checked later).
fn prefix_length(value: &Value) -> Option<u8> {
    value
        .as_u64()
        .filter(|n| *n <= 128)
        .and_then(|n| u8::try_from(n).ok())
}

/// Reads the `networks` list of the typed form (or of a ConfigMap written as a list): the
/// entries that parse, each with its position, and every problem. Block fields are checked
/// network by network and resolved into each entry's [`NetworkCidr::blocks`].
pub(super) fn read_networks(value: &Value, problems: &mut Vec<Problem>) -> Vec<NetworkCidr> {
    let Some(items) = value.as_array() else {
        problems.push((
            "networks".into(),
            format!(
                "must be a list of {{name, cidr}} objects, found {}",
                json_text(value)
            ),
        ));
        return Vec::new();
    };
    let mut entries: Vec<(usize, NetworkCidr, Fields)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("networks[{i}]");
        let Some(object) = item.as_object() else {
            problems.push((
                at,
                format!(
                    "must be an object {{name, cidr}}, found {}",
                    json_text(item)
                ),
            ));
            continue;
        };
        for key in object.keys() {
            if !NETWORK_KEYS.contains(&key.as_str()) {
                problems.push((
                    format!("{at}.{key}"),
                    format!(
                        "unknown field {key:?}{}. The fields of a network are {}",
                        did_you_mean(key, &NETWORK_KEYS),
                        NETWORK_KEYS.join(", ")
                    ),
                ));
            }
        }
        let fields = read_fields(&at, object, problems);
        let text = |key: &str| object.get(key).and_then(Value::as_str);
        match (text("name"), text("cidr")) {
            (Some(name), Some(cidr)) => match NetworkCidr::parse(name, cidr) {
                Ok(n) => entries.push((i, n, fields)),
                Err(e) => problems.push((at, e)),
            },
            _ => problems.push((
                at,
                format!("needs name and cidr as strings, found {}", json_text(item)),
            )),
        }
    }
    resolve_networks(&mut entries, problems);
    entries.into_iter().map(|(_, n, _)| n).collect()
}

/// The block fields of entry `at`, each checked on its own.
fn read_fields(at: &str, object: &Map<String, Value>, problems: &mut Vec<Problem>) -> Fields {
    let mut f = Fields::default();
    let get = |key: &str| object.get(key).filter(|v| !v.is_null());
    if let Some(v) = get("blockSize") {
        f.size_given = true;
        f.size = block_size(&format!("{at}.blockSize"), v, problems);
    }
    for key in BLOCK_KEYS {
        let Some(v) = get(key) else { continue };
        f.given.push(key);
        let path = format!("{at}.{key}");
        match key {
            "blockKind" => f.kind = choice(&path, v, problems),
            "gatewayPolicy" => f.gateway_policy = choice(&path, v, problems),
            "prefix" => match prefix_length(v).filter(|p| *p > 0) {
                Some(p) => f.prefix = Some(p),
                None => problems.push((
                    path,
                    format!(
                        "must be a prefix length (an integer from 1 to 128, e.g. 16), found {}",
                        json_text(v)
                    ),
                )),
            },
            "gateway" => f.gateway = address(&path, v, problems),
            "dnsServers" => {
                f.dns_servers = strings(&path, v, problems)
                    .into_iter()
                    .filter_map(|(p, s)| address(&p, &Value::String(s), problems))
                    .collect();
            }
            _ => {
                // "exclude"
                for (p, s) in strings(&path, v, problems) {
                    match ReserveRange::parse(&s) {
                        Ok(r) => f.exclude.push((r, s)),
                        Err(e) => problems.push((
                            p,
                            format!("exclude entry {s:?} is not an address, range or CIDR: {e}"),
                        )),
                    }
                }
            }
        }
    }
    f
}

/// `blockSize`: `N` or `{ipv4: N, ipv6: M}`.
fn block_size(at: &str, v: &Value, problems: &mut Vec<Problem>) -> Option<SizeWritten> {
    const ALLOWED: &str = "Write an integer (e.g. 26), or {ipv4: N, ipv6: M} for a network with an IPv4 and an IPv6 cidr";
    match v {
        Value::Number(_) => match prefix_length(v) {
            Some(n) => Some(SizeWritten::Prefix(n)),
            None => {
                problems.push((
                    at.to_string(),
                    format!(
                        "must be a prefix length or {{ipv4: N, ipv6: M}}, found {}. {ALLOWED}",
                        json_text(v)
                    ),
                ));
                None
            }
        },
        Value::Object(m) => {
            let mut ok = true;
            for key in m.keys() {
                if key != "ipv4" && key != "ipv6" {
                    ok = false;
                    problems.push((
                        format!("{at}.{key}"),
                        format!(
                            "unknown field {key:?}{}. The block size of a family is ipv4 or ipv6",
                            did_you_mean(key, &["ipv4", "ipv6"])
                        ),
                    ));
                }
            }
            let mut family = |key: &str, max: u8| -> Option<u8> {
                let v = m.get(key).filter(|v| !v.is_null())?;
                match prefix_length(v).filter(|n| *n <= max) {
                    Some(n) => Some(n),
                    None => {
                        ok = false;
                        problems.push((
                            format!("{at}.{key}"),
                            format!(
                                "must be a prefix length (an integer from 0 to {max}), found {}",
                                json_text(v)
                            ),
                        ));
                        None
                    }
                }
            };
            let (ipv4, ipv6) = (family("ipv4", 32), family("ipv6", 128));
            if ok && ipv4.is_none() && ipv6.is_none() {
                problems.push((
                    at.to_string(),
                    "names no family. Write {ipv4: N}, {ipv6: M} or both".to_string(),
                ));
                return None;
            }
            ok.then_some(SizeWritten::PerFamily { ipv4, ipv6 })
        }
        _ => {
            problems.push((
                at.to_string(),
                format!(
                    "must be a prefix length or {{ipv4: N, ipv6: M}}, found {}. {ALLOWED}",
                    json_text(v)
                ),
            ));
            None
        }
    }
}

/// A list of strings, each with its path; items that are not strings are problems.
fn strings(at: &str, v: &Value, problems: &mut Vec<Problem>) -> Vec<(String, String)> {
    let Some(items) = v.as_array() else {
        problems.push((
            at.to_string(),
            format!("must be a list of strings, found {}", json_text(v)),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (j, item) in items.iter().enumerate() {
        let p = format!("{at}[{j}]");
        match item.as_str() {
            Some(s) => out.push((p, s.to_string())),
            None => problems.push((p, format!("must be a string, found {}", json_text(item)))),
        }
    }
    out
}

/// An address, strictly parsed (IPv6 in any valid spelling: it is kept as the address, and
/// written in canonical form).
fn address(at: &str, v: &Value, problems: &mut Vec<Problem>) -> Option<(Addr, String)> {
    let Some(text) = v.as_str() else {
        problems.push((
            at.to_string(),
            format!("must be an IP address (a string), found {}", json_text(v)),
        ));
        return None;
    };
    match parse_addr(text) {
        Ok(p) => Some((p.addr(), text.to_string())),
        Err(e) => {
            problems.push((at.to_string(), e.to_string()));
            None
        }
    }
}

/// Checks the block fields network by network and fills each entry's `blocks`.
fn resolve_networks(entries: &mut [(usize, NetworkCidr, Fields)], problems: &mut Vec<Problem>) {
    // name → positions in `entries`, in order
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, (_, n, _)) in entries.iter().enumerate() {
        by_name.entry(n.name.clone()).or_default().push(k);
    }
    for (name, ks) in &by_name {
        let plans = resolve_network(name, ks, entries, problems);
        for (k, plan) in ks.iter().zip(plans) {
            if let Some((_, n, _)) = entries.get_mut(*k) {
                n.blocks = plan;
            }
        }
    }
}

/// A setting of the network that may be given on several entries: the value and where.
fn agree<T: Copy + PartialEq + fmt::Display>(
    name: &str,
    field: &str,
    given: impl Iterator<Item = (String, T)>,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    let mut first: Option<(String, T)> = None;
    for (at, v) in given {
        match &first {
            None => first = Some((at, v)),
            Some((first_at, w)) if *w != v => problems.push((
                at,
                format!(
                    "network {name} has {field} {w} at {first_at} and {v} here. Give it once, \
                     or the same on every entry of the network"
                ),
            )),
            Some(_) => {}
        }
    }
    first.map(|(_, v)| v)
}

fn family_key(f: Family) -> &'static str {
    match f {
        Family::V4 => "ipv4",
        Family::V6 => "ipv6",
    }
}

/// One network's entries (`ks`, positions in `entries`): its plans, one per entry, `None`
/// everywhere when it gives no blocks or has a problem.
fn resolve_network(
    name: &str,
    ks: &[usize],
    entries: &[(usize, NetworkCidr, Fields)],
    problems: &mut Vec<Problem>,
) -> Vec<Option<BlockPlan>> {
    let none = vec![None; ks.len()];
    let before = problems.len();
    let at = |k: usize| format!("networks[{}]", entries[k].0);
    let sized: Vec<usize> = ks
        .iter()
        .copied()
        .filter(|&k| entries[k].2.size.is_some())
        .collect();
    if sized.is_empty() {
        // A blockSize that did not parse has its own problem; do not add "needs blockSize".
        if ks.iter().any(|&k| entries[k].2.size_given) {
            return none;
        }
        for &k in ks {
            for key in &entries[k].2.given {
                problems.push((
                    format!("{}.{key}", at(k)),
                    format!(
                        "{key} only applies to a network that hands out blocks, and network \
                         {name} has no blockSize. Give it one (e.g. blockSize: 26) or remove {key}"
                    ),
                ));
            }
        }
        return none;
    }
    let kind = agree(
        name,
        "blockKind",
        ks.iter()
            .filter_map(|&k| Some((format!("{}.blockKind", at(k)), entries[k].2.kind?))),
        problems,
    )
    .unwrap_or_default();
    let policy = agree(
        name,
        "gatewayPolicy",
        ks.iter().filter_map(|&k| {
            Some((
                format!("{}.gatewayPolicy", at(k)),
                entries[k].2.gateway_policy?,
            ))
        }),
        problems,
    );
    // One cidr per family.
    let mut by_family: BTreeMap<&str, usize> = BTreeMap::new();
    for &k in ks {
        let n = &entries[k].1;
        let f = n.first.family();
        match by_family.get(family_key(f)) {
            Some(&other) => problems.push((
                at(k),
                format!(
                    "network {name} has two {} cidrs ({} at {} and {} here) and hands out blocks. \
                     A network with blocks has one cidr per address family: give one of them a \
                     name of its own",
                    f.name(),
                    entries[other].1.cidr,
                    at(other),
                    n.cidr
                ),
            )),
            None => {
                by_family.insert(family_key(f), k);
            }
        }
    }
    // A second cidr of a family, or a blockKind that did not parse (its own problem): what
    // follows would only repeat it.
    let kind_unread = ks
        .iter()
        .any(|&k| entries[k].2.given.contains(&"blockKind") && entries[k].2.kind.is_none());
    if problems.len() != before || kind_unread {
        return none;
    }
    // The per-family form needs the family's cidr.
    for &k in &sized {
        if let Some(SizeWritten::PerFamily { ipv4, ipv6 }) = entries[k].2.size {
            for (f, v) in [(Family::V4, ipv4), (Family::V6, ipv6)] {
                if v.is_some() && !by_family.contains_key(family_key(f)) {
                    problems.push((
                        format!("{}.blockSize.{}", at(k), family_key(f)),
                        format!(
                            "network {name} has no {} cidr. List one under the name {name}, \
                             or remove {}",
                            f.name(),
                            family_key(f)
                        ),
                    ));
                }
            }
        }
    }
    let mut plans = Vec::with_capacity(ks.len());
    for &k in ks {
        let (_, n, fields) = &entries[k];
        let family = n.first.family();
        let key = family_key(family);
        // Where this cidr's size is written: its own N, and the family's value of any {ipv4, ipv6}.
        let sources = ks.iter().filter_map(|&j| match entries[j].2.size {
            Some(SizeWritten::Prefix(s)) if j == k => Some((format!("{}.blockSize", at(j)), s)),
            Some(SizeWritten::PerFamily { ipv4, ipv6 }) => {
                let v = if family == Family::V4 { ipv4 } else { ipv6 };
                v.map(|s| (format!("{}.blockSize.{key}", at(j)), s))
            }
            _ => None,
        });
        let sources: Vec<(String, u8)> = sources.collect();
        let size = agree(
            name,
            &format!("blockSize for its {} cidr", family.name()),
            sources.iter().cloned(),
            problems,
        );
        let Some(size) = size else {
            problems.push((
                at(k),
                format!(
                    "network {name} has no block size for its {} cidr {}, though it hands out \
                     blocks (blockSize at {}). Give this entry a blockSize, or write blockSize: \
                     {{ipv4: N, ipv6: M}}",
                    family.name(),
                    n.cidr,
                    at(sized[0])
                ),
            ));
            plans.push(None);
            continue;
        };
        let last = last_block_prefix(family);
        if size < n.prefix || size > last {
            let where_ = sources
                .first()
                .map(|(p, _)| p.clone())
                .unwrap_or_else(|| at(k));
            let allowed = if n.prefix <= last {
                format!(
                    "blockSize {size} is out of range for cidr {}. A block of it is between /{} \
                     (the whole cidr) and /{last} (the smallest with 2 usable addresses)",
                    n.cidr, n.prefix
                )
            } else {
                format!(
                    "blockSize {size} is out of range: cidr {} is smaller than the smallest \
                     block, /{last} (2 usable addresses). Give the network a larger cidr",
                    n.cidr
                )
            };
            problems.push((where_, allowed));
        }
        plans.push(plan(name, &at(k), n, fields, size, kind, policy, problems));
    }
    if problems.len() != before {
        return none;
    }
    plans
}

/// The plan of one entry, its own fields checked against its cidr and the network's kind.
#[allow(clippy::too_many_arguments)]
fn plan(
    name: &str,
    at: &str,
    n: &NetworkCidr,
    fields: &Fields,
    size: u8,
    kind: BlockKind,
    policy: Option<GatewayPolicy>,
    problems: &mut Vec<Problem>,
) -> Option<BlockPlan> {
    let before = problems.len();
    let family = n.first.family();
    let wrong_family = |field: String, what: &str, text: &str, problems: &mut Vec<Problem>| {
        problems.push((
            field,
            format!(
                "{what} {text} is not {} like the cidr {} of this entry. Give each entry of \
                 network {name} the addresses of its own cidr's family",
                family.name(),
                n.cidr
            ),
        ));
    };
    let (prefix, gateway, gateway_policy) = match kind {
        BlockKind::Range => {
            if let Some(p @ (GatewayPolicy::First | GatewayPolicy::Last)) = fields.gateway_policy {
                problems.push((
                    format!("{at}.gatewayPolicy"),
                    format!(
                        "gatewayPolicy {p} is for blockKind subnet, and network {name} hands out \
                         range blocks. Their pools get the network's own gateway: set gateway \
                         instead (gatewayPolicy may only be none here)"
                    ),
                ));
            }
            let prefix = fields.prefix.unwrap_or(n.prefix);
            if prefix > n.prefix {
                problems.push((
                    format!("{at}.prefix"),
                    format!(
                        "prefix {prefix} is longer than the cidr's /{}. Range blocks share one \
                         segment, which must hold the whole cidr: use a prefix from 1 to {}",
                        n.prefix, n.prefix
                    ),
                ));
            }
            let gateway = fields.gateway.as_ref().and_then(|(g, text)| {
                if g.family() != family {
                    wrong_family(format!("{at}.gateway"), "gateway", text, problems);
                    return None;
                }
                let (lo, hi) = (n.first.network(prefix), n.first.broadcast(prefix));
                if *g < lo || *g > hi {
                    problems.push((
                        format!("{at}.gateway"),
                        format!(
                            "gateway {text} is not in the network's segment {lo}/{prefix}. Give \
                             the gateway of the segment the cidr {} is in",
                            n.cidr
                        ),
                    ));
                    return None;
                }
                Some(*g)
            });
            (prefix, gateway, GatewayPolicy::None)
        }
        BlockKind::Subnet => {
            for (key, set) in [
                ("gateway", fields.gateway.is_some()),
                ("prefix", fields.prefix.is_some()),
            ] {
                if set {
                    let why = if key == "gateway" {
                        "Each subnet block's gateway comes from gatewayPolicy (first, last or none)"
                    } else {
                        "A subnet block's prefix is its blockSize"
                    };
                    problems.push((
                        format!("{at}.{key}"),
                        format!(
                            "{key} is for blockKind range, and network {name} hands out subnet \
                             blocks. {why}: remove {key}"
                        ),
                    ));
                }
            }
            (size, None, policy.unwrap_or(GatewayPolicy::First))
        }
    };
    let mut dns_servers = Vec::new();
    for (j, (a, text)) in fields.dns_servers.iter().enumerate() {
        if a.family() == family {
            dns_servers.push(*a);
        } else {
            wrong_family(
                format!("{at}.dnsServers[{j}]"),
                "DNS server",
                text,
                problems,
            );
        }
    }
    let mut exclude = IntervalSet::new();
    let mut exclude_ranges = Vec::new();
    for (j, (r, text)) in fields.exclude.iter().enumerate() {
        let field = format!("{at}.exclude[{j}]");
        if r.first.family() != family {
            wrong_family(field, "exclude entry", text, problems);
        } else if r.last < n.first || r.first > n.last {
            problems.push((
                field,
                format!(
                    "exclude entry {text:?} lies outside the cidr {}, so it excludes nothing. \
                     Fix it or remove it",
                    n.cidr
                ),
            ));
        } else {
            exclude.insert_range(r.first.value(), r.last.value());
            exclude_ranges.push(*r);
        }
    }
    (problems.len() == before).then_some(BlockPlan {
        size,
        kind,
        prefix,
        gateway,
        gateway_policy,
        dns_servers,
        exclude,
        exclude_ranges,
    })
}

/// An entry of `networks`: a name, the inclusive range of addresses its CIDR covers and, when
/// the network hands out blocks (SPEC §12), how this CIDR does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkCidr {
    pub name: String,
    /// The CIDR as written, for messages.
    pub cidr: String,
    pub first: Addr,
    pub last: Addr,
    /// The CIDR's prefix length.
    pub prefix: u8,
    /// The network's blocks from this CIDR: `Some` exactly when the network has a `blockSize`
    /// (every entry of such a network has one, one per address family).
    pub blocks: Option<BlockPlan>,
}

impl NetworkCidr {
    /// Parses one entry; the error says why, without repeating the input.
    pub fn parse(name: &str, cidr: &str) -> Result<NetworkCidr, String> {
        if !crate::names::is_dns1123_label(name) {
            return Err(format!(
                "network name {name:?} is not a DNS-1123 label (lower-case alphanumerics and '-', at most 63)"
            ));
        }
        let cidr = cidr.trim();
        if !cidr.contains('/') {
            return Err(format!(
                "network {name}: cidr {cidr:?} is not a CIDR; write address/prefix, e.g. 172.22.0.0/16"
            ));
        }
        let not_a_cidr = |e: AddrError| format!("network {name}: cidr {cidr:?} is not a CIDR: {e}");
        let (first, last) = ipam::parse_reserve(cidr).map_err(not_a_cidr)?;
        let (_, prefix) = ipam::parse_subnet(cidr).map_err(not_a_cidr)?;
        Ok(NetworkCidr {
            name: name.to_string(),
            cidr: cidr.to_string(),
            first,
            last,
            prefix,
            blocks: None,
        })
    }
}
