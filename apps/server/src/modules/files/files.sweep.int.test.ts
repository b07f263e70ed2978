import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Leftovers of interrupted uploads are swept while the server runs, not only at start-up:
 * once older than UPLOAD_ORPHAN_GRACE_MINUTES they disappear without a restart; younger ones stay.
 */
describe.each(dialects())('periodic sweep of upload leftovers (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, overrides: { uploadSweepIntervalMs: 200 } });
  });
  afterAll(async () => server?.close());

  it('removes leftovers older than the grace period while running, and keeps recent ones', async () => {
    // Written after the start-up sweep has run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const blobs = path.join(server.dataDir, 'blobs');
    mkdirSync(path.join(blobs, 'files'), { recursive: true });
    mkdirSync(path.join(blobs, '.tmp'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const old = [path.join(blobs, 'files', '0b5e4a8e-orphan'), path.join(blobs, '.tmp', 'crashed.part')];
    for (const file of old) {
      writeFileSync(file, 'left by a crash');
      utimesSync(file, twoHoursAgo, twoHoursAgo);
    }
    const recent = path.join(blobs, '.tmp', 'in-progress.part');
    writeFileSync(recent, 'still being written');

    await expect.poll(() => old.filter((file) => existsSync(file)), { timeout: 5000 }).toEqual([]);
    expect(existsSync(recent)).toBe(true);
  });
});
