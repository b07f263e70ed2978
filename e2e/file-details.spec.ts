import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

/** The personal space's root folder. */
const home = '/dashboard/spaces/personal/folders';

async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`file details at ${width} px`, () => {
    test.use({ viewport: { width, height } });
    // Two uploads' worth of screens and dialogs: room for a busy machine.
    test.describe.configure({ timeout: 90_000 });

    test('Details shows the SHA-256 of the content; a rename appears in the activity; Escape closes', async ({
      context,
      page,
      baseURL,
    }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}`;
      await signInAsUser(context, String(baseURL), { ownerKey: `e2e-details-${screen}-${run}`, name: 'Dana' });
      await page.goto(home);
      const content = `quarterly numbers ${run}\n`;
      await page
        .getByTestId('upload-input')
        .setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
      await expect(page.getByRole('link', { name: 'report.txt' })).toBeVisible();

      await rowAction(page, 'report.txt', 'Details');
      const panel = page.getByRole('dialog', { name: 'report.txt' });
      const sha = createHash('sha256').update(content).digest('hex');
      await expect(panel.getByRole('textbox', { name: 'SHA-256' })).toHaveValue(sha);
      await expect(panel).toContainText('text/plain');
      await expect(panel).toContainText('Personal');
      await expect(panel).toContainText('No older versions.');
      await expect(panel.getByRole('list', { name: 'People and workspaces with access' })).toContainText('Dana');
      const activity = panel.getByRole('list', { name: 'Activity, newest first' });
      await expect(activity.getByRole('listitem')).toHaveText([/Dana uploaded it\s*(just now|1 minute ago)/]);
      // The panel stays within the screen: the right side on a wide screen, all of it on a phone.
      const box = await panel.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(width);
      if (width < 640) expect(box?.width).toBe(width);
      else expect((box?.x ?? 0) + (box?.width ?? 0)).toBe(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `file-details-${screen}`);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();

      await rowAction(page, 'report.txt', 'Rename');
      const rename = page.getByRole('dialog', { name: 'Rename file' });
      await rename.getByLabel('New name').fill('q3-report.txt');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await expect(page.getByRole('link', { name: 'q3-report.txt' })).toBeVisible();

      await rowAction(page, 'q3-report.txt', 'Details');
      const renamed = page.getByRole('dialog', { name: 'q3-report.txt' });
      await expect(renamed.getByRole('list', { name: 'Activity, newest first' }).getByRole('listitem')).toHaveText([
        /Dana renamed it from “report\.txt” to “q3-report\.txt”\s*(just now|1 minute ago)/,
        /Dana uploaded it/,
      ]);
      await expect(renamed.getByRole('textbox', { name: 'SHA-256' })).toHaveValue(sha);
      await shot(page, `file-details-renamed-${screen}`);
      await renamed.getByRole('button', { name: 'Close' }).click();
      await expect(renamed).toBeHidden();
    });
  });
}
