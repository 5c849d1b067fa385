/** Monkey Fig 11: throughput against memory, each optimisation step as its own line. */
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { Annotation, AxisSpec, LineSeries } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import { formatCount, formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { CHOSEN_COLOR, MONKEY_COLOR } from '../../ui/charts/designColors';

const Y_LABEL = { label: 'throughput', unit: 'operations/s', scale: 'log', format: formatCount } as const;

/** Memory per entry on the x axis: ¼ to 32 bits, where Fig 11 shows every step mattering. */
export const MEMORY_GRID: readonly number[] = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32];

const X_AXIS: AxisSpec = {
  label: 'memory for buffer and filters',
  unit: 'bits per entry',
  scale: 'log',
  domain: [MEMORY_GRID[0], MEMORY_GRID[MEMORY_GRID.length - 1]],
  ticks: [0.25, 0.5, 1, 2, 4, 8, 16, 32],
  format: (v) => formatSig(v, 3),
};

/** Steps in the order Fig 11 adds them; each line includes the ones before it. */
const STEPS = [
  { key: 'sota', label: 'State of the art (leveling T = 10, uniform, 95/5)', color: '#1b2430', dash: '2 3' },
  { key: 'monkey', label: '+ Monkey’s filter allocation', color: SERIES_COLORS[5], dash: '7 4' },
  { key: 'split', label: '+ optimal memory split', color: SERIES_COLORS[3] },
  { key: 'tiering', label: '+ tiering at T = 10', color: SERIES_COLORS[4], dash: '1 3' },
  { key: 'hybrid', label: 'hybrid: T and policy tuned, 95/5', color: MONKEY_COLOR },
  { key: 'holistic', label: 'holistic (everything tuned)', color: CHOSEN_COLOR },
] as const;

/** Label the holistic line at a few memories, as Fig 11 does along its top. */
const LABEL_AT = new Set([0.5, 2, 8, 32]);

export const StepsCard = memo(function StepsCard({
  data,
  computing,
  error,
  memoryBits,
}: {
  data: SweepResult<'tradeoffs.memory'> | undefined;
  computing: boolean;
  error: string | null;
  memoryBits: number;
}) {
  const { series, annotations, y } = useMemo(() => {
    if (!data) return { series: [] as LineSeries[], annotations: [] as Annotation[], y: Y_LABEL as AxisSpec };
    const series: LineSeries[] = STEPS.map((s) => ({
      id: s.key,
      label: s.label,
      color: s.color,
      dash: 'dash' in s ? s.dash : undefined,
      points: data.rows.map((r) => ({ x: r.bits, y: r[s.key] })),
    }));
    const annotations: Annotation[] = data.rows
      .filter((r) => LABEL_AT.has(r.bits))
      .map((r) => ({ x: r.bits, y: r.holistic, label: r.holisticLabel, color: CHOSEN_COLOR }));
    // Head room above the highest line for the labels, as Fig 11 prints them along its top.
    const ys = series.flatMap((l) => l.points.map((p) => p.y)).filter((v) => v > 0 && Number.isFinite(v));
    const y: AxisSpec = { ...Y_LABEL, domain: [Math.min(...ys) / 1.5, Math.max(...ys) * 2.5] };
    return { series, annotations, y };
  }, [data]);
  const rules = useMemo(() => [{ x: memoryBits }], [memoryBits]);
  const chart = { x: X_AXIS, y, series };
  return (
    <ChartCard
      id="steps"
      wide
      title="Throughput against memory, one optimisation at a time"
      caption={
        <>
          Worst-case throughput of the workload on the left. Each line adds one step to the one before: Monkey’s filters, then a
          better buffer/filter split, then tiering; the hybrid tunes T and the policy; the holistic design tunes everything. Labels:
          policy (L/T), size ratio and share of memory given to filters. The dotted line is this page’s memory ({formatSig(memoryBits, 3)}{' '}
          bits/entry).
        </>
      }
      detail={
        <>
          Monkey Fig 11. Throughput is 1/(θ·Ω), exact model. The split is Algorithm 5’s; the hybrid keeps the 95/5 rule of thumb; the
          holistic design is Algorithm 1. The search minimises the paper’s closed-form cost, so on the exact model a simpler design can
          edge past it.
        </>
      }
      csv={() => lineChartCsv(chart)}
      status={sweepStatus(computing, error)}
    >
      {data ? (
        <LineChart {...chart} height={360} title="Throughput against memory for each optimisation step" data-testid="steps-chart" rules={rules} annotations={annotations} />
      ) : (
        <ChartPlaceholder height={360} />
      )}
    </ChartCard>
  );
});
