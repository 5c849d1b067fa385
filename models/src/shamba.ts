/**
 * SHaMBa: modular Bloom filters (MBF), utility-based module skipping and two-priority caching under
 * memory pressure. Reference: mnemosyne-shamba.md Part B.
 *
 * Units: bits per key for filter memory; bytes for sizes; I/O in pages per lookup. α here is always the
 * EXISTING ratio (`existingRatio`: share of the lookups reaching a file that find their key in it) and β the
 * access frequency (`accessFrequency`: lookups reaching the file / all lookups) — Fig 5's text uses α for the
 * empty share (pitfall P-B2), and Merlin's α/β are unrelated (P-A15).
 */
import { fprFromBitsPerKey, fprWithHashes, optimalHashCount } from './bloom';
import { ModelInputError, requireFraction, requireNumber, requireOneOf } from './validate';

const MAX_MODULES = 64;

function requireModules(modules: number): number {
  return requireNumber('modules', modules, 1, MAX_MODULES, { integer: true });
}

function requireFprs(moduleFprs: readonly number[]): readonly number[] {
  if (!Array.isArray(moduleFprs) || moduleFprs.length < 1 || moduleFprs.length > MAX_MODULES) {
    throw new ModelInputError('moduleFprs', `must be an array of 1..${MAX_MODULES} probabilities`);
  }
  moduleFprs.forEach((f, d) => requireFraction(`moduleFprs[${d}]`, f));
  return moduleFprs;
}

function product(values: readonly number[], count: number): number {
  let p = 1;
  for (let j = 0; j < count; j++) p *= values[j];
  return p;
}

// ───────────────────────────────────────────────────────────────── MBF false-positive rate and reach

/**
 * An MBF of `modules` equal modules with ideal hash counts (Eq 4–7): f_sm = exp(−(b/D)·ln²2), FPR = f_sm^D
 * (equal to a monolithic filter of b bits/key), and the expected number of modules an EMPTY lookup reads,
 * Σ_d f_sm^(d−1) = (1 − f_sm^D)/(1 − f_sm). bitsPerKey ≥ 0 (total over all modules), modules 1..64.
 */
export function modularBloom(bitsPerKey: number, modules: number): { fpr: number; expectedModuleAccesses: number } {
  requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const D = requireModules(modules);
  const fsm = fprFromBitsPerKey(bitsPerKey / D);
  // With no bits every module answers "maybe", so an empty lookup reads all D.
  const expected = fsm === 1 ? D : (1 - Math.pow(fsm, D)) / (1 - fsm);
  return { fpr: Math.pow(fsm, D), expectedModuleAccesses: expected };
}

/** One module: its bits divided by the keys it indexes, and optionally an integer hash count. */
export interface MbfModule {
  /** m_d / n, ≥ 0. */
  bitsPerKey: number;
  /** k_d (integer ≥ 1); omit for the ideal k = (m_d/n)·ln 2. */
  hashes?: number;
}

/** FPR of one module: (1 − e^(−k/b))^k with integer k, exp(−b·ln²2) with the ideal k. */
export function mbfModuleFpr(module: MbfModule): number {
  const b = requireNumber('module.bitsPerKey', module.bitsPerKey, 0, 1000);
  if (module.hashes === undefined) return fprFromBitsPerKey(b);
  requireNumber('module.hashes', module.hashes, 1, 64, { integer: true });
  return fprWithHashes(b, module.hashes);
}

/**
 * Split a total hash count over D modules as in Table 3 (7 → {7}, {3,4}, {2,2,3}, {1×7}): the remainder
 * goes to the last modules. totalHashes ≥ modules ≥ 1 (a module needs at least one probe, P-B6).
 */
export function mbfSplitHashes(totalHashes: number, modules: number): number[] {
  const D = requireModules(modules);
  const k = requireNumber('totalHashes', totalHashes, D, 64 * MAX_MODULES, { integer: true });
  const base = Math.floor(k / D);
  const extra = k - base * D;
  return Array.from({ length: D }, (_, d) => base + (d >= D - extra ? 1 : 0));
}

