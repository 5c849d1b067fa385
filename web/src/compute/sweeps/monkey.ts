/**
 * The numbers behind the "Monkey vs state of the art" page: Monkey's exact allocation and the
 * uniform baseline (models/src/monkey.ts) next to the paper's closed forms (monkey-closed-form.ts),
 * along the axes of Monkey Fig 7, Fig 12(A), Fig 9 and Fig 13(A).
 *
 * Every function composes model functions; the only arithmetic here is the composition itself
 * (a zero-tuned allocation evaluated on a mixed workload, argmins, flags for "the closed form
 * differs from the exact model").
 */
import {
  bitsPerKeyFromFpr,
  costs,
  filterFprs,
  memoryThresholdBits,
  memoryThresholdBitsPerEntry,
  ModelInputError,
  monkeyFprsForZeroResultCost,
  monkeyLevelEntries,
  monkeyMixedPointLookupCost,
  monkeyPointLookupCostClosedForm,
  monkeyRunsPerLevel,
  monkeyWhatIf,
  monkeyZeroResultCostClosedForm,
  monkeyZeroTunedPointLookupCost,
  uniformPointLookupCost,
  uniformZeroResultCost,
  type Dataset,
  type Design,
  type Hardware,
  type MonkeyWhatIfPoint,
  type Workload,
} from '@lsm/models';

/** A design without its allocation: the page always shows both. */
export type MonkeyPageDesign = Omit<Design, 'allocation'>;

/** Zero-result point lookups only: what Fig 7, 9 and 12 plot. */
export const ZERO_RESULT_WORKLOAD: Workload = {
  pointLookups: 1,
  nonZeroFraction: 0,
  rangeLookups: 0,
  updates: 0,
  rangeSelectivity: 0,
};

/** φ = 1 (a disk), as in the paper's figures; the page read time does not enter I/O counts. */
export const UNIT_HARDWARE: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };

function workloadWith(nonZeroFraction: number): Workload {
  return { ...ZERO_RESULT_WORKLOAD, nonZeroFraction };
}

function withAllocation(design: MonkeyPageDesign, allocation: Design['allocation']): Design {
  return { ...design, allocation };
}

/** Relative gap above which the page shows a closed form as its own curve. */
const DIFFERS = 1e-9;

/** True when some closed-form value differs from the exact one by more than rounding. */
export function closedFormDiffers(exact: readonly number[], closed: readonly number[]): boolean {
  return exact.some((v, i) => Math.abs(v - closed[i]) > DIFFERS * Math.max(1, Math.abs(v)));
}

/** Index of the smallest value (the "sweet spot" of a U-shaped curve). */
export function argMin(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] < values[best]) best = i;
  return best;
}

// ------------------------------------------------------------------ Fig 7: cost vs filter memory

export interface MemorySweepArgs {
  dataset: Dataset;
  design: Omit<MonkeyPageDesign, 'filterBitsPerEntry'>;
  maxBitsPerEntry: number;
  points: number;
}

function zeroResultSeries(points: readonly MonkeyWhatIfPoint[]) {
  const monkey = points.map((p) => p.monkey.zeroResultLookup);
  const uniform = points.map((p) => p.uniform.zeroResultLookup);
  const monkeyEq7 = points.map((p) => p.closedForm.monkeyZeroResult);
  const uniformEq56 = points.map((p) => p.closedForm.uniformZeroResult);
  return {
    monkey,
    uniform,
    monkeyEq7,
    uniformEq56,
    monkeyDiffers: closedFormDiffers(monkey, monkeyEq7),
    uniformDiffers: closedFormDiffers(uniform, uniformEq56),
    levels: points.map((p) => p.levels),
  };
}

/** Zero-result lookup cost R against filter bits per entry (Monkey Fig 7), both allocations. */
export function memorySweep({ dataset, design, maxBitsPerEntry, points }: MemorySweepArgs) {
  const bits = Array.from({ length: points }, (_, i) => (maxBitsPerEntry * i) / (points - 1));
  const full = withAllocation({ ...design, filterBitsPerEntry: 0 }, 'monkey');
  const curve = monkeyWhatIf(dataset, full, ZERO_RESULT_WORKLOAD, UNIT_HARDWARE, 'filterBitsPerEntry', bits);
  return { bits, ...zeroResultSeries(curve) };
}

// ------------------------------------------------------------------ Fig 12(A): cost vs data size

/** Entry counts from 2^9.5 to 2^44 in half powers of two: every doubling, as in Fig 12(A). */
export const DATA_SIZE_GRID: readonly number[] = Array.from({ length: 70 }, (_, i) => Math.pow(2, 9.5 + i / 2));

