//! sprig v3.2.3's hermetic functions that ipreuse evaluates, on [`Value`], as sprig and Go's
//! `text/template` give them to CAPI (`sprig.HermeticTxtFuncMap()`).
//!
//! Each function takes its arguments as sprig's Go function declares them: a `string`
//! parameter refuses any other value with `text/template`'s own message (`wrong type for
//! value; expected string; got float64`), an `interface{}` one takes anything (a missing key
//! becomes nil), and the argument order is sprig's (`contains SUBSTR S`, `replace OLD NEW S`,
//! `join SEP LIST`, `ternary VTRUE VFALSE COND`, `regexReplaceAll REGEX S REPL`). Read from
//! sprig's sources (`strings.go`, `defaults.go`, `dict.go`, `list.go`, `regex.go`, `semver.go`;
//! MIT licence) and Masterminds/semver v3.2.0's `version.go` (MIT).
//!
//! Every string a function makes is checked against [`Limits::string_bytes`] before it is
//! made (`replace` counts the matches first, `repeat` multiplies, `join` adds up the parts,
//! `regexReplaceAll` stops as its output passes the limit).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::fmt::{quote, string_arg, strval};
use super::limits::{FuncError, Limits, Meter};
use super::value::{Elem, Func, MeteredFunc, Value, Version};
use crate::topology::semver;

mod case;
mod regexp;

/// The sprig functions ipreuse evaluates (any other is refused by the engine, by name).
pub const NAMES: &[&str] = &[
    "default",
    "empty",
    "coalesce",
    "ternary",
    "upper",
    "lower",
    "trim",
    "trimAll",
    "trimPrefix",
    "trimSuffix",
    "nospace",
    "repeat",
    "replace",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "quote",
    "squote",
    "split",
    "splitList",
    "join",
    "toString",
    "list",
    "dict",
    "get",
    "hasKey",
    "semver",
    "semverCompare",
    "cat",
    "indent",
    "nindent",
    "b64enc",
    "regexMatch",
    "mustRegexMatch",
    "regexFind",
    "mustRegexFind",
    "regexFindAll",
    "mustRegexFindAll",
    "regexReplaceAll",
    "mustRegexReplaceAll",
    "regexReplaceAllLiteral",
    "mustRegexReplaceAllLiteral",
];

/// The positions of a function's Go map parameters: a template's `nil` constant given to one
/// is Go's empty map (text/template's `evalArg` gives `reflect.Zero` of a type that can be nil),
/// so `get nil "k"` is `""`; the engine passes it as a missing value, which these functions read
/// as an empty map. A null of the data is another thing: Go refuses it there ("got interface {}").
pub fn map_params(name: &str) -> &'static [usize] {
    match name {
        "get" | "hasKey" => &[0],
        _ => &[],
    }
}

/// The positions of a function's Go `int` parameters. Go converts an integral number constant
/// of the template (`3.0`, `1e3`) to an `int` for such a parameter (text/template's
/// `evalInteger` reads the constant's `IsInt`), where the same text given to an `interface{}`
/// parameter is a `float64`: the engine gives those literals to these positions as ints.
pub fn int_params(name: &str) -> &'static [usize] {
    match name {
        "repeat" | "indent" | "nindent" => &[0],
        "regexFindAll" | "mustRegexFindAll" => &[2],
        _ => &[],
    }
}

/// The function sprig names `name`.
pub fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "default" => default,
        "empty" => empty_fn,
        "coalesce" => coalesce,
        "ternary" => ternary,
        "upper" => upper,
        "lower" => lower,
        "trim" => trim,
        "trimAll" => trim_all,
        "trimPrefix" => trim_prefix,
        "trimSuffix" => trim_suffix,
        "nospace" => nospace,
        "repeat" => repeat,
        "replace" => replace,
        "contains" => contains,
        "hasPrefix" => has_prefix,
        "hasSuffix" => has_suffix,
        "quote" => quote_fn,
        "squote" => squote,
        "split" => split,
        "splitList" => split_list,
        "join" => join,
        "toString" => to_string,
        "list" => list,
        "dict" => dict,
        "get" => get,
        "hasKey" => has_key,
        "semver" => semver_fn,
        "semverCompare" => semver_compare,
        "cat" => cat,
        "indent" => indent,
        "nindent" => nindent,
        "b64enc" => b64enc,
        _ => return None,
    })
}

