use proptest::prelude::*;
use serde_json::Value;

use super::doc;
use crate::yaml::{Edit, Seg, apply, parse};

/// A value of a generated top-level entry.
#[derive(Debug, Clone)]
enum Val {
    Scalar(String),
    Map(Vec<(String, String)>),
    Seq(Vec<String>, bool),
    EmptyFlow,
    Null,
    Empty,
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9]{0,6}",
        "[a-z]{1,4}".prop_map(|s| format!("'{s} x'")),
        "[a-zé ]{0,6}".prop_map(|s| format!("\"{s}\"")),
        Just("12".to_string()),
        Just("|\n    lit\n".to_string()),
    ]
}

fn val() -> impl Strategy<Value = Val> {
    prop_oneof![
        scalar().prop_map(Val::Scalar),
        prop::collection::vec(("[a-z]{1,5}", scalar()), 1..5).prop_map(|v| {
            let mut seen = std::collections::HashSet::new();
            Val::Map(
                v.into_iter()
                    .filter(|(k, _)| seen.insert(k.clone()))
                    .collect(),
            )
        }),
        (prop::collection::vec("[a-z]{1,5}", 1..4), any::<bool>())
            .prop_map(|(v, b)| Val::Seq(v, b)),
        Just(Val::EmptyFlow),
        Just(Val::Null),
        Just(Val::Empty),
    ]
}

fn comment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("  # note".to_string()),
        Just(" #x: y".to_string())
    ]
}

/// Renders the generated document (keys `k0`, `k1`, ...).
fn render(vals: &[(Val, String)], gaps: &[bool], crlf: bool, final_nl: bool) -> String {
    let mut lines: Vec<String> = vec!["# header".into()];
    for (i, (v, c)) in vals.iter().enumerate() {
        if gaps.get(i).copied().unwrap_or(false) {
            lines.push(String::new());
            lines.push("# between".into());
        }
        match v {
            Val::Scalar(s) if s.starts_with('|') => {
                lines.push(format!("k{i}: |{c}"));
                lines.push("  lit".into());
            }
            Val::Scalar(s) => lines.push(format!("k{i}: {s}{c}")),
            Val::Map(entries) => {
                lines.push(format!("k{i}:{c}"));
                for (k, s) in entries {
                    if s.starts_with('|') {
                        lines.push(format!("  {k}: |"));
                        lines.push("    lit".into());
                    } else {
                        lines.push(format!("  {k}: {s}{c}"));
                    }
                }
            }
            Val::Seq(items, indented) => {
                lines.push(format!("k{i}:"));
                for it in items {
                    lines.push(format!("{}- {it}{c}", if *indented { "  " } else { "" }));
                }
            }
            Val::EmptyFlow => lines.push(format!("k{i}: {{}}{c}")),
            Val::Null => lines.push(format!("k{i}: null{c}")),
            Val::Empty => lines.push(format!("k{i}:{c}")),
        }
    }
    lines.push("# trailer".into());
    let nl = if crlf { "\r\n" } else { "\n" };
    let mut text = lines.join(nl);
    if final_nl {
        text.push_str(nl);
    }
    text
}

