//! Selectors: the string syntax, the Kubernetes `LabelSelector` and CAPM3's dialect, each read
//! into kube-core's expressions and matched; every refusal at its path.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use kube::core::Expression;
use serde_json::{Value, json};

use super::*;

/// The tests write their selectors as JSON values, read as the model's view reads a tree.
impl<'a> Tree<'a> for &'a Value {
    fn get(self, key: &str) -> Option<Self> {
        Value::get(self, key)
    }
    fn is_null(self) -> bool {
        Value::is_null(self)
    }
    fn is_object(self) -> bool {
        Value::is_object(self)
    }
    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }
    fn entries(self) -> Option<Vec<(std::borrow::Cow<'a, str>, Self)>> {
        Some(
            self.as_object()?
                .iter()
                .map(|(k, v)| (std::borrow::Cow::Borrowed(k.as_str()), v))
                .collect(),
        )
    }
    fn items(self) -> Option<Vec<Self>> {
        Some(self.as_array()?.iter().collect())
    }
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn eq(k: &str, v: &str) -> Expression {
    Expression::Equal(k.into(), v.into())
}
fn ne(k: &str, v: &str) -> Expression {
    Expression::NotEqual(k.into(), v.into())
}
fn is_in(k: &str, vs: &[&str]) -> Expression {
    Expression::In(k.into(), vs.iter().map(|v| v.to_string()).collect())
}
fn not_in(k: &str, vs: &[&str]) -> Expression {
    Expression::NotIn(k.into(), vs.iter().map(|v| v.to_string()).collect())
}
fn exists(k: &str) -> Expression {
    Expression::Exists(k.into())
}
fn absent(k: &str) -> Expression {
    Expression::DoesNotExist(k.into())
}

// ---- the string syntax ----------------------------------------------------------------------

#[test]
fn parse_table() {
    let cases: Vec<(&str, Vec<Expression>)> = vec![
        ("", vec![]),
        ("   ", vec![]),
        ("a=b", vec![eq("a", "b")]),
        ("a==b", vec![eq("a", "b")]),
        ("a!=b", vec![ne("a", "b")]),
        ("a=", vec![eq("a", "")]),
        ("a", vec![exists("a")]),
        ("!a", vec![absent("a")]),
        ("! a", vec![absent("a")]),
        ("a in (x,y)", vec![is_in("a", &["x", "y"])]),
        ("a in ( x , y )", vec![is_in("a", &["x", "y"])]),
        ("a notin (x)", vec![not_in("a", &["x"])]),
        ("a notin(x,y)", vec![not_in("a", &["x", "y"])]),
        ("a in (x,)", vec![is_in("a", &["x", ""])]),
        (
            "metal3.io/role=worker, rack in (r1,r2),!maintenance,zone , tier!=gold",
            vec![
                eq("metal3.io/role", "worker"),
                is_in("rack", &["r1", "r2"]),
                absent("maintenance"),
                exists("zone"),
                ne("tier", "gold"),
            ],
        ),
        // a key called `in` is still a key
        ("in", vec![exists("in")]),
    ];
    for (input, want) in cases {
        let got = Selector::parse(input);
        assert_eq!(
            got.as_ref().map(|s| s.expressions()),
            Ok(want),
            "parsing {input:?}"
        );
    }
}

#[test]
fn parse_errors() {
    for input in [
        "a=b,",
        ",a",
        "a in ()",
        "a in (x",
        "a in x",
        "a notin",
        "a b",
        "a=b=c",
        "!a=b",
        "!",
        "a in (x y)",
        "a=(b)",
        "(a)",
        "-bad=x",
        "a=-bad",
        "Bad/x=1",
    ] {
        let got = Selector::parse(input);
        assert!(got.is_err(), "{input:?} should not parse, got {got:?}");
    }
}

#[test]
fn parse_error_messages_say_what_is_wrong() {
    let e = Selector::parse("a in ()").unwrap_err();
    assert!(e.contains("at least one value"), "{e}");
    let e = Selector::parse("a in (x").unwrap_err();
    assert!(e.contains("')'"), "{e}");
    let e = Selector::parse("a=b,").unwrap_err();
    assert!(e.contains("label key"), "{e}");
    let e = Selector::parse("a=-bad").unwrap_err();
    assert!(e.contains("label value"), "{e}");
}

