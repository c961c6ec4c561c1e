//! The chain walk, link by link: what CAPM3 and the IPAM write, in both API
//! versions, and every way the chain can break.

use serde_json::{Value, json};

use super::*;
use crate::fixtures;
use crate::model::{HostId, PoolId};

const NS: &str = "lab";
const V1: &str = "infrastructure.cluster.x-k8s.io/v1beta1";
const V2: &str = "infrastructure.cluster.x-k8s.io/v1beta2";

/// The one object of YAML `text`, as the function reads it.
fn value(text: &str) -> Value {
    let docs = crate::yaml::parse(text).expect("test YAML parses");
    assert_eq!(docs.len(), 1, "one object: {text}");
    docs[0].root.to_json()
}

/// The model of the items `values` (each parsed from its JSON text: JSON is YAML).
fn pool(name: &str) -> Value {
    value(
        &fixtures::pool(name, NS)
            .range(fixtures::range("172.22.0.10", "172.22.0.50"))
            .prefix(24)
            .yaml(),
    )
}

fn pool_with_indexes(name: &str, indexes: Value) -> Value {
    let mut p = pool(name);
    p["status"] = json!({"indexes": indexes});
    p
}

fn host(name: &str) -> Value {
    json!({"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"online": true, "bootMACAddress": "00:00:00:00:00:01"}})
}

/// An IPAddress as the IPAM writes it (owners: the pool and the claim).
fn ip_address(pool: &str, claim: &str, address: &str) -> Value {
    value(&fixtures::ip_address(
        pool,
        claim,
        address,
        "172.22.0.1",
        NS,
    ))
}

/// An IPClaim owned by Metal3Data `data` (after a Metal3DataClaim owner, as CAPM3 v1.14
/// writes them), or with no Metal3Data owner.
fn ip_claim(name: &str, pool: &str, data: Option<&str>, version: &str) -> Value {
    let mut owners = vec![
        json!({"apiVersion": version, "kind": "Metal3DataClaim", "name": "decoy", "uid": "x"}),
    ];
    if let Some(d) = data {
        owners.push(
            json!({"apiVersion": version, "kind": "Metal3Data", "name": d, "uid": "d1",
            "controller": true, "blockOwnerDeletion": true}),
        );
    }
    json!({"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim",
        "metadata": {"name": name, "namespace": NS, "ownerReferences": owners},
        "spec": {"pool": {"name": pool, "namespace": NS}},
        "status": {"address": {"name": format!("{pool}-x")}}})
}

/// A Metal3Data made for Metal3DataClaim `claim` (none: no `spec.claim`); owned by the claim
/// (controller) and, as before v1.13.3, by the template and machine too.
fn metal3_data(name: &str, claim: Option<&str>, version: &str) -> Value {
    let mut spec = json!({"template": {"name": "workers"}});
    if version == V2 {
        spec["index"] = json!(3);
    }
    if let Some(c) = claim {
        spec["claim"] = json!({"name": c, "namespace": NS});
    }
    json!({"apiVersion": version, "kind": "Metal3Data",
        "metadata": {"name": name, "namespace": NS, "ownerReferences": [
            {"apiVersion": version, "kind": "Metal3DataTemplate", "name": "workers", "uid": "t"},
            {"apiVersion": version, "kind": "Metal3DataClaim", "name": claim.unwrap_or("x"), "uid": "c",
             "controller": true},
            {"apiVersion": version, "kind": "Metal3Machine", "name": "not-followed", "uid": "m"}]},
        "spec": spec})
}

/// A Metal3DataClaim owned by Metal3Machine `machine` (none: no such owner).
fn data_claim(name: &str, machine: Option<&str>, version: &str) -> Value {
    let mut owners =
        vec![json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Machine", "name": "m"})];
    if let Some(m) = machine {
        owners.insert(
            0,
            json!({"apiVersion": version, "kind": "Metal3Machine", "name": m,
            "controller": true, "uid": "mm"}),
        );
    }
    json!({"apiVersion": version, "kind": "Metal3DataClaim",
        "metadata": {"name": name, "namespace": NS, "ownerReferences": owners},
        "spec": {"template": {"name": "workers"}},
        "status": {"renderedData": {"name": "not-followed"}}})
}

/// A Metal3Machine with the host annotation (none: without it); `status.addresses` holds
/// inspection-time addresses, which are never read.
fn machine(name: &str, host: Option<&str>, version: &str) -> Value {
    let mut annotations = json!({"cluster.x-k8s.io/cloned-from-name": "workers"});
    if let Some(h) = host {
        annotations["metal3.io/BareMetalHost"] = json!(h);
    }
    json!({"apiVersion": version, "kind": "Metal3Machine",
        "metadata": {"name": name, "namespace": NS, "annotations": annotations},
        "spec": {"providerID": format!("metal3://{NS}/x/{name}")},
        "status": {"addresses": [{"type": "InternalIP", "address": "172.22.0.44"}]}})
}

/// The whole chain for one host: IPAddress → IPClaim `claim` → Metal3Data `data` →
/// Metal3DataClaim `m3m` → Metal3Machine `m3m` → host.
fn chain(
    claim: &str,
    pool: &str,
    address: &str,
    data: &str,
    m3m: &str,
    host: &str,
    version: &str,
) -> Vec<Value> {
    vec![
        ip_address(pool, claim, address),
        ip_claim(claim, pool, Some(data), version),
        metal3_data(data, Some(m3m), version),
        data_claim(m3m, Some(m3m), version),
        machine(m3m, Some(&format!("{NS}/{host}")), version),
    ]
}

struct Run {
    idx: Index,
    adoption: Adoption,
    findings: Vec<Finding>,
}

impl Run {
    /// (host, pool, address, claim) of each pin.
    fn pins(&self) -> Vec<(String, String, String, String)> {
        self.adoption
            .pins
            .iter()
            .map(|p| {
                (
                    self.idx.hosts[p.host].name().to_string(),
                    self.idx.pools[p.pool].name().to_string(),
                    p.addr.to_string(),
                    p.claim.clone(),
                )
            })
            .collect()
    }

    fn warnings(&self) -> Vec<&Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == crate::results::Severity::Warning)
            .collect()
    }

    fn errors(&self) -> Vec<&Finding> {
        self.findings.iter().filter(|f| f.is_error()).collect()
    }

    fn live(&self, pool: &str) -> PoolLive {
        let p = self
            .idx
            .pools
            .iter()
            .position(|x| x.name() == pool)
            .expect("the pool");
        self.adoption
            .pools
            .get(&PoolId(p))
            .cloned()
            .unwrap_or_default()
    }
}

fn run(values: &[Value]) -> Run {
    let mut findings = Vec::new();
    let model = Model::of_json(values, &mut findings);
    assert!(findings.is_empty(), "the fixture is clean: {findings:?}");
    let managed: Vec<PoolId> = PoolId::all(model.index.pools.len()).collect();
    let adoption = adopt(&model, &managed, &mut findings);
    Run {
        idx: model.index,
        adoption,
        findings,
    }
}

fn pin(host: &str, pool: &str, addr: &str, claim: &str) -> (String, String, String, String) {
    (host.into(), pool.into(), addr.into(), claim.into())
}

fn base() -> Vec<Value> {
    vec![pool("prov"), host("node-1"), host("node-2")]
}

fn with(mut values: Vec<Value>, more: Vec<Value>) -> Vec<Value> {
    values.extend(more);
    values
}

#[test]
fn a_legacy_claim_is_followed_to_its_host_in_both_api_versions() {
    for version in [V1, V2] {
        let r = run(&with(
            base(),
            chain(
                "workers-3-prov",
                "prov",
                "172.22.0.17",
                "workers-3",
                "workers-abc",
                "node-2",
                version,
            ),
        ));
        assert!(r.findings.is_empty(), "{version}: {:?}", r.findings);
        assert_eq!(
            r.pins(),
            vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
        );
        assert_eq!(
            r.adoption.pins[0].chain,
            "IPAddress prov-172-22-0-17 → IPClaim workers-3-prov → Metal3Data workers-3 → \
             Metal3DataClaim workers-abc → Metal3Machine workers-abc → BareMetalHost node-2"
        );
        assert_eq!(r.adoption.pins[0].field, "spec.address");
        assert_eq!(r.adoption.pins[0].on.kind, "IPAddress");
        let live = r.live("prov");
        assert_eq!(
            live.holders.get("workers-3-prov"),
            Some(&HostId(1)),
            "node-2, the second host"
        );
        assert_eq!(
            live.in_use.get("workers-3-prov").map(|a| a.to_string()),
            Some("172.22.0.17".to_string())
        );
    }
}

#[test]
fn a_claim_with_the_new_name_is_followed_too() {
    let r = run(&with(
        base(),
        chain(
            "node-1-prov",
            "prov",
            "172.22.0.12",
            "workers-0",
            "workers-xyz",
            "node-1",
            V2,
        ),
    ));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-1", "prov", "172.22.0.12", "node-1-prov")]
    );
}