/// Whether `needle` lines appear in `hay` lines in order.
fn is_subsequence(needle: &[&str], hay: &[&str]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

fn entries_of(v: &Value) -> Vec<(String, Value)> {
    v.as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(200))]

    #[test]
    fn add_entries_adds_only_lines(
        vals in prop::collection::vec((val(), comment()), 1..6),
        gaps in prop::collection::vec(any::<bool>(), 6),
        crlf in any::<bool>(),
        final_nl in any::<bool>(),
        target in 0usize..7,
        new in prop::collection::vec(("[a-z]{1,4}[0-9]", "\\PC{0,8}"), 1..4),
    ) {
        let text = render(&vals, &gaps, crlf, final_nl);
        let d = doc(&text);
        // no edits: unchanged
        prop_assert_eq!(apply(&text, &[]).unwrap(), text.clone());
        prop_assert_eq!(apply(&text, &[(&d.root, Edit::AddEntries { path: vec![], entries: vec![] })]).unwrap(), text.clone());

        let key = format!("k{target}");
        let old_json = d.root.to_json();
        let old_target = old_json.get(&key).cloned();
        let mut seen = std::collections::HashSet::new();
        let new: Vec<(String, String)> = new.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect();
        let edit = Edit::AddEntries { path: vec![Seg::Key(key.clone())], entries: new.clone() };
        let result = apply(&text, &[(&d.root, edit)]);
        let addable = match vals.get(target).map(|(v, _)| v) {
            None | Some(Val::Map(_) | Val::EmptyFlow | Val::Null | Val::Empty) => true,
            Some(_) => false,
        };
        if !addable {
            prop_assert!(result.is_err());
            return Ok(());
        }
        let out = result.unwrap();
        let docs = parse(&out).unwrap();
        prop_assert_eq!(docs.len(), 1);
        let new_json = docs[0].root.to_json();
        // the safety net's lean reader reads it exactly so
        prop_assert_eq!(crate::yaml::read_simple(&out), Some(new_json.clone()));
        // the target holds the old entries then the new ones
        let mut expected = old_target.as_ref().map(entries_of).unwrap_or_default();
        expected.extend(new.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))));
        prop_assert_eq!(new_json.get(&key).map(entries_of).unwrap_or_default(), expected);
        // everything else is unchanged
        let (mut a, mut b) = (old_json.clone(), new_json.clone());
        if let (Some(a), Some(b)) = (a.as_object_mut(), b.as_object_mut()) {
            a.shift_remove(&key);
            b.shift_remove(&key);
        }
        prop_assert_eq!(a, b);
        // only lines were added (the line of an empty or `{}`/`null` value changes)
        let old_lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(&format!("{key}:"))).collect();
        let new_lines: Vec<&str> = out.lines().collect();
        prop_assert!(is_subsequence(&old_lines, &new_lines), "{}\n---\n{}", text, out);
        if matches!(vals.get(target).map(|(v, _)| v), Some(Val::Map(_))) {
            let all: Vec<&str> = text.lines().collect();
            prop_assert!(is_subsequence(&all, &new_lines));
            prop_assert_eq!(new_lines.len(), all.len() + new.len());
        }
        // the line ending is copied
        prop_assert_eq!(out.contains("\r\n"), crlf);
        if crlf {
            prop_assert!(!out.replace("\r\n", "").contains('\n'));
        }
    }
}

/// Every scalar leaf under `node` with its path (aliases skipped).
fn leaves(node: &crate::yaml::Node, path: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    use crate::yaml::NodeKind;
    match &node.kind {
        NodeKind::Scalar(_) => out.push(path.clone()),
        NodeKind::Map(m) => {
            for (k, v) in &m.entries {
                if let Some(key) = k.as_scalar() {
                    path.push(Seg::Key(key.value.to_string()));
                    leaves(v, path, out);
                    path.pop();
                }
            }
        }
        NodeKind::Seq(s) => {
            for (i, v) in s.items.iter().enumerate() {
                path.push(Seg::Index(i));
                leaves(v, path, out);
                path.pop();
            }
        }
        NodeKind::Alias(_) | NodeKind::Skipped(_) => {}
    }
}

