/**
 * A sweep's measured points as CSV, one row per engine run, with the predictions beside them (the
 * paper's closed forms or Moose's / MSLS's model for the same point). This is the file stored and
 * downloaded with a sweep result.
 */
import { mslsWriteAmplification, type Policy } from '@lsm/models';
import { toCsv, type Cell } from '../../ui/charts/csv';
import { mooseDesigns, mooseModel, type MooseModel } from './mooseSweep';
import { closedFormZero, modelLevels, modelUpdatePages, mslsParams, SWEEP_BITS, totalWriteAmp, type SweepPointResult, type SweepSpec } from './sweeps';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The models' numbers for one point: zero-result I/O, pages written per insert, short-range I/O, write amplification. */
export function pointModel(spec: SweepSpec, p: SweepPointResult): { zero: number | null; update: number | null; range: number | null; wa: number | null } {
  switch (spec.kind) {
    case 'msls':
      return { zero: null, update: null, range: null, wa: sum(mslsWriteAmplification(mslsParams(p.param)).perLevel) };
    case 'moose': {
      const n = 2 ** spec.log2;
      const d = mooseDesigns(n).find((x) => x.id === p.id);
      const m: MooseModel | null = d ? mooseModel(n, d) : null;
      return { zero: m?.zero ?? null, update: m?.update ?? null, range: m?.shortRange ?? null, wa: null };
    }
    default: {
      const [policy, allocation] =
        spec.kind === 'tradeoff' ? (p.series.split(' · ') as [Policy, 'uniform' | 'monkey']) : ['leveling' as Policy, p.series as 'uniform' | 'monkey'];
      const n = spec.kind === 'size' ? p.param : 2 ** spec.log2;
      const t = spec.kind === 'tradeoff' ? p.param : 2;
      const bits = spec.kind === 'bits' ? p.param : SWEEP_BITS;
      const l = modelLevels(n, t);
      return { zero: closedFormZero(allocation, policy, t, l, bits), update: modelUpdatePages(policy, t, l), range: null, wa: null };
    }
  }
}

export function sweepCsv(spec: SweepSpec, points: readonly SweepPointResult[]): string {
  const header = [
    'sweep',
    'series',
    'label',
    spec.kind === 'bits' ? 'bits per key' : spec.kind === 'tradeoff' || spec.kind === 'moose' ? 'size ratio' : 'entries',
    'measured zero-result I/O per lookup',
    'predicted from tree (sum of run FPRs)',
    spec.kind === 'moose' ? 'Moose model zero-result I/O (Eq 4)' : 'paper closed form',
    spec.kind === 'moose' || spec.kind === 'tradeoff' ? 'pages written per insert (run)' : 'pages written per insert (load)',
    'model pages written per insert',
    'measured short-range I/O',
    'Moose model short-range I/O (Eq 3)',
    'measured write amplification (all levels)',
    'MSLS write amplification (all levels)',
    'measured write amplification by level',
    'filter bits per key spent',
    'levels',
    'runs',
    'milliseconds',
  ];
  const rows: Cell[][] = points.map((p) => {
    const m = pointModel(spec, p);
    return [
      spec.kind,
      p.series,
      p.label,
      p.param,
      p.zeroIo,
      spec.kind === 'msls' ? null : p.treeZeroIo,
      m.zero,
      spec.kind === 'moose' || spec.kind === 'tradeoff' ? (p.runPagesPerUpdate ?? null) : p.loadPagesPerInsert,
      m.update,
      p.rangeIo ?? null,
      m.range,
      totalWriteAmp(p),
      m.wa,
      p.writeAmp ? p.writeAmp.map((w) => w.toFixed(4)).join(' ') : null,
      p.bitsPerKey,
      p.levels,
      p.runs,
      Math.round(p.millis),
    ];
  });
  return toCsv(header, rows);
}
