//! Handing a table just built on the merger's thread to the writer (`Handover`), and the check
//! that makes that sound.

use std::rc::Rc;

use super::reader::Table;

impl Table {
    /// Whether this table is the only owner of every block it holds (each `Rc` in it has no other
    /// strong or weak reference): true of a table a builder has just finished. What `Handover`
    /// checks before the table may cross to another thread.
    ///
    /// Every `Rc` a `Table` holds must be checked here: a new one left out would let a shared
    /// block cross threads.
    fn owns_its_blocks(&self) -> bool {
        fn sole<T: ?Sized>(rc: &Rc<T>) -> bool {
            Rc::strong_count(rc) == 1 && Rc::weak_count(rc) == 0
        }
        self.block_ends.as_ref().is_none_or(sole)
            && self.pinned_filter.as_ref().is_none_or(|f| f.iter().all(sole))
            && self.pinned_fences.as_ref().is_none_or(sole)
            && self.parts.index_top.as_ref().is_none_or(sole)
            && self.parts.filter_top.as_ref().is_none_or(sole)
            && self
                .parts
                .partitions
                .as_ref()
                .is_none_or(|p| sole(p) && p.index.iter().all(sole) && p.filter.iter().all(sole))
    }
}

/// A table the merger's thread has just built, handed to the writer whole, its filter and fence
/// pointers already in memory: installing a merge then reads nothing back (reopening eleven 64 MiB
/// outputs took the writer tens of milliseconds, one insert's wait).
pub(crate) struct Handover(Table);

// SAFETY: a `Table` is not `Send` only because of its `Rc`s (its `RefCell` and every other field
// are `Send`). `Handover::new` admits a table only when it is the sole owner of each of them (no
// other strong or weak reference, checked by `owns_its_blocks`), so moving the table moves every
// owner of those counts at once: no count is ever touched from two threads. Nothing can clone an
// `Rc` out of a `Handover` before `into_table` gives the table back on the receiving thread.
unsafe impl Send for Handover {}

impl Handover {
    /// `table`, ready to cross to another thread; the table given back if it shares a block.
    pub(crate) fn new(table: Table) -> std::result::Result<Handover, Box<Table>> {
        if table.owns_its_blocks() { Ok(Handover(table)) } else { Err(Box::new(table)) }
    }

    pub(crate) fn into_table(self) -> Table {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::FilterSpec;
    use crate::stats::WriteCounters;
    use crate::storage::MemStorage;
    use crate::table::TableBuilder;
    use lsm_core::config::{BlockLayout, EngineConfig, IndexType};
    use lsm_core::filter_kinds::Structure;

    /// A table of 5,000 keys as a merger's builder leaves it, in RocksDB's blocks, partitioned or not.
    fn built(partitioned: bool) -> Table {
        let mut config = EngineConfig::uniform_shape(10.0, 1, lsm_core::config::Allocation::Uniform, 10.0);
        config.block_layout = BlockLayout::Rocksdb;
        if partitioned {
            config.block_cache.index_type = IndexType::TwoLevelIndexSearch;
            config.block_cache.partition_filters = true;
        }
        config.validate().unwrap();
        let mut storage = MemStorage::new();
        let mut b = TableBuilder::for_config(1, &config);
        for i in 0..5_000u32 {
            b.add(format!("key{i:08}").as_bytes(), Some(&[1u8; 100]), &mut storage).unwrap();
        }
        let spec = FilterSpec::of(Structure::FastLocalBloom, 10.0);
        b.finish(1, spec, &mut storage, &mut WriteCounters::default()).unwrap().unwrap()
    }

    #[test]
    fn a_table_just_built_is_handed_over_whole() {
        for partitioned in [false, true] {
            let table = built(partitioned);
            let (fences, filter) = (table.pinned_fences.is_some(), table.pinned_filter.is_some());
            let parts = table.parts.partitions.is_some();
            let back = Handover::new(table).expect("a table just built owns its blocks").into_table();
            assert_eq!((back.pinned_fences.is_some(), back.pinned_filter.is_some()), (fences, filter));
            assert_eq!(back.parts.partitions.is_some(), parts);
            assert!(partitioned || back.block_ends.is_some());
        }
    }

    #[test]
    fn a_table_sharing_any_block_stays_on_its_thread() {
        let table = built(false);
        let shared = table.pinned_fences.clone();
        let table = *Handover::new(table).err().expect("its fence pointers are shared");
        drop(shared);
        let table = Handover::new(table).expect("no longer shared").into_table();
        let weak = Rc::downgrade(table.block_ends.as_ref().unwrap());
        assert!(Handover::new(table).is_err(), "a weak reference counts too");
        drop(weak);

        let table = built(true);
        let partitions = table.parts.partitions.clone().unwrap();
        let one = partitions.index[0].clone();
        drop(partitions);
        assert!(Handover::new(table).is_err(), "one index partition is shared");
        drop(one);
    }
}
