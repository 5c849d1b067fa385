/**
 * Monkey Fig 4 / Fig 8: lookup cost against update cost, one curve per merge policy and filter
 * allocation traced by the size ratio, with the Table 4 systems and the holistic design as points.
 */
import { LearnLink } from '../../ui/layout/LearnLink';
import { memo, useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { scatterChartCsv } from '../../ui/charts/csv';
import { ScatterChart } from '../../ui/charts/ScatterChart';
import type { Annotation, AxisSpec, ScatterChartProps, ScatterSeries } from '../../ui/charts/types';
import type { SweepResult } from '../../compute';
import { formatBytes, formatCount, formatSig } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { CHOSEN_COLOR, MONKEY_COLOR, UNIFORM_COLOR } from '../../ui/charts/designColors';

const X_AXIS: AxisSpec = { label: 'update cost W', unit: 'I/O per update', scale: 'log' };
const Y_AXIS: AxisSpec = { label: 'zero-result lookup cost R', unit: 'I/O per lookup', scale: 'log' };
const SYSTEM_COLOR = '#1b2430';

export interface ChosenPoint {
  update: number;
  lookup: number;
  label: string;
}

function tLabel(t: number): string {
  return t < 100 ? formatSig(t, 3) : formatCount(t);
}

export const TradeoffCard = memo(function TradeoffCard({
  data,
  computing,
  error,
  chosen,
  bits,
  bufferBytes,
}: {
  data: SweepResult<'tradeoffs.curves'> | undefined;
  computing: boolean;
  error: string | null;
  chosen: ChosenPoint | undefined;
  bits: number;
  bufferBytes: number;
}) {
  const chart = useMemo<Omit<ScatterChartProps, 'title'> | null>(() => {
    if (!data) return null;
    const series: ScatterSeries[] = data.curves.map((c) => {
      const who = c.allocation === 'monkey' ? 'Monkey' : 'Uniform';
      return {
        id: `${c.allocation}-${c.policy}`,
        label: `${who} ${c.policy}`,
        color: c.allocation === 'monkey' ? MONKEY_COLOR : UNIFORM_COLOR,
        dash: c.policy === 'tiering' ? '6 4' : undefined,
        line: true,
        radius: 2.2,
        points: c.points.map((p) => ({ x: p.update, y: p.lookup, label: `${who} ${c.policy}, T = ${tLabel(p.sizeRatio)}, L = ${p.levels}` })),
      };
    });
    // The systems are a series too, so hovering one names it with its T and policy.
    series.push({
      id: 'systems',
      label: 'Table 4 defaults',
      color: SYSTEM_COLOR,
      radius: 4,
      points: data.systems.map((s) => ({
        x: s.update,
        y: s.lookup,
        label: `${s.name}: ${s.policy}, T = ${s.sizeRatio}, L = ${s.levels}${s.bufferAssumed ? ' (buffer assumed)' : ''}`,
      })),
    });
    const annotations: Annotation[] = data.systems.map((s) => ({ x: s.update, y: s.lookup, label: s.name, color: SYSTEM_COLOR }));
    // The ring marks the choice; its label joins the systems' so the chart keeps labels apart.
    const highlight: Annotation | undefined = chosen && { x: chosen.update, y: chosen.lookup, label: '', color: CHOSEN_COLOR };
    if (chosen) annotations.push({ x: chosen.update, y: chosen.lookup, label: chosen.label, color: CHOSEN_COLOR });
    return { x: X_AXIS, y: Y_AXIS, series, annotations, highlight };
  }, [data, chosen]);

  return (
    <ChartCard
      id="tradeoff"
      wide
      title="Lookup cost against update cost, every size ratio"
      caption={
        <>
          Each curve runs from <LearnLink to="size-ratio">size ratio</LearnLink> 2, where leveling and tiering meet, to its largest: leveling
          ends as a sorted array (cheap lookups, costly updates), tiering as a log. Black points: five real systems’ defaults. Orange: the
          holistic design for the workload on the left. Hover a point for its T.
        </>
      }
      detail={
        <>
          Monkey Fig 4 and Fig 8. The curves end at T<sub>lim</sub> = {data ? formatCount(data.sizeRatioLimit) : '…'} and use{' '}
          {formatSig(bits, 3)} bits/entry and a {formatBytes(bufferBytes)} buffer; Monkey’s filters are tuned to the workload’s lookup
          mix. The black points are the Table 4 defaults of five systems (their own T, policy, bits and buffer, uniform filters).
        </>
      }
      csv={() => (chart ? scatterChartCsv(chart) : '')}
      status={sweepStatus(computing, error)}
    >
      {chart ? (
        <ScatterChart {...chart} height={460} title="Zero-result lookup cost against update cost for every size ratio" data-testid="tradeoff-chart" />
      ) : (
        <ChartPlaceholder height={460} />
      )}
    </ChartCard>
  );
});
