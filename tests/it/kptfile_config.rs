//! SPEC §1 "Kptfile" (issue 34, acceptance 1): on named paths, a package's Kptfile configures
//! the run as `kpt fn render` configures its ipreuse step, so that a file run and a render of
//! the same package agree.
//!
//! - `every_example_file_run_is_kpt_render`: for every example package, `ipreuse PKG` prints
//!   the items `kpt fn render` leaves in the package (same kind, namespace, name and content)
//!   and reports the same results (severity, object, field, message), and fails exactly when
//!   the render fails.
//! - `basic_*`: `examples/basic` sets `controllerFlag: "false"` in its Kptfile: a standalone
//!   run, `--in-place`, `--mode check`, `plan` and `--packages-of` print no controllerFlag
//!   warning, and the same package without its Kptfile does (so each assertion can fail).
//! - `nested_*`: a package with a subpackage, as kpt nests them.
//!
//! These tests need the real kpt (`examples::kpt`): they fail without it, never skip.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::json_docs;
use crate::examples::{self, EXEC, Example};
use crate::support::fs::copy_dir;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

/// The words of the controllerFlag warning (src/transform: "controllerFlag is on, but nothing ...").
const FLAG_WARNING: &str = "controllerFlag is on, but nothing in the input";

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env_remove("IPREUSE_MAX_INPUT_SIZE")
        .output()
        .expect("running ipreuse")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Every object of the package's `*.yaml` / `*.yml` files (hidden folders aside), keyed by
/// kind, namespace and name, in order of those keys.
fn package_items(pkg: &Path) -> Vec<(String, Value)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("reading a package") {
            let path = entry.expect("reading a package").path();
            let name = path.file_name().expect("a name").to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if name.ends_with(".yaml") || name.ends_with(".yml") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(pkg, &mut files);
    let mut all = String::new();
    for f in files {
        all.push_str("---\n");
        all.push_str(&std::fs::read_to_string(f).expect("reading a file"));
        all.push('\n');
    }
    keyed(&all)
}

/// The documents of a stream, keyed by kind, namespace and name, sorted.
fn keyed(stream: &str) -> Vec<(String, Value)> {
    let mut items: Vec<(String, Value)> = json_docs(stream)
        .into_iter()
        .filter(|d| !d.is_null())
        .map(|d| {
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            let key = format!(
                "{} {}/{}",
                s(&d["kind"]),
                s(&d["metadata"]["namespace"]),
                s(&d["metadata"]["name"])
            );
            (key, d)
        })
        .collect();
    items.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| a.1.to_string().cmp(&b.1.to_string()))
    });
    items
}

/// The results of a render, every step's, as the CLI writes them on stderr (without the file).
fn render_results(results_dir: &Path) -> BTreeSet<String> {
    let path = results_dir.join("results.yaml");
    let list = &json_docs(&std::fs::read_to_string(&path).expect("kpt writes results.yaml"))[0];
    let mut lines = BTreeSet::new();
    for step in list["items"].as_array().into_iter().flatten() {
        for r in step["results"].as_array().into_iter().flatten() {
            let mut line = format!("{}: ", r["severity"].as_str().expect("a severity"));
            let field = r["field"]["path"].as_str();
            if let Some(obj) = r.get("resourceRef") {
                let s = |k: &str| obj[k].as_str().unwrap_or("").to_string();
                let (kind, ns, name) = (s("kind"), s("namespace"), s("name"));
                let name_w = if name.is_empty() { "(no name)" } else { &name };
                line.push_str(&match (ns.is_empty(), name.is_empty()) {
                    (false, false) => format!("{kind} {ns}/{name_w}"),
                    (false, true) => format!("{kind} {name_w} in namespace {ns}"),
                    (true, _) => format!("{kind} {name_w}"),
                });
                if let Some(f) = field {
                    line.push(' ');
                    line.push_str(f);
                }
                line.push_str(": ");
            } else if let Some(f) = field {
                line.push_str(f);
                line.push_str(": ");
            }
            line.push_str(r["message"].as_str().expect("a message"));
            lines.insert(line);
        }
    }
    lines
}

