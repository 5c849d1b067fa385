import { expect, test, type Page } from '@playwright/test';
import {
  mooseCosts,
  mooseLevelCapacities,
  mooseOptimalBitsPerEntry,
  moosePresetLayouts,
  mooseRuCurve,
  mooseToEngineLevels,
  smoose,
  type Dataset,
  type MooseCosts,
  type MooseLevel,
  type Workload,
} from '../models/src/index';
import {
  chartPngSize,
  controlsLeftOf,
  copyLink,
  csvLines,
  dataValue,
  downloadFrom,
  expectLinkShowsView,
  expectPng,
  expectReadsWell,
  openPage,
  parseSvg,
  pressOnChart,
  readout,
  tooltipValue,
} from './helpers';

const MIB = 1024 * 1024;
/** The page's defaults: N/F = 12 000, 1 KiB entries, 4 KiB pages, 2 MiB buffer, 5 bits/entry. */
const DS: Dataset = { entries: 24_576_000, entryBytes: 1024, pageBytes: 4096 };
const OPTS = { bufferBytes: 2 * MIB, updateModel: 'paper' as const };
const MEM = (5 * DS.entries) / 8;
/** Moose Table 4, workload I (the default): 20% range, 40% update, 40% zero-result point. */
const WL_I: Workload = { pointLookups: 0.4, nonZeroFraction: 0, rangeLookups: 0.2, updates: 0.4, rangeSelectivity: 0 };
const DEFAULT_RATIOS = [7, 7, 7, 5.83381, 4.79762];
const DEFAULT_RUNS = [3, 3, 3, 2, 2];

/** The costs the page must show for a table: optimal bits unless `bits` is given. */
function costsOf(ratios: number[], runs: number[], wl: Workload = WL_I, bits?: number[]): MooseCosts {
  const shape = ratios.map((r, i) => ({ sizeRatio: r, runs: runs[i] }));
  const b = bits ?? mooseOptimalBitsPerEntry(DS, shape, MEM, OPTS);
  const levels: MooseLevel[] = shape.map((l, i) => ({ ...l, bitsPerEntry: b[i] }));
  return mooseCosts(DS, levels, wl, OPTS);
}

const cell = (page: Page, level: number, what: 'size ratio' | 'runs' | 'bits per entry') =>
  page.getByRole('textbox', { name: `Level ${level} ${what}`, exact: true });

async function readTable(page: Page): Promise<{ ratios: number[]; runs: number[] }> {
  const rows = await page.getByTestId('level-table').locator('tbody tr').count();
  const ratios: number[] = [];
  const runs: number[] = [];
  for (let i = 1; i <= rows; i++) {
    ratios.push(Number(await cell(page, i, 'size ratio').inputValue()));
    runs.push(Number(await cell(page, i, 'runs').inputValue()));
  }
  return { ratios, runs };
}

/** The layout read-outs equal the model's costs (polled: the page recomputes on the next frame). */
async function expectCosts(page: Page, c: MooseCosts) {
  await expect.poll(() => readout(page, 'cur-weighted')).toBeCloseTo(c.weighted, 10);
  expect(await readout(page, 'cur-zero')).toBeCloseTo(c.zeroResultPoint, 12);
  expect(await readout(page, 'cur-nonzero')).toBeCloseTo(c.nonZeroResultPoint, 12);
  expect(await readout(page, 'cur-range')).toBeCloseTo(c.range, 12);
  expect(await readout(page, 'cur-update')).toBeCloseTo(c.update, 12);
  expect(await readout(page, 'cur-sa')).toBeCloseTo(c.spaceAmplification, 12);
}

