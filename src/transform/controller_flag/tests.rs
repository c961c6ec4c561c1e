//! The controller flag, case by case: each test runs the transformation on a small stream,
//! writes its edits into the text with the YAML layer, and compares the text (so that only the
//! flag lines change) and the results (object, field, severity).

use super::*;
use crate::config::{Config, Mode};
use crate::results::Severity;

/// The stream with the transformation's edits written, and its outcome.
fn run_with(text: &str, config: &Config) -> (String, Outcome) {
    let docs = yaml::parse(text).expect("test YAML parses");
    let nodes: Vec<&yaml::Node> = docs.iter().map(|d| &d.root).collect();
    let mut findings = Vec::new();
    let model = crate::model::Model::of_nodes(&nodes, &mut findings);
    assert!(
        findings.iter().all(|f| !f.is_error()),
        "the index refuses the test input: {findings:?}"
    );
    let mut out = apply(&model, config);
    // The results the run reports in this mode: what fill wrote, or what check would change.
    let reported = match config.mode {
        Mode::Fill => std::mem::take(&mut out.written),
        Mode::Check => std::mem::take(&mut out.check),
    };
    out.findings.extend(reported);
    let edits: Vec<(&yaml::Node, Edit)> = out
        .edits
        .iter()
        .map(|e| (&docs[e.item.0].root, e.edit.clone()))
        .collect();
    let written = yaml::apply(text, &edits).expect("the edits apply");
    (written, out)
}

fn run(text: &str) -> (String, Outcome) {
    run_with(text, &Config::default())
}

fn with_version(v: &str) -> Config {
    Config {
        capm3_version: Some(v.into()),
        ..Config::default()
    }
}

/// `(severity, kind/name, field)` of every result, sorted.
fn results(out: &Outcome) -> Vec<(Severity, String, String)> {
    let mut r: Vec<_> = out
        .findings
        .iter()
        .map(|f| {
            (
                f.severity,
                f.resource_ref
                    .as_ref()
                    .map(|r| format!("{}/{}", r.kind, r.name))
                    .unwrap_or_default(),
                f.field.as_ref().map(|p| p.path.clone()).unwrap_or_default(),
            )
        })
        .collect();
    r.sort();
    r
}

fn warnings(out: &Outcome) -> Vec<&str> {
    out.findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .map(|f| f.message.as_str())
        .collect()
}

/// Runs `text`, then runs the output again: the second run must change nothing.
fn run_twice(text: &str, config: &Config) -> (String, Outcome) {
    let (once, out) = run_with(text, config);
    let (twice, again) = run_with(&once, config);
    assert_eq!(twice, once, "a second run changes the output");
    assert!(
        again.edits.is_empty(),
        "a second run has edits: {:?}",
        again.edits
    );
    (once, out)
}

/// The lines of `before` and `after` that differ, as (removed, added), by a longest common
/// subsequence of lines.
fn changed_lines(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            added.push(b[j].to_string());
            j += 1;
        } else {
            removed.push(a[i].to_string());
            i += 1;
        }
    }
    (removed, added)
}

fn deployment(name: &str, labels: &str, containers: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  namespace: capm3-system
  labels: {{{labels}}}
spec:
  template:
    spec:
      containers:
{containers}"
    )
}

const MANAGER_V113: &str = "      - name: manager
        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0
        command:
        - /manager
        args:
        - \"--webhook-port=9443\"
        - \"--enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}\" # upstream
        - \"--diagnostics-address=${CAPM3_DIAGNOSTICS_ADDRESS:=:8443}\"
";

// ---- the flag in Deployment args ----

#[test]
fn the_template_value_becomes_true_keeping_spelling_quotes_and_comment() {
    let text = deployment(MANAGER_DEPLOYMENT, "", MANAGER_V113);
    let (out, outcome) = run_twice(&text, &Config::default());
    assert_eq!(
        changed_lines(&text, &out),
        (
            vec![
                "        - \"--enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}\" # upstream".into()
            ],
            vec!["        - \"--enable-bmh-name-based-preallocation=true\" # upstream".into()]
        )
    );
    assert_eq!(
        results(&outcome),
        [(
            Severity::Info,
            "Deployment/capm3-controller-manager".into(),
            "spec.template.spec.containers[0].args[1]".into()
        )]
    );
    assert!(outcome.findings[0].message.contains("container manager"));
}

#[test]
fn both_spellings_in_any_deployment_keep_their_spelling() {
    // Not a CAPM3 manager (no name, no label): the args are turned on all the same.
    let containers = "      - name: a
        args:
        - --enableBMHNameBasedPreallocation=false
        - --enable-bmh-name-based-preallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION}
      - name: b
        command: [/manager, '--enableBMHNameBasedPreallocation=0']
";
    let text = deployment("some-controller", "app: x", containers);
    let (out, outcome) = run_twice(&text, &Config::default());
    let (removed, added) = changed_lines(&text, &out);
    assert_eq!(removed.len(), 3, "{out}");
    assert_eq!(
        added,
        [
            "        - --enableBMHNameBasedPreallocation=true",
            "        - --enable-bmh-name-based-preallocation=true",
            "        command: [/manager, '--enableBMHNameBasedPreallocation=true']",
        ]
    );
    let fields: Vec<String> = results(&outcome).into_iter().map(|r| r.2).collect();
    assert_eq!(
        fields,
        [
            "spec.template.spec.containers[0].args[0]",
            "spec.template.spec.containers[0].args[1]",
            "spec.template.spec.containers[1].command[1]",
        ]
    );
}

