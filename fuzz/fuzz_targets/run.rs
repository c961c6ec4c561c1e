//! Whatever the input text, `run` returns (an outcome or an error) and never panics.
//! `cargo +nightly fuzz run run fuzz/corpus/run` (seeds: the example packages).
#![no_main]

use ipreuse::krm::Source;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let source = Source {
            name: "fuzz".into(),
            text: text.into(),
        };
        if let Ok(outcome) = ipreuse::run::run(std::slice::from_ref(&source), None) {
            // What it writes reads back, and a second run on it changes nothing.
            if !outcome.has_errors() {
                let again = Source {
                    name: "fuzz".into(),
                    text: outcome.outputs[0].clone(),
                };
                let second = ipreuse::run::run(std::slice::from_ref(&again), None);
                let Ok(second) = second else {
                    panic!("output does not read back: {second:?}");
                };
                // Idempotent (a ResourceList's results may differ; its items may not).
                if outcome.framing == ipreuse::krm::Framing::Stream {
                    assert_eq!(
                        second.outputs, outcome.outputs,
                        "a second run changed the output"
                    );
                }
            }
        }
    }
});
