import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';
import { expect, test } from './fixtures';
import { E2E_ADMIN_PASSWORD } from './playwright.config';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height of a PNG, read from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test('the web app manifest is linked, served as application/manifest+json, and its icons load at their sizes', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#4f46e5');

  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
  expect(manifest).toMatchObject({
    name: expect.stringContaining('Atrium'),
    short_name: 'Atrium',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#4f46e5',
    background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
  });
  for (const purpose of ['any', 'maskable']) {
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i) => i.purpose === purpose && i.sizes === `${size}x${size}`);
      expect(icon, `${purpose} ${size}`).toMatchObject({ type: 'image/png' });
      const image = await request.get(icon?.src ?? '');
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      expect(pngSize(await image.body())).toEqual({ width: size, height: size });
    }
  }
});

test('Chromium finds the dashboard installable (no installability errors), under the strict CSP', async ({
  baseURL,
}) => {
  // Installing needs a profile: a default (incognito) context reports "in-incognito" and nothing else.
  const profile = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
    });
    await page.goto('/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const cdp = await context.newCDPSession(page);
    // The manifest is fetched after load; ask until Chromium has parsed it.
    await expect
      .poll(async () => {
        const { url, errors: manifestErrors } = await cdp.send('Page.getAppManifest');
        return { url: url.endsWith('/manifest.webmanifest'), manifestErrors };
      })
      .toEqual({ url: true, manifestErrors: [] });
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    expect(errors, 'console errors (CSP violations included)').toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
