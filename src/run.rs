//! The whole function as one pure call: sources + config → output texts + results.
//!
//! `read → index → transformations (preallocations, labels, controller flag) → (check | apply →
//! verify)`; on any error every item is
//! returned exactly as it came in (SPEC §6 "Transactional"), and nothing is returned that the
//! safety net ([`crate::verify`]) has not read back as meant (SPEC §6 "Sound"). How the input is
//! read and the output framed (results included) is [`crate::krm`]'s.

use std::sync::Arc;

use serde_json::Value;
use thiserror::Error;

use crate::config::{self, Mode};
use crate::edits::ItemEdit;
use crate::krm::{self, Framing, ReadError, Source};
use crate::limits::Limits;
use crate::model;
use crate::model::ItemId;
use crate::results::{self, Finding};
use crate::transform;
use crate::verify;
use crate::yaml::{self, Edit, Node, Seg};

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
    /// The address plan: every required claim with the address its pool's entry holds once
    /// filled, and where it comes from (`ipreuse plan`). Empty when there is an error result,
    /// and unless [`Options::plan`] asks for it.
    pub plan: Vec<crate::transform::preallocations::allocate::Row>,
    /// The blocks of the networks with `blockSize` (SPEC §12), new and kept, for `ipreuse plan`;
    /// empty when [`Outcome::plan`] is.
    pub blocks: Vec<crate::transform::preallocations::blocks::BlockRow>,
    /// The address map of each filled pool and the networks of the config (name, cidr), for
    /// `ipreuse plan --format html`; empty when [`Outcome::plan`] is.
    pub map: AddressMap,
    /// Whether the run checked (`mode: check`, or `--mode check`): its results are its output.
    pub check: bool,
    /// Whether the input is a ResourceList from a caller that shows its results to people
    /// (kpt, [`krm::locate::caller_shows_results`]): then they are not repeated on stderr.
    pub results_shown: bool,
}

impl Outcome {
    /// Whether any result is an error (exit code 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }
}

/// What the page of `ipreuse plan --format html` draws beside the rows: each filled pool's
/// addresses ([`PoolMap`](crate::transform::preallocations::allocate::PoolMap)), and the
/// networks of the config.
#[derive(Debug, Default)]
pub struct AddressMap {
    pub pools: Vec<crate::transform::preallocations::allocate::PoolMap>,
    /// Each network of the config: its name and a cidr as written (a dual-stack network twice).
    pub networks: Vec<(String, String)>,
}

/// Failures that leave nothing to return.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A ResourceList carries its own functionConfig; `--config` is for plain streams.
    #[error("the input is a ResourceList, which carries its own functionConfig: drop --config")]
    ConfigTwice,
    /// Something that cannot happen did: the input is returned as nothing rather than as
    /// something unchecked (a bug; the message says what).
    #[error("internal error in {source_name}: {message}")]
    Internal {
        source_name: String,
        message: String,
    },
}

/// How the binary's flags change a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// In place of the functionConfig's `mode`: the binary's `--mode`, which lets one command
    /// line check what another fills (the pre-commit hooks). A functionConfig with errors is
    /// refused all the same.
    pub mode: Option<Mode>,
    /// The limits the parse and the fill keep to ([`crate::limits`]); the input's size is the
    /// reader's ([`krm::read_text`]).
    pub limits: Limits,
    /// Whether to spell out the address plan in [`Outcome::plan`] (`ipreuse plan`). When not,
    /// the plan is left empty and its text is never made.
    pub plan: bool,
}

/// Runs the function. `config_file` is the functionConfig given by `--config` (plain streams).
pub fn run(sources: &[Source], config_file: Option<&Value>) -> Result<Outcome, RunError> {
    run_with(sources, config_file, &Options::default())
}

