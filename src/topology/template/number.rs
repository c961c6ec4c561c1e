//! Go's integer text (`strconv.ParseInt(text, 0, 64)`, else `ParseUint`), which the parser reads
//! number constants with and `slice` reads its indexes with: a leaf under both.

pub(super) enum IntValue {
    Int(i64),
    Uint(u64),
}

/// Go's digits may be separated by one underscore (after a base prefix too).
pub(super) fn strip_underscores(digits: &str, after_prefix: bool) -> Option<String> {
    if !digits.contains('_') {
        return Some(digits.to_string());
    }
    let bytes = digits.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'_' {
            let before_ok = if i == 0 {
                after_prefix
            } else {
                bytes[i - 1].is_ascii_alphanumeric()
            };
            let after_ok = bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
            if !before_ok || !after_ok {
                return None;
            }
        }
    }
    Some(digits.replace('_', ""))
}

/// `strconv.ParseInt(text, 0, 64)`, else `ParseUint`.
pub(super) fn parse_int(text: &str) -> Option<IntValue> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = unsigned.to_ascii_lowercase();
    let (radix, digits, prefixed) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d, true)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d, true)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d, true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..], true)
    } else {
        (10, lower.as_str(), false)
    };
    let digits = strip_underscores(digits, prefixed)?;
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(&digits, radix).ok()?;
    if negative {
        if magnitude <= i64::MAX as u64 + 1 {
            Some(IntValue::Int((magnitude as i64).wrapping_neg()))
        } else {
            None
        }
    } else if magnitude <= i64::MAX as u64 {
        Some(IntValue::Int(magnitude as i64))
    } else if text.starts_with('+') {
        // ParseUint refuses a sign.
        None
    } else {
        Some(IntValue::Uint(magnitude))
    }
}
