import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// Sharing with people, public links and file drop, across two signed-in people and an anonymous visitor.
// The server routes arrive from other branches: each test first asks whether its routes exist and skips
// (naming the missing route) when the server answers 404 ROUTE_NOT_FOUND. The first test needs no new route: it
// renders the dialog and the public page against answers of the contracts' shapes, for the layout checks.

const run = () => `${test.info().retry}-${test.info().repeatEachIndex}`;
const baseURL = () => String(test.info().project.use.baseURL);
const key = (name: string) => `e2e-share-${name}-${run()}`;

/** Whether the server lacks `method path` altogether (404 ROUTE_NOT_FOUND), as opposed to refusing this input. */
async function routeMissing(request: APIRequestContext, method: string, path: string): Promise<boolean> {
  const response = await request.fetch(path, {
    method,
    headers: { accept: 'application/json', origin: baseURL() },
    ...(method === 'GET' || method === 'DELETE' ? {} : { data: {} }),
  });
  if (response.status() !== 404) return false;
  const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code === 'ROUTE_NOT_FOUND';
}

async function skipWithout(request: APIRequestContext, routes: [string, string][]) {
  for (const [method, path] of routes) {
    test.skip(await routeMissing(request, method, path), `the server has no ${method} ${path} yet`);
  }
}

/** The routes every public-link test needs: creating a link and reading one. */
const LINK_ROUTES: [string, string][] = [
  ['POST', '/api/links'],
  ['GET', '/api/public/links/probe'],
];

async function person(browser: Browser, name: string, displayName: string) {
  const context = await browser.newContext({ baseURL: baseURL() });
  await signInAsUser(context, baseURL(), { ownerKey: key(name), name: displayName });
  return { context, page: await context.newPage(), ownerKey: key(name) };
}

async function upload(page: Page, userId: string, fileName: string, body: string, query = '') {
  const response = await page.request.post(`/api/files/upload?userId=${encodeURIComponent(userId)}${query}`, {
    headers: { accept: 'application/json', origin: baseURL() },
    multipart: { file: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from(body) } },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; fileName: string };
}

