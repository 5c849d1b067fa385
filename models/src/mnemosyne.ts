/**
 * Mnemosyne (workload-aware per-file Bloom-filter sizing) and its statistics estimator Merlin.
 * Reference: mnemosyne-shamba.md Part A. Every formula uses the ideal-k FPR ε(b) = exp(−b·ln²2).
 *
 * Units: entries and probe counts are counts (real-valued estimates allowed); filter memory is in
 * BITS (`filterBits` = the total budget M = avg bpk · Σ entries); per-file results are bits per key.
 * "logC" is the log-space Lagrange constant C of Eq 7 (ε_i = (n_i/z_i)·e^C); the paper's Eq 12 also
 * calls K = e^C "C" — we never do (pitfall P-A2).
 */
import { fprFromBitsPerKey, LN2_SQ } from './bloom';
import { ModelInputError, finite, requireFraction, requireNumber, requireOneOf } from './validate';

// ───────────────────────────────────────────────────────────────── inputs and validation

/** What the allocator needs to know about one file (SST): its size and its empty probes. */
export interface MnemosyneFile {
  /** n_i: entries in the file, tombstones included; ≥ 0. */
  entries: number;
  /** z_i: probes of this file that did not find their key in it (over the observation window); ≥ 0. */
  emptyProbes: number;
}

/** Result of a per-file solver. */
export interface MnemosyneSolution {
  /** Bits per key per file, input order; 0 means "no filter". */
  bitsPerKey: number[];
  /** Log-space Lagrange constant C; null when undefined (no file with probes, zero budget, or all dropped). */
  logC: number | null;
  /** How many files received bits from the solver. */
  activeFiles: number;
}

export interface MnemosyneSolveOptions {
  /**
   * Smallest non-zero bits per key a filter may have: 0 solves the exact convex problem (Eq 6);
   * 1 is the RocksDB variant (§A.3.4), where a file whose bpk would fall below 1 gets no filter.
   */
  minBitsPerKey?: number;
}

function validateFiles(files: readonly MnemosyneFile[], field = 'files'): void {
  if (!Array.isArray(files)) throw new ModelInputError(field, 'must be an array of { entries, emptyProbes }');
  files.forEach((f, i) => {
    if (typeof f !== 'object' || f === null) throw new ModelInputError(`${field}[${i}]`, 'must be { entries, emptyProbes }');
    requireNumber(`${field}[${i}].entries`, f.entries, 0, Infinity, { exclusiveMax: true });
    requireNumber(`${field}[${i}].emptyProbes`, f.emptyProbes, 0, Infinity, { exclusiveMax: true });
  });
}

function validateBudget(filterBits: number): number {
  return requireNumber('filterBits', filterBits, 0, Infinity, { exclusiveMax: true });
}

function minBpkOf(options: MnemosyneSolveOptions): number {
  return requireNumber('minBitsPerKey', options.minBitsPerKey ?? 0, 0, 64);
}

/** Files that can take part (z > 0 and n > 0), sorted by z/n descending (the paper's V), with a = ln(n/z). */
interface ActiveFile {
  index: number;
  entries: number;
  logWeight: number;
}

function sortedActiveFiles(files: readonly MnemosyneFile[]): ActiveFile[] {
  const active = files
    .map((f, index) => ({ f, index }))
    .filter(({ f }) => f.entries > 0 && f.emptyProbes > 0)
    .map(({ f, index }) => ({ index, entries: f.entries, ratio: f.emptyProbes / f.entries, logWeight: Math.log(f.entries / f.emptyProbes) }));
  // Array.prototype.sort is stable, so ties keep input order (the ordered theorem allows either).
  active.sort((p, q) => q.ratio - p.ratio);
  return active.map(({ index, entries, logWeight }) => ({ index, entries, logWeight }));
}

