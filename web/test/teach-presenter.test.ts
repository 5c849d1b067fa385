/** The teaching view's presenter pieces: the collapsed step log and a merge drawn as it happens. */
import { describe, expect, it } from 'vitest';
import type { RunInfo, TreeShape } from '../src/documents/engine';
import { collapseLog, type StepEvent } from '../src/pages/teaching/teach';
import { layoutTree, mergeView } from '../src/ui/tree/treeLayout';

const step = (text: string, event: StepEvent = 'merge') => ({ lines: [text], event });

describe('collapseLog', () => {
  const merge = 'Merging level 1 into level 2: 4 pages read and 4 pages written this step.';
  const steps = [
    step('A new, empty tree.', 'start'),
    step('16 keys went into the buffer.', 'insert'),
    step(merge),
    step(merge),
    step(merge),
    step(merge),
    step('Merge finished: level 2 now holds 192 entries.'),
  ];

  it('tells a run of identical steps once, with its count and its first and last step, newest first', () => {
    const log = collapseLog(steps, 6);
    expect(log.map((l) => [l.first, l.last, l.count])).toEqual([
      [6, 6, 1],
      [2, 5, 4],
      [1, 1, 1],
      [0, 0, 1],
    ]);
    expect(log[1].text).toBe(merge);
  });

  it('reads only the steps up to the one on screen, and keeps at most `max` lines', () => {
    expect(collapseLog(steps, 3).map((l) => [l.first, l.last, l.count])).toEqual([
      [2, 3, 2],
      [1, 1, 1],
      [0, 0, 1],
    ]);
    expect(collapseLog(steps, 6, 2).map((l) => l.count)).toEqual([1, 4]);
    // Identical text that is not consecutive stays on two lines.
    const apart = [step('x'), step('y'), step('x')];
    expect(collapseLog(apart, 2).map((l) => l.count)).toEqual([1, 1, 1]);
  });
});

const run = (id: number, entries: number, pages: number): RunInfo => ({
  id,
  entries,
  entry_bytes: entries * 32,
  file_bytes: entries * 32,
  data_pages: pages,
  filter_bits: entries * 10,
  bits_per_key: 10,
  filter_fpr: 0.008,
  filter_rebuild_pages: 0,
  tables: [],
});

function tree(progress: { pages_read: number; pages_written: number } | null): TreeShape {
  return {
    buffer_entries: 0,
    buffer_bytes: 0,
    buffer_capacity_bytes: 2048,
    levels: [
      { level: 1, capacity_bytes: 6144, max_runs: 1, runs: [run(7, 192, 24)] },
      { level: 2, capacity_bytes: 18432, max_runs: 1, runs: [run(3, 96, 12)] },
    ],
    merging_level: progress ? 1 : null,
    merge_progress: progress,
    cache_bytes: 0,
    mnemosyne_log_c: null,
  };
}

const options = { width: 800, labelWidth: 150, rowHeight: 50, rowGap: 16, top: 8, bufferBytes: 2048 };

describe('mergeView', () => {
  it('is absent without a merge under way', () => {
    expect(mergeView(tree(null), layoutTree(tree(null), options))).toBeNull();
  });

  it('moves a cursor through every input and grows the output with the pages merged, at every step', () => {
    // Leveling: level 1's run and level 2's run are both read (24 + 12 = 36 input pages).
    const widths: number[] = [];
    const cursors: number[] = [];
    for (let pages = 4; pages <= 36; pages += 4) {
      // The engine counts the new file's pages written only when it is finished: 0 until then.
      const t = tree({ pages_read: pages, pages_written: 0 });
      const layout = layoutTree(t, options);
      const view = mergeView(t, layout);
      expect(view).not.toBeNull();
      if (!view) return;
      expect(view.inputPages).toBe(36);
      expect(view.readFraction).toBeCloseTo(pages / 36, 12);
      expect(view.consumed.map((c) => c.level)).toEqual([1, 2]);
      const l1 = layout.levels[0].runs[0];
      expect(view.consumed[0].width).toBeCloseTo((l1.width * pages) / 36, 9);
      widths.push(view.output.width);
      cursors.push(view.consumed[0].x + view.consumed[0].width);
    }
    // Every step of 4 pages visibly moves both (≥ 3 px here).
    for (let i = 1; i < widths.length; i++) {
      expect(widths[i] - widths[i - 1]).toBeGreaterThan(3);
      expect(cursors[i] - cursors[i - 1]).toBeGreaterThan(3);
    }
  });
});
