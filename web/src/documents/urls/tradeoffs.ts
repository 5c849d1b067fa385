/**
 * The trade-off page's controls as they appear in its URL
 * (`#/tradeoffs?v=1&N=…&E=16&pg=4096&b=10&buf=2&zr=40&nzr=10&rq=0&up=50&s=1e-7&phi=1&om=100&lmax=0&wmax=0`).
 * The data set and memory keys are the Monkey page's, so a chosen design opens there unchanged.
 */
import { monkeySystemDefaults } from '@lsm/models';
import { defineUrlState, type Preset } from '../url/codec';
import { numberParam, type StateOf } from '../url/params';
import { bufferParam, datasetParams, FIG7, filterBitsParam, MIB } from '../params/monkey';
import { operationShareParam } from '../params/lsm';

function bound(key: string, label: string, help: string) {
  return numberParam({ key, label, unit: 'I/O', default: 0, min: 0, max: 1e6, help });
}

export const tradeoffParams = {
  ...datasetParams,
  bits: filterBitsParam(32, 10),
  bufferMiB: bufferParam,
  zeroResult: operationShareParam('zr', 'lookups of missing keys', 40, 'Point lookups that find nothing (zero-result).'),
  nonZeroResult: operationShareParam('nzr', 'lookups of existing keys', 10, 'Point lookups that find their key.'),
  range: operationShareParam('rq', 'range lookups', 0, 'Short scans; see the selectivity below.'),
  update: operationShareParam('up', 'updates', 50, 'Inserts, updates and deletes.'),
  selectivity: numberParam({
    key: 's',
    label: 'range selectivity',
    symbol: 's',
    unit: 'of entries',
    default: 1e-7,
    min: 1e-10,
    max: 1,
    log: true,
    help: 'Fraction of all entries one range lookup returns.',
  }),
  phi: numberParam({
    key: 'phi',
    label: 'write/read cost ratio',
    symbol: 'φ',
    default: 1,
    min: 0,
    max: 20,
    step: 0.1,
    help: 'Cost of a page write over a page read: 1 for disk, more for flash.',
  }),
  readMicros: numberParam({
    key: 'om',
    label: 'page read time',
    symbol: 'Ω',
    unit: 'µs',
    default: 100,
    min: 0.1,
    max: 100000,
    log: true,
    help: 'Time to read one page: turns I/Os into throughput.',
  }),
  maxLookup: bound('lmax', 'max lookup cost', 'SLA on point-lookup I/O; 0 = no bound.'),
  maxUpdate: bound('wmax', 'max update cost', 'SLA on update I/O; 0 = no bound.'),
};

export type TradeoffState = StateOf<typeof tradeoffParams>;
type TradeoffPreset = Preset<typeof tradeoffParams>;

const mix = (zeroResult: number, nonZeroResult: number, range: number, update: number) => ({ zeroResult, nonZeroResult, range, update });

/** Table 4: what would the holistic design do with each system's memory? */
const systemPresets: TradeoffPreset[] = monkeySystemDefaults.map((s) => ({
  id: `${s.name.toLowerCase()}-memory`,
  label: `${s.name}’s memory`,
  description: `${s.filterBitsPerEntry} bits/entry of filters and a ${s.bufferBytes / MIB} MiB buffer${s.bufferAssumed ? ' (assumed)' : ''}, as ${s.name} ships (Table 4); the workload is kept.`,
  values: { bits: s.filterBitsPerEntry, bufferMiB: s.bufferBytes / MIB },
}));

export const tradeoffUrl = defineUrlState({
  page: 'tradeoffs',
  version: 1,
  params: tradeoffParams,
  presets: [
    {
      id: 'fig7',
      label: 'Monkey Fig 7 data set',
      description: '2^35 entries × 16 B, 4 KiB pages, 2 MiB buffer, 10 bits/entry as most systems ship; half lookups, half updates.',
      values: { entries: FIG7.entries, entryBytes: FIG7.entryBytes, pageBytes: FIG7.pageBytes, bits: 10, bufferMiB: FIG7.bufferMiB, ...mix(40, 10, 0, 50) },
    },
    { id: 'write-heavy', label: 'Write-heavy (Fig 11(a))', description: '90% updates, 10% lookups.', values: mix(5, 5, 0, 90) },
    { id: 'read-heavy', label: 'Read-heavy', description: '90% point lookups, half of them for missing keys.', values: mix(45, 45, 0, 10) },
    { id: 'missing-keys', label: 'Mostly missing keys', description: '80% lookups of keys that do not exist.', values: mix(80, 0, 0, 20) },
    { id: 'scans', label: 'Range scans (Fig 13(F))', description: 'Half short range lookups (s = 10⁻⁵), half updates.', values: { ...mix(0, 0, 50, 50), selectivity: 1e-5 } },
    ...systemPresets,
  ],
});
