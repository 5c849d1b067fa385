/**
 * Moose + Smoose (Liu, Wang, Mo, Luo, "Structural Designs Meet Optimality", SIGMOD 2024).
 *
 * The generalised LSM-tree: every disk level i has its own size ratio r_i = N_i / N_{i−1}
 * (N_0 = F, the write buffer), its own maximum run count n_i (1 ≤ n_i ≤ r_i) and its own
 * Bloom-filter bits per entry. Costs, in page I/Os per operation, are the paper's formulas taken
 * literally (their big-O bodies, no hidden constants):
 *
 *   zero-result point  Z  = Σ n_i p_i                              [paper Eq.4]
 *   short range        R  = Σ n_i                                  [paper Eq.3]
 *   update             U  = (1/B) Σ r_i / n_i                      [paper Eq.2]
 *   space amp.         SA = n_L · N / N_L                          [paper Eq.15]
 *
 * plus labelled [extension]s the explorer needs: non-zero-result point lookups, long ranges
 * (+ t/B), and the refined update cost (1/B) Σ (s_i + 1)/2.
 *
 * Conventions (pinned so that layouts, tests and the engine agree):
 * - Runs use MOOSE's convention: tiering is n_i = T (Monkey/Dostoevsky write T−1). The engine's
 *   `max_runs` has the same meaning as n_i here (its run capacity is capacity / max_runs, and a
 *   level whose n_i-th run is full is merged down), so `mooseToEngineLevels` copies n_i as is.
 * - A layout is a list of levels, smallest first, each `{ sizeRatio, runs, bitsPerEntry }`.
 *   Levels 1..L−1 are full (N_i = F · r_1 ⋯ r_i); the LAST level holds whatever is left of the
 *   dataset, N_L = N − Σ_{i<L} N_i, and its `sizeRatio` is its capacity (an upper bound). This is
 *   the paper's Σ N_i = N with r_L = N_L / N_{L−1} "whatever is left" (r_L may be below 2).
 * - The buffer F enters through `options.bufferBytes` (default 2 MiB, the paper's setting):
 *   F = floor(bufferBytes / entryBytes) entries. B = floor(pageBytes / entryBytes) entries/page.
 * - Filter memory is in BYTES at the API (bits per entry per level inside layouts); FPRs use the
 *   ideal-hash-count formula p = exp(−b · ln²2) from `bloom.ts`.
 * - Fixed-ratio presets use the reference's "full geometric tree": N_i = N_L / T^{L−i} with
 *   Σ N_i = N (RocksDB's dynamic level sizing). Should that make the first level smaller than two
 *   buffers, it is folded into the next level (the first ratio then lies in (T, 2T)).
 *
 * Reconstructions (reference §9), implemented as the reference recommends: the DP is the "exact"
 * variant of Eq.12 (the printed one under-counts; `mooseDpLiteral` keeps it for comparison);
 * n_i = k√r_i is rounded half up and clamped to [1, floor r_i]; Smoose's filters use the optimal
 * split of Eq.10; the workload-aware DP cost s·n + u·r/(nB) of §4.6 is the reference's guess at
 * what the authors ran (it reproduces the shape of Table 3 for A, B, D, I). Smoose runs both DPs
 * and, by default, also scores the fixed-ratio presets, so its choice never loses to them.
 */
import { LN2_SQ, bitsPerKeyFromFpr, fprFromBitsPerKey } from './bloom';
import type { Dataset, Workload } from './types';
import { ModelInputError, finite, requireNumber, requireOneOf, requireSumToOne } from './validate';

// ---------------------------------------------------------------------------------------------
// Types and constants

/** One level of a Moose layout: size ratio r_i, max runs n_i, filter bits per entry b_i. */
export interface MooseLevel {
  sizeRatio: number;
  runs: number;
  bitsPerEntry: number;
}

/** A level's shape without filters. */
export interface MooseShapeLevel {
  sizeRatio: number;
  runs: number;
}

/** 'paper' = Eq.2 literally, (1/B) Σ r_i/n_i; 'refined' = [extension] (1/B) Σ (r_i/n_i + 1)/2. */
export type MooseUpdateModel = 'paper' | 'refined';

export interface MooseOptions {
  /** Write buffer F in bytes, ≥ one entry. Default `MOOSE_DEFAULT_BUFFER_BYTES` (2 MiB). */
  bufferBytes?: number;
  /** Which update cost enters the weighted cost (and Smoose's objective). Default 'paper'. */
  updateModel?: MooseUpdateModel;
}

/** The paper's buffer (2 MB), bytes. */
export const MOOSE_DEFAULT_BUFFER_BYTES = 2 * 1024 * 1024;
/** Moose's default last-level share N_L / N. */
export const MOOSE_DEFAULT_LAST_LEVEL_FRACTION = 0.8;
/** Moose's default run regulator k (n_i = k·√r_i). */
export const MOOSE_DEFAULT_K = 1;
/** Optimal common size ratio for R·U alone, e² (reference §3.1). */
export const MOOSE_OPTIMAL_EQUAL_RATIO = Math.E * Math.E;

const MAX_LEVELS = 64;
const MAX_RATIO = 1e9;
const MAX_BITS_PER_ENTRY = 1000;
/** Largest memory the filter solver accepts, bits per entry (FPRs stay representable). */
const MAX_MEMORY_BITS_PER_ENTRY = 512;
/** Largest N/F the DP and Smoose accept. */
const MAX_BUFFERS = 1e8;
const EPS = 1e-9;

/** Per-level view of a layout evaluated on a dataset. */
export interface MooseLevelDetail {
  /** Capacity N_i (entries); for the last level, F·Π r_i with the typed ratio. */
  capacityEntries: number;
  /** Entries held: the capacity for levels 1..L−1, the remainder for the last level. */
  entries: number;
  /** Effective size ratio entries_i / entries_{i−1} (entries_0 = F). */
  sizeRatio: number;
  /** Runs the model counts: n_i, the last level capped at floor(effective ratio). */
  runs: number;
  /** Capacity of one run, entries_i / n_i. */
  runCapacityEntries: number;
  /** Run magnification s_i = r_i / n_i: arrivals that fill one run. */
  runMagnification: number;
  bitsPerEntry: number;
  /** FPR of every run's filter at this level, exp(−b ln²2). */
  fpr: number;
  /** Filter memory of the level, bits (b_i · entries_i). */
  filterBits: number;
}

/** Costs of one layout, in page I/Os per operation. */
export interface MooseCostBreakdown {
  /** Z = Σ n_i p_i [paper Eq.4]. */
  zeroResultPoint: number;
  /** [extension] 1 + Σ_{i<L} n_i p_i + ((n_L − 1)/2) p_L: target in the last level, any run equally likely. */
  nonZeroResultPoint: number;
  /** [extension] 1 + Σ_{i<L} n_i p_i + (n_L − 1) p_L: target in the last-probed run. */
  nonZeroResultPointWorst: number;
  /** Σ n_i: one seek per run [paper Eq.3]. */
  shortRange: number;
  /** Σ n_i + σ·N/B: seeks plus the scan of σN entries [extension]. */
  range: number;
  /** (1/B) Σ r_i/n_i [paper Eq.2, big-O body taken literally]. */
  updatePaper: number;
  /** (1/B) Σ (r_i/n_i + 1)/2 [extension: mean rewrites of an entry per level, writes only]. */
  updateRefined: number;
  /** The update cost selected by `updateModel`. */
  update: number;
  /** n_L · N / N_L, worst case [paper Eq.15]. */
  spaceAmplification: number;
  /** z·((1−v)·Z + v·nonZeroResultPoint) + q·range + w·update, per operation. */
  weighted: number;
}

export interface MooseCosts extends MooseCostBreakdown {
  levels: MooseLevelDetail[];
  bufferEntries: number;
  entriesPerPage: number;
  /** Σ_i b_i · entries_i, bits. */
  filterBits: number;
  updateModel: MooseUpdateModel;
}

// ---------------------------------------------------------------------------------------------
// Validation helpers

interface Env {
  entries: number;
  entriesPerPage: number;
  bufferEntries: number;
  updateModel: MooseUpdateModel;
}

function checkDataset(dataset: Dataset): { entries: number; entryBytes: number; entriesPerPage: number } {
  if (typeof dataset !== 'object' || dataset === null) throw new ModelInputError('dataset', 'must be an object');
  const entries = requireNumber('dataset.entries', dataset.entries, 1, 1e15);
  const entryBytes = requireNumber('dataset.entryBytes', dataset.entryBytes, 0, 1e9, { exclusiveMin: true });
  const pageBytes = requireNumber('dataset.pageBytes', dataset.pageBytes, entryBytes, 1e12);
  return { entries, entryBytes, entriesPerPage: Math.floor(pageBytes / entryBytes) };
}

function checkEnv(dataset: Dataset, options: MooseOptions = {}): Env {
  const d = checkDataset(dataset);
  const bufferBytes = requireNumber(
    'options.bufferBytes',
    options.bufferBytes ?? MOOSE_DEFAULT_BUFFER_BYTES,
    d.entryBytes,
    1e15,
  );
  const updateModel = requireOneOf('options.updateModel', options.updateModel ?? 'paper', ['paper', 'refined'] as const);
  return {
    entries: d.entries,
    entriesPerPage: d.entriesPerPage,
    bufferEntries: Math.floor(bufferBytes / d.entryBytes),
    updateModel,
  };
}

interface CheckedWorkload {
  z: number;
  v: number;
  q: number;
  w: number;
  sigma: number;
}

function checkWorkload(workload: Workload): CheckedWorkload {
  if (typeof workload !== 'object' || workload === null) throw new ModelInputError('workload', 'must be an object');
  requireSumToOne('workload', {
    pointLookups: workload.pointLookups,
    rangeLookups: workload.rangeLookups,
    updates: workload.updates,
  });
  const v = requireNumber('workload.nonZeroFraction', workload.nonZeroFraction, 0, 1);
  const sigma = requireNumber('workload.rangeSelectivity', workload.rangeSelectivity, 0, 1);
  return { z: workload.pointLookups, v, q: workload.rangeLookups, w: workload.updates, sigma };
}

function checkMemoryBits(field: string, memoryBytes: number, entries: number): number {
  const bits = 8 * requireNumber(field, memoryBytes, 0, (MAX_MEMORY_BITS_PER_ENTRY * entries) / 8);
  return bits;
}

function floorRatio(r: number): number {
  return Math.max(1, Math.floor(r + EPS));
}

// ---------------------------------------------------------------------------------------------
// Level geometry

/** Capacities, contents, effective ratios and runs of a layout (validated). */
interface Geometry {
  capacity: number[];
  entries: number[];
  ratio: number[];
  runs: number[];
}

