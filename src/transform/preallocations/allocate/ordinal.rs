//! The `ordinal` strategy (SPEC §5): host n takes the candidate at walk position
//! `ordinalOffset + n`, n being the host's `ipreuse.dev/ordinal` label, else the last run of
//! digits in its name. A position that is reserved, taken or not a candidate, a host without a
//! number, a bad label and two hosts with one n are errors, never a shift to another address:
//! a host's address is a function of the host and the pool alone, whichever other hosts exist.

use std::collections::BTreeMap;

use super::blocked::Blocked;
use super::pool_view::PoolView;
use crate::ipam::{self, Addr};
use crate::model::HostId;
use crate::model::host::Host;
use crate::names::short;
use crate::results::{Finding, key_path};

/// The label that gives a host its number.
pub const ORDINAL_LABEL: &str = "ipreuse.dev/ordinal";

/// Where a host's number comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Number {
    /// The `ipreuse.dev/ordinal` label.
    Label(u64),
    /// The last run of digits in the host's name.
    Name(u64),
}

impl Number {
    pub fn value(&self) -> u64 {
        match self {
            Number::Label(n) | Number::Name(n) => *n,
        }
    }

    fn source(&self) -> &'static str {
        match self {
            Number::Label(_) => "its label ipreuse.dev/ordinal",
            Number::Name(_) => "the last digits of its name",
        }
    }
}

/// A host's number, or why it has none (an error at the field the message names).
pub fn number(host: &Host) -> Result<Number, (String, String)> {
    if let Some(text) = host.labels.get(ORDINAL_LABEL) {
        let field = key_path("metadata.labels", ORDINAL_LABEL);
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err((
                field,
                format!(
                    "label {ORDINAL_LABEL} is {:?}, not a number: write the host's number in decimal digits",
                    short(text)
                ),
            ));
        }
        return text.parse::<u64>().map(Number::Label).map_err(|_| {
            (
                field,
                format!(
                    "label {ORDINAL_LABEL} is {:?}, too large a number",
                    short(text)
                ),
            )
        });
    }
    let name = host.name();
    let end = name.rfind(|c: char| c.is_ascii_digit()).map(|i| i + 1);
    let Some(end) = end else {
        return Err((
            "metadata.name".into(),
            format!(
                "the ordinal strategy needs a number for host {}: its name has no digits; label it \
                 {ORDINAL_LABEL}: \"<n>\"",
                short(name)
            ),
        ));
    };
    let start = name[..end]
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    name[start..end].parse::<u64>().map(Number::Name).map_err(|_| {
        (
            "metadata.name".into(),
            format!(
                "the last digits of host {} are too large a number; label it {ORDINAL_LABEL}: \"<n>\"",
                short(name)
            ),
        )
    })
}