function assign(fileCount: number, active: readonly ActiveFile[], k: number, logC: number | null): MnemosyneSolution {
  const bitsPerKey = new Array<number>(fileCount).fill(0);
  if (logC === null) return { bitsPerKey, logC, activeFiles: 0 };
  for (let t = 0; t < k; t++) bitsPerKey[active[t].index] = finite('mnemosyne bits per key', -(active[t].logWeight + logC) / LN2_SQ);
  return { bitsPerKey, logC, activeFiles: k };
}

// ───────────────────────────────────────────────────────────────── solvers

/**
 * Algorithm 1, corrected (§A.4.1): sort by z/n, then drop files from the cold end while their
 * would-be FPR exceeds the bound, updating C from running sums. O(F log F), exact.
 * `filterBits` is the total budget M in bits (≥ 0); files with z = 0 get 0 bits but their entries
 * still count in whatever M the caller chose.
 */
export function mnemosyneSortAndSearch(
  files: readonly MnemosyneFile[],
  filterBits: number,
  options: MnemosyneSolveOptions = {},
): MnemosyneSolution {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const thr = -minBpkOf(options) * LN2_SQ;
  const active = sortedActiveFiles(files);
  if (active.length === 0 || M <= 0) return assign(files.length, active, 0, null);
  let s1 = 0;
  let s2 = 0;
  for (const f of active) {
    s1 += f.entries;
    s2 += f.entries * f.logWeight;
  }
  let logC = (-M * LN2_SQ - s2) / s1;
  let k = active.length;
  while (k > 0) {
    const f = active[k - 1];
    // The printed line 8 uses ln(z/n); Eq 7 and the authors' code need ln(n/z) (pitfall P-A1).
    if (f.logWeight + logC <= thr) break;
    s1 -= f.entries;
    s2 -= f.entries * f.logWeight;
    k -= 1;
    // Only reachable with minBitsPerKey > 0: even the hottest file would get less than the minimum.
    if (k === 0 || s1 <= 0) return assign(files.length, active, 0, null);
    logC = (-M * LN2_SQ - s2) / s1;
  }
  return assign(files.length, active, k, logC);
}

/**
 * The binary-search variant (§A.4.2): the prefix test ln(n_k/z_k) + C(k) ≤ threshold is monotone
 * in k (§A.3.6-5), so the active prefix is found with O(log F) tests after the O(F log F) sort.
 */
export function mnemosyneBinarySearch(
  files: readonly MnemosyneFile[],
  filterBits: number,
  options: MnemosyneSolveOptions = {},
): MnemosyneSolution {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const thr = -minBpkOf(options) * LN2_SQ;
  const active = sortedActiveFiles(files);
  if (active.length === 0 || M <= 0) return assign(files.length, active, 0, null);
  const p1 = [0];
  const p2 = [0];
  for (const f of active) {
    p1.push(p1[p1.length - 1] + f.entries);
    p2.push(p2[p2.length - 1] + f.entries * f.logWeight);
  }
  const cOf = (k: number): number => (-M * LN2_SQ - p2[k]) / p1[k];
  const passes = (k: number): boolean => active[k - 1].logWeight + cOf(k) <= thr;
  if (!passes(1)) return assign(files.length, active, 0, null);
  let lo = 1;
  let hi = active.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (passes(mid)) lo = mid;
    else hi = mid - 1;
  }
  return assign(files.length, active, lo, cOf(lo));
}

/**
 * Reference solver for tests (§A.4.3): bisection on C of the memory function
 * mem(C) = Σ n_i·max(0, −(ln(n_i/z_i) + C))/ln²2, which decreases in C. Exact problem only (minimum 0 bpk).
 * The bracket is derived from the instance, so a single hot file with hundreds of bits/key still converges.
 */
