//! The edit layer: for random valid YAML and random edits, `yaml::apply` either refuses, or
//! writes a text that parses and reads back exactly as the edits say (see `edit_oracle.rs`).
//! `cargo +nightly fuzz run edit` (no seeds needed: the input is structured with `arbitrary`).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod y {
    pub use ipreuse::yaml::*;
}

#[path = "edit_oracle.rs"]
mod edit_oracle;

fuzz_target!(|input: edit_oracle::Input| {
    edit_oracle::check(&input);
});
