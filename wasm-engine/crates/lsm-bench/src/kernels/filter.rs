//! Filters: building one from a table's key hashes (what `TableBuilder::finish` does) and
//! probing it (the first step of a point lookup in each run), for a plain Bloom filter and for
//! SHaMBa's modular filter (two modules of 3 and 4 hashes at 10 bits/key, probed in order).

use lsm_core::error::Result;
use lsm_core::rng::Rng;
use lsm_engine::filter::{Filter, FilterSpec};

use crate::data::{BITS_PER_KEY, key, key_hash, probes};
use crate::kernel::Kernel;

/// Keys a filter is built over.
pub const KEYS: usize = 100_000;
/// Probes per iteration of a probe kernel.
pub const PROBES: usize = 10_000;
/// Modules of the modular filter.
pub const MODULES: u32 = 2;

struct Build {
    hashes: Vec<u64>,
    spec: FilterSpec,
}

impl Kernel for Build {
    fn run(&mut self) -> Result<u64> {
        Ok(Filter::build(&self.hashes, self.spec).bits())
    }
}

struct Probe {
    filter: Filter,
    hashes: Vec<u64>,
}

impl Kernel for Probe {
    fn run(&mut self) -> Result<u64> {
        Ok(self.hashes.iter().filter(|&&h| self.filter.may_contain(h)).count() as u64)
    }
}

/// The hashes of `KEYS` keys (even ids), as a table builder collects them.
fn key_hashes() -> Vec<u64> {
    (0..KEYS as u64).map(|i| key_hash(&key(2 * i))).collect()
}

fn build(spec: FilterSpec) -> Box<dyn Kernel> {
    Box::new(Build { hashes: key_hashes(), spec })
}

fn probe(seed: u64, spec: FilterSpec) -> Box<dyn Kernel> {
    let hashes = key_hashes();
    let filter = Filter::build(&hashes, spec);
    let present: Vec<_> = (0..KEYS as u64).map(|i| key(2 * i)).collect();
    let keys = probes(&mut Rng::new(seed), &present, PROBES, 1 << 40);
    Box::new(Probe { filter, hashes: keys.iter().map(|k| key_hash(k)).collect() })
}

/// Build a Bloom filter over `KEYS` key hashes.
pub fn bloom_build(_seed: u64) -> Result<Box<dyn Kernel>> {
    Ok(build(FilterSpec::bloom(BITS_PER_KEY)))
}

/// Probe a Bloom filter over `KEYS` keys with `PROBES` key hashes, half of them present.
pub fn bloom_probe(seed: u64) -> Result<Box<dyn Kernel>> {
    Ok(probe(seed, FilterSpec::bloom(BITS_PER_KEY)))
}

/// Build a modular filter of `MODULES` modules over `KEYS` key hashes.
pub fn modular_build(_seed: u64) -> Result<Box<dyn Kernel>> {
    Ok(build(FilterSpec::modular(BITS_PER_KEY, MODULES)))
}

/// Probe a modular filter over `KEYS` keys with `PROBES` key hashes, half of them present.
pub fn modular_probe(seed: u64) -> Result<Box<dyn Kernel>> {
    Ok(probe(seed, FilterSpec::modular(BITS_PER_KEY, MODULES)))
}
