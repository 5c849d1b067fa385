/**
 * SHaMBa on the Memory-pressure page: modular Bloom filters against the module count (Table 3,
 * Fig 9) and the expected I/O per lookup against the block-cache budget (Fig 6/7 style) from the
 * §B.3.9 per-access model.
 *
 * The per-access model needs cache hit probabilities, which the paper measures. Ours come from a
 * stated assumption ([ours], pure, see `cacheHitRates`): every SST is alike (Table 5 sizes, uniform
 * access over files), so each kind of block is cached in the same share of files; the cache is
 * filled by priority — index blocks and filter module 1 first (SHaMBa's high pool; a monolithic
 * filter is module 1), then the later modules and data blocks — and within a priority by reads per
 * byte, i.e. an ideal two-priority cache that keeps the most-read bytes. Skipped modules are never
 * read, so they take no cache.
 */
import {
  fprFromBitsPerKey,
  mbfAnalyze,
  mbfEqualModules,
  mbfModuleFpr,
  mbfSplitHashes,
  modularBloom,
  optimalHashCount,
  requireFraction,
  requireNumber,
  shambaEqualSplit,
  shambaModulesToUse,
  shambaPerAccessIo,
  shambaProportionalSplit,
  shambaUtility,
  type ShambaAccessIo,
  type ShambaSkipPolicy,
} from '@lsm/models';
import { SST, SST_ENTRIES, sstSizes } from '../../documents/params/memory';

export { SST, SST_ENTRIES, sstSizes };


export type FilterLayout = 'mono' | 'eq' | 'prop';

/** Bits per key of each module: one filter, D equal modules, or SHaMBa-prop's budget-sized first module. */
export function layoutModuleBits(layout: FilterLayout, bitsPerKey: number, modules: number, budgetFraction: number): number[] {
  if (layout === 'mono') return [requireNumber('bitsPerKey', bitsPerKey, 0, 1000)];
  if (layout === 'eq') return shambaEqualSplit(bitsPerKey, modules);
  return shambaProportionalSplit(bitsPerKey, budgetFraction);
}

/** Skip thresholds per module slot: θ₁ for the whole filter (used by F only), θ₂ for every later slot. */
export function thresholdsFor(modules: number, whole: number, later: number): number[] {
  return Array.from({ length: modules }, (_, d) => (d === 0 ? whole : later));
}

interface CacheClass {
  /** 'index', 'data' or the module's 0-based slot. */
  id: 'index' | 'data' | number;
  high: boolean;
  bytes: number;
  /** Expected reads per access of the file. */
  reads: number;
}

/**
 * Hit probabilities under the page's stated cache assumption (see the file comment). capacityBytes
 * is the cache share of one SST; a kind of block that gets c of its b bytes hits with c/b.
 */
export function cacheHitRates(classes: readonly CacheClass[], capacityBytes: number): Map<CacheClass['id'], number> {
  let left = requireNumber('capacityBytes', capacityBytes, 0, Infinity, { exclusiveMax: true });
  const order = [...classes].sort((a, b) => Number(b.high) - Number(a.high) || b.reads / b.bytes - a.reads / a.bytes);
  const hits = new Map<CacheClass['id'], number>();
  for (const c of order) {
    if (c.bytes <= 0) {
      hits.set(c.id, 1);
      continue;
    }
    if (c.reads <= 0) {
      hits.set(c.id, 0);
      continue;
    }
    const got = Math.min(c.bytes, left);
    left -= got;
    hits.set(c.id, got / c.bytes);
  }
  return hits;
}

export interface AccessCostArgs {
  layout: FilterLayout;
  bitsPerKey: number;
  /** D for the equal split (mono is 1, prop is 2 or 1). */
  modules: number;
  /** Block cache as a fraction of all index + filter bytes (0.7 = 70 %). */
  budgetFraction: number;
  existingRatio: number;
  accessFrequency: number;
  policy: ShambaSkipPolicy;
  thresholdWhole: number;
  thresholdLater: number;
}

