//! KRM results (SPEC §9): what the function tells the person running it.

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
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// One KRM result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_ref: Option<ResourceRef>,
    /// Field path in kpt's dotted form, e.g. `spec.pools[0].start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<FieldRef>,
}

/// `field` of a KRM result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldRef {
    pub path: String,
}

impl Finding {
    pub fn new(severity: Severity, message: impl Into<String>) -> Self {
        Finding {
            severity,
            message: message.into(),
            resource_ref: None,
            field: None,
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
/// then object, field and message.
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (
            a.severity,
            &a.resource_ref,
            a.field.as_ref().map(|f| &f.path),
            &a.message,
        )
            .cmp(&(
                b.severity,
                &b.resource_ref,
                b.field.as_ref().map(|f| &f.path),
                &b.message,
            ))
    });
}
