//! Where the config a file run is given is written (`--config FILE`, a Kptfile step's
//! `configPath` or inline `configMap`), so that each result about it names that file and the
//! line of its field (SPEC §9), as the results about the items do: `fn-config.yaml:8: error:
//! IPReuse cfg spec.strategy: ...`.

use std::path::PathBuf;

use ipreuse::krm;
use ipreuse::results::{FileRef, Finding};
use ipreuse::yaml::{self, Seg};
use serde_json::Value;

/// A config and the text it was read from.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    /// The config as the run reads it (for a Kptfile's `configMap`, the ConfigMap kpt wraps
    /// it in).
    pub value: Value,
    /// The file, as named on the command line or found beside its Kptfile.
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
    /// For a Kptfile's inline `configMap`: where the map is written in the Kptfile
    /// (`pipeline.mutators[0].configMap`), which is the ConfigMap's `data`.
    pub inline: Option<Vec<Seg>>,
}

impl ConfigFile {
    /// Sets `file` on each result about this config that has none (matched by kind and name):
    /// this file, at the line of the result's field, or of the config itself.
    pub fn locate(&self, findings: &mut [Finding]) {
        let text = |v: Option<&Value>, key: &str| {
            v.and_then(|v| v.get(key))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let kind = text(Some(&self.value), "kind");
        let name = text(self.value.get("metadata"), "name");
        let root = yaml::parse(&self.text)
            .ok()
            .and_then(|docs| docs.into_iter().next());
        for f in findings.iter_mut().filter(|f| f.file.is_none()) {
            if !f
                .resource_ref
                .as_ref()
                .is_some_and(|r| r.kind == kind && r.name == name)
            {
                continue;
            }
            let field = f.field.as_ref().and_then(|p| yaml::parse_path(&p.path));
            let line = root.as_ref().map(|doc| {
                let at = doc
                    .root
                    .path_start(&self.in_file(field.unwrap_or_default()));
                krm::locate::line_of(&self.text, at)
            });
            f.file = Some(FileRef {
                path: self.path.display().to_string(),
                index: Some(0),
                line,
            });
        }
    }

    /// Where field `path` of the config is written in the file: itself, or, for an inline
    /// `configMap`, its `data.X` at the map's key `X` (any other field at the map).
    fn in_file(&self, path: Vec<Seg>) -> Vec<Seg> {
        let Some(inline) = &self.inline else {
            return path;
        };
        let mut at = inline.clone();
        if path.first() == Some(&Seg::key("data")) {
            at.extend(path.into_iter().skip(1));
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ipreuse::results::{FieldRef, ResourceRef};
    use serde_json::json;

    fn about(kind: &str, name: &str, field: Option<&str>) -> Finding {
        let mut f = Finding::error("x");
        f.resource_ref = Some(ResourceRef {
            api_version: "v1".into(),
            kind: kind.into(),
            name: name.into(),
            namespace: None,
        });
        f.field = field.map(|p| FieldRef { path: p.into() });
        f
    }

    #[test]
    fn a_config_file_gives_the_line_of_each_field() {
        let text = "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: cfg\nspec:\n  reserve:\n    - 10.0.0.1\n    - bogus\n  colour: red\n";
        let file = ConfigFile {
            value: json!({"kind": "IPReuse", "metadata": {"name": "cfg"}}),
            path: "cfg.yaml".into(),
            text: text.into(),
            inline: None,
        };
        let mut findings = vec![
            about("IPReuse", "cfg", Some("spec.reserve[1]")),
            about("IPReuse", "cfg", Some("spec.colour")),
            about("IPReuse", "cfg", Some("spec.strategy")),
            about("IPReuse", "cfg", None),
            about("IPReuse", "other", Some("spec.colour")),
        ];
        file.locate(&mut findings);
        let lines: Vec<Option<String>> = findings
            .iter()
            .map(|f| f.file.as_ref().map(FileRef::words))
            .collect();
        assert_eq!(
            lines,
            [
                Some("cfg.yaml:8".into()),
                Some("cfg.yaml:9".into()),
                // not written: where it would be
                Some("cfg.yaml:5".into()),
                Some("cfg.yaml:1".into()),
                None,
            ]
        );
    }

    #[test]
    fn an_inline_config_map_gives_the_line_of_its_key_in_the_kptfile() {
        let text = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n    - image: x\n    - exec: ipreuse\n      configMap:\n        strategy: lowest\n        mode: fill\n";
        let file = ConfigFile {
            value: json!({"kind": "ConfigMap", "metadata": {"name": "function-input"}}),
            path: "pkg/Kptfile".into(),
            text: text.into(),
            inline: yaml::parse_path("pipeline.mutators[1].configMap"),
        };
        let mut findings = vec![
            about("ConfigMap", "function-input", Some("data.strategy")),
            about("ConfigMap", "function-input", Some("data.colour")),
            about("ConfigMap", "function-input", Some("metadata.name")),
        ];
        file.locate(&mut findings);
        let lines: Vec<String> = findings
            .iter()
            .map(|f| f.file.as_ref().unwrap().words())
            .collect();
        assert_eq!(lines, ["pkg/Kptfile:10", "pkg/Kptfile:9", "pkg/Kptfile:9"]);
    }
}
