//! The config among the inputs (SPEC §1): kpt packages keep the function's `IPReuse` as a
//! file of the package (a Kptfile's `configPath`), so one can arrive as an item. It is never
//! silently ignored:
//!
//! - with no functionConfig, exactly one `IPReuse` item is the config (an info result names it
//!   and its file), and two or more are an error naming each;
//! - with a functionConfig as well, an `IPReuse` item that says something else is a warning
//!   naming both (`kpt fn render` sends a `configPath` file both as the functionConfig and as
//!   an item: no warning when they agree).
//!
//! Only the kind `IPReuse` counts: ConfigMaps are everywhere in a package. The item itself is
//! never read as anything else, nor changed.

use serde_json::Value;

use super::{Config, resolve};
use crate::model::{IPREUSE_GROUP, group_of};
use crate::results::{Finding, ResourceRef};

/// An `IPReuse` object found among the items.
#[derive(Debug, Clone)]
pub struct ConfigItem {
    /// The object as read, whole.
    pub value: Value,
    /// Its `resourceRef`.
    pub resource_ref: ResourceRef,
    /// Where it is, for messages: its file (kpt's `internal.config.kubernetes.io/path`
    /// annotation, or the file read), else its place in the input.
    pub place: String,
}

impl ConfigItem {
    /// Reads an item as a config, when it is an `IPReuse` (any version of the group).
    /// `place` is where the input holds it, used when no kpt annotation names its file.
    pub fn read(value: Value, place: impl FnOnce() -> String) -> Option<ConfigItem> {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let api_version = text(&value, "apiVersion")?;
        let kind = text(&value, "kind")?;
        if kind != "IPReuse" || group_of(&api_version) != IPREUSE_GROUP {
            return None;
        }
        let metadata = value.get("metadata").cloned().unwrap_or(Value::Null);
        let annotation = |key: &str| {
            metadata
                .get("annotations")
                .and_then(|a| a.get(key))
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
        };
        let place = annotation("internal.config.kubernetes.io/path")
            .or_else(|| annotation("config.kubernetes.io/path"))
            .unwrap_or_else(place);
        let resource_ref = ResourceRef {
            api_version,
            kind,
            name: text(&metadata, "name").unwrap_or_default(),
            namespace: text(&metadata, "namespace").filter(|n| !n.is_empty()),
        };
        Some(ConfigItem {
            value,
            resource_ref,
            place,
        })
    }

    /// `IPReuse name (in pkg/ipreuse.yaml)`, for messages.
    fn words(&self) -> String {
        format!("{} (in {})", self.resource_ref.words(), self.place)
    }
}

/// The field a result about an item as a whole sits at: `kind`, which makes it a config (every
/// item has one).
const WHOLE: &str = "kind";

/// Which functionConfig a run uses, and what it says about the configs among the items.
#[derive(Debug)]
pub struct Chosen<'a> {
    /// The functionConfig to resolve (`None`: all defaults). Meaningless when `findings`
    /// holds an error: the run then resolves nothing.
    pub config: Option<&'a Value>,
    pub findings: Vec<Finding>,
}

/// Whether a functionConfig says nothing at all: `null`, or a ConfigMap
/// without data, which is what `kpt fn eval --exec` sends when it is given neither
/// `--fn-config` nor `-- key=value`.
fn says_nothing(value: &Value) -> bool {
    if value.is_null() {
        return true;
    }
    let is = |key: &str, want: &str| value.get(key).and_then(Value::as_str) == Some(want);
    let data_empty = match value.get("data") {
        None | Some(Value::Null) => true,
        Some(Value::Object(d)) => d.is_empty(),
        Some(_) => false,
    };
    let only_known = value.as_object().is_some_and(|o| {
        o.keys()
            .all(|k| ["apiVersion", "kind", "metadata", "data"].contains(&k.as_str()))
    });
    is("apiVersion", "v1") && is("kind", "ConfigMap") && data_empty && only_known
}

