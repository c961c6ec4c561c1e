//! The executor of Go's `text/template`, ported from Go's `src/text/template/exec.go`
//! (Copyright The Go Authors, BSD-3-Clause; see the module docs), over [`Value`]s.
//!
//! As Go's:
//! - a pipeline's value that is a nil interface (a JSON `null` read from a map or a list)
//!   becomes the missing value after each command (exec.go's "dig down one level"), so an
//!   action prints it `<no value>`, a variable holds it as missing; as a function argument
//!   (Go's `interface{}` parameter) a missing value is `nil`;
//! - a field of a missing value is missing, a field of a nil interface is an error ("nil
//!   pointer evaluating interface {}.x"), a field with arguments is an error;
//! - `range` visits lists, maps in key order, and (Go 1.22, CAPI's Go) integers `0..n`; a
//!   missing value ranges as an empty map; `break` and `continue` (Go 1.18);
//! - `{{template}}` starts a new variable scope with `$` set to its dot.
//!
//! Bounded, where Go is not ([`Limits`]): every function call, template call, range
//! iteration and `if`/`with` evaluation is a step (a function's result also costs a step per
//! KiB of text it makes, so that repeated large strings are bounded in time as well as in
//! size); the output is counted as it is written; template calls nest at most
//! [`Limits::depth`] deep, and blocks, parentheses and template calls together at most
//! [`super::parse::MAX_NESTING`] deep.
//!
//! [`Value::Unknown`] (a builtin CAPI knows only once it creates objects) is an error at its
//! first use: as a function's argument (anywhere inside it, except for the functions that
//! only look values up), a truth test, a range, a field's receiver, a comparison, or printed.
//! Holding it in a variable or passing it as a template's dot is not a use.

use std::rc::Rc;

use super::builtins::{self, Builtin, BuiltinError};
use super::error::{TemplateError, place};
use super::fmt;
use super::limits::Meter;
use super::limits::{FuncError, Limit, Limits};
use super::parse::{Arg, Branch, Callee, Command, MAX_NESTING, Node, Number, Pipe, TOP, Trees};
use super::value::{Func, MeteredFunc, Value};

/// The deepest lists and maps a function may make: the variables hold at most 128 levels
/// (serde_json's limit), and a template building deeper ones (`$l = list $l` in a range)
/// would exhaust the stack when the value is printed, compared or freed.
pub(super) const MAX_VALUE_DEPTH: usize = 256;

/// The depth of nested lists and maps in `v`, visiting at most `*budget` nodes (`None` past
/// it); values are at most [`MAX_VALUE_DEPTH`] deep, so the recursion is bounded.
fn value_depth(v: &Value, budget: &mut u64) -> Option<usize> {
    let children: Box<dyn Iterator<Item = &Value>> = match v {
        Value::List(items, _) => Box::new(items.iter()),
        Value::Map(map, _) => Box::new(map.values()),
        _ => return Some(0),
    };
    let mut deepest = 0;
    for child in children {
        *budget = budget.checked_sub(1)?;
        deepest = deepest.max(value_depth(child, budget)?);
        if deepest > MAX_VALUE_DEPTH {
            break;
        }
    }
    Some(deepest + 1)
}

/// sprig functions that only look values up (their result may be an unknown builtin, whose
/// use is then refused): they may be given a map or list holding one.
const LOOKUPS: &[&str] = &["get", "hasKey", "keys", "dig", "pick", "omit", "pluck"];

enum Stop {
    Break,
    Continue,
    Error(TemplateError),
}

impl From<TemplateError> for Stop {
    fn from(e: TemplateError) -> Self {
        Stop::Error(e)
    }
}

type Flow = Result<(), Stop>;

pub(super) struct Exec<'a> {
    text: &'a str,
    trees: &'a Trees,
    limits: &'a Limits,
    out: String,
    steps: u64,
    depth: usize,
    nesting: usize,
    vars: Vec<(Rc<str>, Value)>,
}

