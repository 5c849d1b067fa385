/**
 * The storage benchmark page at its smallest size, twice: every store reports a median rate with
 * its range and its ratio to the plain IndexedDB store, the chart draws them and downloads as CSV,
 * the OPFS row says which file calls the figures cost, and the link carries the settings. Rates
 * are printed, never compared: the machine is shared.
 */
import { expect, test } from '@playwright/test';
import { copyLink, csvLines, dataValue, downloadFrom, openPage, screenshot } from './helpers';

test('benchmark: the engine on memory, OPFS and IndexedDB and a plain IndexedDB store, repeated, with medians, ranges, a chart and CSV', async ({ page, context }) => {
  test.setTimeout(400_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openPage(page, 'bench?v=1&n=100000&r=2', 'Storage benchmark');
  // Before a run: what will happen, not an empty table.
  await expect(page.getByTestId('bench-idle')).toContainText('100,000 entries, 2 times in turn');
  await expect(page.getByTestId('bench-results')).toHaveCount(0);
  // …and not an empty page: the result shipped with the app, four stores, until this browser has run.
  await expect(page.getByTestId('bench-stored')).toHaveAttribute('data-source', 'shipped');
  await expect(page.getByTestId('bench-stored-results').locator('tbody tr')).toHaveCount(4);
  expect(await copyLink(page)).toMatch(/#\/bench\?v=1&n=100000&r=2$/);
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await expect(page.getByTestId('bench-done')).toBeVisible({ timeout: 390_000 });
  await expect(page.getByTestId('bench-done')).toContainText('8 store runs');

  for (const id of ['engine-memory', 'engine-opfs', 'engine-idb', 'plain-idb']) {
    const row = page.getByTestId(`bench-${id}`);
    const cells = row.locator('td');
    for (const c of [1, 2]) {
      const median = await dataValue(cells.nth(c));
      const [min, max] = await Promise.all(['data-min', 'data-max'].map(async (a) => Number(await cells.nth(c).getAttribute(a))));
      expect(min, id).toBeGreaterThan(0);
      expect(min, id).toBeLessThanOrEqual(median);
      expect(median, id).toBeLessThanOrEqual(max);
    }
    await expect(cells.nth(5)).toHaveText('2');
    console.log(`${id}: ${Math.round(await dataValue(cells.nth(1)))} inserts/s, ${Math.round(await dataValue(cells.nth(2)))} lookups/s (medians of 2)`);
  }
  await expect(page.getByTestId('bench-plain-idb').locator('td').nth(3)).toHaveText('1.0×');
  expect(await dataValue(page.getByTestId('bench-engine-opfs').locator('td').nth(3))).toBeGreaterThan(0);

  // 100,000 entries of 116 B, rewritten by merges and logged: OPFS saw large appends, not one call per entry.
  const physical = page.getByTestId('bench-physical');
  await expect(physical).toHaveCount(1);
  const writes = Number(await physical.locator('[data-kind="write"]').getAttribute('data-count'));
  expect(writes).toBeGreaterThan(10);
  expect(writes).toBeLessThan(1_000);
  await expect(physical).toContainText('Each call into OPFS costs');
  if (Number(await physical.locator('[data-kind="read"]').getAttribute('data-count')) === 0) await expect(physical).toContainText('chunk cache');

  // The chart of the medians, and its CSV: one row per store, both rates.
  await expect(page.getByTestId('bench-chart')).toBeVisible();
  const csv = csvLines((await downloadFrom(page.getByTestId('card-rates'), 'CSV')).bytes);
  expect(csv).toHaveLength(5);
  expect(csv[0]).toContain('inserts / s (median)');
  await screenshot(page, 'bench');
  // Reopened, the page shows this browser's last run (kept in localStorage) instead of the shipped one.
  await page.reload();
  await expect(page.getByTestId('bench-stored')).toHaveAttribute('data-source', 'this-browser');
  await expect(page.getByTestId('bench-stored')).toHaveAttribute('data-entries', '100000');
  await expect(page.getByTestId('bench-stored-results').locator('tbody tr')).toHaveCount(4);
  expect(errors).toEqual([]);
});
