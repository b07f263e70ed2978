import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { NAMED_ROUTES } from '../packages/assistant/src/routes';
import { expect, test } from './fixtures';
import { open } from './ready';
import { signInAsUser } from './users';

/** Every dashboard page a signed-in user can open (admin pages send a user back; they are covered elsewhere). */
const DASHBOARD_PAGES = NAMED_ROUTES.map((route) => route.path).filter(
  (url) => url.startsWith('/dashboard') && !url.startsWith('/dashboard/admin'),
);

const SHOTS = path.join(import.meta.dirname, '..', 'test-results', 'screens');

const owner = (name: string) => `e2e-layout-${name}-${test.info().retry}-${test.info().repeatEachIndex}`;

async function signIn(page: Page, name: string) {
  await signInAsUser(page.context(), String(test.info().project.use.baseURL), { ownerKey: owner(name) });
}

/** Uploads through the API (as the spec's clients do) and answers the stored names. */
async function uploadNames(page: Page, name: string, fileNames: string[]): Promise<string[]> {
  const stored: string[] = [];
  for (const fileName of fileNames) {
    const response = await page.request.post(`/api/files/upload?userId=${owner(name)}`, {
      headers: { accept: 'application/json' },
      multipart: { file: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(`${fileName}\n`) } },
    });
    expect(response.status()).toBe(200);
    stored.push(((await response.json()) as { fileName: string }).fileName);
  }
  return stored;
}

const intersects = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Scrolled to the bottom, `control` is on screen and none of the floating assistant icons covers it. */
async function expectClearOfFloatingIcons(page: Page, control: Locator) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(200);
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  const icons = [
    page.getByRole('button', { name: 'Start voice assistant' }),
    page
      .getByRole('link', { name: 'Open the chat assistant' })
      .or(page.getByRole('button', { name: 'Open the chat assistant' })),
  ];
  for (const icon of icons) {
    const iconBox = await icon.boundingBox();
    expect(iconBox).not.toBeNull();
    if (box && iconBox) expect(intersects(box, iconBox), `${await control.textContent()} under an icon`).toBe(false);
  }
}

