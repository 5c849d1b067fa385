import { expect, test, type Page } from '@playwright/test';
import {
  fprFromBitsPerKey,
  mbfAnalyze,
  mbfEqualModules,
  mbfModuleFpr,
  mnemosyneAllocation,
  mnemosyneLookupCost,
  mnemosyneMonkeyPlusAllocation,
  mnemosyneUniformAllocation,
  modularBloom,
  shambaModulesToUse,
  shambaPerAccessIo,
  shambaUtility,
} from '../models/src/index';
import {
  cellValue,
  chartPngSize,
  copyLink,
  csvLines,
  downloadFrom,
  expectLinkShowsView,
  expectPng,
  expectReadsWell,
  openPage,
  parseSvg,
  pressOnChart,
  readout,
  tooltipValue,
} from './helpers';
import { downloadEngineJson, engineExportPanel, enginePreview, openInLab } from './exportCard';

const DEFAULT_QUERY = 'v=1&T=4&L=3&f1=1&nf=8192&b=3&th=1&Z=0.5&at=size&hl=1&seed=0&D=2&sb=10&skip=full&bud=50&a=0&be=0.5&t1=0.2&t2=0.1';
const LOOKUPS = 1_000_000;

/**
 * The page's synthetic tree, rebuilt here from its definition (not imported) so the test checks it:
 * f₁·T^(j−1) files of n entries per level, Zipf(θ) over the deepest level's key ranges (hottest
 * first at seed 0), Z empty lookups, existing keys in level j with probability n_j / N.
 */
function tree(T: number, L: number, f1: number, n: number, theta: number, Z: number) {
  const counts = Array.from({ length: L }, (_, j) => f1 * T ** j);
  const leaves = counts[L - 1];
  const w = Array.from({ length: leaves }, (_, r) => 1 / (r + 1) ** theta);
  const sum = w.reduce((a, b) => a + b, 0);
  const total = counts.reduce((a, b) => a + b, 0);
  const found = counts.map((c) => c / total);
  const files: { level: number; entries: number; emptyProbes: number; foundProbes: number }[] = [];
  counts.forEach((c, j) => {
    const deeper = found.slice(j + 1).reduce((a, b) => a + b, 0);
    for (let k = 0; k < c; k++) {
      let share = 0;
      for (let r = (k * leaves) / c; r < ((k + 1) * leaves) / c; r++) share += w[r] / sum;
      files.push({ level: j + 1, entries: n, emptyProbes: LOOKUPS * share * (Z + (1 - Z) * deeper), foundProbes: LOOKUPS * share * (1 - Z) * found[j] });
    }
  });
  return files;
}

/** Unnecessary reads per lookup of the three allocations, straight from the models. */
function allocations(files: ReturnType<typeof tree>, bitsPerKey: number) {
  const M = bitsPerKey * files.reduce((s, f) => s + f.entries, 0);
  const L = Math.max(...files.map((f) => f.level));
  const levelEntries = Array.from({ length: L }, (_, j) => files.filter((f) => f.level === j + 1).reduce((s, f) => s + f.entries, 0));
  const perLevel = mnemosyneMonkeyPlusAllocation(levelEntries, M);
  const bits = {
    uniform: mnemosyneUniformAllocation(files, M),
    monkey: files.map((f) => perLevel[f.level - 1]),
    mnemosyne: mnemosyneAllocation(files, M),
  };
  const unn = (b: number[]) => mnemosyneLookupCost(files, b, LOOKUPS).unnecessaryReadsPerLookup;
  return { bits, uniform: unn(bits.uniform), monkey: unn(bits.monkey), mnemosyne: unn(bits.mnemosyne) };
}

const box = (page: Page, name: RegExp) => page.getByRole('textbox', { name });