#[test]
fn args_written_as_one_flow_list() {
    let containers = "      - {name: manager, image: 'quay.io/metal3-io/cluster-api-provider-metal3:v1.12.7', args: [\"--webhook-port=9443\", \"--enableBMHNameBasedPreallocation=${ENABLE_BMH_NAME_BASED_PREALLOCATION:=false}\", \"--tls-min-version=${TLS_MIN_VERSION:=VersionTLS13}\"]}
";
    let text = deployment(
        MANAGER_DEPLOYMENT,
        "cluster.x-k8s.io/provider: infrastructure-metal3",
        containers,
    );
    let (out, _) = run_twice(&text, &Config::default());
    let (removed, added) = changed_lines(&text, &out);
    assert_eq!(removed.len(), 1);
    assert_eq!(
        added,
        [
            "      - {name: manager, image: 'quay.io/metal3-io/cluster-api-provider-metal3:v1.12.7', args: [\"--webhook-port=9443\", \"--enableBMHNameBasedPreallocation=true\", \"--tls-min-version=${TLS_MIN_VERSION:=VersionTLS13}\"]}"
        ]
    );
}

#[test]
fn a_flag_that_reads_true_already_is_left_alone() {
    // A bare boolean flag means true in Go; ParseBool's true spellings are true.
    for arg in [
        "--enable-bmh-name-based-preallocation",
        "--enableBMHNameBasedPreallocation",
        "--enable-bmh-name-based-preallocation=true",
        "--enable-bmh-name-based-preallocation=True",
        "--enable-bmh-name-based-preallocation=1",
        "--enableBMHNameBasedPreallocation=t",
    ] {
        let containers = format!(
            "      - name: manager\n        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0\n        args: [\"{arg}\"]\n"
        );
        let text = deployment(MANAGER_DEPLOYMENT, "", &containers);
        let (out, outcome) = run(&text);
        assert_eq!(out, text, "{arg}");
        assert!(outcome.findings.is_empty(), "{arg}: {:?}", outcome.findings);
    }
}

#[test]
fn values_that_are_not_true_become_true() {
    for (value, expected) in [
        ("false", "=true"),
        ("FALSE", "=true"),
        ("yes", "=true"),
        ("", "=true"),
        ("${X}", "=true"),
    ] {
        let containers = format!(
            "      - name: x\n        args:\n        - --enableBMHNameBasedPreallocation={value}\n"
        );
        let text = deployment("d", "", &containers);
        let (out, outcome) = run(&text);
        assert!(
            out.contains(&format!("- --enableBMHNameBasedPreallocation{expected}\n")),
            "{value:?}: {out}"
        );
        assert_eq!(outcome.edits.len(), 1, "{value:?}");
    }
    // Longer flags that start the same are other flags.
    let text = deployment(
        "d",
        "",
        "      - name: x\n        args: [--enableBMHNameBasedPreallocationX=false]\n",
    );
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert!(outcome.edits.is_empty());
}

#[test]
fn flag_arg_reads_name_and_value() {
    assert_eq!(flag_arg(ARG_KEBAB), Some((ARG_KEBAB, None)));
    assert_eq!(
        flag_arg("--enableBMHNameBasedPreallocation=${A:=false}"),
        Some((ARG_CAMEL, Some("${A:=false}")))
    );
    assert_eq!(
        flag_arg("--enable-bmh-name-based-preallocation="),
        Some((ARG_KEBAB, Some("")))
    );
    assert_eq!(flag_arg("-enableBMHNameBasedPreallocation=true"), None);
    assert_eq!(flag_arg("--enable-bmh-name-based-preallocations"), None);
}

// ---- the manager without the flag ----

fn manager_without_flag(image: &str) -> String {
    deployment(
        MANAGER_DEPLOYMENT,
        "cluster.x-k8s.io/provider: infrastructure-metal3",
        &format!(
            "      - name: manager\n        image: {image}\n        args:\n        - \"--webhook-port=9443\"\n        - \"--diagnostics-address=:8443\"\n"
        ),
    )
}

#[test]
fn era_of_each_version() {
    let era = |v: &str| Era::of(Version::parse(v).expect("a version"));
    assert_eq!(era("v1.1.9"), Era::NoFlag);
    assert_eq!(era("v0.5.0"), Era::NoFlag);
    assert_eq!(era("v1.2.0"), Era::Camel);
    assert_eq!(era("1.7"), Era::Camel);
    assert_eq!(era("v1.8.0"), Era::CamelArg);
    assert_eq!(era("v1.12.7"), Era::CamelArg);
    assert_eq!(era("v1.13.0-rc.1"), Era::Kebab);
    assert_eq!(era("v1.14.0"), Era::Kebab);
    assert_eq!(era("v2.0.0"), Era::Kebab);
    assert_eq!(Era::CamelArg.arg(), Some(ARG_CAMEL));
    assert_eq!(Era::CamelArg.variable(), Some(VAR_UPPER));
    assert_eq!(Era::Camel.variable(), Some(VAR_CAMEL));
    assert_eq!(Era::NoFlag.arg(), None);
}

