/**
 * Sweeps: the same experiment repeated over one parameter, measured on the engine (in memory) and
 * drawn over the papers' model curves. Pure: which runs to make (`sweepPoints`), what to keep of
 * each report (`measurePoint`) and the model curves (`sweepCurves`). The engine loop lives in
 * runner.ts.
 *
 * Browser scale: entries of 16 + 48 = 64 B and a 64 KiB buffer hold 1,024 entries per buffer —
 * the same ratio as Monkey's experiments (1 KB entries, 1 MB buffer), so a tree of 2^k entries
 * here has the shape the paper's tree of 2^k entries had.
 */
import {
  monkeyUpdateCost,
  monkeyZeroResultCostClosedForm,
  levelCount,
  mslsWriteAmplification,
  uniformZeroResultCost,
  worstCaseWriteAmplification,
  type MslsLevelParams,
  type Policy,
} from '@lsm/models';
import { totalWrites, type EngineConfig, type Report, type Workload } from '../../engine/types';
import { toCsv, type Cell } from '../../charts/csv';
import { bitsSpentPerKey, measuredWriteAmplification, treeLevels } from './predict';

export type SweepKind = 'size' | 'bits' | 'tradeoff' | 'msls';

export interface SweepSpec {
  kind: SweepKind;
  /** log2 of the largest data size (size, msls) or of the fixed data size (bits, tradeoff). */
  log2: number;
  /** Zero-result lookups measured per point. */
  lookups: number;
  seed: number;
}

export interface SweepInfo {
  kind: SweepKind;
  title: string;
  figure: string;
  /** Allowed range of `log2` and its default. */
  log2: { min: number; max: number; default: number };
  describe: (spec: SweepSpec) => string;
}

export const KEY_BYTES = 16;
export const VALUE_BYTES = 48;
export const ENTRY_BYTES = KEY_BYTES + VALUE_BYTES;
export const BUFFER_BYTES = 64 * 1024;
export const PAGE_BYTES = 4096;
export const SWEEP_BITS = 5;
export const TRADEOFF_RATIOS = [2, 3, 4, 6, 8, 10];
export const BITS_VALUES = [0, 1, 2, 3, 4, 5, 6, 8, 10];
const MSLS_T1 = 4;
const MSLS_GROWTH = 4;
const MSLS_FILE_BYTES = 64 * 1024;

export const SWEEPS: Record<SweepKind, SweepInfo> = {
  size: {
    kind: 'size',
    title: 'Zero-result lookups against data size',
    figure: 'Monkey Fig 12 (A)',
    log2: { min: 13, max: 20, default: 19 },
    describe: (s) =>
      `2^12 … 2^${s.log2} entries of 64 B, leveling, T = 2, 64 KiB buffer, ${SWEEP_BITS} bits/key; uniform vs Monkey; ${s.lookups.toLocaleString('en-US')} zero-result lookups each.`,
  },
  bits: {
    kind: 'bits',
    title: 'Zero-result lookups against filter memory',
    figure: 'Monkey Fig 12 (C)',
    log2: { min: 12, max: 19, default: 16 },
    describe: (s) =>
      `2^${s.log2} entries of 64 B, leveling, T = 2, 64 KiB buffer; ${BITS_VALUES.join(', ')} bits/key; uniform vs Monkey; ${s.lookups.toLocaleString('en-US')} zero-result lookups each.`,
  },
  tradeoff: {
    kind: 'tradeoff',
    title: 'Lookup cost against update cost',
    figure: 'Monkey Fig 13 (C)',
    log2: { min: 12, max: 18, default: 16 },
    describe: (s) =>
      `2^${s.log2} inserts of 64 B (the update cost: pages written per insert), then ${s.lookups.toLocaleString('en-US')} zero-result lookups; T = ${TRADEOFF_RATIOS.join(', ')}, leveling and tiering, ${SWEEP_BITS} bits/key, uniform vs Monkey.`,
  },
  msls: {
    kind: 'msls',
    title: 'Write amplification by level',
    figure: 'MSLS Fig 9 / Table 1',
    log2: { min: 14, max: 19, default: 18 },
    describe: (s) =>
      `2^13 … 2^${s.log2} keys of 64 B loaded, then 2× as many uniform updates; merges by file (64 KiB files), level 0 holds 4 files, Size(1) = 256 KiB, growth ×4.`,
  },
};