export interface DataSizeSweepArgs {
  /** Entry and page size; the entry count is the swept axis. */
  dataset: Omit<Dataset, 'entries'>;
  design: MonkeyPageDesign;
}

/** R against the number of entries: the uniform baseline grows with L ∝ log N, Monkey stays flat. */
export function dataSizeSweep({ dataset, design }: DataSizeSweepArgs) {
  const entries = [...DATA_SIZE_GRID];
  const curve = monkeyWhatIf(
    { ...dataset, entries: entries[0] },
    withAllocation(design, 'monkey'),
    ZERO_RESULT_WORKLOAD,
    UNIT_HARDWARE,
    'entries',
    entries,
  );
  return { entries, ...zeroResultSeries(curve) };
}

// ------------------------------------------------------------------ Fig 9: cost vs buffer at fixed memory

export interface BufferSweepArgs {
  dataset: Dataset;
  design: MonkeyPageDesign;
  points: number;
}

/**
 * R and W against the buffer size with buffer + filters fixed at the current total (Monkey Fig 9):
 * from one page to all of the memory, log-spaced, plus the current buffer itself.
 */
export function bufferSweep({ dataset, design, points }: BufferSweepArgs) {
  const totalBytes = design.bufferBytes + (design.filterBitsPerEntry * dataset.entries) / 8;
  const lo = dataset.pageBytes;
  if (!(totalBytes > lo)) {
    throw new ModelInputError('memory', `buffer + filters must exceed one page (${lo} bytes) to sweep the buffer size`);
  }
  const grid = Array.from({ length: points }, (_, i) => lo * Math.pow(totalBytes / lo, i / (points - 1)));
  const buffer = [...new Set([...grid, design.bufferBytes])].filter((b) => b >= lo && b <= totalBytes).sort((a, b) => a - b);
  const curve = monkeyWhatIf(
    dataset,
    withAllocation(design, 'monkey'),
    ZERO_RESULT_WORKLOAD,
    UNIT_HARDWARE,
    'bufferBytesAtFixedMemory',
    buffer,
  );
  const series = zeroResultSeries(curve);
  return {
    buffer,
    totalBytes,
    ...series,
    update: curve.map((p) => p.monkey.update),
    filterBitsPerEntry: curve.map((p) => p.filterBitsPerEntry),
    uniformBest: argMin(series.uniform),
    monkeyBest: argMin(series.monkey),
  };
}

// ------------------------------------------------------------------ Sec 4.4 / Fig 13(A): the lookup mix

export interface MixSweepArgs {
  dataset: Dataset;
  design: MonkeyPageDesign;
  points: number;
}

/**
 * Monkey_zero's FPRs evaluated on a mix: the allocation tuned for zero-result lookups, costed with
 * Eq 13 on the exact tree.
 */
function zeroTunedOnMix(dataset: Dataset, design: MonkeyPageDesign, fprs: readonly number[], f: number): number {
  const r = monkeyRunsPerLevel(design.policy, design.sizeRatio);
  const zero = r * fprs.reduce((a, b) => a + b, 0);
  return monkeyMixedPointLookupCost(design.policy, design.sizeRatio, zero, fprs[fprs.length - 1], f);
}

/** Point-lookup cost Z against the share of lookups that find their key (Sec 4.4, Fig 13(A)). */
export function mixSweep({ dataset, design, points }: MixSweepArgs) {
  const share = Array.from({ length: points }, (_, i) => i / (points - 1));
  const curve = monkeyWhatIf(dataset, withAllocation(design, 'monkey'), ZERO_RESULT_WORKLOAD, UNIT_HARDWARE, 'nonZeroFraction', share);
  const zeroFprs = filterFprs(dataset, withAllocation(design, 'monkey'));
  const shape = { policy: design.policy, sizeRatio: design.sizeRatio, levels: zeroFprs.length };
  const general = curve.map((p) => p.monkey.pointLookup);
  const generalEq = curve.map((p) => p.closedForm.monkeyPointLookup);
  const zero = share.map((f) => zeroTunedOnMix(dataset, design, zeroFprs, f));
  const zeroEq = share.map((f) => monkeyZeroTunedPointLookupCost(shape, design.filterBitsPerEntry, f));
  const uniform = curve.map((p) => p.uniform.pointLookup);
  const uniformEq = curve.map((p) => p.closedForm.uniformPointLookup);
  return {
    share,
    general,
    zero,
    uniform,
    generalEq,
    zeroEq,
    uniformEq,
    generalDiffers: closedFormDiffers(general, generalEq),
    zeroDiffers: closedFormDiffers(zero, zeroEq),
    uniformDiffers: closedFormDiffers(uniform, uniformEq),
  };
}