/// The regular expression functions: compiling a pattern and searching grow with the
/// pattern's size times the text's, so each takes its steps from the render's [`Meter`].
pub fn lookup_metered(name: &str) -> Option<MeteredFunc> {
    Some(match name {
        "regexFind" => regex_find,
        "mustRegexFind" => must_regex_find,
        "regexFindAll" => regex_find_all,
        "mustRegexFindAll" => must_regex_find_all,
        "regexMatch" => regex_match,
        "mustRegexMatch" => must_regex_match,
        "regexReplaceAll" => regex_replace_all,
        "mustRegexReplaceAll" => must_regex_replace_all,
        "regexReplaceAllLiteral" => regex_replace_all_literal,
        "mustRegexReplaceAllLiteral" => must_regex_replace_all_literal,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Arguments as text/template passes them
// ---------------------------------------------------------------------------------------------

fn arity(name: &str, args: &[Value], n: usize) -> Result<(), FuncError> {
    if args.len() != n {
        return Err(FuncError::Failed(format!(
            "wrong number of args for {name}: want {n} got {}",
            args.len()
        )));
    }
    Ok(())
}

fn at_least(name: &str, args: &[Value], n: usize) -> Result<(), FuncError> {
    if args.len() < n {
        return Err(FuncError::Failed(format!(
            "wrong number of args for {name}: want at least {n} got {}",
            args.len()
        )));
    }
    Ok(())
}

/// The `N` `string` parameters of a function of exactly `N`.
fn strings<'a, const N: usize>(name: &str, args: &'a [Value]) -> Result<[&'a str; N], FuncError> {
    arity(name, args, N)?;
    let mut out = [""; N];
    for (slot, arg) in out.iter_mut().zip(args) {
        *slot = string_arg(arg)?;
    }
    Ok(out)
}

/// An `interface{}` parameter: a missing key is a nil interface.
fn any(v: &Value) -> Result<Value, FuncError> {
    match v {
        Value::Missing => Ok(Value::Nil),
        Value::Unknown(name) => Err(FuncError::Unknown(name.to_string())),
        other => Ok(other.clone()),
    }
}

fn type_error(expected: &str, v: &Value) -> FuncError {
    match v {
        Value::Missing => FuncError::Failed(format!("invalid value; expected {expected}")),
        Value::Unknown(name) => FuncError::Unknown(name.to_string()),
        Value::Nil => FuncError::Failed(format!(
            "wrong type for value; expected {expected}; got interface {{}}"
        )),
        other => FuncError::Failed(format!(
            "wrong type for value; expected {expected}; got {}",
            other.go_type()
        )),
    }
}

fn bool_arg(v: &Value) -> Result<bool, FuncError> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(type_error("bool", other)),
    }
}

fn int_arg(v: &Value) -> Result<i64, FuncError> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(type_error("int", other)),
    }
}

/// A `map[string]interface{}` parameter (a missing key is a nil map).
fn map_arg(v: &Value) -> Result<Option<&BTreeMap<String, Value>>, FuncError> {
    match v {
        Value::Map(map, Elem::Any) => Ok(Some(map)),
        Value::Missing => Ok(None),
        other => Err(type_error("map[string]interface {}", other)),
    }
}

fn string_value(limits: &Limits, s: String) -> Result<Value, FuncError> {
    limits.check_string(s.len())?;
    Ok(Value::string(s))
}