function geometry(env: Env, levels: readonly MooseShapeLevel[]): Geometry {
  if (!Array.isArray(levels) || levels.length < 1 || levels.length > MAX_LEVELS) {
    const got = Array.isArray(levels) ? levels.length : String(levels);
    throw new ModelInputError('levels', `must list between 1 and ${MAX_LEVELS} levels, got ${got}`);
  }
  const L = levels.length;
  const N = env.entries;
  const capacity: number[] = [];
  const entries: number[] = [];
  const ratio: number[] = [];
  const runs: number[] = [];
  let prev = env.bufferEntries;
  let sum = 0;
  for (let i = 0; i < L; i++) {
    const lv = levels[i];
    if (typeof lv !== 'object' || lv === null) throw new ModelInputError(`levels[${i}]`, 'must be an object');
    // The last level may be smaller than twice its predecessor (the paper's r_L "whatever is left").
    const r = requireNumber(`levels[${i}].sizeRatio`, lv.sizeRatio, i < L - 1 ? 2 : 1, MAX_RATIO);
    const n = requireNumber(`levels[${i}].runs`, lv.runs, 1, floorRatio(r), { integer: true });
    const cap = prev * r;
    capacity.push(cap);
    if (i < L - 1) {
      entries.push(cap);
      ratio.push(r);
      runs.push(n);
      sum += cap;
      prev = cap;
    } else {
      const content = N - sum;
      if (content <= 0) {
        throw new ModelInputError(
          'levels',
          `levels 1..${L - 1} already hold ${sum} entries, at least dataset.entries = ${N}; ` +
            'remove a level or use smaller size ratios',
        );
      }
      if (content > cap * (1 + EPS)) {
        const need = content / prev;
        throw new ModelInputError(
          `levels[${i}].sizeRatio`,
          `must be a number in [${need}, ${MAX_RATIO}] so the last level can hold the remaining ${content} entries ` +
            `(or add a level), got ${r}`,
        );
      }
      const rEff = content / prev;
      entries.push(content);
      ratio.push(rEff);
      // A level holding r_eff arrivals' worth of data cannot have more runs than that.
      runs.push(Math.min(n, floorRatio(rEff)));
    }
  }
  return { capacity, entries, ratio, runs };
}

/**
 * Capacities, contents, effective ratios and run counts of a layout on a dataset.
 * Levels 1..L−1 are full; the last holds the remainder N − Σ_{i<L} N_i (entries).
 * Throws `ModelInputError` for ratios < 2 on non-last levels (< 1 on the last), runs outside
 * [1, floor(sizeRatio)], or a layout that does not fit the dataset.
 */
export function mooseLevelCapacities(
  dataset: Dataset,
  levels: readonly MooseShapeLevel[],
  options: MooseOptions = {},
): { bufferEntries: number; capacityEntries: number[]; entries: number[]; sizeRatios: number[]; runs: number[] } {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  return {
    bufferEntries: env.bufferEntries,
    capacityEntries: g.capacity,
    entries: g.entries,
    sizeRatios: g.ratio,
    runs: g.runs,
  };
}

/** Capacities N_i = F·r_1⋯r_i (entries) of full levels with the given ratios. */
export function mooseCapacitiesFromRatios(bufferEntries: number, sizeRatios: readonly number[]): number[] {
  requireNumber('bufferEntries', bufferEntries, 0, Infinity, { exclusiveMin: true });
  let prev = bufferEntries;
  return sizeRatios.map((r, i) => {
    prev *= requireNumber(`sizeRatios[${i}]`, r, 0, MAX_RATIO, { exclusiveMin: true });
    return prev;
  });
}

/** Eq.1: N_i = s_i · n_i · N_{i−1} from runs n_i and run magnifications s_i (≥ 1); entries. */
export function mooseCapacitiesFromShape(
  bufferEntries: number,
  runs: readonly number[],
  runMagnifications: readonly number[],
): number[] {
  if (runs.length !== runMagnifications.length) {
    const got = runMagnifications.length;
    throw new ModelInputError('runMagnifications', `must have one entry per level (${runs.length}), got ${got}`);
  }
  return mooseCapacitiesFromRatios(
    bufferEntries,
    runs.map((n, i) => requireNumber(`runs[${i}]`, n, 1, MAX_RATIO, { integer: true }) *
      requireNumber(`runMagnifications[${i}]`, runMagnifications[i], 1, MAX_RATIO)),
  );
}

// ---------------------------------------------------------------------------------------------
// Filters: the generalised Monkey split (reference §2.6)

/**
 * FPRs p_i minimising Σ n_i p_i for `memoryBits` of filter memory spread over levels with
 * `capacities` (entries; any unit works, the split is scale-free) and `runs` (> 0, real values
 * allowed for the continuous analysis). Optimum p_i = λ·N_i/n_i (Eq.10); levels whose p would
 * reach 1 — the largest runs — get no filter and λ is re-solved over the rest (§2.6 clamping).
 */
export function mooseOptimalFprs(capacities: readonly number[], runs: readonly number[], memoryBits: number): number[] {
  const L = capacities.length;
  if (L < 1 || L > MAX_LEVELS) {
    throw new ModelInputError('capacities', `must list between 1 and ${MAX_LEVELS} levels, got ${L}`);
  }
  if (runs.length !== L) throw new ModelInputError('runs', `must have one entry per level (${L}), got ${runs.length}`);
  let total = 0;
  for (let i = 0; i < L; i++) {
    total += requireNumber(`capacities[${i}]`, capacities[i], 0, Infinity, { exclusiveMin: true });
    requireNumber(`runs[${i}]`, runs[i], 0, Infinity, { exclusiveMin: true });
  }
  requireNumber('memoryBits', memoryBits, 0, MAX_MEMORY_BITS_PER_ENTRY * total);
  return optimalFprs(capacities, runs, memoryBits);
}

function optimalFprs(caps: readonly number[], runs: readonly number[], memoryBits: number): number[] {
  const L = caps.length;
  const lnRunSize = caps.map((c, i) => Math.log(c / runs[i]));
  const active = new Array<boolean>(L).fill(true);
  const p = new Array<number>(L).fill(1);
  for (;;) {
    let W = 0;
    let S = 0;
    for (let i = 0; i < L; i++) {
      if (active[i]) {
        W += caps[i];
        S += caps[i] * lnRunSize[i];
      }
    }
    if (W === 0) return p.fill(1);
    const lnLambda = -(memoryBits * LN2_SQ + S) / W;
    let worst = -1;
    for (let i = 0; i < L; i++) {
      if (!active[i]) continue;
      p[i] = Math.exp(lnLambda + lnRunSize[i]);
      if (p[i] >= 1 && (worst < 0 || lnRunSize[i] > lnRunSize[worst])) worst = i;
    }
    if (worst < 0) return p;
    active[worst] = false;
    p[worst] = 1;
  }
}

function bitsFromFpr(p: number): number {
  return p >= 1 ? 0 : bitsPerKeyFromFpr(p);
}

/**
 * The optimal bits per entry of each level of a layout for a total filter budget of
 * `memoryBytes` (≥ 0, at most 64 bytes per entry). Uses the levels' actual contents (the last
 * level holds the remainder) and run counts; levels that get no filter return 0.
 */
export function mooseOptimalBitsPerEntry(
  dataset: Dataset,
  levels: readonly MooseShapeLevel[],
  memoryBytes: number,
  options: MooseOptions = {},
): number[] {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  return optimalFprs(g.entries, g.runs, bits).map(bitsFromFpr);
}

// ---------------------------------------------------------------------------------------------
// Cost formulas (exported individually so curves and tests can use real-valued run counts)

type Bounds = [min: number, max: number, exclusiveMin: boolean];

/** Validate per-level vectors of one length L ∈ [1, 64], each entry within its field's bounds. */
function checkVectors(vectors: Record<string, readonly number[]>, bounds: Record<string, Bounds>): number {
  let L = -1;
  for (const [field, v] of Object.entries(vectors)) {
    if (!Array.isArray(v) || v.length < 1 || v.length > MAX_LEVELS) {
      throw new ModelInputError(field, `must list between 1 and ${MAX_LEVELS} levels`);
    }
    if (L >= 0 && v.length !== L) throw new ModelInputError(field, `must have one entry per level (${L}), got ${v.length}`);
    L = v.length;
    const [lo, hi, exclusiveMin] = bounds[field];
    v.forEach((x, i) => requireNumber(`${field}[${i}]`, x, lo, hi, { exclusiveMin }));
  }
  return L;
}

const POSITIVE: Bounds = [0, Infinity, true];
const FPR: Bounds = [0, 1, false];

/** Short range lookup, Σ n_i seeks [paper Eq.3]; `runs` > 0 (real values allowed). */
export function mooseShortRangeCost(runs: readonly number[]): number {
  checkVectors({ runs }, { runs: POSITIVE });
  return runs.reduce((a, n) => a + n, 0);
}

function updatePaper(r: readonly number[], n: readonly number[], B: number): number {
  let u = 0;
  for (let i = 0; i < r.length; i++) u += r[i] / n[i];
  return u / B;
}

function updateRefined(r: readonly number[], n: readonly number[], B: number): number {
  let u = 0;
  for (let i = 0; i < r.length; i++) u += (r[i] / n[i] + 1) / 2;
  return u / B;
}

/**
 * Update cost exactly as paper Eq.2: (1/B) Σ r_i / n_i, page I/Os per update. Ratios and runs
 * > 0 (real values allowed for the continuous analysis), B = entries per page ≥ 1.
 */
export function mooseUpdateCostPaper(
  sizeRatios: readonly number[],
  runs: readonly number[],
  entriesPerPage: number,
): number {
  checkVectors({ sizeRatios, runs }, { sizeRatios: POSITIVE, runs: POSITIVE });
  return updatePaper(sizeRatios, runs, requireNumber('entriesPerPage', entriesPerPage, 1, Infinity));
}

/**
 * [extension] Refined update cost: an entry is rewritten (s_i + 1)/2 times on average at a level
 * with run magnification s_i = r_i/n_i, so (1/B) Σ (s_i + 1)/2 page writes per update
 * (double it to also count compaction reads). Same inputs as `mooseUpdateCostPaper`.
 */
export function mooseUpdateCostRefined(
  sizeRatios: readonly number[],
  runs: readonly number[],
  entriesPerPage: number,
): number {
  checkVectors({ sizeRatios, runs }, { sizeRatios: POSITIVE, runs: POSITIVE });
  return updateRefined(sizeRatios, runs, requireNumber('entriesPerPage', entriesPerPage, 1, Infinity));
}

function zeroResult(n: readonly number[], p: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < n.length; i++) z += n[i] * p[i];
  return z;
}

function nonZeroResult(n: readonly number[], p: readonly number[], share: number): number {
  const L = n.length;
  let z = 1;
  for (let i = 0; i < L - 1; i++) z += n[i] * p[i];
  return z + share * (n[L - 1] - 1) * p[L - 1];
}

/** Zero-result point lookup, Σ n_i p_i [paper Eq.4]; runs > 0, FPRs in [0, 1]. */
export function mooseZeroResultPointCost(runs: readonly number[], fprs: readonly number[]): number {
  checkVectors({ runs, fprs }, { runs: POSITIVE, fprs: FPR });
  return zeroResult(runs, fprs);
}

/**
 * [extension] Non-zero-result point lookup with the target in the last level:
 * 1 + Σ_{i<L} n_i p_i + f·(n_L − 1)·p_L, f = 1/2 ('average') or 1 ('worst'). Runs ≥ 1, FPRs in [0, 1].
 */
