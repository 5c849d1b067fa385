/**
 * Every importer (Export & import, Tune's two, the Lab's three) checks a file's size and first
 * bytes before reading it: a 20 MB file of random bytes is refused within 2 s with the page
 * responsive throughout (no gap of more than 200 ms between timer ticks), an empty file is named as
 * empty with what it lacks, and Tune lists the OPTIONS keys it did not use as Export does.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openPage } from './helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'importers-'));
const BINARY = path.join(TMP, 'random-20MB.bin');
fs.writeFileSync(BINARY, crypto.randomBytes(20 * 1_000_000));
const EMPTY = path.join(TMP, 'empty-file');
fs.writeFileSync(EMPTY, '');

interface Importer {
  name: string;
  route: string;
  input: string;
  /** Steps that show the input (a disclosure to open). */
  reveal?: (page: Page) => Promise<void>;
  /** Where the refusal is shown. */
  message: (page: Page) => Locator;
  /** What an empty file's message names. */
  empty: RegExp;
}

const IMPORTERS: Importer[] = [
  { name: 'Export & import', route: 'export', input: 'import-file', message: (p) => p.getByTestId('import-error'), empty: /empty design file \(0 bytes\): no engine config JSON and no RocksDB OPTIONS section/ },
  { name: 'Tune: OPTIONS', route: 'tune', input: 'tune-options', message: (p) => p.getByTestId('tune-problem'), empty: /empty OPTIONS file \(0 bytes\): no \[DBOptions\] or \[CFOptions\] section/ },
  { name: 'Tune: workload', route: 'tune', input: 'tune-workload-file', message: (p) => p.getByTestId('tune-problem'), empty: /empty workload \(0 bytes\): no YCSB properties/ },
  {
    name: 'Lab: document',
    route: 'lab',
    input: 'doc-file',
    reveal: (p) => p.getByRole('button', { name: /Paste or upload/ }).click(),
    message: (p) => p.getByTestId('doc-message'),
    empty: /empty document \(0 bytes\): no design, workload, report or trace/,
  },
  { name: 'Lab: trace', route: 'lab', input: 'run-trace-file', message: (p) => p.getByTestId('run-trace-problem'), empty: /empty trace \(0 bytes\): no operation lines/ },
  { name: 'Lab: report', route: 'lab?tab=results', input: 'import-report', message: (p) => p.getByTestId('import-report-message'), empty: /empty report \(0 bytes\): no report JSON/ },
];

/**
 * From the input's change event on: the longest gap between ticks of a 10 ms timer (the main
 * thread blocked) and when a refusal naming `file` appeared in the page, until `stop` is set.
 */
async function watchMainThread(page: Page, file: string): Promise<void> {
  await page.evaluate((name) => {
    const w = window as unknown as { __watch: { start: number; shown: number; maxGap: number; stop: boolean } };
    w.__watch = { start: 0, shown: 0, maxGap: 0, stop: false };
    document.addEventListener('change', () => (w.__watch.start = performance.now()), { capture: true, once: true });
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      if (w.__watch.start > 0) w.__watch.maxGap = Math.max(w.__watch.maxGap, now - last);
      last = now;
      if (w.__watch.start > 0 && w.__watch.shown === 0 && [...document.querySelectorAll('[role=alert]')].some((e) => e.textContent?.includes(name))) {
        w.__watch.shown = now;
      }
      if (!w.__watch.stop) setTimeout(tick, 10);
    };
    tick();
  }, file);
}

for (const imp of IMPORTERS) {
  test(`${imp.name}: a 20 MB binary file is refused within 2 s, the page responsive; an empty file is named empty`, async ({ page }) => {
    const errors = await openPage(page, imp.route);
    if (imp.reveal) await imp.reveal(page);
    const input = page.getByTestId(imp.input);
    await expect(input).toBeAttached();
    await watchMainThread(page, 'random-20MB.bin');
    await input.setInputFiles(BINARY);
    const message = imp.message(page);
    await expect(message).toContainText('random-20MB.bin is not a text file', { timeout: 10_000 });
    await expect(message).toContainText('so it was not read');
    await expect(message).toBeVisible();
    // Half a second more of watching: nothing heavy starts after the refusal either.
    await page.waitForTimeout(500);
    const watch = await page.evaluate(() => {
      const w = (window as unknown as { __watch: { start: number; shown: number; maxGap: number; stop: boolean } }).__watch;
      w.stop = true;
      return { refusedMs: w.shown - w.start, maxGapMs: w.maxGap, started: w.start > 0 };
    });
    console.log(`${imp.name}: refused in ${watch.refusedMs.toFixed(0)} ms, longest main-thread gap ${watch.maxGapMs.toFixed(0)} ms`);
    expect(watch.started).toBe(true);
    expect(watch.refusedMs).toBeGreaterThan(0);
    expect(watch.refusedMs).toBeLessThan(2000);
    expect(watch.maxGapMs).toBeLessThan(200);
    // Nothing of the file reached a text box.
    const longest = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('textarea')].map((t) => t.value.length)));
    expect(longest).toBe(0);

    await input.setInputFiles(EMPTY);
    await expect(message).toContainText('empty-file: ');
    await expect(message).toContainText(imp.empty);
    expect(errors).toEqual([]);
  });
}

test('Tune names the OPTIONS keys it did not use, the same keys Export & import lists', async ({ page }) => {
  const options = fs.readFileSync(path.join(ROOT, 'public/examples/rocksdb-welltuned.OPTIONS'), 'utf8').replace(/(\[CFOptions "default"\]\n)/, '$1  my_custom_knob=42\n  another_unknown_setting=true\n');
  expect(options).toContain('my_custom_knob=42');
  const file = path.join(TMP, 'OPTIONS-unknown');
  fs.writeFileSync(file, options);

  const errors = await openPage(page, 'export');
  const card = page.getByTestId('card-import');
  await card.getByTestId('import-file').setInputFiles(file);
  await card.getByTestId('import-run').click();
  await expect(card.getByTestId('import-unknown-keys')).toContainText('CFOptions.my_custom_knob');
  const exportKeys = await card.getByTestId('import-unknown-keys').locator('li').allTextContents();
  expect(exportKeys).toEqual(expect.arrayContaining(['CFOptions.my_custom_knob', 'CFOptions.another_unknown_setting']));
  await expect(card.getByRole('heading', { name: `Keys not used (${exportKeys.length})` })).toBeVisible();

  await page.goto('/#/tune');
  await page.getByTestId('tune-options').setInputFiles(file);
  const unused = page.getByTestId('tune-unused');
  await expect(unused.locator('summary')).toContainText(`Keys not used (${exportKeys.length})`);
  await unused.locator('summary').click();
  await expect(page.getByTestId('tune-unused-keys').locator('li')).toHaveText(exportKeys);
  expect(errors).toEqual([]);
});
