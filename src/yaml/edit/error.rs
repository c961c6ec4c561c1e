//! Why a set of edits could not be applied: [`EditError`], and its constructors.

use crate::yaml::tree::{Seg, path_to_string};

/// Why a set of edits could not be applied (nothing is applied then).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The path does not lead to a node.
    #[error("path {path}: not found")]
    NotFound {
        /// The path, e.g. `spec.items[3]`.
        path: String,
    },
    /// The node at the path is not of the kind the edit needs.
    #[error("path {path}: expected {expected}")]
    WrongKind {
        /// The path.
        path: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// The path reaches or crosses an alias (`*name`); edits through aliases are refused.
    #[error("path {path}: goes through an alias; edit the anchored node instead")]
    Alias {
        /// The path.
        path: String,
    },
    /// The path reaches a key that only comes from a merge key (`<<: *anchor`), i.e. from
    /// another (anchored) mapping; edits inside merged-in nodes are refused.
    #[error(
        "path {path}: comes from a merge key (`<<`) of an alias; edit the anchored node instead"
    )]
    Merged {
        /// The path.
        path: String,
    },
    /// An added key already exists in the mapping (or is added twice, or the mapping's merge
    /// key `<<` supplies it).
    #[error("path {path}: key {key:?} already exists")]
    DuplicateKey {
        /// The mapping's path.
        path: String,
        /// The key.
        key: String,
    },
    /// The YAML text of a [`super::Edit::SetValue`] is not one valid document.
    #[error("path {path}: invalid YAML value: {message}")]
    InvalidYaml {
        /// The mapping's path.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// A form this layer cannot edit safely (e.g. an empty value inside a flow collection).
    #[error("path {path}: cannot edit here: {reason}")]
    Unsupported {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// Two edits change overlapping text (or remove the same entry twice, or set and remove
    /// one key).
    #[error("path {path}: overlaps another edit")]
    Overlap {
        /// The path of one of the edits.
        path: String,
    },
}

impl EditError {
    /// The path the error is about, e.g. `spec.preAllocations`.
    pub fn path(&self) -> &str {
        match self {
            EditError::NotFound { path }
            | EditError::WrongKind { path, .. }
            | EditError::Alias { path }
            | EditError::Merged { path }
            | EditError::DuplicateKey { path, .. }
            | EditError::InvalidYaml { path, .. }
            | EditError::Unsupported { path, .. }
            | EditError::Overlap { path } => path,
        }
    }
}

pub(super) fn wrong(path: &[Seg], expected: &'static str) -> EditError {
    EditError::WrongKind {
        path: path_to_string(path),
        expected,
    }
}

pub(super) fn not_found(path: &[Seg]) -> EditError {
    EditError::NotFound {
        path: path_to_string(path),
    }
}

pub(super) fn unsupported_empty(path: &[Seg]) -> EditError {
    EditError::Unsupported {
        path: path_to_string(path),
        reason: "an empty value inside a flow collection".into(),
    }
}

pub(super) fn duplicate(path: &[Seg], key: &str) -> EditError {
    EditError::DuplicateKey {
        path: path_to_string(path),
        key: key.to_owned(),
    }
}