export function mooseNonZeroResultPointCost(
  runs: readonly number[],
  fprs: readonly number[],
  which: 'average' | 'worst' = 'average',
): number {
  checkVectors({ runs, fprs }, { runs: [1, Infinity, false], fprs: FPR });
  const share = requireOneOf('which', which, ['average', 'worst'] as const) === 'worst' ? 1 : 0.5;
  return nonZeroResult(runs, fprs, share);
}

/**
 * Worst-case space amplification, Eq.15 in its long form
 * Σ_i (Σ_{j≥i} n_j)(N_i/n_i − N_{i−1}/n_{i−1}) / (N_L/n_L), which telescopes to n_L·ΣN_i/N_L.
 * `capacities` (> 0, any unit) and `runs` (> 0); the worst case assumes non-decreasing run sizes.
 */
export function mooseSpaceAmplification(capacities: readonly number[], runs: readonly number[]): number {
  const L = checkVectors({ capacities, runs }, { capacities: POSITIVE, runs: POSITIVE });
  let num = 0;
  let prevRun = 0;
  for (let i = 0; i < L; i++) {
    let copies = 0;
    for (let j = i; j < L; j++) copies += runs[j];
    const run = capacities[i] / runs[i];
    num += copies * (run - prevRun);
    prevRun = run;
  }
  return num / (capacities[L - 1] / runs[L - 1]);
}

/**
 * Eq.16 for Moose: the printed bound k·N/√(N_L(N−N_L)) (derived with an inequality in the wrong
 * direction, so it is really a lower bound) and a valid upper bound √2 times that (reference §2.7).
 * `lastLevelFraction` = N_L/N in (0, 1).
 */
export function mooseSpaceAmplificationBound(k: number, lastLevelFraction: number): { printed: number; valid: number } {
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  const f = requireNumber('lastLevelFraction', lastLevelFraction, 0, 1, { exclusiveMin: true, exclusiveMax: true });
  const printed = k / Math.sqrt(f * (1 - f));
  return { printed, valid: Math.SQRT2 * printed };
}

/** Lemma 3.2: Moose's point cost is within 2^{(N_L/N)/2} of the best for the same N_L and k. */
export function mooseLemma32Factor(lastLevelFraction: number): number {
  const f = requireNumber('lastLevelFraction', lastLevelFraction, 0, 1);
  return Math.pow(2, f / 2);
}

/**
 * Eq.11: zero-result point cost with n_i = k·√r_i and the optimal split, in closed form,
 * N·k·Π(N_i N_{i−1})^{−N_i/(2N)}·exp(−(M/N) ln²2). Exact while no level's FPR is clamped.
 * `capacities` and `bufferEntries` in entries, `memoryBits` in bits.
 */
export function mooseEq11PointCost(
  capacities: readonly number[],
  bufferEntries: number,
  k: number,
  memoryBits: number,
): number {
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  requireNumber('memoryBits', memoryBits, 0, Infinity);
  requireNumber('bufferEntries', bufferEntries, 0, Infinity, { exclusiveMin: true });
  ratiosOf(capacities, bufferEntries); // validates
  const N = capacities.reduce((a, c) => a + c, 0);
  let lnProd = 0;
  let prev = bufferEntries;
  for (const c of capacities) {
    lnProd += (-c / (2 * N)) * Math.log(c * prev);
    prev = c;
  }
  return finite('Eq.11 point cost', N * k * Math.exp(lnProd - (memoryBits / N) * LN2_SQ));
}

function ratiosOf(capacities: readonly number[], bufferEntries: number): number[] {
  let prev = bufferEntries;
  return capacities.map((c, i) => {
    requireNumber(`capacities[${i}]`, c, 0, Infinity, { exclusiveMin: true });
    const r = c / prev;
    prev = c;
    return r;
  });
}

// ---------------------------------------------------------------------------------------------
// mooseCosts

function breakdown(
  env: Env,
  g: Geometry,
  fprs: readonly number[],
  w: CheckedWorkload,
): MooseCostBreakdown {
  const B = env.entriesPerPage;
  const L = g.runs.length;
  const zeroResultPoint = zeroResult(g.runs, fprs);
  const nonZeroResultPoint = nonZeroResult(g.runs, fprs, 0.5);
  const nonZeroResultPointWorst = nonZeroResult(g.runs, fprs, 1);
  const shortRange = g.runs.reduce((a, n) => a + n, 0);
  const range = shortRange + (w.sigma * env.entries) / B;
  const uPaper = updatePaper(g.ratio, g.runs, B);
  const uRefined = updateRefined(g.ratio, g.runs, B);
  const update = env.updateModel === 'paper' ? uPaper : uRefined;
  const spaceAmplification = (g.runs[L - 1] * env.entries) / g.entries[L - 1];
  const point = (1 - w.v) * zeroResultPoint + w.v * nonZeroResultPoint;
  const weighted = w.z * point + w.q * range + w.w * update;
  return {
    zeroResultPoint,
    nonZeroResultPoint,
    nonZeroResultPointWorst,
    shortRange,
    range,
    updatePaper: uPaper,
    updateRefined: uRefined,
    update,
    spaceAmplification,
    weighted: finite('weighted cost', weighted),
  };
}

/**
 * Costs of a layout for a workload, in page I/Os per operation: zero-result point (Eq.4),
 * non-zero-result point [extension], range (Eq.3 + σN/B), update (Eq.2, or the refined form when
 * `options.updateModel` is 'refined'; both are always reported), space amplification (Eq.15) and
 * the workload-weighted cost per operation. `levels[i].bitsPerEntry` is used as given (fill it
 * with `mooseOptimalBitsPerEntry` for the optimal split).
 */
export function mooseCosts(
  dataset: Dataset,
  levels: readonly MooseLevel[],
  workload: Workload,
  options: MooseOptions = {},
): MooseCosts {
  const env = checkEnv(dataset, options);
  const g = geometry(env, levels);
  const w = checkWorkload(workload);
  const bits = levels.map((lv, i) => requireNumber(`levels[${i}].bitsPerEntry`, lv.bitsPerEntry, 0, MAX_BITS_PER_ENTRY));
  const fprs = bits.map((b) => fprFromBitsPerKey(b));
  const details: MooseLevelDetail[] = g.entries.map((entries, i) => ({
    capacityEntries: g.capacity[i],
    entries,
    sizeRatio: g.ratio[i],
    runs: g.runs[i],
    runCapacityEntries: entries / g.runs[i],
    runMagnification: g.ratio[i] / g.runs[i],
    bitsPerEntry: bits[i],
    fpr: fprs[i],
    filterBits: bits[i] * entries,
  }));
  return {
    ...breakdown(env, g, fprs, w),
    levels: details,
    bufferEntries: env.bufferEntries,
    entriesPerPage: env.entriesPerPage,
    filterBits: details.reduce((a, d) => a + d.filterBits, 0),
    updateModel: env.updateModel,
  };
}

// ---------------------------------------------------------------------------------------------
// Run counts n_i = k·√r_i

/** n_i = round-half-up(k·√r_i) clamped to [1, floor(r_i)] (reference §3.3 rounding rule). */
export function mooseRuns(sizeRatios: readonly number[], k: number): number[] {
  checkVectors({ sizeRatios }, { sizeRatios: POSITIVE });
  requireNumber('k', k, 0, Infinity);
  return sizeRatios.map((r) => runsFor(r, k));
}

function runsFor(r: number, k: number): number {
  const n = Math.floor(k * Math.sqrt(r) + 0.5);
  return Math.max(1, Math.min(n, floorRatio(r)));
}

/** Every k at which some round(k·√r_i) changes: (m + ½)/√r_i for m = 0..floor(r_i), sorted. */
export function mooseKBreakpoints(sizeRatios: readonly number[]): number[] {
  checkVectors({ sizeRatios }, { sizeRatios: [0, MAX_RATIO, true] });
  const ks = new Set<number>();
  for (const r of sizeRatios) {
    const top = Math.floor(r + EPS);
    for (let m = 0; m <= top; m++) ks.add((m + 0.5) / Math.sqrt(r));
  }
  return [...ks].sort((a, b) => a - b);
}

/**
 * The distinct run vectors along the RU-curve of fixed ratios, in increasing k: each with the
 * smallest k that produces it (k → 0 gives all ones, the largest k gives n_i = floor(r_i)).
 */
export function mooseRunVectors(sizeRatios: readonly number[]): { k: number; runs: number[] }[] {
  const out: { k: number; runs: number[] }[] = [];
  const seen = new Set<string>();
  for (const kb of [1e-9, ...mooseKBreakpoints(sizeRatios).map((b) => b * (1 + 1e-9))]) {
    const runs = sizeRatios.map((r) => runsFor(r, kb));
    const key = runs.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ k: kb, runs });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The inner-level DP (reference §4.3, exact variant), solved by branch and bound

/**
 * A per-level cost c(r) for the DP plus two lower bounds the branch and bound needs, tabulated on
 * a log2 grid with `steps` cells per doubling (cell j starts at 2^{j/steps}):
 * `one[j]` ≤ c(r) for every r ≥ 2^{j/steps} (so the table is non-decreasing), and `inner[j]` ≤ the
 * cost of any sequence of ≥ 1 levels whose ratios multiply to at least 2^{j/steps}.
 */
export interface MooseDpLevelCost {
  readonly name: string;
  cost(r: number): number;
  readonly steps: number;
  readonly one: Float64Array;
  readonly inner: Float64Array;
}

const TABLE_STEPS = 64;

/**
 * inner[j] = min_ℓ ℓ·ψ(ln q_j / ℓ) for a convex lower bound ψ(ln r) of c (Jensen over ℓ levels);
 * convex in ℓ, so stop at the first increase.
 */
function innerTable(cells: number, psi: (t: number) => number): Float64Array {
  const tab = new Float64Array(cells);
  for (let j = 0; j < cells; j++) {
    const T = (j / TABLE_STEPS) * Math.LN2;
    let best = Infinity;
    for (let l = 1; l < 100000; l++) {
      const v = l * psi(T / l);
      if (v < best) best = v;
      else if (v > best) break;
    }
    tab[j] = best * (1 - 1e-12);
  }
  return tab;
}

function cellsFor(maxRatio: number): number {
  return Math.ceil(Math.log2(Math.max(2, maxRatio)) * TABLE_STEPS) + 2;
}

/** The Moose DP objective c(r) = √r (Σ√r_i = A, Eq.7/12). `maxRatio` ≥ 2 sizes the bound tables (N/F suffices). */
export function mooseSqrtLevelCost(maxRatio = 1e6): MooseDpLevelCost {
  const R = requireNumber('maxRatio', maxRatio, 2, MAX_BUFFERS * 2);
  const cells = cellsFor(R);
  const one = new Float64Array(cells);
  for (let j = 0; j < cells; j++) one[j] = Math.pow(2, j / TABLE_STEPS / 2) * (1 - 1e-12);
  return { name: 'sum-sqrt', cost: Math.sqrt, steps: TABLE_STEPS, one, inner: innerTable(cells, (t) => Math.exp(t / 2)) };
}

/**
 * [reference §4.6, reconstructed] Workload-aware DP cost for fixed k:
 * c_k(r) = s·n_k(r) + u·U_1(r, n_k(r)), n_k(r) = clamp(round(k√r), 1, floor r), where U_1 is one
 * level's update cost (r/n)/B ('paper') or ((r/n + 1)/2)/B ('refined'); s, u = range and update
 * fractions. `maxRatio` bounds the ratios the DP can meet (N/F suffices).
 */
