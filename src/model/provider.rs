//! Cluster API Operator providers (`operator.cluster.x-k8s.io`, `v1alpha1` and `v1alpha2`):
//! `InfrastructureProvider`, the GitOps way to install CAPM3. Its `spec.configSecret` names
//! the Secret whose keys the operator feeds to clusterctl's variable substitution (SPEC §8).

use super::Object;
use super::value::is_template;
use super::view::View;
use crate::results::Finding;

/// The API group of the Cluster API Operator.
pub const OPERATOR_GROUP: &str = "operator.cluster.x-k8s.io";

/// An `InfrastructureProvider` as the controller flag reads it.
#[derive(Debug, Clone)]
pub struct Provider {
    pub object: Object,
    /// `spec.version` (the provider release to install), when written and not a template.
    pub version: Option<String>,
    /// `spec.configSecret`, resolved; `None` when not set (or unreadable, with a warning).
    pub config_secret: Option<SecretRef>,
    /// Whether `spec.configSecret` is written (and not `null`), readable or not.
    pub config_secret_written: bool,
    /// Every entry of every `spec.deployment.containers[].args` map: the arguments the
    /// operator writes over the rendered ones (`--key=value`), in the order written.
    pub args: Vec<ArgEntry>,
}

/// One entry of a container's `args` map in `spec.deployment.containers[]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgEntry {
    /// The container's position in `spec.deployment.containers`.
    pub container: usize,
    /// The argument, as written (`--enable-bmh-name-based-preallocation`).
    pub key: String,
    /// Its value as written (the CRD wants a string).
    pub value: ArgValue,
}

/// The value of an [`ArgEntry`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    /// A string, as written.
    Text(String),
    /// Any other value (a boolean, a number, a collection, null), as its JSON text: what a
    /// message shows of it.
    Other(String),
}

/// Where the operator's container customisations are.
pub const DEPLOYMENT_CONTAINERS: [&str; 3] = ["spec", "deployment", "containers"];

/// A reference to a Secret, its namespace resolved.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SecretRef {
    pub namespace: String,
    pub name: String,
}

impl Provider {
    /// Reads a provider. `spec.configSecret.namespace` defaults to the provider's own
    /// namespace, as the operator's defaulting webhook sets it (`setDefaultProviderSpec` in
    /// cluster-api-operator `internal/webhook`). A `configSecret` that is not a mapping, a name
    /// that is missing or not a string, and a name or namespace that is an unrendered template
    /// are warnings naming the field; the reference is then left out.
    ///
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, view: View<'_>, findings: &mut Vec<Finding>) -> Provider {
        let mut warn = |field: &str, what: String| {
            findings.push(
                Finding::warning(format!("this field {what}"))
                    .on(object.resource_ref())
                    .at(field),
            );
        };
        let version = view
            .at(&["spec", "version"])
            .and_then(View::as_str)
            .filter(|v| !is_template(v))
            .map(String::from);
        let written = view.at(&["spec", "configSecret"]).filter(|v| !v.is_null());
        let config_secret_written = written.is_some();
        let config_secret = match written {
            None => None,
            Some(r) if r.is_object() => {
                let name = r.get("name").map(Written::of);
                let namespace = r.get("namespace").map(Written::of);
                match (name, namespace) {
                    (Some(Written::Text("")), _) => {
                        warn(
                            "spec.configSecret.name",
                            "is empty; name the Secret that holds the clusterctl variables".into(),
                        );
                        None
                    }
                    (Some(Written::Text(name)), _) if is_template(name) => {
                        warn(
                            "spec.configSecret.name",
                            format!(
                                "is an unrendered template ({name:?}); render it before running ipreuse"
                            ),
                        );
                        None
                    }
                    (Some(Written::Text(name)), None | Some(Written::Null)) => Some(SecretRef {
                        namespace: object.namespace.clone(),
                        name: name.to_owned(),
                    }),
                    (Some(Written::Text(_)), Some(Written::Text(ns))) if is_template(ns) => {
                        warn(
                            "spec.configSecret.namespace",
                            format!(
                                "is an unrendered template ({ns:?}); render it before running ipreuse"
                            ),
                        );
                        None
                    }
                    (Some(Written::Text(name)), Some(Written::Text(ns))) => Some(SecretRef {
                        namespace: if ns.is_empty() {
                            object.namespace.clone()
                        } else {
                            ns.to_owned()
                        },
                        name: name.to_owned(),
                    }),
                    (Some(Written::Text(_)), Some(_)) => {
                        warn(
                            "spec.configSecret.namespace",
                            "is not a string; write the Secret's namespace".into(),
                        );
                        None
                    }
                    (None | Some(Written::Null), _) => {
                        warn(
                            "spec.configSecret.name",
                            "is missing; name the Secret that holds the clusterctl variables"
                                .into(),
                        );
                        None
                    }
                    (Some(_), _) => {
                        warn(
                            "spec.configSecret.name",
                            "is not a string; write the Secret's name".into(),
                        );
                        None
                    }
                }
            }
            Some(_) => {
                warn(
                    "spec.configSecret",
                    "is not a mapping; write {name: SECRET, namespace: NAMESPACE}".into(),
                );
                None
            }
        };
        let args = read_args(view, &mut warn);
        Provider {
            object: object.clone(),
            version,
            config_secret,
            config_secret_written,
            args,
        }
    }
}

/// A value of a `configSecret` field: a string, null, or anything else.
#[derive(Clone, Copy)]
enum Written<'a> {
    Text(&'a str),
    Null,
    Other,
}

