//! Clusters stamped from a ClusterClass (SPEC §11): the effective Metal3MachineTemplates the
//! template-derived mapping reads for them.
//!
//! CAPI clones the templates a ClusterClass names once per Cluster, into the Cluster's
//! namespace, and applies the class's inline patches to each clone; CAPM3 reads
//! `dataTemplate` and `hostSelector` from the clones only. So for each Cluster of the input
//! whose `spec.topology` names a class of the input, this computes the clone of the control
//! plane's template and of each MachineDeployment topology's template, patched with
//! [`crate::topology::patch::apply`] and the variables CAPI gives it, and reads each with the
//! Metal3MachineTemplate reader. The class's own templates are not mapped by their own
//! fields, unless a standalone KubeadmControlPlane, MachineDeployment, MachineSet or Machine of
//! the input references one, whose machines use it as written.
//!
//! What cannot be evaluated offline (an external patch, a patch that does not evaluate, a
//! template or class missing from the input) is an error naming the ClusterClass (or the
//! Cluster), the patch and the field, and the copy contributes nothing: never the class
//! template's literal fields instead.

use crate::{FastMap, FastSet};

use crate::model::cluster::{Cluster, Topology};
use crate::model::cluster_class::{ClusterClass, TemplateRef};
use crate::model::machine_template::MachineTemplate;
use crate::model::objects::Read;
use crate::model::{CAPM3_GROUP, ItemId, Model, Object, registry};
use crate::names::short;
use crate::results::Finding;
use crate::topology::budget::{Budget, json_bytes};
use crate::topology::patch::{self, Role, Target, variables};

/// The part of a Cluster's topology a machine template is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    ControlPlane,
    /// A MachineDeployment topology: its `name` and `class`.
    MachineDeployment {
        name: String,
        class: String,
    },
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::ControlPlane => write!(f, "control plane"),
            Part::MachineDeployment { name, class } => {
                write!(
                    f,
                    "MachineDeployment {} (class {})",
                    short(name),
                    short(class)
                )
            }
        }
    }
}

/// One Cluster's copy of a class template, patched.
#[derive(Debug)]
pub(crate) struct Effective {
    /// The Cluster.
    pub cluster: Object,
    pub part: Part,
    /// The class template it is a copy of.
    pub source: Object,
    /// The copy as CAPM3 reads it: its identity is the class template's, in the Cluster's
    /// namespace. The results of reading it are reported once for all copies, on the class (at
    /// the patch that wrote the value refused) or on the class template.
    pub template: MachineTemplate,
}

impl Effective {
    /// Where its rows come from, as `ipreuse plan` shows it: `{cluster}/control-plane` or
    /// `{cluster}/{MachineDeployment topology name}` (the Cluster's namespace is the row's).
    pub fn origin(&self) -> String {
        match &self.part {
            Part::ControlPlane => format!("{}/control-plane", self.cluster.name),
            Part::MachineDeployment { name, .. } => format!("{}/{name}", self.cluster.name),
        }
    }
}

/// The effective templates of the input's Clusters, and the templates their classes name.
#[derive(Debug, Default)]
pub(crate) struct Topologies {
    pub effective: Vec<Effective>,
    /// Every Metal3MachineTemplate of the input a ClusterClass of the input names and no
    /// standalone object of the input uses as written: mapped only through the Clusters' copies.
    pub class_templates: FastSet<ItemId>,
}

