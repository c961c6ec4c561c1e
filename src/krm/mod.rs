//! KRM framing (SPEC §1): a `ResourceList` on stdin, or a plain stream of YAML documents
//! (stdin or files). Reading finds the items; writing puts the edited text and the results back.

pub mod read;
pub mod results;
pub mod write;

#[cfg(test)]
mod tests;

pub use read::{ConfigFileError, Framing, Input, ReadError, Source, read, read_config};
pub use write::{
    ResultsEdit, human_results, join_stream, results_edit, results_yaml, stderr_results,
};
