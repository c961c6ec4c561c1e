//! Where an item came from (SPEC §9 "file"): the file read (standalone, `--in-place`), or kpt's
//! path and index annotations on the items of a ResourceList (or of a stream kpt wrote). A
//! result about the item carries it as `file: {path, index}`, and its line on stderr names
//! `path:line` when the line is known (only when the file itself was read).

use super::read::{Framing, Input, ItemAt, Source, annotation_of};
pub use super::read::{INDEX_ANNOTATIONS, KEPT_ANNOTATIONS, KUSTOMIZE_ID, PATH_ANNOTATIONS};
use crate::results::FileRef;
use crate::yaml::Node;

/// The name a source read from stdin has.
pub const STDIN: &str = "<stdin>";

/// Where item `at` came from: the file read, for a stream read from files; else kpt's
/// annotations on it, if it has them.
/// `lines` keeps each source's line starts, so that locating many items reads each text once.
pub fn item_file(
    input: &Input,
    at: &ItemAt,
    sources: &[Source],
    lines: &mut Lines,
) -> Option<FileRef> {
    let source = sources.get(at.source)?;
    let node = input.node(at)?;
    if input.framing == Framing::Stream && source.name != STDIN {
        return Some(FileRef {
            path: source.name.clone(),
            index: Some(at.doc),
            line: Some(lines.line(at.source, &source.text, node.span.start)),
        });
    }
    let path = PATH_ANNOTATIONS
        .iter()
        .find_map(|k| annotation(input, at.source, node, k))
        .filter(|p| !p.is_empty())?;
    let index = INDEX_ANNOTATIONS
        .iter()
        .find_map(|k| annotation(input, at.source, node, k))
        .and_then(|i| i.trim().parse().ok());
    Some(FileRef {
        path,
        index,
        line: None,
    })
}

/// The line (from 1) of field `path` (a result's `field.path`) of item `at`, when the item was
/// read from a file here ([`item_file`] gives its line): the line of the deepest part of the
/// path that is written ([`Node::path_start`]), so that a result about an entry fill would add
/// sits at its pool's `preAllocations`. An item read as it was parsed keeps no tree: its text is
/// parsed again, for the few results that need it. `None` when the item's line is not known or
/// the path is not one results write.
pub fn field_line(
    input: &Input,
    at: &ItemAt,
    sources: &[Source],
    path: &str,
    lines: &mut Lines,
) -> Option<usize> {
    let source = sources.get(at.source)?;
    if input.framing != Framing::Stream || source.name == STDIN {
        return None;
    }
    let path = crate::yaml::parse_path(path)?;
    let node = input.node(at)?;
    let start = if node.is_taken() {
        reparsed_start(&source.text, node.span.clone(), &path)?
    } else {
        node.path_start(&path)
    };
    Some(lines.line(at.source, &source.text, start))
}

/// [`Node::path_start`] in the item at `span` of `text`, parsed again on its own: from the start
/// of its first line, whatever stands before it there (a list's `- `) blanked, so that offsets
/// and columns are those of `text`.
fn reparsed_start(
    text: &str,
    span: std::ops::Range<usize>,
    path: &[crate::yaml::Seg],
) -> Option<usize> {
    let line_start = text[..span.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let mut snippet = " ".repeat(span.start - line_start);
    snippet.push_str(text.get(span.clone())?);
    let docs = crate::yaml::parse(&snippet).ok()?;
    let root = &docs.first()?.root;
    Some(line_start + root.path_start(path))
}

/// Whether the ResourceList comes from a caller that shows its `results` to people: kpt, which
/// annotates every item it reads from a package with its path (and shows a function's stderr as
/// well, so that results also written there appear twice). kustomize (which marks every item with
/// its own id, and neither shows nor reads the results) and any other caller are not.
/// Read on the first item only: kpt and kustomize mark every item.
pub fn caller_shows_results(input: &Input, sources: &[Source]) -> bool {
    let Some(first) = input.items.first() else {
        return false;
    };
    if input.framing != Framing::ResourceList {
        return false;
    }
    let Some(node) = input.node(first).filter(|_| first.source < sources.len()) else {
        return false;
    };
    annotation(input, first.source, node, KUSTOMIZE_ID).is_none()
        && PATH_ANNOTATIONS
            .iter()
            .any(|k| annotation(input, first.source, node, k).is_some())
}

/// The text of annotation `key` (one of [`KEPT_ANNOTATIONS`]) of item `node` of source
/// `source`: from its tree, or, for an item taken as it was parsed, from what was kept of it then.
fn annotation(input: &Input, source: usize, node: &Node, key: &str) -> Option<String> {
    if !node.is_taken() {
        return annotation_of(node, key).map(str::to_string);
    }
    let kept = input.taken_annotations.get(&(source, node.span.start))?;
    kept.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
}

/// The line (from 1) of byte `at` of `text`: CR, LF and CRLF each end a line.
/// The line starts of each source text, found once per text ([`item_file`]).
#[derive(Debug, Default)]
pub struct Lines(crate::FastMap<usize, Vec<usize>>);

impl Lines {
    /// [`line_of`] byte `at` of `text`, the text of source `source`.
    pub fn line(&mut self, source: usize, text: &str, at: usize) -> usize {
        let starts = self.0.entry(source).or_insert_with(|| line_starts(text));
        1 + starts.partition_point(|&s| s <= at)
    }
}

/// The offset after each line break (`\n`, `\r\n` or a lone `\r`), in order.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .map(|(i, _)| i + 1)
        .collect()
}

