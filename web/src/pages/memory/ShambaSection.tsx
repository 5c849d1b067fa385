/** Section B: SHaMBa's modular Bloom filters — FPR and modules read against D, Table 3, then the budget card. */
import { Detail } from '../../ui/layout/Detail';
import { LearnLink } from '../../ui/layout/LearnLink';
import { useMemo } from 'react';
import { ChartCard } from '../../ui/charts/ChartCard';
import { lineChartCsv, tableCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import type { AxisSpec, LineSeries } from '../../ui/charts/types';
import type { SweepResult, SweepState } from '../../compute';
import { formatBound } from '../../documents/url/validate';
import { formatFixed, formatSig } from '../../documents/format';
import { CardGrid } from '../../ui/layout/Page';
import { DataTable, type Column } from '../../ui/layout/DataTable';
import { ShambaBudgetCard, type ShambaSettings } from './ShambaBudgetCard';
import { TableCard } from '../../ui/layout/TableCard';

type View = SweepResult<'memory.shamba'>;

const IDEAL = '#1f5fa8';
const INTEGER = '#d1495b';
const MIX = '#00798c';
const MODULES_AXIS: AxisSpec = { label: 'modules', unit: 'D', domain: [1, 16], ticks: [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16], format: (v) => String(v) };

interface Table3Row extends Record<string, string | number> {
  modules: number;
  probes: string;
  moduleSize: number;
  fpr: number;
  idealFpr: number;
  expectedEmpty: number;
  stopAfterFirst: number;
}

const TABLE3_COLUMNS: Column<Table3Row>[] = [
  { key: 'modules', label: 'Modules D' },
  { key: 'probes', label: 'Probes per module', numeric: false },
  { key: 'moduleSize', label: 'Module size', unit: '% of filter', format: (v) => formatFixed(Number(v), 1) },
  { key: 'fpr', label: 'FPR, integer probes', unit: '%', format: (v) => formatSig(Number(v) * 100, 4) },
  { key: 'idealFpr', label: 'FPR, ideal', unit: '%', format: (v) => formatSig(Number(v) * 100, 4) },
  { key: 'expectedEmpty', label: 'Modules read', unit: 'per empty lookup', format: (v) => formatFixed(Number(v), 4) },
  { key: 'stopAfterFirst', label: 'Stop after module 1', unit: '% of empty', format: (v) => formatSig(Number(v) * 100, 4) },
];

export function ShambaSection({
  view,
  budgetSweep,
  ...settings
}: ShambaSettings & {
  view: SweepState<View>;
  budgetSweep: SweepState<SweepResult<'memory.shambaBudget'>>;
}) {
  const { bitsPerKey, modules, alpha } = settings;
  const v = view.data;
  const charts = useMemo(() => {
    if (!v) return null;
    const rows = v.modules;
    const withInt = rows.filter((r) => r.integer !== null);
    const fprSeries: LineSeries[] = [
      { id: 'ideal', label: 'ideal probes, (b/D)·ln 2 per module', color: IDEAL, points: rows.map((r) => ({ x: r.modules, y: r.idealFpr })) },
      { id: 'integer', label: 'integer probes, Table 3 split', color: INTEGER, markers: true, points: withInt.map((r) => ({ x: r.modules, y: r.integer?.fpr ?? NaN })) },
      { id: 'module', label: 'each module alone, fₛₘ', color: MIX, dash: '6 4', points: rows.map((r) => ({ x: r.modules, y: r.moduleFpr })) },
    ];
    const readSeries: LineSeries[] = [
      { id: 'ideal', label: 'empty lookup, ideal probes', color: IDEAL, points: rows.map((r) => ({ x: r.modules, y: r.idealEmpty })) },
      { id: 'integer', label: 'empty lookup, integer probes', color: INTEGER, markers: true, points: withInt.map((r) => ({ x: r.modules, y: r.integer?.expectedEmpty ?? NaN })) },
      { id: 'mix', label: `all lookups at α = ${formatBound(alpha)}`, color: MIX, dash: '6 4', points: rows.map((r) => ({ x: r.modules, y: r.idealMix })) },
    ];
    const table: Table3Row[] = withInt.map((r) => ({
      modules: r.modules,
      probes: (r.integer?.hashes ?? []).join(' + '),
      moduleSize: 100 / r.modules,
      fpr: r.integer?.fpr ?? NaN,
      idealFpr: r.idealFpr,
      expectedEmpty: r.integer?.expectedEmpty ?? NaN,
      stopAfterFirst: r.integer?.stopAfterFirst ?? NaN,
    }));
    return {
      fpr: { x: MODULES_AXIS, y: { label: 'false-positive rate', unit: 'probability', scale: 'log' as const }, series: fprSeries },
      reads: { x: MODULES_AXIS, y: { label: 'modules read', unit: 'per lookup', zero: true }, series: readSeries },
      table,
      hashes: withInt.length,
    };
  }, [v, alpha]);

  if (!v || !charts) {
    return view.error ? (
      <p role="alert" className="error">
        {view.error}
      </p>
    ) : null;
  }
  const b = formatBound(bitsPerKey);
  return (
    <section className="memory-section" aria-labelledby="memory-b">
      <header className="memory-section-head">
        <h2 id="memory-b">
          <span className="memory-tag">B</span> SHaMBa: split each filter into modules
        </h2>
        <p>
          When <LearnLink to="bloom">filters</LearnLink> do not fit in the cache, SHaMBa splits each filter into D modules read in
          order: most lookups for missing keys stop after the first module, which stays cached, and later modules are skipped when
          they save too little.
        </p>
        <Detail testId="memory-b-detail">
          When filters do not fit in the block cache, a monolithic filter must be read whole before it answers. A modular
          Bloom filter (Mun, Zhu, Raman, Athanassoulis) splits one filter of b bits/key into D modules that every key is
          inserted into; a lookup reads them in order and stops at the first “no”. With ideal probe counts the FPR is the
          same as one filter’s (Eq 5), yet most empty lookups stop after module 1, which SHaMBa caches with high
          priority. A per-file utility decides whether reading the remaining modules is worth it.
        </Detail>
      </header>
      <CardGrid>
        <ChartCard
          id="mbf-fpr"
          title="False-positive rate vs modules"
          caption={`${b} bits/key in total. Each module alone is a weak filter (dashed), but a key must pass all D, so with ideal probe counts the FPR stays that of one filter for any D.`}
          detail={`SHaMBa Eq 5 and 7. Whole probes (round(b·ln 2) = ${charts.hashes}, split as in SHaMBa Table 3) cost a little and allow at most ${charts.hashes} modules.`}
          csv={() => lineChartCsv(charts.fpr)}
        >
          <LineChart {...charts.fpr} title="Modular Bloom filter FPR against the number of modules" data-testid="mbf-fpr-chart" rules={[{ x: modules, label: `D = ${modules}` }]} height={260} />
        </ChartCard>
        <ChartCard
          id="mbf-reads"
          title="Modules read per lookup vs modules"
          caption={
            <>
              A lookup for a missing key stops at the first module that says “no”; a lookup that finds its key reads all D.
              Dashed: the mix at existing ratio α = {formatBound(alpha)}.
            </>
          }
          detail={
            <>
              An empty lookup reads Σ<sub>d</sub> Π<sub>j&lt;d</sub> f<sub>j</sub> modules (SHaMBa Eq 6, Fig 9).
            </>
          }
          csv={() => lineChartCsv(charts.reads)}
        >
          <LineChart {...charts.reads} title="Expected modules read per lookup against the number of modules" data-testid="mbf-reads-chart" rules={[{ x: modules, label: `D = ${modules}` }]} height={260} />
        </ChartCard>
        <TableCard
          id="mbf-table3"
          wide
          title={`SHaMBa Table 3 at ${b} bits/key`}
          caption={`Every split of the ${charts.hashes} whole probes over D modules (the remainder goes to the last modules).`}
          detail="The paper measured 0.825 / 0.847 / 0.887 / 0.830 % and 1 / 1.093 / 1.251 / 1.997 modules for D = 1, 2, 3, 7 at 10 bits/key."
          csv={() => tableCsv(TABLE3_COLUMNS, charts.table)}
        >
          <DataTable columns={TABLE3_COLUMNS} rows={charts.table} rowKey={(r) => String(r.modules)} testId="table3" highlight={(r) => r.modules === modules} />
        </TableCard>
        <ShambaBudgetCard {...settings} view={v} sweep={budgetSweep} />
      </CardGrid>
    </section>
  );
}
