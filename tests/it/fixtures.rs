//! Builders of the objects the tests feed the function, as YAML text: BareMetalHosts, IPPools
//! with their ranges, entries and live claims, Metal3DataTemplates with their pool references,
//! Metal3MachineTemplates, IPClaims, IPAddresses, the IPReuse config, Clusters, and streams of
//! them. Plain std, so that
//! the unit tests of `src/` include it too (`#[cfg(test)] #[path = "../tests/it/fixtures.rs"]` in
//! `src/lib.rs`) and both kinds of test build a pool one way.

use std::fmt::Write as _;

/// A `metal3.io/v1alpha1` BareMetalHost.
#[derive(Clone, Debug)]
pub struct Host {
    pub name: String,
    pub ns: Option<String>,
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
}

/// A host in namespace `ns` (`metadata.namespace` written).
pub fn host(name: &str, ns: &str) -> Host {
    Host {
        name: name.into(),
        ns: Some(ns.into()),
        labels: Vec::new(),
        annotations: Vec::new(),
    }
}

impl Host {
    /// The pin annotation `ipreuse.dev/ip.{pool}: <addr>`.
    pub fn pin(mut self, pool: &str, addr: &str) -> Self {
        self.annotations
            .push((format!("ipreuse.dev/ip.{pool}"), addr.into()));
        self
    }

    pub fn label(mut self, k: &str, v: &str) -> Self {
        self.labels.push((k.into(), v.into()));
        self
    }

    pub fn annotation(mut self, k: &str, v: &str) -> Self {
        self.annotations.push((k.into(), v.into()));
        self
    }

    pub fn yaml(&self) -> String {
        let mut s =
            String::from("apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata:\n");
        writeln!(s, "  name: {}", self.name).unwrap();
        if let Some(ns) = &self.ns {
            writeln!(s, "  namespace: {ns}").unwrap();
        }
        if !self.labels.is_empty() {
            s.push_str("  labels:\n");
            for (k, v) in &self.labels {
                writeln!(s, "    {k}: \"{v}\"").unwrap();
            }
        }
        if !self.annotations.is_empty() {
            s.push_str("  annotations:\n");
            for (k, v) in &self.annotations {
                writeln!(s, "    {k}: \"{v}\"").unwrap();
            }
        }
        writeln!(
            s,
            "spec:\n  online: true\n  bootMACAddress: \"00:00:00:00:00:01\""
        )
        .unwrap();
        s
    }
}

/// One `spec.pools[]` entry; every field optional, written as given (plain scalars).
#[derive(Clone, Debug, Default)]
pub struct Range {
    pub start: Option<String>,
    pub end: Option<String>,
    pub subnet: Option<String>,
    pub prefix: Option<String>,
    pub gateway: Option<String>,
}

/// `start`..`end`.
pub fn range(start: &str, end: &str) -> Range {
    Range {
        start: Some(start.into()),
        end: Some(end.into()),
        ..Range::default()
    }
}

/// Only a `subnet`.
pub fn subnet(cidr: &str) -> Range {
    Range {
        subnet: Some(cidr.into()),
        ..Range::default()
    }
}

/// Only a `start` (an unbounded walk).
pub fn start_only(start: &str) -> Range {
    Range {
        start: Some(start.into()),
        ..Range::default()
    }
}

impl Range {
    pub fn prefix(mut self, p: u32) -> Self {
        self.prefix = Some(p.to_string());
        self
    }
    pub fn gateway(mut self, g: &str) -> Self {
        self.gateway = Some(g.into());
        self
    }
}

/// An `ipam.metal3.io/v1alpha1` IPPool.
#[derive(Clone, Debug)]
pub struct Pool {
    pub name: String,
    pub ns: Option<String>,
    pub ranges: Vec<Range>,
    pub prefix: Option<u32>,
    pub gateway: Option<String>,
    pub dns: Vec<String>,
    /// `spec.preAllocations` entries: key and the value exactly as written in YAML.
    pub pre: Vec<(String, String)>,
    /// `status.indexes`: claim → address.
    pub indexes: Vec<(String, String)>,
    /// `spec.allocationStrategy`, exactly as written in YAML.
    pub strategy: Option<String>,
    /// `spec.namePrefix`, when it is not the pool's name.
    pub name_prefix: Option<String>,
}

