/**
 * Monkey (Dayan, Athanassoulis, Idreos, TODS 2018): tree shape, the exact optimal filter
 * allocation, and the costs of a design (R, V, Z, W, Q, θ, τ). The paper's closed forms live in
 * `monkey-closed-form.ts`, the holistic design search in `monkey-holistic.ts`.
 *
 * Conventions (reference monkey.md §0–2):
 * - Memory is in bytes at the API; the paper's bits appear only inside. Entry size E = 8·entryBytes bits.
 * - B = floor(pageBytes/entryBytes) entries per page; the buffer holds bufferBytes/entryBytes entries.
 * - The model's levels are the paper's: level i holds n_i = N·(T−1)/T^(L−i+1) entries, Σ n_i = N·(1−T^−L).
 * - `filterBitsPerEntry` is bits per stored entry: the filters hold filterBitsPerEntry·Σ n_i bits in total.
 *   `uniform` then gives every filter e^(−bits·ln²2), exactly the paper's state of the art (Eq 56),
 *   and `monkey` spends the same bits optimally, so the two coincide at L = 1 (reference P8).
 */
import { LN2_SQ } from './bloom';
import {
  monkeyPointLookupCostClosedForm,
  monkeyRangeLookupCostUnchecked,
  monkeyUpdateCostUnchecked,
  monkeyZeroResultCostClosedForm,
  uniformPointLookupCost,
  uniformZeroResultCost,
} from './monkey-closed-form';
import type { Dataset, Design, FilterAllocation, Hardware, Policy, Workload } from './types';
import { ModelInputError, requireFraction, requireNumber, requireOneOf, requireSumToOne } from './validate';

const POLICIES = ['leveling', 'tiering'] as const;
const ALLOCATIONS = ['monkey', 'uniform'] as const;
/** Largest filterBitsPerEntry a design may have; beyond ~50 bits the FPR is already < 1e-10. */
export const monkeyMaxFilterBitsPerEntry = 1000;

// ------------------------------------------------------------------ validation

function requireObject(field: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) throw new ModelInputError(field, `must be an object, got ${String(value)}`);
}

