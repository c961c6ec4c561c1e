//! `ipreuse plan`: the address plan in the formats people feed to DNS, certificates and
//! firewall rules.

use std::fmt::Write as _;

use ipreuse::natural;
use ipreuse::results::Finding;
use ipreuse::transform::preallocations::allocate::{PoolMap, Row};
use ipreuse::transform::preallocations::blocks::BlockRow;

/// NETWORK and CLUSTER come last, so that scripts reading the first five columns keep working.
const HEADER: [&str; 7] = [
    "NAMESPACE",
    "HOST",
    "POOL",
    "ADDRESS",
    "STATUS",
    "NETWORK",
    "CLUSTER",
];

/// `plan --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanFormat {
    /// Aligned columns, with a header.
    Table,
    /// RFC 4180, with a header.
    Csv,
    /// An array of objects.
    Json,
    /// `/etc/hosts` lines.
    Hosts,
    /// One self-contained HTML page, the address map: each pool's addresses drawn and
    /// coloured by state (kept, new, pinned, live, reserved, taken, free), per network and
    /// namespace, with the warnings beside each pool and the network's blocks.
    Html,
}

/// The blocks' columns (`--blocks`, and the second table of `--format table`).
const BLOCK_HEADER: [&str; 6] = ["NETWORK", "NAMESPACE", "POOL", "RANGE", "INDEX", "STATUS"];

/// `--pool` and `--host`: which rows and blocks `plan` keeps.
#[derive(Debug, Default, Clone, Copy)]
pub struct Filter<'a> {
    /// Only this pool's rows and blocks (every namespace).
    pub pool: Option<&'a str>,
    /// Only this host's rows (every namespace), and the blocks of their pools.
    pub host: Option<&'a str>,
}

/// What `plan` lists: the rows of the hosts' addresses and the networks' blocks; for the page
/// (`--format html`) also each pool's map, the config's networks (name, cidr), the run's
/// warnings and what was read.
pub struct Plan<'a> {
    pub rows: &'a [Row],
    pub blocks: &'a [BlockRow],
    pub pools: &'a [PoolMap],
    pub networks: &'a [(String, String)],
    pub findings: &'a [Finding],
    pub source: &'a str,
}

