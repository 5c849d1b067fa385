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

test('write stalls: with merges paced by the writes, level 1 slows writes at 2 files, stops them at 4, and a merge lets them go on', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/#/teach');
  await page.getByRole('combobox', { name: 'Preset', exact: true }).selectOption('stalls');
  await expect(page.getByRole('radio', { name: 'Paced by the writes' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: /^Slow writes at/ })).toHaveValue('2');
  await expect(page.getByRole('textbox', { name: /^Stop writes at/ })).toHaveValue('4');
  await expect(page.getByTestId('teach-log')).toContainText('writes slow at 2 and stop at 4 level-1 files');
  const panel = page.getByTestId('teach-stall');
  const status = panel.getByRole('status');
  const level1 = page.getByTestId('teach-tree-level-1');
  const count = async (testId: string) => Number((await page.getByTestId(testId).textContent())?.replace(/,/g, ''));
  await expect(panel).toHaveAttribute('data-stall', 'none');
  await expect(status).toContainText('Writes flow');
  await expect(status).toContainText('Level 1 holds 0 files (slow down at 2, stop at 4).');

  // Two flushes: level 1 holds 2 runs, the slow-down count.
  await stepUntil(page, async () => (await panel.getAttribute('data-stall')) === 'slowdown');
  await expect(panel).toHaveAttribute('data-files', '2');
  await expect(level1).toHaveAttribute('data-runs', '2');
  await expect(status).toContainText('Writes slowed down');
  await expect(status).toContainText('up to 64 pages of merge work, not 16');
  await expect(page.getByTestId('teach-narration')).toContainText('Level 1 holds 2 files: writes slow down.');

  // Two more: level 1 reaches 4 runs, the stop count; the step ended at that write.
  await stepUntil(page, async () => (await panel.getAttribute('data-stall')) === 'stop');
  await expect(panel).toHaveAttribute('data-files', '4');
  await expect(level1).toHaveAttribute('data-runs', '4');
  await expect(status).toContainText('Writes stopped');
  await expect(status).toContainText('The next write waits until a merge brings level 1 under 4.');
  await expect(page.getByTestId('teach-narration')).toContainText('Level 1 holds 4 files: writes stop until a merge brings it down.');
  await expect(page.locator('.teach-next')).toHaveText('Next step: a write waits for the merge');
  expect(await count('teach-slowdowns')).toBeGreaterThan(0);
  await expect(page.getByTestId('teach-stops')).toHaveText('0');
  const inserted = await count('teach-inserted');
  const stoppedFrame = await attr(page, 'teach-stage', 'data-frame');

  // One step: its first write waits while level 1 is merged into level 2, then writes go on.
  await page.getByTestId('teach-step').click();
  await expect(page.getByTestId('teach-stage')).toHaveAttribute('data-frame', String(stoppedFrame + 1));
  await expect(panel).toHaveAttribute('data-stall', 'none');
  await expect(panel).toHaveAttribute('data-files', '0');
  await expect(level1).toHaveAttribute('data-runs', '0');
  await expect(page.getByTestId('teach-tree-level-2')).toHaveAttribute('data-runs', '1');
  await expect(status).toContainText('Writes flow');
  await expect(page.getByTestId('teach-stops')).toHaveText('1');
  expect(await count('teach-inserted')).toBe(inserted + 1);
  await expect(page.getByTestId('teach-narration')).toContainText(/Writes were stopped: a write waited while the merge ran \(\d+ pages written this step\)\. Level 1 holds 0 files: writes go on\./);
  await expect(page.getByTestId('teach-timeline').locator('.teach-marks .teach-mark.stall')).toHaveCount(1);
  // Back shows the stopped tree again, from the kept frame.
  await page.getByTestId('teach-back').click();
  await expect(panel).toHaveAttribute('data-stall', 'stop');
  await expect(level1).toHaveAttribute('data-runs', '4');
  await page.getByTestId('teach-step').click();
  await expect(panel).toHaveAttribute('data-stall', 'none');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.getByTestId('teach-back').click();
  await page.screenshot({ path: path.join(ARTIFACTS, 'teaching-stall.png'), fullPage: true });
  expect(errors).toEqual([]);
});