#[test]
fn owners_are_found_by_kind_and_group_among_several_in_any_order() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    // The claim's owners reversed, with a Metal3Data of another group first; the data claim's
    // Metal3Machine owner last, behind one of another group and one of another kind.
    values[4]["metadata"]["ownerReferences"] = json!([
        {"apiVersion": "example.com/v1", "kind": "Metal3Data", "name": "decoy", "controller": true},
        {"apiVersion": V1, "kind": "Metal3Data", "name": "workers-3"},
        {"apiVersion": V2, "kind": "Metal3DataClaim", "name": "workers-abc", "controller": true}]);
    values[6]["metadata"]["ownerReferences"] = json!([
        {"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Machine", "name": "workers-abc", "controller": true},
        {"apiVersion": "example.com/v1", "kind": "Metal3Machine", "name": "decoy"},
        {"apiVersion": V1, "kind": "Metal3Machine", "name": "workers-abc"}]);
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
}

#[test]
fn of_several_owners_of_one_kind_the_controller_is_followed() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.push(metal3_data("workers-9", Some("workers-old"), V2));
    values[4]["metadata"]["ownerReferences"] = json!([
        {"apiVersion": V2, "kind": "Metal3Data", "name": "workers-9"},
        {"apiVersion": V2, "kind": "Metal3Data", "name": "workers-3", "controller": true}]);
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
    // Without a controller among them, the chain stops there.
    values[4]["metadata"]["ownerReferences"][1]["controller"] = json!(false);
    let r = run(&values);
    assert!(r.pins().is_empty());
    assert_eq!(r.warnings().len(), 1);
    assert!(
        r.warnings()[0].message.contains(
            "IPClaim workers-3-prov has several Metal3Data owners (workers-3 and workers-9)"
        ),
        "{}",
        r.warnings()[0].message
    );
}

