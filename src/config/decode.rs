//! functionConfig object (JSON) -> [`Config`], reporting every problem at once.
//!
//! The keys and values are checked by hand rather than through serde, so that each
//! unknown field and each bad value gets its own error with its field path and the
//! allowed values (serde stops at the first problem and knows no paths).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use serde_json::{Map, Value};

use super::{
    Choice, Config, ConfigSource, FIELDS, MappingMode, Mode, NetworkCidr, PoolName, ReserveRange,
    Strategy, Version,
};
use crate::names::did_you_mean;
use crate::results::{Finding, ResourceRef};
use crate::selector::{STRING_SYNTAX, Selector};

/// The functionConfig kinds that are accepted, for messages.
pub const ACCEPTED_KINDS: &str = "apiVersion fn.ipreuse.dev/v1alpha1 kind IPReuse (fields in spec), or apiVersion v1 kind ConfigMap (fields in data)";

/// How a ConfigMap writes a network with blocks, for messages about the `name=cidr` form.
const LIST_HINT: &str = "A network with blocks is written as a list: [{name: prov, cidr: 172.22.0.0/16, blockSize: 26}]";

const TYPED_API_VERSION: &str = "fn.ipreuse.dev/v1alpha1";
const TYPED_KIND: &str = "IPReuse";

const TYPED_TOP: [&str; 4] = ["apiVersion", "kind", "metadata", "spec"];
const CONFIGMAP_TOP: [&str; 4] = ["apiVersion", "kind", "metadata", "data"];

/// Resolves the functionConfig for this version of ipreuse: [`decode`], and a value that the
/// schema accepts but this version cannot run yet (`strategy: ordinal`; see
/// [`Choice::available`]) is one more error at its field, reported with all the others.
/// The [`Config`] it returns is what the run reads; nothing after it reports config errors
/// (but for a name in `pools` that is not in the input, which the mapping finds).
pub fn resolve(function_config: Option<&Value>) -> Result<Config, Vec<Finding>> {
    read(function_config, Accept::Available)
}

/// Decodes the functionConfig, accepting every value the schema accepts.
///
/// `None` or `null`: all defaults. `fn.ipreuse.dev/v1alpha1` `IPReuse`: the fields of `spec`.
/// `v1` `ConfigMap`: the same fields in `data`, as strings (lists comma-separated, the host
/// selector in the selector string syntax, an empty value meaning the default).
/// `metadata` (name, annotations such as kpt's and kustomize's) is ignored.
///
/// Every unknown field and every bad value is one error [`Finding`] naming the field
/// (`field.path`, e.g. `spec.strategy`), the bad value and the allowed values, on the
/// functionConfig (`resourceRef`).
pub fn decode(function_config: Option<&Value>) -> Result<Config, Vec<Finding>> {
    read(function_config, Accept::Schema)
}

/// Which enum values [`read`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Accept {
    /// Every value of the schema.
    Schema,
    /// Only the values this version can run ([`Choice::available`]).
    Available,
}

fn read(function_config: Option<&Value>, accept: Accept) -> Result<Config, Vec<Finding>> {
    let Some(value) = function_config.filter(|v| !v.is_null()) else {
        return Ok(Config::default());
    };
    let Some(object) = value.as_object() else {
        return Err(vec![Finding::error(format!(
            "functionConfig must be an object ({ACCEPTED_KINDS}), found {}",
            json_text(value)
        ))]);
    };
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let metadata = object.get("metadata");
    let meta_str = |key: &str| {
        metadata
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut decoder = Decoder {
        resource: ResourceRef {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            name: meta_str("name").unwrap_or_default(),
            namespace: meta_str("namespace"),
        },
        accept,
        errors: Vec::new(),
        config: Config::default(),
    };
    decoder.config.source = ConfigSource {
        resource_ref: Some(decoder.resource.clone()),
        config_map: (api_version, kind) == ("v1", "ConfigMap"),
    };
    match (api_version, kind) {
        (TYPED_API_VERSION, TYPED_KIND) => decoder.typed(object),
        ("v1", "ConfigMap") => decoder.config_map(object),
        _ => {
            let path = if [TYPED_API_VERSION, "v1"].contains(&api_version) {
                "kind"
            } else {
                "apiVersion"
            };
            decoder.error(
                path,
                format!(
                    "functionConfig apiVersion {api_version:?} kind {kind:?} is not accepted; use {ACCEPTED_KINDS}"
                ),
            );
        }
    }
    if decoder.errors.is_empty() {
        Ok(decoder.config)
    } else {
        Err(decoder.errors)
    }
}

struct Decoder {
    resource: ResourceRef,
    accept: Accept,
    errors: Vec<Finding>,
    config: Config,
}

/// A value as JSON text, for messages (strings come out quoted).
fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| value.to_string())
}

