import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { expect, test } from './fixtures';
import { waitForMail } from './mail';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

/**
 * Self-sign-up (docs/PRODUCT.md#self-sign-up): an admin opens sign-up to example.com; a visitor finds "Create an
 * account" on /login, is refused for another domain, asks for a link, reads it from the e2e SMTP server's mailbox,
 * creates the account through it and lands signed in. Serial: the setting is the instance's.
 */
test.describe.configure({ mode: 'serial' });

for (const screen of WIDTHS) {
  test(`a visitor signs up with an allowed address, verified by email (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const base = String(baseURL);
    await signInAsUser(page.context(), base, { ownerKey: `e2e-signup-admin-${run}`, role: 'admin' });
    const opened = await page.request.patch('/api/admin/invitation-settings', {
      data: { signUpDomains: ['example.com'] },
    });
    expect(opened.status()).toBe(200);
    try {
      const visitor = await browser.newContext({ baseURL: base });
      const ivy = await visitor.newPage();
      await ivy.setViewportSize({ width: screen.width, height: screen.height });
      await ivy.goto('/login');
      await ivy.getByRole('link', { name: 'Create an account' }).click();
      await expect(ivy).toHaveURL(/\/signup$/);
      await expect(ivy.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
      await ivy.getByLabel('Email address').fill(`ivy-${run}@elsewhere.test`);
      await ivy.getByRole('button', { name: 'Email me a link' }).click();
      await expect(ivy.getByRole('alert')).toHaveText('Sign-up here is open only to email addresses at example.com.');
      await shot(ivy, `signup-refused-${screen.name}`);
      await ivy.getByLabel('Email address').fill(`ivy-${run}@example.com`);
      await ivy.getByRole('button', { name: 'Email me a link' }).click();
      await expect(ivy.getByRole('status')).toHaveText(ACCOUNT_TEXTS.signUpRequested);
      await shot(ivy, `signup-sent-${screen.name}`);

      const mail = await waitForMail({ to: `ivy-${run}@example.com`, subject: 'Create your Atrium account' });
      const link = mail.links.find((address) => address.includes('/invite/')) ?? '';
      expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{32}$/);
      // The admin sees the request among the pending invitations, said to come from the sign-up page.
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await page.goto('/dashboard/admin/users');
      await expect(
        page
          .getByRole('list', { name: 'Pending invitations to Atrium' })
          .getByRole('listitem')
          .filter({
            hasText: `ivy-${run}@example.com`,
          }),
      ).toContainText('asked on the sign-up page');
      await ivy.goto(link);
      await expect(ivy.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
      await expect(ivy.getByText(`ivy-${run}@example.com`)).toBeVisible();
      await ivy.getByLabel('Username').fill(`ivy-${run}`);
      await ivy.getByLabel('Password', { exact: true }).fill('meadow-quartz-falcon-19');
      await ivy.getByLabel('Confirm password').fill('meadow-quartz-falcon-19');
      await shot(ivy, `signup-create-${screen.name}`);
      await ivy.getByRole('button', { name: 'Create account', exact: true }).click();
      await ivy.waitForURL(/\/dashboard/);
      await visitor.close();
    } finally {
      await page.request.patch('/api/admin/invitation-settings', { data: { signUpDomains: [] } });
    }
    // Closed again: /login no longer links to /signup.
    const after = await (await browser.newContext({ baseURL: base })).newPage();
    await after.goto('/login');
    await expect(after.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(after.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
    await after.context().close();
  });
}
