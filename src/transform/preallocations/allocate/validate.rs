//! SPEC §5 "Validation": the pool's existing entries and the pins on its hosts.

use std::borrow::Cow;

use crate::{FastMap, FastSet};

use super::pool_view::PoolView;
use super::state::{Pin, PinSource};
use crate::edits::ItemEdit;
use crate::ipam::Addr;
use crate::model::HostId;
use crate::names::{claim_name, short};
use crate::results::Finding;
use crate::yaml::{Edit, Seg, WriteStyle};

/// The valid existing entries of a pool.
pub struct Entries<'a> {
    /// Entry key → address (entries whose text parses).
    pub by_key: FastMap<&'a str, Addr>,
    /// Address → the first key holding it.
    pub by_addr: FastMap<u128, &'a str>,
    /// How many entries were rewritten to canonical text.
    pub rewritten: usize,
}

/// Every entry must be a candidate and unique; a host's entry must also pass
/// [`PoolView::check_host_address`]. Non-canonical text is rewritten (an edit and a warning),
/// except on an entry that prune removes anyway.
pub fn existing<'a>(
    v: &PoolView<'a>,
    findings: &mut Vec<Finding>,
    edits: &mut Vec<ItemEdit>,
    changes: &mut super::EntryChanges,
) -> Entries<'a> {
    let mut out = Entries {
        by_key: FastMap::default(),
        by_addr: FastMap::default(),
        rewritten: 0,
    };
    for e in &v.st.existing {
        let Some(a) = e.addr else { continue };
        let field = crate::results::key_path("spec.preAllocations", &e.key);
        out.by_key.insert(e.key.as_str(), a);
        // The canonical text, formatted only when the entry is not written that way already.
        let text: Cow<str> = if e.canonical {
            Cow::Borrowed(&e.text)
        } else {
            Cow::Owned(a.to_string())
        };
        if !v.st.ipam.is_candidate(a) {
            findings.push(
                Finding::error(format!(
                    "entry {} = {text} is not an address this pool hands out: change it, or widen spec.pools. \
                     It is outside spec.pools, or past the last address the IPAM reaches; the claim \
                     would fail with \"Pre-allocated IP out of bounds\"",
                    short(&e.key)
                ))
                .on(v.rref.clone())
                .at(field.clone()),
            );
        }
        if let Some(first) = out.by_addr.insert(a.value(), e.key.as_str()) {
            // Keep the first holder as the one reported to later checks.
            out.by_addr.insert(a.value(), first);
            findings.push(
                Finding::error(format!(
                    "entries {} and {} both hold {text}: each address can be preallocated once",
                    short(first),
                    short(&e.key)
                ))
                .on(v.rref.clone())
                .at(field.clone()),
            );
        }
        if v.is_host_key(&e.key) {
            v.check_host_address(a, &e.key, "entry", (&v.rref, &field), findings);
        }
        let stale_pruned = v.ctx.cfg.prune && v.stale_host(&e.key).is_some();
        if !e.canonical && !stale_pruned {
            out.rewritten += 1;
            let host = v
                .ctx
                .host_of_key(v.ns, v.name, &e.key)
                .map_or_else(String::new, |h| {
                    format!(" (BareMetalHost {})", short(v.ctx.idx.hosts[h].name()))
                });
            changes.record(
                &v.rref,
                &e.key,
                Some(format!(
                    "entry {} is written {:?}; rewritten as {text:?} because the IPAM reserves preallocations by their exact text",
                    short(&e.key),
                    e.text
                )),
                "not written as the IPAM writes addresses",
                || format!(
                    "Fill would rewrite entry {}{host} of IPPool {}/{} from {:?} to {text:?} (the IPAM reserves preallocations by their exact text)",
                    short(&e.key),
                    short(v.ns),
                    short(v.name),
                    e.text
                ),
            );
            let mut path = PoolView::pre_path();
            path.push(Seg::key(&e.key));
            edits.push(ItemEdit::new(
                v.item(),
                Edit::SetScalar {
                    path,
                    value: text.into_owned(),
                    style: WriteStyle::DoubleQuoted,
                },
            ));
        }
    }
    out
}

