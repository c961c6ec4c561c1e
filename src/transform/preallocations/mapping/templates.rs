//! The template-derived mapping (SPEC §4 `templates`, and `auto`'s choice of it): for each
//! Metal3MachineTemplate T, the hosts of T's namespace that T's `hostSelector` matches (CAPM3's
//! dialect, FACTS §3) × the Metal3 pools T's Metal3DataTemplate references (FACTS §2), with a
//! `fromPoolAnnotation` on `baremetalhost` resolved per host from the host's annotations.
//!
//! - A host two templates select needs the pools of both; a host no template selects needs
//!   nothing (an info result counts them per namespace).
//! - What cannot be resolved offline is an error naming the template and field: a data
//!   template or pool missing from the input, a `fromPoolAnnotation` on `machine` or
//!   `metal3machine`, a selected host without the annotation its pool comes from. A
//!   reference to another kind of pool (CAPI's in-cluster pools) is an info: such claims are
//!   named after the Metal3Data and cannot be preallocated by host.
//! - The config's `hostSelector` and `pools` narrow the hosts and pools first: a missing pool
//!   that `pools` leaves out is no error.
//!
//! `auto` maps a namespace by templates when it holds a Metal3MachineTemplate whose data
//! template is in the input, by `all` elsewhere. A namespace's machine templates and data
//! templates are read (and their problems reported) only when the namespace uses them.

use crate::{FastMap, FastSet};
use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, MappingMode};
use crate::model::data_template::{AnnotatedObject, DataTemplate, PoolName, PoolRef};
use crate::model::machine_template::{DATA_TEMPLATE, DataTemplateRef, MachineTemplate};
use crate::model::objects::Read;
use crate::model::{CAPM3_GROUP, HostId, Index, ItemId, Model, PoolId};
use crate::names::{LABEL_VALUE_MAX, ordinal, short};
use crate::results::{Finding, key_path};

use super::topologies;

/// The label CAPM3 gives each IPClaim it names after a host: the Metal3Data the claim was made
/// for (and a Metal3Data's own name). The mapping names it in its messages, the labels
/// transformation writes it; it lives here, below the labels (and beside the templates that name it), so that the arrow points one way.
pub const DATA_NAME: &str = "infrastructure.cluster.x-k8s.io/data-name";
/// The label naming the pool a claim allocates from (as [`DATA_NAME`]).
pub const POOL_NAME: &str = "infrastructure.cluster.x-k8s.io/pool-name";

/// A machine template a namespace may map by: with its reader's findings, and, for a Cluster's
/// copy of a ClusterClass's template, where its rows come from ([`super::Plan::origins`]).
type Used<'a> = (&'a MachineTemplate, &'a [Finding], Option<String>);

/// At most this many names in an info result, then "and N more".
const NAMED: usize = 3;

/// Why a namespace uses the mapping it uses.
#[derive(Debug, Clone)]
enum Why {
    /// `mapping: templates`.
    Configured,
    /// `auto`, with these machine templates (shown names) whose data templates are here.
    Found(Vec<String>),
}

/// The machine templates of the input and what they make of the namespaces that use them.
pub(super) struct Templates {
    /// The namespaces mapped by templates, and why.
    namespaces: BTreeMap<String, Why>,
    /// `auto` namespaces mapped by `all` although they hold machine templates: why not.
    not_used: BTreeMap<String, String>,
    /// The pools the templates name in those namespaces (narrowed by the config), with the
    /// hosts that need an entry in each.
    pairs: FastMap<PoolId, BTreeSet<HostId>>,
    /// The Clusters' parts (`{cluster}/control-plane`, `{cluster}/{md}`) each pair of a
    /// ClusterClass's copy comes from ([`super::Plan::origins`]).
    origins: BTreeMap<(PoolId, HostId), BTreeSet<String>>,
}

