import path from 'node:path';
import Database from 'better-sqlite3';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';
import { waitForMail } from './mail';

/**
 * Invitations and local accounts (docs/PRODUCT.md#invitations): alice (an owner) invites erin@example.test to Design
 * as an editor; the link shows on her screen to copy and reaches erin by email (read from the e2e SMTP server); erin,
 * in her own browser, opens the emailed link, creates a local account, lands signed in, sees Design and uploads a
 * file. A revoked and an expired link each say so. An admin's Users screen issues a local account's reset link from
 * its row.
 */

/** Moves an invitation past its expiry, as time would. */
function expireInvitation(id: string) {
  const db = new Database(path.join(String(process.env.E2E_DATA_DIR), 'atrium.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE invitations SET expires_at = ? WHERE id = ?').run(
      new Date(Date.now() - 60_000).toISOString(),
      id,
    );
  } finally {
    db.close();
  }
}

for (const screen of WIDTHS) {
  test(`an owner invites by email and the invitee creates a local account and uploads (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const base = String(baseURL);
    const design = `Design ${run}`;
    await signInAsUser(page.context(), base, { ownerKey: `e2e-invite-alice-${run}`, name: `Alice ${run}` });
    await page.setViewportSize({ width: screen.width, height: screen.height });
    const created = await page.request.post('/api/workspaces', { data: { name: design } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await page.goto(`/dashboard/spaces/${id}/members`);
    const invite = page.getByRole('region', { name: 'Invite by email' });
    await expect(invite.getByText('No pending invitations.')).toBeVisible();
    await invite.getByLabel('Email address').fill('erin@example.test');
    await invite.getByLabel('Role').selectOption('editor');
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkField = invite.getByLabel('Invitation link');
    await expect(linkField).toBeVisible();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{32}$/);
    await invite.getByRole('button', { name: 'Copy' }).click();
    const pending = invite.getByRole('list', { name: 'Pending invitations' });
    await expect(pending.getByText('erin@example.test')).toBeVisible();
    await expect(pending.getByRole('button', { name: 'Resend invitation to erin@example.test' })).toBeVisible();
    await shot(page, `invitations-members-${screen.name}`);

    // The same link reached Erin by email (the e2e SMTP server's mailbox); she opens it from there.
    const mail = await waitForMail({ to: 'erin@example.test', subject: `invited you to ${design} on Atrium` });
    const mailed = mail.links.find((address) => address.includes('/invite/'));
    expect(mailed).toBe(link);

    // Erin, in her own browser.
    const erin = await browser.newContext({ baseURL: base });
    const erinPage = await erin.newPage();
    await erinPage.setViewportSize({ width: screen.width, height: screen.height });
    await erinPage.goto(mailed ?? '');
    await expect(erinPage.getByRole('heading', { level: 1, name: `Join ${design}` })).toBeVisible();
    await expect(erinPage.getByText(`Alice ${run}`)).toBeVisible();
    await erinPage.getByLabel('Username').fill(`erin-${run}`);
    await erinPage.getByLabel('Your name').fill('Erin Example');
    await erinPage.getByLabel('Password', { exact: true }).fill('password1234');
    await erinPage.getByLabel('Confirm password').fill('password1234');
    await erinPage.getByRole('button', { name: 'Create account and join' }).click();
    await expect(erinPage.getByText(ACCOUNT_TEXTS.passwordCommon)).toBeVisible();
    await shot(erinPage, `invitations-accept-refused-${screen.name}`);
    await erinPage.getByLabel('Password', { exact: true }).fill('violet-harbour-lantern-42');
    await erinPage.getByLabel('Confirm password').fill('violet-harbour-lantern-42');
    await erinPage.getByRole('button', { name: 'Create account and join' }).click();
    await erinPage.waitForURL(/\/dashboard/);

    await erinPage.goto(`/dashboard/spaces/${id}/folders`);
    await expect(erinPage.getByRole('heading', { level: 1, name: design })).toBeVisible();
    await erinPage.getByTestId('upload-input').setInputFiles({
      name: `from-erin-${run}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from('Hello from Erin'),
    });
    // Stored: the folder lists it (not only the upload queue).
    await expect(erinPage.getByText('This folder is empty.')).toHaveCount(0);
    await expect(erinPage.getByText(`from-erin-${run}.txt`).first()).toBeVisible();
    await shot(erinPage, `invitations-erin-uploaded-${screen.name}`);

    // Alice's pending list no longer has it.
    await page.reload();
    await expect(invite.getByText('No pending invitations.')).toBeVisible();

    // A revoked link and an expired one each say so.
    const revoked = (await (
      await page.request.post(`/api/workspaces/${id}/invitations`, {
        data: { email: 'gina@example.test', role: 'viewer' },
      })
    ).json()) as { id: string; url: string };
    await page.reload();
    await pending.getByRole('button', { name: 'Revoke invitation to gina@example.test' }).click();
    await expect(invite.getByText('No pending invitations.')).toBeVisible();
    const visitor = await (await browser.newContext({ baseURL: base })).newPage();
    await visitor.setViewportSize({ width: screen.width, height: screen.height });
    await visitor.goto(revoked.url);
    await expect(visitor.getByRole('alert')).toHaveText(ACCOUNT_TEXTS.invitationRevoked);
    await shot(visitor, `invitations-revoked-${screen.name}`);

    const expiring = (await (
      await page.request.post(`/api/workspaces/${id}/invitations`, {
        data: { email: 'hank@example.test', role: 'viewer' },
      })
    ).json()) as { id: string; url: string };
    expireInvitation(expiring.id);
    await visitor.goto(expiring.url);
    await expect(visitor.getByRole('alert')).toHaveText(ACCOUNT_TEXTS.invitationExpired);
    await shot(visitor, `invitations-expired-${screen.name}`);
    await erin.close();
    await visitor.context().close();
  });
}