/** Validate a dataset: entries ≥ 1, entryBytes > 0, pageBytes ≥ entryBytes (so B ≥ 1). */
export function monkeyCheckDataset(dataset: Dataset): void {
  requireObject('dataset', dataset);
  requireNumber('dataset.entries', dataset.entries, 1, Infinity, { exclusiveMax: true });
  requireNumber('dataset.entryBytes', dataset.entryBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  requireNumber('dataset.pageBytes', dataset.pageBytes, dataset.entryBytes, Infinity, { exclusiveMax: true });
}

/** Validate a design: T ≥ 2, bufferBytes > 0, 0 ≤ filterBitsPerEntry ≤ 1000. */
export function monkeyCheckDesign(design: Design): void {
  requireObject('design', design);
  requireOneOf('design.policy', design.policy, POLICIES);
  requireNumber('design.sizeRatio', design.sizeRatio, 2, Infinity, { exclusiveMax: true });
  requireNumber('design.bufferBytes', design.bufferBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  requireNumber('design.filterBitsPerEntry', design.filterBitsPerEntry, 0, monkeyMaxFilterBitsPerEntry);
  requireOneOf('design.allocation', design.allocation, ALLOCATIONS);
}

/** Validate a workload: fractions, pointLookups + rangeLookups + updates = 1. */
export function monkeyCheckWorkload(workload: Workload): void {
  requireObject('workload', workload);
  requireSumToOne('workload', {
    pointLookups: workload.pointLookups,
    rangeLookups: workload.rangeLookups,
    updates: workload.updates,
  });
  requireFraction('workload.nonZeroFraction', workload.nonZeroFraction);
  requireFraction('workload.rangeSelectivity', workload.rangeSelectivity);
}

/** Validate hardware: φ ≥ 0, pageReadSeconds > 0. */
export function monkeyCheckHardware(hardware: Hardware): void {
  requireObject('hardware', hardware);
  requireNumber('hardware.writeReadCostRatio', hardware.writeReadCostRatio, 0, Infinity, { exclusiveMax: true });
  requireNumber('hardware.pageReadSeconds', hardware.pageReadSeconds, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
}

// ------------------------------------------------------------------ tree shape (Sec 2, Eq 1)

/** B, entries per page: floor(pageBytes/entryBytes) (whole entries only; ≥ 1). */
export function monkeyEntriesPerPage(dataset: Dataset): number {
  monkeyCheckDataset(dataset);
  return Math.floor(dataset.pageBytes / dataset.entryBytes);
}

/** Tlim = N·E/Mbuf (Sec 2): the size ratio at which the tree has a single level. Dimensionless. */
export function monkeySizeRatioLimit(dataset: Dataset, bufferBytes: number): number {
  monkeyCheckDataset(dataset);
  requireNumber('bufferBytes', bufferBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  return (dataset.entries * dataset.entryBytes) / bufferBytes;
}

/** Eq 1 without validation. The epsilon keeps exact powers of T from rounding up (pitfall P3). */
export function monkeyLevelsUnchecked(entries: number, entryBytes: number, bufferBytes: number, t: number): number {
  const x = ((entries * entryBytes) / bufferBytes) * ((t - 1) / t);
  if (x <= 1) return 1;
  return Math.max(1, Math.ceil(Math.log(x) / Math.log(t) - 1e-9));
}

/**
 * L, the number of on-disk levels (Eq 1): ceil(log_T(N·E/Mbuf·(T−1)/T)), at least 1.
 * Size ratios beyond Tlim behave like Tlim (one level).
 */
export function levelCount(dataset: Dataset, design: Pick<Design, 'sizeRatio' | 'bufferBytes'>): number {
  monkeyCheckDataset(dataset);
  requireObject('design', design);
  requireNumber('design.sizeRatio', design.sizeRatio, 2, Infinity, { exclusiveMax: true });
  requireNumber('design.bufferBytes', design.bufferBytes, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
  return monkeyLevelsUnchecked(dataset.entries, dataset.entryBytes, design.bufferBytes, design.sizeRatio);
}

/** Capacity of each level in entries, B·P·T^i = (Mbuf/E)·T^i, index 0 = level 1 (Fig 2). */
export function monkeyLevelCapacities(dataset: Dataset, design: Pick<Design, 'sizeRatio' | 'bufferBytes'>): number[] {
  const l = levelCount(dataset, design);
  const bufferEntries = design.bufferBytes / dataset.entryBytes;
  return Array.from({ length: l }, (_, i) => bufferEntries * Math.pow(design.sizeRatio, i + 1));
}

/** Entries the model puts in each level, n_i = N·(T−1)/T^(L−i+1), index 0 = level 1 (whole level). */
export function monkeyLevelEntries(dataset: Dataset, design: Pick<Design, 'sizeRatio' | 'bufferBytes'>): number[] {
  const l = levelCount(dataset, design);
  return levelEntriesUnchecked(dataset.entries, design.sizeRatio, l);
}

function levelEntriesUnchecked(n: number, t: number, l: number): number[] {
  const out = new Array<number>(l);
  for (let i = 1; i <= l; i++) out[i - 1] = (n * (t - 1)) / Math.pow(t, l - i + 1);
  return out;
}

// ------------------------------------------------------------------ exact allocation (reference §3.4)

/** A run as the allocator sees it: its entries, and how many lookups probe it per lookup (1 for zero-result). */
export interface MonkeyRun {
  entries: number;
  weight: number;
}

/**
 * The exact optimal FPR of every run (input order): minimise Σ w_j·p_j subject to
 * Σ n_j·ln(1/p_j)/ln²2 = filterBits, 0 < p_j ≤ 1 (KKT water-filling, p_j = min(1, λ·n_j/w_j)).
 * Works for any run sizes. Runs with no entries get FPR 0 (never probed); runs with weight 0 get 1
 * (a filter there buys nothing). filterBits in bits, ≥ 0. O(n log n).
 */
export function exactAllocation(runs: readonly MonkeyRun[], filterBits: number): number[] {
  if (!Array.isArray(runs)) throw new ModelInputError('runs', 'must be an array of { entries, weight }');
  const budget = requireNumber('filterBits', filterBits, 0, Infinity, { exclusiveMax: true });
  const count = runs.length;
  const fprs = new Array<number>(count).fill(1);
  const lnKey = new Float64Array(count);
  const order: number[] = [];
  for (let j = 0; j < count; j++) {
    requireObject(`runs[${j}]`, runs[j]);
    const n = requireNumber(`runs[${j}].entries`, runs[j].entries, 0, Infinity, { exclusiveMax: true });
    const w = requireNumber(`runs[${j}].weight`, runs[j].weight, 0, Infinity, { exclusiveMax: true });
    if (n === 0) fprs[j] = 0;
    else if (w > 0) {
      lnKey[j] = Math.log(n / w);
      order.push(j);
    }
  }
  if (budget === 0 || order.length === 0) return fprs;
  order.sort((a, b) => lnKey[a] - lnKey[b]);
  // Filter the k runs with the smallest n/w; the largest k whose last FPR is ≤ 1 is the optimum.
  let sumN = 0;
  let sumNLog = 0;
  const prefixN = new Float64Array(order.length);
  const prefixNLog = new Float64Array(order.length);
  for (let idx = 0; idx < order.length; idx++) {
    const j = order[idx];
    sumN += runs[j].entries;
    sumNLog += runs[j].entries * lnKey[j];
    prefixN[idx] = sumN;
    prefixNLog[idx] = sumNLog;
  }
  for (let k = order.length; k >= 1; k--) {
    const lnLambda = -(budget * LN2_SQ + prefixNLog[k - 1]) / prefixN[k - 1];
    if (lnLambda + lnKey[order[k - 1]] <= 1e-12) {
      for (let idx = 0; idx < k; idx++) fprs[order[idx]] = Math.min(1, Math.exp(lnLambda + lnKey[order[idx]]));
      return fprs;
    }
  }
  return fprs;
}

export interface MonkeyAutotuneResult {
  fprs: number[];
  /** Bits given to each run's filter. */
  bits: number[];
  /** Σ w_j·p_j at the end. */
  cost: number;
}

/**
 * Algorithm 2–4 (App B, AutotuneFilters, typos fixed as in reference §3.3), with run weights:
 * start with every bit on run 0, move Δ bits between pairs while that lowers Σ w·p, halve Δ when
 * no move helps, stop below one bit. A cross-check for `exactAllocation`: O(n²·log filterBits)
 * sweeps, so only for small inputs. Every run needs entries > 0.
 */
export function monkeyAutotuneFilters(runs: readonly MonkeyRun[], filterBits: number): MonkeyAutotuneResult {
  if (!Array.isArray(runs) || runs.length === 0) throw new ModelInputError('runs', 'must be a non-empty array of { entries, weight }');
  const budget = requireNumber('filterBits', filterBits, 0, Infinity, { exclusiveMax: true });
  runs.forEach((run, j) => {
    requireNumber(`runs[${j}].entries`, run.entries, 0, Infinity, { exclusiveMin: true, exclusiveMax: true });
    requireNumber(`runs[${j}].weight`, run.weight, 0, Infinity, { exclusiveMax: true });
  });
  const evalRun = (j: number, b: number): number => runs[j].weight * Math.exp(-(b / runs[j].entries) * LN2_SQ);
  const bits = runs.map(() => 0);
  bits[0] = budget;
  let cost = bits.reduce((acc, b, j) => acc + evalRun(j, b), 0);
  let delta = budget;
  const tryMove = (to: number, from: number): void => {
    if (bits[from] - delta < 0) return;
    const next =
      cost - evalRun(to, bits[to]) - evalRun(from, bits[from]) + evalRun(to, bits[to] + delta) + evalRun(from, bits[from] - delta);
    if (next < cost) {
      cost = next;
      bits[to] += delta;
      bits[from] -= delta;
    }
  };
  let passesAtDelta = 0;
  while (delta >= 1) {
    const before = cost;
    for (let i = 0; i < runs.length - 1; i++) {
      for (let j = i + 1; j < runs.length; j++) {
        tryMove(i, j);
        tryMove(j, i);
      }
    }
    passesAtDelta += 1;
    // The pass cap only guards against float ping-pong; the algorithm halves Δ on its own.
    if (cost === before || passesAtDelta > 10_000) {
      delta /= 2;
      passesAtDelta = 0;
    }
  }
  const fprs = bits.map((b, j) => Math.exp(-(b / runs[j].entries) * LN2_SQ));
  return { fprs, bits, cost: fprs.reduce((acc, p, j) => acc + runs[j].weight * p, 0) };
}

// ------------------------------------------------------------------ per-level FPRs and costs

/**
 * Probes per level a point lookup makes under the mix, as allocator weights (Sec 4.4): r for every
 * level but the last; r − f (leveling) or r − f·T/2 (tiering) for level L, whose filter a non-zero
 * lookup does not pay for when it finds its target there.
 */
function levelWeights(policy: Policy, t: number, l: number, f: number): number[] {
  const r = policy === 'leveling' ? 1 : t - 1;
  const w = new Array<number>(l).fill(r);
  w[l - 1] = r - f * (policy === 'leveling' ? 1 : t / 2);
  return w;
}

function fprsUnchecked(dataset: Dataset, design: Design, f: number, l: number): number[] {
  if (design.allocation === 'uniform') return new Array<number>(l).fill(Math.exp(-design.filterBitsPerEntry * LN2_SQ));
  const entries = levelEntriesUnchecked(dataset.entries, design.sizeRatio, l);
  const weights = levelWeights(design.policy, design.sizeRatio, l, f);
  const stored = entries.reduce((a, b) => a + b, 0);
  return exactAllocation(
    entries.map((n, i) => ({ entries: n, weight: weights[i] })),
    design.filterBitsPerEntry * stored,
  );
}

/**
 * FPR of the filters at each level (every run of a level alike), index 0 = level 1.
 * `uniform`: e^(−bits·ln²2) everywhere (the state of the art). `monkey`: the exact optimum for the
 * model's level sizes, minimising zero-result cost, or the mix's point-lookup cost Z when a workload
 * with non-zero-result lookups is given (Monkey_general).
 */
export function filterFprs(dataset: Dataset, design: Design, workload?: Workload): number[] {
  monkeyCheckDataset(dataset);
  monkeyCheckDesign(design);
  if (workload !== undefined) monkeyCheckWorkload(workload);
  const l = monkeyLevelsUnchecked(dataset.entries, dataset.entryBytes, design.bufferBytes, design.sizeRatio);
  return fprsUnchecked(dataset, design, workload?.nonZeroFraction ?? 0, l);
}

/** The costs of a design under a workload, in page I/Os per operation of each kind. */
export interface MonkeyCosts {
  /** R: expected I/O of a point lookup that finds nothing (Eq 3). */
  zeroResultLookup: number;
  /** V: I/O of a point lookup whose key is in level L (Eq 13's non-zero term; Eq 9 for leveling). */
  nonZeroResultLookup: number;
  /** Z: point lookup under the mix, (1−f)·R + f·V (Eq 13). */
  pointLookup: number;
  /** W: amortised worst-case I/O per update, writes weighted by φ (Eq 10). */
  update: number;
  /** Q: I/O of a range lookup (Eq 11). */
  rangeLookup: number;
  /** θ = z·Z + q·Q + w·W, average I/O per operation (Eq 21). */
  perOperation: number;
  /** τ = 1/(θ·Ω), operations per second (Eq 22); +∞ only if θ = 0. */
  throughput: number;
  /** L (Eq 1). */
  levels: number;
  /** FPR per level, index 0 = level 1. */
  fprs: number[];
}

/**
 * Every cost of a design (Eqs 3, 9–13, 21, 22) on the model's tree, with the FPRs of `filterFprs`.
 * Tiering counts T−1 runs per level; the non-zero lookup's target sits in level L.
 */
export function costs(dataset: Dataset, design: Design, workload: Workload, hardware: Hardware): MonkeyCosts {
  monkeyCheckDataset(dataset);
  monkeyCheckDesign(design);
  monkeyCheckWorkload(workload);
  monkeyCheckHardware(hardware);
  const { policy, sizeRatio: t } = design;
  const l = monkeyLevelsUnchecked(dataset.entries, dataset.entryBytes, design.bufferBytes, t);
  const f = workload.nonZeroFraction;
  const fprs = fprsUnchecked(dataset, design, f, l);
  const r = policy === 'leveling' ? 1 : t - 1;
  let sum = 0;
  for (const p of fprs) sum += p;
  const zero = r * sum;
  const nonZero = 1 + zero - fprs[l - 1] * (policy === 'leveling' ? 1 : t / 2);
  const point = (1 - f) * zero + f * nonZero;
  const b = Math.floor(dataset.pageBytes / dataset.entryBytes);
  const update = monkeyUpdateCostUnchecked(policy, t, l, b, hardware.writeReadCostRatio);
  const range = monkeyRangeLookupCostUnchecked(policy, t, l, dataset.entries, b, workload.rangeSelectivity);
  const perOperation = workload.pointLookups * point + workload.rangeLookups * range + workload.updates * update;
  const throughput = perOperation === 0 ? Infinity : 1 / (perOperation * hardware.pageReadSeconds);
  return { zeroResultLookup: zero, nonZeroResultLookup: nonZero, pointLookup: point, update, rangeLookup: range, perOperation, throughput, levels: l, fprs };
}

/**
 * I/O of a point lookup whose target is in level j, for j = 1..L (Fig 13(B)): 1 + r·Σ_{i<j} p_i, plus
 * on average (T−2)/2 younger runs of level j itself under tiering. Index 0 = level 1; the last is V.
 */
export function monkeyLookupCostByTargetLevel(policy: Policy, sizeRatio: number, fprs: readonly number[]): number[] {
  requireOneOf('policy', policy, POLICIES);
  const t = requireNumber('sizeRatio', sizeRatio, 2, Infinity, { exclusiveMax: true });
  const r = policy === 'leveling' ? 1 : t - 1;
  let above = 0;
  return fprs.map((p, i) => {
    requireFraction(`fprs[${i}]`, p);
    const cost = 1 + r * above + (policy === 'leveling' ? 0 : ((t - 2) / 2) * p);
    above += p;
    return cost;
  });
}

// ------------------------------------------------------------------ what-if curves

/** What a what-if curve varies. `bufferBytesAtFixedMemory` moves memory between buffer and filters. */
export type MonkeyWhatIfAxis =
  | 'filterBitsPerEntry'
  | 'entries'
  | 'entryBytes'
  | 'sizeRatio'
  | 'bufferBytes'
  | 'bufferBytesAtFixedMemory'
  | 'nonZeroFraction';

export interface MonkeyWhatIfPoint {
  /** The axis value. */
  x: number;
  levels: number;
  filterBitsPerEntry: number;
  bufferBytes: number;
  /** Exact model, Monkey's allocation. */
  monkey: MonkeyCosts;
  /** Exact model, every filter alike (state of the art). */
  uniform: MonkeyCosts;
  /** The paper's curves at the same point: Eq 7, Eq 19/20, Eq 56 and Eq 13+56. */
  closedForm: { monkeyZeroResult: number; monkeyPointLookup: number; uniformZeroResult: number; uniformPointLookup: number };
}

/**
 * Costs along one axis, the rest of the inputs fixed: both allocations on the exact model and the
 * paper's closed forms. With `bufferBytesAtFixedMemory` the total bufferBytes + filterBitsPerEntry·N/8
 * of `design` is kept and each x is a buffer size in bytes (the rest goes to filters).
 */
export function monkeyWhatIf(
  dataset: Dataset,
  design: Design,
  workload: Workload,
  hardware: Hardware,
  axis: MonkeyWhatIfAxis,
  values: readonly number[],
): MonkeyWhatIfPoint[] {
  monkeyCheckDataset(dataset);
  monkeyCheckDesign(design);
  monkeyCheckWorkload(workload);
  monkeyCheckHardware(hardware);
  requireOneOf('axis', axis, [
    'filterBitsPerEntry',
    'entries',
    'entryBytes',
    'sizeRatio',
    'bufferBytes',
    'bufferBytesAtFixedMemory',
    'nonZeroFraction',
  ] as const);
  const totalBytes = design.bufferBytes + (design.filterBitsPerEntry * dataset.entries) / 8;
  return values.map((x, idx) => {
    requireNumber(`values[${idx}]`, x, -Infinity, Infinity, { exclusiveMax: true });
    const d = { ...dataset };
    const g = { ...design };
    const w = { ...workload };
    if (axis === 'filterBitsPerEntry') g.filterBitsPerEntry = x;
    else if (axis === 'entries') d.entries = x;
    else if (axis === 'entryBytes') d.entryBytes = x;
    else if (axis === 'sizeRatio') g.sizeRatio = x;
    else if (axis === 'bufferBytes') g.bufferBytes = x;
    else if (axis === 'nonZeroFraction') w.nonZeroFraction = x;
    else {
      requireNumber(`values[${idx}]`, x, 0, totalBytes, { exclusiveMin: true });
      g.bufferBytes = x;
      g.filterBitsPerEntry = Math.max(0, ((totalBytes - x) * 8) / dataset.entries);
    }
    const monkey = costs(d, { ...g, allocation: 'monkey' }, w, hardware);
    const uniform = costs(d, { ...g, allocation: 'uniform' }, w, hardware);
    const shape = { policy: g.policy, sizeRatio: g.sizeRatio, levels: monkey.levels };
    const bits = g.filterBitsPerEntry;
    return {
      x,
      levels: monkey.levels,
      filterBitsPerEntry: bits,
      bufferBytes: g.bufferBytes,
      monkey,
      uniform,
      closedForm: {
        monkeyZeroResult: monkeyZeroResultCostClosedForm(shape, bits).cost,
        monkeyPointLookup: monkeyPointLookupCostClosedForm(shape, bits, w.nonZeroFraction).cost,
        uniformZeroResult: uniformZeroResultCost(shape, bits),
        uniformPointLookup: uniformPointLookupCost(shape, bits, w.nonZeroFraction),
      },
    };
  });
}

/** `count` values from `min` to `max` inclusive, evenly spaced on a linear or log scale (for what-if axes). */
export function monkeySweepValues(min: number, max: number, count: number, scale: 'linear' | 'log' = 'linear'): number[] {
  requireNumber('count', count, 2, 100_000, { integer: true });
  requireOneOf('scale', scale, ['linear', 'log'] as const);
  requireNumber('min', min, scale === 'log' ? 0 : -Infinity, Infinity, { exclusiveMin: scale === 'log', exclusiveMax: true });
  requireNumber('max', max, min, Infinity, { exclusiveMax: true });
  return Array.from({ length: count }, (_, i) => {
    const u = i / (count - 1);
    return scale === 'log' ? min * Math.pow(max / min, u) : min + (max - min) * u;
  });
}

// ------------------------------------------------------------------ Table 4: system defaults

const MIB = 1024 * 1024;

/** A system's default design in Monkey's space (Table 4, App K). The paper's "MB" are MiB (P16). */
export interface MonkeySystemDefault {
  name: 'LevelDB' | 'RocksDB' | 'Cassandra' | 'HBase' | 'Accumulo';
  policy: Policy;
  sizeRatio: number;
  filterBitsPerEntry: number;
  bufferBytes: number;
  /** True where Table 4 gives no fixed buffer (Cassandra: ∝ memory); 64 MiB is then assumed, as reference V14. */
  bufferAssumed: boolean;
  /** Which knobs the system fixes (Table 4's "fixed"/"semi-fixed"). */
  fixed: string;
  /** How the system's own settings map to policy and T (App K). */
  knobs: string;
}

/** Table 4: the default designs of five key-value stores, all with every filter alike. */
export const monkeySystemDefaults: readonly MonkeySystemDefault[] = Object.freeze([
  {
    name: 'LevelDB',
    policy: 'leveling',
    sizeRatio: 10,
    filterBitsPerEntry: 10,
    bufferBytes: 2 * MIB,
    bufferAssumed: false,
    fixed: 'size ratio and policy hard-coded',
    knobs: 'no merge knobs: T = 10, leveling',
  },
  {
    name: 'RocksDB',
    policy: 'leveling',
    sizeRatio: 10,
    filterBitsPerEntry: 10,
    bufferBytes: 64 * MIB,
    bufferAssumed: false,
    fixed: 'leveling only (kCompactionStyleLevel)',
    knobs: 'T = target_file_size_multiplier (default 10); universal compaction size_ratio = (T − 2)·100',
  },
  {
    name: 'Cassandra',
    policy: 'tiering',
    sizeRatio: 4,
    filterBitsPerEntry: 10,
    bufferBytes: 64 * MIB,
    bufferAssumed: true,
    fixed: 'tiering with any T; leveling only with T = 10 (semi-fixed)',
    knobs: 'SizeTieredCompactionStrategy min_threshold = T (default 4); memtable ∝ memory',
  },
  {
    name: 'HBase',
    policy: 'leveling',
    sizeRatio: 2,
    filterBitsPerEntry: 10,
    bufferBytes: 128 * MIB,
    bufferAssumed: false,
    fixed: 'nothing',
    knobs: 'hbase.store.compaction.ratio = T − 1 (leveling) or 1/(T − 1) (tiering); default 1.2 ≈ T = 2',
  },
  {
    name: 'Accumulo',
    policy: 'leveling',
    sizeRatio: 4,
    filterBitsPerEntry: 11,
    bufferBytes: 1024 * MIB,
    bufferAssumed: false,
    fixed: 'nothing',
    knobs: 'table.compaction.major.ratio, as HBase; default 3 = leveling with T = 4',
  },
] satisfies MonkeySystemDefault[]);

/** A Table 4 system as a `Design` (allocation `uniform` as shipped, or `monkey` for the what-if). */
export function monkeySystemDesign(system: MonkeySystemDefault, allocation: FilterAllocation = 'uniform'): Design {
  requireObject('system', system);
  requireOneOf('allocation', allocation, ALLOCATIONS);
  return {
    policy: system.policy,
    sizeRatio: system.sizeRatio,
    bufferBytes: system.bufferBytes,
    filterBitsPerEntry: system.filterBitsPerEntry,
    allocation,
  };
}
