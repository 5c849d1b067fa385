/** WA as one parameter changes: number of keys (Fig 9), skew (Fig 8), level sizes (Fig 10/15). */
import { useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { Annotation, AxisSpec, LineChartProps, LineSeries, Rule } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import type { SeriesSweep } from '../../compute/sweeps/msls';
import { ParamControl } from '../../ui/controls/ParamControl';
import { formatCount, formatSig } from '../../documents/format';
import type { UrlState } from '../../ui/state/useUrlState';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import {
  formatMiB,
  formatTheta,
  formatWa,
  UNIFORM_COLOR,
  WA_AXIS,
  WORST_COLOR,
  WORST_DASH,
  WORST_LABEL,
  ZIPF_COLOR,
  zipfLabel,
} from './common';
import type { mslsParams, MslsState } from '../../documents/urls/msls';

const HEIGHT = 300;

function threeLines(d: SeriesSweep, theta: number): LineSeries[] {
  const pts = (ys: number[]) => d.x.map((x, i) => ({ x, y: ys[i] }));
  return [
    { id: 'uniform', label: 'MSLS, uniform', color: UNIFORM_COLOR, points: pts(d.uniform) },
    { id: 'zipf', label: zipfLabel(theta), color: ZIPF_COLOR, points: pts(d.zipf) },
    { id: 'worst', label: WORST_LABEL, color: WORST_COLOR, dash: WORST_DASH, points: pts(d.worst) },
  ];
}

/** The current design's values on a three-series chart, at x. */
function currentMarks(x: number, msls: number, worst: number, s: MslsState): Annotation[] {
  return [
    { x, y: msls, label: `MSLS ${formatWa(msls)}`, color: s.dist === 'z' ? ZIPF_COLOR : UNIFORM_COLOR },
    { x, y: worst, label: `worst ${formatWa(worst)}`, color: WORST_COLOR },
  ];
}

interface CardProps<N extends 'msls.keys' | 'msls.levels' | 'msls.skew'> {
  sweep: SweepState<SweepResult<N>>;
  s: MslsState;
  /** The current design's totals (undefined while the parameters are invalid). */
  now: { msls: number; worst: number; levels: number } | undefined;
}

function Chart({ chart, testId, title, height = HEIGHT }: { chart: LineChartProps | null; testId: string; title: string; height?: number }) {
  return chart ? <LineChart {...chart} title={title} data-testid={testId} height={height} /> : <ChartPlaceholder height={height} />;
}

export function KeysCard({ sweep, s, now }: CardProps<'msls.keys'>) {
  const d = sweep.data;
  const chart = useMemo<LineChartProps | null>(() => {
    if (!d) return null;
    return {
      title: 'Write amplification against the number of keys, MSLS vs worst case',
      x: { label: 'keys N', unit: 'keys', scale: 'log', format: (v) => formatCount(v) },
      y: WA_AXIS,
      series: threeLines(d, s.theta),
      rules: [{ x: s.keys, label: 'N' }],
      annotations: now ? currentMarks(s.keys, now.msls, now.worst, s) : [],
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  }, [d, s.theta, s.keys, s.dist, now]);
  return (
    <ChartCard
      id="wa-keys"
      title="WA vs number of keys"
      caption={`MSLS Fig 9 (${s.levels > 0 ? `L = ${s.levels} fixed` : 'L grows with N'}). Worst case: our no-redundancy reconstruction.`}
      footer={
        <p className="fine msls-note">
          The saw-tooth is the last level: just past a level’s capacity it is small and cheap to merge into. The worst
          case — our reconstruction of the paper’s no-redundancy analysis, whose formula the paper does not give — moves
          whole levels and never drops a duplicate: {now ? `${formatSig(now.worst / now.msls, 3)}×` : '—'} the MSLS
          estimate here (the paper measured 1.8–3.5×).
        </p>
      }
      csv={chart ? () => lineChartCsv(chart) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
    >
      <Chart chart={chart} testId="msls-keys-chart" title="Write amplification against the number of keys" />
    </ChartCard>
  );
}

export function SkewCard({ sweep, s, now }: CardProps<'msls.skew'>) {
  const d = sweep.data;
  const chart = useMemo<LineChartProps | null>(() => {
    if (!d) return null;
    const rule: Rule = s.dist === 'z' ? { x: s.theta, label: `θ = ${formatTheta(s.theta)}` } : { x: 0, label: 'uniform' };
    return {
      title: 'Write amplification against Zipf skew, MSLS vs worst case',
      x: { label: 'Zipf skew θ', domain: [0, Math.max(1.5, ...d.theta)] },
      y: WA_AXIS,
      series: [
        { id: 'msls', label: 'MSLS', color: ZIPF_COLOR, points: d.theta.map((x, i) => ({ x, y: d.msls[i] })) },
        { id: 'worst', label: WORST_LABEL, color: WORST_COLOR, dash: WORST_DASH, points: d.theta.map((x, i) => ({ x, y: d.worst[i] })) },
      ],
      rules: [rule],
      // The flat worst case is named by the legend; only the current MSLS value is labelled.
      annotations: now ? currentMarks(rule.x, now.msls, now.worst, s).slice(0, 1) : [],
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  }, [d, s.theta, s.dist, now]);
  return (
    <ChartCard
      id="wa-skew"
      title="WA vs key skew"
      caption={`MSLS Fig 8: WA against Zipf skew at N = ${formatCount(s.keys)}; θ = 0 is uniform.`}
      footer={
        <p className="fine msls-note">
          Skewed inserts repeat the same hot keys; the duplicates collapse in the buffer and in every merge, so fewer
          bytes reach the lower levels. The worst case cannot see duplicates and stays flat.
        </p>
      }
      csv={chart ? () => lineChartCsv(chart) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
    >
      <Chart chart={chart} testId="msls-skew-chart" title="Write amplification against Zipf skew" />
    </ChartCard>
  );
}

const mibTick = (v: number) => formatSig(v, 3);
const LEVEL_AXES: Record<MslsState['sweepAxis'], { axis: AxisSpec; fig: string }> = {
  buf: { axis: { label: 'write buffer', unit: 'MiB', scale: 'log', format: mibTick }, fig: 'MSLS Fig 10' },
  l1: { axis: { label: 'level-1 size', unit: 'MiB', scale: 'log', format: mibTick }, fig: 'MSLS Fig 10/14' },
  r: { axis: { label: 'growth factor r', scale: 'log', format: mibTick }, fig: 'MSLS Fig 15' },
};
/** Growth factors people actually choose, as ticks (powers of ten alone say little here). */
const GROWTH_TICKS = [1.5, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000];

export function LevelSizeCard({ sweep, s, now, url }: CardProps<'msls.levels'> & { url: UrlState<typeof mslsParams> }) {
  const d = sweep.data;
  const axis = s.sweepAxis;
  const x = axis === 'buf' ? s.bufferMiB : axis === 'l1' ? s.level1MiB : s.growth;
  const chart = useMemo<LineChartProps | null>(() => {
    // A result for another axis (still computing) must not be drawn against this one.
    if (!d || d.axis !== axis) return null;
    const rules: Rule[] = [{ x }];
    // Where the buffer overtakes level 1 the paper's model overestimates WA (Fig 10).
    if (axis === 'buf') rules.push({ x: s.level1MiB, label: 'wal = Size(1)' });
    if (axis === 'l1') rules.push({ x: s.bufferMiB, label: 'Size(1) = wal' });
    return {
      title: `Write amplification against the ${LEVEL_AXES[axis].axis.label}, MSLS vs worst case`,
      x: axis === 'r' ? { ...LEVEL_AXES.r.axis, ticks: GROWTH_TICKS.filter((t) => t >= d.x[0] && t <= (d.x.at(-1) ?? t)) } : LEVEL_AXES[axis].axis,
      y: WA_AXIS,
      series: threeLines(d, s.theta),
      rules,
      annotations: now ? currentMarks(x, now.msls, now.worst, s) : [],
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- memoised on the fields it reads: the URL state object is new each render
  }, [d, axis, x, s.theta, s.dist, s.level1MiB, s.bufferMiB, now]);
  const what =
    axis === 'buf'
      ? `A larger buffer absorbs more duplicates before a flush and lengthens every compaction interval. Right of “wal = Size(1)” level 1 is smaller than one flush: there the paper found the model overestimates WA under uniform keys.`
      : axis === 'l1'
        ? `Level 1 is ${formatMiB(s.level1MiB)} now and every level below it grows by r = ${formatSig(s.growth, 3)}; ${s.levels > 0 ? `L = ${s.levels} is fixed, so the last step absorbs the difference` : 'L adapts so that the last level holds all N keys, hence the jumps'}.`
        : `Few large steps or many small ones: ${s.levels > 0 ? `L = ${s.levels} is fixed, so the last step absorbs the difference` : 'L falls as r grows, hence the jumps'}. Fig 15 varies L through r like this.`;
  return (
    <ChartCard
      id="wa-levels"
      title="WA vs level sizes"
      wide
      caption={`${LEVEL_AXES[axis].fig}: WA as one level-size setting varies, the others as on the left.`}
      footer={<p className="fine msls-note">{what}</p>}
      csv={chart ? () => lineChartCsv(chart) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
    >
      <div className="msls-axis-toggle">
        <ParamControl {...url.bind('sweepAxis')} />
      </div>
      <Chart chart={chart} testId="msls-levels-chart" title="Write amplification against level sizes" height={HEIGHT - 20} />
    </ChartCard>
  );
}