/// Executes the top-level template with `data` as dot and `$`, and says how many steps it
/// took (also when it fails).
///
/// # Errors
/// Any [`TemplateError`] of execution.
pub(super) fn execute(
    text: &str,
    trees: &Trees,
    data: &Value,
    limits: &Limits,
) -> (Result<String, TemplateError>, u64) {
    let mut exec = Exec {
        text,
        trees,
        limits,
        out: String::new(),
        steps: 0,
        depth: 0,
        nesting: 0,
        vars: vec![(Rc::from("$"), data.clone())],
    };
    let Some(root) = trees.get(TOP) else {
        return (Ok(String::new()), 0);
    };
    let root = root.clone();
    let result = match exec.walk_list(data, &root) {
        Ok(()) => Ok(exec.out),
        Err(Stop::Error(e)) => Err(e),
        // The parser refuses break and continue outside range.
        Err(Stop::Break | Stop::Continue) => Ok(exec.out),
    };
    (result, exec.steps.min(limits.steps))
}

/// A function to call: most take only their arguments; a metered one takes its steps as it
/// works.
#[derive(Clone, Copy)]
enum Called {
    Plain(Func),
    Metered(MeteredFunc),
}

/// What a function may read of its arguments, in steps: one per 16 bytes of each string (a
/// semver constraint or a pattern is parsed at about that cost), and one per
/// element of each list or map, counted all the way down (printing an element, or comparing
/// it, costs about what a step of the engine costs), so that calls on large values are
/// bounded in time as the values they make are. `u64::MAX` when the elements pass `allowed`
/// (a value that shares its parts may hold more elements than memory).
fn read_cost(args: &[Value], allowed: u64) -> u64 {
    let mut cost: u64 = 0;
    for v in args {
        match v {
            Value::String(s) => cost = cost.saturating_add(s.len() as u64 / 16),
            Value::List(..) | Value::Map(..) => {
                let mut left = allowed;
                if value_depth(v, &mut left).is_none() {
                    return u64::MAX;
                }
                cost = cost.saturating_add(allowed - left);
            }
            _ => {}
        }
    }
    cost
}

/// Go's "dig down one level": a nil interface is no value.
fn dig(v: Value) -> Value {
    match v {
        Value::Nil => Value::Missing,
        other => other,
    }
}

