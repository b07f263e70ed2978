import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestServer, userIdOf, type TestServer } from '../../../test/helpers';
import type { Clock } from '../../lib/time';
import { createSessionService, sessionIdOf, type SessionService } from './sessions.service';

/**
 * `resolveCached` (the notification stream's session check) answers from memory for a short while, but never for a
 * session that ended: sign-out, `destroyAllForUser` (disable, revoke) and ends announced by other instances forget
 * it at once, and the idle and absolute limits are checked on every answer. Real database on both dialects.
 */
describe.each(dialects())('session verification from memory (%s)', (dialect) => {
  let server: TestServer;
  let now = Date.now();
  const clock: Clock = { now: () => new Date(now) };
  let sessions: SessionService;
  let userId: string;
  const IDLE_MS = 60 * 60_000;
  const TTL_MS = 10_000;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    // A user row to sign in as (signInAs creates it).
    await server.signInAs({ owner_key: 'cache-user' });
    userId = await userIdOf(server, 'cache-user');
    sessions = createSessionService({
      db: server.app.database.db,
      clock,
      idleMs: IDLE_MS,
      absoluteMs: 24 * 60 * 60_000,
      cacheTtlMs: TTL_MS,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Deletes the session row behind the service's back (as a sweep on another instance would). */
  const deleteRow = (token: string) =>
    server.app.database.db.deleteFrom('sessions').where('id', '=', sessionIdOf(token)).execute();

  it('answers from memory for at most the TTL, then asks the database again', async () => {
    const token = await sessions.create(userId);
    expect((await sessions.resolveCached(token))?.id).toBe(userId);
    await deleteRow(token);
    // The uncached lookup sees the deletion; the cached one still answers within its TTL …
    expect(await sessions.resolve(token)).toBeNull();
    now += TTL_MS - 1000;
    expect((await sessions.resolveCached(token))?.id).toBe(userId);
    // … and not a moment after it.
    now += 1000;
    expect(await sessions.resolveCached(token)).toBeNull();
  });

  it('forgets a session the moment it is signed out, revoked or its user disabled', async () => {
    const signedOut = await sessions.create(userId);
    const revoked = await sessions.create(userId);
    const other = await sessions.create(userId);
    for (const token of [signedOut, revoked, other]) expect((await sessions.resolveCached(token))?.id).toBe(userId);

    await sessions.destroy(signedOut);
    expect(await sessions.resolveCached(signedOut)).toBeNull();

    // Every session but `other` (e.g. "sign out my other devices").
    expect(await sessions.destroyAllForUser(userId, sessionIdOf(other))).toBeGreaterThanOrEqual(1);
    expect(await sessions.resolveCached(revoked)).toBeNull();
    expect((await sessions.resolveCached(other))?.id).toBe(userId);

    // Every session (e.g. the user is disabled).
    await sessions.destroyAllForUser(userId);
    expect(await sessions.resolveCached(other)).toBeNull();
  });

  it('forgets sessions whose end another instance announced', async () => {
    const bySession = await sessions.create(userId);
    const byUser = await sessions.create(userId);
    for (const token of [bySession, byUser]) expect((await sessions.resolveCached(token))?.id).toBe(userId);
    await deleteRow(bySession);
    await deleteRow(byUser);

    sessions.forgetCached({ sessionId: sessionIdOf(bySession) });
    expect(await sessions.resolveCached(bySession)).toBeNull();
    expect((await sessions.resolveCached(byUser))?.id).toBe(userId);
    sessions.forgetCached({ userId });
    expect(await sessions.resolveCached(byUser)).toBeNull();
  });

  it('checks the idle limit on every answer from memory', async () => {
    const idle = createSessionService({
      db: server.app.database.db,
      clock,
      idleMs: 5_000,
      absoluteMs: 24 * 60 * 60_000,
      cacheTtlMs: TTL_MS,
    });
    const token = await idle.create(userId);
    expect((await idle.resolveCached(token))?.id).toBe(userId);
    now += 5_000;
    expect(await idle.resolveCached(token)).toBeNull();
  });

  it('refuses malformed and unknown tokens without caching anything', async () => {
    expect(await sessions.resolveCached('')).toBeNull();
    expect(await sessions.resolveCached('not a token!')).toBeNull();
    expect(await sessions.resolveCached('x'.repeat(43))).toBeNull();
  });
});
