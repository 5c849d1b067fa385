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
import { totalWrites, type EngineConfig, type Report, type Workload } from '../../documents/engine';
import { bitsSpentPerKey, measuredWriteAmplification, treeLevels } from './predict';
import { MOOSE_BITS, mooseConfig, mooseDesigns, mooseWorkload } from './mooseSweep';

export type SweepKind = 'size' | 'bits' | 'tradeoff' | 'moose' | 'msls';

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
  /** What to notice in the chart. */
  notice: string;
}

const SUPER: Record<string, string> = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '.': '·' };

/** 2^k typeset as 2¹⁶ (non-integer k, from the tooltip's crosshair, with one decimal). */
export const pow2Label = (v: number): string => {
  const k = Math.log2(v);
  const exp = Math.abs(k - Math.round(k)) < 1e-9 ? String(Math.round(k)) : k.toFixed(1);
  return `2${exp.replace(/[0-9.]/g, (c) => SUPER[c])}`;
};
const p2 = (k: number) => pow2Label(2 ** k);

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
    notice:
      'With the same filter bits per key everywhere, each doubling of the data adds a level (T = 2) and its false positives, so the uniform cost climbs by about one FPR per doubling. Monkey gives the small levels more bits and the big ones fewer: its cost converges and stays flat, as in the paper (up to 60% lower there). The paper’s curves meet at 2¹² entries, where its tree has one level; the engine’s already has two.',
    log2: { min: 13, max: 20, default: 19 },
    describe: (s) =>
      `${p2(12)} … ${p2(s.log2)} entries of 64 B, leveling, T = 2, 64 KiB buffer, ${SWEEP_BITS} bits/key; uniform vs Monkey; ${s.lookups.toLocaleString('en-US')} zero-result lookups each.`,
  },
  bits: {
    kind: 'bits',
    title: 'Zero-result lookups against filter memory',
    figure: 'Monkey Fig 12 (C)',
    notice:
      'At 0 bits both probe every run (one I/O per level); with more memory both fall exponentially, Monkey faster: it reaches uniform’s cost at 10 bits/key with a few bits less. Solid lines: the Σ of the FPRs of the runs the engine really built; dashed: the paper’s Eq 56 and Eq 7.',
    log2: { min: 12, max: 19, default: 16 },
    describe: (s) =>
      `${p2(s.log2)} entries of 64 B, leveling, T = 2, 64 KiB buffer; ${BITS_VALUES.join(', ')} bits/key; uniform vs Monkey; ${s.lookups.toLocaleString('en-US')} zero-result lookups each.`,
  },
  tradeoff: {
    kind: 'tradeoff',
    title: 'Lookup cost against update cost',
    figure: 'Monkey Fig 13 (C)',
    notice:
      'Each point is one design: raising T moves leveling to costlier updates and cheaper lookups, tiering the other way. For the same update cost Monkey’s filters make lookups cheaper, or, for the same lookup cost, allow a cheaper-to-update design. Update cost here is the measured pages written per insert (flushes included); the model is Eq 10’s merge writes plus the flush, and Eq 7 / Eq 56 for lookups.',
    log2: { min: 12, max: 18, default: 16 },
    describe: (s) =>
      `${p2(s.log2 - 1)} entries of 64 B, then as many inserts with ${s.lookups.toLocaleString('en-US')} zero-result lookups interleaved (costs averaged while the tree grows to ${p2(s.log2)}); T = ${TRADEOFF_RATIOS.join(', ')}, leveling and tiering, ${SWEEP_BITS} bits/key, uniform vs Monkey.`,
  },
  moose: {
    kind: 'moose',
    title: 'Trade-offs of per-level structures',
    figure: 'Moose §3 (Eq 2–4)',
    notice:
      'More runs per level (tiering, lazy leveling, Moose’s √T runs) make inserts cheaper and ranges costlier: every run is one more seek. Filled points are measured while the tree grows (averaged over its states); ringed points are mooseCosts for the full tree. Moose’s structure sits between leveling and tiering.',
    log2: { min: 14, max: 19, default: 17 },
    describe: (s) =>
      `${p2(s.log2 - 1)} keys of 64 B, then as many inserts interleaved with zero-result lookups and short ranges (${p2(s.log2)} entries at the end); leveling, tiering and lazy leveling at T = 4 and 8 and Moose’s default structure for ${p2(s.log2)} entries, ${MOOSE_BITS} bits/key split optimally per level; measured against mooseCosts.`,
  },
  msls: {
    kind: 'msls',
    title: 'Write amplification by level',
    figure: 'MSLS Fig 9 / Table 1',
    notice:
      'MSLS counts the keys that merge away as duplicates and the dense region round-robin compaction picks, so its estimate sits well below the worst case — and close to what the engine writes, level by level. The log (1×) is not included.',
    log2: { min: 14, max: 19, default: 18 },
    describe: (s) =>
      `${p2(13)} … ${p2(s.log2)} keys of 64 B loaded, then 2× as many uniform updates; merges by file (64 KiB files), level 0 holds 4 files, Size(1) = 256 KiB, growth ×4.`,
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

/**
 * Half the data loaded, then the other half inserted with the lookups interleaved: both costs are
 * averaged over the tree's states as it grows, as the model's amortised costs are (the tree at one
 * moment may have just merged, with fewer runs than it usually has).
 */
export function growingWorkload(entries: number, lookups: number, seed: number): Workload {
  const inserts = entries / 2;
  const insert = inserts / (inserts + lookups);
  return {
    kind: 'lsm-navigator/workload',
    version: 1,
    name: `${inserts} entries, then ${inserts} inserts with ${lookups} zero-result lookups interleaved`,
    seed,
    preload: { entries: inserts, key_space: entries * 100, key_bytes: KEY_BYTES, value_bytes: VALUE_BYTES },
    operations: inserts + lookups,
    mix: { insert, get_missing: 1 - insert },
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
            workload: growingWorkload(2 ** spec.log2, spec.lookups, spec.seed),
          })),
        ),
      );
    case 'moose': {
      const n = 2 ** spec.log2;
      return mooseDesigns(n).map((d) => ({
        id: d.id,
        series: d.id.replace(/-\d+$/, ''),
        param: Number(d.id.split('-')[1] ?? 0),
        label: d.name,
        config: mooseConfig(n, d),
        workload: mooseWorkload(n, spec.seed),
      }));
    }
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
  /** Measured I/O per range lookup (null without ranges). */
  rangeIo?: number | null;
  /** Data pages written per preloaded entry (the update cost of loading the data). */
  loadPagesPerInsert: number;
  /** Data pages written per insert/update of the measured run (Report.writes.pages_written_per_update). */
  runPagesPerUpdate?: number;
  /** Bytes written into each level ÷ bytes the run inserted (msls), index 0 = level 1. */
  writeAmp: number[] | null;
  bitsPerKey: number;
  levels: number;
  runs: number;
  millis: number;
}

export function measurePoint(point: SweepPoint, report: Report, millis: number): SweepPointResult {
  const zero = report.summary.find((s) => s.class === 'get_zero_result');
  const scan = report.summary.find((s) => s.class === 'scan');
  const loadWrites = totalWrites(report.preload);
  return {
    id: point.id,
    series: point.series,
    param: point.param,
    label: point.label,
    zeroIo: zero && zero.count > 0 ? zero.io_per_op : null,
    treeZeroIo: report.predicted.zero_result_lookup_io,
    rangeIo: scan && scan.count > 0 ? scan.io_per_op : null,
    runPagesPerUpdate: report.writes.pages_written_per_update,
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
    case 'moose':
      // Model points sit with the measured ones (one per design): see mooseChart.
      return [];
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