impl Exec<'_> {
    fn fail(&self, pos: usize, message: impl std::fmt::Display) -> TemplateError {
        let (line, column) = place(self.text, pos);
        TemplateError::Execution {
            message: format!("line {line}, column {column}: {message}"),
        }
    }

    fn unknown(&self, pos: usize, name: &str) -> TemplateError {
        let (line, column) = place(self.text, pos);
        TemplateError::Unknown {
            name: name.to_string(),
            line,
            column,
        }
    }

    fn function_error(&self, pos: usize, name: &str, e: FuncError) -> TemplateError {
        let (line, column) = place(self.text, pos);
        match e {
            FuncError::Limit { limit, max } => TemplateError::Limit { limit, max },
            FuncError::Unknown(n) => TemplateError::Unknown {
                name: n,
                line,
                column,
            },
            other => TemplateError::Function {
                name: name.to_string(),
                message: other.to_string(),
                line,
                column,
            },
        }
    }

    fn builtin_error(&self, pos: usize, b: Builtin, e: BuiltinError) -> TemplateError {
        let (line, column) = place(self.text, pos);
        match e {
            BuiltinError::Unknown(n) => TemplateError::Unknown {
                name: n,
                line,
                column,
            },
            BuiltinError::Args(m) | BuiltinError::Failed(m) => TemplateError::Function {
                name: b.name().to_string(),
                message: m,
                line,
                column,
            },
        }
    }

    fn steps_left(&self) -> u64 {
        self.limits.steps.saturating_sub(self.steps)
    }

    fn step(&mut self, cost: u64) -> Result<(), TemplateError> {
        self.steps = self.steps.saturating_add(cost);
        if self.steps > self.limits.steps {
            return Err(TemplateError::Limit {
                limit: Limit::Steps,
                max: self.limits.steps,
            });
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<(), TemplateError> {
        self.nesting += 1;
        super::error::mark_stack();
        if self.nesting > MAX_NESTING {
            return Err(TemplateError::Limit {
                limit: Limit::Nesting,
                max: MAX_NESTING as u64,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    fn write(&mut self, s: &str) -> Result<(), TemplateError> {
        if self.out.len().saturating_add(s.len()) > self.limits.output_bytes {
            return Err(TemplateError::Limit {
                limit: Limit::OutputBytes,
                max: self.limits.output_bytes as u64,
            });
        }
        self.out.push_str(s);
        Ok(())
    }

    fn walk_list(&mut self, dot: &Value, list: &[Node]) -> Flow {
        for node in list {
            self.walk(dot, node)?;
        }
        Ok(())
    }

    fn walk(&mut self, dot: &Value, node: &Node) -> Flow {
        match node {
            Node::Text(text) => self.write(text)?,
            Node::Action(pipe) => {
                let value = self.eval_pipeline(dot, pipe)?;
                if pipe.decl.is_empty() {
                    let text = fmt::print_value(&value, self.limits)
                        .map_err(|e| self.function_error(pipe.pos, "print", e))?;
                    self.write(&text)?;
                }
            }
            Node::If(branch) => self.walk_if_or_with(false, dot, branch)?,
            Node::With(branch) => self.walk_if_or_with(true, dot, branch)?,
            Node::Range(branch) => self.walk_range(dot, branch)?,
            Node::Template { pos, name, pipe } => {
                self.walk_template(dot, *pos, name, pipe.as_ref())?
            }
            Node::Break => return Err(Stop::Break),
            Node::Continue => return Err(Stop::Continue),
        }
        Ok(())
    }

    fn truth(&self, pos: usize, value: &Value) -> Result<bool, TemplateError> {
        builtins::truth(value).map_err(|e| match e {
            BuiltinError::Unknown(n) => self.unknown(pos, &n),
            BuiltinError::Args(m) | BuiltinError::Failed(m) => self.fail(pos, m),
        })
    }

    fn walk_if_or_with(&mut self, with: bool, dot: &Value, branch: &Branch) -> Flow {
        self.enter()?;
        self.step(1)?;
        let mark = self.vars.len();
        let value = self.eval_pipeline(dot, &branch.pipe)?;
        let result = if self.truth(branch.pos, &value)? {
            if with {
                self.walk_list(&value, &branch.list)
            } else {
                self.walk_list(dot, &branch.list)
            }
        } else if let Some(other) = &branch.else_list {
            self.walk_list(dot, other)
        } else {
            Ok(())
        };
        self.vars.truncate(mark);
        self.leave();
        result
    }

    fn walk_range(&mut self, dot: &Value, branch: &Branch) -> Flow {
        self.enter()?;
        let mark = self.vars.len();
        let value = self.eval_pipeline(dot, &branch.pipe)?;
        let top = self.vars.len();
        let decls = branch.pipe.decl.len();
        let pos = branch.pos;
        let mut ran = false;
        match &value {
            Value::List(items, _) => {
                for (i, elem) in items.iter().enumerate() {
                    ran = true;
                    if self.iteration(branch, top, Value::Int(i as i64), elem.clone())? {
                        break;
                    }
                }
            }
            Value::Map(map, _) => {
                for (key, elem) in map.iter() {
                    ran = true;
                    if self.iteration(branch, top, Value::string(key.as_str()), elem.clone())? {
                        break;
                    }
                }
            }
            Value::Int(_) | Value::Uint(_) if decls > 1 => {
                let text = fmt::print_value(&value, self.limits)
                    .map_err(|e| self.function_error(pos, "range", e))?;
                return Err(self
                    .fail(
                        pos,
                        format!("can't use {text} to iterate over more than one variable"),
                    )
                    .into());
            }
            Value::Int(n) => {
                for i in 0..*n {
                    ran = true;
                    if self.iteration(branch, top, Value::Int(i), Value::Int(i))? {
                        break;
                    }
                }
            }
            Value::Uint(n) => {
                for i in 0..*n {
                    ran = true;
                    if self.iteration(branch, top, Value::Uint(i), Value::Uint(i))? {
                        break;
                    }
                }
            }
            // A missing value ranges as an empty map.
            Value::Missing => {}
            Value::Unknown(name) => return Err(self.unknown(pos, name).into()),
            other => {
                let text = fmt::print_value(other, self.limits)
                    .map_err(|e| self.function_error(pos, "range", e))?;
                return Err(self
                    .fail(pos, format!("range can't iterate over {text}"))
                    .into());
            }
        }
        if !ran && let Some(other) = &branch.else_list {
            self.walk_list(dot, other)?;
        }
        self.vars.truncate(mark);
        self.leave();
        Ok(())
    }

    /// One iteration of a range; true when it ends the range (`break`).
    fn iteration(
        &mut self,
        branch: &Branch,
        top: usize,
        index: Value,
        elem: Value,
    ) -> Result<bool, Stop> {
        self.step(1)?;
        let decls = branch.pipe.decl.len();
        if decls > 0
            && let Some(slot) = self.vars.get_mut(top - 1)
        {
            slot.1 = elem.clone();
        }
        if decls > 1
            && let Some(slot) = self.vars.get_mut(top - 2)
        {
            slot.1 = index;
        }
        let result = self.walk_list(&elem, &branch.list);
        self.vars.truncate(top);
        match result {
            Ok(()) | Err(Stop::Continue) => Ok(false),
            Err(Stop::Break) => Ok(true),
            Err(e) => Err(e),
        }
    }

    fn walk_template(&mut self, dot: &Value, pos: usize, name: &str, pipe: Option<&Pipe>) -> Flow {
        let Some(tree) = self.trees.get(name).cloned() else {
            return Err(self
                .fail(pos, format!("template {name:?} not defined"))
                .into());
        };
        if self.depth >= self.limits.depth {
            return Err(TemplateError::Limit {
                limit: Limit::Depth,
                max: self.limits.depth as u64,
            }
            .into());
        }
        self.step(1)?;
        let new_dot = match pipe {
            Some(pipe) => self.eval_pipeline(dot, pipe)?,
            None => Value::Missing,
        };
        self.enter()?;
        self.depth += 1;
        let vars = std::mem::replace(&mut self.vars, vec![(Rc::from("$"), new_dot.clone())]);
        let result = self.walk_list(&new_dot, &tree);
        self.vars = vars;
        self.depth -= 1;
        self.leave();
        result
    }

    fn eval_pipeline(&mut self, dot: &Value, pipe: &Pipe) -> Result<Value, TemplateError> {
        let mut value: Option<Value> = None;
        for cmd in &pipe.cmds {
            let v = self.eval_command(dot, cmd, value.take())?;
            value = Some(dig(v));
        }
        let value = value.unwrap_or(Value::Missing);
        for (pos, name) in &pipe.decl {
            if pipe.is_assign {
                self.set_var(*pos, name, value.clone())?;
            } else {
                self.vars.push((name.clone(), value.clone()));
            }
        }
        Ok(value)
    }

    fn set_var(&mut self, pos: usize, name: &str, value: Value) -> Result<(), TemplateError> {
        for slot in self.vars.iter_mut().rev() {
            if &*slot.0 == name {
                slot.1 = value;
                return Ok(());
            }
        }
        Err(self.fail(pos, format!("undefined variable: {name}")))
    }

    fn var_value(&self, pos: usize, name: &str) -> Result<Value, TemplateError> {
        for slot in self.vars.iter().rev() {
            if &*slot.0 == name {
                return Ok(slot.1.clone());
            }
        }
        Err(self.fail(pos, format!("undefined variable: {name}")))
    }

    /// The source text of an argument, for messages.
    fn source(&self, arg: &Arg) -> String {
        let rest = self.text.get(arg.pos()..).unwrap_or("");
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '}' || c == ')' || c == '|')
            .unwrap_or(rest.len());
        rest.get(..end.max(1).min(rest.len()))
            .unwrap_or("")
            .to_string()
    }

    fn not_a_function(&self, args: &[Arg], last: &Option<Value>) -> Result<(), TemplateError> {
        if (args.len() > 1 || last.is_some())
            && let Some(first) = args.first()
        {
            return Err(self.fail(
                first.pos(),
                format!("can't give argument to non-function {}", self.source(first)),
            ));
        }
        Ok(())
    }

    fn eval_command(
        &mut self,
        dot: &Value,
        cmd: &Command,
        last: Option<Value>,
    ) -> Result<Value, TemplateError> {
        let Some(first) = cmd.args.first() else {
            return Err(self.fail(cmd.pos, "empty command"));
        };
        match first {
            Arg::Field { pos, idents } => {
                let has_args = cmd.args.len() > 1 || last.is_some();
                self.eval_field_chain(dot.clone(), *pos, idents, has_args)
            }
            Arg::Chain { pos, node, fields } => {
                let receiver = self.eval_arg(dot, node)?;
                let has_args = cmd.args.len() > 1 || last.is_some();
                self.eval_field_chain(receiver, *pos, fields, has_args)
            }
            Arg::Variable { pos, name, idents } => {
                let value = self.var_value(*pos, name)?;
                if idents.is_empty() {
                    self.not_a_function(&cmd.args, &last)?;
                    return Ok(value);
                }
                let has_args = cmd.args.len() > 1 || last.is_some();
                self.eval_field_chain(value, *pos, idents, has_args)
            }
            Arg::Func { pos, name, callee } => {
                self.eval_call(dot, *pos, name, *callee, &cmd.args[1..], last)
            }
            Arg::Pipe(pipe) => {
                self.not_a_function(&cmd.args, &last)?;
                self.enter()?;
                let value = self.eval_pipeline(dot, pipe);
                self.leave();
                value
            }
            other => {
                self.not_a_function(&cmd.args, &last)?;
                match other {
                    Arg::Nil(pos) => Err(self.fail(*pos, "nil is not a command")),
                    _ => self.eval_arg(dot, other),
                }
            }
        }
    }

    fn eval_field_chain(
        &mut self,
        mut receiver: Value,
        pos: usize,
        idents: &[Rc<str>],
        has_args: bool,
    ) -> Result<Value, TemplateError> {
        for (i, name) in idents.iter().enumerate() {
            let last = i + 1 == idents.len();
            receiver = self.eval_field(pos, name, receiver, has_args && last)?;
        }
        Ok(receiver)
    }

    fn eval_field(
        &mut self,
        pos: usize,
        name: &str,
        receiver: Value,
        has_args: bool,
    ) -> Result<Value, TemplateError> {
        match receiver {
            Value::Missing => Ok(Value::Missing),
            Value::Unknown(n) => Err(self.unknown(pos, &n)),
            Value::Nil => Err(self.fail(
                pos,
                format!(
                    "nil pointer evaluating interface {{}}.{name} (the value is null: give it a value, or test it with if before reading its fields)"
                ),
            )),
            Value::Map(map, _) => {
                if has_args {
                    return Err(self.fail(
                        pos,
                        format!("{name} is not a method but has arguments"),
                    ));
                }
                Ok(map.get(name).cloned().unwrap_or(Value::Missing))
            }
            Value::Version(v) => {
                let value = match name {
                    "Major" => Value::Uint(v.major),
                    "Minor" => Value::Uint(v.minor),
                    "Patch" => Value::Uint(v.patch),
                    "Prerelease" => Value::string(v.prerelease.as_str()),
                    "Metadata" => Value::string(v.metadata.as_str()),
                    "Original" => Value::string(v.original.as_str()),
                    "String" => Value::string(fmt::version_string(&v)),
                    "Compare" | "Equal" | "GreaterThan" | "LessThan" | "IncMajor"
                    | "IncMinor" | "IncPatch" | "SetPrerelease" | "SetMetadata" | "Value"
                    | "MarshalJSON" | "MarshalText" | "UnmarshalJSON" | "UnmarshalText"
                    | "Scan" => {
                        return Err(self.fail(
                            pos,
                            format!(
                                "the version method {name} is not evaluated by ipreuse; use .Major, .Minor, .Patch, .Prerelease, .Metadata, .Original or .String, or semverCompare"
                            ),
                        ));
                    }
                    _ => {
                        return Err(self.fail(
                            pos,
                            format!("can't evaluate field {name} in type *semver.Version"),
                        ));
                    }
                };
                self.step(1)?;
                if has_args {
                    return Err(self.fail(
                        pos,
                        format!("wrong number of args for {name}: want 0 got 1 or more"),
                    ));
                }
                Ok(value)
            }
            other => Err(self.fail(
                pos,
                format!("can't evaluate field {name} in type {}", other.go_type()),
            )),
        }
    }

    /// An argument's value as Go's `evalArg` gives it to a builtin (`reflect.Value`): a
    /// missing value stays missing.
    fn eval_arg(&mut self, dot: &Value, arg: &Arg) -> Result<Value, TemplateError> {
        match arg {
            Arg::Dot(_) => Ok(dot.clone()),
            Arg::Nil(_) => Ok(Value::Nil),
            Arg::Bool(_, b) => Ok(Value::Bool(*b)),
            Arg::String(_, s) => Ok(Value::String(s.clone())),
            Arg::Number(pos, n) => match n {
                Number::Int(i) => Ok(Value::Int(*i)),
                Number::Float(f) => Ok(Value::Float(*f)),
                Number::Overflow(text) => Err(self.fail(*pos, format!("{text} overflows int"))),
                Number::Complex(text) => Err(self.fail(
                    *pos,
                    format!(
                        "the complex constant {text} is not evaluated by ipreuse (CAPI's variables are never complex)"
                    ),
                )),
            },
            Arg::Field { pos, idents } => self.eval_field_chain(dot.clone(), *pos, idents, false),
            Arg::Variable { pos, name, idents } => {
                let value = self.var_value(*pos, name)?;
                self.eval_field_chain(value, *pos, idents, false)
            }
            Arg::Pipe(pipe) => {
                self.enter()?;
                let value = self.eval_pipeline(dot, pipe);
                self.leave();
                value
            }
            Arg::Func { pos, name, callee } => self.eval_call(dot, *pos, name, *callee, &[], None),
            Arg::Chain { pos, node, fields } => {
                self.enter()?;
                let receiver = self.eval_arg(dot, node);
                self.leave();
                self.eval_field_chain(receiver?, *pos, fields, false)
            }
        }
    }

    fn eval_call(
        &mut self,
        dot: &Value,
        pos: usize,
        name: &str,
        callee: Callee,
        args: &[Arg],
        last: Option<Value>,
    ) -> Result<Value, TemplateError> {
        self.step(1)?;
        match callee {
            Callee::Builtin(b @ (Builtin::And | Builtin::Or)) => {
                let count = args.len() + usize::from(last.is_some());
                b.check_args(count)
                    .map_err(|e| self.builtin_error(pos, b, e))?;
                let mut value = Value::Missing;
                for arg in args {
                    value = self.eval_arg(dot, arg)?;
                    if self.truth(arg.pos(), &value)? == (b == Builtin::Or) {
                        return Ok(value);
                    }
                }
                if let Some(last) = last {
                    value = last;
                }
                Ok(value)
            }
            Callee::Builtin(b) => {
                let mut values = Vec::with_capacity(args.len() + 1);
                for arg in args {
                    values.push(self.eval_arg(dot, arg)?);
                }
                values.extend(last);
                self.step(read_cost(&values, self.steps_left()))?;
                builtins::call(b, &values).map_err(|e| self.builtin_error(pos, b, e))
            }
            Callee::Func(f) => self.call_func(dot, pos, name, Called::Plain(f), args, last),
            Callee::Metered(f) => self.call_func(dot, pos, name, Called::Metered(f), args, last),
        }
    }

    fn call_func(
        &mut self,
        dot: &Value,
        pos: usize,
        name: &str,
        f: Called,
        args: &[Arg],
        last: Option<Value>,
    ) -> Result<Value, TemplateError> {
        let mut values = Vec::with_capacity(args.len() + 1);
        let ints = super::sprig::int_params(name);
        let maps = super::sprig::map_params(name);
        for (i, arg) in args.iter().enumerate() {
            match arg {
                // The nil constant for a map parameter is Go's empty map.
                Arg::Nil(_) if maps.contains(&i) => values.push(Value::Missing),
                // An integral constant for an `int` parameter is an int (Go's `IsInt`).
                Arg::Number(_, Number::Float(f))
                    if ints.contains(&i)
                        && f.fract() == 0.0
                        && *f >= i64::MIN as f64
                        && *f < i64::MAX as f64 =>
                {
                    values.push(Value::Int(*f as i64));
                }
                _ => values.push(self.eval_arg(dot, arg)?),
            }
        }
        values.extend(last);
        self.step(read_cost(&values, self.steps_left()))?;
        let lookup = LOOKUPS.contains(&name);
        for (value, at) in values
            .iter_mut()
            .zip(args.iter().map(Arg::pos).chain(std::iter::repeat(pos)))
        {
            // A missing value is passed as such: the function gives Go's validateType answer
            // (nil for an interface{} parameter, "invalid value" for a string one).
            let unknown = if lookup {
                match value {
                    Value::Unknown(n) => Some(n.to_string()),
                    _ => None,
                }
            } else {
                value.unknown().map(str::to_string)
            };
            if let Some(n) = unknown {
                return Err(self.unknown(at, &n));
            }
        }
        let result = match f {
            Called::Plain(f) => f(self.limits, &values),
            Called::Metered(f) => {
                let left = self.limits.steps.saturating_sub(self.steps);
                let mut meter = Meter::new(left, self.limits.steps);
                let result = f(self.limits, &mut meter, &values);
                self.step(meter.used())?;
                result
            }
        }
        .map_err(|e| self.function_error(pos, name, e))?;
        // A step per KiB of text made, and per 16 elements of a list or map (visited to
        // measure its depth): repeated large values are bounded in time too.
        let made = match &result {
            Value::String(s) => s.len() as u64 / 1024,
            Value::List(..) | Value::Map(..) => {
                let allowed = self
                    .limits
                    .steps
                    .saturating_sub(self.steps)
                    .saturating_mul(16);
                let mut budget = allowed;
                match value_depth(&result, &mut budget) {
                    Some(depth) if depth > MAX_VALUE_DEPTH => {
                        return Err(TemplateError::Limit {
                            limit: Limit::ValueDepth,
                            max: MAX_VALUE_DEPTH as u64,
                        });
                    }
                    Some(_) => (allowed - budget) / 16,
                    None => u64::MAX,
                }
            }
            _ => 0,
        };
        self.step(made)?;
        Ok(result)
    }
}
