/**
 * The database open in the engine: its tree (as recovered from its files and log), and a small
 * console to write a key/value (acknowledged only once durable) and read keys back — how the
 * persistence of each backend is checked across a reload.
 */
import { useId, useState } from 'react';
import { BatchWriter } from '../../engine/batch';
import { formatBytes, formatInt, formatPercent } from '../../documents/format';
import type { TreeShape } from '../../documents/engine';
import { TreeView } from '../../ui/tree/TreeView';
import { useLabEngine, withTask } from '../../engine/session';
import { treeEntries } from './predict';

const plural = (n: number, one: string, many: string) => `${formatInt(n)} ${n === 1 ? one : many}`;

/** Levels with a merge due — over their capacity or run limit, or the one the engine names — as "Level 2 is 186% full". */
function overFullLevels(tree: TreeShape, dueLevel: number | null): string[] {
  return tree.levels.flatMap((l) => {
    const bytes = l.runs.reduce((n, r) => n + r.entry_bytes, 0);
    const over = l.capacity_bytes !== null && bytes > l.capacity_bytes;
    if (!over && l.runs.length <= l.max_runs && l.level !== dueLevel) return [];
    if (l.capacity_bytes !== null && l.runs.length <= l.max_runs) return [`Level ${l.level} is ${formatPercent(bytes / l.capacity_bytes, 2)} full`];
    return [`Level ${l.level} holds ${l.runs.length} of ${l.max_runs} runs`];
  });
}

