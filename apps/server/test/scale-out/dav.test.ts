import { rcloneRemote } from '../rclone';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, signInDirectly } from '../helpers';
import { ADMIN_PASSWORD, startTopology, type Instance, type Topology } from './topology';

const LOCKINFO =
  '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * WebDAV in the production topology (docs/DEPLOY.md "Scale-out", docs/PRODUCT.md#webdav): nginx with
 * deploy/nginx/atrium-proxy.conf in front of two instances sharing PostgreSQL, Redis and S3. Locks live in the
 * database, so a lock taken on one instance holds on the other, in WebDAV and in the app; what one instance stored
 * the other lists; rclone (Debian) syncs a tree through nginx with 0 differences and keeps modification times.
 */
describe('scale-out: WebDAV through nginx in front of two instances', () => {
  let topology: Topology;
  let work = '';
  let admin = { cookie: '', auth: '' };
  let eve = { cookie: '', auth: '' };
  const tree = '/remote.php/dav/files/admin/Workspaces/Scale%20DAV';

  const dav = (where: Instance | Topology, auth: string, method: string, pathname: string, init: RequestInit = {}) =>
    fetch(`${where.url}${pathname}`, {
      ...init,
      method,
      headers: { authorization: auth, ...(init.headers as Record<string, string> | undefined) },
    });
  /** An app password of the person behind `cookie`, made through nginx. */
  const appPassword = async (cookie: string, ownerKey: string) => {
    const made = await fetch(`${topology.url}/api/me/app-passwords`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'scale-out' }),
    });
    expect(made.status).toBe(201);
    return basic(ownerKey, (await readJson<{ password: string }>(made)).password);
  };

  beforeAll(async () => {
    topology = await startTopology();
    work = await mkdtemp(path.join(tmpdir(), 'atrium-scale-dav-'));
    const login = await fetch(`${topology.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const adminCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    admin = { cookie: adminCookie, auth: await appPassword(adminCookie, 'admin') };
    const eveCookie = await signInDirectly(topology.databaseUrl, 'scale-dav-eve');
    eve = { cookie: eveCookie, auth: await appPassword(eveCookie, 'scale-dav-eve') };
    const json = { cookie: adminCookie, 'content-type': 'application/json' };
    const workspace = await fetch(`${topology.url}/api/workspaces`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Scale DAV' }),
    });
    expect(workspace.status).toBe(201);
    const { id } = await readJson<{ id: string }>(workspace);
    const member = await fetch(`${topology.url}/api/workspaces/${id}/members/scale-dav-eve`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ role: 'editor' }),
    });
    expect(member.status).toBe(200);
  }, 240_000);
  afterAll(async () => {
    await topology?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 60_000);

  it('lists on one instance what a PUT stored on the other', async () => {
    const [one, two] = topology.instances;
    const put = await dav(one, admin.auth, 'PUT', `${tree}/from%20one.txt`, { body: 'stored on one' });
    expect(put.status).toBe(201);
    const listing = await dav(two, admin.auth, 'PROPFIND', `${tree}/`, {
      headers: { depth: '1' },
      body: '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:getcontentlength/></d:prop></d:propfind>',
    });
    expect(listing.status).toBe(207);
    const text = await listing.text();
    expect(text).toContain('/from%20one.txt</d:href>');
    expect(text).toContain('<d:getcontentlength>13</d:getcontentlength>');
    // The same ETag (XML-escaped in the multistatus) as the PUT answered.
    expect(text).toContain(`<d:getetag>${(put.headers.get('etag') ?? '').replaceAll('"', '&quot;')}</d:getetag>`);
    const read = await dav(two, admin.auth, 'GET', `${tree}/from%20one.txt`);
    expect(await read.text()).toBe('stored on one');
  });

  it('honours a lock taken on one instance on the other: over WebDAV and in the app', async () => {
    const [one, two] = topology.instances;
    const put = await dav(topology, admin.auth, 'PUT', `${tree}/locked.txt`, { body: 'v1' });
    expect(put.status).toBe(201);
    const fileId = put.headers.get('oc-fileid') ?? '';
    const locked = await dav(one, admin.auth, 'LOCK', `${tree}/locked.txt`, {
      headers: { depth: '0', timeout: 'Second-600' },
      body: LOCKINFO,
    });
    expect(locked.status).toBe(200);
    const token = locked.headers.get('lock-token') ?? '';
    // On the other instance: a write without the token is refused, with it the holder writes.
    expect((await dav(two, admin.auth, 'PUT', `${tree}/locked.txt`, { body: 'no token' })).status).toBe(423);
    const discovered = await dav(two, admin.auth, 'PROPFIND', `${tree}/locked.txt`, {
      headers: { depth: '0' },
      body: '<d:propfind xmlns:d="DAV:"><d:prop><d:lockdiscovery/></d:prop></d:propfind>',
    });
    expect(await discovered.text()).toContain(token.slice(1, -1));
    expect(
      (await dav(two, admin.auth, 'PUT', `${tree}/locked.txt`, { headers: { if: `(${token})` }, body: 'v2' })).status,
    ).toBe(204);
    // Someone else, on the other instance: refused over WebDAV and in the app.
    expect(
      (await dav(two, eve.auth, 'DELETE', '/remote.php/dav/files/scale-dav-eve/Workspaces/Scale%20DAV/locked.txt'))
        .status,
    ).toBe(423);
    const rename = await fetch(`${two.url}/api/files/${fileId}`, {
      method: 'PATCH',
      headers: { cookie: eve.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 'taken.txt' }),
    });
    expect(rename.status).toBe(423);
    expect((await readJson<{ error: { code: string } }>(rename)).error.code).toBe('LOCKED');
    // Unlocked on the other instance: everyone may again, on either.
    expect(
      (await dav(two, admin.auth, 'UNLOCK', `${tree}/locked.txt`, { headers: { 'lock-token': token } })).status,
    ).toBe(204);
    const renamed = await fetch(`${one.url}/api/files/${fileId}`, {
      method: 'PATCH',
      headers: { cookie: eve.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 'taken.txt' }),
    });
    expect(renamed.status).toBe(200);
  });

  it(
    'syncs a tree with rclone through nginx: 0 differences both ways, modification times kept',
    { timeout: 300_000 },
    async () => {
      const local = path.join(work, 'local');
      const back = path.join(work, 'back');
      const folders = ['', 'docs', 'docs/Über uns', 'photos/2024 — summer', 'código'];
      for (const folder of folders) await mkdir(path.join(local, folder), { recursive: true });
      const count = 60;
      for (let i = 0; i < count; i += 1) {
        const name = [`file ${i}.txt`, `naïve-${i}.md`, `日本語 ${i}.bin`][i % 3] ?? `f${i}`;
        const size = i % 10 === 0 ? 0 : i % 20 === 1 ? 2 * 1024 * 1024 + i : 500 + i * 31;
        const file = path.join(local, folders[i % folders.length] ?? '', name);
        await writeFile(file, randomBytes(size));
        // Modified long before the upload: only X-OC-Mtime can give the server these times.
        const modified = new Date(Date.UTC(2001, 8, 9) + i * 61_000);
        await utimes(file, modified, modified);
      }
      const password = Buffer.from(admin.auth.slice(6), 'base64').toString().split(':')[1] ?? '';
      const rclone = await rcloneRemote({ name: 'scale', baseUrl: topology.url, user: 'admin', password });
      const remote = 'scale:Workspaces/Scale DAV/Sync';
      await rclone('sync', local, remote);
      await rclone('sync', remote, back);
      const up = await rclone('check', local, remote, '--download');
      expect(up.stderr).toContain('0 differences found');
      const down = await rclone('check', local, back, '--download');
      expect(down.stderr).toContain('0 differences found');
      // Sizes and modification times (to the second: X-OC-Mtime) as on the local disk.
      const listing = async (where: string) =>
        (await rclone('lsf', '-R', '--files-only', '--format', 'pst', where)).stdout.trim().split('\n').sort();
      const mine = await listing(local);
      expect(mine).toHaveLength(count);
      expect(await listing(remote)).toEqual(mine);
    },
  );
});
