//! The Argo CD Config Management Plugin of `functions/ipreuse/argocd/`.
//!
//! `plugin.yaml` is parsed, and its `discover`, `init` and `generate` are run the way Argo CD's
//! `argocd-cmp-server` runs them: `command` followed by `args`, exec'd without a shell of its
//! own, in the application's folder (here a temporary copy of `argocd/example-app`), with the
//! build environment (`ARGOCD_APP_*`, `KUBE_VERSION`, `KUBE_API_VERSIONS`) and the
//! Application's `plugin.env` entries prefixed with `ARGOCD_ENV_` (an empty value passed as
//! empty, as Argo CD 3 does; 2.x left such entries out, which the plugin treats alike); `init`
//! first, then `generate`, whose stdout is what Argo CD would apply. A successful generate must
//! write nothing on stderr: Argo CD 3's plugin server captures stderr with stdout, and a
//! warning there would be read as part of the manifests. `discover.fileName` is matched as the server matches it: a glob
//! in the application folder, which for a name without glob characters matches exactly when
//! the file exists.
//!
//! The sidecar image has bash, kustomize and ipreuse on `PATH`. Here `PATH` starts with a
//! folder holding the binary cargo built, as `ipreuse`, and a `kustomize` that runs
//! `kubectl kustomize` (`kustomize build DIR` → `kubectl kustomize DIR`: the same kustomize
//! library). bash and kubectl must be installed: without them these tests fail, they never
//! skip.
//!
//! The sidecar patch and the Component are built with `kubectl kustomize` on a stand-in of the
//! stock `argocd-repo-server` Deployment (the volumes and container Argo CD's install.yaml has),
//! and the result is checked: the sidecar, its user, the `plugin.yaml` mount at the path the
//! plugin server reads, the generated ConfigMap it mounts.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ipreuse");

fn argocd_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("functions/ipreuse/argocd")
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{} is not YAML: {e}", path.display()))
}

fn docs(text: &str) -> Vec<Value> {
    serde_saphyr::from_multiple(text).unwrap_or_else(|e| panic!("not YAML: {e}\n{text}"))
}

fn plugin() -> Value {
    yaml(&argocd_dir().join("plugin.yaml"))
}

/// `command` + `args` of a step of the plugin's spec, as the plugin server joins them.
fn step(plugin: &Value, name: &str) -> Vec<String> {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|s| s.as_str().expect("a string").to_string())
            .collect()
    };
    let spec = &plugin["spec"][name];
    let mut cmd = strings(&spec["command"]);
    assert!(!cmd.is_empty(), "spec.{name}.command is empty");
    cmd.extend(strings(&spec["args"]));
    cmd
}

/// Finds a program on the test's `PATH`, or fails saying how to get it.
fn require(program: &str, how: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("`{program}` is not on PATH: {how}. These tests never skip."))
}

/// A sandbox: the tools folder that goes first on `PATH`, and a place for app copies.
struct Sandbox {
    tmp: tempfile::TempDir,
    path: OsString,
}

impl Sandbox {
    fn new() -> Sandbox {
        require("bash", "apt-get install -y bash");
        let kubectl = require(
            "kubectl",
            "install kubectl (its `kubectl kustomize` stands in for the sidecar's kustomize)",
        );
        let tmp = tempfile::tempdir().expect("tmp");
        let tools = tmp.path().join("tools");
        std::fs::create_dir(&tools).expect("mkdir");
        std::os::unix::fs::symlink(BIN, tools.join("ipreuse")).expect("symlink");
        let shim = tools.join("kustomize");
        std::fs::write(
            &shim,
            format!(
                "#!/bin/sh\n[ \"$1\" = build ] || {{ echo \"kustomize (test stand-in): only build\" >&2; exit 2; }}\nshift\nexec '{}' kustomize \"$@\"\n",
                kubectl.display()
            ),
        )
        .expect("write the kustomize shim");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let mut dirs = vec![tools];
        dirs.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let path = std::env::join_paths(dirs).expect("PATH");
        Sandbox { tmp, path }
    }

