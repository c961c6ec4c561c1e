//! The safety net: it confirms what the edit layer really writes, refuses text that does not
//! read back as meant (naming the document and path), and its shortcuts never confirm a text
//! that the exact check would refuse.

use super::*;
use crate::yaml::{Applied, Change, Edit, WriteStyle, apply_mapped, parse};

fn k(s: &str) -> Seg {
    Seg::key(s)
}

fn pool(name: &str, entries: usize) -> String {
    let mut p =
        crate::fixtures::pool(name, "").range(crate::fixtures::range("10.0.0.1", "10.0.0.99"));
    p.ns = None;
    for i in 0..entries {
        p = p.entry(&format!("h{i}-{name}"), &format!("10.0.0.{}", i + 1));
    }
    p.yaml()
}

fn add(key: &str, value: &str) -> Edit {
    Edit::AddEntries {
        path: vec![k("spec"), k("preAllocations")],
        entries: vec![(key.into(), value.into())],
    }
}

/// A ResourceList of `n` items (pools), as text.
fn resource_list(n: usize) -> String {
    let mut s = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for i in 0..n {
        for (j, line) in pool(&format!("p{i}"), 2).lines().enumerate() {
            s.push_str(if j == 0 { "- " } else { "  " });
            s.push_str(line);
            s.push('\n');
        }
    }
    s.push_str("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  data: {prune: \"true\"}\n");
    s
}

/// Applies `edits` (paths from each document's root) and returns the docs, the edits as the
/// net reads them, and what apply wrote.
fn applied(text: &str, edits: &[(usize, Edit)]) -> (Vec<Document>, Vec<(usize, Edit)>, Applied) {
    let docs = parse(text).expect("test input parses");
    let pairs: Vec<(&Node, Edit)> = edits
        .iter()
        .map(|(d, e)| (&docs[*d].root, e.clone()))
        .collect();
    let out = apply_mapped(text, &pairs).expect("edits apply");
    (docs.clone(), edits.to_vec(), out)
}

/// The same output with `out.text[at]` replaced by `byte` (same length, so the changes still
/// map the positions).
fn mutated(out: &Applied, at: usize, byte: u8) -> Applied {
    let mut bytes = out.text.clone().into_bytes();
    bytes[at] = byte;
    Applied::new(
        String::from_utf8(bytes).expect("ascii stays utf-8"),
        out.changes().to_vec(),
    )
}

/// Output positions written by the changes.
fn written_positions(out: &Applied) -> Vec<usize> {
    let mut shift: isize = 0;
    let mut positions = Vec::new();
    for c in out.changes() {
        let start = c.start.saturating_add_signed(shift);
        positions.extend(start..start + c.len);
        shift += c.len as isize - (c.end - c.start) as isize;
    }
    positions
}

#[test]
fn what_apply_writes_is_confirmed_in_a_stream() {
    let text = [pool("a", 1), pool("b", 1), pool("c", 1)].join("---\n");
    let edits = vec![(1, add("h9-b", "10.0.0.50"))];
    let (docs, edits, out) = applied(&text, &edits);
    assert!(
        quick(&text, &docs, &edits, &out),
        "the shortcut confirms it"
    );
    assert_eq!(check(&text, &docs, &edits, &out), Ok(()));
}

#[test]
fn what_apply_writes_is_confirmed_in_a_large_resource_list() {
    let text = resource_list(100);
    let item = |i: usize, e: Edit| (0, e.prefixed(&[k("items"), Seg::Index(i)]));
    let edits = vec![
        item(7, add("h9-p7", "10.0.0.50")),
        item(8, add("h9-p8", "10.0.0.51")),
        item(99, add("h9-p99", "10.0.0.52")),
        (
            0,
            Edit::SetValue {
                path: vec![],
                key: "results".into(),
                yaml: "- message: done\n  severity: info\n".into(),
            },
        ),
    ];
    let (docs, edits, out) = applied(&text, &edits);
    let sk = Skeleton::of(&text, &docs[0], text.len()).expect("a skeleton");
    assert_eq!(sk.units.len(), 100);
    let touched = sk.touched(&out);
    assert_eq!(
        touched.iter().filter(|t| **t).count(),
        3,
        "only the edited items are read again"
    );
    assert!(
        quick(&text, &docs, &edits, &out),
        "the skeleton confirms it"
    );
}

