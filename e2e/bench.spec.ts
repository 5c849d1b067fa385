/**
 * The storage benchmark page, at its smallest size: every store reports a rate, the engine's
 * lookups found what it inserted (its run finished), and the OPFS row says which file calls
 * the figures cost. Rates are printed, never compared: the machine is shared.
 */
import { expect, test } from '@playwright/test';
import {
  dataValue,
  openPage,
  screenshot,
} from './helpers';

test('benchmark: the engine on memory, OPFS and IndexedDB and a plain IndexedDB store all report rates', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await openPage(page, 'bench?n=100000');
  await expect(page.getByLabel('Entries')).toHaveValue('100000');
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await expect(page.getByTestId('bench-done')).toBeVisible({ timeout: 170_000 });

  const rows = ['engine-memory', 'engine-opfs', 'engine-idb', 'plain-idb'];
  for (const id of rows) {
    const row = page.getByTestId(`bench-${id}`);
    const inserts = await dataValue(row.locator('td').nth(1));
    const lookups = await dataValue(row.locator('td').nth(2));
    console.log(`${id}: ${Math.round(inserts)} inserts/s, ${Math.round(lookups)} lookups/s`);
    expect(inserts, id).toBeGreaterThan(0);
    expect(lookups, id).toBeGreaterThan(0);
    expect(Number.isFinite(inserts) && Number.isFinite(lookups), id).toBe(true);
  }
  await expect(page.getByTestId('bench-plain-idb').locator('td').nth(3)).toHaveText('1.0×');

  // 100,000 entries of 116 B, rewritten by merges and logged: OPFS saw large appends, not one call per entry.
  const physical = page.getByTestId('bench-physical');
  await expect(physical).toHaveCount(1);
  const writes = Number(await physical.locator('[data-kind="write"]').getAttribute('data-count'));
  expect(writes).toBeGreaterThan(10);
  expect(writes).toBeLessThan(1_000);
  await screenshot(page, 'bench');
  expect(errors).toEqual([]);
});
