//! Label selectors over BareMetalHost labels, built on kube-core's [`kube::core::Selector`]
//! and [`Expression`]: kube-core holds and matches the equality, set and existence
//! requirements; this module reads the three ways a selector is written into them, and adds
//! the one comparison kube-core lacks (CAPM3's `gt` / `lt`).
//!
//! Each way of writing a selector has its own *dialect* (how operators are spelled, and what
//! is accepted):
//!
//! - [`Selector::from_label_selector`]: a Kubernetes `LabelSelector` as the API server accepts
//!   it (`matchLabels` are equalities; `matchExpressions` operators are the case-sensitive
//!   `In`, `NotIn`, `Exists`, `DoesNotExist`): the functionConfig's `spec.hostSelector`.
//! - [`Selector::parse`]: the Kubernetes selector string syntax
//!   (`key=value,key==value,key!=value,key in (a,b),key notin (a,b),key,!key`): the ConfigMap
//!   functionConfig's `data.hostSelector`. (kube-core prints this syntax but does not parse it.)
//! - [`Selector::from_capm3`]: a `Metal3MachineTemplate`'s `spec.template.spec.hostSelector`
//!   as CAPM3 reads it (FACTS §3): each operator is lower-cased and must then be one of
//!   apimachinery's selection operators `in`, `notin`, `exists`, `!` (absent), `=`, `==`, `!=`,
//!   `gt`, `lt`; `in`/`notin` need at least one value, `=`/`==`/`!=`/`gt`/`lt` exactly one
//!   (an integer for `gt`/`lt`), `exists`/`!` none. `DoesNotExist` lower-cases to no operator
//!   at all, so CAPM3 refuses it: the message suggests `!`.
//!
//! Matching follows Kubernetes: an empty selector matches everything; `NotIn`, `!=` and
//! `DoesNotExist` hold for a host without the label; `gt`/`lt` hold only for a label whose
//! value is an integer above / below the bound (apimachinery's `Requirement.Matches`).
//! Every problem is reported, each at its path inside the selector.

use std::collections::BTreeMap;
use std::fmt;

use crate::names::is_dns1123_subdomain;
use crate::results::key_path;
use kube::core::{Expression, SelectorExt};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// A problem in a selector: `path` is relative to the selector (`matchExpressions[0].operator`,
/// empty for the selector itself), `message` says what is wrong without the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub path: String,
    pub message: String,
}

impl SelectorError {
    /// The path below the selector's own field `at`.
    pub fn path_under(&self, at: &str) -> String {
        if self.path.is_empty() {
            at.to_string()
        } else {
            format!("{at}.{}", self.path)
        }
    }
}

/// A selector as written, read as its JSON value reads: what [`Selector::from_capm3`] reads (the
/// model's view of a YAML tree, [`crate::model::view::View`], implements it; this module does not
/// depend on the model).
pub trait Tree<'a>: Copy + serde::Serialize {
    /// The value under `key`, if this is a mapping that has it.
    fn get(self, key: &str) -> Option<Self>;
    /// Whether this is null.
    fn is_null(self) -> bool;
    /// Whether this is a mapping.
    fn is_object(self) -> bool;
    /// The string, if this is one.
    fn as_str(self) -> Option<&'a str>;
    /// The entries, in order, if this is a mapping.
    fn entries(self) -> Option<Vec<(std::borrow::Cow<'a, str>, Self)>>;
    /// The items, if this is a sequence.
    fn items(self) -> Option<Vec<Self>>;
}

/// A conjunction of label requirements. The empty selector matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    /// Equality, set and existence requirements: built, matched and printed by kube-core.
    labels: kube::core::Selector,
    /// CAPM3's `gt` / `lt`, which kube-core cannot express.
    numeric: Vec<Numeric>,
}

/// `key gt bound` / `key lt bound`: the label holds an integer above / below the bound.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Numeric {
    key: String,
    greater: bool,
    bound: i64,
}

