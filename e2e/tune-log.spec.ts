/**
 * What a RocksDB user already has, brought to Tune as a person does. "Import your LOG": their OPTIONS file, then the LOG RocksDB wrote
 * (lsm-export's fixture: real RocksDB 7.8.3 under db_bench readrandomwriterandom, 80% reads, with
 * statistics). The page shows the mix the LOG's counters give, each figure as the LOG has it
 * against the prediction, what was assumed, and tunes for the fitted workload. A LOG cut
 * mid-dump is refused, naming the line. A db_bench command line (ZippyDB's published mixgraph
 * flags) as the workload file: a bad flag is refused by name and range; the line is tuned for,
 * and the bundle's db_bench script replays the user's own mixgraph flags.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
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

// ZippyDB's fit as Cao et al. (FAST'20) publish it for db_bench, over 20,000 keys of 48 B.
const ZIPPYDB = [
  'db_bench --benchmarks=fillrandom,mixgraph --num=20000 --reads=10000 --key_size=48',
  '-key_dist_a=0.002312 -key_dist_b=0.3467 -keyrange_dist_a=14.18 -keyrange_dist_b=-2.917',
  '-keyrange_dist_c=0.0164 -keyrange_dist_d=-0.08082 -keyrange_num=30 -value_k=0.2615 -value_sigma=25.45',
  '-iter_k=2.517 -iter_sigma=14.236 -mix_get_ratio=0.83 -mix_put_ratio=0.14 -mix_seek_ratio=0.03',
].join(' ');

test('tune: a db_bench mixgraph line is the workload — a bad flag named with its range, the bundle replays the flags', async ({ page }) => {
  const errors = await openPage(page, 'tune?v=1&w=b&n=20000&ops=10000', 'Tune');
  await expect(page.getByTestId('tune-table').locator('tbody tr').first()).toBeVisible({ timeout: 120_000 });

  await page.getByTestId('tune-workload-file').setInputFiles(file('bad.sh', ZIPPYDB.replace('-mix_get_ratio=0.83', '-mix_get_ratio=-1')));
  await expect(page.getByTestId('tune-problem')).toContainText('bad.sh: --mix_get_ratio: must be a number in [0, 1000000000], got -1', { timeout: 60_000 });
  await expect(page.getByTestId('tune-imported-workload')).toHaveCount(0);

  await page.getByTestId('tune-workload-file').setInputFiles(file('zippydb.sh', `${ZIPPYDB} --statistics_nope=1\n`));
  await expect(page.getByTestId('tune-imported-workload')).toContainText('Your workload: zippydb.sh', { timeout: 60_000 });
  await expect(page.getByTestId('tune-fit')).toContainText('--statistics_nope: not a db_bench flag this reader knows; ignored');
  // What the predictor does not price of the line is said where the line is read.
  await expect(page.getByTestId('tune-fit')).toContainText('--keyrange_num (approximated): a key range is a run of consecutive ids');
  await expect(page.getByTestId('tune-problem')).toHaveCount(0);
  const bundle = async () => {
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('tune-zip').click()]);
    return unzipSync(fs.readFileSync(await zip.path()));
  };
  // The tune for the new workload ends when the bundle carries it; compare.sh plays workload.json's
  // own operations (lsm ops on a db_bench section: db_bench's exact stream).
  let files: Record<string, Uint8Array> = {};
  await expect
    .poll(async () => {
      files = await bundle();
      return JSON.parse(strFromU8(files['lsm-navigator-tune/workload.json'])).db_bench?.key_dist_a;
    }, { timeout: 120_000 })
    .toBe(0.002312);
  expect(Number(await page.getByTestId('tune-headline').getAttribute('data-gain'))).not.toBeNaN();
  const script = strFromU8(files['lsm-navigator-tune/workload.db_bench.sh']);
  for (const flag of ['--benchmarks=fillrandom,mixgraph', ' -key_dist_a=0.002312 ', ' -keyrange_num=30 ', ' -mix_seek_ratio=0.03 ', ' --num=20000 ']) {
    expect(script, flag).toContain(flag);
  }
  // Edited, the fields are tuned for, and the page says the line's own draws are no longer played.
  await expect(page.getByTestId('tune-generator-dropped')).toHaveCount(0);
  const ops = page.getByRole('textbox', { name: 'Operations' });
  await ops.fill('20000');
  await ops.press('Enter');
  await expect(page.getByTestId('tune-generator-dropped')).toContainText('not the db_bench line’s own mixgraph draws');
  await page.getByTestId('tune-workload-reset').click();
  await expect(page.getByTestId('tune-generator-dropped')).toHaveCount(0);
  await expect(ops).toHaveValue('10,000');
  expect(await page.locator('main').textContent()).not.toContain('NaN');
  expect(errors).toEqual([]);
});