impl<'a> Written<'a> {
    fn of(view: View<'a>) -> Written<'a> {
        match view.as_str() {
            Some(s) => Written::Text(s),
            None if view.is_null() => Written::Null,
            None => Written::Other,
        }
    }
}

/// The entries of every `spec.deployment.containers[].args` map; a value of the wrong shape on
/// the way is a warning naming its field, and is left out.
fn read_args(view: View<'_>, warn: &mut impl FnMut(&str, String)) -> Vec<ArgEntry> {
    let mut out = Vec::new();
    let base = DEPLOYMENT_CONTAINERS.join(".");
    let not_read = "; ipreuse does not look for the CAPM3 controller flag there";
    let Some(deployment) = view
        .at(&DEPLOYMENT_CONTAINERS[..2])
        .filter(|v| !v.is_null())
    else {
        return out;
    };
    if !deployment.is_object() {
        warn("spec.deployment", format!("is not a mapping{not_read}"));
        return out;
    }
    let Some(list) = deployment.get("containers").filter(|v| !v.is_null()) else {
        return out;
    };
    let Some(containers) = list.as_seq() else {
        warn(&base, format!("is not a list of containers{not_read}"));
        return out;
    };
    for (i, c) in containers.enumerate() {
        let field = format!("{base}[{i}]");
        if !c.is_object() {
            warn(&field, format!("is not a mapping{not_read}"));
            continue;
        }
        let Some(args) = c.get("args").filter(|v| !v.is_null()) else {
            continue;
        };
        match args.entries() {
            Some(entries) => out.extend(entries.map(|(key, value)| ArgEntry {
                container: i,
                key: key.into_owned(),
                value: match value.as_str() {
                    Some(text) => ArgValue::Text(text.to_owned()),
                    None => ArgValue::Other(value.json_text()),
                },
            })),
            None => warn(
                &format!("{field}.args"),
                format!("is not a mapping of arguments to values{not_read}"),
            ),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> (Provider, Vec<Finding>) {
        let docs = crate::yaml::parse(yaml).expect("test YAML parses");
        let value = docs[0].root.to_json();
        let object = Object::of_json(crate::model::ItemId(0), &value).expect("an object");
        let mut findings = Vec::new();
        (
            Provider::read(&object, View::new(&docs[0].root), &mut findings),
            findings,
        )
    }

    const HEAD: &str =
        "apiVersion: operator.cluster.x-k8s.io/v1alpha2\nkind: InfrastructureProvider\n";

    fn secret(ns: &str, name: &str) -> Option<SecretRef> {
        Some(SecretRef {
            namespace: ns.into(),
            name: name.into(),
        })
    }

    #[test]
    fn the_secret_namespace_defaults_to_the_providers_own() {
        for (meta, reference, expected) in [
            (
                "{name: metal3, namespace: capm3-system}",
                "{name: vars}",
                secret("capm3-system", "vars"),
            ),
            (
                "{name: metal3, namespace: capm3-system}",
                "{name: vars, namespace: ''}",
                secret("capm3-system", "vars"),
            ),
            (
                "{name: metal3, namespace: capm3-system}",
                "{name: vars, namespace: null}",
                secret("capm3-system", "vars"),
            ),
            (
                "{name: metal3, namespace: capm3-system}",
                "{name: vars, namespace: other}",
                secret("other", "vars"),
            ),
            // no metadata.namespace: the object's namespace as ipreuse reads it (`default`)
            ("{name: metal3}", "{name: vars}", secret("default", "vars")),
        ] {
            let (p, findings) = read(&format!(
                "{HEAD}metadata: {meta}\nspec:\n  version: v1.10.1\n  configSecret: {reference}\n"
            ));
            assert!(findings.is_empty(), "{reference}: {findings:?}");
            assert_eq!(p.config_secret, expected, "{meta} {reference}");
            assert_eq!(p.version.as_deref(), Some("v1.10.1"));
        }
    }

    #[test]
    fn bad_references_are_warnings_naming_the_field() {
        for (reference, field) in [
            ("[vars]", "spec.configSecret"),
            ("{namespace: x}", "spec.configSecret.name"),
            ("{name: 5}", "spec.configSecret.name"),
            ("{name: ''}", "spec.configSecret.name"),
            ("{name: '${SECRET}'}", "spec.configSecret.name"),
            ("{name: v, namespace: [x]}", "spec.configSecret.namespace"),
            (
                "{name: v, namespace: '${NS}'}",
                "spec.configSecret.namespace",
            ),
        ] {
            let (p, findings) = read(&format!(
                "{HEAD}metadata: {{name: metal3, namespace: n}}\nspec:\n  configSecret: {reference}\n"
            ));
            assert!(
                p.config_secret.is_none() && p.config_secret_written,
                "{reference}"
            );
            assert_eq!(findings.len(), 1, "{reference}: {findings:?}");
            assert_eq!(
                findings[0].field.as_ref().map(|f| f.path.as_str()),
                Some(field),
                "{reference}"
            );
        }
    }

    #[test]
    fn no_config_secret_and_template_versions() {
        let (p, findings) = read(&format!(
            "{HEAD}metadata: {{name: metal3}}\nspec:\n  version: ${{CAPM3_VERSION}}\n"
        ));
        assert!(findings.is_empty());
        assert!(p.config_secret.is_none() && !p.config_secret_written);
        assert!(p.version.is_none(), "a template version is not a version");
    }
}
