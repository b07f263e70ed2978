import type { EmailKind, EmailPreferences, EmailPreferencesPatch } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { InvitationSent, MemberAdded, PasswordResetIssued, ReactionEvents } from '../../events/payloads';
import { iso, type Clock } from '../../lib/time';
import type { MailRepository, NoticeColumn } from './mail.repository';
import {
  digestEmail,
  invitationEmail,
  memberNoticeEmail,
  passwordResetEmail,
  shareNoticeEmail,
  signUpEmail,
  type MailContent,
} from './mail.templates';
import type { Outbox } from './outbox';
import { unsubscribeToken, unsubscribeTokenMatches } from './unsubscribe-token';

const COLUMN: Record<EmailKind, NoticeColumn> = {
  share: 'share_notices',
  member: 'member_notices',
  digest: 'daily_digest',
};

const DAY_MS = 24 * 60 * 60 * 1000;
/** At most this many messages are listed in a digest; the rest are counted. */
const DIGEST_LIST = 20;

export interface MailServiceDeps {
  repo: MailRepository;
  outbox: Outbox;
  clock: Clock;
  enabled: boolean;
  publicUrl: string;
  secret: string;
  /** What a person has not read, stored after `after` (the notifications module). */
  unreadAfter(userId: string, after: string, limit: number): Promise<{ message: string }[]>;
}

/**
 * Email (docs/PRODUCT.md#email): each person's opt-in, the signed unsubscribe links, and the emails of the events the
 * module reacts to. Every email goes through the outbox, so a request never waits on SMTP.
 */
export function createMailService(deps: MailServiceDeps) {
  const { repo, outbox, clock, publicUrl, secret } = deps;

  const unsubscribeUrl = (userId: string, kind: EmailKind) =>
    `${publicUrl}/api/public/unsubscribe?u=${encodeURIComponent(userId)}&k=${kind}&t=${unsubscribeToken(secret, userId, kind)}`;

  /** RFC 8058: a mail client offers "Unsubscribe" and posts to the link itself. */
  const unsubscribeHeaders = (userId: string, kind: EmailKind) => ({
    'List-Unsubscribe': `<${unsubscribeUrl(userId, kind)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });

  const send = (to: string, content: MailContent, headers?: Record<string, string>) =>
    outbox.enqueue({ to, ...content, ...(headers ? { headers } : {}) });

  /** A notice to `userId` when they opted in to `kind` and have an address. */
  async function notice(userId: string, kind: EmailKind, content: (unsubscribe: string) => MailContent) {
    if (!deps.enabled) return;
    const person = await repo.person(userId);
    if (!person?.email || person.disabled_at || person[COLUMN[kind]] !== 1) return;
    await send(person.email, content(unsubscribeUrl(userId, kind)), unsubscribeHeaders(userId, kind));
  }

  const present = (person: Awaited<ReturnType<MailRepository['person']>>): EmailPreferences => ({
    available: deps.enabled,
    address: person?.email ?? null,
    shareNotices: person?.share_notices === 1,
    memberNotices: person?.member_notices === 1,
    dailyDigest: person?.daily_digest === 1,
  });

  return {
    async get(actor: UserActor): Promise<EmailPreferences> {
      return present(await repo.person(actor.id));
    },

    async update(actor: UserActor, patch: EmailPreferencesPatch): Promise<EmailPreferences> {
      const values: Partial<Record<NoticeColumn, number>> = {};
      if (patch.shareNotices !== undefined) values.share_notices = patch.shareNotices ? 1 : 0;
      if (patch.memberNotices !== undefined) values.member_notices = patch.memberNotices ? 1 : 0;
      const now = iso(clock.now());
      // Turning the digest on starts it from now: the first one holds what arrives after.
      if (patch.dailyDigest !== undefined) {
        const before = await repo.person(actor.id);
        values.daily_digest = patch.dailyDigest ? 1 : 0;
        if (patch.dailyDigest && before?.daily_digest !== 1) {
          await repo.save(actor.id, { ...values, last_digest_at: now }, now);
          return present(await repo.person(actor.id));
        }
      }
      await repo.save(actor.id, values, now);
      return present(await repo.person(actor.id));
    },

    /** A signed link turns `kind` off for its person; a link that does not match → 400, an unknown person → 404. */
    async unsubscribe(userId: string, kind: EmailKind, token: string): Promise<void> {
      if (!unsubscribeTokenMatches(secret, userId, kind, token)) {
        throw new AppError('VALIDATION_FAILED', 'This unsubscribe link is not valid.');
      }
      if (!(await repo.person(userId))) throw new AppError('NOT_FOUND', 'No such person.');
      await repo.save(userId, { [COLUMN[kind]]: 0 }, iso(clock.now()));
    },

    async invitation(invite: InvitationSent): Promise<void> {
      await send(
        invite.email,
        invitationEmail({
          url: invite.url,
          inviterName: invite.inviter.name,
          workspaceName: invite.workspace?.name ?? null,
          expiresAt: invite.expiresAt,
        }),
      );
    },

    async passwordReset(reset: PasswordResetIssued): Promise<void> {
      await send(reset.email, passwordResetEmail({ url: reset.url, name: reset.name, expiresAt: reset.expiresAt }));
    },

    async signUp(request: { email: string; url: string; expiresAt: string | null }): Promise<void> {
      await send(request.email, signUpEmail({ url: request.url, expiresAt: request.expiresAt }));
    },

    async shareGranted({ recipientIds, message, item }: ReactionEvents['share.granted']): Promise<void> {
      const url = `${publicUrl}/dashboard/shared${item?.kind === 'file' ? `?file=${encodeURIComponent(item.id)}` : ''}`;
      for (const userId of recipientIds) {
        await notice(userId, 'share', (unsubscribe) => shareNoticeEmail({ message, url, unsubscribeUrl: unsubscribe }));
      }
    },

    async memberAdded(added: MemberAdded): Promise<void> {
      const invited = added.state === 'invited';
      const url = invited
        ? `${publicUrl}/dashboard/notifications`
        : `${publicUrl}/dashboard/spaces/${encodeURIComponent(added.workspace.id)}/folders`;
      await notice(added.userId, 'member', (unsubscribe) =>
        memberNoticeEmail({
          workspaceName: added.workspace.name,
          byName: added.by.name,
          role: added.role,
          invited,
          url,
          unsubscribeUrl: unsubscribe,
        }),
      );
    },

    /**
     * The daily digest (the `mail.digest` job): to each person who opted in and had none for a day, when something
     * arrived unread since the last one. Answers how many were queued.
     */
    async sendDigests(): Promise<number> {
      if (!deps.enabled) return 0;
      const now = clock.now();
      let queued = 0;
      for (const person of await repo.digestDue(iso(new Date(now.getTime() - DAY_MS + 60_000)))) {
        if (!person.email) continue;
        const since = person.last_digest_at ?? person.updated_at;
        const unread = await deps.unreadAfter(person.id, since, DIGEST_LIST + 1000);
        if (unread.length === 0) continue;
        const listed = unread.slice(0, DIGEST_LIST).map((row) => row.message);
        await send(
          person.email,
          digestEmail({
            messages: listed,
            more: unread.length - listed.length,
            url: `${publicUrl}/dashboard/notifications`,
            unsubscribeUrl: unsubscribeUrl(person.id, 'digest'),
          }),
          unsubscribeHeaders(person.id, 'digest'),
        );
        await repo.save(person.id, { last_digest_at: iso(now) }, iso(now));
        queued += 1;
      }
      return queued;
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