/// `add(i)` made in each item `i` of a ResourceList, and `results` written after them.
fn in_items_with_results(items: &[usize], add: impl Fn(usize) -> Edit) -> Vec<(usize, Edit)> {
    let mut edits: Vec<(usize, Edit)> = items
        .iter()
        .map(|&i| (0, add(i).prefixed(&[k("items"), Seg::Index(i)])))
        .collect();
    edits.push((
        0,
        Edit::SetValue {
            path: vec![],
            key: "results".into(),
            yaml: "- message: done\n  severity: info\n".into(),
        },
    ));
    edits
}

/// Items written past the batch size are read in batches, each in the frame: all confirmed
/// when right (with `results` written after the last item), and a wrong byte in any batch or
/// in the results is still found.
#[test]
fn a_large_write_is_read_in_batches_and_each_is_checked() {
    let text = resource_list(100);
    // about 115 KB of new entries in each of three items: two fit in a batch, not three
    let entries = |i: usize| -> Vec<(String, String)> {
        (0..3000)
            .map(|j| {
                let address = format!("10.{i}.{}.{}", j / 256, j % 256);
                (format!("host-{j:05}-p{i}"), address)
            })
            .collect()
    };
    let edits = in_items_with_results(&[10, 50, 90], |i| Edit::AddEntries {
        path: vec![k("spec"), k("preAllocations")],
        entries: entries(i),
    });
    let (docs, edits, out) = applied(&text, &edits);
    let sk = Skeleton::of(&text, &docs[0], text.len()).expect("a skeleton");
    assert_eq!(
        sk.batches(&sk.touched(&out), &out, 0),
        vec![vec![10, 50], vec![90]]
    );
    assert!(quick(&text, &docs, &edits, &out), "every batch confirms");
    for (written, at) in [("10.10.0.7", 8), ("10.90.11.183", 11), ("done", 2)] {
        let at = out.text.rfind(written).expect("written") + at;
        let bad = mutated(&out, at, b'8');
        assert!(!quick(&text, &docs, &edits, &bad), "{written} is read");
        let m = check(&text, &docs, &edits, &bad).expect_err("refused");
        assert_eq!(m.doc, Some(0), "{m:?}");
    }
}

#[test]
fn a_text_that_is_not_yaml_is_refused_naming_its_document() {
    let text = [pool("a", 1), pool("b", 1)].join("---\n");
    let (docs, edits, out) = applied(&text, &[(1, add("h9-b", "10.0.0.50"))]);
    // The appended line loses its indentation: `spec:` then gets a key at column 0 that
    // breaks `preAllocations`.
    let at = out.text.find("    h9-b").expect("appended entry");
    let broken = Applied::new(
        format!("{}h9-b{}", &out.text[..at], &out.text[at + 8..]),
        out.changes().to_vec(),
    );
    let m = check(&text, &docs, &edits, &broken).expect_err("refused");
    assert_eq!(m.doc, Some(1), "{m:?}");
}

#[test]
fn a_value_that_differs_from_the_edit_is_refused_at_its_path() {
    let text = pool("a", 1);
    let (docs, edits, out) = applied(&text, &[(0, add("h9-a", "10.0.0.50"))]);
    let at = out.text.find("10.0.0.50").expect("written value") + 8;
    let m = check(&text, &docs, &edits, &mutated(&out, at, b'1')).expect_err("refused");
    assert_eq!(m.doc, Some(0));
    assert_eq!(m.path, vec![k("spec"), k("preAllocations"), k("h9-a")]);
    assert!(m.message.contains("10.0.0.51"), "{}", m.message);
}

#[test]
fn a_change_the_edits_did_not_mean_is_refused() {
    let text = pool("a", 1);
    // The text is changed at `metadata.name`, but the edits say nothing about it.
    let (docs, _, out) = applied(
        &text,
        &[(
            0,
            Edit::SetScalar {
                path: vec![k("metadata"), k("name")],
                value: "other".into(),
                style: WriteStyle::Keep,
            },
        )],
    );
    let m = check(&text, &docs, &[], &out).expect_err("refused");
    assert_eq!(m.path, vec![k("metadata"), k("name")]);
}

#[test]
fn another_number_of_documents_is_refused() {
    let text = [pool("a", 1), pool("b", 1)].join("---\n");
    let docs = parse(&text).expect("parses");
    let cut = text.find("---").expect("separator");
    let out = Applied::new(
        text[..cut].to_string(),
        vec![Change {
            start: cut,
            end: text.len(),
            len: 0,
        }],
    );
    let m = check(&text, &docs, &[], &out).expect_err("refused");
    assert_eq!(m.doc, None);
    assert!(m.message.contains("1 document(s) where 2"), "{}", m.message);
}

