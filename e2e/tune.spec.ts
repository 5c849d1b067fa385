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
import { openPage, screenshot } from './helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function cell(page: Page, row: number, column: number): Promise<number> {
  const value = await page.getByTestId('tune-table').locator('tbody tr').nth(row).locator('td').nth(column).locator('[data-value]').getAttribute('data-value');
  return Number(value);
}

test('tune: LevelDB on YCSB B — the engine’s design for the same memory, measured against the current one, the bundle downloaded', async ({ page }) => {
  const errors = await openPage(page, 'tune?v=1&d=leveldb&w=b&n=100000&ops=50000&t=engine&rho=0', 'Tune');
  const table = page.getByTestId('tune-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  // Columns: design, shape, predicted cost, worst within ρ, gain. Rows: current, nominal, robust.
  const currentCost = await cell(page, 0, 2);
  const nominalCost = await cell(page, 1, 2);
  expect(nominalCost).toBeLessThanOrEqual(currentCost);
  expect(await cell(page, 1, 4)).toBeGreaterThanOrEqual(0);
  // At ρ = 0 the robust design is the nominal one.
  expect(await cell(page, 2, 2)).toBe(nominalCost);
  // One headline gain, with its range: the same number in the headline and in the table's row.
  const headline = page.getByTestId('tune-headline');
  const headlineGain = Number(await headline.getAttribute('data-gain'));
  expect(await cell(page, 1, 4)).toBe(headlineGain);
  expect(Number(await headline.getAttribute('data-low'))).toBeLessThanOrEqual(headlineGain);
  expect(Number(await headline.getAttribute('data-high'))).toBeGreaterThanOrEqual(headlineGain);
  await expect(headline).toContainText(`${(headlineGain * 100).toFixed(1)}% less I/O per operation in the run as played predicted (`);
  // And with twice the data, both designs are priced again.
  await expect(page.getByTestId('tune-grown')).toContainText('With twice the data (200,000 records)');

  // Proof: both designs on the engine, same workload; measured next to predicted per class and in
  // total, and a verdict that follows the measurement.
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 150_000 });
  const total = async (label: string) => Number(await page.getByTestId(`tune-measured-${label}`).locator('td[data-value]').last().getAttribute('data-value'));
  const predicted = async (label: string) => Number(await page.getByTestId(`tune-measured-${label}`).locator('td[data-value]').first().getAttribute('data-value'));
  const current = await total('current');
  const recommended = await total('recommended');
  expect(current).toBeGreaterThan(0);
  expect(recommended).toBeGreaterThan(0);
  // The engine predicts itself: each total within 8% of its prediction (tests/tune.rs states why).
  for (const label of ['current', 'recommended']) {
    expect(Math.abs((await predicted(label)) / (await total(label)) - 1)).toBeLessThan(0.08);
  }
  // YCSB B has non-zero-result lookups and writes: one predicted / measured cell each.
  const classes = page.getByTestId('tune-measured-current').locator('td[data-class]');
  await expect(classes).toHaveCount(2);
  const gains = page.getByTestId('tune-gains');
  expect(Number(await gains.getAttribute('data-measured'))).toBeCloseTo(1 - recommended / current, 9);
  await expect(page.getByTestId('tune-verdict')).toHaveAttribute('data-verdict', recommended <= current ? 'better' : 'worse');

  // Take it home: the report names the measured gain; the zip holds every file.
  const [report] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-file-REPORT.md').click()]);
  const text = fs.readFileSync(await report.path(), 'utf8');
  expect(text).toContain('## What changed');
  expect(text).toContain('Measured on the engine, in memory, in the browser');
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-zip').click()]);
  expect(zip.suggestedFilename()).toBe('lsm-navigator-tune.zip');
  const bytes = fs.readFileSync(await zip.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  for (const name of ['REPORT.md', 'recommended.OPTIONS', 'compare.sh', 'workload.properties', 'tune-result.json']) {
    expect(bytes.includes(Buffer.from(`lsm-navigator-tune/${name}`))).toBe(true);
  }

  // Robust: its worst case within ρ is never above the nominal design's.
  await page.getByRole('textbox', { name: /^robustness/i }).fill('0.5');
  await expect(page.getByTestId('tune-designs')).toContainText('Robust (ρ = 0.5)');
  await expect.poll(() => cell(page, 2, 3)).toBeLessThanOrEqual(await cell(page, 1, 3));
  await expect(page.getByTestId('tune-neighbourhood')).toBeVisible();
  // Under drift: both designs measured on the expected workload and on the nominal design's worst case.
  await page.getByTestId('tune-drift-run').click();
  await expect(page.getByTestId('tune-drift')).toBeVisible({ timeout: 150_000 });
  for (const label of ['nominal', 'robust']) {
    const cells = page.getByTestId(`tune-drift-${label}`).locator('td[data-value]');
    await expect(cells).toHaveCount(2);
    for (const v of await cells.evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))))) expect(v).toBeGreaterThan(0);
  }
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('tune for RocksDB: the recommendation keeps RocksDB’s shape', async ({ page }) => {
  const errors = await openPage(page, 'tune?v=1&d=rocksdb&w=c&n=100000&ops=50000&t=rocksdb&rho=0', 'Tune');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  // RocksDB's own options: compaction style, level-0 trigger, memtable and block cache.
  await expect(page.getByTestId('tune-table').locator('tbody tr').nth(1)).toContainText(/(leveled|universal).*memtable .*block cache/);
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
  // An OPTIONS file is RocksDB's: the advice is for RocksDB unless the user asks for the engine.
  expect(new URL(page.url()).hash).toContain('t=rocksdb');
  expect(errors).toEqual([]);
});