/// The plan in `format`. Hosts' rows are ordered by namespace, host (natural order) and pool;
/// blocks by network, namespace, pool and address. `table` shows the hosts' rows, then the
/// blocks (when a network hands out blocks) as a second table; `hosts` writes each block as a
/// comment line first; `csv` and `json` write one kind of row: the hosts', or with
/// `only_blocks` (`--blocks`) the blocks'. With a pool filter, only that pool's rows and
/// blocks, and `hosts` names each address by its bare host name; with a host filter, only that
/// host's rows and the blocks of their pools. Refused (the message says why): a pool or host
/// nothing has, and `hosts` lines where one name would stand for two addresses.
pub fn format(
    plan: &Plan,
    format: PlanFormat,
    filter: &Filter,
    only_blocks: bool,
) -> Result<String, String> {
    let pool = filter.pool;
    if format == PlanFormat::Html {
        // The page draws whole pools: one host's rows, or the blocks alone, are another page.
        if filter.host.is_some() {
            return Err("--format html draws every address of each pool, so it takes no --host: leave it out, or use --format table --host".into());
        }
        if only_blocks {
            return Err("--format html shows the blocks in each network's part of the page: leave out --blocks, or use --format table --blocks".into());
        }
    }
    let mut rows: Vec<&Row> = plan.rows.iter().collect();
    let mut blocks: Vec<&BlockRow> = plan.blocks.iter().collect();
    if let Some(host) = filter.host {
        let mut hosts: Vec<&str> = rows.iter().map(|r| r.host.as_str()).collect();
        hosts.sort_unstable();
        hosts.dedup();
        rows.retain(|r| r.host == host);
        if rows.is_empty() {
            return Err(format!(
                "--host {host}: no host of that name has an address in the plan{}; the hosts are {}",
                ipreuse::names::did_you_mean(host, &hosts),
                ipreuse::names::list_some(hosts.iter().map(|h| h.to_string()), 10)
            ));
        }
        // The blocks of the pools the host has addresses in.
        blocks.retain(|b| {
            rows.iter()
                .any(|r| r.namespace == b.namespace && r.pool == b.pool)
        });
    }
    if only_blocks {
        rows.clear();
    }
    if let Some(pool) = pool {
        let mut pools: Vec<&str> = rows.iter().map(|r| r.pool.as_str()).collect();
        pools.extend(blocks.iter().map(|b| b.pool.as_str()));
        pools.sort_unstable();
        pools.dedup();
        rows.retain(|r| r.pool == pool);
        blocks.retain(|b| b.pool == pool);
        if rows.is_empty() && blocks.is_empty() && !pools.is_empty() {
            let what = if only_blocks {
                "no block is in a pool of that name"
            } else {
                "no host has an address in a pool of that name"
            };
            return Err(format!(
                "--pool {pool}: {what}; the pools are {}",
                pools.join(", ")
            ));
        }
    }
    rows.sort_by(|a, b| {
        a.namespace
            .cmp(&b.namespace)
            .then_with(|| natural::compare(&a.host, &b.host))
            .then_with(|| a.pool.cmp(&b.pool))
    });
    Ok(match format {
        PlanFormat::Table if only_blocks => block_table(&blocks),
        PlanFormat::Table if blocks.is_empty() => table(&rows),
        PlanFormat::Table => format!("{}\n{}", table(&rows), block_table(&blocks)),
        PlanFormat::Csv if only_blocks => block_csv(&blocks),
        PlanFormat::Csv => csv(&rows),
        PlanFormat::Json if only_blocks => to_json(&blocks),
        PlanFormat::Json => to_json(&rows),
        PlanFormat::Html => {
            let pools: Vec<&PoolMap> = plan
                .pools
                .iter()
                .filter(|m| pool.is_none_or(|p| m.name == p))
                .collect();
            super::plan_html::page(&super::plan_html::Page {
                source: plan.source,
                rows: &rows,
                blocks: &blocks,
                pools: &pools,
                networks: plan.networks,
                findings: plan.findings,
                only_pool: pool,
            })
        }
        PlanFormat::Hosts => {
            let mut text = block_comments(&blocks);
            text.push_str(&hosts(&rows, pool.is_none())?);
            text
        }
    })
}

/// The cells of a block: its index empty when it has none (a kept range that is not one
/// whole block; `-` in the table).
fn block_fields(b: &BlockRow) -> [String; 6] {
    [
        b.network.clone(),
        b.namespace.clone(),
        b.pool.clone(),
        b.range.clone(),
        b.index.map(|i| i.to_string()).unwrap_or_default(),
        b.status.as_str().to_string(),
    ]
}

