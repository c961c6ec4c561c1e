//! `ipreuse plan --format html`: the address map, one self-contained page (inline CSS and SVG,
//! no script, nothing fetched from anywhere). Per network and namespace, each pool drawn as its
//! addresses, coloured by state: a grid of cells for a pool of at most [`GRID_MAX`] addresses,
//! one cell per address with the host's name on it; a scaled bar with counts for a larger one
//! (a /16, a /64), each of its columns a run of addresses. The warnings beside the pool they are
//! about, the pools of other clusters whose ranges meet it marked, the network's blocks.
//!
//! The page holds what `--format json` holds: every row is a `<tr class="row">` whose `data-*`
//! attributes are the row's fields, and each pool's counts are `data-*` attributes of its
//! `<article class="pool">` (tests/it/plan_html.rs reads them back from the DOM Chromium
//! renders). The facts are the library's ([`PoolMap`]); this only draws them. Every text is
//! escaped ([`esc`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ipreuse::ipam::{self, Addr, IntervalSet};
use ipreuse::results::{Finding, Severity};
use ipreuse::transform::preallocations::allocate::{PoolMap, Reserved, Row, Status};
use ipreuse::transform::preallocations::blocks::{BlockRow, BlockStatus};

/// The largest pool drawn as a grid of cells (a /24); larger ones are a scaled bar.
pub const GRID_MAX: u128 = 256;
/// The columns of a pool's bar.
const BAR_COLUMNS: u128 = 400;
/// A pool's hosts table is folded (`<details>`) above this many rows.
const OPEN_HOSTS: usize = 40;

/// The statuses of the rows, in the legend's order.
const STATUSES: [Status; 4] = [Status::Kept, Status::New, Status::Pinned, Status::Live];

/// What one page shows: the plan's rows and blocks (already filtered), the pools drawn, the
/// networks of the config (name, cidr), the run's warnings and errors, and what was read.
pub struct Page<'a> {
    pub source: &'a str,
    pub rows: &'a [&'a Row],
    pub blocks: &'a [&'a BlockRow],
    pub pools: &'a [&'a PoolMap],
    pub networks: &'a [(String, String)],
    pub findings: &'a [Finding],
    /// `--pool NAME`: only that pool's sections (and results).
    pub only_pool: Option<&'a str>,
}

/// Text for HTML, in element content and in double-quoted attribute values alike.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A count with thin spaces between groups of three digits (`1 048 577`).
pub fn num(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// How a pool is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawn {
    /// One cell per address.
    Grid,
    /// A scaled bar of [`BAR_COLUMNS`] columns at most.
    Bar,
}

impl Drawn {
    pub fn of(size: u128) -> Drawn {
        if size <= GRID_MAX {
            Drawn::Grid
        } else {
            Drawn::Bar
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Drawn::Grid => "grid",
            Drawn::Bar => "bar",
        }
    }
}

/// What one address is, as the page colours it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Row(Status),
    Reserved(Reserved),
    Taken,
    Free,
}

impl State {
    fn class(self) -> &'static str {
        match self {
            State::Row(Status::Kept) => "s-kept",
            State::Row(Status::New) => "s-new",
            State::Row(Status::Pinned) => "s-pinned",
            State::Row(Status::Live) => "s-live",
            State::Reserved(_) => "s-reserved",
            State::Taken => "s-taken",
            State::Free => "s-free",
        }
    }
}

/// The legend: each state, its colour and what it means.
const LEGEND: [(&str, &str, &str); 8] = [
    ("kept", "kept", "an existing entry, never moved"),
    ("new", "new", "an entry fill adds, chosen by the strategy"),
    (
        "pinned",
        "pinned",
        "an entry fill adds from the host's pin annotation",
    ),
    (
        "live",
        "live",
        "an entry fill adds for the address the host holds now",
    ),
    (
        "reserved",
        "reserved",
        "gateway, DNS server, network or broadcast address, the config's reserve, a control-plane endpoint",
    ),
    (
        "taken",
        "taken",
        "held by something else: another pool, an entry or live claim of no host here",
    ),
    ("free", "free", "left for new hosts"),
    (
        "meets",
        "meets another cluster",
        "the range of a pool of another namespace on the same network holds it too",
    ),
];

