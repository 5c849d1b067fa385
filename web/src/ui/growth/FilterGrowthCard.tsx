/**
 * Monkey's Fig 12(A) measured on the engine: one tree per filter policy grows by doubling in the
 * engine worker (in memory), and at every size answers zero-result lookups whose data-page reads
 * are counted. Uniform filters, Monkey sized at birth and Monkey re-optimised, against the optimum
 * for the tree that exists and the paper's closed form; the rebuilds' pages are the policy's price.
 */
import { useMemo, useState } from 'react';
import { type GrowthDesign, type GrowthRow, growthRows, growthSpec, GROWTH_BUFFER_BYTES, GROWTH_FROM_LOG2 } from '../../compute/filterGrowth';
import type { GrowthResult } from '../../documents/engine';
import { formatCount, formatFixed, formatInt, formatSig } from '../../documents/format';
import { BusyError, useLabEngine, withTask } from '../../engine/session';
import { ChartCard } from '../charts/ChartCard';
import { toCsv } from '../charts/csv';
import { ACCENT_COLOR, CLOSED_DASH, MONKEY_COLOR, UNIFORM_COLOR } from '../charts/designColors';
import { LineChart } from '../charts/LineChart';
import type { AxisSpec, LineSeries } from '../charts/types';
import { MeasureButton } from '../task/MeasureButton';
import './growth.css';

const SIZES = [14, 16, 18, 20] as const;
const LOOKUPS = [10_000, 20_000, 100_000] as const;
/** The engine task's label: a page showing its own task progress leaves this one to the card. */
export const GROWTH_TASK_LABEL = 'Fig 12(A) on the engine';

const X_AXIS: AxisSpec = { label: 'entries N', unit: 'entries', scale: 'log', format: formatCount };
const Y_AXIS: AxisSpec = { label: 'zero-result lookup cost R', unit: 'I/O per lookup', zero: true };

function series(rows: GrowthRow[]): LineSeries[] {
  const line = (id: string, label: string, pick: (r: GrowthRow) => number | null, style: Partial<LineSeries>): LineSeries => ({
    id,
    label,
    ...style,
    points: rows.flatMap((r) => {
      const y = pick(r);
      return y === null || !Number.isFinite(y) ? [] : [{ x: r.entries, y }];
    }),
  });
  return [
    line('uniform', 'Uniform (measured)', (r) => r.uniform, { color: UNIFORM_COLOR }),
    line('at-birth', 'Monkey at birth (measured)', (r) => r.atBirth, { color: MONKEY_COLOR, dash: '2 3' }),
    line('reoptimised', 'Monkey re-optimised (measured)', (r) => r.reoptimised, { color: MONKEY_COLOR }),
    line('optimum', 'Optimum for the measured runs', (r) => r.optimum, { color: ACCENT_COLOR, markers: true }),
    line('model', 'Monkey, Eq 7 (full levels)', (r) => r.model, { color: ACCENT_COLOR, dash: CLOSED_DASH }),
  ];
}

const CSV_HEADER = [
  'entries',
  'runs',
  'uniform (I/O per lookup)',
  'Monkey at birth (I/O per lookup)',
  'Monkey re-optimised (I/O per lookup)',
  'optimum for the measured runs (I/O per lookup)',
  'Monkey Eq 7 (I/O per lookup)',
  'rebuilds so far',
  'rebuild pages read so far',
];

function csv(rows: GrowthRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [r.entries, r.runs, r.uniform, r.atBirth, r.reoptimised, r.optimum, r.model, r.rebuilds, r.rebuildPages]),
  );
}

const io = (v: number | null) => (v === null ? '—' : formatFixed(v, 4));

