import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser } from './users';

// The in-app file viewer (docs/PRODUCT.md#file-viewer): one overlay with its own address, over the file browser,
// search, Shared with me, and a read-only variant on public links.

/** A PNG with `text` drawn in black on white (OCR reads it). */
const pngWithText = (text: string) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="220">
      <rect width="100%" height="100%" fill="white"/>
      <text x="40" y="140" font-family="DejaVu Sans" font-size="96" fill="black">${text}</text></svg>`),
  )
    .png()
    .toBuffer();

const MARKDOWN = '# Release notes\n\n- **Faster** uploads\n- <script>alert(1)</script> stays text\n';

interface Upload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

async function upload(page: Page, query: string, file: Upload): Promise<string> {
  const answer = await page.request.post(`/api/files/upload?${query}`, {
    headers: { accept: 'application/json' },
    multipart: { file },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { id: string }).id;
}

const viewerOf = (page: Page) => page.getByTestId('file-viewer');

/** The viewer is open on `name` (its dialog is titled with the file's name). */
async function expectViewing(page: Page, name: string) {
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('file')).toBeTruthy();
}

/** Nothing sticks out sideways, and the toolbar fits the screen. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const toolbar = await page.getByRole('toolbar', { name: 'File actions' }).boundingBox();
  expect((toolbar?.x ?? 0) + (toolbar?.width ?? 0)).toBeLessThanOrEqual(width);
}

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`file viewer at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('an image of a workspace folder opens with its OCR text; ← → step; Esc, reload and Back', async ({
      page,
      baseURL,
    }) => {
      // The first image analysis loads the OCR models: room for a busy machine.
      test.setTimeout(300_000);
      await signInAsNewUser(page.context(), baseURL, `e2e-viewer-${screen}`, 'Vera Viewer');
      const created = await page.request.post('/api/workspaces', { data: { name: `Design ${screen}` } });
      expect(created.status()).toBe(201);
      const workspace = (await created.json()) as { id: string };
      const spaces = (await (await page.request.get('/api/spaces')).json()) as {
        id: string | null;
        rootFolderId: string;
      }[];
      const root = spaces.find((space) => space.id === workspace.id)?.rootFolderId ?? '';
      const into = `workspaceId=${workspace.id}&folderId=${root}`;
      await upload(page, into, {
        name: 'a-sign.png',
        mimeType: 'image/png',
        buffer: await pngWithText('Lighthouse 42'),
      });
      await upload(page, into, { name: 'b-notes.md', mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN) });
      await upload(page, into, {
        name: 'c-data.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from([1, 2, 3, 4]),
      });

      await page.goto(`/dashboard/spaces/${workspace.id}/folders`);
      const opener = page.getByRole('link', { name: 'a-sign.png' });
      await opener.click();
      await expectViewing(page, 'a-sign.png');
      const viewer = viewerOf(page);
      await expect(viewer.getByRole('img', { name: 'a-sign.png' })).toBeVisible();
      await expect(viewer.getByText('1 of 3')).toBeVisible();
      // Its insights beside it (under it on a phone): the OCR text, with Copy.
      const insights = viewer.getByRole('complementary', { name: 'Insights' });
      await expect(insights.getByRole('textbox', { name: 'Text in this file' })).toHaveValue(/Lighthouse/i, {
        timeout: 240_000,
      });
      await expect(insights.getByRole('button', { name: 'Copy the text' })).toBeVisible();
      // The toolbar: Download, Share, Versions, Details; the floating assistant is hidden meanwhile.
      for (const name of ['Share', 'Versions', 'Details'])
        await expect(viewer.getByRole('button', { name })).toBeVisible();
      await expect(viewer.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /\/api\/files\/download\//);
      await expect(page.getByRole('link', { name: 'Open the chat assistant' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveCount(0);
      // Zoom: 100% and back to fit.
      await viewer.getByRole('button', { name: '100%' }).click();
      await expect(viewer.getByRole('button', { name: '100%' })).toHaveAttribute('aria-pressed', 'true');
      await viewer.getByRole('button', { name: 'Zoom in' }).click();
      await expect(viewer.getByText('150%')).toBeVisible();
      await viewer.getByRole('button', { name: 'Fit' }).click();
      await expectFits(page, width);
      await shot(page, `viewer-image-${screen}`);

      // → the Markdown file, rendered (its markup stays text); → the download card; ← back.
      await page.keyboard.press('ArrowRight');
      await expectViewing(page, 'b-notes.md');
      await expect(viewer.getByRole('heading', { name: 'Release notes' })).toBeVisible();
      await expect(viewer.getByTestId('markdown-preview')).toContainText('<script>alert(1)</script> stays text');
      await shot(page, `viewer-markdown-${screen}`);
      await page.keyboard.press('ArrowRight');
      await expectViewing(page, 'c-data.bin');
      await expect(viewer.getByTestId('download-card')).toContainText('4 Bytes');
      // The last file: no Next, and → stays.
      await expect(viewer.getByRole('button', { name: 'Next file' })).toHaveCount(0);
      await page.keyboard.press('ArrowRight');
      await expectViewing(page, 'c-data.bin');
      await page.keyboard.press('ArrowLeft');
      await expectViewing(page, 'b-notes.md');
      await page.keyboard.press('ArrowLeft');
      await expectViewing(page, 'a-sign.png');

      // Details opens over the viewer; Escape closes it first, then the viewer, and focus returns to the opener.
      await viewer.getByRole('button', { name: 'Details' }).click();
      const details = page.getByRole('textbox', { name: 'SHA-256' });
      await expect(details).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(details).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
      expect(new URL(page.url()).searchParams.has('file')).toBe(false);
      await expect(opener).toBeFocused();

      // Open again, reload: the address reopens it; Back closes it.
      await opener.click();
      await expectViewing(page, 'a-sign.png');
      await page.reload();
      await expectViewing(page, 'a-sign.png');
      await page.goBack();
      await expect(viewer).toBeHidden();
      await expect(page.getByRole('link', { name: 'a-sign.png' })).toBeVisible();

      // A file that does not exist (or is not the reader's) says so.
      await page.goto(`/dashboard/spaces/${workspace.id}/folders?file=not-a-file`);
      await expect(viewer.getByText('This file is not available')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
    });

    test('a recording plays from the transcript line chosen', async ({ page, baseURL }) => {
      test.setTimeout(300_000);
      await signInAsNewUser(page.context(), baseURL, `e2e-viewer-audio-${screen}`, 'Ada Audio');
      const work = mkdtempSync(path.join(tmpdir(), 'viewer-'));
      const wav = path.join(work, 'memo.wav');
      execFileSync('flite', ['-voice', 'slt', '-t', 'please call me tomorrow morning about the budget', '-o', wav]);
      const id = await upload(page, '', { name: 'memo.wav', mimeType: 'audio/wav', buffer: readFileSync(wav) });

      await page.goto(`/dashboard/spaces/personal/folders?file=${id}`);
      await expectViewing(page, 'memo.wav');
      const viewer = viewerOf(page);
      const segment = viewer.getByRole('list', { name: 'Transcript' }).getByRole('button').first();
      await expect(segment).toContainText(/tomorrow/i, { timeout: 240_000 });
      const player = viewer.locator('audio');
      await expect
        .poll(() => player.evaluate((audio: HTMLAudioElement) => audio.readyState), { timeout: 20_000 })
        .toBeGreaterThan(0);
      // Move the player to the end, then choose the first line: it plays from that line's start.
      const end = await player.evaluate((audio: HTMLAudioElement) => {
        audio.muted = true;
        audio.currentTime = Math.max(0, audio.duration - 0.05);
        return audio.currentTime;
      });
      expect(end).toBeGreaterThan(1);
      await segment.click();
      await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeLessThan(end - 0.5);
      await expectFits(page, width);
      await shot(page, `viewer-transcript-${screen}`);
    });

    test('Shared with me and search open the viewer; a public link has a read-only one', async ({
      page,
      browser,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const alice = await signInAsNewUser(page.context(), baseURL, `e2e-viewer-alice-${screen}`, 'Alice Owner');
      const bobContext = await browser.newContext({ baseURL, viewport: { width, height } });
      const bob = await bobContext.newPage();
      const bobUser = await signInAsNewUser(bobContext, baseURL, `e2e-viewer-bob-${screen}`, 'Bob Reader');
      const word = `zephyr${alice.run}`;
      const first = await upload(page, '', {
        name: `${word}-one.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from('first shared text'),
      });
      const second = await upload(page, '', {
        name: `${word}-two.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from('second shared text'),
      });
      for (const id of [first, second]) {
        const shared = await page.request.put(`/api/files/${id}/shares/${bobUser.ownerKey}`, {
          data: { role: 'viewer' },
        });
        expect(shared.ok()).toBe(true);
      }

      // Bob: Shared with me → Open → the viewer, read-only for a viewer (no Share), → steps to the other file.
      await bob.goto('/dashboard/shared');
      // The newest share first: "two", then "one".
      await bob.getByRole('link', { name: `Open ${word}-two.txt` }).click();
      await expectViewing(bob, `${word}-two.txt`);
      const viewer = viewerOf(bob);
      await expect(viewer.getByTestId('text-preview')).toHaveText('second shared text');
      await expect(viewer.getByRole('button', { name: 'Share' })).toHaveCount(0);
      await bob.keyboard.press('ArrowRight');
      await expectViewing(bob, `${word}-one.txt`);
      await expect(viewer.getByTestId('text-preview')).toHaveText('first shared text');
      await expectFits(bob, width);
      await shot(bob, `viewer-shared-${screen}`);
      await bob.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
      await expect(bob).toHaveURL(/\/dashboard\/shared$/);

      // Search: a file result opens in the viewer over the results.
      await bob.goto(`/dashboard/search?q=${word}`);
      const results = bob.getByRole('list', { name: 'Search results' });
      await results
        .getByRole('link', { name: new RegExp(`${word}-two`) })
        .first()
        .click();
      await expectViewing(bob, `${word}-two.txt`);
      expect(new URL(bob.url()).searchParams.get('q')).toBe(word);
      await shot(bob, `viewer-search-${screen}`);
      await bob.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
      await bobContext.close();

      // A public folder link: Open shows the read-only viewer (Download only, no sign-in).
      const spaces = (await (await page.request.get('/api/spaces')).json()) as { rootFolderId: string }[];
      const folder = await page.request.post('/api/folders', {
        data: { name: 'Public', parentId: spaces[0]?.rootFolderId },
      });
      const folderId = ((await folder.json()) as { id: string }).id;
      await upload(page, `folderId=${folderId}`, {
        name: 'p1.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# One'),
      });
      await upload(page, `folderId=${folderId}`, {
        name: 'p2.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('two'),
      });
      const link = await page.request.post('/api/links', { data: { folderId } });
      expect(link.status()).toBe(201);
      const { url } = (await link.json()) as { url: string };
      await visitPublic(browser, String(baseURL), url, { width, height }, screen);
    });
  });
}

async function visitPublic(
  browser: Browser,
  baseURL: string,
  url: string,
  viewport: { width: number; height: number },
  screen: string,
) {
  const visitor = await browser.newContext({ baseURL, viewport });
  const anon = await visitor.newPage();
  await anon.goto(new URL(url, baseURL).pathname);
  await anon.getByRole('button', { name: 'Open p1.md' }).click();
  await expectViewing(anon, 'p1.md');
  const viewer = viewerOf(anon);
  await expect(viewer.getByRole('heading', { name: 'One' })).toBeVisible();
  await expect(viewer.getByRole('link', { name: 'Download' })).toBeVisible();
  for (const name of ['Share', 'Versions', 'Details', 'Insights']) {
    await expect(viewer.getByRole('button', { name })).toHaveCount(0);
  }
  await anon.keyboard.press('ArrowRight');
  await expectViewing(anon, 'p2.txt');
  await expect(viewer.getByTestId('text-preview')).toHaveText('two');
  await expectFits(anon, viewport.width);
  await shot(anon, `viewer-public-${screen}`);
  await anon.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(anon.getByRole('button', { name: 'Open p1.md' })).toBeFocused();
  await visitor.close();
}
