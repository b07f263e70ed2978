import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { open } from './ready';
import { signInAsUser } from './users';

const SCREENS = path.resolve(import.meta.dirname, '../test-results/screens-p-ui');
mkdirSync(SCREENS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS, `${name}.png`) });

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1366, height: 768 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const box = async (locator: Locator): Promise<Box> => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box');
  return found;
};

/** Publishes a notification as the admin, from a separate API client (no browser page involved). */
async function publisher(browser: Browser) {
  const context = await browser.newContext();
  const login = await context.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
  return {
    publish: async (message: string) => {
      const response = await context.request.post('/public/api/notifications', {
        data: { message, timestamp: new Date().toISOString(), type: 'admin' },
      });
      expect(response.status()).toBe(200);
    },
    close: () => context.close(),
  };
}

test.describe('public mobile menu (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('closes on Esc (focus back on ☰) and on a tap outside; its targets are at least 44 px tall', async ({
    page,
  }) => {
    await open(page, '/about');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    expect((await box(toggle)).height).toBeGreaterThanOrEqual(44);

    await toggle.click();
    await expect(menu).toBeVisible();
    const targets = menu.getByRole('link');
    await expect(targets).toHaveCount(7);
    for (const target of await targets.all()) expect((await box(target)).height).toBeGreaterThanOrEqual(44);
    await shot(page, 'site-menu-open-390');

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    await page.mouse.click(200, 700); // the page below the menu
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/about$/);

    // A tap inside the menu (not on a link) keeps it open; the ☰ button still toggles it.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.click({ position: { x: 5, y: 5 } });
    await expect(menu).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
  });
});

