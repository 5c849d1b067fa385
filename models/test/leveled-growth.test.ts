// The project's own from-empty model (leveled-growth.ts). Its agreement with the engine and with a
// real LevelDB is measured live by interop/leveldb (`npm test -- leveldb`); here: the steps that
// can be worked out by hand, the shortcuts, the noise and the input errors.
import { describe, expect, it } from 'vitest';
import { ModelInputError, leveledGrowthWriteAmplification, type LeveledGrowthParams } from '../src';
import { near } from './msls-fixtures';

/** LevelDB 1.23's defaults in entries of 16 B keys + 100 B values, as interop/leveldb calibrates them. */
const LEVELDB_116B: LeveledGrowthParams = { keys: 500_000, bufferEntries: 28_221, levelEntries: [85_850], fileEntries: 17_170 };

describe('leveled growth from empty, worked by hand', () => {
  const engine = leveledGrowthWriteAmplification(LEVELDB_116B);
  const leveldb = leveledGrowthWriteAmplification({ ...LEVELDB_116B, leveldbShortcuts: true });

  it('a point per flush, the last at N', () => {
    expect(engine.points).toHaveLength(Math.ceil(500_000 / 28_221));
    expect(engine.points.map((p) => p.inserts).slice(0, 2)).toEqual([28_221, 56_442]);
    expect(engine.points.at(-1)?.inserts).toBe(500_000);
  });

  it('until level 0 holds 4 files, every write is written once, by its flush', () => {
    for (const p of engine.points.slice(0, 3)) {
      expect(p.total).toBe(1);
      expect(p.levels.every((v) => v === 0)).toBe(true);
    }
  });

  it('the 4th flush merges level 0 into level 1 (4B entries), which then spills 2 files of F into level 2', () => {
    const p = engine.points[3];
    // 4 × 28,221 = 112,884 > 85,850: two files of about 17,170 (± √F, the keys' noise) leave level 1.
    near(p?.levels[0] ?? NaN, 1, 1e-12);
    near((p?.levels[1] ?? NaN) * 112_884, 2 * 17_170, 4 * Math.sqrt(17_170));
    near(p?.total ?? NaN, 2 + (2 * 17_170) / 112_884, 0.005);
  });

  it("with LevelDB's shortcuts the first flushes skip level 0 and nothing is rewritten until the 6th flush", () => {
    // Flush 1 goes to level 2, flush 2 to level 1; flushes 3–6 fill level 0.
    expect(leveldb.points.slice(0, 5).map((p) => p.total)).toEqual([1, 1, 1, 1, 1]);
    expect(leveldb.points[5]?.total).toBeGreaterThan(2);
    expect(leveldb.flushesBelowLevel0).toBeGreaterThanOrEqual(2);
    expect(engine.flushesBelowLevel0).toBe(0);
    expect(engine.trivialMoves).toBe(0);
  });

  it('the shortcuts save writes by N (the merges fall at other times, so not at every flush)', () => {
    expect(engine.points.at(-1)?.total ?? 0).toBeGreaterThan((leveldb.points.at(-1)?.total ?? Infinity) * 1.05);
  });

  it('listed capacities: the levels beyond them grow by r from the last', () => {
    const listed = leveledGrowthWriteAmplification({ ...LEVELDB_116B, keys: 3_000_000, levelEntries: [85_850, 858_500], realisations: 2 });
    const implied = leveledGrowthWriteAmplification({ ...LEVELDB_116B, keys: 3_000_000, realisations: 2 });
    expect(listed.points).toEqual(implied.points);
    const wider = leveledGrowthWriteAmplification({ ...LEVELDB_116B, keys: 3_000_000, levelEntries: [85_850, 3_000_000], realisations: 2 });
    // A level 2 that holds everything: no level 3, and fewer writes than with one.
    expect(wider.points.at(-1)?.levels[2] ?? 0).toBe(0);
    expect(implied.points.at(-1)?.levels[2] ?? 0).toBeGreaterThan(0);
  });

  it('write amplification grows with N, one level at a time', () => {
    const big = leveledGrowthWriteAmplification({ ...LEVELDB_116B, keys: 10_000_000, realisations: 2 });
    const end = big.points.at(-1);
    expect(end?.levels.length).toBeGreaterThanOrEqual(4);
    expect(end?.total ?? 0).toBeGreaterThan(engine.points.at(-1)?.total ?? Infinity);
    // A full inner level passes every write on: at least once, at most 1 + r per write.
    for (const v of end?.levels.slice(0, 2) ?? []) {
      expect(v).toBeGreaterThan(1);
      expect(v).toBeLessThan(11);
    }
  });
});

describe('the noise of the keys', () => {
  it('is seeded: the same seed gives the same curve, another seed one within a few percent', () => {
    const a = leveledGrowthWriteAmplification(LEVELDB_116B);
    const b = leveledGrowthWriteAmplification(LEVELDB_116B);
    const c = leveledGrowthWriteAmplification({ ...LEVELDB_116B, seed: 99 });
    expect(b.points).toEqual(a.points);
    const [x, y] = [a.points.at(-1)?.total ?? NaN, c.points.at(-1)?.total ?? NaN];
    expect(y).not.toBe(x);
    expect(Math.abs(y / x - 1)).toBeLessThan(0.03);
  });

  it('the band holds the mean, and one realisation is its own band', () => {
    for (const p of leveledGrowthWriteAmplification(LEVELDB_116B).points) {
      expect(p.low).toBeLessThanOrEqual(p.total + 1e-12);
      expect(p.high).toBeGreaterThanOrEqual(p.total - 1e-12);
      expect(p.total).toBeCloseTo(p.flush + p.levels.reduce((a, b) => a + b, 0), 12);
    }
    const one = leveledGrowthWriteAmplification({ ...LEVELDB_116B, realisations: 1 }).points.at(-1);
    expect(one?.low).toBe(one?.total);
    expect(one?.high).toBe(one?.total);
  });
});

describe('bad input names the field and the range', () => {
  const cases: [Partial<Record<keyof LeveledGrowthParams, unknown>>, string][] = [
    [{ keys: 0 }, 'keys: must be an integer in [1, 100000000]'],
    [{ keys: 2e8 }, 'keys: must be an integer in [1, 100000000]'],
    [{ bufferEntries: Number.NaN }, 'bufferEntries'],
    [{ level0Trigger: 2.5 }, 'level0Trigger: must be an integer in [1, 1000]'],
    [{ growthFactor: 1 }, 'growthFactor: must be a number in (1, 1000000]'],
    [{ levelEntries: [] }, 'levelEntries: must list the capacities'],
    [{ levelEntries: [85_850, 0] }, 'levelEntries[1]: must be a number in [1, 1000000000000000]'],
    [{ fileEntries: 0 }, 'fileEntries: must be a number in [1, 1000000000000000]'],
    [{ leveldbShortcuts: 'yes' }, 'leveldbShortcuts: must be true or false'],
    [{ realisations: 0 }, 'realisations'],
  ];
  for (const [bad, message] of cases) {
    it(message, () => {
      const call = () => leveledGrowthWriteAmplification({ ...LEVELDB_116B, ...bad } as LeveledGrowthParams);
      expect(call).toThrow(ModelInputError);
      expect(call).toThrow(message);
    });
  }
});
