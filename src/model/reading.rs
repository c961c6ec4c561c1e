//! What a kind's reader read of one object ([`Reading`]), and the items read as the input was
//! parsed ([`Taken`]), each to be placed among the items ([`Reading::place`]) once the config is
//! known. Below the index and the registry, which read and place them.

use std::sync::Arc;

use super::capi::{ControlPlaneTemplate, MachineTemplateUser};
use super::cluster::Cluster;
use super::cluster_class::ClusterClass;
use super::config_data::ConfigData;
use super::data_template::DataTemplate;
use super::deployment::Deployment;
use super::host::Host;
use super::ids::ItemId;
use super::ip_address::IpAddress;
use super::ip_claim::IpClaim;
use super::machine_template::MachineTemplate;
use super::metal3_data::Metal3Data;
use super::metal3_data_claim::Metal3DataClaim;
use super::metal3_machine::Metal3Machine;
use super::object::Object;
use super::objects::Read;
use super::provider::Provider;
use crate::results::Finding;

/// The items read as the input was parsed ([`crate::krm::read_taking`]), before the trees of
/// the rest were built: each by its source and the first byte of its item, in the order of the
/// text. Their trees are never held, only what their kinds' readers read of them.
#[derive(Debug, Default)]
pub struct Taken(pub(super) Vec<((usize, usize), Reading)>);

impl Taken {
    /// How many items were taken.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What was read of the items taken, in the order of the text.
    #[cfg(test)]
    pub(super) fn readings(&self) -> impl Iterator<Item = &Reading> {
        self.0.iter().map(|(_, r)| r)
    }
}

/// What the reader of a kind read of one object, for its kind's place in the [`super::Model`].
/// Read from the object's tree once the config is known, or as the input is parsed ([`Taken`]:
/// [`super::registry::read_as_parsed`]) and then placed ([`Reading::place`]) as if read then.
/// The boxes keep the hosts, the many, small.
#[derive(Debug, Clone)]
pub enum Reading {
    /// Read by the index ([`super::Index::hosts`]).
    Host(Host),
    IpClaim(Box<Read<IpClaim>>),
    IpAddress(Box<Read<IpAddress>>),
    Metal3Data(Box<Read<Metal3Data>>),
    Metal3DataClaim(Box<Read<Metal3DataClaim>>),
    /// With the fields spelled as the other API version spells them
    /// ([`super::Model::other_spellings`]).
    DataTemplate(Box<Read<DataTemplate>>, Vec<Finding>),
    Metal3Machine(Box<Read<Metal3Machine>>),
    /// With the fields spelled as the other API version spells them
    /// ([`super::Model::other_spellings`]).
    MachineTemplate(Box<Read<MachineTemplate>>, Vec<Finding>),
    Cluster(Box<Read<Cluster>>),
    ClusterClass(Box<Read<ClusterClass>>),
    ControlPlaneTemplate(Box<Read<ControlPlaneTemplate>>),
    MachineTemplateUser(Box<Read<MachineTemplateUser>>),
    Provider(Box<Read<Provider>>),
    Deployment(Box<Read<Deployment>>),
    ConfigData(Box<Read<ConfigData>>),
}

