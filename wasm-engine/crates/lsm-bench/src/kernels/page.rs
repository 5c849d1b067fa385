//! A data page search: the linear scan of one 4 KiB page that ends every point lookup which
//! gets past the filter (`page::search`, which copies a found value out).

use lsm_core::error::{Error, Result};
use lsm_core::rng::Rng;
use lsm_engine::page::{self, ENTRY_HEADER, Found, PAGE_HEADER};

use crate::data::{KEY_BYTES, Key, PAGE_BYTES, VALUE_BYTES, distinct_ids, probes, sorted_keys, value};
use crate::kernel::Kernel;

/// Searches per iteration.
pub const SEARCHES: usize = 1_000;
/// Entries in the page: as many 16 B + 100 B entries as fit.
pub const ENTRIES: usize = (PAGE_BYTES as usize - PAGE_HEADER) / (ENTRY_HEADER + KEY_BYTES + VALUE_BYTES);

struct Search {
    page: Vec<u8>,
    keys: Vec<Key>,
}

impl Kernel for Search {
    fn run(&mut self) -> Result<u64> {
        let mut found = 0;
        for k in &self.keys {
            match page::search("bench", 0, &self.page, k)? {
                Found::Value(v) => found += v.len() as u64,
                Found::Tombstone => return Err(Error::State("the benchmark page holds no tombstone".into())),
                Found::Absent => {}
            }
        }
        Ok(found)
    }
}

/// One full page of `ENTRIES` entries (keys of even ids), and `SEARCHES` keys to look for in it:
/// half of them its own, half missing keys anywhere in key order.
pub fn search(seed: u64) -> Result<Box<dyn Kernel>> {
    let mut rng = Rng::new(seed);
    let ids: Vec<u64> = distinct_ids(&mut rng, ENTRIES, 1 << 40).into_iter().map(|i| 2 * i).collect();
    let keys = sorted_keys(&ids);
    let v = value(&mut rng);
    let mut buf = vec![0u8; PAGE_HEADER];
    for k in &keys {
        page::push_entry(&mut buf, k, Some(&v));
    }
    if buf.len() > PAGE_BYTES as usize {
        return Err(Error::State("the benchmark page overflows".into()));
    }
    page::seal(&mut buf, 0, PAGE_BYTES as usize, ENTRIES as u16);
    page::verify("bench", 0, &buf)?;
    let searches = probes(&mut rng, &keys, SEARCHES, 1 << 40);
    Ok(Box::new(Search { page: buf, keys: searches }))
}