/// [`run`], with the binary's [`Options`].
pub fn run_with(
    sources: &[Source],
    config_file: Option<&Value>,
    options: &Options,
) -> Result<Outcome, RunError> {
    // The items whose reading cannot change once the config is known are read as they are
    // parsed, and their trees never kept.
    let mut taken = model::Taken::default();
    let input = krm::read_taking(sources, options.limits.max_alias_nodes, &mut |s, node| {
        taken.take(s, node)
    })?;
    if input.framing == Framing::ResourceList && config_file.is_some() {
        return Err(RunError::ConfigTwice);
    }
    let mut findings = input.findings.clone();
    // Each item with its node; edits name items by their position in this list.
    let Some(nodes) = input
        .items
        .iter()
        .map(|at| input.node(at))
        .collect::<Option<Vec<&Node>>>()
    else {
        return Err(RunError::Internal {
            source_name: sources.first().map(|s| s.name.clone()).unwrap_or_default(),
            message: "an item found while reading is not in its document".into(),
        });
    };
    let mut edits: Vec<ItemEdit> = Vec::new();
    let mut summaries = Vec::new();
    let mut plan = Vec::new();
    let mut blocks = Vec::new();
    let mut map = AddressMap::default();
    // Every item's identity as the index read it, kept through the write to name the object of
    // a failure: an item taken as it was parsed has no tree left to read it from.
    let mut objects: Vec<Option<Arc<model::Object>>> = Vec::new();
    let mut check = options.mode == Some(Mode::Check);
    // The IPReuse objects among the items (SPEC §1 "The config among the inputs").
    let (config_at, config_items): (Vec<usize>, Vec<config::ConfigItem>) =
        config_items(&input, sources, &nodes).into_iter().unzip();
    let chosen = config::choose(
        input.function_config.as_ref().or(config_file),
        &config_items,
    );
    // Where the configs are written, for the results about them: the ResourceList's
    // functionConfig (when the run uses it), then each `IPReuse` among the items.
    let function_config = input
        .function_config
        .as_ref()
        .filter(|f| chosen.config.is_some_and(|c| std::ptr::eq(*f, c)));
    let config_places: Vec<(&Value, Option<usize>)> = (function_config.map(|f| (f, None)))
        .into_iter()
        .chain(
            config_items
                .iter()
                .zip(&config_at)
                .map(|(c, &i)| (&c.value, Some(i))),
        )
        .collect();
    if findings.iter().all(|f| !f.is_error()) {
        findings.extend(chosen.findings);
    }
    if findings.iter().all(|f| !f.is_error()) {
        match config::resolve(chosen.config) {
            Err(errs) => findings.extend(errs),
            Ok(cfg) => {
                // What the run adds to the config, which stays as `resolve` returned it.
                let context = transform::RunContext {
                    mode: options.mode.unwrap_or(cfg.mode),
                    max_claims: options.limits.max_claims,
                    plan: options.plan,
                };
                check = context.checking();
                let items: Vec<(usize, &Node)> = (input.items.iter().map(|at| at.source))
                    .zip(nodes.iter().copied())
                    .collect();
                let mut model = match model::Model::read(
                    &items,
                    std::mem::take(&mut taken),
                    cfg.default_namespace.as_deref(),
                    &mut findings,
                ) {
                    Ok(read) => read,
                    Err(model::NotTaken { item }) => {
                        return Err(RunError::Internal {
                            source_name: sources
                                .get(input.items[item.0].source)
                                .map(|s| s.name.clone())
                                .unwrap_or_default(),
                            message: format!(
                                "item {} was read as it was parsed, but what was read of it is lost",
                                item.0 + 1
                            ),
                        });
                    }
                };
                let mut applied = transform::apply(&model, &cfg, &context);
                let index = &model.index;
                if options.plan {
                    plan = applied.plan.rows(index);
                    blocks = std::mem::take(&mut applied.plan.blocks);
                    map = AddressMap {
                        pools: std::mem::take(&mut applied.plan.pools),
                        networks: std::mem::take(&mut applied.plan.networks_cidrs),
                    };
                }
                for out in applied.outcomes {
                    findings.extend(out.findings);
                    match context.mode {
                        Mode::Fill => {
                            edits.extend(out.edits);
                            summaries.extend(out.written);
                        }
                        // Each change fill would make is an error at its own object and field.
                        Mode::Check => findings.extend(out.check),
                    }
                }
                // Each result about an object that came from a file names it (SPEC §9).
                locate(&mut findings, index, &input, sources);
                locate(&mut summaries, index, &input, sources);
                objects = std::mem::take(&mut model.index.objects);
            }
        }
    }
    locate_configs(&mut findings, &config_places, &input, sources);
    if findings.iter().any(Finding::is_error) {
        edits.clear();
        summaries.clear();
        plan.clear();
        blocks.clear();
        map = AddressMap::default();
    }
    // An item read as it was parsed keeps no tree to splice an edit into: its kind must be one
    // no transformation writes (`registry::KINDS`). Loud if that ever breaks, never a lost edit.
    if let Some(e) = edits
        .iter()
        .find(|e| nodes.get(e.item.0).is_some_and(|n| n.is_taken()))
    {
        let at = &input.items[e.item.0];
        return Err(RunError::Internal {
            source_name: sources
                .get(at.source)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            message: format!(
                "item {} was read as it was parsed, but a transformation edits it: its kind must be \
                 declared written in the registry",
                e.item.0 + 1
            ),
        });
    }
    // A pool's summary says what was written: reported only when the edits are written.
    let mut if_written = findings.clone();
    if_written.extend(summaries);
    results::sort(&mut if_written);
    let write = Write {
        input: &input,
        sources,
        nodes: &nodes,
        objects: &objects,
    };
    match write.all(edits, &if_written) {
        Ok(outputs) => {
            let framing = input.framing;
            let results_shown = krm::locate::caller_shows_results(&input, sources);
            Ok(Outcome::new(framing, sources, outputs, if_written)
                .with_plan(plan, blocks, map)
                .with_mode(check, results_shown))
        }
        Err(failures) => {
            // An edit could not be written, or the safety net refused the text: every item comes
            // back as it came in, with the reasons.
            for (item, failure) in failures {
                findings.push(write.finding(item, failure));
            }
            results::sort(&mut findings);
            let outputs = write.all(Vec::new(), &findings).map_err(|failures| {
                let message = failures
                    .into_iter()
                    .map(|(_, f)| f.message)
                    .collect::<Vec<_>>()
                    .join("; ");
                RunError::Internal {
                    source_name: sources.first().map(|s| s.name.clone()).unwrap_or_default(),
                    message: format!("cannot write the results: {message}"),
                }
            })?;
            let results_shown = krm::locate::caller_shows_results(&input, sources);
            Ok(Outcome::new(input.framing, sources, outputs, findings)
                .with_mode(check, results_shown))
        }
    }
}

