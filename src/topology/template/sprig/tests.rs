//! Unit tests of sprig's functions; the expected values are what sprig v3.2.3 gives under Go
//! 1.19 (tests/it/go_fmt_sprig.rs compares thousands more against Go itself).

use std::rc::Rc;

use super::*;
use crate::topology::template::fmt::print_value;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn call(name: &str, args: &[Value]) -> Result<String, FuncError> {
    let limits = Limits::default();
    let value = match (lookup(name), lookup_metered(name)) {
        (Some(f), None) => f(&limits, args),
        (None, Some(f)) => f(&limits, &mut Meter::new(limits.steps, limits.steps), args),
        _ => panic!("{name} is one function"),
    };
    value.and_then(|v| print_value(&v, &limits))
}

#[test]
fn every_name_has_a_function() {
    for name in NAMES {
        assert!(
            lookup(name).is_some() != lookup_metered(name).is_some(),
            "{name}"
        );
    }
    assert!(lookup("env").is_none() && lookup_metered("env").is_none());
}

#[test]
fn a_regular_expression_takes_its_steps_before_it_compiles_and_searches() {
    let limits = Limits::default();
    let mut meter = Meter::new(1_000_000, 1_000_000);
    let args = [s("a+b"), s(&"a".repeat(1000))];
    assert_eq!(
        regex_match(&limits, &mut meter, &args),
        Ok(Value::Bool(false))
    );
    let one = meter.used();
    assert!(
        one > 1000 / 8,
        "the search is paid by the text's length: {one}"
    );
    // a thousand states compiled: paid before it is built
    let mut meter = Meter::new(1000, 1000);
    assert!(matches!(
        regex_match(&limits, &mut meter, &[s("[a-z]{1000}"), s("abc")]),
        Err(FuncError::Limit { .. })
    ));
    // each search of an iteration is paid, from where it starts
    let mut meter = Meter::new(1_000_000, 1_000_000);
    let args = [s("a"), s(&"a".repeat(1000)), Value::Int(-1)];
    let found = regex_find_all(&limits, &mut meter, &args).expect("found");
    assert!(matches!(&found, Value::List(items, _) if items.len() == 1000));
    assert!(meter.used() > 1000 * 1000 / 2 / 8, "{}", meter.used());
}

#[test]
fn strings_take_sprigs_argument_order_and_types() {
    assert_eq!(call("contains", &[s("b"), s("abc")]).unwrap(), "true");
    assert_eq!(call("hasPrefix", &[s("ab"), s("abc")]).unwrap(), "true");
    assert_eq!(
        call("replace", &[s("a"), s("xy"), s("banana")]).unwrap(),
        "bxynxynxy"
    );
    assert_eq!(call("replace", &[s(""), s("-"), s("ab")]).unwrap(), "-a-b-");
    assert_eq!(
        call("upper", &[Value::Float(1.0)]),
        Err(FuncError::Failed(
            "wrong type for value; expected string; got float64".into()
        ))
    );
    assert_eq!(
        call("upper", &[Value::Missing]),
        Err(FuncError::Failed("invalid value; expected string".into()))
    );
    assert_eq!(
        call("split", &[s(","), s("a,,b")]).unwrap(),
        "map[_0:a _1: _2:b]"
    );
    assert_eq!(call("splitList", &[s(""), s("ab")]).unwrap(), "[a b]");
    let l = Value::List(
        Rc::new(vec![s("a"), Value::Nil, Value::Float(1e6)]),
        Elem::Any,
    );
    assert_eq!(call("join", &[s("-"), l]).unwrap(), "a-1e+06");
    assert_eq!(
        call("quote", &[s("a\"b"), Value::Nil, Value::Int(3)]).unwrap(),
        "\"a\\\"b\" \"3\""
    );
    assert_eq!(
        call("squote", &[s("a"), Value::Float(2.5)]).unwrap(),
        "'a' '2.5'"
    );
    assert_eq!(call("nospace", &[s(" a b\tà")]).unwrap(), "ab\u{c3}");
    assert_eq!(call("trimAll", &[s("-x"), s("x-a-x")]).unwrap(), "a");
}

