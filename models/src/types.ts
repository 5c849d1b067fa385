/**
 * The plain objects every model takes. Units: memory in bytes, filter memory also as bits per
 * entry, costs in page I/Os, fractions in [0, 1].
 */

/** The data: how many entries, how big each is, how big a page is. */
export interface Dataset {
  /** Total entries N (physical entries, updates and tombstones included). */
  entries: number;
  /** Average entry size E (key + value), bytes. */
  entryBytes: number;
  /** Page (block) size, bytes; entries per page B = floor(pageBytes / entryBytes). */
  pageBytes: number;
}

export type Policy = 'leveling' | 'tiering';
export type FilterAllocation = 'monkey' | 'uniform';

/** A design in Monkey's space: merge policy, one size ratio, buffer and filter memory. */
export interface Design {
  policy: Policy;
  /** Size ratio T between adjacent levels, 2 ≤ T ≤ T_lim. */
  sizeRatio: number;
  /** Write buffer M_buf, bytes. */
  bufferBytes: number;
  /** Filter memory as bits per entry, M_filt / N. */
  filterBitsPerEntry: number;
  /** How filter memory is spread over the levels. */
  allocation: FilterAllocation;
}

/** The operation mix. pointLookups + rangeLookups + updates = 1. */
export interface Workload {
  /** Fraction of operations that are point lookups (z). */
  pointLookups: number;
  /** Fraction of point lookups that find their key (non-zero-result); the rest find nothing. */
  nonZeroFraction: number;
  /** Fraction of operations that are range lookups (q). */
  rangeLookups: number;
  /** Fraction of operations that are inserts/updates/deletes (w). */
  updates: number;
  /** Average fraction of all entries a range lookup returns (s). */
  rangeSelectivity: number;
}

/** The storage device. */
export interface Hardware {
  /** Cost of a write I/O divided by a read I/O (φ): 1 for disk, > 1 for flash. */
  writeReadCostRatio: number;
  /** Seconds to read one page (Ω). */
  pageReadSeconds: number;
}
