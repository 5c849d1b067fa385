/**
 * On a phone (390×844), every chart on every page: no two tick labels of one axis overlap (the
 * shared thinning in ui/charts/tickLabels.ts), measured on the boxes the browser draws. And the top
 * navigation, which scrolls sideways there, shows on each side that holds more pages a fade and an
 * arrow, and no link is cut at an edge without one.
 */
import { expect, test, type Page } from '@playwright/test';
import { collectErrors } from './helpers';

const PHONE = { width: 390, height: 844 };
const ROUTES = [
  'learn',
  'teach',
  'monkey',
  'tradeoffs',
  'moose',
  'memory',
  'msls',
  'msls?v=1&x=r',
  'tune',
  'lab',
  'export',
  'bench',
];

/** Pairs of tick labels on one axis whose drawn boxes overlap, with the chart they are in. */
async function overlappingTicks(page: Page): Promise<{ charts: number; labels: number; overlaps: string[] }> {
  return page.evaluate(() => {
    const overlaps: string[] = [];
    let labels = 0;
    const svgs = Array.from(document.querySelectorAll('svg')).filter((s) => s.querySelector('g.axis'));
    for (const svg of svgs) {
      const chart = svg.closest('[data-testid]')?.getAttribute('data-testid') ?? svg.getAttribute('aria-label') ?? 'chart';
      for (const axis of Array.from(svg.querySelectorAll('g.axis'))) {
        const boxes = Array.from(axis.querySelectorAll('text'))
          .filter((t) => !t.classList.contains('axis-title') && (t.textContent ?? '').trim() !== '')
          .map((t) => ({ text: t.textContent ?? '', r: t.getBoundingClientRect() }))
          .filter((b) => b.r.width > 0);
        labels += boxes.length;
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i].r;
            const b = boxes[j].r;
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 0.5 && h > 0.5) overlaps.push(`${chart}: “${boxes[i].text}” and “${boxes[j].text}” overlap by ${w.toFixed(1)}×${h.toFixed(1)} px`);
          }
        }
      }
    }
    return { charts: svgs.length, labels, overlaps };
  });
}

/** Wait until the page's charts stop appearing (sweeps finish): the count of drawn axes steady for 1.5 s. */
async function chartsSettled(page: Page): Promise<void> {
  let last = -1;
  let steadySince = Date.now();
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const n = await page.evaluate(() => document.querySelectorAll('g.axis text').length + document.querySelectorAll('.chart-placeholder').length * 1000);
    if (n !== last) {
      last = n;
      steadySince = Date.now();
    } else if (Date.now() - steadySince > 1500 && (await page.locator('.chart-placeholder').count()) === 0) return;
    await page.waitForTimeout(250);
  }
}

for (const route of ROUTES) {
  test(`phone: no two tick labels overlap on any chart of ${route}`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.setViewportSize(PHONE);
    await page.goto(`/#/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await chartsSettled(page);
    const found = await overlappingTicks(page);
    console.log(`${route}: ${found.charts} charts, ${found.labels} tick labels, ${found.overlaps.length} overlapping pairs`);
    expect(found.overlaps).toEqual([]);
    if (!['tune', 'lab', 'export', 'bench', 'teach'].includes(route)) {
      expect(found.charts).toBeGreaterThan(0);
      expect(found.labels).toBeGreaterThan(4);
    }
    expect(errors).toEqual([]);
  });
}

test('phone: no two tick labels overlap on the charts a Lab run and a robust tune draw', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await page.setViewportSize(PHONE);
  await page.goto('/#/lab?v=1&n=20000&ops=20000&me=0.3&mm=0.5&mr=0.2');
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-result')).toBeVisible({ timeout: 120_000 });
  await chartsSettled(page);
  let found = await overlappingTicks(page);
  console.log(`lab result: ${found.charts} charts, ${found.labels} tick labels, ${found.overlaps.length} overlapping pairs`);
  expect(found.charts).toBeGreaterThanOrEqual(2);
  expect(found.overlaps).toEqual([]);
  await page.goto('/#/tune?v=1&d=leveldb&w=b&n=20000&ops=5000&t=engine&rho=0.5');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  await chartsSettled(page);
  found = await overlappingTicks(page);
  console.log(`tune: ${found.charts} charts, ${found.labels} tick labels, ${found.overlaps.length} overlapping pairs`);
  expect(found.charts).toBeGreaterThanOrEqual(1);
  expect(found.overlaps).toEqual([]);
  expect(errors).toEqual([]);
});

/** Each nav link's box against the nav's visible box, and what the two arrows show. */
async function navState(page: Page) {
  return page.getByTestId('nav-scroller').evaluate((scroller) => {
    const nav = scroller.querySelector('nav')!;
    const box = nav.getBoundingClientRect();
    const links = Array.from(nav.querySelectorAll('a')).map((a) => {
      const r = a.getBoundingClientRect();
      return { text: a.textContent ?? '', cutLeft: r.left < box.left - 0.5, cutRight: r.right > box.right + 0.5 };
    });
    const arrow = (side: string) => {
      const b = scroller.querySelector<HTMLElement>(`.nav-more-${side}`)!;
      const r = b.getBoundingClientRect();
      return { shown: getComputedStyle(b).display !== 'none' && r.width > 0 && r.left >= 0 && r.right <= window.innerWidth, text: b.textContent?.trim() };
    };
    return { scrolls: nav.scrollWidth > nav.clientWidth + 1, scrollLeft: nav.scrollLeft, mask: getComputedStyle(nav).maskImage, links, left: arrow('left'), right: arrow('right') };
  });
}

test('phone: the top navigation shows that it scrolls, on the side where the pages are', async ({ page }) => {
  const errors = collectErrors(page);
  await page.setViewportSize(PHONE);
  await page.goto('/#/learn');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  let s = await navState(page);
  expect(s.scrolls).toBe(true);
  // At the start: more to the right, an arrow and a fade there, none on the left.
  expect(s.links.some((l) => l.cutRight)).toBe(true);
  expect(s.right).toEqual({ shown: true, text: '›' });
  expect(s.left.shown).toBe(false);
  expect(s.mask).toContain('linear-gradient');
  // The arrow scrolls: then there is more on both sides, or the end is reached.
  await page.getByTestId('nav-more-right').click();
  await expect.poll(async () => (await navState(page)).scrollLeft).toBeGreaterThan(50);
  for (let i = 0; i < 10 && (await navState(page)).right.shown; i++) {
    await page.getByTestId('nav-more-right').click();
    await page.waitForTimeout(400);
  }
  s = await navState(page);
  expect(s.right.shown).toBe(false);
  expect(s.left).toEqual({ shown: true, text: '‹' });
  expect(s.links.some((l) => l.cutLeft)).toBe(true);
  expect(s.links.at(-1)?.cutRight).toBe(false);

  // On every page the nav opens with the current page in view, and any link cut at an edge has an arrow on that side.
  for (const route of ['teach', 'moose', 'msls', 'lab', 'bench']) {
    await page.goto(`/#/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(300);
    s = await navState(page);
    if (s.links.some((l) => l.cutLeft)) expect(s.left.shown, `${route}: links cut on the left without an arrow`).toBe(true);
    if (s.links.some((l) => l.cutRight)) expect(s.right.shown, `${route}: links cut on the right without an arrow`).toBe(true);
    expect(s.left.shown || s.right.shown, route).toBe(true);
  }
  // On a desktop the nav fits: no arrows.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
  s = await navState(page);
  expect(s.scrolls).toBe(false);
  expect(s.left.shown || s.right.shown).toBe(false);
  expect(errors).toEqual([]);
});
