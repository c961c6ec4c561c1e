//! The lexer of Go's `text/template`, ported from Go's `src/text/template/parse/lex.go`
//! (Copyright The Go Authors, BSD-3-Clause; see the module docs).
//!
//! Go's lexer runs as a goroutine handing items to the parser; this one runs the same state
//! machine to the end (or to its first error) and hands the parser a vector. It never
//! recurses, so no text can exhaust the stack here. Delimiters are always `{{` and `}}`, and
//! comments are dropped (Go keeps them only in `ParseComments` mode, which CAPI does not use).

/// The kind of a lexed item (Go's `itemType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Error,
    Bool,
    Char,
    CharConstant,
    Complex,
    Assign,
    Declare,
    Eof,
    Field,
    Identifier,
    LeftDelim,
    LeftParen,
    Number,
    Pipe,
    RawString,
    RightDelim,
    RightParen,
    Space,
    String,
    Text,
    Variable,
    // Keywords.
    Block,
    Break,
    Continue,
    Dot,
    Define,
    Else,
    End,
    If,
    Nil,
    Range,
    Template,
    With,
}

/// One lexed item: its kind, its byte offset in the text and its text (for an error item:
/// the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Item {
    pub kind: Kind,
    pub pos: usize,
    pub val: String,
}

impl Item {
    /// How Go's parser names the item in "unexpected ..." messages (`item.String()`).
    pub fn describe(&self) -> String {
        match self.kind {
            Kind::Eof => "EOF".to_string(),
            Kind::Error => self.val.clone(),
            Kind::Block
            | Kind::Break
            | Kind::Continue
            | Kind::Define
            | Kind::Else
            | Kind::End
            | Kind::If
            | Kind::Range
            | Kind::Template
            | Kind::With
            | Kind::Nil
            | Kind::Dot => format!("<{}>", self.val),
            _ if self.val.chars().count() > 10 => {
                let head: String = self.val.chars().take(10).collect();
                format!("{head:?}...")
            }
            _ => format!("{:?}", self.val),
        }
    }
}

const LEFT: &str = "{{";
const RIGHT: &str = "}}";

fn keyword(word: &str) -> Option<Kind> {
    Some(match word {
        "." => Kind::Dot,
        "block" => Kind::Block,
        "break" => Kind::Break,
        "continue" => Kind::Continue,
        "define" => Kind::Define,
        "else" => Kind::Else,
        "end" => Kind::End,
        "if" => Kind::If,
        "range" => Kind::Range,
        "nil" => Kind::Nil,
        "template" => Kind::Template,
        "with" => Kind::With,
        _ => return None,
    })
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn is_alphanumeric(c: char) -> bool {
    // Go: '_' || unicode.IsLetter || unicode.IsDigit (Nd). Rust's `is_alphabetic` also holds
    // letter-like marks and `is_numeric` other numbers; close enough for identifiers, which
    // are checked against the function names anyway.
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

fn has_left_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'-' && is_space(b[1] as char)
}

fn has_right_trim(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && is_space(b[0] as char) && b[1] == b'-'
}

enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    InsideAction,
    Space,
    Identifier,
    Field,
    Variable,
    Char,
    Number,
    Quote,
    RawQuote,
}

