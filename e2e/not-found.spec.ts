import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { open } from './ready';

for (const size of WIDTHS) {
  test(`an unknown public path answers 404 with the site's own not-found page (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    const response = await open(page, '/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('Page not found · Atrium');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    // The public site's header and its way home.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Atrium' }).first()).toBeVisible();
    await shot(page, `not-found-public-${size.name}`);
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test(`an unknown dashboard path shows the dashboard's not-found page, leading back to the dashboard (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await page.goto('/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const response = await page.goto('/dashboard/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await shot(page, `not-found-dashboard-${size.name}`);
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
}

test('known routes still answer 200', async ({ request }) => {
  for (const url of [
    '/',
    '/about',
    '/pricing',
    '/login',
    '/dashboard',
    '/dashboard/files',
    '/dashboard/file-download/x',
  ]) {
    expect((await request.get(url)).status(), url).toBe(200);
  }
});
