//! A package's Kptfile as the config of a file run (SPEC §1 "Kptfile"): on named paths, a
//! folder whose Kptfile runs ipreuse is read with that step's config, as `kpt fn render` passes
//! it, so that a file run and a render of the same package agree.
//!
//! - A step runs ipreuse when it is an `exec:` whose file name is `ipreuse`, or an `image:`
//!   whose name (tag and digest aside) is `ipreuse` or ends in `/ipreuse`.
//! - Its config is what kpt passes: the file `configPath` names (relative to the Kptfile's
//!   folder), or the inline `configMap` as kpt wraps it (`apiVersion: v1`, `kind: ConfigMap`,
//!   `metadata.name: function-input`, `data:` the map), or nothing.
//! - The first mutator that runs ipreuse gives the config, else the first validator. Steps
//!   whose configs differ in anything but `mode` are an error naming them (docs/decisions.md:
//!   a validator `mode: check` beside a mutator is how a pipeline gates its own fill; the CLI's
//!   `--mode` decides the mode of a file run).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::config_file::ConfigFile;
use ipreuse::config::{self, Config};
use ipreuse::krm;
use serde_json::{Map, Value, json};

/// One ipreuse step of a Kptfile.
#[derive(Debug, Clone)]
pub struct Step {
    /// `pipeline.mutators[0]`, for messages.
    pub label: String,
    /// How the config is given: `configMap`, `configPath FILE`, or `no config`.
    pub given: String,
    /// The functionConfig kpt passes (`None`: none), with where it is written.
    pub config: Option<ConfigFile>,
}

impl Step {
    /// The functionConfig kpt passes (`None`: none).
    pub fn value(&self) -> Option<&Value> {
        self.config.as_ref().map(|c| &c.value)
    }
}

/// A Kptfile that runs ipreuse, with the config of its package.
#[derive(Debug, Clone)]
pub struct Kptfile {
    /// The Kptfile, as the walk names it.
    pub path: PathBuf,
    /// The step whose config the package is read with.
    pub step: Step,
}

impl Kptfile {
    /// The info result of a run with this config.
    pub fn info(&self) -> String {
        format!(
            "config from Kptfile {}, {} ({}): the config kpt fn render passes to this step",
            self.path.display(),
            self.step.label,
            self.step.given
        )
    }
}

/// The Kptfile of `dir`, when `dir` holds a kpt Kptfile: `Ok(None)` when there is none or it
/// is not a `kpt.dev` Kptfile; `Ok(Some((path, None)))` when its pipeline does not run ipreuse.
#[allow(clippy::type_complexity)]
pub fn read(dir: &Path) -> Result<Option<(PathBuf, Option<Kptfile>)>> {
    let path = dir.join("Kptfile");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let value = krm::read_config(&path.display().to_string(), &text)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let is = |key: &str, want: &dyn Fn(&str) -> bool| {
        value.get(key).and_then(Value::as_str).is_some_and(want)
    };
    if !is("kind", &|k| k == "Kptfile") || !is("apiVersion", &|a| a.starts_with("kpt.dev/")) {
        return Ok(None);
    }
    let mut steps = Vec::new();
    for list in ["mutators", "validators"] {
        let fns = value
            .get("pipeline")
            .and_then(|p| p.get(list))
            .and_then(Value::as_array);
        for (i, f) in fns.into_iter().flatten().enumerate() {
            if !runs_ipreuse(f) {
                continue;
            }
            let label = format!("pipeline.{list}[{i}]");
            steps.push(step(dir, &path, f, label)?);
        }
    }
    let Some(first) = steps.first() else {
        return Ok(Some((path, None)));
    };
    for other in &steps[1..] {
        if let Some(fields) = differ_beyond_mode(first.value(), other.value()) {
            bail!(
                "{}: the ipreuse steps {} and {} have different configs ({}): a file run cannot \
                 tell which to use; pass --config FILE, or make them agree (mode aside)",
                path.display(),
                first.label,
                other.label,
                fields
            );
        }
    }
    let step = first.clone();
    Ok(Some((path.clone(), Some(Kptfile { path, step }))))
}

/// Whether a pipeline function runs ipreuse (SPEC §1).
fn runs_ipreuse(f: &Value) -> bool {
    if let Some(exec) = f.get("exec").and_then(Value::as_str) {
        let program = exec.split_whitespace().next().unwrap_or("");
        return Path::new(program)
            .file_name()
            .is_some_and(|n| n == "ipreuse");
    }
    if let Some(image) = f.get("image").and_then(Value::as_str) {
        let name = image.split('@').next().unwrap_or("");
        // A tag is a `:` after the last `/` (a registry's port comes before it).
        let name = match name.rfind(':') {
            Some(colon) if !name[colon..].contains('/') => &name[..colon],
            _ => name,
        };
        return name == "ipreuse" || name.ends_with("/ipreuse");
    }
    false
}

