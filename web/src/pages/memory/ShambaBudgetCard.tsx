/** SHaMBa Fig 6/7 style: I/O per lookup against the cache budget, its breakdown, and the utility table. */
import { useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv, tableCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { LineSeries } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { SST, sstSizes, type AccessCost, type CurveId, type UtilityRow } from '../../compute/sweeps/memoryShamba';
import { formatBound } from '../../documents/url/validate';
import { formatFixed, formatPercent, formatSig } from '../../documents/format';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { Readouts } from '../../ui/layout/Readouts';
import { ChartPlaceholder } from '../../ui/layout/sweepStatus';
import { TableCard } from '../../ui/layout/TableCard';

type View = SweepResult<'memory.shamba'>;
type Skip = 'none' | 'partial' | 'full';

const SUFFIX: Record<Skip, string> = { none: '', partial: '-P', full: '-F' };
const COLORS = { mono: '#5d6b7f', eq: '#1f5fa8', prop: '#e09f3e' };

function curveStyle(id: CurveId, skip: Skip): { label: string; color: string; dash?: string } {
  switch (id) {
    case 'mono':
      return { label: 'state of the art (one filter)', color: COLORS.mono };
    case 'eq':
      return { label: `SHaMBa-eq${SUFFIX[skip]}`, color: COLORS.eq };
    case 'prop':
      return { label: `SHaMBa-prop${SUFFIX[skip]}`, color: COLORS.prop };
    case 'eq-none':
      return { label: 'SHaMBa-eq, no skipping', color: COLORS.eq, dash: '5 4' };
    case 'prop-none':
      return { label: 'SHaMBa-prop, no skipping', color: COLORS.prop, dash: '5 4' };
  }
}

interface BreakdownRow extends Record<string, string | number> {
  filter: string;
  bits: string;
  used: string;
  hits: string;
  indexHit: number;
  filterIo: number;
  indexIo: number;
  dataIo: number;
  total: number;
}

const pct = (v: number) => formatPercent(v, 3);
const io = (v: string | number) => formatSig(Number(v), 3);

const BREAKDOWN_COLUMNS: Column<BreakdownRow>[] = [
  { key: 'filter', label: 'Filter' },
  { key: 'bits', label: 'Module bits', unit: 'bits/key', numeric: false },
  { key: 'used', label: 'Modules read', unit: 'used / D', numeric: false },
  { key: 'hits', label: 'Module hit rates', unit: 'cached share', numeric: false },
  { key: 'indexHit', label: 'Index hit rate', format: (v) => pct(Number(v)) },
  { key: 'filterIo', label: 'Filter', unit: 'pages', format: io },
  { key: 'indexIo', label: 'Index', unit: 'pages', format: io },
  { key: 'dataIo', label: 'Data', unit: 'pages', format: io },
  { key: 'total', label: 'Total', unit: 'pages', format: io },
];

function breakdown(filter: string, c: AccessCost): BreakdownRow {
  return {
    filter,
    bits: c.moduleBits.map((b) => formatBound(b)).join(' + '),
    used: `${c.modulesUsed} / ${c.moduleBits.length}`,
    hits: c.moduleHitRates.map((h, d) => (d < c.modulesUsed ? pct(h) : 'skipped')).join(' · '),
    indexHit: c.indexHitRate,
    filterIo: c.io.filter,
    indexIo: c.io.index,
    dataIo: c.io.data,
    total: c.io.total,
  };
}

const UTILITY_COLUMNS: Column<UtilityRow>[] = [
  { key: 'filter', label: 'Filter' },
  { key: 'module', label: 'Module' },
  { key: 'bits', label: 'Bits', unit: 'bits/key', format: (v) => formatBound(Number(v)) },
  { key: 'fpr', label: 'FPR', format: (v) => formatSig(Number(v), 4) },
  { key: 'reach', label: 'Reached by', unit: 'share of empty lookups', format: (v) => formatSig(Number(v), 4) },
  { key: 'utility', label: 'Utility', unit: 'I/O per lookup', format: (v) => formatSig(Number(v), 4) },
  { key: 'threshold', label: 'Threshold θ', unit: 'I/O', format: (v) => formatBound(Number(v)) },
  { key: 'partial', label: 'Partial (P)', numeric: false, format: (v) => <span className={v === 'skip' ? 'skip-tag' : 'use-tag'}>{v}</span> },
  { key: 'full', label: 'Full (F)', numeric: false, format: (v) => <span className={v === 'skip' ? 'skip-tag' : 'use-tag'}>{v}</span> },
];

/** The SHaMBa filter the section's controls set: its bits, modules, cache budget, workload and module skipping. */
export interface ShambaSettings {
  bitsPerKey: number;
  modules: number;
  budget: number;
  alpha: number;
  beta: number;
  skip: Skip;
}

export function ShambaBudgetCard({
  bitsPerKey,
  modules,
  budget,
  alpha,
  beta,
  skip,
  view,
  sweep,
}: ShambaSettings & {
  view: View;
  sweep: SweepState<SweepResult<'memory.shambaBudget'>>;
}) {
  const data = sweep.data;
  const chart = useMemo(() => {
    const series: LineSeries[] = (data ?? []).map((c) => ({ id: c.id, ...curveStyle(c.id, skip), points: c.points.map((p) => ({ x: p.budget, y: p.io })) }));
    return {
      x: { label: 'cache budget', unit: '% of index + filter size', domain: [10, 150] as const, ticks: [10, 25, 50, 70, 100, 125, 150] },
      y: { label: 'I/O', unit: 'pages per lookup reaching an SST', scale: 'log' as const },
      series,
    };
  }, [data, skip]);

  const rows = [breakdown('State of the art', view.mono), breakdown(`SHaMBa-eq${SUFFIX[skip]}`, view.eq), breakdown(`SHaMBa-prop${SUFFIX[skip]}`, view.prop)];
  const mono = view.mono.io.total;
  const best = Math.min(view.eq.io.total, view.prop.io.total);
  const b = formatBound(bitsPerKey);
  return (
    <>
      <ChartCard
        id="shamba-budget"
        wide
        title="I/O per lookup vs cache budget"
        caption={
          <>
            Pages read by one lookup reaching a file, as the cache grows: a split filter whose first module stays cached needs
            far fewer reads than a whole filter while memory is scarce. SHaMBa-eq: {modules} equal modules; SHaMBa-prop: a
            first module sized to the budget.
          </>
        }
        detail={
          <>
            One lookup reaching an SST of SHaMBa Table 5 (64 B entries, 32 B keys, 1,024 blocks of 4 KiB: an 8-page index
            and a {formatSig(sstSizes(bitsPerKey).filterBytes / SST.pageBytes, 3)}-page filter at {b} bits/key), priced with the per-access model of
            §B.3.9. SHaMBa-prop: module 1 gets ⌊b·budget⌋ bits/key, one filter from
            100 %. Hit rates are an assumption, not a measurement: all SSTs are alike; the cache holds the index and module 1
            first (high priority; a monolithic filter is all module 1), then later modules and data blocks, each by reads
            per byte; a kind of block with x % of its bytes cached hits x % of the time; skipped modules take no space.
            Compare the shapes with SHaMBa Fig 6 (eq) and Fig 7 (prop), measured there with an LRU cache. Utility
            ignores the cache: with β ≤ 1, P and F skip module 2 even when the cache holds it (pitfall P-B3), which
            costs reads at large budgets.
          </>
        }
        csv={() => lineChartCsv(chart)}
        status={sweep.computing ? 'computing…' : sweep.error ? <span className="error">{sweep.error}</span> : undefined}
        footer={
          <>
            <Readouts
              label={`I/O per lookup reaching an SST at a ${budget} % budget`}
              items={[
                { label: 'State of the art', value: mono, text: formatSig(mono, 3), testId: 'io-mono', hint: 'pages per lookup reaching an SST' },
                { label: `SHaMBa-eq${SUFFIX[skip]}`, value: view.eq.io.total, text: formatSig(view.eq.io.total, 3), testId: 'io-eq' },
                { label: `SHaMBa-prop${SUFFIX[skip]}`, value: view.prop.io.total, text: formatSig(view.prop.io.total, 3), testId: 'io-prop' },
                { label: 'Best SHaMBa speed-up', value: mono / best, text: `${formatFixed(mono / best, 2)}×`, testId: 'io-gain' },
              ]}
            />
            <DataTable
              columns={BREAKDOWN_COLUMNS}
              rows={rows}
              rowKey={(r) => r.filter}
              testId="shamba-breakdown"
              caption={`Where the pages go at a ${budget} % budget (α = ${formatBound(alpha)}, β = ${formatBound(beta)}).`}
            />
          </>
        }
      >
        {data ? (
          <LineChart {...chart} title="I/O per lookup against the block-cache budget" data-testid="shamba-budget-chart" rules={[{ x: budget, label: `${budget} %` }]} height={340} />
        ) : (
          <ChartPlaceholder height={340} />
        )}
      </ChartCard>
      <TableCard
        id="shamba-utility"
        wide
        title="Module utility and skip decisions"
        caption={
          <>
            How many data reads per lookup each module saves; a module that saves less than its threshold is skipped, with
            every module after it. Here α = {formatBound(alpha)}, β = {formatBound(beta)}, at a {budget} % budget.
          </>
        }
        detail={
          <>
            u<sub>d</sub> = β·(1 − α)·Π<sub>j&lt;d</sub> f<sub>j</sub>·(1 − f<sub>d</sub>): the data reads per lookup module d
            saves (SHaMBa Eq 8, as a saving). Modules are read in order, so skipping module d skips the rest; a module is
            skipped when u<sub>d</sub> ≤ θ<sub>d</sub> (P never skips module 1). With β ≤ 1, u<sub>2</sub> stays below 0.1,
            so P skips module 2 at the paper’s θ<sub>2</sub> (pitfall P-B3).
          </>
        }
        csv={() =>
          tableCsv(
            UTILITY_COLUMNS.map((c) => ({ key: c.key, label: c.label, unit: c.unit })),
            view.utilities,
          )
        }
      >
        <DataTable columns={UTILITY_COLUMNS} rows={view.utilities} rowKey={(r) => `${r.filter}-${r.module}`} testId="utility-table" />
      </TableCard>
    </>
  );
}