/** What the tree shows now: every level's runs and entries, and the merge's progress. */
async function treePicture(page: Page): Promise<string> {
  return page.getByTestId('teach-tree').evaluate((fig) => {
    const levels = Array.from(fig.querySelectorAll('[data-testid^="teach-tree-level-"]')).map(
      (g) => `${g.getAttribute('data-runs')}/${g.getAttribute('data-entries')}/${g.getAttribute('data-merging')}`,
    );
    const out = fig.querySelector('[data-testid="teach-tree-merge-output"]')?.getAttribute('data-width') ?? '-';
    return [fig.querySelector('[data-testid="teach-tree-buffer"]')?.getAttribute('data-entries'), ...levels, fig.getAttribute('data-merge-read'), fig.getAttribute('data-merge-written'), out].join('|');
  });
}

test('presenter mode: a flush and a whole merge with the keyboard only, the merge drawn page by page, full screen, play, the log collapsed', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#/teach');
  const stage = page.getByTestId('teach-stage');
  const buffer = page.getByTestId('teach-tree-buffer');
  const level1 = page.getByTestId('teach-tree-level-1');
  const level2 = page.getByTestId('teach-tree-level-2');
  // The first Step, pressed the moment the button shows (the engine may still be opening), is not lost.
  await page.getByTestId('teach-step').click();
  await expect(stage).toHaveAttribute('data-frame', '1');
  await expect(buffer).toHaveAttribute('data-entries', '16');

  // From here on the keyboard only, as a clicker sends it: → Space PageDown step, ← PageUp back.
  await page.locator('body').click({ position: { x: 5, y: 880 } });
  const frame = async () => Number(await stage.getAttribute('data-frame'));
  const press = async (key: string, expected: number) => {
    await page.keyboard.press(key);
    await expect(stage).toHaveAttribute('data-frame', String(expected));
  };
  await press('ArrowRight', 2);
  await press(' ', 3);
  await expect(buffer).toHaveAttribute('data-entries', '48');
  await press('PageDown', 4);
  // A few more batches overfill the 64-entry buffer: it flushes into level 1.
  while ((await level1.getAttribute('data-runs')) !== '1') {
    expect(await frame()).toBeLessThan(8);
    await press('ArrowRight', (await frame()) + 1);
  }
  const flushed = await frame();
  await press('ArrowLeft', flushed - 1);
  await expect(level1).toHaveAttribute('data-runs', '0');
  await press('PageUp', flushed - 2);
  await press('End', flushed);
  await expect(level1).toHaveAttribute('data-runs', '1');
  await press('Home', 0);
  await press('End', flushed);

  // Step until a merge starts, then through the whole merge: every step changes the picture.
  for (let i = 0; i < 40 && (await level1.getAttribute('data-merging')) !== 'true'; i++) await press('ArrowRight', (await frame()) + 1);
  await expect(level1).toHaveAttribute('data-merging', 'true');
  let before = await treePicture(page);
  let mergeSteps = 0;
  const outputWidths: number[] = [];
  while ((await level2.getAttribute('data-runs')) !== '1') {
    await press('ArrowRight', (await frame()) + 1);
    const now = await treePicture(page);
    expect(now, `merge step ${mergeSteps + 1} changed nothing on screen`).not.toBe(before);
    before = now;
    mergeSteps++;
    const out = page.getByTestId('teach-tree-merge-output');
    if ((await out.count()) > 0) outputWidths.push(Number(await out.getAttribute('data-width')));
    expect(mergeSteps).toBeLessThan(60);
  }
  expect(mergeSteps).toBeGreaterThanOrEqual(3);
  // The output run grew at every step of the merge, and the read cursor moved with it.
  for (let i = 1; i < outputWidths.length; i++) expect(outputWidths[i]).toBeGreaterThan(outputWidths[i - 1]);
  await expect(page.getByTestId('teach-log')).toContainText('Merge finished');
  // The identical merge steps are one line with a count, and no line leaves the card.
  const counted = page.getByTestId('teach-log').locator('li[data-count]:not([data-count="1"])');
  await expect(counted.first()).toBeVisible();
  expect(Number(await counted.first().getAttribute('data-count'))).toBeGreaterThanOrEqual(2);
  await expect(counted.first()).toContainText(/× \d+/);
  const card = await page.locator('.teach-log').boundingBox();
  for (const li of await page.getByTestId('teach-log').locator('li').all()) {
    const box = await li.boundingBox();
    expect(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width).toBe(true);
  }

  // P plays and pauses.
  await page.keyboard.press('p');
  await expect(page.getByTestId('teach-play')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(frame).toBeGreaterThan(mergeSteps + 6);
  await page.keyboard.press('p');
  await expect(page.getByTestId('teach-play')).toHaveAttribute('aria-pressed', 'false');

  // F: full screen, bigger tree and type, the button says how to leave; F again leaves.
  const treeHeight = async () => (await page.getByTestId('teach-tree').locator('svg').boundingBox())?.height ?? 0;
  const narrationSize = async () => page.getByTestId('teach-narration').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  const smallTree = await treeHeight();
  const smallText = await narrationSize();
  await page.keyboard.press('f');
  await expect(stage).toHaveAttribute('data-fullscreen', 'true');
  await expect(page.getByTestId('teach-fullscreen')).toHaveText('Exit full screen');
  await expect.poll(treeHeight).toBeGreaterThan(smallTree * 1.3);
  expect(await narrationSize()).toBeGreaterThan(smallText * 1.4);
  expect(Number(await page.getByTestId('teach-tree').getAttribute('data-font'))).toBeGreaterThan(16);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'teaching-presenter.png') });
  // Stepping still works in full screen.
  await press('ArrowRight', (await frame()) + 1);
  await page.keyboard.press('f');
  await expect(stage).toHaveAttribute('data-fullscreen', 'false');
  await expect(page.getByTestId('teach-fullscreen')).toHaveText('Full screen');
  expect(errors).toEqual([]);
});

