import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Folder, Link, PublicLink, PublicUploadResponse } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { unzipText } from '../../../test/zip';

/** A clock the tests move forward (expiry). */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const MAX_UPLOAD = 64 * 1024;

describe.each(dialects())('public links (%s)', (dialect) => {
  let server: TestServer;
  let owner: string;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD) }, overrides: { clock } });
    owner = await server.signInAs({ owner_key: 'lena', name: 'Lena' });
  });
  afterAll(async () => server?.close());

  const folder = async (name: string, parentId?: string) =>
    readJson<Folder>(
      await server.fetch('/api/folders', {
        method: 'POST',
        headers: { cookie: owner, ...json },
        body: JSON.stringify({ name, ...(parentId ? { parentId } : {}) }),
      }),
    );
  const upload = async (name: string, content: string, folderId?: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const response = await server.fetch(`/api/files/upload${folderId ? `?folderId=${folderId}` : ''}`, {
      method: 'POST',
      headers: { cookie: owner, accept: 'application/json' },
      body: form,
    });
    expect(response.status).toBe(200);
    return readJson<{ id: string; fileName: string }>(response);
  };
  const createLink = async (body: Record<string, unknown>) => {
    const response = await server.fetch('/api/links', {
      method: 'POST',
      headers: { cookie: owner, ...json },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return readJson<Link>(response);
  };
  const linkCount = async (link: Link) => {
    const query = link.fileId ? `fileId=${link.fileId}` : `folderId=${link.folderId}`;
    const list = await readJson<Link[]>(await server.fetch(`/api/links?${query}`, { headers: { cookie: owner } }));
    return list.find((l) => l.id === link.id)?.downloads;
  };
  const pub = (token: string, rest = '', init?: RequestInit) => server.fetch(`/api/public/links/${token}${rest}`, init);

  it('creates a file link with a random token; the owner lists it; the page shows the file', async () => {
    const file = await upload('report.txt', 'hello public world');
    const link = await createLink({ fileId: file.id });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(link.url).toBe(`/s/${link.token}`);
    expect(link).toMatchObject({
      fileId: file.id,
      folderId: null,
      hasPassword: false,
      downloads: 0,
      createdBy: 'Lena',
    });
    const other = await createLink({ fileId: file.id });
    expect(other.token).not.toBe(link.token);
    const list = await readJson<Link[]>(
      await server.fetch(`/api/links?fileId=${file.id}`, { headers: { cookie: owner } }),
    );

    expect(new Set(list.map((l) => l.id))).toEqual(new Set([link.id, other.id]));

    const page = await pub(link.token);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await readJson<PublicLink>(page)).toMatchObject({
      kind: 'file',
      locked: false,
      allowUpload: false,
      file: { fileName: 'report.txt', size: 18, contentType: 'text/plain' },
    });
  });

  it('downloads with Range and ETag; a whole GET and a first range count, later ranges, HEAD and 304 do not', async () => {
    const file = await upload('counted.txt', '0123456789abcdef');
    const link = await createLink({ fileId: file.id });
    const full = await pub(link.token, '/download');
    expect(full.status).toBe(200);
    expect(await full.text()).toBe('0123456789abcdef');
    expect(full.headers.get('referrer-policy')).toBe('no-referrer');
    expect(full.headers.get('x-robots-tag')).toContain('noindex');
    expect(full.headers.get('content-disposition')).toContain('counted.txt');
    const etag = full.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await linkCount(link)).toBe(1);

    const later = await pub(link.token, '/download', { headers: { range: 'bytes=10-' } });
    expect(later.status).toBe(206);
    expect(later.headers.get('content-range')).toBe('bytes 10-15/16');
    expect(await later.text()).toBe('abcdef');
    expect(await linkCount(link)).toBe(1);

    const first = await pub(link.token, '/download', { headers: { range: 'bytes=0-3' } });
    expect(first.status).toBe(206);
    expect(await first.text()).toBe('0123');
    expect(await linkCount(link)).toBe(2);

    // Previews load the bytes inline (and count like any whole download).
    const preview = await pub(link.token, '/download?inline=1');
    expect(preview.headers.get('content-disposition')).toMatch(/^inline/);
    expect(await preview.text()).toBe('0123456789abcdef');
    expect(await linkCount(link)).toBe(3);

    const cached = await pub(link.token, '/download', { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    const head = await pub(link.token, '/download', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('16');
    const outside = await pub(link.token, '/download', { headers: { range: 'bytes=99-' } });
    expect(outside.status).toBe(416);
    expect(await linkCount(link)).toBe(3);
  });

  it('stops at the download limit: 410 LINK_USED_UP for the page and the bytes', async () => {
    const file = await upload('once.txt', 'only once');
    const link = await createLink({ fileId: file.id, maxDownloads: 1 });
    expect((await pub(link.token, '/download')).status).toBe(200);
    const again = await pub(link.token, '/download');
    expect(again.status).toBe(410);
    expect(await readError(again)).toMatchObject({
      code: 'LINK_USED_UP',
      message: 'This link has reached its download limit.',
    });
    expect((await readError(await pub(link.token))).code).toBe('LINK_USED_UP');
    expect(await linkCount(link)).toBe(1);
  });

  it('expires: 410 LINK_EXPIRED after expiresAt; an expiry in the past is refused at creation', async () => {
    const file = await upload('soon.txt', 'soon gone');
    const link = await createLink({
      fileId: file.id,
      expiresAt: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await pub(link.token)).status).toBe(200);
    offsetMs += 61_000;
    const expired = await pub(link.token, '/download');
    expect(expired.status).toBe(410);
    expect(await readError(expired)).toMatchObject({ code: 'LINK_EXPIRED', message: 'This link has expired.' });
    expect((await pub(link.token)).status).toBe(410);
    const past = await server.fetch('/api/links', {
      method: 'POST',
      headers: { cookie: owner, ...json },
      body: JSON.stringify({ fileId: file.id, expiresAt: '2020-01-01T00:00:00Z' }),
    });
    expect(past.status).toBe(400);
    expect((await readError(past)).message).toBe('expiresAt must be in the future.');
  });

  it('revokes: the link answers 404 like an unknown one and leaves the list', async () => {
    const file = await upload('revoked.txt', 'bye');
    const link = await createLink({ fileId: file.id });
    const revoked = await server.fetch(`/api/links/${link.id}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(await readJson(revoked)).toEqual({ id: link.id, revoked: true });
    for (const rest of ['', '/download']) {
      const answer = await pub(link.token, rest);
      expect(answer.status).toBe(404);
      expect(await readError(answer)).toMatchObject({
        code: 'LINK_NOT_FOUND',
        message: 'This link is no longer available.',
      });
    }
    expect((await readError(await pub('no-such-token'))).code).toBe('LINK_NOT_FOUND');
    expect(await linkCount(link)).toBeUndefined();
    // Creation and revocation are in the audit log, with who did them.
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const entries = await readJson<{ entries: { action: string; actor: string; details: unknown }[] }>(
      await server.fetch(`/api/admin/audit?target=link:${link.id}`, { headers: { cookie: admin } }),
    );
    expect(entries.entries.map((e) => [e.action, e.actor])).toEqual([
      ['link.revoked', 'lena'],
      ['link.created', 'lena'],
    ]);
    expect(entries.entries[1]?.details).toMatchObject({ fileId: file.id, hasPassword: false });
    const twice = await server.fetch(`/api/links/${link.id}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(twice.status).toBe(404);
  });

  it("rests while an admin has disabled the link's creator: 404 like a revoked link, back once enabled", async () => {
    const file = await upload('resting.txt', 'zzz');
    const link = await createLink({ fileId: file.id });
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    const setDisabled = async (disabled: boolean) => {
      const answer = await server.fetch('/api/admin/users/lena', {
        method: 'PATCH',
        headers: { cookie: admin, ...json },
        body: JSON.stringify({ disabled }),
      });
      expect(answer.status).toBe(200);
    };
    await setDisabled(true);
    try {
      for (const rest of ['', '/download']) {
        const answer = await pub(link.token, rest);
        expect(answer.status).toBe(404);
        expect((await readError(answer)).code).toBe('LINK_NOT_FOUND');
      }
    } finally {
      await setDisabled(false);
      owner = await server.signInAs({ owner_key: 'lena', name: 'Lena' });
    }
    const back = await pub(link.token, '/download');
    expect(back.status).toBe(200);
    expect(await back.text()).toBe('zzz');
  });

  it('protects with a password: locked page, 401 until unlocked, an HttpOnly cookie for that link only', async () => {
    const file = await upload('secret.txt', 'top secret');
    const link = await createLink({ fileId: file.id, password: 'open sesame' });
    const other = await createLink({ fileId: file.id, password: 'open sesame' });
    expect(link.hasPassword).toBe(true);
    const stored = await server.app.database.db
      .selectFrom('links')
      .select('password_hash')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('open sesame');

    expect(await readJson<PublicLink>(await pub(link.token))).toEqual({
      kind: 'file',
      locked: true,
      allowUpload: false,
      expiresAt: null,
    });
    const locked = await pub(link.token, '/download');
    expect(locked.status).toBe(401);
    expect((await readError(locked)).code).toBe('LINK_LOCKED');

    const unlock = (token: string, password: string) =>
      pub(token, '/unlock', { method: 'POST', headers: json, body: JSON.stringify({ password }) });
    const wrong = await unlock(link.token, 'guess');
    expect(wrong.status).toBe(401);
    expect(await readError(wrong)).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Wrong password.' });
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const right = await unlock(link.token, 'open sesame');
    expect(right.status).toBe(200);
    expect(await readJson(right)).toEqual({ unlocked: true });
    const setCookie = right.headers.get('set-cookie') ?? '';
    expect(setCookie).toContain(`atrium_link_${link.id}=`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    const cookie = setCookie.split(';')[0] ?? '';

    const page = await readJson<PublicLink>(await pub(link.token, '', { headers: { cookie } }));
    expect(page).toMatchObject({ locked: false, file: { fileName: 'secret.txt' } });
    const bytes = await pub(link.token, '/download', { headers: { cookie } });
    expect(bytes.status).toBe(200);
    expect(await bytes.text()).toBe('top secret');
    // The cookie of one link opens no other, and a forged one opens nothing.
    expect((await pub(other.token, '/download', { headers: { cookie } })).status).toBe(401);
    const forged = `atrium_link_${other.id}=${cookie.split('=')[1] ?? ''}`;
    expect((await pub(other.token, '/download', { headers: { cookie: forged } })).status).toBe(401);
    const tampered = cookie.replace(/=(\d+)\./, (_m, exp: string) => `=${Number(exp) + 1000}.`);
    expect((await pub(link.token, '/download', { headers: { cookie: tampered } })).status).toBe(401);
  });

  it('shares a folder: paged listing of any folder below, downloads inside it only, a zip of the whole tree', async () => {
    const root = await folder('Project');
    const sub = await folder('Drafts', root.id);
    const deep = await folder('Old', sub.id);
    const outside = await folder('Private');
    await upload('a.txt', 'alpha', root.id);
    await upload('b.txt', 'bravo', root.id);
    const inSub = await upload('c.txt', 'charlie', sub.id);
    const inDeep = await upload('d.txt', 'delta', deep.id);
    const secret = await upload('e.txt', 'echo', outside.id);
    const link = await createLink({ folderId: root.id });

    const first = await readJson<PublicLink>(await pub(link.token, '?limit=2'));
    expect(first.kind).toBe('folder');
    expect(first.folder).toMatchObject({ id: root.id, name: 'Project', path: [{ id: root.id, name: 'Project' }] });
    expect(first.folder?.folders.map((f) => f.name)).toEqual(['Drafts']);
    expect(first.folder?.files.map((f) => f.fileName)).toEqual(['a.txt']);
    expect(first.folder?.nextCursor).toEqual(expect.any(String));
    const second = await readJson<PublicLink>(
      await pub(link.token, `?limit=2&cursor=${encodeURIComponent(first.folder?.nextCursor ?? '')}`),
    );
    expect(second.folder?.files.map((f) => f.fileName)).toEqual(['b.txt']);
    expect(second.folder?.nextCursor).toBeNull();

    const below = await readJson<PublicLink>(await pub(link.token, `?folderId=${deep.id}`));
    expect(below.folder?.path.map((c) => c.name)).toEqual(['Project', 'Drafts', 'Old']);
    expect(below.folder?.files.map((f) => f.fileName)).toEqual(['d.txt']);
    const above = await pub(link.token, `?folderId=${outside.id}`);
    expect(above.status).toBe(404);
    expect((await readError(above)).code).toBe('FOLDER_NOT_FOUND');

    const deepFile = await pub(link.token, `/files/${inDeep.id}/download`);
    expect(deepFile.status).toBe(200);
    expect(await deepFile.text()).toBe('delta');
    expect((await pub(link.token, `/files/${inSub.id}/download`, { headers: { range: 'bytes=2-' } })).status).toBe(206);
    const notBelow = await pub(link.token, `/files/${secret.id}/download`);
    expect(notBelow.status).toBe(404);
    expect((await readError(notBelow)).code).toBe('FILE_NOT_FOUND');
    const asFile = await pub(link.token, '/download');
    expect(asFile.status).toBe(400);
    expect(await linkCount(link)).toBe(1);

    const zip = await pub(link.token, '/zip');
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain('Project.zip');
    const body = Buffer.from(await zip.arrayBuffer());
    expect(zip.headers.get('content-length')).toBe(String(body.length));
    const entries = await unzipText(body);
    expect(Object.fromEntries(entries)).toEqual({
      'Drafts/': '',
      'Drafts/Old/': '',
      'a.txt': 'alpha',
      'b.txt': 'bravo',
      'Drafts/c.txt': 'charlie',
      'Drafts/Old/d.txt': 'delta',
    });
    expect(await linkCount(link)).toBe(2);
    const head = await pub(link.token, '/zip', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(body.length));
    expect(await linkCount(link)).toBe(2);
  });

  it('sends thumbnails of images through a link without counting a download', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png]), 'photo.png');
    const photo = await readJson<{ id: string }>(
      await server.fetch('/api/files/upload', {
        method: 'POST',
        headers: { cookie: owner, accept: 'application/json' },
        body: form,
      }),
    );
    const link = await createLink({ fileId: photo.id, maxDownloads: 1 });
    const thumb = await pub(link.token, '/thumbnail');
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).format).toBe('webp');
    const etag = thumb.headers.get('etag') ?? '';
    expect((await pub(link.token, '/thumbnail', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(await linkCount(link)).toBe(0);

    const gallery = await folder('Gallery');
    const moved = await server.fetch(`/api/files/${photo.id}`, {
      method: 'PATCH',
      headers: { cookie: owner, ...json },
      body: JSON.stringify({ folderId: gallery.id }),
    });
    expect(moved.status).toBe(200);
    const text = await upload('note.txt', 'no picture', gallery.id);
    const folderLink = await createLink({ folderId: gallery.id });
    expect((await pub(folderLink.token, `/files/${photo.id}/thumbnail`)).status).toBe(200);
    const none = await pub(folderLink.token, `/files/${text.id}/thumbnail`);
    expect(none.status).toBe(404);
    expect((await readError(none)).message).toBe('There is no thumbnail for this kind of file.');
    const locked = await createLink({ fileId: photo.id, password: 'pw' });
    expect((await pub(locked.token, '/thumbnail')).status).toBe(401);
  });

  it('zips names a zip cannot hold as they are (a drive-like colon) under a safe entry name', async () => {
    const odd = await folder('Odd');
    await upload('C:odd.txt', 'colon', odd.id);
    const link = await createLink({ folderId: odd.id });
    const zip = await pub(link.token, '/zip');
    expect(zip.status).toBe(200);
    expect(Object.fromEntries(await unzipText(Buffer.from(await zip.arrayBuffer())))).toEqual({ 'C_odd.txt': 'colon' });
  });

  it('counts and lists what arrived through a file drop; other links carry no received; a purged file leaves', async () => {
    const inbox = await folder('Arrivals');
    const drop = await createLink({ folderId: inbox.id, allowUpload: true });
    const plain = await createLink({ folderId: inbox.id });
    // A new drop link has received nothing yet; a link that is not a drop has no `received` at all.
    expect(drop.received).toEqual({ count: 0, recent: [] });
    expect(plain.received ?? null).toBeNull();
    const send = (name: string) => {
      const form = new FormData();
      form.append('file', new Blob([`content of ${name}`]), name);
      return pub(drop.token, '/upload', { method: 'POST', body: form });
    };
    // Three visitors drop at once: every one is counted.
    const sent = await Promise.all(['one.txt', 'two.txt', 'three.txt'].map(send));
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201]);
    const listed = async () => {
      const list = await readJson<Link[]>(
        await server.fetch(`/api/links?folderId=${inbox.id}`, { headers: { cookie: owner } }),
      );
      return { drop: list.find((l) => l.id === drop.id), plain: list.find((l) => l.id === plain.id) };
    };
    let now = await listed();
    expect(now.drop?.received?.count).toBe(3);
    expect(now.drop?.received?.recent.map((r) => r.name).sort()).toEqual(['one.txt', 'three.txt', 'two.txt']);
    expect(now.drop?.downloads).toBe(0);
    expect(now.plain?.received ?? null).toBeNull();

    // A later drop comes first; the ids are those of the stored files.
    expect((await send('four.txt')).status).toBe(201);
    const files = await readJson<{ files: { id: string; fileName: string }[] }>(
      await server.fetch(`/api/folders/${inbox.id}`, { headers: { cookie: owner } }),
    );
    const idOf = (name: string) => files.files.find((f) => f.fileName === name)?.id;
    now = await listed();
    expect(now.drop?.received?.count).toBe(4);
    expect(now.drop?.received?.recent[0]).toEqual({
      fileId: idOf('four.txt'),
      name: 'four.txt',
      at: expect.any(String),
    });

    // Purged for good: the file leaves the count and the list.
    const two = idOf('two.txt') ?? '';
    const trashed = await server.fetch(`/api/files/user/${two}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(trashed.status, await trashed.clone().text()).toBeLessThan(300);
    const purged = await server.fetch(`/api/trash/${two}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(purged.status, await purged.clone().text()).toBe(200);
    now = await listed();
    expect(now.drop?.received?.count).toBe(3);
    expect(now.drop?.received?.recent.map((r) => r.name).sort()).toEqual(['four.txt', 'one.txt', 'three.txt']);
  });

  it('takes anonymous uploads through a file drop, named safely, never listing the folder', async () => {
    const drop = await folder('Inbox');
    await upload('existing.txt', 'already here', drop.id);
    const link = await createLink({ folderId: drop.id, allowUpload: true });
    expect(link.allowUpload).toBe(true);
    const page = await readJson<PublicLink>(await pub(link.token));
    // It names who asks for the files, by display name (docs/PRODUCT.md#sharing-screens-web).
    expect(page).toEqual({ kind: 'folder', locked: false, allowUpload: true, expiresAt: null, sharedBy: 'Lena' });
    expect(await readJson<PublicLink>(await pub(link.token, `?folderId=${drop.id}`))).toEqual(page);
    for (const rest of ['/zip', `/files/x/download`]) {
      const refused = await pub(link.token, rest);
      expect(refused.status, rest).toBe(403);
      expect((await readError(refused)).message).toBe(
        'This link only accepts uploads: its folder cannot be listed or downloaded.',
      );
    }

    const send = async (name: string, content: string | Uint8Array, token = link.token) => {
      const form = new FormData();
      form.append('file', new Blob([content]), name);
      return pub(token, '/upload', { method: 'POST', body: form });
    };
    const first = await send('../../existing.txt', 'from a visitor');
    expect(first.status, await first.clone().text()).toBe(201);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await readJson<PublicUploadResponse>(first)).toEqual({ fileName: 'existing (1).txt', size: 14 });
    const listing = await readJson<{ files: { fileName: string; uploadedBy?: unknown }[] }>(
      await server.fetch(`/api/folders/${drop.id}`, { headers: { cookie: owner } }),
    );
    expect(listing.files.map((f) => f.fileName).sort()).toEqual(['existing (1).txt', 'existing.txt']);

    const tooLarge = await send('big.bin', new Uint8Array(MAX_UPLOAD + 10));
    expect(tooLarge.status).toBe(413);
    const plainFolder = await createLink({ folderId: drop.id });
    const notDrop = await send('x.txt', 'x', plainFolder.token);
    expect(notDrop.status).toBe(403);
    expect((await readError(notDrop)).message).toBe('This link does not accept uploads.');
    const fileLink = await server.fetch('/api/links', {
      method: 'POST',
      headers: { cookie: owner, ...json },
      body: JSON.stringify({ fileId: (await upload('f.txt', 'f')).id, allowUpload: true }),
    });
    expect(fileLink.status).toBe(400);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const post = (body: unknown) =>
      server.fetch('/api/links', { method: 'POST', headers: { cookie: owner, ...json }, body: JSON.stringify(body) });
    const file = await upload('x.txt', 'x');
    const both = await post({ fileId: file.id, folderId: 'f' });
    expect(both.status).toBe(400);
    expect((await readError(both)).code).toBe('VALIDATION_FAILED');
    expect((await post({})).status).toBe(400);
    expect((await post({ fileId: file.id, maxDownloads: 0 })).status).toBe(400);
    expect((await post({ fileId: file.id, password: '' })).status).toBe(400);
    expect((await post({ fileId: 'missing' })).status).toBe(404);
    expect((await server.fetch('/api/links', { headers: { cookie: owner } })).status).toBe(400);
    const badUnlock = await pub('whatever', '/unlock', { method: 'POST', headers: json, body: '{"password":1}' });
    expect(badUnlock.status).toBe(400);
  });
});

