/**
 * Ask the engine worker for every format of a design at once (each is microseconds of Rust), so
 * every tab can show its warning count before it is opened. Answers for an older design are
 * dropped; a design that keeps changing (a slider drag) is exported once it settles.
 */
import { useEffect, useState } from 'react';
import { engineClient } from '../../engine/client';
import type { EngineConfig, Workload } from '../../documents/engine';
import { formatsToRequest, pendingResults, requestKey, settle, type ExportResults } from './panelState';
import { loadExampleWorkload, type ExampleWorkloadId } from '../../documents/sources';

const SETTLE_MS = 150;

export interface Exports {
  results: ExportResults;
  /**
   * false while the files of a new design are on their way: `results` are then the previous
   * design's (shown dimmed, so the panel does not jump on every slider step) and must not be
   * downloaded.
   */
  current: boolean;
}

export function useExports(config: EngineConfig | null, workload: Workload | null): Exports | null {
  const key = config ? requestKey(config, workload) : null;
  const [state, setState] = useState<{ key: string; results: ExportResults } | null>(null);

  useEffect(() => {
    if (!config || key === null) return;
    let live = true;
    const results = pendingResults(workload !== null);
    // Starting the worker (and its wasm) now overlaps the wait; the first design is exported at once.
    const client = engineClient();
    const timer = setTimeout(() => {
      const formats = formatsToRequest(results);
      void Promise.allSettled(
        formats.map((format) => client.call('export', workload ? { config, format, workload } : { config, format })),
      ).then((outcomes) => {
        if (!live) return;
        const next = { ...results };
        formats.forEach((f, i) => (next[f] = settle(outcomes[i])));
        setState({ key, results: next });
      });
    }, state === null ? 0 : SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` is the identity of (config, workload): a new object with the same content is not new work.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the identity of (config, workload): a new object with the same content is not new work
  }, [key]);

  if (key === null) return null;
  if (state?.key === key) return { results: state.results, current: true };
  return { results: state?.results ?? pendingResults(workload !== null), current: false };
}

export type WorkloadChoice = ExampleWorkloadId | 'none';

/** An example workload, loaded when chosen. */
export function useExampleWorkload(id: WorkloadChoice): { workload: Workload | null; loading: boolean; error: string | null } {
  const [state, setState] = useState<{ id: WorkloadChoice; workload: Workload | null; error: string | null }>({
    id: 'none',
    workload: null,
    error: null,
  });
  useEffect(() => {
    if (id === 'none') return;
    let live = true;
    loadExampleWorkload(id).then(
      (workload) => live && setState({ id, workload, error: null }),
      (err: unknown) => live && setState({ id, workload: null, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (id === 'none') return { workload: null, loading: false, error: null };
  if (state.id !== id) return { workload: null, loading: true, error: null };
  return { workload: state.workload, loading: false, error: state.error };
}
