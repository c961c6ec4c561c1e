//! The integration tests: one test binary, one module per concern.
//!
//! Each module tests the built binary or the library from the outside, the way users run it
//! (files on disk, the real kpt, kustomize, pre-commit, podman). `common` holds the builders and
//! the shared runner (its field check runs on every result it sees); `support` holds the
//! helpers for the tests that run other tools. Adding a concern is adding a module here: one
//! binary links once, where a file per concern linked one binary each.

mod common;
mod fixtures;
mod support;

mod abuse;
mod adopt;
mod argocd;
mod bad_input;
mod block_properties;
mod blocks_config;
mod blocks_handout;
mod cases;
mod catalog;
mod check_results;
mod cli;
mod cli_fs;
mod cli_paths;
mod clusterclass_patches;
mod config_among_inputs;
mod config_locations;
mod controller_flag;
mod doc_links;
mod examples;
mod framing;
mod go_fmt_sprig;
mod go_templates;
mod go_yaml;
mod gotemplate;
mod guarantees;
mod hardening;
mod image;
mod ipam_upstream;
mod ippool_crd;
mod kpt_pipeline;
mod kptfile_config;
mod kustomize;
mod kustomize_paths;
mod labels;
mod layers;
mod messages;
mod name_prefix;
mod namespaces;
mod network_properties;
mod networks;
mod new_cluster;
mod ordinal;
mod plan;
mod plan_blocks;
mod plan_html;
mod pre_commit;
mod precedence;
mod properties;
mod quick_start;
mod registry;
mod schemas;
mod scope;
mod template_bounds;
mod templates;
