//! The parser of Go's `text/template`, ported from Go's `src/text/template/parse/parse.go` and
//! `node.go` (Copyright The Go Authors, BSD-3-Clause; see the module docs).
//!
//! It builds the same trees as Go's, with the checks Go's parser makes (undefined variables,
//! undefined functions, `break`/`continue` outside `range`, `else` and `end` out of place,
//! number syntax), and those ipreuse adds: a function must be one ipreuse evaluates (Go's
//! builtins, `fmt`'s, and [`super::sprig::NAMES`]), and a literal `printf` format must use only
//! what [`super::fmt::sprintf`] implements. Every node keeps its byte offset in the text, so
//! that errors give the line and column.
//!
//! Differences from Go 1.19, as newer Go (CAPI's) parses:
//! - `{{else with ...}}` chains are accepted (Go 1.23);
//! - parentheses nest at most 10000 deep, `max expression depth exceeded` (newer Go's
//!   `maxStackDepth`); blocks and parentheses together at most [`MAX_NESTING`] (6000), a
//!   limit Go does not have, which no text within the ClusterClass CRD's maximum length
//!   (10240 characters: at most 5118 parentheses) reaches.
//! - `break` and `continue` are always keywords (Go makes them identifiers when a function of
//!   that name exists; none does here).
//!
//! The parser recurses, as Go's does, for nested blocks and parentheses; [`super::render_with`]
//! runs it on a thread whose stack holds the deepest nesting the limits admit, and
//! [`MAX_NESTING`] stops anything deeper with an error.

use std::collections::HashMap;
use std::rc::Rc;

use super::builtins::Builtin;
use super::error::{TemplateError, place};
use super::lex::{Item, Kind};
use super::number::{IntValue, parse_int, strip_underscores};
use super::value::{Func, MeteredFunc};

/// Newer Go's `maxStackDepth` for parenthesized pipelines.
const MAX_PAREN_DEPTH: usize = 10_000;

/// The deepest nesting of blocks and parentheses together the parser (and the executor, with
/// template calls) accepts: above what a template of the CRD's maximum length can reach
/// without template calls (at most 5118 parentheses, or about 800 blocks, in 10240
/// characters), and what the render thread's stack is sized for.
pub(super) const MAX_NESTING: usize = 6_000;

/// A function a template names, resolved when it is parsed.
#[derive(Clone, Copy)]
pub(super) enum Callee {
    Builtin(Builtin),
    Func(Func),
    Metered(MeteredFunc),
}

/// A numeric constant as Go's `idealConstant` gives it when it is evaluated.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Number {
    Int(i64),
    Float(f64),
    /// An integer constant that does not fit an `int`: an error when evaluated.
    Overflow(String),
    /// A complex constant: Go evaluates it, ipreuse does not.
    Complex(String),
}

#[derive(Clone)]
pub(super) enum Arg {
    /// `.a.b`: the field chain from dot.
    Field {
        pos: usize,
        idents: Vec<Rc<str>>,
    },
    /// `$x.a.b`: a variable and its field chain.
    Variable {
        pos: usize,
        name: Rc<str>,
        idents: Vec<Rc<str>>,
    },
    Func {
        pos: usize,
        name: Rc<str>,
        callee: Callee,
    },
    Dot(usize),
    Nil(usize),
    Bool(usize, bool),
    Number(usize, Number),
    String(usize, Rc<str>),
    Pipe(Box<Pipe>),
    /// `(pipeline).a.b`, `func.a`.
    Chain {
        pos: usize,
        node: Box<Arg>,
        fields: Vec<Rc<str>>,
    },
}

impl Arg {
    pub fn pos(&self) -> usize {
        match self {
            Arg::Field { pos, .. }
            | Arg::Variable { pos, .. }
            | Arg::Func { pos, .. }
            | Arg::Dot(pos)
            | Arg::Nil(pos)
            | Arg::Bool(pos, _)
            | Arg::Number(pos, _)
            | Arg::String(pos, _)
            | Arg::Chain { pos, .. } => *pos,
            Arg::Pipe(pipe) => pipe.pos,
        }
    }
}

#[derive(Clone)]
pub(super) struct Command {
    pub pos: usize,
    pub args: Vec<Arg>,
}

#[derive(Clone)]
pub(super) struct Pipe {
    pub pos: usize,
    pub is_assign: bool,
    pub decl: Vec<(usize, Rc<str>)>,
    pub cmds: Vec<Command>,
}

