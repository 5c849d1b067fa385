/** MSLS leveled (LevelDB) write-amplification model (Algorithm 1) and the no-redundancy worst case. */
import { finite } from '../validate';
import { mslsResolveLevelParams, type MslsLevelParams, type MslsResolvedLevelParams, type MslsTableSelection } from './params';
import { popularity, type Popularity } from './popularity';
import { dIntervalOf, uniqueInverseOf, uniqueOf, uniqueSlopeOf } from './primitives';

// ────────────────────────────────────────────────────────────────────────── leveled (LevelDB) model

/** One compaction step l → l+1 of the leveled model (Algorithm 1). */
export interface MslsCompactionStep {
  fromLevel: number;
  toLevel: number;
  /** Interval(l): requests over which the l → l+1 cost is amortised (c0·wal for l = 0; cumulative above). */
  intervalRequests: number;
  /** DInterval(l): requests per sweep of the round-robin cursor (the engine's cursor wrap period); null for l = 0. */
  sweepRequests: number | null;
  /** Merge(Unique(Interval(l)), Size(l+1)), items. */
  mergeItems: number;
  /** False-overlap term Unique(Interval(l)) for l ≥ 1 (0 for L0 → L1), items. */
  falseOverlapItems: number;
  /** Write(l+1) = merge + false overlap, items. */
  writeItems: number;
  /** Write(l+1)/Interval(l): this step's share of WA. */
  writeAmplification: number;
}

/** Write amplification with its per-source breakdown. */
export interface MslsWriteAmplification {
  /** Total WA (dimensionless). */
  total: number;
  /** Write-ahead log: 1 (no deduplication). */
  log: number;
  /** Memtable → level 0: Unique(wal)/wal. */
  flush: number;
  /** Steps L0→L1, …, L(L−1)→L(L). */
  compactions: MslsCompactionStep[];
  /**
   * WA written INTO each level, length L + 1: [flush into L0, into L1, …, into L]. Compare with the
   * engine's bytes written per level ÷ bytes inserted (logical bytes, after warm-up).
   */
  perLevel: number[];
  resolved: MslsResolvedLevelParams;
  /** Regions where the reference says the model is less accurate. */
  warnings: string[];
}

interface LeveledCore {
  total: number;
  flush: number;
  intervals: number[];
  sweeps: number[];
  merges: number[];
  overlaps: number[];
  /** dWA/d ln Size(l), l = 1..L−1 (only with gradient). */
  gradient: number[];
}

export interface SolveHints {
  q: number[];
  d: number[];
}

/**
 * Algorithm 1. sizes = Size(1..L) in items (last = N). Uses Merge(Unique(I), S) = Unique(I + Unique⁻¹(S))
 * (the isomorphism), which saves one inversion per level. Optionally returns the analytic gradient
 * with respect to ln Size(l): WA depends on Size(j) through Unique⁻¹(Size(j)) (the merge into level j)
 * and through DInterval(j), which shifts every later cumulative Interval.
 */
export function leveledCore(
  pop: Popularity,
  wal: number,
  c0: number,
  sizes: readonly number[],
  selection: MslsTableSelection,
  withGradient: boolean,
  hints?: SolveHints,
): LeveledCore {
  const n = pop.keySpace;
  const levels = sizes.length;
  const q: number[] = [];
  const qSlope: number[] = [];
  const sweeps: number[] = [];
  const sweepSlope: number[] = [];
  for (let j = 0; j < levels - 1; j++) {
    q[j] = uniqueInverseOf(pop, sizes[j], hints?.q[j]);
    if (selection === 'round-robin') {
      [sweeps[j], sweepSlope[j]] = dIntervalOf(pop, sizes[j], hints?.d[j]);
    } else {
      sweeps[j] = q[j];
    }
    if (withGradient) {
      qSlope[j] = uniqueSlopeOf(pop, q[j]);
      if (selection !== 'round-robin') sweepSlope[j] = qSlope[j];
    }
  }
  q[levels - 1] = Infinity;
  if (hints) {
    hints.q = q.slice(0, levels - 1);
    hints.d = sweeps.slice();
  }
  const intervals = [wal * c0];
  for (let l = 1; l < levels; l++) intervals[l] = intervals[l - 1] + sweeps[l - 1];
  const merges: number[] = [];
  const overlaps: number[] = [];
  const dTdI: number[] = [];
  const dTdQ: number[] = [];
  let total = 1;
  const flush = uniqueOf(pop, wal) / wal;
  total += flush;
  for (let l = 0; l < levels; l++) {
    const iv = intervals[l];
    const last = l === levels - 1;
    merges[l] = last ? n : uniqueOf(pop, iv + q[l]);
    overlaps[l] = l === 0 ? 0 : uniqueOf(pop, iv);
    const term = (merges[l] + overlaps[l]) / iv;
    total += term;
    if (withGradient) {
      const mergeSlope = last ? 0 : uniqueSlopeOf(pop, iv + q[l]);
      dTdQ[l] = mergeSlope / iv;
      dTdI[l] = (mergeSlope + (l === 0 ? 0 : uniqueSlopeOf(pop, iv)) - term) / iv;
    }
  }
  const gradient: number[] = [];
  if (withGradient) {
    // DInterval(level j+1) feeds every Interval(m), m ≥ j+1, so it collects Σ_{m>j} ∂T_m/∂Interval(m).
    let suffix = 0;
    for (let j = levels - 2; j >= 0; j--) {
      suffix += dTdI[j + 1];
      const viaMerge = dTdQ[j] / qSlope[j];
      const viaSweep = suffix / sweepSlope[j];
      gradient[j] = sizes[j] * (viaMerge + viaSweep);
    }
  }
  return { total, flush, intervals, sweeps, merges, overlaps, gradient };
}

