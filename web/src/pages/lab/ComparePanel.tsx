/**
 * Mnemosyne in action: the same skewed workload under uniform, Monkey and Mnemosyne filter
 * allocation with the same bits-per-key budget — measured I/O per lookup and the bits each
 * really spent (from the final tree).
 */
import { useState } from 'react';
import { BarChart, ChartCard, SERIES_COLORS, ScatterChart, barChartCsv, scatterChartCsv } from '../../ui/charts';
import { ControlGroup, ParamControl } from '../../ui/controls';
import { CardGrid, DataTable, type Column } from '../../ui/layout';
import type { UrlState } from '../../ui/state/useUrlState';
import { downloadText } from '../../ui/download/svg';
import { formatInt, formatPercent, formatSig } from '../../documents/format';
import { useLabEngine } from '../../engine/session';
import { compareCsv, savingVsUniform, type CompareRow, type CompareSettings } from './mnemosyne';
import { runComparison } from './runner';
import type { CompareResult } from './results';
import type { LabSchema, LabState } from '../../documents/urls/lab';
import { TaskProgress } from '../../ui/task/TaskProgress';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

export function settingsOf(s: LabState): CompareSettings {
  return {
    bits: s.compareBits,
    preload: s.comparePreload,
    operations: s.compareOps,
    hotFraction: s.compareHotFraction,
    hotProbability: s.compareHotProbability,
    seed: s.seed,
  };
}

export function CompareControls({ url }: { url: UrlState<LabSchema> }) {
  return (
    <ControlGroup title="Skewed workload">
      <ParamControl {...url.bind('compareBits')} />
      <ParamControl {...url.bind('comparePreload')} noSlider />
      <ParamControl {...url.bind('compareOps')} noSlider />
      <ParamControl {...url.bind('compareHotFraction')} />
      <ParamControl {...url.bind('compareHotProbability')} />
      <p className="field-msg">25% inserts, 25% lookups of existing keys, 50% of missing keys; merges by file, 64 KiB files, T = 4.</p>
    </ControlGroup>
  );
}

const NAMES: Record<CompareRow['allocation'], string> = { uniform: 'Uniform', monkey: 'Monkey', mnemosyne: 'Mnemosyne' };

type TableRow = Record<string, string | number | null> & { allocation: string };

