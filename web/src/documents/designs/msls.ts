/**
 * The MSLS page's designs as the engine's EngineConfig documents, for the export panel: the
 * user's level sizes (LevelDB's geometric Size(l) = Size(1)·r^(l−1), the last level holding all
 * N keys) and the level sizes the MSLS optimiser picks. Pure; the engine's own validator checks
 * the results in web/test/msls-export.test.ts.
 *
 * The engine builds LevelDB-style leveled compaction with merges by file, whose level 1 is
 * LevelDB's level 0 (flushed files), so the page's level l is the engine's level l + 1:
 * - `buffer_bytes` is the write buffer, with the `logged` trigger: MSLS counts log bytes,
 *   duplicates included, and so does the engine's buffer then (a flush every wal writes).
 * - `levels[0]`: level 0 compacts at c0 files, and the engine merges its level 1 once it holds
 *   more than `max_runs` files, so `max_runs` = c0 − 1 (at least 1: the engine cannot compact a
 *   single file, so c0 = 1 becomes 2). Its `size_ratio` sets the next level's capacity:
 *   Size(1) / buffer.
 * - `levels[l]`, l ≥ 1: Size(l+1) / Size(l), one run (leveling), to six significant digits.
 * - The model's last level has no capacity: it holds all N keys. The engine's last level spec
 *   also repeats for deeper levels and pushes files down once full, so it gets the page's growth
 *   factor r or, if that would not hold the N entries with 25 % headroom, the ratio that does.
 * - The engine's levels are at least as large as the one above (size ratio ≥ 1): a smaller
 *   Size(l) (e.g. a level 1 below the write buffer) is raised to that, and the config's name says
 *   so. A ratio above the engine's 1,000 cannot be built: the converter throws.
 * - What the model does not describe: 4 KiB pages and 2 MiB files (LevelDB's defaults) and
 *   LevelDB's usual 10 bits/key Bloom filters (the model counts writes only).
 */
import { MSLS_LEVELDB_DEFAULTS, mslsResolveLevelParams, type LeveledGrowthParams, type MslsLevelParams } from '@lsm/models';
import { steadyStateWorkload, type WriteAmpSpec } from '../writeAmp';
import { ceilRatio } from '../mooseTable';
import type { EngineConfig, LevelConfig } from '../engine';

const MIB = 1024 * 1024;
export const MSLS_PAGE_BYTES = 4096;
export const MSLS_FILE_BYTES = 2 * MIB;
export const MSLS_FILTER_BITS = 10;
export const MSLS_LAST_LEVEL_HEADROOM = 1.25;
/** The engine's size-ratio and buffer ranges (wasm-engine/crates/lsm-core/src/config.rs). */
const MAX_SIZE_RATIO = 1000;
const MAX_BUFFER_BYTES = 2 ** 32;

export type MslsDesignKind = 'yours' | 'optimized';

