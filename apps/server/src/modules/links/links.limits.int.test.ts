import { request as httpRequest } from 'node:http';
import type { Link, Workspace } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_BUSY_MESSAGE } from '../../lib/passwords';
import {
  callsAs,
  dialects,
  expectJson,
  readError,
  readJson,
  signInPeople,
  startTestServer,
  statusCounts,
  type TestServer,
} from '../../../test/helpers';

/**
 * What public links must hold against a bearer who does not play along: parallel password guesses, a flood of
 * unlocks, ranges on a limited link, and links whose maker lost the right to share (docs/SECURITY.md, public links).
 */
describe.each(dialects())('public link limits against parallel and partial requests (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const api = callsAs(() => server, cookies);
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    // Behind a trusted proxy, so a test can speak from several client addresses (X-Forwarded-For).
    server = await startTestServer({ dialect, env: { TRUST_PROXY: '127.0.0.1' } });
    Object.assign(cookies, await signInPeople(server, ['olivia', 'bob', 'alice', 'carl']));
  });
  // Generous: these tests run hundreds of scrypt checks, and the suite runs beside every other file in CI.
  afterAll(async () => server?.close(), 120_000);

  const uploadAs = async (who: string, name: string, content: string | Uint8Array, folderId?: string) =>
    api.json<{ id: string; size: number }>(api.upload(who, folderId ? `?folderId=${folderId}` : '', name, content));
  const linkAs = async (who: string, body: Record<string, unknown>) =>
    api.json<Link>(api.call(who, 'POST', '/api/links', body), 201);
  const listAs = async (who: string, query: string) => api.json<Link[]>(api.call(who, 'GET', `/api/links?${query}`));
  const pub = (token: string, rest = '', init?: RequestInit) => server.fetch(`/api/public/links/${token}${rest}`, init);
  /** An unlock attempt, its answer read whole (no connection is left holding an unread body). */
  const unlock = async (token: string, password: string, ip: string) => {
    const answer = await pub(token, '/unlock', {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': ip },
      body: JSON.stringify({ password }),
    });
    const body = await answer.text();
    return {
      status: answer.status,
      headers: answer.headers,
      error: () => (JSON.parse(body) as { error: { code: string; message: string } }).error,
    };
  };
  const statuses = statusCounts;

  describe('wrong link passwords, sent in parallel', () => {
    it('checks exactly the limit of 40 parallel wrong passwords from one address (10 × 401), the rest 429', async () => {
      const file = await uploadAs('olivia', 'guarded.txt', 'guarded');
      const link = await linkAs('olivia', { fileId: file.id, password: 'right one' });
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => unlock(link.token, `wrong ${i}`, '203.0.113.40')),
      );
      expect(statuses(answers)).toEqual({ 401: 10, 429: 30 });
      for (const answer of answers.filter((a) => a.status === 429)) {
        expect(answer.error()).toMatchObject({
          code: 'RATE_LIMITED',
          message: 'Too many wrong passwords for this link. Please wait 15 minutes and try again.',
        });
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      // The right password from that address is still refused until the window ends.
      expect((await unlock(link.token, 'right one', '203.0.113.40')).status).toBe(429);
      expect((await unlock(link.token, 'right one', '203.0.113.41')).status).toBe(200);
    }, 120_000);

    it("holds the link's own limit (30) against 3 addresses × 60 parallel wrong passwords", async () => {
      const file = await uploadAs('olivia', 'guarded-too.txt', 'guarded');
      const link = await linkAs('olivia', { fileId: file.id, password: 'right one' });
      const answers = await Promise.all(
        ['203.0.113.50', '203.0.113.51', '203.0.113.52'].flatMap((ip) =>
          Array.from({ length: 60 }, (_, i) => unlock(link.token, `wrong ${i}`, ip)),
        ),
      );
      const burst = statuses(answers);
      expect((burst[401] ?? 0) + (burst[429] ?? 0)).toBe(180);
      expect(burst[401] ?? 0).toBeLessThanOrEqual(30);
      // Attempts refused while the server was busy were not counted: fresh addresses may go on until exactly 30
      // wrong passwords in all were checked on this link.
      let checked = burst[401] ?? 0;
      for (let i = 0; i < 40; i++) {
        const answer = await unlock(link.token, `later ${i}`, `203.0.113.${100 + i}`);
        if (answer.status === 429) break;
        expect(answer.status).toBe(401);
        checked += 1;
      }
      expect(checked).toBe(30);
      const locked = await unlock(link.token, 'right one', '203.0.113.99');
      expect(locked.status).toBe(429);
      expect(locked.error().message).toBe(
        'Too many wrong passwords for this link. Please wait 15 minutes and try again.',
      );
    }, 120_000);

    it('refuses password checks past the few the server runs at once (429, Retry-After); downloads go on', async () => {
      const links = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const file = await uploadAs('olivia', `flood-${i}.txt`, 'flood');
          return linkAs('olivia', { fileId: file.id, password: 'right one' });
        }),
      );
      const content = new Uint8Array(256 * 1024).map((_, i) => i % 251);
      const big = await uploadAs('olivia', 'big.bin', content);
      // 100 attempts from 100 addresses, 20 a link: within every count, past what the server checks at once.
      const attempts = Promise.all(
        Array.from({ length: 100 }, (_, i) => unlock(links[i % 5]?.token ?? '', `wrong ${i}`, `198.51.100.${i + 1}`)),
      );
      const download = await server.fetch(`/api/files/download/${big.id}`, {
        headers: { cookie: cookies.olivia ?? '' },
      });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(content))).toBe(true);
      const answers = await attempts;
      const counts = statuses(answers);
      expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(100);
      expect(counts[429] ?? 0).toBeGreaterThan(0);
      const busy = answers.find((answer) => answer.status === 429);
      expect(busy?.headers.get('retry-after')).toBe('1');
      expect(busy?.error()).toMatchObject({ code: 'RATE_LIMITED', message: PASSWORD_BUSY_MESSAGE });
    }, 120_000);
  });

  describe('download limits and ranges', () => {
    const content = new Uint8Array(200_000).map((_, i) => (i * 7) % 256);

    it('serves 20 parallel `Range: bytes=1-` on a link of one download once; the rest are 410 LINK_USED_UP', async () => {
      const file = await uploadAs('olivia', 'ranged.bin', content);
      const link = await linkAs('olivia', { fileId: file.id, maxDownloads: 1 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => pub(link.token, '/download', { headers: { range: 'bytes=1-' } })),
      );
      expect(statuses(answers)).toEqual({ 206: 1, 410: 19 });
      const served = answers.find((answer) => answer.status === 206);
      expect(Buffer.from(await (served as Response).arrayBuffer()).equals(Buffer.from(content.subarray(1)))).toBe(true);
      for (const answer of answers.filter((a) => a.status === 410)) {
        expect(await readError(answer)).toMatchObject({
          code: 'LINK_USED_UP',
          message: 'This link has reached its download limit.',
        });
      }
      expect((await listAs('olivia', `fileId=${file.id}`)).find((l) => l.id === link.id)?.downloads).toBe(1);
      expect((await pub(link.token)).status).toBe(410);
      expect((await pub(link.token, '/download', { method: 'HEAD' })).status).toBe(410);
    });

    it("counts ranges below a folder link's folder the same way", async () => {
      const folder = await api.json<{ id: string }>(
        api.call('olivia', 'POST', '/api/folders', { name: 'Ranged' }),
        201,
      );
      const file = await uploadAs('olivia', 'inside.bin', content, folder.id);
      const link = await linkAs('olivia', { folderId: folder.id, maxDownloads: 1 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          pub(link.token, `/files/${file.id}/download`, { headers: { range: 'bytes=1-' } }),
        ),
      );
      expect(statuses(answers)).toEqual({ 206: 1, 410: 19 });
      expect((await pub(link.token, '/zip')).status).toBe(410);
    });

    it('lets a download that stopped part way resume with Range within a limit of 1, and no further', async () => {
      const file = await uploadAs('olivia', 'resumed.bin', content);
      const link = await linkAs('olivia', { fileId: file.id, maxDownloads: 1 });
      const first = await pub(link.token, '/download', { headers: { range: 'bytes=0-99999' } });
      expect(first.status).toBe(206);
      const head = Buffer.from(await first.arrayBuffer());
      const rest = await pub(link.token, '/download', {
        headers: { range: 'bytes=100000-', 'if-range': first.headers.get('etag') ?? '' },
      });
      expect(rest.status).toBe(206);
      const tail = Buffer.from(await rest.arrayBuffer());
      expect(Buffer.concat([head, tail]).equals(Buffer.from(content))).toBe(true);
      expect((await listAs('olivia', `fileId=${file.id}`)).find((l) => l.id === link.id)?.downloads).toBe(1);
      // The bytes of that one download are spent: again from anywhere is a second download, over the limit.
      for (const range of ['bytes=1-', 'bytes=150000-', 'bytes=0-']) {
        const again = await pub(link.token, '/download', { headers: { range } });
        expect(again.status, range).toBe(410);
        expect((await readError(again)).code).toBe('LINK_USED_UP');
      }
      expect((await pub(link.token, '/download')).status).toBe(410);
    });

    it('gives back the bytes a download cut short never sent, so the rest can be fetched within the limit', async () => {
      const large = new Uint8Array(24 * 1024 * 1024).map((_, i) => i % 253);
      const file = await uploadAs('olivia', 'large.bin', large);
      const link = await linkAs('olivia', { fileId: file.id, maxDownloads: 1 });
      // A whole download the client drops after its first bytes.
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(`${server.url}/api/public/links/${link.token}/download`, (response) => {
          response.once('data', () => {
            response.destroy();
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
        request.end();
      });
      const servedBytes = async () =>
        Number(
          (
            await server.app.database.db
              .selectFrom('links')
              .select('bytes_served')
              .where('id', '=', link.id)
              .executeTakeFirstOrThrow()
          ).bytes_served,
        );
      // The server notices the closed connection and gives the unsent bytes back.
      for (let i = 0; i < 100 && (await servedBytes()) >= large.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await servedBytes()).toBeLessThan(large.length / 2);
      const last = await pub(link.token, '/download', { headers: { range: `bytes=${large.length / 2}-` } });
      expect(last.status).toBe(206);
      expect(Buffer.from(await last.arrayBuffer()).equals(Buffer.from(large.subarray(large.length / 2)))).toBe(true);
      expect((await listAs('olivia', `fileId=${file.id}`)).find((l) => l.id === link.id)?.downloads).toBe(1);
    });
  });

  describe("a link lasts as long as its maker's right to share", () => {
    it('suspends the link of an editor removed from the workspace (404 like a revoked link), back when re-added', async () => {
      const workspace = await expectJson<Workspace>(
        api.call('olivia', 'POST', '/api/workspaces', { name: 'Crew' }),
        201,
      );
      await expectJson(api.call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/bob`, { role: 'editor' }));
      const file = await uploadAs('bob', 'plan.txt', 'the plan', workspace.rootFolderId);
      const bobs = await linkAs('bob', { fileId: file.id });
      const olivias = await linkAs('olivia', { fileId: file.id });
      expect(await (await pub(bobs.token, '/download')).text()).toBe('the plan');
      const state = async () =>
        Object.fromEntries((await listAs('olivia', `fileId=${file.id}`)).map((l) => [l.id, l.suspended]));
      expect(await state()).toEqual({ [bobs.id]: false, [olivias.id]: false });

      await expectJson(api.call('olivia', 'DELETE', `/api/workspaces/${workspace.id}/members/bob`));
      for (const rest of ['', '/download']) {
        const gone = await pub(bobs.token, rest);
        expect(gone.status, rest).toBe(404);
        expect(await readError(gone)).toMatchObject({
          code: 'LINK_NOT_FOUND',
          message: 'This link is no longer available.',
        });
      }
      expect((await pub(olivias.token, '/download')).status).toBe(200);
      expect(await state()).toEqual({ [bobs.id]: true, [olivias.id]: false });

      await expectJson(api.call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/bob`, { role: 'editor' }));
      expect(await (await pub(bobs.token, '/download')).text()).toBe('the plan');
      expect(await state()).toEqual({ [bobs.id]: false, [olivias.id]: false });

      // A viewer may not share: lowered to viewer, his link rests again.
      await expectJson(api.call('olivia', 'PUT', `/api/workspaces/${workspace.id}/members/bob`, { role: 'viewer' }));
      expect((await pub(bobs.token, '/download')).status).toBe(404);
      expect(await state()).toEqual({ [bobs.id]: true, [olivias.id]: false });
    });

    it("suspends a person-share editor's link once the share is revoked", async () => {
      const folder = await api.json<{ id: string }>(api.call('alice', 'POST', '/api/folders', { name: 'Lent' }), 201);
      const file = await uploadAs('alice', 'lent.txt', 'lent', folder.id);
      await expectJson(api.call('alice', 'PUT', `/api/folders/${folder.id}/shares/carl`, { role: 'editor' }), 201);
      const carls = await linkAs('carl', { folderId: folder.id });
      const carlsFileLink = await linkAs('carl', { fileId: file.id });
      expect((await pub(carls.token, `/files/${file.id}/download`)).status).toBe(200);
      const detailsLinks = async () =>
        (
          await readJson<{ links: Link[] | null }>(
            await server.fetch(`/api/files/${file.id}/details`, { headers: { cookie: cookies.alice ?? '' } }),
          )
        ).links?.map((l) => l.id);
      expect(await detailsLinks()).toEqual([carlsFileLink.id]);

      await expectJson(api.call('alice', 'DELETE', `/api/folders/${folder.id}/shares/carl`));
      for (const rest of ['', `/files/${file.id}/download`, '/zip']) {
        const gone = await pub(carls.token, rest);
        expect(gone.status, rest).toBe(404);
        expect((await readError(gone)).code).toBe('LINK_NOT_FOUND');
      }
      const list = await listAs('alice', `folderId=${folder.id}`);
      expect(list.find((l) => l.id === carls.id)?.suspended).toBe(true);
      expect((await pub(carlsFileLink.token, '/download')).status).toBe(404);
      // Nor is his file link offered as a working one in the file's details.
      expect(await detailsLinks()).toEqual([]);
    });
  });
});
