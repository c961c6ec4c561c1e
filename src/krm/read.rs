//! Reading the input: YAML sources → documents → items (+ the functionConfig of a ResourceList,
//! or of a `--config` file for a plain stream).

use serde_json::Value;
use thiserror::Error;

use crate::FastMap;
use crate::results::Finding;
use crate::yaml::{self, Document, Node, Seg};

/// One named input text (a file, or `-` for stdin).
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// How the input was framed, which decides how the output is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One `config.kubernetes.io` `ResourceList` document: items, functionConfig and results inside.
    ResourceList,
    /// Plain YAML documents, one object each.
    Stream,
}

/// Input that cannot be handed back at all: nothing can be returned, so nothing is printed.
#[derive(Debug, Error)]
pub enum ReadError {
    /// A source is not YAML.
    #[error("{source_name}: not valid YAML: {message}")]
    NotYaml {
        source_name: String,
        message: String,
    },
}

/// A `--config` file that gives no functionConfig.
#[derive(Debug, Error)]
pub enum ConfigFileError {
    #[error("--config {name} is not YAML")]
    NotYaml {
        name: String,
        #[source]
        error: yaml::YamlError,
    },
    #[error("--config {name} holds no document")]
    NoDocument { name: String },
}

/// The functionConfig a `--config` file gives a plain stream, as JSON: its first YAML document.
/// `name` is the file as the person named it.
pub fn read_config(name: &str, text: &str) -> Result<Value, ConfigFileError> {
    let docs = yaml::parse(text).map_err(|error| ConfigFileError::NotYaml {
        name: name.to_string(),
        error,
    })?;
    match docs.first() {
        Some(d) if !d.root.is_null() => Ok(d.root.to_json()),
        _ => Err(ConfigFileError::NoDocument {
            name: name.to_string(),
        }),
    }
}

/// kpt's annotations for the file an item came from, the current one first (kpt writes both).
pub const PATH_ANNOTATIONS: [&str; 2] = [
    "internal.config.kubernetes.io/path",
    "config.kubernetes.io/path",
];
/// kpt's annotations for the item's document in that file.
pub const INDEX_ANNOTATIONS: [&str; 2] = [
    "internal.config.kubernetes.io/index",
    "config.kubernetes.io/index",
];
/// The annotation kustomize puts on every item it hands a KRM function.
pub const KUSTOMIZE_ID: &str = "kustomize.config.k8s.io/id";

/// The annotations this module reads of an item: kept for an item taken as it was parsed
/// ([`Input::taken_annotations`]); `krm::locate` reads them, whose tree is dropped.
pub const KEPT_ANNOTATIONS: [&str; 5] = [
    PATH_ANNOTATIONS[0],
    PATH_ANNOTATIONS[1],
    INDEX_ANNOTATIONS[0],
    INDEX_ANNOTATIONS[1],
    KUSTOMIZE_ID,
];

/// Parsed input: the documents of every source, and where the items are.
#[derive(Debug)]
pub struct Input {
    pub framing: Framing,
    /// Parsed documents, per source.
    pub docs: Vec<Vec<Document>>,
    /// The items: (source, document, item path inside the document).
    pub items: Vec<ItemAt>,
    /// `functionConfig` of a ResourceList (not `null`).
    pub function_config: Option<Value>,
    /// Problems with the framing itself (a document that is not an object, `items` not a list).
    pub findings: Vec<Finding>,
    /// The annotations `krm::locate` reads ([`KEPT_ANNOTATIONS`]) of each
    /// item taken as it was parsed (kept only as its span), by its source and first byte: read
    /// from its tree before the tree was dropped, so that nothing is parsed again for them.
    pub taken_annotations: FastMap<(usize, usize), KeptAnnotations>,
}

/// Annotations of one item by key, those of [`KEPT_ANNOTATIONS`] it has.
pub type KeptAnnotations = Box<[(&'static str, String)]>;

/// Where one item is.
#[derive(Debug, Clone)]
pub struct ItemAt {
    pub source: usize,
    pub doc: usize,
    /// Positions in nested `items` lists from the document's root: empty for a stream
    /// document that is the item itself, `[i]` for item `i` of a ResourceList or a `List`,
    /// `[i, j]` for item `j` of a `List` that is item `i`, and so on.
    pub path: Vec<usize>,
}

impl ItemAt {
    /// The item's path from its document's root, as YAML path segments (`items[i].items[j]`).
    pub fn segments(&self) -> Vec<Seg> {
        self.path
            .iter()
            .flat_map(|&i| [Seg::key("items"), Seg::Index(i)])
            .collect()
    }

    /// The item's node in `root`, the root of its document.
    pub fn within<'d>(&self, root: &'d Node) -> Option<&'d Node> {
        self.path
            .iter()
            .try_fold(root, |node, &i| node.get("items")?.as_seq()?.items.get(i))
    }
}

