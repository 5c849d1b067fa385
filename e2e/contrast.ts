/**
 * AAA contrast (WCAG 1.4.6: 7:1, 4.5:1 for large text) of the text outside the charts: axe's
 * `color-contrast-enhanced`. Charts (SVG) are left out: their marks are not text on a page
 * background, and the AA rules in a11y.spec.ts check them.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The nodes under AAA contrast, each as "selector — axe's message". */
export async function enhancedContrast(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(['color-contrast-enhanced']).exclude('svg').analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')} — ${(n.any[0]?.message ?? n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
}