for (const { name, viewport } of WIDTHS) {
  test.describe(`toasts and banner at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('chat replies collapse into one counted toast that stays clear of the chat header and the ☰ button', async ({
      page,
    }) => {
      await open(page, '/pricing');
      await page.getByRole('button', { name: 'Open the chat assistant' }).click();
      const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
      await expect(chat).toBeVisible();
      const log = chat.getByRole('list', { name: 'Conversation' });
      const input = chat.getByLabel('Message');
      for (let reply = 1; reply <= 4; reply += 1) {
        await input.fill(`hello ${reply}`);
        await chat.getByRole('button', { name: 'Send' }).click();
        await expect(log.getByRole('listitem').filter({ hasNotText: /^You:/ })).toHaveCount(reply + 1);
      }
      const toasts = page.getByRole('alert');
      await expect(toasts).toHaveCount(1);
      await expect(toasts).toHaveText('Response received! ×4');

      const header = await box(chat.locator('header'));
      expect(overlaps(await box(toasts.first()), header)).toBe(false);
      if (viewport.width < 1024) {
        const bar = await box(page.locator('header').first());
        expect((await box(toasts.first())).y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
      }
      await shot(page, `chat-toasts-${name}`);
      await chat.getByRole('button', { name: 'Minimise chat' }).click();
      await expect(chat.getByRole('button', { name: 'Expand chat' })).toBeVisible();
      await chat.getByRole('button', { name: 'Close chat' }).click();
      await expect(chat).toBeHidden();
    });

    test('a notification shows once, in a banner that floats without moving the field being typed in', async ({
      page,
      context,
      browser,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      await signInAsUser(context, baseURL ?? '', { ownerKey: `typist-${name}`, name: 'Typist' });
      const connected = page.waitForResponse((r) => r.url().includes('/notifications/stream') && r.status() === 200);
      await page.goto('/dashboard/text-to-speech');
      await connected;
      const field = page.getByLabel('Text');
      await field.click();
      await field.pressSequentially('Half a sentence');
      const before = await box(field);

      // Records the most toasts on screen at once (leaving ones excluded).
      await page.evaluate(() => {
        const scope = window as unknown as { mostToasts: number };
        scope.mostToasts = 0;
        new MutationObserver(() => {
          const shown = document.querySelectorAll('.Toastify__toast:not([class*="-exit"])').length;
          scope.mostToasts = Math.max(scope.mostToasts, shown);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      const admin = await publisher(browser);
      try {
        const messages = [1, 2, 3, 4].map((n) => `Message ${n} for ${name} (${Date.now()})`);
        await admin.publish(messages[0] ?? '');
        const banner = page.getByTestId('notification-banner');
        await expect(banner).toContainText(messages[0] ?? '');
        expect(await box(field)).toEqual(before);
        await expect(field).toBeFocused();
        await field.pressSequentially(' and more');
        await expect(field).toHaveValue('Half a sentence and more');

        for (const message of messages.slice(1)) await admin.publish(message);
        await expect(banner).toContainText(messages[3] ?? '');
        // Each message shows once, in the banner: no toast comes with it (docs/PRODUCT.md#live-updates).
        expect(await page.evaluate(() => (window as unknown as { mostToasts: number }).mostToasts)).toBe(0);
        await expect(page.getByRole('alert').filter({ hasText: messages[3] ?? '' })).toHaveCount(0);
        expect(await box(field)).toEqual(before);

        // On a phone the banner never covers a third of the screen, nor the menu button.
        const shown = await box(banner);
        expect(shown.height).toBeLessThan(viewport.height / 3);
        if (viewport.width < 768) {
          const menuButton = await box(page.getByRole('button', { name: 'Open menu' }));
          expect(overlaps(shown, menuButton)).toBe(false);
        }
        await shot(page, `banner-toasts-${name}`);
        await expect(banner).toBeHidden({ timeout: 12_000 });
        expect(await box(field)).toEqual(before);
      } finally {
        await admin.close();
      }
    });
  });
}

test.describe('screens changed by the polish pass (1366 and 390 px)', () => {
  for (const { name, viewport } of WIDTHS) {
    test(`push page figures, sidebar search and first-login greeting at ${viewport.width} px`, async ({
      page,
      context,
      baseURL,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize(viewport);
      const login = await page.request.post('/api/auth/login', {
        data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
      });
      expect(login.status()).toBe(200);
      // Another dashboard of the admin is open: it counts as a stream open now.
      const other = await context.newPage();
      const connected = other.waitForResponse((r) => r.url().includes('/notifications/stream') && r.status() === 200);
      await other.goto('/dashboard/notifications');
      await connected;
      await page.goto('/dashboard/admin/push-message');
      await expect(page.getByTestId('open-streams')).toHaveText(/^[1-9]\d*$/);
      await expect(page.getByTestId('push-browsers')).toHaveText(/^\d+$/);
      await expect(page.getByTestId('subscriber-count')).toHaveText(/^\d+$/);
      await shot(page, `push-figures-${name}`);
      await other.close();

      if (viewport.width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
      const sidebar = page.getByRole('navigation', { name: 'Dashboard' }).locator('visible=true').first();
      await sidebar.getByLabel('Search menu').fill('upload');
      await expect(sidebar.getByRole('link', { name: 'Upload', exact: true })).toBeVisible();
      await shot(page, `sidebar-search-${name}`);

      // Two users of one browser: each gets the first-login greeting on the profile page.
      for (const ownerKey of [`bob-${name}`, `carol-${name}`]) {
        await context.clearCookies();
        await signInAsUser(context, baseURL ?? '', { ownerKey, name: ownerKey });
        await page.goto('/dashboard/profile');
        await expect(page.getByText(`Welcome to Atrium, ${ownerKey}!`)).toBeVisible();
        await shot(page, `first-login-${ownerKey}`);
      }
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(/Welcome to Atrium, carol/)).toHaveCount(0);
    });
  }
});

for (const { name, viewport } of WIDTHS) {
  test(`without a microphone the voice assistant says so and how to allow it (${viewport.width} px)`, async ({
    page,
  }) => {
    // This Chromium has no microphone and no permission prompt: recognition fails, the recorder fallback's
    // getUserMedia is refused or finds no device.
    await page.setViewportSize(viewport);
    await open(page, '/features');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText(
      /^(No microphone was found\.|Microphone access is blocked\. Allow it in your browser's site settings)/,
    );
    await shot(page, `voice-microphone-${name}`);
  });
}