#[test]
fn a_missing_flag_is_appended_spelled_by_the_image_tag() {
    let repo = "quay.io/metal3-io/cluster-api-provider-metal3";
    for (image, arg, source) in [
        (format!("{repo}:v1.13.0"), ARG_KEBAB, "image tag v1.13.0"),
        (format!("{repo}:v1.12.7"), ARG_CAMEL, "image tag v1.12.7"),
        (
            "reg:5000/mirror/cluster-api-provider-metal3:v1.9.1".into(),
            ARG_CAMEL,
            "image tag v1.9.1",
        ),
        (
            format!("{repo}:v1.14.2@sha256:0123"),
            ARG_KEBAB,
            "image tag v1.14.2",
        ),
        (
            format!("{repo}:v1.13.0-rc.1"),
            ARG_KEBAB,
            "image tag v1.13.0-rc.1",
        ),
        // a release branch's build: release-X.Y is vX.Y
        (
            format!("{repo}:release-1.12"),
            ARG_CAMEL,
            "image tag release-1.12",
        ),
        (
            format!("{repo}:release-1.8"),
            ARG_CAMEL,
            "image tag release-1.8",
        ),
        (
            format!("{repo}:release-1.13"),
            ARG_KEBAB,
            "image tag release-1.13",
        ),
        (
            format!("{repo}:release-1.14"),
            ARG_KEBAB,
            "image tag release-1.14",
        ),
        // the newest: main, latest, and no tag at all (a runtime pulls latest)
        (
            format!("{repo}:main"),
            ARG_KEBAB,
            "image tag main, the newest",
        ),
        (
            format!("{repo}:latest"),
            ARG_KEBAB,
            "image tag latest, the newest",
        ),
        (repo.to_string(), ARG_KEBAB, "no tag"),
        (
            "reg:5000/cluster-api-provider-metal3".into(),
            ARG_KEBAB,
            "no tag",
        ),
    ] {
        let text = manager_without_flag(&image);
        let (out, outcome) = run_twice(&text, &Config::default());
        let (removed, added) = changed_lines(&text, &out);
        assert!(removed.is_empty(), "{image}: {removed:?}");
        // written like the list's last item: double-quoted
        assert_eq!(added, [format!("        - \"{arg}=true\"")], "{image}");
        assert_eq!(
            results(&outcome),
            [(
                Severity::Info,
                "Deployment/capm3-controller-manager".to_string(),
                "spec.template.spec.containers[0].args[2]".to_string()
            )],
            "{image}"
        );
        // the info says where the spelling comes from
        let message = &outcome.findings[0].message;
        assert!(
            message.contains(&format!("spelled for the {source}"))
                || message.contains(&format!("spelled for the image, which has {source}")),
            "{image}: {message}"
        );
    }
}

#[test]
fn a_version_the_image_does_not_tell_is_an_error_naming_capm3_version() {
    let repo = "quay.io/metal3-io/cluster-api-provider-metal3";
    let image_field = "spec.template.spec.containers[0].image";
    for (image, field, says) in [
        (
            format!("{repo}@sha256:0123"),
            image_field,
            "a digest and no tag",
        ),
        // tags that are not versions: someone's own
        (
            format!("{repo}:1.12.7"),
            image_field,
            "\"1.12.7\" is not a version",
        ),
        (
            format!("{repo}:stable"),
            image_field,
            "\"stable\" is not a version",
        ),
        (
            format!("{repo}:sha-4f2a91c"),
            image_field,
            "is not a version",
        ),
        (
            format!("{repo}:release-next"),
            image_field,
            "is not a version",
        ),
    ] {
        let text = manager_without_flag(&image);
        let (out, outcome) = run(&text);
        assert_eq!(out, text, "{image}: nothing is guessed");
        assert_eq!(
            results(&outcome),
            [(
                Severity::Error,
                "Deployment/capm3-controller-manager".to_string(),
                field.to_string()
            )],
            "{image}"
        );
        let message = &outcome.findings[0].message;
        assert!(message.contains("capm3Version"), "{message}");
        assert!(message.contains(says), "{image}: {message}");
        assert!(
            message.contains(ARG_KEBAB) && message.contains(ARG_CAMEL),
            "both spellings named: {message}"
        );
        // capm3Version decides it
        let (out, outcome) = run_twice(&text, &with_version("v1.12.7"));
        assert!(
            out.contains("        - \"--enableBMHNameBasedPreallocation=true\"\n"),
            "{image}: {out}"
        );
        assert!(outcome.findings.iter().all(|f| !f.is_error()));
    }
    // A manager container without an image: the error is at the container.
    let text = deployment(
        MANAGER_DEPLOYMENT,
        "",
        "      - name: manager\n        args: [--leader-elect]\n",
    );
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Error,
            "Deployment/capm3-controller-manager".to_string(),
            "spec.template.spec.containers[0]".to_string()
        )]
    );
    // A manager with the flag already needs no version at all.
    let text = deployment(
        MANAGER_DEPLOYMENT,
        "",
        &format!(
            "      - name: manager\n        image: {repo}@sha256:0123\n        args: [--enable-bmh-name-based-preallocation=false]\n"
        ),
    );
    let (out, outcome) = run(&text);
    assert!(
        out.contains("args: [--enable-bmh-name-based-preallocation=true]"),
        "{out}"
    );
    assert!(outcome.findings.iter().all(|f| !f.is_error()));
}

#[test]
fn tag_version_reads_releases_branches_and_the_newest() {
    let release = |v: &str| Some(TagVersion::Release(Version::parse(v).expect("a version")));
    assert_eq!(tag_version(Some("v1.12.7")), release("1.12.7"));
    assert_eq!(tag_version(Some("release-1.12")), release("1.12"));
    assert_eq!(tag_version(Some("release-v1.12")), release("1.12"));
    assert_eq!(tag_version(Some("main")), Some(TagVersion::Newest));
    assert_eq!(tag_version(Some("latest")), Some(TagVersion::Newest));
    assert_eq!(tag_version(None), Some(TagVersion::Newest));
    assert_eq!(tag_version(Some("1.12.7")), None);
    assert_eq!(tag_version(Some("2024.01")), None);
    assert_eq!(tag_version(Some("Latest")), None);
    assert_eq!(tag_version(Some("release-")), None);
    assert_eq!(TagVersion::Newest.era(), Era::Kebab);
    assert_eq!(
        tag_version(Some("release-1.12")).map(TagVersion::era),
        Some(Era::CamelArg)
    );
}

