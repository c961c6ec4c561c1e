//! Clusters built from a Cluster API `ClusterClass`, evaluated offline (SPEC §11).
//!
//! A Cluster with `spec.topology` does not name its Metal3MachineTemplates: CAPI clones the
//! templates its ClusterClass names, once per Cluster, and applies the class's inline patches to
//! the clones. CAPM3 only ever reads the clones, so the data template (and the pools it
//! references) and the host selector that decide which claims CAPM3 creates are the patched
//! ones. To map hosts to pools for such a Cluster, ipreuse has to compute those effective
//! templates itself, without a cluster: pick the patch definitions whose selector matches the
//! template, decide each patch's `enabledIf`, and compute each JSON patch's value from the
//! Cluster's variables (with per-MachineDeployment overrides, schema defaults and CAPI's
//! builtin variables). Two of those steps are Go `text/template`s rendered with sprig's
//! hermetic functions: `valueFrom.template` and `enabledIf`. Whatever cannot be evaluated
//! offline exactly as CAPI would is an error, never the class template's literal value.
//!
//! This module holds the pure parts:
//! - [`template`]: the Go templates (`render`, and `enabled` for `enabledIf`);
//! - [`semver`]: sprig's `semverCompare` (Masterminds/semver v3 constraints), used by them.
//! - [`patch`]: the inline patches applied to one template (selectors, `enabledIf`, values,
//!   RFC 6902 operations), and the variables object CAPI gives them ([`patch::variables`]);
//! - [`budget`]: the bound of a whole run's renders and copies together.
pub mod budget;
pub mod patch;
pub mod rendered;
pub mod semver;
pub mod template;
