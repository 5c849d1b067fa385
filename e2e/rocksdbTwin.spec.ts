/**
 * The engine against real RocksDB, as a person reads it on the Write amplification (MSLS) page:
 * a case chosen, both trees drawn with one box per file the stored twin lists (level by level),
 * a file's details reached by keyboard, the trees as a table, and the figures side by side with
 * whether they agree (from public/measured/rocksdb-twin.json, written by `npm run rocksdb-twin`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { figuresAgree } from '../web/src/documents/twinAgreement.mjs';
import { dataValue, openPage, screenshot } from './helpers';

interface Figures {
  lookups: number;
  dataBlocksPerLookup: number;
  cacheHitRate: number;
  bytesWrittenPerUserByte: number;
}
interface StoredCase {
  shape: string;
  label: string;
  workload: string;
  run: { engine: Figures; rocksdb: Figures; predicted?: Partial<Record<keyof Figures, number | null>> };
  load: { engine: Figures; rocksdb: Figures };
  trees: { engine: { level: number; files: unknown[] }[]; rocksdb: { levels: { level: number; files: unknown[] }[] } };
}

const stored = JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/measured/rocksdb-twin.json'), 'utf8')) as {
  measured: string;
  cases: StoredCase[];
};

test('MSLS page: the engine against real RocksDB, both trees file by file and the figures side by side', async ({ page }) => {
  const errors = await openPage(page, 'msls', 'Write amplification (MSLS)');
  const card = page.getByTestId('card-rocksdb-twin');
  await expect(card.getByRole('heading', { name: 'The engine against real RocksDB', level: 2 })).toBeVisible();
  await expect(card.locator('.caption')).toContainText('npm run rocksdb-twin');
  await expect(card.locator('.caption')).toContainText(stored.measured.slice(0, 10));

  // The last case, chosen by its label in the labelled select.
  const c = stored.cases[stored.cases.length - 1];
  const select = card.getByLabel('Case (RocksDB shape · workload)');
  await expect(select.locator('option')).toHaveCount(stored.cases.length);
  await select.selectOption(`${c.shape}/${c.workload}`);

  const files = (side: 'engine' | 'rocksdb', level: number) =>
    (side === 'engine' ? c.trees.engine.filter((l) => l.level === level) : c.trees.rocksdb.levels.filter((l) => l.level === level)).reduce((n, l) => n + l.files.length, 0);
  const used = [...c.trees.engine, ...c.trees.rocksdb.levels].filter((l) => l.files.length > 0).map((l) => l.level);
  const deepest = Math.max(0, ...used);
  for (const side of ['engine', 'rocksdb'] as const) {
    const tree = card.locator(`[data-testid="twin-tree"][data-side="${side}"]`);
    await expect(tree.getByTestId('twin-level')).toHaveCount(deepest + 1);
    for (let level = 0; level <= deepest; level += 1) {
      const row = tree.locator(`[data-testid="twin-level"][data-level="${level}"]`);
      const n = files(side, level);
      await expect(row.getByTestId('twin-file')).toHaveCount(n);
      await expect(row).toContainText(`L${level} · ${n} ${n === 1 ? 'file' : 'files'}`);
      // Every box lies on the key axis, with a real size.
      for (const box of await row.getByTestId('twin-file').all()) {
        const [w, x] = await Promise.all([box.getAttribute('width'), box.getAttribute('x')]);
        expect(Number(w)).toBeGreaterThan(0);
        expect(Number.isFinite(Number(x))).toBe(true);
      }
    }
  }

  // A file by keyboard: focus lands on it and the read-out names it.
  const firstRocksdb = card.locator('[data-testid="twin-file"][data-side="rocksdb"]').first();
  await firstRocksdb.focus();
  await expect(firstRocksdb).toBeFocused();
  await expect(card.getByTestId('twin-file-readout')).toContainText(/^RocksDB L\d+, \d{6}\.sst: [\d,]+ entries/);
  await page.keyboard.press('Tab');
  await expect(card.getByTestId('twin-file-readout')).not.toContainText('Point at a file');

  // The trees as a table: the same counts.
  await card.getByText('The trees as a table').click();
  const levels = card.getByTestId('twin-levels-table');
  await expect(levels).toBeVisible();
  await expect(levels.locator('tbody tr')).toHaveCount(deepest + 1);
  for (let level = 0; level <= deepest; level += 1) {
    const row = levels.locator(`tr[data-level="${level}"]`);
    expect(await dataValue(row.locator('td').nth(0))).toBe(files('engine', level));
    expect(await dataValue(row.locator('td').nth(3))).toBe(files('rocksdb', level));
  }

  // The figures, as stored, with the twin's verdict.
  const table = card.getByTestId('twin-figures');
  const figure = async (id: string) => {
    const row = table.locator(`[data-figure="${id}"]`);
    return { engine: await dataValue(row.locator('td').nth(1)), rocksdb: await dataValue(row.locator('td').nth(2)), verdict: (await row.locator('td').nth(4).textContent()) ?? '' };
  };
  for (const [phase, key] of [
    ['run', 'dataBlocksPerLookup'],
    ['run', 'cacheHitRate'],
    ['load', 'bytesWrittenPerUserByte'],
  ] as const) {
    if (phase === 'run' && c.run.rocksdb.lookups === 0) continue;
    const shown = await figure(`${phase}.${key}`);
    expect(shown.engine).toBeCloseTo(c[phase].engine[key], 12);
    expect(shown.rocksdb).toBeCloseTo(c[phase].rocksdb[key], 12);
    expect(shown.verdict).toBe(figuresAgree(c[phase].engine[key], c[phase].rocksdb[key]) ? 'agrees' : 'differs');
  }
  await expect(table).toContainText('data blocks read per point lookup');

  // lsm predict's figure beside them, where the table recorded one, with its verdict against RocksDB.
  const predicted = c.run.predicted?.dataBlocksPerLookup;
  if (typeof predicted === 'number' && c.run.rocksdb.lookups > 0) {
    const row = table.locator('[data-figure="run.dataBlocksPerLookup"]');
    expect(await dataValue(row.getByTestId('twin-predicted'))).toBeCloseTo(predicted, 12);
    await expect(row.locator('td').nth(7)).toHaveText(figuresAgree(predicted, c.run.rocksdb.dataBlocksPerLookup) ? 'agrees' : 'differs');
    await expect(table.locator('caption')).toContainText('lsm predict');
  } else {
    await expect(table.getByTestId('twin-predicted')).toHaveCount(0);
  }

  await card.getByText(/^How this case was run/).click();
  await expect(card.getByTestId('twin-notes')).toContainText('How RocksDB was played and counted');

  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts', 'rocksdb-twin-card.png') });
  await screenshot(page, 'rocksdb-twin');

  // At a phone's width the trees stack (engine above RocksDB) and nothing overflows sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(async () => {
    const [engine, rocksdb] = await Promise.all(['engine', 'rocksdb'].map((side) => card.locator(`[data-testid="twin-tree"][data-side="${side}"]`).boundingBox()));
    expect(engine && rocksdb && engine.y + engine.height <= rocksdb.y).toBe(true);
  }).toPass();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await card.getByTestId('twin-trees').screenshot({ path: path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts', 'rocksdb-twin-trees-narrow.png') });
  expect(await page.locator('text=NaN').count()).toBe(0);
  expect(errors).toEqual([]);
});