/// A pool in namespace `ns` with no ranges yet.
pub fn pool(name: &str, ns: &str) -> Pool {
    Pool {
        name: name.into(),
        ns: Some(ns.into()),
        ranges: Vec::new(),
        prefix: None,
        gateway: None,
        dns: Vec::new(),
        pre: Vec::new(),
        indexes: Vec::new(),
        strategy: None,
        name_prefix: None,
    }
}

impl Pool {
    pub fn range(mut self, r: Range) -> Self {
        self.ranges.push(r);
        self
    }
    pub fn prefix(mut self, p: u32) -> Self {
        self.prefix = Some(p);
        self
    }
    pub fn gateway(mut self, g: &str) -> Self {
        self.gateway = Some(g.into());
        self
    }
    pub fn dns(mut self, d: &str) -> Self {
        self.dns.push(d.into());
        self
    }
    /// An entry `key: "addr"`.
    pub fn entry(self, key: &str, addr: &str) -> Self {
        self.entry_raw(key, &format!("\"{addr}\""))
    }
    /// An entry whose value is written exactly as `raw`.
    pub fn entry_raw(mut self, key: &str, raw: &str) -> Self {
        self.pre.push((key.into(), raw.into()));
        self
    }
    /// `spec.allocationStrategy`, written exactly as `raw`.
    pub fn allocation_strategy(mut self, raw: &str) -> Self {
        self.strategy = Some(raw.into());
        self
    }
    /// `spec.namePrefix` (the pool's name unless set here).
    pub fn name_prefix(mut self, prefix: &str) -> Self {
        self.name_prefix = Some(prefix.into());
        self
    }
    /// A live claim in `status.indexes`.
    pub fn live(mut self, claim: &str, addr: &str) -> Self {
        self.indexes.push((claim.into(), addr.into()));
        self
    }

    pub fn yaml(&self) -> String {
        let mut s = String::from("apiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata:\n");
        writeln!(s, "  name: {}", self.name).unwrap();
        if let Some(ns) = &self.ns {
            writeln!(s, "  namespace: {ns}").unwrap();
        }
        s.push_str("spec:\n  clusterName: test1\n");
        writeln!(
            s,
            "  namePrefix: {}",
            self.name_prefix.as_deref().unwrap_or(&self.name)
        )
        .unwrap();
        if !self.ranges.is_empty() {
            s.push_str("  pools:\n");
            for r in &self.ranges {
                let mut first = true;
                for (k, v) in [
                    ("start", &r.start),
                    ("end", &r.end),
                    ("subnet", &r.subnet),
                    ("prefix", &r.prefix),
                    ("gateway", &r.gateway),
                ] {
                    if let Some(v) = v {
                        let lead = if first { "  - " } else { "    " };
                        writeln!(s, "{lead}{k}: {v}").unwrap();
                        first = false;
                    }
                }
            }
        }
        if let Some(p) = self.prefix {
            writeln!(s, "  prefix: {p}").unwrap();
        }
        if let Some(a) = &self.strategy {
            writeln!(s, "  allocationStrategy: {a}").unwrap();
        }
        if let Some(g) = &self.gateway {
            writeln!(s, "  gateway: {g}").unwrap();
        }
        if !self.dns.is_empty() {
            s.push_str("  dnsServers:\n");
            for d in &self.dns {
                writeln!(s, "  - {d}").unwrap();
            }
        }
        if !self.pre.is_empty() {
            s.push_str("  preAllocations:\n");
            for (k, v) in &self.pre {
                writeln!(s, "    {k}: {v}").unwrap();
            }
        }
        if !self.indexes.is_empty() {
            s.push_str("status:\n  indexes:\n");
            for (k, v) in &self.indexes {
                writeln!(s, "    {k}: {v}").unwrap();
            }
        }
        s
    }
}