/**
 * Equal-size modules for `bitsPerKey` in total: each gets b/D bits per key; `hashes` per module (e.g. from
 * `mbfSplitHashes(optimalHashCount(b), D)`) or the ideal k when omitted.
 */
export function mbfEqualModules(bitsPerKey: number, modules: number, hashes?: readonly number[]): MbfModule[] {
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const D = requireModules(modules);
  if (hashes !== undefined && (!Array.isArray(hashes) || hashes.length !== D)) {
    throw new ModelInputError('hashes', `must list one hash count per module (${D})`);
  }
  return Array.from({ length: D }, (_, d) => (hashes === undefined ? { bitsPerKey: b / D } : { bitsPerKey: b / D, hashes: hashes[d] }));
}

/** How an MBF treats empty lookups (§B.3.2), exact under independent modules. */
export interface MbfAnalysis {
  /** f_MBF = Π f_d (Eq 2). */
  fpr: number;
  /** R_d = Π_{j<d} f_j: probability an empty lookup reaches module d (R_1 = 1). */
  reachProbabilities: number[];
  /** E[modules read | empty] = Σ R_d. */
  expectedModulesEmpty: number;
  /** P(an empty lookup reads exactly d modules); the last entry includes the lookups that pass every module. */
  terminationProbabilities: number[];
  /** P(an empty lookup reads at most d modules). */
  cumulativeTermination: number[];
}

/** Reach, expected module reads and termination distribution for module FPRs f_1..f_D (each in [0, 1]). */
export function mbfAnalyze(moduleFprs: readonly number[]): MbfAnalysis {
  const f = requireFprs(moduleFprs);
  const D = f.length;
  const reach = f.map((_, d) => product(f, d));
  const termination = reach.map((r, d) => (d < D - 1 ? r * (1 - f[d]) : r));
  const cumulative: number[] = [];
  termination.reduce((acc, t) => {
    cumulative.push(acc + t);
    return acc + t;
  }, 0);
  return {
    fpr: product(f, D),
    reachProbabilities: reach,
    expectedModulesEmpty: reach.reduce((a, b) => a + b, 0),
    terminationProbabilities: termination,
    cumulativeTermination: cumulative,
  };
}

/** E[modules read] for lookups of which `existingRatio` find their key (they read all D): α·D + (1−α)·Σ R_d. */
export function mbfExpectedModules(moduleFprs: readonly number[], existingRatio: number): number {
  const a = requireFraction('existingRatio', existingRatio);
  const f = requireFprs(moduleFprs);
  return a * f.length + (1 - a) * mbfAnalyze(f).expectedModulesEmpty;
}

/**
 * Eq 6: expected bit probes before an empty lookup meets a 0 bit, Σ_{d=1..k} fill^(d−1). With the ideal fill
 * 1/2 this is 2 − 1/2^(k−1) < 2; pass the real fill 1 − e^(−k/b) for a concrete filter. hashes 1..64.
 */
export function mbfExpectedBitProbes(hashes: number, fill = 0.5): number {
  const k = requireNumber('hashes', hashes, 1, 64, { integer: true });
  const p = requireNumber('fill', fill, 0, 1, { exclusiveMax: true });
  return (1 - Math.pow(p, k)) / (1 - p);
}

// ───────────────────────────────────────────────────────────────── utility and skipping

/** A file's lookup statistics. */
export interface ShambaFileStats {
  /** α: share of the lookups reaching the file that find their key in it, [0, 1]. */
  existingRatio: number;
  /** β: lookups reaching the file per lookup, ≥ 0 (the definition is a knob, P-B3; may exceed 1 in the emulator). */
  accessFrequency: number;
}

function requireStats(stats: ShambaFileStats): { a: number; b: number } {
  return {
    a: requireFraction('existingRatio', stats.existingRatio),
    b: requireNumber('accessFrequency', stats.accessFrequency, 0, Infinity, { exclusiveMax: true }),
  };
}

