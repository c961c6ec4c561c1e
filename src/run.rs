//! The whole function as one pure call: sources + config → output texts + results.
//!
//! `read → index → plan → allocate → (check | apply)`; on any error every item is returned
//! exactly as it came in (SPEC §6 "Transactional").

use serde_json::Value;
use thiserror::Error;

use crate::allocate;
use crate::config::{self, Mode};
use crate::krm::{self, Framing, ReadError, Source};
use crate::mapping;
use crate::model;
use crate::results::Finding;
use crate::yaml::{self, Edit, Node};

/// What one run produced.
#[derive(Debug)]
pub struct Outcome {
    pub framing: Framing,
    /// The text to write for each source, in order (the source itself when nothing changed).
    pub outputs: Vec<String>,
    /// Whether each output differs from its source.
    pub changed: Vec<bool>,
    /// All results, sorted (errors first).
    pub findings: Vec<Finding>,
}

impl Outcome {
    /// Whether any result is an error (exit code 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }
}

/// Failures that leave nothing to return.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A ResourceList carries its own functionConfig; `--config` is for plain streams.
    #[error("the input is a ResourceList, which carries its own functionConfig: drop --config")]
    ConfigTwice,
    /// Writing the edits failed (a bug: the edits were computed from this very text).
    #[error("internal error while writing {source_name}: {message}")]
    Edit {
        source_name: String,
        message: String,
    },
}

/// Runs the function. `config_file` is the functionConfig given by `--config` (plain streams).
pub fn run(sources: &[Source], config_file: Option<&Value>) -> Result<Outcome, RunError> {
    let input = krm::read(sources)?;
    if input.framing == Framing::ResourceList && config_file.is_some() {
        return Err(RunError::ConfigTwice);
    }
    let mut findings = input.findings.clone();
    // Each item with its node; edits name items by their position in this list.
    let items: Vec<(usize, &Node)> = input
        .items
        .iter()
        .filter_map(|&at| input.node(at).map(|n| (at.source, n)))
        .collect();
    let mut edits: Vec<(usize, Edit)> = Vec::new();
    if findings.iter().all(|f| !f.is_error()) {
        let fc = input.function_config.as_ref().or(config_file);
        match config::decode(fc) {
            Err(errs) => findings.extend(errs),
            Ok(cfg) => {
                let values: Vec<Value> = items.iter().map(|(_, n)| n.to_json()).collect();
                let index = model::index(&values, &mut findings);
                let plan = mapping::plan(&index, &cfg, &mut findings);
                let allocation = allocate::allocate(&index, &plan, &cfg, &mut findings);
                edits = allocation.edits;
                if cfg.mode == Mode::Check {
                    check_findings(&index, &edits, &mut findings);
                    edits.clear();
                }
                // A pool's summary says what was written: only when nothing failed.
                if findings.iter().all(|f| !f.is_error()) {
                    findings.extend(allocation.summaries);
                }
            }
        }
    }
    sort(&mut findings);
    let failed = findings.iter().any(Finding::is_error);
    if failed {
        edits.clear();
    }
    let mut per_source: Vec<Vec<(&Node, Edit)>> = vec![Vec::new(); sources.len()];
    for (item, edit) in edits {
        let (source, node) = items[item];
        per_source[source].push((node, edit));
    }
    if input.framing == Framing::ResourceList {
        let root = &input.docs[0][0].root;
        if root.as_map().is_some() {
            per_source[0].push((
                root,
                Edit::SetValue {
                    path: Vec::new(),
                    key: "results".into(),
                    yaml: krm::results_yaml(&findings),
                },
            ));
        }
    }
    let mut outputs = Vec::with_capacity(sources.len());
    let mut changed = Vec::with_capacity(sources.len());
    for (source, edits) in sources.iter().zip(per_source) {
        let out = if edits.is_empty() {
            source.text.clone()
        } else {
            yaml::apply(&source.text, &edits).map_err(|e| RunError::Edit {
                source_name: source.name.clone(),
                message: e.to_string(),
            })?
        };
        changed.push(out != source.text);
        outputs.push(out);
    }
    Ok(Outcome {
        framing: input.framing,
        outputs,
        changed,
        findings,
    })
}

/// `mode: check`: every item fill would change is an error saying what fill would change.
fn check_findings(index: &model::Index, edits: &[(usize, Edit)], findings: &mut Vec<Finding>) {
    for (i, changes) in allocate::Changes::per_item(edits) {
        if let Some(Some(o)) = index.objects.get(i) {
            findings.push(
                Finding::error(format!(
                    "check: {} is not up to date: fill would {}; run ipreuse in fill mode and commit the result",
                    o.display(),
                    changes.describe()
                ))
                .on(o.resource_ref())
                .at("spec.preAllocations"),
            );
        }
    }
}

/// Results in a stable order: by severity, then object, field and message.
fn sort(findings: &mut [Finding]) {
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
