import { describe, expect, it } from 'vitest';
import { numberParam } from '../src/documents/url/params';
import { nudge, sliderScale } from '../src/ui/controls/slider';

const sizeRatio = numberParam({ key: 'T', label: 'size ratio', default: 10, min: 2, max: 100, integer: true, log: true });
const entryBytes = numberParam({ key: 'E', label: 'entry size', unit: 'B', default: 16, min: 1, max: 65_536, integer: true, log: true });
const bits = numberParam({ key: 'b', label: 'bits per key', default: 10, min: 0, max: 24, step: 0.5 });
const memory = numberParam({ key: 'm', label: 'memory', default: 1e6, min: 1e3, max: 1e12, log: true });

describe('slider keys', () => {
  it('an arrow on a log integer slider moves one whole value (the browser’s thousandth of the track rounds back)', () => {
    const s = sliderScale(sizeRatio);
    // The bug this fixes: one native step from 10 lands on 10 again.
    expect(s.fromPosition(s.toPosition(10) + 1)).toBe(10);
    expect(nudge(sizeRatio, 10, 'ArrowRight')).toBe(11);
    expect(nudge(sizeRatio, 10, 'ArrowUp')).toBe(11);
    expect(nudge(sizeRatio, 10, 'ArrowLeft')).toBe(9);
    expect(nudge(sizeRatio, 2, 'ArrowDown')).toBe(2);
    expect(nudge(sizeRatio, 100, 'ArrowUp')).toBe(100);
    expect(nudge(entryBytes, 16, 'ArrowRight')).toBe(17);
    expect(nudge(entryBytes, 1024, 'ArrowLeft')).toBe(1010);
  });

  it('arrows on a log real slider move to the next 3-digit value; Page keys about a tenth of the track', () => {
    const up = nudge(memory, 1e6, 'ArrowUp');
    expect(up).toBeGreaterThan(1e6);
    expect(up).toBeLessThan(1.05e6);
    expect(nudge(memory, 1e6, 'ArrowDown')).toBeLessThan(1e6);
    const page = nudge(memory, 1e6, 'PageUp');
    // A tenth of 9 decades: ×10^0.9 ≈ 7.94.
    expect(page / 1e6).toBeCloseTo(7.94, 1);
  });

  it('linear sliders move by their step; Home and End go to the ends; every key stays in range', () => {
    expect(nudge(bits, 10, 'ArrowRight')).toBe(10.5);
    expect(nudge(bits, 10, 'ArrowLeft')).toBe(9.5);
    expect(nudge(bits, 10, 'PageUp')).toBe(12.5);
    expect(nudge(bits, 0, 'ArrowLeft')).toBe(0);
    expect(nudge(bits, 10, 'Home')).toBe(0);
    expect(nudge(bits, 10, 'End')).toBe(24);
    for (const p of [sizeRatio, entryBytes, bits, memory]) {
      for (const key of ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown'] as const) {
        for (const v of [p.min, p.default, p.max]) {
          const n = nudge(p, v, key);
          expect(n).toBeGreaterThanOrEqual(p.min);
          expect(n).toBeLessThanOrEqual(p.max);
          if (v !== (key === 'ArrowUp' || key === 'PageUp' ? p.max : p.min)) expect(n).not.toBe(v);
        }
      }
    }
  });
});
