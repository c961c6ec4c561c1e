//! `parse_items`: what is never read is parsed but not built, and nothing else changes: the same
//! errors, the same tree where it is built, the same spans and the same edits.

use crate::yaml::{
    Document, Edit, Node, NodeKind, SkipRule, apply, parse, parse_items, parse_items_taking,
};

/// A rule like the function's: a `Host` (group `example.com`) is read without its `status`
/// and with only `online` and `ref` of its `spec`, a `Pool` whole, anything else as its
/// identity; ResourceLists and `v1` Lists hold items.
const RULE: SkipRule = SkipRule {
    field: |api_version, kind, key| {
        if matches!(key, "apiVersion" | "kind" | "metadata") {
            return false;
        }
        match (api_version, kind) {
            ("example.com/v1", "Host") => key == "status",
            ("example.com/v1", "Pool") => false,
            _ => true,
        }
    },
    only: |api_version, kind, key| {
        ((api_version, kind, key) == ("example.com/v1", "Host", "spec"))
            .then_some(&["online", "ref"])
    },
    container: |api_version, kind| kind == "ResourceList" || (api_version, kind) == ("v1", "List"),
};

fn lean(text: &str) -> Vec<Document> {
    parse_items(text, &RULE, crate::limits::DEFAULT_MAX_ALIAS_NODES)
        .unwrap_or_else(|e| panic!("parse_items failed: {e}\n{text}"))
}

fn is_skipped(node: Option<&Node>) -> bool {
    matches!(node.map(|n| &n.kind), Some(NodeKind::Skipped(_)))
}

const HOST: &str = "apiVersion: example.com/v1\nkind: Host\nmetadata:\n  name: h\n\
                    spec:\n  online: true\nstatus:\n  hardware:\n    cpu: {count: 4}\n    \
                    nics:\n    - {name: eth0, ip: 10.0.0.1}\n";

#[test]
fn a_host_status_and_an_unread_kind_are_not_built() {
    let other = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {a: 1}\n\
                 data: [1, 2]\nnote: text\n";
    let docs = lean(&format!("{HOST}---\n{other}"));
    let host = &docs[0].root;
    assert!(is_skipped(host.get("status")));
    assert_eq!(
        host.get("spec")
            .and_then(|s| s.get("online"))
            .and_then(Node::as_str),
        Some("true")
    );
    assert_eq!(
        host.get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Node::as_str),
        Some("h")
    );
    let widget = &docs[1].root;
    for key in ["spec", "data", "note"] {
        assert!(is_skipped(widget.get(key)), "{key}");
    }
    assert_eq!(widget.get("kind").and_then(Node::as_str), Some("Widget"));
    assert!(widget.get("metadata").and_then(Node::as_map).is_some());
    assert!(docs.iter().all(|d| d.skipped));
    // A pool is read whole.
    let pool = "apiVersion: example.com/v1\nkind: Pool\nmetadata: {name: p}\nspec: {a: 1}\n\
                status: {b: 2}\n";
    let docs = lean(pool);
    assert!(!docs[0].skipped);
    assert_eq!(docs, parse(pool).unwrap());
}

#[test]
fn of_a_field_read_in_part_only_the_keys_read_are_built() {
    let text = "apiVersion: example.com/v1\nkind: Host\nmetadata: {name: h}\nspec:\n  \
                online: true\n  bmc:\n    address: redfish://x\n    creds: {a: 1}\n  \
                macs: [a, b]\n  'ref': {name: m}\n  image: ~\n  \
                <<: {online: false, extra: [1]}\n";
    let docs = lean(text);
    assert!(docs[0].skipped);
    let spec = docs[0].root.get("spec").expect("a spec");
    for key in ["bmc", "macs", "image"] {
        assert!(is_skipped(spec.get(key)), "{key}");
    }
    assert_eq!(spec.get("online").and_then(Node::as_str), Some("true"));
    assert_eq!(
        spec.get("ref").map(Node::to_json),
        Some(serde_json::json!({"name": "m"}))
    );
    // A merge key's value is built: what it brings is read as `parse` reads it.
    let merged = spec
        .as_map()
        .and_then(|m| m.entries.last())
        .map(|(_, v)| v.to_json());
    assert_eq!(
        merged,
        Some(serde_json::json!({"online": false, "extra": [1]}))
    );
    assert_same_shape(&parse(text).unwrap()[0].root, &docs[0].root);
    // Another kind's `spec` is built whole.
    let deep = "apiVersion: example.com/v1\nkind: Pool\nmetadata: {name: p}\n\
                spec: {spec: {bmc: 1}}\n";
    assert_eq!(lean(deep), parse(deep).unwrap());
    // A spec that is not a mapping is built as it is; one before the kind is built whole.
    let list = "apiVersion: example.com/v1\nkind: Host\nspec: [{bmc: 1}]\n";
    assert_eq!(lean(list), parse(list).unwrap());
    let late = "spec: {bmc: 1}\napiVersion: example.com/v1\nkind: Host\n";
    assert_eq!(lean(late), parse(late).unwrap());
    // The parts not built are still checked.
    for bad in [
        text.replace("creds: {a: 1}", "creds: {a: 1, a: 2}"),
        text.replace("macs: [a, b]", "macs: [a, b"),
        format!("{text}  bmc: again\n"),
    ] {
        let full = parse(&bad).expect_err("the text is not valid");
        let lean = parse_items(&bad, &RULE, crate::limits::DEFAULT_MAX_ALIAS_NODES)
            .expect_err("nor when parts are skipped");
        assert_eq!(full, lean, "{bad}");
    }
}

