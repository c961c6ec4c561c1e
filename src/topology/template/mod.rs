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
//! The engine is ipreuse's own port of Go's `text/template` (issue 32: the `gotmpl` crate
//! could not be bounded, refused nesting Go accepts and lost error positions):
//! - [`lex`] and [`parse`] port `src/text/template/parse/{lex.go,parse.go,node.go}`;
//! - [`exec`] ports `src/text/template/exec.go`, [`builtins`] the builtins of `funcs.go`;
//! - [`fmt`] is Go's `fmt` as templates reach it, [`sprig`] sprig's hermetic functions.
//!
//! Those ports follow the Go sources, Copyright 2011 The Go Authors, used under Go's
//! BSD-3-Clause licence:
//!
//! > Redistribution and use in source and binary forms, with or without modification, are
//! > permitted provided that the following conditions are met: Redistributions of source code
//! > must retain the above copyright notice, this list of conditions and the following
//! > disclaimer. Redistributions in binary form must reproduce the above copyright notice,
//! > this list of conditions and the following disclaimer in the documentation and/or other
//! > materials provided with the distribution. Neither the name of Google Inc. nor the names
//! > of its contributors may be used to endorse or promote products derived from this
//! > software without specific prior written permission. THIS SOFTWARE IS PROVIDED BY THE
//! > COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES,
//! > INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
//! > PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS
//! > BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
//! > DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS
//! > OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
//! > LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR
//! > OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
//! > POSSIBILITY OF SUCH DAMAGE.
//!
//! Where CAPI's Go (1.23/1.24 for CAPI v1.10+) differs from Go 1.19's `text/template`, the
//! engine follows CAPI's: `range` over an integer (Go 1.22), `{{else with}}` (Go 1.23), the
//! parser's limit of 10000 nested parentheses. Every other difference, on purpose, is in
//! the docs of the module that makes it ([`parse`], [`exec`], [`builtins`]).
//!
//! Bounded ([`Limits`]): a text longer than [`Limits::template_bytes`] is refused before it is
//! parsed; execution counts steps, output and template-call depth. Go's parser and executor
//! recurse for nested blocks and parentheses; a template whose nesting could be deep (or that
//! calls templates) is parsed and executed on a thread with a stack of [`STACK_BYTES`], sized
//! by the test `deepest_nesting_renders` for [`parse::MAX_NESTING`] levels, which no text
//! within the CRD's maximum length reaches.

mod builtins;
mod error;
mod exec;
pub mod fmt;
mod lex;
pub mod limits;
mod number;
mod parse;
pub mod sprig;
pub mod value;

#[cfg(test)]
pub(crate) use error::STACK_LOW;
pub use error::{BUILTINS, TemplateError};
pub use limits::{Limit, Limits};
use value::Value;

/// The stack of the thread that parses and executes a deeply nested template: the test
/// `deepest_nesting_renders` measures a level at about 7.4 KiB in a debug build (less in
/// release), and checks that this holds [`parse::MAX_NESTING`] levels twice over (6000 x 7.4
/// KiB x 2 = 89 MB). Reserved, not touched, unless a template nests that deep.
pub const STACK_BYTES: usize = 128 << 20;

/// Nesting up to which a template is rendered on the caller's thread (a few hundred KiB of
/// stack in a debug build).
const INLINE_NESTING: usize = 48;

/// Renders `text` with `data` (the variables object: `builtin` and the user variables by
/// name) as Go's `text/template` with sprig's functions renders it in CAPI, within the
/// default [`Limits`].
///
/// # Errors
/// [`TemplateError`]: a syntax error, a function ipreuse does not evaluate, an unsupported
/// `printf` verb, an execution that Go would fail too, a limit passed.
pub fn render(text: &str, data: &serde_json::Value) -> Result<String, TemplateError> {
    render_with(text, &Value::from_json(data), &Limits::default())
}

/// [`render`] with data that may hold unknown builtins, within `limits`.
///
/// # Errors
/// As [`render`]; [`TemplateError::Unknown`] at the first use of an unknown builtin.
pub fn render_with(text: &str, data: &Value, limits: &Limits) -> Result<String, TemplateError> {
    render_metered(text, data, limits).0
}

