import { expect, test, type Page } from '@playwright/test';
import { costs, holisticDesign, type Dataset, type MonkeySla, type Workload } from '../models/src/index';
import { monkeyDesignToEngineConfig } from '../web/src/documents/designs/tradeoffs';
import {
  copyLink,
  csvLines,
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
const FIG7: Dataset = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096 };
const HW = { writeReadCostRatio: 1, pageReadSeconds: 100e-6 };
const ZERO: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };
/** The page's default memory: a 2 MiB buffer and 10 bits/entry of filters. */
const MEMORY = 2 * MIB + (10 * FIG7.entries) / 8;

/** The models' Workload for the page's four shares (percent). */
function mix(zeroResult: number, nonZeroResult: number, range: number, update: number, selectivity = 1e-7): Workload {
  const point = zeroResult + nonZeroResult;
  return {
    pointLookups: point / 100,
    nonZeroFraction: point === 0 ? 0 : nonZeroResult / point,
    rangeLookups: range / 100,
    updates: update / 100,
    rangeSelectivity: selectivity,
  };
}

/**
 * Equal to 12 significant digits. Node's and Chromium's V8 may round Math.exp/pow differently
 * in the last bit, which shows in the 16th digit of large numbers (bytes, operations/s).
 */
function expectSame(actual: number, expected: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
}

/** The design card shows exactly what holisticDesign chooses. */
async function expectChosen(page: Page, workload: Workload, sla: MonkeySla = {}) {
  const want = holisticDesign(FIG7, workload, HW, MEMORY, sla);
  await expect(page.getByTestId('design-card')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => readout(page, 'chosen-T')).toBeCloseTo(want.sizeRatio, 12);
  await expect(page.getByTestId('chosen-policy')).toHaveText(want.policy);
  expectSame(await readout(page, 'chosen-bits'), want.filterBitsPerEntry);
  expectSame(await readout(page, 'chosen-buffer'), want.bufferBytes);
  expectSame(await readout(page, 'chosen-throughput'), want.throughput);
  expectSame(await readout(page, 'chosen-W'), want.costs.update);
  expectSame(await readout(page, 'chosen-R'), want.costs.zeroResultLookup);
  return want;
}

