//! Go's `regexp` (RE2 syntax, Go 1.19) on the `regex` crate, for sprig's `regex*` functions.
//!
//! The two engines agree on what a pattern matches (leftmost-first, the same flags), but not on
//! the syntax: Go's `\d \s \w \b` are ASCII (the crate's are Unicode), Go reads `\Q...\E`,
//! octal escapes and `x{,5}` (a literal there), and refuses `(?x)`, `(?<name>...)`, `\1`,
//! `a**` and repeat counts past 1000, which the crate accepts or reads otherwise. So the
//! pattern is parsed here as Go's `regexp/syntax` parses it (`parse.go`, ported in structure:
//! the same checks in the same order; Copyright 2011 The Go Authors, BSD-3-Clause) and written
//! out in the crate's syntax with every literal escaped and every class spelt out. A pattern Go
//! refuses is [`RegexError::Go`] with Go's message; one whose meaning depends on Unicode tables
//! (`\p{Greek}`: Go 1.19 has Unicode 13, the crate a later one) is [`RegexError::Unsupported`].

use regex::Regex;
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

use super::super::limits::{FuncError, Meter};

/// Why a pattern gives no [`GoRegex`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RegexError {
    /// Go's `regexp.Compile` refuses it: Go's message (`error parsing regexp: ...`).
    Go(String),
    /// Go may accept it, ipreuse does not evaluate it.
    Unsupported(String),
    /// Compiling it or searching with it would pass the render's steps.
    Spent(FuncError),
}

/// A compiled Go regular expression.
#[derive(Debug)]
pub(super) struct GoRegex {
    pub(super) re: Regex,
    /// The name of each capture group (index 0: the whole match), `""` when unnamed.
    pub(super) names: Vec<String>,
    /// At least the size of its compiled program: its text in the crate's syntax times Go's
    /// repetition weight (`[a-z]{1000}` is a thousand states).
    size: u64,
}