// ------------------------------------------------------------------ the current setting (main thread)

export interface CurrentArgs {
  dataset: Dataset;
  design: MonkeyPageDesign;
  /** Share of point lookups that find their key, for the Z read-outs. */
  nonZeroFraction: number;
}

export interface LevelRow {
  level: number;
  entries: number;
  runs: number;
  uniformFpr: number;
  uniformBits: number;
  monkeyFpr: number;
  monkeyBits: number;
  /** Eq 5/6 at Eq 7's R (the paper's closed-form FPRs). */
  closedFormFpr: number;
  closedFormBits: number;
}

/** Bits per entry for an FPR; a level without a filter (p = 1) has 0. */
function bitsFor(p: number): number {
  return p >= 1 ? 0 : bitsPerKeyFromFpr(p);
}

/** Everything the page shows for the current setting: per-level allocation and headline costs. */
export function currentView({ dataset, design, nonZeroFraction }: CurrentArgs) {
  const monkeyDesign = withAllocation(design, 'monkey');
  const uniformDesign = withAllocation(design, 'uniform');
  const monkey = costs(dataset, monkeyDesign, ZERO_RESULT_WORKLOAD, UNIT_HARDWARE);
  const uniform = costs(dataset, uniformDesign, ZERO_RESULT_WORKLOAD, UNIT_HARDWARE);
  const mix = workloadWith(nonZeroFraction);
  const general = costs(dataset, monkeyDesign, mix, UNIT_HARDWARE);
  const uniformMix = costs(dataset, uniformDesign, mix, UNIT_HARDWARE);
  const levels = monkey.levels;
  const shape = { policy: design.policy, sizeRatio: design.sizeRatio, levels };
  const bits = design.filterBitsPerEntry;
  const eq7 = monkeyZeroResultCostClosedForm(shape, bits);
  const closedFprs =
    eq7.cost > 0 ? monkeyFprsForZeroResultCost(shape, eq7.cost, 'large-L') : new Array<number>(levels).fill(0);
  const entries = monkeyLevelEntries(dataset, design);
  const runs = monkeyRunsPerLevel(design.policy, design.sizeRatio);
  const rows: LevelRow[] = entries.map((n, i) => ({
    level: i + 1,
    entries: n,
    runs,
    uniformFpr: uniform.fprs[i],
    uniformBits: bitsFor(uniform.fprs[i]),
    monkeyFpr: monkey.fprs[i],
    monkeyBits: bitsFor(monkey.fprs[i]),
    closedFormFpr: closedFprs[i],
    closedFormBits: closedFprs[i] > 0 ? bitsFor(closedFprs[i]) : Infinity,
  }));
  return {
    filterBitsPerEntry: bits,
    nonZeroFraction,
    levels,
    rows,
    filterBytes: (bits * dataset.entries) / 8,
    totalBytes: design.bufferBytes + (bits * dataset.entries) / 8,
    thresholdBitsPerEntry: memoryThresholdBitsPerEntry(design.sizeRatio),
    thresholdBytes: memoryThresholdBits(dataset.entries, design.sizeRatio) / 8,
    exact: {
      monkeyR: monkey.zeroResultLookup,
      uniformR: uniform.zeroResultLookup,
      /** Levels whose optimal filter is no filter at all (p = 1). */
      unfilteredLevels: monkey.fprs.filter((p) => p >= 1).length,
      monkeyV: monkey.nonZeroResultLookup,
      uniformV: uniform.nonZeroResultLookup,
      generalZ: general.pointLookup,
      uniformZ: uniformMix.pointLookup,
      update: monkey.update,
    },
    closedForm: {
      monkeyR: eq7.cost,
      uniformR: uniformZeroResultCost(shape, bits),
      unfilteredLevels: eq7.unfilteredLevels,
      generalZ: monkeyPointLookupCostClosedForm(shape, bits, nonZeroFraction).cost,
      uniformZ: uniformPointLookupCost(shape, bits, nonZeroFraction),
    },
  };
}

export type CurrentView = ReturnType<typeof currentView>;

export const monkeySweeps = {
  'monkey.current': currentView,
  'monkey.memory': memorySweep,
  'monkey.dataSize': dataSizeSweep,
  'monkey.buffer': bufferSweep,
  'monkey.mix': mixSweep,
};
