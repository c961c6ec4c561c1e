//! Bad input (issue acceptance 7): each case is a clear error that names the object and the
//! field, the items come back unchanged, and nothing panics.
//!
//! The cases, one input each and the results it must give, are files in
//! `tests/data/cases/bad_input/` (read and checked by `tests/it/cases.rs`): a new bad input is a
//! new file. What stays here is code because it is not one input: the property test makes its
//! inputs by deleting and duplicating lines of a valid input, in plain streams and in
//! ResourceLists, and checks every run of them; the test beside it checks that the valid input it
//! starts from is valid (no errors, something filled, warnings to mutate), which the property test
//! relies on.

use crate::common;

use common::*;
use ipreuse::krm::Source;
use ipreuse::results::Severity;
use ipreuse::run::run;
use proptest::prelude::*;

/// Every case of `tests/data/cases/bad_input/` (`tests/it/cases.rs` says how a case is read and checked).
#[test]
fn every_bad_input_case_holds() {
    crate::cases::run_table("bad_input");
}

// ---- no panics ------------------------------------------------------------------------------

fn valid_input() -> String {
    stream(&[
        host("node-10", "ns").yaml(),
        host("node-2", "ns").pin("pool-a", "10.0.0.15").yaml(),
        host("web-1", "other").yaml(),
        pool("pool-a", "ns")
            .range(range("10.0.0.10", "10.0.0.40").gateway("10.0.0.10"))
            .prefix(24)
            .entry("node-10-pool-a", "10.0.0.12")
            .live("node-2-pool-a", "10.0.0.15")
            .yaml(),
        pool("pool-b", "ns")
            .range(subnet("10.0.0.32/28"))
            .dns("10.0.0.33")
            .yaml(),
        pool("v6", "other")
            .range(range("fd00::10", "fd00::ff"))
            .prefix(64)
            .entry("web-1-v6", "FD00::0011")
            .yaml(),
        cluster("c", "ns", "10.0.0.11"),
    ])
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    proptest::collection::vec(
        prop_oneof![
            any::<usize>().prop_map(Mutation::Delete),
            any::<usize>().prop_map(Mutation::Duplicate)
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(pt_config_persisted(64))]

    /// Deleting or duplicating lines never makes `run` panic; when it reports an error, every
    /// item comes back unchanged; otherwise a second run changes nothing.
    #[test]
    fn run_never_panics_on_mutated_input(muts in mutations(), as_resource_list in any::<bool>()) {
        let mut lines: Vec<String> = valid_input().lines().map(str::to_string).collect();
        for m in &muts {
            match *m {
                Mutation::Delete(i) if !lines.is_empty() => {
                    let i = i % lines.len();
                    lines.remove(i);
                }
                Mutation::Duplicate(i) if !lines.is_empty() => {
                    let i = i % lines.len();
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                _ => {}
            }
        }
        let mut text = lines.join("\n");
        text.push('\n');
        if as_resource_list {
            let docs: Vec<String> = text.split("---\n").map(str::to_string).collect();
            text = resource_list(&docs, None);
        }
        let src = [Source { name: "in.yaml".into(), text: text.clone() }];
        if let Ok(o) = run(&src, None) {
            assert_fields_resolve(&src, None, &o);
            if o.has_errors() {
                if as_resource_list {
                    prop_assert!(is_line_subsequence(&text, &o.outputs[0]));
                } else {
                    prop_assert_eq!(&o.outputs[0], &text);
                }
            } else if !as_resource_list {
                let again = run(&[Source { name: "in.yaml".into(), text: o.outputs[0].clone() }], None);
                let again = again.map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert!(!again.has_errors(), "second run failed:\n{}", dump(&again));
                prop_assert_eq!(&again.outputs[0], &o.outputs[0]);
            }
        }
    }
}

#[test]
fn the_unmutated_input_is_valid() {
    let o = run_text(&valid_input(), None);
    assert_no_errors(&o);
    assert_eq!(o.changed, [true]);
    assert!(
        matching(&o, Severity::Warning, Want::default()).len() >= 2,
        "{}",
        dump(&o)
    );
}
