/**
 * The Memory-pressure page's designs as the engine's EngineConfig documents, for the export panel.
 * Pure: the page's (last valid) controls in, a config out; the engine's own validator checks them
 * in web/test/memory-export.test.ts.
 *
 * Section A's synthetic tree is a leveled tree of equal files: level j holds f₁·T^(j−1) files of
 * n entries. The engine builds it with merges by file (LevelDB-style), a file of n entries being
 * both the write buffer and the target file size, so every flush writes one such file:
 * - entries are 512 B (Mnemosyne Fig 3: 8,192 entries = a 4 MB file; the model counts entries
 *   only), pages 4 KiB (the model has no pages);
 * - the page's tree has no level 0, the engine's level 1 always is one (flushed files, each over
 *   the whole key range). It gets `max_runs` 1, so it holds at most one file, and the page's
 *   levels 1…L are the engine's levels 2…L+1: `levels[0].size_ratio` = f₁ (level 1 holds f₁
 *   buffers) and `levels[1].size_ratio` = T, repeated below;
 * - the number of levels and the entries N = n·Σ files are the workload's to fill, not the
 *   config's (the engine has no level count); the config's name states them.
 *
 * Allocations: the page's Mnemosyne, Monkey+ and uniform are the engine's `mnemosyne` (the budget
 * split over files by the empty lookups the engine measures, where the page is given them),
 * `monkey` (per level, optimal for the tree) and `uniform`, all at the page's bits per key.
 *
 * Section B's SHaMBa design: the same tree shape with section B's files (SHaMBa Table 5: 4 KiB
 * blocks, 1,024 of them, 64 B entries), one equal-module (SHaMBa-eq) filter of b bits/key in D
 * modules per file, the page's skip strategy, and a block cache holding the page's budget of
 * every file's index and filter bytes (as the page computes them), index and filter blocks in the
 * cache. The page fills the cache by priority, index blocks and module 1 first, so the engine's
 * high-priority pool is sized to hold exactly those (at most the whole cache). The page's α and β
 * are what the engine measures per file; its thresholds θ₁, θ₂ are fixed in the engine at the
 * page's defaults, 0.2 and 0.1 I/O (wasm-engine/crates/lsm-engine/src/lookup.rs), so other values are not exported.
 */
import { levelFileCounts, SST, sstSizes, type MnemosyneTreeInput } from '../params/memory';
import type { EngineConfig, LevelConfig } from '../engine';

/** Bytes of one entry of section A's tree (Mnemosyne Fig 3). */
export const TREE_ENTRY_BYTES = 512;
/** Page size of every design on the page (SHaMBa Table 5's blocks). */
export const MEMORY_PAGE_BYTES = SST.pageBytes;
/** Bytes of one file of section B (SHaMBa Table 5: 1,024 blocks of 4 KiB). */
export const SHAMBA_FILE_BYTES = SST.dataBlocks * SST.pageBytes;
/** The engine's skip thresholds (wasm-engine/crates/lsm-engine/src/lookup.rs THETA_FIRST, THETA_LATER). */
export const ENGINE_SKIP_THRESHOLDS = { whole: 0.2, later: 0.1 } as const;

export type MemoryTree = Pick<MnemosyneTreeInput, 'sizeRatio' | 'levels' | 'filesInFirstLevel' | 'entriesPerFile'>;
export type TreeAllocation = 'mnemosyne' | 'monkey' | 'uniform';
export type SkipStrategy = 'none' | 'partial' | 'full';

export interface ShambaChoice {
  /** b: bits per key of the whole filter. */
  bitsPerKey: number;
  /** D: equal modules. */
  modules: number;
  skip: SkipStrategy;
  /** Block cache as a percentage of all index and filter bytes. */
  budgetPercent: number;
}

const ALLOCATION_NAMES: Record<TreeAllocation, string> = { mnemosyne: 'Mnemosyne', monkey: 'Monkey', uniform: 'uniform' };
const count = (n: number) => n.toLocaleString('en-US');
const short = (v: number) => Number(v.toPrecision(4));

/** Files in the page's tree (all levels). */
export function treeFiles(tree: MemoryTree): number {
  return levelFileCounts(tree).reduce((s, n) => s + n, 0);
}

/** Levels 1, 2, … of the engine for the page's tree shape (see the module comment). */
function treeLevels(tree: MemoryTree): LevelConfig[] {
  return [
    { size_ratio: tree.filesInFirstLevel, max_runs: 1 },
    { size_ratio: tree.sizeRatio, max_runs: 1 },
  ];
}

function shapeName(tree: MemoryTree, fileEntries: number): string {
  const files = tree.filesInFirstLevel;
  return `T = ${tree.sizeRatio}, ${tree.levels} level${tree.levels === 1 ? '' : 's'} of ${count(fileEntries)}-entry files (${files} in level 1, ${count(treeFiles(tree))} in all), merges by file`;
}

/** Section A's tree with Mnemosyne's, Monkey's or uniform filter allocation at `bitsPerKey`. */
export function treeToEngineConfig(tree: MemoryTree, allocation: TreeAllocation, bitsPerKey: number): EngineConfig {
  const fileBytes = Math.round(tree.entriesPerFile * TREE_ENTRY_BYTES);
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `${ALLOCATION_NAMES[allocation]} filters at ${short(bitsPerKey)} bits/key: ${shapeName(tree, tree.entriesPerFile)}`,
    page_bytes: MEMORY_PAGE_BYTES,
    buffer_bytes: fileBytes,
    levels: treeLevels(tree),
    filter: { allocation, bits_per_key: bitsPerKey },
    compaction: { granularity: 'file', target_file_bytes: fileBytes },
  };
}

/**
 * The block cache of the SHaMBa design: `budgetPercent` of every file's index and filter bytes,
 * and the high-priority share that holds the index blocks and module 1 (capped at the cache).
 */
export function shambaCache(tree: MemoryTree, s: ShambaChoice): { bytes: number; highPriorityRatio: number } {
  const { indexBytes, filterBytes } = sstSizes(s.bitsPerKey);
  const perFile = (s.budgetPercent / 100) * (indexBytes + filterBytes);
  const high = (indexBytes + filterBytes / s.modules) / perFile;
  return { bytes: Math.round(perFile * treeFiles(tree)), highPriorityRatio: Math.min(1, Number(high.toFixed(4))) };
}

/** Section B's SHaMBa design on section A's tree shape (see the module comment). */
export function shambaToEngineConfig(tree: MemoryTree, s: ShambaChoice): EngineConfig {
  const cache = shambaCache(tree, s);
  const fileEntries = SHAMBA_FILE_BYTES / SST.entryBytes;
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `SHaMBa: ${short(s.bitsPerKey)} bits/key in ${s.modules} module${s.modules === 1 ? '' : 's'}, ${s.skip} skipping, cache ${s.budgetPercent}% of index + filter; ${shapeName(tree, fileEntries)}`,
    page_bytes: MEMORY_PAGE_BYTES,
    buffer_bytes: SHAMBA_FILE_BYTES,
    levels: treeLevels(tree),
    filter: { allocation: 'uniform', bits_per_key: s.bitsPerKey, kind: 'modular', modules: s.modules, skip: s.skip },
    compaction: { granularity: 'file', target_file_bytes: SHAMBA_FILE_BYTES },
    block_cache: { bytes: cache.bytes, cache_index_and_filter_blocks: true, high_priority_ratio: cache.highPriorityRatio },
  };
}