test('moose: editing the table redraws the costs the models compute', async ({ page }) => {
  const errors = await openPage(page, 'moose', 'Moose design space');

  // Defaults: default Moose for N/F = 12 000 (reference E6: r = 7,7,7,5.83,4.80, n = 3,3,3,2,2).
  expect(await readTable(page)).toEqual({ ratios: DEFAULT_RATIOS, runs: DEFAULT_RUNS });
  await expectCosts(page, costsOf(DEFAULT_RATIOS, DEFAULT_RUNS));
  expect(await readout(page, 'cur-sa')).toBeCloseTo(2.5, 3);
  const optimal = mooseOptimalBitsPerEntry(DS, DEFAULT_RATIOS.map((r, i) => ({ sizeRatio: r, runs: DEFAULT_RUNS[i] })), MEM, OPTS);
  expect(await readout(page, 'optimal-bits-1')).toBeCloseTo(optimal[0], 12);
  await expect(page.getByTestId('preset-moose')).toHaveAttribute('aria-pressed', 'true');

  // A valid edit goes straight to the models.
  await cell(page, 2, 'runs').fill('5');
  await expectCosts(page, costsOf(DEFAULT_RATIOS, [3, 5, 3, 2, 2]));
  await expect(page.getByTestId('preset-moose')).toHaveAttribute('aria-pressed', 'false');

  // Impossible values are explained next to the box; the numbers keep the last valid table.
  await cell(page, 2, 'runs').fill('8');
  await expect(page.getByText('runs must be a whole number between 1 and 7 (floor of the size ratio 7)')).toBeVisible();
  await expect(cell(page, 2, 'runs')).toHaveAttribute('aria-invalid', 'true');
  await expectCosts(page, costsOf(DEFAULT_RATIOS, [3, 5, 3, 2, 2]));
  await cell(page, 1, 'size ratio').fill('1.5');
  await expect(page.getByText('size ratio must be a number between 2 and 1,000,000')).toBeVisible();
  await cell(page, 1, 'size ratio').fill('7');
  await cell(page, 2, 'runs').fill('4');
  await expect(page.locator('.cell-msg')).toHaveCount(0);
  await expectCosts(page, costsOf(DEFAULT_RATIOS, [3, 4, 3, 2, 2]));

  // A last level too small for the rest of the data: the table says by how much and fixes it.
  await cell(page, 5, 'size ratio').fill('3');
  await expect(page.getByTestId('table-problem')).toContainText('its size ratio must be at least 4.79762');
  await page.getByTestId('fit-last').click();
  await expect(cell(page, 5, 'size ratio')).toHaveValue('4.79762');
  await expect(page.getByTestId('table-problem')).toHaveCount(0);

  // Remove level 5: level 4 becomes the last level and is refitted to hold the rest.
  await page.getByRole('button', { name: 'Remove level 5' }).click();
  await expect(page.getByTestId('level-table').locator('tbody tr')).toHaveCount(4);
  let t = await readTable(page);
  expect(t.ratios.slice(0, 3)).toEqual([7, 7, 7]);
  const caps = mooseLevelCapacities(DS, t.ratios.map((r, i) => ({ sizeRatio: r, runs: t.runs[i] })), OPTS);
  expect(caps.entries[3]).toBeLessThanOrEqual(caps.capacityEntries[3]);
  expect(caps.capacityEntries[3]).toBeLessThan(caps.entries[3] * (1 + 1e-5));
  await expectCosts(page, costsOf(t.ratios, t.runs));
  // …and add one back: the old last level splits into two of about equal ratio.
  await page.getByTestId('add-level').click();
  await expect(page.getByTestId('level-table').locator('tbody tr')).toHaveCount(5);
  t = await readTable(page);
  expect(Math.abs(t.ratios[3] - t.ratios[4])).toBeLessThan(1);
  await expectCosts(page, costsOf(t.ratios, t.runs));

  // Explicit filter bits: switching the optimal split off fills in the split; typed bits count as typed.
  await page.getByRole('checkbox', { name: /Optimal filters/ }).uncheck();
  const bits0 = mooseOptimalBitsPerEntry(DS, t.ratios.map((r, i) => ({ sizeRatio: r, runs: t.runs[i] })), MEM, OPTS).map((b) => Number(b.toFixed(3)));
  await expect(cell(page, 1, 'bits per entry')).toHaveValue(String(bits0[0]));
  await cell(page, 1, 'bits per entry').fill('10');
  await expectCosts(page, costsOf(t.ratios, t.runs, WL_I, [10, ...bits0.slice(1)]));
  await cell(page, 1, 'bits per entry').fill('70');
  await expect(page.getByText('bits per entry must be a number between 0 and 64')).toBeVisible();
  await page.getByTestId('fill-optimal').click();
  await expect(cell(page, 1, 'bits per entry')).toHaveValue(String(bits0[0]));
  await expectCosts(page, costsOf(t.ratios, t.runs, WL_I, bits0));

  // Presets build the named designs for this data set.
  await page.getByRole('checkbox', { name: /Optimal filters/ }).check();
  await page.getByTestId('preset-leveling').click();
  const presets = moosePresetLayouts(DS, { sizeRatio: 10, bitsPerEntry: 5, bufferBytes: 2 * MIB });
  // readTable counts the rows first: wait until the preset's table is drawn.
  await expect(page.getByTestId('level-table').locator('tbody tr')).toHaveCount(presets.leveling.length);
  t = await readTable(page);
  expect(t.runs).toEqual([1, 1, 1, 1]);
  t.ratios.forEach((r, i) => expect(Math.abs(r - presets.leveling[i].sizeRatio) / r).toBeLessThan(2e-5));
  await expectCosts(page, costsOf(t.ratios, t.runs));
  const levelingBar = page.getByTestId('compare-chart').locator('[data-category="Leveling"] text');
  expect(await dataValue(levelingBar)).toBeCloseTo(mooseCosts(DS, presets.leveling, WL_I, OPTS).weighted, 12);

  // The RU-curve follows the table: every integer point is one run vector of the current ratios.
  const ru = mooseRuCurve(DS, t.ratios, MEM, OPTS);
  await expect(page.getByTestId('ru-note')).toContainText(`A = Σ√r_i = ${Number(ru.sumSqrtRatios.toPrecision(4))}`);
  expect(errors).toEqual([]);
});