#[derive(Clone)]
pub(super) struct Branch {
    pub pos: usize,
    pub pipe: Pipe,
    pub list: Vec<Node>,
    pub else_list: Option<Vec<Node>>,
}

#[derive(Clone)]
pub(super) enum Node {
    Text(Rc<str>),
    Action(Pipe),
    If(Box<Branch>),
    Range(Box<Branch>),
    With(Box<Branch>),
    Template {
        pos: usize,
        name: Rc<str>,
        pipe: Option<Pipe>,
    },
    Break,
    Continue,
}

/// What ends an item list.
enum End {
    End,
    /// `{{else}}` at its left delimiter, and whether `if`/`with` follows (`else if`).
    Else(usize, Option<Kind>),
}

/// The parsed templates: the top-level one under [`TOP`] and every `define`/`block`.
pub(super) type Trees = HashMap<Rc<str>, Rc<Vec<Node>>>;

/// The top-level template's name (CAPI's `template.New("tpl")`).
pub(super) const TOP: &str = "tpl";

/// The functions Go's `text/template` has that ipreuse refuses as unknown: `call` (no Go
/// functions in the data), and the escapers `html`, `js`, `urlquery`.
pub(super) fn resolve(name: &str) -> Option<Callee> {
    if let Some(b) = Builtin::named(name) {
        return Some(Callee::Builtin(b));
    }
    let f: Func = match name {
        "print" => super::fmt::sprint,
        "println" => super::fmt::sprintln,
        "printf" => super::fmt::sprintf,
        _ => {
            return super::sprig::lookup(name)
                .map(Callee::Func)
                .or_else(|| super::sprig::lookup_metered(name).map(Callee::Metered));
        }
    };
    Some(Callee::Func(f))
}

struct Parser<'a> {
    text: &'a str,
    items: Vec<Item>,
    next: usize,
    vars: Vec<Rc<str>>,
    range_depth: usize,
    paren_depth: usize,
    nesting: usize,
    trees: Trees,
}

/// Parses `text` into its templates.
///
/// # Errors
/// [`TemplateError::Syntax`], [`TemplateError::UnknownFunction`], [`TemplateError::Printf`],
/// [`TemplateError::Limit`] past [`MAX_NESTING`].
#[cfg(test)]
pub(super) fn parse(text: &str) -> Result<Trees, TemplateError> {
    parse_items(text, super::lex::lex(text))
}

/// [`parse`] of the items [`super::lex::lex`] made of `text`.
///
/// # Errors
/// As [`parse`].
pub(super) fn parse_items(text: &str, items: Vec<Item>) -> Result<Trees, TemplateError> {
    let mut p = Parser {
        text,
        items,
        next: 0,
        vars: vec![Rc::from("$")],
        range_depth: 0,
        paren_depth: 0,
        nesting: 0,
        trees: HashMap::new(),
    };
    let root = p.parse_top()?;
    p.add(Rc::from(TOP), root, 0)?;
    Ok(p.trees)
}

/// Go's `IsEmptyTree`: only space in text.
fn is_empty(list: &[Node]) -> bool {
    list.iter().all(|n| match n {
        Node::Text(t) => t.trim_matches(|c: char| c.is_ascii_whitespace()).is_empty(),
        _ => false,
    })
}

