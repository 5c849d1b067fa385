//! A sorted run: tables with disjoint key ranges, in key order. Merging by whole level keeps
//! one table per run; merging by file splits a run into tables of a target size.

use std::rc::Rc;

use crate::keycmp::compare;
use crate::table::Table;

#[derive(Clone, Debug)]
pub struct Run {
    /// Runs are ordered by id within a level: a higher id is newer.
    pub id: u64,
    pub tables: Vec<Rc<Table>>,
}

impl Run {
    pub fn new(id: u64, mut tables: Vec<Rc<Table>>) -> Run {
        tables.sort_by(|a, b| a.min_key().cmp(b.min_key()));
        Run { id, tables }
    }

    pub fn entries(&self) -> u64 {
        self.tables.iter().map(|t| t.entries).sum()
    }

    pub fn entry_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.entry_bytes).sum()
    }

    pub fn min_key(&self) -> Option<&[u8]> {
        self.tables.first().map(|t| t.min_key())
    }

    pub fn max_key(&self) -> Option<&[u8]> {
        self.tables.last().map(|t| t.max_key())
    }

    /// The table whose key range holds `key`, if any.
    #[inline]
    pub fn table_for(&self, key: &[u8]) -> Option<&Rc<Table>> {
        self.table_index_for(key).map(|i| &self.tables[i])
    }

    /// `table_for`'s table, as its place in `tables`.
    pub fn table_index_for(&self, key: &[u8]) -> Option<usize> {
        let i = self.tables.partition_point(|t| compare(t.max_key(), key).is_lt());
        self.tables.get(i).filter(|t| compare(t.min_key(), key).is_le()).map(|_| i)
    }

    /// Tables overlapping `[lo, hi]`.
    pub fn overlapping(&self, lo: &[u8], hi: &[u8]) -> Vec<Rc<Table>> {
        self.tables.iter().filter(|t| t.max_key() >= lo && t.min_key() <= hi).cloned().collect()
    }

    /// The tables an iterator without an upper bound reaches scanning `[lo, hi]`: those
    /// overlapping it, then the first table past `hi`, if any. RocksDB's level iterator seeks to
    /// the first file whose largest key is ≥ `lo` (`FindFile`) even when that file starts past
    /// `hi`, and steps into a level's next file when one is used up; either way it reads that
    /// file's first block before the scan learns its range has ended (the referee, as YCSB's
    /// client, sets no `iterate_upper_bound`).
    pub fn reached(&self, lo: &[u8], hi: &[u8]) -> Vec<Rc<Table>> {
        let first = self.tables.partition_point(|t| compare(t.max_key(), lo).is_lt());
        let past = first + self.tables[first..].partition_point(|t| compare(t.min_key(), hi).is_le());
        self.tables[first..(past + 1).min(self.tables.len())].to_vec()
    }
}
