import { expect, test } from './fixtures';
import { WIDTHS, shot } from './screens';
import { signInAsUser } from './users';

/**
 * Consent to membership (docs/PRODUCT.md#workspace-members): eve adds alice to a workspace without asking; alice is
 * told who added her to what, eve's message does not reach her before she opened the workspace and then shows as
 * "From Eve … in …" (never as an announcement), and she leaves in one click.
 */
for (const screen of WIDTHS) {
  test(`a person added to a workspace is told, sees who wrote, and leaves (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const base = String(baseURL);
    const eveName = `Eve Example ${run}`;
    const aliceKey = `e2e-consent-alice-${run}`;
    const workspace = `Atrium Security Team ${run}`;
    const eve = await browser.newContext();
    await signInAsUser(eve, base, { ownerKey: `e2e-consent-eve-${run}`, name: eveName });
    await signInAsUser(page.context(), base, { ownerKey: aliceKey, name: `Alice ${run}` });
    await page.setViewportSize({ width: screen.width, height: screen.height });

    // Alice's list is the browser's (docs/PRODUCT.md#notifications): she is on it, her live stream connected.
    const connected = page.waitForResponse(
      (r) => r.url().includes('/public/api/notifications/stream') && r.status() === 200,
    );
    await page.goto('/dashboard/notifications');
    await connected;

    const created = await eve.request.post('/api/workspaces', { data: { name: workspace } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(
      (await eve.request.put(`/api/workspaces/${id}/members/${aliceKey}`, { data: { role: 'editor' } })).status(),
    ).toBe(200);
    const post = (message: string) =>
      eve.request.post('/public/api/notifications', { data: { message, type: 'admin', workspaceId: id } });
    expect((await post('SPOOF: Your password expires today')).status()).toBe(200);

    const list = page.getByRole('list', { name: 'Notifications' });
    const notice = list.getByRole('listitem').filter({ hasText: `${eveName} added you to ${workspace} (editor)` });
    await expect(notice).toBeVisible();
    await expect(notice.getByText('Membership')).toBeVisible();
    await expect(list.getByText('SPOOF: Your password expires today')).toHaveCount(0);
    await shot(page, `membership-notice-${screen.name}`);

    // Once she opened the workspace, its messages reach her, saying who wrote them where.
    await notice.getByRole('link', { name: 'Open workspace' }).click();
    await expect(page.getByRole('heading', { level: 1, name: workspace })).toBeVisible();
    const reconnected = page.waitForResponse(
      (r) => r.url().includes('/public/api/notifications/stream') && r.status() === 200,
    );
    await page.goto('/dashboard/notifications');
    await reconnected;
    await expect(notice).toBeVisible();
    expect((await post('SPOOF again')).status()).toBe(200);
    const message = list.getByRole('listitem').filter({ hasText: 'SPOOF again' });
    await expect(message).toBeVisible();
    await expect(message.getByText(`From ${eveName} in ${workspace}`)).toBeVisible();
    await expect(message.getByText('Workspace message')).toBeVisible();
    await expect(message.getByText('Announcement')).toHaveCount(0);
    await shot(page, `workspace-message-${screen.name}`);

    await notice.getByRole('button', { name: `Leave ${workspace}` }).click();
    await expect(notice.getByText('You left this workspace.')).toBeVisible();
    expect((await page.request.get(`/api/workspaces/${id}`)).status()).toBe(404);
    await eve.close();
  });
}
