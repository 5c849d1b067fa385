//! The block cache: a byte budget shared by data pages, filter modules and fence-pointer blocks,
//! with SHaMBa's two-priority LRU (reference §B.4.3). High-priority blocks (fence pointers, first
//! filter modules) live in a pool of `high_ratio × capacity`; a block pushed out of it is demoted
//! to the low pool for one more LRU round instead of being dropped.
//!
//! This is the logical cache the I/O counters see: a hit costs no I/O, a miss costs the block's
//! pages. (Backends may keep their own physical caches; those never change the counters.) It holds
//! any cheaply cloned value (`table::Block` in the engine) and knows nothing of what it caches.

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    Data,
    Filter,
    Index,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockKey {
    pub table: u64,
    pub kind: BlockKind,
    /// Page number for data, module number for filters, 0 for the index.
    pub index: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    High,
    Low,
}

const NIL: usize = usize::MAX;

struct Node<V> {
    key: BlockKey,
    block: Option<V>,
    charge: u64,
    pool: Priority,
    prev: usize,
    next: usize,
}

#[derive(Default)]
struct Pool {
    head: usize, // most recently used
    tail: usize, // least recently used
    bytes: u64,
}

pub struct BlockCache<V> {
    capacity: u64,
    high_capacity: u64,
    nodes: Vec<Node<V>>,
    free: Vec<usize>,
    map: FxHashMap<BlockKey, usize>,
    high: Pool,
    low: Pool,
    pub evictions: u64,
    pub demotions: u64,
    /// Bytes of blocks held outside the LRU lists but charged to the capacity: RocksDB's pinned
    /// entries (`pin_l0_filter_and_index_blocks_in_cache`), which take room no block can use.
    pinned: u64,
    /// RocksDB's LRUCache with a high-priority pool: a block hit once moves to the head of the
    /// high-priority pool, so blocks read again outlive blocks read once.
    midpoint_insertion: bool,
    /// The block evicted last, kept so a reader can refill its memory instead of allocating a
    /// fresh page and freeing the old one on every miss (`take_spare`). Not charged: one block.
    spare: Option<V>,
}

impl<V: Clone> BlockCache<V> {
    pub fn new(capacity: u64, high_ratio: f64) -> Self {
        BlockCache {
            capacity,
            high_capacity: (capacity as f64 * high_ratio.clamp(0.0, 1.0)) as u64,
            nodes: Vec::new(),
            free: Vec::new(),
            spare: None,
            map: FxHashMap::default(),
            high: Pool { head: NIL, tail: NIL, bytes: 0 },
            low: Pool { head: NIL, tail: NIL, bytes: 0 },
            evictions: 0,
            demotions: 0,
            pinned: 0,
            midpoint_insertion: false,
        }
    }

