/**
 * Export and import (issue 8): every file the UI downloads is byte for byte what the native
 * `lsm export` prints for the same design (three presets and the trade-off page's optimizer
 * result, each in all four formats), the warnings shown are the ones the CLI reports, an exported
 * OPTIONS file comes back through the import view with an added key reported by name, and the
 * engine JSON the UI exports runs natively with the same counters as in the browser.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { initSync, WasmEngine } from '../web/src/wasm/pkg/lsm_engine.js';
import {
  collectErrors,
  openPage,
  screenshot,
} from './helpers';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CLI = path.join(ROOT, 'wasm-engine/target/release/lsm');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-export-e2e-'));
const presetFile = (id: string) => path.join(ROOT, 'public/presets', `${id}.json`);
const workloadFile = (id: string) => path.join(ROOT, 'public/examples', `${id}.json`);

type Format = 'engine' | 'rocksdb' | 'rocksdb-cpp' | 'db_bench';
const FILE_NAMES: Record<Format, (slug: string) => string> = {
  engine: (s) => `lsm-${s}.json`,
  rocksdb: (s) => `OPTIONS-${s}.ini`,
  'rocksdb-cpp': (s) => `${s}-filter-policy.cc`,
  db_bench: (s) => `db_bench-${s}.sh`,
};

interface Warning {
  kind: string;
  field: string;
  message: string;
}

function lsm(args: string[]): { stdout: Buffer; stderr: string } {
  if (!fs.existsSync(CLI)) throw new Error(`native CLI missing at ${CLI}: cd wasm-engine && cargo build --release --bin lsm`);
  const r = spawnSync(CLI, args);
  if (r.status !== 0) throw new Error(`lsm ${args.join(' ')} failed (${r.status}): ${r.stderr.toString('utf8')}`);
  return { stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** `warning: approximated buffer_bytes: message` lines of the CLI's stderr. */
function cliWarnings(stderr: string): Warning[] {
  return stderr
    .split('\n')
    .map((line) => /^warning: (dropped|rounded|approximated) (\S+): (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ kind: m[1], field: m[2], message: m[3] }));
}

function cliExport(design: string, format: Format, workload?: string): { bytes: Buffer; warnings: Warning[] } {
  const { stdout, stderr } = lsm(['export', '--design', design, '--format', format, ...(workload ? ['--workload', workload] : [])]);
  return { bytes: stdout, warnings: cliWarnings(stderr) };
}

/** The panel's file for a format once it is exported for the current design and workload. */
async function download(panel: Locator, format: Format, workloadName = ''): Promise<{ name: string; bytes: Buffer; file: string }> {
  await panel.getByTestId(`export-tab-${format}`).click();
  const body = panel.getByRole('tabpanel');
  await expect(body).toHaveAttribute('data-format', format);
  await expect(body).toHaveAttribute('data-workload', workloadName);
  await expect(body).toHaveAttribute('data-status', 'ready');
  const [dl] = await Promise.all([panel.page().waitForEvent('download'), panel.getByTestId('export-download').click()]);
  const file = path.join(fs.mkdtempSync(path.join(TMP, 'dl-')), dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file), file };
}

/** The warnings the panel shows for the selected format. */
async function shownWarnings(panel: Locator): Promise<Warning[]> {
  return panel.getByTestId('export-warning-list').locator('li').evaluateAll((items) =>
    items.map((li) => ({
      kind: li.getAttribute('data-kind') ?? '',
      field: li.getAttribute('data-field') ?? '',
      message: li.querySelector('.warn-message')?.textContent ?? '',
    })),
  );
}

/** Download `format` and check it against `lsm export` on `design`: bytes, file name, warnings. */
async function expectSameAsCli(panel: Locator, format: Format, slug: string, design: string, workload?: { id: string; name: string }) {
  const got = await download(panel, format, workload?.name ?? '');
  const want = cliExport(design, format, workload && workloadFile(workload.id));
  expect(got.name).toBe(FILE_NAMES[format](slug));
  expect(got.bytes.length).toBeGreaterThan(100);
  expect(got.bytes.equals(want.bytes), `${got.name} differs from lsm export --format ${format}`).toBe(true);
  const shown = want.warnings.length > 0 ? await shownWarnings(panel) : [];
  expect(shown).toEqual(want.warnings);
  await expect(panel.getByTestId('export-warnings')).toHaveAttribute('data-count', String(want.warnings.length));
  return got;
}