export function smooseWorkloadLevelCost(
  rangeFraction: number,
  updateFraction: number,
  entriesPerPage: number,
  k: number,
  maxRatio: number,
  updateModel: MooseUpdateModel = 'paper',
): MooseDpLevelCost {
  const s = requireNumber('rangeFraction', rangeFraction, 0, 1);
  const u = requireNumber('updateFraction', updateFraction, 0, 1);
  const B = requireNumber('entriesPerPage', entriesPerPage, 1, Infinity);
  requireNumber('k', k, 0, Infinity, { exclusiveMin: true });
  const R = requireNumber('maxRatio', maxRatio, 2, MAX_BUFFERS * 2);
  const refined = updateModel === 'refined';
  const cost = (r: number): number => {
    const n = runsFor(r, k);
    return s * n + (u * (refined ? (r / n + 1) / 2 : r / n)) / B;
  };
  // c is increasing between the points where n_k(r) jumps (round and floor changes).
  const bps: number[] = [];
  for (let m = 0; ; m++) {
    const b = ((m + 0.5) / k) ** 2;
    if (b > R) break;
    if (b > 1) bps.push(b);
  }
  for (let i = 2; i <= R && i <= k * Math.sqrt(i) + 1.5; i++) bps.push(i);
  bps.sort((a, b) => a - b);
  // Step lower bound: each cell gets the least value c takes in it, then the suffix minimum.
  const cells = cellsFor(R);
  const one = new Float64Array(cells);
  let bi = 0;
  for (let j = 0; j < cells; j++) {
    const lo = Math.pow(2, j / TABLE_STEPS);
    const hi = Math.pow(2, (j + 1) / TABLE_STEPS);
    let v = Math.min(cost(lo), cost(lo * (1 + 1e-12)));
    while (bi < bps.length && bps[bi] < lo) bi++;
    for (let t = bi; t < bps.length && bps[t] < hi; t++) v = Math.min(v, cost(bps[t]), cost(bps[t] * (1 + 1e-12)));
    one[j] = v * (1 - 1e-9);
  }
  for (let j = cells - 2; j >= 0; j--) one[j] = Math.min(one[j], one[j + 1]);
  // Lower convex hull of the step function's corners, in t = ln r.
  const hx: number[] = [];
  const hy: number[] = [];
  const push = (px: number, py: number): void => {
    while (hx.length >= 2) {
      const n = hx.length;
      const cross = (hx[n - 1] - hx[n - 2]) * (py - hy[n - 2]) - (hy[n - 1] - hy[n - 2]) * (px - hx[n - 2]);
      if (cross > 0) break;
      hx.pop();
      hy.pop();
    }
    hx.push(px);
    hy.push(py);
  };
  for (let j = 0; j < cells; j++) {
    push((j / TABLE_STEPS) * Math.LN2, one[j]);
    push(((j + 1) / TABLE_STEPS) * Math.LN2, one[j]);
  }
  const psi = (t: number): number => {
    if (t <= hx[0]) return hy[0];
    if (t >= hx[hx.length - 1]) return hy[hy.length - 1];
    let a = 0;
    let b = hx.length - 1;
    while (b - a > 1) {
      const mid = (a + b) >> 1;
      if (hx[mid] <= t) a = mid;
      else b = mid;
    }
    return hy[a] + ((hy[b] - hy[a]) * (t - hx[a])) / (hx[b] - hx[a]);
  };
  return { name: 'workload-aware', cost, steps: TABLE_STEPS, one, inner: innerTable(cells, psi) };
}

export interface MooseDpResult {
  /** Capacities N_1..N_L in buffers (units of F); the last is N_L. */
  capacities: number[];
  /** Σ c(r_i) of the returned structure, the last level's term included. */
  cost: number;
  /** False when the node budget ran out: the result is then the best structure found. */
  exact: boolean;
  /** Search nodes visited. */
  nodes: number;
}

/**
 * The exact inner-level DP of reference §4.3 ("exact variant" of Eq.12), in units of the buffer:
 * levels 1..m−1 have integer ratios ≥ 2 (capacities stay multiples of F), level m takes all the
 * remaining capacity (ratio ≥ 2, may be fractional), the last level holds `lastBuffers`, and the
 * structure minimises Σ_i c(r_i) including the last level's term. Returns the same structure as
 * the reference's memoised recursion; it is found by branch and bound (depth-first, children in
 * order of their lower bound), which visits a small part of the reference's state space.
 * `totalBuffers` = N/F, `lastBuffers` = N_L/F with N/2 ≤ N_L ≤ N. If N − N_L < 2F the answer is a
 * single level of N.
 */
export function mooseDp(
  totalBuffers: number,
  lastBuffers: number,
  levelCost: MooseDpLevelCost = mooseSqrtLevelCost(),
  limits: { maxNodes?: number } = {},
): MooseDpResult {
  const x = requireNumber('totalBuffers', totalBuffers, 1, MAX_BUFFERS);
  const m = requireNumber('lastBuffers', lastBuffers, x / 2 - EPS, x);
  const maxNodes = requireNumber('maxNodes', limits.maxNodes ?? 5_000_000, 1, Infinity);
  const covered = Math.pow(2, (levelCost.one.length - 1) / levelCost.steps);
  if (covered < x) {
    throw new ModelInputError('levelCost', `covers ratios up to ${covered}; build it with maxRatio ≥ totalBuffers = ${x}`);
  }
  return branchAndBound(x, m, levelCost, maxNodes);
}

function branchAndBound(x: number, m: number, lc: MooseDpLevelCost, maxNodes: number): MooseDpResult {
  const X = x - m;
  if (X < 2) return { capacities: [x], cost: lc.cost(x), exact: true, nodes: 1 };
  const c = lc.cost;
  const { one, inner, steps } = lc;
  const lastOne = one.length - 1;
  const lastInner = inner.length - 1;
  const oneAt = (l2: number): number => (l2 < 0 ? 0 : one[Math.min(Math.floor(l2 * steps), lastOne)]);
  const innerAt = (l2: number): number => (l2 < 0 ? 0 : inner[Math.min(Math.floor(l2 * steps), lastInner)]);
  const lm = Math.log2(m);
  const minRest = inner[0];
  // Remaining cost from (P, N_r): the final inner level holds c_m ∈ (N_r/2, N_r] (later inner
  // levels at least double, so they sum to less than c_m), hence the last ratio is m/c_m and the
  // inner product c_m/P; bound both over four slices of that interval.
  const lowerBound = (l2P: number, Nr: number): number => {
    const l = Math.log2(Nr) - 1;
    let v = Infinity;
    for (let j = 0; j < 4; j++) {
      const t = oneAt(lm - l - (j + 1) / 4) + innerAt(l + j / 4 - l2P);
      if (t < v) v = t;
    }
    return v;
  };
  let best = Infinity;
  let bestPath: number[] = [];
  const path: number[] = [];
  let nodes = 0;
  let aborted = false;
  const kidLb: Float64Array[] = [];
  const kidAcc: Float64Array[] = [];
  const kidR: Float64Array[] = [];
  const dfs = (Np: number, Nr: number, acc: number, depth: number): void => {
    if (++nodes > maxNodes) {
      aborted = true;
      return;
    }
    if (Nr >= 2 * Np) {
      const v = acc + c(Nr / Np) + c(m / Nr);
      if (v < best) {
        best = v;
        bestPath = [...path, Nr];
      }
    }
    if (Nr < 6 * Np) return; // no room for a child of ratio ≥ 2
    const maxKids = Math.floor(Nr / (3 * Np)) + 1;
    if (!kidLb[depth] || kidLb[depth].length < maxKids) {
      const size = Math.max(maxKids, 16);
      kidLb[depth] = new Float64Array(size);
      kidAcc[depth] = new Float64Array(size);
      kidR[depth] = new Float64Array(size);
    }
    const LB = kidLb[depth];
    const AC = kidAcc[depth];
    const RR = kidR[depth];
    const l2Np = Math.log2(Np);
    let count = 0;
    for (let r = 2; Nr - r * Np >= 2 * r * Np; r++) {
      const l2r = Math.log2(r);
      if (acc + oneAt(l2r) + minRest >= best) break;
      const a = acc + c(r);
      const lb = a + lowerBound(l2Np + l2r, Nr - r * Np);
      if (lb >= best) continue;
      LB[count] = lb;
      AC[count] = a;
      RR[count] = r;
      count++;
    }
    // most promising child first (ties: smaller ratio first)
    const order = Array.from({ length: count }, (_, i) => i).sort((i, j) => LB[i] - LB[j] || i - j);
    for (const i of order) {
      if (aborted) return;
      // the arrays of this depth are not touched by deeper calls
      if (LB[i] >= best) continue;
      const P2 = RR[i] * Np;
      path.push(P2);
      dfs(P2, Nr - P2, AC[i], depth + 1);
      path.pop();
    }
  };
  // A greedy dive first (most promising child, ratios ≤ 256) gives an incumbent, so that the
  // children loops below stop early instead of bounding every ratio up to N_r/3.
  for (let Np = 1, Nr = X, acc = 0; ; ) {
    if (Nr >= 2 * Np) {
      const v = acc + c(Nr / Np) + c(m / Nr);
      if (v < best) {
        best = v;
        bestPath = [...path, Nr];
      }
    }
    let pick = 0;
    let pickLb = Infinity;
    const l2Np = Math.log2(Np);
    for (let r = 2; r <= 256 && Nr - r * Np >= 2 * r * Np; r++) {
      const lb = acc + c(r) + lowerBound(l2Np + Math.log2(r), Nr - r * Np);
      if (lb < pickLb) {
        pickLb = lb;
        pick = r;
      }
    }
    if (pick === 0 || pickLb >= best) break;
    acc += c(pick);
    Np *= pick;
    Nr -= Np;
    path.push(Np);
  }
  path.length = 0;
  dfs(1, X, 0, 0);
  return { capacities: [...bestPath, m], cost: best, exact: !aborted, nodes };
}

/**
 * The same DP for every N_L at once, for small trees: the reference's states (P, S) — P the last
 * placed capacity, S the capacity placed so far, both in buffers — each with the least Σc(r) of
 * a path reaching it. A state serves every N_L with S + 2P ≤ N − N_L, so one forward pass over
 * the states of the largest N − N_L answers all of them. Used by the exhaustive Smoose scan.
 */
class AllLastLevelsDp {
  private readonly P: number[] = [1];
  private readonly S: number[] = [0];
  private readonly f: number[] = [0];
  private readonly parent: number[] = [-1];

  constructor(
    private readonly x: number,
    maxInner: number,
    private readonly lc: MooseDpLevelCost,
  ) {
    const byP = new Map<number, number[]>([[1, [0]]]);
    const index = new Map<number, number>();
    const width = Math.floor(maxInner) + 1;
    for (let p = 1; 6 * p <= maxInner; p++) {
      const list = byP.get(p);
      if (!list) continue;
      for (const i of list) {
        for (let r = 2; this.S[i] + 3 * r * p <= maxInner; r++) {
          const P2 = r * p;
          const S2 = this.S[i] + P2;
          const v = this.f[i] + lc.cost(r);
          const key = P2 * width + S2;
          const j = index.get(key);
          if (j === undefined) {
            index.set(key, this.P.length);
            const l2 = byP.get(P2);
            if (l2) l2.push(this.P.length);
            else byP.set(P2, [this.P.length]);
            this.P.push(P2);
            this.S.push(S2);
            this.f.push(v);
            this.parent.push(i);
          } else if (v < this.f[j]) {
            this.f[j] = v;
            this.parent[j] = i;
          }
        }
      }
    }
  }

