//! What the IPPool CRD's schema (ip-address-manager's `config/crd/bases/ipam.metal3.io_ippools.yaml`,
//! vendored in `tests/data/crds/`) requires of the fields ipreuse reads and writes: the API
//! server refuses a pool that breaks it on `kubectl apply`, before the IPAM or its webhook sees
//! it. [`super::Pool::read`] checks every IPPool read against it; `tests/it/ippool_crd.rs` runs
//! the CRD's own schema over the same cases and proves that the two refuse the same fields.
//!
//! The address patterns are the CRD's, verbatim, and run by the `regex` crate, whose syntax and
//! matching are RE2's, as the API server's Go `regexp` (the test also holds them to the text of
//! the vendored CRD).

use std::sync::LazyLock;

use regex::Regex;

/// The pattern of every IP address field of the CRD (`IPAddressStr`: `gateway`, `start`,
/// `end`, `dnsServers[]`, the values of `preAllocations` and `status.indexes`): an IPv4 dotted
/// quad without leading zeros, or IPv6 in hex groups (no dotted tail, no zone).
pub const IP_PATTERN: &str = r"((^((([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]))$)|(^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$))";

/// The pattern of `spec.pools[].subnet`: an address as [`IP_PATTERN`] has it, `/`, and a
/// prefix length (IPv4 0 to 32 without leading zeros; IPv6 one or two digits, or 100 to 128).
pub const SUBNET_PATTERN: &str = r"((^((([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\.){3}([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]))/([0-9]|[1-2][0-9]|3[0-2])$)|(^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))/([0-9]|[0-9][0-9]|1[0-1][0-9]|12[0-8])$))";

static IP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(IP_PATTERN).expect("the CRD's IP pattern"));
static SUBNET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(SUBNET_PATTERN).expect("the CRD's subnet pattern"));

/// Whether the API server admits `text` in an IP address field of an IPPool.
pub fn is_ip_text(text: &str) -> bool {
    IP.is_match(text)
}

/// Whether the API server admits `text` as a `subnet`.
pub fn is_subnet_text(text: &str) -> bool {
    SUBNET.is_match(text)
}

/// The largest `prefix` the CRD admits (`maximum: 128`; it sets no minimum).
pub const PREFIX_MAXIMUM: i64 = 128;