fn unknown_in(args: &[Value]) -> Result<(), FuncError> {
    match args.iter().find_map(Value::unknown) {
        Some(name) => Err(FuncError::Unknown(name.to_string())),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// defaults.go
// ---------------------------------------------------------------------------------------------

/// sprig's `empty`: nil, false, 0, and empty strings, lists and maps (a version is not).
pub fn is_empty(v: &Value) -> bool {
    match v {
        Value::Missing | Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(n) => *n == 0,
        Value::Uint(n) => *n == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::List(items, _) => items.is_empty(),
        Value::Map(map, _) => map.is_empty(),
        Value::Version(_) | Value::Unknown(_) => false,
    }
}

/// `default DEFAULT GIVEN...`: DEFAULT when GIVEN is absent or empty.
fn default(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    at_least("default", args, 1)?;
    unknown_in(&args[..args.len().min(2)])?;
    match args.get(1) {
        Some(given) if !is_empty(given) => any(given),
        _ => any(&args[0]),
    }
}

fn empty_fn(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("empty", args, 1)?;
    unknown_in(args)?;
    Ok(Value::Bool(is_empty(&args[0])))
}

fn coalesce(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    for arg in args {
        unknown_in(std::slice::from_ref(arg))?;
        if !is_empty(arg) {
            return any(arg);
        }
    }
    Ok(Value::Nil)
}

/// `ternary VTRUE VFALSE COND`.
fn ternary(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("ternary", args, 3)?;
    let (vt, vf) = (any(&args[0])?, any(&args[1])?);
    Ok(if bool_arg(&args[2])? { vt } else { vf })
}

// ---------------------------------------------------------------------------------------------
// strings.go
// ---------------------------------------------------------------------------------------------

/// strings.ToUpper / ToLower: Go's `unicode.ToUpper` / `ToLower` rune by rune (simple case
/// mapping, Unicode 13), which is Rust's mapping except for the characters of [`case::GO_CASE`].
fn case(limits: &Limits, s: &str, upper: bool) -> Result<Value, FuncError> {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        out.push(go_case(c, upper));
    }
    string_value(limits, out)
}

fn go_case(c: char, upper: bool) -> char {
    let table = case::GO_CASE;
    let i = table.partition_point(|&(r, _, _)| r < c as u32);
    if let Some(&(r, u, l)) = table.get(i)
        && r == c as u32
    {
        return char::from_u32(if upper { u } else { l }).unwrap_or(c);
    }
    // Every character whose mapping is not one character is in the table.
    let mapped = if upper {
        single(c.to_uppercase())
    } else {
        single(c.to_lowercase())
    };
    mapped.unwrap_or(c)
}

fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    match (it.next(), it.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

fn upper(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [s] = strings::<1>("upper", args)?;
    case(limits, s, true)
}

fn lower(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [s] = strings::<1>("lower", args)?;
    case(limits, s, false)
}

/// strings.TrimSpace: Unicode White_Space, as Rust's `trim`.
fn trim(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [s] = strings::<1>("trim", args)?;
    Ok(Value::string(s.trim()))
}

/// `trimAll CUTSET S`: strings.Trim(S, CUTSET).
fn trim_all(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [cutset, s] = strings::<2>("trimAll", args)?;
    Ok(Value::string(s.trim_matches(|c| cutset.contains(c))))
}

fn trim_prefix(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [prefix, s] = strings::<2>("trimPrefix", args)?;
    Ok(Value::string(s.strip_prefix(prefix).unwrap_or(s)))
}

fn trim_suffix(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [suffix, s] = strings::<2>("trimSuffix", args)?;
    Ok(Value::string(s.strip_suffix(suffix).unwrap_or(s)))
}

/// goutils' DeleteWhiteSpace: byte by byte (a byte of a multi-byte character that is 0x85 or
/// 0xA0 is removed, and the other bytes then written as Latin-1 characters, as Go does).
fn nospace(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [s] = strings::<1>("nospace", args)?;
    let is_space = |b: u8| matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' | 0x85 | 0xA0);
    if !s.bytes().any(is_space) {
        return Ok(Value::string(s));
    }
    let out: String = s
        .bytes()
        .filter(|&b| !is_space(b))
        .map(char::from)
        .collect();
    string_value(limits, out)
}

/// `repeat COUNT S` (COUNT an `int`: a literal or `len`).
fn repeat(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("repeat", args, 2)?;
    let count = int_arg(&args[0])?;
    let s = string_arg(&args[1])?;
    if count < 0 {
        return Err(FuncError::Failed(
            "strings: negative Repeat count".to_string(),
        ));
    }
    let len = (count as u64).saturating_mul(s.len() as u64);
    limits.check_string(usize::try_from(len).unwrap_or(usize::MAX))?;
    Ok(Value::string(s.repeat(count as usize)))
}

/// `replace OLD NEW S`: strings.Replace(S, OLD, NEW, -1).
fn replace(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [old, new, s] = strings::<3>("replace", args)?;
    let n = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    };
    let len = (s.len() as u128 + n as u128 * new.len() as u128)
        .saturating_sub(n as u128 * old.len() as u128);
    limits.check_string(usize::try_from(len).unwrap_or(usize::MAX))?;
    Ok(Value::string(s.replace(old, new)))
}

fn contains(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [substr, s] = strings::<2>("contains", args)?;
    Ok(Value::Bool(s.contains(substr)))
}

fn has_prefix(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [prefix, s] = strings::<2>("hasPrefix", args)?;
    Ok(Value::Bool(s.starts_with(prefix)))
}

fn has_suffix(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [suffix, s] = strings::<2>("hasSuffix", args)?;
    Ok(Value::Bool(s.ends_with(suffix)))
}

/// `quote ARGS...`: each non-nil argument as `%q` of its strval, joined by spaces.
fn quote_fn(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    unknown_in(args)?;
    let mut out = String::new();
    let mut first = true;
    for arg in args
        .iter()
        .filter(|a| !matches!(a, Value::Nil | Value::Missing))
    {
        let q = quote(&strval(arg, limits)?, '"', false);
        push_piece(limits, &mut out, &mut first, &q)?;
    }
    Ok(Value::string(out))
}

/// `squote ARGS...`: each non-nil argument as `'%v'`, joined by spaces.
fn squote(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    unknown_in(args)?;
    let mut out = String::new();
    let mut first = true;
    for arg in args
        .iter()
        .filter(|a| !matches!(a, Value::Nil | Value::Missing))
    {
        let piece = format!("'{}'", strval(arg, limits)?);
        push_piece(limits, &mut out, &mut first, &piece)?;
    }
    Ok(Value::string(out))
}

/// strings.Join's step: a space before every piece but the first, within the limit.
fn push_piece(
    limits: &Limits,
    out: &mut String,
    first: &mut bool,
    piece: &str,
) -> Result<(), FuncError> {
    let sep = usize::from(!*first);
    limits.check_string(out.len() + sep + piece.len())?;
    if !*first {
        out.push(' ');
    }
    *first = false;
    out.push_str(piece);
    Ok(())
}

/// `cat ARGS...`: the non-nil arguments as `fmt.Sprintf("%v %v ...")`.
fn cat(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    unknown_in(args)?;
    let kept: Vec<Value> = args
        .iter()
        .filter(|a| !matches!(a, Value::Nil | Value::Missing))
        .cloned()
        .collect();
    let format = vec!["%v"; kept.len()].join(" ");
    let mut all = vec![Value::string(format)];
    all.extend(kept);
    super::fmt::sprintf(limits, &all)
}

/// `indent N S`: N spaces before every line (N an `int`).
fn indent_text(
    limits: &Limits,
    name: &str,
    args: &[Value],
    newline: bool,
) -> Result<String, FuncError> {
    arity(name, args, 2)?;
    let spaces = int_arg(&args[0])?;
    let s = string_arg(&args[1])?;
    if spaces < 0 {
        return Err(FuncError::Failed(
            "strings: negative Repeat count".to_string(),
        ));
    }
    let lines = s.matches('\n').count() as u128 + 1;
    let len = s.len() as u128 + lines * spaces as u128 + u128::from(newline);
    limits.check_string(usize::try_from(len).unwrap_or(usize::MAX))?;
    let pad = " ".repeat(spaces as usize);
    let mut out = String::with_capacity(len as usize);
    if newline {
        out.push('\n');
    }
    out.push_str(&pad);
    out.push_str(&s.replace('\n', &format!("\n{pad}")));
    Ok(out)
}

fn indent(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    indent_text(limits, "indent", args, false).map(Value::string)
}

/// `nindent N S`: a newline, then `indent N S`.
fn nindent(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    indent_text(limits, "nindent", args, true).map(Value::string)
}

/// `b64enc S`: standard base64 with padding.
fn b64enc(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    use base64::Engine as _;
    let [s] = strings::<1>("b64enc", args)?;
    limits.check_string(s.len().div_ceil(3).saturating_mul(4))?;
    Ok(Value::string(
        base64::engine::general_purpose::STANDARD.encode(s),
    ))
}

/// strings.Split(S, SEP) (an empty SEP splits into characters; an empty S with it gives none).
fn go_split<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    if sep.is_empty() {
        s.char_indices()
            .map(|(i, c)| &s[i..i + c.len_utf8()])
            .collect()
    } else {
        s.split(sep).collect()
    }
}

