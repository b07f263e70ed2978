import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactCreated, ContactMessage, ContactMessageList, ContactUnreadCount } from '@atrium/contracts';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

const post = (server: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  server.fetch('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const valid = { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Do you offer a non-profit discount?' };

describe.each(dialects())('contact (%s)', (dialect) => {
  let server: TestServer;
  let adminCookie: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { CONTACT_MAX_PER_HOUR: '3' } });
    adminCookie = await server.signInAs({ owner_key: 'admin-contact', role: 'admin' });
  });
  afterAll(async () => server?.close());

  const list = async () => {
    const response = await server.fetch('/api/contact', { headers: { cookie: adminCookie } });
    expect(response.status).toBe(200);
    return readJson<ContactMessageList>(response);
  };

  it('rejects missing and invalid fields with 400 and field messages, storing nothing', async () => {
    const empty = await post(server, { name: '  ', email: '', message: '' });
    expect(empty.status).toBe(400);
    const error = await readError(empty);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'body.name', message: 'Please enter your name.' },
        { path: 'body.email', message: 'Please enter your email address.' },
        { path: 'body.message', message: 'Please enter a message.' },
      ]),
    );

    const badEmail = await post(server, { ...valid, email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    expect((await readError(badEmail)).details).toEqual([
      { path: 'body.email', message: 'Please enter a valid email address.' },
    ]);

    const missing = await post(server, { name: 'Ada' });
    expect(missing.status).toBe(400);
    expect((await readError(missing)).details?.map((d) => d.path).sort()).toEqual(['body.email', 'body.message']);

    const tooLong = await post(server, { ...valid, message: 'x'.repeat(5001) });
    expect(tooLong.status).toBe(400);

    const notJson = await server.fetch('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(notJson.status).toBe(400);
    expect(await list()).toEqual([]);
  });

  it('stores a valid message (trimmed) for anonymous visitors, and admins read it newest first', async () => {
    const first = await post(server, { ...valid, name: '  Ada Lovelace  ' });
    expect(first.status).toBe(201);
    const created = await readJson<ContactCreated>(first);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.createdAt)).not.toBeNaN();

    const second = await post(server, { name: 'Grace', email: 'grace@example.test', message: 'Hello!' });
    expect(second.status).toBe(201);

    const messages = await list();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({ name: 'Grace', email: 'grace@example.test', message: 'Hello!' });
    expect(messages[1]).toEqual({
      ...valid,
      id: created.id,
      createdAt: created.createdAt,
      readAt: null,
      handledAt: null,
    });
  });

  it('lists messages only for admins', async () => {
    const anonymous = await server.fetch('/api/contact');
    expect(anonymous.status).toBe(401);
    expect((await readError(anonymous)).code).toBe('UNAUTHENTICATED');

    const userCookie = await server.signInAs({ owner_key: 'bob' });
    const user = await server.fetch('/api/contact', { headers: { cookie: userCookie } });
    expect(user.status).toBe(403);
    expect(await readError(user)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only admins can read contact messages.',
    });
  });

  it('rate-limits one address to CONTACT_MAX_PER_HOUR messages, storing nothing more', async () => {
    // Two messages were accepted above from this address; the limit is 3.
    const third = await post(server, { ...valid, message: 'third' });
    expect(third.status).toBe(201);
    const fourth = await post(server, { ...valid, message: 'fourth' });
    expect(fourth.status).toBe(429);
    expect(await readError(fourth)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'You have sent several messages already. Please try again later.',
    });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await list()).map((m) => m.message)).not.toContain('fourth');
  });
});

