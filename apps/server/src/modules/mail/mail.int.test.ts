import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmailPreferences } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationSent } from '../../events/payloads';
import {
  createPostgresDatabase,
  dialects,
  expectJson,
  freePort,
  readError,
  sendJson,
  startTestServer,
  uploadFile,
  userIdOf,
  type TestServer,
} from '../../../test/helpers';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../../test/smtp';

/** A clock that can jump ahead (the daily digest). */
const movableClock = () => {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => (offsetMs += ms) };
};

const invitation = (overrides: Partial<InvitationSent> = {}): InvitationSent => ({
  invitationId: 'inv-1',
  email: 'newcomer@example.test',
  url: 'http://127.0.0.1/invite/abc123',
  inviter: { id: 'u-1', name: 'Alice <b>Admin</b>' },
  workspace: { id: 'w-1', name: 'Design & Co' },
  role: 'editor',
  expiresAt: '2026-12-05T10:00:00.000Z',
  ...overrides,
});

const to = (address: string) => (mail: ReceivedMail) => mail.to.includes(address);

/** Shares a new file of `owner` with `recipient` (owner key) through the API; answers the file id. */
async function shareNewFile(server: TestServer, owner: string, recipient: string, name: string) {
  const uploaded = await expectJson<{ id: string }>(uploadFile(server, owner, '', name, 'hello'));
  const shared = await sendJson(server, owner, 'PUT', `/api/files/${uploaded.id}/shares/${recipient}`, {
    role: 'viewer',
  });
  expect([200, 201]).toContain(shared.status);
  return uploaded.id;
}

