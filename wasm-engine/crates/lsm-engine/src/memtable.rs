//! The write buffer: the newest version of each key, tombstones included, in key order, with its
//! size measured in entry bytes (key + value lengths) as the models count it.
//!
//! Keys and values live in one arena (a write is an append, not two allocations), indexed by a
//! B-tree on each key's first 8 bytes as a big-endian integer. Ordering by (prefix, key) is the
//! same as ordering by key, so most comparisons are integer comparisons; keys that share a prefix
//! sit together in a small bucket sorted by the full key.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::keycmp;

/// Where one version lives in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryRef {
    key: usize,
    key_len: u32,
    /// Offset of the value, or None for a tombstone.
    value: Option<usize>,
    value_len: u32,
}

impl EntryRef {
    /// This entry's key, in the buffer's `arena`.
    pub fn key<'a>(&self, arena: &'a [u8]) -> &'a [u8] {
        &arena[self.key..self.key + self.key_len as usize]
    }

    /// This entry's value in `arena`, or `None` for a tombstone.
    pub fn value<'a>(&self, arena: &'a [u8]) -> Option<&'a [u8]> {
        self.value.map(|v| &arena[v..v + self.value_len as usize])
    }

    fn bytes(&self) -> u64 {
        u64::from(self.key_len) + u64::from(self.value_len)
    }
}

/// Entries sharing one 8-byte prefix, sorted by key (almost always one).
#[derive(Debug)]
enum Bucket {
    One(EntryRef),
    Many(Vec<EntryRef>),
}

impl Bucket {
    fn entries(&self) -> &[EntryRef] {
        match self {
            Bucket::One(e) => std::slice::from_ref(e),
            Bucket::Many(v) => v,
        }
    }
}

/// A key's first 8 bytes as a big-endian integer, zero-padded: the buffer's index key (a smaller prefix
/// means a smaller key).
#[inline]
pub fn prefix(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// The write buffer: the newest version of each key (tombstones included) in key order, sized in entry
/// bytes (key + value lengths).
#[derive(Default, Debug)]
pub struct Memtable {
    arena: Vec<u8>,
    map: BTreeMap<u64, Bucket>,
    len: usize,
    bytes: u64,
    /// Entry bytes of every write since the buffer was empty, overwrites included.
    logged_bytes: u64,
    /// RocksDB's arena bytes of every write since the buffer was empty (`lsm_core::arena`).
    arena_bytes: u64,
}

/// A flushed buffer: its arena and its entries in key order, shareable so a failed flush can
/// restore them, and between threads (a background merger flushes it while lookups read it).
#[derive(Clone, Debug)]
pub struct Frozen {
    /// Every key and value the buffer took, superseded versions included.
    pub arena: Arc<Vec<u8>>,
    /// The newest version of each key, in key order.
    pub entries: Arc<Vec<EntryRef>>,
}

impl Frozen {
    /// Entries: one per key.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`-th key in key order.
    pub fn key(&self, i: usize) -> &[u8] {
        self.entries[i].key(&self.arena)
    }

    /// The `i`-th entry's value, or `None` for a tombstone.
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        self.entries[i].value(&self.arena)
    }

    /// As `Memtable::get`: `None` when the key is not here, `Some(None)` for a tombstone.
    pub fn get(&self, key: &[u8]) -> Option<Option<&[u8]>> {
        let i = self.entries.binary_search_by(|e| keycmp::compare(e.key(&self.arena), key)).ok()?;
        Some(self.value(i))
    }

    /// Entries with keys in `[start, end]`, in key order.
    pub fn range<'a>(
        &'a self,
        start: &'a [u8],
        end: &'a [u8],
    ) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + 'a {
        let from = self.entries.partition_point(|e| keycmp::compare(e.key(&self.arena), start).is_lt());
        (from..self.len())
            .map(|i| (self.key(i), self.value(i)))
            .take_while(move |(k, _)| keycmp::compare(k, end).is_le())
    }

    /// Entry bytes it holds (as `Memtable::bytes` counted them).
    pub fn bytes(&self) -> u64 {
        (0..self.len()).map(|i| entry_bytes(self.key(i), self.value(i))).sum()
    }
}

/// Bytes an entry occupies in the buffer and in level capacities.
#[inline]
pub fn entry_bytes(key: &[u8], value: Option<&[u8]>) -> u64 {
    (key.len() + value.map_or(0, <[u8]>::len)) as u64
}

impl Memtable {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keys held: one entry per key, tombstones included.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry bytes currently held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    fn find(&self, key: &[u8]) -> Option<&EntryRef> {
        self.map.get(&prefix(key))?.entries().iter().find(|e| keycmp::equal(e.key(&self.arena), key))
    }

    /// Entry bytes written since the buffer was empty, overwrites included.
    pub fn logged_bytes(&self) -> u64 {
        self.logged_bytes
    }

    /// RocksDB's arena bytes of the writes since the buffer was empty (`lsm_core::arena`).
    pub fn arena_bytes(&self) -> u64 {
        self.arena_bytes
    }

    /// Bytes the buffer would hold after writing `key` (replacing any older version of it).
    pub fn bytes_after(&self, key: &[u8], value: Option<&[u8]>) -> u64 {
        let old = self.find(key).map_or(0, EntryRef::bytes);
        self.bytes - old + entry_bytes(key, value)
    }