/// The steps a search of a text of `len` bytes takes: the crate's searches are linear in the
/// text times the program's size (it falls back from its DFA to an NFA simulation when its
/// cache thrashes), which a step per 8 units bounds as the engine's other steps are bounded.
pub(super) fn search_steps(re: &GoRegex, len: usize) -> u64 {
    (len as u64 + 1).saturating_mul(re.size).div_ceil(8)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Flags {
    fold_case: bool,
    /// `m` (Go's OneLine cleared).
    multi_line: bool,
    dot_nl: bool,
    non_greedy: bool,
}

impl Flags {
    /// The flags in the crate's syntax. Go's `U` is not among them: Go decides each
    /// repetition's greed when it reads it (`a(?U)*` is lazy), so every repetition is written
    /// greedy or lazy itself.
    fn rust(self) -> String {
        let mut on = String::new();
        let mut off = String::new();
        for (set, c) in [
            (self.fold_case, 'i'),
            (self.multi_line, 'm'),
            (self.dot_nl, 's'),
        ] {
            if set { &mut on } else { &mut off }.push(c);
        }
        if off.is_empty() {
            format!("(?{on})")
        } else {
            format!("(?{on}-{off})")
        }
    }
}

/// One element of a concatenation, already in the crate's syntax.
struct Item {
    text: String,
    /// A regexp Go would push (false for a flag change, which Go keeps in its parser only).
    atom: bool,
    /// The least `n` for which Go's `repeatIsValid(re, n)` holds.
    weight: u64,
}

/// An open group: Go's `opLeftParen` on its stack.
struct Frame {
    /// `(` or `(?:`.
    open: &'static str,
    alternatives: Vec<String>,
    weight: u64,
    items: Vec<Item>,
    /// The flags to restore at its `)`.
    saved: Flags,
}

const MAX_NESTING: usize = 1000;

fn go_err(code: &str, expr: &str) -> RegexError {
    RegexError::Go(format!("error parsing regexp: {code}: `{expr}`"))
}

/// `regexp.Compile(pattern)`.
///
/// Compiling takes a step per unit of the program's size from `meter`, before the program is
/// built.
pub(super) fn compile(pattern: &str, meter: &mut Meter) -> Result<GoRegex, RegexError> {
    let mut flags = Flags {
        fold_case: false,
        multi_line: false,
        dot_nl: false,
        non_greedy: false,
    };
    let mut names = vec![String::new()];
    let mut stack: Vec<Frame> = vec![Frame {
        open: "",
        alternatives: Vec::new(),
        weight: 0,
        items: Vec::new(),
        saved: flags,
    }];
    let mut t: &str = pattern;
    let mut last_repeat: Option<&str> = None;
    while !t.is_empty() {
        let mut repeat: Option<&str> = None;
        let c = t.as_bytes()[0];
        match c {
            b'(' => {
                if t.len() >= 2 && t.as_bytes()[1] == b'?' {
                    let old = flags;
                    let (rest, change) = parse_perl_flags(t, &mut flags, &mut names)?;
                    match change {
                        PerlGroup::Flags => push_item(&mut stack, flags.rust(), false, 0),
                        PerlGroup::Group => {
                            open_group(&mut stack, "(?:", old)?;
                            push_item(&mut stack, flags.rust(), false, 0);
                        }
                        PerlGroup::Named => open_group(&mut stack, "(", flags)?,
                    }
                    t = rest;
                } else {
                    names.push(String::new());
                    open_group(&mut stack, "(", flags)?;
                    t = &t[1..];
                }
            }
            b'|' => {
                let frame = top(&mut stack);
                let text = concat(&frame.items);
                frame.weight = frame.weight.max(weight_of(&frame.items));
                frame.alternatives.push(text);
                frame.items.clear();
                t = &t[1..];
            }
            b')' => {
                if stack.len() < 2 {
                    return Err(go_err("unexpected )", pattern));
                }
                let Some(frame) = stack.pop() else {
                    return Err(go_err("unexpected )", pattern));
                };
                flags = frame.saved;
                let (text, weight) = close(frame);
                push_item(&mut stack, text, true, weight);
                t = &t[1..];
            }
            b'^' => {
                push_item(&mut stack, "^".to_string(), true, 0);
                t = &t[1..];
            }
            b'$' => {
                push_item(&mut stack, "$".to_string(), true, 0);
                t = &t[1..];
            }
            b'.' => {
                push_item(&mut stack, ".".to_string(), true, 0);
                t = &t[1..];
            }
            b'[' => {
                let (class, rest) = parse_class(t, flags.fold_case)?;
                push_item(&mut stack, class, true, 0);
                t = rest;
            }
            b'*' | b'+' | b'?' => {
                let before = t;
                let mut after = &t[1..];
                let op = &t[..1];
                after = apply_repeat(&mut stack, op, None, before, after, last_repeat, flags)?;
                repeat = Some(before);
                t = after;
            }
            b'{' => {
                let before = t;
                match parse_repeat(t) {
                    None => {
                        push_item(&mut stack, literal('{'), true, 0);
                        t = &t[1..];
                    }
                    Some((min, max, after)) => {
                        if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                            return Err(go_err(
                                "invalid repeat count",
                                &before[..before.len() - after.len()],
                            ));
                        }
                        let op = &before[..before.len() - after.len()];
                        let after = apply_repeat(
                            &mut stack,
                            op,
                            Some((min, max)),
                            before,
                            after,
                            last_repeat,
                            flags,
                        )?;
                        repeat = Some(before);
                        t = after;
                    }
                }
            }
            b'\\' => {
                let b = t.as_bytes();
                if b.len() >= 2 {
                    let special = match b[1] {
                        b'A' => Some(r"\A".to_string()),
                        b'b' => Some(r"(?-u:\b)".to_string()),
                        b'B' => Some(r"(?-u:\B)".to_string()),
                        b'z' => Some(r"\z".to_string()),
                        b'C' => return Err(go_err("invalid escape sequence", &t[..2])),
                        b'Q' => {
                            let (lit, rest) = match t[2..].split_once(r"\E") {
                                Some((lit, rest)) => (lit, rest),
                                None => (&t[2..], ""),
                            };
                            for ch in lit.chars() {
                                push_item(&mut stack, literal(ch), true, 0);
                            }
                            t = rest;
                            last_repeat = None;
                            continue;
                        }
                        _ => None,
                    };
                    if let Some(text) = special {
                        push_item(&mut stack, text, true, 0);
                        t = &t[2..];
                        last_repeat = None;
                        continue;
                    }
                    if b[1] == b'p' || b[1] == b'P' {
                        return Err(unicode_class_error(t));
                    }
                    if let Some((ranges, negated)) = perl_class(&b[1..]) {
                        let class = group(&ranges, negated, flags.fold_case);
                        push_item(&mut stack, class_text(&class), true, 0);
                        t = &t[2..];
                        last_repeat = None;
                        continue;
                    }
                }
                let (ch, rest) = parse_escape(t)?;
                push_item(&mut stack, literal(ch), true, 0);
                t = rest;
            }
            _ => {
                let ch = t.chars().next().unwrap_or('\u{FFFD}');
                push_item(&mut stack, literal(ch), true, 0);
                t = &t[ch.len_utf8()..];
            }
        }
        last_repeat = repeat;
    }
    if stack.len() != 1 {
        return Err(go_err("missing closing )", pattern));
    }
    let Some(frame) = stack.pop() else {
        return Err(go_err("missing closing )", pattern));
    };
    let (text, weight) = close(frame);
    let size = (text.len() as u64).saturating_mul(weight.max(1));
    meter.take(size).map_err(RegexError::Spent)?;
    let re = regex::RegexBuilder::new(&text)
        .nest_limit(4 * MAX_NESTING as u32 + 16)
        .build()
        .map_err(|e| {
            RegexError::Unsupported(format!(
                "the regular expression {pattern:?} ({})",
                e.to_string().lines().last().unwrap_or("too large")
            ))
        })?;
    if re.captures_len() != names.len() {
        return Err(RegexError::Unsupported(format!(
            "the regular expression {pattern:?} (its groups could not be counted)"
        )));
    }
    Ok(GoRegex { re, names, size })
}

