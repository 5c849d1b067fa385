//! A db_bench command line from a stranger: refused with an error naming the flag, or read into a
//! valid Workload whose engine view is valid, whose first operations generate, and whose own
//! flags read back to the same db_bench section.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_workload::db_bench::from_command_line;
use lsm_workload::generator::{Generator, OpSource};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = from_command_line(text) else { return };
    let w = imported.workload;
    w.validate().expect("an imported workload is valid");
    w.engine_view().validate().expect("its engine view is valid");
    let play = w.db_bench.clone().expect("a db_bench import carries its section");
    let again = from_command_line(&format!("db_bench {}", play.flags(&w).join(" "))).expect("our own flags read again");
    assert_eq!(again.workload.db_bench, w.db_bench);
    // A few operations of a small copy: the generator must not panic on any accepted section.
    if play.num <= 1 << 20 {
        let mut g = Generator::new(&w);
        for _ in 0..64 {
            if g.next_op().expect("generated operations are valid").is_none() {
                break;
            }
        }
    }
});
