import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InvitationCreated,
  MeResponse,
  PendingInvitationList,
  PublicInvitation,
  Workspace,
} from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import {
  callsAs,
  dialects,
  readError,
  sendJson,
  signInPeople,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../../../test/helpers';

/**
 * Invitations and local accounts (docs/PRODUCT.md#invitations), through the HTTP API as a browser and the inviter
 * see them: every refusal with its status and message, sign-in by username or email, password changes and resets.
 */
describe.each(dialects())('invitations and local accounts (%s)', (dialect) => {
  let server: TestServer;
  const cookies: Record<string, string> = {};
  const { call, json } = callsAs(() => server, cookies);
  const STRONG = 'violet-harbour-lantern-42';
  const tokenOf = (url: string) => url.split('/invite/')[1] ?? '';
  const resetTokenOf = (url: string) => url.split('/reset-password/')[1] ?? '';
  const anon = (method: string, path: string, body?: unknown) => sendJson(server, undefined, method, path, body);
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  const login = (username: string, password: string) => anon('POST', '/api/auth/login', { username, password });
  let design = '';

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    Object.assign(cookies, await signInPeople(server, ['alice', 'bob']));
    design = (await json<Workspace>(call('alice', 'POST', '/api/workspaces', { name: 'Design' }), 201)).id;
  });
  afterAll(async () => server?.close());

  const invite = async (email: string, role = 'editor') =>
    json<InvitationCreated>(call('alice', 'POST', `/api/workspaces/${design}/invitations`, { email, role }), 201);

  it('invites by email, shows the invitation, accepts it into a signed-in local account that is a member', async () => {
    const created = await invite('Erin@Example.test');
    expect(created.url).toMatch(/^\/invite\/[A-Za-z0-9_-]{32}$/);
    expect(created.emailed).toBe(false);
    const pending = await json<PendingInvitationList>(call('alice', 'GET', `/api/workspaces/${design}/invitations`));
    expect(pending.items.map((i) => [i.email, i.role, i.expired])).toContainEqual([
      'erin@example.test',
      'editor',
      false,
    ]);

    const token = tokenOf(created.url);
    const shown = await json<PublicInvitation>(anon('GET', `/api/public/invitations/${token}`));
    expect(shown).toMatchObject({
      email: 'erin@example.test',
      workspaceName: 'Design',
      role: 'editor',
      invitedBy: 'alice',
    });

    const accepted = await anon('POST', `/api/public/invitations/${token}/accept`, {
      username: 'erin',
      password: STRONG,
      name: 'Erin Example',
    });
    expect(accepted.status).toBe(201);
    const me = (await accepted.json()) as MeResponse;
    expect(me).toMatchObject({ ownerKey: 'erin', name: 'Erin Example', email: 'erin@example.test', role: 'user' });
    const erin = cookieOf(accepted);
    expect(erin).toContain('atrium_session=');
    expect(await json(sendJson(server, erin, 'GET', '/api/me'))).toMatchObject({
      ownerKey: 'erin',
      localAccount: true,
    });
    expect(await json(call('alice', 'GET', '/api/me'))).toMatchObject({ localAccount: false });
    const spaces = await json<Workspace[]>(sendJson(server, erin, 'GET', '/api/workspaces'));
    expect(spaces.map((w) => [w.name, w.role])).toContainEqual(['Design', 'editor']);

    // Single use: the same link again is refused as used; it left the pending list.
    const again = await anon('GET', `/api/public/invitations/${token}`);
    expect(again.status).toBe(410);
    expect(await readError(again)).toMatchObject({ code: 'INVITATION_USED', message: ACCOUNT_TEXTS.invitationUsed });
    const after = await json<PendingInvitationList>(call('alice', 'GET', `/api/workspaces/${design}/invitations`));
    expect(after.items.map((i) => i.id)).not.toContain(created.id);

    // The local account appears in the admin's users list and the audit log like anyone.
    const users = await json<{ userId: string }[]>(call('admin', 'GET', '/api/admin/users?q=erin'));
    expect(users.map((u) => u.userId)).toContain('erin');
    const audit = await json<{ entries: { action: string }[] }>(call('admin', 'GET', '/api/admin/audit?limit=50'));
    const actions = audit.entries.map((e) => e.action);
    for (const action of ['invitation.created', 'invitation.accepted', 'account.created'])
      expect(actions).toContain(action);
  });

  it('signs a local account in by username or email, in any letter case; the built-in admin still works', async () => {
    expect((await login('ERIN', STRONG)).status).toBe(200);
    expect((await login('erin@example.test', STRONG)).status).toBe(200);
    const admin = await login('admin', TEST_ADMIN_PASSWORD);
    expect(admin.status).toBe(200);
    expect(((await admin.json()) as MeResponse).isAdmin).toBe(true);
  });

  it('answers an unknown user and a wrong password alike, in message and (roughly) in time', async () => {
    const wrong = await login('erin', 'not-the-password-at-all');
    const unknown = await login('nobody-here', 'not-the-password-at-all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await readError(unknown)).toEqual({ ...(await readError(wrong)), requestId: expect.any(String) });
    // Both run one scrypt: the unknown user is not answered much faster than the known one.
    const time = async (username: string) => {
      const started = performance.now();
      await login(username, 'not-the-password-at-all-2');
      return performance.now() - started;
    };
    const known: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      known.push(await time('erin'));
      missing.push(await time(`ghost-${i}`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1] ?? 0;
    expect(median(missing)).toBeGreaterThan(median(known) * 0.5);
  });

  it('refuses weak, common and taken choices when accepting, and keeps the invitation usable', async () => {
    const { url } = await invite('frank@example.test', 'viewer');
    const accept = (body: unknown) => anon('POST', `/api/public/invitations/${tokenOf(url)}/accept`, body);
    const short = await accept({ username: 'frank', password: 'short-pass' });
    expect(short.status).toBe(400);
    expect(await readError(short)).toMatchObject({ code: 'WEAK_PASSWORD', message: ACCOUNT_TEXTS.passwordTooShort });
    const common = await accept({ username: 'frank', password: 'password1234' });
    expect(await readError(common)).toMatchObject({ code: 'WEAK_PASSWORD', message: ACCOUNT_TEXTS.passwordCommon });
    const taken = await accept({ username: 'ERIN', password: STRONG });
    expect(taken.status).toBe(409);
    expect(await readError(taken)).toMatchObject({ code: 'USERNAME_TAKEN', message: ACCOUNT_TEXTS.usernameTaken });
    const adminName = await accept({ username: 'Admin', password: STRONG });
    expect(adminName.status).toBe(409);
    const bad = await accept({ username: 'a b', password: STRONG });
    expect(bad.status).toBe(400);
    expect((await accept({ username: 'frank', password: STRONG })).status).toBe(201);
  });

  it('lets one of two parallel accepts with the same username win; the other gets 409 and leaves no user behind', async () => {
    const [first, second] = await Promise.all([invite('hugo@example.test'), invite('hugo.two@example.test')]);
    const accept = (url: string) =>
      anon('POST', `/api/public/invitations/${tokenOf(url)}/accept`, { username: 'hugo', password: STRONG });
    const answers = await Promise.all([accept(first.url), accept(second.url)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const loserAt = answers.findIndex((a) => a.status === 409);
    const loser = answers[loserAt];
    if (!loser) throw new Error('no 409 among the answers');
    expect(await readError(loser)).toMatchObject({ code: 'USERNAME_TAKEN', message: ACCOUNT_TEXTS.usernameTaken });
    const users = await json<{ userId: string; email: string | null; disabled: boolean }[]>(
      call('admin', 'GET', '/api/admin/users?q=hugo'),
    );
    expect(users.map((u) => [u.userId, u.disabled])).toEqual([['hugo', false]]);
    // The losing invitation is still usable with another username.
    const losing = loserAt === 0 ? first : second;
    const retried = await anon('POST', `/api/public/invitations/${tokenOf(losing.url)}/accept`, {
      username: 'hugo2',
      password: STRONG,
    });
    expect(retried.status).toBe(201);
  });

  it('refuses a revoked, an expired, an unknown link and one whose workspace is gone, each with its message', async () => {
    const revoked = await invite('gina@example.test');
    expect((await call('bob', 'DELETE', `/api/invitations/${revoked.id}`)).status).toBe(404);
    expect((await call('alice', 'DELETE', `/api/invitations/${revoked.id}`)).status).toBe(200);
    const revokedAnswer = await anon('GET', `/api/public/invitations/${tokenOf(revoked.url)}`);
    expect(revokedAnswer.status).toBe(410);
    expect(await readError(revokedAnswer)).toMatchObject({
      code: 'INVITATION_REVOKED',
      message: ACCOUNT_TEXTS.invitationRevoked,
    });

    const expiring = await invite('hank@example.test');
    await server.app.database.db
      .updateTable('invitations')
      .set({ expires_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', expiring.id)
      .execute();
    const expired = await anon('POST', `/api/public/invitations/${tokenOf(expiring.url)}/accept`, {
      username: 'hank',
      password: STRONG,
    });
    expect(expired.status).toBe(410);
    expect(await readError(expired)).toMatchObject({
      code: 'INVITATION_EXPIRED',
      message: ACCOUNT_TEXTS.invitationExpired,
    });
    // Resending gives a new link and a new expiry; the old link stops working.
    const resent = await json<InvitationCreated>(call('alice', 'POST', `/api/invitations/${expiring.id}/resend`));
    expect(resent.url).not.toBe(expiring.url);
    expect((await anon('GET', `/api/public/invitations/${tokenOf(expiring.url)}`)).status).toBe(404);
    expect((await anon('GET', `/api/public/invitations/${tokenOf(resent.url)}`)).status).toBe(200);

    const unknown = await anon('GET', `/api/public/invitations/${'x'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect((await readError(unknown)).message).toBe(ACCOUNT_TEXTS.invitationNotFound);

    const doomed = (await json<Workspace>(call('alice', 'POST', '/api/workspaces', { name: 'Doomed' }), 201)).id;
    const toDoomed = await json<InvitationCreated>(
      call('alice', 'POST', `/api/workspaces/${doomed}/invitations`, { email: 'ivy@example.test', role: 'viewer' }),
      201,
    );
    expect((await call('alice', 'DELETE', `/api/workspaces/${doomed}`)).status).toBe(200);
    const gone = await anon('GET', `/api/public/invitations/${tokenOf(toDoomed.url)}`);
    expect(gone.status).toBe(410);
    expect(await readError(gone)).toMatchObject({
      code: 'INVITATION_WORKSPACE_GONE',
      message: ACCOUNT_TEXTS.invitationWorkspaceGone,
    });
  });

  it('lets only owners invite to a workspace, and only admins when the setting says so', async () => {
    const asBob = await call('bob', 'POST', `/api/workspaces/${design}/invitations`, {
      email: 'x@example.test',
      role: 'viewer',
    });
    expect(asBob.status).toBe(404);
    const patched = await json<{ whoMayInvite: string }>(
      call('admin', 'PATCH', '/api/admin/invitation-settings', {
        whoMayInvite: 'admins',
        signUpDomains: ['Example.com'],
      }),
    );
    expect(patched).toEqual({ whoMayInvite: 'admins', signUpDomains: ['example.com'] });
    const refused = await call('alice', 'POST', `/api/workspaces/${design}/invitations`, {
      email: 'x@example.test',
      role: 'viewer',
    });
    expect(refused.status).toBe(403);
    expect((await readError(refused)).message).toBe(ACCOUNT_TEXTS.invitingNotAllowed);
    await json(call('admin', 'PATCH', '/api/admin/invitation-settings', { whoMayInvite: 'owners' }));
    expect((await call('alice', 'GET', '/api/admin/invitation-settings')).status).toBe(403);
  });

  it('invites to the instance as an admin; an admin invitation makes an admin', async () => {
    const created = await json<InvitationCreated>(
      call('admin', 'POST', '/api/admin/invitations', { email: 'judy@example.test', role: 'admin' }),
      201,
    );
    const list = await json<PendingInvitationList>(call('admin', 'GET', '/api/admin/invitations'));
    expect(list.items.map((i) => i.email)).toContain('judy@example.test');
    expect(
      (await call('alice', 'POST', '/api/admin/invitations', { email: 'k@example.test', role: 'user' })).status,
    ).toBe(403);
    const shown = await json<PublicInvitation>(anon('GET', `/api/public/invitations/${tokenOf(created.url)}`));
    expect(shown.workspaceName).toBeUndefined();
    const accepted = await anon('POST', `/api/public/invitations/${tokenOf(created.url)}/accept`, {
      username: 'judy',
      password: STRONG,
    });
    expect(((await accepted.json()) as MeResponse).isAdmin).toBe(true);
  });

  it('changes a password: the old one stops working and the other sessions end', async () => {
    const first = cookieOf(await login('frank', STRONG));
    const second = cookieOf(await login('frank', STRONG));
    const wrong = await sendJson(server, first, 'POST', '/api/me/password', {
      currentPassword: 'not-it-at-all-123',
      newPassword: 'a-brand-new-secret-77',
    });
    expect(wrong.status).toBe(403);
    expect((await readError(wrong)).message).toBe(ACCOUNT_TEXTS.wrongCurrentPassword);
    const changed = await sendJson(server, first, 'POST', '/api/me/password', {
      currentPassword: STRONG,
      newPassword: 'a-brand-new-secret-77',
    });
    // `second` and the session accepting the invitation started.
    expect(await changed.json()).toEqual({ ok: true, otherSessionsEnded: 2 });
    expect((await sendJson(server, first, 'GET', '/api/me')).status).toBe(200);
    expect((await sendJson(server, second, 'GET', '/api/me')).status).toBe(401);
    expect((await login('frank', STRONG)).status).toBe(401);
    expect((await login('frank', 'a-brand-new-secret-77')).status).toBe(200);
    const oidcUser = await call('alice', 'POST', '/api/me/password', { currentPassword: 'x', newPassword: STRONG });
    expect(oidcUser.status).toBe(409);
  });

  it('creates a local account as an admin and hands over a link to set its password; resets are single use', async () => {
    const created = await json<{ ownerKey: string; url: string }>(
      call('admin', 'POST', '/api/admin/users', { username: 'kim', email: 'kim@example.test', name: 'Kim' }),
      201,
    );
    expect(created.ownerKey).toBe('kim');
    const token = resetTokenOf(created.url);
    expect(await json(anon('GET', `/api/public/password-reset/${token}`))).toMatchObject({
      username: 'kim',
      name: 'Kim',
    });
    expect((await login('kim', STRONG)).status).toBe(401);
    const weak = await anon('POST', `/api/public/password-reset/${token}`, { password: 'password1234' });
    expect(weak.status).toBe(400);
    expect(await json(anon('POST', `/api/public/password-reset/${token}`, { password: STRONG }))).toEqual({ ok: true });
    const session = cookieOf(await login('kim', STRONG));
    const used = await anon('POST', `/api/public/password-reset/${token}`, { password: STRONG });
    expect(used.status).toBe(410);
    expect((await readError(used)).message).toBe(ACCOUNT_TEXTS.resetLinkGone);

    // An admin's reset link ends every session once used.
    // The admin's users list marks local accounts (their rows offer a reset link).
    const listed = await json<{ userId: string; localAccount: boolean }[]>(call('admin', 'GET', '/api/admin/users'));
    expect(listed.find((u) => u.userId === 'kim')?.localAccount).toBe(true);
    expect(listed.find((u) => u.userId === 'alice')?.localAccount).toBe(false);
    const reset = await json<{ url: string }>(call('admin', 'POST', '/api/admin/users/kim/password-reset'));
    await json(
      anon('POST', `/api/public/password-reset/${resetTokenOf(reset.url)}`, { password: 'kim-other-secret-88' }),
    );
    expect((await sendJson(server, session, 'GET', '/api/me')).status).toBe(401);
    expect((await call('admin', 'POST', '/api/admin/users/alice/password-reset')).status).toBe(404);
    expect((await call('alice', 'POST', '/api/admin/users/kim/password-reset')).status).toBe(403);
  });

  it('answers "Forgot password?" the same whether or not the address has an account', async () => {
    const seen: string[] = [];
    server.app.events.on('password.reset.issued', 'test', async (issued) => {
      seen.push(issued.url);
    });
    const known = await anon('POST', '/api/public/password-reset', { email: 'KIM@example.test' });
    const unknown = await anon('POST', '/api/public/password-reset', { email: 'nobody@example.test' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{32}$/);
    const token = resetTokenOf(seen[0] ?? '');
    await json(anon('POST', `/api/public/password-reset/${token}`, { password: 'kim-third-secret-99' }));
    expect((await login('kim@example.test', 'kim-third-secret-99')).status).toBe(200);
  });

  it('limits "Forgot password?" requests per client (20 an hour)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1)
      statuses.push((await anon('POST', '/api/public/password-reset', { email: `n${i}@example.test` })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 202).length).toBe(18); // two came from the test before
  });
});
