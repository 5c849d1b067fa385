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
import { latencyCsv, latencyRows, stallRows, throughputSeries, type LatencyRow, type StallRow } from './reportTables';
import { toCsv } from '../../ui/charts/csv';

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

const STALL_COLUMNS: Column<StallRow>[] = [
  { key: 'phase', label: 'Phase', numeric: false },
  { key: 'slowdowns', label: 'Slowed down', numeric: true, format: (v) => formatCount(Number(v)) },
  { key: 'stops', label: 'Stopped', numeric: true, format: (v) => formatCount(Number(v)) },
  { key: 'flushWaits', label: 'Flush waited', numeric: true, format: (v) => formatCount(Number(v)) },
  { key: 'pagesMerged', label: 'Pages merged stalled', numeric: true, format: (v) => formatCount(Number(v)) },
  { key: 'stalledNs', label: 'Time stalled', numeric: true, format: (v) => formatDuration(Number(v)) },
];

/** How the run's merges ran, which decides what the stall table can show. */
const MERGES_NOTE: Record<NonNullable<Report['merges']> | 'unknown', string> = {
  paced: 'Merges were paced: each write merged a small slice of the pending work.',
  inline: 'Merges ran inline: each ran to completion inside the write whose flush made it due, so no write stalled — that write waited for the whole merge instead (see the latency maximum).',
  background: 'Merges ran in the background (a native run on files, where it is the default: lsm run --dir): writes waited only when the merger threads fell behind, and a flush wait is a full buffer waiting for the last one to be flushed.',
  unknown: 'The report does not say how its merges ran.',
};

export function LatencyCards({ report }: { report: Report }) {
  const rows = useMemo(() => latencyRows(report), [report]);
  const stalls = useMemo(() => stallRows(report), [report]);
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
      {stalls.length > 0 && (
        <TableCard
          id="stalls"
          wide
          title="Write stalls"
          caption={`Writes that waited behind merges, by RocksDB's thresholds (the design's write_stalls): slowed down (the write merged a larger slice), stopped (it merged until level 1's files or the pending merge bytes fell under the stop threshold), or a flush that waited for the merges the last flush started. ${MERGES_NOTE[report.merges ?? 'unknown']}`}
          csv={() =>
            toCsv(
              ['phase', 'slowed down', 'stopped', 'flush waited', 'pages merged stalled', 'time stalled (ns)'],
              stalls.map((r) => [r.phase, r.slowdowns, r.stops, r.flushWaits, r.pagesMerged, r.stalledNs]),
            )
          }
        >
          <DataTable columns={STALL_COLUMNS} rows={stalls} rowKey={(r) => r.phase} testId="stalls-table" caption="Write stalls" />
        </TableCard>
      )}
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