#[test]
fn display_round_trips() {
    for input in [
        "a=b",
        "a!=b",
        "a in (x,y)",
        "a notin (x)",
        "a",
        "!a",
        "metal3.io/role=worker,rack in (r1,r2),!maintenance",
    ] {
        let s = Selector::parse(input).unwrap();
        assert_eq!(s.to_string(), input);
        assert_eq!(Selector::parse(&s.to_string()).unwrap(), s);
    }
    assert_eq!(Selector::parse("a==b").unwrap().to_string(), "a=b");
    assert_eq!(Selector::everything().to_string(), "");
}

#[test]
fn match_table() {
    let worker = labels(&[("role", "worker"), ("rack", "r1")]);
    let cp = labels(&[("role", "control-plane"), ("maintenance", "")]);
    let none = labels(&[]);
    let cases: &[(&str, [bool; 3])] = &[
        ("", [true, true, true]),
        ("role=worker", [true, false, false]),
        ("role!=worker", [false, true, true]),
        ("role in (worker,storage)", [true, false, false]),
        ("role notin (worker,storage)", [false, true, true]),
        ("rack", [true, false, false]),
        ("!rack", [false, true, true]),
        ("maintenance", [false, true, false]),
        ("maintenance=", [false, true, false]),
        ("role=worker,rack in (r2,r3)", [false, false, false]),
        ("role=worker,rack in (r1,r3)", [true, false, false]),
    ];
    for (input, want) in cases {
        let s = Selector::parse(input).unwrap();
        let got = [s.matches(&worker), s.matches(&cp), s.matches(&none)];
        assert_eq!(&got, want, "selector {input:?}");
    }
}

#[test]
fn empty_selector() {
    let s = Selector::everything();
    assert!(s.is_empty());
    assert!(s.matches(&labels(&[("x", "y")])));
    assert!(!Selector::parse("x").unwrap().is_empty());
}

// ---- the Kubernetes LabelSelector ---------------------------------------------------------

fn expr(key: &str, op: &str, values: Option<&[&str]>) -> LabelSelectorRequirement {
    LabelSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.map(|v| v.iter().map(|s| s.to_string()).collect()),
    }
}

#[test]
fn from_label_selector_builds_requirements() {
    let ls = LabelSelector {
        match_labels: Some(
            [("role".to_string(), "worker".to_string())]
                .into_iter()
                .collect(),
        ),
        match_expressions: Some(vec![
            expr("rack", "In", Some(&["r1", "r2"])),
            expr("maintenance", "DoesNotExist", None),
            expr("zone", "Exists", Some(&[])),
            expr("tier", "NotIn", Some(&["gold"])),
        ]),
    };
    let s = Selector::from_label_selector(&ls).unwrap();
    assert_eq!(
        s.to_string(),
        "role=worker,rack in (r1,r2),!maintenance,zone,tier notin (gold)"
    );
    assert!(s.matches(&labels(&[
        ("role", "worker"),
        ("rack", "r2"),
        ("zone", "a")
    ])));
    assert!(!s.matches(&labels(&[
        ("role", "worker"),
        ("rack", "r3"),
        ("zone", "a")
    ])));
    assert!(
        Selector::from_label_selector(&LabelSelector::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn from_label_selector_reports_every_problem() {
    let ls = LabelSelector {
        match_labels: Some(
            [("bad key".to_string(), "v".to_string())]
                .into_iter()
                .collect(),
        ),
        match_expressions: Some(vec![
            expr("a", "in", Some(&["x"])),
            expr("b", "In", None),
            expr("c", "NotIn", Some(&[])),
            expr("d", "Exists", Some(&["x"])),
            expr("e", "DoesNotExist", Some(&["y"])),
            expr("f", "In", Some(&["ok"])),
        ]),
    };
    let errors = Selector::from_label_selector(&ls).unwrap_err();
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            // A key with a space is one bracketed segment, as everywhere ipreuse names a key.
            "matchLabels.[bad key]",
            "matchExpressions[0].operator",
            "matchExpressions[1].values",
            "matchExpressions[2].values",
            "matchExpressions[3].values",
            "matchExpressions[4].values",
        ]
    );
    assert!(
        errors[1]
            .message
            .contains("\"in\" is not one of In, NotIn, Exists, DoesNotExist")
    );
    assert!(errors[2].message.contains("In needs at least one value"));
    assert!(errors[4].message.contains("Exists takes no values"));
}

#[test]
fn kubernetes_operators_are_case_sensitive() {
    for (word, ok) in [
        ("In", true),
        ("in", false),
        ("exists", false),
        ("DoesNotExist", true),
        ("gt", false),
        ("!", false),
    ] {
        let values: Option<&[&str]> = match word {
            "In" | "in" | "gt" => Some(&["1"]),
            _ => None,
        };
        let ls = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![expr("k", word, values)]),
        };
        assert_eq!(
            Selector::from_label_selector(&ls).is_ok(),
            ok,
            "operator {word:?}"
        );
    }
}