/// The page.
pub fn page(p: &Page) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        out,
        "<title>ipreuse address plan: {}</title>",
        esc(p.source)
    );
    out.push_str("<style>\n");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n<body>\n");

    // The rows of each pool, by (namespace, pool).
    let mut rows_of: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    for r in p.rows {
        rows_of
            .entry((r.namespace.as_str(), r.pool.as_str()))
            .or_default()
            .push(r);
    }
    let counts = |rows: &[&Row], s: Status| rows.iter().filter(|r| r.status == s).count();

    // Header: what was read, the totals, the legend.
    let _ = writeln!(
        out,
        "<header>\n<h1>Address plan</h1>\n<p class=\"src\">{} &middot; ipreuse {} &middot; what fill would write; nothing is written</p>",
        esc(p.source),
        env!("CARGO_PKG_VERSION")
    );
    let all: Vec<&Row> = p.rows.to_vec();
    let _ = write!(
        out,
        "<p class=\"totals\" data-pools=\"{}\" data-rows=\"{}\"",
        p.pools.len(),
        p.rows.len()
    );
    for s in STATUSES {
        let _ = write!(out, " data-{}=\"{}\"", s.as_str(), counts(&all, s));
    }
    let _ = write!(
        out,
        "><b>{}</b> pool(s), <b>{}</b> host address(es):",
        p.pools.len(),
        p.rows.len()
    );
    for s in STATUSES {
        let _ = write!(
            out,
            " <span class=\"sw s-{0}\"></span>{1} {0}",
            s.as_str(),
            counts(&all, s)
        );
    }
    out.push_str("</p>\n");
    out.push_str("<div class=\"legend\" id=\"legend\">\n");
    for (key, name, what) in LEGEND {
        let _ = writeln!(
            out,
            "<span class=\"item\" data-state=\"{key}\"><span class=\"sw s-{key}\"></span><b>{name}</b> <span class=\"what\">{}</span></span>",
            esc(what)
        );
    }
    out.push_str("</div>\n</header>\n<main>\n");

    // The results about no pool on the page.
    let general: Vec<&Finding> = p
        .findings
        .iter()
        .filter(|f| !p.pools.iter().any(|m| m.is_about(f)))
        .filter(|f| !is_about_pool_elsewhere(f, p.only_pool))
        .collect();
    if !general.is_empty() {
        out.push_str("<section class=\"general\">\n<h2>Results about other objects</h2>\n");
        findings(&mut out, &general, true);
        out.push_str("</section>\n");
    }

    // Networks (by name, then the pools on none), namespaces, pools.
    let mut nets: BTreeMap<(bool, &str), BTreeMap<&str, Vec<&PoolMap>>> = BTreeMap::new();
    for m in p.pools {
        let key = (m.network.is_none(), m.network.as_deref().unwrap_or(""));
        nets.entry(key)
            .or_default()
            .entry(m.namespace.as_str())
            .or_default()
            .push(m);
    }
    for b in p.blocks {
        nets.entry((false, b.network.as_str())).or_default();
    }
    let drawn: std::collections::BTreeSet<(&str, &str)> = p
        .pools
        .iter()
        .map(|m| (m.namespace.as_str(), m.name.as_str()))
        .collect();
    for ((none, name), namespaces) in &nets {
        let cidrs: Vec<&str> = p
            .networks
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, c)| c.as_str())
            .collect();
        if *none {
            out.push_str(
                "<section class=\"network\" data-network=\"\">\n<h2>Pools on no network</h2>\n",
            );
            out.push_str("<p class=\"note\">Each namespace's pools are its own: pools of different namespaces may reuse addresses (they sit on different networks).</p>\n");
        } else {
            let _ = write!(
                out,
                "<section class=\"network\" data-network=\"{0}\">\n<h2>Network {0}",
                esc(name)
            );
            for c in &cidrs {
                let _ = write!(out, " <span class=\"cidr\">{}</span>", esc(c));
            }
            out.push_str("</h2>\n");
            let ns: Vec<&&str> = namespaces.keys().collect();
            if !ns.is_empty() {
                let _ = writeln!(
                    out,
                    "<p class=\"note\">Shared by namespace(s) {}: an address one of their pools holds is taken for all of them.</p>",
                    ns.iter().map(|n| esc(n)).collect::<Vec<_>>().join(", ")
                );
            }
            let blocks: Vec<&BlockRow> = p
                .blocks
                .iter()
                .copied()
                .filter(|b| b.network == *name)
                .collect();
            if !blocks.is_empty() {
                block_section(&mut out, &blocks, &cidrs);
            }
        }
        for (ns, pools) in namespaces {
            let _ = writeln!(
                out,
                "<div class=\"namespace\" data-namespace=\"{0}\">\n<h3>Namespace {0}</h3>",
                esc(ns)
            );
            let mut pools = pools.clone();
            pools.sort_by(|a, b| a.name.cmp(&b.name));
            for m in pools {
                let rows = rows_of
                    .get(&(m.namespace.as_str(), m.name.as_str()))
                    .map_or(&[][..], Vec::as_slice);
                let about: Vec<&Finding> = p.findings.iter().filter(|f| m.is_about(f)).collect();
                pool_section(&mut out, m, rows, &about);
            }
            out.push_str("</div>\n");
        }
        out.push_str("</section>\n");
    }
    // Rows of a pool without a map (never, as the plan is made; kept so that no row is lost).
    let orphans: Vec<&Row> = p
        .rows
        .iter()
        .copied()
        .filter(|r| !drawn.contains(&(r.namespace.as_str(), r.pool.as_str())))
        .collect();
    if !orphans.is_empty() {
        out.push_str("<section class=\"network\" data-network=\"\">\n<h2>Other addresses</h2>\n");
        hosts_table(&mut out, &orphans);
        out.push_str("</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// Whether `f` is about an IPPool other than `only` (`--pool`): left out with its pool.
fn is_about_pool_elsewhere(f: &Finding, only: Option<&str>) -> bool {
    only.is_some_and(|only| {
        f.resource_ref
            .as_ref()
            .is_some_and(|r| r.kind == "IPPool" && r.name != only)
    })
}

/// The results listed: severity, where (the object and field, with `object`), what.
fn findings(out: &mut String, list: &[&Finding], object: bool) {
    out.push_str("<ul class=\"findings\">\n");
    for f in list {
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let mut at = String::new();
        if object && let Some(r) = &f.resource_ref {
            at.push_str(&r.words());
        }
        if let Some(field) = &f.field {
            if !at.is_empty() {
                at.push(' ');
            }
            at.push_str(&field.path);
        }
        let file = f.file.as_ref().map_or(String::new(), |file| {
            format!(" <span class=\"file\">{}</span>", esc(&file.words()))
        });
        let _ = writeln!(
            out,
            "<li class=\"{sev}\" data-severity=\"{sev}\"><span class=\"sev\">{sev}</span> <span class=\"at\">{}</span>{file}<div class=\"msg\">{}</div></li>",
            esc(&at),
            esc(&f.message)
        );
    }
    out.push_str("</ul>\n");
}

/// A pool: its facts, its addresses drawn, the pools of other clusters it meets, its results
/// and its hosts.
fn pool_section(out: &mut String, m: &PoolMap, rows: &[&Row], about: &[&Finding]) {
    let size = m.addresses.count();
    let drawn = Drawn::of(size);
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let reserved = m.reserved_count();
    let taken = m.taken.count();
    let meets: Vec<String> = m
        .meets
        .iter()
        .map(|o| format!("{}/{}", o.namespace, o.pool))
        .collect();
    let _ = write!(
        out,
        "<article class=\"pool\" id=\"{}\" data-namespace=\"{}\" data-pool=\"{}\" data-network=\"{}\" data-drawn=\"{}\" data-size=\"{size}\"",
        esc(&format!("pool-{}-{}", m.namespace, m.name)),
        esc(&m.namespace),
        esc(&m.name),
        esc(m.network.as_deref().unwrap_or("")),
        drawn.as_str()
    );
    for s in STATUSES {
        let _ = write!(out, " data-{}=\"{}\"", s.as_str(), count(s));
    }
    let _ = writeln!(
        out,
        " data-reserved=\"{reserved}\" data-taken=\"{taken}\" data-free=\"{}\" data-meets=\"{}\">",
        m.free,
        esc(&meets.join(" "))
    );
    let _ = writeln!(
        out,
        "<h4><span class=\"nsname\">{}/</span>{}{}</h4>",
        esc(&m.namespace),
        esc(&m.name),
        if meets.is_empty() {
            ""
        } else {
            " <span class=\"badge meets-badge\">meets another cluster</span>"
        }
    );
    // Facts: ranges, prefix, gateway, DNS servers.
    let ranges: Vec<String> = m
        .addresses
        .ranges()
        .take(4)
        .map(|(lo, hi)| range_text(lo, hi))
        .collect();
    let more = m.addresses.range_count().saturating_sub(4);
    let mut facts = vec![format!(
        "{}{}",
        ranges.join(", "),
        if more > 0 {
            format!(" and {more} more range(s)")
        } else {
            String::new()
        }
    )];
    if size > u128::from(ipam::POSITION_LIMIT) {
        facts.push(format!(
            "the first {} addresses the IPAM reaches",
            num(size)
        ));
    }
    if m.prefix != 0 {
        facts.push(format!("prefix /{}", m.prefix));
    }
    if let Some(g) = m.gateway {
        facts.push(format!("gateway {g}"));
    }
    if !m.dns_servers.is_empty() {
        let d: Vec<String> = m.dns_servers.iter().map(Addr::to_string).collect();
        facts.push(format!("DNS {}", d.join(", ")));
    }
    let _ = writeln!(out, "<p class=\"facts\">{}</p>", esc(&facts.join(" · ")));
    // Utilisation.
    let used = size.saturating_sub(m.free);
    let pct = |n: u128| {
        if size == 0 {
            0.0
        } else {
            n as f64 * 100.0 / size as f64
        }
    };
    let _ = write!(
        out,
        "<p class=\"use\"><b>{}</b> address(es), <b>{}</b> in use ({}):",
        num(size),
        num(used),
        match pct(used) {
            p if used > 0 && p < 0.1 => "&lt;0.1%".to_string(),
            p => format!("{p:.1}%"),
        }
    );
    for s in STATUSES {
        let _ = write!(
            out,
            " <span class=\"sw s-{0}\"></span>{1} {0}",
            s.as_str(),
            count(s)
        );
    }
    let _ = writeln!(
        out,
        " <span class=\"sw s-reserved\"></span>{} reserved <span class=\"sw s-taken\"></span>{} taken <span class=\"sw s-free\"></span><b>{}</b> free</p>",
        num(reserved),
        num(taken),
        num(m.free)
    );
    // The meter: each state's share, at least a sliver when it has any.
    out.push_str("<div class=\"meter\" aria-hidden=\"true\">");
    let mut parts: Vec<(&str, u128)> = STATUSES
        .iter()
        .map(|s| (State::Row(*s).class(), count(*s) as u128))
        .collect();
    parts.push(("s-reserved", reserved));
    parts.push(("s-taken", taken));
    parts.push(("s-free", m.free));
    for (class, n) in parts {
        if n > 0 {
            let _ = write!(
                out,
                "<span class=\"{class}\" style=\"flex-grow:{:.4}\"></span>",
                pct(n).max(0.6)
            );
        }
    }
    out.push_str("</div>\n");
    if !m.reserved.is_empty() {
        let why: Vec<String> = m
            .reserved
            .iter()
            .map(|(w, s)| format!("{} {}", s.count(), w.as_str()))
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"reserved\">Reserved here: {}</p>",
            esc(&why.join(", "))
        );
    }
    let by_addr: BTreeMap<u128, &Row> = rows
        .iter()
        .filter_map(|r| Some((ipam::parse_addr(&r.address).ok()?.addr().value(), *r)))
        .collect();
    match drawn {
        Drawn::Grid => grid(out, m, &by_addr),
        Drawn::Bar => bar(out, m, &by_addr),
    }
    for o in &m.meets {
        let shared = o.shared.count();
        let spans: Vec<String> = o
            .shared
            .ranges()
            .take(3)
            .map(|(lo, hi)| range_text(lo, hi))
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"meet\" data-meets=\"{}\"><span class=\"sw s-meets\"></span>Meets IPPool <b>{}</b> of another namespace on network {}: {} address(es) in both ({}).</p>",
            esc(&format!("{}/{}", o.namespace, o.pool)),
            esc(&format!("{}/{}", o.namespace, o.pool)),
            esc(m.network.as_deref().unwrap_or("")),
            shared,
            esc(&spans.join(", "))
        );
    }
    if m.meets_more {
        out.push_str("<p class=\"meet\">It meets the ranges of more pools of other namespaces than are named here.</p>\n");
    }
    if !about.is_empty() {
        findings(out, about, false);
    }
    if rows.len() > OPEN_HOSTS {
        let _ = writeln!(
            out,
            "<details><summary>{} host address(es)</summary>",
            rows.len()
        );
        hosts_table(out, rows);
        out.push_str("</details>\n");
    } else if !rows.is_empty() {
        hosts_table(out, rows);
    } else {
        out.push_str("<p class=\"note\">No host has an address in this pool.</p>\n");
    }
    out.push_str("</article>\n");
}

