/**
 * The first screen of Moose, Trade-offs and Memory pressure answers the page's question with a
 * chart, and the symbols (Moose's rᵢ/nᵢ/bᵢ table, the θ, Z, R, W, Q tiles, Mnemosyne's readouts)
 * come after it: at 1440×900 the whole first chart is on the first screen, at 390×844 at least
 * 150 px of it (the lede folds under "More about this page" there).
 */
import { expect, test, type Page } from '@playwright/test';
import { collectErrors } from './helpers';

const CASES = [
  { route: 'tradeoffs', chart: 'tradeoff-chart', symbols: 'design-card', words: /holistic design/ },
  { route: 'moose', chart: 'compare-chart', symbols: 'layout-card', words: /Your layout .* against the classic designs/ },
  { route: 'memory', chart: 'mn-bars', symbols: 'mn-unn-uniform', words: /uniform, every file alike .*Monkey\+, more bits for the smaller levels .*Mnemosyne, the bits where lookups miss/ },
];

async function boxes(page: Page, chart: string, symbols: string) {
  return page.evaluate(
    ({ chart, symbols }) => {
      const svg = document.querySelector(`[data-testid="${chart}"] svg.chart-svg`)!.getBoundingClientRect();
      const sym = document.querySelector(`[data-testid="${symbols}"]`)!.getBoundingClientRect();
      const first = document.querySelector('main svg.chart-svg')!.closest('[data-testid]')?.getAttribute('data-testid');
      return { top: svg.top + window.scrollY, bottom: svg.bottom + window.scrollY, symbolsTop: sym.top + window.scrollY, first, height: window.innerHeight };
    },
    { chart, symbols },
  );
}

for (const c of CASES) {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`${c.route} at ${viewport.width}×${viewport.height}: a chart on the first screen, the symbols after it`, async ({ page }) => {
      const errors = collectErrors(page);
      await page.setViewportSize(viewport);
      await page.goto(`/#/${c.route}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId(c.chart).locator('svg.chart-svg')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId(c.symbols)).toBeAttached({ timeout: 30_000 });
      await page.waitForTimeout(500);
      const b = await boxes(page, c.chart, c.symbols);
      console.log(`${c.route} ${viewport.width}: chart ${Math.round(b.top)}–${Math.round(b.bottom)} px, symbols from ${Math.round(b.symbolsTop)} px`);
      expect(b.first, 'the page’s first chart').toBe(c.chart);
      if (viewport.width > 720) {
        expect(b.bottom, 'the whole chart on the first screen').toBeLessThanOrEqual(viewport.height);
      } else {
        expect(viewport.height - b.top, 'px of the chart on the first screen').toBeGreaterThanOrEqual(150);
        await expect(page.getByTestId('lede-fold')).not.toHaveAttribute('open', '');
        await expect(page.getByTestId('lede-fold').locator('summary')).toHaveText('More about this page');
      }
      expect(b.symbolsTop, 'the symbols after the chart').toBeGreaterThan(b.bottom);
      await expect(page.locator('article.card, .card').filter({ has: page.getByTestId(c.chart) }).first()).toContainText(c.words);
      expect(errors).toEqual([]);
    });
  }
}
