/**
 * Chart labels never overprint: on every chart page, at 1440×900 and at 390×844, no annotation
 * label overlaps another label of its chart, and none sits on a drawn curve (points sampled along
 * every line path of the chart, the label's own point and leader excepted).
 */
import { expect, test, type Page } from '@playwright/test';

const PAGES = ['learn', 'monkey', 'tradeoffs', 'moose', 'memory', 'msls'];

async function collisions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of Array.from(document.querySelectorAll<SVGSVGElement>('svg.chart-svg'))) {
      if (svg.getBoundingClientRect().width === 0) continue;
      const labels = Array.from(svg.querySelectorAll<SVGTextElement>('g.annotation text')).filter((t) => (t.textContent ?? '') !== '');
      const boxes = labels.map((t) => ({ text: t.textContent ?? '', r: t.getBoundingClientRect() }));
      // Label against label.
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const b = boxes[j].r;
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`“${boxes[i].text}” on “${boxes[j].text}”`);
        }
      }
      // Label against the curves: points every 2 px along every series path.
      const paths = Array.from(svg.querySelectorAll<SVGPathElement>('g[data-series] path'));
      for (const { text, r } of boxes) {
        // Shrink the box a little: glyph boxes include line spacing above and below the letters.
        const inner = { left: r.left + 2, right: r.right - 2, top: r.top + 3, bottom: r.bottom - 3 };
        let hits = 0;
        for (const path of paths) {
          const m = path.getScreenCTM();
          if (!m) continue;
          const length = path.getTotalLength();
          for (let s = 0; s <= length; s += 2) {
            const p = path.getPointAtLength(s).matrixTransform(m);
            if (p.x > inner.left && p.x < inner.right && p.y > inner.top && p.y < inner.bottom) hits++;
          }
        }
        if (hits > 0) out.push(`“${text}” on a curve (${hits} points)`);
      }
    }
    return out;
  });
}

for (const route of PAGES) {
  test(`labels: ${route} — no chart label on another label or on a curve, wide and on a phone`, async ({ page }) => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`/#/${route}`);
      await page.reload();
      await expect(page.locator('svg.chart-svg').first()).toBeVisible({ timeout: 60_000 });
      // Sweeps arrive from the worker: wait until no card says it is computing.
      await expect(page.locator('.card-status', { hasText: /computing/i })).toHaveCount(0, { timeout: 60_000 });
      await page.waitForTimeout(800);
      expect(await collisions(page), `${route} at ${viewport.width}×${viewport.height}`).toEqual([]);
    }
  });
}
