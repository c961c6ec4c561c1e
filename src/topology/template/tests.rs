//! The engine's tests: fmt's float text, the printf format parser,
//! Go's own execution tests, the limits, unknown builtins and deep nesting.

use std::rc::Rc;

use super::limits::{Limit, Limits};
use super::value::{Elem, Value};
use super::{TemplateError, render, render_with};
use serde_json::json;

/// Every action prints through the Go printer, inside every kind of block.
#[test]
fn actions_in_blocks_print_floats_as_go() {
    let data = serde_json::json!({"v": 1000000, "l": [1000000]});
    let text = "{{ if true }}{{ .v }}{{ end }} {{ with .v }}{{ . }}{{ end }} {{ range .l }}{{ . }}{{ end }} {{ define \"d\" }}{{ .v }}{{ end }}{{ template \"d\" . }}";
    assert_eq!(
        render(text, &data),
        Ok("1e+06 1e+06 1e+06 1e+06".to_string())
    );
}

/// A declaration prints nothing, and the variable keeps the value's type (not its text).
#[test]
fn declarations_are_not_wrapped() {
    let data = serde_json::json!({"v": 3});
    assert_eq!(
        render("{{ $x := .v }}{{ eq $x 3.0 }}", &data),
        Ok("true".to_string())
    );
}