  solve(m: number): MooseDpResult {
    const X = this.x - m;
    const c = this.lc.cost;
    if (X < 2) return { capacities: [this.x], cost: c(this.x), exact: true, nodes: 1 };
    let best = Infinity;
    let arg = -1;
    for (let i = 0; i < this.P.length; i++) {
      const Nr = X - this.S[i];
      if (Nr < 2 * this.P[i]) continue;
      const v = this.f[i] + c(Nr / this.P[i]) + c(m / Nr);
      if (v < best) {
        best = v;
        arg = i;
      }
    }
    const caps: number[] = [X - this.S[arg], m];
    for (let i = arg; i > 0; i = this.parent[i]) caps.unshift(this.P[i]);
    return { capacities: caps, cost: best, exact: true, nodes: this.P.length };
  }
}

/**
 * Eq.12 exactly as printed (reference §3.3), kept to show why it is not used: when fewer than two
 * of the last placed level fit, the remainder is folded into that level and the state's value is
 * √(N_L/(N_d + N_r)) — the enlarged level's own ratio is never re-charged, so `reportedCost`
 * under-counts Σ√r of the structure it builds. Units of F; only for N/F ≤ 4096.
 */
export function mooseDpLiteral(totalBuffers: number, lastBuffers: number): { capacities: number[]; reportedCost: number } {
  const x = requireNumber('totalBuffers', totalBuffers, 1, 4096);
  const m = requireNumber('lastBuffers', lastBuffers, x / 2 - EPS, x);
  const X = x - m;
  if (X < 2) return { capacities: [x], reportedCost: 0 };
  const memo = new Map<string, { cost: number; seq: number[] }>();
  const S = (Nd: number, Nr: number): { cost: number; seq: number[] } => {
    if (Nr < 2 * Nd) return { cost: Math.sqrt(m / (Nd + Nr)), seq: [] };
    const key = `${Nd}:${Nr}`;
    const hit = memo.get(key);
    if (hit) return hit;
    let best = { cost: Infinity, seq: [] as number[] };
    for (let r = 2; r <= Math.ceil(Nr / Nd); r++) {
      const sub = S(r * Nd, Nr - r * Nd);
      const v = sub.cost + Math.sqrt(r);
      if (v < best.cost) best = { cost: v, seq: [r, ...sub.seq] };
    }
    memo.set(key, best);
    return best;
  };
  const { cost, seq } = S(1, X);
  const caps: number[] = [];
  let Nd = 1;
  let Nr = X;
  for (const r of seq) {
    Nd *= r;
    Nr -= Nd;
    caps.push(Nd);
  }
  caps[caps.length - 1] += Nr; // the fold; may be negative when r = ceil(N_r/N_d)
  return { capacities: [...caps, m], reportedCost: cost };
}

// ---------------------------------------------------------------------------------------------
// Moose structures and layouts

export interface MooseStructure {
  bufferEntries: number;
  /** N_1..N_L, entries (Σ = dataset.entries). */
  capacities: number[];
  sizeRatios: number[];
  runs: number[];
  lastLevelEntries: number;
  k: number;
  /** A = Σ √r_i of the structure (the DP objective, Eq.7). */
  sumSqrtRatios: number;
  /** False only if the DP's node budget ran out (see `mooseDp`). */
  exact: boolean;
}

export interface MooseStructureParams {
  /** N_L / N in [0.5, 1]; N_L = F·round(fraction·N/F). Default 0.8. */
  lastLevelFraction?: number;
  /** Run regulator k > 0: n_i = round(k√r_i). Default 1. */
  k?: number;
  /** 'exact' (default) or 'literal' (Eq.12 as printed, for comparison; N/F ≤ 4096). */
  dp?: 'exact' | 'literal';
}

function buffersOf(env: Env, minBuffers: number): number {
  const x = env.entries / env.bufferEntries;
  if (x < minBuffers || x > MAX_BUFFERS) {
    throw new ModelInputError(
      'dataset.entries',
      `must be between ${minBuffers} and ${MAX_BUFFERS} buffers (${minBuffers * env.bufferEntries} to ` +
        `${MAX_BUFFERS * env.bufferEntries} entries with a ${env.bufferEntries}-entry buffer), got ${env.entries}`,
    );
  }
  return x;
}

function structureFromBuffers(env: Env, capsInBuffers: readonly number[], k: number, exact: boolean): MooseStructure {
  const F = env.bufferEntries;
  const capacities = capsInBuffers.map((c) => c * F);
  const sizeRatios = ratiosOf(capsInBuffers, 1);
  return {
    bufferEntries: F,
    capacities,
    sizeRatios,
    runs: sizeRatios.map((r) => runsFor(r, k)),
    lastLevelEntries: capacities[capacities.length - 1],
    k,
    sumSqrtRatios: sizeRatios.reduce((a, r) => a + Math.sqrt(r), 0),
    exact,
  };
}

/**
 * The Moose structure (reference §3.3): fix N_L = F·round(f·N/F), spread N − N_L over the inner
 * levels with the DP minimising Σ√r_i, set n_i = round(k√r_i) in [1, floor r_i].
 * Needs N ≥ 2F.
 */
export function mooseStructure(
  dataset: Dataset,
  params: MooseStructureParams = {},
  options: MooseOptions = {},
): MooseStructure {
  const env = checkEnv(dataset, options);
  const x = buffersOf(env, 2);
  const f = requireNumber('lastLevelFraction', params.lastLevelFraction ?? MOOSE_DEFAULT_LAST_LEVEL_FRACTION, 0.5, 1);
  const k = requireNumber('k', params.k ?? MOOSE_DEFAULT_K, 0, 1e6, { exclusiveMin: true });
  const dp = requireOneOf('dp', params.dp ?? 'exact', ['exact', 'literal'] as const);
  const m = Math.min(x, Math.max(Math.round(f * x), x / 2));
  if (dp === 'literal') {
    const caps = mooseDpLiteral(x, m).capacities;
    if (caps.some((c, i) => c <= (i === 0 ? 1 : caps[i - 1]))) {
      const levels = caps.join(', ');
      throw new ModelInputError(
        'dp',
        `the literal Eq.12 DP folds a negative remainder here (levels ${levels} buffers); use 'exact'`,
      );
    }
    return structureFromBuffers(env, caps, k, true);
  }
  const res = branchAndBound(x, m, mooseSqrtLevelCost(x * 2), 5_000_000);
  return structureFromBuffers(env, res.capacities, k, res.exact);
}

/** A structure's layout with the optimal per-level bits for `filterBitsPerEntry` × N bits. */
function layoutOf(
  env: Env,
  sizeRatios: readonly number[],
  runs: readonly number[],
  filterBitsPerEntry: number,
): MooseLevel[] {
  const shape = sizeRatios.map((r, i) => ({ sizeRatio: r, runs: runs[i] }));
  const g = geometry(env, shape);
  const bits = optimalFprs(g.entries, g.runs, filterBitsPerEntry * env.entries).map(bitsFromFpr);
  return shape.map((s, i) => ({ ...s, bitsPerEntry: bits[i] }));
}

/**
 * The Moose layout `{sizeRatio, runs, bitsPerEntry}[]` for a dataset: `mooseStructure` plus the
 * optimal filter split of `bitsPerEntry` (average bits per entry, ≥ 0) over its levels.
 */
export function mooseLayout(
  dataset: Dataset,
  params: MooseStructureParams & { bitsPerEntry: number },
  options: MooseOptions = {},
): MooseLevel[] {
  const env = checkEnv(dataset, options);
  const b = requireNumber('bitsPerEntry', params.bitsPerEntry, 0, MAX_MEMORY_BITS_PER_ENTRY);
  const s = mooseStructure(dataset, params, options);
  return layoutOf(env, s.sizeRatios, s.runs, b);
}

/**
 * Fixed-ratio capacities in buffers (the reference's full geometric tree, Σ = N/F): L =
 * ceil(log_T((N/F)(T−1)/T)), N_i = N_L/T^{L−i}, N_L = N(1−1/T)/(1−T^{−L}); a first level below two
 * buffers is folded into the next. `totalBuffers` = N/F ≥ 2, 2 ≤ T.
 */
export function mooseFixedRatioCapacities(totalBuffers: number, sizeRatio: number): number[] {
  const x = requireNumber('totalBuffers', totalBuffers, 2, MAX_BUFFERS);
  const T = requireNumber('sizeRatio', sizeRatio, 2, MAX_RATIO);
  let L = Math.max(1, Math.ceil(Math.log((x * (T - 1)) / T) / Math.log(T) - 1e-12));
  const build = (levels: number): number[] => {
    const last = (x * (1 - 1 / T)) / (1 - Math.pow(T, -levels));
    return Array.from({ length: levels }, (_, i) => last / Math.pow(T, levels - 1 - i));
  };
  let caps = build(L);
  while (L > 1 && caps[0] < 2) {
    L -= 1;
    caps = build(L);
  }
  return caps;
}

export interface MoosePresetParams {
  /** T for leveling, tiering and lazy leveling, ≥ 2. */
  sizeRatio: number;
  /** Buffer F in bytes; default 2 MiB. */
  bufferBytes?: number;
  /** Average filter bits per entry, split optimally over each layout's levels. */
  bitsPerEntry: number;
  /** Moose's N_L/N (default 0.8) and k (default 1). */
  lastLevelFraction?: number;
  k?: number;
}

/**
 * Leveling (n_i = 1), tiering (n_i = T, Moose's convention; clamped to floor r_i), lazy leveling
 * (Dostoevsky: n_i = T above the last level, 1 at the last) and default Moose as per-level layouts
 * for a dataset, each with the optimal filter split of `bitsPerEntry`. Needs N ≥ 2F.
 */
export function moosePresetLayouts(
  dataset: Dataset,
  params: MoosePresetParams,
): { leveling: MooseLevel[]; tiering: MooseLevel[]; lazyLeveling: MooseLevel[]; moose: MooseLevel[] } {
  const options: MooseOptions = { bufferBytes: params.bufferBytes };
  const env = checkEnv(dataset, options);
  const T = requireNumber('sizeRatio', params.sizeRatio, 2, MAX_RATIO);
  const b = requireNumber('bitsPerEntry', params.bitsPerEntry, 0, MAX_MEMORY_BITS_PER_ENTRY);
  const x = buffersOf(env, 2);
  const ratios = ratiosOf(mooseFixedRatioCapacities(x, T), 1);
  const L = ratios.length;
  const tier = (r: number): number => Math.min(Math.round(T), floorRatio(r));
  return {
    leveling: layoutOf(env, ratios, ratios.map(() => 1), b),
    tiering: layoutOf(env, ratios, ratios.map(tier), b),
    lazyLeveling: layoutOf(env, ratios, ratios.map((r, i) => (i === L - 1 ? 1 : tier(r))), b),
    moose: mooseLayout(dataset, { lastLevelFraction: params.lastLevelFraction, k: params.k, bitsPerEntry: b }, options),
  };
}

