/** The benchmark's chart: each store's median insert and lookup rates, on a log axis. */
import { useMemo } from 'react';
import { BarChart, ChartCard, barChartCsv, type BarChartProps } from '../../ui/charts';
import type { StoreSummary } from './storageBench';

export function RatesCard({ stores }: { stores: readonly StoreSummary[] }) {
  const chart = useMemo((): Omit<BarChartProps, 'title'> | null => {
    if (stores.length === 0) return null;
    return {
      x: { label: 'store' },
      y: { label: 'rate', unit: 'operations/s', scale: 'log' },
      categories: stores.map((s) => s.label),
      groups: [
        { id: 'inserts', label: 'inserts / s (median)', values: stores.map((s) => s.inserts.median) },
        { id: 'lookups', label: 'lookups / s (median)', values: stores.map((s) => s.lookups.median) },
      ],
    };
  }, [stores]);
  if (!chart) return null;
  return (
    <ChartCard id="rates" wide title="Inserts and lookups per second, by store" caption="Medians, on a log axis (the stores differ by orders of magnitude)." csv={() => barChartCsv(chart)}>
      <BarChart {...chart} title="Inserts and lookups per second, by store" data-testid="bench-chart" valueLabels height={300} />
    </ChartCard>
  );
}
