//! The addresses a new entry of one pool may not take (SPEC §5 "Reserved" and "Taken").

use std::collections::HashMap;

use super::context::{Context, Pin};
use crate::ipam::{Addr, IntervalSet};
use crate::results::Finding;

/// The addresses a new entry of one pool may not take, and how many hold each.
pub struct Blocked {
    /// Reserved by rules 1–4 (an error on a host's entry or pin).
    pub reserved: IntervalSet,
    /// Reserved ∪ taken: what the strategy skips.
    pub all: IntervalSet,
    /// How many holders each taken address has (entries, live claims, pins, other pools).
    pub taken: HashMap<u128, u32>,
}

impl Blocked {
    /// Marks `a` as held by one more holder.
    pub fn take(&mut self, a: Addr) {
        *self.taken.entry(a.value()).or_default() += 1;
        self.all.insert_addr(a);
    }

    /// Whether anything but one holder (the claim asking) holds `a`.
    pub fn held_by_others(&self, a: Addr) -> bool {
        self.taken.get(&a.value()).copied().unwrap_or(0) > 1
    }

    /// Reserved and taken addresses for pool `p`: rules 1–4; this pool's entries, live claims
    /// and pins; and every overlapping pool's entries (with those added by this run), live
    /// claims, pins and gateways / DNS servers (with a warning per overlap).
    pub fn for_pool(ctx: &Context, p: usize, pins: &[Pin], findings: &mut Vec<Finding>) -> Blocked {
        let idx = ctx.idx;
        let pool = &idx.pools[p];
        let ns = pool.object.namespace.as_str();
        let rref = pool.object.resource_ref();
        let Some(st) = ctx.pools.get(&p) else {
            return Blocked {
                reserved: IntervalSet::new(),
                all: IntervalSet::new(),
                taken: HashMap::new(),
            };
        };
        // Reserved: rules 1–4.
        let mut reserved = st.rule1.clone();
        reserved.extend(&st.ipam.reserved_rule2());
        reserved.extend(&ctx.reserve);
        if let Some(e) = ctx.endpoints.get(ns) {
            reserved.extend(e);
        }
        let mut blocked = Blocked {
            all: reserved.clone(),
            reserved,
            taken: HashMap::new(),
        };
        // Taken: this pool's entries, live claims, pins; then overlapping pools'.
        for e in &st.existing {
            if let Some(a) = e.addr {
                blocked.take(a);
            }
        }
        for a in st.indexes.values() {
            blocked.take(*a);
        }
        for pin in pins {
            blocked.take(pin.addr);
        }
        for q in ctx.overlapping(p) {
            let other = &ctx.pools[&q];
            let qpool = &idx.pools[q];
            findings.push(
                Finding::warning(format!(
                    "This pool overlaps IPPool {ns}/{}: addresses either pool holds are kept out of the other",
                    qpool.name()
                ))
                .on(rref.clone())
                .at("spec.pools"),
            );
            for a in other
                .existing
                .iter()
                .filter_map(|e| e.addr)
                .chain(other.added.iter().map(|(_, a)| *a))
            {
                blocked.take(a);
            }
            for a in other.indexes.values() {
                blocked.take(*a);
            }
            if let Some(qp) = ctx.pins.get(&(ns.to_string(), qpool.name().to_string())) {
                for pin in qp {
                    blocked.take(pin.addr);
                }
            }
            for (lo, hi) in other.rule1.ranges() {
                // Gateways and DNS servers: a handful of single addresses.
                for v in lo..=hi {
                    blocked.take(Addr::from_value(v));
                }
            }
        }
        blocked
    }
}
