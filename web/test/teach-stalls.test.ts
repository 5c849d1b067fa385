/**
 * The teaching view's write stalls, on the real engine (wasm) as the page drives it with paced
 * merges: one key a write, a step ending where the engine's stall verdict changes. Level 1 reaches
 * the slow-down count, then the stop count, and the write after that waits for a merge that brings
 * level 1 down; the narration and the panel's headline say so from the engine's own figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, validate_config, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import { BatchWriter } from '../src/engine/batch';
import type { Stats, TreeShape, WriteStallState } from '../src/documents/engine';
import { describeChange, describeStall, describeStep, stallHeadline, stallStepEnds, TEACH_BATCH, teachConfig, teachKey, teachValue, type EngineMoment } from '../src/pages/teaching/teach';

const root = path.resolve(__dirname, '../..');

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
});

const LIMITS = { slowdown: 2, stop: 4 };

/** The page's paced step without React: up to TEACH_BATCH single-key writes, ending where the stalls change. */
function pacedClassroom() {
  const engine = new WasmEngine(JSON.stringify(teachConfig(4, 'tiering', 'monkey', 5, LIMITS)));
  const moment = (inserted: number): EngineMoment => ({
    tree: JSON.parse(engine.tree_json()) as TreeShape,
    stats: JSON.parse(engine.stats_json()) as Stats,
    stall: JSON.parse(engine.write_stall_json()) as WriteStallState,
    inserted,
  });
  let now = moment(0);
  return {
    now: () => now,
    step(): EngineMoment {
      const start = now;
      let at = start;
      for (let n = 0; n < TEACH_BATCH; ) {
        const b = new BatchWriter(64);
        b.put(teachKey(start.inserted + n), teachValue(start.inserted + n));
        engine.apply(b.finish());
        n++;
        at = moment(start.inserted + n);
        if (stallStepEnds(start, at)) break;
      }
      now = at;
      return at;
    },
    free: () => engine.free(),
  };
}

const stall = (over: Partial<WriteStallState> = {}): WriteStallState => ({
  stall: 'none',
  paced: true,
  merges_pending: false,
  level0_files: 0,
  pending_bytes: 0,
  slice_pages: 16,
  slowdown_slice_pages: 64,
  merge_due_level: null,
  ...over,
});

