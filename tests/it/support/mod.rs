//! Support for the tests that run other tools: copying folders, `PATH` with the built binary
//! first, the container image built with podman, the pinned kustomize and pre-commit the
//! tests install themselves, and the LD_PRELOAD shim that slows the binary's `fsync` down.

pub mod fs;
pub mod image;
pub mod path;
pub mod slow_fsync;
pub mod tools;
