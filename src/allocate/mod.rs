//! Allocation (SPEC §5): validate what is there, then give every required claim
//! `{host}-{pool}` an address, and say so as edits on the pool items.
//!
//! Pins are the host annotations `ipreuse.dev/ip.{pool}` and the live addresses adoption
//! ([`crate::adopt`]) follows to their hosts; both are step 2 of the precedence.
//!
//! Pools are filled in byte order of (namespace, name), so the entries just added to earlier
//! pools count as taken for later overlapping ones. Nothing here touches text.

mod blocked;
mod context;
mod fill;
mod network;
mod ordinal;
mod pool_view;
mod rank;
mod shared;
mod validate;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::config::Config;
use crate::ipam::{self, Addr};
use crate::mapping::Plan;
use crate::model::{HostId, Index, ItemId, PoolId};
use crate::results::Finding;
use crate::transform::ItemEdit;
use crate::yaml::Edit;

/// What allocation decided.
#[derive(Debug, Default)]
pub struct Allocation {
    /// Edits on items (item index, edit).
    pub edits: Vec<ItemEdit>,
    /// One info result per filled pool (kept, added, rewritten, pruned, free left): true only
    /// if the edits are written, so the caller reports them only then.
    pub summaries: Vec<Finding>,
    /// The address plan: one row per required claim that has an address after the fill
    /// (`ipreuse plan`), in pool order, then natural host order. Only ids: the text of a
    /// [`Row`] is made by [`Planned::row`] when the plan is asked for.
    pub rows: Vec<Planned>,
    /// The names of the networks the rows' pools are on ([`Planned::network`]).
    pub networks: Vec<String>,
}

/// A row of the address plan as allocation finds it: which host and pool, the address and
/// where it comes from. [`Planned::row`] spells it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    pub host: HostId,
    pub pool: PoolId,
    pub address: Addr,
    pub status: Status,
    /// The network the pool is on (SPEC §10): its position in the allocation's `networks`.
    pub network: Option<usize>,
}

impl Planned {
    /// The row as `ipreuse plan` shows it, with the names of `idx` (the index allocated from)
    /// and `networks` (the names of the networks, [`Allocation::networks`]).
    pub fn row(&self, idx: &Index, networks: &[String]) -> Row {
        let pool = &idx.pools[self.pool];
        Row {
            namespace: pool.object.namespace.clone(),
            host: idx.hosts[self.host].name().to_string(),
            pool: pool.name().to_string(),
            address: ipam::canonical(self.address.ip()),
            status: self.status,
            network: self.network.and_then(|i| networks.get(i)).cloned(),
        }
    }
}

/// One required claim `{host}-{pool}` and the address it has once the pool is filled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    pub namespace: String,
    pub host: String,
    pub pool: String,
    /// Canonical text, as the entry holds it (or is written).
    pub address: String,
    pub status: Status,
    /// The network the pool is on (SPEC §10), if any.
    pub network: Option<String>,
}

/// Where a row's address comes from (SPEC §5's precedence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// An existing entry: kept, never moved.
    Kept,
    /// A pin annotation `ipreuse.dev/ip.{pool}` on the host: a new entry.
    Pinned,
    /// The address the claim holds now (`status.indexes`, or adopted from an export): a new entry.
    Live,
    /// Chosen by the strategy: a new entry.
    New,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Kept => "kept",
            Status::Pinned => "pinned",
            Status::Live => "live",
            Status::New => "new",
        }
    }
}

/// What the edits of allocation change in one item: entries of `spec.preAllocations` added,
/// rewritten (canonical text) and removed (prune), and any other change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: usize,
    pub rewritten: usize,
    pub removed: usize,
    pub other: usize,
}

impl Changes {
    /// The changes `edits` (as [`allocate`] returns them) make, per item: what fill would
    /// write, counted from the very edits it writes (check mode reports them).
    pub fn per_item(edits: &[ItemEdit]) -> BTreeMap<ItemId, Changes> {
        let mut out: BTreeMap<ItemId, Changes> = BTreeMap::new();
        let pre = pool_view::PoolView::pre_path();
        for ItemEdit { item, edit } in edits {
            let c = out.entry(*item).or_default();
            match edit {
                Edit::AddEntries { path, entries } if *path == pre => c.added += entries.len(),
                Edit::RemoveEntry { path, .. } if *path == pre => c.removed += 1,
                Edit::SetScalar { path, .. }
                    if path.len() == pre.len() + 1 && path.starts_with(&pre) =>
                {
                    c.rewritten += 1
                }
                _ => c.other += 1,
            }
        }
        out
    }