enum PerlGroup {
    /// `(?i)`: flags change for the rest of the group.
    Flags,
    /// `(?i:`: a non-capturing group with its own flags.
    Group,
    /// `(?P<name>`.
    Named,
}

fn top(stack: &mut [Frame]) -> &mut Frame {
    let n = stack.len();
    &mut stack[n - 1]
}

fn push_item(stack: &mut [Frame], text: String, atom: bool, weight: u64) {
    top(stack).items.push(Item { text, atom, weight });
}

fn open_group(stack: &mut Vec<Frame>, open: &'static str, saved: Flags) -> Result<(), RegexError> {
    if stack.len() > MAX_NESTING / 2 {
        return Err(RegexError::Unsupported(
            "a regular expression nested this deeply".to_string(),
        ));
    }
    stack.push(Frame {
        open,
        alternatives: Vec::new(),
        weight: 0,
        items: Vec::new(),
        saved,
    });
    Ok(())
}

fn concat(items: &[Item]) -> String {
    items.iter().map(|i| i.text.as_str()).collect()
}

fn weight_of(items: &[Item]) -> u64 {
    items.iter().map(|i| i.weight).max().unwrap_or(0)
}

fn close(mut frame: Frame) -> (String, u64) {
    let weight = frame.weight.max(weight_of(&frame.items));
    frame.alternatives.push(concat(&frame.items));
    let body = frame.alternatives.join("|");
    if frame.open.is_empty() {
        (body, weight)
    } else {
        (format!("{}{body})", frame.open), weight)
    }
}

/// Go's `p.repeat`: the operator applies to the last regexp of the concatenation.
fn apply_repeat<'a>(
    stack: &mut [Frame],
    op: &str,
    counts: Option<(i64, i64)>,
    before: &'a str,
    after: &'a str,
    last_repeat: Option<&'a str>,
    flags: Flags,
) -> Result<&'a str, RegexError> {
    let mut after = after;
    let mut lazy = flags.non_greedy;
    if after.starts_with('?') {
        after = &after[1..];
        lazy = !lazy;
    }
    let lazy = if lazy { "?" } else { "" };
    if let Some(last) = last_repeat {
        return Err(go_err(
            "invalid nested repetition operator",
            &last[..last.len() - after.len()],
        ));
    }
    let frame = top(stack);
    let Some(pos) = frame.items.iter().rposition(|i| i.atom) else {
        return Err(go_err(
            "missing argument to repetition operator",
            &before[..before.len() - after.len()],
        ));
    };
    let sub = &frame.items[pos];
    let weight = match counts {
        None => sub.weight,
        Some((min, max)) => {
            let m = if max < 0 { min } else { max };
            let w = if max == 0 {
                0
            } else if m == 0 {
                sub.weight
            } else {
                (m as u64).max((m as u64).saturating_mul(sub.weight))
            };
            if (min >= 2 || max >= 2) && w > 1000 {
                return Err(go_err(
                    "invalid repeat count",
                    &before[..before.len() - after.len()],
                ));
            }
            w
        }
    };
    let text = if counts.is_some_and(|(_, max)| max == 0) {
        // `x{0}` matches the empty string, and Go keeps x's groups (never set); the crate drops
        // them, which would renumber the groups after: an alternative that cannot match keeps
        // them.
        format!("(?:{}[^\\x{{0}}-\\x{{10FFFF}}]|)", sub.text)
    } else {
        format!("(?:{}){op}{lazy}", sub.text)
    };
    frame.items[pos] = Item {
        text,
        atom: true,
        weight,
    };
    Ok(after)
}

