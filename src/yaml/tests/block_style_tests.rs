//! `WriteStyle::KeepBlock`: a literal block scalar replaced by a multi-line text stays a
//! literal block, at its own indentation, when the text fits one exactly; every output reads
//! back as exactly the value written.

use super::doc;
use crate::yaml::{Edit, Seg, WriteStyle, apply, parse};

/// Sets `key` of the root mapping to `value` in `style`; checks that the output reads back with
/// `key` holding exactly `value` and every other key unchanged.
fn set(text: &str, key: &str, value: &str, style: WriteStyle) -> String {
    set_at(text, vec![Seg::key(key)], value, style)
}

fn set_at(text: &str, path: Vec<Seg>, value: &str, style: WriteStyle) -> String {
    let d = doc(text);
    let edit = Edit::SetScalar {
        path,
        value: value.into(),
        style,
    };
    let out = apply(text, &[(&d.root, edit.clone())]).unwrap_or_else(|e| panic!("{e}"));
    let docs = parse(&out).unwrap_or_else(|e| panic!("output does not parse: {e}\n{out}"));
    let mut expected = d.root.to_json();
    edit.apply_to_json(&mut expected).expect("the edit fits");
    assert_eq!(docs[0].root.to_json(), expected, "read back:\n{out}");
    out
}

fn keep_block(text: &str, key: &str, value: &str) -> String {
    set(text, key, value, WriteStyle::KeepBlock)
}

#[test]
fn a_literal_block_stays_a_block_at_its_indentation() {
    let t = "a: 1\nfile: |\n    x: 1\n    # c\n\n    y: 2\nz: 3\n";
    assert_eq!(
        keep_block(t, "file", "x: 1\n# c\n\ny: 2\nnew: \"true\"\n"),
        "a: 1\nfile: |\n    x: 1\n    # c\n\n    y: 2\n    new: \"true\"\nz: 3\n"
    );
}

#[test]
fn the_chomping_indicator_follows_the_value() {
    let t = "file: |\n  x\nz: 3\n";
    assert_eq!(keep_block(t, "file", "x\ny"), "file: |-\n  x\n  y\nz: 3\n");
    let t = "file: |-\n  x\nz: 3\n";
    assert_eq!(keep_block(t, "file", "x\ny\n"), "file: |\n  x\n  y\nz: 3\n");
}

#[test]
fn the_header_comment_and_properties_stay() {
    let t = "file: &f !!str |  # the file\n  x\nz: 3\n";
    assert_eq!(
        keep_block(t, "file", "x\ny\n"),
        "file: &f !!str |  # the file\n  x\n  y\nz: 3\n"
    );
}

#[test]
fn inside_a_list_and_with_crlf() {
    let t = "l:\n- |\n   a\n- b\n";
    let path = vec![Seg::key("l"), Seg::Index(0)];
    assert_eq!(
        set_at(t, path, "a\nb\n", WriteStyle::KeepBlock),
        "l:\n- |\n   a\n   b\n- b\n"
    );
    let t = "f: |\r\n  a\r\nz: 1\r\n";
    assert_eq!(
        keep_block(t, "f", "a\nb\n"),
        "f: |\r\n  a\r\n  b\r\nz: 1\r\n"
    );
}

#[test]
fn values_a_literal_block_cannot_hold_are_double_quoted() {
    let t = "file: |\n  x\nz: 3\n";
    for (value, written) in [
        ("", "\"\""),
        ("x\n\n", "\"x\\n\\n\""),
        (" indented\n", "\" indented\\n\""),
        ("\tx\n", "\"\\tx\\n\""),
        ("\nx\n", "\"\\nx\\n\""),
        ("x\n  \ny\n", "\"x\\n  \\ny\\n\""),
        ("x\ry\n", "\"x\\ry\\n\""),
    ] {
        let out = keep_block(t, "file", value);
        assert_eq!(out, format!("file: {written}\nz: 3\n"), "{value:?}");
    }
    let out = keep_block(t, "file", "x\u{7}\n");
    assert!(out.starts_with("file: \""), "a control character: {out}");
    // An indentation indicator, a keep block: not rewritten as a block.
    let out = keep_block("file: |2\n    x\nz: 3\n", "file", "y\n");
    assert_eq!(out, "file: \"y\\n\"\nz: 3\n");
}

#[test]
fn other_styles_behave_as_keep() {
    let t = "p: old\ns: 'a'\nd: \"b\"\nf: >\n  fold\n";
    for (key, value) in [("p", "new\nline"), ("s", "it's"), ("d", "B"), ("f", "p\n")] {
        assert_eq!(
            keep_block(t, key, value),
            set(t, key, value, WriteStyle::Keep),
            "{key}"
        );
    }
    // Keep itself still double-quotes a literal block.
    assert_eq!(
        set("file: |\n  x\n", "file", "y\n", WriteStyle::Keep),
        "file: \"y\\n\"\n"
    );
}

proptest::proptest! {
    #![proptest_config(crate::prop_config::pt_config(256))]
    /// Whatever the text and whatever the block it replaces, the output reads back as exactly
    /// that text (checked by `set_at`), in a literal block whenever `literal_lines` allows one.
    #[test]
    fn any_text_over_any_literal_block_reads_back_exactly(
        value in "[a-z:#'\"| \t\n\r\u{e9}-]{0,40}",
        indent in 1usize..6,
        chomp in proptest::sample::select(vec!["", "-", "+"]),
        comment in proptest::bool::ANY,
        nested in proptest::bool::ANY,
        crlf in proptest::bool::ANY,
    ) {
        let pad = " ".repeat(indent);
        let header = format!("|{chomp}{}", if comment { " # c" } else { "" });
        let block = format!("{header}\n{pad}old: 1\n{pad}  more\n");
        let (text, path) = if nested {
            (
                format!("a:\n  file: {}z: 1\n", block.replace(&format!("\n{pad}"), &format!("\n  {pad}"))),
                vec![Seg::key("a"), Seg::key("file")],
            )
        } else {
            (format!("file: {block}z: 1\n"), vec![Seg::key("file")])
        };
        let text = if crlf { text.replace('\n', "\r\n") } else { text };
        let out = set_at(&text, path, &value, WriteStyle::KeepBlock);
        let literal = crate::yaml::emit::literal_lines(&value).is_some();
        let brk = if crlf { "\r\n" } else { "\n" };
        let head = if nested { format!("a:{brk}  file: |") } else { "file: |".to_string() };
        proptest::prop_assert_eq!(out.starts_with(&head), literal, "{:?}", out);
    }
}