/// The rows of a pool (or of pools without a map), one `<tr class="row">` each, with the row's
/// fields as `data-*` attributes.
fn hosts_table(out: &mut String, rows: &[&Row]) {
    out.push_str("<table class=\"hosts\">\n<thead><tr><th>host</th><th>address</th><th>status</th><th>cluster</th></tr></thead>\n<tbody>\n");
    for r in rows {
        let clusters = r.clusters.join(",");
        let _ = writeln!(
            out,
            "<tr class=\"row\" data-namespace=\"{}\" data-host=\"{}\" data-pool=\"{}\" data-address=\"{}\" data-status=\"{}\" data-network=\"{}\" data-clusters=\"{}\"><td>{}</td><td class=\"mono\">{}</td><td><span class=\"sw s-{}\"></span>{}</td><td>{}</td></tr>",
            esc(&r.namespace),
            esc(&r.host),
            esc(&r.pool),
            esc(&r.address),
            r.status.as_str(),
            esc(r.network.as_deref().unwrap_or("")),
            esc(&clusters),
            esc(&r.host),
            esc(&r.address),
            r.status.as_str(),
            r.status.as_str(),
            if clusters.is_empty() {
                "&ndash;".to_string()
            } else {
                esc(&clusters)
            }
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// What address `a` of pool `m` is.
fn state_of(m: &PoolMap, by_addr: &BTreeMap<u128, &Row>, a: u128) -> State {
    if let Some(r) = by_addr.get(&a) {
        return State::Row(r.status);
    }
    if let Some((why, _)) = m.reserved.iter().find(|(_, s)| s.contains(a)) {
        return State::Reserved(*why);
    }
    if m.taken.contains(a) {
        return State::Taken;
    }
    State::Free
}

/// A short label for an address in its cell: the last octet of an IPv4 address (`.14`), the
/// last group of an IPv6 one (`:1a`); the whole address is the cell's title.
fn cell_label(a: Addr) -> String {
    match a.ip() {
        std::net::IpAddr::V4(v4) => format!(".{}", v4.octets()[3]),
        std::net::IpAddr::V6(v6) => format!(":{:x}", v6.segments()[7]),
    }
}

/// One cell per address of a small pool.
fn grid(out: &mut String, m: &PoolMap, by_addr: &BTreeMap<u128, &Row>) {
    let meets = meets_set(m);
    let held: BTreeMap<u128, &str> = m
        .taken_by
        .iter()
        .map(|(a, who)| (a.value(), who.as_str()))
        .collect();
    out.push_str("<div class=\"grid\">\n");
    for (lo, hi) in m.addresses.ranges() {
        for v in lo..=hi {
            let a = Addr::from_value(v);
            let state = state_of(m, by_addr, v);
            let meet = meets.contains(v);
            let (who, title) = match state {
                State::Row(_) => {
                    let r = by_addr[&v];
                    (r.host.clone(), format!("{a} {}: {}", r.host, row_note(r)))
                }
                State::Reserved(w) => (
                    short_reason(w).to_string(),
                    format!("{a}: reserved, {}", w.as_str()),
                ),
                State::Taken => (
                    "taken".to_string(),
                    format!(
                        "{a}: taken, {}",
                        held.get(&v).copied().unwrap_or(
                            "held by another pool, or by an entry or live claim of no host here"
                        )
                    ),
                ),
                State::Free => (String::new(), format!("{a}: free")),
            };
            let title = if meet {
                format!("{title}; the range of another cluster's pool holds it too")
            } else {
                title
            };
            let _ = writeln!(
                out,
                "<div class=\"cell {}{}\" data-address=\"{a}\" data-state=\"{}\" title=\"{}\"><span class=\"ad\">{}</span><span class=\"who\">{}</span></div>",
                state.class(),
                if meet { " meets" } else { "" },
                state_key(state),
                esc(&title),
                esc(&cell_label(a)),
                esc(&who)
            );
        }
    }
    out.push_str("</div>\n");
}

/// What a host's cell says on hover after its address and host: the status, and the Cluster
/// parts that claim it.
fn row_note(r: &Row) -> String {
    if r.clusters.is_empty() {
        r.status.as_str().to_string()
    } else {
        format!("{}, {}", r.status.as_str(), r.clusters.join(", "))
    }
}

fn state_key(s: State) -> &'static str {
    match s {
        State::Row(st) => st.as_str(),
        State::Reserved(_) => "reserved",
        State::Taken => "taken",
        State::Free => "free",
    }
}

/// The word on a reserved cell.
fn short_reason(w: Reserved) -> &'static str {
    match w {
        Reserved::Gateway => "gateway",
        Reserved::DnsServer => "DNS",
        Reserved::Network => "network",
        Reserved::Broadcast => "broadcast",
        Reserved::Reserve => "reserve",
        Reserved::Endpoint => "endpoint",
    }
}

/// The addresses of pool `m` that the range of a pool of another cluster holds too.
fn meets_set(m: &PoolMap) -> IntervalSet {
    let mut s = IntervalSet::new();
    for o in &m.meets {
        s.extend(&o.shared);
    }
    s
}

/// `a`, `a/len` (one aligned CIDR) or `a – b`.
fn range_text(lo: u128, hi: u128) -> String {
    let (a, b) = (Addr::from_value(lo), Addr::from_value(hi));
    if lo == hi {
        return a.to_string();
    }
    let len = hi.wrapping_sub(lo).wrapping_add(1);
    if len != 0 && len.is_power_of_two() && lo.is_multiple_of(len) {
        let bits = a.family().bits();
        let prefix = u32::from(bits).saturating_sub(len.trailing_zeros());
        return format!("{a}/{prefix}");
    }
    format!("{a} – {b}")
}

/// The pool's addresses in order, cut into `columns` runs of (about) equal length: each run as
/// its address ranges.
fn columns(addresses: &IntervalSet, columns: u128) -> Vec<Vec<(u128, u128)>> {
    let size = addresses.count();
    let n = columns.min(size).max(1);
    let mut out: Vec<Vec<(u128, u128)>> = vec![Vec::new(); n as usize];
    // Column i holds offsets [i*size/n, (i+1)*size/n).
    let start = |i: u128| -> u128 {
        // i * size / n without overflow: size < 2^21 in practice, but stay exact anyway.
        (i.saturating_mul(size / n)).saturating_add(i.saturating_mul(size % n) / n)
    };
    let mut offset = 0u128;
    let mut col = 0u128;
    for (lo, hi) in addresses.ranges() {
        let mut a = lo;
        loop {
            while col + 1 < n && offset >= start(col + 1) {
                col += 1;
            }
            let col_end = if col + 1 < n { start(col + 1) } else { size };
            let left_in_col = col_end.saturating_sub(offset).max(1);
            let left_in_range = hi - a + 1;
            let take = left_in_col.min(left_in_range);
            out[col as usize].push((a, a + take - 1));
            offset += take;
            if take == left_in_range {
                break;
            }
            a += take;
        }
    }
    out
}

/// A larger pool: a bar of columns, each a run of addresses coloured by what it holds (a host's
/// address first, then reserved, then taken, else free), with the counts in its title; above
/// it, where the ranges of other clusters' pools meet it.
fn bar(out: &mut String, m: &PoolMap, by_addr: &BTreeMap<u128, &Row>) {
    let cols = columns(&m.addresses, BAR_COLUMNS);
    let n = cols.len().max(1);
    let meets = meets_set(m);
    let w = 1000.0 / n as f64;
    out.push_str(
        "<svg class=\"bar\" viewBox=\"0 0 1000 40\" preserveAspectRatio=\"none\" role=\"img\">\n",
    );
    for (i, col) in cols.iter().enumerate() {
        let (Some(first), Some(last)) = (col.first(), col.last()) else {
            continue;
        };
        let mut per = [0u128; 4];
        for (lo, hi) in col {
            for (_, r) in by_addr.range(*lo..=*hi) {
                let k = STATUSES.iter().position(|s| *s == r.status).unwrap_or(0);
                per[k] += 1;
            }
        }
        let reserved = m
            .reserved
            .iter()
            .map(|(_, s)| {
                col.iter()
                    .map(|(lo, hi)| s.count_in(*lo, *hi))
                    .sum::<u128>()
            })
            .sum::<u128>();
        let taken: u128 = col.iter().map(|(lo, hi)| m.taken.count_in(*lo, *hi)).sum();
        let total: u128 = col.iter().map(|(lo, hi)| hi - lo + 1).sum();
        let hosts: u128 = per.iter().sum();
        let free = total.saturating_sub(hosts + reserved + taken);
        let class = if hosts > 0 {
            let k = (0..4).max_by_key(|k| (per[*k], 3 - *k)).unwrap_or(0);
            State::Row(STATUSES[k]).class()
        } else if reserved > 0 {
            "s-reserved"
        } else if taken > 0 {
            "s-taken"
        } else {
            "s-free"
        };
        let mut what: Vec<String> = STATUSES
            .iter()
            .zip(per)
            .filter(|(_, c)| *c > 0)
            .map(|(s, c)| format!("{c} {}", s.as_str()))
            .collect();
        for (c, word) in [(reserved, "reserved"), (taken, "taken"), (free, "free")] {
            if c > 0 {
                what.push(format!("{c} {word}"));
            }
        }
        let title = format!(
            "{} – {}: {}",
            Addr::from_value(first.0),
            Addr::from_value(last.1),
            what.join(", ")
        );
        let x = i as f64 * w;
        let _ = writeln!(
            out,
            "<rect class=\"{class}\" x=\"{x:.3}\" y=\"10\" width=\"{:.3}\" height=\"30\"><title>{}</title></rect>",
            w + 0.02,
            esc(&title)
        );
        if col.iter().any(|(lo, hi)| meets.count_in(*lo, *hi) > 0) {
            let _ = writeln!(
                out,
                "<rect class=\"s-meets\" x=\"{x:.3}\" y=\"0\" width=\"{:.3}\" height=\"7\"></rect>",
                w + 0.02
            );
        }
    }
    out.push_str("</svg>\n");
    let (first, last) = (
        m.addresses.ranges().next().map(|r| r.0),
        m.addresses.ranges().last().map(|r| r.1),
    );
    if let (Some(first), Some(last)) = (first, last) {
        let per = m.addresses.count().div_ceil(n as u128);
        let _ = writeln!(
            out,
            "<div class=\"axis\"><span>{}</span><span>each column about {} address(es); hover for its counts</span><span>{}</span></div>",
            Addr::from_value(first),
            num(per),
            Addr::from_value(last)
        );
    }
}

/// The blocks of one network (SPEC §12): a bar of each cidr with its blocks on it, and the
/// table.
fn block_section(out: &mut String, blocks: &[&BlockRow], cidrs: &[&str]) {
    out.push_str("<div class=\"blocks\">\n<h3>Blocks</h3>\n<p class=\"note\">Each pool's range in the network: <span class=\"sw s-kept\"></span>kept (the pool's own range, never changed) <span class=\"sw s-new\"></span>new (this run gives it; fill writes it into the pool's spec.pools).</p>\n");
    for c in cidrs {
        let Ok((lo, hi)) = ipam::parse_reserve(c) else {
            continue;
        };
        let (lo, hi) = (lo.value(), hi.value());
        let span = (hi - lo) as f64 + 1.0;
        let inside: Vec<(&BlockRow, u128, u128)> = blocks
            .iter()
            .filter_map(|b| {
                let (a, z) = ipam::parse_reserve(&b.range).ok()?;
                (a.value() >= lo && z.value() <= hi).then_some((*b, a.value(), z.value()))
            })
            .collect();
        if inside.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<div class=\"blockbar\"><span class=\"cidr\">{}</span><svg class=\"bar\" viewBox=\"0 0 1000 24\" preserveAspectRatio=\"none\" role=\"img\"><rect class=\"s-free\" x=\"0\" y=\"0\" width=\"1000\" height=\"24\"></rect>",
            esc(c)
        );
        for (b, a, z) in inside {
            let x = (a - lo) as f64 / span * 1000.0;
            let w = (((z - a) as f64 + 1.0) / span * 1000.0).max(3.0);
            let class = match b.status {
                BlockStatus::New => "s-new",
                BlockStatus::Kept => "s-kept",
            };
            let _ = writeln!(
                out,
                "<rect class=\"{class}\" x=\"{x:.3}\" y=\"0\" width=\"{w:.3}\" height=\"24\"><title>{}</title></rect>",
                esc(&format!(
                    "{} {}/{} ({})",
                    b.range,
                    b.namespace,
                    b.pool,
                    b.status.as_str()
                ))
            );
        }
        out.push_str("</svg></div>\n");
    }
    out.push_str("<table class=\"hosts blocks\">\n<thead><tr><th>range</th><th>index</th><th>pool</th><th>status</th></tr></thead>\n<tbody>\n");
    for b in blocks {
        let _ = writeln!(
            out,
            "<tr class=\"block\" data-network=\"{}\" data-namespace=\"{}\" data-pool=\"{}\" data-range=\"{}\" data-index=\"{}\" data-status=\"{}\"><td class=\"mono\">{}</td><td>{}</td><td>{}/{}</td><td><span class=\"sw s-{}\"></span>{}</td></tr>",
            esc(&b.network),
            esc(&b.namespace),
            esc(&b.pool),
            esc(&b.range),
            b.index.map(|i| i.to_string()).unwrap_or_default(),
            b.status.as_str(),
            esc(&b.range),
            b.index.map_or("&ndash;".to_string(), |i| i.to_string()),
            esc(&b.namespace),
            esc(&b.pool),
            b.status.as_str(),
            b.status.as_str()
        );
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

const CSS: &str = r#":root {
  --kept: #0b6bb8; --new: #0a9b6c; --pinned: #c45ba0; --live: #e69f00;
  --reserved: #3d3d3d; --free: #ffffff; --meets: #d62d0a; --ink: #1c1e21; --muted: #5b6270;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #eef0f3; }
header { background: #fff; border-bottom: 1px solid #d6d9de; padding: 18px 28px 14px; }
h1 { margin: 0 0 2px; font-size: 22px; }
h2 { margin: 0 0 8px; font-size: 18px; }
h3 { margin: 14px 0 8px; font-size: 15px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
h4 { margin: 0 0 4px; font-size: 16px; }
.src, .note, .facts, .axis { color: var(--muted); }
.note { margin: 0 0 8px; }
.totals { margin: 8px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 22px; padding: 10px 12px; background: #f7f8fa; border: 1px solid #e1e4e8; border-radius: 6px; }
.legend .item { white-space: nowrap; }
.legend .what { color: var(--muted); font-size: 12px; }
main { padding: 4px 28px 28px; }
.sw { display: inline-block; width: 13px; height: 13px; border-radius: 3px; vertical-align: -2px; margin: 0 4px 0 6px; border: 1px solid rgba(0,0,0,.3); }
.s-kept { background: var(--kept); color: #fff; fill: var(--kept); }
.s-new { background: var(--new); color: #fff; fill: var(--new); }
.s-pinned { background: var(--pinned); color: #fff; fill: var(--pinned); }
.s-live { background: var(--live); color: #1c1e21; fill: var(--live); }
.s-reserved { background: var(--reserved); color: #fff; fill: var(--reserved); }
.s-taken { background: repeating-linear-gradient(135deg, #b9bec6 0 3px, #e4e7eb 3px 6px); color: #1c1e21; fill: #b9bec6; }
.s-free { background: var(--free); color: #8a909b; fill: #ffffff; }
.s-meets { background: var(--meets); fill: var(--meets); }
.legend .s-meets, .meet .s-meets { height: 5px; width: 16px; vertical-align: 2px; border: 0; }
section.network, section.general { background: #fff; border: 1px solid #d6d9de; border-radius: 8px; padding: 16px 20px; margin: 18px 0; }
.cidr { font: 13px "DejaVu Sans Mono", Menlo, Consolas, monospace; background: #eef0f3; border-radius: 4px; padding: 1px 6px; margin-left: 6px; font-weight: normal; }
.namespace { border-top: 1px solid #e6e8eb; margin-top: 10px; }
article.pool { margin: 8px 0 16px; }
.nsname { color: var(--muted); font-weight: normal; }
.badge { font-size: 11px; font-weight: bold; border-radius: 10px; padding: 1px 8px; margin-left: 8px; vertical-align: 2px; }
.meets-badge { color: #fff; background: var(--meets); }
.facts { margin: 0 0 4px; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.use, .reserved { margin: 2px 0 6px; }
.reserved { color: var(--muted); font-size: 13px; }
.meter { display: flex; height: 10px; border-radius: 5px; overflow: hidden; border: 1px solid #c5cad1; margin: 4px 0 10px; max-width: 1000px; }
.meter span { display: block; min-width: 2px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(76px, 1fr)); gap: 3px; max-width: 1340px; }
.cell { border: 1px solid rgba(0,0,0,.18); border-radius: 4px; padding: 2px 5px 3px; min-height: 36px; font-size: 11px; line-height: 1.3; overflow: hidden; }
.cell .ad { display: block; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; opacity: .85; }
.cell .who { display: block; font-weight: bold; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.cell.s-free { border-color: #dde0e4; }
.cell.meets { box-shadow: inset 0 -5px 0 var(--meets); }
svg.bar { display: block; width: 100%; max-width: 1000px; height: 40px; border: 1px solid #c5cad1; border-radius: 3px; background: #fff; }
.blockbar svg.bar { height: 24px; margin: 2px 0 8px; }
.axis { display: flex; justify-content: space-between; max-width: 1000px; font-size: 12px; margin: 2px 0 8px; }
.meet { margin: 6px 0; padding: 6px 10px; border-left: 4px solid var(--meets); background: #fdf0ed; }
ul.findings { list-style: none; padding: 0; margin: 8px 0; }
ul.findings li { margin: 4px 0; padding: 6px 10px; border-radius: 4px; border-left: 4px solid; }
li.warning { background: #fff6e0; border-color: #d99a00; }
li.error { background: #fde8e8; border-color: #c62828; }
li.info { background: #eaf2fb; border-color: #0b6bb8; }
.sev { font-weight: bold; text-transform: uppercase; font-size: 11px; letter-spacing: .05em; }
.at, .file { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; color: var(--muted); }
.msg { margin-top: 2px; }
table.hosts { border-collapse: collapse; margin: 6px 0; font-size: 13px; }
table.hosts th { text-align: left; font-weight: bold; color: var(--muted); border-bottom: 1px solid #d6d9de; padding: 3px 16px 3px 0; }
table.hosts td { border-bottom: 1px solid #eef0f3; padding: 3px 16px 3px 0; }
.mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
details summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use ipreuse::results::ResourceRef;

    fn addr(text: &str) -> Addr {
        ipam::parse_addr(text).expect("an address").addr()
    }

    fn set(lo: &str, hi: &str) -> IntervalSet {
        IntervalSet::from_ranges([(addr(lo).value(), addr(hi).value())])
    }

    fn pool(ns: &str, name: &str, addresses: IntervalSet) -> PoolMap {
        let free = addresses.count();
        PoolMap {
            namespace: ns.into(),
            name: name.into(),
            network: None,
            addresses,
            prefix: 0,
            gateway: None,
            dns_servers: Vec::new(),
            reserved: Vec::new(),
            taken: IntervalSet::new(),
            taken_by: Vec::new(),
            free,
            meets: Vec::new(),
            meets_more: false,
        }
    }

    fn row(ns: &str, host: &str, pool: &str, address: &str, status: Status) -> Row {
        Row {
            namespace: ns.into(),
            host: host.into(),
            pool: pool.into(),
            address: address.into(),
            status,
            network: None,
            clusters: Vec::new(),
        }
    }

    fn on_pool(ns: &str, name: &str) -> ResourceRef {
        ResourceRef {
            api_version: "ipam.metal3.io/v1alpha1".into(),
            kind: "IPPool".into(),
            name: name.into(),
            namespace: Some(ns.into()),
        }
    }

    fn render(rows: &[Row], pools: &[PoolMap], findings: &[Finding]) -> String {
        let rows: Vec<&Row> = rows.iter().collect();
        let pools: Vec<&PoolMap> = pools.iter().collect();
        page(&Page {
            source: "pkg/<dir>",
            rows: &rows,
            blocks: &[],
            pools: &pools,
            networks: &[],
            findings,
            only_pool: None,
        })
    }

    /// The text of the pool's `<article>`.
    fn article<'a>(page: &'a str, name: &str) -> &'a str {
        page.split("<article ")
            .find(|s| s.contains(&format!("data-pool=\"{name}\"")))
            .and_then(|s| s.split("</article>").next())
            .expect("the pool's section")
    }

    #[test]
    fn text_is_escaped_in_content_and_attributes() {
        assert_eq!(
            esc(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        let evil = r#"<script>alert("x")</script>&'"#;
        let p = pool("ns\"<", evil, set("10.0.0.1", "10.0.0.4"));
        let rows = [row("ns\"<", evil, evil, "10.0.0.1", Status::New)];
        let findings = [
            Finding::warning(format!("host {evil} </li><script>")).on(on_pool("ns\"<", evil)),
            Finding::error("<b>bold</b> & more"),
        ];
        let out = render(&rows, &[p], &findings);
        assert!(!out.contains("<script"), "{out}");
        assert!(!out.contains("<b>bold"), "{out}");
        assert!(out.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"));
        assert!(out.contains("pkg/&lt;dir&gt;"));
        // Nothing on the page loads or runs anything.
        for word in ["src=", "href=", "url(", "://", "@import"] {
            assert!(!out.contains(word), "{word}");
        }
    }

    #[test]
    fn small_pools_are_grids_and_larger_ones_bars() {
        assert_eq!(Drawn::of(1), Drawn::Grid);
        assert_eq!(Drawn::of(GRID_MAX), Drawn::Grid);
        assert_eq!(Drawn::of(GRID_MAX + 1), Drawn::Bar);
        assert_eq!(Drawn::of(1 << 64), Drawn::Bar);
        let small = pool("a", "small", set("10.0.0.0", "10.0.0.255"));
        let large = pool("a", "large", set("10.0.0.0", "10.0.1.0"));
        let out = render(&[], &[small, large], &[]);
        let s = article(&out, "small");
        assert!(s.contains("data-drawn=\"grid\""));
        assert_eq!(s.matches("<div class=\"cell ").count(), 256);
        let l = article(&out, "large");
        assert!(l.contains("data-drawn=\"bar\""));
        assert!(!l.contains("class=\"cell "));
        assert_eq!(
            l.matches("<rect class=\"s-").count(),
            257,
            "one column per address"
        );
    }

    #[test]
    fn ipv6_cells_show_the_last_group_and_a_64_is_a_bar_of_bounded_size() {
        assert_eq!(cell_label(addr("2001:db8::1a")), ":1a");
        assert_eq!(cell_label(addr("10.1.2.3")), ".3");
        // A /64 as the IPAM reaches it: 2^20 + 1 addresses, in two ranges.
        let mut addresses = set("2001:db8::1", "2001:db8::8:0");
        addresses.extend(&set("2001:db8:0:0:1::", "2001:db8:0:0:1::8:0"));
        let mut p = pool("v6", "big", addresses);
        p.reserved = vec![(Reserved::Gateway, set("2001:db8::1", "2001:db8::1"))];
        p.free -= 3;
        let rows = [
            row("v6", "node-1", "big", "2001:db8::2", Status::Kept),
            row("v6", "node-2", "big", "2001:db8:0:0:1::5", Status::New),
        ];
        let out = render(&rows, &[p], &[]);
        let a = article(&out, "big");
        assert!(a.contains("data-drawn=\"bar\""));
        assert_eq!(a.matches("<rect class=\"s-").count(), BAR_COLUMNS as usize);
        assert!(
            a.contains("<rect class=\"s-kept\" x=\"0.000\""),
            "the first column holds node-1"
        );
        assert_eq!(a.matches("<rect class=\"s-new\"").count(), 1);
        assert!(a.contains("data-kept=\"1\" data-new=\"1\""));
        assert!(out.len() < 200_000, "{} bytes", out.len());
    }

    #[test]
    fn columns_cut_the_addresses_in_order_without_gaps() {
        for (ranges, n) in [
            (vec![(10u128, 10_009u128)], 400u128),
            (vec![(0, 2), (100, 101)], 400),
            (vec![(0, (1 << 20) - 1), (1 << 40, (1 << 40) + 5)], 400),
            (vec![(7, 7)], 400),
        ] {
            let s = IntervalSet::from_ranges(ranges);
            let cols = columns(&s, n);
            assert_eq!(cols.len() as u128, n.min(s.count()));
            let flat: Vec<(u128, u128)> = cols.iter().flatten().copied().collect();
            assert_eq!(IntervalSet::from_ranges(flat.clone()), s);
            let total: u128 = flat.iter().map(|(lo, hi)| hi - lo + 1).sum();
            assert_eq!(total, s.count(), "no address twice");
            assert!(flat.windows(2).all(|w| w[0].1 < w[1].0), "in order");
            let sizes: Vec<u128> = cols
                .iter()
                .map(|c| c.iter().map(|(lo, hi)| hi - lo + 1).sum())
                .collect();
            let (min, max) = (sizes.iter().min(), sizes.iter().max());
            assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "{sizes:?}");
        }
    }

    #[test]
    fn results_go_beside_their_pool_and_the_rest_in_a_general_part() {
        let a = pool("ns", "a", set("10.0.0.1", "10.0.0.4"));
        let b = pool("ns", "b", set("10.0.1.1", "10.0.1.4"));
        let findings = [
            Finding::warning("about a")
                .on(on_pool("ns", "a"))
                .at("spec.pools"),
            Finding::error("an error about b").on(on_pool("ns", "b")),
            Finding::warning("about a host").on(ResourceRef {
                api_version: "metal3.io/v1alpha1".into(),
                kind: "BareMetalHost".into(),
                name: "node-1".into(),
                namespace: Some("ns".into()),
            }),
        ];
        let out = render(&[], &[a, b], &findings);
        let (sa, sb) = (article(&out, "a"), article(&out, "b"));
        assert!(sa.contains("about a") && !sa.contains("an error about b"));
        assert!(sb.contains("class=\"error\"") && sb.contains("an error about b"));
        let general = out
            .split("<section class=\"general\">")
            .nth(1)
            .expect("a general part");
        assert!(
            general
                .split("</section>")
                .next()
                .is_some_and(|g| g.contains("about a host")
                    && g.contains("BareMetalHost ns/node-1")
                    && !g.contains("about a<"))
        );
    }

    #[test]
    fn reserved_taken_and_meeting_addresses_are_drawn_with_their_reasons() {
        let mut p = pool("east", "prov", set("172.22.0.10", "172.22.0.13"));
        p.network = Some("provisioning".into());
        p.reserved = vec![(Reserved::Endpoint, set("172.22.0.13", "172.22.0.13"))];
        p.taken = set("172.22.0.12", "172.22.0.12");
        p.taken_by = vec![(addr("172.22.0.12"), "entry x of IPPool north/prov".into())];
        p.free = 1;
        p.meets = vec![ipreuse::transform::preallocations::allocate::Meet {
            namespace: "north".into(),
            pool: "prov".into(),
            shared: set("172.22.0.12", "172.22.0.13"),
        }];
        let rows = [row("east", "east-0", "prov", "172.22.0.10", Status::Kept)];
        let out = render(&rows, &[p], &[]);
        assert!(out.contains(
            "data-address=\"172.22.0.10\" data-state=\"kept\" title=\"172.22.0.10 east-0: kept\""
        ));
        assert!(out.contains("data-state=\"free\""));
        assert!(
            out.contains("title=\"172.22.0.12: taken, entry x of IPPool north/prov; the range")
        );
        assert!(out.contains("class=\"cell s-reserved meets\" data-address=\"172.22.0.13\""));
        assert!(out.contains("control-plane endpoint"));
        assert!(out.contains("data-meets=\"north/prov\""));
        assert!(out.contains("data-size=\"4\" data-kept=\"1\""));
        assert!(out.contains("data-reserved=\"1\" data-taken=\"1\" data-free=\"1\""));
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(num(0), "0");
        assert_eq!(num(999), "999");
        assert_eq!(num(1_048_577), "1\u{2009}048\u{2009}577");
    }
}
