/**
 * The database open in the engine: its tree (as recovered from its files and log), and a small
 * console to write a key/value (acknowledged only once durable) and read keys back — how the
 * persistence of each backend is checked across a reload.
 */
import { useId, useState } from 'react';
import { BatchWriter } from '../../engine/batch';
import { formatInt } from '../../documents/format';
import { TreeView } from '../../ui/tree/TreeView';
import { useLabEngine, withTask } from '../../engine/session';
import { treeEntries } from './predict';

const plural = (n: number, one: string, many: string) => `${formatInt(n)} ${n === 1 ? one : many}`;

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
      <TreeView tree={open.tree} title={`Tree of ${open.name}`} data-testid="open-tree" />
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
