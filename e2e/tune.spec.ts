/**
 * The Tune page end to end: a system's design and a YCSB workload in; the nominal and robust
 * designs for the same memory; both run on the engine, measured next to predicted; the files out;
 * and a RocksDB OPTIONS file of one's own imported as the starting point.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openPage } from './helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function cell(page: Page, row: number, column: number): Promise<number> {
  const value = await page.getByTestId('tune-table').locator('tbody tr').nth(row).locator('td').nth(column).locator('[data-value]').getAttribute('data-value');
  return Number(value);
}

test('tune: LevelDB on YCSB B — the model’s design for the same memory, measured on the engine against the current one, exported', async ({ page }) => {
  const errors = await openPage(page, 'tune?v=1&d=leveldb&w=b&n=200000&ops=100000&rho=0', 'Tune');
  const table = page.getByTestId('tune-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  // Columns: design, shape, buffer, filters, expected, worst, gain. Rows: current, nominal, robust.
  const currentCost = await cell(page, 0, 4);
  const nominalCost = await cell(page, 1, 4);
  expect(nominalCost).toBeLessThanOrEqual(currentCost);
  expect(await cell(page, 1, 6)).toBeGreaterThanOrEqual(0);
  // At ρ = 0 the robust design is the nominal one.
  expect(await cell(page, 2, 4)).toBe(nominalCost);

  // Proof: both designs on the engine, same workload; measured next to predicted, and a verdict
  // that follows the measurement (not the model).
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 150_000 });
  const measured = async (label: string) =>
    Number(await page.getByTestId(`tune-measured-${label}`).locator('td').nth(2).getAttribute('data-value'));
  const current = await measured('current');
  const recommended = await measured('recommended');
  expect(current).toBeGreaterThan(0);
  expect(recommended).toBeGreaterThan(0);
  const gains = page.getByTestId('tune-gains');
  expect(Number(await gains.getAttribute('data-measured'))).toBeCloseTo(1 - recommended / current, 9);
  await expect(page.getByTestId('tune-verdict')).toHaveAttribute('data-verdict', recommended <= current ? 'better' : 'worse');

  // Robust: its worst case within ρ is never above the nominal design's.
  await page.getByRole('textbox', { name: /^robustness/i }).fill('0.5');
  await expect(page.getByTestId('tune-designs')).toContainText('Robust (ρ = 0.5)');
  await expect.poll(() => cell(page, 2, 5)).toBeLessThanOrEqual(await cell(page, 1, 5));
  await expect(page.getByTestId('tune-neighbourhood')).toBeVisible();

  // Take it home: the export card offers the recommended design.
  await expect(page.getByTestId('card-export')).toContainText('Take it home');
  expect(errors).toEqual([]);
});

test('tune: a RocksDB OPTIONS file of one’s own is the starting point', async ({ page }) => {
  const options = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tune-')), 'OPTIONS-mine');
  fs.writeFileSync(options, execFileSync(path.join(ROOT, 'wasm-engine/target/release/lsm'), ['export', '--design', path.join(ROOT, 'public/presets/leveldb.json'), '--format', 'rocksdb']));
  const errors = await openPage(page, 'tune', 'Tune');
  await page.getByTestId('tune-options').setInputFiles(options);
  await expect(page.getByTestId('tune-custom')).toContainText('Your design: OPTIONS-mine');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  expect(new URL(page.url()).hash).toContain('d=custom');
  expect(errors).toEqual([]);
});
