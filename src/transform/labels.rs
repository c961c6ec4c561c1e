//! Labels (SPEC §7): the `data-name` / `pool-name` labels CAPM3 puts on the IPClaims it names
//! after hosts, and on Metal3Data, written into the objects of the input that lack them.
//!
//! - An IPClaim named `{host}-{pool}`, for a BareMetalHost of its namespace in the input and a
//!   pool the function manages there, gets `pool-name: {pool}` and `data-name: {metal3data}`,
//!   the Metal3Data read from its `ownerReferences` (kind `Metal3Data`, group
//!   `infrastructure.cluster.x-k8s.io`). The name is matched against the known (host, pool)
//!   pairs, never split: `node-1-bmc-v4` may be `node-1` + `bmc-v4` or `node-1-bmc` + `v4`, and
//!   the claim's `spec.pool.name` decides between two such pairs.
//! - A Metal3Data gets `data-name: {its name}` and `pool-name: {the first Metal3 pool of its
//!   template}` (CAPM3's collection order, [`DataTemplate::first_metal3_pool`]).
//!
//! A label already right changes nothing; a wrong value is rewritten with a warning; a missing
//! `metadata.labels` is created. A value Kubernetes would refuse (over 63 characters, or bad
//! characters) is an error: CAPM3 cannot create such a claim either. Local-config objects are
//! never read or changed.

use crate::{FastMap, FastSet};

use super::Outcome;
use crate::config::Config;
use crate::edits::ItemEdit;
use crate::model::data_template::{DataTemplate, PoolName, PoolRef};
use crate::model::ip_claim::IpClaim;
use crate::model::labels::{LabelValue, Labels};
use crate::model::metal3_data::{Metal3Data, TemplateRef};
use crate::model::{CAPM3_GROUP, Index, ItemId, Model, Object, PoolId};
use crate::names::{label_value_problem, short};
use crate::results::{Finding, key_path};
use crate::transform::preallocations::mapping::{DATA_NAME, POOL_NAME};
use crate::yaml::{Edit, Seg, WriteStyle};

/// The labels of every IPClaim and Metal3Data of the input that needs them (nothing when
/// `config.labels` is false). `managed` is the pools the preallocations' mapping manages
/// ([`crate::transform::preallocations::Output::managed`]): a claim is labelled for them.
pub fn apply(model: &Model, config: &Config, managed: &[PoolId]) -> Outcome {
    let index = &model.index;
    let mut out = Outcome::default();
    if !config.labels {
        return out;
    }
    let mut templates: FastMap<&str, FastMap<&str, ItemId>> = FastMap::default();
    for o in index.objects_of(CAPM3_GROUP, "Metal3DataTemplate") {
        templates
            .entry(o.namespace.as_str())
            .or_default()
            .insert(o.name.as_str(), o.index);
    }
    if !model.ip_claims.is_empty() {
        let pairs = Pairs::new(index, managed);
        for read in model.ip_claims.iter() {
            if let Some(claim) = &read.value {
                label_claim(claim, &pairs, &mut out);
            }
        }
    }
    let mut read_templates = Templates {
        model,
        found: templates,
    };
    for read in model.metal3_data.iter() {
        if let Some(data) = &read.value {
            label_data(data, &mut read_templates, &mut out);
        }
    }
    out.check = check(index, &out.edits);
    out
}

/// `mode: check`: one error per label that `fill` would write, at that label's field of its
/// object. `edits` are the ones [`apply`] returns.
fn check(index: &Index, edits: &[ItemEdit]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for e in edits {
        let Some(o) = index.object(e.item) else {
            continue;
        };
        let changes: Vec<(&str, &str, &str)> = match &e.edit {
            Edit::AddEntries { entries, .. } => entries
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str(), "add"))
                .collect(),
            Edit::SetScalar { path, value, .. } => match path.last() {
                Some(Seg::Key(k)) => vec![(k.as_str(), value.as_str(), "rewrite")],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for (key, value, verb) in changes {
            findings.push(
                Finding::error(format!(
                    "check: label {key} is not up to date: run ipreuse in fill mode and commit the \
                     result. Fill would {verb} {key}: {value:?} on {}",
                    o.display()
                ))
                .on(o.resource_ref())
                .at(key_path("metadata.labels", key)),
            );
        }
    }
    findings
}

