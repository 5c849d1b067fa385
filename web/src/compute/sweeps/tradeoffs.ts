/**
 * The numbers behind the "Trade-off curves and holistic design" page: lookup against update cost
 * for every size ratio (Monkey Fig 4 / Fig 8), the Table 4 systems as points, the holistic design
 * of Algorithm 1 for a workload, and throughput against memory with each optimisation step as its
 * own line (Fig 11).
 *
 * Helpers here compose model functions: the 95/5 memory rule of prior work, and the "hybrid" step
 * (size ratio and policy tuned, memory split fixed) that Fig 11 draws but the models do not name.
 */
import {
  costs,
  holisticDesign,
  monkeySizeRatioLimit,
  monkeySystemDefaults,
  monkeySystemDesign,
  type Dataset,
  type Design,
  type FilterAllocation,
  type Hardware,
  type MonkeyHolisticResult,
  type MonkeySla,
  type Policy,
  type Workload,
} from '@lsm/models';

const POLICIES: readonly Policy[] = ['leveling', 'tiering'];
const ALLOCATIONS: readonly FilterAllocation[] = ['monkey', 'uniform'];

// ------------------------------------------------------------------ Fig 4 / Fig 8: the trade-off curves

export interface CurvesArgs {
  dataset: Dataset;
  workload: Workload;
  hardware: Hardware;
  bufferBytes: number;
  filterBitsPerEntry: number;
}

export interface TradeoffPoint {
  sizeRatio: number;
  levels: number;
  /** W, I/O per update. */
  update: number;
  /** R, I/O per zero-result lookup. */
  lookup: number;
}

/**
 * Size ratios from 2 to Tlim = N·E/Mbuf: every integer up to 16 (where designs differ most), then
 * log-spaced to Tlim, where leveling becomes a sorted array and tiering a log (Fig 4).
 */
export function sizeRatioGrid(dataset: Dataset, bufferBytes: number, logPoints = 48): number[] {
  const limit = Math.max(2, monkeySizeRatioLimit(dataset, bufferBytes));
  const out = new Set<number>();
  for (let t = 2; t <= Math.min(16, limit); t++) out.add(t);
  if (limit > 16) for (let i = 0; i <= logPoints; i++) out.add(16 * Math.pow(limit / 16, i / logPoints));
  out.add(limit);
  return [...out].sort((a, b) => a - b);
}

function tradeoffPoint(dataset: Dataset, design: Design, workload: Workload, hardware: Hardware): TradeoffPoint {
  const c = costs(dataset, design, workload, hardware);
  return { sizeRatio: design.sizeRatio, levels: c.levels, update: c.update, lookup: c.zeroResultLookup };
}

/** One curve per policy × allocation at the given buffer and filter memory, plus the Table 4 systems. */
export function tradeoffCurves({ dataset, workload, hardware, bufferBytes, filterBitsPerEntry }: CurvesArgs) {
  const grid = sizeRatioGrid(dataset, bufferBytes);
  const curves = POLICIES.flatMap((policy) =>
    ALLOCATIONS.map((allocation) => ({
      policy,
      allocation,
      points: grid.map((sizeRatio) =>
        tradeoffPoint(dataset, { policy, allocation, sizeRatio, bufferBytes, filterBitsPerEntry }, workload, hardware),
      ),
    })),
  );
  const systems = monkeySystemDefaults.map((s) => ({
    name: s.name,
    policy: s.policy,
    bufferAssumed: s.bufferAssumed,
    ...tradeoffPoint(dataset, monkeySystemDesign(s, 'uniform'), workload, hardware),
  }));
  return { sizeRatioLimit: grid[grid.length - 1], curves, systems };
}

// ------------------------------------------------------------------ Algorithm 1

export interface HolisticArgs {
  dataset: Dataset;
  workload: Workload;
  hardware: Hardware;
  /** Buffer + filters, bytes. */
  memoryBytes: number;
  sla: MonkeySla;
}

/** The holistic design and the candidates Algorithm 1 searched: the chosen one first, then feasible and cheapest. */
export function holistic({ dataset, workload, hardware, memoryBytes, sla }: HolisticArgs) {
  const result: MonkeyHolisticResult = holisticDesign(dataset, workload, hardware, memoryBytes, sla);
  const chosen = (c: { policy: Policy; sizeRatio: number }) => Number(c.policy === result.policy && c.sizeRatio === result.sizeRatio);
  const ranked = [...result.candidates].sort(
    (a, b) => chosen(b) - chosen(a) || Number(b.feasible) - Number(a.feasible) || a.cost - b.cost,
  );
  return { ...result, ranked };
}

