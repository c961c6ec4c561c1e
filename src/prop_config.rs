//! The configuration of every property test in the unit tests (the integration tests have the
//! same helper, `pt_config` in `tests/common`): `cases` cases, unless `PROPTEST_CASES` asks for
//! another number (to explore longer; proptest lets it override any configured count).
//!
//! `PROPTEST_CASES=0` would make every property run no case and pass, so it is refused: the
//! test panics, saying why. `prop_config_is_used_by_every_property_test` holds every
//! `proptest!` of `src/` and `tests/` to such a helper.

use proptest::test_runner::{Config, contextualize_config};

/// `cases` cases (or `PROPTEST_CASES`); panics if that is no case at all.
pub(crate) fn pt_config(cases: u32) -> Config {
    let config = Config {
        cases,
        ..Config::default()
    };
    refuse_no_case(contextualize_config(config.clone()).cases);
    config
}

/// Panics when a property would run `cases` = 0 cases.
fn refuse_no_case(cases: u32) {
    assert!(
        cases > 0,
        "PROPTEST_CASES=0: the property tests would run no case and pass without testing \
         anything; unset PROPTEST_CASES or set it to 1 or more"
    );
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::process::Command;

    #[test]
    #[should_panic(expected = "PROPTEST_CASES=0")]
    fn no_case_is_refused() {
        super::refuse_no_case(0);
    }

    /// As a person runs it: this test binary, one of its property tests, `PROPTEST_CASES=0`.
    #[test]
    fn a_property_test_fails_under_proptest_cases_0() {
        let exe = std::env::current_exe().expect("this test binary");
        let name = "natural::tests::is_a_total_order";
        let run = |cases: &str| {
            Command::new(&exe)
                .args([name, "--exact", "--test-threads", "1"])
                .env("PROPTEST_CASES", cases)
                .output()
                .expect("run the test binary")
        };
        let out = run("0");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{stdout}");
        assert!(stdout.contains("1 failed"), "{stdout}");
        assert!(stdout.contains("PROPTEST_CASES=0"), "{stdout}");
        let out = run("3");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("1 passed"), "{stdout}");
    }

    /// Every `proptest!` block of the crate and of its integration tests starts with a
    /// `proptest_config` built by a `pt_config` helper, so none runs with no case.
    #[test]
    fn prop_config_is_used_by_every_property_test() {
        fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).expect("read dir").flatten() {
                let p = e.path();
                if p.is_dir() {
                    files(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = Vec::new();
        files(&root.join("src"), &mut paths);
        files(&root.join("tests"), &mut paths);
        let (mut blocks, mut bad) = (0, Vec::new());
        for p in &paths {
            let text = std::fs::read_to_string(p).expect("read");
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                let t = l.trim();
                if !(t == "proptest! {" || t == "proptest::proptest! {") {
                    continue;
                }
                blocks += 1;
                let first = lines[i + 1..]
                    .iter()
                    .map(|l| l.trim())
                    .find(|l| !l.is_empty());
                if !first.is_some_and(|f| {
                    f.starts_with("#![proptest_config(") && f.contains("pt_config")
                }) {
                    bad.push(format!("{}:{}", p.display(), i + 1));
                }
            }
        }
        assert!(blocks >= 20, "{blocks} proptest! blocks found");
        assert!(bad.is_empty(), "proptest! without pt_config: {bad:?}");
    }
}