    /// Write `key`'s newest version (`None`: a tombstone), replacing any older one: `logged_bytes` grows by
    /// the entry, `bytes` by the difference.
    pub fn put(&mut self, key: &[u8], value: Option<&[u8]>) {
        let at = self.arena.len();
        self.arena.extend_from_slice(key);
        let value_at = value.map(|v| {
            let vat = self.arena.len();
            self.arena.extend_from_slice(v);
            vat
        });
        let new = EntryRef {
            key: at,
            key_len: key.len() as u32,
            value: value_at,
            value_len: value.map_or(0, |v| v.len() as u32),
        };
        self.bytes += new.bytes();
        self.logged_bytes += new.bytes();
        self.arena_bytes += lsm_core::arena::entry_arena_bytes(key.len() as u64, value.map_or(0, |v| v.len() as u64));
        let p = prefix(key);
        let arena = &self.arena;
        let bucket = match self.map.entry(p) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(Bucket::One(new));
                self.len += 1;
                return;
            }
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
        };
        let replaced = match bucket {
            Bucket::One(e) if keycmp::equal(e.key(arena), key) => Some(std::mem::replace(e, new)),
            bucket => {
                let mut v = match std::mem::replace(bucket, Bucket::Many(Vec::new())) {
                    Bucket::One(e) => vec![e],
                    Bucket::Many(v) => v,
                };
                let r = match v.binary_search_by(|e| keycmp::compare(e.key(arena), key)) {
                    Ok(i) => Some(std::mem::replace(&mut v[i], new)),
                    Err(i) => {
                        v.insert(i, new);
                        None
                    }
                };
                *bucket = Bucket::Many(v);
                r
            }
        };
        match replaced {
            Some(old) => self.bytes -= old.bytes(),
            None => self.len += 1,
        }
    }

    /// `None`: key not in the buffer; `Some(None)`: a tombstone; `Some(Some(v))`: a value.
    pub fn get(&self, key: &[u8]) -> Option<Option<&[u8]>> {
        self.find(key).map(|e| e.value(&self.arena))
    }

    /// Entries with keys in `[start, end]`, in key order.
    pub fn range<'a>(
        &'a self,
        start: &'a [u8],
        end: &'a [u8],
    ) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + 'a {
        let arena = &self.arena;
        let (lo, hi) = (prefix(start), prefix(end));
        let buckets = if lo <= hi { Some(self.map.range(lo..=hi)) } else { None };
        buckets
            .into_iter()
            .flatten()
            .flat_map(|(_, b)| b.entries().iter())
            .map(move |e| (e.key(arena), e.value(arena)))
            .filter(move |(k, _)| keycmp::compare(k, start).is_ge() && keycmp::compare(k, end).is_le())
    }

    /// Every entry in key order, as (key, value or `None` for a tombstone).
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], Option<&[u8]>)> {
        self.map.values().flat_map(|b| b.entries().iter()).map(|e| (e.key(&self.arena), e.value(&self.arena)))
    }

    /// Hand over every entry in key order and leave the buffer empty (a flush).
    pub fn freeze(&mut self) -> Frozen {
        let map = std::mem::take(&mut self.map);
        let mut entries = Vec::with_capacity(self.len);
        for bucket in map.into_values() {
            match bucket {
                Bucket::One(e) => entries.push(e),
                Bucket::Many(v) => entries.extend(v),
            }
        }
        self.len = 0;
        self.bytes = 0;
        self.logged_bytes = 0;
        self.arena_bytes = 0;
        // The next buffer will fill to about the same size: reserve it once instead of doubling.
        let capacity = self.arena.capacity();
        let arena = std::mem::replace(&mut self.arena, Vec::with_capacity(capacity));
        Frozen { arena: Arc::new(arena), entries: Arc::new(entries) }
    }

    /// Put a frozen buffer's entries back (a flush that failed before it was committed).
    pub fn restore(&mut self, frozen: &Frozen) {
        for i in 0..frozen.len() {
            self.put(frozen.key(i), frozen.value(i));
        }
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
        assert_eq!(m.len(), 1);
        assert_eq!(m.get(b"k1"), Some(None));
        assert_eq!(m.get(b"k2"), None);
        assert_eq!(m.bytes_after(b"k1", Some(b"abcd")), 6);
    }

    #[test]
    fn keys_sharing_a_prefix_keep_byte_order() {
        let mut m = Memtable::new();
        let keys: [&[u8]; 7] = [b"prefix00zz", b"prefix00", b"prefix00\0", b"prefix00a", b"a", b"", b"prefix01"];
        for (i, k) in keys.iter().enumerate() {
            m.put(k, Some(&[i as u8]));
        }
        m.put(b"prefix00a", Some(b"new"));
        let mut sorted: Vec<&[u8]> = keys.to_vec();
        sorted.sort();
        let got: Vec<&[u8]> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(got, sorted);
        assert_eq!(m.len(), 7);
        assert_eq!(m.get(b"prefix00a"), Some(Some(&b"new"[..])));
        let r: Vec<&[u8]> = m.range(b"prefix00\0", b"prefix00zz").map(|(k, _)| k).collect();
        assert_eq!(r, vec![&b"prefix00\0"[..], b"prefix00a", b"prefix00zz"]);
        let frozen = m.freeze();
        assert!(m.is_empty());
        let flushed: Vec<&[u8]> = (0..frozen.len()).map(|i| frozen.key(i)).collect();
        assert_eq!(flushed, sorted);
        m.restore(&frozen);
        assert_eq!(m.len(), 7);
    }

    #[test]
    fn range_is_inclusive_and_sorted() {
        let mut m = Memtable::new();
        for k in [b"c", b"a", b"d", b"b"] {
            m.put(k, Some(b"x"));
        }
        let keys: Vec<&[u8]> = m.range(b"b", b"c").map(|(k, _)| k).collect();
        assert_eq!(keys, vec![b"b" as &[u8], b"c"]);
        assert_eq!(m.range(b"d", b"a").count(), 0);
    }
}
