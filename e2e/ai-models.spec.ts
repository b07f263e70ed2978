import type { Page } from '@playwright/test';
import { tinyGguf } from '../apps/server/test/tiny-gguf';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { WIDTHS, shot } from './screens';

const signInAsAdmin = async (page: Page) => {
  const login = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(login.status()).toBe(200);
};

// Admin → AI settings (docs/PRODUCT.md#ai-models): upload a GGUF model, use it for answers, delete it.
test.describe('AI settings: uploaded models', () => {
  for (const size of WIDTHS) {
    test(`an admin uploads a GGUF model, selects it for answers and deletes it (${size.name})`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInAsAdmin(page);
      await page.goto('/dashboard/admin/ai');
      await expect(page.getByRole('heading', { name: 'AI settings', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'AI models' })).toBeVisible();

      const name = `tiny-${size.name}-${Date.now()}.gguf`;
      await page.getByLabel('GGUF model file').setInputFiles({
        name,
        mimeType: 'application/octet-stream',
        buffer: tinyGguf(),
      });
      const item = page.getByRole('listitem', { name: `Model ${name}` });
      await expect(item).toBeVisible();
      await expect(item.getByText(/^llama · /)).toBeVisible();
      await item.getByRole('button', { name: 'Use for answers' }).click();
      await expect(page.getByText(`Uploaded model: ${name}`)).toBeVisible();
      await expect(item.getByText('Answers', { exact: true })).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await shot(page, `admin-ai-models-${size.name}`);

      // Junk is refused with the product's message and nothing is listed.
      await page.getByLabel('GGUF model file').setInputFiles({
        name: 'notes.gguf',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('these are notes, not a model'),
      });
      await expect(page.getByText('This is not a GGUF model file.')).toBeVisible();
      await expect(page.getByRole('listitem', { name: 'Model notes.gguf' })).toHaveCount(0);

      await item.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(item).toHaveCount(0);
      await expect(page.getByText(`Uploaded model: ${name}`)).toHaveCount(0);
    });
  }
});
