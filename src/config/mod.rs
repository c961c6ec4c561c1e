//! The functionConfig (SPEC §2): its typed CRD form ([`IPReuse`]), the ConfigMap form, and
//! the resolved [`Config`] the rest of the program uses.
//!
//! - [`resolve`] turns the functionConfig object (as JSON) into the [`Config`] the run uses,
//!   every value typed and parsed (host selector, pool names, reserve ranges, version), and
//!   refuses what this version cannot run yet. Every config error is found here, all at once,
//!   at `spec.<key>` (IPReuse) or `data.<key>` (ConfigMap) on the functionConfig: the rest of
//!   the program only reads typed values. (A name in `pools` that is not in the input needs
//!   the input: the mapping reports it, through [`ConfigSource`].)
//! - [`decode`] is the same without the refusals: every value the schema accepts.
//! - [`crd_yaml`] prints the CRD of the typed form (`ipreuse schema`).

pub mod among;
mod blocks;
mod choice;
mod decode;
mod reserve;
mod typed;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_blocks;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::results::{Finding, ResourceRef};
pub use crate::selector::Selector;
pub use among::{Chosen, ConfigItem, choose};
pub use blocks::{BlockKind, BlockPlan, GatewayPolicy, NetworkCidr, last_block_prefix};
pub use choice::Choice;
pub use decode::{ACCEPTED_KINDS, decode, resolve};
pub use reserve::ReserveRange;
pub use typed::{BlockSizeSpec, IPReuse, IPReuseSpec, NetworkSpec, crd_yaml};

// `spec.mode`. (No doc comment: schemars would put it over the field's description in the CRD.)
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Fill the pools and write the changes.
    #[default]
    Fill,
    /// Change nothing; fail exactly when `fill` would change an item or report an error.
    Check,
}

// `spec.mapping` (SPEC §4): which (host, pool) pairs need an entry.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum MappingMode {
    /// `templates` in namespaces with a Metal3MachineTemplate whose data template is in the
    /// input, `all` elsewhere.
    #[default]
    Auto,
    /// Pairs from Metal3MachineTemplate host selectors and their data templates' pools.
    Templates,
    /// Every selected host with every selected pool of its namespace.
    All,
}

// `spec.strategy` (SPEC §5): how hosts without an entry, pin or live address get one.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Each host, in natural order, takes the free candidate with the lowest walk position.
    #[default]
    Sequential,
    /// Host n takes the candidate at walk position `ordinalOffset + n`.
    Ordinal,
}

impl Choice for Mode {
    const ALL: &'static [Self] = &[Mode::Fill, Mode::Check];
    fn as_str(self) -> &'static str {
        match self {
            Mode::Fill => "fill",
            Mode::Check => "check",
        }
    }
}

impl Choice for MappingMode {
    const ALL: &'static [Self] = &[MappingMode::Auto, MappingMode::Templates, MappingMode::All];
    fn as_str(self) -> &'static str {
        match self {
            MappingMode::Auto => "auto",
            MappingMode::Templates => "templates",
            MappingMode::All => "all",
        }
    }
}

impl Choice for Strategy {
    const ALL: &'static [Self] = &[Strategy::Sequential, Strategy::Ordinal];
    fn as_str(self) -> &'static str {
        match self {
            Strategy::Sequential => "sequential",
            Strategy::Ordinal => "ordinal",
        }
    }
}

macro_rules! display_choice {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}
display_choice!(Mode, MappingMode, Strategy);

/// An entry of `spec.pools`: `name` (any namespace) or `namespace/name`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PoolName {
    /// `None` when written without a namespace: the name matches in every namespace.
    pub namespace: Option<String>,
    pub name: String,
}

impl PoolName {
    /// Parses `name` or `namespace/name` (namespace a DNS-1123 label, name a DNS-1123
    /// subdomain). The error says why, without repeating the input.
    pub fn parse(s: &str) -> Result<PoolName, String> {
        use crate::names::{is_dns1123_label, is_dns1123_subdomain};
        let parts: Vec<&str> = s.split('/').collect();
        let (namespace, name) = match parts.as_slice() {
            [name] => (None, *name),
            [ns, name] => (Some(*ns), *name),
            _ => {
                return Err("has more than one '/'; write `name` or `namespace/name`".into());
            }
        };
        if name.is_empty() {
            return Err("has an empty pool name; write `name` or `namespace/name`".into());
        }
        if let Some(ns) = namespace
            && !is_dns1123_label(ns)
        {
            return Err(format!(
                "has namespace {ns:?}, which is not a valid namespace (lower-case alphanumerics and '-', at most 63)"
            ));
        }
        if !is_dns1123_subdomain(name) {
            return Err(format!(
                "has pool name {name:?}, which is not a valid object name (a lower-case DNS subdomain)"
            ));
        }
        Ok(PoolName {
            namespace: namespace.map(str::to_string),
            name: name.to_string(),
        })
    }

    /// Whether this entry names the pool `namespace/name`.
    pub fn matches(&self, namespace: &str, name: &str) -> bool {
        self.name == name && self.namespace.as_deref().is_none_or(|ns| ns == namespace)
    }
}

impl fmt::Display for PoolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{ns}/{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// A CAPM3 version as written in `capm3Version` or an image tag: `v?MAJOR.MINOR(.PATCH)?`,
/// optionally followed by a `-pre-release` or `+build` suffix (ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: Option<u64>,
}