    /// `add 3, rewrite 1 and remove 2 entries of spec.preAllocations` (the parts that are not 0).
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (n, verb) in [
            (self.added, "add"),
            (self.rewritten, "rewrite"),
            (self.removed, "remove"),
        ] {
            if n > 0 {
                parts.push(format!("{verb} {n}"));
            }
        }
        let entries = self.added + self.rewritten + self.removed;
        let mut text = match parts.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        };
        if entries > 0 {
            let noun = if entries == 1 { "entry" } else { "entries" };
            text.push_str(&format!(" {noun} of spec.preAllocations"));
        }
        if self.other > 0 {
            if !text.is_empty() {
                text.push_str(" and ");
            }
            text.push_str(&format!("make {} other change(s)", self.other));
        }
        text
    }
}

/// Computes the edits that fill the managed pools; warnings and errors go to `findings`.
/// `values` are the items as [`Index::objects`] numbers them: adoption ([`crate::adopt`]) reads
/// the live objects among them.
pub fn allocate(
    idx: &Index,
    values: &[Value],
    plan: &Plan,
    cfg: &Config,
    findings: &mut Vec<Finding>,
) -> Allocation {
    let adoption = crate::adopt::adopt(idx, values, &plan.managed, findings);
    let Some(mut ctx) = context::Context::build(idx, plan, cfg, adoption, findings) else {
        return Allocation::default();
    };
    let mut edits = Vec::new();
    let rank = rank::Rank::of(idx);
    for &p in &plan.managed {
        fill::fill_pool(&mut ctx, &rank, p, findings, &mut edits);
    }
    ctx.check_cross_pool(findings);
    ctx.check_cross_network(findings);
    warn_pins_without_pool(&ctx, findings);
    Allocation {
        edits,
        networks: ctx.networks.names(),
        summaries: ctx.summaries,
        rows: ctx.rows,
    }
}

/// A pin for a pool that is not managed in the host's namespace is only a warning.
fn warn_pins_without_pool(ctx: &context::Context, findings: &mut Vec<Finding>) {
    let managed: crate::FastSet<(&str, &str)> = ctx
        .plan
        .managed
        .iter()
        .map(|&p| {
            (
                ctx.idx.pools[p].object.namespace.as_str(),
                ctx.idx.pools[p].name(),
            )
        })
        .collect();
    for host in &ctx.idx.hosts {
        for pool in host.pins.keys() {
            if !managed.contains(&(host.object.namespace.as_str(), pool.as_str())) {
                findings.push(
                    Finding::warning(format!(
                        "pin for IPPool {pool:?}, which is not a managed pool of namespace {:?}; the pin is not used",
                        host.object.namespace
                    ))
                    .on(host.object.resource_ref())
                    .at(crate::results::key_path(
                        "metadata.annotations",
                        &format!("{}{pool}", crate::model::host::PIN_PREFIX),
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{Seg, WriteStyle};

    #[test]
    fn changes_are_counted_per_item_and_described() {
        let pre = || vec![Seg::key("spec"), Seg::key("preAllocations")];
        let mut key = pre();
        key.push(Seg::key("a-pool"));
        let edits = vec![
            ItemEdit::new(
                ItemId(1),
                Edit::AddEntries {
                    path: pre(),
                    entries: vec![("b".into(), "1".into()), ("c".into(), "2".into())],
                },
            ),
            ItemEdit::new(
                ItemId(1),
                Edit::RemoveEntry {
                    path: pre(),
                    key: "x".into(),
                },
            ),
            ItemEdit::new(
                ItemId(1),
                Edit::SetScalar {
                    path: key,
                    value: "::1".into(),
                    style: WriteStyle::DoubleQuoted,
                },
            ),
            ItemEdit::new(
                ItemId(2),
                Edit::RemoveEntry {
                    path: pre(),
                    key: "y".into(),
                },
            ),
            ItemEdit::new(
                ItemId(3),
                Edit::SetScalar {
                    path: vec![Seg::key("spec"), Seg::key("gateway")],
                    value: "x".into(),
                    style: WriteStyle::DoubleQuoted,
                },
            ),
        ];
        let c = Changes::per_item(&edits);
        let want = |added, rewritten, removed, other| Changes {
            added,
            rewritten,
            removed,
            other,
        };
        assert_eq!(c[&ItemId(1)], want(2, 1, 1, 0));
        assert_eq!(c[&ItemId(2)], want(0, 0, 1, 0));
        assert_eq!(c[&ItemId(3)], want(0, 0, 0, 1));
        assert_eq!(
            c[&ItemId(1)].describe(),
            "add 2, rewrite 1 and remove 1 entries of spec.preAllocations"
        );
        assert_eq!(
            c[&ItemId(2)].describe(),
            "remove 1 entry of spec.preAllocations"
        );
        assert_eq!(c[&ItemId(3)].describe(), "make 1 other change(s)");
        assert_eq!(
            want(1, 0, 0, 2).describe(),
            "add 1 entry of spec.preAllocations and make 2 other change(s)"
        );
    }
}