for (const { width, height } of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('the combined Files page is linked; row menus work from the keyboard; delete names the file', async ({
      page,
    }) => {
      test.setTimeout(90_000); // a dozen uploads, several pages and checks on a shared machine
      await signIn(page, `menu-${width}`);
      const names = await uploadNames(page, `menu-${width}`, [
        'report.txt',
        'report.txt',
        ...Array.from({ length: 10 }, (_, i) => `file-${i}.txt`),
      ]);
      // The server names the second upload of a name "name (1).ext", so every client agrees.
      expect(names.slice(0, 2)).toEqual(['report.txt', 'report (1).txt']);

      await page.goto('/dashboard');
      // The home page's Files card leads to the file browser; the combined page (which can delete) is in the sidebar.
      await expect(page.getByRole('main').locator('a[href="/dashboard/spaces/personal/folders"]')).toBeVisible();
      if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
      const group = page.getByRole('button', { name: 'Files', exact: true });
      if ((await group.getAttribute('aria-expanded')) === 'false') await group.click();
      const nav = page.getByRole('link', { name: 'My files (personal)' });
      await expect(nav).toBeVisible();
      await nav.click();
      await expect(page).toHaveURL(/\/dashboard\/files$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Files' })).toBeVisible();

      const menuButton = page.getByRole('button', { name: 'Actions for report (1).txt' });
      await expect(menuButton).toBeVisible();
      await menuButton.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: 'Actions for report (1).txt' });
      await expect(menu.getByRole('menuitem', { name: 'Download' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(menuButton).toBeFocused();

      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End'); // Download, Share, Delete: Delete is last
      await expect(menu.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog', { name: 'Delete this file?' });
      await expect(dialog).toContainText('“report (1).txt” (11 Bytes, uploaded');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('File deleted successfully!')).toBeVisible();
      await expect(menuButton).toBeHidden();

      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `files-${width}.png`), fullPage: true });

      // The last row's menu button is not under the floating chat and voice icons.
      const lastMenu = page.getByRole('button', { name: /^Actions for / }).last();
      await expectClearOfFloatingIcons(page, lastMenu);
      await page.screenshot({ path: path.join(SHOTS, `files-bottom-${width}.png`) });

      await page.goto('/dashboard/file-preview');
      await expect(page.getByRole('button', { name: 'Actions for report.txt' })).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `preview-${width}.png`), fullPage: true });
    });

    test('delete by id looks the file up first', async ({ page }) => {
      await signIn(page, `byid-${width}`);
      await page.goto('/dashboard/file-delete/not-a-real-id');
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('File not found')).toBeVisible();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await page.screenshot({ path: path.join(SHOTS, `delete-by-id-${width}.png`) });
    });

    test('several chosen files upload one after another', async ({ page }) => {
      await signIn(page, `multi-${width}`);
      await page.goto('/dashboard/file-upload');
      await page.getByLabel('Choose a file').setInputFiles([
        { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('1') },
        { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('22') },
        { name: 'three.txt', mimeType: 'text/plain', buffer: Buffer.from('333') },
      ]);
      await expect(page.getByText('3 files selected (6 Bytes)')).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `upload-list-${width}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await expect(page.getByText('No file selected')).toBeVisible();
      const list = await page.request.get(`/api/files/user/${owner(`multi-${width}`)}`);
      expect(((await list.json()) as { fileName: string }[]).map((file) => file.fileName).sort()).toEqual([
        'one.txt',
        'three.txt',
        'two.txt',
      ]);
    });
  });
}

test.describe('at 390 px (phone)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no dashboard page scrolls sideways, and the drawer shows Logout without scrolling far', async ({ page }) => {
    test.slow(); // every dashboard page in turn
    await signIn(page, 'phone');
    await uploadNames(page, 'phone', ['a-rather-long-file-name-that-would-widen-a-table-on-a-phone.txt']);
    for (const url of DASHBOARD_PAGES) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForTimeout(150);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${url} is ${width} px wide`).toBeLessThanOrEqual(390);
    }
    await page.goto('/dashboard/file-list');
    await page.screenshot({ path: path.join(SHOTS, 'file-list-390.png'), fullPage: true });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const logout = page.getByRole('button', { name: 'Logout' });
    await logout.scrollIntoViewIfNeeded();
    const drawerScroll = await logout.evaluate((element) => element.closest('.overflow-y-auto')?.scrollTop ?? 0);
    expect(drawerScroll, 'drawer scrolled to reach Logout').toBeLessThan(844);
    await page.screenshot({ path: path.join(SHOTS, 'drawer-390.png') });
  });

  test("Pricing's buttons are not under the floating icons when scrolled to the bottom", async ({ page }) => {
    await open(page, '/pricing');
    const buttons = page.getByRole('main').getByRole('link', { name: /Get started free|Start|Contact/ });
    expect(await buttons.count()).toBeGreaterThan(0);
    for (const button of await buttons.all()) await expectClearOfFloatingIcons(page, button);
    // And the last control of the page (the footer's), and the page's last line of text.
    await expectClearOfFloatingIcons(page, page.getByRole('contentinfo').getByRole('link').last());
    const lastLine = await page.getByText(/Launched 28 April 2025/).evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const { x, y, width, height } = range.getBoundingClientRect();
      return { x, y, width, height };
    });
    for (const icon of await page.getByRole('button', { name: 'Start voice assistant' }).all()) {
      const iconBox = await icon.boundingBox();
      if (iconBox) expect(intersects(lastLine, iconBox), 'the last line of the page under an icon').toBe(false);
    }
    await page.screenshot({ path: path.join(SHOTS, 'pricing-bottom-390.png') });
  });
});