/// Computes the effective templates. Errors and infos go to `findings`.
pub(crate) fn read(model: &Model, findings: &mut Vec<Finding>) -> Topologies {
    let idx = &model.index;
    let mut out = Topologies::default();
    let templates: FastMap<(&str, &str), ItemId> = idx
        .objects_of(CAPM3_GROUP, "Metal3MachineTemplate")
        .map(|o| ((o.namespace.as_str(), o.name.as_str()), o.index))
        .collect();
    let mut classes: FastMap<(&str, &str), &ClusterClass> = FastMap::default();
    // what reading the classes and Clusters found: fields of a shape the API server refuses, or
    // spelled as the other version spells them
    for read in model.cluster_classes.iter() {
        findings.extend(read.findings.iter().cloned());
    }
    for read in model.clusters.iter() {
        findings.extend(read.findings.iter().cloned());
    }
    for read in model.cluster_classes.iter() {
        let Some(class) = &read.value else { continue };
        let o = &class.object;
        if o.local_config || o.bad_identity.is_some() {
            continue;
        }
        classes.insert((o.namespace.as_str(), o.name.as_str()), class);
        for t in class.templates() {
            if let Some(&item) = templates.get(&(o.namespace.as_str(), t.name.as_str())) {
                out.class_templates.insert(item);
            }
        }
    }
    used_as_written(model, &templates, &mut out.class_templates, findings);
    let mut shared = Shared::default();
    let mut copies = Copies::default();
    let mut used: FastSet<ItemId> = FastSet::default();
    for read in model.clusters.iter() {
        let Some(cluster) = &read.value else { continue };
        let Some(topology) = &cluster.topology else {
            continue;
        };
        let Some(class) = classes
            .get(&(topology.class_namespace.as_str(), topology.class.as_str()))
            .copied()
        else {
            // With no class in the input, the package simply keeps its classes elsewhere (an
            // info); with classes here, a name none of them has is likely a mistake, which CAPI
            // refuses too (a warning, with the closest name of the class's namespace).
            let here: Vec<&str> = classes
                .keys()
                .filter(|(ns, _)| *ns == topology.class_namespace)
                .map(|(_, name)| *name)
                .collect();
            let message = format!(
                "its ClusterClass {}/{} is not in the input{}: add the class and its templates to \
                 map its machines. Until then the Metal3MachineTemplates of its machines are unknown \
                 and it adds no hosts to the mapping",
                short(&topology.class_namespace),
                short(&topology.class),
                crate::names::did_you_mean(&topology.class, &here)
            );
            let finding = if classes.is_empty() {
                Finding::info(message)
            } else {
                Finding::warning(message)
            };
            findings.push(
                finding
                    .on(cluster.object.resource_ref())
                    .at(topology.class_field),
            );
            continue;
        };
        used.insert(class.object.index);
        let mut stamp = Stamp {
            model,
            templates: &templates,
            class,
            cluster,
            topology,
            findings: &mut *findings,
            shared: &mut shared,
            copies: &mut copies,
        };
        let before = out.effective.len();
        stamp.all(&mut out.effective);
        let mine = &out.effective[before..];
        findings.push(cluster_info(cluster, class, mine));
    }
    findings.extend(shared.into_findings());
    // in input order
    for class in model
        .cluster_classes
        .iter()
        .filter_map(|r| r.value.as_ref())
    {
        let o = &class.object;
        if used.contains(&o.index) || o.local_config || o.bad_identity.is_some() {
            continue;
        }
        let names: Vec<&str> = class
            .templates()
            .filter(|t| {
                templates
                    .get(&(class.object.namespace.as_str(), t.name.as_str()))
                    .is_some_and(|item| out.class_templates.contains(item))
            })
            .map(|t| t.name.as_str())
            .collect();
        if names.is_empty() {
            continue;
        }
        findings.push(
            Finding::info(format!(
                "no Cluster of the input is stamped from this class, so its Metal3MachineTemplates \
                 contribute nothing: CAPM3 only reads each Cluster's copies of them. They are {}.",
                names.join(", ")
            ))
            .on(class.object.resource_ref()),
        );
    }
    out
}

/// A class template that a standalone KubeadmControlPlane, MachineDeployment, MachineSet or
/// Machine of the input references (in its own namespace) is used as written by that object's
/// machines: it is mapped as written too (taken out of `class_templates`), with an info naming
/// the object.
fn used_as_written(
    model: &Model,
    templates: &FastMap<(&str, &str), ItemId>,
    class_templates: &mut FastSet<ItemId>,
    findings: &mut Vec<Finding>,
) {
    for read in model.machine_template_users.iter() {
        let Some(user) = &read.value else { continue };
        let o = &user.object;
        if o.local_config || o.bad_identity.is_some() {
            continue;
        }
        let Some(r) = user.metal3_machine_template() else {
            continue;
        };
        let Some(&item) = templates.get(&(o.namespace.as_str(), r.name.as_str())) else {
            continue;
        };
        if class_templates.remove(&item) {
            findings.push(
                Finding::info(format!(
                    "the Metal3MachineTemplate named here is mapped as written besides the Clusters' \
                     copies: this object's machines use it as written. It is Metal3MachineTemplate \
                     {}, which a ClusterClass also names",
                    short(&r.name)
                ))
                .on(o.resource_ref())
                .at(r.field.clone()),
            );
        }
    }
}

