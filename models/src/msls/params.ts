/** MSLS design parameters: the shared workload fields, the leveled (LevelDB) fields, defaults and resolution to items. */
import { ModelInputError, requireNumber, requireOneOf } from '../validate';
import {
  validateDistribution,
  validateGrouping,
  validateKeySpace,
  type MslsDistribution,
  type MslsGrouping,
} from './popularity';

// ────────────────────────────────────────────────────────────────────────── parameters

/** How a level-l table is chosen for l → l+1 compaction. */
export type MslsTableSelection = 'round-robin' | 'no-density-gradient';

/** Parameters shared by every MSLS design model. */
export interface MslsWorkloadParams {
  /** N: distinct keys the workload can touch (after warm-up the last level holds all of them), integer in [2, 1e12]. */
  keySpace: number;
  /** Key popularity of inserts. Default uniform. */
  distribution?: MslsDistribution;
  /** Entry (item) size in bytes, converts byte thresholds to items; in (0, 1e9]. Default 1000 (the paper's 1 kB items). */
  entryBytes?: number;
  /** wal: log/memtable bytes (all inserts, duplicates included) that trigger a flush; ≥ entryBytes. Default 4 MiB. */
  writeBufferBytes?: number;
  /** Zipf compression; default exact ranks 1..1000 then groups of ratio 1.001 (≈1e-8 relative error). */
  grouping?: MslsGrouping;
}

/** LevelDB-style leveled compaction with partitioned (file-granular) round-robin table selection. */
export interface MslsLevelParams extends MslsWorkloadParams {
  /** c0: level-0 table count that triggers L0 → L1 compaction, integer in [1, 1000]. Default 4. */
  level0Trigger?: number;
  /** Size(1): level-1 compaction trigger in bytes, > 0. Default 10 MiB. */
  level1Bytes?: number;
  /** r: Size(l) = level1Bytes·r^(l−1) for l < L, in (1, 1e6]. Default 10. */
  growthFactor?: number;
  /**
   * L: number of standard levels (level 0 excluded), integer in [1, 64]. Default: the smallest L with
   * level1Bytes·r^(L−1) ≥ N·entryBytes. The last level always holds all N keys (Size(L) = N).
   */
  levels?: number;
  /**
   * Explicit Size(1..L−1) in bytes (overrides level1Bytes and growthFactor; L = length + 1). Each must
   * be > 0 and below (N − 1)·entryBytes. Feed back `mslsOptimizeLevelSizes(...).levelBytes` here.
   */
  levelBytes?: readonly number[];
  /**
   * 'round-robin' (LevelDB; the paper's model). 'no-density-gradient' replaces DInterval(l) by
   * Unique⁻¹(Size(l)) — the reference's unvalidated what-if proxy for RocksDB v4 largest-first
   * selection (§3.5); the paper itself has no model for it. Default 'round-robin'.
   */
  tableSelection?: MslsTableSelection;
  /**
   * Whether a flush writes every version the memtable holds. The paper's model flushes the
   * distinct keys (WA_flush = Unique(wal)/wal); LevelDB's flush (BuildTable) writes every version
   * and only its merges drop the older ones, so for LevelDB WA_flush = 1 (measured against
   * LevelDB 1.23 in interop/leveldb). Default false (the paper).
   */
  flushKeepsVersions?: boolean;
}

function requireFlag(field: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new ModelInputError(field, `must be true or false, got ${String(value)}`);
  return value;
}

/** `MslsLevelParams` with defaults applied and every threshold converted to items. */
export interface MslsResolvedLevelParams {
  keySpace: number;
  distribution: MslsDistribution;
  grouping: Required<MslsGrouping>;
  entryBytes: number;
  /** wal in items (requests per flush). */
  walItems: number;
  level0Trigger: number;
  /** L. */
  levels: number;
  /** Size(1..L) in items; the last is N. */
  levelItems: number[];
  tableSelection: MslsTableSelection;
  flushKeepsVersions: boolean;
}

/** LevelDB defaults (1 kB items as in the paper). */
export const MSLS_LEVELDB_DEFAULTS = {
  entryBytes: 1000,
  writeBufferBytes: 4 * 1024 * 1024,
  level0Trigger: 4,
  level1Bytes: 10 * 1024 * 1024,
  growthFactor: 10,
} as const;

