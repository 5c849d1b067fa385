/**
 * Controls shared by the two Monkey pages ("Monkey vs state of the art" and "Trade-off curves"):
 * the data set and the memory of a design, with the same URL keys on both, so a design chosen on
 * one page opens on the other.
 */
import type { Dataset, Policy } from '@lsm/models';
import { enumParam, numberParam } from '../../state/params';

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/** Monkey Fig 7's data set: 2^35 entries of 16 bytes (512 GiB), T = 4, a 2 MiB buffer. */
export const FIG7 = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096, sizeRatio: 4, bufferMiB: 2 } as const;

export const datasetParams = {
  entries: numberParam({
    key: 'N',
    label: 'entries',
    symbol: 'N',
    default: FIG7.entries,
    min: 1000,
    max: 1e13,
    integer: true,
    log: true,
    help: 'Total key-value entries in the tree.',
  }),
  entryBytes: numberParam({
    key: 'E',
    label: 'entry size',
    symbol: 'E',
    unit: 'bytes',
    default: FIG7.entryBytes,
    min: 1,
    max: 65536,
    integer: true,
    log: true,
    help: 'Key plus value.',
  }),
  pageBytes: numberParam({
    key: 'pg',
    label: 'page size',
    unit: 'bytes',
    default: FIG7.pageBytes,
    min: 256,
    max: 1048576,
    integer: true,
    log: true,
    help: 'One disk page (block); B = page ÷ entry size entries.',
  }),
};

export const policyParam = enumParam({
  key: 'pol',
  label: 'merge policy',
  default: 'lev',
  options: [
    { value: 'lev', label: 'Leveling', help: 'One run per level' },
    { value: 'tier', label: 'Tiering', help: 'Up to T−1 runs per level' },
  ],
});

export const bufferParam = numberParam({
  key: 'buf',
  label: 'write buffer',
  symbol: 'M_buf',
  unit: 'MiB',
  default: FIG7.bufferMiB,
  min: 0.0001,
  max: 1048576,
  log: true,
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

export interface DatasetState {
  entries: number;
  entryBytes: number;
  pageBytes: number;
}

export function datasetOf(s: DatasetState): Dataset {
  return { entries: s.entries, entryBytes: s.entryBytes, pageBytes: s.pageBytes };
}

/**
 * A data set the controls accept one by one but the model cannot use as a whole, explained in the
 * words of the controls; null when it is fine.
 */
export function datasetProblem(s: DatasetState): string | null {
  if (s.pageBytes < s.entryBytes) {
    return `The page size (${s.pageBytes} bytes) must be at least the entry size (${s.entryBytes} bytes): a page holds B = page ÷ entry ≥ 1 entries.`;
  }
  return null;
}