/// Chooses the config of a run from the functionConfig `given` (a ResourceList's, or
/// `--config`) and the `IPReuse` objects among the items.
pub fn choose<'a>(given: Option<&'a Value>, items: &'a [ConfigItem]) -> Chosen<'a> {
    let mut findings = Vec::new();
    if let Some(given) = given.filter(|g| !says_nothing(g)) {
        for item in items {
            if let Some(fields) = differences(given, &item.value) {
                findings.push(differs(given, item, &fields));
            }
        }
        return Chosen {
            config: Some(given),
            findings,
        };
    }
    match items {
        [] => Chosen {
            config: given,
            findings,
        },
        [only] => {
            let why = match given.filter(|v| !v.is_null()) {
                Some(empty) => format!(
                    "the functionConfig {} sets nothing (what kpt fn eval sends without \
                     --fn-config)",
                    reference(empty).words()
                ),
                None => "no functionConfig was given (no --config, no functionConfig in a \
                         ResourceList)"
                    .to_string(),
            };
            findings.push(
                Finding::info(format!(
                    "this IPReuse is the config of this run: it is the only IPReuse in the input. {}, \
                     and it is {}",
                    crate::names::capitalised(&why),
                    only.words()
                ))
                .on(only.resource_ref.clone()),
            );
            Chosen {
                config: Some(&only.value),
                findings,
            }
        }
        several => {
            let all = several
                .iter()
                .map(ConfigItem::words)
                .collect::<Vec<_>>()
                .join(", ");
            for item in several {
                findings.push(
                    Finding::error(format!(
                        "no functionConfig says which of the {} IPReuse configs this run uses: run \
                         ipreuse once per package, or pass --config FILE (kpt: --fn-config FILE). \
                         They are {all}, and this is {}",
                        several.len(),
                        item.words()
                    ))
                    .on(item.resource_ref.clone())
                    .at(WHOLE),
                );
            }
            Chosen {
                config: None,
                findings,
            }
        }
    }
}

/// The warning on an `IPReuse` item that says something else than the functionConfig.
fn differs(given: &Value, item: &ConfigItem, fields: &[String]) -> Finding {
    let what = if fields.is_empty() {
        String::new()
    } else {
        format!(" in {}", fields.join(", "))
    };
    let field = match item.value.get("spec") {
        Some(_) => "spec",
        None => WHOLE,
    };
    Finding::warning(format!(
        "this IPReuse is not used, since this run uses the functionConfig: make the two agree, \
         or remove the one you do not mean. It is {}, and differs from the functionConfig {}{what}",
        item.words(),
        reference(given).words()
    ))
    .on(item.resource_ref.clone())
    .at(field)
}

/// The `resourceRef` of a functionConfig, as the decoder names it.
fn reference(config: &Value) -> ResourceRef {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let metadata = config.get("metadata");
    ResourceRef {
        api_version: text(config.get("apiVersion")),
        kind: text(config.get("kind")),
        name: text(metadata.and_then(|m| m.get("name"))),
        namespace: metadata
            .and_then(|m| m.get("namespace"))
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_string),
    }
}

/// `None` when the config `item` says what `given` says; else the fields where they differ,
/// as the item spells them (empty when they cannot be listed).
fn differences(given: &Value, item: &Value) -> Option<Vec<String>> {
    let prefix = |v: &Value| {
        if v.get("kind").and_then(Value::as_str) == Some("ConfigMap") {
            "data"
        } else {
            "spec"
        }
    };
    match (resolve(Some(given)), resolve(Some(item))) {
        (Ok(a), Ok(b)) => {
            let fields = Config::differences(&a, &b);
            (!fields.is_empty()).then(|| {
                fields
                    .iter()
                    .map(|f| format!("{}.{f}", prefix(item)))
                    .collect()
            })
        }
        // One of them cannot be read (its errors are reported when it is the config): the
        // specs as written.
        _ => {
            let raw = |v: &Value| match v.get("spec") {
                Some(Value::Object(spec)) => spec
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                _ => std::collections::BTreeMap::new(),
            };
            let (a, b) = (raw(given), raw(item));
            if prefix(given) != prefix(item) {
                return Some(Vec::new());
            }
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            let fields: Vec<String> = keys
                .into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .map(|k| format!("spec.{k}"))
                .collect();
            (!fields.is_empty()).then_some(fields)
        }
    }
}