/// A list of `parts` strings of `len` bytes in all, counted as its bytes and 8 per part (what
/// it holds beyond its text), so that splitting a long string into one-byte parts is bounded
/// like the string it comes from.
fn check_parts(limits: &Limits, len: usize, parts: usize) -> Result<(), FuncError> {
    limits.check_string(len.saturating_add(parts.saturating_mul(8)))
}

/// `split SEP S`: a `map[string]string` with keys `_0`, `_1`, ...
fn split(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [sep, s] = strings::<2>("split", args)?;
    let parts = go_split(s, sep);
    check_parts(limits, s.len(), parts.len())?;
    let map: BTreeMap<String, Value> = parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| (format!("_{i}"), Value::string(part)))
        .collect();
    Ok(Value::Map(Rc::new(map), Elem::String))
}

/// `splitList SEP S`: a `[]string`.
fn split_list(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [sep, s] = strings::<2>("splitList", args)?;
    let parts = go_split(s, sep);
    check_parts(limits, s.len(), parts.len())?;
    let parts = parts.into_iter().map(Value::string).collect();
    Ok(Value::List(Rc::new(parts), Elem::String))
}

/// sprig's `strslice`: the strings `join` joins.
fn strslice(v: &Value, limits: &Limits) -> Result<Vec<String>, FuncError> {
    match v {
        Value::List(items, _) => items
            .iter()
            .filter(|i| !matches!(i, Value::Nil | Value::Missing))
            .map(|i| strval(i, limits))
            .collect(),
        Value::Nil | Value::Missing => Ok(Vec::new()),
        other => Ok(vec![strval(other, limits)?]),
    }
}

