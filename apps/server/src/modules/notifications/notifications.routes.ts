import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import { SESSION_COOKIE } from '../../plugins/session';
import { sessionIdOf } from '../auth';
import { parseLastEventId, type NotificationHub } from './notification-hub';
import type { NotificationsService } from './notifications.service';
import type { NotificationInboxService } from './notification-inbox.service';
import { routesOf } from '../../plugins/route';

const E = ENDPOINTS.notifications;

/** The notification service (docs/PRODUCT.md#api-paths): subscribe, publish, count, stream, the feed, the welcome notification and Web Push's key. */
export function registerNotificationRoutes(
  app: FastifyInstance,
  deps: {
    notifications: NotificationsService;
    inbox: NotificationInboxService;
    hub: NotificationHub;
    events: EventEmitter;
  },
) {
  const tags = ['notifications'];

  const serve = routesOf(app, { config: { access: 'user' }, tags });

  serve(E.subscribe, {
    summary: 'Subscribe the signed-in user (idempotent); optionally store this browser’s Web Push subscription',
    handler: async (request) => {
      const user = await request.requireUser();
      return deps.notifications.subscribe(user, request.body.subscription);
    },
  });

  serve(E.publish, {
    // Admins publish to anyone; a workspace's owners to its members: the service decides (403 otherwise).
    summary:
      "Publish a notification to everyone or one person (admins), or to one workspace's members (its owners, admins)",
    errors: [400, 403, 404],
    handler: async (request) => {
      const admin = await request.requireUser();
      const published = await deps.notifications.publish(admin, request.body);
      await deps.events.emit(
        'notification.published',
        changeBy(request, admin, { target: `notification:${published.id}`, details: { message: published.message } }),
      );
      return published;
    },
  });

  serve(E.feed, {
    summary: 'The signed-in user’s notifications, newest first',
    handler: async (request) => deps.notifications.feed(await request.requireUser(), request.query.limit),
  });

  // The server's list is the truth (docs/PRODUCT.md#notifications): read state and Clear all are per person.
  serve(E.inbox, {
    summary:
      'The signed-in user’s notifications with their read state and unread count, newest first, a page at a time',
    errors: [400],
    handler: async (request) =>
      deps.inbox.page((await request.requireUser()).id, request.query.limit, request.query.cursor),
  });

  serve(E.markRead, {
    summary: 'Mark one of the signed-in user’s notifications read (404 for one they do not see)',
    errors: [400, 404],
    handler: async (request) => deps.inbox.markRead((await request.requireUser()).id, request.params.id),
  });

  serve(E.markAllRead, {
    summary: 'Mark every notification of the signed-in user read, on every device',
    handler: async (request) => deps.inbox.markAllRead((await request.requireUser()).id),
  });

  serve(E.clear, {
    summary: 'Hide every notification so far for the signed-in user only (Clear all), on every device',
    handler: async (request) => deps.inbox.clear((await request.requireUser()).id),
  });

  serve(E.subscriberCount, {
    config: adminOnly('notifications'),
    summary: 'How many users are subscribed, browsers get push, and streams are open now (admins only)',
    handler: async () => ({ ...(await deps.notifications.countSubscribers()), openStreams: deps.hub.size }),
  });

  serve(E.welcome, {
    summary: 'Create the signed-in user’s welcome notification (once per user)',
    handler: async (request) => deps.notifications.welcome(await request.requireUser()),
  });

  serve(E.vapidPublicKey, {
    config: { access: 'public' },
    summary: 'The VAPID public key for PushManager.subscribe',
    handler: async () => ({ publicKey: deps.notifications.vapidPublicKey() }),
  });

  serve(E.stream, {
    // Many clients reconnect at once (a restart, a network blip): the session may be verified from memory.
    config: { access: 'user', session: 'cached' },
    logLevel: 'warn',
    summary: 'Server-Sent Events: one event per notification (id = notification id); resumes after Last-Event-ID',
    headers: z.object({ 'last-event-id': z.string().optional() }).loose(),
    handler: async (request, reply) => {
      const user = await request.requireUser();
      const sessionId = sessionIdOf(request.cookies[SESSION_COOKIE] ?? '');
      const lastEventId = parseLastEventId(request.headers['last-event-id'] ?? request.query.lastEventId);
      reply.hijack();
      await deps.hub.attach({ userId: user.id, sessionId }, request.raw, reply.raw, reply.getHeaders(), lastEventId);
    },
  });
}
