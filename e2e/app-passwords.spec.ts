import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser } from './users';

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`app passwords at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('create one on the profile, sign in over WebDAV with it, revoke it', async ({ context, page, baseURL }) => {
      const { ownerKey } = await signInAsNewUser(context, baseURL, `e2e-apppw-${screen}`, 'Paula');
      await page.goto('/dashboard/profile');
      const section = page.getByRole('region', { name: 'App passwords' });
      await expect(section.getByText('No app passwords yet.')).toBeVisible();
      await section.getByLabel('Name').fill('Laptop');
      await section.getByLabel('Name').press('Enter');
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByText('Copy this password now: you will not see it again.')).toBeVisible();
      const password = await dialog.getByLabel('App password').inputValue();
      expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(dialog.getByLabel('WebDAV address')).toHaveValue(`${baseURL}/remote.php/dav/files/${ownerKey}/`);
      await shot(page, `app-passwords-created-${screen}`);
      await dialog.getByRole('button', { name: 'Done' }).click();

      const dav = (secret: string) =>
        page.request.fetch(`${baseURL}/remote.php/dav/files/${ownerKey}/`, {
          method: 'PROPFIND',
          headers: { depth: '1', authorization: `Basic ${Buffer.from(`${ownerKey}:${secret}`).toString('base64')}` },
        });
      const listing = await dav(password);
      expect(listing.status()).toBe(207);
      expect(await listing.text()).toContain(`/remote.php/dav/files/${ownerKey}/Personal/`);

      await page.reload();
      const list = section.getByRole('list', { name: 'App passwords' });
      await expect(list.getByText('Laptop')).toBeVisible();
      await expect(list.getByText(/Last used (?!never)/)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `app-passwords-listed-${screen}`);

      await list.getByRole('button', { name: 'Revoke Laptop' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
      await expect(section.getByText('No app passwords yet.')).toBeVisible();
      expect((await dav(password)).status()).toBe(401);
    });
  });
}
