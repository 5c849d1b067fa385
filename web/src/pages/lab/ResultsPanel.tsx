/**
 * Every stored result (runs, sweeps, comparisons, imported reports), newest first: re-plot it,
 * download its JSON or CSV, delete it, or import a Report written by `lsm run --report`.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { downloadText } from '../../ui/download/svg';
import { formatSig } from '../../documents/format';
import { readDocument } from './DocumentImport';
import { REPORT_FILE } from '../../documents/fileCheck';
import { readTextFile } from '../../ui/controls/readTextFile';
import { resultCsv, resultJson } from './reportTables';
import { deleteResult, listResults, onResultsChange, saveResult, type LabResult } from './results';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

function headline(r: LabResult): string {
  switch (r.kind) {
    case 'run': {
      const zero = r.report.summary.find((s) => s.class === 'get_zero_result');
      const io = zero && zero.count > 0 ? `zero-result ${formatSig(zero.io_per_op, 4)} I/O (predicted ${formatSig(r.report.predicted.zero_result_lookup_io, 4)})` : '';
      const ops = Object.values(r.report.operations).reduce((a, b) => a + b, 0);
      // The merge mode decides the latency tail and the stalls: every stored run says which ran
      // (a native report on files ran in the background; the browser's runs are paced or inline).
      const merges = r.report.merges ? `merges ${r.report.merges}` : '';
      return [`${ops.toLocaleString('en-US')} ops`, merges, io].filter(Boolean).join(' · ');
    }
    case 'sweep':
      return `${r.points.length} points`;
    case 'compare':
      return r.rows.map((row) => `${row.allocation} ${formatSig(row.zeroIo, 3)}`).join(' · ');
  }
}

const KIND: Record<LabResult['kind'], string> = { run: 'Run', sweep: 'Sweep', compare: 'Comparison' };

export function useResults(): { results: LabResult[]; error: string | null } {
  const [results, setResults] = useState<LabResult[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    listResults()
      .then((r) => {
        setResults(r);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  useEffect(() => {
    load();
    return onResultsChange(load);
  }, [load]);
  return { results, error };
}

export function ResultsPanel({ onOpen }: { onOpen: (r: LabResult) => void }) {
  const { results, error } = useResults();
  const fileId = useId();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const importFile = async (f: File) => {
    setMessage(null);
    try {
      const got = await readDocument(await readTextFile(f, REPORT_FILE), f.name);
      if (got.kind !== 'report') throw new Error(`${f.name} is a ${got.kind === 'config' ? 'design' : 'workload'}, not a report: load it on the Run tab`);
      await saveResult(got.result);
      setMessage({ ok: true, text: `Imported ${f.name}.` });
      onOpen(got.result);
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <section className="card results-card" aria-labelledby="results-title">
      <header className="card-head">
        <div>
          <h2 id="results-title">Stored results</h2>
          <p className="caption">Kept in this browser (IndexedDB) with their design, workload and measurements. Open one to re-plot it.</p>
        </div>
        <div className="card-tools">
          <label className="file-button" htmlFor={fileId}>
            Import a report…
          </label>
          <input
            id={fileId}
            type="file"
            accept=".json,application/json"
            className="sr-only"
            data-testid="import-report"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) await importFile(f);
              e.target.value = '';
            }}
          />
        </div>
      </header>
      {message && (
        <p className={`field-msg ${message.ok ? 'ok' : 'field-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="import-report-message">
          {message.text}
        </p>
      )}
      <ErrorAlert error={error} />
      {results.length === 0 ? (
        <p className="chart-placeholder">No results yet: run a workload, a sweep or the comparison.</p>
      ) : (
        <ul className="result-list" data-testid="results-list">
          {results.map((r) => (
            <li key={r.id} data-testid={`result-${r.kind}`} data-result-id={r.id}>
              <div className="result-main">
                <span className={`badge ${r.kind}`}>{KIND[r.kind]}</span>
                <div>
                  <strong>{r.label}</strong>
                  <p className="caption">
                    {new Date(r.created).toLocaleString()}
                    {r.kind === 'run' && ` · ${r.backend === 'imported' ? 'imported' : r.backend === 'memory' ? 'memory' : `${r.backend}/${r.database}`}`} · {headline(r)}
                    {r.cancelled && ' · cancelled'}
                  </p>
                </div>
              </div>
              <div className="result-actions">
                <button type="button" onClick={() => onOpen(r)} aria-label={`Open ${r.label}`}>
                  Open
                </button>
                <button type="button" onClick={() => downloadText(resultJson(r), `${r.id}.json`, 'application/json')} aria-label={`Download ${r.label} as JSON`}>
                  JSON
                </button>
                <button type="button" onClick={() => downloadText(resultCsv(r), `${r.id}.csv`, 'text/csv')} aria-label={`Download ${r.label} as CSV`} data-testid="result-csv">
                  CSV
                </button>
                <button type="button" className="ghost danger-text" onClick={() => void deleteResult(r.id)} aria-label={`Delete ${r.label}`}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
