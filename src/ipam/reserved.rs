//! Reserved rules 1 and 2 of SPEC §5 (rules 3 and 4 come from config and other objects).

use super::addr::{Addr, Family};
use super::intervals::IntervalSet;
use super::pool::Pool;

/// Whether a `/prefix` network of `family` has a reserved network address
/// (IPv4 prefix ≤ 30, IPv6 prefix ≤ 126).
pub fn reserves_network(family: Family, prefix: u8) -> bool {
    match family {
        Family::V4 => prefix <= 30,
        Family::V6 => prefix <= 126,
    }
}

/// Whether a `/prefix` network of `family` has a reserved broadcast address (IPv4 prefix ≤ 30).
pub fn reserves_broadcast(family: Family, prefix: u8) -> bool {
    family == Family::V4 && prefix <= 30
}

/// Whether `a` is the reserved network or broadcast address of its `/prefix` network.
fn is_edge(a: Addr, prefix: u8) -> bool {
    let f = a.family();
    (reserves_network(f, prefix) && a == a.network(prefix))
        || (reserves_broadcast(f, prefix) && a == a.broadcast(prefix))
}

impl Pool {
    /// Rule 1: every `gateway` and `dnsServers` address, pool-level and entry-level.
    pub fn reserved_rule1(&self) -> IntervalSet {
        let pool = self.gateway.iter().chain(self.dns_servers.iter());
        let entries = self
            .entries
            .iter()
            .flat_map(|e| e.gateway.iter().chain(e.dns_servers.iter()));
        IntervalSet::from_ranges(pool.chain(entries).map(|a| (a.value(), a.value())))
    }

    /// Rule 2 for one address: `a` is a candidate and the network (or IPv4 broadcast)
    /// address of its entry's `subnet` or of the `/effective-prefix` network holding it.
    pub fn is_reserved_rule2(&self, a: Addr) -> bool {
        let Some(i) = self.entry_of(a) else {
            return false;
        };
        let by_subnet = self.entries.get(i).and_then(|e| e.subnet).is_some_and(|s| {
            let f = a.family();
            (reserves_network(f, s.prefix) && a == s.network())
                || (reserves_broadcast(f, s.prefix) && a == s.last())
        });
        by_subnet || self.effective_prefix(i).is_some_and(|p| is_edge(a, p))
    }

    /// Rule 2 for the whole pool, as a set (only candidates can be in it).
    ///
    /// Exact, never capped: the prefix networks are stepped through per candidate
    /// segment, and a network with a reserved address holds at least 4 addresses, while
    /// the candidates number at most `POSITION_LIMIT + 1`; so the work is at most about
    /// 2^18 networks plus two per segment, whatever the size of the pool's ranges.
    pub fn reserved_rule2(&self) -> IntervalSet {
        let mut out: Vec<(u128, u128)> = Vec::new();
        let mut push = |a: Addr| out.push((a.value(), a.value()));
        for s in self.segments() {
            let Some(e) = self.entries.get(s.entry) else {
                continue;
            };
            let f = e.family;
            let inside = |a: Addr| s.lo <= a && a <= s.hi;
            if let Some(sub) = e.subnet {
                if reserves_network(f, sub.prefix) && inside(sub.network()) {
                    push(sub.network());
                }
                if reserves_broadcast(f, sub.prefix) && inside(sub.last()) {
                    push(sub.last());
                }
            }
            let Some(p) = self.effective_prefix(s.entry) else {
                continue;
            };
            if !reserves_network(f, p) {
                continue;
            }
            let last_net = s.hi.network(p);
            let mut net = s.lo.network(p);
            loop {
                if net >= s.lo {
                    push(net);
                }
                let bcast = net.broadcast(p);
                if reserves_broadcast(f, p) && bcast <= s.hi {
                    push(bcast);
                }
                if net >= last_net {
                    break;
                }
                match bcast.value().checked_add(1) {
                    Some(v) => net = Addr::from_value(v),
                    None => break,
                }
            }
        }
        IntervalSet::from_ranges(out)
    }
}