/**
 * Eq 9 generalized to unequal modules: data I/O per lookup attributable to the file when its first d modules
 * are used, β·(α + (1−α)·Π_{j≤d} f_j). d = 0 gives β — the text's α·β is the d → ∞ limit (fixed, P-B1).
 */
export function shambaExpectedIo(stats: ShambaFileStats, moduleFprs: readonly number[], modulesUsed: number): number {
  const { a, b } = requireStats(stats);
  const f = requireFprs(moduleFprs);
  const d = requireNumber('modulesUsed', modulesUsed, 0, f.length, { integer: true });
  return b * (a + (1 - a) * product(f, d));
}

/**
 * Utility of module d (1-based): the data I/O per lookup it saves, expIO_{d−1} − expIO_d
 * = β(1−α)·Π_{j<d} f_j·(1 − f_d) ≥ 0. The paper prints the difference the other way round (fixed, P-B1).
 */
export function shambaUtility(stats: ShambaFileStats, moduleFprs: readonly number[], module: number): number {
  const { a, b } = requireStats(stats);
  const f = requireFprs(moduleFprs);
  const d = requireNumber('module', module, 1, f.length, { integer: true });
  return b * (1 - a) * product(f, d - 1) * (1 - f[d - 1]);
}

/** 'none': use every module; 'partial' (P): module 1 always, later ones may be skipped; 'full' (F): any. */
export type ShambaSkipPolicy = 'none' | 'partial' | 'full';

/** The paper's thresholds: 0.2 for module 1 (used by F only), 0.1 for every later module. */
export function shambaDefaultThresholds(modules: number): number[] {
  const D = requireModules(modules);
  return Array.from({ length: D }, (_, d) => (d === 0 ? 0.2 : 0.1));
}

/**
 * How many leading modules a lookup uses (0..D) under a skip policy: modules are read in order, so skipping
 * slot d skips d..D (P-B4); a slot may be skipped when its utility ≤ θ_d (the emulator's ≤). Skipped modules
 * count as "maybe". The thresholds only mean something for the β normalization they were calibrated on (P-B3).
 */
export function shambaModulesToUse(
  stats: ShambaFileStats,
  moduleFprs: readonly number[],
  policy: ShambaSkipPolicy,
  thresholds: readonly number[] = shambaDefaultThresholds(moduleFprs.length),
): number {
  const f = requireFprs(moduleFprs);
  const p = requireOneOf('policy', policy, ['none', 'partial', 'full'] as const);
  if (!Array.isArray(thresholds) || thresholds.length !== f.length) {
    throw new ModelInputError('thresholds', `must list one threshold per module (${f.length})`);
  }
  thresholds.forEach((t, d) => requireNumber(`thresholds[${d}]`, t, 0, Infinity, { exclusiveMax: true }));
  if (p === 'none') return f.length;
  for (let d = 1; d <= f.length; d++) {
    const maySkip = p === 'full' || d >= 2;
    if (maySkip && shambaUtility(stats, f, d) <= thresholds[d - 1]) return d - 1;
  }
  return f.length;
}

// ───────────────────────────────────────────────────────────────── per-access expected I/O (§B.3.9, ours)

/** One lookup reaching one file: what it costs in pages given cache hit rates and the modules used. */
export interface ShambaAccessInput {
  /** α of the file, [0, 1]. */
  existingRatio: number;
  /** f_d per module, [0, 1]. */
  moduleFprs: readonly number[];
  /** Pages per module (≥ 0). */
  modulePages: readonly number[];
  /** h_d: probability module d is cached, [0, 1] (measured, or assumed, e.g. h_1 = 1 when module 1 is pinned). */
  moduleHitRates: readonly number[];
  /** Leading modules used (0..D), e.g. from `shambaModulesToUse`. */
  modulesUsed: number;
  /** Pages of the file's index (default 0: index reads not modelled). */
  indexPages?: number;
  /** Probability the index is cached (default 1). */
  indexHitRate?: number;
  /** Pages per data block read (default 1). */
  dataPages?: number;
}

export interface ShambaAccessIo {
  filter: number;
  index: number;
  data: number;
  total: number;
}

