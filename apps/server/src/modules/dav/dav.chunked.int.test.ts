import { createHash } from 'node:crypto';
import type { CreatedAppPassword, FileVersionList } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectJson, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const QUOTA = 1_000_000;

/** Chunked uploads of the Nextcloud clients (docs/PRODUCT.md#nextcloud-clients), v1 and v2, through real HTTP. */
describe.each(dialects())('Nextcloud chunked uploads (%s)', (dialect) => {
  let server: TestServer;
  let now = new Date();
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { USER_QUOTA_BYTES: String(QUOTA) },
      overrides: { clock: { now: () => now } },
    });
  });
  afterAll(async () => server?.close());

  async function person(ownerKey: string) {
    const cookie = await server.signInAs({ owner_key: ownerKey });
    const created = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'chunks' }),
      201,
    );
    const auth = `Basic ${Buffer.from(`${ownerKey}:${created.password}`).toString('base64')}`;
    const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array | string) =>
      server.fetch(path, {
        method,
        headers: { authorization: auth, ...headers },
        ...(body === undefined ? {} : { body }),
      });
    return {
      cookie,
      dav,
      uploads: `/remote.php/dav/uploads/${ownerKey}`,
      files: `/remote.php/dav/files/${ownerKey}`,
      destination: (path: string) => `${server.url}/remote.php/dav/files/${ownerKey}/${path}`,
    };
  }
  const bytes = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

  it('assembles v2 chunks in numeric order into the target file, and a second upload adds a version', async () => {
    const ann = await person('chunk-ann');
    const parts = [bytes(70_000, 1), bytes(70_000, 2), bytes(10_000, 3)];
    const whole = Buffer.concat(parts);
    const dest = ann.destination('Personal/big%20file.bin');
    const mkcol = await ann.dav('MKCOL', `${ann.uploads}/web-1`, {
      destination: dest,
      'oc-total-length': String(whole.length),
    });
    expect(mkcol.status).toBe(201);
    // Chunks 1, 2 and 10: numeric order (not "1", "10", "2"), sent out of order.
    for (const [name, part] of [
      ['10', parts[2]],
      ['1', parts[0]],
      ['2', parts[1]],
    ] as const) {
      const put = await ann.dav('PUT', `${ann.uploads}/web-1/${name}`, { destination: dest }, part);
      expect(put.status, name).toBe(201);
    }
    const listing = await ann.dav('PROPFIND', `${ann.uploads}/web-1`, { depth: '1' });
    expect(listing.status).toBe(207);
    const xml = await listing.text();
    expect(xml).toContain(`${ann.uploads}/web-1/10</d:href>`);
    expect(xml).toContain('<d:getcontentlength>70000</d:getcontentlength>');

    const move = await ann.dav('MOVE', `${ann.uploads}/web-1/.file`, {
      destination: dest,
      'oc-total-length': String(whole.length),
    });
    expect(move.status).toBe(201);
    const fileId = move.headers.get('oc-fileid') ?? '';
    expect(move.headers.get('etag')).toMatch(/^".+"$/);
    const got = await ann.dav('GET', `${ann.files}/Personal/big%20file.bin`);
    expect(got.status).toBe(200);
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(whole));
    // The upload folder is gone once assembled.
    expect((await ann.dav('PROPFIND', `${ann.uploads}/web-1`, { depth: '0' })).status).toBe(404);

    // The same path again: new content, the old one kept as a version.
    const next = bytes(5_000, 9);
    expect((await ann.dav('MKCOL', `${ann.uploads}/web-2`, { destination: dest })).status).toBe(201);
    expect((await ann.dav('PUT', `${ann.uploads}/web-2/1`, { destination: dest }, next)).status).toBe(201);
    const replaced = await ann.dav('MOVE', `${ann.uploads}/web-2/.file`, { destination: dest });
    expect(replaced.status).toBe(204);
    expect(replaced.headers.get('oc-fileid')).toBe(fileId);
    const again = await ann.dav('GET', `${ann.files}/Personal/big%20file.bin`);
    expect(sha256(new Uint8Array(await again.arrayBuffer()))).toBe(sha256(next));
    const versions = await expectJson<FileVersionList>(
      server.fetch(`/api/files/${fileId}/versions`, { headers: { cookie: ann.cookie } }),
    );
    expect(versions.versions.map((v) => v.sha256)).toEqual([sha256(whole)]);
  });

  it('assembles v1 ("NG") chunks named by zero-padded offsets, with the target given only to MOVE', async () => {
    const bea = await person('chunk-bea');
    const parts = [bytes(4_000, 4), bytes(4_000, 5), bytes(123, 6)];
    let offset = 0;
    expect((await bea.dav('MKCOL', `${bea.uploads}/1234567`)).status).toBe(201);
    for (const part of parts) {
      const name = String(offset).padStart(16, '0');
      expect((await bea.dav('PUT', `${bea.uploads}/1234567/${name}`, { 'oc-total-length': '8123' }, part)).status).toBe(
        201,
      );
      offset += part.length;
    }
    const move = await bea.dav('MOVE', `${bea.uploads}/1234567/.file`, {
      destination: bea.destination('Personal/ng.bin'),
      'oc-total-length': '8123',
    });
    expect(move.status).toBe(201);
    const got = await bea.dav('GET', `${bea.files}/Personal/ng.bin`);
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(Buffer.concat(parts)));
  });

  it('checks the declared total against the quota before any chunk byte, and refuses a short assembly', async () => {
    const cy = await person('chunk-cy');
    const dest = cy.destination('Personal/huge.bin');
    const tooBig = await cy.dav('MKCOL', `${cy.uploads}/big`, { destination: dest, 'oc-total-length': '2000000' });
    expect(tooBig.status).toBe(507);
    expect((await cy.dav('MKCOL', `${cy.uploads}/big`, { destination: dest })).status).toBe(201);
    const refused = await cy.dav(
      'PUT',
      `${cy.uploads}/big/1`,
      { destination: dest, 'oc-total-length': '2000000' },
      'x',
    );
    expect(refused.status).toBe(507);
    const listing = await (await cy.dav('PROPFIND', `${cy.uploads}/big`, { depth: '1' })).text();
    expect(listing).not.toContain(`${cy.uploads}/big/1<`);

    expect((await cy.dav('PUT', `${cy.uploads}/big/1`, {}, bytes(100, 1))).status).toBe(201);
    const short = await cy.dav('MOVE', `${cy.uploads}/big/.file`, { destination: dest, 'oc-total-length': '200' });
    expect(short.status).toBe(400);
    expect((await cy.dav('PROPFIND', `${cy.files}/Personal/huge.bin`, { depth: '0' })).status).toBe(404);
    // Cancelling removes the upload.
    expect((await cy.dav('DELETE', `${cy.uploads}/big`)).status).toBe(204);
    expect((await cy.dav('PROPFIND', `${cy.uploads}/big`, { depth: '0' })).status).toBe(404);
  });

  it("answers 404 for someone else's uploads, by their path or by the upload's name", async () => {
    const dan = await person('chunk-dan');
    const eve = await person('chunk-eve');
    expect((await dan.dav('MKCOL', `${dan.uploads}/mine`)).status).toBe(201);
    expect((await dan.dav('PUT', `${dan.uploads}/mine/1`, {}, 'secret')).status).toBe(201);
    expect((await eve.dav('PROPFIND', `${dan.uploads}/mine`, { depth: '1' })).status).toBe(404);
    expect((await eve.dav('PUT', `${dan.uploads}/mine/2`, {}, 'x')).status).toBe(404);
    expect((await eve.dav('PROPFIND', `${eve.uploads}/mine`, { depth: '1' })).status).toBe(404);
    const steal = await eve.dav('MOVE', `${eve.uploads}/mine/.file`, { destination: eve.destination('Personal/s') });
    expect(steal.status).toBe(404);
    expect((await server.fetch(`${dan.uploads}/mine`, { method: 'PROPFIND' })).status).toBe(401);
  });

  it('honours a lock on the target: 423 without its token, stored with it', async () => {
    const fay = await person('chunk-fay');
    const dest = fay.destination('Personal/locked.txt');
    expect((await fay.dav('PUT', `${fay.files}/Personal/locked.txt`, {}, 'v1')).status).toBe(201);
    const lock = await fay.dav(
      'LOCK',
      `${fay.files}/Personal/locked.txt`,
      { timeout: 'Second-600', 'content-type': 'application/xml' },
      '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>',
    );
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token') ?? '';
    expect((await fay.dav('MKCOL', `${fay.uploads}/l`, { destination: dest })).status).toBe(201);
    expect((await fay.dav('PUT', `${fay.uploads}/l/1`, {}, 'v2')).status).toBe(201);
    expect((await fay.dav('MOVE', `${fay.uploads}/l/.file`, { destination: dest })).status).toBe(423);
    const withToken = await fay.dav('MOVE', `${fay.uploads}/l/.file`, { destination: dest, if: `(${token})` });
    expect(withToken.status).toBe(204);
    expect(await (await fay.dav('GET', `${fay.files}/Personal/locked.txt`)).text()).toBe('v2');
  });

  it('refuses the old OC-Chunked protocol instead of storing its chunks as files', async () => {
    const ida = await person('chunk-ida');
    const old = await ida.dav('PUT', `${ida.files}/Personal/a.bin-chunking-42-2-0`, { 'oc-chunked': '1' }, 'x');
    expect(old.status).toBe(501);
    expect((await ida.dav('PROPFIND', `${ida.files}/Personal/a.bin-chunking-42-2-0`, { depth: '0' })).status).toBe(404);
  });

  it('allows 100 unfinished uploads per person', async () => {
    const hal = await person('chunk-hal');
    for (let i = 0; i < 100; i += 1) expect((await hal.dav('MKCOL', `${hal.uploads}/u${i}`)).status).toBe(201);
    const refused = await hal.dav('MKCOL', `${hal.uploads}/u100`);
    expect(refused.status).toBe(507);
    expect(await refused.text()).toContain('Too many unfinished uploads: finish or cancel some first.');
    expect((await hal.dav('DELETE', `${hal.uploads}/u0`)).status).toBe(204);
    expect((await hal.dav('MKCOL', `${hal.uploads}/u100`)).status).toBe(201);
  });

  it('sweeps uploads idle for 24 hours with their chunks', async () => {
    const gus = await person('chunk-gus');
    expect((await gus.dav('MKCOL', `${gus.uploads}/old`)).status).toBe(201);
    expect((await gus.dav('PUT', `${gus.uploads}/old/1`, {}, 'left behind')).status).toBe(201);
    expect((await gus.dav('MKCOL', `${gus.uploads}/fresh`)).status).toBe(201);
    const saved = now;
    try {
      now = new Date(saved.getTime() + 23 * 60 * 60 * 1000);
      expect((await gus.dav('PUT', `${gus.uploads}/fresh/1`, {}, 'still going')).status).toBe(201);
      now = new Date(saved.getTime() + 25 * 60 * 60 * 1000);
      await server.app.scheduler.runNow('nextcloud.sweep');
      expect((await gus.dav('PROPFIND', `${gus.uploads}/old`, { depth: '1' })).status).toBe(404);
      expect((await gus.dav('PROPFIND', `${gus.uploads}/fresh`, { depth: '1' })).status).toBe(207);
    } finally {
      now = saved;
    }
  });
});
