/**
 * Text outside the charts meets WCAG AAA contrast (contrast.ts) in the states a11y.spec.ts does not
 * visit — it checks every page's first state on the desktop and on the phone with the controls
 * open: Tune's landing view (a11y opens Tune on LevelDB), the Lab's other tabs, and the results of
 * a Lab run and of Tune's proof.
 */
import { expect, test } from '@playwright/test';
import { enhancedContrast } from './contrast';
import { collectErrors } from './helpers';

const ROUTES = ['tune', 'lab?tab=sweep', 'lab?tab=storage', 'lab?tab=results'];

for (const route of ROUTES) {
  test(`AAA contrast: text outside the charts on ${route}, desktop and phone`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/#/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(1500);
    const desktop = await enhancedContrast(page);
    console.log(`${route} desktop: ${desktop.length} nodes under 7:1`);
    expect.soft(desktop, `${route} at 1440×900`).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(1500);
    const toggle = page.getByTestId('controls-toggle');
    if ((await toggle.count()) > 0 && (await toggle.isVisible())) await toggle.click();
    const phone = await enhancedContrast(page);
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
  expect.soft(await enhancedContrast(page), 'lab result').toEqual([]);
  await page.goto('/#/tune?v=1&d=leveldb&w=b&n=20000&ops=5000&t=engine&rho=0');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 120_000 });
  expect.soft(await enhancedContrast(page), 'tune proof').toEqual([]);
  expect(errors).toEqual([]);
});
