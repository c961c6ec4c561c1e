//! Kubernetes name rules, and the claim names CAPM3 makes from hosts and pools.

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

/// The claim name CAPM3 uses for a host and a pool (plain concatenation, FACTS §1).
pub fn claim_name(host: &str, pool: &str) -> String {
    format!("{host}-{pool}")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn claim_names_are_plain_concatenation() {
        assert_eq!(claim_name("node-1", "prov"), "node-1-prov");
    }
}