// ---------------------------------------------------------------------------------------------
// Engine export

/** One level of the engine's EngineConfig (snake_case, as the engine reads it). */
export interface MooseEngineLevel {
  size_ratio: number;
  max_runs: number;
  bits_per_key: number;
}

/**
 * A Moose layout as the engine's per-level list. `max_runs` = n_i (the engine's run capacity is
 * capacity/max_runs, as in Moose; tiering n_i = T behaves like Monkey's T−1 because the T-th
 * arrival fills the level). The engine needs size_ratio ≥ 2 and bits_per_key ≤ 64: a last level
 * below 2 is raised to 2 (it only adds headroom: the last level holds what is left), bits above 64
 * (FPR < 1e-13) are capped at 64, values are rounded to 12 significant digits. A non-last level
 * below 2 is an error.
 */
export function mooseToEngineLevels(levels: readonly MooseLevel[]): MooseEngineLevel[] {
  if (!Array.isArray(levels) || levels.length < 1 || levels.length > MAX_LEVELS) {
    throw new ModelInputError('levels', `must list between 1 and ${MAX_LEVELS} levels`);
  }
  const L = levels.length;
  return levels.map((lv, i) => {
    const r = requireNumber(`levels[${i}].sizeRatio`, lv.sizeRatio, i < L - 1 ? 2 : 1, 1000);
    const n = requireNumber(`levels[${i}].runs`, lv.runs, 1, Math.min(1000, floorRatio(r)), { integer: true });
    const b = requireNumber(`levels[${i}].bitsPerEntry`, lv.bitsPerEntry, 0, MAX_BITS_PER_ENTRY);
    // 12 significant digits: drops float noise such as 2.9999999999999996 from the JSON
    return { size_ratio: clean(Math.max(2, r)), max_runs: n, bits_per_key: clean(Math.min(64, b)) };
  });
}

function clean(v: number): number {
  return Number(v.toPrecision(12));
}

// ---------------------------------------------------------------------------------------------
// Smoose (reference §4)

export type SmooseVariant = 'sum-sqrt' | 'workload-aware' | 'fixed-ratio';

/** A fixed-ratio design Smoose compares itself with (see `SmooseOptions.baselines`). */
export interface SmooseBaseline {
  design: 'leveling' | 'tiering' | 'lazyLeveling';
  sizeRatio: number;
}

export interface SmooseOptions extends MooseOptions {
  /**
   * 'sum-sqrt': DP minimising Σ√r (§4.3), every k breakpoint; 'workload-aware': DP with the
   * per-level cost s·n + u·U_1 for each k of `kGrid` (§4.6); 'best' (default): both, the lower
   * weighted cost wins.
   */
  variant?: 'sum-sqrt' | 'workload-aware' | 'best';
  /**
   * Also score default Moose and the fixed-ratio presets (leveling, tiering, lazy leveling for
   * T = 2..64 and larger powers up to N/F) and return one of them if it is cheaper: n_i = round(k√r_i)
   * cannot express e.g. lazy leveling, nor the geometric trees' fractional ratios. Default true;
   * false gives the paper's search alone.
   */
  baselines?: boolean;
  /**
   * 'exhaustive': every N_L = F·m, m from ceil(N/2F) to floor(N/F − 2) (the paper's scan);
   * 'coarse-to-fine': log-spaced in N − N_L, then refined around the best few; 'auto' (default):
   * exhaustive when that is at most 200 values.
   */
  search?: 'auto' | 'exhaustive' | 'coarse-to-fine';
  /**
   * k values of the workload-aware variant. Default: 41 log-spaced in [0.1, 10] for the exhaustive
   * scan (the reference's grid); 7 log-spaced in [0.1, 10], refined around the best, otherwise.
   */
  kGrid?: number[];
}

export interface SmooseResult {
  /** The chosen layout with its optimal filter split. */
  levels: MooseLevel[];
  costs: MooseCosts;
  /** Σ√r DP, workload-aware DP, or a fixed-ratio baseline that beat both. */
  variant: SmooseVariant;
  /** Set when `variant` is 'fixed-ratio'. */
  baseline?: SmooseBaseline;
  /** N_L (entries) and N_L/N. */
  lastLevelEntries: number;
  lastLevelFraction: number;
  /** The run regulator k that produced the runs (null for a fixed-ratio baseline). */
  k: number | null;
  capacities: number[];
  /** Workload-weighted cost of the choice (= costs.weighted). */
  objective: number;
  /** (N_L, k) structures scored. */
  evaluated: number;
  /** True if every DP behind the chosen structure finished within its node budget. */
  exact: boolean;
}

interface Candidate {
  J: number;
  m: number;
  k: number;
  caps: number[];
  runs: number[];
  exact: boolean;
  baseline?: SmooseBaseline;
}

interface Scorer {
  env: Env;
  w: CheckedWorkload;
  memoryBits: number;
  count: number;
}

/** The weighted cost of a structure (buffer units; the filter split is scale-free), as `breakdown` computes it. */
function score(sc: Scorer, capsInBuffers: readonly number[], ratios: readonly number[], runs: readonly number[]): number {
  const { w, env } = sc;
  const B = env.entriesPerPage;
  const L = runs.length;
  const p = optimalFprs(capsInBuffers, runs, sc.memoryBits / env.bufferEntries);
  let R = 0;
  let Z = 0;
  let U = 0;
  for (let i = 0; i < L; i++) {
    R += runs[i];
    Z += runs[i] * p[i];
    U += env.updateModel === 'paper' ? ratios[i] / runs[i] : (ratios[i] / runs[i] + 1) / 2;
  }
  const hit = 1 + Z - p[L - 1] * (runs[L - 1] + 1) / 2;
  sc.count++;
  return w.z * ((1 - w.v) * Z + w.v * hit) + w.q * (R + (w.sigma * env.entries) / B) + (w.w * U) / B;
}

type DpAt = (m: number) => MooseDpResult;

/**
 * Best run vector n(k) = round(k√r) of a structure over all k. Walks the k breakpoints outward
 * from a good start; upward it stops once q·Σn + z(1−v)·Z_lb(n) (non-decreasing in k, Z_lb the
 * Eq.9 bound) exceeds the best cost, downward once w·U(n) (non-increasing in k) does — so huge
 * last-level ratios do not mean enumerating every one of their breakpoints. Ties: smaller k.
 */
function evalSumSqrt(sc: Scorer, m: number, dp: DpAt): Candidate {
  const res = dp(m);
  const caps = res.capacities;
  const ratios = ratiosOf(caps, 1);
  const L = ratios.length;
  const { w, env } = sc;
  const B = env.entriesPerPage;
  const x = caps.reduce((a, c) => a + c, 0);
  const sqrtR = ratios.map(Math.sqrt);
  const top = ratios.map(floorRatio);
  const fixed = w.q * ((w.sigma * env.entries) / B) + w.z * w.v;
  // ln of N·e^{−(M/N) ln²2}·Π N_i^{−N_i/N}, in buffer units (the bound is scale-free)
  let lnZ0 = Math.log(x) - (sc.memoryBits / env.entries) * LN2_SQ;
  for (let i = 0; i < L; i++) lnZ0 -= (caps[i] / x) * Math.log(caps[i]);
  const rising = (n: number[]): number => {
    let R = 0;
    let lnZ = lnZ0;
    for (let i = 0; i < L; i++) {
      R += n[i];
      lnZ += (caps[i] / x) * Math.log(n[i]);
    }
    return w.q * R + w.z * (1 - w.v) * Math.exp(lnZ);
  };
  const falling = (n: number[]): number =>
    w.w * (env.updateModel === 'paper' ? updatePaper(ratios, n, B) : updateRefined(ratios, n, B));
  // smallest k giving the same vector as k (just above the largest breakpoint below k)
  const floorK = (k: number): number => {
    let b = 0;
    for (let i = 0; i < L; i++) {
      const j = Math.min(Math.ceil(k * sqrtR[i] - 0.5) - 1, top[i] - 1);
      if (j >= 0) b = Math.max(b, (j + 0.5) / sqrtR[i]);
    }
    return b === 0 ? 1e-9 : b * (1 + 1e-9);
  };
  let best: Candidate | null = null;
  const seen = new Set<string>();
  const visit = (k: number): number[] => {
    const runs = ratios.map((r) => runsFor(r, k));
    const key = runs.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      const J = score(sc, caps, ratios, runs);
      const kk = floorK(k);
      if (best === null || J < best.J || (J === best.J && kk < best.k)) best = { J, m, k: kk, caps, runs, exact: res.exact };
    }
    return runs;
  };
  // each part is bounded by its own extreme: rising ≥ rising(all ones), falling ≥ falling(n = floor r)
  const risingMin = rising(ratios.map(() => 1));
  const fallingMin = falling(top);
  // start at the minimiser of the range+update part, k = √(w/(qB)), and at all-ones
  visit(1e-9);
  const k0 = w.q > 0 && w.w > 0 ? Math.sqrt(w.w / (w.q * B)) : w.w > 0 ? Math.sqrt(Math.max(...ratios)) : 1e-9;
  visit(k0);
  for (let k = k0; ; ) {
    let next = Infinity;
    for (let i = 0; i < L; i++) {
      const j = Math.floor(k * sqrtR[i] - 0.5) + 1;
      if (j < top[i]) next = Math.min(next, (j + 0.5) / sqrtR[i]);
    }
    if (next === Infinity) break;
    k = next * (1 + 1e-9);
    const runs = visit(k);
    if (fixed + rising(runs) + fallingMin > (best as unknown as Candidate).J) break;
  }
  for (let k = k0; ; ) {
    const runs = ratios.map((r) => runsFor(r, k));
    if (fixed + falling(runs) + risingMin > (best as unknown as Candidate).J) break;
    const lower = floorK(k);
    if (lower <= 1e-9) break;
    k = (lower / (1 + 1e-9)) * (1 - 1e-9);
    visit(k);
  }
  return best as unknown as Candidate;
}

function evalWorkloadAware(sc: Scorer, m: number, k: number, dp: DpAt): Candidate {
  const res = dp(m);
  const ratios = ratiosOf(res.capacities, 1);
  const runs = ratios.map((r) => runsFor(r, k));
  return { J: score(sc, res.capacities, ratios, runs), m, k, caps: res.capacities, runs, exact: res.exact };
}

function logGrid(lo: number, hi: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => lo * Math.pow(hi / lo, i / (n - 1)));
}

function better(a: Candidate | null, b: Candidate): Candidate {
  if (a === null || b.J < a.J || (b.J === a.J && (b.m < a.m || (b.m === a.m && b.k < a.k)))) return b;
  return a;
}

/** m values log-spaced in x − m between x − hi and x − lo (dense near N_L = N, where range-heavy optima sit). */
function coarseLastGrid(x: number, lo: number, hi: number, points: number): number[] {
  const ms = logGrid(x - hi, x - lo, points).map((X) => Math.min(hi, Math.max(lo, Math.round(x - X))));
  return [...new Set(ms)].sort((a, b) => a - b);
}