describe('write stalls in the classroom', () => {
  it('the design carries the triggers, and the engine rejects a slow-down count above the stop count', () => {
    const c = teachConfig(4, 'tiering', 'monkey', 5, LIMITS);
    expect(c.write_stalls).toEqual({ level0_slowdown_writes_trigger: 2, level0_stop_writes_trigger: 4 });
    expect(teachConfig(4, 'tiering', 'monkey', 5).write_stalls).toBeUndefined();
    expect(() => validate_config(JSON.stringify(c))).not.toThrow();
    expect(() => validate_config(JSON.stringify(teachConfig(4, 'tiering', 'monkey', 5, { slowdown: 5, stop: 4 })))).toThrow(
      /write_stalls\.level0_slowdown_writes_trigger.*level0_stop_writes_trigger = 4/,
    );
  });

  it('level 1 slows writes at 2 files and stops them at 4; the next step waits for the merge, then writes go on', () => {
    const c = pacedClassroom();
    expect(c.now().stall).toMatchObject({ stall: 'none', paced: true, level0_files: 0 });
    let slowedAt: number | null = null;
    let stops = 0;
    for (let i = 0; i < 200 && stops < 3; i++) {
      const prev = c.now();
      const next = c.step();
      const s = next.stall as WriteStallState;
      const text = describeStep(prev, next).lines.join(' ');
      // The verdict follows level 1's files against the triggers.
      expect(s.stall).toBe(s.level0_files >= 4 ? 'stop' : s.level0_files >= 2 ? 'slowdown' : 'none');
      expect(s.level0_files).toBeLessThanOrEqual(4);
      if (s.stall === 'slowdown' && slowedAt === null) {
        slowedAt = s.level0_files;
        expect(text).toContain('Level 1 holds 2 files: writes slow down.');
        expect(stallHeadline(s, LIMITS).title).toBe('Writes slowed down');
        expect(stallHeadline(s, LIMITS).detail).toContain('up to 64 pages of merge work, not 16');
      }
      if (s.stall === 'stop') {
        // The step ended at the write that brought level 1 to the stop count.
        expect(text).toContain('Level 1 holds 4 files: writes stop until a merge brings it down.');
        expect(stallHeadline(s, LIMITS)).toEqual({
          title: 'Writes stopped',
          detail: 'Level 1 holds 4 files (slow down at 2, stop at 4). The next write waits until a merge brings level 1 under 4.',
        });
        // The next step: its first write stops, merges level 1 into level 2, and the step ends there.
        const stopsBefore = next.stats.stalls?.stops ?? 0;
        const after = c.step();
        const a = after.stall as WriteStallState;
        expect(after.inserted).toBe(next.inserted + 1);
        expect(after.stats.stalls?.stops).toBe(stopsBefore + 1);
        expect(a.stall).not.toBe('stop');
        expect(a.level0_files).toBeLessThan(4);
        const { lines, event } = describeStep(next, after);
        expect(event).toBe('stall');
        expect(lines.join(' ')).toMatch(/Writes were stopped: a write waited while the merge ran \(\d+ pages written this step\)\./);
        expect(lines.join(' ')).toContain(`Level 1 holds ${a.level0_files} file`);
        expect(lines.join(' ')).toContain('writes go on');
        expect(stallHeadline(a, LIMITS).title).not.toBe('Writes stopped');
        stops++;
      }
    }
    expect(slowedAt).toBe(2);
    expect(stops).toBe(3);
    const total = c.now().stats.stalls;
    expect(total?.stops).toBe(3);
    expect(total?.slowdowns).toBeGreaterThan(0);
    c.free();
  });

  it('a step ends where the verdict changes or a write stops or a flush waits, not at every slowed write', () => {
    const base = (over: Partial<WriteStallState>, stalls = { slowdowns: 0, stops: 0, flush_waits: 0, pages_merged: 0, stalled_ns: 0 }): EngineMoment => ({
      tree: { buffer_entries: 0, buffer_bytes: 0, buffer_capacity_bytes: 2048, levels: [], merging_level: null, merge_progress: null, cache_bytes: 0, mnemosyne_log_c: null },
      stats: { ops: [0, 0, 0, 0, 0, 0], levels: [], wal_bytes_written: 0, wal_syncs: 0, open: {} as Stats['open'], wal_records_replayed: 0, user_bytes_written: 0, stalls },
      inserted: 0,
      stall: stall(over),
    });
    const counters = (c: Partial<NonNullable<Stats['stalls']>>) => ({ slowdowns: 0, stops: 0, flush_waits: 0, pages_merged: 0, stalled_ns: 0, ...c });
    const slowed = base({ stall: 'slowdown', level0_files: 2 });
    expect(stallStepEnds(slowed, base({ stall: 'slowdown', level0_files: 3 }, counters({ slowdowns: 5 })))).toBe(false);
    expect(stallStepEnds(slowed, base({ stall: 'stop', level0_files: 4 }))).toBe(true);
    expect(stallStepEnds(slowed, base({ stall: 'slowdown', level0_files: 2 }, counters({ flush_waits: 1 })))).toBe(true);
    expect(stallStepEnds(base({ stall: 'stop', level0_files: 4 }), base({ stall: 'stop', level0_files: 4 }, counters({ stops: 1 })))).toBe(true);
    // Merges stepped by hand: no stall figures, so a step never ends early.
    expect(stallStepEnds({ ...slowed, stall: undefined }, { ...slowed, stall: undefined })).toBe(false);
    // Without paced merges nothing is told.
    expect(describeStall(base({ paced: false }), base({ paced: false, stall: 'stop', level0_files: 4 }))).toEqual([]);
  });

  it('a paced flush in progress is told as such, not as a merge of "level 0"', () => {
    const t = (merging: number | null): TreeShape => ({ buffer_entries: 64, buffer_bytes: 2048, buffer_capacity_bytes: 2048, levels: [], merging_level: merging, merge_progress: null, cache_bytes: 0, mnemosyne_log_c: null });
    expect(describeChange(t(null), t(0))).toEqual(['The buffer is full: it is written to level 1 a few pages per write, while new keys go into a fresh buffer.']);
    expect(describeChange(t(0), t(null)).join(' ')).not.toContain('Merge finished');
  });
});
