/**
 * Monkey's Fig 12(A) measured on the engine, as a person runs it on the Monkey page: three trees
 * (uniform, Monkey at birth, Monkey re-optimised) grow to 2^16 entries in the engine worker, and
 * the table, chart, summary and CSV show what the zero-result lookups read at every doubling.
 */
import { expect, test } from '@playwright/test';
import { csvLines, dataValue, downloadFrom, openPage } from './helpers';

const LOOKUPS = 20_000;

test('Monkey page: Fig 12(A) replica measured on the engine, re-optimised filters at the optimum for the tree that exists', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await openPage(page, 'monkey?v=1&T=2&pol=lev&b=5', 'Monkey vs state of the art');
  const card = page.getByTestId('card-growth-measured');
  await expect(card.getByTestId('growth-idle')).toContainText('up to 2^16 entries');
  await card.getByTestId('growth-run').click();
  await expect(card.getByTestId('growth-note')).toContainText('Measured in', { timeout: 200_000 });

  const rows = card.getByTestId('growth-row');
  await expect(rows).toHaveCount(5);
  const noise = (io: number) => 3 * Math.sqrt(io / LOOKUPS);
  let rebuildPages = 0;
  const table: string[] = [];
  for (let i = 0; i < 5; i++) {
    const row = rows.nth(i);
    expect(Number(await row.getAttribute('data-entries'))).toBe(2 ** (12 + i));
    const v = async (col: string) => dataValue(row.locator(`[data-col="${col}"]`));
    const [uniform, atBirth, reoptimised, optimum, pages] = await Promise.all(['uniform', 'at-birth', 'reoptimised', 'optimum', 'rebuild-pages'].map(v));
    table.push(`2^${12 + i}: uniform ${uniform}, at birth ${atBirth}, re-optimised ${reoptimised}, optimum ${optimum}, rebuild pages ${pages}`);
    expect(reoptimised).toBeGreaterThan(0);
    expect(reoptimised).toBeLessThanOrEqual(optimum * 1.05 + noise(optimum));
    expect(reoptimised).toBeLessThanOrEqual(uniform + noise(uniform));
    expect(reoptimised).toBeLessThanOrEqual(atBirth + noise(atBirth));
    expect(pages).toBeGreaterThanOrEqual(rebuildPages);
    rebuildPages = pages;
  }
  console.log(table.join('\n'));
  expect(rebuildPages).toBeGreaterThan(0);
  // At 2^16 the at-birth filters hold the bits they got for a smaller tree; re-optimised ones do not.
  const last = rows.nth(4);
  const atBirth = await dataValue(last.locator('[data-col="at-birth"]'));
  const reoptimised = await dataValue(last.locator('[data-col="reoptimised"]'));
  expect(reoptimised).toBeLessThan(atBirth * 0.9);
  await expect(card.getByTestId('growth-summary')).toContainText('RocksDB cannot do this');

  // Five lines: three measured, the optimum and the paper's Eq 7.
  const chart = card.getByTestId('growth-chart');
  for (const name of ['Uniform (measured)', 'Monkey at birth (measured)', 'Monkey re-optimised (measured)', 'Optimum for the measured runs', 'Monkey, Eq 7 (full levels)']) {
    await expect(chart.getByText(name, { exact: true }).first()).toBeVisible();
  }

  const csv = csvLines((await downloadFrom(card, 'CSV')).bytes);
  expect(csv[0]).toContain('Monkey re-optimised (I/O per lookup)');
  expect(csv).toHaveLength(6);
  const lastCsv = csv[5].split(',').map(Number);
  expect(lastCsv[0]).toBe(2 ** 16);
  expect(lastCsv[4]).toBeCloseTo(reoptimised, 12);
  expect(lastCsv[8]).toBe(rebuildPages);

  await expect(page.locator('body')).not.toContainText('NaN');
  expect(errors).toEqual([]);
});

test('lab: the size sweep offers the same replica, and a re-optimised design reports its rebuild pages by phase', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await openPage(page, 'lab?tab=sweep');
  const card = page.getByTestId('card-growth-measured');
  await expect(card).toContainText('leveling, T = 2, 5 filter bits per entry');
  await card.getByTestId('growth-size').selectOption('14');
  await card.getByTestId('growth-run').click();
  await expect(card.getByTestId('growth-note')).toContainText('Measured in', { timeout: 200_000 });
  await expect(card.getByTestId('growth-row')).toHaveCount(3);

  // The run view: Monkey sized at birth or re-optimised, with the rebuild pages in the load/run table.
  await page.goto('/#/lab?tab=run&fa=monkey&mp=reoptimised&T=2&b=5&n=50000&ops=50000&mm=1');
  await expect(page.getByRole('group', { name: 'Monkey sizing' }).getByRole('radio', { name: 'Re-optimised' })).toBeChecked();
  await page.getByTestId('run-button').click();
  const row = page.getByTestId('phases-table').locator('tbody tr', { hasText: 'filter rebuild pages read' });
  await expect(row).toBeVisible({ timeout: 200_000 });
  const run = await dataValue(row.locator('td').nth(2));
  console.log(`lab, 50,000 entries then 50,000 zero-result lookups: filter rebuild pages read in the run ${run}`);
  expect(run).toBeGreaterThan(0);
  await expect(page.locator('body')).not.toContainText('NaN');
  expect(errors).toEqual([]);
});
