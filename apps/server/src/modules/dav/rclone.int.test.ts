import { rcloneRemote } from '../../../test/rclone';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAppPassword } from '@atrium/contracts';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/** Files in the generated tree (the bench's run is 1,000 files and a 200 MiB one; CI keeps it quicker). */
const FILES = Number(process.env.RCLONE_FILES ?? 240);

/** A tree with nested folders, unicode and spaces in names, empty files and a few MB-sized ones. */
async function generateTree(root: string): Promise<number> {
  const folders = [
    '',
    'docs',
    'docs/Über uns',
    'photos/2024 — summer',
    'photos/2024 — summer/raw',
    'empty-ish',
    'código',
  ];
  for (const folder of folders) await mkdir(path.join(root, folder), { recursive: true });
  for (let i = 0; i < FILES; i += 1) {
    const folder = folders[i % folders.length] ?? '';
    const name = [`file ${i}.txt`, `naïve-${i}.md`, `日本語 ${i}.bin`, `.hidden-${i}`][i % 4] ?? `f${i}`;
    const size = i % 10 === 0 ? 0 : i % 40 === 1 ? 3 * 1024 * 1024 + i : 1000 + i * 37;
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

  it('syncs a tree up and down with 0 differences, then changes on both sides', { timeout: 300_000 }, async () => {
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

    // Changes on both sides: a file changed, one added and one deleted here; one added on the server.
    await writeFile(path.join(local, 'docs', 'file 1.txt'), 'changed here');
    await writeFile(path.join(local, 'docs', 'Über uns', 'new here ✓.txt'), 'new here');
    await unlink(path.join(local, 'código', `file 0.txt`)).catch(() => undefined);
    await unlink(path.join(local, 'docs', `naïve-${1}.md`)).catch(() => undefined);
    const put = await server.fetch('/remote.php/dav/files/rclone-user/Personal/Sync/docs/from%20the%20server.txt', {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from(`rclone-user:${password}`).toString('base64')}` },
      body: 'from the server',
    });
    expect(put.status).toBe(201);
    await rclone('copy', remote, local, '--ignore-existing');
    await rclone('sync', local, remote);
    await rclone('sync', remote, back);
    await rclone('check', local, remote, '--download');
    await rclone('check', local, back, '--download');
    expect(await readFile(path.join(back, 'docs', 'from the server.txt'), 'utf8')).toBe('from the server');
    expect(await readFile(path.join(back, 'docs', 'file 1.txt'), 'utf8')).toBe('changed here');
    expect(await readFile(path.join(back, 'docs', 'Über uns', 'new here ✓.txt'), 'utf8')).toBe('new here');
  });
});
