//! Adoption: the addresses a cluster uses now, pinned to the hosts that hold them.
//!
//! Input exported from a live cluster says, for every address in use in a managed pool, which
//! claim holds it; CAPM3's and the IPAM's objects lead from that claim to its host (docs/behaviour.md,
//! "What Metal3 does"):
//!
//! ```text
//! IPAddress (spec.address, spec.claim.name, spec.pool.name), or the pool's status.indexes
//!   → IPClaim of that name        → its owner of kind Metal3Data
//!       (no IPClaim: a legacy name {metal3data}-{pool} whose Metal3Data is in the input)
//!   → Metal3Data                  → spec.claim.name
//!   → Metal3DataClaim             → its owner of kind Metal3Machine
//!       (no Metal3DataClaim: the Metal3Machine of the same name)
//!   → Metal3Machine               → annotation metal3.io/BareMetalHost: {namespace}/{name}
//!       (no annotation: the BareMetalHost whose spec.consumerRef names the Metal3Machine)
//!   → BareMetalHost of the input, in the pool's namespace
//! ```
//!
//! Owners are found by kind and group (any version), never by position or uid. Neither a
//! Metal3Machine's `status.addresses` nor a host's `status.hardware` is read: those are
//! addresses seen at inspection, not the IPAM's.
//!
//! What is in use: the pool's IPAddress objects, and its `status.indexes` (claim → address).
//! When both speak of one claim and disagree, the IPAddress wins, with a warning (the status is
//! rebuilt from the IPAddresses and is stale while the pool is paused). A claim is followed only
//! when the input attests it: an IPAddress names it, an IPClaim of that name is in the input, or
//! it has a legacy name whose Metal3Data is in the input. Any other claim of `status.indexes` is
//! left to allocation as it always was (SPEC §5 step 3).
//!
//! Every followed claim whose chain reaches a host becomes an [`Adopted`] pin
//! `{host}-{pool}: {address}`, which allocation treats as a pin (SPEC §5 step 2). A chain that
//! breaks is a warning naming the chain up to the break and what is missing; its address stays
//! taken (it is in use), and no host is given it from here. Two claims that lead to one host and
//! pool with different addresses are an error naming both. Nothing here touches text, and the
//! result does not depend on the order of the items.

#[cfg(test)]
mod tests;

use crate::{FastMap, FastSet};
use std::collections::BTreeMap;

use crate::ipam::{self, Addr};
use crate::model::host::read_consumer;
use crate::model::ip_claim::CAPM3_GROUP;
use crate::model::metal3_machine::{HOST_ANNOTATION, Metal3Machine};
use crate::model::objects::{Objects, Part, Read};
use crate::model::owners::{self, Owner};
use crate::model::{HostId, Index, ItemId, Model, Object, PoolId};
use crate::names::{list_some, short};
use crate::results::{Finding, ResourceRef, key_path};

/// The API group of IPClaims and IPAddresses.
const IPAM_GROUP: &str = "ipam.metal3.io";

/// What adoption found.
#[derive(Debug, Default)]
pub struct Adoption {
    /// What is live in each managed pool beyond its `status.indexes` (by pool index).
    pub pools: BTreeMap<PoolId, PoolLive>,
    /// The pins, in byte order of (namespace, pool, claim).
    pub pins: Vec<Adopted>,
    /// An error was reported: the pins must not be used.
    pub failed: bool,
}

/// The live claims of one managed pool, as adoption read them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PoolLive {
    /// The claims the pool's IPAddress objects show in use, with their addresses: with
    /// `status.indexes` (which they override) the pool's live claims.
    pub in_use: BTreeMap<String, Addr>,
    /// The IPAddress that shows each claim of `in_use` (where results about it go).
    pub shown_by: BTreeMap<String, ResourceRef>,
    /// The live claims whose chain leads to a host of the input: claim → host (an index into
    /// [`Index::hosts`]). A legacy `{metal3data}-{pool}` claim listed here is that host's own.
    pub holders: BTreeMap<String, HostId>,
}

