import { describe, expect, it } from 'vitest';
import {
  mooseCosts,
  mooseLevelCapacities,
  mooseOptimalBitsPerEntry,
  moosePresetLayouts,
  mooseRuCurve,
  smoose,
  type MooseLevel,
  type Workload,
} from '@lsm/models';
import { runSweep } from '../src/compute/sweeps';
import { compareDesigns, designSpace, LAST_LEVEL_FRACTIONS, layoutView, ruCurves, type MooseEnv } from '../src/compute/sweeps/moose';
import {
  addLevel,
  ceilRatio,
  checkDraft,
  fitLastLevel,
  removeLevel,
  tableFromLayout,
  trimRatio,
  type DraftRow,
  type TableLevel,
} from '../src/documents/mooseTable';
import { engineConfigJson, mooseEngineHeadroom, mooseLayoutToEngineConfig } from '../src/documents/designs/moose';
import { mooseUrl } from '../src/documents/urls/moose';
import { listsProblem } from '../src/pages/moose/modelInputs';
import { mixProblem, workloadOf } from '../src/documents/params/workloadMix';
import { decodeQuery, encodeQuery } from '../src/documents/url/codec';
import { defaultsOf } from '../src/documents/url/params';

const MIB = 1024 * 1024;
/** The page's default data set: N/F = 12 000 (reference §7.5, E6). */
const DS = { entries: 24_576_000, entryBytes: 1024, pageBytes: 4096 };
const ENV = { dataset: DS, bufferBytes: 2 * MIB };
const MOOSE_ENV: MooseEnv = { ...ENV, memoryBytes: (5 * DS.entries) / 8, updateModel: 'paper' };
const WL_I: Workload = { pointLookups: 0.4, nonZeroFraction: 0, rangeLookups: 0.2, updates: 0.4, rangeSelectivity: 0 };
const rows = (t: readonly TableLevel[]): DraftRow[] => t.map((l) => ({ ratio: String(l.sizeRatio), runs: String(l.runs), bits: String(l.bitsPerEntry) }));
const PRESETS = moosePresetLayouts(DS, { sizeRatio: 10, bitsPerEntry: 5, bufferBytes: 2 * MIB });

describe('ratio rounding', () => {
  it('cuts inner ratios to six digits without crossing an integer, and rounds the last one up', () => {
    expect(trimRatio(10.8010716)).toBe(10.801);
    expect(trimRatio(5.833819)).toBe(5.83381);
    expect(trimRatio(7)).toBe(7);
    expect(trimRatio(2.9999996)).toBe(2.99999);
    expect(ceilRatio(4.797614)).toBe(4.79762);
    expect(ceilRatio(10)).toBe(10);
    expect(ceilRatio(243.7552)).toBe(243.756);
  });
});

describe('tableFromLayout', () => {
  it('gives the page’s default table for default Moose (E6: 7,7,7,5.83,4.80 / 3,3,3,2,2)', () => {
    const t = tableFromLayout(ENV, PRESETS.moose);
    const d = defaultsOf(mooseUrl.params);
    expect(t.map((l) => l.sizeRatio)).toEqual(d.ratios);
    expect(t.map((l) => l.runs)).toEqual(d.runs);
    expect(t.map((l) => l.bitsPerEntry)).toEqual(d.bits);
  });

  it('keeps every run of every preset and stays within 2e-5 of the model’s costs', () => {
    for (const layout of [PRESETS.leveling, PRESETS.tiering, PRESETS.lazyLeveling, PRESETS.moose]) {
      const t = tableFromLayout(ENV, layout);
      const exact = mooseCosts(DS, layout, WL_I, ENV);
      const rounded = mooseCosts(DS, t, WL_I, ENV);
      expect(rounded.levels.map((l) => l.runs)).toEqual(exact.levels.map((l) => l.runs));
      expect(Math.abs(rounded.weighted - exact.weighted) / exact.weighted).toBeLessThan(2e-5);
    }
  });

  it('fits Smoose’s layouts (fractional inner ratios included)', () => {
    const r = smoose(DS, WL_I, MOOSE_ENV.memoryBytes, ENV);
    const t = tableFromLayout(ENV, r.levels);
    expect(t.map((l) => l.runs)).toEqual(r.levels.map((l) => l.runs));
    expect(checkDraft(ENV, rows(t), true).levels).toEqual(t);
  });
});