struct Lexer<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
    paren_depth: i64,
    items: Vec<Item>,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        self.input.get(self.pos..).unwrap_or("")
    }

    fn next(&mut self) -> Option<char> {
        let c = self.rest().chars().next()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn backup(&mut self, c: Option<char>) {
        if let Some(c) = c {
            self.pos -= c.len_utf8();
        }
    }

    fn emit(&mut self, kind: Kind) {
        let val = self
            .input
            .get(self.start..self.pos)
            .unwrap_or("")
            .to_string();
        self.items.push(Item {
            kind,
            pos: self.start,
            val,
        });
        self.start = self.pos;
    }

    fn ignore(&mut self) {
        self.start = self.pos;
    }

    fn error(&mut self, message: String) -> Option<State> {
        self.items.push(Item {
            kind: Kind::Error,
            pos: self.start,
            val: message,
        });
        None
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.peek() {
            Some(c) if valid.contains(c) => {
                self.pos += c.len_utf8();
                true
            }
            _ => false,
        }
    }

    fn accept_run(&mut self, valid: &str) {
        while self.accept(valid) {}
    }

    fn at_right_delim(&self) -> (bool, bool) {
        let rest = self.rest();
        if has_right_trim(rest) && rest.get(2..).is_some_and(|r| r.starts_with(RIGHT)) {
            return (true, true);
        }
        (rest.starts_with(RIGHT), false)
    }

    fn at_terminator(&self) -> bool {
        match self.peek() {
            None => true,
            Some(c) if is_space(c) => true,
            Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            _ => self.rest().starts_with(RIGHT),
        }
    }

    fn step(&mut self, state: State) -> Option<State> {
        match state {
            State::Text => self.lex_text(),
            State::LeftDelim => self.lex_left_delim(),
            State::Comment => self.lex_comment(),
            State::RightDelim => self.lex_right_delim(),
            State::InsideAction => self.lex_inside_action(),
            State::Space => self.lex_space(),
            State::Identifier => self.lex_identifier(),
            State::Field => self.lex_field_or_variable(Kind::Field),
            State::Variable => {
                if self.at_terminator() {
                    self.emit(Kind::Variable);
                    return Some(State::InsideAction);
                }
                self.lex_field_or_variable(Kind::Variable)
            }
            State::Char => self.lex_quoted('\'', Kind::CharConstant, "character constant"),
            State::Number => self.lex_number(),
            State::Quote => self.lex_quoted('"', Kind::String, "quoted string"),
            State::RawQuote => self.lex_raw_quote(),
        }
    }

    fn lex_text(&mut self) -> Option<State> {
        if let Some(x) = self.rest().find(LEFT) {
            let delim_at = self.pos + x;
            let mut text_end = delim_at;
            if has_left_trim(self.input.get(delim_at + LEFT.len()..).unwrap_or("")) {
                let text = self.input.get(self.start..delim_at).unwrap_or("");
                text_end = self.start + text.trim_end_matches(is_space).len();
            }
            self.pos = text_end;
            if self.pos > self.start {
                self.emit(Kind::Text);
            }
            self.pos = delim_at;
            self.ignore();
            return Some(State::LeftDelim);
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.emit(Kind::Text);
        }
        self.emit(Kind::Eof);
        None
    }

    fn lex_left_delim(&mut self) -> Option<State> {
        self.pos += LEFT.len();
        let trim = has_left_trim(self.rest());
        let after = if trim { 2 } else { 0 };
        if self
            .rest()
            .get(after..)
            .is_some_and(|r| r.starts_with("/*"))
        {
            self.pos += after;
            self.ignore();
            return Some(State::Comment);
        }
        self.emit(Kind::LeftDelim);
        self.pos += after;
        self.ignore();
        self.paren_depth = 0;
        Some(State::InsideAction)
    }

    fn lex_comment(&mut self) -> Option<State> {
        self.pos += 2;
        let Some(i) = self.rest().find("*/") else {
            return self.error("unclosed comment".to_string());
        };
        self.pos += i + 2;
        let (delim, trim) = self.at_right_delim();
        if !delim {
            return self.error("comment ends before closing delimiter".to_string());
        }
        if trim {
            self.pos += 2;
        }
        self.pos += RIGHT.len();
        if trim {
            let rest = self.rest();
            self.pos += rest.len() - rest.trim_start_matches(is_space).len();
        }
        self.ignore();
        Some(State::Text)
    }

    fn lex_right_delim(&mut self) -> Option<State> {
        let trim = has_right_trim(self.rest());
        if trim {
            self.pos += 2;
            self.ignore();
        }
        self.pos += RIGHT.len();
        self.emit(Kind::RightDelim);
        if trim {
            let rest = self.rest();
            self.pos += rest.len() - rest.trim_start_matches(is_space).len();
            self.ignore();
        }
        Some(State::Text)
    }

    fn lex_inside_action(&mut self) -> Option<State> {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return Some(State::RightDelim);
            }
            return self.error("unclosed left paren".to_string());
        }
        let c = self.next();
        match c {
            None => return self.error("unclosed action".to_string()),
            Some(c) if is_space(c) => {
                self.backup(Some(c));
                return Some(State::Space);
            }
            Some('=') => self.emit(Kind::Assign),
            Some(':') => {
                if self.next() != Some('=') {
                    return self.error("expected :=".to_string());
                }
                self.emit(Kind::Declare);
            }
            Some('|') => self.emit(Kind::Pipe),
            Some('"') => return Some(State::Quote),
            Some('`') => return Some(State::RawQuote),
            Some('$') => return Some(State::Variable),
            Some('\'') => return Some(State::Char),
            Some('.') if !self.peek().is_some_and(|d| d.is_ascii_digit()) => {
                return Some(State::Field);
            }
            Some(c @ ('.' | '+' | '-' | '0'..='9')) => {
                self.backup(Some(c));
                return Some(State::Number);
            }
            Some(c) if is_alphanumeric(c) => {
                self.backup(Some(c));
                return Some(State::Identifier);
            }
            Some('(') => {
                self.emit(Kind::LeftParen);
                self.paren_depth += 1;
            }
            Some(')') => {
                self.emit(Kind::RightParen);
                self.paren_depth -= 1;
                if self.paren_depth < 0 {
                    return self.error("unexpected right paren U+0029 ')'".to_string());
                }
            }
            Some(c) if c.is_ascii() && !c.is_ascii_control() => self.emit(Kind::Char),
            Some(c) => {
                return self.error(format!(
                    "unrecognized character in action: U+{:04X} {c:?}",
                    c as u32
                ));
            }
        }
        Some(State::InsideAction)
    }

    fn lex_space(&mut self) -> Option<State> {
        let mut count = 0;
        while let Some(c) = self.peek() {
            if !is_space(c) {
                break;
            }
            self.pos += c.len_utf8();
            count += 1;
        }
        // Is the last space the start of " -}}"?
        let before = self.pos - 1;
        let from_last = self.input.get(before..).unwrap_or("");
        if has_right_trim(from_last) && from_last.get(2..).is_some_and(|r| r.starts_with(RIGHT)) {
            self.pos = before;
            if count == 1 {
                return Some(State::RightDelim);
            }
        }
        self.emit(Kind::Space);
        Some(State::InsideAction)
    }

    fn bad_character(&mut self) -> Option<State> {
        let c = self.peek().unwrap_or('\u{fffd}');
        self.error(format!("bad character U+{:04X} {c:?}", c as u32))
    }

    fn lex_identifier(&mut self) -> Option<State> {
        while self.peek().is_some_and(is_alphanumeric) {
            self.next();
        }
        if !self.at_terminator() {
            return self.bad_character();
        }
        let word = self.input.get(self.start..self.pos).unwrap_or("");
        let kind = match keyword(word) {
            Some(k) => k,
            None if word == "true" || word == "false" => Kind::Bool,
            None => Kind::Identifier,
        };
        self.emit(kind);
        Some(State::InsideAction)
    }

    fn lex_field_or_variable(&mut self, kind: Kind) -> Option<State> {
        if self.at_terminator() {
            self.emit(if kind == Kind::Variable {
                Kind::Variable
            } else {
                Kind::Dot
            });
            return Some(State::InsideAction);
        }
        while self.peek().is_some_and(is_alphanumeric) {
            self.next();
        }
        if !self.at_terminator() {
            return self.bad_character();
        }
        self.emit(kind);
        Some(State::InsideAction)
    }

    fn lex_quoted(&mut self, quote: char, kind: Kind, what: &str) -> Option<State> {
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    Some('\n') | None => return self.error(format!("unterminated {what}")),
                    Some(_) => {}
                },
                Some('\n') | None => return self.error(format!("unterminated {what}")),
                Some(c) if c == quote => break,
                Some(_) => {}
            }
        }
        self.emit(kind);
        Some(State::InsideAction)
    }

    fn lex_raw_quote(&mut self) -> Option<State> {
        loop {
            match self.next() {
                None => return self.error("unterminated raw quoted string".to_string()),
                Some('`') => break,
                Some(_) => {}
            }
        }
        self.emit(Kind::RawString);
        Some(State::InsideAction)
    }

    fn lex_number(&mut self) -> Option<State> {
        if !self.scan_number() {
            let text = self.input.get(self.start..self.pos).unwrap_or("");
            return self.error(format!("bad number syntax: {text:?}"));
        }
        if matches!(self.peek(), Some('+' | '-')) {
            if !self.scan_number() || !self.input[..self.pos].ends_with('i') {
                let text = self.input.get(self.start..self.pos).unwrap_or("");
                return self.error(format!("bad number syntax: {text:?}"));
            }
            self.emit(Kind::Complex);
        } else {
            self.emit(Kind::Number);
        }
        Some(State::InsideAction)
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 11 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 23 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if self.peek().is_some_and(is_alphanumeric) {
            self.next();
            return false;
        }
        true
    }
}

