//! K-way merge of sorted sources (the buffer and runs) into one new run, resumable in bounded
//! steps. Sources are ordered newest first: on equal keys the newest version wins and the rest
//! are dropped; tombstones are dropped too when the output will be the oldest data in the tree.

use std::collections::btree_map;

use crate::error::Result;
use crate::memtable::Slot;
use crate::run::{FilterSpec, Run, RunBuilder, RunCursor};
use crate::stats::WriteCounters;
use crate::storage::Storage;

pub enum Source {
    Buffer { iter: btree_map::IntoIter<Box<[u8]>, Slot>, current: Option<(Box<[u8]>, Slot)> },
    Run(RunCursor),
}

impl Source {
    pub fn buffer(iter: btree_map::IntoIter<Box<[u8]>, Slot>) -> Self {
        Source::Buffer { iter, current: None }
    }

    fn valid(&self) -> bool {
        match self {
            Source::Buffer { current, .. } => current.is_some(),
            Source::Run(c) => c.valid(),
        }
    }

    fn key(&self) -> &[u8] {
        match self {
            Source::Buffer { current, .. } => current.as_ref().map_or(&[], |(k, _)| &k[..]),
            Source::Run(c) => c.key(),
        }
    }

    fn value(&self) -> Option<&[u8]> {
        match self {
            Source::Buffer { current, .. } => current.as_ref().and_then(|(_, v)| v.as_deref()),
            Source::Run(c) => c.value(),
        }
    }

    fn advance(&mut self, storage: &mut dyn Storage, pages_read: &mut u64) -> Result<()> {
        match self {
            Source::Buffer { iter, current } => *current = iter.next(),
            Source::Run(c) => {
                c.advance(storage, pages_read)?;
            }
        }
        Ok(())
    }
}

/// A merge in progress.
pub struct Merge {
    sources: Vec<Source>,
    builder: RunBuilder,
    drop_tombstones: bool,
    started: bool,
    scratch: Vec<u8>,
    /// Input pages read and entries seen/dropped so far.
    pub counters: WriteCounters,
}

impl Merge {
    pub fn new(sources: Vec<Source>, builder: RunBuilder, drop_tombstones: bool) -> Self {
        Merge {
            sources,
            builder,
            drop_tombstones,
            started: false,
            scratch: Vec::new(),
            counters: WriteCounters::default(),
        }
    }

    /// Entries written to the output so far.
    pub fn output_entries(&self) -> u64 {
        self.builder.entries()
    }

    /// Advance until about `max_pages` output pages have been produced (`u64::MAX`: to the end).
    /// Returns true when every source is exhausted.
    pub fn step(&mut self, storage: &mut dyn Storage, max_pages: u64) -> Result<bool> {
        if !self.started {
            for s in &mut self.sources {
                s.advance(storage, &mut self.counters.pages_read)?;
            }
            self.started = true;
        }
        let start_pages = self.builder.data_pages();
        loop {
            let mut best: Option<usize> = None;
            for (i, s) in self.sources.iter().enumerate() {
                if s.valid() && best.is_none_or(|b| s.key() < self.sources[b].key()) {
                    best = Some(i);
                }
            }
            let Some(b) = best else { return Ok(true) };
            self.scratch.clear();
            self.scratch.extend_from_slice(self.sources[b].key());
            let value = self.sources[b].value();
            if value.is_some() || !self.drop_tombstones {
                self.builder.add(&self.scratch, value, storage)?;
            }
            for s in &mut self.sources {
                if s.valid() && s.key() == &self.scratch[..] {
                    self.counters.entries_read += 1;
                    s.advance(storage, &mut self.counters.pages_read)?;
                }
            }
            if self.builder.data_pages() - start_pages >= max_pages {
                return Ok(false);
            }
        }
    }

    /// Seal the output run (filter sized by `filter`) and return it with the merge counters.
    pub fn finish(
        self,
        id: u64,
        filter: FilterSpec,
        storage: &mut dyn Storage,
    ) -> Result<(Option<Run>, WriteCounters)> {
        let mut counters = self.counters;
        // Superseded versions and dropped tombstones: everything read but not written.
        counters.entries_dropped = counters.entries_read - self.builder.entries();
        let run = self.builder.finish(id, filter, storage, &mut counters)?;
        Ok((run, counters))
    }
}
