//! Small-collection helpers that keep the wasm small: the standard library's
//! sorts (and `BTreeMap`'s `FromIterator`, which sorts) are instantiated
//! afresh, several KB each, for every element type, comparator and iterator.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A `BTreeMap` from pairs, by insertion (a later pair wins, as with
/// `collect`).
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut m = BTreeMap::new();
    m.extend(pairs);
    m
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
