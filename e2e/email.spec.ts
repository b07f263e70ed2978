import { expect, test } from './fixtures';
import { waitForMail } from './mail';
import { WIDTHS, shot } from './screens';
import { signInAsUser } from './users';

/**
 * Email (docs/PRODUCT.md#email): Bob turns on share notices in Profile → Email; Alice shares a file with him; the email
 * reaches the SMTP server with a link to the file and an unsubscribe link; opening that link turns the notices off,
 * and his profile shows them off.
 */
for (const screen of WIDTHS) {
  test(`a share notice arrives by email and its unsubscribe link turns it off (${screen.name})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const base = String(baseURL);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen.name}`;
    const bobKey = `e2e-email-bob-${run}`;
    await page.setViewportSize({ width: screen.width, height: screen.height });
    await signInAsUser(page.context(), base, { ownerKey: bobKey, name: `Bob ${run}` });

    await page.goto('/dashboard/profile');
    const section = page.getByRole('region', { name: 'Email' });
    await expect(section.getByText(`Emails go to ${bobKey}@example.test.`)).toBeVisible();
    const shareNotices = section.getByRole('checkbox', { name: /When something is shared with me/ });
    await expect(shareNotices).not.toBeChecked();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/me/email-preferences') && r.request().method() === 'PUT',
    );
    await shareNotices.focus();
    await page.keyboard.press('Space');
    expect((await saved).status()).toBe(200);
    await expect(shareNotices).toBeChecked();
    await section.scrollIntoViewIfNeeded();
    await shot(page, `email-profile-on-${screen.name}`);

    const alice = await browser.newContext();
    try {
      await signInAsUser(alice, base, { ownerKey: `e2e-email-alice-${run}`, name: `Alice ${run}` });
      const uploaded = await alice.request.post('/api/files/upload', {
        multipart: { file: { name: `plan-${run}.txt`, mimeType: 'text/plain', buffer: Buffer.from('The plan.\n') } },
        headers: { accept: 'application/json', origin: base },
      });
      expect(uploaded.status()).toBe(200);
      const { id: fileId } = (await uploaded.json()) as { id: string };
      const shared = await alice.request.put(`/api/files/${fileId}/shares/${bobKey}`, { data: { role: 'viewer' } });
      expect(shared.status()).toBe(201);

      const mail = await waitForMail({ to: `${bobKey}@example.test`, subject: `plan-${run}.txt` });
      expect(mail.subject).toContain('Shared with you');
      expect(mail.links).toContain(`${base}/dashboard/shared?file=${fileId}`);
      const unsubscribe = mail.links.find((link) => link.includes('/api/public/unsubscribe'));
      expect(unsubscribe).toBeDefined();
      expect(mail.header('List-Unsubscribe')).toBe(`<${unsubscribe}>`);

      await page.goto(String(unsubscribe));
      await expect(page.getByRole('heading', { name: 'Unsubscribed' })).toBeVisible();
      await expect(page.getByText('You will no longer get an email when something is shared with you.')).toBeVisible();
      await shot(page, `email-unsubscribed-${screen.name}`);

      await page.getByRole('link', { name: 'Open your profile' }).click();
      await expect(
        page.getByRole('region', { name: 'Email' }).getByRole('checkbox', { name: /shared with me/ }),
      ).not.toBeChecked();
      await page.getByRole('region', { name: 'Email' }).scrollIntoViewIfNeeded();
      await shot(page, `email-profile-off-${screen.name}`);
    } finally {
      await alice.close();
    }
  });
}