/// Go's `parseRepeat`: `{n}`, `{n,}`, `{n,m}` (min, max (-1: none), rest); `None`: a literal `{`.
fn parse_repeat(s: &str) -> Option<(i64, i64, &str)> {
    let s = s.strip_prefix('{')?;
    let (mut min, s) = parse_int(s)?;
    if s.is_empty() {
        return None;
    }
    let (max, s) = if let Some(s) = s.strip_prefix(',') {
        if s.is_empty() {
            return None;
        }
        if let Some(rest) = s.strip_prefix('}') {
            return Some((min, -1, rest));
        }
        let (max, s) = parse_int(s)?;
        if max < 0 {
            min = -1;
        }
        (max, s)
    } else {
        (min, s)
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// Go's `parseInt`: digits without a leading zero; -1 past 1e8.
fn parse_int(s: &str) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return None;
    }
    if b.len() >= 2 && b[0] == b'0' && b[1].is_ascii_digit() {
        return None;
    }
    let end = b
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(b.len());
    let mut n: i64 = 0;
    for &d in &b[..end] {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some((n, &s[end..]))
}

/// Go's `parsePerlFlags` on `(?...`: the rest after the group's opening.
fn parse_perl_flags<'a>(
    s: &'a str,
    flags: &mut Flags,
    names: &mut Vec<String>,
) -> Result<(&'a str, PerlGroup), RegexError> {
    let b = s.as_bytes();
    if b.len() > 4 && b[2] == b'P' && b[3] == b'<' {
        let Some(end) = s.find('>') else {
            return Err(go_err("invalid named capture", s));
        };
        let capture = &s[..=end];
        let name = &s[4..end];
        if name.is_empty() || !name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric()) {
            return Err(go_err("invalid named capture", capture));
        }
        names.push(name.to_string());
        return Ok((&s[end + 1..], PerlGroup::Named));
    }
    let mut t = &s[2..];
    let mut new = *flags;
    let mut negate = false;
    let mut saw_flag = false;
    while let Some(c) = t.chars().next() {
        t = &t[c.len_utf8()..];
        let value = !negate;
        match c {
            'i' => {
                new.fold_case = value;
                saw_flag = true;
            }
            'm' => {
                new.multi_line = value;
                saw_flag = true;
            }
            's' => {
                new.dot_nl = value;
                saw_flag = true;
            }
            'U' => {
                new.non_greedy = value;
                saw_flag = true;
            }
            '-' => {
                if negate {
                    break;
                }
                negate = true;
                saw_flag = false;
            }
            ':' | ')' => {
                if negate && !saw_flag {
                    break;
                }
                *flags = new;
                return Ok((
                    t,
                    if c == ':' {
                        PerlGroup::Group
                    } else {
                        PerlGroup::Flags
                    },
                ));
            }
            _ => break,
        }
    }
    Err(go_err(
        "invalid or unsupported Perl syntax",
        &s[..s.len() - t.len()],
    ))
}

fn unicode_class_error(t: &str) -> RegexError {
    let end = if t[2..].starts_with('{') {
        t.find('}').map_or(t.len(), |j| j + 1)
    } else {
        2 + t[2..].chars().next().map_or(0, char::len_utf8)
    };
    RegexError::Unsupported(format!(
        "the Unicode class {} in a regular expression (Go 1.19 reads it with Unicode 13's tables)",
        &t[..end]
    ))
}

