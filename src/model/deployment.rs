//! Deployment (`apps/v1`): its labels and the containers of its pod template, with their
//! `command` and `args` lists and image reference (SPEC §8).
//!
//! Only what the controller flag needs is read. A value of the wrong shape (a `containers`
//! that is not a list, an `args` item that is not a string) is reported as a warning that names
//! its field, and the part it spoils is left out: a Deployment is any workload of the package,
//! and a malformed one that has nothing to do with CAPM3 must not stop the function.

use super::Object;
use super::labels::LabelMap;
use super::view::View;
use crate::results::Finding;

/// Path from a Deployment's root to its pod template's containers.
pub const CONTAINERS: [&str; 4] = ["spec", "template", "spec", "containers"];

/// A Deployment as the controller flag reads it.
#[derive(Debug, Clone)]
pub struct Deployment {
    pub object: Object,
    pub labels: LabelMap<String>,
    pub containers: Vec<Container>,
}

/// One container of the pod template.
#[derive(Debug, Clone)]
pub struct Container {
    /// Position in `spec.template.spec.containers`.
    pub index: usize,
    /// `name`; `None` when missing or not a string.
    pub name: Option<String>,
    /// `image`; `None` when missing or not a string.
    pub image: Option<String>,
    /// `command`: `None` when the container has none.
    pub command: Option<ArgList>,
    /// `args`: `None` when the container has none.
    pub args: Option<ArgList>,
    /// Whether `command` or `args` is written but is not a list (reported): such a container's
    /// arguments are unknown and must not be overwritten.
    pub unreadable: bool,
}

/// A `command` or `args` list.
#[derive(Debug, Clone)]
pub struct ArgList {
    /// The string items with their positions (items of another type are left out, with a
    /// warning).
    pub items: Vec<(usize, String)>,
    /// Number of items written, strings or not.
    pub len: usize,
}

impl Container {
    /// The field path of this container: `spec.template.spec.containers[0]`.
    pub fn field(&self) -> String {
        format!("{}[{}]", CONTAINERS.join("."), self.index)
    }

    /// The container's `command` items, then its `args` items, each with its field name
    /// (`command` or `args`) and position.
    pub fn all_args(&self) -> impl Iterator<Item = (&'static str, usize, &str)> {
        let command = self
            .command
            .iter()
            .flat_map(|l| l.items.iter().map(|(i, s)| ("command", *i, s.as_str())));
        let args = self
            .args
            .iter()
            .flat_map(|l| l.items.iter().map(|(i, s)| ("args", *i, s.as_str())));
        command.chain(args)
    }
}

impl Deployment {
    /// Reads a Deployment; bad shapes are warnings naming the field (see the module doc).
    /// Read by the registry ([`super::registry::KINDS`]).
    pub(super) fn read(object: &Object, view: View<'_>, findings: &mut Vec<Finding>) -> Deployment {
        let mut warn = |field: String, what: &str| {
            findings.push(
                Finding::warning(format!(
                    "this field {what}; ipreuse does not look for the CAPM3 controller flag there"
                ))
                .on(object.resource_ref())
                .at(field),
            );
        };
        let mut containers = Vec::new();
        match view.at(&CONTAINERS).filter(|v| !v.is_null()) {
            None => {}
            Some(list) => match list.as_seq() {
                Some(items) => {
                    for (index, c) in items.enumerate() {
                        let field = format!("{}[{index}]", CONTAINERS.join("."));
                        if !c.is_object() {
                            warn(field, "is not a mapping");
                            continue;
                        }
                        let string =
                            |key: &str| c.get(key).and_then(View::as_str).map(String::from);
                        let mut unreadable = false;
                        let mut list = |key: &str| {
                            let written = c.get(key).filter(|v| !v.is_null())?;
                            let Some(items) = written.as_seq() else {
                                warn(format!("{field}.{key}"), "is not a list of strings");
                                unreadable = true;
                                return None;
                            };
                            let len = items.len();
                            let mut strings = Vec::new();
                            for (i, item) in items.enumerate() {
                                match item.as_str() {
                                    Some(s) => strings.push((i, s.to_owned())),
                                    None => warn(format!("{field}.{key}[{i}]"), "is not a string"),
                                }
                            }
                            Some(ArgList {
                                items: strings,
                                len,
                            })
                        };
                        let command = list("command");
                        let args = list("args");
                        containers.push(Container {
                            index,
                            name: string("name"),
                            image: string("image"),
                            command,
                            args,
                            unreadable,
                        });
                    }
                }
                None => warn(CONTAINERS.join("."), "is not a list of containers"),
            },
        }
        Deployment {
            object: object.clone(),
            labels: view
                .at(&["metadata", "labels"])
                .map(|l| l.string_map().into_iter().collect())
                .unwrap_or_default(),
            containers,
        }
    }

    /// The container named `name`, if any.
    pub fn container(&self, name: &str) -> Option<&Container> {
        self.containers
            .iter()
            .find(|c| c.name.as_deref() == Some(name))
    }
}

/// An image reference, split as container runtimes read it:
/// `[registry[:port]/]path[:tag][@digest]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef<'a> {
    /// Everything before the tag and digest: `quay.io/metal3-io/cluster-api-provider-metal3`.
    pub name: &'a str,
    /// The tag, if written (`v1.13.0`, `latest`).
    pub tag: Option<&'a str>,
    /// The digest, if written (`sha256:...`).
    pub digest: Option<&'a str>,
}

impl<'a> ImageRef<'a> {
    /// Splits an image reference. A `:` counts as the tag separator only in the last path
    /// component, so a registry port (`reg:5000/x/y`) is never read as a tag.
    pub fn parse(image: &'a str) -> ImageRef<'a> {
        let (rest, digest) = match image.split_once('@') {
            Some((rest, digest)) => (rest, Some(digest)),
            None => (image, None),
        };
        let last = rest.rfind('/').map_or(0, |i| i + 1);
        let (name, tag) = match rest[last..].rfind(':') {
            Some(c) => (&rest[..last + c], Some(&rest[last + c + 1..])),
            None => (rest, None),
        };
        ImageRef { name, tag, digest }
    }

    /// The last path component of the name: `cluster-api-provider-metal3`.
    pub fn repository(&self) -> &'a str {
        self.name.rsplit('/').next().unwrap_or(self.name)
    }
}

#[cfg(test)]
mod tests;