/// A `Metal3DataTemplate` of `infrastructure.cluster.x-k8s.io/{version}`: the pools its
/// `metaData` takes addresses from, and its IPv4 networks, each taking its address from a pool.
#[derive(Clone, Debug)]
pub struct DataTemplate {
    pub name: String,
    pub ns: String,
    /// `v1beta1` or `v1beta2`; it also picks the spelling of the metaData pool list.
    pub version: String,
    pub cluster: String,
    /// The metaData pool references: key and IPPool name.
    pub meta_pools: Vec<(String, String)>,
    /// The `spec.networkData.networks.ipv4` entries, each as YAML lines (indented by 6).
    pub networks: Vec<String>,
}

/// A v1beta2 data template of cluster `test1` in `ns`, with no pool references yet.
pub fn data_template(name: &str, ns: &str) -> DataTemplate {
    DataTemplate {
        name: name.into(),
        ns: ns.into(),
        version: "v1beta2".into(),
        cluster: "test1".into(),
        meta_pools: Vec::new(),
        networks: Vec::new(),
    }
}

impl DataTemplate {
    /// The API version: `v1beta1` (metaData list `ipAddressesFromIPPool`) or `v1beta2`
    /// (`ipAddressesFromPool`).
    pub fn version(mut self, v: &str) -> Self {
        self.version = v.into();
        self
    }
    /// `spec.clusterName`.
    pub fn cluster_name(mut self, c: &str) -> Self {
        self.cluster = c.into();
        self
    }
    /// A metaData entry `key` whose address comes from the Metal3 IPPool `pool`, in the list
    /// this version spells (`ipAddressesFromIPPool` in v1beta1, `ipAddressesFromPool` in v1beta2).
    pub fn meta_pool(mut self, key: &str, pool: &str) -> Self {
        self.meta_pools.push((key.into(), pool.into()));
        self
    }
    /// An IPv4 network `id` on `link` with `ipAddressFromIPPool: pool` (the same field in both
    /// versions).
    pub fn network(self, id: &str, link: &str, pool: &str) -> Self {
        self.network_yaml(&format!(
            "- id: {id}\n  link: {link}\n  ipAddressFromIPPool: {pool}\n"
        ))
    }
    /// [`DataTemplate::network`] with a default route whose gateway comes from the same pool
    /// (`routes[].gateway.fromIPPool`), as CAPM3's e2e templates write it.
    pub fn routed_network(self, id: &str, link: &str, pool: &str) -> Self {
        self.network_yaml(&format!(
            "- id: {id}\n  link: {link}\n  ipAddressFromIPPool: {pool}\n  routes:\n  - gateway:\n      fromIPPool: {pool}\n    network: 0.0.0.0\n    prefix: 0\n"
        ))
    }
    /// An IPv4 network entry written as given: a list item (`- ...`), block or flow, each line
    /// relative to the list.
    pub fn network_yaml(mut self, item: &str) -> Self {
        let mut lines = String::new();
        for line in item.lines() {
            writeln!(lines, "      {line}").unwrap();
        }
        self.networks.push(lines);
        self
    }

    pub fn yaml(&self) -> String {
        let mut s = format!(
            "apiVersion: infrastructure.cluster.x-k8s.io/{}\nkind: Metal3DataTemplate\nmetadata:\n  name: {}\n  namespace: {}\nspec:\n  clusterName: {}\n",
            self.version, self.name, self.ns, self.cluster
        );
        if !self.meta_pools.is_empty() {
            let list = if self.version == "v1beta1" {
                "ipAddressesFromIPPool"
            } else {
                "ipAddressesFromPool"
            };
            writeln!(s, "  metaData:\n    {list}:").unwrap();
            for (key, pool) in &self.meta_pools {
                writeln!(
                    s,
                    "    - key: {key}\n      name: {pool}\n      apiGroup: ipam.metal3.io\n      kind: IPPool"
                )
                .unwrap();
            }
        }
        if !self.networks.is_empty() {
            s.push_str("  networkData:\n    networks:\n      ipv4:\n");
            for n in &self.networks {
                s.push_str(n);
            }
        }
        s
    }
}

/// A `Metal3MachineTemplate` of `infrastructure.cluster.x-k8s.io/{version}`: which hosts it may
/// select and which data template its machines use.
#[derive(Clone, Debug)]
pub struct MachineTemplate {
    pub name: String,
    pub ns: String,
    pub version: String,
    /// `spec.template.spec.dataTemplate.name`.
    pub data_template: Option<String>,
    /// `spec.template.spec.hostSelector`, as flow YAML.
    pub host_selector: Option<String>,
}