/// Go's `parseEscape` on `\...`: the character and the rest.
fn parse_escape(s: &str) -> Result<(char, &str), RegexError> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(go_err("trailing backslash at end of expression", ""));
    };
    let mut t = &t[c.len_utf8()..];
    let invalid = |rest: &str| go_err("invalid escape sequence", &s[..s.len() - rest.len()]);
    let octal = |t: &str| {
        t.as_bytes()
            .first()
            .is_some_and(|b| (b'0'..=b'7').contains(b))
    };
    match c {
        '1'..='7' if !octal(t) => Err(invalid(t)),
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                if !octal(t) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((char::from_u32(r).unwrap_or('\u{FFFD}'), t))
        }
        'x' => {
            let Some(c) = t.chars().next() else {
                return Err(invalid(t));
            };
            t = &t[c.len_utf8()..];
            if c == '{' {
                let mut nhex = 0;
                let mut r: u32 = 0;
                loop {
                    let Some(c) = t.chars().next() else {
                        return Err(invalid(t));
                    };
                    t = &t[c.len_utf8()..];
                    if c == '}' {
                        break;
                    }
                    let Some(v) = c.to_digit(16) else {
                        return Err(invalid(t));
                    };
                    r = r * 16 + v;
                    if r > 0x10FFFF {
                        return Err(invalid(t));
                    }
                    nhex += 1;
                }
                if nhex == 0 {
                    return Err(invalid(t));
                }
                return char::from_u32(r).map(|c| (c, t)).ok_or_else(|| {
                    RegexError::Unsupported(format!(
                        "the surrogate escape {} in a regular expression",
                        &s[..s.len() - t.len()]
                    ))
                });
            }
            let x = c.to_digit(16);
            let Some(c2) = t.chars().next() else {
                return Err(invalid(t));
            };
            t = &t[c2.len_utf8()..];
            match (x, c2.to_digit(16)) {
                (Some(x), Some(y)) => Ok((char::from_u32(x * 16 + y).unwrap_or('\u{FFFD}'), t)),
                _ => Err(invalid(t)),
            }
        }
        'a' => Ok(('\u{7}', t)),
        'f' => Ok(('\u{c}', t)),
        'n' => Ok(('\n', t)),
        'r' => Ok(('\r', t)),
        't' => Ok(('\t', t)),
        'v' => Ok(('\u{b}', t)),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c, t)),
        _ => Err(invalid(t)),
    }
}

type Ranges = Vec<(u32, u32)>;

/// `\d \D \s \S \w \W` (Go's are ASCII) at `b` (after the backslash): the ranges and whether
/// the class is their complement.
fn perl_class(b: &[u8]) -> Option<(Ranges, bool)> {
    let (ranges, negated): (&[(u32, u32)], bool) = match b.first()? {
        b'd' => (&[(0x30, 0x39)], false),
        b'D' => (&[(0x30, 0x39)], true),
        b's' => (&[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)], false),
        b'S' => (&[(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)], true),
        b'w' => (&WORD, false),
        b'W' => (&WORD, true),
        _ => return None,
    };
    Some((ranges.to_vec(), negated))
}

const WORD: [(u32, u32); 4] = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];