/// The (host, pool) pairs whose claims the function labels: every BareMetalHost of the input
/// with every pool the function manages in the host's namespace.
struct Pairs<'a> {
    /// Managed pool names by namespace.
    pools: FastMap<&'a str, Vec<&'a str>>,
    /// Host names by namespace.
    hosts: FastMap<&'a str, FastSet<&'a str>>,
}

impl<'a> Pairs<'a> {
    fn new(index: &'a Index, managed: &[PoolId]) -> Pairs<'a> {
        let mut pools: FastMap<&str, Vec<&str>> = FastMap::default();
        for pool in managed.iter().map(|&p| &index.pools[p]) {
            pools
                .entry(pool.object.namespace.as_str())
                .or_default()
                .push(pool.name());
        }
        // In byte order of their names, as the mapping orders them.
        for names in pools.values_mut() {
            names.sort_unstable();
        }
        let mut hosts: FastMap<&str, FastSet<&str>> = FastMap::default();
        for h in &index.hosts {
            hosts
                .entry(h.object.namespace.as_str())
                .or_default()
                .insert(h.name());
        }
        Pairs { pools, hosts }
    }

    /// The known pairs whose claim name is `name` in `ns` (more than one when names with dashes
    /// coincide), in pool order.
    fn named(&self, ns: &str, name: &str) -> Vec<(&'a str, &'a str)> {
        let (Some(pools), Some(hosts)) = (self.pools.get(ns), self.hosts.get(ns)) else {
            return Vec::new();
        };
        pools
            .iter()
            .filter_map(|&pool| {
                // `name` is `names::claim_name(host, pool)` for this pool and some host
                let host = name.strip_suffix(pool)?.strip_suffix('-')?;
                hosts.get(host).map(|&host| (host, pool))
            })
            .collect()
    }
}

fn label_claim(claim: &IpClaim, pairs: &Pairs, out: &mut Outcome) {
    let o = &claim.object;
    let mut candidates = pairs.named(&o.namespace, &o.name);
    if candidates.is_empty() {
        // Not a claim of a known host and a managed pool (a legacy `{metal3data}-{pool}` claim,
        // another pool's, another host's): not ours to label.
        return;
    }
    // Its parts in the order they were read, each used only when the one before it can be.
    let Some(pool) = claim.pool.report(&mut out.findings) else {
        return;
    };
    let Some(data_owners) = claim.data_owners.report(&mut out.findings) else {
        return;
    };
    let Some(labels) = claim.labels.report(&mut out.findings) else {
        return;
    };
    if let Some(pool) = pool {
        let named: Vec<String> = candidates
            .iter()
            .map(|(h, p)| format!("host {} with pool {}", short(h), short(p)))
            .collect();
        candidates.retain(|(_, p)| p == pool);
        if candidates.is_empty() {
            out.findings.push(
                Finding::warning(format!(
                    "its name is the claim name of {}, but spec.pool.name is {:?}; its labels are left as \
                     they are: rename the claim or fix spec.pool.name",
                    named.join(" and of "),
                    short(pool)
                ))
                .on(o.resource_ref())
                .at("spec.pool.name"),
            );
            return;
        }
    }
    let (host, pool) = match candidates.as_slice() {
        [one] => *one,
        several => {
            let named: Vec<String> = several
                .iter()
                .map(|(h, p)| format!("host {} with pool {}", short(h), short(p)))
                .collect();
            out.findings.push(
                Finding::warning(format!(
                    "its name is the claim name of two hosts' pools: set spec.pool.name, or rename a host \
                     or pool. It is that of {}; without spec.pool.name ipreuse cannot tell which, so \
                     its labels are left as they are",
                    named.join(" and ")
                ))
                .on(o.resource_ref())
                .at("metadata.name"),
            );
            return;
        }
    };
    let mut wanted = Vec::new();
    let mut owners: Vec<&str> = data_owners.iter().map(|d| d.name.as_str()).collect();
    owners.sort_unstable();
    owners.dedup();
    match owners.as_slice() {
        [] => out.findings.push(
            Finding::warning(format!(
                "no ownerReferences entry of kind Metal3Data, so label {DATA_NAME} is not set: add the \
                 owner reference CAPM3 wrote. Or set the label by hand; CAPM3 lists a host's claims by \
                 it on release"
            ))
            .on(o.resource_ref())
            .at("metadata.ownerReferences"),
        ),
        [one] => wanted.push(Wanted {
            key: DATA_NAME,
            value: one,
            from: data_owners.first().map_or_else(String::new, |d| {
                format!("the Metal3Data that owns it, {}", d.field)
            }),
            source: data_owners.first().map(|d| d.field.clone()),
        }),
        several => out.findings.push(
            Finding::warning(format!(
                "ownerReferences name {} Metal3Data ({}); label {DATA_NAME} is not set: keep the one \
                 the claim was made for",
                several.len(),
                several
                    .iter()
                    .map(|n| short(n).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .on(o.resource_ref())
            .at("metadata.ownerReferences"),
        ),
    }
    wanted.push(Wanted {
        key: POOL_NAME,
        value: pool,
        from: format!(
            "its name is the claim of host {} in pool {}",
            short(host),
            short(pool)
        ),
        source: Some("metadata.name".into()),
    });
    write(o, labels, &wanted, out);
}

/// The Metal3DataTemplates of the input, as the model read them (the mapping uses the same).
struct Templates<'a> {
    model: &'a Model,
    /// namespace → name → item.
    found: FastMap<&'a str, FastMap<&'a str, ItemId>>,
}

impl<'a> Templates<'a> {
    /// The template named `ns`/`name`, if it is in the input, or why it could not be read (the
    /// first problem its reading found).
    fn get(&self, ns: &str, name: &str) -> Option<Result<&'a DataTemplate, String>> {
        let &item = self.found.get(ns)?.get(name)?;
        let Some(read) = self.model.data_templates.get(item) else {
            return Some(Err("it is not in the input".into()));
        };
        Some(read.value.as_ref().ok_or_else(|| {
            read.findings
                .first()
                .map_or_else(|| "it cannot be read".to_string(), |f| f.message.clone())
        }))
    }
}

fn label_data(data: &Metal3Data, templates: &mut Templates, out: &mut Outcome) {
    let o = &data.object;
    // The template, then the labels, each used only when the one before it can be.
    let Some(template) = data.template.report(&mut out.findings) else {
        return;
    };
    let Some(labels) = data.labels.report(&mut out.findings) else {
        return;
    };
    let mut wanted = vec![Wanted {
        key: DATA_NAME,
        value: &o.name,
        from: "its own name".into(),
        source: Some("metadata.name".into()),
    }];
    let pool_name = first_pool(o, template.as_ref(), templates, &mut out.findings);
    if let Some((pool, field)) = &pool_name {
        wanted.push(Wanted {
            key: POOL_NAME,
            value: pool,
            from: field.clone(),
            source: None,
        });
    }
    write(o, labels, &wanted, out);
}

/// The first Metal3 pool of the Metal3Data's template, with where it is written; `None` (with a
/// result saying why, when the person can do something about it) when it is not known offline.
fn first_pool(
    o: &Object,
    template: Option<&TemplateRef>,
    templates: &Templates,
    findings: &mut Vec<Finding>,
) -> Option<(String, String)> {
    let not_set = |why: String| format!("label {POOL_NAME} is not set: {why}");
    let Some(t) = template else {
        findings.push(
            Finding::warning(not_set(
                "spec.template.name is not written, so its Metal3DataTemplate is unknown".into(),
            ))
            .on(o.resource_ref())
            .at("spec.template.name"),
        );
        return None;
    };
    let shown = format!("{}/{}", short(&t.namespace), short(&t.name));
    let template = match templates.get(&t.namespace, &t.name) {
        None => {
            findings.push(
                Finding::warning(not_set(format!(
                    "its Metal3DataTemplate {shown} is not in the input; add it, so that the pool is read \
                     from it"
                )))
                .on(o.resource_ref())
                .at("spec.template.name"),
            );
            return None;
        }
        Some(Err(why)) => {
            findings.push(
                Finding::warning(not_set(format!(
                    "its Metal3DataTemplate {shown} cannot be read: {why}"
                )))
                .on(o.resource_ref())
                .at("spec.template.name"),
            );
            return None;
        }
        Some(Ok(template)) => template,
    };
    // No Metal3 pool at all: CAPM3 sets no pool-name either.
    let first: &PoolRef = template.refs.iter().find(|r| r.metal3)?;
    match (template.first_metal3_pool(), &first.name) {
        (Some(name), _) => Some((
            name.to_string(),
            format!(
                "the first Metal3 pool of its Metal3DataTemplate {shown}, {}",
                first.field
            ),
        )),
        (None, PoolName::Named(_)) => None,
        (None, PoolName::FromAnnotation { annotation, .. }) => {
            findings.push(
                Finding::info(not_set(format!(
                    "the first pool of its Metal3DataTemplate {shown} is read from annotation {annotation:?} \
                     of each machine ({}), which is only known in the cluster",
                    first.field
                )))
                .on(o.resource_ref())
                .at("spec.template.name"),
            );
            None
        }
    }
}

/// A label an object should have, and where its value comes from (for messages).
struct Wanted<'a> {
    key: &'static str,
    value: &'a str,
    from: String,
    /// The field of this object the value comes from (`metadata.name`, an owner reference's
    /// `name`), where a value Kubernetes refuses is reported when the label is not written
    /// yet; `None` when it comes from another object.
    source: Option<String>,
}

/// The edits that give `o` the `wanted` labels: added when missing (creating
/// `metadata.labels`), rewritten when different; errors for values Kubernetes refuses.
fn write(o: &Object, labels: &Labels, wanted: &[Wanted], out: &mut Outcome) {
    let labels_path = || vec![Seg::key("metadata"), Seg::key("labels")];
    let mut add = Vec::new();
    for w in wanted {
        let field = key_path("metadata.labels", w.key);
        if let Some(problem) = label_value_problem(w.value) {
            // At the label when it is written, else where its value comes from: the field to
            // change (a result sits at a field the object has).
            let at = match (labels.get(w.key), &w.source) {
                (None, Some(source)) => source.clone(),
                (None, None) => "metadata".to_string(),
                (Some(_), _) => field,
            };
            out.findings.push(
                Finding::error(format!(
                    "label {} cannot take this value: use a shorter name. The value would be {:?} \
                     ({}), which {problem}; CAPM3 cannot create its claims with such a label either",
                    w.key,
                    short(w.value),
                    w.from
                ))
                .on(o.resource_ref())
                .at(at),
            );
            continue;
        }
        let style = match labels.get(w.key) {
            None => {
                add.push((w.key.to_string(), w.value.to_string()));
                continue;
            }
            Some(LabelValue::Text(v)) if v == w.value => continue,
            Some(LabelValue::NotScalar) => {
                out.findings.push(
                    Finding::error(format!(
                        "label {} is a mapping or a list, not a string; write {:?}",
                        w.key, w.value
                    ))
                    .on(o.resource_ref())
                    .at(field),
                );
                continue;
            }
            Some(LabelValue::Text(old)) => {
                rewritten(o, w, &format!("{:?}", short(old)), &field, out);
                WriteStyle::Keep
            }
            // A number, boolean or null is not a label value: the new one is written as a string.
            Some(LabelValue::Other(old)) => {
                rewritten(o, w, old, &field, out);
                WriteStyle::DoubleQuoted
            }
        };
        let mut path = labels_path();
        path.push(Seg::key(w.key));
        out.edits.push(ItemEdit {
            item: o.index,
            edit: Edit::SetScalar {
                path,
                value: w.value.to_string(),
                style,
            },
        });
    }
    if !add.is_empty() {
        out.edits.push(ItemEdit {
            item: o.index,
            edit: Edit::AddEntries {
                path: labels_path(),
                entries: add,
            },
        });
    }
}

fn rewritten(o: &Object, w: &Wanted, old: &str, field: &str, out: &mut Outcome) {
    out.findings.push(
        Finding::warning(format!(
            "label {} was {old}; rewritten to {:?}. Where it comes from: {}",
            w.key,
            short(w.value),
            w.from
        ))
        .on(o.resource_ref())
        .at(field.to_string()),
    );
}

#[cfg(test)]
mod tests;
