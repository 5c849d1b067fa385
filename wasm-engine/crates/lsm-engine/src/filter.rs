//! A table's filter: one Bloom filter, or SHaMBa's modular Bloom filter — D smaller filters over
//! the same keys, probed in order, each stored as its own block so the block cache can keep the
//! first module while later ones compete with data pages — or one of RocksDB's filters,
//! FastLocalBloom or Ribbon. With one module it is a plain Bloom filter, byte for byte.

use crate::fast_local_bloom::FastLocalBloom;
use crate::ribbon::Ribbon;
use lsm_core::bloom::{Bloom, Probe, expected_fpr, optimal_hashes};
use lsm_core::error::{Error, Result};
use lsm_core::filter_kinds::{RibbonLayout, RibbonShape, Structure, fast_local_bloom_fpr, ribbon_layout, ribbon_slots};
use lsm_core::hash::checksum;

/// How to build a filter: total bits per key, the number of modules and the structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilterSpec {
    /// Filter bits per key over all modules (Ribbon: RocksDB's Bloom-equivalent bits per key); 0
    /// builds no filter.
    pub bits_per_key: f64,
    /// Modules to split the bits into: 1 is a plain Bloom filter, and no more modules are built than there
    /// are hash functions. Always 1 for RocksDB's structures.
    pub modules: u32,
    /// What the filter is.
    pub structure: Structure,
}

impl FilterSpec {
    /// A plain Bloom filter (one module) of `bits_per_key`.
    pub fn bloom(bits_per_key: f64) -> Self {
        FilterSpec { bits_per_key, modules: 1, structure: Structure::Bloom }
    }

    /// SHaMBa's modular Bloom filter: `modules` Bloom filters sharing `bits_per_key`.
    pub fn modular(bits_per_key: f64, modules: u32) -> Self {
        FilterSpec { bits_per_key, modules, structure: Structure::Bloom }
    }

    /// One filter of `structure` at `bits_per_key`.
    pub fn of(structure: Structure, bits_per_key: f64) -> Self {
        FilterSpec { bits_per_key, modules: 1, structure }
    }
}

/// One module of a filter: a textbook Bloom filter, or one of RocksDB's (the whole filter).
#[derive(Clone, Debug, PartialEq)]
pub enum Module {
    /// A textbook Bloom filter (a modular filter's modules are these).
    Bloom(Bloom),
    /// RocksDB's FastLocalBloom.
    FastLocalBloom(FastLocalBloom),
    /// RocksDB's Standard128Ribbon.
    Ribbon(Ribbon),
}

