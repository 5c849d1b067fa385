/**
 * Databases that persist: the ones stored in this browser (OPFS or IndexedDB) with size and last
 * run, reopen after a reload, delete; storage used against the quota, and a request for
 * persistent storage (which must come from the page, not the worker).
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { ScrollRegion } from '../../ui/layout/ScrollRegion';
import { engineClient } from '../../engine/client';
import { IN_USE_MARK } from '../../engine/dbLock';
import type { ListedDatabase } from '../../engine/protocol';
import { formatBytes, formatPercent } from '../../documents/format';
import type { UrlState } from '../../ui/state/useUrlState';
import { stateToConfig } from '../../documents/urls/labDocuments';
import { forgetOpen, useLabEngine, withTask } from '../../engine/session';
import { OpenDatabaseCard } from './OpenDatabaseCard';
import { TaskProgress } from '../../ui/task/TaskProgress';
import { suggestDatabaseName } from './runner';
import { runStatus } from './runStatus';
import type { LabSchema } from '../../documents/urls/lab';

const BACKEND_NAME = { opfs: 'OPFS', idb: 'IndexedDB', memory: 'memory' } as const;

function useStorage() {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const refresh = useCallback(async () => {
    try {
      setEstimate(await engineClient().call('estimate', {}));
    } catch {
      setEstimate(null);
    }
    setPersisted(navigator.storage?.persisted ? await navigator.storage.persisted() : null);
  }, []);
  return { estimate, persisted, refresh, setPersisted };
}

export function DatabasesPanel({ url }: { url: UrlState<LabSchema> }) {
  const engine = useLabEngine();
  const [list, setList] = useState<ListedDatabase[]>([]);
  /** The stored database another tab has open, after an open was refused: offered a wait. */
  const [inUse, setInUse] = useState<ListedDatabase | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState(suggestDatabaseName);
  const nameId = useId();
  const storage = useStorage();

  const reload = useCallback(async () => {
    try {
      setList(await engineClient().call('list', {}));
      await storage.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- storage.refresh is stable; the storage object is new each render
  }, [storage.refresh]);

  useEffect(() => {
    void reload();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reload again when the engine becomes idle
  }, [reload, engine.busy === null]);

  const act = async (label: string, job: Parameters<typeof withTask>[1], target?: ListedDatabase) => {
    setError(null);
    setInUse(null);
    try {
      await withTask(label, job);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setError(message);
      if (target && message.includes(IN_USE_MARK)) setInUse(target);
    }
    await reload();
  };
  const openStored = (d: ListedDatabase, wait = false) =>
    void act(
      wait ? `waiting for another tab to close ${d.name}` : `opening ${d.name}`,
      (ctl) => ctl.open(d.name, d.backend, undefined, false, wait).then(() => undefined),
      d,
    );

  const [backend, setBackend] = useState<'opfs' | 'idb'>(url.state.backend === 'idb' ? 'idb' : 'opfs');

  return (
    <>
      <section className="card" aria-labelledby="storage-title">
        <header className="card-head">
          <div>
            <h2 id="storage-title">Storage</h2>
            <p className="caption">Databases live in the origin private file system (OPFS) or in IndexedDB and survive reloads. Browsers may evict them under pressure unless storage is persistent.</p>
          </div>
        </header>
        <div className="storage-row">
          <div className="quota" data-testid="storage-estimate">
            {storage.estimate ? (
              <>
                <div className="bar" role="meter" aria-label="Storage used" aria-valuemin={0} aria-valuemax={storage.estimate.quota} aria-valuenow={storage.estimate.usage}>
                  <span style={{ width: `${Math.min(100, (100 * storage.estimate.usage) / Math.max(1, storage.estimate.quota))}%` }} />
                </div>
                <p className="field-msg">
                  {formatBytes(storage.estimate.usage)} used of {formatBytes(storage.estimate.quota)} ({formatPercent(storage.estimate.usage / Math.max(1, storage.estimate.quota), 2)})
                </p>
              </>
            ) : (
              <p className="field-msg">Storage estimate unavailable.</p>
            )}
          </div>
          <div className="persist">
            <p className="field-msg" data-testid="persisted">
              {storage.persisted === null ? 'Persistence status unknown.' : storage.persisted ? 'Storage is persistent: the browser will not evict it.' : 'Storage is best-effort: the browser may evict it.'}
            </p>
            <button
              type="button"
              disabled={storage.persisted === true || !navigator.storage?.persist}
              onClick={async () => storage.setPersisted(await navigator.storage.persist())}
            >
              Ask for persistent storage
            </button>
          </div>
        </div>
      </section>
      <section className="card" aria-labelledby="dbs-title">
        <header className="card-head">
          <div>
            <h2 id="dbs-title">Stored databases</h2>
            <p className="caption">Open one to see its tree (recovered from its files and log) and read or write keys; the Run tab can then run a workload on it.</p>
          </div>
          <div className="card-tools">
            <button type="button" className="ghost" onClick={() => void reload()}>
              Refresh
            </button>
          </div>
        </header>
        {list.length === 0 ? (
          <p className="chart-placeholder">No stored databases yet: run a workload with OPFS or IndexedDB storage, or create one below.</p>
        ) : (
          <ScrollRegion label="Stored databases">
            <table className="data-table" data-testid="db-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Storage</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Last used</th>
                  <th scope="col">Last run</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((d) => {
                  const isOpen = engine.open?.name === d.name && engine.open.backend === d.backend;
                  const status = runStatus(d, isOpen && engine.busy !== null);
                  return (
                    <tr key={d.key} data-testid={`db-row-${d.backend}-${d.name}`} className={isOpen ? 'current' : undefined}>
                      <td className="mono nowrap">
                        {d.name}
                        {d.openElsewhere && (
                          <span className="badge" data-testid={`db-in-use-${d.backend}-${d.name}`} title="Another tab of LSM Navigator has this database open">
                            open in another tab
                          </span>
                        )}
                      </td>
                      <td>{BACKEND_NAME[d.backend]}</td>
                      <td className="num" data-testid={`db-size-${d.backend}-${d.name}`} data-bytes={d.bytes}>
                        {formatBytes(d.bytes)}
                      </td>
                      <td>{new Date(d.lastUsed).toLocaleString()}</td>
                      <td data-testid={`db-run-${d.backend}-${d.name}`} data-state={status.kind} className={status.kind === 'interrupted' ? 'run-interrupted' : undefined}>
                        {status.text}
                      </td>
                      <td className="row-actions">
                        <button
                          type="button"
                          disabled={engine.busy !== null}
                          onClick={() => openStored(d)}
                          aria-label={`Open ${d.name}`}
                        >
                          {isOpen ? 'Reopen' : 'Open'}
                        </button>
                        <button
                          type="button"
                          className="ghost danger-text"
                          disabled={engine.busy !== null}
                          onClick={() =>
                            void act(`deleting ${d.name}`, async (ctl) => {
                              await ctl.call('remove', { key: d.key });
                              if (isOpen) forgetOpen();
                            }, d)
                          }
                          aria-label={`Delete ${d.name}`}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        <div className="create-db">
          <fieldset className="field segmented-field">
            <legend>Storage</legend>
            <div className="segmented">
              {(['opfs', 'idb'] as const).map((b) => (
                <label key={b} className="segment">
                  <input type="radio" name="create-backend" value={b} checked={backend === b} onChange={() => setBackend(b)} />
                  <span>{BACKEND_NAME[b]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field">
            <div className="field-head">
              <label htmlFor={nameId}>New database name</label>
            </div>
            <span className="number-box">
              <input id={nameId} type="text" value={name} onChange={(e) => setName(e.target.value)} spellCheck={false} data-testid="new-db-name" />
            </span>
          </div>
          <button
            type="button"
            disabled={engine.busy !== null}
            data-testid="create-db"
            onClick={() =>
              void act(`creating ${name}`, async (ctl) => {
                await ctl.open(name, backend, stateToConfig(url.state), true);
                setName(suggestDatabaseName());
              })
            }
          >
            Create an empty {BACKEND_NAME[backend]} database with the Run tab’s design
          </button>
        </div>
        {error && (
          <p role="alert" className="error" data-testid="db-error">
            {error}
            {inUse && (
              <>
                {' '}
                <button type="button" data-testid="db-wait" disabled={engine.busy !== null} onClick={() => openStored(inUse, true)}>
                  Wait for it
                </button>
              </>
            )}
          </p>
        )}
      </section>
      <TaskProgress />
      {engine.open && <OpenDatabaseCard />}
    </>
  );
}
