//! Small-collection helpers that keep the wasm small: the standard library's
//! sorts and `BTreeMap` are instantiated afresh, several KB each, for every
//! element type, comparator and iterator.

use std::cmp::Ordering;

/// A [`SmallMap`] from pairs, by insertion (a later pair wins, as with
/// `collect`).
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> SmallMap<K, V> {
    let mut m = SmallMap::new();
    m.extend(pairs);
    m
}

/// Joins string slices with a separator, like `[S]::join`, which std
/// instantiates per item type with a large copy-specialised body (about
/// 1 KB of wasm each); this is one short loop.
pub trait Join {
    /// The items, with `sep` between each two.
    fn joined(&self, sep: &str) -> String;
}

impl<S: AsRef<str>> Join for [S] {
    fn joined(&self, sep: &str) -> String {
        let mut out = String::new();
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(item.as_ref());
        }
        out
    }
}

/// A stable insertion sort, for the short lists the app sorts.
pub fn sort_small_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && cmp(&v[j - 1], &v[j]) == Ordering::Greater {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A map kept as a sorted `Vec` of pairs: the same API subset and order as
/// `BTreeMap` for the few keys the app keeps (sizes, chip edits, progress),
/// with much less code per key and value type in the wasm.
#[derive(Clone, PartialEq, Eq)]
pub struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap {
            entries: Vec::new(),
        }
    }
}

impl<K: std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for SmallMap<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value for `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value for `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`; returns its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The value for `key`, inserted as `V::default()` if missing.
    pub fn get_or_insert_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, V::default()));
                i
            }
        };
        &mut self.entries[i].1
    }
}

impl<K, V> SmallMap<K, V> {
    /// How many keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every key.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K: Ord, V> Extend<(K, V)> for SmallMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        for (k, v) in pairs {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    /// A later pair wins, as with `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut m = SmallMap::new();
        m.extend(pairs);
        m
    }
}

impl<K, V> IntoIterator for SmallMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(pair_refs)
    }
}

fn pair_refs<K, V>((k, v): &(K, V)) -> (&K, &V) {
    (k, v)
}

#[cfg(test)]
mod tests {
    use super::{Join, SmallMap};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    proptest! {
        #[test]
        fn joined_is_std_join(items in proptest::collection::vec(".{0,4}", 0..6), sep in ".{0,3}") {
            prop_assert_eq!(items.joined(&sep), items.join(sep.as_str()));
            let strs: Vec<&str> = items.iter().map(String::as_str).collect();
            prop_assert_eq!(strs.joined(&sep), strs.join(sep.as_str()));
        }
    }

    proptest! {
        /// Any sequence of inserts and removes leaves the same map, in the
        /// same order, as `BTreeMap`.
        #[test]
        fn behaves_like_btreemap(ops in proptest::collection::vec((any::<bool>(), 0u8..20, any::<i32>()), 0..60)) {
            let mut small = SmallMap::new();
            let mut big = BTreeMap::new();
            for (insert, k, v) in ops {
                if insert {
                    prop_assert_eq!(small.insert(k, v), big.insert(k, v));
                } else {
                    prop_assert_eq!(small.remove(&k), big.remove(&k));
                }
                prop_assert_eq!(small.get(&k), big.get(&k));
            }
            prop_assert_eq!(small.len(), big.len());
            let a: Vec<_> = small.iter().collect();
            let b: Vec<_> = big.iter().collect();
            prop_assert_eq!(a, b);
        }
    }
}