export type HolisticView = ReturnType<typeof holistic>;

// ------------------------------------------------------------------ Fig 11: each optimisation step

/** Prior work's rule of thumb (Monkey App K): 95% of memory to filters, 5% to the buffer. */
export const RULE_OF_THUMB_FILTER_SHARE = 0.95;

/** A design that splits `memoryBytes` by the 95/5 rule. */
export function ruleOfThumbDesign(dataset: Dataset, memoryBytes: number, policy: Policy, sizeRatio: number, allocation: FilterAllocation): Design {
  return {
    policy,
    sizeRatio,
    allocation,
    bufferBytes: memoryBytes * (1 - RULE_OF_THUMB_FILTER_SHARE),
    filterBitsPerEntry: (memoryBytes * RULE_OF_THUMB_FILTER_SHARE * 8) / dataset.entries,
  };
}

export interface MemorySweepArgs {
  dataset: Dataset;
  workload: Workload;
  hardware: Hardware;
  /** Available memory (buffer + filters) per entry, bits; one point each. */
  bitsPerEntry: readonly number[];
}

/** "L4 0%": policy initial, size ratio, share of memory given to filters (Fig 11's labels). */
export function designLabel(policy: Policy, sizeRatio: number, filterShare: number): string {
  const t = sizeRatio < 100 ? Number(sizeRatio.toPrecision(2)) : Math.round(sizeRatio);
  return `${policy === 'leveling' ? 'L' : 'T'}${t} ${Math.round(filterShare * 100)}%`;
}

/**
 * Throughput (ops/s, exact model) against memory, one line per step of Fig 11: the state of the art
 * (leveling, T = 10, uniform, 95/5); + Monkey's allocation; + the optimal memory split (Algorithm 5,
 * still leveling T = 10); + tiering as an option at T = 10; the hybrid (T and policy tuned, 95/5 kept);
 * and the holistic design (everything tuned, Algorithm 1).
 */
export function memoryStepsSweep({ dataset, workload, hardware, bitsPerEntry }: MemorySweepArgs) {
  const through = (d: Design) => costs(dataset, d, workload, hardware).throughput;
  const rows = bitsPerEntry.map((bits) => {
    const memoryBytes = (bits * dataset.entries) / 8;
    const full = holisticDesign(dataset, workload, hardware, memoryBytes);
    const splitOnly = holisticDesign(dataset, workload, hardware, memoryBytes, {}, { sizeRatios: [10], policies: ['leveling'] });
    const withTiering = holisticDesign(dataset, workload, hardware, memoryBytes, {}, { sizeRatios: [10] });
    let hybrid = { throughput: 0, policy: 'leveling' as Policy, sizeRatio: 10 };
    // Algorithm 1's size ratios, plus T = 10 so the hybrid can always keep the baseline's shape.
    const shapes = [...full.candidates, ...POLICIES.map((policy) => ({ policy, sizeRatio: 10 }))];
    for (const c of shapes) {
      const t = through(ruleOfThumbDesign(dataset, memoryBytes, c.policy, c.sizeRatio, 'monkey'));
      if (t > hybrid.throughput) hybrid = { throughput: t, policy: c.policy, sizeRatio: c.sizeRatio };
    }
    return {
      bits,
      sota: through(ruleOfThumbDesign(dataset, memoryBytes, 'leveling', 10, 'uniform')),
      monkey: through(ruleOfThumbDesign(dataset, memoryBytes, 'leveling', 10, 'monkey')),
      split: splitOnly.throughput,
      tiering: withTiering.throughput,
      hybrid: hybrid.throughput,
      hybridLabel: designLabel(hybrid.policy, hybrid.sizeRatio, RULE_OF_THUMB_FILTER_SHARE),
      holistic: full.throughput,
      holisticLabel: designLabel(full.policy, full.sizeRatio, full.filterBytes / memoryBytes),
    };
  });
  return { rows };
}

export const tradeoffSweeps = {
  'tradeoffs.curves': tradeoffCurves,
  'tradeoffs.holistic': holistic,
  'tradeoffs.memory': memoryStepsSweep,
};
