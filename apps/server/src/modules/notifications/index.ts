/**
 * The notifications module's face: the notification list and live streams (one hub per instance, fed over the event
 * bus), Web Push, scheduled messages, and each person's read state (`notification-inbox.service.ts`,
 * `notification-reads.repository.ts`: per-user markers for "Mark all as read" and "Clear all" plus single reads, so
 * every device shows the same list, docs/PRODUCT.md#notifications). It reacts to `member.added` (a membership notice
 * to the person added or invited, docs/PRODUCT.md#workspace-members), `member.changed` (the new role),
 * `share.granted` (opens the shared item) and `drop.received` (`team-notices.ts`: arrivals through one file-drop link
 * within DROP_NOTICE_WINDOW_MS become one notice to its maker, counted per instance); sessions that end end their
 * streams on every instance.
 *
 * Publishing (`notifications.service.ts`, `prepare` then `publishPrepared`: audience policy, message length) stores the
 * notification first — inserts serialised so ids become visible in increasing order — then announces it on the bus.
 * Every instance's `notification-hub.ts` writes each notification to its open SSE streams in id order
 * (`notification-frames.ts`: each frame encoded once for all streams; HTTP/1.1 streams are written straight to their
 * socket), delivering to its audience (docs/PRODUCT.md#notification-audiences: everyone, one workspace's current
 * members, one person); a stream resuming with `Last-Event-ID` is replayed from the database first, so nothing is lost
 * or sent twice. Streams open with `session: 'cached'`; a slow client is dropped and resumes later. Web Push runs after
 * publishing (`adapters/push/`; gone subscriptions removed, `PUSH_MAX_CONSECUTIVE_FAILURES`).
 *
 * The admin's side (docs/PRODUCT.md#admin-console-api-keys-and-messages): `admin-notifications.routes.ts` — the history
 * (live deliveries counted per instance by `countLiveDeliveries`, push outcomes), scheduled messages
 * (`scheduled-notifications.*`: `sendDue` claims each due row with one conditional UPDATE so one instance sends it, run
 * by the `notifications.scheduled` job; a message whose author is no longer an admin is withdrawn). Tables in
 * `db/schema/notifications.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { createWebPushSender, loadVapidKeys } from '../../adapters/push/web-push-sender';
import type { EventBus } from '../../adapters/event-bus';
import type { Config } from '../../config';
import type { Db, Dialect } from '../../db';
import type { EventEmitter, EventSubscriber } from '../../events';
import type { RateLimiter } from '../../lib/rate-limiter';
import type { Clock } from '../../lib/time';
import type { SessionService } from '../auth';
import { registerAdminNotificationRoutes } from './admin-notifications.routes';
import { createNotificationHub, parseSessionEnd, STREAMS_END_CHANNEL } from './notification-hub';
import { createNotificationsRepository } from './notifications.repository';
import { registerNotificationRoutes } from './notifications.routes';
import { countLiveDeliveries, createNotificationsService } from './notifications.service';
import { createNotificationInbox } from './notification-inbox.service';
import { createNotificationReadsRepository } from './notification-reads.repository';
import { createDropNotices, DROP_NOTICE_WINDOW_MS } from './team-notices';
import { createScheduledNotificationsRepository } from './scheduled-notifications.repository';
import { createScheduledNotificationsService } from './scheduled-notifications.service';

export type { NotificationHub } from './notification-hub';
export { SCHEDULED_SEND_INTERVAL_MS } from './scheduled-notifications.service';

export interface NotificationsModuleDeps {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  bus: EventBus;
  config: Pick<Config, 'notifications' | 'dataDir'>;
  sessions: Pick<SessionService, 'liveSessionIds' | 'onEnded' | 'forgetCached'>;
  limiter: RateLimiter;
  events: EventEmitter & EventSubscriber;
  /** How long file-drop arrivals are gathered into one notice (DROP_NOTICE_WINDOW_MS; tests shorten it). */
  dropNoticeWindowMs?: number;
}

