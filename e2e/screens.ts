import type { Page } from '@playwright/test';

/** The two widths every changed screen is checked at. */
export const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

/** A full-page screenshot into E2E_SCREENSHOTS, when that folder is given (for looking at changed screens). */
export async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
