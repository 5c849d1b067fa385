import { defineConfig } from '@playwright/test';

/** Debian's Chromium; browser downloads are not possible (or wanted) here. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** scripts/test.mjs picks a free port; 4173 (Vite's preview default) otherwise. */
const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  outputDir: '.cache/playwright',
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  // One retry in CI: a test that fails twice fails the run; one that passes on its retry is
  // reported as flaky in the summary (and fixed), instead of throwing away a 25-minute run.
  retries: process.env.CI ? 1 : 0,
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort`,
    cwd: 'web',
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
