import { ASK_PER_MINUTE, ASK_RATE_MESSAGE, ErrorResponse, type CreatedAppPassword } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_UPLOADS } from '../src/modules/dav/dav.chunked';
import { LOGIN_FLOW_POLL_LIMIT, LOGIN_FLOW_START_LIMIT } from '../src/modules/nextcloud/login-flow.routes';
import {
  dialects,
  expectJson,
  inParallel,
  sendJson,
  startTestServer,
  statusCounts,
  type ParallelAnswer,
  type TestServer,
} from './helpers';

/**
 * Limits that must hold when a client sends many requests at once, not one after another: each request is counted
 * before any work is done, so exactly the limit gets through (docs/SECURITY.md, rate limits).
 */
describe.each(dialects())('limits under parallel requests (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy, so each test speaks from its own client address (X-Forwarded-For).
    server = await startTestServer({ dialect, env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => server?.close(), 120_000);

  /** Every refused answer is 429 RATE_LIMITED in the JSON error shape, with `message` and a Retry-After. */
  const expectRateLimited = (answers: ParallelAnswer[], message: string) => {
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(ErrorResponse.parse(JSON.parse(answer.body)).error).toMatchObject({ code: 'RATE_LIMITED', message });
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
  };

  it('sign-up: of 13 parallel requests from one address, exactly 10 are answered, the rest 429', async () => {
    const from = { 'x-forwarded-for': '203.0.113.10' };
    const answers = await inParallel(13, (i) =>
      sendJson(server, undefined, 'POST', '/api/public/signup', { email: `visitor${i}@example.com` }, from),
    );
    // Sign-up is closed on this server (no email configured): every request counts, the answered ones are 403.
    expect(statusCounts(answers)).toEqual({ 403: 10, 429: 3 });
    expectRateLimited(answers, 'Too many attempts. Please try again later.');
    // Another address is not affected.
    const other = await sendJson(
      server,
      undefined,
      'POST',
      '/api/public/signup',
      { email: 'a@example.com' },
      {
        'x-forwarded-for': '203.0.113.11',
      },
    );
    expect(other.status).toBe(403);
  }, 120_000);

  it('Login Flow v2: of 35 parallel starts from one address, exactly 30 start a flow, the rest 429', async () => {
    const answers = await inParallel(LOGIN_FLOW_START_LIMIT.max + 5, () =>
      server.fetch('/index.php/login/v2', { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.20' } }),
    );
    expect(statusCounts(answers)).toEqual({ 200: LOGIN_FLOW_START_LIMIT.max, 429: 5 });
    for (const answer of answers.filter((a) => a.status === 200)) {
      expect(JSON.parse(answer.body)).toMatchObject({ poll: { token: expect.any(String) } });
    }
    expectRateLimited(answers, LOGIN_FLOW_START_LIMIT.message);
  }, 120_000);

  it('Login Flow v2: polls from one address stop at exactly 1,500, also when the last ones come at once', async () => {
    const poll = (i: number) =>
      server.fetch('/index.php/login/v2/poll', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.21' },
        body: `token=unknown-${i}`,
      });
    // Up to 10 below the limit in waves of 100 parallel polls (1,500 connections at once overflow the test's own
    // listen backlog), then 15 at once across the limit.
    const below = LOGIN_FLOW_POLL_LIMIT.max - 10;
    const early: ParallelAnswer[] = [];
    for (let sent = 0; sent < below; sent += 100) {
      early.push(...(await inParallel(Math.min(100, below - sent), (i) => poll(sent + i))));
    }
    // An unknown poll token is 404, as Nextcloud answers a flow not granted (yet).
    expect(statusCounts(early)).toEqual({ 404: below });
    const last = await inParallel(15, (i) => poll(below + i));
    expect(statusCounts(last)).toEqual({ 404: 10, 429: 5 });
    expectRateLimited(last, LOGIN_FLOW_POLL_LIMIT.message);
  }, 180_000);

  it('Ask: of 35 parallel questions from one person, exactly 30 are answered, the rest 429', async () => {
    const cookie = await server.signInAs({ owner_key: 'parallel-asker' });
    const answers = await inParallel(ASK_PER_MINUTE + 5, (i) =>
      // From several addresses: the limit is per person.
      sendJson(
        server,
        cookie,
        'POST',
        '/api/ask',
        { question: `question ${i}` },
        {
          'x-forwarded-for': `203.0.113.${30 + (i % 5)}`,
        },
      ),
    );
    expect(statusCounts(answers)).toEqual({ 200: ASK_PER_MINUTE, 429: 5 });
    expectRateLimited(answers, ASK_RATE_MESSAGE);
  }, 120_000);

  it('chunked uploads: of 105 parallel MKCOLs by one person, exactly 100 open an upload, the rest 507', async () => {
    const cookie = await server.signInAs({ owner_key: 'parallel-chunks' });
    const { password } = await expectJson<CreatedAppPassword>(
      sendJson(server, cookie, 'POST', '/api/me/app-passwords', { name: 'chunks' }),
      201,
    );
    const authorization = `Basic ${Buffer.from(`parallel-chunks:${password}`).toString('base64')}`;
    const mkcol = (name: string) =>
      server.fetch(`/remote.php/dav/uploads/parallel-chunks/${name}`, { method: 'MKCOL', headers: { authorization } });
    const answers = await inParallel(MAX_OPEN_UPLOADS + 5, (i) => mkcol(`transfer-${i}`));
    expect(statusCounts(answers)).toEqual({ 201: MAX_OPEN_UPLOADS, 507: 5 });
    for (const answer of answers.filter((a) => a.status === 507)) {
      expect(answer.body).toContain('Too many unfinished uploads: finish or cancel some first.');
    }
    // Still exactly at the limit: one more is refused; once one is cancelled, one more opens.
    expect((await mkcol('one-more')).status).toBe(507);
    const opened = answers.findIndex((a) => a.status === 201);
    const cancel = await server.fetch(`/remote.php/dav/uploads/parallel-chunks/transfer-${opened}`, {
      method: 'DELETE',
      headers: { authorization },
    });
    expect(cancel.status).toBe(204);
    expect((await mkcol('one-more')).status).toBe(201);
  }, 120_000);
});