#[test]
fn without_its_metal3dataclaim_the_machine_of_the_same_name_is_used() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V1,
        ),
    );
    values.remove(6); // the Metal3DataClaim
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
    assert_eq!(
        r.adoption.pins[0].chain,
        "IPAddress prov-172-22-0-17 → IPClaim workers-3-prov → Metal3Data workers-3 → \
         Metal3Machine workers-abc → BareMetalHost node-2"
    );
}

#[test]
fn without_the_host_annotation_the_host_whose_consumer_ref_names_the_machine_is_used() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values[7] = machine("workers-abc", None, V2);
    // node-1 is consumed by the Cluster (node reuse), node-2 by the machine, without a namespace.
    values[1]["spec"]["consumerRef"] = json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "name": "workers-abc", "namespace": NS});
    values[2]["spec"]["consumerRef"] =
        json!({"apiVersion": V2, "kind": "Metal3Machine", "name": "workers-abc"});
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
    assert!(
        r.adoption.pins[0]
            .chain
            .ends_with("Metal3Machine workers-abc → BareMetalHost node-2 (its spec.consumerRef)"),
        "{}",
        r.adoption.pins[0].chain
    );
    // Two hosts naming one machine: no guess.
    values[1]["spec"]["consumerRef"] =
        json!({"kind": "Metal3Machine", "name": "workers-abc", "namespace": NS});
    let r = run(&values);
    assert!(r.pins().is_empty());
    assert!(
        r.warnings()[0]
            .message
            .contains("BareMetalHosts node-1 and node-2 all name it in spec.consumerRef"),
        "{}",
        r.warnings()[0].message
    );
}

#[test]
fn decoys_are_never_read() {
    // The machine has no annotation and no host names it, but its status.addresses and a host's
    // inspected NIC show the very address: neither is an IPAM allocation.
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values[7] = machine("workers-abc", None, V2);
    values[7]["status"]["addresses"] = json!([{"type": "InternalIP", "address": "172.22.0.17"}]);
    values[1]["status"] = json!({"hardware": {"nics": [{"name": "eth0", "ip": "172.22.0.17"}]}});
    let r = run(&values);
    assert!(r.pins().is_empty(), "{:?}", r.pins());
    assert_eq!(r.warnings().len(), 1, "{:?}", r.findings);
    assert!(r.live("prov").holders.is_empty());
}

