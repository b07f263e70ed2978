import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { WIDTHS, shot } from './screens';
import { signInAsUser } from './users';

test.describe('admin console', () => {
  for (const size of WIDTHS) {
    test(`an admin disables a user, who is signed out, then finds it in the audit log (${size.name})`, async ({
      page,
      browser,
      baseURL,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const victim = `e2e-dis-${size.name}`;
      const victimContext = await browser.newContext();
      await signInAsUser(victimContext, baseURL ?? '', { ownerKey: victim, name: `Victim ${size.name}` });
      const victimPage = await victimContext.newPage();
      expect((await victimPage.request.get('/api/me')).status()).toBe(200);

      const login = await page.request.post('/api/auth/login', {
        data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
      });
      expect(login.status()).toBe(200);
      await page.goto('/dashboard/admin/users');
      await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
      await page.getByLabel('Search users').fill(victim);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      // Wide screens show a table, phones cards: the visible one holds the user.
      const list = page.getByRole(size.name === 'desktop' ? 'table' : 'list', { name: 'Users' });
      await expect(list).toBeVisible();
      await expect(list.getByText(`Victim ${size.name}`)).toBeVisible();
      await list.getByRole('button', { name: 'Disable' }).click();
      await expect(page.getByText(`Victim ${size.name} is disabled and signed out`)).toBeVisible();
      await expect(list.getByRole('button', { name: 'Enable' })).toBeVisible();
      await shot(page, `admin-users-${size.name}`);
      expect((await victimPage.request.get('/api/me')).status()).toBe(401);

      await page.goto('/dashboard/admin/audit');
      await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
      await page.getByLabel('Action').selectOption('user.disabled');
      await page.getByLabel('Target').fill(`user:${victim}`);
      await page.getByRole('button', { name: 'Apply' }).click();
      const entries = page.getByRole(size.name === 'desktop' ? 'table' : 'list', { name: 'Audit entries' });
      await expect(entries.getByText(`user:${victim}`)).toBeVisible();
      await shot(page, `admin-audit-${size.name}`);
      await victimContext.close();
    });
  }

  test('the sidebar lists the admin screens for admins', async ({ page }) => {
    await page.request.post('/api/auth/login', { data: { username: 'admin', password: E2E_ADMIN_PASSWORD } });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of ['Send Push Message', 'Users', 'Audit log']) {
      const link = nav.getByRole('link', { name, exact: true });
      if (!(await link.isVisible())) await nav.getByRole('button', { name: 'Admin' }).click();
      await expect(link).toBeVisible();
    }
  });
});
