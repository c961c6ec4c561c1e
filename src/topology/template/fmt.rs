//! Go's `fmt` as templates reach it, on [`Value`]: what an action `{{ x }}` writes
//! ([`print_value`]), `print`, `println` and `printf` ([`sprint`], [`sprintln`], [`sprintf`]),
//! and sprig's `strval` ([`strval`]).
//!
//! A port of Go 1.19's `src/fmt/print.go` and `src/fmt/format.go`, and of the parts of
//! `src/strconv` (`ftoa.go`, `quote.go`, `isprint.go`) they call, restricted to the Go types a
//! template's values have (`bool`, `int`, `uint64`, `float64`, `string`, `[]interface {}`,
//! `[]string`, `map[string]interface {}`, `map[string]string`, `*semver.Version`).
//! Copyright 2009 The Go Authors; BSD-3-Clause licence (Go's `LICENSE`).
//!
//! Every verb of Go's `fmt` is implemented for these types, with every flag (`- + # 0` and
//! space), a width and a precision (literal or `*`) and argument indexes (`%[2]d`), and Go's
//! error texts (`%!d(string=hi)`, `%!s(MISSING)`, `%!(EXTRA int=1)`, `%!(BADWIDTH)`,
//! `%!(BADPREC)`, `%!(BADINDEX)`, `%!(NOVERB)`). Only what Go prints as a memory address (`%p`,
//! and a `*semver.Version` inside a list under a verb that does not call its `String` method)
//! cannot be the same here: that is [`FuncError::Unsupported`], never a different text.
//!
//! Every string is bounded by [`Limits::string_bytes`] before the bytes are written: a width or a
//! precision past the limit stops with [`FuncError::Limit`] without allocating it.

use super::limits::{FuncError, Limits};
use super::value::{Elem, Value, Version};

mod isprint;

/// The text an action `{{ x }}` writes for its final value: Go's `text/template` `printValue`
/// and then `fmt.Fprint`. A missing key and a nil value both write `<no value>`: exec's
/// `evalPipeline` digs a nil `interface{}` down to the invalid value (`{{ .x }}` with `x: null`,
/// a function returning nil); `<nil>` is only written inside a list or map, or by `print`.
///
/// # Errors
/// [`FuncError::Unknown`] for a builtin known only once CAPI creates the objects, anywhere in
/// the value; [`FuncError::Limit`] past the string limit.
pub fn print_value(v: &Value, limits: &Limits) -> Result<String, FuncError> {
    check_unknown(std::slice::from_ref(v))?;
    if let Value::Missing | Value::Nil = v {
        let s = "<no value>";
        limits.check_string(s.len())?;
        return Ok(s.to_string());
    }
    let mut p = Printer::new(limits);
    p.print_arg(v, 'v');
    p.finish()
}

/// `fmt.Sprint` (template `print`): a space between two operands when neither is a string.
///
/// # Errors
/// As [`print_value`].
pub fn sprint(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    check_unknown(args)?;
    let mut p = Printer::new(limits);
    let mut prev_string = false;
    for (i, arg) in args.iter().enumerate() {
        let is_string = matches!(arg, Value::String(_));
        if i > 0 && !is_string && !prev_string {
            p.write(" ");
        }
        p.print_arg(arg, 'v');
        prev_string = is_string;
    }
    p.finish().map(Value::string)
}

/// `fmt.Sprintln` (template `println`): operands separated by spaces, then a newline.
///
/// # Errors
/// As [`print_value`].
pub fn sprintln(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    check_unknown(args)?;
    let mut p = Printer::new(limits);
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            p.write(" ");
        }
        p.print_arg(arg, 'v');
    }
    p.write("\n");
    p.finish().map(Value::string)
}

/// `fmt.Sprintf` (template `printf`): the first argument is the format.
///
/// # Errors
/// Go's own when the format is not a string; as [`print_value`]; [`FuncError::Unsupported`]
/// where Go would print a memory address.
pub fn sprintf(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let Some((format, rest)) = args.split_first() else {
        return Err(FuncError::Failed(
            "wrong number of args for printf: want at least 1 got 0".to_string(),
        ));
    };
    let format = string_arg(format)?;
    check_unknown(rest)?;
    let mut p = Printer::new(limits);
    p.do_printf(format, rest);
    p.finish().map(Value::string)
}

/// Go's error for a `string` parameter given another value, as `text/template` reports it
/// when it calls a function.
pub(super) fn string_arg(v: &Value) -> Result<&str, FuncError> {
    match v {
        Value::String(s) => Ok(s),
        Value::Missing => Err(FuncError::Failed(
            "invalid value; expected string".to_string(),
        )),
        Value::Unknown(name) => Err(FuncError::Unknown(name.to_string())),
        Value::Nil => Err(FuncError::Failed(
            "wrong type for value; expected string; got interface {}".to_string(),
        )),
        other => Err(FuncError::Failed(format!(
            "wrong type for value; expected string; got {}",
            other.go_type()
        ))),
    }
}

