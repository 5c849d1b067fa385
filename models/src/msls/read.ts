/** MSLS read amplification (Theorem 4) with the reference's §3.7 heuristic windows and costs. */
import { fprFromBitsPerKey } from '../bloom';
import { finite, requireNumber, requireOneOf } from '../validate';
import { leveledCore } from './leveled';
import { mslsResolveLevelParams, type MslsLevelParams } from './params';
import { popularity } from './popularity';
import { weightedUniqueOf, type MslsQueryWeighting } from './primitives';

// ────────────────────────────────────────────────────────────────────────── read amplification

/** Options of the read-amplification heuristic. */
export interface MslsReadOptions {
  /** Queries follow the insert popularity ('popularity', default) or are uniform over the N keys. */
  queries?: MslsQueryWeighting;
  /** Bloom bits per key of every table; 0 (default, LevelDB's default) means no filter: a probe costs 1 I/O. */
  filterBitsPerKey?: number;
}

/** One place a point query can be answered. */
export interface MslsReadComponent {
  name: string;
  /** Age window [startAge, endAge) in inserts of the data this component holds. */
  startAge: number;
  endAge: number;
  /** Probability that a query is answered here: Unique(e, w) − Unique(s, w). */
  probability: number;
  /** I/Os of a query answered here, c(l). */
  cost: number;
}

/** Expected random I/Os per point query with its breakdown. */
export interface MslsReadAmplification {
  total: number;
  components: MslsReadComponent[];
}

/**
 * Read amplification (Theorem 4): RA = Σ_l [Unique(e(l), w) − Unique(s(l), w)]·c(l), w = query
 * probability. The paper gives no s, e or c; this is the reference's §3.7 HEURISTIC, with the
 * windows made contiguous so the probabilities sum to 1: memtable [0, wal/2), L0 [wal/2, c0·wal),
 * level l [Interval(l−1), Interval(l)), last level [Interval(L−1), ∞). Costs: memtable 0; the L0
 * tables span c0 − ½ tables of data, each probed table without the key costs the filter FPR φ
 * (φ = 1 without filters) and the table holding it 1: c(L0) = 1 + φ·(n0 − 1)/2, c(l) = 1 + φ·(n0 + l − 1).
 */
export function mslsReadAmplification(params: MslsLevelParams, options: MslsReadOptions = {}): MslsReadAmplification {
  const r = mslsResolveLevelParams(params);
  const pop = popularity(r.keySpace, r.distribution, r.grouping);
  const weighting = requireOneOf('queries', options.queries ?? 'popularity', ['uniform', 'popularity'] as const);
  const bits = requireNumber('filterBitsPerKey', options.filterBitsPerKey ?? 0, 0, 64);
  const phi = bits === 0 ? 1 : fprFromBitsPerKey(bits);
  const core = leveledCore(pop, r.walItems, r.level0Trigger, r.levelItems, r.tableSelection, false);
  const n0 = r.level0Trigger - 0.5;
  const windows: [string, number, number, number][] = [
    ['memtable', 0, r.walItems / 2, 0],
    ['L0', r.walItems / 2, core.intervals[0], 1 + (phi * Math.max(0, n0 - 1)) / 2],
  ];
  for (let l = 1; l <= r.levels; l++) {
    const end = l === r.levels ? Infinity : core.intervals[l];
    windows.push([`L${l}`, core.intervals[l - 1], end, 1 + phi * (n0 + l - 1)]);
  }
  const components = windows.map(([name, startAge, endAge, cost]) => ({
    name,
    startAge,
    endAge,
    probability: weightedUniqueOf(pop, endAge, weighting) - weightedUniqueOf(pop, startAge, weighting),
    cost,
  }));
  const total = components.reduce((a, c) => a + c.probability * c.cost, 0);
  return { total: finite('mslsReadAmplification', total), components };
}
