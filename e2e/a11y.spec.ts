/**
 * Accessibility: axe-core on every page, in its first state and after the page's main action, at
 * 1440×900 and on a phone (390×844). WCAG 2.0/2.1/2.2 A and AA rules and axe's best practices
 * (heading order, landmarks), nothing excluded; any
 * violation fails (serious, critical and the milder ones alike). Each page's counts go to
 * .cache/a11y/<page>.json for the record. The same visits check AAA contrast outside the charts
 * (contrast.ts), in the first state on the desktop and with the controls open on the phone, so a
 * page is loaded and settled once for both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { enhancedContrast } from './contrast';
import { collectErrors } from './helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, '.cache', 'a11y');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface PageCase {
  route: string;
  /** The test's and the record's name when a page has more than one case (default: the route's path). */
  name?: string;
  heading: RegExp;
  /** The page's main action, as a person would do it; done when its result shows. */
  act: (page: Page) => Promise<void>;
}

/** Pick the last preset of the controls panel: every control and chart redraws. */
async function lastPreset(page: Page): Promise<void> {
  const select = page.getByRole('combobox', { name: 'Preset', exact: true });
  const values = await select.locator('option:not([disabled])').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  await select.selectOption(values[values.length - 1] ?? '');
  await page.waitForTimeout(500);
}

const PAGES: PageCase[] = [
  {
    route: 'learn',
    heading: /^Learn/,
    act: async (page) => {
      await page.getByRole('textbox', { name: /bits per key/i }).fill('5');
      await expect(page.getByTestId('bloom-chart').locator('.annotation text')).toContainText('5.0 bits/key');
    },
  },
  {
    route: 'teach',
    heading: /^Teaching view/,
    act: async (page) => {
      const stage = page.getByTestId('teach-stage');
      await stage.focus();
      for (let i = 1; i <= 4; i++) {
        await page.keyboard.press('ArrowRight');
        await expect(stage).toHaveAttribute('data-frame', String(i));
      }
    },
  },
  {
    // Write stalls: merges paced by the writes, stepped until level 1 stops writes.
    route: 'teach?v=1&T=4&pol=tiering&fa=monkey&b=5&mg=paced&l0s=2&l0x=4',
    name: 'teach-stalls',
    heading: /^Teaching view/,
    act: async (page) => {
      const panel = page.getByTestId('teach-stall');
      for (let i = 0; i < 40 && (await panel.getAttribute('data-stall')) !== 'stop'; i++) {
        const before = Number(await page.getByTestId('teach-stage').getAttribute('data-steps'));
        await page.getByTestId('teach-step').click();
        await expect.poll(async () => Number(await page.getByTestId('teach-stage').getAttribute('data-steps'))).toBeGreaterThan(before);
      }
      await expect(panel.getByRole('status')).toContainText('Writes stopped');
    },
  },
  { route: 'monkey', heading: /^Monkey/, act: lastPreset },
  { route: 'tradeoffs', heading: /^Trade-off curves/, act: lastPreset },
  { route: 'moose', heading: /^Moose/, act: lastPreset },
  { route: 'memory', heading: /^Memory/, act: lastPreset },
  { route: 'msls', heading: /^Write amplification/, act: lastPreset },
  {
    route: 'tune?v=1&d=leveldb&w=b&n=20000&ops=5000&t=engine&rho=0',
    heading: /^Tune/,
    act: async (page) => {
      await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
      await page.getByTestId('tune-run').click();
      await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 120_000 });
    },
  },
  {
    route: 'lab?v=1&n=20000&ops=20000',
    heading: /^Workload lab/,
    act: async (page) => {
      await page.getByTestId('run-button').click();
      await expect(page.getByTestId('run-result')).toBeVisible({ timeout: 120_000 });
    },
  },
  {
    route: 'export',
    heading: /^Export/,
    act: async (page) => {
      await page.getByTestId('export-panel').getByTestId('export-tab-db_bench').click();
      await expect(page.getByTestId('export-needs-workload')).toBeVisible();
    },
  },
  {
    route: 'bench',
    heading: /^Storage benchmark/,
    act: async (page) => {
      // A run takes minutes; choosing its size is what a visitor does first.
      await page.getByRole('combobox', { name: /^Entries/ }).selectOption('100000');
      await expect(page.getByTestId('bench-idle')).toContainText('100,000 entries');
    },
  },
];

interface Found {
  id: string;
  impact: string;
  nodes: number;
  where: string[];
}

async function violations(page: Page): Promise<Found[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    nodes: v.nodes.length,
    where: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  }));
}

