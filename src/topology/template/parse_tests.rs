//! The parser against Go's own tests: `parseTests`, `numberTests` and `errorTests` of Go 1.19's
//! `src/text/template/parse/parse_test.go` (BSD-3-Clause, Copyright The Go Authors), with
//! the trees printed as Go's `Node.String()` prints them (text as `%q`, as those tests do).
//! Cases that use functions ipreuse does not evaluate are left out (Go's tests define
//! `printf` and `contains`; `printf` is kept).

use super::*;

/// Go's `String()` of a list of nodes (parse/node.go), text quoted as the tests quote it.
fn show(text: &str, list: &[Node]) -> String {
    list.iter().map(|n| show_node(text, n)).collect()
}

fn show_node(text: &str, node: &Node) -> String {
    match node {
        Node::Text(t) => format!("{t:?}"),
        Node::Action(pipe) => format!("{{{{{}}}}}", show_pipe(text, pipe)),
        Node::If(b) => show_branch(text, "if", b),
        Node::Range(b) => show_branch(text, "range", b),
        Node::With(b) => show_branch(text, "with", b),
        Node::Template { name, pipe, .. } => match pipe {
            Some(p) => format!("{{{{template {name:?} {}}}}}", show_pipe(text, p)),
            None => format!("{{{{template {name:?}}}}}"),
        },
        Node::Break => "{{break}}".to_string(),
        Node::Continue => "{{continue}}".to_string(),
    }
}

fn show_branch(text: &str, word: &str, b: &Branch) -> String {
    let mut out = format!(
        "{{{{{word} {}}}}}{}",
        show_pipe(text, &b.pipe),
        show(text, &b.list)
    );
    if let Some(other) = &b.else_list {
        out.push_str("{{else}}");
        out.push_str(&show(text, other));
    }
    out.push_str("{{end}}");
    out
}

fn show_pipe(text: &str, pipe: &Pipe) -> String {
    let mut out = String::new();
    if !pipe.decl.is_empty() {
        let names: Vec<&str> = pipe.decl.iter().map(|(_, n)| &**n).collect();
        out.push_str(&names.join(", "));
        out.push_str(if pipe.is_assign { " = " } else { " := " });
    }
    let cmds: Vec<String> = pipe
        .cmds
        .iter()
        .map(|c| {
            c.args
                .iter()
                .map(|a| match a {
                    Arg::Pipe(p) => format!("({})", show_pipe(text, p)),
                    other => show_arg(text, other),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    out.push_str(&cmds.join(" | "));
    out
}

/// The source of a literal token at `pos`.
fn token(text: &str, pos: usize) -> String {
    let rest = &text[pos..];
    if let Some(q) = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '`' | '\''))
    {
        let end = rest[1..].find(q).map_or(rest.len(), |i| i + 2);
        return rest[..end].to_string();
    }
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '}' | ')' | '|' | '('))
        .unwrap_or(rest.len());
    rest[..end].to_string()
}

fn show_arg(text: &str, arg: &Arg) -> String {
    match arg {
        Arg::Field { idents, .. } => idents.iter().map(|i| format!(".{i}")).collect(),
        Arg::Variable { name, idents, .. } => {
            let mut s = name.to_string();
            for i in idents {
                s.push('.');
                s.push_str(i);
            }
            s
        }
        Arg::Func { name, .. } => name.to_string(),
        Arg::Dot(_) => ".".to_string(),
        Arg::Nil(_) => "nil".to_string(),
        Arg::Bool(_, b) => b.to_string(),
        Arg::Number(pos, _) | Arg::String(pos, _) => token(text, *pos),
        Arg::Pipe(p) => format!("({})", show_pipe(text, p)),
        Arg::Chain { node, fields, .. } => {
            let mut s = match &**node {
                Arg::Pipe(p) => format!("({})", show_pipe(text, p)),
                other => show_arg(text, other),
            };
            for f in fields {
                s.push('.');
                s.push_str(f);
            }
            s
        }
    }
}