pub(crate) fn yamlish() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "[a-c]{1,2}: [a-c0-9 ]{0,4}",
        "  [a-c]{1,2}: [a-c0-9]{0,3}",
        "- [a-c]{0,2}",
        "  - [a-c]: [0-9]",
        "[a-c]: '[a-c ]{0,3}'",
        "[a-c]: \"[a-c\\\\n ]{0,3}\"",
        "[a-c]: [|>][+-]?",
        "  [a-c ]{0,4}",
        "[a-c]: \\{[a-c]: [0-9], [a-c]\\}",
        "[a-c]: \\[[a-c], [0-9]\\]",
        "# [a-c]{0,3}",
        "",
        "---",
        "[a-c]: &[a-c] !t [a-c]",
        "[a-c]: ~ # c",
    ];
    (
        prop::collection::vec(line, 0..12),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, nl)| {
            let mut t = lines.join(if crlf { "\r\n" } else { "\n" });
            if nl {
                t.push('\n');
            }
            t
        })
}

/// SetScalar on any leaf of a document that parses: where applied, the output parses and reads
/// the new value at that leaf.
fn set_scalar_on_any_leaf(
    text: String,
    value: String,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let Ok(docs) = parse(&text) else {
        return Ok(());
    };
    prop_assert_eq!(apply(&text, &[]).unwrap(), text.clone());
    for d in &docs {
        let mut paths = Vec::new();
        leaves(&d.root, &mut Vec::new(), &mut paths);
        for path in paths.into_iter().filter(|p| !p.is_empty()) {
            let edit = Edit::SetScalar {
                path: path.clone(),
                value: value.clone(),
                style: crate::yaml::WriteStyle::Keep,
            };
            tally.tried += 1;
            let Ok(out) = apply(&text, &[(&d.root, edit)]) else {
                continue;
            };
            tally.applied += 1;
            let again = parse(&out);
            prop_assert!(again.is_ok(), "{:?}\n{}\n=>\n{}", path, text, out);
            let again = again.unwrap();
            let idx = docs.iter().position(|x| std::ptr::eq(x, d)).unwrap();
            let got = again
                .get(idx)
                .and_then(|nd| nd.root.get_path(&path))
                .and_then(|n| n.as_str())
                .map(str::to_owned);
            prop_assert_eq!(
                got.as_deref(),
                Some(value.as_str()),
                "{:?}\n{}\n=>\n{}",
                path,
                text,
                out
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(400))]

    #[test]
    fn set_scalar_on_any_leaf_reads_back(text in yamlish(), value in "[a-z]{1,3}( [a-z#:]{1,3})?") {
        set_scalar_on_any_leaf(text, value, &mut Tally::default())?;
    }

    #[test]
    fn parse_never_panics(text in "\\PC{0,64}") {
        if let Ok(docs) = parse(&text) {
            for d in &docs {
                prop_assert!(d.span.end <= text.len());
                let _ = d.root.to_json();
            }
        }
    }
}

/// Every mapping under `node` with its path (aliases skipped).
fn maps(node: &crate::yaml::Node, path: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    use crate::yaml::NodeKind;
    match &node.kind {
        NodeKind::Map(m) => {
            out.push(path.clone());
            for (k, v) in &m.entries {
                if let Some(key) = k.as_scalar() {
                    path.push(Seg::Key(key.value.to_string()));
                    maps(v, path, out);
                    path.pop();
                }
            }
        }
        NodeKind::Seq(s) => {
            for (i, v) in s.items.iter().enumerate() {
                path.push(Seg::Index(i));
                maps(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Edits tried and edits `apply` applied (the rest it refused): a property that checks only the
/// applied ones holds vacuously when every edit is refused, so the tally is held to a share.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    tried: usize,
    applied: usize,
}

/// Applies `edit` to document `idx` of `text`; if it succeeds, the output must parse and
/// `check` must hold on the new and old JSON of that document. Counted in `tally`.
fn check_edit(
    tally: &mut Tally,
    text: &str,
    docs: &[crate::yaml::Document],
    idx: usize,
    edit: Edit,
    check: impl Fn(&Value, &Value) -> bool,
) -> Result<(), TestCaseError> {
    tally.tried += 1;
    let Ok(out) = apply(text, &[(&docs[idx].root, edit.clone())]) else {
        return Ok(());
    };
    tally.applied += 1;
    let again = parse(&out);
    prop_assert!(
        again.is_ok(),
        "{:?}\n{}\n=>\n{}\n{:?}",
        edit,
        text,
        out,
        again.err()
    );
    let again = again.unwrap_or_default();
    prop_assert_eq!(again.len(), docs.len(), "{:?}\n{}\n=>\n{}", edit, text, out);
    let (old, new) = (docs[idx].root.to_json(), again[idx].root.to_json());
    prop_assert!(
        check(&old, &new),
        "{:?}\n{}\n=>\n{}\nold {}\nnew {}",
        edit,
        text,
        out,
        old,
        new
    );
    for (i, d) in docs.iter().enumerate().filter(|(i, _)| *i != idx) {
        prop_assert_eq!(d.root.to_json(), again[i].root.to_json());
    }
    Ok(())
}

fn at<'v>(v: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.get(k),
        Seg::Index(i) => v.get(i),
    })
}

/// AddEntries, RemoveEntry and SetValue on every mapping of a document that parses: where
/// applied, the output parses and the mapping changed as the edit says, nothing else.
fn mapping_edits(text: String, tally: &mut Tally) -> Result<(), TestCaseError> {
    let Ok(docs) = parse(&text) else {
        return Ok(());
    };
    for idx in 0..docs.len() {
        let mut paths = Vec::new();
        maps(&docs[idx].root, &mut Vec::new(), &mut paths);
        for path in paths {
            let p = path.clone();
            check_edit(
                tally,
                &text,
                &docs,
                idx,
                Edit::AddEntries {
                    path: path.clone(),
                    entries: vec![("zz".into(), "v: #".into())],
                },
                |old, new| {
                    let (Some(o), Some(n)) = (
                        at(old, &p).and_then(Value::as_object),
                        at(new, &p).and_then(Value::as_object),
                    ) else {
                        return false;
                    };
                    n.get("zz") == Some(&Value::from("v: #"))
                        && o.iter().all(|(k, v)| n.get(k) == Some(v))
                        && n.len() == o.len() + 1
                },
            )?;
            let keys: Vec<String> = docs[idx]
                .root
                .get_path(&path)
                .and_then(|n| n.as_map())
                .map(|m| {
                    m.entries
                        .iter()
                        .filter_map(|(k, _)| k.as_scalar().map(|s| s.value.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            for key in keys {
                let p = path.clone();
                let kk = key.clone();
                check_edit(
                    tally,
                    &text,
                    &docs,
                    idx,
                    Edit::RemoveEntry {
                        path: path.clone(),
                        key: key.clone(),
                    },
                    |old, new| {
                        let (Some(o), Some(n)) = (
                            at(old, &p).and_then(Value::as_object),
                            at(new, &p).and_then(Value::as_object),
                        ) else {
                            return false;
                        };
                        !n.contains_key(&kk)
                            && n.len() + 1 == o.len()
                            && n.iter().all(|(k, v)| o.get(k) == Some(v))
                    },
                )?;
                let p = path.clone();
                let kk = key.clone();
                check_edit(
                    tally,
                    &text,
                    &docs,
                    idx,
                    Edit::SetValue {
                        path: path.clone(),
                        key: key.clone(),
                        yaml: "p: 1\nq:\n- x\n".into(),
                    },
                    |old, new| {
                        let (Some(o), Some(n)) = (
                            at(old, &p).and_then(Value::as_object),
                            at(new, &p).and_then(Value::as_object),
                        ) else {
                            return false;
                        };
                        n.get(&kk) == Some(&serde_json::json!({"p": 1, "q": ["x"]}))
                            && n.len() == o.len()
                    },
                )?;
                let p = path.clone();
                let kk = key.clone();
                check_edit(
                    tally,
                    &text,
                    &docs,
                    idx,
                    Edit::SetValue {
                        path: path.clone(),
                        key: key.clone(),
                        yaml: "'s'".into(),
                    },
                    |_, new| at(new, &p).and_then(|n| n.get(&kk)) == Some(&Value::from("s")),
                )?;
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(400))]

    #[test]
    fn mapping_edits_on_any_mapping(text in yamlish()) {
        mapping_edits(text, &mut Tally::default())?;
    }
}

/// A generated node with a presentation style.
#[derive(Debug, Clone)]
enum G {
    Plain(String),
    Single(String),
    Double(String),
    Lit(bool),
    Folded,
    Empty,
    Null,
    BMap(Vec<(String, G)>),
    BSeq(Vec<G>, bool),
    FMap(Vec<(String, String)>),
    FSeq(Vec<String>),
}

fn g_leaf() -> impl Strategy<Value = G> {
    prop_oneof![
        "[a-z]{1,3}".prop_map(G::Plain),
        "[a-z #:]{0,4}".prop_map(G::Single),
        "[a-zé #]{0,4}".prop_map(G::Double),
        any::<bool>().prop_map(G::Lit),
        Just(G::Folded),
        Just(G::Empty),
        Just(G::Null),
        prop::collection::vec(("[a-d]", "[a-z0-9]{1,2}"), 0..3).prop_map(|v| {
            let mut seen = std::collections::HashSet::new();
            G::FMap(
                v.into_iter()
                    .filter(|(k, _)| seen.insert(k.clone()))
                    .collect(),
            )
        }),
        prop::collection::vec("[a-z0-9]{1,2}", 0..3).prop_map(G::FSeq),
    ]
}

fn g_node() -> impl Strategy<Value = G> {
    g_leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-e]", inner.clone()), 1..4).prop_map(|v| {
                let mut seen = std::collections::HashSet::new();
                G::BMap(
                    v.into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                )
            }),
            (prop::collection::vec(inner, 1..4), any::<bool>()).prop_map(|(v, b)| G::BSeq(v, b)),
        ]
    })
}

fn pad(n: usize) -> String {
    " ".repeat(n)
}

/// Writes the value of `key:` whose key is at column `col`.
fn g_value(g: &G, col: usize, out: &mut String, comment: bool) {
    let c = if comment { " # c" } else { "" };
    match g {
        G::Plain(s) => out.push_str(&format!(" {s}{c}\n")),
        G::Single(s) => out.push_str(&format!(" '{s}'{c}\n")),
        G::Double(s) => out.push_str(&format!(" \"{s}\"{c}\n")),
        G::Lit(keep) => out.push_str(&format!(
            " |{}\n{}l\n{}",
            if *keep { "+" } else { "" },
            pad(col + 2),
            if *keep { "\n" } else { "" }
        )),
        G::Folded => out.push_str(&format!(" >-{c}\n{}f\n{}g\n", pad(col + 2), pad(col + 2))),
        G::Empty => out.push_str(&format!("{c}\n")),
        G::Null => out.push_str(&format!(" ~{c}\n")),
        G::FMap(v) => out.push_str(&format!(
            " {{{}}}{c}\n",
            v.iter()
                .map(|(k, s)| format!("{k}: {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        G::FSeq(v) => out.push_str(&format!(" [{}]{c}\n", v.join(", "))),
        G::BMap(entries) => {
            out.push_str(&format!("{c}\n"));
            for (k, v) in entries {
                out.push_str(&format!("{}{k}:", pad(col + 2)));
                g_value(v, col + 2, out, comment);
            }
        }
        G::BSeq(items, indented) => {
            out.push_str(&format!("{c}\n"));
            let d = if *indented { col + 2 } else { col };
            for it in items {
                out.push_str(&format!("{}-", pad(d)));
                g_item(it, d + 2, out, comment);
            }
        }
    }
}

/// Writes a sequence item after its `-`; its content is at column `col`.
fn g_item(g: &G, col: usize, out: &mut String, comment: bool) {
    match g {
        G::BMap(entries) => {
            for (i, (k, v)) in entries.iter().enumerate() {
                if i == 0 {
                    out.push_str(&format!(" {k}:"));
                } else {
                    out.push_str(&format!("{}{k}:", pad(col)));
                }
                g_value(v, col, out, comment);
            }
        }
        G::BSeq(items, _) => {
            for (i, it) in items.iter().enumerate() {
                if i == 0 {
                    out.push_str(" -");
                } else {
                    out.push_str(&format!("{}-", pad(col)));
                }
                g_item(it, col + 2, out, comment);
            }
        }
        G::Lit(_) | G::Folded => g_value(g, col - 2, out, comment),
        other => g_value(other, col, out, comment),
    }
}

pub(crate) fn g_doc() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-e]", g_node()), 1..5),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(entries, comment, crlf, final_nl)| {
            let mut seen = std::collections::HashSet::new();
            let mut out = String::new();
            for (k, v) in entries.into_iter().filter(|(k, _)| seen.insert(k.clone())) {
                out.push_str(&format!("{k}:"));
                g_value(&v, 0, &mut out, comment);
            }
            if !final_nl {
                while out.ends_with('\n') {
                    out.pop();
                }
            }
            if crlf { out.replace('\n', "\r\n") } else { out }
        })
}

/// Every edit on every mapping and leaf of a generated document (which always parses): where
/// applied, the output parses and changed as the edit says, nothing else.
fn edits_on_generated(text: String, value: String, tally: &mut Tally) -> Result<(), TestCaseError> {
    let docs = parse(&text);
    prop_assert!(docs.is_ok(), "{}\n{:?}", text, docs.err());
    let docs = docs.unwrap_or_default();
    let mut paths = Vec::new();
    maps(&docs[0].root, &mut Vec::new(), &mut paths);
    for path in paths {
        let p = path.clone();
        check_edit(
            tally,
            &text,
            &docs,
            0,
            Edit::AddEntries {
                path: path.clone(),
                entries: vec![("zz".into(), value.clone())],
            },
            |old, new| {
                let (Some(o), Some(n)) = (
                    at(old, &p).and_then(Value::as_object),
                    at(new, &p).and_then(Value::as_object),
                ) else {
                    return false;
                };
                n.get("zz").and_then(Value::as_str) == Some(value.as_str())
                    && o.iter().all(|(k, v)| n.get(k) == Some(v))
                    && n.len() == o.len() + 1
            },
        )?;
        let keys: Vec<String> = docs[0]
            .root
            .get_path(&path)
            .and_then(|n| n.as_map())
            .map(|m| {
                m.entries
                    .iter()
                    .filter_map(|(k, _)| k.as_scalar().map(|s| s.value.to_string()))
                    .collect()
            })
            .unwrap_or_default();
        for key in keys {
            let (p, kk) = (path.clone(), key.clone());
            check_edit(
                tally,
                &text,
                &docs,
                0,
                Edit::RemoveEntry {
                    path: path.clone(),
                    key: key.clone(),
                },
                |old, new| {
                    let (Some(o), Some(n)) = (
                        at(old, &p).and_then(Value::as_object),
                        at(new, &p).and_then(Value::as_object),
                    ) else {
                        return false;
                    };
                    !n.contains_key(&kk)
                        && n.len() + 1 == o.len()
                        && n.iter().all(|(k, v)| o.get(k) == Some(v))
                },
            )?;
            let (p, kk) = (path.clone(), key.clone());
            check_edit(
                tally,
                &text,
                &docs,
                0,
                Edit::SetValue {
                    path: path.clone(),
                    key: key.clone(),
                    yaml: "p: 1\nq:\n- x\n".into(),
                },
                |old, new| {
                    let (Some(o), Some(n)) = (
                        at(old, &p).and_then(Value::as_object),
                        at(new, &p).and_then(Value::as_object),
                    ) else {
                        return false;
                    };
                    n.get(&kk) == Some(&serde_json::json!({"p": 1, "q": ["x"]}))
                        && n.len() == o.len()
                },
            )?;
            let (p, kk) = (path.clone(), key.clone());
            check_edit(
                tally,
                &text,
                &docs,
                0,
                Edit::AddEntries {
                    path: [path.clone(), vec![Seg::Key(key.clone())]].concat(),
                    entries: vec![("n1".into(), "1".into())],
                },
                |_, new| {
                    at(new, &p)
                        .and_then(|n| n.get(&kk))
                        .and_then(|n| n.get("n1"))
                        == Some(&Value::from("1"))
                },
            )?;
        }
    }
    let mut leaf_paths = Vec::new();
    leaves(&docs[0].root, &mut Vec::new(), &mut leaf_paths);
    for path in leaf_paths {
        let p = path.clone();
        check_edit(
            tally,
            &text,
            &docs,
            0,
            Edit::SetScalar {
                path: path.clone(),
                value: value.clone(),
                style: crate::yaml::WriteStyle::Keep,
            },
            |_, new| at(new, &p).and_then(Value::as_str) == Some(value.as_str()),
        )?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(300))]

    #[test]
    fn edits_on_generated_documents(text in g_doc(), value in "[a-z]{1,3}( [a-z#:]{1,3})?") {
        edits_on_generated(text, value, &mut Tally::default())?;
    }
}