function GrowthTable({ rows }: { rows: GrowthRow[] }) {
  return (
    <table className="data-table" data-testid="growth-table">
      <thead>
        <tr>
          <th className="num">entries</th>
          <th className="num">runs</th>
          <th className="num">uniform</th>
          <th className="num">Monkey at birth</th>
          <th className="num">Monkey re-optimised</th>
          <th className="num">optimum</th>
          <th className="num">re-optimised vs optimum</th>
          <th className="num">Eq 7</th>
          <th className="num">rebuild pages so far</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.entries} data-testid="growth-row" data-entries={r.entries}>
            <td className="num">2^{Math.round(Math.log2(r.entries))}</td>
            <td className="num">{r.runs}</td>
            <td className="num" data-col="uniform" data-value={r.uniform ?? ''}>{io(r.uniform)}</td>
            <td className="num" data-col="at-birth" data-value={r.atBirth ?? ''}>{io(r.atBirth)}</td>
            <td className="num" data-col="reoptimised" data-value={r.reoptimised ?? ''}>{io(r.reoptimised)}</td>
            <td className="num" data-col="optimum" data-value={r.optimum ?? ''}>{io(r.optimum)}</td>
            <td className="num">
              {r.reoptimised === null || r.optimum === null || r.optimum === 0 ? '—' : `${formatSig((r.reoptimised / r.optimum - 1) * 100, 2)}%`}
            </td>
            <td className="num" data-col="model">{io(r.model)}</td>
            <td className="num" data-col="rebuild-pages" data-value={r.rebuildPages ?? ''}>{r.rebuildPages === null ? '—' : formatInt(r.rebuildPages)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FilterGrowthCard({ design }: { design: GrowthDesign }) {
  const [toLog2, setToLog2] = useState<number>(16);
  const [lookups, setLookups] = useState<number>(20_000);
  const [result, setResult] = useState<GrowthResult | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy } = useLabEngine();
  const mine = busy?.label === GROWTH_TASK_LABEL;
  const rows = useMemo(() => (result ? growthRows(result) : []), [result]);
  const chart = useMemo(() => {
    // Ticks at the sizes measured: every doubling, as in the paper's figure.
    const sizes = rows.map((r) => r.entries);
    const x: AxisSpec = sizes.length > 1 ? { ...X_AXIS, domain: [sizes[0], sizes[sizes.length - 1]], ticks: sizes } : X_AXIS;
    return { x, y: Y_AXIS, series: series(rows) };
  }, [rows]);

  const run = async () => {
    setError(null);
    setNote(null);
    try {
      await withTask(GROWTH_TASK_LABEL, async (ctl) => {
        const r = await ctl.growth(growthSpec(design, toLog2, lookups));
        setResult(r.result);
        setNote(
          r.cancelled
            ? `Cancelled after ${formatFixed(r.millis / 1000, 1)} s: the sizes measured so far are shown.`
            : `Measured in ${formatFixed(r.millis / 1000, 1)} s.`,
        );
      });
    } catch (err) {
      setError(err instanceof BusyError || err instanceof Error ? err.message : String(err));
    }
  };

  const last = rows.at(-1);
  return (
    <ChartCard
      id="growth-measured"
      title="Measured on the engine: filters as the tree grows"
      wide
      caption={
        <>
          Three trees grow side by side in the engine, and lookups for missing keys count the pages they read: uniform filters, filters sized once at
          birth, and filters re-optimised as the tree grows.
        </>
      }
      detail={
        <>
          Monkey Fig 12(A), measured. The trees: {design.policy}, T = {design.sizeRatio}, {design.bitsPerEntry} filter bits per entry,
          {' '}{formatInt(GROWTH_BUFFER_BYTES / 1024)} KiB buffer, 116-byte entries, in memory. At every doubling from 2^{GROWTH_FROM_LOG2} entries each answers {formatInt(lookups)}{' '}
          zero-result lookups. Sized once at birth, a filter keeps the bits it got for the tree of that moment;
          re-optimised, the engine solves Monkey’s allocation over the runs that exist whenever they change and rebuilds filters from their runs’ keys when
          the lookups expected before the next change pay for the pages read (those pages are the last column).
        </>
      }
      csv={() => csv(rows)}
      status={mine ? 'measuring…' : undefined}
      footer={
        <>
          {rows.length > 0 && <GrowthTable rows={rows} />}
          {last && last.reoptimised !== null && last.atBirth !== null && last.uniform !== null && (
            <p className="caption" data-testid="growth-summary">
              At {formatCount(last.entries)} entries, re-optimised filters read {formatFixed(last.reoptimised, 4)} pages per zero-result lookup: {' '}
              {formatSig((1 - last.reoptimised / last.uniform) * 100, 2)}% less than uniform and {formatSig((1 - last.reoptimised / last.atBirth) * 100, 2)}% less
              than sizing at birth, for {formatInt(last.rebuildPages ?? 0)} pages of rebuilds so far. RocksDB cannot do this: its filters are fixed when a file is
              written.
            </p>
          )}
        </>
      }
    >
      <MeasureButton mine={mine} disabled={!!busy} onClick={() => void run()} testId="growth-run" error={error}>
        <label>
          Grow to
          <select value={toLog2} onChange={(e) => setToLog2(Number(e.target.value))} disabled={!!busy} data-testid="growth-size">
            {SIZES.map((e) => (
              <option key={e} value={e}>
                2^{e} = {formatCount(2 ** e)} entries
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Lookups per size
          <select value={lookups} onChange={(e) => setLookups(Number(e.target.value))} disabled={!!busy} data-testid="growth-lookups">
            {LOOKUPS.map((n) => (
              <option key={n} value={n}>
                {formatInt(n)}
              </option>
            ))}
          </select>
        </label>{' '}
      </MeasureButton>
      {note && <p className="field-msg" data-testid="growth-note">{note}</p>}
      {rows.length > 0 ? (
        <LineChart {...chart} title="Zero-result lookup cost against entries, measured on the engine" data-testid="growth-chart" />
      ) : (
        <p className="notice" data-testid="growth-idle">
          Press “Measure on the engine”: up to 2^{toLog2} entries, three policies, about {toLog2 >= 20 ? 'a minute' : toLog2 >= 18 ? '15 seconds' : 'a few seconds'}.
        </p>
      )}
    </ChartCard>
  );
}
