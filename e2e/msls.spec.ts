import { expect, test, type Page } from '@playwright/test';
import {
  mslsDensityProfile,
  mslsOptimizeLevelSizes,
  mslsResolveLevelParams,
  mslsWriteAmplification,
  unique,
  worstCaseWriteAmplification,
  type MslsLevelParams,
} from '../models/src/index';
import {
  chartPngSize,
  copyLink,
  csvLines,
  dataValue,
  downloadFrom,
  expectLinkShowsView,
  expectPng,
  expectReadsWell,
  openPage,
  parseSvg,
  readout,
  tooltipAt,
} from './helpers';
import { downloadEngineJson, engineExportPanel, enginePreview, openInLab } from './exportCard';

const MIB = 1024 * 1024;
/** The Zipf grouping the page's swept curves use (web/src/compute/sweeps/msls.ts, SWEEP_GROUPING). */
const SWEEP_GROUPING = { exactRanks: 100, groupRatio: 1.02 };
const UNIFORM = { kind: 'uniform' } as const;
const zipf = (theta: number) => ({ kind: 'zipf', theta }) as const;

/** The page's defaults: the paper's LevelDB setting, 10⁸ keys of 1000 B. */
function P(over: Partial<MslsLevelParams> = {}): MslsLevelParams {
  return {
    keySpace: 1e8,
    distribution: UNIFORM,
    entryBytes: 1000,
    writeBufferBytes: 4 * MIB,
    level0Trigger: 4,
    level1Bytes: 10 * MIB,
    growthFactor: 10,
    ...over,
  };
}
const wa = (p: MslsLevelParams) => mslsWriteAmplification(p);
const worst = (p: MslsLevelParams) => worstCaseWriteAmplification(p).total;

/**
 * Wait until a read-out shows the model's number. Chromium's and Node's Math.exp/expm1 may differ
 * in the last bit, so "equal" is 10 significant decimals, not string identity.
 */
async function shows(page: Page, testId: string, expected: number) {
  await expect.poll(() => readout(page, testId)).toBeCloseTo(expected, 10);
}

/** A bar chart's value label (bars carry their exact value in data-value). */
async function bar(page: Page, chart: string, category: string, series: string): Promise<number> {
  return dataValue(page.getByTestId(chart).locator(`g[data-category="${category}"] g[data-series="${series}"] text`));
}

/** Wait until no card says "computing…". */
async function settled(page: Page) {
  await expect(page.locator('.card-status', { hasText: 'computing' })).toHaveCount(0);
}