impl Numeric {
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        // apimachinery: a missing label or one that is not an integer never matches.
        match labels.get(&self.key).map(|v| v.parse::<i64>()) {
            Some(Ok(v)) if self.greater => v > self.bound,
            Some(Ok(v)) => v < self.bound,
            _ => false,
        }
    }
}

/// The string syntax, for error messages.
pub const STRING_SYNTAX: &str =
    "key=value, key==value, key!=value, key in (a,b), key notin (a,b), key, !key (comma-separated)";

/// The operators CAPM3 accepts once lower-cased, for messages.
pub const CAPM3_OPERATORS: &str = "in, notin, exists, ! (absent), =, ==, !=, gt, lt";

/// What one requirement asks, whichever dialect spelled it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    In,
    NotIn,
    Equals,
    NotEquals,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

/// How many values an operator takes.
enum Count {
    AtLeastOne,
    One,
    None,
}

impl Op {
    /// A `matchExpressions` operator of the Kubernetes dialect (case-sensitive).
    fn kubernetes(word: &str) -> Option<Op> {
        match word {
            "In" => Some(Op::In),
            "NotIn" => Some(Op::NotIn),
            "Exists" => Some(Op::Exists),
            "DoesNotExist" => Some(Op::DoesNotExist),
            _ => None,
        }
    }

    /// An operator as CAPM3 reads it: lower-cased, then apimachinery's `selection.Operator`.
    fn capm3(word: &str) -> Result<Op, String> {
        Ok(match word.to_lowercase().as_str() {
            "in" => Op::In,
            "notin" => Op::NotIn,
            "exists" => Op::Exists,
            "!" => Op::DoesNotExist,
            "=" | "==" => Op::Equals,
            "!=" => Op::NotEquals,
            "gt" => Op::Gt,
            "lt" => Op::Lt,
            "doesnotexist" => {
                return Err(format!(
                    "{word:?} is not an operator CAPM3 accepts: write operator: \"!\". CAPM3 \
                     lower-cases operators, and spells the absent-label operator \"!\""
                ));
            }
            _ => {
                return Err(format!(
                    "{word:?} is not an operator CAPM3 accepts: write one of {CAPM3_OPERATORS} (any case)"
                ));
            }
        })
    }

    fn count(self) -> Count {
        match self {
            Op::In | Op::NotIn => Count::AtLeastOne,
            Op::Equals | Op::NotEquals | Op::Gt | Op::Lt => Count::One,
            Op::Exists | Op::DoesNotExist => Count::None,
        }
    }
}

/// One requirement as written, before its meaning is checked.
struct Written {
    /// Its path inside the selector (`matchLabels.[k]`, `matchExpressions[2]`).
    base: String,
    /// Whether it comes from `matchLabels` (its errors are at `base` itself).
    label: bool,
    key: String,
    /// The operator as written, for messages.
    word: String,
    /// What it asks, or why the dialect does not know it.
    op: Result<Op, String>,
    values: Vec<String>,
}

impl Selector {
    /// The selector that matches everything.
    pub fn everything() -> Selector {
        Selector::default()
    }

    /// True when the selector has no requirement (and so matches everything).
    pub fn is_empty(&self) -> bool {
        self.labels.selects_all() && self.numeric.is_empty()
    }

