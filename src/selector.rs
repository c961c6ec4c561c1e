//! Label selectors over BareMetalHost labels.
//!
//! A [`Selector`] is a list of [`Requirement`]s that must all hold. It is built in one
//! of two ways, each with its own *dialect* (the rules for spelling operators):
//!
//! - [`Selector::from_label_selector`]: a Kubernetes `LabelSelector`
//!   (`matchLabels` are equalities; `matchExpressions` operators are the case-sensitive
//!   `In`, `NotIn`, `Exists`, `DoesNotExist`), as used by the functionConfig's
//!   `spec.hostSelector`.
//! - [`Selector::parse`]: the Kubernetes selector string syntax
//!   (`key=value,key==value,key!=value,key in (a,b),key notin (a,b),key,!key`), as used by
//!   the ConfigMap functionConfig's `data.hostSelector`.
//!
//! CAPM3's own dialect for `Metal3MachineTemplate` `spec.template.spec.hostSelector`
//! (operators lower-cased before use) is not built yet; it belongs here as a further
//! constructor (`Selector::from_capm3_host_selector`) producing the same [`Requirement`]s,
//! so that matching stays in one place ([`Selector::matches`]).
//!
//! Matching follows Kubernetes: an empty selector matches everything; `NotIn`,
//! `NotEquals` and `DoesNotExist` hold for a host without the label.

use std::collections::BTreeMap;
use std::fmt;

use crate::names::is_dns1123_subdomain;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// How a [`Requirement`] compares a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// The label is present and its value is one of the values.
    In,
    /// The label is absent, or its value is none of the values.
    NotIn,
    /// The label is present.
    Exists,
    /// The label is absent.
    DoesNotExist,
    /// The label is present and equals the single value (`matchLabels`, `key=value`).
    Equals,
    /// The label is absent, or differs from the single value (`key!=value`).
    NotEquals,
}

impl Operator {
    /// The `matchExpressions` operators of the Kubernetes dialect, as written there.
    pub const KUBERNETES_EXPRESSION_OPERATORS: [(&'static str, Operator); 4] = [
        ("In", Operator::In),
        ("NotIn", Operator::NotIn),
        ("Exists", Operator::Exists),
        ("DoesNotExist", Operator::DoesNotExist),
    ];

    /// Parses a Kubernetes `matchExpressions` operator (case-sensitive).
    pub fn from_kubernetes(op: &str) -> Option<Operator> {
        Self::KUBERNETES_EXPRESSION_OPERATORS
            .iter()
            .find(|(name, _)| *name == op)
            .map(|(_, o)| *o)
    }
}

/// One condition on one label key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Requirement {
    pub key: String,
    pub operator: Operator,
    /// The values: several for `In`/`NotIn`, exactly one for `Equals`/`NotEquals`,
    /// none for `Exists`/`DoesNotExist`.
    pub values: Vec<String>,
}

impl Requirement {
    /// Whether the labels satisfy this requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let value = labels.get(&self.key);
        let listed = |v: &String| self.values.iter().any(|x| x == v);
        match self.operator {
            Operator::In | Operator::Equals => value.is_some_and(listed),
            Operator::NotIn | Operator::NotEquals => !value.is_some_and(listed),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self.values.first().map(String::as_str).unwrap_or("");
        match self.operator {
            Operator::Equals => write!(f, "{}={}", self.key, first),
            Operator::NotEquals => write!(f, "{}!={}", self.key, first),
            Operator::In => write!(f, "{} in ({})", self.key, self.values.join(",")),
            Operator::NotIn => write!(f, "{} notin ({})", self.key, self.values.join(",")),
            Operator::Exists => write!(f, "{}", self.key),
            Operator::DoesNotExist => write!(f, "!{}", self.key),
        }
    }
}

/// A problem in a `LabelSelector`: `path` is relative to the selector
/// (e.g. `matchExpressions[0].operator`), `message` says what is wrong without the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub path: String,
    pub message: String,
}

/// A conjunction of label requirements. The empty selector matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

/// The string syntax, for error messages.
pub const STRING_SYNTAX: &str =
    "key=value, key==value, key!=value, key in (a,b), key notin (a,b), key, !key (comma-separated)";