test('msls: moving controls redraws the numbers the models compute', async ({ page }) => {
  const errors = await openPage(page, 'msls', 'Write amplification (MSLS)');

  // Defaults = the paper's Table 1 design: 5 levels, MSLS 25.83 vs worst case 47.16.
  const base = wa(P());
  expect(await readout(page, 'wa-msls')).toBeCloseTo(base.total, 10);
  await expect(page.getByTestId('wa-msls')).toHaveText('25.83');
  expect(await readout(page, 'wa-worst')).toBeCloseTo(worst(P()), 10);
  await expect(page.getByTestId('wa-levels')).toHaveText('5');
  const sources = ['mem→log', 'mem→L0', 'L0→L1', 'L1→L2', 'L2→L3', 'L3→L4', 'L4→L5'];
  const mslsBars = [base.log, ...base.perLevel];
  const worstBars = [1, ...worstCaseWriteAmplification(P()).perLevel];
  for (const [i, s] of sources.entries()) {
    expect(await bar(page, 'msls-sources-chart', s, 'msls')).toBeCloseTo(mslsBars[i], 10);
    expect(await bar(page, 'msls-sources-chart', s, 'worst')).toBeCloseTo(worstBars[i], 10);
  }

  // Zipf keys and a smaller key space: read-outs, bars and table follow.
  await page.getByRole('radio', { name: 'Zipf' }).check();
  const z8 = wa(P({ distribution: zipf(0.99) }));
  await shows(page, 'wa-msls', z8.total);
  await page.getByRole('textbox', { name: /^Keys/ }).fill('10000000');
  const p7 = P({ keySpace: 1e7, distribution: zipf(0.99) });
  await expect(page.getByTestId('wa-levels')).toHaveText('4');
  expect(await readout(page, 'wa-msls')).toBeCloseTo(wa(p7).total, 10);
  expect(await bar(page, 'msls-sources-chart', 'L3→L4', 'msls')).toBeCloseTo(wa(p7).perLevel[4], 10);
  await expect(page.getByTestId('msls-sources-table').locator('tbody tr')).toHaveCount(7);

  // The swept curves come from the model worker; at the current N they equal the model there.
  await settled(page);
  const atN = await tooltipAt(page, 'msls-keys-chart', 1e7);
  expect(atN.x).toBe(1e7);
  expect(atN.y.uniform).toBeCloseTo(wa({ ...p7, distribution: UNIFORM }).total, 10);
  expect(atN.y.zipf).toBeCloseTo(wa({ ...p7, grouping: SWEEP_GROUPING }).total, 10);
  expect(atN.y.worst).toBeCloseTo(worst(p7), 10);
  const lastN = await tooltipAt(page, 'msls-keys-chart', 'End');
  expect(lastN.x).toBe(1e9);
  expect(lastN.y.uniform).toBeCloseTo(wa({ ...p7, keySpace: 1e9, distribution: UNIFORM }).total, 10);

  const skew = await tooltipAt(page, 'msls-skew-chart', 'End');
  expect(skew.x).toBe(1.5);
  expect(skew.y.msls).toBeCloseTo(wa({ ...p7, distribution: zipf(1.5), grouping: SWEEP_GROUPING }).total, 10);
  expect(skew.y.worst).toBeCloseTo(worst(p7), 10);

  // The level-size chart switches its x axis; growth factor 100 at the right end.
  await page.getByRole('radio', { name: 'Growth factor' }).check();
  await settled(page);
  await expect(page.getByTestId('msls-levels-chart').locator('.axis-x .axis-title')).toHaveText('growth factor r');
  const r100 = await tooltipAt(page, 'msls-levels-chart', 'End');
  expect(r100.x).toBe(100);
  expect(r100.y.zipf).toBeCloseTo(wa({ ...p7, growthFactor: 100, grouping: SWEEP_GROUPING }).total, 10);
  expect(r100.y.worst).toBeCloseTo(worst({ ...p7, growthFactor: 100 }), 10);

  // Optimised level sizes (worker) equal the optimiser's result for these parameters.
  const opt = mslsOptimizeLevelSizes(p7);
  await shows(page, 'opt-optimized', opt.optimized.total);
  expect(await readout(page, 'opt-baseline')).toBeCloseTo(opt.baseline.total, 10);
  expect(await readout(page, 'opt-gain')).toBeCloseTo(opt.gain, 10);
  expect(await readout(page, 'wa-gain')).toBeCloseTo(opt.gain, 10);
  const optRows = page.getByTestId('msls-optimize-table').locator('tbody tr');
  await expect(optRows).toHaveCount(4);
  // The WA surface is flat near the optimum, so last-bit differences move the sizes a little more.
  const size1Opt = await dataValue(optRows.nth(0).locator('td').nth(3));
  expect(Math.abs(size1Opt / opt.levelItems[0] - 1)).toBeLessThan(1e-6);
  await expect(page.getByTestId('opt-constraints')).toContainText('Size(l+1)/Size(l) ≥ 2');

  // Primitives: Unique(p)/N at p = 1000·N, and L1's density just before its cursor.
  const u = await tooltipAt(page, 'msls-unique-chart', 'End');
  expect(u.x).toBe(1e10);
  expect(u.y.uniform).toBeCloseTo(unique(1e10, 1e7, UNIFORM) / 1e7, 12);
  expect(u.y.zipf).toBeCloseTo(unique(1e10, 1e7, zipf(0.99)) / 1e7, 12);
  const size1 = mslsResolveLevelParams(p7).levelItems[0];
  const dens = await tooltipAt(page, 'msls-density-chart', 'End');
  expect(dens.y.L1).toBeCloseTo((mslsDensityProfile(size1, 1e7, zipf(0.99), 40)[39].density * 1e7) / size1, 10);

  // An impossible combination is explained next to its control; the figures keep the last valid design.
  const levels = page.getByRole('textbox', { name: /^Levels/ });
  await levels.fill('9');
  await expect(page.getByTestId('model-error')).toContainText('levels: must be an integer in [1, 4]');
  await expect(page.getByRole('alert').filter({ hasText: 'not a valid design' })).toBeVisible();
  expect(await readout(page, 'wa-msls')).toBeCloseTo(wa(p7).total, 10);
  await levels.fill('3');
  await expect(page.getByTestId('model-error')).toHaveCount(0);
  await expect(page.getByTestId('wa-levels')).toHaveText('3');
  expect(await readout(page, 'wa-msls')).toBeCloseTo(wa({ ...p7, levels: 3 }).total, 10);

  // A write buffer larger than level 1 brings up the model's own warning.
  await page.getByRole('textbox', { name: /^Write buffer/ }).fill('64');
  await expect(page.getByTestId('model-warnings')).toContainText('Size(1) is smaller than the write buffer');
  expect(await readout(page, 'wa-msls')).toBeCloseTo(wa({ ...p7, levels: 3, writeBufferBytes: 64 * MIB }).total, 10);

  expect(page.workers().some((w) => w.url().includes('model.worker'))).toBe(true);
  expect(errors).toEqual([]);
});

