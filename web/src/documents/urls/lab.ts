/**
 * The workload lab's controls as they appear in its URL: the design (every EngineConfig field),
 * the workload (every Workload field) and where it runs. A "Run in the lab" link from another page
 * is just this URL with the design filled in (see `labLink` in documents.ts).
 */
import { defineUrlState } from '../url/codec';
import { booleanParam, enumParam, numberListParam, numberParam, type StateOf } from '../url/params';
// The bounds the engine validates these fields against (lsm-core's config ranges).
import { BITS_PER_KEY_RANGE, MAX_RUNS_RANGE, MODULES_RANGE, PAGE_BYTES_RANGE, SIZE_RATIO_RANGE, STATISTICS_WINDOW_RANGE } from '../generated/ranges';

const fraction = (key: string, label: string, def: number, help?: string) =>
  numberParam({ key, label, default: def, min: 0, max: 1, step: 0.05, help });

export const labParams = {
  tab: enumParam({
    key: 'tab',
    label: 'view',
    default: 'run',
    options: [
      { value: 'run', label: 'Run' },
      { value: 'sweep', label: 'Sweeps' },
      { value: 'mnemosyne', label: 'Mnemosyne' },
      { value: 'results', label: 'Results' },
      { value: 'storage', label: 'Databases' },
    ],
  }),
  // ---------------------------------------------------------------- design (EngineConfig)
  pageBytes: numberParam({ key: 'pg', label: 'page size', unit: 'B', default: 4096, min: PAGE_BYTES_RANGE[0], max: PAGE_BYTES_RANGE[1], integer: true, log: true, help: 'The unit of I/O; a power of two.' }),
  bufferKiB: numberParam({ key: 'buf', label: 'write buffer', unit: 'KiB', default: 64, min: 0.25, max: 4_194_304, log: true, help: 'Entry bytes the memtable holds before it is flushed.' }),
  sizeRatios: numberListParam({ key: 'T', label: 'size ratios', symbol: 'T', default: [4], min: SIZE_RATIO_RANGE[0], max: SIZE_RATIO_RANGE[1], minLength: 1, maxLength: 32, help: 'Per level, from level 1; the last value repeats for deeper levels.' }),
  maxRuns: numberListParam({ key: 'K', label: 'runs per level', symbol: 'K', default: [1], min: MAX_RUNS_RANGE[0], max: MAX_RUNS_RANGE[1], integer: true, minLength: 1, maxLength: 32, help: '1 = leveling, T − 1 = tiering; the last value repeats.' }),
  allocation: enumParam({
    key: 'fa',
    label: 'filter allocation',
    default: 'monkey',
    options: [
      { value: 'uniform', label: 'Uniform', help: 'The same bits per key in every run (the state of the art).' },
      { value: 'monkey', label: 'Monkey', help: 'The budget split optimally over the runs the tree has.' },
      { value: 'mnemosyne', label: 'Mnemosyne', help: 'The budget split over files by their measured empty lookups.' },
      { value: 'explicit', label: 'Per level', help: 'Bits per key given for each level.' },
    ],
  }),
  monkeyPolicy: enumParam({
    key: 'mp',
    label: 'Monkey sizing',
    default: 'at_birth',
    options: [
      { value: 'at_birth', label: 'At birth', help: 'Each filter sized once, when its run is born, for the tree the design says the data fills.' },
      { value: 'reoptimised', label: 'Re-optimised', help: 'Filters brought back to the optimum for the runs that exist as runs come and go (rebuilds read pages).' },
    ],
  }),
  rebuildPayback: numberParam({ key: 'rp', label: 'rebuild payback', default: 1, min: 0, max: 1000, step: 0.5, help: 'Rebuild a filter once its expected saving is this many times the pages it reads (0: always).' }),
  bits: numberParam({ key: 'b', label: 'bits per key', unit: 'bits/key', default: 5, min: BITS_PER_KEY_RANGE[0], max: BITS_PER_KEY_RANGE[1], step: 0.5, help: 'The filter memory budget, averaged over all entries.' }),
  levelBits: numberListParam({ key: 'fb', label: 'bits per key by level', unit: 'bits/key', default: [10], min: BITS_PER_KEY_RANGE[0], max: BITS_PER_KEY_RANGE[1], minLength: 1, maxLength: 32, help: 'Used with per-level allocation; the last value repeats.' }),
  filterKind: enumParam({
    key: 'fk',
    label: 'filter kind',
    default: 'bloom',
    options: [
      { value: 'bloom', label: 'Bloom' },
      { value: 'modular', label: 'Modular', help: 'SHaMBa: several smaller filters probed in order.' },
    ],
  }),
  modules: numberParam({ key: 'fm', label: 'filter modules', default: 1, min: MODULES_RANGE[0], max: MODULES_RANGE[1], integer: true, help: 'Modules per filter (modular filters only).' }),
  skip: enumParam({
    key: 'fsk',
    label: 'filter skipping',
    default: 'none',
    options: [
      { value: 'none', label: 'None' },
      { value: 'partial', label: 'Partial' },
      { value: 'full', label: 'Full' },
    ],
  }),
  granularity: enumParam({
    key: 'gr',
    label: 'merge granularity',
    default: 'level',
    options: [
      { value: 'level', label: 'Whole level', help: 'Monkey, Moose: a merge takes whole runs.' },
      { value: 'file', label: 'By file', help: 'LevelDB/RocksDB, MSLS: one file at a time; level 1 acts as level 0.' },
    ],
  }),
  fileKiB: numberParam({ key: 'fil', label: 'file size', unit: 'KiB', default: 64, min: 1, max: 4_194_304, log: true, help: 'Target file size with merges by file.' }),
  cacheKiB: numberParam({ key: 'bc', label: 'block cache', unit: 'KiB', default: 0, min: 0, max: 4_194_304, help: '0 makes every page access an I/O (as in Monkey’s experiments).' }),
  cacheMeta: booleanParam({ key: 'cif', label: 'cache filter and index blocks', default: false, help: 'Off: filters and fence pointers are pinned in memory, as Monkey assumes.' }),
  highPriority: numberParam({ key: 'hpr', label: 'high-priority share', default: 0, min: 0, max: 1, step: 0.05, help: 'Cache share reserved for filter and index blocks.' }),
  window: numberParam({ key: 'sw', label: 'statistics window', unit: 'lookups', default: 64, min: STATISTICS_WINDOW_RANGE[0], max: STATISTICS_WINDOW_RANGE[1], integer: true, help: 'Lookups per file Mnemosyne’s statistics remember.' }),
  // ---------------------------------------------------------------- workload
  seed: numberParam({ key: 'seed', label: 'seed', default: 1, min: 0, max: 4_294_967_295, integer: true }),
  preload: numberParam({ key: 'n', label: 'preload', unit: 'entries', default: 100_000, min: 0, max: 1e9, integer: true, log: false, help: 'Distinct keys inserted before the measured run.' }),
  keySpace: numberParam({ key: 'ks', label: 'key space', unit: 'keys', default: 10_000_000, min: 0, max: 1e12, integer: true, help: '0: four times the keys inserted. Much larger than the preload makes missing keys rarely repeat.' }),
  keyBytes: numberParam({ key: 'kb', label: 'key size', unit: 'B', default: 16, min: 8, max: 1024, integer: true }),
  valueBytes: numberParam({ key: 'vb', label: 'value size', unit: 'B', default: 48, min: 0, max: 60_000, integer: true }),
  operations: numberParam({ key: 'ops', label: 'operations', default: 200_000, min: 0, max: 1e9, integer: true, help: 'Measured operations after the preload.' }),
  insert: fraction('mi', 'inserts', 0),
  update: fraction('mu', 'updates', 0),
  remove: fraction('md', 'deletes', 0),
  getExisting: fraction('me', 'lookups of existing keys', 0),
  getMissing: fraction('mm', 'lookups of missing keys', 1, 'Zero-result lookups: only false positives cost I/O.'),
  range: fraction('mr', 'range lookups', 0),
  distribution: enumParam({
    key: 'dist',
    label: 'key distribution',
    default: 'uniform',
    options: [
      { value: 'uniform', label: 'Uniform' },
      { value: 'zipf', label: 'Zipf', help: 'The first keys inserted are the hottest.' },
      { value: 'latest', label: 'Latest', help: 'Recently inserted keys are the hottest.' },
      { value: 'hotspot', label: 'Hotspot', help: 'A key range gets most accesses.' },
    ],
  }),
  theta: numberParam({ key: 'th', label: 'skew', symbol: 'θ', default: 0.99, min: 0, max: 5, step: 0.01 }),
  hotFraction: numberParam({ key: 'hf', label: 'hot key range', default: 0.05, min: 0.001, max: 0.999, step: 0.01, help: 'Share of the key space that is hot.' }),
  hotProbability: numberParam({ key: 'hp', label: 'hot accesses', default: 0.95, min: 0, max: 1, step: 0.01, help: 'Share of accesses that go to the hot range.' }),
  selectivity: numberParam({ key: 'rs', label: 'range selectivity', default: 0.001, min: 0, max: 1, step: 0.0005, help: 'Fraction of the key space one range lookup covers.' }),
  // ---------------------------------------------------------------- sweeps and the comparison
  sweepKind: enumParam({
    key: 'sk',
    label: 'sweep',
    default: 'size',
    options: [
      { value: 'size', label: 'Data size (Monkey Fig 12 A)' },
      { value: 'bits', label: 'Bits per key (Monkey Fig 12 C)' },
      { value: 'tradeoff', label: 'Lookup vs update (Monkey Fig 13 C)' },
      { value: 'moose', label: 'Per-level structures (Moose)' },
      { value: 'msls', label: 'Write amplification (MSLS)' },
    ],
  }),
  sweepLog2: numberParam({ key: 'sn', label: 'data size', symbol: 'log₂ N', default: 19, min: 12, max: 20, integer: true, help: 'Largest data size (or the fixed size) as a power of two.' }),
  sweepLookups: numberParam({ key: 'sl', label: 'lookups per point', default: 50_000, min: 1000, max: 1_000_000, integer: true, help: 'Zero-result lookups measured at each point.' }),
  compareBits: numberParam({ key: 'cb', label: 'bits per key budget', unit: 'bits/key', default: 4, min: 0, max: 16, step: 0.5 }),
  comparePreload: numberParam({ key: 'cn', label: 'preload', unit: 'entries', default: 80_000, min: 1000, max: 10_000_000, integer: true }),
  compareOps: numberParam({ key: 'co', label: 'operations', default: 400_000, min: 1000, max: 100_000_000, integer: true }),
  compareHotFraction: numberParam({ key: 'chf', label: 'hot key range', default: 0.05, min: 0.001, max: 0.999, step: 0.01 }),
  compareHotProbability: numberParam({ key: 'chp', label: 'hot accesses', default: 0.95, min: 0, max: 1, step: 0.01 }),
  // ---------------------------------------------------------------- where
  backend: enumParam({
    key: 'be',
    label: 'storage',
    default: 'memory',
    options: [
      { value: 'memory', label: 'Memory', help: 'Fastest; gone when the page closes.' },
      { value: 'opfs', label: 'OPFS', help: 'Origin private file system: persistent files.' },
      { value: 'idb', label: 'IndexedDB', help: 'Persistent, journaled into IndexedDB.' },
    ],
  }),
  merges: enumParam({
    key: 'mg',
    label: 'merges',
    default: 'paced',
    options: [
      { value: 'paced', label: 'Paced', help: 'Each write does a small slice of the pending merge work; writes slow down or stop at the design’s write-stall thresholds.' },
      { value: 'inline', label: 'Inline', help: 'Each merge runs to completion inside the write whose flush made it due: no stalls, but that write waits for the whole merge.' },
    ],
  }),
};

