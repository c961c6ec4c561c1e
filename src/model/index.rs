//! The index: every item's identity, and the kinds every stage needs (hosts, pools,
//! control-plane endpoints: [`Indexed`]), with the findings about the input as a whole
//! (duplicates, mixed namespaces, hosts and pools that never meet).

use crate::{FastMap, FastSet};
use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::sync::Arc;

use super::ids::ItemId;
use super::object::Object;
use super::reading::{Reading, Taken};
use super::view::View;
use super::{BMO_GROUP, CAPM3_GROUP, IPAM_GROUP, cluster, host, pool};
use crate::results::Finding;
use crate::yaml::Node;

/// Everything the function reads, indexed.
#[derive(Debug, Default)]
pub struct Index {
    /// Identities of all items, by input position (`None`: not a Kubernetes object).
    /// A host's is shared with its [`host::Host`].
    pub objects: Vec<Option<Arc<Object>>>,
    pub hosts: Vec<host::Host>,
    pub pools: Vec<pool::Pool>,
    /// IP-literal control-plane endpoints (`Metal3Cluster`, `Cluster`) per namespace.
    pub endpoints: BTreeMap<String, Vec<(String, ItemId)>>,
}

/// The kinds the index reads itself, for every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indexed {
    /// `metal3.io` BareMetalHost: [`host::Host`].
    Host,
    /// `ipam.metal3.io` IPPool: [`pool::Pool`].
    Pool,
    /// Cluster API `Cluster` or CAPM3 `Metal3Cluster`: the control-plane endpoint ([`cluster`]).
    Cluster,
}

impl Indexed {
    /// Which of the indexed kinds `object` is, if any.
    pub fn of(object: &Object) -> Option<Indexed> {
        if object.is(BMO_GROUP, "BareMetalHost") {
            Some(Indexed::Host)
        } else if object.is(IPAM_GROUP, "IPPool") {
            Some(Indexed::Pool)
        } else if cluster::is_cluster(object) {
            Some(Indexed::Cluster)
        } else {
            None
        }
    }
}

impl Index {
    /// The objects of `group`/`kind` (any version) the function may read: not local
    /// configuration, with a usable name and namespace, in input order.
    pub fn objects_of<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.readable().filter(move |o| o.is(group, kind))
    }

    /// Every object the function may read: not local configuration, with a usable name and
    /// namespace, in input order.
    pub fn readable(&self) -> impl Iterator<Item = &Object> {
        self.objects
            .iter()
            .flatten()
            .map(|o| &**o)
            .filter(|o| !o.local_config && o.bad_identity.is_none())
    }

    /// The object at input position `item`, if it is a Kubernetes object.
    pub fn object(&self, item: ItemId) -> Option<&Object> {
        self.objects.get(item.0).and_then(Option::as_deref)
    }
}

/// An item kept only as its span ([`Node::is_taken`]) for which nothing was read when it was
/// taken (a bug: the item would read as nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotTaken {
    /// Its position in the items.
    pub item: ItemId,
}

/// The index of the items (each with its source and node), read from their trees; reports
/// duplicates, unrendered templates, mixed namespaces and hosts and pools that never meet. The
/// items without `metadata.namespace` are read as in `default_namespace` (the config's
/// `defaultNamespace`; `None`: `default`). An item `taken` as the input was parsed is read
/// from there, so the trees of thousands of objects are never held at once; what was read of
/// those that are not hosts is left out (the [`super::Model`] reads it: [`index_taking`]).
pub fn index_items(
    items: &[(usize, &Node)],
    taken: Taken,
    default_namespace: Option<&str>,
    findings: &mut Vec<Finding>,
) -> Result<Index, NotTaken> {
    index_taking(items, taken, default_namespace, findings).map(|(index, _)| index)
}