/// Whether `sprintf` formats a literal format as Go does: `Err(what)` names what it does not
/// implement. Every verb and flag is implemented; only `%p` (a memory address in Go) is
/// refused, since it prints an address for every list, map or version.
///
/// # Errors
/// The name of the unsupported verb.
pub fn check_format(format: &str) -> Result<(), String> {
    // A `%p` verb: scan directives as doPrintf does (flags, index, width, precision, verb).
    let b = format.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < b.len() && matches!(b[i], b'#' | b'0' | b'+' | b'-' | b' ') {
            i += 1;
        }
        // Index, width, precision and `*`s: digits, brackets, dots and stars.
        while i < b.len() && matches!(b[i], b'0'..=b'9' | b'[' | b']' | b'.' | b'*') {
            i += 1;
        }
        if i < b.len() {
            if b[i] == b'p' {
                return Err(
                    "the verb %p (Go prints a memory address, which differs from run to run)"
                        .to_string(),
                );
            }
            // Skip the verb (a whole character).
            i += format[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    Ok(())
}

/// sprig's `strval`: a string as it is, a `fmt.Stringer` (a version) by its `String`, anything
/// else by `fmt.Sprintf("%v", v)`.
///
/// # Errors
/// As [`print_value`].
pub fn strval(v: &Value, limits: &Limits) -> Result<String, FuncError> {
    check_unknown(std::slice::from_ref(v))?;
    match v {
        Value::String(s) => Ok(s.to_string()),
        Value::Version(version) => {
            let s = version_string(version);
            limits.check_string(s.len())?;
            Ok(s)
        }
        other => {
            let mut p = Printer::new(limits);
            p.print_arg(other, 'v');
            p.finish()
        }
    }
}

/// `(semver.Version).String`: `major.minor.patch[-pre][+metadata]`.
pub(super) fn version_string(v: &Version) -> String {
    let mut s = format!("{}.{}.{}", v.major, v.minor, v.patch);
    if !v.prerelease.is_empty() {
        s.push('-');
        s.push_str(&v.prerelease);
    }
    if !v.metadata.is_empty() {
        s.push('+');
        s.push_str(&v.metadata);
    }
    s
}

fn check_unknown(args: &[Value]) -> Result<(), FuncError> {
    match args.iter().find_map(Value::unknown) {
        Some(name) => Err(FuncError::Unknown(name.to_string())),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// The printer: print.go's pp and format.go's fmt in one.
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Default, Clone, Copy)]
struct Flags {
    wid_present: bool,
    prec_present: bool,
    minus: bool,
    plus: bool,
    sharp: bool,
    space: bool,
    zero: bool,
    plus_v: bool,
    sharp_v: bool,
}

const LDIGITS: &[u8; 17] = b"0123456789abcdefx";
const UDIGITS: &[u8; 17] = b"0123456789ABCDEFX";
const MAX_RUNE: u64 = 0x10FFFF;

struct Printer {
    buf: String,
    max: usize,
    /// The output would pass `max`: nothing more is written.
    over: bool,
    /// Go would print something ipreuse cannot (a memory address).
    unsupported: Option<String>,
    f: Flags,
    wid: usize,
    prec: usize,
    erroring: bool,
    good_arg_num: bool,
    reordered: bool,
    /// Lists and maps being printed, one inside the other.
    nesting: usize,
}

/// The deepest nesting of lists and maps printed (Go has no limit; a template can only nest
/// this deep by building lists of lists in a loop, and the printer recurses).
const MAX_NESTING: usize = 200;

/// One argument: Go's `p.arg` (an interface value) or an element reached by reflection.
impl Printer {
    fn new(limits: &Limits) -> Printer {
        Printer {
            buf: String::new(),
            max: limits.string_bytes,
            over: false,
            unsupported: None,
            f: Flags::default(),
            wid: 0,
            prec: 0,
            erroring: false,
            good_arg_num: true,
            reordered: false,
            nesting: 0,
        }
    }

    fn finish(self) -> Result<String, FuncError> {
        if let Some(what) = self.unsupported {
            return Err(FuncError::Unsupported(what));
        }
        if self.over {
            return Err(FuncError::Limit {
                limit: super::limits::Limit::StringBytes,
                max: self.max as u64,
            });
        }
        Ok(self.buf)
    }

    /// Whether `n` more bytes fit; past the limit, nothing more is written.
    fn room(&mut self, n: usize) -> bool {
        if self.over || self.unsupported.is_some() {
            return false;
        }
        if self.buf.len().saturating_add(n) > self.max {
            self.over = true;
            return false;
        }
        true
    }

    fn write(&mut self, s: &str) {
        if self.room(s.len()) {
            self.buf.push_str(s);
        }
    }

    fn write_char(&mut self, c: char) {
        if self.room(c.len_utf8()) {
            self.buf.push(c);
        }
    }

    fn unsupported(&mut self, what: &str) {
        if self.unsupported.is_none() {
            self.unsupported = Some(what.to_string());
        }
    }

    // --- format.go ---------------------------------------------------------------------------

    fn write_padding(&mut self, n: usize) {
        if n == 0 || !self.room(n) {
            return;
        }
        let c = if self.f.zero { '0' } else { ' ' };
        self.buf.extend(std::iter::repeat_n(c, n));
    }

    fn pad(&mut self, s: &str) {
        if !self.f.wid_present || self.wid == 0 {
            self.write(s);
            return;
        }
        let width = self.wid.saturating_sub(s.chars().count());
        if !self.f.minus {
            self.write_padding(width);
            self.write(s);
        } else {
            self.write(s);
            self.write_padding(width);
        }
    }

    fn fmt_boolean(&mut self, v: bool) {
        self.pad(if v { "true" } else { "false" });
    }

    fn fmt_unicode(&mut self, mut u: u64) {
        let mut prec = 4usize;
        if self.f.prec_present && self.prec > 4 {
            prec = self.prec;
            if !self.room(prec) {
                return;
            }
        }
        // Built backwards, as Go fills its buffer from the end.
        let mut rev: Vec<char> = Vec::new();
        if self.f.sharp
            && u <= MAX_RUNE
            && let Some(c) = char::from_u32(u as u32).filter(|c| is_print(*c))
        {
            rev.push('\'');
            rev.push(c);
            rev.push('\'');
            rev.push(' ');
        }
        let mut digits = 0usize;
        while u >= 16 {
            rev.push(UDIGITS[(u & 0xF) as usize] as char);
            digits += 1;
            u >>= 4;
        }
        rev.push(UDIGITS[u as usize] as char);
        digits += 1;
        while digits < prec {
            rev.push('0');
            digits += 1;
        }
        rev.push('+');
        rev.push('U');
        let s: String = rev.into_iter().rev().collect();
        let old_zero = self.f.zero;
        self.f.zero = false;
        self.pad(&s);
        self.f.zero = old_zero;
    }

    fn fmt_integer(&mut self, u: u64, base: u64, is_signed: bool, verb: char, digits: &[u8; 17]) {
        let negative = is_signed && (u as i64) < 0;
        let mut u = if negative { u.wrapping_neg() } else { u };
        let mut prec = 0usize;
        if self.f.prec_present {
            prec = self.prec;
            if prec == 0 && u == 0 {
                let old_zero = self.f.zero;
                self.f.zero = false;
                self.write_padding(self.wid);
                self.f.zero = old_zero;
                return;
            }
        } else if self.f.zero && self.f.wid_present {
            prec = self.wid;
            if negative || self.f.plus || self.f.space {
                prec = prec.saturating_sub(1);
            }
        }
        if !self.room(prec) {
            return;
        }
        let mut rev: Vec<u8> = Vec::with_capacity(prec.max(24));
        while u >= base {
            rev.push(digits[(u % base) as usize]);
            u /= base;
        }
        rev.push(digits[u as usize]);
        while prec > rev.len() {
            rev.push(b'0');
        }
        if self.f.sharp {
            match base {
                2 => rev.extend_from_slice(b"b0"),
                8 if rev.last() != Some(&b'0') => rev.push(b'0'),
                16 => {
                    rev.push(digits[16]);
                    rev.push(b'0');
                }
                _ => {}
            }
        }
        if verb == 'O' {
            rev.extend_from_slice(b"o0");
        }
        if negative {
            rev.push(b'-');
        } else if self.f.plus {
            rev.push(b'+');
        } else if self.f.space {
            rev.push(b' ');
        }
        rev.reverse();
        let s = String::from_utf8_lossy(&rev).into_owned();
        let old_zero = self.f.zero;
        self.f.zero = false;
        self.pad(&s);
        self.f.zero = old_zero;
    }

    fn truncate_string<'a>(&self, s: &'a str) -> &'a str {
        if self.f.prec_present
            && let Some((i, _)) = s.char_indices().nth(self.prec)
        {
            return &s[..i];
        }
        s
    }

    fn fmt_s(&mut self, s: &str) {
        let s = self.truncate_string(s);
        self.pad(s);
    }

    fn fmt_sx(&mut self, s: &str, digits: &[u8; 17]) {
        let b = s.as_bytes();
        let mut length = b.len();
        if self.f.prec_present && self.prec < length {
            length = self.prec;
        }
        let mut width = 2 * length;
        if width > 0 {
            if self.f.space {
                if self.f.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.f.sharp {
                width += 2;
            }
        } else {
            if self.f.wid_present {
                self.write_padding(self.wid);
            }
            return;
        }
        if self.f.wid_present && self.wid > width && !self.f.minus {
            self.write_padding(self.wid - width);
        }
        if !self.room(width) {
            return;
        }
        let mut out = String::with_capacity(width);
        if self.f.sharp {
            out.push('0');
            out.push(digits[16] as char);
        }
        for (i, &c) in b[..length].iter().enumerate() {
            if self.f.space && i > 0 {
                out.push(' ');
                if self.f.sharp {
                    out.push('0');
                    out.push(digits[16] as char);
                }
            }
            out.push(digits[(c >> 4) as usize] as char);
            out.push(digits[(c & 0xF) as usize] as char);
        }
        self.write(&out);
        if self.f.wid_present && self.wid > width && self.f.minus {
            self.write_padding(self.wid - width);
        }
    }

    fn fmt_q(&mut self, s: &str) {
        let s = self.truncate_string(s);
        if self.f.sharp && can_backquote(s) {
            let q = format!("`{s}`");
            self.pad(&q);
            return;
        }
        let q = quote(s, '"', self.f.plus);
        self.pad(&q);
    }

    fn fmt_c(&mut self, c: u64) {
        let r = if c > MAX_RUNE {
            '\u{FFFD}'
        } else {
            char::from_u32(c as u32).unwrap_or('\u{FFFD}')
        };
        let mut tmp = [0u8; 4];
        let s: &str = r.encode_utf8(&mut tmp);
        self.pad(s);
    }

    fn fmt_qc(&mut self, c: u64) {
        let r = if c > MAX_RUNE {
            '\u{FFFD}'
        } else {
            char::from_u32(c as u32).unwrap_or('\u{FFFD}')
        };
        let mut q = String::from("'");
        escaped_rune(&mut q, r, '\'', self.f.plus);
        q.push('\'');
        self.pad(&q);
    }

    /// format.go's fmtFloat: `verb` is strconv's format byte, `prec` the default precision.
    fn fmt_float(&mut self, v: f64, verb: char, prec: i32) {
        let prec = if self.f.prec_present {
            // At most 1e6 (parsenum); checked against the limit for the verbs whose output
            // holds that many digits.
            if matches!(verb, 'e' | 'E' | 'f' | 'x' | 'X') && !self.room(self.prec) {
                return;
            }
            self.prec as i32
        } else {
            prec
        };
        let formatted = format_float(v, verb, prec);
        // num[0] is the sign, as Go keeps it.
        let mut num: Vec<u8> = Vec::with_capacity(formatted.len() + 8);
        let fb = formatted.as_bytes();
        if fb.first() == Some(&b'-') || fb.first() == Some(&b'+') {
            num.extend_from_slice(fb);
        } else {
            num.push(b'+');
            num.extend_from_slice(fb);
        }
        if self.f.space && num[0] == b'+' && !self.f.plus {
            num[0] = b' ';
        }
        if num.get(1) == Some(&b'I') || num.get(1) == Some(&b'N') {
            let old_zero = self.f.zero;
            self.f.zero = false;
            let mut start = 0;
            if num[1] == b'N' && !self.f.space && !self.f.plus {
                start = 1;
            }
            let s = String::from_utf8_lossy(&num[start..]).into_owned();
            self.pad(&s);
            self.f.zero = old_zero;
            return;
        }
        if self.f.sharp && verb != 'b' {
            let mut digits: i64 = 0;
            if matches!(verb, 'v' | 'g' | 'G' | 'x') {
                digits = if prec == -1 { 6 } else { i64::from(prec) };
            }
            let mut tail: Vec<u8> = Vec::new();
            let mut has_decimal_point = false;
            let mut saw_nonzero_digit = false;
            let mut i = 1;
            while i < num.len() {
                match num[i] {
                    b'.' => has_decimal_point = true,
                    b'p' | b'P' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    b'e' | b'E' if verb != 'x' && verb != 'X' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    c => {
                        if c != b'0' {
                            saw_nonzero_digit = true;
                        }
                        if saw_nonzero_digit {
                            digits -= 1;
                        }
                    }
                }
                i += 1;
            }
            if !has_decimal_point {
                if num.len() == 2 && num[1] == b'0' {
                    digits -= 1;
                }
                num.push(b'.');
            }
            if digits > 0 {
                if !self.room(digits as usize) {
                    return;
                }
                num.extend(std::iter::repeat_n(b'0', digits as usize));
            }
            num.extend_from_slice(&tail);
        }
        let text = String::from_utf8_lossy(&num).into_owned();
        if self.f.plus || num[0] != b'+' {
            if self.f.zero && self.f.wid_present && self.wid > num.len() {
                self.write(&text[..1]);
                self.write_padding(self.wid - num.len());
                self.write(&text[1..]);
                return;
            }
            self.pad(&text);
            return;
        }
        self.pad(&text[1..]);
    }

    // --- print.go ----------------------------------------------------------------------------

    fn bad_verb(&mut self, verb: char, arg: Option<&Value>) {
        self.erroring = true;
        self.write("%!");
        self.write_char(verb);
        self.write("(");
        match arg {
            Some(v) if !matches!(v, Value::Nil | Value::Missing) => {
                self.write(v.go_type());
                self.write("=");
                self.print_value(v, 'v', 0);
            }
            _ => self.write("<nil>"),
        }
        self.write(")");
        self.erroring = false;
    }

    fn fmt_bool(&mut self, v: bool, verb: char, arg: &Value) {
        match verb {
            't' | 'v' => self.fmt_boolean(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_0x64(&mut self, v: u64, leading0x: bool) {
        let sharp = self.f.sharp;
        self.f.sharp = leading0x;
        self.fmt_integer(v, 16, false, 'v', LDIGITS);
        self.f.sharp = sharp;
    }

    fn fmt_int(&mut self, v: u64, is_signed: bool, verb: char, arg: &Value) {
        match verb {
            'v' => {
                if self.f.sharp_v && !is_signed {
                    self.fmt_0x64(v, true);
                } else {
                    self.fmt_integer(v, 10, is_signed, verb, LDIGITS);
                }
            }
            'd' => self.fmt_integer(v, 10, is_signed, verb, LDIGITS),
            'b' => self.fmt_integer(v, 2, is_signed, verb, LDIGITS),
            'o' | 'O' => self.fmt_integer(v, 8, is_signed, verb, LDIGITS),
            'x' => self.fmt_integer(v, 16, is_signed, verb, LDIGITS),
            'X' => self.fmt_integer(v, 16, is_signed, verb, UDIGITS),
            'c' => self.fmt_c(v),
            'q' => self.fmt_qc(v),
            'U' => self.fmt_unicode(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_float64(&mut self, v: f64, verb: char, arg: &Value) {
        match verb {
            'v' => self.fmt_float(v, 'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt_float(v, verb, -1),
            'f' | 'e' | 'E' => self.fmt_float(v, verb, 6),
            'F' => self.fmt_float(v, 'f', 6),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_string(&mut self, v: &str, verb: char, arg: &Value) {
        match verb {
            'v' => {
                if self.f.sharp_v {
                    self.fmt_q(v);
                } else {
                    self.fmt_s(v);
                }
            }
            's' => self.fmt_s(v),
            'x' => self.fmt_sx(v, LDIGITS),
            'X' => self.fmt_sx(v, UDIGITS),
            'q' => self.fmt_q(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    /// print.go's handleMethods for a `*semver.Version` (a `fmt.Stringer`): whether its
    /// `String` method printed it.
    fn handle_methods(&mut self, v: &Value, verb: char) -> bool {
        if self.erroring || self.f.sharp_v {
            return false;
        }
        if let Value::Version(version) = v
            && matches!(verb, 'v' | 's' | 'x' | 'X' | 'q')
        {
            let s = version_string(version);
            self.fmt_string(&s, verb, v);
            return true;
        }
        false
    }

    /// print.go's printArg: `arg` as an operand of Sprint or Sprintf.
    fn print_arg(&mut self, arg: &Value, verb: char) {
        if matches!(arg, Value::Nil | Value::Missing | Value::Unknown(_)) {
            match verb {
                'T' | 'v' => self.pad("<nil>"),
                _ => self.bad_verb(verb, None),
            }
            return;
        }
        match verb {
            'T' => {
                self.fmt_s(arg.go_type());
                return;
            }
            'p' => {
                self.fmt_pointer(arg, 'p');
                return;
            }
            _ => {}
        }
        match arg {
            Value::Bool(b) => self.fmt_bool(*b, verb, arg),
            Value::Int(n) => self.fmt_int(*n as u64, true, verb, arg),
            Value::Uint(n) => self.fmt_int(*n, false, verb, arg),
            Value::Float(f) => self.fmt_float64(*f, verb, arg),
            Value::String(s) => self.fmt_string(s, verb, arg),
            _ => {
                if verb == 'w' {
                    // handleMethods: %w is for errors (fmt.Errorf) only.
                    self.bad_verb(verb, Some(arg));
                } else if !self.handle_methods(arg, verb) {
                    self.print_value(arg, verb, 0);
                }
            }
        }
    }

    /// print.go's fmtPointer: Go prints the address of a list, map or version, which no other
    /// run reproduces; for other kinds a bad verb.
    fn fmt_pointer(&mut self, v: &Value, verb: char) {
        match v {
            Value::List(..) | Value::Map(..) | Value::Version(_)
                if matches!(verb, 'v' | 'p' | 'b' | 'o' | 'd' | 'x' | 'X') =>
            {
                self.unsupported(&format!(
                    "the verb %{verb} of a {} (Go prints its memory address)",
                    v.go_type()
                ));
            }
            _ => self.bad_verb(verb, Some(v)),
        }
    }

    /// print.go's printValue, for a value reached by reflection (`depth` > 0 inside a list,
    /// a map or a version's fields).
    fn print_value(&mut self, v: &Value, verb: char, depth: usize) {
        if depth > 0 && self.handle_methods(v, verb) {
            return;
        }
        if let Value::List(..) | Value::Map(..) = v {
            if self.nesting >= MAX_NESTING {
                self.unsupported(&format!(
                    "printing lists or maps nested more than {MAX_NESTING} deep"
                ));
                return;
            }
            self.nesting += 1;
            self.print_container(v, verb, depth);
            self.nesting -= 1;
            return;
        }
        match v {
            Value::Nil | Value::Missing | Value::Unknown(_) => {
                // An `interface {}` element holding nil (the only nil a list or map holds).
                if self.f.sharp_v {
                    self.write("interface {}(nil)");
                } else {
                    self.write("<nil>");
                }
            }
            Value::Bool(b) => self.fmt_bool(*b, verb, v),
            Value::Int(n) => self.fmt_int(*n as u64, true, verb, v),
            Value::Uint(n) => self.fmt_int(*n, false, verb, v),
            Value::Float(f) => self.fmt_float64(*f, verb, v),
            Value::String(s) => self.fmt_string(s, verb, v),
            Value::Map(..) | Value::List(..) => {}
            Value::Version(version) => {
                if depth == 0 {
                    // `&` and the struct's fields: major, minor, patch uint64; pre, metadata,
                    // original string (semver v3's Version).
                    self.write("&");
                    if self.f.sharp_v {
                        self.write("semver.Version");
                    }
                    self.write("{");
                    let fields = [
                        ("major", Value::Uint(version.major)),
                        ("minor", Value::Uint(version.minor)),
                        ("patch", Value::Uint(version.patch)),
                        ("pre", Value::string(version.prerelease.as_str())),
                        ("metadata", Value::string(version.metadata.as_str())),
                        ("original", Value::string(version.original.as_str())),
                    ];
                    for (i, (name, field)) in fields.iter().enumerate() {
                        if i > 0 {
                            self.write(if self.f.sharp_v { ", " } else { " " });
                        }
                        if self.f.plus_v || self.f.sharp_v {
                            self.write(name);
                            self.write(":");
                        }
                        // Unexported fields: no methods, printed by kind.
                        let erroring = self.erroring;
                        self.erroring = true;
                        self.print_value(field, verb, depth + 2);
                        self.erroring = erroring;
                    }
                    self.write("}");
                } else {
                    self.fmt_pointer(v, verb);
                }
            }
        }
    }

    fn print_container(&mut self, v: &Value, verb: char, depth: usize) {
        match v {
            Value::Map(map, elem) => {
                if self.f.sharp_v {
                    self.write(v.go_type());
                    self.write("{");
                } else {
                    self.write("map[");
                }
                let key_value = |s: &str| Value::string(s);
                for (i, (k, item)) in map.iter().enumerate() {
                    if self.over || self.unsupported.is_some() {
                        return;
                    }
                    if i > 0 {
                        self.write(if self.f.sharp_v { ", " } else { " " });
                    }
                    self.print_value(&key_value(k), verb, depth + 1);
                    self.write(":");
                    self.print_element(item, *elem, verb, depth + 1);
                }
                self.write(if self.f.sharp_v { "}" } else { "]" });
            }
            Value::List(items, elem) => {
                if self.f.sharp_v {
                    self.write(v.go_type());
                    self.write("{");
                } else {
                    self.write("[");
                }
                for (i, item) in items.iter().enumerate() {
                    if self.over || self.unsupported.is_some() {
                        return;
                    }
                    if i > 0 {
                        self.write(if self.f.sharp_v { ", " } else { " " });
                    }
                    self.print_element(item, *elem, verb, depth + 1);
                }
                self.write(if self.f.sharp_v { "}" } else { "]" });
            }
            _ => {}
        }
    }

    /// An element of a list or map: an `interface {}` (Go unwraps it: a nil one prints
    /// `<nil>` whatever the verb) or a `string`.
    fn print_element(&mut self, item: &Value, elem: Elem, verb: char, depth: usize) {
        match elem {
            Elem::String => self.print_value(item, verb, depth),
            Elem::Any => {
                if matches!(item, Value::Nil | Value::Missing | Value::Unknown(_)) {
                    self.print_value(item, verb, depth);
                } else if depth > 0 && self.handle_methods(item, verb) {
                    // printValue of the interface value itself calls its methods first.
                } else {
                    self.print_value(item, verb, depth + 1);
                }
            }
        }
    }

    fn do_printf(&mut self, format: &str, a: &[Value]) {
        let b = format.as_bytes();
        let end = b.len();
        let mut arg_num = 0usize;
        let mut after_index;
        self.reordered = false;
        let mut i = 0usize;
        'format: while i < end {
            if self.over || self.unsupported.is_some() {
                return;
            }
            self.good_arg_num = true;
            let lasti = i;
            while i < end && b[i] != b'%' {
                i += 1;
            }
            if i > lasti {
                self.write(&format[lasti..i]);
            }
            if i >= end {
                break;
            }
            i += 1;
            self.f = Flags::default();
            self.wid = 0;
            self.prec = 0;
            while i < end {
                let c = b[i];
                match c {
                    b'#' => self.f.sharp = true,
                    b'0' => self.f.zero = !self.f.minus,
                    b'+' => self.f.plus = true,
                    b'-' => {
                        self.f.minus = true;
                        self.f.zero = false;
                    }
                    b' ' => self.f.space = true,
                    _ => {
                        if c.is_ascii_lowercase() && arg_num < a.len() {
                            if c == b'v' {
                                self.f.sharp_v = self.f.sharp;
                                self.f.sharp = false;
                                self.f.plus_v = self.f.plus;
                                self.f.plus = false;
                            }
                            self.print_arg(&a[arg_num], c as char);
                            arg_num += 1;
                            i += 1;
                            continue 'format;
                        }
                        break;
                    }
                }
                i += 1;
            }

            (arg_num, i, after_index) = self.arg_number(arg_num, format, i, a.len());

            if i < end && b[i] == b'*' {
                i += 1;
                let (wid, present, n) = int_from_arg(a, arg_num);
                arg_num = n;
                self.f.wid_present = present;
                if !present {
                    self.write("%!(BADWIDTH)");
                }
                if wid < 0 {
                    self.wid = wid.unsigned_abs() as usize;
                    self.f.minus = true;
                    self.f.zero = false;
                } else {
                    self.wid = wid as usize;
                }
                after_index = false;
            } else {
                let (wid, present, n) = parsenum(b, i, end);
                self.wid = wid;
                self.f.wid_present = present;
                i = n;
                if after_index && present {
                    self.good_arg_num = false;
                }
            }

            if i + 1 < end && b[i] == b'.' {
                i += 1;
                if after_index {
                    self.good_arg_num = false;
                }
                (arg_num, i, after_index) = self.arg_number(arg_num, format, i, a.len());
                if i < end && b[i] == b'*' {
                    i += 1;
                    let (prec, present, n) = int_from_arg(a, arg_num);
                    arg_num = n;
                    self.f.prec_present = present;
                    if prec < 0 {
                        self.prec = 0;
                        self.f.prec_present = false;
                    } else {
                        self.prec = prec as usize;
                    }
                    if !self.f.prec_present {
                        self.write("%!(BADPREC)");
                    }
                    after_index = false;
                } else {
                    let (prec, present, n) = parsenum(b, i, end);
                    i = n;
                    self.prec = prec;
                    self.f.prec_present = present;
                    if !present {
                        self.prec = 0;
                        self.f.prec_present = true;
                    }
                }
            }

            if !after_index {
                (arg_num, i, after_index) = self.arg_number(arg_num, format, i, a.len());
            }
            let _ = after_index;

            if i >= end {
                self.write("%!(NOVERB)");
                break;
            }

            let verb = format[i..].chars().next().unwrap_or('\u{FFFD}');
            i += verb.len_utf8();

            if verb == '%' {
                self.write("%");
            } else if !self.good_arg_num {
                self.write("%!");
                self.write_char(verb);
                self.write("(BADINDEX)");
            } else if arg_num >= a.len() {
                self.write("%!");
                self.write_char(verb);
                self.write("(MISSING)");
            } else {
                if verb == 'v' {
                    self.f.sharp_v = self.f.sharp;
                    self.f.sharp = false;
                    self.f.plus_v = self.f.plus;
                    self.f.plus = false;
                }
                self.print_arg(&a[arg_num], verb);
                arg_num += 1;
            }
        }

        if !self.reordered && arg_num < a.len() {
            self.f = Flags::default();
            self.wid = 0;
            self.prec = 0;
            self.write("%!(EXTRA ");
            for (i, arg) in a[arg_num..].iter().enumerate() {
                if i > 0 {
                    self.write(", ");
                }
                if matches!(arg, Value::Nil | Value::Missing) {
                    self.write("<nil>");
                } else {
                    self.write(arg.go_type());
                    self.write("=");
                    self.print_arg(arg, 'v');
                }
            }
            self.write(")");
        }
    }

    fn arg_number(
        &mut self,
        arg_num: usize,
        format: &str,
        i: usize,
        num_args: usize,
    ) -> (usize, usize, bool) {
        let b = format.as_bytes();
        if b.len() <= i || b[i] != b'[' {
            return (arg_num, i, false);
        }
        self.reordered = true;
        let (index, wid, ok) = parse_arg_number(&b[i..]);
        if ok && index >= 0 && (index as usize) < num_args {
            return (index as usize, i + wid, true);
        }
        self.good_arg_num = false;
        (arg_num, i + wid, ok)
    }
}

fn too_large(x: i64) -> bool {
    const MAX: i64 = 1_000_000;
    !(-MAX..=MAX).contains(&x)
}

/// print.go's parsenum: a number in `s[start..end]`; an overflow consumes the rest.
fn parsenum(s: &[u8], start: usize, end: usize) -> (usize, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let mut num: i64 = 0;
    let mut isnum = false;
    let mut newi = start;
    while newi < end && s[newi].is_ascii_digit() {
        if too_large(num) {
            return (0, false, end);
        }
        num = num * 10 + i64::from(s[newi] - b'0');
        isnum = true;
        newi += 1;
    }
    (num as usize, isnum, newi)
}

/// print.go's parseArgNumber on `[n]...`: (index, bytes consumed, ok).
fn parse_arg_number(format: &[u8]) -> (i64, usize, bool) {
    if format.len() < 3 {
        return (0, 1, false);
    }
    for i in 1..format.len() {
        if format[i] == b']' {
            let (width, ok, newi) = parsenum(format, 1, i);
            if !ok || newi != i {
                return (0, i + 1, false);
            }
            return (width as i64 - 1, i + 1, true);
        }
    }
    (0, 1, false)
}

/// print.go's intFromArg: an `int` (or an integer type that fits one) for `*`.
fn int_from_arg(a: &[Value], arg_num: usize) -> (i64, bool, usize) {
    let mut new_arg_num = arg_num;
    let (mut num, mut is_int) = (0i64, false);
    if arg_num < a.len() {
        match &a[arg_num] {
            Value::Int(n) => (num, is_int) = (*n, true),
            Value::Uint(n) if i64::try_from(*n).is_ok() => (num, is_int) = (*n as i64, true),
            _ => {}
        }
        new_arg_num = arg_num + 1;
        if too_large(num) {
            num = 0;
            is_int = false;
        }
    }
    (num, is_int, new_arg_num)
}

// ---------------------------------------------------------------------------------------------
// strconv
// ---------------------------------------------------------------------------------------------

/// strconv.IsPrint.
fn is_print(c: char) -> bool {
    use isprint::{IS_NOT_PRINT16, IS_NOT_PRINT32, IS_PRINT16, IS_PRINT32};
    let r = c as u32;
    if r <= 0xFF {
        if (0x20..=0x7E).contains(&r) {
            return true;
        }
        if (0xA1..=0xFF).contains(&r) {
            return r != 0xAD;
        }
        return false;
    }
    if r < 1 << 16 {
        let rr = r as u16;
        let i = IS_PRINT16.partition_point(|&x| x < rr);
        if i >= IS_PRINT16.len() || rr < IS_PRINT16[i & !1] || IS_PRINT16[i | 1] < rr {
            return false;
        }
        let j = IS_NOT_PRINT16.partition_point(|&x| x < rr);
        return j >= IS_NOT_PRINT16.len() || IS_NOT_PRINT16[j] != rr;
    }
    let i = IS_PRINT32.partition_point(|&x| x < r);
    if i >= IS_PRINT32.len() || r < IS_PRINT32[i & !1] || IS_PRINT32[i | 1] < r {
        return false;
    }
    if r >= 0x20000 {
        return true;
    }
    let rr = (r - 0x10000) as u16;
    let j = IS_NOT_PRINT32.partition_point(|&x| x < rr);
    j >= IS_NOT_PRINT32.len() || IS_NOT_PRINT32[j] != rr
}

/// strconv.CanBackquote.
fn can_backquote(s: &str) -> bool {
    s.chars().all(|c| {
        if c.len_utf8() > 1 {
            return c != '\u{FEFF}';
        }
        !((c < ' ' && c != '\t') || c == '`' || c == '\u{7F}')
    })
}

/// strconv.Quote (`ascii_only`: QuoteToASCII) with `quote` as the quote character.
pub(super) fn quote(s: &str, quote: char, ascii_only: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        escaped_rune(&mut out, c, quote, ascii_only);
    }
    out.push(quote);
    out
}

/// strconv's appendEscapedRune (graphicOnly false).
fn escaped_rune(out: &mut String, r: char, quote: char, ascii_only: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if r == quote || r == '\\' {
        out.push('\\');
        out.push(r);
        return;
    }
    if ascii_only {
        if r.is_ascii() && is_print(r) {
            out.push(r);
            return;
        }
    } else if is_print(r) {
        out.push(r);
        return;
    }
    match r {
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        _ => {
            let r = r as u32;
            if r < 0x20 || r == 0x7f {
                out.push_str("\\x");
                out.push(HEX[(r >> 4) as usize & 0xF] as char);
                out.push(HEX[r as usize & 0xF] as char);
            } else if r < 0x10000 {
                out.push_str("\\u");
                for s in (0..=12).rev().step_by(4) {
                    out.push(HEX[(r >> s) as usize & 0xF] as char);
                }
            } else {
                out.push_str("\\U");
                for s in (0..=28).rev().step_by(4) {
                    out.push(HEX[(r >> s) as usize & 0xF] as char);
                }
            }
        }
    }
}

/// The decimal digits of a float (strconv's decimalSlice): `digits` without leading or
/// trailing zeros (empty for zero), the decimal point after `dp` of them.
struct Decimal {
    digits: Vec<u8>,
    dp: i32,
}

/// The shortest digits that read back as `abs` (strconv's shortest mode), or `n` significant
/// digits correctly rounded (ties to even, as Go's exact decimal rounding), from Rust's own
/// formatting, which is exact too.
fn decimal_sig(abs: f64, n: Option<usize>) -> Decimal {
    if abs == 0.0 {
        return Decimal {
            digits: Vec::new(),
            dp: 0,
        };
    }
    let s = match n {
        None => format!("{abs:e}"),
        Some(n) => format!("{abs:.*e}", n.saturating_sub(1)),
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    trimmed(digits, exp + 1)
}

/// `prec` digits after the decimal point, correctly rounded.
fn decimal_fixed(abs: f64, prec: usize) -> Decimal {
    let s = format!("{abs:.prec$}");
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    trimmed(digits, int.len() as i32)
}

fn trimmed(mut digits: Vec<u8>, mut dp: i32) -> Decimal {
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..lead);
    dp -= lead as i32;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        dp = 0;
    }
    Decimal { digits, dp }
}

/// strconv.FormatFloat(v, fmt, prec, 64).
fn format_float(v: f64, fmt: char, prec: i32) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let neg = v.is_sign_negative();
    let bits = v.to_bits();
    let mut exp = ((bits >> 52) & 0x7FF) as i32;
    let mut mant = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        exp += 1;
    } else {
        mant |= 1u64 << 52;
    }
    exp -= 1023;
    match fmt {
        'b' => {
            let e = exp - 52;
            let sign = if neg { "-" } else { "" };
            let esign = if e >= 0 { "+" } else { "" };
            return format!("{sign}{mant}p{esign}{e}");
        }
        'x' | 'X' => return fmt_x(prec, fmt, neg, mant, exp),
        _ => {}
    }
    let abs = v.abs();
    let shortest = prec < 0;
    let mut prec = prec;
    let d = if shortest {
        let d = decimal_sig(abs, None);
        let nd = d.digits.len() as i32;
        prec = match fmt {
            'e' | 'E' => nd - 1,
            'f' => (nd - d.dp).max(0),
            _ => nd,
        };
        d
    } else {
        match fmt {
            'e' | 'E' => decimal_sig(abs, Some(prec as usize + 1)),
            'f' => decimal_fixed(abs, prec as usize),
            _ => {
                if prec == 0 {
                    prec = 1;
                }
                // A float64 has at most 767 significant digits: more are zeros, which the
                // digits drop anyway.
                decimal_sig(abs, Some((prec as usize).min(800)))
            }
        }
    };
    format_digits(shortest, neg, &d, prec, fmt)
}

fn format_digits(shortest: bool, neg: bool, d: &Decimal, prec: i32, fmt: char) -> String {
    let nd = d.digits.len() as i32;
    match fmt {
        'e' | 'E' => fmt_e(neg, d, prec, fmt),
        'f' => fmt_f(neg, d, prec),
        _ => {
            let mut prec = prec;
            let mut eprec = prec;
            if eprec > nd && nd >= d.dp {
                eprec = nd;
            }
            if shortest {
                eprec = 6;
            }
            let exp = d.dp - 1;
            if exp < -4 || exp >= eprec {
                if prec > nd {
                    prec = nd;
                }
                let e = if fmt == 'G' { 'E' } else { 'e' };
                return fmt_e(neg, d, prec - 1, e);
            }
            if prec > d.dp {
                prec = nd;
            }
            fmt_f(neg, d, (prec - d.dp).max(0))
        }
    }
}

fn fmt_e(neg: bool, d: &Decimal, prec: i32, fmt: char) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let nd = d.digits.len() as i32;
    out.push(d.digits.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        let m = nd.min(prec + 1);
        let mut i = 1;
        while i < m {
            out.push(d.digits[i as usize] as char);
            i += 1;
        }
        while i <= prec {
            out.push('0');
            i += 1;
        }
    }
    out.push(fmt);
    let mut exp = d.dp - 1;
    if nd == 0 {
        exp = 0;
    }
    if exp < 0 {
        out.push('-');
        exp = -exp;
    } else {
        out.push('+');
    }
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
    out
}

fn fmt_f(neg: bool, d: &Decimal, prec: i32) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let nd = d.digits.len() as i32;
    if d.dp > 0 {
        let m = nd.min(d.dp);
        out.extend(d.digits[..m as usize].iter().map(|&c| c as char));
        for _ in m..d.dp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 0..prec {
            let j = d.dp + i;
            let c = if 0 <= j && j < nd {
                d.digits[j as usize] as char
            } else {
                '0'
            };
            out.push(c);
        }
    }
    out
}

/// strconv's fmtX: `%x` of a float, `-0x1.8p+01`.
fn fmt_x(prec: i32, fmt: char, neg: bool, mut mant: u64, mut exp: i32) -> String {
    if mant == 0 {
        exp = 0;
    }
    mant <<= 60 - 52;
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = (mant << shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8; 17] = if fmt == 'X' { UDIGITS } else { LDIGITS };
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push('0');
    out.push(fmt);
    out.push((b'0' + ((mant >> 60) & 1) as u8) as char);
    mant <<= 4;
    if prec < 0 && mant != 0 {
        out.push('.');
        while mant != 0 {
            out.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    } else if prec > 0 {
        out.push('.');
        for _ in 0..prec {
            out.push(hex[((mant >> 60) & 15) as usize] as char);
            mant <<= 4;
        }
    }
    out.push(if fmt == 'X' { 'P' } else { 'p' });
    if exp < 0 {
        out.push('-');
        exp = -exp;
    } else {
        out.push('+');
    }
    if exp < 10 {
        out.push('0');
    }
    out.push_str(&exp.to_string());
    out
}

#[cfg(test)]
mod tests;