/** Pattern search on m from `start`, halving the step from `step` to 1; returns the best seen. */
function refineLast(lo: number, hi: number, start: number, step: number, at: (m: number) => Candidate): Candidate {
  let cur = at(start);
  for (let s = Math.max(1, step); s >= 1; ) {
    let moved = false;
    for (const m of [cur.m - s, cur.m + s]) {
      if (m < lo || m > hi) continue;
      const c = at(m);
      if (c.J < cur.J) {
        cur = c;
        moved = true;
      }
    }
    if (!moved) s = Math.floor(s / 2);
  }
  return cur;
}

function memo<T>(f: (m: number) => T): (m: number) => T {
  const cache = new Map<number, T>();
  return (m) => {
    let v = cache.get(m);
    if (v === undefined) {
      v = f(m);
      cache.set(m, v);
    }
    return v;
  };
}

/**
 * Minimise over m ∈ [lo, hi]: every m, or a coarse grid refined around the best `top` points
 * (the cost is not unimodal in N_L because the run counts are rounded).
 */
function scanLast(
  x: number,
  lo: number,
  hi: number,
  exhaustive: boolean,
  f: (m: number) => Candidate,
  coarse = 16,
  top = 2,
): Candidate {
  const at = memo(f);
  let best: Candidate | null = null;
  if (exhaustive) {
    for (let m = lo; m <= hi; m++) best = better(best, at(m));
    return best as unknown as Candidate;
  }
  const grid = coarseLastGrid(x, lo, hi, coarse);
  for (const m of grid) best = better(best, at(m));
  const ranked = grid.map((m, i) => ({ i, J: at(m).J })).sort((a, b) => a.J - b.J).slice(0, top);
  for (const { i } of ranked) {
    const step = Math.floor(Math.max(grid[i] - (grid[i - 1] ?? lo), (grid[i + 1] ?? hi) - grid[i]) / 2);
    best = better(best, refineLast(lo, hi, grid[i], step, at));
  }
  return best as unknown as Candidate;
}

const SCAN_NODES = 120;
const FINAL_NODES = 20_000;
const EXHAUSTIVE_NODES = 2_000_000;

/** Σ√r DP results depend only on (N/F, N_L/F): shared by every Smoose call (bounded). */
const sqrtDpCache = new Map<string, MooseDpResult>();
const sqrtCostCache = new Map<number, MooseDpLevelCost>();

function sqrtCostFor(x: number): MooseDpLevelCost {
  const R = Math.max(4, 2 ** Math.ceil(Math.log2(2 * x)));
  let c = sqrtCostCache.get(R);
  if (!c) {
    c = mooseSqrtLevelCost(R);
    sqrtCostCache.set(R, c);
  }
  return c;
}

function cachedSqrtDp(x: number, m: number, maxNodes: number): MooseDpResult {
  const key = `${x}|${m}|${maxNodes}`;
  let r = sqrtDpCache.get(key);
  if (!r) {
    if (sqrtDpCache.size > 20000) sqrtDpCache.clear();
    r = branchAndBound(x, m, sqrtCostFor(x), maxNodes);
    sqrtDpCache.set(key, r);
  }
  return r;
}

function smooseSumSqrt(sc: Scorer, x: number, lo: number, hi: number, exhaustive: boolean): Candidate {
  if (exhaustive && x <= 4096) {
    const all = new AllLastLevelsDp(x, x - lo, sqrtCostFor(x));
    return scanLast(x, lo, hi, true, (m) => evalSumSqrt(sc, m, (mm) => all.solve(mm)));
  }
  const budget = exhaustive ? EXHAUSTIVE_NODES : SCAN_NODES;
  const c = scanLast(x, lo, hi, exhaustive, (m) => evalSumSqrt(sc, m, (mm) => cachedSqrtDp(x, mm, budget)));
  if (c.exact) return c;
  return pickBetter(c, evalSumSqrt(sc, c.m, (mm) => cachedSqrtDp(x, mm, FINAL_NODES)));
}

function smooseWorkloadAware(
  sc: Scorer,
  x: number,
  lo: number,
  hi: number,
  exhaustive: boolean,
  kGrid: number[] | undefined,
): Candidate {
  const { env, w } = sc;
  const costs = new Map<number, MooseDpLevelCost>();
  const costFor = (k: number): MooseDpLevelCost => {
    let c = costs.get(k);
    if (!c) {
      c = smooseWorkloadLevelCost(w.q, w.w, env.entriesPerPage, k, 2 * x, env.updateModel);
      costs.set(k, c);
    }
    return c;
  };
  if (exhaustive) {
    const ks = kGrid ?? logGrid(0.1, 10, 41);
    const forward = x <= 4096;
    const dps: DpAt[] = ks.map((k) => {
      if (!forward) return (m) => branchAndBound(x, m, costFor(k), EXHAUSTIVE_NODES);
      const all = new AllLastLevelsDp(x, x - lo, costFor(k));
      return (m) => all.solve(m);
    });
    return scanLast(x, lo, hi, true, (m) => {
      let b: Candidate | null = null;
      ks.forEach((k, i) => (b = better(b, evalWorkloadAware(sc, m, k, dps[i]))));
      return b as unknown as Candidate;
    });
  }
  // Coarse (N_L, k) grid, then for the best few: k refined between grid neighbours, N_L by pattern search.
  const ks = kGrid ?? logGrid(0.1, 10, 7);
  const seen = new Map<string, Candidate>();
  const at = (m: number, k: number): Candidate => {
    const key = `${m}|${k}`;
    let c = seen.get(key);
    if (!c) {
      c = evalWorkloadAware(sc, m, k, (mm) => branchAndBound(x, mm, costFor(k), SCAN_NODES));
      seen.set(key, c);
    }
    return c;
  };
  let best: Candidate | null = null;
  const coarse: Candidate[] = [];
  for (const m of coarseLastGrid(x, lo, hi, 10)) for (const k of ks) coarse.push(at(m, k));
  coarse.sort((a, b) => a.J - b.J);
  for (const c0 of coarse.slice(0, 2)) {
    let c = c0;
    if (!kGrid && ks.length > 1) {
      const step = Math.pow(ks[ks.length - 1] / ks[0], 1 / (ks.length - 1));
      for (const f of [Math.pow(step, -0.5), Math.pow(step, -0.25), Math.pow(step, 0.25), Math.pow(step, 0.5)]) {
        const t = at(c0.m, c0.k * f);
        if (t.J < c.J) c = t;
      }
    }
    const k = c.k;
    c = refineLast(lo, hi, c.m, Math.max(1, Math.floor((x - c.m) / 4)), (m) => at(m, k));
    best = better(best, c);
  }
  const b = best as unknown as Candidate;
  if (b.exact) return b;
  return pickBetter(b, evalWorkloadAware(sc, b.m, b.k, (mm) => branchAndBound(x, mm, costFor(b.k), FINAL_NODES)));
}

/**
 * Smoose: the Moose structure (N_L ∈ [N/2, N − 2F] in steps of F, k) with the least
 * workload-weighted cost (Eq.17 extended by the workload's non-zero-result share and long-range
 * scan; with updateModel 'paper' and nonZeroFraction 0 it is exactly Eq.17). `memoryBytes` is the
 * filter budget (bytes, ≥ 0), split optimally over the levels of every candidate. Needs N ≥ 2F.
 *
 * Search: for N/F up to ~400 every N_L (with a DP shared by all N_L, exact); above, a coarse grid
 * log-spaced in N − N_L refined around the best points, with the per-N_L DP capped at a node
 * budget (`exact` reports whether the final structure's DP finished). Tens of milliseconds at
 * N/F = 1e5.
 */
export function smoose(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  options: SmooseOptions = {},
): SmooseResult {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const memoryBits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const variants = ['best', 'sum-sqrt', 'workload-aware'] as const;
  const variant = requireOneOf('options.variant', options.variant ?? 'best', variants);
  const search = requireOneOf('options.search', options.search ?? 'auto', ['auto', 'exhaustive', 'coarse-to-fine'] as const);
  const kGrid = options.kGrid?.map((k, i) => requireNumber(`options.kGrid[${i}]`, k, 0, 1e6, { exclusiveMin: true }));
  if (kGrid !== undefined && kGrid.length === 0) throw new ModelInputError('options.kGrid', 'must list at least one k');
  const x = buffersOf(env, 2);
  let lo = Math.ceil(x / 2 - EPS);
  let hi = Math.floor(x - 2 + EPS);
  if (lo > hi) lo = hi = x; // too small for two levels: one level holding everything
  const exhaustive = search === 'exhaustive' || hi - lo < 2 || (search === 'auto' && hi - lo + 1 <= 200);
  const sc: Scorer = { env, w, memoryBits, count: 0 };
  const found: { c: Candidate; v: SmooseVariant }[] = [];
  if (variant === 'best' && (options.baselines ?? true)) {
    for (const c of smooseBaselines(sc, x, lo, hi)) found.push({ c, v: c.baseline ? 'fixed-ratio' : 'sum-sqrt' });
  }
  if (variant !== 'workload-aware') found.push({ c: smooseSumSqrt(sc, x, lo, hi, exhaustive), v: 'sum-sqrt' });
  // The workload-aware DP is degenerate without ranges and updates (every structure costs 0).
  if (variant === 'workload-aware' || (variant === 'best' && w.q + w.w > 0)) {
    found.push({ c: smooseWorkloadAware(sc, x, lo, hi, exhaustive, kGrid), v: 'workload-aware' });
  }
  // the paper's variants first, so that they win ties against the baselines
  found.sort((a, b) => a.c.J - b.c.J || Number(a.v === 'fixed-ratio') - Number(b.v === 'fixed-ratio'));
  const { c, v } = found[0];
  const s = structureFromBuffers(env, c.caps, c.k, c.exact);
  const levels = layoutOf(env, s.sizeRatios, c.runs, memoryBits / env.entries);
  const costs = mooseCosts(dataset, levels, workload, options);
  return {
    levels,
    costs,
    variant: v,
    lastLevelEntries: s.lastLevelEntries,
    lastLevelFraction: s.lastLevelEntries / env.entries,
    k: c.baseline ? null : c.k,
    ...(c.baseline ? { baseline: c.baseline } : {}),
    capacities: s.capacities,
    objective: costs.weighted,
    evaluated: sc.count,
    exact: c.exact,
  };
}

/** Default Moose (N_L = 0.8N, k = 1) and the fixed-ratio presets over a sweep of T, scored like Smoose's candidates. */
function smooseBaselines(sc: Scorer, x: number, lo: number, hi: number): Candidate[] {
  const out: Candidate[] = [];
  const m = Math.min(hi, Math.max(lo, Math.round(MOOSE_DEFAULT_LAST_LEVEL_FRACTION * x)));
  const dp = cachedSqrtDp(x, m, FINAL_NODES);
  const mr = ratiosOf(dp.capacities, 1);
  const mRuns = mr.map((r) => runsFor(r, MOOSE_DEFAULT_K));
  const J = score(sc, dp.capacities, mr, mRuns);
  out.push({ J, m, k: MOOSE_DEFAULT_K, caps: dp.capacities, runs: mRuns, exact: dp.exact });
  const Ts: number[] = [];
  for (let T = 2; T <= Math.min(64, x); T++) Ts.push(T);
  for (let T = 128; T <= x; T *= 2) Ts.push(T);
  for (const T of Ts) {
    const caps = mooseFixedRatioCapacities(x, T);
    const ratios = ratiosOf(caps, 1);
    const L = ratios.length;
    const tier = ratios.map((r) => Math.min(T, floorRatio(r)));
    const designs: [SmooseBaseline['design'], number[]][] = [
      ['leveling', ratios.map(() => 1)],
      ['tiering', tier],
      ['lazyLeveling', tier.map((n, i) => (i === L - 1 ? 1 : n))],
    ];
    for (const [design, runs] of designs) {
      const J = score(sc, caps, ratios, runs);
      out.push({ J, m: caps[L - 1], k: -1, caps, runs, exact: true, baseline: { design, sizeRatio: T } });
    }
  }
  return out;
}

