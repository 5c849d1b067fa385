/** The storage benchmark's controls in its URL (`#/bench?v=1&n=200000&r=3`). */
import { defineUrlState } from '../url/codec';
import { enumParam, numberParam, type StateOf } from '../url/params';

export const benchParams = {
  entries: enumParam({
    key: 'n',
    label: 'entries',
    default: '1000000',
    options: [
      { value: '100000', label: '100,000' },
      { value: '200000', label: '200,000' },
      { value: '1000000', label: '1,000,000' },
      { value: '2000000', label: '2,000,000 (OPFS only)' },
      { value: '5000000', label: '5,000,000 (OPFS only)' },
      { value: '10000000', label: '10,000,000 (OPFS only)' },
    ],
    help: 'Inserted, then looked up, in every store (16 B keys, 100 B values); above 1,000,000 only the engine on OPFS.',
  }),
  repeats: numberParam({ key: 'r', label: 'repeats', default: 1, min: 1, max: 5, integer: true, help: 'Every store is run this many times, in turn; the table shows the median and the range.' }),
};

export type BenchState = StateOf<typeof benchParams>;

export const benchUrl = defineUrlState({ page: 'bench', version: 1, params: benchParams });