/// The yaml layer's API for the shared oracle.
mod y {
    pub use crate::yaml::{
        Edit, Node, Seg, WriteStyle, apply, parse, read_simple, reads_simply_as,
    };
}

/// The fuzz target `edit`'s oracle (see that file), here on fewer cases so that `cargo test`
/// exercises it without nightly.
#[path = "../../../fuzz/fuzz_targets/edit_oracle.rs"]
mod edit_oracle;

proptest! {
    #![proptest_config(crate::prop_config::pt_config(300))]

    #[test]
    fn edit_oracle_on_random_documents(bytes in prop::collection::vec(any::<u8>(), 0..1500)) {
        use arbitrary::Arbitrary;
        let mut u = arbitrary::Unstructured::new(&bytes);
        if let Ok(input) = edit_oracle::Input::arbitrary(&mut u) {
            edit_oracle::check(&input);
        }
    }
}

/// The oracle does exercise the edit layer: on pseudo-random inputs, many edits are applied.
#[test]
fn edit_oracle_applies_edits() {
    use arbitrary::Arbitrary;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let (mut applied, mut inputs) = (0, 0);
    for _ in 0..400 {
        let bytes: Vec<u8> = (0..600)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        let mut u = arbitrary::Unstructured::new(&bytes);
        if let Ok(input) = edit_oracle::Input::arbitrary(&mut u) {
            inputs += 1;
            applied += edit_oracle::check(&input);
        }
    }
    assert!(
        inputs > 300 && applied > 100,
        "{inputs} inputs, {applied} edits applied"
    );
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(500))]

    /// `Applied::map` (a binary search over the changes) says what walking every change
    /// before the position says.
    #[test]
    fn map_agrees_with_walking_the_changes(
        steps in prop::collection::vec((0usize..4, 0usize..3, 0usize..4), 0..12),
        pos in 0usize..60,
        after in any::<bool>(),
    ) {
        use crate::yaml::{Applied, Change};
        // sorted, disjoint changes; empty ranges are insertions
        let mut at = 0;
        let mut changes = Vec::new();
        for (gap, width, len) in steps {
            let start = at + gap;
            changes.push(Change { start, end: start + width, len });
            at = start + width;
        }
        let applied = Applied::new(String::new(), changes.clone());
        let mut shift: isize = 0;
        for c in &changes {
            let passed = if c.start == c.end && c.start == pos { after } else { c.end <= pos };
            if !passed {
                break;
            }
            shift += c.len as isize - (c.end - c.start) as isize;
        }
        prop_assert_eq!(applied.map(pos, after), pos.saturating_add_signed(shift));
    }
}

