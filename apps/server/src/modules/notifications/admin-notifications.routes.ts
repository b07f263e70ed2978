import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { NotificationsService } from './notifications.service';
import type { ScheduledNotificationsService } from './scheduled-notifications.service';
import { routesOf } from '../../plugins/route';

/**
 * The admin console's notification routes (docs/PRODUCT.md#admin-console-api-keys-and-messages): the history of what
 * was published, scheduled messages.
 */
export function registerAdminNotificationRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; scheduled: ScheduledNotificationsService; events: EventEmitter },
) {
  const tags = ['admin'];
  const E = ENDPOINTS.notifications;

  const serve = routesOf(app, { config: adminOnly('notifications'), tags });

  serve(E.history, {
    summary: 'Published notifications, newest first, with publisher, audience and delivery counts (admins)',
    description:
      '`deliveredLive` sums the live streams of every instance; the push counts grow while Web Push sends finish.',
    errors: [400],
    handler: async (request) => deps.notifications.history(request.query.limit, request.query.cursor),
  });

  serve(E.schedule, {
    summary: 'Schedule a notification for later: everyone, a workspace or one person (admins)',
    errors: [400, 404],
    handler: async (request, reply) => {
      const admin = await request.requireUser();
      const scheduled = await deps.scheduled.schedule(admin, request.body);
      await deps.events.emit(
        'notification.scheduled',
        changeBy(request, admin, {
          target: `scheduled:${scheduled.id}`,
          details: { message: scheduled.message, sendAt: scheduled.sendAt },
        }),
      );
      return reply.status(E.schedule.status).send(scheduled);
    },
  });

  serve(E.scheduled, {
    summary: 'Scheduled notifications not sent yet, soonest first (admins)',
    handler: async () => deps.scheduled.listUnsent(),
  });

  serve(E.cancelScheduled, {
    summary: 'Cancel a scheduled notification (404 once it was sent or cancelled)',
    errors: [404],
    handler: async (request) => {
      const admin = await request.requireUser();
      const cancelled = await deps.scheduled.cancel(request.params.id);
      await deps.events.emit(
        'notification.schedule_cancelled',
        changeBy(request, admin, {
          target: `scheduled:${cancelled.id}`,
          details: { message: cancelled.message, sendAt: cancelled.sendAt },
        }),
      );
      return cancelled;
    },
  });
}
