import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  SCHEDULE_MAX_AHEAD_DAYS,
  SCHEDULE_TEXTS,
  type ScheduledNotification,
  type ScheduleNotificationRequest,
} from '@atrium/contracts';
import { isActiveAdminAccount } from '../../auth/policies/admin';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { EventEmitter } from '../../events';
import type { SessionUser } from '../auth';
import { audienceOf, presentAudience } from './notifications.repository';
import type { NotificationsService } from './notifications.service';
import type { ScheduledNotificationsRepository } from './scheduled-notifications.repository';

/** How often the jobs home looks for due messages: a message goes out at most this late. */
export const SCHEDULED_SEND_INTERVAL_MS = 15_000;
/** A claim older than this belongs to an instance that died while sending: another one takes it over. */
const STALE_CLAIM_MS = 5 * 60_000;
const DUE_BATCH = 50;
/** The pending list's length (the screen shows them all; a longer backlog is not a real use). */
const UNSENT_LIST_MAX = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

type View = NonNullable<Awaited<ReturnType<ScheduledNotificationsRepository['findView']>>>;

const present = (view: View): ScheduledNotification => ({
  id: view.id,
  message: view.message,
  sendAt: view.send_at,
  createdAt: view.created_at,
  createdBy: view.creator_key ? { userId: view.creator_key, name: view.creator_name } : null,
  audience: presentAudience(view),
  state: view.state,
  notificationId: view.notification_seq === null ? null : String(view.notification_seq),
});

export interface ScheduledNotificationsDeps {
  repo: ScheduledNotificationsRepository;
  notifications: Pick<NotificationsService, 'prepare' | 'publishPrepared'>;
  events: EventEmitter;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

/**
 * Messages an admin schedules for later: checked like a publish when scheduled (audience, message) plus the time
 * (future, at most SCHEDULE_MAX_AHEAD_DAYS ahead); sent by the jobs home (`sendDue`), each exactly once: an instance
 * claims a message with a conditional update, and the notification it becomes has the dedupe key
 * `scheduled:<id>`, so a claim taken over from a dead instance never stores it twice. A message whose author is no
 * longer an admin when it falls due is withdrawn (cancelled, audited with no actor), not sent.
 */
export const createScheduledNotificationsService = ({
  repo,
  notifications,
  events,
  clock,
  log,
}: ScheduledNotificationsDeps) => {
  const view = async (id: string): Promise<ScheduledNotification> => {
    const found = await repo.findView(id);
    if (!found) throw new AppError('NOT_FOUND', SCHEDULE_TEXTS.notPending);
    return present(found);
  };

  return {
    async schedule(user: SessionUser, input: ScheduleNotificationRequest): Promise<ScheduledNotification> {
      const { message, audience } = await notifications.prepare(user, input);
      const now = clock.now();
      const sendAt = new Date(input.sendAt);
      if (sendAt.getTime() <= now.getTime()) throw new AppError('BAD_REQUEST', SCHEDULE_TEXTS.inPast);
      if (sendAt.getTime() - now.getTime() > SCHEDULE_MAX_AHEAD_DAYS * DAY_MS) {
        throw new AppError('BAD_REQUEST', SCHEDULE_TEXTS.tooFar);
      }
      const id = randomUUID();
      await repo.insert({ id, message, audience, createdBy: user.id, sendAt: iso(sendAt), createdAt: iso(now) });
      return view(id);
    },

    /** Messages not sent yet, soonest first. */
    async listUnsent(): Promise<ScheduledNotification[]> {
      return (await repo.listUnsent(UNSENT_LIST_MAX)).map(present);
    },

    /** Cancels a pending message; 404 when it is unknown, already sent, being sent or cancelled. */
    async cancel(id: string): Promise<ScheduledNotification> {
      const cancelled = await repo.cancel(id, iso(clock.now()));
      if (!cancelled) throw new AppError('NOT_FOUND', SCHEDULE_TEXTS.notPending);
      return view(id);
    },

    countPending: () => repo.countPending(),

    /** Sends every due message this instance can claim; returns how many it sent. */
    async sendDue(): Promise<number> {
      const now = clock.now();
      const staleBefore = iso(new Date(now.getTime() - STALE_CLAIM_MS));
      let sent = 0;
      for (const id of await repo.dueIds(iso(now), staleBefore, DUE_BATCH)) {
        const claimed = await repo.claim(id, iso(now), staleBefore);
        if (!claimed) continue; // another instance has it
        try {
          // Scheduling is for admins: an author who is no longer one (or is disabled, or gone) does not publish.
          const author = await repo.findView(id);
          if (
            !author ||
            !isActiveAdminAccount({ role: author.creator_role ?? '', disabledAt: author.creator_disabled_at })
          ) {
            await repo.withdraw(id, iso(clock.now()));
            await events.emit('notification.schedule_cancelled', {
              actor: null,
              target: `scheduled:${id}`,
              details: { reason: 'author_not_admin', author: author?.creator_key ?? null },
            });
            log.info({ scheduledId: id }, 'withdrew a scheduled notification: its author is no longer an admin');
            continue;
          }
          const { created, notification } = await notifications.publishPrepared({
            message: claimed.message,
            audience: audienceOf(claimed),
            createdBy: claimed.created_by,
            dedupeKey: `scheduled:${id}`,
          });
          await repo.markSent(id, Number(notification.id), iso(clock.now()));
          sent += 1;
          if (created) {
            await events.emit('notification.published', {
              actor: author.creator_key,
              target: `notification:${notification.id}`,
              details: { message: notification.message, scheduledId: id },
            });
          }
        } catch (error) {
          // Left claimed: another run takes it over once the claim is stale (the dedupe key prevents a double send).
          log.error({ err: error, scheduledId: id }, 'could not send a scheduled notification');
        }
      }
      return sent;
    },
  };
};

export type ScheduledNotificationsService = ReturnType<typeof createScheduledNotificationsService>;