#[test]
fn the_items_of_a_resource_list_and_of_lists_are_items_and_the_frame_is_built() {
    let host_item: String = HOST
        .lines()
        .enumerate()
        .map(|(j, l)| format!("{}{l}\n", if j == 0 { "  - " } else { "    " }))
        .collect();
    let text = format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{}\
         - apiVersion: v1\n  kind: List\n  items:\n{host_item}\
         functionConfig:\n  apiVersion: v1\n  kind: Widget\n  data: {{a: 1}}\n",
        host_item
            .lines()
            .map(|l| format!("{}\n", &l[2..]))
            .collect::<String>()
    );
    let docs = lean(&text);
    let root = &docs[0].root;
    let items = root
        .get("items")
        .and_then(Node::as_seq)
        .expect("items built");
    assert!(is_skipped(items.items[0].get("status")));
    let nested = items.items[1]
        .get("items")
        .and_then(Node::as_seq)
        .expect("a List's items");
    assert!(is_skipped(nested.items[0].get("status")));
    assert!(nested.items[0].get("spec").and_then(Node::as_map).is_some());
    // The functionConfig is no item: built whole.
    assert_eq!(
        root.get("functionConfig")
            .and_then(|f| f.get("data"))
            .map(Node::to_json),
        Some(serde_json::json!({"a": 1}))
    );
    assert_same_shape(&parse(&text).unwrap()[0].root, root);
}

#[test]
fn kind_and_api_version_after_a_field_leave_it_built() {
    let late = "spec: {a: 1}\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n\
                data: {b: 2}\n";
    let docs = lean(late);
    let root = &docs[0].root;
    assert_eq!(
        root.get("spec").map(Node::to_json),
        Some(serde_json::json!({"a": 1}))
    );
    // once both are known, what follows is skipped
    assert!(is_skipped(root.get("data")));
    // only one of them before: built
    let half = "kind: Widget\nspec: {a: 1}\napiVersion: example.com/v1\n";
    assert_eq!(lean(half), parse(half).unwrap());
    // a kind that is not a string is not a kind: built
    let odd = "apiVersion: example.com/v1\nkind: ~\nspec: {a: 1}\n";
    assert_eq!(lean(odd), parse(odd).unwrap());
    // a merge key's value is always built, and so is an item whose kind comes from one
    let merged = "apiVersion: example.com/v1\nkind: Widget\n<<: {metadata: {name: w}}\n";
    assert_eq!(lean(merged), parse(merged).unwrap());
    let from_merge = "<<: {apiVersion: example.com/v1, kind: Widget}\nspec: {a: 1}\n";
    assert_eq!(lean(from_merge), parse(from_merge).unwrap());
}

#[test]
fn a_syntax_error_in_a_skipped_part_is_still_the_same_error() {
    let bad = [
        format!("{HOST}    - [unclosed\n"),
        format!("{HOST}  extra: \"unterminated\n"),
        format!("{HOST}  hardware: {{again: 1}}\n"), // duplicate key inside status
        format!("{HOST}  <<: 3\n"),                  // a merge key's value must be a mapping
        HOST.replace("cpu: {count: 4}", "cpu: {count: 4, count: 5}"),
        HOST.replace("  hardware:", "  hardware: &a\n  again: *b\n  x:"),
        "apiVersion: example.com/v1\nkind: Widget\nspec:\n  a: 1\n   b: 2\n".to_string(),
    ];
    for text in bad {
        let full = parse(&text).expect_err("the text is not valid");
        let lean = parse_items(&text, &RULE, crate::limits::DEFAULT_MAX_ALIAS_NODES)
            .expect_err("nor when parts are skipped");
        assert_eq!(full, lean, "{text}");
    }
}