/// Every one-byte change inside what apply wrote: the shortcuts never confirm a text that the
/// exact check refuses (soundness of the shortcuts), in a stream and in a large ResourceList.
#[test]
fn the_shortcuts_never_confirm_what_the_exact_check_refuses() {
    let stream = [pool("a", 1), pool("b", 2), pool("c", 1)].join("---\n");
    let rl = resource_list(70);
    let cases: Vec<(String, Vec<(usize, Edit)>)> = vec![
        (stream, vec![(1, add("h9-b", "10.0.0.50"))]),
        (
            rl,
            vec![
                (
                    0,
                    add("h9-p3", "10.0.0.50").prefixed(&[k("items"), Seg::Index(3)]),
                ),
                (
                    0,
                    Edit::SetValue {
                        path: vec![],
                        key: "results".into(),
                        yaml: "- message: done\n".into(),
                    },
                ),
            ],
        ),
    ];
    for (text, edits) in cases {
        let (docs, edits, out) = applied(&text, &edits);
        never_confirms_what_is_refused(&text, &docs, &edits, &out, |m| {
            quick(&text, &docs, &edits, m)
        });
    }
}

/// Corrupts every byte `out` writes ten ways, and asserts that `shortcut` confirms none of the
/// texts the exact check refuses (and that over a hundred are refused).
fn never_confirms_what_is_refused(
    text: &str,
    docs: &[Document],
    edits: &[(usize, Edit)],
    out: &Applied,
    shortcut: impl Fn(&Applied) -> bool,
) {
    let mut refused = 0;
    for at in written_positions(out) {
        for byte in [b' ', b'\n', b'-', b'#', b'x', b'"', b':', b'{', b'&', b'*'] {
            if out.text.as_bytes()[at] == byte {
                continue;
            }
            let m = mutated(out, at, byte);
            let exact = full(text, docs, edits, &m);
            if exact.is_err() {
                refused += 1;
                assert!(
                    !shortcut(&m),
                    "the shortcut confirmed a text the exact check refuses ({exact:?}):\n{}",
                    m.text
                );
            }
        }
    }
    assert!(refused > 100, "the mutations must break something");
}

/// The same with the skeleton's items read in batches as small as the frame allows, so that
/// every touched item, the last one with the `results` after it, is a batch of its own.
#[test]
fn batches_never_confirm_what_the_exact_check_refuses() {
    let text = resource_list(70);
    let edits = in_items_with_results(&[3, 4, 40, 69], |i| add(&format!("h9-p{i}"), "10.0.0.50"));
    let (docs, edits, out) = applied(&text, &edits);
    let mut sk = Skeleton::of(&text, &docs[0], text.len()).expect("a skeleton");
    sk.batch_bytes = 1;
    let frame = 200;
    assert_eq!(
        sk.batches(&sk.touched(&out), &out, frame).len(),
        4,
        "one batch an item"
    );
    let edits_of: Vec<&Edit> = edits.iter().map(|(_, e)| e).collect();
    let confirms =
        |m: &Applied| sk.confirms(&text, &docs[0], &edits_of, m, 0..m.text.len(), text.len());
    assert!(confirms(&out), "the right text is confirmed");
    never_confirms_what_is_refused(&text, &docs, &edits, &out, confirms);
}