/// Start fetching `at`'s cache line without waiting for it (x86-64's `prefetcht0`; elsewhere,
/// wasm included, nothing).
#[inline]
fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing architecturally and cannot fault; `at` is a valid reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((at as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

impl Module {
    /// False means the key of hash `key_hash` is certainly absent; `d` is the module's place in
    /// probe order (a modular filter's later modules remix the hash).
    #[inline]
    pub fn may_contain(&self, key_hash: u64, d: usize) -> bool {
        match self {
            Module::Bloom(b) => b.may_contain(module_probe(key_hash, d)),
            Module::FastLocalBloom(f) => f.may_contain(key_hash),
            Module::Ribbon(r) => r.may_contain(key_hash),
        }
    }

    /// Ask the CPU for the memory a probe of `key_hash` reads first (a hint, nothing counted):
    /// FastLocalBloom's one line; the other kinds spread a probe, so they are left alone.
    #[inline]
    pub fn prefetch(&self, key_hash: u64) {
        if let Module::FastLocalBloom(f) = self {
            prefetch(f.line(key_hash));
        }
    }

    /// Size in bits.
    pub fn bits(&self) -> u64 {
        match self {
            Module::Bloom(b) => b.bits(),
            Module::FastLocalBloom(f) => f.bits(),
            Module::Ribbon(r) => r.bits(),
        }
    }

    /// Bloom: hash functions; FastLocalBloom: probes; Ribbon: its blocks' lower column count.
    pub fn hashes(&self) -> u32 {
        match self {
            Module::Bloom(b) => b.hashes(),
            Module::FastLocalBloom(f) => f.probes(),
            Module::Ribbon(r) => r.shape().lower_columns,
        }
    }

    /// What it is.
    pub fn structure(&self) -> Structure {
        match self {
            Module::Bloom(_) => Structure::Bloom,
            Module::FastLocalBloom(_) => Structure::FastLocalBloom,
            Module::Ribbon(_) => Structure::Ribbon,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Module::Bloom(b) => b.encode(out),
            Module::FastLocalBloom(f) => f.encode(out),
            Module::Ribbon(r) => r.encode(out),
        }
    }

    fn decode(structure: Structure, bytes: &[u8]) -> Option<Module> {
        match structure {
            Structure::Bloom => Bloom::decode(bytes).map(Module::Bloom),
            Structure::FastLocalBloom => FastLocalBloom::decode(bytes).map(Module::FastLocalBloom),
            Structure::Ribbon => Ribbon::decode(bytes).map(Module::Ribbon),
        }
    }
}

/// The directory's tag for each structure (the entry's second u32; 0, Bloom, in files written
/// before there were others).
fn structure_tag(s: Structure) -> u32 {
    match s {
        Structure::Bloom => 0,
        Structure::FastLocalBloom => 1,
        Structure::Ribbon => 2,
    }
}

fn structure_of_tag(tag: u32) -> Option<Structure> {
    match tag {
        0 => Some(Structure::Bloom),
        1 => Some(Structure::FastLocalBloom),
        2 => Some(Structure::Ribbon),
        _ => None,
    }
}

/// Bytes of one module's directory entry: hashes u32, structure u32, bits u64, offset u32, length u32,
/// checksum u32, reserved u32.
const DIRECTORY_ENTRY: usize = 32;

/// Where module `d`'s bytes are inside the filter block, and how to check them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModuleInfo {
    /// What the module is.
    pub structure: Structure,
    /// Hash functions the module probes (FastLocalBloom: probes; Ribbon: lower columns).
    pub hashes: u32,
    /// The module's size in bits.
    pub bits: u64,
    /// Offset within the filter block.
    pub offset: u32,
    /// Length in bytes of the module's encoding within the filter block.
    pub len: u32,
    /// Checksum of those bytes, verified whenever the module is read.
    pub checksum: u32,
}

impl ModuleInfo {
    /// Bytes of one directory entry (also a filter partition's entry in a top-level filter index).
    pub const ENTRY_BYTES: usize = DIRECTORY_ENTRY;

    /// Append its directory entry: hashes, structure, bits, offset, length, checksum, reserved.
    pub fn encode_entry(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hashes.to_le_bytes());
        out.extend_from_slice(&structure_tag(self.structure).to_le_bytes());
        out.extend_from_slice(&self.bits.to_le_bytes());
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
    }

    /// Read a directory entry (`ENTRY_BYTES` long); `None` if malformed.
    pub fn decode_entry(e: &[u8]) -> Option<ModuleInfo> {
        if e.len() != DIRECTORY_ENTRY {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes([e[i], e[i + 1], e[i + 2], e[i + 3]]);
        let mut bits = [0u8; 8];
        bits.copy_from_slice(&e[8..16]);
        Some(ModuleInfo {
            structure: structure_of_tag(u32_at(4))?,
            hashes: u32_at(0),
            bits: u64::from_le_bytes(bits),
            offset: u32_at(16),
            len: u32_at(20),
            checksum: u32_at(24),
        })
    }

    /// Append `module`'s bytes to `out` and describe them, at `offset` from where `base` is in
    /// `out` (a filter partition: its bytes alone, its entry in the top-level filter index).
    pub fn append(module: &Module, out: &mut Vec<u8>, base: usize) -> ModuleInfo {
        let start = out.len();
        module.encode(out);
        ModuleInfo {
            structure: module.structure(),
            hashes: module.hashes(),
            bits: module.bits(),
            offset: (start - base) as u32,
            len: (out.len() - start) as u32,
            checksum: checksum(&out[start..]),
        }
    }
}

/// The module hash: module 0 uses the key hash itself (so a one-module filter is a plain Bloom
/// filter); later modules remix it, so their probes are independent of module 0's.
#[inline]
pub fn module_probe(key_hash: u64, module: usize) -> Probe {
    if module == 0 {
        return Probe::from_hash(key_hash);
    }
    let mut z = key_hash ^ (module as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    Probe::from_hash(z ^ (z >> 32))
}

/// Split the integer hash count k = round(b·ln 2) over `modules` equal-sized modules as evenly as
/// possible, larger shares last (10 bits/key, 2 modules → {3, 4}, SHaMBa Table 3). Never more
/// modules than hashes.
pub fn module_hashes(bits_per_key: f64, modules: u32) -> Vec<u32> {
    let k = optimal_hashes(bits_per_key);
    if k == 0 {
        return Vec::new();
    }
    let d = modules.clamp(1, k);
    (0..d).map(|i| k / d + u32::from(i >= d - k % d)).collect()
}

/// A table's filter: its modules, probed in order; a key may be present only if every module says so.
/// No module means no filter: every key may be present.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    modules: Vec<Module>,
}

impl Filter {
    /// No filter: every key may be present.
    pub fn none() -> Self {
        Filter { modules: Vec::new() }
    }

    /// Build from the keys' 64-bit hashes.
    pub fn build(key_hashes: &[u64], spec: FilterSpec) -> Self {
        Filter::build_from(key_hashes.len() as u64, key_hashes.iter().copied(), spec)
    }

    /// Build from `entries` key hashes, given by an iterator (a table builder keeps them in chunks).
    pub fn build_from(entries: u64, key_hashes: impl Iterator<Item = u64>, spec: FilterSpec) -> Self {
        if entries == 0 {
            return Filter::none();
        }
        match spec.structure {
            Structure::Bloom => {}
            Structure::FastLocalBloom => {
                return Filter::from_modules(
                    FastLocalBloom::build(entries, key_hashes, spec.bits_per_key)
                        .map(Module::FastLocalBloom)
                        .into_iter()
                        .collect(),
                );
            }
            Structure::Ribbon => return Filter::ribbon(entries, key_hashes.collect(), spec.bits_per_key),
        }
        let hashes = module_hashes(spec.bits_per_key, spec.modules);
        if entries == 0 || hashes.is_empty() {
            return Filter::none();
        }
        let total_bits = ((entries as f64 * spec.bits_per_key).ceil() as u64).max(64);
        let per_module = (total_bits / hashes.len() as u64).max(64);
        let mut modules: Vec<Bloom> = hashes.iter().map(|&k| Bloom::with_bits(per_module, k)).collect();
        for h in key_hashes {
            for (d, m) in modules.iter_mut().enumerate() {
                m.insert(module_probe(h, d));
            }
        }
        Filter { modules: modules.into_iter().map(Module::Bloom).collect() }
    }

    /// RocksDB's Standard128Ribbon at `bloom_bits_per_key` Bloom-equivalent bits, or the
    /// FastLocalBloom RocksDB falls back to: for small filters, and when banding fails for every
    /// seed. The first key's hash picks the rounding of the column split and the first seed, as in
    /// RocksDB.
    fn ribbon(entries: u64, hashes: Vec<u64>, bloom_bits_per_key: f64) -> Self {
        let first = hashes.first().copied().unwrap_or(0);
        let rounding = (first >> 32) as f64 / 4_294_967_296.0;
        let bloom = |hashes: Vec<u64>| {
            Filter::from_modules(
                FastLocalBloom::build(entries, hashes.into_iter(), bloom_bits_per_key)
                    .map(Module::FastLocalBloom)
                    .into_iter()
                    .collect(),
            )
        };
        match ribbon_layout(entries, bloom_bits_per_key, rounding) {
            None => Filter::none(),
            Some(RibbonLayout::BloomFallback(_)) => bloom(hashes),
            Some(RibbonLayout::Ribbon(shape)) => match Ribbon::build(shape, &hashes, (first & 0xFF) as u32) {
                Some(r) => Filter::from_modules(vec![Module::Ribbon(r)]),
                None => bloom(hashes),
            },
        }
    }

    /// Whether it has no module (no filter).
    pub fn is_none(&self) -> bool {
        self.modules.is_empty()
    }

    /// The modules, in probe order.
    pub fn modules(&self) -> &[Module] {
        &self.modules
    }

    /// Bits over all modules.
    pub fn bits(&self) -> u64 {
        self.modules.iter().map(Module::bits).sum()
    }

    /// Hash functions over all modules.
    pub fn hashes(&self) -> u32 {
        self.modules.iter().map(Module::hashes).sum()
    }

    /// Expected FPR over `entries` keys: the product of the modules' integer-k FPRs (1 without a filter).
    pub fn fpr(&self, entries: u64) -> f64 {
        module_fprs(&self.infos(), entries).iter().product()
    }

    /// All modules say "maybe".
    pub fn may_contain(&self, key_hash: u64) -> bool {
        self.modules.iter().enumerate().all(|(d, m)| m.may_contain(key_hash, d))
    }

    /// Each module's directory entry, without its place in a block (offset, length, checksum 0).
    pub fn infos(&self) -> Vec<ModuleInfo> {
        self.modules
            .iter()
            .map(|m| ModuleInfo {
                structure: m.structure(),
                hashes: m.hashes(),
                bits: m.bits(),
                offset: 0,
                len: 0,
                checksum: 0,
            })
            .collect()
    }

    /// The filter block: a directory (one entry per module), then each module's bytes.
    /// Returns the directory length (its checksum goes in the table footer).
    pub fn encode(&self, out: &mut Vec<u8>) -> usize {
        let start = out.len();
        let dir_len = 4 + self.modules.len() * DIRECTORY_ENTRY;
        out.extend_from_slice(&(self.modules.len() as u32).to_le_bytes());
        let dir_at = out.len();
        out.resize(start + dir_len, 0);
        let mut offset = dir_len;
        for (d, m) in self.modules.iter().enumerate() {
            let module_start = out.len();
            m.encode(out);
            let len = out.len() - module_start;
            let sum = checksum(&out[module_start..]);
            let info = ModuleInfo {
                structure: m.structure(),
                hashes: m.hashes(),
                bits: m.bits(),
                offset: offset as u32,
                len: len as u32,
                checksum: sum,
            };
            let mut entry = Vec::with_capacity(DIRECTORY_ENTRY);
            info.encode_entry(&mut entry);
            let e = dir_at + d * DIRECTORY_ENTRY;
            out[e..e + DIRECTORY_ENTRY].copy_from_slice(&entry);
            offset += len;
        }
        dir_len
    }

    /// Parse a directory (the start of a filter block).
    pub fn decode_directory(file: &str, at: u64, bytes: &[u8]) -> Result<Vec<ModuleInfo>> {
        let bad = || Error::corruption(file, at, "filter directory is malformed");
        let n = u32::from_le_bytes(bytes.get(0..4).ok_or_else(bad)?.try_into().map_err(|_| bad())?) as usize;
        if n > 64 || bytes.len() < 4 + n * DIRECTORY_ENTRY {
            return Err(bad());
        }
        (0..n)
            .map(|d| {
                ModuleInfo::decode_entry(&bytes[4 + d * DIRECTORY_ENTRY..4 + (d + 1) * DIRECTORY_ENTRY]).ok_or_else(bad)
            })
            .collect()
    }

    /// Bytes of the directory of a filter of `modules` modules: a u32 count, then 32 B per module.
    pub fn directory_len(modules: usize) -> usize {
        4 + modules * DIRECTORY_ENTRY
    }

    /// Decode one module from its bytes, verified against the directory.
    pub fn decode_module(file: &str, at: u64, info: &ModuleInfo, bytes: &[u8]) -> Result<Module> {
        if checksum(bytes) != info.checksum {
            return Err(Error::corruption(file, at, "filter module checksum mismatch"));
        }
        Module::decode(info.structure, bytes)
            .filter(|m| m.bits() == info.bits && m.hashes() == info.hashes)
            .ok_or_else(|| Error::corruption(file, at, "filter module is malformed"))
    }

    /// A filter of these modules, in probe order (re-optimised Monkey keeps a prefix of a table's modules).
    pub fn from_modules(modules: Vec<Module>) -> Self {
        Filter { modules }
    }
}

/// Each module's expected FPR over `entries` keys: the integer-k formula for Bloom modules,
/// the per-line Poisson average for FastLocalBloom, and the column split for Ribbon (whose slots
/// follow from `entries`).
pub fn module_fprs(infos: &[ModuleInfo], entries: u64) -> Vec<f64> {
    infos
        .iter()
        .map(|m| match m.structure {
            Structure::Bloom => expected_fpr(m.bits, m.hashes, entries),
            Structure::FastLocalBloom => fast_local_bloom_fpr(m.bits as f64 / entries.max(1) as f64, m.hashes),
            Structure::Ribbon => {
                let slots = ribbon_slots(entries);
                let blocks = slots / lsm_core::filter_kinds::RIBBON_COEFF_BITS;
                let segments = m.bits / 128;
                let upper_start_block = (blocks * u64::from(m.hashes + 1)).saturating_sub(segments).min(blocks);
                RibbonShape { slots, lower_columns: m.hashes, upper_start_block }.fpr()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsm_core::hash::hash64;

    fn hashes(n: u64, odd: u64) -> Vec<u64> {
        (0..n).map(|i| hash64(&(i * 2 + odd).to_le_bytes(), lsm_core::bloom::FILTER_SEED)).collect()
    }

    #[test]
    fn hash_split_matches_shamba_table_3() {
        assert_eq!(module_hashes(10.0, 1), vec![7]);
        assert_eq!(module_hashes(10.0, 2), vec![3, 4]);
        assert_eq!(module_hashes(10.0, 3), vec![2, 2, 3]);
        assert_eq!(module_hashes(10.0, 7), vec![1; 7]);
        assert_eq!(module_hashes(2.0, 4), vec![1]);
        assert!(module_hashes(0.0, 2).is_empty());
    }

    #[test]
    fn one_module_equals_a_plain_bloom_filter() {
        let keys = hashes(5_000, 0);
        let f = Filter::build(&keys, FilterSpec::bloom(10.0));
        let mut plain = Bloom::with_bits_per_key(5_000, 10.0);
        for &h in &keys {
            plain.insert(Probe::from_hash(h));
        }
        assert_eq!(f.modules(), &[Module::Bloom(plain)]);
    }

    #[test]
    fn modular_fpr_is_the_product_and_matches_measurement() {
        let n = 50_000;
        let keys = hashes(n, 0);
        let f = Filter::build(&keys, FilterSpec::modular(10.0, 2));
        assert!(keys.iter().all(|&h| f.may_contain(h)));
        let probes = hashes(400_000, 1);
        let fp = probes.iter().filter(|&&h| f.may_contain(h)).count() as f64 / probes.len() as f64;
        let expected = f.fpr(n);
        assert!((fp - expected).abs() / expected < 0.1, "measured {fp} vs {expected}");
        // SHaMBa Table 3: {3,4} at 10 bits/key gives about 0.845 %.
        assert!((expected - 0.00845).abs() < 0.0002, "{expected}");
    }

    #[test]
    fn encode_decode_each_module() {
        let keys = hashes(1000, 0);
        let f = Filter::build(&keys, FilterSpec::modular(8.0, 3));
        let mut block = Vec::new();
        let dir_len = f.encode(&mut block);
        let infos = Filter::decode_directory("t", 0, &block[..dir_len]).unwrap();
        assert_eq!(infos.len(), 3);
        for (d, info) in infos.iter().enumerate() {
            let bytes = &block[info.offset as usize..(info.offset + info.len) as usize];
            assert_eq!(&Filter::decode_module("t", 0, info, bytes).unwrap(), &f.modules()[d]);
        }
        let mut flipped = block.clone();
        flipped[dir_len + 20] ^= 4;
        let info = infos[0];
        let bytes = &flipped[info.offset as usize..(info.offset + info.len) as usize];
        assert!(Filter::decode_module("t", 0, &info, bytes).is_err());
    }

    #[test]
    fn rocksdb_structures_roundtrip_through_the_directory_and_price_their_fpr() {
        let n = 30_000;
        let keys = hashes(n, 0);
        for structure in [Structure::FastLocalBloom, Structure::Ribbon] {
            let f = Filter::build(&keys, FilterSpec::of(structure, 10.0));
            assert_eq!(f.modules().len(), 1);
            assert_eq!(f.modules()[0].structure(), structure);
            assert!(keys.iter().all(|&h| f.may_contain(h)));
            let mut block = Vec::new();
            let dir_len = f.encode(&mut block);
            let infos = Filter::decode_directory("t", 0, &block[..dir_len]).unwrap();
            assert_eq!(infos[0].structure, structure);
            let bytes = &block[infos[0].offset as usize..(infos[0].offset + infos[0].len) as usize];
            assert_eq!(&Filter::decode_module("t", 0, &infos[0], bytes).unwrap(), &f.modules()[0]);
            // The price read from the directory is the structure's own.
            let fpr = module_fprs(&infos, n)[0];
            let own = match &f.modules()[0] {
                Module::Ribbon(r) => r.shape().fpr(),
                Module::FastLocalBloom(b) => fast_local_bloom_fpr(b.bits() as f64 / n as f64, b.probes()),
                Module::Bloom(_) => unreachable!(),
            };
            assert_eq!(fpr, own);
            let bits_per_key = f.bits() as f64 / n as f64;
            match structure {
                // 30,000 keys at 10 bits: 37,500 bytes, rounded up to 37,504 (586 lines).
                Structure::FastLocalBloom => assert_eq!(f.bits(), 37_504 * 8),
                // Ribbon: the FPR of the Bloom filter in ~70% of its bits.
                _ => assert!(bits_per_key > 6.8 && bits_per_key < 7.3, "{bits_per_key}"),
            }
        }
        // A filter too small for Ribbon to pay is FastLocalBloom; an old directory entry (tag 0)
        // is a Bloom filter, and an unknown tag is corruption.
        let small = Filter::build(&hashes(40, 0), FilterSpec::of(Structure::Ribbon, 10.0));
        assert_eq!(small.modules()[0].structure(), Structure::FastLocalBloom);
        let mut block = Vec::new();
        let dir_len = small.encode(&mut block);
        block[4 + 4] = 9;
        assert!(Filter::decode_directory("t", 0, &block[..dir_len]).is_err());
    }
}