test('memory (A): Mnemosyne, Monkey+ and uniform follow the controls', async ({ page }) => {
  const errors = await openPage(page, 'memory', 'Memory pressure: Mnemosyne and SHaMBa');
  await expect(page).toHaveURL(new RegExp(`#/memory\\?${DEFAULT_QUERY.replace(/\./g, '\\.')}$`));

  // Defaults: T = 4, 3 levels (21 files), θ = 1, Z = 0.5, 3 bits/key.
  let expected = allocations(tree(4, 3, 1, 8192, 1, 0.5), 3);
  expect(await readout(page, 'mn-unn-uniform')).toBeCloseTo(expected.uniform, 10);
  expect(await readout(page, 'mn-unn-monkey')).toBeCloseTo(expected.monkey, 10);
  expect(await readout(page, 'mn-unn-mnemosyne')).toBeCloseTo(expected.mnemosyne, 10);
  const table = page.getByTestId('mn-table');
  await expect(table.locator('tbody tr')).toHaveCount(21);
  expect(await cellValue(table, 0, 7)).toBeCloseTo(expected.bits.mnemosyne[0], 10);
  expect(await cellValue(table, 20, 6)).toBeCloseTo(expected.bits.monkey[20], 10);

  // The bar chart's tooltip, by keyboard: the first file (L1·1).
  const barTip = await pressOnChart(page, 'mn-bars', 'Home');
  expect(await tooltipValue(barTip, 'mnemosyne')).toBeCloseTo(expected.bits.mnemosyne[0], 10);

  // A bigger budget and a different workload.
  await box(page, /^Memory budget/).fill('5');
  await box(page, /^Empty lookups/).fill('0.2');
  expected = allocations(tree(4, 3, 1, 8192, 1, 0.2), 5);
  await expect.poll(() => readout(page, 'mn-unn-mnemosyne')).toBeCloseTo(expected.mnemosyne, 10);
  expect(await readout(page, 'mn-unn-monkey')).toBeCloseTo(expected.monkey, 10);
  expect(await readout(page, 'mn-unn-uniform')).toBeCloseTo(expected.uniform, 10);

  // The cost curve (worker sweep) at its right end, 12 bits/key, once the worker has answered.
  await expect(page.getByTestId('card-mnemosyne-cost').locator('.card-status')).toHaveCount(0);
  const costTip = await pressOnChart(page, 'mn-cost-chart', 'End');
  await expect(costTip.locator('.tt-head')).toHaveAttribute('data-value', '12');
  const at12 = allocations(tree(4, 3, 1, 8192, 1, 0.2), 12);
  expect(await tooltipValue(costTip, 'mnemosyne-unn')).toBeCloseTo(at12.mnemosyne, 12);
  expect(await tooltipValue(costTip, 'uniform-unn')).toBeCloseTo(at12.uniform, 12);

  // Uniform keys, all lookups empty: Monkey's assumptions hold and Mnemosyne equals Monkey+.
  await box(page, /^Skew/).fill('0');
  await box(page, /^Empty lookups/).fill('1');
  expected = allocations(tree(4, 3, 1, 8192, 0, 1), 5);
  await expect.poll(() => readout(page, 'mn-unn-mnemosyne')).toBeCloseTo(expected.mnemosyne, 10);
  expect(expected.mnemosyne).toBeCloseTo(expected.monkey, 10);

  // A larger tree: T = 10 → 111 files; bars group runs of files; timing follows the file count.
  await box(page, /^Size ratio/).fill('10');
  await expect(page.getByTestId('mn-active')).toContainText('of 111');
  await expect(table.locator('tbody tr')).toHaveCount(1 + 8 + 8);
  await expect(page.getByTestId('timing-files')).toHaveAttribute('data-value', '111', { timeout: 60_000 });
  expect(await readout(page, 'timing-speedup')).toBeGreaterThan(1);
  expect(await readout(page, 'timing-ss')).toBeGreaterThan(0);
  expect(await readout(page, 'timing-accuracy')).toBeLessThan(0.01);
  expect(page.workers().some((w) => w.url().includes('model.worker'))).toBe(true);

  // Impossible combinations say why next to the control and keep the last good view.
  await box(page, /^Levels/).fill('6');
  await expect(page.getByTestId('problem-files')).toContainText('this tree has 111,111 files; the page handles at most 1,500');
  await expect(page.getByTestId('mn-active')).toContainText('of 111');
  await box(page, /^Levels/).fill('3');
  await expect(page.getByTestId('problem-files')).toHaveCount(0);
  await page.getByRole('radio', { name: 'In a hot level' }).check();
  await box(page, /^Levels/).fill('2');
  await box(page, /^Hot level/).fill('3');
  await expect(page.getByTestId('problem-hot-level')).toHaveText('hot level must be at most the number of levels (2)');
  await box(page, /^Hot level/).fill('2');
  await expect(page.getByTestId('problem-hot-level')).toHaveCount(0);
  // Out-of-range typing is refused at the box, as everywhere.
  await box(page, /^Entries per file/).fill('5000000');
  await expect(page.getByText('entries per file must be a whole number between 1,000 and 131,072')).toBeVisible();
  expect(errors).toEqual([]);
});