test('tune: a trace of one’s own is fitted, tuned for, run and taken home', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-trace-'));
  const trace = path.join(dir, 'my-store.trace');
  fs.writeFileSync(trace, execFileSync(path.join(ROOT, 'wasm-engine/target/release/lsm'), ['trace', '--workload', 'ycsb:a', '--records', '20000', '--operations', '100000'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }));
  const errors = await openPage(page, 'tune?v=1&d=leveldb&w=b&n=30000&ops=20000&t=engine&rho=0', 'Tune');
  await page.getByTestId('tune-workload-file').setInputFiles(trace);
  // The fit: YCSB A's zipfian (θ = 0.99) found by maximum likelihood.
  const fit = page.getByTestId('tune-fit');
  await expect(fit).toContainText('Zipf θ = ');
  const theta = Number(/Zipf θ = ([0-9.]+)/.exec((await fit.textContent()) ?? '')?.[1]);
  expect(Math.abs(theta - 0.99)).toBeLessThan(0.03);
  expect(new URL(page.url()).hash).toContain('w=custom');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  // The trace's rank–frequency against the fit; the fitted numbers are in the fields, and the link.
  const rankChart = page.getByTestId('tune-rank-frequency');
  await expect(rankChart).toContainText('fit: Zipf θ = ');
  const thetaBox = page.getByRole('textbox', { name: /^Skew/ });
  expect(Math.abs(Number(await thetaBox.inputValue()) - theta)).toBeLessThan(0.001);
  expect(new URL(page.url()).hash).toMatch(/[?&]th=0\.9/);
  // Override a fitted number: the page tunes for it, draws it against the trace, and links to it.
  const before = await cell(page, 0, 2);
  await thetaBox.fill('0.5');
  await expect(rankChart).toContainText('your setting: Zipf θ = 0.5');
  await expect.poll(() => new URL(page.url()).hash).toContain('th=0.5');
  await expect.poll(() => cell(page, 0, 2)).not.toBe(before);
  // A mix that does not add up is named, and the page keeps the last workload that could run.
  const tuned = await cell(page, 0, 2);
  await page.getByRole('textbox', { name: /^Updates/ }).fill('0.9');
  await expect(page.getByTestId('tune-workload-problem')).toContainText('must sum to 100%');
  expect(await cell(page, 0, 2)).toBe(tuned);
  // Reset puts the fit's numbers back.
  await page.getByTestId('tune-workload-reset').click();
  await expect(page.getByTestId('tune-mix-total')).toContainText('100%');
  await expect(rankChart).not.toContainText('your setting');
  await expect.poll(() => cell(page, 0, 2)).toBe(before);
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-gains')).toBeVisible({ timeout: 150_000 });
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-zip').click()]);
  expect(fs.readFileSync(await zip.path()).includes(Buffer.from('lsm-navigator-tune/workload.properties'))).toBe(true);
  expect(errors).toEqual([]);
});