/// Runs `values` and expects one warning on `kind` at `field` whose message holds every
/// part of `says`, no pin, and the address still in use.
fn breaks(values: &[Value], kind: &str, field: &str, says: &[&str]) {
    let r = run(values);
    assert!(r.pins().is_empty(), "{says:?}: {:?}", r.pins());
    assert!(r.errors().is_empty(), "{says:?}: {:?}", r.errors());
    let w = r.warnings();
    assert_eq!(w.len(), 1, "{says:?}: {:?}", r.findings);
    let f = w[0];
    assert_eq!(f.resource_ref.as_ref().map(|r| r.kind.as_str()), Some(kind));
    assert_eq!(
        f.field.as_ref().map(|f| f.path.as_str()),
        Some(field),
        "{says:?}"
    );
    for s in says {
        assert!(f.message.contains(s), "{s:?} not in {:?}", f.message);
    }
    assert!(
        f.message
            .contains("The address stays taken, and no host is given it")
    );
}

#[test]
fn every_broken_link_is_a_warning_naming_the_chain_up_to_the_break() {
    let full = || {
        with(
            base(),
            chain(
                "workers-3-prov",
                "prov",
                "172.22.0.17",
                "workers-3",
                "workers-abc",
                "node-2",
                V2,
            ),
        )
    };
    // Positions in `full()`: 3 IPAddress, 4 IPClaim, 5 Metal3Data, 6 Metal3DataClaim, 7 Metal3Machine.
    let without = |i: usize| {
        let mut v = full();
        v.remove(i);
        v
    };
    let replaced = |i: usize, value: Value| {
        let mut v = full();
        v[i] = value;
        v
    };
    let a = "IPAddress prov-172-22-0-17";
    // No IPClaim, and no Metal3Data workers-3 to read the legacy name by.
    let mut v = without(4);
    v.remove(4);
    breaks(
        &v,
        "IPAddress",
        "spec.claim.name",
        &[
            "claim workers-3-prov holds 172.22.0.17 in IPPool prov",
            &format!("{a} breaks: no IPClaim workers-3-prov in the input"),
        ],
    );
    breaks(
        &replaced(4, ip_claim("workers-3-prov", "prov", None, V2)),
        "IPAddress",
        "spec.claim.name",
        &[&format!(
            "{a} → IPClaim workers-3-prov breaks: IPClaim workers-3-prov has no owner of kind Metal3Data"
        )],
    );
    breaks(
        &without(5),
        "IPAddress",
        "spec.claim.name",
        &[&format!(
            "{a} → IPClaim workers-3-prov breaks: Metal3Data workers-3 is not in the input"
        )],
    );
    breaks(
        &replaced(5, metal3_data("workers-3", None, V2)),
        "IPAddress",
        "spec.claim.name",
        &[&format!(
            "{a} → IPClaim workers-3-prov → Metal3Data workers-3 breaks: Metal3Data workers-3 has no spec.claim.name"
        )],
    );
    breaks(
        &replaced(6, data_claim("workers-abc", None, V2)),
        "IPAddress",
        "spec.claim.name",
        &[
            "→ Metal3DataClaim workers-abc breaks: Metal3DataClaim workers-abc has no owner of kind Metal3Machine",
        ],
    );
    breaks(
        &without(7),
        "IPAddress",
        "spec.claim.name",
        &["→ Metal3DataClaim workers-abc breaks: Metal3Machine workers-abc is not in the input"],
    );
    breaks(
        &replaced(7, machine("workers-abc", None, V2)),
        "IPAddress",
        "spec.claim.name",
        &[
            "→ Metal3Machine workers-abc breaks: Metal3Machine workers-abc has no metal3.io/BareMetalHost \
           annotation, and no BareMetalHost of the input names it in spec.consumerRef",
        ],
    );
    breaks(
        &replaced(7, machine("workers-abc", Some("node-2"), V2)),
        "IPAddress",
        "spec.claim.name",
        &[
            "→ Metal3Machine workers-abc breaks: its annotation metal3.io/BareMetalHost is \"node-2\", not namespace/name",
        ],
    );
    breaks(
        &replaced(7, machine("workers-abc", Some("lab/node-7"), V2)),
        "IPAddress",
        "spec.claim.name",
        &["→ Metal3Machine workers-abc breaks: BareMetalHost node-7 is not in the input"],
    );
    breaks(
        &replaced(7, machine("workers-abc", Some("other/node-2"), V2)),
        "IPAddress",
        "spec.claim.name",
        &[
            "→ Metal3Machine workers-abc → BareMetalHost other/node-2 breaks: BareMetalHost other/node-2 is not \
           in namespace lab, the pool's",
        ],
    );
    // The same break, found from status.indexes: the warning is on the pool, at the claim.
    let mut v = without(3);
    v[0] = pool_with_indexes("prov", json!({"workers-3-prov": "172.22.0.17"}));
    v.remove(4); // the Metal3Data
    breaks(
        &v,
        "IPPool",
        "status.indexes.workers-3-prov",
        &[
            "status.indexes of IPPool prov → IPClaim workers-3-prov breaks: Metal3Data workers-3 is not in the input",
        ],
    );
}