/// Sets `file` on each result about an object of the input that came from a file (SPEC §9):
/// the file read, or kpt's annotations ([`krm::locate::item_file`]). Objects are matched by
/// their `resourceRef`; the first item of that identity gives it. A result with a field, on an
/// object read from a file here, sits at the field's own line ([`krm::locate::field_line`]).
fn locate(findings: &mut [Finding], index: &model::Index, input: &krm::Input, sources: &[Source]) {
    let wanted: crate::FastSet<(&str, &str)> = findings
        .iter()
        .filter(|f| f.file.is_none())
        .filter_map(|f| f.resource_ref.as_ref())
        .map(|r| (r.kind.as_str(), r.name.as_str()))
        .collect();
    if wanted.is_empty() {
        return;
    }
    type Found<'i> = (Option<results::FileRef>, Option<&'i krm::read::ItemAt>);
    let mut files: crate::FastMap<results::ResourceRef, Found> = crate::FastMap::default();
    let mut lines = krm::locate::Lines::default();
    for o in index.objects.iter().flatten() {
        if !wanted.contains(&(&*o.kind, o.name.as_str())) {
            continue;
        }
        let r = o.resource_ref();
        if files.contains_key(&r) {
            continue;
        }
        let at = input.items.get(o.index.0);
        let file = at.and_then(|at| krm::locate::item_file(input, at, sources, &mut lines));
        files.insert(r, (file, at));
    }
    for f in findings.iter_mut().filter(|f| f.file.is_none()) {
        let Some((file, at)) = f.resource_ref.as_ref().and_then(|r| files.get(r)) else {
            continue;
        };
        f.file.clone_from(file);
        if let (Some(file), Some(at), Some(field)) = (&mut f.file, at, &f.field)
            && file.line.is_some()
            && let Some(line) = krm::locate::field_line(input, at, sources, &field.path, &mut lines)
        {
            file.line = Some(line);
        }
    }
}

/// The `IPReuse` objects among the items, each read whole, with where it is and its position
/// among the items.
fn config_items(
    input: &krm::Input,
    sources: &[Source],
    nodes: &[&Node],
) -> Vec<(usize, config::ConfigItem)> {
    input
        .items
        .iter()
        .zip(nodes)
        .enumerate()
        .filter(|(_, (_, node))| node.get("kind").and_then(Node::as_str) == Some("IPReuse"))
        .filter_map(|(i, (at, node))| {
            config::ConfigItem::read(node.to_json(), || input.place(at, sources)).map(|c| (i, c))
        })
        .collect()
}

