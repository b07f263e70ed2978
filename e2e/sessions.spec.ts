import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser, signInAsUser } from './users';

/**
 * A session that ends never leaves a half-signed-in page (docs/PRODUCT.md#session-end-reasons): the next request
 * (or the notification stream) takes the person to /login, which says why, as the server said it.
 */

/** Moves every session of `ownerKey` past its absolute expiry, as time would. */
function expireSessions(ownerKey: string) {
  const db = new Database(path.join(String(process.env.E2E_DATA_DIR), 'atrium.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(`UPDATE sessions SET expires_at = ? WHERE user_id = (SELECT id FROM users WHERE owner_key = ?)`).run(
      new Date(Date.now() - 60_000).toISOString(),
      ownerKey,
    );
  } finally {
    db.close();
  }
}

async function adminContext(context: BrowserContext, baseURL: string | undefined) {
  const admin = await context.browser()?.newContext({ baseURL });
  if (!admin) throw new Error('no browser');
  await signInAsUser(admin, String(baseURL), { ownerKey: `sessions-admin-${Date.now().toString(36)}`, role: 'admin' });
  return admin;
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`ended sessions at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('signed out elsewhere: the page goes to /login and says so', async ({ context, page, baseURL }) => {
      const { ownerKey } = await signInAsNewUser(context, baseURL, 'ended-out', 'Carol Diaz');
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const admin = await adminContext(context, baseURL);
      const revoked = await admin.request.delete(`/api/admin/users/${ownerKey}/sessions`);
      expect(revoked.status()).toBe(200);
      await admin.close();
      // The notification stream ends with the session; the page asks why and leaves at once.
      await expect(page).toHaveURL(/\/login\?reason=signed_out$/);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(
        'You were signed out on another device or by an admin. Please sign in again.',
      );
      await expect(page.getByText('Carol Diaz')).toHaveCount(0);
      await shot(page, `sessions-signed-out-${screen}`);
    });

    test('an expired session: opening a page again goes to /login and says so', async ({ context, page, baseURL }) => {
      const { ownerKey } = await signInAsNewUser(context, baseURL, 'ended-exp', 'Dan Expired');
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expireSessions(ownerKey);
      // The next visit (a tab reopened, a bookmark) meets the expired session.
      await page.goto('/dashboard/trash');
      await expect(page).toHaveURL(/\/login\?reason=expired$/);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText('Your session expired. Please sign in again.');
      await shot(page, `sessions-expired-${screen}`);
    });

    test('a disabled account: the page goes to /login and says so', async ({ context, page, baseURL }) => {
      const { ownerKey } = await signInAsNewUser(context, baseURL, 'ended-dis', 'Erin Disabled');
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const admin = await adminContext(context, baseURL);
      const disabled = await admin.request.patch(`/api/admin/users/${ownerKey}`, { data: { disabled: true } });
      expect(disabled.status()).toBe(200);
      await admin.close();
      await expect(page).toHaveURL(/\/login\?reason=disabled$/);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(
        'Your account has been disabled. Ask an admin to enable it.',
      );
      await shot(page, `sessions-disabled-${screen}`);
    });
  });
}
