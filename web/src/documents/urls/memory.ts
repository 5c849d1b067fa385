/**
 * The Memory-pressure page's controls as they appear in its URL, e.g.
 * `#/memory?v=1&T=4&L=3&f1=1&nf=8192&b=3&th=1&Z=0.5&at=size&hl=1&seed=0&D=2&sb=10&skip=full&bud=50&a=0&be=0.5&t1=0.2&t2=0.1`.
 * Section A (Mnemosyne) keys first, then section B (SHaMBa).
 */
import { defineUrlState } from '../url/codec';
import { enumParam, numberParam, type StateOf } from '../url/params';
import type { MnemosyneTreeInput } from '../params/memory';

export const memoryParams = {
  // ── A: the synthetic tree and its workload
  sizeRatio: numberParam({ key: 'T', label: 'size ratio', symbol: 'T', default: 4, min: 2, max: 10, integer: true, help: 'Each level has T times the files of the one above.' }),
  levels: numberParam({ key: 'L', label: 'levels', symbol: 'L', default: 3, min: 1, max: 6, integer: true }),
  filesL1: numberParam({ key: 'f1', label: 'files in level 1', symbol: 'f₁', default: 1, min: 1, max: 16, integer: true }),
  entriesPerFile: numberParam({
    key: 'nf',
    label: 'entries per file',
    symbol: 'n',
    default: 8192,
    min: 1000,
    // Larger files make the reconstructed gradient-descent baseline unreliable to time (see memoryMnemosyne.ts).
    max: 131_072,
    integer: true,
    log: true,
    help: 'Files are all this size: 8,192 is Fig 3’s 4 MB of 512 B entries, 131,072 is 64 MB.',
  }),
  bits: numberParam({
    key: 'b',
    label: 'memory budget',
    symbol: 'bpk',
    unit: 'bits/key',
    default: 3,
    min: 0,
    max: 16,
    step: 0.25,
    help: 'Filter bits per entry on average; M = bpk · N.',
  }),
  skew: numberParam({ key: 'th', label: 'skew', symbol: 'θ', default: 1, min: 0, max: 2, step: 0.05, help: 'Zipf exponent over key ranges; 0 is uniform.' }),
  emptyFraction: numberParam({ key: 'Z', label: 'empty lookups', symbol: 'Z', default: 0.5, min: 0, max: 1, step: 0.05, help: 'Share of lookups whose key exists nowhere.' }),
  foundAt: enumParam({
    key: 'at',
    label: 'existing keys live',
    default: 'size',
    options: [
      { value: 'size', label: 'By level size', help: 'A found key is in level j with probability n_j / N' },
      { value: 'hot', label: 'In a hot level', help: 'Every found key is in the hot level (e.g. recent writes)' },
    ],
  }),
  hotLevel: numberParam({ key: 'hl', label: 'hot level', default: 1, min: 1, max: 6, integer: true, help: 'Used when existing keys live in a hot level.' }),
  seed: numberParam({
    key: 'seed',
    label: 'seed',
    default: 0,
    min: 0,
    max: 9999,
    integer: true,
    help: '0 puts the hottest key ranges first; other seeds shuffle them, the same way every time.',
  }),
  // ── B: SHaMBa
  modules: numberParam({ key: 'D', label: 'modules', symbol: 'D', default: 2, min: 1, max: 16, integer: true, help: 'Equal modules of SHaMBa-eq.' }),
  shambaBits: numberParam({ key: 'sb', label: 'filter bits per key', symbol: 'b', unit: 'bits/key', default: 10, min: 1, max: 24, step: 0.5 }),
  skip: enumParam({
    key: 'skip',
    label: 'skip strategy',
    default: 'full',
    options: [
      { value: 'none', label: 'None', help: 'Always read every module' },
      { value: 'partial', label: 'Partial (P)', help: 'Partial: module 1 always, later modules when useful' },
      { value: 'full', label: 'Full (F)', help: 'Full: may skip the whole filter' },
    ],
  }),
  budget: numberParam({
    key: 'bud',
    label: 'cache budget',
    unit: '% of index+filter',
    default: 50,
    min: 10,
    max: 150,
    integer: true,
    help: 'Block cache as a share of all index and filter bytes.',
  }),
  alpha: numberParam({ key: 'a', label: 'existing ratio', symbol: 'α', default: 0, min: 0, max: 1, step: 0.05, help: 'Share of lookups reaching a file that find their key there.' }),
  beta: numberParam({ key: 'be', label: 'access frequency', symbol: 'β', default: 0.5, min: 0, max: 4, step: 0.05, help: 'Lookups reaching a file per lookup (the emulator’s β can exceed 1).' }),
  thetaWhole: numberParam({ key: 't1', label: 'threshold, whole filter', symbol: 'θ₁', unit: 'I/O', default: 0.2, min: 0, max: 2, step: 0.01, help: 'F skips the filter when module 1 saves at most this.' }),
  thetaLater: numberParam({ key: 't2', label: 'threshold, later modules', symbol: 'θ₂', unit: 'I/O', default: 0.1, min: 0, max: 2, step: 0.01, help: 'P and F skip module d ≥ 2 when it saves at most this.' }),
};