impl Templates {
    /// Reads the machine templates (unless the mapping is `all`), decides which namespaces
    /// use them, and derives their pairs. Problems of what those namespaces use go to
    /// `findings`, and one info per namespace counts the hosts no template selects.
    pub(super) fn new(model: &Model, cfg: &Config, findings: &mut Vec<Finding>) -> Templates {
        let idx = &model.index;
        let mut t = Templates {
            namespaces: BTreeMap::new(),
            not_used: BTreeMap::new(),
            pairs: FastMap::default(),
            origins: BTreeMap::new(),
        };
        if cfg.mapping == MappingMode::All {
            return t;
        }
        // The Clusters' copies of their classes' templates, patched (SPEC §11); the class
        // templates themselves are mapped only through them.
        let topologies = topologies::read(model, findings);
        // Every machine template as the model read it, with its own findings (reported only if
        // it is used).
        let mut by_ns: BTreeMap<&str, Vec<Used<'_>>> = BTreeMap::new();
        let mut skipped: BTreeMap<&str, Vec<Finding>> = BTreeMap::new();
        for read in model.machine_templates.iter() {
            let Some(o) = idx.object(read.item) else {
                continue;
            };
            if topologies.class_templates.contains(&o.index) {
                continue;
            }
            match &read.value {
                Some(m) => {
                    by_ns
                        .entry(o.namespace.as_str())
                        .or_default()
                        .push((m, &read.findings, None))
                }
                None => skipped
                    .entry(o.namespace.as_str())
                    .or_default()
                    .extend(read.findings.iter().cloned()),
            }
        }
        for e in &topologies.effective {
            by_ns
                .entry(e.cluster.namespace.as_str())
                .or_default()
                .push((&e.template, &[], Some(e.origin())));
        }
        let data_templates: FastMap<(&str, &str), ItemId> = idx
            .objects_of(CAPM3_GROUP, "Metal3DataTemplate")
            .map(|o| ((o.namespace.as_str(), o.name.as_str()), o.index))
            .collect();
        let present = |r: &DataTemplateRef| {
            data_templates.contains_key(&(r.namespace.as_str(), r.name.as_str()))
        };
        // Which namespaces use templates.
        if cfg.mapping == MappingMode::Templates {
            let mut all: BTreeSet<&str> = by_ns.keys().chain(skipped.keys()).copied().collect();
            all.extend(idx.hosts.iter().map(|h| h.object.namespace.as_str()));
            all.extend(idx.pools.iter().map(|p| p.object.namespace.as_str()));
            for ns in all {
                t.namespaces.insert(ns.to_string(), Why::Configured);
            }
        } else {
            let mut seen: BTreeSet<&str> = skipped.keys().copied().collect();
            for (ns, templates) in &by_ns {
                seen.insert(ns);
                let mut found: Vec<String> = Vec::new();
                // each Cluster's copy has its class template's name: named once
                for (m, _, _) in templates {
                    let name = short(&m.object.name).into_owned();
                    if m.data_template.as_ref().is_some_and(present) && !found.contains(&name) {
                        found.push(name);
                    }
                }
                if !found.is_empty() {
                    t.namespaces.insert(ns.to_string(), Why::Found(found));
                }
            }
            for ns in seen {
                if t.namespaces.contains_key(ns) {
                    continue;
                }
                let why = by_ns
                    .get(ns)
                    .and_then(|ts| {
                        ts.iter().find_map(|(m, _, _)| {
                            m.data_template.as_ref().map(|r| {
                                format!(
                                    "Metal3MachineTemplate {} names Metal3DataTemplate {}/{}, which is not in the input",
                                    short(&m.object.name),
                                    short(&r.namespace),
                                    short(&r.name)
                                )
                            })
                        })
                    })
                    .unwrap_or_else(|| {
                        "no Metal3MachineTemplate here names a Metal3DataTemplate of the input".to_string()
                    });
                t.not_used.insert(ns.to_string(), why);
            }
        }
        // The pairs of each namespace that uses templates.
        let mut derive = Derive {
            idx,
            model,
            cfg,
            data_templates: &data_templates,
            used: FastSet::default(),
            reported: FastSet::default(),
            pools: idx
                .pools
                .iter()
                .enumerate()
                .map(|(i, p)| ((p.object.namespace.as_str(), p.name()), PoolId(i)))
                .collect(),
            pairs: FastMap::default(),
            origins: BTreeMap::new(),
            origin: None,
            findings,
        };
        let mut hosts_of: FastMap<&str, Vec<HostId>> = FastMap::default();
        for (i, h) in idx.hosts.iter().enumerate() {
            if t.namespaces.contains_key(h.object.namespace.as_str())
                && h.labels.selected_by(&cfg.host_selector)
            {
                hosts_of
                    .entry(h.object.namespace.as_str())
                    .or_default()
                    .push(HostId(i));
            }
        }
        for ns in t.namespaces.keys() {
            let ns = ns.as_str();
            derive
                .findings
                .extend(skipped.remove(ns).unwrap_or_default());
            let hosts = hosts_of.get(ns).map_or(&[][..], Vec::as_slice);
            let mut selected: FastSet<HostId> = FastSet::default();
            for (m, own, origin) in by_ns.remove(ns).unwrap_or_default() {
                derive.findings.extend(own.iter().cloned());
                let Some(selector) = &m.host_selector else {
                    continue;
                };
                let mine: Vec<HostId> = hosts
                    .iter()
                    .copied()
                    .filter(|&h| idx.hosts[h].labels.selected_by(selector))
                    .collect();
                selected.extend(&mine);
                derive.origin = origin;
                derive.template(m, &mine);
            }
            let mut unselected: Vec<&str> = hosts
                .iter()
                .filter(|h| !selected.contains(h))
                .map(|&h| idx.hosts[h].name())
                .collect();
            if !unselected.is_empty() {
                unselected.sort_by(|a, b| crate::natural::compare(a, b));
                derive.findings.push(Finding::info(format!(
                    "namespace {ns:?}: {} BareMetalHost(s) that no Metal3MachineTemplate selects get no entries: {}",
                    unselected.len(),
                    named_list(&unselected)
                )));
            }
        }
        t.pairs = derive.pairs;
        t.origins = derive.origins;
        t
    }

