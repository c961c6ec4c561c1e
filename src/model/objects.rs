//! The objects of one kind as the [`super::Model`] holds them: each with what its kind's
//! reader read of it, in input order.

use super::ItemId;
use crate::results::Finding;

/// What the reader of a kind read of one object: its position in the input, and the typed
/// object with the results its reading made ([`Part`]: `value` is `None` when the object cannot
/// be used), which the transformation that uses the object reports (an object no
/// transformation uses reports nothing).
#[derive(Debug, Clone)]
pub struct Read<T> {
    /// The object's position in the input.
    pub item: ItemId,
    read: Part<T>,
}

impl<T> Read<T> {
    /// What `read` reads of `object`, with the results it pushes.
    pub fn of(object: &super::Object, read: impl FnOnce(&mut Vec<Finding>) -> Option<T>) -> Self {
        Read {
            item: object.index,
            read: Part::of(read),
        }
    }

    /// Puts the object read at input position `item`, in `default_namespace` when it sets
    /// none ([`super::Object::place`]): what it would have been read as there. For an object
    /// read as the input was parsed ([`super::Taken`]); `object` gives the reading's own
    /// identity.
    pub(super) fn place(
        &mut self,
        item: ItemId,
        default_namespace: Option<&str>,
        object: impl FnOnce(&mut T) -> &mut super::Object,
    ) {
        self.item = item;
        if let Some(value) = self.read.value.as_mut() {
            object(value).place(item, default_namespace);
        }
    }

    /// What was read, to finish placing it (a value that depends on the object's namespace).
    pub(super) fn value_mut(&mut self) -> Option<&mut T> {
        self.read.value.as_mut()
    }

    /// Whether reading the object reported nothing (its parts aside: the kind says).
    pub(super) fn reports_nothing(&self) -> bool {
        self.read.value.is_some() && self.read.findings.is_empty()
    }
}

/// The object as read, with its results: `read.value`, `read.findings`, `read.report(..)`.
impl<T> std::ops::Deref for Read<T> {
    type Target = Part<T>;

    fn deref(&self) -> &Part<T> {
        &self.read
    }
}

/// One part of an object that a reader reads for one use (an IPClaim's Metal3Data owners, which
/// adoption follows, beside its labels, which the labels transformation writes): the value
/// (`None` when it cannot be used) with the results that say why, so that each transformation
/// reports the problems of the parts it uses and of no other.
#[derive(Debug, Clone)]
pub struct Part<T> {
    pub value: Option<T>,
    pub findings: Vec<Finding>,
}

impl<T> Part<T> {
    /// What `read` reads, with the results it pushes.
    pub fn of(read: impl FnOnce(&mut Vec<Finding>) -> Option<T>) -> Self {
        let mut findings = Vec::new();
        let value = read(&mut findings);
        Part { value, findings }
    }

    /// The part, its findings pushed onto `findings` (as a reader pushes them).
    pub fn report(&self, findings: &mut Vec<Finding>) -> Option<&T> {
        findings.extend(self.findings.iter().cloned());
        self.value.as_ref()
    }
}

/// The objects of one kind, in input order.
#[derive(Debug, Clone)]
pub struct Objects<T>(Vec<Read<T>>);

impl<T> Default for Objects<T> {
    fn default() -> Self {
        Objects(Vec::new())
    }
}

impl<T> Objects<T> {
    /// Adds the next object read (the model reads them in input order).
    pub fn push(&mut self, read: Read<T>) {
        debug_assert!(self.0.last().is_none_or(|last| last.item < read.item));
        self.0.push(read);
    }

    /// The object at input position `item`, if it is of this kind.
    pub fn get(&self, item: ItemId) -> Option<&Read<T>> {
        let i = self.0.binary_search_by_key(&item, |r| r.item).ok()?;
        self.0.get(i)
    }

    /// Every object of this kind, in input order.
    pub fn iter(&self) -> impl Iterator<Item = &Read<T>> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
