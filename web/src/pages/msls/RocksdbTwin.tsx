/**
 * The engine against real RocksDB (stored results of `npm run rocksdb-twin`): for a case chosen
 * (a RocksDB shape × a workload), both trees after the run drawn side by side on one key axis,
 * file by file, and the figures both sides measured, with whether they agree.
 */
import { memo, useId, useMemo, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import {
  alignTrees,
  figureRows,
  formatKeyPrefix,
  keyPrefix,
  layoutTwin,
  type AlignedTrees,
  type FigureRow,
  type KeyDomain,
  type PanelBox,
  type Side,
  type TwinFile,
} from '../../compute/rocksdbTwin';
import { formatBytes, formatFixed, formatInt, formatSig } from '../../documents/format';
import { caseId, workloadLabel, type RocksdbTwin, type TwinCase } from '../../documents/rocksdbTwin';
import { ChartCard } from '../../ui/charts/ChartCard';
import { toCsv } from '../../ui/charts/csv';
import { INK, INK_SOFT } from '../../ui/charts/palette';
import { useWidth } from '../../ui/charts/useWidth';
import { ENGINE_COLOR } from './common';
import type { RocksdbTwinState } from './useRocksdbTwin';
import './twin.css';

const SIDES: readonly { side: Side; name: string; title: string; short: string; fill: string; stroke: string }[] = [
  { side: 'engine', name: 'Engine', title: 'Engine (what lsm import --rocksdb makes of the file)', short: 'Engine (imported OPTIONS)', fill: ENGINE_COLOR, stroke: '#7a4f0d' },
  { side: 'rocksdb', name: 'RocksDB', title: 'RocksDB 7.8 (through the referee)', short: 'RocksDB 7.8 (referee)', fill: '#00798c', stroke: '#003f49' },
];
/** Below this panel width the titles shorten. */
const COMPACT_PANEL = 400;
const sideOf = (side: Side) => SIDES.find((s) => s.side === side) ?? SIDES[0];

const caseName = (c: TwinCase) => `${c.label} · ${workloadLabel(c.workload)}`;
const day = (iso: string) => iso.slice(0, 10);
const percent = (share: number) => `${formatFixed(share * 100, 1)}%`;

/** "+4.4%", "−12.0%", "0.0%"; "—" where RocksDB's figure is 0 and the engine's is not. */
function formatRelative(d: number | null): string {
  if (d === null || !Number.isFinite(d)) return '—';
  return `${d < 0 ? '−' : '+'}${formatFixed(Math.abs(d) * 100, 1)}%`;
}

const formatFigure = (r: FigureRow, v: number) => (r.figure === 'trivialMoves' ? formatInt(v) : formatSig(v, 4));
const barText = (r: FigureRow) => (r.bar === 'absolute' ? '±0.02 (both below 0.2)' : '±10%');
const verdictText = (agrees: boolean | null) => (agrees === null ? '' : agrees ? 'agrees' : 'differs');

function fileText(side: Side, level: number, f: TwinFile, from: number, to: number, domain: KeyDomain | null): string {
  const keys = domain ? `keys ${formatKeyPrefix(keyPrefix(f.smallest_key_hex))} to ${formatKeyPrefix(keyPrefix(f.largest_key_hex))}` : 'keys';
  return `${sideOf(side).name} L${level}, ${f.name}: ${formatInt(f.entries)} entries, ${formatBytes(f.bytes)}, ${keys} (${percent(from)} to ${percent(to)} of the key space)`;
}

function figuresCsv(doc: RocksdbTwin): string {
  const header = ['shape', 'workload', 'phase', 'figure', 'engine', 'rocksdb', 'engine / rocksdb - 1', 'agrees', 'bar', 'predicted', 'predicted agrees'];
  const rows = doc.cases.flatMap((c) =>
    figureRows(c).map((r) => [c.shape, c.workload, r.phase, r.name, r.engine, r.rocksdb, r.difference ?? '', r.agrees ? 'agrees' : 'differs', barText(r), r.predicted ?? '', verdictText(r.predictedAgrees)]),
  );
  return toCsv(header, rows);
}

interface Active {
  text: string;
  key: string;
}

/** One side's tree: a row per level, each file a box on the level's key axis, focusable. */
function Panel({ panel, trees, onActive, active }: { panel: PanelBox; trees: AlignedTrees; onActive: (a: Active | null) => void; active: string | null }) {
  const s = sideOf(panel.side);
  const domain = trees.domain;
  const compact = panel.width < COMPACT_PANEL;
  // Quarter ticks only where a seven-digit id fits between them.
  const ticks = panel.axisWidth >= 420 ? [0, 0.25, 0.5, 0.75, 1] : [0, 0.5, 1];
  const tickLabel = (t: number) => {
    if (!domain) return '';
    const span = domain.max - domain.min;
    return formatKeyPrefix(domain.min + (span * BigInt(Math.round(t * 1000))) / 1000n);
  };
  return (
    <g data-testid="twin-tree" data-side={panel.side} role="group" aria-label={`${s.title}: ${panel.rows.length} levels`}>
      <rect x={panel.x} y={panel.y + 3} width={12} height={12} rx={2} fill={s.fill} stroke={s.stroke} />
      <text x={panel.x + 18} y={panel.y + 13} fontSize={13} fontWeight={620} fill={INK}>
        {compact ? s.short : s.title}
      </text>
      {panel.rows.map((row) => (
        <g
          key={row.level}
          data-testid="twin-level"
          data-side={panel.side}
          data-level={row.level}
          data-files={row.files.length}
          data-entries={row.entries}
          data-coverage={row.coverage}
          role="group"
          aria-label={`${s.name} L${row.level}: ${row.files.length} files, ${formatInt(row.entries)} entries`}
        >
          <text x={panel.x} y={row.y + row.height / 2 - 3} fontSize={13} fontWeight={620} fill={INK}>
            L{row.level}
            <tspan fontWeight={400} fill={INK_SOFT}>
              {' '}
              · {row.files.length} {row.files.length === 1 ? 'file' : 'files'}
            </tspan>
          </text>
          <text x={panel.x} y={row.y + row.height / 2 + 12} fontSize={11.5} fill={INK_SOFT}>
            {row.files.length > 0 ? `${formatInt(row.entries)} entries` : 'empty'}
          </text>
          <rect className="twin-track" x={panel.axisX} y={row.y} width={panel.axisWidth} height={row.height} rx={3} />
          {row.files.map((f) => {
            const key = `${panel.side}:${row.level}:${f.index}`;
            const text = fileText(panel.side, row.level, f.file, f.from, f.to, domain);
            const show = () => onActive({ key, text });
            return (
              <rect
                key={key}
                className={`twin-file${active === key ? ' active' : ''}`}
                data-testid="twin-file"
                data-side={panel.side}
                data-level={row.level}
                data-entries={f.file.entries}
                x={f.x}
                y={f.y}
                width={f.width}
                height={f.height}
                rx={2}
                fill={s.fill}
                stroke={s.stroke}
                tabIndex={0}
                role="img"
                aria-label={text}
                onFocus={show}
                onMouseEnter={show}
                onBlur={() => onActive(null)}
              >
                <title>{text}</title>
              </rect>
            );
          })}
        </g>
      ))}
      <g aria-hidden="true">
        <line x1={panel.axisX} x2={panel.axisX + panel.axisWidth} y1={panel.axisY} y2={panel.axisY} stroke={INK_SOFT} />
        {ticks.map((t) => {
          const x = panel.axisX + t * panel.axisWidth;
          return (
            <g key={t}>
              <line x1={x} x2={x} y1={panel.axisY} y2={panel.axisY + 4} stroke={INK_SOFT} />
              <text x={x} y={panel.axisY + 15} fontSize={11} fill={INK_SOFT} textAnchor={t === 0 ? 'start' : t === 1 ? 'end' : 'middle'}>
                {tickLabel(t)}
              </text>
            </g>
          );
        })}
        <text x={panel.axisX + panel.axisWidth / 2} y={panel.axisY + 29} fontSize={11} fill={INK_SOFT} textAnchor="middle">
          key (its first 8 bytes as a number)
        </text>
      </g>
    </g>
  );
}

const Trees = memo(function Trees({ c }: { c: TwinCase }) {
  const [ref, width] = useWidth<HTMLDivElement>(900);
  const trees = useMemo(() => alignTrees(c), [c]);
  const layout = useMemo(() => layoutTwin(trees, { width, labelWidth: width < 520 ? 104 : 124 }), [trees, width]);
  const [active, setActive] = useState<Active | null>(null);
  const title = `The trees after the run, ${caseName(c)}: the engine's and RocksDB's, level by level, each file placed by its key range`;
  return (
    <figure className="chart twin-trees">
      <div className="chart-body" ref={ref}>
        <svg
          className="chart-svg"
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="group"
          aria-label={title}
          data-testid="twin-trees"
        >
          <title>{title}</title>
          {layout.panels.map((p) => (
            <Panel key={p.side} panel={p} trees={trees} active={active?.key ?? null} onActive={setActive} />
          ))}
        </svg>
      </div>
      <figcaption className="fine twin-readout" aria-live="polite" data-testid="twin-file-readout">
        {active?.text ?? 'Point at a file, or move to one with Tab, to read its level, entries, bytes and key range.'}
      </figcaption>
      <details className="twin-details">
        <summary>The trees as a table</summary>
        <ScrollRegion label="Levels, engine and RocksDB">
          <table className="data-table" data-testid="twin-levels-table">
            <caption>Files, entries and the share of the key space (smallest to largest key either tree holds) each level's files cover</caption>
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col" className="num">Engine files</th>
                <th scope="col" className="num">Engine entries</th>
                <th scope="col" className="num">Engine key coverage</th>
                <th scope="col" className="num">RocksDB files</th>
                <th scope="col" className="num">RocksDB entries</th>
                <th scope="col" className="num">RocksDB key coverage</th>
              </tr>
            </thead>
            <tbody>
              {layout.panels[0].rows.map((e, i) => {
                const r = layout.panels[1].rows[i];
                return (
                  <tr key={e.level} data-testid="twin-level-row" data-level={e.level}>
                    <th scope="row">L{e.level}</th>
                    <td className="num" data-value={e.files.length}>{formatInt(e.files.length)}</td>
                    <td className="num" data-value={e.entries}>{formatInt(e.entries)}</td>
                    <td className="num" data-value={e.coverage}>{percent(e.coverage)}</td>
                    <td className="num" data-value={r?.files.length ?? 0}>{formatInt(r?.files.length ?? 0)}</td>
                    <td className="num" data-value={r?.entries ?? 0}>{formatInt(r?.entries ?? 0)}</td>
                    <td className="num" data-value={r?.coverage ?? 0}>{percent(r?.coverage ?? 0)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
});

function FigureTable({ c }: { c: TwinCase }) {
  const rows = useMemo(() => figureRows(c), [c]);
  const agreeing = rows.filter((r) => r.agrees).length;
  const predicted = rows.filter((r) => r.predicted !== null);
  const predictedAgreeing = predicted.filter((r) => r.predictedAgrees).length;
  return (
    <ScrollRegion label="Figures, engine and RocksDB">
      <table className="data-table" data-testid="twin-figures">
        <caption>
          Each figure on both sides, engine ÷ RocksDB − 1, and whether they agree: within 10%, or within 0.02 where both are below 0.2 ({agreeing} of{' '}
          {rows.length} agree)
          {predicted.length > 0 && (
            <>
              ; and <code>lsm predict</code>’s figure, priced on sizes without running anything, against RocksDB by the same bar ({predictedAgreeing} of {predicted.length}{' '}
              agree)
            </>
          )}
        </caption>
        <thead>
          <tr>
            <th scope="col">Phase</th>
            <th scope="col">Figure</th>
            <th scope="col" className="num">Engine</th>
            <th scope="col" className="num">RocksDB</th>
            <th scope="col" className="num">Difference</th>
            <th scope="col">Verdict</th>
            <th scope="col">Bar</th>
            {predicted.length > 0 && (
              <>
                <th scope="col" className="num">
                  Predicted
                </th>
                <th scope="col">Predicted vs RocksDB</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="twin-figure-row" data-figure={r.id}>
              <td>{r.phase}</td>
              <th scope="row" className="twin-figure-name">
                {r.name}
              </th>
              <td className="num" data-value={r.engine}>
                {formatFigure(r, r.engine)}
              </td>
              <td className="num" data-value={r.rocksdb}>
                {formatFigure(r, r.rocksdb)}
              </td>
              <td className="num" data-value={r.difference ?? undefined}>
                {formatRelative(r.difference)}
              </td>
              <td className={r.agrees ? 'twin-agrees' : 'twin-differs'}>{r.agrees ? 'agrees' : 'differs'}</td>
              <td>{barText(r)}</td>
              {predicted.length > 0 && (
                <>
                  <td className="num" data-testid="twin-predicted" data-value={r.predicted ?? undefined}>
                    {r.predicted === null ? '–' : formatFigure(r, r.predicted)}
                  </td>
                  <td className={r.predictedAgrees === null ? undefined : r.predictedAgrees ? 'twin-agrees' : 'twin-differs'}>
                    {r.predictedAgrees === null ? 'not predicted' : verdictText(r.predictedAgrees)}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Notes({ c }: { c: TwinCase }) {
  return (
    <details className="twin-details" data-testid="twin-notes">
      <summary>
        How this case was run: {c.importNotes.length} import {c.importNotes.length === 1 ? 'note' : 'notes'}, {c.rocksdbNotes.length} RocksDB{' '}
        {c.rocksdbNotes.length === 1 ? 'note' : 'notes'}
      </summary>
      <p className="fine">
        {formatInt(c.records)} records loaded, then {formatInt(c.operations)} operations of {workloadLabel(c.workload)}; RocksDB’s sizes × {formatSig(c.scale, 3)}, a
        block cache of {formatBytes(c.blockCacheBytes)} on both sides
        {c.directReads === null ? '' : c.directReads ? ', RocksDB reading its files with direct I/O (no OS page cache between it and its counters)' : ', RocksDB reading through the OS page cache'}.
      </p>
      <p className="fine twin-notes-head">What the engine’s import said of the OPTIONS file:</p>
      {c.importNotes.length > 0 ? (
        <ul className="fine twin-notes">
          {c.importNotes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : (
        <p className="fine">nothing: every option maps exactly.</p>
      )}
      <p className="fine twin-notes-head">How RocksDB was played and counted:</p>
      {c.rocksdbNotes.length > 0 ? (
        <ul className="fine twin-notes">
          {c.rocksdbNotes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : (
        <p className="fine">no notes.</p>
      )}
    </details>
  );
}

/** The engine against real RocksDB, case by case (stored results). */
export function RocksdbTwinCard({ twin }: { twin: RocksdbTwinState }) {
  const { doc, error } = twin;
  const selectId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const c = doc ? (doc.cases.find((x) => caseId(x) === chosen) ?? doc.cases[0]) : null;
  return (
    <ChartCard
      id="rocksdb-twin"
      title="The engine against real RocksDB"
      wide
      caption={
        <>
          Whether the engine, given a RocksDB OPTIONS file and an operation stream, builds the tree real RocksDB builds and reads and writes what it
          does: the engine runs what <code>lsm import --rocksdb</code> makes of the file, RocksDB 7.8 plays the same stream through the referee (
          <code>interop/rocksdb/referee.cc</code>), both measured by <code>npm run rocksdb-twin</code>
          {doc && (
            <>
              {' '}
              on {day(doc.measured)} ({formatInt(doc.records)} records, {formatInt(doc.operations)} operations, RocksDB’s sizes × {formatSig(doc.scale, 3)})
            </>
          )}
          .
        </>
      }
      csv={doc ? () => figuresCsv(doc) : undefined}
      footer={
        c && (
          <>
            <FigureTable c={c} />
            <Notes c={c} />
          </>
        )
      }
    >
      {error && (
        <p role="alert" className="error" data-testid="twin-error">
          {error}
        </p>
      )}
      {doc && c ? (
        <>
          <div className="field select-field twin-case">
            <label htmlFor={selectId}>Case (RocksDB shape · workload)</label>
            <select id={selectId} value={caseId(c)} onChange={(e) => setChosen(e.target.value)} data-testid="twin-case">
              {doc.cases.map((x) => (
                <option key={caseId(x)} value={caseId(x)}>
                  {caseName(x)}
                </option>
              ))}
            </select>
          </div>
          <Trees c={c} />
        </>
      ) : (
        !error && <p className="fine">Loading the measurements…</p>
      )}
    </ChartCard>
  );
}
