import { useState } from 'react';
import { formatFixed, formatInt } from '../../documents/format';
import type { PhysicalCalls } from '../../engine/opfsPool';
import { type BenchRow, runStorageBenchmark } from './storageBench';

const SIZES = [100_000, 200_000, 1_000_000];

/** Reads `n` from the hash query (`#/bench?n=200000`), so the benchmark script can pick the size. */
function initialSize(): number {
  const n = Number(new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('n'));
  return SIZES.includes(n) ? n : 1_000_000;
}

/** What the OPFS figures cost in browser calls: the per-call price is what batching works against. */
function PhysicalCallsNote({ label, calls }: { label: string; calls: PhysicalCalls }) {
  const kinds = ['write', 'read', 'flush', 'truncate'] as const;
  return (
    <p className="field-msg" data-testid="bench-physical">
      {label}, file calls: {kinds.map((k, i) => (
        <span key={k} data-kind={k} data-count={calls[k].count} data-ms={calls[k].ms}>
          {i > 0 && ' · '}
          {formatInt(calls[k].count)} {k}s ({formatInt(calls[k].ms)} ms)
        </span>
      ))}
    </p>
  );
}

export function BenchPage() {
  const [n, setN] = useState(initialSize);
  const [rows, setRows] = useState<BenchRow[]>([]);
  const [state, setState] = useState<'idle' | 'running' | 'done' | 'error'>('idle');
  const [error, setError] = useState('');
  const plain = rows.find((r) => r.id === 'plain-idb');

  const run = async () => {
    setRows([]);
    setState('running');
    try {
      await runStorageBenchmark(n, (row) => setRows((rs) => [...rs, row]));
      setState('done');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setState('error');
    }
  };

  return (
    <section className="page">
      <header className="page-header">
        <h1>Storage benchmark</h1>
        <p className="lede">
          The engine, running in its worker, loads and then reads {formatInt(n)} entries (16-byte keys, 100-byte
          values; leveling, T = 10, 10 bits/key, 4 MiB buffer) on each storage backend, against a plain IndexedDB
          key-value store doing the same puts (in transactions of 10,000) and gets.
        </p>
      </header>
      <div className="card">
        <label htmlFor="bench-size">Entries </label>
        <select id="bench-size" value={n} onChange={(e) => setN(Number(e.target.value))} disabled={state === 'running'}>
          {SIZES.map((s) => (
            <option key={s} value={s}>
              {formatInt(s)}
            </option>
          ))}
        </select>{' '}
        <button type="button" className="primary" onClick={run} disabled={state === 'running'}>
          {state === 'running' ? 'Running…' : 'Run benchmark'}
        </button>
        {state === 'error' && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <table className="data-table" data-testid="bench-results">
          <thead>
            <tr>
              <th>store</th>
              <th className="num">inserts / s</th>
              <th className="num">lookups / s</th>
              <th className="num">inserts vs plain IndexedDB</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid={`bench-${r.id}`}>
                <td>{r.label}</td>
                <td className="num" data-value={r.insertsPerSecond}>
                  {formatInt(r.insertsPerSecond)}
                </td>
                <td className="num" data-value={r.lookupsPerSecond}>
                  {formatInt(r.lookupsPerSecond)}
                </td>
                <td className="num">{plain ? `${formatFixed(r.insertsPerSecond / plain.insertsPerSecond, 1)}×` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.map((r) => r.physical && <PhysicalCallsNote key={r.id} label={r.label} calls={r.physical} />)}
        {state === 'done' && <p data-testid="bench-done">Done.</p>}
      </div>
    </section>
  );
}
