import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

/**
 * Second factors (docs/PRODUCT.md#second-factors) with the built-in admin: set up an authenticator app from
 * Profile → Sign-in security (codes from Debian's oathtool, reading the key on the screen), sign out, sign in with
 * the password and a code, then with a recovery code, and turn the app off. Serial: one admin for both widths.
 */
test.describe.configure({ mode: 'serial' });

const oathtool = (secret: string, at = Date.now()) =>
  execFileSync('oathtool', ['--totp', '-b', secret, '--now', `@${Math.floor(at / 1000)}`], {
    encoding: 'utf8',
  }).trim();

/** Waits for the next 30-s step: each code is taken once, so a new sign-in needs a new step. */
const nextStep = (page: Page) => page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500);

async function signInWithPassword(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function signOut(page: Page) {
  expect((await page.request.post('/api/auth/logout')).status()).toBe(200);
}

for (const { name: screen, width, height } of WIDTHS) {
  test(`authenticator app: set up, sign in with a code and a recovery code, turn off (${width} px)`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height });
    await signInWithPassword(page);
    await expect(page).toHaveURL(/\/dashboard/);

    await page.goto('/dashboard/profile');
    const security = page.getByRole('region', { name: 'Sign-in security' });
    await expect(security.getByText('Off.')).toBeVisible();
    await security.getByRole('button', { name: 'Set up authenticator app' }).click();
    await expect(security.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await security.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, `factors-enrol-${screen}`);

    await security.getByLabel('Code from the app').fill('000000');
    await security.getByRole('button', { name: 'Turn on' }).click();
    await expect(security.getByText('That code is not right.')).toBeVisible();
    await security.getByLabel('Code from the app').fill(oathtool(secret));
    await security.getByRole('button', { name: 'Turn on' }).click();
    const codes = security.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.allTextContents()).map((code) => code.trim());
    await expect(security.getByRole('button', { name: 'Copy' })).toBeVisible();
    await expect(security.getByRole('link', { name: 'Download' })).toBeVisible();
    await shot(page, `factors-recovery-codes-${screen}`);
    await security.getByRole('button', { name: 'Done' }).click();
    await expect(security.getByText('On. 10 of 10 recovery codes left.')).toBeVisible();

    // Password, then the code step.
    await signOut(page);
    await signInWithPassword(page);
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    const codeField = page.getByLabel('Authentication code');
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(codeField).toBeFocused();
    await codeField.fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'That code is not right. Check your authenticator app and try again.',
    );
    await shot(page, `factors-login-code-${screen}`);
    await nextStep(page);
    await codeField.fill(oathtool(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard/);

    // Password, then a recovery code.
    await signOut(page);
    await signInWithPassword(page);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0] ?? '');
    await shot(page, `factors-login-recovery-${screen}`);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard/);

    // Turn the app off: it asks for the password (a code read off the phone is not enough); then the password alone
    // signs in again.
    await page.goto('/dashboard/profile');
    await expect(security.getByText('On. 9 of 10 recovery codes left.')).toBeVisible();
    await security.getByRole('button', { name: 'Turn off' }).click();
    const password = security.getByLabel('Your password');
    await expect(password).toHaveAttribute('type', 'password');
    await password.fill('not-the-password');
    await security.getByRole('button', { name: 'Turn off' }).click();
    await expect(security.getByText('That password is not right.')).toBeVisible();
    await shot(page, `factors-turn-off-${screen}`);
    await security.getByLabel('Your password').fill(E2E_ADMIN_PASSWORD);
    await security.getByRole('button', { name: 'Turn off' }).click();
    await expect(security.getByText('Off.')).toBeVisible();
    await signOut(page);
    await signInWithPassword(page);
    await expect(page).toHaveURL(/\/dashboard/);
  });
}

