/**
 * Monkey's update cost (Eq 10) measured: the engine fills leveled and tiered trees of whole levels
 * with unique keys (each key written once: Monkey's worst case) and counts the data pages it
 * writes per insert, beside Eq 10 as published and with every write counted.
 */
import { useMemo, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import { BUFFER_ENTRIES, updateDesigns, updateRow, updateSpec, type UpdateRow } from '../../compute/updateCost';
import { formatCount, formatDifference, formatFixed, formatInt, formatSig } from '../../documents/format';
import { BusyError, useLabEngine, withTask } from '../../engine/session';
import { ChartCard } from '../../ui/charts/ChartCard';
import { toCsv } from '../../ui/charts/csv';
import { LineChart } from '../../ui/charts/LineChart';
import { SERIES_COLORS } from '../../ui/charts/palette';
import type { LineSeries } from '../../ui/charts/types';
import { MeasureButton } from '../../ui/task/MeasureButton';

const SIZE_RATIOS = [2, 3, 4, 6, 8, 10] as const;
/** Trees of up to this many entries: a few seconds each in the browser. */
export const UPDATE_MAX_ENTRIES = 600_000;
const TASK_LABEL = 'update cost on the engine';
const LEVELING_COLOR = SERIES_COLORS[0];
const TIERING_COLOR = SERIES_COLORS[1];

function series(rows: UpdateRow[]): LineSeries[] {
  const of = (policy: 'leveling' | 'tiering', pick: (r: UpdateRow) => number) =>
    rows.filter((r) => r.policy === policy).map((r) => ({ x: r.sizeRatio, y: pick(r) }));
  return (['leveling', 'tiering'] as const).flatMap((policy) => {
    const color = policy === 'leveling' ? LEVELING_COLOR : TIERING_COLOR;
    return [
      { id: `${policy}-measured`, label: `${policy}, measured`, color, markers: true, points: of(policy, (r) => r.measured) },
      { id: `${policy}-every-write`, label: `${policy}, Eq 10 counting every write`, color, points: of(policy, (r) => r.everyWrite) },
      { id: `${policy}-published`, label: `${policy}, Eq 10 as published`, color, dash: '5 4', points: of(policy, (r) => r.published) },
    ];
  });
}

function csv(rows: UpdateRow[]): string {
  return toCsv(
    ['policy', 'size ratio T', 'entries N', 'levels L (Eq 1)', 'entries per page B', 'measured (pages written per insert)', 'Eq 10 every write (pages per insert)', 'Eq 10 published, φ = 0 (pages per insert)'],
    rows.map((r) => [r.policy, r.sizeRatio, r.entries, r.levels, r.entriesPerPage, r.measured, r.everyWrite, r.published]),
  );
}

export function UpdateCostCard() {
  const { busy } = useLabEngine();
  const mine = busy?.label === TASK_LABEL;
  const [rows, setRows] = useState<UpdateRow[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const designs = useMemo(() => updateDesigns(SIZE_RATIOS, UPDATE_MAX_ENTRIES), []);
  const chartSeries = useMemo(() => series(rows), [rows]);

  const run = async () => {
    setError(null);
    setNote(null);
    const started = performance.now();
    try {
      await withTask(TASK_LABEL, async (ctl) => {
        const done: UpdateRow[] = [];
        for (const [i, d] of designs.entries()) {
          if (ctl.cancelled()) break;
          ctl.step(i + 1, designs.length, `${d.policy}, T = ${d.sizeRatio}: ${formatCount(d.entries)} inserts`);
          const r = await ctl.writes(updateSpec(d));
          if (r.cancelled) break;
          done.push(updateRow(d, r.result));
          setRows([...done]);
        }
        const seconds = formatFixed((performance.now() - started) / 1000, 1);
        setNote(done.length < designs.length ? `Cancelled after ${done.length} of ${designs.length} trees (${seconds} s).` : `Measured ${designs.length} trees in ${seconds} s.`);
      });
    } catch (err) {
      setError(err instanceof BusyError || err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <ChartCard
      id="update-measured"
      title="Update cost measured on the engine"
      wide
      caption={
        <>
          Unique keys fill a tree of whole levels in the engine, and the data pages its flushes and merges write are counted per insert,
          next to the model’s count.
        </>
      }
      detail={
        <>
          N = {formatInt(BUFFER_ENTRIES)} buffer entries × T^k, up to {formatCount(UPDATE_MAX_ENTRIES)}, in the engine (in memory, 64 KiB
          buffer, 4 KiB pages, 116-byte entries). Each key is written once: Monkey’s worst case for updates (App G). Eq 10 counts, per level,
          the merges an entry takes part in after it arrived ((T−1)/2 leveling, (T−1)/T tiering); the engine also writes the entry into the
          level, which Eq 10 leaves out: counting it gives (T+1)/2 and 1. B is the engine’s entries per data page; L is Eq 1’s for N.
        </>
      }
      csv={rows.length > 0 ? () => csv(rows) : undefined}
      status={mine ? 'measuring…' : undefined}
      footer={
        rows.length > 0 && (
          <ScrollRegion label="Update cost table">
<table className="data-table" data-testid="update-table">
            <thead>
              <tr>
                <th>Design</th>
                <th>N</th>
                <th>L</th>
                <th>Measured</th>
                <th>Eq 10, every write</th>
                <th>Eq 10, published</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.policy}-${r.sizeRatio}`} data-testid="update-row" data-design={`${r.policy}-${r.sizeRatio}`}>
                  <td>
                    {r.policy}, T = {r.sizeRatio}
                  </td>
                  <td>{formatCount(r.entries)}</td>
                  <td>{r.levels}</td>
                  <td data-value={r.measured}>{formatSig(r.measured, 4)}</td>
                  <td data-value={r.everyWrite}>
                    {formatSig(r.everyWrite, 4)} ({formatDifference(r.measured, r.everyWrite)})
                  </td>
                  <td data-value={r.published}>
                    {formatSig(r.published, 4)} ({formatDifference(r.measured, r.published)})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
</ScrollRegion>
        )
      }
    >
      <MeasureButton mine={mine} disabled={!!busy} onClick={() => void run()} testId="update-run" error={error} />
      {note && (
        <p className="field-msg" data-testid="update-note">
          {note}
        </p>
      )}
      {rows.length > 0 ? (
        <LineChart
          title="Pages written per insert against the size ratio"
          x={{ label: 'size ratio T', ticks: [...SIZE_RATIOS] }}
          y={{ label: 'update cost W', unit: 'pages written per insert', zero: true }}
          series={chartSeries}
          data-testid="update-chart"
        />
      ) : (
        <p className="notice" data-testid="update-idle">
          Press “Measure on the engine”: {designs.length} trees, leveling at T = {SIZE_RATIOS.join(', ')} and tiering above 2, about half a minute.
        </p>
      )}
    </ChartCard>
  );
}