test('memory (B): SHaMBa modules, budget curves and utilities follow the controls', async ({ page }) => {
  const errors = await openPage(page, 'memory');
  const f10 = fprFromBitsPerKey(10);
  const fsm = fprFromBitsPerKey(5);

  // 50 % of index (8 pages) + filter (20 pages) = 14 pages per SST. One filter: it takes all 14
  // of its 20 pages (hit 0.7), the index none. SHaMBa-eq-F: module 2 is skipped (u₂ ≤ 0.1),
  // module 1 (10 pages) is cached, the index gets the other 4 of its 8 pages.
  const mono = shambaPerAccessIo({ existingRatio: 0, moduleFprs: [f10], modulePages: [20], moduleHitRates: [0.7], modulesUsed: 1, indexPages: 8, indexHitRate: 0 });
  const stats = { existingRatio: 0, accessFrequency: 0.5 };
  const used = shambaModulesToUse(stats, [fsm, fsm], 'full', [0.2, 0.1]);
  expect(used).toBe(1);
  const eq = shambaPerAccessIo({ existingRatio: 0, moduleFprs: [fsm, fsm], modulePages: [10, 10], moduleHitRates: [1, 0], modulesUsed: used, indexPages: 8, indexHitRate: 0.5 });
  await expect(page.getByTestId('shamba-budget-chart')).toBeVisible();
  expect(await readout(page, 'io-mono')).toBeCloseTo(mono.total, 12);
  expect(await readout(page, 'io-eq')).toBeCloseTo(eq.total, 12);
  expect(await readout(page, 'io-gain')).toBeCloseTo(mono.total / eq.total, 10);

  // Utilities (SHaMBa Eq 8) and decisions.
  const util = page.getByTestId('utility-table');
  expect(await cellValue(util, 0, 5)).toBeCloseTo(shambaUtility(stats, [fsm, fsm], 1), 14);
  expect(await cellValue(util, 1, 5)).toBeCloseTo(shambaUtility(stats, [fsm, fsm], 2), 14);
  await expect(util.locator('tbody tr').nth(1).locator('td').nth(7)).toHaveText('skip');
  // With β = 2 module 2 saves more than θ₂ = 0.1, so P and F read it.
  await box(page, /^Access frequency/).fill('2');
  await expect(util.locator('tbody tr').nth(1).locator('td').nth(7)).toHaveText('use');
  expect(await cellValue(util, 1, 5)).toBeCloseTo(shambaUtility({ existingRatio: 0, accessFrequency: 2 }, [fsm, fsm], 2), 14);

  // Everything fits at 100 %: every layout reads only what passes its filter.
  await box(page, /^Cache budget/).fill('100');
  await page.getByRole('radio', { name: 'None' }).check();
  await box(page, /^Existing ratio/).fill('0.5');
  const fits = shambaPerAccessIo({ existingRatio: 0.5, moduleFprs: [fsm, fsm], modulePages: [10, 10], moduleHitRates: [1, 1], modulesUsed: 2, indexPages: 8, indexHitRate: 1 });
  await expect.poll(() => readout(page, 'io-eq')).toBeCloseTo(fits.total, 12);
  expect(fits.total).toBeCloseTo(0.5 + 0.5 * f10, 12);
  expect(await readout(page, 'io-mono')).toBeCloseTo(fits.total, 12);
  expect(await readout(page, 'io-prop')).toBeCloseTo(fits.total, 12);

  // Table 3 and the module charts at 7 modules.
  await box(page, /^Modules/).fill('7');
  const t3 = page.getByTestId('table3');
  await expect(t3.locator('tbody tr')).toHaveCount(7);
  await expect(t3.locator('tr.current td').first()).toHaveText('7');
  const d3 = mbfAnalyze(mbfEqualModules(10, 3, [2, 2, 3]).map((m) => mbfModuleFpr(m)));
  expect(await cellValue(t3, 2, 3)).toBeCloseTo(d3.fpr, 15);
  expect(await cellValue(t3, 2, 5)).toBeCloseTo(d3.expectedModulesEmpty, 14);
  const readsTip = await pressOnChart(page, 'mbf-reads-chart', 'End');
  await expect(readsTip.locator('.tt-head')).toHaveAttribute('data-value', '16');
  expect(await tooltipValue(readsTip, 'ideal')).toBeCloseTo(modularBloom(10, 16).expectedModuleAccesses, 14);
  expect(await tooltipValue(readsTip, 'mix')).toBeCloseTo(0.5 * 16 + 0.5 * modularBloom(10, 16).expectedModuleAccesses, 14);

  // More modules than whole probes: why, next to the box; the charts keep 7.
  await box(page, /^Modules/).fill('8');
  await expect(page.getByTestId('problem-modules')).toContainText('at 10 bits/key a filter holds at most 7 modules');
  await expect(t3.locator('tr.current td').first()).toHaveText('7');
  await box(page, /^Filter bits per key/).fill('12');
  await expect(page.getByTestId('problem-modules')).toHaveCount(0);
  await expect(t3.locator('tbody tr')).toHaveCount(8);

  // A preset sets several controls at once.
  await page.getByRole('combobox', { name: 'Preset' }).selectOption('shamba70');
  await expect(box(page, /^Cache budget/)).toHaveValue('70');
  await expect(box(page, /^Modules/)).toHaveValue('2');
  await expect(page.getByRole('radio', { name: 'Full (F)' })).toBeChecked();
  await expect(page).toHaveURL(/&D=2&sb=10&skip=full&bud=70&a=0&be=0\.5&t1=0\.2&t2=0\.1$/);
  expect(errors).toEqual([]);
});

