//! Kubernetes name rules, the claim names CAPM3 makes from hosts and pools, and the "did you
//! mean" hint for a misspelt field or value (the config's and the model's readers both give it).

/// Whether `s` is a DNS-1123 label: lower-case alphanumerics and '-', starting and ending
/// alphanumeric, at most 63 characters (namespaces).
pub fn is_dns1123_label(s: &str) -> bool {
    s.len() <= 63 && is_label_text(s)
}

/// Whether `s` is a DNS-1123 subdomain as Kubernetes checks object names: at most 253
/// characters of dot-separated parts, each lower-case alphanumerics and '-', starting and
/// ending alphanumeric.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    !s.is_empty() && s.len() <= 253 && s.split('.').all(is_label_text)
}

fn is_label_text(s: &str) -> bool {
    let b = s.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    b.first().is_some_and(ok) && b.last().is_some_and(ok) && b.iter().all(|c| ok(c) || *c == b'-')
}

/// The most characters Kubernetes allows in a label value.
pub const LABEL_VALUE_MAX: usize = 63;

/// Why `v` cannot be a Kubernetes label value, or `None` when it can: at most 63 characters,
/// empty or alphanumerics, `-`, `_` and `.`, starting and ending alphanumeric (the API server's
/// `IsValidLabelValue`).
pub fn label_value_problem(v: &str) -> Option<String> {
    let n = v.chars().count();
    if n > LABEL_VALUE_MAX {
        return Some(format!(
            "is {n} characters long, over the {LABEL_VALUE_MAX} Kubernetes allows in a label value"
        ));
    }
    let b = v.as_bytes();
    let end_ok = |c: &u8| c.is_ascii_alphanumeric();
    let ok = b.is_empty()
        || (b.first().is_some_and(end_ok)
            && b.last().is_some_and(end_ok)
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')));
    (!ok).then(|| {
        "is not a valid label value (alphanumerics, '-', '_' and '.', starting and ending \
         alphanumeric)"
            .to_string()
    })
}

/// The claim name CAPM3 uses for a host and a pool (plain concatenation, FACTS §1).
pub fn claim_name(host: &str, pool: &str) -> String {
    // Not `format!`: this is made once per host and pool, and formatting costs several times
    // the copy.
    let mut claim = String::with_capacity(host.len() + 1 + pool.len());
    claim.push_str(host);
    claim.push('-');
    claim.push_str(pool);
    claim
}

/// Names longer than this are cut in messages by [`short`].
pub const SHORT_NAME: usize = 63;

/// A name as a message shows it: as it is up to [`SHORT_NAME`] characters, else its first 40
/// and last 20 characters around an ellipsis, so that a message naming many objects stays
/// readable whatever the input holds (the full name is in the result's `resourceRef`).
pub fn short(name: &str) -> std::borrow::Cow<'_, str> {
    let count = name.chars().count();
    if count <= SHORT_NAME {
        return std::borrow::Cow::Borrowed(name);
    }
    let head: String = name.chars().take(40).collect();
    let tail: String = name.chars().skip(count - 20).collect();
    std::borrow::Cow::Owned(format!("{head}…{tail}"))
}

/// `text` with its first letter upper-case: a clause written to follow a colon, given as a
/// sentence of its own after a message's first sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`…: positions in messages.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Up to `shown` items, then "and N more": `a, b and c`, `a, b, c and 7 more`. The items
/// are taken as they are (shorten names with [`short`] first); only the shown ones are read.
pub fn list_some(items: impl ExactSizeIterator<Item = String>, shown: usize) -> String {
    let total = items.len();
    let parts: Vec<String> = items.take(shown).collect();
    match (parts.split_last(), total.saturating_sub(parts.len())) {
        (None, _) => String::new(),
        (Some((only, [])), 0) => only.clone(),
        (Some((last, rest)), 0) => format!("{} and {last}", rest.join(", ")),
        (Some(_), more) => format!("{} and {more} more", parts.join(", ")),
    }
}