    /// A copy of `argocd/example-app` in its own folder, `sites/a` of a checkout, as the plugin
    /// server unpacks one.
    fn app(&self, name: &str) -> PathBuf {
        let app = self.tmp.path().join(name).join("sites/a");
        std::fs::create_dir_all(&app).expect("mkdir");
        let from = argocd_dir().join("example-app");
        for entry in std::fs::read_dir(&from).expect("example-app") {
            let entry = entry.expect("example-app");
            std::fs::copy(entry.path(), app.join(entry.file_name())).expect("copy");
        }
        app
    }

    /// The `TMPDIR` of the commands (the sidecar's own `/tmp`): empty after every run.
    fn scratch(&self) -> PathBuf {
        let dir = self.tmp.path().join("scratch");
        std::fs::create_dir_all(&dir).expect("mkdir");
        dir
    }

    /// A marker path that a command injection would create.
    fn marker(&self, name: &str) -> PathBuf {
        self.tmp.path().join(format!("PWNED-{name}"))
    }

    /// Runs `cmd` as the plugin server does, with `env` as the Application's `plugin.env`.
    fn run(&self, cmd: &[String], app: &Path, env: &[(&str, &str)]) -> Output {
        let mut c = Command::new(&cmd[0]);
        c.args(&cmd[1..])
            .current_dir(app)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", self.tmp.path())
            .env("TMPDIR", self.scratch())
            .env("ARGOCD_APP_NAME", "site-a-hosts")
            .env("ARGOCD_APP_NAMESPACE", "metal3")
            .env(
                "ARGOCD_APP_REVISION",
                "0f3c1a9e5d7b2c4e6a8f0b1d3c5e7a9b2d4f6a8c",
            )
            .env("ARGOCD_APP_REVISION_SHORT", "0f3c1a9")
            .env("ARGOCD_APP_SOURCE_PATH", "sites/a")
            .env(
                "ARGOCD_APP_SOURCE_REPO_URL",
                "https://git.example.com/infra/clusters.git",
            )
            .env("ARGOCD_APP_SOURCE_TARGET_REVISION", "main")
            .env("KUBE_VERSION", "1.33.1")
            .env(
                "KUBE_API_VERSIONS",
                "v1,apps/v1,ipam.metal3.io/v1alpha1,metal3.io/v1alpha1",
            );
        for (k, v) in env {
            c.env(format!("ARGOCD_ENV_{k}"), v);
        }
        c.output()
            .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd[0]))
    }

    /// `init`, then `generate`, as one manifest generation; the first failure is returned.
    fn generate(&self, app: &Path, env: &[(&str, &str)]) -> Output {
        let plugin = plugin();
        let init = self.run(&step(&plugin, "init"), app, env);
        if !init.status.success() {
            return init;
        }
        let out = self.run(&step(&plugin, "generate"), app, env);
        let left: Vec<_> = std::fs::read_dir(self.scratch())
            .expect("scratch")
            .map(|e| e.expect("scratch").file_name())
            .collect();
        assert!(left.is_empty(), "generate left temp files: {left:?}");
        out
    }
}

fn show(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Whether `discover` matches the app folder, as the plugin server decides it.
fn discovers(app: &Path) -> bool {
    let discover = &plugin()["spec"]["discover"];
    let name = discover["fileName"]
        .as_str()
        .expect("discover.fileName: the marker file");
    assert!(
        !name.contains(['*', '?', '[', '\\']),
        "discover.fileName is matched here as a plain name, not a glob: {name}"
    );
    assert!(
        discover.get("find").is_none(),
        "only discover.fileName is evaluated when it is set: {discover}"
    );
    // Go's filepath.Glob on a pattern without glob characters: an Lstat.
    std::fs::symlink_metadata(app.join(name.trim_start_matches('/'))).is_ok()
}

/// (kind, namespace/name) of every object of a generate's output.
fn objects(out: &[Value]) -> BTreeSet<(String, String)> {
    out.iter()
        .map(|d| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                s(&d["kind"]),
                format!(
                    "{}/{}",
                    s(&d["metadata"]["namespace"]),
                    s(&d["metadata"]["name"])
                ),
            )
        })
        .collect()
}