impl Reading {
    /// Puts the object read at input position `item`, in `default_namespace` when it sets
    /// none: what its reader would have read there, for a reading that does not depend on its
    /// namespace or position otherwise ([`super::registry::read_as_parsed`]).
    pub fn place(&mut self, item: ItemId, default_namespace: Option<&str>) {
        let ns = default_namespace;
        match self {
            // not shared yet: set in place
            Reading::Host(h) => Arc::make_mut(&mut h.object).place(item, ns),
            Reading::IpClaim(r) => r.place(item, ns, |t| &mut t.object),
            Reading::IpAddress(r) => r.place(item, ns, |t| &mut t.object),
            Reading::Metal3Data(r) => r.place(item, ns, |t| &mut t.object),
            Reading::Metal3DataClaim(r) => r.place(item, ns, |t| &mut t.object),
            Reading::DataTemplate(r, _) => r.place(item, ns, |t| &mut t.object),
            Reading::Metal3Machine(r) => r.place(item, ns, |t| &mut t.object),
            Reading::MachineTemplate(r, _) => r.place(item, ns, |t| &mut t.object),
            Reading::Cluster(r) => {
                r.place(item, ns, |t| &mut t.object);
                if let Some(c) = r.value_mut() {
                    c.place_class_namespace();
                }
            }
            Reading::ClusterClass(r) => r.place(item, ns, |t| &mut t.object),
            Reading::ControlPlaneTemplate(r) => r.place(item, ns, |t| &mut t.object),
            Reading::MachineTemplateUser(r) => r.place(item, ns, |t| &mut t.object),
            Reading::Provider(r) => r.place(item, ns, |t| &mut t.object),
            Reading::Deployment(r) => r.place(item, ns, |t| &mut t.object),
            Reading::ConfigData(r) => r.place(item, ns, |t| &mut t.object),
        }
    }

    /// Whether reading the object reported nothing, in none of its parts: its results would
    /// name it by its namespace, which the config may still change.
    pub fn reports_nothing(&self) -> bool {
        match self {
            Reading::Host(h) => h.consumer.is_ok(),
            Reading::IpClaim(r) => {
                r.reports_nothing()
                    && r.value.as_ref().is_some_and(|c| {
                        c.pool.findings.is_empty()
                            && c.data_owners.findings.is_empty()
                            && c.labels.findings.is_empty()
                    })
            }
            Reading::Metal3Data(r) => {
                r.reports_nothing()
                    && r.value.as_ref().is_some_and(|d| {
                        d.template.findings.is_empty()
                            && d.labels.findings.is_empty()
                            && d.claim.findings.is_empty()
                    })
            }
            Reading::DataTemplate(r, spellings) => r.reports_nothing() && spellings.is_empty(),
            Reading::MachineTemplate(r, spellings) => r.reports_nothing() && spellings.is_empty(),
            Reading::IpAddress(r) => r.reports_nothing(),
            Reading::Metal3DataClaim(r) => r.reports_nothing(),
            Reading::Metal3Machine(r) => r.reports_nothing(),
            Reading::Cluster(r) => r.reports_nothing(),
            Reading::ClusterClass(r) => r.reports_nothing(),
            Reading::ControlPlaneTemplate(r) => r.reports_nothing(),
            Reading::MachineTemplateUser(r) => r.reports_nothing(),
            Reading::Provider(r) => r.reports_nothing(),
            Reading::Deployment(r) => r.reports_nothing(),
            Reading::ConfigData(r) => r.reports_nothing(),
        }
    }

    /// The identity of the object read, when it could be read.
    pub fn object(&self) -> Option<&Object> {
        match self {
            Reading::Host(h) => Some(&h.object),
            Reading::IpClaim(r) => r.value.as_ref().map(|t| &t.object),
            Reading::IpAddress(r) => r.value.as_ref().map(|t| &t.object),
            Reading::Metal3Data(r) => r.value.as_ref().map(|t| &t.object),
            Reading::Metal3DataClaim(r) => r.value.as_ref().map(|t| &t.object),
            Reading::DataTemplate(r, _) => r.value.as_ref().map(|t| &t.object),
            Reading::Metal3Machine(r) => r.value.as_ref().map(|t| &t.object),
            Reading::MachineTemplate(r, _) => r.value.as_ref().map(|t| &t.object),
            Reading::Cluster(r) => r.value.as_ref().map(|t| &t.object),
            Reading::ClusterClass(r) => r.value.as_ref().map(|t| &t.object),
            Reading::ControlPlaneTemplate(r) => r.value.as_ref().map(|t| &t.object),
            Reading::MachineTemplateUser(r) => r.value.as_ref().map(|t| &t.object),
            Reading::Provider(r) => r.value.as_ref().map(|t| &t.object),
            Reading::Deployment(r) => r.value.as_ref().map(|t| &t.object),
            Reading::ConfigData(r) => r.value.as_ref().map(|t| &t.object),
        }
    }
}