for (const { name: screen, width, height } of WIDTHS) {
  test(`passkey: add, sign in with it alone, remove (${width} px)`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height });
    // Chromium's virtual authenticator stands in for the device's (CDP WebAuthn domain).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await signInWithPassword(page);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto('/dashboard/profile');
    const security = page.getByRole('region', { name: 'Sign-in security' });
    await expect(security.getByText('No passkeys yet.')).toBeVisible();
    await security.getByRole('button', { name: 'Add a passkey' }).click();
    // Added; its name field opens at once.
    const name = security.getByLabel('Passkey name');
    await expect(name).toHaveValue('Passkey 1');
    await name.fill(`Laptop ${screen}`);
    await security.getByRole('button', { name: 'Save' }).click();
    const list = security.getByRole('list', { name: 'Passkeys' });
    await expect(list.getByText(`Laptop ${screen}`)).toBeVisible();
    await expect(list.getByText('not used yet')).toBeVisible();
    await shot(page, `factors-passkeys-${screen}`);

    // Signed out, the passkey alone signs in: no password, no code.
    await signOut(page);
    await page.goto('/login');
    await shot(page, `factors-login-passkey-${screen}`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toHaveCount(0);

    await page.goto('/dashboard/profile');
    await expect(list.getByText(/last used/)).toBeVisible();
    await security.getByRole('button', { name: `Remove Laptop ${screen}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove passkey' }).click();
    await expect(security.getByText('No passkeys yet.')).toBeVisible();

    // Removed: the browser's passkey no longer signs in.
    await signOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'That passkey could not be used to sign in. Try again or use your password.',
    );
  });
}

for (const { name: screen, width, height } of WIDTHS) {
  test(`policy: admins must have a second factor; the sign-in sets one up (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signInWithPassword(page);
    await expect(page).toHaveURL(/\/dashboard/);
    await page.goto('/dashboard/admin/system');
    const admins = page.getByRole('radio', { name: /^Admins/ });
    await admins.click();
    await expect(admins).toBeChecked();
    await shot(page, `factors-policy-${screen}`);
    await page.reload();
    await expect(page.getByRole('radio', { name: /^Admins/ })).toBeChecked();

    // The admin has no factor: after the password, the sign-in sets one up.
    await signOut(page);
    await signInWithPassword(page);
    await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await page.locator('main code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Authentication code').fill(oathtool(secret));
    await shot(page, `factors-login-enrol-${screen}`);
    await page.getByRole('button', { name: 'Verify' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await page.getByRole('button', { name: 'I saved them, continue' }).click();
    await expect(page).toHaveURL(/\/dashboard/);

    // Back to how it was: policy off, app off (with the password).
    expect((await page.request.put('/api/admin/second-factor-policy', { data: { policy: 'nobody' } })).status()).toBe(
      200,
    );
    expect((await page.request.delete('/api/me/totp', { data: { password: E2E_ADMIN_PASSWORD } })).status()).toBe(200);
  });
}

for (const { name: screen, width, height } of WIDTHS) {
  test(`policy: the held sign-in may add a passkey instead of an app (${width} px)`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const run = `${Date.now().toString(36)}${test.info().retry}${screen}`;
    const base = String(baseURL);
    // A local admin of its own (the built-in admin keeps no passkey from this test).
    await signInAsUser(page.context(), base, { ownerKey: `e2e-enrol-admin-${run}`, role: 'admin' });
    const created = await page.request.post('/api/admin/users', {
      data: { username: `kit-${run}`, name: 'Kit Admin', role: 'admin' },
    });
    expect(created.status()).toBe(201);
    const { url } = (await created.json()) as { url: string };
    const token = url.split('/reset-password/')[1] ?? '';
    const password = 'juniper-harbor-signal-58';
    expect((await page.request.post(`/api/public/password-reset/${token}`, { data: { password } })).status()).toBe(200);
    expect((await page.request.put('/api/admin/second-factor-policy', { data: { policy: 'admins' } })).status()).toBe(
      200,
    );
    try {
      const kit = await browser.newContext({ baseURL: base });
      const kitPage = await kit.newPage();
      await kitPage.setViewportSize({ width, height });
      const cdp = await kit.newCDPSession(kitPage);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });
      await kitPage.goto('/login');
      await kitPage.getByLabel('Username').fill(`kit-${run}`);
      await kitPage.getByLabel('Password').fill(password);
      await kitPage.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect(kitPage.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
      const instead = kitPage.getByRole('button', { name: 'Add a passkey instead' });
      await expect(instead).toBeVisible();
      await shot(kitPage, `factors-login-enrol-passkey-${screen}`);
      await instead.click();
      await expect(kitPage).toHaveURL(/\/dashboard/);

      // From now on the passkey alone signs Kit in.
      expect((await kitPage.request.post('/api/auth/logout')).status()).toBe(200);
      await kitPage.goto('/login');
      await kitPage.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(kitPage).toHaveURL(/\/dashboard/);
      await kit.close();
    } finally {
      await page.request.put('/api/admin/second-factor-policy', { data: { policy: 'nobody' } });
    }
  });
}