fn expected_objects() -> BTreeSet<(String, String)> {
    [
        ("BareMetalHost", "metal3/node-1"),
        ("BareMetalHost", "metal3/node-2"),
        ("IPPool", "metal3/provisioning"),
    ]
    .iter()
    .map(|(k, n)| (k.to_string(), n.to_string()))
    .collect()
}

/// Checks a successful generate: the app's resources, the pool filled, nothing local.
fn assert_filled(out: &Output) {
    assert!(out.status.success(), "generate failed: {}", show(out));
    assert!(
        out.stderr.is_empty(),
        "a successful generate wrote on stderr, which Argo CD may read as manifests: {}",
        show(out)
    );
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    let docs = docs(&text);
    assert_eq!(objects(&docs), expected_objects(), "{text}");
    let pool = docs
        .iter()
        .find(|d| d["kind"] == "IPPool")
        .expect("the IPPool");
    assert_eq!(
        pool["spec"]["preAllocations"],
        serde_json::json!({"node-1-provisioning": "172.22.0.100", "node-2-provisioning": "172.22.0.101"}),
        "{text}"
    );
}

#[test]
fn plugin_yaml_is_a_config_management_plugin_an_application_can_name() {
    let plugin = plugin();
    assert_eq!(plugin["apiVersion"], "argoproj.io/v1alpha1");
    assert_eq!(plugin["kind"], "ConfigManagementPlugin");
    let name = plugin["metadata"]["name"].as_str().expect("metadata.name");
    let version = plugin["spec"]["version"].as_str().expect("spec.version");
    assert_eq!((name, version), ("ipreuse", "v1"));

    let generate = step(&plugin, "generate");
    assert_eq!(generate[..2], ["bash", "-c"], "{generate:?}");
    assert_eq!(generate.len(), 3, "one script: {generate:?}");
    assert_eq!(
        generate[2].lines().next(),
        Some("set -euo pipefail"),
        "the script's first line"
    );
    assert_eq!(step(&plugin, "init"), ["ipreuse", "--version"]);
    assert_eq!(plugin["spec"]["discover"]["fileName"], "ipreuse.yaml");

    // The example Application names the plugin as Argo CD looks it up: name-version.
    let app = yaml(&argocd_dir().join("application.yaml"));
    assert_eq!(app["kind"], "Application");
    assert_eq!(app["apiVersion"], "argoproj.io/v1alpha1");
    assert_eq!(
        app["spec"]["source"]["plugin"]["name"],
        format!("{name}-{version}")
    );
    let env = app["spec"]["source"]["plugin"]["env"]
        .as_array()
        .expect("plugin.env");
    assert!(
        env.iter().any(|e| e["name"] == "IPREUSE_CONFIG"),
        "the Application sets IPREUSE_CONFIG (ARGOCD_ENV_IPREUSE_CONFIG in the plugin): {env:?}"
    );
    assert!(
        generate[2].contains("ARGOCD_ENV_IPREUSE_CONFIG"),
        "generate reads ARGOCD_ENV_IPREUSE_CONFIG"
    );
}

#[test]
fn discover_matches_an_app_with_the_marker_and_not_one_without() {
    let sandbox = Sandbox::new();
    let app = sandbox.app("marked");
    assert!(discovers(&app), "the example app holds ipreuse.yaml");
    let bare = sandbox.app("unmarked");
    std::fs::remove_file(bare.join("ipreuse.yaml")).expect("rm");
    assert!(!discovers(&bare), "an app without ipreuse.yaml matched");
    // The marker is looked for in the app folder, not above it.
    assert!(!discovers(bare.parent().expect("sites")));
}

