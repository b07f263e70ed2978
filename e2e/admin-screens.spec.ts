import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { open } from './ready';
import { WIDTHS, shot } from './screens';

const signInAsAdmin = async (page: Page) => {
  const login = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
};

test.describe('admin console: API keys and messages', () => {
  for (const size of WIDTHS) {
    test(`an admin creates a key, sees it once, copies it and revokes it (${size.name})`, async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInAsAdmin(page);
      await page.goto('/dashboard/admin/api-keys');
      await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
      const name = `E2E key ${size.name} ${Date.now()}`;
      await page.getByLabel('Name').fill(name);
      await page.getByRole('button', { name: 'Create key' }).click();

      const dialog = page.getByRole('dialog');
      await expect(dialog.getByText('Copy this key now: you will not see it again.')).toBeVisible();
      const key = await dialog.getByLabel('API key').inputValue();
      expect(key).toMatch(/^atr_[\w-]{40,}$/);
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await shot(page, `admin-api-key-created-${size.name}`);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();
      expect(await page.content()).not.toContain(key);

      // Wide screens show a table, phones cards: the visible one holds the key.
      const list = page.getByRole(size.name === 'desktop' ? 'table' : 'list', { name: 'API keys' });
      const entry = list.locator(size.name === 'desktop' ? 'tr' : 'li').filter({ hasText: name });
      await expect(entry.getByText(`${key.slice(0, 10)}…`)).toBeVisible();
      await expect(entry.getByText('Active')).toBeVisible();
      await shot(page, `admin-api-keys-${size.name}`);
      await entry.getByRole('button', { name: `Revoke ${name}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
      await expect(entry.getByText('Revoked')).toBeVisible();
      await expect(entry.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
      // The revoked key no longer opens the compatibility endpoints.
      const refused = await page.request.post('/v1/audio/speech', {
        headers: { authorization: `Bearer ${key}` },
        data: { model: 'tts-1', input: 'hi', voice: 'alloy' },
      });
      expect(refused.status()).toBe(401);
    });

    test(`an admin reads, handles and deletes a message sent through the contact form (${size.name})`, async ({
      page,
      browser,
    }) => {
      const sender = `E2E Sender ${size.name} ${Date.now()}`;
      const visitor = await browser.newContext();
      const form = await visitor.newPage();
      // The contact page is prerendered: wait until it is interactive, or hydration resets what was typed.
      await open(form, '/contact');
      await form.getByLabel('Name').fill(sender);
      await form.getByLabel('Email').fill('sender@example.test');
      await form.getByLabel('Message').fill(`Hello from the ${size.name} test.\nSecond line.`);
      await form.getByRole('button', { name: 'Send message' }).click();
      await expect(form.getByRole('status').filter({ hasText: 'Your message has been sent' })).toBeVisible();
      await visitor.close();

      await page.setViewportSize({ width: size.width, height: size.height });
      await signInAsAdmin(page);
      await page.goto('/dashboard/admin/messages');
      await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
      if (size.name === 'desktop') {
        const link = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: /^Messages/ });
        await expect(link.getByTestId('item-badge')).toHaveText(/^[1-9]\d* unread$/);
      }
      const item = page.getByRole('listitem', { name: `Message from ${sender}` });
      await expect(item.getByText('New')).toBeVisible();
      await expect(item.getByText('Second line.')).toBeVisible();
      await shot(page, `admin-messages-${size.name}`);
      await item.getByRole('button', { name: 'Mark read' }).click();
      await expect(item.getByText('New')).toHaveCount(0);
      await item.getByRole('button', { name: 'Mark handled' }).click();
      await expect(item.getByText('Handled', { exact: true })).toBeVisible();
      await expect(item.getByRole('button', { name: 'Reopen' })).toBeVisible();
      await shot(page, `admin-messages-handled-${size.name}`);
      await item.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Message deleted')).toBeVisible();
      await expect(item).toHaveCount(0);
    });
  }

  test('the sidebar lists API keys and Messages for admins', async ({ page }) => {
    await signInAsAdmin(page);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('button', { name: 'Admin' }).click();
    await expect(nav.getByRole('link', { name: 'API keys', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: /^Messages/ })).toBeVisible();
  });
});

test.describe('admin console: system status', () => {
  test('an admin sees the database, the checks and the masked configuration at 1366 and 390 px', async ({ page }) => {
    await signInAsAdmin(page);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/dashboard/admin/system');
      await expect(page.getByRole('heading', { name: 'System', level: 1 })).toBeVisible();
      const database = page.getByRole('region', { name: 'Database' });
      await expect(database.getByText('SQLite')).toBeVisible();
      const checks = page.getByRole('list', { name: 'Dependency checks' });
      await expect(checks.getByText('database', { exact: true })).toBeVisible();
      await expect(checks.getByText('ok').first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Configuration' }).getByText('SESSION_SECRET')).toBeVisible();
      // The build recorded its git commit; the background analysis queue is counted.
      await expect(page.getByRole('region', { name: 'Server' }).getByText(/^[0-9a-f]{12}$/)).toBeVisible();
      const jobs = page.getByRole('region', { name: 'Background jobs' });
      await expect(jobs.getByText('Queued')).toBeVisible();
      await expect(jobs.getByText('Failed')).toBeVisible();
      await expect(jobs.getByText('Scheduled messages')).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await shot(page, `admin-system-${width}`);
    }
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/dashboard');
    await nav.getByRole('button', { name: 'Admin' }).click();
    await expect(nav.getByRole('link', { name: 'System', exact: true })).toBeVisible();
  });
});

test.describe('admin console: sent and scheduled messages', () => {
  for (const size of WIDTHS) {
    test(`an admin sends a message and sees its live count, then schedules one and cancels it (${size.name})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInAsAdmin(page);
      await page.goto('/dashboard/admin/push-message');
      await expect(page.getByRole('heading', { name: 'Send Push Message', level: 1 })).toBeVisible();

      // Sent now: this dashboard's own stream receives it, so the history counts at least one live delivery.
      const sent = `E2E sent ${size.name} ${Date.now()}`;
      await page.getByLabel('Message').fill(sent);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByText('Notification sent')).toBeVisible();
      const history = page.getByRole('list', { name: 'History' });
      const entry = history.getByTestId('history-entry').filter({ hasText: sent });
      await expect(entry).toContainText('To Everyone');
      await expect(entry.getByTestId('delivered-live')).toHaveText(/^[1-9]\d*$/, { timeout: 20_000 });
      await expect(entry).toContainText('Push failed: 0');
      await entry.scrollIntoViewIfNeeded();
      await shot(page, `admin-sent-history-${size.name}`);

      // Scheduled for an hour from now (the browser's local time), pending, then cancelled.
      const later = `E2E later ${size.name} ${Date.now()}`;
      await page.getByLabel('Message').fill(later);
      await page.getByLabel('Schedule…').check();
      await expect(page.getByRole('button', { name: 'Schedule', exact: true })).toBeVisible();
      const inAnHour = await page.evaluate(() => {
        const at = new Date(Date.now() + 3_600_000);
        return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      });
      await page.getByLabel('Send at').fill(inAnHour);
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await expect(page.getByText(/^Scheduled for /)).toBeVisible();
      const pending = page.getByRole('list', { name: 'Scheduled' }).getByTestId('scheduled-entry');
      const item = pending.filter({ hasText: later });
      await expect(item).toBeVisible();
      await expect(item).toContainText('Everyone');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await item.scrollIntoViewIfNeeded();
      await shot(page, `admin-scheduled-${size.name}`);
      await item.getByRole('button', { name: /^Cancel \(due / }).click();
      await expect(page.getByText('Scheduled message cancelled')).toBeVisible();
      await expect(item).toHaveCount(0);
      // Cancelled, so never sent: not in the history.
      await expect(history.getByTestId('history-entry').filter({ hasText: later })).toHaveCount(0);
    });
  }
});