// ---- CAPM3's dialect ----------------------------------------------------------------------

/// Hosts to match: a worker in rack 7 (with a numeric label `gen: 10`), a control-plane host
/// whose `gen` is not a number, and a host without labels.
fn capm3_hosts() -> [BTreeMap<String, String>; 3] {
    [
        labels(&[("role", "worker"), ("rack", "r7"), ("gen", "10")]),
        labels(&[("role", "control-plane"), ("gen", "ten")]),
        labels(&[]),
    ]
}

#[test]
fn capm3_every_operator_lower_cased_and_matched() {
    // (selector, which of capm3_hosts() it selects)
    let cases: &[(Value, [bool; 3])] = &[
        // An empty selector, or none at all, selects every host.
        (json!({}), [true, true, true]),
        (json!(null), [true, true, true]),
        (
            json!({"matchLabels": {}, "matchExpressions": []}),
            [true, true, true],
        ),
        (
            json!({"matchLabels": {"role": "worker"}}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "in", "values": ["worker", "x"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "In", "values": ["worker"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "notin", "values": ["worker"]}]}),
            [false, true, true],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "NotIn", "values": ["worker"]}]}),
            [false, true, true],
        ),
        (
            json!({"matchExpressions": [{"key": "rack", "operator": "exists", "values": []}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "rack", "operator": "Exists"}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "rack", "operator": "!", "values": []}]}),
            [false, true, true],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "=", "values": ["worker"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "==", "values": ["worker"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "role", "operator": "!=", "values": ["worker"]}]}),
            [false, true, true],
        ),
        // gt / lt compare integers; a label that is no integer, or none, never matches.
        (
            json!({"matchExpressions": [{"key": "gen", "operator": "gt", "values": ["9"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["10"]}]}),
            [false, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "gen", "operator": "lt", "values": ["11"]}]}),
            [true, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "gen", "operator": "LT", "values": ["10"]}]}),
            [false, false, false],
        ),
        (
            json!({"matchExpressions": [{"key": "gen", "operator": "lt", "values": ["0100"]}]}),
            [true, false, false],
        ),
        // matchLabels and expressions together: all must hold.
        (
            json!({"matchLabels": {"role": "worker"}, "matchExpressions": [{"key": "rack", "operator": "in", "values": ["r1"]}]}),
            [false, false, false],
        ),
        (
            json!({"matchLabels": {"role": "worker"}, "matchExpressions": [
                {"key": "rack", "operator": "in", "values": ["r7"]},
                {"key": "gen", "operator": "gt", "values": ["2"]},
                {"key": "maintenance", "operator": "!", "values": []},
            ]}),
            [true, false, false],
        ),
    ];
    let hosts = capm3_hosts();
    for (selector, want) in cases {
        let s =
            Selector::from_capm3(Some(selector)).unwrap_or_else(|e| panic!("{selector}: {e:?}"));
        let got = [
            s.matches(&hosts[0]),
            s.matches(&hosts[1]),
            s.matches(&hosts[2]),
        ];
        assert_eq!(&got, want, "{selector}");
    }
}

