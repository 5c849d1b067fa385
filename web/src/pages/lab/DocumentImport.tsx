/**
 * Bring a document into the lab: a design preset from /presets, one of YCSB's core workloads, or
 * pasted / uploaded text — an EngineConfig or Workload (checked by the engine's own validator,
 * whose messages name the field), a Report from `lsm run --report` (stored and shown), a RocksDB
 * OPTIONS file, or a YCSB workload properties file (read by the engine, as `lsm run` reads it).
 */
import { useEffect, useId, useState } from 'react';
import { engineClient } from '../../engine/client';
import type { TraceFit } from '../../engine/protocol';
import { dbBenchImportNotes, looksLikeDbBench, looksLikeTrace, looksLikeYcsb, traceFitNotes, ycsbImportNotes } from '../../documents/importKind';
import { YCSB_CORE } from '../../documents/ycsb';
import type { EngineConfig, Report, Workload } from '../../documents/engine';
import { configToState, workloadToState } from '../../documents/urls/labDocuments';
import type { LabState } from '../../documents/urls/lab';
import { LAB_DOCUMENT_FILE } from '../../documents/fileCheck';
import { readTextFile } from '../../ui/controls/readTextFile';
import { newResultId, saveResult, type RunResult } from './results';

interface PresetEntry {
  id: string;
  file: string;
  label: string;
  description: string;
}

export function usePresetIndex(): PresetEntry[] {
  const [presets, setPresets] = useState<PresetEntry[]>([]);
  useEffect(() => {
    let live = true;
    fetch('/presets/index.json')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((doc: { presets: PresetEntry[] }) => {
        if (live) setPresets(doc.presets);
      })
      .catch(() => {
        if (live) setPresets([]);
      });
    return () => {
      live = false;
    };
  }, []);
  return presets;
}

export function reportToResult(report: Report, source: string): RunResult {
  return {
    id: newResultId('run'),
    kind: 'run',
    created: Date.now(),
    label: `Imported: ${source}`,
    backend: 'imported',
    database: source,
    config: report.config,
    workload: report.workload,
    report,
    cancelled: false,
    millis: (report.timings?.preload_ms ?? 0) + (report.timings?.run_ms ?? 0),
  };
}

type ReadDocument =
  | { kind: 'config'; patch: Partial<LabState>; name: string }
  | { kind: 'workload'; patch: Partial<LabState>; name: string; notes?: string[]; fit?: TraceFit }
  | { kind: 'report'; result: RunResult };

/** A YCSB workload as lab controls, with what did not carry over. */
async function readYcsb(text: string, source: string): Promise<ReadDocument> {
  const imported = await engineClient().call('ycsbImport', { text, file: source });
  const notes = ycsbImportNotes(imported.warnings, imported.unknown_keys);
  return { kind: 'workload', patch: workloadToState(imported.workload), name: imported.workload.name || source, notes };
}

/** A db_bench command line as lab controls (its plain approximation: the lab's controls have no
 * mixgraph), with what did not carry over. */
async function readDbBench(text: string, source: string): Promise<ReadDocument> {
  const imported = await engineClient().call('dbBenchImport', { text });
  const notes = dbBenchImportNotes(imported.warnings, imported.unknown_flags);
  return { kind: 'workload', patch: workloadToState(imported.workload), name: imported.workload.name || source, notes };
}

/** A workload fitted to a trace by the engine (`lsm fit`), with what the fit found. */
async function fitTrace(text: string, source: string): Promise<ReadDocument> {
  const fit = await engineClient().call('fitTrace', { name: source, text, keyBytes: 16 });
  return { kind: 'workload', patch: workloadToState(fit.workload), name: fit.workload.name ?? source, notes: traceFitNotes(fit), fit };
}

/** What a pasted text is, and the lab state it sets (or the report it holds). */
export async function readDocument(text: string, source: string): Promise<ReadDocument> {
  const client = engineClient();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    if (/\[(DBOptions|CFOptions)/.test(text)) {
      const imported = await client.call('import', { text, kind: 'rocksdb' });
      return { kind: 'config', patch: configToState(imported.config), name: `RocksDB OPTIONS (${source})` };
    }
    if (looksLikeDbBench(text)) return readDbBench(text, source);
    if (looksLikeYcsb(text)) return readYcsb(text, source);
    if (looksLikeTrace(text)) return fitTrace(text, source);
    throw new Error(`${source}: not JSON, a RocksDB OPTIONS file, a YCSB workload properties file, a db_bench command line or a KVBench trace`);
  }
  const kind = typeof doc === 'object' && doc !== null ? (doc as { kind?: unknown }).kind : undefined;
  if (kind === 'lsm-navigator/engine-config') {
    const config = doc as EngineConfig;
    await client.call('validate', { config });
    return { kind: 'config', patch: configToState(config), name: config.name || source };
  }
  if (kind === 'lsm-navigator/workload') {
    const workload = doc as Workload;
    await client.call('validate', { workload });
    return { kind: 'workload', patch: workloadToState(workload), name: workload.name || source };
  }
  if (kind === 'lsm-navigator/report') {
    const report = doc as Report;
    if (!Array.isArray(report.summary) || !report.tree || !report.run) throw new Error(`${source}: the report lacks summary, run or tree`);
    return { kind: 'report', result: reportToResult(report, source) };
  }
  throw new Error(`${source}: kind must be "lsm-navigator/engine-config", "lsm-navigator/workload" or "lsm-navigator/report", got ${JSON.stringify(kind)}`);
}

