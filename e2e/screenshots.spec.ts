/**
 * Screenshots of every page at 1440×900 and on a phone (390×844), first screen and whole page,
 * for a person to look at (a closing note, a review). Skipped unless SCREENSHOTS=1; files go to
 * SCREENSHOTS_DIR (default .cache/screens, git-ignored):
 *   SCREENSHOTS=1 SCREENSHOTS_DIR=/tmp/screens npx playwright test e2e/screenshots.spec.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROUTES } from '../web/src/documents/routes';

const DIR = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join('.cache', 'screens'));
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

test.skip(process.env.SCREENSHOTS !== '1', 'screenshots only when SCREENSHOTS=1');

for (const size of SIZES) {
  test(`screenshots at ${size.width}×${size.height} (${size.name})`, async ({ page }) => {
    test.setTimeout(300_000);
    fs.mkdirSync(DIR, { recursive: true });
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [i, route] of ROUTES.entries()) {
      await page.goto(`/#/${route.path}`);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Sweeps and the engine draw their first results within a few seconds.
      await page.waitForTimeout(4000);
      const base = path.join(DIR, `${String(i + 1).padStart(2, '0')}-${route.path}-${size.name}`);
      await page.screenshot({ path: `${base}.png` });
      await page.screenshot({ path: `${base}-full.png`, fullPage: true });
    }
  });
}
