//! What a kernel is: a setup from a seed, and an iteration that does a fixed amount of work.

use lsm_core::error::Result;

/// The seed every kernel's input is built from (natively, in wasm and under criterion).
pub const SEED: u64 = 0x5EED_BE4C;

/// A kernel's state after setup: `run` does one measured iteration.
pub trait Kernel {
    /// Do one iteration's work (`Spec::elements` elements). Returns a figure computed from the
    /// work (entries held, probes that said "maybe", values found), which the timing loops pass
    /// through `black_box` so the work cannot be optimised away; the same seed gives the same
    /// figure natively and in wasm.
    fn run(&mut self) -> Result<u64>;
}

/// A kernel as the timing loops see it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Short name (criterion's benchmark id, the table's row).
    pub name: &'static str,
    /// What one iteration does, in a few words.
    pub what: &'static str,
    /// Elements one iteration handles (keys inserted, probes, entries merged, lookups).
    pub elements: u64,
    /// Build the kernel's input from a seed.
    pub setup: fn(u64) -> Result<Box<dyn Kernel>>,
}