    /// The same cache with RocksDB's midpoint insertion (`BlockCacheConfig::midpoint_insertion`):
    /// blocks arrive in the low pool, and a hit promotes a block into the high-priority pool.
    pub fn with_midpoint_insertion(mut self, on: bool) -> Self {
        self.midpoint_insertion = on;
        self
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Charge `bytes` of pinned blocks to the capacity (replacing the previous charge), evicting
    /// what no longer fits.
    pub fn set_pinned(&mut self, bytes: u64) {
        self.pinned = bytes;
        self.evict_overflow();
    }

    /// Bytes the LRU lists may hold: the capacity less the pinned charge.
    fn room(&self) -> u64 {
        self.capacity.saturating_sub(self.pinned)
    }

    fn evict_overflow(&mut self) {
        while self.high.bytes + self.low.bytes > self.room() {
            let victim = if self.low.tail != NIL { self.low.tail } else { self.high.tail };
            if victim == NIL {
                break;
            }
            self.remove(victim);
            self.evictions += 1;
        }
    }

    /// The block evicted last, if no one took it yet: its memory, for the next block read.
    pub fn take_spare(&mut self) -> Option<V> {
        self.spare.take()
    }

    pub fn enabled(&self) -> bool {
        self.capacity > 0
    }

    pub fn resident_bytes(&self) -> u64 {
        self.high.bytes + self.low.bytes
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn pool(&mut self, p: Priority) -> &mut Pool {
        match p {
            Priority::High => &mut self.high,
            Priority::Low => &mut self.low,
        }
    }

    fn unlink(&mut self, i: usize) {
        let (prev, next, p, charge) = {
            let n = &self.nodes[i];
            (n.prev, n.next, n.pool, n.charge)
        };
        if prev != NIL {
            self.nodes[prev].next = next;
        }
        if next != NIL {
            self.nodes[next].prev = prev;
        }
        let pool = self.pool(p);
        if pool.head == i {
            pool.head = next;
        }
        if pool.tail == i {
            pool.tail = prev;
        }
        pool.bytes -= charge;
    }

    fn push_front(&mut self, i: usize, p: Priority) {
        let charge = self.nodes[i].charge;
        let head = self.pool(p).head;
        {
            let n = &mut self.nodes[i];
            n.pool = p;
            n.prev = NIL;
            n.next = head;
        }
        if head != NIL {
            self.nodes[head].prev = i;
        }
        let pool = self.pool(p);
        pool.head = i;
        if pool.tail == NIL {
            pool.tail = i;
        }
        pool.bytes += charge;
    }

    /// The block, if cached; a hit makes it the most recently used of its pool (of the high
    /// pool, with midpoint insertion).
    pub fn get(&mut self, key: &BlockKey) -> Option<V> {
        let i = *self.map.get(key)?;
        let promote = self.midpoint_insertion && self.high_capacity > 0;
        let p = if promote { Priority::High } else { self.nodes[i].pool };
        self.unlink(i);
        self.push_front(i, p);
        if promote {
            self.demote_overflow();
        }
        self.nodes[i].block.clone()
    }

    /// Move the high pool's least recently used blocks to the low pool until it fits its share.
    fn demote_overflow(&mut self) {
        while self.high.bytes > self.high_capacity && self.high.tail != NIL {
            let t = self.high.tail;
            self.unlink(t);
            self.push_front(t, Priority::Low);
            self.demotions += 1;
        }
    }

    fn remove(&mut self, i: usize) {
        self.unlink(i);
        let key = self.nodes[i].key;
        self.spare = self.nodes[i].block.take();
        self.map.remove(&key);
        self.free.push(i);
    }

    pub fn insert(&mut self, key: BlockKey, block: V, charge: u64, priority: Priority) {
        if charge > self.room() {
            return;
        }
        if let Some(&i) = self.map.get(&key) {
            self.remove(i);
        }
        let priority = if self.high_capacity == 0 { Priority::Low } else { priority };
        let node = Node { key, block: Some(block), charge, pool: priority, prev: NIL, next: NIL };
        let i = match self.free.pop() {
            Some(i) => {
                self.nodes[i] = node;
                i
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        };
        self.map.insert(key, i);
        self.push_front(i, priority);
        self.demote_overflow();
        self.evict_overflow();
    }

    /// Bytes resident per kind (data, filter, index).
    pub fn resident_by_kind(&self) -> [u64; 3] {
        let mut out = [0u64; 3];
        for &i in self.map.values() {
            let n = &self.nodes[i];
            out[n.key.kind as usize] += n.charge;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn key(i: u32) -> BlockKey {
        BlockKey { table: 1, kind: BlockKind::Data, index: i }
    }

    fn page() -> Rc<[u8]> {
        Rc::from(vec![0u8; 4])
    }

    #[test]
    fn lru_evicts_least_recently_used_within_budget() {
        let mut c = BlockCache::new(300, 0.0);
        for i in 0..3 {
            c.insert(key(i), page(), 100, Priority::Low);
        }
        assert!(c.get(&key(0)).is_some()); // 0 becomes most recent
        c.insert(key(3), page(), 100, Priority::Low);
        assert!(c.get(&key(1)).is_none(), "1 was least recently used");
        assert!(c.get(&key(0)).is_some() && c.get(&key(2)).is_some() && c.get(&key(3)).is_some());
        assert_eq!(c.resident_bytes(), 300);
        assert_eq!(c.evictions, 1);
    }

    #[test]
    fn the_block_evicted_last_is_handed_out_once_for_reuse() {
        let mut c = BlockCache::new(200, 0.0);
        let first: Rc<[u8]> = Rc::from(vec![7u8; 4]);
        c.insert(key(0), first.clone(), 100, Priority::Low);
        c.insert(key(1), page(), 100, Priority::Low);
        assert!(c.take_spare().is_none(), "nothing evicted yet");
        c.insert(key(2), page(), 100, Priority::Low);
        let spare = c.take_spare().expect("block 0 was evicted");
        assert!(Rc::ptr_eq(&spare, &first), "the spare is the evicted block itself");
        assert!(c.take_spare().is_none(), "handed out once");
        assert!(c.get(&key(0)).is_none());
        assert_eq!(c.resident_bytes(), 200);
    }

    #[test]
    fn zero_budget_caches_nothing() {
        let mut c = BlockCache::new(0, 0.5);
        c.insert(key(0), page(), 1, Priority::High);
        assert!(c.get(&key(0)).is_none());
    }

    #[test]
    fn high_priority_blocks_are_demoted_before_they_are_dropped() {
        // Shamba §B.4.3: capacity 400, high pool 200.
        let mut c = BlockCache::new(400, 0.5);
        c.insert(key(0), page(), 100, Priority::High);
        c.insert(key(1), page(), 100, Priority::High);
        c.insert(key(2), page(), 100, Priority::High); // 0 demoted to low
        assert_eq!(c.demotions, 1);
        c.insert(key(10), page(), 100, Priority::Low);
        c.insert(key(11), page(), 100, Priority::Low); // over 400: low's LRU goes first, and that is 0
        assert!(c.get(&key(0)).is_none());
        assert!(c.get(&key(1)).is_some() && c.get(&key(2)).is_some());
        // Data pages churning through the low pool never push out the high pool.
        for i in 20..40 {
            c.insert(key(i), page(), 100, Priority::Low);
        }
        assert!(c.get(&key(1)).is_some() && c.get(&key(2)).is_some());
    }

    #[test]
    fn midpoint_insertion_keeps_blocks_read_twice_past_a_stream_read_once() {
        // RocksDB's LRUCache, high pool 50%: block 0 is hit once, then 10 blocks stream through.
        let mut c = BlockCache::new(400, 0.5).with_midpoint_insertion(true);
        c.insert(key(0), page(), 100, Priority::Low);
        assert!(c.get(&key(0)).is_some());
        for i in 1..=10 {
            c.insert(key(i), page(), 100, Priority::Low);
        }
        assert!(c.get(&key(0)).is_some(), "the block read twice stays");
        // Plain LRU drops it.
        let mut lru = BlockCache::new(400, 0.5);
        lru.insert(key(0), page(), 100, Priority::Low);
        assert!(lru.get(&key(0)).is_some());
        for i in 1..=10 {
            lru.insert(key(i), page(), 100, Priority::Low);
        }
        assert!(lru.get(&key(0)).is_none());
    }

    #[test]
    fn pinned_blocks_take_room_from_the_lists() {
        let mut c = BlockCache::new(400, 0.0);
        for i in 0..4 {
            c.insert(key(i), page(), 100, Priority::Low);
        }
        // 150 B pinned: two of the four blocks (the least recently used) must go.
        c.set_pinned(150);
        assert_eq!((c.resident_bytes(), c.evictions), (200, 2));
        assert!(c.get(&key(0)).is_none() && c.get(&key(3)).is_some());
        // A block larger than the room left is not cached at all.
        c.insert(key(9), page(), 300, Priority::Low);
        assert!(c.get(&key(9)).is_none());
        c.set_pinned(0);
        c.insert(key(9), page(), 300, Priority::Low);
        assert!(c.get(&key(9)).is_some());
    }
}
