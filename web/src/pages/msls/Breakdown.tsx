/** Where the writes go: WA by source (log, flush, each compaction step), MSLS vs worst case (Table 1). */
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { tableCsv } from '../../ui/charts/csv';
import type { BarChartProps } from '../../ui/charts/types';
import { sourceLabels, type CurrentResult } from '../../compute/sweeps/msls';
import { formatCount, formatFixed } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { useNarrow, UNIFORM_COLOR, WA_AXIS, WORST_COLOR, WORST_LABEL, ZIPF_COLOR, zipfLabel } from './common';
import type { MslsState } from '../../documents/urls/msls';

interface SourceRow extends Record<string, string | number | null> {
  source: string;
  msls: number;
  worst: number;
  /** Interval(l): inserts over which this step's writes are amortised. */
  interval: number | null;
  /** Write(l+1): items written by this step per interval. */
  written: number | null;
}

const COLUMNS: Column<SourceRow>[] = [
  { key: 'source', label: 'Source' },
  { key: 'msls', label: 'MSLS', unit: '×', format: (v) => formatFixed(Number(v), 3) },
  { key: 'worst', label: 'Worst case', unit: '×', format: (v) => formatFixed(Number(v), 3) },
  { key: 'interval', label: 'Interval', unit: 'inserts', numeric: true, format: (v) => (v === null ? '' : formatCount(Number(v))) },
  { key: 'written', label: 'Written', unit: 'items', numeric: true, format: (v) => (v === null ? '' : formatCount(Number(v))) },
];

const CSV_COLUMNS = [
  { key: 'source', label: 'source' },
  { key: 'msls', label: 'MSLS write amplification', unit: '×' },
  { key: 'worst', label: 'worst-case write amplification', unit: '×' },
  { key: 'interval', label: 'MSLS interval', unit: 'inserts' },
  { key: 'written', label: 'MSLS items written per interval', unit: 'items' },
] as const;

/** Bar categories on a phone, where "L0→L1" would overlap: the level each source writes into. */
export function barLabels(levels: number): string[] {
  return ['log', ...Array.from({ length: levels + 1 }, (_, l) => `L${l}`)];
}

export function breakdownRows({ msls, worst }: CurrentResult): SourceRow[] {
  const labels = sourceLabels(msls.resolved.levels);
  const mslsValues = [msls.log, ...msls.perLevel];
  const worstValues = [worst.log, ...worst.perLevel];
  const rows: SourceRow[] = labels.map((source, i) => {
    const step = i >= 2 ? msls.compactions[i - 2] : null;
    return {
      source,
      msls: mslsValues[i],
      worst: worstValues[i],
      interval: step ? step.intervalRequests : i === 1 ? msls.resolved.walItems : null,
      written: step ? step.writeItems : i === 1 ? msls.flush * msls.resolved.walItems : null,
    };
  });
  rows.push({ source: 'Total', msls: msls.total, worst: worst.total, interval: null, written: null });
  return rows;
}

export function BreakdownCard({ result, s }: { result: CurrentResult | undefined; s: MslsState }) {
  const narrow = useNarrow();
  if (!result) {
    return (
      <ChartCard id="wa-sources" title="WA by source">
        <p className="fine">No valid design yet: see the message next to the controls.</p>
      </ChartCard>
    );
  }
  const rows = breakdownRows(result);
  const perSource = rows.slice(0, -1);
  const bars: BarChartProps = {
    title: 'Write amplification by source, MSLS vs worst case',
    x: { label: narrow ? 'written into' : 'source' },
    y: WA_AXIS,
    categories: narrow ? barLabels(result.msls.resolved.levels) : perSource.map((r) => r.source),
    groups: [
      {
        id: 'msls',
        label: s.dist === 'z' ? zipfLabel(s.theta) : 'MSLS, uniform',
        color: s.dist === 'z' ? ZIPF_COLOR : UNIFORM_COLOR,
        values: perSource.map((r) => r.msls),
      },
      { id: 'worst', label: WORST_LABEL, color: WORST_COLOR, values: perSource.map((r) => r.worst) },
    ],
  };
  const L = result.msls.resolved.levels;
  return (
    <ChartCard
      id="wa-sources"
      title="WA by source"
      wide
      caption={`Bytes written per byte inserted by each step of the current ${L}-level design. Lx→Ly is a merge into level y; the last step is cheap when the last level is barely larger than the one above it.`}
      detail={
        <>
          MSLS Table 1 (“Analysis, no opt”). Lx→Ly is a compaction into level y, amortised over its interval of inserts. MSLS counts
          the keys that merge away as duplicates, the dense region round-robin compaction picks, levels overflowing their trigger
          and false overlaps at file edges. The worst case (no redundancy; our reconstruction, the paper gives only its assumption)
          moves whole levels.
        </>
      }
      csv={() => tableCsv(CSV_COLUMNS, rows)}
      footer={
        <>
          <div className="msls-page-table">
            <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.source} testId="msls-sources-table" />
          </div>
        </>
      }
    >
      <BarChart {...bars} data-testid="msls-sources-chart" valueLabels={!narrow && perSource.length <= 10} height={290} />
    </ChartCard>
  );
}
