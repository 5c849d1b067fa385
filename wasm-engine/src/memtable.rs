//! The write buffer: a sorted in-memory map holding the newest version of each key, tombstones
//! included, with its size measured in entry bytes (key + value lengths) as the models count it.

use std::collections::BTreeMap;
use std::ops::Bound;

/// A stored version: `Some(value)` or a tombstone.
pub type Slot = Option<Box<[u8]>>;

#[derive(Default, Debug)]
pub struct Memtable {
    map: BTreeMap<Box<[u8]>, Slot>,
    bytes: u64,
}

/// Bytes an entry occupies in the buffer and in level capacities.
#[inline]
pub fn entry_bytes(key: &[u8], value: Option<&[u8]>) -> u64 {
    (key.len() + value.map_or(0, <[u8]>::len)) as u64
}

impl Memtable {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Entry bytes currently held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Bytes the buffer would hold after writing `key` (replacing any older version of it).
    pub fn bytes_after(&self, key: &[u8], value: Option<&[u8]>) -> u64 {
        let old = self.map.get(key).map_or(0, |v| entry_bytes(key, v.as_deref()));
        self.bytes - old + entry_bytes(key, value)
    }

    pub fn put(&mut self, key: &[u8], value: Option<&[u8]>) {
        self.bytes += entry_bytes(key, value);
        let slot: Slot = value.map(Box::from);
        if let Some(old) = self.map.insert(Box::from(key), slot) {
            self.bytes -= entry_bytes(key, old.as_deref());
        }
    }

    /// `None`: key not in the buffer; `Some(None)`: a tombstone; `Some(Some(v))`: a value.
    pub fn get(&self, key: &[u8]) -> Option<Option<&[u8]>> {
        self.map.get(key).map(|v| v.as_deref())
    }

    pub fn range<'a>(&'a self, start: &[u8], end: &[u8]) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + 'a {
        let range = (Bound::Included(Box::<[u8]>::from(start)), Bound::Included(Box::<[u8]>::from(end)));
        self.map.range(range).map(|(k, v)| (&k[..], v.as_deref()))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&[u8], Option<&[u8]>)> {
        self.map.iter().map(|(k, v)| (&k[..], v.as_deref()))
    }

    /// Hand over every entry in key order and leave the buffer empty (a flush).
    pub fn drain_sorted(&mut self) -> std::collections::btree_map::IntoIter<Box<[u8]>, Slot> {
        self.bytes = 0;
        std::mem::take(&mut self.map).into_iter()
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_bytes_across_overwrites_and_tombstones() {
        let mut m = Memtable::new();
        m.put(b"k1", Some(b"value"));
        assert_eq!(m.bytes(), 7);
        m.put(b"k1", Some(b"v"));
        assert_eq!(m.bytes(), 3);
        m.put(b"k1", None);
        assert_eq!(m.bytes(), 2);
        assert_eq!(m.get(b"k1"), Some(None));
        assert_eq!(m.get(b"k2"), None);
        assert_eq!(m.bytes_after(b"k1", Some(b"abcd")), 6);
    }

    #[test]
    fn range_is_inclusive_and_sorted() {
        let mut m = Memtable::new();
        for k in [b"c", b"a", b"d", b"b"] {
            m.put(k, Some(b"x"));
        }
        let keys: Vec<&[u8]> = m.range(b"b", b"c").map(|(k, _)| k).collect();
        assert_eq!(keys, vec![b"b" as &[u8], b"c"]);
    }
}
