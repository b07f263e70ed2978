import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN_PASSWORD, FAKE_MIC_TEXT } from './playwright.config';
import { expect, test } from './fixtures';

const require = createRequire(import.meta.url);
const facePhoto = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg');
const work = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-ai-'));

async function signIn(page: Page) {
  const response = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(response.status()).toBe(200);
}

/** AI engines take a few seconds to load on first use on a busy 2-core machine. */
const AI_TIMEOUT = 60_000;

test.describe('AI screens', () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(async ({ page }) => signIn(page));

  test('Speech to Text transcribes a WAV file', async ({ page }) => {
    const wav = path.join(work, 'speech.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', 'please call me tomorrow morning', '-o', wav]);
    await page.goto('/dashboard/speech-to-text');
    await expect(page.getByRole('heading', { name: 'Speech to Text', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please select an audio file first');
    await page.getByLabel('Audio file (WAV)').setInputFiles(wav);
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Transcribing…' })).toBeVisible();
    await expect(page.getByTestId('transcript')).toContainText(/tomorrow/i, { timeout: AI_TIMEOUT });
  });

  test('Text to Speech plays and downloads an MP3', async ({ page }) => {
    await page.goto('/dashboard/text-to-speech');
    await page.getByRole('button', { name: 'Synthesize' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter some text to synthesize.');
    await page.getByLabel('Text').fill('Good morning, this is Atrium speaking.');
    await page.getByRole('button', { name: 'Synthesize' }).click();
    const player = page.getByLabel('Synthesized speech');
    await expect(player).toHaveAttribute('src', /^blob:/, { timeout: AI_TIMEOUT });
    await expect
      .poll(() => player.evaluate((audio: HTMLAudioElement) => audio.readyState), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const duration = await player.evaluate((audio: HTMLAudioElement) => audio.duration);
    expect(duration).toBeGreaterThan(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download MP3' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('speech.mp3');
    const file = path.join(work, 'speech.mp3');
    await download.saveAs(file);
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(
      bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0),
    ).toBe(true);
  });

  test('Face Detection draws a box with age, gender and emotion for each face', async ({ page }) => {
    await page.goto('/dashboard/face-detection');
    await page.getByRole('button', { name: 'Detect Faces' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please select an image file before submitting.');
    const gif = path.join(work, 'a.gif');
    writeFileSync(gif, Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'));
    await page.getByLabel('Image (PNG or JPG)').setInputFiles(gif);
    await expect(page.getByRole('alert')).toHaveText('Please select a valid PNG or JPG file.');

    await page.getByLabel('Image (PNG or JPG)').setInputFiles(facePhoto);
    await page.getByRole('button', { name: 'Detect Faces' }).click();
    const boxes = page.getByTestId('face-box');
    await expect(boxes.first()).toBeVisible({ timeout: AI_TIMEOUT });
    expect(await boxes.count()).toBeGreaterThanOrEqual(2);
    await expect(boxes.first()).toContainText(
      /^Age \d+ · (male|female) · (anger|contempt|disgust|fear|happiness|neutral|sadness|surprise)$/,
    );
    const box = await boxes.first().boundingBox();
    expect(box?.width).toBeGreaterThan(10);

    const blank = path.join(work, 'blank.png');
    writeFileSync(
      blank,
      await sharp({ create: { width: 320, height: 240, channels: 3, background: '#88aacc' } })
        .png()
        .toBuffer(),
    );
    await page.getByLabel('Image (PNG or JPG)').setInputFiles(blank);
    await page.getByRole('button', { name: 'Detect Faces' }).click();
    await expect(page.getByRole('alert')).toHaveText('No faces detected in the uploaded image.', {
      timeout: AI_TIMEOUT,
    });

    // A file that claims to be a PNG but is not: the server's invalid-media answer.
    const fake = path.join(work, 'fake.png');
    writeFileSync(fake, 'this is not an image');
    await page.getByLabel('Image (PNG or JPG)').setInputFiles(fake);
    await page.getByRole('button', { name: 'Detect Faces' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please upload a PNG or JPG format image.');
  });

  test('Image Analysis shows a summary and the raw JSON', async ({ page }) => {
    await page.goto('/dashboard/image-analysis');
    const grey = path.join(work, 'grey.png');
    writeFileSync(
      grey,
      await sharp({ create: { width: 200, height: 120, channels: 3, background: '#000000' } })
        .composite([
          { input: { create: { width: 100, height: 120, channels: 3, background: '#ffffff' } }, left: 0, top: 0 },
        ])
        .png()
        .toBuffer(),
    );
    await page.getByLabel('Image (PNG or JPG)').setInputFiles(facePhoto);
    await expect(page.getByRole('img', { name: 'Preview of the selected image' })).toBeVisible();
    await page.getByRole('button', { name: 'Analyze Image' }).click();
    await expect(page.getByTestId('caption')).toContainText(/person|people/i, { timeout: AI_TIMEOUT });
    await expect(page.getByRole('listitem').filter({ hasText: 'person' }).first()).toBeVisible();
    const json = JSON.parse((await page.getByTestId('analysis-json').textContent()) ?? '{}') as { requestId?: string };
    expect(json.requestId).toMatch(/\S+/);

    await page.getByLabel('Image (PNG or JPG)').setInputFiles(grey);
    await page.getByRole('button', { name: 'Analyze Image' }).click();
    await expect(page.getByText('(black and white image)')).toBeVisible({ timeout: AI_TIMEOUT });
    await expect(page.getByTestId('analysis-json')).toContainText('"isBWImg": true');
  });

  test('Speech to Text records from the microphone @mic', async ({ page }) => {
    await page.goto('/dashboard/speech-to-text');
    await page.getByRole('button', { name: 'Record from microphone' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Recording…' })).toBeVisible();
    await page.waitForTimeout(3500);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await expect(page.getByText('recording.wav')).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const words = FAKE_MIC_TEXT.split(' ');
    await expect(page.getByTestId('transcript')).toContainText(
      new RegExp(`${words[0]}|${words[1]}|${words.at(-1)}`, 'i'),
      {
        timeout: AI_TIMEOUT,
      },
    );
  });
});
