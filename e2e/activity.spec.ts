import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// Activity and Starred (docs/PRODUCT.md#activity, #starred-and-recent): an owner sees an upload by another member of
// her workspace with his display name, filters the feed by person, stars the file from its row menu and finds it in
// Starred — at 1366 and 390 px.

const baseURL = () => String(test.info().project.use.baseURL);

async function person(browser: Browser, ownerKey: string, name: string, width: number, height: number) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height } });
  await signInAsUser(context, baseURL(), { ownerKey, name });
  return { context, page: await context.newPage(), ownerKey, name };
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`activity and starred at ${width} px`, () => {
    test.describe.configure({ timeout: 90_000 });

    test('shows a member’s upload by name, filters by person, and a starred file appears in Starred', async ({
      browser,
    }) => {
      const run = `${Date.now().toString(36)}${test.info().retry}${screen}`;
      const alice = await person(browser, `e2e-act-alice-${run}`, `Alice ${run}`, width, height);
      const bob = await person(browser, `e2e-act-bob-${run}`, `Bob ${run}`, width, height);
      const origin = { origin: baseURL() };

      const created = await alice.page.request.post('/api/workspaces', {
        headers: origin,
        data: { name: `Design ${run}` },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const added = await alice.page.request.put(`/api/workspaces/${id}/members/${bob.ownerKey}`, {
        headers: origin,
        data: { role: 'editor' },
      });
      expect(added.status()).toBe(200);
      for (const [who, file] of [
        [bob, 'brief.txt'],
        [alice, 'plan.txt'],
      ] as const) {
        const uploaded = await who.page.request.post(`/api/files/upload?workspaceId=${id}`, {
          headers: { ...origin, accept: 'application/json' },
          multipart: { file: { name: file, mimeType: 'text/plain', buffer: Buffer.from(`${file} ${run}`) } },
        });
        expect(uploaded.status()).toBe(200);
      }

      const page = alice.page;
      await page.goto(`/dashboard/activity?workspace=${id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
      const feed = page.getByRole('list', { name: 'Activity' });
      await expect(feed.getByRole('listitem')).toHaveCount(2);
      await expect(feed.getByRole('listitem').nth(0)).toContainText(`Alice ${run} uploaded plan.txt`);
      await expect(feed.getByRole('listitem').nth(1)).toContainText(`Bob ${run} uploaded brief.txt`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `activity-${screen}`);

      await page.getByLabel('Person', { exact: true }).selectOption({ label: `Bob ${run}` });
      await expect(feed.getByRole('listitem')).toHaveCount(1);
      await expect(feed.getByRole('listitem')).toContainText(`Bob ${run} uploaded brief.txt`);
      await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Deletions' });
      await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
      await shot(page, `activity-filtered-${screen}`);

      // Star from the row menu of the file browser; Starred lists it, and its star button takes it off again.
      await page.goto(`/dashboard/spaces/${id}/folders`);
      await page.getByRole('button', { name: 'Actions for brief.txt' }).click();
      await page.getByRole('menuitem', { name: 'Star' }).click();
      await expect(page.getByText('Starred.', { exact: true })).toBeVisible();
      await page.goto('/dashboard/starred');
      const starred = page.getByRole('list', { name: 'Starred' });
      await expect(starred.getByRole('link', { name: 'brief.txt', exact: true })).toBeVisible();
      await expect(starred).toContainText(`Design ${run}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `starred-${screen}`);
      const star = starred.getByRole('button', { name: 'Star brief.txt' });
      await expect(star).toHaveAttribute('aria-pressed', 'true');
      await star.click();
      await expect(page.getByText('Nothing is starred yet.')).toBeVisible();

      // Recent lists the workspace's files, newest first.
      await page.goto('/dashboard/recent');
      const recent = page.getByRole('list', { name: 'Recent files' });
      await expect(recent.getByRole('link', { name: 'plan.txt', exact: true })).toBeVisible();
      await expect(recent.getByRole('link', { name: 'Go to folder: brief.txt' })).toBeVisible();
      await shot(page, `recent-${screen}`);
      await alice.context.close();
      await bob.context.close();
    });
  });
}
