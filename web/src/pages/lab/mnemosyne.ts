/**
 * Mnemosyne in action: one skewed workload run three times, with uniform, Monkey and Mnemosyne
 * filter allocation under the same bits-per-key budget. Pure scenario builders and the row kept
 * per run. The scenario follows the engine's own test (wasm-engine/crates/lsm-runner/tests/io_accounting.rs):
 * lookups concentrated on a hot key range, inserts interleaved so files are rebuilt after access
 * statistics accumulate, merges by file so there are many files to tune.
 */
import { toCsv } from '../../ui/charts/csv';
import type { EngineConfig, Report, Workload } from '../../documents/engine';
import { bitsSpentPerKey, runsInOrder } from './predict';

export const COMPARE_ALLOCATIONS = ['uniform', 'monkey', 'mnemosyne'] as const;
export type CompareAllocation = (typeof COMPARE_ALLOCATIONS)[number];

export interface CompareSettings {
  bits: number;
  preload: number;
  operations: number;
  hotFraction: number;
  hotProbability: number;
  seed: number;
}

export const DEFAULT_COMPARE: CompareSettings = { bits: 4, preload: 80_000, operations: 400_000, hotFraction: 0.05, hotProbability: 0.95, seed: 1 };

export function compareConfig(allocation: CompareAllocation, bits: number): EngineConfig {
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `merges by file (64 KiB files), T = 4, ${allocation} filters at ${bits} bits/key`,
    page_bytes: 4096,
    buffer_bytes: 64 * 1024,
    levels: [
      { size_ratio: 4, max_runs: 3 },
      { size_ratio: 4, max_runs: 1 },
    ],
    filter: { allocation, bits_per_key: bits },
    compaction: { granularity: 'file', target_file_bytes: 64 * 1024 },
  };
}

export function compareWorkload(s: CompareSettings): Workload {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `hotspot ${s.hotFraction}/${s.hotProbability}: ${s.preload} keys, then ${s.operations} ops (25% inserts, 25% existing, 50% missing lookups)`,
    seed: s.seed,
    preload: { entries: s.preload, key_space: 0, key_bytes: 16, value_bytes: 48 },
    operations: s.operations,
    mix: { insert: 0.25, get_existing: 0.25, get_missing: 0.5 },
    distribution: { kind: 'hotspot', hot_fraction: s.hotFraction, hot_probability: s.hotProbability },
  };
}

export interface CompareRow {
  allocation: CompareAllocation;
  zeroIo: number;
  nonZeroIo: number;
  zeroLookups: number;
  nonZeroLookups: number;
  falsePositives: number;
  /** Σ filter bits ÷ Σ entries in the final tree: the budget actually spent. */
  bitsPerKey: number;
  filterBits: number;
  entries: number;
  files: number;
  /** Σ of run FPRs (what a uniform-access model would predict). */
  treeZeroIo: number;
  millis: number;
  /** Per file of the final tree: lookups that probed it and found nothing, and the bits per key it got. */
  fileStats: { emptyProbes: number; bitsPerKey: number; entries: number; level: number }[];
}

export function compareRow(allocation: CompareAllocation, report: Report, millis: number): CompareRow {
  const zero = report.summary.find((c) => c.class === 'get_zero_result');
  const hit = report.summary.find((c) => c.class === 'get_non_zero_result');
  const runs = runsInOrder(report.tree);
  return {
    allocation,
    zeroIo: zero?.io_per_op ?? 0,
    nonZeroIo: hit?.io_per_op ?? 0,
    zeroLookups: zero?.count ?? 0,
    nonZeroLookups: hit?.count ?? 0,
    falsePositives: zero?.filter_false_positives ?? 0,
    bitsPerKey: bitsSpentPerKey(report.tree),
    filterBits: runs.reduce((n, r) => n + r.filter_bits, 0),
    entries: runs.reduce((n, r) => n + r.entries, 0),
    files: runs.reduce((n, r) => n + r.tables.length, 0),
    treeZeroIo: report.predicted.zero_result_lookup_io,
    millis,
    fileStats: report.tree.levels.flatMap((l) =>
      l.runs.flatMap((r) => r.tables.map((t) => ({ emptyProbes: t.accesses - t.found, bitsPerKey: t.bits_per_key, entries: t.entries, level: l.level }))),
    ),
  };
}

/** Relative saving of `row` against the uniform baseline (0.4 = 40% fewer I/Os). */
export function savingVsUniform(rows: readonly CompareRow[], row: CompareRow): number | null {
  const base = rows.find((r) => r.allocation === 'uniform');
  return base && base.zeroIo > 0 ? 1 - row.zeroIo / base.zeroIo : null;
}

export function compareCsv(rows: readonly CompareRow[]): string {
  return toCsv(
    [
      'allocation',
      'zero-result I/O per lookup',
      'non-zero I/O per lookup',
      'zero-result lookups',
      'non-zero lookups',
      'false positives',
      'filter bits per key spent',
      'filter bits',
      'entries',
      'files',
      'sum of run FPRs',
      'milliseconds',
    ],
    rows.map((r) => [
      r.allocation,
      r.zeroIo,
      r.nonZeroIo,
      r.zeroLookups,
      r.nonZeroLookups,
      r.falsePositives,
      r.bitsPerKey,
      r.filterBits,
      r.entries,
      r.files,
      r.treeZeroIo,
      Math.round(r.millis),
    ]),
  );
}