const sig = (v: number, digits: number) => Number(v.toPrecision(digits));
const mib = (bytes: number) => `${sig(bytes / MIB, 4)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The EngineConfig of an MSLS design: `params` as on the page, and for the optimised design the
 * optimiser's Size(1..L) in items (the last is N; default: the sizes `params` describe). Throws
 * the model's ModelInputError for invalid parameters, and an Error for what the engine cannot
 * build (a buffer over 4 GiB, a size ratio over 1,000).
 */
export function mslsToEngineConfig(params: MslsLevelParams, kind: MslsDesignKind = 'yours', levelItems?: readonly number[]): EngineConfig {
  const r = mslsResolveLevelParams(params);
  const items = levelItems ?? r.levelItems;
  if (items.length !== r.levels) throw new Error(`expected ${r.levels} level sizes, got ${items.length}`);
  const E = r.entryBytes;
  const buffer = Math.round(r.walItems * E);
  if (buffer < MSLS_PAGE_BYTES || buffer > MAX_BUFFER_BYTES) {
    throw new Error(`The engine needs a write buffer between one page (4 KiB) and 4 GiB; this design uses ${mib(buffer)}.`);
  }
  const growth = params.growthFactor ?? MSLS_LEVELDB_DEFAULTS.growthFactor;
  const L = items.length;
  const notes: string[] = [];
  const levels: LevelConfig[] = [];
  // Bytes of the level above in the engine (one write buffer above level 1).
  let above = buffer;
  items.forEach((size, i) => {
    const bytes = size * E;
    let ratio = i === L - 1 ? Math.max(growth, ceilRatio((MSLS_LAST_LEVEL_HEADROOM * bytes) / above)) : sig(bytes / above, 6);
    if (ratio < 1) {
      notes.push(`Size(${i + 1}) raised to ${i === 0 ? 'the write buffer' : `Size(${i})`}`);
      ratio = 1;
    }
    if (ratio > MAX_SIZE_RATIO) {
      throw new Error(
        `Level ${i + 1} would be ${count(sig(ratio, 4))} times ${i === 0 ? 'the write buffer' : `level ${i}`}; the engine’s size ratios go up to ${count(MAX_SIZE_RATIO)}.`,
      );
    }
    levels.push({ size_ratio: ratio, max_runs: i === 0 ? Math.max(1, r.level0Trigger - 1) : 1 });
    above *= ratio;
  });
  // With one level, deeper levels (never reached by N keys) grow by r, one run each.
  if (L === 1) levels.push({ size_ratio: growth, max_runs: 1 });

  const upper = items.slice(0, -1).map((s) => mib(s * E));
  const sizes =
    kind === 'optimized'
      ? `MSLS-optimized level sizes${upper.length > 0 ? ` ${upper.join(', ')}` : ''}`
      : `MSLS design, Size(1) = ${mib(items[0] * E)}, growth ×${sig(growth, 4)}`;
  const tail = notes.length > 0 ? ` (${notes.join('; ')}: the engine’s levels are at least as large as the one above)` : '';
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `${sizes}; level 0 compacts at ${r.level0Trigger} file${r.level0Trigger === 1 ? '' : 's'}; ${L} level${L === 1 ? '' : 's'}, the last holding ${count(r.keySpace)} keys of ${count(E)} B; merges by file${tail}`,
    page_bytes: MSLS_PAGE_BYTES,
    buffer_bytes: buffer,
    buffer_trigger: 'logged',
    levels,
    filter: { allocation: 'uniform', bits_per_key: MSLS_FILTER_BITS },
    compaction: { granularity: 'file', target_file_bytes: MSLS_FILE_BYTES },
  };
}

/**
 * The design measured on the engine, as the MSLS paper measured LevelDB: N keys written once, a
 * warm-up of N/2 updates, then at least N more and 12 level-0 cycles, with a checkpoint at every
 * flush (`steadyStateWindow` then takes whole level-0 cycles after `warmup` writes). Keys are 16 B,
 * values the rest of the entry.
 */
export function mslsEngineRunSpec(params: MslsLevelParams): { spec: WriteAmpSpec; warmup: number } {
  const r = mslsResolveLevelParams(params);
  const n = r.keySpace;
  const warmup = Math.ceil(n / 2);
  const window = Math.ceil(Math.max(n, 12 * r.walItems * r.level0Trigger));
  const theta = r.distribution.kind === 'zipf' ? r.distribution.theta : 0;
  const valueBytes = Math.max(0, Math.round(r.entryBytes) - 16);
  return {
    spec: { config: mslsToEngineConfig(params), workload: steadyStateWorkload(n, warmup + window, theta, valueBytes), checkpoint: 0, checkpoint_at_flush: true },
    warmup: n + warmup,
  };
}

/**
 * The from-empty model (leveled-growth) of the design as the engine builds it: the same flush
 * cadence, level-0 trigger, level capacities (the engine's last level spec repeats below) and file
 * size, in entries; by the engine's rules, or with LevelDB's young-tree shortcuts.
 */
export function mslsGrowthParams(params: MslsLevelParams, leveldbShortcuts = false): LeveledGrowthParams {
  const config = mslsToEngineConfig(params);
  const { entryBytes, keySpace } = mslsResolveLevelParams(params);
  const ratios = config.levels.map((l) => l.size_ratio);
  const levelEntries: number[] = [];
  let capacity = config.buffer_bytes / entryBytes;
  for (const ratio of ratios) {
    capacity *= ratio;
    levelEntries.push(capacity);
  }
  return {
    keys: keySpace,
    // The engine flushes once the logged bytes reach the buffer: after this many writes.
    bufferEntries: Math.ceil(config.buffer_bytes / entryBytes),
    level0Trigger: (config.levels[0]?.max_runs ?? 3) + 1,
    levelEntries,
    growthFactor: ratios[ratios.length - 1] ?? MSLS_LEVELDB_DEFAULTS.growthFactor,
    fileEntries: Math.max(1, MSLS_FILE_BYTES / entryBytes),
    leveldbShortcuts,
  };
}
