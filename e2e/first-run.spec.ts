import { E2E_PORT } from './playwright.config';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * A newcomer starts Atrium without PUBLIC_URL and opens it at http://127.0.0.1:PORT (or from another
 * machine): signing in must work there. With PUBLIC_URL set to another address, the login page says so.
 */
const PASSWORD = 'first-run-admin-password';

test.describe('first run without PUBLIC_URL', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer(E2E_PORT + 100, { ADMIN_PASSWORD: PASSWORD });
  });
  test.afterAll(async () => server?.stop());

  for (const size of WIDTHS) {
    test(`the admin signs in at http://127.0.0.1:PORT (${size.width} px)`, async ({ page }) => {
      await page.setViewportSize(size);
      const base = `http://127.0.0.1:${server.port}`;
      await page.goto(`${base}/login`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect(page).toHaveURL(`${base}/dashboard`);
      const me = await page.request.get(`${base}/api/me`);
      expect(me.status()).toBe(200);
      expect(await me.json()).toMatchObject({ ownerKey: 'admin', isAdmin: true });
    });

    test(`a user continues with the identity provider at http://127.0.0.1:PORT (${size.width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      const base = `http://127.0.0.1:${server.port}`;
      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Continue with Auth0' }).click();
      // The embedded provider is served on the address the browser uses, not on localhost.
      await expect(page).toHaveURL(new RegExp(`^${base}/oidc/interaction/`));
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill('wonderland');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(`${base}/dashboard`);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('userId'))).toBe('alice');
    });
  }
});

test.describe('PUBLIC_URL set to another address', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer(E2E_PORT + 101, {
      ADMIN_PASSWORD: PASSWORD,
      PUBLIC_URL: `http://localhost:${E2E_PORT + 101}`,
    });
  });
  test.afterAll(async () => server?.stop());

  for (const size of WIDTHS) {
    test(`the login page names both addresses instead of a generic error (${size.width} px)`, async ({ page }) => {
      await page.setViewportSize(size);
      const here = `http://127.0.0.1:${server.port}`;
      const publicUrl = `http://localhost:${server.port}`;
      await page.goto(`${here}/login`);
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(`This page was opened at ${here}`);
      await expect(alert).toContainText(`only accepts sign-ins at ${publicUrl} (its PUBLIC_URL)`);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect(alert).toContainText(`only accepts sign-ins at ${publicUrl}`);
      await expect(page).toHaveURL(`${here}/login`);
      await shot(page, `login-public-url-mismatch-${size.name}`);
    });
  }
});
