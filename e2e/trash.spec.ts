import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

/** The personal space's root folder, where each test works. */
const home = '/dashboard/spaces/personal/folders';

async function uploadText(page: Page, name: string, content: string) {
  await page.getByTestId('upload-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
}

async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`trash and versions at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('delete → Undo; delete → Trash → Restore; delete forever and the empty state', async ({
      context,
      page,
      baseURL,
    }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}`;
      await signInAsUser(context, String(baseURL), { ownerKey: `e2e-trash-${screen}-${run}`, name: 'Tess' });
      await page.goto(home);
      await expect(page.getByText('This folder is empty.')).toBeVisible();
      await uploadText(page, 'notes.txt', 'my notes\n');
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

      // The confirm says where it goes; the toast can undo it.
      await rowAction(page, 'notes.txt', 'Delete');
      const confirm = page.getByRole('alertdialog', { name: 'Delete file?' });
      await expect(confirm).toContainText('will be moved to the trash. You can restore it from Trash.');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Deleted notes.txt.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeHidden();
      await page.getByRole('button', { name: 'Undo: restore notes.txt from the trash' }).click();
      await expect(page.getByText('Restored notes.txt.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

      // Delete again, then restore it from the Trash screen (the sidebar's entry on a wide screen).
      await rowAction(page, 'notes.txt', 'Delete');
      await page.getByRole('alertdialog', { name: 'Delete file?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeHidden();
      if (width > 1000) {
        const sidebar = page.getByTestId('sidebar');
        await sidebar.getByRole('button', { name: 'Files' }).click();
        await sidebar.getByRole('link', { name: 'Trash' }).click();
      } else await page.goto('/dashboard/trash');
      await expect(page.getByRole('heading', { level: 1, name: 'Trash' })).toBeVisible();
      const trash = page.getByRole('list', { name: 'Trash of Personal' });
      await expect(trash.getByText('notes.txt')).toBeVisible();
      await expect(trash).toContainText('Deleted by Tess');
      await expect(trash).toContainText('Deleted for good on');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `trash-${screen}`);
      await trash.getByRole('button', { name: 'Restore notes.txt' }).click();
      await expect(page.getByText('Restored notes.txt.')).toBeVisible();
      await expect(page.getByText('The trash is empty.')).toBeVisible();
      await page.goto(home);
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

      // Delete forever asks first, then the trash is empty.
      await rowAction(page, 'notes.txt', 'Delete');
      await page.getByRole('alertdialog', { name: 'Delete file?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeHidden();
      await page.goto('/dashboard/trash');
      await page.getByRole('button', { name: 'Delete notes.txt forever' }).click();
      const forever = page.getByRole('alertdialog', { name: 'Delete forever?' });
      await expect(forever).toContainText('This cannot be undone.');
      await forever.getByRole('button', { name: 'Delete forever' }).click();
      await expect(page.getByText('Deleted notes.txt for good.')).toBeVisible();
      await expect(page.getByText('The trash is empty.')).toBeVisible();
    });

    test('upload a taken name → Replace → Versions → Restore the old content', async ({ context, page, baseURL }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}`;
      await signInAsUser(context, String(baseURL), { ownerKey: `e2e-versions-${screen}-${run}`, name: 'Vera' });
      await page.goto(home);
      await uploadText(page, 'plan.txt', 'first plan');
      await expect(page.getByRole('link', { name: 'plan.txt' })).toBeVisible();
      const files = async () =>
        (await (await page.request.get(`/api/files/user/e2e-versions-${screen}-${run}`)).json()) as {
          id: string;
          fileName: string;
        }[];
      const [original] = await files();

      await uploadText(page, 'plan.txt', 'second plan, longer');
      const ask = page.getByRole('dialog', { name: 'Replace the existing file?' });
      await expect(ask).toContainText('A file named “plan.txt” is already in this folder.');
      await ask.getByRole('button', { name: 'Replace' }).click();
      await expect(page.getByTestId('upload-total')).toContainText(/^(\d+) of \1 uploaded/);
      // Same file, new content: no "plan (1).txt".
      expect((await files()).map((f) => [f.id, f.fileName])).toEqual([[original?.id, 'plan.txt']]);
      expect(await (await page.request.get(`/api/files/download/${original?.id}`)).text()).toBe('second plan, longer');

      await rowAction(page, 'plan.txt', 'Versions');
      const versions = page.getByRole('dialog', { name: 'Versions of plan.txt' });
      const list = versions.getByRole('list', { name: 'Older versions' });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list).toContainText('uploaded by Vera');
      await shot(page, `versions-${screen}`);
      await list.getByRole('button', { name: /^Restore the version of/ }).click();
      await expect(page.getByText('Restored an older version of plan.txt.')).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      expect(await (await page.request.get(`/api/files/download/${original?.id}`)).text()).toBe('first plan');
      await versions.getByRole('button', { name: 'Close' }).first().click();

      // Keep both stores a numbered copy.
      await uploadText(page, 'plan.txt', 'a copy');
      await page
        .getByRole('dialog', { name: 'Replace the existing file?' })
        .getByRole('button', { name: 'Keep both' })
        .click();
      await expect(page.getByRole('link', { name: 'plan (1).txt' })).toBeVisible();
    });
  });
}
