//! The typed functionConfig `fn.ipreuse.dev/v1alpha1` `IPReuse`. Its doc comments are the
//! CRD's descriptions (`ipreuse schema`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{BlockKind, GatewayPolicy, MappingMode, Mode, Strategy};

/// Configuration of the ipreuse KRM function, which fills Metal3 IPPool
/// `spec.preAllocations` with `{bmh-name}-{pool-name}: <ip>` entries so that each
/// BareMetalHost keeps its addresses across re-provisioning. Every field is optional.
#[derive(CustomResource, Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
#[kube(
    group = "fn.ipreuse.dev",
    version = "v1alpha1",
    kind = "IPReuse",
    namespaced,
    doc = "functionConfig of the ipreuse KRM function (kpt, kustomize): fills Metal3 IPPool spec.preAllocations so that BareMetalHosts keep their IP addresses. spec may be omitted: every field has a default."
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IPReuseSpec {
    /// `fill` (default) writes the preallocations, labels and controller flag. `check`
    /// changes nothing and fails exactly when `fill` would change an item or report an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = "fill"))]
    pub mode: Option<Mode>,

    /// Which (host, pool) pairs need an entry. `auto` (default): `templates` in every
    /// namespace holding a Metal3MachineTemplate whose Metal3DataTemplate is in the input,
    /// `all` elsewhere. `templates`: the hosts each Metal3MachineTemplate's hostSelector
    /// matches, with the pools its data template references. `all`: every selected host
    /// with every selected pool of its namespace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = "auto"))]
    pub mapping: Option<MappingMode>,

    /// Kubernetes label selector over BareMetalHost labels that narrows the hosts in every
    /// mapping. Empty or unset (default): all hosts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = {}))]
    pub host_selector: Option<LabelSelector>,

    /// IPPools to manage, each `name` (in any namespace) or `namespace/name`. Empty or
    /// unset (default): every pool the mapping names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = []))]
    pub pools: Option<Vec<String>>,

    /// How hosts without an existing entry, pin or live address get one. `sequential`
    /// (default): hosts in natural name order each take the lowest free candidate.
    /// `ordinal`: host n (label `ipreuse.dev/ordinal`, else the last number in its name)
    /// takes the candidate at walk position `ordinalOffset + n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = "sequential"))]
    pub strategy: Option<Strategy>,

    /// For the `ordinal` strategy: host n takes the candidate at walk position
    /// `ordinalOffset + n`. Default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = 0))]
    pub ordinal_offset: Option<u64>,

    /// Addresses never handed out to a new entry: an address (`10.0.0.5`), an inclusive
    /// range (`10.0.0.10-10.0.0.20`) or a CIDR (`10.0.1.0/28`). Default none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = []))]
    pub reserve: Option<Vec<String>>,

    /// Remove `{bmh}-{pool}` entries whose BareMetalHost is not in the input (and whose
    /// claim is not in the pool's `status.indexes`). Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = false))]
    pub prune: Option<bool>,

    /// Add the `infrastructure.cluster.x-k8s.io/data-name` and `pool-name` labels to the
    /// IPClaims and Metal3Data in the input. Default true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = true))]
    pub labels: Option<bool>,

    /// Turn on CAPM3's BMH-name-based preallocation flag in the rendered provider
    /// Deployments and clusterctl variables in the input. Default true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = true))]
    pub controller_flag: Option<bool>,

    /// CAPM3 version, e.g. `v1.12.3` or `1.13`; only used to choose the flag spelling when
    /// the flag must be added. Empty (default): taken from the manager image tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^(v?[0-9]+\.[0-9]+(\.[0-9]+)?([-+].*)?)?$"))]
    #[schemars(extend("default" = ""))]
    pub capm3_version: Option<String>,

    /// Networks shared across namespaces: an IPPool whose candidates lie in the CIDRs listed
    /// under `name` (or annotated `ipreuse.dev/network: name`) is on network `name`, and the
    /// pools of one network, in every namespace, never give one address to two hosts. A name
    /// may be listed with several CIDRs (an IPv4 and an IPv6 one): a dual-stack pool is on the
    /// network when each of its ranges lies in one of them. A pool only partly inside is on the
    /// network too, with a warning. Default none: namespaces are independent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = []))]
    pub networks: Option<Vec<NetworkSpec>>,

    /// Candidate ranges of one network that overlap across namespaces, and a pool only partly
    /// inside its network's CIDRs, are errors instead of warnings (each cluster's IPAM could
    /// hand out the same address outside preAllocations). Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = false))]
    pub strict_networks: Option<bool>,

    /// The namespace of the items without `metadata.namespace` (what `kubectl apply -n NS`
    /// does with them): host files printed without one are read as in this namespace, with the
    /// pools of that namespace. Empty or unset (default): `default`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        regex(pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$"),
        length(max = 63)
    )]
    #[schemars(extend("default" = ""))]
    pub default_namespace: Option<String>,
}

