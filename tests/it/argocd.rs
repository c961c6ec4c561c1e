//! The Argo CD Config Management Plugin of `functions/ipreuse/argocd/`.
//!
//! `plugin.yaml` is parsed, and its `discover`, `init` and `generate` are run the way Argo CD's
//! `argocd-cmp-server` runs them (`cmpserver/plugin/plugin.go`, `runCommand`): `command`
//! followed by `args`, exec'd without a shell of its own, in the application's folder (here a
//! temporary copy of `argocd/example-app` at `sites/a` of a checkout), with the build
//! environment (`ARGOCD_APP_NAME`, `ARGOCD_APP_NAMESPACE`, `ARGOCD_APP_REVISION`,
//! `ARGOCD_APP_SOURCE_PATH`, `ARGOCD_APP_SOURCE_REPO_URL`, `ARGOCD_APP_SOURCE_TARGET_REVISION`,
//! `KUBE_VERSION`, `KUBE_API_VERSIONS`), the Application's `plugin.env` entries prefixed with
//! `ARGOCD_ENV_` (an empty value passed as empty, as Argo CD 3 does; 2.x left such entries
//! out, which the plugin treats alike), and, from Argo CD 2.6, its `plugin.parameters` as
//! `ARGOCD_APP_PARAMETERS` (JSON, `null` when there are none) and `PARAM_<NAME>` variables
//! (`ApplicationSourcePluginParameters.Environ`: the name upper-cased, other characters than
//! `A-Z0-9_` as `_`; a string as `PARAM_<NAME>`, an array's items as `PARAM_<NAME>_<i>`, a map's
//! as `PARAM_<NAME>_<KEY>`). 2.4 and 2.5 set no parameter variables. `init` first, then
//! `generate`, whose stdout alone is what Argo CD reads as the manifests: the cmp-server
//! captures stderr apart (the error's message on a failure), so a successful generate's
//! warnings and summary on stderr are logged, never applied. `discover.fileName` is matched as
//! the server matches it: a glob in the application folder, which for a name without glob
//! characters matches exactly when the file exists.
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

    /// Runs `cmd` as the plugin server does, with `env` as the Application's `plugin.env` and
    /// `params` as its `plugin.parameters`; `params: None` is Argo CD 2.4 and 2.5, which set
    /// no parameter variables and no `ARGOCD_APP_REVISION_SHORT`.
    fn run(
        &self,
        cmd: &[String],
        app: &Path,
        env: &[(&str, &str)],
        params: Option<&Value>,
    ) -> Output {
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
        if let Some(params) = params {
            c.env("ARGOCD_APP_REVISION_SHORT", "0f3c1a9")
                .env("ARGOCD_APP_REVISION_SHORT_8", "0f3c1a9e");
            for (k, v) in param_env(params) {
                c.env(k, v);
            }
        }
        c.output()
            .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd[0]))
    }

    /// `init`, then `generate`, as one manifest generation of Argo CD 2.6 or later without
    /// parameters; the first failure is returned.
    fn generate(&self, app: &Path, env: &[(&str, &str)]) -> Output {
        self.generate_with(app, env, Some(&Value::Null))
    }

    /// [`Sandbox::generate`] with the Application's parameters (`None`: Argo CD 2.4 or 2.5).
    fn generate_with(&self, app: &Path, env: &[(&str, &str)], params: Option<&Value>) -> Output {
        let plugin = plugin();
        let init = self.run(&step(&plugin, "init"), app, env, params);
        if !init.status.success() {
            return init;
        }
        let out = self.run(&step(&plugin, "generate"), app, env, params);
        let left: Vec<_> = std::fs::read_dir(self.scratch())
            .expect("scratch")
            .map(|e| e.expect("scratch").file_name())
            .collect();
        assert!(left.is_empty(), "generate left temp files: {left:?}");
        out
    }
}