    /// Whether every requirement holds for the labels.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.labels.matches(labels) && self.numeric.iter().all(|n| n.matches(labels))
    }

    /// The requirements kube-core holds (all but `gt`/`lt`), in the order they were given
    /// (`matchLabels` by key, then `matchExpressions`).
    pub fn expressions(&self) -> Vec<Expression> {
        self.labels.clone().into_iter().collect()
    }

    /// Kubernetes dialect: a `LabelSelector` as the API server accepts it.
    ///
    /// `matchLabels` become equalities; `matchExpressions` operators must be exactly `In`,
    /// `NotIn`, `Exists` or `DoesNotExist`; `In`/`NotIn` need values, `Exists`/`DoesNotExist`
    /// must have none; keys and values must be valid label keys and values.
    pub fn from_label_selector(selector: &LabelSelector) -> Result<Selector, Vec<SelectorError>> {
        let mut written = Vec::new();
        for (key, value) in selector.match_labels.iter().flatten() {
            written.push(Written::label(key, value));
        }
        for (i, expr) in selector.match_expressions.iter().flatten().enumerate() {
            written.push(Written {
                base: format!("matchExpressions[{i}]"),
                label: false,
                key: expr.key.clone(),
                word: expr.operator.clone(),
                op: Op::kubernetes(&expr.operator).ok_or_else(|| {
                    format!(
                        "{:?} is not one of In, NotIn, Exists, DoesNotExist (case-sensitive)",
                        expr.operator
                    )
                }),
                values: expr.values.clone().unwrap_or_default(),
            });
        }
        build(written, Vec::new())
    }

    /// CAPM3 dialect: a `Metal3MachineTemplate`'s `spec.template.spec.hostSelector`, as JSON
    /// (absent or `null`: the empty selector). Operators are lower-cased (see the module
    /// documentation); the shape is checked too (`matchLabels` a map of strings,
    /// `matchExpressions` a list of `{key, operator, values}`).
    pub fn from_capm3<'a, T: Tree<'a>>(value: Option<T>) -> Result<Selector, Vec<SelectorError>> {
        let mut written = Vec::new();
        let mut errors = Vec::new();
        let mut error =
            |path: String, message: String| errors.push(SelectorError { path, message });
        let object = match value {
            None => return Ok(Selector::everything()),
            Some(v) if v.is_null() => return Ok(Selector::everything()),
            Some(v) if v.is_object() => v,
            Some(other) => {
                error(
                    String::new(),
                    format!(
                        "must be a label selector (matchLabels, matchExpressions), found {}",
                        shown(other)
                    ),
                );
                return Err(errors);
            }
        };
        match object.get("matchLabels") {
            None => {}
            Some(v) if v.is_null() => {}
            Some(v) => match v.entries() {
                Some(labels) => {
                    for (key, value) in labels {
                        match value.as_str() {
                            Some(v) => written.push(Written::label(&key, v)),
                            None => error(
                                key_path("matchLabels", &key),
                                format!("must be a string, found {}", shown(value)),
                            ),
                        }
                    }
                }
                None => error(
                    "matchLabels".into(),
                    format!("must be a map of label keys to values, found {}", shown(v)),
                ),
            },
        }
        let expressions = match object.get("matchExpressions") {
            None => Vec::new(),
            Some(v) if v.is_null() => Vec::new(),
            Some(v) => match v.items() {
                Some(items) => items,
                None => {
                    error(
                        "matchExpressions".into(),
                        format!(
                            "must be a list of {{key, operator, values}}, found {}",
                            shown(v)
                        ),
                    );
                    Vec::new()
                }
            },
        };
        for (i, item) in expressions.into_iter().enumerate() {
            let base = format!("matchExpressions[{i}]");
            let text = |field: &str| -> Result<String, String> {
                match item.get(field) {
                    None => Err("is required".into()),
                    Some(v) if v.is_null() => Err("is required".into()),
                    Some(v) => match v.as_str() {
                        Some(s) => Ok(s.to_string()),
                        None => Err(format!("must be a string, found {}", shown(v))),
                    },
                }
            };
            if !item.is_object() {
                error(
                    base,
                    format!(
                        "must be a mapping with key, operator and values, found {}",
                        shown(item)
                    ),
                );
                continue;
            }
            let key = text("key").map_err(|e| error(format!("{base}.key"), e));
            let word = text("operator").map_err(|e| error(format!("{base}.operator"), e));
            let values: Result<Vec<String>, ()> = match item.get("values") {
                None => Ok(Vec::new()),
                Some(v) if v.is_null() => Ok(Vec::new()),
                Some(v) => match v.items() {
                    Some(vs) => {
                        let mut ok = Ok(Vec::new());
                        for (j, v) in vs.into_iter().enumerate() {
                            match (v.as_str(), &mut ok) {
                                (Some(s), Ok(list)) => list.push(s.to_string()),
                                (Some(_), Err(())) => {}
                                (None, _) => {
                                    error(
                                        format!("{base}.values[{j}]"),
                                        format!("must be a string, found {}", shown(v)),
                                    );
                                    ok = Err(());
                                }
                            }
                        }
                        ok
                    }
                    None => {
                        error(
                            format!("{base}.values"),
                            format!("must be a list of strings, found {}", shown(v)),
                        );
                        Err(())
                    }
                },
            };
            if let (Ok(key), Ok(word), Ok(values)) = (key, word, values) {
                written.push(Written {
                    base,
                    label: false,
                    key,
                    op: Op::capm3(&word),
                    word,
                    values,
                });
            }
        }
        build(written, errors)
    }

    /// Parses the Kubernetes selector string syntax:
    /// `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key`,
    /// `!key`, separated by commas (commas inside parentheses do not split). Whitespace
    /// around tokens is ignored; an empty or blank string is the empty selector.
    /// The error says what was wrong, without repeating the input.
    pub fn parse(input: &str) -> Result<Selector, String> {
        let tokens = lex(input);
        let mut p = Parser { tokens, pos: 0 };
        let mut expressions = Vec::new();
        if p.peek().is_none() {
            return Ok(Selector::default());
        }
        loop {
            expressions.push(p.requirement()?);
            match p.next() {
                None => break,
                Some(Token::Comma) => {}
                Some(t) => return Err(format!("expected ',' or the end, found {}", t.describe())),
            }
        }
        for e in &expressions {
            let (key, values) = parts(e);
            validate_key(key)?;
            for v in values {
                validate_value(v)?;
            }
        }
        Ok(Selector {
            labels: expressions.into_iter().collect(),
            numeric: Vec::new(),
        })
    }
}

