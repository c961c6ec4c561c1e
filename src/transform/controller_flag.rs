//! SPEC §8 "Controller flag": turn CAPM3's BMH-name-based preallocation on wherever the input
//! decides it, because without it CAPM3 names IPClaims after Metal3Data and never uses the
//! `{host}-{pool}` preallocations this function writes.
//!
//! Where the flag is decided, and what happens there:
//! - **Deployment args.** Every `command` or `args` item of every container of every
//!   Deployment that is the flag (`--enable-bmh-name-based-preallocation` or
//!   `--enableBMHNameBasedPreallocation`, alone or with `=value`) is set to `=true`, in its
//!   own spelling, unless it is on already: bare (a Go boolean flag alone means true) or with a
//!   value Go's `strconv.ParseBool` reads as true (`1`, `t`, `T`, `true`, `TRUE`, `True`).
//!   Anything else (`false`, a `${VAR:=false}` template, a typo) becomes `true`.
//! - **The CAPM3 manager** (a Deployment named `capm3-controller-manager`, or labelled
//!   `cluster.x-k8s.io/provider: infrastructure-metal3`, that is not the IPAM; its container
//!   `manager`) without the flag gets it appended to its `args`, spelled for its version:
//!   `capm3Version`, else the manager image's tag ([`tag_version`]); a version neither tells
//!   is an error naming `capm3Version`, never a guess (the other spelling stops the manager).
//! - **The Cluster API Operator's args.** An `InfrastructureProvider` `metal3` whose
//!   `spec.deployment.containers[].args` map holds the flag (either spelling) gets `"true"`
//!   there: the operator writes that map over the rendered arguments.
//! - **clusterctl variables.** A ConfigMap or Secret that holds `ENABLE_BMH_NAME_BASED_PREALLOCATION`
//!   or `enableBMHNameBasedPreallocation` gets `"true"`; the Secret a Cluster API Operator
//!   `InfrastructureProvider` named `metal3` names in `spec.configSecret` gets the variable added;
//!   a ConfigMap key `clusterctl.yaml` gets the top-level variable (and a nested `variables:`
//!   entry is set too, with a warning: clusterctl reads only top-level keys).
//!
//! Like every transformation it returns edits and results and touches no text. In check mode
//! each edit's result is an error at the edit's own object and field (run discards the edits).

use std::collections::{BTreeMap, BTreeSet};

use super::Outcome;
use crate::config::{Config, Version};
use crate::edits::ItemEdit;
use crate::model::config_data::{ConfigData, DataEntry, DataMap, encode_base64};
use crate::model::deployment::{CONTAINERS, Container, Deployment, ImageRef};
use crate::model::provider::{ArgValue, DEPLOYMENT_CONTAINERS, Provider, SecretRef};
use crate::model::view::View;
use crate::model::{Model, Object};
use crate::results::Finding;
use crate::yaml::{self, Edit, Seg, WriteStyle};

/// The flag as CAPM3 v1.13 and later spell it.
pub const ARG_KEBAB: &str = "--enable-bmh-name-based-preallocation";
/// The flag as CAPM3 v1.2 to v1.12 spell it.
pub const ARG_CAMEL: &str = "--enableBMHNameBasedPreallocation";
/// The clusterctl variable as CAPM3 v1.8 and later spell it.
pub const VAR_UPPER: &str = "ENABLE_BMH_NAME_BASED_PREALLOCATION";
/// The clusterctl variable as CAPM3 v1.2 to v1.7 spell it.
pub const VAR_CAMEL: &str = "enableBMHNameBasedPreallocation";

/// The name of the CAPM3 manager Deployment in rendered components.
pub const MANAGER_DEPLOYMENT: &str = "capm3-controller-manager";
/// The container of the CAPM3 manager.
pub const MANAGER_CONTAINER: &str = "manager";
/// The label clusterctl puts on every object of a provider's components, and its value for CAPM3.
pub const PROVIDER_LABEL: (&str, &str) = ("cluster.x-k8s.io/provider", "infrastructure-metal3");
/// Where the controller flag is explained (the warning when the input holds nothing that
/// decides it points there).
pub const CONTROLLER_FLAG_DOC: &str = "docs/behaviour.md#the-capm3-controller-flag";
/// The ConfigMap data key that holds a clusterctl configuration file.
pub const CLUSTERCTL_KEY: &str = "clusterctl.yaml";

