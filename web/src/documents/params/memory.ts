/**
 * The shapes the Memory-pressure page builds its stores from: the synthetic leveled tree of equal
 * files behind the Mnemosyne section, and SHaMBa's SST (Table 5). The sweeps compute on them and
 * documents/designs/memory.ts turns them into EngineConfigs, so they live below both.
 */
import { shambaSstMetadata } from '@lsm/models';

export type FoundAt = 'size' | 'hot';

export interface MnemosyneTreeInput {
  /** T: files (and entries) per level grow by this factor. */
  sizeRatio: number;
  levels: number;
  filesInFirstLevel: number;
  entriesPerFile: number;
  /** Zipf θ over the deepest level's key ranges. */
  skew: number;
  /** Z: share of lookups whose key exists nowhere. */
  emptyFraction: number;
  /** Where existing keys live: in proportion to level size, or all in `hotLevel`. */
  foundAt: FoundAt;
  hotLevel: number;
  seed: number;
}

/** Files per level of the synthetic tree: f₁·T^(j−1). */
export function levelFileCounts(t: Pick<MnemosyneTreeInput, 'sizeRatio' | 'levels' | 'filesInFirstLevel'>): number[] {
  return Array.from({ length: t.levels }, (_, j) => t.filesInFirstLevel * Math.pow(t.sizeRatio, j));
}

/** One SST as in SHaMBa Table 5: 64 B entries, 32 B keys, 64 entries per 4 KiB block, 1024 blocks. */
export const SST = { entryBytes: 64, keyBytes: 32, entriesPerBlock: 64, dataBlocks: 1024, pageBytes: 4096 } as const;
export const SST_ENTRIES = SST.entriesPerBlock * SST.dataBlocks;

/** Index and filter bytes of one SST at `bitsPerKey` (§B.3.6). */
export function sstSizes(bitsPerKey: number) {
  const m = shambaSstMetadata({ dataBlocks: SST.dataBlocks, keyBytes: SST.keyBytes, entryBytes: SST.entryBytes, pageBytes: SST.pageBytes, bitsPerKey });
  return { indexBytes: m.indexBytes, filterBytes: m.filterBytes, dataBytes: SST.dataBlocks * SST.pageBytes };
}
