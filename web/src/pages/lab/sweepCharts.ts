/**
 * Chart props for a sweep's measured points over its model curves. Pure: a stored sweep re-plots
 * from its spec and points alone.
 */
import { mslsWriteAmplification, worstCaseWriteAmplification } from '@lsm/models';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { AxisSpec, BarChartProps, LineChartProps, LineSeries, ScatterChartProps, ScatterSeries } from '../../ui/charts/types';
import { mslsParams, pow2Label, sweepCurves, totalWriteAmp, type SweepPointResult, type SweepSpec } from './sweeps';

export { pow2Label };
import { mooseDesigns, mooseModel } from './mooseSweep';

const COLORS: Record<string, string> = { uniform: SERIES_COLORS[1], monkey: SERIES_COLORS[0] };
const TRADEOFF_COLORS: Record<string, string> = {
  'leveling · uniform': SERIES_COLORS[1],
  'leveling · monkey': SERIES_COLORS[0],
  'tiering · uniform': SERIES_COLORS[2],
  'tiering · monkey': SERIES_COLORS[3],
};



function entriesAxis(from: number, to: number, label: string): AxisSpec {
  return {
    label,
    unit: 'entries',
    scale: 'log',
    domain: [2 ** from / 1.15, 2 ** to * 1.15],
    ticks: Array.from({ length: to - from + 1 }, (_, i) => 2 ** (from + i)),
    format: pow2Label,
  };
}

const bySeries = (points: readonly SweepPointResult[], series: string) => points.filter((p) => p.series === series).sort((a, b) => a.param - b.param);

/** Fig 12 A / C: measured markers, the tree's prediction through them, the paper's curve dashed. */
export function lookupSweepChart(spec: SweepSpec, points: readonly SweepPointResult[]): Pick<LineChartProps, 'x' | 'y' | 'series'> {
  const curves = sweepCurves(spec);
  const series: LineSeries[] = [];
  for (const a of ['uniform', 'monkey'] as const) {
    const pts = bySeries(points, a);
    const label = a === 'monkey' ? 'Monkey' : 'uniform';
    const curve = curves.find((c) => c.id === `model-${a}`);
    if (curve) series.push({ id: curve.id, label: `${label}: paper (${a === 'monkey' ? 'Eq 7' : 'Eq 56'})`, points: curve.points, color: COLORS[a], dash: '6 4' });
    series.push({ id: `tree-${a}`, label: `${label}: predicted from the tree`, points: pts.map((p) => ({ x: p.param, y: p.treeZeroIo })), color: COLORS[a] });
    series.push({ id: `measured-${a}`, label: `${label}: measured`, points: pts.flatMap((p) => (p.zeroIo === null ? [] : [{ x: p.param, y: p.zeroIo }])), color: COLORS[a], markers: true });
  }
  const y: AxisSpec = { label: 'zero-result lookup cost', unit: 'I/O per lookup', zero: true };
  if (spec.kind === 'size') return { x: entriesAxis(12, spec.log2, 'data size'), y, series };
  return { x: { label: 'filter memory', unit: 'bits per key', domain: [0, 10] }, y, series };
}

/** Fig 13 C: one point per (T, policy), measured; the model's curves traced by T. */
export function tradeoffChart(spec: SweepSpec, points: readonly SweepPointResult[]): Pick<ScatterChartProps, 'x' | 'y' | 'series'> {
  const series: ScatterSeries[] = [];
  for (const c of sweepCurves(spec)) {
    const key = c.id.replace('model-', '').replace('-', ' · ');
    series.push({ id: c.id, label: c.label, points: c.points, color: TRADEOFF_COLORS[key], radius: 2.5, line: true, dash: '6 4' });
  }
  for (const name of Object.keys(TRADEOFF_COLORS)) {
    const pts = bySeries(points, name);
    if (pts.length === 0) continue;
    series.push({
      id: `measured-${name}`,
      label: `${name} (measured)`,
      color: TRADEOFF_COLORS[name],
      radius: 5,
      line: true,
      points: pts.flatMap((p) => (p.zeroIo === null ? [] : [{ x: p.runPagesPerUpdate ?? p.loadPagesPerInsert, y: p.zeroIo, label: `T = ${p.param}` }])),
    });
  }
  return {
    x: { label: 'update cost', unit: 'pages written per insert', zero: true },
    y: { label: 'zero-result lookup cost', unit: 'I/O per lookup', zero: true },
    series,
  };
}

