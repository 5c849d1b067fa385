/**
 * Steps and readings the page specs share. The pages carry every number they show at full
 * precision in a `data-value` attribute (read-outs, table cells, tooltip rows, bar labels), so the
 * specs compare numbers with the models', never rounded text; these helpers read them, drive the
 * charts' keyboard crosshair, fetch and inspect downloaded files, and follow copied links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

/** Where the specs leave screenshots for a person to look at (git-ignored). */
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** Uncaught exceptions and console errors of `page` from now on; a spec ends with `expect(errors).toEqual([])`. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/**
 * The steps every page test starts with: listen for console errors and uncaught exceptions (the
 * test ends by expecting none), open `#/<route>` (a query may follow the path) and, given a title,
 * wait for the page's heading.
 */
export async function openPage(page: Page, route: string, title?: string | RegExp): Promise<string[]> {
  const errors = collectErrors(page);
  await page.goto(`/#/${route}`);
  if (title !== undefined) await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  return errors;
}

// ─── exact numbers

/** The exact number an element carries in `data-value` (what the page rounds for display). */
export async function dataValue(element: Locator): Promise<number> {
  return Number(await element.getAttribute('data-value'));
}

/** The exact number of the read-out (or any element) with this test id. */
export async function readout(page: Page, testId: string): Promise<number> {
  return dataValue(page.getByTestId(testId));
}

/** The exact number of a cell in a table's body, rows and columns counted from 0. */
export async function cellValue(table: Locator, row: number, column: number): Promise<number> {
  return dataValue(table.locator('tbody tr').nth(row).locator('td').nth(column));
}

// ─── chart tooltips

/**
 * Focus a chart (by its test id) and press a key that moves its crosshair (Home, End, arrows);
 * returns the chart's tooltip once it shows.
 */
export async function pressOnChart(page: Page, chart: string, key: string): Promise<Locator> {
  await page.getByTestId(chart).locator('svg.chart-svg').focus();
  await page.keyboard.press(key);
  const tip = page.getByTestId(`${chart}-tooltip`);
  await expect(tip).toBeVisible();
  return tip;
}

/** The x value (line charts) the tooltip is at. */
export function tooltipX(tip: Locator): Promise<number> {
  return dataValue(tip.locator('.tt-head'));
}

/** One series' value in the tooltip. */
export function tooltipValue(tip: Locator, series: string): Promise<number> {
  return dataValue(tip.locator(`tr[data-series="${series}"] td.num`));
}

/**
 * Move a line chart's crosshair to its first point (Home), its last (End), or x (Home, then
 * right until the tooltip is at x), and read the tooltip there: x and each series' value by id.
 */
export async function tooltipAt(page: Page, chart: string, at: 'Home' | 'End' | number): Promise<{ x: number; y: Record<string, number> }> {
  const tip = await pressOnChart(page, chart, at === 'End' ? 'End' : 'Home');
  if (typeof at === 'number') {
    for (let i = 0; i < 300 && Math.abs((await tooltipX(tip)) - at) > 1e-9 * at; i++) await page.keyboard.press('ArrowRight');
  }
  const y: Record<string, number> = {};
  for (const row of await tip.locator('tr[data-series]').all()) {
    y[(await row.getAttribute('data-series')) ?? ''] = await dataValue(row.locator('td.num'));
  }
  return { x: await tooltipX(tip), y };
}

// ─── downloads

export type CardFileKind = 'SVG' | 'PNG' | 'CSV';

/** Press a card's "… as SVG/PNG/CSV" button (within `scope`) and return the file the browser got. */
export async function downloadFrom(scope: Locator, kind: CardFileKind): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    scope.page().waitForEvent('download'),
    scope.getByRole('button', { name: new RegExp(`as ${kind}$`) }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

/** The lines of a downloaded CSV file (without the final newline). */
export function csvLines(bytes: Buffer): string[] {
  return bytes.toString('utf8').trim().split('\n');
}

/**
 * An SVG file as the browser parses it: the parser's error (null when well-formed), the root
 * element, every <text>, and how many elements match each of `count`'s selectors.
 */
export async function parseSvg(page: Page, svg: Buffer, count: Record<string, string> = {}) {
  return page.evaluate(
    ({ text, count }) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        texts: Array.from(doc.querySelectorAll('text')).map((t) => t.textContent),
        counts: Object.fromEntries(Object.entries(count).map(([name, selector]) => [name, doc.querySelectorAll(selector).length])),
      };
    },
    { text: svg.toString('utf8'), count },
  );
}

/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Check that a file is a PNG, and return its width and height in pixels (IHDR, bytes 16 to 23). */
export function expectPng(png: Buffer): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The pixel size a card's chart must have as a PNG: its on-screen size at 2×. */
export async function chartPngSize(card: Locator): Promise<{ width: number; height: number }> {
  const box = await card.locator('svg.chart-svg').boundingBox();
  return { width: Math.round((box?.width ?? 0) * 2), height: Math.round((box?.height ?? 0) * 2) };
}

// ─── links

/**
 * Press "Copy link", wait for its confirmation and return the link it put on the clipboard,
 * checked to be the page's own URL. The context must have been granted clipboard access.
 */
export async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied to the clipboard.')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(page.url());
  return link;
}

/**
 * Open `link` in a new tab and check it shows the view `before`: `view` reads what a person sees,
 * `ready` waits until the tab has computed it. With `reload`, the same again after a reload.
 */
export async function expectLinkShowsView<V>(
  context: BrowserContext,
  link: string,
  { view, before, ready, reload = false }: { view: (tab: Page) => Promise<V>; before: V; ready?: (tab: Page) => Promise<void>; reload?: boolean },
): Promise<void> {
  const tab = await context.newPage();
  await tab.goto(link);
  for (let visit = 0; visit < (reload ? 2 : 1); visit++) {
    if (visit > 0) await tab.reload();
    await ready?.(tab);
    const shown: unknown = await view(tab);
    expect(shown).toEqual(before);
  }
  await tab.close();
}

// ─── layout

/** A full-page screenshot in ARTIFACTS/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const controlsPanel = (page: Page) => page.getByRole('complementary', { name: 'Controls' });

/** Wide layout: the controls panel ends left of `content`. */
export async function controlsLeftOf(page: Page, content: Locator): Promise<boolean> {
  const panel = await controlsPanel(page).boundingBox();
  const box = await content.boundingBox();
  return panel !== null && box !== null && panel.x + panel.width <= box.x;
}

/** Narrow layout: the controls panel ends above `content`. */
async function controlsAbove(page: Page, content: Locator): Promise<boolean> {
  const panel = await controlsPanel(page).boundingBox();
  const box = await content.boundingBox();
  return panel !== null && box !== null && panel.y + panel.height <= box.y;
}

/**
 * The page as it is now (wide) and at a phone's size: a screenshot of each (<name>.png,
 * <name>-narrow.png) and nothing overflowing sideways when narrow. Given the first content
 * element, also that the controls panel sits left of it when wide and stacks above it when narrow.
 */
export async function expectReadsWell(page: Page, name: string, phone: { width: number; height: number }, firstContent?: Locator): Promise<void> {
  if (firstContent) expect(await controlsLeftOf(page, firstContent)).toBe(true);
  await screenshot(page, name);

  await page.setViewportSize(phone);
  // Give the layout a moment to settle.
  await page.waitForTimeout(300);
  if (firstContent) expect(await controlsAbove(page, firstContent)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, `${name}-narrow`);
}
