import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser } from './users';

// The file browser's menus and quick edits (docs/PRODUCT.md#spaces-screens): every menu item reachable on the last
// row and on every grid card, right-click, the phone toolbar, Undo for move and rename, a taken folder name asked
// about, a zip named after its folder, and a search result's file selected.

const ENTRIES = 28;

/** A screenshot of what is on screen (a full-page one resizes the viewport, which would move an open menu). */
async function screenShot(page: Page, file: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${file}.png` });
}
const name = (n: number) => `file-${String(n).padStart(2, '0')}.txt`;

/** Every item of the open menu: its label, whether the point at its centre is the item, and whether it is on screen. */
const openMenuItems = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[role="menu"] [role="menuitem"]')).map((item) => {
      const box = item.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return {
        label: item.textContent?.trim() ?? '',
        hit: hit !== null && item.contains(hit),
        onScreen: box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth,
      };
    }),
  );

const ALL_ITEMS = ['Open', 'Download', 'Versions', 'Details', 'Star', 'Rename', 'Move', 'Share', 'Delete'];

async function expectEveryItemReachable(page: Page) {
  await expect(page.getByRole('menu')).toBeVisible();
  const items = await openMenuItems(page);
  expect(items.map((item) => item.label)).toEqual(ALL_ITEMS);
  for (const item of items) expect(item, `menu item ${item.label}`).toEqual({ ...item, hit: true, onScreen: true });
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`file browser menus at ${width} px`, () => {
    test.use({ viewport: { width, height } });
    test.describe.configure({ timeout: 180_000 });

    test('every menu item is reachable on the last row and on every grid card; right-click opens it', async ({
      page,
      baseURL,
    }) => {
      await signInAsNewUser(page.context(), baseURL, `e2e-menus-${screen}`, 'Mona');
      const spaces = (await (await page.request.get('/api/spaces')).json()) as { rootFolderId: string }[];
      const root = spaces[0]?.rootFolderId ?? '';
      for (let n = 1; n <= ENTRIES; n++) {
        const uploaded = await page.request.post(`/api/files/upload?folderId=${root}`, {
          headers: { accept: 'application/json' },
          multipart: { file: { name: name(n), mimeType: 'text/plain', buffer: Buffer.from(`entry ${n}\n`) } },
        });
        expect(uploaded.status()).toBe(200);
      }
      await page.goto('/dashboard/spaces/personal/folders');
      const last = name(ENTRIES);
      await expect(page.getByRole('link', { name: last })).toBeVisible();
      // The list is longer than the screen: the page scrolls.
      expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);

      if (width < 640) {
        // Phone: the toolbar is one row, and the list starts in the upper half of the screen.
        const toolbar = page.getByTestId('folder-toolbar');
        expect((await toolbar.boundingBox())?.height ?? 0).toBeLessThanOrEqual(44);
        const firstRow = page.getByRole('list', { name: 'Folder contents' }).getByRole('listitem').first();
        expect((await firstRow.boundingBox())?.y ?? height).toBeLessThan(height / 2);
        // Sort and filter are behind More.
        await expect(page.getByLabel('Sort by')).toHaveCount(0);
        await page.getByRole('button', { name: 'More' }).click();
        await expect(page.getByLabel('Sort by')).toBeVisible();
        await page.getByRole('button', { name: 'More' }).click();
        await shot(page, `menus-toolbar-${screen}`);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // The last row, scrolled to the bottom of the screen: the menu flips upward, every item can be clicked.
      const lastButton = page.getByRole('button', { name: `Actions for ${last}` });
      await lastButton.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await lastButton.click();
      await expectEveryItemReachable(page);
      await screenShot(page, `menus-last-row-${screen}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
      await expect(lastButton).toBeFocused();

      // By keyboard: ArrowUp opens on the last item, End and Home move.
      await page.keyboard.press('ArrowUp');
      await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
      await page.keyboard.press('Home');
      await expect(page.getByRole('menuitem', { name: 'Open' })).toBeFocused();
      await page.keyboard.press('Escape');

      // A right-click on the row opens the same menu at the pointer.
      const row = page.getByRole('link', { name: last });
      await row.click({ button: 'right' });
      await expectEveryItemReachable(page);
      await page.getByRole('menuitem', { name: 'Details' }).click();
      await expect(page.getByRole('dialog', { name: new RegExp(last) })).toBeVisible();
      await page.keyboard.press('Escape');

      // The grid: every card's menu, each item reachable.
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
      const cards = page.getByTestId('grid-card');
      await expect(cards).toHaveCount(ENTRIES);
      for (let n = 1; n <= ENTRIES; n++) {
        const button = page.getByRole('button', { name: `Actions for ${name(n)}` });
        await button.scrollIntoViewIfNeeded();
        await button.click();
        await expectEveryItemReachable(page);
        if (n === ENTRIES) await screenShot(page, `menus-grid-card-${screen}`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toBeHidden();
      }
      // Right-click on a card, and a click elsewhere closes it.
      await cards.last().click({ button: 'right' });
      await expectEveryItemReachable(page);
      await page.getByRole('heading', { level: 1 }).click();
      await expect(page.getByRole('menu')).toBeHidden();
    });

    test('move and rename answer with Undo; a taken folder name asks; zip and delete; a search result is selected', async ({
      page,
      baseURL,
    }) => {
      await signInAsNewUser(page.context(), baseURL, `e2e-quick-${screen}`, 'Quinn');
      const spaces = (await (await page.request.get('/api/spaces')).json()) as { rootFolderId: string }[];
      const root = spaces[0]?.rootFolderId ?? '';
      const made = await page.request.post('/api/folders', { data: { name: 'Brand', parentId: root } });
      expect(made.status()).toBe(201);
      const ids: Record<string, string> = {};
      for (const file of ['report.final.pdf', 'notes.txt', 'plan.txt']) {
        const uploaded = await page.request.post(`/api/files/upload?folderId=${root}`, {
          headers: { accept: 'application/json' },
          multipart: { file: { name: file, mimeType: 'text/plain', buffer: Buffer.from(file) } },
        });
        ids[file] = ((await uploaded.json()) as { id: string }).id;
      }
      await page.goto('/dashboard/spaces/personal/folders');
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

      // Rename selects the base name: typing replaces it and keeps the extension. Undo renames it back.
      await page.getByRole('button', { name: 'Actions for report.final.pdf' }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename file' });
      await expect(rename.getByLabel('New name')).toBeFocused();
      await page.keyboard.type('summary');
      await expect(rename.getByLabel('New name')).toHaveValue('summary.pdf');
      await page.keyboard.press('Enter');
      await expect(page.getByText('Renamed report.final.pdf to summary.pdf.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'summary.pdf' })).toBeVisible();
      await shot(page, `quick-rename-undo-${screen}`);
      await page.getByRole('button', { name: 'Undo: rename summary.pdf back to report.final.pdf' }).click();
      await expect(page.getByText('Renamed back to report.final.pdf.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'report.final.pdf' })).toBeVisible();

      // Move into Brand, then Undo moves it back.
      await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
      await page.getByRole('menuitem', { name: 'Move' }).click();
      const move = page.getByRole('dialog', { name: 'Move “notes.txt”' });
      await move.getByRole('button', { name: 'Brand' }).click();
      await expect(move.locator('[aria-current="location"]')).toHaveText('Brand');
      await move.getByRole('button', { name: 'Move here' }).click();
      await expect(page.getByText('Moved notes.txt to Brand.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeHidden();
      await page.getByRole('button', { name: 'Undo: move notes.txt back' }).click();
      await expect(page.getByText('Moved notes.txt back.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

      // A new folder with a taken name asks; Keep both makes "Brand (1)".
      await page.getByRole('button', { name: 'New folder' }).click();
      const create = page.getByRole('dialog', { name: 'New folder' });
      await create.getByLabel('Folder name').fill('brand');
      await create.getByLabel('Folder name').press('Enter');
      await expect(
        create.getByText('A folder named “brand” already exists here. Choose another name, or keep both.'),
      ).toBeVisible();
      await shot(page, `quick-folder-taken-${screen}`);
      await create.getByRole('button', { name: 'Keep both' }).click();
      await expect(create).toBeHidden();
      await expect(page.getByRole('link', { name: 'brand (1)' })).toBeVisible();

      // A zip of two files of the personal root is named after the space.
      await page.getByRole('checkbox', { name: 'Select plan.txt' }).click();
      await page.getByRole('checkbox', { name: 'Select notes.txt' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download as zip' }).click();
      expect((await download).suggestedFilename()).toBe('Personal.zip');
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // Delete: the confirmation, then it is gone (no second step).
      await page.getByRole('button', { name: 'Actions for plan.txt' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete file?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('link', { name: 'plan.txt' })).toBeHidden();
      await expect(page.getByText('Deleted plan.txt.')).toBeVisible();

      // A search result's Go to folder: its folder opens with the row selected and in view.
      await page.goto('/dashboard/search?q=notes');
      const result = page.getByRole('link', { name: 'Go to folder of notes.txt' });
      await expect(result).toHaveAttribute(
        'href',
        `/dashboard/spaces/personal/folders/${root}?select=${ids['notes.txt']}`,
      );
      await result.click();
      const box = page.getByRole('checkbox', { name: 'Select notes.txt' });
      await expect(box).toBeChecked();
      await expect(box).toBeInViewport();
      await expect(page.getByText('1 item selected')).toBeVisible();
      await shot(page, `quick-search-select-${screen}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  });
}
