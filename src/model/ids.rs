//! Typed positions: which list a number indexes is in its type, so a host's position can never
//! be used as a pool's, nor either as an item's.

use serde_json::Value;

use super::host::Host;
use super::pool::Pool;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident indexes $of:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub usize);

        impl std::ops::Index<$name> for Vec<$of> {
            type Output = $of;
            fn index(&self, id: $name) -> &$of {
                &self[id.0]
            }
        }

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
    ItemId indexes Value
);
id!(
    /// A BareMetalHost: its position in [`super::Index::hosts`].
    HostId indexes Host
);
id!(
    /// An IPPool: its position in [`super::Index::pools`].
    PoolId indexes Pool
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