/** MSLS: total write amplification (the log excluded) against the number of keys. */
export function mslsChart(spec: SweepSpec, points: readonly SweepPointResult[]): Pick<LineChartProps, 'x' | 'y' | 'series'> {
  const [model, worst] = sweepCurves(spec);
  return {
    x: entriesAxis(13, spec.log2, 'keys'),
    y: { label: 'write amplification', unit: '×', zero: true },
    series: [
      { ...model, color: SERIES_COLORS[0], dash: '6 4' },
      { ...worst, color: SERIES_COLORS[5], dash: '2 3' },
      {
        id: 'measured',
        label: 'measured (bytes written ÷ bytes inserted)',
        color: SERIES_COLORS[0],
        markers: true,
        points: points.flatMap((p) => {
          const wa = totalWriteAmp(p);
          return wa === null ? [] : [{ x: p.param, y: wa }];
        }),
      },
    ],
  };
}

/** MSLS by level for one point: measured bytes written into each level ÷ bytes inserted, vs the model. */
export function mslsLevelChart(point: SweepPointResult): Pick<BarChartProps, 'x' | 'y' | 'categories' | 'groups'> | null {
  if (!point.writeAmp) return null;
  const model = mslsWriteAmplification(mslsParams(point.param)).perLevel;
  const worst = worstCaseWriteAmplification(mslsParams(point.param)).perLevel;
  const n = Math.max(point.writeAmp.length, model.length);
  const at = (xs: readonly number[], i: number) => xs[i] ?? 0;
  return {
    x: { label: 'written into' },
    y: { label: 'write amplification', unit: '×', zero: true },
    categories: Array.from({ length: n }, (_, i) => (i === 0 ? 'level 0 (flush)' : `level ${i}`)),
    groups: [
      { id: 'measured', label: 'measured', values: Array.from({ length: n }, (_, i) => at(point.writeAmp ?? [], i)), color: SERIES_COLORS[0] },
      { id: 'msls', label: 'MSLS model', values: Array.from({ length: n }, (_, i) => at(model, i)), color: SERIES_COLORS[3] },
      { id: 'worst', label: 'worst case', values: Array.from({ length: n }, (_, i) => at(worst, i)), color: SERIES_COLORS[5] },
    ],
  };
}

/**
 * Fig 12 A in one number per allocation: how much the measured cost grows per doubling of the data
 * over the last `doublings` doublings (uniform grows by a constant step, Monkey levels off).
 */
export function slopePerDoubling(points: readonly SweepPointResult[], series: string, doublings = 4): number | null {
  const pts = bySeries(points, series).filter((p) => p.zeroIo !== null);
  if (pts.length < 2) return null;
  const last = pts[pts.length - 1];
  const first = pts[Math.max(0, pts.length - 1 - doublings)];
  const span = Math.log2(last.param / first.param);
  return span > 0 ? ((last.zeroIo ?? 0) - (first.zeroIo ?? 0)) / span : null;
}

const MOOSE_COLORS: Record<string, string> = {
  leveling: SERIES_COLORS[0],
  tiering: SERIES_COLORS[1],
  lazy: SERIES_COLORS[2],
  moose: SERIES_COLORS[3],
};
const MOOSE_NAMES: Record<string, string> = { leveling: 'leveling', tiering: 'tiering', lazy: 'lazy leveling', moose: 'Moose' };

/**
 * Moose's trade-off: per design, update cost (pages written per insert) against short-range cost
 * (seeks, one per run: Moose Eq 3) — measured (filled) and Moose's model (ringed, joined to it).
 */
export function mooseChart(spec: SweepSpec, points: readonly SweepPointResult[]): Pick<ScatterChartProps, 'x' | 'y' | 'series'> {
  const n = 2 ** spec.log2;
  const designs = mooseDesigns(n);
  const series: ScatterSeries[] = [];
  for (const family of Object.keys(MOOSE_COLORS)) {
    const pts = points.filter((p) => p.series === family);
    if (pts.length === 0) continue;
    series.push({
      id: `measured-${family}`,
      label: `${MOOSE_NAMES[family]} (measured)`,
      color: MOOSE_COLORS[family],
      radius: 6,
      points: pts.flatMap((p) => (p.rangeIo == null ? [] : [{ x: p.runPagesPerUpdate ?? p.loadPagesPerInsert, y: p.rangeIo, label: p.label }])),
    });
    series.push({
      id: `model-${family}`,
      label: `${MOOSE_NAMES[family]} (Moose model)`,
      color: MOOSE_COLORS[family],
      radius: 3,
      dash: '3 3',
      points: pts.flatMap((p) => {
        const d = designs.find((x) => x.id === p.id);
        if (!d) return [];
        const m = mooseModel(n, d);
        return [{ x: m.update, y: m.shortRange, label: `${p.label} (model)` }];
      }),
    });
  }
  return {
    x: { label: 'update cost', unit: 'pages written per insert', zero: true },
    y: { label: 'short range lookup cost', unit: 'I/O per lookup', zero: true },
    series,
  };
}
