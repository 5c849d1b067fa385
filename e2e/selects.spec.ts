/**
 * Every select shows its chosen option whole: the selected label's text, in the select's own font,
 * fits inside the select (its width less padding and the arrow). Checked on every page at its
 * defaults and on the states with the longest labels.
 */
import { expect, test, type Page } from '@playwright/test';
import { openPage } from './helpers';

/** Selects whose chosen label is wider than the select can show: `label (needs N px, has M px)`. */
async function truncatedSelects(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d');
    if (!ctx) return ['no canvas'];
    const out: string[] = [];
    for (const select of Array.from(document.querySelectorAll('select'))) {
      if (select.offsetParent === null) continue; // not shown
      const text = select.selectedOptions[0]?.textContent ?? '';
      const style = getComputedStyle(select);
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const needs = ctx.measureText(text).width;
      // Chromium draws the arrow inside the right padding or beside it; allow 20 px for it.
      const has = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      if (needs > has + 0.5) out.push(`${text} (needs ${Math.ceil(needs)} px, has ${Math.floor(has)} px)`);
    }
    return out;
  });
}

const ROUTES = [
  'learn',
  'teach',
  'monkey',
  'tradeoffs',
  'moose',
  'moose?v=1&zr=40&rq=20&up=40&nzr=0&s=0',
  'moose?v=1&zr=33.4&rq=33.3&up=33.3&nzr=0&s=0',
  'memory',
  'msls',
  'tune',
  'tune?v=1&w=custom',
  'tune?v=1&d=link',
  'lab',
  'export',
  'bench',
];

test('every select shows its chosen label whole, on every page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors: string[] = [];
  const truncated: string[] = [];
  for (const route of ROUTES) {
    errors.push(...(await openPage(page, route)));
    await expect(page.locator('h1')).toBeVisible();
    await page.waitForTimeout(300);
    truncated.push(...(await truncatedSelects(page)).map((t) => `#/${route}: ${t}`));
  }
  expect(truncated).toEqual([]);
  expect(errors).toEqual([]);
});