#[test]
fn capm3_version_wins_over_the_image_tag() {
    let text = manager_without_flag("quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0");
    let (out, outcome) = run_twice(&text, &with_version("v1.10.2"));
    assert!(
        out.contains("        - \"--enableBMHNameBasedPreallocation=true\"\n"),
        "{out}"
    );
    assert!(outcome.findings[0].message.contains("capm3Version v1.10.2"));
    // also over `latest` (the newest), for a mirror that tags what it holds as latest
    let text = manager_without_flag("quay.io/metal3-io/cluster-api-provider-metal3:latest");
    let (out, outcome) = run_twice(&text, &with_version("1.12"));
    assert!(
        out.contains("        - \"--enableBMHNameBasedPreallocation=true\"\n"),
        "{out}"
    );
    assert!(
        warnings(&outcome).is_empty(),
        "a known version needs no warning"
    );
}

#[test]
fn a_manager_without_args_gets_an_args_list() {
    let text = deployment(
        MANAGER_DEPLOYMENT,
        "",
        "      - name: manager\n        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.8.0\n        command: [/manager]\n",
    );
    let (out, outcome) = run_twice(&text, &Config::default());
    assert_eq!(
        changed_lines(&text, &out).1,
        // a new list is indented under its key (the YAML layer's way of writing one)
        [
            "        args:",
            "          - --enableBMHNameBasedPreallocation=true"
        ]
    );
    assert_eq!(
        outcome.findings[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.template.spec.containers[0].args")
    );
}

#[test]
fn a_capm3_before_the_flag_gets_no_flag_and_a_warning() {
    let text = manager_without_flag("quay.io/metal3-io/cluster-api-provider-metal3:v1.1.2");
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "Deployment/capm3-controller-manager".into(),
            "spec.template.spec.containers[0].image".into()
        )]
    );
    assert!(warnings(&outcome)[0].contains("v1.1.2"));
}

#[test]
fn which_deployments_are_the_manager() {
    // Labelled or named: the manager. The IPAM (bundled in older CAPM3 components, with the
    // same label) and an unrelated Deployment are not.
    let image = "quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0";
    let c = |img: &str| {
        format!("      - name: manager\n        image: {img}\n        args: [--leader-elect]\n")
    };
    let label = "cluster.x-k8s.io/provider: infrastructure-metal3";
    for (name, labels, container, appended) in [
        (MANAGER_DEPLOYMENT, "", c(image), true),
        ("my-capm3", label, c(image), true),
        (
            "ipam-controller-manager",
            label,
            c("quay.io/metal3-io/ip-address-manager:v1.13.0"),
            false,
        ),
        (
            "renamed-ipam",
            label,
            c("quay.io/metal3-io/ip-address-manager:v1.13.0"),
            false,
        ),
        ("ipam-controller-manager", label, c(image), false),
        (
            "other",
            "cluster.x-k8s.io/provider: infrastructure-metal3x",
            c(image),
            false,
        ),
        ("other", "app: capm3", c(image), false),
    ] {
        let text = deployment(name, labels, &container);
        let (out, outcome) = run(&text);
        assert_eq!(out != text, appended, "{name} {labels}: {out}");
        // the ones that are not the manager leave no trace but the no-flag warning
        if !appended {
            assert_eq!(outcome.findings.len(), 1, "{name}: {:?}", outcome.findings);
            assert!(outcome.findings[0].resource_ref.is_none());
        }
    }
}

#[test]
fn a_manager_without_a_manager_container_is_a_warning() {
    let text = deployment(
        "x",
        "cluster.x-k8s.io/provider: infrastructure-metal3",
        "      - name: capm3\n        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0\n",
    );
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "Deployment/x".into(),
            "spec.template.spec.containers".into()
        )]
    );
}

#[test]
fn several_managers_each_get_their_own_spelling() {
    let a = manager_without_flag("quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0");
    let b = manager_without_flag("quay.io/metal3-io/cluster-api-provider-metal3:v1.11.0")
        .replace("namespace: capm3-system", "namespace: other-capm3");
    let text = format!("{a}---\n{b}");
    let (out, outcome) = run_twice(&text, &Config::default());
    assert_eq!(
        changed_lines(&text, &out).1,
        [
            "        - \"--enable-bmh-name-based-preallocation=true\"",
            "        - \"--enableBMHNameBasedPreallocation=true\""
        ]
    );
    assert_eq!(outcome.edits.len(), 2);
}

#[test]
fn a_manager_whose_args_cannot_be_read_is_not_overwritten() {
    let text = deployment(
        MANAGER_DEPLOYMENT,
        "",
        "      - name: manager\n        image: quay.io/metal3-io/cluster-api-provider-metal3:v1.13.0\n        args: --leader-elect\n",
    );
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "Deployment/capm3-controller-manager".into(),
            "spec.template.spec.containers[0].args".into()
        )]
    );
}

// ---- clusterctl variables ----

#[test]
fn variables_in_config_maps_and_secrets_become_true() {
    let text = "apiVersion: v1
kind: ConfigMap
metadata: {name: vars, namespace: ns}
data:
  OTHER: x
  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"false\" # set by ipreuse
  enableBMHNameBasedPreallocation: false
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: ns}
data:
  ENABLE_BMH_NAME_BASED_PREALLOCATION: ZmFsc2U=
