/**
 * Controls shared by the two Monkey pages ("Monkey vs state of the art" and "Trade-off curves"):
 * the data set and the memory of a design, with the same URL keys on both, so a design chosen on
 * one page opens on the other.
 */
import type { Policy } from '@lsm/models';
import { numberParam } from '../url/params';
import { entriesParam, entryBytesParam, pageBytesParam, writeBufferParam } from './lsm';

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/** Monkey Fig 7's data set: 2^35 entries of 16 bytes (512 GiB), T = 4, a 2 MiB buffer. */
export const FIG7 = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096, sizeRatio: 4, bufferMiB: 2 } as const;

export const datasetParams = {
  entries: entriesParam({ default: FIG7.entries, min: 1000, max: 1e13, help: 'Total key-value entries in the tree.' }),
  entryBytes: entryBytesParam(FIG7.entryBytes, 'Key plus value.'),
  pageBytes: pageBytesParam(FIG7.pageBytes, 'One disk page (block); B = page ÷ entry size entries.'),
};

export const bufferParam = writeBufferParam({
  symbol: 'M_buf',
  default: FIG7.bufferMiB,
  min: 0.0001,
  max: 1048576,
  help: 'Memory for the in-memory buffer (level 0).',
});

export function filterBitsParam(max: number, defaultBits: number) {
  return numberParam({
    key: 'b',
    label: 'filter memory',
    symbol: 'M_filt/N',
    unit: 'bits/entry',
    default: defaultBits,
    min: 0,
    max,
    step: 0.05,
    help: 'Bloom-filter bits per entry, over all levels together.',
  });
}

export type PolicyCode = 'lev' | 'tier';

export function policyOf(code: PolicyCode): Policy {
  return code === 'lev' ? 'leveling' : 'tiering';
}

export function policyCode(policy: Policy): PolicyCode {
  return policy === 'leveling' ? 'lev' : 'tier';
}