const MIXED = { id: 'mixed', name: JSON.parse(fs.readFileSync(workloadFile('mixed'), 'utf8')).name as string };

test('export page: three presets, every format, byte for byte as lsm export', async ({ page }) => {
  const errors = collectErrors(page);
  for (const id of ['rocksdb', 'moose', 'dostoevsky-lazy-leveling']) {
    await page.goto(`/#/export?v=1&d=${id}&w=none&f=engine`);
    const preset = JSON.parse(fs.readFileSync(presetFile(id), 'utf8')) as { name: string };
    await expect(page.getByTestId('design-summary-name')).toHaveText(preset.name);
    const panel = page.getByTestId('export-panel');
    for (const format of ['engine', 'rocksdb', 'rocksdb-cpp'] as const) await expectSameAsCli(panel, format, id, presetFile(id));

    // db_bench needs a workload: the tab says so until one is chosen in the controls.
    await panel.getByTestId('export-tab-db_bench').click();
    await expect(panel.getByTestId('export-needs-workload')).toBeVisible();
    await expect(panel.getByTestId('export-download')).toBeDisabled();
    await page.getByRole('combobox', { name: /workload/i }).selectOption(MIXED.id);
    await expect(page).toHaveURL(new RegExp(`#/export\\?v=1&d=${id}&w=mixed&f=db_bench$`));
    await expectSameAsCli(panel, 'db_bench', id, presetFile(id), MIXED);
    // With a workload the RocksDB formats size the tree for it, as `--workload` does on the CLI.
    await expectSameAsCli(panel, 'rocksdb', id, presetFile(id), MIXED);
  }
  expect(errors).toEqual([]);
});

test('trade-offs: the holistic optimizer’s design exports as lsm export writes it', async ({ page }) => {
  const errors = await openPage(page, 'tradeoffs');
  await expect(page.getByTestId('design-card')).toHaveAttribute('aria-busy', 'false');
  // The design the page chose, as the page shows it (its EngineConfig, before the engine's canonical form).
  await page.getByText('Engine config (JSON)').click();
  const shownConfig = (await page.getByTestId('engine-config').textContent()) ?? '';
  const designFile = path.join(TMP, 'holistic-design.json');
  fs.writeFileSync(designFile, shownConfig);
  const config = JSON.parse(shownConfig) as { levels: { size_ratio: number }[]; filter: { bits_per_key: number } };
  const policy = (await page.getByTestId('chosen-policy').textContent()) ?? '';
  const short = (v: number) => String(Number(v.toPrecision(4)));
  const slug = `holistic-${policy}-t${short(config.levels[0].size_ratio)}-${short(config.filter.bits_per_key)}bpk`;

  const panel = page.getByTestId('card-export').getByTestId('export-panel');
  await panel.scrollIntoViewIfNeeded();
  const engine = await expectSameAsCli(panel, 'engine', slug, designFile);
  // The other formats: the CLI reads the downloaded engine JSON, as a user would.
  for (const format of ['rocksdb', 'rocksdb-cpp'] as const) await expectSameAsCli(panel, format, slug, engine.file);
  await panel.getByTestId('export-workload').selectOption(MIXED.id);
  await expectSameAsCli(panel, 'db_bench', slug, engine.file, MIXED);
  await expectSameAsCli(panel, 'rocksdb', slug, engine.file, MIXED);
  // The canonical JSON is a fixed point: exporting it again changes nothing.
  expect(cliExport(engine.file, 'engine').bytes.equals(engine.bytes)).toBe(true);
  expect(errors).toEqual([]);
});

