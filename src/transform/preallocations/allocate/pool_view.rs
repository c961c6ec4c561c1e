//! One pool as allocation sees it while filling it: names, live claims, and the checks SPEC §5
//! "Validation" applies to an address that a host's entry or pin holds.

use crate::FastMap;

use super::context::Context;
use super::state::{PinSource, PoolState};
use crate::ipam::{self, Addr};
use crate::model::host::PIN_PREFIX;
use crate::model::pool::Pool;
use crate::model::{HostId, ItemId, PoolId};
use crate::names::{claim_name, short};
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

    /// Why an address is reserved for this pool (rules 1–4), if it is: which rule, and which
    /// field or object says so.
    pub fn reserved_reason(&self, a: Addr) -> Option<String> {
        let ip = &self.st.ipam;
        if self.st.rule1.contains_addr(a) {
            let field = if ip.gateway() == Some(a) {
                "the gateway of the pool (spec.gateway)".to_string()
            } else if ip.dns_servers().contains(&a) {
                "a DNS server of the pool (spec.dnsServers)".to_string()
            } else {
                ip.entries()
                    .iter()
                    .enumerate()
                    .find_map(|(i, e)| {
                        if e.gateway == Some(a) {
                            Some(format!("the gateway of spec.pools[{i}]"))
                        } else if e.dns_servers.contains(&a) {
                            Some(format!("a DNS server of spec.pools[{i}] (dnsServers)"))
                        } else {
                            None
                        }
                    })
                    .unwrap_or_else(|| "a gateway or DNS server of the pool".into())
            };
            Some(format!("reserved: {field}"))
        } else if ip.is_reserved_rule2(a) {
            Some(match ip.entry_of(a) {
                Some(i) => format!(
                    "reserved: the network or broadcast address of spec.pools[{i}] (of its \
                     subnet, or of its {} prefix)",
                    ip.effective_prefix(i)
                        .map_or("effective".to_string(), |p| format!("/{p}"))
                ),
                None => "reserved: the network or broadcast address of its subnet".into(),
            })
        } else if self.ctx.reserve.contains_addr(a) {
            let i = self
                .ctx
                .cfg
                .reserve
                .iter()
                .position(|r| r.first <= a && a <= r.last);
            Some(format!(
                "reserved: in {} of the ipreuse config",
                self.ctx.cfg.source.path("reserve", i)
            ))
        } else if let Some(o) = self.endpoint_of(self.ns, a) {
            Some(format!(
                "reserved: the control-plane endpoint of {o} in the pool's namespace"
            ))
        } else {
            // SPEC §10: the endpoints of every namespace on the pool's network.
            let net = self.ctx.networks.of(self.pool_id)?;
            let (ns, o) = net
                .namespaces
                .iter()
                .find_map(|ns| Some((ns, self.endpoint_of(ns, a)?)))?;
            Some(format!(
                "reserved: the control-plane endpoint of {o} in namespace {}, on network {} with this pool",
                short(ns),
                net.name
            ))
        }
    }

    /// The Cluster or Metal3Cluster of namespace `ns` whose control-plane endpoint is `a`
    /// (the first in byte order of its display name), for messages.
    fn endpoint_of(&self, ns: &str, a: Addr) -> Option<String> {
        let idx = self.ctx.idx;
        idx.endpoints
            .get(ns)?
            .iter()
            .filter(|(text, _)| ipam::parse_addr(text).is_ok_and(|p| p.addr() == a))
            .map(|(_, item)| {
                idx.objects
                    .get(item.0)
                    .and_then(|o| o.as_ref())
                    .map_or_else(|| "a Cluster".to_string(), |o| o.display())
            })
            .min()
    }

    /// Who holds `a`, for messages, other than `asking` (the host whose claim looks at it): an
    /// entry, live claim or pin of this pool, or an entry, live claim, pin, gateway or DNS
    /// server, or entry added by this run, of another pool of SPEC §5 and §10 (overlapping in
    /// the namespace, or on the network), which and where. Deterministic: the first holder in
    /// byte order of (namespace, pool, key).
    pub fn holder(&self, a: Addr, asking: Option<HostId>) -> String {
        let ctx = self.ctx;
        let asking_claim = asking.map(|h| claim_name(ctx.idx.hosts[h].name(), self.name));
        let mine = |q: PoolId, key: &str| {
            q == self.pool_id
                && (asking_claim.as_deref() == Some(key)
                    || (asking.is_some() && ctx.live_host(q, key) == asking))
        };
        let mut pools = vec![self.pool_id];
        pools.extend(ctx.related_pools(self.pool_id));
        for q in pools {
            let Some(st) = ctx.pools.get(&q) else {
                continue;
            };
            let pool = &ctx.idx.pools[q];
            let label = if q == self.pool_id {
                "this pool".to_string()
            } else {
                ctx.pool_label(q)
            };
            let entry = st
                .existing
                .iter()
                .filter(|e| e.addr == Some(a) && !mine(q, &e.key))
                .map(|e| e.key.as_str())
                .min();
            if let Some(key) = entry {
                return format!("entry {} of {label}", short(key));
            }
            let live = st
                .indexes
                .iter()
                .filter(|(c, b)| **b == a && !mine(q, c))
                .map(|(c, _)| c.as_str())
                .min();
            if let Some(claim) = live {
                let (_, _, shown) = ctx.live_place(q, claim);
                let whose = ctx.live_host(q, claim).map_or(String::new(), |h| {
                    format!(" of host {}", short(ctx.idx.hosts[h].name()))
                });
                return format!("live claim {}{whose} in {label} ({shown})", short(claim));
            }
            let pins = ctx
                .pins
                .get(&(pool.object.namespace.clone(), pool.name().to_string()))
                .map_or(&[][..], Vec::as_slice);
            let pin = pins
                .iter()
                .filter(|pin| pin.addr == a && !(q == self.pool_id && Some(pin.host) == asking))
                .map(|pin| {
                    let host = short(ctx.idx.hosts[pin.host].name()).into_owned();
                    match &pin.source {
                        PinSource::Annotation => format!(
                            "pin {PIN_PREFIX}{} of BareMetalHost {host} (for {label})",
                            short(pool.name())
                        ),
                        PinSource::Adopted(ad) => {
                            format!("the live address of host {host} in {label} ({})", ad.chain)
                        }
                    }
                })
                .min();
            if let Some(pin) = pin {
                return pin;
            }
            if q == self.pool_id {
                continue;
            }
            if st.rule1.contains_addr(a) {
                return format!("a gateway or DNS server of {label}");
            }
            let added = st
                .added
                .iter()
                .filter(|(_, b, _)| *b == a)
                .map(|(h, _, _)| claim_name(ctx.idx.hosts[*h].name(), pool.name()))
                .min();
            if let Some(claim) = added {
                return format!("entry {} that this run adds to {label}", short(&claim));
            }
        }
        "an entry, pin or live claim of another pool".into()
    }

    /// SPEC §5 "Validation" for an address that claim `claim` of a host of the input gets from
    /// an entry or a pin: not reserved (error), not live for another host's claim (error) or
    /// for another claim (warning), in this pool or in any other pool of SPEC §5 and §10
    /// (overlapping in the namespace, or on the network): both claims would hold it at once.
    /// A live claim that adoption followed to this very host (its legacy
    /// `{metal3data}-{pool}` claim) is the host's own; one followed to another host is that
    /// host's. Results go on `on` at `field`.
    pub fn check_host_address(
        &self,
        a: Addr,
        claim: &str,
        what: &str,
        (on, field): (&ResourceRef, &str),
        findings: &mut Vec<Finding>,
    ) {
        let text = a.to_string();
        if let Some(reason) = self.reserved_reason(a) {
            findings.push(
                Finding::error(format!(
                    "{what} {claim}: {text} is {reason}; choose another address"
                ))
                .on(on.clone())
                .at(field),
            );
        }
        let ctx = self.ctx;
        let own = ctx.host_of_key(self.ns, self.name, claim);
        let here = self
            .live_by_addr
            .get(&a.value())
            .into_iter()
            .flatten()
            .map(|c| (self.pool_id, *c));
        let elsewhere = ctx.live_elsewhere(self.pool_id, a);
        for (q, holder) in here.chain(elsewhere) {
            let held_for = ctx.live_host(q, holder);
            if (q == self.pool_id && holder == claim) || (held_for.is_some() && held_for == own) {
                continue;
            }
            // Labels are made only for a result: this runs for every entry of every host.
            let (_, _, shown) = ctx.live_place(q, holder);
            let (label, this) = (ctx.pool_label(q), ctx.pool_label(self.pool_id));
            let host = own.map_or_else(
                || "the host".to_string(),
                |h| format!("host {}", short(ctx.idx.hosts[h].name())),
            );
            let finding = match held_for {
                Some(other) => Finding::error(format!(
                    "{what} {claim}: {text} is in use by claim {} of host {}: choose another address. \
                     That claim holds it in {label} ({shown}), while this gives it to {host} in {this}: \
                     both claims would hold it at once",
                    short(holder),
                    short(ctx.idx.hosts[other].name()),
                )),
                None if q == self.pool_id => Finding::warning(format!(
                    "{what} {claim}: {text} is in use by claim {}, a claim of no host of the input: \
                     {host} gets it once that claim is gone. That claim holds it in {label} ({shown})",
                    short(holder)
                )),
                None => Finding::warning(format!(
                    "{what} {claim}: {text} is in use by claim {}, a claim of no host of the input: \
                     remove that claim before {host} is provisioned. That claim holds it in {label} \
                     ({shown}); the IPAMs of the two pools do not see each other's claims",
                    short(holder)
                )),
            };
            findings.push(finding.on(on.clone()).at(field));
        }
    }
}