function pickBetter(a: Candidate, b: Candidate): Candidate {
  return b.J <= a.J ? b : { ...a, exact: false };
}

/**
 * [reference §4.5] Continuous Smoose: ignore integrality and filter clamping, so R = kA,
 * U = A/(kB), Z = k·Z1 (Z1 = optimal Σ n_i p_i with n_i = √r_i); then k* = √(uA/(B(sA + zZ1)))
 * clamped to [1/√r_min, √r_min], 𝓛* = k*(sA + zZ1) + uA/(k*B). Uses zero-result points and short
 * ranges (the paper's Eq.17). Scans N_L like `smoose`.
 */
export function smooseContinuous(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  options: SmooseOptions = {},
): { lastLevelEntries: number; k: number; objective: number; sizeRatios: number[]; sumSqrtRatios: number; z1: number } {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const memoryBits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const x = buffersOf(env, 2);
  let lo = Math.ceil(x / 2 - EPS);
  let hi = Math.floor(x - 2 + EPS);
  if (lo > hi) lo = hi = x;
  const search = requireOneOf('options.search', options.search ?? 'auto', ['auto', 'exhaustive', 'coarse-to-fine'] as const);
  const exhaustive = search === 'exhaustive' || hi - lo < 2 || (search === 'auto' && hi - lo + 1 <= 200);
  const B = env.entriesPerPage;
  const all = exhaustive && x <= 4096 ? new AllLastLevelsDp(x, x - lo, sqrtCostFor(x)) : null;
  const extra = new Map<number, { A: number; z1: number; ratios: number[] }>();
  const best = scanLast(x, lo, hi, exhaustive, (m) => {
    const dp = all ? all.solve(m) : cachedSqrtDp(x, m, exhaustive ? EXHAUSTIVE_NODES : SCAN_NODES);
    const ratios = ratiosOf(dp.capacities, 1);
    const A = ratios.reduce((a, r) => a + Math.sqrt(r), 0);
    const n1 = ratios.map(Math.sqrt);
    const z1 = zeroResult(n1, optimalFprs(dp.capacities, n1, memoryBits / env.bufferEntries));
    const rmin = Math.min(...ratios);
    let k = w.w > 0 ? Math.sqrt((w.w * A) / (B * (w.q * A + w.z * z1))) : 0;
    k = Math.min(Math.max(k, 1 / Math.sqrt(rmin)), Math.sqrt(rmin));
    const J = k * (w.q * A + w.z * z1) + (w.w * A) / (k * B);
    extra.set(m, { A, z1, ratios });
    return { J, m, k, caps: dp.capacities, runs: [], exact: dp.exact };
  });
  const e = extra.get(best.m) as { A: number; z1: number; ratios: number[] };
  return {
    lastLevelEntries: best.m * env.bufferEntries,
    k: best.k,
    objective: best.J,
    sizeRatios: e.ratios,
    sumSqrtRatios: e.A,
    z1: e.z1,
  };
}

// ---------------------------------------------------------------------------------------------
// Trade-off curves (reference §5.1)

/** One point of a trade-off curve: a layout and its per-operation costs (page I/Os). */
export interface MooseCurvePoint {
  /** T for fixed-ratio designs, k for Moose. */
  parameter: number;
  sizeRatios: number[];
  runs: number[];
  zeroResultPoint: number;
  nonZeroResultPoint: number;
  shortRange: number;
  updatePaper: number;
  updateRefined: number;
  spaceAmplification: number;
}

/** Curves per design (see `mooseTradeoffCurves`). */
export interface MooseTradeoffCurves {
  leveling: MooseCurvePoint[];
  tiering: MooseCurvePoint[];
  lazyLeveling: MooseCurvePoint[];
  moose: MooseCurvePoint[];
}

/** One N_L of `mooseLastLevelSweep`: the structure and its costs. */
export interface MooseLastLevelPoint extends MooseCostBreakdown {
  lastLevelFraction: number;
  lastLevelEntries: number;
  sizeRatios: number[];
  runs: number[];
  sumSqrtRatios: number;
}

const NEUTRAL: CheckedWorkload = { z: 1, v: 0, q: 0, w: 0, sigma: 0 };

function curvePoint(
  env: Env,
  parameter: number,
  sizeRatios: readonly number[],
  runs: readonly number[],
  memoryBits: number,
): MooseCurvePoint {
  const g = geometry(env, sizeRatios.map((r, i) => ({ sizeRatio: r, runs: runs[i] })));
  const c = breakdown(env, g, optimalFprs(g.entries, g.runs, memoryBits), NEUTRAL);
  return {
    parameter,
    sizeRatios: g.ratio,
    runs: g.runs,
    zeroResultPoint: c.zeroResultPoint,
    nonZeroResultPoint: c.nonZeroResultPoint,
    shortRange: c.shortRange,
    updatePaper: c.updatePaper,
    updateRefined: c.updateRefined,
    spaceAmplification: c.spaceAmplification,
  };
}

/**
 * The RU-curve of fixed ratios (reference §5.1.1, Fig.10A): every distinct integer run vector
 * n_i = round(k√r_i) in increasing k, with range, update, R·U and (given `memoryBytes`) the
 * zero-result point cost; plus A = Σ√r_i, so the continuous curve is R = kA, U = A/(kB) and
 * R·U ≥ A²/B (Eq.7). `levels` are sizes only (runs are ignored); the last holds the remainder.
 */
export function mooseRuCurve(
  dataset: Dataset,
  sizeRatios: readonly number[],
  memoryBytes = 0,
  options: MooseOptions = {},
): {
  sumSqrtRatios: number;
  entriesPerPage: number;
  productBound: number;
  points: (MooseCurvePoint & { k: number; product: number })[];
} {
  const env = checkEnv(dataset, options);
  const g = geometry(env, sizeRatios.map((r) => ({ sizeRatio: r, runs: 1 })));
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  const A = g.ratio.reduce((a, r) => a + Math.sqrt(r), 0);
  const points = mooseRunVectors(g.ratio).map(({ k, runs }) => {
    const p = curvePoint(env, k, sizeRatios, runs, bits);
    return { ...p, k, product: p.shortRange * p.updatePaper };
  });
  return { sumSqrtRatios: A, entriesPerPage: env.entriesPerPage, productBound: (A * A) / env.entriesPerPage, points };
}

/**
 * Eq.8: the least R·U with L equal ratios spanning X = N_L/F, L²·X^{1/L}/B, and its minimum over
 * real L (L* = ln X / 2, ratio e²): e²·ln²X/(4B).
 */
export function mooseEqualRatioRuBound(
  lastOverBuffer: number,
  levels: number,
  entriesPerPage: number,
): { product: number; bestLevels: number; bestProduct: number } {
  const X = requireNumber('lastOverBuffer', lastOverBuffer, 1, Infinity, { exclusiveMin: true });
  const L = requireNumber('levels', levels, 1, MAX_LEVELS, { integer: true });
  const B = requireNumber('entriesPerPage', entriesPerPage, 1, Infinity);
  const lnX = Math.log(X);
  return {
    product: (L * L * Math.pow(X, 1 / L)) / B,
    bestLevels: lnX / 2,
    bestProduct: (Math.E * Math.E * lnX * lnX) / (4 * B),
  };
}

/**
 * Trade-off curves for the explorer (reference §5.1): leveling, tiering and lazy leveling over a
 * sweep of T, and Moose over every k breakpoint of its default structure, each point with its
 * point/range/update/space costs under `memoryBytes` of optimally split filter memory. Plot
 * (updatePaper, zeroResultPoint) for the point–update curve, (updatePaper, shortRange) for
 * range–update. Needs N ≥ 2F.
 */
export function mooseTradeoffCurves(
  dataset: Dataset,
  params: { memoryBytes: number; sizeRatios?: number[]; lastLevelFraction?: number },
  options: MooseOptions = {},
): MooseTradeoffCurves {
  const env = checkEnv(dataset, options);
  const x = buffersOf(env, 2);
  const bits = checkMemoryBits('params.memoryBytes', params.memoryBytes, env.entries);
  const defaults = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 32, 64].filter((T) => T <= Math.max(2, x));
  const Ts = (params.sizeRatios ?? defaults).map((T, i) => requireNumber(`params.sizeRatios[${i}]`, T, 2, MAX_RATIO));
  const out: MooseTradeoffCurves = { leveling: [], tiering: [], lazyLeveling: [], moose: [] };
  for (const T of Ts) {
    const r = ratiosOf(mooseFixedRatioCapacities(x, T), 1);
    const tier = r.map((ri) => Math.min(Math.round(T), floorRatio(ri)));
    out.leveling.push(curvePoint(env, T, r, r.map(() => 1), bits));
    out.tiering.push(curvePoint(env, T, r, tier, bits));
    out.lazyLeveling.push(curvePoint(env, T, r, tier.map((n, i) => (i === r.length - 1 ? 1 : n)), bits));
  }
  const s = mooseStructure(dataset, { lastLevelFraction: params.lastLevelFraction }, options);
  for (const { k, runs } of mooseRunVectors(s.sizeRatios)) out.moose.push(curvePoint(env, k, s.sizeRatios, runs, bits));
  return out;
}

/**
 * Moose's cost as N_L varies at fixed k (reference §5.1.3, Fig.10B, vectors E6): for each
 * fraction f in [0.5, 1], the DP structure for N_L = F·round(f·N/F), its runs, Σ√r, the
 * per-operation costs and the workload-weighted cost.
 */
export function mooseLastLevelSweep(
  dataset: Dataset,
  workload: Workload,
  memoryBytes: number,
  params: { fractions: number[]; k?: number },
  options: MooseOptions = {},
): MooseLastLevelPoint[] {
  const env = checkEnv(dataset, options);
  const w = checkWorkload(workload);
  const bits = checkMemoryBits('memoryBytes', memoryBytes, env.entries);
  return params.fractions.map((f) => {
    const s = mooseStructure(dataset, { lastLevelFraction: f, k: params.k }, options);
    const g = geometry(env, s.sizeRatios.map((r, i) => ({ sizeRatio: r, runs: s.runs[i] })));
    return {
      ...breakdown(env, g, optimalFprs(g.entries, g.runs, bits), w),
      lastLevelFraction: f,
      lastLevelEntries: s.lastLevelEntries,
      sizeRatios: s.sizeRatios,
      runs: g.runs,
      sumSqrtRatios: s.sumSqrtRatios,
    };
  });
}