export function leveledResult(pop: Popularity, r: MslsResolvedLevelParams): MslsWriteAmplification {
  const core = leveledCore(pop, r.walItems, r.level0Trigger, r.levelItems, r.tableSelection, false);
  finite('mslsWriteAmplification', core.total);
  if (r.flushKeepsVersions) {
    // Every version is flushed: the merges below are the same (they drop the older versions).
    core.total += 1 - core.flush;
    core.flush = 1;
  }
  const compactions = core.intervals.map((iv, l) => {
    const writeItems = core.merges[l] + core.overlaps[l];
    return {
      fromLevel: l,
      toLevel: l + 1,
      intervalRequests: iv,
      sweepRequests: l === 0 ? null : core.sweeps[l - 1],
      mergeItems: core.merges[l],
      falseOverlapItems: core.overlaps[l],
      writeItems,
      writeAmplification: writeItems / iv,
    };
  });
  const warnings: string[] = [];
  if (r.levels > 1 && r.levelItems[0] < r.walItems) {
    warnings.push(
      'Size(1) is smaller than the write buffer: the overflow approximation is crude here and the model overestimates WA under uniform keys (paper Fig. 10).',
    );
  }
  return {
    total: core.total,
    log: 1,
    flush: core.flush,
    compactions,
    perLevel: [core.flush, ...compactions.map((c) => c.writeAmplification)],
    resolved: r,
    warnings,
  };
}

/**
 * Write amplification of LevelDB-style leveled compaction with round-robin partitioned compaction
 * (the paper's Algorithm 1, §3.2):
 *   WA = 1 + Unique(wal)/wal + Merge(Unique(c0·wal), Size(1))/(c0·wal)
 *          + Σ_{l=1}^{L−1} [Merge(Unique(I_l), Size(l+1)) + Unique(I_l)] / I_l,
 *   I_0 = c0·wal, I_l = I_{l−1} + DInterval(l), Size(L) = N.
 * Models redundancy (Unique/Merge), the density gradient of round-robin selection (DInterval),
 * level overflow (cumulative Interval) and false overlaps (+Unique(I_l)).
 */
export function mslsWriteAmplification(params: MslsLevelParams): MslsWriteAmplification {
  const r = mslsResolveLevelParams(params);
  return leveledResult(popularity(r.keySpace, r.distribution, r.grouping), r);
}

/**
 * The conventional no-redundancy worst case the paper compares against (merging sizes u and v
 * yields u + v; skew-independent). [UNCERTAIN] The paper states only that assumption; this is the
 * reference's reconstruction (§3.3), "no-redundancy worst case": every level moves wholesale,
 *   WA_wc = 1 + 1 + (c0·wal + Size(1))/(c0·wal) + Σ_{l=1}^{L−1} (Size(l) + Size(l+1))/Size(l).
 * Same breakdown shape as `mslsWriteAmplification` (Interval(l) = Size(l) for l ≥ 1).
 */
export function worstCaseWriteAmplification(params: MslsLevelParams): MslsWriteAmplification {
  const r = mslsResolveLevelParams(params);
  const sizes = r.levelItems;
  const compactions: MslsCompactionStep[] = sizes.map((target, l) => {
    const iv = l === 0 ? r.level0Trigger * r.walItems : sizes[l - 1];
    return {
      fromLevel: l,
      toLevel: l + 1,
      intervalRequests: iv,
      sweepRequests: null,
      mergeItems: iv + target,
      falseOverlapItems: 0,
      writeItems: iv + target,
      writeAmplification: (iv + target) / iv,
    };
  });
  const perLevel = [1, ...compactions.map((c) => c.writeAmplification)];
  const total = 1 + perLevel.reduce((a, b) => a + b, 0);
  return { total: finite('worstCaseWriteAmplification', total), log: 1, flush: 1, compactions, perLevel, resolved: r, warnings: [] };
}
