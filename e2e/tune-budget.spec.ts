/**
 * The Tune page's inputs besides the design and the workload, as a person sees them: the memory
 * budget (default: what the current design uses, shown; a bad one refused naming the field and
 * its range) and what the designs are ranked by (I/O per operation, or predicted time on this
 * device once it is calibrated), and whether a C++ filter plugin may be recommended (per-level
 * bits through the shipped policy.h; off by default).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openPage } from './helpers';

/** RocksDB's true defaults, YCSB B at 100,000 records, advice for RocksDB. */
const ROCKSDB_B = 'tune?v=1&d=rocksdb&w=b&n=100000&ops=50000&t=rocksdb&rho=0';

async function recommendedMemory(page: Page): Promise<number> {
  return Number(await page.getByTestId('tune-memory-recommended').getAttribute('data-total'));
}

test('tune: the memory budget is an input — its default is what the current design uses, a budget moves the recommendation’s memory, a bad one is named with its range', async ({ page }) => {
  const errors = await openPage(page, ROCKSDB_B, 'Tune');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  const field = page.getByRole('textbox', { name: /memory budget/i });
  await expect(field).toHaveValue('0');
  // The default is the current design's memory, shown, and the recommendation fits the same.
  const shown = page.getByTestId('tune-memory-default');
  await expect(shown).toContainText('0 = what the current design uses');
  const current = Number(await shown.getAttribute('data-bytes'));
  expect(current).toBeGreaterThan(128 << 20);
  expect(Math.abs((await recommendedMemory(page)) - current)).toBeLessThanOrEqual(1);
  const before = await page.getByTestId('tune-memory-recommended').innerText();

  // 300 MiB: the recommendation spends it (the block cache takes what the rest leaves).
  await field.fill('300');
  await expect(page.getByTestId('tune-memory-recommended')).not.toHaveText(before, { timeout: 60_000 });
  await expect(page.getByTestId('tune-memory-recommended')).toContainText('Recommended: 300.0 MiB');
  expect(Math.abs((await recommendedMemory(page)) - 300 * 1_048_576)).toBeLessThanOrEqual(1);
  expect(new URL(page.url()).hash).toContain('mem=300');
  // The current design is still charged what it uses.
  expect(Number(await page.getByTestId('tune-memory').getAttribute('data-total'))).toBeCloseTo(current, 0);

  // Below 1 MiB: refused, naming the field and the range; the last recommendation stays.
  await field.fill('0.5');
  await expect(page.getByTestId('tune-memory-error')).toContainText('memory budget must be 0 (what the current design uses) or between 1 and 1073741824 MiB, got 0.5');
  await expect(page.getByTestId('tune-memory-recommended')).toContainText('Recommended: 300.0 MiB');
  // Not a number, or negative: the field says so with its range.
  await field.fill('-3');
  await expect(page.locator('.number-field.invalid')).toContainText(/memory budget must be .*0.*1[,.]?07/i);
  await field.fill('0');
  await expect(page.getByTestId('tune-memory-error')).toHaveCount(0);
  await expect(page.getByTestId('tune-memory-recommended')).not.toContainText('Recommended: 300.0 MiB', { timeout: 60_000 });

  // Ranking by time waits for a calibration.
  await expect(page.getByRole('radio', { name: 'predicted time on this device' })).toBeDisabled();
  await expect(page.getByTestId('tune-rank-note')).toContainText('Calibrate this device');
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('tune: once this device is calibrated the designs can be ranked by predicted time, the verdict and the option diff stated in time', async ({ page }) => {
  // A calibration kept in this browser (what "Calibrate this device" stores): a device where a
  // page written costs ten page reads.
  await page.addInitScript(() => {
    localStorage.setItem(
      'lsm-navigator/calibration',
      JSON.stringify({
        kind: 'lsm-navigator/calibration',
        version: 1,
        device: 'a test device with dear writes',
        direct_reads: false,
        page_bytes: 4096,
        page_read_us: 100,
        page_write_us: 1000,
        store: 'lsm-engine (test)',
        cpu_us: [1, 2, 10, 3],
        notes: [],
      }),
    );
  });
  const errors = await openPage(page, ROCKSDB_B, 'Tune');
  const table = page.getByTestId('tune-table');
  await expect(table.locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  await expect(table.locator('thead')).toContainText('I/O per op');
  const time = page.getByRole('radio', { name: 'predicted time on this device' });
  await expect(time).toBeEnabled();
  await time.check();
  await expect(table.locator('thead')).toContainText('predicted time', { timeout: 60_000 });
  await expect(table.locator('thead')).toContainText('µs per op');
  expect(new URL(page.url()).hash).toContain('rank=time');
  // The current design's time: its CPU plus its pages at 100 µs read, 1,000 µs written — more
  // than its pages alone at the read price.
  const currentUs = Number(await table.locator('tbody tr').nth(0).locator('td').nth(2).locator('[data-value]').getAttribute('data-value'));
  const currentIo = Number(await table.locator('tbody tr').nth(0).locator('td').nth(3).locator('[data-value]').getAttribute('data-value'));
  expect(currentIo).toBeGreaterThan(0);
  expect(currentUs).toBeGreaterThan(100 * currentIo);
  await expect(page.getByTestId('tune-designs')).toContainText('ranked by predicted time on a test device with dear writes');
  await expect(page.getByTestId('tune-verdict-model')).toContainText('time per operation on a test device with dear writes');
  const changes = page.getByTestId('tune-changes');
  if ((await changes.count()) > 0) await expect(changes.locator('caption')).toContainText('shares of the gain in predicted time per operation');
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('tune: the per-level filter plugin is off by default; allowed, a recommendation that needs it says so and the bundle carries policy.h', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-plugin-'));
  // 200,000 records of 16 + 100 B under a 2 MiB memtable, 4 bits/key, a 256 KiB cache; half the
  // lookups of keys never written (interop/rocksdb/plugin.test.mjs plays it on RocksDB).
  const options = path.join(dir, 'OPTIONS-plugin');
  fs.writeFileSync(
    options,
    [
      '[Version]',
      '  rocksdb_version=7.8.3',
      '[DBOptions]',
      '  create_if_missing=true',
      '[CFOptions "default"]',
      '  write_buffer_size=2097152',
      '  max_bytes_for_level_base=8388608',
      '  target_file_size_base=2097152',
      '[TableOptions/BlockBasedTable "default"]',
      '  filter_policy=bloomfilter:4:false',
      '  format_version=5',
      '  block_cache={capacity=262144}',
      '',
    ].join('\n'),
  );
  const workload = path.join(dir, 'half-missing.json');
  fs.writeFileSync(
    workload,
    JSON.stringify({
      kind: 'lsm-navigator/workload',
      version: 1,
      name: 'half missing',
      seed: 7,
      preload: { entries: 200000, key_space: 0, key_bytes: 16, value_bytes: 100 },
      operations: 100000,
      mix: { get_missing: 0.5, get_existing: 0.5 },
      distribution: { kind: 'uniform' },
    }),
  );
  const errors = await openPage(page, 'tune', 'Tune');
  await page.getByTestId('tune-options').setInputFiles(options);
  await page.getByTestId('tune-workload-file').setInputFiles(workload);
  const verdict = page.getByTestId('tune-verdict-model');
  await expect(verdict).toHaveAttribute('data-keep', 'false', { timeout: 60_000 });
  const box = page.getByRole('checkbox', { name: /Allow a C\+\+ filter plugin \(per-level bits\)/ });
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId('tune-plugin-required')).toHaveCount(0);
  const before = await verdict.innerText();
  await box.check();
  await expect(verdict).not.toHaveText(before, { timeout: 60_000 });
  const required = page.getByTestId('tune-plugin-required');
  await expect(required).toContainText('Plugin required');
  await expect(required).toContainText('policy.h');
  const bits = ((await required.getAttribute('data-bits')) ?? '').split(',').map(Number);
  expect(new Set(bits).size, `bits differ by level: ${bits}`).toBeGreaterThan(1);
  await expect(verdict).toContainText('plugin required');
  await expect(page.getByTestId('tune-changes').locator('tr[data-option*="policy.h"]')).toHaveCount(1);
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-zip').click()]);
  const bytes = fs.readFileSync(await zip.path());
  for (const name of ['policy.h', 'compare.sh', 'recommended.OPTIONS']) {
    expect(bytes.includes(Buffer.from(`lsm-navigator-tune/${name}`)), name).toBe(true);
  }
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});