/// A parameter name as Argo CD puts it in a variable name (`escaped` in its `types.go`).
fn escaped(name: &str) -> String {
    name.to_uppercase()
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The variables Argo CD 2.6+ sets for an Application's `plugin.parameters` (a JSON array of
/// `{name, string | array | map}`): `ARGOCD_APP_PARAMETERS` and one `PARAM_*` per value.
fn param_env(params: &Value) -> Vec<(String, String)> {
    let mut env = vec![("ARGOCD_APP_PARAMETERS".to_string(), params.to_string())];
    for p in params.as_array().map(Vec::as_slice).unwrap_or_default() {
        let base = format!("PARAM_{}", escaped(p["name"].as_str().expect("a name")));
        if let Some(v) = p["string"].as_str() {
            env.push((base.clone(), v.to_string()));
        }
        for (k, v) in p["map"].as_object().into_iter().flatten() {
            env.push((
                format!("{base}_{}", escaped(k)),
                v.as_str().expect("a string").to_string(),
            ));
        }
        for (i, v) in p["array"].as_array().into_iter().flatten().enumerate() {
            env.push((
                format!("{base}_{i}"),
                v.as_str().expect("a string").to_string(),
            ));
        }
    }
    env
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

/// Checks a successful generate: stdout is the app's resources and nothing else (every
/// document an object with apiVersion and kind), the pool filled; stderr, which Argo CD logs,
/// holds ipreuse's summary of the pool and no manifest.
fn assert_filled(out: &Output) {
    assert!(out.status.success(), "generate failed: {}", show(out));
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    let docs = docs(&text);
    assert_eq!(objects(&docs), expected_objects(), "{text}");
    for d in &docs {
        assert!(
            d["apiVersion"].is_string() && d["kind"].is_string(),
            "not a manifest on stdout: {d}\n{}",
            show(out)
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("IPPool metal3/provisioning"),
        "the summary is on stderr: {}",
        show(out)
    );
    assert!(!stderr.contains("apiVersion"), "{}", show(out));
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

    // The parameter is announced in the form argocd-cmp-server reads (`spec.parameters.static`,
    // `cmpserver/plugin/config.go`), and generate reads the variable Argo CD sets for it.
    let statics = plugin["spec"]["parameters"]["static"]
        .as_array()
        .expect("spec.parameters.static");
    assert_eq!(statics.len(), 1, "{statics:?}");
    let param = &statics[0];
    assert_eq!(param["name"], "kustomize-build-options");
    assert!(param["title"].is_string() && param["tooltip"].is_string());
    assert_eq!(param["collectionType"], "string");
    let known = [
        "name",
        "title",
        "tooltip",
        "required",
        "itemType",
        "collectionType",
        "string",
        "array",
        "map",
    ];
    for key in param.as_object().expect("an object").keys() {
        assert!(
            known.contains(&key.as_str()),
            "{key} is no field of a parameter announcement"
        );
    }
    let variable = format!("PARAM_{}", escaped("kustomize-build-options"));
    assert_eq!(variable, "PARAM_KUSTOMIZE_BUILD_OPTIONS");
    assert!(
        generate[2].contains(&format!("${{{variable}}}"))
            || generate[2].contains(&format!("\"${variable}")),
        "generate reads {variable}"
    );

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
    // The Application sets only parameters the plugin announces.
    for p in app["spec"]["source"]["plugin"]["parameters"]
        .as_array()
        .expect("plugin.parameters")
    {
        assert!(
            statics.iter().any(|s| s["name"] == p["name"]),
            "the Application sets {p}, which the plugin does not announce"
        );
    }
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

/// A config that leaves `controllerFlag` on: the example app holds no CAPM3 manifests, so
/// ipreuse warns (and succeeds).
const LOUD_CONFIG: &str = "apiVersion: fn.ipreuse.dev/v1alpha1\nkind: IPReuse\nmetadata:\n  name: loud\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n";

#[test]
fn a_successful_generate_logs_warnings_on_stderr_and_prints_only_manifests() {
    let sandbox = Sandbox::new();
    for layout in ["kustomize", "plain"] {
        let app = sandbox.app(&format!("loud-{layout}"));
        if layout == "plain" {
            std::fs::remove_file(app.join("kustomization.yaml")).expect("rm");
        }
        std::fs::write(app.join("loud.yaml"), LOUD_CONFIG).expect("write");
        let out = sandbox.generate(&app, &[("IPREUSE_CONFIG", "loud.yaml")]);
        assert_filled(&out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("warning:") && stderr.contains("controllerFlag"),
            "{layout}: the warning reaches stderr on success: {}",
            show(&out)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.contains("warning")
                && !stdout.contains("controllerFlag")
                && !stdout.contains("IPReuse"),
            "{layout}: stdout holds only the manifests: {}",
            show(&out)
        );
    }
}

/// An app whose kustomization lists a file outside its folder: kustomize's default load
/// restrictor refuses it, `--load-restrictor LoadRestrictionsNone` allows it.
fn app_reaching_outside(sandbox: &Sandbox, name: &str) -> PathBuf {
    let app = sandbox.app(name);
    let outside = app.parent().expect("sites").join("common-hosts");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::rename(app.join("hosts.yaml"), outside.join("hosts.yaml")).expect("mv");
    std::fs::write(
        app.join("kustomization.yaml"),
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../common-hosts/hosts.yaml\n  - ippools.yaml\n",
    )
    .expect("write");
    app
}

#[test]
fn the_kustomize_build_options_parameter_reaches_kustomize_build() {
    let sandbox = Sandbox::new();
    let app = app_reaching_outside(&sandbox, "options");
    // Without the option, kustomize refuses the file: the option below is what lets it in.
    let out = sandbox.generate(&app, &[]);
    assert!(!out.status.success(), "{}", show(&out));
    assert!(out.stdout.is_empty(), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("common-hosts/hosts.yaml"),
        "{}",
        show(&out)
    );
    for params in [
        serde_json::json!([{"name": "kustomize-build-options", "string": "--enable-helm --load-restrictor LoadRestrictionsNone"}]),
        serde_json::json!([{"name": "kustomize-build-options", "string": "  --load-restrictor=LoadRestrictionsNone\n--enable-helm "}]),
        serde_json::json!([{"name": "kustomize-build-options", "array": ["--enable-helm", "--load-restrictor", "LoadRestrictionsNone"]}]),
        serde_json::json!([
            {"name": "other", "string": "x"},
            {"name": "kustomize-build-options", "array": ["--load-restrictor=LoadRestrictionsNone"]}
        ]),
    ] {
        let out = sandbox.generate_with(&app, &[], Some(&params));
        assert_filled(&out);
    }
    // An empty string is no option: the default restrictor again.
    let params = serde_json::json!([{"name": "kustomize-build-options", "string": " "}]);
    let out = sandbox.generate_with(&app, &[], Some(&params));
    assert!(!out.status.success(), "{}", show(&out));
}

#[test]
fn kustomize_build_options_are_checked_and_never_run_by_a_shell() {
    let sandbox = Sandbox::new();
    let app = app_reaching_outside(&sandbox, "bad-options");
    let marker = sandbox.marker("options");
    let m = marker.display().to_string();
    let refused: Vec<(Value, &str)> = vec![
        (serde_json::json!("--enable-exec"), "--enable-exec"),
        (
            serde_json::json!("--enable-alpha-plugins --enable-exec"),
            "--enable-alpha-plugins",
        ),
        (
            serde_json::json!("--helm-command=/bin/sh"),
            "--helm-command=/bin/sh",
        ),
        (serde_json::json!("-o out.yaml"), "-o"),
        (serde_json::json!("--output=out.yaml"), "--output=out.yaml"),
        (serde_json::json!("../other"), "../other"),
        (serde_json::json!("--load-restrictor Bogus"), "Bogus"),
        (
            serde_json::json!("--load-restrictor"),
            "--load-restrictor needs a value",
        ),
        (
            serde_json::json!("--helm-kube-version --enable-exec"),
            "--helm-kube-version needs a value",
        ),
        (
            serde_json::json!(format!("--enable-helm; touch {m}")),
            "--enable-helm\\;",
        ),
        (serde_json::json!(format!("$(touch {m})")), "touch"),
        (serde_json::json!(format!("`touch {m}`")), "touch"),
        (
            serde_json::json!(["--enable-helm", format!("x; touch {m}")]),
            "touch",
        ),
        (
            serde_json::json!(["--load-restrictor LoadRestrictionsNone"]),
            "is not an option",
        ),
    ];
    for (value, needle) in &refused {
        let param = if value.is_array() {
            serde_json::json!([{"name": "kustomize-build-options", "array": value}])
        } else {
            serde_json::json!([{"name": "kustomize-build-options", "string": value}])
        };
        let out = sandbox.generate_with(&app, &[], Some(&param));
        assert!(!marker.exists(), "{value}: ran a command: {}", show(&out));
        assert_eq!(out.status.code(), Some(2), "{value}: {}", show(&out));
        assert!(out.stdout.is_empty(), "{value}: {}", show(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("ipreuse plugin: the parameter kustomize-build-options")
                && stderr.contains(needle),
            "{value}: {}",
            show(&out)
        );
        assert!(!app.join("out.yaml").exists(), "{value}: wrote a file");
    }
    // A map is neither a string nor an array.
    let param =
        serde_json::json!([{"name": "kustomize-build-options", "map": {"enable-helm": "true"}}]);
    let out = sandbox.generate_with(&app, &[], Some(&param));
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a map"),
        "{}",
        show(&out)
    );
    // A plain folder has nothing to build with them.
    let plain = sandbox.app("options-plain");
    std::fs::remove_file(plain.join("kustomization.yaml")).expect("rm");
    let param = serde_json::json!([{"name": "kustomize-build-options", "string": "--enable-helm"}]);
    let out = sandbox.generate_with(&plain, &[], Some(&param));
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has no kustomization to build"),
        "{}",
        show(&out)
    );
}

/// Argo CD 2.4 and 2.5 look a named plugin up among the argocd-cm plugins only; a sidecar
/// plugin is found by discovery (`plugin: {}`): the repo-server sends the application folder
/// to each sidecar, whose `discover` decides, then runs `init` and `generate` without any
/// parameter variable.
#[test]
fn argo_cd_2_4_and_2_5_find_the_plugin_by_discovery_and_generate() {
    let sandbox = Sandbox::new();
    let app = sandbox.app("discovery");
    assert!(discovers(&app));
    let out = sandbox.generate_with(&app, &[], None);
    assert_filled(&out);
    let out = sandbox.generate_with(&app, &[("IPREUSE_CONFIG", "ipreuse.yaml")], None);
    assert_filled(&out);
}

/// The sidecar image and the ipreuse image it is built from carry one name each, wherever
/// they are named: the ipreuse image is `metadata.yaml`'s `image` at the crate's version.
#[test]
fn every_file_names_the_same_images() {
    let version = env!("CARGO_PKG_VERSION");
    let metadata = yaml(&argocd_dir().join("../metadata.yaml"));
    let ipreuse_image = format!("{}:{version}", metadata["image"].as_str().expect("image"));
    assert_eq!(ipreuse_image, format!("ghcr.io/ipreuse/ipreuse:{version}"));
    let read = |name: &str| {
        std::fs::read_to_string(argocd_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let dockerfile = read("Dockerfile");
    assert!(
        dockerfile.contains(&format!("\nARG IPREUSE_IMAGE={ipreuse_image}\n"))
            && dockerfile.contains(&format!("--build-arg IPREUSE_IMAGE={ipreuse_image} ")),
        "Dockerfile:\n{dockerfile}"
    );
    let patch = yaml(&argocd_dir().join("repo-server-patch.yaml"));
    let sidecar = patch["spec"]["template"]["spec"]["containers"][0]["image"]
        .as_str()
        .expect("the sidecar's image")
        .to_string();
    assert!(
        sidecar.ends_with(&format!("-ipreuse-{version}")),
        "{sidecar}"
    );
    let argocd_tag = sidecar
        .rsplit_once(':')
        .and_then(|(_, tag)| tag.strip_suffix(&format!("-ipreuse-{version}")))
        .expect("the Argo CD version in the tag");
    assert!(
        dockerfile.contains(&format!(
            "\nARG ARGOCD_IMAGE=quay.io/argoproj/argocd:{argocd_tag}\n"
        )) && dockerfile.contains(&format!("-t {sidecar} .")),
        "Dockerfile:\n{dockerfile}"
    );
    assert!(read("plugin.yaml").contains(&format!("The sidecar image: {sidecar},")));
    assert!(read("plugin.yaml").contains(&ipreuse_image));
    let (name, tag) = sidecar.rsplit_once(':').expect("name:tag");
    let readme = read("README.md");
    assert!(
        readme.contains(&format!("newName: {name}\n"))
            && readme.contains(&format!("newTag: {tag}\n")),
        "argocd/README.md names the sidecar image {sidecar}"
    );
    assert!(
        readme.contains(&ipreuse_image),
        "argocd/README.md names {ipreuse_image}"
    );
}

/// The ` ```sh ` lines of the README's "## Try it locally" section, as written.
fn try_locally_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(argocd_dir().join("README.md")).expect("README");
    let start = readme
        .find("\n## Try it locally\n")
        .expect("the argocd README has a \"## Try it locally\" section");
    let section = &readme[start + 1..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |i| i + 1)];
    let mut lines = Vec::new();
    let mut inside = false;
    for line in section.lines() {
        match (inside, line) {
            (false, "```sh") => inside = true,
            (true, "```") => inside = false,
            (true, l) => lines.push(l.to_string()),
            _ => {}
        }
    }
    lines
}

#[test]
fn the_try_it_locally_recipe_runs_as_written_and_prints_the_filled_manifests() {
    let lines = try_locally_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    require("python3", "apt-get install -y python3 python3-yaml");
    // The tested kustomize (4.5.4) as `kustomize`, the built binary as `ipreuse`, first on PATH.
    let tmp = tempfile::tempdir().expect("tmp");
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).expect("mkdir");
    std::os::unix::fs::symlink(BIN, bin.join("ipreuse")).expect("symlink");
    std::os::unix::fs::symlink(crate::support::tools::kustomize(), bin.join("kustomize"))
        .expect("symlink");
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(dirs).expect("PATH");
    let app = argocd_dir().join("example-app");
    let before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&app)
        .expect("example-app")
        .map(|e| {
            let p = e.expect("entry").path();
            let b = std::fs::read(&p).expect("read");
            (p, b)
        })
        .collect();
    for line in &lines {
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", line])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            .output()
            .expect("bash");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{line}: {}\n{stderr}", out.status);
        // The manifests, with the pool filled; the summary on stderr only.
        assert!(
            stdout.contains("preAllocations:") && stdout.contains("node-1-provisioning: "),
            "{line}: {stdout}"
        );
        assert!(!stdout.contains("0 kept, 2 added"), "{stdout}");
        assert!(
            stderr.contains("discover: ipreuse.yaml matches; plugin ipreuse-v1")
                && stderr.contains("2 added"),
            "{line}: {stderr}"
        );
    }
    // Run on a copy: the application folder is as it was.
    for (p, b) in before {
        assert_eq!(
            std::fs::read(&p).expect("read"),
            b,
            "{} changed",
            p.display()
        );
    }
    // A folder the plugin would not be chosen for: exit 1, saying so.
    let out = Command::new(argocd_dir().join("try-locally.py"))
        .arg(crate::support::image::repo_root().join("examples/basic"))
        .env("PATH", &path)
        .output()
        .expect("try-locally.py");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Argo CD would not choose this plugin"),
        "{}",
        show(&out)
    );
}