test('embed links: the tree alone (still stepped by keys) and one chart alone, without controls', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/#/teach?v=1&T=3&embed=tree');
  const tree = page.getByTestId('teach-tree');
  await expect(tree).toBeVisible();
  for (const hidden of [page.locator('.app-header'), page.getByRole('complementary', { name: 'Controls' }), page.getByTestId('teach-step'), page.getByTestId('teach-log'), page.getByTestId('teach-narration')]) {
    await expect(hidden).toBeHidden();
  }
  // The tree fills the window's height.
  expect((await tree.locator('svg').boundingBox())?.height ?? 0).toBeGreaterThan(500);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('teach-tree-buffer')).toHaveAttribute('data-entries', '16');
  expect(page.url()).toContain('embed=tree');
  await page.screenshot({ path: path.join(ARTIFACTS, 'teaching-embed.png') });

  await page.goto('/#/monkey?embed=fig7');
  await expect(page.getByTestId('card-fig7')).toBeVisible();
  await expect(page.getByTestId('card-fig7').locator('svg.chart-svg')).toBeVisible();
  await expect(page.getByTestId('card-levels')).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Controls' })).toBeHidden();
  await expect(page.locator('.app-header')).toBeHidden();
  // Nothing else on the page is visible: every visible card is the embedded one.
  expect(await page.locator('.card:visible').count()).toBe(1);
});

