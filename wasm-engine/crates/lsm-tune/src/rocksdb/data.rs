//! The workload's data as RocksDB will hold it: live keys, entry sizes and entries per block, for
//! the memory charge (index and filter blocks held) and the steady-state write cost.

use lsm_core::config::EngineConfig;
use lsm_core::workload::Workload;

use super::{memory, steady};
use crate::predict::Prediction;
use crate::result::Steady;

/// Live keys, entry sizes and blocks of the workload's data, for the memory charge and the
/// steady-state write cost.
pub(crate) struct RocksdbData {
    pub(crate) data: steady::Data,
    pub(crate) key_bytes: u64,
    pub(crate) value_bytes: u64,
    per_block: f64,
}

impl RocksdbData {
    pub(crate) fn new(workload: &Workload, page_bytes: u32) -> RocksdbData {
        let m = &workload.mix;
        let writes = m.insert + m.update + m.delete;
        let inserts = if writes > 0.0 { workload.operations as f64 * m.insert } else { 0.0 };
        let key_bytes = u64::from(workload.preload.key_bytes);
        let value_bytes = u64::from(workload.preload.value_bytes);
        let entry = (key_bytes + value_bytes) as usize;
        RocksdbData {
            data: steady::Data { keys: workload.preload.entries as f64 + inserts, entry_bytes: entry as f64 },
            key_bytes,
            value_bytes,
            per_block: lsm_core::layout::entries_per_block(entry, page_bytes as usize, true).max(1) as f64,
        }
    }

    fn shape(&self, c: &EngineConfig) -> steady::SteadyShape {
        steady::steady_shape(c, &self.data, self.key_bytes, self.value_bytes)
    }

    pub(crate) fn held(&self, c: &EngineConfig) -> memory::Held {
        memory::Held {
            keys: self.data.keys,
            per_block: self.per_block,
            last_level_share: self.shape(c).last_level_share,
        }
    }

    /// `prediction`'s costs with each write at its steady-state share (bytes written per user
    /// byte × the entry's bytes in pages).
    pub(crate) fn steady(&self, c: &EngineConfig, p: &Prediction, workload: &Workload) -> Steady {
        let shape = self.shape(c);
        let entry_pages = (self.data.entry_bytes + lsm_core::layout::ENTRY_HEADER as f64) / f64::from(c.page_bytes);
        let mut class_costs = p.class_costs;
        class_costs[3] = shape.write_amp * entry_pages;
        let expected = p.mix.iter().zip(class_costs).map(|(w, c)| w * c).sum();
        let load = workload.preload.entries as f64;
        let m = &workload.mix;
        let run = workload.operations as f64 * (m.insert + m.update + m.delete);
        let write_amp_replayed = p.twin.as_ref().map_or(0.0, |t| {
            if load + run > 0.0 {
                (t.load_bytes_written_per_user_byte * load + t.run_bytes_written_per_user_byte * run) / (load + run)
            } else {
                0.0
            }
        });
        Steady { class_costs, expected, write_amp: shape.write_amp, space_amp: shape.space_amp, write_amp_replayed }
    }
}