export function mnemosyneWaterFilling(files: readonly MnemosyneFile[], filterBits: number): MnemosyneSolution {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const active = sortedActiveFiles(files);
  if (active.length === 0 || M <= 0) return assign(files.length, active, 0, null);
  const mem = (c: number): number => active.reduce((s, f) => s + f.entries * Math.max(0, -(f.logWeight + c)), 0) / LN2_SQ;
  const s1 = active.reduce((s, f) => s + f.entries, 0);
  const s2 = active.reduce((s, f) => s + f.entries * f.logWeight, 0);
  // mem(C_all) ≥ M where C_all uses every file; mem(C) = 0 once C ≥ −min ln(n/z).
  let lo = (-M * LN2_SQ - s2) / s1 - 1;
  let hi = -Math.min(...active.map((f) => f.logWeight)) + 1;
  for (let it = 0; it < 400 && hi - lo > 0; it++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (mem(mid) > M) lo = mid;
    else hi = mid;
  }
  const logC = (lo + hi) / 2;
  const bitsPerKey = new Array<number>(files.length).fill(0);
  let count = 0;
  for (const f of active) {
    const b = Math.max(0, -(f.logWeight + logC) / LN2_SQ);
    bitsPerKey[f.index] = b;
    if (b > 0) count++;
  }
  return { bitsPerKey, logC, activeFiles: count };
}

/**
 * Public allocator shared with the Rust engine: optimal bits per key per file (input order) for a
 * total filter budget of `filterBits` BITS (M = avg bpk · Σ entries, ≥ 0), minimizing Σ z_i·ε_i.
 * Exact problem by default; pass `{ minBitsPerKey: 1 }` for the RocksDB variant (§A.3.4).
 * Vectors: models/test/vectors/mnemosyne-allocation.json.
 */
export function mnemosyneAllocation(
  files: { entries: number; emptyProbes: number }[],
  filterBits: number,
  options: MnemosyneSolveOptions = {},
): number[] {
  return mnemosyneSortAndSearch(files, filterBits, options).bitsPerKey;
}

// ───────────────────────────────────────────────────────────────── baselines

/** Every file gets the same bits per key, M / Σ entries (RocksDB default). */
export function mnemosyneUniformAllocation(files: readonly MnemosyneFile[], filterBits: number): number[] {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const total = files.reduce((s, f) => s + f.entries, 0);
  return files.map(() => (total > 0 ? M / total : 0));
}

/**
 * Monkey+ (§A.3.1): the exact Monkey optimum for the actual per-level entry counts, i.e. Algorithm 1
 * with equal weights z_j = 1. Returns bits per key per level (input order); levels with 0 entries get 0.
 */
export function mnemosyneMonkeyPlusAllocation(levelEntries: readonly number[], filterBits: number): number[] {
  if (!Array.isArray(levelEntries)) throw new ModelInputError('levelEntries', 'must be an array of entry counts');
  const levels = levelEntries.map((n, j) => ({ entries: requireNumber(`levelEntries[${j}]`, n, 0, Infinity, { exclusiveMax: true }), emptyProbes: 1 }));
  return mnemosyneSortAndSearch(levels, filterBits).bitsPerKey;
}

export interface MnemosyneMonkeyClosedForm {
  /** Y: deepest levels without a filter (ceiling fix of the printed floor). */
  levelsWithoutFilter: number;
  /** Cost_min of Eq 4: expected false positives per empty lookup (asymptotic in L). */
  expectedCost: number;
  /** ε_1..ε_L, shallow first. */
  fprs: number[];
  /** b(ε_j), shallow first. */
  bitsPerKey: number[];
}

/**
 * Monkey's closed form for a perfect leveled tree (Eq 4, §A.4.5) with Y = ceil(log_T(ln T/(ln²2·bpk·(T−1))))
 * clamped to [0, L] (the paper prints floor, which can give ε > 1; pitfall P-A3). Assumes every level is full.
 * sizeRatio T ≥ 2, levels L ≥ 1 (integer), bitsPerKey ≥ 0 (average over all entries).
 */
