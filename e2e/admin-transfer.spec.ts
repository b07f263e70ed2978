import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { WIDTHS, shot } from './screens';
import { signInAsUser } from './users';

const signInAsAdmin = async (page: Page) => {
  const login = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
};

/**
 * Transfer files (docs/PRODUCT.md#admin-console-users-and-audit-log): the admin reaches no one's files, except through
 * this one audited action on a disabled person's row, confirmed naming both people; the recipient then finds the files
 * in a folder named after the person who left.
 */
for (const size of WIDTHS) {
  test(`an admin transfers the files of a person who left to a colleague (${size.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${size.name}`;
    const base = String(baseURL);
    const gone = { ownerKey: `e2e-gone-${run}`, name: `Gina Gone ${run}` };
    const heir = { ownerKey: `e2e-heir-${run}`, name: `Hal Heir ${run}` };
    const goneContext = await browser.newContext();
    const heirContext = await browser.newContext();
    try {
      await signInAsUser(goneContext, base, gone);
      await signInAsUser(heirContext, base, heir);
      const uploaded = await goneContext.request.post('/api/files/upload', {
        headers: { accept: 'application/json', origin: base },
        multipart: { file: { name: 'handover.txt', mimeType: 'text/plain', buffer: Buffer.from('the keys\n') } },
      });
      expect(uploaded.status()).toBe(200);
      const { id } = (await uploaded.json()) as { id: string };

      await signInAsAdmin(page);
      // The admin role manages people, not content: the file is as unknown to the admin as to anyone.
      expect((await page.request.get(`/api/files/${id}`)).status()).toBe(404);
      expect(
        (await page.request.patch(`/api/admin/users/${gone.ownerKey}`, { data: { disabled: true } })).status(),
      ).toBe(200);

      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto('/dashboard/admin/users');
      await page.getByLabel('Search users').fill(run);
      await page.getByRole('button', { name: 'Search' }).click();
      const list = page.getByRole(size.name === 'desktop' ? 'table' : 'list', { name: 'Users' });
      const row = list.locator(size.name === 'desktop' ? 'tr' : 'li').filter({ hasText: gone.ownerKey });
      await expect(row.getByText('Disabled')).toBeVisible();
      // Only a disabled person's row offers it.
      const heirRow = list.locator(size.name === 'desktop' ? 'tr' : 'li').filter({ hasText: heir.ownerKey });
      await expect(heirRow.getByRole('button', { name: 'Transfer files…' })).toHaveCount(0);

      await row.getByRole('button', { name: 'Transfer files…' }).click();
      const dialog = page.getByRole('dialog', { name: `Transfer the files of ${gone.name} (${gone.ownerKey})` });
      await dialog.getByLabel('User id of the recipient').fill(heir.ownerKey);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Transfer files?' });
      await expect(confirm).toContainText(`${gone.name} (${gone.ownerKey})`);
      await expect(confirm).toContainText(`${heir.name} (${heir.ownerKey})`);
      await shot(page, `admin-transfer-confirm-${size.name}`);
      await confirm.getByRole('button', { name: 'Transfer files' }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByText(`Moved 1 file(s) and 0 folder(s)`)).toBeVisible();

      // The colleague finds them in a folder named after the person who left.
      const heirPage = await heirContext.newPage();
      await heirPage.setViewportSize({ width: size.width, height: size.height });
      await heirPage.goto('/dashboard/spaces/personal/folders');
      await heirPage
        .getByRole('link', { name: `From ${gone.name}` })
        .first()
        .click();
      await expect(heirPage.getByText('handover.txt').first()).toBeVisible();
      expect((await heirPage.request.get(`/api/files/${id}`)).status()).toBe(200);
      await shot(heirPage, `admin-transfer-recipient-${size.name}`);
    } finally {
      await goneContext.close();
      await heirContext.close();
    }
  });
}