test('msls: the URL holds the view; Copy link restores it exactly; presets, reset, bad links', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openPage(page, 'msls');
  await page.getByRole('textbox', { name: /^Keys/ }).fill('33000000');
  await page.getByRole('radio', { name: 'Zipf' }).check();
  await page.getByRole('textbox', { name: /^Zipf skew/ }).fill('1.1');
  await page.getByRole('textbox', { name: /^Level-1 size/ }).fill('25');
  await page.getByRole('textbox', { name: /^Growth factor/ }).fill('8');
  await page.getByRole('radio', { name: 'Level-1 size' }).check();
  await expect(page).toHaveURL(/#\/msls\?v=1&N=33000000&E=1000&d=z&th=1\.1&buf=4&c0=4&l1=25&r=8&L=0&x=l1$/);
  const p = P({ keySpace: 33e6, distribution: zipf(1.1), level1Bytes: 25 * MIB, growthFactor: 8 });
  await shows(page, 'wa-msls', wa(p).total);

  const link = await copyLink(page);

  const view = async (q: Page) => {
    await settled(q);
    return {
      msls: await q.getByTestId('wa-msls').getAttribute('data-value'),
      worst: await q.getByTestId('wa-worst').getAttribute('data-value'),
      levels: await q.getByTestId('wa-levels').textContent(),
      optimized: await q.getByTestId('opt-optimized').getAttribute('data-value'),
      // The box keeps the user's own spelling (33000000) until the value changes from outside (33,000,000).
      keys: Number((await q.getByRole('textbox', { name: /^Keys/ }).inputValue()).replace(/,/g, '')),
      theta: await q.getByRole('textbox', { name: /^Zipf skew/ }).inputValue(),
      zipf: await q.getByRole('radio', { name: 'Zipf' }).isChecked(),
      axis: await q.getByTestId('msls-levels-chart').locator('.axis-x .axis-title').textContent(),
    };
  };
  const before = await view(page);
  expect(before).toMatchObject({ keys: 33e6, theta: '1.1', zipf: true, axis: 'level-1 size (MiB)' });

  await expectLinkShowsView(context, link, { view, before, ready: (second) => shows(second, 'wa-msls', wa(p).total), reload: true });

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/#\/msls\?v=1&N=100000000&E=1000&d=u&th=0\.99&buf=4&c0=4&l1=10&r=10&L=0&x=buf$/);
  await expect(page.getByTestId('wa-msls')).toHaveText('25.83');
  await expect(page.getByRole('combobox', { name: 'Preset' })).toHaveValue('leveldb');

  // The browser-scale preset: 10⁶ keys of 116 B, 1 MiB buffer.
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('browser');
  await expect(page.getByRole('textbox', { name: /^Keys/ })).toHaveValue('1,000,000');
  await expect(page.getByRole('textbox', { name: /^Entry size/ })).toHaveValue('116');
  const browser = P({ keySpace: 1e6, entryBytes: 116, writeBufferBytes: MIB });
  await shows(page, 'wa-msls', wa(browser).total);
  await expect(page.getByTestId('wa-levels')).toHaveText(String(wa(browser).resolved.levels));

  await page.goto('/#/msls?v=1&N=5&d=q&r=1e9&zz=1');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('N=5 is not valid (keys must be a whole number between 1,000 and 100,000,000,000)');
  await expect(notices).toContainText('d=q is not valid');
  await expect(notices).toContainText('r=1e9 is not valid (growth factor must be between 1.5 and 1,000)');
  await expect(notices).toContainText('"zz" is not used on this page');
  await expect(page.getByTestId('wa-msls')).toHaveText('25.83');
  expect(errors).toEqual([]);
});

