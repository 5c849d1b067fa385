/**
 * Text outside the charts meets WCAG AAA contrast (7:1; 4.5:1 for large text): axe's
 * `color-contrast-enhanced` on every page, at 1440×900 and 390×844, first state and with the
 * controls open on the phone. Charts (SVG) are left out: their marks are not text on a page
 * background, and the AA run in a11y.spec.ts checks them.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { collectErrors } from './helpers';

const ROUTES = ['learn', 'teach', 'monkey', 'tradeoffs', 'moose', 'memory', 'msls', 'tune', 'lab', 'lab?tab=sweep', 'lab?tab=storage', 'lab?tab=results', 'export', 'bench'];

async function enhanced(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(['color-contrast-enhanced']).exclude('svg').analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')} — ${(n.any[0]?.message ?? n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
}

for (const route of ROUTES) {
  test(`AAA contrast: text outside the charts on ${route}, desktop and phone`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/#/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(1500);
    const desktop = await enhanced(page);
    console.log(`${route} desktop: ${desktop.length} nodes under 7:1`);
    expect.soft(desktop, `${route} at 1440×900`).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(1500);
    const toggle = page.getByTestId('controls-toggle');
    if ((await toggle.count()) > 0 && (await toggle.isVisible())) await toggle.click();
    const phone = await enhanced(page);
    console.log(`${route} phone: ${phone.length} nodes under 7:1`);
    expect.soft(phone, `${route} at 390×844`).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test('AAA contrast: a Lab run’s result and Tune’s table and proof, outside the charts', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#/lab?v=1&n=20000&ops=20000');
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-result')).toBeVisible({ timeout: 120_000 });
  await page.waitForTimeout(500);
  expect.soft(await enhanced(page), 'lab result').toEqual([]);
  await page.goto('/#/tune?v=1&d=leveldb&w=b&n=20000&ops=5000&t=engine&rho=0');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 120_000 });
  expect.soft(await enhanced(page), 'tune proof').toEqual([]);
  expect(errors).toEqual([]);
});