export function mnemosyneMonkeyClosedForm(sizeRatio: number, levels: number, bitsPerKey: number): MnemosyneMonkeyClosedForm {
  const T = requireNumber('sizeRatio', sizeRatio, 2, 1e6);
  const L = requireNumber('levels', levels, 1, 1000, { integer: true });
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const arg = Math.log(T) / (LN2_SQ * b * (T - 1));
  // The 1e-12 slack keeps an exact power of T from rounding up to an extra unfiltered level.
  const Y = arg <= 1 ? 0 : Math.min(L, Math.ceil(Math.log(arg) / Math.log(T) - 1e-12));
  if (Y === L) return { levelsWithoutFilter: L, expectedCost: L, fprs: new Array<number>(L).fill(1), bitsPerKey: new Array<number>(L).fill(0) };
  const cost = (Math.exp(-b * LN2_SQ * Math.pow(T, Y)) * Math.pow(T, T / (T - 1))) / (T - 1) + Y;
  const fprs: number[] = [];
  for (let j = 1; j <= L; j++) {
    fprs.push(j > L - Y ? 1 : Math.min(1, ((cost - Y) * (T - 1)) / T / Math.pow(T, L - Y - j)));
  }
  return { levelsWithoutFilter: Y, expectedCost: cost, fprs, bitsPerKey: fprs.map((e) => -Math.log(e) / LN2_SQ) };
}

/**
 * Monkey+ style gradient descent (§A.4.4, reconstructed — the seed gives only its O(F²·log M) cost):
 * start with all M bits on file 0, repeatedly try moving Δ bits between every ordered pair of files,
 * halve Δ when a full pass finds no improvement, stop below 1 bit. Timing baseline only; its answer is
 * accurate to about one bit per file. Per-pass multiplicative factors replace exp() in the inner loop so
 * the baseline is not slowed artificially.
 */
export function mnemosyneGradientDescent(files: readonly MnemosyneFile[], filterBits: number): number[] {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const idx = files.map((_, i) => i).filter((i) => files[i].entries > 0);
  const P = idx.length;
  const out = new Array<number>(files.length).fill(0);
  if (P === 0 || M <= 0) return out;
  const n = idx.map((i) => files[i].entries);
  const z = idx.map((i) => files[i].emptyProbes);
  const bits = new Float64Array(P);
  bits[0] = M;
  const e = new Float64Array(P);
  const evalCost = (p: number): number => z[p] * Math.exp(-(bits[p] / n[p]) * LN2_SQ);
  for (let p = 0; p < P; p++) e[p] = evalCost(p);
  const gain = new Float64Array(P); // cost factor when a file receives Δ bits
  const loss = new Float64Array(P); // cost factor when a file gives Δ bits away
  let delta = M;
  while (delta >= 1) {
    for (let p = 0; p < P; p++) {
      gain[p] = Math.exp(-(delta / n[p]) * LN2_SQ);
      loss[p] = Math.exp((delta / n[p]) * LN2_SQ);
    }
    let improved = false;
    for (let i = 0; i < P - 1; i++) {
      for (let j = i + 1; j < P; j++) {
        improved = tryMove(i, j) || improved;
        improved = tryMove(j, i) || improved;
      }
    }
    if (!improved) delta /= 2;
  }
  idx.forEach((i, p) => (out[i] = bits[p] / n[p]));
  return out;

  function tryMove(to: number, from: number): boolean {
    if (bits[from] - delta <= 0) return false;
    const change = e[to] * (gain[to] - 1) + e[from] * (loss[from] - 1);
    // A move must gain more than rounding noise: between two equal files the swap and its reverse
    // both "gain" ±1 ulp and would ping-pong forever instead of letting Δ halve.
    if (!(change < -1e-12 * (e[to] + e[from]))) return false;
    bits[to] += delta;
    bits[from] -= delta;
    e[to] = evalCost(to);
    e[from] = evalCost(from);
    return true;
  }
}

// ───────────────────────────────────────────────────────────────── model cost