test('Monkey and Moose pages: the panel exports the page’s designs', async ({ page }) => {
  const errors = await openPage(page, 'monkey?v=1&N=1048576&E=1024&pg=4096&T=4&pol=lev&b=5&buf=1&nz=50');
  const monkeyPanel = page.getByTestId('card-export').getByTestId('export-panel');
  await monkeyPanel.scrollIntoViewIfNeeded();
  const monkey = await download(monkeyPanel, 'engine');
  expect(monkey.name).toBe('lsm-monkey-leveling-t4-5bpk.json');
  const monkeyConfig = JSON.parse(monkey.bytes.toString('utf8'));
  expect(monkeyConfig).toMatchObject({ page_bytes: 4096, buffer_bytes: 1048576, levels: [{ size_ratio: 4, max_runs: 1 }], filter: { allocation: 'monkey', bits_per_key: 5 } });
  await monkeyPanel.getByRole('radio', { name: /Uniform bits per key/ }).check();
  const uniformEngine = await download(monkeyPanel, 'engine');
  expect(JSON.parse(uniformEngine.bytes.toString('utf8')).filter).toMatchObject({ allocation: 'uniform', bits_per_key: 5 });
  const uniform = await download(monkeyPanel, 'rocksdb');
  expect(uniform.name).toBe('OPTIONS-uniform-leveling-t4-5bpk.ini');
  expect(uniform.bytes.equals(cliExport(uniformEngine.file, 'rocksdb').bytes)).toBe(true);

  await page.goto('/#/moose');
  await expect(page.getByTestId('page-moose')).toBeVisible();
  await expect(page.getByTestId('smoose-weighted')).toBeVisible();
  await expect(page.locator('.card-status', { hasText: 'computing' })).toHaveCount(0);
  const moosePanel = page.getByTestId('card-export').getByTestId('export-panel');
  await moosePanel.scrollIntoViewIfNeeded();
  const layoutFile = path.join(TMP, 'moose-layout.json');
  fs.writeFileSync(layoutFile, (await page.getByTestId('engine-config').textContent()) ?? '');
  const yours = await download(moosePanel, 'engine');
  expect(yours.name).toMatch(/^lsm-moose-7x3-7x3-7x3-.*\.json$/);
  expect(yours.bytes.equals(cliExport(layoutFile, 'engine').bytes)).toBe(true);
  await moosePanel.getByRole('radio', { name: 'Smoose’s choice' }).check();
  const smoose = await download(moosePanel, 'rocksdb-cpp');
  expect(smoose.name).toMatch(/^smoose-.*-filter-policy\.cc$/);
  const smooseEngine = await download(moosePanel, 'engine');
  expect(smoose.bytes.equals(cliExport(smooseEngine.file, 'rocksdb-cpp').bytes)).toBe(true);
  expect(errors).toEqual([]);
});