/// The info naming a Cluster's effective templates and the data template each names.
fn cluster_info(cluster: &Cluster, class: &ClusterClass, mine: &[Effective]) -> Finding {
    let parts: Vec<String> = mine
        .iter()
        .map(|e| {
            let data = e.template.data_template.as_ref().map_or_else(
                || "no data template".to_string(),
                |d| format!("data template {}", short(&d.name)),
            );
            format!("{}: {} ({data})", e.part, short(&e.source.name))
        })
        .collect();
    let what = if parts.is_empty() {
        "no Metal3MachineTemplate".to_string()
    } else {
        parts.join("; ")
    };
    Finding::info(format!(
        "Stamped from {}: its machines use the class's templates with the class's patches \
         applied. Templates: {what}",
        class.object.display(),
    ))
    .on(cluster.object.resource_ref())
}

/// Results about a ClusterClass, its templates or its patches that each Cluster's copy may
/// meet alike: reported once, naming the Cluster parts they were met for.
#[derive(Default)]
struct Shared {
    /// Each result (its message holds `{for}` where the parts go) with its parts, in the order
    /// met, each once.
    results: Vec<(Finding, Vec<String>, FastSet<String>)>,
    seen: FastMap<(String, Option<String>, Option<String>), usize>,
}

impl Shared {
    /// `finding`, whose message says `{for}` where the parts it is met for go, met for `part`.
    fn add(&mut self, finding: Finding, part: String) {
        let key = (
            finding.message.clone(),
            finding.resource_ref.as_ref().map(|r| r.words()),
            finding.field.as_ref().map(|f| f.path.clone()),
        );
        let i = *self.seen.entry(key).or_insert_with(|| {
            self.results.push((finding, Vec::new(), FastSet::default()));
            self.results.len() - 1
        });
        let (_, parts, met) = &mut self.results[i];
        if met.insert(part.clone()) {
            parts.push(part);
        }
    }

    /// The results, each with its parts in its message.
    fn into_findings(self) -> impl Iterator<Item = Finding> {
        self.results.into_iter().map(|(mut f, parts, _)| {
            let mut shown: Vec<&str> = parts.iter().map(String::as_str).take(3).collect();
            let more = parts.len().saturating_sub(3);
            let more = (more > 0).then(|| format!("{more} more"));
            shown.extend(more.as_deref());
            f.message = f.message.replace("{for}", &shown.join("; "));
            f
        })
    }
}

/// A field path's keys (`a.b[0].[c.d/e]` is `a`, `b`, `0`, `c.d/e`), to compare with a JSON
/// pointer's tokens.
fn field_tokens(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            '[' => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                let key: String = chars.by_ref().take_while(|&c| c != ']').collect();
                out.push(key);
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The last patch operation that wrote the value at `field` or a value holding it or under it.
fn writer<'w>(written: &'w [patch::Written], field: &str) -> Option<&'w patch::Written> {
    let tokens = field_tokens(field);
    written
        .iter()
        .rev()
        .find(|w| tokens.starts_with(&w.tokens) || w.tokens.starts_with(&tokens))
}

/// What the run's copies cost: the run's [`Budget`] and each class template's size.
#[derive(Default)]
struct Copies {
    budget: Budget,
    sizes: FastMap<ItemId, u64>,
}

/// The copies of one Cluster.
struct Stamp<'a, 'f> {
    model: &'a Model,
    templates: &'a FastMap<(&'a str, &'a str), ItemId>,
    class: &'a ClusterClass,
    cluster: &'a Cluster,
    topology: &'a Topology,
    findings: &'f mut Vec<Finding>,
    shared: &'f mut Shared,
    copies: &'f mut Copies,
}

