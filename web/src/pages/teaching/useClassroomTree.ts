/**
 * Drives the classroom tree on the real engine (in memory). With merges stepped (automatic merges
 * off), each step either inserts a few keys (the buffer fills; a full buffer flushes by itself) or
 * advances a pending merge by a few pages. With paced merges (the engine's default), each step
 * writes keys one at a time and the engine's pacer does the merge work inside the writes, slowing
 * or stopping them at the design's write-stall thresholds; the step ends where that changes. Every step is kept as a frame — the engine's own TreeShape and counters
 * after it, and what it did in words — so the class can step back, scrub the timeline and replay;
 * stepping forward from a past frame replays the frames before it asks the engine for a new one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { BatchWriter } from '../../engine/batch';
import type { EngineConfig, Stats, TreeShape, WriteStallState } from '../../documents/engine';
import { BusyError, withTask } from '../../engine/session';
import { describeStep, mergeNeeded, shapeKey, stallStepEnds, TEACH_BATCH, TEACH_MERGE_PAGES, teachKey, teachValue, type EngineMoment, type StepEvent } from './teach';

/** One step as the class sees it. */
export interface Frame extends EngineMoment {
  /** What the step did, narrated from the engine's tree and counters. */
  lines: string[];
  event: StepEvent;
  /** A merge is in progress or due: the next step advances it. */
  merging: boolean;
}

/** Frames kept (the oldest are dropped past it: a long play stays light). */
const MAX_FRAMES = 1_000;

/** Engine calls that may wait for their turn (Step pressed faster than the engine answers). */
const MAX_WAITING = 8;

export interface ClassroomTree {
  frames: Frame[];
  /** The frame on screen (index into `frames`). */
  cursor: number;
  /** Frames stepped through since the tree was (re)created, including replays. */
  steps: number;
  error: string | null;
  /** Forward: the next kept frame, or a new step on the engine at the newest. */
  step: () => Promise<void>;
  back: () => void;
  seek: (frame: number) => void;
  flush: () => Promise<void>;
  reset: () => Promise<void>;
}

/** `paced`: merges paced by the writes, with write stalls (else merges wait for steps). */
export function useClassroomTree(config: EngineConfig, paced: boolean): ClassroomTree {
  const sizeRatio = config.levels[0]?.size_ratio ?? 2;
  const [frames, setFrames] = useState<Frame[]>([]);
  const [cursor, setCursor] = useState(0);
  const [steps, setSteps] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // The engine is driven one call at a time; refs hold what the next call needs.
  const ref = useRef({ frames: [] as Frame[], cursor: 0, running: false });

  const record = useCallback(
    (tree: TreeShape, stats: Stats, stall: WriteStallState | undefined, inserted: number, intro?: string) => {
      const r = ref.current;
      const prev = r.frames.at(-1);
      // With paced merges the writes do them: no step waits to advance one.
      const merging = !paced && mergeNeeded(tree, sizeRatio);
      const frame: Frame = prev
        ? { tree, stats, stall, inserted, merging, ...describeStep(prev, { tree, stats, stall, inserted }) }
        : { tree, stats, stall, inserted, merging, lines: [intro ?? ''], event: 'start' };
      r.frames = [...r.frames, frame].slice(-MAX_FRAMES);
      r.cursor = r.frames.length - 1;
      setFrames(r.frames);
      setCursor(r.cursor);
      setSteps((n) => n + 1);
    },
    [sizeRatio, paced],
  );

  // Engine calls run one at a time, in the order asked: a Step pressed while the tree is still
  // opening (or while the last step runs) waits its turn instead of being dropped. A few may wait;
  // more (a held-down key) are dropped, so the picture never lags far behind the keys.
  const queue = useRef({ tail: Promise.resolve(), waiting: 0 });
  const guarded = useCallback(async (what: string, job: Parameters<typeof withTask>[1]) => {
    const q = queue.current;
    if (q.waiting >= MAX_WAITING) return;
    q.waiting++;
    const run = q.tail.then(async () => {
      ref.current.running = true;
      try {
        await withTask(what, job);
        setError(null);
      } catch (err) {
        setError(err instanceof BusyError ? `${err.message} (on the lab page)` : err instanceof Error ? err.message : String(err));
      } finally {
        ref.current.running = false;
        q.waiting--;
      }
    });
    q.tail = run;
    await run;
  }, []);

  const reset = useCallback(async () => {
    await guarded('classroom tree', async (ctl) => {
      const s = await ctl.open('classroom', 'memory', config, true);
      const snap = await ctl.call('setAutoCompact', { on: paced });
      ref.current = { ...ref.current, frames: [], cursor: 0 };
      record(snap.tree, snap.stats ?? s.stats, snap.stall, 0, `A new, empty tree: ${config.name}. Press Step or Play.`);
    });
  }, [config, paced, guarded, record]);

  useEffect(() => {
    void reset();
  }, [reset]);

  const seek = useCallback((frame: number) => {
    const r = ref.current;
    const next = Math.max(0, Math.min(r.frames.length - 1, Math.round(frame)));
    if (next === r.cursor) return;
    r.cursor = next;
    setCursor(next);
    setSteps((n) => n + 1);
  }, []);

  const back = useCallback(() => seek(ref.current.cursor - 1), [seek]);

  const step = useCallback(async () => {
    await guarded('classroom step', async (ctl) => {
      const r = ref.current;
      // Forward from a past frame replays the kept frames (checked when the step's turn comes).
      if (r.cursor < r.frames.length - 1) {
        seek(r.cursor + 1);
        return;
      }
      const now = r.frames.at(-1);
      if (!now) return;
      if (paced) {
        // One key a write, so the step can end at the write where the stalls change.
        let at: EngineMoment = now;
        let n = 0;
        while (n < TEACH_BATCH) {
          const batch = new BatchWriter(64);
          batch.put(teachKey(now.inserted + n), teachValue(now.inserted + n));
          const bytes = batch.finish();
          const res = await ctl.call('apply', { batch: bytes }, { transfer: [bytes.buffer] });
          n++;
          at = { tree: res.tree, stats: res.stats, stall: res.stall, inserted: now.inserted + n };
          if (stallStepEnds(now, at)) break;
        }
        record(at.tree, at.stats, at.stall, at.inserted);
        return;
      }
      if (now.merging) {
        const before = shapeKey(now.tree);
        const s = await ctl.call('step', { pages: TEACH_MERGE_PAGES });
        // If the engine saw nothing to merge after all, this step inserts instead of idling.
        if (s.more || shapeKey(s.tree) !== before) {
          record(s.tree, s.stats, s.stall, now.inserted);
          return;
        }
      }
      const batch = new BatchWriter(TEACH_BATCH * 40);
      for (let i = 0; i < TEACH_BATCH; i++) batch.put(teachKey(now.inserted + i), teachValue(now.inserted + i));
      const bytes = batch.finish();
      const res = await ctl.call('apply', { batch: bytes }, { transfer: [bytes.buffer] });
      record(res.tree, res.stats, res.stall, now.inserted + TEACH_BATCH);
    });
  }, [guarded, record, seek, paced]);

  const flush = useCallback(async () => {
    const r = ref.current;
    // Flushing acts on the engine's newest state: show it first.
    if (r.cursor < r.frames.length - 1) seek(r.frames.length - 1);
    await guarded('classroom flush', async (ctl) => {
      const s = await ctl.call('flush', {});
      record(s.tree, s.stats, s.stall, r.frames.at(-1)?.inserted ?? 0);
    });
  }, [guarded, record, seek]);

  return { frames, cursor, steps, error, step, back, seek, flush, reset };
}