    /// Where each pair of a Cluster's copy comes from ([`Templates::origins`]).
    pub(super) fn take_origins(&mut self) -> BTreeMap<(PoolId, HostId), BTreeSet<String>> {
        std::mem::take(&mut self.origins)
    }

    /// Whether namespace `ns` is mapped by templates.
    pub(super) fn maps(&self, ns: &str) -> bool {
        self.namespaces.contains_key(ns)
    }

    /// For a pool of a namespace mapped by templates: the hosts that need an entry in it, or
    /// `None` when no template names it (it is then not managed).
    pub(super) fn hosts(&self, pool: PoolId) -> Option<&BTreeSet<HostId>> {
        self.pairs.get(&pool)
    }

    /// The info result saying how namespace `ns` is mapped, and why.
    pub(super) fn info(&self, ns: &str) -> Finding {
        const ALL: &str =
            "every selected BareMetalHost with every selected IPPool of the namespace";
        const TEMPLATES: &str = "Each selected BareMetalHost gets the Metal3 IPPools of the \
                                 Metal3DataTemplates of the Metal3MachineTemplates that select it";
        Finding::info(match (self.namespaces.get(ns), self.not_used.get(ns)) {
            (Some(Why::Configured), _) => {
                format!("namespace {ns:?}: mapping templates (as configured). {TEMPLATES}")
            }
            (Some(Why::Found(templates)), _) => format!(
                "namespace {ns:?}: mapping templates (auto: its Metal3MachineTemplates and their \
                 Metal3DataTemplates are in the input). {TEMPLATES}. The machine templates: {}",
                named_list(templates),
            ),
            (None, Some(why)) => format!("namespace {ns:?}: mapping all (auto: {why}): {ALL}"),
            (None, None) => format!("namespace {ns:?}: mapping all ({ALL})"),
        })
    }

    /// The namespaces mapped by templates.
    pub(super) fn namespaces(&self) -> impl Iterator<Item = &str> {
        self.namespaces.keys().map(String::as_str)
    }
}

/// `a, b, c and 4 more`.
fn named_list<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(NAMED)
        .map(|n| short(n.as_ref()).into_owned())
        .collect();
    let mut text = shown.join(", ");
    if names.len() > NAMED {
        text.push_str(&format!(" and {} more", names.len() - NAMED));
    }
    text
}

/// The pairs of the templates of the namespaces that use them.
struct Derive<'a, 'f> {
    idx: &'a Index,
    model: &'a Model,
    cfg: &'a Config,
    data_templates: &'a FastMap<(&'a str, &'a str), ItemId>,
    /// The data templates used so far, whose problems are reported (once).
    used: FastSet<ItemId>,
    /// Results already given about a data template's field (several machine templates may use
    /// one data template), or about a host's annotation.
    reported: FastSet<(ItemId, String)>,
    /// Pools by (namespace, name).
    pools: FastMap<(&'a str, &'a str), PoolId>,
    pairs: FastMap<PoolId, BTreeSet<HostId>>,
    /// Where the pairs of each Cluster's copy come from, and that of the template being derived.
    origins: BTreeMap<(PoolId, HostId), BTreeSet<String>>,
    origin: Option<String>,
    findings: &'f mut Vec<Finding>,
}