export function OpenDatabaseCard() {
  const { open, busy } = useLabEngine();
  const ids = { key: useId(), value: useId() };
  const [key, setKey] = useState('hello');
  const [value, setValue] = useState('world');
  const [readBack, setReadBack] = useState<{ key: string; value: string | null } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!open) return null;

  const act = async (label: string, job: Parameters<typeof withTask>[1]) => {
    setMessage(null);
    try {
      await withTask(label, job);
    } catch (err) {
      setMessage(err instanceof Error ? err.message : String(err));
    }
  };

  const put = () =>
    act('writing a key', async (ctl) => {
      const batch = new BatchWriter(256).put(key, value).finish();
      await ctl.call('apply', { batch }, { transfer: [batch.buffer] });
      setMessage(`Wrote “${key}” (durable: the log was synced before this message).`);
    });
  const get = () =>
    act('reading a key', async (ctl) => {
      const r = await ctl.call('get', { key });
      setReadBack({ key, value: r.value });
    });

  const where = open.backend === 'memory' ? 'in memory' : open.backend === 'opfs' ? 'OPFS' : 'IndexedDB';
  const runs = open.tree.levels.reduce((n, l) => n + l.runs.length, 0);
  const rec = open.recovery;
  const interrupted = rec.run && !rec.run.end ? rec.run : null;
  const dueLevel = open.stall.merge_due_level ?? null;
  const overFull = open.tree.merging_level === null ? overFullLevels(open.tree, dueLevel) : [];
  // Merge the due work now, a few hundred pages per engine call, instead of with the next writes.
  const mergeNow = () =>
    act('merging', async (ctl) => {
      for (let i = 0; i < 100_000; i++) {
        const r = await ctl.call('step', { pages: 512 });
        if (!r.more) break;
      }
      setMessage('The pending merges are done: every level is within its limits.');
    });
  return (
    <section className="card" aria-labelledby="open-db-title" data-testid="open-db" data-name={open.name} data-backend={open.backend}>
      <header className="card-head">
        <div>
          <h2 id="open-db-title">
            Open: <span className="mono">{open.name}</span> ({where})
          </h2>
          <p className="caption" data-testid="open-db-summary">
            {plural(treeEntries(open.tree), 'entry', 'entries')} in {plural(open.tree.levels.length, 'level', 'levels')} and {plural(runs, 'run', 'runs')}
            {open.recovered > 0 && ` · ${formatInt(open.recovered)} log records replayed on opening`} · {open.config.name || 'unnamed design'}
          </p>
        </div>
        <div className="card-tools">
          <button type="button" disabled={busy !== null} onClick={() => void act('flushing', (ctl) => ctl.call('flush', {}).then(() => undefined))}>
            Flush buffer
          </button>
          <button type="button" className="ghost" disabled={busy !== null} onClick={() => void act('closing', (ctl) => ctl.close())}>
            Close
          </button>
        </div>
      </header>
      {interrupted && (
        <div className="notice recovery-notice" role="status" data-testid="open-db-recovery">
          <p>
            <strong>This database was interrupted during {interrupted.start.label}</strong>: {formatInt(interrupted.acknowledged.operations)}
            {interrupted.start.planned_operations != null && ` of ${formatInt(interrupted.start.planned_operations)}`} operations ({plural(interrupted.acknowledged.writes, 'write', 'writes')}) were
            acknowledged before it stopped, as the database itself recorded them.
          </p>
          <p data-testid="open-db-recovered">
            Recovered: {plural(rec.entries, 'entry', 'entries')} in {plural(rec.tables, 'table', 'tables')}
            {rec.logs_replayed > 0 ? ` and the buffer, from ${plural(rec.log_records_replayed, 'log record', 'log records')} replayed` : ''}
            {rec.log_bytes_cut > 0 && `; a torn log tail of ${formatBytes(rec.log_bytes_cut)} cut off (a write that was never acknowledged)`}
            {rec.manifest_bytes_cut > 0 && `; an unfinished manifest record of ${formatBytes(rec.manifest_bytes_cut)} cut off (a flush or merge that never committed)`}
            {rec.orphan_tables > 0 && `; ${plural(rec.orphan_tables, 'table', 'tables')} (${formatBytes(rec.orphan_bytes)}) of a merge cut off before its commit deleted — its inputs are still in the tree`}
            . Every acknowledged write is in it; writes after the last acknowledgement may be there too, in order.
          </p>
        </div>
      )}
      <TreeView tree={open.tree} title={`Tree of ${open.name}`} dueLevel={dueLevel} data-testid="open-tree" />
      {overFull.length > 0 && (
        <p className="field-msg merge-due" data-testid="open-db-merge-due">
          {overFull.join('; ')}: a merge is due and has not run
          {interrupted ? ' (the run was cut off while merges were paced behind its writes)' : ''}.{' '}
          {open.stall.merges_pending
            ? 'The engine resumes it with the next writes, a slice per write, or merge it now.'
            : 'It runs at the next flush, or merge it now.'}{' '}
          <button type="button" disabled={busy !== null} onClick={() => void mergeNow()} data-testid="open-db-merge-now">
            Merge now
          </button>
        </p>
      )}
      <div className="kv-console">
        <div className="field">
          <div className="field-head">
            <label htmlFor={ids.key}>Key</label>
          </div>
          <span className="number-box">
            <input id={ids.key} type="text" value={key} onChange={(e) => setKey(e.target.value)} spellCheck={false} data-testid="kv-key" />
          </span>
        </div>
        <div className="field">
          <div className="field-head">
            <label htmlFor={ids.value}>Value</label>
          </div>
          <span className="number-box">
            <input id={ids.value} type="text" value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} data-testid="kv-value" />
          </span>
        </div>
        <div className="kv-actions">
          <button type="button" onClick={() => void put()} disabled={busy !== null || key === ''} data-testid="kv-put">
            Write
          </button>
          <button type="button" onClick={() => void get()} disabled={busy !== null || key === ''} data-testid="kv-get">
            Read
          </button>
        </div>
      </div>
      {readBack && (
        <p className="field-msg" data-testid="kv-result" data-found={readBack.value !== null ? 'true' : 'false'}>
          {readBack.value === null ? (
            <>
              “{readBack.key}” is not in the database.
            </>
          ) : (
            <>
              “{readBack.key}” = <span className="mono" data-testid="kv-read-value">{readBack.value}</span>
            </>
          )}
        </p>
      )}
      {message && (
        <p className="field-msg" role="status">
          {message}
        </p>
      )}
      <details className="tree-json">
        <summary>Tree JSON</summary>
        <pre className="mono lab-json" data-testid="open-tree-json">
          {JSON.stringify(open.tree, null, 1)}
        </pre>
      </details>
    </section>
  );
}
