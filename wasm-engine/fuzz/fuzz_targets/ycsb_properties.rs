//! A YCSB workload properties file from a stranger: refused with an error naming the property and
//! its line, or read into a valid Workload that writes back as YCSB properties and reads again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsm_workload::ycsb::{from_properties, to_properties};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = from_properties(text, "fuzz.properties") else { return };
    imported.workload.validate().expect("an imported workload is valid");
    let (again, _) = to_properties(&imported.workload).expect("a valid workload writes as YCSB");
    from_properties(&again, "again.properties").expect("our own YCSB file reads again");
});