test('memory: a shared link reproduces the view; Reset restores the defaults', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openPage(page, 'memory');
  await box(page, /^Memory budget/).fill('2.5');
  await box(page, /^Levels/).fill('4');
  await box(page, /^Skew/).fill('0.8');
  await box(page, /^Seed/).fill('42');
  await box(page, /^Cache budget/).fill('30');
  await page.getByRole('radio', { name: 'Partial (P)' }).check();
  await box(page, /^Existing ratio/).fill('0.25');
  await expect(page).toHaveURL(/#\/memory\?v=1&T=4&L=4&f1=1&nf=8192&b=2\.5&th=0\.8&Z=0\.5&at=size&hl=1&seed=42&D=2&sb=10&skip=partial&bud=30&a=0\.25&be=0\.5&t1=0\.2&t2=0\.1$/);

  const link = await copyLink(page);

  const view = async (p: Page) => {
    await expect(p.getByTestId('mn-table').locator('tbody tr')).toHaveCount(1 + 4 + 8 + 8);
    return {
      unn: await Promise.all(['mn-unn-uniform', 'mn-unn-monkey', 'mn-unn-mnemosyne', 'io-mono', 'io-eq', 'io-prop'].map((id) => readout(p, id))),
      firstRow: await p.getByTestId('mn-table').locator('tbody tr').first().innerText(),
      utility: await p.getByTestId('utility-table').innerText(),
      budget: await box(p, /^Cache budget/).inputValue(),
      partial: await p.getByRole('radio', { name: 'Partial (P)' }).isChecked(),
    };
  };
  const before = await view(page);
  await expectLinkShowsView(context, link, { view, before });

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(new RegExp(`#/memory\\?${DEFAULT_QUERY.replace(/\./g, '\\.')}$`));
  // A bad link falls back with a notice instead of breaking the page.
  await page.goto('/#/memory?v=1&T=40&D=abc');
  await expect(page.getByTestId('url-notices')).toContainText('T=40 is not valid (size ratio must be a whole number between 2 and 10); using the default, 4.');
  await expect(page.getByTestId('mn-active')).toContainText('of 21');
  expect(errors).toEqual([]);
});