#[test]
fn generate_builds_a_kustomize_app_and_fills_its_pool() {
    let sandbox = Sandbox::new();
    let app = sandbox.app("kustomize");
    assert!(app.join("kustomization.yaml").is_file());
    let out = sandbox.generate(&app, &[]);
    assert_filled(&out);
    // With the config named explicitly, or an empty value (the default), the same.
    let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", "./ipreuse.yaml")]);
    assert_filled(&out);
    let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", "")]);
    assert_filled(&out);
    // The config counts: prune off by default; a config that narrows the pools to a missing
    // one is an error, so the config file is really read.
    std::fs::write(
        app.join("other.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  pools: nosuchpool\n",
    )
    .expect("write");
    let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", "other.yaml")]);
    assert!(!out.status.success(), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nosuchpool"),
        "{}",
        show(&out)
    );
}

#[test]
fn generate_reads_a_plain_folder_and_leaves_the_config_out() {
    let sandbox = Sandbox::new();
    let app = sandbox.app("plain");
    std::fs::remove_file(app.join("kustomization.yaml")).expect("rm");
    // A subfolder is read too; a hidden one is not.
    std::fs::create_dir(app.join("hosts")).expect("mkdir");
    std::fs::rename(app.join("hosts.yaml"), app.join("hosts/all.yml")).expect("mv");
    std::fs::create_dir(app.join(".github")).expect("mkdir");
    std::fs::write(app.join(".github/ci.yaml"), "on: push\n").expect("write");
    let out = sandbox.generate(&app, &[]);
    assert_filled(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("IPReuse"), "the config was printed:\n{text}");
}

#[test]
fn env_values_with_shell_metacharacters_are_data_never_run() {
    let sandbox = Sandbox::new();
    for layout in ["kustomize", "plain"] {
        let app = sandbox.app(&format!("inject-{layout}"));
        if layout == "plain" {
            std::fs::remove_file(app.join("kustomization.yaml")).expect("rm");
        }
        let marker = sandbox.marker(layout);
        let m = marker.display();
        let values = [
            format!("x; touch {m}"),
            format!("$(touch {m})"),
            format!("`touch {m}`"),
            format!("x' ; touch {m}; echo '"),
            format!("x\" ; touch {m}; echo \""),
            format!("x\ntouch {m}"),
            format!("x && touch {m} #"),
            "--in-place".to_string(),
        ];
        for value in &values {
            let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", value)]);
            assert!(
                !marker.exists(),
                "{layout}: IPREUSE_CONFIG={value:?} ran a command: {}",
                show(&out)
            );
            assert_eq!(
                out.status.code(),
                Some(2),
                "{layout}: IPREUSE_CONFIG={value:?}: {}",
                show(&out)
            );
            assert!(out.stdout.is_empty(), "{layout}: {}", show(&out));
            // The value reached ipreuse whole, as the config's path.
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(&format!("reading --config {value}")),
                "{layout}: IPREUSE_CONFIG={value:?}: {}",
                show(&out)
            );
        }
        // A file whose name is full of metacharacters is a config like any other.
        let odd = "cfg; touch x $(y) `z`.yaml";
        std::fs::copy(app.join("ipreuse.yaml"), app.join(odd)).expect("copy");
        let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", odd)]);
        assert_filled(&out);
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("IPReuse"),
            "{layout}: the config file was printed"
        );
        std::fs::remove_file(app.join(odd)).expect("rm");
    }
}