impl Parser<'_> {
    fn error(&self, pos: usize, message: impl Into<String>) -> TemplateError {
        let (line, column) = place(self.text, pos);
        TemplateError::Syntax {
            line,
            column,
            message: message.into(),
        }
    }

    fn item(&self, i: usize) -> Item {
        match self.items.get(i).or(self.items.last()) {
            Some(item) => item.clone(),
            None => Item {
                kind: Kind::Eof,
                pos: self.text.len(),
                val: String::new(),
            },
        }
    }

    fn next(&mut self) -> Item {
        let item = self.item(self.next);
        if self.next < self.items.len() {
            self.next += 1;
        }
        item
    }

    fn backup(&mut self) {
        self.next = self.next.saturating_sub(1);
    }

    fn peek(&self) -> Item {
        self.item(self.next)
    }

    fn next_non_space(&mut self) -> Item {
        loop {
            let item = self.next();
            if item.kind != Kind::Space {
                return item;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item {
        let item = self.next_non_space();
        self.backup();
        item
    }

    fn unexpected(&self, item: &Item, context: &str) -> TemplateError {
        if item.kind == Kind::Error {
            return self.error(item.pos, item.val.clone());
        }
        self.error(
            item.pos,
            format!("unexpected {} in {context}", item.describe()),
        )
    }

    fn expect(&mut self, kind: Kind, context: &str) -> Result<Item, TemplateError> {
        let item = self.next_non_space();
        if item.kind != kind {
            return Err(self.unexpected(&item, context));
        }
        Ok(item)
    }

    fn enter(&mut self, pos: usize) -> Result<(), TemplateError> {
        self.nesting += 1;
        super::error::mark_stack();
        if self.nesting > MAX_NESTING {
            let _ = pos;
            return Err(TemplateError::Limit {
                limit: super::limits::Limit::Nesting,
                max: MAX_NESTING as u64,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Go's `add`: a second non-empty definition of a name is an error.
    fn add(&mut self, name: Rc<str>, list: Vec<Node>, pos: usize) -> Result<(), TemplateError> {
        match self.trees.get(&name) {
            Some(old) if !is_empty(old) => {
                if !is_empty(&list) {
                    return Err(self.error(
                        pos,
                        format!("template: multiple definition of template {name:?}"),
                    ));
                }
            }
            _ => {
                self.trees.insert(name, Rc::new(list));
            }
        }
        Ok(())
    }

    fn parse_top(&mut self) -> Result<Vec<Node>, TemplateError> {
        let mut root = Vec::new();
        while self.peek().kind != Kind::Eof {
            if self.peek().kind == Kind::LeftDelim {
                let mark = self.next;
                let delim = self.next();
                if self.next_non_space().kind == Kind::Define {
                    self.parse_definition(delim.pos)?;
                    continue;
                }
                self.next = mark;
            }
            match self.text_or_action()? {
                Ok(node) => root.push(node),
                Err((pos, End::End)) => return Err(self.error(pos, "unexpected {{end}}")),
                Err((pos, End::Else(..))) => return Err(self.error(pos, "unexpected {{else}}")),
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self, pos: usize) -> Result<(), TemplateError> {
        const CONTEXT: &str = "define clause";
        let name = self.next_non_space();
        if !matches!(name.kind, Kind::String | Kind::RawString) {
            return Err(self.unexpected(&name, CONTEXT));
        }
        let name_text = unquote(&name.val).map_err(|m| self.error(name.pos, m))?;
        self.expect(Kind::RightDelim, CONTEXT)?;
        // A definition sees only `$` (Go starts a new tree).
        let vars = std::mem::replace(&mut self.vars, vec![Rc::from("$")]);
        let range_depth = std::mem::replace(&mut self.range_depth, 0);
        let (list, end) = self.item_list()?;
        self.vars = vars;
        self.range_depth = range_depth;
        if let End::Else(at, _) = end {
            return Err(self.error(at, format!("unexpected {{{{else}}}} in {CONTEXT}")));
        }
        self.add(Rc::from(name_text), list, pos)
    }

    /// Nodes up to `{{end}}` or `{{else}}`.
    fn item_list(&mut self) -> Result<(Vec<Node>, End), TemplateError> {
        let mut list = Vec::new();
        while self.peek_non_space().kind != Kind::Eof {
            match self.text_or_action()? {
                Ok(node) => list.push(node),
                Err((_, end)) => return Ok((list, end)),
            }
        }
        let eof = self.peek_non_space();
        Err(self.unexpected_eof(&eof))
    }

    fn unexpected_eof(&self, item: &Item) -> TemplateError {
        if item.kind == Kind::Error {
            return self.error(item.pos, item.val.clone());
        }
        self.error(item.pos, "unexpected EOF")
    }

    /// A node, or the `{{end}}`/`{{else}}` that ends a list (with its position).
    #[allow(clippy::type_complexity)]
    fn text_or_action(&mut self) -> Result<Result<Node, (usize, End)>, TemplateError> {
        let item = self.next_non_space();
        match item.kind {
            Kind::Text => Ok(Ok(Node::Text(Rc::from(item.val)))),
            Kind::LeftDelim => self.action(item.pos),
            _ => Err(self.unexpected(&item, "input")),
        }
    }

    #[allow(clippy::type_complexity)]
    fn action(&mut self, delim: usize) -> Result<Result<Node, (usize, End)>, TemplateError> {
        let item = self.next_non_space();
        let node = match item.kind {
            Kind::Block => self.block_control(delim)?,
            Kind::Break | Kind::Continue => {
                let word = item.val.clone();
                let after = self.next_non_space();
                if after.kind != Kind::RightDelim {
                    return Err(self.unexpected(&after, &format!("{{{{{word}}}}}")));
                }
                if self.range_depth == 0 {
                    return Err(self.error(delim, format!("{{{{{word}}}}} outside {{{{range}}}}")));
                }
                if item.kind == Kind::Break {
                    Node::Break
                } else {
                    Node::Continue
                }
            }
            Kind::Else => {
                let peek = self.peek_non_space();
                if matches!(peek.kind, Kind::If | Kind::With) {
                    return Ok(Err((delim, End::Else(delim, Some(peek.kind)))));
                }
                self.expect(Kind::RightDelim, "else")?;
                return Ok(Err((delim, End::Else(delim, None))));
            }
            Kind::End => {
                self.expect(Kind::RightDelim, "end")?;
                return Ok(Err((delim, End::End)));
            }
            Kind::If => Node::If(Box::new(self.parse_control("if", item.pos)?)),
            Kind::Range => Node::Range(Box::new(self.parse_control("range", item.pos)?)),
            Kind::With => Node::With(Box::new(self.parse_control("with", item.pos)?)),
            Kind::Template => self.template_control()?,
            _ => {
                self.backup();
                Node::Action(self.pipeline("command", Kind::RightDelim)?)
            }
        };
        Ok(Ok(node))
    }

    fn parse_control(&mut self, context: &str, pos: usize) -> Result<Branch, TemplateError> {
        self.enter(pos)?;
        let vars = self.vars.len();
        let pipe = self.pipeline(context, Kind::RightDelim)?;
        if context == "range" {
            self.range_depth += 1;
        }
        let (list, end) = self.item_list()?;
        if context == "range" {
            self.range_depth -= 1;
        }
        let else_list = match end {
            End::End => None,
            End::Else(at, Some(kind)) if context != "range" => {
                // `{{else if}}` / `{{else with}}`: the chained block ends at the one `{{end}}`.
                if (kind == Kind::If) != (context == "if") {
                    let item = self.peek_non_space();
                    return Err(self.unexpected(&item, "input"));
                }
                let keyword = self.next_non_space();
                let inner = self.parse_control(context, keyword.pos)?;
                let _ = at;
                Some(vec![if context == "if" {
                    Node::If(Box::new(inner))
                } else {
                    Node::With(Box::new(inner))
                }])
            }
            End::Else(_, Some(_)) => {
                let item = self.peek_non_space();
                return Err(self.unexpected(&item, "input"));
            }
            End::Else(_, None) => {
                let (list, end) = self.item_list()?;
                if let End::Else(at, _) = end {
                    return Err(self.error(at, "expected end; found {{else}}"));
                }
                Some(list)
            }
        };
        self.vars.truncate(vars);
        self.leave();
        Ok(Branch {
            pos: pipe.pos,
            pipe,
            list,
            else_list,
        })
    }

    fn template_name(&mut self, context: &str) -> Result<(usize, Rc<str>), TemplateError> {
        let item = self.next_non_space();
        match item.kind {
            Kind::String | Kind::RawString => {
                let name = unquote(&item.val).map_err(|m| self.error(item.pos, m))?;
                Ok((item.pos, Rc::from(name)))
            }
            _ => Err(self.unexpected(&item, context)),
        }
    }

    fn template_control(&mut self) -> Result<Node, TemplateError> {
        const CONTEXT: &str = "template clause";
        let (pos, name) = self.template_name(CONTEXT)?;
        let pipe = if self.next_non_space().kind != Kind::RightDelim {
            self.backup();
            Some(self.pipeline(CONTEXT, Kind::RightDelim)?)
        } else {
            None
        };
        Ok(Node::Template { pos, name, pipe })
    }

    fn block_control(&mut self, delim: usize) -> Result<Node, TemplateError> {
        const CONTEXT: &str = "block clause";
        let (pos, name) = self.template_name(CONTEXT)?;
        let pipe = self.pipeline(CONTEXT, Kind::RightDelim)?;
        self.enter(pos)?;
        let vars = std::mem::replace(&mut self.vars, vec![Rc::from("$")]);
        let range_depth = std::mem::replace(&mut self.range_depth, 0);
        let (list, end) = self.item_list()?;
        self.vars = vars;
        self.range_depth = range_depth;
        self.leave();
        if let End::Else(at, _) = end {
            return Err(self.error(at, format!("unexpected {{{{else}}}} in {CONTEXT}")));
        }
        self.add(name.clone(), list, delim)?;
        Ok(Node::Template {
            pos,
            name,
            pipe: Some(pipe),
        })
    }

    fn pipeline(&mut self, context: &str, end: Kind) -> Result<Pipe, TemplateError> {
        let start = self.peek_non_space();
        let mut pipe = Pipe {
            pos: start.pos,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        // Declarations or assignments.
        loop {
            let mark = self.next;
            let v = self.next_non_space();
            if v.kind != Kind::Variable {
                self.next = mark;
                break;
            }
            let next = self.peek_non_space();
            match next.kind {
                Kind::Assign | Kind::Declare => {
                    pipe.is_assign = next.kind == Kind::Assign;
                    self.next_non_space();
                    let name: Rc<str> = Rc::from(v.val.as_str());
                    pipe.decl.push((v.pos, name.clone()));
                    self.vars.push(name);
                    break;
                }
                Kind::Char if next.val == "," => {
                    self.next_non_space();
                    let name: Rc<str> = Rc::from(v.val.as_str());
                    pipe.decl.push((v.pos, name.clone()));
                    self.vars.push(name);
                    if context == "range" && pipe.decl.len() < 2 {
                        match self.peek_non_space().kind {
                            Kind::Variable | Kind::RightDelim | Kind::RightParen => continue,
                            _ => {
                                return Err(
                                    self.error(next.pos, "range can only initialize variables")
                                );
                            }
                        }
                    }
                    return Err(self.error(next.pos, format!("too many declarations in {context}")));
                }
                _ => {
                    self.next = mark;
                    break;
                }
            }
        }
        loop {
            let item = self.next_non_space();
            if item.kind == end {
                self.check_pipeline(&pipe, context, item.pos)?;
                return Ok(pipe);
            }
            match item.kind {
                Kind::Bool
                | Kind::CharConstant
                | Kind::Complex
                | Kind::Dot
                | Kind::Field
                | Kind::Identifier
                | Kind::Number
                | Kind::Nil
                | Kind::RawString
                | Kind::String
                | Kind::Variable
                | Kind::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return Err(self.unexpected(&item, context)),
            }
        }
    }

    fn check_pipeline(&self, pipe: &Pipe, context: &str, pos: usize) -> Result<(), TemplateError> {
        if pipe.cmds.is_empty() {
            return Err(self.error(pos, format!("missing value for {context}")));
        }
        for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
            if let Some(
                first @ (Arg::Bool(..)
                | Arg::Dot(_)
                | Arg::Nil(_)
                | Arg::Number(..)
                | Arg::String(..)),
            ) = c.args.first()
            {
                return Err(self.error(
                    first.pos(),
                    format!("non executable command in pipeline stage {}", i + 1),
                ));
            }
        }
        Ok(())
    }

    fn command(&mut self) -> Result<Command, TemplateError> {
        let start = self.peek_non_space();
        let mut cmd = Command {
            pos: start.pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space();
            if let Some(operand) = self.operand()? {
                cmd.args.push(operand);
            }
            let item = self.next();
            match item.kind {
                Kind::Space => continue,
                Kind::RightDelim | Kind::RightParen => self.backup(),
                Kind::Pipe => {}
                _ => return Err(self.unexpected(&item, "operand")),
            }
            break;
        }
        if cmd.args.is_empty() {
            return Err(self.error(cmd.pos, "empty command"));
        }
        self.check_printf(&cmd)?;
        Ok(cmd)
    }

    /// A literal `printf` format must use only what `fmt::sprintf` implements.
    fn check_printf(&self, cmd: &Command) -> Result<(), TemplateError> {
        if let [Arg::Func { pos, name, .. }, Arg::String(_, format), ..] = cmd.args.as_slice()
            && &**name == "printf"
            && let Err(what) = super::fmt::check_format(format)
        {
            let (line, column) = place(self.text, *pos);
            return Err(TemplateError::Printf { what, line, column });
        }
        Ok(())
    }

    fn operand(&mut self) -> Result<Option<Arg>, TemplateError> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek().kind != Kind::Field {
            return Ok(Some(node));
        }
        let chain_pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().kind == Kind::Field {
            let item = self.next();
            fields.push(Rc::from(item.val.get(1..).unwrap_or("")));
        }
        Ok(Some(match node {
            Arg::Field { pos, mut idents } => {
                idents.extend(fields);
                Arg::Field { pos, idents }
            }
            Arg::Variable {
                pos,
                name,
                mut idents,
            } => {
                idents.extend(fields);
                Arg::Variable { pos, name, idents }
            }
            Arg::Bool(..) | Arg::String(..) | Arg::Number(..) | Arg::Nil(_) | Arg::Dot(_) => {
                let text = self.text.get(node.pos()..chain_pos).unwrap_or("");
                return Err(self.error(chain_pos, format!("unexpected . after term {text:?}")));
            }
            other => Arg::Chain {
                pos: chain_pos,
                node: Box::new(other),
                fields,
            },
        }))
    }

    fn term(&mut self) -> Result<Option<Arg>, TemplateError> {
        let item = self.next_non_space();
        let pos = item.pos;
        Ok(Some(match item.kind {
            Kind::Identifier => {
                let Some(callee) = resolve(&item.val) else {
                    let (line, column) = place(self.text, pos);
                    return Err(TemplateError::UnknownFunction {
                        name: item.val,
                        line,
                        column,
                    });
                };
                Arg::Func {
                    pos,
                    name: Rc::from(item.val),
                    callee,
                }
            }
            Kind::Dot => Arg::Dot(pos),
            Kind::Nil => Arg::Nil(pos),
            Kind::Variable => {
                let mut parts = item.val.split('.');
                let name: Rc<str> = Rc::from(parts.next().unwrap_or("$"));
                if !self.vars.contains(&name) {
                    return Err(self.error(pos, format!("undefined variable {name:?}")));
                }
                Arg::Variable {
                    pos,
                    name,
                    idents: parts.map(Rc::from).collect(),
                }
            }
            Kind::Field => Arg::Field {
                pos,
                idents: item.val.split('.').skip(1).map(Rc::from).collect(),
            },
            Kind::Bool => Arg::Bool(pos, item.val == "true"),
            Kind::CharConstant | Kind::Complex | Kind::Number => {
                let number = number(&item.val, item.kind).map_err(|m| self.error(pos, m))?;
                Arg::Number(pos, number)
            }
            Kind::LeftParen => {
                if self.paren_depth >= MAX_PAREN_DEPTH {
                    return Err(self.error(pos, "max expression depth exceeded"));
                }
                self.enter(pos)?;
                self.paren_depth += 1;
                let pipe = self.pipeline("parenthesized pipeline", Kind::RightParen)?;
                self.paren_depth -= 1;
                self.leave();
                Arg::Pipe(Box::new(pipe))
            }
            Kind::String | Kind::RawString => {
                let text = unquote(&item.val).map_err(|m| self.error(pos, m))?;
                Arg::String(pos, Rc::from(text))
            }
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// Literals: strconv.Unquote, UnquoteChar, ParseInt/ParseUint/ParseFloat as node.go uses them.
// ---------------------------------------------------------------------------------------------

/// Go's `strconv.Unquote` for a double-quoted or raw string. A `\x` or octal escape of a byte
/// above 0x7f makes a string that is not UTF-8: refused.
pub(super) fn unquote(quoted: &str) -> Result<String, String> {
    if let Some(raw) = quoted.strip_prefix('`').and_then(|s| s.strip_suffix('`')) {
        // strconv.Unquote drops carriage returns from raw strings.
        return Ok(raw.replace('\r', ""));
    }
    let Some(inner) = quoted.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return Err("invalid syntax".to_string());
    };
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while !rest.is_empty() {
        let (c, tail) = unquote_char(rest, '"')?;
        out.push(c);
        rest = tail;
    }
    Ok(out)
}

/// Go's `strconv.UnquoteChar`: the first character of `s` (an escape or not) and the rest.
fn unquote_char(s: &str, quote: char) -> Result<(char, &str), String> {
    let invalid = || "invalid syntax".to_string();
    let mut chars = s.chars();
    let c = chars.next().ok_or_else(invalid)?;
    if c == quote && (quote == '\'' || quote == '"') {
        return Err(invalid());
    }
    if c != '\\' {
        return Ok((c, chars.as_str()));
    }
    let e = chars.next().ok_or_else(invalid)?;
    let rest = chars.as_str();
    let simple = match e {
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\u{b}'),
        '\\' => Some('\\'),
        '\'' | '"' if e == quote => Some(e),
        _ => None,
    };
    if let Some(c) = simple {
        return Ok((c, rest));
    }
    let (digits, radix) = match e {
        'x' => (2, 16),
        'u' => (4, 16),
        'U' => (8, 16),
        '0'..='7' => (3, 8),
        _ => return Err(invalid()),
    };
    let (text, tail) = if radix == 8 {
        let text = s.get(1..4).ok_or_else(invalid)?;
        (text, s.get(4..).unwrap_or(""))
    } else {
        (
            rest.get(..digits).ok_or_else(invalid)?,
            rest.get(digits..).unwrap_or(""),
        )
    };
    let value = u32::from_str_radix(text, radix).map_err(|_| invalid())?;
    if !text.chars().all(|c| c.is_digit(radix)) {
        return Err(invalid());
    }
    if matches!(e, 'x' | '0'..='7') {
        if value > 255 {
            return Err(invalid());
        }
        if value > 0x7f && quote == '"' {
            return Err(format!(
                "the escape \\{e}{} in a string is a byte that is not a character (the string would not be UTF-8), which ipreuse does not evaluate; write the character itself",
                &text[usize::from(radix == 8)..]
            ));
        }
    }
    let c = char::from_u32(value).ok_or_else(invalid)?;
    Ok((c, tail))
}

/// Go's `newNumber` followed by `idealConstant`'s choice of type.
pub(super) fn number(text: &str, kind: Kind) -> Result<Number, String> {
    if kind == Kind::CharConstant {
        let inner = text.get(1..).unwrap_or("");
        let (c, tail) = unquote_char(inner, '\'')
            .map_err(|_| format!("malformed character constant: {text}"))?;
        if tail != "'" {
            return Err(format!("malformed character constant: {text}"));
        }
        return Ok(Number::Int(i64::from(u32::from(c))));
    }
    if kind == Kind::Complex
        || text
            .strip_suffix('i')
            .is_some_and(|f| parse_float(f).is_some() || parse_int(f).is_some())
    {
        return Ok(Number::Complex(text.to_string()));
    }
    let int = parse_int(text);
    let is_hex_int = text.len() > 2
        && (text.starts_with("0x") || text.starts_with("0X"))
        && !text.contains(['p', 'P']);
    let floaty = !is_hex_int && text.contains(['.', 'e', 'E', 'p', 'P']);
    match int {
        Some(IntValue::Int(i)) => {
            if floaty {
                Ok(Number::Float(i as f64))
            } else {
                Ok(Number::Int(i))
            }
        }
        Some(IntValue::Uint(u)) => {
            if floaty {
                Ok(Number::Float(u as f64))
            } else {
                Ok(Number::Overflow(text.to_string()))
            }
        }
        None => match parse_float(text) {
            Some(f) => {
                if !text.contains(['.', 'e', 'E', 'p', 'P']) {
                    return Err(format!("integer overflow: {text:?}"));
                }
                Ok(Number::Float(f))
            }
            None => Err(format!("illegal number syntax: {text:?}")),
        },
    }
}

/// `strconv.ParseFloat(text, 64)` for Go's decimal and hexadecimal float syntax.
fn parse_float(text: &str) -> Option<f64> {
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, &text[1..]),
        Some(b'+') => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    let lower = body.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        let hex = strip_underscores(hex, true)?;
        let (mantissa, exp) = hex.split_once('p')?;
        let exp: i32 = exp.parse().ok()?;
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let mut value = 0f64;
        for c in int.chars() {
            value = value * 16.0 + f64::from(c.to_digit(16)?);
        }
        let mut scale = 1.0 / 16.0;
        for c in frac.chars() {
            value += f64::from(c.to_digit(16)?) * scale;
            scale /= 16.0;
        }
        return Some(sign * value * 2f64.powi(exp));
    }
    let digits = strip_underscores(&lower, false)?;
    if !digits
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
        || !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
    {
        return None;
    }
    digits.parse::<f64>().ok().map(|f| sign * f)
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