/// `join SEP LIST`.
fn join(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("join", args, 2)?;
    let sep = string_arg(&args[0])?;
    unknown_in(&args[1..])?;
    let parts = strslice(&args[1], limits)?;
    let len = parts.iter().map(String::len).sum::<usize>()
        + sep.len().saturating_mul(parts.len().saturating_sub(1));
    limits.check_string(len)?;
    Ok(Value::string(parts.join(sep)))
}

fn to_string(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("toString", args, 1)?;
    Ok(Value::string(strval(&any(&args[0])?, limits)?))
}

// ---------------------------------------------------------------------------------------------
// list.go, dict.go
// ---------------------------------------------------------------------------------------------

fn list(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let items = args.iter().map(any).collect::<Result<Vec<_>, _>>()?;
    Ok(Value::List(Rc::new(items), Elem::Any))
}

/// `dict K1 V1 K2 V2 ...`: keys by strval; a key without a value gets "".
fn dict(limits: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let mut map = BTreeMap::new();
    for pair in args.chunks(2) {
        let key = strval(&any(&pair[0])?, limits)?;
        let value = match pair.get(1) {
            Some(v) => any(v)?,
            None => Value::string(""),
        };
        map.insert(key, value);
    }
    Ok(Value::Map(Rc::new(map), Elem::Any))
}