export function defaultSpec(kind: SweepKind): SweepSpec {
  return { kind, log2: SWEEPS[kind].log2.default, lookups: kind === 'msls' ? 0 : 50_000, seed: 1 };
}

export interface SweepPoint {
  id: string;
  /** The curve the point belongs to ("uniform", "monkey", "leveling · monkey", "measured"). */
  series: string;
  /** The swept value (entries, bits/key, size ratio). */
  param: number;
  label: string;
  config: EngineConfig;
  workload: Workload;
}

function config(T: number, maxRuns: number, allocation: 'uniform' | 'monkey', bits: number): EngineConfig {
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: `${maxRuns === 1 ? 'leveling' : 'tiering'}, T = ${T}, ${allocation} ${bits} bits/key`,
    page_bytes: PAGE_BYTES,
    buffer_bytes: BUFFER_BYTES,
    levels: [{ size_ratio: T, max_runs: maxRuns }],
    filter: { allocation, bits_per_key: bits },
  };
}

function lookupWorkload(entries: number, lookups: number, seed: number): Workload {
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `${entries} entries, ${lookups} zero-result lookups`,
    seed,
    // A key space 100× the data: missing keys rarely repeat, so each lookup is a fresh draw.
    preload: { entries, key_space: entries * 100, key_bytes: KEY_BYTES, value_bytes: VALUE_BYTES },
    operations: lookups,
    mix: { get_missing: 1 },
    distribution: { kind: 'uniform' },
  };
}

export function mslsConfig(): EngineConfig {
  return {
    kind: 'lsm-navigator/engine-config',
    version: 1,
    name: 'merges by file: level 0 of 4 files, Size(1) = 256 KiB, growth ×4',
    page_bytes: PAGE_BYTES,
    buffer_bytes: BUFFER_BYTES,
    levels: [
      { size_ratio: MSLS_T1, max_runs: 3 },
      { size_ratio: MSLS_GROWTH, max_runs: 1 },
    ],
    filter: { allocation: 'uniform', bits_per_key: SWEEP_BITS },
    compaction: { granularity: 'file', target_file_bytes: MSLS_FILE_BYTES },
  };
}

/** The MSLS model's parameters for the engine design of `mslsConfig` and N keys. */
export function mslsParams(keys: number): MslsLevelParams {
  return {
    keySpace: keys,
    distribution: { kind: 'uniform' },
    entryBytes: ENTRY_BYTES,
    writeBufferBytes: BUFFER_BYTES,
    level0Trigger: 4,
    level1Bytes: BUFFER_BYTES * MSLS_T1,
    growthFactor: MSLS_GROWTH,
  };
}

const pow2 = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => 2 ** (from + i));

/** The runs a sweep makes, in order. */
export function sweepPoints(spec: SweepSpec): SweepPoint[] {
  const allocations = ['uniform', 'monkey'] as const;
  switch (spec.kind) {
    case 'size':
      return pow2(12, spec.log2).flatMap((n) =>
        allocations.map((a) => ({
          id: `${a}-${n}`,
          series: a,
          param: n,
          label: `${a}, 2^${Math.log2(n)} entries`,
          config: config(2, 1, a, SWEEP_BITS),
          workload: lookupWorkload(n, spec.lookups, spec.seed),
        })),
      );
    case 'bits':
      return BITS_VALUES.flatMap((b) =>
        allocations.map((a) => ({
          id: `${a}-${b}`,
          series: a,
          param: b,
          label: `${a}, ${b} bits/key`,
          config: config(2, 1, a, b),
          workload: lookupWorkload(2 ** spec.log2, spec.lookups, spec.seed),
        })),
      );
    case 'tradeoff':
      return (['leveling', 'tiering'] as const).flatMap((policy) =>
        TRADEOFF_RATIOS.filter((t) => policy === 'leveling' || t > 2).flatMap((t) =>
          allocations.map((a) => ({
            id: `${policy}-${a}-${t}`,
            series: `${policy} · ${a}`,
            param: t,
            label: `${policy}, T = ${t}, ${a}`,
            config: config(t, policy === 'leveling' ? 1 : t - 1, a, SWEEP_BITS),
            workload: lookupWorkload(2 ** spec.log2, spec.lookups, spec.seed),
          })),
        ),
      );
    case 'msls':
      return pow2(13, spec.log2).map((n) => ({
        id: `msls-${n}`,
        series: 'measured',
        param: n,
        label: `2^${Math.log2(n)} keys`,
        config: mslsConfig(),
        workload: {
          kind: 'lsm-navigator/workload',
          version: 1,
          name: `${n} keys, then ${2 * n} uniform updates`,
          seed: spec.seed,
          preload: { entries: n, key_space: 0, key_bytes: KEY_BYTES, value_bytes: VALUE_BYTES },
          operations: 2 * n,
          mix: { update: 1 },
          distribution: { kind: 'uniform' },
        },
      }));
  }
}

