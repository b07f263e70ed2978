import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { WIDTHS, shot } from './screens';
import { signInAsUser } from './users';

/**
 * Notifications follow people (docs/PRODUCT.md#notifications): what was sent while Carol was away is on the server,
 * so a second device she signs in on shows it unread with the count; the team's notices say who did what and open
 * what they are about; "Mark all as read" on one device is read on the other after a reload.
 */
for (const screen of WIDTHS) {
  test(`notices sent while away reach a new device, open what they are about, and read state follows (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const base = String(baseURL);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const aliceName = `Alice ${run}`;
    const carolKey = `e2e-notices-carol-${run}`;
    const design = `Design ${run}`;
    const contexts: BrowserContext[] = [];
    const device = async (): Promise<Page> => {
      const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
      contexts.push(context);
      await signInAsUser(context, base, { ownerKey: carolKey, name: `Carol ${run}` });
      return context.newPage();
    };
    try {
      // Carol's first device: signed in once, then closed (she is away).
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await signInAsUser(page.context(), base, { ownerKey: carolKey, name: `Carol ${run}` });
      const alice = await browser.newContext();
      contexts.push(alice);
      await signInAsUser(alice, base, { ownerKey: `e2e-notices-alice-${run}`, name: aliceName });

      // While she is away, Alice adds her to Design, makes her an owner, shares a file and writes to the workspace.
      const created = await alice.request.post('/api/workspaces', { data: { name: design } });
      expect(created.status()).toBe(201);
      const { id: workspaceId } = (await created.json()) as { id: string };
      const member = (role: string) =>
        alice.request.put(`/api/workspaces/${workspaceId}/members/${carolKey}`, { data: { role } });
      expect((await member('editor')).status()).toBe(200);
      // A workspace's messages reach a member who opened it (docs/PRODUCT.md#workspace-messages).
      expect((await page.request.get(`/api/workspaces/${workspaceId}`)).status()).toBe(200);
      expect((await member('owner')).status()).toBe(200);
      const uploaded = await alice.request.post('/api/files/upload', {
        multipart: { file: { name: `brief-${run}.txt`, mimeType: 'text/plain', buffer: Buffer.from('The brief.\n') } },
        headers: { accept: 'application/json', origin: base },
      });
      expect(uploaded.status()).toBe(200);
      const { id: fileId } = (await uploaded.json()) as { id: string };
      expect(
        (await alice.request.put(`/api/files/${fileId}/shares/${carolKey}`, { data: { role: 'viewer' } })).status(),
      ).toBe(201);
      const note = `Kick-off moved to Monday (${run})`;
      const sent = await alice.request.post('/public/api/notifications', {
        data: { message: note, type: 'admin', workspaceId },
      });
      expect(sent.status()).toBe(200);

      // A new device: nothing was ever received live here, yet the server's list has it all, unread.
      const phone = await device();
      await phone.goto('/dashboard/notifications');
      const list = phone.getByRole('list', { name: 'Notifications' });
      const unreadItem = (text: string) => list.getByRole('button', { name: new RegExp(`^Unread: .*${escape(text)}`) });
      await expect(unreadItem(`${aliceName} added you to ${design} (editor)`)).toBeVisible();
      await expect(unreadItem(`${aliceName} made you an owner of ${design}`)).toBeVisible();
      await expect(unreadItem(`${aliceName} shared brief-${run}.txt with you`)).toBeVisible();
      // The workspace message names its sender and workspace.
      const message = list.getByRole('listitem').filter({ hasText: note });
      await expect(message).toContainText(`From ${aliceName} in ${design}`);
      await expect(message.getByText('Workspace message')).toBeVisible();
      const inbox = (await (await phone.request.get('/public/api/notifications/inbox')).json()) as { unread: number };
      expect(inbox.unread).toBeGreaterThanOrEqual(4);
      await expect(phone.getByText(new RegExp(`notifications?, ${inbox.unread} unread$`))).toBeVisible();
      if (screen.width >= 1024)
        await expect(phone.getByTestId('unread-badge').first()).toHaveText(`${inbox.unread} unread`);
      await shot(phone, `notices-new-device-${screen.name}`);

      // The share notice opens the file in the viewer (its own address, ?file=).
      const share = list.getByRole('listitem').filter({ hasText: `shared brief-${run}.txt with you` });
      await share.getByRole('link', { name: 'Open file' }).click();
      await expect(phone).toHaveURL(new RegExp(`[?&]file=${fileId}(&|$)`));
      await phone.goto('/dashboard/notifications');
      await expect(share.getByRole('button', { name: new RegExp(`^${escape(aliceName)} shared`) })).toBeVisible();

      // Mark all as read here …
      await phone.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(list.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
      await expect(phone.getByText(/notifications?, 0 unread$/)).toBeVisible();
      await expect(phone.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
      await shot(phone, `notices-all-read-${screen.name}`);

      // … and the first device shows them read after a reload.
      await page.goto('/dashboard/notifications');
      const first = page.getByRole('list', { name: 'Notifications' });
      await expect(first.getByText(note)).toBeVisible();
      await expect(first.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
      await expect(page.getByTestId('unread-badge')).toHaveCount(0);
      // The list fits the screen: nothing wider than the viewport.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screen.width);
      await shot(page, `notices-first-device-${screen.name}`);
    } finally {
      await Promise.all(contexts.map((c) => c.close()));
    }
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