/// Gives each waiting claim (claim name, host) the candidate at its position. Errors are
/// pushed to `findings`; claims with an error get nothing.
pub fn assign(
    v: &PoolView,
    blocked: &mut Blocked,
    waiting: Vec<(String, HostId)>,
    findings: &mut Vec<Finding>,
) -> Vec<(HostId, String, Addr)> {
    let offset = v.ctx.cfg.ordinal_offset;
    let hosts = &v.ctx.idx.hosts;
    let mut numbered: Vec<(String, HostId, Number)> = Vec::new();
    for (claim, h) in waiting {
        match number(&hosts[h]) {
            Ok(n) => numbered.push((claim, h, n)),
            Err((field, message)) => findings.push(
                Finding::error(format!(
                    "IPPool {}/{}: {message}",
                    short(v.ns),
                    short(v.name)
                ))
                .on(hosts[h].object.resource_ref())
                .at(field),
            ),
        }
    }
    // Two hosts with one number would be one address: both are errors, neither is filled.
    let mut by_number: BTreeMap<u64, Vec<HostId>> = BTreeMap::new();
    for (_, h, n) in &numbered {
        by_number.entry(n.value()).or_default().push(*h);
    }
    let mut chosen = Vec::new();
    for (claim, h, n) in numbered {
        let host = &hosts[h];
        let same = &by_number[&n.value()];
        let error = |message: String| {
            Finding::error(message)
                .on(host.object.resource_ref())
                .at(match n {
                    Number::Label(_) => key_path("metadata.labels", ORDINAL_LABEL),
                    Number::Name(_) => "metadata.name".into(),
                })
        };
        if same.len() > 1 {
            let others: Vec<String> = same
                .iter()
                .filter(|o| **o != h)
                .map(|o| short(hosts[*o].name()).into_owned())
                .collect();
            findings.push(error(format!(
                "host {} has number {}, as {} does: give one of them another {ORDINAL_LABEL} \
                 label. The number comes from {}; the ordinal strategy gives one address per number in \
                 IPPool {}/{}",
                short(host.name()),
                n.value(),
                others.join(", "),
                n.source(),
                short(v.ns),
                short(v.name)
            )));
            continue;
        }
        let position = offset.checked_add(n.value());
        let past_limit = position.is_none_or(|p| p > ipam::POSITION_LIMIT);
        if past_limit {
            // The cap, not the ranges: no spec.pools reaches such a position.
            findings.push(error(format!(
                "claim {claim} needs position {} of IPPool {}/{}, past the last the IPAM reaches: \
                 lower ordinalOffset or the host's number. Host {} has number {} ({}) and \
                 ordinalOffset is {offset}; ipreuse counts positions up to {} (2^20) as reachable, \
                 as the IPAM tries one address at a time on every reconcile, so widening spec.pools \
                 cannot help",
                position.map_or("beyond 2^64".to_string(), |p| p.to_string()),
                short(v.ns),
                short(v.name),
                short(host.name()),
                n.value(),
                n.source(),
                ipam::POSITION_LIMIT,
            )));
            continue;
        }
        let Some(a) = position.and_then(|p| v.st.ipam.addr_at(p)) else {
            findings.push(error(format!(
                "claim {claim} needs position {} of IPPool {}/{}, which holds no address: widen \
                 spec.pools, or change ordinalOffset or the host's number. Host {} has number {} \
                 ({}); {}",
                position.map_or("beyond 2^64".to_string(), |p| p.to_string()),
                short(v.ns),
                short(v.name),
                short(host.name()),
                n.value(),
                n.source(),
                v.st.ipam
                    .last_position()
                    .map_or("the pool has no addresses".to_string(), |l| format!(
                        "the pool's addresses are at positions 0 to {l}"
                    ))
            )));
            continue;
        };
        let why = if let Some(reason) = v.reserved_reason(a) {
            Some(reason)
        } else if !blocked.is_free(a) {
            Some(format!("taken: {} holds it", v.holder(a, Some(h))))
        } else {
            None
        };
        if let Some(why) = why {
            findings.push(error(format!(
                "claim {claim} cannot take {}, position {} of IPPool {}/{}: change ordinalOffset or \
                 the host's number, or free the address. Host {} has number {} ({}) and {} is {why}; \
                 the ordinal strategy never shifts to another address",
                a,
                offset + n.value(),
                short(v.ns),
                short(v.name),
                short(host.name()),
                n.value(),
                n.source(),
                a,
            )));
            continue;
        }
        blocked.take(a);
        chosen.push((h, claim, a));
    }
    chosen
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{ItemId, Object};

    fn host(name: &str, labels: serde_json::Value) -> Host {
        let v = json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
            "metadata": {"name": name, "namespace": "ns", "labels": labels}});
        let doc = crate::model::view::node_of(&v);
        let view = crate::model::view::View::new(&doc);
        let object = Object::read(ItemId(0), view).expect("an object");
        Host::read(&std::sync::Arc::new(object), view, &mut Vec::new()).expect("a host")
    }

    #[test]
    fn the_number_is_the_label_else_the_last_digit_run_of_the_name() {
        let n = |name: &str, labels| number(&host(name, labels));
        assert_eq!(n("node-7", json!({})), Ok(Number::Name(7)));
        assert_eq!(n("rack2-node07", json!({})), Ok(Number::Name(7)));
        assert_eq!(n("r1n12b", json!({})), Ok(Number::Name(12)));
        assert_eq!(n("node-0", json!({})), Ok(Number::Name(0)));
        assert_eq!(n("42", json!({})), Ok(Number::Name(42)));
        assert_eq!(
            n("node-7", json!({ORDINAL_LABEL: "3"})),
            Ok(Number::Label(3))
        );
        assert_eq!(
            n("controller", json!({ORDINAL_LABEL: "0012"})),
            Ok(Number::Label(12))
        );
    }

    #[test]
    fn no_number_and_bad_labels_are_errors_at_their_field() {
        let err = |name: &str, labels| number(&host(name, labels)).unwrap_err();
        let (field, message) = err("controller", json!({}));
        assert_eq!(field, "metadata.name");
        assert!(message.contains("no digits"), "{message}");
        assert!(message.contains(ORDINAL_LABEL), "{message}");
        for bad in ["", "-1", "+1", "1.5", "x", " 1", "0x10"] {
            let (field, message) = err("node-1", json!({ORDINAL_LABEL: bad}));
            assert_eq!(field, "metadata.labels.[ipreuse.dev/ordinal]", "{bad:?}");
            assert!(message.contains("not a number"), "{bad:?}: {message}");
        }
        let (field, message) = err("node-1", json!({ORDINAL_LABEL: "99999999999999999999999"}));
        assert_eq!(field, "metadata.labels.[ipreuse.dev/ordinal]");
        assert!(message.contains("too large"), "{message}");
        let (field, message) = err("node-99999999999999999999999", json!({}));
        assert_eq!(field, "metadata.name");
        assert!(message.contains("too large"), "{message}");
    }
}