#[test]
fn a_broken_chain_from_an_ip_address_keeps_the_address_in_use() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.remove(7); // the Metal3Machine
    let r = run(&values);
    let live = r.live("prov");
    assert!(live.holders.is_empty());
    assert_eq!(
        live.in_use.get("workers-3-prov").map(|a| a.to_string()),
        Some("172.22.0.17".to_string())
    );
}

#[test]
fn status_indexes_alone_are_adopted_only_when_the_input_attests_the_claim() {
    // A legacy name whose Metal3Data is in the input: followed from the Metal3Data.
    let values = vec![
        pool_with_indexes(
            "prov",
            json!({"workers-3-prov": "172.22.0.17", "node-1-prov": "172.22.0.12", "vip-prov": "172.22.0.40"}),
        ),
        host("node-1"),
        host("node-2"),
        metal3_data("workers-3", Some("workers-abc"), V1),
        machine("workers-abc", Some("lab/node-2"), V1),
    ];
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
    assert_eq!(
        r.adoption.pins[0].chain,
        "status.indexes of IPPool prov → claim name workers-3-prov → Metal3Data workers-3 → \
         Metal3Machine workers-abc → BareMetalHost node-2"
    );
    assert_eq!(r.adoption.pins[0].field, "status.indexes.workers-3-prov");
    // node-1-prov and vip-prov have nothing in the input behind them: not adopted, no word
    // (allocation treats them as it always has), and not counted again as in use.
    let live = r.live("prov");
    assert_eq!(live.holders.len(), 1);
    assert!(live.in_use.is_empty());
}

#[test]
fn an_ip_address_wins_over_status_indexes_with_a_warning() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values[0] = pool_with_indexes("prov", json!({"workers-3-prov": "172.22.0.30"}));
    let r = run(&values);
    assert_eq!(
        r.pins(),
        vec![pin("node-2", "prov", "172.22.0.17", "workers-3-prov")]
    );
    let w = r.warnings();
    assert_eq!(w.len(), 1, "{:?}", r.findings);
    assert_eq!(
        w[0].field.as_ref().map(|f| f.path.as_str()),
        Some("status.indexes.workers-3-prov")
    );
    assert!(w[0].message.contains(
        "status.indexes says claim workers-3-prov holds 172.22.0.30, but IPAddress prov-172-22-0-17 says 172.22.0.17"
    ));
    // Agreeing, they are one claim and no warning.
    values[0] = pool_with_indexes("prov", json!({"workers-3-prov": "172.22.0.17"}));
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.pins().len(), 1);
}

#[test]
fn two_claims_of_one_host_and_pool_with_different_addresses_are_an_error_naming_both() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.extend(chain(
        "node-2-prov",
        "prov",
        "172.22.0.18",
        "workers-4",
        "workers-def",
        "node-2",
        V2,
    ));
    let r = run(&values);
    assert!(r.adoption.failed);
    let e = r.errors();
    assert_eq!(e.len(), 1, "{:?}", r.findings);
    assert!(
        e[0].message.contains(
            "claims node-2-prov and workers-3-prov of IPPool prov both lead to BareMetalHost node-2: \
             delete the stale one in the cluster, or take it out of the export. They hold \
             172.22.0.18 and 172.22.0.17"
        ),
        "{}",
        e[0].message
    );
    // The same address from two IPAddress objects of one claim is one pin.
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    let mut again = ip_address("prov", "workers-3-prov", "172.22.0.17");
    again["metadata"]["name"] = json!("prov-copy");
    values.push(again);
    let r = run(&values);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.pins().len(), 1);
}