/// A live address pinned to the host that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adopted {
    /// The pool (an index into [`Index::pools`]).
    pub pool: PoolId,
    /// The host (an index into [`Index::hosts`]).
    pub host: HostId,
    pub addr: Addr,
    /// The live claim that holds the address (`{metal3data}-{pool}` or `{host}-{pool}`).
    pub claim: String,
    /// How the host was found: `IPAddress a → IPClaim c → Metal3Data d → Metal3DataClaim m →
    /// Metal3Machine m → BareMetalHost h`.
    pub chain: String,
    /// Where results about the pin go: the IPAddress (at `spec.address`), or the pool (at
    /// `status.indexes.<claim>`).
    pub on: ResourceRef,
    pub field: String,
}

/// Follows every live claim of the managed pools (indexes into [`Index::pools`]) to its host,
/// through the objects of `model`. Warnings and errors go to `findings`: the results of reading
/// an object on a chain are reported the first time a chain reaches it.
pub fn adopt(model: &Model, managed: &[PoolId], findings: &mut Vec<Finding>) -> Adoption {
    let idx = &model.index;
    let mut out = Adoption::default();
    if managed.is_empty() {
        return out;
    }
    let mut input = Input::new(model);
    let mut live = Live::default();
    live.read_ip_addresses(model, managed, findings, &mut out.failed);
    live.read_indexes(idx, managed, &mut input, findings);
    let mut found: BTreeMap<(PoolId, HostId), Vec<Adopted>> = BTreeMap::new();
    for (&p, claims) in &live.claims {
        let pool = &idx.pools[p];
        let entry = out.pools.entry(p).or_default();
        for (claim, l) in claims {
            if let Some(o) = l.origin {
                entry.in_use.insert(claim.clone(), l.addr);
                entry.shown_by.insert(claim.clone(), o.resource_ref());
            }
            let (on, field, first) = match &l.origin {
                Some(a) => (
                    a.resource_ref(),
                    "spec.address".to_string(),
                    format!("IPAddress {}", short(&a.name)),
                ),
                None => (
                    pool.object.resource_ref(),
                    key_path("status.indexes", claim),
                    format!("status.indexes of IPPool {}", short(pool.name())),
                ),
            };
            let mut chain = vec![first];
            let ns = pool.object.namespace.as_str();
            match input.follow(ns, pool.name(), claim, &mut chain, findings) {
                Ok(host) => {
                    entry.holders.insert(claim.clone(), host);
                    found.entry((p, host)).or_default().push(Adopted {
                        pool: p,
                        host,
                        addr: l.addr,
                        claim: claim.clone(),
                        chain: chain.join(" → "),
                        on,
                        field,
                    });
                }
                Err(Break::Reported) => {}
                Err(Break::Missing(why)) => {
                    let field = match &l.origin {
                        Some(_) => "spec.claim.name".to_string(),
                        None => field,
                    };
                    findings.push(
                        Finding::warning(format!(
                            "claim {} holds {} in IPPool {}, but its host is not found: if it is a \
                             host's, add what is missing to the export. {} breaks: {why}. The address \
                             stays taken, and no host is given it",
                            short(claim),
                            l.addr,
                            short(pool.name()),
                            chain.join(" → "),
                        ))
                        .on(on)
                        .at(field),
                    );
                }
            }
        }
    }
    for ((p, h), pins) in found {
        let Some((first, rest)) = pins.split_first() else {
            continue;
        };
        for other in rest.iter().filter(|o| o.addr != first.addr) {
            out.failed = true;
            findings.push(
                Finding::error(format!(
                    "claims {} and {} of IPPool {} both lead to BareMetalHost {}: delete the stale one \
                     in the cluster, or take it out of the export. They hold {} and {}; a host holds \
                     one address per pool, so one of the claims is stale: {} and {}",
                    short(&first.claim),
                    short(&other.claim),
                    short(idx.pools[p].name()),
                    short(idx.hosts[h].name()),
                    first.addr,
                    other.addr,
                    first.chain,
                    other.chain
                ))
                .on(other.on.clone())
                .at(other.field.clone()),
            );
        }
        out.pins.push(first.clone());
    }
    // In byte order of (namespace, pool, claim): positions in the input decide nothing.
    let key = |a: &Adopted| {
        let o = &idx.pools[a.pool].object;
        (o.namespace.clone(), o.name.clone(), a.claim.clone())
    };
    out.pins.sort_by_cached_key(key);
    out
}

/// One live claim of a pool.
struct LiveClaim<'a> {
    addr: Addr,
    /// The IPAddress that shows it; `None`: `status.indexes`.
    origin: Option<&'a Object>,
}

