/**
 * Every page on a phone (390×844): nothing wider than the screen, no chart label past its edge,
 * the header folded to one line (≤ 64 px) once scrolled, and the first chart within the first two
 * screens (the controls fold behind a button). And styles a page needs arrive with the page: Tune's
 * file buttons are styled on a fresh load, before any other page was visited.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectErrors, screenshot } from './helpers';

const PHONE = { width: 390, height: 844 };

const PAGES: { route: string; heading: RegExp; first: string }[] = [
  { route: 'learn', heading: /^Learn/, first: 'svg.chart-svg' },
  { route: 'teach', heading: /^Teaching view/, first: '[data-testid="teach-tree"] svg' },
  { route: 'monkey', heading: /^Monkey/, first: 'svg.chart-svg' },
  { route: 'tradeoffs', heading: /^Trade-off curves/, first: 'svg.chart-svg' },
  // Moose opens on its layout card: the level table and the costs it gives.
  { route: 'moose', heading: /^Moose/, first: '[data-testid="layout-card"] [data-testid="readouts"], [data-testid="layout-card"] .readouts' },
  { route: 'memory', heading: /^Memory/, first: 'svg.chart-svg' },
  { route: 'msls', heading: /^Write amplification/, first: 'svg.chart-svg' },
  { route: 'tune', heading: /^Tune/, first: '[data-testid="tune-table"]' },
  { route: 'lab', heading: /^Workload lab/, first: '[data-testid="run-button"]' },
  { route: 'export', heading: /^Export/, first: '[data-testid="export-panel"]' },
  { route: 'bench', heading: /^Storage benchmark/, first: '[data-testid="bench-stored"], [data-testid="bench-idle"]' },
];

/** Visible chart texts whose box leaves the screen sideways (their words, for the message). */
async function labelsPastEdge(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const out: string[] = [];
    for (const t of Array.from(document.querySelectorAll('svg.chart-svg text'))) {
      const r = t.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(t).visibility === 'hidden' || t.closest('.embed-hidden, [hidden]')) continue;
      // Inside a box that scrolls sideways the reader can reach it.
      let scroller: Element | null = t.parentElement;
      while (scroller && !(scroller instanceof HTMLElement && scroller.scrollWidth > scroller.clientWidth + 1 && getComputedStyle(scroller).overflowX !== 'visible')) scroller = scroller.parentElement;
      if (scroller && scroller !== document.documentElement && scroller !== document.body) continue;
      if (r.right > width + 1 || r.left < -1) out.push(`${t.textContent} (${Math.round(r.left)}–${Math.round(r.right)})`);
    }
    return out;
  }, PHONE.width);
}

for (const c of PAGES) {
  const name = c.route;
  test(`phone: ${name} at 390×844 — fits, header folds when scrolled, first result early, no label past the edge`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.setViewportSize(PHONE);
    await page.goto(`/#/${c.route}`);
    await expect(page.getByRole('heading', { level: 1, name: c.heading })).toBeVisible();
    const first = page.locator(c.first).first();
    await expect(first).toBeVisible({ timeout: 60_000 });
    await page.waitForTimeout(500);

    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const top = await first.evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
    expect(top, `${name}: first result at ${Math.round(top)} px`).toBeLessThan(2 * PHONE.height);
    expect(await labelsPastEdge(page)).toEqual([]);
    const header = page.getByTestId('app-header');
    const open = (await header.boundingBox())?.height ?? 0;
    expect(open).toBeLessThanOrEqual(110);
    await screenshot(page, `phone-${name}`);

    // Scrolled down (where the page is long enough to scroll), the header is one line.
    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    let folded = open;
    if (scrollable > 200) {
      await page.mouse.wheel(0, 900);
      await expect(header).toHaveClass(/compact/);
      await expect.poll(async () => (await header.boundingBox())?.height ?? 999).toBeLessThanOrEqual(64);
      folded = (await header.boundingBox())?.height ?? 0;
    }
    console.log(`${name}: header ${open} px open, ${folded} px scrolled; first result at ${Math.round(top)} px`);
    // The controls are one press away.
    const toggle = page.getByTestId('controls-toggle');
    if ((await toggle.count()) > 0) {
      // Back at the top, as a reader would be to see the button: the header unfolds first, and its
      // growth moves the button, so press only once the header is open.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(header).not.toHaveClass(/compact/);
      await expect.poll(async () => (await header.boundingBox())?.height ?? 0).toBe(open);
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
    expect(errors).toEqual([]);
  });
}

test('styles arrive with the page: Tune’s file buttons and the lab’s trace button, each on a fresh first load', async ({ browser }) => {
  for (const [route, testId] of [
    ['tune', 'tune-options'],
    ['lab', 'run-trace-file'],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`/#/${route}`);
    const input = page.getByTestId(testId);
    await expect(input).toBeAttached({ timeout: 30_000 });
    const style = await input.evaluate((el) => {
      const button = el.closest('.file-button') as HTMLElement;
      const b = getComputedStyle(button);
      const i = getComputedStyle(el);
      return { inputWidth: i.width, inputPosition: i.position, border: b.borderTopWidth, radius: b.borderTopLeftRadius, padding: b.paddingLeft, display: b.display };
    });
    expect(style, route).toEqual({ inputWidth: '1px', inputPosition: 'absolute', border: '1px', radius: '6px', padding: '14px', display: 'inline-block' });
    await context.close();
  }
});