/// [`index_items`], with what was read of the items taken that are not hosts, placed, in input
/// order, for their kinds' places in the [`super::Model`].
pub(super) fn index_taking(
    items: &[(usize, &Node)],
    taken: Taken,
    default_namespace: Option<&str>,
    findings: &mut Vec<Finding>,
) -> Result<(Index, Vec<Reading>), NotTaken> {
    let mut indexing = Indexing::new(items.len(), default_namespace);
    let hosts = (taken.0.iter())
        .filter(|(_, r)| matches!(r, Reading::Host(_)))
        .count();
    // most hosts are taken: room for them at once, rather than doubling through them
    indexing.idx.hosts.reserve_exact(hosts);
    let mut early = Vec::with_capacity(taken.0.len() - hosts);
    // Both in the order of the text: a merge of the two lists.
    let mut taken = taken.0.into_iter().peekable();
    for (i, &(source, node)) in items.iter().enumerate() {
        let at = (source, node.span.start);
        while taken.next_if(|(k, _)| *k < at).is_some() {}
        let read = taken.next_if(|(k, _)| *k == at).map(|(_, read)| read);
        match read {
            Some(mut read) if node.is_taken() => {
                read.place(ItemId(i), default_namespace);
                match read {
                    Reading::Host(host) => indexing.host(host, findings),
                    other => match other.object() {
                        Some(o) => {
                            let endpoint = match &other {
                                Reading::Cluster(r) => {
                                    r.value.as_ref().and_then(|c| c.endpoint.as_deref())
                                }
                                _ => None,
                            };
                            indexing.taken(Arc::new(o.clone()), endpoint, findings);
                            early.push(other);
                        }
                        None => return Err(NotTaken { item: ItemId(i) }),
                    },
                }
                continue;
            }
            _ if node.is_taken() => return Err(NotTaken { item: ItemId(i) }),
            _ => {}
        }
        indexing.item(i, View::new(node), findings);
    }
    Ok((indexing.finish(findings), early))
}

/// An index being built, item by item.
struct Indexing {
    idx: Index,
    seen: Seen,
    ns_written: BTreeMap<String, NamespaceUse>,
    /// `defaultNamespace`, when set: the namespace of the objects without one.
    default_namespace: Option<String>,
}

impl Indexing {
    fn new(items: usize, default_namespace: Option<&str>) -> Indexing {
        let mut idx = Index::default();
        idx.objects.reserve_exact(items);
        Indexing {
            idx,
            seen: Seen::default(),
            ns_written: BTreeMap::new(),
            default_namespace: default_namespace.map(str::to_string),
        }
    }

    /// Reads item `i`; which of the indexed kinds it is, when it is one and can be read.
    fn item(&mut self, i: usize, value: View<'_>, findings: &mut Vec<Finding>) -> Option<Indexed> {
        let Indexing {
            idx,
            seen,
            ns_written,
            default_namespace,
        } = self;
        let obj = Object::read(ItemId(i), value)
            .map(|mut o| {
                o.place(ItemId(i), default_namespace.as_deref());
                o
            })
            .map(Arc::new);
        let Some(o) = obj.as_ref() else {
            idx.objects.push(None);
            return None;
        };
        if o.local_config {
            idx.objects.push(obj);
            return None;
        }
        let kind = Indexed::of(o);
        if let Some((field, what)) = &o.bad_identity {
            // Only the objects the function reads need a name and namespace it can use.
            if kind.is_some() {
                findings.push(
                    Finding::error(format!(
                        "this field {what}; give the object a name (and namespace) as Kubernetes \
                         requires, or leave it out of the input. It is {}",
                        o.display()
                    ))
                    .on(o.resource_ref())
                    .at(*field),
                );
            }
            idx.objects.push(obj);
            return None;
        }
        seen.note(&idx.objects, o, findings);
        let read = match kind {
            Some(Indexed::Host) => host::Host::read(o, value, findings).map(|h| idx.hosts.push(h)),
            Some(Indexed::Pool) => pool::Pool::read(o, value, findings).map(|p| idx.pools.push(p)),
            Some(Indexed::Cluster) => {
                if let Some(host) = cluster::endpoint(value) {
                    idx.endpoints
                        .entry(o.namespace.clone())
                        .or_default()
                        .push((endpoint_text(host), o.index));
                }
                Some(())
            }
            None => None,
        };
        if read.is_some() || is_template(o) {
            note_namespace(ns_written, o);
        }
        idx.objects.push(obj);
        read.and(kind)
    }

