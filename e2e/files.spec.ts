import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInAsUser } from './users';

// The tests share one user's files, so they run in order. Each attempt (a CI retry re-runs the whole
// group) and each --repeat-each round has its own user, so it starts from an empty storage again.
test.describe.configure({ mode: 'serial' });

const owner = () => `e2e-files-${test.info().retry}-${test.info().repeatEachIndex}`;

async function signIn(page: Page) {
  await signInAsUser(page.context(), String(test.info().project.use.baseURL), { ownerKey: owner() });
}

/**
 * Caps the page's upload speed at `bytesPerSecond` (Chromium's network emulation, so a progress bar is seen moving);
 * answers a function that lifts the cap.
 */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const cap = (uploadThroughput: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput,
    });
  await cap(bytesPerSecond);
  return () => cap(-1);
}

/** A valid PNG of one colour, built here so the test needs no fixture file. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x66)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** One second of a 440 Hz tone as 8 kHz mono 16-bit PCM WAV. */
function wav(): Buffer {
  const rate = 8000;
  const samples = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i += 1)
    samples.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

test('empty states: no files yet in the list and the preview', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/file-list');
  await expect(page.getByText('No files uploaded yet.')).toBeVisible();
  await page.goto('/dashboard/file-preview');
  await expect(page.getByText('No files uploaded yet.')).toBeVisible();
  await page.goto('/dashboard/file-stats');
  await expect(page.getByTestId('stats-count')).toHaveText('0');
  await expect(page.getByTestId('stats-size')).toHaveText('0 Bytes');
});

test('uploads with a visible progress bar, then lists the file and updates the stats', async ({ page }) => {
  test.slow(); // a 6 MB upload throttled to 1.5 MB/s, with 15 s and 20 s waits inside
  await signIn(page);
  await page.goto('/dashboard/files');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Please select a file first')).toBeVisible();

  // Slow the upload down so the progress bar is seen moving.
  const unthrottle = await throttleUploads(page, 1.5 * 1024 * 1024);
  const bytes = Buffer.alloc(6 * 1024 * 1024, 7);
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'big.bin', mimeType: 'application/x-whatever', buffer: bytes });
  await expect(page.getByText('big.bin (6.00 MB)')).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const bar = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId('upload-progress')).toHaveText(/^\d+% · [\d.]+ (Bytes|KB|MB)\/s$/);
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await expect(page.getByText('File uploaded successfully!')).toBeVisible({ timeout: 20_000 });
  await unthrottle();

  const row = page.getByRole('row', { name: /big\.bin/ });
  await expect(row).toContainText('6.00 MB');
  await expect(row).toContainText('application/octet-stream');
  await expect(page.getByTestId('stats-count')).toHaveText('1');
  await expect(page.getByTestId('stats-size')).toHaveText('6.00 MB');
});

test('a cancelled upload stores nothing', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/file-upload');
  const unthrottle = await throttleUploads(page, 256 * 1024);
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'cancel-me.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(4 * 1024 * 1024, 1),
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Upload cancelled.')).toBeVisible();
  await unthrottle();
  const list = await page.request.get(`/api/files/user/${owner()}`);
  expect((await list.json()).map((file: { fileName: string }) => file.fileName)).not.toContain('cancel-me.bin');
});

