/**
 * The Tune page's recommendation: Endure's robust tuning over Monkey's space (nominal and robust
 * designs, 2,401 candidates, the KL dual for each) at 10M records of 1 KiB, YCSB B's mix.
 * Target: the whole recommendation, robust included, under 50 ms.
 */
import { robustTuning } from '../src/endure';
import type { Dataset, Hardware, Workload } from '../src/types';
import { report, time } from './timing';

export function runEndureBench(): string[] {
  const ten: Dataset = { entries: 10_000_000, entryBytes: 1023, pageBytes: 4096 };
  const ycsbB: Workload = { pointLookups: 0.95, nonZeroFraction: 1, rangeLookups: 0, updates: 0.05, rangeSelectivity: 0 };
  const hardware: Hardware = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };
  const memory = 64 * 2 ** 20 + (10 * ten.entries) / 8;
  return [0, 0.5].map((rho) =>
    report(time(`robustTuning (10M records, YCSB B, ρ = ${rho})`, () => robustTuning(ten, ycsbB, hardware, memory, rho, { maxBitsPerEntry: 64 }), { rounds: 5, budgetMs: 2_000 }), { maxMs: 50 }),
  );
}