impl Stamp<'_, '_> {
    fn all(&mut self, out: &mut Vec<Effective>) {
        let class = self.class;
        self.undefined_variables();
        if !class.external.is_empty() {
            for ext in &class.external {
                self.shared.add(
                    Finding::error(format!(
                        "make this patch inline, or use mapping: all for its Clusters' namespaces: \
                         ipreuse cannot tell what an external patch makes CAPM3 read. Patch {:?} is an \
                         external patch (a Runtime Extension), which may change anything in the \
                         Clusters' copies of the class's templates and is only known when it runs, so \
                         ipreuse cannot tell which data templates and host selectors CAPM3 will read \
                         (for {{for}}). With mapping: all, every host gets an entry in every pool of \
                         those namespaces",
                        short(&ext.name),
                    ))
                    .on(class.object.resource_ref())
                    .at(ext.field.clone()),
                    self.cluster.object.display(),
                );
            }
            return;
        }
        let version = self.topology.version.clone();
        if let Some(cp) = class.control_plane.as_ref().filter(|t| t.is_metal3()) {
            let builtins = variables::PartBuiltins::ControlPlane(variables::ControlPlaneBuiltins {
                version: version.clone(),
                metadata: self.control_plane_metadata(),
                // CAPI names the control plane and the copy of its machine template at random
                name: variables::Given::Unknown,
                replicas: self.topology.control_plane_replicas,
                infrastructure_ref_name: variables::Given::Unknown,
            });
            let overrides = &self.topology.control_plane_overrides;
            if let Some(e) = self.copy(
                cp,
                Part::ControlPlane,
                Role::ControlPlane,
                builtins,
                overrides,
            ) {
                out.push(e);
            }
        }
        for md in &self.topology.machine_deployments {
            let Some(md_class) = class.machine_deployment(&md.class) else {
                self.findings.push(
                    Finding::error(format!(
                        "the ClusterClass has no MachineDeployment class of this name: name one of \
                         its spec.workers.machineDeployments. The class is {:?}, which {} does not define, \
                         so CAPI stamps no MachineDeployment {:?}",
                        md.class,
                        class.object.display(),
                        md.name
                    ))
                    .on(self.cluster.object.resource_ref())
                    .at(format!("{}.class", md.field)),
                );
                continue;
            };
            let Some(template) = md_class.template.as_ref().filter(|t| t.is_metal3()) else {
                continue;
            };
            let cluster_name = &self.cluster.object.name;
            let builtins =
                variables::PartBuiltins::MachineDeployment(variables::MachineDeploymentBuiltins {
                    version: version.clone(),
                    metadata: variables::desired_machine_deployment_metadata(
                        cluster_name,
                        &md.name,
                        &md.metadata,
                        &md_class.metadata,
                    ),
                    class: md.class.clone(),
                    // CAPI names the MachineDeployment and its templates' copies at random
                    name: variables::Given::Unknown,
                    topology_name: md.name.clone(),
                    replicas: md.replicas,
                    bootstrap_config_name: variables::Given::Unknown,
                    infrastructure_ref_name: variables::Given::Unknown,
                });
            let part = Part::MachineDeployment {
                name: md.name.clone(),
                class: md.class.clone(),
            };
            let role = Role::MachineDeployment {
                class: md.class.clone(),
            };
            if let Some(e) = self.copy(template, part, role, builtins, &md.overrides) {
                out.push(e);
            }
        }
    }

    /// The control plane's metadata as CAPI computes it: from the class's control plane
    /// template (a KubeadmControlPlaneTemplate of the input), the topology's and the class's
    /// `controlPlane.metadata`; unknown when the template is not in the input.
    fn control_plane_metadata(&self) -> variables::Given<variables::ObjectMeta> {
        let class = self.class;
        let Some(t) = &class.control_plane_template else {
            return variables::Given::Unknown;
        };
        let ns = class.object.namespace.as_str();
        let template = self.model.control_plane_templates.iter().find_map(|r| {
            let v = r.value.as_ref()?;
            let o = &v.object;
            (o.namespace == ns
                && o.name == t.name
                && *o.kind == *t.kind
                && (t.api_version.is_empty()
                    || crate::model::group_of(&t.api_version) == o.group()))
            .then_some(v)
        });
        let Some(template) = template else {
            return variables::Given::Unknown;
        };
        let group = template.object.group();
        let group_kind = if group.is_empty() {
            t.kind.clone()
        } else {
            format!("{}.{group}", t.kind)
        };
        variables::Given::Is(variables::desired_control_plane_metadata(
            &self.cluster.object.name,
            &template.metadata,
            &self.topology.control_plane_metadata,
            &class.control_plane_metadata,
            (&t.name, &group_kind),
        ))
    }

    /// A warning for each value the Cluster gives a variable its class does not define: CAPI's
    /// webhook refuses such a Cluster, and no patch would read the value (a patch that needs the
    /// variable then fails on its missing value, which this warning explains).
    fn undefined_variables(&mut self) {
        let defined: Vec<&str> = self
            .class
            .variables
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        let topology = self.topology;
        let cluster = &self.cluster.object;
        let lists = std::iter::once(("spec.topology.variables".to_string(), &topology.variables))
            .chain(
                topology
                    .machine_deployments
                    .iter()
                    .map(|md| (format!("{}.variables.overrides", md.field), &md.overrides)),
            );
        for (list, values) in lists {
            for (i, (name, _)) in values.iter().enumerate() {
                if defined.contains(&name.as_str()) {
                    continue;
                }
                self.findings.push(
                    Finding::warning(format!(
                        "the ClusterClass does not define this variable: define it in the class or \
                         remove it, since CAPI refuses the Cluster. Variable {name:?} is not defined by \
                         {}{}, and no patch reads the value",
                        self.class.object.display(),
                        crate::names::did_you_mean(name, &defined)
                    ))
                    .on(cluster.resource_ref())
                    .at(format!("{list}[{i}].name")),
                );
            }
        }
    }

