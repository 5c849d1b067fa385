/**
 * Hostile browsers: two tabs on one stored database, and a tab that dies in the middle of a run.
 * Both tabs are pages of one browser context (one origin, one OPFS, one set of Web Locks).
 */
import { expect, test, type Page } from '@playwright/test';
import { collectErrors } from './helpers';

async function createDatabase(page: Page, backend: 'OPFS' | 'IndexedDB', name: string): Promise<void> {
  await page.goto('/#/lab?tab=storage');
  await page.getByRole('radio', { name: backend }).check();
  await page.getByTestId('new-db-name').fill(name);
  await page.getByTestId('create-db').click();
  await expect(page.getByTestId('open-db')).toHaveAttribute('data-name', name);
}

async function put(page: Page, key: string, value: string): Promise<void> {
  await page.getByTestId('kv-key').fill(key);
  await page.getByTestId('kv-value').fill(value);
  await page.getByTestId('kv-put').click();
  await expect(page.getByText(`Wrote “${key}”`)).toBeVisible();
}

async function readBack(page: Page, key: string): Promise<string | null> {
  await page.getByTestId('kv-key').fill(key);
  await page.getByTestId('kv-get').click();
  return page.getByTestId('kv-read-value').textContent();
}

for (const backend of [
  { id: 'opfs', label: 'OPFS' },
  { id: 'idb', label: 'IndexedDB' },
] as const) {
  test(`${backend.label}: a second tab is told the database is open in another tab, can wait, and opens it once the first tab closes`, async ({ context }) => {
    const name = `shared-${backend.id}`;
    const first = await context.newPage();
    const firstErrors = collectErrors(first);
    await createDatabase(first, backend.label, name);
    await put(first, 'owner', 'the first tab');

    const second = await context.newPage();
    const secondErrors = collectErrors(second);
    await second.goto('/#/lab?tab=storage');
    const row = second.getByTestId(`db-row-${backend.id}-${name}`);
    await expect(row).toBeVisible();
    await expect(second.getByTestId(`db-in-use-${backend.id}-${name}`)).toHaveText('open in another tab');

    // Opening it here is refused with a clear message, and nothing is half-open.
    await row.getByRole('button', { name: `Open ${name}` }).click();
    await expect(second.getByTestId('db-error')).toContainText(`"${name}" is open in another tab`);
    await expect(second.getByTestId('open-db')).toHaveCount(0);
    // Deleting it from here is refused too.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(second.getByTestId('db-error')).toContainText('It was not deleted.');
    await expect(row).toBeVisible();

    // The first tab still works normally.
    expect(await readBack(first, 'owner')).toBe('the first tab');

    // Wait for it: the second tab shows what it waits for; closing the first tab frees the database.
    await row.getByRole('button', { name: `Open ${name}` }).click();
    await second.getByTestId('db-wait').click();
    await expect(second.getByTestId('task-progress')).toContainText(`waiting for another tab to close ${name}`);
    await expect(second.getByTestId('open-db')).toHaveCount(0);
    await first.close();
    await expect(second.getByTestId('open-db')).toHaveAttribute('data-name', name);
    expect(await readBack(second, 'owner')).toBe('the first tab');
    await expect(second.getByTestId(`db-in-use-${backend.id}-${name}`)).toHaveCount(0);
    expect(firstErrors).toEqual([]);
    expect(secondErrors).toEqual([]);
  });
}

test('waiting for a database another tab holds can be cancelled', async ({ context }) => {
  const first = await context.newPage();
  await createDatabase(first, 'OPFS', 'held');
  const second = await context.newPage();
  await second.goto('/#/lab?tab=storage');
  const row = second.getByTestId('db-row-opfs-held');
  await row.getByRole('button', { name: 'Open held' }).click();
  await second.getByTestId('db-wait').click();
  await expect(second.getByTestId('task-progress')).toBeVisible();
  await second.getByTestId('cancel-run').click();
  await expect(second.getByTestId('db-error')).toContainText('stopped waiting for "held"');
  await expect(second.getByTestId('task-progress')).toHaveCount(0);
  await expect(second.getByTestId('open-db')).toHaveCount(0);
  // The first tab never noticed.
  await expect(first.getByTestId('open-db')).toHaveAttribute('data-name', 'held');
});

test('a tab killed in the middle of an OPFS run: its database reopens in another tab, consistent and usable', async ({ context }) => {
  const doomed = await context.newPage();
  await doomed.goto('/#/lab');
  await doomed.getByRole('textbox', { name: /^Operations/ }).fill('50,000,000');
  await doomed.getByRole('radio', { name: 'OPFS' }).check();
  await doomed.getByTestId('db-name').fill('killed');
  await doomed.getByTestId('run-button').click();
  await expect
    .poll(async () => Number(await doomed.getByTestId('progress-done').first().getAttribute('data-value')), { timeout: 60_000 })
    .toBeGreaterThan(50_000);
  await doomed.close(); // the tab and its worker die here, mid-write

  const survivor = await context.newPage();
  const errors = collectErrors(survivor);
  await survivor.goto('/#/lab?tab=storage');
  const row = survivor.getByTestId('db-row-opfs-killed');
  await expect(row).toBeVisible();
  // The dead tab's lock went with it.
  await expect(survivor.getByTestId('db-in-use-opfs-killed')).toHaveCount(0);
  await row.getByRole('button', { name: 'Open killed' }).click();
  await expect(survivor.getByTestId('open-db')).toHaveAttribute('data-name', 'killed');
  await expect(survivor.getByTestId('db-error')).toHaveCount(0);
  await expect(survivor.getByTestId('open-db-summary')).toContainText('entries');
  // It takes new writes and reads them back.
  await put(survivor, 'after-the-crash', 'still works');
  expect(await readBack(survivor, 'after-the-crash')).toBe('still works');
  expect(errors).toEqual([]);
});