/** Email through SMTP (docs/PRODUCT.md#email), against a real SMTP server (smtp-server) and mailparser. */
describe.each(dialects())('email (%s)', (dialect) => {
  describe('with SMTP', () => {
    let smtp: TestSmtp;
    let server: TestServer;
    const clock = movableClock();
    beforeAll(async () => {
      smtp = await startSmtp();
      server = await startTestServer({
        dialect,
        env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atrium <atrium@example.test>' },
        overrides: { clock },
      });
    });
    afterAll(async () => {
      await server?.close();
      await smtp?.close();
    });

    it('sends an invitation with its link, in plain text and escaped HTML', async () => {
      await server.app.events.emit('invitation.sent', invitation());
      const mail = await smtp.waitFor(to('newcomer@example.test'));
      expect(mail.from).toBe('atrium@example.test');
      expect(mail.subject).toBe('Alice <b>Admin</b> invited you to Design & Co on Atrium');
      expect(mail.links).toContain('http://127.0.0.1/invite/abc123');
      expect(mail.text).toContain('Atrium');
      expect(mail.html).toContain('href="http://127.0.0.1/invite/abc123"');
      expect(mail.html).toContain('Alice &#60;b&#62;Admin&#60;/b&#62;');
      expect(mail.html).not.toContain('<b>Admin');
      // An invitation is not a notice: no unsubscribe link.
      expect(mail.header('List-Unsubscribe')).toBeUndefined();
    });

    it('sends a password reset link', async () => {
      await server.app.events.emit('password.reset.issued', {
        userId: 'u-2',
        email: 'forgetful@example.test',
        name: 'Fran',
        url: 'http://127.0.0.1/reset/xyz789',
        expiresAt: '2026-11-28T12:00:00.000Z',
      });
      const mail = await smtp.waitFor(to('forgetful@example.test'));
      expect(mail.subject).toBe('Reset your Atrium password');
      expect(mail.links).toContain('http://127.0.0.1/reset/xyz789');
      expect(mail.text).toContain('Hello Fran,');
    });

    it('sends share notices only to people who opted in, and the signed link turns them off', async () => {
      const alice = await server.signInAs({ owner_key: 'mail-alice' });
      const bob = await server.signInAs({ owner_key: 'mail-bob', email: 'bob@example.test' });
      const before = await expectJson(sendJson(server, bob, 'GET', '/api/me/email-preferences'));
      expect(EmailPreferences.parse(before)).toEqual({
        available: true,
        address: 'bob@example.test',
        shareNotices: false,
        memberNotices: false,
        dailyDigest: false,
      });

      await shareNewFile(server, alice, 'mail-bob', 'not-mailed.txt');
      await server.app.mail.idle();

      const on = await expectJson(sendJson(server, bob, 'PUT', '/api/me/email-preferences', { shareNotices: true }));
      expect(on).toMatchObject({ shareNotices: true, memberNotices: false });
      const fileId = await shareNewFile(server, alice, 'mail-bob', 'mailed.txt');
      const mail = await smtp.waitFor((m) => to('bob@example.test')(m) && m.subject.includes('mailed.txt'));
      expect(smtp.received.filter((m) => m.subject.includes('not-mailed.txt'))).toHaveLength(0);
      expect(mail.links).toContain(`${server.url}/dashboard/shared?file=${fileId}`);
      const unsubscribe = mail.links.find((link) => link.includes('/api/public/unsubscribe'));
      expect(unsubscribe).toBeDefined();
      expect(mail.header('List-Unsubscribe')).toBe(`<${unsubscribe}>`);
      expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(mail.html).toContain('Unsubscribe');

      // Tampered: another kind, another person, another token → 400, nothing changes.
      const url = new URL(String(unsubscribe));
      for (const [name, value] of [
        ['k', 'digest'],
        ['u', await userIdOf(server, 'mail-alice')],
        ['t', 'A'.repeat(43)],
      ] as const) {
        const tampered = new URL(url);
        tampered.searchParams.set(name, value);
        const refused = await fetch(tampered);
        expect(refused.status).toBe(400);
        expect((await readError(refused)).code).toBe('VALIDATION_FAILED');
      }
      expect(await expectJson(sendJson(server, bob, 'GET', '/api/me/email-preferences'))).toMatchObject({
        shareNotices: true,
      });

      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('You will no longer get an email when something is shared with you.');
      expect(await expectJson(sendJson(server, bob, 'GET', '/api/me/email-preferences'))).toMatchObject({
        shareNotices: false,
      });
      const count = smtp.received.length;
      await shareNewFile(server, alice, 'mail-bob', 'after-unsubscribe.txt');
      await server.app.mail.idle();
      expect(smtp.received.length).toBe(count);
    });

    it('answers an RFC 8058 one-click unsubscribe', async () => {
      const alice = await server.signInAs({ owner_key: 'mail-alice' });
      const dora = await server.signInAs({ owner_key: 'mail-dora', email: 'dora@example.test' });
      await sendJson(server, dora, 'PUT', '/api/me/email-preferences', { shareNotices: true });
      await shareNewFile(server, alice, 'mail-dora', 'one-click.txt');
      const mail = await smtp.waitFor(to('dora@example.test'));
      const target = String(mail.header('List-Unsubscribe')).replace(/^<(.+)>$/, '$1');
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ kind: 'share', unsubscribed: true });
      expect(await expectJson(sendJson(server, dora, 'GET', '/api/me/email-preferences'))).toMatchObject({
        shareNotices: false,
      });
    });

    it('sends the membership notice to a person who opted in', async () => {
      const owner = await server.signInAs({ owner_key: 'mail-owner' });
      const erin = await server.signInAs({ owner_key: 'mail-erin', email: 'erin@example.test' });
      await sendJson(server, erin, 'PUT', '/api/me/email-preferences', { memberNotices: true });
      const workspace = await expectJson<{ id: string }>(
        sendJson(server, owner, 'POST', '/api/workspaces', { name: 'Mail <Team>' }),
        201,
      );
      const added = await sendJson(server, owner, 'PUT', `/api/workspaces/${workspace.id}/members/mail-erin`, {
        role: 'editor',
      });
      expect(added.status).toBe(200);
      const mail = await smtp.waitFor(to('erin@example.test'));
      expect(mail.subject).toMatch(/^mail-owner (added|invited) you to Mail <Team>$/);
      expect(mail.html).toContain('Mail &#60;Team&#62;');
      expect(mail.links.some((link) => link.includes('/api/public/unsubscribe') && link.includes('k=member'))).toBe(
        true,
      );
    });

    it('refuses unknown choices and an empty change', async () => {
      const cookie = await server.signInAs({ owner_key: 'mail-fay' });
      for (const body of [{}, { shareNotices: 'yes' }, { shareNotices: true, weekly: true }]) {
        const response = await sendJson(server, cookie, 'PUT', '/api/me/email-preferences', body);
        expect(response.status).toBe(400);
      }
      const anonymous = await server.fetch('/api/me/email-preferences');
      expect(anonymous.status).toBe(401);
    });

    // Last: it moves the clock a day ahead.
    it('sends a daily digest of what is unread since the last one, once', async () => {
      const alice = await server.signInAs({ owner_key: 'mail-alice' });
      const gus = await server.signInAs({ owner_key: 'mail-gus', email: 'gus@example.test' });
      await sendJson(server, gus, 'PUT', '/api/me/email-preferences', { dailyDigest: true });
      expect(await server.app.mail.sendDigests()).toBe(0);
      await shareNewFile(server, alice, 'mail-gus', 'digest-one.txt');
      await shareNewFile(server, alice, 'mail-gus', 'digest-two.txt');
      // Not a day yet since opting in: nothing.
      expect(await server.app.mail.sendDigests()).toBe(0);
      clock.advance(25 * 60 * 60 * 1000);
      expect(await server.app.mail.sendDigests()).toBe(1);
      const mail = await smtp.waitFor(to('gus@example.test'));
      expect(mail.subject).toBe('Atrium: 2 unread notifications');
      expect(mail.text).toContain('digest-one.txt');
      expect(mail.text).toContain('digest-two.txt');
      expect(mail.links.some((link) => link.includes('k=digest'))).toBe(true);
      // Nothing new since: no second digest, even a day later.
      expect(await server.app.mail.sendDigests()).toBe(0);
      clock.advance(25 * 60 * 60 * 1000);
      expect(await server.app.mail.sendDigests()).toBe(0);
    });
  });

  it('SMTP down: the request that caused a mail succeeds at once, and the outbox retries until it arrives', async () => {
    const port = await freePort();
    const server = await startTestServer({
      dialect,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
      overrides: { mailOutbox: { backoffMs: 50 } },
    });
    let smtp: TestSmtp | undefined;
    try {
      const alice = await server.signInAs({ owner_key: 'down-alice' });
      const bob = await server.signInAs({ owner_key: 'down-bob', email: 'down-bob@example.test' });
      await sendJson(server, bob, 'PUT', '/api/me/email-preferences', { shareNotices: true });
      const started = Date.now();
      await shareNewFile(server, alice, 'down-bob', 'while-down.txt');
      expect(Date.now() - started).toBeLessThan(5_000);
      await server.app.mail.idle();
      expect(await server.app.mail.counts()).toEqual({ waiting: 1, sent: 0, gaveUp: 0 });

      smtp = await startSmtp(port);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A retry sends it (this one, or the scheduler's if it came first).
      await server.app.mail.deliverDue();
      const mail = await smtp.waitFor(to('down-bob@example.test'));
      expect(mail.subject).toContain('while-down.txt');
      await server.app.mail.idle();
      expect(await server.app.mail.counts()).toEqual({ waiting: 0, sent: 1, gaveUp: 0 });
    } finally {
      await server.close();
      await smtp?.close();
    }
  });

  it('a restart loses nothing: a message queued while SMTP was down is sent by the next start', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-mail-'));
    const pg = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
    const start = () =>
      startTestServer({
        dialect,
        dataDir,
        ...(pg ? { databaseUrl: pg.url } : {}),
        env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
        // Quick retries that never give up: however slow the machine, the message is still waiting at the restart.
        overrides: { mailOutbox: { backoffMs: 50, maxAttempts: 1_000 } },
      });
    let smtp: TestSmtp | undefined;
    try {
      const first = await start();
      await first.app.events.emit('invitation.sent', invitation({ email: 'after-restart@example.test' }));
      await first.app.mail.idle();
      expect(await first.app.mail.counts()).toEqual({ waiting: 1, sent: 0, gaveUp: 0 });
      await first.close();

      smtp = await startSmtp(port);
      const second = await start();
      try {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await second.app.mail.deliverDue();
        const mail = await smtp.waitFor(to('after-restart@example.test'));
        expect(mail.links).toContain('http://127.0.0.1/invite/abc123');
        // The start-up run may be the one that sent it: let it record the sending.
        await second.app.mail.idle();
        expect(await second.app.mail.counts()).toEqual({ waiting: 0, sent: 1, gaveUp: 0 });
      } finally {
        await second.close();
      }
    } finally {
      await smtp?.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('SMTP off: nothing is stored or sent and nothing fails', async () => {
    const server = await startTestServer({ dialect });
    try {
      const alice = await server.signInAs({ owner_key: 'off-alice' });
      const bob = await server.signInAs({ owner_key: 'off-bob', email: 'off-bob@example.test' });
      const on = await expectJson(sendJson(server, bob, 'PUT', '/api/me/email-preferences', { shareNotices: true }));
      expect(on).toMatchObject({ available: false, shareNotices: true });
      await shareNewFile(server, alice, 'off-bob', 'no-mail.txt');
      await server.app.events.emit('invitation.sent', invitation());
      await server.app.mail.idle();
      expect(await server.app.mail.counts()).toEqual({ waiting: 0, sent: 0, gaveUp: 0 });
      expect(await server.app.mail.deliverDue()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