for (const screen of WIDTHS) {
  test(`an admin creates a local account; its link sets the password and it signs in on /login (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const base = String(baseURL);
    await signInAsUser(page.context(), base, { ownerKey: `e2e-accounts-admin-${run}`, role: 'admin' });
    await page.setViewportSize({ width: screen.width, height: screen.height });
    await page.goto('/dashboard/admin/users');
    const local = page.getByRole('region', { name: 'Local accounts' });
    await local.getByLabel('Username', { exact: true }).fill(`lee-${run}`);
    await local.getByLabel('Name', { exact: true }).fill('Lee Local');
    await local.getByRole('button', { name: 'Create account' }).click();
    const linkField = local.getByLabel('Link to set the password');
    await expect(linkField).toBeVisible();
    await shot(page, `accounts-admin-${screen.name}`);
    const link = await linkField.inputValue();

    const lee = await browser.newContext({ baseURL: base });
    const leePage = await lee.newPage();
    await leePage.setViewportSize({ width: screen.width, height: screen.height });
    await leePage.goto(new URL(link).pathname);
    await expect(leePage.getByText(`lee-${run}`)).toBeVisible();
    await leePage.getByLabel('New password', { exact: true }).fill('amber-canyon-whistle-63');
    await leePage.getByLabel('Confirm password').fill('amber-canyon-whistle-63');
    await shot(leePage, `accounts-reset-${screen.name}`);
    await leePage.getByRole('button', { name: 'Set password' }).click();
    await expect(leePage.getByText('Your password is set.', { exact: false })).toBeVisible();
    await leePage.getByRole('link', { name: 'Go to sign-in' }).click();
    await leePage.getByLabel('Username').fill(`LEE-${run}`);
    await leePage.getByLabel('Password', { exact: true }).fill('amber-canyon-whistle-63');
    await leePage.getByRole('button', { name: 'Sign In', exact: true }).click();
    await leePage.waitForURL(/\/dashboard/);
    await leePage.goto('/dashboard/profile');
    await expect(leePage.getByRole('region', { name: 'Password', exact: true })).toBeVisible();
    await shot(leePage, `accounts-profile-${screen.name}`);

    // Lee forgot it: the admin finds Lee on the Users screen and hands over a reset link from the row.
    await page.getByRole('search').getByLabel('Search users').fill(`lee-${run}`);
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    const rows = page.getByRole(screen.width < 640 ? 'list' : 'table', { name: 'Users' });
    await expect(rows.getByText(`lee-${run}`)).toBeVisible();
    await rows.getByRole('button', { name: 'Reset link for Lee Local' }).click();
    const dialog = page.getByRole('dialog', { name: 'Password reset link for Lee Local' });
    const resetField = dialog.getByLabel('Password reset link');
    await expect(resetField).toHaveValue(/\/reset-password\/[A-Za-z0-9_-]{32}$/);
    await shot(page, `accounts-reset-link-${screen.name}`);
    const resetLink = await resetField.inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toHaveCount(0);
    // Accounts of the identity provider have no such button.
    await page.getByRole('search').getByLabel('Search users').fill(`e2e-accounts-admin-${run}`);
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await expect(rows.getByText(`e2e-accounts-admin-${run}`).first()).toBeVisible();
    await expect(rows.getByRole('button', { name: /^Reset link for/ })).toHaveCount(0);

    await leePage.goto(new URL(resetLink).pathname);
    await leePage.getByLabel('New password', { exact: true }).fill('copper-meadow-lantern-27');
    await leePage.getByLabel('Confirm password').fill('copper-meadow-lantern-27');
    await leePage.getByRole('button', { name: 'Set password' }).click();
    await expect(leePage.getByText('Your password is set.', { exact: false })).toBeVisible();
    await lee.close();
  });
}
