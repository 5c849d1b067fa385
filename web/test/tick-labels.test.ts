import { describe, expect, it } from 'vitest';
import { thinHorizontal, thinLabels } from '../src/ui/charts/tickLabels';

describe('tick label thinning', () => {
  it('keeps every label when they fit, every k-th when they would touch', () => {
    const at = (step: number, n: number, size: number) => Array.from({ length: n }, (_, i) => ({ centre: i * step, size }));
    expect(thinLabels(at(60, 6, 40))).toEqual([true, true, true, true, true, true]);
    // 40 px labels 20 px apart: every other one still touches (40 < 40 + 6), every third fits.
    expect(thinLabels(at(20, 7, 40))).toEqual([true, false, false, true, false, false, true]);
    expect(thinLabels(at(25, 5, 40))).toEqual([true, false, true, false, true]);
  });
  it('drops labels, never ticks, and only labelled ones count', () => {
    const ticks = [1, 2, 3, 4, 5].map((v) => ({ value: v, label: v === 3 ? '' : `${v}00 MiB` }));
    const thinned = thinHorizontal(ticks, (v) => v * 20, 12);
    expect(thinned.map((t) => t.value)).toEqual([1, 2, 3, 4, 5]);
    const shown = thinned.filter((t) => t.label !== '');
    for (let i = 1; i < shown.length; i++) expect((shown[i].value - shown[i - 1].value) * 20).toBeGreaterThanOrEqual(7 * 12 * 0.62 + 6);
    expect(shown[0].value).toBe(1);
  });
});