    /// A host read as the input was parsed, placed: what [`Indexing::item`] does for a host it
    /// reads.
    fn host(&mut self, host: host::Host, findings: &mut Vec<Finding>) {
        self.seen.note(&self.idx.objects, &host.object, findings);
        note_namespace(&mut self.ns_written, &host.object);
        self.idx.objects.push(Some(Arc::clone(&host.object)));
        self.idx.hosts.push(host);
    }

    /// An object of a kind the index does not read, read as the input was parsed and placed:
    /// what [`Indexing::item`] does for such an object.
    /// A Cluster's control-plane `endpoint` is recorded as [`Indexing::item`] records it.
    fn taken(&mut self, o: Arc<Object>, endpoint: Option<&str>, findings: &mut Vec<Finding>) {
        self.seen.note(&self.idx.objects, &o, findings);
        let cluster = Indexed::of(&o) == Some(Indexed::Cluster);
        if cluster || is_template(&o) {
            note_namespace(&mut self.ns_written, &o);
        }
        if let Some(host) = endpoint.filter(|_| cluster) {
            self.idx
                .endpoints
                .entry(o.namespace.clone())
                .or_default()
                .push((endpoint_text(host), o.index));
        }
        self.idx.objects.push(Some(o));
    }

    fn finish(self, findings: &mut Vec<Finding>) -> Index {
        let Indexing {
            mut idx,
            ns_written,
            default_namespace,
            ..
        } = self;
        let default_namespace = default_namespace.as_deref();
        for (ns, used) in &ns_written {
            if let Some(f) = used.mixed(ns, default_namespace) {
                findings.push(f);
            }
        }
        findings.extend(never_meet(&idx, default_namespace));
        idx.hosts.shrink_to_fit();
        idx.pools.shrink_to_fit();
        idx
    }
}

/// The objects seen so far, for the duplicate check, by their identity (group, kind,
/// namespace, name): by its hash, the first object read with that hash (an index into the
/// objects read); identities whose hash another one has too, in full.
#[derive(Default)]
struct Seen {
    first: FastMap<u64, ItemId>,
    shared: FastSet<(String, String, String, String)>,
}

impl Seen {
    /// Notes object `o`, not yet in `objects` (those read before it, by input position); an
    /// object seen twice is an error.
    fn note(&mut self, objects: &[Option<Arc<Object>>], o: &Object, findings: &mut Vec<Finding>) {
        let identity = |o: &Object| {
            (
                o.group().to_string(),
                o.kind.to_string(),
                o.namespace.clone(),
                o.name.clone(),
            )
        };
        let same = |a: &Object, b: &Object| {
            (a.group(), &a.kind, &a.namespace, &a.name)
                == (b.group(), &b.kind, &b.namespace, &b.name)
        };
        let hash = self
            .first
            .hasher()
            .hash_one((o.group(), &o.kind, &o.namespace, &o.name));
        let new = match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(o.index);
                true
            }
            std::collections::hash_map::Entry::Occupied(e) => {
                match objects.get(e.get().0).and_then(Option::as_deref) {
                    Some(first) if same(first, o) => false,
                    Some(first) => {
                        self.shared.insert(identity(first));
                        self.shared.insert(identity(o))
                    }
                    None => self.shared.insert(identity(o)),
                }
            }
        };
        if !new {
            findings.push(
                Finding::error(
                    "this object appears twice in the input: remove one, or give them different names",
                )
                .on(o.resource_ref())
                .at("metadata.name"),
            );
        }
    }
}