test('memory: charts and tables download as valid SVG, PNG and CSV', async ({ page }) => {
  await page.goto(`/#/memory?${DEFAULT_QUERY}`);
  const stem = 'lsm-memory_mnemosyne-bits_T4_L3_f11_nf8192_b3_th1_Z0.5_at-size_hl1_seed0_D2_sb10_skip-full_bud50_a0_be0.5_t10.2_t20.1';

  const bars = page.getByTestId('card-mnemosyne-bits');
  await expect(bars.locator('svg.chart-svg')).toBeVisible();
  const svg = await downloadFrom(bars, 'SVG');
  expect(svg.name).toBe(`${stem}.svg`);
  const parsed = await parseSvg(page, svg.bytes);
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  expect(parsed.texts).toContain('filter memory (bits/key)');
  expect(parsed.texts).toContain('Mnemosyne');

  const png = await downloadFrom(bars, 'PNG');
  const pixels = expectPng(png.bytes);
  expect(pixels.width).toBe((await chartPngSize(bars)).width);

  const csv = await downloadFrom(bars, 'CSV');
  expect(csv.name).toBe(`${stem}.csv`);
  const lines = csvLines(csv.bytes);
  expect(lines[0]).toBe('file,level,entries,share of lookups in key range,empty probes z (per 1000000 lookups),found probes x (per 1000000 lookups),uniform (bits/key),Monkey+ (bits/key),Mnemosyne (bits/key)');
  expect(lines).toHaveLength(22);
  const expected = allocations(tree(4, 3, 1, 8192, 1, 0.5), 3);
  expect(Number(lines[1].split(',')[8])).toBeCloseTo(expected.bits.mnemosyne[0], 12);

  const budget = page.getByTestId('card-shamba-budget');
  await expect(budget.locator('svg.chart-svg')).toBeVisible();
  const budgetCsv = csvLines((await downloadFrom(budget, 'CSV')).bytes);
  const unit = '(pages per lookup reaching an SST)';
  expect(budgetCsv[0]).toBe(
    `cache budget (% of index + filter size),state of the art (one filter) ${unit},SHaMBa-eq-F ${unit},SHaMBa-prop-F ${unit},"SHaMBa-eq, no skipping ${unit}","SHaMBa-prop, no skipping ${unit}"`,
  );
  expect(budgetCsv).toHaveLength(142);
  expect((await downloadFrom(budget, 'PNG')).bytes.subarray(1, 4).toString('ascii')).toBe('PNG');

  const utility = csvLines((await downloadFrom(page.getByTestId('card-shamba-utility'), 'CSV')).bytes);
  expect(utility[0]).toBe('Filter,Module,Bits (bits/key),FPR,Reached by (share of empty lookups),Utility (I/O per lookup),Threshold θ (I/O),Partial (P),Full (F)');
  expect(utility).toHaveLength(5);
});

