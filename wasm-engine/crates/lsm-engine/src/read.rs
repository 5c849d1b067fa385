//! The read path: point lookups (`Engine::get`: buffer, frozen buffer, then each run's one
//! candidate table, filters first) and range scans (`Engine::scan_visit`: a k-way merge of the
//! buffers and one cursor per overlapping run), counting every page each level reads.

use std::rc::Rc;

use crate::cursor::RunCursor;
use crate::engine::Engine;
use crate::keycmp::compare;
use crate::lookup::{FilterPolicy, probe_table};
use crate::page::Found;
use crate::stats::{OpClass, ReadCounters};
use crate::table::{ReadCtx, Table};
use lsm_core::bloom::FILTER_SEED;
use lsm_core::config::Allocation;
use lsm_core::error::Result;
use lsm_core::hash::hash64;

impl Engine {
    /// Point lookup: buffer, then levels top-down, runs newest first; stops at the first version.
    pub fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.lookups += 1;
        self.maybe_reoptimise_filters()?;
        if let Some(slot) = self.memtable.get(key).or_else(|| self.immutable.as_ref().and_then(|f| f.get(key))) {
            let (class, result) = match slot {
                Some(v) => (OpClass::GetNonZeroResult, Some(v.to_vec())),
                None => (OpClass::GetTombstone, None),
            };
            self.stats.ops[class.index()] += 1;
            return Ok(result);
        }
        let key_hash = hash64(key, FILTER_SEED);
        let policy = FilterPolicy {
            skip: self.config.filter.skip,
            mnemosyne_log_c: if self.config.filter.allocation == Allocation::Mnemosyne {
                self.mnemosyne_log_c
            } else {
                None
            },
            now: self.lookups,
            window: self.config.statistics_window as usize,
        };
        self.scratch.clear();
        self.scratch.resize(self.levels.len(), ReadCounters::default());
        // Every run's table that may hold the key, found before any is probed, with its filter
        // line asked for: a zero-result lookup probes them all, and their misses then overlap.
        self.probe_plan.clear();
        for run in self.levels.iter().flatten() {
            let table = run.table_index_for(key);
            if let Some(t) = table {
                run.tables[t].prefetch_filter(key_hash);
            }
            self.probe_plan.push(table);
        }
        let mut outcome = (OpClass::GetZeroResult, None);
        let storage = self.storage.as_mut();
        let mut plan = self.probe_plan.iter();
        'levels: for (li, level) in self.levels.iter().enumerate() {
            for run in level {
                let Some(&Some(t)) = plan.next() else {
                    self.scratch[li].runs_skipped_by_range += 1;
                    continue;
                };
                let table = &run.tables[t];
                let mut ctx =
                    ReadCtx { storage: &mut *storage, cache: &mut self.cache, counters: &mut self.scratch[li] };
                match probe_table(table, key, key_hash, &mut ctx, &policy)? {
                    Found::Absent => {}
                    Found::Tombstone => {
                        outcome = (OpClass::GetTombstone, None);
                        break 'levels;
                    }
                    Found::Value(v) => {
                        outcome = (OpClass::GetNonZeroResult, Some(v));
                        break 'levels;
                    }
                }
            }
        }
        let class = outcome.0;
        self.stats.ops[class.index()] += 1;
        for (li, c) in self.scratch.iter().enumerate() {
            self.stats.reads(li + 1, class).add(c);
        }
        Ok(outcome.1)
    }

    /// Every live key in `[start, end]` with its value, in key order.
    pub fn scan(&mut self, start: &[u8], end: &[u8]) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut out = Vec::new();
        self.scan_visit(start, end, |k, v| out.push((k.to_vec(), v.to_vec())))?;
        Ok(out)
    }

    /// Range scan calling `visit` for each live entry; returns how many were visited. Each run
    /// whose key range overlaps costs one seek plus the pages it reads; in a RocksDB-shaped
    /// design also a run with a table past the range's start, as RocksDB's iterator positions
    /// every level (`Run::reached`).
    pub fn scan_visit(&mut self, start: &[u8], end: &[u8], mut visit: impl FnMut(&[u8], &[u8])) -> Result<u64> {
        self.stats.ops[OpClass::Scan.index()] += 1;
        if start > end {
            return Ok(0);
        }
        let mut cursors: Vec<(usize, RunCursor)> = Vec::new();
        // A RocksDB-shaped design scans as RocksDB's iterator does: a run whose next table starts
        // past `end` still reads that table's first block (`Run::reached`).
        let unbounded = self.config.rocksdb_shaped();
        for (li, level) in self.levels.iter().enumerate() {
            for run in level {
                let tables: Vec<Rc<Table>> =
                    if unbounded { run.reached(start, end) } else { run.overlapping(start, end) };
                if !tables.is_empty() {
                    cursors.push((li, RunCursor::new(tables, Some(start))));
                }
            }
        }
        let mut counters = vec![ReadCounters::default(); self.levels.len()];
        let storage = self.storage.as_mut();
        for (li, c) in cursors.iter_mut() {
            let mut ctx = ReadCtx { storage: &mut *storage, cache: &mut self.cache, counters: &mut counters[*li] };
            ctx.counters.seeks += 1;
            c.advance(&mut ctx)?;
        }
        // The buffer, and under it the buffer being flushed: the newer version of a key wins.
        let immutable = self.immutable.as_ref().map(|f| f.range(start, end)).into_iter().flatten();
        let mut buffered = Newest { newer: self.memtable.range(start, end).peekable(), older: immutable.peekable() };
        let mut buffered = std::iter::from_fn(move || buffered.next()).peekable();
        let mut visited = 0;
        let mut key = Vec::new();
        loop {
            // Smallest key among the buffer and the cursors; the buffer wins ties (newest), then
            // cursors in order (newer runs first).
            let mut best: Option<usize> = None;
            for (i, (_, c)) in cursors.iter().enumerate() {
                if c.valid()
                    && compare(c.key(), end).is_le()
                    && best.is_none_or(|b| compare(c.key(), cursors[b].1.key()).is_lt())
                {
                    best = Some(i);
                }
            }
            let from_buffer = match (buffered.peek(), best) {
                (Some((bk, _)), Some(b)) => compare(bk, cursors[b].1.key()).is_le(),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            key.clear();
            if from_buffer {
                if let Some((k, v)) = buffered.next() {
                    key.extend_from_slice(k);
                    if let Some(v) = v {
                        visit(k, v);
                        visited += 1;
                    }
                }
            } else if let Some(b) = best {
                key.extend_from_slice(cursors[b].1.key());
                if let Some(v) = cursors[b].1.value() {
                    visit(&key, v);
                    visited += 1;
                }
            }
            for (li, c) in cursors.iter_mut() {
                let mut ctx = ReadCtx { storage: &mut *storage, cache: &mut self.cache, counters: &mut counters[*li] };
                while c.valid() && compare(c.key(), &key).is_le() {
                    c.advance(&mut ctx)?;
                }
            }
        }
        for (li, c) in counters.iter().enumerate() {
            self.stats.reads(li + 1, OpClass::Scan).add(c);
        }
        Ok(visited)
    }
}

