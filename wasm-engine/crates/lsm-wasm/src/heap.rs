//! The wasm build's heap: talc (a maintained allocator, faster than Rust's default dlmalloc on
//! wasm32) fed by a source that grows the linear memory in large steps.
//!
//! Why the steps: every `memory.grow` costs V8 far more than the bytes it adds. Measured in Node
//! 20 (V8 11.3): past 64 MiB of memory, one grow of one page took 0.25–0.9 ms, because V8 counts
//! the new bytes as external memory and starts a garbage collection. Growing just enough for each
//! allocation, as dlmalloc and talc's own wasm sources do, made the 1,000,000-entry in-memory
//! benchmark grow hundreds of times (176 full collections in one run). Growing by at least an
//! eighth of the memory already held keeps the count near fifty for any size, for at most
//! 12.5% of unused memory at the top.

use core::alloc::Layout;
use core::arch::wasm32::{memory_grow, memory_size};
use core::ptr::NonNull;

use talc::base::Talc;
use talc::base::binning::Binning;
use talc::cell::TalcSyncCell;
use talc::source::Source;
use talc::wasm::WasmBinning;

const PAGE: usize = 64 * 1024;
/// The smallest step: 1 MiB.
const MIN_STEP_PAGES: usize = 16;
/// Grow by at least 1/GROWTH_DIVISOR of the memory already held.
const GROWTH_DIVISOR: usize = 8;

/// A talc source that grows the wasm memory geometrically and extends one heap with it.
#[derive(Debug)]
pub(crate) struct GrowInSteps {
    end: Option<NonNull<u8>>,
}

// SAFETY: `acquire` touches the allocator only through the `talc` it is given, and allocates
// nothing itself.
unsafe impl Source for GrowInSteps {
    fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // Room for the chunk's header and alignment besides the bytes asked for.
        let needed = layout.size().saturating_add(layout.align()).saturating_add(64).div_ceil(PAGE);
        let step = needed.max(MIN_STEP_PAGES).max(memory_size::<0>() / GROWTH_DIVISOR);
        // A large step may not fit under the memory's maximum when just enough still does.
        let (before, pages) = match memory_grow::<0>(step) {
            usize::MAX => match memory_grow::<0>(needed) {
                usize::MAX => return Err(()),
                before => (before, needed),
            },
            before => (before, step),
        };
        let base = (before * PAGE) as *mut u8;
        let end = base.wrapping_add(pages * PAGE);
        if let Some(old_end) = talc.source.end.take()
            && old_end.as_ptr() == base
        {
            // SAFETY: the memory from the old heap end to `end` was just grown and is unused.
            talc.source.end = Some(unsafe { talc.extend(old_end, end) });
            return Ok(());
        }
        // SAFETY: `[base, base + pages * PAGE)` was just grown: no one else holds any of it.
        talc.source.end = unsafe { talc.claim(base, pages * PAGE) };
        if talc.source.end.is_some() { Ok(()) } else { Err(()) }
    }
}

#[global_allocator]
static HEAP: TalcSyncCell<GrowInSteps, WasmBinning> = TalcSyncCell::new_wasm(GrowInSteps { end: None });