test('import: an exported OPTIONS file comes back, with an added key reported by name', async ({ page }) => {
  const errors = await openPage(page, 'export?v=1&d=leveldb&w=none&f=rocksdb');
  const panel = page.getByTestId('export-panel');
  const options = await download(panel, 'rocksdb');
  // A key this version does not know, in the column family section.
  const edited = options.bytes.toString('utf8').replace('[CFOptions "default"]\n', '[CFOptions "default"]\n  my_custom_knob=42\n');
  expect(edited).toContain('my_custom_knob=42');
  const editedFile = path.join(TMP, 'OPTIONS-edited.ini');
  fs.writeFileSync(editedFile, edited);
  const cli = lsm(['import', '--rocksdb', editedFile]);
  const want = JSON.parse(cli.stdout.toString('utf8')) as { page_bytes: number; buffer_bytes: number; levels: { size_ratio: number; max_runs: number }[] };

  const card = page.getByTestId('card-import');
  await card.getByTestId('import-file').setInputFiles({ name: 'OPTIONS-edited.ini', mimeType: 'text/plain', buffer: Buffer.from(edited) });
  await expect(card.getByRole('radio', { name: 'RocksDB OPTIONS' })).toBeChecked();
  await card.getByTestId('import-run').click();
  await expect(card.getByTestId('import-result')).toBeVisible();
  await expect(card.getByTestId('import-unknown-keys').locator('li')).toHaveText(['CFOptions.my_custom_knob']);
  expect(cli.stderr).toContain('unknown key (ignored): CFOptions.my_custom_knob');
  // The design shown is the one `lsm import` reads from the same file.
  const summary = card.getByTestId('import-summary');
  const readouts = await summary.locator('.design-facts dd').evaluateAll((dds) => dds.map((d) => d.getAttribute('data-value')));
  expect(readouts.slice(0, 2)).toEqual([String(want.page_bytes), String(want.buffer_bytes)]);
  const rows = await card.getByTestId('import-summary-levels').locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.getAttribute('data-value'))),
  );
  expect(rows.map((r) => [Number(r[1]), Number(r[2])])).toEqual(want.levels.map((l) => [l.size_ratio, l.max_runs]));
  const importWarnings = await card.getByTestId('import-warnings').locator('li').evaluateAll((items) =>
    items.map((li) => ({ kind: li.getAttribute('data-kind'), field: li.getAttribute('data-field'), message: li.querySelector('.warn-message')?.textContent })),
  );
  expect(importWarnings).toEqual(cliWarnings(cli.stderr));

  // Export it again: the engine JSON is what `lsm import` prints (the canonical form).
  await card.getByTestId('import-export').click();
  await expect(page).toHaveURL(/[?&]d=custom/);
  await expect(page.getByTestId('design-summary-name')).toHaveText('Imported from a RocksDB OPTIONS file');
  // "Run in the lab" follows the lab's own link convention (documents/urls/labDocuments.ts labLink).
  await expect(panel.getByTestId('export-lab-link')).toHaveAttribute('href', /^#\/lab\?v=1&/);
  const again = await download(panel, 'engine');
  expect(again.name).toBe('lsm-imported-from-a-rocksdb-options-file.json');
  expect(again.bytes.equals(cli.stdout)).toBe(true);

  // A pasted engine config with keys this version does not know: read, and the keys named.
  const pasted = { ...JSON.parse(fs.readFileSync(presetFile('monkey'), 'utf8')), tuning_notes: 'from a notebook' };
  pasted.filter.colour = 'blue';
  const pastedFile = path.join(TMP, 'pasted.json');
  fs.writeFileSync(pastedFile, JSON.stringify(pasted, null, 2));
  await card.getByTestId('import-text').fill(JSON.stringify(pasted, null, 2));
  await expect(card.getByRole('radio', { name: 'Engine JSON' })).toBeChecked();
  await card.getByTestId('import-run').click();
  await expect(card.getByTestId('import-unknown-keys').locator('li')).toHaveText(['filter.colour', 'tuning_notes']);
  const pastedCli = lsm(['import', '--engine', pastedFile]);
  expect(pastedCli.stderr).toContain('unknown key (ignored): filter.colour');
  await card.getByTestId('import-export').click();
  await expect(page.getByTestId('design-summary-name')).toHaveText(pasted.name);
  const pastedExport = await download(panel, 'rocksdb');
  const canonical = path.join(TMP, 'pasted-canonical.json');
  fs.writeFileSync(canonical, pastedCli.stdout);
  expect(pastedExport.bytes.equals(cliExport(canonical, 'rocksdb').bytes)).toBe(true);

  // Back to the OPTIONS file's design…
  await card.getByTestId('import-file').setInputFiles({ name: 'OPTIONS-edited.ini', mimeType: 'text/plain', buffer: Buffer.from(edited) });
  await card.getByTestId('import-run').click();
  await expect(card.getByTestId('import-unknown-keys').locator('li')).toHaveText(['CFOptions.my_custom_knob']);

  // …or open it on the Moose page, which reads the link without complaint.
  await card.getByTestId('import-moose-link').click();
  await expect(page.getByTestId('page-moose')).toBeVisible();
  await expect(page.getByTestId('url-notices')).toHaveCount(0);
  await expect(page.getByTestId('table-notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

type Json = { [k: string]: unknown };

/** Everything but wall-clock time and WAL syncs (one per step: they follow how a run is chopped),
 * as in web/test/engine-parity.test.ts. */
function counters(r: Json): Json {
  const strip = (stats: unknown) => ({ ...(stats as Json), wal_syncs: 0 });
  // Wall-clock figures (timings, latencies) differ run to run; the counters may not.
  const out: Json = { ...r, timings: null, latency: null, preload: strip(r.preload), run: strip(r.run) };
  if (r.rocksdb_counters !== undefined) out.rocksdb_counters = { ...(r.rocksdb_counters as Json), 'rocksdb.wal.synced': 0 };
  return out;
}

/** Run a workload in the app's own engine worker (memory backend), speaking its message protocol. */
async function browserRun(page: Page, workerUrl: string, config: Json, workload: Json): Promise<Json> {
  return page.evaluate(
    async ({ workerUrl, config, workload }) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      let next = 1;
      const call = (kind: string, payload: unknown) =>
        new Promise<unknown>((resolve, reject) => {
          const id = next++;
          const onMessage = (e: MessageEvent<{ id: number; type: string; ok?: boolean; result?: unknown; error?: string }>) => {
            if (e.data.id !== id || e.data.type !== 'result') return;
            worker.removeEventListener('message', onMessage);
            if (e.data.ok) resolve(e.data.result);
            else reject(new Error(e.data.error));
          };
          worker.addEventListener('message', onMessage);
          worker.postMessage({ id, kind, payload });
        });
      await call('open', { name: 'export-round-trip', backend: 'memory', config, create: true });
      const result = (await call('run', { workload, label: 'export round trip' })) as { report: { [k: string]: unknown }; cancelled: boolean };
      worker.terminate();
      if (result.cancelled) throw new Error('the run was cancelled');
      return result.report;
    },
    { workerUrl, config, workload },
  );
}

function nativeRun(configFile: string, workload: string): Json {
  const out = path.join(fs.mkdtempSync(path.join(TMP, 'run-')), 'report.json');
  lsm(['run', '--config', configFile, '--workload', workload, '--report', out]);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as Json;
}

function nodeWasmRun(configText: string, workloadText: string): Json {
  initSync({ module: fs.readFileSync(path.join(ROOT, 'web/src/wasm/pkg/lsm_engine_bg.wasm')) });
  const engine = new WasmEngine(configText);
  engine.start_workload(workloadText);
  for (;;) if ((JSON.parse(engine.run_steps(7_777)) as { phase: string }).phase === 'done') break;
  const report = JSON.parse(engine.report_json(0, 0)) as Json;
  engine.free();
  return report;
}

test('round trip: the exported engine JSON runs natively with the browser’s counters', async ({ page }) => {
  const errors = collectErrors(page);
  for (const [id, wl] of [
    ['dostoevsky-lazy-leveling', 'mixed'],
    ['leveldb', 'zero-result-lookups'],
  ] as const) {
    await page.goto(`/#/export?v=1&d=${id}&w=none&f=engine`);
    const panel = page.getByTestId('export-panel');
    const exported = await download(panel, 'engine');
    // The UI's engine JSON is the preset's canonical export.
    expect(exported.bytes.equals(cliExport(presetFile(id), 'engine').bytes)).toBe(true);

    const workloadText = fs.readFileSync(workloadFile(wl), 'utf8');
    const native = nativeRun(exported.file, workloadFile(wl));
    const workerUrl = page.workers().map((w) => w.url()).find((u) => u.includes('engine.worker'));
    if (!workerUrl) throw new Error('the engine worker did not start');
    const browser = await browserRun(page, workerUrl, JSON.parse(exported.bytes.toString('utf8')) as Json, JSON.parse(workloadText) as Json);
    const node = nodeWasmRun(exported.bytes.toString('utf8'), workloadText);

    expect(counters(browser)).toEqual(counters(native));
    expect(counters(node)).toEqual(counters(native));
    const run = native.run as { ops: number[] };
    expect(run.ops.reduce((a, b) => a + b, 0)).toBe((JSON.parse(workloadText) as { operations: number }).operations);
  }
  expect(errors).toEqual([]);
});

test('export page: screenshots', async ({ page }) => {
  await page.goto('/#/export?v=1&d=monkey&w=mixed&f=rocksdb');
  const panel = page.getByTestId('export-panel');
  await expect(panel.getByRole('tabpanel')).toHaveAttribute('data-status', 'ready');
  const options = cliExport(presetFile('leveldb'), 'rocksdb').bytes.toString('utf8').replace('[DBOptions]\n', '[DBOptions]\n  max_open_files=5000\n');
  const card = page.getByTestId('card-import');
  await card.getByTestId('import-text').fill(options);
  await card.getByTestId('import-run').click();
  await expect(card.getByTestId('import-result')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'export');
  await page.setViewportSize({ width: 420, height: 900 });
  await screenshot(page, 'export-narrow');
});