impl Selector {
    /// The selector that matches everything.
    pub fn everything() -> Selector {
        Selector::default()
    }

    /// A selector from requirements as they are (no validation).
    pub fn from_requirements(requirements: Vec<Requirement>) -> Selector {
        Selector { requirements }
    }

    /// The requirements, in the order they were given (`matchLabels` by key, then
    /// `matchExpressions`).
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// True when the selector has no requirement (and so matches everything).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// Whether every requirement holds for the labels.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Kubernetes dialect: a `LabelSelector` as the API server accepts it.
    ///
    /// `matchLabels` become `Equals`; `matchExpressions` operators must be exactly `In`,
    /// `NotIn`, `Exists` or `DoesNotExist`; `In`/`NotIn` need values, `Exists`/`DoesNotExist`
    /// must have none; keys and values must be valid label keys and values. Every problem
    /// is reported.
    pub fn from_label_selector(selector: &LabelSelector) -> Result<Selector, Vec<SelectorError>> {
        let mut requirements = Vec::new();
        let mut errors = Vec::new();
        for (key, value) in selector.match_labels.iter().flatten() {
            let path = format!("matchLabels.{key}");
            let mut ok = true;
            if let Err(e) = validate_key(key) {
                errors.push(SelectorError {
                    path: path.clone(),
                    message: e,
                });
                ok = false;
            }
            if let Err(e) = validate_value(value) {
                errors.push(SelectorError {
                    path: path.clone(),
                    message: e,
                });
                ok = false;
            }
            if ok {
                requirements.push(Requirement {
                    key: key.clone(),
                    operator: Operator::Equals,
                    values: vec![value.clone()],
                });
            }
        }
        for (i, expr) in selector.match_expressions.iter().flatten().enumerate() {
            let base = format!("matchExpressions[{i}]");
            let before = errors.len();
            if let Err(e) = validate_key(&expr.key) {
                errors.push(SelectorError {
                    path: format!("{base}.key"),
                    message: e,
                });
            }
            let values = expr.values.clone().unwrap_or_default();
            for (j, v) in values.iter().enumerate() {
                if let Err(e) = validate_value(v) {
                    errors.push(SelectorError {
                        path: format!("{base}.values[{j}]"),
                        message: e,
                    });
                }
            }
            match Operator::from_kubernetes(&expr.operator) {
                None => errors.push(SelectorError {
                    path: format!("{base}.operator"),
                    message: format!(
                        "{:?} is not one of In, NotIn, Exists, DoesNotExist (case-sensitive)",
                        expr.operator
                    ),
                }),
                Some(op @ (Operator::In | Operator::NotIn)) if values.is_empty() => {
                    errors.push(SelectorError {
                        path: format!("{base}.values"),
                        message: format!("operator {} needs at least one value", op_name(op)),
                    })
                }
                Some(op @ (Operator::Exists | Operator::DoesNotExist)) if !values.is_empty() => {
                    errors.push(SelectorError {
                        path: format!("{base}.values"),
                        message: format!(
                            "operator {} takes no values, found {:?}",
                            op_name(op),
                            values
                        ),
                    })
                }
                Some(operator) => {
                    if errors.len() == before {
                        requirements.push(Requirement {
                            key: expr.key.clone(),
                            operator,
                            values,
                        });
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(Selector { requirements })
        } else {
            Err(errors)
        }
    }

    /// Parses the Kubernetes selector string syntax:
    /// `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key`,
    /// `!key`, separated by commas (commas inside parentheses do not split). Whitespace
    /// around tokens is ignored; an empty or blank string is the empty selector.
    /// The error says what was wrong, without repeating the input.
    pub fn parse(input: &str) -> Result<Selector, String> {
        let tokens = lex(input);
        let mut p = Parser { tokens, pos: 0 };
        let mut requirements = Vec::new();
        if p.peek().is_none() {
            return Ok(Selector::default());
        }
        loop {
            requirements.push(p.requirement()?);
            match p.next() {
                None => break,
                Some(Token::Comma) => {}
                Some(t) => return Err(format!("expected ',' or the end, found {}", t.describe())),
            }
        }
        for r in &requirements {
            validate_key(&r.key)?;
            for v in &r.values {
                validate_value(v)?;
            }
        }
        Ok(Selector { requirements })
    }
}

impl fmt::Display for Selector {
    /// The string syntax accepted by [`Selector::parse`]; empty for the empty selector.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

fn op_name(op: Operator) -> &'static str {
    match op {
        Operator::In => "In",
        Operator::NotIn => "NotIn",
        Operator::Exists => "Exists",
        Operator::DoesNotExist => "DoesNotExist",
        Operator::Equals => "=",
        Operator::NotEquals => "!=",
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    Bang,
    Eq,
    DoubleEq,
    NotEq,
    Open,
    Close,
    Comma,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Ident(s) => format!("{s:?}"),
            Token::Bang => "'!'".into(),
            Token::Eq => "'='".into(),
            Token::DoubleEq => "'=='".into(),
            Token::NotEq => "'!='".into(),
            Token::Open => "'('".into(),
            Token::Close => "')'".into(),
            Token::Comma => "','".into(),
        }
    }
}

fn lex(input: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = input.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '(' | ')' | ',' => {
                chars.next();
                tokens.push(match c {
                    '(' => Token::Open,
                    ')' => Token::Close,
                    _ => Token::Comma,
                });
            }
            '=' => {
                chars.next();
                if chars.peek() == Some(&'=') {
                    chars.next();
                    tokens.push(Token::DoubleEq);
                } else {
                    tokens.push(Token::Eq);
                }
            }
            '!' => {
                chars.next();
                if chars.peek() == Some(&'=') {
                    chars.next();
                    tokens.push(Token::NotEq);
                } else {
                    tokens.push(Token::Bang);
                }
            }
            _ => {
                let mut s = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || "()=!,".contains(c) {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                tokens.push(Token::Ident(s));
            }
        }
    }
    tokens
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn key(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Token::Ident(s)) => Ok(s),
            Some(t) => Err(format!("expected a label key, found {}", t.describe())),
            None => Err("expected a label key, found the end".into()),
        }
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        if self.peek() == Some(&Token::Bang) {
            self.next();
            let key = self.key()?;
            return Ok(Requirement {
                key,
                operator: Operator::DoesNotExist,
                values: vec![],
            });
        }
        let key = self.key()?;
        let operator = match self.peek() {
            None | Some(Token::Comma) => {
                return Ok(Requirement {
                    key,
                    operator: Operator::Exists,
                    values: vec![],
                });
            }
            Some(Token::Eq | Token::DoubleEq) => Operator::Equals,
            Some(Token::NotEq) => Operator::NotEquals,
            Some(Token::Ident(w)) if w == "in" => Operator::In,
            Some(Token::Ident(w)) if w == "notin" => Operator::NotIn,
            Some(t) => {
                return Err(format!(
                    "after key {key:?} expected =, ==, !=, in, notin, ',' or the end, found {}",
                    t.describe()
                ));
            }
        };
        self.next();
        let values = match operator {
            Operator::Equals | Operator::NotEquals => match self.peek() {
                None | Some(Token::Comma) => vec![String::new()],
                Some(Token::Ident(_)) => match self.next() {
                    Some(Token::Ident(v)) => vec![v],
                    _ => vec![String::new()],
                },
                Some(t) => {
                    return Err(format!(
                        "after {key:?} and its operator expected a value, found {}",
                        t.describe()
                    ));
                }
            },
            _ => self.set(&key)?,
        };
        Ok(Requirement {
            key,
            operator,
            values,
        })
    }

    /// `( [value (, value)*] )`; an empty slot between commas is the empty value (as in
    /// Kubernetes), an empty set is an error.
    fn set(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.next() {
            Some(Token::Open) => {}
            Some(t) => {
                return Err(format!(
                    "after {key:?} in/notin expected '(', found {}",
                    t.describe()
                ));
            }
            None => {
                return Err(format!(
                    "after {key:?} in/notin expected '(', found the end"
                ));
            }
        }
        let mut values = Vec::new();
        let mut current: Option<String> = None;
        loop {
            match self.next() {
                Some(Token::Ident(v)) => {
                    if current.is_some() {
                        return Err(format!(
                            "in the values of {key:?} expected ',' or ')', found {v:?}"
                        ));
                    }
                    current = Some(v);
                }
                Some(Token::Comma) => values.push(current.take().unwrap_or_default()),
                Some(Token::Close) => {
                    match current.take() {
                        Some(v) => values.push(v),
                        None if !values.is_empty() => values.push(String::new()),
                        None => {}
                    }
                    break;
                }
                Some(t) => {
                    return Err(format!(
                        "in the values of {key:?} expected a value, ',' or ')', found {}",
                        t.describe()
                    ));
                }
                None => return Err(format!("the values of {key:?} are missing their ')'")),
            }
        }
        if values.is_empty() {
            return Err(format!("in/notin for {key:?} needs at least one value"));
        }
        Ok(values)
    }
}

fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    !b.is_empty()
        && b.len() <= 63
        && b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter()
            .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// A label key: `[prefix/]name`, name up to 63 characters of alphanumerics, '-', '_' and
/// '.' starting and ending alphanumeric, prefix a DNS-1123 subdomain.
fn validate_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(p) = prefix
        && !is_dns1123_subdomain(p)
    {
        return Err(format!(
            "label key {key:?} has an invalid prefix {p:?} (must be a lower-case DNS subdomain)"
        ));
    }
    if !is_name_part(name) {
        return Err(format!(
            "{key:?} is not a valid label key (a name of at most 63 characters: alphanumerics, '-', '_', '.', starting and ending alphanumeric, optionally prefixed by a DNS subdomain and '/')"
        ));
    }
    Ok(())
}

/// A label value: empty, or up to 63 characters of alphanumerics, '-', '_' and '.'
/// starting and ending alphanumeric.
fn validate_value(value: &str) -> Result<(), String> {
    if value.is_empty() || is_name_part(value) {
        Ok(())
    } else {
        Err(format!(
            "{value:?} is not a valid label value (at most 63 characters: alphanumerics, '-', '_', '.', starting and ending alphanumeric)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn req(key: &str, operator: Operator, values: &[&str]) -> Requirement {
        Requirement {
            key: key.into(),
            operator,
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn parse_table() {
        use Operator::*;
        let cases: Vec<(&str, Vec<Requirement>)> = vec![
            ("", vec![]),
            ("   ", vec![]),
            ("a=b", vec![req("a", Equals, &["b"])]),
            ("a==b", vec![req("a", Equals, &["b"])]),
            ("a!=b", vec![req("a", NotEquals, &["b"])]),
            ("a=", vec![req("a", Equals, &[""])]),
            ("a", vec![req("a", Exists, &[])]),
            ("!a", vec![req("a", DoesNotExist, &[])]),
            ("! a", vec![req("a", DoesNotExist, &[])]),
            ("a in (x,y)", vec![req("a", In, &["x", "y"])]),
            ("a in ( x , y )", vec![req("a", In, &["x", "y"])]),
            ("a notin (x)", vec![req("a", NotIn, &["x"])]),
            ("a notin(x,y)", vec![req("a", NotIn, &["x", "y"])]),
            ("a in (x,)", vec![req("a", In, &["x", ""])]),
            (
                "metal3.io/role=worker, rack in (r1,r2),!maintenance,zone , tier!=gold",
                vec![
                    req("metal3.io/role", Equals, &["worker"]),
                    req("rack", In, &["r1", "r2"]),
                    req("maintenance", DoesNotExist, &[]),
                    req("zone", Exists, &[]),
                    req("tier", NotEquals, &["gold"]),
                ],
            ),
            // a key called `in` is still a key
            ("in", vec![req("in", Exists, &[])]),
        ];
        for (input, want) in cases {
            let got = Selector::parse(input);
            assert_eq!(
                got.as_ref().map(|s| s.requirements().to_vec()),
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
                "matchLabels.bad key",
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
        assert_eq!(Operator::from_kubernetes("In"), Some(Operator::In));
        assert_eq!(Operator::from_kubernetes("in"), None);
        assert_eq!(Operator::from_kubernetes("exists"), None);
        assert_eq!(
            Operator::from_kubernetes("DoesNotExist"),
            Some(Operator::DoesNotExist)
        );
    }
}
