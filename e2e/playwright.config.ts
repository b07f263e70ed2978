import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3123);
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'atrium-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

const root = path.resolve(import.meta.dirname, '..');

/**
 * The microphone of the `chromium-fake-mic` project: Chromium plays this WAV
 * (flite's US female voice) as its fake audio capture device.
 */
export const FAKE_MIC_TEXT = 'hello world this is a test';
export const FAKE_MIC_WAV = path.join(dataDir, 'fake-mic.wav');
if (!existsSync(FAKE_MIC_WAV)) {
  try {
    execFileSync('flite', ['-voice', 'slt', '-t', FAKE_MIC_TEXT, '-o', FAKE_MIC_WAV]);
  } catch {
    // flite missing: the microphone test reports it.
  }
}

/** Spoken "go to pricing" (flite, 16 kHz mono) with silence after it: the voice assistant's fake microphone. */
export const FAKE_AUDIO_FILE = path.join(root, 'e2e/assets/go-to-pricing.wav');

/** Chromium whose (fake) microphone plays `file`, with the permission prompt answered. */
const withFakeMicrophone = (file: string) => ({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${file}`,
    ],
  },
});

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // A hang guard, not a speed target: on two cores shared by two Chromium workers and the server, a flow of two
  // people through several pages takes 15–25 s alone and more beside another worker.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: path.join(root, 'test-results'),
  // The server's email goes to a real SMTP server on E2E_PORT + 1000 (e2e/mail-server.ts; read with e2e/mail.ts).
  globalSetup: './mail-server.ts',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'chromium', grepInvert: /@mic|@fake-audio/ },
    {
      // Tests tagged @mic record from a fake microphone fed by FAKE_MIC_WAV.
      name: 'chromium-fake-mic',
      grep: /@mic/,
      use: withFakeMicrophone(`${FAKE_MIC_WAV}%noloop`),
    },
    {
      // Tests tagged @fake-audio: the voice assistant's recording fallback hears "go to pricing".
      name: 'chromium-fake-audio',
      grep: /@fake-audio/,
      use: withFakeMicrophone(FAKE_AUDIO_FILE),
    },
  ],
  webServer: {
    command: `node --enable-source-maps ${path.join(root, 'apps/server/dist/main.js')}`,
    url: `http://localhost:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      SMTP_URL: `smtp://127.0.0.1:${E2E_PORT + 1000}`,
      MAIL_FROM: 'Atrium <atrium@example.test>',
    },
  },
});