impl<'a> Derive<'a, '_> {
    /// The pairs of machine template `m`, whose selector matches `hosts`.
    fn template(&mut self, m: &MachineTemplate, hosts: &[HostId]) {
        let Some(r) = &m.data_template else {
            return;
        };
        if r.namespace != m.object.namespace {
            // The reader's error says why; no pairs across namespaces.
            return;
        }
        let Some(&item) = self
            .data_templates
            .get(&(r.namespace.as_str(), r.name.as_str()))
        else {
            self.findings.push(
                Finding::error(format!(
                    "Metal3DataTemplate {}/{} is not in the input: add it. The pools this template's \
                     machines claim are read from it",
                    short(&r.namespace),
                    short(&r.name)
                ))
                .on(m.object.resource_ref())
                .at(format!("{DATA_TEMPLATE}.name")),
            );
            return;
        };
        let read: Option<&'a Read<DataTemplate>> = self.model.data_templates.get(item);
        let dt = match read {
            Some(read) if self.used.insert(item) => read.report(self.findings),
            Some(read) => read.value.as_ref(),
            None => None,
        };
        let Some(dt) = dt else {
            self.findings.push(
                Finding::error(format!(
                    "its Metal3DataTemplate {}/{} cannot be read: fix the data template (the result \
                     about it says why). Until then the pools of the hosts this template selects are unknown",
                    short(&r.namespace),
                    short(&r.name)
                ))
                .on(m.object.resource_ref())
                .at(format!("{DATA_TEMPLATE}.name")),
            );
            return;
        };
        for pool in &dt.refs {
            match &pool.name {
                PoolName::Named(name) if !pool.metal3 => {
                    self.once(item, &pool.field, || {
                        Finding::info(format!(
                            "pool {:?} is a {}, not a Metal3 IPPool, so it is skipped. CAPM3 names \
                             its claims after the Metal3Data, so it cannot be preallocated by host",
                            short(name),
                            pool.kind
                        ))
                    });
                }
                PoolName::Named(name) => {
                    let ns = m.object.namespace.as_str();
                    if !self.cfg.manages_pool(ns, name) {
                        continue;
                    }
                    match self.pools.get(&(ns, name.as_str())) {
                        Some(&p) => self.add(p, hosts),
                        None => {
                            let shown = m.object.display();
                            self.once(item, &pool.field, || {
                                Finding::error(format!(
                                    "this IPPool is not in the input: add it, or leave it out with the \
                                     config's pools. It is IPPool {}/{}, and {shown} claims from it",
                                    short(ns),
                                    short(name)
                                ))
                            });
                        }
                    }
                }
                PoolName::FromAnnotation {
                    object: AnnotatedObject::BareMetalHost,
                    annotation,
                } => {
                    for &h in hosts {
                        self.annotated(m, dt, pool, annotation, h);
                    }
                }
                PoolName::FromAnnotation {
                    object: AnnotatedObject::Other(object),
                    annotation,
                } => {
                    let shown = m.object.display();
                    let known = AnnotatedObject::Other(object.clone()).known();
                    self.once(item, &format!("{}.object", pool.field), || {
                        Finding::error(if known {
                            format!(
                                "read the pool's name from the BareMetalHost (object: baremetalhost) or \
                                 name the pool: ipreuse cannot tell which pool the hosts need. The pool \
                                 at {} is named by annotation {annotation:?} of each {object}, which only \
                                 exists in the running cluster; the hosts are those of {shown}",
                                pool.field
                            )
                        } else {
                            format!(
                                "write baremetalhost here: CAPM3 knows only baremetalhost, machine and \
                                 metal3machine. This is {object:?}, so CAPM3 fails the claims of {shown}"
                            )
                        })
                    });
                }
            }
        }
    }

    /// Pool `p` needs entries for `hosts`, for the template being derived.
    fn add(&mut self, p: PoolId, hosts: &[HostId]) {
        self.pairs.entry(p).or_default().extend(hosts);
        if let Some(origin) = &self.origin {
            for &h in hosts {
                self.origins
                    .entry((p, h))
                    .or_default()
                    .insert(origin.clone());
            }
        }
    }

    /// The pool host `h` takes through a `fromPoolAnnotation` on `baremetalhost` of `dt`.
    fn annotated(
        &mut self,
        m: &MachineTemplate,
        dt: &DataTemplate,
        pool: &PoolRef,
        annotation: &str,
        h: HostId,
    ) {
        let host = &self.idx.hosts[h];
        let ns = host.object.namespace.as_str();
        let field = key_path("metadata.annotations", annotation);
        let error = |what: String| {
            Finding::error(format!(
                "{what}. {} reads it at {} for {}",
                dt.object.display(),
                pool.field,
                m.object.display()
            ))
            .on(host.object.resource_ref())
            .at(field.clone())
        };
        let key = (host.object.index, field.clone());
        let name = match host.annotations.get(annotation).filter(|v| !v.is_empty()) {
            Some(name) => name,
            None => {
                if self.reported.insert(key) {
                    self.findings.push(error(format!(
                        "annotation {annotation:?} is missing or empty: set it to the name of the IPPool the \
                         host claims an address from, or CAPM3 fails its claims"
                    )));
                }
                return;
            }
        };
        if !self.cfg.manages_pool(ns, name) {
            return;
        }
        let other = dt
            .refs
            .iter()
            .find(|r| !r.metal3 && r.name == PoolName::Named(name.clone()));
        if let Some(other) = other {
            if self.reported.insert(key) {
                self.findings.push(error(format!(
                    "this annotation names a pool the data template also references as another kind: \
                     name another pool, since CAPM3 refuses one name with two kinds. The pool is {:?}, \
                     referenced as a {} at {}",
                    short(name),
                    other.kind,
                    other.field
                )));
            }
            return;
        }
        match self.pools.get(&(ns, name.as_str())) {
            Some(&p) => self.add(p, &[h]),
            None => {
                if self.reported.insert(key) {
                    self.findings.push(error(format!(
                        "this annotation names an IPPool that is not in the input: add it, or fix the \
                         annotation. The IPPool is {}/{}",
                        short(ns),
                        short(name)
                    )));
                }
            }
        }
    }

    /// Reports a result about field `field` of data template `item` once, whichever machine
    /// templates use it.
    fn once(&mut self, item: ItemId, field: &str, make: impl FnOnce() -> Finding) {
        if !self.reported.insert((item, field.to_string())) {
            return;
        }
        if let Some(o) = self.idx.object(item) {
            self.findings.push(make().on(o.resource_ref()).at(field));
        }
    }
}