/// Sets `file` on each result about a config that has none (SPEC §9), matched by kind and
/// name to the first of `places` (a config, and its position among the items if it is one):
/// the config's item, at the field's own line when its file was read here; or the file kpt's
/// annotations on a ResourceList's functionConfig name. A config given by the CLI (`--config`,
/// a Kptfile's step) is not among them: the CLI places its results.
fn locate_configs(
    findings: &mut [Finding],
    places: &[(&Value, Option<usize>)],
    input: &krm::Input,
    sources: &[Source],
) {
    fn text<'v>(v: Option<&'v Value>, key: &str) -> Option<&'v str> {
        v.and_then(|v| v.get(key)).and_then(Value::as_str)
    }
    let mut lines = krm::locate::Lines::default();
    for f in findings.iter_mut().filter(|f| f.file.is_none()) {
        let Some(r) = &f.resource_ref else { continue };
        let Some(&(config, item)) = places.iter().find(|(c, _)| {
            text(Some(c), "kind") == Some(&r.kind)
                && text(c.get("metadata"), "name").unwrap_or("") == r.name
        }) else {
            continue;
        };
        let item = item.and_then(|i| input.items.get(i));
        f.file = match item {
            Some(at) => krm::locate::item_file(input, at, sources, &mut lines).map(|mut file| {
                if let Some(field) = &f.field
                    && file.line.is_some()
                {
                    file.line =
                        krm::locate::field_line(input, at, sources, &field.path, &mut lines)
                            .or(file.line);
                }
                file
            }),
            None => {
                let annotations = config.get("metadata").and_then(|m| m.get("annotations"));
                let first = |keys: &[&str]| keys.iter().find_map(|k| text(annotations, k));
                first(&krm::locate::PATH_ANNOTATIONS)
                    .filter(|p| !p.is_empty())
                    .map(|path| results::FileRef {
                        path: path.to_string(),
                        index: first(&krm::locate::INDEX_ANNOTATIONS)
                            .and_then(|i| i.trim().parse().ok()),
                        line: None,
                    })
            }
        };
    }
}

/// The floor of a run's cost, for benchmarks: the input read by the same reader as [`run`]
/// (every document parsed, its tree built as the function reads it, items and framing found),
/// then every source's text
/// handed back unchanged, with nothing else done.
pub fn pass_through(sources: &[Source]) -> Result<Vec<String>, RunError> {
    let input = krm::read(sources)?;
    debug_assert_eq!(input.docs.len(), sources.len());
    Ok(sources.iter().map(|s| s.text.clone()).collect())
}

impl Outcome {
    fn new(
        framing: Framing,
        sources: &[Source],
        outputs: Vec<String>,
        findings: Vec<Finding>,
    ) -> Outcome {
        let changed = sources
            .iter()
            .zip(&outputs)
            .map(|(s, o)| s.text != *o)
            .collect();
        Outcome {
            framing,
            outputs,
            changed,
            findings,
            plan: Vec::new(),
            blocks: Vec::new(),
            map: AddressMap::default(),
            check: false,
            results_shown: false,
        }
    }

    fn with_mode(mut self, check: bool, results_shown: bool) -> Outcome {
        self.check = check;
        self.results_shown = results_shown;
        self
    }

    fn with_plan(
        mut self,
        plan: Vec<crate::transform::preallocations::allocate::Row>,
        blocks: Vec<crate::transform::preallocations::blocks::BlockRow>,
        map: AddressMap,
    ) -> Outcome {
        self.plan = plan;
        self.blocks = blocks;
        self.map = map;
        self
    }
}

/// Why the text of one source could not be written: the edits do not apply, or the safety net
/// found that the edited text does not read back as meant.
struct Failure {
    /// The field (from the item's root, or the document's when no item is known) where it
    /// went wrong; empty when unknown.
    field: String,
    message: String,
}

/// Writing the edits into the sources' text, each source checked by the safety net.
struct Write<'a> {
    input: &'a krm::Input,
    sources: &'a [Source],
    nodes: &'a [&'a Node],
    /// Every item's identity, by input position ([`model::Index::objects`]; empty when the
    /// index was not built).
    objects: &'a [Option<Arc<model::Object>>],
}