/// The items of `text`, ending with [`Kind::Eof`] or at the first [`Kind::Error`].
pub(super) fn lex(text: &str) -> Vec<Item> {
    let mut lexer = Lexer {
        input: text,
        pos: 0,
        start: 0,
        paren_depth: 0,
        items: Vec::new(),
    };
    let mut state = Some(State::Text);
    while let Some(s) = state {
        state = lexer.step(s);
    }
    lexer.items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, String)> {
        lex(text).into_iter().map(|i| (i.kind, i.val)).collect()
    }

    /// Cases from Go's `parse/lex_test.go` (BSD-3-Clause, Copyright The Go Authors).
    #[test]
    fn go_lex_tests() {
        use Kind::*;
        let cases: &[(&str, &[(Kind, &str)])] = &[
            ("", &[(Eof, "")]),
            (" \t\n", &[(Text, " \t\n"), (Eof, "")]),
            ("now is the time", &[(Text, "now is the time"), (Eof, "")]),
            (
                "hello-{{/* this is a comment */}}-world",
                &[(Text, "hello-"), (Text, "-world"), (Eof, "")],
            ),
            (
                "{{,@% }}",
                &[
                    (LeftDelim, "{{"),
                    (Char, ","),
                    (Char, "@"),
                    (Char, "%"),
                    (Space, " "),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{((3))}}",
                &[
                    (LeftDelim, "{{"),
                    (LeftParen, "("),
                    (LeftParen, "("),
                    (Number, "3"),
                    (RightParen, ")"),
                    (RightParen, ")"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{range}}",
                &[
                    (LeftDelim, "{{"),
                    (Range, "range"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{1 02 0x14 0X14 -7.2i 1e3 1E3 +1.2e-4 4.2i 1+2i 1_2 0x1.e_fp4 0X1.E_FP4}}",
                &[
                    (LeftDelim, "{{"),
                    (Number, "1"),
                    (Space, " "),
                    (Number, "02"),
                    (Space, " "),
                    (Number, "0x14"),
                    (Space, " "),
                    (Number, "0X14"),
                    (Space, " "),
                    (Number, "-7.2i"),
                    (Space, " "),
                    (Number, "1e3"),
                    (Space, " "),
                    (Number, "1E3"),
                    (Space, " "),
                    (Number, "+1.2e-4"),
                    (Space, " "),
                    (Number, "4.2i"),
                    (Space, " "),
                    (Complex, "1+2i"),
                    (Space, " "),
                    (Number, "1_2"),
                    (Space, " "),
                    (Number, "0x1.e_fp4"),
                    (Space, " "),
                    (Number, "0X1.E_FP4"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                r"{{'a' '\n' '\'' '\\' '\u00FF' '\xFF' '本'}}",
                &[
                    (LeftDelim, "{{"),
                    (CharConstant, "'a'"),
                    (Space, " "),
                    (CharConstant, r"'\n'"),
                    (Space, " "),
                    (CharConstant, r"'\''"),
                    (Space, " "),
                    (CharConstant, r"'\\'"),
                    (Space, " "),
                    (CharConstant, r"'\u00FF'"),
                    (Space, " "),
                    (CharConstant, r"'\xFF'"),
                    (Space, " "),
                    (CharConstant, "'本'"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{true false}}",
                &[
                    (LeftDelim, "{{"),
                    (Bool, "true"),
                    (Space, " "),
                    (Bool, "false"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{.}}",
                &[(LeftDelim, "{{"), (Dot, "."), (RightDelim, "}}"), (Eof, "")],
            ),
            (
                "{{nil}}",
                &[
                    (LeftDelim, "{{"),
                    (Nil, "nil"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{.x . .2 .x.y.z}}",
                &[
                    (LeftDelim, "{{"),
                    (Field, ".x"),
                    (Space, " "),
                    (Dot, "."),
                    (Space, " "),
                    (Number, ".2"),
                    (Space, " "),
                    (Field, ".x"),
                    (Field, ".y"),
                    (Field, ".z"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{range if else end with}}",
                &[
                    (LeftDelim, "{{"),
                    (Range, "range"),
                    (Space, " "),
                    (If, "if"),
                    (Space, " "),
                    (Else, "else"),
                    (Space, " "),
                    (End, "end"),
                    (Space, " "),
                    (With, "with"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{$c := printf $ $hello $23 $ $var.Field .Method}}",
                &[
                    (LeftDelim, "{{"),
                    (Variable, "$c"),
                    (Space, " "),
                    (Declare, ":="),
                    (Space, " "),
                    (Identifier, "printf"),
                    (Space, " "),
                    (Variable, "$"),
                    (Space, " "),
                    (Variable, "$hello"),
                    (Space, " "),
                    (Variable, "$23"),
                    (Space, " "),
                    (Variable, "$"),
                    (Space, " "),
                    (Variable, "$var"),
                    (Field, ".Field"),
                    (Space, " "),
                    (Field, ".Method"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "{{$x = 3}}",
                &[
                    (LeftDelim, "{{"),
                    (Variable, "$x"),
                    (Space, " "),
                    (Assign, "="),
                    (Space, " "),
                    (Number, "3"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            (
                "intro {{echo hi 1.2 |noargs|args 1 \"hi\"}} outro",
                &[
                    (Text, "intro "),
                    (LeftDelim, "{{"),
                    (Identifier, "echo"),
                    (Space, " "),
                    (Identifier, "hi"),
                    (Space, " "),
                    (Number, "1.2"),
                    (Space, " "),
                    (Pipe, "|"),
                    (Identifier, "noargs"),
                    (Pipe, "|"),
                    (Identifier, "args"),
                    (Space, " "),
                    (Number, "1"),
                    (Space, " "),
                    (String, "\"hi\""),
                    (RightDelim, "}}"),
                    (Text, " outro"),
                    (Eof, ""),
                ],
            ),
            (
                "hello- {{- 3 -}} -world",
                &[
                    (Text, "hello-"),
                    (LeftDelim, "{{"),
                    (Number, "3"),
                    (RightDelim, "}}"),
                    (Text, "-world"),
                    (Eof, ""),
                ],
            ),
            (
                "hello- {{- /* hello */ -}} -world",
                &[(Text, "hello-"), (Text, "-world"), (Eof, "")],
            ),
            (
                "{{3 | -}}",
                &[
                    (LeftDelim, "{{"),
                    (Number, "3"),
                    (Space, " "),
                    (Pipe, "|"),
                    (RightDelim, "}}"),
                    (Eof, ""),
                ],
            ),
            // Errors.
            (
                "#{{\x01}}",
                &[
                    (Text, "#"),
                    (LeftDelim, "{{"),
                    (Error, "unrecognized character in action: U+0001 '\\u{1}'"),
                ],
            ),
            ("{{", &[(LeftDelim, "{{"), (Error, "unclosed action")]),
            (
                "{{range",
                &[
                    (LeftDelim, "{{"),
                    (Range, "range"),
                    (Error, "unclosed action"),
                ],
            ),
            (
                "{{\"\n\"}}",
                &[(LeftDelim, "{{"), (Error, "unterminated quoted string")],
            ),
            (
                "{{`xx}}",
                &[(LeftDelim, "{{"), (Error, "unterminated raw quoted string")],
            ),
            (
                "{{'a}}",
                &[
                    (LeftDelim, "{{"),
                    (Error, "unterminated character constant"),
                ],
            ),
            (
                "{{3k}}",
                &[(LeftDelim, "{{"), (Error, "bad number syntax: \"3k\"")],
            ),
            (
                "{{(3}}",
                &[
                    (LeftDelim, "{{"),
                    (LeftParen, "("),
                    (Number, "3"),
                    (Error, "unclosed left paren"),
                ],
            ),
            (
                "{{3)}}",
                &[
                    (LeftDelim, "{{"),
                    (Number, "3"),
                    (RightParen, ")"),
                    (Error, "unexpected right paren U+0029 ')'"),
                ],
            ),
            (
                "hello{{/*/}}",
                &[(Text, "hello"), (Error, "unclosed comment")],
            ),
            (
                "hello{{/* x */ }}",
                &[
                    (Text, "hello"),
                    (Error, "comment ends before closing delimiter"),
                ],
            ),
        ];
        for (text, want) in cases {
            let want: Vec<(Kind, std::string::String)> =
                want.iter().map(|(k, v)| (*k, (*v).to_string())).collect();
            assert_eq!(kinds(text), want, "{text:?}");
        }
    }

    #[test]
    fn positions_are_byte_offsets() {
        let items = lex("ab\n{{ .x }}");
        assert_eq!(items[0].pos, 0);
        assert_eq!(items[1].pos, 3);
        assert_eq!(items[3].pos, 6);
    }
}
