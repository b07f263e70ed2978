import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// The dashboard home for a team (docs/PRODUCT.md#dashboard-home): an editor with no personal files sees the files
// he can reach in a workspace counted, the recent ones listed, the workspace with its storage — at 1366 and 390 px.

const baseURL = () => String(test.info().project.use.baseURL);

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`home at ${width} px`, () => {
    test.describe.configure({ timeout: 90_000 });

    test('counts what an editor reaches in a workspace, not only his personal space', async ({ browser }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}${screen}`;
      const origin = { origin: baseURL() };
      const owner = await browser.newContext({ baseURL: baseURL() });
      await signInAsUser(owner, baseURL(), { ownerKey: `e2e-home-owner-${run}`, name: `Olivia ${run}` });
      const bobKey = `e2e-home-bob-${run}`;
      const created = await owner.request.post('/api/workspaces', {
        headers: origin,
        data: { name: `Clients ${run}` },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const bobContext = await browser.newContext({ baseURL: baseURL(), viewport: { width, height } });
      await signInAsUser(bobContext, baseURL(), { ownerKey: bobKey, name: `Bob ${run}` });
      const added = await owner.request.put(`/api/workspaces/${id}/members/${bobKey}`, {
        headers: origin,
        data: { role: 'editor' },
      });
      expect(added.status()).toBe(200);
      for (const file of ['contract.txt', 'invoice.txt', 'notes.txt']) {
        const uploaded = await owner.request.post(`/api/files/upload?workspaceId=${id}`, {
          headers: { ...origin, accept: 'application/json' },
          multipart: { file: { name: file, mimeType: 'text/plain', buffer: Buffer.from(`${file} ${run}`) } },
        });
        expect(uploaded.status()).toBe(200);
      }

      const page = await bobContext.newPage();
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`Bob ${run}`);
      await expect(page.getByText('3 files', { exact: true })).toBeVisible();
      await expect(page.getByText(/you can reach in your space and 1 workspace/)).toBeVisible();
      const recent = page.getByRole('list', { name: 'Recent files' });
      await expect(recent.getByRole('listitem')).toHaveCount(3);
      await expect(recent.getByRole('link', { name: 'notes.txt', exact: true })).toBeVisible();
      const workspaces = page.getByRole('list', { name: 'Your workspaces' });
      await expect(workspaces.getByRole('link', { name: `Clients ${run}` })).toBeVisible();
      await expect(workspaces).toContainText('3 files');
      await expect(workspaces).toContainText('editor');
      await expect(page.getByText('Nothing has been shared with you yet.')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `home-${screen}`);

      // The Files card opens the spaces browser.
      await page.getByRole('link', { name: 'Open files' }).click();
      await expect(page).toHaveURL(/\/dashboard\/spaces\/personal\/folders/);
      await owner.close();
      await bobContext.close();
    });
  });
}