stringData:
  enableBMHNameBasedPreallocation: 'no'
---
apiVersion: v1
kind: Secret
metadata: {name: on, namespace: ns}
data:
  # \"true\\n\" (echo true | base64): substituted into the arg, it would not parse
  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQo=
  KEEP: dHJ1ZQ==
stringData:
  enableBMHNameBasedPreallocation: \"True\"
";
    let (out, outcome) = run_twice(text, &Config::default());
    let (removed, added) = changed_lines(text, &out);
    assert_eq!(removed.len(), 5, "{out}");
    assert_eq!(
        added,
        [
            "  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\" # set by ipreuse",
            "  enableBMHNameBasedPreallocation: \"true\"",
            "  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ==",
            "  enableBMHNameBasedPreallocation: 'true'",
            "  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ==",
        ]
    );
    assert_eq!(
        results(&outcome),
        [
            (
                Severity::Info,
                "ConfigMap/vars".into(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".into()
            ),
            (
                Severity::Info,
                "ConfigMap/vars".into(),
                "data.enableBMHNameBasedPreallocation".into()
            ),
            (
                Severity::Info,
                "Secret/on".into(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".into()
            ),
            (
                Severity::Info,
                "Secret/s".into(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".into()
            ),
            (
                Severity::Info,
                "Secret/s".into(),
                "stringData.enableBMHNameBasedPreallocation".into()
            ),
        ]
    );
    // A Secret's values are never repeated in results.
    for f in &outcome.findings {
        if f.resource_ref.as_ref().is_some_and(|r| r.kind == "Secret") {
            assert!(
                !f.message.contains("false") && !f.message.contains("\"no\""),
                "{}",
                f.message
            );
        }
    }
}

#[test]
fn an_undecodable_secret_value_is_replaced_and_said_so() {
    let text = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: not-base64!\n";
    let (out, outcome) = run_twice(text, &Config::default());
    assert!(
        out.contains("  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ==\n"),
        "{out}"
    );
    assert!(outcome.findings[0].message.contains("is not base64"));
}

// ---- the Cluster API Operator's configSecret ----

fn provider(ns: Option<&str>, config_secret: &str, version: &str) -> String {
    let ns = ns
        .map(|n| format!("\n  namespace: {n}"))
        .unwrap_or_default();
    format!(
        "apiVersion: operator.cluster.x-k8s.io/v1alpha2
kind: InfrastructureProvider
metadata:
  name: metal3{ns}
spec:
  version: {version}
  configSecret: {config_secret}
"
    )
}

fn secret(ns: &str, name: &str, body: &str) -> String {
    format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}\n  namespace: {ns}\n{body}")
}

#[test]
fn the_config_secret_is_found_in_the_providers_namespace_by_default() {
    let text = format!(
        "{}---\n{}---\n{}",
        provider(Some("capm3-system"), "{name: capm3-vars}", "v1.10.0"),
        // same name elsewhere: not the one
        secret("default", "capm3-vars", "stringData:\n  OTHER: x\n"),
        secret("capm3-system", "capm3-vars", "stringData:\n  OTHER: x\n"),
    );
    let (out, outcome) = run_twice(&text, &Config::default());
    let (removed, added) = changed_lines(&text, &out);
    assert!(removed.is_empty());
    assert_eq!(added, ["  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\""]);
    assert_eq!(outcome.edits.len(), 1);
    assert_eq!(
        outcome.edits[0].item,
        crate::model::ItemId(2),
        "the Secret in the provider's namespace"
    );
    assert_eq!(
        results(&outcome),
        [(
            Severity::Info,
            "Secret/capm3-vars".into(),
            "stringData.ENABLE_BMH_NAME_BASED_PREALLOCATION".into()
        )]
    );
}

#[test]
fn the_config_secret_namespace_is_read_when_written() {
    let text = format!(
        "{}---\n{}",
        provider(
            Some("capm3-system"),
            "{name: vars, namespace: shared}",
            "v1.10.0"
        ),
        secret("shared", "vars", "stringData: {}\n"),
    );
    let (out, _) = run_twice(&text, &Config::default());
    assert!(
        out.ends_with("stringData:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n"),
        "{out}"
    );
}

#[test]
fn data_gets_base64_and_string_data_gets_text() {
    for (body, expected) in [
        (
            "type: Opaque\ndata:\n  OTHER: eA==\n",
            "data:\n  OTHER: eA==\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"dHJ1ZQ==\"\n",
        ),
        (
            "stringData:\n  OTHER: x\n",
            "stringData:\n  OTHER: x\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n",
        ),
        // both: stringData, which people read and the API server lets win
        (
            "data:\n  A: eA==\nstringData:\n  B: x\n",
            "stringData:\n  B: x\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n",
        ),
        // neither: a new stringData
        (
            "type: Opaque\n",
            "type: Opaque\nstringData:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n",
        ),
    ] {
        let text = format!(
            "{}---\n{}",
            provider(Some("capm3-system"), "{name: vars}", "v1.9.0"),
            secret("capm3-system", "vars", body),
        );
        let (out, _) = run_twice(&text, &Config::default());
        assert!(out.ends_with(expected), "{body:?}:\n{out}");
    }
}

#[test]
fn the_variable_is_spelled_for_the_version() {
    for (config, provider_version, var, warned) in [
        (Config::default(), "v1.7.2", VAR_CAMEL, false),
        (Config::default(), "v1.8.0", VAR_UPPER, false),
        (with_version("v1.5.0"), "v1.8.0", VAR_CAMEL, false),
        (Config::default(), "${CAPM3_VERSION}", VAR_UPPER, true),
        (Config::default(), "latest", VAR_UPPER, true),
    ] {
        let text = format!(
            "{}---\n{}",
            provider(Some("n"), "{name: vars}", provider_version),
            secret("n", "vars", "stringData:\n  A: x\n"),
        );
        let (out, outcome) = run_twice(&text, &config);
        assert!(
            out.ends_with(&format!("  {var}: \"true\"\n")),
            "{provider_version}: {out}"
        );
        assert_eq!(
            warnings(&outcome).len(),
            usize::from(warned),
            "{provider_version}"
        );
    }
    // Before v1.2 there is no variable to add.
    let text = format!(
        "{}---\n{}",
        provider(Some("n"), "{name: vars}", "v1.1.0"),
        secret("n", "vars", "stringData:\n  A: x\n"),
    );
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "InfrastructureProvider/metal3".into(),
            "spec.version".into()
        )]
    );
}

