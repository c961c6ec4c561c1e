//! One pool as allocation sees it while filling it: names, live claims, and the checks SPEC §5
//! "Validation" applies to an address that a host's entry or pin holds.

use crate::FastMap;

use super::context::{Context, PoolState};
use crate::ipam::{self, Addr};
use crate::model::pool::Pool;
use crate::model::{ItemId, PoolId};
use crate::names::short;
use crate::results::{Finding, ResourceRef};
use crate::yaml::Seg;

/// Read-only facts about the pool being filled.
pub struct PoolView<'a> {
    pub ctx: &'a Context<'a>,
    pub st: &'a PoolState,
    pub pool: &'a Pool,
    pub ns: &'a str,
    pub name: &'a str,
    pub rref: ResourceRef,
    /// The pool's index.
    pub pool_id: PoolId,
    /// Live claims by address (sorted claim names), from `status.indexes` and the IPAddresses.
    live_by_addr: FastMap<u128, Vec<&'a str>>,
}

impl<'a> PoolView<'a> {
    pub fn new(ctx: &'a Context<'a>, p: PoolId) -> Option<Self> {
        let pool = &ctx.idx.pools[p];
        let st = ctx.pools.get(&p)?;
        let mut live_by_addr: FastMap<u128, Vec<&str>> = FastMap::default();
        for (claim, a) in &st.indexes {
            live_by_addr
                .entry(a.value())
                .or_default()
                .push(claim.as_str());
        }
        for v in live_by_addr.values_mut() {
            v.sort_unstable();
        }
        Some(PoolView {
            ctx,
            st,
            pool,
            ns: pool.object.namespace.as_str(),
            name: pool.name(),
            rref: pool.object.resource_ref(),
            pool_id: p,
            live_by_addr,
        })
    }

    /// The item index of the pool (where its edits go).
    pub fn item(&self) -> ItemId {
        self.pool.object.index
    }

    /// The path of `spec.preAllocations`.
    pub fn pre_path() -> Vec<Seg> {
        vec![Seg::key("spec"), Seg::key("preAllocations")]
    }

    /// Whether the entry key names a host of the input (`{host}-{pool}`).
    pub fn is_host_key(&self, key: &str) -> bool {
        self.ctx.host_of_key(self.ns, self.name, key).is_some()
    }

    /// The `x` of an entry keyed `{x}-{pool}` whose host is not in the namespace and whose claim
    /// is not live (SPEC §5 "Prune").
    pub fn stale_host<'k>(&self, key: &'k str) -> Option<&'k str> {
        key.strip_suffix(self.name)?
            .strip_suffix('-')
            .filter(|x| !x.is_empty())
            .filter(|x| !self.ctx.has_host(self.ns, x) && !self.st.indexes.contains_key(key))
    }

    /// Why an address is reserved for this pool (rules 1–4), if it is.
    pub fn reserved_reason(&self, a: Addr) -> Option<String> {
        if self.st.rule1.contains_addr(a) {
            Some("a gateway or DNS server of the pool".into())
        } else if self.st.ipam.is_reserved_rule2(a) {
            Some("the network or broadcast address of its subnet".into())
        } else if self.ctx.reserve.contains_addr(a) {
            Some(format!(
                "in {} of the ipreuse config",
                self.ctx.cfg.source.path("reserve", None)
            ))
        } else if self
            .ctx
            .endpoints
            .get(self.ns)
            .is_some_and(|e| e.contains_addr(a))
        {
            Some("a control-plane endpoint of a Cluster or Metal3Cluster in the namespace".into())
        } else {
            // SPEC §10: the endpoints of every namespace on the pool's network.
            let net = self.ctx.networks.of(self.pool_id)?;
            let ns = net.namespaces.iter().find(|ns| {
                self.ctx
                    .endpoints
                    .get(ns.as_str())
                    .is_some_and(|e| e.contains_addr(a))
            })?;
            Some(format!(
                "a control-plane endpoint of a Cluster or Metal3Cluster in namespace {}, on network {} with this pool",
                short(ns),
                net.name
            ))
        }
    }

    /// Who holds `a`, for messages: an entry or live claim of this pool, or another pool.
    pub fn holder(&self, a: Addr) -> String {
        if let Some(e) = self.st.existing.iter().find(|e| e.addr == Some(a)) {
            format!("entry {} holds it", short(&e.key))
        } else if let Some(claims) = self.live_by_addr.get(&a.value()) {
            format!("claim {} holds it (status.indexes)", short(claims[0]))
        } else if let Some(pin) = self
            .ctx
            .pins
            .get(&(self.ns.to_string(), self.name.to_string()))
            .and_then(|pins| pins.iter().find(|p| p.addr == a))
        {
            format!(
                "host {} is pinned to it",
                short(self.ctx.idx.hosts[pin.host].name())
            )
        } else {
            match self.ctx.networks.name_of(self.pool_id) {
                Some(n) => format!(
                    "an entry, pin or live claim of an overlapping IPPool, or of another IPPool of network {n}, holds it"
                ),
                None => "an entry, pin or live claim of an overlapping IPPool holds it".into(),
            }
        }
    }

    /// SPEC §5 "Validation" for an address that claim `claim` of a host of the input gets from
    /// an entry or a pin: not reserved (error), not live for another host's claim (error) or
    /// for another claim (warning). A live claim that adoption followed to this very host (its
    /// legacy `{metal3data}-{pool}` claim) is the host's own; one followed to another host is
    /// that host's. Results go on `on` at `field`.
    pub fn check_host_address(
        &self,
        a: Addr,
        claim: &str,
        what: &str,
        (on, field): (&ResourceRef, &str),
        findings: &mut Vec<Finding>,
    ) {
        let text = ipam::canonical(a.ip());
        if let Some(reason) = self.reserved_reason(a) {
            findings.push(
                Finding::error(format!(
                    "{what} {claim}: {text} is {reason}; choose another address"
                ))
                .on(on.clone())
                .at(field),
            );
        }
        let own = self.ctx.host_of_key(self.ns, self.name, claim);
        for holder in self.live_by_addr.get(&a.value()).into_iter().flatten() {
            let held_for = self.st.live.holders.get(*holder).copied();
            if *holder == claim || (held_for.is_some() && held_for == own) {
                continue;
            }
            let shown = if self.st.live.in_use.contains_key(*holder) {
                "an IPAddress"
            } else {
                "status.indexes"
            };
            let finding = if self.is_host_key(holder) || held_for.is_some() {
                Finding::error(format!(
                    "{what} {claim}: {text} is in use by claim {} of another host ({shown}); choose another address",
                    short(holder)
                ))
            } else {
                Finding::warning(format!(
                    "{what} {claim}: {text} is in use by claim {} ({shown}); the host gets it once that claim is gone",
                    short(holder)
                ))
            };
            findings.push(finding.on(on.clone()).at(field));
        }
    }
}