/// Go's own execution tests (Go 1.19 `src/text/template/exec_test.go` `execTests`,
/// BSD-3-Clause, Copyright The Go Authors) that use only maps, lists and basic values, with
/// the data as CAPI gives it (JSON: numbers are float64), and more of ours on ranges, fields,
/// comparisons, `index`, `slice` and templates. Each expected output was produced by Go 1.19
/// (`text/template` with sprig v3.2.3's `HermeticTxtFuncMap`, as CAPI, over the same JSON
/// unmarshalled into `map[string]interface{}`); `None` is an error there. Cases Go's test calls with Go functions (`die`, `add`) use `index .l 9`
/// (an error) instead.
#[test]
fn go_exec_tests() {
    let data: serde_json::Value = serde_json::from_str(DATA).expect("data");
    let mut failures = Vec::new();
    for (name, text, want) in GO_EXEC {
        let got = render(text, &data);
        match (want, &got) {
            (Some(w), Ok(g)) if w == g => {}
            (None, Err(_)) => {}
            _ => failures.push(format!("{name}: {text:?}: got {got:?}, Go gives {want:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const DATA: &str = r#"{"s": "abc", "n": null, "f": 3, "x": 1.5, "l": [1, "two", null, {"a": 1}], "e": [], "m": {"b": 2, "a": "x", "n": null}, "em": {}, "t": true, "big": 1000000, "sl": ["a", "b", "c"], "nest": {"l": [[1, 2], [3]]}}"#;
const GO_EXEC: &[(&str, &str, Option<&str>)] = &[
    ("empty", "", Some("")),
    ("text", "some text", Some("some text")),
    ("nil action", "{{nil}}", None),
    (
        "simple assignment",
        "{{$x := 2}}{{$x = 3}}{{$x}}",
        Some("3"),
    ),
    (
        "nested assignment",
        "{{$x := 2}}{{if true}}{{$x = 3}}{{end}}{{$x}}",
        Some("3"),
    ),
    (
        "nested assignment changes the last declaration",
        "{{$x := 1}}{{if true}}{{$x := 2}}{{if true}}{{$x = 3}}{{end}}{{end}}{{$x}}",
        Some("1"),
    ),
    ("field on interface", "{{.foo}}", Some("<no value>")),
    (
        "field on parenthesized interface",
        "{{(.).foo}}",
        Some("<no value>"),
    ),
    ("unparenthesized non-function", "{{1 2}}", None),
    ("parenthesized non-function", "{{(1) 2}}", None),
    (
        "parenthesized non-function with no args",
        "{{(1)}}",
        Some("1"),
    ),
    ("if true", "{{if true}}TRUE{{end}}", Some("TRUE")),
    (
        "if false",
        "{{if false}}TRUE{{else}}FALSE{{end}}",
        Some("FALSE"),
    ),
    ("if nil", "{{if nil}}TRUE{{end}}", None),
    (
        "if 1",
        "{{if 1}}NON-ZERO{{else}}ZERO{{end}}",
        Some("NON-ZERO"),
    ),
    ("if 0", "{{if 0}}NON-ZERO{{else}}ZERO{{end}}", Some("ZERO")),
    (
        "if 1.5",
        "{{if 1.5}}NON-ZERO{{else}}ZERO{{end}}",
        Some("NON-ZERO"),
    ),
    (
        "if emptystring",
        "{{if ``}}NON-EMPTY{{else}}EMPTY{{end}}",
        Some("EMPTY"),
    ),
    (
        "if string",
        "{{if `notempty`}}NON-EMPTY{{else}}EMPTY{{end}}",
        Some("NON-EMPTY"),
    ),
    (
        "if else if",
        "{{if false}}FALSE{{else if true}}TRUE{{end}}",
        Some("TRUE"),
    ),
    (
        "if else chain",
        "{{if eq 1 3}}1{{else if eq 2 3}}2{{else if eq 3 3}}3{{end}}",
        Some("3"),
    ),
    ("print", "{{print \"hello, print\"}}", Some("hello, print")),
    ("print 123", "{{print 1 2 3}}", Some("1 2 3")),
    ("print nil", "{{print nil}}", Some("<nil>")),
    ("println", "{{println 1 2 3}}", Some("1 2 3\n")),
    (
        "printf string",
        "{{printf \"%s\" \"hello\"}}",
        Some("hello"),
    ),
    ("not", "{{not true}} {{not false}}", Some("false true")),
    (
        "and",
        "{{and false 0}} {{and 1 0}} {{and 0 true}} {{and 1 1}}",
        Some("false 0 0 1"),
    ),
    (
        "or",
        "{{or 0 0}} {{or 1 0}} {{or 0 true}} {{or 1 1}}",
        Some("0 1 true 1"),
    ),
    ("or short-circuit", "{{or 0 1 (index .l 9)}}", Some("1")),
    ("and short-circuit", "{{and 1 0 (index .l 9)}}", Some("0")),
    ("or short-circuit2", "{{or 0 0 (index .l 9)}}", None),
    ("and short-circuit2", "{{and 1 1 (index .l 9)}}", None),
    ("and pipe-true", "{{1 | and 1}}", Some("1")),
    ("and pipe-false", "{{0 | and 1}}", Some("0")),
    ("or pipe-true", "{{1 | or 0}}", Some("1")),
    ("or pipe-false", "{{0 | or 0}}", Some("0")),
    (
        "boolean if",
        "{{if and true 1 `hi`}}TRUE{{else}}FALSE{{end}}",
        Some("TRUE"),
    ),
    (
        "boolean if not",
        "{{if and true 1 `hi` | not}}TRUE{{else}}FALSE{{end}}",
        Some("FALSE"),
    ),
    (
        "boolean if pipe",
        "{{if true | not | and 1}}TRUE{{else}}FALSE{{end}}",
        Some("FALSE"),
    ),
    ("nil[1]", "{{index nil 1}}", None),
    ("len of int", "{{len 3}}", None),
    ("with true", "{{with true}}{{.}}{{end}}", Some("true")),
    (
        "with false",
        "{{with false}}{{.}}{{else}}FALSE{{end}}",
        Some("FALSE"),
    ),
    ("with 1", "{{with 1}}{{.}}{{else}}ZERO{{end}}", Some("1")),
    ("with 0", "{{with 0}}{{.}}{{else}}ZERO{{end}}", Some("ZERO")),
    (
        "with 1.5",
        "{{with 1.5}}{{.}}{{else}}ZERO{{end}}",
        Some("1.5"),
    ),
    (
        "with emptystring",
        "{{with ``}}{{.}}{{else}}EMPTY{{end}}",
        Some("EMPTY"),
    ),
    (
        "with string",
        "{{with `notempty`}}{{.}}{{else}}EMPTY{{end}}",
        Some("notempty"),
    ),
    ("decimal", "{{print 1234}}", Some("1234")),
    ("decimal _", "{{print 12_34}}", Some("1234")),
    ("binary", "{{print 0b101}}", Some("5")),
    ("binary _", "{{print 0b_1_0_1}}", Some("5")),
    ("BINARY", "{{print 0B101}}", Some("5")),
    ("octal0", "{{print 0377}}", Some("255")),
    ("octal", "{{print 0o377}}", Some("255")),
    ("octal _", "{{print 0o_3_7_7}}", Some("255")),
    ("OCTAL", "{{print 0O377}}", Some("255")),
    ("hex", "{{print 0x123}}", Some("291")),
    ("hex _", "{{print 0x1_23}}", Some("291")),
    ("HEX", "{{print 0X123ABC}}", Some("1194684")),
    ("float", "{{print 123.4}}", Some("123.4")),
    ("float _", "{{print 0_0_1_2_3.4}}", Some("123.4")),
    ("hex float", "{{print +0x1.ep+2}}", Some("7.5")),
    ("hex float _", "{{print +0x_1.e_0p+0_2}}", Some("7.5")),
    (
        "print multi",
        "{{print 1_2_3_4 7.5_00_00_00}}",
        Some("1234 7.5"),
    ),
    (
        "print multi2",
        "{{print 1234 0x0_1.e_0p+02}}",
        Some("1234 7.5"),
    ),
    ("bug7a", "{{3 2}}", None),
    ("bug7b", "{{$x := 1}}{{$x 2}}", None),
    ("bug7c", "{{$x := 1}}{{3 | $x}}", None),
    ("bug14b", "{{$x := nil}}{{$x.anything}}", None),
    (
        "bug14c",
        "{{$x := (1.0)}}{{$y := (\"hello\")}}{{$x.anything}}{{$y.true}}",
        None,
    ),
    ("bug16a", "{{true|printf}}", None),
    ("bug16b", "{{1|printf}}", None),
    ("bug16c", "{{1.1|printf}}", None),
    ("bug16d", "{{'x'|printf}}", None),
    ("bug16k", "{{\"aaa\"|printf }}", Some("aaa")),
    (
        "range list",
        "{{range .l}}<{{.}}>{{end}}",
        Some("<1><two><<no value>><map[a:1]>"),
    ),
    (
        "range empty else",
        "{{range .e}}x{{else}}EMPTY{{end}}",
        Some("EMPTY"),
    ),
    (
        "range map",
        "{{range .m}}<{{.}}>{{end}}",
        Some("<x><2><<no value>>"),
    ),
    (
        "range map vars",
        "{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}",
        Some("a=x;b=2;n=<no value>;"),
    ),
    (
        "range list vars",
        "{{range $i, $v := .sl}}{{$i}}:{{$v}} {{end}}",
        Some("0:a 1:b 2:c "),
    ),
    (
        "range missing",
        "{{range .nothing}}x{{else}}none{{end}}",
        Some("none"),
    ),
    (
        "range empty map",
        "{{range .em}}x{{else}}none{{end}}",
        Some("none"),
    ),
    ("range string", "{{range .s}}x{{end}}", None),
    ("range float", "{{range .f}}x{{end}}", None),
    (
        "range break",
        "{{range .sl}}{{if eq . \"b\"}}{{break}}{{end}}{{.}}{{end}}",
        Some("a"),
    ),
    (
        "range continue",
        "{{range .sl}}{{if eq . \"b\"}}{{continue}}{{end}}{{.}}{{end}}",
        Some("ac"),
    ),
    (
        "range nested",
        "{{range .nest.l}}[{{range .}}{{.}}{{end}}]{{end}}",
        Some("[12][3]"),
    ),
    (
        "range var scope",
        "{{range $x := .sl}}{{end}}{{$x := 1}}{{$x}}",
        Some("1"),
    ),
    (
        "range null element field",
        "{{range .l}}{{.a}}{{end}}",
        None,
    ),
    (
        "range element print",
        "{{range .l}}{{print .}}|{{end}}",
        Some("1|two|<nil>|map[a:1]|"),
    ),
    ("missing chain", "{{.a.b.c}}", Some("<no value>")),
    ("null field", "{{.n}}", Some("<no value>")),
    ("null field of field", "{{.n.x}}", None),
    (
        "null into variable",
        "{{$v := .n}}{{$v.x}}",
        Some("<no value>"),
    ),
    ("map null value", "{{.m.n}}", Some("<no value>")),
    ("print null", "{{print .m.n}}", Some("<nil>")),
    ("field of string", "{{.s.x}}", None),
    ("field of list", "{{.l.x}}", None),
    ("field with args", "{{.m.a 1}}", None),
    ("field with pipe arg", "{{1 | .m.a}}", None),
    ("dot map", "{{.m}}", Some("map[a:x b:2 n:<nil>]")),
    ("dot list", "{{.l}}", Some("[1 two <nil> map[a:1]]")),
    ("big float", "{{.big}}", Some("1e+06")),
    ("missing | print", "{{.missing | print}}", Some("<nil>")),
    ("variable $", "{{$.s}}", Some("abc")),
    (
        "dollar in range",
        "{{range .sl}}{{$.s}}{{end}}",
        Some("abcabcabc"),
    ),
    ("eq missing", "{{eq .missing \"x\"}}", Some("false")),
    ("eq null", "{{eq .n nil}}", Some("true")),
    ("eq lists", "{{eq .l .l}}", None),
    ("eq float int", "{{eq .f 3}}", None),
    ("eq float float", "{{eq .f 3.0}}", Some("true")),
    ("eq multi", "{{eq .s \"a\" \"abc\"}}", Some("true")),
    ("ne", "{{ne .s \"abc\"}} {{ne 1 2}}", Some("false true")),
    ("lt strings", "{{lt \"a\" \"b\"}}", Some("true")),
    ("lt null", "{{lt .n 1}}", None),
    (
        "le ge gt",
        "{{le 2 2}} {{ge 1 2}} {{gt 3 2}}",
        Some("true false true"),
    ),
    ("lt bool", "{{lt true false}}", None),
    ("eq bool string", "{{eq true \"true\"}}", None),
    ("eq map missing", "{{eq .m .missing}}", Some("false")),
    ("eq no args", "{{eq}}", None),
    ("ne one arg", "{{ne 1}}", None),
    ("eq char", "{{eq 'a' 97}}", Some("true")),
    ("len string", "{{len .s}}", Some("3")),
    ("len list", "{{len .l}}", Some("4")),
    ("len map", "{{len .m}}", Some("3")),
    ("len null", "{{len .n}}", None),
    ("index list", "{{index .l 1}}", Some("two")),
    ("index list oob", "{{index .l 4}}", None),
    ("index list big", "{{index .l 9}}", None),
    ("index map", "{{index .m \"a\"}}", Some("x")),
    (
        "index map missing",
        "{{index .m \"zz\"}}",
        Some("<no value>"),
    ),
    ("index nested", "{{index .nest.l 0 1}}", Some("2")),
    ("index string", "{{index .s 1}}", Some("98")),
    ("index float idx", "{{index .l .f}}", None),
    ("index map int key", "{{index .m 1}}", None),
    ("index null elem", "{{index .l 2 0}}", None),
    ("index no idx", "{{index .s}}", Some("abc")),
    (
        "slice string",
        "{{slice .s 1}}|{{slice .s 1 2}}|{{slice .s}}",
        None,
    ),
    ("slice list", "{{slice .sl 1 3}}", Some("[b c]")),
    ("slice bad", "{{slice .s 2 1}}", None),
    ("slice 3 string", "{{slice .s 0 1 2}}", None),
    ("slice map", "{{slice .m 1}}", None),
    (
        "define and call",
        "{{define \"T\"}}<{{.}}>{{end}}{{template \"T\" .s}}",
        Some("<abc>"),
    ),
    (
        "template no pipe",
        "{{define \"T\"}}<{{.}}>{{end}}{{template \"T\"}}",
        Some("<<no value>>"),
    ),
    ("template undefined", "{{template \"nope\"}}", None),
    ("block", "{{block \"B\" .s}}[{{.}}]{{end}}", Some("[abc]")),
    (
        "template vars",
        "{{$x := 1}}{{define \"T\"}}{{$}}{{end}}{{template \"T\" .s}}",
        Some("abc"),
    ),
    (
        "recursion",
        "{{define \"R\"}}{{if .}}{{len .}}{{template \"R\" (slice . 1)}}{{end}}{{end}}{{template \"R\" .sl}}",
        Some("321"),
    ),
    ("trim", "a  {{- 1 -}}  b", Some("a1b")),
    ("comment", "a{{/* c */}}b", Some("ab")),
    ("trim comment", "a {{- /* c */ -}} b", Some("ab")),
    ("assign undefined", "{{$x = 1}}", None),
    ("nil command", "{{nil}}", None),
    ("chain on pipe", "{{(.m).a}}", Some("x")),
    (
        "printf missing",
        "{{printf \"%s %d\" .missing 1}}",
        Some("%!s(<nil>) 1"),
    ),
    (
        "printf extra",
        "{{printf \"%s\" \"a\" 2}}",
        Some("a%!(EXTRA int=2)"),
    ),
];

fn limit_of(result: Result<String, TemplateError>) -> Option<Limit> {
    match result {
        Err(TemplateError::Limit { limit, .. }) => Some(limit),
        _ => None,
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, std::time::Duration) {
    let start = std::time::Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Ten `replace` calls that each multiply the length by ten: Go would reach 10 GB.
#[test]
fn replace_growth_stops_at_the_string_limit() {
    let mut text = String::from(r#"{{ $s := "aaaaaaaaaa" }}"#);
    for _ in 0..10 {
        text.push_str(r#"{{ $s = replace "a" "aaaaaaaaaa" $s }}"#);
    }
    text.push_str("{{ len $s }}");
    let (result, took) = timed(|| render(&text, &json!({})));
    assert_eq!(limit_of(result), Some(Limit::StringBytes));
    assert!(took.as_secs() < 5, "{took:?}");
}

/// `printf "%s%s"` doubling thirty times: Go would make 2 GB.
#[test]
fn printf_doubling_stops_at_the_string_limit() {
    let mut text = String::from(r#"{{ $s := "ab" }}"#);
    for _ in 0..30 {
        text.push_str(r#"{{ $s = printf "%s%s" $s $s }}"#);
    }
    assert_eq!(
        limit_of(render(&text, &json!({}))),
        Some(Limit::StringBytes)
    );
}

/// Forty templates that each call the next twice: 2^40 calls in Go.
#[test]
fn exponential_template_calls_stop_at_the_step_limit() {
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!(
            r#"{{{{ define "t{i}" }}}}{{{{ template "t{}" }}}}{{{{ template "t{}" }}}}{{{{ end }}}}"#,
            i + 1,
            i + 1
        ));
    }
    text.push_str(r#"{{ define "t40" }}x{{ end }}{{ template "t0" }}"#);
    let (result, took) = timed(|| render(&text, &json!({})));
    // The output limit (1 MiB of "x") or the steps: whichever comes first, well before 2^40.
    assert!(
        matches!(limit_of(result), Some(Limit::Steps | Limit::OutputBytes)),
        "{took:?}"
    );
    assert!(took.as_secs() < 10, "{took:?}");
    let small = Limits {
        output_bytes: usize::MAX,
        ..Limits::default()
    };
    let result = render_with(&text, &Value::Map(Rc::default(), Elem::Any), &small);
    assert_eq!(limit_of(result), Some(Limit::Steps));
}

/// Ranges over huge integers, nested (Go 1.22 ranges over integers).
#[test]
fn nested_huge_ranges_stop_at_the_step_limit() {
    let text = "{{ range 1000000000 }}{{ range 1000000000 }}{{ end }}{{ end }}";
    let (result, took) = timed(|| render(text, &json!({})));
    assert_eq!(limit_of(result), Some(Limit::Steps));
    assert!(took.as_secs() < 10, "{took:?}");
    assert_eq!(
        render(
            "{{ range 3 }}{{ . }}{{ end }}{{ range $i := 2 }}{{ $i }}{{ end }}",
            &json!({})
        ),
        Ok("01201".to_string())
    );
    assert!(render("{{ range $i, $e := 3 }}{{ end }}", &json!({})).is_err());
    assert_eq!(
        render("{{ range 0 }}x{{ else }}none{{ end }}", &json!({})),
        Ok("none".to_string())
    );
}

/// Output is counted as it is written and stops at the limit.
#[test]
fn output_growth_stops_at_the_output_limit() {
    let text = r#"{{ range 1000 }}{{ printf "%60000s" "" }}{{ end }}"#;
    assert_eq!(limit_of(render(text, &json!({}))), Some(Limit::OutputBytes));
    let limits = Limits {
        output_bytes: 25,
        ..Limits::default()
    };
    let data = Value::Map(Rc::default(), Elem::Any);
    assert_eq!(
        render_with("{{ range 2 }}0123456789{{ end }}", &data, &limits),
        Ok("01234567890123456789".to_string())
    );
    assert_eq!(
        limit_of(render_with(
            "{{ range 3 }}0123456789{{ end }}",
            &data,
            &limits
        )),
        Some(Limit::OutputBytes)
    );
}

/// The CRD's maxLength (10240 characters) before parsing; characters, not bytes.
#[test]
fn the_template_length_is_the_crds_max_length() {
    assert_eq!(Limits::default().template_bytes, 10_240);
    let long = "x".repeat(10_241);
    assert_eq!(
        limit_of(render(&long, &json!({}))),
        Some(Limit::TemplateBytes)
    );
    let wide = "é".repeat(10_240);
    assert_eq!(render(&wide, &json!({})), Ok(wide.clone()));
}

/// Template recursion stops at the depth limit, with an error, not a crash.
#[test]
fn template_recursion_stops_at_the_depth_limit() {
    let text = r#"{{ define "r" }}{{ template "r" }}{{ end }}{{ template "r" }}"#;
    assert_eq!(limit_of(render(text, &json!({}))), Some(Limit::Depth));
    // Bounded recursion renders.
    let text = r#"{{ define "r" }}{{ if . }}{{ len . }}{{ template "r" (slice . 1) }}{{ end }}{{ end }}{{ template "r" .l }}"#;
    assert_eq!(
        render(text, &json!({"l": ["a", "b", "c"]})),
        Ok("321".to_string())
    );
}

fn with_unknown() -> Value {
    Value::from_json_with_unknown(
        &json!({"builtin": {"controlPlane": {"replicas": 3}}, "l": ["a"]}),
        &["builtin.controlPlane.name".to_string()],
    )
}

/// An unknown builtin is an error naming it, however the template reads it.
#[test]
fn unknown_builtins_are_errors_however_read() {
    let data = with_unknown();
    let limits = Limits::default();
    for (how, text) in [
        ("field chain", "{{ .builtin.controlPlane.name }}"),
        ("field of it", "{{ .builtin.controlPlane.name.x }}"),
        ("index", r#"{{ index .builtin.controlPlane "name" }}"#),
        (
            "index printed deep",
            r#"{{ index .builtin "controlPlane" }}"#,
        ),
        ("with", "{{ with .builtin.controlPlane.name }}x{{ end }}"),
        (
            "if",
            "{{ if .builtin.controlPlane.name }}x{{ else }}y{{ end }}",
        ),
        ("default", r#"{{ default "x" .builtin.controlPlane.name }}"#),
        ("eq", r#"{{ eq .builtin.controlPlane.name "x" }}"#),
        ("ne", r#"{{ ne "x" .builtin.controlPlane.name }}"#),
        ("lt", r#"{{ lt .builtin.controlPlane.name "x" }}"#),
        ("range", "{{ range .builtin.controlPlane.name }}x{{ end }}"),
        (
            "range element",
            "{{ range .builtin.controlPlane }}{{ . }}{{ end }}",
        ),
        ("printf", r#"{{ printf "%s" .builtin.controlPlane.name }}"#),
        ("print of its map", "{{ print .builtin }}"),
        (
            "a variable",
            "{{ $n := .builtin.controlPlane.name }}{{ $n }}",
        ),
        ("a pipeline", "{{ .builtin.controlPlane.name | upper }}"),
        ("and", "{{ and true .builtin.controlPlane.name }}"),
        ("or", "{{ or .builtin.controlPlane.name true }}"),
        ("not", "{{ not .builtin.controlPlane.name }}"),
        ("len", "{{ len .builtin.controlPlane.name }}"),
        (
            "a template's dot",
            r#"{{ define "t" }}{{ . }}{{ end }}{{ template "t" .builtin.controlPlane.name }}"#,
        ),
    ] {
        match render_with(text, &data, &limits) {
            Err(e @ TemplateError::Unknown { .. }) => {
                let message = e.to_string();
                assert!(
                    message.contains("builtin.controlPlane.name")
                        && message.contains("line 1, column"),
                    "{how}: {message}"
                );
            }
            other => panic!("{how}: {text}: {other:?}"),
        }
    }
    // Holding it, or reading what is known next to it, is not a use.
    for (text, want) in [
        ("{{ $n := .builtin.controlPlane.name }}ok", "ok"),
        (r#"{{ $n := get .builtin.controlPlane "name" }}ok"#, "ok"),
        (r#"{{ hasKey .builtin.controlPlane "name" }}"#, "true"),
        ("{{ .builtin.controlPlane.replicas }}", "3"),
        ("{{ len .builtin.controlPlane }}", "2"),
        (
            r#"{{ define "t" }}ok{{ end }}{{ template "t" .builtin.controlPlane.name }}"#,
            "ok",
        ),
        ("{{ if .builtin.controlPlane }}known{{ end }}", "known"),
    ] {
        assert_eq!(
            render_with(text, &data, &limits),
            Ok(want.to_string()),
            "{text}"
        );
    }
}

/// The deepest nestings a template of the CRD's maximum length can hold (that Go's parser
/// accepts) render without exhausting the stack; the stack a level takes is measured here
/// (debug build), and [`super::STACK_BYTES`] holds [`super::parse::MAX_NESTING`] of them.
#[test]
fn deepest_nesting_renders() {
    let max = Limits::default().template_bytes;
    let fit_in = |budget: usize, open: &str, middle: &str, close: &str| {
        let n = (budget - middle.len()) / (open.len() + close.len());
        format!("{}{middle}{}", open.repeat(n), close.repeat(n))
    };
    let fit = |open: &str, middle: &str, close: &str| fit_in(max, open, middle, close);
    let parens = format!("{{{{{}}}}}", fit_in(max - 4, "(", "1", ")"));
    let ifs = fit("{{if 1}}", "x", "{{end}}");
    let withs = fit("{{with 1}}", "{{.}}", "{{end}}");
    let ranges = fit("{{range 1}}", "x", "{{end}}");
    let n_else = (max - 20) / "{{else if 0}}".len();
    let else_ifs = format!("{{{{if 0}}}}{}x{{{{end}}}}", "{{else if 0}}".repeat(n_else));
    let args = format!(
        "{{{{print {}}}}}",
        "(print ".repeat((max - 12) / 8) + &")".repeat((max - 12) / 8)
    );
    let recursion = r#"{{define "r"}}{{if 1}}{{if 1}}{{if 1}}{{template "r"}}{{end}}{{end}}{{end}}{{end}}{{template "r"}}"#;
    let cases: Vec<(&str, String, Option<&str>)> = vec![
        ("parentheses", parens, Some("1")),
        ("ifs", ifs, Some("x")),
        ("withs", withs, Some("1")),
        ("ranges", ranges, Some("x")),
        ("else ifs", else_ifs, Some("")),
        ("calls in arguments", args, None),
        ("recursion through blocks", recursion.to_string(), None),
    ];
    for (name, text, want) in cases {
        assert!(text.chars().count() <= max, "{name}: {}", text.len());
        let result = render(&text, &json!({}));
        match want {
            Some(w) => assert_eq!(result.as_deref(), Ok(w), "{name}"),
            None => assert!(
                result.is_ok() || limit_of(result.clone()).is_some(),
                "{name}: {result:?}"
            ),
        }
    }
    // Measure one level's stack: parse and execute 2000 nested parentheses on a thread.
    let text = format!("{{{{{}1{}}}}}", "(".repeat(2000), ")".repeat(2000));
    let per_level = std::thread::Builder::new()
        .stack_size(super::STACK_BYTES)
        .spawn(move || {
            let top = {
                let here = 0u8;
                std::ptr::addr_of!(here) as usize
            };
            let out = super::render_here(
                &text,
                super::lex::lex(&text),
                &Value::Missing,
                &Limits::default(),
            )
            .0;
            let low = super::STACK_LOW.with(std::cell::Cell::get);
            (out, (top - low) / 2000)
        })
        .map(|h| h.join());
    let Ok(Ok((out, per_level))) = per_level else {
        panic!("the measuring thread failed")
    };
    assert_eq!(out, Ok("1".to_string()));
    eprintln!("stack per nesting level: {per_level} bytes");
    assert!(
        per_level * super::parse::MAX_NESTING * 2 <= super::STACK_BYTES,
        "{per_level} bytes a level: the stack of {} bytes does not hold {} levels twice",
        super::STACK_BYTES,
        super::parse::MAX_NESTING
    );
}

/// Lists nested in a loop (`$l = list $l`) stop at the value depth limit, before they could
/// exhaust the stack when printed or freed; lists shared many times over stop at the steps.
#[test]
fn values_built_in_a_loop_are_bounded() {
    let text = "{{ $l := list }}{{ range 100000 }}{{ $l = list $l }}{{ end }}{{ len $l }}";
    assert_eq!(limit_of(render(text, &json!({}))), Some(Limit::ValueDepth));
    let text = "{{ $l := list 1 }}{{ range 60 }}{{ $l = list $l $l }}{{ end }}{{ len $l }}";
    let (result, took) = timed(|| render(text, &json!({})));
    assert!(
        matches!(
            limit_of(result.clone()),
            Some(Limit::Steps | Limit::ValueDepth)
        ),
        "{result:?}"
    );
    assert!(took.as_secs() < 10, "{took:?}");
    // Shared lists printed: 2^22 leaves, stopped by a limit, not written out.
    let text =
        "{{ $l := list 1 }}{{ range 22 }}{{ $l = list $l $l }}{{ end }}{{ $l }}{{ print $l }}";
    let (result, took) = timed(|| render(text, &json!({})));
    assert!(limit_of(result.clone()).is_some(), "{result:?}");
    assert!(took.as_secs() < 10, "{took:?}");
    assert_eq!(
        render(
            "{{ $l := list }}{{ range 3 }}{{ $l = list $l }}{{ end }}{{ $l }}",
            &json!({})
        ),
        Ok("[[[[]]]]".to_string())
    );
}

/// A template rendered on the caller's thread nests at most `INLINE_NESTING` levels, which
/// fits a small stack (a debug build's 7.4 KiB a level): 1 MiB, half a test thread's.
#[test]
fn inline_nesting_fits_a_small_stack() {
    let n = super::INLINE_NESTING;
    let text = format!("{{{{{}1{}}}}}", "(".repeat(n), ")".repeat(n));
    assert!(!super::may_nest_deeply(&super::lex::lex(&text)));
    let result = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || render(&text, &json!({})))
        .map(|h| h.join());
    assert!(
        matches!(result, Ok(Ok(Ok(ref s))) if s == "1"),
        "{result:?}"
    );
}