function record(name: string, state: string, found: Found[]): void {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.json`);
  const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  all[state] = { total: found.reduce((n, f) => n + f.nodes, 0), byRule: Object.fromEntries(found.map((f) => [f.id, f.nodes])) };
  fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

for (const c of PAGES) {
  const name = c.name ?? c.route.replace(/\?.*/, '');
  test(`a11y: ${name} has no WCAG 2.2 AA violation at 1440×900, first and after its main action, and at 390×844; text outside the charts meets AAA contrast`, async ({ page }) => {
    test.setTimeout(300_000);
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/#/${c.route}`);
    await expect(page.getByRole('heading', { level: 1, name: c.heading })).toBeVisible();
    await page.waitForTimeout(800);
    const first = await violations(page);
    record(name, 'desktop', first);
    expect.soft(first, `${name}, first state`).toEqual([]);
    expect.soft(await enhancedContrast(page), `${name}: AAA contrast at 1440×900`).toEqual([]);

    await c.act(page);
    const after = await violations(page);
    record(name, 'desktop-after', after);
    expect.soft(after, `${name}, after its main action`).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/#/${c.route}`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: c.heading })).toBeVisible();
    await page.waitForTimeout(800);
    const phone = await violations(page);
    record(name, 'phone', phone);
    expect.soft(phone, `${name} at 390×844`).toEqual([]);
    const toggle = page.getByTestId('controls-toggle');
    if ((await toggle.count()) > 0 && (await toggle.isVisible())) await toggle.click();
    expect.soft(await enhancedContrast(page), `${name}: AAA contrast at 390×844, controls open`).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test('keyboard: choosing a page in the nav puts the focus on its title; sliders step with the arrow keys; values of every chart kind (line, bar, scatter, tree) are reachable', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/#/learn');
  await expect(page.getByRole('heading', { level: 1, name: /^Learn/ })).toBeVisible();
  // The nav: Enter on "Monkey vs SOTA", then the focus is on the new page's title, and Tab goes on into the page.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Monkey vs SOTA' }).focus();
  await page.keyboard.press('Enter');
  const title = page.getByRole('heading', { level: 1, name: /^Monkey/ });
  await expect(title).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

  // Learn's size ratio (a log slider of integers): each arrow moves one whole value.
  await page.goto('/#/learn');
  const ratio = page.getByRole('slider', { name: 'size ratio slider' });
  const ratioBox = page.getByRole('textbox', { name: /^Size ratio/ });
  await expect(ratioBox).toHaveValue('10');
  await ratio.focus();
  await page.keyboard.press('ArrowRight');
  await expect(ratioBox).toHaveValue('11');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(ratioBox).toHaveValue('9');
  await page.keyboard.press('Home');
  await expect(ratioBox).toHaveValue('2');

  // Monkey's entry size: arrows change it too (before, they rounded back to the same value).
  await page.goto('/#/monkey');
  const entry = page.getByRole('slider', { name: 'entry size slider' });
  const entryBox = page.getByRole('textbox', { name: /^Entry size/ });
  const before = Number((await entryBox.inputValue()).replace(/,/g, ''));
  await entry.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => Number((await entryBox.inputValue()).replace(/,/g, ''))).toBeGreaterThan(before);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => Number((await entryBox.inputValue()).replace(/,/g, ''))).toBeLessThan(before);

  // Every kind of chart is a tab stop; arrows read its points aloud in a live tooltip whose values
  // carry the exact numbers: a line chart, a bar chart (here), a scatter chart (Trade-offs).
  const readByKeyboard = async (card: string) => {
    const chart = page.getByTestId(card).locator('svg.chart-svg').first();
    await chart.focus();
    await expect(chart).toBeFocused();
    await page.keyboard.press('End');
    const tip = page.getByTestId(card).locator('.chart-tooltip[role="status"]');
    await expect(tip).toBeVisible();
    const values = await tip.locator('[data-value]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    expect(values.length, `${card}: values in its tooltip`).toBeGreaterThan(0);
    for (const v of values) expect(Number.isFinite(v), `${card}: ${v}`).toBe(true);
    await page.keyboard.press('Home');
    await expect(tip).toBeVisible();
  };
  await readByKeyboard('card-fig7');
  await readByKeyboard('card-level-fpr');
  await page.goto('/#/tradeoffs');
  await expect(page.getByTestId('tradeoff-chart').locator('svg.chart-svg')).toBeVisible({ timeout: 60_000 });
  await readByKeyboard('card-tradeoff');

  // The engine's tree (Teaching view, lab): its numbers are a table under the picture, reached by
  // Tab and opened with Enter; it follows the tree as it steps.
  await page.goto('/#/teach');
  const stage = page.getByTestId('teach-stage');
  await expect(page.getByTestId('teach-tree').locator('svg')).toBeVisible();
  await stage.focus();
  // Step until the buffer has been flushed twice: runs on disk, and keys in the buffer again.
  for (let i = 1; (await page.getByTestId('teach-flushes').textContent()) !== '2' || i < 3; i++) {
    expect(i, 'two flushes within 60 steps').toBeLessThan(60);
    await page.keyboard.press('ArrowRight');
    await expect(stage).toHaveAttribute('data-frame', String(i));
  }
  await page.keyboard.press('ArrowRight');
  const summary = page.getByTestId('teach-tree-table-toggle').locator('summary');
  await summary.focus();
  await expect(summary).toBeFocused();
  await page.keyboard.press('Enter');
  const table = page.getByTestId('teach-tree-table');
  await expect(table).toBeVisible();
  const bufferEntries = Number(await page.getByTestId('teach-tree-buffer').getAttribute('data-entries'));
  await expect(table.locator('tbody tr').first().locator('td').nth(2)).toHaveAttribute('data-value', String(bufferEntries));
  // One row per run on disk besides the buffer's, each with its entries.
  const runs = await page.getByTestId('teach-tree').locator('.tv-run').count();
  expect(runs).toBeGreaterThan(0);
  await expect(table.locator('tbody tr')).toHaveCount(1 + runs);
  const treeEntries = Number(await page.getByTestId('teach-tree').getAttribute('data-entries'));
  const tableEntries = await table.locator('tbody tr td:nth-child(3)').evaluateAll((tds) => tds.reduce((n, td) => n + Number(td.getAttribute('data-value')), 0));
  expect(tableEntries).toBe(treeEntries);
  expect(errors).toEqual([]);
});