impl Write<'_> {
    /// The output text of every source with `edits` made (and, in a ResourceList, `results`),
    /// each read back and checked. On failure: which item (if known) and why, per failure.
    fn all(
        &self,
        edits: Vec<ItemEdit>,
        results: &[Finding],
    ) -> Result<Vec<String>, Vec<(Option<ItemId>, Failure)>> {
        let mut per_source: Vec<Vec<(ItemId, Edit)>> = Vec::new();
        per_source.resize_with(self.sources.len(), Vec::new);
        for ItemEdit { item, edit } in edits {
            if let Some(at) = self.input.items.get(item.0) {
                per_source[at.source].push((item, edit));
            }
        }
        let mut outputs = Vec::with_capacity(self.sources.len());
        let mut failures = Vec::new();
        for (s, edits) in per_source.into_iter().enumerate() {
            let results = krm::results_edit(self.input, s, results);
            match self.source(s, edits, results) {
                Ok(text) => outputs.push(text),
                Err(f) => failures.extend(f),
            }
        }
        if failures.is_empty() {
            Ok(outputs)
        } else {
            Err(failures)
        }
    }

    /// One source: apply its edits (item edits, and `results` at the root of a ResourceList),
    /// then check that the text reads back as meant.
    fn source(
        &self,
        s: usize,
        edits: Vec<(ItemId, Edit)>,
        results: Option<krm::ResultsEdit<'_>>,
    ) -> Result<String, Vec<(Option<ItemId>, Failure)>> {
        let source = &self.sources[s];
        let docs = &self.input.docs[s];
        if edits.is_empty() && results.is_none() {
            return Ok(source.text.clone());
        }
        // The safety net reads edits by their path from the document's root.
        let full: Vec<(usize, Vec<Seg>)> = edits
            .iter()
            .map(|(item, edit)| {
                let at = &self.input.items[item.0];
                let mut path = at.segments();
                path.extend_from_slice(edit.path());
                (at.doc, path)
            })
            .collect();
        let refused = self.aliased(s, &full);
        if !refused.is_empty() {
            return Err(refused);
        }
        // The edits are borrowed to write, then moved to their full paths to check: what they
        // write is never copied.
        let mut to_apply: Vec<(&Node, &Edit)> = edits
            .iter()
            .map(|(item, edit)| (self.nodes[item.0], edit))
            .collect();
        if let Some(results) = &results {
            to_apply.push((results.root, &results.edit));
        }
        let applied = match yaml::apply_borrowed(&source.text, &to_apply) {
            Ok(applied) => applied,
            Err(e) => return Err(self.edit_failures(source, &edits, e)),
        };
        drop(to_apply);
        let mut meant: Vec<(usize, Edit)> = edits
            .into_iter()
            .zip(full)
            .map(|((_, edit), (doc, path))| (doc, edit.into_path(path)))
            .collect();
        if let Some(results) = results {
            meant.push((results.doc, results.edit));
        }
        match verify::check(&source.text, docs, &meant, &applied) {
            Ok(()) => Ok(applied.text),
            Err(m) => {
                let item = m.doc.and_then(|d| self.item_at(s, d, &m.path));
                let path = match item {
                    Some(i) => m.path.get(self.input.items[i.0].segments().len()..),
                    None => Some(m.path.as_slice()),
                };
                let field = match path {
                    Some(p) if !p.is_empty() => yaml::path_to_string(p),
                    _ => String::new(),
                };
                let place = match m.doc {
                    Some(d) => format!("{}, document {}", source.name, d + 1),
                    None => source.name.clone(),
                };
                let message = format!(
                    "the safety net refused the edited text of {place}: {}; nothing was changed. \
                     This is a bug in ipreuse: please report it with the input",
                    m.message
                );
                Err(vec![(item, Failure { field, message })])
            }
        }
    }

    /// Edits inside a node that an alias uses elsewhere: they would change that place too.
    fn aliased(&self, s: usize, meant: &[(usize, Vec<Seg>)]) -> Vec<(Option<ItemId>, Failure)> {
        let docs = &self.input.docs[s];
        let mut anchored: Vec<Option<verify::Anchored>> = Vec::new();
        anchored.resize_with(docs.len(), || None);
        let mut failures = Vec::new();
        for (d, path) in meant {
            let (Some(doc), Some(slot)) = (docs.get(*d), anchored.get_mut(*d)) else {
                continue;
            };
            if !doc.has_aliases {
                continue;
            }
            let used = slot.get_or_insert_with(|| verify::Anchored::of(doc));
            let Some(n) = used.used_on(&doc.root, path) else {
                continue;
            };
            let item = self.item_at(s, *d, path);
            let skip = item.map_or(0, |i| self.input.items[i.0].segments().len());
            let field = |p: &[Seg]| yaml::path_to_string(p.get(skip..).unwrap_or(p));
            failures.push((
                item,
                Failure {
                    field: field(path),
                    message: format!(
                        "ipreuse cannot change {}: an alias (`*name`) uses its anchor (`&name`) elsewhere; \
                         write it out in full here, or replace the alias. The alias would change too, so \
                         nothing was changed",
                        if n <= skip {
                            "the object itself".to_string()
                        } else {
                            field(&path[..n])
                        }
                    ),
                },
            ));
        }
        failures
    }

    /// The item of source `s`, document `doc`, whose path from the document's root is the
    /// longest prefix of `path`.
    fn item_at(&self, s: usize, doc: usize, path: &[Seg]) -> Option<ItemId> {
        self.input
            .items
            .iter()
            .enumerate()
            .filter(|(_, at)| at.source == s && at.doc == doc)
            .filter(|(_, at)| path.starts_with(&at.segments()))
            .max_by_key(|(_, at)| at.path.len())
            .map(|(i, _)| ItemId(i))
    }

    /// The edits of one source did not apply: find the item whose own edits fail, for a
    /// message on that object.
    fn edit_failures(
        &self,
        source: &Source,
        edits: &[(ItemId, Edit)],
        error: yaml::EditError,
    ) -> Vec<(Option<ItemId>, Failure)> {
        let mut items: Vec<ItemId> = edits.iter().map(|(i, _)| *i).collect();
        items.dedup();
        for item in items {
            let own: Vec<(&Node, &Edit)> = edits
                .iter()
                .filter(|(i, _)| *i == item)
                .map(|(i, e)| (self.nodes[i.0], e))
                .collect();
            if let Err(e) = yaml::apply_borrowed(&source.text, &own) {
                return vec![(Some(item), edit_failure(&e))];
            }
        }
        vec![(None, edit_failure(&error))]
    }

    /// The error result for a failure, on its object when known.
    fn finding(&self, item: Option<ItemId>, failure: Failure) -> Finding {
        let finding = Finding::error(failure.message);
        let object = item.and_then(|i| self.objects.get(i.0)?.as_deref());
        let finding = match object {
            Some(o) => finding.on(o.resource_ref()),
            None => finding,
        };
        if failure.field.is_empty() {
            finding
        } else {
            finding.at(failure.field)
        }
    }
}