describe.each(dialects())('contact rate limit under parallel sends (%s)', (dialect) => {
  it('accepts exactly CONTACT_MAX_PER_HOUR of 20 parallel messages from one address; failed ones do not count', async () => {
    const server = await startTestServer({ dialect, env: { CONTACT_MAX_PER_HOUR: '3', TRUST_PROXY: '127.0.0.1' } });
    try {
      const from = { 'x-forwarded-for': '203.0.113.9' };
      // A refused message (400) is not counted.
      expect((await post(server, { ...valid, email: 'not an address' }, from)).status).toBe(400);
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const answer = await post(server, { ...valid, message: `parallel ${i}` }, from);
          await answer.arrayBuffer();
          return answer.status;
        }),
      );
      expect(answers.filter((status) => status === 201)).toHaveLength(3);
      expect(answers.filter((status) => status === 429)).toHaveLength(17);
      expect((await post(server, valid, from)).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('contact rate limit window', () => {
  it('accepts messages again once the hour has passed', async () => {
    let now = new Date('2026-01-01T10:00:00.000Z');
    const server = await startTestServer({
      env: { CONTACT_MAX_PER_HOUR: '1' },
      overrides: { clock: { now: () => now } },
    });
    try {
      expect((await post(server, valid)).status).toBe(201);
      now = new Date('2026-01-01T10:59:59.000Z');
      const limited = await post(server, valid);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      now = new Date('2026-01-01T11:00:01.000Z');
      expect((await post(server, valid)).status).toBe(201);
    } finally {
      await server.close();
    }
  });
});

describe.each(dialects())('contact message status (%s)', (dialect) => {
  let server: TestServer;
  let adminCookie: string;
  let userCookie: string;
  let now = new Date('2026-03-01T09:00:00.000Z');
  beforeAll(async () => {
    server = await startTestServer({ dialect, overrides: { clock: { now: () => now } } });
    adminCookie = await server.signInAs({ owner_key: 'admin-status', role: 'admin' });
    userCookie = await server.signInAs({ owner_key: 'status-user' });
  });
  afterAll(async () => server?.close());

  const send = async (message: string) => {
    const response = await post(server, { ...valid, message });
    expect(response.status).toBe(201);
    return (await readJson<ContactCreated>(response)).id;
  };
  const call = (path: string, init: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
    server.fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.cookie === null ? {} : { cookie: init.cookie ?? adminCookie }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
  const unread = async () => {
    const response = await call('/api/contact/unread-count');
    expect(response.status).toBe(200);
    return (await readJson<ContactUnreadCount>(response)).unread;
  };
  const list = async () => readJson<ContactMessageList>(await call('/api/contact'));

  it('new messages are unread and open; marking read, handled and back changes the list and the count', async () => {
    const first = await send('first');
    now = new Date('2026-03-01T09:05:00.000Z');
    const second = await send('second');
    expect(await unread()).toBe(2);
    expect((await list()).map((m) => [m.message, m.readAt, m.handledAt])).toEqual([
      ['second', null, null],
      ['first', null, null],
    ]);

    now = new Date('2026-03-01T10:00:00.000Z');
    const read = await call(`/api/contact/${first}`, { method: 'PATCH', body: { read: true } });
    expect(read.status).toBe(200);
    expect(await readJson<ContactMessage>(read)).toMatchObject({
      id: first,
      readAt: '2026-03-01T10:00:00.000Z',
      handledAt: null,
    });
    expect(await unread()).toBe(1);

    // Handling marks read too; a flag already set keeps its first time.
    now = new Date('2026-03-01T11:00:00.000Z');
    const handled = await call(`/api/contact/${second}`, { method: 'PATCH', body: { handled: true } });
    expect(await readJson<ContactMessage>(handled)).toMatchObject({
      readAt: '2026-03-01T11:00:00.000Z',
      handledAt: '2026-03-01T11:00:00.000Z',
    });
    const again = await call(`/api/contact/${first}`, { method: 'PATCH', body: { read: true, handled: true } });
    expect(await readJson<ContactMessage>(again)).toMatchObject({
      readAt: '2026-03-01T10:00:00.000Z',
      handledAt: '2026-03-01T11:00:00.000Z',
    });
    expect(await unread()).toBe(0);

    const reopened = await call(`/api/contact/${second}`, { method: 'PATCH', body: { read: false, handled: false } });
    expect(await readJson<ContactMessage>(reopened)).toMatchObject({ readAt: null, handledAt: null });
    expect(await unread()).toBe(1);
    expect((await list()).find((m) => m.id === second)).toMatchObject({ readAt: null, handledAt: null });
  });

  it('deletes a message; it leaves the list and the count, and a second delete is 404', async () => {
    const id = await send('to delete');
    const before = await unread();
    const deleted = await call(`/api/contact/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await readJson(deleted)).toEqual({ id, deleted: true });
    expect((await list()).map((m) => m.id)).not.toContain(id);
    expect(await unread()).toBe(before - 1);
    const twice = await call(`/api/contact/${id}`, { method: 'DELETE' });
    expect(twice.status).toBe(404);
    expect(await readError(twice)).toMatchObject({ code: 'NOT_FOUND', message: 'There is no such message.' });
  });

  it('answers unknown ids with 404 and bad bodies with 400, changing nothing', async () => {
    const id = await send('kept');
    const missing = await call('/api/contact/no-such-message', { method: 'PATCH', body: { read: true } });
    expect(missing.status).toBe(404);
    expect((await readError(missing)).code).toBe('NOT_FOUND');
    for (const body of [{}, { read: 'yes' }, { handled: 1 }, { read: true, extra: 1 }, '{"read":', '[]']) {
      const response = await call(`/api/contact/${id}`, { method: 'PATCH', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readError(response)).code).toMatch(/VALIDATION_FAILED|INVALID_JSON|BAD_REQUEST/);
    }
    expect((await list()).find((m) => m.id === id)).toMatchObject({ readAt: null, handledAt: null });
  });

  it('refuses anonymous callers (401) and non-admins (403) on every status route', async () => {
    const id = await send('private');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/contact/unread-count'],
      ['PATCH', `/api/contact/${id}`, { read: true }],
      ['DELETE', `/api/contact/${id}`],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await call(path, { method, body, cookie: null });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const user = await call(path, { method, body, cookie: userCookie });
      expect(user.status, `${method} ${path}`).toBe(403);
      expect((await readError(user)).message).toBe('Only admins can read contact messages.');
    }
    expect((await list()).find((m) => m.id === id)).toMatchObject({ readAt: null });
  });
});