#[test]
fn a_secret_holding_the_variable_is_only_set() {
    let text = format!(
        "{}---\n{}",
        provider(Some("n"), "{name: vars}", "v1.7.0"),
        secret(
            "n",
            "vars",
            "data:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: ZmFsc2U=\n"
        ),
    );
    let (out, outcome) = run_twice(&text, &Config::default());
    assert!(
        out.ends_with("data:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: dHJ1ZQ==\n"),
        "{out}"
    );
    assert_eq!(
        outcome.edits.len(),
        1,
        "set, not added in the v1.7 spelling too"
    );
}

#[test]
fn a_missing_config_secret_is_a_warning_on_the_provider() {
    let text = provider(None, "{name: capm3-vars}", "v1.10.0");
    let (out, outcome) = run(&text);
    assert_eq!(out, text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "InfrastructureProvider/metal3".into(),
            "spec.configSecret.name".into()
        )]
    );
    assert!(
        warnings(&outcome)[0].contains("default/capm3-vars"),
        "{:?}",
        warnings(&outcome)
    );
}

#[test]
fn a_provider_without_config_secret_is_a_warning() {
    let text = "apiVersion: operator.cluster.x-k8s.io/v1alpha1\nkind: InfrastructureProvider\nmetadata: {name: metal3, namespace: capm3-system}\nspec: {version: v1.13.0}\n";
    let (_, outcome) = run(text);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Warning,
            "InfrastructureProvider/metal3".into(),
            "spec.configSecret".into()
        )]
    );
    // Other providers are not CAPM3.
    let other = text.replace("name: metal3", "name: metal3x");
    let (_, outcome) = run(&other);
    assert!(
        outcome.findings[0].resource_ref.is_none(),
        "only the no-flag warning"
    );
}

// ---- the Cluster API Operator's args map ----

/// An InfrastructureProvider `metal3` with a Secret that holds the variable already, and
/// `containers` as `spec.deployment.containers`.
fn provider_with_args(containers: &str) -> String {
    format!(
        "apiVersion: operator.cluster.x-k8s.io/v1alpha2
kind: InfrastructureProvider
metadata: {{name: metal3, namespace: capm3-system}}
spec:
  version: v1.13.0
  configSecret: {{name: vars}}
  deployment:
    containers:
{containers}---
{}",
        secret(
            "capm3-system",
            "vars",
            "stringData:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n"
        )
    )
}

#[test]
fn the_operators_args_map_is_set_to_true_in_either_spelling() {
    for (arg_line, new_line, was) in [
        (
            "        \"--enable-bmh-name-based-preallocation\": \"false\"",
            "        \"--enable-bmh-name-based-preallocation\": \"true\"",
            "\"false\"",
        ),
        (
            "        --enableBMHNameBasedPreallocation: 'off' # old spelling",
            "        --enableBMHNameBasedPreallocation: 'true' # old spelling",
            "\"off\"",
        ),
        (
            "        --enable-bmh-name-based-preallocation: \"\"",
            "        --enable-bmh-name-based-preallocation: \"true\"",
            "\"\"",
        ),
        // not a string (the CRD wants one): a quoted "true"
        (
            "        --enable-bmh-name-based-preallocation: false",
            "        --enable-bmh-name-based-preallocation: \"true\"",
            "false, not a string",
        ),
        (
            "        --enable-bmh-name-based-preallocation: true",
            "        --enable-bmh-name-based-preallocation: \"true\"",
            "true, not a string",
        ),
    ] {
        let text = provider_with_args(&format!(
            "    - name: manager\n      args:\n        --leader-elect: \"true\"\n{arg_line}\n"
        ));
        let (out, outcome) = run_twice(&text, &Config::default());
        let (removed, added) = changed_lines(&text, &out);
        assert_eq!(
            (removed, added),
            (vec![arg_line.to_string()], vec![new_line.to_string()])
        );
        let key = arg_line
            .trim()
            .split(':')
            .next()
            .unwrap_or("")
            .trim_matches('"');
        assert_eq!(
            results(&outcome),
            [(
                Severity::Info,
                "InfrastructureProvider/metal3".to_string(),
                format!("spec.deployment.containers[0].args.{key}")
            )],
            "{arg_line}"
        );
        assert!(
            outcome.findings[0]
                .message
                .contains(&format!("(was {was};")),
            "{}",
            outcome.findings[0].message
        );
    }
}

