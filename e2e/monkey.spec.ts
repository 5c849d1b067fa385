import { expect, test, type Page } from '@playwright/test';
import {
  costs,
  filterFprs,
  memoryThresholdBitsPerEntry,
  monkeyZeroResultCostClosedForm,
  type Dataset,
  type Design,
  type Workload,
} from '../models/src/index';
import {
  cellValue,
  copyLink,
  csvLines,
  downloadFrom,
  expectLinkShowsView,
  expectPng,
  expectReadsWell,
  openPage,
  parseSvg,
  readout,
  tooltipAt,
} from './helpers';

const MIB = 1024 * 1024;
const FIG7: Dataset = { entries: 2 ** 35, entryBytes: 16, pageBytes: 4096 };
const ZERO: Workload = { pointLookups: 1, nonZeroFraction: 0, rangeLookups: 0, updates: 0, rangeSelectivity: 0 };
const HW = { writeReadCostRatio: 1, pageReadSeconds: 1e-4 };

function design(over: Partial<Design> = {}): Design {
  return { policy: 'leveling', sizeRatio: 4, bufferBytes: 2 * MIB, filterBitsPerEntry: 5, allocation: 'monkey', ...over };
}
const R = (d: Design, data: Dataset = FIG7, w: Workload = ZERO) => costs(data, d, w, HW);

