import { describe, expect, it } from 'vitest';
import { mulberry32, shuffleInPlace } from '../src/random';

// Property tests, the Mnemosyne benchmark and the memory page's seeded hot ranges all depend on
// these exact sequences: a change here would silently change what they test and show.
describe('seeded randomness', () => {
  it('mulberry32 gives the same sequence for the same seed', () => {
    const r = mulberry32(42);
    expect([r(), r(), r()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    expect(mulberry32(0)()).toBe(0.26642920868471265);
  });

  it('shuffleInPlace is a seeded Fisher–Yates permutation of its input, in place', () => {
    const items = [0, 1, 2, 3, 4, 5, 6, 7];
    expect(shuffleInPlace(items, mulberry32(7))).toBe(items);
    expect(items).toEqual([4, 6, 1, 2, 3, 5, 7, 0]);
  });
});