#[test]
fn an_operator_arg_that_reads_true_or_another_arg_is_left_alone() {
    for args in [
        "        --enable-bmh-name-based-preallocation: \"true\"\n",
        "        --enableBMHNameBasedPreallocation: \"1\"\n",
        "        --enable-bmh-name-based-preallocation: \"True\"\n",
        // not the flag: no dashes (the operator would write a positional argument), a longer name
        "        enable-bmh-name-based-preallocation: \"false\"\n",
        "        --enable-bmh-name-based-preallocations: \"false\"\n",
    ] {
        let text = provider_with_args(&format!("    - name: manager\n      args:\n{args}"));
        let (out, outcome) = run(&text);
        assert_eq!(out, text, "{args}");
        assert!(
            outcome.findings.is_empty(),
            "{args}: {:?}",
            outcome.findings
        );
    }
    // every container is read, each at its own position
    let text = provider_with_args(
        "    - name: kube-rbac-proxy\n      args: {--v: \"2\"}\n    - name: manager\n      args: {--enable-bmh-name-based-preallocation: \"false\"}\n",
    );
    let (out, outcome) = run_twice(&text, &Config::default());
    assert!(
        out.contains("args: {--enable-bmh-name-based-preallocation: \"true\"}"),
        "{out}"
    );
    assert_eq!(
        results(&outcome)[0].2,
        "spec.deployment.containers[1].args.--enable-bmh-name-based-preallocation"
    );
}

#[test]
fn an_operator_args_map_of_the_wrong_shape_is_a_warning() {
    for (containers, field) in [
        (
            "    - name: manager\n      args: [--x]\n",
            "spec.deployment.containers[0].args",
        ),
        ("    - manager\n", "spec.deployment.containers[0]"),
    ] {
        let text = provider_with_args(containers);
        let (out, outcome) = run(&text);
        assert_eq!(out, text);
        assert_eq!(
            results(&outcome),
            [(
                Severity::Warning,
                "InfrastructureProvider/metal3".to_string(),
                field.to_string()
            )],
            "{containers}"
        );
    }
    let text = provider_with_args("    - name: manager\n").replace(
        "  deployment:\n    containers:\n    - name: manager\n",
        "  deployment: [x]\n",
    );
    let (_, outcome) = run(&text);
    assert_eq!(results(&outcome)[0].2, "spec.deployment");
}

#[test]
fn check_mode_fails_until_the_operators_arg_is_true() {
    let text = provider_with_args(
        "    - name: manager\n      args:\n        --enable-bmh-name-based-preallocation: \"false\"\n",
    );
    let check = Config {
        mode: Mode::Check,
        ..Config::default()
    };
    // (the run discards check mode's edits; the results are what it reports)
    let (_, outcome) = run_with(&text, &check);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Error,
            "InfrastructureProvider/metal3".to_string(),
            "spec.deployment.containers[0].args.--enable-bmh-name-based-preallocation".to_string()
        )]
    );
    let (filled, _) = run(&text);
    let (_, outcome) = run_with(&filled, &check);
    assert!(outcome.findings.is_empty(), "{:?}", outcome.findings);
}

// ---- clusterctl.yaml in a ConfigMap ----

fn clusterctl_config_map(file: &str) -> String {
    let body: String = file
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("    {l}\n")
            }
        })
        .collect();
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: clusterctl-config\n  namespace: capi-system\ndata:\n  clusterctl.yaml: |\n{body}"
    )
}

#[test]
fn clusterctl_yaml_gets_the_top_level_variable() {
    let file = "# clusterctl configuration\nproviders:\n  - name: metal3\n    url: https://example.com/infrastructure-components.yaml\n    type: InfrastructureProvider\nCLUSTER_TOPOLOGY: \"true\"\n";
    let text = clusterctl_config_map(file);
    let (out, outcome) = run_twice(&text, &with_version("v1.9.0"));
    let (removed, added) = changed_lines(&text, &out);
    assert!(removed.is_empty(), "{out}");
    assert_eq!(added, ["    ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\""]);
    assert_eq!(
        results(&outcome),
        [(
            Severity::Info,
            "ConfigMap/clusterctl-config".into(),
            "data.[clusterctl.yaml]".into()
        )]
    );
}

#[test]
fn clusterctl_yaml_top_level_false_becomes_true_in_its_style() {
    let file = "ENABLE_BMH_NAME_BASED_PREALLOCATION: false # off for now\nOTHER: x\n";
    let text = clusterctl_config_map(file);
    let (out, outcome) = run_twice(&text, &Config::default());
    assert_eq!(
        changed_lines(&text, &out),
        (
            vec!["    ENABLE_BMH_NAME_BASED_PREALLOCATION: false # off for now".into()],
            vec!["    ENABLE_BMH_NAME_BASED_PREALLOCATION: true # off for now".into()]
        )
    );
    assert!(warnings(&outcome).is_empty());
}

#[test]
fn clusterctl_yaml_nested_variables_are_set_too_with_a_warning() {
    let file = "variables:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"false\"\n  OTHER: x\n";
    let text = clusterctl_config_map(file);
    let (out, outcome) = run_twice(&text, &with_version("v1.13.0"));
    let (removed, added) = changed_lines(&text, &out);
    assert_eq!(
        removed,
        ["      ENABLE_BMH_NAME_BASED_PREALLOCATION: \"false\""]
    );
    assert_eq!(
        added,
        [
            "      ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"",
            "    ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\""
        ]
    );
    assert_eq!(
        results(&outcome),
        [
            (
                Severity::Warning,
                "ConfigMap/clusterctl-config".into(),
                "data.[clusterctl.yaml]".into()
            ),
            (
                Severity::Info,
                "ConfigMap/clusterctl-config".into(),
                "data.[clusterctl.yaml]".into()
            ),
        ]
    );
    assert!(warnings(&outcome)[0].contains("top-level keys only"));
}