/// A v1beta2 machine template in `ns` with neither a data template nor a host selector yet.
pub fn machine_template(name: &str, ns: &str) -> MachineTemplate {
    MachineTemplate {
        name: name.into(),
        ns: ns.into(),
        version: "v1beta2".into(),
        data_template: None,
        host_selector: None,
    }
}

impl MachineTemplate {
    /// The API version, `v1beta1` or `v1beta2` (both spell these fields alike).
    pub fn version(mut self, v: &str) -> Self {
        self.version = v.into();
        self
    }
    /// The data template its machines use.
    pub fn data_template(mut self, name: &str) -> Self {
        self.data_template = Some(name.into());
        self
    }
    /// `hostSelector`, as flow YAML (`{matchLabels: {role: worker}}`).
    pub fn host_selector(mut self, flow: &str) -> Self {
        self.host_selector = Some(flow.into());
        self
    }

    pub fn yaml(&self) -> String {
        let mut s = format!(
            "apiVersion: infrastructure.cluster.x-k8s.io/{}\nkind: Metal3MachineTemplate\nmetadata:\n  name: {}\n  namespace: {}\nspec:\n  template:\n    spec:\n",
            self.version, self.name, self.ns
        );
        if let Some(d) = &self.data_template {
            writeln!(s, "      dataTemplate:\n        name: {d}").unwrap();
        }
        if let Some(sel) = &self.host_selector {
            writeln!(s, "      hostSelector: {sel}").unwrap();
        }
        s.push_str("      image:\n        url: http://172.22.0.1/images/ubuntu.raw\n        checksum: http://172.22.0.1/images/ubuntu.raw.sha256sum\n");
        s
    }
}

/// An `ipam.metal3.io/v1alpha1` IPClaim, as CAPM3 makes one for a Metal3Data.
#[derive(Clone, Debug)]
pub struct Claim {
    pub name: String,
    pub ns: String,
    /// `spec.pool.name` (none: `spec: {}`).
    pub pool: Option<String>,
    /// `spec.pool.namespace`.
    pub pool_ns: Option<String>,
    /// Lines written under `metadata:` after the namespace, as given (indented by two).
    pub metadata: String,
    /// `metadata.ownerReferences` entries, each as YAML lines (indented by two).
    pub owners: Vec<String>,
}

/// A claim in `ns` with no pool and no owner yet.
pub fn claim(name: &str, ns: &str) -> Claim {
    Claim {
        name: name.into(),
        ns: ns.into(),
        pool: None,
        pool_ns: None,
        metadata: String::new(),
        owners: Vec::new(),
    }
}

impl Claim {
    /// `spec.pool.name`.
    pub fn pool(mut self, name: &str) -> Self {
        self.pool = Some(name.into());
        self
    }
    /// `spec.pool.namespace`.
    pub fn pool_namespace(mut self, ns: &str) -> Self {
        self.pool_ns = Some(ns.into());
        self
    }
    /// Lines under `metadata:` (labels, annotations), written as given; each indented by two.
    #[allow(
        dead_code,
        reason = "used by the unit tests of src/transform/labels only"
    )]
    pub fn metadata_yaml(mut self, lines: &str) -> Self {
        self.metadata.push_str(lines);
        self
    }
    /// An owner reference of `kind` and `name` in `apiVersion` (`controller: true` when
    /// `controller`), as the API server writes it (keys sorted).
    pub fn owner(
        mut self,
        api_version: &str,
        kind: &str,
        name: &str,
        uid: &str,
        controller: bool,
    ) -> Self {
        let mut o = format!("  - apiVersion: {api_version}\n");
        if controller {
            o.push_str("    controller: true\n");
        }
        write!(o, "    kind: {kind}\n    name: {name}\n    uid: {uid}\n").unwrap();
        self.owners.push(o);
        self
    }
    /// Owned (as controller) by the v1beta2 Metal3Data `data`, as CAPM3 makes its claims.
    pub fn owned_by_data(self, data: &str, uid: &str) -> Self {
        self.owner(
            "infrastructure.cluster.x-k8s.io/v1beta2",
            "Metal3Data",
            data,
            uid,
            true,
        )
    }

    pub fn yaml(&self) -> String {
        let mut s = format!(
            "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPClaim\nmetadata:\n  name: {}\n  namespace: {}\n",
            self.name, self.ns
        );
        s.push_str(&self.metadata);
        if !self.owners.is_empty() {
            s.push_str("  ownerReferences:\n");
            for o in &self.owners {
                s.push_str(o);
            }
        }
        match &self.pool {
            None => s.push_str("spec: {}\n"),
            Some(p) => {
                writeln!(s, "spec:\n  pool:\n    name: {p}").unwrap();
                if let Some(ns) = &self.pool_ns {
                    writeln!(s, "    namespace: {ns}").unwrap();
                }
            }
        }
        s
    }
}

