//! A point lookup through the table reader, as `Engine::get` makes it in each run whose key
//! range holds the key, with the default configuration (filters and fences pinned, no block
//! cache, no filter skipping): hash the key, probe the filter's modules in order, find the page
//! with the fence pointers, read and verify it through storage and search it.
//!
//! The engine's own `probe_table` (which also keeps Merlin's per-file statistics for SHaMBa and
//! Mnemosyne) is private to the engine; this kernel walks the same steps through `Table`'s
//! public reader methods.

use lsm_core::error::{Error, Result};
use lsm_core::rng::Rng;
use lsm_engine::filter::FilterSpec;
use lsm_engine::page::{self, Found};
use lsm_engine::stats::{ReadCounters, WriteCounters};
use lsm_engine::storage::{MemStorage, Storage};
use lsm_engine::table::{ReadCtx, Table, TableBuilder, TableCache};

use crate::data::{BITS_PER_KEY, Key, PAGE_BYTES, key, key_hash, probes, value};
use crate::kernel::Kernel;

/// Entries in the table.
pub const ENTRIES: usize = 100_000;
/// Lookups per iteration.
pub const LOOKUPS: usize = 1_000;

struct Get {
    storage: MemStorage,
    table: Table,
    cache: TableCache,
    keys: Vec<Key>,
}

/// One lookup in `table`: what the engine's `probe_table` does without filter skipping.
fn lookup(table: &Table, key: &[u8], ctx: &mut ReadCtx<'_>) -> Result<Found> {
    let h = key_hash(key);
    for d in 0..table.modules().len() {
        if !table.module(d, ctx)?.may_contain(h, d) {
            ctx.counters.filter_negatives += 1;
            return Ok(Found::Absent);
        }
    }
    let p = table.fences(ctx)?.page_for(key);
    let offset = p as u64 * u64::from(table.page_bytes);
    let file = &table.file;
    table.with_page(p, ctx, |bytes| page::search(file, offset, bytes, key))
}

impl Kernel for Get {
    fn run(&mut self) -> Result<u64> {
        let mut counters = ReadCounters::default();
        let mut ctx = ReadCtx { storage: &mut self.storage, cache: &mut self.cache, counters: &mut counters };
        let mut found = 0;
        for k in &self.keys {
            if let Found::Value(v) = lookup(&self.table, k, &mut ctx)? {
                found += v.len() as u64;
            }
        }
        Ok(found)
    }
}

/// A table of `ENTRIES` entries (keys of even ids) in `MemStorage`, its filter (10 bits/key) and
/// fences pinned and no block cache, as the engine's default configuration keeps a table; and
/// `LOOKUPS` keys, half of them in it.
pub fn get(seed: u64) -> Result<Box<dyn Kernel>> {
    let mut rng = Rng::new(seed);
    let v = value(&mut rng);
    let mut keys: Vec<Key> = (0..ENTRIES as u64).map(|i| key(2 * i)).collect();
    keys.sort_unstable();
    let mut storage = MemStorage::new();
    let mut builder = TableBuilder::new(1, PAGE_BYTES);
    for k in &keys {
        builder.add(k, Some(&v), &mut storage)?;
    }
    let table = builder
        .finish(1, FilterSpec::bloom(BITS_PER_KEY), &mut storage, &mut WriteCounters::default())?
        .ok_or_else(|| Error::State("the benchmark table came out empty".into()))?;
    storage.await_syncs()?;
    let lookups = probes(&mut rng, &keys, LOOKUPS, 1 << 40);
    Ok(Box::new(Get { storage, table, cache: TableCache::new(0, 0.0), keys: lookups }))
}
