//! sprig's `semverCompare CONSTRAINT VERSION`: Masterminds/semver v3's `NewConstraint(c)`,
//! `NewVersion(v)` and `Constraints.Check`, the rules CAPI's templates get through sprig.
//!
//! Read from Masterminds/semver v3 (`constraints.go`, `version.go`, as vendored by
//! kubernetes/kubernetes at `vendor/github.com/Masterminds/semver/v3/`, MIT licence), not
//! translated line by line: the behaviour is carried over, the regular expressions are replaced
//! by a small tokenizer that accepts what they accept in the forms people write (`>= 1.2`,
//! `^1.22.0`, `~1.2.x`, `1.2 - 1.4.5`, `>=1.2, <2 || 3.x`) and refuses the rest with an error,
//! as Masterminds does for a constraint it cannot parse.
//!
//! The rules, in short:
//! - A version may start with `v`, may leave out the minor and patch (`1.2` is `1.2.0`), and may
//!   carry a pre-release (`-rc.1`, numeric identifiers without leading zeros) and build metadata
//!   (`+build`, ignored when comparing).
//! - `||` separates alternatives; inside one, constraints separated by commas or spaces must all
//!   hold. Operators: none or `=`, `!=`, `>`, `<`, `>=` (`=>`), `<=` (`=<`), `~` (`~>`), `^`;
//!   `x`, `X` or `*` in place of a number is a wildcard, and so is a missing minor or patch.
//! - A version with a pre-release satisfies an alternative only if one of that alternative's
//!   constraints has a pre-release itself.

use std::cmp::Ordering;

/// A version as `NewVersion` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: String,
}

impl Version {
    /// Reads a version as Masterminds' `NewVersion` does (`v` prefix, partial versions).
    ///
    /// # Errors
    /// A message saying what is wrong with `text`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let invalid = || format!("{text:?} is not a semantic version (write e.g. v1.29.0)");
        let body = text.strip_prefix('v').unwrap_or(text);
        let (body, meta) = match body.split_once('+') {
            Some((b, m)) => (b, Some(m)),
            None => (body, None),
        };
        let (core, pre) = match body.split_once('-') {
            Some((c, p)) => (c, p),
            None => (body, ""),
        };
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() > 3 || parts.iter().any(|p| !all_digits(p)) {
            return Err(invalid());
        }
        let number = |i: usize| -> Result<u64, String> {
            parts
                .get(i)
                .map_or(Ok(0), |p| p.parse::<u64>().map_err(|_| invalid()))
        };
        if !pre.is_empty() || body.ends_with('-') {
            for id in pre.split('.') {
                if !identifier(id) {
                    return Err(invalid());
                }
                if all_digits(id) && id.len() > 1 && id.starts_with('0') {
                    return Err(format!(
                        "{text:?}: a numeric pre-release identifier starts with 0"
                    ));
                }
            }
        }
        if let Some(meta) = meta
            && !meta.split('.').all(identifier)
        {
            return Err(invalid());
        }
        Ok(Version {
            major: number(0)?,
            minor: number(1)?,
            patch: number(2)?,
            pre: pre.to_string(),
        })
    }

    /// Masterminds' `Compare`: numbers, then a version without pre-release above one with,
    /// then the pre-release identifiers one by one.
    fn compare(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_pre(&self.pre, &other.pre),
            })
    }
}