/// Go's POSIX classes (`[:alpha:]`, `[:^alpha:]`), all ASCII.
fn posix_class(name: &str) -> Option<(Ranges, bool)> {
    let (negated, name) = match name.strip_prefix('^') {
        Some(n) => (true, n),
        None => (false, name),
    };
    let ranges: &[(u32, u32)] = match name {
        "alnum" => &[(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        "alpha" => &[(0x41, 0x5A), (0x61, 0x7A)],
        "ascii" => &[(0x00, 0x7F)],
        "blank" => &[(0x09, 0x09), (0x20, 0x20)],
        "cntrl" => &[(0x00, 0x1F), (0x7F, 0x7F)],
        "digit" => &[(0x30, 0x39)],
        "graph" => &[(0x21, 0x7E)],
        "lower" => &[(0x61, 0x7A)],
        "print" => &[(0x20, 0x7E)],
        "punct" => &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        "space" => &[(0x09, 0x0D), (0x20, 0x20)],
        "upper" => &[(0x41, 0x5A)],
        "word" => &WORD,
        "xdigit" => &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        _ => return None,
    };
    Some((ranges.to_vec(), negated))
}

fn unicode_class(ranges: &[(u32, u32)]) -> ClassUnicode {
    ClassUnicode::new(ranges.iter().filter_map(|&(lo, hi)| {
        Some(ClassUnicodeRange::new(
            char::from_u32(lo)?,
            char::from_u32(hi)?,
        ))
    }))
}

/// Go's `appendGroup`: under `(?i)` the group is folded first and then negated, so that
/// `(?i)\W` does not match `k` through the Kelvin sign.
fn group(ranges: &[(u32, u32)], negated: bool, fold: bool) -> ClassUnicode {
    let mut class = unicode_class(ranges);
    if fold {
        class.case_fold_simple();
    }
    if negated {
        class.negate();
    }
    class
}

/// A class in the crate's syntax, with the crate's case folding off: the set is Go's already.
fn class_text(class: &ClassUnicode) -> String {
    if class.ranges().is_empty() {
        return r"[^\x{0}-\x{10FFFF}]".to_string();
    }
    let mut s = String::from("(?-i:[");
    for r in class.iter() {
        let (lo, hi) = (r.start() as u32, r.end() as u32);
        if lo == hi {
            s.push_str(&format!("\\x{{{lo:X}}}"));
        } else {
            s.push_str(&format!("\\x{{{lo:X}}}-\\x{{{hi:X}}}"));
        }
    }
    s.push_str("])");
    s
}

/// A literal character in the crate's syntax.
fn literal(c: char) -> String {
    if c.is_ascii_alphanumeric() {
        c.to_string()
    } else {
        format!("\\x{{{:X}}}", c as u32)
    }
}

/// Go's `parseClass` on `[...`: the class in the crate's syntax and the rest.
fn parse_class(s: &str, fold: bool) -> Result<(String, &str), RegexError> {
    let mut t = &s[1..];
    let mut negated = false;
    if t.starts_with('^') {
        negated = true;
        t = &t[1..];
    }
    let mut class = ClassUnicode::empty();
    let mut first = true;
    while t.is_empty() || !t.starts_with(']') || first {
        first = false;
        if t.len() > 2
            && t.starts_with("[:")
            && let Some(i) = t[2..].find(":]")
        {
            let i = i + 2;
            let name = &t[..i + 2];
            let Some((ranges, neg)) = posix_class(&t[2..i]) else {
                return Err(go_err("invalid character class range", name));
            };
            class.union(&group(&ranges, neg, fold));
            t = &t[i + 2..];
            continue;
        }
        if t.starts_with("\\p") || t.starts_with("\\P") {
            return Err(unicode_class_error(t));
        }
        if let Some(rest) = t.strip_prefix('\\')
            && let Some((ranges, neg)) = perl_class(rest.as_bytes())
        {
            class.union(&group(&ranges, neg, fold));
            t = &t[2..];
            continue;
        }
        let rng = t;
        let (lo, rest) = class_char(t, s)?;
        t = rest;
        let mut hi = lo;
        if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
            let (h, rest) = class_char(&t[1..], s)?;
            t = rest;
            hi = h;
            if hi < lo {
                return Err(go_err(
                    "invalid character class range",
                    &rng[..rng.len() - t.len()],
                ));
            }
        }
        class.union(&group(&[(lo as u32, hi as u32)], false, fold));
    }
    t = &t[1..];
    if negated {
        class.negate();
    }
    Ok((class_text(&class), t))
}

fn class_char<'a>(t: &'a str, whole: &str) -> Result<(char, &'a str), RegexError> {
    let Some(c) = t.chars().next() else {
        return Err(go_err("missing closing ]", whole));
    };
    if c == '\\' {
        return parse_escape(t);
    }
    Ok((c, &t[c.len_utf8()..]))
}

/// Go's `(*Regexp).ReplaceAllString` with `$` expansion (`Regexp.Expand`), its output bounded
/// by `max` bytes (`None` past it).
pub(super) fn replace_all(
    re: &GoRegex,
    src: &str,
    repl: &str,
    literal: bool,
    max: usize,
    meter: &mut Meter,
) -> Result<Option<String>, RegexError> {
    let mut buf = String::new();
    let mut last_match_end = 0usize;
    let mut search_pos = 0usize;
    let mut locs = re.re.capture_locations();
    while search_pos <= src.len() {
        meter
            .take(search_steps(re, src.len() - search_pos))
            .map_err(RegexError::Spent)?;
        let Some(m) = re.re.captures_read_at(&mut locs, src, search_pos) else {
            break;
        };
        let (a0, a1) = (m.start(), m.end());
        buf.push_str(&src[last_match_end..a0]);
        if a1 > last_match_end || a0 == 0 {
            if literal {
                if buf.len() + repl.len() > max {
                    return Ok(None);
                }
                buf.push_str(repl);
            } else if !expand(&mut buf, repl, src, re, &locs, max)? {
                return Ok(None);
            }
        }
        if buf.len() > max {
            return Ok(None);
        }
        last_match_end = a1;
        let width = src[search_pos..].chars().next().map_or(0, char::len_utf8);
        if search_pos + width > a1 {
            search_pos += width;
        } else if search_pos + 1 > a1 {
            search_pos += 1;
        } else {
            search_pos = a1;
        }
    }
    buf.push_str(&src[last_match_end..]);
    if buf.len() > max {
        return Ok(None);
    }
    Ok(Some(buf))
}