#[test]
fn a_config_outside_the_app_folder_is_refused() {
    let sandbox = Sandbox::new();
    let app = sandbox.app("outside");
    std::fs::copy(
        app.join("ipreuse.yaml"),
        app.parent().expect("sites").join("ipreuse.yaml"),
    )
    .expect("copy");
    for value in [
        "../ipreuse.yaml",
        "/etc/hostname",
        "..",
        "a/../../ipreuse.yaml",
    ] {
        let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", value)]);
        assert_eq!(out.status.code(), Some(2), "{value}: {}", show(&out));
        assert!(out.stdout.is_empty(), "{value}: {}", show(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("IPREUSE_CONFIG must be a relative path inside the application folder"),
            "{value}: {}",
            show(&out)
        );
    }
}

#[test]
fn an_error_result_fails_generate_with_the_message_and_nothing_to_apply() {
    let sandbox = Sandbox::new();
    for layout in ["kustomize", "plain"] {
        let app = sandbox.app(&format!("error-{layout}"));
        if layout == "plain" {
            std::fs::remove_file(app.join("kustomization.yaml")).expect("rm");
        }
        let pool = std::fs::read_to_string(app.join("ippools.yaml")).expect("read");
        std::fs::write(
            app.join("ippools.yaml"),
            format!("{pool}  preAllocations:\n    node-1-provisioning: \"10.0.0.5\"\n"),
        )
        .expect("write");
        let out = sandbox.generate(&app, &[]);
        assert_eq!(out.status.code(), Some(1), "{layout}: {}", show(&out));
        assert!(
            out.stdout.is_empty(),
            "{layout}: printed something Argo CD would apply: {}",
            show(&out)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("IPPool metal3/provisioning")
                && stderr.contains("node-1-provisioning")
                && stderr.contains("10.0.0.5"),
            "{layout}: {}",
            show(&out)
        );
    }
}

#[test]
fn a_failing_kustomize_build_fails_generate_instead_of_an_empty_render() {
    // Without pipefail, ipreuse would read kustomize's empty stdout, print nothing and
    // succeed, and Argo CD would see an application without resources (and prune them all).
    let sandbox = Sandbox::new();
    let app = sandbox.app("broken");
    std::fs::write(
        app.join("kustomization.yaml"),
        "resources:\n  - hosts.yaml\n  - missing.yaml\n",
    )
    .expect("write");
    let out = sandbox.generate(&app, &[]);
    assert!(!out.status.success(), "{}", show(&out));
    assert!(out.stdout.is_empty(), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("missing.yaml"),
        "kustomize's message: {}",
        show(&out)
    );
}

/// The stock argocd-repo-server Deployment, as far as the patch relies on it: its container,
/// the `var-files` volume that `copyutil` fills with argocd-cmp-server, the `plugins` volume
/// for the sockets, and a `tmp` volume of its own.
const REPO_SERVER: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: argocd-repo-server}
  template:
    metadata:
      labels: {app.kubernetes.io/name: argocd-repo-server}
    spec:
      initContainers:
        - name: copyutil
          image: quay.io/argoproj/argocd:v3.1.8
          command: [/bin/cp, -n, /usr/local/bin/argocd, /var/run/argocd/argocd-cmp-server]
          volumeMounts:
            - {name: var-files, mountPath: /var/run/argocd}
      containers:
        - name: argocd-repo-server
          image: quay.io/argoproj/argocd:v3.1.8
          volumeMounts:
            - {name: plugins, mountPath: /home/argocd/cmp-server/plugins}
            - {name: tmp, mountPath: /tmp}
      volumes:
        - {name: var-files, emptyDir: {}}
        - {name: plugins, emptyDir: {}}
        - {name: tmp, emptyDir: {}}
";

