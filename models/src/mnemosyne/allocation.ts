/** Mnemosyne's per-file filter allocation: the file inputs and the exact solvers (Algorithm 1 and variants). */
import { LN2_SQ } from '../bloom';
import { ModelInputError, finite, requireNumber } from '../validate';

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

export function validateFiles(files: readonly MnemosyneFile[], field = 'files'): void {
  if (!Array.isArray(files)) throw new ModelInputError(field, 'must be an array of { entries, emptyProbes }');
  files.forEach((f, i) => {
    if (typeof f !== 'object' || f === null) throw new ModelInputError(`${field}[${i}]`, 'must be { entries, emptyProbes }');
    requireNumber(`${field}[${i}].entries`, f.entries, 0, Infinity, { exclusiveMax: true });
    requireNumber(`${field}[${i}].emptyProbes`, f.emptyProbes, 0, Infinity, { exclusiveMax: true });
  });
}

export function validateBudget(filterBits: number): number {
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

interface SolverSetup {
  readonly M: number;
  readonly thr: number;
  readonly active: readonly ActiveFile[];
}

/**
 * What both exact solvers start from: validated input, the budget M, the FPR threshold as a bound on
 * ln(n/z) + C, and the active files hottest first. Null when no file can get bits (none probed, or M = 0).
 */
function solverSetup(files: readonly MnemosyneFile[], filterBits: number, options: MnemosyneSolveOptions): SolverSetup | null {
  validateFiles(files);
  const M = validateBudget(filterBits);
  const thr = -minBpkOf(options) * LN2_SQ;
  const active = sortedActiveFiles(files);
  if (active.length === 0 || M <= 0) return null;
  return { M, thr, active };
}


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
  const setup = solverSetup(files, filterBits, options);
  if (setup === null) return assign(files.length, [], 0, null);
  const { M, thr, active } = setup;
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
  const setup = solverSetup(files, filterBits, options);
  if (setup === null) return assign(files.length, [], 0, null);
  const { M, thr, active } = setup;
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