/// The results a file run wrote on stderr, without their `file:line: ` prefix, the lines of the
/// binary itself (`ipreuse: ...`) and the info naming the Kptfile (which kpt does not write).
fn file_run_results(stderr: &str) -> BTreeSet<String> {
    stderr
        .lines()
        .filter(|l| !l.starts_with("ipreuse: "))
        .map(|l| {
            let at = ["error", "warning", "info"]
                .iter()
                .filter_map(|sev| {
                    if l.starts_with(&format!("{sev}: ")) {
                        Some(0)
                    } else {
                        l.find(&format!(": {sev}: ")).map(|i| i + 2)
                    }
                })
                .min()
                .unwrap_or_else(|| panic!("not a result line: {l}"));
            l[at..].to_string()
        })
        .filter(|l| !l.starts_with("info: config from Kptfile "))
        .collect()
}

/// A result with the folders of the files its message names (`(in sub/ipreuse-config.yaml)`)
/// dropped: a file run names them from the folder it runs in, kpt by its path annotation, which
/// for a subpackage's file in the parent's run is relative to the subpackage.
fn file_names_only(lines: BTreeSet<String>) -> BTreeSet<String> {
    let folders = regex::Regex::new(r"\(in [^()]*/([^/()]+)\)").expect("a regex");
    lines
        .into_iter()
        .map(|l| folders.replace_all(&l, "(in $1)").into_owned())
        .collect()
}

/// A file run of the copy `pkg` and a render of another copy, compared.
fn compare(name: &str, file_pkg: &Path, render_pkg: &Path, tmp: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let parent = file_pkg.parent().expect("a parent");
    let pkg_name = file_pkg
        .file_name()
        .expect("a name")
        .to_str()
        .expect("UTF-8");
    let run = run_in(parent, &[pkg_name]);
    let results = tmp.join(format!("results-{name}"));
    let rendered = examples::render(render_pkg, &results);
    if run.status.code() != rendered.status.code() {
        problems.push(format!(
            "{name}: the file run exits {:?}, kpt fn render {:?}\nfile run: {}\nrender: {}",
            run.status.code(),
            rendered.status.code(),
            show(&run),
            examples::output_text(&rendered)
        ));
        return problems;
    }
    let want = package_items(render_pkg);
    let got = keyed(&text(&run.stdout));
    let keys = |v: &[(String, Value)]| v.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
    if keys(&want) != keys(&got) {
        problems.push(format!(
            "{name}: other items\nrender: {:?}\nfile run: {:?}",
            keys(&want),
            keys(&got)
        ));
    } else {
        for ((key, w), (_, g)) in want.iter().zip(&got) {
            if w != g {
                problems.push(format!(
                    "{name}: {key} differs\nrender:\n{w:#}\nfile run:\n{g:#}"
                ));
            }
        }
    }
    let want = file_names_only(render_results(&results));
    let got = file_names_only(file_run_results(&text(&run.stderr)));
    if want != got {
        problems.push(format!(
            "{name}: other results\nonly in the render:\n{:#?}\nonly in the file run:\n{:#?}",
            want.difference(&got).collect::<Vec<_>>(),
            got.difference(&want).collect::<Vec<_>>()
        ));
    }
    problems
}

/// Two copies of an example (one for the file run, one for kpt), each in its own folder.
fn two_copies(example: &Example, tmp: &Path) -> (PathBuf, PathBuf) {
    let a = tmp.join("file-run");
    let b = tmp.join("render");
    std::fs::create_dir_all(&a).expect("mkdir");
    std::fs::create_dir_all(&b).expect("mkdir");
    let file_pkg = examples::prepare(example, &a, EXEC);
    let render_pkg = examples::prepare(example, &b, EXEC);
    (file_pkg, render_pkg)
}

