import sharp from 'sharp';
import { expect, test } from './fixtures';
import { signInAsUser } from './users';

/** A PNG with `text` drawn in black on white. */
const pngWithText = (text: string) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="220">
      <rect width="100%" height="100%" fill="white"/>
      <text x="40" y="140" font-family="DejaVu Sans" font-size="96" fill="black">${text}</text></svg>`),
  )
    .png()
    .toBuffer();

for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`an uploaded image's text shows in its insights, selectable and copyable (${label})`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    const owner = `e2e-insights-${label}-${test.info().retry}-${test.info().repeatEachIndex}`;
    await signInAsUser(page.context(), String(test.info().project.use.baseURL), { ownerKey: owner });
    await page.goto('/dashboard/file-upload');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'sign.png', mimeType: 'image/png', buffer: await pngWithText('Lighthouse 42') });
    const answered = page.waitForResponse(
      (response) => response.url().includes('/api/files/upload') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await answered).status()).toBe(200);

    await page.goto('/dashboard/file-preview');
    await page.getByRole('button', { name: /^sign\.png/ }).click();
    const insights = page.getByRole('region', { name: 'Insights' });
    await expect(insights).toBeVisible();
    // The first image analysis loads the models: give it time.
    const text = insights.getByRole('textbox', { name: 'Text in this file' });
    await expect(text).toHaveValue(/Lighthouse/i, { timeout: 200_000 });
    await expect(insights.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });
}
