//! The write buffer: the newest version of each key, tombstones included, in key order, with its
//! size measured in entry bytes (key + value lengths) as the models count it.
//!
//! Keys and values live in one arena (a write is an append, not two allocations), indexed by a
//! B-tree on each key's first 8 bytes as a big-endian integer. Ordering by (prefix, key) is the
//! same as ordering by key, so most comparisons are integer comparisons; keys that share a prefix
//! sit together in a small bucket sorted by the full key. A bitmap over the prefixes held
//! (`PrefixFilter`) answers most lookups of absent keys in one cache line, before the B-tree walk.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

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

/// The buffer's index: each key's newest version by prefix, and the prefixes held as a filter
/// (most keys a lookup or a new write asks for are absent). Frozen whole at a flush, so the
/// frozen buffer answers lookups the same way.
#[derive(Default, Debug)]
struct Index {
    map: BTreeMap<u64, Bucket>,
    prefixes: PrefixFilter,
}

impl Index {
    fn find(&self, arena: &[u8], key: &[u8]) -> Option<&EntryRef> {
        let p = prefix(key);
        if !self.prefixes.may_contain(p) {
            return None;
        }
        self.map.get(&p)?.entries().iter().find(|e| keycmp::equal(e.key(arena), key))
    }

    /// Entries with keys in `[start, end]`, in key order.
    fn range<'a>(
        &'a self,
        arena: &'a [u8],
        start: &'a [u8],
        end: &'a [u8],
    ) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + 'a {
        let (lo, hi) = (prefix(start), prefix(end));
        let buckets = if lo <= hi { Some(self.map.range(lo..=hi)) } else { None };
        buckets
            .into_iter()
            .flatten()
            .flat_map(|(_, b)| b.entries().iter())
            .map(move |e| (e.key(arena), e.value(arena)))
            .filter(move |(k, _)| keycmp::compare(k, start).is_ge() && keycmp::compare(k, end).is_le())
    }

    /// Every entry in key order.
    fn entries(&self) -> impl Iterator<Item = &EntryRef> {
        self.map.values().flat_map(Bucket::entries)
    }
}

/// A buffer's keys and values (one arena) and their index: what a live buffer and a frozen one both
/// read, so both answer `get`, `range` and `iter` by the same code (each derefs to it).
#[derive(Default, Debug)]
pub struct Contents {
    /// Every key and value the buffer took, superseded versions included.
    arena: Vec<u8>,
    index: Index,
}

impl Contents {
    fn find(&self, key: &[u8]) -> Option<&EntryRef> {
        self.index.find(&self.arena, key)
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
        self.index.range(&self.arena, start, end)
    }

    /// Every entry in key order, as (key, value or `None` for a tombstone).
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], Option<&[u8]>)> {
        self.index.entries().map(|e| (e.key(&self.arena), e.value(&self.arena)))
    }
}

/// The write buffer: the newest version of each key (tombstones included) in key order, sized in entry
/// bytes (key + value lengths).
#[derive(Default, Debug)]
pub struct Memtable {
    contents: Contents,
    len: usize,
    bytes: u64,
    /// Entry bytes of every write since the buffer was empty, overwrites included.
    logged_bytes: u64,
    /// RocksDB's arena bytes of every write since the buffer was empty (`lsm_core::arena`).
    arena_bytes: u64,
}

/// A flushed buffer: its arena and its index as they were, shareable so a failed flush can
/// restore them, and between threads (a background merger flushes it while lookups read it).
/// Freezing moves them, so a buffer switch costs the writer nothing however large the buffer;
/// the flat list of entries in key order that a flush walks is built by whoever first asks for
/// it (the flush, on the merger's thread when merges run in the background).
#[derive(Clone, Debug)]
pub struct Frozen {
    contents: Arc<Contents>,
    /// The newest version of each key, in key order: built once, on first use.
    entries: Arc<OnceLock<Vec<EntryRef>>>,
    len: usize,
    bytes: u64,
}