test('memory: the export card offers the page’s designs, follows its controls and opens them in the lab', async ({ page }) => {
  const errors = await openPage(page, `memory?${DEFAULT_QUERY}`);
  const panel = await engineExportPanel(page);
  await expect(page.getByTestId('card-export').getByRole('heading')).toHaveText('Export these designs for RocksDB and the native engine');
  await expect(panel.locator('.export-design-choice').getByRole('radio')).toHaveCount(4);
  const preview = enginePreview(panel);

  // Section A's tree (T = 4, 1 file in level 1, 8,192 entries of 512 B a file) with Mnemosyne at 3 bits/key.
  const fileBytes = 8192 * 512;
  const tree = {
    page_bytes: 4096,
    buffer_bytes: fileBytes,
    levels: [
      { size_ratio: 1, max_runs: 1 },
      { size_ratio: 4, max_runs: 1 },
    ],
    compaction: { granularity: 'file', target_file_bytes: fileBytes },
  };
  await expect(preview).toContainText('"allocation": "mnemosyne"');
  const mnemosyne = await downloadEngineJson(panel);
  expect(mnemosyne.name).toBe('lsm-mnemosyne-t4-l3-3bpk.json');
  expect(mnemosyne.config).toMatchObject({ ...tree, filter: { allocation: 'mnemosyne', bits_per_key: 3, kind: 'bloom', modules: 1, skip: 'none' } });

  // The page's controls change the design: the memory budget, the size ratio.
  await box(page, /^Memory budget/).fill('4.5');
  await box(page, /^Size ratio/).fill('5');
  await expect(preview).toContainText('"bits_per_key": 4.5');
  await expect(preview).toContainText(/"size_ratio": 5(\.0)?,/);
  await panel.getByRole('radio', { name: /^Uniform/ }).check();
  await expect(preview).toContainText('"allocation": "uniform"');
  const uniform = await downloadEngineJson(panel);
  expect(uniform.name).toBe('lsm-uniform-t5-l3-4.5bpk.json');
  expect(uniform.config.levels).toEqual([
    { size_ratio: 1, max_runs: 1 },
    { size_ratio: 5, max_runs: 1 },
  ]);
  expect(uniform.config.filter).toMatchObject({ allocation: 'uniform', bits_per_key: 4.5 });

  // SHaMBa: the module count and skip strategy follow section B's controls; the cache its budget.
  await panel.getByRole('radio', { name: /^SHaMBa/ }).check();
  await expect(preview).toContainText('"kind": "modular"');
  await expect(preview).toContainText('"modules": 2');
  await box(page, /^Modules/).fill('3');
  await page.getByRole('radio', { name: 'Partial (P)' }).check();
  await box(page, /^Cache budget/).fill('70');
  await expect(preview).toContainText('"modules": 3');
  await expect(preview).toContainText('"skip": "partial"');
  const shamba = await downloadEngineJson(panel);
  expect(shamba.name).toBe('lsm-shamba-d3-skip-partial-10bpk-cache70pct-t5-l3.json');
  // 31 files (1 + 5 + 25) of SHaMBa Table 5: 32 KiB of index and 80 KiB of filter each at 10 bits/key.
  const perFile = 0.7 * (32_768 + 81_920);
  expect(shamba.config).toMatchObject({
    page_bytes: 4096,
    buffer_bytes: 4 * 1024 * 1024,
    levels: [
      { size_ratio: 1, max_runs: 1 },
      { size_ratio: 5, max_runs: 1 },
    ],
    filter: { allocation: 'uniform', bits_per_key: 10, kind: 'modular', modules: 3, skip: 'partial' },
    compaction: { granularity: 'file', target_file_bytes: 4 * 1024 * 1024 },
    block_cache: { bytes: Math.round(31 * perFile), cache_index_and_filter_blocks: true },
  });
  expect(shamba.config.block_cache?.high_priority_ratio).toBeCloseTo((32_768 + 81_920 / 3) / perFile, 4);
  // The export card has no URL keys of its own.
  await expect(page).toHaveURL(/#\/memory\?v=1&T=5&L=3&f1=1&nf=8192&b=4\.5&th=1&Z=0\.5&at=size&hl=1&seed=0&D=3&sb=10&skip=partial&bud=70&a=0&be=0\.5&t1=0\.2&t2=0\.1$/);

  // Run in the lab: the lab's controls hold the SHaMBa design.
  const lab = await openInLab(panel);
  await expect(lab.getByRole('combobox', { name: 'Filter allocation' })).toHaveValue('uniform');
  await expect(lab.getByRole('textbox', { name: /^Size ratios/ })).toHaveValue('1, 5');
  await expect(lab.getByRole('radio', { name: 'By file' })).toBeChecked();
  await lab.getByText('Filters, cache and statistics').click();
  await expect(lab.getByRole('radio', { name: 'Modular' })).toBeChecked();
  await expect(lab.getByRole('textbox', { name: /^Filter modules/ })).toHaveValue('3');
  await expect(lab.getByRole('radio', { name: 'Partial', exact: true })).toBeChecked();
  expect(errors).toEqual([]);
});

test('memory: the page reads well at 1280×800 and on a phone', async ({ page }) => {
  await page.goto(`/#/memory?${DEFAULT_QUERY}`);
  await expect(page.getByTestId('mn-cost-chart')).toBeVisible();
  await expect(page.getByTestId('timing-chart')).toBeVisible();
  await expect(page.getByTestId('shamba-budget-chart')).toBeVisible();
  await expectReadsWell(page, 'memory', { width: 390, height: 844 }, page.getByTestId('card-mnemosyne-bits'));
});
