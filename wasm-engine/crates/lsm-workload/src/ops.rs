//! What an operation stream is: operations (`Op`, owned as `OwnedOp`), why each was issued
//! (`Intent`), the phase it belongs to (`Phase`), and the sources that yield them (`OpSource`:
//! the generators, traces).

/// Which part of a workload an operation belongs to; reports count the two apart (JSON
/// `preload`, `run`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Loading `preload.entries` keys before measuring.
    Preload,
    /// The measured `operations` (every operation of a trace).
    Run,
}

/// Why an operation was issued (what the workload meant), as opposed to what it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// A write of a key not written before.
    Insert,
    /// A write of an existing key (also a generated insert once the key space is used up).
    Update,
    /// A delete; `Op::Delete` itself carries no intent.
    Delete,
    /// A lookup of a key the generator inserted (it may since have been deleted).
    GetExisting,
    /// A lookup of a key never inserted: a zero-result lookup.
    GetMissing,
    /// A lookup from a trace, which does not say whether the key exists.
    Get,
    /// A range lookup; `Op::Range` itself carries no intent.
    Range,
}

/// One operation; slices borrow the source's buffers until the next call.
#[derive(Debug, PartialEq, Eq)]
pub enum Op<'a> {
    /// Write `key` with `value`.
    Put {
        /// `Insert` for a key not written before, `Update` otherwise (a trace's `I` or `U`).
        intent: Intent,
        /// The key's integer id; 0 for a trace key that is not an integer.
        id: u64,
        /// The key: the big-endian id padded to the workload's `key_bytes`, or a trace's raw text.
        key: &'a [u8],
        /// The value: printable bytes derived from the id and a write counter, or a trace's text.
        value: &'a [u8],
    },
    /// Delete `key` (a tombstone).
    Delete {
        /// The key's integer id; 0 for a trace key that is not an integer.
        id: u64,
        /// The key, encoded as for `Put`.
        key: &'a [u8],
    },
    /// Point lookup of `key`.
    Get {
        /// `GetExisting` or `GetMissing` from a generator; `Get` from a trace, which does not say.
        intent: Intent,
        /// The key's integer id; 0 for a trace key that is not an integer.
        id: u64,
        /// The key, encoded as for `Put`.
        key: &'a [u8],
    },
    /// Range lookup of every key in [start, end], both inclusive.
    Range {
        /// First id covered; 0 when a trace's bounds are not integers.
        lo: u64,
        /// Last id covered (inclusive); 0 when a trace's bounds are not integers.
        hi: u64,
        /// Smallest key any id in [lo, hi] can have (or a trace's raw start key).
        start: &'a [u8],
        /// Largest key any id in [lo, hi] can have (or a trace's raw end key).
        end: &'a [u8],
    },
}

/// An operation that owns its bytes: kept when the engine refused it (e.g. storage was briefly
/// full) so the same operation is retried and the sequence stays the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnedOp {
    /// `Op::Put`, owned.
    Put {
        /// `Insert` or `Update`.
        intent: Intent,
        /// The key's integer id (0 for a non-integer trace key).
        id: u64,
        /// The encoded key.
        key: Vec<u8>,
        /// The value written.
        value: Vec<u8>,
    },
    /// `Op::Delete`, owned.
    Delete {
        /// The key's integer id (0 for a non-integer trace key).
        id: u64,
        /// The encoded key.
        key: Vec<u8>,
    },
    /// `Op::Get`, owned.
    Get {
        /// `GetExisting`, `GetMissing`, or `Get` from a trace.
        intent: Intent,
        /// The key's integer id (0 for a non-integer trace key).
        id: u64,
        /// The encoded key.
        key: Vec<u8>,
    },
    /// `Op::Range`, owned.
    Range {
        /// First id covered.
        lo: u64,
        /// Last id covered (inclusive).
        hi: u64,
        /// Smallest key of the range (inclusive).
        start: Vec<u8>,
        /// Largest key of the range (inclusive).
        end: Vec<u8>,
    },
}

impl OwnedOp {
    /// Copies the operation's bytes out of its source's buffers.
    pub fn of(op: &Op<'_>) -> OwnedOp {
        match *op {
            Op::Put { intent, id, key, value } => OwnedOp::Put { intent, id, key: key.to_vec(), value: value.to_vec() },
            Op::Delete { id, key } => OwnedOp::Delete { id, key: key.to_vec() },
            Op::Get { intent, id, key } => OwnedOp::Get { intent, id, key: key.to_vec() },
            Op::Range { lo, hi, start, end } => OwnedOp::Range { lo, hi, start: start.to_vec(), end: end.to_vec() },
        }
    }

    /// Borrows it as an `Op`, to execute it again.
    pub fn as_op(&self) -> Op<'_> {
        match self {
            OwnedOp::Put { intent, id, key, value } => Op::Put { intent: *intent, id: *id, key, value },
            OwnedOp::Delete { id, key } => Op::Delete { id: *id, key },
            OwnedOp::Get { intent, id, key } => Op::Get { intent: *intent, id: *id, key },
            OwnedOp::Range { lo, hi, start, end } => Op::Range { lo: *lo, hi: *hi, start, end },
        }
    }
}

/// Where operations come from: a generated workload or a trace.
pub trait OpSource {
    /// The next operation and its phase, or `None` at the end. The slices borrow the source until
    /// the next call; a trace's bad line is an `Error::Parse` naming the line.
    fn next_op(&mut self) -> lsm_core::error::Result<Option<(Phase, Op<'_>)>>;
    /// Operations in the preload and in the run (the run total may be unknown for streams).
    fn totals(&self) -> (u64, Option<u64>);
    /// What the source could not play as it was given (a trace's skipped records), in words;
    /// commands print them, so nothing is dropped silently.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}
