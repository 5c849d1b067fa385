import { expect, test } from '@playwright/test';

const num = (s: string | null) => Number((s ?? '').replace(/[^0-9.]/g, ''));

test('engine check: 100,000 keys and 10,000 lookups run in the worker and the counters appear', async ({ page }) => {
  // The engine check lives with the databases in the lab's Databases view.
  await page.goto('/#/lab?tab=storage');
  await page.getByRole('button', { name: 'Load 100,000 keys and run 10,000 lookups' }).click();

  await expect(page.getByTestId('keys-loaded')).toHaveText('100,000', { timeout: 120_000 });
  await expect(page.getByTestId('lookups')).toHaveText('10,000');
  // Even lookups hit keys that exist, odd ones keys never written.
  await expect(page.getByTestId('found')).toHaveText('5,000');
  // 100,000 entries of 113 B through a 1 MiB buffer: 10 flushes; the 10th fills level 1
  // (size ratio 10), which merges into level 2 once.
  await expect(page.getByTestId('flushes')).toHaveText('10');
  await expect(page.getByTestId('compactions')).toHaveText('1');
  await expect(page.getByTestId('shape')).toHaveText('2 / 1');

  const dataPages = num(await page.getByTestId('data-pages-read').textContent());
  const probes = num(await page.getByTestId('filter-probes').textContent());
  const negatives = num(await page.getByTestId('filter-negatives').textContent());
  const falsePositives = num(await page.getByTestId('false-positives').textContent());
  // One run, one filter: every lookup not answered by the buffer probes it once; each positive
  // costs exactly one page read; at ~10 bits/key false positives are about 1% of misses.
  expect(probes).toBeGreaterThan(5_000);
  expect(probes).toBeLessThanOrEqual(10_000);
  expect(dataPages).toBe(probes - negatives);
  expect(falsePositives).toBeLessThan(200);
  expect(num(await page.getByTestId('io-per-lookup').textContent())).toBeCloseTo(dataPages / 10_000, 4);

  // The engine lives in a dedicated worker: the page itself never fetched the wasm module.
  expect(page.workers().some((w) => w.url().includes('engine.worker'))).toBe(true);
  const pageWasm = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length,
  );
  expect(pageWasm).toBe(0);
});
