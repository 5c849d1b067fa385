/** The level-size optimiser (MSLS §6, Table 1 "opt", Fig 14): current geometric sizes vs optimised. */
import { BarChart } from '../../ui/charts/BarChart';
import { ChartCard } from '../../ui/charts/ChartCard';
import { tableCsv } from '../../ui/charts/csv';
import type { BarChartProps } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { MIB, type OptimizeResult } from '../../compute/sweeps/msls';
import { formatCount, formatFixed, formatPercent, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { ChartPlaceholder, sweepStatus } from '../../ui/layout/sweepStatus';
import { formatMiB, formatWa, UNIFORM_COLOR, useNarrow } from './common';
import type { MslsState } from '../../documents/urls/msls';

const BASELINE_COLOR = '#9aa5b4';

interface LevelRow extends Record<string, string | number> {
  level: string;
  currentMiB: number;
  optimizedMiB: number;
  optimizedItems: number;
  currentRatio: number;
  optimizedRatio: number;
  currentWa: number;
  optimizedWa: number;
}

const ratio = (v: number) => (Number.isFinite(v) ? formatSig(v, 3) : '—');
const COLUMNS: Column<LevelRow>[] = [
  { key: 'level', label: 'Level' },
  { key: 'currentMiB', label: 'Current size', format: (v) => formatMiB(Number(v)) },
  { key: 'optimizedMiB', label: 'Optimized size', format: (v) => formatMiB(Number(v)) },
  { key: 'optimizedItems', label: 'Optimized', unit: 'items', format: (v) => formatCount(Number(v)) },
  { key: 'currentRatio', label: 'Growth now', unit: 'Size(l)/Size(l−1)', format: (v) => ratio(Number(v)) },
  { key: 'optimizedRatio', label: 'Growth opt.', unit: 'Size(l)/Size(l−1)', format: (v) => ratio(Number(v)) },
  { key: 'currentWa', label: 'WA into level now', unit: '×', format: (v) => formatFixed(Number(v), 3) },
  { key: 'optimizedWa', label: 'WA into level opt.', unit: '×', format: (v) => formatFixed(Number(v), 3) },
];

const CSV_COLUMNS = [
  { key: 'level', label: 'level' },
  { key: 'currentMiB', label: 'current size', unit: 'MiB' },
  { key: 'optimizedMiB', label: 'optimized size', unit: 'MiB' },
  { key: 'optimizedItems', label: 'optimized size', unit: 'items' },
  { key: 'currentRatio', label: 'current growth', unit: 'Size(l)/Size(l-1)' },
  { key: 'optimizedRatio', label: 'optimized growth', unit: 'Size(l)/Size(l-1)' },
  { key: 'currentWa', label: 'current WA into level', unit: '×' },
  { key: 'optimizedWa', label: 'optimized WA into level', unit: '×' },
] as const;

export function optimizeRows(o: OptimizeResult, entryBytes: number): LevelRow[] {
  const mib = (items: number) => (items * entryBytes) / MIB;
  return o.baselineItems.map((size, i) => ({
    level: `L${i + 1}`,
    currentMiB: mib(size),
    optimizedMiB: mib(o.optimizedItems[i]),
    optimizedItems: o.optimizedItems[i],
    currentRatio: i === 0 ? NaN : size / o.baselineItems[i - 1],
    optimizedRatio: i === 0 ? NaN : o.optimizedItems[i] / o.optimizedItems[i - 1],
    // perLevel[0] is the flush into L0; level l is perLevel[l].
    currentWa: o.baselinePerLevel[i + 1],
    optimizedWa: o.optimizedPerLevel[i + 1],
  }));
}

export function OptimizeCard({ sweep, s }: { sweep: SweepState<SweepResult<'msls.optimize'>>; s: MslsState }) {
  const narrow = useNarrow();
  const o = sweep.data;
  const rows = o ? optimizeRows(o, s.entryBytes) : [];
  const bars: BarChartProps | null = o
    ? {
        title: 'Level sizes, current geometric vs optimized for write amplification',
        x: { label: 'level' },
        y: { label: 'level size', unit: 'MiB', scale: 'log', format: (v) => formatSig(v, 3) },
        categories: rows.map((r) => r.level),
        groups: [
          { id: 'current', label: 'current (geometric)', color: BASELINE_COLOR, values: rows.map((r) => r.currentMiB) },
          { id: 'optimized', label: 'optimized', color: UNIFORM_COLOR, values: rows.map((r) => r.optimizedMiB) },
        ],
      }
    : null;
  return (
    <ChartCard
      id="optimize"
      wide
      title="Optimized level sizes"
      caption="The level sizes that minimise the write amplification, with the same number of levels and the same data."
      detail="MSLS §6, Table 1 (“Analysis, opt”), Fig 14: Size(1)…Size(L−1) that minimise the MSLS WA, searched in the model worker."
      csv={o ? () => tableCsv(CSV_COLUMNS, rows) : undefined}
      status={sweepStatus(sweep.computing, sweep.error, sweep.ms)}
      footer={
        o && (
          <>
            <Readouts
              label="Level-size optimisation"
              items={[
                { label: 'WA, current sizes', value: o.baselineTotal, text: formatWa(o.baselineTotal), testId: 'opt-baseline' },
                { label: 'WA, optimized', value: o.optimizedTotal, text: formatWa(o.optimizedTotal), testId: 'opt-optimized' },
                { label: 'Gain', value: o.gain, text: formatPercent(o.gain, 3), testId: 'opt-gain' },
                { label: 'Model evaluations', value: o.evaluations, text: formatCount(o.evaluations), testId: 'opt-evaluations' },
              ]}
            />
            <p className="fine msls-note">
              L, the buffer, c0, the entry size and the key distribution stay fixed and the last level still holds all N
              keys, so lookups and memory are unchanged. The optimum evens out the WA of the steps; under skew the
              upper levels shrink and growth speeds up towards the bottom (try Zipf θ = 1.2).
            </p>
            <p className="fine msls-constraints" data-testid="opt-constraints">
              Constraints: Size(l+1)/Size(l) ≥ {formatSig(o.minGrowthFactor, 4)}, Size(1) ≥ {formatSig(o.minLevel1Items, 4)}{' '}
              item{o.minLevel1Items === 1 ? '' : 's'}.{' '}
              {o.activeConstraints.length === 0 ? (
                <>None binds: the optimum is interior.</>
              ) : (
                <>
                  Binding at the optimum: <strong>{o.activeConstraints.join('; ')}</strong> — the gain depends on this bound.
                </>
              )}
            </p>
            <div className="msls-page-table">
              <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.level} testId="msls-optimize-table" />
            </div>
          </>
        )
      }
    >
      {bars ? <BarChart {...bars} data-testid="msls-optimize-chart" valueLabels={!narrow && rows.length <= 10} height={260} /> : <ChartPlaceholder height={260} />}
    </ChartCard>
  );
}
