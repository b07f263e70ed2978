import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { NotificationsService } from './notifications.service';
import type { ScheduledNotificationsService } from './scheduled-notifications.service';

/** The admin console's notification routes (issue 18): the history of what was published, scheduled messages. */
export function registerAdminNotificationRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; scheduled: ScheduledNotificationsService; events: EventEmitter },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const E = ENDPOINTS.notifications;

  typed.route({
    method: E.history.method,
    url: E.history.path,
    config: adminOnly('notifications'),
    schema: {
      tags,
      summary: 'Published notifications, newest first, with publisher, audience and delivery counts (admins)',
      description:
        '`deliveredLive` sums the live streams of every instance; the push counts grow while Web Push sends finish.',
      querystring: E.history.query,
      response: { 200: E.history.response, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async (request) => deps.notifications.history(request.query.limit, request.query.cursor),
  });

  typed.route({
    method: E.schedule.method,
    url: E.schedule.path,
    config: adminOnly('notifications'),
    schema: {
      tags,
      summary: 'Schedule a notification for later: everyone, a workspace or one person (admins)',
      body: E.schedule.body,
      response: {
        [E.schedule.status]: E.schedule.response,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const admin = await request.requireUser();
      const scheduled = await deps.scheduled.schedule(admin, request.body);
      await deps.events.emit('notification.scheduled', {
        actor: admin.ownerKey,
        target: `scheduled:${scheduled.id}`,
        details: { message: scheduled.message, sendAt: scheduled.sendAt },
        ...requestContext(request),
      });
      return reply.status(E.schedule.status).send(scheduled);
    },
  });

  typed.route({
    method: E.scheduled.method,
    url: E.scheduled.path,
    config: adminOnly('notifications'),
    schema: {
      tags,
      summary: 'Scheduled notifications not sent yet, soonest first (admins)',
      response: { 200: E.scheduled.response, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async () => deps.scheduled.listUnsent(),
  });

  typed.route({
    method: E.cancelScheduled.method,
    url: E.cancelScheduled.path,
    config: adminOnly('notifications'),
    schema: {
      tags,
      summary: 'Cancel a scheduled notification (404 once it was sent or cancelled)',
      params: E.cancelScheduled.params,
      response: { 200: E.cancelScheduled.response, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => {
      const admin = await request.requireUser();
      const cancelled = await deps.scheduled.cancel(request.params.id);
      await deps.events.emit('notification.schedule_cancelled', {
        actor: admin.ownerKey,
        target: `scheduled:${cancelled.id}`,
        details: { message: cancelled.message, sendAt: cancelled.sendAt },
        ...requestContext(request),
      });
      return cancelled;
    },
  });
}
