import { rcloneRemote } from '../../../test/rclone';
import { randomBytes, randomFillSync } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAppPassword } from '@atrium/contracts';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/** Files in the generated tree: 1,000 (the acceptance's size, docs/PRODUCT.md#webdav), one of them of 200 MiB. */
const FILES = 1000;
const BIG_FILE = 'photos/2024 — summer/raw/big video 🎥.bin';
const BIG_SIZE = 200 * 1024 * 1024;

/** Writes `size` random bytes (a crypto stream, 8 MiB at a time: no page is sparse or repeated) to `file`. */
async function writeRandomFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    for (let written = 0; written < size; written += chunk.length) {
      const part = chunk.subarray(0, Math.min(chunk.length, size - written));
      randomFillSync(part);
      await handle.write(part);
    }
  } finally {
    await handle.close();
  }
}

/**
 * A tree with nested folders, unicode and spaces in names, empty files, a few MB-sized ones and one of 200 MiB:
 * `FILES` files in all.
 */
async function generateTree(root: string): Promise<number> {
  const folders = [
    '',
    'docs',
    'docs/Über uns',
    'photos/2024 — summer',
    'photos/2024 — summer/raw',
    'empty-ish',
    'código',
    'código/深い フォルダ/level 3/level 4',
  ];
  for (const folder of folders) await mkdir(path.join(root, folder), { recursive: true });
  await writeRandomFile(path.join(root, BIG_FILE), BIG_SIZE);
  for (let i = 1; i < FILES; i += 1) {
    const folder = folders[i % folders.length] ?? '';
    const name = [`file ${i}.txt`, `naïve-${i}.md`, `日本語 ${i}.bin`, `.hidden-${i}`][i % 4] ?? `f${i}`;
    const size = i % 10 === 0 ? 0 : i % 200 === 1 ? 3 * 1024 * 1024 + i : 1000 + i * 37;
    await writeFile(path.join(root, folder, name), randomBytes(size));
  }
  return FILES;
}

/**
 * Acceptance with rclone (Debian's; webdav remote, vendor nextcloud, docs/PRODUCT.md#webdav): a tree synced up and
 * back down byte-exact (`rclone check --download`: 0 differences), then changes on both sides and another round.
 */
describe.each(dialects())('rclone (%s)', (dialect) => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    work = await mkdtemp(path.join(tmpdir(), 'atrium-rclone-'));
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('syncs a tree up and down with 0 differences, then changes on both sides', { timeout: 1_200_000 }, async () => {
    const cookie = await server.signInAs({ owner_key: 'rclone-user' });
    const { password } = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'rclone' }),
      201,
    );
    const rclone = await rcloneRemote({ name: 'atrium', baseUrl: server.url, user: 'rclone-user', password });
    const local = path.join(work, 'local');
    const back = path.join(work, 'back');
    const remote = 'atrium:Personal/Sync';
    const count = await generateTree(local);

    await rclone('sync', local, remote);
    await rclone('sync', remote, back);
    await rclone('check', local, remote, '--download');
    await rclone('check', local, back, '--download');
    const { stdout: listed } = await rclone('lsf', '-R', '--files-only', remote);
    expect(listed.trim().split('\n')).toHaveLength(count);
    expect((await stat(path.join(back, BIG_FILE))).size).toBe(BIG_SIZE);

    // Changes on both sides: a file changed, one added and one deleted here; one added on the server.
    await writeFile(path.join(local, 'docs', 'naïve-9.md'), 'changed here');
    await writeFile(path.join(local, 'docs', 'Über uns', 'new here ✓.txt'), 'new here');
    const put = await server.fetch('/remote.php/dav/files/rclone-user/Personal/Sync/docs/from%20the%20server.txt', {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from(`rclone-user:${password}`).toString('base64')}` },
      body: 'from the server',
    });
    expect(put.status).toBe(201);
    // What the server gained comes down first (a one-way copy would bring deleted files back if they went first)…
    await rclone('copy', remote, local, '--ignore-existing');
    // …then two files deleted here, and everything goes up: the server loses them too.
    await unlink(path.join(local, 'código', '日本語 6.bin'));
    await unlink(path.join(local, 'docs', 'naïve-1.md'));
    await rclone('sync', local, remote);
    await rclone('sync', remote, back);
    await rclone('check', local, remote, '--download');
    await rclone('check', local, back, '--download');
    expect(await readFile(path.join(back, 'docs', 'from the server.txt'), 'utf8')).toBe('from the server');
    expect(await readFile(path.join(back, 'docs', 'naïve-9.md'), 'utf8')).toBe('changed here');
    await expect(stat(path.join(back, 'docs', 'naïve-1.md'))).rejects.toThrow();
    const { stdout: relisted } = await rclone('lsf', '-R', '--files-only', remote);
    expect(relisted.trim().split('\n')).toHaveLength(count);
    expect(await readFile(path.join(back, 'docs', 'Über uns', 'new here ✓.txt'), 'utf8')).toBe('new here');
  });
});
