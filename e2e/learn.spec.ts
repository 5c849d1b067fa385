import { expect, test, type Page } from '@playwright/test';
import {
  chartPngSize,
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

const LN2_SQ = Math.LN2 * Math.LN2;
/** Eq 2 of Monkey, as models/src/bloom.ts computes it. */
const fpr = (bitsPerKey: number) => Math.exp(-bitsPerKey * LN2_SQ);
const percent = (p: number) => `${Number((p * 100).toPrecision(3))}%`;

/** Monkey's exact optimum with every level filtered: p_i = λ·n_i, Σ n_i·ln(1/p_i) = M·ln²2. */
function monkeyR(levelEntries: number[], memoryBits: number): number {
  const n = levelEntries.reduce((a, b) => a + b, 0);
  const nLogN = levelEntries.reduce((a, e) => a + e * Math.log(e), 0);
  const lambda = Math.exp(-(memoryBits * LN2_SQ + nLogN) / n);
  return lambda * n;
}

/** Level sizes of Monkey §2: n_i = N/T^(L−i)·(T−1)/T. */
function levels(N: number, T: number, L: number): number[] {
  return Array.from({ length: L }, (_, k) => (N / T ** (L - (k + 1))) * ((T - 1) / T));
}

test('learn: moving controls redraws the numbers the models compute', async ({ page }) => {
  const errors = await openPage(page, 'learn', 'Learn: how an LSM-tree works');

  // Defaults: 10 bits/key, leveling, T = 10, 1e8 entries, 64 MiB buffer → 3 levels.
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(10)));
  expect(await readout(page, 'bloom-fpr')).toBeCloseTo(fpr(10), 14);
  await expect(page.getByTestId('levels-count')).toHaveText('3');
  const r0 = monkeyR(levels(1e8, 10, 3), 10 * 1e8);
  expect(await readout(page, 'r-monkey')).toBeCloseTo(r0, 12);

  // Typing a valid value updates the read-outs and the chart's annotation at once.
  const bits = page.getByRole('textbox', { name: /bits per key/i });
  await bits.fill('5');
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(5)));
  expect(await readout(page, 'bloom-fpr')).toBeCloseTo(fpr(5), 14);
  await expect(page.getByTestId('bloom-chart').locator('.annotation text')).toHaveText(`5.0 bits/key → ${percent(fpr(5))}`);
  expect(await readout(page, 'r-monkey')).toBeCloseTo(monkeyR(levels(1e8, 10, 3), 5 * 1e8), 12);

  // An invalid value shows the allowed range next to the box, and the page keeps the last valid one.
  await bits.fill('30');
  await expect(page.getByText('bits per key must be between 0 and 24')).toBeVisible();
  await expect(bits).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(5)));
  await bits.fill('7.5');
  await expect(page.getByText('bits per key must be between 0 and 24')).toHaveCount(0);
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(7.5)));

  // The slider moves by keyboard: T from 10 down a notch changes the tree.
  const sizeRatio = page.getByRole('textbox', { name: /size ratio/i });
  await sizeRatio.fill('4');
  // 1e8 entries × 128 B / 64 MiB × 3/4 = 143 → log4 → 4 levels.
  await expect(page.getByTestId('levels-count')).toHaveText('4');
  await page.getByRole('radio', { name: 'Tiering' }).check();
  // 4 levels: a lookup may check 4 runs with leveling, 4 × (T−1) = 12 with tiering.
  const runsRow = page.getByTestId('merge-table').locator('tr', { hasText: 'Runs a lookup may check' }).locator('td.num');
  await expect(runsRow).toHaveText(['4', '12']);
  await page.getByRole('slider', { name: 'size ratio slider' }).focus();
  await page.keyboard.press('End');
  await expect(sizeRatio).toHaveValue('100');

  // The chart's tooltip reads exact values at the crosshair (keyboard-driven).
  const tip = await pressOnChart(page, 'bloom-chart', 'End');
  await expect(tip.locator('.tt-head')).toHaveAttribute('data-value', '24');
  expect(await tooltipValue(tip, 'ideal')).toBeCloseTo(fpr(24), 16);
  await page.keyboard.press('ArrowLeft');
  await expect(tip.locator('.tt-head')).toHaveAttribute('data-value', '23.75');
  // And by pointer: hovering the middle of the plot lists both curves.
  await page.getByTestId('bloom-chart').locator('svg').hover({ position: { x: 300, y: 150 } });
  await expect(tip.locator('tr')).toHaveCount(2);

  // Sweeps come from the model worker.
  await expect(page.getByTestId('size-ratio-chart')).toBeVisible();
  await expect(page.getByTestId('monkey-memory-chart')).toBeVisible();
  expect(page.workers().some((w) => w.url().includes('model.worker'))).toBe(true);

  // Leaving through the nav and coming back keeps the view.
  await page.getByRole('link', { name: 'Workload lab' }).click();
  await expect(page.getByRole('heading', { name: 'Workload lab' })).toBeVisible();
  await page.getByRole('link', { name: 'Learn' }).click();
  await expect(page.getByRole('textbox', { name: /bits per key/i })).toHaveValue('7.5');
  await expect(page).toHaveURL(/b=7\.5&T=100&pol=tier/);

  // The teaching view opens on the same policy and bits, its size ratio brought into the classroom's range.
  const teach = page.getByTestId('learn-teach-link');
  // The whole teaching state, its merge controls at their defaults (merges when you step).
  await expect(teach).toHaveAttribute('href', '#/teach?v=1&T=6&pol=tiering&fa=monkey&b=7.5&mg=step&l0s=2&l0x=4&spd=2');
  await teach.click();
  await expect(page.getByRole('radio', { name: 'Tiering' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: /size ratio/i })).toHaveValue('6');
  expect(errors).toEqual([]);
});

