/**
 * The run tab: what will run (design, workload or trace, storage, database), the Run button, the
 * task's progress, and the result overlaid on its predictions.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ParamControl } from '../../ui/controls';
import type { UrlState } from '../../ui/state/useUrlState';
import { downloadText } from '../../ui/download/svg';
import { engineClient } from '../../engine/client';
import type { EngineConfig, Workload } from '../../documents/engine';
import { formatInt } from '../../documents/format';
import { designName, labProblems, stateToConfig, stateToWorkload, workloadName } from '../../documents/urls/labDocuments';
import { useLabEngine } from '../../engine/session';
import { runExperiment, suggestDatabaseName } from './runner';
import type { RunResult } from './results';
import { RunResultView } from './RunResultView';
import type { LabSchema } from '../../documents/urls/lab';
import { TaskProgress } from '../../ui/task/TaskProgress';
import { TRACE_FILE } from '../../documents/fileCheck';
import { readTextFile } from '../../ui/controls/readTextFile';
import { ErrorAlert } from '../../ui/layout/ErrorAlert';

interface Trace {
  name: string;
  text: string;
  lines: number;
}

export function RunPanel({ url, shown, onResult }: { url: UrlState<LabSchema>; shown: RunResult | null; onResult: (r: RunResult) => void }) {
  const s = url.state;
  const engine = useLabEngine();
  const ids = { name: useId(), trace: useId() };
  const [database, setDatabase] = useState(suggestDatabaseName);
  const [reuse, setReuse] = useState(false);
  const [trace, setTrace] = useState<Trace | null>(null);
  const [traceProblem, setTraceProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stopMs, setStopMs] = useState<number | null>(null);
  const config = useMemo(() => stateToConfig(s), [s]);
  const workload = useMemo(() => stateToWorkload(s), [s]);
  const [ycsbNotes, setYcsbNotes] = useState<string | null>(null);
  /** The workload as a YCSB CoreWorkload file, written by the engine (as `lsm ycsb` writes it). */
  const downloadYcsb = async () => {
    try {
      const { text, warnings } = await engineClient().call('ycsbExport', { workload });
      downloadText(text, 'workload.properties', 'text/plain');
      setYcsbNotes(warnings.length ? `YCSB cannot run all of this workload: ${warnings.map((w) => `${w.field} (${w.kind}): ${w.message}`).join('; ')}.` : 'YCSB runs this workload as it is.');
    } catch (err) {
      setYcsbNotes(err instanceof Error ? err.message : String(err));
    }
  };
  const engineProblem = useEngineValidation(config, workload);
  const problems = useMemo(() => {
    const own = labProblems(s);
    // The engine's validator knows every rule; its message names the document field.
    return own.length === 0 && engineProblem ? [engineProblem] : own;
  }, [s, engineProblem]);
  const open = engine.open;
  const canReuse = open !== null && open.backend !== 'memory' && !engine.busy;
  const reuseOpen = reuse && canReuse;

  // When Cancel was pressed (read from the engine store while the task runs).
  const cancelAt = useCancelMoment(engine.busy?.cancelAt ?? null);

  const run = async () => {
    setError(null);
    setStopMs(null);
    cancelAt.current = null;
    try {
      const label = trace ? `trace ${trace.name}` : workloadName(s);
      const result = await runExperiment({
        config,
        workload: trace ? undefined : workload,
        trace: trace ? { name: trace.name, text: trace.text, keyBytes: s.keyBytes } : undefined,
        backend: reuseOpen && open ? open.backend : s.backend,
        database: reuseOpen && open ? open.name : database,
        reuseOpen,
        label: s.merges === 'inline' ? `${label}, merges inline` : label,
        merges: s.merges,
      });
      const at = result.cancelled ? performance.now() : null;
      if (at !== null && cancelAt.current !== null) setStopMs(at - cancelAt.current);
      onResult(result);
      if (s.backend !== 'memory' && !reuseOpen) setDatabase(suggestDatabaseName());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const blocked = problems.length > 0 && !trace;
  return (
    <>
      <section className="card run-card" aria-labelledby="run-title">
        <header className="card-head">
          <div>
            <h2 id="run-title">Run a workload on the engine</h2>
            <p className="caption">
              <strong>Design:</strong> {designName(s)} · <strong>{trace ? 'Trace' : 'Workload'}:</strong>{' '}
              {trace ? `${trace.name} (${formatInt(trace.lines)} lines, keys as ${s.keyBytes} B)` : workloadName(s)}
            </p>
          </div>
        </header>
        <div className="run-options">
          <ParamControl {...url.bind('backend')} disabled={reuseOpen} />
          <ParamControl {...url.bind('merges')} />
          {s.backend !== 'memory' && !reuseOpen && (
            <div className="field">
              <div className="field-head">
                <label htmlFor={ids.name}>Database name</label>
                <span className="field-hint">new; letters, digits, . _ -</span>
              </div>
              <span className="number-box">
                <input id={ids.name} type="text" value={database} onChange={(e) => setDatabase(e.target.value)} spellCheck={false} data-testid="db-name" />
              </span>
            </div>
          )}
          {canReuse && open && (
            <label className="checkbox-field">
              <input type="checkbox" checked={reuse} onChange={(e) => setReuse(e.target.checked)} />
              <span>
                Run on the open database “{open.name}” ({open.backend === 'opfs' ? 'OPFS' : 'IndexedDB'})
              </span>
            </label>
          )}
          <div className="field trace-field">
            <div className="field-head">
              <label htmlFor={ids.trace}>KVBench trace (optional)</label>
            </div>
            {trace ? (
              <p className="field-msg">
                Running the trace <strong>{trace.name}</strong> instead of the workload.{' '}
                <button type="button" className="link" onClick={() => setTrace(null)}>
                  Use the workload
                </button>
              </p>
            ) : (
              <label className="file-button">
                Choose a trace file…
                <input
                  id={ids.trace}
                  type="file"
                  className="sr-only"
                  data-testid="run-trace-file"
                  accept=".txt,.trace,text/plain"
                  onChange={async (e) => {
                    const f = e.target.files?.[0];
                    e.target.value = '';
                    if (!f) return;
                    setTraceProblem(null);
                    try {
                      const text = await readTextFile(f, TRACE_FILE);
                      setTrace({ name: f.name, text, lines: text.split('\n').filter((l) => l.trim() !== '').length });
                    } catch (err) {
                      setTraceProblem(err instanceof Error ? err.message : String(err));
                    }
                  }}
                />
              </label>
            )}
            {traceProblem && !trace && (
              <p className="field-msg field-error" role="alert" data-testid="run-trace-problem">
                {traceProblem}
              </p>
            )}
          </div>
        </div>
        {problems.length > 0 && !trace && (
          <ul className="problems" role="alert" data-testid="run-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <div className="run-actions">
          <button type="button" className="primary big" onClick={() => void run()} disabled={blocked || engine.busy !== null} data-testid="run-button">
            {trace ? 'Run trace' : `Run ${formatInt(s.preload)} + ${formatInt(s.operations)} operations`}
          </button>
          <details className="documents">
            <summary>Documents and the native CLI</summary>
            <p className="caption">
              The same files run natively:{' '}
              <span className="mono" data-testid="run-command">
                lsm run --config config.json --workload workload.json --merges {s.merges} --report report.json
              </span>
              ; import that report here to compare.
            </p>
            <div className="doc-actions">
              <button type="button" onClick={() => downloadText(JSON.stringify(config, null, 2), 'config.json', 'application/json')}>
                config.json
              </button>
              <button type="button" onClick={() => downloadText(JSON.stringify(workload, null, 2), 'workload.json', 'application/json')}>
                workload.json
              </button>
              <button type="button" onClick={() => void downloadYcsb()} data-testid="download-ycsb">
                workload.properties (YCSB)
              </button>
            </div>
            {ycsbNotes && (
              <p className="caption" data-testid="ycsb-notes">
                {ycsbNotes}
              </p>
            )}
            <pre className="mono lab-json" data-testid="config-json" tabIndex={0} role="region" aria-label="Engine config (JSON)">
              {JSON.stringify(config, null, 2)}
            </pre>
          </details>
        </div>
        <ErrorAlert error={error} testId="run-error" />
        {stopMs !== null && (
          <p className="field-msg" data-testid="cancel-latency" data-value={stopMs}>
            Stopped {Math.round(stopMs)} ms after Cancel; the database holds every step completed before it.
          </p>
        )}
      </section>
      <TaskProgress />
      {shown && <RunResultView result={shown} />}
    </>
  );
}

/** Remember the last cancel time seen while a task runs (the store clears it when the task ends). */
function useCancelMoment(at: number | null) {
  const ref = useRef<number | null>(null);
  useEffect(() => {
    if (at !== null) ref.current = at;
  }, [at]);
  return ref;
}

/** The engine's own verdict on the documents (debounced; null when valid or not yet checked). */
function useEngineValidation(config: EngineConfig, workload: Workload): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      engineClient()
        .call('validate', { config, workload })
        .then(() => live && setProblem(null))
        .catch((err: unknown) => live && setProblem(err instanceof Error ? err.message : String(err)));
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [config, workload]);
  return problem;
}