test('previews audio, images and text in cards that toggle open and closed', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/file-upload');
  // Each upload is awaited by its answer: the success toast of the previous one may still be on screen.
  const upload = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    await page.getByLabel('Choose a file').setInputFiles(file);
    const answered = page.waitForResponse(
      (response) => response.url().includes('/api/files/upload') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    expect((await answered).status()).toBe(200);
    await expect(page.getByText('File uploaded successfully!').first()).toBeVisible();
  };
  await upload({ name: 'square.png', mimeType: 'image/png', buffer: png(300, 200) });
  await upload({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Hello from the preview\n') });
  await upload({ name: 'tone.wav', mimeType: 'audio/wav', buffer: wav() });

  await page.goto('/dashboard/file-preview');
  const audioCard = page.getByRole('button', { name: /^tone\.wav/ });
  await audioCard.click();
  const audio = page.locator('audio');
  // The browser reads the media through the download route (Range requests) and learns its length.
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.duration), { timeout: 10_000 })
    .toBeCloseTo(1, 1);
  await audioCard.click();

  const card = page.getByRole('button', { name: /^square\.png/ });
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  const image = page.getByRole('img', { name: 'Preview of square.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(256);
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await expect(image).toBeHidden();

  const textCard = page.getByRole('button', { name: /^notes\.txt/ });
  await expect(textCard).toContainText('23 Bytes');
  await textCard.click();
  await expect(page.getByTestId('text-preview')).toHaveText('Hello from the preview');
});

test('downloads by id after an existence check', async ({ page }) => {
  await signIn(page);
  const files = (await (await page.request.get(`/api/files/user/${owner()}`)).json()) as {
    id: string;
    fileName: string;
  }[];
  const notes = files.find((file) => file.fileName === 'notes.txt');
  expect(notes).toBeTruthy();

  await page.goto('/dashboard/file-download');
  const button = page.getByRole('button', { name: 'Download' });
  await expect(button).toBeDisabled();
  await page.getByLabel('File ID').fill('no-such-file');
  await button.click();
  await expect(page.getByText('File not found')).toBeVisible();

  await page.getByLabel('File ID').fill(notes?.id ?? '');
  const download = page.waitForEvent('download');
  await button.click();
  await expect(page.getByText('Download started!')).toBeVisible();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('notes.txt');
  const stream = await saved.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe('Hello from the preview\n');
});

test('a large file goes through the resumable (tus) protocol', async ({ page }) => {
  await signIn(page);
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-big-'));
  const file = path.join(dir, 'large.bin');
  const bytes = Buffer.alloc(65 * 1024 * 1024, 3);
  writeFileSync(file, bytes);
  try {
    await page.goto('/dashboard/file-upload');
    await page.getByLabel('Choose a file').setInputFiles(file);
    const tusCreate = page.waitForRequest(
      (request) => request.url().endsWith('/api/files/tus') && request.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await tusCreate;
    await expect(page.getByText('File uploaded successfully!')).toBeVisible({ timeout: 60_000 });
    const files = (await (await page.request.get(`/api/files/user/${owner()}`)).json()) as {
      id: string;
      fileName: string;
      size: number;
    }[];
    const stored = files.find((one) => one.fileName === 'large.bin');
    expect(stored).toMatchObject({ size: 65 * 1024 * 1024 });
    // The stored bytes are the sent bytes: the download's ETag is their SHA-256.
    const head = await page.request.head(`/api/files/download/${stored?.id}`);
    expect(head.headers()['etag']).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('deletes with a confirmation, from the files page and by id', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/files');
  const row = page.getByRole('row', { name: /big\.bin/ });
  const deleteBigBin = async () => {
    await row.getByRole('button', { name: 'Actions for big.bin' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
  };
  await deleteBigBin();
  const dialog = page.getByRole('alertdialog', { name: 'Delete this file?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();
  await deleteBigBin();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('File deleted successfully!')).toBeVisible();
  await expect(row).toBeHidden();

  // An unknown id is looked up first: no dialog.
  await page.goto('/dashboard/file-delete/not-a-real-id');
  await expect(page.getByLabel('File ID')).toHaveValue('not-a-real-id');
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('File not found')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  const files = (await (await page.request.get(`/api/files/user/${owner()}`)).json()) as {
    id: string;
    fileName: string;
  }[];
  for (const file of files) {
    await page.getByLabel('File ID').fill(file.id);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByLabel('File ID')).toHaveValue('');
  }
  await page.goto('/dashboard/file-list');
  await expect(page.getByText('No files uploaded yet.')).toBeVisible();
});

test('error states: list, stats, upload and download failures', async ({ page }) => {
  await signIn(page);
  const refuse = {
    status: 403,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'No.' } }),
  };
  await page.route('**/api/files/user/**', (route) => route.fulfill(refuse));
  await page.route('**/api/files/user-stats/**', (route) => route.fulfill(refuse));
  await page.goto('/dashboard/files');
  await expect(page.getByText('Could not load files.')).toBeVisible();
  await expect(page.getByText('Could not load stats.')).toBeVisible();
  await expect(page.getByText('Failed to load file statistics')).toBeVisible();

  await page.route('**/api/files/upload**', (route) =>
    route.fulfill({
      status: 413,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'QUOTA_EXCEEDED', message: 'Over quota.' } }),
    }),
  );
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Failed to upload file. Please try again.')).toBeVisible();
  await expect(page.getByText('Upload failed. Over quota.')).toBeVisible();

  await page.route('**/api/files/broken-id', (route) => route.fulfill(refuse));
  await page.goto('/dashboard/file-download/broken-id');
  await page.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByText('Failed to download file')).toBeVisible();
});
