/**
 * Seeded pseudo-randomness for everything that must come out the same on every run: property
 * tests, benchmarks, and the web pages' synthetic workloads (a seed in a link must always give the
 * same view). Not for anything that needs statistical quality beyond that.
 */

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): uniform numbers in [0, 1), the same sequence
 * for the same seed on every JavaScript engine (integer arithmetic only). Tests and links depend
 * on that exact sequence, so the constants here must never change.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fisher–Yates shuffle of `items` in place, drawing from `rand` from the last position down (one
 * draw per position), so a seeded `rand` always gives the same order.
 */
export function shuffleInPlace<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
