/**
 * The operation mix as pages show it, four shares in percent of all operations, and its
 * translation to the models' Workload, with the one rule the controls cannot check one by one:
 * the shares must add up to 100%.
 */
import type { Workload } from '@lsm/models';

export interface MixPercents {
  /** Point lookups for keys that do not exist, % of operations. */
  zeroResult: number;
  /** Point lookups that find their key, %. */
  nonZeroResult: number;
  /** Range lookups, %. */
  range: number;
  /** Inserts, updates and deletes, %. */
  update: number;
}

/** Shares may be typed with decimals (Moose's workload J is 33.3/33.3/33.4); a sum within this of 100 counts as 100. */
const TOLERANCE = 1e-9;

/** The four shares of a page state that holds them (and more). */
export function mixOf(s: MixPercents): MixPercents {
  return { zeroResult: s.zeroResult, nonZeroResult: s.nonZeroResult, range: s.range, update: s.update };
}

export function mixTotal(m: MixPercents): number {
  return m.zeroResult + m.nonZeroResult + m.range + m.update;
}

/** Why the mix cannot be used, in the words of the controls; null when it adds up to 100%. */
export function mixProblem(m: MixPercents): string | null {
  const total = mixTotal(m);
  if (Math.abs(total - 100) <= TOLERANCE) return null;
  const shown = Number(total.toPrecision(6));
  return `The operation mix adds up to ${shown}%, not 100%: ${total > 100 ? 'lower' : 'raise'} one of the four shares by ${Number(Math.abs(100 - total).toPrecision(6))} points.`;
}

/** The models' Workload for a valid mix (fractions; v from the two lookup shares). */
export function workloadOf(m: MixPercents, rangeSelectivity: number): Workload {
  const point = m.zeroResult + m.nonZeroResult;
  return {
    pointLookups: point / 100,
    nonZeroFraction: point === 0 ? 0 : m.nonZeroResult / point,
    rangeLookups: m.range / 100,
    updates: m.update / 100,
    rangeSelectivity,
  };
}
