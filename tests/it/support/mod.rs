//! Support for the tests that run other tools: copying folders, `PATH` with the built binary
//! first, the container image built with podman, and the pinned kustomize and pre-commit the
//! tests install themselves.

pub mod fs;
pub mod image;
pub mod path;
pub mod tools;