pub fn line_of(text: &str, at: usize) -> usize {
    let before = &text.as_bytes()[..at.min(text.len())];
    let crlf = before.windows(2).filter(|w| w == b"\r\n").count();
    let breaks = before.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    breaks - crlf + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(name: &str, text: &str) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }

    #[test]
    fn lines_count_lf_crlf_and_cr_breaks() {
        assert_eq!(line_of("a\nb\nc", 4), 3);
        assert_eq!(line_of("a\r\nb\r\nc", 6), 3);
        assert_eq!(line_of("a\rb\rc", 4), 3);
        assert_eq!(line_of("abc", 0), 1);
        // the line starts give the same line, wherever an item may start (never on the
        // `\n` of a `\r\n`)
        for text in ["a\nb\r\nc\rd\n\ne\r\r\nf", "", "\n", "x\r", "\r\n\r\nyy"] {
            let mut lines = Lines::default();
            for at in 0..=text.len() {
                if at > 0
                    && text.as_bytes().get(at) == Some(&b'\n')
                    && text.as_bytes()[at - 1] == b'\r'
                {
                    continue;
                }
                assert_eq!(
                    lines.line(0, text, at),
                    line_of(text, at),
                    "{text:?} at {at}"
                );
            }
        }
    }

    #[test]
    fn a_file_read_gives_its_path_document_and_line() {
        let text = "# hosts\napiVersion: v1\nkind: A\nmetadata: {name: a}\n---\n\napiVersion: v1\nkind: B\nmetadata: {name: b}\n";
        let sources = [source("pkg/hosts.yaml", text)];
        let input = super::super::read(&sources).unwrap();
        let files: Vec<FileRef> = input
            .items
            .iter()
            .map(|at| item_file(&input, at, &sources, &mut Lines::default()).unwrap())
            .collect();
        assert_eq!(
            files,
            [
                FileRef {
                    path: "pkg/hosts.yaml".into(),
                    index: Some(0),
                    line: Some(2)
                },
                FileRef {
                    path: "pkg/hosts.yaml".into(),
                    index: Some(1),
                    line: Some(7)
                },
            ]
        );
        assert_eq!(files[1].words(), "pkg/hosts.yaml:7");
        // stdin is no file
        let sources = [source(STDIN, text)];
        let input = super::super::read(&sources).unwrap();
        assert_eq!(
            item_file(&input, &input.items[0], &sources, &mut Lines::default()),
            None
        );
    }

    #[test]
    fn kpt_annotations_give_path_and_index_in_a_resource_list() {
        let text = "apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: A
  metadata:
    name: a
    annotations:
      config.kubernetes.io/path: 'old.yaml'
      internal.config.kubernetes.io/path: 'pkg/a.yaml'
      internal.config.kubernetes.io/index: '2'
- apiVersion: v1
  kind: B
  metadata: {name: b}
";
        let sources = [source(STDIN, text)];
        let input = super::super::read(&sources).unwrap();
        assert_eq!(
            item_file(&input, &input.items[0], &sources, &mut Lines::default()),
            Some(FileRef {
                path: "pkg/a.yaml".into(),
                index: Some(2),
                line: None
            })
        );
        assert_eq!(
            item_file(&input, &input.items[1], &sources, &mut Lines::default()),
            None
        );
        assert!(caller_shows_results(&input, &sources));
        let kustomize = text.replace(
            "      config.kubernetes.io/path: 'old.yaml'\n",
            "      kustomize.config.k8s.io/id: |\n        kind: A\n",
        );
        let sources = [source(STDIN, &kustomize)];
        let input = super::super::read(&sources).unwrap();
        assert!(!caller_shows_results(&input, &sources));
    }

    /// A host taken as it was parsed (its tree dropped) keeps the annotations read here: its
    /// file, and whether the caller shows results, come from them, not from its text parsed
    /// again (here the text is gone by then).
    #[test]
    fn a_taken_host_keeps_its_annotations() {
        let text = "apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: metal3.io/v1alpha1
  kind: BareMetalHost
  metadata:
    name: node-1
    annotations:
      internal.config.kubernetes.io/path: 'hosts.yaml'
      internal.config.kubernetes.io/index: '1'
  spec: {online: true}
";
        let sources = [source(STDIN, text)];
        // As a run reads it: the host is taken as it is parsed, only its span kept.
        let mut taken = crate::model::Taken::default();
        let input =
            super::super::read_taking(&sources, u64::MAX, &mut |s, node| taken.take(s, node))
                .unwrap();
        let at = &input.items[0];
        assert!(input.node(at).unwrap().is_taken());
        let gone = [source(STDIN, "")];
        assert_eq!(
            item_file(&input, at, &gone, &mut Lines::default()),
            Some(FileRef {
                path: "hosts.yaml".into(),
                index: Some(1),
                line: None
            })
        );
        assert!(caller_shows_results(&input, &gone));
        // kustomize's mark is kept too
        let kustomize = text.replace(
            "      internal.config.kubernetes.io/index: '1'\n",
            "      kustomize.config.k8s.io/id: x\n",
        );
        let sources = [source(STDIN, &kustomize)];
        let mut taken = crate::model::Taken::default();
        let input =
            super::super::read_taking(&sources, u64::MAX, &mut |s, node| taken.take(s, node))
                .unwrap();
        assert!(input.node(&input.items[0]).unwrap().is_taken());
        assert!(!caller_shows_results(&input, &gone));
        assert_eq!(
            item_file(&input, &input.items[0], &gone, &mut Lines::default()).map(|f| f.index),
            Some(None)
        );
    }

    #[test]
    fn a_field_is_found_at_its_own_line_or_where_it_would_be_written() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: ipam.metal3.io/v1alpha1\n  kind: IPPool\n  metadata: {name: p}\n  spec:\n    pools:\n    - start: 10.0.0.10\n      end: 10.0.0.20\n    preAllocations:\n      node-1-p: 10.0.0.10\n";
        let sources = [source("pkg/pools.yaml", text)];
        // built as a tree, and taken whole as it was parsed (a tree kept of its span only)
        for take in [false, true] {
            let input = super::super::read_taking(&sources, 1_000, &mut |_, node| {
                take && node.get("kind").and_then(Node::as_str) == Some("IPPool")
            })
            .unwrap();
            let at = &input.items[0];
            assert_eq!(input.node(at).unwrap().is_taken(), take);
            let line = |path: &str| field_line(&input, at, &sources, path, &mut Lines::default());
            assert_eq!(line("spec.pools[0].end"), Some(10), "taken: {take}");
            assert_eq!(line("spec.pools[0]"), Some(9));
            assert_eq!(line("spec.preAllocations.node-1-p"), Some(12));
            // an entry fill would add: its pool's preAllocations
            assert_eq!(line("spec.preAllocations.node-2-p"), Some(11));
            assert_eq!(line("spec.pools[3].start"), Some(8));
            assert_eq!(line("status.indexes"), Some(4));
            assert_eq!(line("spec..x"), None);
        }
        // not a file
        let sources = [source(STDIN, text)];
        let input = super::super::read(&sources).unwrap();
        assert_eq!(
            field_line(
                &input,
                &input.items[0],
                &sources,
                "spec",
                &mut Lines::default()
            ),
            None
        );
    }
}
