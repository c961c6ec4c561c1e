//! Why a template cannot be rendered, where in its text, and the stack mark the tests read:
//! a leaf under the parser and the executor, which both report through it.

use super::limits::Limit;
use super::sprig;

/// Go's `text/template` builtins ipreuse evaluates, with `fmt`'s three; any other function a
/// template may call is in [`sprig::NAMES`].
pub const BUILTINS: &[&str] = &[
    "and", "or", "not", "eq", "ne", "lt", "le", "gt", "ge", "len", "index", "slice", "print",
    "printf", "println",
];

/// The functions a template may call, for messages.
fn function_names() -> String {
    let mut names: Vec<&str> = BUILTINS.iter().chain(sprig::NAMES).copied().collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

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
    /// A function that is neither Go's builtin nor one of sprig's that ipreuse evaluates.
    #[error(
        "line {line}, column {column}: function `{name}` is not one ipreuse evaluates; use only {}",
        function_names()
    )]
    UnknownFunction {
        name: String,
        line: usize,
        column: usize,
    },
    /// A literal `printf` format with a verb that `printf` does not evaluate (`%p`).
    #[error(
        "line {line}, column {column}: printf {what}, which ipreuse does not evaluate; use another verb (every other verb of Go's fmt is evaluated)"
    )]
    Printf {
        what: String,
        line: usize,
        column: usize,
    },
    /// A function refused its arguments (Go's execution would fail too).
    #[error("line {line}, column {column}: function `{name}`: {message}")]
    Function {
        name: String,
        message: String,
        line: usize,
        column: usize,
    },
    /// The execution failed (Go's would too): a comparison of a number with a string, a field
    /// of a string, an index out of range, ... The message starts with the line and column.
    #[error(
        "{message}; CAPI's rendering fails the same way: fix the template or the variables it reads"
    )]
    Execution { message: String },
    /// The template reads a builtin variable CAPI only knows once it creates the objects.
    #[error(
        "line {line}, column {column}: the template reads {name}, which CAPI only knows once it creates the objects (a generated name or uid), so it cannot be evaluated from Git; read another variable"
    )]
    Unknown {
        name: String,
        line: usize,
        column: usize,
    },
    /// The template passes one of the render's limits.
    #[error(
        "the template passes the limit of {max} {limit}; CAPI's controller would spend unbounded time or memory on it: simplify the template"
    )]
    Limit { limit: Limit, max: u64 },
}

/// The line and column (both from 1, the column in characters) of a byte offset.
pub(crate) fn place(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

// The lowest stack address the parser and the executor reached on this thread (tests measure
// the stack a nesting level takes with it).
#[cfg(test)]
thread_local! {
    pub(crate) static STACK_LOW: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Records the current stack depth (tests only).
#[inline(always)]
pub(crate) fn mark_stack() {
    #[cfg(test)]
    {
        let here = 0u8;
        let addr = std::ptr::addr_of!(here) as usize;
        STACK_LOW.with(|low| low.set(low.get().min(addr)));
    }
}
