//! Support for the tests that run other tools: copying folders, `PATH` with the built binary
//! first, and the container image built with podman.

pub mod fs;
pub mod image;
pub mod path;