/// Which spellings a CAPM3 version uses (FACTS §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Before v1.2: CAPM3 has no such flag (adding it would stop the manager from starting).
    NoFlag,
    /// v1.2 – v1.7: `--enableBMHNameBasedPreallocation`, variable `enableBMHNameBasedPreallocation`.
    Camel,
    /// v1.8 – v1.12: `--enableBMHNameBasedPreallocation`, variable `ENABLE_BMH_NAME_BASED_PREALLOCATION`.
    CamelArg,
    /// v1.13 and later: `--enable-bmh-name-based-preallocation`, variable `ENABLE_BMH_NAME_BASED_PREALLOCATION`.
    Kebab,
}

impl Era {
    /// The era of a version.
    pub fn of(v: Version) -> Era {
        match (v.major, v.minor) {
            (0, _) | (1, 0..=1) => Era::NoFlag,
            (1, 2..=7) => Era::Camel,
            (1, 8..=12) => Era::CamelArg,
            _ => Era::Kebab,
        }
    }

    /// The flag's spelling; `None` before the flag existed.
    pub fn arg(self) -> Option<&'static str> {
        match self {
            Era::NoFlag => None,
            Era::Camel | Era::CamelArg => Some(ARG_CAMEL),
            Era::Kebab => Some(ARG_KEBAB),
        }
    }

    /// The clusterctl variable's spelling; `None` before the flag existed.
    pub fn variable(self) -> Option<&'static str> {
        match self {
            Era::NoFlag => None,
            Era::Camel => Some(VAR_CAMEL),
            Era::CamelArg | Era::Kebab => Some(VAR_UPPER),
        }
    }
}

/// Whether Go's `strconv.ParseBool` reads `text` as true (how CAPM3 reads the flag's value).
pub fn reads_true(text: &str) -> bool {
    matches!(text, "1" | "t" | "T" | "true" | "TRUE" | "True")
}

/// The flag in one argument: its spelling and its value (`None` when written bare).
pub fn flag_arg(arg: &str) -> Option<(&'static str, Option<&str>)> {
    [ARG_KEBAB, ARG_CAMEL].into_iter().find_map(|name| {
        let rest = arg.strip_prefix(name)?;
        if rest.is_empty() {
            Some((name, None))
        } else {
            rest.strip_prefix('=').map(|v| (name, Some(v)))
        }
    })
}

/// Where a version came from, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
enum VersionSource {
    Config(String),
    /// The manager image's tag; empty when the image has none.
    Image(String),
    Provider(String),
}

impl VersionSource {
    fn describe(&self) -> String {
        match self {
            VersionSource::Config(v) => format!("capm3Version {v}"),
            VersionSource::Image(tag) if tag.is_empty() => {
                "image, which has no tag (a container runtime pulls latest: the newest CAPM3)"
                    .into()
            }
            VersionSource::Image(tag) if matches!(tag.as_str(), "main" | "latest") => {
                format!("image tag {tag}, the newest CAPM3")
            }
            VersionSource::Image(tag) => format!("image tag {tag}"),
            VersionSource::Provider(v) => format!("spec.version {v}"),
        }
    }
}

/// The CAPM3 version a manager image names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagVersion {
    /// A release, `vX.Y.Z` (what [`Version::parse`] reads), or a release branch's build,
    /// `release-X.Y` (= vX.Y).
    Release(Version),
    /// `main` or `latest`, or no tag at all (a container runtime pulls `latest`): the newest
    /// CAPM3, which spells the flag as v1.13 and later do.
    Newest,
}

impl TagVersion {
    /// The spellings of the version.
    pub fn era(self) -> Era {
        match self {
            TagVersion::Release(v) => Era::of(v),
            TagVersion::Newest => Era::Kebab,
        }
    }
}