export interface AccessCost {
  moduleBits: number[];
  moduleFprs: number[];
  modulesUsed: number;
  moduleHitRates: number[];
  indexHitRate: number;
  dataHitRate: number;
  io: ShambaAccessIo;
}

/** Expected page reads of one lookup reaching an SST (§B.3.9) with hit rates from `cacheHitRates`. */
export function accessCost(a: AccessCostArgs): AccessCost {
  const alpha = requireFraction('existingRatio', a.existingRatio);
  const budget = requireNumber('budgetFraction', a.budgetFraction, 0, 100);
  const moduleBits = layoutModuleBits(a.layout, a.bitsPerKey, a.modules, budget);
  const moduleFprs = moduleBits.map((b) => fprFromBitsPerKey(b));
  // The state of the art never skips its filter; SHaMBa layouts follow the chosen policy.
  const policy: ShambaSkipPolicy = a.layout === 'mono' ? 'none' : a.policy;
  const stats = { existingRatio: alpha, accessFrequency: a.accessFrequency };
  const used = shambaModulesToUse(stats, moduleFprs, policy, thresholdsFor(moduleFprs.length, a.thresholdWhole, a.thresholdLater));
  const { indexBytes, filterBytes, dataBytes } = sstSizes(a.bitsPerKey);
  const moduleBytes = moduleBits.map((b) => (SST_ENTRIES * b) / 8);
  const reach = mbfAnalyze(moduleFprs).reachProbabilities;
  const passAll = moduleFprs.slice(0, used).reduce((p, f) => p * f, 1);
  const proceed = alpha + (1 - alpha) * passAll;
  const classes: CacheClass[] = [
    { id: 'index', high: true, bytes: indexBytes, reads: proceed },
    { id: 'data', high: false, bytes: dataBytes, reads: proceed },
    ...moduleBytes.slice(0, used).map((bytes, d) => ({ id: d, high: d === 0, bytes, reads: alpha + (1 - alpha) * reach[d] })),
  ];
  const hits = cacheHitRates(classes, budget * (indexBytes + filterBytes));
  const moduleHitRates = moduleBits.map((_, d) => (d < used ? (hits.get(d) ?? 0) : 0));
  const indexHitRate = hits.get('index') ?? 0;
  const dataHitRate = hits.get('data') ?? 0;
  const io = shambaPerAccessIo({
    existingRatio: alpha,
    moduleFprs,
    modulePages: moduleBytes.map((b) => b / SST.pageBytes),
    moduleHitRates,
    modulesUsed: used,
    indexPages: indexBytes / SST.pageBytes,
    indexHitRate,
    // One page per data block; a cached block costs nothing.
    dataPages: 1 - dataHitRate,
  });
  return { moduleBits, moduleFprs, modulesUsed: used, moduleHitRates, indexHitRate, dataHitRate, io };
}

export const CURVES = [
  { id: 'mono', layout: 'mono', skipping: false },
  { id: 'eq', layout: 'eq', skipping: true },
  { id: 'prop', layout: 'prop', skipping: true },
  { id: 'eq-none', layout: 'eq', skipping: false },
  { id: 'prop-none', layout: 'prop', skipping: false },
] as const;
export type CurveId = (typeof CURVES)[number]['id'];

export type BudgetCurveArgs = Omit<AccessCostArgs, 'layout' | 'budgetFraction'> & {
  /** Budgets to evaluate, percent of index + filter bytes. */
  budgetsPercent: readonly number[];
};

/**
 * I/O per lookup reaching an SST against the budget: the state of the art (one filter, no
 * skipping), SHaMBa-eq and SHaMBa-prop with the chosen policy, and both without skipping.
 */