/// Go's `Regexp.expand`: `$1`, `${1}`, `$name`, `${name}`, `$$`.
fn expand(
    dst: &mut String,
    template: &str,
    src: &str,
    re: &GoRegex,
    locs: &regex::CaptureLocations,
    max: usize,
) -> Result<bool, RegexError> {
    let mut template = template;
    let fits = |dst: &String, more: usize| dst.len().saturating_add(more) <= max;
    while let Some((before, after)) = template.split_once('$') {
        if !fits(dst, before.len() + 1) {
            return Ok(false);
        }
        dst.push_str(before);
        template = after;
        if let Some(rest) = template.strip_prefix('$') {
            dst.push('$');
            template = rest;
            continue;
        }
        let Some((name, num, rest)) = extract(template)? else {
            dst.push('$');
            continue;
        };
        template = rest;
        if let Some(num) = num {
            if let Some((s, e)) = locs.get(num) {
                if !fits(dst, e - s) {
                    return Ok(false);
                }
                dst.push_str(&src[s..e]);
            }
        } else {
            for (i, n) in re.names.iter().enumerate() {
                if n == name
                    && let Some((s, e)) = locs.get(i)
                {
                    if !fits(dst, e - s) {
                        return Ok(false);
                    }
                    dst.push_str(&src[s..e]);
                    break;
                }
            }
        }
    }
    if !fits(dst, template.len()) {
        return Ok(false);
    }
    dst.push_str(template);
    Ok(true)
}

/// Go's `extract`: the name (and its number) after a `$`, and the rest.
#[allow(clippy::type_complexity)]
fn extract(s: &str) -> Result<Option<(&str, Option<usize>, &str)>, RegexError> {
    if s.is_empty() {
        return Ok(None);
    }
    let (brace, body) = match s.strip_prefix('{') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let mut i = 0;
    for c in body.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            i += 1;
            continue;
        }
        if !c.is_ascii() {
            return Err(RegexError::Unsupported(format!(
                "the replacement {s:?} (a group name with the non-ASCII {c:?}, which Go reads with Unicode 13's tables)"
            )));
        }
        break;
    }
    if i == 0 {
        return Ok(None);
    }
    let name = &body[..i];
    let mut rest = &body[i..];
    if brace {
        let Some(r) = rest.strip_prefix('}') else {
            return Ok(None);
        };
        rest = r;
    }
    let mut num: Option<usize> = Some(0);
    for d in name.bytes() {
        match num {
            Some(n) if d.is_ascii_digit() && n < 100_000_000 => {
                num = Some(n * 10 + usize::from(d - b'0'))
            }
            _ => {
                num = None;
                break;
            }
        }
    }
    if name.len() > 1 && name.starts_with('0') {
        num = None;
    }
    Ok(Some((name, num, rest)))
}

/// Go's `(*Regexp).FindAllString(src, n)` (n < 0: all): the matches' spans.
///
/// Each search takes its steps from `meter` first.
///
/// # Errors
/// The meter's, when a search would pass the render's steps.
pub(super) fn find_all(
    re: &GoRegex,
    src: &str,
    n: i64,
    meter: &mut Meter,
) -> Result<Vec<(usize, usize)>, FuncError> {
    let n = if n < 0 { src.len() as i64 + 1 } else { n };
    let mut out = Vec::new();
    let end = src.len();
    let (mut pos, mut prev_match_end) = (0usize, None::<usize>);
    while (out.len() as i64) < n && pos <= end {
        meter.take(search_steps(re, end - pos))?;
        let Some(m) = re.re.find_at(src, pos) else {
            break;
        };
        let mut accept = true;
        if m.end() == pos {
            if Some(m.start()) == prev_match_end {
                accept = false;
            }
            let width = src[pos..].chars().next().map_or(0, char::len_utf8);
            pos = if width > 0 { pos + width } else { end + 1 };
        } else {
            pos = m.end();
        }
        prev_match_end = Some(m.end());
        if accept {
            out.push((m.start(), m.end()));
        }
    }
    Ok(out)
}
