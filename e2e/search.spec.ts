import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// Search (docs/PRODUCT.md#search): the box above the file browser finds a file by the start of its name and opens its
// folder; two files chosen with checkboxes download as one zip; a whole folder uploads with its structure. At 1366 and
// 390 px.

const baseURL = () => String(test.info().project.use.baseURL);
const run = () => `${Date.now().toString(36)}${test.info().retry}${test.info().repeatEachIndex}`;

async function api<T>(page: Page, method: 'POST', url: string, data: unknown): Promise<T> {
  const response = await page.request.fetch(url, {
    method,
    headers: { accept: 'application/json', origin: baseURL() },
    data,
  });
  expect(response.status(), `${method} ${url}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function upload(page: Page, folderId: string, fileName: string, body: string) {
  const response = await page.request.post(`/api/files/upload?folderId=${encodeURIComponent(folderId)}`, {
    headers: { accept: 'application/json', origin: baseURL() },
    multipart: { file: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(body) } },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string };
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const size of WIDTHS) {
  test(`finds a file by name prefix, opens its folder, and downloads two files as a zip (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const tag = run();
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: size.width, height: size.height },
      acceptDownloads: true,
    });
    await signInAsUser(context, baseURL(), { ownerKey: `e2e-search-${size.name}-${tag}`, name: `Searcher ${tag}` });
    const page = await context.newPage();

    // A folder with two files, put there through the API.
    const folder = await api<{ id: string }>(page, 'POST', '/api/folders', { name: `Quarterly ${tag}` });
    await upload(page, folder.id, `zebrafish-${tag}-report.txt`, 'first file');
    await upload(page, folder.id, `notes-${tag}.txt`, 'second file');

    // The search box above the browser finds the file by the start of a word of its name.
    await page.goto('/dashboard/spaces/personal/folders');
    await expect(
      page
        .getByText('This folder is empty.')
        .or(page.getByRole('link', { name: `Quarterly ${tag}` }))
        .first(),
    ).toBeVisible();
    const box = page.getByRole('combobox', { name: 'Search files and folders' });
    await box.fill('zebraf');
    const option = page.getByRole('option', { name: new RegExp(`zebrafish-${tag}-report\\.txt`) });
    await expect(option).toBeVisible();
    await expect(option).toContainText(`Personal › Quarterly ${tag}`);
    await shot(page, `search-box-${size.name}`);
    expect(await noSidewaysScroll(page)).toBe(true);
    // Keyboard: ↓ chooses it, Enter opens its folder.
    await box.press('ArrowDown');
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/dashboard/spaces/personal/folders/${folder.id}\\?select=`));
    await expect(page.getByRole('heading', { level: 1, name: `Quarterly ${tag}` })).toBeVisible();
    // The file found is selected in its folder.
    await expect(page.getByRole('checkbox', { name: `Select zebrafish-${tag}-report.txt` })).toBeChecked();

    // Choose both files; the bar downloads them as one zip.
    await page.getByRole('checkbox', { name: `Select zebrafish-${tag}-report.txt` }).check();
    await page.getByRole('checkbox', { name: `Select notes-${tag}.txt` }).check();
    const bar = page.getByRole('region', { name: 'Selected items' });
    await expect(bar).toContainText('2 items selected');
    await shot(page, `bulk-bar-${size.name}`);
    expect(await noSidewaysScroll(page)).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      bar.getByRole('button', { name: 'Download as zip' }).click(),
    ]);
    // Named after the folder holding them.
    expect(download.suggestedFilename()).toBe(`Quarterly ${tag}.zip`);
    const bytes = readFileSync(await download.path());
    // A stored (uncompressed) zip: the signature, both names and both contents in the clear.
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const text = bytes.toString('latin1');
    for (const expected of [`zebrafish-${tag}-report.txt`, `notes-${tag}.txt`, 'first file', 'second file']) {
      expect(text).toContain(expected);
    }

    // The search page (the sidebar's search leads there too) lists it with its location.
    await page.goto(`/dashboard/search?q=${encodeURIComponent('zebraf')}`);
    // A file opens in the file viewer over the results; Go to folder beside it opens its folder.
    const result = page.getByRole('link', { name: `Go to folder of zebrafish-${tag}-report.txt`, exact: true });
    await expect(result).toBeVisible();
    // Go to folder opens its folder with the file's row selected (`?select=<fileId>`).
    await expect(result).toHaveAttribute(
      'href',
      new RegExp(`^/dashboard/spaces/personal/folders/${folder.id}\\?select=`),
    );
    await expect(page.getByRole('list', { name: 'Search results' }).getByRole('link').first()).toHaveAttribute(
      'href',
      /\/dashboard\/search\?q=zebraf&file=/,
    );
    await page.getByLabel('Type').selectOption('image');
    await expect(page.getByText('Nothing matches “zebraf”.')).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    await context.close();
  });
}

for (const size of WIDTHS) {
  test(`uploads a whole folder and keeps its structure (${size.name})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const tag = run();
    const root = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-folder-'));
    const trip = path.join(root, `Trip ${tag}`);
    mkdirSync(path.join(trip, 'day 1'), { recursive: true });
    writeFileSync(path.join(trip, 'day 1', 'beach.txt'), 'sand');
    writeFileSync(path.join(trip, 'plan.txt'), 'go');
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: size.width, height: size.height },
    });
    await signInAsUser(context, baseURL(), { ownerKey: `e2e-folderup-${size.name}-${tag}`, name: `Uploader ${tag}` });
    const page = await context.newPage();
    await page.goto('/dashboard/spaces/personal/folders');
    await expect(page.getByRole('button', { name: 'Upload folder' })).toBeVisible();
    await page.getByTestId('upload-folder-input').setInputFiles(trip);

    const uploads = page.getByRole('region', { name: 'Uploads' });
    await expect(uploads.getByTestId('upload-total')).toContainText('2 of 2 uploaded');
    await expect(uploads).toContainText(`Trip ${tag}/day 1/beach.txt`);
    await shot(page, `folder-upload-${size.name}`);
    expect(await noSidewaysScroll(page)).toBe(true);
    // The folder and its subfolder exist, each file in its place.
    await page.getByRole('link', { name: `Trip ${tag}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Trip ${tag}` })).toBeVisible();
    await expect(page.getByRole('link', { name: 'plan.txt' })).toBeVisible();
    await page.getByRole('link', { name: 'day 1' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'day 1' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'beach.txt' })).toBeVisible();
    await context.close();
    rmSync(root, { recursive: true, force: true });
  });
}