/** What a sweep keeps of each run (the reports themselves are not stored). */
export interface SweepPointResult {
  id: string;
  series: string;
  param: number;
  label: string;
  /** Measured I/O per zero-result lookup. */
  zeroIo: number | null;
  /** Σ of the runs' FPRs at the end of the run (the engine's prediction). */
  treeZeroIo: number;
  /** Data pages written per preloaded entry (the update cost of loading the data). */
  loadPagesPerInsert: number;
  /** Bytes written into each level ÷ bytes the run inserted (msls), index 0 = level 1. */
  writeAmp: number[] | null;
  bitsPerKey: number;
  levels: number;
  runs: number;
  millis: number;
}

export function measurePoint(point: SweepPoint, report: Report, millis: number): SweepPointResult {
  const zero = report.summary.find((s) => s.class === 'get_zero_result');
  const loadWrites = totalWrites(report.preload);
  return {
    id: point.id,
    series: point.series,
    param: point.param,
    label: point.label,
    zeroIo: zero && zero.count > 0 ? zero.io_per_op : null,
    treeZeroIo: report.predicted.zero_result_lookup_io,
    loadPagesPerInsert: report.preload_operations > 0 ? loadWrites.data_pages_written / report.preload_operations : 0,
    writeAmp: measuredWriteAmplification(report),
    bitsPerKey: bitsSpentPerKey(report.tree),
    levels: treeLevels(report.tree),
    runs: report.predicted.runs,
    millis,
  };
}

const DATASET = (entries: number) => ({ entries, entryBytes: ENTRY_BYTES, pageBytes: PAGE_BYTES });

/** Monkey's L (Eq 1) for N entries of this sweep's size at size ratio T. */
export function modelLevels(entries: number, t: number): number {
  return levelCount(DATASET(entries), { sizeRatio: t, bufferBytes: BUFFER_BYTES });
}

/** The paper's zero-result cost: Eq 56 (uniform) or Eq 7 (Monkey). */
export function closedFormZero(allocation: 'uniform' | 'monkey', policy: Policy, t: number, levels: number, bits: number): number {
  const shape = { policy, sizeRatio: t, levels };
  return allocation === 'monkey' ? monkeyZeroResultCostClosedForm(shape, bits).cost : uniformZeroResultCost(shape, bits);
}

/** Entries per page in Monkey's model (B = page ÷ entry). */
export const MODEL_ENTRIES_PER_PAGE = Math.floor(PAGE_BYTES / ENTRY_BYTES);

/** Pages written per insert in the model: Eq 10's merge writes (φ = 0) plus the flush (1/B). */
export function modelUpdatePages(policy: Policy, t: number, levels: number): number {
  return monkeyUpdateCost(policy, t, levels, MODEL_ENTRIES_PER_PAGE, 0) + 1 / MODEL_ENTRIES_PER_PAGE;
}

export interface Curve {
  id: string;
  label: string;
  points: { x: number; y: number }[];
}