test('learn: the URL holds the view; Copy link restores it exactly; bad links fall back with a notice', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openPage(page, 'learn');
  await page.getByRole('textbox', { name: /bits per key/i }).fill('6.5');
  await page.getByRole('textbox', { name: /size ratio/i }).fill('7');
  await page.getByRole('radio', { name: 'Tiering' }).check();
  await page.getByRole('textbox', { name: /entries/i }).fill('2,000,000,000');
  await expect(page).toHaveURL(/#\/learn\?v=1&b=6\.5&T=7&pol=tier&N=2000000000&buf=64$/);

  const link = await copyLink(page);

  const view = async (p: Page) => ({
    fpr: await p.getByTestId('bloom-fpr').textContent(),
    levels: await p.getByTestId('levels-count').textContent(),
    rMonkey: await p.getByTestId('r-monkey').getAttribute('data-value'),
    rUniform: await p.getByTestId('r-uniform').getAttribute('data-value'),
    bits: await p.getByRole('textbox', { name: /bits per key/i }).inputValue(),
    T: await p.getByRole('textbox', { name: /size ratio/i }).inputValue(),
    N: await p.getByRole('textbox', { name: /entries/i }).inputValue(),
    tiering: await p.getByRole('radio', { name: 'Tiering' }).isChecked(),
  });
  const before = await view(page);
  expect(before).toMatchObject({ fpr: percent(fpr(6.5)), bits: '6.5', T: '7', N: '2,000,000,000', tiering: true });

  await expectLinkShowsView(context, link, {
    view,
    before,
    ready: (second) => expect(second.getByTestId('bloom-fpr')).toHaveText(percent(fpr(6.5))),
    reload: true,
  });

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(10)));
  await expect(page).toHaveURL(/#\/learn\?v=1&b=10&T=10&pol=lev&N=100000000&buf=64$/);

  // Presets set several controls at once.
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('tiered');
  await expect(page.getByRole('radio', { name: 'Tiering' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: /size ratio/i })).toHaveValue('4');

  // A link with bad values never breaks the page: defaults plus a notice naming the problem.
  await page.goto('/#/learn?v=1&b=99&T=abc&pol=tier&zz=1');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('b=99 is not valid (bits per key must be between 0 and 24); using the default, 10.');
  await expect(notices).toContainText('T=abc is not valid');
  await expect(notices).toContainText('"zz" is not used on this page');
  await expect(page.getByTestId('bloom-fpr')).toHaveText(percent(fpr(10)));
  await expect(page.getByRole('radio', { name: 'Tiering' })).toBeChecked();
  await page.getByRole('button', { name: 'Dismiss link notices' }).click();
  await expect(notices).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('learn: charts download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto('/#/learn?v=1&b=8&T=10&pol=lev&N=100000000&buf=64');
  const card = page.getByTestId('card-bloom-fpr');
  await expect(card.locator('svg.chart-svg')).toBeVisible();
  const stem = 'lsm-learn_bloom-fpr_b8_T10_pol-lev_N100000000_buf64';

  const svg = await downloadFrom(card, 'SVG');
  expect(svg.name).toBe(`${stem}.svg`);
  const svgText = svg.bytes.toString('utf8');
  expect(svgText.startsWith('<?xml')).toBe(true);
  expect(svgText).toContain('<svg');
  expect(svgText).toContain('xmlns="http://www.w3.org/2000/svg"');
  const parsed = await parseSvg(page, svg.bytes, { interactive: '.no-export', styled: '[style*="font-family"]' });
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  expect(parsed.texts).toContain('memory (bits per key)');
  expect(parsed.texts).toContain('false-positive rate (probability)');
  expect(parsed.texts).toContain(`8.0 bits/key → ${percent(fpr(8))}`);
  expect(parsed.counts.interactive).toBe(0);
  expect(parsed.counts.styled).toBeGreaterThan(10);

  const png = await downloadFrom(card, 'PNG');
  expect(png.name).toBe(`${stem}.png`);
  const pixels = expectPng(png.bytes);
  // Drawn at 2× the on-screen size.
  expect(pixels).toEqual(await chartPngSize(card));

  const csv = await downloadFrom(card, 'CSV');
  expect(csv.name).toBe(`${stem}.csv`);
  const lines = csvLines(csv.bytes);
  expect(lines[0]).toBe('memory (bits per key),optimal k = b·ln 2 (probability),whole-number k = round(b·ln 2) (probability)');
  expect(lines).toHaveLength(98);
  const at8 = lines.find((l) => l.startsWith('8,'));
  expect(Number(at8?.split(',')[1])).toBeCloseTo(fpr(8), 15);

  // A table-backed card exports its rows.
  const levelsCsv = (await downloadFrom(page.getByTestId('card-levels'), 'CSV')).bytes.toString('utf8');
  expect(levelsCsv.split('\n')[0]).toBe('Level,Capacity (entries),Holds (entries),Runs,Share of data (%)');
  expect(levelsCsv.trim().split('\n')).toHaveLength(4);
});