describe('checkDraft', () => {
  const base = tableFromLayout(ENV, PRESETS.moose);

  it('accepts the default table and reports what the model does with it', () => {
    const c = checkDraft(ENV, rows(base), true);
    expect(c.levels).toEqual(base);
    expect(c.table).toBeNull();
    expect(c.notes).toEqual([]);
  });

  it('explains each impossible cell next to it', () => {
    const draft = rows(base);
    draft[0] = { ...draft[0], ratio: '1.5' };
    draft[1] = { ...draft[1], runs: '8' };
    draft[2] = { ...draft[2], runs: '2.5' };
    draft[3] = { ...draft[3], bits: '65' };
    draft[4] = { ...draft[4], ratio: '0.5' };
    const c = checkDraft(ENV, draft, true);
    expect(c.levels).toBeNull();
    expect(c.rows[0].ratio).toBe('size ratio must be a number between 2 and 1,000,000');
    expect(c.rows[1].runs).toBe('runs must be a whole number between 1 and 7 (floor of the size ratio 7)');
    expect(c.rows[2].runs).toBe('runs must be a whole number between 1 and 7 (floor of the size ratio 7)');
    expect(c.rows[3].bits).toBe('bits per entry must be a number between 0 and 64');
    expect(c.rows[4].ratio).toBe('size ratio (last level) must be a number between 1 and 1,000,000');
    // With optimal filters the bits column is not the user's, so it is not checked.
    expect(checkDraft(ENV, draft, false).rows[3].bits).toBeNull();
  });

  it('says how big the last level must be, and fitLastLevel makes it so', () => {
    const draft = rows(base);
    draft[4] = { ...draft[4], ratio: '3' };
    const c = checkDraft(ENV, draft, true);
    expect(c.levels).toBeNull();
    expect(c.fitRatio).toBe(4.79762);
    expect(c.table).toContain('its size ratio must be at least 4.79762');
    const fitted = fitLastLevel(ENV, base.map((l, i) => (i === 4 ? { ...l, sizeRatio: 3 } : l)));
    expect(fitted?.[4].sizeRatio).toBe(4.79762);
  });

  it('refuses inner levels that already hold the whole data set', () => {
    const c = checkDraft(ENV, rows([{ sizeRatio: 1000, runs: 1, bitsPerEntry: 0 }, { sizeRatio: 1000, runs: 1, bitsPerEntry: 0 }, { sizeRatio: 2, runs: 1, bitsPerEntry: 0 }]), true);
    expect(c.table).toContain('Levels 1–2 already hold 2,050,048,000 entries, at least the 24,576,000 in the data set');
    expect(c.fitRatio).toBeNull();
  });

  it('notes when the last level holds too little for its runs', () => {
    const t = base.map((l, i) => (i === 4 ? { ...l, sizeRatio: 40, runs: 30 } : l));
    const c = checkDraft(ENV, rows(t), true);
    expect(c.levels).not.toBeNull();
    expect(c.notes[0]).toBe('Level 5 holds 4.79761× level 4, so the model counts 4 runs there, not 30.');
  });
});

describe('adding and removing levels', () => {
  const base = tableFromLayout(ENV, PRESETS.moose);

  it('refuses a new level when the last one is less than six times the one above', () => {
    const r = addLevel(ENV, base);
    expect('problem' in r && r.problem).toContain('No room for another level: the last level holds 4.79761×');
  });

  it('removes a level, refits the last, and can split it again', () => {
    const removed = removeLevel(ENV, base, 4);
    if ('problem' in removed) throw new Error(removed.problem);
    expect(removed.table).toHaveLength(4);
    const caps = mooseLevelCapacities(DS, removed.table, ENV);
    expect(caps.capacityEntries[3] / caps.entries[3]).toBeGreaterThanOrEqual(1);
    expect(caps.capacityEntries[3] / caps.entries[3]).toBeLessThan(1 + 1e-5);
    const added = addLevel(ENV, removed.table);
    if ('problem' in added) throw new Error(added.problem);
    expect(added.table).toHaveLength(5);
    expect(checkDraft(ENV, rows(added.table), true).levels).toEqual(added.table);
    expect(removeLevel(ENV, [base[0]], 0)).toEqual({ problem: 'A tree needs at least one level.' });
  });
});

