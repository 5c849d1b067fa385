/**
 * The design space as two clouds (reference §5.1.4): every structure of four families in
 * update-cost vs point-lookup-cost space and in update-cost vs range-lookup-cost space, with the
 * user's layout and Smoose's choice marked.
 */
import { Detail } from '../../ui/layout/Detail';
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { scatterChartCsv } from '../../ui/charts/csv';
import { ScatterChart } from '../../ui/charts/ScatterChart';
import type { Annotation, AxisSpec, ScatterChartProps, ScatterSeries } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import type { DesignFamily, DesignPoint } from '../../compute/sweeps/moose';
import { formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { FAMILY_COLORS, FAMILY_LABELS, SMOOSE_COLOR, YOURS_COLOR, type MarkedDesign } from './common';

const FAMILIES: DesignFamily[] = ['leveling', 'tiering', 'lazyLeveling', 'moose'];
const UPDATE_AXIS = (paper: boolean): AxisSpec => ({
  label: paper ? 'update cost (Eq.2)' : 'update cost (refined)',
  unit: 'I/O per update',
  scale: 'log',
});

type Lookup = 'zeroResultPoint' | 'range';
const LOOKUP_AXIS: Record<Lookup, AxisSpec> = {
  zeroResultPoint: { label: 'zero-result point lookup cost (Eq.4)', unit: 'I/O per lookup', scale: 'log' },
  range: { label: 'range lookup cost (Eq.3 + scan)', unit: 'I/O per range lookup', scale: 'log' },
};

function cloud(points: readonly DesignPoint[], y: Lookup, paper: boolean, yours: MarkedDesign | undefined, chosen: MarkedDesign | undefined) {
  const series: ScatterSeries[] = FAMILIES.map((f) => ({
    id: f,
    label: FAMILY_LABELS[f],
    color: FAMILY_COLORS[f],
    radius: f === 'moose' ? 2.4 : 3.2,
    line: f !== 'moose',
    points: points.filter((p) => p.family === f).map((p) => ({ x: p.update, y: p[y], label: p.label })),
  }));
  const highlight: Annotation | undefined = yours && { x: yours.update, y: yours[y], label: yours.label, color: YOURS_COLOR };
  const annotations: Annotation[] = chosen ? [{ x: chosen.update, y: chosen[y], label: chosen.label, color: SMOOSE_COLOR }] : [];
  return { x: UPDATE_AXIS(paper), y: LOOKUP_AXIS[y], series, highlight, annotations } satisfies Omit<ScatterChartProps, 'title'>;
}

export const SpaceCards = memo(function SpaceCards({
  data,
  computing,
  error,
  paperUpdate,
  yours,
  chosen,
  memoryBits,
}: {
  data: SweepResult<'moose.space'> | undefined;
  computing: boolean;
  error: string | null;
  paperUpdate: boolean;
  yours: MarkedDesign | undefined;
  chosen: MarkedDesign | undefined;
  memoryBits: number;
}) {
  const point = useMemo(() => data && cloud(data.points, 'zeroResultPoint', paperUpdate, yours, chosen), [data, paperUpdate, yours, chosen]);
  const range = useMemo(() => data && cloud(data.points, 'range', paperUpdate, yours, chosen), [data, paperUpdate, yours, chosen]);
  const status = sweepStatus(computing, error);
  const note = (
    <>
      <p className="card-foot">
        Leveling, tiering and lazy leveling for T = 2…100; Moose structures for last levels of 50–95 % of the data. All with{' '}
        {formatSig(memoryBits, 3)} bits/entry of optimally split filters. Ring: your layout; purple: Smoose’s choice.
      </p>
      <Detail>
        Fixed-ratio designs on the full geometric tree; Moose structures from the Σ√r DP for N_L/N = 0.5…0.95 at every run vector n_i =
        round(k√r_i); filters split by Eq.10.
      </Detail>
    </>
  );
  return (
    <>
      <ChartCard
        id="space-point"
        title="Point lookups against updates, the design space"
        caption="Moose’s per-level structures fill the space between leveling and tiering that fixed-ratio designs leave."
        detail="Moose Table 1."
        footer={note}
        csv={() => (point ? scatterChartCsv(point) : '')}
        status={status}
      >
        {point ? <ScatterChart {...point} height={380} title="Zero-result point lookup cost against update cost for many designs" data-testid="space-point-chart" /> : <ChartPlaceholder height={380} />}
      </ChartCard>
      <ChartCard
        id="space-range"
        title="Range lookups against updates, the design space"
        caption="A range lookup seeks once in every run: tiering’s many runs cost here what they save on updates."
        detail="Range cost Σ n_i (Moose Eq.3)."
        footer={note}
        csv={() => (range ? scatterChartCsv(range) : '')}
        status={status}
      >
        {range ? <ScatterChart {...range} height={380} title="Range lookup cost against update cost for many designs" data-testid="space-range-chart" /> : <ChartPlaceholder height={380} />}
      </ChartCard>
    </>
  );
});
