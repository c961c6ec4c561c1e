//! Framing the output: the results as the `results:` of a ResourceList (an edit, written and
//! checked with the items' edits) or as lines for a person on stderr, and the outputs of several
//! sources as one stream.

use serde_json::Value;

use super::read::{Framing, Input};
use crate::results::{Finding, Severity};
use crate::yaml::{self, Edit, Node};

/// The `results` list of a ResourceList, as block YAML at indent 0.
pub fn results_yaml(findings: &[Finding]) -> String {
    let value = serde_json::to_value(findings).unwrap_or(Value::Array(Vec::new()));
    yaml::to_yaml_block(&value)
}

/// The results of a ResourceList as an edit of its text: `results` set at the root of its one
/// document. Only [`yaml::apply`] writes text, so the run applies this edit together with the
/// items' edits, and the safety net checks it with them.
#[derive(Debug, Clone)]
pub struct ResultsEdit<'a> {
    /// The document of the source the edit is in.
    pub doc: usize,
    /// That document's root, which the edit's (empty) path starts from.
    pub root: &'a Node,
    pub edit: Edit,
}

/// The edit that writes `findings` into source `source`: `None` for a plain stream, whose
/// results go to stderr, and for any source but the ResourceList's.
pub fn results_edit<'a>(
    input: &'a Input,
    source: usize,
    findings: &[Finding],
) -> Option<ResultsEdit<'a>> {
    if input.framing != Framing::ResourceList || source != 0 {
        return None;
    }
    let root = input
        .docs
        .get(source)?
        .first()
        .map(|d| &d.root)
        .filter(|r| r.as_map().is_some())?;
    Some(ResultsEdit {
        doc: 0,
        root,
        edit: Edit::SetValue {
            path: Vec::new(),
            key: "results".into(),
            yaml: results_yaml(findings),
        },
    })
}

/// The output stream: every source's output text in order, each after a `---` line unless it
/// starts with one itself, and each `---` on a line of its own even when the text before it
/// has no final newline. A ResourceList is one source, written as it is.
pub fn join_stream(outputs: &[String]) -> String {
    let mut out = String::with_capacity(outputs.iter().map(|t| t.len() + 5).sum());
    for piece in stream_pieces(outputs) {
        out.push_str(piece);
    }
    out
}

/// The pieces of [`join_stream`]'s text, in order, without joining them: what a caller that
/// writes the stream out writes, so that a large stream is not held twice.
pub fn stream_pieces(outputs: &[String]) -> impl Iterator<Item = &str> {
    let mut written_any = false;
    let mut ends_with_newline = true;
    outputs.iter().flat_map(move |text| {
        let mut pieces: [&str; 3] = ["", "", text];
        if written_any {
            if !ends_with_newline {
                pieces[0] = "\n";
            }
            if !text.starts_with("---") {
                pieces[1] = "---\n";
            }
        }
        // what the stream ends with once this text is written
        if !text.is_empty() {
            ends_with_newline = text.ends_with('\n');
        } else if written_any {
            ends_with_newline = ends_with_newline || !pieces[0].is_empty() || !pieces[1].is_empty();
        }
        written_any = written_any || pieces.iter().any(|p| !p.is_empty());
        pieces.into_iter().filter(|p| !p.is_empty())
    })
}

/// The results for a person on stderr: all of them for a plain stream. For a ResourceList,
/// which carries them all in its `results`, only the errors, and none when the caller shows the
/// results itself (`shown`: kpt, [`super::locate::caller_shows_results`]), so that each is shown
/// once; kustomize does not show them, and shows the function's stderr.
pub fn stderr_results(framing: Framing, shown: bool, findings: &[Finding]) -> String {
    human_lines(findings.iter().filter(|f| match framing {
        Framing::Stream => true,
        Framing::ResourceList => f.is_error() && !shown,
    }))
}

/// One line per result, for stderr: `error: IPPool ns/name spec.pools[0].start: message`,
/// after `path:line: ` (or `path: `) when the object came from a file.
pub fn human_results(findings: &[Finding]) -> String {
    human_lines(findings)
}

fn human_lines<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> String {
    let mut out = String::new();
    for f in findings {
        if let Some(file) = &f.file {
            out.push_str(&file.words());
            out.push_str(": ");
        }
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        out.push_str(sev);
        out.push_str(": ");
        if let Some(r) = &f.resource_ref {
            out.push_str(&r.words());
            if let Some(field) = &f.field {
                out.push(' ');
                out.push_str(&field.path);
            }
            out.push_str(": ");
        } else if let Some(field) = &f.field {
            out.push_str(&field.path);
            out.push_str(": ");
        }
        out.push_str(&f.message);
        out.push('\n');
    }
    out
}