/// A failure for an edit that does not apply, at the path the edit layer names.
fn edit_failure(error: &yaml::EditError) -> Failure {
    Failure {
        field: error.path().to_string(),
        message: format!("ipreuse cannot write this change: {error}; nothing was changed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure's object is the one the index read, for an item taken as it was parsed (a host,
    /// its tree dropped) as for any other; the source is never read again for it: here its text
    /// is gone by the time the failure is written.
    #[test]
    fn a_failure_names_its_object_from_the_index_taken_or_not() {
        let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n\
                    - apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPPool\n  metadata: {name: p, namespace: lab}\n\
                    - apiVersion: v1\n  kind: List\n  items:\n\
                    \x20 - apiVersion: metal3.io/v1alpha1\n    kind: BareMetalHost\n    metadata: {name: h, namespace: lab}\n";
        let sources = [Source {
            name: "-".into(),
            text: text.into(),
        }];
        let mut taken = model::Taken::default();
        let input = krm::read_taking(&sources, 1000, &mut |s, n| taken.take(s, n)).expect("reads");
        let nodes: Vec<&Node> = input.items.iter().filter_map(|at| input.node(at)).collect();
        assert_eq!(nodes.len(), 2);
        assert!(!nodes[0].is_taken() && nodes[1].is_taken());
        let items: Vec<(usize, &Node)> = nodes.iter().map(|n| (0, *n)).collect();
        let index = model::index_items(&items, taken, None, &mut Vec::new()).expect("read");
        let gone = [Source {
            name: "-".into(),
            text: String::new(),
        }];
        let write = Write {
            input: &input,
            sources: &gone,
            nodes: &nodes,
            objects: &index.objects,
        };
        let failure = || Failure {
            field: "spec".into(),
            message: "refused".into(),
        };
        for (i, name) in [(0, "IPPool lab/p"), (1, "BareMetalHost lab/h")] {
            let object = index.object(ItemId(i)).expect("indexed");
            assert_eq!(
                format!("{} {}/{}", object.kind, object.namespace, object.name),
                name
            );
            let finding = write.finding(Some(ItemId(i)), failure());
            assert_eq!(finding.resource_ref, Some(object.resource_ref()), "{name}");
        }
        assert_eq!(write.finding(Some(ItemId(2)), failure()).resource_ref, None);
        assert_eq!(write.finding(None, failure()).resource_ref, None);
    }
}