#[test]
fn defaults_dicts_and_ternary() {
    assert_eq!(call("default", &[s("d"), Value::Missing]).unwrap(), "d");
    assert_eq!(call("default", &[s("d"), Value::Float(0.0)]).unwrap(), "d");
    assert_eq!(call("default", &[s("d"), s("x")]).unwrap(), "x");
    assert_eq!(
        call("coalesce", &[Value::Missing, s(""), Value::Int(2)]).unwrap(),
        "2"
    );
    assert_eq!(call("coalesce", &[Value::Missing]).unwrap(), "<no value>");
    assert_eq!(
        call("ternary", &[s("a"), s("b"), Value::Bool(false)]).unwrap(),
        "b"
    );
    assert_eq!(
        call("ternary", &[s("a"), s("b"), s("true")]),
        Err(FuncError::Failed(
            "wrong type for value; expected bool; got string".into()
        ))
    );
    let d = Value::Map(
        Rc::new([("k".to_string(), Value::Float(1.0))].into_iter().collect()),
        Elem::Any,
    );
    assert_eq!(call("get", &[d.clone(), s("k")]).unwrap(), "1");
    assert_eq!(call("get", &[d.clone(), s("z")]).unwrap(), "");
    assert_eq!(call("hasKey", &[d, s("k")]).unwrap(), "true");
    assert_eq!(
        call("dict", &[s("a"), Value::Int(1), Value::Float(2.0)]).unwrap(),
        "map[2: a:1]"
    );
    assert_eq!(
        call("empty", &[Value::List(Rc::new(vec![]), Elem::Any)]).unwrap(),
        "true"
    );
}