test('monkey: the drawn numbers are the models’ and follow the controls', async ({ page }) => {
  const errors = await openPage(page, 'monkey', 'Monkey vs state of the art');

  // Defaults: Monkey Fig 7's data set at 5 bits/entry (reference V4: 0.191573 vs 0.814614).
  const d0 = design();
  await expect(page.getByTestId('levels')).toHaveText('9');
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(d0).zeroResultLookup, 12);
  expect(await readout(page, 'r-uniform')).toBeCloseTo(R({ ...d0, allocation: 'uniform' }).zeroResultLookup, 12);
  expect(await readout(page, 'r-uniform')).toBeCloseTo(0.814614, 5);
  expect(await readout(page, 'threshold-bits')).toBeCloseTo(memoryThresholdBitsPerEntry(4), 12);
  expect(await readout(page, 'filter-bytes')).toBe((5 * 2 ** 35) / 8);

  // Per-level table and the closed-form comparison carry the models' values.
  const fprs = filterFprs(FIG7, d0);
  expect(await cellValue(page.getByTestId('levels-table'), 0, 6)).toBeCloseTo(fprs[0], 15);
  const eq7 = monkeyZeroResultCostClosedForm({ policy: 'leveling', sizeRatio: 4, levels: 9 }, 5).cost;
  expect(await cellValue(page.getByTestId('closed-form-table'), 0, 2)).toBeCloseTo(eq7, 12);

  // Fig 7's curve: at 0 bits both allocations probe every level; at the right end, the exact model.
  await expect(page.getByTestId('fig7-chart')).toBeVisible();
  const start = await tooltipAt(page, 'fig7-chart', 'Home');
  expect([start.x, start.y.monkey]).toEqual([0, 9]);
  const end = await tooltipAt(page, 'fig7-chart', 'End');
  expect(end.x).toBe(12);
  expect(end.y.uniform).toBeCloseTo(R(design({ filterBitsPerEntry: 12, allocation: 'uniform' })).zeroResultLookup, 12);

  // Typing a memory moves every number to the models' value there.
  const bits = page.getByRole('textbox', { name: /filter memory/i });
  await bits.fill('2.5');
  await expect(page).toHaveURL(/b=2\.5/);
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(design({ filterBitsPerEntry: 2.5 })).zeroResultLookup, 12);
  expect(await readout(page, 'r-uniform')).toBeCloseTo(2.70768, 4);

  // Tiering: T−1 runs per level.
  await page.getByRole('radio', { name: 'Tiering' }).check();
  const tier = design({ policy: 'tiering', filterBitsPerEntry: 2.5 });
  await expect.poll(() => readout(page, 'r-monkey')).toBeCloseTo(R(tier).zeroResultLookup, 12);
  expect(await readout(page, 'r-uniform')).toBeCloseTo(R({ ...tier, allocation: 'uniform' }).zeroResultLookup, 12);

  // The worker's sweeps follow: data size at its largest N, and the mix with every lookup finding its key.
  await expect(page.getByTestId('card-data-size').locator('.card-status')).toHaveCount(0);
  const big = await tooltipAt(page, 'data-size-chart', 'End');
  expect(big.x).toBe(2 ** 44);
  expect(big.y.uniform).toBeCloseTo(R({ ...tier, allocation: 'uniform' }, { ...FIG7, entries: 2 ** 44 }).zeroResultLookup, 12);
  await expect(page.getByTestId('card-mix').locator('.card-status')).toHaveCount(0);
  const allFound = await tooltipAt(page, 'mix-chart', 'End');
  expect(allFound.x).toBe(100);
  expect(allFound.y.general).toBeCloseTo(R(tier, FIG7, { ...ZERO, nonZeroFraction: 1 }).pointLookup, 12);

  // A Table 4 preset: RocksDB (leveling, T = 10, 10 bits/entry, 64 MiB) — reference V14: R_art = 0.03277.
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('rocksdb');
  await expect(page.getByTestId('levels')).toHaveText('4');
  const rocks = design({ sizeRatio: 10, bufferBytes: 64 * MIB, filterBitsPerEntry: 10 });
  expect(await readout(page, 'r-uniform')).toBeCloseTo(R({ ...rocks, allocation: 'uniform' }).zeroResultLookup, 12);
  expect(await readout(page, 'r-uniform')).toBeCloseTo(0.03277, 4);
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(rocks).zeroResultLookup, 12);

  // Impossible values explain themselves next to the control and never reach the charts.
  await bits.fill('50');
  await expect(page.getByText('filter memory must be between 0 and 40')).toBeVisible();
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(rocks).zeroResultLookup, 12);
  await bits.fill('10');
  await page.getByRole('textbox', { name: /entry size/i }).fill('8192');
  await expect(page.getByTestId('dataset-problem')).toContainText('must be at least the entry size (8192 bytes)');
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(rocks).zeroResultLookup, 12);
  await page.getByRole('textbox', { name: /entry size/i }).fill('16');
  await expect(page.getByTestId('dataset-problem')).toHaveCount(0);
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('monkey: a shared link reproduces the view; Reset restores the Fig 7 defaults', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/#/monkey');
  await page.getByRole('textbox', { name: /filter memory/i }).fill('3.25');
  await page.getByRole('textbox', { name: /size ratio/i }).fill('6');
  await page.getByRole('radio', { name: 'Tiering' }).check();
  await page.getByRole('textbox', { name: /write buffer/i }).fill('16');
  await page.getByRole('textbox', { name: /lookups that find/i }).fill('80');
  await expect(page).toHaveURL(/#\/monkey\?v=1&N=34359738368&E=16&pg=4096&T=6&pol=tier&b=3\.25&buf=16&nz=80$/);
  const link = await copyLink(page);

  const view = async (p: Page) => ({
    levels: await p.getByTestId('levels').textContent(),
    monkey: await p.getByTestId('r-monkey').getAttribute('data-value'),
    uniform: await p.getByTestId('r-uniform').getAttribute('data-value'),
    table: await p.getByTestId('closed-form-table').locator('td.num').evaluateAll((tds) => tds.map((t) => t.getAttribute('data-value'))),
  });
  const before = await view(page);
  const expected = R(design({ policy: 'tiering', sizeRatio: 6, bufferBytes: 16 * MIB, filterBitsPerEntry: 3.25 }));
  expect(Number(before.monkey)).toBeCloseTo(expected.zeroResultLookup, 12);

  await expectLinkShowsView(context, link, {
    view,
    before,
    ready: async (second) => {
      await expect(second.getByTestId('levels')).toHaveText(before.levels ?? '');
      await expect(second.getByRole('radio', { name: 'Tiering' })).toBeChecked();
    },
  });

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/#\/monkey\?v=1&N=34359738368&E=16&pg=4096&T=4&pol=lev&b=5&buf=2&nz=50$/);
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(design()).zeroResultLookup, 12);
});

