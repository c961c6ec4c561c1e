//! Unit tests of the block hand-out.