#[test]
fn the_sidecar_patch_mounts_plugin_yaml_where_the_plugin_server_reads_it() {
    let kubectl = require("kubectl", "install kubectl");
    let tmp = tempfile::tempdir().expect("tmp");
    // The Component as an operator adds it: `components:` of the Argo CD install.
    let component = tmp.path().join("ipreuse-argocd");
    std::fs::create_dir(&component).expect("mkdir");
    for file in [
        "kustomization.yaml",
        "plugin.yaml",
        "repo-server-patch.yaml",
    ] {
        std::fs::copy(argocd_dir().join(file), component.join(file)).expect("copy");
    }
    std::fs::write(tmp.path().join("repo-server.yaml"), REPO_SERVER).expect("write");
    std::fs::write(
        tmp.path().join("kustomization.yaml"),
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\n\
         resources: [repo-server.yaml]\ncomponents: [ipreuse-argocd]\n",
    )
    .expect("write");
    let out = Command::new(&kubectl)
        .arg("kustomize")
        .arg(tmp.path())
        .output()
        .expect("kubectl");
    assert!(out.status.success(), "kubectl kustomize: {}", show(&out));
    let built = docs(&String::from_utf8(out.stdout).expect("UTF-8"));

    let config_map = built
        .iter()
        .find(|d| d["kind"] == "ConfigMap")
        .expect("the plugin's ConfigMap");
    let cm_name = config_map["metadata"]["name"].as_str().expect("a name");
    assert!(cm_name.starts_with("ipreuse-cmp-plugin-"), "{cm_name}");
    assert_eq!(config_map["metadata"]["namespace"], "argocd");
    let plugin_text =
        std::fs::read_to_string(argocd_dir().join("plugin.yaml")).expect("plugin.yaml");
    assert_eq!(config_map["data"]["plugin.yaml"], plugin_text.as_str());

    let deployment = built
        .iter()
        .find(|d| d["kind"] == "Deployment")
        .expect("the Deployment");
    assert_eq!(deployment["metadata"]["name"], "argocd-repo-server");
    let pod = &deployment["spec"]["template"]["spec"];
    let containers = pod["containers"].as_array().expect("containers");
    let names: BTreeSet<&str> = containers
        .iter()
        .map(|c| c["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        BTreeSet::from(["argocd-repo-server", "ipreuse-cmp"]),
        "the repo-server keeps its own container"
    );
    let sidecar = containers
        .iter()
        .find(|c| c["name"] == "ipreuse-cmp")
        .expect("the sidecar");
    assert_eq!(
        sidecar["command"],
        serde_json::json!(["/var/run/argocd/argocd-cmp-server"])
    );
    assert_eq!(sidecar["securityContext"]["runAsUser"], 999);
    assert_eq!(sidecar["securityContext"]["runAsNonRoot"], true);

    let volumes = pod["volumes"].as_array().expect("volumes");
    let volume = |name: &str| -> &Value {
        volumes
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("no volume {name}: {volumes:?}"))
    };
    let mounts = sidecar["volumeMounts"].as_array().expect("volumeMounts");
    let mount = |path: &str| -> &Value {
        mounts
            .iter()
            .find(|m| m["mountPath"] == path)
            .unwrap_or_else(|| panic!("the sidecar mounts nothing at {path}: {mounts:?}"))
    };
    // plugin.yaml, from the generated ConfigMap, where argocd-cmp-server reads it.
    let config = mount("/home/argocd/cmp-server/config/plugin.yaml");
    assert_eq!(config["subPath"], "plugin.yaml");
    let config_volume = volume(config["name"].as_str().expect("a volume"));
    assert_eq!(config_volume["configMap"]["name"], cm_name);
    // argocd-cmp-server and the sockets, shared with the repo-server.
    assert_eq!(mount("/var/run/argocd")["name"], "var-files");
    assert_eq!(mount("/home/argocd/cmp-server/plugins")["name"], "plugins");
    // A /tmp of its own, not the repo-server's.
    let tmp_volume = mount("/tmp")["name"].as_str().expect("a volume");
    assert_ne!(tmp_volume, "tmp");
    assert!(volume(tmp_volume).get("emptyDir").is_some());
    // The stock volumes are kept.
    for name in ["var-files", "plugins", "tmp"] {
        volume(name);
    }
}