impl Version {
    /// Parses loosely; `None` when it does not look like a version.
    pub fn parse(s: &str) -> Option<Version> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let core = s.split(['-', '+']).next().unwrap_or(s);
        let number = |p: &str| -> Option<u64> {
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) {
                p.parse().ok()
            } else {
                None
            }
        };
        let parts: Vec<&str> = core.split('.').collect();
        match parts.as_slice() {
            [ma, mi] => Some(Version {
                major: number(ma)?,
                minor: number(mi)?,
                patch: None,
            }),
            [ma, mi, pa] => Some(Version {
                major: number(ma)?,
                minor: number(mi)?,
                patch: Some(number(pa)?),
            }),
            _ => None,
        }
    }
}

/// The fields of `spec` (typed form) and `data` (ConfigMap form), in SPEC order: what
/// [`decode`] reads and [`Config::differences`] compares.
pub const FIELDS: [&str; 14] = [
    "mode",
    "mapping",
    "hostSelector",
    "pools",
    "strategy",
    "ordinalOffset",
    "reserve",
    "prune",
    "labels",
    "controllerFlag",
    "capm3Version",
    "networks",
    "strictNetworks",
    "defaultNamespace",
];

/// Where the resolved config came from, so that a result about a config field found after
/// resolving (a name in `pools` that is not in the input; `reserve` as the reason an address
/// is refused) points at the field as the person wrote it, on the functionConfig.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigSource {
    /// The functionConfig; `None` when there was none (all defaults).
    pub resource_ref: Option<ResourceRef>,
    /// A ConfigMap: the fields are in `data`, a list is one comma-separated string.
    pub config_map: bool,
}

impl ConfigSource {
    /// The field path of config field `key`, or of its list item `item`: `spec.reserve[2]`;
    /// for a ConfigMap `data.reserve` (the list is one string; the message names the item).
    pub fn path(&self, key: &str, item: Option<usize>) -> String {
        match (self.config_map, item) {
            (true, _) => format!("data.{key}"),
            (false, Some(i)) => format!("spec.{key}[{i}]"),
            (false, None) => format!("spec.{key}"),
        }
    }

    /// An error about config field `key` (list item `item`), on the functionConfig.
    pub fn error(&self, key: &str, item: Option<usize>, message: impl Into<String>) -> Finding {
        let f = Finding::error(message).at(self.path(key, item));
        match &self.resource_ref {
            Some(r) => f.on(r.clone()),
            None => f,
        }
    }
}

/// The resolved functionConfig. `Default` is every default of SPEC §2. From [`resolve`], every
/// value is one this version can run ([`Choice::available`]). Only the functionConfig's fields:
/// nothing writes to it after [`resolve`]; what a run adds (`--mode`, the claim limit, the
/// plan) is [`crate::transform::RunContext`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Where it came from, for results about its fields.
    pub source: ConfigSource,
    /// `mode` as the functionConfig writes it; `--mode` overrides it in the run's
    /// [`crate::transform::RunContext::mode`].
    pub mode: Mode,
    pub mapping: MappingMode,
    /// Narrows the hosts (over BareMetalHost labels); empty = all hosts.
    pub host_selector: Selector,
    /// The IPPools to manage, without duplicates; empty = all the mapping names.
    pub pools: Vec<PoolName>,
    pub strategy: Strategy,
    pub ordinal_offset: u64,
    /// Addresses never handed out: each entry of `reserve`, in order, as the range it names.
    pub reserve: Vec<ReserveRange>,
    pub prune: bool,
    pub labels: bool,
    pub controller_flag: bool,
    /// A version that [`Version::parse`] accepts; `None` when unset or empty.
    pub capm3_version: Option<String>,
    /// `networks` (SPEC §10), in order; a name may come with several CIDRs.
    pub networks: Vec<NetworkCidr>,
    /// `strictNetworks`: overlapping ranges of one network across namespaces are errors.
    pub strict_networks: bool,
    /// `defaultNamespace`: the namespace of the items without `metadata.namespace`; `None`
    /// when unset or empty (`default`).
    pub default_namespace: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            source: ConfigSource::default(),
            mode: Mode::Fill,
            mapping: MappingMode::Auto,
            host_selector: Selector::everything(),
            pools: Vec::new(),
            strategy: Strategy::Sequential,
            ordinal_offset: 0,
            reserve: Vec::new(),
            prune: false,
            labels: true,
            controller_flag: true,
            capm3_version: None,
            networks: Vec::new(),
            strict_networks: false,
            default_namespace: None,
        }
    }
}

impl Config {
    /// Whether the pool `namespace/name` is selected by `pools` (always, when empty).
    pub fn manages_pool(&self, namespace: &str, name: &str) -> bool {
        self.pools.is_empty() || self.pools.iter().any(|p| p.matches(namespace, name))
    }

    /// `capm3_version`, parsed.
    pub fn capm3_version(&self) -> Option<Version> {
        self.capm3_version.as_deref().and_then(Version::parse)
    }

    /// The functionConfig fields (as [`FIELDS`] spells them) whose values differ between two
    /// resolved configs; where they came from does not count.
    pub fn differences(a: &Config, b: &Config) -> Vec<&'static str> {
        // one per field, in the order of FIELDS (a field added there must be added here)
        let same: [bool; FIELDS.len()] = [
            a.mode == b.mode,
            a.mapping == b.mapping,
            a.host_selector == b.host_selector,
            a.pools == b.pools,
            a.strategy == b.strategy,
            a.ordinal_offset == b.ordinal_offset,
            a.reserve == b.reserve,
            a.prune == b.prune,
            a.labels == b.labels,
            a.controller_flag == b.controller_flag,
            a.capm3_version == b.capm3_version,
            a.networks == b.networks,
            a.strict_networks == b.strict_networks,
            a.default_namespace == b.default_namespace,
        ];
        FIELDS
            .iter()
            .zip(same)
            .filter(|(_, same)| !same)
            .map(|(f, _)| *f)
            .collect()
    }
}