impl Decoder {
    fn error(&mut self, path: &str, message: impl std::fmt::Display) {
        self.errors.push(
            Finding::error(message.to_string())
                .on(self.resource.clone())
                .at(path),
        );
    }

    /// Errors for keys of `object` that are not in `known`.
    fn unknown_keys(
        &mut self,
        prefix: &str,
        what: &str,
        object: &Map<String, Value>,
        known: &[&str],
    ) {
        for key in object.keys() {
            if known.contains(&key.as_str()) {
                continue;
            }
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            let hint = did_you_mean(key, known);
            self.error(
                &path,
                format!(
                    "unknown field {key:?}{hint}; the fields of {what} are {}",
                    known.join(", ")
                ),
            );
        }
    }

    // ---- typed form -------------------------------------------------------------------

    fn typed(&mut self, object: &Map<String, Value>) {
        self.unknown_keys("", "IPReuse", object, &TYPED_TOP);
        let spec = match object.get("spec") {
            None | Some(Value::Null) => return,
            Some(Value::Object(spec)) => spec,
            Some(other) => {
                self.error(
                    "spec",
                    format!(
                        "must be an object with the fields {}, found {}",
                        FIELDS.join(", "),
                        json_text(other)
                    ),
                );
                return;
            }
        };
        self.unknown_keys("spec", "spec", spec, &FIELDS);
        for (key, value) in spec {
            if value.is_null() || !FIELDS.contains(&key.as_str()) {
                continue;
            }
            let path = format!("spec.{key}");
            self.typed_field(key, &path, value);
        }
    }

