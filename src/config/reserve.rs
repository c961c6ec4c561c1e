//! An entry of `reserve` as the range of addresses it names.

use crate::ipam::{self, Addr, AddrError};

/// An entry of `reserve` (`10.0.0.5`, `10.0.0.10-10.0.0.20`, `10.0.1.0/28`) as the inclusive
/// range of addresses it names, parsed by [`ipam::parse_reserve`]: an address is a range of
/// one, a CIDR its whole network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReserveRange {
    pub first: Addr,
    pub last: Addr,
}

impl ReserveRange {
    /// Parses a `reserve` entry (spaces around it and around `-` allowed).
    pub fn parse(text: &str) -> Result<ReserveRange, AddrError> {
        ipam::parse_reserve(text).map(|(first, last)| ReserveRange { first, last })
    }
}