export async function createNotificationsModule(app: FastifyInstance, deps: NotificationsModuleDeps) {
  const { config, sessions, events, clock } = deps;
  const repo = createNotificationsRepository(deps.db, deps.dialect, clock);
  const hub = createNotificationHub({
    repo,
    bus: deps.bus,
    heartbeatMs: config.notifications.heartbeatMs,
    log: app.log,
    liveSessions: (ids) => sessions.liveSessionIds(ids),
    onDelivered: countLiveDeliveries(repo, app.log),
  });
  // A session that ends (sign-out, replaced, expired) ends its notification streams on every instance.
  sessions.onEnded((ended) =>
    hub.endStreamsOf(ended).catch((error: unknown) => app.log.warn({ err: error }, 'could not end streams')),
  );
  await hub.start();
  // Ends announced by any instance also drop the session from the stream route's memory of verified sessions.
  const unsubscribeSessionEnds = await deps.bus.subscribe(STREAMS_END_CHANNEL, (message) => {
    const ended = parseSessionEnd(message);
    if (ended) sessions.forgetCached(ended);
  });
  app.addHook('preClose', async () => unsubscribeSessionEnds().catch(() => undefined));
  // Streams never finish by themselves: end them first so close() does not wait on them.
  app.addHook('preClose', async () => hub.close());
  const notifications = createNotificationsService({
    repo,
    hub,
    push: createWebPushSender({
      keys: loadVapidKeys(config.notifications.vapid, config.dataDir),
      subject: config.notifications.vapidSubject,
      allowLoopback: config.notifications.pushAllowLoopback,
    }),
    log: app.log,
    limiter: deps.limiter,
  });
  app.addHook('preClose', async () => notifications.drain());
  deps.events.on('member.added', 'membership notice', async (notice) => {
    await notifications.notifyMembership(notice);
  });
  // One notice per recipient; one that cannot be stored does not keep the others from theirs.
  deps.events.on('share.granted', 'share notice', async ({ recipientIds, message, by, item }) => {
    for (const userId of recipientIds) {
      await notifications
        .notifyUser(userId, message, by, item ? { subject: item } : undefined)
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not notify a share recipient'));
    }
  });
  deps.events.on('member.changed', 'role change notice', async (change) => {
    await notifications.notifyRoleChange(change);
  });
  const drops = createDropNotices({
    windowMs: deps.dropNoticeWindowMs ?? DROP_NOTICE_WINDOW_MS,
    folder: (id) => repo.folderFor(id),
    send: (userId, message, details) => notifications.notifyUser(userId, message, null, details),
    log: app.log,
  });
  deps.events.on('drop.received', 'file-drop notice', async (arrival) => {
    drops.received(arrival);
    await Promise.resolve();
  });
  app.addHook('preClose', async () => drops.flushAll());
  const reads = createNotificationReadsRepository(deps.db, clock);
  const inbox = createNotificationInbox({
    reads,
    latestSeq: () => repo.latestSeq(),
  });
  registerNotificationRoutes(app, { notifications, inbox, hub, events });
  const scheduled = createScheduledNotificationsService({
    repo: createScheduledNotificationsRepository(deps.db),
    notifications,
    events,
    clock,
    log: app.log,
  });
  registerAdminNotificationRoutes(app, { notifications, scheduled, events });
  return {
    notifications,
    /** Sends the file-drop notices gathered so far now (tests). */
    flushDropNotices: () => drops.flushAll(),
    hub,
    scheduled,
    pushSubscriptions: () => repo.countPushSubscriptions(),
    /** What a person has not read, stored after `after` (ISO-8601), oldest first: the email digest. */
    unreadAfter: async (userId: string, after: string, limit: number) =>
      reads.unreadAfter(userId, await reads.marks(userId), after, limit),
  };
}
