import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';

const CLIENT = 'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, e2e)';

for (const { name: screen, width, height } of WIDTHS) {
  test(`a Nextcloud client signs in with Login Flow v2: sign in, grant, poll (${width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height });
    // The client starts the flow and polls: nothing until the person grants it.
    const started = await page.request.post(`${baseURL}/index.php/login/v2`, { headers: { 'user-agent': CLIENT } });
    expect(started.status()).toBe(200);
    const flow = (await started.json()) as { poll: { token: string; endpoint: string }; login: string };
    const poll = () => page.request.post(flow.poll.endpoint, { form: { token: flow.poll.token } });
    expect((await poll()).status()).toBe(404);

    // The browser opens the login URL: signed out, it signs in first and comes back to the grant page.
    await page.goto(flow.login);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/connect-app\/[0-9a-f]{64}$/);
    await expect(page.getByRole('heading', { name: 'Connect an app' })).toBeVisible();
    await expect(page.getByText(`Grant access to ${CLIENT}`)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `nextcloud-login-grant-${screen}`);
    await page.getByRole('button', { name: 'Grant access' }).click();
    await expect(page.getByText('Access granted. You can close this window and go back to the app.')).toBeVisible();
    await shot(page, `nextcloud-login-granted-${screen}`);

    // The client's next poll gets an app password, once; it opens the WebDAV tree.
    const granted = await poll();
    expect(granted.status()).toBe(200);
    const answer = (await granted.json()) as { server: string; loginName: string; appPassword: string };
    expect(answer.loginName).toBe('admin');
    expect((await poll()).status()).toBe(404);
    const listing = await page.request.fetch(`${baseURL}/remote.php/dav/files/admin/`, {
      method: 'PROPFIND',
      headers: {
        depth: '0',
        authorization: `Basic ${Buffer.from(`admin:${answer.appPassword}`).toString('base64')}`,
      },
    });
    expect(listing.status()).toBe(207);

    // The page again: the request was used.
    await page.reload();
    await expect(
      page.getByText('This sign-in request has expired or was already used. Start again in the app.'),
    ).toBeVisible();
    // The new app password is listed in the profile under the client's name.
    await page.goto('/dashboard/profile');
    const list = page.getByRole('region', { name: 'App passwords' }).getByRole('list', { name: 'App passwords' });
    await expect(list.getByText(CLIENT).first()).toBeVisible();
  });
}