export function ComparePanel({ url, stored }: { url: UrlState<LabSchema>; stored: CompareResult | null }) {
  const engine = useLabEngine();
  const [live, setLive] = useState<{ rows: CompareRow[]; result: CompareResult | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = live ?? (stored ? { rows: stored.rows, result: stored } : null);
  const rows = shown?.rows ?? [];
  const settings = settingsOf(url.state);

  const start = async () => {
    setError(null);
    setLive({ rows: [], result: null });
    try {
      const result = await runComparison(settings, (r) => setLive({ rows: r, result: null }));
      setLive({ rows: result.rows, result });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const chart = {
    x: { label: 'lookup' },
    y: { label: 'cost', unit: 'I/O per lookup', zero: true },
    categories: ['zero-result lookup', 'non-zero lookup'],
    groups: rows.map((r) => ({ id: r.allocation, label: NAMES[r.allocation], values: [r.zeroIo, r.nonZeroIo] })),
  };
  const bitsChart = {
    x: { label: 'final tree' },
    y: { label: 'filter memory spent', unit: 'bits per key', zero: true },
    categories: ['Σ filter bits ÷ Σ entries'],
    groups: rows.map((r) => ({ id: r.allocation, label: NAMES[r.allocation], values: [r.bitsPerKey] })),
  };
  const filesChart = {
    x: { label: 'lookups that probed the file and found nothing', unit: 'probes', scale: 'log' as const },
    y: { label: 'filter memory of the file', unit: 'bits per key', zero: true },
    series: rows.map((r, i) => ({
      id: r.allocation,
      label: NAMES[r.allocation],
      color: SERIES_COLORS[i],
      radius: r.allocation === 'mnemosyne' ? 4 : 3,
      points: (r.fileStats ?? []).map((f) => ({ x: f.emptyProbes, y: f.bitsPerKey, label: `level ${f.level}, ${f.entries} entries` })),
    })),
  };
  const table: TableRow[] = rows.map((r) => ({
    allocation: NAMES[r.allocation],
    zero: r.zeroIo,
    saving: savingVsUniform(rows, r),
    nonZero: r.nonZeroIo,
    bits: r.bitsPerKey,
    files: r.files,
    fp: r.falsePositives,
    ms: Math.round(r.millis),
  }));
  const columns: Column<TableRow>[] = [
    { key: 'allocation', label: 'Allocation', numeric: false },
    { key: 'zero', label: 'Zero-result', unit: 'I/O per lookup', numeric: true, format: (v) => formatSig(Number(v), 4) },
    { key: 'saving', label: 'vs uniform', numeric: true, format: (v, row) => (row.allocation === 'Uniform' ? 'baseline' : v === null ? '—' : `−${formatPercent(Number(v), 3)}`) },
    { key: 'nonZero', label: 'Non-zero', unit: 'I/O per lookup', numeric: true, format: (v) => formatSig(Number(v), 4) },
    { key: 'bits', label: 'Bits spent', unit: 'bits/key', numeric: true, format: (v) => formatSig(Number(v), 3) },
    { key: 'files', label: 'Files', numeric: true },
    { key: 'fp', label: 'False positives', numeric: true, format: (v) => formatInt(Number(v)) },
    { key: 'ms', label: 'Time', unit: 'ms', numeric: true },
  ];

  return (
    <>
      <section className="card run-card" aria-labelledby="compare-title">
        <header className="card-head">
          <div>
            <h2 id="compare-title">Mnemosyne in action</h2>
            <p className="caption">
              {formatInt(settings.preload)} keys, then {formatInt(settings.operations)} operations where {formatPercent(settings.hotProbability, 3)} of accesses go to{' '}
              {formatPercent(settings.hotFraction, 3)} of the key range. Inserts keep rebuilding files after their access statistics accumulate, so Mnemosyne can give
              bits to the files lookups actually probe in vain — and take them from files nobody asks. Same budget, {settings.bits} bits/key, for all three.
            </p>
          </div>
        </header>
        <div className="run-actions">
          <button type="button" className="primary big" onClick={() => void start()} disabled={engine.busy !== null} data-testid="compare-run">
            Run uniform, Monkey and Mnemosyne
          </button>
          {shown?.result && (
            <button type="button" onClick={() => downloadText(compareCsv(rows), `${shown.result?.id}.csv`, 'text/csv')}>
              Download CSV
            </button>
          )}
        </div>
        <ErrorAlert error={error} />
      </section>
      <TaskProgress />
      {rows.length > 0 && (
        <CardGrid>
          <ChartCard
            id="compare-io"
            title="I/O per lookup by filter allocation"
            caption="Measured data pages read per lookup. Zero-result lookups pay only for false positives, so the allocation of filter bits is all that differs."
            csv={() => barChartCsv(chart)}
          >
            <BarChart {...chart} title="I/O per lookup by filter allocation" valueLabels height={300} data-testid="compare-chart" />
          </ChartCard>
          <ChartCard
            id="compare-bits"
            title="Bits actually spent"
            caption="Σ filter bits ÷ Σ entries of the final tree: each allocation spends (about) the same budget."
            csv={() => barChartCsv(bitsChart)}
          >
            <BarChart {...bitsChart} title="Filter bits per key spent" valueLabels height={300} data-testid="compare-bits-chart" />
          </ChartCard>
          <ChartCard
            id="compare-files"
            wide
            title="Where the bits went, file by file"
            caption="Each point is a file of the final tree: how many lookups probed it in vain (log scale) and the filter bits per key it was built with. Uniform gives every file the same; Monkey gives more to small, young files; Mnemosyne follows the measured empty probes, so the files the hot range keeps probing get the most bits."
            csv={() => scatterChartCsv(filesChart)}
          >
            <ScatterChart {...filesChart} title="Filter bits per key against empty probes, per file" height={340} data-testid="compare-files-chart" />
          </ChartCard>
          <article className="card chart-card wide" aria-labelledby="compare-table-title">
            <header className="card-head">
              <div>
                <h2 id="compare-table-title">Per allocation</h2>
              </div>
            </header>
            <DataTable columns={columns} rows={table} rowKey={(r) => String(r.allocation)} testId="compare-table" />
          </article>
        </CardGrid>
      )}
    </>
  );
}
