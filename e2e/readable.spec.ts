/**
 * Readable at a glance: on every page, the words a visitor sees before opening any disclosure (the
 * page's header and content column, not the controls panel; closed <details> count only their
 * summary; file previews in <pre> left out) stay under a bound per page, and the paper-level
 * detail moved out of the captions is still there: hidden at first, shown when the disclosures
 * ("How this is computed") are opened. Terms link to the section of Learn that explains them.
 * Counts go to .cache/readable/words.json for the record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { collectErrors } from './helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, '.cache', 'readable');

interface PageCase {
  route: string;
  heading: RegExp;
  /** Ready when this shows (the page's numbers have arrived). */
  ready: string;
  /** Words visible before any disclosure is opened, at 1440×900: at most this many. */
  maxWords: number;
  /** Paper-level phrases moved into disclosures: not visible at first, visible once they are opened. */
  moved: string[];
}

// Bounds: the words measured at 1440×900 when the detail moved (see the commit), plus about 10 %.
// Before the move: Monkey 1,331, Trade-offs 920, Moose 1,761, Memory 1,842, MSLS 1,909 (same count).
const PAGES: PageCase[] = [
  { route: 'learn', heading: /^Learn/, ready: '[data-testid="monkey-memory-chart"] svg', maxWords: 1650, moved: [] },
  { route: 'teach', heading: /^Teaching view/, ready: '[data-testid="teach-tree"] svg', maxWords: 300, moved: [] },
  {
    route: 'monkey',
    heading: /^Monkey/,
    ready: '[data-testid="fig7-chart"] svg, [data-testid="card-fig7"] svg.chart-svg',
    maxWords: 1300,
    moved: ['Monkey Fig 7', 'Monkey Fig 12(A)', 'Sec 4.4', 'reference P7', 'Monkey Fig 9, bottom'],
  },
  {
    route: 'tradeoffs',
    heading: /^Trade-off curves/,
    ready: '[data-testid="tradeoff-chart"] svg',
    maxWords: 850,
    moved: ['Algorithm 5', 'Eq 23', 'Monkey Fig 11', 'Table 4 defaults of five systems', 'App G'],
  },
  {
    route: 'moose',
    heading: /^Moose/,
    ready: '[data-testid="layout-card"]',
    maxWords: 1900,
    moved: ['p_i ∝ N_i/n_i', 'n_i·p_i to a zero-result lookup', 'Moose Fig.10A', 'Eq.17', 'A = Σ√r_i'],
  },
  {
    route: 'memory',
    heading: /^Memory/,
    ready: '[data-testid="mn-cost-chart"] svg',
    maxWords: 1700,
    moved: ['Algorithm 1', 'min Σ z', 'SHaMBa Eq 6', 'SHaMBa Eq 8', '§B.3.9', 'Mnemosyne Fig 4'],
  },
  {
    route: 'msls',
    heading: /^Write amplification/,
    ready: '[data-testid="msls-sources-chart"] svg',
    // 1,564 measured before the RocksDB twin's table gained lsm predict's column (its figures and
    // verdicts, data rather than prose: 1,790 measured after); bound about that + 5%.
    maxWords: 1880,
    moved: ['Analysis, no opt', 'MSLS Fig 4', 'Theorem 3', 'LevelDB’s flush writes every version', 'fluid model'],
  },
  {
    route: 'tune',
    heading: /^Tune/,
    ready: '[data-testid="tune-table"]',
    // 564 measured before the RocksDB advice (verdict, the option diff as a table of option names
    // and values, memory and amplification lines; the reasons are behind a disclosure): 696
    // after; bound about that + 5%.
    maxWords: 730,
    moved: [],
  },
  { route: 'lab', heading: /^Workload lab/, ready: '[data-testid="run-button"]', maxWords: 150, moved: [] },
  { route: 'export', heading: /^Export/, ready: '[data-testid="export-panel"]', maxWords: 450, moved: [] },
  { route: 'bench', heading: /^Storage benchmark/, ready: '[data-testid="bench-stored"], [data-testid="bench-idle"]', maxWords: 280, moved: [] },
];