describe('public link unlock limits and page', () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'atrium-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><head><title>Atrium</title></head><div id="root"></div>',
    );
    // Behind a trusted proxy, so a test can speak from several client addresses.
    server = await startTestServer({ env: { WEB_DIST: webDist, TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves /s/{token} as the SPA page with noindex and no referrer', async () => {
    const page = await server.fetch('/s/some-token');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<div id="root"></div>');
  });

  it('limits every public link route together to 600 requests a minute per address', async () => {
    const from = (ip: string) =>
      server.fetch('/api/public/links/no-such-token', { headers: { 'x-forwarded-for': ip } });
    for (let sent = 0; sent < 600; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => from('198.51.100.77')));
      expect(batch.map((r) => r.status)).toEqual(Array(50).fill(404));
    }
    const limited = await from('198.51.100.77');
    expect(limited.status).toBe(429);
    expect(await readError(limited)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many requests for shared links. Please wait a minute and try again.',
    });
    expect((await from('198.51.100.78')).status).toBe(404);
  });

  it('counts wrong passwords per IP (10) and per link (30) in 15 minutes: past either, every attempt is 429', async () => {
    const owner = await server.signInAs({ owner_key: 'rita' });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const file = await readJson<{ id: string }>(
      await server.fetch('/api/files/upload', {
        method: 'POST',
        headers: { cookie: owner, accept: 'application/json' },
        body: form,
      }),
    );
    const link = await readJson<Link>(
      await server.fetch('/api/links', {
        method: 'POST',
        headers: { cookie: owner, 'content-type': 'application/json' },
        body: JSON.stringify({ fileId: file.id, password: 'right' }),
      }),
    );
    const unlock = (password: string, ip: string) =>
      server.fetch(`/api/public/links/${link.token}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ password }),
      });
    for (let i = 0; i < 10; i++) expect((await unlock(`wrong ${i}`, '198.51.100.1')).status).toBe(401);
    const limited = await unlock('right', '198.51.100.1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await readError(limited)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many wrong passwords for this link. Please wait 15 minutes and try again.',
    });
    // Another address still may try: the limit per address is not the link's.
    expect((await unlock('right', '198.51.100.2')).status).toBe(200);
    // The link's own limit: 30 wrong passwords from any addresses, then nobody gets in for a while.
    for (let i = 0; i < 20; i++) expect((await unlock(`wrong ${i}`, `198.51.100.${10 + (i % 2)}`)).status).toBe(401);
    expect((await unlock('right', '198.51.100.3')).status).toBe(429);
  });
});