/// Validates the pins of required pairs (the others are only warned about) and returns
/// host → pinned address for the required ones. A pin's results are on its annotation, an
/// adopted address's on what shows it in use, with the chain that led to its host.
pub fn pins(
    v: &PoolView,
    pins: &[Pin],
    required: &FastSet<HostId>,
    entries: &Entries,
    findings: &mut Vec<Finding>,
) -> FastMap<HostId, Addr> {
    let (ns, pname) = (v.ns, v.name);
    let mut pinned_by: FastMap<u128, Vec<HostId>> = FastMap::default();
    for pin in pins {
        pinned_by
            .entry(pin.addr.value())
            .or_default()
            .push(pin.host);
    }
    let mut pin_of = FastMap::default();
    for pin in pins {
        let host = &v.ctx.idx.hosts[pin.host];
        let (on, field) = pin.place(host, pname);
        let (what, from) = (pin.what(), pin.origin());
        let text = pin.addr.to_string();
        if !required.contains(&pin.host) {
            let message = match pin.source {
                PinSource::Annotation => format!(
                    "pin for IPPool {pname} is not needed (the mapping does not pair this host with the pool); \
                     it is not validated, but its address is kept out of the pool"
                ),
                PinSource::Adopted(_) => format!(
                    "{what} {text} is not needed: the mapping does not pair host {} with IPPool {pname}; \
                     it is not validated, but its address is kept out of the pool{from}",
                    short(host.name())
                ),
            };
            findings.push(Finding::warning(message).on(on).at(field));
            continue;
        }
        let claim = claim_name(host.name(), pname);
        let mut error = |message: String| {
            findings.push(Finding::error(message).on(on.clone()).at(field.clone()));
        };
        if !v.st.ipam.is_candidate(pin.addr) {
            error(format!(
                "{what} {text} is not an address IPPool {ns}/{pname} hands out{from}"
            ));
        }
        match entries.by_key.get(claim.as_str()) {
            Some(&locked) if locked != pin.addr => error(match pin.source {
                PinSource::Annotation => format!(
                    "pin {text} differs from the existing entry {claim} = {} in IPPool {ns}/{pname}; \
                     an existing entry is never moved: remove the pin or the entry",
                    locked
                ),
                PinSource::Adopted(_) => format!(
                    "{what} {text} differs from the existing entry {claim} = {}: remove the entry, or \
                     drop the claim from the input. Without the entry the host keeps {text}; without \
                     the claim it moves when it is re-provisioned; an existing entry is never \
                     moved{from}",
                    locked
                ),
            }),
            Some(_) => {}
            None => {
                if let Some(other) = entries.by_addr.get(&pin.addr.value()) {
                    error(format!(
                        "{what} {text} is already preallocated to {} in IPPool {ns}/{pname}{from}",
                        short(other)
                    ));
                }
            }
        }
        let mut others: Vec<&str> = pinned_by
            .get(&pin.addr.value())
            .into_iter()
            .flatten()
            .filter(|h| **h != pin.host)
            .map(|h| v.ctx.idx.hosts[*h].name())
            .collect();
        if !others.is_empty() {
            others.sort_unstable();
            others.dedup();
            error(format!(
                "{what} {text} for IPPool {ns}/{pname} is pinned by another host too: {}{from}",
                crate::names::list_some(others.iter().map(|o| short(o).into_owned()), 5)
            ));
        }
        let what = match pin.source {
            PinSource::Annotation => "pin for",
            PinSource::Adopted(_) => "adopted address for",
        };
        v.check_host_address(pin.addr, &claim, what, (&on, &field), findings);
        pin_of.insert(pin.host, pin.addr);
    }
    pin_of
}