/** The "Next step: …" line, as a person in front of the screen sees it: its box, size, and whether anything covers it. */
async function nextStepLine(page: Page) {
  return page.locator('.teach-next').evaluate((el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    // Five points across the line: the topmost element at each must be the line itself.
    const covered = [0.1, 0.3, 0.5, 0.7, 0.9].filter((f) => {
      const top = document.elementFromPoint(r.left + r.width * f, r.top + r.height / 2);
      return !(top && (top === el || el.contains(top)));
    }).length;
    return {
      text: el.textContent ?? '',
      top: r.top,
      bottom: r.bottom,
      left: r.left,
      right: r.right,
      height: r.height,
      fontSize: parseFloat(style.fontSize),
      background: style.backgroundColor,
      covered,
      viewport: { width: window.innerWidth, height: window.innerHeight },
    };
  });
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
]) {
  test(`presenter mode at ${viewport.width}×${viewport.height}: the next step is shown uncovered, the narration large, and the counters count what the tree draws at every step of a flush and a merge`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewportSize(viewport);
    await page.goto('/#/teach');
    const stage = page.getByTestId('teach-stage');
    const narration = page.getByTestId('teach-narration');
    await expect(page.getByTestId('teach-tree-buffer')).toHaveAttribute('data-entries', '0');
    const fontSize = () => narration.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(await fontSize()).toBeGreaterThanOrEqual(18);

    await page.locator('body').click({ position: { x: 5, y: viewport.height - 20 } });
    await page.keyboard.press('f');
    await expect(stage).toHaveAttribute('data-fullscreen', 'true');
    expect(await fontSize()).toBeGreaterThanOrEqual(24);

    const checkNextStep = async (where: string) => {
      const line = await nextStepLine(page);
      expect(line.text, where).toMatch(/^Next step: \S/);
      expect(line.covered, `${where}: points of the next-step line covered`).toBe(0);
      expect(line.background, where).toBe('rgba(0, 0, 0, 0)');
      expect(line.height, where).toBeGreaterThanOrEqual(line.fontSize);
      expect(line.fontSize, where).toBeGreaterThanOrEqual(20);
      expect(line.top, where).toBeGreaterThanOrEqual(0);
      expect(line.bottom, where).toBeLessThanOrEqual(line.viewport.height);
      expect(line.left, where).toBeGreaterThanOrEqual(0);
      expect(line.right, where).toBeLessThanOrEqual(line.viewport.width);
    };
    await checkNextStep('full screen, step 0');

    const buffer = page.getByTestId('teach-tree-buffer');
    const level1 = page.getByTestId('teach-tree-level-1');
    const level2 = page.getByTestId('teach-tree-level-2');
    const frame = async () => Number(await stage.getAttribute('data-frame'));
    const counter = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));
    // What the tree shows, step by step: flushes are a buffer emptying into level 1, a merge is
    // drawn from its first page (level 1 outlined, its new run growing) until level 2 holds it.
    let flushes = 0;
    let merges = 0;
    let wasMerging = false;
    let lastEntries = 0;
    const seen = { flushSteps: 0, mergeSteps: 0, mergeEnded: false };
    for (let step = 1; step <= 60 && !seen.mergeEnded; step++) {
      const at = await frame();
      await page.keyboard.press('ArrowRight');
      await expect(stage).toHaveAttribute('data-frame', String(at + 1));
      const entries = Number(await buffer.getAttribute('data-entries'));
      const merging = (await level1.getAttribute('data-merging')) === 'true';
      if (entries < lastEntries) {
        flushes++;
        seen.flushSteps++;
      }
      if (merging && !wasMerging) merges++;
      if (merging) seen.mergeSteps++;
      if (wasMerging && !merging) {
        seen.mergeEnded = true;
        expect(Number(await level2.getAttribute('data-runs'))).toBe(1);
      }
      const where = `step ${at + 1} (${merging ? 'merge drawn' : 'no merge drawn'})`;
      expect(await counter('teach-flushes'), `${where}: Flushes`).toBe(flushes);
      expect(await counter('teach-merges'), `${where}: Merges`).toBe(merges);
      await expect(page.getByTestId('teach-merge-underway'), where).toHaveCount(merging ? 1 : 0);
      if (merging) await expect(page.getByTestId('teach-merge-underway')).toHaveText('1 under way');
      await checkNextStep(where);
      // The counters are on the projected screen too, below the tree.
      const counters = await page.getByTestId('teach-merges').evaluate((e) => ({ top: e.getBoundingClientRect().top, bottom: e.getBoundingClientRect().bottom, h: window.innerHeight }));
      expect(counters.bottom, `${where}: the Merges counter on screen`).toBeLessThanOrEqual(counters.h);
      expect(counters.top, where).toBeGreaterThan(0);
      wasMerging = merging;
      lastEntries = entries;
    }
    expect(seen.flushSteps).toBeGreaterThanOrEqual(3);
    expect(seen.mergeSteps).toBeGreaterThanOrEqual(3);
    expect(seen.mergeEnded).toBe(true);
    expect(await counter('teach-merges')).toBe(1);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `teaching-presenter-${viewport.width}.png`) });
    expect(await fontSize()).toBeGreaterThanOrEqual(24);
    await page.keyboard.press('f');
    await expect(stage).toHaveAttribute('data-fullscreen', 'false');
    expect(await fontSize()).toBeGreaterThanOrEqual(18);
    expect(errors).toEqual([]);
  });
}
