//! The kernels, one module per hot path, and `ALL`, the list every driver walks.

pub mod filter;
pub mod memtable;
pub mod merge;
pub mod page;
pub mod table;

use crate::kernel::Spec;

/// Every kernel, in the order the tables print them.
pub static ALL: &[Spec] = &[
    Spec {
        name: "memtable_insert",
        what: "10,000 puts into a fresh write buffer",
        elements: memtable::KEYS as u64,
        setup: memtable::insert,
    },
    Spec {
        name: "bloom_build",
        what: "Bloom filter over 100,000 keys, 10 bits/key",
        elements: filter::KEYS as u64,
        setup: filter::bloom_build,
    },
    Spec {
        name: "bloom_probe",
        what: "10,000 probes of it, half missing",
        elements: filter::PROBES as u64,
        setup: filter::bloom_probe,
    },
    Spec {
        name: "modular_build",
        what: "modular filter (SHaMBa, 2 modules) over 100,000 keys",
        elements: filter::KEYS as u64,
        setup: filter::modular_build,
    },
    Spec {
        name: "modular_probe",
        what: "10,000 probes of it, half missing",
        elements: filter::PROBES as u64,
        setup: filter::modular_probe,
    },
    Spec {
        name: "merge",
        what: "4 runs of 10,000 entries merged into one table",
        elements: (merge::RUNS * merge::ENTRIES) as u64,
        setup: merge::merge,
    },
    Spec {
        name: "page_search",
        what: "1,000 searches in one 4 KiB page, half missing",
        elements: page::SEARCHES as u64,
        setup: page::search,
    },
    Spec {
        name: "table_get",
        what: "1,000 point lookups in a 100,000-entry table, half missing",
        elements: table::LOOKUPS as u64,
        setup: table::get,
    },
];

/// The kernel named `name`.
pub fn find(name: &str) -> Option<&'static Spec> {
    ALL.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_runs_and_gives_the_same_figure_twice() {
        for spec in ALL {
            let mut a = (spec.setup)(crate::kernel::SEED).unwrap();
            let first = a.run().unwrap();
            assert!(first > 0, "{} did nothing", spec.name);
            assert_eq!(a.run().unwrap(), first, "{} is not repeatable", spec.name);
            let mut b = (spec.setup)(crate::kernel::SEED).unwrap();
            assert_eq!(b.run().unwrap(), first, "{} differs for the same seed", spec.name);
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, s) in ALL.iter().enumerate() {
            assert!(ALL[i + 1..].iter().all(|t| t.name != s.name), "{} twice", s.name);
            assert!(std::ptr::eq(find(s.name).unwrap(), s));
        }
    }
}
