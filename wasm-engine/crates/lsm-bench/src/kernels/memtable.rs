//! The write buffer: puts of random keys into a fresh `Memtable` (arena appends and B-tree
//! inserts), the work of every insert before a flush.

use lsm_core::error::Result;
use lsm_core::rng::Rng;
use lsm_engine::memtable::Memtable;

use crate::data::{Key, key, value};
use crate::kernel::Kernel;

/// Keys put per iteration.
pub const KEYS: usize = 10_000;

struct Insert {
    keys: Vec<Key>,
    value: Vec<u8>,
}

impl Kernel for Insert {
    fn run(&mut self) -> Result<u64> {
        let mut m = Memtable::new();
        for k in &self.keys {
            m.put(k, Some(&self.value));
        }
        Ok(m.len() as u64)
    }
}

/// `KEYS` random keys (in no order) with 100 B values, put into a new buffer each iteration.
pub fn insert(seed: u64) -> Result<Box<dyn Kernel>> {
    let mut rng = Rng::new(seed);
    let keys = (0..KEYS).map(|_| key(rng.next_u64())).collect();
    Ok(Box::new(Insert { keys, value: value(&mut rng) }))
}