fn block_table(blocks: &[&BlockRow]) -> String {
    let cells: Vec<[String; 6]> = blocks.iter().map(|b| block_fields(b)).collect();
    let mut widths = BLOCK_HEADER.map(str::len);
    for c in &cells {
        for (w, f) in widths.iter_mut().zip(c) {
            *w = (*w).max(f.chars().count());
        }
    }
    let mut out = String::new();
    let header = BLOCK_HEADER.map(str::to_string);
    for row in std::iter::once(&header).chain(&cells) {
        let mut l = String::new();
        for (i, (c, w)) in row.iter().zip(widths).enumerate() {
            let c = if c.is_empty() { "-" } else { c.as_str() };
            if i + 1 == row.len() {
                l.push_str(c);
            } else {
                let _ = write!(l, "{c:<w$}  ");
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

fn block_csv(blocks: &[&BlockRow]) -> String {
    let mut out = String::from("network,namespace,pool,range,index,status\n");
    for b in blocks {
        let cells: Vec<String> = block_fields(b).iter().map(|f| csv_cell(f)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// One comment line per block, before the `/etc/hosts` lines.
fn block_comments(blocks: &[&BlockRow]) -> String {
    let mut out = String::new();
    for b in blocks {
        let _ = writeln!(
            out,
            "# block {} of network {}: {}/{} {}{}",
            b.range,
            b.network,
            b.namespace,
            b.pool,
            b.status.as_str(),
            b.index.map_or(String::new(), |i| format!(" index {i}"))
        );
    }
    out
}

/// The cells of a row; a pool on no network has an empty network, a host of no Cluster stamped
/// from a ClusterClass an empty cluster (`-` in the table). A host two Clusters' parts claim for
/// names both, comma-separated.
fn fields(r: &Row) -> [std::borrow::Cow<'_, str>; 7] {
    [
        r.namespace.as_str().into(),
        r.host.as_str().into(),
        r.pool.as_str().into(),
        r.address.as_str().into(),
        r.status.as_str().into(),
        r.network.as_deref().unwrap_or("").into(),
        r.clusters.join(",").into(),
    ]
}

fn table(rows: &[&Row]) -> String {
    let mut widths = HEADER.map(str::len);
    for r in rows {
        for (w, f) in widths.iter_mut().zip(fields(r)) {
            *w = (*w).max(f.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: [&str; 7]| {
        let mut l = String::new();
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                let _ = write!(l, "{c:<w$}  ");
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(HEADER);
    for r in rows {
        let cells = fields(r);
        line(std::array::from_fn(|i| match &cells[i] {
            c if c.is_empty() && i >= 5 => "-",
            c => c,
        }));
    }
    out
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn csv_cell(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

fn csv(rows: &[&Row]) -> String {
    let mut out = String::from("namespace,host,pool,address,status,network,cluster\n");
    for r in rows {
        let cells: Vec<String> = fields(r).iter().map(|f| csv_cell(f)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn to_json<T: serde::Serialize>(rows: &[T]) -> String {
    let mut text = serde_json::to_string_pretty(rows).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}

/// `/etc/hosts` lines: the address, a name that stands for it alone, and where it comes from as
/// a comment. The name is `{host}-{pool}` (the claim's name, which CAPM3 gives the IPClaim and
/// the IPAddress), or the bare host name when the rows are one pool's (`--pool`): a host with
/// addresses in several pools would otherwise resolve to any of them. Two rows with one name
/// (the same host and pool names in two namespaces) are refused rather than written as a name
/// that resolves to either address; in one namespace the run has refused them already (one
/// IPClaim name for two claims).
fn hosts(rows: &[&Row], qualified: bool) -> Result<String, String> {
    let name = |r: &Row| {
        if qualified {
            format!("{}-{}", r.host, r.pool)
        } else {
            r.host.clone()
        }
    };
    let mut seen: std::collections::BTreeMap<String, &Row> = std::collections::BTreeMap::new();
    let mut out = String::new();
    for r in rows {
        let n = name(r);
        if let Some(first) = seen.get(&n) {
            let hint = if qualified {
                "run plan on one namespace's files"
            } else {
                "leave out --pool to name each address {host}-{pool}, or run plan on one namespace's files"
            };
            return Err(format!(
                "--format hosts: the name {n} would stand for {} ({}/{} in pool {}) and {} ({}/{} in pool {}); {hint}",
                first.address,
                first.namespace,
                first.host,
                first.pool,
                r.address,
                r.namespace,
                r.host,
                r.pool
            ));
        }
        seen.insert(n.clone(), r);
        let _ = writeln!(
            out,
            "{}\t{}\t# {}/{} {}{}{}",
            r.address,
            n,
            r.namespace,
            r.pool,
            r.status.as_str(),
            r.network
                .as_deref()
                .map_or(String::new(), |n| format!(" network {n}")),
            if r.clusters.is_empty() {
                String::new()
            } else {
                format!(" cluster {}", r.clusters.join(","))
            }
        );
    }
    Ok(out)
}