test('monkey: charts and tables download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto('/#/monkey');
  const card = page.getByTestId('card-fig7');
  await expect(card.locator('svg.chart-svg')).toBeVisible();
  const stem = 'lsm-monkey_fig7_N34359738368_E16_pg4096_T4_pol-lev_b5_buf2_nz50';

  const svg = await downloadFrom(card, 'SVG');
  expect(svg.name).toBe(`${stem}.svg`);
  const parsed = await parseSvg(page, svg.bytes);
  expect(parsed.error).toBeNull();
  expect(parsed.texts).toContain('filter memory (bits per entry)');
  expect(parsed.texts).toContain('zero-result lookup cost R (I/O per lookup)');

  const png = await downloadFrom(card, 'PNG');
  expect(png.name).toBe(`${stem}.png`);
  const pixels = expectPng(png.bytes);
  expect(pixels.width).toBeGreaterThan(1000);

  const csv = await downloadFrom(card, 'CSV');
  const lines = csvLines(csv.bytes);
  expect(lines[0]).toContain('filter memory (bits per entry),State of the art (uniform)');
  const at5 = lines.find((l) => l.startsWith('5,'))?.split(',') ?? [];
  expect(Number(at5[2])).toBeCloseTo(R(design()).zeroResultLookup, 12);

  const rows = csvLines((await downloadFrom(page.getByTestId('card-levels'), 'CSV')).bytes);
  expect(rows).toHaveLength(10);
  expect(Number(rows[1].split(',')[6])).toBeCloseTo(filterFprs(FIG7, design())[0], 15);
});

test('monkey: dragging the filter-memory slider redraws within a frame (reported)', async ({ page }) => {
  await page.goto('/#/monkey');
  await expect(page.getByTestId('fig7-chart')).toBeVisible();
  await expect(page.getByTestId('card-mix').locator('.card-status')).toHaveCount(0);
  // In the page: 30 slider steps, one per frame, as a drag delivers them. Each step marks the
  // input, waits for React's commit (the read-out changes), forces style and layout, then waits
  // for the next animation frame.
  const result = await page.evaluate(async (steps) => {
    const slider = document.querySelector<HTMLInputElement>('input[aria-label="filter memory slider"]');
    const readout = document.querySelector('[data-testid="r-monkey"]');
    const svg = document.querySelector('[data-testid="fig7-chart"] svg');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    if (!slider || !readout || !svg || !setValue) throw new Error('page not ready');
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
    const task = () =>
      new Promise<void>((r) => {
        const c = new MessageChannel();
        c.port1.onmessage = () => r();
        c.port2.postMessage(0);
      });
    const commit: number[] = [];
    const nextFrame: number[] = [];
    let bits = Number(slider.value);
    for (let i = 0; i < steps; i++) {
      await frame();
      const before = readout.getAttribute('data-value');
      bits = Math.round((bits + 0.1) * 100) / 100;
      performance.mark(`drag-${i}`);
      const t0 = performance.now();
      setValue.call(slider, String(bits));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      for (let spin = 0; readout.getAttribute('data-value') === before; spin++) await (spin < 50 ? Promise.resolve() : task());
      svg.getBoundingClientRect();
      commit.push(performance.now() - t0);
      await frame();
      performance.measure(`redraw-${i}`, `drag-${i}`);
      nextFrame.push(performance.now() - t0);
    }
    return { commit, nextFrame, bits };
  }, 30);
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
    return { median: Number(q(0.5).toFixed(2)), p95: Number(q(0.95).toFixed(2)), max: Number(s[s.length - 1].toFixed(2)) };
  };
  console.log(
    `[monkey] filter-memory drag, 30 steps: input → React commit + layout ms ${JSON.stringify(stats(result.commit))}; ` +
      `input → next animation frame ms ${JSON.stringify(stats(result.nextFrame))}`,
  );
  expect(result.commit).toHaveLength(30);
  await expect(page.getByRole('textbox', { name: /filter memory/i })).toHaveValue(String(result.bits));
  expect(await readout(page, 'r-monkey')).toBeCloseTo(R(design({ filterBitsPerEntry: result.bits })).zeroResultLookup, 12);
});

test('monkey: the page reads well at 1280×800 and 420 px wide', async ({ page }) => {
  await page.goto('/#/monkey');
  for (const id of ['fig7-chart', 'data-size-chart', 'mix-chart', 'buffer-chart', 'buffer-update-chart']) await expect(page.getByTestId(id)).toBeVisible();
  await expect(page.locator('.card-status')).toHaveCount(0);
  await expectReadsWell(page, 'monkey', { width: 420, height: 900 });
});
