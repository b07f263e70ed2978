/**
 * The mail module's face (docs/PRODUCT.md#email): email through SMTP (`adapters/mailer`, nodemailer; off without
 * `SMTP_URL`: nothing is stored or sent, nothing fails). It reacts to `invitation.sent`, `password.reset.issued`, `signup.requested`
 * (always, to the address in the event), `share.granted` and `member.added` (only to people who opted in and have an
 * address), and sends the daily digest of unread notifications (`mail.digest` job).
 *
 * `outbox.ts`: every email is a row of `mail_outbox` (migration 0034) first — the reaction returns at once — sent by a
 * kick right after the enqueue and by the `mail.outbox` job every 30 s; each row is claimed with a conditional update,
 * retried with backoff, given up after 8 attempts (logged). `mail.service.ts`: the opt-in (`mail_preferences`,
 * `GET/PUT /api/me/email-preferences`), the emails, the digest. `unsubscribe-token.ts`: the signed link
 * (`/api/public/unsubscribe?u=&k=&t=`, HMAC with the session secret per person and kind) and RFC 8058 headers.
 * `mail.templates.ts`: plain text and escaped HTML, branded "Atrium".
 */
import type { FastifyInstance } from 'fastify';
import { createMailer } from '../../adapters/mailer';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { EventSubscriber } from '../../events';
import type { Clock } from '../../lib/time';
import { createMailRepository } from './mail.repository';
import { registerMailRoutes } from './mail.routes';
import { createMailService } from './mail.service';
import { createOutbox, type OutboxOptions } from './outbox';

/** How often the outbox job looks for messages due (a retry, or one a restart left). */
export const MAIL_OUTBOX_INTERVAL_MS = 30_000;

export async function createMailModule(
  app: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    config: Config;
    events: EventSubscriber;
    unreadAfter(userId: string, after: string, limit: number): Promise<{ message: string }[]>;
    outbox?: OutboxOptions | undefined;
  },
) {
  const mailer = createMailer(deps.config.mail);
  const repo = createMailRepository(deps.db);
  const outbox = createOutbox({
    repo,
    mailer,
    clock: deps.clock,
    log: app.log,
    ...(deps.outbox ? { options: deps.outbox } : {}),
  });
  app.addHook('preClose', async () => outbox.stop());
  app.addHook('onClose', async () => mailer.close());
  const mail = createMailService({
    repo,
    outbox,
    clock: deps.clock,
    enabled: mailer.enabled,
    publicUrl: deps.config.publicUrl,
    secret: deps.config.session.secret,
    unreadAfter: deps.unreadAfter,
  });
  await registerMailRoutes(app, { mail });
  deps.events.on('invitation.sent', 'invitation email', (invite) => mail.invitation(invite));
  deps.events.on('password.reset.issued', 'password reset email', (reset) => mail.passwordReset(reset));
  deps.events.on('signup.requested', 'sign-up email', (request) => mail.signUp(request));
  deps.events.on('share.granted', 'share email', (granted) => mail.shareGranted(granted));
  deps.events.on('member.added', 'membership email', (added) => mail.memberAdded(added));
  return {
    mail: {
      deliverDue: () => outbox.deliverDue(),
      sendDigests: () => mail.sendDigests(),
      /** Waits for the sends in progress (tests). */
      idle: () => outbox.idle(),
      counts: () => repo.counts(),
      outboxIntervalMs: MAIL_OUTBOX_INTERVAL_MS,
    },
  };
}

export type MailModule = Awaited<ReturnType<typeof createMailModule>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Email (modules/mail): the outbox and the digest, for tests. */
    mail: MailModule['mail'];
  }
}
