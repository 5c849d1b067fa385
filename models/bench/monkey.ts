/**
 * Monkey benchmarks: the holistic design search (target < 1 ms, it runs on every control change)
 * and 200-point curve sweeps of `costs` (target < 16 ms, one animation frame).
 */
import { costs, monkeySweepValues, monkeyWhatIf } from '../src/monkey';
import { holisticDesign } from '../src/monkey-holistic';
import type { Dataset, Design, Hardware, Workload } from '../src/types';
import { report, time } from './timing';

const MIB = 2 ** 20;

export function runMonkeyBench(): string[] {
  // The paper's experimental data (2^20 × 1 KiB, 16 KiB pages) and Fig 7's data set (2^35 × 16 B).
  const small: Dataset = { entries: 2 ** 20, entryBytes: 1024, pageBytes: 16384 };
  const large: Dataset = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096 };
  const hardware: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
  const mixed: Workload = { pointLookups: 0.5, nonZeroFraction: 0.3, rangeLookups: 0.1, updates: 0.4, rangeSelectivity: 1e-5 };
  const design: Design = { policy: 'leveling', sizeRatio: 10, bufferBytes: MIB, filterBitsPerEntry: 10, allocation: 'monkey' };
  const bits = monkeySweepValues(0, 20, 200);
  const ratios = monkeySweepValues(2, 100, 200, 'log');
  const smallMemory = (10 * 2 ** 20 + 8 * MIB) / 8;

  return [
    report(time('monkey holisticDesign (2^20 entries, 2.25 MiB)', () => holisticDesign(small, mixed, hardware, smallMemory)), { maxMs: 1 }),
    report(time('monkey holisticDesign (2^35 entries, 20 GiB)', () => holisticDesign(large, mixed, hardware, 20 * 2 ** 30)), { maxMs: 1 }),
    report(
      time('monkey costs × 200 (bits/entry sweep)', () => bits.map((b) => costs(small, { ...design, filterBitsPerEntry: b }, mixed, hardware))),
      { maxMs: 16 },
    ),
    report(
      time('monkey costs × 200 (size-ratio sweep, 2^35)', () => ratios.map((t) => costs(large, { ...design, sizeRatio: t }, mixed, hardware))),
      { maxMs: 16 },
    ),
    report(time('monkey whatIf × 200 (both allocations + closed forms)', () => monkeyWhatIf(small, design, mixed, hardware, 'filterBitsPerEntry', bits)), {
      maxMs: 16,
    }),
  ];
}