export function shambaBudgetCurves(a: BudgetCurveArgs) {
  // Without skipping the "no skipping" references would repeat the main curves.
  const curves = a.policy === 'none' ? CURVES.filter((c) => c.skipping || c.layout === 'mono') : CURVES;
  return curves.map((c) => ({
    id: c.id as CurveId,
    points: a.budgetsPercent.map((pct) => {
      const cost = accessCost({ ...a, layout: c.layout, budgetFraction: pct / 100, policy: c.skipping ? a.policy : 'none' });
      return { budget: pct, io: cost.io.total, modulesUsed: cost.modulesUsed };
    }),
  }));
}

// ───────────────────────────────────────────────────────────────── MBF vs module count

export const MAX_PLOTTED_MODULES = 16;

/**
 * FPR and modules read against D = 1..16 at `bitsPerKey`: ideal hash counts (Eq 4–7) and the
 * integer split of Table 3 (round(b·ln 2) probes spread over the modules, D ≤ that count).
 */
export function mbfByModules(bitsPerKey: number, existingRatio: number) {
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 64, { exclusiveMin: true });
  const alpha = requireFraction('existingRatio', existingRatio);
  const k = optimalHashCount(b);
  return Array.from({ length: MAX_PLOTTED_MODULES }, (_, i) => {
    const D = i + 1;
    const ideal = modularBloom(b, D);
    const integer = D <= k ? integerSplit(b, D, k) : null;
    return {
      modules: D,
      idealFpr: ideal.fpr,
      /** f_sm: one equal module's FPR, exp(−(b/D)·ln²2). */
      moduleFpr: fprFromBitsPerKey(b / D),
      idealEmpty: ideal.expectedModuleAccesses,
      idealMix: alpha * D + (1 - alpha) * ideal.expectedModuleAccesses,
      integer,
    };
  });
}

/** One row of Table 3: the probe split, per-module FPRs and what an empty lookup reads. */
export function integerSplit(bitsPerKey: number, modules: number, totalHashes = optimalHashCount(bitsPerKey)) {
  const hashes = mbfSplitHashes(totalHashes, modules);
  const fprs = mbfEqualModules(bitsPerKey, modules, hashes).map((m) => mbfModuleFpr(m));
  const analysis = mbfAnalyze(fprs);
  return {
    hashes,
    fprs,
    fpr: analysis.fpr,
    expectedEmpty: analysis.expectedModulesEmpty,
    stopAfterFirst: analysis.cumulativeTermination[0],
  };
}

export interface UtilityRow extends Record<string, string | number> {
  filter: string;
  module: number;
  bits: number;
  fpr: number;
  reach: number;
  utility: number;
  threshold: number;
  /** "use" or "skip" under P and F. */
  partial: string;
  full: string;
}

/** Per-module utility and skip decisions for SHaMBa-eq (D modules) and SHaMBa-prop at the budget. */
export function utilityTable(a: Omit<AccessCostArgs, 'layout' | 'policy'>): UtilityRow[] {
  const stats = { existingRatio: a.existingRatio, accessFrequency: a.accessFrequency };
  const rows: UtilityRow[] = [];
  for (const layout of ['eq', 'prop'] as const) {
    const bits = layoutModuleBits(layout, a.bitsPerKey, a.modules, a.budgetFraction);
    const fprs = bits.map((b) => fprFromBitsPerKey(b));
    const th = thresholdsFor(fprs.length, a.thresholdWhole, a.thresholdLater);
    const usedP = shambaModulesToUse(stats, fprs, 'partial', th);
    const usedF = shambaModulesToUse(stats, fprs, 'full', th);
    const reach = mbfAnalyze(fprs).reachProbabilities;
    fprs.forEach((f, d) => {
      rows.push({
        filter: layout === 'eq' ? 'SHaMBa-eq' : 'SHaMBa-prop',
        module: d + 1,
        bits: bits[d],
        fpr: f,
        reach: reach[d],
        utility: shambaUtility(stats, fprs, d + 1),
        threshold: th[d],
        partial: d < usedP ? 'use' : 'skip',
        full: d < usedF ? 'use' : 'skip',
      });
    });
  }
  return rows;
}