#[test]
fn an_anchor_in_a_skipped_part_used_elsewhere_still_resolves() {
    // The status (skipped, since kind and apiVersion come first) defines `&cpu`, the spec
    // after it uses it; an anchor in one document's skipped spec is used by no other (anchors
    // are per document), and an alias anywhere makes the whole text be built.
    let text = "apiVersion: example.com/v1\nkind: Host\nmetadata: {name: h}\n\
                status:\n  hardware:\n    cpu: &cpu {count: 4}\nspec:\n  cpu: *cpu\n\
                ---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n\
                spec: {a: &n 1, b: *n}\n"
        .to_string();
    let docs = lean(&text);
    assert_eq!(docs, parse(&text).unwrap(), "built whole");
    assert!(docs.iter().all(|d| !d.skipped));
    let cpu = docs[0].root.get("spec").and_then(|s| s.get("cpu"));
    assert_eq!(
        cpu.map(Node::to_json),
        Some(serde_json::json!({"count": 4}))
    );
}

#[test]
fn the_same_edit_writes_the_same_text() {
    // The indentation step of the document is only in skipped parts.
    let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n\
                - apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w}\n  spec:\n      \
                a:\n          b: 1\n\
                - apiVersion: example.com/v1\n  kind: Host\n  metadata: {name: h}\n  \
                spec: {online: true}\n  status:\n      hardware: {a: 1}\n";
    let results = Edit::SetValue {
        path: vec![],
        key: "results".into(),
        yaml: "- message: done\n  field:\n    path: spec\n".into(),
    };
    let label = Edit::AddEntries {
        path: vec![
            crate::yaml::Seg::key("metadata"),
            crate::yaml::Seg::key("annotations"),
        ],
        entries: vec![("a".into(), "b".into())],
    };
    let full = parse(text).unwrap();
    let docs = lean(text);
    assert!(docs[0].skipped);
    let item = |d: &[Document]| {
        d[0].root
            .get("items")
            .unwrap()
            .get_index(1)
            .unwrap()
            .clone()
    };
    let (full_item, lean_item) = (item(&full), item(&docs));
    let written = |root: &Node, it: &Node| {
        apply(text, &[(root, results.clone()), (it, label.clone())]).expect("applies")
    };
    let out = written(&docs[0].root, &lean_item);
    assert_eq!(out, written(&full[0].root, &full_item));
    // the step of 4, found only in the skipped `spec` of the first item
    assert!(out.contains("\nresults:\n    - message: done\n"), "{out}");
}

/// Every node built in `lean` is in `full`, with the same span and kind; a skipped node has
/// the span of the node `full` built there.
fn assert_same_shape(full: &Node, lean: &Node) {
    assert_eq!(full.span, lean.span, "{full:?}");
    match (&full.kind, &lean.kind) {
        (_, NodeKind::Skipped(_)) => {}
        (NodeKind::Map(f), NodeKind::Map(l)) => {
            assert_eq!(f.entries.len(), l.entries.len());
            for ((fk, fv), (lk, lv)) in f.entries.iter().zip(&l.entries) {
                assert_eq!(fk, lk);
                assert_same_shape(fv, lv);
            }
        }
        (NodeKind::Seq(f), NodeKind::Seq(l)) => {
            assert_eq!(f.items.len(), l.items.len());
            for (f, l) in f.items.iter().zip(&l.items) {
                assert_same_shape(f, l);
            }
        }
        (f, l) => assert_eq!(f, l),
    }
}

#[test]
fn what_is_built_is_what_parse_builds() {
    let texts = [
        HOST.to_string(),
        format!("{HOST}...\n---\n# only a comment\n---\n{HOST}"),
        "apiVersion: example.com/v1\nkind: Widget\nspec: |\n  text\n\n\nstatus: >-\n  folded\n"
            .to_string(),
        "apiVersion: example.com/v1\nkind: Widget\nspec:\n- a\n-\n- 'q'\nempty:\nlast: \"x\"\n"
            .to_string(),
        "[1, 2]\n".to_string(),
        "apiVersion: example.com/v1\nkind: Widget\n? [complex]\n: value\n".to_string(),
    ];
    for text in texts {
        let (full, lean) = (parse(&text).unwrap(), lean(&text));
        assert_eq!(full.len(), lean.len(), "{text}");
        for (f, l) in full.iter().zip(&lean) {
            assert_eq!(f.span, l.span, "{text}");
            assert_same_shape(&f.root, &l.root);
        }
    }
}