/// `get MAP KEY`: the value, or "" when the key is absent.
fn get(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("get", args, 2)?;
    let map = map_arg(&args[0])?;
    let key = string_arg(&args[1])?;
    match map.and_then(|m| m.get(key)) {
        // INTERFACE.md: `get` may return an unknown builtin; the engine refuses its later use
        // (holding it in a variable is not a use: CAPI would render).
        Some(v @ Value::Unknown(_)) => Ok(v.clone()),
        Some(v) => any(v),
        None => Ok(Value::string("")),
    }
}

fn has_key(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    arity("hasKey", args, 2)?;
    let map = map_arg(&args[0])?;
    let key = string_arg(&args[1])?;
    Ok(Value::Bool(map.is_some_and(|m| m.contains_key(key))))
}

// ---------------------------------------------------------------------------------------------
// semver.go
// ---------------------------------------------------------------------------------------------

/// Masterminds/semver v3.2.0's `NewVersion`: `v?N(.N)?(.N)?(-pre)?(+meta)?`, the whole text.
pub fn new_version(text: &str) -> Result<Version, String> {
    const INVALID: &str = "Invalid Semantic Version";
    let body = text.strip_prefix('v').unwrap_or(text);
    let ident_char = |b: u8| b.is_ascii_alphanumeric() || b == b'-';
    // The numbers: up to three dot-separated runs of digits.
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut numbers: Vec<&str> = Vec::new();
    loop {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            if numbers.is_empty() {
                return Err(INVALID.to_string());
            }
            // A dot not followed by digits: the regexp cannot end here.
            return Err(INVALID.to_string());
        }
        numbers.push(&body[start..i]);
        if numbers.len() < 3 && i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            continue;
        }
        break;
    }
    let rest = &body[i..];
    let (pre_part, meta_part) = match rest.find('+') {
        Some(p) => (&rest[..p], Some(&rest[p + 1..])),
        None => (rest, None),
    };
    let pre = if pre_part.is_empty() {
        ""
    } else {
        let Some(p) = pre_part.strip_prefix('-') else {
            return Err(INVALID.to_string());
        };
        p
    };
    let dotted = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(ident_char))
    };
    if !pre_part.is_empty() && !dotted(pre) {
        return Err(INVALID.to_string());
    }
    if let Some(meta) = meta_part
        && !dotted(meta)
    {
        return Err(INVALID.to_string());
    }
    let number = |s: &str| {
        s.parse::<u64>().map_err(|_| {
            format!("Error parsing version segment: strconv.ParseUint: parsing {s:?}: value out of range")
        })
    };
    let major = number(numbers[0])?;
    let minor = numbers.get(1).map_or(Ok(0), |s| number(s))?;
    let patch = numbers.get(2).map_or(Ok(0), |s| number(s))?;
    for part in pre.split('.').filter(|_| !pre.is_empty()) {
        if part.bytes().all(|b| b.is_ascii_digit()) && part.len() > 1 && part.starts_with('0') {
            return Err("Version segment starts with 0".to_string());
        }
    }
    Ok(Version {
        major,
        minor,
        patch,
        prerelease: pre.to_string(),
        metadata: meta_part.unwrap_or("").to_string(),
        original: text.to_string(),
    })
}