/// The live claims adoption follows, by pool and claim name.
#[derive(Default)]
struct Live<'a> {
    claims: BTreeMap<PoolId, BTreeMap<String, LiveClaim<'a>>>,
}

impl<'a> Live<'a> {
    /// The IPAddress objects of the managed pools, in order of (namespace, name).
    fn read_ip_addresses(
        &mut self,
        model: &'a Model,
        managed: &[PoolId],
        findings: &mut Vec<Finding>,
        failed: &mut bool,
    ) {
        let idx = &model.index;
        let pools: FastMap<(&str, &str), PoolId> = managed
            .iter()
            .map(|&p| {
                let o = &idx.pools[p].object;
                ((o.namespace.as_str(), o.name.as_str()), p)
            })
            .collect();
        let mut addresses: Vec<&Object> = idx
            .readable()
            .filter(|o| o.is(IPAM_GROUP, "IPAddress"))
            .collect();
        addresses.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        for o in addresses {
            let Some(a) = model
                .ip_addresses
                .get(o.index)
                .and_then(|read| read.report(findings))
            else {
                continue;
            };
            let Some(pool) = &a.pool else {
                findings.push(
                    Finding::warning(
                        "this IPAddress names no pool, so it is not read: export it again, since the \
                         IPAM always writes one",
                    )
                    .on(o.resource_ref())
                    .at("spec.pool.name"),
                );
                continue;
            };
            let Some(&p) = pools.get(&(o.namespace.as_str(), pool.as_str())) else {
                // Not a managed pool of this namespace: nothing to adopt.
                continue;
            };
            let (Some(text), Some(claim)) = (&a.address, &a.claim) else {
                let field = if a.address.is_none() {
                    "spec.address"
                } else {
                    "spec.claim.name"
                };
                findings.push(
                    Finding::warning(format!(
                        "this IPAddress has no {field}, so it is not read: export it again, since the \
                         IPAM always writes one"
                    ))
                    .on(o.resource_ref())
                    .at(field),
                );
                continue;
            };
            let addr = match ipam::parse_addr(text) {
                Ok(parsed) => parsed.addr(),
                Err(e) => {
                    *failed = true;
                    findings.push(
                        Finding::error(format!("{:?} is not a valid address: {e}", short(text)))
                            .on(o.resource_ref())
                            .at("spec.address"),
                    );
                    continue;
                }
            };
            let claims = self.claims.entry(p).or_default();
            match claims.get(claim.as_str()) {
                Some(first) if first.addr != addr => {
                    *failed = true;
                    let first_name = first.origin.map_or_else(String::new, |f| f.name.clone());
                    findings.push(
                        Finding::error(format!(
                            "IPAddress {} and {} both give claim {} an address ({} and {}); the IPAM makes \
                             one per claim: export the IPAddresses again",
                            short(&first_name),
                            short(&o.name),
                            short(claim),
                            first.addr,
                            addr
                        ))
                        .on(o.resource_ref())
                        .at("spec.address"),
                    );
                }
                Some(_) => {}
                None => {
                    claims.insert(
                        claim.clone(),
                        LiveClaim {
                            addr,
                            origin: Some(o),
                        },
                    );
                }
            }
        }
    }

    /// The `status.indexes` of the managed pools: a claim an IPAddress already shows is checked
    /// against it; any other claim is followed only when the input attests it.
    fn read_indexes(
        &mut self,
        idx: &Index,
        managed: &[PoolId],
        input: &mut Input,
        findings: &mut Vec<Finding>,
    ) {
        for &p in managed {
            let pool = &idx.pools[p];
            let ns = pool.object.namespace.as_str();
            let mut indexes: Vec<&(String, String)> = pool.indexes.iter().collect();
            indexes.sort();
            for (claim, text) in indexes {
                // A value that is not an address is an error of the pool already (SPEC §5 "In use").
                let Ok(parsed) = ipam::parse_addr(text) else {
                    continue;
                };
                let addr = parsed.addr();
                let claims = self.claims.entry(p).or_default();
                if let Some(l) = claims.get(claim.as_str()) {
                    if l.addr != addr {
                        findings.push(
                            Finding::warning(format!(
                                "status.indexes says claim {} holds {}, but IPAddress {} says {}: the IPAddress \
                                 is used (the IPAM rebuilds status.indexes from the IPAddresses; it is stale \
                                 while the pool is paused)",
                                short(claim),
                                addr,
                                short(l.origin.map_or("", |o| o.name.as_str())),
                                l.addr
                            ))
                            .on(pool.object.resource_ref())
                            .at(key_path("status.indexes", claim)),
                        );
                    }
                    continue;
                }
                if input.attests(ns, pool.name(), claim) {
                    claims.insert(claim.clone(), LiveClaim { addr, origin: None });
                }
            }
        }
    }
}

