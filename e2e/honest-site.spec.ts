import { expect, test } from './fixtures';
import { open } from './ready';
import { shot, WIDTHS } from './screens';

for (const size of WIDTHS) {
  test(`pricing keeps the spec prices, lists projects as included and says where sign-up leads (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await open(page, '/pricing');
    const free = page.getByTestId('plan-free');
    await expect(free).toContainText('$0/mo');
    await expect(page.getByTestId('plan-pro')).toContainText('$19/mo');
    await expect(free.getByRole('list').first()).toContainText('Up to 3 projects');
    await expect(page.getByRole('list', { name: 'Coming soon to the Pro plan' })).toHaveText('Advanced analytics');
    await expect(free).toContainText('Your first sign-in with your identity provider creates your account.');
    await expect(page.getByText('What does a self-hosted install include?')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, `pricing-${size.name}`);
    await page.getByRole('link', { name: /Ask about Pro/ }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByText('Nothing is sent by email')).toBeVisible();
    await shot(page, `contact-${size.name}`);
  });
}