#[test]
fn two_ip_addresses_of_one_claim_with_different_addresses_are_an_error() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.push(ip_address("prov", "workers-3-prov", "172.22.0.19"));
    let r = run(&values);
    assert!(r.adoption.failed);
    assert!(
        r.errors()[0]
            .message
            .contains("IPAddress prov-172-22-0-17 and prov-172-22-0-19 both give claim workers-3-prov an address"),
        "{:?}",
        r.findings
    );
}

#[test]
fn ip_addresses_of_unmanaged_or_missing_pools_are_not_read() {
    let mut values = with(
        base(),
        chain(
            "workers-3-bmc",
            "bmc",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.push(pool("bmc"));
    let mut findings = Vec::new();
    let model = Model::of_json(&values, &mut findings);
    let prov = model
        .index
        .pools
        .iter()
        .position(|p| p.name() == "prov")
        .expect("prov");
    let adoption = adopt(&model, &[PoolId(prov)], &mut findings);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(adoption.pins.is_empty());
    assert!(adoption.pools.is_empty());
    // `bmc` managed but absent from the input: nothing either.
    values.pop();
    let r = run(&values);
    assert!(r.findings.is_empty());
    assert!(r.pins().is_empty());
}

#[test]
fn an_ip_address_whose_address_does_not_parse_is_an_error() {
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values[3]["spec"]["address"] = json!("172.22.0.017");
    let r = run(&values);
    assert!(r.adoption.failed);
    assert_eq!(
        r.errors()[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.address")
    );
    assert!(r.pins().is_empty());
}

#[test]
fn a_malformed_object_on_the_chain_is_an_error_and_reported_once() {
    // The Metal3Data links two claims (one per pool) and its spec.claim.name is a number.
    let mut values = with(
        base(),
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.push(pool("bmc"));
    values.push(ip_address("bmc", "workers-3-bmc", "172.22.0.30"));
    values.push(ip_claim("workers-3-bmc", "bmc", Some("workers-3"), V2));
    values[5]["spec"]["claim"]["name"] = json!(4);
    let r = run(&values);
    let e = r.errors();
    assert_eq!(e.len(), 1, "{:?}", r.findings);
    assert_eq!(
        e[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.claim.name")
    );
    assert!(e[0].is_on("Metal3Data", "lab", "workers-3"), "{:?}", e[0]);
    assert!(
        r.warnings().is_empty(),
        "the break is the error, not also a warning"
    );
    assert!(r.pins().is_empty());
}

#[test]
fn the_result_does_not_depend_on_the_order_of_the_items() {
    let mut values = with(
        vec![
            pool("prov"),
            pool("bmc"),
            host("node-1"),
            host("node-2"),
            host("node-3"),
        ],
        chain(
            "workers-3-prov",
            "prov",
            "172.22.0.17",
            "workers-3",
            "workers-abc",
            "node-2",
            V2,
        ),
    );
    values.extend(chain(
        "workers-5-prov",
        "prov",
        "172.22.0.11",
        "workers-5",
        "workers-def",
        "node-3",
        V1,
    ));
    values.extend(chain(
        "node-1-bmc",
        "bmc",
        "172.22.0.40",
        "workers-7",
        "workers-ghi",
        "node-1",
        V2,
    ));
    values.push(ip_address("prov", "lost-prov", "172.22.0.45"));
    let reference = run(&values);
    let sorted = |r: &Run| {
        let mut f = r.findings.clone();
        crate::results::sort(&mut f);
        f
    };
    assert_eq!(reference.pins().len(), 3);
    assert_eq!(reference.warnings().len(), 1);
    let mut shuffled = values.clone();
    for step in [7, 3, 11, 5] {
        shuffled.rotate_left(step);
        let last = shuffled.len() - 2;
        shuffled.swap(1, last);
        let r = run(&shuffled);
        assert_eq!(r.pins(), reference.pins());
        assert_eq!(sorted(&r), sorted(&reference));
        let chains = |r: &Run| {
            r.adoption
                .pins
                .iter()
                .map(|p| p.chain.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(chains(&r), chains(&reference));
    }
}