impl Input {
    /// The YAML node of an item.
    pub fn node(&self, at: &ItemAt) -> Option<&Node> {
        at.within(&self.docs.get(at.source)?.get(at.doc)?.root)
    }

    /// Where an item is, for a message: `items[3] of the ResourceList`; in a stream, the
    /// source's name (a file, `<stdin>`), with the document's number when the source holds
    /// several and the item's place in a `List`: `pkg/hosts.yaml, document 2, items[0]`.
    pub fn place(&self, at: &ItemAt, sources: &[Source]) -> String {
        let inside = match at.path.is_empty() {
            true => String::new(),
            false => yaml::path_to_string(&at.segments()),
        };
        if self.framing == Framing::ResourceList {
            return format!("{inside} of the ResourceList");
        }
        let mut place = sources
            .get(at.source)
            .map_or_else(String::new, |s| s.name.clone());
        if self.docs.get(at.source).is_some_and(|d| d.len() > 1) {
            place.push_str(&format!(", document {}", at.doc + 1));
        }
        if !inside.is_empty() {
            place.push_str(&format!(", {inside}"));
        }
        place
    }
}

/// Whether a node is a `v1` `List` (what `kubectl get -o yaml` prints), whose `items` are
/// read and edited like a stream's documents.
fn is_list(node: &Node) -> bool {
    node.get("apiVersion").and_then(Node::as_str) == Some("v1")
        && node.get("kind").and_then(Node::as_str) == Some("List")
}

/// API versions of `ResourceList` that are accepted.
const RESOURCE_LIST_VERSIONS: [&str; 2] =
    ["config.kubernetes.io/v1", "config.kubernetes.io/v1alpha1"];

/// What the reader never reads of the input, so that it is parsed but not built: the fields
/// [`crate::model::registry`] never reads, of the objects that can be items (any object holding
/// items is built whole).
pub(crate) const SKIP: yaml::SkipRule = yaml::SkipRule {
    field: crate::model::registry::never_read,
    only: crate::model::registry::read_only,
    container: |api_version, kind| {
        kind == "ResourceList" || (api_version == "v1" && kind == "List")
    },
};

/// Parses the sources and finds the items.
pub fn read(sources: &[Source]) -> Result<Input, ReadError> {
    read_limited(sources, crate::limits::DEFAULT_MAX_ALIAS_NODES)
}

/// [`read`], with `max_alias_nodes` as the alias expansion floor ([`yaml::parse_limited`]).
pub fn read_limited(sources: &[Source], max_alias_nodes: u64) -> Result<Input, ReadError> {
    read_taking(sources, max_alias_nodes, &mut |_, _| false)
}

/// [`read_limited`], handing each object to `take` (with its source's position in `sources`)
/// as soon as it is parsed ([`yaml::parse_items_taking`]): the items it takes are kept only
/// as their spans ([`Node::is_taken`]), and are items all the same.
pub fn read_taking(
    sources: &[Source],
    max_alias_nodes: u64,
    take: &mut dyn FnMut(usize, &Node) -> bool,
) -> Result<Input, ReadError> {
    let mut docs = Vec::with_capacity(sources.len());
    let mut taken_annotations = FastMap::default();
    for (i, s) in sources.iter().enumerate() {
        let mut take_here = |node: &Node| {
            let taken = take(i, node);
            if taken {
                let kept = kept_annotations(node);
                if !kept.is_empty() {
                    taken_annotations.insert((i, node.span.start), kept);
                }
            }
            taken
        };
        docs.push(
            yaml::parse_items_taking(&s.text, &SKIP, max_alias_nodes, &mut take_here).map_err(
                |e| ReadError::NotYaml {
                    source_name: s.name.clone(),
                    message: e.to_string(),
                },
            )?,
        );
    }
    let mut input = Input {
        framing: Framing::Stream,
        docs,
        items: Vec::new(),
        function_config: None,
        findings: Vec::new(),
        taken_annotations,
    };
    if let [only] = input.docs.as_slice()
        && let [doc] = only.as_slice()
        && doc.root.get("kind").and_then(Node::as_str) == Some("ResourceList")
    {
        input.framing = Framing::ResourceList;
        read_resource_list(&mut input);
    } else {
        read_stream(&mut input, sources);
    }
    Ok(input)
}

