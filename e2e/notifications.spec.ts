import type { Browser, BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';

const STREAM = '/public/api/notifications/stream';

const EXPECTED_CLIENT_ERROR = /^Failed to load resource: the server responded with a status of 4\d\d /;

/** A new signed-in browser context whose console errors fail the test (like the fixture's page). */
async function signedInPage(browser: Browser, errors: string[]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_CLIENT_ERROR.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const login = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
  return { context, page };
}

/** Opens a dashboard page and waits until its live notification stream is connected. */
async function openWithStream(page: Page, path: string) {
  const connected = page.waitForResponse((r) => r.url().includes(STREAM) && r.status() === 200);
  await page.goto(path);
  await connected;
}

test('a published notification reaches another signed-in browser: banner (no toast), badge and list', async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  const contexts: BrowserContext[] = [];
  try {
    const receiver = await signedInPage(browser, consoleErrors);
    const publisher = await signedInPage(browser, consoleErrors);
    contexts.push(receiver.context, publisher.context);
    const page = receiver.page;
    await openWithStream(page, '/dashboard/notifications');
    // Announcements to everyone sent earlier in the run are on the server's list: Clear All starts from nothing.
    const empty = page.getByText('No notifications yet.');
    await expect(empty.or(page.getByRole('list', { name: 'Notifications' }))).toBeVisible();
    if (!(await empty.isVisible())) await page.getByRole('button', { name: 'Clear All' }).click();
    await expect(page.getByText('No notifications yet.')).toBeVisible();

    const admin = publisher.page;
    await admin.goto('/dashboard/admin/push-message');
    await expect(admin.getByRole('heading', { name: 'Send Push Message' })).toBeVisible();
    await expect(admin.getByTestId('subscriber-count')).toHaveText(/^\d+$/);
    await admin.getByRole('button', { name: 'Send' }).click();
    await expect(admin.getByText('Please enter a message to send')).toBeVisible();

    const first = `Standup moved to 10:30 (${Date.now()})`;
    await admin.getByLabel('Message').fill(first);
    await admin.getByRole('button', { name: 'Send' }).click();
    await expect(admin.getByText('Notification sent')).toBeVisible();

    // The receiver: the latest-message banner (shown once: no toast beside it), unread badge, ringing bell, entry.
    const banner = page.getByTestId('notification-banner');
    await expect(banner).toContainText(first);
    await expect(page.getByRole('alert').filter({ hasText: first })).toHaveCount(0);
    const badge = page.getByTestId('unread-badge').first();
    await expect(badge).toHaveText('1 unread'); // "unread" is for screen readers
    // The sidebar's bell animates while anything is unread.
    const ringingBell = page.getByTestId('sidebar').locator('[data-animated="true"]');
    await expect(ringingBell).toHaveCount(1);
    const entry = page.getByRole('button', { name: `Unread: ${first}` });
    await expect(entry).toBeVisible();
    // The banner closes by itself after 5 s (the wait leaves room for a loaded machine).
    await expect(banner).toBeHidden({ timeout: 12_000 });

    // Clicking marks it read: no badge, the bell stops.
    await entry.click();
    await expect(page.getByRole('button', { name: first, exact: true })).toBeVisible();
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(ringingBell).toHaveCount(0);

    const second = `Release is out (${Date.now()})`;
    await admin.getByLabel('Message').fill(second);
    await admin.getByRole('button', { name: 'Send' }).click();
    const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText(second);
    await expect(items.nth(1)).toContainText(first);
    await expect(banner).toContainText(second);
    await page.getByRole('button', { name: 'Dismiss banner' }).click();
    await expect(banner).toBeHidden();

    // The list survives a reload, read state included.
    await openWithStream(page, '/dashboard/notifications');
    await expect(items).toHaveCount(2);
    await expect(page.getByRole('button', { name: `Unread: ${second}` })).toBeVisible();
    await expect(page.getByRole('button', { name: first, exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Clear All' }).click();
    await expect(page.getByText('No notifications yet.')).toBeVisible();
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('No notifications yet.')).toBeVisible();
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
});

test('the service worker is served uncached and shows a pushed notification when no dashboard is on screen', async ({
  browser,
  consoleErrors,
}) => {
  const { context, page } = await signedInPage(browser, consoleErrors);
  try {
    await context.grantPermissions(['notifications']);
    const sw = await page.request.get('/sw.js');
    expect(sw.status()).toBe(200);
    expect(sw.headers()['cache-control']).toBe('no-cache');
    expect(sw.headers()['content-type']).toMatch(/javascript/);

    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');

    // With permission granted, the dashboard registers the worker by itself.
    await openWithStream(page, '/dashboard/notifications');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => registrations.find((r) => r.scopeURL.endsWith('/'))?.registrationId).toBeTruthy();
    const registrationId = registrations.find((r) => r.scopeURL.endsWith('/'))?.registrationId ?? '';

    const push = (id: string, message: string) =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: new URL(page.url()).origin,
        registrationId,
        data: JSON.stringify({ id, message, timestamp: new Date().toISOString(), type: 'admin' }),
      });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
      });

    // With no dashboard tab on screen (the public site instead), the worker shows a system notification. The page
    // stays off the dashboard until it is shown: the push is handled after `deliverPushMessage` answers.
    await page.goto('/');
    const away = `Pushed while away (${Date.now()})`;
    await push('999', away);
    await expect.poll(shown).toContainEqual({ title: 'Atrium', body: away, tag: 'atrium-999' });
    await page.goto('/dashboard/notifications');

    // With the dashboard on screen, the page itself shows it; the worker stays quiet.
    await push('1000', 'Seen in the tab');
    await page.waitForTimeout(1000);
    expect((await shown()).map((n) => n.tag)).not.toContain('atrium-1000');
  } finally {
    await context.close();
  }
});