/// The longest Metal3DataTemplate name whose Metal3Data names (`{template}-{index}`) fit a
/// label value from index 0 to 9.
const DATA_TEMPLATE_NAME_MAX: usize = LABEL_VALUE_MAX - 2;

/// SPEC §8 "Names": CAPM3 names each Metal3Data `{template}-{index}` (index from 0) and, with
/// BMH-name-based preallocation on, writes that name into the `data-name` label of each claim
/// (FACTS §1), which holds at most 63 characters. A Metal3DataTemplate over 61 characters
/// cannot have a claim at all (an error at its `metadata.name`); one of 59 to 61 loses them from
/// index 1000, 100 or 10 on (a warning). Only templates that claim from a Metal3 pool (or that
/// cannot be read, so that this is unknown) count: the others make no such claims. Every
/// data template of the input is checked, whichever mapping its namespace uses, since the flag
/// is on for all of them.
pub(super) fn check_data_template_names(model: &Model, findings: &mut Vec<Finding>) {
    let idx = &model.index;
    for o in idx.objects_of(CAPM3_GROUP, "Metal3DataTemplate") {
        let n = o.name.chars().count();
        // 58 characters or fewer reach 63 at index 10000 only: no warning.
        if n + 5 <= LABEL_VALUE_MAX {
            continue;
        }
        let claims = model.data_templates.get(o.index).is_some_and(|read| {
            read.value
                .as_ref()
                .is_none_or(|dt| dt.refs.iter().any(|r| r.metal3))
        });
        if !claims {
            continue;
        }
        let why = format!(
            "CAPM3 names each Metal3Data {{template}}-{{index}} and, with BMH-name-based \
             preallocation on, writes that name into the label {DATA_NAME} of each IPClaim, which \
             holds at most {LABEL_VALUE_MAX} characters"
        );
        let finding = if n > DATA_TEMPLATE_NAME_MAX {
            Finding::error(format!(
                "the name is {n} characters long: shorten it to {} characters or fewer, or CAPM3 \
                 cannot create the claims of this template's machines. {why}, so already {}-0 is \
                 too long",
                LABEL_VALUE_MAX - 5,
                short(&o.name)
            ))
        } else {
            // The first index whose Metal3Data name passes 63 characters.
            let from = 10usize.pow(u32::try_from(LABEL_VALUE_MAX - 1 - n).unwrap_or(0));
            Finding::warning(format!(
                "the name is {n} characters long: shorten it to {} characters or fewer, or CAPM3 \
                 cannot create the claims of this template's machines from index {from} on. {why}, \
                 and index {from} is the {} machine of this template at once",
                LABEL_VALUE_MAX - 5,
                ordinal(from + 1)
            ))
        };
        findings.push(finding.on(o.resource_ref()).at("metadata.name"));
    }
}

/// SPEC §3: every field of a Metal3DataTemplate or Metal3MachineTemplate of the input spelled
/// as the other API version spells it is a warning (the model's [`Model::other_spellings`]),
/// whichever mapping its namespace uses: the API server drops it, so CAPM3 never sees it
/// either.
pub(super) fn check_spellings(model: &Model, findings: &mut Vec<Finding>) {
    findings.extend(model.other_spellings.iter().cloned());
}
