//! KRM framing (SPEC §1): a `ResourceList` on stdin, or a plain stream of YAML documents
//! (stdin or files). Both ends of a run are here: [`mod@read`] finds the items (and the
//! functionConfig, of a ResourceList or of a `--config` file); [`mod@write`] frames what goes out
//! (the results of a ResourceList as an edit the run applies, the output stream, the lines for
//! stderr). The KRM results the stages report are [`crate::results`], a leaf below every stage.

pub mod locate;
pub mod read;
pub mod text;
pub mod write;

#[cfg(test)]
mod tests;

pub use read::{
    ConfigFileError, Framing, Input, ReadError, Source, read, read_config, read_limited,
    read_taking,
};
pub use text::{Budget, TextError, read_text};
pub use write::{
    ResultsEdit, human_results, join_stream, results_edit, results_yaml, stderr_results,
    stream_pieces,
};
