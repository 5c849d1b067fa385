/**
 * Every wait over a second shows a bar and a time left that never rises by more than half of
 * itself (sampled every 150 ms, against the lowest shown so far): a Lab run with its preload, the
 * storage benchmark (which also no longer shows an empty memory column, says when its stored
 * result is for other settings, and keeps its sentences apart), Tune's proof run. And the Lab
 * draws no zero-result chart for a workload without zero-result lookups.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { collectErrors, openPage } from './helpers';

interface Sample {
  t: number;
  eta: number | null;
  bar: number | null;
}

/** Sample a progress bar and its time left every 150 ms until `done` shows. */
async function sampleUntil(page: Page, bar: Locator, eta: Locator, done: Locator, timeout: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (await done.isVisible()) return samples;
    const [b, e] = await Promise.all([bar.getAttribute('aria-valuenow', { timeout: 200 }).catch(() => null), eta.getAttribute('data-value', { timeout: 200 }).catch(() => null)]);
    if (b !== null || e !== null) samples.push({ t: Date.now() - start, bar: b === null || b === '' ? null : Number(b), eta: e === null || e === '' ? null : Number(e) });
    await page.waitForTimeout(150);
  }
  throw new Error('the wait did not end');
}

/** The time left never rose above 1.5 × the lowest shown before it (nor 1.5 × the one just before). */
function checkTimeLeft(name: string, samples: Sample[]): void {
  const etas = samples.map((s) => s.eta).filter((e): e is number => e !== null);
  console.log(`${name}: ${samples.length} samples over ${((samples.at(-1)?.t ?? 0) / 1000).toFixed(1)} s; time left ${etas.map((e) => e.toFixed(1)).join(' → ')}`);
  expect(etas.length, `${name}: a time left was shown`).toBeGreaterThan(2);
  let lowest = Infinity;
  for (let i = 0; i < etas.length; i++) {
    if (i > 0) expect(etas[i], `${name}: time left rose from ${etas[i - 1]} to ${etas[i]}`).toBeLessThanOrEqual(etas[i - 1] * 1.5 + 0.01);
    expect(etas[i], `${name}: time left ${etas[i]} after a low of ${lowest}`).toBeLessThanOrEqual(lowest * 1.5 + 0.01);
    lowest = Math.min(lowest, etas[i]);
  }
  const bars = samples.map((s) => s.bar).filter((b): b is number => b !== null);
  expect(Math.max(...bars), `${name}: the bar moved`).toBeGreaterThan(Math.min(...bars));
}

test('Lab: a run with its preload shows a bar and a time left that never rises by half', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = await openPage(page, 'lab?v=1&n=1500000&ops=500000&me=0.5&mm=0.5', 'Workload lab');
  await page.getByTestId('run-button').click();
  const progress = page.getByTestId('task-progress');
  await expect(progress).toBeVisible({ timeout: 1000 });
  const samples = await sampleUntil(page, page.getByTestId('run-progress'), page.getByTestId('progress-eta'), page.getByTestId('run-result'), 280_000);
  expect(samples.length).toBeGreaterThan(5);
  checkTimeLeft('lab run', samples);
  // This run made zero-result lookups: their chart by level is drawn.
  await expect(page.getByTestId('level-chart')).toBeVisible();
  expect(errors).toEqual([]);
});

test('Lab: a sweep of 16 runs shows its runs and a time left over all of them that never rises by half', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = await openPage(page, 'lab?tab=sweep', 'Workload lab');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('task-step')).toBeVisible({ timeout: 1000 });
  const samples = await sampleUntil(page, page.getByRole('progressbar', { name: 'Runs done' }), page.getByTestId('progress-eta'), page.getByTestId('sweep-saved'), 280_000);
  checkTimeLeft('lab sweep', samples);
  expect(errors).toEqual([]);
});