test('learn: the page reads well at 1280×800 and on a phone', async ({ page }) => {
  await page.goto('/#/learn');
  await expect(page.getByTestId('monkey-memory-chart')).toBeVisible();
  await expect(page.getByTestId('size-ratio-chart')).toBeVisible();
  await expectReadsWell(page, 'learn', { width: 390, height: 844 }, page.locator('#learn-buffer'));
});

test('an unknown page says so and shows Learn instead; the menu and a known link work from there', async ({ page }) => {
  const errors = await openPage(page, 'nosuchpage', 'Learn: how an LSM-tree works');
  await expect(page.getByTestId('route-unknown')).toHaveText(
    'There is no page “#/nosuchpage”; here is Learn instead. Every page is in the menu above.',
  );
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tune' }).click();
  await expect(page.getByRole('heading', { name: 'Tune', level: 1 })).toBeVisible();
  await expect(page.getByTestId('route-unknown')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('learn: presenter mode — every chart goes full screen and large with F, back with F; its embed link shows it alone', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  const errors = await openPage(page, 'learn?v=1&b=7', /^Learn/);
  // Every chart card on Learn offers it.
  const cards = page.locator('.concepts article.chart-card');
  const count = await cards.count();
  expect(count).toBeGreaterThanOrEqual(8);
  expect(await page.locator('.concepts [data-testid^="present-"]').count()).toBe(count);
  expect(await page.locator('.concepts [data-testid^="embed-"]').count()).toBe(count);

  const card = page.getByTestId('card-bloom-fpr');
  const svg = card.locator('svg.chart-svg');
  const tick = card.locator('svg.chart-svg .tick text, svg.chart-svg text').first();
  const small = { chart: (await svg.boundingBox())!, text: (await tick.boundingBox())!.height };
  const fullscreen = () => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null);

  // F with the focus on the chart: the card is full screen, the chart fills it and its type grows.
  await svg.focus();
  await page.keyboard.press('f');
  await expect.poll(fullscreen).toBe('card-bloom-fpr');
  await expect(page.getByTestId('present-bloom-fpr')).toHaveText('Exit full screen');
  await expect.poll(async () => (await svg.boundingBox())!.height).toBeGreaterThan(small.chart.height * 2);
  const big = { chart: (await svg.boundingBox())!, text: (await tick.boundingBox())!.height };
  expect(big.chart.width).toBeGreaterThan(small.chart.width * 2);
  expect(big.chart.width).toBeLessThanOrEqual(1440);
  expect(big.chart.y + big.chart.height).toBeLessThanOrEqual(900);
  expect(big.text).toBeGreaterThan(small.text * 2);
  // Its values are still read by keyboard, in full screen.
  await page.keyboard.press('End');
  await expect(card.locator('.chart-tooltip[role="status"]')).toBeVisible();
  await page.keyboard.press('f');
  await expect.poll(fullscreen).toBeNull();
  await expect(page.getByTestId('present-bloom-fpr')).toHaveText('Full screen');
  await expect.poll(async () => (await svg.boundingBox())!.height).toBeCloseTo(small.chart.height, 0);

  // The button does the same for a diagram (the levels picture).
  await page.getByTestId('present-levels').click();
  await expect.poll(fullscreen).toBe('card-levels');
  await page.getByTestId('present-levels').click();
  await expect.poll(fullscreen).toBeNull();

  // Embed link: the same view, this chart alone.
  await page.getByTestId('embed-monkey-memory').click();
  await expect(page.getByTestId('embed-monkey-memory')).toHaveText('Embed link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/#\/learn\?v=1&b=7(&[^&]+)*&embed=monkey-memory$/);
  await page.goto(link);
  await expect(page.getByTestId('monkey-memory-chart').locator('svg.chart-svg')).toBeVisible();
  await expect(page.locator('.app-header')).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Controls' })).toBeHidden();
  expect(await page.locator('.card:visible').count()).toBe(1);
  await expect(page.getByTestId('r-monkey')).toBeHidden();
  expect(errors).toEqual([]);
});
