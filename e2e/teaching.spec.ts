import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

const attr = async (page: Page, testId: string, name: string) => Number(await page.getByTestId(testId).getAttribute(name));

/** Press Step until `done` holds, waiting for each step's engine call to finish, at most `max` times. */
async function stepUntil(page: Page, done: () => Promise<boolean>, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    const before = await attr(page, 'teach-stage', 'data-steps');
    await page.getByTestId('teach-step').click();
    await expect.poll(() => attr(page, 'teach-stage', 'data-steps')).toBeGreaterThan(before);
  }
  throw new Error('condition not reached');
}

test('teaching view: steps through a flush and a merge on the engine’s own tree', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/#/teach');
  await expect(page.getByRole('heading', { name: 'Teaching view: watch an LSM-tree work' })).toBeVisible();
  const buffer = page.getByTestId('teach-tree-buffer');
  const level1 = page.getByTestId('teach-tree-level-1');
  const level2 = page.getByTestId('teach-tree-level-2');
  await expect(buffer).toHaveAttribute('data-entries', '0');
  await expect(level1).toHaveAttribute('data-runs', '0');

  // Three steps of 16 keys fill the 64-entry buffer to 48.
  for (let i = 1; i <= 3; i++) {
    await page.getByTestId('teach-step').click();
    await expect(buffer).toHaveAttribute('data-entries', String(16 * i));
  }
  await expect(level1).toHaveAttribute('data-runs', '0');
  // Flush: the buffer empties and its entries become a run on level 1.
  await page.getByRole('button', { name: 'Flush buffer' }).click();
  await expect(buffer).toHaveAttribute('data-entries', '0');
  await expect(level1).toHaveAttribute('data-runs', '1');
  await expect(level1).toHaveAttribute('data-entries', '48');
  await expect(page.getByTestId('teach-log').locator('li').first()).toContainText('flushed');
  await expect(page.getByTestId('teach-flushes')).toHaveText('1');

  // Keep stepping: level 1 fills (T = 3 buffers) and a merge starts, outlined, a few pages per step.
  await stepUntil(page, async () => (await level1.getAttribute('data-merging')) === 'true');
  await expect(level1.locator('.tv-slot').first()).toBeVisible();
  const inLevel1 = await attr(page, 'teach-tree-level-1', 'data-entries');
  expect(inLevel1).toBeGreaterThan(150);
  await expect(page.getByTestId('teach-log')).toContainText('Level 1 must be merged');
  // The merge completes: the data moved to level 2, level 1 is empty again.
  await stepUntil(page, async () => (await level2.getAttribute('data-runs')) === '1');
  await expect(level2).toHaveAttribute('data-entries', String(inLevel1));
  await expect(level1).toHaveAttribute('data-runs', '0');
  await expect(page.getByTestId('teach-merges')).toHaveText('1');
  await expect(page.getByTestId('teach-log')).toContainText('Merge finished: level 2 now holds');
  // Each step is narrated with its pages, from the engine's counters.
  await expect(page.getByTestId('teach-narration')).toContainText('Merge finished');
  await expect(page.getByTestId('teach-narration')).toContainText(/pages? read and \d+ pages? written this step/);

  // Step back: the picture before the merge finished; the engine keeps its newest state.
  const newest = await attr(page, 'teach-stage', 'data-frame');
  const insertedNow = await page.getByTestId('teach-inserted').textContent();
  await page.getByTestId('teach-back').click();
  await expect(page.getByTestId('teach-stage')).toHaveAttribute('data-frame', String(newest - 1));
  await expect(level2).toHaveAttribute('data-runs', '0');
  await expect(level1).toHaveAttribute('data-merging', 'true');
  await expect(page.getByTestId('teach-narration')).toContainText(`Step ${newest - 1}:`);
  await expect(page.getByTestId('teach-narration')).toContainText('Merging level 1 into level 2');
  // The timeline: marks under the flushes and merge steps; Home goes to the start, End back to now.
  expect(await page.getByTestId('teach-timeline').locator('.teach-marks .teach-mark.flush').count()).toBeGreaterThanOrEqual(3);
  expect(await page.getByTestId('teach-timeline').locator('.teach-marks .teach-mark.merge').count()).toBeGreaterThanOrEqual(1);
  const slider = page.getByRole('slider', { name: /^Timeline/ });
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('teach-stage')).toHaveAttribute('data-frame', '0');
  await expect(buffer).toHaveAttribute('data-entries', '0');
  await expect(page.getByTestId('teach-narration')).toContainText('A new, empty tree');
  await page.keyboard.press('End');
  await expect(page.getByTestId('teach-stage')).toHaveAttribute('data-frame', String(newest));
  await expect(level2).toHaveAttribute('data-runs', '1');
  // Step forward from the past replays kept frames: no keys inserted twice.
  await page.getByTestId('teach-back').click();
  await page.getByTestId('teach-step').click();
  await expect(page.getByTestId('teach-stage')).toHaveAttribute('data-frame', String(newest));
  await expect(page.getByTestId('teach-inserted')).toHaveText(insertedNow ?? '');

  // Play runs steps by itself until paused.
  await page.getByRole('textbox', { name: /^Speed/ }).fill('10');
  await page.getByTestId('teach-play').click();
  await expect.poll(async () => Number((await page.getByTestId('teach-inserted').textContent())?.replace(/,/g, '')), { timeout: 20_000 }).toBeGreaterThan(400);
  await page.getByTestId('teach-play').click();
  await expect(page.getByTestId('teach-play')).toHaveText('▶ Play');
  // A picture for the record: three levels, Monkey's colours, the next merge under way.
  await stepUntil(page, async () => (await level1.getAttribute('data-merging')) === 'true');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, 'teaching.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('teaching view: the design is in the link and tiering draws T − 1 slots per level', async ({ page }) => {
  await page.goto('/#/teach?v=1&T=4&pol=tiering&fa=uniform&b=6&spd=3');
  await expect(page.getByRole('textbox', { name: /^Size ratio/ })).toHaveValue('4');
  await expect(page.getByRole('radio', { name: 'Tiering' })).toBeChecked();
  await expect(page.getByTestId('teach-log')).toContainText('tiering, T = 4, uniform 6 bits/key');
  for (let i = 0; i < 5; i++) await page.getByTestId('teach-step').click();
  await expect(page.getByTestId('teach-tree-level-1')).toHaveAttribute('data-runs', '1');
  await expect(page.getByTestId('teach-tree-level-1').locator('.tv-slot')).toHaveCount(3);
});