/** Σ z_i·ε(b_i): expected unnecessary data-block reads over the window (Eq 5). */
export function mnemosyneExpectedCost(files: readonly MnemosyneFile[], bitsPerKey: readonly number[]): number {
  validateFiles(files);
  if (!Array.isArray(bitsPerKey) || bitsPerKey.length !== files.length) {
    throw new ModelInputError('bitsPerKey', `must be an array with one entry per file (${files.length})`);
  }
  return files.reduce((s, f, i) => s + f.emptyProbes * fprFromBitsPerKey(requireNumber(`bitsPerKey[${i}]`, bitsPerKey[i], 0, Infinity, { exclusiveMax: true })), 0);
}

export interface MnemosyneLookupCost {
  /** Σ z_i·ε_i / Q: data-block reads per lookup caused by false positives. */
  unnecessaryReadsPerLookup: number;
  /** (Σ x_i + Σ z_i·ε_i) / Q: all data-block reads per lookup. */
  dataReadsPerLookup: number;
}

/**
 * Per-lookup data-block reads for a filter plan (§A.3.2). `files[i].foundProbes` = x_i (probes that found
 * their key in file i, default 0); `lookups` = Q > 0, the lookups that reached the disk levels.
 */
export function mnemosyneLookupCost(
  files: readonly (MnemosyneFile & { foundProbes?: number })[],
  bitsPerKey: readonly number[],
  lookups: number,
): MnemosyneLookupCost {
  const Q = requireNumber('lookups', lookups, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const unnecessary = mnemosyneExpectedCost(files, bitsPerKey);
  const found = files.reduce((s, f, i) => s + requireNumber(`files[${i}].foundProbes`, f.foundProbes ?? 0, 0, Infinity, { exclusiveMax: true }), 0);
  return { unnecessaryReadsPerLookup: unnecessary / Q, dataReadsPerLookup: (found + unnecessary) / Q };
}

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

// ───────────────────────────────────────────────────────────────── Merlin estimator (§A.4.7)

/** One entry of a file's probe window. */
export interface MerlinProbe {
  /** D: the global point-lookup sequence number (≥ 1; D_global is incremented before use). */
  seq: number;
  /** Did the lookup find its key in this file? */
  found: boolean;
}

/**
 * Merlin's per-file state. The Rust engine stores the window as a ring buffer of u64 plus a u64 found
 * bitmap; here it is an array, newest first, so the spec stays readable.
 */
export interface MerlinState {
  /** Ω: the last ≤ w probes, newest (D_1) first. */
  window: readonly MerlinProbe[];
  /** q': probes pushed out of the window, plus any inherited estimate. */
  olderProbes: number;
  /** x': the found probes among them. */
  olderFound: number;
  /** D_start: D_global when the file was created (used by the code variant only). */
  createdAt: number;
}

export interface MerlinOptions {
  /** w: window capacity, 1..64 (64 in the authors' experiments). */
  windowSize?: number;
  /** β: weight on the recent window vs older history, [0, 1] (0.8 in the experiments). */
  beta?: number;
  /** 'paper' (default, §A.4.7) or 'code' (FileSampledStats::GetEstimatedNumPointReads). */
  variant?: 'paper' | 'code';
  /** Code variant only: prior lower bound on the probes (the authors' L0 prior); default 0. */
  minReads?: number;
}

export interface MerlinEstimate {
  /** q̂: estimated probes since global time 0. */
  probes: number;
  /** x̂: estimated probes that found their key here. */
  found: number;
  /** ẑ = q̂ − x̂ ≥ 0: the weight Mnemosyne uses. */
  empty: number;
}

/**
 * A new file's Merlin state. `inherited` comes from `merlinInherit` (compaction) or `merlinFlushPrior`
 * (flush). Inherited counts must mean "probes since global time 0 as if the file had existed" (P-A10).
 */
export function merlinNewFile(createdAt: number, inherited: { probes: number; found: number } = { probes: 0, found: 0 }): MerlinState {
  requireNumber('createdAt', createdAt, 0, Number.MAX_SAFE_INTEGER, { integer: true });
  const q = requireNumber('inherited.probes', inherited.probes, 0, Infinity, { exclusiveMax: true });
  requireNumber('inherited.found', inherited.found, 0, q);
  return { window: [], olderProbes: q, olderFound: inherited.found, createdAt };
}

/**
 * Record one probe of the file by lookup `seq` (strictly increasing, ≥ 1). When the window is full its
 * oldest entry moves into q' (and x' if it found its key). Returns a new state.
 */
export function merlinRecordProbe(state: MerlinState, seq: number, found: boolean, windowSize = 64): MerlinState {
  const w = requireNumber('windowSize', windowSize, 1, 64, { integer: true });
  const newest = state.window.length > 0 ? state.window[0].seq : 0;
  requireNumber('seq', seq, newest + 1, Number.MAX_SAFE_INTEGER, { integer: true });
  let window = [{ seq, found }, ...state.window];
  let { olderProbes, olderFound } = state;
  while (window.length > w) {
    const oldest = window[window.length - 1];
    window = window.slice(0, -1);
    olderProbes += 1;
    if (oldest.found) olderFound += 1;
  }
  return { ...state, window, olderProbes, olderFound };
}

function merlinOptions(options: MerlinOptions): Required<MerlinOptions> {
  return {
    windowSize: requireNumber('windowSize', options.windowSize ?? 64, 1, 64, { integer: true }),
    beta: requireFraction('beta', options.beta ?? 0.8),
    variant: requireOneOf('variant', options.variant ?? 'paper', ['paper', 'code'] as const),
    minReads: requireNumber('minReads', options.minReads ?? 0, 0, Infinity, { exclusiveMax: true }),
  };
}

/**
 * Estimate (q̂, x̂, ẑ) for a file at global lookup count `now` (≥ the newest probe's seq).
 * Paper variant: Δ_recent = (D_1 − D_w)/(|Ω|−1), Δ_old = D_w/(q'+1), Δ = β·Δ_recent + (1−β)·Δ_old, q̂ = now/Δ,
 * x̂ = (β·popcount/|Ω| + (1−β)·x'/q')·q̂. Edge cases are the reference's [ours] choices: |Ω| = 1 uses Δ_old
 * alone, |Ω| = 0 returns the inherited (q', x'), q' = 0 drops the x'/q' term.
 * Code variant: measures the recent gap up to `now` and the old gap from D_start, rounds, and never
 * reports fewer probes than were seen — a file gone cold stops growing (example M5).
 */
export function merlinEstimate(state: MerlinState, now: number, options: MerlinOptions = {}): MerlinEstimate {
  const o = merlinOptions(options);
  const newest = state.window.length > 0 ? state.window[0].seq : 0;
  requireNumber('now', now, newest, Number.MAX_SAFE_INTEGER);
  const [probes, found] = o.variant === 'paper' ? merlinPaperEstimate(state, now, o.beta) : merlinCodeEstimate(state, now, o.beta, o.minReads);
  return { probes, found, empty: Math.max(0, probes - found) };
}

function foundRatio(state: MerlinState, beta: number): number {
  const k = state.window.length;
  const recent = k > 0 ? state.window.filter((p) => p.found).length / k : 0;
  const older = state.olderProbes > 0 ? state.olderFound / state.olderProbes : 0;
  if (k > 0 && state.olderProbes > 0) return beta * recent + (1 - beta) * older;
  return k > 0 ? recent : older;
}

function merlinPaperEstimate(state: MerlinState, now: number, beta: number): [number, number] {
  const k = state.window.length;
  if (k === 0) return [state.olderProbes, state.olderFound];
  const newestSeq = state.window[0].seq;
  const oldestSeq = state.window[k - 1].seq;
  const oldGap = oldestSeq / (state.olderProbes + 1);
  const gap = k >= 2 ? (beta * (newestSeq - oldestSeq)) / (k - 1) + (1 - beta) * oldGap : oldGap;
  const q = finite('merlin paper estimate', now / gap);
  return [q, foundRatio(state, beta) * q];
}

// Math.round (half up) stands in for the C++ rounding; the values are non-negative, so it equals std::round.
function merlinCodeEstimate(state: MerlinState, now: number, beta: number, minReads: number): [number, number] {
  const k = state.window.length;
  const qp = state.olderProbes;
  const start = state.createdAt;
  const oldest = k > 0 ? state.window[k - 1].seq : 0;
  let gap = 0;
  if (k > 0 && now > oldest && oldest > start && qp > 0) gap = Math.round(((now - oldest) * beta) / k + ((1 - beta) * (oldest - start)) / qp);
  else if (k > 0 && now > oldest) gap = Math.round((now - oldest) / k);
  else if (k > 0 && oldest > start && qp > 0) gap = Math.round((oldest - start) / qp);
  else if (now > start && start !== 0 && qp > 0) gap = Math.round((now - start) / qp);
  let q = gap > 0 ? Math.round(now / gap) : qp + k;
  q = Math.max(q, minReads + qp + k);
  return [q, Math.min(Math.round(foundRatio(state, beta) * q), q)];
}

/**
 * Prior for a flushed file (pitfall P-A11, [ours] in the paper's time origin): it is credited with the probes
 * an average L0 file would have received since global time 0, so a new L0 file does not start with z = 0
 * (which would give it no filter). Rates are per point lookup, ≥ 0, found ≤ probes.
 */
export function merlinFlushPrior(createdAt: number, l0ProbesPerLookup: number, l0FoundPerLookup: number): { probes: number; found: number } {
  requireNumber('createdAt', createdAt, 0, Number.MAX_SAFE_INTEGER);
  const q = requireNumber('l0ProbesPerLookup', l0ProbesPerLookup, 0, Infinity, { exclusiveMax: true });
  const x = requireNumber('l0FoundPerLookup', l0FoundPerLookup, 0, q);
  return { probes: createdAt * q, found: createdAt * x };
}

/** A compaction input's current statistics (from `merlinEstimate`, or the naive counters). */
export interface MerlinCompactionInput {
  id: string;
  /** q_s: probes of the input file. */
  probes: number;
  /** x_s: probes that found their key in it. */
  found: number;
}

/** One compaction output: α_s per input id = share of input s's entries written into this output. */
export interface MerlinCompactionOutput {
  fractions: Record<string, number>;
}

function validateInputs(field: string, inputs: readonly MerlinCompactionInput[]): void {
  inputs.forEach((s, i) => {
    const q = requireNumber(`${field}[${i}].probes`, s.probes, 0, Infinity, { exclusiveMax: true });
    requireNumber(`${field}[${i}].found`, s.found, 0, q);
  });
}

function validateFractions(ids: ReadonlySet<string>, outputs: readonly MerlinCompactionOutput[]): void {
  const totals = new Map<string, number>();
  outputs.forEach((o, k) => {
    for (const [id, a] of Object.entries(o.fractions)) {
      if (!ids.has(id)) throw new ModelInputError(`outputs[${k}].fractions.${id}`, 'names no compaction input');
      totals.set(id, (totals.get(id) ?? 0) + requireFraction(`outputs[${k}].fractions.${id}`, a));
    }
  });
  for (const [id, t] of totals) {
    if (t > 1 + 1e-9) throw new ModelInputError(`outputs[*].fractions.${id}`, `shares of one input must sum to at most 1, got ${t}`);
  }
}

/**
 * Merlin inheritance at compaction (Eq 13 with the §4.2.2 corner-case adjustment): only the shallow
 * level's non-empty probes are new to the merged range, unless its probes cannot all have reached the
 * deeper files: x̃_s = max(q_s − Σ_deep q_t, x_s); q_o = Σ_shallow α_s·x̃_s + Σ_deep α_t·q_t; x_o = Σ α_s·x_s.
 * The result seeds each output's (q', x') via `merlinNewFile`.
 */
export function merlinInherit(
  shallow: readonly MerlinCompactionInput[],
  deep: readonly MerlinCompactionInput[],
  outputs: readonly MerlinCompactionOutput[],
): MerlinEstimate[] {
  validateInputs('shallow', shallow);
  validateInputs('deep', deep);
  validateFractions(new Set([...shallow, ...deep].map((s) => s.id)), outputs);
  const deepProbes = deep.reduce((s, t) => s + t.probes, 0);
  const adjusted = new Map(shallow.map((s) => [s.id, Math.max(s.probes - deepProbes, s.found)]));
  return outputs.map((o) => {
    const share = (id: string): number => o.fractions[id] ?? 0;
    const probes = shallow.reduce((s, f) => s + share(f.id) * (adjusted.get(f.id) ?? 0), 0) + deep.reduce((s, t) => s + share(t.id) * t.probes, 0);
    const found = [...shallow, ...deep].reduce((s, f) => s + share(f.id) * f.found, 0);
    return { probes, found, empty: Math.max(0, probes - found) };
  });
}

// ───────────────────────────────────────────────────────────────── naive tracker (§A.4.6, Fig 10 baseline)

/** Plain per-file counters, started when the file is created. */
export interface MnemosyneNaiveCounters {
  probes: number;
  found: number;
}

/** Count one probe of the file. */
export function mnemosyneNaiveRecordProbe(c: MnemosyneNaiveCounters, found: boolean): MnemosyneNaiveCounters {
  return { probes: c.probes + 1, found: c.found + (found ? 1 : 0) };
}

/** ElasticBF-like inheritance: every output starts with the mean of the inputs' counters (flush: zeros). */
export function mnemosyneNaiveInherit(inputs: readonly MnemosyneNaiveCounters[], outputCount: number): MnemosyneNaiveCounters[] {
  requireNumber('outputCount', outputCount, 0, 1e9, { integer: true });
  validateInputs('inputs', inputs.map((c, i) => ({ id: String(i), ...c })));
  const k = inputs.length;
  const mean = k === 0 ? { probes: 0, found: 0 } : { probes: inputs.reduce((s, c) => s + c.probes, 0) / k, found: inputs.reduce((s, c) => s + c.found, 0) / k };
  return Array.from({ length: outputCount }, () => ({ ...mean }));
}

// ───────────────────────────────────────────────────────────────── estimator accuracy (Fig 10)

/**
 * Euclidean distance and cosine similarity between estimated and true ẑ vectors (files aligned by index).
 * Cosine is scale-free, which matches the allocator (§A.3.6-2). A zero vector has cosine 1 with another
 * zero vector and 0 otherwise.
 */
export function mnemosyneEstimatorAccuracy(estimated: readonly number[], truth: readonly number[]): { euclidean: number; cosine: number } {
  if (!Array.isArray(estimated) || !Array.isArray(truth) || estimated.length !== truth.length) {
    throw new ModelInputError('estimated', 'must be an array as long as truth');
  }
  let d2 = 0;
  let dot = 0;
  let ee = 0;
  let tt = 0;
  estimated.forEach((e, i) => {
    const a = requireNumber(`estimated[${i}]`, e, 0, Infinity, { exclusiveMax: true });
    const b = requireNumber(`truth[${i}]`, truth[i], 0, Infinity, { exclusiveMax: true });
    d2 += (a - b) * (a - b);
    dot += a * b;
    ee += a * a;
    tt += b * b;
  });
  const cosine = ee === 0 || tt === 0 ? (ee === tt ? 1 : 0) : dot / Math.sqrt(ee * tt);
  return { euclidean: Math.sqrt(d2), cosine };
}
