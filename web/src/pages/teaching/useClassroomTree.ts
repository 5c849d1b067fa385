/**
 * Drives the classroom tree on the real engine (in memory, automatic merges off): each step either
 * inserts a few keys (the buffer fills; a full buffer flushes by itself) or advances a pending
 * merge by a few pages. The picture is always the engine's own TreeShape after the step.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { BatchWriter } from '../../engine/batch';
import type { EngineConfig, Stats, TreeShape } from '../../documents/engine';
import { BusyError, withTask } from '../../engine/session';
import { describeChange, mergeNeeded, shapeKey, TEACH_BATCH, TEACH_MERGE_PAGES, teachKey, teachValue } from './teach';

export interface LogLine {
  id: number;
  text: string;
}

export interface ClassroomTree {
  tree: TreeShape | null;
  stats: Stats | null;
  inserted: number;
  /** Steps completed since the tree was (re)created. */
  steps: number;
  /** True while a merge is in progress or may be needed next. */
  merging: boolean;
  log: LogLine[];
  error: string | null;
  step: () => Promise<void>;
  flush: () => Promise<void>;
  reset: () => Promise<void>;
}

let logId = 0;

export function useClassroomTree(config: EngineConfig): ClassroomTree {
  const sizeRatio = config.levels[0]?.size_ratio ?? 2;
  const [tree, setTree] = useState<TreeShape | null>(null);
  const [stats, setStats] = useState<Stats | null>(null);
  const [inserted, setInserted] = useState(0);
  const [steps, setSteps] = useState(0);
  const [merging, setMerging] = useState(false);
  const [log, setLog] = useState<LogLine[]>([]);
  const [error, setError] = useState<string | null>(null);
  // The engine is driven one call at a time; refs hold what the next call needs.
  const ref = useRef({ tree: null as TreeShape | null, inserted: 0, running: false });

  const say = useCallback((lines: string[]) => {
    if (lines.length === 0) return;
    setLog((old) => [...lines.map((text) => ({ id: ++logId, text })), ...old].slice(0, 8));
  }, []);

  const show = useCallback(
    (next: TreeShape, nextStats: Stats) => {
      const prev = ref.current.tree;
      if (prev) say(describeChange(prev, next));
      ref.current.tree = next;
      setTree(next);
      setStats(nextStats);
    },
    [say],
  );

  const guarded = useCallback(async (what: string, job: Parameters<typeof withTask>[1]) => {
    if (ref.current.running) return;
    ref.current.running = true;
    try {
      await withTask(what, job);
      setError(null);
      setSteps((n) => n + 1);
    } catch (err) {
      setError(err instanceof BusyError ? `${err.message} (on the lab page)` : err instanceof Error ? err.message : String(err));
    } finally {
      ref.current.running = false;
    }
  }, []);

  const reset = useCallback(async () => {
    await guarded('classroom tree', async (ctl) => {
      const s = await ctl.open('classroom', 'memory', config, true);
      const snap = await ctl.call('setAutoCompact', { on: false });
      ref.current = { ...ref.current, tree: null, inserted: 0 };
      setInserted(0);
      setMerging(false);
      setLog([{ id: ++logId, text: `A new, empty tree: ${config.name}. Press Step or Play.` }]);
      show(snap.tree, snap.stats ?? s.stats);
    });
  }, [config, guarded, show]);

  useEffect(() => {
    void reset();
  }, [reset]);

  const step = useCallback(async () => {
    await guarded('classroom step', async (ctl) => {
      const r = ref.current;
      if (r.tree && mergeNeeded(r.tree, sizeRatio)) {
        const before = shapeKey(r.tree);
        const s = await ctl.call('step', { pages: TEACH_MERGE_PAGES });
        // If the engine saw nothing to merge after all, this step inserts instead of idling.
        if (s.more || shapeKey(s.tree) !== before) {
          show(s.tree, s.stats);
          setMerging(s.more || mergeNeeded(s.tree, sizeRatio));
          return;
        }
      }
      const batch = new BatchWriter(TEACH_BATCH * 40);
      for (let i = 0; i < TEACH_BATCH; i++) batch.put(teachKey(r.inserted + i), teachValue(r.inserted + i));
      const bytes = batch.finish();
      const res = await ctl.call('apply', { batch: bytes }, { transfer: [bytes.buffer] });
      r.inserted += TEACH_BATCH;
      setInserted(r.inserted);
      show(res.tree, res.stats);
      setMerging(mergeNeeded(res.tree, sizeRatio));
    });
  }, [guarded, show, sizeRatio]);

  const flush = useCallback(async () => {
    await guarded('classroom flush', async (ctl) => {
      const s = await ctl.call('flush', {});
      show(s.tree, s.stats);
      setMerging(mergeNeeded(s.tree, sizeRatio));
    });
  }, [guarded, show, sizeRatio]);

  return { tree, stats, inserted, steps, merging, log, error, step, flush, reset };
}