fn read_resource_list(input: &mut Input) {
    let root = &input.docs[0][0].root;
    let version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
    if !RESOURCE_LIST_VERSIONS.contains(&version) {
        input.findings.push(
            Finding::error(format!(
                "not a ResourceList this function reads: apiVersion is {version:?}, expected one of {}",
                RESOURCE_LIST_VERSIONS.join(", ")
            ))
            .at("apiVersion"),
        );
        return;
    }
    input.function_config = root
        .get("functionConfig")
        .map(Node::to_json)
        .filter(|v| !v.is_null());
    let mut items = Vec::new();
    let mut findings = Vec::new();
    let found = ItemAt {
        source: 0,
        doc: 0,
        path: Vec::new(),
    };
    collect_items(root, "ResourceList", &found, &mut items, &mut findings);
    input.items = items;
    input.findings.extend(findings);
}

/// The items of `container` (a ResourceList or a List at `at`), descending into Lists.
fn collect_items(
    container: &Node,
    what: &str,
    at: &ItemAt,
    items: &mut Vec<ItemAt>,
    findings: &mut Vec<Finding>,
) {
    let field = || match at.path.is_empty() {
        true => "items".to_string(),
        false => format!("{}.items", yaml::path_to_string(&at.segments())),
    };
    let seq = match container.get("items") {
        None => return,
        Some(n) if n.is_null() => return,
        Some(n) => match n.as_seq() {
            Some(seq) => seq,
            None => {
                findings.push(
                    Finding::error(format!(
                        "{what}.items is not a list: it must be a list of Kubernetes objects"
                    ))
                    .at(field()),
                );
                return;
            }
        },
    };
    for (i, item) in seq.items.iter().enumerate() {
        let mut path = at.path.clone();
        path.push(i);
        let item_at = ItemAt {
            source: at.source,
            doc: at.doc,
            path,
        };
        if item.as_map().is_none() && !item.is_taken() {
            findings.push(
                Finding::error(format!(
                    "{what}.items[{i}] is not a Kubernetes object (a mapping with apiVersion and kind)"
                ))
                .at(format!("{}[{i}]", field())),
            );
        } else if is_list(item) {
            collect_items(item, "List", &item_at, items, findings);
        } else {
            items.push(item_at);
        }
    }
}

fn read_stream(input: &mut Input, sources: &[Source]) {
    for (s, docs) in input.docs.iter().enumerate() {
        for (d, doc) in docs.iter().enumerate() {
            if doc.root.is_null() {
                continue; // an empty document (`---` at the end, comments only) is not an item
            }
            if doc.root.as_map().is_none() && !doc.root.is_taken() {
                input.findings.push(Finding::error(format!(
                    "{}: document {} is not a Kubernetes object (a mapping with apiVersion and kind)",
                    sources[s].name,
                    d + 1
                )));
                continue;
            }
            let at = ItemAt {
                source: s,
                doc: d,
                path: Vec::new(),
            };
            if is_list(&doc.root) {
                let mut findings = Vec::new();
                collect_items(&doc.root, "List", &at, &mut input.items, &mut findings);
                input.findings.extend(findings.into_iter().map(|f| {
                    let message = format!("{}: document {}: {}", sources[s].name, d + 1, f.message);
                    Finding { message, ..f }
                }));
            } else {
                input.items.push(at);
            }
        }
    }
}

/// The text of annotation `key` in an item's tree.
pub(super) fn annotation_of<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    node.get("metadata")?.get("annotations")?.get(key)?.as_str()
}

/// [`KEPT_ANNOTATIONS`] of an item, read from its tree, for an item about to be taken.
pub(super) fn kept_annotations(node: &Node) -> KeptAnnotations {
    KEPT_ANNOTATIONS
        .iter()
        .filter_map(|&k| Some((k, annotation_of(node, k)?.to_string())))
        .collect()
}