/// Where a chain stopped.
enum Break {
    /// A link is missing or does not lead on: what, in words.
    Missing(String),
    /// An object on the chain could not be read (an error or warning says so already).
    Reported,
}

/// An object looked up by namespace and name: absent, unreadable, or read.
enum Found<T> {
    Absent,
    Unreadable,
    Read(T),
}

/// The objects of one kind the model holds, found by namespace and name, each with the part a
/// chain follows: the results of reading that part are reported the first time a chain reaches
/// the object (so an object no chain reaches reports nothing, and one reached twice reports
/// once).
struct Kind<'a, T> {
    by_name: FastMap<(&'a str, &'a str), Link<'a, T>>,
    reported: FastSet<ItemId>,
}

/// One object of a [`Kind`]: the part a chain follows (`None`: it cannot be read), and the
/// results of reading it.
struct Link<'a, T> {
    item: ItemId,
    value: Option<&'a T>,
    findings: &'a [Finding],
}

impl<'a, T> Kind<'a, T> {
    /// The objects of kind `kind` in `group` among `idx`'s, with the part `part` of each as
    /// `objects` holds it.
    fn new<O>(
        idx: &'a Index,
        group: &str,
        kind: &str,
        objects: &'a Objects<O>,
        part: impl Fn(&'a Read<O>) -> (Option<&'a T>, &'a [Finding]),
    ) -> Self {
        Kind {
            by_name: idx
                .readable()
                .filter(|o| o.is(group, kind))
                .map(|o| {
                    let (value, findings) = objects.get(o.index).map_or((None, &[][..]), &part);
                    let link = Link {
                        item: o.index,
                        value,
                        findings,
                    };
                    ((o.namespace.as_str(), o.name.as_str()), link)
                })
                .collect(),
            reported: FastSet::default(),
        }
    }

    fn contains(&self, ns: &str, name: &str) -> bool {
        self.by_name.contains_key(&(ns, name))
    }

    fn get(&mut self, ns: &str, name: &str, findings: &mut Vec<Finding>) -> Found<&'a T> {
        let Some(link) = self.by_name.get(&(ns, name)) else {
            return Found::Absent;
        };
        if self.reported.insert(link.item) {
            findings.extend(link.findings.iter().cloned());
        }
        match link.value {
            Some(t) => Found::Read(t),
            None => Found::Unreadable,
        }
    }
}

/// An object's part a chain follows, with the results of reading it: a part of a read object
/// (`None` when the object was not read at all).
fn part_of<'a, O, T>(
    read: &'a Read<O>,
    part: impl Fn(&'a O) -> &'a Part<T>,
) -> (Option<&'a T>, &'a [Finding]) {
    match &read.value {
        Some(o) => {
            let p = part(o);
            (p.value.as_ref(), &p.findings)
        }
        None => (None, &read.findings),
    }
}

/// The objects of the input a chain goes through.
struct Input<'a> {
    idx: &'a Index,
    /// IPClaims: their Metal3Data owners.
    claims: Kind<'a, Vec<Owner>>,
    /// Metal3Data: `spec.claim.name`.
    data: Kind<'a, Option<String>>,
    /// Metal3DataClaims: their Metal3Machine owners.
    data_claims: Kind<'a, Vec<Owner>>,
    machines: Kind<'a, Metal3Machine>,
    /// Hosts by (namespace, name).
    hosts: FastMap<(&'a str, &'a str), HostId>,
    /// Hosts by the Metal3Machine their `spec.consumerRef` names, (namespace, name); read the
    /// first time a Metal3Machine without the annotation needs it.
    consumers: Option<FastMap<(String, String), Vec<HostId>>>,
}