/// Parses `text` with [`parse_items_taking`], taking every `Host` named in `names`; returns
/// the documents and the (name, span) of each item handed over, in order.
fn taking(text: &str, names: &[&str]) -> (Vec<Document>, Vec<(String, std::ops::Range<usize>)>) {
    let mut seen = Vec::new();
    let mut take = |item: &Node| {
        let name = item
            .get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Node::as_str)
            .unwrap_or("")
            .to_string();
        seen.push((name.clone(), item.span.clone()));
        item.get("kind").and_then(Node::as_str) == Some("Host") && names.contains(&name.as_str())
    };
    let docs = parse_items_taking(
        text,
        &RULE,
        crate::limits::DEFAULT_MAX_ALIAS_NODES,
        &mut take,
    )
    .unwrap_or_else(|e| panic!("parse_items_taking failed: {e}\n{text}"));
    (docs, seen)
}

#[test]
fn a_taken_item_keeps_its_span_and_nothing_else_and_the_rest_is_as_built() {
    let item = |name: &str| -> String {
        HOST.replace("name: h", &format!("name: {name}"))
            .lines()
            .enumerate()
            .map(|(j, l)| format!("{}{l}\n", if j == 0 { "- " } else { "  " }))
            .collect()
    };
    let text = format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{}{}\
         - apiVersion: v1\n  kind: List\n  items:\n{}{}",
        item("a"),
        item("b"),
        item("c")
            .lines()
            .map(|l| format!("  {l}\n"))
            .collect::<String>(),
        "functionConfig: {}\n"
    );
    let (docs, seen) = taking(&text, &["a", "c"]);
    let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    // every item as it ends, the List's own after its items, the ResourceList last
    assert_eq!(names, ["a", "b", "c", "", ""], "{seen:?}");
    let built = lean(&text);
    let (full, lean_items) = (&built[0].root, &docs[0].root);
    let items = |root: &Node| {
        root.get("items")
            .and_then(Node::as_seq)
            .unwrap()
            .items
            .clone()
    };
    let (b_items, t_items) = (items(full), items(lean_items));
    assert!(t_items[0].is_taken() && !t_items[1].is_taken() && !t_items[2].is_taken());
    assert_eq!(t_items[0].span, b_items[0].span);
    assert_eq!(t_items[1], b_items[1], "an item not taken is built as ever");
    assert!(t_items[0].as_map().is_none() && t_items[0].get("kind").is_none());
    let nested = |n: &Node| n.get("items").and_then(Node::as_seq).unwrap().items[0].clone();
    assert!(nested(&t_items[2]).is_taken());
    assert_eq!(nested(&t_items[2]).span, nested(&b_items[2]).span);
    assert!(docs[0].skipped);
    assert_same_shape(&parse(&text).unwrap()[0].root, lean_items);
    // The indentation step search reads a taken item as the built one: the same edit writes
    // the same text.
    let results = Edit::SetValue {
        path: vec![],
        key: "results".into(),
        yaml: "- message: done\n".into(),
    };
    assert_eq!(
        apply(&text, &[(lean_items, results.clone())]).unwrap(),
        apply(&text, &[(full, results)]).unwrap()
    );
    // A stream's documents are items too.
    let stream = format!("{HOST}---\n{}", HOST.replace("name: h", "name: k"));
    let (docs, _) = taking(&stream, &["k"]);
    assert!(!docs[0].root.is_taken() && docs[1].root.is_taken());
    assert_eq!(docs[1].root.span, parse(&stream).unwrap()[1].root.span);
    assert!(docs[1].skipped);
}

#[test]
fn with_an_alias_nothing_is_taken_and_all_is_built() {
    let text = format!(
        "{HOST}---\n{}",
        HOST.replace("name: h", "name: &k k\n  alias: *k")
    );
    let (docs, _) = taking(&text, &["h", "k"]);
    assert_eq!(docs, parse(&text).unwrap(), "built whole");
    assert!(docs.iter().all(|d| !d.root.is_taken() && !d.skipped));
}