/// The version the manager's image names, with where it was read; `Err` with what cannot be
/// read (a digest only, a tag that is not a version, no image) for messages. A tag wins over
/// a digest written beside it.
fn image_version(image: Option<&str>) -> Result<(TagVersion, VersionSource), String> {
    let Some(image) = image else {
        return Err("its container, which has no image".into());
    };
    let r = ImageRef::parse(image);
    let source = VersionSource::Image(r.tag.unwrap_or_default().to_string());
    match tag_version(r.tag) {
        Some(v) if r.tag.is_some() || r.digest.is_none() => Ok((v, source)),
        _ => Err(match r.tag {
            Some(tag) => format!("the image {image:?}, whose tag {tag:?} is not a version"),
            None => format!("the image {image:?}, which names a digest and no tag"),
        }),
    }
}

/// What an image tag says about the CAPM3 version: `vX.Y.Z` (a `v` and what
/// [`Version::parse`] reads: `v1.13`, `v1.13.0-rc.1`), `release-X.Y`, `main`, `latest`, or no
/// tag (`latest`); `None` for any other tag. CAPM3 tags its releases with the `v`: a tag
/// without it (`1.12`, `2024.01`) is someone's own and is not read as a version.
pub fn tag_version(tag: Option<&str>) -> Option<TagVersion> {
    match tag {
        None | Some("main" | "latest") => Some(TagVersion::Newest),
        Some(tag) => {
            let text = tag
                .strip_prefix("release-")
                .or_else(|| tag.starts_with('v').then_some(tag))?;
            Version::parse(text).map(TagVersion::Release)
        }
    }
}

/// Turns the CAPM3 controller flag on (see the module doc).
pub fn apply(model: &Model, config: &Config) -> Outcome {
    let mut cx = Cx {
        config,
        out: Outcome::default(),
        found: false,
    };
    for read in model.deployments.iter() {
        if let Some(d) = read.report(&mut cx.out.findings) {
            cx.deployment(d);
        }
    }
    let data: Vec<&ConfigData> = model
        .config_data
        .iter()
        .filter_map(|read| read.report(&mut cx.out.findings))
        .collect();
    for d in &data {
        cx.variables(d);
    }
    // Only the provider named `metal3` installs CAPM3.
    let providers: Vec<&Provider> = model
        .providers
        .iter()
        .filter(|read| {
            model
                .index
                .object(read.item)
                .is_some_and(|o| o.name == "metal3")
        })
        .filter_map(|read| read.report(&mut cx.out.findings))
        .collect();
    cx.providers(&providers, &data);
    if !cx.found {
        let source = &config.source;
        // One line: what is missing and where to read more (every run without a config
        // says it, so it stays short).
        let mut f = Finding::warning(format!(
            "controllerFlag is on, but nothing in the input turns CAPM3's BMH-name-based \
             preallocation on: turn it on where CAPM3 runs, or set controllerFlag: false. Without \
             it the preallocations are not used (see {CONTROLLER_FLAG_DOC})"
        ));
        if let Some(r) = &source.resource_ref {
            f = f.on(r.clone()).at(source.path("controllerFlag", None));
        }
        cx.out.findings.push(f);
    }
    cx.out
}

struct Cx<'a> {
    config: &'a Config,
    out: Outcome,
    /// Whether the input holds anything that decides the flag.
    found: bool,
}

/// The path of container `c` from its Deployment's root.
fn container_path(c: &Container) -> Vec<Seg> {
    let mut p: Vec<Seg> = CONTAINERS.iter().map(|k| Seg::key(*k)).collect();
    p.push(Seg::Index(c.index));
    p
}