/// An item appended to a list (a controller's `args`) is confirmed by the shortcuts, in a
/// stream and in a large ResourceList, and a wrong item is refused at its path.
#[test]
fn an_appended_list_item_is_confirmed_and_a_wrong_one_refused() {
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: capm3\nspec:\n  template:\n    spec:\n      containers:\n      - name: manager\n        args:\n        - --leader-elect\n";
    let args = vec![
        k("spec"),
        k("template"),
        k("spec"),
        k("containers"),
        Seg::Index(0),
        k("args"),
    ];
    let append = Edit::AppendItem {
        path: args.clone(),
        value: "--enable-bmh-name-based-preallocation=true".into(),
        style: WriteStyle::Keep,
    };
    let stream = [pool("a", 1), deployment.to_string()].join("---\n");
    let mut rl = resource_list(70);
    let at = rl.find("functionConfig:").expect("the frame's last key");
    let item: String = deployment
        .lines()
        .enumerate()
        .map(|(j, line)| format!("{}{line}\n", if j == 0 { "- " } else { "  " }))
        .collect();
    rl.insert_str(at, &item);
    let in_rl = append.prefixed(&[k("items"), Seg::Index(70)]);
    for (text, edits) in [(stream, vec![(1, append.clone())]), (rl, vec![(0, in_rl)])] {
        let (docs, edits, out) = applied(&text, &edits);
        // one line inserted, under the last item and like it
        let line = text
            .lines()
            .find(|l| l.ends_with("- --leader-elect"))
            .expect("the last item");
        let new = line.replace(
            "--leader-elect",
            "--enable-bmh-name-based-preallocation=true",
        );
        assert_eq!(
            out.text,
            text.replace(line, &format!("{line}\n{new}")),
            "{}",
            out.text
        );
        assert!(
            quick(&text, &docs, &edits, &out),
            "the shortcut confirms it"
        );
        assert_eq!(check(&text, &docs, &edits, &out), Ok(()));
        let wrong = out.text.find("=true").expect("the new item") + 1;
        let m = check(&text, &docs, &edits, &mutated(&out, wrong, b'T')).expect_err("refused");
        let path = edits[0].1.path();
        assert_eq!(m.path.get(..path.len()), Some(path), "{m:?}");
        assert_eq!(m.path.last(), Some(&Seg::Index(1)), "{m:?}");
    }
}

/// A host as a ResourceList item: its `status` is parsed but not built by the reader.
fn host_item(i: usize) -> String {
    format!(
        "- apiVersion: metal3.io/v1alpha1\n  kind: BareMetalHost\n  metadata:\n    name: h{i}\n  \
         spec:\n    online: true\n  status:\n    hardware:\n      ramMebibytes: 1{i:03}\n"
    )
}

/// Documents read as the function reads them (parts not built), then edited: the net reads
/// what was meant of an edited item whole, so a change in a part that was not built is refused,
/// in the skeleton of a large ResourceList and in a stream.
#[test]
fn a_change_in_a_part_that_was_not_built_is_refused() {
    let mut rl = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    (0..70).for_each(|i| rl.push_str(&host_item(i)));
    let stream: String = (0..3)
        .map(|i| {
            host_item(i)
                .replace("\n  ", "\n")
                .replacen("- ", "---\n", 1)
        })
        .collect();
    let label = Edit::AddEntries {
        path: vec![k("metadata"), k("labels")],
        entries: vec![("pool".into(), "a".into())],
    };
    let cases = [
        (rl, 0, label.prefixed(&[k("items"), Seg::Index(5)]), "1005"),
        (stream, 1, label.clone(), "1001"),
    ];
    for (text, doc, edit, ram) in cases {
        let docs = crate::yaml::parse_items(
            &text,
            &crate::krm::read::SKIP,
            crate::limits::DEFAULT_MAX_ALIAS_NODES,
        )
        .expect("parses");
        assert!(docs.iter().all(|d| d.skipped), "the statuses are not built");
        let node = match doc {
            0 if docs.len() == 1 => docs[0].root.get_path(&edit.path()[..2]).expect("item"),
            _ => &docs[doc].root,
        };
        let own = edit.with_path(&edit.path()[edit.path().len() - 2..]);
        let out = apply_mapped(&text, &[(node, own)]).expect("applies");
        let edits = vec![(doc, edit)];
        assert_eq!(check(&text, &docs, &edits, &out), Ok(()), "{}", out.text);
        let at = out
            .text
            .find(&format!("ramMebibytes: {ram}"))
            .expect("the status")
            + 14;
        let m = mutated(&out, at, b'7');
        assert!(!quick(&text, &docs, &edits, &m), "the shortcut refuses it");
        let refused = check(&text, &docs, &edits, &m).expect_err("refused");
        assert_eq!(refused.doc, Some(doc));
        assert_eq!(refused.path.last(), Some(&k("ramMebibytes")), "{refused:?}");
    }
}

#[test]
fn a_directive_is_a_line_starting_with_percent() {
    for text in [
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\n...\n%TAG ! tag:x,2000:\n---\nb: 2\n",
        "a: 1\r%YAML 1.2\n",
    ] {
        assert!(has_directives(text), "{text:?}");
    }
    for text in [
        "a: 50%\n",
        "a: '%x'\n",
        "  %not: at the line start\n",
        "",
        "a: 1\n",
    ] {
        assert!(!has_directives(text), "{text:?}");
    }
}
