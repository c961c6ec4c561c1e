//! The binary's file-system edge, used by `main.rs` only: reading the named paths
//! ([`walk`]), the packages named files belong to ([`packages`]), the runs of nested kpt
//! packages and their Kptfiles' configs ([`render`], [`kptfile`]), where a config given to a run is
//! written ([`config_file`]) and writing changed files
//! back all or nothing ([`in_place`]).

pub mod config_file;
pub mod in_place;
pub mod kptfile;
pub mod packages;
pub mod plan;
pub mod plan_html;
pub mod render;
pub mod walk;