describe('engine config', () => {
  const levels: MooseLevel[] = tableFromLayout(ENV, PRESETS.moose);

  it('is the engine’s document with explicit per-level filters and headroom on the last level', () => {
    const config = mooseLayoutToEngineConfig(DS, levels, 2 * MIB);
    expect(config).toMatchObject({ kind: 'lsm-navigator/engine-config', version: 1, page_bytes: 4096, buffer_bytes: 2 * MIB, filter: { allocation: 'explicit', bits_per_key: 0 } });
    expect(config.levels.map((l) => [l.size_ratio, l.max_runs])).toEqual([[7, 3], [7, 3], [7, 3], [5.83381, 2], [5.99702, 2]]);
    expect(config.levels[0].bits_per_key).toBeCloseTo(20.055, 12);
    const h = mooseEngineHeadroom(DS, levels, 2 * MIB);
    expect(h.engineCapacity).toBeGreaterThanOrEqual(1.25 * h.lastEntries);
    expect(h.engineCapacity).toBeLessThan(1.2501 * h.lastEntries);
  });

  it('keeps a last level that already has the headroom, and prints one line per level', () => {
    const roomy = levels.map((l, i) => (i === 4 ? { ...l, sizeRatio: 10 } : l));
    const config = mooseLayoutToEngineConfig(DS, roomy, 2 * MIB);
    expect(config.levels[4].size_ratio).toBe(10);
    const text = engineConfigJson(config);
    expect(JSON.parse(text)).toEqual(config);
    expect(text).toContain('\n    {"size_ratio":7,"max_runs":3,"bits_per_key":');
  });

  it('rejects what the engine cannot build', () => {
    expect(() => mooseLayoutToEngineConfig(DS, [{ sizeRatio: 12000, runs: 1, bitsPerEntry: 5 }], 2 * MIB)).toThrow(/sizeRatio/);
  });
});

