//! Go `text/template`s as CAPI renders `valueFrom.template` and `enabledIf` (SPEC §11).
//!
//! CAPI (`internal/controllers/topology/cluster/patches/inline/json_patch_generator.go`,
//! `renderValueTemplate`) parses the template with `template.New("tpl").Funcs(sprig.HermeticTxtFuncMap())`,
//! executes it with the variables as data (marshalled to JSON and unmarshalled into
//! `map[string]interface{}`, so every number is a `float64`), and reads the output as YAML.
//! [`render`] does the first two steps; the caller reads the text as YAML. `enabledIf` is true
//! when that YAML is the boolean `true` (`patchIsEnabled`: `bytes.Equal(value.Raw, []byte("true"))`),
//! which [`enabled`] decides.
//!
//! The syntax and the execution are the `gotmpl` crate's, a port of Go's `text/template`
//! (docs/decisions.md, "Go templates (issue 25)", says why it and not `gtmpl` or our own). Around
//! it, this module:
//! - allows only the functions listed in [`FUNCTIONS`]; any other name anywhere in the
//!   template is an error naming it, before anything runs (Go, too, refuses an undefined
//!   function when it parses, whichever branch it sits in);
//! - implements sprig's functions of that list, and `print`, `printf`, `println` with Go's
//!   `fmt` rules for the verbs `%v %s %d %t %q %x %X %%` (any other verb, flag or precision is
//!   an error naming it): `gotmpl` writes a float with Rust's `Display` (`1000000`, where Go's
//!   `%v` writes `1e+06`), and every variable number is a float here;
//! - prints each action's value itself, for the same reason.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use gotmpl::parse::{CommandNode, Expr, ListNode, Node, PipeNode, Pos};
use gotmpl::{Template, Value};

use super::semver;

// Go's fmt and sprig's functions on the new engine's values (issue 32): called by the engine's
// own commits.
#[allow(dead_code)]
pub mod fmt;
mod go_fmt;
// The new engine's foundation (issue 32): wired in by the engine's own commits.
#[allow(dead_code)]
pub mod limits;
mod nesting;
#[allow(dead_code)]
pub mod sprig;
#[allow(dead_code)]
pub mod value;

use go_fmt::{Directive, directives, go_type, go_v, sprint, sprintln};

/// The functions a template may call: Go's builtins and sprig's functions that ipreuse
/// evaluates. Any other (`html`, `slice`, `call`, sprig's `contains`, `split`, ...) is
/// [`TemplateError::UnknownFunction`].
pub const FUNCTIONS: &[&str] = &[
    // Go's text/template builtins.
    "and",
    "or",
    "not",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "len",
    "index",
    "print",
    "printf",
    "println", // sprig
    "default",
    "coalesce",
    "upper",
    "lower",
    "trim",
    "trimPrefix",
    "trimSuffix",
    "replace",
    "semverCompare",
];

/// The name of the function this module appends to every printing action. A template cannot
/// call it: its name is not in [`FUNCTIONS`], so the check refuses it before the rewrite.
const PRINT_ACTION: &str = "ipreuse_print_action";

/// Why a template cannot be rendered as CAPI would render it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The text is not a Go template (Go's parse would fail too).
    #[error("line {line}, column {column}: {message}; write it as Go's text/template reads it")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A function outside [`FUNCTIONS`].
    #[error(
        "line {line}, column {column}: function `{name}` is not one ipreuse evaluates; use only {}",
        FUNCTIONS.join(", ")
    )]
    UnknownFunction {
        name: String,
        line: usize,
        column: usize,
    },
    /// A `printf` verb, flag or precision outside what [`render`] implements, or a format that
    /// is not a literal string.
    #[error(
        "line {line}, column {column}: printf {what}; use only the verbs %v %s %d %t %q %x %X %% with a width and the flag -"
    )]
    Printf {
        what: String,
        line: usize,
        column: usize,
    },
    /// A function refused its arguments (Go's execution would fail too).
    #[error("function `{name}`: {message}")]
    Function { name: String, message: String },
    /// The execution failed (Go's would too): a comparison of a number with a string, a field
    /// of a string, an index out of range, ...
    #[error(
        "{message}; CAPI's rendering fails the same way: fix the template or the variables it reads"
    )]
    Execution { message: String },
    /// `enabledIf` rendered text whose YAML meaning ipreuse does not decide.
    #[error(
        "enabledIf rendered {rendered:?}, which is not a plain YAML scalar; make it render true or false"
    )]
    NotAScalar { rendered: String },
}

