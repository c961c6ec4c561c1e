//! Typed positions: which list a number indexes is in its type, so a host's position can never
//! be used as a pool's, nor either as an item's.
//!
//! A leaf below the readers: `Vec<Host>` and `Vec<Pool>` are indexed by their ids (`indexes!`)
//! where `Host` and `Pool` are defined, so that this module knows no reader.

/// `impl Index<$id> for Vec<$of>`: an id indexes only its own list.
macro_rules! indexes {
    ($name:ty => $of:ty) => {
        impl std::ops::Index<$name> for Vec<$of> {
            type Output = $of;
            fn index(&self, id: $name) -> &$of {
                &self[id.0]
            }
        }
    };
}
pub(crate) use indexes;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub usize);

        impl $name {
            /// Every position of a list of `len` elements, in order.
            pub fn all(len: usize) -> impl Iterator<Item = $name> {
                (0..len).map($name)
            }
        }
    };
}

id!(
    /// An item of the input: its position in the input's items (and in
    /// [`super::Index::objects`]). Edits name the item they change by it.
    ItemId
);
id!(
    /// A BareMetalHost: its position in [`super::Index::hosts`] (`Vec<Host>` is indexed by it in
    /// `host.rs`).
    HostId
);
id!(
    /// An IPPool: its position in [`super::Index::pools`] (`Vec<Pool>`: `pool.rs`).
    PoolId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_index_their_own_list_and_count_in_order() {
        let ids: Vec<PoolId> = PoolId::all(3).collect();
        assert_eq!(ids, [PoolId(0), PoolId(1), PoolId(2)]);
        assert!(HostId(1) < HostId(2));
    }
}