/// Whether `o` is a machine or data template, which count for the mixed-namespace warning as
/// hosts and pools do: a template placed elsewhere references nothing.
/// A control-plane endpoint as the canonical text of its address. [`cluster::endpoint`] takes
/// whatever `IpAddr` parses, so an IPv6 address written with a dotted tail (`fd00::0.0.0.1`,
/// which is `fd00::1`) too, while the readers of [`Index::endpoints`] parse it as the IPAM does
/// (`ipam::parse_addr`, which refuses that spelling): kept as written, such an endpoint was
/// reserved nowhere and a host or a block could take its address.
fn endpoint_text(host: &str) -> String {
    host.parse::<std::net::IpAddr>()
        .map_or_else(|_| host.to_string(), |a| a.to_string())
}

fn is_template(o: &Object) -> bool {
    o.is(CAPM3_GROUP, "Metal3MachineTemplate") || o.is(CAPM3_GROUP, "Metal3DataTemplate")
}

/// The objects read in one namespace, for the mixed-namespace warning: how many set
/// `metadata.namespace` and how many do not, and the first of each.
#[derive(Default)]
struct NamespaceUse {
    with: (usize, Option<Object>),
    without: (usize, Option<Object>),
}

impl NamespaceUse {
    /// The warning when the namespace mixes both, on the first object without a namespace, at
    /// `metadata` (where `namespace` would go; `metadata.namespace` does not exist there).
    fn mixed(&self, ns: &str, default_namespace: Option<&str>) -> Option<Finding> {
        let ((n_with, Some(with)), (n_without, Some(without))) = (&self.with, &self.without) else {
            return None;
        };
        let some = |o: &Object, n: usize| match n {
            1 => o.display(),
            n => format!("{} and {} more", o.display(), n - 1),
        };
        let why = match default_namespace {
            Some(d) => format!("read as in {d:?} by defaultNamespace"),
            None => "read as in \"default\": no defaultNamespace is set".to_string(),
        };
        Some(
            Finding::warning(format!(
                "namespace {ns:?} mixes objects that set metadata.namespace with objects that do not: \
                 set it on all of them. An orchestrator may place the unset ones elsewhere. It is set \
                 on {} and not on {} ({why})",
                some(with, *n_with),
                some(without, *n_without),
            ))
            .on(without.resource_ref())
            .at("metadata"),
        )
    }
}

/// Notes whether an object read sets its namespace (for the mixed-namespace warning).
fn note_namespace(ns_written: &mut BTreeMap<String, NamespaceUse>, o: &Object) {
    let e = ns_written.entry(o.namespace.clone()).or_default();
    let side = if o.namespace_set {
        &mut e.with
    } else {
        &mut e.without
    };
    side.0 += 1;
    if side.1.is_none() {
        side.1 = Some(o.clone());
    }
}

/// At most three names and a count of the rest: `"a", "b", "c" and 2 more`.
fn some_of(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(3).map(|n| format!("{n:?}")).collect();
    match names.len() {
        n if n > 3 => format!("{} and {} more", shown.join(", "), n - 3),
        _ => shown.join(", "),
    }
}