/// The position of a node, as line and column (both from 1).
fn place(text: &str, pos: &Pos) -> (usize, usize) {
    let before = text.get(..pos.offset.min(text.len())).unwrap_or_default();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(start..).map_or(0, |s| s.chars().count()) + 1;
    (pos.line.max(1), column)
}

/// Renders `text` with `data` (the variables object: `builtin` and the user variables by
/// name) as Go's `text/template` with sprig's functions renders it in CAPI.
///
/// # Errors
/// [`TemplateError`]: a syntax error, a function outside [`FUNCTIONS`], an unsupported `printf`
/// verb, or an execution that Go would fail too.
pub fn render(text: &str, data: &serde_json::Value) -> Result<String, TemplateError> {
    let parsed = Template::new("tpl")
        .parse(text)
        .map_err(|e| from_gotmpl(&e))?;
    nesting::check(text).map_err(|(line, column, message)| TemplateError::Syntax {
        line,
        column,
        message,
    })?;
    let mut template = Template::new("tpl");
    for (name, func) in functions() {
        template = template.func(name, func);
    }
    let mut names: Vec<String> = parsed.templates().into_iter().map(str::to_string).collect();
    if !names.iter().any(|n| n == "tpl") {
        // An empty top-level template (only `{{define}}`s, or no text at all) renders nothing.
        names.push("tpl".to_string());
    }
    let mut nulls = BTreeSet::new();
    null_names(data, &mut nulls);
    for name in &names {
        let mut tree = parsed.lookup(name).cloned().unwrap_or_else(empty_list);
        check_list(text, &nulls, &tree)?;
        wrap_list(&mut tree);
        template = template.add_parse_tree(name, tree);
    }
    template
        .execute_template_to_string("tpl", &to_value(data))
        .map_err(|e| from_gotmpl(&e))
}

/// CAPI's `patchIsEnabled`: whether `enabledIf`'s rendered text, read as YAML by
/// `sigs.k8s.io/yaml` (go-yaml v2, YAML 1.1), is the boolean `true`.
///
/// Go-yaml v2 reads `y Y yes Yes YES true True TRUE on On ON` as true (`resolve.go`); any other
/// plain word (`false`, `no`, `<no value>`, `1`) is not `true`. Text that YAML could read as
/// something else than one plain scalar (quotes, a comment, a tag, a list, several lines) is
/// an error rather than a guess.
///
/// # Errors
/// [`TemplateError::NotAScalar`] for text that is not one plain scalar.
pub fn enabled(rendered: &str) -> Result<bool, TemplateError> {
    let word = rendered.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    const TRUE: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
    ];
    if TRUE.contains(&word) {
        return Ok(true);
    }
    // A plain scalar on one line: no indicator first (`-`, `?`, `:` only when a space or
    // nothing follows), no ": " or " #" inside.
    let mut chars = word.chars();
    let first = chars.next();
    let spaced = chars.next().is_none_or(|c| c == ' ' || c == '\t');
    let indicator = match first {
        Some('-' | '?' | ':') => spaced,
        Some(c) => ",[]{}#&*!|>'\"%@`".contains(c),
        None => false,
    };
    let plain = !indicator
        && !word.contains(['\n', '\r'])
        && !word.contains(": ")
        && !word.contains(" #")
        && !word.ends_with(':');
    if plain || word.is_empty() {
        // One plain scalar that is not one of the true spellings, or nothing (YAML null).
        Ok(false)
    } else {
        Err(TemplateError::NotAScalar {
            rendered: rendered.to_string(),
        })
    }
}

fn empty_list() -> ListNode {
    ListNode {
        pos: Pos { offset: 0, line: 1 },
        nodes: Vec::new(),
    }
}