test('tradeoffs: the holistic design follows the workload panel and opens on the Monkey page', async ({ page }) => {
  const errors = await openPage(page, 'tradeoffs', 'Trade-off curves and holistic design');
  await expectChosen(page, mix(40, 10, 0, 50));

  // The four shares must add up to 100%: a clear message, and the last valid mix stays in use.
  await page.getByRole('textbox', { name: /lookups of missing keys/i }).fill('10');
  await expect(page.getByTestId('mix-problem')).toHaveText(
    'The operation mix adds up to 70%, not 100%: raise one of the four shares by 30 points. The charts keep the last mix that added up.',
  );
  await expectChosen(page, mix(40, 10, 0, 50));
  await page.getByRole('textbox', { name: /^updates/i }).fill('80');
  await expect(page.getByTestId('mix-problem')).toHaveCount(0);
  const writeHeavy = await expectChosen(page, mix(10, 10, 0, 80));

  // The chosen design is the highlighted point of the trade-off chart, at its exact W and R.
  await expect(page.getByTestId('tradeoff-chart').locator('.annotation[data-label^="holistic"]')).toHaveAttribute(
    'data-label',
    new RegExp(`^holistic \\(${writeHeavy.policy}, T = `),
  );

  // An SLA on update cost changes the choice to what holisticDesign picks under it.
  const bound = writeHeavy.costs.update / 2;
  await page.getByRole('textbox', { name: /max update cost/i }).fill(String(bound));
  const bounded = await expectChosen(page, mix(10, 10, 0, 80), { maxUpdateCost: bound });
  expect(bounded.costs.update).toBeLessThan(writeHeavy.costs.update);
  await expect(page.getByTestId('chosen-sla')).toHaveText('met');

  // Fig 11: the holistic line at 32 bits per entry is holisticDesign's throughput with that memory.
  await expect(page.getByTestId('card-steps').locator('.card-status')).toHaveCount(0);
  const tip = await pressOnChart(page, 'steps-chart', 'End');
  await expect(tip.locator('.tt-head')).toHaveAttribute('data-value', '32');
  const at32 = holisticDesign(FIG7, mix(10, 10, 0, 80), HW, (32 * FIG7.entries) / 8).throughput;
  expectSame(await tooltipValue(tip, 'holistic'), at32);

  // The engine config of the chosen design is the shared pure function's.
  await page.getByText('Engine config (JSON)').click();
  const config = JSON.parse((await page.getByTestId('engine-config').textContent()) ?? '');
  const expected = monkeyDesignToEngineConfig(FIG7, bounded.design);
  expect(config).toEqual({
    ...expected,
    levels: [{ ...expected.levels[0], size_ratio: expect.closeTo(expected.levels[0].size_ratio, 10) }],
    filter: { ...expected.filter, bits_per_key: expect.closeTo(expected.filter.bits_per_key, 10) },
  });

  // "Use this design" opens it on the Monkey page, which draws the same design.
  await page.getByTestId('use-design').click();
  await expect(page.getByRole('heading', { name: 'Monkey vs state of the art' })).toBeVisible();
  await expect(page).toHaveURL(/#\/monkey\?v=1&N=34359738368&E=16&pg=4096&T=[0-9.]+&pol=(lev|tier)&b=[0-9.e-]+&buf=[0-9.e-]+&nz=50$/);
  const linked = new URLSearchParams(page.url().split('?')[1]);
  expectSame(Number(linked.get('T')), bounded.sizeRatio);
  expectSame(Number(linked.get('b')), bounded.filterBitsPerEntry);
  expectSame(Number(linked.get('buf')) * MIB, bounded.bufferBytes);
  const onMonkey = costs(FIG7, { ...bounded.design, allocation: 'monkey' }, ZERO, { writeReadCostRatio: 1, pageReadSeconds: 1e-4 });
  await expect.poll(() => readout(page, 'r-monkey')).toBeCloseTo(onMonkey.zeroResultLookup, 12);
  await expect(page.getByTestId('levels')).toHaveText(String(onMonkey.levels));
  await expect(page.getByRole('radio', { name: bounded.policy === 'leveling' ? 'Leveling' : 'Tiering' })).toBeChecked();
  await expect(page.getByTestId('url-notices')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('tradeoffs: a shared link reproduces the view; presets and bad links behave', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/#/tradeoffs');
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('read-heavy');
  await page.getByRole('textbox', { name: /write\/read cost ratio/i }).fill('3');
  await page.getByRole('textbox', { name: /max lookup cost/i }).fill('0.5');
  await expect(page).toHaveURL(/#\/tradeoffs\?v=1&N=34359738368&E=16&pg=4096&b=10&buf=2&zr=45&nzr=45&rq=0&up=10&s=1e-7&phi=3&om=100&lmax=0\.5&wmax=0$/);
  const want = holisticDesign(FIG7, mix(45, 45, 0, 10), { ...HW, writeReadCostRatio: 3 }, MEMORY, { maxLookupCost: 0.5 });
  await expect.poll(() => readout(page, 'chosen-T')).toBeCloseTo(want.sizeRatio, 12);
  const link = await copyLink(page);

  const view = async (p: Page) => {
    await expect(p.getByTestId('design-card')).toHaveAttribute('aria-busy', 'false');
    return p.getByTestId('design-card').locator('dd').evaluateAll((dds) => dds.map((d) => [d.textContent, d.getAttribute('data-value')]));
  };
  const before = await view(page);
  await expectLinkShowsView(context, link, {
    view,
    before,
    ready: (second) => expect.poll(() => readout(second, 'chosen-T')).toBeCloseTo(want.sizeRatio, 12),
  });

  await page.goto('/#/tradeoffs?v=1&zr=abc&up=150&phi=2');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('zr=abc is not valid');
  await expect(notices).toContainText('up=150 is not valid (updates must be between 0 and 100); using the default, 50.');
  const withPhi2 = holisticDesign(FIG7, mix(40, 10, 0, 50), { ...HW, writeReadCostRatio: 2 }, MEMORY);
  await expect.poll(() => readout(page, 'chosen-T')).toBeCloseTo(withPhi2.sizeRatio, 12);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/&phi=1&/);
  await expectChosen(page, mix(40, 10, 0, 50));
});

test('tradeoffs: charts and tables download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto('/#/tradeoffs');
  const card = page.getByTestId('card-tradeoff');
  await expect(card.locator('svg.chart-svg')).toBeVisible();
  await expect(card.locator('.card-status')).toHaveCount(0);
  const chosen = await expectChosen(page, mix(40, 10, 0, 50));
  const stem = 'lsm-tradeoffs_tradeoff_N34359738368_E16_pg4096_b10_buf2_zr40_nzr10_rq0_up50_s1e-7_phi1_om100_lmax0_wmax0';

  const svg = await downloadFrom(card, 'SVG');
  expect(svg.name).toBe(`${stem}.svg`);
  const parsed = await parseSvg(page, svg.bytes);
  expect(parsed.error).toBeNull();
  expect(parsed.texts).toEqual(expect.arrayContaining(['update cost W (I/O per update)', 'zero-result lookup cost R (I/O per lookup)', 'RocksDB', 'LevelDB']));

  const png = await downloadFrom(card, 'PNG');
  expectPng(png.bytes);

  // The CSV holds every plotted point: check the RocksDB-shaped design on Monkey's leveling curve,
  // a system, and the highlighted choice against the models.
  const csv = csvLines((await downloadFrom(card, 'CSV')).bytes);
  expect(csv[0]).toBe('series,update cost W (I/O per update),zero-result lookup cost R (I/O per lookup),label');
  /** The first three columns (series, W, R) of the first row matching; labels with commas come last. */
  const cells = (match: (line: string) => boolean) => (csv.find(match) ?? '').split(',').slice(0, 3);
  const [, w10, r10] = cells((l) => l.startsWith('Monkey leveling,') && l.includes('T = 10,'));
  const want10 = costs(FIG7, { policy: 'leveling', sizeRatio: 10, bufferBytes: 2 * MIB, filterBitsPerEntry: 10, allocation: 'monkey' }, mix(40, 10, 0, 50), HW);
  expect(Number(w10)).toBeCloseTo(want10.update, 14);
  expect(Number(r10)).toBeCloseTo(want10.zeroResultLookup, 14);
  const [, , rocksR] = cells((l) => l.startsWith('Table 4 defaults,') && l.includes('RocksDB'));
  expect(Number(rocksR)).toBeCloseTo(0.03277, 5);
  const [, hx, hy] = cells((l) => l.startsWith('highlight,'));
  expect(Number(hx)).toBeCloseTo(chosen.costs.update, 12);
  expect(Number(hy)).toBeCloseTo(chosen.costs.zeroResultLookup, 12);

  const table = csvLines((await downloadFrom(page.getByTestId('card-candidates'), 'CSV')).bytes);
  expect(table).toHaveLength(11);
  expect(table[1].split(',').slice(0, 3)).toEqual(['1', chosen.policy, String(chosen.sizeRatio)]);
});

test('tradeoffs: the page reads well at 1280×800 and 420 px wide', async ({ page }) => {
  await page.goto('/#/tradeoffs');
  for (const id of ['tradeoff-chart', 'steps-chart']) await expect(page.getByTestId(id)).toBeVisible();
  await expect(page.locator('.card-status')).toHaveCount(0);
  await expect(page.getByTestId('design-card')).toHaveAttribute('aria-busy', 'false');
  // Near the knee the systems' labels crowd: no two overprint, and one moved off its point has a leader to it.
  await page.setViewportSize({ width: 1280, height: 800 });
  const labels = await page
    .getByTestId('tradeoff-chart')
    .locator('g.annotation')
    .evaluateAll((gs) =>
      gs.flatMap((g) => {
        const t = g.querySelector('text');
        if (!t || !t.textContent) return [];
        const b = t.getBBox();
        const dot = g.querySelector('circle:last-of-type');
        const cy = Number(dot?.getAttribute('cy'));
        return [{ label: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height, ty: Number(t.getAttribute('y')), cy, leader: g.querySelector('line.leader') !== null }];
      }),
    );
  expect(labels.length).toBeGreaterThanOrEqual(5);
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h - 2 && b.y < a.y + a.h - 2;
      expect(overlap, `${a.label} overprints ${b.label}`).toBe(false);
    }
    if (Math.abs(a.ty - (a.cy - 9)) > 2) expect(a.leader, `${a.label} is away from its point without a leader`).toBe(true);
  }
  await expectReadsWell(page, 'tradeoffs', { width: 420, height: 900 });
});
