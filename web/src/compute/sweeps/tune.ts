/**
 * The Tune page's model work: the current design's costs, the nominal and the robust (Endure)
 * designs for the same memory, and how all three fare over 1,000 workloads drawn from the
 * ρ-neighbourhood of the expected one. Pure functions of plain data, run in the model worker.
 */
import {
  classMix,
  costs,
  monkeyLevelsUnchecked,
  robustTuning,
  sampleNeighbourhood,
  worstCase,
  type ClassMix,
  type Dataset,
  type Design,
  type Hardware,
  type Workload,
} from '@lsm/models';

export const TUNE_HARDWARE: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
export const NEIGHBOUR_SAMPLES = 1_000;
/** The engine's (and RocksDB's useful) most bits per key: recommendations stay within it. */
export const ENGINE_MAX_BITS = 64;
/** The engine's largest size ratio (config.rs SIZE_RATIO_RANGE). */
export const ENGINE_MAX_RATIO = 1000;

/**
 * Levels the engine builds for N entries of E bytes with buffer M and ratio T: the fewest L with
 * M·(T + T² + … + T^L) ≥ N·E (compaction.rs: level i holds M·T^i bytes).
 */
export function engineLevelCount(dataset: Dataset, bufferBytes: number, sizeRatio: number): number {
  const data = dataset.entries * dataset.entryBytes;
  let capacity = bufferBytes;
  let total = 0;
  let levels = 0;
  while (total < data && levels < 64) {
    capacity *= sizeRatio;
    total += capacity;
    levels += 1;
  }
  return Math.max(1, levels);
}

/**
 * Designs the model can be trusted to price: the engine can build them, and Monkey's level count
 * (which leaves out the last level's slack) equals the engine's. Where they differ, measured runs
 * showed the model choosing filterless designs whose extra level it did not see.
 */
export function priceable(dataset: Dataset, d: Design): boolean {
  return (
    d.sizeRatio <= ENGINE_MAX_RATIO &&
    monkeyLevelsUnchecked(dataset.entries, dataset.entryBytes, d.bufferBytes, d.sizeRatio) === engineLevelCount(dataset, d.bufferBytes, d.sizeRatio)
  );
}

export interface TuneArgs {
  dataset: Dataset;
  workload: Workload;
  memoryBytes: number;
  rho: number;
  current: Design;
}

export interface PricedDesign {
  design: Design;
  /** R, V, Q, W: I/O per operation of each class. */
  classCosts: [number, number, number, number];
  /** At the expected workload. */
  expected: number;
  /** The worst expected cost within ρ. */
  worst: number;
}

export interface TuneView {
  current: PricedDesign;
  nominal: PricedDesign;
  robust: PricedDesign;
  /** Robust over nominal at the expected workload, minus 1. */
  expectedLoss: number;
  candidates: number;
  /** Each design's cost on the sampled workloads, sorted ascending (for a distribution chart). */
  sampled: { current: number[]; nominal: number[]; robust: number[] };
  millis: number;
}

function priced(design: Design, classCosts: [number, number, number, number], w: ClassMix, rho: number): PricedDesign {
  const wc = worstCase(classCosts, w, rho);
  return { design, classCosts, expected: wc.nominal, worst: wc.cost };
}

export function tuneRecommend(a: TuneArgs): TuneView {
  const started = performance.now();
  const w = classMix(a.workload);
  const k = costs(a.dataset, a.current, a.workload, TUNE_HARDWARE);
  const current = priced(a.current, [k.zeroResultLookup, k.nonZeroResultLookup, k.rangeLookup, k.update], w, a.rho);
  const t = robustTuning(a.dataset, a.workload, TUNE_HARDWARE, a.memoryBytes, a.rho, {
    maxBitsPerEntry: ENGINE_MAX_BITS,
    extraCandidates: [a.current],
    accept: (d) => d === a.current || priceable(a.dataset, d),
  });
  const nominal = priced(t.nominal.design, t.nominal.classCosts, w, a.rho);
  const robust = priced(t.robust.design, t.robust.classCosts, w, a.rho);
  const samples = sampleNeighbourhood(w, a.rho, NEIGHBOUR_SAMPLES, 1);
  const on = (c: readonly number[]) => samples.map((m) => m.reduce((s, x, i) => s + x * c[i], 0)).sort((x, y) => x - y);
  return {
    current,
    nominal,
    robust,
    expectedLoss: t.expectedLoss,
    candidates: t.candidates,
    sampled: { current: on(current.classCosts), nominal: on(nominal.classCosts), robust: on(robust.classCosts) },
    millis: performance.now() - started,
  };
}

export const tuneSweeps = { 'tune.recommend': tuneRecommend };
