#!/usr/bin/env node
/**
 * Measures the Benchmark page's default comparison in headless Chromium (Debian's, as the e2e
 * tests use it) and stores it as public/measured/browser-bench.json, the result the page shows
 * before a visitor's own run. The page itself runs and records it (its last-run record in
 * localStorage); this script only presses Run and copies that record out. Needs `npm run build -w web`.
 *
 *   node scripts/browser-bench.mjs [entries=100000] [repeats=1]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
// The flags of playwright.config.ts (a .ts file, which plain node cannot import).
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [entries = '100000', repeats = '1'] = process.argv.slice(2);
const port = 4300 + Math.floor(Math.random() * 500);
// Its own process group, so stopping it stops vite too (npx runs vite as a child).
const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], { cwd: path.join(root, 'web'), stdio: 'ignore', detached: true });
try {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  for (let i = 0; i < 60; i++) {
    try {
      await page.goto(`http://localhost:${port}/#/bench?v=1&n=${entries}&r=${repeats}`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.getByTestId('bench-done').waitFor({ timeout: 1_200_000 });
  const doc = JSON.parse(await page.evaluate(() => localStorage.getItem('lsm-navigator/bench-last') ?? 'null'));
  if (!doc) throw new Error('the page recorded no run');
  const out = path.join(root, 'public', 'measured', 'browser-bench.json');
  fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}: ${doc.rows.length} store runs of ${doc.entries} entries`);
  await browser.close();
} finally {
  if (server.pid) process.kill(-server.pid);
}
