import { expect, type Page } from '@playwright/test';

/**
 * Opens a page and waits until the app is interactive: public pages arrive
 * prerendered, and their buttons work once React has rendered (html[data-app="ready"]).
 */
export async function open(page: Page, url: string) {
  const response = await page.goto(url);
  await expect(page.locator('html[data-app="ready"]')).toHaveCount(1);
  return response;
}
