/** The Learn page's controls, as they appear in its URL (`#/learn?v=1&b=10&T=10&pol=lev&N=1e8&buf=64`). */
import { defineUrlState } from '../url/codec';
import { numberParam } from '../url/params';
import { entriesParam, mergePolicyParam, writeBufferParam } from '../params/lsm';

/** Fixed for the page, stated in the text: a typical small key-value pair and a 4 KiB page. */
export const ENTRY_BYTES = 128;
export const KEY_BYTES = 16;
export const PAGE_BYTES = 4096;
export const ENTRIES_PER_PAGE = PAGE_BYTES / ENTRY_BYTES;
export const MIB = 1024 * 1024;

export const learnParams = {
  bits: numberParam({
    key: 'b',
    label: 'bits per key',
    symbol: 'b',
    unit: 'bits/key',
    default: 10,
    min: 0,
    max: 24,
    step: 0.5,
    help: 'Bloom filter memory per entry.',
  }),
  sizeRatio: numberParam({
    key: 'T',
    label: 'size ratio',
    symbol: 'T',
    default: 10,
    min: 2,
    max: 100,
    integer: true,
    log: true,
    help: 'How much larger each level is than the one above.',
  }),
  policy: mergePolicyParam,
  entries: entriesParam({ default: 100_000_000, min: 100_000, max: 100_000_000_000, help: `Total key-value pairs, ${ENTRY_BYTES} bytes each.` }),
  bufferMiB: writeBufferParam({ symbol: 'M_buf', default: 64, min: 1, max: 4096, help: 'Memory for the in-memory buffer (memtable).' }),
};

export const learnUrl = defineUrlState({
  page: 'learn',
  version: 1,
  params: learnParams,
  presets: [
    {
      id: 'rocksdb',
      label: 'RocksDB-like defaults',
      description: 'Leveling, T = 10, 10 bits per key, 64 MiB write buffer.',
      values: { policy: 'lev', sizeRatio: 10, bits: 10, bufferMiB: 64 },
    },
    {
      id: 'tiered',
      label: 'Size-tiered (write-optimised)',
      description: 'Tiering with T = 4, as in Cassandra’s size-tiered compaction.',
      values: { policy: 'tier', sizeRatio: 4, bits: 10, bufferMiB: 64 },
    },
    {
      id: 'scarce',
      label: 'Scarce memory',
      description: 'Only 2 bits per key for filters: where Monkey helps most.',
      values: { policy: 'lev', sizeRatio: 10, bits: 2, bufferMiB: 64 },
    },
    {
      id: 'classroom',
      label: 'Small classroom tree',
      description: 'One million entries, 1 MiB buffer, T = 4: a tree small enough to draw.',
      values: { policy: 'lev', sizeRatio: 4, bits: 10, entries: 1_000_000, bufferMiB: 1 },
    },
  ],
});
