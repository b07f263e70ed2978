import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeResponse, PublicInvitation, SignUpInfo } from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { dialects, expectJson, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../../test/smtp';

/**
 * Self-sign-up (docs/PRODUCT.md#self-sign-up) as a visitor and the admin see it: closed by default, open to the
 * admin's email domains once email is configured, the address verified by a link the SMTP server received before
 * any account exists, the same answer for an address that has an account, and a limit per client.
 */
describe.each(dialects())('self-sign-up (%s)', (dialect) => {
  let smtp: TestSmtp;
  let server: TestServer;
  let admin = '';
  const STRONG = 'saffron-glacier-compass-81';
  const anon = (method: string, path: string, body?: unknown) => sendJson(server, undefined, method, path, body);
  const signUp = (email: string) => anon('POST', '/api/public/signup', { email });
  const to = (address: string, subject: string) => (mail: ReceivedMail) =>
    mail.to.includes(address) && mail.subject === subject;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({
      dialect,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atrium <atrium@example.test>' },
    });
    admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('is closed by default: the page is not offered and a request is refused', async () => {
    expect(await expectJson<SignUpInfo>(anon('GET', '/api/public/signup'))).toEqual({ open: false, domains: [] });
    const refused = await signUp('someone@example.com');
    expect(refused.status).toBe(403);
    expect(await readError(refused)).toMatchObject({ code: 'SIGN_UP_CLOSED', message: ACCOUNT_TEXTS.signUpClosed });
  });

  it('sends a link to an allowed address; the account exists only once the link is used', async () => {
    await expectJson(
      sendJson(server, admin, 'PATCH', '/api/admin/invitation-settings', { signUpDomains: ['example.com'] }),
    );
    expect(await expectJson<SignUpInfo>(anon('GET', '/api/public/signup'))).toEqual({
      open: true,
      domains: ['example.com'],
    });

    const outside = await signUp('mallory@elsewhere.test');
    expect(outside.status).toBe(403);
    expect(await readError(outside)).toMatchObject({
      code: 'SIGN_UP_DOMAIN_NOT_ALLOWED',
      message: 'Sign-up here is open only to email addresses at example.com.',
    });
    // A look-alike domain is not the domain.
    expect((await signUp('mallory@evil-example.com')).status).toBe(403);
    expect((await signUp('not an address')).status).toBe(400);

    expect(await expectJson(signUp('Nora@Example.com'), 202)).toEqual({ ok: true });
    const mail = await smtp.waitFor(to('nora@example.com', 'Create your Atrium account'));
    const link = mail.links.find((address) => address.includes('/invite/')) ?? '';
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{32}$/);
    // Nothing can sign in yet: no account exists before the address is verified.
    const early = await anon('POST', '/api/auth/login', { username: 'nora@example.com', password: STRONG });
    expect(early.status).toBe(401);

    const token = link.split('/invite/')[1] ?? '';
    expect(await expectJson<PublicInvitation>(anon('GET', `/api/public/invitations/${token}`))).toMatchObject({
      email: 'nora@example.com',
      role: 'user',
      signUp: true,
    });
    const accepted = await anon('POST', `/api/public/invitations/${token}/accept`, {
      username: 'nora',
      password: STRONG,
      name: 'Nora North',
    });
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as MeResponse).email).toBe('nora@example.com');
    expect((await anon('POST', '/api/auth/login', { username: 'nora', password: STRONG })).status).toBe(200);
    const audit = await expectJson<{ entries: { action: string; details: Record<string, unknown> }[] }>(
      sendJson(server, admin, 'GET', '/api/admin/audit?action=invitation.created'),
    );
    expect(audit.entries[0]?.details).toMatchObject({ email: 'nora@example.com', via: 'signup' });
  });

  it('answers an address that has an account the same, and tells only its owner by email', async () => {
    const known = await signUp('nora@example.com');
    const unknown = await signUp('olga@example.com');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual(await unknown.json());
    const notice = await smtp.waitFor(to('nora@example.com', 'Your Atrium account'));
    expect(notice.links.some((address) => address.endsWith('/login'))).toBe(true);
    expect(notice.links.some((address) => address.includes('/invite/'))).toBe(false);
    await smtp.waitFor(to('olga@example.com', 'Create your Atrium account'));
  });

  it('closes again without email domains', async () => {
    await expectJson(sendJson(server, admin, 'PATCH', '/api/admin/invitation-settings', { signUpDomains: [] }));
    expect((await signUp('pia@example.com')).status).toBe(403);
  });
});

describe('self-sign-up without email configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect: 'sqlite' });
  });
  afterAll(async () => server?.close());

  it('stays closed even with domains (nothing could verify the address), and is limited per client', async () => {
    const admin = await server.signInAs({ owner_key: 'admin', role: 'admin' });
    await expectJson(
      sendJson(server, admin, 'PATCH', '/api/admin/invitation-settings', { signUpDomains: ['example.com'] }),
    );
    expect(await expectJson(sendJson(server, undefined, 'GET', '/api/public/signup'))).toEqual({
      open: false,
      domains: [],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        (await sendJson(server, undefined, 'POST', '/api/public/signup', { email: `p${i}@example.com` })).status,
      );
    expect(statuses.slice(0, 10).every((status) => status === 403)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