impl Written {
    /// A `matchLabels` entry: an equality.
    fn label(key: &str, value: &str) -> Written {
        Written {
            base: key_path("matchLabels", key),
            label: true,
            key: key.to_string(),
            word: "=".into(),
            op: Ok(Op::Equals),
            values: vec![value.to_string()],
        }
    }

    /// The path of a problem with `field` of this requirement (`key`, `values`, `values[0]`).
    fn at(&self, field: &str) -> String {
        if self.label {
            self.base.clone()
        } else {
            format!("{}.{field}", self.base)
        }
    }
}

/// Checks the requirements (keys, values, value counts, integers for `gt`/`lt`) and builds
/// the selector from them, or returns every problem (with `errors`, found earlier).
fn build(
    written: Vec<Written>,
    mut errors: Vec<SelectorError>,
) -> Result<Selector, Vec<SelectorError>> {
    let mut expressions = Vec::new();
    let mut numeric = Vec::new();
    for w in written {
        let before = errors.len();
        let mut error =
            |path: String, message: String| errors.push(SelectorError { path, message });
        let op = match &w.op {
            Ok(op) => *op,
            Err(e) => {
                error(w.at("operator"), e.clone());
                continue;
            }
        };
        if let Err(e) = validate_key(&w.key) {
            error(w.at("key"), e);
        }
        for (j, v) in w.values.iter().enumerate() {
            if let Err(e) = validate_value(v) {
                error(w.at(&format!("values[{j}]")), e);
            }
        }
        let n = w.values.len();
        match op.count() {
            Count::AtLeastOne if n == 0 => error(
                w.at("values"),
                format!("operator {} needs at least one value", w.word),
            ),
            Count::One if n != 1 => error(
                w.at("values"),
                format!("operator {} takes exactly one value, found {n}", w.word),
            ),
            Count::None if n != 0 => error(
                w.at("values"),
                format!("operator {} takes no values, found {:?}", w.word, w.values),
            ),
            _ => {}
        }
        let bound = match (op, w.values.first()) {
            (Op::Gt | Op::Lt, Some(v)) => match v.parse::<i64>() {
                Ok(b) => Some(b),
                Err(_) => {
                    error(
                        w.at("values[0]"),
                        format!(
                            "{v:?} is not an integer: {} compares label values as integers",
                            w.word
                        ),
                    );
                    None
                }
            },
            _ => None,
        };
        if errors.len() > before {
            continue;
        }
        let one = || w.values.first().cloned().unwrap_or_default();
        let set = || w.values.iter().cloned().collect();
        match op {
            Op::In => expressions.push(Expression::In(w.key, set())),
            Op::NotIn => expressions.push(Expression::NotIn(w.key, set())),
            Op::Equals => expressions.push(Expression::Equal(w.key.clone(), one())),
            Op::NotEquals => expressions.push(Expression::NotEqual(w.key.clone(), one())),
            Op::Exists => expressions.push(Expression::Exists(w.key)),
            Op::DoesNotExist => expressions.push(Expression::DoesNotExist(w.key)),
            Op::Gt | Op::Lt => numeric.push(Numeric {
                greater: op == Op::Gt,
                key: w.key,
                bound: bound.unwrap_or_default(),
            }),
        }
    }
    if errors.is_empty() {
        Ok(Selector {
            labels: expressions.into_iter().collect(),
            numeric,
        })
    } else {
        Err(errors)
    }
}