/// `semver VERSION`: a `*semver.Version` (its fields are the engine's).
fn semver_fn(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [text] = strings::<1>("semver", args)?;
    new_version(text)
        .map(|v| Value::Version(Rc::new(v)))
        .map_err(FuncError::Failed)
}

/// `semverCompare CONSTRAINT VERSION`.
fn semver_compare(_: &Limits, args: &[Value]) -> Result<Value, FuncError> {
    let [constraint, version] = strings::<2>("semverCompare", args)?;
    semver::satisfies(constraint, version)
        .map(Value::Bool)
        .map_err(FuncError::Failed)
}

// ---------------------------------------------------------------------------------------------
// regex.go
// ---------------------------------------------------------------------------------------------

/// How sprig's function treats a pattern Go refuses: `regexMatch` says false, the `must`
/// functions return Go's compile error, the others panic (`regexp.MustCompile`), which
/// text/template reports as the call's error.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnBadPattern {
    False,
    Error,
    Panic,
}

/// Go's `regexp.Compile` of `pattern`, its steps taken from `meter`: `Ok(None)` when Go refuses
/// it and `on_bad` is [`OnBadPattern::False`].
fn compile(
    pattern: &str,
    meter: &mut Meter,
    on_bad: OnBadPattern,
) -> Result<Option<regexp::GoRegex>, FuncError> {
    match regexp::compile(pattern, meter) {
        Ok(re) => Ok(Some(re)),
        Err(regexp::RegexError::Go(_)) if on_bad == OnBadPattern::False => Ok(None),
        Err(regexp::RegexError::Go(message)) if on_bad == OnBadPattern::Error => {
            Err(FuncError::Failed(message))
        }
        Err(regexp::RegexError::Go(message)) => Err(FuncError::Failed(format!(
            "regexp: Compile({}): {message}",
            regexp_quote(pattern)
        ))),
        Err(regexp::RegexError::Unsupported(what)) => Err(FuncError::Unsupported(what)),
        Err(regexp::RegexError::Spent(e)) => Err(e),
    }
}

/// [`compile`] for the functions that never say false.
fn compiled(
    pattern: &str,
    meter: &mut Meter,
    on_bad: OnBadPattern,
) -> Result<regexp::GoRegex, FuncError> {
    compile(pattern, meter, on_bad)?
        .ok_or_else(|| FuncError::Failed(format!("regexp: Compile({})", regexp_quote(pattern))))
}

fn on_bad(must: bool) -> OnBadPattern {
    if must {
        OnBadPattern::Error
    } else {
        OnBadPattern::Panic
    }
}

/// regexp's `quote`: backquoted when it can be.
fn regexp_quote(s: &str) -> String {
    let can_backquote = s.chars().all(|c| {
        if c.len_utf8() > 1 {
            return c != '\u{FEFF}';
        }
        !((c < ' ' && c != '\t') || c == '`' || c == '\u{7F}')
    });
    if can_backquote {
        format!("`{s}`")
    } else {
        quote(s, '"', false)
    }
}

/// `regexMatch REGEX S` (false when Go refuses the pattern) and `mustRegexMatch` (Go's
/// compile error).
fn match_fn(name: &str, meter: &mut Meter, args: &[Value], must: bool) -> Result<Value, FuncError> {
    let [pattern, s] = strings::<2>(name, args)?;
    let on_bad = if must {
        OnBadPattern::Error
    } else {
        OnBadPattern::False
    };
    let Some(re) = compile(pattern, meter, on_bad)? else {
        return Ok(Value::Bool(false));
    };
    meter.take(regexp::search_steps(&re, s.len()))?;
    Ok(Value::Bool(re.re.is_match(s)))
}

fn regex_match(_: &Limits, meter: &mut Meter, args: &[Value]) -> Result<Value, FuncError> {
    match_fn("regexMatch", meter, args, false)
}

fn must_regex_match(_: &Limits, meter: &mut Meter, args: &[Value]) -> Result<Value, FuncError> {
    match_fn("mustRegexMatch", meter, args, true)
}