/** Section A's synthetic tree as the page's state describes it (the page and its snapshot test both read it). */
export function memoryTreeInput(s: StateOf<typeof memoryParams>): MnemosyneTreeInput {
  return {
    sizeRatio: s.sizeRatio,
    levels: s.levels,
    filesInFirstLevel: s.filesL1,
    entriesPerFile: s.entriesPerFile,
    skew: s.skew,
    emptyFraction: s.emptyFraction,
    foundAt: s.foundAt,
    hotLevel: s.hotLevel,
    seed: s.seed,
  };
}

export const memoryUrl = defineUrlState({
  page: 'memory',
  version: 1,
  params: memoryParams,
  presets: [
    {
      // The defaults, so the page opens on a named setting rather than "Custom settings".
      id: 'start',
      label: 'Start: 3 levels, half empty',
      description: 'T = 4, 3 levels of Fig 3’s 4 MB files (8,192 entries of 512 B), zipfian lookups (θ = 1) over key ranges, half of them empty, 3 bits/key.',
      values: { sizeRatio: 4, levels: 3, filesL1: 1, entriesPerFile: 8192, bits: 3, skew: 1, emptyFraction: 0.5, foundAt: 'size', seed: 0 },
    },
    {
      id: 'mnemosyne',
      label: 'Mnemosyne paper default',
      description: 'Fig 11’s setting: T = 4, 4 levels of 64 MB files (131,072 entries of 512 B), zipfian lookups (θ = 0.99), half empty, 2 bits/key.',
      values: { sizeRatio: 4, levels: 4, filesL1: 1, entriesPerFile: 131_072, bits: 2, skew: 0.99, emptyFraction: 0.5, foundAt: 'size', seed: 0 },
    },
    {
      id: 'fig2',
      label: 'Mnemosyne Fig 2: every key exists',
      description: 'Skewed lookups that all find their key (Z = 0) at 2 bits/key: the last level gets no filter.',
      values: { sizeRatio: 4, levels: 3, filesL1: 1, bits: 2, skew: 1, emptyFraction: 0, foundAt: 'size' },
    },
    {
      id: 'monkey',
      label: 'Uniform, all empty (Monkey’s case)',
      description: 'Uniform keys and only empty lookups: Monkey’s assumptions hold and Mnemosyne matches it.',
      values: { skew: 0, emptyFraction: 1, foundAt: 'size' },
    },
    {
      id: 'hot',
      label: 'Hot level 1 (recent data read most)',
      description: 'Every existing key read lives in level 1; 20 % of lookups are empty.',
      values: { foundAt: 'hot', hotLevel: 1, emptyFraction: 0.2, skew: 0.5 },
    },
    {
      id: 'shamba70',
      label: 'SHaMBa 70 % budget',
      description: 'Two modules of a 10 bits/key filter, cache at 70 % of index + filter, full skipping, empty lookups.',
      values: { modules: 2, shambaBits: 10, budget: 70, skip: 'full', alpha: 0, beta: 0.5, thetaWhole: 0.2, thetaLater: 0.1 },
    },
    {
      id: 'shamba20',
      label: 'SHaMBa severe pressure (20 %)',
      description: 'Cache at 20 % of index + filter, partial skipping.',
      values: { modules: 2, shambaBits: 10, budget: 20, skip: 'partial', alpha: 0 },
    },
    {
      id: 'table3',
      label: 'SHaMBa Table 3: 7 modules',
      description: '10 bits/key split into 7 one-probe modules, no skipping.',
      values: { modules: 7, shambaBits: 10, skip: 'none' },
    },
    {
      id: 'existing',
      label: 'SHaMBa, keys always exist (α = 1)',
      description: 'Every lookup reaching a file finds its key there: filters only cost I/O.',
      values: { alpha: 1, budget: 70, skip: 'full' },
    },
  ],
});