describe('sweeps', () => {
  it('evaluates the user’s layout with the optimal split or its own bits', () => {
    const levels = tableFromLayout(ENV, PRESETS.moose);
    const v = layoutView({ ...MOOSE_ENV, workload: WL_I, levels, optimalFilters: true });
    const bits = mooseOptimalBitsPerEntry(DS, levels, MOOSE_ENV.memoryBytes, ENV);
    expect(v.optimalBits).toEqual(bits);
    expect(v.costs.weighted).toBe(mooseCosts(DS, levels.map((l, i) => ({ ...l, bitsPerEntry: bits[i] })), WL_I, ENV).weighted);
    expect(v.filterBitsPerEntry).toBeCloseTo(5, 9);
    expect(v.lastLevelFraction).toBeCloseTo(0.8, 3);
    const own = layoutView({ ...MOOSE_ENV, workload: WL_I, levels: levels.map((l) => ({ ...l, bitsPerEntry: 1 })), optimalFilters: false });
    expect(own.filterBitsPerEntry).toBeCloseTo(1, 12);
  });

  it('compares designs with the model’s costs', () => {
    const [row] = compareDesigns({ dataset: DS, workload: WL_I, options: ENV, designs: [{ id: 'l', label: 'Leveling', short: 'Lev', levels: PRESETS.leveling }] });
    const c = mooseCosts(DS, PRESETS.leveling, WL_I, ENV);
    expect(row).toMatchObject({ id: 'l', levels: 4, zeroResultPoint: c.zeroResultPoint, range: c.range, update: c.update, weighted: c.weighted });
  });

  it('draws four families of finite designs; leveling at T = 10 is the preset', () => {
    const { points } = designSpace({ ...MOOSE_ENV, workload: WL_I });
    for (const f of ['leveling', 'tiering', 'lazyLeveling', 'moose']) expect(points.filter((p) => p.family === f).length).toBeGreaterThan(10);
    for (const p of points) for (const v of [p.zeroResultPoint, p.range, p.update, p.weighted]) expect(Number.isFinite(v) && v > 0).toBe(true);
    const lev10 = points.find((p) => p.label.startsWith('Leveling T = 10,'));
    expect(lev10?.weighted).toBeCloseTo(mooseCosts(DS, PRESETS.leveling, WL_I, ENV).weighted, 12);
  });

  it('gives the RU-curve of the current ratios and of the DP for the same N_L', () => {
    const ratios = tableFromLayout(ENV, PRESETS.leveling).map((l) => l.sizeRatio);
    const r = ruCurves({ ...MOOSE_ENV, sizeRatios: ratios });
    const direct = mooseRuCurve(DS, ratios, MOOSE_ENV.memoryBytes, ENV);
    expect(r.current.points).toEqual(direct.points);
    expect(r.current.sumSqrtRatios).toBe(direct.sumSqrtRatios);
    for (const p of r.current.continuous) expect(p.range * p.update).toBeCloseTo(direct.productBound, 9);
    // The DP minimises Σ√r for the same last level (rounded to whole buffers, inner ratios whole):
    // it matches leveling's near-optimal equal ratios to within 0.01%.
    expect(r.dp).not.toBeNull();
    expect(r.dp?.sumSqrtRatios ?? Infinity).toBeLessThan(direct.sumSqrtRatios * 1.0001);
    expect(r.lastLevelFraction).toBeCloseTo(0.9, 1);
  });

  it('sweeps N_L/N from 0.5 to 0.99 through the worker registry', () => {
    const out = runSweep('moose.lastLevel', { ...MOOSE_ENV, workload: WL_I });
    expect(out.points.map((p) => p.fraction)).toEqual(LAST_LEVEL_FRACTIONS);
    expect(LAST_LEVEL_FRACTIONS[0]).toBe(0.5);
    expect(LAST_LEVEL_FRACTIONS[49]).toBe(0.99);
    const choice = runSweep('moose.smoose', { ...MOOSE_ENV, workload: WL_I });
    expect(choice.result.objective).toBe(smoose(DS, WL_I, MOOSE_ENV.memoryBytes, ENV).objective);
  });
});

describe('page state', () => {
  it('round-trips the table through the URL and checks the mix and the lists', () => {
    const d = defaultsOf(mooseUrl.params);
    const q = encodeQuery(mooseUrl, { ...d, ratios: [10.801, 10, 10, 10], runs: [1, 1, 1, 1], bits: [1, 2, 3, 4] });
    expect(q).toContain('&T=10.801,10,10,10&K=1,1,1,1&b=1,2,3,4&');
    const back = decodeQuery(mooseUrl, q);
    expect(back.notices).toEqual([]);
    expect(back.state.ratios).toEqual([10.801, 10, 10, 10]);
    expect(listsProblem({ ...d, runs: [1] })).toContain('lists 5 size ratios (T), 1 run counts (K)');
    expect(mixProblem({ zeroResult: 40, nonZeroResult: 0, range: 30, update: 40 })).toContain('adds up to 110%');
    expect(mixProblem({ zeroResult: 33.4, nonZeroResult: 0, range: 33.3, update: 33.3 })).toBeNull();
    expect(workloadOf({ zeroResult: 30, nonZeroResult: 10, range: 20, update: 40 }, 0.001)).toEqual({
      pointLookups: 0.4,
      nonZeroFraction: 0.25,
      rangeLookups: 0.2,
      updates: 0.4,
      rangeSelectivity: 0.001,
    });
  });

  it('offers Table 4’s workloads as presets', () => {
    const presets = mooseUrl.presets ?? [];
    expect(presets.map((p) => p.id)).toEqual(['wl-a', 'wl-b', 'wl-c', 'wl-d', 'wl-e', 'wl-f', 'wl-g', 'wl-h', 'wl-i', 'wl-j']);
    const i = presets.find((p) => p.id === 'wl-i');
    expect(i?.values).toEqual({ range: 20, update: 40, zeroResult: 40, nonZeroResult: 0, selectivity: 0 });
  });
});