#[test]
fn capm3_refusals_at_their_paths() {
    // (selector, path of the one error, words of its message)
    let cases: &[(Value, &str, &[&str])] = &[
        (
            json!({"matchExpressions": [{"key": "a", "operator": "DoesNotExist", "values": []}]}),
            "matchExpressions[0].operator",
            &["\"DoesNotExist\"", "\"!\""],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "doesnotexist"}]}),
            "matchExpressions[0].operator",
            &["write operator: \"!\""],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "Equals", "values": ["x"]}]}),
            "matchExpressions[0].operator",
            &["not an operator CAPM3 accepts", "gt, lt"],
        ),
        // Value counts.
        (
            json!({"matchExpressions": [{"key": "a", "operator": "in", "values": []}]}),
            "matchExpressions[0].values",
            &["in needs at least one value"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "notin"}]}),
            "matchExpressions[0].values",
            &["notin needs at least one value"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "=", "values": ["x", "y"]}]}),
            "matchExpressions[0].values",
            &["= takes exactly one value, found 2"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "==", "values": []}]}),
            "matchExpressions[0].values",
            &["== takes exactly one value, found 0"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "!=", "values": ["x", "y"]}]}),
            "matchExpressions[0].values",
            &["!= takes exactly one value"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "gt", "values": ["1", "2"]}]}),
            "matchExpressions[0].values",
            &["gt takes exactly one value, found 2"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "lt"}]}),
            "matchExpressions[0].values",
            &["lt takes exactly one value, found 0"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "exists", "values": ["x"]}]}),
            "matchExpressions[0].values",
            &["exists takes no values"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "!", "values": ["x"]}]}),
            "matchExpressions[0].values",
            &["! takes no values"],
        ),
        // gt / lt on values that are not integers.
        (
            json!({"matchExpressions": [{"key": "a", "operator": "gt", "values": ["ten"]}]}),
            "matchExpressions[0].values[0]",
            &[
                "\"ten\" is not an integer",
                "gt compares label values as integers",
            ],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "lt", "values": ["1.5"]}]}),
            "matchExpressions[0].values[0]",
            &["\"1.5\" is not an integer"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "gt", "values": ["99999999999999999999"]}]}),
            "matchExpressions[0].values[0]",
            &["is not an integer"],
        ),
        // Keys and values Kubernetes refuses, and shapes.
        (
            json!({"matchLabels": {"example.com/bad key": "x"}}),
            "matchLabels.[example.com/bad key]",
            &["not a valid label key"],
        ),
        (
            json!({"matchLabels": {"rack": "-r1"}}),
            "matchLabels.rack",
            &["not a valid label value"],
        ),
        (
            json!({"matchLabels": {"rack": 7}}),
            "matchLabels.rack",
            &["must be a string"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "in", "values": ["ok", "-no"]}]}),
            "matchExpressions[0].values[1]",
            &["not a valid label value"],
        ),
        (
            json!({"matchExpressions": [{"operator": "exists"}]}),
            "matchExpressions[0].key",
            &["is required"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": 3}]}),
            "matchExpressions[0].operator",
            &["must be a string"],
        ),
        (
            json!({"matchExpressions": [{"key": "a", "operator": "in", "values": "x"}]}),
            "matchExpressions[0].values",
            &["must be a list of strings"],
        ),
        (
            json!({"matchExpressions": ["a=b"]}),
            "matchExpressions[0]",
            &["must be a mapping"],
        ),
        (
            json!({"matchExpressions": {"key": "a"}}),
            "matchExpressions",
            &["must be a list"],
        ),
        (
            json!({"matchLabels": ["a"]}),
            "matchLabels",
            &["must be a map"],
        ),
        (json!("role=worker"), "", &["must be a label selector"]),
    ];
    for (selector, path, says) in cases {
        let errors = Selector::from_capm3(Some(selector))
            .err()
            .unwrap_or_else(|| panic!("{selector} should be refused"));
        assert_eq!(errors.len(), 1, "{selector}: {errors:?}");
        assert_eq!(errors[0].path, *path, "{selector}");
        for s in *says {
            assert!(
                errors[0].message.contains(s),
                "{selector}: {}",
                errors[0].message
            );
        }
    }
}

#[test]
fn capm3_reports_every_problem_at_once() {
    let s = json!({"matchLabels": {"ok": "v", "bad": "-"}, "matchExpressions": [
        {"key": "a", "operator": "DoesNotExist"},
        {"key": "b", "operator": "in", "values": ["x"]},
        {"key": "c", "operator": "gt", "values": ["x"]},
    ]});
    let errors = Selector::from_capm3(Some(&s)).unwrap_err();
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "matchLabels.bad",
            "matchExpressions[0].operator",
            "matchExpressions[2].values[0]"
        ]
    );
    assert_eq!(
        errors[1].path_under("spec.template.spec.hostSelector"),
        "spec.template.spec.hostSelector.matchExpressions[0].operator"
    );
    assert_eq!(
        SelectorError {
            path: String::new(),
            message: String::new()
        }
        .path_under("spec.x"),
        "spec.x"
    );
}

#[test]
fn capm3_selector_prints_gt_and_lt_after_kube_core_requirements() {
    let s = json!({"matchLabels": {"role": "worker"}, "matchExpressions": [
        {"key": "gen", "operator": "gt", "values": ["2"]},
        {"key": "rack", "operator": "In", "values": ["r2", "r1"]},
        {"key": "gen", "operator": "lt", "values": ["9"]},
    ]});
    let s = Selector::from_capm3(Some(&s)).unwrap();
    assert_eq!(s.to_string(), "role=worker,rack in (r1,r2),gen>2,gen<9");
    assert_eq!(
        s.expressions(),
        [eq("role", "worker"), is_in("rack", &["r1", "r2"])]
    );
    assert!(!s.is_empty());
}