#[test]
fn semver_is_masterminds_new_version() {
    let v = new_version("v1.2").unwrap();
    assert_eq!(
        (v.major, v.minor, v.patch, v.original.as_str()),
        (1, 2, 0, "v1.2")
    );
    let v = new_version("1.2.3-rc.1+build.5").unwrap();
    assert_eq!(
        (v.prerelease.as_str(), v.metadata.as_str()),
        ("rc.1", "build.5")
    );
    assert_eq!(call("semver", &[s("01.2.3")]).unwrap(), "1.2.3");
    for bad in [
        "",
        "v",
        "1.2.3.4",
        "1.",
        "a1",
        "1.2.3-",
        "1.2.3-01",
        "1.2.3+",
        "1.2.3-a..b",
    ] {
        assert!(new_version(bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        new_version("1.2.3-01").unwrap_err(),
        "Version segment starts with 0"
    );
    assert_eq!(
        call("semverCompare", &[s(">=1.2"), s("v1.3.0")]).unwrap(),
        "true"
    );
}

#[test]
fn regexes_are_go_re2() {
    assert_eq!(
        call("regexMatch", &[s(r"^\d+$"), s("123")]).unwrap(),
        "true"
    );
    // Go's \d is ASCII.
    assert_eq!(call("regexMatch", &[s(r"^\d$"), s("٣")]).unwrap(), "false");
    // Go refuses these: regexMatch is false, regexReplaceAll an error.
    for bad in [
        "(",
        "a**",
        r"\1",
        "(?<n>a)",
        "(?x)a",
        "a{1001}",
        "[z-a]",
        "(a{10}){101}",
    ] {
        assert_eq!(
            call("regexMatch", &[s(bad), s("a")]).unwrap(),
            "false",
            "{bad}"
        );
        let e = call("regexReplaceAll", &[s(bad), s("a"), s("")]);
        assert!(
            matches!(&e, Err(FuncError::Failed(m)) if m.starts_with("regexp: Compile(")),
            "{bad}: {e:?}"
        );
    }
    // Go reads these, differently from the crate's own syntax.
    assert_eq!(
        call("regexReplaceAll", &[s("a{,2}"), s("a{,2}a"), s("X")]).unwrap(),
        "Xa"
    );
    assert_eq!(
        call("regexReplaceAll", &[s(r"\Q.*\E"), s("a.*"), s("X")]).unwrap(),
        "aX"
    );
    assert_eq!(
        call("regexReplaceAll", &[s(r"\101"), s("BAB"), s("x")]).unwrap(),
        "BxB"
    );
    assert_eq!(
        call(
            "regexReplaceAll",
            &[
                s("(?P<first>[a-z]+)-(\\d+)"),
                s("ab-12 cd-3"),
                s("${2}=$first$1x$$")
            ]
        )
        .unwrap(),
        "12=ab$ 3=cd$"
    );
    assert_eq!(
        call("regexReplaceAll", &[s("a*"), s("baaab"), s("-")]).unwrap(),
        "-b-b-"
    );
    assert!(matches!(
        call("regexMatch", &[s(r"\p{Greek}"), s("a")]),
        Err(FuncError::Unsupported(_))
    ));
}

#[test]
fn growth_is_bounded_before_allocation() {
    let limits = Limits {
        string_bytes: 1000,
        ..Limits::default()
    };
    let mut v = s("aaaaaaaaaa");
    let mut stopped = false;
    for _ in 0..10 {
        match replace(&limits, &[s("a"), s("aaaaaaaaaa"), v.clone()]) {
            Ok(next) => v = next,
            Err(FuncError::Limit { .. }) => {
                stopped = true;
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(stopped);
    assert!(matches!(
        repeat(&limits, &[Value::Int(1001), s("a")]),
        Err(FuncError::Limit { .. })
    ));
    assert!(matches!(
        regex_replace_all(
            &limits,
            &mut Meter::new(limits.steps, limits.steps),
            &[s("a"), s(&"a".repeat(100)), s("$0$0$0$0$0$0$0$0$0$0$0")]
        ),
        Err(FuncError::Limit { .. })
    ));
}

#[test]
fn greed_and_case_folded_classes_are_gos() {
    // (?U) before a repetition makes it lazy, as Go decides greed where it reads the operator.
    assert_eq!(
        call("regexReplaceAll", &[s("a(?U)*"), s("aa"), s("<$0>")]).unwrap(),
        "<>a<>a<>"
    );
    // Go folds \w (which then holds the Kelvin sign) before negating it: (?i)\W matches the
    // space only.
    assert_eq!(
        call("regexReplaceAll", &[s(r"(?i)\W"), s("k K\u{212a}"), s("-")]).unwrap(),
        "k-K\u{212a}"
    );
}

#[test]
fn groups_inside_a_zero_repetition_keep_their_numbers() {
    // Go numbers (a) and (b) 1 and 2 although (a){0} never matches; the crate drops the group
    // inside {0} unless it is kept.
    assert_eq!(
        call("regexReplaceAll", &[s("(a){0}(b)"), s("xbx"), s("<$1|$2>")]).unwrap(),
        "x<|b>x"
    );
}

#[test]
fn case_mapping_is_gos_rune_by_rune() {
    // Go keeps ß (no one-rune upper case), lowers İ to i, and has no upper case for ƛ
    // (Unicode 16 gave it one).
    assert_eq!(call("upper", &[s("straße ƛ é")]).unwrap(), "STRAßE ƛ É");
    assert_eq!(call("lower", &[s("İSTANBUL Ǆ")]).unwrap(), "istanbul ǆ");
}

#[test]
fn cat_indent_b64enc_and_finds() {
    assert_eq!(
        call(
            "cat",
            &[s("a"), Value::Nil, Value::Float(2.0), Value::Bool(true)]
        )
        .unwrap(),
        "a 2 true"
    );
    assert_eq!(
        call("indent", &[Value::Int(2), s("a\nb")]).unwrap(),
        "  a\n  b"
    );
    assert_eq!(call("nindent", &[Value::Int(1), s("a")]).unwrap(), "\n a");
    assert_eq!(
        call("indent", &[Value::Float(2.0), s("a")]),
        Err(FuncError::Failed(
            "wrong type for value; expected int; got float64".into()
        ))
    );
    assert_eq!(call("b64enc", &[s("hé")]).unwrap(), "aMOp");
    assert_eq!(
        call("regexFind", &[s(r"\d+"), s("ab12cd345")]).unwrap(),
        "12"
    );
    assert_eq!(
        call("regexFindAll", &[s(r"\d+"), s("ab12cd345"), Value::Int(-1)]).unwrap(),
        "[12 345]"
    );
    assert_eq!(
        call("regexFindAll", &[s("a*"), s("baaab"), Value::Int(9)]).unwrap(),
        "[ aaa ]"
    );
}

#[test]
fn splitting_into_many_parts_is_bounded() {
    let limits = Limits {
        string_bytes: 1000,
        ..Limits::default()
    };
    let commas = s(&",".repeat(500));
    assert!(matches!(
        split(&limits, &[s(","), commas.clone()]),
        Err(FuncError::Limit { .. })
    ));
    assert!(matches!(
        split_list(&limits, &[s(","), commas]),
        Err(FuncError::Limit { .. })
    ));
    assert!(split_list(&limits, &[s(","), s("a,b,c")]).is_ok());
}