impl Cx<'_> {
    /// Records one edit of `object` at `field`, with its results: the info `fill` reports when
    /// it writes the edit, and the error `check` reports instead. `what` is a verb phrase
    /// ("set X to Y").
    fn change(&mut self, object: &Object, edit: Edit, field: String, what: String) {
        let written = Finding::info(format!(
            "turned the CAPM3 controller flag on here. The change: {what}"
        ));
        let check = Finding::error(format!(
            "check: the CAPM3 controller flag is not on here; run ipreuse in fill mode and commit \
             the result. To turn it on, fill would {what}"
        ));
        self.out
            .written
            .push(written.on(object.resource_ref()).at(field.clone()));
        self.out
            .check
            .push(check.on(object.resource_ref()).at(field));
        self.out.edits.push(ItemEdit {
            item: object.index,
            edit,
        });
    }

    fn warn(&mut self, object: &Object, field: impl Into<String>, message: String) {
        self.out.findings.push(
            Finding::warning(message)
                .on(object.resource_ref())
                .at(field),
        );
    }

    /// The configured version, if any.
    fn configured(&self) -> Option<(Version, VersionSource)> {
        let text = self.config.capm3_version.as_ref()?;
        let v = self.config.capm3_version()?;
        Some((v, VersionSource::Config(text.clone())))
    }

    // ---- Deployments ----

    fn deployment(&mut self, d: &Deployment) {
        for c in &d.containers {
            for (list, pos, text) in c.all_args() {
                let Some((name, value)) = flag_arg(text) else {
                    continue;
                };
                self.found = true;
                if value.is_none_or(reads_true) {
                    continue;
                }
                let mut path = container_path(c);
                path.push(Seg::key(list));
                path.push(Seg::Index(pos));
                let field = yaml::path_to_string(&path);
                let new = format!("{name}=true");
                let what = format!(
                    "set {field} (container {}) to {new:?} (was {text:?})",
                    container_name(c)
                );
                let edit = Edit::SetScalar {
                    path,
                    value: new,
                    style: WriteStyle::Keep,
                };
                self.change(&d.object, edit, field, what);
            }
        }
        self.manager(d);
    }

    /// Appends the flag to the CAPM3 manager when it lacks it.
    fn manager(&mut self, d: &Deployment) {
        let o = &d.object;
        let named = o.name == MANAGER_DEPLOYMENT;
        let labelled = d.labels.get(PROVIDER_LABEL.0).map(String::as_str) == Some(PROVIDER_LABEL.1);
        if !named && !labelled {
            return;
        }
        let manager = d.container(MANAGER_CONTAINER);
        let image = manager.and_then(|c| c.image.as_deref());
        // clusterctl labels every object of the components, and older CAPM3 releases bundle
        // the IPAM, whose manager has no such flag (it would not start with it).
        let ipam = o.name == "ipam-controller-manager"
            || image.is_some_and(|i| ImageRef::parse(i).repository() == "ip-address-manager");
        if !named && ipam {
            return;
        }
        self.found = true;
        let Some(c) = manager else {
            let field = CONTAINERS.join(".");
            self.warn(
                o,
                field,
                format!(
                    "this Deployment is the CAPM3 manager but has no container named \
                     {MANAGER_CONTAINER}: add the flag to the args of the container that runs CAPM3. \
                     It is the manager as it is {}; ipreuse cannot tell which container runs CAPM3. \
                     The flag is {ARG_KEBAB}=true (CAPM3 v1.13+) or {ARG_CAMEL}=true (older)",
                    if named {
                        format!("named {MANAGER_DEPLOYMENT}")
                    } else {
                        format!("labelled {}: {}", PROVIDER_LABEL.0, PROVIDER_LABEL.1)
                    }
                ),
            );
            return;
        };
        if c.all_args().any(|(_, _, a)| flag_arg(a).is_some()) {
            return;
        }
        if c.unreadable {
            // The reader warned about the list it cannot read; never overwrite it.
            return;
        }
        let image_field = match image {
            Some(_) => format!("{}.image", c.field()),
            None => c.field(),
        };
        let version = match self.configured() {
            Some((v, source)) => (TagVersion::Release(v), source),
            None => match image_version(image) {
                Ok(known) => known,
                Err(why) => {
                    self.out.findings.push(
                        Finding::error(format!(
                            "ipreuse cannot tell the CAPM3 version from {why}: set capm3Version in the \
                             ipreuse config (capm3Version: v1.12.7, say), or add the flag to the args. \
                             The flag must be added in the spelling of that version: {ARG_KEBAB}=true \
                             for CAPM3 v1.13 and later, {ARG_CAMEL}=true before, and a manager given \
                             the other spelling stops at start-up"
                        ))
                        .on(o.resource_ref())
                        .at(image_field),
                    );
                    return;
                }
            },
        };
        let arg = match version.0.era().arg() {
            Some(arg) => arg,
            None => {
                let shown = match version.0 {
                    TagVersion::Release(v) => version_text(&v),
                    TagVersion::Newest => "this version".into(),
                };
                self.warn(
                    o,
                    image_field,
                    format!(
                        "CAPM3 {shown} (from the {}) has no BMH-name-based preallocation: upgrade \
                         CAPM3, or set capm3Version if the version is wrong. The flag came in v1.2; \
                         ipreuse does not add it, which would stop the manager from starting",
                        version.1.describe()
                    ),
                );
                return;
            }
        };
        let new = format!("{arg}=true");
        let mut path = container_path(c);
        let (edit, field) = match &c.args {
            Some(list) => {
                path.push(Seg::key("args"));
                let field = format!("{}[{}]", yaml::path_to_string(&path), list.len);
                (append_item(path, &new), field)
            }
            None => {
                let field = format!("{}.args", c.field());
                let edit = Edit::SetValue {
                    path,
                    key: "args".into(),
                    // both spellings with `=true` are plain scalars
                    yaml: format!("- {new}"),
                };
                (edit, field)
            }
        };
        let why = format!(" (spelled for the {})", version.1.describe());
        let what =
            format!("add {new:?}{why} to the args of container {MANAGER_CONTAINER} at {field}");
        self.change(o, edit, field, what);
    }

    // ---- ConfigMaps and Secrets ----

    /// The clusterctl variables of one ConfigMap or Secret.
    fn variables(&mut self, d: &ConfigData) {
        for map in d.maps() {
            for key in [VAR_UPPER, VAR_CAMEL] {
                if let Some(entry) = map.get(key) {
                    self.found = true;
                    self.variable(d, map, entry);
                }
            }
        }
        if !d.secret
            && let Some(entry) = d.data.as_ref().and_then(|m| m.get(CLUSTERCTL_KEY))
        {
            self.found = true;
            self.clusterctl_file(d, entry);
        }
    }

    /// Sets one variable to true unless it reads true already.
    fn variable(&mut self, d: &ConfigData, map: &DataMap, entry: &DataEntry) {
        let text = entry.text();
        if text.as_deref().is_ok_and(reads_true) {
            return;
        }
        let path = vec![Seg::key(map.field), Seg::key(&entry.key)];
        let field = yaml::path_to_string(&path);
        let (value, shown) = if map.base64 {
            (
                encode_base64("true"),
                "\"true\" (base64 dHJ1ZQ==)".to_string(),
            )
        } else {
            ("true".to_string(), "\"true\"".to_string())
        };
        // A Secret's values are not repeated in results; a ConfigMap's are.
        let was = match (&text, d.secret) {
            (Err(why), _) => format!(" (its value {why})"),
            (Ok(_), true) => String::new(),
            (Ok(old), false) => format!(" (was {old:?})"),
        };
        let style = if entry.is_string {
            WriteStyle::Keep
        } else {
            WriteStyle::DoubleQuoted
        };
        let edit = Edit::SetScalar { path, value, style };
        let what = format!("set {field} to {shown}{was}");
        self.change(&d.object, edit, field, what);
    }

    /// A clusterctl configuration file in ConfigMap data key `clusterctl.yaml`: its top-level
    /// variable set (added when missing), a nested `variables:` entry set with a warning. The
    /// file is edited like any YAML text (lossless inside), and the new text replaces the value.
    fn clusterctl_file(&mut self, d: &ConfigData, entry: &DataEntry) {
        let o = &d.object;
        // The field as a result's path names it (a key with dots is bracketed), and as text.
        let field = crate::results::key_path("data", CLUSTERCTL_KEY);
        let shown = format!("data.{CLUSTERCTL_KEY}");
        let Some(text) = entry.raw.as_deref().filter(|_| entry.is_string) else {
            self.warn(
                o,
                field,
                format!(
                    "data.{CLUSTERCTL_KEY} is not a string holding a clusterctl configuration; \
                     ipreuse leaves it alone"
                ),
            );
            return;
        };
        let refuse = |why: String| {
            format!(
                "data.{CLUSTERCTL_KEY} {why}; ipreuse cannot set {VAR_UPPER}: \"true\" in \
                 this clusterctl configuration: set it at the top level by hand"
            )
        };
        let docs = match yaml::parse(text) {
            Ok(docs) => docs,
            Err(e) => {
                self.warn(o, field, refuse(format!("does not read as YAML ({e})")));
                return;
            }
        };
        let root = match docs.as_slice() {
            [doc] if doc.root.as_map().is_some() => Some(&doc.root),
            _ if docs.iter().all(|doc| doc.root.is_null()) => None,
            _ => {
                self.warn(o, field, refuse("is not one YAML mapping".into()));
                return;
            }
        };
        let mut edits: Vec<Edit> = Vec::new();
        let mut changes: Vec<String> = Vec::new();
        let mut top_level = false;
        if let Some(root) = root {
            for key in [VAR_UPPER, VAR_CAMEL] {
                if let Some(v) = root.get(key) {
                    top_level = true;
                    if !node_reads_true(v) {
                        edits.push(set_true(vec![Seg::key(key)]));
                        changes.push(format!("{key} set to true"));
                    }
                }
            }
            for key in [VAR_UPPER, VAR_CAMEL] {
                let Some(v) = root.get("variables").and_then(|vars| vars.get(key)) else {
                    continue;
                };
                self.warn(
                    o,
                    field.clone(),
                    format!(
                        "{shown} has {key} under variables:, which clusterctl does not read: move it \
                         to the top level. It reads top-level keys only; ipreuse sets the \
                         top-level key{}",
                        if node_reads_true(v) {
                            ""
                        } else {
                            " and this one too"
                        }
                    ),
                );
                if !node_reads_true(v) {
                    edits.push(set_true(vec![Seg::key("variables"), Seg::key(key)]));
                    changes.push(format!("variables.{key} set to true"));
                }
            }
        }
        if !top_level {
            let Some(var) = self.variable_name(o, &field) else {
                return;
            };
            changes.push(format!("{var}: \"true\" added at the top level"));
            edits.push(Edit::AddEntries {
                path: Vec::new(),
                entries: vec![(var.to_string(), "true".to_string())],
            });
        }
        if edits.is_empty() {
            return;
        }
        let new_text = match root {
            Some(root) => {
                let list: Vec<(&yaml::Node, Edit)> = edits.into_iter().map(|e| (root, e)).collect();
                match yaml::apply(text, &list) {
                    Ok(t) => t,
                    Err(e) => {
                        self.warn(o, field, refuse(format!("cannot be edited ({e})")));
                        return;
                    }
                }
            }
            // Nothing but comments (or nothing): the variable goes after them.
            None => {
                let Some(Edit::AddEntries { entries, .. }) = edits.first() else {
                    return;
                };
                let lines: String = entries
                    .iter()
                    .map(|(k, v)| format!("{k}: \"{v}\"\n"))
                    .collect();
                let sep = if text.is_empty() || text.ends_with('\n') {
                    ""
                } else {
                    "\n"
                };
                format!("{text}{sep}{lines}")
            }
        };
        // The new file must read as a clusterctl configuration with the flag on at the top.
        let on = yaml::parse(&new_text)
            .ok()
            .is_some_and(|docs| match docs.as_slice() {
                [doc] => [VAR_UPPER, VAR_CAMEL]
                    .iter()
                    .any(|k| doc.root.get(k).is_some_and(node_reads_true)),
                _ => false,
            });
        if !on {
            self.warn(
                o,
                field,
                refuse("is a YAML text ipreuse cannot extend".into()),
            );
            return;
        }
        let edit = Edit::SetScalar {
            path: vec![Seg::key("data"), Seg::key(CLUSTERCTL_KEY)],
            value: new_text,
            // a `|` block stays a `|` block
            style: WriteStyle::KeepBlock,
        };
        let what = format!("rewrite {shown} ({})", changes.join("; "));
        self.change(o, edit, field, what);
    }

    /// The variable to add for the configured version; an unknown version gives the v1.8+
    /// spelling with a warning on `object` at `field`; `None` (with a warning) before v1.2.
    fn variable_name(&mut self, object: &Object, field: &str) -> Option<&'static str> {
        self.variable_for(object, field, self.configured())
    }

    fn variable_for(
        &mut self,
        object: &Object,
        field: &str,
        version: Option<(Version, VersionSource)>,
    ) -> Option<&'static str> {
        match version {
            Some((v, source)) => {
                let var = Era::of(v).variable();
                if var.is_none() {
                    self.warn(
                        object,
                        field,
                        format!(
                            "CAPM3 {} (from the {}) has no BMH-name-based preallocation (it came \
                             in v1.2): ipreuse does not add the variable; upgrade CAPM3",
                            version_text(&v),
                            source.describe()
                        ),
                    );
                }
                var
            }
            None => {
                self.warn(
                    object,
                    field,
                    format!(
                        "the CAPM3 version is not known, so the variable is added as {VAR_UPPER}: set \
                         capm3Version in the ipreuse config to choose. {VAR_UPPER} is read by CAPM3 \
                         v1.8 and later; v1.2 to v1.7 read {VAR_CAMEL}"
                    ),
                );
                Some(VAR_UPPER)
            }
        }
    }

    // ---- Cluster API Operator ----

    fn providers(&mut self, providers: &[&Provider], data: &[&ConfigData]) {
        let secrets: BTreeMap<SecretRef, &ConfigData> = data
            .iter()
            .copied()
            .filter(|d| d.secret)
            .map(|d| {
                let r = SecretRef {
                    namespace: d.object.namespace.clone(),
                    name: d.object.name.clone(),
                };
                (r, d)
            })
            .collect();
        // Each Secret gets each missing spelling once, however many providers name it.
        let mut to_add: BTreeMap<SecretRef, BTreeMap<&'static str, BTreeSet<String>>> =
            BTreeMap::new();
        for p in providers {
            self.found = true;
            let o = &p.object;
            let Some(r) = &p.config_secret else {
                continue;
            };
            let Some(secret) = secrets.get(r) else {
                self.warn(
                    o,
                    "spec.configSecret.name",
                    format!(
                        "Secret {}/{} is not in the input: add {VAR_UPPER}: \"true\" to it where it \
                         is kept, or add it to this package so that ipreuse can",
                        r.namespace, r.name
                    ),
                );
                continue;
            };
            let holds = secret
                .maps()
                .any(|m| m.get(VAR_UPPER).is_some() || m.get(VAR_CAMEL).is_some());
            if holds {
                continue; // set by `variables`
            }
            let version = self.configured().or_else(|| {
                let text = p.version.as_ref()?;
                Some((Version::parse(text)?, VersionSource::Provider(text.clone())))
            });
            if let Some(var) = self.variable_for(o, "spec.version", version) {
                to_add
                    .entry(r.clone())
                    .or_default()
                    .entry(var)
                    .or_default()
                    .insert(o.display());
            }
        }
        for (r, vars) in to_add {
            let Some(secret) = secrets.get(&r) else {
                continue;
            };
            for (var, providers) in vars {
                let takes = if providers.len() == 1 {
                    "takes its"
                } else {
                    "take their"
                };
                let providers: Vec<String> = providers.into_iter().collect();
                let why = format!(
                    "{} {takes} clusterctl variables from this Secret",
                    providers.join(" and ")
                );
                self.add_to_secret(secret, var, &why);
            }
        }
        for p in providers {
            self.provider_args(p);
        }
        for p in providers {
            if !p.config_secret_written {
                self.warn(
                    &p.object,
                    "spec.configSecret",
                    format!(
                        "this field is not set, so the operator installs CAPM3 with the controller \
                         flag off: add a configSecret naming a Secret with {VAR_UPPER}: \"true\". \
                         The flag is off by default; with the Secret in this package, ipreuse adds \
                         the key"
                    ),
                );
            }
        }
    }

    /// The flag in the provider's `spec.deployment.containers[].args` map, which the operator
    /// writes over the rendered arguments as `--key=value`: set to `"true"` unless its value
    /// is a string that reads true already (as in a Deployment's args).
    fn provider_args(&mut self, p: &Provider) {
        for a in &p.args {
            if !matches!(flag_arg(&a.key), Some((_, None))) {
                continue;
            }
            let text = match &a.value {
                ArgValue::Text(t) => Some(t.as_str()),
                ArgValue::Other(_) => None,
            };
            if text.is_some_and(reads_true) {
                continue;
            }
            let mut path: Vec<Seg> = DEPLOYMENT_CONTAINERS.iter().map(|k| Seg::key(*k)).collect();
            path.push(Seg::Index(a.container));
            path.push(Seg::key("args"));
            path.push(Seg::key(&a.key));
            let field = yaml::path_to_string(&path);
            let (style, was) = match &a.value {
                ArgValue::Text(t) => (WriteStyle::Keep, format!("{t:?}")),
                // The CRD takes strings only: a YAML boolean or number becomes a quoted string.
                ArgValue::Other(json) => {
                    (WriteStyle::DoubleQuoted, format!("{json}, not a string"))
                }
            };
            let edit = Edit::SetScalar {
                path,
                value: "true".into(),
                style,
            };
            let what = format!(
                "set {field} to \"true\" (was {was}; the Cluster API Operator writes this \
                 argument over the manager's own)"
            );
            self.change(&p.object, edit, field, what);
        }
    }

    /// Adds `var` to a Secret: to `stringData` when it has one, else base64 to `data` when it
    /// has that, else to a new `stringData`.
    fn add_to_secret(&mut self, secret: &ConfigData, var: &'static str, why: &str) {
        let (map, value, shown) = match (&secret.string_data, &secret.data) {
            (None, Some(_)) => (
                "data",
                encode_base64("true"),
                "\"true\" (base64 dHJ1ZQ==)".to_string(),
            ),
            _ => ("stringData", "true".to_string(), "\"true\"".to_string()),
        };
        let field = format!("{map}.{var}");
        let edit = Edit::AddEntries {
            path: vec![Seg::key(map)],
            entries: vec![(var.to_string(), value)],
        };
        let what = format!("add {field}: {shown} ({why})");
        self.change(&secret.object, edit, field, what);
    }
}

/// `v1.2.3` or `v1.2`.
fn version_text(v: &Version) -> String {
    match v.patch {
        Some(p) => format!("v{}.{}.{p}", v.major, v.minor),
        None => format!("v{}.{}", v.major, v.minor),
    }
}

fn container_name(c: &Container) -> String {
    c.name
        .clone()
        .unwrap_or_else(|| format!("#{}", c.index + 1))
}

/// Whether a node of a clusterctl configuration reads true (a boolean or a string).
fn node_reads_true(node: &yaml::Node) -> bool {
    View::new(node)
        .scalar_text()
        .is_some_and(|t| reads_true(&t))
}

/// Sets the scalar at `path` to true, keeping its style (a plain `false` becomes `true`).
fn set_true(path: Vec<Seg>) -> Edit {
    Edit::SetScalar {
        path,
        value: "true".into(),
        style: WriteStyle::Keep,
    }
}

/// Appends `item` (a string) to the sequence at `path`, written like its last item.
fn append_item(path: Vec<Seg>, item: &str) -> Edit {
    Edit::AppendItem {
        path,
        value: item.to_string(),
        style: WriteStyle::Keep,
    }
}

#[cfg(test)]
mod tests;
