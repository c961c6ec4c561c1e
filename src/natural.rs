//! Natural order of host names (SPEC §5 "Strategies"): `node-2` < `node-10`, `node1` < `node-1`.
//!
//! A name is split into maximal runs of digits and non-digits, starting with a (possibly empty)
//! non-digit run. Runs are compared in turn: non-digit runs by bytes, digit runs by numeric value
//! of any length. A name whose runs are a prefix of the other's comes first. Names with equal
//! keys (`a01` and `a1`) fall back to the byte order of the whole names.

use std::cmp::Ordering;

/// Compares two names in natural order.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (mut ra, mut rb) = (Runs::new(a), Runs::new(b));
    loop {
        match (ra.next(), rb.next()) {
            (None, None) => return a.as_bytes().cmp(b.as_bytes()),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let ord = if x.digits {
                    compare_numbers(x.text, y.text)
                } else {
                    x.text.as_bytes().cmp(y.text.as_bytes())
                };
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

/// Compares two runs of ASCII digits by numeric value, whatever their length.
fn compare_numbers(x: &str, y: &str) -> Ordering {
    let x = x.trim_start_matches('0');
    let y = y.trim_start_matches('0');
    x.len().cmp(&y.len()).then_with(|| x.cmp(y))
}

struct Run<'a> {
    text: &'a str,
    digits: bool,
}

/// Iterator over the alternating runs of a name: non-digit, digit, non-digit, ...
struct Runs<'a> {
    rest: &'a str,
    next_is_digits: bool,
    done: bool,
}

impl<'a> Runs<'a> {
    fn new(s: &'a str) -> Self {
        Runs {
            rest: s,
            next_is_digits: false,
            done: false,
        }
    }
}

impl<'a> Iterator for Runs<'a> {
    type Item = Run<'a>;
    fn next(&mut self) -> Option<Run<'a>> {
        if self.done {
            return None;
        }
        let digits = self.next_is_digits;
        let len = self
            .rest
            .bytes()
            .position(|b| b.is_ascii_digit() != digits)
            .unwrap_or(self.rest.len());
        if len == 0 && (digits || self.rest.is_empty()) {
            // Only the leading non-digit run may be empty, and only when digits follow.
            self.done = true;
            return None;
        }
        let (text, rest) = self.rest.split_at(len);
        self.rest = rest;
        self.next_is_digits = !digits;
        if rest.is_empty() {
            self.done = true;
        }
        Some(Run { text, digits })
    }
}

/// The last run of digits in a name, as a number (for the ordinal strategy).
pub fn last_number(name: &str) -> Option<u128> {
    let end = name.bytes().rposition(|b| b.is_ascii_digit())? + 1;
    let start = name[..end]
        .bytes()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |p| p + 1);
    name[start..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_like_the_spec_says() {
        let cases = [
            ("node-2", "node-10", Ordering::Less),
            ("node1", "node-1", Ordering::Less),
            ("node-10", "node-9", Ordering::Greater),
            ("a", "a0", Ordering::Less),
            ("a01", "a1", Ordering::Less),
            ("a1", "a01", Ordering::Greater),
            ("1", "a", Ordering::Less),
            ("2", "10", Ordering::Less),
            (
                "x-99999999999999999999999999999999999999",
                "x-100000000000000000000000000000000000000",
                Ordering::Less,
            ),
            ("same", "same", Ordering::Equal),
            ("", "a", Ordering::Less),
            ("worker-1a", "worker-1b", Ordering::Less),
            ("worker-1b", "worker-2a", Ordering::Less),
        ];
        for (a, b, want) in cases {
            assert_eq!(compare(a, b), want, "{a} vs {b}");
            assert_eq!(compare(b, a), want.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn sorts_a_list() {
        let mut v = vec!["node-10", "node-2", "node1", "node-1", "node-01", "m"];
        v.sort_by(|a, b| compare(a, b));
        assert_eq!(v, ["m", "node1", "node-01", "node-1", "node-2", "node-10"]);
    }

    #[test]
    fn last_number_takes_the_last_digit_run() {
        assert_eq!(last_number("worker-12"), Some(12));
        assert_eq!(last_number("rack3-node07"), Some(7));
        assert_eq!(last_number("r1-a"), Some(1));
        assert_eq!(last_number("control"), None);
    }

    proptest::proptest! {
        #![proptest_config(crate::prop_config::pt_config(256))]
        #[test]
        fn is_a_total_order(a in "[a-c0-2-]{0,6}", b in "[a-c0-2-]{0,6}", c in "[a-c0-2-]{0,6}") {
            proptest::prop_assert_eq!(compare(&a, &b), compare(&b, &a).reverse());
            proptest::prop_assert_eq!(compare(&a, &b) == Ordering::Equal, a == b);
            if compare(&a, &b) != Ordering::Greater && compare(&b, &c) != Ordering::Greater {
                proptest::prop_assert_ne!(compare(&a, &c), Ordering::Greater);
            }
        }
    }
}
