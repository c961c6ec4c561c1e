//! Unit tests of Go's fmt on template values; every expected text is what Go 1.19 prints
//! (the differential test, tests/it/go_fmt_sprig.rs, compares thousands more against Go itself).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::*;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn list(items: Vec<Value>) -> Value {
    Value::List(Rc::new(items), Elem::Any)
}

fn printf(format: &str, args: Vec<Value>) -> String {
    let mut all = vec![s(format)];
    all.extend(args);
    match sprintf(&Limits::default(), &all) {
        Ok(Value::String(out)) => out.to_string(),
        other => panic!("printf {format:?}: {other:?}"),
    }
}

#[test]
fn floats_print_as_go_v() {
    let l = Limits::default();
    for (f, want) in [
        (1.0, "1"),
        (100000.0, "100000"),
        (1000000.0, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (-0.0, "-0"),
        (1e21, "1e+21"),
        (0.1 + 0.2, "0.30000000000000004"),
        (f64::INFINITY, "+Inf"),
        (f64::NAN, "NaN"),
    ] {
        assert_eq!(print_value(&Value::Float(f), &l).unwrap(), want, "{f}");
    }
}

#[test]
fn actions_print_missing_nil_lists_maps_and_versions() {
    let l = Limits::default();
    assert_eq!(print_value(&Value::Missing, &l).unwrap(), "<no value>");
    assert_eq!(print_value(&Value::Nil, &l).unwrap(), "<no value>");
    let map: BTreeMap<String, Value> = [
        ("b".to_string(), Value::Float(2.0)),
        (
            "a".to_string(),
            list(vec![Value::Nil, s("x"), Value::Bool(true)]),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        print_value(&Value::Map(Rc::new(map), Elem::Any), &l).unwrap(),
        "map[a:[<nil> x true] b:2]"
    );
    let v = Value::Version(Rc::new(Version {
        major: 1,
        minor: 2,
        patch: 3,
        prerelease: "rc.1".into(),
        metadata: "b".into(),
        original: "v1.2.3-rc.1+b".into(),
    }));
    assert_eq!(print_value(&v, &l).unwrap(), "1.2.3-rc.1+b");
    assert_eq!(
        printf("%d", vec![v.clone()]),
        "&{1 2 3 %!d(string=rc.1) %!d(string=b) %!d(string=v1.2.3-rc.1+b)}"
    );
    assert_eq!(
        printf("%T %q", vec![v.clone(), v]),
        "*semver.Version \"1.2.3-rc.1+b\""
    );
}

#[test]
fn unknown_builtins_are_errors() {
    let l = Limits::default();
    let u = Value::Unknown(Rc::from("builtin.cluster.uid"));
    assert_eq!(
        print_value(&list(vec![u.clone()]), &l),
        Err(FuncError::Unknown("builtin.cluster.uid".into()))
    );
    assert!(matches!(
        sprintf(&l, &[s("%v"), u]),
        Err(FuncError::Unknown(_))
    ));
}

#[test]
fn sprint_spaces_between_non_strings() {
    let l = Limits::default();
    let out = sprint(
        &l,
        &[
            Value::Float(1.0),
            Value::Float(2.0),
            s("a"),
            Value::Int(3),
            s("b"),
        ],
    )
    .unwrap();
    assert_eq!(out, s("1 2a3b"));
    let out = sprintln(&l, &[s("a"), Value::Nil, Value::Int(3)]).unwrap();
    assert_eq!(out, s("a <nil> 3\n"));
}

#[test]
fn bad_verbs_missing_and_extra_arguments_as_go() {
    assert_eq!(printf("%d", vec![s("hi")]), "%!d(string=hi)");
    assert_eq!(printf("%5d", vec![s("hi")]), "%!d(string=   hi)");
    assert_eq!(printf("%d", vec![Value::Float(3.0)]), "%!d(float64=3)");
    assert_eq!(
        printf("%d", vec![list(vec![Value::Float(1.0)])]),
        "[%!d(float64=1)]"
    );
    assert_eq!(printf("%d", vec![Value::Nil]), "%!d(<nil>)");
    assert_eq!(printf("%s %s", vec![s("a")]), "a %!s(MISSING)");
    assert_eq!(
        printf("%s", vec![s("a"), Value::Int(1), Value::Nil]),
        "a%!(EXTRA int=1, <nil>)"
    );
    assert_eq!(
        printf("%5s|", vec![list(vec![s("a"), s("bc")])]),
        "[    a    bc]|"
    );
    assert_eq!(printf("%!", vec![]), "%!!(MISSING)");
    assert_eq!(printf("%", vec![]), "%!(NOVERB)");
    assert_eq!(
        printf("%[2]d %[1]d", vec![Value::Int(1), Value::Int(2)]),
        "2 1"
    );
    assert_eq!(printf("%[3]d", vec![Value::Int(1)]), "%!d(BADINDEX)");
    assert_eq!(printf("%*d|", vec![Value::Int(-4), Value::Int(7)]), "7   |");
    assert_eq!(
        printf("%*d", vec![Value::Float(4.0), Value::Int(7)]),
        "%!(BADWIDTH)7"
    );
}

#[test]
fn numbers_under_every_verb() {
    assert_eq!(
        printf(
            "%08.3f|%+e|%G",
            vec![
                Value::Float(-3.24159),
                Value::Float(1234.5),
                Value::Float(1e-7)
            ]
        ),
        "-003.242|+1.234500e+03|1E-07"
    );
    assert_eq!(
        printf(
            "%#x %#o %b %O",
            vec![Value::Int(255), Value::Int(8), Value::Int(5), Value::Int(8)]
        ),
        "0xff 010 101 0o10"
    );
    assert_eq!(
        printf("%x %X", vec![Value::Float(1.0), Value::Float(-0.5)]),
        "0x1p+00 -0X1P-01"
    );
    assert_eq!(
        printf("%b", vec![Value::Float(1.0)]),
        "4503599627370496p-52"
    );
    assert_eq!(
        printf(
            "%#g %.3g %g",
            vec![
                Value::Float(1.0),
                Value::Float(1234.5678),
                Value::Float(100000000.0)
            ]
        ),
        "1.00000 1.23e+03 1e+08"
    );
    assert_eq!(
        printf(
            "%c%U %#U %q",
            vec![
                Value::Int(65),
                Value::Int(0x1F600),
                Value::Int(0x41),
                Value::Int(0x263A)
            ]
        ),
        "AU+1F600 U+0041 'A' '☺'"
    );
    assert_eq!(
        printf("%x % X %#x", vec![s("hi"), s("hi"), s("")]),
        "6869 68 69 "
    );
    assert_eq!(
        printf("%q %+q %#q", vec![s("a\"é\n"), s("é"), s("x`")]),
        "\"a\\\"é\\n\" \"\\u00e9\" \"x`\""
    );
    assert_eq!(
        printf(
            "%.2s|%-4t|%05d",
            vec![s("héllo"), Value::Bool(true), Value::Int(-42)]
        ),
        "hé|true|-0042"
    );
    assert_eq!(
        printf(
            "%#v",
            vec![list(vec![s("a"), Value::Float(1.0), Value::Nil])]
        ),
        "[]interface {}{\"a\", 1, interface {}(nil)}"
    );
}

#[test]
fn widths_are_bounded_before_allocation() {
    let small = Limits {
        string_bytes: 100,
        ..Limits::default()
    };
    let r = sprintf(&small, &[s("%500d"), Value::Int(1)]);
    assert!(matches!(r, Err(FuncError::Limit { .. })), "{r:?}");
    let r = sprintf(&small, &[s("%.500f"), Value::Float(1.0)]);
    assert!(matches!(r, Err(FuncError::Limit { .. })), "{r:?}");
    assert_eq!(sprintf(&small, &[s("%.500s"), s("ab")]), Ok(s("ab")));
}

#[test]
fn pointers_are_unsupported() {
    let l = Limits::default();
    assert!(matches!(
        sprintf(&l, &[s("%p"), list(vec![])]),
        Err(FuncError::Unsupported(_))
    ));
    assert!(check_format("%p").is_err());
    assert!(check_format("%-5.2[1]p").is_err());
    assert!(check_format("%5d %s %%p").is_ok());
}

#[test]
fn strval_is_sprigs() {
    let l = Limits::default();
    assert_eq!(strval(&Value::Float(1e6), &l).unwrap(), "1e+06");
    assert_eq!(strval(&s("x"), &l).unwrap(), "x");
    assert_eq!(strval(&Value::Nil, &l).unwrap(), "<nil>");
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let mut v = Value::Float(1.0);
    for _ in 0..300 {
        v = list(vec![v]);
    }
    let r = print_value(&v, &Limits::default());
    assert!(matches!(r, Err(FuncError::Unsupported(_))), "{r:?}");
    let mut v = Value::Float(1.0);
    for _ in 0..199 {
        v = list(vec![v]);
    }
    let out = print_value(&v, &Limits::default()).unwrap();
    assert_eq!(out.len(), 199 * 2 + 1);
}
