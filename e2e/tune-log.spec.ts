/**
 * Tune's "Import your LOG", as a person uses it: their OPTIONS file, then the LOG RocksDB wrote
 * (lsm-export's fixture: real RocksDB 7.8.3 under db_bench readrandomwriterandom, 80% reads, with
 * statistics). The page shows the mix the LOG's counters give, each figure as the LOG has it
 * against the prediction, what was assumed, and tunes for the fitted workload. A LOG cut
 * mid-dump is refused, naming the line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { openPage } from './helpers';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../wasm-engine/crates/lsm-export/tests/fixtures/rocksdb-log');
const file = (name: string, text?: string) => ({
  name,
  mimeType: 'text/plain',
  buffer: text === undefined ? fs.readFileSync(path.join(fixtures, name)) : Buffer.from(text),
});

test('tune: a RocksDB LOG becomes the workload — the mix from its counters, its figures against the prediction, what was assumed', async ({ page }) => {
  // A small YCSB B first, so the tune the OPTIONS import starts is done before the LOGs come.
  const errors = await openPage(page, 'tune?v=1&w=b&n=20000&ops=10000', 'Tune');
  await page.getByTestId('tune-options').setInputFiles(file('OPTIONS'));
  await expect(page.getByTestId('tune-custom')).toContainText('Your design: OPTIONS');
  await expect(page.getByTestId('tune-table').locator('tbody tr').first()).toBeVisible({ timeout: 120_000 });

  // The LOG cut mid-line: refused, naming the line; nothing half-read becomes the workload.
  const text = fs.readFileSync(path.join(fixtures, 'statistics.LOG'), 'utf8');
  const cut = text.slice(0, text.lastIndexOf('rocksdb.bloom.filter.useful') + 10);
  await page.getByTestId('tune-log').setInputFiles(file('cut.LOG', cut));
  await expect(page.getByTestId('tune-problem')).toContainText(`cut.LOG: RocksDB LOG: line ${cut.split('\n').length}: the LOG ends mid-line`, { timeout: 60_000 });
  await expect(page.getByTestId('tune-fit')).toHaveCount(0);

  await page.getByTestId('tune-log').setInputFiles(file('statistics.LOG'));
  const fit = page.getByTestId('tune-fit');
  // 153,415 lookups (102,025 found) and 38,340 writes: what db_bench's 80% reads gave.
  await expect(fit).toContainText('Mix from the LOG\'s counters: 80.0% point lookups (53.2% found), 20.0% writes, 0.0% scans', { timeout: 60_000 });
  await expect(fit).toContainText('keys of 16 + 100 bytes; keys uniform');
  await expect(fit).toContainText('cache hit rate: LOG 0.436, predicted');
  await expect(fit).toContainText('fitted to');
  await expect(fit).toContainText('data blocks per lookup: LOG 0.387');
  await expect(fit).toContainText('Assumed: writes: a write is to an existing key as often as a lookup finds one (66.5%)');
  await expect(page.getByTestId('tune-imported-workload')).toContainText('Your workload: statistics.LOG');
  await expect(page.getByTestId('tune-problem')).toHaveCount(0);
  expect(await page.locator('main').textContent()).not.toContain('NaN');
  expect(errors).toEqual([]);
});