/// The warnings for hosts and pools that never meet (SPEC §3): a namespace whose hosts have no
/// pool while another namespace's pools have no host. One per such host namespace, on its first
/// host, at `metadata.namespace` (`metadata` when it sets none), naming the namespaces of the
/// pools and `defaultNamespace`: host files written for `kubectl apply -n` carry no namespace.
fn never_meet(idx: &Index, default_namespace: Option<&str>) -> Vec<Finding> {
    let mut hosts: BTreeMap<&str, Vec<&Object>> = BTreeMap::new();
    for h in &idx.hosts {
        hosts
            .entry(&h.object.namespace)
            .or_default()
            .push(&h.object);
    }
    let mut pools: BTreeMap<&str, Vec<&Object>> = BTreeMap::new();
    for p in &idx.pools {
        pools
            .entry(&p.object.namespace)
            .or_default()
            .push(&p.object);
    }
    let lonely_pools: Vec<&str> = pools
        .keys()
        .copied()
        .filter(|ns| !hosts.contains_key(ns))
        .collect();
    let Some(first_pools) = lonely_pools.first() else {
        return Vec::new();
    };
    let read_as = match default_namespace {
        Some(d) => format!("defaultNamespace is {d:?}"),
        None => "no defaultNamespace is set, so they are in \"default\"".to_string(),
    };
    let mut out = Vec::new();
    for (ns, in_ns) in hosts.iter().filter(|(ns, _)| !pools.contains_key(*ns)) {
        let Some(first) = in_ns.first() else {
            continue;
        };
        let unset_hosts = in_ns.iter().filter(|h| !h.namespace_set).count();
        let unset_pools = lonely_pools
            .iter()
            .flat_map(|p| &pools[p])
            .filter(|p| !p.namespace_set)
            .count();
        let hosts_words = match in_ns.len() {
            1 => "this host has no IPPool in its namespace, so it gets no entry".to_string(),
            n => format!(
                "this host and {} more BareMetalHosts have no IPPool in their namespace, so they \
                 get no entries",
                n - 1
            ),
        };
        let advice = if unset_hosts > 0 {
            format!(
                "{unset_hosts} of these hosts set no metadata.namespace ({read_as}): if they are \
                 applied with `kubectl apply -n {first_pools}`, set defaultNamespace: {first_pools} \
                 in the functionConfig, or write metadata.namespace on them"
            )
        } else if unset_pools > 0 {
            format!(
                "{unset_pools} of these IPPools set no metadata.namespace ({read_as}): if they are \
                 applied with `kubectl apply -n {ns}`, set defaultNamespace: {ns} in the \
                 functionConfig, or write metadata.namespace on them"
            )
        } else {
            "Every one sets metadata.namespace (defaultNamespace places only objects without \
             one): put each cluster's hosts and pools in one namespace"
                .to_string()
        };
        let field = if first.namespace_set {
            "metadata.namespace"
        } else {
            "metadata"
        };
        out.push(
            Finding::warning(format!(
                "{hosts_words}: put each cluster's hosts and pools in one namespace. Namespace \
                 {ns:?} has no IPPool, while the IPPools of {} {} have no BareMetalHost: a host and \
                 a pool pair only within one namespace. {advice}",
                if lonely_pools.len() == 1 {
                    "namespace"
                } else {
                    "namespaces"
                },
                some_of(&lonely_pools)
            ))
            .on(first.resource_ref())
            .at(field),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::yaml_files;

    /// One source, named `-`, holding `text`.
    fn source(text: impl Into<String>) -> [crate::krm::Source; 1] {
        [crate::krm::Source {
            name: "-".into(),
            text: text.into(),
        }]
    }

    /// The input of `sources` with its hosts taken as they are parsed, and what was taken.
    fn read_taken(sources: &[crate::krm::Source]) -> (crate::krm::Input, Taken) {
        let mut taken = Taken::default();
        let input =
            crate::krm::read_taking(sources, 1000, &mut |s, n| taken.take(s, n)).expect("reads");
        (input, taken)
    }

    /// Each item of `input` with its source and node.
    fn items_of(input: &crate::krm::Input) -> Vec<(usize, &Node)> {
        (input.items.iter())
            .map(|at| (at.source, input.node(at).expect("item")))
            .collect()
    }

    /// [`index_items`] of nodes of one source, none of them taken.
    fn index_nodes(nodes: &[&Node], findings: &mut Vec<Finding>) -> Index {
        let items: Vec<(usize, &Node)> = nodes.iter().map(|&n| (0, n)).collect();
        index_items(&items, Taken::default(), None, findings).expect("nothing is taken")
    }

    /// The hosts taken as they are parsed read as those read from their trees once the input
    /// is parsed, in every spelling.
    #[test]
    fn hosts_taken_as_parsed_read_as_hosts_read_later() {
        let host = |meta: &str, rest: &str| {
            format!(
                "- apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata:\n{meta}{rest}"
            )
        };
        let m = |name: &str| format!("    name: {name}\n    namespace: lab\n");
        let items = [
            host(&m("h1"), "  spec:\n    online: true\n    consumerRef: {kind: Metal3Machine, name: m1}\n  status: {a: 1}\n"),
            host(&m("h2"), "  spec: {online: true}\n"),
            host(&m("h3"), "  spec:\n    consumerRef: ~\n"),
            host(&m("h4"), "  spec: [1]\n"),
            host(&m("h5"), "  spec:\n    <<: {consumerRef: {name: m5}}\n"),
            host(&m("h6"), "  spec: {consumerRef: oops}\n"),
            host(&format!("{}    labels: {{rack: r1, \"q\": 'x', n: \"7\"}}\n    annotations:\n      ipreuse.dev/ip.prov: 10.0.0.9\n      note: \"\"\n", m("h7")), ""),
            host(&format!("{}    labels: {{rack: 7}}\n", m("h8")), ""),
            host(&format!("{}    labels: {{rack: }}\n", m("h9")), ""),
            host(&format!("{}    labels: [a]\n", m("h10")), ""),
            host(&format!("{}    labels: ~\n    annotations: {{}}\n", m("h11")), ""),
            host(&format!("{}    labels: {{<<: {{rack: r2}}}}\n", m("h12")), ""),
            host(&format!("{}    annotations: {{config.kubernetes.io/local-config: \"true\"}}\n", m("h13")), ""),
            host(&format!("{}    annotations: {{ipreuse.dev/ip.prov: \"${{IP}}\"}}\n", m("h14")), ""),
            host(&m("'${HOST}'"), ""),
            host(&m("\"\""), ""),
            host(&m("123"), ""),
            host("    name: h1\n    namespace: lab\n", ""),
            host("    name: h15\n", ""),
            host("    name: h16\n    namespace: ~\n", ""),
            host("    name: h17\n    namespace: ''\n", ""),
            host("    name: h18\n    namespace: [x]\n", ""),
            host("    name: !!str h19\n    namespace: !custom lab\n", ""),
            host("    <<: {name: h20, namespace: lab}\n", ""),
            host("    name: h21\n    namespace: lab\n    labels: {? [k] : v}\n", ""),
            "- apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPPool\n  metadata: {name: p, namespace: lab}\n  spec:\n    namePrefix: p\n    pools: [{start: 10.0.0.10, end: 10.0.0.20}]\n    prefix: 24\n".to_string(),
            "- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w}\n  spec: {a: 1}\n".to_string(),
            "- apiVersion: metal3.io/v1\n  kind: Other\n  metadata: {name: o}\n".to_string(),
            "- kind: BareMetalHost\n  apiVersion: metal3.io/v1alpha1\n  metadata: {name: late, namespace: lab}\n".to_string(),
        ];
        let text = format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{}",
            items.concat()
        );
        let sources = source(text);
        let plain = crate::krm::read(&sources).expect("reads");
        let nodes: Vec<&Node> = (plain.items.iter())
            .map(|at| plain.node(at).expect("item"))
            .collect();
        let mut f1 = Vec::new();
        let later = index_nodes(&nodes, &mut f1);
        let (lean, taken) = read_taken(&sources);
        let items = items_of(&lean);
        let n_taken = items.iter().filter(|(_, n)| n.is_taken()).count();
        let mut f2 = Vec::new();
        let early = index_items(&items, taken, None, &mut f2).expect("every host taken is read");
        assert_same_index(&"taken", (&early, &f2), (&later, &f1));
        assert_eq!(format!("{:?}", early.pools), format!("{:?}", later.pools));
        assert!(f1.iter().any(|f| f.message.contains("appears twice")));
        // Most of these hosts are taken as they are parsed; those whose reading reports
        // something (a template, local config, a bad consumerRef, a bad identity) are not.
        assert!(n_taken >= 8 && n_taken < later.hosts.len(), "{n_taken}");
        let h1 = later.hosts.iter().find(|h| h.name() == "h1").expect("h1");
        assert_eq!(
            h1.consumer,
            Ok(Some(host::ConsumerRef {
                kind: Some("Metal3Machine".into()),
                name: Some("m1".into()),
                namespace: None
            }))
        );
        let h6 = later.hosts.iter().find(|h| h.name() == "h6").expect("h6");
        assert!(h6.consumer.is_err());
    }

    /// Two indexes read the same input alike: the same findings, objects and hosts.
    fn assert_same_index(
        at: &dyn std::fmt::Display,
        (a, fa): (&Index, &[Finding]),
        (b, fb): (&Index, &[Finding]),
    ) {
        assert_eq!(fa, fb, "{at}");
        assert_eq!(
            format!("{:?}", a.objects),
            format!("{:?}", b.objects),
            "{at}"
        );
        assert_eq!(format!("{:?}", a.hosts), format!("{:?}", b.hosts), "{at}");
    }

    /// Every example read with its hosts taken as they are parsed ([`Taken`]) indexes the
    /// same as with every item read once the input is parsed, and its hosts are indeed taken.
    #[test]
    fn every_example_indexes_the_same_with_its_hosts_taken() {
        let mut paths = yaml_files("examples");
        paths.extend(yaml_files("tests/data"));
        let mut taken_hosts = 0;
        for path in &paths {
            let text = std::fs::read_to_string(path).expect("text");
            let sources = [crate::krm::Source {
                name: path.display().to_string(),
                text,
            }];
            let Ok(input) = crate::krm::read(&sources) else {
                continue;
            };
            let mut taken = Taken::default();
            let lean = crate::krm::read_taking(
                &sources,
                crate::limits::DEFAULT_MAX_ALIAS_NODES,
                &mut |s, n| taken.take(s, n),
            )
            .expect("reads as before");
            let at = path.display();
            assert_eq!(input.items.len(), lean.items.len(), "{at}");
            assert_eq!(input.findings, lean.findings, "{at}");
            let all: Vec<&Node> = (input.items.iter())
                .map(|i| input.node(i).expect("item"))
                .collect();
            let nodes: Vec<(usize, &Node)> = (lean.items.iter())
                .map(|i| (i.source, lean.node(i).expect("item")))
                .collect();
            taken_hosts += nodes.iter().filter(|(_, n)| n.is_taken()).count();
            let (mut f1, mut f2) = (Vec::new(), Vec::new());
            let whole = index_nodes(&all, &mut f1);
            let read = index_items(&nodes, taken, None, &mut f2).expect("every host taken is read");
            assert_same_index(&at, (&whole, &f1), (&read, &f2));
        }
        assert!(taken_hosts > 50, "{taken_hosts} hosts taken");
    }

    /// A host's identity is held once, by the index and its `Host` alike.
    #[test]
    fn hosts_share_their_identity_and_its_strings() {
        let host = |n: u32| {
            format!(
                "- apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata: {{name: h{n}, namespace: lab}}\n"
            )
        };
        let text = format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{}{}",
            host(1),
            host(2)
        );
        let sources = source(text);
        let (input, taken) = read_taken(&sources);
        let nodes = items_of(&input);
        let idx = index_items(&nodes, taken, None, &mut Vec::new()).expect("read");
        let [a, b] = [&idx.hosts[0], &idx.hosts[1]];
        assert_eq!((a.name(), b.name()), ("h1", "h2"));
        for (i, h) in [a, b].into_iter().enumerate() {
            let listed = idx.objects[i].as_ref().expect("an object");
            assert!(Arc::ptr_eq(listed, &h.object), "one Object for host {i}");
        }
        assert_eq!(a.object.group(), "metal3.io");
    }

    /// An item kept only as its span with no host read for it is an error, never an item
    /// read as nothing.
    #[test]
    fn a_taken_item_without_its_host_is_an_error() {
        let text = "apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {name: h, namespace: lab}\n";
        let sources = source(text);
        let (input, taken) = read_taken(&sources);
        let node = input.node(&input.items[0]).expect("item");
        assert!(node.is_taken());
        let mut findings = Vec::new();
        let lost = index_items(&[(0, node)], Taken::default(), None, &mut findings);
        assert_eq!(lost.err(), Some(NotTaken { item: ItemId(0) }));
        // from another source, or another place, it is not this item's either
        let mut elsewhere = Taken(taken.0.clone());
        elsewhere.0[0].0.0 = 1;
        assert!(index_items(&[(0, node)], elsewhere, None, &mut findings).is_err());
        let read = index_items(&[(0, node)], taken, None, &mut findings).expect("read");
        assert_eq!(read.hosts.len(), 1);
        assert_eq!(read.hosts[0].object.index, ItemId(0));
    }

    /// `defaultNamespace` places the objects without a namespace whether their hosts are taken
    /// as the input is parsed or read from their trees later (one whose `consumerRef` is
    /// wrong); objects that set one keep it.
    #[test]
    fn the_default_namespace_places_hosts_on_every_path() {
        let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n\
                    - apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata: {name: plain}\n\
                    - apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata:\n    <<: {name: merged}\n  spec: {consumerRef: oops}\n\
                    - apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata: {name: set, namespace: lab}\n\
                    - apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPPool\n  metadata: {name: p}\n";
        let sources = source(text);
        let (input, taken) = read_taken(&sources);
        let nodes = items_of(&input);
        // a merge key is read as parsed; a consumerRef adoption would refuse is not
        assert!(nodes[0].1.is_taken() && !nodes[1].1.is_taken());
        let (mut f1, mut f2) = (Vec::new(), Vec::new());
        let taken_read = index_items(&nodes, taken, Some("metal3"), &mut f1).expect("read");
        let plain = crate::krm::read(&sources).expect("reads");
        let untaken = items_of(&plain);
        let from_trees =
            index_items(&untaken, Taken::default(), Some("metal3"), &mut f2).expect("read");
        assert_same_index(&"taken", (&taken_read, &f1), (&from_trees, &f2));
        let placed: Vec<(&str, &str, bool)> = (taken_read.hosts.iter())
            .map(|h| {
                (
                    h.name(),
                    h.object.namespace.as_str(),
                    h.object.namespace_set,
                )
            })
            .collect();
        assert_eq!(
            placed,
            [
                ("plain", "metal3", false),
                ("merged", "metal3", false),
                ("set", "lab", true)
            ]
        );
        assert_eq!(taken_read.pools[0].object.namespace, "metal3");
        // the resourceRef keeps the object as written
        assert_eq!(taken_read.hosts[0].object.resource_ref().namespace, None);
    }

    /// Two identities with one hash are still told apart, and each found again.
    #[test]
    fn the_duplicate_check_tells_apart_identities_that_share_a_hash() {
        let object = |i: usize, name: &str| {
            let v = serde_json::json!({"apiVersion": "v1", "kind": "Secret",
                "metadata": {"name": name, "namespace": "lab"}});
            Object::of_json(ItemId(i), &v).expect("an object")
        };
        let (a, b) = (object(0, "a"), object(1, "b"));
        let mut seen = Seen::default();
        let mut findings = Vec::new();
        let mut objects = Vec::new();
        seen.note(&objects, &a, &mut findings);
        objects.push(Some(Arc::new(a.clone())));
        // b's hash made to lead to a, as a collision would
        let hash = seen
            .first
            .hasher()
            .hash_one((b.group(), &b.kind, &b.namespace, &b.name));
        seen.first.insert(hash, ItemId(0));
        seen.note(&objects, &b, &mut findings);
        objects.push(Some(Arc::new(b.clone())));
        assert!(findings.is_empty(), "{findings:?}");
        for (i, again) in [object(2, "b"), object(3, "a")].into_iter().enumerate() {
            seen.note(&objects, &again, &mut findings);
            assert_eq!(findings.len(), i + 1);
            assert!(
                findings[i].message.contains("appears twice"),
                "{}",
                findings[i].message
            );
            objects.push(Some(Arc::new(again)));
        }
    }
}
