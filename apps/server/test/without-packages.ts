import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/**
 * A test server on a machine without the Debian packages (flite, lame, ffmpeg, poppler-utils…): started with an
 * empty PATH and `env`, with alice signed in (`cookie`); PATH comes back afterwards. Only for a test file that runs in
 * its own process, so that changing PATH affects no other suite. Read `server` and `cookie` inside the tests.
 */
export function serverWithoutPackages(env: Record<string, string> = {}): { server: TestServer; cookie: string } {
  const state = {} as { server: TestServer; cookie: string };
  const savedPath = process.env.PATH;
  const emptyBin = mkdtempSync(path.join(tmpdir(), 'atrium-no-bin-'));
  beforeAll(async () => {
    process.env.PATH = emptyBin;
    state.server = await startTestServer({ env });
    state.cookie = await state.server.signInAs({ owner_key: 'alice' });
  });
  afterAll(async () => {
    await state.server?.close();
    process.env.PATH = savedPath;
    rmSync(emptyBin, { recursive: true, force: true });
  });
  return state;
}
