//! The tricky parts of the Go templates: fmt's float text, enabledIf's YAML reading, the
//! printf format parser and the internal print function's name.

use super::go_fmt::{Directive, directives, go_v, sprint, sprintln};
use super::{PRINT_ACTION, TemplateError, enabled, render};
use gotmpl::Value;

/// fmt's `%v` of a float64 (strconv 'g', shortest, exponent from 6 or below -4, two
/// exponent digits at least), reasoned from `strconv/ftoa.go`.
#[test]
fn floats_print_as_go_prints_them() {
    for (f, want) in [
        (0.0, "0"),
        (-0.0, "-0"),
        (1.0, "1"),
        (-3.0, "-3"),
        (0.1, "0.1"),
        (2.5, "2.5"),
        (100000.0, "100000"),
        (999999.0, "999999"),
        (1e6, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (123456.789, "123456.789"),
        (1234567.8, "1.2345678e+06"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (0.0001, "0.0001"),
        (0.00012, "0.00012"),
        (0.00001, "1e-05"),
        (5e-324, "5e-324"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "+Inf"),
        (f64::NEG_INFINITY, "-Inf"),
    ] {
        assert_eq!(go_v(&Value::Float(f)), want, "{f:?}");
    }
}

/// fmt.Sprint adds a space between operands when neither is a string; Sprintln always.
#[test]
fn print_spacing() {
    let s = |v: &str| Value::String(v.into());
    assert_eq!(sprint(&[Value::Nil, Value::Nil]), "<nil> <nil>");
    assert_eq!(
        sprint(&[s("a"), Value::Int(1), Value::Float(2.0), s("b")]),
        "a1 2b"
    );
    assert_eq!(sprintln(&[s("a"), s("b")]), "a b\n");
    assert_eq!(sprintln(&[]), "\n");
}

/// CAPI's `patchIsEnabled` compares the YAML reading of the output with `true`; go-yaml v2
/// reads eleven spellings as true.
#[test]
fn enabled_reads_the_output_as_yaml_1_1() {
    for yes in [
        "true", "True", "TRUE", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", " true\n",
    ] {
        assert_eq!(enabled(yes), Ok(true), "{yes:?}");
    }
    for no in [
        "false",
        "no",
        "off",
        "n",
        "<no value>",
        "",
        "  \n",
        "1",
        "-1",
        "truee",
        "TRue",
        "x:y",
    ] {
        assert_eq!(enabled(no), Ok(false), "{no:?}");
    }
    for unclear in [
        "\"true\"",
        "'true'",
        "true # yes",
        "[true]",
        "{a: true}",
        "a: true",
        "- true",
        "true\nfalse",
        "!!bool true",
        "&a true",
        "*a",
        "|",
        "? x",
    ] {
        assert!(
            matches!(enabled(unclear), Err(TemplateError::NotAScalar { .. })),
            "{unclear:?}"
        );
    }
}

#[test]
fn printf_formats_are_read_into_directives() {
    assert_eq!(
        directives("a%-5s%%%3d"),
        vec![
            Directive::Text("a".into()),
            Directive::Verb {
                verb: 's',
                width: 5,
                left: true
            },
            Directive::Percent,
            Directive::Verb {
                verb: 'd',
                width: 3,
                left: false
            },
        ]
    );
    for (format, says) in [
        ("%.2f", "precision"),
        ("%+d", "flag '+'"),
        ("%#v", "flag '#'"),
        ("% d", "flag ' '"),
        ("%*d", "width *"),
        ("%[1]d", "argument index"),
        ("%e", "verb %e"),
        ("%", "ends with %"),
    ] {
        let got = directives(format);
        assert!(
            got.iter()
                .any(|d| matches!(d, Directive::Unsupported(w) if w.contains(says))),
            "{format:?}: {got:?}"
        );
    }
}

/// The function that prints actions cannot be called by a template.
#[test]
fn the_print_function_is_not_callable() {
    let text = format!("{{{{ {PRINT_ACTION} 1 }}}}");
    assert!(matches!(
        render(&text, &serde_json::json!({})),
        Err(TemplateError::UnknownFunction { name, .. }) if name == PRINT_ACTION
    ));
}

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
