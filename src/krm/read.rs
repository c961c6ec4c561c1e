//! Reading the input: YAML sources → documents → items (+ the functionConfig of a ResourceList).

use serde_json::Value;
use thiserror::Error;

use crate::results::Finding;
use crate::yaml::{self, Document, Node};

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
}

/// Where one item is.
#[derive(Debug, Clone, Copy)]
pub struct ItemAt {
    pub source: usize,
    pub doc: usize,
    /// Index in a ResourceList's `items`; `None` for a stream document (the whole document).
    pub item: Option<usize>,
}

impl Input {
    /// The YAML node of an item.
    pub fn node(&self, at: ItemAt) -> Option<&Node> {
        let root = &self.docs.get(at.source)?.get(at.doc)?.root;
        match at.item {
            None => Some(root),
            Some(i) => root.get("items")?.as_seq()?.items.get(i),
        }
    }
}

/// API versions of `ResourceList` that are accepted.
const RESOURCE_LIST_VERSIONS: [&str; 2] =
    ["config.kubernetes.io/v1", "config.kubernetes.io/v1alpha1"];

/// Parses the sources and finds the items.
pub fn read(sources: &[Source]) -> Result<Input, ReadError> {
    let mut docs = Vec::with_capacity(sources.len());
    for s in sources {
        docs.push(yaml::parse(&s.text).map_err(|e| ReadError::NotYaml {
            source_name: s.name.clone(),
            message: e.to_string(),
        })?);
    }
    let mut input = Input {
        framing: Framing::Stream,
        docs,
        items: Vec::new(),
        function_config: None,
        findings: Vec::new(),
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
    match root.get("items") {
        None => {}
        Some(n) if n.is_null() => {}
        Some(n) => match n.as_seq() {
            Some(seq) => {
                input.items = (0..seq.items.len())
                    .map(|i| ItemAt {
                        source: 0,
                        doc: 0,
                        item: Some(i),
                    })
                    .collect();
            }
            None => input.findings.push(
                Finding::error(
                    "ResourceList.items is not a list: it must be a list of Kubernetes objects",
                )
                .at("items"),
            ),
        },
    }
}

fn read_stream(input: &mut Input, sources: &[Source]) {
    for (s, docs) in input.docs.iter().enumerate() {
        for (d, doc) in docs.iter().enumerate() {
            if doc.root.is_null() {
                continue; // an empty document (`---` at the end, comments only) is not an item
            }
            if doc.root.as_map().is_none() {
                input.findings.push(Finding::error(format!(
                    "{}: document {} is not a Kubernetes object (a mapping with apiVersion and kind)",
                    sources[s].name,
                    d + 1
                )));
                continue;
            }
            input.items.push(ItemAt {
                source: s,
                doc: d,
                item: None,
            });
        }
    }
}
