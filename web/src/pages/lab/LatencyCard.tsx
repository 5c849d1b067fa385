/**
 * How long operations took: percentiles per operation class for the load and the measured run
 * (the engine's HdrHistograms), and the engine's throughput over time. Wall-clock figures: they
 * vary run to run, unlike the I/O counters.
 */
import { useMemo } from 'react';
import type { Report } from '../../documents/engine';
import { formatCount, formatDuration } from '../../documents/format';
import { ChartCard, LineChart, lineChartCsv, type LineChartProps } from '../../ui/charts';
import { DataTable, TableCard, type Column } from '../../ui/layout';
import { latencyCsv, latencyRows, throughputSeries, type LatencyRow } from './reportTables';

/**
 * The table's columns for a clock that steps by `resolution` ns: a percentile below one step is
 * shown as "< step" (the exact figure stays in the cell's data-value and the CSV); the mean is
 * not, because a coarse clock's readings still average out to the true mean.
 */
function columnsFor(resolution: number): Column<LatencyRow>[] {
  const percentile = (v: unknown) => (Number(v) < resolution ? `< ${formatDuration(resolution)}` : formatDuration(Number(v)));
  return [
    { key: 'phase', label: 'Phase', numeric: false },
    { key: 'class', label: 'Operation', numeric: false },
    { key: 'count', label: 'Operations', numeric: true, format: (v) => formatCount(Number(v)) },
    { key: 'mean', label: 'Mean', numeric: true, format: (v) => formatDuration(Number(v)) },
    { key: 'p50', label: 'p50', numeric: true, format: percentile },
    { key: 'p95', label: 'p95', numeric: true, format: percentile },
    { key: 'p99', label: 'p99', numeric: true, format: percentile },
    { key: 'p999', label: 'p99.9', numeric: true, format: percentile },
    { key: 'max', label: 'Max', numeric: true, format: percentile },
  ];
}

export function LatencyCards({ report }: { report: Report }) {
  const rows = useMemo(() => latencyRows(report), [report]);
  const columns = useMemo(() => columnsFor(report.latency?.clock_resolution_ns ?? 0), [report]);
  const chart = useMemo((): LineChartProps | null => {
    const series = throughputSeries(report);
    if (series.length === 0) return null;
    return {
      title: 'Throughput over engine time',
      x: { label: 'engine time', unit: 's' },
      y: { label: 'throughput', unit: 'ops/s', zero: true },
      series,
    };
  }, [report]);
  const l = report.latency;
  if (!l) return null;
  return (
    <>
      <TableCard
        id="latency"
        wide
        title="Latency per operation"
        caption={`Engine time per operation (HdrHistogram, 3 significant digits), by class, for the load and the measured run. The clock steps by ${formatDuration(l.clock_resolution_ns)}: a shorter operation reads as 0 or one step, so percentiles below a step show as “< step”; the mean still averages out right.`}
        csv={() => latencyCsv(report)}
      >
        <DataTable columns={columns} rows={rows} rowKey={(r) => `${r.phase}-${r.class}`} testId="latency-table" caption="Latency percentiles" />
      </TableCard>
      {chart && (
        <ChartCard
          id="throughput"
          wide
          title="Throughput over time"
          caption="Operations per second of engine time, sample by sample: the load, then the measured run. Dips are flushes and merges (and, on OPFS and IndexedDB, storage calls)."
          csv={() => lineChartCsv(chart)}
        >
          <LineChart {...chart} data-testid="throughput-chart" />
        </ChartCard>
      )}
    </>
  );
}
