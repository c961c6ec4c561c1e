//! ClusterClass templates that would run away (issue 32, acceptance 4): each case puts one
//! hostile `valueFrom.template` into CAPM3's e2e class of `examples/clusterclass` and runs the binary on
//! the package under the kernel's ceilings of `abuse.rs` (1 GiB of virtual memory, 60 s of CPU
//! time), so a render that blew past its limits would be killed and fail here. Each must end in
//! an error naming the patch and the limit, with every item of the package returned unchanged;
//! nesting that Go's parser accepts in a template as long as the ClusterClass CRD allows must
//! render. The last cases stamp the class with many Clusters, whose renders and copies together
//! must stop at the run-wide limits of `ipreuse::topology::budget`. How long such runs take is
//! measured by `bench/hostile_classes.py` (BENCHMARKS.md), not asserted.

use std::path::{Path, PathBuf};

use super::abuse::{Ran, run_bounded};

/// The CRD's `maxLength` of `valueFrom.template` (cluster-api's
/// `core/config/crd/bases/cluster.x-k8s.io_clusterclasses.yaml`), which ipreuse's limit follows.
const CRD_MAX_LENGTH: usize = ipreuse::topology::template::limits::CRD_TEMPLATE_MAX_LENGTH;

const CEILING_MIB: u64 = 1024;

/// `examples/clusterclass` in a temporary folder, with `template` as the `valueFrom.template`
/// of a first patch `hostile` of class `metal3` that sets the control plane's image format.
fn package_with(template: &str) -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/clusterclass");
    let dir = tempfile::tempdir().expect("a temporary folder");
    for entry in std::fs::read_dir(&src).expect("examples/clusterclass") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    let class: PathBuf = dir.path().join("clusterclass-metal3.yaml");
    let text = std::fs::read_to_string(&class).expect("the class");
    let indented: String = template
        .lines()
        .map(|l| format!("            {l}\n"))
        .collect();
    let hostile = format!(
        "  patches:
  - name: hostile
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: Metal3MachineTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/image/format
        valueFrom:
          template: |-
{indented}"
    );
    assert!(text.contains("  patches:\n"), "the class has patches");
    std::fs::write(&class, text.replacen("  patches:\n", &hostile, 1)).expect("write");
    dir
}

fn run_on(template: &str) -> (Ran, tempfile::TempDir) {
    let dir = package_with(template);
    let path = dir.path().to_str().expect("a UTF-8 path").to_string();
    let ran = run_bounded(&[&path], &[], None, CEILING_MIB);
    (ran, dir)
}

/// Every document of the package, as the run would print it unchanged.
fn documents(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("the package") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "yaml") && !path.ends_with("Kptfile") {
            let text = std::fs::read_to_string(&path).expect("a file");
            n += text.split("\n---").filter(|d| d.contains("kind:")).count();
        }
    }
    n
}

/// Exit 1 with an error holding each of `needles`, and every item of `dir` returned.
fn assert_error_with_every_item(ran: &Ran, dir: &Path, needles: &[&str]) {
    assert_eq!(ran.code, Some(1), "stderr: {}", ran.stderr);
    for needle in needles {
        assert!(
            ran.stderr.contains(needle),
            "{needle:?} not in: {}",
            ran.stderr
        );
    }
    let out = String::from_utf8_lossy(&ran.stdout);
    let printed = out.matches("\nkind: ").count() + usize::from(out.starts_with("kind: "));
    assert_eq!(printed, documents(dir), "every item returned: {out}");
}

/// An error naming the hostile patch, its field and `limit`, and every item returned.
fn assert_stopped_at(ran: &Ran, dir: &Path, limit: &str) {
    let field = "spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template";
    assert_error_with_every_item(ran, dir, &["hostile", field, limit]);
}

#[test]
fn ten_replaces_that_each_multiply_a_string_by_ten_stop_at_the_string_limit() {
    let mut t = String::from("{{ $s := \"aaaaaaaaaa\" }}");
    for _ in 0..10 {
        t.push_str("{{ $s = replace \"a\" \"aaaaaaaaaa\" $s }}");
    }
    t.push_str("{{ len $s }}");
    let (ran, dir) = run_on(&t);
    assert_stopped_at(&ran, dir.path(), "bytes in one string");
}

#[test]
fn printf_doubling_thirty_times_stops_at_the_string_limit() {
    let mut t = String::from("{{ $s := \"ab\" }}");
    for _ in 0..30 {
        t.push_str("{{ $s = printf \"%s%s\" $s $s }}");
    }
    t.push_str("{{ len $s }}");
    let (ran, dir) = run_on(&t);
    assert_stopped_at(&ran, dir.path(), "bytes in one string");
}

