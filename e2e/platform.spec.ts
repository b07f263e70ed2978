import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';

test('the landing page renders under the strict CSP', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await expect(page).toHaveTitle(/Atrium/);
});

test('every public route resolves, and an unknown one shows the 404 page', async ({ page }) => {
  for (const route of ['/about', '/features', '/pricing', '/contact', '/testimonials']) {
    const response = await page.goto(route);
    expect(response?.status(), route).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('the dashboard asks for a session, and the admin reaches it after signing in', async ({ page }) => {
  await page.goto('/dashboard/files');
  await expect(page).toHaveURL(/\/login$/);
  const response = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(response.status()).toBe(200);
  await page.goto('/dashboard/files');
  await expect(page).toHaveURL(/\/dashboard\/files$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the dashboard shows its frame before its JavaScript has run, on a desktop and a phone', async ({ browser }) => {
  const baseURL = String(test.info().project.use.baseURL);
  for (const [width, height, bar] of [
    [1366, 768, 'side bar'],
    [390, 844, 'top bar'],
  ] as const) {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width, height } });
    const page = await context.newPage();
    await page.goto('/dashboard/files');
    await expect(page.getByRole('status'), bar).toHaveText('Checking your session…');
    // The brand of the side bar (desktop) or the top bar (phone): one of the two shows.
    await expect(page.getByText('Atrium', { exact: true }).filter({ visible: true }), bar).toHaveCount(1);
    await context.close();
  }
});

test('API errors keep their JSON shape even where the SPA serves pages', async ({ request }) => {
  const response = await request.get('/api/nope');
  expect(response.status()).toBe(404);
  expect(await response.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
});
