import sharp from 'sharp';
import { pdfWithText } from '../apps/server/test/analysis-fixtures';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser } from './users';

/** The personal space's root folder. */
const home = '/dashboard/spaces/personal/folders';

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`grid view at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('switch to the grid: image and PDF thumbnails, icons otherwise; the grid stays after a reload', async ({
      context,
      page,
      baseURL,
    }) => {
      // Three uploads and two thumbnails made by child processes: more than the default 30 s on a busy machine.
      test.slow();
      await signInAsNewUser(context, baseURL, `e2e-grid-${screen}`, 'Greta');
      await page.goto(home);
      await expect(page.getByText('This folder is empty.')).toBeVisible({ timeout: 30_000 });
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#0ea5e9' } })
        .jpeg()
        .toBuffer();
      await page.getByTestId('upload-input').setInputFiles([
        { name: 'lake.jpg', mimeType: 'image/jpeg', buffer: photo },
        { name: 'handbook.pdf', mimeType: 'application/pdf', buffer: pdfWithText('Team handbook') },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain notes\n') },
      ]);
      for (const name of ['lake.jpg', 'handbook.pdf', 'notes.txt'])
        await expect(page.getByRole('link', { name })).toBeVisible();

      const view = page.getByRole('group', { name: 'View' });
      await expect(view.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
      await view.getByRole('button', { name: 'Grid' }).click();
      await expect(view.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');

      const grid = page.getByRole('list', { name: 'Folder contents' });
      const card = (name: string) => grid.getByTestId('grid-card').filter({ hasText: name });
      // The image's and the PDF's thumbnails really load (a broken one would fall back to an icon).
      for (const name of ['lake.jpg', 'handbook.pdf']) {
        const img = card(name).getByTestId('grid-thumbnail');
        await expect(img).toBeVisible();
        await expect
          .poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
          .toBeGreaterThan(0);
      }
      await expect(card('notes.txt').getByTestId('grid-icon')).toBeVisible();
      // Phones get two columns, nothing scrolls sideways.
      const boxes = await grid
        .getByTestId('grid-card')
        .evaluateAll((cards) => cards.map((element) => element.getBoundingClientRect().top));
      if (width < 640) expect(boxes[0]).toBe(boxes[1]);
      if (width < 640) expect(boxes[2]).toBeGreaterThan(boxes[0] ?? 0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Keyboard: Space on a focused card selects it; the row menu works in the grid.
      await card('notes.txt').getByRole('link', { name: 'notes.txt' }).focus();
      await page.keyboard.press('Space');
      await expect(page.getByRole('checkbox', { name: 'Select notes.txt' })).toBeChecked();
      await shot(page, `grid-${screen}`);
      await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
      await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
      await page.keyboard.press('Escape');

      // Remembered on the server: a reload (and any other browser) opens the grid.
      await page.reload();
      await expect(page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(card('lake.jpg').getByTestId('grid-thumbnail')).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
    });
  });
}
