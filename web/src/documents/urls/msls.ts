/**
 * The MSLS page's controls, as they appear in its URL
 * (`#/msls?v=1&N=100000000&E=1000&d=u&th=0.99&buf=4&c0=4&l1=10&r=10&L=0&x=buf`).
 */
import type { MslsLevelParams } from '@lsm/models';
import { defineUrlState } from '../url/codec';
import { enumParam, numberParam, type StateOf } from '../url/params';
import { writeBufferParam } from '../params/lsm';

const MIB = 1024 * 1024;

export const mslsParams = {
  keys: numberParam({
    key: 'N',
    label: 'keys',
    symbol: 'N',
    default: 100_000_000,
    min: 1000,
    max: 100_000_000_000,
    integer: true,
    log: true,
    help: 'Distinct keys the inserts can touch; after warm-up the last level holds all of them.',
  }),
  entryBytes: numberParam({
    key: 'E',
    label: 'entry size',
    unit: 'B',
    default: 1000,
    min: 8,
    max: 1_000_000,
    integer: true,
    log: true,
    help: 'Key + value bytes of one item; converts every size below to items.',
  }),
  dist: enumParam({
    key: 'd',
    label: 'key distribution',
    default: 'u',
    options: [
      { value: 'u', label: 'Uniform', help: 'Every key equally likely' },
      { value: 'z', label: 'Zipf', help: 'Rank i drawn with probability ∝ i^−θ' },
    ],
  }),
  theta: numberParam({
    key: 'th',
    label: 'Zipf skew',
    symbol: 'θ',
    default: 0.99,
    min: 0,
    max: 2,
    step: 0.01,
    help: 'Used by Zipf and by every chart’s Zipf curve; 0.99 is YCSB’s default.',
  }),
  bufferMiB: writeBufferParam({ symbol: 'wal', default: 4, min: 0.01, max: 65_536, help: 'Log bytes (duplicates included) that trigger a memtable flush.' }),
  l0: numberParam({
    key: 'c0',
    label: 'level-0 trigger',
    symbol: 'c0',
    unit: 'tables',
    default: 4,
    min: 1,
    max: 64,
    integer: true,
    help: 'Level-0 tables that trigger an L0 → L1 compaction.',
  }),
  level1MiB: numberParam({
    key: 'l1',
    label: 'level-1 size',
    symbol: 'Size(1)',
    unit: 'MiB',
    default: 10,
    min: 0.01,
    max: 10_000_000,
    log: true,
    help: 'Level 1 compacts into level 2 beyond this size.',
  }),
  growth: numberParam({
    key: 'r',
    label: 'growth factor',
    symbol: 'r',
    default: 10,
    min: 1.5,
    max: 1000,
    log: true,
    help: 'Size(l) = Size(1)·r^(l−1) for l < L; the last level holds all N keys.',
  }),
  levels: numberParam({
    key: 'L',
    label: 'levels',
    symbol: 'L',
    default: 0,
    min: 0,
    max: 30,
    integer: true,
    help: '0 = automatic: the first level whose size covers N is the last.',
  }),
  sweepAxis: enumParam({
    key: 'x',
    label: 'vary',
    default: 'buf',
    options: [
      { value: 'buf', label: 'Write buffer' },
      { value: 'l1', label: 'Level-1 size' },
      { value: 'r', label: 'Growth factor' },
    ],
  }),
};

export type MslsState = StateOf<typeof mslsParams>;

const LEVELDB = { entryBytes: 1000, bufferMiB: 4, l0: 4, level1MiB: 10, growth: 10, levels: 0 } as const;

export const mslsUrl = defineUrlState({
  page: 'msls',
  version: 1,
  params: mslsParams,
  presets: [
    {
      id: 'leveldb',
      label: 'LevelDB defaults (paper)',
      description: '10⁸ keys of 1000 B, uniform; 4 MiB buffer, c0 = 4, 10 MiB level 1, r = 10 (MSLS Table 1).',
      values: { keys: 100_000_000, dist: 'u', ...LEVELDB },
    },
    {
      id: 'leveldb-zipf',
      label: 'LevelDB, Zipf 0.99 (paper)',
      description: 'The same tree under YCSB’s Zipf(0.99) keys.',
      values: { keys: 100_000_000, dist: 'z', theta: 0.99, ...LEVELDB },
    },
    {
      id: 'rocksdb',
      label: 'RocksDB-like',
      description:
        '64 MiB write buffer, 4 L0 files, 256 MiB max_bytes_for_level_base, multiplier 10 (modelled with LevelDB’s round-robin file choice).',
      values: { bufferMiB: 64, l0: 4, level1MiB: 256, growth: 10, levels: 0 },
    },
    {
      id: 'browser',
      label: 'Small browser-scale tree',
      description: '10⁶ keys of 116 B (16 B key + 100 B value), 1 MiB buffer, c0 = 4, 10 MiB level 1, r = 10: what the in-browser engine runs.',
      values: { keys: 1_000_000, entryBytes: 116, bufferMiB: 1, l0: 4, level1MiB: 10, growth: 10, levels: 0 },
    },
  ],
});

/** The model's parameters (bytes at the API) for a page state. */
export function levelParams(s: MslsState): MslsLevelParams {
  return {
    keySpace: s.keys,
    distribution: s.dist === 'z' ? { kind: 'zipf', theta: s.theta } : { kind: 'uniform' },
    entryBytes: s.entryBytes,
    writeBufferBytes: s.bufferMiB * MIB,
    level0Trigger: s.l0,
    level1Bytes: s.level1MiB * MIB,
    growthFactor: s.growth,
    ...(s.levels > 0 ? { levels: s.levels } : {}),
  };
}

/** Which control a model error is about (the model names its fields; see MslsLevelParams). */
const FIELD_TO_CONTROL: Record<string, keyof MslsState> = {
  keySpace: 'keys',
  entryBytes: 'entryBytes',
  'distribution.theta': 'theta',
  writeBufferBytes: 'bufferMiB',
  level0Trigger: 'l0',
  level1Bytes: 'level1MiB',
  growthFactor: 'growth',
  levels: 'levels',
};

/** The control a model error message (`field: must be …`) belongs to, if any. */
export function controlOfError(message: string | null): keyof MslsState | null {
  if (!message) return null;
  const field = message.slice(0, Math.max(0, message.indexOf(':')));
  return FIELD_TO_CONTROL[field] ?? null;
}
