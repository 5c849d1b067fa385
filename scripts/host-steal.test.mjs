/**
 * scripts/host-steal.mjs: reading `/proc/stat`'s steal column and summarising samples of it.
 * Run by `npm test` (lint suite): `node --test scripts/host-steal.test.mjs`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSteal, summarise } from './host-steal.mjs';

const MS = 1e6;

test('the steal column is the eighth of each core line; none without it', () => {
  const stat = 'cpu  9 9 9 9 9 9 9 9 0 0\ncpu0 1 2 3 4 5 6 7 42 0 0\ncpu1 1 2 3 4 5 6 7 8 0 0\nintr 1\n';
  assert.deepEqual(readSteal(stat), [42, 8]);
  assert.equal(readSteal('cpu  1 2 3 4\ncpu0 1 2 3 4\n'), null);
  assert.equal(readSteal('intr 1\n'), null);
});

test('steal is summed over cores, and the longest is one core within 100 ms', () => {
  // Core 0 loses 3 ticks at 200 ms and 2 more at 260 ms; core 1 loses 1 tick at 1 s.
  const samples = [
    [0, [10, 20]],
    [200 * MS, [13, 20]],
    [260 * MS, [15, 20]],
    [1000 * MS, [15, 21]],
    [2000 * MS, [15, 21]],
  ];
  const s = summarise(samples);
  assert.equal(s.totalMs, 60);
  assert.equal(s.longestMs, 50, 'core 0: 5 ticks within 60 ms');
  // An insert from 240 to 250 ms: the counter moves at ticks, so a tick either side is counted
  // (the 2 ticks that show at 260 ms, not the 3 at 200 ms).
  assert.equal(s.within(240 * MS, 250 * MS), 20);
  assert.equal(s.within(150 * MS, 300 * MS), 50);
  // Core 1's tick is the most either core lost around 1 s.
  assert.equal(s.within(995 * MS, 996 * MS), 10);
  assert.equal(s.within(500 * MS, 600 * MS), 0);
});

test('too few samples say nothing was stolen', () => {
  const s = summarise([[0, [1, 1]]]);
  assert.deepEqual([s.totalMs, s.longestMs, s.within(0, 1)], [0, 0, 0]);
});
