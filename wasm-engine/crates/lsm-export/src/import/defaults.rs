//! RocksDB's defaults for the options the import reads, and the release a file names (some
//! defaults changed between releases).

use crate::ini::Ini;

/// RocksDB's defaults for the options the import reads.
pub(super) const DEFAULT_WRITE_BUFFER_SIZE: u64 = 64 << 20;
pub(super) const DEFAULT_BLOCK_SIZE: u64 = 4096;
pub(super) const DEFAULT_NUM_LEVELS: u64 = 7;
pub(super) const DEFAULT_L0_TRIGGER: u64 = 4;
pub(super) const DEFAULT_LEVEL_BASE: u64 = 256 << 20;
pub(super) const DEFAULT_MULTIPLIER: f64 = 10.0;
pub(super) const DEFAULT_TARGET_FILE_SIZE: u64 = 64 << 20;
/// The internal block cache RocksDB creates when none is configured: 8 MiB through the 7.x
/// releases (7.8's table.h: "an 8MB internal cache"), 32 MiB in 8.x.
pub(super) const DEFAULT_BLOCK_CACHE_7: u64 = 8 << 20;
pub(super) const DEFAULT_BLOCK_CACHE: u64 = 32 << 20;
/// The first release whose internal block cache is `DEFAULT_BLOCK_CACHE`.
pub(super) const LARGER_BLOCK_CACHE_SINCE: (u64, u64) = (8, 0);
/// `LRUCacheOptions::high_pri_pool_ratio`'s default (7.x and 8.x).
pub(super) const ROCKSDB_HIGH_PRI_POOL_RATIO: f64 = 0.5;
/// `BlockBasedTableOptions::format_version` defaults to 5 (FastLocalBloom filters) from this
/// release on; 4 before.
pub(super) const FORMAT_VERSION_5_SINCE: (u64, u64) = (6, 19);
/// `level_compaction_dynamic_level_bytes` defaults to true from this release on.
pub(super) const DYNAMIC_LEVEL_BYTES_SINCE: (u64, u64) = (8, 4);

/// `rocksdb_version=8.10.0` → (8, 10).
pub(super) fn version(ini: &Ini) -> Option<(u64, u64)> {
    let v = ini.section("Version", None)?.get("rocksdb_version")?;
    let mut parts = v.split('.').map(|p| p.trim().parse::<u64>().ok());
    Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
}
