//! The k-way merge: sorted runs read through cursors (`RunCursor`, read-ahead, page decoding),
//! the smallest key chosen among them, older versions dropped, and the survivors copied into a
//! new table's pages (`TableBuilder::add_encoded`), all in `MemStorage`. The output's filter is
//! left out (0 bits/key): building filters is `filter`'s kernels.

use std::rc::Rc;

use lsm_core::error::{Error, Result};
use lsm_core::rng::Rng;
use lsm_engine::cursor::RunCursor;
use lsm_engine::filter::FilterSpec;
use lsm_engine::merge::{Merge, Progress, Source};
use lsm_engine::stats::{ReadCounters, WriteCounters};
use lsm_engine::storage::{MemStorage, Storage};
use lsm_engine::table::{ReadCtx, Table, TableBuilder, TableCache, table_file_name};

use crate::data::{BITS_PER_KEY, PAGE_BYTES, distinct_ids, sorted_keys, value};
use crate::kernel::Kernel;

/// Runs merged.
pub const RUNS: usize = 4;
/// Entries per run.
pub const ENTRIES: usize = 10_000;
/// Keys are drawn from this many ids, so about one key in eight of a run is in another run too
/// (an overwrite the merge drops).
const KEY_SPACE: u64 = (2 * RUNS * ENTRIES) as u64;
/// The id of the merge's output table (deleted after each iteration).
const OUTPUT: u64 = 1_000;

struct KWay {
    storage: MemStorage,
    /// Newest first, as a merge orders its sources.
    runs: Vec<Rc<Table>>,
}

impl KWay {
    fn seal(&mut self, merge: &mut Merge, written: &mut u64) -> Result<()> {
        let Some(out) = merge.take_output() else { return Ok(()) };
        let mut counters = WriteCounters::default();
        if let Some(t) = out.builder.finish(OUTPUT, FilterSpec::bloom(0.0), &mut self.storage, &mut counters)? {
            *written += t.entries;
            self.storage.await_syncs()?;
            self.storage.delete(&table_file_name(OUTPUT))?;
        }
        Ok(())
    }
}

impl Kernel for KWay {
    fn run(&mut self) -> Result<u64> {
        let sources = self.runs.iter().map(|t| Source::Run(RunCursor::new(vec![t.clone()], None))).collect();
        let mut merge = Merge::new(sources, true, u64::MAX);
        let mut written = 0;
        let mut reads = ReadCounters::default();
        let mut no_cache = TableCache::new(0, 0.0);
        loop {
            if !merge.has_output() {
                merge.start_output(TableBuilder::new(OUTPUT, PAGE_BYTES));
            }
            let mut ctx = ReadCtx { storage: &mut self.storage, cache: &mut no_cache, counters: &mut reads };
            match merge.step(&mut ctx, u64::MAX)? {
                Progress::Working => {}
                Progress::OutputFull => self.seal(&mut merge, &mut written)?,
                Progress::Done => {
                    self.seal(&mut merge, &mut written)?;
                    return Ok(written);
                }
            }
        }
    }
}

/// `RUNS` tables of `ENTRIES` entries (16 B keys, 100 B values, 10 bits/key filters) in memory.
pub fn merge(seed: u64) -> Result<Box<dyn Kernel>> {
    let mut rng = Rng::new(seed);
    let v = value(&mut rng);
    let mut storage = MemStorage::new();
    let mut runs = Vec::with_capacity(RUNS);
    for id in 1..=RUNS as u64 {
        let keys = sorted_keys(&distinct_ids(&mut rng, ENTRIES, KEY_SPACE));
        let mut builder = TableBuilder::new(id, PAGE_BYTES);
        for k in &keys {
            builder.add(k, Some(&v), &mut storage)?;
        }
        let table = builder
            .finish(id, FilterSpec::bloom(BITS_PER_KEY), &mut storage, &mut WriteCounters::default())?
            .ok_or_else(|| Error::State("a benchmark run came out empty".into()))?;
        runs.push(Rc::new(table));
    }
    storage.await_syncs()?;
    runs.reverse();
    Ok(Box::new(KWay { storage, runs }))
}