test('moose: the workload moves Smoose, whose choice is the model’s and applies to the table', async ({ page }) => {
  const errors = await openPage(page, 'moose');
  const r0 = smoose(DS, WL_I, MEM, OPTS);
  await expect.poll(() => readout(page, 'smoose-weighted')).toBeCloseTo(r0.objective, 10);

  // Move the mix: 30% range, 30% update (the sum is checked as typed).
  await page.getByRole('textbox', { name: /^Range lookups/ }).fill('30');
  await expect(page.getByTestId('mix-problem')).toContainText('adds up to 110%');
  await page.getByRole('textbox', { name: /^Updates/ }).fill('30');
  await expect(page.getByTestId('mix-total')).toHaveText('Total 100%.');
  const wl: Workload = { pointLookups: 0.4, nonZeroFraction: 0, rangeLookups: 0.3, updates: 0.3, rangeSelectivity: 0 };
  const r = smoose(DS, wl, MEM, OPTS);
  await expect.poll(() => readout(page, 'smoose-weighted')).toBeCloseTo(r.objective, 10);
  expect(await readout(page, 'smoose-nl')).toBeCloseTo(r.lastLevelFraction, 12);
  expect(await readout(page, 'smoose-levels')).toBe(r.levels.length);
  const rows = page.getByTestId('smoose-table').locator('tbody tr');
  await expect(rows).toHaveCount(r.levels.length);
  for (let i = 0; i < r.levels.length; i++) {
    const tds = rows.nth(i).locator('td');
    expect(await dataValue(tds.nth(1))).toBeCloseTo(r.costs.levels[i].sizeRatio, 10);
    expect(await dataValue(tds.nth(2))).toBe(r.costs.levels[i].runs);
    expect(await dataValue(tds.nth(3))).toBeCloseTo(r.levels[i].bitsPerEntry, 10);
  }
  // The layout's weighted cost follows the workload too.
  await expectCosts(page, costsOf(DEFAULT_RATIOS, DEFAULT_RUNS, wl));
  expect(await readout(page, 'smoose-yours')).toBeCloseTo(costsOf(DEFAULT_RATIOS, DEFAULT_RUNS, wl).weighted, 10);

  // "Use Smoose's layout": the table takes its shape (ratios to six digits), the costs follow.
  await page.getByTestId('apply-smoose').click();
  await expect(page.getByTestId('preset-smoose')).toHaveAttribute('aria-pressed', 'true');
  const t = await readTable(page);
  expect(t.runs).toEqual(r.levels.map((l) => l.runs));
  t.ratios.forEach((x, i) => expect(Math.abs(x - r.levels[i].sizeRatio) / r.levels[i].sizeRatio).toBeLessThan(2e-5));
  const mine = costsOf(t.ratios, t.runs, wl);
  await expectCosts(page, mine);
  expect(Math.abs(mine.weighted - r.objective) / r.objective).toBeLessThan(1e-4);

  // The engine config is this layout, with headroom on the last level.
  const config = JSON.parse((await page.getByTestId('engine-config').textContent()) ?? '');
  const tableBits = mooseOptimalBitsPerEntry(DS, t.ratios.map((x, i) => ({ sizeRatio: x, runs: t.runs[i] })), MEM, OPTS);
  const levels: MooseLevel[] = t.ratios.map((x, i) => ({ sizeRatio: x, runs: t.runs[i], bitsPerEntry: tableBits[i] }));
  const caps = mooseLevelCapacities(DS, levels, OPTS);
  const L = levels.length;
  const engineLast = config.levels[L - 1].size_ratio;
  expect(caps.capacityEntries[L - 2] * engineLast).toBeGreaterThanOrEqual(1.25 * caps.entries[L - 1]);
  expect(caps.capacityEntries[L - 2] * engineLast).toBeLessThan(1.2501 * caps.entries[L - 1]);
  const expected = mooseToEngineLevels(levels.map((l, i) => (i === L - 1 ? { ...l, sizeRatio: engineLast } : l)));
  expect(config).toMatchObject({
    kind: 'lsm-navigator/engine-config',
    version: 1,
    page_bytes: 4096,
    buffer_bytes: 2 * MIB,
    filter: { allocation: 'explicit', bits_per_key: 0 },
  });
  expect(config.levels.map((l: { size_ratio: number; max_runs: number }) => [l.size_ratio, l.max_runs])).toEqual(expected.map((l) => [l.size_ratio, l.max_runs]));
  config.levels.forEach((l: { bits_per_key: number }, i: number) => expect(l.bits_per_key).toBeCloseTo(expected[i].bits_per_key, 6));
  await expect(page.getByTestId('engine-note')).toContainText('1.25×');
  expect(errors).toEqual([]);
});

