/**
 * A fitted trace's key popularity: accesses by rank in the trace (markers) against the maximum-
 * likelihood fit (the engine's own fitted accesses), and against the distribution the page is set
 * to now when the user overrode it.
 */
import { useMemo } from 'react';
import type { TraceFit, Workload } from '../../documents/engine';
import { expectedAccesses } from '../../compute/rankFrequency';
import { ChartCard, LineChart, lineChartCsv, type LineChartProps } from '../../ui/charts';

function distributionLabel(d: Workload['distribution']): string {
  switch (d.kind) {
    case 'uniform':
      return 'uniform';
    case 'hotspot':
      return `hotspot ${d.hot_fraction}/${d.hot_probability}`;
    case 'exponential':
      return `exponential ${d.percentile}% on ${d.fraction}`;
    case 'scrambled_zipf':
      return `scrambled Zipf θ = ${d.theta}`;
    default:
      return `${d.kind === 'latest' ? 'latest' : 'Zipf'} θ = ${d.theta}`;
  }
}

export function RankFrequencyCard({ fit, now }: { fit: TraceFit; now: Workload['distribution'] | null }) {
  const p = fit.popularity;
  const chart = useMemo((): LineChartProps | null => {
    const rows = p.rank_frequency.filter(([rank, observed]) => rank > 0 && observed > 0);
    if (rows.length === 0) return null;
    const ranks = rows.map(([rank]) => rank);
    const fitted = p.distribution === 'zipf' ? p.theta : null;
    const series: LineChartProps['series'][number][] = [
      { id: 'trace', label: 'trace', markers: true, points: rows.map(([rank, observed]) => ({ x: rank, y: observed })) },
      {
        id: 'fit',
        label: p.distribution === 'zipf' ? `fit: Zipf θ = ${p.theta.toFixed(3)}` : 'fit: uniform',
        points: rows.map(([rank, , fit]) => ({ x: rank, y: fit })),
      },
    ];
    // The distribution the page tunes for, when the user set it away from the fit.
    // Only a plain Zipf (or uniform) has the rank curve drawn here; YCSB's choosers do not.
    const theta = !now || now.kind === 'hotspot' || now.kind === 'exponential' || now.kind === 'scrambled_zipf' ? undefined : now.kind === 'uniform' ? null : now.theta;
    if (now && theta !== undefined && theta !== fitted) {
      const ys = expectedAccesses(ranks, p.accesses, p.keys, theta);
      series.push({ id: 'now', label: `your setting: ${distributionLabel(now)}`, dash: '5 4', points: ranks.map((x, i) => ({ x, y: ys[i] })) });
    }
    return {
      title: 'Accesses by key rank',
      x: { label: 'key popularity rank', scale: 'log' },
      y: { label: 'accesses', scale: 'log' },
      series,
    };
  }, [p, now]);
  if (!chart) return null;
  return (
    <ChartCard
      id="rank-frequency"
      title="Key popularity: the trace against the fit"
      caption={`${p.accesses.toLocaleString('en-US')} accesses to ${p.keys.toLocaleString('en-US')} keys; the largest gap between the two rank CDFs (KS distance) is ${p.ks_distance.toFixed(3)}.`}
      csv={() => lineChartCsv(chart)}
    >
      <LineChart {...chart} data-testid="tune-rank-frequency" />
    </ChartCard>
  );
}
