/** MSLS models of other designs: RocksDB universal compaction (simulated), COLA and SAMT (Appendix B). */
import { finite, requireNumber } from '../validate';
import { resolveWorkload, type MslsWorkloadParams, type ResolvedWorkload } from './params';
import { popularity, type Popularity } from './popularity';
import { uniqueOf } from './primitives';

// ────────────────────────────────────────────────────────────────────────── other designs

/** RocksDB universal (tiered) compaction, table-level simulation (§5, Algorithm 3). RocksDB option names. */
export interface MslsUniversalParams extends MslsWorkloadParams {
  /** level0_file_num_compaction_trigger, integer in [2, 1000]. Default 12 (the paper's setting). */
  compactionTrigger?: number;
  /** level0_stop_writes_trigger, integer ≥ compactionTrigger. Default 24. */
  stopWritesTrigger?: number;
  /** max_size_amplification_percent, in (0, 1e6]. Default 200. */
  maxSizeAmplificationPercent?: number;
  /** size_ratio (percent), in [0, 1e6]. Default 1. */
  sizeRatioPercent?: number;
  /** Measured inserts per key after loading all N keys once (the paper's 10·N), in (0, 1000]. Default 10. */
  insertsPerKey?: number;
}

/**
 * WA of RocksDB universal compaction by the paper's table-level simulation (no closed form exists):
 * only table sizes are tracked; each table is kept as its equivalent request count, so a merge is a
 * sum (the Unique isomorphism) and costs one Unique. Starts from one table holding all N keys and
 * runs insertsPerKey·N inserts. [reference assumptions] RocksDB 4.0 defaults stop 24, 200 %, ratio 1 %.
 * Cost: O(inserts/wal × groups) — fast for uniform keys; Zipf at N ≥ 10⁷ takes seconds.
 */
export function mslsUniversalWriteAmplification(params: MslsUniversalParams): number {
  const w = resolveWorkload(params);
  const trigger = requireNumber('compactionTrigger', params.compactionTrigger ?? 12, 2, 1000, { integer: true });
  const stop = requireNumber('stopWritesTrigger', params.stopWritesTrigger ?? 24, trigger, 100_000, { integer: true });
  const amp = requireNumber('maxSizeAmplificationPercent', params.maxSizeAmplificationPercent ?? 200, 0, 1e6, {
    exclusiveMin: true,
  });
  const ratio = requireNumber('sizeRatioPercent', params.sizeRatioPercent ?? 1, 0, 1e6);
  const perKey = requireNumber('insertsPerKey', params.insertsPerKey ?? 10, 0, 1000, { exclusiveMin: true });
  const pop = popularity(w.keySpace, w.distribution, w.grouping);
  const wal = w.walItems;
  const flushSize = uniqueOf(pop, wal);
  // Newest first. A table is [requests, size]; the initial table (all keys) has requests = ∞.
  const tables: [number, number][] = [[Infinity, w.keySpace]];
  const mergeRange = (from: number, to: number): number => {
    let req = 0;
    for (let i = from; i < to; i++) req += tables[i][0];
    const size = uniqueOf(pop, req);
    tables.splice(from, to - from, [req, size]);
    return size;
  };
  const goal = perKey * w.keySpace;
  let inserts = 0;
  let writes = 0;
  while (inserts < goal) {
    if (tables.length < stop) {
      writes += wal + flushSize;
      inserts += wal;
      tables.unshift([wal, flushSize]);
    }
    if (tables.length < trigger) continue;
    const last = tables.length - 1;
    let younger = 0;
    for (let i = 0; i < last; i++) younger += tables[i][1];
    if (younger / tables[last][1] > amp / 100) {
      writes += mergeRange(0, tables.length);
      continue;
    }
    let merged = false;
    for (let start = 0; start < tables.length && !merged; start++) {
      let count = 1;
      let total = tables[start][1];
      for (let i = start + 1; i < tables.length; i++) {
        if ((total * (100 + ratio)) / 100 < tables[i][1]) break;
        total += tables[i][1];
        count += 1;
      }
      if (count >= 2) {
        writes += mergeRange(start, start + count);
        merged = true;
      }
    }
    if (!merged) {
      const count = tables.length - trigger;
      if (count >= 2) writes += mergeRange(0, count);
    }
  }
  return finite('mslsUniversalWriteAmplification', writes / inserts);
}

/** COLA / SAMT (Appendix B): levels grow by an integer factor r and the WAL is capped at wal. */
export interface MslsColaParams extends MslsWorkloadParams {
  /** r: integer growth factor in [2, 1000]. */
  growthFactor: number;
  /** L, integer in [1, 200]. Default: the smallest L with wal·r^(L−1) ≥ N (the reference's choice). */
  levels?: number;
}

function resolveCola(params: MslsColaParams): { w: ResolvedWorkload; r: number; levels: number; pop: Popularity } {
  const w = resolveWorkload(params);
  const r = requireNumber('growthFactor', params.growthFactor, 2, 1000, { integer: true });
  let levels = 1;
  if (params.levels === undefined) {
    while (w.walItems * r ** (levels - 1) < w.keySpace) levels += 1;
  } else {
    levels = requireNumber('levels', params.levels, 1, 200, { integer: true });
  }
  return { w, r, levels, pop: popularity(w.keySpace, w.distribution, w.grouping) };
}

/**
 * COLA write amplification (Appendix B): WA = 1 + Σ_{l=0}^{L−2} Σ_{j=0}^{r−2} Merge(Unique(I_l),
 * Unique(j·I_l)) / I_{l+1} + N/I_{L−1}, I_l = wal·r^l. Each level absorbs r − 1 merges before moving
 * down; the last level holds all N keys.
 */
export function mslsColaWriteAmplification(params: MslsColaParams): number {
  const { w, r, levels, pop } = resolveCola(params);
  let wa = 1;
  let iv = w.walItems;
  for (let l = 0; l < levels - 1; l++) {
    let written = 0;
    // Merge(Unique(I), Unique(j·I)) = Unique((j+1)·I) by the isomorphism.
    for (let j = 0; j <= r - 2; j++) written += uniqueOf(pop, (j + 1) * iv);
    wa += written / (iv * r);
    iv *= r;
  }
  return finite('mslsColaWriteAmplification', wa + w.keySpace / iv);
}

/** SAMT write amplification (Appendix B): WA = 1 + Σ_{l=0}^{L−2} r·Unique(I_l)/I_{l+1} + N/I_{L−1}. */
export function mslsSamtWriteAmplification(params: MslsColaParams): number {
  const { w, r, levels, pop } = resolveCola(params);
  let wa = 1;
  let iv = w.walItems;
  for (let l = 0; l < levels - 1; l++) {
    wa += (r * uniqueOf(pop, iv)) / (iv * r);
    iv *= r;
  }
  return finite('mslsSamtWriteAmplification', wa + w.keySpace / iv);
}
