/** Mnemosyne's engine rules: the query-time filter skip, build-time rounding and sizing new files at a flush/compaction. */
import { LN2_SQ } from '../bloom';
import { requireNumber } from '../validate';
import { mnemosyneSortAndSearch, validateFiles, type MnemosyneFile } from './allocation';

// ───────────────────────────────────────────────────────────────── engine rules

/**
 * Query-time skip (§A.3.5): with the latest C, a file whose model FPR would be ≥ 1 skips its (old) filter:
 * n_i > z_i·e^(−C). Without a C (no solve yet, or nothing to allocate) nothing is skipped.
 */
export function mnemosyneSkipFilter(file: MnemosyneFile, logC: number | null): boolean {
  validateFiles([file], 'file');
  if (logC === null) return false;
  requireNumber('logC', logC, -Infinity, Infinity, { exclusiveMax: true, exclusiveMin: true });
  if (file.emptyProbes === 0) return file.entries > 0;
  return file.entries > file.emptyProbes * Math.exp(-logC);
}

/**
 * Bits per key a new filter is actually built with (§A.3.4, §A.4.8): below 0.5 → 0, [0.5, 1) → 1,
 * otherwise unchanged, then capped at `maxBitsPerKey` (pitfall P-A6: one hot file may absorb the budget).
 */
export function mnemosyneBuildBitsPerKey(bitsPerKey: number, maxBitsPerKey = 64): number {
  const b = requireNumber('bitsPerKey', bitsPerKey, -Infinity, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const cap = requireNumber('maxBitsPerKey', maxBitsPerKey, 1, 1000);
  if (b < 0.5) return 0;
  return Math.min(cap, Math.max(1, b));
}

export interface MnemosyneSizingInput {
  /** Live files not consumed by this flush/compaction, with their current estimates. */
  liveFiles: readonly MnemosyneFile[];
  /** Files the job is about to write (estimates from inheritance or the flush prior). */
  newFiles: readonly MnemosyneFile[];
  /** The user's average bits per key; the budget is this times Σ entries over live and new files. */
  averageBitsPerKey: number;
  /** Cap on any single filter (default 64). */
  maxBitsPerKey?: number;
}

/**
 * The control loop of §A.4.8 at one flush/compaction: solve the RocksDB variant over live ∪ new files,
 * then size only the new files (old filters are not rebuilt) with the build-time rounding. Returns the
 * new files' bits per key and the C to store for the query-time skip rule. A file the solver dropped
 * whose formula value lands in [0.5, 1) still gets 1 bit — that is the reference's rounding rule (P-A7).
 * Because the min-1 problem is not convex, the final C can even give a file the scan dropped ≥ 1 bit (M1 at
 * avg bpk 4: 1.50); we follow the reference — only C is global state, and the skip rule uses C alone.
 */
export function mnemosyneSizeNewFiles(input: MnemosyneSizingInput): { bitsPerKey: number[]; logC: number | null } {
  validateFiles(input.liveFiles, 'liveFiles');
  validateFiles(input.newFiles, 'newFiles');
  const avg = requireNumber('averageBitsPerKey', input.averageBitsPerKey, 0, 1000);
  const all = [...input.liveFiles, ...input.newFiles];
  const M = avg * all.reduce((s, f) => s + f.entries, 0);
  const { logC } = mnemosyneSortAndSearch(all, M, { minBitsPerKey: 1 });
  const bitsPerKey = input.newFiles.map((f) => {
    if (logC === null || f.emptyProbes === 0 || f.entries === 0) return 0;
    return mnemosyneBuildBitsPerKey(-(Math.log(f.entries / f.emptyProbes) + logC) / LN2_SQ, input.maxBitsPerKey ?? 64);
  });
  return { bitsPerKey, logC };
}
