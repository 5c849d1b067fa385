import { describe, expect, it } from 'vitest';
import { recoveredLine, runStatus } from '../src/pages/lab/runStatus';
import type { RunState } from '../src/engine/protocol';

const run = (over: Partial<RunState>): RunState => ({
  label: 'Fill 2,000,000',
  planned: 2_100_000,
  acknowledged: 312_345,
  writes: 312_345,
  state: 'running',
  result: null,
  recovered: null,
  ...over,
});

describe('the database list’s last-run column', () => {
  it('says a run recorded as running that no tab holds was interrupted, with at least the mirrored count', () => {
    expect(runStatus({ run: run({}), lastRun: null, openElsewhere: false }, false)).toEqual({
      kind: 'interrupted',
      text: 'Interrupted during Fill 2,000,000 — at least 312,345 of 2,100,000 operations acknowledged; open it to recover',
    });
  });

  it('says running while this tab or another runs it', () => {
    expect(runStatus({ run: run({}), lastRun: null, openElsewhere: false }, true).kind).toBe('running');
    expect(runStatus({ run: run({}), lastRun: null, openElsewhere: true }, false)).toEqual({ kind: 'running', text: 'Fill 2,000,000: open in another tab' });
  });

  it('gives the database’s own figures and what recovery found once it was opened', () => {
    const recovered = { entries: 320_000, logRecords: 7_655, logBytesCut: 0, orphanTables: 3, orphanBytes: 3 * 1024 * 1024 };
    const s = runStatus({ run: run({ state: 'interrupted', acknowledged: 312_400, writes: 312_400, recovered }), lastRun: 'x', openElsewhere: false }, false);
    expect(s.kind).toBe('interrupted');
    expect(s.text).toBe(
      'Interrupted during Fill 2,000,000 — 312,400 of 2,100,000 operations acknowledged; 320,000 entries recovered, 7,655 log records replayed, 3 tables of a merge cut off before its commit deleted (3.00 MiB)',
    );
    expect(recoveredLine({ ...recovered, orphanTables: 0, logBytesCut: 40 })).toBe('320,000 entries recovered, 7,655 log records replayed, a torn log tail of 40 B cut (a write never acknowledged)');
  });

  it('a run of unknown length, a cancelled one, a finished one, and none', () => {
    expect(runStatus({ run: run({ planned: null, state: 'interrupted' }), lastRun: null, openElsewhere: false }, false).text).toBe(
      'Interrupted during Fill 2,000,000 — 312,345 operations acknowledged',
    );
    expect(runStatus({ run: run({ state: 'cancelled' }), lastRun: null, openElsewhere: false }, false).text).toBe(
      'Fill 2,000,000 (cancelled) — 312,345 of 2,100,000 operations acknowledged',
    );
    expect(runStatus({ run: run({ state: 'finished', result: '2,100,000 operations in 9.8 s' }), lastRun: null, openElsewhere: false }, false)).toEqual({
      kind: 'finished',
      text: 'Fill 2,000,000: 2,100,000 operations in 9.8 s',
    });
    expect(runStatus({ run: null, lastRun: 'old run', openElsewhere: false }, false)).toEqual({ kind: 'finished', text: 'old run' });
    expect(runStatus({ lastRun: null, openElsewhere: false }, false)).toEqual({ kind: 'none', text: '—' });
  });
});
