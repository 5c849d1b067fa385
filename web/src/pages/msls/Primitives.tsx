/** The primitives the model is built from: Unique(p) (Fig 4) and a level's key density (Fig 6). */
import { useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { LineChartProps } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { formatCount } from '../../documents/format';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { formatTheta, UNIFORM_COLOR, ZIPF_COLOR } from './common';
import type { MslsState } from '../../documents/urls/msls';

const HEIGHT = 280;

export function UniqueCard({ sweep, s, walItems }: { sweep: SweepState<SweepResult<'msls.primitives'>>; s: MslsState; walItems: number | undefined }) {
  const d = sweep.data;
  const chart = useMemo<LineChartProps | null>(() => {
    if (!d) return null;
    return {
      title: 'Distinct keys among p inserts, uniform vs Zipf',
      x: { label: 'inserts p', unit: 'requests', scale: 'log', format: (v) => formatCount(v) },
      y: { label: 'Unique(p) / N', unit: 'fraction of keys', domain: [0, 1] },
      series: [
        { id: 'uniform', label: 'uniform', color: UNIFORM_COLOR, points: d.requests.map((x, i) => ({ x, y: d.uniform[i] })) },
        { id: 'zipf', label: `Zipf θ = ${formatTheta(s.theta)}`, color: ZIPF_COLOR, points: d.requests.map((x, i) => ({ x, y: d.zipf[i] })) },
      ],
      rules: [{ x: s.keys, label: 'p = N' }],
    };
  }, [d, s.theta, s.keys]);
  return (
    <ChartCard
      id="unique"
      title="Unique: how many distinct keys"
      caption={`Expected distinct keys among p inserts, as a share of N = ${formatCount(s.keys)}.`}
      detail="MSLS Fig 4. Every level’s size is a Unique of its interval, and merging tables adds their intervals."
      footer={
        <p className="fine msls-note">
          Under skew the hot keys repeat, so collecting distinct keys takes far more inserts
          {walItems !== undefined ? `; one flush is ${formatCount(walItems)} inserts` : ''}.
        </p>
      }
      csv={chart ? () => lineChartCsv(chart) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
    >
      {chart ? <LineChart {...chart} title={chart.title} data-testid="msls-unique-chart" height={HEIGHT} /> : <ChartPlaceholder height={HEIGHT} />}
    </ChartCard>
  );
}

export function DensityCard({ sweep, s }: { sweep: SweepState<SweepResult<'msls.primitives'>>; s: MslsState }) {
  const d = sweep.data;
  const chart = useMemo<LineChartProps | null>(() => {
    if (!d || d.density.length === 0) return null;
    return {
      title: 'Key density along each level, by distance behind the compaction cursor',
      x: { label: 'distance behind the cursor', unit: 'fraction of key space', domain: [0, 1] },
      y: { label: 'density ÷ level mean', unit: '×', zero: true },
      series: d.density.map((profile, l) => ({
        id: `L${l + 1}`,
        label: `L${l + 1}`,
        color: SERIES_COLORS[l % SERIES_COLORS.length],
        points: profile.map((p) => ({ x: p.distance, y: p.relative })),
      })),
    };
  }, [d]);
  const dist = s.dist === 'z' ? `Zipf θ = ${formatTheta(s.theta)}` : 'uniform keys';
  return (
    <ChartCard
      id="density"
      title="Density gradient of round-robin compaction"
      caption={`Key density of each level behind its round-robin cursor, ${dist}.`}
      detail="MSLS Fig 6 / Theorem 3. A compaction moves more keys than the average density suggests: MSLS’s DInterval."
      footer={
        <p className="fine msls-note">
          Relative to the level’s average. At distance 0 the level was just compacted and is sparse; at 1 it is next in
          line and densest, so a compaction moves more keys than the average.
          {d && d.density.length > 0 ? ' The last level holds every key and is omitted.' : ''}
        </p>
      }
      csv={chart ? () => lineChartCsv(chart) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
    >
      {chart ? (
        <LineChart {...chart} title={chart.title} data-testid="msls-density-chart" height={HEIGHT} />
      ) : d ? (
        <p className="fine">With one level there is no level above the last to draw.</p>
      ) : (
        <ChartPlaceholder height={HEIGHT} />
      )}
    </ChartCard>
  );
}
