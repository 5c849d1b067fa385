/** The teaching view's controls in its URL (`#/teach?v=1&T=3&pol=lev&fa=monkey&b=5&spd=2`; `mg=paced&l0s=2&l0x=4` for write stalls). */
import { defineUrlState, encodeQuery } from '../url/codec';
import { hashFor } from '../routes';
import { defaultsOf, enumParam, numberParam } from '../url/params';

export const teachUrl = defineUrlState({
  page: 'teach',
  version: 1,
  params: {
    sizeRatio: numberParam({ key: 'T', label: 'size ratio', symbol: 'T', default: 3, min: 2, max: 6, integer: true, help: 'Each level holds T times the one above.' }),
    policy: enumParam({
      key: 'pol',
      label: 'merge policy',
      default: 'leveling',
      options: [
        { value: 'leveling', label: 'Leveling', help: 'One run per level: merge on every arrival.' },
        { value: 'tiering', label: 'Tiering', help: 'Up to T − 1 runs per level: merge when full.' },
      ],
    }),
    allocation: enumParam({
      key: 'fa',
      label: 'filter allocation',
      default: 'monkey',
      options: [
        { value: 'uniform', label: 'Uniform' },
        { value: 'monkey', label: 'Monkey' },
      ],
    }),
    bits: numberParam({ key: 'b', label: 'bits per key', unit: 'bits/key', default: 5, min: 0, max: 12, step: 0.5, help: 'Filter memory; the colour of each run shows what it got.' }),
    merges: enumParam({
      key: 'mg',
      label: 'merges',
      default: 'step',
      options: [
        { value: 'step', label: 'When you step', help: 'Writes never wait: a step either inserts keys or advances a merge.' },
        { value: 'paced', label: 'Paced by the writes', help: 'Each write does a share of the merge work, and writes slow down or stop when level 1 holds too many files (RocksDB’s write stalls).' },
      ],
    }),
    slowdown: numberParam({ key: 'l0s', label: 'slow writes at', unit: 'level-1 files', default: 2, min: 1, max: 8, integer: true, help: 'RocksDB’s level0_slowdown_writes_trigger (default 20).' }),
    stop: numberParam({ key: 'l0x', label: 'stop writes at', unit: 'level-1 files', default: 4, min: 1, max: 8, integer: true, help: 'RocksDB’s level0_stop_writes_trigger (default 36). Level 1 is merged once it holds more runs than it may, so it never holds more than that plus one.' }),
    speed: numberParam({ key: 'spd', label: 'speed', unit: 'steps/s', default: 2, min: 0.5, max: 10, step: 0.5, help: 'Steps per second while playing.' }),
  },
  presets: [
    { id: 'classroom', label: 'Classroom: leveling, T = 3', values: { sizeRatio: 3, policy: 'leveling', allocation: 'monkey', bits: 5, merges: 'step' } },
    { id: 'tiering', label: 'Tiering, T = 3', values: { sizeRatio: 3, policy: 'tiering', allocation: 'monkey', bits: 5, merges: 'step' } },
    { id: 'uniform', label: 'Uniform filters (state of the art)', values: { sizeRatio: 3, policy: 'leveling', allocation: 'uniform', bits: 5, merges: 'step' } },
    {
      id: 'stalls',
      label: 'Write stalls: tiering, T = 4',
      description: 'Merges paced by the writes; writes slow down at 2 files in level 1 and stop at 4, until a merge empties it.',
      values: { sizeRatio: 4, policy: 'tiering', allocation: 'monkey', bits: 5, merges: 'paced', slowdown: 2, stop: 4 },
    },
  ],
});

/**
 * A link into the teaching view showing the tree another page describes (Learn's policy, size
 * ratio and bits), brought into the classroom tree's ranges: it is small on purpose.
 */
export function teachingLink(from: { policy: 'leveling' | 'tiering'; sizeRatio: number; bits: number }): string {
  const { sizeRatio, bits } = teachUrl.params;
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const state = {
    ...defaultsOf(teachUrl.params),
    policy: from.policy,
    sizeRatio: clamp(Math.round(from.sizeRatio), sizeRatio.min, sizeRatio.max),
    bits: clamp(Math.round(from.bits * 2) / 2, bits.min, bits.max),
  };
  return hashFor('teach', encodeQuery(teachUrl, state));
}
