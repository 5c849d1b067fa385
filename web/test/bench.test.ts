/** The storage benchmark's summary of repeated runs: medians, ranges and ratios to the plain store. */
import { describe, expect, it } from 'vitest';
import { median, summarizeBench, type BenchRow } from '../src/pages/bench/storageBench';

const row = (id: string, repeat: number, ins: number, get: number): BenchRow => ({
  id,
  label: id,
  repeat,
  inserts: 1000,
  insertsPerSecond: ins,
  lookups: 1000,
  lookupsPerSecond: get,
});

describe('storage benchmark summary', () => {
  it('medians, ranges and per-repeat ratios to the plain store', () => {
    const rows = [
      row('engine-opfs', 0, 400_000, 900_000),
      row('plain-idb', 0, 20_000, 30_000),
      row('engine-opfs', 1, 300_000, 600_000),
      row('plain-idb', 1, 10_000, 60_000),
      row('engine-opfs', 2, 500_000, 800_000),
      row('plain-idb', 2, 25_000, 40_000),
    ];
    const [opfs, plain] = summarizeBench(rows);
    expect(opfs.id).toBe('engine-opfs');
    expect(opfs.runs).toBe(3);
    expect(opfs.inserts).toEqual({ median: 400_000, min: 300_000, max: 500_000 });
    expect(opfs.lookups).toEqual({ median: 800_000, min: 600_000, max: 900_000 });
    // Ratios per repeat: 20, 30, 20 → 20; lookups 30, 10, 20 → 20.
    expect(opfs.insertsVsPlain).toBe(20);
    expect(opfs.lookupsVsPlain).toBe(20);
    expect(plain.insertsVsPlain).toBe(1);
  });

  it('median of an even count is the mean of the middle two; no plain row, no ratio', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(summarizeBench([row('engine-memory', 0, 1, 1)])[0].insertsVsPlain).toBeNull();
  });
});