export function DocumentImport({
  onPatch,
  onReport,
  counts,
}: {
  onPatch: (patch: Partial<LabState>) => void;
  onReport: (r: RunResult) => void;
  /** recordcount and operationcount for a YCSB core workload: the lab's preload and operations. */
  counts: { records: number; operations: number };
}) {
  const presets = usePresetIndex();
  const ids = { preset: useId(), text: useId(), file: useId(), ycsb: useId() };
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const take = async (body: string, source: string) => {
    setMessage(null);
    try {
      const got = await readDocument(body, source);
      if (got.kind === 'report') {
        await saveResult(got.result);
        onReport(got.result);
        setMessage({ ok: true, text: `Report imported and stored: ${got.result.report.config.name || source}.` });
      } else {
        onPatch(got.patch);
        const notes =
          got.kind === 'workload' && got.notes?.length ? ` ${got.fit ? 'Fit' : 'Not carried over'}: ${got.notes.join('; ')}.` : '';
        setMessage({ ok: true, text: `${got.kind === 'config' ? 'Design' : 'Workload'} loaded: ${got.name}.${notes}` });
      }
    } catch (err) {
      setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
    }
  };

  const loadPreset = async (id: string) => {
    const p = presets.find((x) => x.id === id);
    if (!p) return;
    try {
      const r = await fetch(`/presets/${p.file}`);
      await take(await r.text(), p.label);
    } catch (err) {
      setMessage({ ok: false, text: `preset ${p.label}: ${err instanceof Error ? err.message : String(err)}` });
    }
  };

  const loadYcsb = async (letter: string) => {
    try {
      const { text: properties } = await engineClient().call('ycsbCore', { letter, records: counts.records, operations: counts.operations });
      await take(properties, `workload${letter}`);
    } catch (err) {
      setMessage({ ok: false, text: `YCSB ${letter.toUpperCase()}: ${err instanceof Error ? err.message : String(err)}` });
    }
  };

  return (
    <div className="doc-import">
      <div className="field select-field">
        <div className="field-head">
          <label htmlFor={ids.ycsb}>Load a YCSB core workload</label>
        </div>
        <select id={ids.ycsb} value="" onChange={(e) => void loadYcsb(e.target.value)} data-testid="ycsb-core" title={`recordcount ${counts.records.toLocaleString('en-US')}, operationcount ${counts.operations.toLocaleString('en-US')} (the preload and operations set here)`}>
          <option value="" disabled>
            Choose A–F…
          </option>
          {YCSB_CORE.map((w) => (
            <option key={w.letter} value={w.letter}>
              {w.label} ({w.detail})
            </option>
          ))}
        </select>
      </div>
      <div className="field select-field">
        <div className="field-head">
          <label htmlFor={ids.preset}>Load a system’s design</label>
        </div>
        <select id={ids.preset} value="" onChange={(e) => void loadPreset(e.target.value)} data-testid="design-preset">
          <option value="" disabled>
            Choose a preset…
          </option>
          {presets.map((p) => (
            <option key={p.id} value={p.id} title={p.description}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide import' : 'Paste or upload a design, workload or report (JSON, RocksDB OPTIONS, YCSB properties, a trace to fit)…'}
      </button>
      {open && (
        <div className="doc-box">
          <label htmlFor={ids.text} className="sr-only">
            Document text
          </label>
          <textarea
            id={ids.text}
            rows={6}
            spellCheck={false}
            placeholder='{"kind": "lsm-navigator/engine-config", …}'
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="doc-text"
          />
          <div className="doc-actions">
            <button type="button" onClick={() => void take(text, 'pasted text')} disabled={text.trim() === ''}>
              Load
            </button>
            <label className="file-button" htmlFor={ids.file}>
              Upload file…
            </label>
            <input
              id={ids.file}
              type="file"
              accept=".json,application/json,text/plain,.ini,.properties,.trace,.txt"
              className="sr-only"
              data-testid="doc-file"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                if (!f) return;
                setMessage(null);
                let body: string;
                try {
                  body = await readTextFile(f, LAB_DOCUMENT_FILE);
                } catch (err) {
                  setMessage({ ok: false, text: err instanceof Error ? err.message : String(err) });
                  return;
                }
                await take(body, f.name);
              }}
            />
          </div>
        </div>
      )}
      {message && (
        <p className={`field-msg ${message.ok ? 'ok' : 'field-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="doc-message">
          {message.text}
        </p>
      )}
    </div>
  );
}
