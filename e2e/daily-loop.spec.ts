import type { Browser, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// A team's first day (docs/PRODUCT.md#file-viewer, #notifications, #activity): an editor uploads, a viewer reads the
// file's insights in the viewer, the owner shares it, the recipient hears of it on a second device and opens it, the
// owner reads the activity, the admin finds the upload in the audit log, and a visitor reads it through a link.

/** A PNG with `text` drawn in black on white (OCR reads it). */
const pngWithText = (text: string) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="220">
      <rect width="100%" height="100%" fill="white"/>
      <text x="40" y="140" font-family="DejaVu Sans" font-size="96" fill="black">${text}</text></svg>`),
  )
    .png()
    .toBuffer();

const fitsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const { name: screen, width, height } of WIDTHS) {
  test(`a team's day: upload → viewer with insights → share → notice on a second device → activity (${screen})`, async ({
    browser,
    baseURL,
  }) => {
    // The first image analysis of the run loads the OCR engine: room for a busy machine.
    test.setTimeout(300_000);
    const base = String(baseURL);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen}`;
    const contexts: BrowserContext[] = [];
    const person = async (key: string, name: string, role: 'user' | 'admin' = 'user') => {
      const context = await newContext(browser, { width, height });
      contexts.push(context);
      const ownerKey = `e2e-day-${key}-${run}`;
      await signInAsUser(context, base, { ownerKey, name, role });
      return { ownerKey, name, page: await context.newPage() };
    };
    try {
      const olivia = await person('owner', `Olivia ${run}`);
      const edgar = await person('editor', `Edgar ${run}`);
      const vic = await person('viewer', `Vic ${run}`);
      const carol = await person('carol', `Carol ${run}`);
      const admin = await person('admin', `Ada ${run}`, 'admin');
      const studio = `Studio ${run}`;
      const fileName = `poster-${run}.png`;

      // The owner makes the workspace and adds an editor and a viewer.
      const created = await olivia.page.request.post('/api/workspaces', { data: { name: studio } });
      expect(created.status()).toBe(201);
      const { id: workspaceId } = (await created.json()) as { id: string };
      for (const [who, role] of [
        [edgar, 'editor'],
        [vic, 'viewer'],
      ] as const) {
        const added = await olivia.page.request.put(`/api/workspaces/${workspaceId}/members/${who.ownerKey}`, {
          data: { role },
        });
        expect(added.status()).toBe(200);
      }

      // The editor uploads with the Upload button; the queue names the stored file and folds into its tray.
      await edgar.page.goto(`/dashboard/spaces/${workspaceId}/folders`);
      await expect(edgar.page.getByRole('heading', { level: 1, name: studio })).toBeVisible();
      await edgar.page.getByTestId('upload-input').setInputFiles({
        name: fileName,
        mimeType: 'image/png',
        buffer: await pngWithText('Launch 2027'),
      });
      await expect(edgar.page.getByTestId('upload-total')).toContainText(`1 of 1 uploaded: ${fileName}`);
      await expect(edgar.page.getByRole('link', { name: fileName })).toBeVisible();
      await shot(edgar.page, `day-editor-uploaded-${screen}`);

      // The viewer's space says it is view-only; the file opens in the viewer with its text read by OCR.
      await vic.page.goto(`/dashboard/spaces/${workspaceId}/folders`);
      await expect(vic.page.getByText('View only', { exact: true })).toBeVisible();
      await expect(vic.page.getByRole('button', { name: 'Upload', exact: true })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
      await vic.page.getByRole('link', { name: fileName }).click();
      const vicViewer = vic.page.getByRole('dialog', { name: fileName });
      await expect(vicViewer.getByRole('img', { name: fileName })).toBeVisible();
      // The viewer has its own address: `?file=<id>`.
      const fileId = new URL(vic.page.url()).searchParams.get('file') ?? '';
      expect(fileId).not.toBe('');
      const insights = vicViewer.getByRole('complementary', { name: 'Insights' });
      await expect(insights.getByRole('textbox', { name: 'Text in this file' })).toHaveValue(/Launch/i, {
        timeout: 240_000,
      });
      // A viewer reads and downloads, and stars with the key s; Share is not offered.
      await expect(vicViewer.getByRole('button', { name: 'Share' })).toHaveCount(0);
      const star = vicViewer.getByRole('button', { name: `Star ${fileName}` });
      await expect(star).toHaveAttribute('aria-pressed', 'false');
      await vic.page.keyboard.press('s');
      await expect(star).toHaveAttribute('aria-pressed', 'true');
      expect(await fitsSideways(vic.page)).toBe(true);
      await shot(vic.page, `day-viewer-insights-${screen}`);
      await vic.page.keyboard.press('Escape');
      await expect(vicViewer).toBeHidden();
      await vic.page.goto('/dashboard/starred');
      await expect(
        vic.page.getByRole('list', { name: 'Starred' }).getByRole('link', { name: fileName, exact: true }),
      ).toBeVisible();

      // Carol was signed in once on her laptop, which is now closed; the owner shares the file with her from the
      // viewer, opened by a pasted address.
      await olivia.page.goto(`/dashboard/spaces/${workspaceId}/folders?file=${fileId}`);
      const oliviaViewer = olivia.page.getByRole('dialog', { name: fileName });
      await oliviaViewer.getByRole('button', { name: 'Share' }).click();
      const dialog = olivia.page.getByRole('dialog', { name: `Share “${fileName}”` });
      await dialog.getByLabel('Add people').fill(carol.name);
      await dialog.getByRole('button', { name: new RegExp(`^Add ${carol.name}`) }).click();
      await expect(dialog.getByLabel(`Role for ${carol.name}`)).toHaveValue('viewer');
      await shot(olivia.page, `day-owner-shares-${screen}`);

      // Carol's phone, a device that never received anything live: the notice is there, unread, and opens the file.
      const phoneContext = await newContext(browser, { width, height });
      contexts.push(phoneContext);
      await signInAsUser(phoneContext, base, { ownerKey: carol.ownerKey, name: carol.name });
      const phone = await phoneContext.newPage();
      await phone.goto('/dashboard/notifications');
      const notices = phone.getByRole('list', { name: 'Notifications' });
      const notice = notices.getByRole('listitem').filter({ hasText: `${olivia.name} shared ${fileName} with you` });
      await expect(notice.getByRole('button', { name: /^Unread: / })).toBeVisible();
      await shot(phone, `day-second-device-notice-${screen}`);
      await notice.getByRole('link', { name: 'Open file' }).click();
      await expect(phone.getByRole('dialog', { name: fileName }).getByRole('img', { name: fileName })).toBeVisible();
      await shot(phone, `day-second-device-viewer-${screen}`);
      // Escape closes it back to the list, the notice now read.
      await phone.keyboard.press('Escape');
      await expect(phone).toHaveURL(/\/dashboard\/notifications$/);
      await expect(notice.getByRole('button', { name: /^Unread: / })).toHaveCount(0);

      // The owner reads the workspace's activity: the editor's upload, by display name.
      await olivia.page.goto(`/dashboard/activity?workspace=${workspaceId}`);
      const feed = olivia.page.getByRole('list', { name: 'Activity' });
      await expect(feed.getByText(`${edgar.name} uploaded ${fileName}`)).toBeVisible();
      expect(await fitsSideways(olivia.page)).toBe(true);
      await shot(olivia.page, `day-owner-activity-${screen}`);

      // The admin finds the upload in the audit log.
      await admin.page.goto('/dashboard/admin/audit');
      await admin.page.getByLabel('Action').selectOption('file.uploaded');
      await admin.page.getByLabel('Target').fill(`file:${fileId}`);
      await admin.page.getByRole('button', { name: 'Apply' }).click();
      const entries = admin.page.getByRole(width >= 1024 ? 'table' : 'list', { name: 'Audit entries' });
      await expect(entries.getByText(`file:${fileId}`)).toBeVisible();
      await shot(admin.page, `day-admin-audit-${screen}`);

      // A visitor reads it through a public link, in the read-only viewer.
      const link = await olivia.page.request.post('/api/links', { data: { fileId } });
      expect(link.status()).toBe(201);
      const { url } = (await link.json()) as { url: string };
      const visitorContext = await newContext(browser, { width, height });
      contexts.push(visitorContext);
      const visitor = await visitorContext.newPage();
      await visitor.goto(new URL(url, base).pathname);
      await visitor.getByRole('button', { name: 'Open in viewer' }).click();
      const publicViewer = visitor.getByRole('dialog', { name: fileName });
      await expect(publicViewer.getByRole('img', { name: fileName })).toBeVisible();
      await expect(publicViewer.getByRole('button', { name: 'Share' })).toHaveCount(0);
      await expect(publicViewer.getByRole('link', { name: 'Download' })).toBeVisible();
      expect(await fitsSideways(visitor)).toBe(true);
      await shot(visitor, `day-visitor-viewer-${screen}`);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });
}

function newContext(browser: Browser, viewport: { width: number; height: number }) {
  return browser.newContext({ viewport });
}