/// The config kpt passes to one step.
fn step(dir: &Path, kptfile: &Path, f: &Value, label: String) -> Result<Step> {
    let path = f.get("configPath").and_then(Value::as_str);
    let map = f.get("configMap").filter(|m| !m.is_null());
    match (path, map) {
        (Some(_), Some(_)) => bail!(
            "{}: {label} has both configPath and configMap (kpt refuses that too)",
            kptfile.display()
        ),
        (Some(p), None) => {
            let file = dir.join(p);
            let text = std::fs::read_to_string(&file).with_context(|| {
                format!(
                    "{}: {label}: cannot read its configPath {}",
                    kptfile.display(),
                    file.display()
                )
            })?;
            let value = krm::read_config(&file.display().to_string(), &text)?;
            Ok(Step {
                label,
                given: format!("configPath {p}"),
                config: Some(ConfigFile {
                    value,
                    path: file,
                    text,
                    inline: None,
                }),
            })
        }
        (None, Some(map)) => {
            let Some(map) = map.as_object() else {
                bail!("{}: {label}: configMap is not a map", kptfile.display());
            };
            let text = std::fs::read_to_string(kptfile)
                .with_context(|| format!("cannot read {}", kptfile.display()))?;
            Ok(Step {
                given: "configMap".to_string(),
                config: Some(ConfigFile {
                    value: config_map(map),
                    path: kptfile.to_path_buf(),
                    text,
                    inline: ipreuse::yaml::parse_path(&format!("{label}.configMap")),
                }),
                label,
            })
        }
        (None, None) => Ok(Step {
            label,
            given: "no config".to_string(),
            config: None,
        }),
    }
}

/// The ConfigMap kpt makes of a step's inline `configMap` (kpt's `NewConfigMap`).
fn config_map(data: &Map<String, Value>) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "function-input"},
        "data": Value::Object(data.clone()),
    })
}

/// `None` when two configs agree but for `mode`; else the fields where they differ.
fn differ_beyond_mode(a: Option<&Value>, b: Option<&Value>) -> Option<String> {
    match (config::resolve(a), config::resolve(b)) {
        (Ok(a), Ok(b)) => {
            let fields: Vec<&str> = Config::differences(&a, &b)
                .into_iter()
                .filter(|f| *f != "mode")
                .collect();
            (!fields.is_empty()).then(|| fields.join(", "))
        }
        // One cannot be read: as written, `mode` aside.
        _ => {
            let strip = |v: Option<&Value>| {
                let mut v = v.cloned().unwrap_or(Value::Null);
                for key in ["data", "spec"] {
                    if let Some(Value::Object(m)) = v.get_mut(key) {
                        m.remove("mode");
                    }
                }
                v
            };
            (strip(a) != strip(b)).then(|| "as written".to_string())
        }
    }
}

/// The fields where `--config` and a Kptfile's config differ (`None`: they agree).
pub fn differences(given: &Value, kptfile: Option<&Value>) -> Option<String> {
    match (config::resolve(Some(given)), config::resolve(kptfile)) {
        (Ok(a), Ok(b)) => {
            let fields = Config::differences(&a, &b);
            (!fields.is_empty()).then(|| fields.join(", "))
        }
        // A given config that cannot be read fails the run with its own errors, which say why:
        // a warning that it differs would only add noise ("differs ... in as written").
        (Err(_), _) => None,
        (Ok(_), Err(_)) => (Some(given) != kptfile).then(|| "every field".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_steps_run_ipreuse() {
        let yes = [
            json!({"exec": "ipreuse"}),
            json!({"exec": "./bin/ipreuse"}),
            json!({"image": "ipreuse"}),
            json!({"image": "ghcr.io/x/ipreuse:v1.2"}),
            json!({"image": "localhost:5000/ipreuse@sha256:00"}),
        ];
        let no = [
            json!({"exec": "ipreuse-old"}),
            json!({"image": "ghcr.io/x/notipreuse:v1"}),
            json!({"image": "ghcr.io/ipreuse/set-labels:v1"}),
            json!({"image": "localhost:5000/other"}),
        ];
        for f in yes {
            assert!(runs_ipreuse(&f), "{f}");
        }
        for f in no {
            assert!(!runs_ipreuse(&f), "{f}");
        }
    }

    #[test]
    fn mode_alone_is_no_difference() {
        let fill = config_map(json!({"controllerFlag": "false"}).as_object().unwrap());
        let check = config_map(
            json!({"controllerFlag": "false", "mode": "check"})
                .as_object()
                .unwrap(),
        );
        let other = config_map(json!({"controllerFlag": "true"}).as_object().unwrap());
        assert_eq!(differ_beyond_mode(Some(&fill), Some(&check)), None);
        assert!(differ_beyond_mode(Some(&fill), Some(&other)).is_some());
    }
}