/// The known word closest to `unknown`, ignoring case, `_` and `-`, when close enough to be
/// a slip (`hostselector`, `host_selector`, `matchLabel`, `stratgy`, `fil`, `sequental`): an
/// optimal-string-alignment distance (a swap of neighbours is one edit) of at most 2, and at
/// most a third of the known word, so that short words do not match anything.
fn suggestion<'a>(unknown: &str, known: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let folded = fold(unknown);
    known
        .iter()
        .copied()
        .map(|k| {
            let k_folded = fold(k);
            let d = strsim::osa_distance(&k_folded, &folded);
            (d, k_folded.chars().count(), k)
        })
        .filter(|&(d, len, _)| d <= 2 && d * 3 <= len)
        .min_by_key(|&(d, _, _)| d)
        .map(|(_, _, k)| k)
}

/// ` (did you mean x?)` when `unknown` is close to one of `known`, else nothing.
pub fn did_you_mean(unknown: &str, known: &[&str]) -> String {
    suggestion(unknown, known)
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values() {
        assert_eq!(label_value_problem(""), None);
        assert_eq!(label_value_problem("pool-v4.lab_1"), None);
        assert_eq!(label_value_problem(&"a".repeat(63)), None);
        let long = label_value_problem(&"a".repeat(64)).expect("too long");
        assert!(long.contains("64 characters"), "{long}");
        for bad in ["-a", "a-", ".a", "a b", "a/b", "é"] {
            assert!(label_value_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn dns1123_labels() {
        assert!(is_dns1123_label("abc-1"));
        assert!(!is_dns1123_label("a.b"));
        assert!(!is_dns1123_label("Abc"));
        assert!(!is_dns1123_label("-a"));
        assert!(!is_dns1123_label(""));
        assert!(is_dns1123_label(&"a".repeat(63)));
        assert!(!is_dns1123_label(&"a".repeat(64)));
    }

    #[test]
    fn dns1123_subdomains() {
        assert!(is_dns1123_subdomain("node-1-pool"));
        assert!(is_dns1123_subdomain("a.b-c.d"));
        assert!(!is_dns1123_subdomain("Node-1-pool"));
        assert!(!is_dns1123_subdomain("node_1-pool"));
        assert!(!is_dns1123_subdomain("-a"));
        assert!(!is_dns1123_subdomain("a..b"));
        assert!(!is_dns1123_subdomain(""));
        assert!(is_dns1123_subdomain(&"a".repeat(253)));
        assert!(!is_dns1123_subdomain(&"a".repeat(254)));
    }

    #[test]
    fn long_names_are_cut_in_the_middle() {
        assert_eq!(short("node-1"), "node-1");
        let exact = "a".repeat(SHORT_NAME);
        assert_eq!(short(&exact), exact.as_str());
        let long = format!("{}{}", "h".repeat(100), "tail-of-twenty-chars");
        let cut = short(&long);
        assert_eq!(cut.chars().count(), 61);
        assert!(cut.starts_with(&"h".repeat(40)), "{cut}");
        assert!(cut.ends_with("…tail-of-twenty-chars"), "{cut}");
        // Multi-byte characters are never split.
        let wide = "é".repeat(70);
        assert_eq!(short(&wide).chars().count(), 61);
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }

    #[test]
    fn lists_show_a_few_and_count_the_rest() {
        let l = |v: &[&str]| list_some(v.iter().map(|s| s.to_string()), 3);
        assert_eq!(l(&[]), "");
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b"]), "a and b");
        assert_eq!(l(&["a", "b", "c"]), "a, b and c");
        assert_eq!(l(&["a", "b", "c", "d", "e"]), "a, b, c and 2 more");
    }

    #[test]
    fn claim_names_are_plain_concatenation() {
        assert_eq!(claim_name("node-1", "prov"), "node-1-prov");
    }
}