/**
 * The words of the page's header and content column as rendered (innerText: what is on screen, so
 * SVG labels and hidden text are left out), with the body of every closed <details> left out, and
 * file previews (<pre>: an OPTIONS file, a config's JSON, read on demand) too.
 */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    for (const root of Array.from(document.querySelectorAll<HTMLElement>('.page-header, .page-content'))) {
      let text = root.innerText;
      // Closed disclosures: only their summary is on screen. Take out whatever else innerText gave.
      for (const d of Array.from(root.querySelectorAll('details:not([open])'))) {
        for (const child of Array.from(d.children)) {
          if (child.tagName === 'SUMMARY') continue;
          const hidden = (child as HTMLElement).innerText.trim();
          if (hidden) text = text.replace(hidden, '');
        }
      }
      for (const pre of Array.from(root.querySelectorAll('pre'))) {
        const file = pre.innerText.trim();
        if (file) text = text.replace(file, '');
      }
      parts.push(text);
    }
    return parts.join('\n');
  });
}

const countWords = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

function record(name: string, values: Record<string, number>): void {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, 'words.json');
  const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  all[name] = values;
  fs.writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

for (const c of PAGES) {
  test(`readable: ${c.route} shows at most ${c.maxWords} words before a disclosure is opened; its paper detail is behind them`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/#/${c.route}`);
    await expect(page.getByRole('heading', { level: 1, name: c.heading })).toBeVisible();
    await expect(page.locator(c.ready).first()).toBeVisible({ timeout: 60_000 });
    await page.waitForTimeout(1000);

    const before = await visibleText(page);
    const closed = page.locator('.page-content details:not([open])');
    const disclosures = await closed.count();
    for (const phrase of c.moved) expect(before, `${c.route}: “${phrase}” should wait in a disclosure`).not.toContain(phrase);

    // Open every disclosure of the content column (each a keyboard user's Enter on its summary).
    for (let left = disclosures; left > 0; left--) {
      const summary = closed.first().locator(':scope > summary');
      await summary.focus();
      await page.keyboard.press('Enter');
    }
    await expect(closed).toHaveCount(0);
    const after = await visibleText(page);
    for (const phrase of c.moved) expect(after, `${c.route}: “${phrase}” shows once the disclosures are open`).toContain(phrase);

    const words = { before: countWords(before), after: countWords(after), disclosures };
    record(c.route, words);
    expect(words.before, `${c.route}: ${words.before} words before any disclosure (${words.after} with all ${disclosures} open)`).toBeLessThanOrEqual(c.maxWords);
    expect(errors).toEqual([]);
  });
}

test('readable: a term links to its section of Learn, which scrolls into view', async ({ page }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#/memory');
  await expect(page.getByRole('heading', { level: 1, name: /^Memory/ })).toBeVisible();
  const link = page.locator('a.learn-link[data-learn="bloom"]').first();
  await expect(link).toHaveAttribute('href', '#/learn?at=learn-bloom');
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: /^Learn/ })).toBeVisible();
  const section = page.locator('#learn-bloom');
  await expect(section).toBeInViewport();
  // Far down the page: the scroll moved it up to the top of the screen.
  expect(await section.evaluate((e) => Math.round(e.getBoundingClientRect().top))).toBeLessThan(200);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  // Learn's own settings are untouched (no notice about an unknown setting).
  await expect(page.getByTestId('url-notices')).toHaveCount(0);
  // Every page that names these terms links some of them where a reader sees them (links inside
  // a closed "How this is computed" disclosure are in the page but hidden until it opens, and
  // which link comes first in the page depends on what has rendered).
  for (const route of ['monkey', 'tradeoffs', 'moose', 'memory']) {
    await page.goto(`/#/${route}`);
    await expect(page.locator('a.learn-link:visible').first()).toBeVisible({ timeout: 60_000 });
  }
  expect(errors).toEqual([]);
});
