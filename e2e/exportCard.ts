/**
 * Steps the page specs share for an explorer page's "Export this design" card (ExportCard in
 * web/src/ui/export/ExportPanel.tsx): open its Engine JSON tab, download the current design's
 * file, and follow "Run in the lab →".
 */
import fs from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import type { EngineConfig } from '../web/src/documents/engine';

/** The page's export panel, scrolled into view, on the Engine JSON tab. */
export async function engineExportPanel(page: Page): Promise<Locator> {
  const panel = page.getByTestId('card-export').getByTestId('export-panel');
  await panel.scrollIntoViewIfNeeded();
  await panel.getByTestId('export-tab-engine').click();
  await expect(panel.getByRole('tabpanel')).toHaveAttribute('data-format', 'engine');
  return panel;
}

/** The engine JSON preview of the panel. */
export const enginePreview = (panel: Locator): Locator => panel.getByTestId('export-preview');

/** The current design's engine JSON file, once exported: its name and the config it holds. */
export async function downloadEngineJson(panel: Locator): Promise<{ name: string; config: EngineConfig }> {
  await expect(panel.getByRole('tabpanel')).toHaveAttribute('data-status', 'ready');
  const [dl] = await Promise.all([panel.page().waitForEvent('download'), panel.getByTestId('export-download').click()]);
  const text = fs.readFileSync(await dl.path(), 'utf8');
  // What was downloaded is what the preview shows.
  expect(text).toBe(await enginePreview(panel).textContent());
  return { name: dl.suggestedFilename(), config: JSON.parse(text) as EngineConfig };
}

/** Follow "Run in the lab →" and wait for the lab's run view with the design's controls. */
export async function openInLab(panel: Locator): Promise<Page> {
  const page = panel.page();
  await panel.getByTestId('export-lab-link').click();
  await expect(page).toHaveURL(/#\/lab\?v=1&/);
  await expect(page.getByRole('combobox', { name: 'Filter allocation' })).toBeVisible();
  return page;
}
