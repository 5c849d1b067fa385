//! Workload JSON from a stranger: refused with an error, or valid and its operations generate
//! (the first few thousand, preload and run) without a panic or an unchecked allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_workload::generator::{Generator, OpSource};
use lsm_core::workload::Workload;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(workload) = Workload::from_json(text) else { return };
    workload.validate().expect("from_json only returns valid workloads");
    let mut ops = Generator::new(&workload);
    for _ in 0..4096 {
        match ops.next_op() {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
});