/// `comparePrerelease`: part by part; a missing part is lower; numbers are lower than words.
fn compare_pre(a: &str, b: &str) -> Ordering {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (
            a.get(i).copied().unwrap_or(""),
            b.get(i).copied().unwrap_or(""),
        );
        let order = match (x, y) {
            _ if x == y => Ordering::Equal,
            ("", _) => Ordering::Less,
            (_, "") => Ordering::Greater,
            _ => match (x.parse::<u64>(), y.parse::<u64>()) {
                (Ok(m), Ok(n)) => m.cmp(&n),
                (Ok(_), Err(_)) => Ordering::Less,
                (Err(_), Ok(_)) => Ordering::Greater,
                (Err(_), Err(_)) => x.cmp(y),
            },
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn wildcard(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    TildeOrEqual,
    NotEqual,
    Greater,
    Less,
    GreaterEqual,
    LessEqual,
    Tilde,
    Caret,
}

/// Longest first, so that `>=` is not read as `>` followed by `=1.2`.
const OPS: &[(&str, Op)] = &[
    (">=", Op::GreaterEqual),
    ("=>", Op::GreaterEqual),
    ("<=", Op::LessEqual),
    ("=<", Op::LessEqual),
    ("!=", Op::NotEqual),
    ("~>", Op::Tilde),
    (">", Op::Greater),
    ("<", Op::Less),
    ("=", Op::TildeOrEqual),
    ("~", Op::Tilde),
    ("^", Op::Caret),
];

#[derive(Debug, Clone)]
struct Constraint {
    op: Op,
    con: Version,
    dirty: bool,
    minor_dirty: bool,
    patch_dirty: bool,
}

/// The constraint's version: `parseConstraint` turns wildcards and missing parts into zeros
/// and remembers which parts were wild.
fn constraint(op: Op, text: &str, whole: &str) -> Result<Constraint, String> {
    let improper = || format!("improper constraint: {whole:?}");
    let body = text.strip_prefix('v').unwrap_or(text);
    let (no_meta, _) = body.split_once('+').unwrap_or((body, ""));
    let (core, pre) = no_meta.split_once('-').unwrap_or((no_meta, ""));
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() > 3 || parts.iter().any(|p| !(all_digits(p) || wildcard(p))) {
        return Err(improper());
    }
    let pre_suffix = if no_meta.contains('-') {
        format!("-{pre}")
    } else {
        String::new()
    };
    let part = |i: usize| parts.get(i).copied();
    let (version, dirty, minor_dirty, patch_dirty) = match (part(0), part(1), part(2)) {
        (Some(m), _, _) if wildcard(m) => (format!("0.0.0{pre_suffix}"), true, false, false),
        (Some(m), minor, _) if minor.is_none_or(wildcard) => {
            (format!("{m}.0.0{pre_suffix}"), true, true, false)
        }
        (Some(m), Some(n), patch) if patch.is_none_or(wildcard) => {
            (format!("{m}.{n}.0{pre_suffix}"), true, false, true)
        }
        _ => (text.to_string(), false, false, false),
    };
    let con = Version::parse(&version).map_err(|_| improper())?;
    Ok(Constraint {
        op,
        con,
        dirty,
        minor_dirty,
        patch_dirty,
    })
}

impl Constraint {
    fn check(&self, v: &Version, include_pre: bool) -> bool {
        if !v.pre.is_empty() && !include_pre {
            return false;
        }
        let c = &self.con;
        let order = v.compare(c);
        match self.op {
            Op::TildeOrEqual if self.dirty => self.tilde(v),
            Op::TildeOrEqual => order == Ordering::Equal,
            Op::NotEqual => {
                if self.dirty {
                    if c.major != v.major {
                        return true;
                    }
                    if c.minor != v.minor && !self.minor_dirty {
                        return true;
                    }
                    if self.minor_dirty {
                        return false;
                    }
                    if c.patch != v.patch && !self.patch_dirty {
                        return true;
                    }
                    if self.patch_dirty {
                        return (!v.pre.is_empty() || !c.pre.is_empty())
                            && compare_pre(&v.pre, &c.pre) != Ordering::Equal;
                    }
                }
                order != Ordering::Equal
            }
            Op::Greater => {
                if !self.dirty {
                    return order == Ordering::Greater;
                }
                match v.major.cmp(&c.major) {
                    Ordering::Greater => true,
                    Ordering::Less => false,
                    Ordering::Equal if self.minor_dirty => false,
                    Ordering::Equal if self.patch_dirty => v.minor > c.minor,
                    Ordering::Equal => order == Ordering::Greater,
                }
            }
            Op::Less => order == Ordering::Less,
            Op::GreaterEqual => order != Ordering::Less,
            Op::LessEqual => {
                if !self.dirty {
                    return order != Ordering::Greater;
                }
                !(v.major > c.major
                    || (v.major == c.major && v.minor > c.minor && !self.minor_dirty))
            }
            Op::Tilde => self.tilde(v),
            Op::Caret => {
                if order == Ordering::Less {
                    return false;
                }
                if c.major > 0 || self.minor_dirty {
                    return v.major == c.major;
                }
                if v.major > 0 {
                    return false;
                }
                if c.minor > 0 || self.patch_dirty {
                    return v.minor == c.minor;
                }
                if v.minor > 0 {
                    return false;
                }
                v.patch == c.patch
            }
        }
    }

    /// `constraintTilde`.
    fn tilde(&self, v: &Version) -> bool {
        let c = &self.con;
        if v.compare(c) == Ordering::Less {
            return false;
        }
        if (c.major, c.minor, c.patch) == (0, 0, 0) && !self.minor_dirty && !self.patch_dirty {
            return true;
        }
        v.major == c.major && (v.minor == c.minor || self.minor_dirty)
    }
}

/// One `||` alternative: its constraints, and whether one of them names a pre-release.
fn alternative(text: &str, whole: &str) -> Result<(Vec<Constraint>, bool), String> {
    let improper = || format!("improper constraint: {whole:?}");
    // Pieces separated by white space or by one comma (with white space around it).
    let mut pieces: Vec<&str> = Vec::new();
    for (i, chunk) in text.split(',').enumerate() {
        let words: Vec<&str> = chunk.split_whitespace().collect();
        if words.is_empty() {
            return Err(improper());
        }
        if i > 0 && words.first().is_some_and(|w| *w == "-") {
            return Err(improper());
        }
        pieces.extend(words);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        let piece = pieces[i];
        let (op, rest) = OPS
            .iter()
            .find_map(|(spelling, op)| piece.strip_prefix(spelling).map(|r| (Some(*op), r)))
            .unwrap_or((None, piece));
        // An operator alone takes the next piece as its version (`>= 1.2`).
        let (version, next) = if rest.is_empty() && op.is_some() {
            (*pieces.get(i + 1).ok_or_else(improper)?, i + 2)
        } else {
            (rest, i + 1)
        };
        // A hyphen range `A - B` between two bare versions: `>= A, <= B`.
        if op.is_none() && pieces.get(next) == Some(&"-") {
            let upper = *pieces.get(next + 1).ok_or_else(improper)?;
            if OPS.iter().any(|(s, _)| upper.starts_with(s)) {
                return Err(improper());
            }
            out.push(constraint(Op::GreaterEqual, version, whole)?);
            out.push(constraint(Op::LessEqual, upper, whole)?);
            i = next + 2;
            continue;
        }
        out.push(constraint(op.unwrap_or(Op::TildeOrEqual), version, whole)?);
        i = next;
    }
    let has_pre = out.iter().any(|c| !c.con.pre.is_empty());
    Ok((out, has_pre))
}

/// `semverCompare constraint version`: whether `version` satisfies `constraint`.
///
/// # Errors
/// A message naming the constraint or the version that cannot be read.
pub fn satisfies(constraint: &str, version: &str) -> Result<bool, String> {
    let alternatives = constraint
        .split("||")
        .map(|alt| alternative(alt, constraint))
        .collect::<Result<Vec<_>, _>>()?;
    let version = Version::parse(version)?;
    Ok(alternatives
        .iter()
        .any(|(all, has_pre)| all.iter().all(|c| c.check(&version, *has_pre))))
}

#[cfg(test)]
mod tests {
    use super::satisfies;

    /// Cases from Masterminds/semver v3 `constraints_test.go` (`TestConstraintsCheck`) and the
    /// README's tables, each expectation reasoned from the rules in the module doc.
    #[test]
    fn constraints() {
        let cases: &[(&str, &str, bool)] = &[
            ("*", "1.2.3", true),
            ("~0.0.0", "1.2.3", true),
            ("0.x.x", "1.2.3", false),
            ("0.0.x", "1.2.3", false),
            ("0.0.0", "1.2.3", false),
            ("*", "1.2.3-alpha", false),
            ("=2.0.0", "1.2.3", false),
            ("=2.0.0", "2.0.0", true),
            ("4.1", "4.1.0", true),
            ("4.1.x", "4.1.3", true),
            ("1.x", "1.4.0", true),
            ("!=4.1", "4.1.0", false),
            ("!=4.1-alpha", "4.1.0", true),
            ("!=4.1", "5.1.0", true),
            ("!=4.x", "5.1.0", true),
            ("!=4.x", "4.1.0", false),
            ("!=4.1.x", "4.2.0", true),
            ("!=4.2.x", "4.2.3", false),
            (">1.1", "4.1.0", true),
            (">1.1", "1.1.0", false),
            (">0", "0.0.0", false),
            (">0", "1.0.0", true),
            (">0", "0.0.1-alpha", false),
            (">0.0", "0.0.1-alpha", false),
            (">0-0", "0.0.1-alpha", false),
            (">0.0-0", "0.0.1-alpha", false),
            (">0", "0.0.0-alpha", false),
            (">0-0", "0.0.0-alpha", false),
            (">0.0.0-0", "0.0.0-alpha", true),
            (">1.2.3-alpha.1", "1.2.3-alpha.2", true),
            (">1.2.3-alpha.1", "1.3.3-alpha.2", true),
            (">11", "11.1.0", false),
            (">11.1", "11.1.0", false),
            (">11.1", "11.1.1", false),
            (">11.1", "11.2.1", true),
            (">=11", "11.1.2", true),
            (">=11.1", "11.1.2", true),
            (">=11.1", "11.0.2", false),
            (">=1.1", "4.1.0", true),
            (">=1.1", "1.1.0", true),
            (">=1.1", "0.0.9", false),
            (">=0", "0.0.1-alpha", false),
            (">=0.0", "0.0.1-alpha", false),
            (">=0-0", "0.0.1-alpha", true),
            (">=0.0-0", "0.0.1-alpha", true),
            (">=0", "0.0.0-alpha", false),
            (">=0-0", "0.0.0-alpha", true),
            (">=0.0.0-0", "0.0.0-alpha", true),
            (">=0.0.0-0", "1.2.3", true),
            (">=0.0.0-0", "3.4.5-beta.1", true),
            ("<0", "0.0.0-alpha", false),
            ("<0-z", "0.0.0-alpha", true),
            (">=0", "0.0.0", true),
            ("=0", "1.0.0", false),
            ("*", "1.0.0", true),
            ("*", "4.5.6", true),
            ("*", "1.2.3-alpha.1", false),
            ("*-0", "1.2.3-alpha.1", true),
            ("2.*", "1.0.0", false),
            ("2.*", "3.4.5", false),
            ("2.*", "2.1.1", true),
            ("2.1.*", "2.1.1", true),
            ("2.1.*", "2.2.1", false),
            ("", "1.0.0", false), // an empty constraint is an error, checked below
            ("<=1.1", "1.1.0", true),
            ("<=1.1", "1.1.1", true),
            ("<=1.1", "1.2.0", false),
            ("<=1.1.x", "1.1.5", true),
            ("<=2.x", "3.0.0", false),
            ("<=2.x", "2.9.9", true),
            ("<2.x", "2.0.0", false),
            ("<2.x", "1.9.9", true),
            (">=1.1 <2", "1.1.1", true),
            (">=1.1 <2", "2.1.1", false),
            (">=1.1, <2", "1.5.0", true),
            ("1.1 - 3", "4.3.2", false),
            ("1.1 - 3", "3.0.0", true),
            ("1.1 - 3", "3.9.9", true),
            ("1.2 - 1.4.5", "1.4.6", false),
            ("^1.1", "1.1.1", true),
            ("^1.1", "4.3.2", false),
            ("^1.x", "1.1.1", true),
            ("^2.x", "1.1.1", false),
            ("^1.x", "2.1.1", false),
            ("^0.0.1", "0.1.3", false),
            ("^0.0.1", "0.0.1", true),
            ("^0.0.1", "0.0.2", false),
            ("^0.1.0", "0.1.3", true),
            ("^0.1.0", "0.2.0", false),
            ("^0.2.3", "0.2.4", true),
            ("^0", "0.9.9", true),
            ("^0.0", "0.1.0", false),
            ("~*", "2.1.1", true),
            ("~1", "2.1.1", false),
            ("~1", "1.3.5", true),
            ("~1", "1.3.5-beta", false),
            ("~1.x", "2.1.1", false),
            ("~1.x", "1.3.5", true),
            ("~1.x", "1.3.5-beta", false),
            ("~1.3.6-alpha", "1.3.5-beta", false),
            ("~1.3.5-alpha", "1.3.5-beta", true),
            ("~1.3.6-alpha", "1.3.6-beta", true),
            ("~1.2.3", "1.2.5", true),
            ("~1.2.3", "1.2.2", false),
            ("~1.2.3", "1.3.2", false),
            ("~1.1", "1.2.3", false),
            ("~1.3", "2.4.5", false),
            ("||", "1.0.0", false), // an error too, checked below
            ("1.1 || 3", "3.0.0", true),
            (">= 1.2, < 2 || ^3.1", "3.4.0", true),
            (">= 1.2, < 2 || ^3.1", "2.4.0", false),
            // CAPI's own examples: a Kubernetes version with a v.
            ("^1.22.0", "v1.22.3", true),
            ("^1.22.0", "v1.21.9", false),
            (">= v1.24", "v1.29.0", true),
            ("<v1.24", "v1.29.0", false),
            (">=1.24.0-0", "v1.25.0-rc.1", true),
            (">=1.24.0", "v1.25.0-rc.1", false),
            ("1.2.3+build", "1.2.3", true),
        ];
        for (constraint, version, want) in cases {
            let got = satisfies(constraint, version);
            if constraint.is_empty() || *constraint == "||" {
                assert!(
                    got.is_err(),
                    "{constraint:?} should be an error, got {got:?}"
                );
                continue;
            }
            assert_eq!(got, Ok(*want), "semverCompare {constraint:?} {version:?}");
        }
    }

    #[test]
    fn errors_name_what_cannot_be_read() {
        for (constraint, version, says) in [
            (">= 1.2,", "1.2.3", "improper constraint"),
            ("1.2.3.4", "1.2.3", "improper constraint"),
            (">= a.b", "1.2.3", "improper constraint"),
            ("^1.2", "1.2.x", "not a semantic version"),
            ("^1.2", "01.2.3-01", "starts with 0"),
            ("^1.2", "", "not a semantic version"),
        ] {
            let err = satisfies(constraint, version).expect_err(constraint);
            assert!(err.contains(says), "{constraint:?} {version:?}: {err}");
        }
    }
}