/// One entry of `networks`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkSpec {
    /// The network's name (a DNS-1123 label), as pools annotated `ipreuse.dev/network` name it.
    #[schemars(regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"), length(max = 63))]
    pub name: String,
    /// An IPv4 or IPv6 CIDR (`172.22.0.0/16`, `fd00:22::/64`): a pool whose candidates lie in
    /// the network's CIDRs is on the network.
    pub cidr: String,

    /// The network hands out blocks of this prefix length to the IPPools on it that have no
    /// `spec.pools` entry (each new cluster's pools): the lowest free aligned block of the CIDR,
    /// one per address family. An integer (`26`) is the block size of this entry's CIDR;
    /// `{ipv4: 26, ipv6: 64}` gives one per family for a network listed with an IPv4 and an
    /// IPv6 CIDR. Between the CIDR's prefix and /30 (IPv4) or /126 (IPv6). A pool's annotation
    /// `ipreuse.dev/block-size` overrides it, `ipreuse.dev/block-index: "n"` pins block n.
    /// Unset (default): the network hands out no blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "block_size_schema")]
    pub block_size: Option<BlockSizeSpec>,

    /// What a block becomes in the pool. `range` (default, one shared segment): `start`/`end`
    /// of the block with the network's own `prefix`, `gateway` and `dnsServers`. `subnet` (one
    /// routed subnet per cluster): `subnet: BLOCK`, `prefix: blockSize`, a gateway by
    /// `gatewayPolicy`, and `dnsServers`. Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = "range"))]
    pub block_kind: Option<BlockKind>,

    /// `blockKind: range`: the prefix written into each pool (the shared segment's), at most
    /// the CIDR's. Default: the CIDR's prefix. Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 128))]
    pub prefix: Option<u8>,

    /// `blockKind: range`: the segment's gateway, written into each pool; of this entry's
    /// family, inside the segment. Blocks that hold it are skipped. Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway: Option<String>,

    /// `blockKind: subnet`: each block's gateway, its `first` (default) or `last` usable
    /// address, or `none`. With `blockKind: range` only `none` is allowed (the pools get
    /// `gateway`). Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway_policy: Option<GatewayPolicy>,

    /// DNS servers written into each pool, of this entry's family. With `blockKind: range`
    /// blocks that hold one are skipped. Default none. Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = []))]
    pub dns_servers: Option<Vec<String>>,

    /// Addresses no block may meet, of this entry's family: an address (`172.22.0.5`), an
    /// inclusive range (`172.22.0.10-172.22.0.20`) or a CIDR (`172.22.0.0/28`). Default none.
    /// Needs `blockSize`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = []))]
    pub exclude: Option<Vec<String>>,
}

/// `blockSize`: one prefix length, or one per address family.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(untagged)]
pub enum BlockSizeSpec {
    /// The block size of the entry's CIDR.
    Prefix(u8),
    /// One block size per family of the network.
    PerFamily {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ipv4: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ipv6: Option<u8>,
    },
}

/// The schema of `blockSize`, an integer or an object. A CRD's schema must be structural (no
/// `type` inside `anyOf`), so the node has no type and keeps what it is given
/// (`x-kubernetes-preserve-unknown-fields`); `minimum`/`maximum` bound it when it is an
/// integer and `properties` bound the families when it is an object. ipreuse itself refuses
/// every other shape, naming the field.
fn block_size_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "x-kubernetes-preserve-unknown-fields": true,
        "nullable": true,
        "minimum": 0,
        "maximum": 128,
        "properties": {
            "ipv4": {"type": "integer", "minimum": 0, "maximum": 32,
                     "description": "The block size of the network's IPv4 CIDR."},
            "ipv6": {"type": "integer", "minimum": 0, "maximum": 128,
                     "description": "The block size of the network's IPv6 CIDR."},
        },
    })
}

/// The CRD of the typed functionConfig, as YAML (`ipreuse schema`).
pub fn crd_yaml() -> String {
    use kube::CustomResourceExt;
    let mut crd = IPReuse::crd();
    // kube marks `spec` required; the function accepts an IPReuse without one (all defaults).
    for version in &mut crd.spec.versions {
        if let Some(schema) = version
            .schema
            .as_mut()
            .and_then(|s| s.open_api_v3_schema.as_mut())
        {
            schema.required = None;
        }
    }
    match serde_saphyr::to_string(&crd) {
        Ok(yaml) => yaml,
        // Serialising a CRD built from a Rust type cannot fail; keep a readable fallback.
        Err(e) => format!("# cannot serialise the CRD: {e}\n"),
    }
}