/// The JSON data as Go sees it after `json.Unmarshal` into `interface{}`: numbers are
/// `float64`.
fn to_value(data: &serde_json::Value) -> Value {
    match data {
        serde_json::Value::Null => Value::Nil,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => Value::String(Arc::from(s.as_str())),
        serde_json::Value::Array(items) => Value::List(items.iter().map(to_value).collect()),
        serde_json::Value::Object(map) => Value::Map(Arc::new(
            map.iter()
                .map(|(k, v)| (Arc::from(k.as_str()), to_value(v)))
                .collect::<BTreeMap<_, _>>(),
        )),
    }
}

/// A `gotmpl` error as ours: a message that this module's functions tagged names them.
fn from_gotmpl(error: &gotmpl::TemplateError) -> TemplateError {
    match error {
        gotmpl::TemplateError::Parse {
            line, col, message, ..
        }
        | gotmpl::TemplateError::Lex {
            line, col, message, ..
        } => TemplateError::Syntax {
            line: *line,
            column: *col,
            message: message.clone(),
        },
        gotmpl::TemplateError::Exec(message) => match message.split_once(FUNCTION_TAG) {
            Some((name, message)) => TemplateError::Function {
                name: name.to_string(),
                message: message.to_string(),
            },
            None => TemplateError::Execution {
                message: message.clone(),
            },
        },
        other => TemplateError::Execution {
            message: other.to_string(),
        },
    }
}

/// Separates the function's name from its message in the errors of this module's functions.
const FUNCTION_TAG: &str = "\u{1f}: ";

fn fail(name: &str, message: impl std::fmt::Display) -> gotmpl::TemplateError {
    gotmpl::TemplateError::Exec(format!("{name}{FUNCTION_TAG}{message}"))
}

// ---------------------------------------------------------------------------------------------
// The check and the rewrite of the parse tree
// ---------------------------------------------------------------------------------------------

fn check_list(text: &str, nulls: &BTreeSet<&str>, list: &ListNode) -> Result<(), TemplateError> {
    for node in &list.nodes {
        match node {
            Node::List(inner) => check_list(text, nulls, inner)?,
            Node::Action(action) => check_pipe(text, nulls, &action.pipe)?,
            Node::If(branch) | Node::Range(branch) | Node::With(branch) => {
                check_pipe(text, nulls, &branch.pipe)?;
                check_list(text, nulls, &branch.body)?;
                if let Some(other) = &branch.else_body {
                    check_list(text, nulls, other)?;
                }
            }
            Node::Template(call) => {
                if let Some(pipe) = &call.pipe {
                    check_pipe(text, nulls, pipe)?;
                }
            }
            Node::Define(define) => check_list(text, nulls, &define.body)?,
            Node::Text(_) | Node::Break(_) | Node::Continue(_) => {}
        }
    }
    Ok(())
}

fn check_pipe(text: &str, nulls: &BTreeSet<&str>, pipe: &PipeNode) -> Result<(), TemplateError> {
    for command in &pipe.commands {
        if let Some(Expr::Identifier(pos, name)) = command.args.first()
            && name.as_str() == "printf"
        {
            check_printf(text, pos, command.args.get(1))?;
        }
        for arg in &command.args {
            check_expr(text, nulls, arg)?;
        }
    }
    Ok(())
}

fn check_expr(text: &str, nulls: &BTreeSet<&str>, expr: &Expr) -> Result<(), TemplateError> {
    match expr {
        Expr::Identifier(pos, name) if !FUNCTIONS.contains(&name.as_str()) => {
            let (line, column) = place(text, pos);
            Err(TemplateError::UnknownFunction {
                name: name.to_string(),
                line,
                column,
            })
        }
        Expr::Pipe(_, pipe) => check_pipe(text, nulls, pipe),
        Expr::Chain(_, inner, _) => check_expr(text, nulls, inner),
        Expr::Field(pos, names) | Expr::Variable(pos, _, names) => {
            through_null(text, nulls, pos, names)
        }
        _ => Ok(()),
    }
}

