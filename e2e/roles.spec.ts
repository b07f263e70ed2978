import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// Roles that explain themselves (docs/PRODUCT.md#spaces-screens): a viewer of a workspace sees "View only" and the
// server's reason, Upload and New folder disabled and described by it, and a dropped file is answered, not ignored.

const REASON = 'You can only view this workspace. Ask one of its owners for editor access.';

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`roles in the file browser at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('a viewer sees View only, disabled Upload and New folder with the reason, and a drop is answered', async ({
      browser,
      page,
      baseURL,
    }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}`;
      const base = String(baseURL);
      const viewer = `e2e-roles-viewer-${screen}-${run}`;
      await signInAsUser(page.context(), base, { ownerKey: viewer, name: 'Vic Viewer' });
      // The owner makes the workspace, adds the viewer and puts a file in it (through the API).
      const ownerContext = await browser.newContext();
      await signInAsUser(ownerContext, base, { ownerKey: `e2e-roles-owner-${screen}-${run}`, name: 'Olga Owner' });
      const created = await ownerContext.request.post(`${base}/api/workspaces`, { data: { name: `Design ${run}` } });
      expect(created.status()).toBe(201);
      const workspace = (await created.json()) as { id: string };
      const added = await ownerContext.request.put(`${base}/api/workspaces/${workspace.id}/members/${viewer}`, {
        data: { role: 'viewer' },
      });
      expect(added.ok()).toBe(true);
      const uploaded = await ownerContext.request.post(`${base}/api/files/upload?workspaceId=${workspace.id}`, {
        headers: { accept: 'application/json' },
        multipart: { file: { name: 'brief.txt', mimeType: 'text/plain', buffer: Buffer.from('the brief\n') } },
      });
      expect(uploaded.status()).toBe(200);
      await ownerContext.close();

      await page.goto(`/dashboard/spaces/${workspace.id}/folders`);
      await expect(page.getByRole('link', { name: 'brief.txt' })).toBeVisible();
      await expect(page.getByText('View only', { exact: true })).toBeVisible();
      const reason = page.getByText(REASON, { exact: true });
      await expect(reason).toBeVisible();
      const reasonId = await reason.getAttribute('id');
      for (const name of ['Upload', 'New folder', 'Upload folder']) {
        const button = page.getByRole('button', { name, exact: true });
        await expect(button).toBeVisible();
        await expect(button).toHaveAttribute('aria-disabled', 'true');
        await expect(button).toHaveAttribute('aria-describedby', reasonId ?? '');
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `roles-viewer-${screen}`);

      // Pressed anyway: the reason as a toast; no dialog opens.
      // Playwright waits for an aria-disabled button to be enabled; a person can press it all the same.
      await page.getByRole('button', { name: 'New folder', exact: true }).click({ force: true });
      await expect(page.getByRole('dialog')).toHaveCount(0);
      const toasts = page.locator('.Toastify__toast');
      await expect(toasts.getByText(REASON)).toBeVisible();

      // A dropped file: answered with the reason, nothing uploaded.
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.items.add(new File(['dropped\n'], 'dropped.txt', { type: 'text/plain' }));
        const target = document.querySelector('[data-testid="file-browser"]');
        target?.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        target?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      // The same words, counted on the toast already on screen.
      await expect(toasts.getByText(`${REASON} ×2`, { exact: true })).toBeVisible();
      await expect(toasts).toHaveCount(1);
      await shot(page, `roles-viewer-drop-${screen}`);
      await page.reload();
      await expect(page.getByRole('link', { name: 'brief.txt' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'dropped.txt' })).toHaveCount(0);

      // The viewer's menu offers reading only.
      await page.getByRole('button', { name: 'Actions for brief.txt' }).click();
      await expect(page.getByRole('menuitem')).toHaveText(['Open', 'Download', 'Versions', 'Details', 'Star']);
      await page.keyboard.press('Escape');
    });
  });
}
