//! Two pools of one namespace that name their IPAddresses alike (FACTS §4): the IPAM names the
//! IPAddress of each address `{namePrefix}-{address}`, so two pools with one `namePrefix` whose
//! addresses overlap make the same name for the same address. Neither pool knows the other's
//! preallocations: a claim of one without a preallocation can take an address ipreuse
//! preallocated in the other, and the claim it was preallocated for then fails to create its
//! IPAddress ("already exists") for as long as the other holds it. Overlapping pools with
//! different prefixes are the overlap warning of [`super::fill`].

use crate::FastMap;
use crate::FastSet;

use super::shared::Shared;
use super::state::PoolState;
use crate::ipam::{Addr, ip_address_name};
use crate::model::{Index, PoolId};
use crate::names::short;
use crate::results::Finding;

/// Whether pools `p` and `q` have one known `namePrefix` (a templated one is unknown, and is
/// never compared).
pub fn same_prefix(idx: &Index, p: PoolId, q: PoolId) -> bool {
    match (&idx.pools[p].name_prefix, &idx.pools[q].name_prefix) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// One error on each of two valid pools of one namespace whose addresses overlap and whose
/// `namePrefix` is the same, when ipreuse manages either of them, naming both pools, the
/// prefix and the lowest address both hand out (where the names first collide), at
/// `spec.namePrefix`. Returns whether there was none.
pub fn check(
    idx: &Index,
    managed: &FastSet<PoolId>,
    pools: &FastMap<PoolId, PoolState>,
    shared: &FastMap<String, Shared>,
    findings: &mut Vec<Finding>,
) -> bool {
    let mut ok = true;
    for sh in shared.values() {
        for (rank, &p) in sh.pools.iter().enumerate() {
            let Some(st) = pools.get(&p) else { continue };
            for &r in st.overlaps.iter().filter(|r| **r as usize > rank) {
                let Some(&q) = sh.pools.get(r as usize) else {
                    continue;
                };
                if !same_prefix(idx, p, q) || !(managed.contains(&p) || managed.contains(&q)) {
                    continue;
                }
                let Some(first) = pools
                    .get(&q)
                    .and_then(|other| st.candidates.first_common(&other.candidates))
                else {
                    continue;
                };
                ok = false;
                let a = Addr::from_value(first);
                findings.push(collision(idx, p, q, a));
                findings.push(collision(idx, q, p, a));
            }
        }
    }
    ok
}

/// The error on pool `p` about pool `q`, which shares its `namePrefix` and hands out `a` too.
fn collision(idx: &Index, p: PoolId, q: PoolId, a: Addr) -> Finding {
    let pool = &idx.pools[p];
    let other = &idx.pools[q];
    let prefix = pool.name_prefix.as_deref().unwrap_or_default();
    let ns = short(&pool.object.namespace);
    Finding::error(format!(
        "Give this pool a namePrefix of its own, or keep its range apart from IPPool {ns}/{}, \
         which uses namePrefix {:?} too. IPPool {ns}/{} and {ns}/{} both hand out {a}, and the \
         IPAM names its IPAddress {} in either pool: a claim of one pool without a \
         preallocation can take {a} although ipreuse preallocated it in the other, and the \
         claim it was preallocated for then cannot create its IPAddress (\"already exists\") \
         for as long as the other holds it. The IPAM webhook refuses a change of namePrefix on \
         a pool that exists: create the pool again under its new prefix, or narrow spec.pools",
        short(other.name()),
        short(prefix),
        short(pool.name()),
        short(other.name()),
        short(&ip_address_name(prefix, a)),
    ))
    .on(pool.object.resource_ref())
    .at("spec.namePrefix")
}

/// The check on small packages, as a table: which pools of which prefixes and ranges get an
/// error, naming which other pool and which address.
#[cfg(test)]
mod tests {
    use crate::fixtures::{host, pool, range};
    use crate::krm::Source;

    /// The `spec.namePrefix` errors of a run over `pools` (name, prefix, start, end) of
    /// namespace `lab` and one host: (pool, message).
    fn errors(pools: &[(&str, &str, &str, &str)]) -> Vec<(String, String)> {
        let mut docs: Vec<String> = pools
            .iter()
            .map(|(name, prefix, start, end)| {
                pool(name, "lab")
                    .range(range(start, end))
                    .name_prefix(prefix)
                    .yaml()
            })
            .collect();
        docs.push(host("node-1", "lab").yaml());
        let text = docs.iter().map(|d| format!("---\n{d}")).collect::<String>();
        let cfg = serde_json::json!({"apiVersion": "fn.ipreuse.dev/v1alpha1", "kind": "IPReuse",
            "metadata": {"name": "cfg"}, "spec": {"controllerFlag": false}});
        let o = crate::run::run(
            &[Source {
                name: "input.yaml".into(),
                text,
            }],
            Some(&cfg),
        )
        .expect("runs");
        o.findings
            .iter()
            .filter(|f| f.is_error())
            .map(|f| {
                assert_eq!(
                    f.field.as_ref().map(|x| x.path.as_str()),
                    Some("spec.namePrefix"),
                    "{f:?}"
                );
                let on = f.resource_ref.as_ref().map(|r| r.name.clone());
                (on.unwrap_or_default(), f.message.clone())
            })
            .collect()
    }

    /// (name, prefix, start, end) of a pool; (pool, other pool, address, IPAddress name) of an error.
    type Quad = (&'static str, &'static str, &'static str, &'static str);

    #[test]
    fn one_error_per_pool_of_each_pair_that_overlaps_with_one_prefix() {
        // (pools, errors as (pool, other pool, lowest shared address, IPAddress name))
        let table: Vec<(Vec<Quad>, Vec<Quad>)> = vec![
            (
                vec![
                    ("a", "x", "10.0.0.10", "10.0.0.20"),
                    ("b", "x", "10.0.0.20", "10.0.0.30"),
                ],
                vec![
                    ("a", "b", "10.0.0.20", "x-10-0-0-20"),
                    ("b", "a", "10.0.0.20", "x-10-0-0-20"),
                ],
            ),
            (
                vec![
                    ("a", "x", "10.0.0.10", "10.0.0.20"),
                    ("b", "x", "10.0.0.21", "10.0.0.30"),
                ],
                vec![],
            ),
            (
                vec![
                    ("a", "x", "10.0.0.10", "10.0.0.20"),
                    ("b", "y", "10.0.0.10", "10.0.0.20"),
                ],
                vec![],
            ),
            (
                vec![
                    ("a", "x", "fd00::1:0", "fd00::1:ff"),
                    ("b", "x", "fd00::1:80", "fd00::2:0"),
                ],
                vec![
                    ("a", "b", "fd00::1:80", "x-fd00--1-80"),
                    ("b", "a", "fd00::1:80", "x-fd00--1-80"),
                ],
            ),
            (
                vec![
                    ("a", "x", "10.0.0.10", "10.0.0.20"),
                    ("b", "x", "10.0.0.15", "10.0.0.16"),
                    ("c", "y", "10.0.0.10", "10.0.0.20"),
                ],
                vec![
                    ("a", "b", "10.0.0.15", "x-10-0-0-15"),
                    ("b", "a", "10.0.0.15", "x-10-0-0-15"),
                ],
            ),
        ];
        for (pools, want) in table {
            let got = errors(&pools);
            assert_eq!(got.len(), want.len(), "{pools:?}: {got:#?}");
            for (p, other, address, name) in want {
                let m = got
                    .iter()
                    .find(|(on, m)| on == p && m.contains(&format!("IPPool lab/{other},")))
                    .map(|(_, m)| m)
                    .unwrap_or_else(|| {
                        panic!("{pools:?}: no error on {p} naming {other}: {got:#?}")
                    });
                assert!(m.contains(address) && m.contains(name), "{m}");
                assert!(
                    m.starts_with("Give this pool a namePrefix of its own"),
                    "{m}"
                );
            }
        }
    }
}