#[test]
fn every_example_file_run_is_kpt_render() {
    examples::kpt();
    let mut problems = Vec::new();
    let all = examples::examples();
    let mut failing = 0;
    for example in &all {
        let tmp = examples::tempdir();
        let (file_pkg, render_pkg) = two_copies(example, tmp.path());
        let before = problems.len();
        problems.extend(compare(&example.name, &file_pkg, &render_pkg, tmp.path()));
        if problems.len() == before
            && !run_in(tmp.path().join("file-run").as_path(), &[&example.name])
                .status
                .success()
        {
            failing += 1;
        }
    }
    // examples/errors, multi-cluster-conflict and v1.14-refusals fail the render: the file run
    // must fail with them (the comparison checks the same exit codes and results).
    assert!(
        failing >= 3,
        "expected the failing examples, found {failing}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A copy of examples/basic in `tmp/basic`, with or without its Kptfile.
fn basic(tmp: &Path, with_kptfile: bool) -> PathBuf {
    let pkg = tmp.join("basic");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/basic"),
        &pkg,
    );
    if !with_kptfile {
        std::fs::remove_file(pkg.join("Kptfile")).expect("removing the Kptfile");
    }
    pkg
}

/// Runs `args` on a copy of examples/basic with its Kptfile and on one without; returns both.
fn with_and_without(args: &[&str]) -> (Output, Output) {
    let with = examples::tempdir();
    basic(with.path(), true);
    let without = examples::tempdir();
    basic(without.path(), false);
    (run_in(with.path(), args), run_in(without.path(), args))
}

fn assert_kptfile_read(with: &Output, without: &Output) {
    let stderr = text(&with.stderr);
    assert!(!stderr.contains(FLAG_WARNING), "{}", show(with));
    assert!(
        stderr
            .contains("info: config from Kptfile basic/Kptfile, pipeline.mutators[0] (configMap)")
            || stderr.lines().all(|l| !l.starts_with("info: ")),
        "{}",
        show(with)
    );
    assert!(
        text(&without.stderr).contains(FLAG_WARNING),
        "without the Kptfile the default config warns: {}",
        show(without)
    );
}

#[test]
fn basic_standalone_reads_the_kptfile() {
    let (with, without) = with_and_without(&["basic"]);
    assert!(with.status.success(), "{}", show(&with));
    assert!(
        text(&with.stderr).contains(
            "info: config from Kptfile basic/Kptfile, pipeline.mutators[0] (configMap): "
        ),
        "{}",
        show(&with)
    );
    assert_kptfile_read(&with, &without);
}

#[test]
fn basic_in_place_reads_the_kptfile() {
    let (with, without) = with_and_without(&["--in-place", "basic"]);
    assert!(with.status.success(), "{}", show(&with));
    assert!(
        text(&with.stderr).contains("info: config from Kptfile basic/Kptfile"),
        "{}",
        show(&with)
    );
    assert_kptfile_read(&with, &without);
}

#[test]
fn basic_check_reads_the_kptfile() {
    // Filled first (with the Kptfile's config), so that check finds nothing to add.
    let with = examples::tempdir();
    basic(with.path(), true);
    let fill = run_in(with.path(), &["--in-place", "basic"]);
    assert!(fill.status.success(), "{}", show(&fill));
    let without = examples::tempdir();
    basic(without.path(), false);
    let fill = run_in(without.path(), &["--in-place", "basic"]);
    assert!(fill.status.success(), "{}", show(&fill));
    let checked = run_in(with.path(), &["--mode", "check", "basic"]);
    let unchecked = run_in(without.path(), &["--mode", "check", "basic"]);
    assert!(checked.status.success(), "{}", show(&checked));
    assert!(checked.stdout.is_empty(), "{}", show(&checked));
    assert_kptfile_read(&checked, &unchecked);
}

#[test]
fn basic_plan_reads_the_kptfile() {
    let (with, without) = with_and_without(&["plan", "basic"]);
    assert!(with.status.success(), "{}", show(&with));
    assert!(text(&with.stdout).contains("node-10"), "{}", show(&with));
    assert_kptfile_read(&with, &without);
}

#[test]
fn basic_packages_of_reads_the_kptfile() {
    let (with, without) = with_and_without(&["--packages-of", "basic/hosts.yaml"]);
    assert!(with.status.success(), "{}", show(&with));
    assert!(
        text(&with.stderr).contains("info: config from Kptfile basic/Kptfile"),
        "{}",
        show(&with)
    );
    assert_kptfile_read(&with, &without);
}

#[test]
fn config_flag_wins_with_a_warning() {
    let tmp = examples::tempdir();
    basic(tmp.path(), true);
    let config = tmp.path().join("on.yaml");
    std::fs::write(
        &config,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: on\ndata:\n  controllerFlag: \"true\"\n",
    )
    .expect("writing the config");
    let out = run_in(tmp.path(), &["--config", "on.yaml", "basic"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning: --config on.yaml differs from the config of Kptfile basic/Kptfile, pipeline.mutators[0] (configMap) in controllerFlag"),
        "{}",
        show(&out)
    );
    assert!(
        stderr.contains(FLAG_WARNING),
        "--config wins: {}",
        show(&out)
    );
    assert!(
        !stderr.contains("info: config from Kptfile"),
        "{}",
        show(&out)
    );
}

#[test]
fn steps_with_other_configs_are_an_error_naming_them() {
    let tmp = examples::tempdir();
    let pkg = basic(tmp.path(), true);
    let kptfile = pkg.join("Kptfile");
    let mut text_ = std::fs::read_to_string(&kptfile).expect("reading");
    text_.push_str("  validators:\n    - exec: ipreuse\n      configMap:\n        mode: check\n        controllerFlag: \"true\"\n");
    std::fs::write(&kptfile, &text_).expect("writing");
    let out = run_in(tmp.path(), &["basic"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("pipeline.mutators[0] and pipeline.validators[0] have different configs (controllerFlag)"),
        "{}",
        show(&out)
    );
    // Mode alone is no difference.
    std::fs::write(
        &kptfile,
        text_.replace("controllerFlag: \"true\"\n", "controllerFlag: \"false\"\n"),
    )
    .expect("writing");
    let out = run_in(tmp.path(), &["basic"]);
    assert!(out.status.success(), "{}", show(&out));
    assert!(!text(&out.stderr).contains(FLAG_WARNING), "{}", show(&out));
}

/// examples/basic with examples/dual-stack as its subpackage `sub/` (both namespace metal3; the
/// subpackage's configPath selects the workers, the parent's configMap maps every host): the
/// file run and kpt fn render agree on the items and the results, the subpackage's `IPReuse`
/// warned about in the parent's run under both.
#[test]
fn nested_package_as_kpt_renders_it() {
    examples::kpt();
    let all = examples::examples();
    let find = |n: &str| all.iter().find(|e| e.name == n).expect("the example");
    let tmp = examples::tempdir();
    let (file_pkg, render_pkg) = two_copies(find("basic"), tmp.path());
    for (dir, pkg) in [("a", &file_pkg), ("b", &render_pkg)] {
        let sub_tmp = tmp.path().join(format!("sub-{dir}"));
        std::fs::create_dir_all(&sub_tmp).expect("mkdir");
        let sub = examples::prepare(find("dual-stack"), &sub_tmp, EXEC);
        copy_dir(&sub, &pkg.join("sub"));
        let _ = std::fs::remove_dir_all(pkg.join("sub/.git"));
    }
    let problems = compare("nested", &file_pkg, &render_pkg, tmp.path());
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    // Both Kptfiles were read: the subpackage's first.
    let out = run_in(tmp.path().join("file-run").as_path(), &["basic"]);
    assert!(out.status.success(), "{}", show(&out));
    let stderr = text(&out.stderr);
    // at the line of the field the warning names, `spec`
    let config = std::fs::read_to_string(tmp.path().join("file-run/basic/sub/ipreuse-config.yaml"))
        .expect("reading");
    let spec = 1 + config.lines().position(|l| l == "spec:").expect("a spec");
    let want =
        format!("basic/sub/ipreuse-config.yaml:{spec}: warning: IPReuse stable-node-ips spec: ");
    assert!(stderr.contains(&want), "{want}\n{}", show(&out));
    let sub = stderr
        .find("info: config from Kptfile basic/sub/Kptfile")
        .unwrap_or_else(|| panic!("{}", show(&out)));
    let top = stderr
        .find("info: config from Kptfile basic/Kptfile")
        .unwrap_or_else(|| panic!("{}", show(&out)));
    assert!(sub < top, "{}", show(&out));
}

/// A `configPath` step: the file is the config given (an info names the Kptfile), and the same
/// file among the items agrees with it, so the among-inputs rule says nothing of its own.
#[test]
fn config_path_is_the_config_given() {
    let tmp = examples::tempdir();
    let pkg = tmp.path().join("dual-stack");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dual-stack"),
        &pkg,
    );
    let out = run_in(tmp.path(), &["dual-stack"]);
    assert!(out.status.success(), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "info: config from Kptfile dual-stack/Kptfile, pipeline.mutators[0] (configPath ipreuse-config.yaml): "
        ),
        "{}",
        show(&out)
    );
    assert!(
        !stderr.contains("is the config of this run"),
        "{}",
        show(&out)
    );
    assert!(
        !stderr.contains("differs from the functionConfig"),
        "{}",
        show(&out)
    );
    // The file named by configPath is read even when it is no item of the walk.
    std::fs::rename(
        pkg.join("ipreuse-config.yaml"),
        pkg.join("ipreuse-config.txt"),
    )
    .expect("renaming");
    let kptfile = pkg.join("Kptfile");
    let text_ = std::fs::read_to_string(&kptfile).expect("reading");
    std::fs::write(
        &kptfile,
        text_.replace(
            "configPath: ipreuse-config.yaml",
            "configPath: ipreuse-config.txt",
        ),
    )
    .expect("writing");
    let again = run_in(tmp.path(), &["dual-stack"]);
    assert!(again.status.success(), "{}", show(&again));
    // The same items, but the config file, which is no item now.
    let without_config: Vec<_> = keyed(&text(&out.stdout))
        .into_iter()
        .filter(|(k, _)| !k.starts_with("IPReuse "))
        .collect();
    assert_ne!(without_config.len(), keyed(&text(&out.stdout)).len());
    assert_eq!(
        keyed(&text(&again.stdout)),
        without_config,
        "{}",
        show(&again)
    );
    assert!(
        text(&again.stderr).contains("(configPath ipreuse-config.txt)"),
        "{}",
        show(&again)
    );
}

/// `--in-place` on the nested package writes what the standalone run prints (each package's
/// files the text of the last run that read them).
#[test]
fn nested_package_in_place_writes_what_standalone_prints() {
    let all = examples::examples();
    let find = |n: &str| all.iter().find(|e| e.name == n).expect("the example");
    let tmp = examples::tempdir();
    let (a, b) = two_copies(find("basic"), tmp.path());
    for pkg in [&a, &b] {
        copy_dir(&find("dual-stack").dir, &pkg.join("sub"));
    }
    let printed = run_in(a.parent().expect("a parent"), &["basic"]);
    assert!(printed.status.success(), "{}", show(&printed));
    let written = run_in(b.parent().expect("a parent"), &["--in-place", "basic"]);
    assert!(written.status.success(), "{}", show(&written));
    assert!(
        text(&written.stderr).contains("info: config from Kptfile basic/sub/Kptfile"),
        "{}",
        show(&written)
    );
    assert_eq!(package_items(&b), keyed(&text(&printed.stdout)));
    assert_ne!(
        package_items(&a),
        package_items(&b),
        "the run filled the pools"
    );
}
