//! Typed, read-only views of the items the function reads (SPEC §3).
//!
//! Every item comes in as a JSON value (read from the lossless YAML tree). This module says
//! what each item is ([`Object`]); each kind the function reads has its own module with its
//! reader. The [`Index`] holds the kinds every stage needs (hosts, pools, control-plane
//! endpoints: [`Indexed`]); a transformation that needs another kind reads it with that
//! kind's reader from [`Index::objects_of`]. A run keeps no item's JSON value, nor the trees of
//! the objects whose reading cannot change once the config is known (any kind that no
//! transformation writes): those are read as the input is parsed by their kinds' readers and
//! placed later ([`Taken`], [`registry::read_as_parsed`], [`index_items`]). Everything read of a
//! host is in [`host::Host`]. Nothing here writes text.

pub mod capi;
pub mod cluster;
pub mod cluster_class;
pub mod config_data;
pub mod data_template;
pub mod deployment;
pub mod host;
pub mod ids;
mod index;
pub mod ip_address;
pub mod ip_claim;
#[cfg(test)]
pub mod json;
pub mod labels;
pub mod machine_template;
pub mod metal3_data;
pub mod metal3_data_claim;
pub mod metal3_machine;
mod object;
pub mod objects;
pub mod owners;
pub mod pool;
pub mod provider;
pub mod reading;
pub mod registry;
mod shape;
pub mod value;
pub mod view;

pub use ids::{HostId, ItemId, PoolId};
pub use index::{Index, Indexed, NotTaken, index_items};
pub use object::{
    BMO_GROUP, CAPM3_GROUP, IPAM_GROUP, IPREUSE_GROUP, LOCAL_CONFIG, Object, group_of,
    skipped_for_template,
};
pub use reading::Taken;
pub use registry::Model;

/// Every YAML file under `dir` of the repository, for tests that read them all.
#[cfg(test)]
pub(crate) fn yaml_files(dir: &str) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
        &mut out,
    );
    out
}
