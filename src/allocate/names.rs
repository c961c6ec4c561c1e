//! Claim names: `{bmh}-{pool}` must be a DNS-1123 subdomain of at most 253 characters.

/// Whether `name` is a DNS-1123 subdomain (Kubernetes object name rules).
pub fn is_dns1123_subdomain(name: &str) -> bool {
    name.len() <= 253
        && !name.is_empty()
        && name.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// The claim name CAPM3 uses for a host and a pool (plain concatenation).
pub fn claim_name(host: &str, pool: &str) -> String {
    format!("{host}-{pool}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns1123_subdomains() {
        assert!(is_dns1123_subdomain("node-1-pool"));
        assert!(is_dns1123_subdomain("a.b-c"));
        assert!(!is_dns1123_subdomain("Node-1-pool"));
        assert!(!is_dns1123_subdomain("node_1-pool"));
        assert!(!is_dns1123_subdomain("-a"));
        assert!(!is_dns1123_subdomain("a..b"));
        assert!(!is_dns1123_subdomain(""));
        assert!(is_dns1123_subdomain(&"a".repeat(253)));
        assert!(!is_dns1123_subdomain(&"a".repeat(254)));
    }
}