#[test]
fn forty_defines_that_each_call_the_next_twice_stop_at_the_step_limit() {
    let mut t = String::from("{{ define \"t0\" }}{{ end }}");
    for i in 1..=40 {
        let p = i - 1;
        t.push_str(&format!(
            "{{{{ define \"t{i}\" }}}}{{{{ template \"t{p}\" }}}}{{{{ template \"t{p}\" }}}}{{{{ end }}}}"
        ));
    }
    t.push_str("{{ template \"t40\" }}raw");
    let (ran, dir) = run_on(&t);
    assert_stopped_at(&ran, dir.path(), "steps");
}

#[test]
fn nested_ranges_stop_at_the_step_limit() {
    // split "" gives one entry per character: 1,000 × 1,000 × 1,000 iterations.
    let t = format!(
        "{{{{ $l := split \"\" \"{}\" }}}}{{{{ range $l }}}}{{{{ range $l }}}}{{{{ range $l }}}}{{{{ end }}}}{{{{ end }}}}{{{{ end }}}}raw",
        "a".repeat(1000)
    );
    let (ran, dir) = run_on(&t);
    assert_stopped_at(&ran, dir.path(), "steps");
}

#[test]
fn output_that_grows_past_its_limit_stops_there() {
    // Each iteration prints 1,000 bytes: 10,000 iterations are 10 MB of text.
    let t = format!(
        "{{{{ range split \"\" \"{}\" }}}}{{{{ range split \"\" \"{}\" }}}}{}{{{{ end }}}}{{{{ end }}}}",
        "a".repeat(100),
        "a".repeat(100),
        "x".repeat(1000)
    );
    let (ran, dir) = run_on(&t);
    assert_stopped_at(&ran, dir.path(), "bytes of rendered text");
}

#[test]
fn a_template_longer_than_the_crd_admits_is_refused_before_it_is_parsed() {
    // 9 MB: the API server refuses it; ipreuse says so without parsing it.
    let t = format!("{{{{/* {} */}}}}raw", "x".repeat(9 << 20));
    let (ran, dir) = run_on(&t);
    assert_stopped_at(
        &ran,
        dir.path(),
        "characters long and the ClusterClass CRD admits 10240",
    );
}

/// The package's own output with the hostile patch applied: exit 0, and the control plane's
/// copy took the patch (the format it sets is the one the class has, so nothing else changes).
fn assert_renders(template: &str) {
    assert!(
        template.len() <= CRD_MAX_LENGTH,
        "{} bytes: the case must fit the CRD",
        template.len()
    );
    let (ran, _dir) = run_on(template);
    assert_eq!(ran.code, Some(0), "stderr: {}", ran.stderr);
    let out = String::from_utf8_lossy(&ran.stdout);
    assert!(out.contains("test1-controlplane-"), "{out}");
}

#[test]
fn ifs_nested_as_deep_as_the_crd_length_allows_render() {
    let open = "{{if 1}}";
    let close = "{{end}}";
    let depth = (CRD_MAX_LENGTH - 3) / (open.len() + close.len());
    assert!(depth > 101, "deeper than the old parser's limit of 100");
    let t = format!("{}raw{}", open.repeat(depth), close.repeat(depth));
    assert_renders(&t);
}