/// Go fails on a field of a null (`nil pointer evaluating interface {}.b` for `.a.b` where `a`
/// is null), while `gotmpl` gives nil, as for a missing key. A chain that goes through a name
/// that holds a null anywhere in the variables is refused (by name: a null elsewhere under the
/// same name refuses too, which only errs on the side of refusing).
fn through_null(
    text: &str,
    nulls: &BTreeSet<&str>,
    pos: &Pos,
    names: &[gotmpl::parse::SmolStr],
) -> Result<(), TemplateError> {
    for pair in names.windows(2) {
        if nulls.contains(pair[0].as_str()) {
            let (line, column) = place(text, pos);
            return Err(TemplateError::Execution {
                message: format!(
                    "line {line}, column {column}: `{}` is null in the variables, and Go fails on its field `{}` (nil pointer evaluating interface {{}}.{}); give `{}` a value, or test it with if before reading its fields",
                    pair[0], pair[1], pair[1], pair[0]
                ),
            });
        }
    }
    Ok(())
}

/// The names whose value is null somewhere in the data.
fn null_names<'a>(data: &'a serde_json::Value, out: &mut BTreeSet<&'a str>) {
    match data {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                if v.is_null() {
                    out.insert(k);
                }
                null_names(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| null_names(v, out)),
        _ => {}
    }
}

/// `printf`'s format must be a literal whose verbs [`sprintf`] implements.
fn check_printf(text: &str, pos: &Pos, format: Option<&Expr>) -> Result<(), TemplateError> {
    let (line, column) = place(text, pos);
    let refuse = |what: String| TemplateError::Printf { what, line, column };
    let Some(Expr::String(_, format)) = format else {
        return Err(refuse(
            "has a format that is not a literal string".to_string(),
        ));
    };
    for directive in directives(format) {
        if let Directive::Unsupported(what) = directive {
            return Err(refuse(what));
        }
    }
    Ok(())
}

