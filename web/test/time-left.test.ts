import { describe, expect, it } from 'vitest';
import { formatTimeLeft, MAX_RISE, paceEstimate, TimeLeft } from '../src/ui/task/timeLeft';

describe('the smoothed time left', () => {
  it('never rises by more than half of the lowest shown, whatever the raw estimates do', () => {
    const t = new TimeLeft();
    // A preload at one speed, then a run three times slower: the raw estimate jumps 17 → 40 s.
    const raw = [20, 19, 18, 17, 40, 39, 38, 36, 34, 30, 25, 20, 10, 5, 1, 0.2];
    const shown = raw.map((r, i) => t.update(r, i * 500)!);
    let lowest = Infinity;
    for (const s of shown) {
      expect(s).toBeLessThanOrEqual(lowest * MAX_RISE + 1e-9);
      lowest = Math.min(lowest, s);
    }
    expect(Math.max(...shown.slice(4))).toBeLessThanOrEqual(Math.min(...shown.slice(0, 4)) * 1.5);
    expect(Math.max(...shown.slice(4))).toBeLessThan(40);
    // It still follows the estimate down.
    expect(shown.at(-1)!).toBeLessThan(3);
  });
  it('follows a steady estimate, and counts down without a new one', () => {
    const t = new TimeLeft();
    expect(t.update(null, 0)).toBeNull();
    expect(t.update(10, 0)).toBe(10);
    expect(t.update(null, 4000)).toBe(6);
    expect(t.update(null, 20_000)).toBe(0);
  });
  it('estimates from the pace so far and formats', () => {
    expect(paceEstimate(10, 0.25)).toBe(30);
    expect(paceEstimate(10, 0)).toBeNull();
    expect(formatTimeLeft(null)).toBe('—');
    expect(formatTimeLeft(0.4)).toBe('< 1 s');
    expect(formatTimeLeft(42.4)).toBe('42 s');
    expect(formatTimeLeft(185)).toBe('3 min 5 s');
    expect(formatTimeLeft(179.6)).toBe('3 min 0 s');
  });
});