/// Two sorted entry streams merged, the newer one's version winning on equal keys.
struct Newest<'a, A, B>
where
    A: Iterator<Item = (&'a [u8], Option<&'a [u8]>)>,
    B: Iterator<Item = (&'a [u8], Option<&'a [u8]>)>,
{
    newer: std::iter::Peekable<A>,
    older: std::iter::Peekable<B>,
}

impl<'a, A, B> Newest<'a, A, B>
where
    A: Iterator<Item = (&'a [u8], Option<&'a [u8]>)>,
    B: Iterator<Item = (&'a [u8], Option<&'a [u8]>)>,
{
    fn next(&mut self) -> Option<(&'a [u8], Option<&'a [u8]>)> {
        match (self.newer.peek(), self.older.peek()) {
            (Some(n), Some(o)) if compare(o.0, n.0).is_lt() => self.older.next(),
            (Some(n), Some(o)) if crate::keycmp::equal(o.0, n.0) => {
                self.older.next();
                self.newer.next()
            }
            (Some(_), _) => self.newer.next(),
            (None, _) => self.older.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::FilterSpec;
    use crate::run::Run;
    use crate::stats::WriteCounters;
    use crate::storage::MemStorage;
    use crate::table::TableBuilder;
    use lsm_core::config::{BlockCacheConfig, BlockLayout, EngineConfig, Granularity};
    use lsm_core::filter_kinds::Structure;

    fn key(i: u32) -> Vec<u8> {
        format!("key{i:06}").into_bytes()
    }

    /// An engine whose level 2 holds two tables with a gap between them: keys 0–99 and 200–299,
    /// 100 B values (about 35 to a 4 KiB block). RocksDB-shaped or not (merges by level).
    fn gapped(rocksdb_shaped: bool) -> Engine {
        let mut c = EngineConfig::uniform_shape(10.0, 1, Allocation::Uniform, 10.0);
        c.block_layout = BlockLayout::Rocksdb;
        c.compaction.granularity = if rocksdb_shaped { Granularity::File } else { Granularity::Level };
        c.block_cache = BlockCacheConfig { bytes: 1 << 20, ..BlockCacheConfig::default() };
        assert_eq!(c.rocksdb_shaped(), rocksdb_shaped);
        let mut engine = Engine::create(c.clone(), Box::new(MemStorage::new())).unwrap();
        let mut tables = Vec::new();
        for (id, keys) in [(1000, 0..100), (1001, 200..300)] {
            let mut b = TableBuilder::for_config(id, &c);
            for i in keys {
                b.add(&key(i), Some(&[7u8; 100]), engine.storage.as_mut()).unwrap();
            }
            let spec = FilterSpec::of(Structure::FastLocalBloom, 10.0);
            let t = b.finish(id, spec, engine.storage.as_mut(), &mut WriteCounters::default()).unwrap().unwrap();
            assert!(t.data_pages >= 3, "each table spans several blocks");
            tables.push(Rc::new(t));
        }
        engine.levels = vec![Vec::new(), vec![Run::new(2000, tables)]];
        engine
    }

    /// Level 2's scan counters since the last call: (blocks read, cache hits, seeks), and the
    /// entries the scan returned.
    fn scan(engine: &mut Engine, from: u32, to: u32) -> (u64, u64, u64, usize) {
        scan_keys(engine, &key(from), &key(to))
    }

    fn scan_keys(engine: &mut Engine, from: &[u8], to: &[u8]) -> (u64, u64, u64, usize) {
        let found = engine.scan(from, to).unwrap().len();
        let c = std::mem::take(engine.stats.reads(2, OpClass::Scan));
        (c.data_pages_read, c.data_cache_hits, c.seeks, found)
    }

    #[test]
    fn a_rocksdb_shaped_scan_reads_the_first_block_of_the_file_past_a_gap() {
        let mut e = gapped(true);
        // Wholly in the gap: the level is positioned on the next table, whose first block is read
        // (a miss), then found in the cache by every later scan landing in the gap.
        assert_eq!(scan(&mut e, 120, 130), (1, 0, 1, 0));
        assert_eq!(scan(&mut e, 150, 199), (0, 1, 1, 0));
        // Ending at the first table's last key: its blocks, then the next table's first block
        // (cached) shows the range has ended.
        let (read, hits, seeks, found) = scan(&mut e, 90, 99);
        assert_eq!((read, hits, seeks, found), (1, 1, 1, 10));
        // Past the level's last key: nothing to position on, nothing read.
        assert_eq!(scan(&mut e, 300, 400), (0, 0, 0, 0));
        // Wholly before the level's first key: the first table's first block.
        assert_eq!(scan_keys(&mut e, b"a", b"b"), (1, 0, 1, 0));
        assert_eq!(scan_keys(&mut e, b"c", b"d"), (0, 1, 1, 0));
    }

    #[test]
    fn other_designs_scan_only_the_tables_their_range_overlaps() {
        let mut e = gapped(false);
        assert_eq!(scan(&mut e, 120, 130), (0, 0, 0, 0));
        assert_eq!(scan(&mut e, 90, 99), (1, 0, 1, 10));
    }
}