function requirePerModule(field: string, values: readonly number[], D: number, max: number): readonly number[] {
  if (!Array.isArray(values) || values.length !== D) throw new ModelInputError(field, `must list one value per module (${D})`);
  values.forEach((v, d) => requireNumber(`${field}[${d}]`, v, 0, max, { exclusiveMax: max === Infinity }));
  return values;
}

/**
 * Expected page reads for one lookup reaching a file ([ours], not in the paper): positives pass every module,
 * empties pass module d with Π_{j<d} f_j; a module read misses the cache with 1 − h_d; whatever passes the used
 * modules reads the index (on a miss) and one data block. No data-block caching is modelled.
 */
export function shambaPerAccessIo(input: ShambaAccessInput): ShambaAccessIo {
  const a = requireFraction('existingRatio', input.existingRatio);
  const f = requireFprs(input.moduleFprs);
  const D = f.length;
  const pages = requirePerModule('modulePages', input.modulePages, D, Infinity);
  const hits = requirePerModule('moduleHitRates', input.moduleHitRates, D, 1);
  const used = requireNumber('modulesUsed', input.modulesUsed, 0, D, { integer: true });
  const indexPages = requireNumber('indexPages', input.indexPages ?? 0, 0, Infinity, { exclusiveMax: true });
  const indexHit = requireFraction('indexHitRate', input.indexHitRate ?? 1);
  const dataPages = requireNumber('dataPages', input.dataPages ?? 1, 0, Infinity, { exclusiveMax: true });
  let filter = 0;
  for (let d = 0; d < used; d++) filter += (a + (1 - a) * product(f, d)) * (1 - hits[d]) * pages[d];
  const proceed = a + (1 - a) * product(f, used);
  const index = proceed * (1 - indexHit) * indexPages;
  const data = proceed * dataPages;
  return { filter, index, data, total: filter + index + data };
}

/** Σ_files β_f · (filter + index + data)_f: expected page reads per lookup over the files lookups reach. */
export function shambaLookupIo(files: readonly (ShambaAccessInput & { accessFrequency: number })[]): number {
  if (!Array.isArray(files)) throw new ModelInputError('files', 'must be an array');
  return files.reduce((s, file, i) => {
    const beta = requireNumber(`files[${i}].accessFrequency`, file.accessFrequency, 0, Infinity, { exclusiveMax: true });
    return s + beta * shambaPerAccessIo(file).total;
  }, 0);
}

// ───────────────────────────────────────────────────────────────── sizes and feasibility