test('tune: a malformed YCSB file is refused with its file, line and field, and nothing changes', async ({ page }) => {
  const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tune-bad-')), 'workloadz');
  fs.writeFileSync(bad, 'recordcount=1000\noperationcount=1000\nreadproportion=1.5\n');
  const errors = await openPage(page, 'tune?v=1&d=leveldb&w=c&n=20000&ops=10000&t=engine&rho=0', 'Tune');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('tune-workload-file').setInputFiles(bad);
  const problem = page.getByTestId('tune-problem');
  await expect(problem).toContainText('workloadz');
  await expect(problem).toContainText('readproportion');
  await expect(problem).toContainText('line 3');
  expect(new URL(page.url()).hash).toContain('w=c');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3);
  expect(errors).toEqual([]);
});

test('tune for this: a model page’s design opens on the Tune page as the current design', async ({ page }) => {
  const errors = await openPage(page, 'tradeoffs', 'Trade-off curves and holistic design');
  const link = page.getByTestId('export-tune-link').first();
  await expect(link).toHaveAttribute('href', /#\/tune\?.*d=link/);
  await link.click();
  await expect(page.getByRole('heading', { name: 'Tune', level: 1 })).toBeVisible();
  const table = page.getByTestId('tune-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  // The current design is the one the Trade-offs page showed (whole-level merges, its filters).
  await expect(table.locator('tbody tr').first()).toContainText('bits/key');
  expect(new URL(page.url()).hash).toContain('d=link');
  // With a workload chosen in the export card, the link carries it as your workload, every number.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Trade-off curves and holistic design', level: 1 })).toBeVisible();
  await page.getByTestId('export-workload').first().selectOption('mixed');
  await expect(link).toHaveAttribute('href', /w=custom/);
  await link.click();
  await expect(page.getByRole('textbox', { name: /^Skew/ })).toHaveValue('0.9');
  await expect(page.getByRole('textbox', { name: /^Range lookups/ })).toHaveValue('0.05');
  await expect(page.getByRole('textbox', { name: /^Records/ })).toHaveValue('50,000');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  expect(errors).toEqual([]);
});

test('tune: the landing view starts from RocksDB 7.8’s true defaults with something to gain, and a calibrated device prices it in ops/s', async ({ page }) => {
  const errors = await openPage(page, 'tune', 'Tune');
  await expect(page.getByTestId('tune-table').locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  // Defaults: RocksDB's true defaults, YCSB B, 200,000 records, advice for RocksDB.
  await expect(page.getByTestId('tune-table').locator('tbody tr').nth(0)).toContainText('no filters; memtable 64 MiB; block cache 8 MiB');
  const gain = await cell(page, 1, 4);
  expect(gain, 'the landing case has something to gain').toBeGreaterThan(0.1);
  // The verdict in words, with the model's error, and the diff as RocksDB option names.
  const verdict = page.getByTestId('tune-verdict-model');
  await expect(verdict).toHaveAttribute('data-keep', 'false');
  // One headline gain: the verdict's, the headline's and the table's recommended row are one number.
  const headline = page.getByTestId('tune-headline');
  const headlineGain = Number(await headline.getAttribute('data-gain'));
  expect(Number(await verdict.getAttribute('data-gain'))).toBe(headlineGain);
  expect(await cell(page, 1, 4)).toBe(headlineGain);
  await expect(verdict).toContainText(`${(headlineGain * 100).toFixed(1)}%`);
  await expect(headline).toContainText(`${(headlineGain * 100).toFixed(1)}% less`);
  await expect(headline).toContainText('steady state');
  expect(Number(await verdict.getAttribute('data-low'))).toBeGreaterThan(0);
  await expect(verdict).toContainText('within the model');
  await expect(page.getByTestId('tune-changes').locator('tr[data-option="filter_policy"]')).toContainText('bloomfilter');
  const shares = await page.getByTestId('tune-changes').locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
  expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
  await page.getByTestId('tune-reasons').locator('summary').click();
  await expect(page.getByTestId('tune-reasons')).toContainText('filters let lookups skip files');
  // Memory as RocksDB charges it: the same total for both designs.
  expect(Number(await page.getByTestId('tune-memory').getAttribute('data-total'))).toBeGreaterThan(128 << 20);
  await page.getByTestId('tune-calibrate').click();
  const calibration = page.getByTestId('tune-calibration');
  await expect(calibration).toBeVisible({ timeout: 60_000 });
  await expect(calibration).toContainText('OPFS');
  const read = Number(await calibration.getAttribute('data-read'));
  const write = Number(await calibration.getAttribute('data-write'));
  expect(read).toBeGreaterThan(0);
  expect(write).toBeGreaterThan(0);
  const ops = async (d: string) => Number(await page.getByTestId(`tune-time-${d}`).locator('td[data-value]').last().getAttribute('data-value'));
  await expect(page.getByTestId('tune-time-table')).toBeVisible();
  const current = await ops('current');
  const recommended = await ops('recommended');
  expect(current).toBeGreaterThan(0);
  // Fewer pages per operation at a positive page price: more operations per second.
  expect(recommended).toBeGreaterThan(current);
  await expect(page.getByTestId('tune-time-gain')).toContainText('Predicted throughput: +');
  // Kept in this browser: a reload shows the calibration without running it again.
  await page.reload();
  await expect(page.getByTestId('tune-calibration')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** RocksDB 7.8's true defaults: the OPTIONS file RocksDB itself writes for `Options()` (interop/rocksdb/default_options.cc). */
function trueDefaultsOptions(dir: string): string {
  const exe = path.join(dir, 'default_options');
  execFileSync('g++', ['-std=c++17', '-O1', path.join(ROOT, 'interop/rocksdb/default_options.cc'), '-o', exe, '-lrocksdb', '-lpthread']);
  const db = path.join(dir, 'db');
  execFileSync(exe, [db]);
  const name = fs.readdirSync(db).filter((f) => /^OPTIONS-\d+$/.test(f)).sort().at(-1);
  if (!name) throw new Error(`RocksDB wrote no OPTIONS file into ${db}`);
  return path.join(db, name);
}

test('tune for RocksDB as a user does it: their OPTIONS and YCSB files in, the option diff with I/O and ops/s, the proof run, the bundle home', async ({ page }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tune-rocksdb-'));
  const options = trueDefaultsOptions(dir);
  const workload = path.join(dir, 'workloadb');
  // YCSB's own properties: workload B at 200,000 records of 10 × 100 B fields.
  fs.writeFileSync(
    workload,
    [
      'workload=site.ycsb.workloads.CoreWorkload',
      'recordcount=200000',
      'operationcount=100000',
      'readallfields=true',
      'readproportion=0.95',
      'updateproportion=0.05',
      'scanproportion=0',
      'insertproportion=0',
      'requestdistribution=zipfian',
      'fieldcount=10',
      'fieldlength=100',
      '',
    ].join('\n'),
  );
  const errors = await openPage(page, 'tune', 'Tune');
  await page.getByTestId('tune-options').setInputFiles(options);
  await expect(page.getByTestId('tune-custom')).toContainText(`Your design: ${path.basename(options)}`);
  await page.getByTestId('tune-workload-file').setInputFiles(workload);
  await expect.poll(() => new URL(page.url()).hash).toContain('n=200000');
  expect(new URL(page.url()).hash).toContain('t=rocksdb');
  const table = page.getByTestId('tune-table');
  await expect(table.locator('tbody tr')).toHaveCount(3, { timeout: 60_000 });
  // The file's design is RocksDB's defaults as they are: no filter, an 8 MiB cache, a 64 MiB memtable.
  await expect(table.locator('tbody tr').nth(0)).toContainText('no filters; memtable 64 MiB; block cache 8 MiB');
  // The recommendation: a verdict with the model's error, and a diff of RocksDB option names
  // whose shares add up to the gain.
  const verdict = page.getByTestId('tune-verdict-model');
  await expect(verdict).toHaveAttribute('data-keep', 'false');
  await expect(verdict).toContainText(/^Change: .* within the model's error/);
  await expect(verdict).not.toContainText(/keep your design.*keep your design/i);
  const rows = page.getByTestId('tune-changes').locator('tr[data-option]');
  expect(await rows.count()).toBeGreaterThan(0);
  for (const option of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-option') ?? ''))) {
    expect(option, 'a RocksDB option name').toMatch(/^[a-z0-9_.]+$/);
  }
  const shares = await page.getByTestId('tune-changes').locator('td[data-value]').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
  expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
  // Predicted I/O per operation for both designs, and ops/s once the device is calibrated.
  const currentCost = await cell(page, 0, 2);
  const recommendedCost = await cell(page, 1, 2);
  expect(currentCost).toBeGreaterThan(0);
  expect(recommendedCost).toBeLessThanOrEqual(currentCost);
  await page.getByTestId('tune-calibrate').click();
  await expect(page.getByTestId('tune-time-table')).toBeVisible({ timeout: 60_000 });
  const ops = async (d: string) => Number(await page.getByTestId(`tune-time-${d}`).locator('td[data-value]').last().getAttribute('data-value'));
  expect(await ops('current')).toBeGreaterThan(0);
  expect(await ops('recommended')).toBeGreaterThan(0);

  // The proof: both designs on the engine as RocksDB's twin, the same stream; measured next to predicted.
  await page.getByTestId('tune-run').click();
  await expect(page.getByTestId('tune-measured')).toBeVisible({ timeout: 150_000 });
  const measured = async (label: string) => Number(await page.getByTestId(`tune-measured-${label}`).locator('td[data-value]').last().getAttribute('data-value'));
  const [current, recommended] = [await measured('current'), await measured('recommended')];
  expect(current).toBeGreaterThan(0);
  expect(recommended).toBeGreaterThan(0);
  const gains = page.getByTestId('tune-gains');
  expect(Number(await gains.getAttribute('data-measured'))).toBeCloseTo(1 - recommended / current, 9);

  // Home: the bundle plays the same workload on the user's own RocksDB with both OPTIONS files.
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-zip').click()]);
  const bytes = fs.readFileSync(await zip.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  for (const name of ['REPORT.md', 'current.OPTIONS', 'recommended.OPTIONS', 'compare.sh', 'workload.properties', 'tune-result.json']) {
    expect(bytes.includes(Buffer.from(`lsm-navigator-tune/${name}`)), name).toBe(true);
  }
  // The recommendation is the user's own file with exactly the diff's options changed: the
  // compression RocksDB wrote, and every option the tool does not model, stay as they were.
  const download = async (name: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`tune-file-${name}`).click()]);
    return fs.readFileSync(await file.path(), 'utf8');
  };
  const mine = fs.readFileSync(options, 'utf8');
  expect(await download('current.OPTIONS')).toBe(mine);
  const recommendedFile = await download('recommended.OPTIONS');
  const statements = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const diffNames = new Set(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-option') ?? '')));
  const named = (line: string) => diffNames.has(line.split('=')[0]);
  const [before, after] = [statements(mine), statements(recommendedFile)];
  expect(after.filter((l) => !before.includes(l) && !named(l))).toEqual([]);
  expect(before.filter((l) => !after.includes(l) && !named(l))).toEqual([]);
  const compression = before.find((l) => l.startsWith('compression='));
  expect(compression, 'RocksDB writes its compression').toBeTruthy();
  expect(after).toContain(compression);
  await screenshot(page, 'tune-rocksdb');
  await expect(page.locator('text=NaN')).toHaveCount(0);
  expect(errors).toEqual([]);
});