/// An `ipam.metal3.io/v1alpha1` IPAddress as the IPAM writes it for `claim` from `pool`, in
/// `ns`: named `{pool}-{address with - for . and :}`, owned by the pool and (as controller) the
/// claim, prefix 24, gateway `gateway`.
#[allow(dead_code, reason = "used by the unit tests of src/adopt only")]
pub fn ip_address(pool: &str, claim: &str, address: &str, gateway: &str, ns: &str) -> String {
    let name = format!("{pool}-{}", address.replace(['.', ':'], "-"));
    format!(
        "apiVersion: ipam.metal3.io/v1alpha1\nkind: IPAddress\nmetadata:\n  name: {name}\n  namespace: {ns}\n  uid: a1\n  finalizers:\n  - ipaddress.ipam.metal3.io\n  ownerReferences:\n  - apiVersion: ipam.metal3.io/v1alpha1\n    kind: IPPool\n    name: {pool}\n    uid: p1\n  - apiVersion: ipam.metal3.io/v1alpha1\n    kind: IPClaim\n    name: {claim}\n    uid: c1\n    controller: true\nspec:\n  address: \"{address}\"\n  prefix: 24\n  gateway: \"{gateway}\"\n  claim:\n    name: {claim}\n    namespace: {ns}\n  pool:\n    name: {pool}\n    namespace: {ns}\n"
    )
}

/// The function's typed config, `fn.ipreuse.dev/v1alpha1` `IPReuse`, as YAML text.
#[derive(Clone, Debug)]
pub struct IpReuseConfig {
    pub name: String,
    /// `metadata.annotations`.
    pub annotations: Vec<(String, String)>,
    /// `spec` fields: key and the value as YAML (a scalar or flow).
    pub spec: Vec<(String, String)>,
}

/// A config named `name` with an empty spec.
pub fn ipreuse_config(name: &str) -> IpReuseConfig {
    IpReuseConfig {
        name: name.into(),
        annotations: Vec::new(),
        spec: Vec::new(),
    }
}

impl IpReuseConfig {
    /// A `spec` field; `value` is written as given (`check`, `false`, `["10.0.0.11"]`).
    pub fn set(mut self, key: &str, value: &str) -> Self {
        self.spec.push((key.into(), value.into()));
        self
    }
    /// `config.kubernetes.io/local-config: "true"`, which keeps kpt from writing it out.
    pub fn local_config(mut self) -> Self {
        self.annotations
            .push(("config.kubernetes.io/local-config".into(), "true".into()));
        self
    }

    pub fn yaml(&self) -> String {
        let mut s = format!(
            "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: {}\n",
            self.name
        );
        if !self.annotations.is_empty() {
            s.push_str("  annotations:\n");
            for (k, v) in &self.annotations {
                writeln!(s, "    {k}: \"{v}\"").unwrap();
            }
        }
        if !self.spec.is_empty() {
            s.push_str("spec:\n");
            for (k, v) in &self.spec {
                writeln!(s, "  {k}: {v}").unwrap();
            }
        }
        s
    }
}

/// A `cluster.x-k8s.io/v1beta1` Cluster with a control-plane endpoint.
pub fn cluster(name: &str, ns: &str, endpoint: &str) -> String {
    format!(
        "apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  controlPlaneEndpoint:\n    host: {endpoint}\n    port: 6443\n"
    )
}

/// Documents joined into one stream.
pub fn stream(docs: &[String]) -> String {
    docs.join("---\n")
}
