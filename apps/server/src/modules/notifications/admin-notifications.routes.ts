import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorResponse, NotificationHistoryPage, NotificationHistoryQuery } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { NotificationsService } from './notifications.service';

/** The admin console's notification routes (issue 18): the history of what was published. */
export function registerAdminNotificationRoutes(app: FastifyInstance, deps: { notifications: NotificationsService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  typed.get(
    '/api/admin/notifications',
    {
      config: adminOnly('notifications'),
      schema: {
        tags,
        summary: 'Published notifications, newest first, with publisher, audience and delivery counts (admins)',
        description:
          '`deliveredLive` sums the live streams of every instance; the push counts grow while Web Push sends finish.',
        querystring: NotificationHistoryQuery,
        response: { 200: NotificationHistoryPage, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => deps.notifications.history(request.query.limit, request.query.cursor),
  );
}