/// The edit properties above check only the edits `apply` applies; they exercise the edit layer
/// only if it applies most of them. Counted, as for the oracle, over a fixed-seed sample of
/// each property's own inputs.
#[test]
fn edit_properties_apply_most_of_their_edits() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    fn sample<S: Strategy>(
        strategy: S,
        property: impl Fn(S::Value, &mut Tally) -> Result<(), TestCaseError>,
    ) -> Tally {
        let mut runner = TestRunner::deterministic();
        let mut tally = Tally::default();
        for _ in 0..200 {
            let input = strategy.new_tree(&mut runner).expect("an input").current();
            property(input, &mut tally).expect("the property holds");
        }
        tally
    }
    let value = "[a-z]{1,3}( [a-z#:]{1,3})?";
    let tallies = [
        (
            "set_scalar_on_any_leaf_reads_back",
            sample((yamlish(), value), |(t, v), tally| {
                set_scalar_on_any_leaf(t, v, tally)
            }),
        ),
        (
            "mapping_edits_on_any_mapping",
            sample(yamlish(), mapping_edits),
        ),
        (
            "edits_on_generated_documents",
            sample((g_doc(), value), |(t, v), tally| {
                edits_on_generated(t, v, tally)
            }),
        ),
    ];
    // Measured when this was written: 63 of 63, 133 of 139, 4269 of 5006.
    for (name, t) in tallies {
        assert!(
            t.applied >= 50 && t.applied * 4 >= t.tried * 3,
            "{name}: {} of {} edits applied",
            t.applied,
            t.tried
        );
    }
}