impl Frozen {
    /// Entries: one per key.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn entries(&self) -> &[EntryRef] {
        self.entries.get_or_init(|| {
            let mut entries = Vec::with_capacity(self.len);
            entries.extend(self.index.entries().copied());
            entries
        })
    }

    /// The `i`-th key in key order.
    pub fn key(&self, i: usize) -> &[u8] {
        self.entries()[i].key(&self.arena)
    }

    /// The `i`-th entry's value, or `None` for a tombstone.
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        self.entries()[i].value(&self.arena)
    }

    /// Entry bytes it holds (as `Memtable::bytes` counted them).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl std::ops::Deref for Frozen {
    type Target = Contents;
    fn deref(&self) -> &Contents {
        &self.contents
    }
}

impl std::ops::Deref for Memtable {
    type Target = Contents;
    fn deref(&self) -> &Contents {
        &self.contents
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
        let arena = &mut self.contents.arena;
        let at = arena.len();
        arena.extend_from_slice(key);
        let value_at = value.map(|v| {
            let vat = arena.len();
            arena.extend_from_slice(v);
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
        let arena = &self.contents.arena;
        let index = &mut self.contents.index;
        let bucket = match index.map.entry(p) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(Bucket::One(new));
                self.len += 1;
                index.prefixes.insert(p, index.map.len(), || index.map.keys().copied());
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

    /// Hand over every entry and leave the buffer empty (a flush): the arena and the index move
    /// as they are, so this costs the same for a buffer of any size.
    pub fn freeze(&mut self) -> Frozen {
        // The next buffer will fill to about the same size: reserve it once instead of doubling,
        // and start its prefix filter at this one's size.
        let next = Contents {
            arena: Vec::with_capacity(self.contents.arena.capacity()),
            index: Index { map: BTreeMap::new(), prefixes: self.contents.index.prefixes.emptied() },
        };
        let frozen = Frozen {
            contents: Arc::new(std::mem::replace(&mut self.contents, next)),
            entries: Arc::new(OnceLock::new()),
            len: self.len,
            bytes: self.bytes,
        };
        self.len = 0;
        self.bytes = 0;
        self.logged_bytes = 0;
        self.arena_bytes = 0;
        frozen
    }

    /// Put a frozen buffer's entries back (a flush that failed before it was committed).
    pub fn restore(&mut self, frozen: &Frozen) {
        for (key, value) in frozen.iter() {
            self.put(key, value);
        }
    }
}

/// Which 8-byte prefixes the buffer holds, as a blocked Bloom filter: two bits of one 64-bit word
/// per prefix, 16 to 32 bits per prefix. A buffer of a few hundred thousand keys is a B-tree of
/// five or six levels, each a cache miss for a key it does not hold; this is one, and it says
/// "absent" for all but 0.5-1.5% of such keys. It doubles (rebuilt from the B-tree's keys) as the
/// buffer grows, so its size follows the buffer's without knowing it ahead.
#[derive(Default, Debug)]
struct PrefixFilter {
    words: Vec<u64>,
}

/// Prefixes per word before the filter doubles (16 bits each).
const PREFIXES_PER_WORD: usize = 4;
/// The smallest filter: 4 KiB, 2,048 prefixes.
const MIN_WORDS: usize = 512;

impl PrefixFilter {
    /// The word and the two bits `p` sets (a 64-bit mix, so prefixes that differ in their low
    /// bytes only, as consecutive integers do, spread over every word).
    #[inline]
    fn place(&self, p: u64) -> (usize, u64) {
        let mut h = p ^ (p >> 31);
        h = h.wrapping_mul(0x7FB5_D329_728E_A185);
        h ^= h >> 27;
        h = h.wrapping_mul(0x81DA_DEF4_BC2D_D44D);
        h ^= h >> 33;
        let word = (h >> 12) as usize & (self.words.len() - 1);
        (word, (1u64 << (h & 63)) | (1u64 << ((h >> 6) & 63)))
    }

    /// False: no key of prefix `p` is in the buffer.
    #[inline]
    fn may_contain(&self, p: u64) -> bool {
        if self.words.is_empty() {
            return false;
        }
        let (w, bits) = self.place(p);
        self.words[w] & bits == bits
    }

    /// Record prefix `p`, the `held`-th distinct one; `all` lists every prefix held (`p` too),
    /// for a rebuild when the filter doubles.
    fn insert<I: Iterator<Item = u64>>(&mut self, p: u64, held: usize, all: impl FnOnce() -> I) {
        if held > self.words.len() * PREFIXES_PER_WORD {
            let words = (held / PREFIXES_PER_WORD).next_power_of_two().max(MIN_WORDS) * 2;
            self.words = vec![0; words];
            for q in all() {
                self.set(q);
            }
        } else {
            self.set(p);
        }
    }

    fn set(&mut self, p: u64) {
        let (w, bits) = self.place(p);
        self.words[w] |= bits;
    }

    /// An empty filter of this one's size: the next buffer fills to about the same.
    fn emptied(&self) -> PrefixFilter {
        PrefixFilter { words: vec![0; self.words.len()] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_filter_holds_every_prefix_and_passes_few_others() {
        let mut m = Memtable::new();
        // Consecutive integers, as the workloads' keys begin, then a spread of others.
        let held: Vec<u64> = (0..50_000u64)
            .map(|i| i * 3)
            .chain((1..=50_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        for &p in &held {
            m.put(&p.to_be_bytes(), Some(b"v"));
        }
        assert_eq!(m.len(), held.len());
        assert!(held.iter().all(|&p| m.index.prefixes.may_contain(p) && m.get(&p.to_be_bytes()).is_some()));
        // 100,000 prefixes at 20 bits each (the filter doubled at 65,536): two bits of a word pass about 1%.
        let absent = (0..100_000u64).map(|i| i * 3 + 1);
        let passed = absent.filter(|&p| m.index.prefixes.may_contain(p)).count();
        assert!((500..=2_500).contains(&passed), "{passed} of 100,000 absent prefixes passed");
        m.freeze();
        assert!(!m.index.prefixes.may_contain(0) && m.get(&0u64.to_be_bytes()).is_none());
        m.put(b"k", Some(b"v"));
        assert_eq!(m.get(b"k"), Some(Some(&b"v"[..])));
    }

    #[test]
    fn freezing_moves_the_index_and_builds_the_flat_list_only_when_a_flush_walks_it() {
        let mut m = Memtable::new();
        for i in 0..10_000u64 {
            m.put(&(i * 7).to_be_bytes(), Some(b"v"));
        }
        m.put(&14u64.to_be_bytes(), None);
        let bytes = m.bytes();
        let f = m.freeze();
        assert!(m.is_empty() && m.bytes() == 0);
        assert_eq!((f.len(), f.bytes()), (10_000, bytes));
        // The switch built nothing; lookups and scans use the index that moved.
        assert!(f.entries.get().is_none());
        assert_eq!(f.get(&7u64.to_be_bytes()), Some(Some(&b"v"[..])));
        assert_eq!(f.get(&14u64.to_be_bytes()), Some(None));
        assert_eq!(f.get(&15u64.to_be_bytes()), None);
        assert_eq!(f.range(&0u64.to_be_bytes(), &70u64.to_be_bytes()).count(), 11);
        assert!(f.entries.get().is_none());
        // A flush's walk builds the list once, in key order.
        assert_eq!(f.key(9_999), &(9_999u64 * 7).to_be_bytes());
        assert_eq!(f.value(2), None);
        assert_eq!(f.entries.get().map(Vec::len), Some(10_000));
        // The next buffer's prefix filter starts at this one's size, empty.
        assert_eq!(m.index.prefixes.words.len(), f.index.prefixes.words.len());
        assert!(m.index.prefixes.words.iter().all(|&w| w == 0));
        m.restore(&f);
        assert_eq!((m.len(), m.bytes()), (10_000, bytes));
    }

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