#[test]
fn parentheses_nested_as_deep_as_the_crd_length_allows_render() {
    let depth = (CRD_MAX_LENGTH - 11) / 2;
    let t = format!(
        "{{{{ {}\"raw\"{} }}}}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    assert_renders(&t);
}

#[test]
fn recursive_template_calls_render_up_to_their_depth_limit_and_stop_past_it() {
    // A define that calls itself with its string less its first `a` until it is empty: depth =
    // the string's length.
    let call = |n: usize| {
        format!(
            "{{{{ define \"r\" }}}}{{{{ if . }}}}{{{{ template \"r\" (trimPrefix \"a\" .) }}}}{{{{ else }}}}raw{{{{ end }}}}{{{{ end }}}}{{{{ template \"r\" (repeat {n} \"a\") }}}}"
        )
    };
    // Each call nests a template call and an `if`: 2,500 calls are 5,000 levels, under the
    // 6,000 the render's stack is sized for; past the call limit, the nesting limit stops it.
    let max = ipreuse::topology::template::limits::Limits::default().depth;
    assert_renders(&call(2_500));
    let (ran, dir) = run_on(&call(max + 10));
    assert_stopped_at(&ran, dir.path(), "levels of nesting");
}

/// `dir`'s package with `clusters` more Clusters stamped from class `metal3` (copies of test1
/// under other names), in a file of their own.
fn stamp(dir: &Path, clusters: usize) {
    let text = std::fs::read_to_string(dir.join("cluster-test1.yaml")).expect("test1");
    let cluster = text.split("\n---\n").next().expect("the Cluster first");
    assert!(cluster.contains("kind: Cluster\n") && cluster.contains("name: test1\n"));
    let many: Vec<String> = (0..clusters)
        .map(|k| cluster.replacen("name: test1\n", &format!("name: x{k}\n"), 1))
        .collect();
    std::fs::write(dir.join("clusters-many.yaml"), many.join("\n---\n") + "\n").expect("write");
}

#[test]
fn many_clusters_rendering_many_heavy_patches_stop_at_the_run_wide_step_limit() {
    // Each render takes about a million steps, under its own limit; 100 Clusters each render
    // it for their control plane: 100 million steps, twenty times the run's limit.
    let t = format!(
        "{{{{ $l := split \"\" \"{}\" }}}}{{{{ range $l }}}}{{{{ range $l }}}}{{{{ end }}}}{{{{ end }}}}raw",
        "a".repeat(995)
    );
    let dir = package_with(&t);
    stamp(dir.path(), 100);
    let path = dir.path().to_str().expect("a UTF-8 path");
    let ran = run_bounded(&[path], &[], None, CEILING_MIB);
    let limit = format!(
        "limit of {} template steps: make the templates lighter",
        ipreuse::topology::budget::RUN_STEPS
    );
    assert_error_with_every_item(&ran, dir.path(), &[&limit, "patch \"hostile\""]);
}

#[test]
fn a_large_class_template_stamped_by_many_clusters_stops_at_the_run_wide_copy_limit() {
    // A 4 MiB annotation on the class's control plane template, copied for each of 200
    // Clusters: 800 MiB of copies, three times the run's limit, in an input of 5 MB.
    let dir = package_with("raw");
    let class = dir.path().join("clusterclass-metal3.yaml");
    let text = std::fs::read_to_string(&class).expect("the class");
    let head = "kind: Metal3MachineTemplate\nmetadata:\n";
    assert!(text.contains(head));
    let big = format!("{head}  annotations:\n    big: {}\n", "x".repeat(4 << 20));
    std::fs::write(&class, text.replacen(head, &big, 1)).expect("write");
    stamp(dir.path(), 200);
    let path = dir.path().to_str().expect("a UTF-8 path");
    let ran = run_bounded(&[path], &[], None, CEILING_MIB);
    let limit = format!(
        "limit of {} bytes of class template copies: make the",
        ipreuse::topology::budget::RUN_BYTES
    );
    assert_error_with_every_item(&ran, dir.path(), &[&limit]);
}

#[test]
fn many_enabled_ifs_that_print_a_large_variable_stop_at_the_run_wide_step_limit() {
    // `{{ .big }}` takes no step of its own, but prints 1 MiB that is read as YAML: 2,000
    // patches rendering it are 2 GiB of text to read, for one Cluster.
    let dir = package_with("raw");
    let class = dir.path().join("clusterclass-metal3.yaml");
    let text = std::fs::read_to_string(&class).expect("the class");
    assert!(text.contains("  variables:\n") && text.contains("  patches:\n"));
    let big = "  variables:\n  - name: big\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: string\n";
    let patches: String = (0..2000)
        .map(|i| {
            format!(
                "  - name: e{i}
    enabledIf: '{{{{ .big }}}}'
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: Metal3MachineTemplate
        matchResources:
          controlPlane: true
      jsonPatches:
      - op: replace
        path: /spec/template/spec/image/format
        value: raw
"
            )
        })
        .collect();
    let text = text.replacen("  variables:\n", big, 1).replacen(
        "  patches:\n",
        &format!("  patches:\n{patches}"),
        1,
    );
    std::fs::write(&class, text).expect("write");
    let cluster = dir.path().join("cluster-test1.yaml");
    let text = std::fs::read_to_string(&cluster).expect("test1");
    let value = format!(
        "    variables:\n    - name: big\n      value: {}\n",
        "x".repeat(1 << 20)
    );
    assert!(text.contains("    variables:\n"));
    std::fs::write(&cluster, text.replacen("    variables:\n", &value, 1)).expect("write");
    let path = dir.path().to_str().expect("a UTF-8 path");
    let ran = run_bounded(&[path], &[], None, CEILING_MIB);
    let limit = format!(
        "limit of {} template steps: make the templates lighter",
        ipreuse::topology::budget::RUN_STEPS
    );
    assert_error_with_every_item(&ran, dir.path(), &[&limit, "enabledIf"]);
}
