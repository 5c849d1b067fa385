/**
 * The wasm engine's record of a run on journaled storage (the IndexedDB backend's): a run cut off
 * after some steps reopens as interrupted, with exactly the steps' operations acknowledged and
 * their writes recovered; an ended run reopens as ended. The files are kept as the worker keeps
 * them, by applying each call's journal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, WasmEngine } from '../src/wasm/pkg/lsm_engine.js';
import { defaultsOf } from '../src/documents/url/params';
import { labParams } from '../src/documents/urls/lab';
import { stateToConfig, stateToWorkload } from '../src/documents/urls/labDocuments';
import type { Recovery, RunRecord, TreeShape } from '../src/documents/engine';

const root = path.resolve(__dirname, '../..');

beforeAll(() => {
  initSync({ module: fs.readFileSync(path.join(root, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
});

type Change = { op: 'append'; file: string; bytes: Uint8Array } | { op: 'truncate'; file: string; len: number } | { op: 'delete'; file: string };

/** What IndexedDB would hold: every journal applied in order. */
function persist(files: Map<string, Uint8Array>, engine: WasmEngine): void {
  for (const c of engine.take_journal() as Change[]) {
    if (c.op === 'append') {
      const old = files.get(c.file) ?? new Uint8Array();
      const next = new Uint8Array(old.length + c.bytes.length);
      next.set(old);
      next.set(c.bytes, old.length);
      files.set(c.file, next);
    } else if (c.op === 'truncate') files.set(c.file, (files.get(c.file) ?? new Uint8Array()).slice(0, c.len));
    else files.delete(c.file);
  }
}

const reopen = (files: Map<string, Uint8Array>) => WasmEngine.open_journaled([...files.keys()], [...files.values()], undefined);

describe('a run recorded in the database', () => {
  const state = { ...defaultsOf(labParams), preload: 20_000, operations: 1_000, bufferKiB: 16, sizeRatios: [3] };
  const config = stateToConfig(state);
  const workload = stateToWorkload(state);

  it('cut off after three steps: interrupted, the steps acknowledged, their writes recovered', () => {
    const files = new Map<string, Uint8Array>();
    const engine = WasmEngine.open_journaled([], [], JSON.stringify(config));
    persist(files, engine);
    engine.start_workload(JSON.stringify(workload));
    engine.begin_run('fill 20,000');
    persist(files, engine);
    for (let i = 0; i < 3; i++) {
      engine.run_steps(3_001);
      persist(files, engine);
    }
    // Writes done after the last persisted step are lost with the page.
    engine.run_steps(500);
    engine.free();

    const back = reopen(files);
    const r = JSON.parse(back.recovery_json()) as Recovery;
    const run = r.run as RunRecord;
    expect(run.end).toBeNull();
    expect(run.start).toEqual({ label: 'fill 20,000', planned_operations: 21_000, planned_writes: null });
    expect(run.acknowledged).toEqual({ operations: 9_003, writes: 9_003 });
    const tree = JSON.parse(back.tree_json()) as TreeShape;
    const entries = tree.buffer_entries + tree.levels.flatMap((l) => l.runs).reduce((n, x) => n + x.entries, 0);
    expect(r.entries).toBe(entries);
    expect(r.entries).toBe(9_003); // distinct preload keys: exactly the acknowledged writes
    expect(r.log_records_replayed).toBe(tree.buffer_entries);
    expect(r.existed).toBe(true);
    expect(JSON.parse(back.last_run_json())).toEqual(run);
    back.free();
  });

  it('ended: reopens as finished with its result, and a new run replaces the record', () => {
    const files = new Map<string, Uint8Array>();
    const engine = WasmEngine.open_journaled([], [], JSON.stringify(config));
    engine.start_workload(JSON.stringify({ ...workload, preload: { ...workload.preload, entries: 2_000 }, operations: 100 }));
    engine.begin_run('small');
    let p = { phase: '' };
    while (p.phase !== 'done') p = JSON.parse(engine.run_steps(1_000));
    engine.end_run(false, '2,100 operations in 0.1 s');
    persist(files, engine);
    engine.free();
    const back = reopen(files);
    const run = (JSON.parse(back.recovery_json()) as Recovery).run as RunRecord;
    expect(run.end).toEqual({ outcome: 'finished', acknowledged: run.acknowledged, result: '2,100 operations in 0.1 s' });
    expect(run.acknowledged.operations).toBe(2_100);
    expect(() => back.end_run(false, 'x')).toThrow(/no run is being recorded/);
    back.free();
  });
});