test('moose: a shared link reproduces the view, edited table included; bad tables fall back', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openPage(page, 'moose');
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('wl-b');
  await cell(page, 1, 'runs').fill('7');
  await cell(page, 4, 'size ratio').fill('5');
  await expect(page.getByTestId('table-problem')).toBeVisible();
  await page.getByTestId('fit-last').click();
  await page.getByRole('textbox', { name: /^Filter memory/ }).fill('8');
  await expect(page).toHaveURL(/&M=8&T=7,7,7,5,[0-9.]+&K=7,3,3,2,2&/);
  await expect(page).toHaveURL(/&zr=1&nzr=0&rq=1&up=98&/);

  const link = await copyLink(page);
  await expect(page.locator('.smoose-body[aria-busy="false"]')).toHaveCount(1);
  await expect(page.locator('.card-status', { hasText: 'computing' })).toHaveCount(0);

  const view = async (p: Page) => ({
    table: await readTable(p),
    weighted: await p.getByTestId('cur-weighted').getAttribute('data-value'),
    zero: await p.getByTestId('cur-zero').getAttribute('data-value'),
    smoose: await p.getByTestId('smoose-weighted').getAttribute('data-value'),
    memory: await p.getByRole('textbox', { name: /^Filter memory/ }).inputValue(),
    update: await p.getByRole('textbox', { name: /^Updates/ }).inputValue(),
    config: await p.getByTestId('engine-config').textContent(),
  });
  const before = await view(page);
  expect(before.table.runs).toEqual([7, 3, 3, 2, 2]);
  expect(before.memory).toBe('8');

  await expectLinkShowsView(context, link, {
    view,
    before,
    ready: (second) => expect.poll(() => second.getByTestId('smoose-weighted').getAttribute('data-value')).toBe(before.smoose),
  });

  // Reset puts every control back.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/#\/moose\?v=1&N=24576000&E=1024&pg=4096&buf=2&M=5&T=7,7,7,5.83381,4.79762&K=3,3,3,2,2&/);

  // A hand-edited link whose lists disagree, or whose runs exceed a ratio, falls back to the default table.
  await page.goto('/#/moose?v=1&T=7,7,7&K=3,3&b=1,1,1');
  await expect(page.getByTestId('table-notice')).toContainText('lists 3 size ratios (T), 2 run counts (K)');
  // The notice can show a frame before the table re-renders with the defaults: poll the table.
  await expect.poll(() => readTable(page)).toEqual({ ratios: DEFAULT_RATIOS, runs: DEFAULT_RUNS });
  await page.goto('/#/moose?v=1&T=7,1.5,40&K=3,1,2&b=1,1,1');
  await expect(page.getByTestId('table-notice')).toContainText('size ratio must be a number between 2 and 1,000,000');
  await expect.poll(() => readTable(page)).toEqual({ ratios: DEFAULT_RATIOS, runs: DEFAULT_RUNS });
  await page.goto('/#/moose?v=1&zr=abc');
  await expect(page.getByTestId('url-notices')).toContainText('zr=abc is not valid');

  expect(errors).toEqual([]);
});