    fn typed_field(&mut self, key: &str, path: &str, value: &Value) {
        match key {
            "mode" => {
                if let Some(v) = self.json_choice::<Mode>(path, value) {
                    self.config.mode = v;
                }
            }
            "mapping" => {
                if let Some(v) = self.json_choice::<MappingMode>(path, value) {
                    self.config.mapping = v;
                }
            }
            "strategy" => {
                if let Some(v) = self.json_choice::<Strategy>(path, value) {
                    self.config.strategy = v;
                }
            }
            "hostSelector" => {
                if let Some(v) = self.json_label_selector(path, value) {
                    self.config.host_selector = v;
                }
            }
            "pools" => {
                if let Some(items) = self.json_strings(path, value) {
                    let mut pools = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        match PoolName::parse(item) {
                            Ok(p) => pools.push(p),
                            Err(e) => self.error(&format!("{path}[{i}]"), format!("{item:?} {e}")),
                        }
                    }
                    self.config.pools = dedup(pools);
                }
            }
            "ordinalOffset" => match value.as_u64() {
                Some(n) => self.config.ordinal_offset = n,
                None => self.error(
                    path,
                    format!("must be a non-negative integer, found {}", json_text(value)),
                ),
            },
            "reserve" => {
                if let Some(items) = self.json_strings(path, value) {
                    let mut ranges = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        if let Some(r) = self.reserve_entry(&format!("{path}[{i}]"), item) {
                            ranges.push(r);
                        }
                    }
                    self.config.reserve = ranges;
                }
            }
            "networks" => self.json_networks(value),
            "prune" | "labels" | "controllerFlag" | "strictNetworks" => match value.as_bool() {
                Some(b) => self.set_bool(key, b),
                None => self.error(
                    path,
                    format!("must be true or false, found {}", json_text(value)),
                ),
            },
            "defaultNamespace" => match value.as_str() {
                Some(s) => self.default_namespace(path, s),
                None => self.error(
                    path,
                    format!(
                        "must be a namespace name (a string), found {}",
                        json_text(value)
                    ),
                ),
            },
            "capm3Version" => match value.as_str() {
                Some(s) => self.version(path, s),
                None => self.error(
                    path,
                    format!(
                        "must be a version string like v1.12.3, found {}",
                        json_text(value)
                    ),
                ),
            },
            _ => {}
        }
    }

    fn set_bool(&mut self, key: &str, b: bool) {
        match key {
            "prune" => self.config.prune = b,
            "labels" => self.config.labels = b,
            "strictNetworks" => self.config.strict_networks = b,
            _ => self.config.controller_flag = b,
        }
    }

    fn version(&mut self, path: &str, s: &str) {
        if s.is_empty() {
            self.config.capm3_version = None;
        } else if Version::parse(s).is_some() {
            self.config.capm3_version = Some(s.to_string());
        } else {
            self.error(
                path,
                format!("{s:?} is not a version; write MAJOR.MINOR or MAJOR.MINOR.PATCH, optionally with a leading v (v1.12.3, 1.13)"),
            );
        }
    }

    /// `defaultNamespace`: empty is `default`; else a namespace name.
    fn default_namespace(&mut self, path: &str, s: &str) {
        if s.is_empty() {
            self.config.default_namespace = None;
        } else if crate::names::is_dns1123_label(s) {
            self.config.default_namespace = Some(s.to_string());
        } else {
            self.error(
                path,
                format!(
                    "{s:?} is not a namespace name: write a DNS-1123 label. That is lower-case \
                     letters, digits and '-', starting and ending with a letter or digit, at most 63 \
                     characters"
                ),
            );
        }
    }

    /// `networks` of the typed form: a list of `{name, cidr, ...}` objects (block fields
    /// included), each problem at its own field under `spec`.
    fn json_networks(&mut self, value: &Value) {
        let mut problems = Vec::new();
        self.config.networks = super::blocks::read_networks(value, &mut problems);
        for (path, message) in problems {
            self.error(&format!("spec.{path}"), message);
        }
    }

    /// `networks` of a ConfigMap written as a YAML (or JSON) list, as the typed form writes it:
    /// every problem at `data.networks`, its message naming the entry and field.
    fn text_networks(&mut self, path: &str, text: &str) {
        let value = match crate::yaml::parse(text) {
            Ok(docs) if docs.len() == 1 => docs.first().map(|d| d.root.to_json()),
            Ok(_) => None,
            Err(e) => {
                self.error(
                    path,
                    format!(
                        "is not a YAML list of networks: {e}. Write [{{name: prov, cidr: 172.22.0.0/16, blockSize: 26}}], or name=cidr,..."
                    ),
                );
                return;
            }
        };
        let Some(value) = value else {
            self.error(
                path,
                "is not one YAML list of networks. Write [{name: prov, cidr: 172.22.0.0/16, blockSize: 26}], or name=cidr,...",
            );
            return;
        };
        let mut problems = Vec::new();
        self.config.networks = super::blocks::read_networks(&value, &mut problems);
        for (at, message) in problems {
            self.error(path, format!("{at}: {message}"));
        }
    }

    /// A `reserve` entry at `path` (`spec.reserve[i]`, or `data.reserve` for the whole list of
    /// a ConfigMap: the message names the entry).
    fn reserve_entry(&mut self, path: &str, item: &str) -> Option<ReserveRange> {
        match ReserveRange::parse(item) {
            Ok(r) => Some(r),
            Err(e) => {
                self.error(
                    path,
                    format!("reserve entry {item:?} is not an address, range or CIDR: {e}"),
                );
                None
            }
        }
    }

    fn choice<T: Choice>(&mut self, path: &str, word: &str) -> Option<T> {
        let Some(found) = T::from_word(word) else {
            let words: Vec<&str> = T::ALL.iter().map(|c| c.as_str()).collect();
            self.error(
                path,
                format!(
                    "{word:?} is not one of {}{}",
                    T::allowed(),
                    did_you_mean(word, &words)
                ),
            );
            return None;
        };
        if self.accept == Accept::Available && !found.available() {
            self.error(
                path,
                format!(
                    "{word:?} is not available in this version of ipreuse; use {}",
                    T::available_words()
                ),
            );
            return None;
        }
        Some(found)
    }

    fn json_choice<T: Choice>(&mut self, path: &str, value: &Value) -> Option<T> {
        match value.as_str() {
            Some(word) => self.choice(path, word),
            None => {
                self.error(
                    path,
                    format!("{} is not one of {}", json_text(value), T::allowed()),
                );
                None
            }
        }
    }

    /// A list of strings; every item that is not a string is an error.
    fn json_strings(&mut self, path: &str, value: &Value) -> Option<Vec<String>> {
        let Some(items) = value.as_array() else {
            self.error(
                path,
                format!("must be a list of strings, found {}", json_text(value)),
            );
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) => out.push(s.to_string()),
                None => {
                    ok = false;
                    self.error(
                        &format!("{path}[{i}]"),
                        format!("must be a string, found {}", json_text(item)),
                    );
                }
            }
        }
        ok.then_some(out)
    }

    /// A Kubernetes `LabelSelector`: shape checked here, meaning by
    /// [`Selector::from_label_selector`].
    fn json_label_selector(&mut self, path: &str, value: &Value) -> Option<Selector> {
        let Some(object) = value.as_object() else {
            self.error(
                path,
                format!(
                    "must be a label selector (matchLabels, matchExpressions), found {}",
                    json_text(value)
                ),
            );
            return None;
        };
        let before = self.errors.len();
        self.unknown_keys(
            path,
            "a label selector",
            object,
            &["matchLabels", "matchExpressions"],
        );
        let mut selector = LabelSelector::default();
        // Expressions whose shape is wrong: their semantic errors would only repeat it.
        let mut broken: Vec<usize> = Vec::new();
        match object.get("matchLabels") {
            None | Some(Value::Null) => {}
            Some(Value::Object(labels)) => {
                let mut map = std::collections::BTreeMap::new();
                for (k, v) in labels {
                    match v.as_str() {
                        Some(s) => {
                            map.insert(k.clone(), s.to_string());
                        }
                        None => self.error(
                            &crate::results::key_path(&format!("{path}.matchLabels"), k),
                            format!("must be a string, found {}", json_text(v)),
                        ),
                    }
                }
                selector.match_labels = Some(map);
            }
            Some(other) => self.error(
                &format!("{path}.matchLabels"),
                format!(
                    "must be a map of label keys to values, found {}",
                    json_text(other)
                ),
            ),
        }
        match object.get("matchExpressions") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                let mut exprs = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let base = format!("{path}.matchExpressions[{i}]");
                    let (expr, ok) = self.json_expression(&base, item);
                    if !ok {
                        broken.push(i);
                    }
                    exprs.push(expr);
                }
                selector.match_expressions = Some(exprs);
            }
            Some(other) => self.error(
                &format!("{path}.matchExpressions"),
                format!(
                    "must be a list of {{key, operator, values}}, found {}",
                    json_text(other)
                ),
            ),
        }
        match Selector::from_label_selector(&selector) {
            Ok(s) => (self.errors.len() == before).then_some(s),
            Err(errors) => {
                for e in errors {
                    let repeated = broken.iter().any(|i| {
                        let p = format!("matchExpressions[{i}]");
                        e.path == p || e.path.starts_with(&format!("{p}."))
                    });
                    if !repeated {
                        self.error(&format!("{path}.{}", e.path), e.message);
                    }
                }
                None
            }
        }
    }

    fn json_expression(&mut self, base: &str, item: &Value) -> (LabelSelectorRequirement, bool) {
        let mut expr = LabelSelectorRequirement::default();
        let Some(object) = item.as_object() else {
            self.error(
                base,
                format!(
                    "must be an object with key, operator and values, found {}",
                    json_text(item)
                ),
            );
            return (expr, false);
        };
        let before = self.errors.len();
        self.unknown_keys(
            base,
            "a label selector requirement",
            object,
            &["key", "operator", "values"],
        );
        for field in ["key", "operator"] {
            match object.get(field) {
                Some(Value::String(s)) => {
                    if field == "key" {
                        expr.key = s.clone();
                    } else {
                        expr.operator = s.clone();
                    }
                }
                None | Some(Value::Null) => self.error(&format!("{base}.{field}"), "is required"),
                Some(other) => self.error(
                    &format!("{base}.{field}"),
                    format!("must be a string, found {}", json_text(other)),
                ),
            }
        }
        match object.get("values") {
            None | Some(Value::Null) => {}
            Some(v) => expr.values = self.json_strings(&format!("{base}.values"), v),
        }
        let ok = self.errors.len() == before;
        (expr, ok)
    }

    // ---- ConfigMap form ---------------------------------------------------------------

    fn config_map(&mut self, object: &Map<String, Value>) {
        self.unknown_keys("", "a ConfigMap functionConfig", object, &CONFIGMAP_TOP);
        let data = match object.get("data") {
            None | Some(Value::Null) => return,
            Some(Value::Object(data)) => data,
            Some(other) => {
                self.error(
                    "data",
                    format!(
                        "must be a map of strings with the keys {}, found {}",
                        FIELDS.join(", "),
                        json_text(other)
                    ),
                );
                return;
            }
        };
        self.unknown_keys("data", "data", data, &FIELDS);
        for (key, value) in data {
            if !FIELDS.contains(&key.as_str()) {
                continue;
            }
            let path = format!("data.{key}");
            // ConfigMap data are strings; a bare YAML boolean or number is taken as written.
            let text = match value {
                Value::Null => continue,
                Value::String(s) => s.trim().to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                other => {
                    self.error(
                        &path,
                        format!("must be a string, found {}", json_text(other)),
                    );
                    continue;
                }
            };
            if !text.is_empty() {
                self.string_field(key, &path, &text);
            }
        }
    }

    fn string_field(&mut self, key: &str, path: &str, text: &str) {
        match key {
            "mode" => {
                if let Some(v) = self.choice::<Mode>(path, text) {
                    self.config.mode = v;
                }
            }
            "mapping" => {
                if let Some(v) = self.choice::<MappingMode>(path, text) {
                    self.config.mapping = v;
                }
            }
            "strategy" => {
                if let Some(v) = self.choice::<Strategy>(path, text) {
                    self.config.strategy = v;
                }
            }
            "hostSelector" => match Selector::parse(text) {
                Ok(s) => self.config.host_selector = s,
                Err(e) => self.error(
                    path,
                    format!("{text:?} is not a valid selector: {e}; the syntax is {STRING_SYNTAX}"),
                ),
            },
            "pools" => {
                let mut pools = Vec::new();
                for item in split_list(text) {
                    match PoolName::parse(&item) {
                        Ok(p) => pools.push(p),
                        Err(e) => self.error(path, format!("pool {item:?} {e}")),
                    }
                }
                self.config.pools = dedup(pools);
            }
            "ordinalOffset" => {
                let n = if text.bytes().all(|b| b.is_ascii_digit()) {
                    text.parse::<u64>().ok()
                } else {
                    None
                };
                match n {
                    Some(n) => self.config.ordinal_offset = n,
                    None => self.error(path, format!("{text:?} is not a non-negative integer")),
                }
            }
            "reserve" => {
                let mut ranges = Vec::new();
                for item in split_list(text) {
                    if let Some(r) = self.reserve_entry(path, &item) {
                        ranges.push(r);
                    }
                }
                self.config.reserve = ranges;
            }
            // a YAML list (flow `[...]` or block `- ...`); a network name never starts with either
            "networks" if text.starts_with(['[', '-']) => self.text_networks(path, text),
            "networks" => {
                let mut networks = Vec::new();
                for item in split_list(text) {
                    let Some((name, cidr)) = item.split_once('=') else {
                        self.error(
                            path,
                            format!(
                                "network {item:?} is not name=cidr (e.g. prov=172.22.0.0/16). {LIST_HINT}"
                            ),
                        );
                        continue;
                    };
                    match NetworkCidr::parse(name.trim(), cidr) {
                        Ok(n) => networks.push(n),
                        // `prov=10.0.0.0/8 blockSize=24`: block fields need the list form.
                        Err(e) if cidr.trim().contains([' ', '\t', '=', '{']) => {
                            self.error(path, format!("{e}. {LIST_HINT}"))
                        }
                        Err(e) => self.error(path, e),
                    }
                }
                self.config.networks = networks;
            }
            "prune" | "labels" | "controllerFlag" | "strictNetworks" => match text {
                "true" => self.set_bool(key, true),
                "false" => self.set_bool(key, false),
                _ => self.error(
                    path,
                    format!(
                        "{text:?} is not one of true, false{}",
                        did_you_mean(text, &["true", "false"])
                    ),
                ),
            },
            "capm3Version" => self.version(path, text),
            "defaultNamespace" => self.default_namespace(path, text),
            _ => {}
        }
    }
}

/// A comma-separated list: items trimmed, empty items dropped.
fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Keeps the first of equal items, in order.
fn dedup(items: Vec<PoolName>) -> Vec<PoolName> {
    let mut out: Vec<PoolName> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}