fn top(text: &str) -> Result<String, TemplateError> {
    let trees = parse(text)?;
    Ok(trees.get(TOP).map(|t| show(text, t)).unwrap_or_default())
}

#[test]
fn go_parse_tests() {
    let ok: &[(&str, &str, &str)] = &[
        ("empty", "", ""),
        ("comment", "{{/*\n\n\n*/}}", ""),
        ("spaces", " \t\n", r#"" \t\n""#),
        ("text", "some text", r#""some text""#),
        ("field", "{{.X}}", "{{.X}}"),
        ("simple command", "{{printf}}", "{{printf}}"),
        ("$ invocation", "{{$}}", "{{$}}"),
        (
            "variable invocation",
            "{{with $x := 3}}{{$x 23}}{{end}}",
            "{{with $x := 3}}{{$x 23}}{{end}}",
        ),
        ("variable with fields", "{{$.I}}", "{{$.I}}"),
        (
            "multi-word command",
            "{{printf `%d` 23}}",
            "{{printf `%d` 23}}",
        ),
        ("pipeline", "{{.X|.Y}}", "{{.X | .Y}}"),
        ("pipeline with decl", "{{$x := .X|.Y}}", "{{$x := .X | .Y}}"),
        (
            "nested pipeline",
            "{{.X (.Y .Z) (.A | .B .C) (.E)}}",
            "{{.X (.Y .Z) (.A | .B .C) (.E)}}",
        ),
        (
            "field applied to parentheses",
            "{{(.Y .Z).Field}}",
            "{{(.Y .Z).Field}}",
        ),
        (
            "simple if",
            "{{if .X}}hello{{end}}",
            r#"{{if .X}}"hello"{{end}}"#,
        ),
        (
            "if with else",
            "{{if .X}}true{{else}}false{{end}}",
            r#"{{if .X}}"true"{{else}}"false"{{end}}"#,
        ),
        (
            "if with else if",
            "{{if .X}}true{{else if .Y}}false{{end}}",
            r#"{{if .X}}"true"{{else}}{{if .Y}}"false"{{end}}{{end}}"#,
        ),
        (
            "if else chain",
            "+{{if .X}}X{{else if .Y}}Y{{else if .Z}}Z{{end}}+",
            r#""+"{{if .X}}"X"{{else}}{{if .Y}}"Y"{{else}}{{if .Z}}"Z"{{end}}{{end}}{{end}}"+""#,
        ),
        (
            "simple range",
            "{{range .X}}hello{{end}}",
            r#"{{range .X}}"hello"{{end}}"#,
        ),
        (
            "chained field range",
            "{{range .X.Y.Z}}hello{{end}}",
            r#"{{range .X.Y.Z}}"hello"{{end}}"#,
        ),
        (
            "nested range",
            "{{range .X}}hello{{range .Y}}goodbye{{end}}{{end}}",
            r#"{{range .X}}"hello"{{range .Y}}"goodbye"{{end}}{{end}}"#,
        ),
        (
            "range with else",
            "{{range .X}}true{{else}}false{{end}}",
            r#"{{range .X}}"true"{{else}}"false"{{end}}"#,
        ),
        (
            "range over pipeline",
            "{{range .X|.M}}true{{else}}false{{end}}",
            r#"{{range .X | .M}}"true"{{else}}"false"{{end}}"#,
        ),
        (
            "range []int",
            "{{range .SI}}{{.}}{{end}}",
            "{{range .SI}}{{.}}{{end}}",
        ),
        (
            "range 1 var",
            "{{range $x := .SI}}{{.}}{{end}}",
            "{{range $x := .SI}}{{.}}{{end}}",
        ),
        (
            "range 2 vars",
            "{{range $x, $y := .SI}}{{.}}{{end}}",
            "{{range $x, $y := .SI}}{{.}}{{end}}",
        ),
        (
            "range with break",
            "{{range .SI}}{{.}}{{break}}{{end}}",
            "{{range .SI}}{{.}}{{break}}{{end}}",
        ),
        (
            "range with continue",
            "{{range .SI}}{{.}}{{continue}}{{end}}",
            "{{range .SI}}{{.}}{{continue}}{{end}}",
        ),
        (
            "constants",
            "{{range .SI 1 -3.2i true false 'a' nil}}{{end}}",
            "{{range .SI 1 -3.2i true false 'a' nil}}{{end}}",
        ),
        ("template", "{{template `x`}}", r#"{{template "x"}}"#),
        (
            "template with arg",
            "{{template `x` .Y}}",
            r#"{{template "x" .Y}}"#,
        ),
        (
            "with",
            "{{with .X}}hello{{end}}",
            r#"{{with .X}}"hello"{{end}}"#,
        ),
        (
            "with with else",
            "{{with .X}}hello{{else}}goodbye{{end}}",
            r#"{{with .X}}"hello"{{else}}"goodbye"{{end}}"#,
        ),
        ("trim left", "x \r\n\t{{- 3}}", r#""x"{{3}}"#),
        ("trim right", "{{3 -}}\n\n\ty", r#"{{3}}"y""#),
        (
            "trim left and right",
            "x \r\n\t{{- 3 -}}\n\n\ty",
            r#""x"{{3}}"y""#,
        ),
        (
            "trim with extra spaces",
            "x\n{{-  3   -}}\ny",
            r#""x"{{3}}"y""#,
        ),
        ("comment trim left", "x \r\n\t{{- /* hi */}}", r#""x""#),
        ("comment trim right", "{{/* hi */ -}}\n\n\ty", r#""y""#),
        (
            "comment trim left and right",
            "x \r\n\t{{- /* */ -}}\n\n\ty",
            r#""x""y""#,
        ),
        (
            "block definition",
            r#"{{block "foo" .}}hello{{end}}"#,
            r#"{{template "foo" .}}"#,
        ),
        (
            "newline in assignment",
            "{{ $x \n := \n 1 \n }}",
            "{{$x := 1}}",
        ),
        (
            "newline in pipeline",
            "{{\n\"x\"\n|\nprintf\n}}",
            r#"{{"x" | printf}}"#,
        ),
        ("newline in comment", "{{/*\nhello\n*/}}", ""),
        ("newline in comment trimmed", "{{-\n/*\nhello\n*/\n-}}", ""),
        (
            "spaces around continue",
            "{{range .SI}}{{.}}{{ continue }}{{end}}",
            "{{range .SI}}{{.}}{{continue}}{{end}}",
        ),
        (
            "spaces around break",
            "{{range .SI}}{{.}}{{ break }}{{end}}",
            "{{range .SI}}{{.}}{{break}}{{end}}",
        ),
        ("bug0a", "{{$x := 0}}{{$x}}", "{{$x := 0}}{{$x}}"),
        ("bug1c", "{{$x:=.}}{{$x +2}}", "{{$x := .}}{{$x +2}}"),
        // Go 1.23: else with.
        (
            "else with",
            "{{with .X}}a{{else with .Y}}b{{end}}",
            r#"{{with .X}}"a"{{else}}{{with .Y}}"b"{{end}}{{end}}"#,
        ),
    ];
    for (name, text, want) in ok {
        match top(text) {
            Ok(got) => assert_eq!(&got, want, "{name}: {text:?}"),
            Err(e) => panic!("{name}: {text:?}: {e}"),
        }
    }
    let errors: &[(&str, &str)] = &[
        ("emptyAction", "{{}}"),
        ("newline in empty action", "{{\n}}"),
        ("unclosed action", "hello{{range"),
        ("unmatched end", "{{end}}"),
        ("unmatched else", "{{else}}"),
        ("unmatched else after if", "{{if .X}}hello{{end}}{{else}}"),
        ("multiple else", "{{if .X}}1{{else}}2{{else}}3{{end}}"),
        ("missing end", "hello{{range .x}}"),
        ("missing end after else", "hello{{range .x}}{{else}}"),
        ("undefined function", "hello{{undefined}}"),
        ("undefined variable", "{{$x}}"),
        (
            "variable undefined after end",
            "{{with $x := 4}}{{end}}{{$x}}",
        ),
        ("variable undefined in template", "{{template $v}}"),
        ("declare with field", "{{with $x.Y := 4}}{{end}}"),
        ("template with field ref", "{{template .X}}"),
        ("invalid punctuation", "{{printf 3, 4}}"),
        ("multidecl outside range", "{{with $v, $u := 3}}{{end}}"),
        (
            "too many decls in range",
            "{{range $u, $v, $w := 3}}{{end}}",
        ),
        ("dot applied to parentheses", "{{printf (printf .).}}"),
        ("adjacent args", "{{printf 3`x`}}"),
        ("adjacent args with .", "{{printf `x`.}}"),
        (
            "extra end after if",
            "{{if .X}}a{{else if .Y}}b{{end}}{{end}}",
        ),
        ("break outside range", "{{range .}}{{end}} {{break}}"),
        ("continue outside range", "{{range .}}{{end}} {{continue}}"),
        ("break in range else", "{{range .}}{{else}}{{break}}{{end}}"),
        (
            "continue in range else",
            "{{range .}}{{else}}{{continue}}{{end}}",
        ),
        ("bug0b", "{{$x += 1}}{{$x}}"),
        ("bug0c", "{{$x ! 2}}{{$x}}"),
        ("bug0d", "{{$x % 3}}{{$x}}"),
        ("bug0e", "{{range $x := $y := 3}}{{end}}"),
        ("bug1a", "{{$x:=.}}{{$x!2}}"),
        ("bug1b", "{{$x:=.}}{{$x+2}}"),
        ("dot after integer", "{{1.E}}"),
        ("dot after float", "{{0.1.E}}"),
        ("dot after boolean", "{{true.E}}"),
        ("dot after char", "{{'a'.any}}"),
        ("dot after string", r#"{{"hello".guys}}"#),
        ("dot after dot", "{{..E}}"),
        ("dot after nil", "{{nil.E}}"),
        ("wrong pipeline dot", "{{12|.}}"),
        ("wrong pipeline number", "{{.|12|printf}}"),
        ("wrong pipeline string", "{{.|printf|\"error\"}}"),
        ("wrong pipeline char", "{{12|printf|'e'}}"),
        ("wrong pipeline boolean", "{{.|true}}"),
        ("wrong pipeline nil", "{{'c'|nil}}"),
        ("empty pipeline", r#"{{printf "%d" ( ) }}"#),
        ("block without pipeline", r#"{{block "foo"}}hello{{end}}"#),
        // Go 1.23 chains else with only after with, else if only after if.
        ("else with after if", "{{if .X}}a{{else with .Y}}b{{end}}"),
        ("else if after with", "{{with .X}}a{{else if .Y}}b{{end}}"),
        ("else if after range", "{{range .X}}a{{else if .Y}}b{{end}}"),
    ];
    for (name, text) in errors {
        assert!(
            matches!(
                parse(text),
                Err(TemplateError::Syntax { .. } | TemplateError::UnknownFunction { .. })
            ),
            "{name}: {text:?} parses"
        );
    }
}

/// `errorTests`: the message and the line (Go's `name:line:`), with our column.
#[test]
fn go_error_tests() {
    let cases: &[(&str, &str, usize)] = &[
        ("line1\n{{", "unclosed action", 2),
        ("line1\n{{define `x`}}line2\n{{", "unclosed action", 3),
        ("line1\n{{\"x\"\n\"y\"\n", "unclosed action", 4),
        ("{{\n\n\n\n\n", "unclosed action", 6),
        ("{{/*}}", "unclosed comment", 1),
        ("{{/*\nhello\n}}", "unclosed comment", 1),
        ("{{.X (1 2 3}}", "unclosed left paren", 1),
        ("{{.X 1 2 3 ) }}", r#"unexpected ")" in command"#, 1),
        ("{{(.X 1 2 3", "unclosed action", 1),
        ("{{`x`3}}", "in operand", 1),
        ("{{a#}}", "'#'", 1),
        ("{{'a}}", "unterminated character constant", 1),
        (r#"{{"a}}"#, "unterminated quoted string", 1),
        ("{{`a}}", "unterminated raw quoted string", 1),
        ("{{0xi}}", "number syntax", 1),
        (
            "{{define `a`}}a{{end}}{{define `a`}}b{{end}}",
            "multiple definition of template",
            1,
        ),
        ("{{range .X}}", "unexpected EOF", 1),
        (
            "{{$x := 23}}{{with $x.y := 3}}{{$x 23}}{{end}}",
            r#"unexpected ":=""#,
            1,
        ),
        ("{{$a,$b,$c := 23}}", "too many declarations", 1),
        ("{{$a}}", "undefined variable", 1),
        ("{{true.any}}", "unexpected . after term", 1),
        ("{{12|false}}", "non executable command in pipeline", 1),
        ("{{ ( ) }}", "missing value for parenthesized pipeline", 1),
        ("{{ $v := `\n` }} {{", "unclosed action", 2),
        ("{{range $k}}{{end}}", "undefined variable", 1),
        ("{{range $k, $v}}{{end}}", "undefined variable", 1),
        ("{{range $k,}}{{end}}", "missing value for range", 1),
        ("{{range $k, $v := }}{{end}}", "missing value for range", 1),
        (
            "{{range $k, .}}{{end}}",
            "range can only initialize variables",
            1,
        ),
        (
            "{{range $k, 123 := .}}{{end}}",
            "range can only initialize variables",
            1,
        ),
    ];
    for (text, piece, line) in cases {
        match parse(text) {
            Err(TemplateError::Syntax {
                line: got, message, ..
            }) => {
                assert!(
                    message.contains(piece),
                    "{text:?}: {message:?} lacks {piece:?}"
                );
                assert_eq!(got, *line, "{text:?}: {message}");
            }
            Err(other) => panic!("{text:?}: {other}"),
            Ok(_) => panic!("{text:?} parses"),
        }
    }
}

/// `numberTests`: the constant each literal evaluates to (Go's `idealConstant` of the node).
#[test]
fn go_number_tests() {
    use Number::*;
    let n = |text: &str| {
        let kind = if text.starts_with('\'') {
            Kind::CharConstant
        } else if text.contains("+") && text.ends_with('i') && !text.starts_with('+') {
            Kind::Complex
        } else {
            Kind::Number
        };
        number(text, kind)
    };
    for (text, want) in [
        ("0", Int(0)),
        ("-0", Int(0)),
        ("73", Int(73)),
        ("7_3", Int(73)),
        ("0b10_010_01", Int(73)),
        ("0B10_010_01", Int(73)),
        ("073", Int(0o73)),
        ("0o73", Int(0o73)),
        ("0O73", Int(0o73)),
        ("0x73", Int(0x73)),
        ("0X73", Int(0x73)),
        ("0x7_3", Int(0x73)),
        ("-73", Int(-73)),
        ("+73", Int(73)),
        ("100", Int(100)),
        ("1e9", Float(1e9)),
        ("-1e9", Float(-1e9)),
        ("-1.2", Float(-1.2)),
        ("1e19", Float(1e19)),
        ("1e1_9", Float(1e19)),
        ("1E19", Float(1e19)),
        ("-1e19", Float(-1e19)),
        ("0x_1p4", Float(16.0)),
        ("0X_1P4", Float(16.0)),
        ("0x_1p-4", Float(1.0 / 16.0)),
        ("0123", Int(0o123)),
        ("-0x0", Int(0)),
        ("0xdeadbeef", Int(0xdead_beef)),
        ("0xef", Int(0xef)),
        ("'a'", Int('a' as i64)),
        (r"'\n'", Int('\n' as i64)),
        (r"'\\'", Int('\\' as i64)),
        (r"'\''", Int('\'' as i64)),
        (r"'\xFF'", Int(0xFF)),
        ("'パ'", Int(0x30d1)),
        (r"'\u30d1'", Int(0x30d1)),
        (r"'\U000030d1'", Int(0x30d1)),
        (
            "18446744073709551615",
            Overflow("18446744073709551615".into()),
        ),
        ("4i", Complex("4i".into())),
        ("-1.2+4.2i", Complex("-1.2+4.2i".into())),
        ("13+0i", Complex("13+0i".into())),
    ] {
        assert_eq!(n(text), Ok(want), "{text}");
    }
    for bad in [
        "+-2",
        "0x123.",
        "1e.",
        "0xi.",
        "'x",
        "'xx'",
        "'433937734937734969526500969526500'",
        "99999999999999999999",
    ] {
        assert!(n(bad).is_err(), "{bad}: {:?}", n(bad));
    }
}

#[test]
fn strings_unquote_as_go() {
    assert_eq!(
        unquote(r#""a\tb\x41\101\u00e9\"""#),
        Ok("a\tbAAé\"".to_string())
    );
    assert_eq!(unquote("`a\\n\r\nb`"), Ok("a\\n\nb".to_string()));
    assert!(
        unquote(r#""\'""#).is_err(),
        "\\' is not an escape in a string"
    );
    assert!(unquote(r#""\xff""#).is_err(), "a byte that is not UTF-8");
    assert!(unquote(r#""\q""#).is_err());
}

#[test]
fn positions_are_lines_and_character_columns() {
    let e = parse("é\n  {{ nope }}").err();
    assert_eq!(
        e,
        Some(TemplateError::UnknownFunction {
            name: "nope".into(),
            line: 2,
            column: 6
        })
    );
    let e = parse("ab{{ if .x }}é").err();
    assert!(
        matches!(e, Some(TemplateError::Syntax { line: 1, column: 15, ref message }) if message == "unexpected EOF"),
        "{e:?}"
    );
}

#[test]
fn unknown_and_refused_functions_are_named() {
    for name in ["call", "html", "js", "urlquery", "toYaml"] {
        let text = format!("{{{{ {name} 1 }}}}");
        assert!(
            matches!(parse(&text), Err(TemplateError::UnknownFunction { name: ref n, line: 1, column: 4 }) if n == name),
            "{name}"
        );
    }
}

#[test]
fn literal_printf_formats_are_checked_when_parsed() {
    assert!(matches!(
        parse(r#"{{ if false }}{{ printf "%p" 1 }}{{ end }}"#),
        Err(TemplateError::Printf {
            line: 1,
            column: 18,
            ..
        })
    ));
    assert!(parse(r#"{{ printf "%-5s|%d" "a" 1 }}"#).is_ok());
}

#[test]
fn parentheses_nest_as_deep_as_the_crd_admits() {
    // 10240 characters hold at most 5118 nested parentheses, all parsed (newer Go refuses
    // past 10000: `max expression depth exceeded`; ours stops at MAX_NESTING = 6000, which
    // only a text longer than the CRD admits reaches).
    let deep = |n: usize| format!("{{{{{}1{}}}}}", "(".repeat(n), ")".repeat(n));
    let result = std::thread::Builder::new()
        .stack_size(super::super::STACK_BYTES)
        .spawn(move || {
            let ok = parse(&deep(5_118)).is_ok();
            let refused = matches!(
                parse(&deep(10_001)),
                Err(TemplateError::Limit {
                    limit: super::super::Limit::Nesting,
                    max: 6_000
                })
            );
            (ok, refused)
        })
        .map(|h| h.join());
    assert!(matches!(result, Ok(Ok((true, true)))), "{result:?}");
}