    /// The error for a copy not made because the run's budget is spent.
    /// Reported once per class, naming the parts.
    fn budget_spent(&mut self, spent: crate::topology::budget::Spent, for_part: String) {
        let class = &self.class.object;
        self.shared.add(
            Finding::error(format!(
                "the Clusters' copies of its templates are not evaluated: render fewer Clusters per \
                 run, or make the templates lighter. {} (for {{for}})",
                crate::names::capitalised(&spent.to_string())
            ))
            .on(class.resource_ref()),
            for_part,
        );
    }

    /// The Cluster's copy of `template` for `part`, patched.
    fn copy(
        &mut self,
        template: &TemplateRef,
        part: Part,
        role: Role,
        builtins: variables::PartBuiltins,
        overrides: &[(String, serde_json::Value)],
    ) -> Option<Effective> {
        let class = &self.class.object;
        let cluster = &self.cluster.object;
        let for_part = format!("the {part} of {}", cluster.display());
        let Some(&item) = self
            .templates
            .get(&(class.namespace.as_str(), template.name.as_str()))
        else {
            self.shared.add(
                Finding::error(format!(
                    "Metal3MachineTemplate {}/{} is not in the input: add it. The pools and hosts \
                     (for {{for}}) are read from the Clusters' copies of it",
                    short(&class.namespace),
                    short(&template.name)
                ))
                .on(class.resource_ref())
                .at(template.field.clone()),
                for_part,
            );
            return None;
        };
        let read: &Read<MachineTemplate> = self.model.machine_templates.get(item)?;
        let Some(source) = read.value.as_ref() else {
            // why it cannot be read; its copies are read (and their results given) otherwise
            for f in &read.findings {
                let mut f = f.clone();
                f.message.push_str(". This affects {for}");
                self.shared.add(f, for_part.clone());
            }
            self.shared.add(
                Finding::error(format!(
                    "its Metal3MachineTemplate {} cannot be read: fix the template (the result about \
                     it says why). Until then the pools and hosts (for {{for}}) are unknown",
                    short(&template.name)
                ))
                .on(class.resource_ref())
                .at(template.field.clone()),
                for_part,
            );
            return None;
        };
        // The copy, its variables and what its patches write are taken from the run's budget;
        // once it is spent, no copy is made (the last one may pass it by its variables).
        let size = *self
            .copies
            .sizes
            .entry(item)
            .or_insert_with(|| json_bytes(&source.value));
        if let Err(spent) = self.copies.budget.take_bytes(size) {
            self.budget_spent(spent, for_part);
            return None;
        }
        let mut value = source.value.clone();
        if let Some(meta) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            meta.insert(
                "namespace".into(),
                serde_json::Value::String(cluster.namespace.clone()),
            );
        }
        // CAPI reads the template in the version the class's reference names (the patches'
        // selectors must name that version), else as written.
        let api_version = if template.api_version.is_empty() {
            source.object.api_version.to_string()
        } else {
            template.api_version.clone()
        };
        let target = Target {
            api_version,
            kind: source.object.kind.to_string(),
            role,
        };
        let c = variables::ClusterBuiltins {
            name: cluster.name.clone(),
            namespace: cluster.namespace.clone(),
            // the API server gives it
            uid: variables::Given::Unknown,
            metadata: variables::desired_cluster_metadata(
                &cluster.name,
                self.cluster.metadata.labels.as_ref(),
                self.cluster.metadata.annotations.as_ref(),
            ),
            version: self.topology.version.clone(),
            class: self.topology.class.clone(),
            class_namespace: self.topology.class_namespace.clone(),
            network: self.cluster.network.clone(),
        };
        let vars = variables::for_template(
            &self.class.variables,
            &self.topology.variables,
            overrides,
            variables::builtin(&c, &builtins),
        );
        if let Err(spent) = self.copies.budget.take_bytes(json_bytes(&vars.value)) {
            self.budget_spent(spent, for_part);
            return None;
        }
        let applied = patch::apply(
            &mut value,
            &target,
            &self.class.patches,
            &vars,
            &mut self.copies.budget,
        );
        let written = match applied {
            Ok(written) => written,
            Err(e) => {
                self.shared.add(
                    Finding::error(format!(
                        "patch {:?} cannot be applied here: fix it, since ipreuse never maps the class \
                         template's own fields instead. {} (for {{for}})",
                        short(&e.patch),
                        crate::names::capitalised(&e.reason)
                    ))
                    .on(class.resource_ref())
                    .at(e.field),
                    for_part,
                );
                return None;
            }
        };
        let mut object = source.object.clone();
        object.namespace = cluster.namespace.clone();
        let mut findings = Vec::new();
        let template = registry::read_machine_template(&object, &value, &mut findings);
        // what the reader refuses in the copy: a value a patch wrote (reported on the class, at
        // the patch), or the class template's own (reported on it): once for all copies
        for f in findings {
            let field = f.field.as_ref().map(|p| p.path.as_str()).unwrap_or("");
            let moved = match writer(&written, field) {
                Some(w) => Finding::new(
                    f.severity,
                    format!(
                        "patch {:?} writes a value CAPM3 refuses: fix the patch. In the copies of \
                         Metal3MachineTemplate {} (for {{for}}), {}",
                        short(&w.patch),
                        short(&source.object.name),
                        // the reader's message says "this field", the template's, not the patch's
                        match f.message.strip_prefix("this field ") {
                            Some(rest) => format!("{field} {rest}"),
                            None => f.message.clone(),
                        },
                    ),
                )
                .on(class.resource_ref())
                .at(w.at.clone()),
                None => {
                    let mut moved =
                        Finding::new(f.severity, format!("{}. This affects {{for}}", f.message))
                            .on(source.object.resource_ref());
                    moved.field = f.field.clone();
                    moved
                }
            };
            self.shared.add(moved, for_part.clone());
        }
        let mut template = template?;
        // read: the copy's value is not kept (CAPM3 reads only what the reader took from it)
        template.value = serde_json::Value::Null;
        Some(Effective {
            cluster: cluster.clone(),
            part,
            source: source.object.clone(),
            template,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(at: &str, tokens: &[&str]) -> patch::Written {
        patch::Written {
            patch: at.into(),
            at: at.into(),
            tokens: tokens.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn a_field_is_traced_to_the_last_operation_that_wrote_it_or_around_it() {
        assert_eq!(
            field_tokens("spec.template.spec.hostSelector.matchExpressions[0].operator"),
            [
                "spec",
                "template",
                "spec",
                "hostSelector",
                "matchExpressions",
                "0",
                "operator"
            ]
        );
        assert_eq!(
            field_tokens("spec.hostSelector.matchLabels.[a.b/c]"),
            ["spec", "hostSelector", "matchLabels", "a.b/c"]
        );
        let written = [
            w("first", &["spec", "template", "spec", "hostSelector"]),
            w("image", &["spec", "template", "spec", "image", "url"]),
            w(
                "last",
                &["spec", "template", "spec", "hostSelector", "matchLabels"],
            ),
        ];
        let at = |field: &str| writer(&written, field).map(|w| w.at.as_str());
        // under what it wrote; the last write wins
        assert_eq!(
            at("spec.template.spec.hostSelector.matchLabels.[a/b]"),
            Some("last")
        );
        assert_eq!(
            at("spec.template.spec.hostSelector.matchExpressions[0].key"),
            Some("first")
        );
        // a value holding what it wrote
        assert_eq!(at("spec.template.spec.image"), Some("image"));
        assert_eq!(at("spec.template.spec.dataTemplate.name"), None);
    }

    #[test]
    fn a_result_met_for_several_parts_is_given_once_naming_them() {
        let mut shared = Shared::default();
        for c in ["a", "b", "c", "d", "b"] {
            shared.add(Finding::error("X: bad (for {for})"), format!("Cluster {c}"));
        }
        shared.add(Finding::error("Y: other (for {for})"), "Cluster a".into());
        let got: Vec<String> = shared.into_findings().map(|f| f.message).collect();
        assert_eq!(
            got,
            [
                "X: bad (for Cluster a; Cluster b; Cluster c; 1 more)",
                "Y: other (for Cluster a)"
            ]
        );
    }
}
