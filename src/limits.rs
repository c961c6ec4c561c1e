//! The limits that bound a run's time and memory on hostile or mistaken input, in one place.
//!
//! Each is checked where the cost would start, and a run past one ends in a clear error that
//! names the limit and how to raise it (docs/limits.md lists them):
//!
//! - the input's size, checked while it is read, before anything is parsed;
//! - nesting depth, checked by the parser ([`MAX_NESTING`], fixed);
//! - alias expansion ("billion laughs"), checked as each document is built;
//! - the number of host-pool claims the mapping asks to fill, checked before any pool is
//!   filled (a few hosts times many pools is a small input with a huge output).
//!
//! The binary sets them from its flags or the matching `IPREUSE_MAX_*` environment variables.

/// Nesting depth of block and flow collections the parser accepts (granit-parser's own default).
/// Fixed: a Kubernetes object is nested a few dozen levels at most, and a deeper tree costs stack
/// in every recursive reader after the parser.
pub const MAX_NESTING: usize = 255;

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of input in all (stdin, or every file read).
    pub max_input_bytes: u64,
    /// A document may read as at most `max(max_alias_nodes, 2 × its written nodes)` nodes once
    /// aliases are expanded.
    pub max_alias_nodes: u64,
    /// Host-pool claims (`{host}-{pool}`) the mapping may ask to fill, over all pools.
    pub max_claims: u64,
}

/// Default input size: 64 MiB, about 85,000 hosts with full hardware status.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;
/// [`DEFAULT_MAX_INPUT_BYTES`] as the flag's help writes it (a test holds the two equal).
pub const DEFAULT_MAX_INPUT_SIZE: &str = "64Mi";
/// Default alias expansion floor.
pub const DEFAULT_MAX_ALIAS_NODES: u64 = 1_000_000;
/// Default number of claims: 250,000 hosts with 4 pools each.
pub const DEFAULT_MAX_CLAIMS: u64 = 1_000_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_alias_nodes: DEFAULT_MAX_ALIAS_NODES,
            max_claims: DEFAULT_MAX_CLAIMS,
        }
    }
}

/// Parses a size: a whole number of bytes, optionally followed by a binary unit `Ki`, `Mi`,
/// `Gi` (1024-based) or a decimal one `k`, `M`, `G` (1000-based), as Kubernetes quantities
/// write them: `67108864`, `64Mi`, `100M`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| {
        format!("{text:?} is not a size: write bytes, or a number with Ki, Mi, Gi, k, M or G")
    })?;
    let factor: u64 = match unit {
        "" => 1,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        "k" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        _ => {
            return Err(format!(
                "{text:?} has unit {unit:?}: use Ki, Mi, Gi (1024-based) or k, M, G (1000-based)"
            ));
        }
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// A size as the messages write it: `64 MiB` when whole mebibytes, else bytes.
pub fn show_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_bytes_and_units() {
        assert_eq!(parse_size("1234"), Ok(1234));
        assert_eq!(parse_size("64Mi"), Ok(64 << 20));
        assert_eq!(parse_size(" 2Gi "), Ok(2 << 30));
        assert_eq!(parse_size("8Ki"), Ok(8192));
        assert_eq!(parse_size("100M"), Ok(100_000_000));
        assert_eq!(parse_size("3k"), Ok(3000));
        assert_eq!(parse_size("1G"), Ok(1_000_000_000));
    }

    #[test]
    fn sizes_refused() {
        for bad in ["", "Mi", "-1", "1.5Mi", "64MB", "64 Mi", "99999999999999Gi"] {
            assert!(parse_size(bad).is_err(), "{bad:?} accepted");
        }
        assert!(parse_size("64MB").unwrap_err().contains("\"MB\""));
    }

    #[test]
    fn the_default_size_in_words_is_the_default_in_bytes() {
        assert_eq!(
            parse_size(DEFAULT_MAX_INPUT_SIZE),
            Ok(DEFAULT_MAX_INPUT_BYTES)
        );
    }

    #[test]
    fn sizes_shown() {
        assert_eq!(show_size(64 << 20), "64 MiB");
        assert_eq!(show_size(1000), "1000 bytes");
    }
}
