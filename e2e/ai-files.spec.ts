import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

const require = createRequire(import.meta.url);
const facePhoto = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg');

/** AI engines take a few seconds to load on first use on a busy 2-core machine. */
const AI_TIMEOUT = 60_000;

const owner = (width: number) => `e2e-aifiles-${width}-${test.info().retry}-${test.info().repeatEachIndex}`;

interface Listing {
  folders: { id: string; name: string }[];
  files: { id: string; fileName: string; contentType: string }[];
}

/** Makes a folder in the caller's own space through the API and answers its id. */
async function makeFolder(page: Page, rootFolderId: string, name: string): Promise<string> {
  const response = await page.request.post('/api/folders', { data: { name, parentId: rootFolderId } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`AI screens on stored files at ${width} px`, () => {
    test.use({ viewport: { width, height } });
    test.describe.configure({ timeout: 150_000 });

    test('image analysis runs on a photo chosen from files and saves its analysis as JSON into a folder', async ({
      page,
    }) => {
      await signInAsUser(page.context(), String(test.info().project.use.baseURL), { ownerKey: owner(width) });
      const spaces = (await (await page.request.get('/api/spaces')).json()) as { rootFolderId: string }[];
      const root = spaces[0]?.rootFolderId ?? '';
      const photos = await makeFolder(page, root, 'Photos');
      const reports = await makeFolder(page, root, 'Reports');
      // The photo goes into files the way the spec's clients upload (multipart into a folder).
      const upload = await page.request.post(`/api/files/upload?folderId=${photos}`, {
        headers: { accept: 'application/json' },
        multipart: { file: { name: 'team.jpg', mimeType: 'image/jpeg', buffer: readFileSync(facePhoto) } },
      });
      expect(upload.status()).toBe(200);
      const photo = (await upload.json()) as { id: string };

      await page.goto('/dashboard/image-analysis');
      await expect(page.getByRole('heading', { name: 'Image Analysis', level: 1 })).toBeVisible();
      // The spec's upload is still there, unchanged.
      await expect(page.getByLabel('Image (PNG or JPG)')).toBeVisible();
      await page.getByRole('button', { name: 'Choose from files' }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose from files' });
      await expect(dialog.getByRole('button', { name: 'Open Personal' })).toBeFocused();
      // By keyboard: open the personal space, then the Photos folder.
      await page.keyboard.press('Enter');
      await expect(dialog.getByRole('button', { name: 'Open folder Photos' })).toBeFocused();
      await page.keyboard.press('Enter');
      const choose = dialog.getByRole('button', { name: 'Choose team.jpg' });
      await expect(choose).toBeFocused();
      await expect(dialog.getByRole('navigation', { name: 'Location' })).toHaveText(/All places.*Personal.*Photos/);
      await shot(page, `ai-files-picker-${screen}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();

      await expect(page.getByTestId('chosen-file')).toHaveText('From your files: team.jpg');
      const preview = page.getByRole('img', { name: 'Preview of the selected image' });
      await expect(preview).toHaveAttribute('src', `/api/files/download/${photo.id}?inline=1`);
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const analysed = page.waitForRequest((request) => request.url().includes('/api/ai/image-analysis'));
      await page.getByRole('button', { name: 'Analyze Image' }).click();
      expect(new URL((await analysed).url()).search).toBe(`?fileId=${photo.id}`);
      // The same result as for an upload: the summary and the raw JSON.
      await expect(page.getByTestId('caption')).toContainText(/person|people/i, { timeout: AI_TIMEOUT });
      const shown = JSON.parse((await page.getByTestId('analysis-json').textContent()) ?? '{}') as {
        requestId: string;
      };
      expect(shown.requestId).toMatch(/\S+/);

      await page.getByRole('button', { name: 'Save the analysis to files' }).click();
      const save = page.getByRole('dialog', { name: 'Save the analysis to files' });
      await expect(save.getByRole('button', { name: 'Save here' })).toBeDisabled();
      await save.getByRole('button', { name: 'Open Personal' }).click();
      await save.getByRole('button', { name: 'Open folder Reports' }).click();
      await expect(save.getByText('No folders inside. Save here, or open another place.')).toBeVisible();
      await shot(page, `ai-files-save-dialog-${screen}`);
      await save.getByRole('button', { name: 'Save here' }).click();
      await expect(save).toBeHidden();
      const status = page.getByRole('status').filter({ hasText: 'Saved team analysis.json to Reports.' });
      await expect(status).toBeVisible();
      await shot(page, `ai-files-saved-${screen}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // The saved JSON is in the folder, with what the screen showed.
      await status.getByRole('link', { name: 'Reports' }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/spaces/personal/folders/${reports}$`));
      await expect(page.getByRole('main').getByText('team analysis.json').first()).toBeVisible();
      const listing = (await (await page.request.get(`/api/folders/${reports}`)).json()) as Listing;
      expect(listing.files.map((file) => [file.fileName, file.contentType])).toEqual([
        ['team analysis.json', 'application/json'],
      ]);
      const saved = await page.request.get(`/api/files/download/${listing.files[0]?.id ?? ''}`);
      expect(((await saved.json()) as { requestId: string }).requestId).toBe(shown.requestId);
    });
  });
}
