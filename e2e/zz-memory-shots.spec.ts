import { expect, test } from '@playwright/test';
test('shots', async ({ page }) => {
  if (process.env.MEM_W) await page.setViewportSize({ width: Number(process.env.MEM_W), height: 844 });
  await page.goto(process.env.MEM_URL ?? '/#/memory');
  await expect(page.getByTestId('timing-chart')).toBeVisible();
  await expect(page.getByTestId('shamba-budget-chart')).toBeVisible();
  await page.waitForTimeout(1500);
  for (const id of (process.env.MEM_CARDS ?? 'card-mnemosyne-cost,card-mnemosyne-solver').split(',')) {
    await page.getByTestId(id).screenshot({ path: `/tmp/memwork/${id}.png` });
  }
});
