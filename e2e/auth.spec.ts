import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

const flags = (page: Page) =>
  page.evaluate(() => ({
    auth: localStorage.getItem('auth'),
    isAdmin: localStorage.getItem('isAdmin'),
    user: localStorage.getItem('user'),
    userId: localStorage.getItem('userId'),
  }));

async function signInAsAdmin(page: Page, password = E2E_ADMIN_PASSWORD) {
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('the admin signs in and out through the login page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('login-video')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Continue with Auth0' })).toBeVisible();
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await flags(page)).toEqual({
    auth: 'true',
    isAdmin: 'true',
    user: JSON.stringify({ name: 'Admin', isAdmin: true }),
    userId: 'admin',
  });

  // A signed-in user opening /login goes to the dashboard; the admin page is open to the admin.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/admin/push-message');
  await expect(page).toHaveURL(/\/dashboard\/admin\/push-message$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await flags(page)).toEqual({ auth: null, isAdmin: null, user: null, userId: null });
  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(401);
});

test('wrong credentials show the documented message and keep the user signed out', async ({ page }) => {
  await page.goto('/login');
  await signInAsAdmin(page, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials. Please try again or continue with Auth0');
  await expect(page).toHaveURL(/\/login$/);
  expect((await flags(page)).auth).toBeNull();
});

test('a protected page sends you to /login and back to it after signing in', async ({ page }) => {
  await page.goto('/dashboard/file-stats');
  await expect(page).toHaveURL(/\/login$/);
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard\/file-stats$/);
});

test('a user signs in through the identity provider and is kept off the admin page', async ({ page }) => {
  await page.goto('/login');
  // (the redirecting message is covered by the login page's component test: the browser leaves it at once here)
  await page.getByRole('button', { name: 'Continue with Auth0' }).click();

  // The embedded provider's own login form.
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByLabel('Username').fill('alice');
  await page.getByLabel('Password').fill('wonderland');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect
    .poll(() => flags(page))
    .toEqual({
      auth: 'true',
      isAdmin: 'false',
      user: JSON.stringify({ name: 'Alice Martin', isAdmin: false }),
      userId: 'alice',
    });

  await page.goto('/dashboard/admin/push-message');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Logout also ends the provider session (after its confirmation), then returns to the site.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/oidc\/session\/end/);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get('/api/me')).status()).toBe(401);
});

test('an unreachable provider brings the user back with the documented message', async ({ page }) => {
  await page.goto('/login?error=oidc_unavailable');
  await expect(page.getByRole('alert')).toHaveText('Could not connect to Auth0. Please try again.');
});

test('signing in as the admin subscribes to notifications, or warns when the browser refuses', async ({
  browser,
  baseURL,
}) => {
  // Permission granted: the admin is counted as a subscriber right after signing in.
  const granted = await browser.newContext({ baseURL });
  await granted.grantPermissions(['notifications']);
  const page = await granted.newPage();
  await page.goto('/login');
  const subscribed = page.waitForResponse(
    (r) => r.url().endsWith('/public/api/notifications/subscribe') && r.request().method() === 'POST',
  );
  await signInAsAdmin(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await subscribed).status()).toBe(200);
  expect((await subscribed).request().postDataJSON()).toMatchObject({ userId: 'admin' });
  const count = await page.request.get('/public/api/notifications/subscribers/count');
  expect((await count.json()).count).toBeGreaterThanOrEqual(1);
  await expect(page.getByText('Could not subscribe to notifications')).toHaveCount(0);
  await granted.close();

  // Permission denied: the warning toast of docs/PRODUCT.md#notification-messages.
  const denied = await browser.newContext({ baseURL });
  const deniedPage = await denied.newPage();
  await deniedPage.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
    Notification.requestPermission = async () => 'denied';
  });
  await deniedPage.goto('/login');
  await signInAsAdmin(deniedPage);
  await expect(deniedPage.getByText('Could not subscribe to notifications')).toBeVisible();
  await denied.close();
});
