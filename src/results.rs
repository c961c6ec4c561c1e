//! KRM results (SPEC §9): what the function tells the person running it. A leaf below every
//! stage that reports (config, model, the transformations, the run) and the framing that writes
//! them out (`krm::write`); it takes only `yaml::path_key` for the field paths.

use serde::Serialize;

/// How bad a result is. Any `Error` makes the run fail and every item come back unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// The object a result is about (`resourceRef` in a KRM result).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    pub api_version: String,
    pub kind: String,
    /// `metadata.name`; empty when the object has none (a functionConfig may have none), and
    /// then left out of the result, as kyaml leaves out an empty name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

impl ResourceRef {
    /// The object as a result's line or a message names it: `IPPool ns/name`, `IPReuse name`;
    /// an object without a name (a functionConfig may have none) by its kind alone,
    /// `IPReuse (no name)`, so that a field written after it is not read as its name.
    pub fn words(&self) -> String {
        let name = if self.name.is_empty() {
            "(no name)"
        } else {
            &self.name
        };
        match &self.namespace {
            Some(ns) if !self.name.is_empty() => format!("{} {ns}/{name}", self.kind),
            Some(ns) => format!("{} {name} in namespace {ns}", self.kind),
            None => format!("{} {name}", self.kind),
        }
    }
}

/// The `field.path` of key `key` in the mapping at the dotted path `map`:
/// `metadata.annotations.[ipreuse.dev/ip.pool]`, `spec.preAllocations.node-1-pool` (a key that
/// is not a plain word is bracketed, see [`crate::yaml::path_key`]).
pub fn key_path(map: &str, key: &str) -> String {
    format!("{map}.{}", crate::yaml::path_key(key))
}

/// One KRM result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_ref: Option<ResourceRef>,
    /// Field path in kpt's dotted form, e.g. `spec.pools[0].start`; keys that are not plain
    /// words in brackets (see [`key_path`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<FieldRef>,
    /// The file the object came from, where it came from one (SPEC §9): kpt's path and index
    /// annotations in a ResourceList, or the file read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<FileRef>,
}

/// `file` of a KRM result (kpt's result schema: `file: {path, index}`), and the line for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileRef {
    /// The file, as kpt's path annotation or the named path gives it.
    pub path: String,
    /// The object's document in that file, from 0 (kpt's index annotation, or the position of
    /// the document in the file read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The object's first line in that file, from 1, when the file was read here: for the line
    /// on stderr (`path:line`); not part of the KRM result.
    #[serde(skip)]
    pub line: Option<usize>,
}

impl FileRef {
    /// `path:line`, or `path` when the line is not known.
    pub fn words(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.path),
            None => self.path.clone(),
        }
    }
}

/// `field` of a KRM result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldRef {
    pub path: String,
}

impl Finding {
    /// Whether the result is on object `kind` `namespace/name` (for tests).
    #[cfg(test)]
    pub fn is_on(&self, kind: &str, namespace: &str, name: &str) -> bool {
        self.resource_ref.as_ref().is_some_and(|r| {
            (r.kind.as_str(), r.namespace.as_deref(), r.name.as_str())
                == (kind, Some(namespace), name)
        })
    }

    pub fn new(severity: Severity, message: impl Into<String>) -> Self {
        Finding {
            severity,
            message: message.into(),
            resource_ref: None,
            field: None,
            file: None,
        }
    }
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }
    pub fn info(message: impl Into<String>) -> Self {
        Self::new(Severity::Info, message)
    }
    pub fn on(mut self, resource: ResourceRef) -> Self {
        self.resource_ref = Some(resource);
        self
    }
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.field = Some(FieldRef { path: path.into() });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Results in the order they are reported, stable from run to run: by severity (errors first),
/// then object, field and message; fields in natural order, so that the entries of `node-2` come
/// before those of `node-10`, as fill writes them. A result equal to another in all of these says
/// nothing new and is reported once (two stages may read one malformed field, such as the owners
/// of an IPClaim that both the labels and adoption follow).
pub fn sort(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| {
        (a.severity, &a.resource_ref)
            .cmp(&(b.severity, &b.resource_ref))
            .then_with(|| {
                let (x, y) = (a.field.as_ref(), b.field.as_ref());
                match (x.map(|f| f.path.as_str()), y.map(|f| f.path.as_str())) {
                    (Some(x), Some(y)) => crate::natural::compare(x, y),
                    (x, y) => x.cmp(&y),
                }
            })
            .then_with(|| a.message.cmp(&b.message))
    });
    findings.dedup();
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_list_the_entries_of_node_2_before_node_10_and_errors_first() {
        use super::{Finding, sort};
        fn at(f: Finding, claim: &str) -> Finding {
            f.at(format!("spec.preAllocations.{claim}"))
        }
        let mut findings = vec![
            at(Finding::error("b"), "node-10-pool"),
            at(Finding::warning("w"), "node-1-pool"),
            at(Finding::error("a"), "node-2-pool"),
            at(Finding::error("a"), "node-2-pool"),
            Finding::error("no field"),
        ];
        sort(&mut findings);
        let shown: Vec<(&str, Option<&str>)> = findings
            .iter()
            .map(|f| {
                (
                    f.message.as_str(),
                    f.field.as_ref().map(|f| f.path.as_str()),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("no field", None),
                ("a", Some("spec.preAllocations.node-2-pool")),
                ("b", Some("spec.preAllocations.node-10-pool")),
                ("w", Some("spec.preAllocations.node-1-pool")),
            ]
        );
    }

    use super::key_path;

    #[test]
    fn keys_that_are_not_plain_words_are_bracketed_as_kyaml_reads_them() {
        assert_eq!(
            key_path("spec.preAllocations", "node-1_a-pool"),
            "spec.preAllocations.node-1_a-pool"
        );
        assert_eq!(
            key_path("metadata.annotations", "ipreuse.dev/ip.pool"),
            "metadata.annotations.[ipreuse.dev/ip.pool]"
        );
        assert_eq!(
            key_path("metadata.labels", "app/name"),
            "metadata.labels.[app/name]"
        );
        assert_eq!(
            key_path("spec.preAllocations", "node1.lab-v4"),
            "spec.preAllocations.[node1.lab-v4]"
        );
        assert_eq!(key_path("data", ""), "data.[]");
        use crate::yaml::{Seg, path_to_string};
        assert_eq!(
            path_to_string(&[
                Seg::key("metadata"),
                Seg::key("labels"),
                Seg::key("infrastructure.cluster.x-k8s.io/pool-name")
            ]),
            "metadata.labels.[infrastructure.cluster.x-k8s.io/pool-name]"
        );
        assert_eq!(
            path_to_string(&[Seg::key("spec"), Seg::key("pools"), Seg::Index(0)]),
            "spec.pools[0]"
        );
    }
}