export type LabSchema = typeof labParams;
export type LabState = StateOf<LabSchema>;

export const labUrl = defineUrlState({
  page: 'lab',
  version: 1,
  params: labParams,
  presets: [
    {
      id: 'zero',
      label: 'Zero-result lookups (default)',
      description: '100,000 keys, then 200,000 lookups of missing keys from a key space 100× larger: leveling, T = 4, 5 bits/key.',
      values: {
        pageBytes: 4096, bufferKiB: 64, sizeRatios: [4], maxRuns: [1], bits: 5, granularity: 'level', cacheKiB: 0,
        preload: 100_000, keySpace: 10_000_000, keyBytes: 16, valueBytes: 48, operations: 200_000,
        insert: 0, update: 0, remove: 0, getExisting: 0, getMissing: 1, range: 0, distribution: 'uniform',
      },
    },
    {
      id: 'million',
      label: '1 M lookups',
      description: '50,000 keys, then 1,000,000 lookups (half of existing keys) and 1% inserts.',
      values: {
        preload: 50_000, keySpace: 5_000_000, operations: 1_000_000,
        insert: 0.01, update: 0, remove: 0, getExisting: 0.5, getMissing: 0.49, range: 0, distribution: 'uniform',
      },
    },
    {
      id: 'mixed',
      label: 'Mixed, Zipf 0.9',
      description: 'Inserts, updates, deletes, lookups and short scans over Zipf(0.9) keys (public/examples/mixed.json).',
      values: {
        preload: 50_000, keySpace: 0, keyBytes: 16, valueBytes: 64, operations: 100_000, seed: 42,
        insert: 0.2, update: 0.2, remove: 0.05, getExisting: 0.25, getMissing: 0.25, range: 0.05,
        distribution: 'zipf', theta: 0.9, selectivity: 0.0005,
      },
    },
    {
      id: 'writes',
      label: 'Updates (write amplification)',
      description: '50,000 keys, then 200,000 uniform updates of them, merges by file: bytes written per level.',
      values: {
        granularity: 'file', fileKiB: 64, sizeRatios: [4, 4], maxRuns: [3, 1],
        preload: 50_000, keySpace: 0, operations: 200_000,
        insert: 0, update: 1, remove: 0, getExisting: 0, getMissing: 0, range: 0, distribution: 'uniform',
      },
    },
  ],
});
