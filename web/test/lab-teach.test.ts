/**
 * The teaching view's pure parts, driven by the real engine (wasm) as the page drives it: the
 * classroom config, the keys, the merge rule mirrored from the engine, the narration and the
 * picture's layout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, validate_config, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import { BatchWriter } from '../src/engine/batch';
import { totalWrites, type Stats, type TreeShape } from '../src/documents/engine';
import {
  describeChange,
  describeStep,
  mergeNeeded,
  TEACH_BATCH,
  TEACH_KEY_BYTES,
  TEACH_MERGE_PAGES,
  TEACH_VALUE_BYTES,
  teachConfig,
  teachKey,
  teachValue,
} from '../src/pages/teaching/teach';
import { bitsColor, layoutTree } from '../src/ui/tree/treeLayout';

const root = path.resolve(__dirname, '../..');

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
});

/** The page's step, without React: insert a batch, or advance a needed merge. */
function classroom(sizeRatio: number, policy: 'leveling' | 'tiering') {
  const engine = new WasmEngine(JSON.stringify(teachConfig(sizeRatio, policy, 'monkey', 5)));
  engine.auto_compact = false;
  let inserted = 0;
  const tree = (): TreeShape => JSON.parse(engine.tree_json());
  const stats = (): Stats => JSON.parse(engine.stats_json());
  return {
    tree,
    stats,
    inserted: () => inserted,
    step(): 'insert' | 'merge' {
      if (mergeNeeded(tree(), sizeRatio)) {
        engine.step(TEACH_MERGE_PAGES);
        return 'merge';
      }
      const b = new BatchWriter();
      for (let i = 0; i < TEACH_BATCH; i++) b.put(teachKey(inserted + i), teachValue(inserted + i));
      engine.apply(b.finish());
      inserted += TEACH_BATCH;
      return 'insert';
    },
    free: () => engine.free(),
  };
}

describe('the classroom tree', () => {
  it('config and keys: tiny pages and buffer, fixed-size distinct keys', () => {
    for (const pol of ['leveling', 'tiering'] as const) expect(() => validate_config(JSON.stringify(teachConfig(3, pol, 'uniform', 5)))).not.toThrow();
    expect(teachConfig(3, 'tiering', 'monkey', 5).levels).toEqual([{ size_ratio: 3, max_runs: 2 }]);
    const keys = new Set(Array.from({ length: 5000 }, (_, i) => teachKey(i)));
    expect(keys.size).toBe(5000);
    for (const k of [...keys].slice(0, 50)) expect(k).toHaveLength(TEACH_KEY_BYTES);
    expect(teachValue(12345)).toHaveLength(TEACH_VALUE_BYTES);
  });

  it('steps: the buffer fills and flushes to level 1, then a merge (a few pages per step) moves data to level 2', () => {
    const c = classroom(3, 'leveling');
    const seen: string[] = [];
    let prev = c.tree();
    let sawMerge = false;
    for (let i = 0; i < 60 && !(c.tree().levels[1]?.runs.length ?? 0); i++) {
      const kind = c.step();
      const next = c.tree();
      seen.push(...describeChange(prev, next));
      if (next.merging_level !== null) sawMerge = true;
      if (kind === 'merge') expect(mergeNeeded(prev, 3)).toBe(true);
      prev = next;
    }
    const t = c.tree();
    expect(t.levels[1].runs.length).toBe(1);
    expect(t.levels[1].runs[0].entries).toBeGreaterThan(150);
    expect(sawMerge).toBe(true);
    expect(seen[0]).toBe('The buffer filled up and was flushed: its 64 entries became a new sorted run on level 1.');
    expect(seen.some((s) => s.startsWith('Level 1 must be merged (it is full)'))).toBe(true);
    expect(seen.some((s) => s.startsWith('Merge finished: level 2 now holds'))).toBe(true);
    c.free();
  });

  it('each step is narrated with the pages it read and wrote, and they add up to the engine’s counters', () => {
    const c = classroom(3, 'leveling');
    const moment = () => ({ tree: c.tree(), stats: c.stats(), inserted: c.inserted() });
    let prev = moment();
    let read = 0;
    let written = 0;
    const events = new Set<string>();
    for (let i = 0; i < 120; i++) {
      c.step();
      const next = moment();
      const { lines, event } = describeStep(prev, next);
      events.add(event);
      expect(lines.length).toBeGreaterThan(0);
      const m = /(\d+) pages? read and (\d+) pages? written this step/.exec(lines.join(' '));
      if (event === 'merge') {
        expect(m).not.toBeNull();
        read += Number(m?.[1]);
        written += Number(m?.[2]);
      }
      const f = /The flush wrote (\d+) pages?(?: and read (\d+) pages?)?/.exec(lines.join(' '));
      if (event === 'flush') {
        expect(f).not.toBeNull();
        written += Number(f?.[1]);
        read += Number(f?.[2] ?? 0);
      }
      if (event === 'insert') expect(lines.join(' ')).toContain('no page read or written');
      prev = next;
    }
    expect([...events].sort()).toEqual(['flush', 'insert', 'merge']);
    // Narrated pages = the engine's counters, plus the merge still under way.
    const w = totalWrites(prev.stats);
    const p = prev.tree.merge_progress;
    expect(written).toBe(w.data_pages_written + w.meta_pages_written + (p?.pages_written ?? 0));
    expect(read).toBe(w.pages_read + (p?.pages_read ?? 0));
    c.free();
  });

  it('the merge rule agrees with the engine: once nothing is needed, a step finds nothing to merge', () => {
    const c = classroom(3, 'tiering');
    for (let i = 0; i < 80; i++) {
      c.step();
      const t = c.tree();
      if (!mergeNeeded(t, 3)) {
        expect(t.merging_level).toBeNull();
        expect(t.levels.every((l) => l.runs.length <= l.max_runs)).toBe(true);
      }
    }
    c.free();
  });
});

describe('the picture', () => {
  it('lays out levels as tracks and runs in slots sized by bytes', () => {
    const c = classroom(3, 'tiering');
    for (let i = 0; i < 12; i++) c.step();
    const t = c.tree();
    const layout = layoutTree(t, { width: 800, labelWidth: 120, rowHeight: 40, rowGap: 10, top: 8, minLevels: 3, bufferBytes: t.buffer_capacity_bytes });
    expect(layout.levels).toHaveLength(3);
    expect(layout.levels[2].placeholder).toBe(true);
    const l1 = layout.levels[0];
    expect(l1.slots).toHaveLength(2);
    expect(l1.runs.length).toBe(t.levels[0].runs.length);
    for (const r of l1.runs) {
      expect(r.x).toBeGreaterThanOrEqual(120);
      expect(r.x + r.width).toBeLessThanOrEqual(120 + layout.trackWidth + 1e-9);
    }
    expect(layout.buffer.fill).toBeCloseTo(t.buffer_bytes / t.buffer_capacity_bytes, 12);
    expect(bitsColor(0)).toBe('rgb(231, 236, 242)');
    expect(bitsColor(100)).toBe('rgb(8, 48, 107)');
    c.free();
  });
});