/// A path segment as results write them: keys of every shape a field path holds (plain words,
/// labels and annotations with `.` and `/`, host names, digits, empty), and indexes.
fn seg() -> impl Strategy<Value = Seg> {
    prop_oneof![
        "[a-zA-Z0-9_-]{1,6}".prop_map(Seg::Key),
        "[a-z0-9./\\[ -]{0,8}".prop_map(Seg::Key),
        (0usize..200).prop_map(Seg::Index),
    ]
}

proptest! {
    #![proptest_config(crate::prop_config::pt_config(512))]

    /// `parse_path` reads back every path `path_to_string` writes whose keys hold no `]`.
    #[test]
    fn parse_path_reads_what_path_to_string_writes(
        first in "[a-z]{1,6}",
        rest in prop::collection::vec(seg(), 0..6),
    ) {
        let mut path = vec![Seg::Key(first)];
        path.extend(rest);
        let text = crate::yaml::path_to_string(&path);
        prop_assert_eq!(crate::yaml::parse_path(&text), Some(path), "{}", text);
    }
}

#[test]
fn parse_path_reads_result_fields() {
    use crate::yaml::parse_path;
    let k = |s: &str| Seg::Key(s.into());
    assert_eq!(
        parse_path("spec.pools[0].start"),
        Some(vec![k("spec"), k("pools"), Seg::Index(0), k("start")])
    );
    assert_eq!(
        parse_path("metadata.annotations.[ipreuse.dev/ip.pool-a]"),
        Some(vec![
            k("metadata"),
            k("annotations"),
            k("ipreuse.dev/ip.pool-a")
        ])
    );
    assert_eq!(
        parse_path("spec.preAllocations.[node-1.rack-pool]"),
        Some(vec![k("spec"), k("preAllocations"), k("node-1.rack-pool")])
    );
    assert_eq!(
        parse_path("spec.x[1][2]"),
        Some(vec![k("spec"), k("x"), Seg::Index(1), Seg::Index(2)])
    );
    assert_eq!(parse_path("."), Some(vec![]));
    for bad in ["spec.", "spec..a", "spec[x]", "spec[1", "[abc", "a.[b"] {
        assert_eq!(parse_path(bad), None, "{bad}");
    }
}
