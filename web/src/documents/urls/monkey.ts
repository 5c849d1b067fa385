/**
 * The "Monkey vs state of the art" page's controls as they appear in its URL
 * (`#/monkey?v=1&N=34359738368&E=16&pg=4096&T=4&pol=lev&b=5&buf=2&nz=50`).
 */
import { monkeySystemDefaults } from '@lsm/models';
import { defineUrlState, encodeQuery, type Preset } from '../url/codec';
import { numberParam, type StateOf } from '../url/params';
import { mergePolicyParam } from '../params/lsm';
import { bufferParam, datasetParams, FIG7, filterBitsParam, MIB, policyCode } from '../params/monkey';

export const monkeyParams = {
  ...datasetParams,
  sizeRatio: numberParam({
    key: 'T',
    label: 'size ratio',
    symbol: 'T',
    default: FIG7.sizeRatio,
    min: 2,
    max: 1e9,
    log: true,
    help: 'How much larger each level is than the one above.',
  }),
  policy: mergePolicyParam,
  bits: filterBitsParam(40, 5),
  bufferMiB: bufferParam,
  nonZeroPercent: numberParam({
    key: 'nz',
    label: 'lookups that find their key',
    unit: '%',
    default: 50,
    min: 0,
    max: 100,
    step: 1,
    help: 'Share of point lookups with a result (the rest find nothing), for the lookup-mix chart.',
  }),
};

type MonkeyPreset = Preset<typeof monkeyParams>;

/** Table 4: each system's default design (size ratio, policy, bits per entry, buffer). */
const systemPresets: MonkeyPreset[] = monkeySystemDefaults.map((s) => ({
  id: s.name.toLowerCase(),
  label: `${s.name} defaults`,
  description: `Monkey Table 4: ${s.policy}, T = ${s.sizeRatio}, ${s.filterBitsPerEntry} bits/entry, ${s.bufferBytes / MIB} MiB buffer${
    s.bufferAssumed ? ' (assumed; Table 4 gives none)' : ''
  }. ${s.knobs}.`,
  values: {
    sizeRatio: s.sizeRatio,
    policy: policyCode(s.policy),
    bits: s.filterBitsPerEntry,
    bufferMiB: s.bufferBytes / MIB,
  },
}));

export const monkeyUrl = defineUrlState({
  page: 'monkey',
  version: 1,
  params: monkeyParams,
  presets: [
    {
      id: 'fig7',
      label: 'Monkey Fig 7 data set',
      description: '2^35 entries × 16 B (512 GiB), T = 4, leveling, 2 MiB buffer, 5 bits/entry.',
      values: {
        entries: FIG7.entries,
        entryBytes: FIG7.entryBytes,
        pageBytes: FIG7.pageBytes,
        sizeRatio: FIG7.sizeRatio,
        policy: 'lev',
        bits: 5,
        bufferMiB: FIG7.bufferMiB,
      },
    },
    {
      id: 'experiments',
      label: 'Paper’s experiments (Sec 5)',
      description: '2^20 entries × 1 KiB, T = 2, 1 MiB buffer, 5 bits/entry: L = 9.',
      values: { entries: 2 ** 20, entryBytes: 1024, pageBytes: 4096, sizeRatio: 2, policy: 'lev', bits: 5, bufferMiB: 1 },
    },
    ...systemPresets,
  ],
});

export type MonkeyState = StateOf<typeof monkeyParams>;

/** The hash link to this page for a given state (used by "Use this design" on the trade-off page). */
export function monkeyPageHash(state: MonkeyState): string {
  return `#/monkey?${encodeQuery(monkeyUrl, state)}`;
}
