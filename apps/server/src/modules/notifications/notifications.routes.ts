import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import { SESSION_COOKIE } from '../../plugins/session';
import { sessionIdOf } from '../auth/sessions.service';
import { parseLastEventId, type NotificationHub } from './notification-hub';
import type { NotificationsService } from './notifications.service';

const E = ENDPOINTS.notifications;

/** The notification service (docs/PRODUCT.md#api-paths): subscribe, publish, count, stream, the feed, the welcome notification and Web Push's key. */
export function registerNotificationRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; hub: NotificationHub; events: EventEmitter },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];

  typed.route({
    method: E.subscribe.method,
    url: E.subscribe.path,
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Subscribe the signed-in user (idempotent); optionally store this browser’s Web Push subscription',
      body: E.subscribe.body,
      response: { 200: E.subscribe.response, 401: ErrorResponse },
    },
    handler: async (request) => {
      const user = await request.requireUser();
      return deps.notifications.subscribe(user, request.body.subscription);
    },
  });

  typed.route({
    method: E.publish.method,
    url: E.publish.path, // Admins publish to anyone; a workspace's owners to its members: the service decides (403 otherwise).
    config: { access: 'user' },
    schema: {
      tags,
      summary:
        "Publish a notification to everyone or one person (admins), or to one workspace's members (its owners, admins)",
      body: E.publish.body,
      response: {
        200: E.publish.response,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request) => {
      const admin = await request.requireUser();
      const published = await deps.notifications.publish(admin, request.body);
      await deps.events.emit('notification.published', {
        actor: admin.ownerKey,
        target: `notification:${published.id}`,
        details: { message: published.message },
        ...requestContext(request),
      });
      return published;
    },
  });

  typed.route({
    method: E.feed.method,
    url: E.feed.path,
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'The signed-in user’s notifications, newest first',
      querystring: E.feed.query,
      response: { 200: E.feed.response, 401: ErrorResponse },
    },
    handler: async (request) => deps.notifications.feed(await request.requireUser(), request.query.limit),
  });

  typed.route({
    method: E.subscriberCount.method,
    url: E.subscriberCount.path,
    config: adminOnly('notifications'),
    schema: {
      tags,
      summary: 'How many users are subscribed, browsers get push, and streams are open now (admins only)',
      response: { 200: E.subscriberCount.response, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async () => ({ ...(await deps.notifications.countSubscribers()), openStreams: deps.hub.size }),
  });

  typed.route({
    method: E.welcome.method,
    url: E.welcome.path,
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Create the signed-in user’s welcome notification (once per user)',
      response: { 200: E.welcome.response, 401: ErrorResponse },
    },
    handler: async (request) => deps.notifications.welcome(await request.requireUser()),
  });

  typed.route({
    method: E.vapidPublicKey.method,
    url: E.vapidPublicKey.path,
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'The VAPID public key for PushManager.subscribe',
      response: { 200: E.vapidPublicKey.response },
    },
    handler: async () => ({ publicKey: deps.notifications.vapidPublicKey() }),
  });

  typed.route({
    method: E.stream.method,
    url: E.stream.path, // Many clients reconnect at once (a restart, a network blip): the session may be verified from memory.
    config: { access: 'user', session: 'cached' },
    logLevel: 'warn',
    schema: {
      tags,
      summary: 'Server-Sent Events: one event per notification (id = notification id); resumes after Last-Event-ID',
      querystring: E.stream.query,
      headers: z.object({ 'last-event-id': z.string().optional() }).loose(),
      response: { 401: ErrorResponse },
    },
    handler: async (request, reply) => {
      const user = await request.requireUser();
      const sessionId = sessionIdOf(request.cookies[SESSION_COOKIE] ?? '');
      const lastEventId = parseLastEventId(request.headers['last-event-id'] ?? request.query.lastEventId);
      reply.hijack();
      await deps.hub.attach({ userId: user.id, sessionId }, request.raw, reply.raw, reply.getHeaders(), lastEventId);
    },
  });
}