test('msls: charts and tables download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto('/#/msls?v=1&N=100000000&E=1000&d=u&th=0.99&buf=4&c0=4&l1=10&r=10&L=0&x=buf');
  await settled(page);
  const card = page.getByTestId('card-wa-keys');
  await expect(card.locator('svg.chart-svg')).toBeVisible();
  const stem = 'lsm-msls_wa-keys_N100000000_E1000_d-u_th0.99_buf4_c04_l110_r10_L0_x-buf';

  const svg = await downloadFrom(card, 'SVG');
  expect(svg.name).toBe(`${stem}.svg`);
  const parsed = await parseSvg(page, svg.bytes, { paths: 'path' });
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  expect(parsed.texts).toContain('keys N (keys)');
  expect(parsed.texts).toContain('write amplification (×)');
  expect(parsed.texts).toContain('worst case (no redundancy)');
  expect(parsed.texts).toContain('MSLS 25.83');
  expect(parsed.counts.paths).toBeGreaterThanOrEqual(3);

  const png = await downloadFrom(card, 'PNG');
  expect(png.name).toBe(`${stem}.png`);
  const pixels = expectPng(png.bytes);
  expect(pixels).toEqual(await chartPngSize(card));

  const csv = csvLines((await downloadFrom(card, 'CSV')).bytes);
  expect(csv[0]).toBe('keys N (keys),"MSLS, uniform (×)","MSLS, Zipf θ = 0.99 (×)",worst case (no redundancy) (×)');
  expect(csv).toHaveLength(1 + 31);
  const at1e8 = csv.find((l) => l.startsWith('100000000,'))?.split(',').map(Number) ?? [];
  expect(at1e8[1]).toBeCloseTo(25.8346, 3);
  expect(at1e8[1]).toBeCloseTo(wa(P()).total, 10);
  expect(at1e8[2]).toBeCloseTo(wa(P({ distribution: zipf(0.99), grouping: SWEEP_GROUPING })).total, 10);
  expect(at1e8[3]).toBeCloseTo(47.1617, 3);

  // Table-backed cards export their rows (Table 1 layout).
  const sources = csvLines((await downloadFrom(page.getByTestId('card-wa-sources'), 'CSV')).bytes);
  expect(sources[0]).toBe(
    'source,MSLS write amplification (×),worst-case write amplification (×),MSLS interval (inserts),MSLS items written per interval (items)',
  );
  expect(sources).toHaveLength(1 + 8);
  expect(Number(sources.at(-1)?.split(',')[1])).toBeCloseTo(wa(P()).total, 10);
  const optimized = csvLines((await downloadFrom(page.getByTestId('card-optimize'), 'CSV')).bytes);
  expect(optimized).toHaveLength(1 + 5);
  expect(optimized[1].split(',')[0]).toBe('L1');
});

/**
 * The engine levels of an MSLS design, from the model's level sizes (items; the last is N): level 0
 * (the engine's level 1) compacts at c0 files, then Size(l+1)/Size(l) with leveling; the last
 * level holds N entries with 25 % headroom (rounded up to six digits), at least r (see
 * web/src/documents/designs/msls.ts).
 */
function engineLevels(p: MslsLevelParams, items: readonly number[]) {
  const ceil6 = (v: number) => {
    const unit = 10 ** (Math.floor(Math.log10(v)) - 5);
    return Number((Math.ceil(v / unit - 1e-9) * unit).toPrecision(6));
  };
  const E = p.entryBytes ?? 1000;
  const r = p.growthFactor ?? 10;
  let above = p.writeBufferBytes ?? 4 * MIB;
  return items.map((size, i) => {
    const last = i === items.length - 1;
    const exact = (size * E) / above;
    const ratio = last ? Math.max(r, ceil6(1.25 * exact)) : Number(Math.max(1, exact).toPrecision(6));
    above *= ratio;
    return { size_ratio: ratio, max_runs: i === 0 ? Math.max(1, (p.level0Trigger ?? 4) - 1) : 1 };
  });
}