/// `regexFind REGEX S`: the first match, or "".
fn find_fn(name: &str, meter: &mut Meter, args: &[Value], must: bool) -> Result<Value, FuncError> {
    let [pattern, s] = strings::<2>(name, args)?;
    let re = compiled(pattern, meter, on_bad(must))?;
    meter.take(regexp::search_steps(&re, s.len()))?;
    Ok(Value::string(re.re.find(s).map_or("", |m| m.as_str())))
}

fn regex_find(_: &Limits, meter: &mut Meter, args: &[Value]) -> Result<Value, FuncError> {
    find_fn("regexFind", meter, args, false)
}

fn must_regex_find(_: &Limits, meter: &mut Meter, args: &[Value]) -> Result<Value, FuncError> {
    find_fn("mustRegexFind", meter, args, true)
}

/// `regexFindAll REGEX S N`: up to N matches (N < 0: all), a `[]string`.
fn find_all(
    limits: &Limits,
    meter: &mut Meter,
    name: &str,
    args: &[Value],
    must: bool,
) -> Result<Value, FuncError> {
    arity(name, args, 3)?;
    let pattern = string_arg(&args[0])?;
    let s = string_arg(&args[1])?;
    let n = int_arg(&args[2])?;
    let re = compiled(pattern, meter, on_bad(must))?;
    let spans = regexp::find_all(&re, s, n, meter)?;
    check_parts(limits, spans.iter().map(|(a, b)| b - a).sum(), spans.len())?;
    let found = spans
        .into_iter()
        .map(|(a, b)| Value::string(&s[a..b]))
        .collect();
    Ok(Value::List(Rc::new(found), Elem::String))
}

fn regex_find_all(limits: &Limits, meter: &mut Meter, args: &[Value]) -> Result<Value, FuncError> {
    find_all(limits, meter, "regexFindAll", args, false)
}

fn must_regex_find_all(
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
) -> Result<Value, FuncError> {
    find_all(limits, meter, "mustRegexFindAll", args, true)
}

/// `regexReplaceAll REGEX S REPL` (`$1`, `${name}` and `$$` expanded as Go's `Expand`) and
/// `regexReplaceAllLiteral` (REPL as it is), and their `must` twins.
fn replace_fn(
    name: &str,
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
    must: bool,
    literal: bool,
) -> Result<Value, FuncError> {
    let [pattern, s, repl] = strings::<3>(name, args)?;
    let re = compiled(pattern, meter, on_bad(must))?;
    match regexp::replace_all(&re, s, repl, literal, limits.string_bytes, meter) {
        Ok(Some(out)) => Ok(Value::string(out)),
        Ok(None) => Err(FuncError::Limit {
            limit: super::limits::Limit::StringBytes,
            max: limits.string_bytes as u64,
        }),
        Err(regexp::RegexError::Go(m) | regexp::RegexError::Unsupported(m)) => {
            Err(FuncError::Unsupported(m))
        }
        Err(regexp::RegexError::Spent(e)) => Err(e),
    }
}

fn regex_replace_all(
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
) -> Result<Value, FuncError> {
    replace_fn("regexReplaceAll", limits, meter, args, false, false)
}

fn must_regex_replace_all(
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
) -> Result<Value, FuncError> {
    replace_fn("mustRegexReplaceAll", limits, meter, args, true, false)
}

fn regex_replace_all_literal(
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
) -> Result<Value, FuncError> {
    replace_fn("regexReplaceAllLiteral", limits, meter, args, false, true)
}

fn must_regex_replace_all_literal(
    limits: &Limits,
    meter: &mut Meter,
    args: &[Value],
) -> Result<Value, FuncError> {
    replace_fn(
        "mustRegexReplaceAllLiteral",
        limits,
        meter,
        args,
        true,
        true,
    )
}

#[cfg(test)]
mod tests;