/** Eq 10: filter pages of one file, (fileBytes/entryBytes)·(bpk/8)/pageBytes. All sizes in bytes (> 0). */
export function shambaFilterPages(fileBytes: number, entryBytes: number, bitsPerKey: number, pageBytes: number): number {
  const F = requireNumber('fileBytes', fileBytes, 0, Infinity, { exclusiveMax: true });
  const E = requireNumber('entryBytes', entryBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const P = requireNumber('pageBytes', pageBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  return ((F / E) * (b / 8)) / P;
}

/** Eq 11: smallest file (bytes) whose filter fills `modules` whole pages: D·page·entry/(bpk/8). bpk > 0. */
export function shambaMinFileBytes(modules: number, pageBytes: number, entryBytes: number, bitsPerKey: number): number {
  const D = requireModules(modules);
  const P = requireNumber('pageBytes', pageBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const E = requireNumber('entryBytes', entryBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000, { exclusiveMin: true });
  return (D * P * E) / (b / 8);
}

/**
 * Most modules a file's filter can be split into: each needs a whole page (Eq 10) and at least one hash
 * probe (P-B6, k = round(b·ln 2)). 0 when the filter is smaller than a page.
 */
export function shambaMaxModules(fileBytes: number, entryBytes: number, bitsPerKey: number, pageBytes: number): number {
  const pages = Math.floor(shambaFilterPages(fileBytes, entryBytes, bitsPerKey, pageBytes));
  return Math.min(pages, optimalHashCount(Math.min(bitsPerKey, 64)));
}

/** Index and filter bytes of one SST (§B.3.6, Table 2/5): one fence key per data block. */
export function shambaSstMetadata(input: { dataBlocks: number; keyBytes: number; entryBytes: number; pageBytes: number; bitsPerKey: number }): {
  indexBytes: number;
  filterBytes: number;
  indexToFilterRatio: number;
} {
  const P = requireNumber('dataBlocks', input.dataBlocks, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const K = requireNumber('keyBytes', input.keyBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const E = requireNumber('entryBytes', input.entryBytes, K, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const page = requireNumber('pageBytes', input.pageBytes, E, Infinity, { exclusiveMax: true });
  const b = requireNumber('bitsPerKey', input.bitsPerKey, 0, 1000, { exclusiveMin: true });
  const indexBytes = P * K;
  const filterBytes = ((P * page) / E) * (b / 8);
  return { indexBytes, filterBytes, indexToFilterRatio: indexBytes / filterBytes };
}

/** Block-cache bytes for a budget given as a fraction of all index + filter bytes (the papers' 10–150 % axis). */
export function shambaCacheBudgetBytes(budgetFraction: number, indexBytes: number, filterBytes: number): number {
  const f = requireNumber('budgetFraction', budgetFraction, 0, 100);
  const i = requireNumber('indexBytes', indexBytes, 0, Infinity, { exclusiveMax: true });
  const fl = requireNumber('filterBytes', filterBytes, 0, Infinity, { exclusiveMax: true });
  return f * (i + fl);
}

// ───────────────────────────────────────────────────────────────── module sizing

/** SHaMBa-eq: D equal modules of b/D bits per key. */
export function shambaEqualSplit(bitsPerKey: number, modules: number): number[] {
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const D = requireModules(modules);
  return new Array<number>(D).fill(b / D);
}

/**
 * SHaMBa-prop (2 modules): module 1 gets floor(b·budgetFraction) bits per key so the first modules fit the
 * budget, module 2 the rest (emulator rule); at a budget ≥ 100 % it falls back to one module. budgetFraction ≥ 0.
 * Below 1/b of the metadata module 1 gets 0 bits, as in the emulator.
 */
export function shambaProportionalSplit(bitsPerKey: number, budgetFraction: number): number[] {
  const b = requireNumber('bitsPerKey', bitsPerKey, 0, 1000);
  const f = requireNumber('budgetFraction', budgetFraction, 0, 100);
  if (f >= 1) return [b];
  const first = Math.floor(b * f);
  return [first, b - first];
}

// ───────────────────────────────────────────────────────────────── statistics (§B.3.7)

/** Emulator statistics: α = found/accesses (0 when never accessed), β = accesses/(lookups + 1). Counts ≥ 0. */
export function shambaMeasuredStats(accesses: number, found: number, lookups: number): ShambaFileStats {
  const acc = requireNumber('accesses', accesses, 0, Infinity, { exclusiveMax: true });
  const fnd = requireNumber('found', found, 0, acc);
  const q = requireNumber('lookups', lookups, 0, Infinity, { exclusiveMax: true });
  return { existingRatio: acc > 0 ? fnd / acc : 0, accessFrequency: acc / (q + 1) };
}

/**
 * Statistics a new file at `level` inherits from the overlapping last-level files (1-based levels,
 * level ≤ lastLevel): β as is, α divided by T per level in between, because shallower levels hold 1/T the data.
 */
export function shambaInheritedStats(lastLevelStats: ShambaFileStats, sizeRatio: number, level: number, lastLevel: number): ShambaFileStats {
  const { a, b } = requireStats(lastLevelStats);
  const T = requireNumber('sizeRatio', sizeRatio, 2, 1e6);
  const L = requireNumber('lastLevel', lastLevel, 1, 1000, { integer: true });
  const l = requireNumber('level', level, 1, L, { integer: true });
  return { existingRatio: a / Math.pow(T, L - l), accessFrequency: b };
}

/**
 * Eq 12 blend: w·measured + (1 − w)·inherited with w(age) = min(1, age/τ) — the shape of w is not given in the
 * paper; this linear ramp is the reference's [ours] choice. age, τ in the same unit (lookups or seconds), τ > 0.
 */
export function shambaBlendStats(measured: ShambaFileStats, inherited: ShambaFileStats, age: number, tau: number): ShambaFileStats {
  const m = requireStats(measured);
  const i = requireStats(inherited);
  const t = requireNumber('age', age, 0, Infinity, { exclusiveMax: true });
  const tt = requireNumber('tau', tau, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  const w = Math.min(1, t / tt);
  return { existingRatio: w * m.a + (1 - w) * i.a, accessFrequency: w * m.b + (1 - w) * i.b };
}

// ───────────────────────────────────────────────────────────────── two-priority block cache (§B.3.8, §B.4.3)

export type ShambaBlockKind = 'filter' | 'index' | 'data';
export type ShambaPriority = 'high' | 'low';

/** SHaMBa's placement: index blocks and filter module 1 in the high pool; later modules and data in the low pool. */
export function shambaBlockPriority(kind: ShambaBlockKind, module = 1): ShambaPriority {
  const k = requireOneOf('kind', kind, ['filter', 'index', 'data'] as const);
  if (k === 'filter') return requireNumber('module', module, 1, MAX_MODULES, { integer: true }) === 1 ? 'high' : 'low';
  return k === 'index' ? 'high' : 'low';
}

export interface ShambaCacheBlock {
  key: string;
  bytes: number;
}

/** Two LRU pools; each list is ordered least recently used first. */
export interface ShambaCacheState {
  capacityBytes: number;
  highCapacityBytes: number;
  high: readonly ShambaCacheBlock[];
  low: readonly ShambaCacheBlock[];
}

/** An empty cache of `capacityBytes` (≥ 0) whose high pool may hold `highRatio` (in [0, 1]) of it. */
export function shambaCacheNew(capacityBytes: number, highRatio: number): ShambaCacheState {
  const c = requireNumber('capacityBytes', capacityBytes, 0, Infinity, { exclusiveMax: true });
  const r = requireFraction('highRatio', highRatio);
  return { capacityBytes: c, highCapacityBytes: c * r, high: [], low: [] };
}

const poolBytes = (pool: readonly ShambaCacheBlock[]): number => pool.reduce((s, b) => s + b.bytes, 0);

/** Look a block up (high pool first); a hit moves it to the MRU end of its own pool. */
export function shambaCacheGet(state: ShambaCacheState, key: string): { state: ShambaCacheState; hit: boolean } {
  for (const pool of ['high', 'low'] as const) {
    const i = state[pool].findIndex((b) => b.key === key);
    if (i >= 0) {
      const list = [...state[pool]];
      const [block] = list.splice(i, 1);
      list.push(block);
      return { state: { ...state, [pool]: list }, hit: true };
    }
  }
  return { state, hit: false };
}

/**
 * Insert a block. High-priority overflow is DEMOTED to the low pool's MRU end (one more LRU round, P-B7),
 * not dropped; then low-pool LRU blocks are evicted until the cache fits (high-pool LRU when the low pool is empty).
 */
export function shambaCachePut(state: ShambaCacheState, block: ShambaCacheBlock, priority: ShambaPriority): ShambaCacheState {
  requireNumber('block.bytes', block.bytes, 0, Infinity, { exclusiveMax: true });
  const p = requireOneOf('priority', priority, ['high', 'low'] as const);
  const high = state.high.filter((b) => b.key !== block.key);
  const low = state.low.filter((b) => b.key !== block.key);
  if (p === 'high') {
    high.push(block);
    while (high.length > 0 && poolBytes(high) > state.highCapacityBytes) low.push(high.shift() as ShambaCacheBlock);
  } else {
    low.push(block);
  }
  while (poolBytes(high) + poolBytes(low) > state.capacityBytes) {
    if (low.length > 0) low.shift();
    else high.shift();
  }
  return { ...state, high, low };
}