test('msls: the export card exports the level layout, follows the controls and opens it in the lab', async ({ page }) => {
  const errors = await openPage(page, 'msls');
  await settled(page);
  const panel = await engineExportPanel(page);
  const preview = enginePreview(panel);

  // The user's design: LevelDB's geometric sizes, 10 MiB level 1 = 2.5 write buffers.
  const base = P();
  const levels = engineLevels(base, mslsResolveLevelParams(base).levelItems);
  expect(levels.map((l) => l.size_ratio)).toEqual([2.5, 10, 10, 10, 11.921]);
  await expect(preview).toContainText('"size_ratio": 2.5,');
  const yours = await downloadEngineJson(panel);
  expect(yours.name).toBe('lsm-msls-c0-4-l1-10mib-r10.json');
  expect(yours.config).toMatchObject({
    page_bytes: 4096,
    buffer_bytes: 4 * MIB,
    levels,
    filter: { allocation: 'uniform', bits_per_key: 10 },
    compaction: { granularity: 'file', target_file_bytes: 2 * MIB },
  });

  // A level-1 size, growth factor and level-0 trigger change the exported levels.
  await page.getByRole('textbox', { name: /^Level-1 size/ }).fill('20');
  await page.getByRole('textbox', { name: /^Growth factor/ }).fill('8');
  await page.getByRole('textbox', { name: /^Level-0 trigger/ }).fill('6');
  await expect(preview).toContainText(/"size_ratio": 5(\.0)?,/);
  await expect(preview).toContainText('"max_runs": 5');
  const p = P({ level1Bytes: 20 * MIB, growthFactor: 8, level0Trigger: 6 });
  const changed = await downloadEngineJson(panel);
  expect(changed.name).toBe('lsm-msls-c0-6-l1-20mib-r8.json');
  expect(changed.config.levels).toEqual(engineLevels(p, mslsResolveLevelParams(p).levelItems));
  expect(changed.config.levels).toHaveLength(mslsResolveLevelParams(p).levels);

  // The optimiser's level sizes, once the worker has them.
  await settled(page);
  await panel.getByRole('radio', { name: 'MSLS-optimized level sizes' }).check();
  await expect(preview).toContainText('MSLS-optimized level sizes');
  const optimized = await downloadEngineJson(panel);
  expect(optimized.name).toBe(`lsm-msls-optimized-c0-6-l${mslsResolveLevelParams(p).levels}.json`);
  const want = engineLevels(p, mslsOptimizeLevelSizes(p).levelItems);
  expect(optimized.config.levels).toHaveLength(want.length);
  optimized.config.levels.forEach((l, i) => {
    // The WA surface is flat near the optimum: Chromium's and Node's last bits may move the sizes a little.
    expect(Math.abs(l.size_ratio / want[i].size_ratio - 1)).toBeLessThan(1e-4);
    expect(l.max_runs).toBe(want[i].max_runs);
  });
  await expect(page).toHaveURL(/#\/msls\?v=1&N=100000000&E=1000&d=u&th=0\.99&buf=4&c0=6&l1=20&r=8&L=0&x=buf$/);

  // Run in the lab: the lab's design controls hold the optimised levels.
  const lab = await openInLab(panel);
  const ratios = (await lab.getByRole('textbox', { name: /^Size ratios/ }).inputValue()).split(',').map((v) => Number(v.replace(/\s/g, '')));
  expect(ratios).toEqual(optimized.config.levels.map((l) => l.size_ratio));
  await expect(lab.getByRole('textbox', { name: /^Runs per level/ })).toHaveValue(optimized.config.levels.map((l) => l.max_runs).join(', '));
  await expect(lab.getByRole('radio', { name: 'By file' })).toBeChecked();
  await expect(lab.getByRole('combobox', { name: 'Filter allocation' })).toHaveValue('uniform');
  expect(errors).toEqual([]);
});

test('msls: the page reads well at 1280×800 and on a phone', async ({ page }) => {
  const started = Date.now();
  await page.goto('/#/msls?v=1&N=100000000&E=1000&d=z&th=0.99&buf=4&c0=4&l1=10&r=10&L=0&x=buf');
  await expect(page.getByTestId('msls-density-chart')).toBeVisible();
  await settled(page);
  // How long a cold Zipf 10⁸ view takes to draw every chart (model worker, serial).
  test.info().annotations.push({ type: 'zipf-1e8-all-charts-ms', description: String(Date.now() - started) });
  await expectReadsWell(page, 'msls', { width: 390, height: 844 }, page.getByTestId('card-wa-sources'));
});
