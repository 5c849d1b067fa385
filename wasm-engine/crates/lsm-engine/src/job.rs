//! A flush or merge in progress, as the engine holds it between steps. Its own module so the
//! engine can hold one without knowing how jobs run (`maintenance`) or how their filters are sized
//! (`filter_sizing`), which both work on it.

use std::rc::Rc;

use crate::filestats::InheritInput;
use crate::merge::Merge;
use crate::stats::WriteCounters;
use crate::table::Table;

/// A flush or merge in progress.
pub(crate) struct Job {
    pub source_level: usize,
    pub dest_level: usize,
    /// Tables consumed, and which of them come from the destination level.
    pub(crate) inputs: Vec<Rc<Table>>,
    /// Each input's statistics when the job started (for inheritance).
    pub(crate) inherit_inputs: Vec<(u64, InheritInput)>,
    /// The run the outputs join.
    pub(crate) dest_run: u64,
    pub(crate) merge: Merge,
    pub(crate) outputs: Vec<Rc<Table>>,
    pub(crate) counters: WriteCounters,
    pub(crate) cursor: Option<Vec<u8>>,
    pub(crate) flush: bool,
}