test('moose: charts and tables download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto('/#/moose');
  const card = page.getByTestId('card-space-point');
  await expect(card.locator('svg.chart-svg')).toBeVisible();
  await expect(page.locator('.card-status', { hasText: 'computing' })).toHaveCount(0);

  // The cloud's tooltip reads exact values: End walks to the design with the highest update cost.
  const tip = await pressOnChart(page, 'space-point-chart', 'End');
  const head = (await tip.locator('.tt-head').textContent()) ?? '';
  const T = Number(/^Leveling T = (\d+),/.exec(head)?.[1]);
  const lev = mooseCosts(DS, moosePresetLayouts(DS, { sizeRatio: T, bitsPerEntry: 5, bufferBytes: 2 * MIB }).leveling, WL_I, OPTS);
  expect(await tooltipValue(tip, 'x')).toBeCloseTo(lev.update, 10);
  expect(await tooltipValue(tip, 'y')).toBeCloseTo(lev.zeroResultPoint, 12);

  const svg = await downloadFrom(card, 'SVG');
  expect(svg.name).toMatch(/^lsm-moose_space-point_.*\.svg$/);
  const parsed = await parseSvg(page, svg.bytes, { circles: 'circle' });
  expect(parsed.error).toBeNull();
  expect(parsed.texts).toContain('update cost (Eq.2) (I/O per update)');
  expect(parsed.texts).toContain('your layout');
  expect(parsed.texts).toContain('Smoose');
  expect(parsed.counts.circles).toBeGreaterThan(100);

  const png = await downloadFrom(card, 'PNG');
  expect(png.name).toMatch(/\.png$/);
  const pixels = expectPng(png.bytes);
  expect(pixels.width).toBe((await chartPngSize(card)).width);

  const csv = csvLines((await downloadFrom(card, 'CSV')).bytes);
  expect(csv[0]).toBe('series,update cost (Eq.2) (I/O per update),zero-result point lookup cost (Eq.4) (I/O per lookup),label');
  const highlight = csv.find((l) => l.startsWith('highlight,'));
  expect(Number(highlight?.split(',')[1])).toBeCloseTo(costsOf(DEFAULT_RATIOS, DEFAULT_RUNS).update, 12);

  // The per-level table exports its rows.
  const levels = csvLines((await downloadFrom(page.getByTestId('card-levels'), 'CSV')).bytes);
  expect(levels[0]).toContain('Level,Ratio r_i (effective),Runs n_i,Capacity N_i (entries)');
  expect(levels).toHaveLength(6);
  const c = costsOf(DEFAULT_RATIOS, DEFAULT_RUNS);
  expect(Number(levels[1].split(',')[8])).toBeCloseTo(c.levels[0].fpr, 15);

  // A bar chart too.
  const bars = csvLines((await downloadFrom(page.getByTestId('card-compare'), 'CSV')).bytes);
  expect(bars[0]).toBe('design,Weighted cost for the workload (I/O per operation)');
  expect(bars).toHaveLength(7);
});

test('moose: the page reads well at 1280×800 and on a phone', async ({ page }) => {
  await page.goto('/#/moose');
  await expect(page.getByTestId('smoose-weighted')).toBeVisible();
  await expect(page.getByTestId('space-point-chart')).toBeVisible();
  await expect(page.getByTestId('ru-chart')).toBeVisible();
  await expect(page.getByTestId('last-level-chart')).toBeVisible();
  await expect(page.locator('.card-status', { hasText: 'computing' })).toHaveCount(0);
  expect(await controlsLeftOf(page, page.getByTestId('layout-card'))).toBe(true);
  // Off-screen cards skip rendering (content-visibility: auto); draw them all for the full-page shot.
  await page.addStyleTag({ content: '.moose-cards .card { content-visibility: visible !important; }' });
  await expectReadsWell(page, 'moose', { width: 390, height: 844 });
});
