/**
 * The Moose page's controls as they appear in its URL, e.g.
 * `#/moose?v=1&N=24576000&E=1024&pg=4096&buf=2&M=5&T=7,7,7,5.83381,4.79762&K=3,3,3,2,2&b=…&of=1&zr=40&nzr=0&rq=20&up=40&s=0&um=paper&pT=10`.
 * The level table is three lists (T = size ratios, K = runs, b = bits per entry); `of=1` means the
 * bits are the optimal split of M bits/entry and `b` is only kept for when it is switched off.
 *
 * Defaults are the paper's setting at the scale its DP implies (reference §7.5): N/F = 12 000
 * (24 576 000 entries of 1 KiB, a 2 MiB buffer), 4 KiB pages (B = 4), 5 bits/entry, and default
 * Moose's layout for it (N_L = 0.8N, k = 1): ratios 7, 7, 7, 5.83, 4.80 with runs 3, 3, 3, 2, 2.
 */
import { defineUrlState, type Preset } from '../url/codec';
import { booleanParam, enumParam, numberListParam, numberParam, type StateOf } from '../url/params';
import { MAX_TABLE_BITS, MAX_TABLE_LEVELS, MAX_TABLE_RATIO, MAX_TABLE_RUNS } from '../mooseTable';
import { entriesParam, entryBytesParam, operationShareParam, pageBytesParam, writeBufferParam } from '../params/lsm';

export const MIB = 1024 * 1024;

export const mooseParams = {
  entries: entriesParam({ default: 24_576_000, min: 1000, max: 1e12, help: 'Entries on disk (all levels together).' }),
  entryBytes: entryBytesParam(1024, 'Key plus value; the paper uses 24 B keys and 1000 B values.'),
  pageBytes: pageBytesParam(4096, 'One disk block; B = page ÷ entry size entries per I/O.'),
  bufferMiB: writeBufferParam({ symbol: 'F', default: 2, min: 0.001, max: 65536, help: 'Level 0; level 1 holds r₁ buffers. The paper uses 2 MB.' }),
  memoryBits: numberParam({
    key: 'M',
    label: 'filter memory',
    symbol: 'M/N',
    unit: 'bits/entry',
    default: 5,
    min: 0,
    max: 32,
    step: 0.1,
    help: 'Bloom-filter budget over all levels; split optimally (Eq.10) by Smoose, the presets and “optimal filters”.',
  }),
  ratios: numberListParam({
    key: 'T',
    label: 'size ratios',
    symbol: 'r_i',
    default: [7, 7, 7, 5.83381, 4.79762],
    min: 1,
    max: MAX_TABLE_RATIO,
    minLength: 1,
    maxLength: MAX_TABLE_LEVELS,
  }),
  runs: numberListParam({
    key: 'K',
    label: 'runs',
    symbol: 'n_i',
    default: [3, 3, 3, 2, 2],
    min: 1,
    max: MAX_TABLE_RUNS,
    integer: true,
    minLength: 1,
    maxLength: MAX_TABLE_LEVELS,
  }),
  bits: numberListParam({
    key: 'b',
    label: 'bits per entry',
    symbol: 'b_i',
    unit: 'bits/entry',
    default: [20.055, 16.005, 11.954, 7.44, 4.176],
    min: 0,
    max: MAX_TABLE_BITS,
    minLength: 1,
    maxLength: MAX_TABLE_LEVELS,
  }),
  optimalFilters: booleanParam({
    key: 'of',
    label: 'optimal filters',
    default: true,
    help: 'Bits per level from the optimal split of the filter memory (p_i ∝ N_i/n_i, Eq.10).',
  }),
  zeroResult: operationShareParam('zr', 'point lookups (missing keys)', 40, 'Zero-result point lookups: Z = Σ n_i p_i (Eq.4).'),
  nonZeroResult: operationShareParam('nzr', 'point lookups (existing keys)', 0, '[extension] Lookups that find their key in the last level.'),
  range: operationShareParam('rq', 'range lookups', 20, 'One seek per run, Σ n_i (Eq.3), plus the scan.'),
  update: operationShareParam('up', 'updates', 40, 'Inserts, updates and deletes: (1/B) Σ r_i/n_i (Eq.2).'),
  selectivity: numberParam({
    key: 's',
    label: 'range selectivity',
    symbol: 'σ',
    unit: 'of entries',
    default: 0,
    min: 0,
    max: 1,
    help: 'Fraction of all entries a range lookup returns (adds σN/B I/Os); 0 = short ranges, as in the paper.',
  }),
  updateModel: enumParam({
    key: 'um',
    label: 'update cost',
    default: 'paper',
    options: [
      { value: 'paper', label: 'Paper (Eq.2)', help: '(1/B) Σ r_i/n_i, the big-O body taken literally' },
      { value: 'refined', label: 'Refined', help: '[extension] (1/B) Σ (r_i/n_i + 1)/2: mean rewrites per level' },
    ],
  }),
  presetRatio: numberParam({
    key: 'pT',
    label: 'size ratio of the presets',
    symbol: 'T',
    default: 10,
    min: 2,
    max: 100,
    integer: true,
    log: true,
    help: 'T of the leveling, tiering and lazy-leveling presets (10 in the paper).',
  }),
};

export type MooseState = StateOf<typeof mooseParams>;
type MoosePreset = Preset<typeof mooseParams>;

/** Table 4's workloads A–J (range / update / point %); the paper's point lookups are zero-result. */
const TABLE4: [id: string, range: number, update: number, point: number][] = [
  ['A', 98, 1, 1],
  ['B', 1, 98, 1],
  ['C', 1, 1, 98],
  ['D', 49, 2, 49],
  ['E', 2, 49, 49],
  ['F', 49, 49, 2],
  ['G', 40, 40, 20],
  ['H', 40, 20, 40],
  ['I', 20, 40, 40],
  ['J', 33.3, 33.3, 33.4],
];

const workloadPresets: MoosePreset[] = TABLE4.map(([id, range, update, point]) => ({
  id: `wl-${id.toLowerCase()}`,
  label: `Workload ${id} (${range}/${update}/${point})`,
  description: `Moose Table 4, workload ${id}: ${range}% range lookups, ${update}% updates, ${point}% zero-result point lookups; short ranges. The level table is kept.`,
  values: { range, update, zeroResult: point, nonZeroResult: 0, selectivity: 0 },
}));

export const mooseUrl = defineUrlState({
  page: 'moose',
  version: 1,
  params: mooseParams,
  presets: workloadPresets,
});
