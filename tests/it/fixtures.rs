//! Builders of the objects the tests feed the function, as YAML text: BareMetalHosts, IPPools
//! with their ranges, entries and live claims, Clusters, and streams of them. Plain std, so that
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
    /// A prefix written as any text (a template, a bad value).
    pub fn prefix_text(mut self, p: &str) -> Self {
        self.prefix = Some(p.into());
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
        writeln!(s, "  namePrefix: {}", self.name).unwrap();
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
