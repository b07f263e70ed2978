import { UserPreferences } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * `GET/PUT /api/me/preferences` (docs/PRODUCT.md#grid-view): the file view follows the user to every browser (every
 * session).
 */
describe.each(dialects())('user preferences (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(async () => server?.close());

  const read = async (cookie: string) => {
    const response = await sendJson(server, cookie, 'GET', '/api/me/preferences');
    expect(response.status).toBe(200);
    return UserPreferences.parse(await response.json());
  };

  it('starts with the list view and keeps a change for every session of the user', async () => {
    const laptop = await server.signInAs({ owner_key: 'pref-carol' });
    const phone = await server.signInAs({ owner_key: 'pref-carol' });
    const someoneElse = await server.signInAs({ owner_key: 'pref-dan' });
    expect(await read(laptop)).toEqual({ fileView: 'list' });
    const changed = await sendJson(server, laptop, 'PUT', '/api/me/preferences', { fileView: 'grid' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ fileView: 'grid' });
    expect(await read(phone)).toEqual({ fileView: 'grid' });
    expect(await read(someoneElse)).toEqual({ fileView: 'list' });
    await sendJson(server, phone, 'PUT', '/api/me/preferences', { fileView: 'list' });
    expect(await read(laptop)).toEqual({ fileView: 'list' });
  });

  it('refuses unknown views, unknown settings and an empty change with 400', async () => {
    const cookie = await server.signInAs({ owner_key: 'pref-erin' });
    for (const body of [{ fileView: 'mosaic' }, { fileView: 'grid', colour: 'red' }, {}]) {
      const response = await sendJson(server, cookie, 'PUT', '/api/me/preferences', body);
      expect(response.status).toBe(400);
      expect((await readError(response)).code).toBe('VALIDATION_FAILED');
    }
    expect(await read(cookie)).toEqual({ fileView: 'list' });
  });
});