/**
 * Apply defaults, validate every field (errors name the field and range) and convert to items.
 * Level count rule (reproduces the paper's Table 1): L is the first level whose nominal capacity
 * covers N; a nominal size within one item of N also counts as covering (DInterval needs Size < N − 1).
 */
export function mslsResolveLevelParams(params: MslsLevelParams): MslsResolvedLevelParams {
  if (typeof params !== 'object' || params === null) throw new ModelInputError('params', 'must be an object');
  const base = resolveWorkload(params);
  const n = base.keySpace;
  const level0Trigger = requireNumber('level0Trigger', params.level0Trigger ?? MSLS_LEVELDB_DEFAULTS.level0Trigger, 1, 1000, {
    integer: true,
  });
  const tableSelection = requireOneOf('tableSelection', params.tableSelection ?? 'round-robin', [
    'round-robin',
    'no-density-gradient',
  ] as const);
  const upper: number[] = [];
  const maxBytes = (n - 1) * base.entryBytes;
  if (params.levelBytes !== undefined) {
    if (!Array.isArray(params.levelBytes) || params.levelBytes.length > 63) {
      throw new ModelInputError('levelBytes', 'must be an array of at most 63 level sizes in bytes (levels 1..L−1)');
    }
    params.levelBytes.forEach((b, i) => {
      requireNumber(`levelBytes[${i}]`, b, 0, maxBytes, { exclusiveMin: true, exclusiveMax: true });
      upper.push(b / base.entryBytes);
    });
    if (params.levels !== undefined && params.levels !== upper.length + 1) {
      throw new ModelInputError('levels', `must equal levelBytes.length + 1 = ${upper.length + 1}, got ${String(params.levels)}`);
    }
  } else {
    const level1Bytes = requireNumber('level1Bytes', params.level1Bytes ?? MSLS_LEVELDB_DEFAULTS.level1Bytes, 0, 1e18, {
      exclusiveMin: true,
    });
    const r = requireNumber('growthFactor', params.growthFactor ?? MSLS_LEVELDB_DEFAULTS.growthFactor, 1, 1e6, {
      exclusiveMin: true,
    });
    const nominal = (l: number) => (level1Bytes * r ** (l - 1)) / base.entryBytes;
    if (params.levels === undefined) {
      while (nominal(upper.length + 1) < n - 1 && upper.length < 63) upper.push(nominal(upper.length + 1));
    } else {
      const levels = requireNumber('levels', params.levels, 1, 64, { integer: true });
      let fits = 1;
      while (fits < 64 && nominal(fits) < n - 1) fits += 1;
      if (levels > fits) {
        throw new ModelInputError(
          'levels',
          `must be an integer in [1, ${fits}]: with level1Bytes = ${level1Bytes} and growthFactor = ${r}, Size(${fits}) would reach the key space (N − 1 = ${n - 1} items), got ${levels}`,
        );
      }
      for (let l = 1; l < levels; l++) upper.push(nominal(l));
    }
  }
  return {
    ...base,
    level0Trigger,
    levels: upper.length + 1,
    levelItems: [...upper, n],
    tableSelection,
    flushKeepsVersions: requireFlag('flushKeepsVersions', params.flushKeepsVersions),
  };
}

export interface ResolvedWorkload {
  keySpace: number;
  distribution: MslsDistribution;
  grouping: Required<MslsGrouping>;
  entryBytes: number;
  walItems: number;
}

export function resolveWorkload(params: MslsWorkloadParams): ResolvedWorkload {
  const keySpace = validateKeySpace('keySpace', params.keySpace);
  const distribution = validateDistribution('distribution', params.distribution ?? { kind: 'uniform' });
  const grouping = validateGrouping('grouping', params.grouping);
  const entryBytes = requireNumber('entryBytes', params.entryBytes ?? MSLS_LEVELDB_DEFAULTS.entryBytes, 0, 1e9, {
    exclusiveMin: true,
  });
  // A buffer below one entry would flush fractional items: meaningless, so rejected.
  const writeBufferBytes = requireNumber(
    'writeBufferBytes',
    params.writeBufferBytes ?? MSLS_LEVELDB_DEFAULTS.writeBufferBytes,
    entryBytes,
    1e18,
  );
  return { keySpace, distribution, grouping, entryBytes, walItems: writeBufferBytes / entryBytes };
}
