/**
 * The editable per-level table: size ratio r_i, runs n_i and filter bits b_i of every level,
 * checked as typed (each cell next to its box, then the whole table against the data set). Only a
 * table that is valid as a whole reaches the URL and the models; while it is not, the page keeps
 * drawing the last valid one.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import type { MooseLevelDetail } from '@lsm/models';
import {
  addLevel,
  checkDraft,
  removeLevel,
  roundBits,
  type DraftRow,
  type TableEnv,
  type TableLevel,
} from '../../documents/mooseTable';
import { formatCount, formatFixed, formatSig } from '../../documents/format';
import { draftOf, sameTable } from './modelInputs';

export interface LevelTableProps {
  env: TableEnv;
  /** The committed table (the URL's). */
  table: readonly TableLevel[];
  optimalFilters: boolean;
  onOptimalFilters: (on: boolean) => void;
  /** The optimal split of the filter budget over the committed table (bits per entry). */
  optimalBits: readonly number[] | undefined;
  /** The committed table as the model evaluates it. */
  details: readonly MooseLevelDetail[] | undefined;
  onCommit: (table: TableLevel[]) => void;
}

function CellInput({
  label,
  value,
  problem,
  onChange,
  inputMode = 'decimal',
}: {
  label: string;
  value: string;
  problem: string | null;
  onChange: (text: string) => void;
  inputMode?: 'decimal' | 'numeric';
}) {
  const id = useId();
  return (
    <div className={`cell-field${problem ? ' invalid' : ''}`}>
      <input
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        spellCheck={false}
        aria-label={label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? id : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <p id={id} className="cell-msg field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

export function LevelTable({ env, table, optimalFilters, onOptimalFilters, optimalBits, details, onCommit }: LevelTableProps) {
  const [draft, setDraft] = useState<DraftRow[]>(() => draftOf(table));
  const [actionProblem, setActionProblem] = useState<string | null>(null);
  const check = useMemo(() => checkDraft(env, draft, !optimalFilters), [env, draft, optimalFilters]);

  // A new committed table from outside (preset, reset, a pasted link) replaces the draft, unless
  // the draft already says the same thing in the user's own spelling.
  useEffect(() => {
    if (!check.levels || !sameTable(check.levels, table)) setDraft(draftOf(table));
    // Only a new committed table should rewrite the boxes; reacting to the draft would undo typing.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new committed table should rewrite the boxes; reacting to the draft would undo typing
  }, [table]);

  const edit = (i: number, field: keyof DraftRow, text: string) => {
    setActionProblem(null);
    const next = draft.map((row, j) => (j === i ? { ...row, [field]: text } : row));
    setDraft(next);
    const c = checkDraft(env, next, !optimalFilters);
    if (c.levels && !sameTable(c.levels, table)) onCommit(c.levels);
  };
  const apply = (result: { table: TableLevel[] } | { problem: string }) => {
    if ('problem' in result) {
      setActionProblem(result.problem);
      return;
    }
    setActionProblem(null);
    setDraft(draftOf(result.table));
    onCommit(result.table);
  };
  const fit = () => {
    if (!check.fitRatio) return;
    const next = draft.map((row, i) => (i === draft.length - 1 ? { ...row, ratio: String(check.fitRatio) } : row));
    const c = checkDraft(env, next, !optimalFilters);
    setDraft(next);
    if (c.levels) onCommit(c.levels);
  };
  const fillOptimal = () => {
    if (!optimalBits || optimalBits.length !== table.length) return;
    apply({ table: table.map((l, i) => ({ ...l, bitsPerEntry: roundBits(optimalBits[i]) })) });
  };

  const L = draft.length;
  const stale = check.levels === null || !sameTable(check.levels, table);
  return (
    <div className="level-table">
      <div className="level-table-tools">
        <button type="button" onClick={() => apply(addLevel(env, table))} data-testid="add-level">
          Add level
        </button>
        <label className="checkbox-inline">
          <input type="checkbox" checked={optimalFilters} onChange={(e) => onOptimalFilters(e.target.checked)} />
          Optimal filters (Eq.10)
        </label>
        <button type="button" onClick={fillOptimal} disabled={optimalFilters || !optimalBits} data-testid="fill-optimal" title="Write the optimal split of the filter memory into the bits column">
          Fill optimal bits
        </button>
      </div>
      <ScrollRegion label="Level table">
        <table className="data-table edit-table" data-testid="level-table">
          <thead>
            <tr>
              <th scope="col">Level</th>
              <th scope="col">
                Size ratio r<sub>i</sub>
                <span className="th-unit">× level above</span>
              </th>
              <th scope="col">
                Runs n<sub>i</sub>
                <span className="th-unit">1 … ⌊r<sub>i</sub>⌋</span>
              </th>
              <th scope="col">
                Filter b<sub>i</sub>
                <span className="th-unit">bits/entry</span>
              </th>
              <th scope="col" className="num">
                Holds
                <span className="th-unit">entries</span>
              </th>
              <th scope="col" className="num">
                Run capacity
                <span className="th-unit">entries</span>
              </th>
              <th scope="col" className="num">
                s<sub>i</sub> = r<sub>i</sub>/n<sub>i</sub>
                <span className="th-unit">merges per run</span>
              </th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody className={stale ? 'stale' : undefined}>
            {draft.map((row, i) => {
              const p = check.rows[i];
              const d = details && details.length === L && !stale ? details[i] : undefined;
              return (
                <tr key={i} data-level={i + 1}>
                  <th scope="row">L{i + 1}</th>
                  <td>
                    <CellInput label={`Level ${i + 1} size ratio`} value={row.ratio} problem={p?.ratio ?? null} onChange={(t) => edit(i, 'ratio', t)} />
                  </td>
                  <td>
                    <CellInput label={`Level ${i + 1} runs`} value={row.runs} problem={p?.runs ?? null} onChange={(t) => edit(i, 'runs', t)} inputMode="numeric" />
                  </td>
                  <td>
                    {optimalFilters ? (
                      <span className="computed" data-testid={`optimal-bits-${i + 1}`} data-value={optimalBits?.[i]}>
                        {optimalBits ? formatFixed(optimalBits[i], 3) : '…'}
                      </span>
                    ) : (
                      <CellInput label={`Level ${i + 1} bits per entry`} value={row.bits} problem={p?.bits ?? null} onChange={(t) => edit(i, 'bits', t)} />
                    )}
                  </td>
                  <td className="num" data-value={d?.entries}>
                    {d ? formatCount(d.entries) : '—'}
                  </td>
                  <td className="num" data-value={d?.runCapacityEntries}>
                    {d ? formatCount(d.runCapacityEntries) : '—'}
                  </td>
                  <td className="num" data-value={d?.runMagnification}>
                    {d ? formatSig(d.runMagnification, 3) : '—'}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="ghost icon-button"
                      aria-label={`Remove level ${i + 1}`}
                      title={`Remove level ${i + 1}`}
                      disabled={L <= 1}
                      onClick={() => apply(removeLevel(env, table, i))}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {check.table && (
        <div className="table-problem" role="alert" data-testid="table-problem">
          <span className="field-error">{check.table}</span>
          {check.fitRatio !== null && (
            <button type="button" onClick={fit} data-testid="fit-last">
              Set level {L}’s ratio to {check.fitRatio}
            </button>
          )}
          <span className="field-kept"> The charts keep the last valid table.</span>
        </div>
      )}
      {actionProblem && (
        <p className="field-msg field-error" role="alert" data-testid="table-action-problem">
          {actionProblem}
        </p>
      )}
      {check.notes.map((n) => (
        <p key={n} className="field-msg">
          {n}
        </p>
      ))}
    </div>
  );
}