/** Opens the share dialog of a file from the "My files (personal)" row menu. */
async function openShareDialog(page: Page, fileName: string) {
  await page.goto('/dashboard/files');
  await page
    .getByRole('button', { name: `Actions for ${fileName}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  return page.getByRole('dialog', { name: `Share “${fileName}”` });
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('the share dialog and the public page fit 1366 and 390 px (contract-shaped answers)', async ({ page }) => {
  const me = key('layout');
  await signInAsUser(page.context(), baseURL(), { ownerKey: me, name: 'Layout Tester' });
  const file = await upload(page, me, 'quarterly-plan.txt', 'Plan for the quarter.\n');
  const user = (ownerKey: string, name: string) => ({
    ownerKey,
    name,
    nickname: null,
    email: `${ownerKey}@example.test`,
    picture: null,
  });
  await page.route(`**/api/files/${file.id}/shares`, (route) =>
    route.fulfill({
      json: {
        owner: { kind: 'user', user: user(me, 'Layout Tester') },
        shares: [
          {
            id: 's1',
            role: 'editor',
            grantee: { kind: 'user', user: user('bob', 'Bob Brown') },
            createdAt: '2026-11-20T10:00:00Z',
            createdBy: 'Layout Tester',
          },
          {
            id: 's2',
            role: 'viewer',
            grantee: { kind: 'workspace', id: 'w1', name: 'Design team' },
            createdAt: '2026-11-20T10:00:00Z',
            createdBy: 'Layout Tester',
          },
        ],
      },
    }),
  );
  await page.route('**/api/links?fileId=*', (route) =>
    route.fulfill({
      json: [
        {
          id: 'l1',
          token: 'AbCdEfGhIjKlMnOpQrStUv',
          url: '/s/AbCdEfGhIjKlMnOpQrStUv',
          fileId: file.id,
          folderId: null,
          expiresAt: '2026-12-31T23:59:59Z',
          hasPassword: true,
          maxDownloads: 10,
          downloads: 3,
          allowUpload: false,
          createdAt: '2026-11-20T10:00:00Z',
          createdBy: 'Layout Tester',
          suspended: false,
        },
      ],
    }),
  );
  await page.route('**/api/public/links/layout-token', (route) =>
    route.fulfill({
      json: {
        kind: 'folder',
        locked: false,
        allowUpload: false,
        expiresAt: null,
        folder: {
          id: 'root',
          name: 'Campaign assets with a rather long folder name',
          path: [{ id: 'root', name: 'Campaign assets with a rather long folder name' }],
          nextCursor: null,
          folders: [{ id: 'x', name: 'Drafts' }],
          files: [
            {
              id: 'a',
              fileName: 'a-very-long-file-name-for-the-launch-campaign-final-v3.pdf',
              size: 1_200_000,
              contentType: 'application/pdf',
              uploadDate: '2026-11-20T10:00:00Z',
            },
            {
              id: 'b',
              fileName: 'notes.txt',
              size: 120,
              contentType: 'text/plain',
              uploadDate: '2026-11-20T10:00:00Z',
            },
          ],
        },
      },
    }),
  );
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    const dialog = await openShareDialog(page, 'quarterly-plan.txt');
    await expect(dialog.getByRole('list', { name: 'Who has access' }).getByRole('listitem')).toHaveCount(3);
    await expect(
      dialog.getByText('Expires 12/31/2026 · Password · 3 of 10 downloads').or(dialog.getByText(/3 of 10 downloads/)),
    ).toBeVisible();
    await expect(dialog.getByLabel('Add people')).toBeFocused();
    expect(await noSidewaysScroll(page)).toBe(true);
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`share-dialog-${width}.png`) });
    await shot(page, `share-dialog-${name}`);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this link?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.screenshot({ path: test.info().outputPath(`revoke-confirm-${width}.png`) });
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Add people').focus();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Actions for quarterly-plan.txt' }).first()).toBeFocused();

    await page.goto('/s/layout-token');
    await expect(page.getByRole('heading', { name: 'Campaign assets with a rather long folder name' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download all (zip)' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`public-folder-${width}.png`), fullPage: true });
    await shot(page, `public-folder-${name}`);
  }
});

test('an owner shares a file with a teammate, who finds it in Shared with me and downloads it', async ({
  browser,
  page,
}) => {
  await skipWithout(page.request, [
    ['GET', '/api/shared-with-me'],
    ['PUT', '/api/files/probe/shares/probe'],
    ['GET', '/api/files/probe/shares'],
  ]);
  const alice = await person(browser, 'alice', `Alice ${run()}`);
  const bob = await person(browser, 'bob', `Bob Sharer ${run()}`);
  // Bob must have signed in once to be in the directory.
  await bob.page.goto('/dashboard');
  const file = await upload(alice.page, alice.ownerKey, 'budget.txt', 'rent 100\nfood 50\n');

  const dialog = await openShareDialog(alice.page, 'budget.txt');
  await dialog.getByLabel('Role for new people').selectOption('editor');
  await dialog.getByLabel('Add people').fill(`Bob Sharer ${run()}`);
  await dialog.getByRole('button', { name: new RegExp(`^Add Bob Sharer ${run()}`) }).click();
  await expect(dialog.getByLabel(`Role for Bob Sharer ${run()}`)).toHaveValue('editor');

  await bob.page.goto('/dashboard/shared');
  const files = bob.page.getByRole('list', { name: 'Shared files' });
  await expect(files.getByText('budget.txt')).toBeVisible();
  await expect(files.getByText('Editor')).toBeVisible();
  const download = bob.page.waitForEvent('download');
  await files.getByRole('link', { name: 'Download budget.txt' }).click();
  expect((await download).suggestedFilename()).toBe('budget.txt');

  // Revoked, the file leaves Bob's list and its download answers 404.
  await dialog.getByRole('button', { name: `Remove Bob Sharer ${run()}` }).click();
  await expect(dialog.getByLabel(`Role for Bob Sharer ${run()}`)).toHaveCount(0);
  await bob.page.reload();
  await expect(bob.page.getByText('Nothing is shared with you yet.')).toBeVisible();
  expect((await bob.page.request.get(`/api/files/download/${file.id}`)).status()).toBe(404);
  await alice.context.close();
  await bob.context.close();
});

test('a folder shared from the file browser opens from Shared with me, with its files', async ({ browser, page }) => {
  await skipWithout(page.request, [
    ['GET', '/api/shared-with-me'],
    ['PUT', '/api/folders/probe/shares/probe'],
  ]);
  const owner = await person(browser, 'folder-owner', `Folder Owner ${run()}`);
  const guest = await person(browser, 'folder-guest', `Folder Guest ${run()}`);
  await guest.page.goto('/dashboard');
  const created = await owner.page.request.post('/api/folders', {
    headers: { origin: baseURL() },
    data: { name: `Handover ${run()}` },
  });
  expect(created.status()).toBe(201);
  const folder = (await created.json()) as { id: string };
  await upload(owner.page, owner.ownerKey, 'handover.txt', 'Keys are in the drawer.\n', `&folderId=${folder.id}`);

  await owner.page.goto('/dashboard/spaces/personal/folders');
  await owner.page.getByRole('button', { name: `Actions for Handover ${run()}` }).click();
  await owner.page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = owner.page.getByRole('dialog', { name: `Share “Handover ${run()}”` });
  await expect(dialog.getByText('Folder', { exact: true })).toBeVisible();
  await dialog.getByLabel('Add people').fill(`Folder Guest ${run()}`);
  await dialog.getByRole('button', { name: new RegExp(`^Add Folder Guest ${run()}`) }).click();
  await expect(dialog.getByLabel(`Role for Folder Guest ${run()}`)).toHaveValue('viewer');
  await expect(dialog.getByLabel(/Allow uploads \(file drop\)/)).toBeVisible();

  await guest.page.goto('/dashboard/shared');
  await guest.page
    .getByRole('list', { name: 'Shared folders' })
    .getByRole('link', { name: `Handover ${run()}` })
    .click();
  await expect(guest.page).toHaveURL(new RegExp(`/dashboard/spaces/personal/folders/${folder.id}$`));
  await expect(guest.page.getByRole('link', { name: 'handover.txt' })).toBeVisible();
  await owner.context.close();
  await guest.context.close();
});

test('a password-protected file link: an anonymous visitor unlocks, previews and downloads; revoked, it is gone', async ({
  browser,
  page,
}) => {
  await skipWithout(page.request, [...LINK_ROUTES, ['POST', '/api/public/links/probe/unlock']]);
  const alice = await person(browser, 'linker', 'Link Owner');
  await upload(alice.page, alice.ownerKey, 'readme.txt', 'Hello from a public link.\n');
  const dialog = await openShareDialog(alice.page, 'readme.txt');
  await dialog.getByLabel(/Password/).fill('open sesame');
  await dialog.getByLabel(/Download limit/).fill('5');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const address = await dialog.getByLabel('Link address').inputValue();
  expect(address).toMatch(/\/s\/[A-Za-z0-9_-]{22,}$/);
  await expect(dialog.getByText(/Password · 0 of 5 downloads/)).toBeVisible();
  await alice.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();

  const visitor = await browser.newContext({ baseURL: baseURL() });
  const anon = await visitor.newPage();
  const answer = await anon.goto(new URL(address).pathname);
  expect(answer?.status()).toBe(200);
  await expect(anon.getByRole('heading', { name: 'This link is protected by a password.' })).toBeVisible();
  await anon.getByLabel('Password').fill('wrong');
  await anon.getByRole('button', { name: 'Open' }).click();
  await expect(anon.getByRole('alert')).toHaveText('Wrong password.');
  await anon.getByLabel('Password').fill('open sesame');
  await anon.getByRole('button', { name: 'Open' }).click();
  await expect(anon.getByRole('heading', { name: 'readme.txt' })).toBeVisible();
  await anon.getByRole('button', { name: 'Show preview' }).click();
  await expect(anon.getByTestId('text-preview')).toContainText('Hello from a public link.');
  for (const { width } of WIDTHS) {
    await anon.setViewportSize({ width, height: 844 });
    expect(await noSidewaysScroll(anon)).toBe(true);
    await anon.screenshot({ path: test.info().outputPath(`public-file-${width}.png`), fullPage: true });
  }
  const download = anon.waitForEvent('download');
  await anon.getByRole('link', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('readme.txt');

  await alice.page.reload();
  const again = await openShareDialog(alice.page, 'readme.txt');
  await again.getByRole('button', { name: 'Revoke' }).click();
  await alice.page.getByRole('button', { name: 'Revoke link' }).click();
  await expect(again.getByText('No links yet.')).toBeVisible();
  await anon.reload();
  await expect(anon.getByRole('heading', { name: 'This link is no longer available.' })).toBeVisible();
  await visitor.close();
  await alice.context.close();
});

test('a folder link lists files with a zip; a file-drop link takes anonymous uploads without listing', async ({
  browser,
  page,
}) => {
  await skipWithout(page.request, [
    ...LINK_ROUTES,
    ['POST', '/api/public/links/probe/upload'],
    ['GET', '/api/public/links/probe/zip'],
  ]);
  const owner = await person(browser, 'folders', 'Folder Owner');
  const created = await owner.page.request.post('/api/folders', {
    headers: { origin: baseURL() },
    data: { name: `Campaign ${run()}` },
  });
  expect(created.status()).toBe(201);
  const folder = (await created.json()) as { id: string };
  await upload(owner.page, owner.ownerKey, 'brief.txt', 'The brief.\n', `&folderId=${folder.id}`);
  const link = async (body: object) => {
    const response = await owner.page.request.post('/api/links', {
      headers: { origin: baseURL() },
      data: { folderId: folder.id, ...body },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { url: string }).url;
  };
  const listing = await link({});
  const drop = await link({ allowUpload: true });

  const visitor = await browser.newContext({ baseURL: baseURL() });
  const anon = await visitor.newPage();
  await anon.goto(listing);
  await expect(anon.getByRole('heading', { name: `Campaign ${run()}` })).toBeVisible();
  await expect(anon.getByRole('link', { name: 'Download brief.txt' })).toBeVisible();
  const zip = await anon.request.get(
    (await anon.getByRole('link', { name: 'Download all (zip)' }).getAttribute('href')) ?? '',
  );
  expect(zip.status()).toBe(200);
  expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');

  await anon.goto(drop);
  await expect(anon.getByRole('heading', { name: 'Upload files' })).toBeVisible();
  await expect(anon.getByText('brief.txt')).toHaveCount(0);
  await anon
    .getByLabel('Choose files')
    .setInputFiles({ name: 'dropped.txt', mimeType: 'text/plain', buffer: Buffer.from('from a visitor\n') });
  await expect(anon.getByRole('list', { name: 'Uploads' })).toContainText('dropped.txtUploaded');
  await anon.screenshot({ path: test.info().outputPath('public-drop.png'), fullPage: true });

  const contents = (await (await owner.page.request.get(`/api/folders/${folder.id}`)).json()) as {
    files: { fileName: string }[];
  };
  expect(contents.files.map((file) => file.fileName).sort()).toEqual(['brief.txt', 'dropped.txt']);

  // The owner's links list counts what arrived through the drop and names it; the name opens the viewer.
  await owner.page.goto('/dashboard/spaces/personal/folders');
  await owner.page.getByRole('button', { name: `Actions for Campaign ${run()}` }).click();
  await owner.page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = owner.page.getByRole('dialog', { name: `Share “Campaign ${run()}”` });
  await expect(dialog.getByText('File drop · No expiry · 1 file received')).toBeVisible();
  await expect(dialog.getByText('No expiry · 1 download', { exact: true })).toBeVisible();
  const arrived = dialog.getByRole('list', { name: 'Recently received' }).getByRole('link', { name: 'dropped.txt' });
  await arrived.scrollIntoViewIfNeeded();
  await owner.page.screenshot({ path: test.info().outputPath('drop-received.png') });
  await arrived.click();
  await expect(owner.page).toHaveURL(/[?&]file=/);
  await expect(dialog).toHaveCount(0);
  await owner.page.screenshot({ path: test.info().outputPath('drop-received-viewer.png') });
  // On a phone the row and the name fit the sheet.
  await owner.page.setViewportSize({ width: 390, height: 844 });
  await owner.page.goto('/dashboard/spaces/personal/folders');
  await owner.page.getByRole('button', { name: `Actions for Campaign ${run()}` }).click();
  await owner.page.getByRole('menuitem', { name: 'Share' }).click();
  await expect(dialog.getByText('File drop · No expiry · 1 file received')).toBeVisible();
  await arrived.scrollIntoViewIfNeeded();
  await expect(arrived).toBeInViewport();
  const box = await arrived.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await owner.page.screenshot({ path: test.info().outputPath('drop-received-390.png') });
  await visitor.close();
  await owner.context.close();
});