/// Appends [`PRINT_ACTION`] to every action that prints, so that its value is printed as Go
/// prints it.
fn wrap_list(list: &mut ListNode) {
    for node in &mut list.nodes {
        match node {
            Node::List(inner) => wrap_list(inner),
            Node::Action(action) if action.pipe.decl.is_empty() => {
                let pos = action.pipe.pos;
                action.pipe.commands.push(CommandNode {
                    pos,
                    args: vec![Expr::Identifier(pos, PRINT_ACTION.into())],
                });
            }
            Node::If(branch) | Node::Range(branch) | Node::With(branch) => {
                wrap_list(&mut branch.body);
                if let Some(other) = &mut branch.else_body {
                    wrap_list(other);
                }
            }
            Node::Define(define) => wrap_list(&mut define.body),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The functions
// ---------------------------------------------------------------------------------------------

type Func = Box<dyn Fn(&[Value]) -> gotmpl::Result<Value> + Send + Sync>;

fn functions() -> Vec<(&'static str, Func)> {
    let string1 = |name: &'static str, f: fn(&str) -> Result<String, String>| -> Func {
        Box::new(move |args: &[Value]| {
            let [s] = strings::<1>(name, args)?;
            f(s).map(|out| Value::String(Arc::from(out)))
                .map_err(|m| fail(name, m))
        })
    };
    vec![
        (PRINT_ACTION, Box::new(print_action) as Func),
        (
            "print",
            Box::new(|args: &[Value]| Ok(string_value(sprint(args)))),
        ),
        (
            "println",
            Box::new(|args: &[Value]| Ok(string_value(sprintln(args)))),
        ),
        (
            "printf",
            Box::new(|args: &[Value]| {
                go_fmt::sprintf(args)
                    .map(string_value)
                    .map_err(|m| fail("printf", m))
            }),
        ),
        ("default", Box::new(default)),
        (
            "coalesce",
            Box::new(|args: &[Value]| {
                Ok(args
                    .iter()
                    .find(|v| !empty(v))
                    .cloned()
                    .unwrap_or(Value::Nil))
            }),
        ),
        (
            "upper",
            string1("upper", |s| case(s, "upper", char::to_uppercase)),
        ),
        (
            "lower",
            string1("lower", |s| case(s, "lower", char::to_lowercase)),
        ),
        // strings.TrimSpace: Unicode White_Space, as Rust's `trim`.
        ("trim", string1("trim", |s| Ok(s.trim().to_string()))),
        // sprig: trimPrefix PREFIX S, trimSuffix SUFFIX S, replace OLD NEW S.
        (
            "trimPrefix",
            Box::new(|args: &[Value]| {
                let [prefix, s] = strings::<2>("trimPrefix", args)?;
                Ok(string_value(
                    s.strip_prefix(prefix).unwrap_or(s).to_string(),
                ))
            }),
        ),
        (
            "trimSuffix",
            Box::new(|args: &[Value]| {
                let [suffix, s] = strings::<2>("trimSuffix", args)?;
                Ok(string_value(
                    s.strip_suffix(suffix).unwrap_or(s).to_string(),
                ))
            }),
        ),
        (
            "replace",
            Box::new(|args: &[Value]| {
                let [old, new, s] = strings::<3>("replace", args)?;
                Ok(string_value(s.replace(old, new)))
            }),
        ),
        (
            "semverCompare",
            Box::new(|args: &[Value]| {
                let [constraint, version] = strings::<2>("semverCompare", args)?;
                semver::satisfies(constraint, version)
                    .map(Value::Bool)
                    .map_err(|m| fail("semverCompare", m))
            }),
        ),
    ]
}

fn string_value(s: String) -> Value {
    Value::String(Arc::from(s))
}

/// The `N` string arguments of a sprig function whose Go parameters are `string`s: Go refuses
/// any other type, and a missing value (`invalid value; expected string`).
fn strings<'a, const N: usize>(name: &str, args: &'a [Value]) -> gotmpl::Result<[&'a str; N]> {
    if args.len() != N {
        return Err(fail(
            name,
            format!("wrong number of args: want {N} got {}", args.len()),
        ));
    }
    let mut out = [""; N];
    for (slot, arg) in out.iter_mut().zip(args) {
        *slot = match arg {
            Value::String(s) => s,
            Value::Nil => {
                return Err(fail(
                    name,
                    "invalid value; expected string (a missing variable?)",
                ));
            }
            other => {
                return Err(fail(
                    name,
                    format!(
                        "wrong type for value; expected string; got {}",
                        go_type(other)
                    ),
                ));
            }
        };
    }
    Ok(out)
}

/// strings.ToUpper / ToLower map rune by rune (Unicode's simple case mapping). Where Rust's
/// mapping of a character is longer than one character (`ß` upper is `SS`), the two differ:
/// refused rather than guessed.
fn case<I: Iterator<Item = char>>(
    s: &str,
    name: &str,
    map: fn(char) -> I,
) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let mut mapped = map(c);
        match (mapped.next(), mapped.next()) {
            (Some(one), None) => out.push(one),
            _ => {
                return Err(format!(
                    "{name} of {c:?} is not evaluated offline (Go maps it rune by rune); write the text in the case you want"
                ));
            }
        }
    }
    Ok(out)
}

/// sprig's `empty`: nil, false, 0, and empty strings, lists and maps.
fn empty(value: &Value) -> bool {
    match value {
        Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(n) => *n == 0,
        Value::Uint(n) => *n == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::List(items) => items.is_empty(),
        Value::Map(map) => map.is_empty(),
        _ => false,
    }
}

/// sprig's `default DEFAULT GIVEN`: the default when GIVEN is missing or empty.
fn default(args: &[Value]) -> gotmpl::Result<Value> {
    match args {
        [] => Err(fail(
            "default",
            "wrong number of args: want at least 1 got 0",
        )),
        [d] => Ok(d.clone()),
        [d, given, ..] => Ok(if empty(given) {
            d.clone()
        } else {
            given.clone()
        }),
    }
}

fn print_action(args: &[Value]) -> gotmpl::Result<Value> {
    Ok(match args {
        [Value::Nil] => Value::Nil,
        [Value::String(s)] => Value::String(s.clone()),
        [other] => string_value(go_v(other)),
        _ => return Err(fail(PRINT_ACTION, "one value expected")),
    })
}

#[cfg(test)]
mod tests;