/// [`render_with`], and the steps the execution took (up to [`Limits::steps`]; none when the
/// text is refused before it runs): what a caller that bounds many renders together counts.
pub fn render_metered(
    text: &str,
    data: &Value,
    limits: &Limits,
) -> (Result<String, TemplateError>, u64) {
    // The CRD's maxLength counts characters.
    if text.len() > limits.template_bytes && text.chars().count() > limits.template_bytes {
        let error = TemplateError::Limit {
            limit: Limit::TemplateBytes,
            max: limits.template_bytes as u64,
        };
        return (Err(error), 0);
    }
    let items = lex::lex(text);
    if !may_nest_deeply(&items) {
        return render_here(text, items, data, limits);
    }
    let owned = Owned::from(data);
    let text = text.to_string();
    let limits = *limits;
    let worker = std::thread::Builder::new()
        .name("ipreuse-template".to_string())
        .stack_size(STACK_BYTES)
        .spawn(move || render_here(&text, items, &owned.into_value(), &limits));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) | Err(_) => {
            let error = TemplateError::Execution {
                message:
                    "line 1, column 1: the template could not be rendered (no thread for its nesting)"
                        .to_string(),
            };
            (Err(error), limits.steps)
        }
    }
}

fn render_here(
    text: &str,
    items: Vec<lex::Item>,
    data: &Value,
    limits: &Limits,
) -> (Result<String, TemplateError>, u64) {
    match parse::parse_items(text, items) {
        Ok(trees) => exec::execute(text, &trees, data, limits),
        Err(e) => (Err(e), 0),
    }
}

/// Whether the template may nest deeper than [`INLINE_NESTING`] (counting every opening
/// token, which over-counts) or calls templates (which recurse).
fn may_nest_deeply(items: &[lex::Item]) -> bool {
    use lex::Kind;
    let mut opening = 0;
    for item in items {
        match item.kind {
            Kind::Template | Kind::Block => return true,
            Kind::LeftParen | Kind::If | Kind::Range | Kind::With | Kind::Define | Kind::Else => {
                opening += 1;
                if opening > INLINE_NESTING {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// A [`Value`] that can cross to the render thread (`Value` shares by `Rc`).
enum Owned {
    Missing,
    Nil,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    String(String),
    List(Vec<Owned>, value::Elem),
    Map(Vec<(String, Owned)>, value::Elem),
    Version(value::Version),
    Unknown(String),
}

impl From<&Value> for Owned {
    fn from(v: &Value) -> Owned {
        match v {
            Value::Missing => Owned::Missing,
            Value::Nil => Owned::Nil,
            Value::Bool(b) => Owned::Bool(*b),
            Value::Int(n) => Owned::Int(*n),
            Value::Uint(n) => Owned::Uint(*n),
            Value::Float(f) => Owned::Float(*f),
            Value::String(s) => Owned::String(s.to_string()),
            Value::List(items, e) => Owned::List(items.iter().map(Owned::from).collect(), *e),
            Value::Map(map, e) => Owned::Map(
                map.iter()
                    .map(|(k, v)| (k.clone(), Owned::from(v)))
                    .collect(),
                *e,
            ),
            Value::Version(v) => Owned::Version((**v).clone()),
            Value::Unknown(n) => Owned::Unknown(n.to_string()),
        }
    }
}

impl Owned {
    fn into_value(self) -> Value {
        use std::rc::Rc;
        match self {
            Owned::Missing => Value::Missing,
            Owned::Nil => Value::Nil,
            Owned::Bool(b) => Value::Bool(b),
            Owned::Int(n) => Value::Int(n),
            Owned::Uint(n) => Value::Uint(n),
            Owned::Float(f) => Value::Float(f),
            Owned::String(s) => Value::string(s),
            Owned::List(items, e) => Value::List(
                Rc::new(items.into_iter().map(Owned::into_value).collect()),
                e,
            ),
            Owned::Map(map, e) => Value::Map(
                Rc::new(map.into_iter().map(|(k, v)| (k, v.into_value())).collect()),
                e,
            ),
            Owned::Version(v) => Value::Version(Rc::new(v)),
            Owned::Unknown(n) => Value::Unknown(Rc::from(n)),
        }
    }
}

#[cfg(test)]
mod tests;
