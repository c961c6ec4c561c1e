//! `ipreuse plan`: the address plan in the formats people feed to DNS, certificates and
//! firewall rules.

use std::fmt::Write as _;

use ipreuse::allocate::Row;
use ipreuse::natural;

/// NETWORK comes last, so that scripts reading the first five columns keep working.
const HEADER: [&str; 6] = ["NAMESPACE", "HOST", "POOL", "ADDRESS", "STATUS", "NETWORK"];

/// The rows, ordered by namespace, host (natural order) and pool, in `format` (`table`, `csv`,
/// `json`, `hosts`; clap admits no other).
pub fn format(rows: &[Row], format: &str) -> String {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by(|a, b| {
        a.namespace
            .cmp(&b.namespace)
            .then_with(|| natural::compare(&a.host, &b.host))
            .then_with(|| a.pool.cmp(&b.pool))
    });
    match format {
        "csv" => csv(&rows),
        "json" => json(&rows),
        "hosts" => hosts(&rows),
        _ => table(&rows),
    }
}

/// The cells of a row; a pool on no network has an empty network (`-` in the table).
fn fields(r: &Row) -> [&str; 6] {
    [
        &r.namespace,
        &r.host,
        &r.pool,
        &r.address,
        r.status.as_str(),
        r.network.as_deref().unwrap_or(""),
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
    let mut line = |cells: [&str; 6]| {
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
        let mut cells = fields(r);
        if cells[5].is_empty() {
            cells[5] = "-";
        }
        line(cells);
    }
    out
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn csv(rows: &[&Row]) -> String {
    let cell = |f: &str| {
        if f.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", f.replace('"', "\"\""))
        } else {
            f.to_string()
        }
    };
    let mut out = String::from("namespace,host,pool,address,status,network\n");
    for r in rows {
        let cells: Vec<String> = fields(r).iter().map(|f| cell(f)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn json(rows: &[&Row]) -> String {
    let mut text = serde_json::to_string_pretty(rows).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}

/// `/etc/hosts` lines: the address, the host's name, and where it comes from as a comment.
fn hosts(rows: &[&Row]) -> String {
    let mut out = String::new();
    for r in rows {
        let _ = writeln!(
            out,
            "{}\t{}\t# {}/{} {}{}",
            r.address,
            r.host,
            r.namespace,
            r.pool,
            r.status.as_str(),
            r.network
                .as_deref()
                .map_or(String::new(), |n| format!(" network {n}"))
        );
    }
    out
}
