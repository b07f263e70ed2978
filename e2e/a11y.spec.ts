import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { WIDTHS } from './screens';
import { signInAsUser } from './users';

/**
 * axe-core over the screens people use, signed in and out, at 1366 and 390 px: no critical and no serious
 * violation. One row per screen: who looks (`visitor`, `user`, `admin`), where, and what to open first (a menu, a
 * dialog). Add a screen by adding a row.
 */

interface Fixture {
  ownerKey: string;
  workspaceId: string;
  fileName: string;
  fileId: string;
  fileLink: string;
  folderLink: string;
  dropLink: string;
}

interface Screen {
  name: string;
  as: 'visitor' | 'user' | 'admin';
  path: (fixture: Fixture) => string;
  /** What to open before looking (a row menu, the grid view, a dialog); the page has loaded. */
  open?: (page: Page, fixture: Fixture) => Promise<void>;
  /** What shows the screen is ready. */
  ready: (page: Page) => ReturnType<Page['getByRole']>;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).first();

const openRowMenu = async (page: Page, fixture: Fixture) => {
  await page
    .getByRole('button', { name: `Actions for ${fixture.fileName}` })
    .first()
    .click();
  await expect(page.getByRole('menu')).toBeVisible();
};

export const SCREENS: Screen[] = [
  { name: 'login', as: 'visitor', path: () => '/login', ready: heading('Sign in') },
  { name: 'home', as: 'visitor', path: () => '/', ready: (page) => page.getByRole('main') },
  { name: 'about', as: 'visitor', path: () => '/about', ready: (page) => page.getByRole('main') },
  { name: 'features', as: 'visitor', path: () => '/features', ready: (page) => page.getByRole('main') },
  { name: 'pricing', as: 'visitor', path: () => '/pricing', ready: (page) => page.getByRole('main') },
  { name: 'contact', as: 'visitor', path: () => '/contact', ready: (page) => page.getByRole('main') },
  {
    name: 'public file link',
    as: 'visitor',
    path: (f) => f.fileLink,
    ready: (page) => page.getByRole('link', { name: 'Download' }),
  },
  {
    name: 'public folder link',
    as: 'visitor',
    path: (f) => f.folderLink,
    ready: heading(/^Shared /),
  },
  {
    name: 'public file link in the viewer',
    as: 'visitor',
    path: (f) => `${f.fileLink}?file=link`,
    ready: (page) => page.getByRole('dialog', { name: 'accessible brief.txt' }),
  },
  { name: 'file-drop page', as: 'visitor', path: (f) => f.dropLink, ready: heading('Upload files') },
  { name: 'dashboard home', as: 'user', path: () => '/dashboard', ready: (page) => page.getByRole('main') },
  {
    name: 'file browser list with a menu open',
    as: 'user',
    path: () => '/dashboard/spaces/personal/folders',
    open: openRowMenu,
    ready: (page) => page.getByRole('main'),
  },
  {
    name: 'file browser grid with a menu open',
    as: 'user',
    path: () => '/dashboard/spaces/personal/folders',
    open: async (page, fixture) => {
      await page.getByRole('button', { name: 'Grid' }).click();
      await openRowMenu(page, fixture);
    },
    ready: (page) => page.getByRole('main'),
  },
  {
    name: 'share dialog',
    as: 'user',
    path: () => '/dashboard/files',
    open: async (page, fixture) => {
      await openRowMenu(page, fixture);
      await page.getByRole('menuitem', { name: 'Share' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
    ready: (page) => page.getByRole('main'),
  },
  {
    name: 'file viewer',
    as: 'user',
    path: (f) => `/dashboard/spaces/personal/folders?file=${f.fileId}`,
    ready: (page) => page.getByRole('dialog', { name: 'accessible brief.txt' }),
  },
  {
    name: 'activity',
    as: 'user',
    path: (f) => `/dashboard/activity?workspace=${f.workspaceId}`,
    ready: heading('Activity'),
  },
  { name: 'starred', as: 'user', path: () => '/dashboard/starred', ready: heading('Starred') },
  { name: 'recent', as: 'user', path: () => '/dashboard/recent', ready: heading('Recent') },
  { name: 'shared with me', as: 'user', path: () => '/dashboard/shared', ready: heading(/Shared with me/) },
  { name: 'members', as: 'user', path: (f) => `/dashboard/spaces/${f.workspaceId}/members`, ready: heading(/Members/) },
  {
    name: 'search',
    as: 'user',
    path: (f) => `/dashboard/search?q=${encodeURIComponent(f.fileName)}`,
    ready: heading('Search'),
  },
  { name: 'notifications', as: 'user', path: () => '/dashboard/notifications', ready: heading('Notifications') },
  { name: 'People', as: 'user', path: () => '/dashboard/spaces/personal/people', ready: heading(/People/) },
  { name: 'trash', as: 'user', path: () => '/dashboard/trash', ready: heading('Trash') },
  { name: 'admin users', as: 'admin', path: () => '/dashboard/admin/users', ready: heading('Users') },
  { name: 'admin audit log', as: 'admin', path: () => '/dashboard/admin/audit', ready: heading('Audit log') },
  { name: 'admin system', as: 'admin', path: () => '/dashboard/admin/system', ready: heading('System') },
];

// One per worker: two workers loading this file in the same millisecond shared an owner, and the second upload of
// the fixture's file was named "accessible brief (1).txt".
const run = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

async function post(request: APIRequestContext, baseURL: string, url: string, data: object) {
  const response = await request.post(url, { headers: { origin: baseURL }, data });
  expect(response.status(), url).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A user with a file, a workspace, and a file, folder and file-drop link of theirs. */
async function makeFixture(context: BrowserContext, baseURL: string): Promise<Fixture> {
  const ownerKey = `a11y-${run}`;
  await signInAsUser(context, baseURL, { ownerKey, name: 'Ada Access' });
  const { request } = context;
  const fileName = 'accessible brief.txt';
  const uploaded = await request.post(`/api/files/upload?userId=${ownerKey}`, {
    headers: { accept: 'application/json', origin: baseURL },
    multipart: { file: { name: fileName, mimeType: 'text/plain', buffer: Buffer.from('A brief for everyone.\n') } },
  });
  expect(uploaded.status()).toBe(200);
  const file = (await uploaded.json()) as { id: string };
  const folder = await post(request, baseURL, '/api/folders', { name: `Shared ${run}` });
  const workspace = await post(request, baseURL, '/api/workspaces', { name: `Access ${run}` });
  const link = async (body: object) => String((await post(request, baseURL, '/api/links', body)).url);
  return {
    ownerKey,
    workspaceId: String(workspace.id),
    fileName,
    fileId: file.id,
    fileLink: await link({ fileId: file.id }),
    folderLink: await link({ folderId: folder.id }),
    dropLink: await link({ folderId: folder.id, allowUpload: true }),
  };
}

let fixture: Fixture | undefined;

for (const { width, height } of WIDTHS) {
  test.describe(`accessibility at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    for (const screen of SCREENS) {
      test(`${screen.name} (${screen.as}): no critical or serious violations`, async ({ browser, baseURL }) => {
        const base = String(baseURL);
        if (!fixture) {
          const owner = await browser.newContext({ baseURL: base });
          fixture = await makeFixture(owner, base);
          await owner.close();
        }
        const context = await browser.newContext({ baseURL: base, viewport: { width, height } });
        if (screen.as === 'user') await signInAsUser(context, base, { ownerKey: fixture.ownerKey, name: 'Ada Access' });
        if (screen.as === 'admin')
          await signInAsUser(context, base, { ownerKey: `a11y-admin-${run}`, name: 'Alan Admin', role: 'admin' });
        const page = await context.newPage();
        await page.goto(screen.path(fixture));
        await expect(screen.ready(page)).toBeVisible();
        await screen.open?.(page, fixture);
        const results = await new AxeBuilder({ page }).analyze();
        const blocking = results.violations
          .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
          }));
        expect(blocking).toEqual([]);
        await context.close();
      });
    }
  });
}