#[test]
fn clusterctl_yaml_empty_or_only_comments() {
    for (value, expected) in [
        (
            "\"\"\n",
            "\"ENABLE_BMH_NAME_BASED_PREALLOCATION: \\\"true\\\"\\n\"\n",
        ),
        (
            "|\n    # nothing yet\n",
            "|\n    # nothing yet\n    ENABLE_BMH_NAME_BASED_PREALLOCATION: \"true\"\n",
        ),
    ] {
        let text = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  clusterctl.yaml: {value}"
        );
        let (out, _) = run_twice(&text, &with_version("v1.13.0"));
        assert!(
            out.ends_with(&format!("clusterctl.yaml: {expected}")),
            "{value}:\n{out}"
        );
    }
}

#[test]
fn clusterctl_yaml_that_is_not_a_mapping_is_a_warning() {
    for value in [
        "\"- a\\n- b\\n\"",
        "\"a: [\"",
        "\"a: 1\\n---\\nb: 2\\n\"",
        "5",
    ] {
        let text = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  clusterctl.yaml: {value}\n"
        );
        let (out, outcome) = run_with(&text, &with_version("v1.13.0"));
        assert_eq!(out, text, "{value}");
        assert_eq!(
            results(&outcome),
            [(
                Severity::Warning,
                "ConfigMap/c".into(),
                "data.[clusterctl.yaml]".into()
            )],
            "{value}"
        );
    }
}

// ---- everything together ----

#[test]
fn no_flag_anywhere_is_one_warning() {
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {A: b}\n---\napiVersion: ipam.metal3.io/v1alpha1\nkind: IPPool\nmetadata: {name: p}\nspec: {namePrefix: p}\n";
    let (_, outcome) = run(text);
    assert_eq!(outcome.findings.len(), 1);
    assert_eq!(outcome.findings[0].severity, Severity::Warning);
    let message = &outcome.findings[0].message;
    assert!(message.contains("controllerFlag: false"));
    // Every run without a config says it: one short line that points at the explanation.
    assert!(
        message.contains("docs/behaviour.md#the-capm3-controller-flag"),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message}");
    assert!(
        message.len() < 300,
        "{} characters: {message}",
        message.len()
    );
    // With a typed functionConfig, it points at the field.
    let config = Config {
        source: crate::config::ConfigSource {
            resource_ref: Some(crate::results::ResourceRef {
                api_version: "fn.ipreuse.dev/v1alpha1".into(),
                kind: "IPReuse".into(),
                name: "cfg".into(),
                namespace: None,
            }),
            config_map: false,
        },
        ..Config::default()
    };
    let (_, outcome) = run_with(text, &config);
    assert_eq!(
        outcome.findings[0].field.as_ref().map(|f| f.path.as_str()),
        Some("spec.controllerFlag")
    );
    // A flag that is on already counts as found.
    let on = deployment(
        "d",
        "",
        "      - name: x\n        args: [--enable-bmh-name-based-preallocation=true]\n",
    );
    let (_, outcome) = run(&on);
    assert!(outcome.findings.is_empty());
}

#[test]
fn local_config_objects_are_never_read_or_changed() {
    let text = "apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  annotations: {config.kubernetes.io/local-config: \"true\"}
data:
  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"false\"
";
    let (out, outcome) = run(text);
    assert_eq!(out, text);
    assert_eq!(outcome.findings.len(), 1, "only the no-flag warning");
}

#[test]
fn check_mode_reports_each_edit_at_its_object_and_field() {
    let config = Config {
        mode: Mode::Check,
        ..Config::default()
    };
    let text = format!(
        "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: vars}}\ndata:\n  ENABLE_BMH_NAME_BASED_PREALLOCATION: \"false\"\n",
        deployment(MANAGER_DEPLOYMENT, "", MANAGER_V113)
    );
    let (_, outcome) = run_with(&text, &config);
    assert_eq!(
        results(&outcome),
        [
            (
                Severity::Error,
                "ConfigMap/vars".into(),
                "data.ENABLE_BMH_NAME_BASED_PREALLOCATION".into()
            ),
            (
                Severity::Error,
                "Deployment/capm3-controller-manager".into(),
                "spec.template.spec.containers[0].args[1]".into()
            ),
        ]
    );
    assert!(
        outcome
            .findings
            .iter()
            .all(|f| f.message.starts_with("check: "))
    );
}

#[test]
fn the_order_of_the_items_does_not_matter() {
    let docs = [
        deployment(MANAGER_DEPLOYMENT, "", MANAGER_V113),
        provider(Some("capm3-system"), "{name: vars}", "v1.10.0"),
        secret("capm3-system", "vars", "data:\n  OTHER: eA==\n"),
        clusterctl_config_map("OTHER: x\n"),
    ];
    let per_item = |order: &[usize]| {
        let text = order
            .iter()
            .map(|&i| docs[i].clone())
            .collect::<Vec<_>>()
            .join("---\n");
        let (out, outcome) = run(&text);
        let mut findings: Vec<(Severity, String, String, String)> = outcome
            .findings
            .iter()
            .map(|f| {
                (
                    f.severity,
                    format!("{:?}", f.resource_ref),
                    format!("{:?}", f.field),
                    f.message.clone(),
                )
            })
            .collect();
        findings.sort();
        let mut items: Vec<String> = out.split("---\n").map(String::from).collect();
        items.sort();
        (items, findings)
    };
    let first = per_item(&[0, 1, 2, 3]);
    for order in [[3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
        assert_eq!(per_item(&order), first, "{order:?}");
    }
}