test('Lab: a workload without zero-result lookups gets no zero-result chart, and says why', async ({ page }) => {
  const errors = await openPage(page, 'lab?v=1&n=20000&ops=5000&me=1&mm=0', 'Workload lab');
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('overlay-chart')).toBeVisible();
  await expect(page.getByTestId('level-chart')).toHaveCount(0);
  await expect(page.getByTestId('level-chart-none')).toHaveText('This workload made no zero-result lookups, so there is no zero-result I/O by level to draw.');
  await expect(page.getByRole('heading', { name: 'Zero-result I/O by level' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Benchmark: the stored result says which settings it is for; a run shows a bar and a time left; no empty memory column; sentences kept apart', async ({ page }) => {
  test.setTimeout(400_000);
  const errors = collectErrors(page);
  // The default settings (1,000,000 entries) against the shipped result (100,000).
  await page.goto('/#/bench');
  const stored = page.getByTestId('bench-stored');
  await expect(stored).toBeVisible();
  const storedEntries = Number(await stored.getAttribute('data-entries'));
  await expect(page.locator('.page-lede, header p').filter({ hasText: 'loads 1,000,000 entries (set on the left)' }).first()).toBeVisible();
  if (storedEntries !== 1_000_000) {
    await expect(page.getByTestId('bench-stored-mismatch')).toHaveText(
      `This result is for ${storedEntries.toLocaleString('en-US')} entries; the settings on the left are for 1,000,000. Set ${storedEntries.toLocaleString('en-US')} entries`,
    );
    await page.getByTestId('bench-stored-settings').click();
    await expect(page.getByTestId('bench-stored-mismatch')).toHaveCount(0);
    await expect(page.locator('.page-lede, header p').filter({ hasText: `loads ${storedEntries.toLocaleString('en-US')} entries (set on the left)` }).first()).toBeVisible();
  }
  // Engine memory: no column of dashes; a note says when the browser's own measure is taken.
  await expect(stored.getByTestId('bench-engine')).toBeVisible();
  await expect(stored.getByTestId('bench-engine').locator('th', { hasText: 'worker, measured by the browser' })).toHaveCount(0);
  await expect(stored.getByTestId('bench-worker-note')).toContainText('runs above 1,000,000 entries only');

  await page.goto('/#/bench?v=1&n=100000&r=1');
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  const bar = page.getByTestId('bench-progress-bar');
  await expect(bar).toBeVisible({ timeout: 1000 });
  const samples = await sampleUntil(page, bar, page.getByTestId('bench-progress-eta'), page.getByTestId('bench-done'), 390_000);
  checkTimeLeft('benchmark', samples);
  await expect(page.getByTestId('bench-progress')).toHaveCount(0);
  const rates = page.locator('article.card', { has: page.getByTestId('bench-results') });
  await expect(rates.locator('.caption').first()).toContainText('record per entry. Lookups are half');
  // No column of the engine table is dashes all the way down.
  const columns = await rates.getByTestId('bench-engine').evaluate((table) => {
    const rows = Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? ''));
    return Array.from(table.querySelectorAll('thead th')).map((th, i) => ({ name: th.textContent ?? '', empty: rows.every((r) => r[i] === '—' || r[i] === '') }));
  });
  expect(columns.length).toBeGreaterThan(4);
  expect(columns.filter((c) => c.empty).map((c) => c.name)).toEqual([]);
  await expect(rates.getByTestId('bench-engine').locator('th', { hasText: 'worker, measured by the browser' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Tune: the proof run shows a bar and a time left that never rises by half', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = await openPage(page, 'tune?v=1&d=leveldb&w=b&n=400000&ops=200000', 'Tune');
  const prove = page.getByTestId('tune-run');
  await expect(prove).toBeEnabled({ timeout: 60_000 });
  await prove.click();
  await expect(page.getByTestId('task-progress')).toBeVisible({ timeout: 1000 });
  const samples = await sampleUntil(page, page.getByTestId('run-progress'), page.getByTestId('progress-eta'), page.getByTestId('tune-measured'), 280_000);
  checkTimeLeft('tune proof', samples);
  expect(errors).toEqual([]);
});
