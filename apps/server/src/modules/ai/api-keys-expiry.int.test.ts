import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, CreatedApiKey } from '@atrium/contracts';
import { FAKE_MP3, fakeAzureEnv, startFakeAzure, type FakeServer } from '../../../test/fake-ai';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/** API keys with an expiry (the admin API keys screen): validated on create, refused once past, listed. */
describe.each(dialects())('API key expiry (%s)', (dialect) => {
  let azure: FakeServer;
  let server: TestServer;
  let admin: string;
  let now = new Date('2026-06-01T12:00:00.000Z');
  beforeAll(async () => {
    azure = await startFakeAzure();
    server = await startTestServer({
      dialect,
      env: fakeAzureEnv(azure, { speech: 'k', face: 'k', vision: 'k' }),
      overrides: { clock: { now: () => now } },
    });
    admin = await server.signInAs({ owner_key: 'keys-admin', role: 'admin', name: 'Kim Admin' });
  });
  afterAll(async () => {
    await server?.close();
    await azure?.close();
  });

  const create = (body: unknown) =>
    server.fetch('/api/ai/keys', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const speak = (key: string) =>
    server.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: 'Hello', voice: 'alloy' }),
    });

  it('refuses an expiry in the past or not a date with 400 and a field message', async () => {
    const past = await create({ name: 'old', expiresAt: '2026-05-31T12:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(await readError(past)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The expiry must be in the future.',
      details: [{ path: 'body.expiresAt', message: 'The expiry must be in the future.' }],
    });
    const garbage = await create({ name: 'bad', expiresAt: 'next tuesday' });
    expect(garbage.status).toBe(400);
    expect((await readError(garbage)).details?.[0]?.path).toBe('body.expiresAt');
    const list = await readJson<ApiKeyRecord[]>(await server.fetch('/api/ai/keys', { headers: { cookie: admin } }));
    expect(list).toEqual([]);
  });

  it('a key works until its expiry and answers 401 after it; the list shows expiry and creator', async () => {
    const created = await create({ name: 'one hour', expiresAt: '2026-06-01T15:00:00+02:00' });
    expect(created.status).toBe(201);
    const key = await readJson<CreatedApiKey>(created);
    expect(key.expiresAt).toBe('2026-06-01T13:00:00.000Z');
    expect(key.createdByName).toBe('Kim Admin');
    const forever = await readJson<CreatedApiKey>(await create({ name: 'forever' }));
    expect(forever.expiresAt).toBeNull();

    const before = await speak(key.key);
    expect(before.status).toBe(200);
    expect(Buffer.from(await before.arrayBuffer())).toEqual(FAKE_MP3);

    now = new Date('2026-06-01T13:00:00.000Z');
    expect((await speak(key.key)).status).toBe(401);
    expect((await speak(forever.key)).status).toBe(200);

    const list = await readJson<ApiKeyRecord[]>(await server.fetch('/api/ai/keys', { headers: { cookie: admin } }));
    expect(list.find((k) => k.id === key.id)).toMatchObject({
      name: 'one hour',
      expiresAt: '2026-06-01T13:00:00.000Z',
      createdByName: 'Kim Admin',
      revokedAt: null,
    });
    expect(list.find((k) => k.id === forever.id)?.lastUsedAt).toBe('2026-06-01T13:00:00.000Z');
  });
});
