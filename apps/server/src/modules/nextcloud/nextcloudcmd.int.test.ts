import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreatedAppPassword } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * Debian's `nextcloudcmd` (the Nextcloud desktop client's command line, `nextcloud-desktop-cmd`, installed by
 * `.ci/run`) against Atrium (docs/PRODUCT.md#nextcloud-clients): discovery, then a two-way sync of a person's
 * Personal folder: down and up, a rename, a delete, a conflict, and a large file the client sends in chunks.
 */
const CHUNK = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const run = (args: string[], home: string) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      'nextcloudcmd',
      args,
      {
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          HOME: home,
          // Chunks of 1 MiB (the client's default is 10 MiB and more), so a 3.5 MiB file goes in chunks.
          OWNCLOUD_CHUNK_SIZE: String(CHUNK),
          OWNCLOUD_MIN_CHUNK_SIZE: String(CHUNK),
          OWNCLOUD_MAX_CHUNK_SIZE: String(CHUNK),
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });

describe('nextcloudcmd syncs with Atrium', () => {
  let server: TestServer;
  let dir: string;
  let home: string;
  let auth: string;
  let password: string;
  const seen: string[] = [];
  const OWNER = 'ncmd-ann';
  const remote = (name: string) => `/remote.php/dav/files/${OWNER}/Personal/${encodeURIComponent(name)}`;
  const dav = (method: string, path: string, body?: Uint8Array | string, headers: Record<string, string> = {}) =>
    server.fetch(path, {
      method,
      headers: { authorization: auth, ...headers },
      ...(body === undefined ? {} : { body }),
    });
  const remoteBytes = async (name: string) => {
    const response = await dav('GET', remote(name));
    return response.status === 200 ? new Uint8Array(await response.arrayBuffer()) : null;
  };
  const remoteNames = async () => {
    const xml = await (
      await dav('PROPFIND', `/remote.php/dav/files/${OWNER}/Personal/`, undefined, { depth: '1' })
    ).text();
    return [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)]
      .map((m) => decodeURIComponent(m[1]?.split('/Personal/')[1] ?? ''))
      .filter((name) => name !== '')
      .sort();
  };
  const localNames = async () =>
    (await readdir(dir)).filter((name) => !name.startsWith('.sync_') && !name.startsWith('._sync_')).sort();
  const sync = async () => {
    const result = await run(
      ['--non-interactive', '--path', '/Personal', '-u', OWNER, '-p', password, dir, server.url],
      home,
    );
    return result;
  };

  beforeAll(async () => {
    server = await startTestServer();
    server.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      response.on('finish', () => seen.push(`${request.method} ${request.url?.split('?')[0]} ${response.statusCode}`));
    });
    dir = await mkdtemp(join(tmpdir(), 'ncmd-'));
    home = await mkdtemp(join(tmpdir(), 'ncmd-home-'));
    const cookie = await server.signInAs({ owner_key: OWNER, name: 'Ann' });
    const created = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'nextcloudcmd' }),
      201,
    );
    password = created.password;
    auth = `Basic ${Buffer.from(`${OWNER}:${password}`).toString('base64')}`;
  });
  afterAll(async () => {
    await server?.close();
    for (const folder of [dir, home]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('refuses a wrong password after discovering the server', async () => {
    const mark = seen.length;
    const result = await run(['--non-interactive', '-u', 'nobody', '-p', 'wrong', dir, server.url], home);
    // The client read the version from /status.php and the capabilities, then was refused.
    expect(result.output).toContain('Server "28.0.4.1"');
    expect(seen.slice(mark, mark + 3)).toEqual([
      'GET /status.php 200',
      'GET /ocs/v1.php/cloud/capabilities 200',
      'GET /ocs/v1.php/cloud/user 401',
    ]);
    expect(result.code).not.toBe(0);
    expect(await localNames()).toEqual([]);
  });

  it('syncs down and up, then a rename, a delete and a conflict, and a large file in chunks', async () => {
    // Round 1: a file on each side meets on both.
    expect((await dav('PUT', remote('from server.txt'), 'made on the server\n')).status).toBe(201);
    await writeFile(join(dir, 'from laptop.txt'), 'made on the laptop\n');
    await writeFile(join(dir, 'both.txt'), 'first\n');
    const first = await sync();
    expect(first.code, first.output).toBe(0);
    expect(await localNames(), first.output).toEqual(['both.txt', 'from laptop.txt', 'from server.txt']);
    expect(await remoteNames()).toEqual(['both.txt', 'from laptop.txt', 'from server.txt']);
    expect(await readFile(join(dir, 'from server.txt'), 'utf8')).toBe('made on the server\n');
    expect(Buffer.from((await remoteBytes('from laptop.txt')) ?? []).toString()).toBe('made on the laptop\n');

    // Round 2: renamed on the laptop, deleted on the server.
    await rename(join(dir, 'from laptop.txt'), join(dir, 'renamed.txt'));
    expect((await dav('DELETE', remote('from server.txt'))).status).toBe(204);
    const second = await sync();
    expect(second.code, second.output).toBe(0);
    expect(await localNames()).toEqual(['both.txt', 'renamed.txt']);
    expect(await remoteNames()).toEqual(['both.txt', 'renamed.txt']);
    expect(Buffer.from((await remoteBytes('renamed.txt')) ?? []).toString()).toBe('made on the laptop\n');

    // Round 3: both sides change both.txt: the server's version wins the name, the laptop's is kept as the
    // client's conflict copy; nothing is lost.
    expect((await dav('PUT', remote('both.txt'), 'changed on the server\n')).status).toBe(204);
    await writeFile(join(dir, 'both.txt'), 'changed on the laptop, longer\n');
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'both.txt'), later, later);
    const third = await sync();
    expect(third.code, third.output).toBe(0);
    const names = await localNames();
    const copy = names.find((name) => /^both \(conflicted copy .+\)\.txt$/.test(name));
    expect(copy, names.join(', ')).toBeDefined();
    expect(await readFile(join(dir, copy ?? ''), 'utf8')).toBe('changed on the laptop, longer\n');
    expect(await readFile(join(dir, 'both.txt'), 'utf8')).toBe('changed on the server\n');
    expect(Buffer.from((await remoteBytes('both.txt')) ?? []).toString()).toBe('changed on the server\n');

    // Round 4: a file larger than the client's chunk size goes up in chunks and comes back identical.
    const big = Uint8Array.from({ length: 3 * CHUNK + 512 * 1024 }, (_, i) => (i * 7 + (i >> 13)) % 256);
    await writeFile(join(dir, 'large.bin'), big);
    const before = seen.length;
    const fourth = await sync();
    expect(fourth.code, fourth.output).toBe(0);
    const requests = seen.slice(before);
    const chunkPuts = requests.filter((line) =>
      /^PUT \/remote\.php\/dav\/uploads\/ncmd-ann\/[^/]+\/[^/]+ 201$/.test(line),
    );
    expect(chunkPuts.length, requests.join('\n')).toBe(4);
    expect(requests.some((line) => /^MOVE \/remote\.php\/dav\/uploads\/ncmd-ann\/[^/]+\/\.file 201$/.test(line))).toBe(
      true,
    );
    expect(sha256((await remoteBytes('large.bin')) ?? new Uint8Array())).toBe(sha256(big));
    expect((await stat(join(dir, 'large.bin'))).size).toBe(big.length);
    expect(sha256(await readFile(join(dir, 'large.bin')))).toBe(sha256(big));
  });
});
