import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TotpEnrolment } from '@atrium/contracts';
import {
  expectJson,
  readError,
  sendJson,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';
import { canScaleOut } from '../../../test/two-instances';

const cookieFrom = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`) && pair.length > name.length + 1);

// Two instances behind one address share SESSION_SECRET (docs/DEPLOY.md): the sealed TOTP secret and the pending
// sign-in (a database row) work on either.
describe.runIf(canScaleOut)('second factors across two instances (PostgreSQL)', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    const env = { SESSION_SECRET: randomUUID().repeat(2), REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    one = await startTestServer({ dialect: 'postgres', env });
    two = await startTestServer({ databaseUrl: one.databaseUrl, env });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('an app set up on one instance; the password on one, the code on the other', async () => {
    const admin = await one.signInAs({ owner_key: 'admin', role: 'admin' });
    const { secret } = await expectJson<TotpEnrolment>(sendJson(one, admin, 'POST', '/api/me/totp'));
    const now = Date.now();
    const code = (at: number) =>
      execFileSync('oathtool', ['--totp', '-b', secret, '--now', `@${Math.floor(at / 1000)}`], {
        encoding: 'utf8',
      }).trim();
    await expectJson(sendJson(two, admin, 'POST', '/api/me/totp/verify', { code: code(now - 30_000) }));

    const password = await sendJson(one, undefined, 'POST', '/api/auth/login', {
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(await readError(password)).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    const pending = cookieFrom(password, 'atrium_pending');
    // The step used on instance two is refused on instance one too.
    expect((await sendJson(one, pending, 'POST', '/api/auth/login/totp', { code: code(now - 30_000) })).status).toBe(
      400,
    );
    const done = await sendJson(two, pending, 'POST', '/api/auth/login/totp', { code: code(now) });
    expect(done.status).toBe(200);
    expect(cookieFrom(done, 'atrium_session')).toBeDefined();
  });
});
