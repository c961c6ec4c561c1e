//! The bound of a whole run's topology evaluation: every render and every copy together.
//!
//! Each render has its own [`super::template::Limits`], but a run makes many: each Cluster
//! copies each class template its parts use and renders each matching patch for each copy. A
//! class of a hundred patches that each take their million steps, stamped by a hundred
//! Clusters, is ten thousand full renders; a class template of 10 MB stamped by two thousand
//! Clusters is 20 GB of copies. The input-size limit cannot stop either: both fit in a few
//! megabytes. So one [`Budget`] per run counts what every render and copy costs, and once it
//! is spent each further copy or render is an error naming this limit (and the patch, or the
//! Cluster), with every item returned.
//!
//! The figures are far above a real fleet's needs and low enough that the whole evaluation
//! stays within a few seconds and a few hundred megabytes on a small machine (BENCHMARKS.md,
//! "The run-wide bound (issue 32)", measures the costliest cases found):
//! - the costliest step measured (a `semverCompare` call) takes about 0.7 µs in a release build,
//!   so five million steps are under 4 s; the public class templates take a median of 1 step and
//!   at most 179 (`tests/it/go_templates.rs`), so they are hundreds of thousands of real
//!   renders (a thousand Clusters, each with twenty patches on five parts, and more);
//! - a real Metal3MachineTemplate and its variables are one to three KiB, so 64 MiB of copies
//!   is over twenty thousand parts (ten thousand Clusters); making and reading them costs
//!   about a second.

/// Steps of all renders of one run together: each render's steps, as
/// [`super::template::render_metered`] counts them, one per 16 characters of template text it
/// parses and one per 16 bytes of text it renders (which is read as YAML).
pub const RUN_STEPS: u64 = 5_000_000;

/// Bytes of the Clusters' copies of class templates, of their variables objects and of the
/// values patches write into them, together, in one run (as [`json_bytes`] measures them).
pub const RUN_BYTES: u64 = 64 << 20;

/// What is left of one run's bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    steps: u64,
    bytes: u64,
}

/// Which part of the run's bound is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Spent {
    #[error(
        "the run passes ipreuse's limit of {RUN_STEPS} template steps: make the templates lighter \
         or render fewer Clusters per run. The limit is for all renders together: every patch, \
         rendered for every Cluster's copy of each class template"
    )]
    Steps,
    #[error(
        "the run passes ipreuse's limit of {RUN_BYTES} bytes of class template copies: make the \
         class templates or the variables smaller, or render fewer Clusters per run. The limit is \
         for all the Clusters' copies together, each with its variables and the values its patches \
         write"
    )]
    Bytes,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(RUN_STEPS, RUN_BYTES)
    }
}

impl Budget {
    /// A bound of `steps` and `bytes` (the run's is [`Budget::default`]).
    #[must_use]
    pub fn new(steps: u64, bytes: u64) -> Self {
        Budget { steps, bytes }
    }

    /// The steps left: the most the next render may take.
    #[must_use]
    pub fn steps_left(&self) -> u64 {
        self.steps
    }

    /// Takes `n` steps.
    ///
    /// # Errors
    /// [`Spent::Steps`] when fewer are left (then none are).
    pub fn take_steps(&mut self, n: u64) -> Result<(), Spent> {
        match self.steps.checked_sub(n) {
            Some(left) => {
                self.steps = left;
                Ok(())
            }
            None => {
                self.steps = 0;
                Err(Spent::Steps)
            }
        }
    }

    /// Takes `n` bytes.
    ///
    /// # Errors
    /// [`Spent::Bytes`] when fewer are left (then none are).
    pub fn take_bytes(&mut self, n: u64) -> Result<(), Spent> {
        match self.bytes.checked_sub(n) {
            Some(left) => {
                self.bytes = left;
                Ok(())
            }
            None => {
                self.bytes = 0;
                Err(Spent::Bytes)
            }
        }
    }
}

/// About the bytes `value` holds (its JSON text without blanks): what copying it costs.
/// Walks it, so measuring costs what the copy costs.
#[must_use]
pub fn json_bytes(value: &serde_json::Value) -> u64 {
    use serde_json::Value;
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => 8,
        Value::String(s) => s.len() as u64 + 2,
        Value::Array(items) => 2 + items.iter().map(|v| json_bytes(v) + 1).sum::<u64>(),
        Value::Object(map) => {
            2 + map
                .iter()
                .map(|(k, v)| k.len() as u64 + 4 + json_bytes(v))
                .sum::<u64>()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_taken_is_gone_and_past_the_bound_nothing_is_left() {
        let mut b = Budget::new(10, 100);
        assert_eq!(b.take_steps(4), Ok(()));
        assert_eq!(b.steps_left(), 6);
        assert_eq!(b.take_steps(6), Ok(()));
        assert_eq!(b.take_steps(1), Err(Spent::Steps));
        assert_eq!(b.take_bytes(60), Ok(()));
        assert_eq!(b.take_bytes(41), Err(Spent::Bytes));
        assert_eq!(b.take_bytes(1), Err(Spent::Bytes), "nothing is left");
    }

    #[test]
    fn json_bytes_grows_with_what_a_copy_holds() {
        let small = serde_json::json!({"a": "x"});
        let big = serde_json::json!({"a": "x".repeat(1000), "b": [1, 2, 3]});
        assert!(json_bytes(&small) < 20);
        assert!(json_bytes(&big) > 1000 && json_bytes(&big) < 1100);
        assert_eq!(json_bytes(&serde_json::json!("abc")), 5);
    }
}
