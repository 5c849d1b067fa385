/**
 * Expected accesses by popularity rank under a key distribution: what a trace's rank–frequency
 * plot is held against. Pure.
 */

/** Σ_{r=1}^{n} r^{−θ}: Zipf's normaliser over `keys` ranks (summed exactly; a trace has at most millions). */
export function zipfNormaliser(keys: number, theta: number): number {
  let h = 0;
  for (let r = keys; r >= 1; r--) h += r ** -theta;
  return h;
}

/**
 * Accesses expected at each rank among `accesses` picks of `keys` keys: Zipf(θ) when `theta` is a
 * number, every key alike when it is null (uniform).
 */
export function expectedAccesses(ranks: readonly number[], accesses: number, keys: number, theta: number | null): number[] {
  if (keys < 1) return ranks.map(() => 0);
  if (theta === null) return ranks.map(() => accesses / keys);
  const h = zipfNormaliser(keys, theta);
  return ranks.map((r) => (accesses * r ** -theta) / h);
}