impl<'a> Input<'a> {
    fn new(model: &'a Model) -> Self {
        let idx = &model.index;
        Input {
            idx,
            claims: Kind::new(idx, IPAM_GROUP, "IPClaim", &model.ip_claims, |r| {
                part_of(r, |c| &c.data_owners)
            }),
            data: Kind::new(idx, CAPM3_GROUP, "Metal3Data", &model.metal3_data, |r| {
                part_of(r, |d| &d.claim)
            }),
            data_claims: Kind::new(
                idx,
                CAPM3_GROUP,
                "Metal3DataClaim",
                &model.metal3_data_claims,
                |r| {
                    let owners = r.value.as_ref().map(|c| &c.machine_owners);
                    (owners, &r.findings[..])
                },
            ),
            machines: Kind::new(
                idx,
                CAPM3_GROUP,
                "Metal3Machine",
                &model.metal3_machines,
                |r| (r.value.as_ref(), &r.findings[..]),
            ),
            hosts: HostId::all(idx.hosts.len())
                .zip(&idx.hosts)
                .map(|(i, h)| ((h.object.namespace.as_str(), h.object.name.as_str()), i))
                .collect(),
            consumers: None,
        }
    }

    /// The Metal3Data a claim without an IPClaim object is named after: `{metal3data}-{pool}`.
    fn legacy_data<'c>(&self, ns: &str, pool: &str, claim: &'c str) -> Option<&'c str> {
        let data = claim.strip_suffix(pool)?.strip_suffix('-')?;
        self.data.contains(ns, data).then_some(data)
    }

    /// Whether the input attests a claim of `status.indexes`: an IPClaim of that name, or a
    /// legacy name whose Metal3Data is in the input.
    fn attests(&self, ns: &str, pool: &str, claim: &str) -> bool {
        self.claims.contains(ns, claim) || self.legacy_data(ns, pool, claim).is_some()
    }

    /// Follows claim `claim` of pool `pool` in `ns` to its host, pushing each link it passes
    /// on `chain`.
    fn follow(
        &mut self,
        ns: &str,
        pool: &str,
        claim: &str,
        chain: &mut Vec<String>,
        findings: &mut Vec<Finding>,
    ) -> Result<HostId, Break> {
        let missing = |what: String| Err(Break::Missing(what));
        let data = match self.claims.get(ns, claim, findings) {
            Found::Read(owners) => {
                chain.push(format!("IPClaim {}", short(claim)));
                match owners::the_one(owners) {
                    Ok(Some(o)) => o.name.clone(),
                    Ok(None) => {
                        return missing(format!(
                            "IPClaim {} has no owner of kind Metal3Data (group {CAPM3_GROUP})",
                            short(claim)
                        ));
                    }
                    Err(names) => {
                        return missing(format!(
                            "IPClaim {} has several Metal3Data owners ({}) and not one controller among them",
                            short(claim),
                            names_list(&names)
                        ));
                    }
                }
            }
            Found::Unreadable => return Err(Break::Reported),
            Found::Absent => match self.legacy_data(ns, pool, claim) {
                Some(data) => {
                    chain.push(format!("claim name {}", short(claim)));
                    data.to_string()
                }
                None => {
                    return missing(format!(
                        "no IPClaim {} in the input, and its name is not {{metal3data}}-{} for a \
                         Metal3Data of the input",
                        short(claim),
                        short(pool)
                    ));
                }
            },
        };
        let data_claim = match self.data.get(ns, &data, findings) {
            Found::Absent => {
                return missing(format!("Metal3Data {} is not in the input", short(&data)));
            }
            Found::Unreadable => return Err(Break::Reported),
            Found::Read(None) => {
                chain.push(format!("Metal3Data {}", short(&data)));
                return missing(format!(
                    "Metal3Data {} has no spec.claim.name",
                    short(&data)
                ));
            }
            Found::Read(Some(c)) => {
                chain.push(format!("Metal3Data {}", short(&data)));
                c.clone()
            }
        };
        let machine = match self.data_claims.get(ns, &data_claim, findings) {
            Found::Read(owners) => {
                chain.push(format!("Metal3DataClaim {}", short(&data_claim)));
                match owners::the_one(owners) {
                    Ok(Some(o)) => o.name.clone(),
                    Ok(None) => {
                        return missing(format!(
                            "Metal3DataClaim {} has no owner of kind Metal3Machine (group {CAPM3_GROUP})",
                            short(&data_claim)
                        ));
                    }
                    Err(names) => {
                        return missing(format!(
                            "Metal3DataClaim {} has several Metal3Machine owners ({}) and not one \
                             controller among them",
                            short(&data_claim),
                            names_list(&names)
                        ));
                    }
                }
            }
            Found::Unreadable => return Err(Break::Reported),
            // CAPM3 names a Metal3DataClaim after its Metal3Machine.
            Found::Absent => data_claim,
        };
        let m = match self.machines.get(ns, &machine, findings) {
            Found::Absent => {
                return missing(format!(
                    "Metal3Machine {} is not in the input",
                    short(&machine)
                ));
            }
            Found::Unreadable => return Err(Break::Reported),
            Found::Read(m) => m,
        };
        chain.push(format!("Metal3Machine {}", short(&machine)));
        let (host_ns, host) = match (&m.host, m.host_key()) {
            (_, Some((host_ns, host))) => (host_ns.to_string(), host.to_string()),
            (Some(text), None) => {
                return missing(format!(
                    "its annotation {HOST_ANNOTATION} is {:?}, not namespace/name",
                    short(text)
                ));
            }
            (None, None) => match self.consumers_of(ns, &machine, findings).as_slice() {
                [h] => {
                    let o = &self.idx.hosts[*h].object;
                    chain.push(format!(
                        "BareMetalHost {} (its spec.consumerRef)",
                        short(&o.name)
                    ));
                    return Ok(*h);
                }
                [] => {
                    return missing(format!(
                        "Metal3Machine {} has no {HOST_ANNOTATION} annotation, and no BareMetalHost of \
                         the input names it in spec.consumerRef",
                        short(&machine)
                    ));
                }
                several => {
                    let names: Vec<&str> =
                        several.iter().map(|h| self.idx.hosts[*h].name()).collect();
                    return missing(format!(
                        "Metal3Machine {} has no {HOST_ANNOTATION} annotation, and BareMetalHosts {} all \
                         name it in spec.consumerRef",
                        short(&machine),
                        names_list(&names)
                    ));
                }
            },
        };
        if host_ns != ns {
            chain.push(format!(
                "BareMetalHost {}/{}",
                short(&host_ns),
                short(&host)
            ));
            return missing(format!(
                "BareMetalHost {}/{} is not in namespace {}, the pool's: a host pairs only with pools \
                 of its own namespace",
                short(&host_ns),
                short(&host),
                short(ns)
            ));
        }
        match self.hosts.get(&(ns, host.as_str())) {
            Some(&h) => {
                chain.push(format!("BareMetalHost {}", short(&host)));
                Ok(h)
            }
            None => missing(format!(
                "BareMetalHost {} is not in the input",
                short(&host)
            )),
        }
    }

    /// The hosts of the input whose `spec.consumerRef` names Metal3Machine `ns/machine`, in
    /// natural name order. A consumerRef that cannot be read is an error on its host.
    fn consumers_of(
        &mut self,
        ns: &str,
        machine: &str,
        findings: &mut Vec<Finding>,
    ) -> Vec<HostId> {
        let idx = self.idx;
        let consumers = self.consumers.get_or_insert_with(|| {
            let mut by_machine: FastMap<(String, String), Vec<HostId>> = FastMap::default();
            for (i, h) in HostId::all(idx.hosts.len()).zip(&idx.hosts) {
                let Ok(Some(c)) = read_consumer(h, findings) else {
                    continue;
                };
                if c.kind.as_deref() != Some("Metal3Machine") {
                    continue;
                }
                let Some(name) = c.name else { continue };
                let namespace = c.namespace.unwrap_or_else(|| h.object.namespace.clone());
                by_machine.entry((namespace, name)).or_default().push(i);
            }
            for hosts in by_machine.values_mut() {
                hosts.sort_by(|a, b| {
                    crate::natural::compare(idx.hosts[*a].name(), idx.hosts[*b].name())
                });
            }
            by_machine
        });
        consumers
            .get(&(ns.to_string(), machine.to_string()))
            .cloned()
            .unwrap_or_default()
    }
}

/// `a, b and c` (names shortened, at most five shown).
fn names_list(names: &[&str]) -> String {
    list_some(names.iter().map(|n| short(n).into_owned()), 5)
}