impl fmt::Display for Selector {
    /// The string syntax (kube-core prints all but `gt`/`lt`, which follow as `key>n`,
    /// `key<n`); empty for the empty selector.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if !self.labels.selects_all() {
            parts.push(self.labels.to_string());
        }
        for n in &self.numeric {
            let op = if n.greater { '>' } else { '<' };
            parts.push(format!("{}{op}{}", n.key, n.bound));
        }
        f.write_str(&parts.join(","))
    }
}

/// The key and values of an expression.
fn parts(e: &Expression) -> (&str, Vec<&str>) {
    match e {
        Expression::In(k, vs) | Expression::NotIn(k, vs) => {
            (k, vs.iter().map(String::as_str).collect())
        }
        Expression::Equal(k, v) | Expression::NotEqual(k, v) => (k, vec![v.as_str()]),
        Expression::Exists(k) | Expression::DoesNotExist(k) => (k, Vec::new()),
    }
}

/// A JSON value as short text, for messages.
fn shown(v: impl serde::Serialize) -> String {
    let text = serde_json::to_string(&v).unwrap_or_default();
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text
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
            '=' | '!' => {
                chars.next();
                let double = chars.peek() == Some(&'=');
                if double {
                    chars.next();
                }
                tokens.push(match (c, double) {
                    ('=', false) => Token::Eq,
                    ('=', true) => Token::DoubleEq,
                    (_, false) => Token::Bang,
                    (_, true) => Token::NotEq,
                });
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

    fn requirement(&mut self) -> Result<Expression, String> {
        if self.peek() == Some(&Token::Bang) {
            self.next();
            return Ok(Expression::DoesNotExist(self.key()?));
        }
        let key = self.key()?;
        let operator = self.peek().cloned();
        match operator {
            None | Some(Token::Comma) => Ok(Expression::Exists(key)),
            Some(Token::Eq | Token::DoubleEq | Token::NotEq) => {
                self.next();
                let value = match self.peek() {
                    None | Some(Token::Comma) => String::new(),
                    Some(Token::Ident(v)) => {
                        let v = v.clone();
                        self.next();
                        v
                    }
                    Some(t) => {
                        return Err(format!(
                            "after {key:?} and its operator expected a value, found {}",
                            t.describe()
                        ));
                    }
                };
                Ok(if operator == Some(Token::NotEq) {
                    Expression::NotEqual(key, value)
                } else {
                    Expression::Equal(key, value)
                })
            }
            Some(Token::Ident(w)) if w == "in" || w == "notin" => {
                self.next();
                let values = self.set(&key)?.into_iter().collect();
                Ok(if w == "in" {
                    Expression::In(key, values)
                } else {
                    Expression::NotIn(key, values)
                })
            }
            Some(t) => Err(format!(
                "after key {key:?} expected =, ==, !=, in, notin, ',' or the end, found {}",
                t.describe()
            )),
        }
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
            "{key:?} is not a valid label key: write at most 63 alphanumerics, '-', '_' or '.', \
             starting and ending alphanumeric. A DNS subdomain and '/' may come before it"
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
mod tests;