/** The model curves of a sweep (x in the sweep's own unit; for `tradeoff`, x = update cost). */
export function sweepCurves(spec: SweepSpec): Curve[] {
  const allocations = ['uniform', 'monkey'] as const;
  const name = (a: string) => (a === 'monkey' ? 'Monkey, Eq 7' : 'uniform, Eq 56');
  switch (spec.kind) {
    case 'size': {
      const xs = Array.from({ length: (spec.log2 - 12) * 8 + 1 }, (_, i) => 2 ** (12 + i / 8));
      return allocations.map((a) => ({
        id: `model-${a}`,
        label: name(a),
        points: xs.map((n) => ({ x: n, y: closedFormZero(a, 'leveling', 2, modelLevels(n, 2), SWEEP_BITS) })),
      }));
    }
    case 'bits': {
      const n = 2 ** spec.log2;
      const l = modelLevels(n, 2);
      const xs = Array.from({ length: 41 }, (_, i) => i / 4);
      return allocations.map((a) => ({ id: `model-${a}`, label: name(a), points: xs.map((b) => ({ x: b, y: closedFormZero(a, 'leveling', 2, l, b) })) }));
    }
    case 'tradeoff': {
      // One model point per design the sweep measures (the level count jumps with T, so a curve
      // through every T would zig-zag); joined in T order like the measured points.
      const n = 2 ** spec.log2;
      return (['leveling', 'tiering'] as const).flatMap((policy) =>
        allocations.map((a) => ({
          id: `model-${policy}-${a}`,
          label: `${policy} · ${a} (model)`,
          points: TRADEOFF_RATIOS.filter((t) => policy === 'leveling' || t > 2).map((t) => {
            const l = modelLevels(n, t);
            return { x: modelUpdatePages(policy, t, l), y: closedFormZero(a, policy, t, l, SWEEP_BITS) };
          }),
        })),
      );
    }
    case 'msls': {
      const xs = Array.from({ length: (spec.log2 - 13) * 4 + 1 }, (_, i) => Math.round(2 ** (13 + i / 4)));
      const model = (f: (p: MslsLevelParams) => { perLevel: number[] }) => xs.map((n) => ({ x: n, y: sum(f(mslsParams(n)).perLevel) }));
      return [
        { id: 'msls', label: 'MSLS model', points: model(mslsWriteAmplification) },
        { id: 'worst', label: 'worst case (no redundancy)', points: model(worstCaseWriteAmplification) },
      ];
    }
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Total measured write amplification of a point (all levels, the log excluded). */
export function totalWriteAmp(p: SweepPointResult): number | null {
  return p.writeAmp ? sum(p.writeAmp) : null;
}

/** The sweep's measured points as CSV, one row per run, with the predictions beside them. */
export function sweepCsv(spec: SweepSpec, points: readonly SweepPointResult[]): string {
  const header = [
    'sweep',
    'series',
    'label',
    spec.kind === 'bits' ? 'bits per key' : spec.kind === 'tradeoff' ? 'size ratio' : 'entries',
    'measured zero-result I/O per lookup',
    'predicted from tree (sum of run FPRs)',
    'paper closed form',
    'pages written per insert (load)',
    'model pages written per insert',
    'measured write amplification (all levels)',
    'MSLS write amplification (all levels)',
    'measured write amplification by level',
    'filter bits per key spent',
    'levels',
    'runs',
    'milliseconds',
  ];
  const rows: Cell[][] = points.map((p) => {
    const [policy, allocation] = spec.kind === 'tradeoff' ? (p.series.split(' · ') as [Policy, 'uniform' | 'monkey']) : ['leveling' as Policy, p.series as 'uniform' | 'monkey'];
    const n = spec.kind === 'size' ? p.param : 2 ** spec.log2;
    const t = spec.kind === 'tradeoff' ? p.param : 2;
    const bits = spec.kind === 'bits' ? p.param : SWEEP_BITS;
    const lookup = spec.kind !== 'msls';
    const l = lookup ? modelLevels(n, t) : 0;
    return [
      spec.kind,
      p.series,
      p.label,
      p.param,
      p.zeroIo,
      lookup ? p.treeZeroIo : null,
      lookup ? closedFormZero(allocation, policy, t, l, bits) : null,
      p.loadPagesPerInsert,
      lookup ? modelUpdatePages(policy, t, l) : null,
      totalWriteAmp(p),
      spec.kind === 'msls' ? sum(mslsWriteAmplification(mslsParams(p.param)).perLevel) : null,
      p.writeAmp ? p.writeAmp.map((w) => w.toFixed(4)).join(' ') : null,
      p.bitsPerKey,
      p.levels,
      p.runs,
      Math.round(p.millis),
    ];
  });
  return toCsv(header, rows);
}
